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
pub(crate) const ORPHAN_KINDS: u64 = {
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
/// the other kinds. Slot costs are 0, 1 or 2, so counting slots by cost is enough, and the
/// distance depends only on how many kinds are held 0 to 4 times.
pub(crate) fn eight_pairs_distance(hand: &Hand) -> u8 {
    let mut classes = [0u8; 5];
    for c in hand.counts() {
        classes[c as usize] += 1;
    }
    eight_pairs_distance_of_classes(&classes)
}

/// The two pair slots of a kind held `c` times, by the tiles each lacks (see
/// [`eight_pairs_distance`]).
const PAIR_SLOTS: [[u8; 2]; 5] = [[2, 2], [1, 2], [0, 2], [0, 1], [0, 0]];

/// [`eight_pairs_distance`] from the number of kinds held 0 to 4 times (`classes[c]`), the
/// triplet tried once per class of kinds rather than once per kind. Scans that change one
/// kind's count (a draw, a discard) move one kind between classes and call this directly.
pub(crate) fn eight_pairs_distance_of_classes(classes: &[u8; 5]) -> u8 {
    let mut by_cost = [0u8; 3];
    for (c, &n) in classes.iter().enumerate() {
        for cost in PAIR_SLOTS[c] {
            by_cost[cost as usize] += n;
        }
    }
    let mut best = u8::MAX;
    for (c, &n) in classes.iter().enumerate() {
        if n == 0 {
            continue;
        }
        let mut n = by_cost;
        for cost in PAIR_SLOTS[c] {
            n[cost as usize] -= 1;
        }
        let free = n[0].min(7);
        let ones = n[1].min(7 - free);
        let twos = 7 - free - ones;
        best = best.min(3u8.saturating_sub(c as u8) + ones + 2 * twos);
    }
    best
}

/// Tiles lacking for 十三么 (the hand has 16 or 17 tiles): the best over every extra set
/// and every choice of the paired orphan.
#[inline]
pub(crate) fn thirteen_orphans_distance(hand: &Hand) -> u8 {
    thirteen_orphans_keep(hand).0
}

/// One of 十三么's targets before its pair (the thirteen orphans once each and one extra
/// set: a pung of any kind or a chow) as a hand stands against it.
#[derive(Copy, Clone, Debug)]
pub(crate) struct OrphanTarget {
    /// Tiles the hand lacks for it.
    pub cost: u8,
    /// The kinds it wants more copies of than the hand holds.
    pub short: u64,
    /// The held kinds with a copy it does not want.
    pub spare: u64,
    /// The held kinds with two copies it does not want.
    pub twice_spare: u64,
    /// The orphans that may still take the pair (it wants fewer than four of them).
    pub pairable: u64,
}

/// Calls `f` with each of 十三么's 55 targets before the pair (see [`OrphanTarget`]) that
/// wants no fifth copy of a kind.
#[inline]
pub(crate) fn orphan_targets(hand: &Hand, mut f: impl FnMut(OrphanTarget)) {
    let counts = hand.counts();
    let held = hand.kinds().0;
    let at_least = |n: u8| {
        counts
            .iter()
            .enumerate()
            .fold(0u64, |bits, (k, &c)| bits | u64::from(c >= n) << k)
    };
    // The thirteen alone: each orphan once, so an orphan is spare from two copies (twice
    // from three) and any other held kind from one (two).
    let thirteen = OrphanTarget {
        cost: (ORPHAN_KINDS & !held).count_ones() as u8,
        short: ORPHAN_KINDS & !held,
        spare: held & !ORPHAN_KINDS | at_least(2) & ORPHAN_KINDS,
        twice_spare: at_least(2) & !ORPHAN_KINDS | at_least(3) & ORPHAN_KINDS,
        pairable: ORPHAN_KINDS,
    };
    let mut with_set = |kinds: &[usize], per: u8| {
        let mut target = thirteen;
        for &k in kinds {
            let alone = u8::from(ORPHAN_KINDS >> k & 1 == 1);
            let want = alone + per;
            if want > 4 {
                return;
            }
            let h = counts[k];
            target.cost = target.cost - alone.saturating_sub(h) + want.saturating_sub(h);
            let bit = 1u64 << k;
            let set =
                |bits: &mut u64, on: bool| *bits = if on { *bits | bit } else { *bits & !bit };
            set(&mut target.short, want > h);
            set(&mut target.spare, h > want);
            set(&mut target.twice_spare, h >= want + 2);
            if want >= 4 {
                target.pairable &= !bit;
            }
        }
        f(target);
    };
    for k in 0..Tile::NUM {
        with_set(&[k], 3);
        if chow_start(k) {
            with_set(&[k, k + 1, k + 2], 1);
        }
    }
}

/// Keeps the least `cost` offered and the union of the `bits` offered with it.
#[inline]
pub(crate) fn keep_least(least: &mut (u8, u64), cost: u8, bits: u64) {
    if cost < least.0 {
        *least = (cost, bits);
    } else if cost == least.0 {
        least.1 |= bits;
    }
}

/// 十三么's distance of `hand`, and the held kinds a discard of which keeps it: discarding any
/// other held kind makes it one more.
///
/// The distance is the least `|T - hand|` over the targets `T`: the thirteen orphans, one
/// extra set `S` (a pung or chow), one orphan `o` paired. Discarding `d` raises
/// `|T - hand|` by one unless `T` leaves a copy of `d` spare (`hand[d] > T[d]`), so the
/// distance after it stays only if a closest target spares `d`. Per `S`, with `F` the
/// orphans spare of the [`OrphanTarget`] that may still take the pair: if `F` is not empty,
/// the pair is free on any of them, and every spare kind stays spare, except the pair's own
/// kind when `F` holds only it and only one copy spare; if `F` is empty, the pair costs a
/// tile and takes no spare copy.
pub(crate) fn thirteen_orphans_keep(hand: &Hand) -> (u8, u64) {
    let mut least = (u8::MAX, 0);
    orphan_targets(hand, |t| {
        let free = t.spare & t.pairable;
        let kept = if free & free.wrapping_sub(1) != 0 || t.twice_spare & free != 0 {
            t.spare
        } else {
            // The pair takes the one spare copy of its kind, if it has one.
            t.spare & !free
        };
        if free != 0 {
            keep_least(&mut least, t.cost, kept);
        } else if t.pairable != 0 {
            keep_least(&mut least, t.cost + 1, t.spare);
        }
    });
    least
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The distance spelled out: for every extra set and every paired orphan, the target's
    /// tiles the hand lacks.
    fn naive_thirteen_orphans_distance(hand: &Hand) -> u8 {
        let counts = hand.counts();
        let mut best = u8::MAX;
        let mut try_target = |target: &[u8; 34]| {
            let lack: u8 = (0..34).map(|k| target[k].saturating_sub(counts[k])).sum();
            best = best.min(lack);
        };
        for k in 0..34 {
            let sets: &[&[usize]] = if chow_start(k) {
                &[&[k, k, k], &[k, k + 1, k + 2]]
            } else {
                &[&[k, k, k]]
            };
            for set in sets {
                for pair in ORPHANS {
                    let mut target = [0u8; 34];
                    for o in ORPHANS {
                        target[o] = 1;
                    }
                    target[pair] += 1;
                    for &t in *set {
                        target[t] += 1;
                    }
                    if target.iter().all(|&n| n <= 4) {
                        try_target(&target);
                    }
                }
            }
        }
        best
    }

    /// A random hand of `len` tiles, mostly orphans so that the closest targets vary.
    fn orphan_heavy_hand(rng: &mut impl rand_core::RngCore, round: u32, len: usize) -> Hand {
        const POOL: &[u8] = &[0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33, 1, 2, 3];
        let mut hand = Hand::EMPTY;
        while hand.len() < len {
            let k = if round % 4 == 3 {
                crate::bounded(rng, 34) as u8
            } else {
                POOL[crate::bounded(rng, POOL.len() as u32) as usize]
            };
            let t = Tile::new(k);
            // Some rounds add pairs, so that spare copies and full kinds come up.
            for _ in 0..1 + u32::from(round % 4 == 2) {
                if hand.count(t) < 4 && hand.len() < len {
                    hand.add(t);
                }
            }
        }
        hand
    }

    /// The 十三么 distance after each discard from the kept kinds, against the distance of
    /// each hand left, on hands of every length the special forms see.
    #[test]
    fn thirteen_orphans_keep_matches_the_distance() {
        let mut rng = crate::rng_from_seed(23);
        let mut raised = 0;
        let mut kept = 0;
        for round in 0..3_000u32 {
            let len = 14 + round as usize % 5;
            // Mostly orphans, so that the closest targets vary.
            let hand = orphan_heavy_hand(&mut rng, round, len);
            let (least, keep) = thirteen_orphans_keep(&hand);
            assert_eq!(least, naive_thirteen_orphans_distance(&hand), "{hand:?}");
            for t in hand.kinds() {
                let mut left = hand;
                left.remove(t);
                let after = naive_thirteen_orphans_distance(&left);
                let want_kept = after == least;
                assert_eq!(keep >> t.index() & 1 == 1, want_kept, "{hand:?} - {t}");
                assert!(want_kept || after == least + 1, "{hand:?} - {t}");
                raised += usize::from(!want_kept);
                kept += usize::from(want_kept);
            }
        }
        assert!(raised > 5_000 && kept > 5_000, "{raised} {kept}");
    }
}
