//! The journal beside a running shard's manifest: its first line the run's spec and play
//! fingerprint, then one line per part completed since the manifest was last written, so a
//! killed run knows what it finished, and a run whose manifest was lost still knows what it
//! was playing and how its agents played.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::error::HarnessError;
use crate::fingerprint::PlayFingerprint;
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
    /// How the agents of the invocation that wrote the journal play ([`PlayFingerprint`]),
    /// checked against the run's manifests before it wrote a record: the records' voucher
    /// when the manifest is lost. Absent from the journals of a taisim before it, and of a run
    /// with an outside program's seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    play: Option<PlayFingerprint>,
}

/// An open journal, appended to by every worker.
pub(crate) struct Journal {
    path: PathBuf,
    file: Mutex<File>,
}

impl Journal {
    /// Starts an empty journal of `spec`'s run played as `play` records, its header flushed
    /// to disk. A journal left by an earlier invocation is replaced: the manifest written
    /// before this holds its records.
    pub fn create(
        path: &Path,
        spec: &RunSpec,
        play: Option<&PlayFingerprint>,
    ) -> Result<Journal, HarnessError> {
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
            play: play.cloned(),
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

/// What a journal holds: the spec and play fingerprint of its header (if the header is
/// readable) and the part records. A line cut short by a kill (or otherwise unreadable) is
/// skipped, which only means its part is played again.
pub(crate) struct JournalText {
    pub spec: Option<RecordedSpec>,
    pub play: Option<PlayFingerprint>,
    pub records: Vec<PartRecord>,
}

/// Reads the journal at `path`; a missing one is empty.
pub(crate) fn read(path: &Path) -> Result<JournalText, HarnessError> {
    let empty = JournalText {
        spec: None,
        play: None,
        records: Vec::new(),
    };
    let text = match taisim_score::file::read_regular_text(path, MANIFEST_LIMIT, "a journal") {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(empty),
        // Not valid UTF-8: torn beyond use; every unrecorded part is played again.
        Err(e) if e.kind() == std::io::ErrorKind::InvalidData => return Ok(empty),
        Err(e) => return Err(HarnessError::io("cannot read", path)(e)),
    };
    let (spec, play) = text
        .lines()
        .next()
        .and_then(|first| serde_json::from_str::<Header>(first).ok())
        .filter(|h| h.journal == JOURNAL_FORMAT)
        .map_or((None, None), |h| (Some(h.spec), h.play));
    // A journal written before headers: its first line may be a record.
    let records = text
        .lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect();
    Ok(JournalText {
        spec,
        play,
        records,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::part::FileRecord;
    use crate::spec::{same_run, test_spec};

    fn record(index: u64) -> PartRecord {
        let file = |dir: &str| FileRecord {
            file: format!("{dir}/part-{index:05}.parquet"),
            bytes: 10 + index,
            sha256: format!("{index:064}"),
            rows: index,
        };
        PartRecord {
            index,
            units: [index * 10, index * 10 + 10],
            deals: file("deals"),
            wins: file("wins"),
            tai: file("tai"),
            decisions: None,
        }
    }

    /// The header written is the header read, the play fingerprint with it (or its absence),
    /// and a record cut short by a kill is skipped.
    #[test]
    fn a_journal_reads_back_its_spec_play_and_records() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".manifest.json.journal");
        let spec = test_spec("greedy");
        let play = PlayFingerprint {
            deal_id: 0,
            agents: ["greedy"; 4].map(String::from),
            sha256: "ab".repeat(32),
            weights: Default::default(),
        };
        for voucher in [Some(&play), None] {
            let journal = Journal::create(&path, &spec, voucher).unwrap();
            journal.append(&record(3)).unwrap();
            journal.append(&record(1)).unwrap();
            drop(journal);
            let mut text = std::fs::read_to_string(&path).unwrap();
            text.push_str(r#"{"index":2,"units":[20,3"#);
            std::fs::write(&path, text).unwrap();
            let read = read(&path).unwrap();
            assert!(same_run(read.spec.as_ref().unwrap(), &spec));
            assert_eq!(read.play.as_ref(), voucher);
            assert_eq!(read.records, [record(3), record(1)]);
        }
        // A header the reader cannot take (another format) leaves spec and play unknown.
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace(JOURNAL_FORMAT, "taisim-journal/0")).unwrap();
        let read = read(&path).unwrap();
        assert!(read.spec.is_none() && read.play.is_none());
        assert_eq!(read.records.len(), 2);
    }
}
