//! Whether the search's estimate of greedy's own action is unbiased: in greedy self-play, at
//! seat E's searched decisions, the search's mean points for greedy's choice against the
//! points E really ends the deal with (playing greedy throughout), by how far the deal has
//! run.
//!
//! `cargo run --release -p taisim-agents --example value_calibration -- DEALS BUDGET [play|uniform]`

use std::sync::Arc;

use taisim_agents::search::{BeliefModel, SearchAgent, SearchConfig};
use taisim_agents::{Agent, GreedyAgent};
use taisim_score::{score_deal, Variant};
use taisim_sim::{ActionList, Deal, DealContext, Seat};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let deals: u64 = args[1].parse().unwrap();
    let budget: u32 = args[2].parse().unwrap();
    let mut config = SearchConfig::with_budget(budget);
    config.belief = match args.get(3).map(String::as_str) {
        Some("uniform") => BeliefModel::Uniform,
        _ => BeliefModel::Play,
    };
    let variant = Arc::new(Variant::builtin("taiwan16").unwrap());
    let mut search = SearchAgent::new(Arc::clone(&variant), config);
    let mut greedy = GreedyAgent::new();
    let mut legal = ActionList::new();
    // [bucket] (n, predicted, actual)
    let mut cells = [(0.0f64, 0.0f64, 0.0f64); 6];
    for i in 0..deals {
        let mut deal = Deal::new(variant.rules(), 9000 + i, DealContext::FIRST).unwrap();
        search.reset(deal.seed(), Seat::South);
        let mut predictions: Vec<(usize, f64)> = Vec::new();
        while let Some(seat) = deal.to_act() {
            deal.legal_actions(&mut legal);
            let view = deal.view(seat);
            let a = greedy.act(&view, &legal);
            if seat == Seat::South && legal.len() > 1 {
                search.act(&view, &legal);
                let d = search.last_decision();
                if let Some(e) = d.estimates.iter().find(|e| Some(e.action) == d.default) {
                    predictions.push(((view.discards().len() / 12).min(5), e.mean));
                }
            }
            deal.play(a).unwrap();
        }
        let st = variant.settlement();
        let actual = score_deal(&deal, &variant, st.base, st.per_tai)
            .unwrap()
            .payments[Seat::South] as f64;
        for (b, p) in predictions {
            cells[b].0 += 1.0;
            cells[b].1 += p;
            cells[b].2 += actual;
        }
    }
    println!("discards | decisions | predicted | actual");
    for (b, (n, p, a)) in cells.iter().enumerate() {
        println!(
            "{:>3}-{:<3}  | {n:>8} | {:+8.3}  | {:+8.3}",
            b * 12,
            b * 12 + 11,
            p / n.max(1.0),
            a / n.max(1.0)
        );
    }
}
