//! `taisim score --jsonl`: one JSON request per input line, one answer per output line, run as
//! the real binary.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn taisim(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_taisim"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin).unwrap();
    drop(input);
    child.wait_with_output().unwrap()
}

const SELF_DRAW: &str = r#"{"hand": "123m 456m 789m 234p 99s 345s", "win_tile": "9s", "win": "self_draw", "seat": "S", "base": 10, "per_tai": 5}"#;
const HOUSE: &str = r#"{"variant": "taiwan16-house", "hand": "123m 456m 789m 234p 99s 345s", "win_tile": "9s", "win": "discard", "discarder": "E", "seat": "S"}"#;

/// The answer of `taisim score --json` to one request.
fn json_answer(request: &str) -> Value {
    let o = taisim(&["score", "--json"], request.as_bytes());
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
    let o = taisim(&["score", "--jsonl"], &input);
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
    let o = taisim(&["score", "--jsonl", "123m"], b"");
    assert_eq!(o.status.code(), Some(2));
    let o = taisim(&["score", "--jsonl", "--json"], b"");
    assert_eq!(o.status.code(), Some(2));
}
