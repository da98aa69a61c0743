//! Part files: their names, their atomic writing, and what the manifest records of them.
//!
//! A part is written table by table, each under a temporary name of the writing process's
//! own (`.part-NNNNN.parquet.PID-N.tmp`) that is flushed to disk and then renamed; the deals
//! file is renamed last, so a part is complete exactly when its deals file exists. A run
//! killed at any moment leaves complete parts and temporary files, never a truncated file
//! under a final name.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use arrow_array::RecordBatch;
use bytes::Bytes;
use parquet::arrow::ArrowWriter;
use parquet::file::metadata::KeyValue;
use parquet::file::reader::{FileReader, SerializedFileReader};
use serde::{Deserialize, Serialize};

use crate::error::HarnessError;
use crate::spec::{sha256_hex, PartOrigin, PART_ORIGIN_KEY};
use crate::table::{writer_properties, Table};

/// `part-00042.parquet`.
pub fn part_name(index: u64) -> String {
    format!("part-{index:05}.parquet")
}

/// The final path of a part's table.
pub fn part_path(out: &Path, table: Table, index: u64) -> PathBuf {
    out.join(table.dir()).join(part_name(index))
}

/// A temporary name of this process alone for a part's table
/// (`.part-00042.parquet.1234-0.tmp`, [`crate::atomic::temp_path`]): two processes that play
/// the same part into one directory (a misuse the run's checks refuse, but only once they
/// see each other) never open or rename each other's file.
fn temp_path(out: &Path, table: Table, index: u64) -> PathBuf {
    crate::atomic::temp_path(&part_path(out, table, index))
}

/// The part whose temporary name `name` is: this taisim's ([`temp_path`]) or an older
/// one's (`.part-00042.parquet.tmp`).
fn temporary_of(name: &str) -> Option<u64> {
    let rest = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    // `part-00042.parquet` alone (an older taisim's), or followed by `.PID-N`.
    if let Some(index) = crate::layout::part_index(rest) {
        return Some(index);
    }
    let (part, tag) = rest.rsplit_once('.')?;
    let (pid, n) = tag.split_once('-')?;
    let digits = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit());
    (digits(pid) && digits(n))
        .then(|| crate::layout::part_index(part))
        .flatten()
}

/// What the manifest records of one table's part file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileRecord {
    /// Relative to the run directory.
    pub file: String,
    pub rows: u64,
    pub bytes: u64,
    pub sha256: String,
}

/// What the manifest records of one part.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartRecord {
    pub index: u64,
    /// The units (deals or games) `[first, end)` it holds.
    pub units: [u64; 2],
    pub deals: FileRecord,
    pub wins: FileRecord,
    pub tai: FileRecord,
    /// Runs made with `--decisions` only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decisions: Option<FileRecord>,
}

impl PartRecord {
    pub fn file(&self, table: Table) -> &FileRecord {
        match table {
            Table::Deals => &self.deals,
            Table::Wins => &self.wins,
            Table::Tai => &self.tai,
            Table::Decisions => self
                .decisions
                .as_ref()
                .expect("the decisions file is asked for only in runs that write one"),
        }
    }
}

/// Encodes `batch`, a part of `table`, as one Parquet file in memory, its footer recording
/// `origin` (a [`PartOrigin`]'s JSON) under [`PART_ORIGIN_KEY`].
pub fn encode(
    table: Table,
    batch: &RecordBatch,
    path: &Path,
    origin: &str,
) -> Result<Vec<u8>, HarnessError> {
    // Sized up front for a typical part (a row takes well under 32 bytes), so that the
    // buffer is not copied over and over as it doubles.
    let mut buf = Vec::with_capacity(32 * batch.num_rows() + 64 * 1024);
    let props = writer_properties(table, batch.num_rows());
    let mut writer = ArrowWriter::try_new(&mut buf, batch.schema(), Some(props))
        .map_err(HarnessError::parquet("cannot encode", path))?;
    writer
        .write(batch)
        .map_err(HarnessError::parquet("cannot encode", path))?;
    writer.append_key_value_metadata(KeyValue::new(
        PART_ORIGIN_KEY.to_string(),
        origin.to_string(),
    ));
    writer
        .close()
        .map_err(HarnessError::parquet("cannot encode", path))?;
    Ok(buf)
}

/// Writes `bytes` under a temporary name, flushes it to disk, and returns the temporary
/// path; [`commit`] renames it into place.
pub fn stage(out: &Path, table: Table, index: u64, bytes: &[u8]) -> Result<PathBuf, HarnessError> {
    let tmp = temp_path(out, table, index);
    // `create_new`: never an open of something already there (the name is this process's
    // alone; a FIFO left under it would block a plain open).
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
        return Err(HarnessError::io("cannot write", &tmp)(e));
    }
    Ok(tmp)
}

/// Renames a staged file to its final name.
pub fn commit(out: &Path, table: Table, index: u64, tmp: &Path) -> Result<(), HarnessError> {
    let path = part_path(out, table, index);
    std::fs::rename(tmp, &path).map_err(HarnessError::io("cannot rename into place", &path))
}

/// Removes the staged files of the parts in `parts`, left by invocations killed while
/// writing them: one pass over each table's directory.
pub fn remove_temporaries(out: &Path, parts: std::ops::Range<u64>) -> Result<(), HarnessError> {
    for table in Table::EVERY {
        let dir = out.join(table.dir());
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(HarnessError::io("cannot read", &dir)(e)),
        };
        for entry in entries.filter_map(|e| e.ok()) {
            let name = entry.file_name();
            if !temporary_of(&name.to_string_lossy()).is_some_and(|p| parts.contains(&p)) {
                continue;
            }
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

/// The record of a file written in this process.
pub fn record(table: Table, index: u64, rows: usize, bytes: &[u8]) -> FileRecord {
    FileRecord {
        file: format!("{}/{}", table.dir(), part_name(index)),
        rows: rows as u64,
        bytes: bytes.len() as u64,
        sha256: sha256_hex(bytes),
    }
}

/// What a part file's footer says of the run that wrote it: `Ok(None)` for a file without
/// the key (written before footers recorded it), `Err` with the reason for a footer that
/// cannot be read or a record that is not a [`PartOrigin`].
pub type Origin = Result<Option<PartOrigin>, FooterError>;

/// Why a part file's footer says nothing usable of the run that wrote it.
#[derive(Debug, thiserror::Error)]
pub enum FooterError {
    #[error("not a readable Parquet file ({0})")]
    NotParquet(#[source] parquet::errors::ParquetError),
    #[error("its footer's {PART_ORIGIN_KEY} is not a part record ({0})")]
    NotARecord(#[source] serde_json::Error),
}

/// The origin a Parquet footer records.
pub(crate) fn origin_of(meta: &parquet::file::metadata::FileMetaData) -> Origin {
    let Some(value) = meta
        .key_value_metadata()
        .and_then(|kv| kv.iter().find(|kv| kv.key == PART_ORIGIN_KEY))
    else {
        return Ok(None);
    };
    let text = value.value.as_deref().unwrap_or("");
    serde_json::from_str(text)
        .map(Some)
        .map_err(FooterError::NotARecord)
}

/// What a part file on disk is, checked against its record (if the manifest or journal has
/// one).
#[derive(Debug)]
pub struct FileCheck {
    /// Whether a file is there at all.
    pub exists: bool,
    /// Why it is not the recorded file (missing, another size or SHA-256, a footer that is
    /// unreadable or counts other rows); `None` when it is exactly what was recorded. Always
    /// `Some` without a record.
    pub problem: Option<String>,
    /// What its footer says of the run that wrote it (`Ok(None)` when missing).
    pub origin: Origin,
}

/// Checks the file a part's table has on disk against `record`, reading it whole (with a
/// record) or only its footer (without). Errors are only the ones that stop a run: a path
/// that is not a regular file (a FIFO, a directory) or cannot be read.
pub fn check_file(
    out: &Path,
    table: Table,
    index: u64,
    record: Option<&FileRecord>,
) -> Result<FileCheck, HarnessError> {
    let path = part_path(out, table, index);
    let name = format!("{}/{}", table.dir(), part_name(index));
    let missing = || FileCheck {
        exists: false,
        problem: Some(format!("{name} is missing")),
        origin: Ok(None),
    };
    let not_regular = |e: std::io::Error| {
        if e.kind() == std::io::ErrorKind::InvalidInput {
            HarnessError::Usage(format!(
                "{}: {e}; taisim neither reads nor removes it: move it out of the run directory",
                path.display()
            ))
        } else {
            HarnessError::io("cannot read", &path)(e)
        }
    };
    let Some(record) = record else {
        let file = match taisim_score::file::open_regular(&path) {
            Ok((file, _)) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(missing()),
            Err(e) => return Err(not_regular(e)),
        };
        let origin = match SerializedFileReader::new(file) {
            Ok(reader) => origin_of(reader.metadata().file_metadata()),
            Err(e) => Err(FooterError::NotParquet(e)),
        };
        return Ok(FileCheck {
            exists: true,
            problem: Some(format!("{name} was never recorded as complete")),
            origin,
        });
    };
    // One byte past the recorded size is enough to tell a larger file.
    let limit = record.bytes.saturating_add(1);
    let bytes = match taisim_score::file::read_regular(&path, limit, "the recorded file") {
        Ok(bytes) => Bytes::from(bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(missing()),
        Err(e) if e.kind() == std::io::ErrorKind::InvalidInput && path.is_file() => {
            // Larger than recorded: its footer still says whose it is.
            let problem = Some(format!(
                "{name} has more than the {} bytes recorded",
                record.bytes
            ));
            let origin = match taisim_score::file::open_regular(&path)
                .map_err(not_regular)
                .map(|(f, _)| SerializedFileReader::new(f))?
            {
                Ok(reader) => origin_of(reader.metadata().file_metadata()),
                Err(e) => Err(FooterError::NotParquet(e)),
            };
            return Ok(FileCheck {
                exists: true,
                problem,
                origin,
            });
        }
        Err(e) => return Err(not_regular(e)),
    };
    let reader = SerializedFileReader::new(bytes.clone());
    let problem = problem_with(record, &bytes, reader.as_ref().ok());
    let origin = match reader {
        Ok(reader) => origin_of(reader.metadata().file_metadata()),
        Err(e) => Err(FooterError::NotParquet(e)),
    };
    Ok(FileCheck {
        exists: true,
        problem,
        origin,
    })
}

/// Why `bytes`, read from the file `record` describes, are not what was recorded: another
/// size (truncated, empty), another SHA-256 (a flipped byte), or a footer that is unreadable
/// or counts other rows.
fn problem_with(
    record: &FileRecord,
    bytes: &[u8],
    reader: Option<&SerializedFileReader<Bytes>>,
) -> Option<String> {
    if bytes.len() as u64 != record.bytes {
        return Some(format!(
            "{} has {} bytes, {} were recorded",
            record.file,
            bytes.len(),
            record.bytes
        ));
    }
    let hash = sha256_hex(bytes);
    if hash != record.sha256 {
        return Some(format!(
            "{} has SHA-256 {}…, {}… was recorded",
            record.file,
            &hash[..12],
            record.sha256.get(..12).unwrap_or(&record.sha256)
        ));
    }
    // A checksum can be recorded for bad bytes only by a damaged manifest; the footer
    // check catches that too.
    let Some(reader) = reader else {
        return Some(format!("{}: not a readable Parquet file", record.file));
    };
    let rows = reader.metadata().file_metadata().num_rows();
    if u64::try_from(rows).ok() != Some(record.rows) {
        return Some(format!(
            "{}: its footer counts {rows} rows, {} were recorded",
            record.file, record.rows
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_names_name_their_part() {
        let ours = temp_path(Path::new("run"), Table::Wins, 42);
        let name = ours.file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.starts_with(".part-00042.parquet."), "{name}");
        assert_eq!(temporary_of(&name), Some(42));
        // Two calls, two names: no process or call opens another's file.
        assert_ne!(ours, temp_path(Path::new("run"), Table::Wins, 42));
        assert_eq!(temporary_of(".part-00007.parquet.tmp"), Some(7));
        assert_eq!(temporary_of(".part-00007.parquet.123-4.tmp"), Some(7));
        for not in [
            "part-00007.parquet",
            ".part-00007.parquet",
            ".part-00007.parquet.x-4.tmp",
            ".part-00007.parquet.123-.tmp",
            ".part-7.parquet.tmp",
            ".manifest.json.123-0.tmp",
            ".notes.parquet.1-1.tmp",
        ] {
            assert_eq!(temporary_of(not), None, "{not}");
        }
    }
}
