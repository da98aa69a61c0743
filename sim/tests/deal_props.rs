//! Property test of the deal's door (issue 15): random action sequences through `Deal` under
//! every rules set. At each decision an arbitrary action of the whole vocabulary is offered:
//! one the deal lists as legal is always accepted; any other is always refused, and the deal
//! is exactly as it was. A fixed seed and case budget keep CI fast and repeatable
//! (`PROPTEST_CASES=N` raises the budget).

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use taisim_sim::{Action, ActionList, Deal, DealContext, Tile};

#[path = "support/rule_sets.rs"]
mod rule_sets;

fn config(cases: u32) -> Config {
    Config {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(cases),
        rng_seed: RngSeed::Fixed(0xdea1_5eed),
        failure_persistence: None,
        ..Config::default()
    }
}

/// Every action the engine has a word for, legal or not.
fn vocabulary() -> Vec<Action> {
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

proptest! {
    #![proptest_config(config(48))]

    #[test]
    fn legal_actions_are_accepted_and_illegal_ones_refused_unchanged(
        set in 0usize..6,
        seed in any::<u64>(),
        picks in prop::collection::vec(any::<u16>(), 400),
    ) {
        let sets = rule_sets::rule_sets();
        let (name, rules) = sets[set % sets.len()];
        let all = vocabulary();
        let mut deal = Deal::new(rules, seed, DealContext::FIRST).unwrap();
        let mut legal = ActionList::new();
        let (mut accepted, mut refused) = (0u32, 0u32);
        for &pick in &picks {
            if deal.is_over() {
                break;
            }
            deal.legal_actions(&mut legal);
            // Half the picks from the whole vocabulary (mostly illegal), half from the legal
            // list, so deals get far enough to reach claims, kongs and late turns.
            let action = if pick & 1 == 0 {
                all[(pick as usize >> 1) % all.len()]
            } else {
                legal[(pick as usize >> 1) % legal.len()]
            };
            if legal.contains(&action) {
                prop_assert!(deal.play(action).is_ok(), "{name} seed {seed}: {action:?} listed but refused");
                accepted += 1;
            } else {
                let before = format!("{deal:?}");
                prop_assert!(deal.play(action).is_err(), "{name} seed {seed}: {action:?} accepted but not listed");
                prop_assert_eq!(&before, &format!("{deal:?}"), "{} seed {}: refused {:?} changed the deal", name, seed, action);
                refused += 1;
            }
            prop_assert!(deal.validate().is_ok(), "{name} seed {seed}: {:?}", deal.validate());
        }
        prop_assert!(accepted > 0 && refused > 0);
        if deal.is_over() {
            prop_assert!(deal.play(Action::Pass).is_err());
        }
    }
}
