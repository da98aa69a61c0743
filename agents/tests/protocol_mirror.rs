//! A deal rebuilt from one seat's messages ([`Mirror`]) follows the real one: at every
//! decision of the seat, over many deals of every shipped variant and mixed agents, the
//! rebuilt deal offers the same legal actions, shows the same view, and greedy and defensive
//! choose the same action on it as on the real deal. The rebuilt deal stays a valid deal.

use std::sync::Arc;

use taisim_agents::protocol::{start_event, step_events, Event, Mirror};
use taisim_agents::{Agent, BuiltinAgent, DefensiveAgent, GreedyAgent, RandomAgent};
use taisim_score::Variant;
use taisim_sim::{ActionList, Deal, DealContext, Seat, Wind};

fn players(k: u64) -> [BuiltinAgent; 4] {
    Wind::ALL.map(|s| match (s as u64 + k) % 3 {
        0 => BuiltinAgent::Greedy(GreedyAgent::new()),
        1 => BuiltinAgent::Defensive(DefensiveAgent::new()),
        _ => BuiltinAgent::Random(RandomAgent::new()),
    })
}

fn same_view(real: &Deal, mirror: &Deal, s: Seat) -> Result<(), String> {
    let (a, b) = (real.view(s), mirror.view(s));
    let check = |what: &str, ok: bool| if ok { Ok(()) } else { Err(what.to_string()) };
    check("hand", a.hand() == b.hand())?;
    check("discards", a.discards() == b.discards())?;
    check("tiles left", a.tiles_left() == b.tiles_left())?;
    check("seen counts", a.seen_counts() == b.seen_counts())?;
    check("offer", a.tile_on_offer() == b.tile_on_offer())?;
    check("drawn", a.drawn_tile() == b.drawn_tile())?;
    check("waits", a.waits() == b.waits())?;
    check("missed", a.is_missed() == b.is_missed())?;
    check("pung barred", a.pung_barred() == b.pung_barred())?;
    for w in Wind::ALL {
        check("hand sizes", a.hand_len(w) == b.hand_len(w))?;
        check("flowers", a.flowers(w) == b.flowers(w))?;
        check("ready", a.declared_ready(w) == b.declared_ready(w))?;
        check(
            "melds",
            a.melds(w).collect::<Vec<_>>() == b.melds(w).collect::<Vec<_>>(),
        )?;
    }
    Ok(())
}

#[test]
fn a_rebuilt_deal_follows_every_seat_of_every_variant() {
    let mut decisions = 0u64;
    let mut ready_others = 0u64;
    // The shipped variants, and taiwan16 with ready declarations allowed all deal long, so
    // that other seats declare ready often (their rebuilt hands must then be ready hands).
    let wide = Variant::builtin_text("taiwan16")
        .unwrap()
        .replace("ready_window = 8 ", "ready_window = 120 ");
    let mut variants: Vec<(&str, Variant)> = Variant::names()
        .into_iter()
        .map(|n| (n, Variant::builtin(n).unwrap()))
        .collect();
    variants.push((
        "taiwan16",
        Variant::from_toml_str(&wide, "wide-ready").unwrap(),
    ));
    for (name, variant) in variants {
        let variant = Arc::new(variant);
        let deals: u64 = std::env::var("TAISIM_MIRROR_DEALS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(200);
        for k in 0..deals {
            let seed = 91_000 + k;
            let context = DealContext {
                dealer: Wind::new((k % 4) as u8),
                ..DealContext::FIRST
            };
            let mut deal = Deal::new(variant.rules(), seed, context).unwrap();
            let mut agents = players(k);
            for s in Wind::ALL {
                agents[s as usize].reset(seed, s);
            }
            let start = start_event(&deal, name, None, None);
            let mut mirrors: Vec<Option<Mirror>> = Wind::ALL
                .iter()
                .map(|&s| {
                    let Some(Event::Start(st)) = start.seen_by(s) else {
                        unreachable!()
                    };
                    Mirror::new(&st, s, &variant).ok()
                })
                .collect();
            let mut legal = ActionList::new();
            let mut mirror_legal = ActionList::new();
            let mut events = Vec::new();
            while let Some(seat) = deal.to_act() {
                let action = agents[seat as usize].act_in(&deal, seat, &mut legal);
                if let Some(m) = mirrors[seat as usize].as_mut() {
                    let rebuilt = m
                        .decide_now()
                        .unwrap_or_else(|e| panic!("{name} deal {k} seat {seat}: {e}"));
                    if let Err(what) = same_view(&deal, rebuilt, seat) {
                        panic!(
                            "{name} deal {k} seat {seat} step {}: the views differ in {what}",
                            deal.steps() + 1
                        );
                    }
                    rebuilt
                        .validate()
                        .unwrap_or_else(|e| panic!("{name} deal {k}: {e:?}"));
                    rebuilt.legal_actions(&mut mirror_legal);
                    deal.legal_actions(&mut legal);
                    assert_eq!(legal, mirror_legal, "{name} deal {k} seat {seat}");
                    let mut greedy = GreedyAgent::new();
                    let mut scratch = ActionList::new();
                    assert_eq!(
                        greedy.act_in(&deal, seat, &mut scratch),
                        greedy.act_in(rebuilt, seat, &mut scratch),
                        "{name} deal {k} seat {seat}: greedy differs"
                    );
                    let mut defensive = DefensiveAgent::new();
                    assert_eq!(
                        defensive.act_in(&deal, seat, &mut scratch),
                        defensive.act_in(rebuilt, seat, &mut scratch),
                        "{name} deal {k} seat {seat}: defensive differs"
                    );
                    decisions += 1;
                    m.answered(action);
                }
                let before = deal.clone();
                deal.play(action).unwrap();
                events.clear();
                step_events(&before, action, &deal, &mut events);
                for e in &events {
                    if let Event::Discard {
                        ready: true, actor, ..
                    } = e
                    {
                        ready_others += 1;
                        let _ = actor;
                    }
                    for s in Wind::ALL {
                        if let (Some(m), Some(seen)) = (mirrors[s as usize].as_mut(), e.seen_by(s))
                        {
                            m.tell(seen);
                        }
                    }
                }
            }
            assert!(
                mirrors.iter().all(Option::is_some),
                "{name} deal {k}: a start could not be rebuilt"
            );
        }
    }
    assert!(decisions > 20_000, "{decisions}");
    assert!(ready_others > 0, "no ready declaration was played");
    eprintln!("{decisions} decisions followed, {ready_others} ready declarations");
}
