//! A finished deal scored and settled: every win through [`score`](crate::score), paid
//! under the variant's settlement model (winner-pays, or all-pairs with every seat's value
//! and 全包), the one place a deal's payments are worked out.

use arrayvec::ArrayVec;
use taisim_sim::{BySeat, Deal, Outcome, Seat};

use super::breakdown::Score;
use super::context::WinInput;
use super::error::{ScoreError, SettleError};
use super::scorer::score;
use super::settle::{self, check_stakes, try_settle};
use super::taizhou::liability::Liability;
use super::taizhou::value::seat_value;
use super::variant::{SettlementModel, Variant};

/// Every win of a finished deal, scored and settled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealScore {
    /// Each winner and its score (several only with 一砲多響); empty for a drawn deal.
    pub wins: ArrayVec<(Seat, Score), 3>,
    /// Each win's own payments, in the order of `wins` (under all-pairs settlement, the
    /// deal's settlement among all four seats). Each sums to zero.
    pub win_payments: ArrayVec<BySeat<i64>, 3>,
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
        win_payments: ArrayVec::new(),
        payments: BySeat([0; 4]),
        values: BySeat([0; 4]),
        responsible: None,
    };
    if result.outcome == Outcome::ExhaustiveDraw {
        return Ok(out);
    }
    let all_pairs = variant.settlement.model == SettlementModel::AllPairs;
    // The deal's rules are its own: a deal played with several winners may reach a variant
    // that settles one.
    if all_pairs && result.winners.len() > 1 {
        return Err(ScoreError::AllPairsWinners(result.winners.len() as usize));
    }
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
        out.win_payments.push(pay);
    }
    Ok(out)
}
