//! A run: check the output directory, play the shard's missing parts in parallel, write the
//! manifest.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;
use taisim_agents::exec::seat_letters;
use taisim_agents::{
    build_agents_with, renew_bots, BotStderr, BuiltinAgent, ExecSettings, PolicyError,
};
use taisim_score::Variant;

use crate::error::HarnessError;
use crate::fingerprint::{fingerprint, PlayFingerprint};
use crate::journal::Journal;
use crate::layout::{
    is_lock_name, is_run_entry, lay_out, remove_manifest_temporaries, run_table_dir, strays,
    table_dir_problem, RunLock,
};
use crate::manifest::{Manifest, Rows, Status};
use crate::part::{self, FileRecord, PartRecord};
use crate::play::Player;
use crate::pool::{check_threads, worker_pool};
use crate::progress::{Progress, ProgressMode};
use crate::resume::{
    inspect_part, recorded_record, refuse_another_run, resumable_without_manifest, PartPlan,
};
use crate::spec::{same_run, spec_difference, RunSpec, Unit};
use crate::table::{PartTables, Table};

/// How to run, beyond what decides the rows.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Worker threads (1 to [`MAX_THREADS`](crate::MAX_THREADS); never more than the parts to play); `None` for
    /// every core.
    pub threads: Option<usize>,
    /// Continue the run already in the directory.
    pub resume: bool,
    pub progress: ProgressMode,
    /// The command line, for the manifest.
    pub command: Vec<String>,
    /// Seconds an `exec:` agent may take over one decision (its default when `None`).
    pub bot_timeout: Option<f64>,
    /// Set from another thread to stop the run (Python's Ctrl-C): each worker stops before
    /// its next deal, the part it was playing is not written, and the run ends with
    /// [`HarnessError::Interrupted`], its complete parts recorded for `resume`, as a run
    /// killed between parts.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions {
            threads: None,
            resume: false,
            progress: ProgressMode::Quiet,
            command: Vec::new(),
            bot_timeout: None,
            cancel: None,
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
    /// Files in the table directories that belong to no part of the run (a part number
    /// past its last, another name): left alone, and read by a glob of the table all the
    /// same. Relative to the run directory.
    pub strays: Vec<String>,
    /// What the run changed, and why: manifest fields that did not follow from its spec,
    /// written again; fewer threads than asked when the memory holds fewer parts.
    pub notes: Vec<String>,
}

impl RunSummary {
    /// What the run has to tell its user besides its counts, one message each: the parts
    /// played again, its notes, and the files that belong to no part (the command line
    /// prints them on stderr, Python raises them as warnings).
    pub fn messages(&self) -> impl Iterator<Item = String> + '_ {
        let repaired = self
            .repaired
            .iter()
            .map(|why| format!("played again: {why}"));
        let strays = self.strays.iter().map(|name| {
            format!("{name} is not a part of this run: left alone, but a glob of its table reads it too")
        });
        repaired.chain(self.notes.iter().cloned()).chain(strays)
    }
}

/// Plays the run `spec` describes into `out`.
///
/// With `options.resume`, the spec must be the one the directory recorded (its manifest,
/// journal or part files: [`crate::recorded_spec`]), and every file of the shard's parts is
/// judged before anything is written: a file of another run, or one that no record or
/// footer vouches for, stops the run with its name; a file as recorded (size, SHA-256,
/// Parquet footer) is kept; a part with a file that differs, is truncated or missing, or
/// was never recorded is played again, writing only what is not as recorded. The directory
/// ends with exactly the files of an uninterrupted run, and no checksum is ever recorded
/// for bytes the run did not itself write. Files in the table directories that belong to no
/// part of the run are left alone and named ([`RunSummary::strays`]).
pub fn simulate(
    spec: &RunSpec,
    out: &Path,
    options: &RunOptions,
) -> Result<RunSummary, HarnessError> {
    spec.validate()?;
    refuse_empty_shards(spec, out)?;
    check_threads(options.threads)?;
    // The variant was parsed once, where the run was asked for; every stage takes it.
    let variant = spec.variant.variant();
    let mut bots = options
        .bot_timeout
        .map_or_else(ExecSettings::default, ExecSettings::with_timeout);
    bots.stakes = Some((spec.base, spec.per_tai));
    bots.variant_sha256 = Some(spec.variant.record().sha256.clone());
    let agents = build_agents_with(&spec.agents, variant, &bots).map_err(|e| match e {
        // A run records a policy path as given: a relative one resumed from elsewhere names
        // another place (another file there is refused by its weights' hash, below).
        PolicyError::Io {
            ref path,
            writing: false,
            ..
        } if options.resume && path.is_relative() => HarnessError::Usage(format!(
            "{e}: the run records policy paths as they were given, and a relative one is read from the directory taisim runs in; resume from the directory the run was started in"
        )),
        e => e.into(),
    })?;
    let mut notes = Vec::new();
    // A part must fit in memory before anything is created.
    let available = crate::memory::available();
    let part_bytes = crate::memory::part_bytes(spec);
    if let Some(bytes) = available.filter(|&b| part_bytes > b) {
        return Err(too_large_parts(spec, part_bytes, bytes));
    }

    let own = Manifest::path(out, spec.shard);
    if options.resume {
        // What the directory records, compared without reading its variant again.
        match recorded_record(out, spec.shard)? {
            Some((recorded, source)) => refuse_another_run(out, &recorded, spec, source)?,
            None if !resumable_without_manifest(out, spec.shard) => {
                return Err(HarnessError::Usage(format!(
                    "cannot resume: {} has no {} and holds files no run writes; is it the output directory of a taisim run?",
                    out.display(),
                    Manifest::file_name(spec.shard)
                )))
            }
            None => {}
        }
    }
    let resuming = options.resume && own.is_file();
    if !resuming {
        check_directory(out, spec, options.resume)?;
    }
    for &table in Table::of_run(spec.decisions.is_some()) {
        if let Some(problem) = table_dir_problem(out, table) {
            return Err(HarnessError::Usage(problem));
        }
    }
    std::fs::create_dir_all(out).map_err(|e| dir_error("create", out, e))?;
    // Held from here to the end: everything below is this process's alone to judge and
    // write. Until the parts are judged nothing else is changed, so a refusal leaves the
    // directory as it was.
    let lock = RunLock::acquire(out, spec.shard).map_err(unwritable(out))?;
    // Until this process's manifest is written, what the directory holds is judged under
    // the setup lock: processes started at once (an array job's shards) each see the
    // manifests of those set up before them, never a directory that another is about to
    // make another run's. The checks before the lock only spare a refused run creating its
    // directory.
    let setup = RunLock::setup(out).map_err(unwritable(out))?;
    if !options.resume && own.exists() {
        // Another process of this shard got here first.
        return Err(not_empty(out));
    }
    if !resuming {
        check_directory(out, spec, options.resume)?;
    }

    let mut repaired = Vec::new();
    let mut manifest = if resuming {
        let mut m = Manifest::read(&own)?;
        m.command = options.command.clone();
        // Derived from the spec: a damaged value is written again as the spec gives it.
        let range = spec.shard_parts();
        if m.parts_in_run != spec.parts() || m.shard_parts != [range.start, range.end] {
            notes.push(format!(
                "{}: parts_in_run {} and shard_parts {:?} did not follow from its spec; written again as {} and {:?}",
                Manifest::file_name(spec.shard),
                m.parts_in_run,
                m.shard_parts,
                spec.parts(),
                [range.start, range.end]
            ));
            m.parts_in_run = spec.parts();
            m.shard_parts = [range.start, range.end];
        }
        m
    } else {
        Manifest::new(spec, options.command.clone())
    };

    // How this taisim's agents play the run's first deal, checked against every manifest
    // in the directory that records it (this shard's when resuming, the other shards'):
    // parts played otherwise never join theirs.
    let play = fingerprint(spec, variant, &agents)?;
    if let Some(ours) = &play {
        for other in Manifest::read_all(out)? {
            let name = Manifest::file_name(other.spec.shard);
            match &other.play {
                Some(theirs) => same_play(out, ours, theirs, &name)?,
                None => notes.push(format!(
                    "{name} records no play fingerprint (an older taisim wrote it, or it keeps parts no fingerprint vouched for): whether its parts were played as this taisim plays is not checked"
                )),
            }
        }
    }

    // What earlier invocations recorded: the manifest's parts, then the journal's (parts
    // completed after the manifest was last written).
    let journal_path = Manifest::journal_path(out, spec.shard);
    let mut recorded: BTreeMap<u64, PartRecord> =
        manifest.parts.drain(..).map(|r| (r.index, r)).collect();
    // Whether the journal's records were played as this taisim plays: its header says so,
    // or (a journal of a taisim before headers recorded play) the manifest that the same
    // invocation wrote just before it does. Without a manifest, only the header can.
    let mut journal_vouched = manifest.play.is_some();
    let mut from_journal = BTreeSet::new();
    if options.resume {
        let journal = crate::journal::read(&journal_path)?;
        let journal_name = || {
            journal_path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
        };
        if let Some(theirs) = journal.spec.filter(|s| !same_run(s, spec)) {
            return Err(HarnessError::Usage(format!(
                "cannot resume: the journal {} is of another run ({}); move it away",
                journal_path.display(),
                spec_difference(&theirs, spec, ["the journal has", "the run has"])
            )));
        }
        if let (Some(ours), Some(theirs)) = (&play, &journal.play) {
            same_play(out, ours, theirs, &journal_name())?;
        }
        journal_vouched |= journal.play.is_some();
        if play.is_some() && !journal_vouched && !journal.records.is_empty() {
            notes.push(format!(
                "{} records no play fingerprint (an older taisim wrote it, and no manifest vouches for it): whether the parts it records were played as this taisim plays is not checked",
                journal_name()
            ));
        }
        for r in journal.records {
            from_journal.insert(r.index);
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

    // Judge the shard's parts: trusted (every file as recorded) or to play.
    let checked: Result<Vec<PartPlan>, HarnessError> = pool.install(|| {
        spec.shard_parts()
            .into_par_iter()
            .map(|p| inspect_part(spec, out, p, recorded.get(&p)))
            .collect()
    });
    let mut done = Vec::new();
    let mut pending = Vec::new();
    for plan in checked? {
        repaired.extend(plan.why.clone());
        match plan.trusted {
            Some(r) => done.push(r),
            None => pending.push((plan.index, plan.keep)),
        }
    }
    let parts_in_run = spec.parts();
    let strays = strays(out, Table::of_run(spec.decisions.is_some()), |_, p| {
        p < parts_in_run
    })?;

    // Judged: now the directory is laid out again (a deleted table directory, variant.toml),
    // and what killed invocations left half written is removed.
    lay_out(out, spec)?;
    remove_manifest_temporaries(out, spec.shard)?;
    part::remove_temporaries(out, spec.shard_parts())?;

    // The fingerprint is recorded only where it vouches for every part the manifest will
    // hold: each kept part was recorded under the same fingerprint (checked above), by the
    // manifest or by the journal. Parts that no fingerprint vouched for are never blessed as
    // this taisim's play.
    let vouched = |r: &PartRecord| {
        if from_journal.contains(&r.index) {
            journal_vouched
        } else {
            manifest.play.is_some()
        }
    };
    if done.iter().all(vouched) {
        manifest.play.clone_from(&play);
    }
    // The manifest now records only what was checked; the journal starts empty.
    manifest.parts.clone_from(&done);
    manifest.rows = rows_of(&done);
    manifest.status = Status::Running;
    manifest.write(out).map_err(unwritable(out))?;
    drop(setup);
    let journal = Journal::create(&journal_path, spec, play.as_ref())?;

    let unit_count = |p: u64| {
        let (a, b) = spec.part_units(p);
        b - a
    };
    let shard_units: u64 = spec.shard_parts().map(unit_count).sum();
    let done_units: u64 = done.iter().map(|r| unit_count(r.index)).sum();

    let mut threads = pool.current_num_threads().min(pending.len().max(1));
    // Each worker holds a part: no more workers than the memory holds parts.
    if let Some(bytes) = available {
        let fit = usize::try_from(bytes / part_bytes.max(1)).unwrap_or(usize::MAX);
        if fit < threads {
            notes.push(format!(
                "{threads} worker threads would hold {threads} parts of about {} each, more than the {} of memory available: playing on {fit}",
                crate::memory::human(part_bytes),
                crate::memory::human(bytes),
            ));
            threads = fit.max(1);
        }
    }
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
    let cancel = options.cancel.as_deref();
    let played: Result<Vec<(PartRecord, u64)>, HarnessError> = pool.install(|| {
        pending
            .par_iter()
            .map(|(p, keep)| {
                let (record, deals) =
                    play_part(spec, variant, &agents, out, *p, keep, &progress, cancel)?;
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
    drop(lock);
    Ok(RunSummary {
        out: out.to_path_buf(),
        manifest,
        parts_played,
        deals_played,
        seconds,
        threads: pool.current_num_threads(),
        repaired,
        strays,
        notes,
    })
}

/// Refuses to play into `out` when this taisim's agents (`ours`) play otherwise than those
/// that wrote `record` (a manifest or a journal, whose fingerprint is `theirs`).
fn same_play(
    out: &Path,
    ours: &PlayFingerprint,
    theirs: &PlayFingerprint,
    record: &str,
) -> Result<(), HarnessError> {
    match ours.difference(theirs, ["here", "in the run"]) {
        None => Ok(()),
        Some(why) => Err(HarnessError::Usage(format!(
            "cannot play into {}: this taisim's agents play otherwise than those that wrote {record} ({why}); parts played two ways would mix in one run. Finish it with the taisim (and weights files) that started it, or play it again into a new directory",
            out.display()
        ))),
    }
}

/// The error for a part that alone needs more memory than the machine has.
fn too_large_parts(spec: &RunSpec, part_bytes: u64, available: u64) -> HarnessError {
    let decisions = if spec.decisions.is_some() {
        " (with its decisions table)"
    } else {
        ""
    };
    HarnessError::Usage(format!(
        "a part of {} {}{decisions} holds about {} in memory while it is played, more than the {} this machine has available; lower the part size to at most {}",
        spec.part_size.min(spec.count),
        spec.unit.name(),
        crate::memory::human(part_bytes),
        crate::memory::human(available),
        crate::memory::part_size_within(spec, available).max(1)
    ))
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

/// An output directory that cannot be `verb`ed (read, created, written to), and why.
fn dir_error(verb: &str, dir: &Path, e: impl std::fmt::Display) -> HarnessError {
    HarnessError::Usage(format!(
        "cannot {verb} the output directory {}: {e}",
        dir.display()
    ))
}

fn unwritable(out: &Path) -> impl Fn(HarnessError) -> HarnessError + '_ {
    move |e| match e {
        // Already names the problem and who must act.
        HarnessError::Usage(_) => e,
        e => dir_error("write to", out, e),
    }
}

fn not_empty(out: &Path) -> HarnessError {
    HarnessError::Usage(format!(
        "the output directory {} is not empty; resume the run in it, or choose another output directory",
        out.display()
    ))
}

/// Refuses a split into more shards than the run has parts: a shard plays whole parts, so
/// the extra shards would have none, each writing a manifest of nothing (and manifests named
/// past the five digits a shard number has, and a report warning of every one). A shard
/// already recorded, begun by a taisim that allowed such splits, is still finished.
fn refuse_empty_shards(spec: &RunSpec, out: &Path) -> Result<(), HarnessError> {
    let parts = spec.parts();
    if u64::from(spec.shard.count) <= parts || Manifest::path(out, spec.shard).is_file() {
        return Ok(());
    }
    Err(HarnessError::Usage(format!(
        "shard {} splits the run into {} shards, more than its {parts} {} ({} {} in parts of {}): a shard plays whole parts, so the run splits into at most {parts} shards; split it into fewer, or make the parts smaller",
        spec.shard,
        spec.shard.count,
        if parts == 1 { "part" } else { "parts" },
        spec.count,
        spec.unit.name(),
        spec.part_size,
    )))
}

/// Checks that the directory `out` (if it exists) may take this run: empty, holding only
/// other shards of the same run, or (`resume`) left by this very run without its manifest.
/// Nothing is written.
fn check_directory(out: &Path, spec: &RunSpec, resume: bool) -> Result<(), HarnessError> {
    // A run inside another's table directory is read as that run's stray files, and breaks
    // every reader that takes the table directory as a dataset.
    if let Some((table, run)) = out.parent().and_then(run_table_dir) {
        return Err(HarnessError::Usage(format!(
            "the output directory {} is in the {table} directory of the run in {}: choose a directory outside it",
            out.display(),
            run.display()
        )));
    }
    if out.exists() && !out.is_dir() {
        return Err(HarnessError::Usage(format!(
            "the output directory {} exists and is not a directory",
            out.display()
        )));
    }
    if !out.is_dir() {
        return Ok(());
    }
    // A lock file says nothing of what the directory holds: one a killed process left
    // behind, or one of a process setting up now (whose run the check under the setup lock
    // sees), leaves a directory otherwise empty as good as empty.
    let entries: Vec<String> = std::fs::read_dir(out)
        .map_err(|e| dir_error("read", out, e))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !is_lock_name(n))
        .collect();
    // Manifests of another run, or of another split of this one, first: their own
    // messages (an unsplit run over an unsplit run is simply "not empty").
    let sharing = !spec.shard.is_whole() || !entries.iter().any(|n| n == "manifest.json");
    if sharing {
        crate::resume::refuse_older(out)?;
    }
    for other in Manifest::read_all(out)?.into_iter().filter(|_| sharing) {
        let theirs = RunSpec {
            shard: spec.shard,
            ..other.spec.clone()
        };
        if !same_run(&theirs, spec) {
            return Err(HarnessError::Usage(format!(
                "{} holds {} of a different run ({}); runs share a directory only as shards that agree on everything else",
                out.display(),
                Manifest::file_name(other.spec.shard),
                // The shard is the one field shards may differ in: compared with it set to
                // ours, the difference named is the one that refuses.
                spec_difference(&theirs, spec, ["the run has", "the command asks for"])
            )));
        }
        if other.spec.shard.count != spec.shard.count {
            return Err(crate::resume::other_split(
                out,
                other.spec.shard,
                spec.shard,
                resume,
            ));
        }
    }
    if !entries.is_empty() {
        let own = Manifest::file_name(spec.shard);
        let fits = !entries.contains(&own)
            && (resume || !spec.shard.is_whole())
            && entries.iter().all(|n| is_run_entry(n));
        if !fits {
            return Err(not_empty(out));
        }
    }
    Ok(())
}

/// Plays part `p` and writes its files, but for those in `keep` (already on disk as
/// recorded: the new bytes must be the same, and the file is left as it is); returns the
/// part's record and the deals it holds. Stops before a deal once `cancel` is set.
#[allow(clippy::too_many_arguments)]
fn play_part(
    spec: &RunSpec,
    variant: &Variant,
    agents: &[BuiltinAgent; 4],
    out: &Path,
    p: u64,
    keep: &[(Table, FileRecord)],
    progress: &Progress,
    cancel: Option<&AtomicBool>,
) -> Result<(PartRecord, u64), HarnessError> {
    let (first, end) = spec.part_units(p);
    // The first allocation only: the columns grow as needed, so a large part size reserves
    // no more than a default part would.
    let capacity = match spec.unit {
        Unit::Deals => end - first,
        // About 20 deals a game with greedy players.
        Unit::Games => (end - first).saturating_mul(24),
    }
    .min(Unit::Deals.default_part_size()) as usize;
    let mut tables = PartTables::new(
        spec.log_actions,
        capacity,
        spec.decisions,
        spec.search_labels(),
    );
    // Each part's outside players get processes of their own, their stderr kept beside it.
    let mut agents = agents.clone();
    renew_bots(&mut agents, |seats| {
        let name = format!("part-{p:05}-{}.stderr", seat_letters(seats));
        BotStderr::File(out.join(crate::BOTS_DIR).join(name))
    });
    let mut player = Player::new(spec, variant, agents);
    let mut deals = 0;
    // Progress is counted in batches so workers rarely touch the shared counter.
    const BATCH: u64 = 256;
    let mut unreported = 0;
    for unit in first..end {
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(HarnessError::Interrupted);
        }
        deals += player.play_unit(unit, &mut tables)?;
        unreported += 1;
        if unreported == BATCH {
            progress.advance(unreported);
            unreported = 0;
        }
    }
    progress.advance(unreported);
    // Before anything is written: a bot's answers found out of step at its close void the
    // part.
    player.close_bots()?;

    // In the order of `Table::of_run`: the deals file last, so a part is complete exactly
    // when its deals file exists.
    let mut batches = Vec::with_capacity(4);
    if let Some(d) = tables.decisions.take() {
        batches.push((Table::Decisions, d.len(), d.finish(spec.variant.name())));
    }
    let variant = spec.variant.name();
    batches.push((Table::Wins, tables.wins.len(), tables.wins.finish(variant)));
    batches.push((Table::Tai, tables.tai.len(), tables.tai.finish(variant)));
    let deal_rows = tables.deals.len();
    let deals_batch = tables.deals.finish(spec.variant.name());
    batches.push((Table::Deals, deal_rows, deals_batch));
    let origin = spec.part_origin(p).to_json();
    let mut staged = Vec::with_capacity(4);
    let mut files = Vec::with_capacity(4);
    for (table, rows, batch) in &batches {
        let (table, rows) = (*table, *rows);
        let path = part::part_path(out, table, p);
        let bytes = part::encode(table, batch, &path, &origin)?;
        let record = part::record(table, p, rows, &bytes);
        if let Some((_, kept)) = keep.iter().find(|(t, _)| *t == table) {
            if *kept != record {
                for tmp in staged.iter().flatten() {
                    let _ = std::fs::remove_file(tmp);
                }
                return Err(HarnessError::Usage(format!(
                    "cannot resume: this taisim ({}) plays part {p} differently from the run's recorded {} (SHA-256 {}… recorded, {}… now): the run was made by another version; finish it with that version",
                    env!("CARGO_PKG_VERSION"),
                    kept.file,
                    kept.sha256.get(..12).unwrap_or(&kept.sha256),
                    &record.sha256[..12]
                )));
            }
            files.push(record);
            staged.push(None);
            continue;
        }
        files.push(record);
        match part::stage(out, table, p, &bytes) {
            Ok(tmp) => staged.push(Some(tmp)),
            Err(e) => {
                for tmp in staged.iter().flatten() {
                    let _ = std::fs::remove_file(tmp);
                }
                return Err(e);
            }
        }
    }
    for ((table, _, _), tmp) in batches.iter().zip(&staged) {
        if let Some(tmp) = tmp {
            part::commit(out, *table, p, tmp)?;
        }
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
