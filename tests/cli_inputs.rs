//! Bad input the real binary must name plainly (issue 22, "Small"): negative numbers, a
//! byte-order mark before JSON, `--variant` beside `--json`, input past any request's size,
//! control characters in names, an output directory that cannot be made, a file where a run
//! belongs.

use std::path::Path;

mod support;
use support::{stderr, stdout, taisim, taisim_with_input, taisim_within};

const HAND: &str = "123m 456m 789m 234p 99s 345s";

fn request() -> String {
    serde_json::json!({"hand": HAND, "seat": "E", "win": "self_draw", "win_tile": "9s"}).to_string()
}

/// Every unsigned number a command takes: a negative one is "must be ≥ 0" with the flag
/// named by clap (a count of deals or games, "must be at least 1", as 0 is), never "invalid
/// digit" or "unexpected argument".
#[test]
fn negative_numbers_must_be_at_least_zero() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let o = taisim(&[
        "simulate",
        "--deals",
        "20",
        "--quiet",
        "--out",
        run.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let run = run.to_str().unwrap();
    let out = dir.path().join("never");
    let out = out.to_str().unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec!["simulate", "--deals", "-1", "--out", out],
        vec!["simulate", "--deals=-1", "--out", out],
        vec!["simulate", "--games", "-2", "--out", out],
        vec!["simulate", "--part-size", "-5", "--out", out],
        vec!["simulate", "--seed", "-1", "--out", out],
        vec!["simulate", "--threads", "-1", "--out", out],
        vec!["engine-bench", "--deals", "-1"],
        vec!["deal", "--seed", "-3"],
        vec!["replay", run, "-5"],
        vec!["report", run, "--top", "-1"],
        vec!["report", run, "--threads=-2"],
        vec![
            "score",
            HAND,
            "--win-tile",
            "9s",
            "--self-drawn",
            "--streak",
            "-1",
        ],
        vec![
            "score",
            HAND,
            "--win-tile",
            "9s",
            "--self-drawn",
            "--discards=-4",
        ],
        vec![
            "arena",
            "--candidate",
            "greedy",
            "--baseline",
            "random",
            "--deals",
            "-3",
        ],
    ];
    for args in &cases {
        let o = taisim(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        let counts = ["--deals", "--deals=-1", "--games", "--part-size"];
        let least = if args.iter().any(|a| counts.contains(a)) {
            "must be at least 1"
        } else {
            "must be ≥ 0"
        };
        assert!(err.contains(least), "{args:?}: {err}");
        assert!(!err.contains("invalid digit"), "{args:?}: {err}");
    }
    // Signed stakes take the sign and are then bounded by the variant's rules.
    for flag in ["--base", "--per-tai"] {
        let o = taisim(&["simulate", "--deals", "5", flag, "-1", "--out", out]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("out of bounds (must be 0 to"),
            "{}",
            stderr(&o)
        );
    }
    // Not whole numbers: a stake is named, never "invalid digit".
    for (flag, value) in [("--base", "1.5"), ("--per-tai", "nan"), ("--base", "1e30")] {
        let o = taisim(&["simulate", "--deals", "5", flag, value, "--out", out]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("is not a stake"), "{}", stderr(&o));
    }
    // Past a run's thread limit, however many digits: that limit is named, not u64's.
    for value in ["5000", "99999999999999999999"] {
        let o = taisim(&["simulate", "--deals", "5", "--threads", value, "--out", out]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("more than the 1024"), "{}", stderr(&o));
    }
    // Past a small type's range: the largest is named.
    let o = taisim(&[
        "score",
        HAND,
        "--win-tile",
        "9s",
        "--self-drawn",
        "--streak",
        "256",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("more than 255"), "{}", stderr(&o));
    assert!(!Path::new(out).exists());
}

#[test]
fn a_byte_order_mark_before_json_is_named() {
    let bom = format!("\u{feff}{}", request());
    let o = taisim_with_input(&["score", "--json"], bom.as_bytes());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("byte-order mark"), "{}", stderr(&o));
    // --jsonl: that line is answered with the error, the next one is scored.
    let lines = format!("{bom}\n{}\n", request());
    let o = taisim_with_input(&["score", "--jsonl"], lines.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    let answers: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), 2);
    assert!(answers[0]["error"]
        .as_str()
        .unwrap()
        .contains("byte-order mark"));
    assert!(answers[1]["total_tai"].is_number(), "{}", answers[1]);
}

/// `--variant` cannot silently be ignored beside `--json`/`--jsonl`: refused, naming where
/// the variant goes.
#[test]
fn variant_beside_json_is_refused() {
    for mode in ["--json", "--jsonl"] {
        let o = taisim_with_input(
            &["score", mode, "--variant", "taizhou"],
            request().as_bytes(),
        );
        assert_eq!(o.status.code(), Some(2), "{mode}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains("--variant does not apply"), "{err}");
        assert!(err.contains("\"variant\": \"taizhou\""), "{err}");
    }
}

/// More than any request on stdin is refused (`--json`) or answered line by line with the
/// line skipped, never held whole (`--jsonl`).
#[test]
fn input_past_any_request_is_bounded() {
    let huge = vec![b' '; 17 << 20];
    // It stops reading at the bound: the rest of the input meets a closed pipe.
    let o = taisim_within(&["score", "--json"], &huge, 60).expect("score --json hung");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("more than 16777216 bytes"),
        "{}",
        stderr(&o)
    );
    let mut lines = vec![b'x'; 3 << 20];
    lines.push(b'\n');
    lines.extend_from_slice(request().as_bytes());
    lines.push(b'\n');
    let o = taisim_with_input(&["score", "--jsonl"], &lines);
    assert!(o.status.success(), "{}", stderr(&o));
    let answers: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), 2, "{answers:?}");
    assert!(answers[0]["error"]
        .as_str()
        .unwrap()
        .contains("longer than"));
    assert!(answers[1]["total_tai"].is_number());
}

/// A variant name (or a path) holding control characters reaches no terminal raw: each
/// is written as an escape, on stdout and on stderr.
#[test]
fn control_characters_in_names_are_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/score/variants/taiwan16.toml"
    ))
    .unwrap()
    .replace("name = \"taiwan16\"", "name = \"evil\\u001B[2J\\r\\u0007\"");
    let path = dir.path().join("evil.toml");
    std::fs::write(&path, text).unwrap();
    let path = path.to_str().unwrap();
    let run = dir.path().join("run");
    let outputs = [
        taisim(&[
            "score",
            HAND,
            "--win-tile",
            "9s",
            "--self-drawn",
            "--variant",
            path,
        ]),
        taisim(&[
            "simulate",
            "--deals",
            "30",
            "--variant",
            path,
            "--out",
            run.to_str().unwrap(),
        ]),
        taisim(&["report", run.to_str().unwrap()]),
        taisim(&["variant", "show", &format!("{path}\u{1b}[31m")]),
    ];
    for (i, o) in outputs.iter().enumerate() {
        let all = [&o.stdout[..], &o.stderr[..]].concat();
        assert!(
            !all.iter().any(|&b| b == 0x1b || b == 0x07 || b == b'\r'),
            "output {i} holds a raw control character: {}",
            String::from_utf8_lossy(&all)
        );
    }
    for o in &outputs[..3] {
        assert!(o.status.success(), "{}", stderr(o));
        assert!(
            stdout(o).contains("evil\\u{1b}[2J\\u{d}\\u{7}"),
            "{}",
            stdout(o)
        );
    }
    assert_eq!(outputs[3].status.code(), Some(2));
}

/// An output directory that cannot be made is a usage error (exit 2, as README says),
/// before anything is written.
#[test]
fn an_output_directory_that_cannot_be_made_is_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file");
    std::fs::write(&file, "x").unwrap();
    for out in [file.join("run"), file.clone()] {
        let o = taisim(&["simulate", "--deals", "10", "--out", out.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains(out.to_str().unwrap()), "{}", stderr(&o));
    }
    assert_eq!(std::fs::read(&file).unwrap(), b"x");
}

/// A file given where a command reads a run, or where the path of what it writes needs a
/// directory, is a usage error that names the path (it was exit 1, "cannot inspect
/// FILE/report.md: Not a directory"); the file is left as it was.
#[test]
fn a_file_where_a_run_belongs_is_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file");
    std::fs::write(&file, "x").unwrap();
    let f = file.to_str().unwrap();
    let inside = file.join("report.md");
    let d = dir.path().to_str().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (&["report", f], "is not a directory"),
        (&["compare", f, f], "is not a directory"),
        (&["compare", d, f], "is not a directory"),
        (&["review", f, "0", "--seat", "E"], "is not a directory"),
        (
            &["report", d, "--markdown", inside.to_str().unwrap()],
            "Not a directory",
        ),
    ];
    for (args, says) in cases {
        let o = taisim(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(f), "{args:?}: {}", stderr(&o));
    }
    // A file to resume is named as a file, and a path that is not there as missing.
    let o = taisim(&["simulate", "--resume", "--out", f]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!("{f} is not a directory")),
        "{}",
        stderr(&o)
    );
    let missing = dir.path().join("nothere");
    let m = missing.to_str().unwrap();
    for args in [
        &["report", m][..],
        &["replay", m, "1"],
        &["review", m, "0", "--seat", "E"],
        &["simulate", "--resume", "--out", m],
    ] {
        let o = taisim(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!("{m} does not exist")),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    assert!(!missing.exists());
    assert_eq!(std::fs::read(&file).unwrap(), b"x");
}
