//! One deal (一局) as a state machine: deal the tiles, replace flowers, then turns and claims
//! until someone wins or the wall runs down to its reserve.
//!
//! The machine stops whenever a seat must decide. [`Deal::to_act`] names the seat,
//! [`Deal::legal_actions`] lists its choices and [`Deal::play`] applies one. Everything that
//! needs no decision (drawing, flower replacement, resolving claims by priority) happens
//! inside `play`. Nothing here allocates: a `Deal` is a fixed-size value.

use arrayvec::ArrayVec;

use crate::action::{Action, ActionList, IllegalAction, LegalSet};
use crate::algo::{is_win, shanten, waits, HandRules};
use crate::hand::Hand;
use crate::meld::{Meld, MeldKind, MeldList};
use crate::rules::{Rules, RulesError};
use crate::seat::{BySeat, SeatSet};
use crate::tile::{Drawn, Flower, FlowerSet, Seat, Tile, TileSet, Wind};
use crate::wall::Wall;

/// Who deals, in which round, after how many consecutive deals.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct DealContext {
    /// 圈風: the prevailing wind of the round.
    pub round_wind: Wind,
    pub dealer: Seat,
    /// 連莊: how many times the dealer has kept the deal in a row (0 for a first deal).
    pub streak: u8,
}

impl DealContext {
    /// The first deal of a game: East round, seat E deals.
    pub const FIRST: DealContext = DealContext {
        round_wind: Wind::East,
        dealer: Wind::East,
        streak: 0,
    };

    /// The deal after one that ended in `result`, or `None` when the game (four rounds) is
    /// over. The dealer keeps the deal with streak + 1 when the rules say so; otherwise the
    /// next seat deals with streak 0, and the round wind moves on when the deal returns to E.
    pub fn next(&self, result: &DealResult, rules: &Rules) -> Option<DealContext> {
        let keep = if result.outcome == Outcome::ExhaustiveDraw {
            rules.dealer_continuation.on_draw
        } else {
            rules.dealer_continuation.on_dealer_win && result.winners.contains(self.dealer)
        };
        if keep {
            return Some(DealContext {
                streak: self.streak.saturating_add(1),
                ..*self
            });
        }
        let dealer = self.dealer.next();
        let round_wind = if dealer == Wind::East {
            if self.round_wind == Wind::North {
                return None;
            }
            self.round_wind.next()
        } else {
            self.round_wind
        };
        Some(DealContext {
            round_wind,
            dealer,
            streak: 0,
        })
    }
}

/// How a deal ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// 自摸.
    SelfDraw,
    /// Won on a discard, or by robbing a kong (放槍, 搶槓).
    Discard,
    /// 八仙過海 or 七搶一.
    FlowerWin,
    /// 流局: the wall ran down to its reserve.
    ExhaustiveDraw,
}

impl Outcome {
    pub const fn name(self) -> &'static str {
        match self {
            Outcome::SelfDraw => "self_draw",
            Outcome::Discard => "discard",
            Outcome::FlowerWin => "flower_win",
            Outcome::ExhaustiveDraw => "exhaustive_draw",
        }
    }
}

/// Where the tile a seat holds after drawing came from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DrawSource {
    /// The dealer's seventeenth tile at the start of the deal.
    Deal,
    /// The live end of the wall.
    Live,
    /// The back end, after a kong (possibly after flowers too). `exposed_from` is the
    /// discarder when the kong was claimed from a discard.
    Kong { exposed_from: Option<Seat> },
    /// The back end, after a flower drawn from the live end.
    Flower,
    /// No draw: the seat just claimed a chow or pung and must discard.
    Claim,
}

/// The circumstances of a win that scoring needs beyond the hand.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct WinContext {
    pub self_draw: bool,
    /// 搶槓.
    pub robbing_kong: bool,
    /// 槓上開花: won on a kong replacement (flowers in between included).
    pub kong_replacement: bool,
    /// The kong replaced was claimed from this seat's discard (taiwan16-2015: such a win is
    /// not a self-draw and only that seat pays).
    pub exposed_kong_from: Option<Seat>,
    /// 花上開花 / 槓上開花 after a flower: won on a flower replacement.
    pub flower_replacement: bool,
    /// 海底撈月 / 河底撈魚: the last drawable tile, drawn or discarded.
    pub last_tile: bool,
    /// 天胡: the dealer wins on the dealt hand.
    pub heavenly: bool,
    /// 地胡: a non-dealer self-draws on the first draw with no claim or kong before.
    pub earthly: bool,
    /// 人胡: a non-dealer wins on a discard before its first draw, no claim or kong before.
    pub human: bool,
    /// 七搶一 (the winner robbed the eighth flower) or 八仙過海.
    pub flower_win: bool,
}

/// The result of a finished deal.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct DealResult {
    pub outcome: Outcome,
    pub winners: SeatSet,
    /// Who pays alone: the discarder, the kong declarer robbed, or the seat whose flower was
    /// robbed. `None` for a self-draw, 八仙過海 or a draw.
    pub payer: Option<Seat>,
    /// The winning tile (`None` for flower wins and draws).
    pub win_tile: Option<Tile>,
    pub context: WinContext,
}

/// One discard in the river, packed: tile in bits 0–5, seat in 6–7, claimed in 8, declared
/// ready with it in 9.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Discard(u16);

impl Discard {
    const fn new(tile: Tile, seat: Seat, ready: bool) -> Discard {
        Discard(tile.to_u8() as u16 | (seat as u16) << 6 | (ready as u16) << 9)
    }

    pub const fn tile(self) -> Tile {
        Tile::new((self.0 & 0x3f) as u8)
    }

    pub const fn seat(self) -> Seat {
        Wind::new(((self.0 >> 6) & 3) as u8)
    }

    /// Taken by a chow, pung or kong (it then lies in that meld, not the river).
    pub const fn is_claimed(self) -> bool {
        self.0 & (1 << 8) != 0
    }

    /// The seat declared ready with this discard.
    pub const fn is_ready_declaration(self) -> bool {
        self.0 & (1 << 9) != 0
    }
}

impl core::fmt::Debug for Discard {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}:{}", self.seat(), self.tile())?;
        if self.is_claimed() {
            f.write_str("*")?;
        }
        Ok(())
    }
}

/// Every discard of the deal in order. Each is a distinct physical non-flower tile, so 136
/// bounds it.
pub type DiscardList = ArrayVec<Discard, 136>;

/// Claim options of one seat on one discard, as bits.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
struct ClaimOptions(u8);

impl ClaimOptions {
    const WIN: u8 = 1;
    const PUNG: u8 = 2;
    const KONG: u8 = 4;
    /// Chow with the discard as the run's lowest, middle or highest tile: bits 3, 4, 5.
    const CHOW_LOW: u8 = 8;

    const fn has(self, bit: u8) -> bool {
        self.0 & bit != 0
    }
}

/// Where to continue after a seat declines to rob a flower (七搶一).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Resume {
    /// The revealing seat draws its replacement, then plays its turn.
    Draw(DrawSource),
    /// The initial replacement round continues.
    Initial,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Phase {
    /// The seat holds `3k + 2` tiles and must discard, kong or win.
    Turn {
        seat: Seat,
        source: DrawSource,
        /// The tile just drawn (what a locked ready hand must discard).
        drawn: Option<Tile>,
    },
    /// Seats answer a discard, asked in turn order after the discarder; `pending` holds the
    /// seats still to ask whose answer can still matter.
    Claims {
        tile: Tile,
        discarder: Seat,
        options: [ClaimOptions; 4],
        pending: SeatSet,
        winners: SeatSet,
        /// A pung or kong answered (at most one seat can: only four copies exist).
        meld: Option<(Seat, Action)>,
        /// The next seat's chow answer.
        chow: Option<Tile>,
    },
    /// Seats that win on a kong's tile may rob it.
    RobKong {
        tile: Tile,
        seat: Seat,
        concealed: bool,
        pending: SeatSet,
        winners: SeatSet,
    },
    /// A seat holding the other seven flowers may take this one (七搶一).
    RobFlower {
        flower: Flower,
        revealer: Seat,
        robber: Seat,
        resume: Resume,
    },
    Over,
}

/// A deal in progress.
#[derive(Clone, Debug)]
pub struct Deal {
    rules: Rules,
    context: DealContext,
    seed: u64,
    wall: Wall,
    hands: BySeat<Hand>,
    melds: BySeat<MeldList>,
    flowers: BySeat<FlowerSet>,
    /// Flowers dealt but not yet shown (only during the initial replacement).
    hidden_flowers: BySeat<FlowerSet>,
    discards: DiscardList,
    /// Discards each seat has made.
    discard_counts: BySeat<u8>,
    /// Copies of each kind face up for every seat: the river's unclaimed discards and the
    /// exposed melds (a claimed discard counted once, in its meld). Kept as the deal goes
    /// because agents ask at every turn what they can see (see
    /// [`View::seen_counts`](crate::View::seen_counts)).
    shown: [u8; Tile::NUM],
    /// The river index of each seat's ready declaration.
    ready: BySeat<Option<u8>>,
    /// 過水: passed a win since its own last discard.
    missed: SeatSet,
    /// The tiles that complete each waiting (`3k + 1`) hand. A seat's concealed tiles change
    /// only on its own turn, which always ends in a discard, so this is recomputed there (and
    /// once after the deal) instead of win-checking three hands on every discard.
    waits: BySeat<TileSet>,
    /// Next seat of the initial flower replacement (0–3 from the dealer; 4 when done).
    initial_cursor: u8,
    phase: Phase,
    result: Option<DealResult>,
    /// See [`Deal::finish`].
    end_holder: Option<Seat>,
    /// A seat whose flower was robbed during the initial replacement, before it drew the
    /// replacement: it ends one tile short.
    end_short: Option<Seat>,
    /// Decisions taken so far.
    steps: u16,
}

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
            missed: SeatSet::EMPTY,
            waits: BySeat::default(),
            initial_cursor: 0,
            phase: Phase::Over,
            result: None,
            end_holder: None,
            end_short: None,
            steps: 0,
        };
        deal.deal_tiles();
        deal.continue_initial_replacement();
        deal
    }

    /// taiwan16-common.txt: four tiles at a time to each seat from the dealer, four times,
    /// then one more to the dealer.
    fn deal_tiles(&mut self) {
        let per_round = (self.rules.hand_size() / 4) as usize;
        let extra = (self.rules.hand_size() % 4) as usize;
        for _ in 0..4 {
            for k in 0..4 {
                let seat = self.context.dealer.add(k);
                for _ in 0..per_round {
                    self.deal_one(seat);
                }
            }
        }
        for k in 0..4 {
            for _ in 0..extra {
                self.deal_one(self.context.dealer.add(k));
            }
        }
        self.deal_one(self.context.dealer);
    }

    fn deal_one(&mut self, seat: Seat) {
        match self.wall.draw_live().classify() {
            Drawn::Tile(t) => self.hands[seat].add(t),
            Drawn::Flower(f) => self.hidden_flowers[seat] = self.hidden_flowers[seat].with(f),
        }
    }

    /// Dealer first, then in turn order: show each flower and replace it from the back,
    /// again for any flower drawn as a replacement. Stops early if a flower can be robbed.
    fn continue_initial_replacement(&mut self) {
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
    fn update_waits(&mut self, seat: Seat) {
        self.waits[seat] = waits(
            &self.hands[seat],
            HandRules::new(self.sets_needed(seat), self.rules.special),
        );
    }

    fn replace_initial(&mut self, seat: Seat) {
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
    fn reveal_flower(&mut self, seat: Seat, flower: Flower, resume: Resume) -> bool {
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
    fn draw(&mut self, seat: Seat, mut source: DrawSource) {
        loop {
            if self.wall.remaining() <= self.rules.reserve {
                self.finish_draw();
                return;
            }
            let from_back = !matches!(source, DrawSource::Live);
            let drawn = if from_back {
                self.wall.draw_back()
            } else {
                self.wall.draw_live()
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

    fn finish_draw(&mut self) {
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
    fn finish(&mut self, result: DealResult, holder: Option<Seat>) {
        self.result = Some(result);
        self.end_holder = holder;
        self.phase = Phase::Over;
    }

    /// The seat holding `3k + 2` tiles now (hidden flowers counted as tiles).
    fn holder(&self) -> Option<Seat> {
        match self.phase {
            _ if self.initial_cursor < 4 && !self.is_over() => Some(self.context.dealer),
            Phase::Turn { seat, .. } | Phase::RobKong { seat, .. } => Some(seat),
            Phase::Over => self.end_holder,
            _ => None,
        }
    }

    // ----- queries -------------------------------------------------------------------

    pub const fn rules(&self) -> &Rules {
        &self.rules
    }

    pub const fn context(&self) -> &DealContext {
        &self.context
    }

    pub const fn seed(&self) -> u64 {
        self.seed
    }

    /// The seat that must decide now, or `None` when the deal is over.
    #[inline]
    pub fn to_act(&self) -> Option<Seat> {
        match self.phase {
            Phase::Turn { seat, .. } => Some(seat),
            Phase::Claims {
                pending, discarder, ..
            } => pending.iter_after(discarder).next(),
            Phase::RobKong { pending, seat, .. } => pending.iter_after(seat).next(),
            Phase::RobFlower { robber, .. } => Some(robber),
            Phase::Over => None,
        }
    }

    pub fn is_over(&self) -> bool {
        matches!(self.phase, Phase::Over)
    }

    pub const fn result(&self) -> Option<&DealResult> {
        self.result.as_ref()
    }

    pub fn hand(&self, seat: Seat) -> &Hand {
        &self.hands[seat]
    }

    pub fn melds(&self, seat: Seat) -> &[Meld] {
        &self.melds[seat]
    }

    pub fn flowers(&self, seat: Seat) -> FlowerSet {
        self.flowers[seat]
    }

    pub fn discards(&self) -> &[Discard] {
        &self.discards
    }

    /// Copies of each kind face up for every seat: the river's unclaimed discards and the
    /// exposed melds' tiles (concealed kongs are not among them).
    pub const fn shown_counts(&self) -> [u8; Tile::NUM] {
        self.shown
    }

    /// Tiles left in the wall, the reserve included.
    pub const fn tiles_left(&self) -> u8 {
        self.wall.remaining()
    }

    /// Tiles that may still be drawn.
    pub const fn drawable(&self) -> u8 {
        self.wall.remaining().saturating_sub(self.rules.reserve)
    }

    pub const fn wall(&self) -> &Wall {
        &self.wall
    }

    /// The river index of the seat's ready declaration, if it declared.
    pub fn ready_declaration(&self, seat: Seat) -> Option<u8> {
        self.ready[seat]
    }

    /// Whether the seat is barred from winning on discards by 過水.
    pub fn is_missed(&self, seat: Seat) -> bool {
        self.missed.contains(seat)
    }

    /// Decisions taken so far.
    pub const fn steps(&self) -> u16 {
        self.steps
    }

    /// The tile a claim or rob decision is about (the discard, the kong tile).
    pub fn tile_on_offer(&self) -> Option<Tile> {
        match self.phase {
            Phase::Claims { tile, .. } | Phase::RobKong { tile, .. } => Some(tile),
            _ => None,
        }
    }

    /// The flower a 七搶一 decision is about.
    pub fn flower_on_offer(&self) -> Option<Flower> {
        match self.phase {
            Phase::RobFlower { flower, .. } => Some(flower),
            _ => None,
        }
    }

    /// The tile the seat to act just drew, on its turn.
    pub fn drawn_tile(&self) -> Option<Tile> {
        match self.phase {
            Phase::Turn { drawn, .. } => drawn,
            _ => None,
        }
    }

    /// The winner's hand with the winning tile in it (a discard or robbed tile added).
    pub fn winning_hand(&self, seat: Seat) -> Option<Hand> {
        let result = self.result.as_ref()?;
        if !result.winners.contains(seat) || result.outcome == Outcome::FlowerWin {
            return None;
        }
        let mut hand = self.hands[seat];
        if result.outcome == Outcome::Discard {
            hand.add(result.win_tile?);
        }
        Some(hand)
    }

    /// Sets still needed in the seat's concealed hand.
    fn sets_needed(&self, seat: Seat) -> u8 {
        self.rules.sets - self.melds[seat].len() as u8
    }

    fn any_meld(&self) -> bool {
        self.melds.0.iter().any(|m| !m.is_empty())
    }

    /// Whether the waiting seat's hand wins with `tile`.
    fn can_win_with(&self, seat: Seat, tile: Tile) -> bool {
        self.waits[seat].contains(tile)
    }

    /// The tiles that complete a waiting seat's hand (empty for the seat holding `3k + 2`).
    pub fn waits(&self, seat: Seat) -> TileSet {
        self.waits[seat]
    }

    /// Whether the seat may win on another seat's tile now (過水 aside, always).
    fn may_win_on_offer(&self, seat: Seat) -> bool {
        !(self.rules.missed_win && self.missed.contains(seat))
    }

    // ----- legal actions -------------------------------------------------------------

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

    fn turn_actions(
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
            (DrawSource::Deal | DrawSource::Kong { .. }, _) => is_win(
                hand,
                HandRules::new(self.sets_needed(seat), self.rules.special),
            ),
            _ => false,
        };
        if wins {
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
        if may_declare
            && shanten(
                hand,
                HandRules::new(self.sets_needed(seat), self.rules.special),
            ) <= 0
        {
            let sets = self.sets_needed(seat);
            let mut ready = TileSet::EMPTY;
            for t in hand.kinds() {
                let mut after = *hand;
                after.remove(t);
                if shanten(&after, HandRules::new(sets, self.rules.special)) == 0 {
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

    // ----- playing -------------------------------------------------------------------

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
                        DealResult {
                            outcome: Outcome::FlowerWin,
                            winners: SeatSet::single(robber),
                            payer: Some(revealer),
                            win_tile: None,
                            context: WinContext {
                                flower_win: true,
                                ..WinContext::default()
                            },
                        },
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

    fn play_turn(&mut self, seat: Seat, source: DrawSource, drawn: Option<Tile>, action: Action) {
        match action {
            Action::SelfDrawWin => {
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
                let win_tile = drawn.or_else(|| self.hands[seat].tiles().last());
                self.finish(
                    DealResult {
                        outcome: Outcome::SelfDraw,
                        winners: SeatSet::single(seat),
                        payer: None,
                        win_tile,
                        context,
                    },
                    Some(seat),
                );
            }
            Action::FlowerWin => self.finish(
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
                },
                Some(seat),
            ),
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
                self.missed.remove(seat);
                self.update_waits(seat);
                self.offer_discard(seat, t);
            }
            _ => unreachable!("{action} on a turn"),
        }
    }

    /// A kong is declared: seats that win on its tile may rob it first (an added kong always,
    /// a concealed one only where the rules say).
    fn declare_kong(&mut self, seat: Seat, tile: Tile, concealed: bool) {
        let mut robbers = SeatSet::EMPTY;
        if !concealed || self.rules.rob_concealed_kong {
            for k in 1..4 {
                let other = seat.add(k);
                if self.may_win_on_offer(other) && self.can_win_with(other, tile) {
                    robbers.insert(other);
                }
            }
        }
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

    fn complete_kong(&mut self, seat: Seat, tile: Tile, concealed: bool) {
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

    fn answer_rob_kong(&mut self, action: Action) {
        let Phase::RobKong {
            tile,
            seat,
            concealed,
            mut pending,
            mut winners,
        } = self.phase
        else {
            unreachable!()
        };
        let responder = pending.iter_after(seat).next().expect("a seat to ask");
        pending.remove(responder);
        if action == Action::Win {
            winners.insert(responder);
            if !self.rules.multiple_winners {
                pending = SeatSet::EMPTY;
            }
        } else if self.rules.missed_win {
            self.missed.insert(responder);
        }
        if !pending.is_empty() {
            self.phase = Phase::RobKong {
                tile,
                seat,
                concealed,
                pending,
                winners,
            };
            return;
        }
        if winners.is_empty() {
            self.complete_kong(seat, tile, concealed);
        } else {
            let context = self.discard_win_context(winners, true);
            self.finish(
                DealResult {
                    outcome: Outcome::Discard,
                    winners,
                    payer: Some(seat),
                    win_tile: Some(tile),
                    context,
                },
                Some(seat),
            );
        }
    }

    fn discard_win_context(&self, winners: SeatSet, robbing_kong: bool) -> WinContext {
        // 人胡 is a single-winner notion; with several winners it is judged for the first.
        let first = winners.iter().next();
        let human = first.is_some_and(|w| {
            w != self.context.dealer && self.discard_counts[w] == 0 && !self.any_meld()
        });
        WinContext {
            robbing_kong,
            last_tile: self.drawable() == 0,
            human,
            ..WinContext::default()
        }
    }

    /// After a discard: work out who may claim it; with no one, the next seat draws.
    fn offer_discard(&mut self, discarder: Seat, tile: Tile) {
        let next = discarder.next();
        let chow = self.chow_options(next, tile);
        // Most discards interest no one. This test passes for every discard that gives any
        // seat an option (過水, the last tile and locked hands only take options away), and
        // when it fails the next seat draws without the full work below.
        let mut wanted = chow != 0;
        for k in 1..4u8 {
            let seat = discarder.add(k);
            wanted |= self.waits[seat].contains(tile) | (self.hands[seat].count(tile) >= 2);
        }
        if !wanted {
            self.draw(next, DrawSource::Live);
            return;
        }
        let last = self.drawable() == 0;
        let mut options = [ClaimOptions::default(); 4];
        let mut pending = SeatSet::EMPTY;
        for k in 1..4u8 {
            let seat = discarder.add(k);
            let mut bits = 0u8;
            if self.may_win_on_offer(seat) && self.can_win_with(seat, tile) {
                bits |= ClaimOptions::WIN;
            }
            // 2015 table: "無牌可摸時, 不得吃、碰、槓". A locked ready hand only wins.
            if !last && self.ready[seat].is_none() {
                let held = self.hands[seat].count(tile);
                if held >= 2 {
                    bits |= ClaimOptions::PUNG;
                }
                if held == 3 {
                    bits |= ClaimOptions::KONG;
                }
                if k == 1 {
                    bits |= chow;
                }
            }
            if bits != 0 {
                options[seat as usize] = ClaimOptions(bits);
                pending.insert(seat);
            }
        }
        if pending.is_empty() {
            self.draw(next, DrawSource::Live);
        } else {
            self.phase = Phase::Claims {
                tile,
                discarder,
                options,
                pending,
                winners: SeatSet::EMPTY,
                meld: None,
                chow: None,
            };
        }
    }

    /// The chow bits of [`ClaimOptions`] for `seat` on `tile`: two table loads, since every
    /// discard asks.
    fn chow_options(&self, seat: Seat, tile: Tile) -> u8 {
        // Per kind, which of the kinds two below to two above it (bits 0 to 4, itself at
        // bit 2 left out) lie in its suit; none for honors, which never chow.
        const WINDOW: [u8; 34] = {
            let mut w = [0u8; 34];
            let mut i = 0;
            while i < 27 {
                let r = i % 9 + 1;
                let below = if r >= 3 {
                    0b00011
                } else if r == 2 {
                    0b00010
                } else {
                    0
                };
                let above = if r <= 7 {
                    0b11000
                } else if r == 8 {
                    0b01000
                } else {
                    0
                };
                w[i] = below | above;
                i += 1;
            }
            w
        };
        // Per window of neighbours held: the chows they make with the discard as the run's
        // lowest (both above held), middle (one each side) or highest (both below).
        const CHOWS: [u8; 32] = {
            let mut c = [0u8; 32];
            let mut near = 0;
            while near < 32 {
                let low = (near & 0b11000 == 0b11000) as u8;
                let middle = (near & 0b01010 == 0b01010) as u8;
                let high = (near & 0b00011 == 0b00011) as u8;
                c[near] = (low * ClaimOptions::CHOW_LOW)
                    | (middle * (ClaimOptions::CHOW_LOW << 1))
                    | (high * (ClaimOptions::CHOW_LOW << 2));
                near += 1;
            }
            c
        };
        let i = tile.index();
        let near = ((self.hands[seat].kinds().0 << 2) >> i) as u8 & WINDOW[i];
        CHOWS[(near & 0x1f) as usize]
    }

    fn answer_claim(&mut self, action: Action) {
        let Phase::Claims {
            tile,
            discarder,
            options,
            mut pending,
            mut winners,
            mut meld,
            mut chow,
        } = self.phase
        else {
            unreachable!()
        };
        let seat = pending.iter_after(discarder).next().expect("a seat to ask");
        pending.remove(seat);
        let opts = options[seat as usize];
        match action {
            Action::Win => winners.insert(seat),
            Action::Pung | Action::Kong => meld = Some((seat, action)),
            Action::Chow(lowest) => chow = Some(lowest),
            _ => {}
        }
        if action != Action::Win && opts.has(ClaimOptions::WIN) && self.rules.missed_win {
            self.missed.insert(seat);
        }
        // Drop the seats whose answer can no longer change the outcome: after a win only
        // other wins matter (and none at all with a single winner); a chow never beats the
        // pung or kong that a later seat may still answer, so only earlier seats are pruned.
        if !winners.is_empty() && !self.rules.multiple_winners {
            pending = SeatSet::EMPTY;
        }
        for s in pending.iter() {
            let o = options[s as usize];
            let relevant = o.has(ClaimOptions::WIN)
                || (winners.is_empty() && (o.has(ClaimOptions::PUNG) || o.has(ClaimOptions::KONG)));
            if !relevant {
                pending.remove(s);
            }
        }
        if !pending.is_empty() {
            self.phase = Phase::Claims {
                tile,
                discarder,
                options,
                pending,
                winners,
                meld,
                chow,
            };
            return;
        }
        if !winners.is_empty() {
            let context = self.discard_win_context(winners, false);
            self.finish(
                DealResult {
                    outcome: Outcome::Discard,
                    winners,
                    payer: Some(discarder),
                    win_tile: Some(tile),
                    context,
                },
                None,
            );
            return;
        }
        let claimed = match (meld, chow) {
            (Some((claimer, Action::Pung)), _) => {
                self.hands[claimer].remove_n(tile, 2);
                self.shown[tile.index()] += 2;
                self.melds[claimer].push(Meld::new(MeldKind::Pung, tile, discarder, 0));
                self.phase = Phase::Turn {
                    seat: claimer,
                    source: DrawSource::Claim,
                    drawn: None,
                };
                true
            }
            (Some((claimer, _)), _) => {
                self.hands[claimer].remove_n(tile, 3);
                self.shown[tile.index()] += 3;
                self.melds[claimer].push(Meld::new(MeldKind::Kong, tile, discarder, 0));
                self.mark_last_discard_claimed();
                self.draw(
                    claimer,
                    DrawSource::Kong {
                        exposed_from: Some(discarder),
                    },
                );
                return;
            }
            (None, Some(lowest)) => {
                let claimer = discarder.next();
                let offset = tile.to_u8() - lowest.to_u8();
                for k in 0..3 {
                    if k != offset {
                        let t = Tile::new(lowest.to_u8() + k);
                        self.hands[claimer].remove(t);
                        self.shown[t.index()] += 1;
                    }
                }
                self.melds[claimer].push(Meld::new(MeldKind::Chow, lowest, discarder, offset));
                self.phase = Phase::Turn {
                    seat: claimer,
                    source: DrawSource::Claim,
                    drawn: None,
                };
                true
            }
            (None, None) => false,
        };
        if claimed {
            self.mark_last_discard_claimed();
        } else {
            self.draw(discarder.next(), DrawSource::Live);
        }
    }

    fn mark_last_discard_claimed(&mut self) {
        if let Some(d) = self.discards.last_mut() {
            d.0 |= 1 << 8;
        }
    }

    // ----- checks --------------------------------------------------------------------

    /// Recomputes everything that is kept incrementally and checks the deal's invariants:
    /// every one of the wall's tiles is in exactly one place (wall, a hand, a meld, the river
    /// or a flower set), every hand's keys match its counts, hand sizes fit the phase, and
    /// the deal's flags agree with its history. Used after every step in tests.
    pub fn validate(&self) -> Result<(), String> {
        // Conservation: 34 kinds × 4 and 8 flowers × 1.
        let mut seen = [0u8; 42];
        // What `self.shown` should hold: the exposed melds and the river's unclaimed tiles.
        let mut shown = [0u8; Tile::NUM];
        for t in self.wall.undrawn() {
            seen[t.index()] += 1;
        }
        for seat in Wind::ALL {
            for t in self.hands[seat].tiles() {
                seen[t.index()] += 1;
            }
            for m in &self.melds[seat] {
                let exposed = m.kind() != MeldKind::ConcealedKong;
                for t in m.tiles() {
                    seen[t.index()] += 1;
                    shown[t.index()] += u8::from(exposed);
                }
            }
            for f in self.flowers[seat]
                .iter()
                .chain(self.hidden_flowers[seat].iter())
            {
                seen[34 + f.index()] += 1;
            }
        }
        // A claimed discard lies in a meld; a discard won on lies in the river.
        for d in &self.discards {
            if !d.is_claimed() {
                seen[d.tile().index()] += 1;
                shown[d.tile().index()] += 1;
            }
        }
        if shown != self.shown {
            return Err(format!(
                "shown counts {:?} disagree with the river and melds {shown:?}",
                self.shown
            ));
        }
        for (i, &n) in seen.iter().enumerate() {
            let want = if i < 34 {
                4
            } else if self.rules.flowers {
                1
            } else {
                0
            };
            if n != want {
                let what = if i < 34 {
                    Tile::new(i as u8).to_string()
                } else {
                    Flower::new(i as u8 - 34).to_string()
                };
                return Err(format!("{what} is in {n} places, expected {want}"));
            }
        }
        for seat in Wind::ALL {
            let hand = &self.hands[seat];
            if !hand.is_consistent() {
                return Err(format!("{seat}'s hand keys disagree with its counts"));
            }
            let base = 3 * self.sets_needed(seat) as usize + 1;
            // A flower shown during the initial replacement and now on offer (七搶一) has not
            // been replaced yet.
            let awaiting = match self.phase {
                Phase::RobFlower {
                    revealer,
                    resume: Resume::Initial,
                    ..
                } => revealer == seat,
                Phase::Over => self.end_short == Some(seat),
                _ => false,
            };
            let want = base + (self.holder() == Some(seat)) as usize - awaiting as usize;
            let held = hand.len() + self.hidden_flowers[seat].len() as usize;
            if held != want {
                return Err(format!(
                    "{seat} holds {held} tiles, expected {want} in {:?}",
                    self.phase
                ));
            }
            if self.holder() != Some(seat) && self.initial_cursor >= 4 {
                let fresh = waits(
                    hand,
                    HandRules::new(self.sets_needed(seat), self.rules.special),
                );
                if fresh != self.waits[seat] {
                    return Err(format!(
                        "{seat}'s cached waits {:?} differ from recomputed {fresh:?}",
                        self.waits[seat]
                    ));
                }
            }
            if self.hidden_flowers[seat] != FlowerSet::EMPTY && self.initial_cursor >= 4 {
                return Err(format!(
                    "{seat} still hides flowers after the replacement round"
                ));
            }
            let declared = self
                .discards
                .iter()
                .position(|d| d.seat() == seat && d.is_ready_declaration())
                .map(|i| i as u8);
            if declared != self.ready[seat] {
                return Err(format!("{seat}'s ready flag disagrees with the river"));
            }
            let count = self.discards.iter().filter(|d| d.seat() == seat).count();
            if count != self.discard_counts[seat] as usize {
                return Err(format!("{seat}'s discard count disagrees with the river"));
            }
        }
        if self.wall.remaining() < self.rules.reserve {
            return Err("the reserve was drawn from".into());
        }
        if self.is_over() != self.result.is_some() {
            return Err("phase and result disagree".into());
        }
        Ok(())
    }
}
