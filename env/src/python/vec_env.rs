//! `NativeVecEnv`: many learner environments stepped together in Rust, the GIL released,
//! numpy batches out (the Gymnasium vector environment `taisim.VecEnv`).

use numpy::ndarray::Array3;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyMemoryError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use super::config::{action_index, env_config, info_dict};
use super::errors::{self, IllegalActionError};
use super::interrupt::Stop;
use crate::{Info, VecEnv, ACTION_SPACE_SIZE, OBS_CHANNELS, OBS_WIDTH};

/// The most environments one `NativeVecEnv` holds. Each takes some kilobytes (its deal,
/// agents and observation row), so this bound keeps a batch under a few gigabytes and turns
/// a mistaken size into an error rather than an aborted interpreter.
pub(super) const MAX_NUM_ENVS: usize = 1 << 16;

/// `num_envs` learner environments stepped together (the GIL is released while they run).
#[pyclass(name = "NativeVecEnv", module = "taisim._native")]
pub(super) struct PyVecEnv {
    envs: VecEnv,
    actions: Vec<usize>,
    /// Ctrl-C's way to the opponents, when they may take long.
    stop: Stop,
}

/// `(obs, masks)`.
type ObsMasks<'py> = (Bound<'py, PyArray3<f32>>, Bound<'py, PyArray2<i8>>);

type VecOut<'py> = (
    Bound<'py, PyArray3<f32>>,
    Bound<'py, PyArray1<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray2<i8>>,
);

/// `(obs, rewards, terminations, truncations, infos)`: Gymnasium's `VectorEnv.step`.
type GymStepOut<'py> = (
    Bound<'py, PyArray3<f32>>,
    Bound<'py, PyArray1<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyDict>,
);

impl PyVecEnv {
    /// The batch's masks as a new numpy array (int8, as the other environments give them),
    /// copied straight into numpy's buffer.
    fn masks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i8>>> {
        let n = self.envs.num_envs();
        // Every element is written before Python sees the array.
        let out = unsafe { PyArray2::<i8>::new(py, [n, ACTION_SPACE_SIZE], false) };
        {
            let mut rw = out.readwrite();
            let dst = rw.as_slice_mut().map_err(errors::usage)?;
            let masks = self.envs.masks();
            let src = masks.as_slice().expect("owned buffer is contiguous");
            for (d, &m) in dst.iter_mut().zip(src) {
                *d = m as i8;
            }
        }
        Ok(out)
    }

    /// What a reset returns: `(obs, mask)`, or the stop by Ctrl-C, or the fault of an `exec:`
    /// opponent that failed on the way to the learner's first decision.
    fn after_reset<'py>(&self, py: Python<'py>) -> PyResult<ObsMasks<'py>> {
        if self.envs.was_cancelled() {
            return Err(errors::env(crate::EnvError::Cancelled));
        }
        if let Some((i, f)) = self.envs.bot_fault() {
            return Err(errors::bot_in(i, f.clone()));
        }
        let obs: Array3<f32> = self.envs.observations().to_owned();
        Ok((obs.into_pyarray(py), self.masks(py)?))
    }

    /// Checks `actions` (one index per environment) and steps every environment, the GIL
    /// released, writing the observations into a new numpy array, which is returned.
    fn step_envs<'py>(
        &mut self,
        py: Python<'py>,
        actions: &PyReadonlyArray1<'py, i64>,
    ) -> PyResult<Bound<'py, PyArray3<f32>>> {
        let given = actions.as_slice().map_err(errors::usage)?;
        if given.len() != self.actions.len() {
            return Err(errors::usage(format!(
                "{} actions for {} environments",
                given.len(),
                self.actions.len()
            )));
        }
        for (i, (slot, &a)) in self.actions.iter_mut().zip(given).enumerate() {
            *slot = action_index(a).map_err(|e| {
                IllegalActionError::new_err(format!("environment {i}: {}", e.value(py)))
            })?;
        }
        let n = self.actions.len();
        // A fresh array the environments write into directly: no second pass over the
        // observations. Every element is written before Python sees it. Fresh rather than
        // reused, so an array the caller keeps from an earlier step never changes under it.
        let obs = unsafe { PyArray3::<f32>::new(py, [n, OBS_CHANNELS, OBS_WIDTH], false) };
        {
            let mut out = obs.readwrite();
            let slice = out.as_slice_mut().map_err(errors::usage)?;
            let actions = &self.actions;
            self.stop
                .run(
                    py,
                    &mut self.envs,
                    |envs| envs.step_into(actions, slice),
                    VecEnv::abandon,
                )?
                .map_err(errors::vec_env)?;
        }
        Ok(obs)
    }
}

/// `infos["final_info"]` of a same-step auto-reset: the info of every environment whose deal
/// ended at this step, laid out as Gymnasium's `VectorEnv._add_info` lays out a batch of info
/// dicts (what `info_dict` gives for one environment): per key, an array with one entry per
/// environment (a number in a zero-filled array of the value's numpy type — `uint64` for
/// `deal_seed`, `int64` for the counts — anything else in an object array of `None`) and
/// beside it the boolean mask `_key`, true where that environment has the key. Built here in
/// one pass instead of one Python dict and one `_add_info` call per finished deal, which cost
/// more than the step itself.
fn final_info<'py>(py: Python<'py>, envs: &VecEnv) -> PyResult<Bound<'py, PyDict>> {
    let n = envs.num_envs();
    let ended: Vec<usize> = envs
        .terminated()
        .iter()
        .enumerate()
        .filter_map(|(i, &t)| t.then_some(i))
        .collect();
    let out = PyDict::new(py);
    // A numeric key every info has.
    let numbers = |key: &str, value: &dyn Fn(&Info) -> i64| -> PyResult<()> {
        let (mut column, mut mask) = (vec![0i64; n], vec![false; n]);
        for &i in &ended {
            (column[i], mask[i]) = (value(envs.info(i)), true);
        }
        out.set_item(key, PyArray1::from_vec(py, column))?;
        out.set_item(format!("_{key}"), PyArray1::from_vec(py, mask))
    };
    // An object key; `value` gives `None` where the info lacks the key.
    let objects =
        |key: &str, value: &dyn Fn(&Info) -> PyResult<Option<PyObject>>| -> PyResult<()> {
            let mut column: Vec<PyObject> = (0..n).map(|_| py.None()).collect();
            let mut mask = vec![false; n];
            for &i in &ended {
                if let Some(v) = value(envs.info(i))? {
                    (column[i], mask[i]) = (v, true);
                }
            }
            if mask.contains(&true) {
                out.set_item(key, PyArray1::from_vec(py, column))?;
                out.set_item(format!("_{key}"), PyArray1::from_vec(py, mask))?;
            }
            Ok(())
        };
    let text = |s: &dyn std::fmt::Display| -> PyResult<PyObject> {
        Ok(PyString::new(py, &s.to_string()).into_any().unbind())
    };
    let optional_text = |s: Option<&dyn std::fmt::Display>| match s {
        Some(s) => text(s),
        None => Ok(py.None()),
    };
    // `info_dict`'s keys in its order, so the dict reads as Gymnasium's would.
    let mut seeds = vec![0u64; n];
    let mut mask = vec![false; n];
    for &i in &ended {
        (seeds[i], mask[i]) = (envs.info(i).deal_seed, true);
    }
    out.set_item("deal_seed", PyArray1::from_vec(py, seeds))?;
    out.set_item("_deal_seed", PyArray1::from_vec(py, mask))?;
    objects("seat", &|info| text(&info.seat).map(Some))?;
    objects("dealer", &|info| text(&info.context.dealer).map(Some))?;
    objects("round_wind", &|info| {
        text(&info.context.round_wind).map(Some)
    })?;
    numbers("dealer_streak", &|info| i64::from(info.context.streak))?;
    numbers("decisions", &|info| i64::from(info.decisions))?;
    numbers("learner_steps", &|info| i64::from(info.learner_steps))?;
    objects("rewards", &|info| {
        Ok(Some(PyList::new(py, info.rewards)?.into_any().unbind()))
    })?;
    objects("wild", &|info| {
        optional_text(info.wild.as_ref().map(|t| t as _)).map(Some)
    })?;
    objects("outcome", &|info| {
        info.result
            .as_ref()
            .map(|r| text(&r.outcome.name()))
            .transpose()
    })?;
    objects("winners", &|info| {
        info.result
            .as_ref()
            .map(|r| {
                let winners: Vec<String> = r.winners.iter().map(|s| s.to_string()).collect();
                Ok(PyList::new(py, winners)?.into_any().unbind())
            })
            .transpose()
    })?;
    objects("payer", &|info| {
        info.result
            .as_ref()
            .map(|r| optional_text(r.payer.as_ref().map(|s| s as _)))
            .transpose()
    })?;
    objects("win_tile", &|info| {
        info.result
            .as_ref()
            .map(|r| optional_text(r.win_tile.as_ref().map(|t| t as _)))
            .transpose()
    })?;
    Ok(out)
}

#[pymethods]
impl PyVecEnv {
    #[new]
    #[pyo3(signature = (num_envs = 256, variant = "taiwan16", seat = "E", opponents = "random", reward = "points", threads = None, base = None, per_tai = None, bot_timeout = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        num_envs: i64,
        variant: &str,
        seat: &str,
        opponents: &str,
        reward: &str,
        threads: Option<usize>,
        base: Option<i64>,
        per_tai: Option<i64>,
        bot_timeout: Option<f64>,
    ) -> PyResult<Self> {
        let num_envs = usize::try_from(num_envs)
            .ok()
            .filter(|n| (1..=MAX_NUM_ENVS).contains(n))
            .ok_or_else(|| {
                errors::usage(format!(
                    "num_envs must be between 1 and {MAX_NUM_ENVS}, got {num_envs}"
                ))
            })?;
        // The batch's buffers and environments in one request the allocator may refuse:
        // a refusal is a MemoryError here, where `VecEnv::new` would abort the process.
        let bytes = num_envs
            * (std::mem::size_of::<crate::single::Core>()
                + std::mem::size_of::<Info>()
                + OBS_CHANNELS * OBS_WIDTH * 4
                + ACTION_SPACE_SIZE);
        Vec::<u8>::new().try_reserve_exact(bytes).map_err(|_| {
            PyMemoryError::new_err(format!(
                "cannot allocate {num_envs} environments ({bytes} bytes)"
            ))
        })?;
        let config = env_config(variant, seat, opponents, reward, base, per_tai, bot_timeout)?;
        let envs = match threads {
            Some(0) => return Err(errors::usage("threads must be at least 1")),
            Some(t) => VecEnv::with_threads(num_envs, &config, t),
            None => VecEnv::new(num_envs, &config),
        }
        .map_err(errors::env)?;
        let mut envs = envs;
        let stop = Stop::new(envs.opponents_take_time(), true, |f| envs.cancel_on(f));
        Ok(PyVecEnv {
            envs,
            actions: vec![0; num_envs],
            stop,
        })
    }

    fn num_envs(&self) -> usize {
        self.envs.num_envs()
    }

    /// The search agent's reasons at every environment's decision now (see
    /// `review::batch_dict`); `search` names the reviewing search (plain `search` when
    /// `None`).
    #[pyo3(signature = (search = None))]
    fn review<'py>(
        &self,
        py: Python<'py>,
        search: Option<&str>,
    ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        if !self.envs.is_started() {
            return Err(errors::usage("no decision to review: call reset first"));
        }
        if let Some((i, f)) = self.envs.bot_fault() {
            return Err(errors::bot_in(i, f.clone()));
        }
        super::review::batch_dict(py, &self.envs, search)
    }

    /// `(obs, mask)`.
    fn reset<'py>(&mut self, py: Python<'py>, seed: u64) -> PyResult<ObsMasks<'py>> {
        self.stop.run(
            py,
            &mut self.envs,
            |envs| {
                envs.reset(seed);
            },
            VecEnv::abandon,
        )?;
        self.after_reset(py)
    }

    /// `(obs, mask)`, environment `i` reset on the seed stream `streams[i]`.
    fn reset_streams<'py>(
        &mut self,
        py: Python<'py>,
        streams: Vec<u64>,
    ) -> PyResult<ObsMasks<'py>> {
        self.stop
            .run(
                py,
                &mut self.envs,
                |envs| envs.reset_streams(&streams).map(|_| ()),
                VecEnv::abandon,
            )?
            .map_err(errors::env)?;
        self.after_reset(py)
    }

    /// `(obs, reward, terminated, truncated, mask)`; `actions` is one index per environment.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<VecOut<'py>> {
        let obs = self.step_envs(py, &actions)?;
        Ok((
            obs,
            PyArray1::from_slice(py, self.envs.rewards().as_slice().expect("contiguous")),
            PyArray1::from_slice(py, self.envs.terminated().as_slice().expect("contiguous")),
            PyArray1::from_slice(py, self.envs.truncated().as_slice().expect("contiguous")),
            self.masks(py)?,
        ))
    }

    /// Gymnasium's `VectorEnv.step` in one call: `(obs, rewards, terminations, truncations,
    /// infos)`, `infos` holding `action_mask` and `_action_mask` and, when some deal ended,
    /// `final_info` and `_final_info` (see [`final_info`]).
    fn step_gym<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<GymStepOut<'py>> {
        let obs = self.step_envs(py, &actions)?;
        let n = self.envs.num_envs();
        let terminated = self.envs.terminated();
        let terminated = terminated.as_slice().expect("contiguous");
        let infos = PyDict::new(py);
        infos.set_item("action_mask", self.masks(py)?)?;
        infos.set_item("_action_mask", PyArray1::from_vec(py, vec![true; n]))?;
        if terminated.contains(&true) {
            infos.set_item("final_info", final_info(py, &self.envs)?)?;
            infos.set_item("_final_info", PyArray1::from_slice(py, terminated))?;
        }
        Ok((
            obs,
            PyArray1::from_slice(py, self.envs.rewards().as_slice().expect("contiguous")),
            PyArray1::from_slice(py, terminated),
            PyArray1::from_slice(py, self.envs.truncated().as_slice().expect("contiguous")),
            infos,
        ))
    }

    /// The info of environment `i` (its finished deal's, right after an auto-reset).
    fn info<'py>(&self, py: Python<'py>, i: usize) -> PyResult<Bound<'py, PyDict>> {
        if !self.envs.is_started() {
            return Err(errors::not_dealt());
        }
        if i >= self.envs.num_envs() {
            return Err(errors::usage(format!(
                "environment {i} does not exist ({} environments)",
                self.envs.num_envs()
            )));
        }
        info_dict(py, self.envs.info(i))
    }
}
