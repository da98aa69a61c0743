//! Decision quality of search configurations, without the noise of whole deals: positions
//! from greedy self-play (seat E's decisions), each action's value estimated once with a large
//! budget (the reference), then every configuration's choice scored by its regret against the
//! reference's best. Greedy's own choice is scored the same way.
//!
//! `cargo run --release -p taisim-agents --example search_regret -- POSITIONS REFERENCE_BUDGET SEED [VARIANT [FILE]]`
//! then one line per configuration read from stdin:
//! `BUDGET MARGIN PRUNE(0|1) [greedy|fast [FIRST CULL INDIFFERENCE]]`. With FILE the reference
//! values are read from it when it exists and written to it otherwise.

use std::io::BufRead;
use std::sync::Arc;
use std::time::Instant;

use taisim_agents::search::{SearchAgent, SearchConfig};
use taisim_agents::{Agent, GreedyAgent};
use taisim_score::Variant;
use taisim_sim::{bounded, deal_seed, rng_from_seed, Action, ActionList, Deal, DealContext, Seat};

struct Position {
    deal: Deal,
    legal: ActionList,
    /// Reference value of each legal action (None: not estimated).
    value: Vec<Option<f64>>,
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let count: usize = a[1].parse().unwrap();
    let reference: u32 = a[2].parse().unwrap();
    let seed: u64 = a[3].parse().unwrap();
    let variant = Arc::new(Variant::builtin(a.get(4).map_or("taiwan16", String::as_str)).unwrap());
    let mut rng = rng_from_seed(seed);
    let mut greedy = GreedyAgent::for_variant(&variant);
    let mut legal = ActionList::new();
    let mut positions = Vec::new();
    let mut i = 0u64;
    let start = Instant::now();
    let file = a.get(5).cloned();
    let saved: Option<Vec<Vec<Option<f64>>>> = file
        .as_ref()
        .and_then(|f| std::fs::read_to_string(f).ok())
        .map(|text| {
            text.lines()
                .map(|l| {
                    l.split(',')
                        .map(|x| {
                            if x == "-" {
                                None
                            } else {
                                Some(x.parse().unwrap())
                            }
                        })
                        .collect()
                })
                .collect()
        });
    while positions.len() < count {
        let mut deal = Deal::new(variant.rules(), deal_seed(seed, i), DealContext::FIRST).unwrap();
        i += 1;
        // One of E's decisions with a choice, at random.
        let mut at = Vec::new();
        let mut probe = deal.clone();
        while let Some(s) = probe.to_act() {
            probe.legal_actions(&mut legal);
            let win = legal
                .iter()
                .any(|x| matches!(x, Action::Win | Action::SelfDrawWin));
            if s == Seat::East && legal.len() > 1 && !win {
                at.push(probe.steps());
            }
            let x = greedy.act(&probe.view(s), &legal);
            probe.play(x).unwrap();
        }
        if at.is_empty() {
            continue;
        }
        let target = at[bounded(&mut rng, at.len() as u32) as usize];
        while deal.steps() < target {
            let s = deal.to_act().unwrap();
            deal.legal_actions(&mut legal);
            let x = greedy.act(&deal.view(s), &legal);
            deal.play(x).unwrap();
        }
        deal.legal_actions(&mut legal);
        let value = match &saved {
            Some(v) => v[positions.len()].clone(),
            None => {
                let mut config = SearchConfig::with_budget(reference);
                config.prune = false;
                let mut search = SearchAgent::new(Arc::clone(&variant), config);
                search.reset(deal.seed() ^ 0x5eed, Seat::East);
                search.act(&deal.view(Seat::East), &legal);
                let d = search.last_decision();
                legal
                    .iter()
                    .map(|x| {
                        d.estimates
                            .iter()
                            .find(|e| e.action == *x && e.rollouts >= reference / 4)
                            .map(|e| e.mean)
                    })
                    .collect()
            }
        };
        positions.push(Position {
            deal,
            legal: legal.clone(),
            value,
        });
    }
    if let (Some(f), None) = (&file, &saved) {
        let text: String = positions
            .iter()
            .map(|p: &Position| {
                let cells: Vec<String> = p
                    .value
                    .iter()
                    .map(|v| v.map_or("-".to_string(), |x| format!("{x}")))
                    .collect();
                cells.join(",") + "\n"
            })
            .collect();
        std::fs::write(f, text).unwrap();
    }
    eprintln!(
        "{} positions, reference {} determinizations, {:.0} s",
        positions.len(),
        reference,
        start.elapsed().as_secs_f64()
    );
    let regret = |p: &Position, x: Action| -> Option<f64> {
        let best = p.value.iter().flatten().cloned().fold(f64::MIN, f64::max);
        let i = p.legal.iter().position(|y| *y == x)?;
        // An action the reference culled early is scored at the worst reference value.
        let v = p.value[i]
            .unwrap_or_else(|| p.value.iter().flatten().cloned().fold(f64::MAX, f64::min));
        Some(best - v)
    };
    let mut g = 0.0;
    for p in &positions {
        let x = greedy.act(&p.deal.view(Seat::East), &p.legal);
        g += regret(p, x).unwrap();
    }
    println!("greedy: mean regret {:.4}", g / positions.len() as f64);
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() < 3 {
            continue;
        }
        let mut config = SearchConfig::with_budget(f[0].parse().unwrap());
        config.margin = f[1].parse().unwrap();
        config.prune = f[2] == "1";
        if f.get(3) == Some(&"fast") {
            config.rollout = taisim_agents::search::RolloutPolicy::Fast;
        }
        if f.len() >= 6 {
            config.schedule = taisim_agents::search::Schedule::Racing {
                first: f[4].parse().unwrap(),
                cull: f[5].parse().unwrap(),
                indifference: f.get(6).map_or(0.0, |x| x.parse().unwrap()),
                opening: None,
                opening_discards: taisim_agents::search::OPENING_DISCARDS,
            };
        }
        let mut search = SearchAgent::new(Arc::clone(&variant), config);
        let t = Instant::now();
        let (mut r, mut changed) = (0.0, 0);
        for p in &positions {
            search.reset(p.deal.seed(), Seat::East);
            let x = search.act(&p.deal.view(Seat::East), &p.legal);
            r += regret(p, x).unwrap();
            changed += (search.last_decision().default != Some(x)) as u32;
        }
        println!(
            "budget {} margin {} prune {} {} {:?}: mean regret {:.4}, {} of {} changed, {:.1} ms a decision",
            f[0],
            f[1],
            f[2],
            f.get(3).unwrap_or(&"greedy"),
            config.schedule,
            r / positions.len() as f64,
            changed,
            positions.len(),
            1000.0 * t.elapsed().as_secs_f64() / positions.len() as f64
        );
    }
}
