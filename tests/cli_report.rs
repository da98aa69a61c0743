//! `taisim report`, run as the real binary on a run `taisim simulate` wrote.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn taisim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_taisim"))
        .args(args)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A scratch directory removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("taisim-cli-report-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn simulate(out: &Path) {
    let o = taisim(&[
        "simulate",
        "--deals",
        "400",
        "--part-size",
        "150",
        "--agents",
        "greedy",
        "--seed",
        "5",
        "--threads",
        "2",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
}

#[test]
fn prints_tables_and_writes_markdown() {
    let scratch = Scratch::new("ok");
    let run = scratch.0.join("run");
    simulate(&run);
    let o = taisim(&["report", run.to_str().unwrap(), "--top", "4"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    for needle in [
        "variant",
        "taiwan16",
        "400 deals, seed 5",
        "Outcomes",
        "exhaustive draw",
        "By seat",
        "Patterns",
        "the top 4 of",
        "Tai distribution",
        "report.md",
    ] {
        assert!(out.contains(needle), "{needle} in {out}");
    }
    let md = std::fs::read_to_string(run.join("report.md")).unwrap();
    assert!(md.starts_with("# taisim report"), "{md}");
    assert!(md.contains("## Patterns"));

    // --markdown elsewhere; the same run gives the same text with one thread.
    let elsewhere = scratch.0.join("r.md");
    let again = taisim(&[
        "report",
        run.to_str().unwrap(),
        "--top",
        "4",
        "--threads",
        "1",
        "--markdown",
        elsewhere.to_str().unwrap(),
    ]);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert_eq!(std::fs::read_to_string(&elsewhere).unwrap(), md);
}

#[test]
fn bad_runs_fail_with_the_right_status() {
    let scratch = Scratch::new("bad");
    let o = taisim(&["report", scratch.0.join("missing").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("missing"), "{}", text(&o.stderr));

    let o = taisim(&["report", scratch.0.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("manifest"), "{}", text(&o.stderr));

    let run = scratch.0.join("run");
    simulate(&run);
    let deals = run.join("deals").join("part-00001.parquet");
    let bytes = std::fs::read(&deals).unwrap();
    std::fs::write(&deals, &bytes[..bytes.len() - 100]).unwrap();
    let o = taisim(&["report", run.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("deals/part-00001.parquet"),
        "{}",
        text(&o.stderr)
    );
    assert!(
        !run.join("report.md").exists(),
        "no report from a damaged run"
    );
}

/// Manifests with values no run could have (a part size of 0, a split into 0 shards, shard
/// 0): `report`, `replay` and `simulate --resume` name the problem instead of dividing by
/// zero.
#[test]
fn impossible_manifests_are_named_not_divided_by() {
    let scratch = Scratch::new("impossible");
    let run = scratch.0.join("run");
    simulate(&run);
    let manifest = run.join("manifest.json");
    let good = std::fs::read_to_string(&manifest).unwrap();
    type Edit = fn(&mut serde_json::Value);
    let edits: [(&str, Edit, &str); 4] = [
        (
            "part size 0",
            |m| m["spec"]["part_size"] = 0.into(),
            "part size",
        ),
        (
            "0 shards",
            |m| m["spec"]["shard"]["count"] = 0.into(),
            "shard",
        ),
        (
            "shard 0",
            |m| m["spec"]["shard"]["index"] = 0.into(),
            "shard",
        ),
        ("no deals", |m| m["spec"]["count"] = 0.into(), "at least 1"),
    ];
    let mut handled = 0;
    for (name, edit, needle) in edits {
        let mut m: serde_json::Value = serde_json::from_str(&good).unwrap();
        edit(&mut m);
        std::fs::write(&manifest, serde_json::to_string_pretty(&m).unwrap()).unwrap();
        let run = run.to_str().unwrap();
        for args in [
            &["report", run][..],
            &["replay", run, "3"],
            &["simulate", "--resume", "--out", run, "--quiet"],
        ] {
            let o = taisim(args);
            assert_eq!(
                o.status.code(),
                Some(1),
                "{name} {args:?}: {}",
                text(&o.stderr)
            );
            let err = text(&o.stderr);
            assert!(err.contains("manifest.json"), "{name} {args:?}: {err}");
            assert!(err.contains(needle), "{name} {args:?}: {err}");
            assert!(!err.contains("panicked"), "{name} {args:?}: {err}");
            handled += 1;
        }
    }
    assert_eq!(handled, 12);
    std::fs::write(&manifest, good).unwrap();
    let o = taisim(&["report", run.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
}
