//! The protocol's events lose nothing and leak nothing: over many deals of every shipped
//! variant, the table rebuilt from a log's events equals the engine's state after every step,
//! the table rebuilt from one seat's events equals that seat's view, and a seat's events name
//! no tile it cannot see. Every line also survives being written and read back.

use std::sync::Arc;

use taisim_agents::protocol::{end_event, start_event, step_events, Event, Message, TableState};
use taisim_agents::{Agent, BuiltinAgent, GreedyAgent, RandomAgent};
use taisim_score::Variant;
use taisim_sim::{ActionList, Deal, DealContext, MeldKind, Seat, Wind};

fn agents(k: u64) -> [BuiltinAgent; 4] {
    Wind::ALL.map(|s| {
        if (s as u64 + k) % 2 == 0 {
            BuiltinAgent::Greedy(GreedyAgent::new())
        } else {
            BuiltinAgent::Random(RandomAgent::new())
        }
    })
}

/// Sends `events` through JSON (as a log line, or as `seat`'s line) and checks it comes back.
fn through_json(deal: u64, seat: Option<Seat>, event: &Event) -> Message {
    let m = Message {
        deal,
        seat,
        event: event.clone(),
    };
    let line = m.to_json();
    let back = Message::from_json(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
    assert_eq!(back, m, "{line}");
    back
}

fn check_log(state: &TableState, deal: &Deal) {
    for s in Wind::ALL {
        assert_eq!(state.hands[s], Some(*deal.hand(s)), "{s}'s hand");
        assert_eq!(
            state.hand_sizes[s] as usize,
            deal.hand(s).len(),
            "{s}'s hand size"
        );
        assert_eq!(state.flowers[s], deal.flowers(s), "{s}'s flowers");
        assert_eq!(
            state.ready[s],
            deal.ready_declaration(s).is_some(),
            "{s} ready"
        );
        let melds: Vec<_> = state.melds[s]
            .iter()
            .map(|m| (m.kind, m.tile, m.from))
            .collect();
        let want: Vec<_> = deal
            .melds(s)
            .iter()
            .map(|m| (m.kind(), Some(m.tile()), m.from()))
            .collect();
        assert_eq!(melds, want, "{s}'s melds");
    }
    let river: Vec<_> = state
        .river
        .iter()
        .map(|d| (d.seat, d.tile, d.claimed, d.ready))
        .collect();
    let want: Vec<_> = deal
        .discards()
        .iter()
        .map(|d| (d.seat(), d.tile(), d.is_claimed(), d.is_ready_declaration()))
        .collect();
    assert_eq!(river, want, "the river");
    assert_eq!(state.left, deal.tiles_left(), "tiles left");
    assert_eq!(state.wild, deal.wild());
}

fn check_seat(state: &TableState, deal: &Deal, viewer: Seat) {
    let view = deal.view(viewer);
    for s in Wind::ALL {
        let known = state.hands[s];
        if s == viewer {
            assert_eq!(known, Some(*view.hand()), "{viewer}'s own hand");
        } else {
            assert_eq!(known, None, "{viewer} must not know {s}'s hand");
        }
        assert_eq!(
            state.hand_sizes[s] as usize,
            view.hand_len(s),
            "{viewer}: {s}'s size"
        );
        assert_eq!(state.flowers[s], view.flowers(s));
        assert_eq!(state.ready[s], view.declared_ready(s));
        let melds: Vec<_> = state.melds[s]
            .iter()
            .map(|m| (m.kind, m.tile, m.from))
            .collect();
        let want: Vec<_> = view.melds(s).map(|m| (m.kind, m.tile, m.from)).collect();
        assert_eq!(melds, want, "{viewer}: {s}'s melds");
    }
    let river: Vec<_> = state
        .river
        .iter()
        .map(|d| (d.seat, d.tile, d.claimed))
        .collect();
    let want: Vec<_> = view
        .discards()
        .iter()
        .map(|d| (d.seat(), d.tile(), d.is_claimed()))
        .collect();
    assert_eq!(river, want);
    assert_eq!(state.left, view.tiles_left());
    assert_eq!(state.wild_indicator, view.wild_indicator());
}

/// Whether `deal` waits on others to rob a kong just declared (the declaration is told at
/// once; the engine moves the tiles only when nobody robs it).
fn kong_on_offer(deal: &Deal, last: &Event) -> bool {
    matches!(last, Event::ConcealedKong { .. } | Event::AddedKong { .. })
        && !deal.is_over()
        && deal.tile_on_offer().is_some()
}

#[test]
fn events_rebuild_every_view_of_every_variant() {
    let mut kinds = std::collections::BTreeMap::<&'static str, u64>::new();
    for name in Variant::names() {
        let variant = Arc::new(Variant::builtin(name).unwrap());
        let rules = variant.rules();
        for k in 0..150u64 {
            let seed = 7_000 + k;
            let context = DealContext {
                dealer: Wind::new((k % 4) as u8),
                ..DealContext::FIRST
            };
            let mut deal = Deal::new(rules, seed, context).unwrap();
            let mut players = agents(k);
            for s in Wind::ALL {
                players[s as usize].reset(seed, s);
            }
            let mut log = TableState::default();
            let mut seats: [TableState; 4] = Default::default();
            let mut tell = |e: &Event, log: &mut TableState, seats: &mut [TableState; 4]| {
                *kinds.entry(e.kind()).or_default() += 1;
                log.apply(&through_json(k, None, e))
                    .unwrap_or_else(|x| panic!("{name} deal {k}: {x} at {e:?}"));
                for v in Wind::ALL {
                    if let Some(seen) = e.seen_by(v) {
                        if let Event::Draw { actor, tile, .. } = &seen {
                            assert_eq!(tile.is_some(), *actor == v, "{v} sees a draw");
                        }
                        if let Event::ConcealedKong { actor, tile } = &seen {
                            assert_eq!(tile.is_some(), *actor == v, "{v} sees a face-down kong");
                        }
                        seats[v as usize]
                            .apply(&through_json(k, Some(v), &seen))
                            .unwrap_or_else(|x| panic!("{name} deal {k} seat {v}: {x}"));
                    }
                }
            };
            tell(
                &start_event(&deal, name, Some("x"), Some((0, 1))),
                &mut log,
                &mut seats,
            );
            let mut legal = ActionList::new();
            let mut events = Vec::new();
            let mut last = Event::Decision {
                actor: Wind::East,
                step: 0,
                action: taisim_sim::Action::Pass,
            };
            while let Some(seat) = deal.to_act() {
                let action = players[seat as usize].act_in(&deal, seat, &mut legal);
                let before = deal.clone();
                deal.play(action).unwrap();
                events.clear();
                step_events(&before, action, &deal, &mut events);
                for e in &events {
                    tell(e, &mut log, &mut seats);
                    if !matches!(e, Event::Decision { .. }) {
                        last = e.clone();
                    }
                }
                if kong_on_offer(&deal, &last) || deal.is_over() {
                    continue;
                }
                check_log(&log, &deal);
                for v in Wind::ALL {
                    check_seat(&seats[v as usize], &deal, v);
                }
            }
            let st = &variant.settlement();
            let end = end_event(&deal, &variant, st.base, st.per_tai).unwrap();
            tell(&end, &mut log, &mut seats);
            let Event::End(e) = &end else { unreachable!() };
            assert_eq!(e.payments.0.iter().sum::<i64>(), 0);
            assert_eq!(Some(e.result), deal.result().copied());
            for s in Wind::ALL {
                assert_eq!(e.hands[s], *deal.hand(s));
                assert_eq!(e.melds[s].as_slice(), deal.melds(s));
                // Every kind of meld shows as laid.
                assert!(e.melds[s].iter().all(|m| MeldKind::ALL.contains(&m.kind())));
            }
        }
    }
    // The deals played reach every kind of event.
    for kind in [
        "start",
        "draw",
        "flower",
        "discard",
        "chow",
        "pung",
        "kong",
        "concealed_kong",
        "added_kong",
        "decision",
        "end",
    ] {
        assert!(
            kinds.get(kind).copied().unwrap_or(0) > 0,
            "no {kind} event in {kinds:?}"
        );
    }
}
