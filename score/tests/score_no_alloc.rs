//! Scoring in the simulation path allocates nothing: a counting global allocator watches
//! `score_deal` over finished deals of every shipped variant.

use taisim_score::{score_deal, Variant};
use taisim_sim::DealContext;

mod common;

#[path = "../../sim/tests/support/counting_alloc.rs"]
mod counting_alloc;

#[global_allocator]
static GLOBAL: counting_alloc::Counting = counting_alloc::Counting;

#[test]
fn scoring_deals_allocates_nothing() {
    let variants: Vec<Variant> = Variant::names()
        .iter()
        .map(|n| Variant::builtin(n).unwrap())
        .collect();
    // Finished deals first (playing allocates nothing either, but keep the window tight).
    let mut deals = Vec::new();
    for seed in 0..400u64 {
        let v = &variants[seed as usize % variants.len()];
        deals.push(common::play_greedy(v, seed, DealContext::FIRST));
    }
    // Warm the lookup tables.
    let _ = score_deal(&deals[0], &variants[0], 0, 1);
    let before = counting_alloc::allocations();
    let mut wins = 0;
    for (i, deal) in deals.iter().enumerate() {
        let v = &variants[i % variants.len()];
        let (base, per_tai) = common::fit_stakes(v, 10, 2);
        let ds = score_deal(deal, v, base, per_tai).unwrap();
        wins += ds.wins.len();
        std::hint::black_box(ds);
    }
    let after = counting_alloc::allocations();
    assert!(wins > 200, "only {wins} wins");
    assert_eq!(
        after - before,
        0,
        "{} allocations scoring {wins} wins",
        after - before
    );
}
