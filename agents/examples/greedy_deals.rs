//! Plays seeded deals with built-in agents under a shipped variant, scores each finished
//! deal, and prints a hash of every action taken: a throughput driver for profiling the
//! greedy agent (`valgrind --tool=callgrind`) and a check that a change to an agent keeps
//! its decisions (the hash must not move).
//!
//! ```text
//! cargo run --release -p taisim-agents --example greedy_deals -- [VARIANT] [DEALS] [AGENTS]
//! ```
//!
//! `VARIANT` is a shipped variant or `all` (default `taiwan16`), `DEALS` per variant
//! (default 1000), `AGENTS` as `--agents` spells them (default `greedy`).

use std::hash::{Hash, Hasher};
use std::time::Instant;

use taisim_agents::{build_agents, parse_agents, Agent};
use taisim_score::{score_deal, Variant};
use taisim_sim::{ActionList, Deal, DealContext, Seat, Wind};

/// FNV-1a: cheap next to a decision, and the same on every platform.
struct Fnv(u64);

impl Hasher for Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let variant = args.get(1).map_or("taiwan16", String::as_str);
    let deals: u64 = args.get(2).map_or(1000, |s| s.parse().expect("DEALS"));
    let agents = args.get(3).map_or("greedy", String::as_str);
    let names: Vec<&str> = if variant == "all" {
        Variant::names().to_vec()
    } else {
        vec![variant]
    };
    let specs = parse_agents(agents).expect("AGENTS");
    let variant = std::sync::Arc::new(Variant::builtin(Variant::DEFAULT).expect("variant"));
    let mut agents = build_agents(&specs, &variant).expect("agents");
    taisim_sim::algo::warm_up();
    let mut legal = ActionList::new();
    let mut hash = Fnv(0xcbf2_9ce4_8422_2325);
    let mut steps = 0u64;
    let mut tai = 0u64;
    let start = Instant::now();
    for name in &names {
        let variant = Variant::builtin(name).expect("variant");
        let rules = variant.rules();
        for seed in 0..deals {
            let context = DealContext {
                round_wind: Wind::East,
                dealer: Wind::new((seed % 4) as u8),
                streak: (seed % 3) as u8,
            };
            let mut deal = Deal::new(rules, seed, context).expect("deal");
            for seat in Seat::ALL {
                agents[seat as usize].reset(deal.seed(), seat);
            }
            while let Some(seat) = deal.to_act() {
                deal.legal_actions(&mut legal);
                let action = agents[seat as usize].act(&deal.view(seat), &legal);
                action.hash(&mut hash);
                deal.play(action).expect("a legal action");
                steps += 1;
            }
            let scored = score_deal(&deal, &variant, 0, 1).expect("score");
            tai += scored.wins.iter().map(|(_, s)| s.total as u64).sum::<u64>();
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let total = deals * names.len() as u64;
    println!(
        "{} x {deals} deals, {steps} decisions, {tai} tai won, action hash {:016x}; \
         {:.0} deals/s",
        names.join(","),
        hash.finish(),
        total as f64 / secs
    );
}
