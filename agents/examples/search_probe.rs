//! Prints the decisions where the search departs from greedy, with its estimates: a
//! development aid for the search agent.
//!
//! `cargo run --release -p taisim-agents --example search_probe -- DEALS BUDGET [uniform|play]`

use std::sync::Arc;

use taisim_agents::search::{BeliefModel, SearchAgent, SearchConfig};
use taisim_agents::{Agent, GreedyAgent};
use taisim_score::Variant;
use taisim_sim::{Action, ActionList, Deal, DealContext, Seat};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let deals: u64 = args.get(1).map_or(5, |s| s.parse().unwrap());
    let budget: u32 = args.get(2).map_or(64, |s| s.parse().unwrap());
    let belief = match args.get(3).map(String::as_str) {
        Some("uniform") => BeliefModel::Uniform,
        _ => BeliefModel::Play,
    };
    let variant = Arc::new(Variant::builtin("taiwan16").unwrap());
    let mut config = SearchConfig::with_budget(budget);
    config.belief = belief;
    let mut search = SearchAgent::new(Arc::clone(&variant), config);
    let mut greedy = GreedyAgent::new();
    let mut legal = ActionList::new();
    let (mut decisions, mut departures) = (0u32, 0u32);
    for i in 0..deals {
        let mut deal = Deal::new(variant.rules(), 1000 + i, DealContext::FIRST).unwrap();
        search.reset(deal.seed(), Seat::East);
        while let Some(seat) = deal.to_act() {
            deal.legal_actions(&mut legal);
            let action = if seat == Seat::East {
                let a = search.act(&deal.view(seat), &legal);
                let d = search.last_decision();
                if !d.estimates.is_empty() {
                    decisions += 1;
                }
                if d.default != Some(a) {
                    departures += 1;
                    if let (Action::Discard(g), Action::Discard(x)) = (d.default.unwrap(), a) {
                        let view = deal.view(seat);
                        let rules = taisim_agents::knowledge::hand_rules(
                            &view,
                            taisim_agents::knowledge::sets_needed(&view),
                        );
                        let mut hg = *deal.hand(seat);
                        hg.remove(g);
                        let mut hx = *deal.hand(seat);
                        hx.remove(x);
                        println!(
                            "SHANTEN greedy {} search {}",
                            taisim_sim::algo::shanten(&hg, rules),
                            taisim_sim::algo::shanten(&hx, rules)
                        );
                    }
                    println!(
                        "deal {i} step {}: hand {:?} offer {:?} greedy {:?} search {a:?}",
                        deal.steps(),
                        deal.hand(seat),
                        deal.tile_on_offer(),
                        d.default.unwrap()
                    );
                    for e in &d.estimates {
                        println!(
                            "    {:<16} n {:>4} mean {:+7.3} ± {:.3}  adv {:+7.3} ± {:.3}",
                            format!("{:?}", e.action),
                            e.rollouts,
                            e.mean,
                            e.std_error,
                            e.advantage,
                            e.advantage_error
                        );
                    }
                }
                a
            } else {
                greedy.act(&deal.view(seat), &legal)
            };
            deal.play(action).unwrap();
        }
        println!("deal {i}: {:?}", deal.result().unwrap().outcome);
    }
    println!("{decisions} searched decisions, {departures} departures from greedy");
}
