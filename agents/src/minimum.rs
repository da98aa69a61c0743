//! A variant's minimum (起胡) as the agents weigh a win offered against it.
//!
//! Under a variant with a minimum, a win declared below it is a false win (詐胡): no one pays
//! it, and where the variant fines it (taiwan16-2015-table.txt:33, 詐胡者 罰給每家十個子) the
//! claimant pays every other player. No player declares such a win knowingly, so the built-in
//! agents that take every win (greedy, defensive, value, and greedy inside the search's
//! rollouts) let it go and play on: a self-drawn hand below the minimum discards, a discard
//! below it passes. The hand's score is read from the seat's own view
//! ([`WinInput::offered`]): a seat knows what its own hand is worth.

use std::sync::Arc;

use taisim_score::{score, Variant, WinInput};
use taisim_sim::{Action, LegalSet, View};

/// The minimum of the variant an agent plays: a win offered below it is let go.
#[derive(Clone, Debug, Default)]
pub struct Minimum {
    /// The variant, kept only when it sets a minimum: a variant without one admits every
    /// win, and the agents then pay nothing to ask.
    variant: Option<Arc<Variant>>,
}

impl Minimum {
    /// No minimum: every win is declared (a variant without 起胡).
    pub const NONE: Minimum = Minimum { variant: None };

    /// `variant`'s minimum, sharing the variant.
    pub fn of_shared(variant: &Arc<Variant>) -> Minimum {
        Minimum {
            variant: (variant.min_tai() > 0).then(|| Arc::clone(variant)),
        }
    }

    /// `variant`'s minimum, for a caller holding the variant alone (a copy is kept where it
    /// sets one).
    pub fn of(variant: &Variant) -> Minimum {
        Minimum {
            variant: (variant.min_tai() > 0).then(|| Arc::new(variant.clone())),
        }
    }

    /// Whether a minimum is set (some win may be let go).
    pub const fn is_set(&self) -> bool {
        self.variant.is_some()
    }

    /// Whether the seat of `view` declares `win`, a win legal for it now: false only when
    /// the hand it would win with scores below the minimum. A win the scorer cannot read (a
    /// defect: every win the engine offers scores, tested) is declared, as the engine offers
    /// it.
    pub fn admits(&self, view: &View<'_>, win: Action) -> bool {
        let Some(variant) = &self.variant else {
            return true;
        };
        WinInput::offered(view, win)
            .and_then(|input| score(&input, variant).ok())
            .is_none_or(|s| s.meets_minimum)
    }

    /// The first win in `legal` the seat of `view` declares, if any.
    pub fn winning_action(&self, view: &View<'_>, legal: &LegalSet) -> Option<Action> {
        legal
            .head()
            .iter()
            .copied()
            .find(|&a| a.is_win() && self.admits(view, a))
    }
}
