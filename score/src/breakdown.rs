//! The result of scoring one win: which patterns counted and for how much.

use arrayvec::ArrayVec;

use super::pattern::PatternId;
use super::reading::{ReadingKind, WaitShape};

/// One counted pattern.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PatternTai {
    pub id: PatternId,
    /// How many times it applies (正花 ×2, 明槓 ×3, …); 1 for most.
    pub count: u8,
    /// Tai it contributes: the variant's value times `count` (一變五: the top-up).
    pub tai: u16,
    /// 胡 it contributes under the points model: the variant's 胡 times `count` (0 under
    /// the tai model).
    pub hu: u16,
}

impl PatternTai {
    /// The Chinese name, from the catalogue.
    pub const fn name_zh(&self) -> &'static str {
        self.id.name_zh()
    }

    /// The English name, from the catalogue.
    pub const fn name_en(&self) -> &'static str {
        self.id.name_en()
    }
}

/// The counted patterns of one win, in catalogue order. Bound: a pattern is counted at most
/// once (its multiplicity is `count`), so the catalogue's size bounds the list.
pub type PatternList = ArrayVec<PatternTai, { PatternId::COUNT }>;

/// The breakdown of one win.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Score {
    pub patterns: PatternList,
    /// The hand's tai, the variant's limit applied, dealer tai not included.
    pub total: u16,
    /// 莊家/連莊 tai added to the payments between the dealer and another player; 0 when
    /// no payment of this win involves the dealer.
    pub dealer_tai: u16,
    /// The wait, judged on the reading that scored.
    pub wait: WaitShape,
    pub reading: ReadingKind,
    /// The total reaches the variant's minimum (起胡).
    pub meets_minimum: bool,
    /// The limit cut the total down (or, under the points model, the cap cut the points).
    pub capped: bool,
    /// 胡 of the counted patterns, 底胡 not included (0 under the tai model).
    pub hu: u32,
    /// The hand's value under the variant's scoring model, dealer tai apart: the total tai
    /// (tai model), or (底胡 + 胡) × 2^台 cut to the cap (points model).
    pub points: u64,
}

impl Score {
    /// Whether `id` was counted.
    pub fn has(&self, id: PatternId) -> bool {
        self.patterns.iter().any(|p| p.id == id)
    }

    /// The tai `id` contributed (0 when not counted).
    pub fn tai_of(&self, id: PatternId) -> u16 {
        self.patterns
            .iter()
            .find(|p| p.id == id)
            .map_or(0, |p| p.tai)
    }
}
