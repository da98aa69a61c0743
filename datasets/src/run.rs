//! A run: check the output directory, play the shard's missing parts in parallel, write the
//! manifest.

use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;
use taisim_agents::{build_agents, BuiltinAgent};
use taisim_sim::score::Variant;

use crate::error::HarnessError;
use crate::manifest::{Manifest, Rows, Status, VARIANT_FILE};
use crate::part::{self, PartRecord, Table};
use crate::play::{PartTables, Player};
use crate::progress::{Progress, ProgressMode};
use crate::spec::{RunSpec, Unit, VariantSource};

/// How to run, beyond what decides the rows.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Worker threads; `None` for every core.
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
}

/// The spec a resumed run must continue: the one its manifest recorded.
pub fn resume_spec(out: &Path, shard: crate::spec::Shard) -> Result<RunSpec, HarnessError> {
    let path = Manifest::path(out, shard);
    if !path.is_file() {
        return Err(HarnessError::Usage(format!(
            "--resume: {} has no {}; is it the output directory of a taisim run{}?",
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

/// Plays the run `spec` describes into `out`.
pub fn simulate(
    spec: &RunSpec,
    out: &Path,
    options: &RunOptions,
) -> Result<RunSummary, HarnessError> {
    spec.validate()?;
    let (_, variant) =
        VariantSource::from_text(spec.variant.text.clone(), spec.variant.origin.clone())?;
    let agents = build_agents(&spec.agents).map_err(|e| HarnessError::Usage(e.to_string()))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads.unwrap_or(0))
        .build()
        .map_err(|e| HarnessError::Usage(format!("cannot start worker threads: {e}")))?;

    let mut manifest = if options.resume {
        let path = Manifest::path(out, spec.shard);
        let mut m = Manifest::read(&path)?;
        // The manifest keeps the variant's hash, not its text.
        let mut recorded = m.spec.clone();
        recorded.variant.text.clone_from(&spec.variant.text);
        if recorded != *spec {
            return Err(HarnessError::Usage(format!(
                "--resume: the arguments differ from the run in {} ({})",
                out.display(),
                spec_difference(&m.spec, spec)
            )));
        }
        m.command = options.command.clone();
        m
    } else {
        prepare_fresh(out, spec)?;
        let m = Manifest::new(spec, options.command.clone());
        m.write(out).map_err(unwritable(out))?;
        m
    };

    // A part is complete when its deals file is in place (it is renamed last); anything else
    // of an incomplete part is stale and goes.
    let mut done = Vec::new();
    let mut pending = Vec::new();
    for p in spec.shard_parts() {
        if part::part_path(out, Table::Deals, p).is_file() {
            done.push(p);
        } else {
            part::remove_part(out, p)?;
            pending.push(p);
        }
    }
    let shard_units: u64 = spec
        .shard_parts()
        .map(|p| {
            let (a, b) = spec.part_units(p);
            b - a
        })
        .sum();
    let done_units: u64 = done
        .iter()
        .map(|&p| {
            let (a, b) = spec.part_units(p);
            b - a
        })
        .sum();

    taisim_sim::algo::warm_up();
    let progress = Progress::new(options.progress, shard_units, done_units, spec.unit.name());
    let start = Instant::now();
    let played: Result<Vec<(PartRecord, u64)>, HarnessError> = pool.install(|| {
        pending
            .par_iter()
            .map(|&p| play_part(spec, &variant, &agents, out, p, &progress))
            .collect()
    });
    progress.finish();
    let seconds = start.elapsed().as_secs_f64();
    let played = played?;

    let mut records: Vec<PartRecord> = Vec::with_capacity(done.len() + played.len());
    for &p in &done {
        records.push(inspect_part(spec, out, p)?);
    }
    let deals_played = played.iter().map(|(_, d)| d).sum();
    let parts_played = played.len() as u64;
    records.extend(played.into_iter().map(|(r, _)| r));
    records.sort_by_key(|r| r.index);
    manifest.rows = Rows {
        deals: records.iter().map(|r| r.deals.rows).sum(),
        wins: records.iter().map(|r| r.wins.rows).sum(),
        tai: records.iter().map(|r| r.tai.rows).sum(),
    };
    manifest.parts = records;
    manifest.status = Status::Complete;
    manifest.elapsed_seconds = seconds;
    manifest.threads = pool.current_num_threads();
    manifest.write(out)?;
    Ok(RunSummary {
        out: out.to_path_buf(),
        manifest,
        parts_played,
        deals_played,
        seconds,
        threads: pool.current_num_threads(),
    })
}

/// The first field two specs disagree on, for the error message.
fn spec_difference(recorded: &RunSpec, asked: &RunSpec) -> String {
    let fields: [(&str, String, String); 9] = [
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

/// Creates the run directory, or checks that an existing one may take this run: empty, or
/// (for a shard) holding only other shards of the same run.
fn prepare_fresh(out: &Path, spec: &RunSpec) -> Result<(), HarnessError> {
    if out.exists() && !out.is_dir() {
        return Err(HarnessError::Usage(format!(
            "--out {} exists and is not a directory",
            out.display()
        )));
    }
    if out.is_dir() {
        let entries: Vec<String> = std::fs::read_dir(out)
            .map_err(|e| dir_error("read", out, e))?
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        if !entries.is_empty() {
            let own = Manifest::file_name(spec.shard);
            let sibling_shards = !spec.shard.is_whole()
                && !entries.contains(&own)
                && entries.iter().all(|n| {
                    // What the report and the analysis script write beside a run.
                    [VARIANT_FILE, "deals", "wins", "tai", "report.md", "plots"]
                        .contains(&n.as_str())
                        || (Manifest::is_manifest_name(n) && n != "manifest.json")
                        || n.starts_with('.')
                });
            if !sibling_shards {
                return Err(HarnessError::Usage(format!(
                    "the output directory {} is not empty; pass --resume to continue the run in it, or choose another --out",
                    out.display()
                )));
            }
            for other in Manifest::read_all(out)? {
                let mut theirs = other.spec.clone();
                theirs.shard = spec.shard;
                theirs.variant.text = spec.variant.text.clone();
                if theirs != *spec {
                    return Err(HarnessError::Usage(format!(
                        "{} holds shard {} of a different run ({}); shards share a directory only when everything but --shard is the same",
                        out.display(),
                        other.spec.shard,
                        spec_difference(&other.spec, spec)
                    )));
                }
            }
        }
    }
    let mk = |dir: &Path| std::fs::create_dir_all(dir).map_err(|e| dir_error("create", dir, e));
    mk(out)?;
    for table in Table::ALL {
        mk(&out.join(table.dir()))?;
    }
    let variant_path = out.join(VARIANT_FILE);
    match std::fs::read_to_string(&variant_path) {
        Ok(existing) if existing == spec.variant.text => Ok(()),
        Ok(_) => Err(HarnessError::Usage(format!(
            "{} holds a different {VARIANT_FILE}",
            out.display()
        ))),
        Err(_) => std::fs::write(&variant_path, &spec.variant.text)
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
    let mut tables = PartTables::new(spec.log_actions, capacity);
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

    let rows = [tables.wins.len(), tables.tai.len(), tables.deals.len()];
    let batches = [
        tables.wins.finish(),
        tables.tai.finish(),
        tables.deals.finish(&spec.variant.name),
    ];
    let mut staged = Vec::with_capacity(3);
    let mut files = Vec::with_capacity(3);
    for ((table, batch), rows) in Table::ALL.into_iter().zip(&batches).zip(rows) {
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
    for (table, tmp) in Table::ALL.into_iter().zip(&staged) {
        part::commit(out, table, p, tmp)?;
    }
    let [wins, tai, deals_file]: [part::FileRecord; 3] = files
        .try_into()
        .unwrap_or_else(|_| unreachable!("three tables"));
    Ok((
        PartRecord {
            index: p,
            units: [first, end],
            deals: deals_file,
            wins,
            tai,
        },
        deals,
    ))
}

/// The record of a part written by an earlier invocation.
fn inspect_part(spec: &RunSpec, out: &Path, p: u64) -> Result<PartRecord, HarnessError> {
    let (first, end) = spec.part_units(p);
    Ok(PartRecord {
        index: p,
        units: [first, end],
        deals: part::inspect(out, Table::Deals, p)?,
        wins: part::inspect(out, Table::Wins, p)?,
        tai: part::inspect(out, Table::Tai, p)?,
    })
}
