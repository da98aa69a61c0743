//! A fixed workload for `valgrind --tool=callgrind`: the score bench's 1,024 winning hands of
//! one variant, scored `REPS` times
//! (or, with `dump`, printed once each). Instruction counts repeat exactly where wall times on a
//! shared machine do not; run with `REPS` 0 and N and divide the difference by N × 1,024 for
//! instructions per hand.
//!
//! `cargo build --release --example score_profile`, then
//! `valgrind --tool=callgrind target/release/examples/score_profile taiwan16 10`.

use std::hint::black_box;

use taisim_sim::algo::{shanten, warm_up};
use taisim_sim::score::{score, Variant, WinInput};
use taisim_sim::{bounded, rng_from_seed, Action, ActionList, Deal, DealContext, Wind};

/// Winning inputs from deals played under `variant`'s rules, as in `benches/score.rs`.
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
