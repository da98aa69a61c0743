//! The search agent's review from Python: of the decision being played in an environment
//! (`Env.review`, the AEC env's `review`, and `VecEnv.review` for a whole batch), as arrays
//! over the action space for learners; and the name of the reviewing search, which
//! `taisim.review` shares.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use numpy::ndarray::{Array1, Array2};
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use taisim_agents::{action_index, AgentSpec, SearchSpec, ACTION_SPACE_SIZE};
use taisim_datasets::review::{reasons_cancellable, reviewing_search};
use taisim_score::Variant;
use taisim_sim::{ActionList, Deal, Seat};

use super::errors;
use super::interrupt::interruptible;

/// The reviewing search `search` names (plain `search` when `None`): a name of no agent is an
/// `AgentError`, another agent's name a `UsageError`.
pub(super) fn reviewing_spec(search: Option<&str>) -> PyResult<SearchSpec> {
    match search {
        None => Ok(SearchSpec::DEFAULT),
        Some(name) => reviewing_search(name.parse::<AgentSpec>().map_err(errors::agent)?)
            .map_err(errors::usage),
    }
}

/// One decision's review as rows of the action space.
struct Row {
    search_plays: usize,
    best: Option<usize>,
    default: Option<usize>,
    greedy: usize,
    determinizations: u32,
    rollouts: [i64; ACTION_SPACE_SIZE],
    mean: [f64; ACTION_SPACE_SIZE],
    std_error: [f64; ACTION_SPACE_SIZE],
    advantage: [f64; ACTION_SPACE_SIZE],
    advantage_error: [f64; ACTION_SPACE_SIZE],
}

/// Why a decision could not be reviewed.
enum Refusal {
    /// The seat is not the one to act (the caller's mistake).
    NotToAct(Seat),
    /// A legal action without an index in the action space (a bug in taisim).
    NoIndex(taisim_sim::Action),
}

impl Refusal {
    fn into_err(self) -> PyErr {
        match self {
            Refusal::NotToAct(seat) => errors::usage(format!(
                "no decision of seat {seat} to review: it is not the seat to act"
            )),
            Refusal::NoIndex(a) => errors::bug(format!(
                "the legal action {a} has no index in the action space"
            )),
        }
    }
}

/// The review of the decision `seat` faces in `deal`, its search stopped once `cancel` is
/// set (its figures then partial, for a caller that raises instead). A seat with a single
/// legal action has nothing to review: no estimate, and `search_plays`, `default` and
/// `greedy` are that action.
fn row(
    variant: &Arc<Variant>,
    deal: &Deal,
    seat: Seat,
    spec: SearchSpec,
    cancel: &Arc<AtomicBool>,
) -> Result<Row, Refusal> {
    if deal.to_act() != Some(seat) {
        return Err(Refusal::NotToAct(seat));
    }
    let offer = deal.tile_on_offer();
    let index = |a| action_index(a, offer).ok_or(Refusal::NoIndex(a));
    let mut row = Row {
        search_plays: 0,
        best: None,
        default: None,
        greedy: 0,
        determinizations: 0,
        rollouts: [0; ACTION_SPACE_SIZE],
        mean: [f64::NAN; ACTION_SPACE_SIZE],
        std_error: [f64::NAN; ACTION_SPACE_SIZE],
        advantage: [f64::NAN; ACTION_SPACE_SIZE],
        advantage_error: [f64::NAN; ACTION_SPACE_SIZE],
    };
    match reasons_cancellable(variant, deal, seat, spec, cancel) {
        Some(r) => {
            row.search_plays = index(r.search_plays)?;
            row.best = r.best.map(index).transpose()?;
            row.default = r.default.map(index).transpose()?;
            row.greedy = index(r.greedy)?;
            row.determinizations = r.determinizations;
            for e in &r.estimates {
                let i = index(e.action)?;
                row.rollouts[i] = i64::from(e.rollouts);
                row.mean[i] = e.mean;
                row.std_error[i] = e.std_error;
                row.advantage[i] = e.advantage;
                row.advantage_error[i] = e.advantage_error;
            }
        }
        None => {
            let mut legal = ActionList::new();
            deal.legal_actions(&mut legal);
            row.search_plays = index(legal[0])?;
            row.default = Some(row.search_plays);
            row.greedy = row.search_plays;
        }
    }
    Ok(row)
}

/// What names the reviewing search in both forms of the review.
fn name_items(d: &Bound<'_, PyDict>, spec: SearchSpec) -> PyResult<()> {
    d.set_item("search", AgentSpec::Search(spec).to_string())?;
    d.set_item("budget", spec.determinizations)?;
    d.set_item("default_by", spec.config().own.name())
}

/// The reviewing search's reasons at the decision `seat` faces in `deal`, as a dict of the
/// action space: `search`, `budget` and `default_by` name the reviewing agent; `seat`, and
/// `step`, the decision's number in the deal (from 1); `search_plays`, `best`, `default` and
/// `greedy` as action indices (`best` `None` when nothing was searched: a single legal
/// action, or a flower robbed before the first turn, taken unsearched);
/// `determinizations`; and `rollouts` (`int64`), `mean`, `std_error`, `advantage` and
/// `advantage_error` (`float64`), each an array of `ACTION_SPACE_SIZE` entries indexed by
/// action, 0 and NaN where the action is not legal or was not estimated. The search runs with
/// the GIL released; Ctrl-C stops it and raises `KeyboardInterrupt`.
pub(super) fn reasons_dict<'py>(
    py: Python<'py>,
    variant: &Arc<Variant>,
    deal: &Deal,
    seat: Seat,
    search: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let spec = reviewing_spec(search)?;
    let cancel = Arc::new(AtomicBool::new(false));
    let r = interruptible(py, &cancel, || row(variant, deal, seat, spec, &cancel))?
        .map_err(Refusal::into_err)?;
    let d = PyDict::new(py);
    name_items(&d, spec)?;
    d.set_item("seat", seat.to_string())?;
    d.set_item("step", deal.steps() + 1)?;
    d.set_item("search_plays", r.search_plays)?;
    d.set_item("best", r.best)?;
    d.set_item("default", r.default)?;
    d.set_item("greedy", r.greedy)?;
    d.set_item("determinizations", r.determinizations)?;
    d.set_item("rollouts", r.rollouts.to_vec().into_pyarray(py))?;
    d.set_item("mean", r.mean.to_vec().into_pyarray(py))?;
    d.set_item("std_error", r.std_error.to_vec().into_pyarray(py))?;
    d.set_item("advantage", r.advantage.to_vec().into_pyarray(py))?;
    d.set_item(
        "advantage_error",
        r.advantage_error.to_vec().into_pyarray(py),
    )?;
    Ok(d)
}

/// [`reasons_dict`] of every environment of a batch at once, its learner's decision in each,
/// on the batch's threads with the GIL released: the same keys, each value with the batch as
/// its first axis (`(N,)` and `(N, ACTION_SPACE_SIZE)`; `seat` one string, `step` an array),
/// and `best` -1 where nothing was searched. Ctrl-C stops the searches under way, reviews no
/// further environment and raises `KeyboardInterrupt`; the batch is as it was.
pub(super) fn batch_dict<'py>(
    py: Python<'py>,
    envs: &crate::VecEnv,
    search: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let spec = reviewing_spec(search)?;
    let (seat, variant) = (envs.seat(), envs.variant());
    let cancel = Arc::new(AtomicBool::new(false));
    // Once Ctrl-C set the flag, no further deal is reviewed (`None`) and the searches under
    // way stop; the call then raises, so every row kept was reviewed whole.
    let rows = interruptible(py, &cancel, || {
        envs.map_deals(|deal| {
            (!cancel.load(Ordering::Relaxed))
                .then(|| row(variant, deal, seat, spec, &cancel).map(|r| (r, deal.steps() + 1)))
        })
    })?;
    let rows: Result<Vec<(Row, u16)>, Refusal> = rows.into_iter().flatten().collect();
    // Every environment of a started batch waits on its learner's decision, so a refusal
    // here is a bug in taisim, not the caller's mistake.
    let rows = rows.map_err(|e| match e {
        Refusal::NotToAct(seat) => errors::bug(format!(
            "an environment of the batch waits on another seat than its learner, {seat}"
        )),
        e => e.into_err(),
    })?;
    let n = rows.len();
    let column = |f: &dyn Fn(&Row) -> i64| Array1::from_iter(rows.iter().map(|(r, _)| f(r)));
    let matrix = |f: &dyn Fn(&Row) -> &[f64; ACTION_SPACE_SIZE]| {
        Array2::from_shape_fn((n, ACTION_SPACE_SIZE), |(i, a)| f(&rows[i].0)[a])
    };
    let none = |x: Option<usize>| x.map_or(-1, |i| i as i64);
    let d = PyDict::new(py);
    name_items(&d, spec)?;
    d.set_item("seat", seat.to_string())?;
    d.set_item(
        "step",
        Array1::from_iter(rows.iter().map(|&(_, s)| i64::from(s))).into_pyarray(py),
    )?;
    d.set_item(
        "search_plays",
        column(&|r| r.search_plays as i64).into_pyarray(py),
    )?;
    d.set_item("best", column(&|r| none(r.best)).into_pyarray(py))?;
    d.set_item("default", column(&|r| none(r.default)).into_pyarray(py))?;
    d.set_item("greedy", column(&|r| r.greedy as i64).into_pyarray(py))?;
    d.set_item(
        "determinizations",
        column(&|r| i64::from(r.determinizations)).into_pyarray(py),
    )?;
    d.set_item(
        "rollouts",
        Array2::from_shape_fn((n, ACTION_SPACE_SIZE), |(i, a)| rows[i].0.rollouts[a])
            .into_pyarray(py),
    )?;
    d.set_item("mean", matrix(&|r| &r.mean).into_pyarray(py))?;
    d.set_item("std_error", matrix(&|r| &r.std_error).into_pyarray(py))?;
    d.set_item("advantage", matrix(&|r| &r.advantage).into_pyarray(py))?;
    d.set_item(
        "advantage_error",
        matrix(&|r| &r.advantage_error).into_pyarray(py),
    )?;
    Ok(d)
}
