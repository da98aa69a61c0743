//! What one seat may see: its own hand, every meld (concealed kongs face down), the river,
//! flowers, hand sizes and the wall count. Never another seat's concealed tiles.

use crate::deal::{Deal, Discard};
use crate::hand::Hand;
use crate::meld::{Meld, MeldKind};
use crate::tile::{FlowerSet, Seat, Tile};

/// A meld as another seat sees it: a concealed kong's kind is hidden.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct VisibleMeld {
    pub kind: MeldKind,
    /// `None` for someone else's concealed kong.
    pub tile: Option<Tile>,
    pub from: Seat,
}

/// A seat's view of a deal.
#[derive(Copy, Clone)]
pub struct View<'a> {
    deal: &'a Deal,
    seat: Seat,
}

impl<'a> View<'a> {
    pub fn new(deal: &'a Deal, seat: Seat) -> View<'a> {
        View { deal, seat }
    }

    /// The deal seen, for this crate's code that works out what the view shows
    /// ([`View::unseen`], [`View::redeal`]).
    pub(crate) const fn deal(&self) -> &'a Deal {
        self.deal
    }

    /// The viewing seat.
    pub const fn seat(&self) -> Seat {
        self.seat
    }

    pub fn hand(&self) -> &'a Hand {
        self.deal.hand(self.seat)
    }

    /// How many concealed tiles a seat holds (visible to all).
    pub fn hand_len(&self, seat: Seat) -> usize {
        self.deal.hand(seat).len()
    }

    /// A seat's melds as the viewer sees them.
    pub fn melds(&self, seat: Seat) -> impl Iterator<Item = VisibleMeld> + 'a {
        let own = seat == self.seat;
        self.deal
            .melds(seat)
            .iter()
            .map(move |m: &Meld| VisibleMeld {
                kind: m.kind(),
                tile: (own || m.kind() != MeldKind::ConcealedKong).then_some(m.tile()),
                from: m.from(),
            })
    }

    /// Copies of each kind the viewer can see: its own hand, every meld face up (its own
    /// concealed kongs included, other seats' hidden), the discards still lying in the
    /// river (a claimed discard lies in a meld and is counted there) and the wild indicator.
    /// At most 4 each.
    pub fn seen_counts(&self) -> [u8; Tile::NUM] {
        let mut seen = self.deal.shown_counts();
        let hand = self.hand().counts();
        for (s, h) in seen.iter_mut().zip(hand) {
            *s += h;
        }
        for m in self.own_melds() {
            if m.kind() == MeldKind::ConcealedKong {
                seen[m.tile().index()] += 4;
            }
        }
        seen
    }

    /// The viewer's own melds, concealed kongs included.
    pub fn own_melds(&self) -> &'a [Meld] {
        self.deal.melds(self.seat)
    }

    pub fn flowers(&self, seat: Seat) -> FlowerSet {
        self.deal.flowers(seat)
    }

    /// Every discard in order, claimed ones marked.
    pub fn discards(&self) -> &'a [Discard] {
        self.deal.discards()
    }

    /// The tile turned up as the wild indicator, set aside face up for all to see.
    pub fn wild_indicator(&self) -> Option<crate::tile::WallTile> {
        self.deal.wild_indicator()
    }

    /// The deal's wild kind (public: the indicator lies face up).
    pub fn wild(&self) -> Option<Tile> {
        self.deal.wild()
    }

    pub fn tiles_left(&self) -> u8 {
        self.deal.tiles_left()
    }

    pub fn drawable(&self) -> u8 {
        self.deal.drawable()
    }

    /// The tile on offer to the viewer (a discard or a kong's tile), when it must answer.
    pub fn tile_on_offer(&self) -> Option<Tile> {
        (self.deal.to_act() == Some(self.seat))
            .then(|| self.deal.tile_on_offer())
            .flatten()
    }

    /// The discard on offer to the viewer, when it must answer one ([`View::tile_on_offer`]
    /// less a kong being added).
    pub fn discard_on_offer(&self) -> Option<Tile> {
        (self.deal.to_act() == Some(self.seat))
            .then(|| self.deal.discard_on_offer())
            .flatten()
    }

    /// The tile the viewer just drew, on its own turn.
    pub fn drawn_tile(&self) -> Option<Tile> {
        (self.deal.to_act() == Some(self.seat))
            .then(|| self.deal.drawn_tile())
            .flatten()
    }

    /// Whether a seat declared ready (public: the declaration is made aloud).
    pub fn declared_ready(&self, seat: Seat) -> bool {
        self.deal.ready_declaration(seat).is_some()
    }

    /// Where in the river a seat's ready declaration lies, if it declared (public: it is
    /// made aloud with that discard). See [`Deal::ready_declaration`].
    pub fn ready_declaration(&self, seat: Seat) -> Option<u8> {
        self.deal.ready_declaration(seat)
    }

    /// The result the deal would end with if the viewer played `action`, a win legal for it
    /// now, and won alone ([`Deal::win_result`]); `None` when it is not the viewer's
    /// decision or `action` is not a legal win. What a win offered would score: the result
    /// reads only what the table shows and the viewer's own draw.
    pub fn win_result(&self, action: crate::action::Action) -> Option<crate::deal::DealResult> {
        (self.deal.to_act() == Some(self.seat))
            .then(|| self.deal.win_result(action))
            .flatten()
    }

    pub fn context(&self) -> &'a crate::deal::DealContext {
        self.deal.context()
    }

    /// The rules of the deal (public: every seat plays by them). Agents need the special
    /// hands and the number of sets to measure shanten.
    pub fn rules(&self) -> &'a crate::rules::Rules {
        self.deal.rules()
    }

    /// The tiles that complete the viewer's own hand while it waits (`3k + 1` tiles); empty
    /// while it holds `3k + 2` (the deal's cache then describes the hand before its draw).
    /// Computed from the viewer's own tiles only.
    pub fn waits(&self) -> crate::tile::TileSet {
        if self.hand().len() % 3 == 1 {
            self.deal.waits(self.seat)
        } else {
            crate::tile::TileSet::EMPTY
        }
    }

    /// The kong the viewer may rob (搶槓), when that is its decision: the seat declaring it,
    /// and whether the kong is concealed. The declarer still holds the kong's tiles (one
    /// copy of [`View::tile_on_offer`] for a kong added to a pung, four for a concealed one).
    pub fn kong_on_offer(&self) -> Option<(Seat, bool)> {
        (self.deal.to_act() == Some(self.seat))
            .then(|| self.deal.kong_on_offer())
            .flatten()
    }

    /// The flower the viewer may rob (七搶一), when that is its decision.
    pub fn flower_on_offer(&self) -> Option<crate::tile::Flower> {
        (self.deal.to_act() == Some(self.seat))
            .then(|| self.deal.flower_on_offer())
            .flatten()
    }

    /// The seat that must decide now (public: everyone sees whose turn it is), or `None`
    /// when the deal is over.
    pub fn to_act(&self) -> Option<Seat> {
        self.deal.to_act()
    }

    /// Whether the viewer is barred from winning on discards by 過水 (its own state).
    pub fn is_missed(&self) -> bool {
        self.deal.is_missed(self.seat)
    }

    /// The kinds the viewer may not pung from a discard now under 弃先碰后 (its own state).
    pub fn pung_barred(&self) -> crate::tile::TileSet {
        self.deal.pung_barred(self.seat)
    }
}

impl Deal {
    /// The seat's view.
    pub fn view(&self, seat: Seat) -> View<'_> {
        View::new(self, seat)
    }
}
