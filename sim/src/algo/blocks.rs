//! The wild path's per-group table: for every group key, the best *blocks* of its naturals
//! (see the module `wild`), built once on first use.
//!
//! A group's blocks depend only on its counts, so the search the wild path ran per group
//! (cached per thread, missed by most new hands) is tabulated like the distance table: a
//! byte per key indexes a palette of the distinct arrays (163 of them; asserted when built). Keys are built in increasing
//! order by the lowest-tile argument of the win table: at the lowest rank held, one copy is
//! left out of every block, or some block starts there, and every block shape is one of the
//! eight of the search; either way the rest is a smaller key, done already.
//!
//! The arrays use the distance table's lanes ([`Dist`]): `s` non-empty set blocks and no pair
//! block at lane `s`, with a pair block at `8 + s`, [`FAR`] where no choice of blocks gives
//! that count. Only the wild variants build it (2 MB).

use std::sync::OnceLock;

use super::tables::{intern, Digits, Dist, DistMap, FAR};
use crate::hand::{HONOR_KEYS, POW5, SUIT_KEYS};

/// The blocks of no tiles: no block at all, nothing lacking.
pub(crate) const NO_TILES: Dist = {
    let mut d = [FAR; 16];
    d[0] = 0;
    d
};

/// Per group key, its blocks as a palette slot.
pub(crate) struct BlocksTable {
    suit_index: Box<[u8]>,
    honor_index: Box<[u8]>,
    /// The distinct arrays, the suits' and the honors' together.
    palette: Box<[Dist]>,
}

impl BlocksTable {
    /// The blocks of group `g` (0 to 2 the numbered suits, 3 the honors) at base-5 `key`.
    /// A key no consistent hand has (past the last) reads as the empty group rather than
    /// panicking; callers never form one (a face holds at most four naturals).
    #[inline(always)]
    pub(crate) fn blocks(&self, g: usize, key: u32) -> &Dist {
        let index = if g == 3 {
            &self.honor_index
        } else {
            &self.suit_index
        };
        debug_assert!((key as usize) < index.len(), "group {g} key {key}");
        &self.palette[index.get(key as usize).copied().unwrap_or(0) as usize]
    }

    /// Distinct arrays in the palette.
    #[cfg(test)]
    pub(crate) fn palette_len(&self) -> usize {
        self.palette.len()
    }

    /// Bytes held by the indices and the palette.
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        self.suit_index.len() + self.honor_index.len() + 16 * self.palette.len()
    }
}

/// The blocks table, built on first use.
pub(crate) fn blocks_table() -> &'static BlocksTable {
    static TABLE: OnceLock<BlocksTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut palette = Vec::new();
        let mut seen = DistMap::default();
        let suit_index = build(9, true, &mut palette, &mut seen);
        let honor_index = build(7, false, &mut palette, &mut seen);
        assert!(palette.len() <= 256, "blocks palette outgrew a byte index");
        let bytes = |index: Box<[u16]>| -> Box<[u8]> { index.iter().map(|&i| i as u8).collect() };
        let (suit_index, honor_index) = (bytes(suit_index), bytes(honor_index));
        debug_assert_eq!(suit_index.len(), SUIT_KEYS);
        debug_assert_eq!(honor_index.len(), HONOR_KEYS);
        BlocksTable {
            suit_index,
            honor_index,
            palette: palette.into_boxed_slice(),
        }
    })
}

/// Lane-wise minimum of `into` and `from` plus `lacks` slots, `from` read as holding one more
/// set block (a set shape): its lanes move up one, and five sets, the most ever asked for,
/// are not carried further.
#[inline(always)]
fn add_set(into: &mut Dist, from: &Dist, lacks: u8) {
    for s in 0..5 {
        into[s + 1] = into[s + 1].min(from[s] + lacks);
        into[9 + s] = into[9 + s].min(from[8 + s] + lacks);
    }
}

/// `from`'s no-pair lanes read as holding a pair block too (a pair shape).
#[inline(always)]
fn add_pair(into: &mut Dist, from: &Dist, lacks: u8) {
    for s in 0..6 {
        into[8 + s] = into[8 + s].min(from[s] + lacks);
    }
}

/// Builds one group's index (`kinds` ranks, chows or not) into the shared palette.
fn build(kinds: usize, chows: bool, palette: &mut Vec<Dist>, seen: &mut DistMap) -> Box<[u16]> {
    let n = POW5[kinds - 1] as usize * 5;
    let mut index = vec![0u16; n];
    index[0] = intern(palette, seen, NO_TILES);
    let mut digits = Digits::ZERO;
    for key in 1..n {
        digits.increment();
        let (i, c) = digits.lowest();
        let p = POW5[i] as usize;
        let at = |k: usize| palette[index[k] as usize];
        // One copy of rank `i` in no block.
        let one = at(key - p);
        let mut d = one;
        // A block holding that copy starts at rank `i`, the lowest held: `1` as the pair or
        // a set, `11`, `111`, then the chow shapes `12`, `13`, `123`.
        add_pair(&mut d, &one, 1);
        add_set(&mut d, &one, 2);
        if c >= 2 {
            let two = at(key - 2 * p);
            add_pair(&mut d, &two, 0);
            add_set(&mut d, &two, 1);
        }
        if c >= 3 {
            add_set(&mut d, &at(key - 3 * p), 0);
        }
        if chows {
            let next = i + 1 < kinds && digits.0[i + 1] > 0;
            let after = i + 2 < kinds && digits.0[i + 2] > 0;
            if next {
                add_set(&mut d, &at(key - p - POW5[i + 1] as usize), 1);
            }
            if after {
                add_set(&mut d, &at(key - p - POW5[i + 2] as usize), 1);
            }
            if next && after {
                let k = key - p - POW5[i + 1] as usize - POW5[i + 2] as usize;
                add_set(&mut d, &at(k), 0);
            }
        }
        for lane in &mut d {
            *lane = (*lane).min(FAR);
        }
        index[key] = intern(palette, seen, d);
    }
    index.into_boxed_slice()
}
