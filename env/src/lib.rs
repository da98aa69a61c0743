//! A gym-like environment over the taisim engine, for reinforcement learning on Taiwanese
//! 16-tile mahjong and the other shipped variants (Taizhou's 13-tile game with a wild
//! included: `EnvConfig::from_variant(Variant::builtin("taizhou")?, …)`).
//!
//! - [`Env`]: single-agent. The learner holds one seat, built-in agents chosen by name play
//!   the others; `reset(seed) -> Observation`, `step(index) -> (observation, reward,
//!   terminated, truncated, info)`.
//! - [`AecEnv`]: turn-based multi-agent, after PettingZoo's AEC API (`agent_selection`,
//!   per-seat rewards, terminations and truncations, `last()`, dead steps).
//! - [`VecEnv`]: `N` single-agent environments stepped together with rayon into
//!   preallocated `(N, …)` buffers, each resetting itself when its deal ends.
//!
//! The action space is fixed and discrete, [`ACTION_SPACE_SIZE`] = 144 indices (layout in
//! [`space`]); every step comes with a 0/1 mask of the legal indices. The observation is a
//! versioned `(OBS_CHANNELS, 34)` `f32` tensor (layout in [`obs`]), written into the
//! caller's or the environment's buffer without allocating. Both encodings live in
//! `taisim-agents` (a trained policy reads the same tensor) and are re-exported here.
//!
//! Rewards come from one function of the finished deal, [`Reward::rewards`]:
//! [`Reward::Points`] (the seat's settlement under a variant, winner-pays or all-pairs,
//! zero-sum) or [`Reward::WinLoss`] (+1/−1/0).
//!
//! Under a variant with a wild (taizhou's 得牌) the observation's wild row marks the wild
//! kind and [`Info::wild`] reports it; the built-in opponents measure their hands with it.
//!
//! Deals use [`Rules::TAIWAN16`](taisim_sim::Rules::TAIWAN16) unless the configuration
//! gives other rules. Everything is seeded: the same seed and the same actions give the
//! same observations, masks and rewards, in any thread count.
//!
//! ```
//! use taisim_env::{Env, EnvConfig};
//!
//! let mut env = Env::new(&EnvConfig::with_opponents("random").unwrap()).unwrap();
//! let first = env.reset(1);
//! assert_eq!(first.obs.shape(), &[taisim_env::OBS_CHANNELS, taisim_env::OBS_WIDTH]);
//! assert!(first.mask.contains(&1));
//! ```

mod aec;
#[cfg(feature = "python")]
mod python;
mod reward;
mod single;
mod vec_env;

pub use aec::{AecConfig, AecEnv, Last};
pub use reward::{win_loss, Reward, RewardError, RewardKind};
pub use single::{stream_deal, Env, EnvConfig, EnvError, Info, Observation, Step, Transition};
pub use taisim_agents::{
    action_to_index, index_to_action, obs, obs_shape, space, ActionMask, ACTION_SPACE_SIZE,
    OBS_CHANNELS, OBS_LEN, OBS_VERSION, OBS_WIDTH,
};
pub use vec_env::{VecEnv, VecEnvError, VecStep};

/// The engine rules of a built-in variant (`taiwan16`, `taiwan16-house`, `taiwan16-2015`,
/// `mahjongtime`, `taizhou`) or of a variant file at a path.
pub fn variant_rules(name: &str) -> Result<taisim_sim::Rules, taisim_score::VariantError> {
    taisim_score::Variant::by_name_or_path(name).map(|v| v.rules())
}
