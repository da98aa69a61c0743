//! Determinizations: deals equal to a real one in everything one seat can see, with what it
//! cannot see put in place by the caller.
//!
//! A seat at a decision sees its own hand, every meld (other seats' concealed kongs face
//! down), flower and discard, the ready declarations, the wild indicator, how many tiles each
//! seat holds and how many are left in the wall, and a kong's tiles while a seat declares it
//! and the others may rob it (搶槓). It cannot see the other seats' concealed
//! tiles, the kinds of their concealed kongs, the order of the wall, nor what the other seats
//! answered to offers it was not asked about. [`View::unseen`] counts what is hidden and where
//! it lies; [`View::redeal`] builds a deal from the visible part of the real one and a
//! [`Fill`] of the hidden part. A sampling player redeals many fills and plays each forward.
//!
//! The redealt deal is built field by field from the real one's public fields and the
//! viewer's own (no `..self`), so a field added to [`Deal`] must be sorted into public,
//! the viewer's or hidden here before the crate compiles again; nothing hidden is copied.

use arrayvec::ArrayVec;

use crate::algo::waits;
use crate::hand::Hand;
use crate::meld::{Meld, MeldKind, MeldList};
use crate::seat::{BySeat, SeatSet};
use crate::tile::{Seat, Tile, TileSet, WallTile};
use crate::view::View;

use super::{ClaimOptions, Deal, DiscardList, Phase};

/// Wall tiles: 34 kinds, then the 8 flowers ([`WallTile::index`]).
pub const WALL_KINDS: usize = 42;

/// What a seat cannot see: how many copies of each wall tile, and the places they fill.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Unseen {
    /// Copies of each wall tile ([`WallTile::index`]: kinds, then flowers) the viewer cannot
    /// see. They fill exactly the places below.
    pub counts: [u8; WALL_KINDS],
    /// Concealed tiles each other seat holds (0 for the viewer, who sees its own), less the
    /// tiles of a kong it is declaring while the others may rob it (搶槓): those are on show.
    pub hand_sizes: BySeat<u8>,
    /// Concealed kongs each other seat has laid face down, kinds unseen (four tiles each).
    pub hidden_kongs: BySeat<u8>,
    /// Tiles left in the wall, the reserve included.
    pub wall: u8,
}

impl Unseen {
    /// The hidden places' total size, which the counts add up to.
    pub fn places(&self) -> usize {
        let hands: usize = self.hand_sizes.0.iter().map(|&n| n as usize).sum();
        let kongs: usize = self.hidden_kongs.0.iter().map(|&n| 4 * n as usize).sum();
        hands + kongs + self.wall as usize
    }
}

/// A filling of what one seat cannot see: each other seat's concealed tiles, the kinds of its
/// face-down kongs in the order it laid them, and the wall's undrawn tiles in live order (the
/// next live draw first, the next replacement last).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fill {
    /// The viewer's own entry is ignored (its hand is its own).
    pub hands: BySeat<Hand>,
    /// Kinds of each other seat's concealed kongs; a seat lays at most five sets.
    pub kongs: BySeat<ArrayVec<Tile, 5>>,
    /// At most the 144 tiles of a wall.
    pub wall: ArrayVec<WallTile, 144>,
}

/// Why a [`Fill`] or a deal could not be redealt.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RedealError {
    #[error("{0} is not deciding, or decides while the flowers first dealt are replaced (only its decisions after them are redealt)")]
    NotDeciding(Seat),
    #[error("{seat} holds {want} concealed tiles; the fill gives {got}")]
    HandSize { seat: Seat, want: u8, got: u8 },
    #[error("{seat} laid {want} concealed kongs; the fill names {got}")]
    Kongs { seat: Seat, want: u8, got: u8 },
    #[error("the wall has {want} tiles left; the fill gives {got}")]
    Wall { want: u8, got: u8 },
    #[error("the fill uses {got} copies of {tile} where {want} are unseen")]
    Counts { tile: WallTile, want: u8, got: u8 },
}

impl Fill {
    /// The hidden tiles of `unseen` dealt uniformly at random into its places: each other
    /// seat's face-down kongs (a kind with all four copies unseen), then its concealed tiles,
    /// then the wall. What a sampling player draws when it assumes nothing of the others'
    /// play. `None` when no kind is left for a face-down kong.
    pub fn shuffled(unseen: &Unseen, rng: &mut impl rand_core::RngCore) -> Option<Fill> {
        let mut counts = unseen.counts;
        let mut fill = Fill::default();
        for seat in Seat::ALL {
            for _ in 0..unseen.hidden_kongs[seat] {
                // A face-down kong's four copies are all unseen.
                let fours: ArrayVec<Tile, { Tile::NUM }> = Tile::ALL
                    .into_iter()
                    .filter(|t| counts[t.index()] == 4)
                    .collect();
                if fours.is_empty() {
                    return None;
                }
                let t = fours[crate::wall::bounded(rng, fours.len() as u32) as usize];
                counts[t.index()] = 0;
                fill.kongs[seat].push(t);
            }
        }
        // Hands hold no flowers (each is shown and replaced as drawn): the hands take their
        // tiles from the shuffled kinds, and the wall the rest with the flowers, shuffled again.
        let mut pool: ArrayVec<Tile, 136> = ArrayVec::new();
        for t in Tile::ALL {
            for _ in 0..counts[t.index()] {
                pool.push(t);
            }
        }
        shuffle(&mut pool, rng);
        let mut next = 0;
        for seat in Seat::ALL {
            for _ in 0..unseen.hand_sizes[seat] {
                fill.hands[seat].add(*pool.get(next)?);
                next += 1;
            }
        }
        fill.wall
            .extend(pool[next..].iter().map(|&t| WallTile::tile(t)));
        for f in crate::tile::Flower::ALL {
            for _ in 0..counts[Tile::NUM + f.index()] {
                fill.wall.push(WallTile::flower(f));
            }
        }
        fill.shuffle_wall(rng);
        Some(fill)
    }

    /// Puts the wall's tiles in a uniformly random order (Fisher–Yates with the engine's
    /// bounded draws), the hands and kongs as they are: what a sampler does last once it has
    /// placed the hidden tiles.
    pub fn shuffle_wall(&mut self, rng: &mut impl rand_core::RngCore) {
        shuffle(&mut self.wall, rng);
    }
}

impl View<'_> {
    /// Whether [`View::redeal`] can rebuild this decision: the viewer's turn, a discard it is
    /// asked about, or a kong's tile or a flower it may rob (搶槓, 七搶一), once the initial
    /// replacement of flowers is over.
    pub fn can_redeal(&self) -> bool {
        self.deal().redealable_for(self.seat())
    }

    /// What this seat cannot see (see [`Unseen`]), worked out from what it can.
    pub fn unseen(&self) -> Unseen {
        self.deal().unseen_by(self.seat())
    }

    /// A deal that shows this seat exactly what the real one shows it, with `fill` in place of
    /// everything it cannot see (see the module documentation). Only a decision of the
    /// viewer's own is redealt: its turn, or an offer it is asked about (a discard, a kong's
    /// tile or a flower; the seats asked before it are asked again in the redealt deal, since
    /// their answers are hidden). A kong on offer is dealt back to its declarer beside the
    /// fill's hand for that seat, which leaves the kong's tiles out ([`Unseen::hand_sizes`]).
    ///
    /// What the other seats did unseen is not carried over: whether they passed a win (過水)
    /// or a pung (弃先碰后) since their last discard. The redealt deal counts its decisions
    /// from 0.
    pub fn redeal(&self, fill: &Fill) -> Result<Deal, RedealError> {
        self.deal().redeal_for(self.seat(), fill)
    }
}

impl Deal {
    fn unseen_by(&self, viewer: Seat) -> Unseen {
        let seen = self.view(viewer).seen_counts();
        let mut counts = [0u8; WALL_KINDS];
        for (c, s) in counts.iter_mut().zip(seen) {
            *c = 4 - s;
        }
        if self.rules.procedure.tiles.has_flowers() {
            for f in crate::tile::Flower::ALL {
                let shown = Seat::ALL.iter().any(|&s| self.flowers[s].contains(f));
                counts[Tile::NUM + f.index()] = u8::from(!shown);
            }
        }
        let mut hand_sizes = BySeat([0; 4]);
        let mut hidden_kongs = BySeat([0; 4]);
        for seat in Seat::ALL.into_iter().filter(|&s| s != viewer) {
            hand_sizes[seat] = self.hands[seat].len() as u8;
            hidden_kongs[seat] = self.melds[seat]
                .iter()
                .filter(|m| m.kind() == MeldKind::ConcealedKong)
                .count() as u8;
        }
        // A kong that may be robbed is on show: its tiles are the declarer's, not unseen.
        if let Some((declarer, (tile, n))) = self.kong_tiles().filter(|&(s, _)| s != viewer) {
            counts[tile.index()] -= n;
            hand_sizes[declarer] -= n;
        }
        Unseen {
            counts,
            hand_sizes,
            hidden_kongs,
            wall: self.wall.remaining(),
        }
    }

    /// The seat declaring a kong others may rob, with the kong's kind and the copies of it
    /// that seat still holds (one added to a pung, four laid concealed).
    fn kong_tiles(&self) -> Option<(Seat, (Tile, u8))> {
        let (declarer, concealed) = self.kong_on_offer()?;
        let tile = self.tile_on_offer()?;
        Some((declarer, (tile, if concealed { 4 } else { 1 })))
    }

    fn redealable_for(&self, viewer: Seat) -> bool {
        self.to_act() == Some(viewer)
            && self.initial_cursor >= 4
            && matches!(
                self.phase,
                Phase::Turn { .. }
                    | Phase::Claims { .. }
                    | Phase::RobKong { .. }
                    | Phase::RobFlower { .. }
            )
    }

    fn redeal_for(&self, viewer: Seat, fill: &Fill) -> Result<Deal, RedealError> {
        if !self.redealable_for(viewer) {
            return Err(RedealError::NotDeciding(viewer));
        }
        let unseen = self.unseen_by(viewer);
        let mut used = [0u8; WALL_KINDS];
        let mut hands = self.hands;
        let mut melds: BySeat<MeldList> = self.melds.clone();
        for seat in Seat::ALL.into_iter().filter(|&s| s != viewer) {
            let hand = fill.hands[seat];
            let want = unseen.hand_sizes[seat];
            if hand.len() != want as usize {
                return Err(RedealError::HandSize {
                    seat,
                    want,
                    got: hand.len() as u8,
                });
            }
            for t in hand.tiles() {
                used[t.index()] += 1;
            }
            hands[seat] = hand;
            let kongs = &fill.kongs[seat];
            let want = unseen.hidden_kongs[seat];
            if kongs.len() != want as usize {
                return Err(RedealError::Kongs {
                    seat,
                    want,
                    got: kongs.len() as u8,
                });
            }
            let mut kinds = kongs.iter();
            for m in melds[seat].iter_mut() {
                if m.kind() == MeldKind::ConcealedKong {
                    let t = *kinds.next().expect("counted above");
                    used[t.index()] += 4;
                    *m = Meld::new(MeldKind::ConcealedKong, t, seat, 0);
                }
            }
        }
        let wall = self
            .wall
            .with_undrawn(&fill.wall)
            .ok_or(RedealError::Wall {
                want: unseen.wall,
                got: fill.wall.len() as u8,
            })?;
        for t in &fill.wall {
            used[t.index()] += 1;
        }
        for (i, (&got, &want)) in used.iter().zip(&unseen.counts).enumerate() {
            if got != want {
                let tile = match i {
                    _ if i < Tile::NUM => WallTile::tile(Tile::new(i as u8)),
                    _ => WallTile::flower(crate::tile::Flower::new((i - Tile::NUM) as u8)),
                };
                return Err(RedealError::Counts { tile, want, got });
            }
        }
        let own = |value: u64, seat: Seat| if seat == viewer { value } else { 0 };
        let mut deal = Deal {
            // Public: the table's rules, who deals, the seed the real wall was shuffled from
            // (an agent seeds its own generators from it; the wall here is `fill`'s).
            rules: self.rules,
            context: self.context,
            seed: self.seed,
            wall,
            hands,
            melds,
            // Flowers are shown as drawn; none is held back once the deal is under way.
            flowers: self.flowers,
            hidden_flowers: BySeat::default(),
            discards: DiscardList::clone(&self.discards),
            discard_counts: self.discard_counts,
            shown: self.shown,
            ready: self.ready,
            // The viewer's own 過水 and 弃先碰后 state; the other seats' passes were unseen.
            win_barred: BySeat(Seat::ALL.map(|s| TileSet(own(self.win_barred[s].0, s)))),
            passed_win: BySeat(Seat::ALL.map(|s| own(self.passed_win[s] as u64, s) as u8)),
            passed_pungs: BySeat(Seat::ALL.map(|s| own(self.passed_pungs[s], s))),
            // The viewer's, cached from its own hand before its draw; the others' below.
            waits: BySeat(Seat::ALL.map(|s| {
                if s == viewer {
                    self.waits[s]
                } else {
                    Default::default()
                }
            })),
            initial_cursor: self.initial_cursor,
            phase: self.phase,
            result: None,
            end_holder: None,
            end_short: None,
            steps: 0,
            wild_indicator: self.wild_indicator,
            claimable: self.claimable,
            hand_wild: self.hand_wild,
        };
        let kong = self.kong_tiles();
        for seat in Seat::ALL {
            if seat != viewer && kong.is_none_or(|(declarer, _)| declarer != seat) {
                deal.waits[seat] = waits(&deal.hands[seat], deal.hand_rules(seat));
            }
        }
        if let Some((declarer, (tile, n))) = kong {
            // The declarer's cached waits are those of the hand it waited with, which the
            // engine reads again only once the kong is settled; a concealed kong's tiles then
            // form a set of their own.
            let rules = deal.hand_rules(declarer);
            let rules = rules.with_sets(rules.sets - u8::from(n == 4));
            deal.waits[declarer] = waits(&deal.hands[declarer], rules);
            deal.hands[declarer].add_n(tile, n);
        }
        if let Phase::Claims {
            tile, discarder, ..
        } = self.phase
        {
            // The answers given before the viewer's are hidden: everyone with an option on
            // the redealt hands is asked again, in turn order.
            let chow = deal.chow_options(discarder.next(), tile);
            let (options, pending) = deal.claim_options(discarder, tile, chow);
            debug_assert!(options[viewer as usize] != ClaimOptions::default());
            deal.phase = Phase::Claims {
                tile,
                discarder,
                options,
                pending,
                winners: SeatSet::EMPTY,
                meld: None,
                chow: None,
            };
        }
        if let Phase::RobKong {
            tile,
            seat,
            concealed,
            ..
        } = self.phase
        {
            // As with a discard: every seat that may rob on the redealt hands is asked again.
            let pending = deal.kong_robbers(seat, tile);
            debug_assert!(pending.contains(viewer), "the viewer may rob the kong");
            deal.phase = Phase::RobKong {
                tile,
                seat,
                concealed,
                pending,
                winners: SeatSet::EMPTY,
            };
        }
        Ok(deal)
    }
}

/// Fisher–Yates with the engine's bounded draws.
fn shuffle<T, const N: usize>(items: &mut ArrayVec<T, N>, rng: &mut impl rand_core::RngCore) {
    for i in (1..items.len()).rev() {
        let j = crate::wall::bounded(rng, i as u32 + 1) as usize;
        items.swap(i, j);
    }
}
