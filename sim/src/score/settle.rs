//! Settlement: who pays whom for one win. Every payment is `base + tai × per_tai`, the
//! dealer's tai joining the tai only in payments between the dealer and another player.

use super::breakdown::Score;
use super::context::WinInput;
use super::pattern::PatternId;
use super::variant::{RobbedFlowerPayer, Variant};
use crate::meld::MeldKind;
use crate::seat::BySeat;
use crate::tile::{Seat, Suit};

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

/// Insurance (mahjongtime-taiwanese-rules.txt:255-275): a discard that lets the winner out
/// on one of the listed big hands makes the discarder pay for all three losers. Only the
/// immediate case is seen here: the later one (a dangerous discard claimed for a set, the
/// hand finished afterwards) needs the deal's history.
fn insured(score: &Score, input: &WinInput, variant: &Variant) -> bool {
    let ins = &variant.settlement.insurance;
    let Some(win) = input.win_tile else {
        return false;
    };
    let exposed = |pred: &dyn Fn(crate::tile::Tile) -> bool| {
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

/// Each seat's gain (positive) or payment (negative) for one scored win. Sums to zero.
///
/// A win below the variant's minimum (起胡) is paid by nobody; where the variant sets a
/// false-win penalty (詐胡, taiwan16-2015-table.txt:33) the would-be winner pays it to each
/// other player instead.
pub fn settle(
    score: &Score,
    input: &WinInput,
    variant: &Variant,
    base: i64,
    per_tai: i64,
) -> BySeat<i64> {
    let mut out = BySeat([0i64; 4]);
    let winner = input.seat;
    if !score.meets_minimum {
        let fine = variant.settlement.false_win_penalty;
        for k in 1..4 {
            out[winner.add(k)] += fine;
            out[winner] -= fine;
        }
        return out;
    }
    let dealer_tai = variant.dealer_tai(input.streak) as i64;
    let share = |payer: Seat, all: bool| {
        let extra = if dealer_share(input, variant, payer, all) {
            dealer_tai
        } else {
            0
        };
        base + (score.total as i64 + extra) * per_tai
    };
    let mut pay = |payer: Seat, amount: i64| {
        out[payer] -= amount;
        out[winner] += amount;
    };
    match payers(input, variant) {
        Payers::All => {
            for k in 1..4 {
                let payer = winner.add(k);
                pay(payer, share(payer, true));
            }
        }
        Payers::One(payer) => {
            let discard_like = !input.context.flower_win;
            if discard_like && insured(score, input, variant) {
                let all: i64 = (1..4).map(|k| share(winner.add(k), true)).sum();
                pay(payer, all);
            } else {
                pay(payer, share(payer, false));
            }
        }
    }
    out
}
