//! How alike the candidates' rollouts stay under two searches: at every decision of greedy
//! self-play both searches decide (on the same fills: the decision's generator does not depend
//! on the settings), and for each challenger both searched, the variance of its paired
//! advantage over greedy's choice is compared, with the rollouts each decision took and how
//! often the two chose alike.
//!
//! `cargo run --release -p taisim-agents --example search_variance -- DEALS SEED NAME_A NAME_B [VARIANT]`

use std::sync::Arc;

#[path = "common/greedy_choices.rs"]
mod greedy_choices;
use greedy_choices::for_each_choice;

use taisim_agents::search::SearchAgent;
use taisim_agents::{Agent, AgentSpec};
use taisim_score::Variant;
use taisim_sim::deal_seed;

fn build(name: &str, variant: &Arc<Variant>) -> SearchAgent {
    match name.parse::<AgentSpec>() {
        Ok(AgentSpec::Search(spec)) => SearchAgent::new(Arc::clone(variant), spec.config()),
        _ => panic!("{name} is not a search"),
    }
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let deals: u64 = a[1].parse().unwrap();
    let seed: u64 = a[2].parse().unwrap();
    let variant = Arc::new(Variant::builtin(a.get(5).map_or("taiwan16", String::as_str)).unwrap());
    let mut agents = [build(&a[3], &variant), build(&a[4], &variant)];
    let (mut var, mut pairs) = ([0.0f64; 2], 0u64);
    let mut rollouts = [0u64; 2];
    let mut departures = [0u64; 2];
    let (mut searched, mut same) = (0u64, 0u64);
    for_each_choice(&variant, seed, deals, |i, _deal, view, legal, default| {
        let mut chosen = [default; 2];
        for (k, agent) in agents.iter_mut().enumerate() {
            agent.reset(deal_seed(seed, i), view.seat());
            chosen[k] = agent.act(view, legal);
        }
        let d = [agents[0].last_decision(), agents[1].last_decision()];
        if d[0].estimates.is_empty() {
            return;
        }
        searched += 1;
        same += u64::from(chosen[0] == chosen[1]);
        for k in 0..2 {
            rollouts[k] += d[k]
                .estimates
                .iter()
                .map(|e| u64::from(e.rollouts))
                .sum::<u64>();
            departures[k] += u64::from(chosen[k] != default);
        }
        for (x, y) in d[0].estimates.iter().zip(&d[1].estimates) {
            if x.action == default || x.rollouts < 2 || y.rollouts < 2 {
                continue;
            }
            pairs += 1;
            var[0] += x.advantage_error.powi(2) * f64::from(x.rollouts);
            var[1] += y.advantage_error.powi(2) * f64::from(y.rollouts);
        }
    });
    println!(
        "{} decisions searched; {pairs} challengers searched by both; same choice {:.1}%",
        searched,
        100.0 * same as f64 / searched.max(1) as f64
    );
    for k in 0..2 {
        println!(
            "{:40} paired variance {:8.3}  rollouts a decision {:8.1}  departures {}",
            a[3 + k],
            var[k] / pairs.max(1) as f64,
            rollouts[k] as f64 / searched.max(1) as f64,
            departures[k]
        );
    }
    println!("variance ratio B/A {:.3}", var[1] / var[0]);
}
