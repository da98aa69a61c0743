//! Development: greedy that never claims a chow or pung (wins still taken) against greedy.
use std::sync::Arc;
use taisim_agents::{Agent, GreedyAgent};
use taisim_score::{score_deal, Variant};
use taisim_sim::{deal_seed, splitmix64, Action, ActionList, Deal, DealContext, Seat, Wind};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let walls: u64 = a[1].parse().unwrap();
    let mode = a.get(2).map_or("noclaim", String::as_str).to_string();
    let variant = Arc::new(Variant::builtin(a.get(3).map_or("taiwan16", String::as_str)).unwrap());
    let mut g = GreedyAgent::new();
    let mut legal = ActionList::new();
    let (mut sum, mut sq) = (0.0, 0.0);
    for w in 0..walls {
        let s = deal_seed(1, w);
        let r = splitmix64(s ^ 0xc0_7e87);
        let ctx = DealContext {
            round_wind: Wind::new((r >> 2) as u8),
            dealer: Wind::new(r as u8),
            streak: 0,
        };
        let mut play = |cand: Option<Seat>| {
            let mut deal = Deal::new(variant.rules(), s, ctx).unwrap();
            while let Some(seat) = deal.to_act() {
                deal.legal_actions(&mut legal);
                let mut act = g.act(&deal.view(seat), &legal);
                if Some(seat) == cand {
                    let claim = matches!(act, Action::Chow(_) | Action::Pung | Action::Kong);
                    let skip = match mode.as_str() {
                        "noclaim" => claim,
                        "nochow" => matches!(act, Action::Chow(_)),
                        _ => false,
                    };
                    if skip {
                        act = Action::Pass;
                    }
                }
                deal.play(act).unwrap();
            }
            let st = variant.settlement();
            score_deal(&deal, &variant, st.base, st.per_tai)
                .unwrap()
                .payments
                .0
        };
        let base = play(None);
        let mut d = 0.0;
        for seat in Seat::ALL {
            d += (play(Some(seat))[seat as usize] - base[seat as usize]) as f64;
        }
        let x = d / 4.0;
        sum += x;
        sq += x * x;
    }
    let n = walls as f64;
    let m = sum / n;
    let se = ((sq / n - m * m) / (n - 1.0)).sqrt();
    println!("{mode}: {walls} walls mean_diff {m:+.3} ± {se:.3}");
}
