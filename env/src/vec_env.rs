//! `N` single-agent environments stepped together with rayon into preallocated `(N, …)`
//! buffers, each resetting itself when its deal ends.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use ndarray::{Array1, Array2, Array3, ArrayView1, ArrayView2, ArrayView3};
use rayon::prelude::*;
use taisim_agents::{ACTION_SPACE_SIZE, OBS_CHANNELS, OBS_LEN, OBS_WIDTH};
use taisim_score::Variant;
use taisim_sim::{deal_seed, Action, Deal, Seat};

use crate::single::{Core, EnvConfig, EnvError, Info};

/// An error of one environment of a batch: no environment was stepped, but for an `exec:`
/// opponent's fault ([`EnvError::Bot`]), found after the step.
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
/// Seeds: [`VecEnv::reset`]`(s)` gives environment `i` the seed stream `deal_seed(s, i)`;
/// [`VecEnv::reset_streams`] names each environment's stream instead (`reset(s)` is
/// `reset_streams` of `deal_seed(s, i)` for every `i`). An environment plays its stream's
/// deals in order, as one [`Env`](crate::Env) does from `reset(stream)` and then
/// [`reset_next`](crate::Env::reset_next) at each deal's end: the reset deals
/// [`stream_deal`](crate::stream_deal)`(stream, 0)`, the stream's own seed, and each
/// auto-reset the next (deals the learner decides nothing in skipped). Each environment's
/// course depends on its own stream and actions alone, so the buffers are the same whatever
/// the thread count, an environment given a stream plays the same deals at any place in any
/// batch, and the same as an `Env` given that seed.
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
    /// Per environment: the seed stream its last reset started.
    streams: Vec<u64>,
    /// The finished deal's info for environments that just auto-reset, else the current.
    infos: Vec<Info>,
    /// The actions of the step being played, as checked before any environment moves: the
    /// parallel pass plays them without looking each one up in the legal list again.
    checked: Vec<Action>,
    threads: Threads,
    started: bool,
}

impl VecEnv {
    /// `num_envs` environments stepped on as many threads as rayon's global pool has (the
    /// caller's among them, see [`VecEnv::with_threads`]).
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
            streams: vec![0; num_envs],
            infos: vec![info; num_envs],
            checked: vec![Action::Pass; num_envs],
            threads: Threads {
                count: rayon::current_num_threads(),
                pool: None,
            },
            started: false,
        })
    }

    /// Like [`VecEnv::new`], stepping on `threads` threads, the calling thread included: it
    /// steps its share of the batch instead of sleeping while workers do (on a machine
    /// where `threads` is the core count, a pool of `threads` workers beside the caller
    /// would put one thread more than cores to work). `threads = 1` steps every environment
    /// on the calling thread.
    pub fn with_threads(
        num_envs: usize,
        config: &EnvConfig,
        threads: usize,
    ) -> Result<VecEnv, EnvError> {
        let mut envs = VecEnv::new(num_envs, config)?;
        let threads = threads.max(1);
        envs.threads.count = threads;
        if threads > 1 && threads != rayon::current_num_threads() {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads - 1)
                .build()
                .expect("cannot start worker threads");
            envs.threads.pool = Some(Arc::new(pool));
        }
        Ok(envs)
    }

    /// Stops the batch's opponents once `flag` is set, from any thread (Python's Ctrl-C sets
    /// it), as [`Env::cancel_on`](crate::Env::cancel_on) does for one environment. A reset or
    /// step stopped by it is left part played (environments stepped, some perhaps
    /// auto-reset, before the others stopped: the rewards, flags and infos are of no use),
    /// and the batch must be reset (once the flag is cleared) before it is stepped again.
    pub fn cancel_on(&mut self, flag: &Arc<AtomicBool>) {
        for core in &mut self.cores {
            core.cancel_on(flag);
        }
    }

    /// Whether an opponent may take long over a decision (a search, an `exec:` bot).
    pub fn opponents_take_time(&self) -> bool {
        self.cores.first().is_some_and(Core::opponents_take_time)
    }

    /// Abandons every environment's deal, as a stop by the cancel flag does (the batch then
    /// needs a reset): for a caller whose own wait was stopped as the reset or step ended.
    pub fn abandon(&mut self) {
        for core in &mut self.cores {
            core.abandon();
        }
        self.started = false;
    }

    /// Whether the last reset or step was stopped by the cancel flag (the batch then needs a
    /// reset).
    pub fn was_cancelled(&self) -> bool {
        self.cores.iter().any(Core::cancelled)
    }

    /// The first environment whose `exec:` opponent failed, with the fault.
    pub fn bot_fault(&self) -> Option<(usize, &taisim_agents::BotFault)> {
        self.cores
            .iter()
            .enumerate()
            .find_map(|(i, c)| c.fault().map(|f| (i, f)))
    }

    pub fn num_envs(&self) -> usize {
        self.cores.len()
    }

    /// Resets every environment (seeds as in the type docs) and fills the buffers.
    pub fn reset(&mut self, seed: u64) -> VecStep<'_> {
        for (i, s) in self.streams.iter_mut().enumerate() {
            *s = deal_seed(seed, i as u64);
        }
        self.reset_all()
    }

    /// Resets environment `i` on the seed stream `streams[i]` (see the type docs), for
    /// every `i`: one stream per environment, or an error that changes nothing.
    pub fn reset_streams(&mut self, streams: &[u64]) -> Result<VecStep<'_>, EnvError> {
        if streams.len() != self.cores.len() {
            return Err(EnvError::Streams {
                given: streams.len(),
                num_envs: self.cores.len(),
            });
        }
        self.streams.copy_from_slice(streams);
        Ok(self.reset_all())
    }

    /// Deals every environment's current deal of its stream and fills the buffers.
    fn reset_all(&mut self) -> VecStep<'_> {
        self.rewards.fill(0.0);
        self.terminated.fill(false);
        self.truncated.fill(false);
        let mut obs = std::mem::take(&mut self.obs);
        let (lanes, threads) = self.lanes(obs.as_slice_mut().expect("owned, contiguous"));
        threads.spread(lanes, &|lane: Lane<'_>| {
            lane.core.reset(*lane.stream);
            lane.core.observe(lane.obs, lane.mask);
            *lane.info = *lane.core.info();
        });
        self.obs = obs;
        self.started = !self.was_cancelled();
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
        let (lanes, threads) = self.lanes(obs);
        threads.spread(lanes, &|lane: Lane<'_>| {
            let t = lane.core.play(lane.action);
            *lane.reward = t.reward;
            *lane.terminated = t.terminated;
            *lane.truncated = t.truncated;
            *lane.info = t.info;
            if t.terminated {
                lane.core.reset_next();
            }
            lane.core.observe(lane.obs, lane.mask);
        });
        // The cancel flag stopped some environment: the batch is left part played.
        if let Some(env) = self.cores.iter().position(Core::cancelled) {
            self.started = false;
            return Err(VecEnvError {
                env,
                source: EnvError::Cancelled,
            });
        }
        // An exec: opponent that failed stops the batch (the environments were stepped).
        if let Some((env, f)) = self
            .cores
            .iter()
            .enumerate()
            .find_map(|(i, c)| c.fault().map(|f| (i, f)))
        {
            return Err(VecEnvError {
                env,
                source: EnvError::Bot(Box::new(f.clone())),
            });
        }
        Ok(())
    }

    /// Every environment's state and buffer rows, to be shared out over `threads`.
    fn lanes<'a>(&'a mut self, obs: &'a mut [f32]) -> (Lanes<'a>, &'a Threads) {
        let lanes = Lanes {
            cores: &mut self.cores,
            actions: &self.checked,
            obs,
            masks: self.masks.as_slice_mut().expect("owned, contiguous"),
            rewards: self.rewards.as_slice_mut().expect("owned, contiguous"),
            terminated: self.terminated.as_slice_mut().expect("owned, contiguous"),
            truncated: self.truncated.as_slice_mut().expect("owned, contiguous"),
            streams: &self.streams,
            infos: &mut self.infos,
        };
        (lanes, &self.threads)
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

    /// Whether the batch has been reset (before, no deal is dealt).
    pub fn is_started(&self) -> bool {
        self.started
    }

    /// The learner's seat, the same in every environment.
    pub fn seat(&self) -> Seat {
        self.cores[0].seat()
    }

    /// The variant the deals are played and rewarded under, the same in every environment.
    pub fn variant(&self) -> &Arc<Variant> {
        self.cores[0].variant()
    }

    /// Environment `i`'s deal (for inspection: it shows every seat's hand).
    pub fn deal(&self, i: usize) -> &Deal {
        self.cores[i].deal()
    }

    /// `f` of every environment's deal, in order, on as many threads as the batch steps on
    /// (work of seconds, such as a search of each learner's decision: a pool of that width is
    /// built for it when the batch's own count is not rayon's global width). `f` sees one deal
    /// at a time, so what it returns does not depend on the thread count.
    pub fn map_deals<T: Send>(&self, f: impl Fn(&Deal) -> T + Sync) -> Vec<T> {
        let count = self.threads.count;
        let all = || self.cores.par_iter().map(|c| f(c.deal())).collect();
        if count <= 1 {
            self.cores.iter().map(|c| f(c.deal())).collect()
        } else if count == rayon::current_num_threads() {
            all()
        } else {
            rayon::ThreadPoolBuilder::new()
                .num_threads(count)
                .build()
                .expect("cannot start worker threads")
                .install(all)
        }
    }
}

/// How many threads step a batch, and how.
struct Threads {
    /// Threads stepping the batch, the caller's own included.
    count: usize,
    /// `count - 1` workers of the batch's own, when `count` is not the width of rayon's
    /// global pool (see [`Threads::spread`]).
    pool: Option<Arc<rayon::ThreadPool>>,
}

impl Threads {
    /// Runs `f` on every lane, on `self.count` threads at most.
    ///
    /// The calling thread always takes part: a step is a few hundred microseconds of work
    /// between two calls from Python, too short for a sleeping caller to be woken cheaply.
    /// With the global pool's width it joins a pool of that width as its first thread (one
    /// pool per calling thread, kept for the thread's life: [`caller_pool`]) and the batch is
    /// halved as rayon's iterators halve theirs ([`Lanes::run_halves`]), so whichever thread
    /// is free takes the next piece; a caller that cannot join one (already a worker of
    /// another pool) splits on the pool it is in. With another width, the batch is cut in
    /// `count` equal parts, the caller stepping the last while the batch's own `count - 1`
    /// workers step the others. On 2 cores
    /// (`scripts/bench_vecenv.py`, BENCHMARKS.md): about 1.05 M steps/s joined, 0.95 M cut,
    /// 0.78 M with the caller asleep in `ThreadPool::install` and two workers, as before.
    fn spread(&self, lanes: Lanes<'_>, f: &(impl Fn(Lane<'_>) + Sync)) {
        let threads = self.count.min(lanes.len());
        if threads <= 1 {
            return lanes.run(f);
        }
        match &self.pool {
            Some(pool) => {
                let per = lanes.len().div_ceil(threads);
                pool.in_place_scope(|scope| lanes.run_cut(scope, per, f));
            }
            None => caller_pool(|pool| match pool {
                Some(pool) => pool.install(|| lanes.run_halves(rayon::current_num_threads(), f)),
                None => lanes.run_halves(rayon::current_num_threads(), f),
            }),
        }
    }
}

/// Runs `f` with the calling thread's own pool of the global pool's width, which the thread
/// joins as its first worker (`use_current_thread`) the first time; `None` when the thread
/// cannot join one (it is already a worker of another pool).
///
/// A thread belongs to at most one pool for good (rayon keeps its worker state), so there is
/// one such pool per thread, of the global pool's width: rayon work the thread starts later
/// outside a `VecEnv` (a `par_iter`, `join`) runs on this pool instead of the global one,
/// with as many threads. The pool's workers end with the thread.
fn caller_pool<R>(f: impl FnOnce(Option<&rayon::ThreadPool>) -> R) -> R {
    thread_local! {
        static POOL: Option<rayon::ThreadPool> = rayon::ThreadPoolBuilder::new()
            .num_threads(rayon::current_num_threads())
            .use_current_thread()
            .build()
            .ok();
    }
    POOL.with(|pool| f(pool.as_ref()))
}

/// One environment's state and buffer rows.
struct Lane<'a> {
    core: &'a mut Core,
    action: Action,
    obs: &'a mut [f32],
    mask: &'a mut [u8],
    reward: &'a mut f32,
    terminated: &'a mut bool,
    truncated: &'a mut bool,
    stream: &'a u64,
    info: &'a mut Info,
}

/// The lanes of a run of consecutive environments, split without copying.
struct Lanes<'a> {
    cores: &'a mut [Core],
    actions: &'a [Action],
    obs: &'a mut [f32],
    masks: &'a mut [u8],
    rewards: &'a mut [f32],
    terminated: &'a mut [bool],
    truncated: &'a mut [bool],
    streams: &'a [u64],
    infos: &'a mut [Info],
}

impl<'a> Lanes<'a> {
    fn len(&self) -> usize {
        self.cores.len()
    }

    fn split_at(self, mid: usize) -> (Lanes<'a>, Lanes<'a>) {
        let (cores, cores_b) = self.cores.split_at_mut(mid);
        let (actions, actions_b) = self.actions.split_at(mid);
        let (obs, obs_b) = self.obs.split_at_mut(mid * OBS_LEN);
        let (masks, masks_b) = self.masks.split_at_mut(mid * ACTION_SPACE_SIZE);
        let (rewards, rewards_b) = self.rewards.split_at_mut(mid);
        let (terminated, terminated_b) = self.terminated.split_at_mut(mid);
        let (truncated, truncated_b) = self.truncated.split_at_mut(mid);
        let (streams, streams_b) = self.streams.split_at(mid);
        let (infos, infos_b) = self.infos.split_at_mut(mid);
        let head = Lanes {
            cores,
            actions,
            obs,
            masks,
            rewards,
            terminated,
            truncated,
            streams,
            infos,
        };
        let tail = Lanes {
            cores: cores_b,
            actions: actions_b,
            obs: obs_b,
            masks: masks_b,
            rewards: rewards_b,
            terminated: terminated_b,
            truncated: truncated_b,
            streams: streams_b,
            infos: infos_b,
        };
        (head, tail)
    }

    /// `f` on every lane, on this thread.
    fn run(self, f: &impl Fn(Lane<'_>)) {
        let rows = self
            .obs
            .chunks_exact_mut(OBS_LEN)
            .zip(self.masks.chunks_exact_mut(ACTION_SPACE_SIZE));
        for (i, (core, (obs, mask))) in self.cores.iter_mut().zip(rows).enumerate() {
            f(Lane {
                core,
                action: self.actions[i],
                obs,
                mask,
                reward: &mut self.rewards[i],
                terminated: &mut self.terminated[i],
                truncated: &mut self.truncated[i],
                stream: &self.streams[i],
                info: &mut self.infos[i],
            });
        }
    }

    /// `f` on every lane, halving the run with `rayon::join` as rayon's own iterators do:
    /// into about two pieces a thread, each halved again only when another thread steals
    /// it. Lanes cost from a microsecond (random opponents) to hundreds (opponents with a
    /// policy network), so pieces of a fixed size would either leave a few dear lanes on
    /// one thread or hand cheap ones from thread to thread.
    fn run_halves(self, splits: usize, f: &(impl Fn(Lane<'_>) + Sync)) {
        if self.len() <= 1 || splits == 0 {
            return self.run(f);
        }
        let next = |stolen: bool| {
            if stolen {
                rayon::current_num_threads().max(splits / 2)
            } else {
                splits / 2
            }
        };
        let mid = self.len() / 2;
        let (head, tail) = self.split_at(mid);
        rayon::join_context(
            |c| head.run_halves(next(c.migrated()), f),
            |c| tail.run_halves(next(c.migrated()), f),
        );
    }

    /// `f` on every lane: runs of `per` lanes spawned on `scope`'s pool, the last run here.
    fn run_cut<F: Fn(Lane<'_>) + Sync>(self, scope: &rayon::Scope<'a>, per: usize, f: &'a F) {
        let mut rest = self;
        while rest.len() > per {
            let (head, tail) = rest.split_at(per);
            scope.spawn(move |_| head.run(f));
            rest = tail;
        }
        rest.run(f);
    }
}
