//! A duplicate match of search configurations against greedy, for tuning the search on
//! development seeds (the arena of the command line measures the shipped agent).
//!
//! `cargo run --release -p taisim-agents --example search_arena -- WALLS SEED BUDGET MARGIN BELIEF [VARIANT] [THREADS]`
//!
//! BELIEF: `play` (the shipped one), `uniform`, or a cheat for scale, never an agent:
//! `oracle` (the other seats' true hands) or `danger` (play-based fills redrawn until each
//! other seat waits on exactly the seat's own tiles it truly waits on) or `ready` (redrawn
//! until each other seat is ready exactly when it truly is).

use std::sync::Arc;
use std::time::Instant;

use rand_pcg::Pcg64Mcg;
use taisim_agents::search::{Belief, BeliefModel, Sampler, SearchAgent, SearchConfig, TrueHands};
use taisim_agents::{Agent, BuiltinAgent, GreedyAgent};
use taisim_score::Variant;
use taisim_sim::{deal_seed, ActionList, Deal, Fill, Seat, View};

#[path = "common/walls.rs"]
mod walls;
use walls::{across_threads, context, payments, play, Diffs, Outcomes};

#[derive(Default, Clone, Copy)]
struct Tally {
    diffs: Diffs,
    /// The candidate's table's and the reference table's.
    outcomes: [Outcomes; 2],
    decisions: u64,
    search_secs: f64,
}

/// A cheat for scale, never an agent: play-belief fills, redrawn (up to [`DANGER_TRIES`] times) until every
/// other seat waits on exactly the viewer's held kinds it truly waits on (a perfect danger
/// model of the viewer's discards).
/// Fills a danger-oracle sample may draw before it keeps the last one.
const DANGER_TRIES: usize = 64;

struct DangerOracle {
    deal: Deal,
    belief: Belief,
    fill: Fill,
    /// Match each other seat's readiness (shanten 0 or less) instead of its waits.
    readiness: bool,
}

/// The hand rules of seat `o`'s concealed tiles, its melds counted.
fn seat_rules(view: &View<'_>, o: Seat) -> taisim_sim::algo::HandRules {
    taisim_agents::knowledge::hand_rules(view, view.rules().sets - view.melds(o).count() as u8)
}

fn is_ready(view: &View<'_>, o: Seat, hand: &taisim_sim::Hand) -> u64 {
    u64::from(taisim_sim::algo::shanten(hand, seat_rules(view, o)) <= 0)
}

fn held_waits(view: &View<'_>, o: Seat, hand: &taisim_sim::Hand) -> u64 {
    let rules =
        taisim_agents::knowledge::hand_rules(view, view.rules().sets - view.melds(o).count() as u8);
    taisim_sim::algo::waits(hand, rules).0 & view.hand().kinds().0
}

impl Sampler for DangerOracle {
    fn prepare(&mut self, view: &View<'_>, _rng: &mut Pcg64Mcg) {
        self.belief.prepare(view);
    }

    fn sample(&mut self, view: &View<'_>, rng: &mut Pcg64Mcg) -> Option<&Fill> {
        let others: Vec<Seat> = Seat::ALL
            .into_iter()
            .filter(|&o| o != view.seat())
            .collect();
        let key = if self.readiness { is_ready } else { held_waits };
        let truth: Vec<u64> = others
            .iter()
            .map(|&o| key(view, o, self.deal.hand(o)))
            .collect();
        for _ in 0..DANGER_TRIES {
            let f = self.belief.sample(view, rng)?.clone();
            let ok = others
                .iter()
                .zip(&truth)
                .all(|(&o, &t)| key(view, o, &f.hands[o]) == t);
            self.fill = f;
            if ok {
                break;
            }
        }
        Some(&self.fill)
    }
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let walls: u64 = a[1].parse().unwrap();
    let seed: u64 = a[2].parse().unwrap();
    let budget: u32 = a[3].parse().unwrap();
    let margin: f64 = a[4].parse().unwrap();
    let oracle = matches!(a[5].as_str(), "oracle" | "danger" | "ready");
    let danger = matches!(a[5].as_str(), "danger" | "ready");
    let readiness = a[5] == "ready";
    let belief = match a[5].as_str() {
        "uniform" => BeliefModel::Uniform,
        _ => BeliefModel::Play,
    };
    let variant = Arc::new(Variant::builtin(a.get(6).map_or("taiwan16", String::as_str)).unwrap());
    let threads: u64 = a.get(7).map_or(2, |s| s.parse().unwrap());
    let mut config = SearchConfig::with_budget(budget);

    config.margin = margin;
    config.belief = belief;
    let start = Instant::now();
    let tallies = across_threads(walls, threads, |w, tally: &mut Tally| {
        let greedy = || BuiltinAgent::Greedy(GreedyAgent::for_variant(&variant));
        let s = deal_seed(seed, w);
        let ctx = context(s);
        let mut base = [greedy(), greedy(), greedy(), greedy()];
        let mut deal = Deal::new(variant.rules(), s, ctx).unwrap();
        let bp = play(&mut deal, &mut base, &variant);
        let mut diff = 0.0;
        for seat in Seat::ALL {
            let mut agents = [greedy(), greedy(), greedy(), greedy()];
            agents[seat as usize] =
                BuiltinAgent::Search(Box::new(SearchAgent::new(Arc::clone(&variant), config)));
            let mut cdeal = Deal::new(variant.rules(), s, ctx).unwrap();
            let t0 = Instant::now();
            let cp = if oracle {
                let mut search = SearchAgent::new(Arc::clone(&variant), config);
                for (k, a) in agents.iter_mut().enumerate() {
                    a.reset(s, Seat::ALL[k]);
                }
                search.reset(s, seat);
                let mut legal = ActionList::new();
                while let Some(to) = cdeal.to_act() {
                    cdeal.legal_actions(&mut legal);
                    let act = if to == seat && danger {
                        let mut o = DangerOracle {
                            deal: cdeal.clone(),
                            belief: Belief::new(BeliefModel::Play),
                            fill: Fill::default(),
                            readiness,
                        };
                        search.decide_with(&cdeal.view(to), &legal, &mut o)
                    } else if to == seat {
                        // A cheat for scale: the true hands, the wall reshuffled.
                        let mut o = TrueHands::new(&cdeal);
                        search.decide_with(&cdeal.view(to), &legal, &mut o)
                    } else {
                        agents[to as usize].act(&cdeal.view(to), &legal)
                    };
                    cdeal.play(act).unwrap();
                }
                payments(&cdeal, &variant)
            } else {
                play(&mut cdeal, &mut agents, &variant)
            };
            tally.search_secs += t0.elapsed().as_secs_f64();
            tally.decisions += cdeal.discards().iter().filter(|d| d.seat() == seat).count() as u64;
            diff += (cp[seat as usize] - bp[seat as usize]) as f64;
            tally.outcomes[0].count(&cdeal, seat);
            tally.outcomes[1].count(&deal, seat);
        }
        tally.diffs.add(diff / 4.0);
    });
    let mut t = Tally::default();
    for o in tallies {
        t.diffs.merge(o.diffs);
        for (x, y) in t.outcomes.iter_mut().zip(o.outcomes) {
            x.merge(y);
        }
        t.decisions += o.decisions;
        t.search_secs += o.search_secs;
    }
    let n = t.diffs.walls as f64;
    let (mean, se) = t.diffs.mean_se();
    let seats = 4.0 * n;
    let [[win, self_draw, deal_in], [base_win, base_self_draw, base_deal_in]] =
        t.outcomes.map(|o| o.rates(seats));
    println!(
        "budget {budget} margin {margin} belief {} {}: {} walls, mean_diff {mean:+.3} ± {se:.3} (95% [{:+.3}, {:+.3}])  win {:.3}/{:.3} self {:.3}/{:.3} dealin {:.3}/{:.3}  {:.1} ms/turn-ish  {:.0}s",
        a[5],
        variant.name(),
        t.diffs.walls,
        mean - 1.96 * se,
        mean + 1.96 * se,
        win,
        base_win,
        self_draw,
        base_self_draw,
        deal_in,
        base_deal_in,
        1000.0 * t.search_secs / t.decisions.max(1) as f64,
        start.elapsed().as_secs_f64()
    );
}
