//! What the property tests share: a fixed-seed configuration and the engine's action words.

#![allow(dead_code)]

use proptest::test_runner::{Config, RngSeed};
use taisim_sim::{Action, Tile};

/// `cases` per property, or `PROPTEST_CASES` where set (the long run); a fixed seed so CI
/// is repeatable, and failures print their minimal input without writing beside the sources.
pub fn config(cases: u32, seed: u64) -> Config {
    Config {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(cases),
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..Config::default()
    }
}

/// Every action the engine has a word for, legal or not.
pub fn every_action() -> Vec<Action> {
    let mut all = vec![
        Action::SelfDrawWin,
        Action::FlowerWin,
        Action::Win,
        Action::Pung,
        Action::Kong,
        Action::Pass,
    ];
    for t in Tile::ALL {
        all.extend([
            Action::Discard(t),
            Action::DiscardReady(t),
            Action::ConcealedKong(t),
            Action::AddedKong(t),
            Action::Chow(t),
        ]);
    }
    all
}
