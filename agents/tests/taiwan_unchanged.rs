//! The Taizhou work (wild-aware shanten, the fresh-dragon guard, the wild plane) leaves play
//! under the four Taiwanese variants exactly as it was: the actions every built-in agent
//! takes over a fixed set of seeded deals hash to the figure recorded from `main`'s agents
//! before the change (agents/src as of commit 7b85d12). The agents are built for each variant
//! as a run builds them (taiwan16-2015's let a win below its minimum go).

use taisim_agents::{Agent, BuiltinAgent, DefensiveAgent, GreedyAgent, RandomAgent};
use taisim_score::Variant;
use taisim_sim::{Action, ActionList, Deal, DealContext, Seat, Wind};

/// FNV-1a over the bytes of each action's debug text: stable across builds, and any change of
/// one action in any deal changes it.
fn fnv(hash: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *hash ^= u64::from(b);
        *hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
}

/// Plays `deals` seeded deals of `variant` with greedy, defensive (two thresholds) and random agents (rotated each deal) and
/// hashes every action taken.
fn fingerprint(variant: &str, deals: u64) -> (u64, u64) {
    let variant = Variant::builtin(variant).unwrap();
    let rules = variant.rules();
    let mut agents = [
        BuiltinAgent::Greedy(GreedyAgent::for_variant(&variant)),
        BuiltinAgent::Defensive(DefensiveAgent::new().for_variant(&variant)),
        BuiltinAgent::Random(RandomAgent::new()),
        BuiltinAgent::Defensive(DefensiveAgent::with_thresholds(40, 1).for_variant(&variant)),
    ];
    let mut legal = ActionList::new();
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut actions = 0u64;
    for seed in 0..deals {
        let context = DealContext {
            round_wind: Wind::East,
            dealer: Wind::new((seed % 4) as u8),
            streak: (seed % 3) as u8,
        };
        let mut deal = Deal::new(rules, seed, context).unwrap();
        agents.rotate_left(1);
        for seat in Seat::ALL {
            agents[seat as usize].reset(deal.seed(), seat);
        }
        while let Some(seat) = deal.to_act() {
            deal.legal_actions(&mut legal);
            let action: Action = agents[seat as usize].act(&deal.view(seat), &legal);
            fnv(&mut hash, format!("{seat:?}{action:?}").as_bytes());
            deal.play(action).unwrap();
            actions += 1;
        }
    }
    (hash, actions)
}

#[test]
fn taiwanese_variants_play_as_before() {
    // Recorded with main's agents (commit 7b85d12): (variant, hash, actions).
    let want = [
        ("taiwan16", 8657352474482254299, 54543),
        ("taiwan16-house", 8657352474482254299, 54543),
        // Re-pinned when the agents came to let a win below 起胡 go (2026-12-07): the only
        // change to their play, checked decision by decision in tests/minimum.rs (before:
        // 14238374686300373318, 54571 actions).
        ("taiwan16-2015", 17128645224675025277, 58057),
        ("mahjongtime", 9281880897031880748, 54615),
    ];
    let mut got = Vec::new();
    for name in Variant::names() {
        if name == "taizhou" {
            continue;
        }
        got.push((name, fingerprint(name, 1000)));
    }
    assert_eq!(got.len(), 4, "{got:?}");
    for (name, hash, actions) in want {
        let (h, n) = got.iter().find(|(v, _)| *v == name).unwrap().1;
        assert_eq!((h, n), (hash, actions), "{name}");
    }
}
