//! Regular-form shanten by min-plus convolution of per-group distance arrays.
//!
//! A group's distance array says how many tiles it lacks to contain `m` sets and `p` pairs.
//! Groups share no kinds, so the tiles a whole hand lacks for `sets` sets and one pair is the
//! best split of those sets and that pair among the groups: a min-plus convolution over
//! `(m, p)`. Lacking `d` tiles means `d` exchanges, and shanten counts one fewer. The
//! man-pin and sou-honor convolutions come precomputed from the table; only the last step,
//! for the one `(sets, 1)` entry asked for, runs here.

use super::tables::{distance_table, Dist, FAR};
use crate::hand::Hand;

/// The `(sets, 1)` entry of the convolution of two groups.
#[inline(always)]
fn convolve_at(a: &Dist, b: &Dist, sets: usize) -> u8 {
    let mut best = FAR;
    for i in 0..=sets {
        best = best.min(a[i] + b[8 + sets - i]).min(a[8 + i] + b[sets - i]);
    }
    best
}

/// How many tiles the hand lacks for `sets` sets and a pair (0 when complete).
#[inline]
pub(crate) fn distance(hand: &Hand, sets: u8) -> u8 {
    let (man_pin, sou_honor) = distance_table().halves(hand.keys());
    convolve_at(man_pin, sou_honor, sets.min(5) as usize)
}

#[inline]
pub(crate) fn shanten(hand: &Hand, sets: u8) -> i8 {
    debug_assert!(
        sets <= 5 && (hand.len() == 3 * sets as usize + 1 || hand.len() == 3 * sets as usize + 2),
        "shanten of {} tiles for {sets} sets",
        hand.len()
    );
    distance(hand, sets) as i8 - 1
}
