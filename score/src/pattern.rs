//! The pattern catalogue: every scoring pattern of every rule text, with a stable id and its
//! names. What a pattern is worth, and whether it applies at all, is the variant's business;
//! the catalogue only says what each pattern *is*.

use core::fmt;

macro_rules! catalogue {
    ($( $(#[$doc:meta])* $variant:ident = $id:literal, $zh:literal, $en:literal; )*) => {
        /// One scoring pattern. The discriminant is its index in [`PatternId::ALL`]; the
        /// stable name is [`PatternId::id`].
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum PatternId {
            $( $(#[$doc])* $variant, )*
        }

        impl PatternId {
            /// Every pattern, in catalogue order.
            pub const ALL: &'static [PatternId] = &[$(PatternId::$variant,)*];
            /// Number of patterns.
            pub const COUNT: usize = PatternId::ALL.len();

            /// The stable snake_case id used in variant files and JSON.
            pub const fn id(self) -> &'static str {
                match self { $(PatternId::$variant => $id,)* }
            }

            /// The Chinese name, as the rule texts write it.
            pub const fn name_zh(self) -> &'static str {
                match self { $(PatternId::$variant => $zh,)* }
            }

            /// The English name.
            pub const fn name_en(self) -> &'static str {
                match self { $(PatternId::$variant => $en,)* }
            }
        }
    };
}

catalogue! {
    // --- how the hand was won -------------------------------------------------------------
    /// Mahjongtime "Winning": every win.
    Winning = "winning", "胡牌", "Winning";
    /// 自摸: won on one's own draw.
    SelfDraw = "self_draw", "自摸", "Self-drawn";
    /// 門清: no chow, pung or exposed kong (concealed kongs allowed).
    ConcealedHand = "concealed_hand", "門清", "Concealed hand";
    /// 門清一摸三 / 不求人: a concealed hand that self-draws.
    ConcealedSelfDraw = "concealed_self_draw", "門清一摸三", "Fully concealed self-draw";
    /// 搶槓: won on the tile another player adds to a pung.
    RobbingKong = "robbing_kong", "搶槓", "Robbing a kong";
    /// 槓上開花: won on a kong or flower replacement tile.
    KongBloom = "kong_bloom", "槓上開花", "Win on a replacement tile";
    /// 海底撈月: self-drawn on the last drawable tile.
    LastTileDraw = "last_tile_draw", "海底撈月", "Last tile of the wall";
    /// 河底撈魚: won on the last discard (mahjongtime "Out of the last discard").
    LastTileDiscard = "last_tile_discard", "河底撈魚", "Last discard";
    /// 全求人 / 全求: every set melded, won on a discard with the last single tile.
    AllMelded = "all_melded", "全求人", "Fully melded hand";
    /// 半求: every set melded, the last single tile self-drawn.
    HalfMelded = "half_melded", "半求", "Fully melded self-draw";
    /// Mahjongtime "Exposed hand": every set melded, won with a single tile, by any means.
    MeldedHand = "melded_hand", "全求人", "Exposed hand";
    /// 天胡: the dealer wins on the dealt hand.
    HeavenlyWin = "heavenly_win", "天胡", "Heavenly hand";
    /// 地胡: a non-dealer self-draws on its first draw, nobody having claimed.
    EarthlyWin = "earthly_win", "地胡", "Earthly hand";
    /// 人胡: a non-dealer wins on a discard before its first draw.
    HumanWin = "human_win", "人胡", "Human hand";
    /// 天聽 in taiwan16: the dealer declares ready with its first discard.
    DealerHeavenlyReady = "dealer_heavenly_ready", "天聽", "Heavenly ready (dealer)";
    /// 天聽 in the 2015 table: a non-dealer is ready on the dealt hand and declares.
    HeavenlyReady = "heavenly_ready", "天聽", "Heavenly ready";
    /// 地聽: declared ready early in the deal.
    EarthlyReady = "earthly_ready", "地聽", "Earthly ready";
    /// Mahjongtime "Ready on original hand": ready on the dealt hand, declared.
    ReadyOnOriginalHand = "ready_on_original_hand", "天聽", "Ready on original hand";
    /// Mahjongtime "Early winning": out after more than 5 and fewer than 10 discards.
    EarlyWin = "early_win", "早胡", "Early winning";
    /// Mahjongtime "Early winning 2": out after 5 discards or fewer.
    EarlyWinFirstFive = "early_win_first_five", "早胡", "Early winning 2";

    // --- waits ----------------------------------------------------------------------------
    /// 邊張: 12 waiting on 3, or 89 on 7.
    EdgeWait = "edge_wait", "邊張", "Edge wait";
    /// 崁張: waiting on the middle of a chow.
    ClosedWait = "closed_wait", "崁張", "Closed wait";
    /// 獨聽 / 單吊: waiting on the pair's second tile.
    SingleWait = "single_wait", "獨聽", "Single wait";
    /// 對碰: waiting on one of two pairs.
    DoublePairWait = "double_pair_wait", "對碰", "Double-pair wait";
    /// 一獨: the hand reads as a one-tile wait but waits on more kinds.
    FalseSingleWait = "false_single_wait", "一獨", "Apparent single wait";
    /// 獨獨: the hand waits on exactly one kind.
    TrueSingleWait = "true_single_wait", "獨獨", "Only one tile waited";
    /// 單絕張: 獨獨 on the last copy (the other three visible).
    LastCopySingle = "last_copy_single", "單絕張", "Last copy, single wait";
    /// 雙絕張: a two-sided wait won on the last copy (the other seven visible).
    LastCopyTwoSided = "last_copy_two_sided", "雙絕張", "Last copy, two-sided wait";
    /// 卡五: 4 and 6 of one suit waiting on the 5.
    ClosedFive = "closed_five", "卡五", "Closed wait on 5";

    // --- flowers --------------------------------------------------------------------------
    /// 正花: each flower of the winner's seat wind.
    SeatFlower = "seat_flower", "正花", "Seat flower";
    /// 見花見台 / 花: each flower.
    AnyFlower = "any_flower", "見花見台", "Flower";
    /// 花槓: all four seasons or all four plants.
    FlowerKong = "flower_kong", "花槓", "Flower kong";
    /// 無花: no flowers.
    NoFlowers = "no_flowers", "無花", "No flowers";
    /// 七搶一: seven flowers robbing the eighth.
    SevenRobOne = "seven_rob_one", "七搶一", "Seven flowers rob the eighth";
    /// 八仙過海 / 八朵花: all eight flowers.
    EightFlowers = "eight_flowers", "八仙過海", "All eight flowers";

    // --- honors ---------------------------------------------------------------------------
    /// 三元刻: each pung or kong of dragons.
    DragonPung = "dragon_pung", "三元刻", "Dragon pung";
    /// 圈風刻: a pung or kong of the round wind.
    RoundWindPung = "round_wind_pung", "圈風刻", "Round wind pung";
    /// 門風刻: a pung or kong of the seat wind.
    SeatWindPung = "seat_wind_pung", "門風刻", "Seat wind pung";
    /// 見風見台: each pung or kong of winds.
    AnyWindPung = "any_wind_pung", "見風見台", "Wind pung";
    /// 字: each pung or kong of honors.
    HonorPung = "honor_pung", "字", "Honor pung";
    /// 無字: no honors.
    NoHonors = "no_honors", "無字", "No honors";
    /// 無字無花: no honors and no flowers.
    NoHonorsNoFlowers = "no_honors_no_flowers", "無字無花", "No honors, no flowers";
    /// 小三元: two dragon pungs and a dragon pair.
    LittleThreeDragons = "little_three_dragons", "小三元", "Little three dragons";
    /// 大三元: three dragon pungs.
    BigThreeDragons = "big_three_dragons", "大三元", "Big three dragons";
    /// 小三風: two wind pungs and a wind pair.
    LittleThreeWinds = "little_three_winds", "小三風", "Little three winds";
    /// 大三風: three wind pungs.
    BigThreeWinds = "big_three_winds", "大三風", "Big three winds";
    /// 小四喜: three wind pungs and a wind pair.
    LittleFourWinds = "little_four_winds", "小四喜", "Little four winds";
    /// 大四喜: four wind pungs.
    BigFourWinds = "big_four_winds", "大四喜", "Big four winds";
    /// 字一色 / 全字碰: honor pungs only.
    AllHonors = "all_honors", "字一色", "All honors";

    // --- kongs and concealed pungs --------------------------------------------------------
    /// 明槓: each exposed or added kong.
    ExposedKong = "exposed_kong", "明槓", "Melded kong";
    /// 暗槓: each concealed kong.
    ConcealedKong = "concealed_kong", "暗槓", "Concealed kong";
    /// 四槓: four kongs.
    FourKongs = "four_kongs", "四槓", "Four kongs";
    /// 五槓: five kongs.
    FiveKongs = "five_kongs", "五槓", "Five kongs";
    /// 兩暗坎: two concealed pungs (concealed kongs count).
    TwoConcealedPungs = "two_concealed_pungs", "兩暗刻", "Two concealed pungs";
    /// 三暗刻.
    ThreeConcealedPungs = "three_concealed_pungs", "三暗刻", "Three concealed pungs";
    /// 四暗刻.
    FourConcealedPungs = "four_concealed_pungs", "四暗刻", "Four concealed pungs";
    /// 五暗刻.
    FiveConcealedPungs = "five_concealed_pungs", "五暗刻", "Five concealed pungs";

    // --- shape of the whole hand ----------------------------------------------------------
    /// 平胡 (taiwan16): five chows, no honors, no flowers, two-sided wait, on a discard.
    AllChows = "all_chows", "平胡", "All chows";
    /// 小平胡: five chows, no honors, with flowers.
    SmallAllChows = "small_all_chows", "小平胡", "All chows with flowers";
    /// 大平胡: five chows, no honors, no flowers.
    BigAllChows = "big_all_chows", "大平胡", "All chows, no honors or flowers";
    /// Mahjongtime "Chow hand": five chows.
    ChowHand = "chow_hand", "平胡", "Chow hand";
    /// 對對胡 / 碰碰胡: no chows.
    AllPungs = "all_pungs", "對對胡", "All pungs";
    /// 混一色: one numbered suit with honors.
    HalfFlush = "half_flush", "混一色", "Half flush";
    /// 清一色: one numbered suit only.
    FullFlush = "full_flush", "清一色", "Full flush";
    /// 缺門: two numbered suits, no honors.
    MissingSuit = "missing_suit", "缺門", "Missing one suit";
    /// 五門齊: all three suits, winds and dragons.
    FiveGroups = "five_groups", "五門齊", "All five groups";
    /// 缺五: no 5 anywhere.
    NoFives = "no_fives", "缺五", "No fives";
    /// 三五: a 5 in each numbered suit.
    ThreeFives = "three_fives", "三五", "Fives in three suits";
    /// 斷么: no terminals or honors.
    AllSimples = "all_simples", "斷么", "All simples";
    /// 將: the pair is a 2, 5 or 8.
    Pair258 = "pair_258", "將", "Pair of 2, 5 or 8";
    /// 混么: every set and the pair hold a terminal or honor, honors present.
    OutsideHand = "outside_hand", "混么", "Outside hand";
    /// 清么: every set and the pair hold a terminal, no honors.
    TerminalOutside = "terminal_outside", "清么", "Terminal outside hand";
    /// 混么碰: pungs and pair of terminals and honors only.
    TerminalHonorPungs = "terminal_honor_pungs", "混么碰", "Terminal and honor pungs";
    /// 三數: the tiles use three numbers (winds one, dragons one).
    ThreeNumbers = "three_numbers", "三數", "Three numbers";
    /// 兩數: the tiles use two numbers.
    TwoNumbers = "two_numbers", "兩數", "Two numbers";
    /// 全帶: every set and the pair hold the same number.
    AllWithNumber = "all_with_number", "全帶", "Same number throughout";
    /// 尾巴: two pungs and a pair of one number in three suits, or of three consecutive
    /// numbers in one suit.
    Tail = "tail", "尾巴", "Tail";

    // --- chows ----------------------------------------------------------------------------
    /// 般高: two identical chows.
    IdenticalChows = "identical_chows", "般高", "Identical chows";
    /// 三般高.
    ThreeIdenticalChows = "three_identical_chows", "三般高", "Three identical chows";
    /// 四般高.
    FourIdenticalChows = "four_identical_chows", "四般高", "Four identical chows";
    /// 雙龍抱: two 般高.
    TwoIdenticalPairs = "two_identical_pairs", "雙龍抱", "Two pairs of identical chows";
    /// 一條龍: 123 456 789 of one suit.
    PureStraight = "pure_straight", "一條龍", "Pure straight";
    /// Mahjongtime: the pure straight self-drawn.
    PureStraightSelfDrawn = "pure_straight_self_drawn", "一條龍自摸", "Pure straight, self-drawn";
    /// 雙龍: 一條龍 with one of its chows doubled.
    StraightAndIdentical = "straight_and_identical", "雙龍", "Straight with identical chows";
    /// 三相逢 (三姐妹): the same chow in three suits.
    ThreeSuitChows = "three_suit_chows", "三相逢", "Mixed triple chow";
    /// 雙鳳: 三相逢 with one of its chows doubled.
    TripleChowAndIdentical = "triple_chow_and_identical", "雙鳳", "Triple chow with identical chows";
    /// 老少: 123 and 789 of one suit (each such suit).
    TerminalChows = "terminal_chows", "老少", "Terminal chows";
    /// 雙老少: 123 and 789 of one suit, one of them doubled.
    DoubleTerminalChows = "double_terminal_chows", "雙老少", "Double terminal chows";
    /// 雙飄: two 老少.
    TwoTerminalChows = "two_terminal_chows", "雙飄", "Two terminal chow pairs";
    /// 四歸一: four of a kind split into a pung and a chow (each such chow).
    PungAndChow = "pung_and_chow", "四歸一", "Four split pung and chow";
    /// 雙四歸一: a chow with pungs of two of its tiles.
    TwoPungsAndChow = "two_pungs_and_chow", "雙四歸一", "Chow with two pungs";
    /// 三個四歸一: a chow with pungs of all three of its tiles.
    ThreePungsAndChow = "three_pungs_and_chow", "三個四歸一", "Chow with three pungs";
    /// 四歸二: four of a kind split into two chows and the pair.
    TwoChowsAndPair = "two_chows_and_pair", "四歸二", "Four split chows and pair";
    /// 四歸四: four chows of one suit sharing a tile.
    FourChowsShare = "four_chows_share", "四歸四", "Four chows sharing a tile";

    // --- pungs ----------------------------------------------------------------------------
    /// 老少碰: pungs of the 1 and 9 of one suit (each such suit).
    TerminalPungs = "terminal_pungs", "老少碰", "Terminal pungs";
    /// 三相碰: pungs of one number in three suits.
    ThreeSuitPungs = "three_suit_pungs", "三相碰", "Triple pung";
    /// 三連碰: three consecutive pungs of one suit.
    ThreeConsecutivePungs = "three_consecutive_pungs", "三連碰", "Three consecutive pungs";
    /// 四連碰.
    FourConsecutivePungs = "four_consecutive_pungs", "四連碰", "Four consecutive pungs";
    /// 五連碰.
    FiveConsecutivePungs = "five_consecutive_pungs", "五連碰", "Five consecutive pungs";

    // --- special shapes and rules ---------------------------------------------------------
    /// 尼姑 / 八對: seven pairs and a triplet.
    EightPairs = "eight_pairs", "尼姑", "Seven pairs and a triplet";
    /// 十三么 (16-tile form).
    ThirteenOrphans = "thirteen_orphans", "十三么", "Thirteen orphans";
    /// 一變五: a hand that counts exactly 1 tai is raised to the pattern's value.
    OneBecomesFive = "one_becomes_five", "一變五", "One becomes five";

    // --- 台州 (taizhou.md 胡数 and 台数 tables) ----------------------------------------------
    /// 对子: a pair of no value (taizhou.md 胡数 "对子 0胡, 角牌不计算胡数").
    PlainPair = "plain_pair", "对子", "Pair";
    /// 门风对: a pair of the seat wind.
    SeatWindPair = "seat_wind_pair", "门风对", "Seat wind pair";
    /// 中发白对: a pair of dragons.
    DragonPair = "dragon_pair", "中发白对", "Dragon pair";
    /// 嵌档胡: the winning tile is the middle of a chow of the reading.
    MiddleWait = "middle_wait", "嵌档胡", "Middle wait";
    /// 明刻: an exposed pung of a simple, or a concealed pung completed by a discard.
    ExposedPung = "exposed_pung", "明刻", "Exposed pung";
    /// 明刻 of a terminal or honor (幺九刻, 风牌 and 字牌 included).
    ExposedPungTerminal = "exposed_pung_terminal", "幺九明刻", "Exposed terminal or honor pung";
    /// 暗刻: a concealed pung of a simple.
    ConcealedPung = "concealed_pung", "暗刻", "Concealed pung";
    /// 暗刻 of a terminal or honor.
    ConcealedPungTerminal = "concealed_pung_terminal", "幺九暗刻", "Concealed terminal or honor pung";
    /// 明杠 of a terminal or honor.
    ExposedKongTerminal = "exposed_kong_terminal", "幺九明杠", "Exposed terminal or honor kong";
    /// 暗杠 of a terminal or honor.
    ConcealedKongTerminal = "concealed_kong_terminal", "幺九暗杠", "Concealed terminal or honor kong";
    /// 字牌刻: each pung or kong of dragons (中发白), a wild filling it with a real tile.
    DragonSet = "dragon_set", "字牌刻", "Dragon pung or kong";
    /// 门风刻: each pung or kong of the seat wind, a wild filling it with a real tile.
    SeatWindSet = "seat_wind_set", "门风刻", "Seat wind pung or kong";
    /// 无得: no wild, or every wild read as its own kind with no 白板 held.
    NoWild = "no_wild", "无得", "No wild used";
    /// 勒子: the total reached the cap (it adds no 台).
    PointsCap = "points_cap", "勒子", "Points cap";
}

impl PatternId {
    /// The pattern with this stable id.
    pub fn from_id(id: &str) -> Option<PatternId> {
        PatternId::ALL.iter().copied().find(|p| p.id() == id)
    }

    /// Index into per-pattern arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The bit of this pattern in a [`PatternSet`].
    #[inline]
    pub const fn bit(self) -> u128 {
        1 << self as u8
    }
}

impl fmt::Display for PatternId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A set of patterns, one bit each (the catalogue fits in 128).
pub type PatternSet = u128;

const _: () = assert!(PatternId::COUNT <= 128);

/// Chains where a higher pattern replaces the lower ones of the same chain: the texts grade
/// these by size (二/三/四/五暗刻, 三/四/五連碰, 小三風 < 大三風 < 小四喜 < 大四喜, …) and
/// every table that lists several members pays only the largest. A variant inherits these
/// exclusions without writing them.
pub const CHAINS: &[&[PatternId]] = &[
    &[
        PatternId::TwoConcealedPungs,
        PatternId::ThreeConcealedPungs,
        PatternId::FourConcealedPungs,
        PatternId::FiveConcealedPungs,
    ],
    &[
        PatternId::LittleThreeWinds,
        PatternId::BigThreeWinds,
        PatternId::LittleFourWinds,
        PatternId::BigFourWinds,
    ],
    &[PatternId::LittleThreeDragons, PatternId::BigThreeDragons],
    &[
        PatternId::ThreeConsecutivePungs,
        PatternId::FourConsecutivePungs,
        PatternId::FiveConsecutivePungs,
    ],
    &[PatternId::FourKongs, PatternId::FiveKongs],
    &[
        PatternId::IdenticalChows,
        PatternId::ThreeIdenticalChows,
        PatternId::FourIdenticalChows,
    ],
    &[
        PatternId::TerminalChows,
        PatternId::DoubleTerminalChows,
        PatternId::TwoTerminalChows,
    ],
    &[PatternId::PureStraight, PatternId::PureStraightSelfDrawn],
];

/// The exclusions every variant inherits from [`CHAINS`], per pattern: the grades below it.
///
/// A grade is a property of the hand, not a pattern that counts or not: of a grading, only
/// the highest grade the hand has is a candidate (a hand with four concealed pungs has three,
/// but pays 四暗坎 alone), whether or not that grade then counts. So scoring takes the lower
/// grades out of what was found before any exclusion of a file applies
/// ([`counted_patterns`](super::counted_patterns)): an exclusion of one grade removes that
/// grade alone. 四槓 "不計 四暗坎" (taiwan16-2015-table.txt:319) leaves a 兩暗坎 hand (two
/// concealed kongs among four kongs) its 兩暗坎, and takes from a hand whose highest grade is
/// 四暗坎 every grade, with no fall back to 三暗坎 (shared/rules/README.md, taiwan16-2015).
pub(crate) fn chain_exclusions() -> [PatternSet; PatternId::COUNT] {
    let mut out = [0; PatternId::COUNT];
    for chain in CHAINS {
        for (i, high) in chain.iter().enumerate() {
            for low in &chain[..i] {
                out[high.index()] |= low.bit();
            }
        }
    }
    out
}

/// The patterns only the 台州 tables have: a variant counting one of them is scored here.
pub(crate) const TAIZHOU_FAMILY: PatternSet = PatternId::PlainPair.bit()
    | PatternId::SeatWindPair.bit()
    | PatternId::DragonPair.bit()
    | PatternId::MiddleWait.bit()
    | PatternId::ExposedPung.bit()
    | PatternId::ExposedPungTerminal.bit()
    | PatternId::ConcealedPung.bit()
    | PatternId::ConcealedPungTerminal.bit()
    | PatternId::ExposedKongTerminal.bit()
    | PatternId::ConcealedKongTerminal.bit()
    | PatternId::DragonSet.bit()
    | PatternId::SeatWindSet.bit()
    | PatternId::NoWild.bit()
    | PatternId::PointsCap.bit();

/// Every pattern the 台州 tables find: [`TAIZHOU_FAMILY`] and the catalogue's patterns the 台州 tables
/// share with the others (自摸, 对对胡, 清一色, 混一色, 明杠, 暗杠). A variant of the family
/// that counts another is refused when it scores ([`ScoreError::MixedTables`](crate::ScoreError::MixedTables)).
pub(crate) const TAIZHOU_READ: PatternSet = TAIZHOU_FAMILY
    | PatternId::SelfDraw.bit()
    | PatternId::AllPungs.bit()
    | PatternId::FullFlush.bit()
    | PatternId::HalfFlush.bit()
    | PatternId::ExposedKong.bit()
    | PatternId::ConcealedKong.bit();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_snake_case_and_round_trip() {
        for (i, p) in PatternId::ALL.iter().enumerate() {
            assert_eq!(p.index(), i);
            assert_eq!(PatternId::from_id(p.id()), Some(*p));
            assert!(p
                .id()
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'));
            assert!(!p.name_zh().is_empty() && !p.name_en().is_empty());
        }
        assert_eq!(PatternId::from_id("no_such_pattern"), None);
    }
}
