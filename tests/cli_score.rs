//! `taisim score`, `taisim variants` and `taisim variant show`, run as the real binary.

mod support;
use support::{stderr, stdout, taisim, taisim_with_input};

#[test]
fn human_table() {
    let o = taisim(&[
        "score",
        "123m 456m 789m 234p 99s 345s",
        "--win-tile",
        "9s",
        "--self-drawn",
        "--seat",
        "S",
        "--base",
        "10",
        "--per-tai",
        "5",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("門清一摸三"), "{out}");
    assert!(out.contains("concealed_self_draw"), "{out}");
    assert!(out.contains("獨聽"), "{out}");
    let total = out.lines().find(|l| l.starts_with("total")).unwrap();
    assert!(total.trim_end().ends_with(" 4"), "{total}");
    // The dealer (E) pays the dealer's tai on top: 10 + (4 + 1) × 5.
    assert!(
        out.contains("settlement: E -35  S +95  W -30  N -30"),
        "{out}"
    );
}

#[test]
fn json_round() {
    let request = r#"{"variant": "mahjongtime", "round_wind": "S", "seat": "N", "dealer": "S",
        "hand": "999m EE", "melds": [["kong", "5555p"], ["pung", "777s"], ["pung", "222m"],
        ["pung", "CCC"]], "win_tile": "E", "win": "discard", "discarder": "E",
        "base": 0, "per_tai": 1}"#;
    let o = taisim_with_input(&["score", "--json"], request.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["total_tai"], 16);
    assert_eq!(v["dealer_tai"], 0);
    let ids: Vec<&str> = v["patterns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "winning",
            "single_wait",
            "no_flowers",
            "honor_pung",
            "exposed_kong",
            "all_pungs"
        ]
    );
    assert_eq!(v["patterns"][5]["name"], "對對胡");
    assert_eq!(v["patterns"][5]["name_en"], "All pungs");
    assert_eq!(v["patterns"][5]["tai"], 10);
    assert_eq!(v["settlement"]["E"], -16);
    assert_eq!(v["settlement"]["N"], 16);
    assert_eq!(v["settlement"]["S"], 0);
    assert_eq!(v["settlement"]["W"], 0);
    // Without base and per_tai there is no settlement.
    let o = taisim_with_input(
        &["score", "--json"],
        br#"{"seat": "S", "hand": "123m 456m 789m 234p 99s 345s", "win_tile": "9s",
                "win": "self_draw", "flowers": ["f2", "f6"], "context": ["last_tile"]}"#,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(v.get("settlement").is_none());
    // 門清一摸三 3 + 獨聽 1 + 正花 2 + 海底撈月 1.
    assert_eq!(v["total_tai"], 7);
}

/// Each impossible input: exit status 2 and a message naming the problem.
#[test]
fn bad_inputs_exit_2_naming_the_problem() {
    let ok_tail = r#""win_tile": "9s", "win": "self_draw""#;
    let cases: Vec<(String, &str)> = vec![
        // Wrong tile count.
        (
            format!(r#"{{"seat": "S", "hand": "123m 456m 789m 99s 345s", {ok_tail}}}"#),
            "concealed tiles",
        ),
        // A fifth copy, across hand and melds.
        (
            format!(
                r#"{{"seat": "S", "hand": "1111m 456m 99s 345s",
                    "melds": [["pung", "111m"], ["chow", "234p"]], {ok_tail}}}"#
            ),
            "fifth",
        ),
        // A fifth copy within the hand.
        (
            format!(r#"{{"seat": "S", "hand": "11111m 456m 789p 99s 345s", {ok_tail}}}"#),
            "fifth",
        ),
        // Not a winning shape.
        (
            format!(r#"{{"seat": "S", "hand": "123m 456m 789m 234p 19s 345s", {ok_tail}}}"#),
            "not a winning shape",
        ),
        // Unknown tiles.
        (
            format!(r#"{{"seat": "S", "hand": "123m 456m 789m 234p 99x 345s", {ok_tail}}}"#),
            "unexpected character 'x'",
        ),
        (
            r#"{"seat": "S", "hand": "123m 456m 789m 234p 99s 345s", "win_tile": "0s",
                "win": "self_draw"}"#
                .to_string(),
            "win_tile",
        ),
        // Circumstances the seats or the hand rule out (issue 15), named with their rule.
        (
            format!(
                r#"{{"seat": "S", "hand": "123m 456m 789m 234p 99s 345s", {ok_tail},
                    "context": ["heavenly"]}}"#
            ),
            "heavenly (天胡)",
        ),
        (
            r#"{"seat": "S", "hand": "123m 456m 789m 234p 99s 345s", "win_tile": "9s",
                "win": "self_draw", "discarder": "W"}"#
                .to_string(),
            "a self-draw has no discarder",
        ),
        (
            format!(
                r#"{{"seat": "S", "hand": "123m 456m 789m 234p 99s 345s", {ok_tail},
                    "flowers": ["f1"], "context": ["flower_win"]}}"#
            ),
            "all eight flowers",
        ),
        // An unknown field.
        (
            format!(
                r#"{{"seat": "S", "hand": "123m 456m 789m 234p 99s 345s", {ok_tail},
                    "colour": 1}}"#
            ),
            "unknown field `colour`",
        ),
        // Malformed JSON.
        (r#"{"seat": "S", "hand": "#.to_string(), "bad JSON"),
        // Well-formed JSON that is not a request: named for what it is, not by the
        // request's field count.
        (
            "[]".to_string(),
            "a request is a JSON object ({\"seat\": …, \"hand\": …}); got an array",
        ),
        (r#""S""#.to_string(), "got a string"),
        ("7".to_string(), "got a number"),
        ("null".to_string(), "got null"),
        // Bad values.
        (
            format!(r#"{{"seat": "X", "hand": "123m 456m 789m 234p 99s 345s", {ok_tail}}}"#),
            "not a seat",
        ),
        (
            r#"{"seat": "S", "hand": "123m 456m 789m 234p 99s 345s", "win_tile": "9s",
                "win": "discard"}"#
                .to_string(),
            "discarder",
        ),
        (
            format!(
                r#"{{"seat": "S", "hand": "123m 456m 789m 234p 99s 345s", {ok_tail},
                    "context": ["lucky"]}}"#
            ),
            "unknown circumstance",
        ),
        (
            format!(
                r#"{{"seat": "S", "hand": "456m 789m 99s 345s", "melds": [["chow", "124p"]],
                    {ok_tail}}}"#
            ),
            "is not a chow",
        ),
        (
            format!(
                r#"{{"variant": "nope", "seat": "S", "hand": "123m 456m 789m 234p 99s 345s",
                    {ok_tail}}}"#
            ),
            "no such variant",
        ),
    ];
    for (input, needle) in &cases {
        let o = taisim_with_input(&["score", "--json"], input.as_bytes());
        assert_eq!(o.status.code(), Some(2), "{input}: {}", stdout(&o));
        let err = stderr(&o);
        assert!(err.starts_with("error: "), "{input}: {err}");
        assert!(
            err.contains(needle),
            "{input}: expected {needle:?} in {err}"
        );
        assert!(stdout(&o).is_empty());
    }
    // The human form too.
    let o = taisim(&["score", "123m 456m 789m 234p 99s 345s"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("win_tile is missing"), "{}", stderr(&o));
}

#[test]
fn variants_and_variant_show() {
    let o = taisim(&["variants"]);
    assert!(o.status.success());
    let out = stdout(&o);
    for name in ["taiwan16", "taiwan16-house", "taiwan16-2015", "mahjongtime"] {
        assert!(out.lines().any(|l| l.starts_with(name)), "{out}");
    }
    let o = taisim(&["variant", "show", "taiwan16-2015"]);
    assert!(o.status.success());
    let shown = stdout(&o);
    assert!(shown.contains("name = \"taiwan16-2015\""));
    assert!(shown.contains("three_pungs_and_chow = { tai = 40"));
    // What `show` prints is itself a variant file: load it back by path.
    let dir = std::env::temp_dir().join(format!("taisim-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("shown.toml");
    std::fs::write(&path, &shown).unwrap();
    let o = taisim(&["variant", "show", path.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), shown);
    // A broken file: named, with its line.
    let bad = dir.join("bad.toml");
    std::fs::write(
        &bad,
        shown.replace("three_pungs_and_chow", "three_pungs_and_chew"),
    )
    .unwrap();
    let o = taisim(&["variant", "show", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    let line = shown
        .lines()
        .position(|l| l.starts_with("three_pungs_and_chow"))
        .unwrap()
        + 1;
    assert!(
        err.contains(&format!(
            "bad.toml:{line}: unknown pattern id \"three_pungs_and_chew\""
        )),
        "{err}"
    );
    let o = taisim(&["variant", "show", "no-such-variant"]);
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A total the variant's limit cut is said, in the table and as `capped` in the JSON, with
/// what the patterns add up to (mahjongtime-taiwanese-scoring.md:7 makes a 40 limit an
/// option); a total under the limit is not.
#[test]
fn a_total_cut_by_the_limit_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mt40.toml");
    std::fs::write(
        &file,
        "extends = \"mahjongtime\"\nname = \"mt40\"\ndescription = \"a 40 limit\"\n[tai]\nmax = 40\n",
    )
    .unwrap();
    let variant = file.to_str().unwrap();
    let big = [
        "score",
        "EEESSSWWWNNN11m234p",
        "--win-tile",
        "1m",
        "--self-drawn",
    ];
    let o = taisim(&[&big[..], &["--variant", variant]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let total = out.lines().find(|l| l.starts_with("total")).unwrap();
    assert!(
        total.contains("40  (capped at the variant's limit; the patterns add up to 66)"),
        "{out}"
    );
    let o = taisim(&big);
    assert!(!stdout(&o).contains("capped"), "{}", stdout(&o));

    for (variant, capped) in [(variant, true), ("mahjongtime", false)] {
        let request = format!(
            r#"{{"variant": "{variant}", "hand": "EEESSSWWWNNN11m234p", "win_tile": "1m", "win": "self_draw", "seat": "S"}}"#
        );
        let o = taisim_with_input(&["score", "--json"], request.as_bytes());
        assert!(o.status.success(), "{}", stderr(&o));
        let answer: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(answer["capped"], capped, "{variant}");
        assert_eq!(
            answer["total_tai"],
            if capped { 40 } else { 66 },
            "{variant}"
        );
    }
}
