//! Development data: at seat E's turns in greedy self-play, the observation and, for each
//! opponent (relative seat 1..3), the kinds it waits on. Written as raw f32 observations and
//! u64 wait masks for an offline study of how predictable the danger is.
//!
//! `cargo run --release -p taisim-agents --example danger_data -- DEALS SEED OUT_PREFIX`

use std::io::Write;
use std::sync::Arc;

use taisim_agents::knowledge::hand_rules;
use taisim_agents::{encode_slice, Agent, GreedyAgent, OBS_LEN};
use taisim_score::Variant;
use taisim_sim::algo::waits;
use taisim_sim::{ActionList, Deal, DealContext, Seat};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let deals: u64 = a[1].parse().unwrap();
    let seed: u64 = a[2].parse().unwrap();
    let prefix = &a[3];
    let variant = Arc::new(Variant::builtin("taiwan16").unwrap());
    let mut obs_out =
        std::io::BufWriter::new(std::fs::File::create(format!("{prefix}.obs")).unwrap());
    let mut lab_out =
        std::io::BufWriter::new(std::fs::File::create(format!("{prefix}.lab")).unwrap());
    let mut greedy = GreedyAgent::new();
    let mut legal = ActionList::new();
    let mut obs = vec![0f32; OBS_LEN];
    let mut n = 0u64;
    for i in 0..deals {
        let mut deal = Deal::new(
            variant.rules(),
            taisim_sim::deal_seed(seed, i),
            DealContext::FIRST,
        )
        .unwrap();
        while let Some(seat) = deal.to_act() {
            deal.legal_actions(&mut legal);
            let view = deal.view(seat);
            if seat == Seat::East && deal.tile_on_offer().is_none() && legal.len() > 1 {
                encode_slice(&view, &mut obs);
                for v in &obs {
                    obs_out.write_all(&v.to_le_bytes()).unwrap();
                }
                for k in 1..4u8 {
                    let o = seat.add(k);
                    let rules = hand_rules(&view, view.rules().sets - deal.melds(o).len() as u8);
                    let w = waits(deal.hand(o), rules).0;
                    lab_out.write_all(&w.to_le_bytes()).unwrap();
                }
                n += 1;
            }
            let act = greedy.act(&view, &legal);
            deal.play(act).unwrap();
        }
    }
    eprintln!("{n} observations");
}
