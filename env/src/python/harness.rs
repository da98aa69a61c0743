//! The harness from Python: `taisim.simulate` (seeded self-play into Parquet, as `taisim
//! simulate`) and `taisim.arena` (the duplicate arena, as `taisim arena --json`), both the
//! library's own, the GIL released while they run.

use pyo3::prelude::*;
use taisim_datasets::{Arena, ProgressMode, RunOptions, RunRequest};

use super::errors;

/// `taisim.simulate(...)`: plays a run into a Parquet dataset (the arguments of `taisim
/// simulate`) and returns the output directory. The GIL is released while it runs.
#[pyfunction]
#[pyo3(signature = (
    out = None, *, variant = None, deals = None, games = None, seed = None, agents = None,
    threads = None, part_size = None, shard = None, log_actions = false, base = None,
    per_tai = None, resume = false, progress = false, decisions = None, label_with = None
))]
#[allow(clippy::too_many_arguments)]
pub(super) fn simulate(
    py: Python<'_>,
    out: Option<std::path::PathBuf>,
    variant: Option<String>,
    deals: Option<u64>,
    games: Option<u64>,
    seed: Option<u64>,
    agents: Option<String>,
    threads: Option<usize>,
    part_size: Option<u64>,
    shard: Option<String>,
    log_actions: bool,
    base: Option<i64>,
    per_tai: Option<i64>,
    resume: bool,
    progress: bool,
    decisions: Option<String>,
    label_with: Option<String>,
) -> PyResult<String> {
    let shard = shard
        .map(|s| s.parse::<taisim_datasets::Shard>())
        .transpose()
        .map_err(errors::usage)?;
    let decisions = decisions
        .map(|s| s.parse::<taisim_datasets::DecisionSeats>())
        .transpose()
        .map_err(errors::usage)?;
    if resume && out.is_none() {
        return Err(errors::usage(
            "resume=True needs out: the run directory to continue",
        ));
    }
    let out = out.unwrap_or_else(taisim_datasets::default_out_dir);
    let request = RunRequest {
        variant,
        deals,
        games,
        seed,
        agents,
        part_size,
        shard,
        log_actions,
        base,
        per_tai,
        decisions,
        label_with,
    };
    let options = RunOptions {
        threads,
        resume,
        progress: if progress {
            ProgressMode::Auto
        } else {
            ProgressMode::Quiet
        },
        command: vec!["taisim.simulate (Python)".to_string()],
    };
    let done = py.allow_threads(|| {
        let spec = request.spec(&out, resume)?;
        taisim_datasets::simulate(&spec, &out, &options)
    });
    done.map(|summary| summary.out.display().to_string())
        .map_err(errors::harness)
}

/// `taisim.arena(candidate, baseline, deals, seed, variant, threads)`: the duplicate arena of
/// `taisim arena`, its report as the JSON `taisim arena --json` prints (the Python wrapper
/// reads it into a dict). The GIL is released while the walls are played.
#[pyfunction]
#[pyo3(signature = (candidate, baseline, *, deals, seed = 0, variant = None, threads = None))]
pub(super) fn arena(
    py: Python<'_>,
    candidate: &str,
    baseline: &str,
    deals: u64,
    seed: u64,
    variant: Option<&str>,
    threads: Option<usize>,
) -> PyResult<String> {
    let variant = variant.unwrap_or(taisim_score::Variant::DEFAULT);
    let duel = Arena::new(candidate, baseline, variant).map_err(errors::arena)?;
    let run = py
        .allow_threads(|| duel.play(deals, seed, threads))
        .map_err(errors::arena)?;
    Ok(run.report.to_json())
}
