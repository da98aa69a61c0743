//! Regular-form shanten by min-plus convolution of per-group distance arrays.
//!
//! A group's distance array says how many tiles it lacks to contain `m` sets and `p` pairs.
//! Groups share no kinds, so the tiles a whole hand lacks for `sets` sets and one pair is the
//! best split of those sets and that pair among the groups: a min-plus convolution over
//! `(m, p)`. Lacking `d` tiles means `d` exchanges, and shanten counts one fewer. Every step
//! comes precomputed from the table: the man-pin and sou-honor halves, and the `(sets, 1)`
//! entry of their convolution.

use super::tables::distance_table;
use crate::hand::Hand;

/// How many tiles the hand lacks for `sets` sets and a pair (0 when complete).
#[inline]
pub(crate) fn distance(hand: &Hand, sets: u8) -> u8 {
    let table = distance_table();
    let (man_pin, sou_honor) = table.halves(hand.keys());
    table.lack(sets as usize, man_pin, sou_honor)
}
