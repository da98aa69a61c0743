//! [`score`]: one win under a variant. The 台州 tables take their own variant; the Taiwanese
//! ones read the hand every way it can be read (every decomposition, every place of the
//! winning tile, the special shapes the variant allows), run the variant's detectors on
//! each reading and keep the reading with the highest total.

use super::breakdown::Score;
use super::context::WinInput;
use super::detect::{self, Counts, Facts, HAND_LEVEL, NEEDS_WAITS, PLACEMENT_LEVEL, SET_LEVEL};
use super::error::ScoreError;
use super::pattern::{PatternId, PatternSet};
use super::reading::{self, Reading, ReadingKind, WaitShape};
use super::settle;
use super::taizhou;
use super::total::{
    counted_given, counted_patterns, excluded_by, finish, for_each_bit, rank, Best,
};
use super::variant::Variant;
use taisim_sim::algo::SpecialHands;

/// Scores one win under a variant: the best reading's patterns, the total (limit applied,
/// 一變五 applied), the dealer tai, and whether the minimum is met.
pub fn score(input: &WinInput, variant: &Variant) -> Result<Score, ScoreError> {
    let rules = variant.rules();
    input.validate(variant)?;
    if variant.taizhou_tables() {
        return taizhou::score_win(input, variant);
    }
    if input.wild.is_some() {
        // The detectors below read hands without wilds.
        return Err(ScoreError::Unsupported);
    }
    let self_draw = settle::effective_self_draw(input, variant);
    let dealer_tai = settle::reported_dealer_tai(input, variant);
    if input.context.flower_win {
        return Ok(score_flower_win(input, variant, dealer_tai));
    }
    input.win_tile.ok_or(ScoreError::NoWinTile)?;
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
        *wait_kinds_known.get_or_insert_with(|| input.live_wait_kinds(sets, special))
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
        let kept = counted_given(
            mask,
            decomposition_excluded | excluded_by(placed, variant),
            variant,
        );
        let mut total = 0u32;
        let mut hu = 0u32;
        for_each_bit(kept, |p| {
            total += variant.tai(p) as u32 * counts[p.index()] as u32;
            hu += variant.pattern_hu(p) as u32 * counts[p.index()] as u32;
        });
        let rank = rank(variant, total, hu);
        if best.as_ref().is_none_or(|b| rank > b.rank) {
            best = Some(Best {
                rank,
                total,
                hu,
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

/// 八仙過海 and 七搶一: the hand is not read; only the flower win's own pattern counts
/// ("scores for any other patterns are ignored", mahjongtime-taiwanese-scoring.md:21-23;
/// taiwan16 and the 2015 table list nothing to add).
fn score_flower_win(input: &WinInput, variant: &Variant, dealer_tai: u16) -> Score {
    let robbed = !input.context.self_draw;
    let mut mask: PatternSet = 0;
    if robbed && variant.has(PatternId::SevenRobOne) {
        mask |= PatternId::SevenRobOne.bit();
    }
    if input.flowers == taisim_sim::FlowerSet::ALL && variant.has(PatternId::EightFlowers) {
        mask |= PatternId::EightFlowers.bit();
    }
    let kept = counted_patterns(mask, variant);
    let mut counts = [0; PatternId::COUNT];
    let mut total = 0;
    let mut hu = 0;
    for_each_bit(kept, |p| {
        counts[p.index()] = 1;
        total += variant.tai(p) as u32;
        hu += variant.pattern_hu(p) as u32;
    });
    finish(
        variant,
        Best {
            rank: rank(variant, total, hu),
            total,
            hu,
            kept,
            counts,
            wait: WaitShape::None,
            kind: ReadingKind::FlowerWin,
        },
        dealer_tai,
    )
}
