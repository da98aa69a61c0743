//! Whole files replaced atomically: a reader (or a run killed mid-write) sees the old file
//! or the new one, never a truncated mix, and a full disk leaves the old file in place.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::HarnessError;

/// The hidden temporary name `path` is written under before the rename: in the same
/// directory, so the rename never crosses file systems.
pub fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.tmp"))
}

/// Writes `bytes` to a temporary file beside `path`, flushes it to disk and renames it over
/// `path`. On failure the temporary file is removed and `path` is untouched.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), HarnessError> {
    let tmp = temp_path(path);
    let written = File::create(&tmp).and_then(|mut f| {
        f.write_all(bytes)?;
        f.sync_all()
    });
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(HarnessError::io("cannot write", path)(e));
    }
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        HarnessError::io("cannot rename into place", path)(e)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.md");
        std::fs::write(&path, "old").unwrap();
        write_atomically(&path, b"new text").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new text");
        assert!(!temp_path(&path).exists());
    }

    #[test]
    fn a_failed_write_keeps_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing-dir").join("report.md");
        let err = write_atomically(&path, b"x").unwrap_err();
        assert!(err.to_string().contains("missing-dir"), "{err}");
        assert!(!path.exists());
    }
}
