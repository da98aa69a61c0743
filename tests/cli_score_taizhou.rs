//! `taisim score` for 台州, run as the real binary: the JSON round of taizhou.md's first
//! example (:400-417), the human form with --wild, and the refused requests (exit 2).

mod support;
use support::{taisim, taisim_with_input};

const OTHERS: &str = r#""others": {
    "E": {"hand": "147m 28p E N", "melds": [["kong", "5s5s5s5s"], ["pung", "3m3m3m"]]},
    "W": {"hand": "1m 19p EE SS W N FF 23s"},
    "N": {"hand": "666m 237p 146s S W N F"}}"#;

fn request(hand: &str, melds: &str, wild: &str, others: &str) -> String {
    format!(
        r#"{{"variant": "taizhou", "seat": "S", "hand": "{hand}", "melds": {melds},
            "win_tile": "8s", "win": "discard", "discarder": "W", "wild": "{wild}" {others}}}"#
    )
}

#[test]
fn json_and_human_forms() {
    let req = request(
        "234m 456p 77s 9s P 8s",
        r#"[["pung", "CCC"]]"#,
        "9s",
        &format!(", {OTHERS}"),
    );
    let o = taisim_with_input(&["score", "--json"], req.as_bytes());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let a: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(a["points"], 32);
    assert_eq!(a["settlement"]["S"], 64);
    assert_eq!(a["values"]["N"], 4);

    let o = taisim(&[
        "score",
        "234m 456p 77s 9s P 8s",
        "--variant",
        "taizhou",
        "--seat",
        "S",
        "--win-tile",
        "8s",
        "--discarder",
        "W",
        "--meld",
        "pung:CCC",
        "--wild",
        "9s",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("嵌档胡") && out.contains("= 32"), "{out}");
}

#[test]
fn refused_requests_exit_2() {
    let cases = [
        // A wild in a claimed meld.
        (
            request("234m 456p 77s 9s P 8s", r#"[["pung", "CCC"]]"#, "C", ""),
            "never takes part",
        ),
        // A fourth copy of the wild kind, the turned-up one counted.
        (
            request(
                "234m 456p 77s 9s P 8s",
                r#"[["pung", "CCC"]]"#,
                "9s",
                &format!(
                    ", {}",
                    OTHERS
                        .replace("1m 19p EE", "9s 19p EE")
                        .replace("666m 237p 146s S W N F", "9s9s 66m 237p 146s S W N")
                ),
            ),
            "a fourth 9s",
        ),
        // A hand that does not win.
        (
            request("234m 456p 77s 9s P 6s", r#"[["pung", "CCC"]]"#, "9s", "")
                .replace(r#""win_tile": "8s""#, r#""win_tile": "6s""#),
            "not a winning shape",
        ),
        // Others for a tai variant.
        (
            format!(
                r#"{{"seat": "S", "hand": "123m 456m 789m 234p 99s 345s", "win_tile": "9s",
                    "win": "self_draw", {OTHERS}}}"#
            ),
            "others",
        ),
    ];
    for (req, needle) in cases {
        let o = taisim_with_input(&["score", "--json"], req.as_bytes());
        assert_eq!(o.status.code(), Some(2), "{req}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(needle), "{err} lacks {needle}");
    }
}

/// Impossible requests of issue 22 (item 10), exit 2 naming the contradiction: a win on a
/// discarded wild, flowers under Taizhou, and 地胡 with a ready hand declared by a discard.
#[test]
fn impossible_requests_exit_2() {
    let wild_win = request("234m 456p 77s 9s P 9s", r#"[["pung", "CCC"]]"#, "9s", "")
        .replace(r#""win_tile": "8s""#, r#""win_tile": "9s""#);
    let flowers = request("234m 456p 77s 9s P 8s", r#"[["pung", "CCC"]]"#, "9s", "")
        .replace(r#""wild": "9s""#, r#""wild": "9s", "flowers": ["f1"]"#);
    let earthly = r#"{"seat": "S", "hand": "123m 456m 789m 234p 99s 345s", "win_tile": "9s",
        "win": "self_draw", "context": ["earthly", "declared_ready"]}"#
        .to_string();
    for (req, needle) in [
        (wild_win, "discarded 9s, the wild kind"),
        (flowers, "without flowers"),
        (earthly, "not with declared_ready"),
    ] {
        let o = taisim_with_input(&["score", "--json"], req.as_bytes());
        assert_eq!(o.status.code(), Some(2), "{req}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(needle), "{err} lacks {needle}");
    }
}
