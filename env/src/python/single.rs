//! `NativeEnv`: one learner seat against built-in agents (the Gymnasium `taisim.Env`).

use numpy::IntoPyArray;
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::config::{action_index, env_config, info_dict, mask_i8, Reset, StepOut};
use super::errors;
use super::interrupt::Stop;
use super::render::render_deal;
use super::review::reasons_dict;
use crate::Env;

/// One learner seat against built-in agents.
#[pyclass(name = "NativeEnv", module = "taisim._native")]
pub(super) struct PyEnv {
    env: Env,
    /// Whether `reset` has dealt a deal: before it the engine holds a placeholder, which
    /// rendering must not show.
    dealt: bool,
    /// Ctrl-C's way to the opponents, when they may take long.
    stop: Stop,
}

impl PyEnv {
    /// `(obs, mask, info)` of the deal `deal` deals, the GIL released (interruptibly when
    /// the opponents take long).
    fn dealt_by<'py>(
        &mut self,
        py: Python<'py>,
        deal: impl FnOnce(&mut Env) + Send,
    ) -> PyResult<Reset<'py>> {
        let dealt = self.stop.run(py, &mut self.env, deal, Env::abandon);
        self.dealt = true;
        dealt?;
        if self.env.was_cancelled() {
            return Err(errors::env(crate::EnvError::Cancelled));
        }
        if let Some(f) = self.env.bot_fault() {
            return Err(errors::bot(Box::new(f.clone())));
        }
        let o = self.env.observation();
        let obs = o.obs.to_owned().into_pyarray(py);
        let mask = mask_i8(py, o.mask);
        Ok((obs, mask, info_dict(py, self.env.info())?))
    }
}

#[pymethods]
impl PyEnv {
    #[new]
    #[pyo3(signature = (variant = "taiwan16", seat = "E", opponents = "greedy", reward = "points", base = None, per_tai = None, bot_timeout = None))]
    fn new(
        variant: &str,
        seat: &str,
        opponents: &str,
        reward: &str,
        base: Option<i64>,
        per_tai: Option<i64>,
        bot_timeout: Option<f64>,
    ) -> PyResult<Self> {
        let config = env_config(variant, seat, opponents, reward, base, per_tai, bot_timeout)?;
        let mut env = Env::new(&config).map_err(errors::env)?;
        let stop = Stop::new(env.opponents_take_time(), false, |f| env.cancel_on(f));
        Ok(PyEnv {
            env,
            dealt: false,
            stop,
        })
    }

    /// `(obs, mask, info)` of a new deal dealt from `seed`.
    /// Ctrl-C while the opponents play raises `KeyboardInterrupt` and leaves no deal running.
    fn reset<'py>(&mut self, py: Python<'py>, seed: u64) -> PyResult<Reset<'py>> {
        self.dealt_by(py, |env| {
            env.reset(seed);
        })
    }

    /// `(obs, mask, info)` of the next deal of the last reset's seed stream.
    fn reset_next<'py>(&mut self, py: Python<'py>) -> PyResult<Reset<'py>> {
        self.dealt_by(py, |env| {
            env.reset_next();
        })
    }

    /// `(obs, mask, reward, terminated, truncated, info)`. Ctrl-C while the opponents play
    /// raises `KeyboardInterrupt` and abandons the deal (`reset` before the next step).
    fn step<'py>(&mut self, py: Python<'py>, action: i64) -> PyResult<StepOut<'py>> {
        let action = action_index(action)?;
        let (reward, terminated, truncated, info) = self
            .stop
            .run(
                py,
                &mut self.env,
                |env| {
                    env.step(action)
                        .map(|s| (s.reward, s.terminated, s.truncated, s.info))
                },
                Env::abandon,
            )?
            .map_err(errors::env)?;
        let o = self.env.observation();
        let obs = o.obs.to_owned().into_pyarray(py);
        let mask = mask_i8(py, o.mask);
        Ok((
            obs,
            mask,
            reward,
            terminated,
            truncated,
            info_dict(py, &info)?,
        ))
    }

    /// The current legal-action mask.
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        mask_i8(py, self.env.action_mask())
    }

    /// The search agent's reasons at the learner's decision now (see `review::reasons_dict`);
    /// `search` names the reviewing search (plain `search` when `None`).
    #[pyo3(signature = (search = None))]
    fn review<'py>(&self, py: Python<'py>, search: Option<&str>) -> PyResult<Bound<'py, PyDict>> {
        // An `exec:` opponent that failed left the deal where it stopped: that fault, not a
        // review of some other seat's turn.
        if let Some(f) = self.env.bot_fault() {
            return Err(errors::bot(Box::new(f.clone())));
        }
        let deal = self.env.deal();
        if !self.env.is_running() {
            return Err(errors::usage(
                "no decision to review: the deal is over, or not yet dealt (call reset)",
            ));
        }
        reasons_dict(py, self.env.variant(), deal, self.env.seat(), search)
    }

    /// An independent copy of the engine: the deal, the opponents (their generators and
    /// scratch) and the learner's state, so the copy goes on as the original would. An
    /// `exec:` opponent is a process outside taisim that follows one deal per handle and
    /// cannot be copied: `TypeError`.
    fn copy(&self) -> PyResult<PyEnv> {
        if self.env.has_outside_players() {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "a taisim.Env with an exec: opponent cannot be copied: the bot process follows \
                 its deal and knows nothing of a copy; make another environment and replay the \
                 seed and actions instead",
            ));
        }
        // The copy stops on a flag of its own: Ctrl-C during the original's step must not
        // abandon the copy's deal, nor a step of the copy clear the original's flag.
        let mut env = self.env.clone();
        let stop = Stop::new(env.opponents_take_time(), false, |f| env.cancel_on(f));
        Ok(PyEnv {
            env,
            dealt: self.dealt,
            stop,
        })
    }

    /// The table as text (`render_mode="ansi"`); the learner's seat is marked `*`, the seat
    /// to act `>`.
    fn render(&self) -> PyResult<String> {
        if !self.dealt {
            return Err(errors::not_dealt());
        }
        Ok(render_deal(self.env.deal(), Some(self.env.seat())))
    }
}
