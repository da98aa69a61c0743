//! Standard output for every command, without panics.
//!
//! `println!` panics when stdout is closed (`taisim … | head`) or full (`> /dev/full`).
//! Commands print through [`out!`] and [`outln!`] (or write to [`Stdout`]) instead: the first
//! failed write is kept and everything after it is dropped, and [`finish`] turns it into
//! the exit status. A closed pipe is the reader's choice, so the command ends quietly with
//! status 0, as `head` users expect; any other write error (a full disk) is reported and
//! exits with status 1, since the output is incomplete.

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Mutex;

use taisim_datasets::{write_atomically, HarnessError};

use crate::failure::Failure;

/// The first error writing stdout, if any.
static FAILURE: Mutex<Option<io::Error>> = Mutex::new(None);

fn failure() -> std::sync::MutexGuard<'static, Option<io::Error>> {
    // Nothing panics while holding the lock; a poisoned lock still holds a valid value.
    FAILURE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Standard output that records its first error and then refuses further writes (with an
/// error of the same kind, so a writer's loop stops).
pub struct Stdout;

impl Stdout {
    fn attempt<T>(f: impl FnOnce(&mut io::StdoutLock<'static>) -> io::Result<T>) -> io::Result<T> {
        let mut failed = failure();
        if let Some(e) = failed.as_ref() {
            return Err(io::Error::new(e.kind(), "standard output failed earlier"));
        }
        let result = f(&mut io::stdout().lock());
        if let Err(e) = &result {
            *failed = Some(io::Error::new(e.kind(), e.to_string()));
        }
        result
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // Whole or not at all: the escaped text may be longer than `buf`.
        self.write_all(buf).map(|()| buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        let text = escape_control_bytes(buf);
        Stdout::attempt(|out| out.write_all(&text))
    }

    fn flush(&mut self) -> io::Result<()> {
        Stdout::attempt(|out| out.flush())
    }
}

/// How `report` and `compare` end: the Markdown file written whole (a failure, a full disk,
/// leaves the previous file, not a truncated one), then `json` printed as one line, or the
/// terminal tables and a line naming the file (`Markdown {what}: PATH`). A write error of
/// stdout is kept by [`Stdout`] for [`finish`].
///
/// The default file (`given` false: `report.md` in the run, `compare.md` in B) in a
/// directory the user may not write to (a read-only mount, another user's run) is skipped
/// with a warning naming `--markdown`, and the figures are printed: reading a run needs no
/// write. A file the user named must be written.
pub fn publish(
    path: &Path,
    given: bool,
    markdown: &str,
    json: Option<serde_json::Value>,
    terminal: impl FnOnce() -> String,
    what: &str,
) -> Result<(), HarnessError> {
    let written = match write_atomically(path, markdown.as_bytes()) {
        Ok(()) => true,
        Err(HarnessError::Io { source, .. })
            if !given
                && matches!(
                    source.kind(),
                    io::ErrorKind::PermissionDenied | io::ErrorKind::ReadOnlyFilesystem
                ) =>
        {
            crate::output::errln!(
                "taisim: cannot write {} ({source}): the {what} is printed only; give --markdown PATH to keep it elsewhere",
                path.display()
            );
            false
        }
        Err(e) => return Err(e),
    };
    let text = match json {
        Some(json) => format!("{json}\n"),
        None if written => format!("{}\nMarkdown {what}: {}\n", terminal(), path.display()),
        None => format!("{}\n", terminal()),
    };
    let _ = Stdout.write_all(text.as_bytes());
    Ok(())
}

/// Prints formatted text to stdout; a failure is kept for [`finish`].
pub fn print(args: std::fmt::Arguments<'_>) {
    let _ = Stdout.write_fmt(args);
}

/// `print!` that never panics.
macro_rules! out {
    ($($arg:tt)*) => { $crate::output::print(format_args!($($arg)*)) };
}

/// `println!` that never panics.
macro_rules! outln {
    () => { $crate::output::print(format_args!("\n")) };
    ($($arg:tt)*) => {{
        $crate::output::print(format_args!($($arg)*));
        $crate::output::print(format_args!("\n"));
    }};
}

/// `eprintln!` that never panics: a message nobody can read is dropped. Control characters
/// are escaped as on stdout.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let text = format!($($arg)*);
        let _ = writeln!(std::io::stderr(), "{}", $crate::output::escape_controls(&text));
    }};
}

/// `text` with every control character but newline and tab written as an escape (`\u{1b}`):
/// a name read from a file (a variant's, a path) cannot move the cursor, clear the screen
/// or recolour a terminal, and shows what it holds.
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    let plain = |c: char| !c.is_control() || c == '\n' || c == '\t';
    if text.chars().all(plain) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if plain(c) {
            out.push(c);
        } else {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        }
    }
    std::borrow::Cow::Owned(out)
}

/// [`escape_controls`] on bytes meant as UTF-8; bytes that are not UTF-8 pass as they are
/// but for the C0 controls, which are escaped as `\x1b`.
fn escape_control_bytes(buf: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    match std::str::from_utf8(buf) {
        Ok(text) => match escape_controls(text) {
            std::borrow::Cow::Borrowed(_) => std::borrow::Cow::Borrowed(buf),
            std::borrow::Cow::Owned(s) => std::borrow::Cow::Owned(s.into_bytes()),
        },
        Err(_) => {
            let mut out = Vec::with_capacity(buf.len());
            for &b in buf {
                if (b < 0x20 && b != b'\n' && b != b'\t') || b == 0x7f {
                    out.extend_from_slice(format!("\\x{b:02x}").as_bytes());
                } else {
                    out.push(b);
                }
            }
            std::borrow::Cow::Owned(out)
        }
    }
}

pub(crate) use {errln, out, outln};

/// Flushes stdout and gives the exit status: a stdout failure first (it may be what made
/// the command fail), then the command's own.
pub fn finish(result: Result<(), Failure>) -> ExitCode {
    let _ = Stdout.flush();
    if let Some(e) = failure().take() {
        if e.kind() == io::ErrorKind::BrokenPipe {
            return ExitCode::SUCCESS;
        }
        errln!("error: cannot write to standard output: {e}");
        return ExitCode::from(1);
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            errln!("error: {}", f.error);
            if let Some(advice) = &f.advice {
                errln!("{advice}");
            }
            ExitCode::from(f.exit_code())
        }
    }
}
