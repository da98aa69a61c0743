//! The results wins end a deal with: built here both to play a win and to answer what a win
//! offered now would be ([`Deal::win_result`]), so a seat weighing a win (a variant's
//! minimum, 起胡) reads the very result the engine would record.

use crate::action::Action;
use crate::seat::SeatSet;
use crate::tile::{Seat, Tile};

use super::{Deal, DealResult, DrawSource, Outcome, Phase, WinContext};

impl Deal {
    /// The result the deal would end with if the seat to act played `action`, a legal win,
    /// and won alone (`None` when `action` is not a legal win now). On a discard that several
    /// seats may win, each winner's own result is this one with the others added; scoring
    /// judges each winner's 人胡 on its own (taisim_score's `WinInput::from_deal`).
    ///
    /// Everything it reads is public or the winner's own: the phase (whose draw, from a kong
    /// or a flower, is shown to all), the counts of discards and melds, the wall's count.
    pub fn win_result(&self, action: Action) -> Option<DealResult> {
        if !action.is_win() || !self.is_legal(action) {
            return None;
        }
        Some(match self.phase {
            Phase::Turn {
                seat,
                source,
                drawn,
            } => match action {
                Action::FlowerWin => Self::flower_win_result(seat),
                _ => self.self_draw_result(seat, source, drawn),
            },
            Phase::Claims {
                tile, discarder, ..
            } => {
                let winner = self.to_act()?;
                self.discard_win_result(SeatSet::single(winner), discarder, tile, false)
            }
            Phase::RobKong { tile, seat, .. } => {
                let winner = self.to_act()?;
                self.discard_win_result(SeatSet::single(winner), seat, tile, true)
            }
            Phase::RobFlower {
                revealer, robber, ..
            } => Self::robbed_flower_result(robber, revealer),
            Phase::Over => return None,
        })
    }

    /// A self-drawn win by `seat` on its turn, the tile drawn from `source`.
    pub(super) fn self_draw_result(
        &self,
        seat: Seat,
        source: DrawSource,
        drawn: Option<Tile>,
    ) -> DealResult {
        let first_turn = self.discard_counts[seat] == 0 && !self.any_meld();
        let dealer = seat == self.context.dealer;
        let context = WinContext {
            self_draw: true,
            kong_replacement: matches!(source, DrawSource::Kong { .. }),
            exposed_kong_from: match source {
                DrawSource::Kong { exposed_from } => exposed_from,
                _ => None,
            },
            flower_replacement: matches!(source, DrawSource::Flower),
            last_tile: self.drawable() == 0,
            heavenly: dealer && first_turn,
            earthly: !dealer && first_turn,
            ..WinContext::default()
        };
        DealResult {
            outcome: Outcome::SelfDraw,
            winners: SeatSet::single(seat),
            payer: None,
            win_tile: drawn.or_else(|| self.hands[seat].tiles().last()),
            context,
        }
    }

    /// 八仙過海: `seat` shows the eighth flower on its turn.
    pub(super) fn flower_win_result(seat: Seat) -> DealResult {
        DealResult {
            outcome: Outcome::FlowerWin,
            winners: SeatSet::single(seat),
            payer: None,
            win_tile: None,
            context: WinContext {
                self_draw: true,
                flower_win: true,
                ..WinContext::default()
            },
        }
    }

    /// 七搶一: `robber` takes the eighth flower `revealer` showed, and `revealer` pays.
    pub(super) fn robbed_flower_result(robber: Seat, revealer: Seat) -> DealResult {
        DealResult {
            outcome: Outcome::FlowerWin,
            winners: SeatSet::single(robber),
            payer: Some(revealer),
            win_tile: None,
            context: WinContext {
                flower_win: true,
                ..WinContext::default()
            },
        }
    }

    /// `winners` win on `tile`, discarded by `discarder` (or added to its kong, when
    /// `robbing_kong`), who pays.
    pub(super) fn discard_win_result(
        &self,
        winners: SeatSet,
        discarder: Seat,
        tile: Tile,
        robbing_kong: bool,
    ) -> DealResult {
        DealResult {
            outcome: Outcome::Discard,
            winners,
            payer: Some(discarder),
            win_tile: Some(tile),
            context: self.discard_win_context(winners, discarder, robbing_kong),
        }
    }
}
