//! A sampler that reads the real deal: the other seats' true concealed tiles and face-down
//! kongs, only the wall's order redrawn. Never an agent's belief (it sees what the seat
//! cannot): studies use it to judge the search, where the hidden state may be read because
//! nothing decides on it. The `search_truth` example plays the search's departures from
//! greedy on these fills, so each is judged by its value in the true state; the
//! `search_arena` example lets the search itself read them, to show what knowing the hands
//! would be worth.

use rand_pcg::Pcg64Mcg;
use taisim_sim::{Deal, Fill, Flower, MeldKind, Seat, Tile, View, WallTile};

use super::Sampler;

/// The true-hands sampler of one decision (see the module documentation).
#[derive(Clone, Debug)]
pub struct TrueHands<'d> {
    deal: &'d Deal,
    fill: Fill,
    /// The fill before its wall is shuffled (the wall: the tiles no seat holds), worked out
    /// once a decision.
    unshuffled: Fill,
}

impl<'d> TrueHands<'d> {
    /// The sampler for a decision of `deal`.
    pub fn new(deal: &'d Deal) -> TrueHands<'d> {
        TrueHands {
            deal,
            fill: Fill::default(),
            unshuffled: Fill::default(),
        }
    }
}

impl Sampler for TrueHands<'_> {
    fn prepare(&mut self, view: &View<'_>, _rng: &mut Pcg64Mcg) {
        let mut counts = view.unseen().counts;
        let fill = &mut self.unshuffled;
        *fill = Fill::default();
        for o in Seat::ALL.into_iter().filter(|&o| o != view.seat()) {
            let mut hand = *self.deal.hand(o);
            // A kong the viewer may rob is on show: its tiles are no part of the hidden hand.
            if let (Some((declarer, concealed)), Some(t)) =
                (view.kong_on_offer(), view.tile_on_offer())
            {
                if declarer == o {
                    hand.remove_n(t, if concealed { 4 } else { 1 });
                }
            }
            fill.hands[o] = hand;
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
        self.fill.clone_from(&self.unshuffled);
        self.fill.shuffle_wall(rng);
        Some(&self.fill)
    }
}
