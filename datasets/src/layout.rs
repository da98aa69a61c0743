//! A run directory's layout: what it may hold, its table directories (real directories of
//! its own, never symbolic links into another run), the shared `variant.toml`, the files
//! in it that no manifest knows, and the lock that keeps two processes from playing one
//! shard at once.

use std::fs::File;
use std::path::{Path, PathBuf};

use crate::atomic::{write_shared, Shared};
use crate::error::HarnessError;
use crate::manifest::{Manifest, VARIANT_FILE};
use crate::spec::{sha256_hex, short_sha256, RunSpec, Shard};
use crate::table::Table;

/// What a run directory may hold: what a run writes, and what the report, the comparison
/// and the analysis script write beside it. Hidden names are temporary files, journals and locks.
pub(crate) fn is_run_entry(name: &str) -> bool {
    [
        VARIANT_FILE,
        "deals",
        "wins",
        "tai",
        "decisions",
        "report.md",
        "compare.md",
        "plots",
        crate::BOTS_DIR,
    ]
    .contains(&name)
        || Manifest::is_manifest_name(name)
        || name.starts_with('.')
}

/// Checks a path a command was asked to write a report, a comparison or a page to: never
/// one of a run's own files (its manifests, journal, `variant.toml`, locks, anything in its
/// table or bots directories), which writing over would lose the run, and only a regular
/// file where something exists ([`check_replaceable`](crate::check_replaceable)).
/// `report.md`, `compare.md` and names a run does not write are free.
pub fn check_output(path: &Path) -> Result<(), HarnessError> {
    let refuse = |what: String| {
        Err(HarnessError::Usage(format!(
            "{} is {what}: taisim never writes over a run's files (the run would be lost); write it elsewhere",
            path.display()
        )))
    };
    if let Some(name) = path.file_name().map(|n| n.to_string_lossy().into_owned()) {
        let dir = dir_or_here(path.parent());
        if is_run_entry(&name)
            && !["report.md", "compare.md"].contains(&name.as_str())
            && holds_run(&dir)
        {
            return refuse(format!("a file of the run in {}", dir.display()));
        }
        if let Some((table, run)) = run_table_dir(&dir) {
            return refuse(format!(
                "in the {table} directory of the run in {}",
                run.display()
            ));
        }
    }
    crate::check_replaceable(path)
}

/// `p`, or the current directory for a path's empty parent.
fn dir_or_here(p: Option<&Path>) -> PathBuf {
    match p {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Whether `dir` holds a run's manifest (of the whole run or of a shard).
fn holds_run(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .filter_map(|e| e.ok())
            .any(|e| Manifest::is_manifest_name(&e.file_name().to_string_lossy()))
    })
}

/// The table (or bots) directory's name and its run's directory, where `dir` is one.
pub(crate) fn run_table_dir(dir: &Path) -> Option<(String, PathBuf)> {
    let name = dir.file_name()?.to_string_lossy().into_owned();
    let table = Table::EVERY.iter().any(|t| t.dir() == name) || name == crate::BOTS_DIR;
    let run = dir_or_here(dir.parent());
    (table && holds_run(&run)).then_some((name, run))
}

/// A table directory that taisim cannot write into (or should not read as the run's): a
/// symbolic link (writing through it would put this run's parts into another directory, or
/// another run's), or something other than a directory.
pub(crate) fn table_dir_problem(out: &Path, table: Table) -> Option<String> {
    let dir = out.join(table.dir());
    let meta = std::fs::symlink_metadata(&dir).ok()?;
    if meta.file_type().is_symlink() {
        let target = std::fs::read_link(&dir)
            .map(|t| format!(" (to {})", t.display()))
            .unwrap_or_default();
        return Some(format!(
            "{} is a symbolic link{target}: a run's tables are directories of its own",
            dir.display()
        ));
    }
    if !meta.is_dir() {
        return Some(format!("{} exists and is not a directory", dir.display()));
    }
    None
}

/// Creates the run's table directories (again, if one was deleted) and its `variant.toml`
/// (unless there: shards sharing the directory create it once, and each checks it is its
/// own variant). A table directory that is a symbolic link or not a directory is refused.
pub(crate) fn lay_out(out: &Path, spec: &RunSpec) -> Result<(), HarnessError> {
    for &table in Table::of_run(spec.decisions.is_some()) {
        if let Some(problem) = table_dir_problem(out, table) {
            return Err(HarnessError::Usage(problem));
        }
        let dir = out.join(table.dir());
        match std::fs::create_dir(&dir) {
            Ok(()) => {}
            // Another shard may create it at the same moment; it must then be a directory.
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                if let Some(problem) = table_dir_problem(out, table) {
                    return Err(HarnessError::Usage(problem));
                }
            }
            Err(e) => {
                return Err(HarnessError::Usage(format!(
                    "cannot create the table directory {}: {e}",
                    dir.display()
                )))
            }
        }
    }
    let path = out.join(VARIANT_FILE);
    let limit = taisim_score::file::VARIANT_FILE_LIMIT;
    match write_shared(&path, spec.variant.text().as_bytes(), limit)? {
        Shared::Created | Shared::Same => Ok(()),
        Shared::Differs(found) => Err(HarnessError::Usage(format!(
            "{} holds a different {VARIANT_FILE} (SHA-256 {}…) than the variant asked for ({}, {}…)",
            out.display(),
            short_sha256(&sha256_hex(&found)),
            spec.variant.name(),
            short_sha256(&spec.variant.record().sha256)
        ))),
    }
}

/// The part number of a part file's name (`part-00042.parquet`).
pub(crate) fn part_index(name: &str) -> Option<u64> {
    let digits = name.strip_prefix("part-")?.strip_suffix(".parquet")?;
    (digits.len() == 5 && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.parse().ok())
        .flatten()
}

/// The entries of the table directories that belong to no part of the run: a part number
/// past the run's last part, a name that is no part file's, a part of a table the run does
/// not write, anything that is not a regular file. `known` says which part numbers of a
/// table the caller accounts for. Hidden names (temporary files) are left out. Each is
/// named relative to the run directory (`deals/part-00050.parquet`), sorted.
pub(crate) fn strays(
    out: &Path,
    tables: &[Table],
    known: impl Fn(Table, u64) -> bool,
) -> Result<Vec<String>, HarnessError> {
    let mut found = Vec::new();
    for table in Table::EVERY {
        let dir = out.join(table.dir());
        if !dir.is_dir() {
            continue;
        }
        let entries = std::fs::read_dir(&dir).map_err(HarnessError::io("cannot read", &dir))?;
        for entry in entries {
            let entry = entry.map_err(HarnessError::io("cannot read", &dir))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let regular = entry.file_type().is_ok_and(|t| t.is_file());
            let ours = tables.contains(&table)
                && regular
                && part_index(&name).is_some_and(|p| known(table, p));
            if !ours {
                found.push(format!("{}/{name}", table.dir()));
            }
        }
    }
    found.sort();
    Ok(found)
}

/// `names` for a message: the first few, and how many more.
pub(crate) fn name_some(names: &[String]) -> String {
    const SHOWN: usize = 5;
    let mut text = names
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > SHOWN {
        text.push_str(&format!(" and {} more", names.len() - SHOWN));
    }
    text
}

/// Removes the temporary copies of `shard`'s manifest that killed invocations left
/// (`.manifest.json.tmp`, `.manifest.json.1234-0.tmp`). Only the holder of the shard's
/// [`RunLock`] writes them, so none is being written now.
pub(crate) fn remove_manifest_temporaries(out: &Path, shard: Shard) -> Result<(), HarnessError> {
    let prefix = format!(".{}.", Manifest::file_name(shard));
    let entries = std::fs::read_dir(out).map_err(HarnessError::io("cannot read", out))?;
    for entry in entries.filter_map(|e| e.ok()) {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with(&prefix) && name.ends_with(".tmp") {
            let path = entry.path();
            match std::fs::remove_file(&path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(HarnessError::io("cannot remove", &path)(e))
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// An exclusive lock on one shard of a run directory, held while a process plays it: a
/// second process playing the same shard into the same directory (a task started twice)
/// would remove the first one's temporary files and race its renames. The lock is a hidden
/// file (`.manifest.json.lock`) locked with `flock`: released when the process ends however
/// it ends, and removed when dropped, so a finished or refused run leaves none behind.
pub(crate) struct RunLock {
    file: File,
    path: PathBuf,
}

/// Whether `name` is a lock file's: a shard's ([`RunLock::acquire`]) or the setup's.
pub(crate) fn is_lock_name(name: &str) -> bool {
    name == SETUP_LOCK
        || name
            .strip_prefix('.')
            .and_then(|n| n.strip_suffix(".lock"))
            .is_some_and(Manifest::is_manifest_name)
}

/// The name of the lock every process starting a run in a directory holds while it checks
/// what the others recorded and writes its own manifest ([`RunLock::setup`]).
const SETUP_LOCK: &str = ".taisim-setup.lock";

impl RunLock {
    /// Takes the lock of `shard` in `out`, or says that another process holds it.
    pub fn acquire(out: &Path, shard: Shard) -> Result<RunLock, HarnessError> {
        let path = out.join(format!(".{}.lock", Manifest::file_name(shard)));
        RunLock::take(path, false, || {
            HarnessError::Usage(format!(
                "another taisim process is playing {} into {} now; wait for it to end (or stop it) before starting this one",
                if shard.is_whole() {
                    "this run".to_string()
                } else {
                    format!("shard {shard}")
                },
                out.display()
            ))
        })
    }

    /// Takes the lock on setting up a run in `out`, waiting for another process that holds
    /// it (a setup takes moments). Each shard's own lock lets shards play side by side; this
    /// one makes their checks of each other and the writing of their manifests one at a
    /// time, so two processes started at once cannot both pass a check that each would fail
    /// seeing the other's manifest.
    pub fn setup(out: &Path) -> Result<RunLock, HarnessError> {
        RunLock::take(out.join(SETUP_LOCK), true, || {
            // Only a lock taken without waiting is ever busy.
            HarnessError::Usage(format!(
                "another taisim process is setting up a run in {} now",
                out.display()
            ))
        })
    }

    /// Locks the file at `path`, created if missing; `wait` for a holder, or say `busy()`.
    fn take(
        path: PathBuf,
        wait: bool,
        busy: impl Fn() -> HarnessError,
    ) -> Result<RunLock, HarnessError> {
        loop {
            let file = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(HarnessError::io("cannot create", &path))?;
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt;
                use std::os::unix::io::AsRawFd;
                // SAFETY: flock on a file descriptor this function owns.
                let how = if wait {
                    libc::LOCK_EX
                } else {
                    libc::LOCK_EX | libc::LOCK_NB
                };
                let rc = unsafe { libc::flock(file.as_raw_fd(), how) };
                if rc != 0 {
                    let e = std::io::Error::last_os_error();
                    if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
                        return Err(busy());
                    }
                    if wait && e.kind() == std::io::ErrorKind::Interrupted {
                        continue;
                    }
                    // A file system without locks: play on, as before locks existed.
                    return Ok(RunLock { file, path });
                }
                // The holder before us removes the file when it ends: a lock on a file no
                // longer at the path locks nothing another process can see. Open again.
                let same = std::fs::metadata(&path)
                    .ok()
                    .zip(file.metadata().ok())
                    .is_some_and(|(a, b)| a.ino() == b.ino() && a.dev() == b.dev());
                if !same {
                    continue;
                }
            }
            return Ok(RunLock { file, path });
        }
    }
}

impl Drop for RunLock {
    fn drop(&mut self) {
        // Removed while still held, so whoever opens the path next makes a new file.
        let _ = std::fs::remove_file(&self.path);
        let _ = &self.file;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn part_names() {
        assert_eq!(part_index("part-00042.parquet"), Some(42));
        for bad in [
            "part-42.parquet",
            "part-000042.parquet",
            "part-0004a.parquet",
            "part-00042.parquet.tmp",
            "x.parquet",
        ] {
            assert_eq!(part_index(bad), None, "{bad}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_shard_is_locked_by_one_process_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let shard = Shard { index: 1, count: 2 };
        let held = RunLock::acquire(dir.path(), shard).unwrap();
        // flock locks belong to the open file: a second open in this process is refused
        // as a second process would be.
        let err = RunLock::acquire(dir.path(), shard).err().unwrap();
        assert!(err.to_string().contains("shard 1/2"), "{err}");
        assert!(matches!(err, HarnessError::Usage(_)));
        // Another shard is not held back.
        let _other = RunLock::acquire(dir.path(), Shard { index: 2, count: 2 }).unwrap();
        drop(held);
        RunLock::acquire(dir.path(), shard).unwrap();
    }
}
