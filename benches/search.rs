//! The search agent's costs: one rollout from a mid-deal position (a redealt deal played to
//! its end by greedy in every seat and scored), one determinization (a fill from the belief
//! and the redeal), and whole decisions at two budgets. Positions: decisions with a choice
//! in greedy self-play once 20 tiles lie in the river, under taiwan16 and taizhou.

use std::sync::Arc;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use taisim_agents::search::{
    rollout, Belief, BeliefModel, RolloutPolicy, SearchAgent, SearchConfig,
};
use taisim_agents::{Agent, GreedyAgent};
use taisim_score::Variant;
use taisim_sim::{deal_seed, rng_from_seed, ActionList, Deal, DealContext, Seat};

/// Mid-deal decisions: the deal and its legal actions.
fn positions(variant: &Variant, count: usize) -> Vec<(Deal, ActionList)> {
    let mut out = Vec::new();
    let mut legal = ActionList::new();
    let mut i = 0;
    while out.len() < count {
        let mut deal = Deal::new(variant.rules(), deal_seed(4242, i), DealContext::FIRST).unwrap();
        i += 1;
        while let Some(seat) = deal.to_act() {
            deal.legal_actions(&mut legal);
            if deal.discards().len() >= 20 && legal.len() > 1 && deal.tile_on_offer().is_none() {
                out.push((deal.clone(), legal.clone()));
                break;
            }
            let a = GreedyAgent::new().act(&deal.view(seat), &legal);
            deal.play(a).unwrap();
        }
    }
    out
}

fn search(c: &mut Criterion) {
    for name in ["taiwan16", "taizhou"] {
        let variant = Arc::new(Variant::builtin(name).unwrap());
        let positions = positions(&variant, 32);
        let mut belief = Belief::new(BeliefModel::Play);
        let mut rng = rng_from_seed(1);
        // One redealt deal per position, at the seat's decision.
        let redealt: Vec<(Deal, Seat)> = positions
            .iter()
            .map(|(deal, _)| {
                let seat = deal.to_act().unwrap();
                let view = deal.view(seat);
                belief.prepare(&view);
                let fill = belief.sample(&view, &mut rng).unwrap().clone();
                (view.redeal(&fill).unwrap(), seat)
            })
            .collect();
        let mut group = c.benchmark_group(format!("search_{name}"));
        group.throughput(Throughput::Elements(redealt.len() as u64));
        group.bench_function("rollout", |b| {
            b.iter_batched(
                || redealt.clone(),
                |mut deals| {
                    let mut total = 0;
                    for (deal, seat) in &mut deals {
                        total += rollout(deal, *seat, &variant, RolloutPolicy::Greedy);
                    }
                    total
                },
                BatchSize::SmallInput,
            )
        });
        group.bench_function("determinization", |b| {
            b.iter(|| {
                let mut n = 0;
                for (deal, _) in &positions {
                    let seat = deal.to_act().unwrap();
                    let view = deal.view(seat);
                    belief.prepare(&view);
                    let fill = belief.sample(&view, &mut rng).unwrap();
                    n += view.redeal(fill).unwrap().tiles_left() as u32;
                }
                n
            })
        });
        group.sample_size(10);
        // `search:64`, `search:2048` and plain `search` (2048, tuned late in the deal).
        let configs = [
            ("64", SearchConfig::with_budget(64)),
            ("2048", SearchConfig::with_budget(2048)),
            ("plain", SearchConfig::plain()),
        ];
        for (label, config) in configs {
            group.bench_function(format!("decision_search_{label}"), |b| {
                let mut agent = SearchAgent::new(Arc::clone(&variant), config);
                b.iter(|| {
                    let mut n = 0;
                    for (deal, legal) in &positions {
                        let seat = deal.to_act().unwrap();
                        agent.reset(deal.seed(), seat);
                        n += u32::from(agent.act(&deal.view(seat), legal) == legal[0]);
                    }
                    n
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, search);
criterion_main!(benches);
