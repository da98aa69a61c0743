//! The journal beside a running shard's manifest: its first line the run's spec, then one
//! line per part completed since the manifest was last written, so a killed run knows what
//! it finished, and a run whose manifest was lost still knows what it was playing.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::error::HarnessError;
use crate::manifest::MANIFEST_LIMIT;
use crate::part::PartRecord;
use crate::spec::{RecordedSpec, RunSpec};

/// The journal format, its first line's `journal` field.
pub const JOURNAL_FORMAT: &str = "taisim-journal/1";

/// The journal's first line.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    journal: String,
    spec: RecordedSpec,
}

/// An open journal, appended to by every worker.
pub(crate) struct Journal {
    path: PathBuf,
    file: Mutex<File>,
}

impl Journal {
    /// Starts an empty journal of `spec`'s run, its header flushed to disk. A journal left by
    /// an earlier invocation is replaced: the manifest written before this holds its records.
    pub fn create(path: &Path, spec: &RunSpec) -> Result<Journal, HarnessError> {
        match std::fs::remove_file(path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(HarnessError::io("cannot remove", path)(e))
            }
            _ => {}
        }
        // A new file, never an open of whatever the name held (a FIFO would block).
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(HarnessError::io("cannot write", path))?;
        let header = Header {
            journal: JOURNAL_FORMAT.to_string(),
            spec: spec.record(),
        };
        let mut line = serde_json::to_string(&header).expect("a journal header serialises");
        line.push('\n');
        file.write_all(line.as_bytes())
            .and_then(|()| file.sync_data())
            .map_err(HarnessError::io("cannot write", path))?;
        Ok(Journal {
            path: path.to_path_buf(),
            file: Mutex::new(file),
        })
    }

    /// Appends a completed part's record and flushes it to disk, after the part's files are
    /// in place, so a record never precedes its bytes.
    pub fn append(&self, record: &PartRecord) -> Result<(), HarnessError> {
        let mut line = serde_json::to_string(record).expect("a part record serialises");
        line.push('\n');
        // A worker that panicked while holding the lock left no half line behind a
        // successful `write_all`, so the file is still usable.
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        file.write_all(line.as_bytes())
            .and_then(|()| file.sync_data())
            .map_err(HarnessError::io("cannot write", &self.path))
    }
}

/// What a journal holds: the spec of its header (if the header is readable) and the part
/// records. A line cut short by a kill (or otherwise unreadable) is skipped, which only means
/// its part is played again.
pub(crate) struct JournalText {
    pub spec: Option<RecordedSpec>,
    pub records: Vec<PartRecord>,
}

/// Reads the journal at `path`; a missing one is empty.
pub(crate) fn read(path: &Path) -> Result<JournalText, HarnessError> {
    let empty = JournalText {
        spec: None,
        records: Vec::new(),
    };
    let text = match taisim_score::file::read_regular_text(path, MANIFEST_LIMIT, "a journal") {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(empty),
        // Not valid UTF-8: torn beyond use; every unrecorded part is played again.
        Err(e) if e.kind() == std::io::ErrorKind::InvalidData => return Ok(empty),
        Err(e) => return Err(HarnessError::io("cannot read", path)(e)),
    };
    let spec = text
        .lines()
        .next()
        .and_then(|first| serde_json::from_str::<Header>(first).ok())
        .filter(|h| h.journal == JOURNAL_FORMAT)
        .map(|h| h.spec);
    // A journal written before headers: its first line may be a record.
    let records = text
        .lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect();
    Ok(JournalText { spec, records })
}
