//! The legal actions of the seat to act.

use crate::action::{Action, ActionList, LegalSet};
use crate::algo::{is_win, shanten};
use crate::meld::MeldKind;
use crate::tile::{FlowerSet, Seat, Tile, TileSet};

use super::{ClaimOptions, Deal, DrawSource, Phase};

impl Deal {
    /// The legal actions of the seat to act, in a fixed order. Empty when the deal is over.
    pub fn legal_actions(&self, out: &mut ActionList) {
        self.legal().list_into(out);
    }

    /// [`Deal::legal_actions`], packed: the same actions in the same order, built without
    /// listing a discard per kind.
    pub fn legal(&self) -> LegalSet {
        let mut set = LegalSet::new();
        match self.phase {
            Phase::Turn {
                seat,
                source,
                drawn,
            } => self.turn_actions(seat, source, drawn, &mut set),
            Phase::Claims {
                tile,
                discarder,
                options,
                pending,
                ..
            } => {
                let Some(seat) = pending.iter_after(discarder).next() else {
                    return set;
                };
                let opts = options[seat as usize];
                if opts.has(ClaimOptions::WIN) {
                    set.push(Action::Win);
                }
                if opts.has(ClaimOptions::KONG) {
                    set.push(Action::Kong);
                }
                if opts.has(ClaimOptions::PUNG) {
                    set.push(Action::Pung);
                }
                for k in 0..3u8 {
                    if opts.has(ClaimOptions::CHOW_LOW << k) {
                        set.push(Action::Chow(Tile::new(tile.to_u8() - k)));
                    }
                }
                set.push(Action::Pass);
            }
            Phase::RobKong { .. } | Phase::RobFlower { .. } => {
                set.push(Action::Win);
                set.push(Action::Pass);
            }
            Phase::Over => {}
        }
        set
    }

    pub(super) fn turn_actions(
        &self,
        seat: Seat,
        source: DrawSource,
        drawn: Option<Tile>,
        out: &mut LegalSet,
    ) {
        let hand = &self.hands[seat];
        let claimed = matches!(source, DrawSource::Claim);
        let wins = match (source, drawn) {
            // The hand before this draw is the one whose waits were cached at its discard.
            (DrawSource::Live | DrawSource::Flower, Some(t)) => self.waits[seat].contains(t),
            // The dealt hand, or a hand changed by a kong: check it whole.
            (DrawSource::Deal | DrawSource::Kong { .. }, _) => is_win(hand, self.hand_rules(seat)),
            _ => false,
        };
        // The missed-discard rule bars a self-drawn win on a kind the seat passed
        // (mahjongtime-taiwanese-rules.txt:61 "the rule is applied to a self-drawn tile, as
        // well"); 過水 bars none.
        let barred = self.rules.missed_win_same_tile
            && drawn.is_some_and(|t| self.win_barred[seat].contains(t));
        if wins && !barred {
            out.push(Action::SelfDrawWin);
        }
        if self.rules.flower_wins && self.flowers[seat] == FlowerSet::ALL {
            out.push(Action::FlowerWin);
        }
        if self.ready[seat].is_some() {
            // A declared ready hand is locked: it discards what it drew. Only the dealer's
            // first turn has no drawn tile, and it cannot have declared yet; stay total
            // anyway.
            out.discard(drawn.map_or(hand.kinds(), |t| TileSet::EMPTY.with(t)));
            return;
        }
        let can_kong = !claimed && self.drawable() > 0;
        if can_kong {
            for t in hand.fours() {
                out.push(Action::ConcealedKong(t));
            }
            for m in self.melds[seat].iter() {
                if m.kind() == MeldKind::Pung && hand.count(m.tile()) > 0 {
                    out.push(Action::AddedKong(m.tile()));
                }
            }
        }
        out.discard(hand.kinds());
        let may_declare = self.rules.declare_ready
            && !claimed
            && (self.discards.len() as u8) < self.rules.ready_window
            && !self.any_meld();
        // A discard can leave the hand ready only if the hand before it is at most one tile
        // from complete: one shanten call usually rules every candidate out.
        let hand_rules = self.hand_rules(seat);
        if may_declare && shanten(hand, hand_rules) <= 0 {
            let mut ready = TileSet::EMPTY;
            for t in hand.kinds() {
                let mut after = *hand;
                after.remove(t);
                if shanten(&after, hand_rules) == 0 {
                    ready.insert(t);
                }
            }
            out.discard_ready(ready);
        }
    }

    /// Whether `action` is legal now.
    pub fn is_legal(&self, action: Action) -> bool {
        self.legal().contains(action)
    }
}
