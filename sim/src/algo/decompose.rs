//! Every regular decomposition of a complete hand.

use arrayvec::ArrayVec;

use super::tables::{win_table, CODE_PAIR};
use super::HandRules;
use crate::hand::Hand;
use crate::tile::Tile;

/// One set of a decomposition.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Set {
    /// A run of three consecutive ranks, named by its lowest tile.
    Chow(Tile),
    /// Three of a kind.
    Pung(Tile),
}

/// A complete hand split into its sets (sorted) and its pair, and the faces its wilds stand
/// for.
///
/// Not `Copy`: `ArrayVec` is not, whatever its element type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Decomposition {
    pub sets: ArrayVec<Set, 5>,
    pub pair: Tile,
    /// The face each wild of the hand is read as, sorted (empty without wilds). The sets and
    /// the pair hold these faces; the hand's naturals fill the rest. Which set a wild sits
    /// in is left open where faces repeat: every placement reads the same.
    pub wilds: ArrayVec<Tile, 4>,
}

impl Decomposition {
    /// The naturals the reading places, by face: its sets' and pair's faces less the faces
    /// its wilds stand for (so which faces the stand-ins show is the reading's).
    pub fn natural_faces(&self) -> [u8; Tile::NUM] {
        let mut faces = [0u8; Tile::NUM];
        for s in &self.sets {
            match *s {
                Set::Chow(low) => (0..3).for_each(|k| faces[low.index() + k] += 1),
                Set::Pung(face) => faces[face.index()] += 3,
            }
        }
        faces[self.pair.index()] += 2;
        for w in &self.wilds {
            faces[w.index()] -= 1;
        }
        faces
    }
}

/// The most distinct decompositions any hand of at most 5 sets plus a pair has: 6, reached by
/// `11122233344456777m` (pair 11, 44 or 77 with the rest split as pungs and/or chows).
///
/// Found by exhaustion, not by estimate: a hand's decompositions are the product of its
/// groups' (groups share no kinds, honors split one way at most), so the test
/// `capacity_is_the_exhaustive_maximum` counts the splits of every one of the 5^9 suit keys
/// and maximises the product over every way of sharing 5 sets and the pair among the suits.
pub const MAX_DECOMPOSITIONS: usize = 6;

/// The decompositions of one hand; see [`MAX_DECOMPOSITIONS`] for why it never overflows.
pub type DecompositionList = ArrayVec<Decomposition, MAX_DECOMPOSITIONS>;

/// Every distinct regular decomposition of a complete hand (sets sorted, no duplicates):
/// `rules.sets` sets and a pair (special forms have none). Clears `out` first and leaves it
/// empty if the hand is not `rules.sets` sets plus a pair.
///
/// Returns whether every decomposition fit. Without wilds they always do
/// ([`MAX_DECOMPOSITIONS`]); with wilds a hand may have many more readings (each wild may be
/// read several ways), so `out` keeps the first [`MAX_DECOMPOSITIONS`] and this returns
/// `false` when there were more: use [`for_each_decomposition`] to see them all.
pub fn decompositions(hand: &Hand, rules: HandRules, out: &mut DecompositionList) -> bool {
    out.clear();
    if let Some(wild) = rules.wild {
        let mut all_fit = true;
        super::wild::for_each_decomposition(hand, rules, wild, |d| {
            all_fit &= out.try_push(d.clone()).is_ok();
        });
        return all_fit;
    }
    regular(hand, rules.sets, out);
    true
}

/// Calls `f` with every distinct decomposition of a complete hand, as [`decompositions`]
/// lists them, with or without wilds, allocating nothing.
pub fn for_each_decomposition(hand: &Hand, rules: HandRules, mut f: impl FnMut(&Decomposition)) {
    if let Some(wild) = rules.wild {
        return super::wild::for_each_decomposition(hand, rules, wild, f);
    }
    let mut out = DecompositionList::new();
    regular(hand, rules.sets, &mut out);
    out.iter().for_each(&mut f);
}

/// The decompositions of a hand without wilds.
fn regular(hand: &Hand, sets: u8, out: &mut DecompositionList) {
    if sets > 5 || hand.len() != 3 * sets as usize + 2 {
        return;
    }
    if !super::win::is_win(hand, sets) {
        return;
    }
    // The pair lies in the one group whose tile count is 2 mod 3; no other group can give it.
    let table = win_table();
    let keys = hand.keys();
    let pair_group = (0..3)
        .find(|&g| table.suit(keys[g]) == CODE_PAIR)
        .unwrap_or(3);
    let first = 9 * pair_group;
    let last = if pair_group == 3 { 34 } else { first + 9 };
    let mut counts = hand.counts();
    for p in first..last {
        if counts[p] >= 2 {
            counts[p] -= 2;
            let mut partial = Decomposition {
                sets: ArrayVec::new(),
                pair: Tile::ALL[p],
                wilds: ArrayVec::new(),
            };
            split(&mut counts, 0, &mut partial, out);
            counts[p] += 2;
        }
    }
}

/// Splits `counts[from..]` into sets. Taking, at the lowest kind present, a number of pungs
/// (0 or 1) and then exactly its remaining count as chows starting there makes each multiset
/// of sets reachable along one path only, so no duplicates arise.
fn split(
    counts: &mut [u8; 34],
    from: usize,
    partial: &mut Decomposition,
    out: &mut DecompositionList,
) {
    let mut i = from;
    while i < 34 && counts[i] == 0 {
        i += 1;
    }
    if i == 34 {
        let mut d = partial.clone();
        d.sets.sort_unstable();
        // The capacity is the proven maximum, so this never fails for a legal hand.
        let _ = out.try_push(d);
        return;
    }
    let c = counts[i];
    for pungs in 0..=(c / 3) {
        let chows = c - 3 * pungs;
        if chows > 0 && (i >= 27 || i % 9 > 6 || counts[i + 1] < chows || counts[i + 2] < chows) {
            continue;
        }
        if partial.sets.len() + (pungs + chows) as usize > 5 {
            continue;
        }
        let len = partial.sets.len();
        for _ in 0..pungs {
            partial.sets.push(Set::Pung(Tile::ALL[i]));
        }
        for _ in 0..chows {
            partial.sets.push(Set::Chow(Tile::ALL[i]));
        }
        counts[i] = 0;
        if chows > 0 {
            counts[i + 1] -= chows;
            counts[i + 2] -= chows;
        }
        split(counts, i + 1, partial, out);
        counts[i] = c;
        if chows > 0 {
            counts[i + 1] += chows;
            counts[i + 2] += chows;
        }
        partial.sets.truncate(len);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::{POW5, SUIT_KEYS};

    /// Per numbered-suit key, how many distinct multisets of sets it splits into exactly
    /// (`sets_only`) and how many (pair, sets) splits with one pair (`with_pair`), by the same
    /// canonical choice as `split` (pungs at the lowest rank, then chows for the rest).
    fn suit_counts() -> (Vec<u32>, Vec<u32>) {
        let digit = |key: usize, r: usize| (key / POW5[r] as usize) % 5;
        let mut sets_only = vec![0u32; SUIT_KEYS];
        sets_only[0] = 1;
        for key in 1..SUIT_KEYS {
            let i = (0..9).find(|&r| digit(key, r) > 0).unwrap();
            let c = digit(key, i);
            let mut n = 0;
            for pungs in 0..=c / 3 {
                let chows = c - 3 * pungs;
                let mut rest = key - 3 * pungs * POW5[i] as usize;
                if chows > 0 {
                    if i > 6 || digit(key, i + 1) < chows || digit(key, i + 2) < chows {
                        continue;
                    }
                    rest -= chows * (POW5[i] + POW5[i + 1] + POW5[i + 2]) as usize;
                }
                n += sets_only[rest];
            }
            sets_only[key] = n;
        }
        let mut with_pair = vec![0u32; SUIT_KEYS];
        for (key, slot) in with_pair.iter_mut().enumerate() {
            *slot = (0..9)
                .filter(|&r| digit(key, r) >= 2)
                .map(|r| sets_only[key - 2 * POW5[r] as usize])
                .sum();
        }
        (sets_only, with_pair)
    }

    /// The capacity is the true maximum: decompositions of a hand are the product of its
    /// groups' (groups share no kinds; honors split at most one way), so the maximum is the
    /// best split of 5 sets and the pair over the three suits of per-suit maxima, which this
    /// finds by exhausting every suit key.
    #[test]
    fn capacity_is_the_exhaustive_maximum() {
        let (sets_only, with_pair) = suit_counts();
        let tiles = |key: usize| (0..9).map(|r| (key / POW5[r] as usize) % 5).sum::<usize>();
        // best[p][m]: most splits of one suit holding exactly m sets and p pairs.
        let mut best = [[(0u32, 0usize); 6]; 2];
        for key in 0..SUIT_KEYS {
            let n = tiles(key);
            for (p, counts) in [&sets_only, &with_pair].into_iter().enumerate() {
                if n >= 2 * p && (n - 2 * p) % 3 == 0 && (n - 2 * p) / 3 <= 5 {
                    let m = (n - 2 * p) / 3;
                    if counts[key] > best[p][m].0 {
                        best[p][m] = (counts[key], key);
                    }
                }
            }
        }
        let mut overall = (0u32, [0usize; 3]);
        for a in 0..=5 {
            for b in 0..=5 - a {
                for c in 0..=5 - a - b {
                    // Honors take the remaining 5 - a - b - c sets, one way at most; the
                    // pair goes in the first suit (the suits are interchangeable).
                    let n = best[1][a].0 * best[0][b].0 * best[0][c].0;
                    if n > overall.0 {
                        overall = (n, [best[1][a].1, best[0][b].1, best[0][c].1]);
                    }
                }
            }
        }
        // The pair in the honors instead: the suits then hold sets only.
        for a in 0..=5 {
            for b in 0..=5 - a {
                for c in 0..=5 - a - b {
                    assert!(best[0][a].0 * best[0][b].0 * best[0][c].0 <= overall.0);
                }
            }
        }
        // The worst hand found is 111222333444567777m... spelled out in `worst_hand` below.
        assert_eq!(overall.1, [51093, 0, 0]);
        assert_eq!(overall.0 as usize, MAX_DECOMPOSITIONS);
    }
}
