//! Reading a run directory back: its manifests (one, or one per shard), the part files they
//! record, and each table's rows as Arrow record batches of only the columns asked for.
//!
//! [`Run::open`] checks what is cheap to check (the manifests agree with each other and with
//! `variant.toml`, every recorded part lies in its shard's range and exists, the first part
//! of each manifest records the run the manifest describes); each part file is checked when
//! it is opened ([`Run::open_part`]: its footer's rows, its size and the run it records
//! against the manifest) and, on request, read whole for its SHA-256 ([`verify_checksum`]). Reading
//! streams one batch at a time, so memory does not grow with the run.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::types::Int8Type;
use arrow_array::{Array, RecordBatch};
use arrow_schema::DataType;
use parquet::arrow::arrow_reader::{ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder};
use parquet::arrow::ProjectionMask;
use sha2::{Digest, Sha256};

use crate::error::HarnessError;
use crate::fingerprint::PlayFingerprint;
use crate::manifest::{Manifest, Status, VARIANT_FILE};
use crate::part::{FileRecord, PartRecord};
use crate::spec::{sha256_hex, short_sha256, RecordedSpec, Shard, Unit, MAX_DEALS_PER_GAME};
use crate::table::Table;

/// Rows per record batch when reading: small enough that a batch of the widest projection
/// stays well under a megabyte, large enough that per-batch costs vanish.
pub const READ_BATCH_ROWS: usize = 8192;

/// A run directory whose manifests have been read and checked against each other.
#[derive(Clone, Debug)]
pub struct Run {
    pub dir: PathBuf,
    /// The manifests found, in shard order: one for an unsharded run.
    pub manifests: Vec<Manifest>,
    /// The parts the manifests record, all shards together, in part order.
    pub parts: Vec<PartRecord>,
    /// What leaves the run readable but incomplete: shards without a manifest, manifests
    /// whose shard is not complete; files no manifest records; table directories that are
    /// symbolic links.
    pub warnings: Vec<String>,
    /// Files in the table directories that no manifest records and no unfinished shard may
    /// be writing (`deals/part-00050.parquet`): not counted, but read by a glob of the
    /// table all the same.
    pub unrecorded: Vec<String>,
}

fn corrupt(path: &Path, message: impl Into<String>) -> HarnessError {
    HarnessError::Corrupt {
        path: path.to_path_buf(),
        message: message.into(),
    }
}

/// Refuses a `dir` that is not a directory, the user's mistake ([`HarnessError::Usage`]): a
/// command that writes beside a run checks it before the path of what it writes.
pub fn expect_run_dir(dir: &Path) -> Result<(), HarnessError> {
    if dir.is_dir() {
        return Ok(());
    }
    // A path that is not there is told apart from one that is something else (a file).
    let what = match std::fs::symlink_metadata(dir) {
        Ok(_) => "is not a directory".to_string(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => "does not exist".to_string(),
        Err(e) => format!("cannot be inspected ({e})"),
    };
    Err(HarnessError::Usage(format!(
        "{} {what}; expected the output directory of `taisim simulate`",
        dir.display()
    )))
}

impl Run {
    /// Reads and cross-checks the manifests of the run in `dir`.
    ///
    /// A path that is not a directory, or a directory without a manifest, is the user's
    /// mistake ([`HarnessError::Usage`]); manifests that disagree with each other, with
    /// `variant.toml` or with the files on disk are [`HarnessError::Corrupt`].
    pub fn open(dir: &Path) -> Result<Run, HarnessError> {
        expect_run_dir(dir)?;
        let mut manifests = Manifest::read_all(dir)?;
        if manifests.is_empty() {
            return Err(HarnessError::Usage(format!(
                "{} holds no manifest.json (nor manifest-shard-*.json); is it the output directory of `taisim simulate`?",
                dir.display()
            )));
        }
        manifests.sort_by_key(|m| m.spec.shard.index);
        let first = &manifests[0];
        let count = first.spec.shard.count;
        let whole = manifests.iter().any(|m| m.spec.shard.is_whole());
        if whole && manifests.len() > 1 {
            return Err(corrupt(
                dir,
                "holds both manifest.json and shard manifests; keep one run per directory",
            ));
        }
        for m in &manifests[1..] {
            if m.spec.shard.count != count {
                return Err(corrupt(
                    &Manifest::path(dir, m.spec.shard),
                    format!(
                        "shard {} splits the run into {} shards, but {} splits it into {count}; one directory holds the shards of one split",
                        m.spec.shard,
                        m.spec.shard.count,
                        Manifest::file_name(first.spec.shard)
                    ),
                ));
            }
            let mut theirs = m.spec.clone();
            theirs.shard = first.spec.shard;
            if theirs != first.spec {
                return Err(corrupt(
                    &Manifest::path(dir, m.spec.shard),
                    format!(
                        "shard {} is of a different run than shard {} (everything but the shard must agree)",
                        m.spec.shard, first.spec.shard
                    ),
                ));
            }
            if let (Some(ours), Some(theirs)) = (&first.play, &m.play) {
                let labels = [first.spec.shard, m.spec.shard].map(|s| format!("in shard {s}"));
                if let Some(why) = ours.difference(theirs, [&labels[0], &labels[1]]) {
                    return Err(corrupt(
                        &Manifest::path(dir, m.spec.shard),
                        format!(
                            "shard {} was played otherwise than shard {} ({why}); one run holds one way of play",
                            m.spec.shard, first.spec.shard
                        ),
                    ));
                }
            }
        }
        for pair in manifests.windows(2) {
            if pair[0].spec.shard == pair[1].spec.shard {
                return Err(corrupt(
                    dir,
                    format!("two manifests for shard {}", pair[0].spec.shard),
                ));
            }
        }
        check_variant(dir, &first.spec)?;

        let mut parts = Vec::new();
        let mut warnings = Vec::new();
        for m in &manifests {
            check_manifest(dir, m)?;
            if m.status != Status::Complete {
                let name = Manifest::file_name(m.spec.shard);
                warnings.push(format!(
                    "{name}: status running (still running, or interrupted): {} of the shard's {} parts are recorded and counted; finish it with `taisim simulate --resume`",
                    m.parts.len(),
                    m.shard_parts[1] - m.shard_parts[0]
                ));
            }
            parts.extend(m.parts.iter().cloned());
        }
        parts.sort_by_key(|p| p.index);
        for pair in parts.windows(2) {
            if pair[0].index == pair[1].index {
                return Err(corrupt(
                    dir,
                    format!("part {} is recorded by two manifests", pair[0].index),
                ));
            }
        }
        // The manifests are sorted and distinct: the shards missing are the count less
        // them. Only the first few are named, a split of thousands of shards being possible.
        let missing = (count as usize).saturating_sub(manifests.len());
        if missing > 0 {
            const NAMED: usize = 5;
            let present: std::collections::BTreeSet<u32> =
                manifests.iter().map(|m| m.spec.shard.index).collect();
            let named: Vec<String> = (1..=count)
                .filter(|k| !present.contains(k))
                .take(NAMED)
                .map(|k| Shard { index: k, count }.to_string())
                .collect();
            warnings.insert(
                0,
                format!(
                    "{} of this {count}-shard run {} no manifest here{}: {} of {} parts are counted",
                    if missing == 1 {
                        format!("shard {}", named[0])
                    } else {
                        format!("{missing} shards")
                    },
                    if missing == 1 { "has" } else { "have" },
                    match missing {
                        1 => String::new(),
                        n if n <= NAMED => format!(" ({})", named.join(", ")),
                        n => format!(" ({}, … and {} more)", named.join(", "), n - NAMED),
                    },
                    parts.len(),
                    first.parts_in_run
                ),
            );
        }
        // Files no manifest knows: a glob of the table would read them with the run's.
        let tables = Table::of_run(first.spec.decisions.is_some());
        let recorded: std::collections::BTreeSet<u64> = parts.iter().map(|p| p.index).collect();
        let parts_in_run = first.parts_in_run;
        let in_progress = |p: u64| {
            p < parts_in_run
                && !manifests
                    .iter()
                    .any(|m| m.status == Status::Complete && m.spec.shard_parts().contains(&p))
        };
        let unrecorded =
            crate::layout::strays(dir, tables, |_, p| recorded.contains(&p) || in_progress(p))?;
        if !unrecorded.is_empty() {
            warnings.push(format!(
                "{} {} in the table directories {} recorded by no manifest: {}; not counted here, but a glob such as deals/*.parquet reads {} too",
                unrecorded.len(),
                if unrecorded.len() == 1 { "file" } else { "files" },
                if unrecorded.len() == 1 { "is" } else { "are" },
                crate::layout::name_some(&unrecorded),
                if unrecorded.len() == 1 { "it" } else { "them" },
            ));
        }
        for &table in tables {
            if let Some(problem) = crate::layout::table_dir_problem(dir, table) {
                warnings.push(format!("{problem}; its files are read from there"));
            }
        }
        let run = Run {
            dir: dir.to_path_buf(),
            manifests,
            parts,
            warnings,
            unrecorded,
        };
        // The spec is what every reader goes by before it reads a row (the report's header,
        // the comparison's walls): one footer per manifest says whether the files were
        // written by the run it describes. Every other file's footer is checked as it is
        // opened, so only these few are read twice (once more by a reader that opens them
        // again), and a replay that reads one part reads no other part's.
        for m in &run.manifests {
            if let Some(first) = m.parts.first() {
                run.open_part(first, Table::Deals)?;
            }
        }
        Ok(run)
    }

    /// The run's spec, as its first manifest records it (the manifests agree on everything
    /// but the shard).
    pub fn spec(&self) -> &RecordedSpec {
        &self.manifests[0].spec
    }

    /// How the run's agents played its first deal, as a manifest records it (the manifests
    /// that record it agree); `None` when none does.
    pub fn play(&self) -> Option<&PlayFingerprint> {
        self.manifests.iter().find_map(|m| m.play.as_ref())
    }

    /// Shards the run was split into (1 for an unsharded run).
    pub fn shard_count(&self) -> u32 {
        self.spec().shard.count
    }

    /// The shards that have a manifest here.
    pub fn shards_present(&self) -> Vec<Shard> {
        self.manifests.iter().map(|m| m.spec.shard).collect()
    }

    /// Parts in the whole run, all shards together.
    pub fn parts_in_run(&self) -> u64 {
        self.manifests[0].parts_in_run
    }

    /// Whether every part of the run is recorded (no shard missing or unfinished).
    pub fn is_complete(&self) -> bool {
        self.parts.len() as u64 == self.parts_in_run()
    }

    /// The recorded part holding deal `deal_id`, if any.
    pub fn part_of_deal(&self, deal_id: u64) -> Option<&PartRecord> {
        let unit = match self.spec().unit {
            Unit::Deals => deal_id,
            Unit::Games => deal_id / MAX_DEALS_PER_GAME,
        };
        let i = self.parts.partition_point(|p| p.units[1] <= unit);
        self.parts
            .get(i)
            .filter(|p| p.units[0] <= unit && unit < p.units[1])
    }

    /// The path of a recorded file.
    pub fn path(&self, file: &FileRecord) -> PathBuf {
        self.dir.join(&file.file)
    }

    /// Opens one table of a recorded part, checking its footer against the manifest: its
    /// rows, its size, and the run and part it records ([`Run::check_footer`]).
    pub fn open_part(&self, part: &PartRecord, table: Table) -> Result<PartFile, HarnessError> {
        let file = part.file(table);
        let opened = PartFile::open(&self.path(file), Some(file))?;
        self.check_footer(
            part.index,
            &opened.path,
            opened.builder.metadata().file_metadata(),
        )?;
        Ok(opened)
    }

    /// Checks that the footer `meta` of the file at `path`, recorded as part `part`, records
    /// this run's part ([`PartOrigin`](crate::PartOrigin)), as a resume checks it: the
    /// manifest's checksums vouch only for the bytes it lists, so a file of another run
    /// copied in with its record (or a hand-edited spec over the run's own files) would be
    /// counted under a header it contradicts. Only the footer is read, which opening the file
    /// reads anyway.
    pub(crate) fn check_footer(
        &self,
        part: u64,
        path: &Path,
        meta: &parquet::file::metadata::FileMetaData,
    ) -> Result<(), HarnessError> {
        let manifest = &self.manifests[0];
        let name = Manifest::file_name(manifest.spec.shard);
        let format = manifest.part_format();
        match crate::part::origin_of(meta) {
            Err(e) => Err(corrupt(path, e.to_string())),
            // A footer that records no run (an older taisim's part, or the file rewritten
            // by another tool, which the readers take on purpose) is vouched for by the
            // manifest's record alone, as a resume takes it; one that records a run must
            // record this one.
            Ok(None) => Ok(()),
            Ok(Some(origin)) if origin.format != format => Err(corrupt(
                path,
                format!(
                    "its footer has format {}, but {name} (format {}) has parts of format {format}",
                    origin.format, manifest.format
                ),
            )),
            Ok(Some(origin)) => match origin.mismatch(self.spec(), part, "the manifest has") {
                None => Ok(()),
                Some(why) => Err(corrupt(
                    path,
                    format!(
                        "its footer records another run than {name} ({why}): the file is another run's, or the manifest was edited; taisim reads neither as this run"
                    ),
                )),
            },
        }
    }

    /// Checks one table of a recorded part against the manifest's SHA-256, reading it whole.
    pub fn verify_checksum(&self, part: &PartRecord, table: Table) -> Result<(), HarnessError> {
        let file = part.file(table);
        verify_checksum(&self.path(file), file)
    }
}

/// `variant.toml` must be the variant the manifest hashed.
fn check_variant(dir: &Path, spec: &RecordedSpec) -> Result<(), HarnessError> {
    let path = dir.join(VARIANT_FILE);
    let limit = taisim_score::file::VARIANT_FILE_LIMIT;
    let text = match taisim_score::file::read_regular(&path, limit, "a variant file") {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(corrupt(
                &path,
                "missing; every run directory holds its variant",
            ))
        }
        Err(e) => return Err(HarnessError::io("cannot read", &path)(e)),
    };
    let hash = sha256_hex(&text);
    if hash != spec.variant.sha256 {
        return Err(corrupt(
            &path,
            format!(
                "its SHA-256 is {}, the manifest recorded {}",
                short_sha256(&hash),
                short_sha256(&spec.variant.sha256)
            ),
        ));
    }
    Ok(())
}

/// One manifest's own consistency: parts inside its shard's range with the units the spec
/// gives them, row totals that add up, and a complete shard that records every part.
fn check_manifest(dir: &Path, m: &Manifest) -> Result<(), HarnessError> {
    let path = Manifest::path(dir, m.spec.shard);
    let range = m.spec.shard_parts();
    if m.parts_in_run != m.spec.parts() || [range.start, range.end] != m.shard_parts {
        return Err(corrupt(
            &path,
            format!(
                "records parts {:?} of {}, but its spec gives parts {range:?} of {}",
                m.shard_parts,
                m.parts_in_run,
                m.spec.parts()
            ),
        ));
    }
    for p in &m.parts {
        let (first, end) = m.spec.part_units(p.index);
        if !range.contains(&p.index) || p.units != [first, end] {
            return Err(corrupt(
                &path,
                format!(
                    "part {} (units {:?}) is not part of shard {} (parts {range:?})",
                    p.index, p.units, m.spec.shard
                ),
            ));
        }
        for table in Table::ALL {
            let file = p.file(table);
            let expected = crate::part::part_path(Path::new(""), table, p.index);
            if Path::new(&file.file) != expected {
                return Err(corrupt(
                    &path,
                    format!(
                        "part {} records its {} file as {:?}",
                        p.index,
                        table.dir(),
                        file.file
                    ),
                ));
            }
            let path = dir.join(&file.file);
            match taisim_score::file::open_regular(&path) {
                Ok(_) => {}
                // A FIFO, a device, a directory: named as what it is, never read.
                Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => {
                    return Err(HarnessError::Usage(format!(
                        "{}: recorded in the manifest, but it {e}",
                        path.display()
                    )))
                }
                Err(_) => return Err(corrupt(&path, "recorded in the manifest but missing")),
            }
        }
    }
    let sum = |t: Table| m.parts.iter().map(|p| p.file(t).rows).sum::<u64>();
    let totals = [
        (Table::Deals, m.rows.deals),
        (Table::Wins, m.rows.wins),
        (Table::Tai, m.rows.tai),
    ];
    for (table, total) in totals {
        if sum(table) != total {
            return Err(corrupt(
                &path,
                format!(
                    "its {} rows total {total}, but its parts' rows add up to {}",
                    table.dir(),
                    sum(table)
                ),
            ));
        }
    }
    if m.status == Status::Complete && m.parts.len() as u64 != range.end - range.start {
        return Err(corrupt(
            &path,
            format!(
                "complete, yet records {} of its shard's {} parts",
                m.parts.len(),
                range.end - range.start
            ),
        ));
    }
    Ok(())
}

/// Reads `path` whole and compares its size and SHA-256 with the manifest's record.
pub fn verify_checksum(path: &Path, record: &FileRecord) -> Result<(), HarnessError> {
    let (mut file, _) =
        taisim_score::file::open_regular(path).map_err(HarnessError::io("cannot read", path))?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut bytes = 0u64;
    loop {
        let n = file
            .read(&mut buf)
            .map_err(HarnessError::io("cannot read", path))?;
        if n == 0 {
            break;
        }
        bytes += n as u64;
        hasher.update(&buf[..n]);
    }
    let digest = hasher.finalize();
    let hash: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    if bytes != record.bytes || hash != record.sha256 {
        return Err(corrupt(
            path,
            format!(
                "{bytes} bytes with SHA-256 {}…, but the manifest recorded {} bytes with {}…",
                short_sha256(&hash),
                record.bytes,
                short_sha256(&record.sha256)
            ),
        ));
    }
    Ok(())
}

/// One Parquet part file, opened and its footer read.
pub struct PartFile {
    path: PathBuf,
    builder: ParquetRecordBatchReaderBuilder<File>,
    rows: u64,
}

impl PartFile {
    /// Opens `path` and reads its footer; with a manifest record, checks the file's size and
    /// the footer's row count against it.
    pub fn open(path: &Path, record: Option<&FileRecord>) -> Result<PartFile, HarnessError> {
        let (file, meta) = taisim_score::file::open_regular(path)
            .map_err(HarnessError::io("cannot read", path))?;
        let bytes = meta.len();
        let builder = ParquetRecordBatchReaderBuilder::try_new(file)
            .map_err(|e| corrupt(path, format!("not a readable Parquet file: {e}")))?;
        let rows = builder.metadata().file_metadata().num_rows().max(0) as u64;
        if let Some(r) = record {
            if rows != r.rows {
                return Err(corrupt(
                    path,
                    format!(
                        "its footer says {rows} rows, the manifest recorded {}",
                        r.rows
                    ),
                ));
            }
            if bytes != r.bytes {
                return Err(corrupt(
                    path,
                    format!("{bytes} bytes, the manifest recorded {}", r.bytes),
                ));
            }
        }
        Ok(PartFile {
            path: path.to_path_buf(),
            builder,
            rows,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Rows, from the footer.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Whether the file has a column `name`.
    pub fn has_column(&self, name: &str) -> bool {
        self.builder.schema().index_of(name).is_ok()
    }

    /// Streams the rows in batches of at most `batch_rows`, decoding only `columns` (each
    /// must exist). Columns come in the file's order: look them up by name.
    pub fn batches(self, columns: &[&str], batch_rows: usize) -> Result<Batches, HarnessError> {
        let schema = self.builder.schema().clone();
        let mut roots = Vec::with_capacity(columns.len());
        for name in columns {
            let i = schema
                .index_of(name)
                .map_err(|_| corrupt(&self.path, format!("has no column {name:?}")))?;
            roots.push(i);
        }
        let mask = ProjectionMask::roots(self.builder.parquet_schema(), roots);
        let reader = self
            .builder
            .with_projection(mask)
            .with_batch_size(batch_rows.max(1))
            .build()
            .map_err(|e| corrupt(&self.path, format!("cannot read: {e}")))?;
        Ok(Batches {
            path: self.path,
            reader,
        })
    }
}

/// The record batches of one part file; a decoding failure is reported with the file.
pub struct Batches {
    path: PathBuf,
    reader: ParquetRecordBatchReader,
}

impl Iterator for Batches {
    type Item = Result<RecordBatch, HarnessError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.reader
            .next()
            .map(|r| r.map_err(|e| corrupt(&self.path, format!("cannot decode: {e}"))))
    }
}

/// A column of a batch as the array type `T`, or an error naming the file.
pub fn column<'a, T: Array + 'static>(
    batch: &'a RecordBatch,
    name: &str,
    path: &Path,
) -> Result<&'a T, HarnessError> {
    let col = batch
        .column_by_name(name)
        .ok_or_else(|| corrupt(path, format!("has no column {name:?}")))?;
    col.as_any().downcast_ref::<T>().ok_or_else(|| {
        corrupt(
            path,
            format!("column {name:?} has type {}", col.data_type()),
        )
    })
}

/// A string column (dictionary-encoded with `Int8` keys, as taisim writes them, or plain)
/// turned into small codes: `code` maps each distinct string once per batch, nulls give
/// `None`, and a string it rejects is an error naming the file and the value.
pub fn string_codes<F: FnMut(&str) -> Option<usize>>(
    batch: &RecordBatch,
    name: &str,
    path: &Path,
    mut code: F,
) -> Result<Vec<Option<usize>>, HarnessError> {
    let col = batch
        .column_by_name(name)
        .ok_or_else(|| corrupt(path, format!("has no column {name:?}")))?;
    let unexpected = |v: &str| corrupt(path, format!("unexpected value {v:?} in column {name:?}"));
    match col.data_type() {
        DataType::Dictionary(key, value)
            if **key == DataType::Int8 && **value == DataType::Utf8 =>
        {
            let dict = col.as_dictionary::<Int8Type>();
            let values = dict.values().as_string::<i32>();
            let mut map = Vec::with_capacity(values.len());
            for i in 0..values.len() {
                // A dictionary may hold values no row uses; reject only used ones.
                map.push(if values.is_null(i) {
                    None
                } else {
                    Some(code(values.value(i)).ok_or_else(|| values.value(i).to_string()))
                });
            }
            let keys = dict.keys();
            let mut out = Vec::with_capacity(keys.len());
            for i in 0..keys.len() {
                if keys.is_null(i) {
                    out.push(None);
                    continue;
                }
                let k = keys.value(i);
                match usize::try_from(k).ok().and_then(|k| map.get(k)) {
                    Some(Some(Ok(c))) => out.push(Some(*c)),
                    Some(Some(Err(v))) => return Err(unexpected(v)),
                    Some(None) => out.push(None),
                    None => {
                        return Err(corrupt(
                            path,
                            format!("column {name:?}: dictionary key {k} out of range"),
                        ))
                    }
                }
            }
            Ok(out)
        }
        DataType::Utf8 => {
            let values = col.as_string::<i32>();
            let mut out = Vec::with_capacity(values.len());
            for i in 0..values.len() {
                if values.is_null(i) {
                    out.push(None);
                } else {
                    let v = values.value(i);
                    out.push(Some(code(v).ok_or_else(|| unexpected(v))?));
                }
            }
            Ok(out)
        }
        other => Err(corrupt(
            path,
            format!("column {name:?} has type {other}, expected strings"),
        )),
    }
}
