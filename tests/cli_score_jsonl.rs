//! `taisim score --jsonl`: one JSON request per input line, one answer per output line, run as
//! the real binary.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use serde_json::Value;

mod support;
use support::taisim_with_input;

const SELF_DRAW: &str = r#"{"hand": "123m 456m 789m 234p 99s 345s", "win_tile": "9s", "win": "self_draw", "seat": "S", "base": 10, "per_tai": 5}"#;
const HOUSE: &str = r#"{"variant": "taiwan16-house", "hand": "123m 456m 789m 234p 99s 345s", "win_tile": "9s", "win": "discard", "discarder": "E", "seat": "S"}"#;

/// The answer of `taisim score --json` to one request.
fn json_answer(request: &str) -> Value {
    let o = taisim_with_input(&["score", "--json"], request.as_bytes());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn answers_each_line_in_order_and_errors_do_not_stop() {
    let variant = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/score/variants/mahjongtime.toml"
    );
    let by_path = SELF_DRAW.replace("{", &format!("{{\"variant\": {variant:?}, "));
    let mut input = Vec::new();
    for line in [
        SELF_DRAW,
        "{not json",
        r#"{"hand": "11111m 456p", "win": "discard", "seat": "E", "win_tile": "1m"}"#,
        "",
        HOUSE,
        &by_path,
        r#"{"hand": "123m", "win": "discard", "seat": "E", "colour": "red"}"#,
        SELF_DRAW,
    ] {
        input.extend_from_slice(line.as_bytes());
        input.push(b'\n');
    }
    // A line that is not UTF-8, and a last line without its newline.
    input.extend_from_slice(b"\xff\xfe\n");
    input.extend_from_slice(HOUSE.as_bytes());
    let o = taisim_with_input(&["score", "--jsonl"], &input);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let answers: Vec<Value> = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), 10, "one answer per input line");
    let error = |i: usize| answers[i]["error"].as_str().unwrap_or_default().to_string();
    assert_eq!(answers[0], json_answer(SELF_DRAW));
    assert!(error(1).contains("bad JSON input"), "{}", error(1));
    assert!(!error(2).is_empty());
    assert!(error(3).contains("empty line"), "{}", error(3));
    assert_eq!(answers[4], json_answer(HOUSE));
    assert_eq!(answers[5], json_answer(&by_path));
    assert_eq!(answers[5]["variant"], "mahjongtime");
    assert!(error(6).contains("unknown field"), "{}", error(6));
    assert_eq!(answers[7], answers[0]);
    assert!(error(8).contains("not UTF-8"), "{}", error(8));
    assert_eq!(answers[9], answers[4]);
}

#[test]
fn answers_before_the_next_request_arrives() {
    // A co-process: each answer must be written while stdin stays open.
    let mut child = Command::new(env!("CARGO_BIN_EXE_taisim"))
        .args(["score", "--jsonl"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    for request in [SELF_DRAW, HOUSE] {
        writeln!(input, "{request}").unwrap();
        input.flush().unwrap();
        let mut line = String::new();
        output.read_line(&mut line).unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(&line).unwrap(),
            json_answer(request)
        );
    }
    drop(input);
    assert!(child.wait().unwrap().success());
}

#[test]
fn jsonl_refuses_a_hand_argument() {
    let o = taisim_with_input(&["score", "--jsonl", "123m"], b"");
    assert_eq!(o.status.code(), Some(2));
    let o = taisim_with_input(&["score", "--jsonl", "--json"], b"");
    assert_eq!(o.status.code(), Some(2));
}

/// What `taisim score --json` writes for one request, as the line `--jsonl` must write: the
/// answer, or for a refused request (exit status 2) `{"error": MESSAGE}` with the message it
/// printed.
fn json_line(request: &str) -> Vec<u8> {
    let o = taisim_with_input(&["score", "--json"], request.as_bytes());
    match o.status.code() {
        Some(0) => o.stdout,
        Some(2) => {
            let stderr = String::from_utf8(o.stderr).unwrap();
            let message = stderr
                .strip_prefix("error: ")
                .and_then(|m| m.strip_suffix('\n'))
                .unwrap_or_else(|| panic!("{stderr:?}"));
            let mut line = serde_json::to_vec(&serde_json::json!({ "error": message })).unwrap();
            line.push(b'\n');
            line
        }
        other => panic!("{request}: exit status {other:?}"),
    }
}

/// `--jsonl` answers every request with the bytes `--json` writes for it, errors included,
/// over every variant, every optional part of the answer (settlement, payments, values,
/// 全包, 胡 in halves) and every way a request is refused. Each answer is also the JSON a
/// `serde_json::Value` writes back (keys sorted, halves as `.5`): the form answers had when
/// they were built as values, so a field written out of order or a number written otherwise
/// is caught.
#[test]
fn jsonl_answers_are_the_json_answers_byte_for_byte() {
    // A variant whose 底胡 is odd, so that a win of no 台 is worth an odd number of 胡 and
    // the all-pairs settlement comes in halves (README "taizhou").
    let dir = tempfile::tempdir().unwrap();
    let odd = dir.path().join("taizhou-odd.toml");
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/score/variants/taizhou.toml"
    ))
    .unwrap();
    assert!(text.contains("\nbase_hu = 10 "));
    std::fs::write(&odd, text.replace("\nbase_hu = 10 ", "\nbase_hu = 11 ")).unwrap();
    let taizhou = |variant: &str, hand: &str, meld: &str, win_tile: &str, extra: &str| {
        format!(
            r#"{{"variant": {variant:?}, "seat": "S", "dealer": "E", "hand": "{hand}", "melds": [["pung", "{meld}"]], "win_tile": "{win_tile}", "win": "discard", "discarder": "W", "wild": "9s", "others": {{"E": {{"hand": "147m 28p E N", "melds": [["kong", "5s5s5s5s"], ["pung", "3m3m3m"]]}}, "W": {{"hand": "1m 19p EE SS W N FF 23s"}}, "N": {{"hand": "666m 237p 146s S W N F"}}}}{extra}}}"#
        )
    };
    let example = "234m 456p 77s 9s P 8s";
    let requests = [
        SELF_DRAW.to_string(),
        HOUSE.to_string(),
        SELF_DRAW.replace("{", r#"{"variant": "mahjongtime", "flowers": ["f2", "f6"], "#),
        HOUSE.replace(
            r#""variant": "taiwan16-house""#,
            r#""variant": "taiwan16-2015", "dealer": "W", "dealer_streak": 2"#,
        ),
        r#"{"seat": "N", "dealer": "N", "round_wind": "S", "hand": "111m 999p EEE CCC 55s 777s", "win_tile": "5s", "win": "discard", "discarder": "W", "base": 100, "per_tai": 20}"#.into(),
        r#"{"seat": "W", "hand": "234m 567p 88s 456s", "melds": [["chow", "123m"], ["pung", "NNN"]], "win_tile": "4s", "win": "self_draw", "context": ["last_tile"]}"#.into(),
        r#"{"seat": "E", "hand": "22m 678p", "melds": [["pung", "555m"], ["kong", "PPPP"], ["chow", "345s"], ["pung", "999p"]], "win_tile": "7p", "win": "self_draw", "discarder": "S", "context": ["kong_replacement"], "base": 10, "per_tai": 5}"#.into(),
        r#"{"seat": "S", "hand": "123m 234m 345m 567m 789m 99m", "win_tile": "9m", "win": "discard", "discarder": "E", "context": ["declared_ready"]}"#.into(),
        // Escapes in strings: "\u0020" is a space, "\u0045" an E.
        r#"{"seat": "\u0045", "hand": "123m\u0020456m 789m 234p 99s 345s", "win_tile": "9s", "win": "self_draw"}"#.into(),
        taizhou("taizhou", example, "CCC", "8s", ""),
        taizhou("taizhou", example, "CCC", "8s", r#", "base": 0, "per_tai": 50"#),
        taizhou("taizhou", "234m 456p 789s CC", "678p", "C", r#", "liability": {"fresh": true}"#).replace(r#""wild": "9s""#, r#""wild": "9m""#).replace(r#"["pung", "678p"]"#, r#"["chow", "678p"]"#),
        taizhou("taizhou", "234m 456p 789s CC", "678p", "C", r#", "liability": {"fresh": false}"#).replace(r#""wild": "9s""#, r#""wild": "9m""#).replace(r#"["pung", "678p"]"#, r#"["chow", "678p"]"#),
        taizhou(odd.to_str().unwrap(), example, "2m2m2m", "8s", r#", "base": 0, "per_tai": 2"#),
        // Refused: bad JSON, an unknown field, a wrong type, a missing field, a hand that
        // does not win, a bad seat, an unknown circumstance, a flower twice, stakes half
        // given, others under winner-pays, a fifth tile across the players.
        r#"{"hand": "123m 456m 789m 234p 99s 345s", "win": "self_draw""#.into(),
        SELF_DRAW.replace("{", r#"{"colour": "red", "#),
        SELF_DRAW.replace(r#""seat": "S""#, r#""seat": 5"#),
        SELF_DRAW.replace(r#""win": "self_draw", "#, ""),
        SELF_DRAW.replace("345s", "346s"),
        SELF_DRAW.replace(r#""seat": "S""#, r#""seat": "X""#),
        SELF_DRAW.replace("{", r#"{"context": ["moonlight"], "#),
        SELF_DRAW.replace("{", r#"{"flowers": ["f1", "f1"], "#),
        SELF_DRAW.replace(r#", "per_tai": 5"#, ""),
        taizhou("taiwan16", example, "CCC", "8s", "").replace(r#""wild": "9s", "#, ""),
        taizhou("taizhou", example, "CCC", "8s", "").replace("666m 237p 146s S W N F", "666m 237p 146s C C N F"),
    ];
    let mut input = Vec::new();
    let mut expected = Vec::new();
    for request in &requests {
        assert!(!request.contains('\n'));
        input.extend_from_slice(request.as_bytes());
        input.push(b'\n');
        expected.push(json_line(request));
    }
    let o = taisim_with_input(&["score", "--jsonl"], &input);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let answers: Vec<&[u8]> = o.stdout.split_inclusive(|&b| b == b'\n').collect();
    assert_eq!(answers.len(), requests.len(), "one answer per request");
    let refused = requests.len() - 11;
    for (i, ((request, answer), want)) in requests.iter().zip(&answers).zip(&expected).enumerate() {
        let text = std::str::from_utf8(answer).unwrap();
        assert_eq!(text, String::from_utf8_lossy(want), "{request}");
        let value: Value = serde_json::from_str(text).unwrap();
        assert_eq!(format!("{value}\n"), text, "{request}");
        // The mix is as meant: the last eleven are refused, the others scored.
        assert_eq!(value.get("error").is_some(), i >= refused, "{text}");
    }
    let halves = &answers[refused - 1];
    assert!(halves.windows(5).any(|w| w == b"-11.5"), "{halves:?}");
}
