//! A variant's stakes: how far a seat's points in a deal typically move under its settlement,
//! so that a gain in points (the racing's indifference) means the same under every variant.
//!
//! The indifference was tuned in points under taiwan16, where a seat's result in a deal has a
//! standard deviation of about 3 points; under taizhou's all-pairs settlement it is about 70.
//! Read in raw points there, a gain of 0.2 is nothing, no challenger is ever dropped, and every
//! decision runs to the budget (205 ms a decision against 22 under taiwan16). So the search
//! reads its indifference at taiwan16's stakes and scales it by the ratio of the variant's
//! stakes to taiwan16's: exactly 1 under taiwan16 (the same computation divided by itself), and
//! whatever a rule designer's settlement makes it under another variant.

use std::sync::Mutex;

use taisim_score::{score_deal, Variant};
use taisim_sim::{Deal, DealContext, Seat, Wind};

use crate::minimum::Minimum;

use super::estimate::variance;
use super::rollout::{Rollout, RolloutPolicy};

/// Greedy self-play deals a variant's stakes are measured on: the estimate's relative standard
/// error is about 1/√(2 · 4 · 1000), under 2%, and it costs 30 ms (taiwan16) to 150 ms
/// (taizhou) once per variant and process.
pub const STAKE_DEALS: u64 = 1000;

/// The seed of those deals: fixed, so the stakes, and the decisions read from them, are the
/// same in every process and on any thread count.
const STAKE_SEED: u64 = 0x57a4_e5ee_d000_0001;

/// The standard deviation of one seat's points in a deal under `variant`'s settlement, over
/// [`STAKE_DEALS`] deals of greedy self-play (every seat's result pooled, the dealer rotating;
/// greedy letting wins below the variant's minimum go, as it plays).
pub fn stake(variant: &Variant) -> f64 {
    let st = variant.settlement();
    let mut rollout = Rollout::new(RolloutPolicy::Greedy, None, Minimum::of(variant));
    let (mut n, mut sum, mut sum_sq) = (0u32, 0.0f64, 0.0f64);
    for i in 0..STAKE_DEALS {
        let context = DealContext {
            round_wind: Wind::East,
            dealer: Wind::new((i % 4) as u8),
            streak: 0,
        };
        let Ok(mut deal) = Deal::new(
            variant.rules(),
            taisim_sim::deal_seed(STAKE_SEED, i),
            context,
        ) else {
            continue;
        };
        rollout.play_out(&mut deal);
        let Ok(scored) = score_deal(&deal, variant, st.base, st.per_tai) else {
            continue;
        };
        for seat in Seat::ALL {
            let p = scored.payments[seat] as f64;
            n += 1;
            sum += p;
            sum_sq += p * p;
        }
    }
    variance(n, sum, sum_sq).sqrt()
}

/// `variant`'s [`stake`] over taiwan16's: what the search multiplies its indifference by.
/// 1 for a variant whose points never move (nothing to scale by).
pub fn stake_ratio(variant: &Variant) -> f64 {
    let own = known_stake(variant);
    let reference = known_stake(&Variant::builtin("taiwan16").expect("taiwan16 is shipped"));
    if own > 0.0 && reference > 0.0 {
        own / reference
    } else {
        1.0
    }
}

/// [`stake`], worked out once per variant (by its whole text) and process.
fn known_stake(variant: &Variant) -> f64 {
    static KNOWN: Mutex<Vec<(String, f64)>> = Mutex::new(Vec::new());
    let key = variant.to_toml();
    if let Some(&(_, s)) = lock(&KNOWN).iter().find(|(k, _)| *k == key) {
        return s;
    }
    // Worked out outside the lock: two threads may both do it, and get the same number.
    let s = stake(variant);
    lock(&KNOWN).push((key, s));
    s
}

/// The cache's lock; a panic elsewhere while it was held leaves entries that are still whole.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Taiwan16 reads its indifference as written; taizhou's stakes are tens of times
    /// taiwan16's (a win there pays about 111 points against 3.4: `taisim report` of 20,000
    /// greedy deals); every shipped variant's ratio is a plain positive number; and a second
    /// look is the first's.
    #[test]
    fn stakes_scale_by_the_settlement() {
        let taiwan16 = Variant::builtin("taiwan16").unwrap();
        assert_eq!(stake_ratio(&taiwan16), 1.0);
        let s = stake(&taiwan16);
        assert!((2.0..5.0).contains(&s), "taiwan16 stake {s}");
        let taizhou = Variant::builtin("taizhou").unwrap();
        let r = stake_ratio(&taizhou);
        assert!((10.0..60.0).contains(&r), "taizhou ratio {r}");
        assert_eq!(stake_ratio(&taizhou), r);
        for name in Variant::names() {
            let v = Variant::builtin(name).unwrap();
            let r = stake_ratio(&v);
            eprintln!("{name}: stake {:.3}, ratio {r:.3}", stake(&v));
            assert!((0.25..100.0).contains(&r), "{name}: {r}");
        }
    }
}
