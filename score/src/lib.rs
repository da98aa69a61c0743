//! Scoring and settlement (計台): every rule text's tai table, with rule variants as data.
//!
//! A [`Variant`] (a TOML file; four ship with the library) says which patterns count and
//! for how much. [`score`] reads a [`WinInput`] every way the hand can be read (every
//! decomposition, every place the winning tile can go, the special shapes the variant
//! allows), runs the variant's detectors on each reading and keeps the reading with the
//! highest total. [`settle`] turns the result into payments.
//!
//! ```
//! use taisim_score::{score, settle, Variant, WinInput};
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
//! 台州 (the `taizhou` variant) is scored by its own tables (`taizhou/`): 胡 by how each set
//! was made, 台 doubling, every reading of a hand with wilds (得牌, each 白板 read as the
//! wild's face or as itself); [`seat_value`] values the players who did not win, [`Liability`] decides 全包, and
//! [`score_deal`] settles every pair of players ([`settle_all_pairs`]).
//!
//! Scoring allocates nothing: readings, pattern lists and payments are fixed-size values.

mod amount;
mod breakdown;
mod context;
mod detect;
pub mod file;
mod pattern;
mod reading;
mod request;
mod settle;
mod taizhou;
mod variant;

use arrayvec::ArrayVec;

pub use amount::Amount;
pub use breakdown::{PatternList, PatternTai, Score};
pub use context::{physical_copies_fit, Ready, ScoreError, WinInput};
pub use pattern::{PatternId, PatternSet, CHAINS};
pub use reading::{ReadingKind, WaitShape};
pub use request::{
    score_json, Answer, Circumstances, LiabilityFacts, OtherHand, ScoreJob, ScoreRequest,
    ScoredRequest, VariantCache,
};
pub use settle::{check_stakes, settle, settle_all_pairs, try_settle, SettleError};
pub use taizhou::liability::{Liability, LiabilityCase};
pub use taizhou::value::seat_value;
pub use variant::{
    bounds, echo, Insurance, PatternRule, RobbedFlowerPayer, ScoringKind, ScoringModel,
    SettlementModel, SettlementRules, Value, Variant, VariantError, VariantErrorKind,
};

use detect::{Counts, Facts, HAND_LEVEL, NEEDS_WAITS, PLACEMENT_LEVEL, SET_LEVEL};
use reading::Reading;
use taisim_sim::algo::SpecialHands;
use taisim_sim::BySeat;
use taisim_sim::Seat;
use taisim_sim::{Deal, Outcome};

/// Scores one win under a variant: the best reading's patterns, the total (limit applied,
/// 一變五 applied), the dealer tai, and whether the minimum is met.
pub fn score(input: &WinInput, variant: &Variant) -> Result<Score, ScoreError> {
    let rules = variant.rules();
    input.validate(&rules)?;
    if taizhou::applies(variant) {
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

/// Everything the patterns of `mask` rule out.
#[inline]
fn excluded_by(mask: PatternSet, variant: &Variant) -> PatternSet {
    let mut excluded = 0;
    for_each_bit(mask, |p| excluded |= variant.excludes(p));
    excluded
}

/// The patterns of `found` that count under `variant`'s exclusions.
///
/// First the gradings ([`CHAINS`]): of each, only the highest grade found is a candidate,
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
fn counted_given(found: PatternSet, excluded: PatternSet, variant: &Variant) -> PatternSet {
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
fn rank(variant: &Variant, total: u32, hu: u32) -> (u64, u32) {
    match variant.scoring {
        ScoringModel::Tai => (total as u64, 0),
        ScoringModel::Points { .. } => (variant.scoring.value(hu, total).points, total),
    }
}

/// The best reading so far.
struct Best {
    rank: (u64, u32),
    total: u32,
    hu: u32,
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

/// Every win of a finished deal, scored and settled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealScore {
    /// Each winner and its score (several only with 一砲多響); empty for a drawn deal.
    pub wins: ArrayVec<(Seat, Score), 3>,
    /// Net payments of the deal, each win settled separately and added up. Sums to zero.
    pub payments: BySeat<i64>,
    /// Each seat's value under all-pairs settlement (taizhou.md 胜负规则): the winner's
    /// points, the others' [`seat_value`]. Zero under winner-pays settlement and for a
    /// drawn deal.
    pub values: BySeat<u64>,
    /// The seat that paid for everyone (全包), if one did.
    pub responsible: Option<Seat>,
}

/// Scores and settles every winner of a finished deal under `variant`, with the stakes
/// `base` and `per_tai` (checked: see [`check_stakes`]); under all-pairs settlement 全包 is decided from the
/// deal ([`Liability::from_deal`]). Allocates nothing.
pub fn score_deal(
    deal: &Deal,
    variant: &Variant,
    base: i64,
    per_tai: i64,
) -> Result<DealScore, ScoreError> {
    score_deal_with(deal, variant, base, per_tai, None)
}

/// [`score_deal`] with the facts that decide 全包 for the deal's win (taizhou.md 全包情况)
/// given by the caller instead of taken from the deal ([`Liability::from_deal`], what
/// `None` and [`score_deal`] do): under all-pairs settlement the responsible seat
/// ([`Liability::responsible`]) pays for everyone. A `liability` naming another winner than
/// the deal's is ignored. Allocates nothing.
pub fn score_deal_with(
    deal: &Deal,
    variant: &Variant,
    base: i64,
    per_tai: i64,
    liability: Option<&Liability>,
) -> Result<DealScore, ScoreError> {
    check_stakes(variant, base, per_tai)?;
    let result = deal.result().ok_or(ScoreError::DealNotOver)?;
    let mut out = DealScore {
        wins: ArrayVec::new(),
        payments: BySeat([0; 4]),
        values: BySeat([0; 4]),
        responsible: None,
    };
    if result.outcome == Outcome::ExhaustiveDraw {
        return Ok(out);
    }
    let all_pairs = variant.settlement.model == SettlementModel::AllPairs;
    for seat in result.winners.iter() {
        let input = WinInput::from_deal(deal, seat).ok_or(ScoreError::NotAWin)?;
        let s = score(&input, variant)?;
        let pay = if all_pairs && s.meets_minimum {
            let mut values = BySeat([0u64; 4]);
            for o in Seat::ALL {
                values[o] = if o == seat {
                    s.points
                } else {
                    let wind = taisim_sim::seat_wind(o, input.dealer);
                    seat_value(deal.hand(o), deal.melds(o), wind, input.wild, variant)
                };
            }
            let responsible = match liability {
                Some(l) => Some(l)
                    .filter(|l| l.winner == seat)
                    .and_then(|l| l.responsible(&s)),
                None => Liability::from_deal(deal, &input).and_then(|l| l.responsible(&s)),
            };
            out.values = values;
            out.responsible = responsible;
            settle::all_pairs_money(seat, input.dealer, values, responsible, per_tai)?
        } else {
            try_settle(&s, &input, variant, base, per_tai)?
        };
        for (p, v) in out.payments.0.iter_mut().zip(pay.0) {
            *p = p.checked_add(v).ok_or(SettleError::Overflow)?;
        }
        out.wins.push((seat, s));
    }
    Ok(out)
}
