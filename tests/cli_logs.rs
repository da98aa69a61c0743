//! Deal logs, pages and reviews through the real binary: `replay --json` is the same with or
//! without an action log, `replay --log` checks it and refuses a tampered one at the first
//! differing line, the HTML page embeds the log itself and fetches nothing, and `review`
//! reports every legal action with the played one among them.

mod support;
use std::path::Path;

use support::{stderr, stdout, taisim};

fn run(dir: &Path, name: &str, extra: &[&str]) -> String {
    let out = dir.join(name).display().to_string();
    let mut args = vec![
        "simulate",
        "--deals",
        "30",
        "--seed",
        "9",
        "--agents",
        "greedy,defensive,random,greedy",
        "--quiet",
        "--out",
        &out,
    ];
    args.extend_from_slice(extra);
    let o = taisim(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    out
}

/// A deal id past its game's end in a `--games` run is refused as the user's mistake, as
/// `replay` refuses it.
#[test]
fn review_names_a_deal_past_its_games_end() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games").display().to_string();
    let o = taisim(&[
        "simulate",
        "--games",
        "1",
        "--seed",
        "1",
        "--threads",
        "1",
        "--quiet",
        "--out",
        &out,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = taisim(&["review", &out, "300", "--seat", "E", "--budget", "2"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("deal 300 is not in the run: game 0 has"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn logs_check_and_refuse_tampering() {
    let dir = tempfile::tempdir().unwrap();
    let logged = run(dir.path(), "logged", &["--log-actions"]);
    let plain = run(dir.path(), "plain", &[]);
    let a = taisim(&["replay", &logged, "17", "--json"]);
    assert!(a.status.success(), "{}", stderr(&a));
    let b = taisim(&["replay", &plain, "17", "--json"]);
    assert_eq!(
        stdout(&a),
        stdout(&b),
        "played back from the record or by the agents again"
    );
    let log = stdout(&a);
    let first: serde_json::Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    assert_eq!(first["type"], "start");
    assert_eq!(first["deal"], 17);
    let path = dir.path().join("d17.jsonl");
    std::fs::write(&path, &log).unwrap();
    let ok = taisim(&["replay", "--log", &path.display().to_string()]);
    assert!(ok.status.success(), "{}", stderr(&ok));
    assert!(stdout(&ok).contains("deal 17:"), "{}", stdout(&ok));

    // Change one drawn tile, one decision, drop the end: each refused at its line.
    let lines: Vec<&str> = log.lines().collect();
    let draw = lines
        .iter()
        .position(|l| l.contains("\"type\":\"draw\""))
        .unwrap();
    let mut v: serde_json::Value = serde_json::from_str(lines[draw]).unwrap();
    let tile = v["tile"].as_str().unwrap().to_string();
    v["tile"] = serde_json::Value::from(if tile == "1m" { "2m" } else { "1m" });
    let mut tampered = lines.clone();
    let changed = v.to_string();
    tampered[draw] = &changed;
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(&bad, tampered.join("\n")).unwrap();
    let o = taisim(&["replay", "--log", &bad.display().to_string()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(&format!("line {} (deal 17)", draw + 1)),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains("the deal its seed deals gives"),
        "{}",
        stderr(&o)
    );

    let short = dir.path().join("short.jsonl");
    std::fs::write(&short, lines[..lines.len() - 1].join("\n")).unwrap();
    let o = taisim(&["replay", "--log", &short.display().to_string()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("the log ends here"), "{}", stderr(&o));

    let decision = lines
        .iter()
        .rposition(|l| l.contains("\"type\":\"decision\"") && l.contains("\"discard\""))
        .unwrap();
    let mut v: serde_json::Value = serde_json::from_str(lines[decision]).unwrap();
    v["action"] = serde_json::json!({"type": "discard_ready", "tile": "C"});
    let changed = v.to_string();
    let mut tampered = lines.clone();
    tampered[decision] = &changed;
    std::fs::write(&bad, tampered.join("\n")).unwrap();
    let o = taisim(&["replay", "--log", &bad.display().to_string()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(&format!("line {}", decision + 1)),
        "{}",
        stderr(&o)
    );

    // A seat's view is not a log; an empty file is refused.
    std::fs::write(&bad, "").unwrap();
    assert_eq!(
        taisim(&["replay", "--log", &bad.display().to_string()])
            .status
            .code(),
        Some(2)
    );

    // Every deal of the run, one after another, checks out.
    let all = taisim(&["replay", &logged, "--all", "--json"]);
    assert!(all.status.success());
    let whole = dir.path().join("all.jsonl");
    std::fs::write(&whole, &all.stdout).unwrap();
    let o = taisim(&["replay", "--log", &whole.display().to_string()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("30 deal(s) verified"), "{}", stdout(&o));
}

#[test]
fn the_page_embeds_the_log_and_the_review() {
    let dir = tempfile::tempdir().unwrap();
    let logged = run(dir.path(), "logged", &["--log-actions"]);
    let page = dir.path().join("d.html");
    let o = taisim(&[
        "replay",
        &logged,
        "4",
        "--html",
        &page.display().to_string(),
        "--review",
        "E",
        "--budget",
        "8",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let html = std::fs::read_to_string(&page).unwrap();
    let embedded =
        taisim_datasets::html::embedded(&html, taisim_datasets::html::LOG_ELEMENT_ID).unwrap();
    assert_eq!(embedded, stdout(&o), "the page's data is the log itself");
    for needle in ["http://", "https://", "src=", "@import", "url("] {
        assert!(!html.contains(needle), "the page reaches out: {needle}");
    }
    assert!(
        html.contains("<svg") || html.contains("svg class"),
        "tiles drawn as SVG"
    );
    let review =
        taisim_datasets::html::embedded(&html, taisim_datasets::html::REVIEW_ELEMENT_ID).unwrap();
    let review: serde_json::Value = serde_json::from_str(&review).unwrap();
    assert_eq!(review["seat"], "E");
    assert!(!review["decisions"].as_array().unwrap().is_empty());

    // The same page from the log file.
    let log = dir.path().join("d.jsonl");
    std::fs::write(&log, &o.stdout).unwrap();
    let page2 = dir.path().join("d2.html");
    let o2 = taisim(&[
        "replay",
        "--log",
        &log.display().to_string(),
        "--html",
        &page2.display().to_string(),
        "--review",
        "E",
        "--budget",
        "8",
    ]);
    assert!(o2.status.success(), "{}", stderr(&o2));
    assert_eq!(std::fs::read_to_string(&page2).unwrap(), html);
}

#[test]
fn review_reports_every_legal_action() {
    let dir = tempfile::tempdir().unwrap();
    let logged = run(dir.path(), "logged", &["--log-actions"]);
    let o = taisim(&[
        "review", &logged, "6", "--seat", "W", "--budget", "16", "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["budget"], 16);
    assert_eq!(v["search"], "search:16");
    assert_eq!(v["default_by"], "greedy");
    let decisions = v["decisions"].as_array().unwrap();
    assert!(!decisions.is_empty());
    for d in decisions {
        assert_eq!(
            d["default"], d["greedy"],
            "greedy's choice is the default: {d}"
        );
        // Every decision with a choice is searched, a win offered included (this deal's seat
        // robs no flower before the first turn, whose win would be taken unsearched).
        let est = d["estimates"].as_array().unwrap();
        assert!(est.len() >= 2, "{d}");
        assert!(
            est.iter().any(|e| e["action"] == d["played"]),
            "played action reviewed: {d}"
        );
        assert!(est.iter().any(|e| e["action"] == d["search_plays"]), "{d}");
        for e in est {
            assert!(e["std_error"].as_f64().unwrap() >= 0.0);
            assert!(e["rollouts"].as_u64().unwrap() >= 1);
        }
    }
    let text = taisim(&["review", &logged, "6", "--seat", "W", "--budget", "16"]);
    assert!(stdout(&text).contains("> played"), "{}", stdout(&text));
    let bad = taisim(&["review", &logged, "6", "--seat", "X"]);
    assert_eq!(bad.status.code(), Some(2));
    let bad = taisim(&["review", &logged, "6", "--seat", "W", "--budget", "0"]);
    assert_eq!(bad.status.code(), Some(2));

    // A tuned search reviews by name; anything but a search is refused, naming the problem.
    let tuned = taisim(&[
        "review",
        &logged,
        "6",
        "--seat",
        "W",
        "--search",
        "search:16:first=4",
        "--json",
    ]);
    assert!(tuned.status.success(), "{}", stderr(&tuned));
    let t: serde_json::Value = serde_json::from_str(&stdout(&tuned)).unwrap();
    assert_eq!(
        (&t["search"], &t["budget"]),
        (&"search:16:first=4".into(), &16.into())
    );
    assert_eq!(t["decisions"].as_array().unwrap().len(), decisions.len());
    for (name, problem) in [("greedy", "not greedy"), ("search:16:prune=maybe", "prune")] {
        let bad = taisim(&["review", &logged, "6", "--seat", "W", "--search", name]);
        assert_eq!(bad.status.code(), Some(2), "{name}");
        assert!(stderr(&bad).contains(problem), "{name}: {}", stderr(&bad));
    }
    let both = taisim(&[
        "review", &logged, "6", "--seat", "W", "--search", "search", "--budget", "16",
    ]);
    assert_eq!(both.status.code(), Some(2), "--search with --budget");
}

/// The review's `search_plays` is the search agent itself: reviewing a run where it sat in
/// seat W, by its name (`--budget N` for `search:N`, `--search` for a tuned one), marks at
/// every decision of W the action W played; through the real binary, from the run's record
/// and from a run played again by its agents.
#[test]
fn the_review_of_the_search_agents_own_play_marks_what_it_played() {
    let dir = tempfile::tempdir().unwrap();
    const TUNED: &str = "search:16:first=4:indifference=0.05";
    let seats = format!("greedy,greedy,{TUNED},greedy");
    for (name, extra, agents, by) in [
        (
            "logged",
            &["--log-actions"][..],
            "greedy,greedy,search:16,greedy",
            ["--budget", "16"],
        ),
        (
            "plain",
            &[][..],
            "greedy,greedy,search:16,greedy",
            ["--budget", "16"],
        ),
        ("tuned", &[][..], seats.as_str(), ["--search", TUNED]),
    ] {
        let out = dir.path().join(name).display().to_string();
        let mut args = vec![
            "simulate",
            "--variant",
            "taizhou",
            "--deals",
            "3",
            "--seed",
            "12",
            "--agents",
            agents,
            "--quiet",
            "--out",
            &out,
        ];
        args.extend_from_slice(extra);
        let o = taisim(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let mut reviewed = 0;
        for deal in ["0", "1", "2"] {
            let o = taisim(&["review", &out, deal, "--seat", "W", by[0], by[1], "--json"]);
            assert!(o.status.success(), "{}", stderr(&o));
            let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
            for d in v["decisions"].as_array().unwrap() {
                assert_eq!(d["search_plays"], d["played"], "{name} deal {deal}: {d}");
                reviewed += 1;
            }
        }
        assert!(reviewed > 20, "{reviewed}");
    }
}

/// A run of the older manifest format (`taisim-run/1`: no variant column in the wins and tai
/// tables) is not resumed, but its deals replay: the deals table, all a replay reads, is laid
/// out as it is now, and every replayed deal ends as its row says.
#[test]
fn an_older_runs_deals_replay_though_it_is_not_resumed() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("older");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/run-format-1");
    for sub in ["", "deals", "wins", "tai"] {
        std::fs::create_dir_all(run.join(sub)).unwrap();
        for e in std::fs::read_dir(fixture.join(sub)).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_file() {
                std::fs::copy(e.path(), run.join(sub).join(e.file_name())).unwrap();
            }
        }
    }
    let run = run.to_str().unwrap();
    let o = taisim(&["replay", run, "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("payments: "), "{}", stdout(&o));
    let o = taisim(&["replay", run, "--all", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let ends = stdout(&o).lines().filter(|l| l.contains("\"end\"")).count();
    assert_eq!(ends, 60, "every deal of the run, each to its end");
    let o = taisim(&["simulate", "--resume", "--out", run, "--quiet"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("older taisim"), "{}", stderr(&o));
}

/// Options that go only with others are refused where those are absent (exit 2, nothing
/// written), never silently ignored: a run's deal replayed under another `--variant`, a
/// `--deal` that names another deal than DEAL_ID, a log's `--deal` without a page, a page
/// beside `--all`.
#[test]
fn options_without_the_ones_they_go_with_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let plain = run(dir.path(), "plain", &[]);
    let o = taisim(&["replay", &plain, "3", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let log = dir.path().join("d3.jsonl");
    std::fs::write(&log, stdout(&o)).unwrap();
    let log = log.display().to_string();
    let page = dir.path().join("page.html");
    let page_arg = page.display().to_string();
    let cases: [(&[&str], &str); 4] = [
        (
            &["replay", &plain, "3", "--variant", "mahjongtime"],
            "--variant mahjongtime goes with --log",
        ),
        (
            &["replay", &plain, "3", "--deal", "9"],
            "--deal 9 goes with --log and --html",
        ),
        (
            &["replay", "--log", &log, "--deal", "3"],
            "--deal 3 picks the deal of the log that --html draws",
        ),
        (
            &["replay", &plain, "--all", "--json", "--html", &page_arg],
            "--html draws one deal and --all writes every deal's log",
        ),
    ];
    for (args, words) in cases {
        let o = taisim(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(words), "{args:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{args:?}: {}", stdout(&o));
    }
    assert!(!page.exists());
    // Each with what it goes with is taken.
    let o = taisim(&["replay", "--log", &log, "--deal", "3", "--html", &page_arg]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(page.is_file());
    let o = taisim(&["replay", "--log", &log, "--variant", "taiwan16"]);
    assert!(o.status.success(), "{}", stderr(&o));
}
