//! The `env/` benchmark's loop run standalone, so `valgrind --tool=callgrind` can count the
//! instructions of a single-agent step (criterion's harness would drown them). Its mask scan
//! is a plain byte filter, dearer than the benchmark's word-wise one; count inside
//! `Env::step` (`--toggle-collect`) to leave it out:
//!
//! ```text
//! cargo build --release -p taisim-env --example env_steps
//! valgrind --tool=callgrind target/release/examples/env_steps 100000
//! ```
//!
//! The learner plays a uniformly random legal action against random opponents; the program
//! prints the steps, deals, a checksum of the rewards (two builds that agree on it played the
//! same deals) and the steps per second, the lookup tables' build excluded.

use std::time::Instant;

use taisim_env::{Env, EnvConfig};
use taisim_sim::{bounded, rng_from_seed};

fn main() {
    let steps: u64 = match std::env::args().nth(1).map(|s| s.parse()) {
        None => 100_000,
        Some(Ok(n)) => n,
        Some(Err(e)) => {
            eprintln!("STEPS must be a whole number: {e}");
            std::process::exit(2);
        }
    };
    let config = EnvConfig::with_opponents("random").expect("a built-in agent");
    let mut env = Env::new(&config).expect("the default variant is valid");
    let mut rng = rng_from_seed(0xbe_4c);
    let mut seed = 0u64;
    let mut mask = *env.reset(seed).mask;
    let start = Instant::now();
    let mut reward_sum = 0f64;
    for _ in 0..steps {
        let n = mask.iter().filter(|&&m| m != 0).count() as u32;
        let k = bounded(&mut rng, n) as usize;
        let index = mask
            .iter()
            .enumerate()
            .filter(|(_, &m)| m != 0)
            .nth(k)
            .map(|(i, _)| i)
            .expect("a legal action");
        let step = env.step(index).expect("a masked action is legal");
        reward_sum += step.reward as f64;
        mask = if step.terminated {
            seed += 1;
            *env.reset(seed).mask
        } else {
            *step.observation.mask
        };
    }
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "steps {steps} deals {seed} reward_sum {reward_sum} seconds {seconds:.3} steps/s {:.0}",
        steps as f64 / seconds
    );
}
