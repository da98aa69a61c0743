//! Stepping the environment and writing observations allocate nothing: a counting global
//! allocator watches thousands of single-agent deals (random and greedy opponents), the
//! caller-buffer variants and the AEC form, after a warm-up.

use ndarray::Array2;
use taisim_env::{AecConfig, AecEnv, Env, EnvConfig, ACTION_SPACE_SIZE, OBS_CHANNELS, OBS_WIDTH};
use taisim_sim::{bounded, rng_from_seed};

#[path = "../../sim/tests/support/counting_alloc.rs"]
mod counting_alloc;

#[global_allocator]
static GLOBAL: counting_alloc::Counting = counting_alloc::Counting;

fn pick(mask: &[u8], rng: &mut rand_pcg::Pcg64Mcg) -> usize {
    let n = mask.iter().filter(|&&m| m == 1).count() as u32;
    let k = bounded(rng, n) as usize;
    mask.iter()
        .enumerate()
        .filter(|(_, &m)| m == 1)
        .nth(k)
        .unwrap()
        .0
}

/// Plays `deals` deals through `Env::reset`/`Env::step` and through the caller-buffer
/// variants; returns the learner steps.
fn run(env: &mut Env, deals: std::ops::Range<u64>, obs: &mut Array2<f32>, mask: &mut [u8]) -> u64 {
    let mut rng = rng_from_seed(deals.start);
    let mut steps = 0;
    for seed in deals {
        if seed % 2 == 0 {
            let mut m = *env.reset(seed).mask;
            loop {
                let s = env.step(pick(&m, &mut rng)).unwrap();
                steps += 1;
                if s.terminated {
                    break;
                }
                m = *s.observation.mask;
            }
        } else {
            env.reset_into(seed, obs.view_mut(), mask).unwrap();
            loop {
                let a = pick(mask, &mut rng);
                steps += 1;
                if env.step_into(a, obs.view_mut(), mask).unwrap().terminated {
                    break;
                }
            }
        }
    }
    steps
}

fn run_aec(
    env: &mut AecEnv,
    deals: std::ops::Range<u64>,
    obs: &mut Array2<f32>,
    mask: &mut [u8],
) -> u64 {
    let mut rng = rng_from_seed(deals.start);
    let mut steps = 0;
    for seed in deals {
        env.reset(seed);
        while env.agent_selection().is_some() {
            let last = env.last(obs.view_mut(), mask).unwrap();
            let action = (!last.terminated).then(|| pick(mask, &mut rng));
            env.step(action).unwrap();
            steps += 1;
        }
    }
    steps
}

#[test]
fn no_heap_allocation_per_step() {
    let start = counting_alloc::allocations();
    std::hint::black_box(vec![0u8; 64]);
    assert!(counting_alloc::allocations() > start, "the counter counts");

    let mut obs = Array2::<f32>::zeros((OBS_CHANNELS, OBS_WIDTH));
    let mut mask = vec![0u8; ACTION_SPACE_SIZE];
    let mut random = Env::new(&EnvConfig::with_opponents("random").unwrap()).unwrap();
    let mut mixed =
        Env::new(&EnvConfig::with_opponents("greedy,defensive,random,greedy").unwrap()).unwrap();
    let mut aec = AecEnv::new(AecConfig::default()).unwrap();
    // Taizhou: the wild row and the opponents' wild-aware measures.
    let mut taizhou = Env::new(&EnvConfig {
        opponents: taisim_agents::parse_agents("greedy,defensive,random,greedy").unwrap(),
        ..EnvConfig::from_variant(
            taisim_score::Variant::builtin("taizhou").unwrap(),
            taisim_env::RewardKind::WinLoss,
        )
    })
    .unwrap();
    run(&mut random, 0..20, &mut obs, &mut mask);
    run(&mut mixed, 0..20, &mut obs, &mut mask);
    run_aec(&mut aec, 0..20, &mut obs, &mut mask);
    run(&mut taizhou, 0..20, &mut obs, &mut mask);

    let before = counting_alloc::allocations();
    let steps = run(&mut random, 20..3_020, &mut obs, &mut mask)
        + run(&mut mixed, 20..320, &mut obs, &mut mask)
        + run_aec(&mut aec, 20..320, &mut obs, &mut mask)
        + run(&mut taizhou, 20..220, &mut obs, &mut mask);
    let after = counting_alloc::allocations();
    assert!(steps > 50_000, "{steps}");
    assert_eq!(
        after - before,
        0,
        "{} allocations over {steps} steps",
        after - before
    );
}
