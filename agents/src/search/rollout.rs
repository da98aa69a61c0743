//! Rollouts: a redealt deal played to its end by the rollout policy and scored for one seat by
//! the variant's own scoring and settlement.

use taisim_score::{score_deal, Variant};
use taisim_sim::{Action, Deal, Seat};

use crate::greedy::{decide_by, Ties};
use crate::hand_memo::HandMemo;
use crate::minimum::Minimum;
use crate::value::ValueAgent;

/// The policy every seat plays in a rollout.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RolloutPolicy {
    /// Greedy itself.
    Greedy,
    /// Greedy with its ties of least shanten broken by how connected a tile is instead of by
    /// ukeire: several times cheaper.
    Fast,
}

/// Plays deals to their end with the rollout policy in every seat and scores them. Owns its
/// scratch (the memo of the hands its turn decisions meet, which the candidates' rollouts on
/// one determinization share), so a rollout allocates nothing.
#[derive(Clone, Debug)]
pub(crate) struct Rollout {
    ties: Ties,
    memo: HandMemo,
    /// The value agent playing the searching seat ([`OwnPolicy::Value`](super::OwnPolicy)),
    /// and that seat; every other seat plays the rollout policy.
    own: Option<ValueAgent>,
    own_seat: Seat,
    /// The variant's minimum (起胡): greedy lets a win below it go, in every seat.
    minimum: Minimum,
}

impl Rollout {
    /// A rollout of `policy` in every seat but the searching one when `own` plays it, for
    /// deals of a variant of minimum `minimum`.
    pub(crate) fn new(policy: RolloutPolicy, own: Option<ValueAgent>, minimum: Minimum) -> Rollout {
        Rollout {
            own,
            ..Rollout::with_memo(policy, HandMemo::SLOTS, minimum)
        }
    }

    /// The seat the search decides for, which `own` plays when given.
    pub(crate) fn set_own_seat(&mut self, seat: Seat) {
        self.own_seat = seat;
    }

    /// A rollout whose memo has `slots` entries (0: none; see [`HandMemo::new`]).
    pub(crate) fn with_memo(policy: RolloutPolicy, slots: usize, minimum: Minimum) -> Rollout {
        Rollout {
            ties: match policy {
                RolloutPolicy::Greedy => Ties::Ukeire,
                RolloutPolicy::Fast => Ties::Connectivity,
            },
            memo: HandMemo::new(slots),
            own: None,
            own_seat: Seat::East,
            minimum,
        }
    }

    /// The rollout policy's choice for the seat to act in `deal`.
    #[inline]
    pub(crate) fn choose(&mut self, deal: &Deal, seat: Seat) -> Action {
        if seat == self.own_seat {
            if let Some(own) = &mut self.own {
                return own.decide(&deal.view(seat), &deal.legal());
            }
        }
        decide_by(
            &deal.view(seat),
            &deal.legal(),
            self.ties,
            Some(&mut self.memo),
            &self.minimum,
        )
    }

    /// Plays the rollout policy for every seat until `seat` must decide; false if the deal
    /// moves past it (a seat asked before it about a discard won, or claimed it).
    pub(crate) fn advance_to(&mut self, deal: &mut Deal, seat: Seat) -> bool {
        while let Some(s) = deal.to_act() {
            if s == seat {
                return true;
            }
            let a = self.choose(deal, s);
            deal.play_unchecked(a);
        }
        false
    }

    /// Plays `deal` to its end.
    pub(crate) fn play_out(&mut self, deal: &mut Deal) {
        while let Some(s) = deal.to_act() {
            let a = self.choose(deal, s);
            deal.play_unchecked(a);
        }
    }

    /// Plays `deal` to its end and returns `seat`'s points under `variant`'s settlement
    /// (base and per-tai amounts the variant's own).
    pub(crate) fn finish(&mut self, deal: &mut Deal, seat: Seat, variant: &Variant) -> i64 {
        self.play_out(deal);
        points(deal, seat, variant)
    }
}

/// `seat`'s points in a finished deal under `variant`'s own settlement.
pub(crate) fn points(deal: &Deal, seat: Seat, variant: &Variant) -> i64 {
    let st = variant.settlement();
    match score_deal(deal, variant, st.base, st.per_tai) {
        Ok(scored) => scored.payments[seat],
        // A deal the engine played under the variant's rules always scores under it (tested
        // over every shipped variant); were it ever not to, the rollout counts as a draw.
        Err(e) => {
            debug_assert!(false, "a rollout failed to score: {e}");
            0
        }
    }
}
