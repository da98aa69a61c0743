//! `N` single-agent environments stepped together with rayon into preallocated `(N, …)`
//! buffers, each resetting itself when its deal ends.

use std::sync::Arc;

use ndarray::{Array1, Array2, Array3, ArrayView1, ArrayView2, ArrayView3};
use rayon::prelude::*;
use taisim_agents::{ACTION_SPACE_SIZE, OBS_CHANNELS, OBS_LEN, OBS_WIDTH};
use taisim_sim::{deal_seed, Action};

use crate::single::{Core, EnvConfig, EnvError, Info};

/// An error of one environment of a batch; no environment was stepped.
#[derive(Debug, thiserror::Error)]
#[error("environment {env}: {source}")]
pub struct VecEnvError {
    pub env: usize,
    pub source: EnvError,
}

/// The buffers after a reset or step, borrowed from the [`VecEnv`] (valid until its next
/// call). Row `i` belongs to environment `i`.
#[derive(Copy, Clone, Debug)]
pub struct VecStep<'a> {
    /// `(N, OBS_CHANNELS, OBS_WIDTH)`.
    pub obs: ArrayView3<'a, f32>,
    /// `(N, ACTION_SPACE_SIZE)`, 0/1.
    pub masks: ArrayView2<'a, u8>,
    /// `(N,)`: the reward of the step (0 after a reset).
    pub rewards: ArrayView1<'a, f32>,
    /// `(N,)`: the environment's deal ended at this step (and it was reset).
    pub terminated: ArrayView1<'a, bool>,
    /// `(N,)`: always false (a deal ends by itself).
    pub truncated: ArrayView1<'a, bool>,
}

/// A batch of single-agent environments with the same configuration.
///
/// Seeds: [`VecEnv::reset`]`(s)` gives environment `i` the stream `deal_seed(s, i)`, and its
/// `k`-th deal (k = 0 at the reset, then one more at each auto-reset) is dealt from
/// `deal_seed(stream_i, k)`. Each environment's course depends on its own stream and actions
/// alone, so the buffers are the same whatever the thread count.
///
/// Auto-reset (Gymnasium's same-step mode, as Stable-Baselines3's `VecEnv`): when an
/// environment's deal ends at a step, its `rewards`/`terminated` entries report the finished
/// deal, and its `obs`/`masks` rows already hold the first observation of its next deal.
/// The finished deal's final observation is not kept: nothing is ever truncated, so no value
/// needs bootstrapping from it. [`VecEnv::info`] reports the finished deal until the next
/// step.
///
/// ```
/// use taisim_env::{EnvConfig, VecEnv};
///
/// let mut envs = VecEnv::new(8, &EnvConfig::default()).unwrap();
/// envs.reset(0);
/// let mut actions = vec![0usize; 8];
/// for _ in 0..100 {
///     for (i, a) in actions.iter_mut().enumerate() {
///         // A trivial policy: the last legal index of each environment.
///         *a = envs.masks().row(i).iter().rposition(|&m| m == 1).unwrap();
///     }
///     envs.step(&actions).unwrap();
/// }
/// ```
pub struct VecEnv {
    cores: Vec<Core>,
    obs: Array3<f32>,
    masks: Array2<u8>,
    rewards: Array1<f32>,
    terminated: Array1<bool>,
    truncated: Array1<bool>,
    /// Per environment: its seed stream and the index of its current deal in it.
    streams: Vec<(u64, u64)>,
    /// The finished deal's info for environments that just auto-reset, else the current.
    infos: Vec<Info>,
    /// The actions of the step being played, as checked before any environment moves: the
    /// parallel pass plays them without looking each one up in the legal list again.
    checked: Vec<Action>,
    pool: Option<Arc<rayon::ThreadPool>>,
    started: bool,
}

impl VecEnv {
    /// `num_envs` environments stepped on rayon's global thread pool.
    pub fn new(num_envs: usize, config: &EnvConfig) -> Result<VecEnv, EnvError> {
        let core = Core::new(config)?;
        let info = *core.info();
        Ok(VecEnv {
            cores: vec![core; num_envs],
            obs: Array3::zeros((num_envs, OBS_CHANNELS, OBS_WIDTH)),
            masks: Array2::zeros((num_envs, ACTION_SPACE_SIZE)),
            rewards: Array1::zeros(num_envs),
            terminated: Array1::from_elem(num_envs, false),
            truncated: Array1::from_elem(num_envs, false),
            streams: vec![(0, 0); num_envs],
            infos: vec![info; num_envs],
            checked: vec![Action::Pass; num_envs],
            pool: None,
            started: false,
        })
    }

    /// Like [`VecEnv::new`], stepping on a pool of its own with `threads` threads.
    pub fn with_threads(
        num_envs: usize,
        config: &EnvConfig,
        threads: usize,
    ) -> Result<VecEnv, EnvError> {
        let mut envs = VecEnv::new(num_envs, config)?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("cannot start worker threads");
        envs.pool = Some(Arc::new(pool));
        Ok(envs)
    }

    pub fn num_envs(&self) -> usize {
        self.cores.len()
    }

    /// Resets every environment (seeds as in the type docs) and fills the buffers.
    pub fn reset(&mut self, seed: u64) -> VecStep<'_> {
        for (i, s) in self.streams.iter_mut().enumerate() {
            *s = (deal_seed(seed, i as u64), 0);
        }
        self.rewards.fill(0.0);
        self.terminated.fill(false);
        self.truncated.fill(false);
        let pool = self.pool.clone();
        let obs = self.obs.as_slice_mut().expect("owned buffer is contiguous");
        let masks = self
            .masks
            .as_slice_mut()
            .expect("owned buffer is contiguous");
        let cores = &mut self.cores;
        let streams = &self.streams;
        let infos = &mut self.infos;
        let work = move || {
            cores
                .par_iter_mut()
                .zip(obs.par_chunks_mut(OBS_LEN))
                .zip(masks.par_chunks_mut(ACTION_SPACE_SIZE))
                .zip(streams.par_iter())
                .zip(infos.par_iter_mut())
                .for_each(|((((core, obs), mask), &(stream, k)), info)| {
                    core.reset(deal_seed(stream, k));
                    core.observe(obs, mask);
                    *info = *core.info();
                });
        };
        install(pool.as_deref(), work);
        self.started = true;
        self.view()
    }

    /// Steps environment `i` with `actions[i]` for every `i`, resetting those whose deal
    /// ends. Every action is checked first: an illegal one is an error naming the
    /// environment, and then no environment is stepped.
    pub fn step(&mut self, actions: &[usize]) -> Result<VecStep<'_>, VecEnvError> {
        let mut obs = std::mem::take(&mut self.obs);
        let stepped = self.step_impl(actions, obs.as_slice_mut().expect("owned, contiguous"));
        self.obs = obs;
        stepped?;
        Ok(self.view())
    }

    /// [`VecEnv::step`] writing the observations into `obs_out` (`N * OBS_LEN` values, row
    /// `i` for environment `i`) instead of the environment's own buffer, which is left as it
    /// was: for callers that hand each step's observations to someone else (the Python
    /// bindings write straight into a new numpy array). Masks, rewards and flags are updated
    /// as by `step`.
    pub fn step_into(&mut self, actions: &[usize], obs_out: &mut [f32]) -> Result<(), VecEnvError> {
        if obs_out.len() != self.cores.len() * OBS_LEN {
            return Err(VecEnvError {
                env: 0,
                source: EnvError::ObsShape(taisim_agents::ObsShapeError {
                    found: [obs_out.len() / OBS_WIDTH.max(1), OBS_WIDTH],
                    expected: [self.cores.len() * OBS_CHANNELS, OBS_WIDTH],
                }),
            });
        }
        self.step_impl(actions, obs_out)
    }

    fn step_impl(&mut self, actions: &[usize], obs: &mut [f32]) -> Result<(), VecEnvError> {
        if actions.len() != self.cores.len() {
            return Err(VecEnvError {
                env: actions.len().min(self.cores.len()),
                source: EnvError::IllegalAction {
                    index: actions.len(),
                    name: format!(
                        "{} actions given for {} environments",
                        actions.len(),
                        self.cores.len()
                    ),
                    legal: String::new(),
                },
            });
        }
        if !self.started {
            return Err(VecEnvError {
                env: 0,
                source: EnvError::NeedsReset,
            });
        }
        for (i, ((core, &a), checked)) in self
            .cores
            .iter()
            .zip(actions)
            .zip(&mut self.checked)
            .enumerate()
        {
            let mask = self.masks.row(i);
            *checked = core
                .check(a, mask.as_slice().expect("row of a standard array"))
                .map_err(|source| VecEnvError { env: i, source })?;
        }
        let pool = self.pool.clone();
        let masks = self
            .masks
            .as_slice_mut()
            .expect("owned buffer is contiguous");
        let rewards = self.rewards.as_slice_mut().expect("contiguous");
        let terminated = self.terminated.as_slice_mut().expect("contiguous");
        let truncated = self.truncated.as_slice_mut().expect("contiguous");
        let cores = &mut self.cores;
        let streams = &mut self.streams;
        let infos = &mut self.infos;
        let checked = &self.checked;
        let work = move || {
            cores
                .par_iter_mut()
                .zip(checked.par_iter())
                .zip(obs.par_chunks_mut(OBS_LEN))
                .zip(masks.par_chunks_mut(ACTION_SPACE_SIZE))
                .zip(rewards.par_iter_mut())
                .zip(terminated.par_iter_mut())
                .zip(truncated.par_iter_mut())
                .zip(streams.par_iter_mut())
                .zip(infos.par_iter_mut())
                .for_each(
                    |(
                        (((((((core, &action), obs), mask), reward), term), trunc), stream),
                        info,
                    )| {
                        let t = core.play(action);
                        *reward = t.reward;
                        *term = t.terminated;
                        *trunc = t.truncated;
                        *info = t.info;
                        if t.terminated {
                            stream.1 += 1;
                            core.reset(deal_seed(stream.0, stream.1));
                        }
                        core.observe(obs, mask);
                    },
                );
        };
        install(pool.as_deref(), work);
        Ok(())
    }

    fn view(&self) -> VecStep<'_> {
        VecStep {
            obs: self.obs.view(),
            masks: self.masks.view(),
            rewards: self.rewards.view(),
            terminated: self.terminated.view(),
            truncated: self.truncated.view(),
        }
    }

    /// The observations, `(N, OBS_CHANNELS, OBS_WIDTH)`.
    pub fn observations(&self) -> ArrayView3<'_, f32> {
        self.obs.view()
    }

    /// The masks, `(N, ACTION_SPACE_SIZE)`.
    pub fn masks(&self) -> ArrayView2<'_, u8> {
        self.masks.view()
    }

    pub fn rewards(&self) -> ArrayView1<'_, f32> {
        self.rewards.view()
    }

    pub fn terminated(&self) -> ArrayView1<'_, bool> {
        self.terminated.view()
    }

    pub fn truncated(&self) -> ArrayView1<'_, bool> {
        self.truncated.view()
    }

    /// Environment `i`'s info: the finished deal's when it just auto-reset, else the
    /// current deal's.
    pub fn info(&self, i: usize) -> &Info {
        &self.infos[i]
    }
}

/// Runs `work` on `pool`, or on rayon's global pool.
fn install(pool: Option<&rayon::ThreadPool>, work: impl FnOnce() + Send) {
    match pool {
        Some(pool) => pool.install(work),
        None => work(),
    }
}
