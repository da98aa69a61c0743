//! The trained-policy agent's inference cost per decision: seeded deals played by four
//! policy agents (observation encoding, the MLP, the legal actions' scores), for the shape
//! `scripts/train_policy.py` trains by default (two hidden layers of 256 and a per-kind head
//! of 64), for the same MLP without the head, and for a linear policy; and the full 144
//! scores of one observation (`Policy::scores`).

use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use taisim_agents::{
    encode_slice, play_deal, Layer, Policy, PolicyAgent, ACTION_SPACE_SIZE, OBS_CHANNELS, OBS_LEN,
};
use taisim_sim::{bounded, rng_from_seed, ActionList, Deal, DealContext, Rules};

/// A policy of the given widths, with a per-kind head of width `kinds` unless 0, with seeded
/// weights of a trained network's scale (uniform in ±1/√inputs, as PyTorch initialises
/// `nn.Linear`).
fn policy(hidden: &[usize], kinds: usize) -> Policy {
    let mut rng = rng_from_seed(0x9011c7);
    let mut layer = |inputs: usize, outputs: usize| {
        let bound = 1.0 / (inputs as f32).sqrt();
        let mut draw = || (bounded(&mut rng, 20_001) as f32 / 10_000.0 - 1.0) * bound;
        let weights = (0..inputs * outputs).map(|_| draw()).collect();
        let bias = (0..outputs).map(|_| draw()).collect();
        Layer::new(inputs, outputs, weights, bias)
    };
    let mut widths = vec![OBS_LEN];
    widths.extend_from_slice(hidden);
    widths.push(ACTION_SPACE_SIZE);
    let layers = widths.windows(2).map(|w| layer(w[0], w[1])).collect();
    let policy = Policy::new(layers).unwrap();
    if kinds == 0 {
        return policy;
    }
    let width = widths[widths.len() - 2];
    let input = layer(2 * OBS_CHANNELS, kinds);
    let context = layer(width, kinds).weights;
    let output = layer(kinds, 4);
    policy
        .with_kind_head(input, [kinds, width], context, output)
        .unwrap()
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
    for (name, hidden, kinds) in [
        ("mlp_256_256_kinds_64", &[256, 256][..], 64),
        ("mlp_256_256", &[256, 256][..], 0),
        ("linear", &[][..], 0),
    ] {
        let policy = Arc::new(policy(hidden, kinds));
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
    let deal = Deal::new(Rules::TAIWAN16, 1, DealContext::FIRST).unwrap();
    let mut obs = vec![0f32; OBS_LEN];
    encode_slice(&deal.view(deal.to_act().unwrap()), &mut obs);
    let mut out = vec![0f32; ACTION_SPACE_SIZE];
    group.throughput(Throughput::Elements(1));
    for (name, kinds) in [("mlp_256_256_kinds_64", 64), ("mlp_256_256", 0)] {
        let policy = policy(&[256, 256], kinds);
        let mut scratch = policy.scratch();
        group.bench_function(format!("{name}_one_observation"), |b| {
            b.iter(|| policy.scores(&obs, &mut scratch, &mut out))
        });
    }
    group.finish();
}

criterion_group!(benches, agent, scores);
criterion_main!(benches);
