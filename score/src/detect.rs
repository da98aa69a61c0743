//! The detectors, one line per pattern, in three batches by what they read: the facts of
//! the win that no reading changes ([`hand_patterns`], once per hand), the sets and pair
//! of a reading ([`set_patterns`], once per decomposition), and where the winning tile went
//! ([`placement_patterns`], once per reading).
//!
//! A batch computes a pattern set at once rather than dispatching per pattern: the summaries
//! the patterns share (pungs per honor group, the chow masks) are read once, and most
//! patterns come down to a bit test. Groups of patterns a variant does not count are
//! skipped as a whole.

use super::context::{Ready, WinInput};
use super::pattern::{PatternId, PatternSet};
use super::reading::{Reading, ReadingKind, WaitShape, DRAGONS, HONORS, TERMINALS, WINDS};
use super::variant::Variant;
use taisim_sim::MeldKind;
use taisim_sim::{FlowerSet, Tile};

/// Per-pattern multiplicities. Only the entries of patterns found are read; patterns that
/// apply at most once are never written, so the array starts as all ones.
pub(crate) type Counts = [u8; PatternId::COUNT];

/// The facts of a win that do not depend on how the hand is read.
pub(crate) struct Facts {
    /// Kinds held, one bit each.
    pub present: u64,
    pub flowers: FlowerSet,
    pub seat_wind: Tile,
    pub round_wind: Tile,
    pub dealer: bool,
    /// Self-draw for scoring (the 2015 table's exposed-kong replacement is not one).
    pub self_draw: bool,
    /// The winning tile came from the wall, whatever scoring makes of it.
    pub drawn: bool,
    /// No chow, pung or exposed kong.
    pub concealed: bool,
    /// Every set melded by chow, pung or exposed kong.
    pub all_melded: bool,
    pub exposed_kongs: u8,
    pub concealed_kongs: u8,
    pub win_tile: Tile,
    /// Seasons and plants held complete (花槓).
    pub flower_kongs: u8,
    /// Flowers counted one by one: those not already paid by a 花槓 the variant counts.
    pub loose_flowers: FlowerSet,
    pub input_flags: Flags,
}

/// The context flags detectors read.
#[derive(Copy, Clone)]
pub(crate) struct Flags {
    pub robbing_kong: bool,
    pub replacement: bool,
    pub last_tile: bool,
    pub heavenly: bool,
    pub earthly: bool,
    pub human: bool,
    pub ready: Ready,
    pub last_copy: bool,
    pub discards: Option<u8>,
}

const FIVES: u64 = (1 << 4) | (1 << 13) | (1 << 22);
/// The first kind of each numbered suit.
const SUIT_STARTS: u64 = (1 << 0) | (1 << 9) | (1 << 18);
/// One in each four-bit field of the numbered kinds.
const NIBBLES: u128 = 0x111_1111_1111_1111_1111_1111_1111;
/// Chows holding a terminal: those starting on a 1 or a 7.
const OUTSIDE_CHOWS: u32 = (SUIT_STARTS | SUIT_STARTS << 6) as u32;

impl Facts {
    pub fn new(input: &WinInput, variant: &Variant, self_draw: bool) -> Facts {
        let mut present = input.hand.kinds().0;
        let mut exposed_kongs = 0;
        let mut concealed_kongs = 0;
        let mut exposed = 0;
        for m in &input.melds {
            let kind = m.kind();
            present |= match kind {
                MeldKind::Chow => 0b111 << m.tile().index(),
                _ => 1 << m.tile().index(),
            };
            match kind {
                MeldKind::ConcealedKong => concealed_kongs += 1,
                MeldKind::Kong | MeldKind::AddedKong => {
                    exposed_kongs += 1;
                    exposed += 1
                }
                _ => exposed += 1,
            }
        }
        let ctx = &input.context;
        let seasons = input.flowers.is_superset(FlowerSet::SEASONS);
        let plants = input.flowers.is_superset(FlowerSet::PLANTS);
        // Flowers already paid by 花槓 are not counted again one by one.
        let paid_by_kong = if variant.has(PatternId::FlowerKong) {
            (if seasons { 0x0f } else { 0 }) | (if plants { 0xf0 } else { 0 })
        } else {
            0u8
        };
        Facts {
            present,
            flowers: input.flowers,
            seat_wind: input.seat_wind().tile(),
            round_wind: input.round_wind.tile(),
            dealer: input.is_dealer(),
            self_draw,
            drawn: ctx.self_draw,
            concealed: exposed == 0,
            all_melded: exposed == input.melds.len() && input.hand.len() == 2,
            exposed_kongs,
            concealed_kongs,
            win_tile: input.win_tile.unwrap_or(Tile::new(0)),
            flower_kongs: seasons as u8 + plants as u8,
            loose_flowers: FlowerSet(input.flowers.0 & !paid_by_kong),
            input_flags: Flags {
                robbing_kong: ctx.robbing_kong,
                replacement: ctx.kong_replacement || ctx.flower_replacement,
                last_tile: ctx.last_tile,
                heavenly: ctx.heavenly,
                earthly: ctx.earthly,
                human: ctx.human,
                ready: input.ready,
                last_copy: input.last_copy,
                discards: input.discards,
            },
        }
    }

    #[inline]
    fn has_honors(&self) -> bool {
        self.present & HONORS != 0
    }

    /// Numbered suits present, one bit each.
    #[inline]
    fn suits(&self) -> u32 {
        ((self.present & 0x1ff != 0) as u32)
            | (((self.present >> 9) & 0x1ff != 0) as u32) << 1
            | (((self.present >> 18) & 0x1ff != 0) as u32) << 2
    }

    /// Distinct "numbers" (三數, 兩數): ranks of numbered tiles, winds as one, dragons as one.
    #[inline]
    fn numbers(&self) -> u32 {
        let ranks = (self.present | self.present >> 9 | self.present >> 18) & 0x1ff;
        ranks.count_ones()
            + (self.present & WINDS != 0) as u32
            + (self.present & DRAGONS != 0) as u32
    }
}

/// The patterns found by one batch: a pattern's bit, and for those that can apply several
/// times, its count.
struct Found<'a> {
    mask: PatternSet,
    counts: &'a mut Counts,
}

impl Found<'_> {
    #[inline(always)]
    fn flag(&mut self, p: PatternId, applies: bool) {
        self.mask |= (applies as PatternSet) << p as u32;
    }

    #[inline(always)]
    fn count(&mut self, p: PatternId, n: u8) {
        self.counts[p.index()] = n;
        self.flag(p, n != 0);
    }
}

const fn set_of(patterns: &[PatternId]) -> PatternSet {
    let mut mask = 0;
    let mut i = 0;
    while i < patterns.len() {
        mask |= patterns[i].bit();
        i += 1;
    }
    mask
}

use PatternId::*;

/// The patterns [`hand_patterns`] finds: they read the tiles and circumstances only.
pub(crate) const HAND_LEVEL: PatternSet = set_of(&[
    Winning,
    SelfDraw,
    ConcealedHand,
    ConcealedSelfDraw,
    RobbingKong,
    KongBloom,
    LastTileDraw,
    LastTileDiscard,
    AllMelded,
    HalfMelded,
    MeldedHand,
    HeavenlyWin,
    EarthlyWin,
    HumanWin,
    DealerHeavenlyReady,
    HeavenlyReady,
    EarthlyReady,
    ReadyOnOriginalHand,
    EarlyWin,
    EarlyWinFirstFive,
    TrueSingleWait,
    LastCopySingle,
    SeatFlower,
    AnyFlower,
    FlowerKong,
    NoFlowers,
    SevenRobOne,
    EightFlowers,
    NoHonors,
    NoHonorsNoFlowers,
    ExposedKong,
    ConcealedKong,
    FourKongs,
    FiveKongs,
    HalfFlush,
    FullFlush,
    MissingSuit,
    FiveGroups,
    NoFives,
    ThreeFives,
    AllSimples,
    ThreeNumbers,
    TwoNumbers,
    OneBecomesFive,
]);

/// The patterns [`placement_patterns`] finds: they depend on where the winning tile goes
/// (the wait, and whether a pung it completes is concealed).
pub(crate) const PLACEMENT_LEVEL: PatternSet = set_of(&[
    EdgeWait,
    ClosedWait,
    SingleWait,
    DoublePairWait,
    FalseSingleWait,
    LastCopyTwoSided,
    ClosedFive,
    AllChows,
    TwoConcealedPungs,
    ThreeConcealedPungs,
    FourConcealedPungs,
    FiveConcealedPungs,
]);

/// The patterns [`set_patterns`] finds: everything else, read on the sets and the pair.
pub(crate) const SET_LEVEL: PatternSet = {
    let all = if PatternId::COUNT == 128 {
        !0
    } else {
        (1 << PatternId::COUNT) - 1
    };
    all & !HAND_LEVEL & !PLACEMENT_LEVEL
};

/// Patterns that need the number of kinds the hand waited on.
pub(crate) const NEEDS_WAITS: PatternSet = set_of(&[
    EdgeWait,
    ClosedWait,
    SingleWait,
    FalseSingleWait,
    TrueSingleWait,
    LastCopySingle,
]);

const HONOR_SETS: PatternSet = set_of(&[
    DragonPung,
    RoundWindPung,
    SeatWindPung,
    AnyWindPung,
    HonorPung,
    LittleThreeDragons,
    BigThreeDragons,
    LittleThreeWinds,
    BigThreeWinds,
    LittleFourWinds,
    BigFourWinds,
]);

const OUTSIDE: PatternSet = set_of(&[OutsideHand, TerminalOutside, TerminalHonorPungs]);

const CHOW_SETS: PatternSet = set_of(&[
    IdenticalChows,
    ThreeIdenticalChows,
    FourIdenticalChows,
    TwoIdenticalPairs,
    PureStraight,
    PureStraightSelfDrawn,
    StraightAndIdentical,
    ThreeSuitChows,
    TripleChowAndIdentical,
    TerminalChows,
    DoubleTerminalChows,
    TwoTerminalChows,
    TwoChowsAndPair,
    FourChowsShare,
]);

const CHOWS_AND_PUNGS: PatternSet = set_of(&[PungAndChow, TwoPungsAndChow, ThreePungsAndChow]);

const PUNG_SETS: PatternSet = set_of(&[
    TerminalPungs,
    ThreeSuitPungs,
    ThreeConsecutivePungs,
    FourConsecutivePungs,
    FiveConsecutivePungs,
]);

/// The [`HAND_LEVEL`] patterns of `want` that apply. `wait_kinds` gives the number of kinds
/// the hand waited on; it is asked only when a pattern needs it.
pub(crate) fn hand_patterns(
    f: &Facts,
    want: PatternSet,
    counts: &mut Counts,
    wait_kinds: &mut impl FnMut() -> u8,
) -> PatternSet {
    let fl = &f.input_flags;
    let mut m = Found { mask: 0, counts };
    m.flag(Winning, true);
    m.flag(SelfDraw, f.self_draw);
    m.flag(ConcealedHand, f.concealed);
    m.flag(ConcealedSelfDraw, f.concealed && f.self_draw);
    m.flag(RobbingKong, fl.robbing_kong);
    m.flag(KongBloom, fl.replacement);
    m.flag(LastTileDraw, fl.last_tile && f.drawn);
    m.flag(LastTileDiscard, fl.last_tile && !f.drawn);
    m.flag(AllMelded, f.all_melded && !f.self_draw);
    m.flag(HalfMelded, f.all_melded && f.self_draw);
    m.flag(MeldedHand, f.all_melded);
    m.flag(HeavenlyWin, fl.heavenly);
    m.flag(EarthlyWin, fl.earthly);
    m.flag(HumanWin, fl.human);
    m.flag(DealerHeavenlyReady, f.dealer && fl.ready == Ready::OnDeal);
    m.flag(HeavenlyReady, !f.dealer && fl.ready == Ready::OnDeal);
    m.flag(EarthlyReady, fl.ready != Ready::None);
    m.flag(ReadyOnOriginalHand, fl.ready == Ready::OnDeal);
    // Counts of DISCARDS_READ and more must score alike (tested).
    m.flag(EarlyWin, fl.discards.is_some_and(|d| (6..=9).contains(&d)));
    m.flag(EarlyWinFirstFive, fl.discards.is_some_and(|d| d <= 5));
    if want & (TrueSingleWait.bit() | LastCopySingle.bit()) != 0 {
        let single = wait_kinds() == 1;
        m.flag(TrueSingleWait, single);
        m.flag(LastCopySingle, single && fl.last_copy);
    }

    let own = (1u8 << (f.seat_wind.index() - 27)) * 0x11;
    m.count(SeatFlower, (f.loose_flowers.0 & own).count_ones() as u8);
    m.count(AnyFlower, f.loose_flowers.len() as u8);
    m.count(FlowerKong, f.flower_kongs);
    m.flag(NoFlowers, f.flowers.is_empty());
    // Flower wins are scored apart (`score_flower_win`), and 一變五 on the best total; no
    // reading finds SevenRobOne, EightFlowers or OneBecomesFive.

    let honors = f.has_honors();
    m.flag(NoHonors, !honors);
    m.flag(NoHonorsNoFlowers, !honors && f.flowers.is_empty());
    m.count(ExposedKong, f.exposed_kongs);
    m.count(ConcealedKong, f.concealed_kongs);
    m.flag(FourKongs, f.exposed_kongs + f.concealed_kongs >= 4);
    m.flag(FiveKongs, f.exposed_kongs + f.concealed_kongs >= 5);

    let suits = f.suits();
    m.flag(HalfFlush, suits.count_ones() == 1 && honors);
    m.flag(FullFlush, suits.count_ones() == 1 && !honors);
    m.flag(MissingSuit, suits.count_ones() == 2 && !honors);
    m.flag(
        FiveGroups,
        suits == 0b111 && f.present & WINDS != 0 && f.present & DRAGONS != 0,
    );
    m.flag(NoFives, f.present & FIVES == 0);
    m.flag(ThreeFives, f.present & FIVES == FIVES);
    m.flag(AllSimples, f.present & (HONORS | TERMINALS) == 0);
    let numbers = f.numbers();
    m.flag(ThreeNumbers, numbers == 3);
    m.flag(TwoNumbers, numbers == 2);
    debug_assert_eq!(m.mask & !HAND_LEVEL, 0);
    m.mask & want
}

/// The [`SET_LEVEL`] patterns of `want` that apply to the sets and pair of `r`.
pub(crate) fn set_patterns(
    f: &Facts,
    r: &Reading,
    want: PatternSet,
    counts: &mut Counts,
) -> PatternSet {
    let regular = r.kind == ReadingKind::Regular;
    let pungs = r.pung_set;
    let chows = r.chow_at_least[0];
    let honors = f.has_honors();
    let mut m = Found { mask: 0, counts };

    if want & HONOR_SETS != 0 {
        let dragons = (pungs & DRAGONS).count_ones() as u8;
        let winds = (pungs & WINDS).count_ones() as u8;
        let dragon_pair = r.pair.is_some_and(|t| t.is_dragon());
        let wind_pair = r.pair.is_some_and(|t| t.is_wind());
        m.count(DragonPung, dragons);
        m.flag(RoundWindPung, pungs & (1 << f.round_wind.index()) != 0);
        m.flag(SeatWindPung, pungs & (1 << f.seat_wind.index()) != 0);
        m.count(AnyWindPung, winds);
        m.count(HonorPung, (pungs & HONORS).count_ones() as u8);
        m.flag(LittleThreeDragons, dragons == 2 && dragon_pair);
        m.flag(BigThreeDragons, dragons == 3);
        m.flag(LittleThreeWinds, winds == 2 && wind_pair);
        m.flag(BigThreeWinds, winds == 3);
        m.flag(LittleFourWinds, winds == 3 && wind_pair);
        m.flag(BigFourWinds, winds == 4);
    }
    m.flag(AllHonors, regular && f.present & !HONORS == 0);

    let five_chows = regular && r.chows == 5;
    m.flag(
        SmallAllChows,
        five_chows && !honors && !f.flowers.is_empty(),
    );
    m.flag(BigAllChows, five_chows && !honors && f.flowers.is_empty());
    m.flag(ChowHand, five_chows);
    m.flag(AllPungs, regular && r.chows == 0);
    let numbered_pair = r.pair.filter(|t| !t.is_honor());
    m.flag(
        Pair258,
        numbered_pair.is_some_and(|t| matches!(t.rank(), 2 | 5 | 8)),
    );
    if want & OUTSIDE != 0 {
        // Every set and the pair hold a terminal or honor.
        let outside = regular
            && pungs & !(TERMINALS | HONORS) == 0
            && chows & !OUTSIDE_CHOWS == 0
            && r.pair.is_some_and(Tile::is_terminal_or_honor);
        m.flag(OutsideHand, honors && outside);
        m.flag(TerminalOutside, !honors && outside);
        m.flag(TerminalHonorPungs, r.chows == 0 && outside);
    }
    if want & AllWithNumber.bit() != 0 {
        m.flag(AllWithNumber, regular && all_with_number(r));
    }
    if want & Tail.bit() != 0 {
        m.flag(Tail, regular && tail(r));
    }

    if want & CHOW_SETS != 0 && r.chows > 0 {
        let [_, twice, thrice, four] = r.chow_at_least;
        m.flag(IdenticalChows, twice != 0);
        m.flag(ThreeIdenticalChows, thrice != 0);
        m.flag(FourIdenticalChows, four != 0);
        // Two kinds held twice, or one held four times.
        m.flag(TwoIdenticalPairs, twice.count_ones() >= 2 || four != 0);
        // 123, 456 and 789 of one suit, named by the 123. Five chows make one at most.
        let straights = chows & (chows >> 3) & (chows >> 6) & SUIT_STARTS as u32;
        m.flag(PureStraight, straights != 0);
        m.flag(PureStraightSelfDrawn, straights != 0 && f.self_draw);
        let straight_doubled = twice & 0b1001001u32.wrapping_shl(straights.trailing_zeros()) != 0;
        m.flag(StraightAndIdentical, straights != 0 && straight_doubled);
        // The same chow in all three suits, named by the lowest such rank; each of its
        // three is held once at least, so four of them means one held twice.
        let triples = chows & (chows >> 9) & (chows >> 18) & 0x7f;
        let triple_doubled = twice & 0x40201u32.wrapping_shl(triples.trailing_zeros()) != 0;
        m.flag(ThreeSuitChows, triples != 0);
        m.flag(TripleChowAndIdentical, triples != 0 && triple_doubled);
        // 123 and 789 of one suit, named by the 123.
        let terminal = chows & (chows >> 6) & SUIT_STARTS as u32;
        let terminal_twice = (twice | twice >> 6) & terminal;
        let both_twice = twice & (twice >> 6) & SUIT_STARTS as u32;
        m.count(TerminalChows, terminal.count_ones() as u8);
        m.flag(DoubleTerminalChows, terminal_twice != 0);
        m.flag(
            TwoTerminalChows,
            terminal.count_ones() >= 2 || both_twice != 0,
        );
        m.flag(
            TwoChowsAndPair,
            r.chows >= 2 && r.pair.is_some_and(|t| r.chows_holding(t) == 2),
        );
        m.flag(FourChowsShare, r.chows >= 4 && four_chows_share(r));
    }
    if want & CHOWS_AND_PUNGS != 0 {
        // Chows by how many of their three kinds are also held as pungs (四歸一 family).
        let mut by_pungs = [0u8; 4];
        if pungs != 0 {
            let mut starts = chows;
            while starts != 0 {
                let i = starts.trailing_zeros() as usize;
                starts &= starts - 1;
                by_pungs[((pungs >> i) & 0b111).count_ones() as usize] += r.chow_counts[i];
            }
        }
        m.count(PungAndChow, by_pungs[1]);
        m.count(TwoPungsAndChow, by_pungs[2]);
        m.count(ThreePungsAndChow, by_pungs[3]);
    }
    if want & PUNG_SETS != 0 {
        // `len` consecutive pungs of one suit, named by the lowest.
        let runs = |len: u32| {
            let starts = ((1 << (10 - len)) - 1) * SUIT_STARTS;
            (0..len).fold(pungs & starts, |acc, k| acc & (pungs >> k))
        };
        m.count(
            TerminalPungs,
            (pungs & (pungs >> 8) & SUIT_STARTS).count_ones() as u8,
        );
        m.flag(
            ThreeSuitPungs,
            pungs & (pungs >> 9) & (pungs >> 18) & 0x1ff != 0,
        );
        m.flag(ThreeConsecutivePungs, runs(3) != 0);
        m.flag(FourConsecutivePungs, runs(4) != 0);
        m.flag(FiveConsecutivePungs, runs(5) != 0);
    }

    m.flag(EightPairs, r.kind == ReadingKind::EightPairs);
    m.flag(ThirteenOrphans, r.kind == ReadingKind::ThirteenOrphans);
    debug_assert_eq!(m.mask & !SET_LEVEL, 0);
    m.mask & want
}

/// The [`PLACEMENT_LEVEL`] patterns of `want` that apply to reading `r`. `wait_kinds` as
/// for [`hand_patterns`].
pub(crate) fn placement_patterns(
    f: &Facts,
    r: &Reading,
    v: &Variant,
    want: PatternSet,
    wait_kinds: &mut impl FnMut() -> u8,
) -> PatternSet {
    let fl = &f.input_flags;
    let mut mask = 0;
    let mut flag = |p: PatternId, applies: bool| mask |= (applies as PatternSet) << p as u32;
    let shape = match r.wait {
        WaitShape::Edge => Some(EdgeWait),
        WaitShape::Closed => Some(ClosedWait),
        WaitShape::Single => Some(SingleWait),
        _ => None,
    };
    if let Some(shape) = shape {
        // Wait tai on a one-tile shape; some variants pay it only when the hand waited on
        // exactly one kind (and 一獨 pays the shape that waited on more).
        let needs_kinds = want & FalseSingleWait.bit() != 0
            || (v.wait_needs_single_kind && want & shape.bit() != 0);
        let kinds = if needs_kinds { wait_kinds() } else { 0 };
        flag(shape, !v.wait_needs_single_kind || kinds == 1);
        flag(FalseSingleWait, kinds > 1);
    }
    flag(DoublePairWait, r.wait == WaitShape::DoublePair);
    flag(
        LastCopyTwoSided,
        r.wait == WaitShape::TwoSided && fl.last_copy,
    );
    flag(
        ClosedFive,
        r.wait == WaitShape::Closed && f.win_tile.rank() == 5,
    );
    flag(
        AllChows,
        r.kind == ReadingKind::Regular
            && r.chows == 5
            && !f.has_honors()
            && f.flowers.is_empty()
            && r.wait == WaitShape::TwoSided
            && !f.self_draw,
    );
    flag(TwoConcealedPungs, r.concealed_pungs >= 2);
    flag(ThreeConcealedPungs, r.concealed_pungs >= 3);
    flag(FourConcealedPungs, r.concealed_pungs >= 4);
    flag(FiveConcealedPungs, r.concealed_pungs >= 5);
    debug_assert_eq!(mask & !PLACEMENT_LEVEL, 0);
    mask & want
}

/// 四歸四: some kind held by four chows.
fn four_chows_share(r: &Reading) -> bool {
    // Per kind, four bits each, the chows holding it: a sum never carries, five chows at
    // most holding a kind, and no chow crosses a suit.
    let mut holding = 0u128;
    let mut starts = r.chow_at_least[0];
    while starts != 0 {
        let i = starts.trailing_zeros();
        starts &= starts - 1;
        holding += (r.chow_counts[i as usize] as u128 * 0x111) << (4 * i);
    }
    // Bit 2 or 3 of some count: four or more.
    holding & (0xc * NIBBLES) != 0
}

/// 全帶: the pair and every set hold one same number (a regular reading).
fn all_with_number(r: &Reading) -> bool {
    let Some(pair) = r.pair.filter(|t| !t.is_honor()) else {
        return false;
    };
    if r.pung_set & HONORS != 0 {
        return false;
    }
    let fold = |m: u64| ((m | m >> 9 | m >> 18) & 0x1ff) as u32;
    // A pung holds its own rank only; a chow starting on rank r holds r, r + 1 and r + 2,
    // so the chows share a rank only if their lowest ranks are at most two apart.
    let mut common = 1u32 << (pair.rank() - 1);
    let pung_ranks = fold(r.pung_set);
    if pung_ranks != 0 {
        common &= pung_ranks;
        if pung_ranks.count_ones() > 1 {
            return false;
        }
    }
    let chow_starts = fold(r.chow_at_least[0] as u64);
    if chow_starts != 0 {
        let lo = chow_starts.trailing_zeros();
        let hi = 31 - chow_starts.leading_zeros();
        common &= (0b111 << lo) & (0b111 << hi);
    }
    common != 0
}

/// 尾巴: two pungs and the pair on one number in three suits, or on three consecutive
/// numbers of one suit (taiwan16-2015-table.txt:191).
fn tail(r: &Reading) -> bool {
    let Some(pair) = r.pair.filter(|t| !t.is_honor()) else {
        return false;
    };
    let (suit, rank) = (pair.index() / 9, pair.index() % 9);
    let pung = |s: usize, k: usize| r.pung_set & (1 << (9 * s + k)) != 0;
    let across = (0..3).filter(|&s| s != suit).all(|s| pung(s, rank));
    let along = (rank.saturating_sub(2)..=rank.min(6))
        .any(|lo| (lo..lo + 3).filter(|&k| k != rank).all(|k| pung(suit, k)));
    across || along
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_batches_share_out_the_catalogue() {
        let all: PatternSet = PatternId::ALL.iter().fold(0, |m, p| m | p.bit());
        assert_eq!(HAND_LEVEL | SET_LEVEL | PLACEMENT_LEVEL, all);
        assert_eq!(HAND_LEVEL & SET_LEVEL, 0);
        assert_eq!(HAND_LEVEL & PLACEMENT_LEVEL, 0);
        assert_eq!(SET_LEVEL & PLACEMENT_LEVEL, 0);
    }
}
