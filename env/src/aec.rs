//! The turn-based multi-agent environment, after PettingZoo's AEC API: every seat is an
//! agent, the one to act is [`AecEnv::agent_selection`], and when the deal ends every agent
//! is terminated and then stepped once with `None` to leave (PettingZoo's dead step).

use ndarray::ArrayViewMut2;
use std::sync::Arc;
use taisim_agents::space::action_index;
use taisim_agents::{encode, write_mask, ACTION_SPACE_SIZE};

use taisim_score::Variant;
use taisim_sim::{ActionList, Deal, DealContext, Rules, Seat, SeatSet, Wind};

use crate::reward::{Reward, RewardKind};
use crate::single::{context_for, default_variant, legal_names, stream_deal, EnvError};

/// How an [`AecEnv`] is set up.
#[derive(Clone, Debug, PartialEq)]
pub struct AecConfig {
    /// As [`EnvConfig::variant`](crate::EnvConfig::variant): the rules of the deals and of
    /// the points reward.
    pub variant: Arc<Variant>,
    pub reward: RewardKind,
    /// As [`EnvConfig::context`](crate::EnvConfig::context).
    pub context: Option<DealContext>,
}

impl Default for AecConfig {
    fn default() -> AecConfig {
        AecConfig {
            variant: Arc::new(default_variant()),
            reward: RewardKind::WinLoss,
            context: None,
        }
    }
}

impl AecConfig {
    /// The default configuration under `variant`, with `reward` computed under it.
    pub fn from_variant(variant: Variant, reward: RewardKind) -> AecConfig {
        AecConfig {
            variant: Arc::new(variant),
            reward,
            ..AecConfig::default()
        }
    }
}

/// What [`AecEnv::last`] reports for the selected agent.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Last {
    pub agent: Seat,
    /// Reward accumulated since the agent last acted (PettingZoo's `_cumulative_rewards`).
    pub reward: f32,
    pub terminated: bool,
    pub truncated: bool,
}

/// The four-seat turn-based environment.
///
/// ```
/// use taisim_env::{AecConfig, AecEnv, ACTION_SPACE_SIZE, OBS_CHANNELS, OBS_WIDTH};
/// use ndarray::Array2;
///
/// let mut env = AecEnv::new(AecConfig::default()).unwrap();
/// env.reset(7);
/// let mut obs = Array2::zeros((OBS_CHANNELS, OBS_WIDTH));
/// let mut mask = [0u8; ACTION_SPACE_SIZE];
/// while let Some(_agent) = env.agent_selection() {
///     let last = env.last(obs.view_mut(), &mut mask).unwrap();
///     let action = if last.terminated || last.truncated {
///         None
///     } else {
///         mask.iter().position(|&m| m == 1)
///     };
///     env.step(action).unwrap();
/// }
/// ```
#[derive(Clone, Debug)]
pub struct AecEnv {
    config: AecConfig,
    /// The variant's rules and the reward under it, derived from `config` once.
    rules: Rules,
    reward: Reward,
    deal: Deal,
    legal: ActionList,
    /// Agents not yet removed.
    live: SeatSet,
    selection: Option<Seat>,
    rewards: [f32; 4],
    cumulative: [f32; 4],
    terminations: [bool; 4],
    truncations: [bool; 4],
    /// The seed stream the last reset started, and the index in it of the deal dealt.
    stream: (u64, u64),
}

impl AecEnv {
    /// Builds the environment; call [`AecEnv::reset`] before stepping.
    pub fn new(config: AecConfig) -> Result<AecEnv, EnvError> {
        let rules = config.variant.rules();
        rules.validate()?;
        let deal = Deal::new(rules, 0, context_for(config.context, 0))?;
        Ok(AecEnv {
            reward: config.reward.under(&config.variant),
            rules,
            config,
            deal,
            legal: ActionList::new(),
            live: SeatSet::EMPTY,
            selection: None,
            rewards: [0.0; 4],
            cumulative: [0.0; 4],
            terminations: [false; 4],
            truncations: [false; 4],
            stream: (0, 0),
        })
    }

    /// Starts the deal seeded `seed`, the first of the seed stream `seed`
    /// ([`stream_deal`](crate::stream_deal)): all four agents live, the first to decide
    /// selected.
    pub fn reset(&mut self, seed: u64) {
        self.deal_at(seed, 0);
    }

    /// Starts the next deal of the stream the last [`AecEnv::reset`] started: the stream an
    /// [`Env`](crate::Env) reset with the same seed plays through its
    /// [`reset_next`](crate::Env::reset_next), but for the deals it skips (those that end
    /// before its learner's first decision; this environment has no learner seat to skip
    /// for). Before any reset, the stream is 0's.
    pub fn reset_next(&mut self) {
        let (stream, index) = self.stream;
        self.deal_at(stream, index.wrapping_add(1));
    }

    fn deal_at(&mut self, stream: u64, index: u64) {
        self.stream = (stream, index);
        let seed = stream_deal(stream, index);
        self.deal = Deal::new(self.rules, seed, context_for(self.config.context, seed))
            .expect("rules validated when built");
        self.live = SeatSet(0b1111);
        self.rewards = [0.0; 4];
        self.cumulative = [0.0; 4];
        self.terminations = [false; 4];
        self.truncations = [false; 4];
        self.after_move(Wind::East);
    }

    /// Updates the selection, legal actions, and the end-of-deal rewards after a move.
    fn after_move(&mut self, previous: Seat) {
        match self.deal.to_act() {
            Some(seat) => {
                self.deal.legal_actions(&mut self.legal);
                self.selection = Some(seat);
            }
            None => {
                self.legal.clear();
                if !self.terminations[0] {
                    let r = self
                        .reward
                        .rewards(&self.deal)
                        .expect("a deal played under the variant's own rules scores under it");
                    self.rewards = r;
                    for (c, r) in self.cumulative.iter_mut().zip(r) {
                        *c += r;
                    }
                    self.terminations = [true; 4];
                }
                // Dead steps in turn order from the last mover.
                self.selection = self.live.iter_after(previous).next();
            }
        }
    }

    /// The agents still in the game, in seat order.
    pub fn agents(&self) -> SeatSet {
        self.live
    }

    /// The agent to step next; `None` once every agent has left (or before reset).
    pub fn agent_selection(&self) -> Option<Seat> {
        self.selection
    }

    /// Rewards of the last step, by seat.
    pub fn rewards(&self) -> [f32; 4] {
        self.rewards
    }

    /// Rewards accumulated since each agent last acted, by seat.
    pub fn cumulative_rewards(&self) -> [f32; 4] {
        self.cumulative
    }

    pub fn terminations(&self) -> [bool; 4] {
        self.terminations
    }

    /// Always false: a deal ends by itself.
    pub fn truncations(&self) -> [bool; 4] {
        self.truncations
    }

    /// The variant the deals are played and rewarded under.
    pub fn variant(&self) -> &Arc<Variant> {
        &self.config.variant
    }

    /// The deal being played.
    pub fn deal(&self) -> &Deal {
        &self.deal
    }

    /// Writes `seat`'s observation and its mask (zeros unless it is the seat to decide).
    pub fn observe(
        &self,
        seat: Seat,
        obs: ArrayViewMut2<'_, f32>,
        mask: &mut [u8],
    ) -> Result<(), EnvError> {
        if mask.len() != ACTION_SPACE_SIZE {
            return Err(EnvError::MaskLength(mask.len()));
        }
        encode(&self.deal.view(seat), obs)?;
        if self.deal.to_act() == Some(seat) {
            write_mask(&self.legal, self.deal.tile_on_offer(), mask);
        } else {
            mask.fill(0);
        }
        Ok(())
    }

    /// PettingZoo's `last()`: the selected agent's observation and mask (into the buffers)
    /// and its accumulated reward, termination and truncation.
    pub fn last(&self, obs: ArrayViewMut2<'_, f32>, mask: &mut [u8]) -> Result<Last, EnvError> {
        let agent = self.selection.ok_or(EnvError::NeedsReset)?;
        self.observe(agent, obs, mask)?;
        Ok(Last {
            agent,
            reward: self.cumulative[agent as usize],
            terminated: self.terminations[agent as usize],
            truncated: self.truncations[agent as usize],
        })
    }

    /// Steps the selected agent: `Some(index)` while the deal runs, `None` once it is
    /// terminated (the dead step that removes it). Anything else is an error that leaves the
    /// environment unchanged.
    pub fn step(&mut self, action: Option<usize>) -> Result<(), EnvError> {
        let agent = self.selection.ok_or(EnvError::NeedsReset)?;
        let seat = agent as usize;
        if self.terminations[seat] || self.truncations[seat] {
            if action.is_some() {
                return Err(EnvError::DeadStepExpected { agent });
            }
            self.live.remove(agent);
            self.cumulative[seat] = 0.0;
            // `rewards` are the last step's, and a dead step earns nothing (PettingZoo clears
            // them all here; keeping them would count the deal's rewards once per dead step).
            self.rewards = [0.0; 4];
            self.selection = self.live.iter_after(agent).next();
            return Ok(());
        }
        let offer = self.deal.tile_on_offer();
        let chosen = action.and_then(|index| {
            self.legal
                .iter()
                .copied()
                .find(|&a| action_index(a, offer) == Some(index))
        });
        let Some(chosen) = chosen else {
            let mut mask = [0u8; ACTION_SPACE_SIZE];
            write_mask(&self.legal, offer, &mut mask);
            return Err(match action {
                Some(index) => EnvError::illegal(index, &mask),
                None => EnvError::ActionRequired {
                    agent,
                    legal: legal_names(&mask),
                },
            });
        };
        self.cumulative[seat] = 0.0;
        self.rewards = [0.0; 4];
        self.deal.play_unchecked(chosen);
        self.after_move(agent);
        Ok(())
    }
}
