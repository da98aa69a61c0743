//! The special 17-tile forms: 八對 (seven pairs and a triplet) and 16-tile 十三么.
//!
//! Both need all 17 tiles concealed, so they apply only when `sets == 5`. They are checked
//! from the packed 3-bit counts, not from tables: each is a handful of word operations
//! (eight pairs) or a scan over the 55 possible extra sets (thirteen orphans).

use crate::hand::Hand;
use crate::tile::{Tile, TileSet};

/// Bit 0 of every kind's 3-bit count field.
const LOW: u128 = {
    let mut m = 0u128;
    let mut k = 0;
    while k < 34 {
        m |= 1 << (3 * k);
        k += 1;
    }
    m
};

/// The 13 terminal and honor kinds of 十三么.
const ORPHANS: [usize; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

/// Bit 0 of each orphan kind's field.
const ORPHAN_LOW: u128 = {
    let mut m = 0u128;
    let mut i = 0;
    while i < 13 {
        m |= 1 << (3 * ORPHANS[i]);
        i += 1;
    }
    m
};

/// Every bit of each non-orphan kind's field.
const OTHER_FIELDS: u128 = (LOW & !ORPHAN_LOW) * 7;

/// A pung of kind `k`, or a chow starting at `k`, as a packed count.
#[inline]
fn pung(k: usize) -> u128 {
    3 << (3 * k)
}

#[inline]
fn chow(k: usize) -> u128 {
    (1 << (3 * k)) | (1 << (3 * k + 3)) | (1 << (3 * k + 6))
}

/// Whether kind `k` may start a chow (a numbered rank 1 to 7).
#[inline]
fn chow_start(k: usize) -> bool {
    k < 27 && k % 9 < 7
}

/// Seven pairs and one triplet. Only the triplet kind has an odd count, and it must be 3
/// (a lone tile is odd too, but fits no form); a kind held four times is two pairs.
#[inline]
pub(crate) fn is_eight_pairs(hand: &Hand, sets: u8) -> bool {
    if sets != 5 || hand.len() != 17 {
        return false;
    }
    let packed = hand.packed();
    let odd = packed & LOW;
    odd.count_ones() == 1 && (packed >> odd.trailing_zeros()) & 7 == 3
}

/// 13 orphans with one paired plus one more set, 17 tiles.
pub(crate) fn is_thirteen_orphans(hand: &Hand, sets: u8) -> bool {
    if sets != 5 || hand.len() != 17 {
        return false;
    }
    let packed = hand.packed();
    if !holds_all_orphans(packed) {
        return false;
    }
    // After removing the extra set, only orphans remain, each at least once; 14 tiles on 13
    // kinds then means exactly one is paired.
    let rest_fits = |rest: u128| {
        let present = (rest | rest >> 1 | rest >> 2) & LOW;
        rest & OTHER_FIELDS == 0 && present & ORPHAN_LOW == ORPHAN_LOW
    };
    let counts = hand.counts();
    for k in 0..34 {
        if counts[k] >= 3 && rest_fits(packed - pung(k)) {
            return true;
        }
        if chow_start(k)
            && counts[k] > 0
            && counts[k + 1] > 0
            && counts[k + 2] > 0
            && rest_fits(packed - chow(k))
        {
            return true;
        }
    }
    false
}

/// Whether every orphan kind is held at least once.
#[inline]
fn holds_all_orphans(packed: u128) -> bool {
    (packed | packed >> 1 | packed >> 2) & ORPHAN_LOW == ORPHAN_LOW
}

/// A lower bound on what eight pairs lack: the form has eight pair slots (a kind held four
/// times fills two, the triplet's kind one), and one added tile completes at most one slot.
#[inline]
pub(crate) fn eight_pairs_lower_bound(hand: &Hand) -> u8 {
    let slots: u8 = hand.counts().iter().map(|&h| h.min(4) / 2).sum();
    8u8.saturating_sub(slots)
}

/// Orphan kinds the hand does not hold: a lower bound on what 十三么 lacks.
#[inline]
pub(crate) fn missing_orphans(hand: &Hand) -> u8 {
    13 - (hand.kinds().0 & ORPHAN_KINDS).count_ones() as u8
}

/// The orphan kinds as a kind bitset.
const ORPHAN_KINDS: u64 = {
    let mut m = 0u64;
    let mut i = 0;
    while i < 13 {
        m |= 1 << ORPHANS[i];
        i += 1;
    }
    m
};

/// Whether a 16-tile hand could be one tile from 十三么: it lacks at most one orphan kind.
#[inline]
pub(crate) fn near_thirteen_orphans(hand: &Hand) -> bool {
    let packed = hand.packed();
    ((packed | packed >> 1 | packed >> 2) & ORPHAN_LOW).count_ones() >= 12
}

/// The eight-pairs waits of a 16-tile hand, from the parity of its counts: after the winning
/// tile exactly one kind may be odd, and it must hold 3. With every count even, any kind held
/// twice becomes the triplet; with two odd kinds, drawing one evens it and the other must be
/// the triplet already. Any other parity pattern cannot be fixed by one tile.
pub(crate) fn eight_pairs_waits(hand: &Hand) -> TileSet {
    let packed = hand.packed();
    let odd = packed & LOW;
    let count = |bit: u32| ((packed >> bit) & 7) as u8;
    let mut out = TileSet::EMPTY;
    match odd.count_ones() {
        0 => {
            // Fields equal to 2: bit 1 set, bits 0 and 2 clear.
            let twos = (packed >> 1) & LOW & !(packed & LOW) & !((packed >> 2) & LOW);
            let mut rest = twos;
            while rest != 0 {
                let bit = rest.trailing_zeros();
                out.insert(Tile::ALL[(bit / 3) as usize]);
                rest &= rest - 1;
            }
        }
        2 => {
            let x = odd.trailing_zeros();
            let y = 127 - odd.leading_zeros();
            for (draw, other) in [(x, y), (y, x)] {
                if count(draw) < 4 && count(other) == 3 {
                    out.insert(Tile::ALL[(draw / 3) as usize]);
                }
            }
        }
        _ => {}
    }
    out
}

/// Tiles lacking for eight pairs (the hand has 16 or 17 tiles).
///
/// For a kind held `h` times the first pair lacks `max(0, 2 - h)` tiles and the second
/// `max(0, 4 - h) - max(0, 2 - h)`; the second never costs less than the first, so for a
/// fixed triplet kind the cheapest seven pairs are simply the seven cheapest pair slots of
/// the other kinds. Slot costs are 0, 1 or 2, so counting slots by cost is enough.
pub(crate) fn eight_pairs_distance(hand: &Hand) -> u8 {
    let counts = hand.counts();
    let slot_costs = |h: u8| -> [u8; 2] {
        let first = 2u8.saturating_sub(h);
        [first, 4u8.saturating_sub(h) - first]
    };
    let mut by_cost = [0u8; 3];
    for &h in &counts {
        for c in slot_costs(h) {
            by_cost[c as usize] += 1;
        }
    }
    let mut best = u8::MAX;
    for &h in &counts {
        let mut n = by_cost;
        for c in slot_costs(h) {
            n[c as usize] -= 1;
        }
        let free = n[0].min(7);
        let ones = n[1].min(7 - free);
        let twos = 7 - free - ones;
        best = best.min(3u8.saturating_sub(h) + ones + 2 * twos);
    }
    best
}

/// Tiles lacking for 十三么 (the hand has 16 or 17 tiles): the best over every extra set
/// and every choice of the paired orphan.
pub(crate) fn thirteen_orphans_distance(hand: &Hand) -> u8 {
    let counts = hand.counts();
    let mut base = [0u8; 34];
    for k in ORPHANS {
        base[k] = 1;
    }
    let lack = |target: &[u8; 34], k: usize| target[k].saturating_sub(counts[k]);
    let base_lack: u8 = ORPHANS.iter().map(|&k| lack(&base, k)).sum();
    let mut best = u8::MAX;
    let mut try_set = |kinds: &[usize], per: u8| {
        let mut target = base;
        let mut cost = base_lack;
        for &k in kinds {
            cost -= lack(&base, k);
            target[k] += per;
            if target[k] > 4 {
                return;
            }
            cost += lack(&target, k);
        }
        // The paired orphan: free if some orphan already has a spare copy beyond the target.
        let extra = ORPHANS
            .iter()
            .filter(|&&k| target[k] < 4)
            .map(|&k| u8::from(counts[k] <= target[k]))
            .min()
            .unwrap_or(u8::MAX);
        best = best.min(cost.saturating_add(extra));
    };
    for k in 0..34 {
        try_set(&[k], 3);
        if chow_start(k) {
            try_set(&[k, k + 1, k + 2], 1);
        }
    }
    best
}
