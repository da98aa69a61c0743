//! Reading a file someone named: a variant, a policy, a run directory's own files. Every
//! command reads such paths through here, so all of them refuse the same things the same
//! way: anything but a regular file (a FIFO would block the read forever, `/dev/zero` would
//! fill memory, a directory reads as an error far from its cause) and a file larger than
//! its kind may be.
//!
//! The errors are `io::Error`s with a message naming the problem (kind `InvalidInput`), so
//! a caller that already reports "cannot read PATH: {error}" needs no new error type.

use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::Path;

/// The largest variant file read: the shipped ones are under 20 KB, so a file past a
/// megabyte is not a variant (a log, a data file given by mistake).
pub const VARIANT_FILE_LIMIT: u64 = 1 << 20;

/// What a file of type `meta` is, for a message: "a FIFO", "a directory", ….
fn kind_of(meta: &Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message)
}

/// Opens `path` for reading if it is a regular file (a symbolic link is followed to what it
/// names). Never blocks: a FIFO is opened without waiting for a writer and then refused.
pub fn open_regular(path: &Path) -> io::Result<(File, Metadata)> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Opening a FIFO for reading waits for a writer unless O_NONBLOCK is set; a regular
        // file ignores the flag.
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    // The type of what was opened, not of what the path named a moment before.
    let meta = file.metadata()?;
    if !meta.is_file() {
        let kind = kind_of(&meta);
        let text = if kind.starts_with("not") {
            format!("is {kind}")
        } else {
            format!("is {kind}, not a regular file")
        };
        return Err(invalid(text));
    }
    Ok((file, meta))
}

/// The bytes of the regular file `path`, at most `limit` of them; `what` names the file's
/// kind in the error for a larger one ("a variant file").
pub fn read_regular(path: &Path, limit: u64, what: &str) -> io::Result<Vec<u8>> {
    let (file, meta) = open_regular(path)?;
    let too_large = |bytes: u64| {
        invalid(format!(
            "is {bytes} bytes, more than {what} may have ({limit} bytes)"
        ))
    };
    if meta.len() > limit {
        return Err(too_large(meta.len()));
    }
    // The length read may differ from the one stat gave (a file still growing): read one
    // byte past the limit to tell.
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

/// [`read_regular`] as UTF-8 text.
pub fn read_regular_text(path: &Path, limit: u64, what: &str) -> io::Result<String> {
    let bytes = read_regular(path, limit, what)?;
    String::from_utf8(bytes).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "is not UTF-8 text (a byte at offset {} is not valid)",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir() -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "taisim-file-test-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn reads_a_regular_file_and_refuses_what_is_larger_than_the_limit() {
        let dir = temp_dir();
        let path = dir.join("v.toml");
        std::fs::write(&path, b"0123456789").unwrap();
        assert_eq!(read_regular(&path, 10, "x").unwrap(), b"0123456789");
        let e = read_regular(&path, 9, "a variant file").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        assert_eq!(
            e.to_string(),
            "is 10 bytes, more than a variant file may have (9 bytes)"
        );
        std::fs::write(&path, b"\xff\xfe").unwrap();
        let e = read_regular_text(&path, 10, "x").unwrap_err();
        assert!(e.to_string().contains("not UTF-8"), "{e}");
        let e = read_regular(&dir, 10, "x").unwrap_err();
        assert_eq!(e.to_string(), "is a directory, not a regular file");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn devices_and_fifos_are_refused_without_blocking() {
        let e = read_regular(Path::new("/dev/zero"), 1 << 20, "x").unwrap_err();
        assert_eq!(e.to_string(), "is a character device, not a regular file");
        let dir = temp_dir();
        let fifo = dir.join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        // No writer ever opens it: a blocking open would never return.
        let e = read_regular(&fifo, 1 << 20, "x").unwrap_err();
        assert_eq!(e.to_string(), "is a FIFO (named pipe), not a regular file");
        // A symbolic link is followed to what it names.
        let link = dir.join("link");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        assert!(read_regular(&link, 1 << 20, "x").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
