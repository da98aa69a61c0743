//! The turn decisions the unit tests of greedy's turn check: deals of every shipped variant,
//! the dealer rotating with the seed, played by a mix of agents that reach varied hands.

use taisim_score::Variant;
use taisim_sim::{Action, ActionList, Deal, DealContext, LegalSet, Seat, View, Wind};

use crate::{Agent, BuiltinAgent, DefensiveAgent, GreedyAgent, RandomAgent};

/// Calls `visit(variant, seed, view, packed legal actions, legal actions)` at every turn
/// decision without a win on offer of deals `0..seeds` of each shipped variant, and returns
/// how many it visited.
pub(crate) fn for_each_turn(
    seeds: u64,
    mut visit: impl FnMut(&str, u64, &View<'_>, &LegalSet, &ActionList),
) -> usize {
    let mut legal = ActionList::new();
    let mut agents = [
        BuiltinAgent::Greedy(GreedyAgent::new()),
        BuiltinAgent::Defensive(DefensiveAgent::new()),
        BuiltinAgent::Random(RandomAgent::new()),
        BuiltinAgent::Defensive(DefensiveAgent::with_thresholds(40, 1)),
    ];
    let mut turns = 0;
    for name in Variant::names() {
        let rules = Variant::builtin(name).unwrap().rules();
        for seed in 0..seeds {
            let context = DealContext {
                round_wind: Wind::East,
                dealer: Wind::new((seed % 4) as u8),
                streak: 0,
            };
            let mut deal = Deal::new(rules, seed, context).unwrap();
            agents.rotate_left(1);
            for seat in Seat::ALL {
                agents[seat as usize].reset(deal.seed(), seat);
            }
            while let Some(seat) = deal.to_act() {
                deal.legal_actions(&mut legal);
                let view = deal.view(seat);
                let offer = legal.contains(&Action::Pass) || legal.iter().any(|a| a.is_win());
                if !offer {
                    visit(name, seed, &view, &deal.legal(), &legal);
                    turns += 1;
                }
                let action = agents[seat as usize].act(&view, &legal);
                deal.play(action).unwrap();
            }
        }
    }
    turns
}
