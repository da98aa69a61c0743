//! `NativeAec`: all four seats, turn by turn (the PettingZoo AEC environment).

use numpy::ndarray::Array2;
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::config::{action_index, mask_i8, parse_seat, variant_and_reward, ObsMask};
use super::errors;
use super::render::render_deal;
use crate::{AecConfig, AecEnv, ACTION_SPACE_SIZE, OBS_CHANNELS, OBS_WIDTH};

/// All four seats, turn by turn (PettingZoo AEC).
#[pyclass(name = "NativeAec", module = "taisim._native")]
pub(super) struct PyAec {
    env: AecEnv,
    /// Whether `reset` has dealt a deal: before it the engine holds a placeholder, which no
    /// observation, review or rendering may show.
    dealt: bool,
}

impl PyAec {
    fn dealt(&self) -> PyResult<()> {
        if self.dealt {
            Ok(())
        } else {
            Err(errors::not_dealt())
        }
    }
}

#[pymethods]
impl PyAec {
    #[new]
    #[pyo3(signature = (variant = "taiwan16", reward = "points", base = None, per_tai = None))]
    fn new(variant: &str, reward: &str, base: Option<i64>, per_tai: Option<i64>) -> PyResult<Self> {
        let (variant, reward) = variant_and_reward(variant, reward, base, per_tai)?;
        let config = AecConfig {
            variant,
            reward,
            ..AecConfig::default()
        };
        Ok(PyAec {
            env: AecEnv::new(config).map_err(errors::env)?,
            dealt: false,
        })
    }

    /// An independent copy of the engine (the deal and every seat's state): it goes on as
    /// the original would.
    fn copy(&self) -> PyAec {
        PyAec {
            env: self.env.clone(),
            dealt: self.dealt,
        }
    }

    fn reset(&mut self, seed: u64) {
        self.env.reset(seed);
        self.dealt = true;
    }

    /// The next deal of the last reset's seed stream.
    fn reset_next(&mut self) {
        self.env.reset_next();
        self.dealt = true;
    }

    /// The seats still in the game, in order E S W N.
    fn agents(&self) -> Vec<String> {
        self.env.agents().iter().map(|s| s.to_string()).collect()
    }

    fn agent_selection(&self) -> Option<String> {
        self.env.agent_selection().map(|s| s.to_string())
    }

    fn rewards(&self) -> Vec<f32> {
        self.env.rewards().to_vec()
    }

    fn cumulative_rewards(&self) -> Vec<f32> {
        self.env.cumulative_rewards().to_vec()
    }

    fn terminations(&self) -> Vec<bool> {
        self.env.terminations().to_vec()
    }

    fn truncations(&self) -> Vec<bool> {
        self.env.truncations().to_vec()
    }

    /// `(obs, mask)` of a seat; the mask is all zeros unless the seat is to decide.
    fn observe<'py>(&self, py: Python<'py>, seat: &str) -> PyResult<ObsMask<'py>> {
        let seat = parse_seat(seat)?;
        self.dealt()?;
        let mut obs = Array2::<f32>::zeros((OBS_CHANNELS, OBS_WIDTH));
        let mut mask = [0u8; ACTION_SPACE_SIZE];
        self.env
            .observe(seat, obs.view_mut(), &mut mask)
            .map_err(errors::env)?;
        Ok((obs.into_pyarray(py), mask_i8(py, &mask)))
    }

    /// Steps the selected agent: an action index, or `None` for a terminated agent.
    #[pyo3(signature = (action = None))]
    fn step(&mut self, action: Option<i64>) -> PyResult<()> {
        let action = action.map(action_index).transpose()?;
        self.env.step(action).map_err(errors::env)
    }

    /// The search agent's reasons at the decision of the seat to act now (see
    /// `review::reasons_dict`); `search` names the reviewing search (plain `search` when
    /// `None`).
    #[pyo3(signature = (search = None))]
    fn review<'py>(&self, py: Python<'py>, search: Option<&str>) -> PyResult<Bound<'py, PyDict>> {
        self.dealt()?;
        let seat = self.env.deal().to_act().ok_or_else(|| {
            errors::usage("no decision to review: the deal is over, or not yet dealt (call reset)")
        })?;
        super::review::reasons_dict(py, self.env.variant(), self.env.deal(), seat, search)
    }

    /// The table as text (`render_mode="ansi"`); the seat to act is marked `>`.
    fn render(&self) -> PyResult<String> {
        self.dealt()?;
        Ok(render_deal(self.env.deal(), None))
    }

    /// The deal's wild kind (taizhou's 得牌), as the other environments' `info["wild"]`;
    /// `None` without one, or before the first `reset`.
    fn wild(&self) -> Option<String> {
        self.dealt
            .then(|| self.env.deal().wild())
            .flatten()
            .map(|t| t.to_string())
    }

    /// The deal's result once it is over: `(outcome, winners, payer)`.
    fn result(&self) -> Option<(String, Vec<String>, Option<String>)> {
        self.env.deal().result().map(|r| {
            (
                r.outcome.name().to_string(),
                r.winners.iter().map(|s| s.to_string()).collect(),
                r.payer.map(|s| s.to_string()),
            )
        })
    }
}
