//! Agents for taisim: the [`Agent`] trait, the built-in policies (`random`, `greedy`,
//! `defensive`, `policy:PATH`) chosen by name, and the encodings they share with the
//! environment crate: the fixed [action space](space) and the versioned
//! [observation tensor](obs).
//!
//! ```
//! use std::sync::Arc;
//! use taisim_agents::{build_agents, parse_agents, play_deal};
//! use taisim_score::Variant;
//! use taisim_sim::{ActionList, Deal, DealContext, Rules};
//!
//! // `--agents greedy,random,random,random`: seat E greedy, the others random.
//! let specs = parse_agents("greedy,random,random,random").unwrap();
//! let variant = Arc::new(Variant::builtin("taiwan16").unwrap());
//! let mut agents = build_agents(&specs, &variant).unwrap();
//! let mut deal = Deal::new(Rules::TAIWAN16, 7, DealContext::FIRST).unwrap();
//! let decisions = play_deal(&mut deal, &mut agents, &mut ActionList::new());
//! assert!(deal.is_over() && decisions > 0);
//! ```
//!
//! Determinism: an agent draws random numbers only from a generator seeded by
//! [`Agent::reset`] from `(deal seed, seat)` ([`agent_rng`]), and the greedy, defensive and
//! policy agents draw none, so a deal played by named agents replays exactly from its seed.
//! No agent allocates per decision: scratch space is sized when the agent is built.

mod agent;
mod dense;
mod efficiency;
pub mod exec;
mod greedy;
mod hand_memo;
mod kind_head;
pub mod knowledge;
mod minimum;
mod named;
pub mod obs;
pub mod obs_names;
mod policy;
pub mod protocol;
pub mod search;
pub mod space;
#[cfg(test)]
mod test_deals;
pub mod value;

pub use agent::{
    agent_rng, play_deal, play_deal_observed, play_deal_with, see_step, Agent, RandomAgent,
};
pub use dense::Layer;
pub use efficiency::{ukeire, ukeire_under};
pub use exec::{
    end_bots_with_process, renew_bots, BotFault, BotStderr, ExecAgent, ExecSettings, FaultKind,
};
pub use greedy::{DefensiveAgent, GreedyAgent};
pub use kind_head::{KindHead, KindScratch, KIND_BLOCKS};
pub use minimum::Minimum;
pub use named::{
    build_agents, build_agents_with, builtin_agent_names, parse_agents, AgentParseError, AgentSpec,
    BuiltinAgent, SearchSpec, KNOWN_AGENTS, SEARCH_SETTINGS,
};
pub use obs::{
    encode, encode_slice, obs_shape, ObsEncoder, ObsShapeError, OBS_CHANNELS, OBS_LEN, OBS_VERSION,
    OBS_WIDTH,
};
pub use policy::{
    policy_inputs, trained_policy, Decides, Policy, PolicyAgent, PolicyError, PolicyScratch,
    MAX_LAYERS, OLDEST_POLICY_OBS_VERSION, POLICY_ACTIVATION, POLICY_ARCHITECTURE,
    POLICY_ARCHITECTURE_KINDS, POLICY_FILE_LIMIT, POLICY_FORMAT, TRAINED_POLICY,
};
pub use space::{
    action_index, action_to_index, index_action, index_to_action, write_mask, ActionMask,
    ACTION_SPACE_SIZE,
};
