//! What a seat may do: a small `Copy` value, a fixed-capacity list of them, and the same
//! list packed so that a uniform choice needs no listing.

use core::fmt;

use arrayvec::ArrayVec;

use crate::tile::{Tile, TileSet};

/// One decision. Only one seat acts at a time ([`Deal::to_act`](crate::Deal::to_act)), so an
/// action does not name its seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Discard a tile of this kind.
    Discard(Tile),
    /// Discard and declare ready (天聽/地聽): the hand is then locked.
    DiscardReady(Tile),
    /// 暗槓 four of a kind from the hand.
    ConcealedKong(Tile),
    /// 加槓: add the fourth tile to one's pung.
    AddedKong(Tile),
    /// 自摸: win on one's own draw.
    SelfDrawWin,
    /// 八仙過海: win with all eight flowers.
    FlowerWin,
    /// Win on the tile on offer: a discard, a kong being added (搶槓), or the eighth flower
    /// (七搶一).
    Win,
    /// 碰 the discard.
    Pung,
    /// 明槓: claim the discard as the fourth of a kind.
    Kong,
    /// 吃 the discard into the run whose lowest tile is given.
    Chow(Tile),
    /// Decline a claim.
    Pass,
}

impl Action {
    /// True for a win: on a discard or a robbed kong, by self-draw, or by flowers.
    pub const fn is_win(self) -> bool {
        matches!(self, Action::Win | Action::SelfDrawWin | Action::FlowerWin)
    }

    /// True for the actions that answer a claim opportunity.
    pub const fn is_claim_response(self) -> bool {
        matches!(
            self,
            Action::Win | Action::Pung | Action::Kong | Action::Chow(_) | Action::Pass
        )
    }

    /// A stable snake_case name of the kind of action.
    pub const fn name(self) -> &'static str {
        match self {
            Action::Discard(_) => "discard",
            Action::DiscardReady(_) => "discard_ready",
            Action::ConcealedKong(_) => "concealed_kong",
            Action::AddedKong(_) => "added_kong",
            Action::SelfDrawWin => "self_draw_win",
            Action::FlowerWin => "flower_win",
            Action::Win => "win",
            Action::Pung => "pung",
            Action::Kong => "kong",
            Action::Chow(_) => "chow",
            Action::Pass => "pass",
        }
    }

    /// The tile the action names, if any.
    pub const fn tile(self) -> Option<Tile> {
        match self {
            Action::Discard(t)
            | Action::DiscardReady(t)
            | Action::ConcealedKong(t)
            | Action::AddedKong(t)
            | Action::Chow(t) => Some(t),
            _ => None,
        }
    }
}

impl fmt::Display for Action {
    /// `discard 5m`, `chow 3m` (the run's lowest tile), `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.tile() {
            Some(t) => write!(f, "{} {t}", self.name()),
            None => f.write_str(self.name()),
        }
    }
}

/// Legal actions at one decision.
///
/// Bound: on a turn a seat holds at most 17 tiles, so at most 17 discard kinds and 17
/// ready-declaring discards; at most 5 kongs (concealed kongs need four in hand and added
/// kongs a pung meld plus its tile in hand: with `m` melds the hand has `17 - 3m` tiles and
/// the sum is at most 5 for every `m`); self-draw win and flower win. 17 + 17 + 5 + 2 = 41.
/// A claim offers at most win, pung, kong, three chows and pass: 7.
pub type ActionList = ArrayVec<Action, 41>;

/// The legal actions at one decision, packed: the actions before the discards (wins, kongs,
/// and every answer to an offer) in a short list, then the discards and the ready-declaring
/// discards as kind sets. It holds the actions of [`ActionList`] in the same order, but is
/// built without writing a discard per kind, and [`LegalSet::get`] reaches any of them by
/// position: a uniform choice costs a count and a bit search, not a list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LegalSet {
    /// Bound: a turn offers at most 2 wins and 5 kongs (see [`ActionList`]); an offer at
    /// most win, kong, pung, three chows and pass. 7 either way.
    head: ArrayVec<Action, 7>,
    discards: TileSet,
    ready: TileSet,
    /// The sizes of the two sets, counted once: a uniform choice needs both, and a
    /// population count is a dozen instructions on baseline x86-64.
    discard_count: u8,
    ready_count: u8,
}

impl LegalSet {
    /// No actions (the deal is over).
    pub const fn new() -> LegalSet {
        LegalSet {
            head: ArrayVec::new_const(),
            discards: TileSet::EMPTY,
            ready: TileSet::EMPTY,
            discard_count: 0,
            ready_count: 0,
        }
    }

    /// Appends an action before the discards.
    ///
    /// # Panics
    /// With more than 7 such actions, or once discards were added.
    #[inline]
    pub(crate) fn push(&mut self, action: Action) {
        debug_assert!(self.discards.is_empty() && self.ready.is_empty());
        self.head.push(action);
    }

    /// Discards every kind of `kinds` (after the actions pushed).
    #[inline]
    pub(crate) fn discard(&mut self, kinds: TileSet) {
        self.discards = kinds;
        self.discard_count = kinds.len() as u8;
    }

    /// Discards and declares ready every kind of `kinds` (after the plain discards).
    #[inline]
    pub(crate) fn discard_ready(&mut self, kinds: TileSet) {
        self.ready = kinds;
        self.ready_count = kinds.len() as u8;
    }

    pub const fn len(&self) -> usize {
        self.head.len() + self.discard_count as usize + self.ready_count as usize
    }

    /// The actions before the discards, in order: wins and kongs on a turn, every answer to
    /// an offer.
    pub fn head(&self) -> &[Action] {
        &self.head
    }

    /// The kinds [`Action::Discard`] may name.
    pub const fn discards(&self) -> TileSet {
        self.discards
    }

    /// The kinds [`Action::DiscardReady`] may name.
    pub const fn ready(&self) -> TileSet {
        self.ready
    }

    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The action at `index` in [`ActionList`] order.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    #[inline]
    pub fn get(&self, index: usize) -> Action {
        let head = self.head.len();
        if index < head {
            return self.head[index];
        }
        let index = index - head;
        let discards = self.discard_count as usize;
        if index < discards {
            Action::Discard(nth_kind(self.discards, index))
        } else {
            Action::DiscardReady(nth_kind(self.ready, index - discards))
        }
    }

    /// Whether `action` is among them.
    pub fn contains(&self, action: Action) -> bool {
        match action {
            Action::Discard(t) => self.discards.contains(t),
            Action::DiscardReady(t) => self.ready.contains(t),
            _ => self.head.contains(&action),
        }
    }

    /// The actions in order.
    pub fn iter(&self) -> impl Iterator<Item = Action> + '_ {
        let discards = self.discards.iter().map(Action::Discard);
        let ready = self.ready.iter().map(Action::DiscardReady);
        self.head.iter().copied().chain(discards).chain(ready)
    }

    /// Lists the actions into `out`, replacing what it held.
    pub fn list_into(&self, out: &mut ActionList) {
        out.clear();
        // `extend` keeps the length in a register; a `push` per kind round-trips it through
        // memory.
        out.extend(self.iter());
    }
}

/// Packs a list as [`Deal::legal_actions`](crate::Deal::legal_actions) gives it (discards and
/// ready declarations after the other actions).
///
/// # Panics
/// With more than 7 actions other than discards, which no legal list holds.
impl FromIterator<Action> for LegalSet {
    fn from_iter<I: IntoIterator<Item = Action>>(actions: I) -> LegalSet {
        let mut set = LegalSet::new();
        let (mut discards, mut ready) = (TileSet::EMPTY, TileSet::EMPTY);
        for action in actions {
            match action {
                Action::Discard(t) => discards.insert(t),
                Action::DiscardReady(t) => ready.insert(t),
                other => set.head.push(other),
            }
        }
        set.discard(discards);
        set.discard_ready(ready);
        set
    }
}

/// The `n`-th kind of `kinds` in index order; `n < kinds.len()`.
#[inline]
fn nth_kind(kinds: TileSet, n: usize) -> Tile {
    let mut bits = kinds.0;
    for _ in 0..n {
        bits &= bits.wrapping_sub(1);
    }
    assert!(bits != 0, "kind {n} of {:?} asked", kinds);
    Tile::new(bits.trailing_zeros() as u8)
}

/// An action that is not legal now. The deal is unchanged.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalAction {
    #[error("the deal is over")]
    DealOver,
    #[error("{action} is not legal here")]
    NotLegal { action: Action },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_and_named() {
        assert!(core::mem::size_of::<Action>() <= 2);
        assert_eq!(Action::Chow(Tile::new(2)).to_string(), "chow 3m");
        assert_eq!(Action::Pass.to_string(), "pass");
    }

    #[test]
    fn packed_set_lists_head_then_discards_then_ready_declarations() {
        let t = |i| Tile::new(i);
        let mut set = LegalSet::new();
        assert!(set.is_empty());
        set.push(Action::SelfDrawWin);
        set.push(Action::ConcealedKong(t(4)));
        set.discard(TileSet::EMPTY.with(t(0)).with(t(4)).with(t(33)));
        set.discard_ready(TileSet::EMPTY.with(t(0)).with(t(33)));
        let expected = [
            Action::SelfDrawWin,
            Action::ConcealedKong(t(4)),
            Action::Discard(t(0)),
            Action::Discard(t(4)),
            Action::Discard(t(33)),
            Action::DiscardReady(t(0)),
            Action::DiscardReady(t(33)),
        ];
        assert_eq!(set.len(), expected.len());
        assert_eq!(set.iter().collect::<Vec<_>>(), expected);
        for (i, a) in expected.iter().enumerate() {
            assert_eq!(set.get(i), *a, "position {i}");
            assert!(set.contains(*a));
        }
        for absent in [
            Action::Discard(t(1)),
            Action::DiscardReady(t(4)),
            Action::ConcealedKong(t(0)),
            Action::Pass,
        ] {
            assert!(!set.contains(absent), "{absent}");
        }
        let mut list = ActionList::new();
        list.push(Action::Pass);
        set.list_into(&mut list);
        assert_eq!(list.as_slice(), expected);
        assert_eq!(list.iter().copied().collect::<LegalSet>(), set);
        assert_eq!(set.head(), &expected[..2]);
        assert_eq!((set.discards().len(), set.ready().len()), (3, 2));
    }

    #[test]
    #[should_panic(expected = "kind 2 of")]
    fn a_position_past_the_end_panics() {
        let mut set = LegalSet::new();
        set.discard(TileSet::EMPTY.with(Tile::new(2)));
        set.discard_ready(TileSet::EMPTY.with(Tile::new(2)));
        let _ = set.get(3);
    }
}
