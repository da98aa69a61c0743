//! What the environment classes share: a variant and its reward from Python's arguments,
//! seats and action indices checked, an info as a dict, a mask as numpy.

use std::sync::Arc;

use numpy::ndarray::Array1;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use taisim_score::{SettlementModel, Variant};
use taisim_sim::{Seat, Wind};

use super::errors::{self, IllegalActionError};
use crate::{EnvConfig, Info, RewardKind, ACTION_SPACE_SIZE};

pub(super) fn parse_seat(seat: &str) -> PyResult<Seat> {
    seat.chars()
        .next()
        .filter(|_| seat.len() == 1)
        .and_then(Wind::from_char)
        .ok_or_else(|| errors::usage(format!("seat {seat:?} is not one of E, S, W, N")))
}

/// A variant by name (or path) and the reward named `reward` under it, the points reward
/// settled with `base + tai × per_tai`.
///
/// Unset, `per_tai` is the variant's, and `base` the variant's 底 or, where that is 0 (every
/// shipped variant) and the losers pay the winner, one tai's worth: a 0-tai win (9% of
/// taiwan16's wins) then still earns a positive reward, which a learner needs to tell winning
/// from a draw. Stakes past the settlement's bounds are a `ValueError`.
pub(super) fn variant_and_reward(
    variant: &str,
    reward: &str,
    base: Option<i64>,
    per_tai: Option<i64>,
) -> PyResult<(Arc<Variant>, RewardKind)> {
    let variant = Variant::by_name_or_path(variant).map_err(errors::variant)?;
    for (name, value) in [("base", base), ("per_tai", per_tai)] {
        if let Some(v) = value.filter(|&v| v < 0) {
            return Err(errors::usage(format!(
                "{name} must not be negative, got {v}"
            )));
        }
    }
    let st = variant.settlement();
    let winner_pays = st.model == SettlementModel::WinnerPays;
    let per_tai = per_tai.unwrap_or(st.per_tai);
    let base = match base {
        Some(b) => b,
        None if st.base > 0 || !winner_pays => st.base,
        None => {
            // The base follows per_tai here: a per_tai out of bounds is named as itself,
            // not as the base the user never gave.
            taisim_score::check_stake_bounds(0, per_tai).map_err(errors::stakes)?;
            per_tai.max(1)
        }
    };
    let variant = variant.with_stakes(base, per_tai).map_err(errors::stakes)?;
    let reward = RewardKind::by_name(reward).map_err(errors::usage)?;
    Ok((Arc::new(variant), reward))
}

/// The single-agent environments' configuration (`Env`, `VecEnv`) from Python's arguments:
/// the learner's seat, its opponents (as `--agents` names them), the variant and its reward
/// ([`variant_and_reward`]), and how `exec:` opponents run ([`bot_settings`]).
pub(super) fn env_config(
    variant: &str,
    seat: &str,
    opponents: &str,
    reward: &str,
    base: Option<i64>,
    per_tai: Option<i64>,
    bot_timeout: Option<f64>,
) -> PyResult<EnvConfig> {
    let sha256 = taisim_datasets::RunVariant::recorded_sha256(variant);
    let (variant, reward) = variant_and_reward(variant, reward, base, per_tai)?;
    let mut config = EnvConfig::with_opponents(opponents).map_err(errors::agent)?;
    config.bots = bot_settings(bot_timeout)?;
    // Sent to `exec:` opponents with each deal, which check the rules they found by name.
    config.bots.variant_sha256 = sha256;
    config.variant = variant;
    config.seat = parse_seat(seat)?;
    config.reward = reward;
    Ok(config)
}

/// How `exec:` opponents run: `bot_timeout` seconds a decision (the default when `None`).
pub(super) fn bot_settings(bot_timeout: Option<f64>) -> PyResult<taisim_agents::ExecSettings> {
    match bot_timeout {
        None => Ok(taisim_agents::ExecSettings::default()),
        Some(s) => taisim_agents::ExecSettings::checked_timeout(s)
            .map_err(|why| errors::usage(format!("bot_timeout: {why}"))),
    }
}

/// An action index from Python: anything outside the action space is refused here, before
/// the environment, as out of range (not as an action that is merely illegal now).
pub(super) fn action_index(action: i64) -> PyResult<usize> {
    usize::try_from(action)
        .ok()
        .filter(|&a| a < ACTION_SPACE_SIZE)
        .ok_or_else(|| {
            IllegalActionError::new_err(format!(
                "action {action} is out of range: {}",
                crate::single::action_space_words()
            ))
        })
}

/// An action index given as any Python int (`action_name`, a bot's answer): one past `i64`
/// either way is out of range as surely as 144 is, and says so ([`action_index`]) rather
/// than as pyo3's bare `OverflowError`; a value that is no int stays a `TypeError`.
pub(super) fn action_arg(action: &Bound<'_, PyAny>) -> PyResult<usize> {
    match action.extract::<i64>() {
        Ok(a) => action_index(a),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(action.py()) => {
            Err(IllegalActionError::new_err(format!(
                "action {action} is out of range: {}",
                crate::single::action_space_words()
            )))
        }
        Err(e) => Err(e),
    }
}

pub(super) fn info_dict<'py>(py: Python<'py>, info: &Info) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("deal_seed", info.deal_seed)?;
    d.set_item("seat", info.seat.to_string())?;
    d.set_item("dealer", info.context.dealer.to_string())?;
    d.set_item("round_wind", info.context.round_wind.to_string())?;
    d.set_item("dealer_streak", info.context.streak)?;
    d.set_item("decisions", info.decisions)?;
    d.set_item("learner_steps", info.learner_steps)?;
    d.set_item("rewards", info.rewards.to_vec())?;
    d.set_item("wild", info.wild.map(|t| t.to_string()))?;
    if let Some(r) = &info.result {
        d.set_item("outcome", r.outcome.name())?;
        let winners: Vec<String> = r.winners.iter().map(|s| s.to_string()).collect();
        d.set_item("winners", winners)?;
        d.set_item("payer", r.payer.map(|s| s.to_string()))?;
        d.set_item("win_tile", r.win_tile.map(|t| t.to_string()))?;
    }
    Ok(d)
}

/// An observation tensor and its mask.
pub(super) type ObsMask<'py> = (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray1<i8>>);
/// `(obs, mask, info)`.
pub(super) type Reset<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<i8>>,
    Bound<'py, PyDict>,
);
/// `(obs, mask, reward, terminated, truncated, info)`.
pub(super) type StepOut<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<i8>>,
    f32,
    bool,
    bool,
    Bound<'py, PyDict>,
);

pub(super) fn mask_i8<'py>(py: Python<'py>, mask: &[u8]) -> Bound<'py, PyArray1<i8>> {
    Array1::from_iter(mask.iter().map(|&m| m as i8)).into_pyarray(py)
}
