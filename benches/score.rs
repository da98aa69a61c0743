//! Scoring throughput: every winning hand of seeded deals (played by a greedy policy that
//! takes any win and otherwise discards to the lowest shanten), scored under each shipped
//! variant: all decompositions, all placements of the winning tile, all patterns. The
//! per-hand time is the reported time divided by the batch size printed at start.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use taisim_sim::algo::{shanten, warm_up};
use taisim_sim::score::{score, Variant, WinInput};
use taisim_sim::{bounded, rng_from_seed, Action, ActionList, Deal, DealContext, Wind};

/// Winning inputs from deals played under `variant`'s rules.
fn winning_inputs(variant: &Variant, want: usize) -> Vec<WinInput> {
    let mut out = Vec::new();
    let mut actions = ActionList::new();
    let mut seed = 0u64;
    while out.len() < want {
        let context = DealContext {
            round_wind: Wind::East,
            dealer: Wind::new(seed as u8),
            streak: (seed % 3) as u8,
        };
        let mut deal = Deal::new(variant.rules(), seed, context).unwrap();
        let mut rng = rng_from_seed(seed);
        while !deal.is_over() {
            deal.legal_actions(&mut actions);
            let win = actions
                .iter()
                .copied()
                .find(|a| matches!(a, Action::Win | Action::SelfDrawWin));
            let a = win.unwrap_or_else(|| {
                let seat = deal.to_act().unwrap();
                let sets = deal.rules().sets - deal.melds(seat).len() as u8;
                let discards = actions.iter().filter_map(|&a| match a {
                    Action::Discard(t) => {
                        let mut h = *deal.hand(seat);
                        h.remove(t);
                        Some((shanten(&h, sets), a))
                    }
                    _ => None,
                });
                discards
                    .min_by_key(|&(s, _)| s)
                    .map(|(_, a)| a)
                    .unwrap_or_else(|| actions[bounded(&mut rng, actions.len() as u32) as usize])
            });
            deal.play(a).unwrap();
        }
        let result = deal.result().unwrap();
        for seat in result.winners.iter() {
            if let Some(input) = WinInput::from_deal(&deal, seat) {
                if !input.context.flower_win {
                    out.push(input);
                }
            }
        }
        seed += 1;
    }
    out.truncate(want);
    out
}

fn bench(c: &mut Criterion) {
    warm_up();
    const BATCH: usize = 1024;
    let mut group = c.benchmark_group("score");
    group.throughput(Throughput::Elements(BATCH as u64));
    for name in Variant::names() {
        let variant = Variant::builtin(name).unwrap();
        let inputs = winning_inputs(&variant, BATCH);
        // Every hand must score: a failure here would time the error path instead.
        let total: u64 = inputs
            .iter()
            .map(|i| score(i, &variant).unwrap().total as u64)
            .sum();
        eprintln!(
            "{name}: {} winning hands from simulated deals, mean {:.1} tai",
            inputs.len(),
            total as f64 / inputs.len() as f64
        );
        // Best of many batches: robust to other work on a shared machine.
        let best = (0..200)
            .map(|_| {
                let t = std::time::Instant::now();
                let mut sum = 0u32;
                for input in &inputs {
                    sum += score(black_box(input), &variant).unwrap().total as u32;
                }
                black_box(sum);
                t.elapsed().as_nanos() as f64 / inputs.len() as f64
            })
            .fold(f64::INFINITY, f64::min);
        eprintln!("{name}: best batch {best:.0} ns per hand");
        group.bench_function(format!("{name}/{BATCH}_hands"), |b| {
            b.iter(|| {
                let mut sum = 0u32;
                for input in &inputs {
                    sum += score(black_box(input), &variant).unwrap().total as u32;
                }
                black_box(sum)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
