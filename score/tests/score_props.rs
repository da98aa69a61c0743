//! Property tests of scoring (issue 15), with a fixed case budget and a fixed seed so CI is
//! fast and repeatable (`PROPTEST_CASES=N` raises the budget):
//!
//! - any score request, well-formed or not, is answered or refused, never a panic, through
//!   the Rust API and the JSON request path alike;
//! - a settlement always sums to zero, and the breakdown adds up to the total;
//! - the score does not depend on the order the tiles, melds, flowers and circumstances are
//!   given in.

use proptest::prelude::*;
use taisim_score::{score, score_json, settle, Ready, Variant, WinInput};
use taisim_sim::{FlowerSet, Hand, Meld, MeldKind, MeldList, Tile, WinContext, Wind};

mod common;
#[path = "../../sim/tests/support/props.rs"]
mod props;
#[path = "support/reference.rs"]
mod reference;

fn config(cases: u32) -> proptest::test_runner::Config {
    props::config(cases, 0x15_5c0e)
}

const MELD_KINDS: [MeldKind; 5] = [
    MeldKind::Chow,
    MeldKind::Pung,
    MeldKind::Kong,
    MeldKind::ConcealedKong,
    MeldKind::AddedKong,
];

/// Any input the Rust API can be handed: tiles, melds (bad chows included), flowers, seats
/// and circumstances drawn independently.
fn any_input() -> impl Strategy<Value = WinInput> {
    (
        prop::collection::vec(0u8..34, 0..20),
        prop::collection::vec((0usize..5, 0u8..34), 0..6),
        any::<u8>(),
        (0u8..4, 0u8..4, 0u8..4, 0u8..4),
        prop::option::of(0u8..34),
        prop::option::of(0u8..4),
        prop::collection::vec(any::<bool>(), 10),
        (
            prop::option::of(0u8..4),
            0u8..3,
            prop::option::of(any::<u8>()),
        ),
    )
        .prop_map(
            |(tiles, melds, flowers, (seat, dealer, round, streak), win, discarder, f, rest)| {
                let mut hand = Hand::EMPTY;
                for t in tiles {
                    // A fifth copy is refused by the hand itself; the rest is kept.
                    let _ = hand.try_add(Tile::new(t));
                }
                let seat = Wind::new(seat);
                let mut list = MeldList::new();
                for (k, t) in melds.into_iter().take(5) {
                    list.push(Meld::new(MELD_KINDS[k], Tile::new(t), seat.add(3), 0));
                }
                let (exposed_from, ready, discards) = rest;
                WinInput {
                    seat,
                    dealer: Wind::new(dealer),
                    round_wind: Wind::new(round),
                    streak,
                    hand,
                    melds: list,
                    flowers: FlowerSet(flowers),
                    win_tile: win.map(Tile::new),
                    discarder: discarder.map(Wind::new),
                    context: WinContext {
                        self_draw: f[0],
                        robbing_kong: f[1],
                        kong_replacement: f[2],
                        exposed_kong_from: exposed_from.map(Wind::new),
                        flower_replacement: f[3],
                        last_tile: f[4],
                        heavenly: f[5],
                        earthly: f[6],
                        human: f[7],
                        flower_win: f[8],
                    },
                    ready: [Ready::None, Ready::OnDeal, Ready::Declared][ready as usize],
                    last_copy: f[9],
                    discards,
                    late_fresh_discard: false,
                    wild: None,
                }
            },
        )
}

/// A random winning hand from the reference generator (melds, flowers, seats, contexts).
fn any_win() -> impl Strategy<Value = WinInput> {
    any::<u64>().prop_map(|seed| reference::random_win(&mut reference::Rng::new(seed)))
}

fn variants() -> Vec<Variant> {
    Variant::names()
        .iter()
        .map(|n| Variant::builtin(n).unwrap())
        .collect()
}

/// What is checked of every scored input: the breakdown adds up, the settlement sums to
/// zero.
fn check_scored(input: &WinInput, v: &Variant, base: i64, per_tai: i64) {
    if let Ok(s) = score(input, v) {
        let sum: u32 = s.patterns.iter().map(|p| p.tai as u32).sum();
        assert!(
            sum == s.total as u32 || s.capped,
            "{}: {s:?} {input:?}",
            v.name()
        );
        let (base, per_tai) = common::fit_stakes(v, base, per_tai);
        let pay = settle(&s, input, v, base, per_tai);
        assert_eq!(pay.0.iter().sum::<i64>(), 0, "{}: {input:?}", v.name());
    }
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn any_input_is_scored_or_refused(input in any_input(), base in 0i64..100, per_tai in 0i64..50) {
        for v in variants() {
            check_scored(&input, &v, base, per_tai);
        }
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn every_win_settles_to_zero(input in any_win(), base in 0i64..100, per_tai in 0i64..50) {
        for v in variants() {
            // A win built for taiwan16 may still be refused by another variant (a flower
            // win where it has none counts 0); either way no panic, and a sum of zero.
            check_scored(&input, &v, base, per_tai);
        }
        let v = Variant::builtin("taiwan16").unwrap();
        prop_assert!(score(&input, &v).is_ok(), "{:?}", input);
    }
}

/// The JSON of a request for `input`, its lists in the order `order` picks.
fn request(input: &WinInput, variant: &str, order: &mut reference::Rng) -> String {
    fn shuffle<T>(v: &mut [T], rng: &mut reference::Rng) {
        for i in (1..v.len()).rev() {
            v.swap(i, rng.below(i as u64 + 1) as usize);
        }
    }
    let mut tiles: Vec<String> = input.hand.tiles().map(|t| t.to_string()).collect();
    shuffle(&mut tiles, order);
    let mut melds: Vec<String> = input
        .melds
        .iter()
        .map(|m| {
            let mut ts: Vec<String> = m.tiles().map(|t| t.to_string()).collect();
            shuffle(&mut ts, order);
            format!(r#"["{}", "{}"]"#, m.kind().name(), ts.join(" "))
        })
        .collect();
    shuffle(&mut melds, order);
    let mut flowers: Vec<String> = input.flowers.iter().map(|f| format!(r#""{f}""#)).collect();
    shuffle(&mut flowers, order);
    let c = &input.context;
    let mut context: Vec<&str> = [
        (c.robbing_kong, "robbing_kong"),
        (c.kong_replacement, "kong_replacement"),
        (c.flower_replacement, "flower_replacement"),
        (c.last_tile, "last_tile"),
        (c.heavenly, "heavenly"),
        (c.earthly, "earthly"),
        (c.human, "human"),
        (c.flower_win, "flower_win"),
        (input.ready == Ready::OnDeal, "ready_on_deal"),
        (input.ready == Ready::Declared, "declared_ready"),
        (input.last_copy, "last_copy"),
    ]
    .into_iter()
    .filter(|(on, _)| *on)
    .map(|(_, name)| name)
    .collect();
    shuffle(&mut context, order);
    let quoted = |xs: &[&str]| {
        xs.iter()
            .map(|x| format!(r#""{x}""#))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let win_tile = input
        .win_tile
        .map(|t| format!(r#""win_tile": "{t}", "#))
        .unwrap_or_default();
    let discarder = input
        .discarder
        .map(|d| format!(r#""discarder": "{d}", "#))
        .unwrap_or_default();
    format!(
        r#"{{"variant": "{variant}", "seat": "{}", "dealer": "{}", "round_wind": "{}",
            "dealer_streak": {}, "hand": "{}", "melds": [{}], "flowers": [{}], {win_tile}
            {discarder} "win": "{}", "context": [{}], "discards": {}, "base": 20, "per_tai": 5}}"#,
        input.seat,
        input.dealer,
        input.round_wind,
        input.streak,
        tiles.join(" "),
        melds.join(", "),
        flowers.join(", "),
        if c.self_draw { "self_draw" } else { "discard" },
        quoted(&context),
        input.discards.unwrap_or(0),
    )
}

proptest! {
    #![proptest_config(config(256))]

    /// Shuffling the request's tiles, melds, flowers and circumstances changes nothing in
    /// the answer, and the answer's settlement sums to zero.
    #[test]
    fn the_score_does_not_depend_on_tile_order(input in any_win(), seed in any::<u64>()) {
        for name in Variant::names() {
            // Errors compared by their message: the same problem named the same way.
            let answer = |r: String| score_json(&r).map_err(|e| e.to_string());
            let first = answer(request(&input, name, &mut reference::Rng::new(seed)));
            let again = answer(request(&input, name, &mut reference::Rng::new(!seed)));
            prop_assert_eq!(&first, &again, "{} {:?}", name, input);
            // The generator's wins are taiwan16 wins: the request must be answered.
            prop_assert!(name != "taiwan16" || first.is_ok(), "{:?} {:?}", first, input);
            if let Ok(out) = first {
                let v: serde_json::Value = serde_json::from_str(&out).unwrap();
                let total: i64 = v["settlement"]
                    .as_object()
                    .unwrap()
                    .values()
                    .map(|x| x.as_i64().unwrap())
                    .sum();
                prop_assert_eq!(total, 0, "{}", out);
            }
        }
        // The Rust API too: melds in reverse order.
        let mut reversed = input.clone();
        reversed.melds.reverse();
        for v in variants() {
            prop_assert_eq!(score(&input, &v), score(&reversed, &v), "{}", v.name());
        }
    }
}

/// Tokens a request's strings are made of: good ones and near misses.
const HAND_TOKENS: &[&str] = &[
    "123m",
    "456p",
    "789s",
    "11m",
    "99s",
    "EEE",
    "CC",
    "5m",
    "0m",
    "10p",
    "x",
    "E",
    "P",
    "f1",
    "",
    "1111m",
    "12345678m",
];
const CONTEXTS: &[&str] = &[
    "robbing_kong",
    "kong_replacement",
    "flower_replacement",
    "last_tile",
    "heavenly",
    "earthly",
    "human",
    "flower_win",
    "ready_on_deal",
    "declared_ready",
    "last_copy",
    "late_fresh_discard",
    "lucky",
];
const SEATS: &[&str] = &["E", "S", "W", "N", "X", "", "EE"];
const MELD_NAMES: &[&str] = &[
    "chow",
    "pung",
    "kong",
    "concealed_kong",
    "added_kong",
    "claw",
];
const MELD_TILES: &[&str] = &["123m", "789s", "EEE", "CCCC", "5555p", "890m", "12m", "E"];
const VARIANTS: &[&str] = &[
    "taiwan16",
    "taiwan16-2015",
    "taiwan16-house",
    "mahjongtime",
    "nope",
];

proptest! {
    #![proptest_config(config(512))]

    /// Any JSON request built from good and bad pieces is answered or refused with a
    /// message, never a panic.
    #[test]
    fn any_json_request_is_answered_or_refused(
        hand in prop::collection::vec(0..HAND_TOKENS.len(), 0..8),
        melds in prop::collection::vec((0..MELD_NAMES.len(), 0..MELD_TILES.len()), 0..7),
        flowers in prop::collection::vec(0u8..10, 0..9),
        context in prop::collection::vec(0..CONTEXTS.len(), 0..4),
        seats in (0..SEATS.len(), 0..SEATS.len(), 0..SEATS.len()),
        discarder in prop::option::of(0..SEATS.len()),
        win_tile in prop::option::of(0..HAND_TOKENS.len()),
        self_draw in any::<bool>(),
        variant in 0..VARIANTS.len(),
        settle_with in prop::option::of((-5i64..50, -5i64..20)),
    ) {
        let hand: Vec<&str> = hand.iter().map(|&i| HAND_TOKENS[i]).collect();
        let melds: Vec<String> = melds
            .iter()
            .map(|&(k, t)| format!(r#"["{}", "{}"]"#, MELD_NAMES[k], MELD_TILES[t]))
            .collect();
        let flowers: Vec<String> = flowers.iter().map(|f| format!(r#""f{f}""#)).collect();
        let context: Vec<String> = context.iter().map(|&c| format!(r#""{}""#, CONTEXTS[c])).collect();
        let mut json = format!(
            r#"{{"variant": "{}", "seat": "{}", "dealer": "{}", "round_wind": "{}", "hand": "{}",
                "melds": [{}], "flowers": [{}], "context": [{}], "win": "{}""#,
            VARIANTS[variant],
            SEATS[seats.0],
            SEATS[seats.1],
            SEATS[seats.2],
            hand.join(" "),
            melds.join(", "),
            flowers.join(", "),
            context.join(", "),
            if self_draw { "self_draw" } else { "discard" },
        );
        if let Some(d) = discarder {
            json += &format!(r#", "discarder": "{}""#, SEATS[d]);
        }
        if let Some(w) = win_tile {
            json += &format!(r#", "win_tile": "{}""#, HAND_TOKENS[w]);
        }
        if let Some((base, per_tai)) = settle_with {
            json += &format!(r#", "base": {base}, "per_tai": {per_tai}"#);
        }
        json += "}";
        match score_json(&json) {
            Ok(out) => {
                let v: serde_json::Value = serde_json::from_str(&out).unwrap();
                if let Some(pay) = v["settlement"].as_object() {
                    let total: i64 = pay.values().map(|x| x.as_i64().unwrap()).sum();
                    prop_assert_eq!(total, 0, "{}", out);
                }
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}
