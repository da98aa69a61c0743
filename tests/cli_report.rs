//! `taisim report`, run as the real binary on a run `taisim simulate` wrote.

use std::path::{Path, PathBuf};

mod support;
use support::taisim;

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

/// `simulate --variant taizhou` (without its wild: scoring reads no wilds yet, so a deal
/// won with one fails to score) with each agent kind, then `report --json`: one JSON
/// document on stdout with the points and all-pairs figures, which agree with the run's row
/// counts; the tables print them too, and a replay shows the settlement.
#[test]
fn taizhou_runs_report_points_and_all_pairs_figures() {
    let scratch = Scratch::new("taizhou");
    let run = scratch.0.join("run");
    let shipped = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/score/variants/taizhou.toml"
    ))
    .unwrap();
    let edited = shipped
        .replacen("name = \"taizhou\"", "name = \"taizhou-nowild\"", 1)
        .replacen("wild_indicator = true", "wild_indicator = false", 1);
    assert_ne!(edited, shipped);
    let variant = scratch.0.join("taizhou-nowild.toml");
    std::fs::write(&variant, edited).unwrap();
    let o = taisim(&[
        "simulate",
        "--variant",
        variant.to_str().unwrap(),
        "--deals",
        "300",
        "--part-size",
        "100",
        "--agents",
        "random,greedy,defensive,greedy",
        "--threads",
        "2",
        "--quiet",
        "--out",
        run.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = taisim(&["report", run.to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["variant"]["name"], "taizhou-nowild");
    assert_eq!(json["deals"], 300);
    let wins = json["wins"].as_u64().unwrap();
    assert!(wins > 0);
    assert_eq!(json["points"]["points_per_win"]["n"], wins);
    assert_eq!(json["points"]["hu_per_win"]["n"], wins);
    let histogram: u64 = json["points"]["points_histogram"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["wins"].as_u64().unwrap())
        .sum();
    assert_eq!(histogram, wins);
    assert_eq!(json["all_pairs"]["responsible"]["of"], wins);
    assert_eq!(json["all_pairs"]["dealer_pay"]["n"], 300);
    assert_eq!(json["all_pairs"]["non_dealer_pay"]["n"], 900);
    assert!(run.join("report.md").is_file());

    let o = taisim(&["report", run.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    for needle in [
        "Points (胡數)",
        "median",
        "Points distribution",
        "全包",
        "non-dealer",
    ] {
        assert!(out.contains(needle), "{needle} in {out}");
    }

    let o = taisim(&["replay", run.to_str().unwrap(), "7"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("payments: "),
        "{}",
        text(&o.stdout)
    );
}

/// A tai variant's report has no points or all-pairs figures, in the tables or the JSON.
#[test]
fn tai_reports_have_no_points_figures() {
    let scratch = Scratch::new("tai-json");
    let run = scratch.0.join("run");
    simulate(&run);
    let o = taisim(&["report", run.to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(json["points"].is_null() && json["all_pairs"].is_null());
    assert_eq!(json["deals"], 400);
    let o = taisim(&["report", run.to_str().unwrap()]);
    assert!(!text(&o.stdout).contains("Points"));
}
