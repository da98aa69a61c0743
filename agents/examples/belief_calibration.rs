//! How well the search's belief matches the hands greedy players really hold: at seat E's
//! turns in greedy self-play, the opponents' true shanten and readiness against the sampled
//! hands', by how far the deal has run, and how well the samples predict which of E's tiles
//! some opponent waits on (the danger a discard runs).
//!
//! `cargo run --release -p taisim-agents --example belief_calibration -- DEALS SAMPLES [VARIANT]`

use std::sync::Arc;

use taisim_agents::knowledge::hand_rules;
use taisim_agents::search::{Belief, BeliefModel};
use taisim_agents::{Agent, GreedyAgent};
use taisim_score::Variant;
use taisim_sim::algo::{shanten, waits};
use taisim_sim::{rng_from_seed, ActionList, Deal, DealContext, Hand, Seat, View};

#[derive(Default, Clone, Copy)]
struct Cell {
    n: f64,
    shanten: f64,
    ready: f64,
}

impl Cell {
    fn add(&mut self, s: i8) {
        self.n += 1.0;
        self.shanten += s as f64;
        self.ready += (s <= 0) as u8 as f64;
    }
}

fn measure(view: &View<'_>, seat: Seat, hand: &Hand) -> (i8, u64) {
    let rules = hand_rules(view, view.rules().sets - view.melds(seat).count() as u8);
    (shanten(hand, rules), waits(hand, rules).0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let deals: u64 = args.get(1).map_or(200, |s| s.parse().unwrap());
    let samples: u32 = args.get(2).map_or(16, |s| s.parse().unwrap());
    let name = args.get(3).map_or("taiwan16", String::as_str);
    let variant = Arc::new(Variant::builtin(name).unwrap());
    let mut beliefs = [BeliefModel::Uniform, BeliefModel::Play].map(Belief::new);
    // [bucket][truth, uniform, play]
    let mut cells = [[Cell::default(); 3]; 6];
    let (mut brier, mut logloss) = ([0.0f64; 2], [0.0f64; 2]);
    let (mut kinds, mut dangerous) = (0.0f64, 0.0f64);
    // Each opponent's readiness: the share of samples in which it is ready, against the truth.
    let mut ready_ll = [0.0f64; 2];
    let mut ready_n = 0.0f64;
    let mut greedy = GreedyAgent::for_variant(&variant);
    let mut legal = ActionList::new();
    let mut rng = rng_from_seed(7);
    for i in 0..deals {
        let mut deal = Deal::new(variant.rules(), 5000 + i, DealContext::FIRST).unwrap();
        while let Some(seat) = deal.to_act() {
            deal.legal_actions(&mut legal);
            let view = deal.view(seat);
            if seat == Seat::East && deal.tile_on_offer().is_none() && legal.len() > 1 {
                let bucket = (view.discards().len() / 12).min(5);
                let mut truth = 0u64;
                let mut truly_ready = [false; 3];
                for k in 1..4u8 {
                    let o = seat.add(k);
                    let (s, w) = measure(&view, o, deal.hand(o));
                    cells[bucket][0].add(s);
                    truth |= w;
                    truly_ready[k as usize - 1] = s <= 0;
                }
                let mut ready_count = [[0u32; 3]; 2];
                let mut predicted = [[0u32; 34]; 2];
                for (m, belief) in beliefs.iter_mut().enumerate() {
                    belief.prepare(&view);
                    for _ in 0..samples {
                        let fill = belief.sample(&view, &mut rng).unwrap().clone();
                        let mut any = 0u64;
                        for k in 1..4u8 {
                            let o = seat.add(k);
                            let (s, w) = measure(&view, o, &fill.hands[o]);
                            cells[bucket][m + 1].add(s);
                            any |= w;
                            ready_count[m][k as usize - 1] += (s <= 0) as u32;
                        }
                        for (t, p) in predicted[m].iter_mut().enumerate() {
                            *p += (any >> t & 1) as u32;
                        }
                    }
                }
                for k in 0..3 {
                    let y = truly_ready[k] as u8 as f64;
                    ready_n += 1.0;
                    for m in 0..2 {
                        let p = (ready_count[m][k] as f64 + 0.5) / (samples as f64 + 1.0);
                        ready_ll[m] -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
                    }
                }
                for t in deal.hand(seat).kinds() {
                    let y = (truth >> t.index() & 1) as f64;
                    kinds += 1.0;
                    dangerous += y;
                    for m in 0..2 {
                        let p = (predicted[m][t.index()] as f64 + 0.5) / (samples as f64 + 1.0);
                        brier[m] += (p - y) * (p - y);
                        logloss[m] -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
                    }
                }
            }
            let a = greedy.act(&view, &legal);
            deal.play(a).unwrap();
        }
    }
    println!("discards  | true shanten ready | uniform shanten ready | play shanten ready");
    for (b, row) in cells.iter().enumerate() {
        let f = |c: &Cell| (c.shanten / c.n.max(1.0), c.ready / c.n.max(1.0));
        let (ts, tr) = f(&row[0]);
        let (us, ur) = f(&row[1]);
        let (ps, pr) = f(&row[2]);
        println!(
            "{:>3}-{:<3}   | {ts:5.2} {tr:5.3}        | {us:5.2} {ur:5.3}           | {ps:5.2} {pr:5.3}   (n {})",
            b * 12,
            b * 12 + 11,
            row[0].n
        );
    }
    let base = dangerous / kinds;
    let base_ll = -(base * base.ln() + (1.0 - base) * (1.0 - base).ln());
    println!(
        "danger of held kinds: {kinds} kinds, {base:.4} dangerous; constant-rate brier {:.5} log loss {base_ll:.4}",
        base * (1.0 - base)
    );
    for (m, name) in ["uniform", "play"].iter().enumerate() {
        println!(
            "  {name:8} brier {:.5} log loss {:.4}   readiness log loss {:.4}",
            brier[m] / kinds,
            logloss[m] / kinds,
            ready_ll[m] / ready_n
        );
    }
    let r: f64 = cells.iter().map(|row| row[0].ready).sum::<f64>() / ready_n;
    println!(
        "  readiness base rate {r:.4}, constant log loss {:.4}",
        -(r * r.ln() + (1.0 - r) * (1.0 - r).ln())
    );
}
