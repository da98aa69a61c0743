//! A fixed workload for `valgrind --tool=callgrind`: the score bench's 1,024 winning hands of
//! one variant, scored `REPS` times
//! (or, with `dump`, printed once each). Instruction counts repeat exactly where wall times on a
//! shared machine do not; run with `REPS` 0 and N and divide the difference by N × 1,024 for
//! instructions per hand.
//!
//! `cargo build --release --example score_profile`, then
//! `valgrind --tool=callgrind target/release/examples/score_profile taiwan16 10`.

use std::hint::black_box;

use taisim_score::{score, Variant};
use taisim_sim::algo::warm_up;

#[path = "../benches/common/winning_inputs.rs"]
mod workload;
use workload::winning_inputs;

fn main() {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "taiwan16".into());
    let reps = args.next().unwrap_or_else(|| "1".into());
    warm_up();
    let variant = Variant::builtin(&name).unwrap();
    let inputs = winning_inputs(&variant, 1024);
    // `dump` prints every score, to compare two builds' results hand by hand.
    if reps == "dump" {
        for input in &inputs {
            println!("{:?}", score(input, &variant).unwrap());
        }
        return;
    }
    let reps: usize = reps.parse().expect("REPS: a count or `dump`");
    let mut sum = 0u64;
    for _ in 0..reps {
        for input in &inputs {
            sum += score(black_box(input), &variant).unwrap().total as u64;
        }
    }
    println!("{name}: {reps} × {} hands, total tai {sum}", inputs.len());
}
