//! The detectors: one arm of [`detect`] per pattern, over a reading of the hand and the
//! facts of the win that no reading changes.

use super::context::{Ready, WinInput};
use super::pattern::PatternId;
use super::variant::Variant;
use crate::algo::Decomposition;
use crate::algo::Set;
use crate::meld::MeldKind;
use crate::tile::{FlowerSet, Tile};

/// How the winning tile completed the hand, judged on one reading.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum WaitShape {
    /// 兩面: either end of a chow, completable on both sides.
    TwoSided,
    /// 邊張: 12 waiting on 3, 89 on 7.
    Edge,
    /// 崁張: the middle of a chow.
    Closed,
    /// 單吊: the second tile of the pair.
    Single,
    /// 對碰: a pair becoming a pung.
    DoublePair,
    /// No winning tile (flower wins).
    None,
}

impl WaitShape {
    /// Stable snake_case name.
    pub const fn name(self) -> &'static str {
        match self {
            WaitShape::TwoSided => "two_sided",
            WaitShape::Edge => "edge",
            WaitShape::Closed => "closed",
            WaitShape::Single => "single",
            WaitShape::DoublePair => "double_pair",
            WaitShape::None => "none",
        }
    }
}

/// Which kind of reading scored the hand.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ReadingKind {
    /// Five sets (melds included) and a pair.
    Regular,
    /// 尼姑: seven pairs and a triplet.
    EightPairs,
    /// 十三么, 16-tile form.
    ThirteenOrphans,
    /// 八仙過海 / 七搶一: no hand is read.
    FlowerWin,
}

/// One set of a reading, melds included.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct RSet {
    pub tile: Tile,
    pub chow: bool,
    /// Concealed for 暗刻: a concealed kong, or a pung of the concealed hand not completed
    /// by a discard.
    pub concealed: bool,
}

impl RSet {
    const EMPTY: RSet = RSet {
        tile: Tile::new(0),
        chow: false,
        concealed: false,
    };

    /// Ranks (bit r-1) of the set's tiles; 0 for honors.
    #[inline]
    fn ranks(self) -> u16 {
        if self.tile.is_honor() {
            0
        } else if self.chow {
            0b111 << (self.tile.rank() - 1)
        } else {
            1 << (self.tile.rank() - 1)
        }
    }

    #[inline]
    fn has_terminal_or_honor(self) -> bool {
        if self.chow {
            let r = self.tile.rank();
            r == 1 || r == 7
        } else {
            self.tile.is_terminal_or_honor()
        }
    }
}

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
    /// Kinds the hand waited on before the winning tile (0 when not computed).
    pub wait_kinds: u8,
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

const HONORS: u64 = 0x7f << 27;
const WINDS: u64 = 0xf << 27;
const DRAGONS: u64 = 0x7 << 31;
const TERMINALS: u64 = (1 << 0) | (1 << 8) | (1 << 9) | (1 << 17) | (1 << 18) | (1 << 26);
const FIVES: u64 = (1 << 4) | (1 << 13) | (1 << 22);

impl Facts {
    pub fn new(input: &WinInput, variant: &Variant, self_draw: bool, wait_kinds: u8) -> Facts {
        let mut present = input.hand.kinds().0;
        let mut exposed_kongs = 0;
        let mut concealed_kongs = 0;
        let mut exposed = 0;
        for m in &input.melds {
            present |= match m.kind() {
                MeldKind::Chow => 0b111 << m.tile().index(),
                _ => 1 << m.tile().index(),
            };
            match m.kind() {
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
            wait_kinds,
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

/// One way of reading the hand, with the winning tile placed.
pub(crate) struct Reading {
    pub kind: ReadingKind,
    pub sets: [RSet; 5],
    pub n: u8,
    /// The pair of a regular reading.
    pub pair: Option<Tile>,
    pub wait: WaitShape,
    pub chows: u8,
    pub concealed_pungs: u8,
    /// Kinds held as a pung or kong.
    pub pung_set: u64,
    /// Chows by lowest tile (suit × 9 + rank − 1).
    pub chow_counts: [u8; 27],
    /// Chows by how many of their kinds are also pungs (四歸一 family), set by `finish`.
    pub by_pungs: [u8; 4],
}

impl Reading {
    /// A reading with no sets, for the detectors that do not read sets.
    pub fn blank() -> Reading {
        Reading::new(ReadingKind::Regular)
    }

    fn new(kind: ReadingKind) -> Reading {
        Reading {
            kind,
            sets: [RSet::EMPTY; 5],
            n: 0,
            pair: None,
            wait: WaitShape::None,
            chows: 0,
            concealed_pungs: 0,
            pung_set: 0,
            chow_counts: [0; 27],
            by_pungs: [0; 4],
        }
    }

    /// Fills the summaries that need every set in place.
    fn finish(&mut self) {
        self.by_pungs = if self.chows > 0 && self.pung_set != 0 {
            self.chows_by_pungs()
        } else {
            [self.chows, 0, 0, 0]
        };
    }

    fn push(&mut self, set: RSet) {
        self.sets[self.n as usize] = set;
        self.n += 1;
        if set.chow {
            self.chows += 1;
            self.chow_counts[set.tile.index()] += 1;
        } else {
            self.pung_set |= 1 << set.tile.index();
            self.concealed_pungs += set.concealed as u8;
        }
    }

    #[inline]
    fn sets(&self) -> &[RSet] {
        &self.sets[..self.n as usize]
    }

    #[inline]
    fn regular(&self) -> bool {
        self.kind == ReadingKind::Regular
    }

    /// Every set and the pair satisfy `f` (a regular reading only).
    #[inline]
    fn all_sets_and_pair(&self, set: impl Fn(RSet) -> bool, pair: impl Fn(Tile) -> bool) -> bool {
        self.regular() && self.sets().iter().all(|&s| set(s)) && self.pair.is_some_and(pair)
    }

    /// Pungs (and kongs) among the kinds in `mask`.
    #[inline]
    fn pungs_in(&self, mask: u64) -> u8 {
        (self.pung_set & mask).count_ones() as u8
    }

    /// Chows containing `tile`.
    #[inline]
    fn chows_holding(&self, tile: Tile) -> u8 {
        if tile.is_honor() {
            return 0;
        }
        let i = tile.index();
        let r = tile.rank() as usize;
        let mut n = self.chow_counts.get(i).copied().unwrap_or(0) * (r <= 7) as u8;
        if (2..=8).contains(&r) {
            n += self.chow_counts[i - 1];
        }
        if r >= 3 {
            n += self.chow_counts[i - 2];
        }
        n
    }

    /// Chows by how many of their three kinds are also held as pungs (四歸一 family).
    fn chows_by_pungs(&self) -> [u8; 4] {
        let mut out = [0u8; 4];
        for (i, &c) in self.chow_counts.iter().enumerate() {
            if c != 0 {
                let k = ((self.pung_set >> i) & 0b111).count_ones() as usize;
                out[k] += c;
            }
        }
        out
    }
}

/// Whether a pattern's detector depends on the reading (sets, pair, wait) rather than only
/// on the tiles and the circumstances; those are evaluated once per hand.
pub(crate) const fn reads_sets(p: PatternId) -> bool {
    use PatternId::*;
    !matches!(
        p,
        Winning
            | SelfDraw
            | ConcealedHand
            | ConcealedSelfDraw
            | RobbingKong
            | KongBloom
            | LastTileDraw
            | LastTileDiscard
            | AllMelded
            | HalfMelded
            | MeldedHand
            | HeavenlyWin
            | EarthlyWin
            | HumanWin
            | DealerHeavenlyReady
            | HeavenlyReady
            | EarthlyReady
            | ReadyOnOriginalHand
            | EarlyWin
            | EarlyWinFirstFive
            | TrueSingleWait
            | LastCopySingle
            | SeatFlower
            | AnyFlower
            | FlowerKong
            | NoFlowers
            | SevenRobOne
            | EightFlowers
            | NoHonors
            | NoHonorsNoFlowers
            | ExposedKong
            | ConcealedKong
            | FourKongs
            | FiveKongs
            | HalfFlush
            | FullFlush
            | MissingSuit
            | FiveGroups
            | NoFives
            | ThreeFives
            | AllSimples
            | ThreeNumbers
            | TwoNumbers
            | OneBecomesFive
    )
}

/// Whether a pattern depends on where the winning tile is placed (the wait, and whether a
/// pung it completes is concealed), beyond the decomposition.
pub(crate) const fn reads_placement(p: PatternId) -> bool {
    use PatternId::*;
    matches!(
        p,
        EdgeWait
            | ClosedWait
            | SingleWait
            | DoublePairWait
            | FalseSingleWait
            | LastCopyTwoSided
            | ClosedFive
            | AllChows
            | TwoConcealedPungs
            | ThreeConcealedPungs
            | FourConcealedPungs
            | FiveConcealedPungs
    )
}

/// How many times `p` applies (0: not at all). `r` is ignored for the patterns
/// [`reads_sets`] says do not read sets.
pub(crate) fn detect(p: PatternId, f: &Facts, r: &Reading, v: &Variant) -> u8 {
    use PatternId::*;
    let fl = &f.input_flags;
    let b = |x: bool| x as u8;
    let wait_tai =
        |shape: WaitShape| b(r.wait == shape && (!v.wait_needs_single_kind || f.wait_kinds == 1));
    match p {
        Winning => 1,
        SelfDraw => b(f.self_draw),
        ConcealedHand => b(f.concealed),
        ConcealedSelfDraw => b(f.concealed && f.self_draw),
        RobbingKong => b(fl.robbing_kong),
        KongBloom => b(fl.replacement),
        LastTileDraw => b(fl.last_tile && f.drawn),
        LastTileDiscard => b(fl.last_tile && !f.drawn),
        AllMelded => b(f.all_melded && !f.self_draw),
        HalfMelded => b(f.all_melded && f.self_draw),
        MeldedHand => b(f.all_melded),
        HeavenlyWin => b(fl.heavenly),
        EarthlyWin => b(fl.earthly),
        HumanWin => b(fl.human),
        DealerHeavenlyReady => b(f.dealer && fl.ready == Ready::OnDeal),
        HeavenlyReady => b(!f.dealer && fl.ready == Ready::OnDeal),
        EarthlyReady => b(fl.ready != Ready::None),
        ReadyOnOriginalHand => b(fl.ready == Ready::OnDeal),
        EarlyWin => b(fl.discards.is_some_and(|d| (6..=9).contains(&d))),
        EarlyWinFirstFive => b(fl.discards.is_some_and(|d| d <= 5)),

        EdgeWait => wait_tai(WaitShape::Edge),
        ClosedWait => wait_tai(WaitShape::Closed),
        SingleWait => wait_tai(WaitShape::Single),
        DoublePairWait => b(r.wait == WaitShape::DoublePair),
        FalseSingleWait => b(matches!(
            r.wait,
            WaitShape::Edge | WaitShape::Closed | WaitShape::Single
        ) && f.wait_kinds > 1),
        TrueSingleWait => b(f.wait_kinds == 1),
        LastCopySingle => b(f.wait_kinds == 1 && fl.last_copy),
        LastCopyTwoSided => b(r.wait == WaitShape::TwoSided && fl.last_copy),
        ClosedFive => b(r.wait == WaitShape::Closed && f.win_tile.rank() == 5),

        SeatFlower => {
            let own = (1u8 << (f.seat_wind.index() - 27)) * 0x11;
            (f.loose_flowers.0 & own).count_ones() as u8
        }
        AnyFlower => f.loose_flowers.len() as u8,
        FlowerKong => f.flower_kongs,
        NoFlowers => b(f.flowers.is_empty()),
        // Flower wins are scored apart (`score_flower_win`); no hand reads as one.
        SevenRobOne | EightFlowers | OneBecomesFive => 0,

        DragonPung => r.pungs_in(DRAGONS),
        RoundWindPung => b(r.pung_set & (1 << f.round_wind.index()) != 0),
        SeatWindPung => b(r.pung_set & (1 << f.seat_wind.index()) != 0),
        AnyWindPung => r.pungs_in(WINDS),
        HonorPung => r.pungs_in(HONORS),
        NoHonors => b(!f.has_honors()),
        NoHonorsNoFlowers => b(!f.has_honors() && f.flowers.is_empty()),
        LittleThreeDragons => b(r.pungs_in(DRAGONS) == 2 && r.pair.is_some_and(|t| t.is_dragon())),
        BigThreeDragons => b(r.pungs_in(DRAGONS) == 3),
        LittleThreeWinds => b(r.pungs_in(WINDS) == 2 && r.pair.is_some_and(|t| t.is_wind())),
        BigThreeWinds => b(r.pungs_in(WINDS) == 3),
        LittleFourWinds => b(r.pungs_in(WINDS) == 3 && r.pair.is_some_and(|t| t.is_wind())),
        BigFourWinds => b(r.pungs_in(WINDS) == 4),
        AllHonors => b(r.regular() && f.present & !HONORS == 0),

        ExposedKong => f.exposed_kongs,
        ConcealedKong => f.concealed_kongs,
        FourKongs => b(f.exposed_kongs + f.concealed_kongs >= 4),
        FiveKongs => b(f.exposed_kongs + f.concealed_kongs >= 5),
        TwoConcealedPungs => b(r.concealed_pungs >= 2),
        ThreeConcealedPungs => b(r.concealed_pungs >= 3),
        FourConcealedPungs => b(r.concealed_pungs >= 4),
        FiveConcealedPungs => b(r.concealed_pungs >= 5),

        AllChows => b(r.regular()
            && r.chows == 5
            && !f.has_honors()
            && f.flowers.is_empty()
            && r.wait == WaitShape::TwoSided
            && !f.self_draw),
        SmallAllChows => b(r.regular() && r.chows == 5 && !f.has_honors() && !f.flowers.is_empty()),
        BigAllChows => b(r.regular() && r.chows == 5 && !f.has_honors() && f.flowers.is_empty()),
        ChowHand => b(r.regular() && r.chows == 5),
        AllPungs => b(r.regular() && r.chows == 0),
        HalfFlush => b(f.suits().count_ones() == 1 && f.has_honors()),
        FullFlush => b(f.suits().count_ones() == 1 && !f.has_honors()),
        MissingSuit => b(f.suits().count_ones() == 2 && !f.has_honors()),
        FiveGroups => b(f.suits() == 0b111 && f.present & WINDS != 0 && f.present & DRAGONS != 0),
        NoFives => b(f.present & FIVES == 0),
        ThreeFives => b(f.present & FIVES == FIVES),
        AllSimples => b(f.present & (HONORS | TERMINALS) == 0),
        Pair258 => b(r
            .pair
            .is_some_and(|t| !t.is_honor() && matches!(t.rank(), 2 | 5 | 8))),
        OutsideHand => b(f.has_honors()
            && r.all_sets_and_pair(RSet::has_terminal_or_honor, Tile::is_terminal_or_honor)),
        TerminalOutside => b(!f.has_honors()
            && r.all_sets_and_pair(RSet::has_terminal_or_honor, Tile::is_terminal_or_honor)),
        TerminalHonorPungs => b(r.chows == 0
            && r.all_sets_and_pair(
                |s| s.tile.is_terminal_or_honor(),
                Tile::is_terminal_or_honor,
            )),
        ThreeNumbers => b(f.numbers() == 3),
        TwoNumbers => b(f.numbers() == 2),
        AllWithNumber => {
            let Some(pair) = r.pair.filter(|t| !t.is_honor() && r.regular()) else {
                return 0;
            };
            let common = r
                .sets()
                .iter()
                .fold(1u16 << (pair.rank() - 1), |acc, s| acc & s.ranks());
            b(common != 0)
        }
        Tail => b(tail(r)),

        IdenticalChows => b(r.chows >= 2 && r.chow_counts.iter().any(|&c| c >= 2)),
        ThreeIdenticalChows => b(r.chows >= 3 && r.chow_counts.iter().any(|&c| c >= 3)),
        FourIdenticalChows => b(r.chows >= 4 && r.chow_counts.iter().any(|&c| c >= 4)),
        TwoIdenticalPairs => {
            b(r.chows >= 4 && r.chow_counts.iter().map(|&c| c / 2).sum::<u8>() >= 2)
        }
        PureStraight => b(straight_suit(r).is_some()),
        PureStraightSelfDrawn => b(straight_suit(r).is_some() && f.self_draw),
        StraightAndIdentical => {
            b(straight_suit(r)
                .is_some_and(|s| [0, 3, 6].iter().any(|&o| r.chow_counts[s + o] >= 2)))
        }
        ThreeSuitChows => b(triple_chow(r).is_some()),
        TripleChowAndIdentical => b(triple_chow(r)
            .is_some_and(|k| r.chow_counts[k] + r.chow_counts[k + 9] + r.chow_counts[k + 18] >= 4)),
        TerminalChows => (0..3)
            .filter(|s| r.chow_counts[9 * s] > 0 && r.chow_counts[9 * s + 6] > 0)
            .count() as u8,
        DoubleTerminalChows => b((0..3).any(|s| {
            let (lo, hi) = (r.chow_counts[9 * s], r.chow_counts[9 * s + 6]);
            lo > 0 && hi > 0 && lo + hi >= 3
        })),
        TwoTerminalChows => b((0..3)
            .map(|s| r.chow_counts[9 * s].min(r.chow_counts[9 * s + 6]))
            .sum::<u8>()
            >= 2),
        PungAndChow => r.by_pungs[1],
        TwoPungsAndChow => r.by_pungs[2],
        ThreePungsAndChow => r.by_pungs[3],
        TwoChowsAndPair => b(r.chows >= 2 && r.pair.is_some_and(|t| r.chows_holding(t) == 2)),
        FourChowsShare => {
            b(r.chows >= 4 && Tile::ALL[..27].iter().any(|&t| r.chows_holding(t) >= 4))
        }

        TerminalPungs => (0..3)
            .filter(|s| (r.pung_set >> (9 * s)) & 0x101 == 0x101)
            .count() as u8,
        ThreeSuitPungs => {
            let p = r.pung_set;
            b(p & (p >> 9) & (p >> 18) & 0x1ff != 0)
        }
        ThreeConsecutivePungs => b(consecutive_pungs(r, 3)),
        FourConsecutivePungs => b(consecutive_pungs(r, 4)),
        FiveConsecutivePungs => b(consecutive_pungs(r, 5)),

        EightPairs => b(r.kind == ReadingKind::EightPairs),
        ThirteenOrphans => b(r.kind == ReadingKind::ThirteenOrphans),
    }
}

/// The suit (as its first index) holding 123, 456 and 789.
#[inline]
fn straight_suit(r: &Reading) -> Option<usize> {
    [0, 9, 18]
        .into_iter()
        .find(|&s| r.chow_counts[s] > 0 && r.chow_counts[s + 3] > 0 && r.chow_counts[s + 6] > 0)
}

/// The rank index at which all three suits hold a chow.
#[inline]
fn triple_chow(r: &Reading) -> Option<usize> {
    (0..7).find(|&k| r.chow_counts[k] > 0 && r.chow_counts[k + 9] > 0 && r.chow_counts[k + 18] > 0)
}

/// `len` consecutive pungs in one suit.
#[inline]
fn consecutive_pungs(r: &Reading, len: u32) -> bool {
    (0..3).any(|s| {
        let bits = (r.pung_set >> (9 * s)) & 0x1ff;
        (0..len).fold(bits, |acc, k| acc & (bits >> k)) != 0
    })
}

/// 尾巴: two pungs and the pair on one number in three suits, or on three consecutive
/// numbers of one suit (taiwan16-2015-table.txt:191).
fn tail(r: &Reading) -> bool {
    let Some(pair) = r.pair.filter(|t| !t.is_honor() && r.regular()) else {
        return false;
    };
    let (suit, rank) = (pair.index() / 9, pair.index() % 9);
    let pung = |s: usize, k: usize| r.pung_set & (1 << (9 * s + k)) != 0;
    let across = (0..3).filter(|&s| s != suit).all(|s| pung(s, rank));
    let along = (rank.saturating_sub(2)..=rank.min(6))
        .any(|lo| (lo..lo + 3).filter(|&k| k != rank).all(|k| pung(suit, k)));
    across || along
}

/// Calls `each` with every reading of a regular decomposition: one per distinct concealed
/// set (or the pair) the winning tile can complete.
pub(crate) fn regular_readings(
    input: &WinInput,
    d: &Decomposition,
    self_draw: bool,
    mut each: impl FnMut(&Reading, bool),
) {
    let win = input.win_tile.expect("validated");
    let mut first = true;
    let mut base = Reading::new(ReadingKind::Regular);
    base.pair = Some(d.pair);
    for m in &input.melds {
        base.push(RSet {
            tile: m.tile(),
            chow: m.kind() == MeldKind::Chow,
            concealed: m.kind() == MeldKind::ConcealedKong,
        });
    }
    let melded = base.n;
    for s in &d.sets {
        let (tile, chow) = match *s {
            Set::Chow(t) => (t, true),
            Set::Pung(t) => (t, false),
        };
        base.push(RSet {
            tile,
            chow,
            concealed: !chow,
        });
    }
    base.finish();
    let mut tried: [Option<Set>; 5] = [None; 5];
    for (k, s) in d.sets.iter().enumerate() {
        let holds = match *s {
            Set::Chow(t) => {
                t.suit() == win.suit() && (t.to_u8()..t.to_u8() + 3).contains(&win.to_u8())
            }
            Set::Pung(t) => t == win,
        };
        if !holds || tried.contains(&Some(*s)) {
            continue;
        }
        tried[k] = Some(*s);
        let mut r = base.clone_shallow();
        let i = melded as usize + k;
        r.wait = match *s {
            Set::Pung(_) => {
                if !self_draw {
                    r.sets[i].concealed = false;
                    r.concealed_pungs -= 1;
                }
                WaitShape::DoublePair
            }
            Set::Chow(t) => {
                let pos = win.to_u8() - t.to_u8();
                let rank = t.rank();
                match pos {
                    1 => WaitShape::Closed,
                    0 if rank == 7 => WaitShape::Edge,
                    2 if rank == 1 => WaitShape::Edge,
                    _ => WaitShape::TwoSided,
                }
            }
        };
        each(&r, first);
        first = false;
    }
    if d.pair == win {
        let mut r = base.clone_shallow();
        r.wait = WaitShape::Single;
        each(&r, first);
    }
}

impl Reading {
    /// A copy (the struct is plain data; not `Copy` only to keep copies visible).
    fn clone_shallow(&self) -> Reading {
        Reading {
            kind: self.kind,
            sets: self.sets,
            n: self.n,
            pair: self.pair,
            wait: self.wait,
            chows: self.chows,
            concealed_pungs: self.concealed_pungs,
            pung_set: self.pung_set,
            chow_counts: self.chow_counts,
            by_pungs: self.by_pungs,
        }
    }
}

/// The 尼姑 reading: seven pairs and the triplet, all concealed. Runs of three consecutive
/// pairs in one suit read as two identical chows, which is how the 2015 table can allow
/// 雙龍抱 on it (taiwan16-2015-table.txt:298).
pub(crate) fn eight_pairs_reading(input: &WinInput, self_draw: bool) -> Option<Reading> {
    if input.hand.len() != 17 || !input.melds.is_empty() {
        return None;
    }
    // Bit 0 of every kind's 3-bit count: exactly one kind may be odd.
    const LOW: u128 = 0o1111111111111111111111111111111111;
    if (input.hand.packed() & LOW).count_ones() != 1 {
        return None;
    }
    let counts = input.hand.counts();
    // Exactly one kind is odd, and it is the triplet.
    let mut odd = Tile::ALL.into_iter().filter(|t| counts[t.index()] % 2 == 1);
    let triplet = odd.next().filter(|t| counts[t.index()] == 3)?;
    if odd.next().is_some() {
        return None;
    }
    let win = input.win_tile?;
    let mut r = Reading::new(ReadingKind::EightPairs);
    r.push(RSet {
        tile: triplet,
        chow: false,
        concealed: self_draw || win != triplet,
    });
    r.wait = if win == triplet {
        WaitShape::DoublePair
    } else {
        WaitShape::Single
    };
    let mut pairs = [0u8; 27];
    for (i, p) in pairs.iter_mut().enumerate() {
        *p = counts[i] / 2;
    }
    for s in 0..3 {
        for k in 0..7 {
            let i = 9 * s + k;
            while pairs[i] > 0 && pairs[i + 1] > 0 && pairs[i + 2] > 0 {
                pairs[i] -= 1;
                pairs[i + 1] -= 1;
                pairs[i + 2] -= 1;
                r.chow_counts[i] += 2;
                r.chows += 2;
            }
        }
    }
    r.finish();
    Some(r)
}

/// Calls `each` with every 十三么 reading: one per extra set that leaves the thirteen
/// orphans with one of them paired.
pub(crate) fn thirteen_orphans_readings(
    input: &WinInput,
    self_draw: bool,
    mut each: impl FnMut(&Reading, bool),
) {
    const ORPHANS: u64 = TERMINALS | HONORS;
    let Some(win) = input.win_tile else {
        return;
    };
    let held = input.hand.kinds().0;
    // Every orphan held, and at most three other kinds (the extra set): the usual hand
    // fails here, before the scan below.
    if held & ORPHANS != ORPHANS || (held & !ORPHANS).count_ones() > 3 || input.hand.len() != 17 {
        return;
    }
    let counts = input.hand.counts();
    let fits = |rest: &[u8; 34]| {
        let mut total = 0;
        for (i, &c) in rest.iter().enumerate() {
            let orphan = ORPHANS & (1 << i) != 0;
            if (orphan && c == 0) || (!orphan && c != 0) {
                return false;
            }
            total += c;
        }
        total == 14
    };
    for k in 0..34 {
        let t = Tile::ALL[k];
        for chow in [false, true] {
            let mut rest = counts;
            if chow {
                if t.is_honor() || t.rank() > 7 || (0..3).any(|j| rest[k + j] == 0) {
                    continue;
                }
                (0..3).for_each(|j| rest[k + j] -= 1);
            } else {
                if rest[k] < 3 {
                    continue;
                }
                rest[k] -= 3;
            }
            if !fits(&rest) {
                continue;
            }
            let mut r = Reading::new(ReadingKind::ThirteenOrphans);
            let in_set = if chow {
                win.suit() == t.suit() && (k..k + 3).contains(&win.index())
            } else {
                win == t
            };
            r.push(RSet {
                tile: t,
                chow,
                concealed: !chow && (self_draw || !in_set),
            });
            r.finish();
            r.wait = match (in_set, chow) {
                (false, _) => WaitShape::Single,
                (true, false) => WaitShape::DoublePair,
                (true, true) => match (win.index() - k, t.rank()) {
                    (1, _) => WaitShape::Closed,
                    (0, 7) | (2, 1) => WaitShape::Edge,
                    _ => WaitShape::TwoSided,
                },
            };
            each(&r, true);
        }
    }
}
