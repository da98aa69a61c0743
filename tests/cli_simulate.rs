//! `taisim simulate` and `taisim replay` run as the real binary: a run killed mid-way and
//! resumed gives the files of an uninterrupted run, and bad arguments exit with status 2.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

fn taisim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_taisim"))
        .args(args)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Each part's (index, deals, wins, tai) checksums from a run's manifest.
fn parts(out: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(out.join("manifest.json")).unwrap();
    let m: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(m["status"], "complete");
    m["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            serde_json::json!([
                p["index"],
                p["deals"]["sha256"],
                p["wins"]["sha256"],
                p["tai"]["sha256"]
            ])
        })
        .collect()
}

const RUN: [&str; 10] = [
    "simulate",
    "--deals",
    "40000",
    "--agents",
    "random",
    "--seed",
    "5",
    "--part-size",
    "1000",
    "--quiet",
];

#[test]
fn a_killed_run_resumes_to_the_same_files() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    let killed = dir.path().join("killed");
    let o = taisim(&[&RUN[..], &["--out", whole.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));

    let mut child = Command::new(env!("CARGO_BIN_EXE_taisim"))
        .args(RUN)
        .args(["--threads", "1", "--out", killed.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once a few parts are complete (or at once, if it is already done).
    let first = killed.join("deals").join("part-00003.parquet");
    for _ in 0..2_000 {
        if first.exists() || child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().ok();
    child.wait().unwrap();

    let o = taisim(&[
        "simulate",
        "--resume",
        "--out",
        killed.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(parts(&whole), parts(&killed));
    assert_eq!(parts(&whole).len(), 40);

    // Deal 12345 replays to the payments the run recorded (replay checks them itself).
    let o = taisim(&["replay", whole.to_str().unwrap(), "12345"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("result: "));
}

#[test]
fn bad_arguments_exit_2_and_name_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let out = out.to_str().unwrap();
    let cases: [(&[&str], &str); 6] = [
        (
            &["simulate", "--variant", "taiwan99", "--out", out],
            "taiwan16-house",
        ),
        (
            &[
                "simulate",
                "--agents",
                "greedy,smart,random,random",
                "--out",
                out,
            ],
            "known agents",
        ),
        (&["simulate", "--deals", "0", "--out", out], "at least 1"),
        (&["simulate", "--shard", "5/4", "--out", out], "K/N"),
        (&["simulate", "--resume"], "--out"),
        (&["simulate", "--resume", "--out", out], "manifest.json"),
    ];
    for (args, needle) in cases {
        let o = taisim(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    }
    // Nothing was created by the failed attempts.
    assert!(!Path::new(out).exists());

    let o = taisim(&[
        "simulate",
        "--deals",
        "50",
        "--part-size",
        "20",
        "--out",
        out,
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = taisim(&["simulate", "--deals", "50", "--out", out]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not empty"), "{}", stderr(&o));
    let o = taisim(&["simulate", "--resume", "--out", out, "--seed", "3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("seed"), "{}", stderr(&o));
    let o = taisim(&["replay", out, "50"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn schema_lists_every_table() {
    let o = taisim(&["simulate", "--schema"]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    for needle in [
        "deals/part-NNNNN.parquet",
        "wins/part-NNNNN.parquet",
        "tai/part-NNNNN.parquet",
        "pay_e",
        "total_tai",
        "pattern",
        "actions",
    ] {
        assert!(text.contains(needle), "{needle}");
    }
}
