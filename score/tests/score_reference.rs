//! `score` against an independent reference scorer for taiwan16 (`support/reference.rs`,
//! issue 15) on random winning hands: the same best total on every hand, and every pattern
//! of the table met along the way.
//!
//! CI checks a sample of 100,000 hands. The long run (1,000,000 hands, all cores):
//!
//! ```text
//! TAISIM_REFERENCE_HANDS=1000000 cargo test -p taisim-score --test score_reference -- --nocapture
//! ```

use std::collections::BTreeMap;
use std::time::Instant;

use rayon::prelude::*;
use taisim_score::{score, Variant};

#[path = "support/reference.rs"]
mod reference;

use reference::{random_win, reference_taiwan16, Rng, P};

/// Hands per chunk: each chunk has its own seed, so the run is the same on any thread count.
const CHUNK: u64 = 1000;

#[test]
fn score_agrees_with_the_reference_scorer() {
    let hands: u64 = std::env::var("TAISIM_REFERENCE_HANDS")
        .ok()
        .map(|s| {
            s.parse()
                .expect("TAISIM_REFERENCE_HANDS: a number of hands")
        })
        .unwrap_or(100_000);
    let variant = Variant::builtin("taiwan16").unwrap();
    let start = Instant::now();
    let chunks = hands.div_ceil(CHUNK);
    let seen: BTreeMap<P, u64> = (0..chunks)
        .into_par_iter()
        .map(|chunk| {
            let mut rng = Rng::new(0x7a15_0015 ^ chunk.wrapping_mul(0x9e37_79b9));
            let mut seen = BTreeMap::new();
            for _ in 0..CHUNK.min(hands - chunk * CHUNK) {
                let input = random_win(&mut rng);
                let s = score(&input, &variant)
                    .unwrap_or_else(|e| panic!("score refused a valid win: {e}\n{input:?}"));
                let (total, kept) = reference_taiwan16(&input)
                    .unwrap_or_else(|| panic!("reference finds no win\n{input:?}"));
                assert_eq!(
                    s.total as u32, total,
                    "score {:?}\nreference {kept:?}\n{input:?}",
                    s.patterns
                );
                for (p, _) in kept {
                    *seen.entry(p).or_insert(0) += 1;
                }
            }
            seen
        })
        .reduce(BTreeMap::new, |mut a, b| {
            for (p, n) in b {
                *a.entry(p).or_insert(0) += n;
            }
            a
        });
    eprintln!(
        "{hands} hands agree in {:.1} s; patterns met: {seen:?}",
        start.elapsed().as_secs_f64()
    );
    // The generator reaches the whole table, so agreement means something for each line.
    for p in P::ALL {
        assert!(seen.contains_key(&p), "{p:?} never met in {hands} hands");
    }
}
