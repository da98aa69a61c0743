//! The single-agent environment: the learner holds one seat, built-in agents the others.

use ndarray::{Array2, ArrayView2, ArrayViewMut2};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use taisim_agents::space::{action_index, index_name, is_responding};
use taisim_agents::{
    build_agents_with, encode, exec::first_fault, parse_agents, see_step, Agent, AgentParseError,
    AgentSpec, BotFault, BuiltinAgent, ExecSettings, ObsEncoder, ObsShapeError, PolicyError,
    ACTION_SPACE_SIZE, OBS_CHANNELS, OBS_WIDTH,
};

use taisim_score::Variant;
use taisim_sim::{
    deal_seed, Action, ActionList, Deal, DealContext, DealResult, Rules, RulesError, Seat, Tile,
    Wind,
};

use crate::reward::{Reward, RewardError, RewardKind};

/// How an environment is set up.
#[derive(Clone, Debug, PartialEq)]
pub struct EnvConfig {
    /// The variant (taiwan16 by default): its engine rules deal every deal, and the points
    /// reward settles under it, so the two cannot disagree.
    pub variant: Arc<Variant>,
    /// The seat the learner holds.
    pub seat: Seat,
    /// The agents of the four seats, by seat; the learner's entry is ignored.
    pub opponents: [AgentSpec; 4],
    pub reward: RewardKind,
    /// `None` (the default): each deal's dealer and round wind are drawn from its seed, so the
    /// learner meets every seat wind; `Some`: every deal uses this context.
    pub context: Option<DealContext>,
    /// How `exec:` opponents are run (their per-decision timeout).
    pub bots: ExecSettings,
}

impl Default for EnvConfig {
    fn default() -> EnvConfig {
        EnvConfig {
            variant: Arc::new(default_variant()),
            seat: Wind::East,
            opponents: [
                AgentSpec::Random,
                AgentSpec::Random,
                AgentSpec::Random,
                AgentSpec::Random,
            ],
            reward: RewardKind::WinLoss,
            context: None,
            bots: ExecSettings::default(),
        }
    }
}

/// The shipped default variant.
pub(crate) fn default_variant() -> Variant {
    // The shipped files are parsed by the sim crate's own tests; one that failed would fail
    // every test before this one.
    Variant::builtin(Variant::DEFAULT).expect("the shipped default variant loads")
}

impl EnvConfig {
    /// The default configuration under `variant`, with `reward` computed under it.
    pub fn from_variant(variant: Variant, reward: RewardKind) -> EnvConfig {
        EnvConfig {
            variant: Arc::new(variant),
            reward,
            ..EnvConfig::default()
        }
    }

    /// The engine rules of the deals: the variant's.
    pub fn rules(&self) -> Rules {
        self.variant.rules()
    }

    /// The default configuration with opponents given as `--agents` is: one name for all
    /// seats, or four comma-separated names in seat order E, S, W, N (the learner's entry is
    /// ignored).
    pub fn with_opponents(names: &str) -> Result<EnvConfig, AgentParseError> {
        Ok(EnvConfig {
            opponents: parse_agents(names)?,
            ..EnvConfig::default()
        })
    }
}

/// Why an environment could not be made or stepped.
#[derive(Debug, thiserror::Error)]
pub enum EnvError {
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error(transparent)]
    Reward(#[from] RewardError),
    #[error(transparent)]
    AgentName(#[from] AgentParseError),
    #[error(transparent)]
    Policy(#[from] PolicyError),
    #[error(transparent)]
    ObsShape(#[from] ObsShapeError),
    #[error("mask buffer holds {0} bytes, expected {ACTION_SPACE_SIZE}")]
    MaskLength(usize),
    /// A batch reset given another number of seed streams than it has environments.
    #[error(
        "{given} seeds given for a batch of {num_envs} environments: give one per environment"
    )]
    Streams { given: usize, num_envs: usize },
    #[error("the environment must be reset before it is stepped (after creation or after the deal ended)")]
    NeedsReset,
    #[error("action {index} ({name}) is not legal now; legal: {legal}")]
    IllegalAction {
        index: usize,
        /// The index's name (`discard_5m`, …) or `out of range`.
        name: String,
        /// The legal indices with their names, e.g. `3 (discard_4m), 143 (pass)`.
        legal: String,
    },
    #[error("agent {agent} is terminated: step it with no action (the dead step)")]
    DeadStepExpected { agent: Seat },
    #[error("agent {agent} must choose an action; legal: {legal}")]
    ActionRequired { agent: Seat, legal: String },
    /// An `exec:` opponent failed: the deal it failed in cannot go on (reset to play another,
    /// which starts the bot again only if it is fixed).
    #[error("{0}")]
    Bot(Box<BotFault>),
    /// The cancel flag ([`Env::cancel_on`]) was set while the other seats played: the deal
    /// was left unfinished.
    #[error("stopped from outside (Ctrl-C) while the other seats played: the deal was abandoned; reset the environment to play another")]
    Cancelled,
}

/// The action space as every out-of-range message names it: "the action space is 0 to 143".
/// Rust's `0..144` reads to most users as a range that holds 144, which is refused.
pub(crate) fn action_space_words() -> String {
    format!("the action space is 0 to {}", ACTION_SPACE_SIZE - 1)
}

impl EnvError {
    pub(crate) fn illegal(index: usize, mask: &[u8]) -> EnvError {
        let name =
            index_name(index).unwrap_or_else(|| format!("out of range: {}", action_space_words()));
        EnvError::IllegalAction {
            index,
            name,
            legal: legal_names(mask),
        }
    }
}

/// `3 (discard_4m), 143 (pass)`: the legal indices of a mask with their names.
pub(crate) fn legal_names(mask: &[u8]) -> String {
    mask.iter()
        .enumerate()
        .filter(|(_, &m)| m != 0)
        .map(|(i, _)| format!("{i} ({})", index_name(i).unwrap_or_default()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a step or reset reports besides the observation.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Info {
    /// The seed the deal was dealt from (`Deal::new(rules, deal_seed, context)` replays it).
    pub deal_seed: u64,
    pub context: DealContext,
    /// The learner's seat.
    pub seat: Seat,
    /// Decisions taken in the deal so far, every seat's.
    pub decisions: u16,
    /// The learner's steps in the deal so far.
    pub learner_steps: u32,
    /// The deal's result, once it is over.
    pub result: Option<DealResult>,
    /// Every seat's reward for this step, by seat (the learner's is `rewards[seat]`).
    pub rewards: [f32; 4],
    /// The deal's wild kind (taizhou's 得牌, the turned-up indicator's kind; public, as the
    /// observation's wild row shows it), `None` without a wild.
    pub wild: Option<Tile>,
}

/// What one step returns besides the observation and mask.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Transition {
    pub reward: f32,
    /// The deal ended (a win or an exhaustive draw).
    pub terminated: bool,
    /// Always false: a deal always ends by itself (the wall runs out), so nothing cuts one
    /// short. Kept for the Gymnasium signature.
    pub truncated: bool,
    pub info: Info,
}

/// The seed of deal `index` of the seed stream `stream`: the stream's own seed first (so a
/// reset with seed `s` deals the deal seeded `s`), then `deal_seed(stream, index)`. An
/// environment plays its stream's deals in order, skipping those that end before the
/// learner's first decision.
pub const fn stream_deal(stream: u64, index: u64) -> u64 {
    if index == 0 {
        stream
    } else {
        deal_seed(stream, index)
    }
}

/// The dealer and round wind for a deal drawn from its seed, when the configuration fixes
/// none.
pub(crate) fn context_for(config_context: Option<DealContext>, seed: u64) -> DealContext {
    config_context.unwrap_or_else(|| DealContext::drawn(seed))
}

/// The logic of the single-agent environment, without observation buffers (a [`VecEnv`]
/// keeps its buffers in one `(N, …)` array).
///
/// [`VecEnv`]: crate::VecEnv
#[derive(Clone, Debug)]
pub(crate) struct Core {
    /// The variant the deals are played and rewarded under (a search reviewing the
    /// learner's decision scores by it), and its rules.
    variant: Arc<Variant>,
    rules: Rules,
    seat: Seat,
    reward: Reward,
    context: Option<DealContext>,
    agents: [BuiltinAgent; 4],
    /// Some agent sees every step (an `exec:` opponent): told each action and the end.
    watching: bool,
    /// The first fault of an `exec:` opponent.
    fault: Option<Box<BotFault>>,
    /// Set from outside to stop the other seats' play ([`Core::cancel_on`]).
    cancel: Option<Arc<AtomicBool>>,
    /// The last reset or step was stopped by `cancel`: the deal was abandoned.
    cancelled: bool,
    /// The seed stream the last reset started, and the index in it of the deal dealt.
    stream: (u64, u64),
    deal: Deal,
    /// The learner's legal actions while it is to act.
    legal: ActionList,
    running: bool,
    info: Info,
    /// Keeps what the learner's observations took from the river, so each one reads only
    /// the new discards; forgotten whenever a new deal is dealt.
    encoder: ObsEncoder,
}

impl Core {
    pub(crate) fn new(config: &EnvConfig) -> Result<Core, EnvError> {
        let rules = config.rules();
        rules.validate()?;
        let agents = build_agents_with(&config.opponents, &config.variant, &config.bots)?;
        let watching = agents.iter().any(Agent::sees_steps);
        let context = context_for(config.context, 0);
        let deal = Deal::new(rules, 0, context)?;
        let wild = deal.wild();
        Ok(Core {
            variant: Arc::clone(&config.variant),
            rules,
            seat: config.seat,
            reward: config.reward.under(&config.variant),
            context: config.context,
            agents,
            watching,
            fault: None,
            cancel: None,
            cancelled: false,
            stream: (0, 0),
            deal,
            legal: ActionList::new(),
            running: false,
            info: Info {
                deal_seed: 0,
                context,
                seat: config.seat,
                decisions: 0,
                learner_steps: 0,
                result: None,
                rewards: [0.0; 4],
                wild,
            },
            encoder: ObsEncoder::new(),
        })
    }

    /// Deals the first deal of the seed stream `seed` ([`stream_deal`]) and plays the other
    /// seats until the learner must decide. A deal that ends before the learner's first
    /// decision (a heavenly win, a flower win during the deal) is skipped for the stream's
    /// next. Stopped by `cancel`, it leaves the deal unfinished and no deal running.
    pub(crate) fn reset(&mut self, seed: u64) {
        self.deal_from(seed, 0);
    }

    /// Deals the deal after the last one dealt in the last reset's stream, skipping as
    /// [`Core::reset`] does: an environment's deals are its stream's, in order.
    pub(crate) fn reset_next(&mut self) {
        let (stream, index) = self.stream;
        self.deal_from(stream, index.wrapping_add(1));
    }

    /// Deals the deal at `index` of the stream `stream`, or the first after it the learner
    /// decides in.
    fn deal_from(&mut self, stream: u64, index: u64) {
        self.cancelled = false;
        let mut attempt = index;
        loop {
            self.stream = (stream, attempt);
            let s = stream_deal(stream, attempt);
            let context = context_for(self.context, s);
            self.deal = Deal::new(self.rules, s, context).expect("rules validated when built");
            self.encoder.forget();
            for seat in Seat::ALL {
                self.agents[seat as usize].reset(s, seat);
            }
            self.info = Info {
                deal_seed: s,
                context,
                seat: self.seat,
                decisions: 0,
                learner_steps: 0,
                result: None,
                rewards: [0.0; 4],
                wild: self.deal.wild(),
            };
            let running = self.advance();
            self.note_fault();
            if self.fault.is_some() || self.cancelled {
                self.running = false;
                return;
            }
            if running {
                self.running = true;
                self.info.decisions = self.deal.steps();
                return;
            }
            attempt = attempt.wrapping_add(1);
        }
    }

    /// Plays the other seats until the learner must decide (true, with its legal actions in
    /// `self.legal`), the deal ends (false), or the cancel flag is found set before another
    /// seat's decision (false, with `cancelled` set and the deal left where it was).
    fn advance(&mut self) -> bool {
        while let Some(seat) = self.deal.to_act() {
            if self
                .cancel
                .as_deref()
                .is_some_and(|c| c.load(Ordering::Relaxed))
            {
                self.abandon();
                return false;
            }
            if seat == self.seat {
                self.deal.legal_actions(&mut self.legal);
                return true;
            }
            let action = self.agents[seat as usize].act_in(&self.deal, seat, &mut self.legal);
            debug_assert!(self.deal.is_legal(action));
            if self.watching {
                see_step(&mut self.agents, &self.deal, Some(action));
            }
            self.deal.play_unchecked(action);
        }
        self.legal.clear();
        if self.watching {
            see_step(&mut self.agents, &self.deal, None);
        }
        false
    }

    /// Stops the other seats' play once `flag` is set: a search opponent's decision under way
    /// ends early, an `exec:` opponent's wait ends (and the bot with it), and the reset or
    /// step abandons its deal ([`Core::cancelled`]). The flag replaces any given before.
    pub(crate) fn cancel_on(&mut self, flag: &Arc<AtomicBool>) {
        self.cancel = Some(Arc::clone(flag));
        for a in &mut self.agents {
            a.cancel_on(flag);
        }
    }

    /// Whether the last reset or step was stopped by the cancel flag.
    pub(crate) fn cancelled(&self) -> bool {
        self.cancelled
    }

    /// Leaves the deal under way unfinished, no deal running: what a stop by the cancel flag
    /// does.
    pub(crate) fn abandon(&mut self) {
        self.cancelled = true;
        self.running = false;
        self.legal.clear();
    }

    /// Whether an opponent may take long over a decision (a search, an `exec:` bot): what
    /// makes a step worth stopping from outside.
    pub(crate) fn opponents_take_time(&self) -> bool {
        self.agents
            .iter()
            .enumerate()
            .any(|(i, a)| i != self.seat as usize && a.may_take_long())
    }

    /// Records an `exec:` opponent's first fault (it then answers the first legal action, so
    /// the deal it failed in must not be learned from).
    fn note_fault(&mut self) {
        if self.watching && self.fault.is_none() {
            self.fault = first_fault(&self.agents).map(Box::new);
        }
    }

    /// The first fault of an `exec:` opponent, if any.
    pub(crate) fn fault(&self) -> Option<&BotFault> {
        self.fault.as_deref()
    }

    /// The legal action at `index`, if it is legal now.
    fn legal_at(&self, index: usize) -> Option<Action> {
        let offer = self.deal.tile_on_offer();
        self.legal
            .iter()
            .copied()
            .find(|&a| action_index(a, offer) == Some(index))
    }

    /// Checks that `index` may be played now; the state is untouched either way.
    pub(crate) fn check(&self, index: usize, mask: &[u8]) -> Result<Action, EnvError> {
        if let Some(f) = &self.fault {
            return Err(EnvError::Bot(f.clone()));
        }
        if !self.running {
            return Err(EnvError::NeedsReset);
        }
        self.legal_at(index)
            .ok_or_else(|| EnvError::illegal(index, mask))
    }

    /// Plays a checked learner action and the other seats after it.
    pub(crate) fn play(&mut self, action: Action) -> Transition {
        if self.watching {
            see_step(&mut self.agents, &self.deal, Some(action));
        }
        self.deal.play_unchecked(action);
        self.info.learner_steps += 1;
        self.cancelled = false;
        let terminated = !self.advance();
        self.note_fault();
        self.info.decisions = self.deal.steps();
        let mut reward = 0.0;
        if self.cancelled {
            return Transition {
                reward,
                terminated: false,
                truncated: false,
                info: self.info,
            };
        }
        if terminated {
            self.running = false;
            self.info.result = self.deal.result().copied();
            self.info.rewards = self
                .reward
                .rewards(&self.deal)
                .expect("a deal played under the variant's own rules scores under it (tested across variants)");
            reward = self.info.rewards[self.seat as usize];
        }
        Transition {
            reward,
            terminated,
            truncated: false,
            info: self.info,
        }
    }

    /// Writes the learner's observation and mask (all zeros once the deal is over).
    #[inline]
    pub(crate) fn observe(&mut self, obs: &mut [f32], mask: &mut [u8]) {
        self.encoder.encode_slice(&self.deal.view(self.seat), obs);
        if self.running {
            taisim_agents::write_mask(&self.legal, self.deal.tile_on_offer(), mask);
        } else {
            mask.fill(0);
        }
    }

    pub(crate) fn deal(&self) -> &Deal {
        &self.deal
    }

    pub(crate) fn info(&self) -> &Info {
        &self.info
    }

    pub(crate) fn is_running(&self) -> bool {
        self.running
    }

    pub(crate) fn seat(&self) -> Seat {
        self.seat
    }

    pub(crate) fn variant(&self) -> &Arc<Variant> {
        &self.variant
    }

    pub(crate) fn legal(&self) -> &ActionList {
        &self.legal
    }

    pub(crate) fn responding(&self) -> bool {
        is_responding(&self.deal)
    }

    pub(crate) fn has_outside_players(&self) -> bool {
        self.watching
    }
}

/// An observation: the tensor and the legal-action mask, borrowed from the environment's
/// buffers (valid until its next call).
#[derive(Copy, Clone, Debug)]
pub struct Observation<'a> {
    /// Shape [`obs_shape`](taisim_agents::obs_shape)`(OBS_VERSION)`.
    pub obs: ArrayView2<'a, f32>,
    /// 1 where the action index is legal; all zeros once the deal is over.
    pub mask: &'a [u8; ACTION_SPACE_SIZE],
}

/// What [`Env::step`] returns: Gymnasium's `(observation, reward, terminated, truncated,
/// info)` with the mask beside the observation.
#[derive(Copy, Clone, Debug)]
pub struct Step<'a> {
    pub observation: Observation<'a>,
    pub reward: f32,
    pub terminated: bool,
    pub truncated: bool,
    pub info: Info,
}

/// The single-agent environment. The learner holds [`EnvConfig::seat`]; the other seats are
/// played by the configured built-in agents between the learner's decisions, so every step
/// is one decision of the learner: a turn (discard, declare ready, kong, win) or an answer
/// to a discard, kong or flower (claim, rob, pass).
///
/// ```
/// use taisim_env::{Env, EnvConfig};
///
/// let mut env = Env::new(&EnvConfig::with_opponents("greedy").unwrap()).unwrap();
/// let mut obs = env.reset(42);
/// loop {
///     // A trivial policy: the first legal index.
///     let a = obs.mask.iter().position(|&m| m == 1).unwrap();
///     let step = env.step(a).unwrap();
///     if step.terminated {
///         println!("reward {} after {} steps", step.reward, step.info.learner_steps);
///         break;
///     }
///     obs = step.observation;
/// }
/// ```
#[derive(Clone, Debug)]
pub struct Env {
    core: Core,
    obs: Array2<f32>,
    mask: [u8; ACTION_SPACE_SIZE],
}

impl Env {
    /// Builds the environment (validating the rules and reward, loading policy opponents).
    /// Call [`Env::reset`] before stepping.
    pub fn new(config: &EnvConfig) -> Result<Env, EnvError> {
        Ok(Env {
            core: Core::new(config)?,
            obs: Array2::zeros((OBS_CHANNELS, OBS_WIDTH)),
            mask: [0; ACTION_SPACE_SIZE],
        })
    }

    /// Starts a deal from `seed` (the deal's wall and the opponents' choices follow from it
    /// alone) and returns the learner's first observation. Stopped by the cancel flag
    /// ([`Env::cancel_on`]), it returns with no deal running ([`Env::was_cancelled`]).
    pub fn reset(&mut self, seed: u64) -> Observation<'_> {
        self.core.reset(seed);
        self.refresh();
        self.observation()
    }

    /// Starts the next deal of the seed stream the last [`Env::reset`] started (its deals
    /// are `stream_deal(seed, k)`, `k = 0, 1, …`, those the learner decides nothing in
    /// skipped): a batch's environment given the stream `seed` ([`VecEnv::reset_streams`])
    /// plays the same deals through its auto-resets. Before any reset, the stream is 0's.
    ///
    /// [`VecEnv::reset_streams`]: crate::VecEnv::reset_streams
    pub fn reset_next(&mut self) -> Observation<'_> {
        self.core.reset_next();
        self.refresh();
        self.observation()
    }

    /// Plays action `index` for the learner, then the other seats until the learner must
    /// decide again or the deal ends. An illegal index (or a step before reset / after the
    /// end) is an error that leaves the environment unchanged.
    pub fn step(&mut self, index: usize) -> Result<Step<'_>, EnvError> {
        let action = self.core.check(index, &self.mask)?;
        let t = self.core.play(action);
        self.stopped()?;
        self.refresh();
        Ok(Step {
            observation: self.observation(),
            reward: t.reward,
            terminated: t.terminated,
            truncated: t.truncated,
            info: t.info,
        })
    }

    /// [`Env::reset`] writing the observation and mask into the caller's buffers (shape
    /// `(OBS_CHANNELS, OBS_WIDTH)` and `ACTION_SPACE_SIZE` bytes). Allocates nothing.
    pub fn reset_into(
        &mut self,
        seed: u64,
        obs: ArrayViewMut2<'_, f32>,
        mask: &mut [u8],
    ) -> Result<Info, EnvError> {
        check_mask(mask)?;
        self.core.reset(seed);
        self.stopped()?;
        self.refresh();
        self.copy_out(obs, mask)?;
        Ok(*self.core.info())
    }

    /// [`Env::step`] writing the observation and mask into the caller's buffers. Allocates
    /// nothing (except the message of an illegal-action error).
    pub fn step_into(
        &mut self,
        index: usize,
        obs: ArrayViewMut2<'_, f32>,
        mask: &mut [u8],
    ) -> Result<Transition, EnvError> {
        check_mask(mask)?;
        let action = self.core.check(index, &self.mask)?;
        let t = self.core.play(action);
        self.stopped()?;
        self.refresh();
        self.copy_out(obs, mask)?;
        Ok(t)
    }

    fn copy_out(&self, mut obs: ArrayViewMut2<'_, f32>, mask: &mut [u8]) -> Result<(), EnvError> {
        let found = [obs.nrows(), obs.ncols()];
        if found != [OBS_CHANNELS, OBS_WIDTH] {
            return Err(ObsShapeError {
                found,
                expected: [OBS_CHANNELS, OBS_WIDTH],
            }
            .into());
        }
        obs.assign(&self.obs);
        mask.copy_from_slice(&self.mask);
        Ok(())
    }

    /// The cancel flag's stop, or else an `exec:` opponent's fault, as the error of the reset
    /// or step that met it. The stop comes first: a bot whose wait the flag ended is at fault
    /// only for being stopped (its fault is then the next reset's error).
    fn stopped(&mut self) -> Result<(), EnvError> {
        let stopped = if self.core.cancelled() {
            EnvError::Cancelled
        } else if let Some(f) = self.core.fault() {
            EnvError::Bot(Box::new(f.clone()))
        } else {
            return Ok(());
        };
        self.refresh();
        Err(stopped)
    }

    /// Abandons the deal under way, as a stop by the cancel flag does: for a caller whose
    /// own wait was stopped as the reset or step ended (Python's Ctrl-C landing then), so
    /// that what it reports (the deal abandoned) is what the environment holds.
    pub fn abandon(&mut self) {
        self.core.abandon();
        self.refresh();
    }

    fn refresh(&mut self) {
        let obs = self.obs.as_slice_mut().expect("owned buffer is contiguous");
        self.core.observe(obs, &mut self.mask);
    }

    /// The current observation and mask.
    pub fn observation(&self) -> Observation<'_> {
        Observation {
            obs: self.obs.view(),
            mask: &self.mask,
        }
    }

    /// Writes the learner's current observation into any buffer of the right shape.
    pub fn observe_into(&self, obs: ArrayViewMut2<'_, f32>) -> Result<(), ObsShapeError> {
        encode(&self.core.deal().view(self.core.seat()), obs)
    }

    /// The current mask.
    pub fn action_mask(&self) -> &[u8; ACTION_SPACE_SIZE] {
        &self.mask
    }

    /// The learner's legal actions now, in the engine's order (empty when not its decision).
    pub fn legal_actions(&self) -> &ActionList {
        self.core.legal()
    }

    /// Whether the learner answers a tile or flower on offer (rather than playing its turn).
    pub fn is_responding(&self) -> bool {
        self.core.responding()
    }

    /// The deal being played (for inspection: it shows every seat's hand).
    pub fn deal(&self) -> &Deal {
        self.core.deal()
    }

    /// The first fault of an `exec:` opponent, if one failed (a reset or step after it is an
    /// error).
    pub fn bot_fault(&self) -> Option<&BotFault> {
        self.core.fault()
    }

    /// The latest info.
    pub fn info(&self) -> &Info {
        self.core.info()
    }

    /// Whether a deal is in progress (reset called and the deal not over).
    pub fn is_running(&self) -> bool {
        self.core.is_running()
    }

    pub fn seat(&self) -> Seat {
        self.core.seat()
    }

    /// The variant the deals are played and rewarded under.
    pub fn variant(&self) -> &Arc<Variant> {
        self.core.variant()
    }

    /// Stops the opponents' play once `flag` is set, from any thread (Python's Ctrl-C sets
    /// it): a search opponent's decision under way ends early, an `exec:` opponent's wait
    /// ends and the bot is ended ([`FaultKind::Cancelled`](taisim_agents::FaultKind)), and
    /// the step (`Err(EnvError::Cancelled)`) or reset ([`Env::was_cancelled`]) leaves its
    /// deal unfinished: reset to play another, once the flag is cleared. A clone shares the
    /// flag until it is given its own.
    pub fn cancel_on(&mut self, flag: &Arc<AtomicBool>) {
        self.core.cancel_on(flag);
    }

    /// Whether the last reset or step was stopped by the cancel flag.
    pub fn was_cancelled(&self) -> bool {
        self.core.cancelled()
    }

    /// Whether an opponent may take long over a decision (a search, an `exec:` bot): the
    /// environments worth stopping from outside.
    pub fn opponents_take_time(&self) -> bool {
        self.core.opponents_take_time()
    }

    /// Whether an opponent is a program outside taisim (`exec:`). A clone of such an
    /// environment shares the process, which knows nothing of the clone's deal, so it cannot
    /// go on as the original does: only environments without one copy faithfully.
    pub fn has_outside_players(&self) -> bool {
        self.core.has_outside_players()
    }
}

fn check_mask(mask: &[u8]) -> Result<(), EnvError> {
    if mask.len() != ACTION_SPACE_SIZE {
        return Err(EnvError::MaskLength(mask.len()));
    }
    Ok(())
}
