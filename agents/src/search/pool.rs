//! The unseen tiles not yet placed by a fill: counts per kind, drawn from at random.

use arrayvec::ArrayVec;
use rand_core::RngCore;
use taisim_sim::{bounded, Hand, Tile, WALL_KINDS};

/// Copies of each kind left to place, with their total.
#[derive(Clone, Debug)]
pub(crate) struct Pool {
    counts: [u8; Tile::NUM],
    total: u32,
}

impl Pool {
    /// The kinds of `unseen` (its flowers left out: they go to the wall).
    pub(crate) fn from_unseen(unseen: &[u8; WALL_KINDS]) -> Pool {
        let mut counts = [0u8; Tile::NUM];
        counts.copy_from_slice(&unseen[..Tile::NUM]);
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
        let mut k = bounded(rng, self.total);
        for (i, n) in self.counts.iter_mut().enumerate() {
            if k < *n as u32 {
                *n -= 1;
                self.total -= 1;
                return Some(Tile::new(i as u8));
            }
            k -= *n as u32;
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
