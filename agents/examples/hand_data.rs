//! Training data for the search's hand model: at the turns of greedy self-play, the
//! observation of the seat to act and, for each other seat (relative seat 1..3), how many of
//! each kind it holds concealed. Raw little-endian files: `PREFIX.obs` (`OBS_LEN` f32 a row)
//! and `PREFIX.hand` (3 × 34 u8 a row).
//!
//! With SAMPLES, also `PREFIX.belief`: the search's play belief's share of SAMPLES fills in
//! which each other seat holds each kind 0..4 times (3 × 34 × 5 f32 a row), to set against
//! a trained model.
//!
//! `cargo run --release -p taisim-agents --example hand_data -- DEALS SEED PREFIX [VARIANT [SAMPLES]]`

use std::io::Write;
use std::sync::Arc;

use taisim_agents::search::{Belief, BeliefModel};
use taisim_agents::{encode_slice, Agent, GreedyAgent, OBS_LEN};
use taisim_score::Variant;
use taisim_sim::{deal_seed, rng_from_seed, ActionList, Deal, DealContext, Tile};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let deals: u64 = a[1].parse().unwrap();
    let seed: u64 = a[2].parse().unwrap();
    let prefix = &a[3];
    let variant = Arc::new(Variant::builtin(a.get(4).map_or("taiwan16", String::as_str)).unwrap());
    let create = |ext: &str| {
        std::io::BufWriter::new(std::fs::File::create(format!("{prefix}.{ext}")).unwrap())
    };
    let (mut obs_out, mut hand_out) = (create("obs"), create("hand"));
    let samples: u32 = a.get(5).map_or(0, |s| s.parse().unwrap());
    let mut belief_out = (samples > 0).then(|| create("belief"));
    let mut belief = Belief::new(BeliefModel::Play);
    let mut rng = rng_from_seed(seed ^ 0xbe11ef);
    let mut greedy = GreedyAgent::for_variant(&variant);
    let mut legal = ActionList::new();
    let mut obs = vec![0f32; OBS_LEN];
    let mut n = 0u64;
    for i in 0..deals {
        let mut deal = Deal::new(variant.rules(), deal_seed(seed, i), DealContext::FIRST).unwrap();
        while let Some(seat) = deal.to_act() {
            deal.legal_actions(&mut legal);
            let view = deal.view(seat);
            if deal.tile_on_offer().is_none() && legal.len() > 1 {
                encode_slice(&view, &mut obs);
                for v in &obs {
                    obs_out.write_all(&v.to_le_bytes()).unwrap();
                }
                for k in 1..4u8 {
                    let hand = deal.hand(seat.add(k));
                    let counts: Vec<u8> = Tile::ALL.iter().map(|&t| hand.count(t)).collect();
                    hand_out.write_all(&counts).unwrap();
                }
                if let Some(out) = belief_out.as_mut() {
                    let mut share = [[[0f32; 5]; Tile::NUM]; 3];
                    belief.prepare(&view);
                    for _ in 0..samples {
                        let fill = belief.sample(&view, &mut rng).unwrap();
                        for (k, row) in share.iter_mut().enumerate() {
                            let hand = &fill.hands[seat.add(k as u8 + 1)];
                            for t in Tile::ALL {
                                row[t.index()][hand.count(t) as usize] += 1.0 / samples as f32;
                            }
                        }
                    }
                    for v in share.iter().flatten().flatten() {
                        out.write_all(&v.to_le_bytes()).unwrap();
                    }
                }
                n += 1;
            }
            let act = greedy.act(&view, &legal);
            deal.play(act).unwrap();
        }
    }
    eprintln!("{n} observations");
}
