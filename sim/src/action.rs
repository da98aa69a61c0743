//! What a seat may do: a small `Copy` value, and a fixed-capacity list of them.

use core::fmt;

use arrayvec::ArrayVec;

use crate::tile::Tile;

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
}
