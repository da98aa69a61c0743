//! Hand efficiency: how far a hand is from winning and how many unseen tiles bring it
//! closer (shanten and ukeire, 受入), and how well a tile works with the rest of the hand
//! (connectivity). The greedy agents rank their discards by it, the observation encoder
//! shows it (version 3), and the search agent's prior and rollouts read it: a room below all
//! three, so the encoder borrows nothing from an agent.

use taisim_sim::algo::{improving_kinds, Discards, HandRules, SpecialHands};
use taisim_sim::{Hand, Tile, TileSet};

/// The unseen copies of the kinds that lower the shanten of `hand` (a waiting-form hand of
/// `3 * sets + 1` tiles whose shanten is `shanten`), without wilds.
pub fn ukeire(
    hand: &Hand,
    sets: u8,
    shanten: i8,
    unseen: &[u8; Tile::NUM],
    special: SpecialHands,
) -> u32 {
    ukeire_under(hand, HandRules::new(sets, special), shanten, unseen)
}

/// [`ukeire`] under any hand rules, wilds included: the unseen copies of the kinds whose
/// draw lowers `shanten(hand, rules)`, which must be `shanten`. A drawn wild or stand-in
/// counts like any other kind.
pub fn ukeire_under(hand: &Hand, rules: HandRules, shanten: i8, unseen: &[u8; Tile::NUM]) -> u32 {
    let kinds = TileSet(may_improve(hand, rules));
    let mut total = 0;
    for t in improving_kinds(hand, rules, shanten, kinds) {
        total += unseen[t.index()] as u32;
    }
    total
}

/// The kinds whose draw can lower the shanten of `hand`, as a kind bitset. A drawn tile that
/// is neither held nor within two ranks of a held tile of its suit joins no set with the
/// hand, and a pair of it would need a second added tile where a held leftover needs one,
/// so it cannot help the regular form or eight pairs; 十三么 also wants every orphan kind,
/// held or not. Skipping the rest saves about a third of the shanten calls. The exception is
/// a hand holding some kind four times, whose leftover may have no copy left to pair: then
/// every kind is tried, and so with wilds (a wild drawn joins any part of the hand, and the
/// stand-in joins the tiles near the wild kind's face, not its own).
pub(crate) fn may_improve(hand: &Hand, rules: HandRules) -> u64 {
    const RANKS: u64 = 0x1ff;
    const ALL_KINDS: u64 = (1 << Tile::NUM) - 1;
    if rules.wild.is_some() || !hand.fours().is_empty() {
        return ALL_KINDS;
    }
    let special = rules.special;
    let held = hand.kinds().0;
    let mut near = held & !((1 << 27) - 1);
    for suit in 0..3 {
        let f = (held >> (9 * suit)) & RANKS;
        near |= ((f | f << 1 | f << 2 | f >> 1 | f >> 2) & RANKS) << (9 * suit);
    }
    if special.thirteen_orphans {
        near |= ORPHAN_KINDS;
    }
    near
}

/// For each kind `d` of `which` that `hand` (of `3 * sets + 2` tiles, scanned by
/// `discards` under `rules`) holds, at index `d`: the ukeire of the hand less one `d` (the
/// `unseen` copies of the kinds whose draw lowers its shanten), as [`ukeire_under`] gives
/// it; 0 at the other indices. One [`Discards::improving_kinds`] scan for all of them. The
/// greedy turn decision ranks discards by it, and the observation (version 3) shows it.
pub(crate) fn discard_ukeire(
    hand: &Hand,
    rules: HandRules,
    discards: &Discards<'_>,
    which: TileSet,
    unseen: &[u8; Tile::NUM],
) -> [u32; Tile::NUM] {
    let mut out = [0u32; Tile::NUM];
    let planes = bit_planes(unseen);
    // Kinds with no copy left add nothing, and the hand's near kinds hold every kind that
    // may improve a hand it leaves (which holds fewer kinds and no new four).
    let drawable = planes[0] | planes[1] | planes[2];
    let kinds = TileSet(may_improve(hand, rules) & drawable);
    let improving = discards.improving_kinds(which, kinds);
    for t in TileSet(which.0 & hand.kinds().0) {
        out[t.index()] = weighted_count(improving[t.index()].0, &planes);
    }
    out
}

/// The unseen copies of a set of kinds (a kind bitset), as a function: the counts are split
/// into bit planes once, so each set then sums in a few word operations.
pub(crate) fn improving_weight(unseen: &[u8; Tile::NUM]) -> impl Fn(u64) -> u32 {
    let planes = bit_planes(unseen);
    move |set| weighted_count(set, &planes)
}

/// How much a tile works with the rest of the hand: its other copies, and the copies of the
/// kinds within two ranks of it in its suit, nearer ones counting more. A cheap stand-in
/// for ukeire: the search's fast rollouts break greedy's ties by it, and its prior ranks
/// discards by it.
pub(crate) fn connectivity(hand: &Hand, t: Tile) -> u32 {
    let i = t.index();
    let mut c = 4 * (hand.count(t) as u32).saturating_sub(1);
    if i < 27 {
        let rank = i % 9;
        for (d, w) in [(1usize, 2u32), (2, 1)] {
            if rank >= d {
                c += w * hand.count(Tile::new((i - d) as u8)) as u32;
            }
            if rank + d < 9 {
                c += w * hand.count(Tile::new((i + d) as u8)) as u32;
            }
        }
    }
    c
}

/// 1m 9m 1p 9p 1s 9s and the seven honors.
const ORPHAN_KINDS: u64 = 1 | 1 << 8 | 1 << 9 | 1 << 17 | 1 << 18 | 1 << 26 | 0x7f << 27;

/// Per-kind counts (0 to 4) as three bit planes, kind `k` at bit `k`: a set of kinds then
/// sums its counts with [`weighted_count`] rather than a load per kind.
fn bit_planes(counts: &[u8; Tile::NUM]) -> [u64; 3] {
    debug_assert!(counts.iter().all(|&n| n <= 4), "{counts:?}");
    let mut bytes = [0u8; 40];
    bytes[..Tile::NUM].copy_from_slice(counts);
    let mut planes = [0u64; 3];
    for (i, chunk) in bytes.chunks_exact(8).enumerate() {
        let word = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        for (b, plane) in planes.iter_mut().enumerate() {
            // The multiply moves bit `b` of byte `j` to bit `56 + j`, each product term to
            // its own position, so nothing carries into the top byte.
            let bits = (word >> b) & 0x0101_0101_0101_0101;
            *plane |= (bits.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * i);
        }
    }
    planes
}

/// The sum of the counts of the kinds of `set`, from the counts' [`bit_planes`]: each
/// plane's popcount by bytes, weighted and added by bytes, then one horizontal add. A byte
/// sums at most 8 kinds of 4 copies and the whole at most 34 of them, so no byte overflows.
fn weighted_count(set: u64, planes: &[u64; 3]) -> u32 {
    let bytes = |x: u64| {
        let x = x - ((x >> 1) & 0x5555_5555_5555_5555);
        let x = (x & 0x3333_3333_3333_3333) + ((x >> 2) & 0x3333_3333_3333_3333);
        (x + (x >> 4)) & 0x0f0f_0f0f_0f0f_0f0f
    };
    let sum = bytes(set & planes[0]) + 2 * bytes(set & planes[1]) + 4 * bytes(set & planes[2]);
    (sum.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::RngCore;

    /// The bit-plane sum against a sum of loads, on random counts and sets of kinds.
    #[test]
    fn weighted_count_sums_the_counts_of_a_set() {
        let mut rng = taisim_sim::rng_from_seed(5);
        for round in 0..20_000u32 {
            let mut counts = [0u8; Tile::NUM];
            for c in counts.iter_mut() {
                // Some rounds every kind four times, the most a sum can reach.
                *c = if round % 16 == 0 {
                    4
                } else {
                    taisim_sim::bounded(&mut rng, 5) as u8
                };
            }
            let all = (1 << Tile::NUM) - 1;
            let set = if round % 16 == 0 {
                all
            } else {
                (u64::from(rng.next_u32()) << 32 | u64::from(rng.next_u32())) & all
            };
            let want: u32 = (0..Tile::NUM)
                .filter(|&k| set >> k & 1 == 1)
                .map(|k| u32::from(counts[k]))
                .sum();
            assert_eq!(
                weighted_count(set, &bit_planes(&counts)),
                want,
                "{counts:?} {set:x}"
            );
        }
    }
}
