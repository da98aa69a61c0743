//! Two agents compared head to head on the same walls, each in turn in every seat against
//! greedy in the other three: the paired difference of the two tables' points (B − A) a seat
//! and wall, for telling apart two search settings whose difference the arena's noise hides.
//! Where both agents make the same decisions their tables end alike and the difference is
//! exactly zero, so the noise comes only from the deals where they part.
//!
//! `cargo run --release -p taisim-agents --example search_pair -- WALLS SEED A B [VARIANT] [THREADS]`
//!
//! A and B are agent names as the command line takes them (`search`, `search:2048:indifference=0.05`).
//! Wall `i` is dealt from `(SEED, i)`, its round wind and dealer from the deal's seed, as in
//! `search_arena`; walls are shared among the threads by index, so the result does not
//! depend on THREADS.

use std::sync::Arc;
use std::time::Instant;

use taisim_agents::{AgentSpec, BuiltinAgent, GreedyAgent};
use taisim_score::Variant;
use taisim_sim::{deal_seed, Deal, Seat};

#[path = "common/walls.rs"]
mod walls;
use walls::{across_threads, context, play, Diffs, Outcomes};

/// One agent's side of the match.
#[derive(Default, Clone, Copy)]
struct Side {
    points: f64,
    outcomes: Outcomes,
    decisions: u64,
    secs: f64,
}

#[derive(Default, Clone, Copy)]
struct Tally {
    /// The walls' mean difference (B − A) a seat.
    diffs: Diffs,
    /// Seat-walls whose two tables ended differently.
    parted: u64,
    sides: [Side; 2],
}

/// `value` read as `what` (the argument `name`), or the process ends with status 2 naming it.
fn parse<T: std::str::FromStr>(value: &str, name: &str, what: &str) -> T
where
    T::Err: std::fmt::Display,
{
    value.parse().unwrap_or_else(|e| {
        eprintln!("search_pair: {name} must be {what}; got {value:?} ({e})");
        std::process::exit(2)
    })
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 5 {
        eprintln!("usage: search_pair WALLS SEED A B [VARIANT] [THREADS]");
        std::process::exit(2);
    }
    let walls: u64 = parse(&a[1], "WALLS", "a whole number of walls");
    let seed: u64 = parse(&a[2], "SEED", "a whole number from 0 to 2^64 - 1");
    let specs: [AgentSpec; 2] = [
        parse(&a[3], "A", "an agent name"),
        parse(&a[4], "B", "an agent name"),
    ];
    let name = a.get(5).map_or("taiwan16", String::as_str);
    let variant = Arc::new(Variant::builtin(name).unwrap_or_else(|e| {
        eprintln!("search_pair: VARIANT {name:?}: {e}");
        std::process::exit(2)
    }));
    let threads: u64 = a
        .get(6)
        .map_or(2, |s| parse(s, "THREADS", "a whole number"));
    if walls < 2 || threads == 0 {
        eprintln!("search_pair: WALLS must be 2 or more (a standard error needs two) and THREADS 1 or more");
        std::process::exit(2);
    }
    let start = Instant::now();
    let tallies = across_threads(walls, threads, |w, tally: &mut Tally| {
        let greedy = || BuiltinAgent::Greedy(GreedyAgent::for_variant(&variant));
        let s = deal_seed(seed, w);
        let ctx = context(s);
        let mut diff = 0.0;
        for seat in Seat::ALL {
            let mut points = [0i64; 2];
            let mut ends = [0; 2];
            for (k, spec) in specs.iter().enumerate() {
                let mut agents = [greedy(), greedy(), greedy(), greedy()];
                agents[seat as usize] = spec.build(&variant).unwrap();
                let mut deal = Deal::new(variant.rules(), s, ctx).unwrap();
                let t0 = Instant::now();
                let paid = play(&mut deal, &mut agents, &variant)[seat as usize];
                let side = &mut tally.sides[k];
                side.secs += t0.elapsed().as_secs_f64();
                side.decisions +=
                    deal.discards().iter().filter(|d| d.seat() == seat).count() as u64;
                points[k] = paid;
                side.points += paid as f64;
                side.outcomes.count(&deal, seat);
                ends[k] = deal.discards().len();
            }
            tally.parted += u64::from(points[0] != points[1] || ends[0] != ends[1]);
            diff += (points[1] - points[0]) as f64;
        }
        tally.diffs.add(diff / 4.0);
    });
    let mut t = Tally::default();
    for o in tallies {
        t.diffs.merge(o.diffs);
        t.parted += o.parted;
        for (s, x) in t.sides.iter_mut().zip(o.sides) {
            s.points += x.points;
            s.outcomes.merge(x.outcomes);
            s.decisions += x.decisions;
            s.secs += x.secs;
        }
    }
    let n = t.diffs.walls as f64;
    let (mean, se) = t.diffs.mean_se();
    let seats = 4.0 * n;
    println!(
        "{} − {} under {}: {} walls (seed {seed}), mean diff a seat {mean:+.4} ± {se:.4} (95% [{:+.4}, {:+.4}]), {} of {} seat-walls parted, {:.0} s",
        specs[1],
        specs[0],
        variant.name(),
        t.diffs.walls,
        mean - 1.96 * se,
        mean + 1.96 * se,
        t.parted,
        4 * t.diffs.walls,
        start.elapsed().as_secs_f64()
    );
    for (spec, s) in specs.iter().zip(t.sides) {
        let [win, self_draw, deal_in] = s.outcomes.rates(seats);
        println!(
            "  {spec}: points a seat {:+.4}, win {win:.4}, self-draw {self_draw:.4}, deal-in {deal_in:.4}, {:.1} ms a discard",
            s.points / seats,
            1000.0 * s.secs / s.decisions.max(1) as f64,
        );
    }
}
