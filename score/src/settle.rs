//! Settlement: who pays whom for one win, under the variant's settlement model.
//!
//! Winner-pays: every payment is `base + value × per_tai`, the value the hand's tai (tai
//! model) or points (points model), the dealer's tai joining the tai only in payments between
//! the dealer and another player. All-pairs (台州): [`settle_all_pairs`] over every seat's
//! value. Every sum and product is checked: an amount that would not fit is an error.

use super::amount::Amount;
use super::breakdown::Score;
use super::context::WinInput;
use super::error::SettleError;
use super::pattern::PatternId;
use super::variant::{bounds, RobbedFlowerPayer, ScoringModel, SettlementModel, Variant};
use taisim_sim::BySeat;
use taisim_sim::MeldKind;
use taisim_sim::{Seat, Suit};

/// Who pays a win.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Payers {
    /// All three others (self-draw, 八仙過海).
    All,
    /// One seat alone (discard, robbed kong, robbed flower, the 2015 exposed-kong rule).
    One(Seat),
}

/// Whether scoring treats the win as self-drawn: the 2015 table's win on the replacement
/// for a kong claimed from a discard is not one (taiwan16-2015-table.txt:23).
pub(crate) fn effective_self_draw(input: &WinInput, variant: &Variant) -> bool {
    input.context.self_draw
        && !(variant.settlement.exposed_kong_bloom_discarder_pays
            && input.context.exposed_kong_from.is_some())
}

pub(crate) fn payers(input: &WinInput, variant: &Variant) -> Payers {
    let ctx = &input.context;
    if ctx.flower_win && !ctx.self_draw {
        return match variant.settlement.robbed_flower_payer {
            RobbedFlowerPayer::All => Payers::All,
            RobbedFlowerPayer::Drawer => input.discarder.map_or(Payers::All, Payers::One),
        };
    }
    if effective_self_draw(input, variant) {
        return Payers::All;
    }
    let payer = if ctx.self_draw {
        ctx.exposed_kong_from.or(input.discarder)
    } else {
        input.discarder
    };
    payer.map_or(Payers::All, Payers::One)
}

/// Whether `payer`'s payment carries the dealer's tai.
fn dealer_share(input: &WinInput, variant: &Variant, payer: Seat, all: bool) -> bool {
    input.is_dealer()
        || (payer == input.dealer && (!all || variant.settlement.dealer_pays_on_self_draw))
}

/// The dealer tai this win reports: the variant's 2N+1 when some payment involves the
/// dealer, else 0.
pub(crate) fn reported_dealer_tai(input: &WinInput, variant: &Variant) -> u16 {
    let involved = match payers(input, variant) {
        Payers::All => (1..4)
            .map(|k| input.seat.add(k))
            .any(|s| dealer_share(input, variant, s, true)),
        Payers::One(p) => dealer_share(input, variant, p, false),
    };
    if involved {
        variant.dealer_tai(input.streak)
    } else {
        0
    }
}

/// Insurance (mahjongtime-taiwanese-rules.txt:96-116): the seat liable for "letting off a
/// canon" on one of the listed big hands, who pays for all three losers (:116). `discarder`
/// is the seat whose discard (or robbed kong) the winner took, `None` on a self-draw.
///
/// - Immediately (:102-108): the discard itself lets the winner out.
/// - Later (:102, :104, :106): the winner claimed the dangerous discard for the set it
///   lacked (the fifth of one suit, the fourth of winds, the third of dragons) and went out
///   afterwards: with any tile for the winds and dragons, with a self-drawn one for one
///   suit. A dangerous discard claimed for a kong is no insurance (:112); a pung later
///   promoted to a kong was claimed as a pung. The melds lie in the order they were made,
///   each naming the seat it was claimed from; a meld named as the winner's own is one whose
///   source is not known (a score request's), never liable.
fn liable(
    score: &Score,
    input: &WinInput,
    variant: &Variant,
    discarder: Option<Seat>,
) -> Option<Seat> {
    if let Some(d) = discarder {
        if insured_discard(score, input, variant) {
            return Some(d);
        }
    }
    let ins = &variant.settlement.insurance;
    let dragons = ins.three_dragons
        && (score.has(PatternId::BigThreeDragons) || score.has(PatternId::LittleThreeDragons));
    let winds = ins.four_winds
        && (score.has(PatternId::BigFourWinds) || score.has(PatternId::LittleFourWinds));
    let flush = ins.full_flush && score.has(PatternId::FullFlush) && discarder.is_none();
    if !(dragons || winds || flush) {
        return None;
    }
    // Sets exposed before each meld: dragons, winds, and each numbered suit's.
    let (mut dragon_sets, mut wind_sets, mut suit_sets) = (0u8, 0u8, [0u8; 3]);
    for m in &input.melds {
        let t = m.tile();
        let suit = Suit::NUMBERED
            .iter()
            .position(|&s| !t.is_honor() && t.suit() == s);
        let claimed_set = matches!(m.kind(), MeldKind::Pung | MeldKind::AddedKong)
            || (m.kind() == MeldKind::Chow && flush);
        if claimed_set && m.from() != input.seat {
            let dangerous = (dragons && t.is_dragon() && dragon_sets >= 2)
                || (winds && t.is_wind() && wind_sets >= 3)
                || (flush && suit.is_some_and(|s| suit_sets[s] >= 4));
            if dangerous {
                return Some(m.from());
            }
        }
        if m.kind() != MeldKind::ConcealedKong {
            dragon_sets += t.is_dragon() as u8;
            wind_sets += t.is_wind() as u8;
            if let Some(s) = suit {
                suit_sets[s] += 1;
            }
        }
    }
    None
}

/// The immediate case of [`liable`]: the discard (or robbed kong) that lets the winner out.
fn insured_discard(score: &Score, input: &WinInput, variant: &Variant) -> bool {
    let ins = &variant.settlement.insurance;
    let Some(win) = input.win_tile else {
        return false;
    };
    let exposed = |pred: &dyn Fn(taisim_sim::Tile) -> bool| {
        input
            .melds
            .iter()
            .filter(|m| m.kind() != MeldKind::ConcealedKong && pred(m.tile()))
            .count()
    };
    (ins.full_flush
        && score.has(PatternId::FullFlush)
        && Suit::NUMBERED
            .iter()
            .any(|&s| exposed(&|t| t.suit() == s) >= 4 && win.suit() == s))
        || (ins.four_winds
            && (score.has(PatternId::BigFourWinds) || score.has(PatternId::LittleFourWinds))
            && exposed(&|t| t.is_wind()) >= 3
            && win.is_wind())
        || (ins.three_dragons
            && (score.has(PatternId::BigThreeDragons) || score.has(PatternId::LittleThreeDragons))
            && exposed(&|t| t.is_dragon()) >= 2
            && win.is_dragon())
        || (ins.last_five && input.late_fresh_discard)
}

/// Checks a caller's stakes against the bounds every variant's own stakes meet at load, so
/// that settling with them cannot overflow, and against what the variant's model needs.
pub fn check_stakes(variant: &Variant, base: i64, per_tai: i64) -> Result<(), SettleError> {
    check_stake_bounds(base, per_tai)?;
    if variant.settlement.model == SettlementModel::AllPairs {
        if base != 0 {
            return Err(SettleError::BaseUnused(base));
        }
        if per_tai % 2 != 0 {
            return Err(SettleError::OddUnit(per_tai));
        }
    }
    Ok(())
}

/// The bounds half of [`check_stakes`], which needs no variant: what a record of stakes (a
/// run's manifest) must meet before its variant is even read.
pub fn check_stake_bounds(base: i64, per_tai: i64) -> Result<(), SettleError> {
    for (field, value) in [("base", base), ("per_tai", per_tai)] {
        if !(0..=bounds::STAKE).contains(&value) {
            return Err(SettleError::Stake {
                field,
                value,
                max: bounds::STAKE,
            });
        }
    }
    Ok(())
}

impl Variant {
    /// This variant with other default stakes (`[settlement] base` and `per_tai`), checked as
    /// every caller's stakes are ([`check_stakes`]): the one change a
    /// caller may make to a loaded variant, and it cannot break the rest.
    pub fn with_stakes(&self, base: i64, per_tai: i64) -> Result<Variant, SettleError> {
        check_stakes(self, base, per_tai)?;
        let mut out = self.clone();
        out.settlement.base = base;
        out.settlement.per_tai = per_tai;
        Ok(out)
    }
}

/// Each seat's gain (positive) or payment (negative) for one scored win. Sums to zero.
///
/// # Panics
/// When `base` or `per_tai` is out of the bounds of [`check_stakes`] (a variant's own stakes
/// always are within them); [`try_settle`] returns the error instead.
pub fn settle(
    score: &Score,
    input: &WinInput,
    variant: &Variant,
    base: i64,
    per_tai: i64,
) -> BySeat<i64> {
    match try_settle(score, input, variant, base, per_tai) {
        Ok(pay) => pay,
        Err(e) => panic!("settle: {e} (try_settle reports it)"),
    }
}

/// The seat that pays for all three losers under the variant's insurance
/// (mahjongtime-taiwanese-rules.txt:96-116, [`liable`]), as [`try_settle`] settles the win:
/// `None` where no insurance applies, and for a win below the minimum, a win by a flower
/// and every win of an all-pairs variant (全包 is [`DealScore::responsible`]
/// (crate::DealScore::responsible)).
pub fn insurance_payer(score: &Score, input: &WinInput, variant: &Variant) -> Option<Seat> {
    if !score.meets_minimum
        || variant.settlement.model == SettlementModel::AllPairs
        || input.context.flower_win
    {
        return None;
    }
    match payers(input, variant) {
        Payers::All => liable(score, input, variant, None),
        Payers::One(payer) => liable(score, input, variant, Some(payer)),
    }
}

/// [`settle`], with the caller's stakes checked and every sum and product checked.
///
/// A win below the variant's minimum (起胡) is paid by nobody; where the variant sets a
/// false-win penalty (詐胡, taiwan16-2015-table.txt:33) the would-be winner pays it to each
/// other player instead.
///
/// Under all-pairs settlement this sees the winner alone: its value is its points and every
/// non-winner's is 0, so the winner is paid by the dealer in full and by each non-dealer in
/// half. With the four values known ([`seat_value`](super::seat_value) for the others),
/// [`settle_all_pairs`] settles them all; [`score_deal`](super::score_deal) does.
pub fn try_settle(
    score: &Score,
    input: &WinInput,
    variant: &Variant,
    base: i64,
    per_tai: i64,
) -> Result<BySeat<i64>, SettleError> {
    check_stakes(variant, base, per_tai)?;
    let mut out = BySeat([0i64; 4]);
    let winner = input.seat;
    if !score.meets_minimum {
        let fine = variant.settlement.false_win_penalty;
        for k in 1..4 {
            out[winner.add(k)] = fine;
        }
        out[winner] = fine.checked_mul(-3).ok_or(SettleError::Overflow)?;
        return Ok(out);
    }
    if variant.settlement.model == SettlementModel::AllPairs {
        let mut values = BySeat([0u64; 4]);
        values[winner] = score.points;
        return all_pairs_money(winner, input.dealer, values, None, per_tai);
    }
    let dealer_tai = variant.dealer_tai(input.streak) as u32;
    // One loser's payment carrying `extra` dealer tai.
    let share_of = |extra: u32| -> Result<i64, SettleError> {
        let value = match variant.scoring {
            ScoringModel::Tai => score.total as i64 + extra as i64,
            ScoringModel::Points { .. } => {
                // The dealer's tai double the hand like its own tai.
                variant
                    .scoring
                    .value(score.hu, score.total as u32 + extra)
                    .points as i64
            }
        };
        value
            .checked_mul(per_tai)
            .and_then(|v| v.checked_add(base))
            .ok_or(SettleError::Overflow)
    };
    let share = |payer: Seat, all: bool| -> Result<i64, SettleError> {
        share_of(if dealer_share(input, variant, payer, all) {
            dealer_tai
        } else {
            0
        })
    };
    let mut pay = |payer: Seat, amount: i64| -> Result<(), SettleError> {
        out[payer] = out[payer]
            .checked_sub(amount)
            .ok_or(SettleError::Overflow)?;
        out[winner] = out[winner]
            .checked_add(amount)
            .ok_or(SettleError::Overflow)?;
        Ok(())
    };
    let liable = insurance_payer(score, input, variant);
    match payers(input, variant) {
        Payers::All => {
            match liable {
                // A self-drawn win after a dangerous discard was claimed (:104-106): the
                // liable player pays what the three losers would have, each share as a
                // self-draw's.
                Some(l) => {
                    let mut all = 0i64;
                    for k in 1..4 {
                        all = all
                            .checked_add(share(winner.add(k), true)?)
                            .ok_or(SettleError::Overflow)?;
                    }
                    pay(l, all)?;
                }
                None => {
                    for k in 1..4 {
                        let payer = winner.add(k);
                        pay(payer, share(payer, true)?)?;
                    }
                }
            }
        }
        Payers::One(payer) => {
            if let Some(liable) = liable {
                // The liable player (the discarder, or the seat whose dangerous discard the
                // winner claimed earlier, paying for the discarder too) "must pay for all
                // losers (that is, not only for himself, but also for the other two
                // players)" (mahjongtime-taiwanese-rules.txt:116): the discarder's payment,
                // the dealer's bonus in it where a discarder pays one (:73: when the dealer
                // wins, and a dealer who discards the winning tile "must himself pay" it),
                // and for each of the two other losers the hand alone. On a discard the
                // bonus "is paid by the discarder alone (and just for himself, not for all
                // losers)" (:73; the continued deal's the same, "not for all losers", :79),
                // insured or not.
                let own = share(payer, false)?;
                let bonus_free = share_of(0)?;
                let all = bonus_free
                    .checked_mul(2)
                    .and_then(|others| others.checked_add(own))
                    .ok_or(SettleError::Overflow)?;
                pay(liable, all)?;
            } else {
                pay(payer, share(payer, false)?)?;
            }
        }
    }
    Ok(out)
}

/// [`settle_all_pairs`] in money: each amount times `per_tai` (even, checked by
/// [`check_stakes`], so every half-point amount is whole money).
pub(crate) fn all_pairs_money(
    winner: Seat,
    dealer: Seat,
    values: BySeat<u64>,
    responsible: Option<Seat>,
    per_tai: i64,
) -> Result<BySeat<i64>, SettleError> {
    let points = settle_all_pairs(winner, dealer, values, responsible)?;
    let mut out = BySeat([0i64; 4]);
    for s in Seat::ALL {
        out[s] = points[s]
            .checked_mul(per_tai)
            .and_then(Amount::as_whole)
            .ok_or(SettleError::Overflow)?;
    }
    Ok(out)
}

/// All-pairs settlement (taizhou.md "胜负规则"; shared/rules/README.md "taizhou"): the winner
/// takes its value from the dealer (from everyone when it is the dealer) and half of it from
/// each non-dealer; every two non-winners settle the difference of their values, in full when
/// one of them is the dealer, half between two non-dealers. With 全包, the responsible
/// player's value counts 0 and every amount another player would pay, the responsible player
/// pays instead. Amounts in points, exact in halves; they sum to zero.
pub fn settle_all_pairs(
    winner: Seat,
    dealer: Seat,
    values: BySeat<u64>,
    responsible: Option<Seat>,
) -> Result<BySeat<Amount>, SettleError> {
    let value = |s: Seat| -> Result<Amount, SettleError> {
        let v = if responsible == Some(s) { 0 } else { values[s] };
        i64::try_from(v)
            .ok()
            .and_then(Amount::whole)
            .ok_or(SettleError::Overflow)
    };
    let mut out = BySeat([Amount::ZERO; 4]);
    let mut pay = |from: Seat, to: Seat, full: Amount, in_full: bool| -> Result<(), SettleError> {
        // Half of a whole amount is exact in half units.
        let amount = if in_full {
            full
        } else {
            Amount::from_halves(full.halves() / 2)
        };
        let from = match responsible {
            Some(r) if r != to => r,
            _ => from,
        };
        out[from] = out[from].checked_sub(amount).ok_or(SettleError::Overflow)?;
        out[to] = out[to].checked_add(amount).ok_or(SettleError::Overflow)?;
        Ok(())
    };
    let won = value(winner)?;
    for k in 1..4 {
        let s = winner.add(k);
        pay(s, winner, won, s == dealer || winner == dealer)?;
    }
    let losers = [winner.add(1), winner.add(2), winner.add(3)];
    for (i, &a) in losers.iter().enumerate() {
        for &b in &losers[i + 1..] {
            let (va, vb) = (value(a)?, value(b)?);
            let (high, low, diff) = if va >= vb {
                (a, b, va.checked_sub(vb))
            } else {
                (b, a, vb.checked_sub(va))
            };
            let diff = diff.ok_or(SettleError::Overflow)?;
            pay(low, high, diff, a == dealer || b == dealer)?;
        }
    }
    Ok(out)
}
