//! The decisions the search studies look at: every decision of greedy self-play with a real
//! choice, which is the set the search itself searches (more than one legal action; a win
//! offered among them, which a search named `wins=take` takes unsearched).

use taisim_agents::{Agent, GreedyAgent};
use taisim_score::Variant;
use taisim_sim::{deal_seed, Action, ActionList, Deal, DealContext, View};

/// Plays `deals` deals of greedy self-play under `variant`, deal `i` seeded
/// `deal_seed(seed, i)`, and calls `visit(i, deal, view, legal, greedy's choice)` at each
/// decision with a real choice before greedy's choice is played.
pub fn for_each_choice(
    variant: &Variant,
    seed: u64,
    deals: u64,
    mut visit: impl FnMut(u64, &Deal, &View<'_>, &ActionList, Action),
) {
    let mut legal = ActionList::new();
    let mut greedy = GreedyAgent::for_variant(variant);
    for i in 0..deals {
        let mut deal = Deal::new(variant.rules(), deal_seed(seed, i), DealContext::FIRST).unwrap();
        while let Some(seat) = deal.to_act() {
            deal.legal_actions(&mut legal);
            let view = deal.view(seat);
            let default = greedy.act(&view, &legal);
            if legal.len() > 1 {
                visit(i, &deal, &view, &legal, default);
            }
            deal.play(default).unwrap();
        }
    }
}
