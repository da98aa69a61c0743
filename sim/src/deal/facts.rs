//! What the liability rules (taizhou.md 「全包情况」) ask about the tile a deal was won on,
//! worked out from the finished deal when asked, so that play pays nothing for them.

use crate::algo::{is_win, waits, HandRules};
use crate::hand::Hand;
use crate::meld::MeldKind;
use crate::tile::{Drawn, Seat, Tile};

use super::{Deal, Outcome};

/// Facts about the discard (or robbed kong tile) a deal was won on, from the discarder's side:
/// what taizhou.md 「全包情况」 cases 1–3 turn on. See [`Deal::discard_facts`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct DiscardFacts {
    /// Who let the tile go: the discarder, or the seat whose kong was robbed.
    pub discarder: Seat,
    /// The tile won on.
    pub tile: Tile,
    /// The tile was robbed from a kong (搶槓), not discarded.
    pub robbed_kong: bool,
    /// The discarder could have won and did not (「当能胡的时候不胡」): since its own previous
    /// discard it passed a win on another seat's tile (its 過水 state when it let this tile
    /// go, whether or not the rules bar it), or on the turn it let this tile go it could have
    /// won by self-draw.
    pub declined_win: bool,
    /// The discarder's hand after letting the tile go is ready (听牌), wilds counted by the
    /// deal's rules.
    pub ready_after: bool,
    /// Before letting the tile go, some discard would have left the hand ready (「能听牌」).
    pub could_be_ready: bool,
    /// 生张: no copy of the tile's kind was in sight before it: no earlier discard (claimed
    /// ones included), no exposed meld and not the turned-up wild indicator. The discarder's
    /// own concealed tiles and concealed kongs do not count.
    pub first_seen: bool,
}

impl Deal {
    /// The [`DiscardFacts`] of a deal won on a discard or by robbing a kong; `None` for any
    /// other deal (self-draw, flower win, draw, or not over). Worked out now from the
    /// finished deal: play keeps no more than a discard count per seat for it (when each
    /// last passed a win).
    ///
    /// With several winners the facts are the discarder's, the same for all of them.
    pub fn discard_facts(&self) -> Option<DiscardFacts> {
        let result = self.result.as_ref()?;
        if result.outcome != Outcome::Discard {
            return None;
        }
        let discarder = result.payer?;
        let tile = result.win_tile?;
        let robbed_kong = result.context.robbing_kong;
        let rules = self.hand_rules(discarder);
        let (before, after, after_rules, passed, self_draw) = if robbed_kong {
            // The declarer still holds the kong's tiles: the deal ended before it was made.
            // A kong is never declared on a turn that began with a claim.
            let before = self.hands[discarder];
            let mut after = before;
            let concealed = before.count(tile) == 4;
            after.remove_n(tile, if concealed { 4 } else { 1 });
            let after_rules = if concealed {
                rules.with_sets(rules.sets - 1)
            } else {
                rules
            };
            // No discard since: a pass since its last discard is stamped count + 1.
            let passed = self.passed_win[discarder] == self.discard_counts[discarder] + 1;
            (before, after, after_rules, passed, is_win(&before, rules))
        } else {
            let after = self.hands[discarder];
            let mut before = after;
            before.add(tile);
            // The winning discard is the river's last; a pass before it and after the
            // seat's previous discard was stamped with the count the winning discard made.
            let passed = self.passed_win[discarder] == self.discard_counts[discarder];
            // A turn that began with a chow or pung offers no self-draw win, but a hand left
            // complete by one means the claimed tile won, so the seat passed that win (and
            // was stamped): testing the hand alone gives the same answer.
            (before, after, rules, passed, is_win(&before, rules))
        };
        Some(DiscardFacts {
            discarder,
            tile,
            robbed_kong,
            declined_win: passed || self_draw,
            ready_after: !waits(&after, after_rules).is_empty(),
            could_be_ready: could_be_ready(&before, rules),
            first_seen: !self.seen_before_last(tile, !robbed_kong),
        })
    }

    /// Whether a copy of `tile`'s kind was in sight: in the river (claimed discards too; the
    /// last one left out when `skip_last`), in an exposed meld or as the wild indicator.
    fn seen_before_last(&self, tile: Tile, skip_last: bool) -> bool {
        let river = &self.discards[..self.discards.len() - usize::from(skip_last)];
        let indicator = self
            .wild_indicator
            .is_some_and(|w| w.classify() == Drawn::Tile(tile));
        indicator
            || river.iter().any(|d| d.tile() == tile)
            || self
                .melds
                .0
                .iter()
                .flatten()
                .any(|m| m.kind() != MeldKind::ConcealedKong && m.count(tile) > 0)
    }
}

/// Whether some discard from `hand` (`3k + 2` tiles) leaves it ready.
fn could_be_ready(hand: &Hand, rules: HandRules) -> bool {
    hand.kinds().iter().any(|t| {
        let mut after = *hand;
        after.remove(t);
        !waits(&after, rules).is_empty()
    })
}
