//! The harness from Python: `taisim.simulate` (seeded self-play into Parquet, as `taisim
//! simulate`), `taisim.arena` (the duplicate arena, as `taisim arena --json`) and the run's
//! readers, all the library's own, the GIL released while they run. The long ones answer
//! Ctrl-C: `simulate` stops between deals, the parts complete so far kept for `resume=True`;
//! `arena` and `review` at once (a search side stops its decision, the tables under way end
//! in moments); each then raises `KeyboardInterrupt`.

use pyo3::prelude::*;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use pyo3::types::{PyBytes, PyString};
use taisim_agents::Policy;
use taisim_datasets::{Arena, Contender, ProgressMode, RunOptions, RunRequest};
use taisim_score::Variant;

use super::errors;
use super::interrupt::interruptible;

/// `taisim.simulate(...)`: plays a run into a Parquet dataset (the arguments of `taisim
/// simulate`) and returns the output directory. The GIL is released while it runs.
#[pyfunction]
#[pyo3(signature = (
    out = None, *, variant = None, deals = None, games = None, seed = None, agents = None,
    threads = None, part_size = None, shard = None, log_actions = false, base = None,
    per_tai = None, resume = false, progress = false, decisions = None, bot_timeout = None,
    label_with = None
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
    bot_timeout: Option<f64>,
    label_with: Option<String>,
) -> PyResult<String> {
    super::config::bot_settings(bot_timeout)?; // checks it; the run's options carry the seconds
    let cancel = Arc::new(AtomicBool::new(false));
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
        bot_timeout,
        cancel: Some(Arc::clone(&cancel)),
    };
    let done = interruptible(py, &cancel, || {
        let spec = request.spec(&out, resume)?;
        taisim_datasets::simulate(&spec, &out, &options)
    })?;
    let summary = done.map_err(errors::harness)?;
    // What `taisim simulate` says on stderr reaches Python as warnings: parts played again,
    // the run's notes (a resume that could not check how its parts were played, fewer
    // threads than asked), and files that belong to no part of the run.
    let category = py.get_type::<pyo3::exceptions::PyUserWarning>();
    for message in summary.messages() {
        let message = std::ffi::CString::new(message.replace('\0', "\\0")).unwrap_or_default();
        PyErr::warn(py, &category, &message, 1)?;
    }
    Ok(summary.out.display().to_string())
}

/// `taisim.arena(candidate, baseline, deals, seed, variant, threads)`: the duplicate arena of
/// `taisim arena`, its report as the JSON `taisim arena --json` prints (the Python wrapper
/// reads it into a dict). Each side is an agent's name (`str`) or a policy file's bytes
/// (`bytes`, as `taisim.export_policy_bytes` gives them). The GIL is released while the
/// walls are played; Ctrl-C stops the match (a search side's decision under way, then each
/// worker before its next table) and raises `KeyboardInterrupt`.
#[pyfunction]
#[pyo3(signature = (candidate, baseline, *, deals, seed = 0, variant = None, threads = None, bot_timeout = None, field = None))]
#[allow(clippy::too_many_arguments)]
pub(super) fn arena(
    py: Python<'_>,
    candidate: &Bound<'_, PyAny>,
    baseline: &Bound<'_, PyAny>,
    deals: u64,
    seed: u64,
    variant: Option<&str>,
    threads: Option<usize>,
    bot_timeout: Option<f64>,
    field: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let mut bots = super::config::bot_settings(bot_timeout)?;
    let variant = variant.unwrap_or(Variant::DEFAULT);
    bots.variant_sha256 = taisim_datasets::RunVariant::recorded_sha256(variant);
    let variant = Variant::by_name_or_path(variant).map_err(errors::variant)?;
    let (candidate, baseline) = (Side::of(candidate)?, Side::of(baseline)?);
    let field = field.map(Side::of).transpose()?;
    let mut duel = Arena::of(
        candidate.contender(),
        baseline.contender(),
        Arc::new(variant),
        &bots,
    )
    .map_err(errors::arena)?;
    if let Some(field) = &field {
        duel = duel
            .with_field(field.contender(), &bots)
            .map_err(errors::arena)?;
    }
    let cancel = Arc::new(AtomicBool::new(false));
    let duel = duel.cancelled_by(Arc::clone(&cancel));
    let run =
        interruptible(py, &cancel, || duel.play(deals, seed, threads))?.map_err(errors::arena)?;
    Ok(run.report.to_json())
}

/// One side of `arena` as Python gave it: a name, or a policy file's bytes, parsed.
enum Side<'py> {
    Name(String),
    Policy(Arc<Policy>, Bound<'py, PyBytes>),
}

impl<'py> Side<'py> {
    fn of(side: &Bound<'py, PyAny>) -> PyResult<Side<'py>> {
        if side.is_instance_of::<PyString>() {
            return Ok(Side::Name(side.extract()?));
        }
        let bytes = side.downcast::<PyBytes>().map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(format!(
                "an arena side is an agent name (str) or a policy file's bytes, not {}",
                side.get_type().name().map_or("?".into(), |n| n.to_string())
            ))
        })?;
        let policy = Policy::from_bytes(bytes.as_bytes()).map_err(errors::policy)?;
        Ok(Side::Policy(Arc::new(policy), bytes.clone()))
    }

    fn contender(&self) -> Contender<'_> {
        match self {
            Side::Name(name) => Contender::Named(name),
            Side::Policy(policy, bytes) => Contender::Policy {
                policy: Arc::clone(policy),
                bytes: bytes.as_bytes(),
            },
        }
    }
}

/// `taisim.compare(run_a, run_b)`: two runs of the same walls compared deal by deal, as
/// `taisim compare --json` prints it (the Python wrapper parses the text). Runs of other walls
/// raise `UsageError` (a `ValueError`); the GIL is released while the runs are read.
#[pyfunction]
#[pyo3(signature = (run_a, run_b, *, verify_checksums = true))]
pub(super) fn compare_json(
    py: Python<'_>,
    run_a: std::path::PathBuf,
    run_b: std::path::PathBuf,
    verify_checksums: bool,
) -> PyResult<String> {
    use taisim_datasets::{CompareError, CompareOptions, Comparison};
    let options = CompareOptions { verify_checksums };
    match py.allow_threads(|| Comparison::from_runs(&run_a, &run_b, &options)) {
        Ok(c) => Ok(c.to_json().to_string()),
        Err(CompareError::Run(e)) => Err(errors::harness(e)),
        Err(e @ CompareError::DifferentWalls { .. }) => Err(errors::usage(e)),
    }
}

/// `taisim.replay(run, deal_id)`: deal `deal_id` of a run as a deal log, as `taisim replay RUN
/// DEAL --json` prints it (one JSON object a line; the Python wrapper parses them): played back
/// from the run's action log, or by its agents again once the run's play fingerprint is
/// checked, and checked against the deals table. The GIL is released while it plays.
#[pyfunction]
pub(super) fn replay_jsonl(
    py: Python<'_>,
    run: std::path::PathBuf,
    deal_id: u64,
) -> PyResult<String> {
    py.allow_threads(|| taisim_datasets::deal_log(&run, deal_id))
        .map(|log| log.to_jsonl())
        .map_err(errors::harness)
}

/// `taisim.review(run, deal_id, seat, search=None)`: the search agent's review of one seat's
/// decisions in a deal of a run, as `taisim review --json` prints it. `search` names the
/// reviewing agent as agents are named (`search`, `search:N`, `search:N:SETTING=VALUE`;
/// plain `search` when `None`); a name of another agent is a `UsageError`. The GIL is released
/// while the searches run; Ctrl-C stops the search under way and raises `KeyboardInterrupt`.
#[pyfunction]
#[pyo3(signature = (run, deal_id, seat, *, search = None))]
pub(super) fn review_json(
    py: Python<'_>,
    run: std::path::PathBuf,
    deal_id: u64,
    seat: &str,
    search: Option<&str>,
) -> PyResult<String> {
    use taisim_datasets::review::review_cancellable;
    let seat = super::config::parse_seat(seat)?;
    let search = super::review::reviewing_spec(search)?;
    let cancel = Arc::new(AtomicBool::new(false));
    let reviewed = interruptible(py, &cancel, || {
        let log = taisim_datasets::deal_log(&run, deal_id)?;
        let r = review_cancellable(
            &log.variant,
            log.deal_id,
            &log.decisions,
            seat,
            search,
            &cancel,
        );
        // Only a raised signal sets the flag, and `interruptible` raises it in place of this.
        Ok(r.map(|r| r.to_json()))
    })?
    .map_err(errors::harness)?;
    reviewed.ok_or_else(|| pyo3::exceptions::PyKeyboardInterrupt::new_err("review interrupted"))
}
