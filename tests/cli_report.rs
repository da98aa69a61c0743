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

/// `taisim report RUN --json`, which must succeed, parsed.
fn report_json(run: &Path) -> serde_json::Value {
    let o = taisim(&["report", run.to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
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

/// A report, a comparison or a page is never written over one of a run's own files: the
/// manifest, `variant.toml`, a lock, a part (each was replaced, exit 0, and the run lost):
/// exit 2, naming the file, and the run reads as before. `report.md` and names a run does
/// not write stay free.
#[test]
fn outputs_never_replace_a_runs_own_files() {
    let scratch = Scratch::new("outputs");
    let run = scratch.0.join("run");
    simulate(&run);
    let r = run.to_str().unwrap();
    let before = std::fs::read(run.join("manifest.json")).unwrap();
    let at = |name: &str| run.join(name).to_str().unwrap().to_string();
    let cases: Vec<Vec<String>> = vec![
        vec![
            "report".into(),
            r.into(),
            "--markdown".into(),
            at("manifest.json"),
        ],
        vec![
            "report".into(),
            r.into(),
            "--markdown".into(),
            at("variant.toml"),
        ],
        vec![
            "report".into(),
            r.into(),
            "--markdown".into(),
            at("wins/notes.md"),
        ],
        vec![
            "compare".into(),
            r.into(),
            r.into(),
            "--markdown".into(),
            at("deals/part-00000.parquet"),
        ],
        vec![
            "replay".into(),
            r.into(),
            "3".into(),
            "--html".into(),
            at("manifest.json"),
        ],
    ];
    for args in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = taisim(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains("taisim never writes over a run's files"),
            "{args:?}: {}",
            text(&o.stderr)
        );
    }
    assert_eq!(std::fs::read(run.join("manifest.json")).unwrap(), before);
    let o = taisim(&["report", r]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = taisim(&["report", r, "--markdown", &at("notes.md")]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(run.join("notes.md").is_file());
}

/// A run on a read-only mount is still reported: the default `report.md` (and
/// `compare.md`) is skipped with a warning naming `--markdown`, the figures are printed,
/// exit 0; a file the user named must be written (exit 1). Needs a bind mount (root on
/// Linux, as CI runs); elsewhere it says so and checks nothing.
#[cfg(target_os = "linux")]
#[test]
fn a_read_only_run_is_reported_without_its_markdown() {
    let scratch = Scratch::new("read-only");
    let run = scratch.0.join("run");
    simulate(&run);
    let mounted = scratch.0.join("mounted");
    std::fs::create_dir_all(&mounted).unwrap();
    let mount = |args: &[&str]| {
        std::process::Command::new("mount")
            .args(args)
            .output()
            .is_ok_and(|o| o.status.success())
    };
    let (m, r) = (mounted.to_str().unwrap(), run.to_str().unwrap());
    if !(mount(&["--bind", r, m]) && mount(&["-o", "remount,bind,ro", m])) {
        let _ = std::process::Command::new("umount").arg(m).output();
        eprintln!("no read-only bind mount here (needs root): not checked");
        return;
    }
    let outcomes = [
        taisim(&["report", m, "--json"]),
        taisim(&["report", m]),
        taisim(&["compare", m, m]),
        taisim(&["report", m, "--markdown", &format!("{m}/named.md")]),
    ];
    let _ = std::process::Command::new("umount").arg(m).output();
    for o in &outcomes[..3] {
        assert!(o.status.success(), "{}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains("give --markdown PATH to keep it elsewhere"),
            "{}",
            text(&o.stderr)
        );
        assert!(
            !text(&o.stdout).contains("Markdown "),
            "{}",
            text(&o.stdout)
        );
    }
    assert!(text(&outcomes[0].stdout).starts_with('{'));
    assert_eq!(
        outcomes[3].status.code(),
        Some(1),
        "{}",
        text(&outcomes[3].stderr)
    );
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
    let edits: [(&str, Edit, &str); 6] = [
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
        (
            "stakes past the bounds",
            |m| m["spec"]["base"] = 1_000_000_000_000i64.into(),
            "base = 1000000000000 is out of bounds",
        ),
        (
            "negative stakes",
            |m| m["spec"]["per_tai"] = (-1).into(),
            "per_tai = -1 is out of bounds",
        ),
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
    assert_eq!(handled, 18);
    std::fs::write(&manifest, good).unwrap();
    let o = taisim(&["report", run.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
}

/// A run directory copied whole, for a test to damage.
fn copy_run(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_dir() {
            copy_run(&entry.path(), &to.join(entry.file_name()));
        } else {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

/// The run, its commands' exit status and what they print, for a manifest edited to
/// contradict its parts' footers: every reader refuses it as a damaged run (exit 1, as
/// `report` treats a part that disagrees with its record), naming the file and the field.
fn refused_by_every_reader(run: &Path, other: &Path, deal: &str, file: &str, field: &str) {
    let (run, other) = (run.to_str().unwrap(), other.to_str().unwrap());
    for args in [
        &["report", run][..],
        &["report", run, "--no-checksums", "--json"],
        &["replay", run, deal],
        &["compare", other, run],
    ] {
        let o = taisim(args);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(file), "{args:?}: {err}");
        assert!(err.contains(field), "{args:?}: {err}");
        assert!(err.contains("footer"), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}: {}", text(&o.stdout));
    }
    assert!(!Path::new(run).join("report.md").exists());
}

/// The checksums in a manifest vouch only for the bytes it lists: a spec edited by hand, or
/// another run's part copied in with its record, must not be read under the manifest's
/// header. Each part's footer records its run, and the readers check it as `--resume` does.
#[test]
fn manifests_that_contradict_their_parts_footers_are_refused() {
    let scratch = Scratch::new("footers");
    let a = scratch.0.join("a");
    let b = scratch.0.join("b");
    simulate(&a);
    let o = taisim(&[
        "simulate",
        "--deals",
        "400",
        "--part-size",
        "150",
        "--agents",
        "greedy",
        "--seed",
        "6",
        "--threads",
        "2",
        "--quiet",
        "--out",
        b.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let manifest = |run: &Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(run.join("manifest.json")).unwrap()).unwrap()
    };
    let write = |run: &Path, m: &serde_json::Value| {
        std::fs::write(
            run.join("manifest.json"),
            serde_json::to_string_pretty(m).unwrap(),
        )
        .unwrap()
    };

    // The unit edited: every part's footer says deals.
    let games = scratch.0.join("games");
    copy_run(&a, &games);
    let mut m = manifest(&games);
    m["spec"]["unit"] = "games".into();
    write(&games, &m);
    refused_by_every_reader(
        &games,
        &a,
        "3",
        "part-00000.parquet",
        "unit: the file has deals, the manifest has games",
    );

    // Run B's part 1 in A's place, with B's record and row totals: its checksums hold.
    let mixed = scratch.0.join("mixed");
    copy_run(&a, &mixed);
    for table in ["deals", "wins", "tai"] {
        let name = Path::new(table).join("part-00001.parquet");
        std::fs::copy(b.join(&name), mixed.join(&name)).unwrap();
    }
    let (mut m, theirs) = (manifest(&mixed), manifest(&b));
    m["parts"][1] = theirs["parts"][1].clone();
    for table in ["deals", "wins", "tai"] {
        let rows = |m: &serde_json::Value| {
            (0..3)
                .map(|p| m["parts"][p][table]["rows"].as_u64().unwrap())
                .sum::<u64>()
        };
        m["rows"][table] = rows(&m).into();
    }
    write(&mixed, &m);
    refused_by_every_reader(
        &mixed,
        &a,
        "160",
        "deals/part-00001.parquet",
        "seed: the file has 6, the manifest has 5",
    );
    // Deals of the run's own parts still replay.
    let o = taisim(&["replay", mixed.to_str().unwrap(), "3"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
}

/// A run killed before its first part was recorded has counted no deals: its rates are of
/// nothing, shown as undefined (`—`, no interval; null in the JSON), never 0.00% [0.00, 0.00].
#[test]
fn rates_over_no_deals_are_undefined() {
    let scratch = Scratch::new("empty");
    let run = scratch.0.join("run");
    simulate(&run);
    support::unrecord_every_part(&run);

    let o = taisim(&["report", run.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("status running"), "{out}");
    assert!(!out.contains("[0.00, 0.00]"), "{out}");
    assert!(!out.contains("0.00%"), "{out}");
    assert!(!out.contains("0.000"), "{out}");
    let won = out
        .lines()
        .find(|l| l.contains("won (at least one winner)"))
        .unwrap();
    assert_eq!(
        won.split_whitespace().collect::<Vec<_>>(),
        ["won", "(at", "least", "one", "winner)", "0", "deals", "—"],
        "{won}"
    );
    // Every deal's log of such a run is none of them, and says so.
    let o = taisim(&["replay", run.to_str().unwrap(), "--all", "--json"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(o.stdout.is_empty());
    assert!(
        text(&o.stderr).contains("records 0 of its 3 parts"),
        "{}",
        text(&o.stderr)
    );
    let json = report_json(&run);
    assert_eq!(json["deals"], 0);
    for figure in [&json["won"], &json["outcomes"]["self_draw"]] {
        assert_eq!(figure["of"], 0, "{figure}");
        assert!(
            figure["rate"].is_null() && figure["ci95"].is_null(),
            "{figure}"
        );
    }
    assert!(
        json["tai_per_win"]["mean"].is_null(),
        "{}",
        json["tai_per_win"]
    );
    assert!(json["tai_per_win"]["ci95"].is_null());
    assert!(json["seats"][0]["pay"]["mean"].is_null());
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
    let json = report_json(&run);
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
    // A non-dealer's payment is a mean over the three of each deal, the deal the sample: the
    // payments sum to zero, so it is the dealer's divided by −3, interval and all.
    let (dealer, others) = (
        &json["all_pairs"]["dealer_pay"],
        &json["all_pairs"]["non_dealer_pay"],
    );
    assert_eq!(others["n"], 300);
    let f = |v: &serde_json::Value| v.as_f64().unwrap();
    assert!((f(&others["mean"]) + f(&dealer["mean"]) / 3.0).abs() < 1e-9);
    assert!((f(&others["sd"]) - f(&dealer["sd"]) / 3.0).abs() < 1e-9);
    assert!((f(&others["ci95"][0]) + f(&dealer["ci95"][1]) / 3.0).abs() < 1e-9);
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
        // Money per point of the hands' value, not per tai (taizhou.toml: per 胡).
        "settlement 0 + 2 per point (胡)",
        "under all-pairs settlement every non-winner pays",
    ] {
        assert!(out.contains(needle), "{needle} in {out}");
    }
    assert!(!out.contains("per tai") && !out.contains("alone"), "{out}");

    let o = taisim(&["replay", run.to_str().unwrap(), "7"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("payments: "),
        "{}",
        text(&o.stdout)
    );
}

/// Under mahjongtime's insurance (mahjongtime-taiwanese-rules.txt:96-116) a seat that did not
/// discard the winning tile may pay for all losers: the replay names it, so the payments do
/// not read as a bug. Deal 2206 of seed 3 (greedy): E's 大三元 on N's 2p, paid by W, whose
/// third dragon E punged; a deal without insurance says nothing of it.
#[test]
fn replays_name_the_seat_liable_under_insurance() {
    let scratch = Scratch::new("insurance");
    let run = scratch.0.join("run");
    let o = taisim(&[
        "simulate",
        "--variant",
        "mahjongtime",
        "--agents",
        "greedy",
        "--deals",
        "2207",
        "--seed",
        "3",
        "--quiet",
        "--out",
        run.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = taisim(&["replay", run.to_str().unwrap(), "2206"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("  E wins: "), "{out}");
    assert!(
        out.contains("    insurance: W pays for all losers, liable for E's insured hand (settlement.insurance)\npayments: E 112 S 0 W -112 N 0\n"),
        "{out}"
    );
    let o = taisim(&["replay", run.to_str().unwrap(), "0"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        !text(&o.stdout).contains("insurance:"),
        "{}",
        text(&o.stdout)
    );
}

/// taiwan16-2015 fines a win below its minimum (詐胡, taiwan16-2015-table.txt:33): the report
/// says the claimants were fined, not that the wins went unpaid. Greedy lets such a win go;
/// random play declares whatever it is offered (5 of 38 wins in these 3,000 deals).
#[test]
fn wins_below_the_minimum_are_named_as_fined() {
    let scratch = Scratch::new("false-wins");
    let run = scratch.0.join("run");
    let o = taisim(&[
        "simulate",
        "--variant",
        "taiwan16-2015",
        "--agents",
        "random",
        "--deals",
        "3000",
        "--quiet",
        "--out",
        run.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let json = report_json(&run);
    let below = json["below_minimum_wins"].as_u64().unwrap();
    assert!(below > 0, "random play claims some wins below 起胡 4");
    assert_eq!(json["below_minimum_fined"], below);
    let o = taisim(&["report", run.to_str().unwrap()]);
    let out = text(&o.stdout);
    assert!(
        out.contains("below the minimum (詐胡: claimant fined)"),
        "{out}"
    );
    assert!(out.contains("wins and deal-ins count the wins below the minimum"));
    assert!(!out.contains("unpaid"), "{out}");

    // The default agents (greedy) let every win below the minimum go.
    let greedy = scratch.0.join("greedy");
    let o = taisim(&[
        "simulate",
        "--variant",
        "taiwan16-2015",
        "--deals",
        "300",
        "--quiet",
        "--out",
        greedy.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let json = report_json(&greedy);
    assert_eq!(json["below_minimum_wins"], 0);
    assert!(json["wins"].as_u64().unwrap() > 50, "{json}");
    let o = taisim(&["report", greedy.to_str().unwrap()]);
    let out = text(&o.stdout);
    assert!(out.contains("below the minimum (起胡)"), "{out}");
    assert!(!out.contains("unpaid"), "{out}");

    // taiwan16 has no minimum: no such row note, and its stakes are per tai.
    let plain = scratch.0.join("plain");
    simulate(&plain);
    let o = taisim(&["report", plain.to_str().unwrap()]);
    let out = text(&o.stdout);
    assert!(out.contains("below the minimum (起胡)"), "{out}");
    assert!(!out.contains("count the wins below the minimum"), "{out}");
    assert!(out.contains("1 per tai"), "{out}");
}

/// A tai variant's report has no points or all-pairs figures, in the tables or the JSON.
#[test]
fn tai_reports_have_no_points_figures() {
    let scratch = Scratch::new("tai-json");
    let run = scratch.0.join("run");
    simulate(&run);
    let json = report_json(&run);
    assert!(json["points"].is_null() && json["all_pairs"].is_null());
    assert_eq!(json["deals"], 400);
    let o = taisim(&["report", run.to_str().unwrap()]);
    assert!(!text(&o.stdout).contains("Points"));
}

/// A `--deals` run stopped before its first part (here its bot exits at once) is reported
/// with the by-seat layout of the deals it will hold, dealer and non-dealers, not a games
/// run's "dealt —" rows.
#[cfg(unix)]
#[test]
fn a_deals_run_with_no_deal_yet_keeps_the_dealer_layout() {
    let scratch = Scratch::new("no-deal-yet");
    let out = scratch.0.join("run");
    let o = taisim(&[
        "simulate",
        "--deals",
        "10",
        "--agents",
        "exec:false,greedy,greedy,greedy",
        "--threads",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let json = report_json(&out);
    assert_eq!(json["deals"], 0, "{json}");
    assert_eq!(json["dealer_is_fixed"], true, "{json}");
    let o = taisim(&["report", out.to_str().unwrap()]);
    let shown = text(&o.stdout);
    assert!(
        shown.contains("E (dealer)") && shown.contains("S (non-dealer)"),
        "{shown}"
    );
    assert!(!shown.contains("(dealt "), "{shown}");
}
