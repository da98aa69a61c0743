//! From the patterns a reading shows to a [`Score`]: which of them count under the variant's
//! exclusions and gradings, what the best reading maximises, and the total with the limit,
//! 一變五 and the minimum applied. Shared by the Taiwanese scorer ([`crate::score`]) and the
//! 台州 tables (`taizhou/`), below both.

use super::breakdown::{PatternList, PatternTai, Score};
use super::pattern::{PatternId, PatternSet};
use super::reading::{ReadingKind, WaitShape};
use super::variant::{ScoringModel, Variant};
use crate::detect::Counts;

/// Everything the patterns of `mask` rule out.
#[inline]
pub(crate) fn excluded_by(mask: PatternSet, variant: &Variant) -> PatternSet {
    let mut excluded = 0;
    for_each_bit(mask, |p| excluded |= variant.excludes(p));
    excluded
}

/// The patterns of `found` that count under `variant`'s exclusions.
///
/// First the gradings ([`CHAINS`](crate::CHAINS)): of each, only the highest grade found is a candidate,
/// whether or not it then counts, so an exclusion of one grade removes that grade alone and
/// never lets a lower one back (四槓 "不計 四暗坎", taiwan16-2015-table.txt:319: a hand with
/// four concealed kongs pays no 三暗坎; one with two concealed kongs among four kongs keeps its
/// 兩暗坎).
///
/// Then the file's exclusions: a pattern counts unless a pattern that itself counts excludes
/// it. An excluded pattern excludes nothing: 天聽 rules out 不求人, and 不求人, no longer
/// counted, does not take 自摸 with it ("不計門清，其餘另計", taiwan16-common.txt:81), so a
/// self-drawn 天聽 pays 天聽 + 自摸. Where a pattern contains another and with it what that one
/// excludes (雙龍 is 一條龍 + 般高, and 一條龍 "不計老少"), the variant file lists the whole
/// closure on the higher pattern (shared/rules/README.md, taiwan16-2015).
///
/// Exclusions go from higher patterns to lower ones, so they form no cycle (the shipped
/// variants are checked in `tests/score_chains.rs`); patterns left in a cycle would all be
/// dropped, as each is excluded by another that was found.
pub fn counted_patterns(found: PatternSet, variant: &Variant) -> PatternSet {
    counted_given(found, excluded_by(found, variant), variant)
}

/// [`counted_patterns`] with `excluded`, everything the patterns of `found` exclude,
/// already known.
#[inline]
pub(crate) fn counted_given(
    found: PatternSet,
    excluded: PatternSet,
    variant: &Variant,
) -> PatternSet {
    let below = variant.lower_grades(found);
    let (found, excluded) = if below & found == 0 {
        (found, excluded)
    } else {
        // The lower grades are no candidates, and what they would exclude does not apply.
        let found = found & !below;
        (found, excluded_by(found, variant))
    };
    // The usual case: the excluded patterns exclude nothing found, so every pattern that
    // excludes one is itself unexcluded and counts, and all of `excluded` goes.
    if excluded & found == 0 || excluded_by(found & excluded, variant) & found == 0 {
        return found & !excluded;
    }
    // A chain: settle patterns from the top. Those no undecided pattern excludes count;
    // what they exclude goes; repeat on the rest.
    let mut kept = 0;
    let mut open = found;
    while open != 0 {
        let top = open & !excluded_by(open, variant);
        if top == 0 {
            break;
        }
        kept |= top;
        open &= !top & !excluded_by(top, variant);
    }
    kept
}

/// What the best reading maximises: the tai (tai model), or the uncapped points then the
/// tai (points model: two readings past the cap are told apart by their tai).
#[inline]
pub(crate) fn rank(variant: &Variant, total: u32, hu: u32) -> (u64, u32) {
    match variant.scoring {
        ScoringModel::Tai => (total as u64, 0),
        ScoringModel::Points { .. } => (variant.scoring.value(hu, total).points, total),
    }
}

/// The best reading so far.
pub(crate) struct Best {
    pub(crate) rank: (u64, u32),
    pub(crate) total: u32,
    pub(crate) hu: u32,
    pub(crate) kept: PatternSet,
    pub(crate) counts: Counts,
    pub(crate) wait: WaitShape,
    pub(crate) kind: ReadingKind,
}

/// Calls `f` with each pattern in `mask`, in catalogue order.
#[inline]
pub(crate) fn for_each_bit(mut mask: PatternSet, mut f: impl FnMut(PatternId)) {
    while mask != 0 {
        let i = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        f(PatternId::ALL[i]);
    }
}

/// Turns the best reading into a [`Score`]: the list, the limit, 一變五, the minimum.
pub(crate) fn finish(variant: &Variant, best: Best, dealer_tai: u16) -> Score {
    let mut patterns = PatternList::new();
    for_each_bit(best.kept, |p| {
        let count = best.counts[p.index()];
        patterns.push(PatternTai {
            id: p,
            count,
            // Both fit: the sum of every pattern's value times the most it is counted fits
            // a u16, bounded at load.
            tai: variant.tai(p) * count as u16,
            hu: variant.pattern_hu(p) * count as u16,
        });
    });
    // Within a u16 for every variant that loaded (its tai are bounded so); one edited in
    // memory past the bounds is cut to the most a u16 holds, and says so.
    let mut capped = best.total > u16::MAX as u32;
    let mut total = best.total.min(u16::MAX as u32) as u16;
    // 一變五: "胡牌時只算的出一台 (追加成五台)" (taiwan16-2015-table.txt:187). Read on the
    // best total: a hand whose best reading counts exactly 1 is raised, shown as a top-up.
    if let Some(rule) = variant.pattern(PatternId::OneBecomesFive) {
        if total == 1 && rule.tai > 1 {
            patterns.push(PatternTai {
                id: PatternId::OneBecomesFive,
                count: 1,
                tai: rule.tai - 1,
                hu: 0,
            });
            total = rule.tai;
        }
    }
    if let Some(max) = variant.max_tai {
        if total > max {
            total = max;
            capped = true;
        }
    }
    let value = variant.scoring.value(best.hu, total as u32);
    Score {
        hu: best.hu,
        points: value.points,
        patterns,
        total,
        dealer_tai,
        wait: best.wait,
        reading: best.kind,
        meets_minimum: total >= variant.min_tai,
        capped: capped || value.capped,
    }
}
