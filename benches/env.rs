//! Environment throughput: learner steps per second of the single-agent environment with
//! random opponents (the learner plays a uniformly random masked legal action, as a
//! random-policy rollout does), and of a 256-environment `VecEnv`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use taisim_env::obs::encode_slice;
use taisim_env::{Env, EnvConfig, VecEnv, OBS_LEN};
use taisim_sim::{bounded, rng_from_seed};

/// A uniformly random index among the mask's ones; `draw(n)` is uniform in `0..n`. Reads
/// the 0/1 bytes eight at a time (as a numpy policy would vectorise it) so the benchmark
/// times the environment rather than a byte loop.
#[inline]
fn pick(mask: &[u8], draw: impl FnOnce(u32) -> u32) -> usize {
    let word = |i: usize| u64::from_le_bytes(mask[8 * i..8 * i + 8].try_into().unwrap());
    let words = mask.len() / 8;
    let n: u32 = (0..words).map(|i| word(i).count_ones()).sum();
    let mut k = draw(n);
    for i in 0..words {
        let w = word(i);
        let c = w.count_ones();
        if k < c {
            let byte = (0..8)
                .filter(|b| (w >> (8 * b)) & 1 == 1)
                .nth(k as usize)
                .unwrap();
            return 8 * i + byte;
        }
        k -= c;
    }
    unreachable!("the mask has {n} ones")
}

fn single(c: &mut Criterion) {
    let mut group = c.benchmark_group("env");
    const BATCH: u64 = 10_000;
    group.throughput(Throughput::Elements(BATCH));
    let mut env = Env::new(&EnvConfig::with_opponents("random").unwrap()).unwrap();
    let mut rng = rng_from_seed(0xbe_4c);
    let mut seed = 0u64;
    let mut mask = *env.reset(seed).mask;
    group.bench_function("single_agent_random_opponents_10000_steps", |b| {
        b.iter(|| {
            for _ in 0..BATCH {
                let step = env.step(pick(&mask, |n| bounded(&mut rng, n))).unwrap();
                mask = if step.terminated {
                    seed += 1;
                    *env.reset(seed).mask
                } else {
                    *step.observation.mask
                };
            }
        })
    });
    group.finish();
}

fn vectorised(c: &mut Criterion) {
    let mut group = c.benchmark_group("vec_env");
    const N: usize = 256;
    const STEPS: u64 = 20;
    group.throughput(Throughput::Elements(N as u64 * STEPS));
    let config = EnvConfig::with_opponents("random").unwrap();
    for threads in [1, 0] {
        let mut envs = if threads == 0 {
            VecEnv::new(N, &config).unwrap()
        } else {
            VecEnv::with_threads(N, &config, threads).unwrap()
        };
        envs.reset(0);
        let mut rng = rng_from_seed(0x7ec);
        let mut actions = vec![0usize; N];
        let name = if threads == 0 {
            format!("256_envs_{}_threads_20_steps", rayon::current_num_threads())
        } else {
            format!("256_envs_{threads}_thread_20_steps")
        };
        group.bench_function(name, |b| {
            b.iter(|| {
                for _ in 0..STEPS {
                    let masks = envs.masks();
                    for (i, a) in actions.iter_mut().enumerate() {
                        *a = pick(masks.row(i).as_slice().unwrap(), |n| bounded(&mut rng, n));
                    }
                    envs.step(&actions).unwrap();
                }
            })
        });
    }
    group.finish();
}

/// The observation encoder alone, on positions from the middle and end of random deals.
fn encoder(c: &mut Criterion) {
    let mut group = c.benchmark_group("obs");
    let mut env = Env::new(&EnvConfig::with_opponents("random").unwrap()).unwrap();
    let mut rng = rng_from_seed(3);
    let mut positions = Vec::new();
    for seed in 0..64 {
        let mut mask = *env.reset(seed).mask;
        let mut k = 0;
        loop {
            if k % 7 == 3 {
                positions.push(env.deal().clone());
            }
            k += 1;
            let step = env.step(pick(&mask, |n| bounded(&mut rng, n))).unwrap();
            if step.terminated {
                break;
            }
            mask = *step.observation.mask;
        }
    }
    let mut out = vec![0f32; OBS_LEN];
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function(format!("encode_{}_positions", positions.len()), |b| {
        b.iter(|| {
            for deal in &positions {
                let seat = deal.to_act().unwrap();
                encode_slice(&deal.view(seat), &mut out);
            }
        })
    });
    group.finish();
}

criterion_group!(benches, single, vectorised, encoder);
criterion_main!(benches);
