//! The shanten after each discard from a hand of `3 * sets + 2` tiles, and the kinds whose
//! draw lowers it again (each hand's ukeire), for a turn decision that ranks every discard.
//!
//! A discard changes one group's key, so the half (man-pin or sou-honor) it leaves alone
//! keeps the hand's value for every discard from the other half: each discard costs a slot
//! lookup, a half lookup and a read from the fixed half's row of lacks, where a query per
//! discard would look up all four groups again. A draw after the discard changes at most one
//! more group; the half each draw gives on its own is looked up once and shared by every
//! discard, and a draw that leaves the whole hand's regular distance at a discard's lack
//! cannot lower the hand less that discard below it (a hand lacks no fewer tiles for holding
//! fewer), so it is not tried at all.
//!
//! The special forms follow from one look at the hand too: 八對's distance depends only on
//! how many kinds are held 0 to 4 times, so a discard moves one kind down a class, and
//! 十三么's rises by one after a discard unless a closest target leaves the discarded kind a
//! spare copy (see [`special::thirteen_orphans_keep`]).

use super::improve;
use super::special::{self, ORPHAN_KINDS};
use super::tables::{distance_table, DistanceTable, Group};
use super::wild;
use super::{HandRules, SpecialHands, Wild};
use crate::hand::{Hand, POW5};
use crate::tile::{Tile, TileSet};

/// The `lack` of a kind the hand does not hold.
const NOT_HELD: u8 = u8::MAX;

/// Every kind, as a kind bitset.
const ALL_KINDS: u64 = (1 << Tile::NUM) - 1;

/// The kinds of each group (man, pin, sou, honors), as kind bitsets.
const GROUP_KINDS: [u64; 4] = [0x1ff, 0x1ff << 9, 0x1ff << 18, 0x7f << 27];

/// The kinds of each half (man-pin, sou-honor).
const HALF_KINDS: [u64; 2] = [
    GROUP_KINDS[0] | GROUP_KINDS[1],
    GROUP_KINDS[2] | GROUP_KINDS[3],
];

/// Entries of a per-kind array that [`for_kinds`] indexes in the inner loops: one per bit of
/// a kind bitset, past the kinds too, so that the index needs no bounds check (the checks
/// were 6% of `improving_kinds`' instructions, measured by callgrind).
const BITS: usize = 64;

/// Per kind: its place value in its group's key (0 past the kinds).
const PLACE: [u32; BITS] = {
    let mut p = [0; BITS];
    let mut k = 0;
    while k < Tile::NUM {
        p[k] = POW5[k % 9];
        k += 1;
    }
    p
};

/// Calls `f` with each kind of a kind bitset, in order.
#[inline(always)]
pub(super) fn for_kinds(mut bits: u64, mut f: impl FnMut(usize)) {
    while bits != 0 {
        // Below 64 as `bits` is not 0; the mask lets the compiler see it, so that indexing
        // an array of [`BITS`] needs no bounds check.
        let k = (bits.trailing_zeros() & 63) as usize;
        bits &= bits - 1;
        f(k);
    }
}

/// The shanten of a hand of `3 * sets + 2` tiles after discarding each kind it holds, under
/// the regular form and the enabled special forms, and on request the kinds whose draw
/// lowers each such shanten again: [`shanten`](super::shanten) and
/// [`improving_kinds`](super::improving_kinds) of every hand one discard leaves, from one
/// look at the hand.
#[derive(Clone, Debug)]
pub struct Discards<'h> {
    hand: &'h Hand,
    sets: u8,
    special: SpecialHands,
    /// Each group's palette slot.
    slots: [usize; 4],
    /// The man-pin and sou-honor half ids.
    halves: [usize; 2],
    /// Per held kind: its group's palette slot once a copy is discarded.
    minus: [u8; Tile::NUM],
    /// Per held kind: its half's id once a copy is discarded.
    minus_half: [u16; Tile::NUM],
    /// Per held kind: the least distance of any enabled form once a copy is discarded;
    /// [`NOT_HELD`] for the other kinds.
    lack: [u8; Tile::NUM],
    /// The held kinds whose lack after a discard is the regular form's.
    regular_at_lack: u64,
    /// The deal's wilds: then every figure comes from the wild path (see `wild`).
    wild: Option<Wild>,
}

impl<'h> Discards<'h> {
    /// Scans `hand`, which holds `3 * rules.sets + 2` tiles with `rules.sets <= 5`.
    pub fn new(hand: &'h Hand, rules: HandRules) -> Discards<'h> {
        let HandRules { sets, special, .. } = rules;
        if let Some(w) = rules.wild {
            let scan = wild::Scan::new(hand, rules, w);
            let mut lack = [NOT_HELD; Tile::NUM];
            for_kinds(hand.kinds().0, |k| {
                lack[k] = scan.lack_changed(Tile::ALL[k], -1);
            });
            return Discards {
                hand,
                sets,
                special,
                slots: [0; 4],
                halves: [0; 2],
                minus: [0; Tile::NUM],
                minus_half: [0; Tile::NUM],
                lack,
                regular_at_lack: 0,
                wild: Some(w),
            };
        }
        debug_assert!(
            sets <= 5 && hand.len() == 3 * sets as usize + 2,
            "discards from {} tiles for {sets} sets",
            hand.len()
        );
        let table = distance_table();
        let keys = hand.keys();
        let slots = table.slots(keys);
        let groups = groups(table, &slots);
        let held = hand.kinds().0;
        let mut scan = Discards {
            hand,
            sets,
            special,
            slots,
            halves: [groups[0].half(slots[0]), groups[2].half(slots[2])],
            minus: [0; Tile::NUM],
            minus_half: [0; Tile::NUM],
            lack: [NOT_HELD; Tile::NUM],
            regular_at_lack: held,
            wild: None,
        };
        for (g, group) in groups.iter().enumerate() {
            let fixed = table.lack_row(sets as usize, scan.halves[1 - g / 2]);
            for_kinds(held & GROUP_KINDS[g], |k| {
                let slot = group.slot(keys[g] - PLACE[k]);
                let half = group.half(slot);
                scan.minus[k] = slot as u8;
                scan.minus_half[k] = half as u16;
                scan.lack[k] = fixed.lack(half);
            });
        }
        if scan.special_forms_apply() {
            scan.add_special_forms();
        }
        scan
    }

    /// [`shanten`](super::shanten) of the hand less one `tile`; `i8::MAX` for a
    /// kind the hand does not hold.
    #[inline]
    pub fn shanten(&self, tile: Tile) -> i8 {
        match self.lack[tile.index()] {
            NOT_HELD => i8::MAX,
            lack => lack as i8 - 1,
        }
    }

    /// The least shanten a discard leaves, and the held kinds whose discard leaves it
    /// (`i8::MAX` and none for a hand of no tiles, which a scan of `3 * sets + 2` never is).
    pub fn least(&self) -> (i8, TileSet) {
        let mut least = NOT_HELD;
        let mut at = 0u64;
        for_kinds(self.hand.kinds().0, |k| {
            let lack = self.lack[k];
            if lack < least {
                least = lack;
                at = 0;
            }
            if lack == least {
                at |= 1 << k;
            }
        });
        match least {
            NOT_HELD => (i8::MAX, TileSet::EMPTY),
            lack => (lack as i8 - 1, TileSet(at)),
        }
    }

    /// For each kind `d` of `discards` that the hand holds, at index `d`: the kinds of
    /// `kinds` whose draw lowers the shanten of the hand less one `d`, as
    /// [`improving_kinds`](super::improving_kinds) gives them. Empty at the other indices.
    pub fn improving_kinds(&self, discards: TileSet, kinds: TileSet) -> [TileSet; Tile::NUM] {
        let mut out = [TileSet::EMPTY; Tile::NUM];
        let discards = discards.0 & self.hand.kinds().0;
        let asked = kinds.0 & ALL_KINDS;
        if let Some(w) = self.wild {
            let rules = HandRules::new(self.sets, self.special).with_wild(w);
            let scan = wild::Scan::new(self.hand, rules, w);
            return scan.improving_after_discards(self.hand, discards, asked, &self.lack);
        }
        if self.special_forms_apply() {
            let mut pairs = self
                .special
                .eight_pairs
                .then(|| PairClasses::new(self.hand));
            for_kinds(discards, |d| {
                out[d] = TileSet(self.special_after(d, asked, pairs.as_mut()));
            });
        }
        // The regular distance drops by at most one per tile: it can take a discard below
        // its lack only where it is the lack already, and nothing lowers a lack of 0.
        let mut regular = 0;
        let mut most = 0;
        for_kinds(discards & self.regular_at_lack, |d| {
            if self.lack[d] > 0 {
                regular |= 1 << d;
                most = most.max(self.lack[d]);
            }
        });
        if regular == 0 {
            return out;
        }
        let table = distance_table();
        let groups = groups(table, &self.slots);
        let keys = self.hand.keys();
        let sets = self.sets as usize;
        let fours = self.hand.fours().0;
        // Each draw's group slot and half, and the draws that take the whole hand's regular
        // distance below `most`: the hand less a discard lacks no fewer tiles than the hand,
        // so no other draw lowers a discard's. A fifth copy cannot be drawn.
        let mut plus = [0u8; BITS];
        let mut plus_half = [0u16; BITS];
        let mut kinds = 0u64;
        for (g, group) in groups.iter().enumerate() {
            let fixed = table.lack_row(sets, self.halves[1 - g / 2]);
            for_kinds(asked & !fours & GROUP_KINDS[g], |t| {
                let slot = group.slot(keys[g] + PLACE[t]);
                let half = group.half(slot);
                plus[t] = slot as u8;
                plus_half[t] = half as u16;
                kinds |= u64::from(fixed.lack(half) < most) << t;
            });
        }
        // The draws from the other half change only that half, so their bits depend on the
        // discard only through the half it leaves (and its lack), and the draws from the
        // other group of its half only through the slot it leaves its own group at. The
        // least discards of a half mostly leave one half between them (1.2 distinct for 3.2
        // discards on average in random play of taiwan16) and a group often at one slot
        // (two lone tiles, say): each scan's last bits are kept with what they depend on.
        let mut last_half = [(usize::MAX, 0, 0); 2];
        for (g, group) in groups.iter().enumerate() {
            let h = g / 2;
            // The other half as held: draws from this half change this half only.
            let fixed = table.lack_row(sets, self.halves[1 - h]);
            let mut last_slot = (usize::MAX, 0, 0);
            for_kinds(regular & GROUP_KINDS[g], |d| {
                let lack = self.lack[d];
                let minus = self.minus[d] as usize;
                let minus_half = self.minus_half[d] as usize;
                if (minus_half, lack) != (last_half[h].0, last_half[h].1) {
                    let own = table.lack_row(sets, minus_half);
                    let mut bits = 0;
                    for_kinds(kinds & HALF_KINDS[1 - h], |t| {
                        bits |= u64::from(own.lack(plus_half[t] as usize) < lack) << t;
                    });
                    last_half[h] = (minus_half, lack, bits);
                }
                if (minus, lack) != (last_slot.0, last_slot.1) {
                    let mut bits = 0;
                    for_kinds(kinds & GROUP_KINDS[g ^ 1], |t| {
                        let p = plus[t] as usize;
                        let half = if g % 2 == 0 {
                            table.half(h, minus, p)
                        } else {
                            table.half(h, p, minus)
                        };
                        bits |= u64::from(fixed.lack(half) < lack) << t;
                    });
                    last_slot = (minus, lack, bits);
                }
                let mut bits = last_half[h].2 | last_slot.2;
                // A fourth copy of `d` drawn back gives the hand as held, not the hand plus
                // a tile, so the draws above leave it out.
                let own_kinds = (kinds | fours & asked & 1 << d) & GROUP_KINDS[g];
                let key = keys[g] - PLACE[d];
                for_kinds(own_kinds, |t| {
                    let half = group.half(group.slot(key + PLACE[t]));
                    bits |= u64::from(fixed.lack(half) < lack) << t;
                });
                out[d].0 |= bits;
            });
        }
        out
    }

    /// The kinds of `kinds` that lower an enabled special form's distance of the hand less
    /// `d` below its lack; `pairs` is the hand's [`PairClasses`] where 八對 is enabled.
    fn special_after(&self, d: usize, kinds: u64, pairs: Option<&mut PairClasses>) -> u64 {
        let lack = self.lack[d];
        if lack == 0 {
            return 0;
        }
        let kinds = kinds & !(self.hand.fours().0 & !(1 << d));
        let mut out = 0;
        if let Some(pairs) = pairs {
            out |= pairs.draws_after(d, lack) & kinds;
        }
        // Each form's lower bound drops by at most one per tile too.
        if self.special.thirteen_orphans && orphans_missing_after(self.hand, d) <= lack {
            let mut left = *self.hand;
            left.remove(Tile::ALL[d]);
            out |= improve::thirteen_orphans(&left, lack) & kinds;
        }
        out
    }

    /// Whether an enabled special form counts: only with all 17 tiles concealed, as in
    /// [`shanten`](super::shanten).
    #[inline]
    fn special_forms_apply(&self) -> bool {
        (self.special.eight_pairs || self.special.thirteen_orphans)
            && self.sets == 5
            && self.hand.len() == 17
    }

    /// Lowers the lack after discarding kind `k` to a special form's `distance` if that is
    /// less.
    #[inline]
    fn lower(&mut self, k: usize, distance: u8) {
        if distance < self.lack[k] {
            self.lack[k] = distance;
            self.regular_at_lack &= !(1 << k);
        }
    }

    /// Lowers each discard's lack to a special form's distance where that is less.
    fn add_special_forms(&mut self) {
        let held = self.hand.kinds().0;
        if self.special.eight_pairs {
            let pairs = PairClasses::new(self.hand);
            // The distance after discarding a kind held `c` times, found on first need.
            let mut by_count = [NOT_HELD; 5];
            for_kinds(held, |k| {
                let c = pairs.counts[k] as usize;
                if pairs.bound_after(c) < self.lack[k] {
                    if by_count[c] == NOT_HELD {
                        by_count[c] = special::eight_pairs_distance_of_classes(&pairs.after(c));
                    }
                    self.lower(k, by_count[c]);
                }
            });
        }
        if self.special.thirteen_orphans {
            let mut keep = None;
            for_kinds(held, |k| {
                if orphans_missing_after(self.hand, k) < self.lack[k] {
                    let (least, keep) =
                        *keep.get_or_insert_with(|| special::thirteen_orphans_keep(self.hand));
                    self.lower(k, least + (!keep >> k & 1) as u8);
                }
            });
        }
    }
}

/// The orphan kinds the hand less one `d` does not hold, a lower bound on its 十三么
/// distance: those the hand lacks, and `d` if it is an orphan held once.
#[inline]
fn orphans_missing_after(hand: &Hand, d: usize) -> u8 {
    let single = hand.count(Tile::ALL[d]) == 1 && ORPHAN_KINDS >> d & 1 == 1;
    special::missing_orphans(hand) + u8::from(single)
}

/// A hand's kinds by count, for 八對 after each discard: its distance depends only on how
/// many kinds are held 0 to 4 times, so a discard moves one kind down a count, and which
/// counts a draw may then raise to lower the distance is decided once per count of the
/// discarded kind.
struct PairClasses {
    counts: [u8; Tile::NUM],
    /// Kinds held 0 to 4 times: how many, and which.
    classes: [u8; 5],
    by_count: [u64; 5],
    /// Pair slots filled (a kind held four times fills two).
    slots: u8,
    /// Per count of the discarded kind: the lack last decided for, and the counts (bit `c`)
    /// whose draw then brings the distance below it.
    decided: [(u8, u8); 5],
}

impl PairClasses {
    fn new(hand: &Hand) -> PairClasses {
        let counts = hand.counts();
        let mut classes = [0u8; 5];
        let mut by_count = [0u64; 5];
        let mut slots = 0u8;
        for (k, &c) in counts.iter().enumerate() {
            classes[c as usize] += 1;
            by_count[c as usize] |= 1 << k;
            slots += c / 2;
        }
        PairClasses {
            counts,
            classes,
            by_count,
            slots,
            // No query has a lack of 0 (nothing lowers it), so nothing reads these.
            decided: [(0, 0); 5],
        }
    }

    /// The classes after discarding a kind held `c` times.
    fn after(&self, c: usize) -> [u8; 5] {
        let mut after = self.classes;
        after[c] -= 1;
        after[c - 1] += 1;
        after
    }

    /// [`special::eight_pairs_lower_bound`] after discarding a kind held `c` times: a kind
    /// held 2 or 4 times loses a filled slot.
    fn bound_after(&self, c: usize) -> u8 {
        8u8.saturating_sub(self.slots - u8::from(c % 2 == 0))
    }

    /// [`improve::eight_pairs`] of the hand less one `d`, whose distance is at least `lack`.
    fn draws_after(&mut self, d: usize, lack: u8) -> u64 {
        let c = self.counts[d] as usize;
        // The bound drops by at most one per tile.
        if self.bound_after(c) > lack {
            return 0;
        }
        if self.decided[c].0 != lack {
            let after = self.after(c);
            let mut raise = 0;
            for from in 0..4 {
                if after[from] > 0 {
                    let mut drawn = after;
                    drawn[from] -= 1;
                    drawn[from + 1] += 1;
                    let lower = special::eight_pairs_distance_of_classes(&drawn) < lack;
                    raise |= u8::from(lower) << from;
                }
            }
            self.decided[c] = (lack, raise);
        }
        let raise = self.decided[c].1;
        let bit = 1 << d;
        let mut out = 0;
        for from in 0..4 {
            if raise >> from & 1 == 1 {
                // The discarded kind moves from count `c` to `c - 1`.
                let moved = if from == c { !bit } else { u64::MAX };
                let joined = if from + 1 == c { bit } else { 0 };
                out |= self.by_count[from] & moved | joined;
            }
        }
        out
    }
}

/// Each group of a hand whose groups sit at `slots`, the others held.
#[inline(always)]
fn groups<'t>(table: &'t DistanceTable, slots: &[usize; 4]) -> [Group<'t>; 4] {
    [
        table.group(0, slots),
        table.group(1, slots),
        table.group(2, slots),
        table.group(3, slots),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::{improving_kinds, shanten};
    use rand_core::RngCore;

    /// A random hand of `len` tiles. Some rounds draw from the orphans, from a few kinds or
    /// in pairs, so that the special forms and low shanten come up often.
    fn random_hand(rng: &mut impl rand_core::RngCore, round: u32, len: usize) -> Hand {
        const ORPHAN_POOL: &[u8] = &[0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33, 1, 2, 3];
        const NARROW_POOL: &[u8] = &[0, 1, 2, 3, 4, 5, 6, 7, 27, 28];
        let mut hand = Hand::EMPTY;
        while hand.len() < len {
            let k = match round % 6 {
                0 => ORPHAN_POOL[crate::bounded(rng, ORPHAN_POOL.len() as u32) as usize],
                1 => NARROW_POOL[crate::bounded(rng, NARROW_POOL.len() as u32) as usize],
                _ => crate::bounded(rng, 34) as u8,
            };
            let t = Tile::new(k);
            let copies = if round % 6 == 2 { 2 } else { 1 };
            for _ in 0..copies {
                if hand.count(t) < 4 && hand.len() < len {
                    hand.add(t);
                }
            }
        }
        hand
    }

    /// Every discard's shanten and improving kinds against a `shanten_with` query per hand
    /// left and per draw, on random hands of every set count, under every combination of
    /// special forms.
    #[test]
    fn discards_match_shanten_queries() {
        let mut rng = crate::rng_from_seed(17);
        let mut improving = 0;
        let mut specials_lower = 0;
        for round in 0..6_000u32 {
            let sets = [5, 5, 5, 5, 4, 3, 2, 1, 0][round as usize % 9];
            let hand = random_hand(&mut rng, round, 3 * sets as usize + 2);
            // Half the rounds ask about a random subset of the kinds.
            let kinds = if round % 2 == 0 {
                ALL_KINDS
            } else {
                (u64::from(rng.next_u32()) << 32 | u64::from(rng.next_u32())) & ALL_KINDS
            };
            for special in SpecialHands::EVERY {
                let scan = Discards::new(&hand, HandRules::new(sets, special));
                let all = scan.improving_kinds(hand.kinds(), TileSet(kinds));
                let mut queried = [i8::MAX; Tile::NUM];
                for t in Tile::ALL {
                    if hand.count(t) == 0 {
                        assert_eq!(scan.shanten(t), i8::MAX);
                        assert!(all[t.index()].is_empty());
                        continue;
                    }
                    let mut left = hand;
                    left.remove(t);
                    let sh = shanten(&left, HandRules::new(sets, special));
                    assert_eq!(
                        scan.shanten(t),
                        sh,
                        "{hand:?} - {t} sets={sets} {special:?}"
                    );
                    queried[t.index()] = sh;
                    specials_lower += usize::from(sh < shanten(&left, HandRules::regular(sets)));
                    let mut want = 0u64;
                    for u in Tile::ALL {
                        if left.count(u) < 4 && kinds >> u.index() & 1 == 1 {
                            let mut drawn = left;
                            drawn.add(u);
                            if shanten(&drawn, HandRules::new(sets, special)) < sh {
                                want |= 1 << u.index();
                            }
                        }
                    }
                    let got = all[t.index()];
                    assert_eq!(got, TileSet(want), "{hand:?} - {t} sets={sets} {special:?}");
                    assert_eq!(
                        got,
                        improving_kinds(&left, HandRules::new(sets, special), sh, TileSet(kinds))
                    );
                    improving += usize::from(want != 0);
                }
                // The least of the queries, and the kinds whose discard leaves it.
                let least = queried.iter().copied().min().expect("34 kinds");
                let at: TileSet = Tile::ALL
                    .into_iter()
                    .filter(|t| queried[t.index()] == least)
                    .collect();
                assert_eq!(
                    scan.least(),
                    (least, at),
                    "{hand:?} sets={sets} {special:?}"
                );
                // Asking for some discards only leaves the others empty.
                let some = TileSet(hand.kinds().0 & kinds);
                let part = scan.improving_kinds(some, TileSet(kinds));
                for t in Tile::ALL {
                    let want = if some.contains(t) {
                        all[t.index()]
                    } else {
                        TileSet::EMPTY
                    };
                    assert_eq!(part[t.index()], want);
                }
            }
        }
        assert!(improving > 100_000, "{improving}");
        assert!(specials_lower > 2_000, "{specials_lower}");
    }
}
