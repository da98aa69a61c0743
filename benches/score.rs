//! Scoring throughput: every winning hand of seeded deals (played by a greedy policy that
//! takes any win and otherwise discards to the lowest shanten), scored under each shipped
//! variant: all decompositions, all placements of the winning tile, all patterns. The
//! per-hand time is the reported time divided by the batch size printed at start.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use taisim_score::{score, Variant};
use taisim_sim::algo::warm_up;

#[path = "common/winning_inputs.rs"]
mod workload;
use workload::winning_inputs;

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
