//! The JSON protocol for 台州: `wild` and `others` in, `points`, `base_points`, `tai`,
//! `patterns`, `values` and `settlement` out (taizhou.md:400-417, the first example), and the
//! requests it refuses.

use serde_json::{json, Value};
use taisim_score::score_json;

/// taizhou.md:400-417 as a request: South wins West's 8s, East deals; the others' tiles
/// as in `taizhou_examples.rs`.
fn example() -> Value {
    json!({
        "variant": "taizhou",
        "seat": "S",
        "dealer": "E",
        "hand": "234m 456p 77s 9s P 8s",
        "melds": [["pung", "CCC"]],
        "win_tile": "8s",
        "win": "discard",
        "discarder": "W",
        "wild": "9s",
        "others": {
            "E": {"hand": "147m 28p E N", "melds": [["kong", "5s5s5s5s"], ["pung", "3m3m3m"]]},
            "W": {"hand": "1m 19p EE SS W N FF 23s"},
            "N": {"hand": "666m 237p 146s S W N F"}
        }
    })
}

fn answer(req: &Value) -> Value {
    serde_json::from_str(&score_json(&req.to_string()).unwrap()).unwrap()
}

#[test]
fn the_first_example_round_trips() {
    let a = answer(&example());
    assert_eq!(a["points"], 32);
    assert_eq!(a["base_points"], 6);
    assert_eq!(a["tai"], 1);
    assert_eq!(a["values"], json!({"E": 10, "S": 32, "W": 0, "N": 4}));
    assert_eq!(
        a["settlement"],
        json!({"E": -16, "S": 64, "W": -28, "N": -20})
    );
    let ids: Vec<&str> = a["patterns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "plain_pair",
            "middle_wait",
            "exposed_pung_terminal",
            "dragon_set"
        ]
    );
    // With stakes, the money too: 50 per 胡 (taizhou.md:409-415).
    let mut req = example();
    req["base"] = json!(0);
    req["per_tai"] = json!(50);
    let a = answer(&req);
    assert_eq!(
        a["payments"],
        json!({"E": -800, "S": 3200, "W": -1400, "N": -1000})
    );
}

fn refused(req: &Value, needle: &str) {
    match score_json(&req.to_string()) {
        Err(e) => assert!(e.to_string().contains(needle), "{e:?} lacks {needle:?}"),
        Ok(a) => panic!("accepted: {a}"),
    }
}

#[test]
fn bad_requests_are_refused_by_name() {
    // A wild in a claimed meld (taizhou.md 得牌 "也不能参与吃 / 碰 / 杠").
    let mut req = example();
    req["wild"] = json!("C");
    refused(&req, "a wild (得牌) never takes part");
    let mut req = example();
    req["others"]["E"]["melds"][1] = json!(["pung", "9s9s9s"]);
    refused(&req, "a wild (得牌) never takes part");
    // A fourth copy of the wild kind: the turned-up one is out of play.
    let mut req = example();
    req["others"]["W"]["hand"] = json!("9s 19p EE SS W N FF 23s");
    req["others"]["N"]["hand"] = json!("9s9s 66m 237p 146s S W N");
    refused(&req, "a fourth 9s");
    // A fifth copy across the players.
    let mut req = example();
    req["others"]["N"]["hand"] = json!("666m 237p 146s C C N F");
    refused(&req, "a fifth C");
    // A hand that does not win.
    let mut req = example();
    req["hand"] = json!("234m 456p 77s 9s P 6s");
    req["win_tile"] = json!("6s");
    refused(&req, "not a winning shape");
    // Others under a winner-pays variant, and a missing or extra seat.
    let mut req = example();
    req["variant"] = json!("taiwan16");
    req.as_object_mut().unwrap().remove("wild");
    refused(&req, "others");
    let mut req = example();
    req["others"].as_object_mut().unwrap().remove("N");
    refused(&req, "N is missing");
    let mut req = example();
    req["others"]["S"] = json!({"hand": "1m"});
    refused(&req, "S is the winner");
    // A non-winner's tile count.
    let mut req = example();
    req["others"]["W"]["hand"] = json!("1m 19p EE SS W N FF 2s");
    refused(&req, "others.W");
    // The wild is needed, and only where the variant has one.
    let mut req = example();
    req.as_object_mut().unwrap().remove("wild");
    refused(&req, "give the wild");
}

/// 全包 through the request: West, not ready, discards a fresh 中 that South wins (case 2,
/// taizhou.md:467); West's value counts 0 and it pays for everyone.
#[test]
fn liability_in_a_request() {
    let mut req = example();
    req["hand"] = json!("234m 456p 789s CC");
    req["melds"] = json!([["chow", "678p"]]);
    req["win_tile"] = json!("C");
    req["wild"] = json!("9m");
    let plain = answer(&req);
    assert!(plain.get("responsible").is_none());
    req["liability"] = json!({"fresh": true});
    let a = answer(&req);
    assert_eq!(a["responsible"], "W");
    assert_eq!(a["liability_case"], 2);
    let paid = |a: &Value, s: &str| a["settlement"][s].as_f64().unwrap();
    for s in ["E", "N"] {
        assert!(paid(&a, s) >= 0.0, "{a}");
    }
    assert_eq!(
        paid(&a, "W"),
        -(paid(&a, "S") + paid(&a, "E") + paid(&a, "N")),
        "{a}"
    );
    // Near miss: the 中 had been seen.
    req["liability"] = json!({"fresh": false});
    assert!(answer(&req).get("responsible").is_none());
    // Liability without the other players is refused.
    req.as_object_mut().unwrap().remove("others");
    refused(&req, "liability: give others too");
}
