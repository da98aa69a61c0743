//! `VecEnv` throughput without Python: steps a batch of environments with uniformly random
//! legal actions (drawn on the calling thread between steps, as a Python loop would) and
//! prints the agent steps per second, for measuring how stepping scales with threads:
//!
//! ```text
//! cargo build --release -p taisim-env --example vec_steps
//! target/release/examples/vec_steps 256 2000          # the default: one thread per core
//! target/release/examples/vec_steps 256 2000 4        # 4 threads, the caller's included
//! ```
//!
//! Arguments: environments (default 256), batched steps to time (default 2000), threads
//! (default: rayon's width). The output's reward checksum is the same for any thread count.

use std::time::Instant;

use taisim_env::{EnvConfig, VecEnv};
use taisim_sim::{bounded, rng_from_seed};

fn arg(i: usize, name: &str) -> Option<usize> {
    let text = std::env::args().nth(i)?;
    match text.parse::<usize>() {
        Ok(n) if n > 0 => Some(n),
        _ => {
            eprintln!("{name} must be a positive whole number, got {text:?}");
            std::process::exit(2);
        }
    }
}

fn main() {
    let num_envs = arg(1, "ENVS").unwrap_or(256);
    let batches = arg(2, "STEPS").unwrap_or(2000);
    let threads = arg(3, "THREADS");
    let config = EnvConfig::with_opponents("random").expect("a built-in agent");
    let mut envs = match threads {
        Some(t) => VecEnv::with_threads(num_envs, &config, t),
        None => VecEnv::new(num_envs, &config),
    }
    .expect("the default variant is valid");
    let mut rng = rng_from_seed(0x7ec);
    let mut actions = vec![0usize; num_envs];
    envs.reset(0);
    let mut reward_sum = 0f64;
    let mut play = |envs: &mut VecEnv, rewards: &mut f64| {
        let masks = envs.masks();
        for (i, a) in actions.iter_mut().enumerate() {
            let row = masks.row(i);
            let row = row.as_slice().expect("a standard layout row");
            let n = row.iter().filter(|&&m| m != 0).count() as u32;
            let k = bounded(&mut rng, n) as usize;
            *a = (0..row.len())
                .filter(|&j| row[j] != 0)
                .nth(k)
                .expect("a legal action");
        }
        let step = envs.step(&actions).expect("masked actions are legal");
        *rewards += step.rewards.iter().map(|&r| r as f64).sum::<f64>();
    };
    for _ in 0..50 {
        play(&mut envs, &mut reward_sum);
    }
    let start = Instant::now();
    for _ in 0..batches {
        play(&mut envs, &mut reward_sum);
    }
    let seconds = start.elapsed().as_secs_f64();
    let steps = (batches * num_envs) as f64;
    println!(
        "envs {num_envs} threads {} steps {steps} reward_sum {reward_sum} seconds {seconds:.3} steps/s {:.0}",
        threads.map_or_else(|| format!("default({})", rayon::current_num_threads()), |t| t.to_string()),
        steps / seconds
    );
}
