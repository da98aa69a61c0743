//! The search agent's review from Python: of a decision being played in an environment
//! (`Env.review`, `aec_env().review`), as arrays over the action space for learners, and the
//! name of the reviewing search that `taisim.review` shares.

use std::sync::Arc;

use numpy::ndarray::Array1;
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use taisim_agents::{action_index, AgentSpec, SearchSpec, ACTION_SPACE_SIZE};
use taisim_datasets::review::{reasons, reviewing_search};
use taisim_score::Variant;
use taisim_sim::{Deal, Seat};

use super::errors;

/// The reviewing search `search` names (plain `search` when `None`): a name of no agent is an
/// `AgentError`, another agent's name a `UsageError`.
pub(super) fn reviewing_spec(search: Option<&str>) -> PyResult<SearchSpec> {
    match search {
        None => Ok(SearchSpec::DEFAULT),
        Some(name) => reviewing_search(name.parse::<AgentSpec>().map_err(errors::agent)?)
            .map_err(errors::usage),
    }
}

/// The reviewing search's reasons at the decision `seat` faces in `deal`, as a dict of the
/// action space: `search`, `budget` and `default_by` name the reviewing agent; `step` is the
/// decision's number in the deal (from 1); `search_plays`, `best`, `default` and `greedy` are
/// action indices (`best` and `default` `None` for a win taken unsearched); `determinizations`;
/// and `rollouts` (`int64`), `mean`, `std_error`, `advantage` and `advantage_error`
/// (`float64`), each an array of `ACTION_SPACE_SIZE` entries indexed by action, 0 and NaN
/// where the action is not legal or was not estimated. A seat with a single legal action has
/// nothing to review: every array is empty of estimates, and `search_plays` is that action.
/// The searches run with the GIL released.
pub(super) fn reasons_dict<'py>(
    py: Python<'py>,
    variant: &Arc<Variant>,
    deal: &Deal,
    seat: Seat,
    search: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let spec = reviewing_spec(search)?;
    if deal.to_act() != Some(seat) {
        return Err(errors::usage(format!(
            "no decision of seat {seat} to review: it is not the seat to act"
        )));
    }
    let offer = deal.tile_on_offer();
    let index = |a| {
        action_index(a, offer).ok_or_else(|| {
            errors::bug(format!(
                "the legal action {a} has no index in the action space"
            ))
        })
    };
    let r = py.allow_threads(|| reasons(variant, deal, seat, spec));
    let d = PyDict::new(py);
    d.set_item("search", AgentSpec::Search(spec).to_string())?;
    d.set_item("budget", spec.determinizations)?;
    d.set_item("default_by", spec.config().own.name())?;
    d.set_item("seat", seat.to_string())?;
    d.set_item("step", deal.steps() + 1)?;
    let mut rollouts = Array1::<i64>::zeros(ACTION_SPACE_SIZE);
    let nan = || Array1::<f64>::from_elem(ACTION_SPACE_SIZE, f64::NAN);
    let (mut mean, mut std_error, mut advantage, mut advantage_error) =
        (nan(), nan(), nan(), nan());
    match r {
        Some(r) => {
            d.set_item("search_plays", index(r.search_plays)?)?;
            d.set_item("best", r.best.map(index).transpose()?)?;
            d.set_item("default", r.default.map(index).transpose()?)?;
            d.set_item("greedy", index(r.greedy)?)?;
            d.set_item("determinizations", r.determinizations)?;
            for e in &r.estimates {
                let i = index(e.action)?;
                rollouts[i] = i64::from(e.rollouts);
                mean[i] = e.mean;
                std_error[i] = e.std_error;
                advantage[i] = e.advantage;
                advantage_error[i] = e.advantage_error;
            }
        }
        None => {
            // One legal action: the search plays it, as every agent does.
            let mut legal = taisim_sim::ActionList::new();
            deal.legal_actions(&mut legal);
            let only = index(legal[0])?;
            for key in ["search_plays", "greedy"] {
                d.set_item(key, only)?;
            }
            d.set_item("best", py.None())?;
            d.set_item("default", py.None())?;
            d.set_item("determinizations", 0)?;
        }
    }
    d.set_item("rollouts", rollouts.into_pyarray(py))?;
    d.set_item("mean", mean.into_pyarray(py))?;
    d.set_item("std_error", std_error.into_pyarray(py))?;
    d.set_item("advantage", advantage.into_pyarray(py))?;
    d.set_item("advantage_error", advantage_error.into_pyarray(py))?;
    Ok(d)
}
