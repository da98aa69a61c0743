//! Whole files replaced atomically: a reader (or a run killed mid-write) sees the old file
//! or the new one, never a truncated mix, and a full disk leaves the old file in place.
//!
//! Several processes may write the same name at once (the shards of a run sharing a
//! directory, two reports of one run), so each writes under a temporary name of its own, and
//! a file they share is created once and never replaced ([`write_shared`]). Only regular
//! files are replaced: a FIFO, a device, a directory or a symbolic link at the path is
//! refused, never renamed over.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::HarnessError;

/// A temporary name no other process and no other call of this one uses: hidden, in the
/// same directory as `path` (so the rename never crosses file systems), with the process id
/// and a counter.
pub fn temp_path(path: &Path) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    path.with_file_name(format!(".{name}.{}-{n}.tmp", std::process::id()))
}

/// Refuses a path that exists as anything but a regular file (not following a symbolic
/// link: renaming over one would replace the link, not the file it names), as
/// [`write_atomically`] does: a caller can check before it spends time on the contents.
pub fn check_replaceable(path: &Path) -> Result<(), HarnessError> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(HarnessError::io("cannot inspect", path)(e)),
    };
    if meta.is_file() {
        return Ok(());
    }
    let kind = if meta.file_type().is_symlink() {
        let target = std::fs::read_link(path)
            .map(|t| format!(" (to {})", t.display()))
            .unwrap_or_default();
        format!("a symbolic link{target}")
    } else if meta.is_dir() {
        "a directory".to_string()
    } else {
        "not a regular file (a FIFO, a socket or a device)".to_string()
    };
    Err(HarnessError::Usage(format!(
        "{} is {kind}: taisim writes only regular files and does not replace it",
        path.display()
    )))
}

/// Writes `bytes` to a new temporary file beside `path`, flushed to disk; the caller renames
/// or links it into place.
fn stage(path: &Path, bytes: &[u8]) -> Result<PathBuf, HarnessError> {
    let tmp = temp_path(path);
    // `create_new`: never an open of something already there.
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .and_then(|mut f: File| {
            f.write_all(bytes)?;
            f.sync_all()
        });
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(HarnessError::io("cannot write", path)(e));
    }
    Ok(tmp)
}

/// Writes `bytes` to a temporary file beside `path`, flushes it to disk and renames it over
/// `path`. On failure the temporary file is removed and `path` is untouched. A `path` that
/// exists as anything but a regular file is refused ([`HarnessError::Usage`]).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), HarnessError> {
    check_replaceable(path)?;
    let tmp = stage(path, bytes)?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        HarnessError::io("cannot rename into place", path)(e)
    })
}

/// How [`write_shared`] found the file.
#[derive(Debug, PartialEq, Eq)]
pub enum Shared {
    /// This call created it.
    Created,
    /// It was there already with these very bytes.
    Same,
    /// It was there with other bytes (returned), and is left as it is.
    Differs(Vec<u8>),
}

/// Creates `path` with `bytes` unless it exists; never replaces it. Processes racing to
/// create the same file each stage their own copy and link it into place; the first wins
/// and the others compare the winner's bytes with theirs.
pub fn write_shared(path: &Path, bytes: &[u8], limit: u64) -> Result<Shared, HarnessError> {
    let existing = || -> Result<Shared, HarnessError> {
        let found =
            taisim_score::file::read_regular(path, limit, "this file").map_err(|e| {
                match e.kind() {
                    std::io::ErrorKind::InvalidInput => {
                        HarnessError::Usage(format!("{}: {e}", path.display()))
                    }
                    _ => HarnessError::io("cannot read", path)(e),
                }
            })?;
        Ok(if found == bytes {
            Shared::Same
        } else {
            Shared::Differs(found)
        })
    };
    if std::fs::symlink_metadata(path).is_ok() {
        return existing();
    }
    let tmp = stage(path, bytes)?;
    // A hard link fails if the name exists: created exactly once, whoever races.
    let linked = std::fs::hard_link(&tmp, path);
    let result = match linked {
        Ok(()) => Ok(Shared::Created),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => existing(),
        // A file system without hard links: a rename, unless another process got there first
        // (only a process racing within this instant could still be replaced, by the same
        // bytes, and it compares them below).
        Err(_) if std::fs::symlink_metadata(path).is_err() => std::fs::rename(&tmp, path)
            .map(|()| Shared::Created)
            .map_err(HarnessError::io("cannot rename into place", path)),
        Err(_) => existing(),
    };
    let _ = std::fs::remove_file(&tmp);
    result
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
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["report.md"]);
    }

    #[test]
    fn a_failed_write_keeps_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing-dir").join("report.md");
        let err = write_atomically(&path, b"x").unwrap_err();
        assert!(err.to_string().contains("missing-dir"), "{err}");
        assert!(!path.exists());
    }

    #[test]
    fn temporary_names_are_never_reused() {
        let path = Path::new("/x/variant.toml");
        let names: std::collections::HashSet<_> = (0..1000).map(|_| temp_path(path)).collect();
        assert_eq!(names.len(), 1000);
    }

    #[cfg(unix)]
    #[test]
    fn only_regular_files_are_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target.md");
        std::fs::write(&target, "keep").unwrap();
        let link = dir.path().join("link.md");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        for (path, kind) in [(&link, "symbolic link"), (&sub, "directory")] {
            let err = write_atomically(path, b"new").unwrap_err();
            assert!(matches!(err, HarnessError::Usage(_)));
            assert!(err.to_string().contains(kind), "{err}");
        }
        assert_eq!(std::fs::read(&target).unwrap(), b"keep");
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        let err = write_atomically(Path::new("/dev/null"), b"new").unwrap_err();
        assert!(err.to_string().contains("not a regular file"), "{err}");
    }

    #[test]
    fn a_shared_file_is_created_once_and_never_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("variant.toml");
        assert_eq!(write_shared(&path, b"a", 10).unwrap(), Shared::Created);
        assert_eq!(write_shared(&path, b"a", 10).unwrap(), Shared::Same);
        assert_eq!(
            write_shared(&path, b"b", 10).unwrap(),
            Shared::Differs(b"a".to_vec())
        );
        assert_eq!(std::fs::read(&path).unwrap(), b"a");
        // Many threads racing to create it: one creates, all agree, no temporary is left.
        let path = dir.path().join("raced.toml");
        let results: Vec<Shared> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..16)
                .map(|_| s.spawn(|| write_shared(&path, b"same", 10).unwrap()))
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert_eq!(results.iter().filter(|r| **r == Shared::Created).count(), 1);
        assert!(results
            .iter()
            .all(|r| matches!(r, Shared::Created | Shared::Same)));
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
    }
}
