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
use taisim_agents::search::ActionEstimate;
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
    /// The review's search of every action.
    every_action: Estimates,
    /// The estimates `search_plays` was chosen on (`decided_*`).
    decided: Estimates,
}

/// Estimates indexed by action: 0 rollouts and NaN where an action is not legal or was not
/// estimated.
struct Estimates {
    rollouts: [i64; ACTION_SPACE_SIZE],
    mean: [f64; ACTION_SPACE_SIZE],
    std_error: [f64; ACTION_SPACE_SIZE],
    advantage: [f64; ACTION_SPACE_SIZE],
    advantage_error: [f64; ACTION_SPACE_SIZE],
}

impl Estimates {
    const NONE: Estimates = Estimates {
        rollouts: [0; ACTION_SPACE_SIZE],
        mean: [f64::NAN; ACTION_SPACE_SIZE],
        std_error: [f64::NAN; ACTION_SPACE_SIZE],
        advantage: [f64::NAN; ACTION_SPACE_SIZE],
        advantage_error: [f64::NAN; ACTION_SPACE_SIZE],
    };

    fn set(&mut self, i: usize, e: &ActionEstimate) {
        self.rollouts[i] = i64::from(e.rollouts);
        self.mean[i] = e.mean;
        self.std_error[i] = e.std_error;
        self.advantage[i] = e.advantage;
        self.advantage_error[i] = e.advantage_error;
    }

    /// The five arrays under their names, each after `prefix`; `rows` the estimates of each
    /// row of a batch (its first axis), or of the one decision (`batch` false: one row, no
    /// batch axis).
    fn set_items(
        d: &Bound<'_, PyDict>,
        prefix: &str,
        rows: &[&Estimates],
        batch: bool,
    ) -> PyResult<()> {
        fn put<T: numpy::Element + Copy>(
            d: &Bound<'_, PyDict>,
            key: String,
            rows: &[&Estimates],
            batch: bool,
            f: impl Fn(&Estimates, usize) -> T,
        ) -> PyResult<()> {
            let a = Array2::from_shape_fn((rows.len(), ACTION_SPACE_SIZE), |(i, a)| f(rows[i], a));
            if batch {
                d.set_item(key, a.into_pyarray(d.py()))
            } else {
                d.set_item(key, a.row(0).to_owned().into_pyarray(d.py()))
            }
        }
        put(d, format!("{prefix}rollouts"), rows, batch, |e, a| {
            e.rollouts[a]
        })?;
        put(d, format!("{prefix}mean"), rows, batch, |e, a| e.mean[a])?;
        put(d, format!("{prefix}std_error"), rows, batch, |e, a| {
            e.std_error[a]
        })?;
        put(d, format!("{prefix}advantage"), rows, batch, |e, a| {
            e.advantage[a]
        })?;
        put(
            d,
            format!("{prefix}advantage_error"),
            rows,
            batch,
            |e, a| e.advantage_error[a],
        )
    }
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
        every_action: Estimates::NONE,
        decided: Estimates::NONE,
    };
    match reasons_cancellable(variant, deal, seat, spec, cancel) {
        Some(r) => {
            row.search_plays = index(r.search_plays)?;
            row.best = r.best.map(index).transpose()?;
            row.default = r.default.map(index).transpose()?;
            row.greedy = index(r.greedy)?;
            row.determinizations = r.determinizations;
            for e in &r.estimates {
                row.every_action.set(index(e.action)?, e);
            }
            for e in &r.decided_on {
                row.decided.set(index(e.action)?, e);
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
    Estimates::set_items(&d, "", &[&r.every_action], false)?;
    Estimates::set_items(&d, "decided_", &[&r.decided], false)?;
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
    let column = |f: &dyn Fn(&Row) -> i64| Array1::from_iter(rows.iter().map(|(r, _)| f(r)));
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
    let every: Vec<&Estimates> = rows.iter().map(|(r, _)| &r.every_action).collect();
    let decided: Vec<&Estimates> = rows.iter().map(|(r, _)| &r.decided).collect();
    Estimates::set_items(&d, "", &every, true)?;
    Estimates::set_items(&d, "decided_", &decided, true)?;
    Ok(d)
}
