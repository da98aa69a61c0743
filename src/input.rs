//! Lines read from standard input with a bound on their length: input without a newline
//! (`/dev/zero`, a broken pipe's garbage) is refused at the bound instead of being gathered
//! in memory until the process aborts.

use std::io::{self, BufRead, Read};

/// The longest line read, the protocol's bound ([`taisim_agents::exec::MAX_LINE`], 1 MiB),
/// which a person's typing never nears.
pub const MAX_LINE: usize = taisim_agents::exec::MAX_LINE;

/// What [`read_line`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A line, its `\n` (if the input ended without one, none) in the buffer.
    Read,
    /// The end of the input.
    End,
    /// More than [`MAX_LINE`] bytes without a newline; the rest is left unread.
    TooLong,
}

/// Reads the next line into `buf` (cleared first), at most [`MAX_LINE`] bytes and its `\n`.
pub fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<Line> {
    buf.clear();
    let n = input
        .by_ref()
        .take(MAX_LINE as u64 + 1)
        .read_until(b'\n', buf)?;
    Ok(if n == 0 {
        Line::End
    } else if buf.len() > MAX_LINE && buf.last() != Some(&b'\n') {
        Line::TooLong
    } else {
        Line::Read
    })
}

/// A line without its ending (`\n`, or `\r\n`).
pub fn without_ending(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_up_to_the_bound_and_no_further() {
        let mut input = io::Cursor::new(b"one\r\ntwo".to_vec());
        let mut buf = Vec::new();
        assert_eq!(read_line(&mut input, &mut buf).unwrap(), Line::Read);
        assert_eq!(without_ending(&buf), b"one");
        assert_eq!(read_line(&mut input, &mut buf).unwrap(), Line::Read);
        assert_eq!(without_ending(&buf), b"two");
        assert_eq!(read_line(&mut input, &mut buf).unwrap(), Line::End);

        // A line of exactly the bound, then one byte more than it.
        let mut long = vec![b'x'; MAX_LINE];
        long.push(b'\n');
        long.extend(vec![b'y'; MAX_LINE + 1]);
        let mut input = io::Cursor::new(long);
        assert_eq!(read_line(&mut input, &mut buf).unwrap(), Line::Read);
        assert_eq!(without_ending(&buf).len(), MAX_LINE);
        assert_eq!(read_line(&mut input, &mut buf).unwrap(), Line::TooLong);
        assert_eq!(
            buf.len(),
            MAX_LINE + 1,
            "no more than the bound and a byte is held"
        );
    }
}
