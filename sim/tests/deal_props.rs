//! Property test of the deal's door (issue 15): random action sequences through `Deal` under
//! every rules set. At each decision an arbitrary action of the whole vocabulary is offered:
//! one the deal lists as legal is always accepted; any other is always refused, and the deal
//! is exactly as it was. A fixed seed and case budget keep CI fast and repeatable
//! (`PROPTEST_CASES=N` raises the budget).

use proptest::prelude::*;
use taisim_sim::{Action, ActionList, Deal, DealContext};

#[path = "support/props.rs"]
mod props;
#[path = "support/rule_sets.rs"]
mod rule_sets;

proptest! {
    #![proptest_config(props::config(48, 0xdea1_5eed))]

    #[test]
    fn legal_actions_are_accepted_and_illegal_ones_refused_unchanged(
        set in 0usize..6,
        seed in any::<u64>(),
        picks in prop::collection::vec(any::<u16>(), 400),
    ) {
        let sets = rule_sets::rule_sets();
        let (name, rules) = sets[set % sets.len()];
        let all = props::every_action();
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
