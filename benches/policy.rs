//! The trained-policy agent's inference cost per decision: seeded deals played by four
//! policy agents (observation encoding, the MLP, the legal actions' scores), for the shape
//! `scripts/train_policy.py` trains by default (two hidden layers of 256) and for a linear
//! policy; and the full 144 scores of one observation (`Policy::scores`).

use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use taisim_agents::{
    encode_slice, play_deal, Layer, Policy, PolicyAgent, ACTION_SPACE_SIZE, OBS_LEN,
};
use taisim_sim::{bounded, rng_from_seed, ActionList, Deal, DealContext, Rules};

/// A policy of the given widths with seeded weights of a trained network's scale (uniform in
/// ±1/√inputs, as PyTorch initialises `nn.Linear`).
fn policy(hidden: &[usize]) -> Policy {
    let mut rng = rng_from_seed(0x9011c7);
    let mut widths = vec![OBS_LEN];
    widths.extend_from_slice(hidden);
    widths.push(ACTION_SPACE_SIZE);
    let layers = widths
        .windows(2)
        .map(|w| {
            let bound = 1.0 / (w[0] as f32).sqrt();
            let mut draw = || (bounded(&mut rng, 20_001) as f32 / 10_000.0 - 1.0) * bound;
            let weights = (0..w[0] * w[1]).map(|_| draw()).collect();
            let bias = (0..w[1]).map(|_| draw()).collect();
            Layer::new(w[0], w[1], weights, bias)
        })
        .collect();
    Policy::new(layers).unwrap()
}

/// Decisions in deals `0..DEALS` played by four agents of `policy` (the same every run).
const DEALS: u64 = 20;

fn play(policy: &Arc<Policy>) -> u64 {
    let mut agents: [PolicyAgent; 4] = core::array::from_fn(|_| PolicyAgent::new(policy.clone()));
    let mut scratch = ActionList::new();
    (0..DEALS)
        .map(|seed| {
            let mut deal = Deal::new(Rules::TAIWAN16, seed, DealContext::FIRST).unwrap();
            play_deal(&mut deal, &mut agents, &mut scratch) as u64
        })
        .sum()
}

fn agent(c: &mut Criterion) {
    let mut group = c.benchmark_group("policy_agent");
    for (name, hidden) in [("mlp_256_256", &[256, 256][..]), ("linear", &[][..])] {
        let policy = Arc::new(policy(hidden));
        let decisions = play(&policy);
        group.throughput(Throughput::Elements(decisions));
        group.bench_function(format!("{name}_{DEALS}_deals_{decisions}_decisions"), |b| {
            b.iter(|| play(&policy))
        });
    }
    group.finish();
}

fn scores(c: &mut Criterion) {
    let mut group = c.benchmark_group("policy_scores");
    let policy = policy(&[256, 256]);
    let deal = Deal::new(Rules::TAIWAN16, 1, DealContext::FIRST).unwrap();
    let mut obs = vec![0f32; OBS_LEN];
    encode_slice(&deal.view(deal.to_act().unwrap()), &mut obs);
    let mut scratch = policy.scratch();
    let mut out = vec![0f32; ACTION_SPACE_SIZE];
    group.throughput(Throughput::Elements(1));
    group.bench_function("mlp_256_256_one_observation", |b| {
        b.iter(|| policy.scores(&obs, &mut scratch, &mut out))
    });
    group.finish();
}

criterion_group!(benches, agent, scores);
criterion_main!(benches);
