//! Random playouts: a deal played to its end by uniformly random legal actions, the engine's
//! own workload (its benchmarks and `taisim engine-bench` time exactly this, agents aside).

use rand_pcg::Pcg64Mcg;

use crate::action::Action;
use crate::deal::Deal;
use crate::wall::bounded;

/// Plays `deal` to its end, drawing each decision uniformly from the legal actions with
/// `rng`; `before(deal, action)` sees each decision just before it is played. Allocates
/// nothing.
pub fn play_randomly(deal: &mut Deal, rng: &mut Pcg64Mcg, mut before: impl FnMut(&Deal, Action)) {
    while !deal.is_over() {
        let legal = deal.legal();
        let a = legal.get(bounded(rng, legal.len() as u32) as usize);
        before(deal, a);
        deal.play_unchecked(a);
    }
}
