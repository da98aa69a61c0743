//! One deal (一局) as a state machine: deal the tiles, replace flowers, then turns and claims
//! until someone wins or the wall runs down to its reserve.
//!
//! The machine stops whenever a seat must decide. [`Deal::to_act`] names the seat,
//! [`Deal::legal_actions`] lists its choices and [`Deal::play`] applies one. Everything that
//! needs no decision (drawing, flower replacement, resolving claims by priority) happens
//! inside `play`. Nothing here allocates: a `Deal` is a fixed-size value.

mod claims;
mod dealing;
mod facts;
mod legal;
mod mirror;
mod play;
mod redeal;
mod validate;
mod wins;

use arrayvec::ArrayVec;
pub use facts::DiscardFacts;
pub use mirror::{ExchangeError, Hidden};
pub use redeal::{Fill, RedealError, Unseen, WALL_KINDS};
pub use validate::{Invalid, ValidationError};

use crate::action::Action;
use crate::algo::{HandRules, Wild};
use crate::hand::Hand;
use crate::meld::{Meld, MeldList};
use crate::rules::Rules;
use crate::seat::{BySeat, SeatSet};
use crate::tile::{Drawn, Flower, FlowerSet, Seat, Tile, TileSet, WallTile, Wind};
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

    /// A dealer and round wind drawn from the deal's seed, streak 0: what the environments
    /// deal when their configuration fixes no context, and the arena's walls, so a learner
    /// and an evaluation meet every seat wind alike. The one place the draw is written.
    pub const fn drawn(seed: u64) -> DealContext {
        let r = crate::wall::splitmix64(seed ^ 0xc0_7e87);
        DealContext {
            round_wind: Wind::new((r >> 2) as u8),
            dealer: Wind::new(r as u8),
            streak: 0,
        }
    }

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

/// The kind bits of [`Deal::passed_pungs`]: one for each kind, as a [`TileSet`] has them.
const PUNG_KINDS: u64 = TileSet::ALL.0;

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
#[derive(Clone, Debug, PartialEq, Eq)]
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
    /// Per seat, the kinds it may not win on now (`missed_win`): passing a win since its own
    /// last discard bars every kind under 過水, the kind passed under the missed-discard rule
    /// (`missed_win_same_tile`). Emptied by the seat's own discard.
    win_barred: BySeat<TileSet>,
    /// Per seat, its discard count + 1 when it last passed a win on another seat's tile (0:
    /// never): it passed one since its own last discard exactly when this equals its discard
    /// count + 1. Stamped only when a win is passed, so a discard pays nothing for it, and
    /// kept whatever `missed_win` says; read by [`Deal::discard_facts`].
    passed_win: BySeat<u8>,
    /// 弃先碰后, per seat: the kinds it passed a pung on (bits 0–33) since the discard count in
    /// bits 56–63. Stale, and so empty, once that count is behind the seat's own (see
    /// [`Deal::pung_barred`]): its own discard lifts the bar without touching this.
    passed_pungs: BySeat<u64>,
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
    /// The tile turned up after the deal as the wild indicator (a set-up event of the rules'
    /// procedure): set aside face up, never drawn; its kind is the deal's wild kind.
    wild_indicator: Option<WallTile>,
    /// Kinds whose tiles in a hand may help to claim a discard: every kind, or every kind but
    /// the wild when wilds stay out of claims (taizhou.md 「得牌」).
    claimable: u64,
    /// The wild as the hand algorithms take it, built once from the indicator.
    hand_wild: Option<Wild>,
}

impl Deal {
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

    /// The tile turned up as the wild indicator, set aside face up (`None` when the
    /// procedure turns up none).
    pub const fn wild_indicator(&self) -> Option<WallTile> {
        self.wild_indicator
    }

    /// The deal's wild kind: the indicator's kind (taizhou.md 「得牌」), `None` without one.
    pub fn wild(&self) -> Option<Tile> {
        match self.wild_indicator?.classify() {
            Drawn::Tile(t) => Some(t),
            Drawn::Flower(_) => None,
        }
    }

    /// Copies of each kind face up for every seat: the river's unclaimed discards, the
    /// exposed melds' tiles (concealed kongs are not among them) and the wild indicator.
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

    /// Deals the rest of the wall out by seat ([`Wall::split_by_seat`]): from here on each
    /// seat's live draws come down its own column, the first column the next seat to draw
    /// without claims. Every draw stays uniform over the undrawn tiles; what changes is that
    /// two continuations of this deal that claim differently still deal each seat the same
    /// tiles (a sampling player's common random numbers). A finished deal is left as it is.
    pub fn split_wall_by_seat(&mut self) {
        let last = match self.phase {
            Phase::Turn { seat, .. } | Phase::RobKong { seat, .. } => seat,
            Phase::Claims { discarder, .. } => discarder,
            Phase::RobFlower { revealer, .. } => revealer,
            Phase::Over => return,
        };
        self.wall.split_by_seat(last.add(1));
    }

    /// The river index of the seat's ready declaration, if it declared.
    pub fn ready_declaration(&self, seat: Seat) -> Option<u8> {
        self.ready[seat]
    }

    /// Whether the seat is barred from winning on discards by 過水 (under the missed-discard
    /// rule, on some kind: [`Deal::win_barred`]).
    pub fn is_missed(&self, seat: Seat) -> bool {
        !self.win_barred[seat].is_empty()
    }

    /// The kinds the seat may not win on now: every kind under 過水 once it passed a win, the
    /// kinds it passed under the missed-discard rule (`Rules::missed_win_same_tile`, which
    /// bars them for its self-draws too); empty after its own discard.
    pub fn win_barred(&self, seat: Seat) -> TileSet {
        self.win_barred[seat]
    }

    /// The kinds the seat may not pung (or kong) from a discard now under 弃先碰后: those it
    /// passed a pung on since its own last discard. Empty unless the rules say `missed_pung`.
    pub fn pung_barred(&self, seat: Seat) -> TileSet {
        let p = self.passed_pungs[seat];
        if (p >> 56) as u8 == self.discard_counts[seat] {
            TileSet(p & PUNG_KINDS)
        } else {
            TileSet::EMPTY
        }
    }

    /// Records that the seat passed a pung on `tile` (弃先碰后).
    fn bar_pung(&mut self, seat: Seat, tile: Tile) {
        let count = self.discard_counts[seat];
        let kinds = self.pung_barred(seat).with(tile).0;
        self.passed_pungs[seat] = kinds | (count as u64) << 56;
    }

    /// Records that the seat passed a win on `tile`, another seat's (see `passed_win`), and
    /// bars what the rules bar.
    fn note_passed_win(&mut self, seat: Seat, tile: Tile) {
        self.passed_win[seat] = self.discard_counts[seat] + 1;
        if self.rules.missed_win {
            let barred = &mut self.win_barred[seat];
            if self.rules.missed_win_same_tile {
                barred.insert(tile);
            } else {
                *barred = TileSet::ALL;
            }
        }
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

    /// The tile on offer when it is a discard the seats may claim (not a kong being added,
    /// which only a win answers).
    pub fn discard_on_offer(&self) -> Option<Tile> {
        match self.phase {
            Phase::Claims { tile, .. } => Some(tile),
            _ => None,
        }
    }

    /// The kong a 搶槓 decision is about: the seat declaring it, and whether it is concealed
    /// (its tile is [`Deal::tile_on_offer`]). Public: the kong is declared aloud.
    pub fn kong_on_offer(&self) -> Option<(Seat, bool)> {
        match self.phase {
            Phase::RobKong {
                seat, concealed, ..
            } => Some((seat, concealed)),
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

    /// What the hand algorithms judge the seat's concealed hand by: the sets it still needs,
    /// the special shapes and the deal's wild. Every hand-algorithm call of the deal takes
    /// its rules from here.
    #[inline(always)]
    fn hand_rules(&self, seat: Seat) -> HandRules {
        HandRules {
            sets: self.sets_needed(seat),
            special: self.rules.special,
            wild: self.hand_wild,
        }
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

    /// Whether the seat may win on `tile`, another seat's, now (過水 or the missed-discard
    /// rule aside, always).
    fn may_win_on_offer(&self, seat: Seat, tile: Tile) -> bool {
        !self.win_barred[seat].contains(tile)
    }
}

#[cfg(test)]
mod context_tests {
    use super::*;

    /// Every dealer and round wind is drawn, with no streak; the first seeds' draws are
    /// pinned (the environments' and the arena's deals depend on them).
    #[test]
    fn drawn_contexts_meet_every_seat_and_round() {
        let mut seen = [[false; 4]; 4];
        for seed in 0..400u64 {
            let c = DealContext::drawn(seed);
            assert_eq!(c.streak, 0);
            seen[c.dealer as usize][c.round_wind as usize] = true;
        }
        assert!(seen.iter().flatten().all(|&s| s), "{seen:?}");
        let first: Vec<(Wind, Wind)> = (0..4)
            .map(|s| {
                let c = DealContext::drawn(s);
                (c.dealer, c.round_wind)
            })
            .collect();
        assert_eq!(first, PINNED);
    }

    /// (dealer, round wind) of seeds 0 to 3, as the env drew them before the draw moved here.
    const PINNED: [(Wind, Wind); 4] = [
        (Wind::North, Wind::West),
        (Wind::West, Wind::North),
        (Wind::West, Wind::South),
        (Wind::West, Wind::North),
    ];
}
