//! Do the search's departures from greedy gain in the true state? At every decision of greedy
//! self-play where the search (its own belief) plays another action than greedy's, both
//! actions are played on FILLS fills of the true hidden state ([`TrueHands`]: the other seats'
//! real hands, the wall reshuffled), paired, with greedy in every seat after: each departure's
//! true advantage (one step away from greedy, greedy after), against the search's estimate,
//! by kind of departure and by the size of the estimate. A development study: the true
//! state is read only to judge, never to decide.
//!
//! `cargo run --release -p taisim-agents --example search_truth -- DEALS SEED BUDGET FILLS [VARIANT [MARGIN [FIRST [INDIFFERENCE [PRUNE [ROLLOUT]]]]]]`
//! (MARGIN, FIRST and INDIFFERENCE: the search's margin, its racing's first round and the gain
//! its racing deems worth having; defaults 1, 64 and 0.2; PRUNE `all` searches every legal
//! action instead of the prior's candidates; ROLLOUT `fast` plays the cheaper rollouts).
//! The report names the search as tuned (`search:2048:indifference=0.05`).
//!
//! BUDGET may instead name a tuned search as the command line does
//! (`search:2048:indifference=0.05`: its settings, then any of MARGIN... given after it), or
//! any other agent (`policy:student.safetensors`,
//! `trained`, `defensive`): its departures from greedy are judged the same way, with an
//! estimate of 0 (such an agent gives none). A distilled student is judged so in seconds
//! where the arena needs thousands of walls to see the same gain.
//!
//! The true-state fills of a decision are drawn from a generator seeded by the decision
//! alone (the deal's seed and the decision's place in it), so a departure that two settings
//! share is judged on the same fills, to the same figure: two runs' totals differ only by the
//! departures they do not share (common random numbers across runs).
//!
//! `--departures PATH` (anywhere among the arguments) writes every departure to PATH as CSV
//! (`deal,decision,phase,chosen,default,estimate,truth`), and
//! `--wins-only` judges only the decisions that offer a win (the search searches them unless
//! its name says `wins=take`): what letting a win go for a later one is worth, in seconds.
//! `--on-search` judges the search on its own trajectory instead, on the arena's walls: wall
//! `i` of SEED dealt as `taisim arena --seed SEED` deals it (its round and dealer drawn from
//! its seed; `--first-wall N` starts at wall N), played four times, each seat in turn playing
//! the search's choice at each of its decisions (the other seats greedy), and each of its
//! departures judged as above. By the performance-difference identity the judged gains' sum
//! is then, in expectation, what the seat's points gain over greedy's in the same seat of the
//! same walls: the arena's mean_diff, which the report gives too, realized and far noisier.
//! On greedy's trajectory the sum is the departures' worth in the states greedy reaches
//! (under the first deal's round and dealer), not what the search would gain. With
//! `--wins-only` the seat plays greedy except at a win offered. `compare` pairs runs on
//! greedy's trajectory only (on the search's own, two settings reach different decisions).
//! `search_truth compare A.csv B.csv DEALS` pairs two such runs of the same deals decision
//! by decision: the first's gain over the second a seat and deal, with its standard error
//! over the decisions (a decision both runs left alike, or departed from alike, adds exactly
//! nothing), overall and by phase.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::sync::Arc;

#[path = "common/greedy_choices.rs"]
mod greedy_choices;
use greedy_choices::for_each_choice;

use rand_pcg::Pcg64Mcg;
use taisim_agents::knowledge::{hand_rules, sets_needed};
use taisim_agents::search::{
    rollout, RolloutPolicy, Sampler, SearchAgent, SearchConfig, TrueHands,
};
use taisim_agents::{Agent, AgentSpec, BuiltinAgent, GreedyAgent, SearchSpec, SEARCH_SETTINGS};
use taisim_score::{score_deal, Variant};
use taisim_sim::algo::Discards;
use taisim_sim::{deal_seed, rng_from_seed, Action, ActionList, Deal, DealContext, Seat, View};

/// The points of `actions[0]` less those of `actions[1]` at the decision of `view`, both
/// played on the same fill.
fn paired(
    view: &View<'_>,
    fill: &taisim_sim::Fill,
    seat: Seat,
    actions: [Action; 2],
    variant: &Variant,
) -> Option<f64> {
    let mut base = view.redeal(fill).ok()?;
    let mut greedy = GreedyAgent::for_variant(variant);
    let mut legal = ActionList::new();
    // Seats asked before this one about a discard answer as greedy would.
    while let Some(s) = base.to_act() {
        if s == seat {
            break;
        }
        let a = greedy.act_in(&base, s, &mut legal);
        base.play(a).ok()?;
    }
    if base.to_act() != Some(seat) {
        return Some(0.0);
    }
    let mut points = [0.0; 2];
    for (p, &a) in points.iter_mut().zip(&actions) {
        let mut deal = base.clone();
        deal.play(a).ok()?;
        *p = rollout(&mut deal, seat, variant, RolloutPolicy::Greedy) as f64;
    }
    Some(points[0] - points[1])
}

#[derive(Default)]
struct Group {
    n: f64,
    est: f64,
    truth: f64,
    truth_sq: f64,
}

impl Group {
    fn add(&mut self, est: f64, truth: f64) {
        self.n += 1.0;
        self.est += est;
        self.truth += truth;
        self.truth_sq += truth * truth;
    }

    fn line(&self, name: &str, searched: f64) {
        let m = self.truth / self.n.max(1.0);
        let var = (self.truth_sq / self.n.max(1.0) - m * m).max(0.0);
        println!(
            "{name:44} {:6}  estimate {:+.3}  true {:+.4} ± {:.4}  per searched decision {:+.5}",
            self.n,
            self.est / self.n.max(1.0),
            m,
            (var / self.n.max(1.0)).sqrt(),
            self.truth / searched
        );
    }
}

fn main() {
    let mut a: Vec<String> = std::env::args().collect();
    if a.get(1).map(String::as_str) == Some("compare") {
        return compare(&a[2], &a[3], a[4].parse().unwrap());
    }
    let mut departures_csv = a.iter().position(|x| x == "--departures").map(|i| {
        let path = a.remove(i + 1);
        a.remove(i);
        let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        writeln!(file, "deal,decision,phase,chosen,default,estimate,truth").unwrap();
        file
    });
    let wins_only = a.iter().any(|x| x == "--wins-only");
    let on_search = a.iter().any(|x| x == "--on-search");
    a.retain(|x| x != "--wins-only" && x != "--on-search");
    let first_wall: u64 = a.iter().position(|x| x == "--first-wall").map_or(0, |i| {
        let n = a.remove(i + 1);
        a.remove(i);
        n.parse().unwrap()
    });
    let deals: u64 = a[1].parse().unwrap();
    let seed: u64 = a[2].parse().unwrap();
    let judged = &a[3];
    let fills: u32 = a[4].parse().unwrap();
    let variant = Arc::new(Variant::builtin(a.get(5).map_or("taiwan16", String::as_str)).unwrap());
    // A number, or a search's name with its settings.
    let named: Option<SearchSpec> = judged
        .parse::<u32>()
        .ok()
        .map(SearchSpec::with_budget)
        .or_else(|| match judged.parse::<AgentSpec>() {
            Ok(AgentSpec::Search(spec)) => Some(spec),
            _ => None,
        });
    let budget = named.map(|spec| spec.determinizations);
    // MARGIN FIRST INDIFFERENCE PRUNE ROLLOUT are the name's settings in that order, read by
    // the name's own parser.
    let tuned: Option<SearchSpec> = named.map(|spec| {
        let settings: String = SEARCH_SETTINGS
            .iter()
            .zip(a.get(6..).unwrap_or_default())
            .map(|(setting, value)| format!(":{setting}={value}"))
            .collect();
        format!("{spec}{settings}")
            .parse()
            .unwrap_or_else(|e| panic!("{e}"))
    });
    let config = tuned.map_or(SearchConfig::with_budget(1), |spec| spec.config());
    let mut search = SearchAgent::new(Arc::clone(&variant), config);
    // Any other agent the command line names, judged in the search's place.
    let mut other: Option<BuiltinAgent> = budget.is_none().then(|| {
        let spec: AgentSpec = judged.parse().unwrap_or_else(|e| panic!("{e}"));
        spec.build(&variant).unwrap_or_else(|e| panic!("{e}"))
    });
    // The decision's place in its deal, for the seed of its fills.
    let (mut last_deal, mut decision) = (u64::MAX, 0u64);
    let names = [
        "all departures",
        "turn: discard of least shanten, less ukeire",
        "turn: discard of least shanten, ukeire as high",
        "turn: discard above least shanten (defence)",
        "turn: kong or ready declaration",
        "offer: claim or pass",
    ];
    let mut groups: Vec<Group> = names.iter().map(|_| Group::default()).collect();
    let bounds = [0.0, 0.15, 0.25, 0.4, 0.7, f64::INFINITY];
    let mut by_estimate: Vec<Group> = bounds.windows(2).map(|_| Group::default()).collect();
    let mut searched = 0.0;
    // By how far the deal has run (discards on the table: 8 a phase): the departures' worth,
    // and the decisions searched and their rollouts (the cost).
    let mut by_phase: Vec<Group> = (0..PHASES).map(|_| Group::default()).collect();
    let mut phase_searched = [0.0f64; PHASES];
    let mut phase_rollouts = [0.0f64; PHASES];
    // Wall-clock seconds of the searched decisions (a share of the cost, not a benchmark).
    let mut phase_seconds = [0.0f64; PHASES];
    let mut judge = |i: u64, deal: &Deal, view: &View<'_>, legal: &ActionList, default: Action| {
        if wins_only && !legal.iter().any(|a| a.is_win()) {
            return default;
        }
        let seat = view.seat();
        decision = if i == last_deal { decision + 1 } else { 0 };
        last_deal = i;
        let phase = (view.discards().len() / PHASE_DISCARDS).min(PHASES - 1);
        let (chosen, est) = match other.as_mut() {
            Some(agent) => {
                agent.reset(deal_seed(seed, i), seat);
                searched += 1.0;
                (agent.act(view, legal), 0.0)
            }
            None => {
                search.reset(deal_seed(seed, i), seat);
                let started = std::time::Instant::now();
                let chosen = search.act(view, legal);
                let seconds = started.elapsed().as_secs_f64();
                let d = search.last_decision();
                if !d.estimates.is_empty() {
                    searched += 1.0;
                    phase_searched[phase] += 1.0;
                    phase_seconds[phase] += seconds;
                    phase_rollouts[phase] +=
                        d.estimates.iter().map(|e| e.rollouts as f64).sum::<f64>();
                }
                let est = d
                    .estimates
                    .iter()
                    .find(|e| e.action == chosen)
                    .map_or(0.0, |e| e.advantage);
                (chosen, est)
            }
        };
        if chosen != default {
            let mut rng: Pcg64Mcg = rng_from_seed(deal_seed(deal_seed(seed ^ 0x7e57, i), decision));
            let mut oracle = TrueHands::new(deal);
            oracle.prepare(view, &mut rng);
            let (mut sum, mut n) = (0.0f64, 0.0f64);
            for _ in 0..fills {
                let fill = oracle.sample(view, &mut rng).unwrap().clone();
                if let Some(p) = paired(view, &fill, seat, [chosen, default], &variant) {
                    sum += p;
                    n += 1.0;
                }
            }
            let truth = sum / n.max(1.0);
            let group = match (chosen, default) {
                (Action::Discard(c), Action::Discard(g)) => {
                    let rules = hand_rules(view, sets_needed(view));
                    let discards = Discards::new(view.hand(), rules);
                    if discards.shanten(c) > discards.shanten(g) {
                        3
                    } else {
                        let unseen = view.unseen();
                        let uke = |t| {
                            let mut h = *view.hand();
                            h.remove(t);
                            taisim_agents::ukeire_under(
                                &h,
                                rules,
                                discards.shanten(t),
                                &unseen.counts[..34].try_into().unwrap(),
                            )
                        };
                        if uke(c) < uke(g) {
                            1
                        } else {
                            2
                        }
                    }
                }
                _ if view.tile_on_offer().is_some() => 5,
                _ => 4,
            };
            groups[0].add(est, truth);
            groups[group].add(est, truth);
            let b = bounds
                .windows(2)
                .position(|w| est >= w[0] && est < w[1])
                .unwrap_or(0);
            by_estimate[b].add(est, truth);
            by_phase[phase].add(est, truth);
            if let Some(file) = departures_csv.as_mut() {
                writeln!(
                    file,
                    "{i},{decision},{phase},{chosen},{default},{est},{truth}"
                )
                .unwrap();
            }
        }
        chosen
    };
    // Every seat of every deal is judged: of greedy self-play, or on the search's own
    // trajectory one table a seat.
    let seat_deals = (4 * deals) as f64;
    if on_search {
        let walls = first_wall..first_wall + deals;
        let realized = on_search_trajectory(&variant, seed, walls.clone(), &mut judge);
        println!(
            "on the search's own trajectory, the arena's walls {walls:?} of seed {seed}, each seat in turn \
             searching, the rest greedy: its points less greedy's in the same seat, realized (the arena's \
             mean_diff): {:+.4} ± {:.4} a seat and deal",
            realized.0, realized.1
        );
    } else {
        for_each_choice(&variant, seed, deals, |i, deal, view, legal, default| {
            judge(i, deal, view, legal, default);
        });
    }
    let who = match tuned {
        Some(spec) => format!("search:{spec} ({config:?})"),
        None => judged.clone(),
    };
    println!("{who}, {deals} deals of seed {seed}, {searched} searched decisions, {fills} true-state fills a departure");
    println!(
        "true gain of the departures a seat and deal: {:+.4} ± {:.4}",
        groups[0].truth / seat_deals,
        {
            let g = &groups[0];
            let m = g.truth / g.n.max(1.0);
            ((g.truth_sq / g.n.max(1.0) - m * m).max(0.0) * g.n).sqrt() / seat_deals
        }
    );
    for (g, name) in groups.iter().zip(names) {
        g.line(name, searched);
    }
    for (g, w) in by_estimate.iter().zip(bounds.windows(2)) {
        g.line(&format!("estimate in [{}, {})", w[0], w[1]), searched);
    }
    for (p, g) in by_phase.iter().enumerate() {
        let from = p * PHASE_DISCARDS;
        let name = if p + 1 < PHASES {
            format!("discards {from}-{}", from + PHASE_DISCARDS - 1)
        } else {
            format!("discards {from}+")
        };
        g.line(&name, searched);
        if budget.is_some() {
            println!(
                "{:44} searched {:6}  rollouts a searched decision {:7.0}  time share {:.3}  true a seat and deal {:+.4}",
                "",
                phase_searched[p],
                phase_rollouts[p] / phase_searched[p].max(1.0),
                phase_seconds[p] / phase_seconds.iter().sum::<f64>().max(f64::MIN_POSITIVE),
                g.truth / seat_deals
            );
        }
    }
}

/// Plays walls `walls` of `seed` as the arena deals them (wall `i` seeded `deal_seed(seed, i)`,
/// its round and dealer drawn from that seed), each four times: with each seat in turn
/// playing what `judge` returns at its decisions with a real choice (the other seats, and that
/// seat elsewhere, greedy). Returns the mean over the seat-walls of that seat's points less
/// its points in greedy self-play of the same wall, with its standard error: the arena's
/// mean_diff on these walls.
fn on_search_trajectory(
    variant: &Variant,
    seed: u64,
    walls: std::ops::Range<u64>,
    judge: &mut impl FnMut(u64, &Deal, &View<'_>, &ActionList, Action) -> Action,
) -> (f64, f64) {
    let mut legal = ActionList::new();
    let mut greedy = GreedyAgent::for_variant(variant);
    let (mut sum, mut sq, mut n) = (0.0f64, 0.0f64, 0.0f64);
    let new_deal = |i| {
        let wall_seed = deal_seed(seed, i);
        Deal::new(variant.rules(), wall_seed, DealContext::drawn(wall_seed)).unwrap()
    };
    let payments = |deal: &Deal| {
        let st = variant.settlement();
        score_deal(deal, variant, st.base, st.per_tai)
            .unwrap()
            .payments
    };
    for i in walls {
        // Greedy self-play of the wall: every seat's reference, played once.
        let mut greedy_deal = new_deal(i);
        while let Some(s) = greedy_deal.to_act() {
            let action = greedy.act_in(&greedy_deal, s, &mut legal);
            greedy_deal.play(action).unwrap();
        }
        let reference = payments(&greedy_deal);
        for seat in Seat::ALL {
            let mut deal = new_deal(i);
            while let Some(s) = deal.to_act() {
                deal.legal_actions(&mut legal);
                let action = {
                    let view = deal.view(s);
                    let default = greedy.act(&view, &legal);
                    if s == seat && legal.len() > 1 {
                        judge(i, &deal, &view, &legal, default)
                    } else {
                        default
                    }
                };
                deal.play(action).unwrap();
            }
            let d = (payments(&deal)[seat] - reference[seat]) as f64;
            sum += d;
            sq += d * d;
            n += 1.0;
        }
    }
    let mean = sum / n;
    (mean, ((sq / n - mean * mean).max(0.0) / n).sqrt())
}

/// Pairs two runs' departures (see the module documentation).
fn compare(first: &str, second: &str, deals: u64) {
    // (deal, decision) -> (phase, chosen, truth). A line that does not read whole (the last
    // line of a file another run is still writing) is left out and counted.
    let read = |path: &str| -> HashMap<(u64, u64), (usize, String, f64)> {
        let file = std::io::BufReader::new(
            std::fs::File::open(path).unwrap_or_else(|e| panic!("{path}: {e}")),
        );
        let parse = |line: &str| {
            let f: Vec<&str> = line.split(',').collect();
            Some((
                (f.first()?.parse().ok()?, f.get(1)?.parse().ok()?),
                (
                    f.get(2)?.parse().ok()?,
                    f.get(3)?.to_string(),
                    f.get(6)?.parse().ok()?,
                ),
            ))
        };
        let mut partial = 0;
        let rows = file
            .lines()
            .skip(1)
            .filter_map(|line| {
                let row = line.ok().as_deref().and_then(parse);
                partial += usize::from(row.is_none());
                row
            })
            .collect();
        if partial > 0 {
            eprintln!("{path}: {partial} line(s) not whole, left out (is a run still writing it?)");
        }
        rows
    };
    let (a, b) = (read(first), read(second));
    let mut keys: Vec<_> = a.keys().chain(b.keys()).copied().collect();
    keys.sort_unstable();
    keys.dedup();
    // Sums of the per-decision difference and its square, overall and by phase; decisions
    // in neither file add zero to both.
    let mut sums = [[0.0f64; 2]; PHASES + 1];
    let (mut alike, mut apart) = (0, 0);
    for key in keys {
        let (pa, ca, ta) = a
            .get(&key)
            .cloned()
            .unwrap_or((usize::MAX, String::new(), 0.0));
        let (pb, cb, tb) = b
            .get(&key)
            .cloned()
            .unwrap_or((usize::MAX, String::new(), 0.0));
        if ca == cb {
            alike += 1;
            continue;
        }
        apart += 1;
        let d = ta - tb;
        for p in [PHASES, pa.min(pb)] {
            sums[p][0] += d;
            sums[p][1] += d * d;
        }
    }
    let seat_deals = (4 * deals) as f64;
    println!("{first} against {second}: {alike} departures alike, {apart} decisions apart");
    for (p, [sum, sq]) in sums.iter().enumerate() {
        let name = if p == PHASES {
            "all".to_string()
        } else {
            format!("discards from {}", p * PHASE_DISCARDS)
        };
        // Each decision apart is one draw of the difference, the rest add exactly zero; the
        // root of the summed squares bounds the standard error of the sum from above.
        println!(
            "{name:20} gain a seat and deal {:+.4} ± {:.4}",
            sum / seat_deals,
            sq.sqrt() / seat_deals
        );
    }
}

/// Phases of the report by how far the deal has run, [`PHASE_DISCARDS`] discards each.
const PHASES: usize = 6;
const PHASE_DISCARDS: usize = 8;
