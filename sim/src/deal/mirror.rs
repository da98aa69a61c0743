//! Rearranging what one seat cannot see, for a client that rebuilds a deal from that seat's
//! messages (a bot told the deal by the protocol): the client plays the public actions on a
//! deal of its own, and before each one moves hidden tiles so that the action is possible
//! there (the other seat holds the tile it discards) and the next draws are the tiles the
//! table told of. Every move exchanges two hidden tiles, so the deal keeps every tile in
//! exactly one place ([`Deal::validate`]) and the viewer's view never changes.

use crate::meld::{Meld, MeldKind};
use crate::tile::{Drawn, Seat, Tile, TileSet, WallTile};

use super::Deal;

/// A place holding tiles one seat cannot see.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Hidden {
    /// Another seat's concealed hand.
    Hand(Seat),
    /// A wall tile not yet drawn, by its position in [`Wall::undrawn`](crate::Wall::undrawn)
    /// (0 is the next live draw, the last the next replacement).
    Wall(usize),
}

/// Why hidden tiles could not be exchanged.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExchangeError {
    #[error("the viewer's own hand is not hidden from it")]
    ViewersHand,
    #[error("{0:?} does not hold {1}")]
    NotThere(Hidden, WallTile),
    #[error("a hand cannot hold the flower {0}")]
    FlowerInHand(WallTile),
    #[error("{0} has no face-down kong of {1}")]
    NoHiddenKong(Seat, Tile),
}

impl Deal {
    /// Exchanges tile `a_tile` at `a` with tile `b_tile` at `b`, both hidden from `viewer`:
    /// afterwards `a` holds `b_tile` and `b` holds `a_tile`. The hands' waits are worked out
    /// again. Nothing changes on an error.
    pub fn exchange_hidden(
        &mut self,
        viewer: Seat,
        (a, a_tile): (Hidden, WallTile),
        (b, b_tile): (Hidden, WallTile),
    ) -> Result<(), ExchangeError> {
        for (place, tile, incoming) in [(a, a_tile, b_tile), (b, b_tile, a_tile)] {
            match place {
                Hidden::Hand(s) if s == viewer => return Err(ExchangeError::ViewersHand),
                Hidden::Hand(s) => {
                    let Drawn::Tile(t) = tile.classify() else {
                        return Err(ExchangeError::NotThere(place, tile));
                    };
                    if self.hands[s].count(t) == 0 {
                        return Err(ExchangeError::NotThere(place, tile));
                    }
                    if incoming.is_flower() {
                        return Err(ExchangeError::FlowerInHand(incoming));
                    }
                }
                Hidden::Wall(i) => {
                    if self.wall.undrawn().get(i) != Some(&tile) {
                        return Err(ExchangeError::NotThere(place, tile));
                    }
                }
            }
        }
        if a == b {
            return Ok(());
        }
        for (place, tile, incoming) in [(a, a_tile, b_tile), (b, b_tile, a_tile)] {
            match place {
                Hidden::Hand(s) => {
                    let (Drawn::Tile(out), Drawn::Tile(inn)) =
                        (tile.classify(), incoming.classify())
                    else {
                        unreachable!("checked above");
                    };
                    self.hands[s].remove(out);
                    self.hands[s].add(inn);
                }
                Hidden::Wall(i) => self.wall.set_undrawn(i, incoming),
            }
        }
        for place in [a, b] {
            if let Hidden::Hand(s) = place {
                if self.hands[s].len() % 3 == 1 {
                    self.update_waits(s);
                }
            }
        }
        Ok(())
    }

    /// Changes the kind of `seat`'s face-down kong of `from` (hidden from `viewer`) to `to`:
    /// the four copies of `to`, at `places` (a hand named once per copy), take the kong's
    /// place and its four tiles theirs. Nothing changes on an error.
    pub fn rekind_hidden_kong(
        &mut self,
        viewer: Seat,
        seat: Seat,
        from: Tile,
        to: Tile,
        places: [Hidden; 4],
    ) -> Result<(), ExchangeError> {
        if seat == viewer {
            return Err(ExchangeError::ViewersHand);
        }
        let Some(k) = self.melds[seat]
            .iter()
            .position(|m| m.kind() == MeldKind::ConcealedKong && m.tile() == from)
        else {
            return Err(ExchangeError::NoHiddenKong(seat, from));
        };
        let to_wall = WallTile::tile(to);
        for (i, place) in places.iter().enumerate() {
            let ok = match *place {
                Hidden::Hand(s) => {
                    s != viewer
                        && self.hands[s].count(to) as usize
                            >= places[..=i].iter().filter(|p| **p == *place).count()
                }
                Hidden::Wall(w) => {
                    self.wall.undrawn().get(w) == Some(&to_wall)
                        && places[..i].iter().all(|p| *p != *place)
                }
            };
            if !ok {
                return Err(ExchangeError::NotThere(*place, to_wall));
            }
        }
        for place in places {
            match place {
                Hidden::Hand(s) => {
                    self.hands[s].remove(to);
                    self.hands[s].add(from);
                }
                Hidden::Wall(w) => self.wall.set_undrawn(w, WallTile::tile(from)),
            }
        }
        self.melds[seat][k] = Meld::new(MeldKind::ConcealedKong, to, seat, 0);
        for place in places {
            if let Hidden::Hand(s) = place {
                if self.hands[s].len() % 3 == 1 {
                    self.update_waits(s);
                }
            }
        }
        Ok(())
    }

    /// Forgets what the seats other than `viewer` answered unseen since their last discard
    /// (a win passed, 過水; a pung passed, 弃先碰后): in a rebuilt deal those answers were the
    /// client's guesses, and they must not bar an action the real seat then takes.
    pub fn forget_hidden_answers(&mut self, viewer: Seat) {
        for s in Seat::ALL {
            if s != viewer {
                self.win_barred[s] = TileSet::EMPTY;
                self.passed_win[s] = 0;
                self.passed_pungs[s] = 0;
            }
        }
    }
}
