//! The Python extension `taisim._native`: thin pyo3 wrappers over [`Env`], [`AecEnv`] and
//! [`VecEnv`]. The Gymnasium and PettingZoo classes are written in Python on top of these
//! (`env/python/taisim/`), so this layer only converts types and errors.
//!
//! Errors cross the boundary as Python exceptions, never as panics: an illegal action is a
//! `ValueError` naming the action and the legal ones, a bad argument value a `ValueError`,
//! a wrong argument type a `TypeError` (pyo3's extraction).

use std::sync::{Arc, Mutex};

use numpy::ndarray::{Array1, Array2, Array3};
use numpy::{
    IntoPyArray, PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray1,
    PyUntypedArrayMethods,
};

use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use taisim_agents::space::index_name;
use taisim_score::{SettlementModel, Variant, VariantCache};
use taisim_sim::{Deal, Seat, Wind};

use crate::{
    AecConfig, AecEnv, Env, EnvConfig, EnvError, Info, RewardKind, VecEnv, ACTION_SPACE_SIZE,
    OBS_CHANNELS, OBS_VERSION, OBS_WIDTH,
};

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

fn parse_seat(seat: &str) -> PyResult<Seat> {
    seat.chars()
        .next()
        .filter(|_| seat.len() == 1)
        .and_then(Wind::from_char)
        .ok_or_else(|| PyValueError::new_err(format!("seat {seat:?} is not one of E, S, W, N")))
}

/// A variant by name (or path) and the reward named `reward` under it, the points reward
/// settled with `base + tai × per_tai`.
///
/// Unset, `per_tai` is the variant's, and `base` the variant's 底 or, where that is 0 (every
/// shipped variant) and the losers pay the winner, one tai's worth: a 0-tai win (9% of
/// taiwan16's wins) then still earns a positive reward, which a learner needs to tell winning
/// from a draw. Stakes past the settlement's bounds are a `ValueError`.
fn variant_and_reward(
    variant: &str,
    reward: &str,
    base: Option<i64>,
    per_tai: Option<i64>,
) -> PyResult<(Arc<Variant>, RewardKind)> {
    let variant = Variant::by_name_or_path(variant).map_err(value_error)?;
    for (name, value) in [("base", base), ("per_tai", per_tai)] {
        if let Some(v) = value.filter(|&v| v < 0) {
            return Err(PyValueError::new_err(format!(
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
        None => per_tai.max(1),
    };
    let variant = variant.with_stakes(base, per_tai).map_err(value_error)?;
    let reward = RewardKind::by_name(reward).map_err(value_error)?;
    Ok((Arc::new(variant), reward))
}

/// An action index from Python: anything outside the action space is refused here, before
/// the environment, as out of range (not as an action that is merely illegal now).
fn action_index(action: i64) -> Result<usize, String> {
    usize::try_from(action)
        .ok()
        .filter(|&a| a < ACTION_SPACE_SIZE)
        .ok_or_else(|| {
            format!("action {action} is out of range: the action space is 0..{ACTION_SPACE_SIZE}")
        })
}

/// The table of a deal as `taisim deal` prints its start: every seat's concealed tiles and
/// flowers, with the melds and river so far, the seat to act and the wall.
fn render_deal(deal: &Deal, learner: Option<Seat>) -> String {
    use std::fmt::Write;
    let ctx = deal.context();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "seed {}  dice {:?}  dealer {}  round {}  step {}  wall {}",
        deal.seed(),
        deal.wall().dice(),
        ctx.dealer,
        ctx.round_wind,
        deal.steps(),
        deal.tiles_left()
    );
    if let Some(w) = deal.wild() {
        // The turned-up indicator's kind (taizhou's 得牌), as the observation's wild row.
        let _ = writeln!(out, "wild {w}");
    }
    for s in Wind::ALL {
        let mark = match (Some(s) == learner, Some(s) == deal.to_act()) {
            (true, true) => "*>",
            (true, false) => "* ",
            (false, true) => " >",
            (false, false) => "  ",
        };
        let melds: Vec<String> = deal.melds(s).iter().map(|m| m.to_string()).collect();
        let river: Vec<String> = deal
            .discards()
            .iter()
            .filter(|d| d.seat() == s && !d.is_claimed())
            .map(|d| d.tile().to_string())
            .collect();
        let _ = writeln!(
            out,
            "{mark}{s}: {}  melds [{}]  flowers {}  river {}",
            deal.hand(s),
            melds.join(" "),
            deal.flowers(s),
            river.concat()
        );
    }
    match (deal.result(), deal.tile_on_offer()) {
        (Some(r), _) => {
            let winners: Vec<String> = r.winners.iter().map(|s| s.to_string()).collect();
            let _ = writeln!(out, "over: {} {}", r.outcome.name(), winners.join(" "));
        }
        (None, Some(t)) => {
            let _ = writeln!(out, "on offer: {t}");
        }
        (None, None) => {}
    }
    out
}

/// The most environments one `NativeVecEnv` holds. Each takes some kilobytes (its deal,
/// agents and observation row), so this bound keeps a batch under a few gigabytes and turns
/// a mistaken size into an error rather than an aborted interpreter.
const MAX_NUM_ENVS: usize = 1 << 16;

fn env_error(e: EnvError) -> PyErr {
    match e {
        EnvError::NeedsReset => PyRuntimeError::new_err(e.to_string()),
        other => PyValueError::new_err(other.to_string()),
    }
}

fn info_dict<'py>(py: Python<'py>, info: &Info) -> PyResult<Bound<'py, PyDict>> {
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
type ObsMask<'py> = (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray1<i8>>);
/// `(obs, mask, info)`.
type Reset<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<i8>>,
    Bound<'py, PyDict>,
);
/// `(obs, mask, reward, terminated, truncated, info)`.
type StepOut<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<i8>>,
    f32,
    bool,
    bool,
    Bound<'py, PyDict>,
);

fn mask_i8<'py>(py: Python<'py>, mask: &[u8]) -> Bound<'py, PyArray1<i8>> {
    Array1::from_iter(mask.iter().map(|&m| m as i8)).into_pyarray(py)
}

/// One learner seat against built-in agents.
#[pyclass(name = "NativeEnv", module = "taisim._native")]
struct PyEnv {
    env: Env,
}

#[pymethods]
impl PyEnv {
    #[new]
    #[pyo3(signature = (variant = "taiwan16", seat = "E", opponents = "greedy", reward = "points", base = None, per_tai = None))]
    fn new(
        variant: &str,
        seat: &str,
        opponents: &str,
        reward: &str,
        base: Option<i64>,
        per_tai: Option<i64>,
    ) -> PyResult<Self> {
        let (variant, reward) = variant_and_reward(variant, reward, base, per_tai)?;
        let mut config = EnvConfig::with_opponents(opponents).map_err(value_error)?;
        config.variant = variant;
        config.seat = parse_seat(seat)?;
        config.reward = reward;
        Ok(PyEnv {
            env: Env::new(&config).map_err(env_error)?,
        })
    }

    /// `(obs, mask, info)` of a new deal dealt from `seed`.
    fn reset<'py>(&mut self, py: Python<'py>, seed: u64) -> PyResult<Reset<'py>> {
        let o = self.env.reset(seed);
        let obs = o.obs.to_owned().into_pyarray(py);
        let mask = mask_i8(py, o.mask);
        Ok((obs, mask, info_dict(py, self.env.info())?))
    }

    /// `(obs, mask, reward, terminated, truncated, info)`.
    fn step<'py>(&mut self, py: Python<'py>, action: i64) -> PyResult<StepOut<'py>> {
        let action = action_index(action).map_err(PyValueError::new_err)?;
        let s = self.env.step(action).map_err(env_error)?;
        let obs = s.observation.obs.to_owned().into_pyarray(py);
        let mask = mask_i8(py, s.observation.mask);
        let (reward, terminated, truncated, info) = (s.reward, s.terminated, s.truncated, s.info);
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

    /// The table as text (`render_mode="ansi"`); the learner's seat is marked `*`, the seat
    /// to act `>`.
    fn render(&self) -> String {
        render_deal(self.env.deal(), Some(self.env.seat()))
    }
}

/// All four seats, turn by turn (PettingZoo AEC).
#[pyclass(name = "NativeAec", module = "taisim._native")]
struct PyAec {
    env: AecEnv,
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
            env: AecEnv::new(config).map_err(env_error)?,
        })
    }

    fn reset(&mut self, seed: u64) {
        self.env.reset(seed);
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
        let mut obs = Array2::<f32>::zeros((OBS_CHANNELS, OBS_WIDTH));
        let mut mask = [0u8; ACTION_SPACE_SIZE];
        self.env
            .observe(seat, obs.view_mut(), &mut mask)
            .map_err(env_error)?;
        Ok((obs.into_pyarray(py), mask_i8(py, &mask)))
    }

    /// Steps the selected agent: an action index, or `None` for a terminated agent.
    #[pyo3(signature = (action = None))]
    fn step(&mut self, action: Option<i64>) -> PyResult<()> {
        let action = action
            .map(action_index)
            .transpose()
            .map_err(PyValueError::new_err)?;
        self.env.step(action).map_err(env_error)
    }

    /// The table as text (`render_mode="ansi"`); the seat to act is marked `>`.
    fn render(&self) -> String {
        render_deal(self.env.deal(), None)
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

/// `num_envs` learner environments stepped together (the GIL is released while they run).
#[pyclass(name = "NativeVecEnv", module = "taisim._native")]
struct PyVecEnv {
    envs: VecEnv,
    actions: Vec<usize>,
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
            let dst = rw.as_slice_mut().map_err(value_error)?;
            let masks = self.envs.masks();
            let src = masks.as_slice().expect("owned buffer is contiguous");
            for (d, &m) in dst.iter_mut().zip(src) {
                *d = m as i8;
            }
        }
        Ok(out)
    }

    /// Checks `actions` (one index per environment) and steps every environment, the GIL
    /// released, writing the observations into a new numpy array, which is returned.
    fn step_envs<'py>(
        &mut self,
        py: Python<'py>,
        actions: &PyReadonlyArray1<'py, i64>,
    ) -> PyResult<Bound<'py, PyArray3<f32>>> {
        let given = actions.as_slice().map_err(value_error)?;
        if given.len() != self.actions.len() {
            return Err(PyValueError::new_err(format!(
                "{} actions for {} environments",
                given.len(),
                self.actions.len()
            )));
        }
        for (i, (slot, &a)) in self.actions.iter_mut().zip(given).enumerate() {
            *slot = action_index(a)
                .map_err(|e| PyValueError::new_err(format!("environment {i}: {e}")))?;
        }
        let n = self.actions.len();
        // A fresh array the environments write into directly: no second pass over the
        // observations. Every element is written before Python sees it. Fresh rather than
        // reused, so an array the caller keeps from an earlier step never changes under it.
        let obs = unsafe { PyArray3::<f32>::new(py, [n, OBS_CHANNELS, OBS_WIDTH], false) };
        {
            let mut out = obs.readwrite();
            let slice = out.as_slice_mut().map_err(value_error)?;
            let (envs, actions) = (&mut self.envs, &self.actions);
            py.allow_threads(|| envs.step_into(actions, slice))
                .map_err(value_error)?;
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
    #[pyo3(signature = (num_envs = 256, variant = "taiwan16", seat = "E", opponents = "random", reward = "points", threads = None, base = None, per_tai = None))]
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
    ) -> PyResult<Self> {
        let num_envs = usize::try_from(num_envs)
            .ok()
            .filter(|n| (1..=MAX_NUM_ENVS).contains(n))
            .ok_or_else(|| {
                PyValueError::new_err(format!(
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
        let (variant, reward) = variant_and_reward(variant, reward, base, per_tai)?;
        let mut config = EnvConfig::with_opponents(opponents).map_err(value_error)?;
        config.variant = variant;
        config.seat = parse_seat(seat)?;
        config.reward = reward;
        let envs = match threads {
            Some(0) => return Err(PyValueError::new_err("threads must be at least 1")),
            Some(t) => VecEnv::with_threads(num_envs, &config, t),
            None => VecEnv::new(num_envs, &config),
        }
        .map_err(env_error)?;
        Ok(PyVecEnv {
            envs,
            actions: vec![0; num_envs],
        })
    }

    fn num_envs(&self) -> usize {
        self.envs.num_envs()
    }

    /// `(obs, mask)`.
    fn reset<'py>(&mut self, py: Python<'py>, seed: u64) -> PyResult<ObsMasks<'py>> {
        let envs = &mut self.envs;
        py.allow_threads(|| {
            envs.reset(seed);
        });
        let obs: Array3<f32> = self.envs.observations().to_owned();
        Ok((obs.into_pyarray(py), self.masks(py)?))
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
        if i >= self.envs.num_envs() {
            return Err(PyValueError::new_err(format!(
                "environment {i} does not exist ({} environments)",
                self.envs.num_envs()
            )));
        }
        info_dict(py, self.envs.info(i))
    }
}

/// The variants `score_json` and `score_many_json` have parsed, kept for the process.
static VARIANTS: Mutex<Option<VariantCache>> = Mutex::new(None);

fn with_variants<T>(f: impl FnOnce(&mut VariantCache) -> T) -> T {
    // A panic cannot happen while the lock is held (scoring returns errors), but a poisoned
    // cache is still a valid cache.
    let mut guard = VARIANTS.lock().unwrap_or_else(|e| e.into_inner());
    f(guard.get_or_insert_with(VariantCache::new))
}

/// Scores a JSON request (the fields of `taisim score --json`) and returns the JSON answer.
/// Each variant is parsed once per process.
#[pyfunction]
fn score_json(py: Python<'_>, request: &str) -> PyResult<String> {
    py.allow_threads(|| with_variants(|cache| cache.score_json(request)))
        .map_err(value_error)
}

/// Scores many JSON requests: per request `(True, answer)` or `(False, error message)`.
#[pyfunction]
fn score_many_json(py: Python<'_>, requests: Vec<String>) -> Vec<(bool, String)> {
    py.allow_threads(|| {
        with_variants(|cache| {
            requests
                .iter()
                .map(|r| match cache.score_json(r) {
                    Ok(answer) => (true, answer),
                    Err(e) => (false, e.to_string()),
                })
                .collect()
        })
    })
}

/// The name of an action index (`discard_5m`, `pung`, …).
#[pyfunction]
fn action_name(index: usize) -> PyResult<String> {
    index_name(index).ok_or_else(|| {
        PyValueError::new_err(format!(
            "action {index} is out of range: the action space is 0..{ACTION_SPACE_SIZE}"
        ))
    })
}

/// `taisim.simulate(...)`: plays a run into a Parquet dataset (the arguments of `taisim
/// simulate`) and returns the output directory. The GIL is released while it runs.
#[pyfunction]
#[pyo3(signature = (
    out = None, *, variant = None, deals = None, games = None, seed = None, agents = None,
    threads = None, part_size = None, shard = None, log_actions = false, base = None,
    per_tai = None, resume = false, progress = false, decisions = None
))]
#[allow(clippy::too_many_arguments)]
fn simulate(
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
) -> PyResult<String> {
    use taisim_datasets::{ProgressMode, RunOptions, RunRequest};
    let shard = shard
        .map(|s| s.parse::<taisim_datasets::Shard>())
        .transpose()
        .map_err(value_error)?;
    let decisions = decisions
        .map(|s| s.parse::<taisim_datasets::DecisionSeats>())
        .transpose()
        .map_err(value_error)?;
    if resume && out.is_none() {
        return Err(value_error(
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
        .map_err(harness_error)
}

/// A run's error as the Python exception for it: the user's mistake (no such run, no
/// decisions table, a variant, agent or stakes that cannot be used) a `ValueError`, a failed
/// read an `OSError`, a damaged file or an engine error a `RuntimeError`, each with the
/// message naming the file and the problem.
fn harness_error(e: taisim_datasets::HarnessError) -> PyErr {
    use taisim_datasets::HarnessError;
    match e {
        e @ (HarnessError::Usage(_)
        | HarnessError::Variant(_)
        | HarnessError::AgentName(_)
        | HarnessError::Agent(_)
        | HarnessError::Unreplayable(_)
        | HarnessError::Stakes(_)) => value_error(e),
        e @ HarnessError::Io { .. } => pyo3::exceptions::PyOSError::new_err(e.to_string()),
        e => PyRuntimeError::new_err(e.to_string()),
    }
}

/// `taisim.compare(run_a, run_b)`: two runs of the same walls compared deal by deal, as
/// `taisim compare --json` prints it (the Python wrapper parses the text). Runs of other walls
/// raise `ValueError`; the GIL is released while the runs are read.
#[pyfunction]
#[pyo3(signature = (run_a, run_b, *, verify_checksums = true))]
fn compare_json(
    py: Python<'_>,
    run_a: std::path::PathBuf,
    run_b: std::path::PathBuf,
    verify_checksums: bool,
) -> PyResult<String> {
    use taisim_datasets::{CompareError, CompareOptions, Comparison};
    let options = CompareOptions { verify_checksums };
    match py.allow_threads(|| Comparison::from_runs(&run_a, &run_b, &options)) {
        Ok(c) => Ok(c.to_json().to_string()),
        Err(CompareError::Run(e)) => Err(harness_error(e)),
        Err(e @ CompareError::DifferentWalls { .. }) => Err(value_error(e)),
    }
}

/// `taisim.load_decisions(run, seats=None, out=None)`: a run's decisions table as numpy
/// arrays (see the Python wrapper). The GIL is released while the parts are read; each array
/// is handed to numpy without a copy, or, given `out`, the table is read into its arrays.
#[pyfunction]
#[pyo3(signature = (run, seats = None, out = None))]
fn load_decisions<'py>(
    py: Python<'py>,
    run: std::path::PathBuf,
    seats: Option<&str>,
    out: Option<Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let seats = seats
        .map(str::parse::<taisim_datasets::DecisionSeats>)
        .transpose()
        .map_err(value_error)?;
    let dict = PyDict::new(py);
    let scale = Array2::from_shape_vec(
        (OBS_CHANNELS, OBS_WIDTH),
        taisim_datasets::obs_scale().to_vec(),
    )
    .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    dict.set_item("obs_scale", scale.into_pyarray(py))?;
    dict.set_item("obs_version", OBS_VERSION)?;
    match out {
        Some(out) => load_decisions_into(py, &run, seats, &out, &dict)?,
        None => {
            let d = py
                .allow_threads(|| taisim_datasets::load_decisions(&run, seats))
                .map_err(harness_error)?;
            let n = d.rows;
            let shape = |e: numpy::ndarray::ShapeError| PyRuntimeError::new_err(e.to_string());
            let obs =
                Array3::from_shape_vec((n, d.obs_channels, OBS_WIDTH), d.obs).map_err(shape)?;
            dict.set_item("obs", obs.into_pyarray(py))?;
            // The reader checked every mask byte is 0 or 1, so numpy's bool view of them (no
            // copy) holds only valid bools.
            let mask = Array2::from_shape_vec((n, ACTION_SPACE_SIZE), d.mask).map_err(shape)?;
            dict.set_item(
                "mask",
                mask.into_pyarray(py).call_method1("view", ("bool",))?,
            )?;
            dict.set_item("action", Array1::from_vec(d.action).into_pyarray(py))?;
            dict.set_item("reward", Array1::from_vec(d.reward).into_pyarray(py))?;
            dict.set_item("seat", Array1::from_vec(d.seat).into_pyarray(py))?;
            dict.set_item("deal", Array1::from_vec(d.deal).into_pyarray(py))?;
            dict.set_item("step", Array1::from_vec(d.step).into_pyarray(py))?;
        }
    }
    Ok(dict)
}

/// The array `out[key]`, which must be a C-contiguous numpy array of `T` and `D`'s rank.
fn out_array<'py, T: numpy::Element, D: numpy::ndarray::Dimension>(
    out: &Bound<'py, PyDict>,
    key: &str,
    dtype: &str,
) -> PyResult<Bound<'py, numpy::PyArray<T, D>>> {
    let item = out
        .get_item(key)?
        .ok_or_else(|| PyValueError::new_err(format!("out has no {key:?} array")))?;
    // A bool mask is read as the bytes it is (numpy's view, no copy).
    let item = if key == "mask" && item.getattr("dtype")?.str()?.to_str()? == "bool" {
        item.call_method1("view", ("uint8",))?
    } else {
        item
    };
    let array = item.downcast_into::<numpy::PyArray<T, D>>().map_err(|_| {
        PyValueError::new_err(format!(
            "out[{key:?}] is not a {}-dimensional numpy array of {dtype}",
            D::NDIM.unwrap_or(0)
        ))
    })?;
    if !array.is_c_contiguous() {
        return Err(PyValueError::new_err(format!(
            "out[{key:?}] is not C-contiguous"
        )));
    }
    Ok(array)
}

/// Copies `values` into `array`, of the same length.
fn fill<T: numpy::Element + Copy>(array: &Bound<'_, PyArray1<T>>, values: &[T]) -> PyResult<()> {
    let mut w = array.try_readwrite().map_err(value_error)?;
    w.as_slice_mut()
        .map_err(value_error)?
        .copy_from_slice(values);
    Ok(())
}

/// `load_decisions(run, seats, out)`: the table read into `out`'s arrays (all of one row
/// count, that of the table), which `dict` then holds.
fn load_decisions_into<'py>(
    py: Python<'py>,
    run: &std::path::Path,
    seats: Option<taisim_datasets::DecisionSeats>,
    out: &Bound<'py, PyDict>,
    dict: &Bound<'py, PyDict>,
) -> PyResult<()> {
    use numpy::ndarray::{Ix1, Ix2, Ix3};
    let obs = out_array::<u8, Ix3>(out, "obs", "uint8")?;
    let mask = out_array::<u8, Ix2>(out, "mask", "bool or uint8")?;
    let action = out_array::<i64, Ix1>(out, "action", "int64")?;
    let reward = out_array::<f32, Ix1>(out, "reward", "float32")?;
    let seat = out_array::<u8, Ix1>(out, "seat", "uint8")?;
    let deal = out_array::<u64, Ix1>(out, "deal", "uint64")?;
    let step = out_array::<u32, Ix1>(out, "step", "uint32")?;
    let n = obs.shape()[0];
    let shapes = [
        (
            "obs",
            obs.shape().to_vec(),
            vec![n, OBS_CHANNELS, OBS_WIDTH],
        ),
        ("mask", mask.shape().to_vec(), vec![n, ACTION_SPACE_SIZE]),
        ("action", action.shape().to_vec(), vec![n]),
        ("reward", reward.shape().to_vec(), vec![n]),
        ("seat", seat.shape().to_vec(), vec![n]),
        ("deal", deal.shape().to_vec(), vec![n]),
        ("step", step.shape().to_vec(), vec![n]),
    ];
    for (key, got, want) in shapes {
        if got != want {
            return Err(PyValueError::new_err(format!(
                "out[{key:?}] has shape {got:?}, not {want:?} (the rows of out[\"obs\"])"
            )));
        }
    }
    let d = {
        // Borrowed for writing (numpy refuses a second borrow, such as the same array
        // given twice) until the table is read.
        let mut obs_w = obs.try_readwrite().map_err(value_error)?;
        let mut mask_w = mask.try_readwrite().map_err(value_error)?;
        let (o, m) = (obs_w.as_slice_mut(), mask_w.as_slice_mut());
        let (o, m) = (o.map_err(value_error)?, m.map_err(value_error)?);
        py.allow_threads(|| taisim_datasets::load_decisions_into(run, seats, o, m))
            .map_err(harness_error)?
    };
    fill(&action, &d.action)?;
    fill(&reward, &d.reward)?;
    fill(&seat, &d.seat)?;
    fill(&deal, &d.deal)?;
    fill(&step, &d.step)?;
    for key in ["obs", "mask", "action", "reward", "seat", "deal", "step"] {
        dict.set_item(key, out.get_item(key)?)?;
    }
    Ok(())
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyEnv>()?;
    m.add_class::<PyAec>()?;
    m.add_class::<PyVecEnv>()?;
    m.add_function(wrap_pyfunction!(action_name, m)?)?;
    m.add_function(wrap_pyfunction!(score_json, m)?)?;
    m.add_function(wrap_pyfunction!(score_many_json, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(crate::python_policy::policy_logits, m)?)?;
    m.add_function(wrap_pyfunction!(crate::python_policy::policy_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(load_decisions, m)?)?;
    m.add_function(wrap_pyfunction!(compare_json, m)?)?;
    m.add("ACTION_SPACE_SIZE", ACTION_SPACE_SIZE)?;
    m.add("OBS_SHAPE", (OBS_CHANNELS, OBS_WIDTH))?;
    m.add("OBS_VERSION", OBS_VERSION)?;
    m.add("MAX_NUM_ENVS", MAX_NUM_ENVS)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
