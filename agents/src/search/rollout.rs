//! Rollouts: a redealt deal played to its end by the rollout policy and scored for one seat by
//! the variant's own scoring and settlement.

use taisim_score::{score_deal, Variant};
use taisim_sim::{Action, ActionList, Deal, Seat};

use crate::agent::Agent;
use crate::greedy::{DefensiveAgent, GreedyAgent};

/// How the searching seat itself plays on in a rollout.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum OwnRollout {
    Greedy,
    Defensive,
}

/// Plays deals to their end with greedy in every seat and scores them. Owns its scratch, so a
/// rollout allocates nothing.
#[derive(Clone, Debug)]
pub(crate) struct Rollout {
    policy: GreedyAgent,
    defensive: DefensiveAgent,
    own: OwnRollout,
    me: Seat,
    legal: ActionList,
}

impl Rollout {
    pub(crate) fn new(own: OwnRollout) -> Rollout {
        Rollout {
            policy: GreedyAgent,
            defensive: DefensiveAgent::new(),
            own,
            me: Seat::East,
            legal: ActionList::new(),
        }
    }

    pub(crate) fn set_seat(&mut self, me: Seat) {
        self.me = me;
    }

    /// The rollout policy's choice for the seat to act in `deal`.
    #[inline]
    pub(crate) fn choose(&mut self, deal: &Deal, seat: Seat) -> Action {
        if seat == self.me && self.own == OwnRollout::Defensive {
            return self.defensive.act_in(deal, seat, &mut self.legal);
        }
        self.policy.act_in(deal, seat, &mut self.legal)
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

    /// Plays `deal` to its end and returns `seat`'s points under `variant`'s settlement
    /// (base and per-tai amounts the variant's own).
    pub(crate) fn finish(&mut self, deal: &mut Deal, seat: Seat, variant: &Variant) -> i64 {
        while let Some(s) = deal.to_act() {
            let a = self.choose(deal, s);
            deal.play_unchecked(a);
        }
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
