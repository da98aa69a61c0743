//! A sampler that reads the real deal: the other seats' true concealed tiles and face-down
//! kongs, only the wall's order redrawn. Never an agent's belief (it sees what the seat
//! cannot): it labels training data, where a target may use the hidden state as long as the
//! student that learns from it decides on its view alone. The search's estimates on these
//! fills are unbiased estimates of each action's value in the true state, so a regression on
//! the view learns the value under the true posterior of the hidden tiles, where labels from
//! the search's own belief carry that belief's errors.

use rand_pcg::Pcg64Mcg;
use taisim_sim::{bounded, Deal, Fill, Flower, MeldKind, Seat, Tile, View, WallTile};

use super::Sampler;

/// The true-hands sampler of one decision (see the module documentation).
#[derive(Clone, Debug)]
pub struct TrueHands<'d> {
    deal: &'d Deal,
    fill: Fill,
    /// The fill's wall before shuffling: the tiles no seat holds, worked out once.
    wall: Fill,
}

impl<'d> TrueHands<'d> {
    /// The sampler for a decision of `deal`.
    pub fn new(deal: &'d Deal) -> TrueHands<'d> {
        TrueHands {
            deal,
            fill: Fill::default(),
            wall: Fill::default(),
        }
    }
}

impl Sampler for TrueHands<'_> {
    fn prepare(&mut self, view: &View<'_>, _rng: &mut Pcg64Mcg) {
        let mut counts = view.unseen().counts;
        let fill = &mut self.wall;
        *fill = Fill::default();
        for o in Seat::ALL.into_iter().filter(|&o| o != view.seat()) {
            let hand = self.deal.hand(o);
            fill.hands[o] = *hand;
            for t in hand.tiles() {
                counts[t.index()] -= 1;
            }
            for m in self.deal.melds(o) {
                if m.kind() == MeldKind::ConcealedKong {
                    fill.kongs[o].push(m.tile());
                    counts[m.tile().index()] -= 4;
                }
            }
        }
        for (i, &n) in counts.iter().enumerate() {
            let tile = match i.checked_sub(Tile::NUM) {
                None => WallTile::tile(Tile::new(i as u8)),
                Some(f) => WallTile::flower(Flower::new(f as u8)),
            };
            for _ in 0..n {
                fill.wall.push(tile);
            }
        }
    }

    fn sample(&mut self, _view: &View<'_>, rng: &mut Pcg64Mcg) -> Option<&Fill> {
        self.fill.clone_from(&self.wall);
        let wall = &mut self.fill.wall;
        for i in (1..wall.len()).rev() {
            let j = bounded(rng, i as u32 + 1) as usize;
            wall.swap(i, j);
        }
        Some(&self.fill)
    }
}
