//! The search agent's cost a decision in real play: greedy self-play deals in which one seat
//! (East, South, West, North in turn) is the search agent, every decision of that seat with a
//! choice timed in the thread's own CPU time, so other processes on a shared machine do not
//! inflate it, and in wall-clock time (for a search on several threads, `threads=N`, whose
//! helpers' CPU time the calling thread's does not count). Prints the mean, median, 99th
//! percentile and maximum in milliseconds.
//!
//! `cargo run --release -p taisim-agents --example search_timing -- [AGENT] [VARIANT] [DEALS] [SEED]`
//! (defaults: `search taiwan16 50 1`).
//!
//! With `rollouts` for AGENT it measures rollouts instead: at every decision with a choice in
//! those deals (greedy self-play), one determinization from the search's belief is played
//! to its end by greedy in every seat and scored, and the rollouts a CPU second are printed
//! (the determinizations are drawn outside the timed part).

use std::sync::Arc;

use taisim_agents::search::{rollout, Belief, BeliefModel, RolloutPolicy};
use taisim_agents::{Agent, AgentSpec, BuiltinAgent, GreedyAgent};
use taisim_score::Variant;
use taisim_sim::{deal_seed, rng_from_seed, ActionList, Deal, DealContext, Seat, View};

fn thread_cpu_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to write.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// Times every decision with a choice of the agent it wraps: the calling thread's CPU time,
/// and the wall-clock time (what a search on several threads, `threads=N`, saves).
struct Timed {
    inner: BuiltinAgent,
    millis: Vec<f64>,
    wall_millis: Vec<f64>,
}

impl Agent for Timed {
    fn reset(&mut self, seed: u64, seat: Seat) {
        self.inner.reset(seed, seat);
    }

    fn act(&mut self, view: &View<'_>, legal: &ActionList) -> taisim_sim::Action {
        if legal.len() < 2 {
            return self.inner.act(view, legal);
        }
        let start = thread_cpu_seconds();
        let wall = std::time::Instant::now();
        let a = self.inner.act(view, legal);
        self.millis.push((thread_cpu_seconds() - start) * 1e3);
        self.wall_millis.push(wall.elapsed().as_secs_f64() * 1e3);
        a
    }

    fn name(&self) -> &str {
        self.inner.name()
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("rollouts") {
        return rollouts(&args);
    }
    let spec: AgentSpec = args
        .get(1)
        .map_or("search", String::as_str)
        .parse()
        .expect("agent");
    let variant_name = args.get(2).map_or("taiwan16", String::as_str);
    let deals: u64 = args.get(3).map_or(50, |s| s.parse().expect("deals"));
    let seed: u64 = args.get(4).map_or(1, |s| s.parse().expect("seed"));
    let variant = Arc::new(Variant::by_name_or_path(variant_name).expect("variant"));
    let mut greedy = GreedyAgent::for_variant(&variant);
    let mut timed = Timed {
        inner: spec.build(&variant).expect("agent"),
        millis: Vec::new(),
        wall_millis: Vec::new(),
    };
    let mut legal = ActionList::new();
    for i in 0..deals {
        let searcher = Seat::ALL[(i % 4) as usize];
        let mut deal =
            Deal::new(variant.rules(), deal_seed(seed, i), DealContext::FIRST).expect("deal");
        timed.reset(deal.seed(), searcher);
        while let Some(seat) = deal.to_act() {
            deal.legal_actions(&mut legal);
            let view = deal.view(seat);
            let action = if seat == searcher {
                timed.act(&view, &legal)
            } else {
                greedy.act(&view, &legal)
            };
            deal.play(action).expect("a legal action");
        }
    }
    let n = timed.millis.len();
    let summary = |millis: &mut Vec<f64>| {
        millis.sort_by(f64::total_cmp);
        let mean = millis.iter().sum::<f64>() / n.max(1) as f64;
        let at = |q: f64| millis[((n as f64 - 1.0) * q).round() as usize];
        format!(
            "mean {mean:.1} ms, median {:.1}, p99 {:.1}, max {:.1}",
            at(0.5),
            at(0.99),
            at(1.0)
        )
    };
    println!(
        "{spec} {variant_name}: {deals} deals, {n} decisions with a choice: {} (thread CPU time); {} (wall)",
        summary(&mut timed.millis),
        summary(&mut timed.wall_millis)
    );
}

fn rollouts(args: &[String]) {
    let variant_name = args.get(2).map_or("taiwan16", String::as_str);
    let deals: u64 = args.get(3).map_or(50, |s| s.parse().expect("deals"));
    let seed: u64 = args.get(4).map_or(1, |s| s.parse().expect("seed"));
    let variant = Arc::new(Variant::by_name_or_path(variant_name).expect("variant"));
    let mut greedy = GreedyAgent::for_variant(&variant);
    let mut belief = Belief::new(BeliefModel::Play);
    let mut rng = rng_from_seed(seed);
    let mut positions = Vec::new();
    let mut legal = ActionList::new();
    for i in 0..deals {
        let mut deal =
            Deal::new(variant.rules(), deal_seed(seed, i), DealContext::FIRST).expect("deal");
        while let Some(seat) = deal.to_act() {
            deal.legal_actions(&mut legal);
            let view = deal.view(seat);
            if legal.len() > 1 {
                belief.prepare(&view);
                // A flower robbed before the first turn is never searched nor redealt.
                if let Some(Ok(redealt)) = belief.sample(&view, &mut rng).map(|f| view.redeal(f)) {
                    positions.push((redealt, seat));
                }
            }
            let action = greedy.act(&view, &legal);
            deal.play(action).expect("a legal action");
        }
    }
    let start = thread_cpu_seconds();
    let mut total = 0i64;
    for (deal, seat) in &mut positions {
        total += rollout(deal, *seat, &variant, RolloutPolicy::Greedy);
    }
    let seconds = thread_cpu_seconds() - start;
    println!(
        "rollouts {variant_name}: {} from the decisions of {deals} deals in {seconds:.3} s of thread CPU time: {:.0} a second, {:.1} µs each (points sum {total})",
        positions.len(),
        positions.len() as f64 / seconds,
        seconds * 1e6 / positions.len() as f64
    );
}
