//! The engine allocates nothing per deal: a counting global allocator watches deals played
//! by random legal actions under every rules set (each shipped variant, 13 tiles without
//! flowers, Taizhou's procedure with a wild indicator), after a warm-up that builds the
//! lookup tables.

use taisim_sim::{bounded, rng_from_seed, ActionList, Deal, DealContext, Rules};

#[path = "support/counting_alloc.rs"]
mod counting_alloc;
#[path = "support/rule_sets.rs"]
mod rule_sets;

#[global_allocator]
static GLOBAL: counting_alloc::Counting = counting_alloc::Counting;

fn play_deals(rules: Rules, range: std::ops::Range<u64>) -> u64 {
    let mut actions = ActionList::new();
    let mut steps = 0;
    for seed in range {
        let mut rng = rng_from_seed(seed);
        let rules = if seed % 2 == 0 {
            rules
        } else {
            Rules {
                multiple_winners: true,
                reserve: 0,
                ..rules
            }
        };
        let mut deal = Deal::new(rules, seed, DealContext::FIRST).unwrap();
        while !deal.is_over() {
            deal.legal_actions(&mut actions);
            let a = actions[bounded(&mut rng, actions.len() as u32) as usize];
            deal.play(a).unwrap();
            steps += 1;
        }
        std::hint::black_box(deal.result());
    }
    steps
}

#[test]
fn no_heap_allocation_per_deal() {
    // The counter counts: a Vec registers.
    let start = counting_alloc::allocations();
    std::hint::black_box(vec![0u8; 64]);
    assert!(counting_alloc::allocations() > start);

    // Built before counting: the list itself allocates.
    let sets = rule_sets::rule_sets();
    for &(_, rules) in &sets {
        play_deals(rules, 0..100);
    }
    for (name, rules) in sets {
        let before = counting_alloc::allocations();
        let steps = play_deals(rules, 100..5_100);
        let after = counting_alloc::allocations();
        assert!(steps > 50_000, "{name}: {steps} steps");
        assert_eq!(
            after - before,
            0,
            "{name}: {} allocations over 5,000 deals",
            after - before
        );
    }
}
