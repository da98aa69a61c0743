//! A run: check the output directory, play the shard's missing parts in parallel, write the
//! manifest.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;
use taisim_agents::{build_agents, BuiltinAgent};
use taisim_score::Variant;

use crate::error::HarnessError;
use crate::manifest::{Manifest, Rows, Status, VARIANT_FILE};
use crate::part::{self, PartRecord, Table};
use crate::play::{PartTables, Player};
use crate::progress::{Progress, ProgressMode};
use crate::spec::{RunSpec, Shard, Unit, VariantSource};

/// The most worker threads a run starts: more than any machine taisim runs on has cores,
/// and few enough that starting them is instant (a typo like 100000 is refused, not obeyed).
pub const MAX_THREADS: usize = 1024;

/// How to run, beyond what decides the rows.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Worker threads (1 to [`MAX_THREADS`]; never more than the parts to play); `None` for
    /// every core.
    pub threads: Option<usize>,
    /// Continue the run already in the directory.
    pub resume: bool,
    pub progress: ProgressMode,
    /// The command line, for the manifest.
    pub command: Vec<String>,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions {
            threads: None,
            resume: false,
            progress: ProgressMode::Quiet,
            command: Vec::new(),
        }
    }
}

/// What a finished run did.
#[derive(Clone, Debug)]
pub struct RunSummary {
    pub out: PathBuf,
    pub manifest: Manifest,
    /// Parts played by this invocation (the rest were already complete).
    pub parts_played: u64,
    /// Deals played by this invocation, and how long it took.
    pub deals_played: u64,
    pub seconds: f64,
    pub threads: usize,
    /// Parts found on disk that did not match their record (or had none) and were played
    /// again, each with the reason.
    pub repaired: Vec<String>,
}

/// Checks a requested thread count: `None` is every core.
pub fn check_threads(threads: Option<usize>) -> Result<(), HarnessError> {
    match threads {
        Some(0) => Err(HarnessError::Usage(
            "the thread count must be at least 1".into(),
        )),
        Some(n) if n > MAX_THREADS => Err(HarnessError::Usage(format!(
            "a thread count of {n} is more than the {MAX_THREADS} a run may start"
        ))),
        _ => Ok(()),
    }
}

/// The spec a resumed run must continue: the one its manifest recorded.
pub fn resume_spec(out: &Path, shard: Shard) -> Result<RunSpec, HarnessError> {
    let path = Manifest::path(out, shard);
    if !path.is_file() {
        return Err(HarnessError::Usage(format!(
            "{} has no {}; is it the output directory of a taisim run{}?",
            out.display(),
            Manifest::file_name(shard),
            if shard.is_whole() { "" } else { " shard" }
        )));
    }
    let manifest = Manifest::read(&path)?;
    let mut spec = manifest.spec;
    let variant_path = out.join(VARIANT_FILE);
    let text = std::fs::read_to_string(&variant_path)
        .map_err(HarnessError::io("cannot read", &variant_path))?;
    let origin = spec.variant.origin.clone();
    let (source, _) = VariantSource::from_text(text, origin)?;
    if source.sha256 != spec.variant.sha256 {
        return Err(HarnessError::Corrupt {
            path: variant_path,
            message: format!(
                "its SHA-256 is {}, the manifest recorded {}",
                source.sha256, spec.variant.sha256
            ),
        });
    }
    spec.variant = source;
    Ok(spec)
}

/// Whether `out` is a directory a run was killed in before it wrote its first manifest:
/// it exists and holds nothing but what a run writes (and no manifest of this shard).
/// Such a run resumes from the arguments alone, which must then be the killed command's.
pub fn resumable_without_manifest(out: &Path, shard: Shard) -> bool {
    !Manifest::path(out, shard).exists()
        && std::fs::read_dir(out).is_ok_and(|entries| {
            entries.filter_map(|e| e.ok()).all(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                is_run_entry(&name)
            })
        })
}

/// What a run directory may hold: what a run writes, and what the report and the analysis
/// script write beside it. Hidden names are temporary files and journals.
fn is_run_entry(name: &str) -> bool {
    [
        VARIANT_FILE,
        "deals",
        "wins",
        "tai",
        "decisions",
        "report.md",
        "plots",
    ]
    .contains(&name)
        || Manifest::is_manifest_name(name)
        || name.starts_with('.')
}

/// Plays the run `spec` describes into `out`.
///
/// With `options.resume`, every part already on disk is checked against what the manifest
/// (or the journal of a killed run) recorded for it: size, SHA-256 and Parquet footer. A
/// part that differs, is truncated or missing, or was never recorded is played again, so
/// the directory ends with exactly the files of an uninterrupted run, and no checksum is
/// ever recorded for bytes the run did not itself write.
pub fn simulate(
    spec: &RunSpec,
    out: &Path,
    options: &RunOptions,
) -> Result<RunSummary, HarnessError> {
    spec.validate()?;
    check_threads(options.threads)?;
    let (_, variant) =
        VariantSource::from_text(spec.variant.text.clone(), spec.variant.origin.clone())?;
    let variant = std::sync::Arc::new(variant);
    let agents =
        build_agents(&spec.agents, &variant).map_err(|e| HarnessError::Usage(e.to_string()))?;

    let resuming = options.resume && Manifest::path(out, spec.shard).is_file();
    let mut manifest = if resuming {
        let path = Manifest::path(out, spec.shard);
        let mut m = Manifest::read(&path)?;
        // The manifest keeps the variant's hash, not its text.
        let mut recorded = m.spec.clone();
        recorded.variant.text.clone_from(&spec.variant.text);
        if recorded != *spec {
            return Err(HarnessError::Usage(format!(
                "cannot resume: the arguments differ from the run in {} ({})",
                out.display(),
                spec_difference(&m.spec, spec)
            )));
        }
        m.command = options.command.clone();
        m
    } else {
        if options.resume && !resumable_without_manifest(out, spec.shard) {
            return Err(HarnessError::Usage(format!(
                "cannot resume: {} has no {} and holds files no run writes; is it the output directory of a taisim run?",
                out.display(),
                Manifest::file_name(spec.shard)
            )));
        }
        prepare(out, spec, options.resume)?;
        Manifest::new(spec, options.command.clone())
    };

    // What earlier invocations recorded: the manifest's parts, then the journal's (parts
    // completed after the manifest was last written).
    let journal_path = Manifest::journal_path(out, spec.shard);
    let mut recorded: BTreeMap<u64, PartRecord> =
        manifest.parts.drain(..).map(|r| (r.index, r)).collect();
    if resuming {
        for r in read_journal(&journal_path)? {
            recorded.insert(r.index, r);
        }
    }

    // Never more threads than the shard has parts (nor, below, than parts to play): the
    // others would only be started to idle.
    let wanted = options.threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let shard_parts = spec.shard_parts().count();
    let pool = worker_pool(wanted.min(shard_parts.max(1)))?;

    // Sort the shard's parts into trusted (every file as recorded) and to play. Stale
    // temporary files of a killed invocation go either way.
    let checked: Result<Vec<Verdict>, HarnessError> = pool.install(|| {
        spec.shard_parts()
            .into_par_iter()
            .map(|p| {
                part::remove_temporaries(out, p)?;
                let Some(r) = recorded.get(&p) else {
                    let found = part::part_path(out, Table::Deals, p).exists();
                    part::remove_part(out, p)?;
                    let why = found
                        .then(|| format!("part {p}: its files were never recorded as complete"));
                    return Ok((p, None, why));
                };
                match check_part(spec, out, p, r)? {
                    None => Ok((p, Some(r.clone()), None)),
                    Some(why) => {
                        part::remove_part(out, p)?;
                        Ok((p, None, Some(format!("part {p}: {why}"))))
                    }
                }
            })
            .collect()
    });
    let mut done = Vec::new();
    let mut pending = Vec::new();
    let mut repaired = Vec::new();
    for (p, trusted, why) in checked? {
        match trusted {
            Some(r) => done.push(r),
            None => pending.push(p),
        }
        repaired.extend(why);
    }

    // The manifest now records only what was checked; the journal starts empty.
    manifest.parts.clone_from(&done);
    manifest.rows = rows_of(&done);
    manifest.status = Status::Running;
    manifest.write(out).map_err(unwritable(out))?;
    let journal = Journal::create(&journal_path)?;

    let unit_count = |p: u64| {
        let (a, b) = spec.part_units(p);
        b - a
    };
    let shard_units: u64 = spec.shard_parts().map(unit_count).sum();
    let done_units: u64 = done.iter().map(|r| unit_count(r.index)).sum();

    let threads = pool.current_num_threads().min(pending.len().max(1));
    let pool = if threads < pool.current_num_threads() {
        worker_pool(threads)?
    } else {
        pool
    };
    if !pending.is_empty() {
        taisim_sim::algo::warm_up();
    }
    let progress = Progress::new(options.progress, shard_units, done_units, spec.unit.name());
    let start = Instant::now();
    let played: Result<Vec<(PartRecord, u64)>, HarnessError> = pool.install(|| {
        pending
            .par_iter()
            .map(|&p| {
                let (record, deals) = play_part(spec, &variant, &agents, out, p, &progress)?;
                journal.append(&record)?;
                Ok((record, deals))
            })
            .collect()
    });
    progress.finish();
    let seconds = start.elapsed().as_secs_f64();
    let played = played?;

    let mut records = done;
    let deals_played = played.iter().map(|(_, d)| d).sum();
    let parts_played = played.len() as u64;
    records.extend(played.into_iter().map(|(r, _)| r));
    records.sort_by_key(|r| r.index);
    manifest.rows = rows_of(&records);
    manifest.parts = records;
    manifest.status = Status::Complete;
    manifest.elapsed_seconds = seconds;
    manifest.threads = pool.current_num_threads();
    manifest.write(out)?;
    // The manifest holds every record now; the journal is redundant.
    drop(journal);
    let _ = std::fs::remove_file(&journal_path);
    Ok(RunSummary {
        out: out.to_path_buf(),
        manifest,
        parts_played,
        deals_played,
        seconds,
        threads: pool.current_num_threads(),
        repaired,
    })
}

/// A part of the shard, its record if its files match it, and why they do not (or why
/// files were found that no record vouches for).
type Verdict = (u64, Option<PartRecord>, Option<String>);

fn worker_pool(threads: usize) -> Result<rayon::ThreadPool, HarnessError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| HarnessError::System(format!("cannot start {threads} worker threads: {e}")))
}

/// Row totals over `records`.
fn rows_of(records: &[PartRecord]) -> Rows {
    Rows {
        deals: records.iter().map(|r| r.deals.rows).sum(),
        wins: records.iter().map(|r| r.wins.rows).sum(),
        tai: records.iter().map(|r| r.tai.rows).sum(),
        decisions: records
            .iter()
            .map(|r| r.decisions.as_ref().map_or(0, |f| f.rows))
            .sum(),
    }
}

/// Why part `p`'s record or files cannot be trusted, if they cannot.
fn check_part(
    spec: &RunSpec,
    out: &Path,
    p: u64,
    r: &PartRecord,
) -> Result<Option<String>, HarnessError> {
    let (first, end) = spec.part_units(p);
    if r.index != p || r.units != [first, end] {
        return Ok(Some(format!(
            "recorded as units {:?}, but the run's part {p} holds [{first}, {end}]",
            r.units
        )));
    }
    if spec.decisions.is_some() && r.decisions.is_none() {
        return Ok(Some("its decisions file was never recorded".into()));
    }
    for &table in Table::of_run(spec.decisions.is_some()) {
        let file = r.file(table);
        let expected = part::part_path(Path::new(""), table, p);
        if Path::new(&file.file) != expected {
            return Ok(Some(format!(
                "its {} file is recorded as {:?}",
                table.dir(),
                file.file
            )));
        }
        if let Some(why) = part::verify(out, file)? {
            return Ok(Some(why));
        }
    }
    Ok(None)
}

/// The journal of completed parts: one JSON record a line, appended and flushed to disk
/// after the part's files are in place, so a record never precedes its bytes.
struct Journal {
    path: PathBuf,
    file: Mutex<File>,
}

impl Journal {
    fn create(path: &Path) -> Result<Journal, HarnessError> {
        let file = File::create(path).map_err(HarnessError::io("cannot write", path))?;
        Ok(Journal {
            path: path.to_path_buf(),
            file: Mutex::new(file),
        })
    }

    fn append(&self, record: &PartRecord) -> Result<(), HarnessError> {
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

/// The records in a journal; a line cut short by a kill (or otherwise unreadable) is
/// skipped, which only means its part is played again.
fn read_journal(path: &Path) -> Result<Vec<PartRecord>, HarnessError> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(text
            .lines()
            .filter_map(|line| serde_json::from_str(line).ok())
            .collect()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        // Not valid UTF-8: torn beyond use; every unrecorded part is played again.
        Err(e) if e.kind() == std::io::ErrorKind::InvalidData => Ok(Vec::new()),
        Err(e) => Err(HarnessError::io("cannot read", path)(e)),
    }
}

/// The first field two specs disagree on, for the error message.
fn spec_difference(recorded: &RunSpec, asked: &RunSpec) -> String {
    let seats = |s: &RunSpec| s.decisions.map_or("none".to_string(), |d| d.to_string());
    let fields: [(&str, String, String); 10] = [
        (
            "variant",
            format!(
                "{} ({})",
                recorded.variant.name,
                &recorded.variant.sha256[..12]
            ),
            format!("{} ({})", asked.variant.name, &asked.variant.sha256[..12]),
        ),
        (
            "unit",
            recorded.unit.name().into(),
            asked.unit.name().into(),
        ),
        ("count", recorded.count.to_string(), asked.count.to_string()),
        ("seed", recorded.seed.to_string(), asked.seed.to_string()),
        ("agents", recorded.agents_arg(), asked.agents_arg()),
        (
            "part size",
            recorded.part_size.to_string(),
            asked.part_size.to_string(),
        ),
        ("shard", recorded.shard.to_string(), asked.shard.to_string()),
        (
            "log actions",
            recorded.log_actions.to_string(),
            asked.log_actions.to_string(),
        ),
        (
            "base/per tai",
            format!("{}/{}", recorded.base, recorded.per_tai),
            format!("{}/{}", asked.base, asked.per_tai),
        ),
        ("decisions", seats(recorded), seats(asked)),
    ];
    fields
        .iter()
        .find(|(_, a, b)| a != b)
        .map(|(name, a, b)| format!("{name}: the run has {a}, the command asks for {b}"))
        .unwrap_or_else(|| "the variant text".into())
}

/// An output directory that cannot be `verb`ed (read, created, written to), and why.
fn dir_error(verb: &str, dir: &Path, e: impl std::fmt::Display) -> HarnessError {
    HarnessError::Usage(format!(
        "cannot {verb} the output directory {}: {e}",
        dir.display()
    ))
}

fn unwritable(out: &Path) -> impl Fn(HarnessError) -> HarnessError + '_ {
    move |e| dir_error("write to", out, e)
}

/// Creates the run directory, or checks that an existing one may take this run: empty,
/// holding only other shards of the same run, or (`resume`) left by this very run killed
/// before its first manifest.
fn prepare(out: &Path, spec: &RunSpec, resume: bool) -> Result<(), HarnessError> {
    if out.exists() && !out.is_dir() {
        return Err(HarnessError::Usage(format!(
            "the output directory {} exists and is not a directory",
            out.display()
        )));
    }
    if out.is_dir() {
        let entries: Vec<String> = std::fs::read_dir(out)
            .map_err(|e| dir_error("read", out, e))?
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        // Manifests of another run, or of another split of this one, first: their own
        // messages (an unsplit run over an unsplit run is simply "not empty").
        let sharing = !spec.shard.is_whole() || !entries.iter().any(|n| n == "manifest.json");
        for other in Manifest::read_all(out)?.into_iter().filter(|_| sharing) {
            let mut theirs = other.spec.clone();
            theirs.shard = spec.shard;
            theirs.variant.text.clone_from(&spec.variant.text);
            if theirs != *spec {
                return Err(HarnessError::Usage(format!(
                    "{} holds {} of a different run ({}); runs share a directory only as shards that agree on everything else",
                    out.display(),
                    Manifest::file_name(other.spec.shard),
                    spec_difference(&other.spec, spec)
                )));
            }
            if other.spec.shard.count != spec.shard.count {
                let split = |s: Shard| {
                    if s.is_whole() {
                        "a run not split into shards".to_string()
                    } else {
                        format!("shard {s}")
                    }
                };
                return Err(HarnessError::Usage(format!(
                    "{} holds {} ({}), and {} cannot join it: shards of one run must all split it into the same number of shards",
                    out.display(),
                    split(other.spec.shard),
                    Manifest::file_name(other.spec.shard),
                    split(spec.shard)
                )));
            }
        }
        if !entries.is_empty() {
            let own = Manifest::file_name(spec.shard);
            let fits = !entries.contains(&own)
                && (resume || !spec.shard.is_whole())
                && entries.iter().all(|n| is_run_entry(n));
            if !fits {
                return Err(HarnessError::Usage(format!(
                    "the output directory {} is not empty; resume the run in it, or choose another output directory",
                    out.display()
                )));
            }
        }
    }
    let mk = |dir: &Path| std::fs::create_dir_all(dir).map_err(|e| dir_error("create", dir, e));
    mk(out)?;
    for &table in Table::of_run(spec.decisions.is_some()) {
        mk(&out.join(table.dir()))?;
    }
    let variant_path = out.join(VARIANT_FILE);
    match std::fs::read_to_string(&variant_path) {
        Ok(existing) if existing == spec.variant.text => Ok(()),
        Ok(_) => Err(HarnessError::Usage(format!(
            "{} holds a different {VARIANT_FILE} (SHA-256 {}…) than the variant asked for ({}, {}…)",
            out.display(),
            &crate::spec::sha256_hex(
                std::fs::read(&variant_path).unwrap_or_default().as_slice()
            )[..12],
            spec.variant.name,
            &spec.variant.sha256[..12]
        ))),
        Err(_) => crate::atomic::write_atomically(&variant_path, spec.variant.text.as_bytes())
            .map_err(|e| dir_error("write to", out, e)),
    }
}

/// Plays part `p` and writes its three files; returns its record and the deals it holds.
fn play_part(
    spec: &RunSpec,
    variant: &Variant,
    agents: &[BuiltinAgent; 4],
    out: &Path,
    p: u64,
    progress: &Progress,
) -> Result<(PartRecord, u64), HarnessError> {
    let (first, end) = spec.part_units(p);
    let capacity = match spec.unit {
        Unit::Deals => (end - first) as usize,
        // About 20 deals a game with greedy players.
        Unit::Games => (end - first) as usize * 24,
    };
    let mut tables = PartTables::new(spec.log_actions, capacity, spec.decisions);
    let mut player = Player::new(spec, variant, agents.clone());
    let mut deals = 0;
    // Progress is counted in batches so workers rarely touch the shared counter.
    const BATCH: u64 = 256;
    let mut unreported = 0;
    for unit in first..end {
        deals += player.play_unit(unit, &mut tables)?;
        unreported += 1;
        if unreported == BATCH {
            progress.advance(unreported);
            unreported = 0;
        }
    }
    progress.advance(unreported);

    // In the order of `Table::of_run`: the deals file last, so a part is complete exactly
    // when its deals file exists.
    let mut batches = Vec::with_capacity(4);
    if let Some(d) = tables.decisions.take() {
        batches.push((Table::Decisions, d.len(), d.finish(&spec.variant.name)));
    }
    batches.push((Table::Wins, tables.wins.len(), tables.wins.finish()));
    batches.push((Table::Tai, tables.tai.len(), tables.tai.finish()));
    let deal_rows = tables.deals.len();
    let deals_batch = tables.deals.finish(&spec.variant.name);
    batches.push((Table::Deals, deal_rows, deals_batch));
    let mut staged = Vec::with_capacity(4);
    let mut files = Vec::with_capacity(4);
    for (table, rows, batch) in &batches {
        let (table, rows) = (*table, *rows);
        let path = part::part_path(out, table, p);
        let bytes = part::encode(table, batch, &path)?;
        files.push(part::record(table, p, rows, &bytes));
        match part::stage(out, table, p, &bytes) {
            Ok(tmp) => staged.push(tmp),
            Err(e) => {
                for tmp in &staged {
                    let _ = std::fs::remove_file(tmp);
                }
                return Err(e);
            }
        }
    }
    for ((table, _, _), tmp) in batches.iter().zip(&staged) {
        part::commit(out, *table, p, tmp)?;
    }
    let deals_file = files.pop().expect("the deals file");
    let tai = files.pop().expect("the tai file");
    let wins = files.pop().expect("the wins file");
    Ok((
        PartRecord {
            index: p,
            units: [first, end],
            deals: deals_file,
            wins,
            tai,
            decisions: files.pop(),
        },
        deals,
    ))
}
