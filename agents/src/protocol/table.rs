//! The table as events tell it: what a client (a bot, the terminal seat, a log viewer) knows
//! after reading a deal's messages. From a seat's messages it is that seat's view; from a log
//! it is every seat's. Tests hold it equal to the engine's view after every step, which is
//! what shows the protocol loses nothing a seat may see.

use taisim_sim::{
    chow_tiles, BySeat, DealContext, Flower, FlowerSet, Hand, MeldKind, Seat, Tile, WallTile, Wind,
};

use super::event::{End, Event, Message};

/// A meld as the client knows it: a face-down kong of another seat has no tile.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SeenMeld {
    pub kind: MeldKind,
    /// The meld's tile (a chow's lowest), `None` for another seat's face-down kong.
    pub tile: Option<Tile>,
    /// The seat whose discard was claimed (the owner for a face-down kong).
    pub from: Seat,
    /// The claimed tile (for a chow, the one taken from the discard).
    pub claimed: Option<Tile>,
}

/// A discard in the river.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SeenDiscard {
    pub seat: Seat,
    pub tile: Tile,
    /// Taken by a claim (it now lies in that meld).
    pub claimed: bool,
    /// Declared ready with it.
    pub ready: bool,
}

/// Why a message does not fit the table as known.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Inconsistent(pub String);

/// What the messages of one deal told (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TableState {
    pub deal: u64,
    /// The seat whose view this is (`None`: a log's, every seat's).
    pub seat: Option<Seat>,
    pub variant: String,
    pub context: Option<DealContext>,
    /// The concealed hands known: the viewer's, or every one in a log.
    pub hands: BySeat<Option<Hand>>,
    /// How many concealed tiles each seat holds.
    pub hand_sizes: BySeat<u8>,
    pub melds: BySeat<Vec<SeenMeld>>,
    pub flowers: BySeat<FlowerSet>,
    pub river: Vec<SeenDiscard>,
    pub ready: BySeat<bool>,
    pub wild_indicator: Option<WallTile>,
    pub wild: Option<Tile>,
    pub left: u8,
    /// The last tile each seat drew, while it is in its hand (the viewer's own, or all in a
    /// log).
    pub drawn: Option<(Seat, Option<Tile>)>,
    /// The last event told (a viewer shows it).
    pub last: Option<Event>,
    pub end: Option<End>,
}

impl TableState {
    /// Applies one message of the deal (the first must be its start).
    pub fn apply(&mut self, m: &Message) -> Result<(), Inconsistent> {
        let bad = |s: String| Err(Inconsistent(s));
        if let Event::Start(s) = &m.event {
            *self = TableState {
                deal: m.deal,
                seat: m.seat,
                variant: s.variant.clone(),
                context: Some(s.context),
                hands: s.hands,
                flowers: s.flowers,
                wild_indicator: s.wild_indicator,
                wild: s.wild,
                left: s.left,
                ..TableState::default()
            };
            // Hand sizes: known hands as they are; the others as dealt (the dealer one more),
            // the same size as the viewer's own up to the dealer's extra tile.
            let known = Wind::ALL
                .into_iter()
                .find_map(|w| s.hands[w].map(|h| (w, h.len() as u8)));
            let dealer = s.context.dealer;
            for w in Wind::ALL {
                self.hand_sizes[w] = match (s.hands[w], known) {
                    (Some(h), _) => h.len() as u8,
                    (None, Some((k, n))) => n - u8::from(k == dealer) + u8::from(w == dealer),
                    (None, None) => 0,
                };
            }
            self.last = Some(m.event.clone());
            return Ok(());
        }
        if self.context.is_none() {
            return bad("a message before the deal's start".into());
        }
        if m.deal != self.deal {
            return bad(format!(
                "a message of deal {} in deal {}",
                m.deal, self.deal
            ));
        }
        match &m.event {
            Event::Start(_) => unreachable!("handled above"),
            Event::Draw { actor, tile, left } => {
                self.hand_sizes[*actor] += 1;
                self.left = *left;
                if let (Some(h), Some(t)) = (&mut self.hands[*actor], tile) {
                    h.try_add(*t)
                        .map_err(|e| Inconsistent(format!("{actor} draws {t}: {e}")))?;
                }
                self.drawn = Some((*actor, *tile));
            }
            Event::Flower { actor, flower } => {
                if self.flowers.0.iter().any(|f| f.contains(*flower)) {
                    return bad(format!("{flower} shown twice"));
                }
                self.flowers[*actor] = self.flowers[*actor].with(*flower);
            }
            Event::Discard { actor, tile, ready } => {
                self.take(*actor, *tile, 1)?;
                self.river.push(SeenDiscard {
                    seat: *actor,
                    tile: *tile,
                    claimed: false,
                    ready: *ready,
                });
                self.ready[*actor] |= *ready;
                self.drawn = None;
            }
            Event::Claim {
                kind,
                actor,
                from,
                tile,
                low,
            } => {
                match self.river.last_mut() {
                    Some(d) if d.seat == *from && d.tile == *tile && !d.claimed => d.claimed = true,
                    _ => {
                        return bad(format!(
                            "{actor} claims {tile} from {from}, which is not the last discard"
                        ))
                    }
                }
                match kind {
                    MeldKind::Chow => {
                        for t in chow_tiles(*low) {
                            if t != *tile {
                                self.take(*actor, t, 1)?;
                            }
                        }
                    }
                    MeldKind::Pung => self.take(*actor, *tile, 2)?,
                    _ => self.take(*actor, *tile, 3)?,
                }
                self.melds[*actor].push(SeenMeld {
                    kind: *kind,
                    tile: Some(*low),
                    from: *from,
                    claimed: Some(*tile),
                });
                self.drawn = None;
            }
            Event::ConcealedKong { actor, tile } => {
                match tile {
                    Some(t) => self.take(*actor, *t, 4)?,
                    None => {
                        if self.hands[*actor].is_some() {
                            return bad(format!("{actor}'s face-down kong without its tile"));
                        }
                        self.hand_sizes[*actor] -= 4;
                    }
                }
                self.melds[*actor].push(SeenMeld {
                    kind: MeldKind::ConcealedKong,
                    tile: *tile,
                    from: *actor,
                    claimed: None,
                });
                self.drawn = None;
            }
            Event::AddedKong { actor, tile } => {
                let meld = self.melds[*actor]
                    .iter_mut()
                    .find(|m| m.kind == MeldKind::Pung && m.tile == Some(*tile))
                    .ok_or_else(|| {
                        Inconsistent(format!("{actor} adds {tile} to a pung it does not have"))
                    })?;
                meld.kind = MeldKind::AddedKong;
                meld.claimed = None;
                self.take(*actor, *tile, 1)?;
                self.drawn = None;
            }
            Event::Decision { .. } => {}
            Event::End(e) => {
                self.end = Some((**e).clone());
            }
        }
        self.last = Some(m.event.clone());
        Ok(())
    }

    fn take(&mut self, seat: Seat, tile: Tile, n: u8) -> Result<(), Inconsistent> {
        if self.hand_sizes[seat] < n {
            return Err(Inconsistent(format!("{seat} holds fewer than {n} tiles")));
        }
        self.hand_sizes[seat] -= n;
        if let Some(h) = &mut self.hands[seat] {
            if h.count(tile) < n {
                return Err(Inconsistent(format!("{seat} does not hold {n} × {tile}")));
            }
            h.remove_n(tile, n);
        }
        Ok(())
    }

    /// Copies of each flower shown: whether `flower` is out.
    pub fn flower_shown(&self, flower: Flower) -> bool {
        self.flowers.0.iter().any(|f| f.contains(flower))
    }
}
