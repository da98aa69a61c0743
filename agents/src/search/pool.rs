//! The unseen tiles not yet placed by a fill: counts per kind, drawn from at random.

use arrayvec::ArrayVec;
use rand_core::RngCore;
use taisim_sim::{bounded, Hand, Tile, WALL_KINDS};

/// Bytes of [`Pool`]'s counts: the kinds, then zeros up to whole 8-byte words, so that a draw
/// reads them a word at a time.
const COUNT_BYTES: usize = Tile::NUM.next_multiple_of(8);

/// Each byte of a word set to 1: a multiply by it sums a word's bytes into its top byte
/// (and each byte's prefix into that byte), none carrying, as a count is at most 4 and a
/// word's at most 32.
const ONES: u64 = u64::from_le_bytes([1; 8]);

/// The top bit of each byte of a word.
const TOPS: u64 = 0x80 * ONES;

/// Copies of each kind left to place, with their total.
#[derive(Clone, Debug)]
pub(crate) struct Pool {
    /// By kind, then zeros (see [`COUNT_BYTES`]).
    counts: [u8; COUNT_BYTES],
    total: u32,
}

impl Pool {
    /// The kinds of `unseen` (its flowers left out: they go to the wall).
    pub(crate) fn from_unseen(unseen: &[u8; WALL_KINDS]) -> Pool {
        let mut counts = [0u8; COUNT_BYTES];
        counts[..Tile::NUM].copy_from_slice(&unseen[..Tile::NUM]);
        Pool {
            counts,
            total: counts.iter().map(|&n| n as u32).sum(),
        }
    }

    pub(crate) fn count(&self, t: Tile) -> u8 {
        self.counts[t.index()]
    }

    /// Takes one tile uniformly at random.
    pub(crate) fn draw(&mut self, rng: &mut impl RngCore) -> Option<Tile> {
        if self.total == 0 {
            return None;
        }
        let k = bounded(rng, self.total);
        Some(self.take_nth(k))
    }

    /// Takes the `k`-th tile here in kind order (`k` below the total).
    fn take_nth(&mut self, k: u32) -> Tile {
        let mut k = u64::from(k);
        // A word of eight kinds at a time: the belief's proposals draw some 80 tiles a fill,
        // and a scan kind by kind was a fifth of the belief's instructions.
        for (w, word) in self.counts.chunks_exact(8).enumerate() {
            let word = u64::from_le_bytes(word.try_into().expect("8 bytes"));
            // Byte j: the copies of the word's kinds 0..=j.
            let prefix = word.wrapping_mul(ONES);
            let in_word = prefix >> 56;
            if k < in_word {
                // The kinds whose prefix is past k: a byte of at most 32 plus 0x80, less at
                // most 33, keeps its top bit exactly when the prefix is above k, borrowing
                // from no other byte.
                let past = ((prefix | TOPS) - (k + 1) * ONES) & TOPS;
                let i = 8 * w + (past.trailing_zeros() / 8) as usize;
                self.counts[i] -= 1;
                self.total -= 1;
                return Tile::new(i as u8);
            }
            k -= in_word;
        }
        unreachable!("k < total")
    }

    pub(crate) fn take(&mut self, t: Tile) {
        debug_assert!(self.counts[t.index()] > 0);
        self.counts[t.index()] -= 1;
        self.total -= 1;
    }

    pub(crate) fn put(&mut self, t: Tile) {
        self.counts[t.index()] += 1;
        self.total += 1;
    }

    pub(crate) fn put_back(&mut self, hand: &Hand) {
        for t in hand.tiles() {
            self.put(t);
        }
    }

    pub(crate) fn take_hand(&mut self, hand: &Hand) {
        for t in hand.tiles() {
            self.take(t);
        }
    }

    /// Takes a kind with all four copies here, uniformly (a face-down kong's).
    pub(crate) fn take_four(&mut self, rng: &mut impl RngCore) -> Option<Tile> {
        let fours: ArrayVec<Tile, { Tile::NUM }> = Tile::ALL
            .into_iter()
            .filter(|&t| self.count(t) == 4)
            .collect();
        if fours.is_empty() {
            return None;
        }
        let t = fours[bounded(rng, fours.len() as u32) as usize];
        for _ in 0..4 {
            self.take(t);
        }
        Some(t)
    }
}

/// The `n`-th tile of `hand` in kind order.
pub(crate) fn nth(hand: &Hand, mut n: usize) -> Tile {
    for t in hand.kinds() {
        let c = hand.count(t) as usize;
        if n < c {
            return t;
        }
        n -= c;
    }
    unreachable!("n < hand.len()")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_pcg::Pcg64Mcg;
    use taisim_sim::rng_from_seed;

    /// The `k`-th tile by a word at a time is the `k`-th by a scan of the kinds, for every `k`
    /// of random pools (every count 0 to 4, full and nearly empty ones), and taking it leaves
    /// the counts and total a scan's take leaves.
    #[test]
    fn the_kth_tile_is_the_scans() {
        let mut rng: Pcg64Mcg = rng_from_seed(7);
        for round in 0..400 {
            let mut unseen = [0u8; WALL_KINDS];
            let fill = bounded(&mut rng, 5);
            for n in unseen.iter_mut().take(Tile::NUM) {
                *n = match round % 4 {
                    0 => 4,
                    1 => u8::from(bounded(&mut rng, 8) == 0) * (1 + bounded(&mut rng, 4) as u8),
                    _ => bounded(&mut rng, fill + 1) as u8,
                };
            }
            let pool = Pool::from_unseen(&unseen);
            // The pool as a hand, whose k-th tile `nth` finds by a scan of the kinds.
            let counts = pool.counts[..Tile::NUM].try_into().expect("34 kinds");
            let hand = Hand::from_counts(&counts).expect("counts of at most 4");
            for k in 0..pool.total {
                let want = nth(&hand, k as usize);
                let mut taken = pool.clone();
                assert_eq!(taken.take_nth(k), want, "round {round}, k {k}");
                let mut expected = pool.clone();
                expected.take(want);
                assert_eq!(taken.counts, expected.counts);
                assert_eq!(taken.total, pool.total - 1);
            }
        }
    }
}
