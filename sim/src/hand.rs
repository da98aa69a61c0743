//! A player's concealed tiles as packed counts.
//!
//! Two views are kept in step on every change, because the engine asks two kinds of question:
//! "how many of kind X" (claims, legality: one byte load) and "is this a win / what is the
//! shanten" (table lookups keyed by each suit's base-5 number, see [`crate::algo`]). Keeping
//! both costs two adds per tile moved, far less than deriving either from the other in the
//! hot path. Measured (BENCHMARKS.md): byte counts beat 3-bit counts packed in a `u128`,
//! whose variable 128-bit shifts dominated legal-action generation.

use core::fmt;

use crate::tile::{Suit, Tile, TileSet};

/// `5^k`, the place value of rank `k + 1` in a suit key.
pub const POW5: [u32; 9] = {
    let mut p = [1u32; 9];
    let mut i = 1;
    while i < 9 {
        p[i] = p[i - 1] * 5;
        i += 1;
    }
    p
};

/// Per kind: the group it belongs to and its place value in that group's key, so moving a
/// tile costs two table loads instead of a division by nine.
const GROUP: [u8; 34] = {
    let mut g = [0u8; 34];
    let mut i = 0;
    while i < 34 {
        g[i] = (i / 9) as u8;
        i += 1;
    }
    g
};
const PLACE: [u32; 34] = {
    let mut p = [0u32; 34];
    let mut i = 0;
    while i < 34 {
        p[i] = POW5[i % 9];
        i += 1;
    }
    p
};

/// Number of distinct keys of a numbered suit (`5^9`), and of the honors (`5^7`).
pub const SUIT_KEYS: usize = 1_953_125;
pub const HONOR_KEYS: usize = 78_125;

/// Concealed tiles: at most 4 of each of the 34 kinds.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Hand {
    /// Copies held of each kind.
    counts: [u8; 34],
    /// Base-5 key per group (m, p, s, honors): digit `r` is the count of rank `r + 1`.
    keys: [u32; 4],
    /// The kinds held at least once: iterating a `u64` beats masking 3-bit fields of a `u128`
    /// on every legal-action pass.
    present: u64,
    /// The kinds held four times (concealed-kong candidates), kept for the same reason.
    fours: u64,
    len: u8,
}

/// Why a tile could not be added to or taken from a [`Hand`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HandError {
    #[error("a fifth {0} (there are only four of each tile)")]
    FifthCopy(Tile),
    #[error("no {0} in the hand")]
    Missing(Tile),
}

impl Hand {
    pub const EMPTY: Hand = Hand {
        counts: [0; 34],
        keys: [0; 4],
        present: 0,
        fours: 0,
        len: 0,
    };

    /// A hand from per-kind counts. Errors on a count above 4.
    pub fn from_counts(counts: &[u8; 34]) -> Result<Hand, HandError> {
        let mut hand = Hand::EMPTY;
        for t in Tile::ALL {
            for _ in 0..counts[t.index()] {
                hand.try_add(t)?;
            }
        }
        Ok(hand)
    }

    /// How many of `tile` the hand holds.
    #[inline]
    pub const fn count(&self, tile: Tile) -> u8 {
        self.counts[tile.index()]
    }

    /// Total number of tiles.
    #[inline]
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The base-5 key of each group, `[m, p, s, honors]`.
    #[inline]
    pub const fn keys(&self) -> [u32; 4] {
        self.keys
    }

    /// The base-5 key of one group.
    #[inline]
    pub const fn key(&self, suit: Suit) -> u32 {
        self.keys[suit as usize]
    }

    /// Adds a tile. Panics in debug builds on a fifth copy; use [`Hand::try_add`] for
    /// untrusted input.
    #[inline]
    pub fn add(&mut self, tile: Tile) {
        debug_assert!(self.count(tile) < 4, "fifth {tile}");
        let i = tile.index();
        self.counts[i] += 1;
        self.keys[GROUP[i] as usize] += PLACE[i];
        self.present |= 1 << tile.index();
        self.fours |= ((self.counts[tile.index()] == 4) as u64) << tile.index();
        self.len += 1;
    }

    /// Removes a tile. Panics in debug builds if absent; use [`Hand::try_remove`] for
    /// untrusted input.
    #[inline]
    pub fn remove(&mut self, tile: Tile) {
        debug_assert!(self.count(tile) > 0, "no {tile} to remove");
        let i = tile.index();
        self.counts[i] -= 1;
        self.keys[GROUP[i] as usize] -= PLACE[i];
        if self.count(tile) == 0 {
            self.present &= !(1 << tile.index());
        }
        self.fours &= !(1 << tile.index());
        self.len -= 1;
    }

    /// Adds `n` copies at once.
    #[inline]
    pub fn add_n(&mut self, tile: Tile, n: u8) {
        for _ in 0..n {
            self.add(tile);
        }
    }

    /// Removes `n` copies at once.
    #[inline]
    pub fn remove_n(&mut self, tile: Tile, n: u8) {
        for _ in 0..n {
            self.remove(tile);
        }
    }

    pub fn try_add(&mut self, tile: Tile) -> Result<(), HandError> {
        if self.count(tile) >= 4 {
            return Err(HandError::FifthCopy(tile));
        }
        self.add(tile);
        Ok(())
    }

    pub fn try_remove(&mut self, tile: Tile) -> Result<(), HandError> {
        if self.count(tile) == 0 {
            return Err(HandError::Missing(tile));
        }
        self.remove(tile);
        Ok(())
    }

    /// Per-kind counts.
    #[inline]
    pub const fn counts(&self) -> [u8; 34] {
        self.counts
    }

    /// The counts as 3-bit fields of a `u128` (kind `i` at bits `3i..3i+3`), for bit-parallel
    /// shape tests (the special hands).
    pub fn packed(&self) -> u128 {
        self.counts
            .iter()
            .enumerate()
            .fold(0u128, |acc, (i, &c)| acc | (c as u128) << (3 * i))
    }

    /// The kinds present at least once.
    #[inline]
    pub const fn kinds(&self) -> TileSet {
        TileSet(self.present)
    }

    /// The kinds held four times.
    #[inline]
    pub const fn fours(&self) -> TileSet {
        TileSet(self.fours)
    }

    /// Every tile, in kind order, with repeats.
    pub fn tiles(&self) -> impl Iterator<Item = Tile> + '_ {
        self.kinds()
            .into_iter()
            .flat_map(move |t| core::iter::repeat_n(t, self.count(t) as usize))
    }

    /// Recomputes the keys and length from the counts and compares: the check that the
    /// incremental updates stayed in step.
    pub fn is_consistent(&self) -> bool {
        let mut keys = [0u32; 4];
        let mut present = 0u64;
        let mut fours = 0u64;
        let mut len = 0u8;
        for t in Tile::ALL {
            let c = self.count(t);
            if c > 4 {
                return false;
            }
            keys[t.suit() as usize] += c as u32 * POW5[(t.rank() - 1) as usize];
            if c > 0 {
                present |= 1 << t.index();
            }
            if c == 4 {
                fours |= 1 << t.index();
            }
            len += c;
        }
        keys == self.keys && len == self.len && present == self.present && fours == self.fours
    }
}

impl Default for Hand {
    fn default() -> Hand {
        Hand::EMPTY
    }
}

impl fmt::Display for Hand {
    /// Compact notation: `123m55p789s EEE C`-style, suits grouped (`1123m456pEEE`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::notation::write_tiles(f, self.tiles())
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hand({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_follow_counts() {
        let mut h = Hand::EMPTY;
        h.add(Tile::new(0));
        h.add(Tile::new(0));
        h.add(Tile::new(8));
        h.add(Tile::RED);
        assert_eq!(h.key(Suit::Man), 2 + POW5[8]);
        assert_eq!(h.key(Suit::Honor), POW5[6]);
        assert_eq!(h.len(), 4);
        assert!(h.is_consistent());
        h.remove(Tile::new(0));
        assert_eq!(h.count(Tile::new(0)), 1);
        assert!(h.is_consistent());
        assert_eq!(
            h.try_remove(Tile::new(5)),
            Err(HandError::Missing(Tile::new(5)))
        );
        h.add_n(Tile::RED, 3);
        assert_eq!(h.try_add(Tile::RED), Err(HandError::FifthCopy(Tile::RED)));
    }

    #[test]
    fn counts_round_trip() {
        let mut counts = [0u8; 34];
        for (i, c) in counts.iter_mut().enumerate() {
            *c = (i % 5) as u8;
        }
        let h = Hand::from_counts(&counts).unwrap();
        assert_eq!(h.counts(), counts);
        assert_eq!(h.tiles().count(), h.len());
    }
}
