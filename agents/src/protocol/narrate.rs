//! Telling a deal as events: what one decision changed at the table, read from the deal
//! before and after it. The engine does not announce what it does between decisions
//! (draws, flowers, resolving claims); the narrator works it out from the state it left, so
//! the engine's loop pays nothing for a narration nobody asked for.

use rand_core::RngCore;
use taisim_score::{score_deal, DealScore, ScoreError, Variant};
use taisim_sim::{
    deal_seed, rng_from_seed, Action, BySeat, Deal, MeldKind, MeldList, Seat, Tile, Wind,
};

use super::event::{End, Event, PatternLine, Start, WinLine};

/// The number a seat's start message gives a bot for its own random choices in the deal
/// seeded `seed`: drawn from a generator of `(seed, seat)` on a stream of its own, like the
/// built-in agents' ([`crate::agent_rng`]), and independent of the wall's generator.
pub fn bot_seed(seed: u64, seat: Seat) -> u64 {
    rng_from_seed(deal_seed(seed, 0xb07_5eed_0000 + seat as u64)).next_u64()
}

/// The opening of `deal` (which must not have been played yet) as a log records it: the
/// deal's seed, every hand after the deal and the flower replacement, the flowers shown, the
/// wild and the wall count. `variant` names the rules; `sha256` and `stakes` are recorded for
/// logs ([`Event::seen_by`] drops them for a seat).
pub fn start_event(
    deal: &Deal,
    variant: &str,
    sha256: Option<&str>,
    stakes: Option<(i64, i64)>,
) -> Event {
    Event::Start(Box::new(Start {
        seed: deal.seed(),
        variant: variant.to_string(),
        variant_sha256: sha256.map(str::to_string),
        stakes,
        context: *deal.context(),
        hands: BySeat(Wind::ALL.map(|s| Some(*deal.hand(s)))),
        flowers: BySeat(Wind::ALL.map(|s| deal.flowers(s))),
        wild_indicator: deal.wild_indicator(),
        wild: deal.wild(),
        left: deal.tiles_left(),
    }))
}

/// Appends to `out` what the table saw when `action` was played on `before`, leaving
/// `after`: the action itself when it is public (a discard, a kong declared), the claim that
/// won the discard, flowers shown and tiles drawn (the drawn tile named: a seat's view hides
/// it from the others). The end of the deal is [`end_event`]'s.
pub fn step_events(before: &Deal, action: Action, after: &Deal, out: &mut Vec<Event>) {
    let Some(actor) = before.to_act() else {
        return;
    };
    out.push(Event::Decision {
        actor,
        step: before.steps() + 1,
        action,
    });
    match action {
        Action::Discard(tile) => out.push(Event::Discard {
            actor,
            tile,
            ready: false,
        }),
        Action::DiscardReady(tile) => out.push(Event::Discard {
            actor,
            tile,
            ready: true,
        }),
        Action::ConcealedKong(tile) => out.push(Event::ConcealedKong {
            actor,
            tile: Some(tile),
        }),
        Action::AddedKong(tile) => out.push(Event::AddedKong { actor, tile }),
        _ => {}
    }
    // A claim resolved: the claimer's new meld (kongs declared on a turn were told above; a
    // pung upgraded in place keeps the count).
    for s in Wind::ALL {
        let (b, a) = (before.melds(s), after.melds(s));
        for m in a.iter().skip(b.len()) {
            if matches!(m.kind(), MeldKind::Chow | MeldKind::Pung | MeldKind::Kong) {
                out.push(Event::Claim {
                    kind: m.kind(),
                    actor: s,
                    from: m.from(),
                    tile: m.claimed_tile(),
                    low: m.tile(),
                });
            }
        }
    }
    // A robbed flower (七搶一) changes hands with the win: the end tells it.
    let robbed_flower = action == Action::Win && before.flower_on_offer().is_some();
    // Flowers shown and tiles drawn, seat by seat from the dealer (more than one seat only
    // while the dealt flowers are still being replaced). Each draw tells the wall count it
    // left: the last the count after the step.
    let dealer = before.context().dealer;
    let mut draws = 0u8;
    for k in 0..4 {
        let s = dealer.add(k);
        let (b, a) = (before.hand(s).counts(), after.hand(s).counts());
        draws += (0..Tile::NUM)
            .map(|i| a[i].saturating_sub(b[i]))
            .sum::<u8>();
    }
    let mut left = after.tiles_left().saturating_add(draws);
    for k in 0..4 {
        let s = dealer.add(k);
        if !robbed_flower {
            let shown = before.flowers(s);
            for f in after.flowers(s).iter().filter(|f| !shown.contains(*f)) {
                out.push(Event::Flower {
                    actor: s,
                    flower: f,
                });
            }
        }
        let (b, a) = (before.hand(s).counts(), after.hand(s).counts());
        for (i, (&was, &now)) in b.iter().zip(&a).enumerate() {
            for _ in was..now.max(was) {
                left -= 1;
                out.push(Event::Draw {
                    actor: s,
                    tile: Some(Tile::new(i as u8)),
                    left,
                });
            }
        }
    }
}

/// The end of a finished deal: the result, every hand and meld (face-down kongs shown), the
/// flowers, each win's score and the payments, settled under `variant` at `base` and
/// `per_tai`.
pub fn end_event(
    deal: &Deal,
    variant: &Variant,
    base: i64,
    per_tai: i64,
) -> Result<Event, ScoreError> {
    deal.result().ok_or(ScoreError::DealNotOver)?;
    end_event_scored(deal, &score_deal(deal, variant, base, per_tai)?)
}

/// [`end_event`] of a deal its caller has scored and settled already (`scored`, as
/// [`score_deal`] gives it), for a caller that shows the score in more detail as well.
pub fn end_event_scored(deal: &Deal, scored: &DealScore) -> Result<Event, ScoreError> {
    let result = *deal.result().ok_or(ScoreError::DealNotOver)?;
    let wins = scored
        .wins
        .iter()
        .map(|(seat, s)| WinLine {
            seat: *seat,
            tai: s.total,
            dealer_tai: s.dealer_tai,
            hu: s.hu,
            points: s.points,
            patterns: s
                .patterns
                .iter()
                .map(|p| PatternLine {
                    id: p.id.id().to_string(),
                    name: p.name_zh().to_string(),
                    tai: p.tai,
                })
                .collect(),
        })
        .collect();
    Ok(Event::End(Box::new(End {
        result,
        hands: BySeat(Wind::ALL.map(|s| *deal.hand(s))),
        melds: BySeat(Wind::ALL.map(|s| deal.melds(s).iter().copied().collect::<MeldList>())),
        flowers: BySeat(Wind::ALL.map(|s| deal.flowers(s))),
        wins,
        payments: scored.payments,
        responsible: scored.responsible,
    })))
}
