//! Scoring and settlement (計台): every rule text's tai table, with rule variants as data.
//!
//! A [`Variant`] (a TOML file; four ship with the library) says which patterns count and
//! for how much. [`score`] reads a [`WinInput`] every way the hand can be read (every
//! decomposition, every place the winning tile can go, the special shapes the variant
//! allows), runs the variant's detectors on each reading and keeps the reading with the
//! highest total. [`settle`] turns the result into payments.
//!
//! ```
//! use taisim_sim::score::{score, settle, Variant, WinInput};
//! use taisim_sim::{parse_hand, parse_tile, Wind};
//!
//! let variant = Variant::builtin("taiwan16").unwrap();
//! let hand = parse_hand("123m 456m 789m 234p 99s 345s").unwrap();
//! let input = WinInput::new(Wind::South, hand, parse_tile("9s").unwrap(), true);
//! let s = score(&input, &variant).unwrap();
//! // 門清一摸三 3 + 獨聽 1 (99s waits on 9s only).
//! assert_eq!(s.total, 4);
//! let pay = settle(&s, &input, &variant, 10, 5);
//! assert_eq!(pay.0.iter().sum::<i64>(), 0);
//! ```
//!
//! Scoring allocates nothing: readings, pattern lists and payments are fixed-size values.

mod breakdown;
mod context;
mod detect;
mod pattern;
mod reading;
mod request;
mod settle;
mod variant;

use arrayvec::ArrayVec;

pub use breakdown::{PatternList, PatternTai, Score};
pub use context::{Ready, ScoreError, WinInput};
pub use pattern::{PatternId, PatternSet, CHAINS};
pub use reading::{ReadingKind, WaitShape};
pub use request::{score_json, Circumstances, ScoreJob, ScoreRequest, VariantCache};
pub use settle::settle;
pub use variant::{
    Insurance, PatternRule, RobbedFlowerPayer, ScoringKind, SettlementRules, Variant, VariantError,
};

use crate::algo::{waits, SpecialHands};
use crate::deal::{Deal, Outcome};
use crate::seat::BySeat;
use crate::tile::Seat;
use detect::{Counts, Facts, HAND_LEVEL, NEEDS_WAITS, PLACEMENT_LEVEL, SET_LEVEL};
use reading::Reading;

/// Scores one win under a variant: the best reading's patterns, the total (limit applied,
/// 一變五 applied), the dealer tai, and whether the minimum is met.
pub fn score(input: &WinInput, variant: &Variant) -> Result<Score, ScoreError> {
    let rules = variant.rules();
    input.validate(&rules)?;
    let self_draw = settle::effective_self_draw(input, variant);
    let dealer_tai = settle::reported_dealer_tai(input, variant);
    if input.context.flower_win {
        return Ok(score_flower_win(input, variant, dealer_tai));
    }
    let win = input.win_tile.ok_or(ScoreError::NoWinTile)?;
    let sets = rules.sets - input.melds.len() as u8;
    let special = if input.melds.is_empty() {
        rules.special
    } else {
        SpecialHands::NONE
    };
    let enabled = variant.enabled();
    // The kinds the hand waited on, worked out on first need: most readings' waits pay
    // nothing that depends on it.
    let mut wait_kinds_known = None;
    let mut wait_kinds = || {
        debug_assert!(enabled & NEEDS_WAITS != 0);
        *wait_kinds_known.get_or_insert_with(|| {
            let mut before = input.hand;
            before.remove(win);
            waits(&before, sets, special).len() as u8
        })
    };
    let facts = Facts::new(input, variant, self_draw);

    // What does not depend on the reading, once. Hand-level and reading-level patterns are
    // disjoint, and only the entries of patterns found on the current reading are read, so
    // one array serves every reading.
    let mut counts: Counts = [1; PatternId::COUNT];
    let hand_mask =
        detect::hand_patterns(&facts, enabled & HAND_LEVEL, &mut counts, &mut wait_kinds);
    let hand_excluded = excluded_by(hand_mask, variant);

    let mut best: Option<Best> = None;
    // Patterns of the decomposition, found on its first placement and kept for the others.
    let mut decomposition_mask: PatternSet = 0;
    let mut decomposition_excluded: PatternSet = 0;
    let mut consider = |r: &Reading, first: bool| {
        if first {
            let found = detect::set_patterns(&facts, r, enabled & SET_LEVEL, &mut counts);
            decomposition_mask = hand_mask | found;
            decomposition_excluded = hand_excluded | excluded_by(found, variant);
        }
        let placed = detect::placement_patterns(
            &facts,
            r,
            variant,
            enabled & PLACEMENT_LEVEL,
            &mut wait_kinds,
        );
        let mask = decomposition_mask | placed;
        let kept = mask & !(decomposition_excluded | excluded_by(placed, variant));
        let mut total = 0u32;
        for_each_bit(kept, |p| {
            total += variant.tai(p) as u32 * counts[p.index()] as u32
        });
        if best.as_ref().is_none_or(|b| total > b.total) {
            best = Some(Best {
                total,
                kept,
                counts,
                wait: r.wait,
                kind: r.kind,
            });
        }
    };

    reading::regular_readings(input, sets, self_draw, &mut consider);
    if special.eight_pairs {
        if let Some(r) = reading::eight_pairs_reading(input, self_draw) {
            consider(&r, true);
        }
    }
    if special.thirteen_orphans {
        reading::thirteen_orphans_readings(input, self_draw, &mut consider);
    }
    let best = best.ok_or(ScoreError::NotAWin)?;
    Ok(finish(variant, best, dealer_tai))
}

/// Everything the patterns of `mask` rule out.
#[inline]
fn excluded_by(mask: PatternSet, variant: &Variant) -> PatternSet {
    let mut excluded = 0;
    for_each_bit(mask, |p| excluded |= variant.excludes(p));
    excluded
}

/// The best reading so far.
struct Best {
    total: u32,
    kept: PatternSet,
    counts: Counts,
    wait: WaitShape,
    kind: ReadingKind,
}

/// Calls `f` with each pattern in `mask`, in catalogue order.
#[inline]
fn for_each_bit(mut mask: PatternSet, mut f: impl FnMut(PatternId)) {
    while mask != 0 {
        let i = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        f(PatternId::ALL[i]);
    }
}

/// Turns the best reading into a [`Score`]: the list, the limit, 一變五, the minimum.
fn finish(variant: &Variant, best: Best, dealer_tai: u16) -> Score {
    let mut patterns = PatternList::new();
    for_each_bit(best.kept, |p| {
        let count = best.counts[p.index()];
        patterns.push(PatternTai {
            id: p,
            count,
            tai: variant.tai(p) * count as u16,
        });
    });
    let mut total = best.total.min(u16::MAX as u32) as u16;
    // 一變五: "胡牌時只算的出一台 (追加成五台)" (taiwan16-2015-table.txt:187). Read on the
    // best total: a hand whose best reading counts exactly 1 is raised, shown as a top-up.
    if let Some(rule) = variant.pattern(PatternId::OneBecomesFive) {
        if total == 1 && rule.tai > 1 {
            patterns.push(PatternTai {
                id: PatternId::OneBecomesFive,
                count: 1,
                tai: rule.tai - 1,
            });
            total = rule.tai;
        }
    }
    let mut capped = false;
    if let Some(max) = variant.max_tai {
        if total > max {
            total = max;
            capped = true;
        }
    }
    Score {
        patterns,
        total,
        dealer_tai,
        wait: best.wait,
        reading: best.kind,
        meets_minimum: total >= variant.min_tai,
        capped,
    }
}

/// 八仙過海 and 七搶一: the hand is not read; only the flower win's own pattern counts
/// ("scores for any other patterns are ignored", mahjongtime-taiwanese-scoring.md:21-23;
/// taiwan16 and the 2015 table list nothing to add).
fn score_flower_win(input: &WinInput, variant: &Variant, dealer_tai: u16) -> Score {
    let robbed = !input.context.self_draw;
    let mut mask: PatternSet = 0;
    if robbed && variant.has(PatternId::SevenRobOne) {
        mask |= PatternId::SevenRobOne.bit();
    }
    if input.flowers == crate::tile::FlowerSet::ALL && variant.has(PatternId::EightFlowers) {
        mask |= PatternId::EightFlowers.bit();
    }
    let kept = mask & !excluded_by(mask, variant);
    let mut counts = [0; PatternId::COUNT];
    let mut total = 0;
    for_each_bit(kept, |p| {
        counts[p.index()] = 1;
        total += variant.tai(p) as u32;
    });
    finish(
        variant,
        Best {
            total,
            kept,
            counts,
            wait: WaitShape::None,
            kind: ReadingKind::FlowerWin,
        },
        dealer_tai,
    )
}

/// Every win of a finished deal, scored and settled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealScore {
    /// Each winner and its score (several only with 一砲多響); empty for a drawn deal.
    pub wins: ArrayVec<(Seat, Score), 3>,
    /// Net payments of the deal, each win settled separately and added up. Sums to zero.
    pub payments: BySeat<i64>,
}

/// Scores and settles every winner of a finished deal under `variant`, paying
/// `base + tai × per_tai`. Allocates nothing.
pub fn score_deal(
    deal: &Deal,
    variant: &Variant,
    base: i64,
    per_tai: i64,
) -> Result<DealScore, ScoreError> {
    let result = deal.result().ok_or(ScoreError::DealNotOver)?;
    let mut out = DealScore {
        wins: ArrayVec::new(),
        payments: BySeat([0; 4]),
    };
    if result.outcome == Outcome::ExhaustiveDraw {
        return Ok(out);
    }
    for seat in result.winners.iter() {
        let input = WinInput::from_deal(deal, seat).ok_or(ScoreError::NotAWin)?;
        let s = score(&input, variant)?;
        let pay = settle(&s, &input, variant, base, per_tai);
        for (p, v) in out.payments.0.iter_mut().zip(pay.0) {
            *p += v;
        }
        out.wins.push((seat, s));
    }
    Ok(out)
}
