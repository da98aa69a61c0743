//! `manifest.json`: what a run directory holds and how it was made, enough to check every
//! file, to resume the run, and to rerun it elsewhere.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::HarnessError;
use crate::fingerprint::PlayFingerprint;
use crate::part::PartRecord;
use crate::spec::{RecordedSpec, RunSpec, Shard};

/// The manifest format; bumped when a field changes meaning or the tables' columns change.
/// `taisim-run/2` (issue 25): the wins and tai tables have a `variant` column, as the deals
/// table has.
pub const MANIFEST_FORMAT: &str = "taisim-run/2";

/// Earlier formats, still read (by the report, the comparison, a replay) but not resumed:
/// a resumed run would put parts of two layouts in one table. `taisim-run/1`: the wins and
/// tai tables have no `variant` column.
pub const OLDER_MANIFEST_FORMATS: [&str; 1] = ["taisim-run/1"];

/// The largest manifest (or journal) read: a run of the most parts, 99,999, records about
/// 80 MB of them.
pub const MANIFEST_LIMIT: u64 = 256 << 20;

/// The file the run's variant is copied to, inside the run directory.
pub const VARIANT_FILE: &str = "variant.toml";

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Started; parts may be missing. `--resume` continues it.
    Running,
    /// Every part of the shard is written and recorded below.
    Complete,
}

/// Row totals over the recorded parts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rows {
    pub deals: u64,
    pub wins: u64,
    pub tai: u64,
    /// Rows of the decisions table (runs made with `--decisions`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub decisions: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub format: String,
    pub taisim_version: String,
    /// The command line that started (or last resumed) the run.
    pub command: Vec<String>,
    pub status: Status,
    pub spec: RecordedSpec,
    /// The variant as played, copied into the run directory; its hash is in `spec`.
    pub variant_file: String,
    /// How seeds derive, for anyone reproducing a deal without taisim's code.
    pub seeding: String,
    /// How the agents played the run's first deal ([`PlayFingerprint`]): a taisim whose
    /// agents play it otherwise neither adds parts to the run nor replays its deals. Absent
    /// when a seat is an outside program, in a run started before taisim recorded it, and
    /// in one whose kept parts no recorded fingerprint vouched for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub play: Option<PlayFingerprint>,
    /// Parts in the whole run, all shards together.
    pub parts_in_run: u64,
    /// The parts `[first, end)` this manifest's shard plays.
    pub shard_parts: [u64; 2],
    pub rows: Rows,
    pub parts: Vec<PartRecord>,
    /// Wall-clock seconds of the last invocation, and its threads (not part of the data).
    pub elapsed_seconds: f64,
    pub threads: usize,
}

impl Manifest {
    pub fn new(spec: &RunSpec, command: Vec<String>) -> Manifest {
        let parts = spec.shard_parts();
        Manifest {
            format: MANIFEST_FORMAT.to_string(),
            taisim_version: env!("CARGO_PKG_VERSION").to_string(),
            command,
            status: Status::Running,
            spec: spec.record(),
            variant_file: VARIANT_FILE.to_string(),
            seeding: match spec.unit {
                crate::spec::Unit::Deals => "deal i: seed = splitmix64 stream (spec.seed, i) \
                    (taisim_sim::deal_seed); deal_id = i"
                    .to_string(),
                crate::spec::Unit::Games => "game g: game seed = deal_seed(spec.seed, g); its \
                    deal j: seed = deal_seed(game seed, j); deal_id = g * 65536 + j"
                    .to_string(),
            },
            play: None,
            parts_in_run: spec.parts(),
            shard_parts: [parts.start, parts.end],
            rows: Rows::default(),
            parts: Vec::new(),
            elapsed_seconds: 0.0,
            threads: 0,
        }
    }

    /// Whether this taisim writes the run's format ([`MANIFEST_FORMAT`]), so may resume it; an
    /// older run ([`OLDER_MANIFEST_FORMATS`]) is only read.
    pub fn is_current(&self) -> bool {
        self.format == MANIFEST_FORMAT
    }

    /// The format of the footers of the run's part files ([`crate::PartOrigin::format`]):
    /// `taisim-part/1` in a `taisim-run/1` run (whose earliest parts have no footer record
    /// at all), this taisim's otherwise.
    pub(crate) fn part_format(&self) -> &'static str {
        match self.format.as_str() {
            "taisim-run/1" => "taisim-part/1",
            _ => crate::spec::PART_ORIGIN_FORMAT,
        }
    }

    /// The manifest's file name: `manifest.json`, or one per shard so shards can share a
    /// directory.
    pub fn file_name(shard: Shard) -> String {
        if shard.is_whole() {
            "manifest.json".to_string()
        } else {
            format!(
                "manifest-shard-{:05}-of-{:05}.json",
                shard.index, shard.count
            )
        }
    }

    pub fn path(out: &Path, shard: Shard) -> PathBuf {
        out.join(Manifest::file_name(shard))
    }

    /// The journal beside a running shard's manifest: one line per part completed since
    /// the manifest was last written, so a killed run knows what it finished (hidden, and
    /// removed once the manifest records every part).
    pub fn journal_path(out: &Path, shard: Shard) -> PathBuf {
        out.join(format!(".{}.journal", Manifest::file_name(shard)))
    }

    /// Whether `name` is a manifest's file name.
    pub fn is_manifest_name(name: &str) -> bool {
        name == "manifest.json" || (name.starts_with("manifest-shard-") && name.ends_with(".json"))
    }

    pub fn read(path: &Path) -> Result<Manifest, HarnessError> {
        let text = taisim_score::file::read_regular_text(path, MANIFEST_LIMIT, "a manifest")
            .map_err(HarnessError::io("cannot read", path))?;
        let manifest: Manifest =
            serde_json::from_str(&text).map_err(|e| HarnessError::Corrupt {
                path: path.to_path_buf(),
                message: format!("not a taisim run manifest: {e}"),
            })?;
        if manifest.format != MANIFEST_FORMAT
            && !OLDER_MANIFEST_FORMATS.contains(&manifest.format.as_str())
        {
            return Err(HarnessError::Corrupt {
                path: path.to_path_buf(),
                message: format!(
                    "manifest format {:?}; this taisim reads {MANIFEST_FORMAT:?} and {}",
                    manifest.format,
                    OLDER_MANIFEST_FORMATS.map(|f| format!("{f:?}")).join(", ")
                ),
            });
        }
        // A spec no run could have (a part size of 0, shard 1/0) is a damaged file, caught
        // here before any arithmetic divides by it.
        if let Some(problem) = manifest.spec.problem() {
            return Err(HarnessError::Corrupt {
                path: path.to_path_buf(),
                message: format!("its spec is impossible: {problem}"),
            });
        }
        Ok(manifest)
    }

    /// Every manifest in a run directory (one, or one per shard), in file-name order.
    pub fn read_all(out: &Path) -> Result<Vec<Manifest>, HarnessError> {
        let mut names = Vec::new();
        let entries = std::fs::read_dir(out).map_err(HarnessError::io("cannot read", out))?;
        for entry in entries {
            let entry = entry.map_err(HarnessError::io("cannot read", out))?;
            if let Some(name) = entry.file_name().to_str() {
                if Manifest::is_manifest_name(name) {
                    names.push(name.to_string());
                }
            }
        }
        names.sort();
        names.iter().map(|n| Manifest::read(&out.join(n))).collect()
    }

    /// Writes the manifest under a temporary name, flushes it and renames it into place.
    pub fn write(&self, out: &Path) -> Result<(), HarnessError> {
        let mut text = serde_json::to_string_pretty(self).expect("a manifest serialises");
        text.push('\n');
        crate::atomic::write_atomically(&Manifest::path(out, self.spec.shard), text.as_bytes())
    }
}
