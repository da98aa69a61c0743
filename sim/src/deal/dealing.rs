//! Dealing and drawing: the wall is dealt out by the rules' table procedure, flowers are
//! shown and replaced, and seats draw until the wall is down to its reserve.

use crate::algo::{waits, Wild};
use crate::rules::{Rules, RulesError};
use crate::seat::{BySeat, SeatSet};
use crate::tile::{Drawn, Flower, FlowerSet, Seat, Tile};
use crate::wall::Wall;

use super::{
    Deal, DealContext, DealResult, DiscardList, DrawSource, Outcome, Phase, Resume, WinContext,
};

impl Deal {
    /// Shuffles the wall from `seed`, deals and replaces flowers, and stops at the first
    /// decision.
    pub fn new(rules: Rules, seed: u64, context: DealContext) -> Result<Deal, RulesError> {
        rules.validate()?;
        let wall = Wall::new(seed, context.dealer, &rules);
        Ok(Deal::with_wall(rules, seed, context, wall))
    }

    /// A deal from a given wall (already in draw order); scenario tests build walls by hand.
    /// The rules are assumed valid.
    pub fn with_wall(rules: Rules, seed: u64, context: DealContext, wall: Wall) -> Deal {
        let mut deal = Deal {
            rules,
            context,
            seed,
            wall,
            hands: BySeat::default(),
            melds: BySeat::default(),
            flowers: BySeat::default(),
            hidden_flowers: BySeat::default(),
            discards: DiscardList::new(),
            discard_counts: BySeat::default(),
            shown: [0; Tile::NUM],
            ready: BySeat::default(),
            win_barred: BySeat::default(),
            passed_win: BySeat::default(),
            passed_pungs: BySeat::default(),
            waits: BySeat::default(),
            initial_cursor: 0,
            phase: Phase::Over,
            result: None,
            end_holder: None,
            end_short: None,
            steps: 0,
            wild_indicator: None,
            claimable: u64::MAX,
            hand_wild: None,
        };
        deal.deal_tiles();
        if deal.rules.procedure.setup.wild_indicator {
            deal.turn_up_indicator();
        }
        deal.continue_initial_replacement();
        deal
    }

    /// The procedure's dealing order from the dealer: its turns (taiwan16-common.txt:6, four
    /// tiles at a time, four times), the rest of a hand in one more turn each, then the
    /// dealer's extra tile (:7; taizhou.md 「跳牌」: the dealer takes the 1st and 5th).
    pub(super) fn deal_tiles(&mut self) {
        let dealing = self.rules.procedure.dealing;
        let rest = (self.rules.hand_size() as u16 - dealing.in_turns()) as usize;
        for _ in 0..dealing.turns {
            for k in 0..4 {
                let seat = self.context.dealer.add(k);
                for _ in 0..dealing.per_turn {
                    self.deal_one(seat);
                }
            }
        }
        for k in 0..4 {
            for _ in 0..rest {
                self.deal_one(self.context.dealer.add(k));
            }
        }
        self.deal_one(self.context.dealer);
    }

    /// taizhou.md 「得牌」: 「每局各家摸牌结束后，桌面上的第一张牌即为得牌」 and 「当前翻过来的
    /// …不可用于牌局」: the next live tile is turned up and set aside, face up.
    #[cold]
    fn turn_up_indicator(&mut self) {
        let t = self.wall.draw_live();
        self.wild_indicator = Some(t);
        if let Drawn::Tile(kind) = t.classify() {
            self.shown[kind.index()] += 1;
            // shared/rules/README.md "得牌", "白板": the other three copies are wild, a 白板
            // is read as the wild's face or as itself, and every set and the pair hold a real
            // tile.
            self.hand_wild = Some(Wild::taizhou(kind, true));
            if !self.rules.wilds_in_claims {
                self.claimable &= !(1u64 << kind.index());
            }
        }
    }

    pub(super) fn deal_one(&mut self, seat: Seat) {
        match self.wall.draw_live().classify() {
            Drawn::Tile(t) => self.hands[seat].add(t),
            Drawn::Flower(f) => self.hidden_flowers[seat] = self.hidden_flowers[seat].with(f),
        }
    }

    /// Dealer first, then in turn order: show each flower and replace it from the back,
    /// again for any flower drawn as a replacement. Stops early if a flower can be robbed.
    pub(super) fn continue_initial_replacement(&mut self) {
        while self.initial_cursor < 4 {
            let seat = self.context.dealer.add(self.initial_cursor);
            while let Some(flower) = self.hidden_flowers[seat].iter().next() {
                if self.wall.remaining() <= self.rules.reserve {
                    self.finish_draw();
                    return;
                }
                self.hidden_flowers[seat] = self.hidden_flowers[seat].without(flower);
                if self.reveal_flower(seat, flower, Resume::Initial) {
                    return;
                }
                self.replace_initial(seat);
            }
            self.initial_cursor += 1;
        }
        let dealer = self.context.dealer;
        for k in 1..4 {
            self.update_waits(dealer.add(k));
        }
        self.phase = Phase::Turn {
            seat: dealer,
            source: DrawSource::Deal,
            drawn: None,
        };
    }

    #[inline(always)]
    pub(super) fn update_waits(&mut self, seat: Seat) {
        self.waits[seat] = waits(&self.hands[seat], self.hand_rules(seat));
    }

    pub(super) fn replace_initial(&mut self, seat: Seat) {
        match self.wall.draw_back().classify() {
            Drawn::Tile(t) => self.hands[seat].add(t),
            Drawn::Flower(f) => self.hidden_flowers[seat] = self.hidden_flowers[seat].with(f),
        }
    }

    /// Shows a flower. Returns true when the deal now waits for a seat holding the other
    /// seven to decide whether to rob it.
    ///
    /// Out of line: at most eight flowers a deal, while `draw`, which would otherwise carry
    /// this loop's setup on every draw, runs some sixty times.
    #[cold]
    #[inline(never)]
    pub(super) fn reveal_flower(&mut self, seat: Seat, flower: Flower, resume: Resume) -> bool {
        self.flowers[seat] = self.flowers[seat].with(flower);
        if !self.rules.flower_wins {
            return false;
        }
        for k in 1..4 {
            let other = seat.add(k);
            if self.flowers[other].with(flower) == FlowerSet::ALL && self.flowers[other].len() == 7
            {
                self.phase = Phase::RobFlower {
                    flower,
                    revealer: seat,
                    robber: other,
                    resume,
                };
                return true;
            }
        }
        false
    }

    /// Draws for `seat` (live end, or back end for a replacement), showing and replacing
    /// flowers, then hands the seat its turn. Ends the deal when only the reserve is left.
    pub(super) fn draw(&mut self, seat: Seat, mut source: DrawSource) {
        loop {
            if self.wall.remaining() <= self.rules.reserve {
                // A kong changed the hand and no replacement comes: the seat ends waiting
                // with that hand, so its waits are its own again.
                if matches!(source, DrawSource::Kong { .. }) {
                    self.update_waits(seat);
                }
                self.finish_draw();
                return;
            }
            let from_back = !matches!(source, DrawSource::Live);
            let drawn = if from_back {
                self.wall.draw_back()
            } else {
                self.wall.draw_live_by(seat)
            };
            match drawn.classify() {
                Drawn::Tile(t) => {
                    self.hands[seat].add(t);
                    self.phase = Phase::Turn {
                        seat,
                        source,
                        drawn: Some(t),
                    };
                    return;
                }
                Drawn::Flower(f) => {
                    if matches!(source, DrawSource::Live) {
                        source = DrawSource::Flower;
                    }
                    if self.reveal_flower(seat, f, Resume::Draw(source)) {
                        return;
                    }
                }
            }
        }
    }

    pub(super) fn finish_draw(&mut self) {
        self.finish(
            DealResult {
                outcome: Outcome::ExhaustiveDraw,
                winners: SeatSet::EMPTY,
                payer: None,
                win_tile: None,
                context: WinContext::default(),
            },
            None,
        );
    }

    /// Ends the deal. `holder` is the seat left holding `3k + 2` tiles (a self-drawn winner,
    /// a seat that won by flowers on its turn, a kong declarer who was robbed).
    pub(super) fn finish(&mut self, result: DealResult, holder: Option<Seat>) {
        self.result = Some(result);
        self.end_holder = holder;
        self.phase = Phase::Over;
    }

    /// The seat holding `3k + 2` tiles now (hidden flowers counted as tiles).
    pub(super) fn holder(&self) -> Option<Seat> {
        match self.phase {
            _ if self.initial_cursor < 4 && !self.is_over() => Some(self.context.dealer),
            Phase::Turn { seat, .. } | Phase::RobKong { seat, .. } => Some(seat),
            Phase::Over => self.end_holder,
            _ => None,
        }
    }
}
