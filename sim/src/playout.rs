//! Random playouts: a deal played to its end by uniformly random legal actions, the engine's
//! own workload (its benchmarks and `taisim engine-bench` time exactly this, agents aside).

use rand_pcg::Pcg64Mcg;

use crate::action::{Action, ActionList};
use crate::deal::Deal;
use crate::wall::bounded;

/// Plays `deal` to its end, drawing each decision uniformly from the legal actions with
/// `rng`; `before(deal, action)` sees each decision just before it is played. `actions` is
/// scratch space. Allocates nothing.
pub fn play_randomly(
    deal: &mut Deal,
    rng: &mut Pcg64Mcg,
    actions: &mut ActionList,
    mut before: impl FnMut(&Deal, Action),
) {
    while !deal.is_over() {
        deal.legal_actions(actions);
        let a = actions[bounded(rng, actions.len() as u32) as usize];
        before(deal, a);
        deal.play_unchecked(a);
    }
}
