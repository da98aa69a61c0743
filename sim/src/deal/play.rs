//! Applying an action: a turn's discard, kong or win, and the answers to offers.

use crate::action::{Action, IllegalAction};
use crate::meld::{Meld, MeldKind};
use crate::seat::SeatSet;
use crate::tile::{Seat, Tile, TileSet};

use super::{Deal, Discard, DrawSource, Phase, Resume};

impl Deal {
    /// Applies a legal action; an illegal one is refused and the deal is unchanged.
    pub fn play(&mut self, action: Action) -> Result<(), IllegalAction> {
        if self.is_over() {
            return Err(IllegalAction::DealOver);
        }
        if !self.is_legal(action) {
            return Err(IllegalAction::NotLegal { action });
        }
        self.play_unchecked(action);
        Ok(())
    }

    /// Applies an action taken from [`Deal::legal_actions`] without checking it again. An
    /// illegal action here breaks the deal's invariants (caught by `debug_assert!` in debug
    /// builds) but is not undefined behaviour.
    pub fn play_unchecked(&mut self, action: Action) {
        debug_assert!(
            self.is_legal(action),
            "illegal {action} in {:?}",
            self.phase
        );
        self.steps += 1;
        match self.phase {
            Phase::Turn {
                seat,
                source,
                drawn,
            } => self.play_turn(seat, source, drawn, action),
            Phase::Claims { .. } => self.answer_claim(action),
            Phase::RobKong { .. } => self.answer_rob_kong(action),
            Phase::RobFlower {
                flower,
                revealer,
                robber,
                resume,
            } => {
                if action == Action::Win {
                    if resume == Resume::Initial {
                        self.end_short = Some(revealer);
                    }
                    self.flowers[revealer] = self.flowers[revealer].without(flower);
                    self.flowers[robber] = self.flowers[robber].with(flower);
                    self.finish(
                        Self::robbed_flower_result(robber, revealer),
                        (self.initial_cursor < 4).then_some(self.context.dealer),
                    );
                } else {
                    match resume {
                        Resume::Initial => {
                            self.replace_initial(revealer);
                            self.continue_initial_replacement();
                        }
                        Resume::Draw(source) => self.draw(revealer, source),
                    }
                }
            }
            Phase::Over => {}
        }
    }

    pub(super) fn play_turn(
        &mut self,
        seat: Seat,
        source: DrawSource,
        drawn: Option<Tile>,
        action: Action,
    ) {
        match action {
            Action::SelfDrawWin => {
                let result = self.self_draw_result(seat, source, drawn);
                self.finish(result, Some(seat));
            }
            Action::FlowerWin => self.finish(Self::flower_win_result(seat), Some(seat)),
            Action::ConcealedKong(t) => self.declare_kong(seat, t, true),
            Action::AddedKong(t) => self.declare_kong(seat, t, false),
            Action::Discard(t) | Action::DiscardReady(t) => {
                let ready = matches!(action, Action::DiscardReady(_));
                self.hands[seat].remove(t);
                if ready {
                    self.ready[seat] = Some(self.discards.len() as u8);
                }
                self.discards.push(Discard::new(t, seat, ready));
                self.shown[t.index()] += 1;
                self.discard_counts[seat] += 1;
                self.win_barred[seat] = TileSet::EMPTY;
                self.update_waits(seat);
                self.offer_discard(seat, t);
            }
            _ => unreachable!("{action} on a turn"),
        }
    }

    /// A kong is declared: seats that win on its tile may rob it first (an added kong always,
    /// a concealed one only where the rules say).
    pub(super) fn declare_kong(&mut self, seat: Seat, tile: Tile, concealed: bool) {
        let robbers = if !concealed || self.rules.rob_concealed_kong {
            self.kong_robbers(seat, tile)
        } else {
            SeatSet::EMPTY
        };
        if robbers.is_empty() {
            self.complete_kong(seat, tile, concealed);
        } else {
            self.phase = Phase::RobKong {
                tile,
                seat,
                concealed,
                pending: robbers,
                winners: SeatSet::EMPTY,
            };
        }
    }

    /// The seats that may win on `tile` as `declarer` makes a kong of it (搶槓): asked when
    /// the kong is declared, and again when a redeal rebuilds the decision on other hands.
    pub(super) fn kong_robbers(&self, declarer: Seat, tile: Tile) -> SeatSet {
        let mut robbers = SeatSet::EMPTY;
        for k in 1..4 {
            let other = declarer.add(k);
            if self.may_win_on_offer(other, tile) && self.can_win_with(other, tile) {
                robbers.insert(other);
            }
        }
        robbers
    }

    pub(super) fn complete_kong(&mut self, seat: Seat, tile: Tile, concealed: bool) {
        if concealed {
            self.hands[seat].remove_n(tile, 4);
            self.melds[seat].push(Meld::new(MeldKind::ConcealedKong, tile, seat, 0));
        } else {
            self.hands[seat].remove(tile);
            self.shown[tile.index()] += 1;
            let meld = self.melds[seat]
                .iter_mut()
                .find(|m| m.kind() == MeldKind::Pung && m.tile() == tile)
                .expect("added kong needs its pung");
            *meld = meld.upgraded();
        }
        self.draw(seat, DrawSource::Kong { exposed_from: None });
    }
}
