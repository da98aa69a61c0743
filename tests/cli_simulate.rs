//! `taisim simulate` and `taisim replay` run as the real binary: a run killed mid-way and
//! resumed gives the files of an uninterrupted run, and bad arguments exit with status 2.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

mod support;
use support::{stderr, taisim};

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

/// Ctrl-C (SIGINT) stops a run before its next deal: exit 1, saying how to finish it, with
/// its complete parts recorded, and the resume ends with the files of a run never stopped.
/// (It used to die where it stood, saying nothing.)
#[cfg(unix)]
#[test]
fn ctrl_c_stops_a_run_that_says_how_to_finish_it() {
    let dir = tempfile::tempdir().unwrap();
    let (whole, stopped) = (dir.path().join("whole"), dir.path().join("stopped"));
    let args = [
        "simulate",
        "--deals",
        "400",
        "--part-size",
        "5",
        "--agents",
        "search:8",
        "--threads",
        "1",
        "--quiet",
    ];
    let child = Command::new(env!("CARGO_BIN_EXE_taisim"))
        .args(args)
        .args(["--out", stopped.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let first = stopped.join("deals").join("part-00001.parquet");
    for _ in 0..4_000 {
        if first.exists() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    // SAFETY: a signal to the child this test started.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("interrupted"), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!(
            "continue with: taisim simulate --resume --out {}",
            stopped.display()
        )),
        "{}",
        stderr(&o)
    );
    let o = taisim(&[&args[..], &["--resume", "--out", stopped.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let o = taisim(&[&args[..], &["--out", whole.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(parts(&whole), parts(&stopped));
    assert_eq!(table_files(&whole), table_files(&stopped));
}

/// A deal of a part its run has not recorded yet (the run killed, or still running: a
/// manifest records its parts when the run ends, the journal those completed before) is
/// named as a deal of an unfinished run, with the command that finishes it.
#[test]
fn a_deal_of_an_unfinished_run_names_the_resume() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("killed");
    let out = run.to_str().unwrap();
    let o = taisim(&[&SMALL[..], &["--out", out]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    // What a kill leaves after part 1: the manifest records part 0, the journal part 1.
    let mut m = manifest_json(&run.join("manifest.json"));
    let parts = m["parts"].clone();
    m["status"] = "running".into();
    m["parts"] = serde_json::json!([parts[0]]);
    for table in ["deals", "wins", "tai"] {
        m["rows"][table] = parts[0][table]["rows"].clone();
    }
    std::fs::write(run.join("manifest.json"), m.to_string()).unwrap();
    let header = serde_json::json!({"journal": "taisim-journal/1", "spec": m["spec"]});
    std::fs::write(
        run.join(".manifest.json.journal"),
        format!("{header}\n{}\n", parts[1]),
    )
    .unwrap();

    let resume = format!("finish a killed run with `taisim simulate --resume --out {out}`");
    for (deal, journaled) in [("700", true), ("1200", false)] {
        let o = taisim(&["replay", out, deal]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        let err = stderr(&o);
        let part = if journaled { 1 } else { 2 };
        assert!(
            err.contains(&format!(
                "is in part {part}, which manifest.json does not record yet: the run is unfinished"
            )),
            "{err}"
        );
        assert!(err.contains(&resume), "{err}");
        assert_eq!(
            err.contains("its journal lists the part as played"),
            journaled,
            "{err}"
        );
        assert!(!err.contains("another shard"), "{err}");
    }
    let o = taisim(&["replay", out, "10"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = taisim(&["simulate", "--resume", "--out", out, "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = taisim(&["replay", out, "700"]);
    assert!(o.status.success(), "{}", stderr(&o));
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
        (&["simulate", "--resume", "--out", out], "does not exist"),
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
    // Another variant is named as such, not by a stake the run's own stakes break under it.
    let o = taisim(&["simulate", "--resume", "--out", out, "--variant", "taizhou"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("variant: the run has taiwan16 ("), "{err}");
    assert!(err.contains("the command asks for taizhou ("), "{err}");
    assert!(!err.contains("per_tai"), "{err}");
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
        "responsible",
        "value_e",
        "all-pairs variants only",
    ] {
        assert!(text.contains(needle), "{needle}");
    }
}

/// Every file under a run's table directories, by relative path, with its bytes.
fn table_files(out: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    for table in ["deals", "wins", "tai"] {
        for e in std::fs::read_dir(out.join(table)).unwrap() {
            let e = e.unwrap();
            let name = format!("{table}/{}", e.file_name().to_string_lossy());
            files.push((name, std::fs::read(e.path()).unwrap()));
        }
    }
    files.sort();
    files
}

const SMALL: [&str; 8] = [
    "simulate",
    "--deals",
    "3000",
    "--seed",
    "11",
    "--part-size",
    "500",
    "--quiet",
];

/// Faults injected into a finished run's parts: `--resume` plays each damaged part again
/// and ends with the files of an uninterrupted run, which `report` then verifies.
#[test]
fn resume_repairs_flipped_truncated_empty_and_missing_parts() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    let o = taisim(&[&SMALL[..], &["--out", whole.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let reference = table_files(&whole);
    assert_eq!(reference.len(), 18);

    type Fault = fn(&Path);
    let faults: [(&str, Fault); 5] = [
        ("flip a byte", |run| {
            let path = run.join("deals/part-00002.parquet");
            let mut bytes = std::fs::read(&path).unwrap();
            let middle = bytes.len() / 2;
            bytes[middle] ^= 0x20;
            std::fs::write(&path, bytes).unwrap();
        }),
        ("truncate", |run| {
            let path = run.join("wins/part-00004.parquet");
            let bytes = std::fs::read(&path).unwrap();
            std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
        }),
        ("empty", |run| {
            std::fs::write(run.join("tai/part-00001.parquet"), b"").unwrap();
        }),
        ("delete", |run| {
            std::fs::remove_file(run.join("deals/part-00005.parquet")).unwrap();
        }),
        ("leave temporary files", |run| {
            std::fs::write(run.join("wins/.part-00000.parquet.tmp"), b"half").unwrap();
            std::fs::write(run.join(".manifest.json.tmp"), b"{").unwrap();
        }),
    ];
    let mut survived = 0;
    for (name, fault) in faults {
        let run = dir.path().join(name.replace(' ', "-"));
        let o = taisim(&[&SMALL[..], &["--out", run.to_str().unwrap()]].concat());
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        fault(&run);
        if name != "leave temporary files" {
            // `report` finds the damage and names the file.
            let o = taisim(&["report", run.to_str().unwrap()]);
            assert_eq!(o.status.code(), Some(1), "{name}: {}", stderr(&o));
            assert!(stderr(&o).contains("part-0000"), "{name}: {}", stderr(&o));
        }
        let o = taisim(&[
            "simulate",
            "--resume",
            "--out",
            run.to_str().unwrap(),
            "--quiet",
        ]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        if name != "leave temporary files" {
            assert!(
                stderr(&o).contains("played again: part"),
                "{name}: {}",
                stderr(&o)
            );
        }
        assert_eq!(parts(&whole), parts(&run), "{name}");
        assert!(table_files(&run) == reference, "{name}: files differ");
        assert!(!run.join(".manifest.json.tmp").exists());
        let o = taisim(&["report", run.to_str().unwrap()]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        assert!(
            String::from_utf8_lossy(&o.stdout).contains("checksums verified"),
            "{name}"
        );
        survived += 1;
    }
    assert_eq!(survived, 5);
}

/// A run killed after creating its directory but before its first manifest: not rerun
/// over ("not empty"), but resumed with the same arguments plus --resume.
#[test]
fn a_run_killed_before_its_first_manifest_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    let killed = dir.path().join("killed");
    let o = taisim(&[&SMALL[..], &["--out", whole.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    for table in ["deals", "wins", "tai"] {
        std::fs::create_dir_all(killed.join(table)).unwrap();
    }
    std::fs::copy(whole.join("variant.toml"), killed.join("variant.toml")).unwrap();
    std::fs::write(killed.join("tai/.part-00000.parquet.tmp"), b"half").unwrap();

    let o = taisim(&[&SMALL[..], &["--out", killed.to_str().unwrap()]].concat());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("not empty"), "{}", stderr(&o));
    let o = taisim(&[&SMALL[..], &["--resume", "--out", killed.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(parts(&whole), parts(&killed));
    assert!(table_files(&killed) == table_files(&whole));

    // With other arguments, the copied variant.toml is not the one asked for.
    let other = dir.path().join("other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::copy(whole.join("variant.toml"), other.join("variant.toml")).unwrap();
    let o = taisim(&[
        "simulate",
        "--resume",
        "--variant",
        "taiwan16-house",
        "--deals",
        "10",
        "--out",
        other.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("variant.toml"), "{}", stderr(&o));
}

#[test]
fn shards_of_another_split_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("shared");
    let out = out.to_str().unwrap();
    let o = taisim(&[&SMALL[..], &["--shard", "1/2", "--out", out]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    for extra in [
        &["--shard", "1/3"][..],
        &["--shard", "2/3", "--resume"],
        &[],
    ] {
        let o = taisim(&[&SMALL[..], extra, &["--out", out]].concat());
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("shard 1/2"),
            "{extra:?}: {}",
            stderr(&o)
        );
        assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    }
    let o = taisim(&[&SMALL[..], &["--shard", "2/2", "--out", out]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let o = taisim(&["report", out]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// Processes started at the same moment into one new directory (an array job's tasks) are
/// judged one after another: two shards of different runs, or a run and a shard of another
/// split of it, never both end with exit 0 (the second is refused, exit 2, naming the
/// first); before, both passed their checks about one time in four.
#[test]
fn runs_started_at_once_in_one_directory_see_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let spawn = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_taisim"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let base = [
        "simulate",
        "--deals",
        "2000",
        "--part-size",
        "500",
        "--quiet",
    ];
    let pairs: [(&[&str], &[&str]); 2] = [
        (&["--shard", "1/2"], &["--shard", "2/2", "--seed", "1"]),
        (&[], &["--shard", "2/2"]),
    ];
    for (i, (a, b)) in pairs.iter().enumerate() {
        for attempt in 0..8 {
            let out = dir.path().join(format!("race-{i}-{attempt}"));
            let out = out.to_str().unwrap();
            let first = spawn(&[&base[..], a, &["--out", out]].concat());
            let second = spawn(&[&base[..], b, &["--out", out]].concat());
            let (x, y) = (
                first.wait_with_output().unwrap(),
                second.wait_with_output().unwrap(),
            );
            let codes = [x.status.code(), y.status.code()];
            assert!(
                codes.contains(&Some(0)) && codes.contains(&Some(2)),
                "{a:?} and {b:?}: {codes:?}: {} / {}",
                stderr(&x),
                stderr(&y)
            );
            let refused = if codes[0] == Some(2) { &x } else { &y };
            assert!(
                stderr(refused).contains("of a different run")
                    || stderr(refused).contains("the same number of shards"),
                "{}",
                stderr(refused)
            );
        }
    }
}

/// A run killed before it wrote anything but its lock files leaves a directory that a new
/// run takes as empty; a shard refused for another run's settings is told the setting that
/// differs, not the shard (the one setting shards may differ in); a run is never placed in
/// another run's table directory.
#[test]
fn lock_files_alone_leave_a_directory_empty_and_shards_name_what_differs() {
    let dir = tempfile::tempdir().unwrap();
    let killed = dir.path().join("killed");
    std::fs::create_dir_all(&killed).unwrap();
    for lock in [".manifest.json.lock", ".taisim-setup.lock"] {
        std::fs::write(killed.join(lock), b"").unwrap();
    }
    let o = taisim(&[&SMALL[..], &["--out", killed.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    // `--resume` there starts a run too, saying so and what it plays.
    let empty = dir.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    std::fs::write(empty.join(".manifest.json.lock"), b"").unwrap();
    let o = taisim(&[&SMALL[..], &["--resume", "--out", empty.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o)
            .contains("records no run yet, so a new one starts: 3000 deals of taiwan16, seed 11"),
        "{}",
        stderr(&o)
    );
    let o = taisim(&[&SMALL[..], &["--resume", "--out", empty.to_str().unwrap()]].concat());
    assert!(
        o.status.success() && !stderr(&o).contains("no run yet"),
        "{}",
        stderr(&o)
    );
    // Without --out a quiet run still names the directory it made, and says nothing else.
    let o = Command::new(env!("CARGO_BIN_EXE_taisim"))
        .args(["simulate", "--deals", "20", "--threads", "1", "--quiet"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let named = String::from_utf8(o.stdout).unwrap();
    let named = named.strip_suffix('\n').unwrap();
    assert!(
        Path::new(named).starts_with("runs") && !named.contains('\n'),
        "{named:?}"
    );
    assert!(dir.path().join(named).join("manifest.json").is_file());

    let out = dir.path().join("shards");
    let out = out.to_str().unwrap();
    let o = taisim(&[&SMALL[..], &["--shard", "1/2", "--out", out]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let o = taisim(
        &[
            &SMALL[..],
            &["--shard", "2/2", "--log-actions", "--out", out],
        ]
        .concat(),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("(log actions: the run has false, the command asks for true)"),
        "{}",
        stderr(&o)
    );
    // Nor does a run go inside another run's table directory.
    let nested = killed.join("deals").join("x");
    let o = taisim(&[&SMALL[..], &["--out", nested.to_str().unwrap()]].concat());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("is in the deals directory of the run in"),
        "{}",
        stderr(&o)
    );
    assert!(!nested.exists());
}

/// A game's deal ids run from g × 65536 for as many deals as it lasted: an id past its
/// game's last deal is the user's mistake (exit 2, naming the game's deals), not a damaged
/// part.
#[test]
fn deals_past_a_games_end_are_named_not_taken_for_damage() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games");
    let out = out.to_str().unwrap();
    let o = taisim(&[
        "simulate",
        "--games",
        "2",
        "--seed",
        "1",
        "--threads",
        "1",
        "--quiet",
        "--out",
        out,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Each game's deals, from the deals table's ids.
    let m: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(out).join("manifest.json")).unwrap(),
    )
    .unwrap();
    let deals = m["rows"]["deals"].as_u64().unwrap();
    let last_of_game_0 = (0..deals)
        .take_while(|&j| taisim(&["replay", out, &j.to_string()]).status.success())
        .last()
        .unwrap();
    let past = last_of_game_0 + 1;
    let o = taisim(&["replay", out, &past.to_string()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(
        stderr(&o).trim_end(),
        format!(
            "error: deal {past} is not in the run: game 0 has {past} deals (ids 0–{last_of_game_0})"
        )
    );
    // The second game's ids start at 65536.
    let o = taisim(&["replay", out, "65536"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = taisim(&["replay", out, "65636"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("game 1 has"), "{}", stderr(&o));
    assert!(stderr(&o).contains("(ids 65536–"), "{}", stderr(&o));
}

/// A shard plays whole parts: a split into more shards than parts is refused before
/// anything is written, naming both numbers; as many shards as parts is played.
#[test]
fn splits_into_more_shards_than_parts_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let out = out.to_str().unwrap();
    let run = [
        "simulate",
        "--deals",
        "200",
        "--part-size",
        "50",
        "--seed",
        "3",
        "--quiet",
    ];
    for shard in ["1/100000", "100000/100000", "5/5"] {
        let o = taisim(&[&run[..], &["--shard", shard, "--out", out]].concat());
        assert_eq!(o.status.code(), Some(2), "{shard}: {}", stderr(&o));
        let err = stderr(&o);
        let count = shard.split('/').nth(1).unwrap();
        assert!(err.contains(&format!("into {count} shards")), "{err}");
        assert!(err.contains("more than its 4 parts"), "{err}");
        assert!(!Path::new(out).exists(), "{shard}: nothing is written");
    }
    let o = taisim(&[&run[..], &["--shard", "4/4", "--out", out]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let manifest = Path::new(out).join("manifest-shard-00004-of-00004.json");
    assert!(manifest.is_file());
}

/// Numbers out of range are named, never wrapped or obeyed blindly.
#[test]
fn seeds_and_thread_counts_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let out = out.to_str().unwrap();
    let cases: [(&[&str], &str); 10] = [
        (&["simulate", "--seed", "-1", "--out", out], "must be ≥ 0"),
        // Stakes past the settlement's bounds are refused before the first win, not met there.
        (
            &["simulate", "--per-tai", "9223372036854775807", "--out", out],
            "per_tai",
        ),
        (&["simulate", "--base=-5", "--out", out], "base = -5"),
        (
            &["simulate", "--seed", "18446744073709551616", "--out", out],
            "largest seed",
        ),
        (&["simulate", "--seed", "7x", "--out", out], "not a seed"),
        (&["deal", "--seed", "-3"], "must be ≥ 0"),
        (&["simulate", "--threads", "100000", "--out", out], "1024"),
        (&["simulate", "--threads", "0", "--out", out], "at least 1"),
        (&["engine-bench", "--threads", "5000"], "1024"),
        (&["replay", out, "-5"], "must be ≥ 0"),
    ];
    for (args, needle) in cases {
        let o = taisim(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    }
    assert!(!Path::new(out).exists());
    // The largest seed is a seed; threads beyond the parts to play are not started.
    let o = taisim(&[
        "simulate",
        "--deals",
        "10",
        "--seed",
        "18446744073709551615",
        "--threads",
        "1000",
        "--out",
        out,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("on 1 thread\n"), "{text}");
}

/// Every command that prints, with stdout closed and with stdout full: never a panic; a
/// closed pipe ends quietly with status 0, a full device is reported with status 1.
#[test]
fn closed_or_full_stdout_never_panics() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let run = run.to_str().unwrap();
    let o = taisim(&[&SMALL[..], &["--out", run]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let fresh = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
    let commands: Vec<Vec<String>> = vec![
        vec!["variants".into()],
        vec!["variant".into(), "show".into(), "taiwan16".into()],
        vec!["simulate".into(), "--schema".into()],
        vec!["deal".into(), "--seed".into(), "3".into()],
        vec!["replay".into(), run.into(), "1234".into()],
        vec!["report".into(), run.into()],
        vec!["engine-bench".into(), "--deals".into(), "100".into()],
        vec![
            "score".into(),
            "123m 456m 789m 234p 99s 345s".into(),
            "--win-tile".into(),
            "9s".into(),
            "--self-drawn".into(),
        ],
    ];
    let mut tried = 0;
    for (i, args) in commands.iter().enumerate() {
        // Closed: the read end is dropped before the command writes anything.
        let mut child = Command::new(env!("CARGO_BIN_EXE_taisim"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{args:?}: {}", stderr(&o));

        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_taisim"))
            .args(args)
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("cannot write to standard output"),
            "{args:?}: {}",
            stderr(&o)
        );
        assert!(!stderr(&o).contains("panicked"), "{args:?}: {}", stderr(&o));
        tried += 2;
        let _ = i;
    }
    // A whole simulation whose closing summary meets a closed and a full stdout: the run
    // itself is complete either way.
    for (name, full) in [("closed", false), ("full", true)] {
        let out = fresh(name);
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_taisim"));
        cmd.args([
            "simulate",
            "--deals",
            "300",
            "--part-size",
            "100",
            "--out",
            &out,
        ]);
        let o = if full {
            let f = std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap();
            cmd.stdout(f).output().unwrap()
        } else {
            let mut child = cmd
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            drop(child.stdout.take());
            child.wait_with_output().unwrap()
        };
        assert_eq!(
            o.status.code(),
            Some(if full { 1 } else { 0 }),
            "{}",
            stderr(&o)
        );
        assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
        let m = std::fs::read_to_string(Path::new(&out).join("manifest.json")).unwrap();
        assert!(m.contains("\"complete\""));
        tried += 1;
    }
    assert_eq!(tried, 18);
}

/// A run's table files and manifests, by name, with their bytes.
fn run_files(out: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut files = support::table_files(out);
    for e in std::fs::read_dir(out).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with("manifest") {
            files.insert(name, std::fs::read(e.path()).unwrap());
        }
    }
    files
}

fn manifest_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Asserts that `o` exited 2 because seat E's weights differ from those of the agents that
/// wrote `record` (a manifest or a journal).
fn refused_as_played_otherwise(o: &std::process::Output, record: &str) {
    assert_eq!(o.status.code(), Some(2), "{}", stderr(o));
    assert!(
        stderr(o).contains(&format!("play otherwise than those that wrote {record}"))
            && stderr(o).contains("seat E's policy:")
            && stderr(o).contains("its weights changed"),
        "{}",
        stderr(o)
    );
}

/// Copies a plain `mlp` policy file from `source` to `target` with its output layer (weights
/// and biases) doubled: doubling is exact in floating point, so every logit is exactly twice
/// what it was and the policy ranks every action as before, ties included, and plays every
/// deal alike, while its weights differ.
fn double_output_layer(source: &Path, target: &Path) {
    let mut bytes = std::fs::read(source).unwrap();
    let header_len = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    let header: serde_json::Value = serde_json::from_slice(&bytes[8..8 + header_len]).unwrap();
    for tensor in ["layers.2.weight", "layers.2.bias"] {
        let t = &header[tensor];
        assert_eq!(t["dtype"], "F32");
        let offsets = t["data_offsets"].as_array().unwrap();
        let [start, end] = [0, 1].map(|i| 8 + header_len + offsets[i].as_u64().unwrap() as usize);
        for value in bytes[start..end].chunks_exact_mut(4) {
            let doubled = 2.0 * f32::from_le_bytes(value.try_into().unwrap());
            value.copy_from_slice(&doubled.to_le_bytes());
        }
    }
    std::fs::write(target, bytes).unwrap();
}

/// A weights file written again with weights that play the run's first deal exactly as
/// before (here every deal: the output layer doubled) still never joins the run: no
/// deal tells how a policy plays the others, so the run records each policy seat's weights
/// and compares them, naming the seat and both hashes. Put back, the run resumes.
#[test]
fn weights_that_play_the_first_deal_alike_still_never_join_a_run() {
    let dir = tempfile::tempdir().unwrap();
    let agent = Rewritable::new(dir.path());
    let (run, alike) = (dir.path().join("run"), dir.path().join("alike"));
    let o = agent.play(&run, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let recorded = manifest_json(&run.join("manifest.json"))["play"].clone();
    let weights = recorded["weights"].as_array().unwrap();
    assert_eq!(weights.len(), 4);
    assert_eq!(weights[0].as_str().unwrap().len(), 64);
    assert!(weights[1..].iter().all(serde_json::Value::is_null));

    let original = std::fs::read(&agent.weights).unwrap();
    double_output_layer(&agent.weights.clone(), &agent.weights);
    let o = agent.play(&alike, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doubled = manifest_json(&alike.join("manifest.json"))["play"].clone();
    assert_eq!(doubled["sha256"], recorded["sha256"], "deal 0 plays alike");
    assert_ne!(doubled["weights"], recorded["weights"]);
    assert_eq!(
        support::table_files(&alike),
        support::table_files(&run),
        "every deal plays alike"
    );

    std::fs::remove_file(run.join("deals/part-00002.parquet")).unwrap();
    let before = run_files(&run);
    let o = Rewritable::resume(&run);
    refused_as_played_otherwise(&o, "manifest.json");
    let short = |v: &serde_json::Value| v[0].as_str().unwrap()[..12].to_string();
    assert!(
        stderr(&o).contains(&short(&doubled["weights"]))
            && stderr(&o).contains(&short(&recorded["weights"])),
        "{}",
        stderr(&o)
    );
    assert_eq!(run_files(&run), before, "a refused resume changes nothing");

    std::fs::write(&agent.weights, original).unwrap();
    let o = Rewritable::resume(&run);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(support::table_files(&run), support::table_files(&alike));
}

/// A run records a policy path as given; resumed from another directory, a relative path
/// names a file that is not there, and the error says why and where to resume from.
#[test]
fn a_relative_policy_path_resumed_elsewhere_says_where_to_resume() {
    let dir = tempfile::tempdir().unwrap();
    let (started, elsewhere) = (dir.path().join("started"), dir.path().join("elsewhere"));
    for d in [&started, &elsewhere] {
        std::fs::create_dir(d).unwrap();
    }
    let root = env!("CARGO_MANIFEST_DIR");
    std::fs::copy(
        format!("{root}/tests/fixtures/policy_obs_v2.safetensors"),
        started.join("w.safetensors"),
    )
    .unwrap();
    let args = [
        "simulate",
        "--deals",
        "200",
        "--part-size",
        "100",
        "--agents",
        "policy:w.safetensors,greedy,greedy,greedy",
        "--quiet",
        "--out",
        "run",
    ];
    let o = support::taisim_in(&started, &args);
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::remove_file(started.join("run/deals/part-00001.parquet")).unwrap();
    let run = started.join("run");
    let resume = [
        "simulate",
        "--resume",
        "--quiet",
        "--out",
        run.to_str().unwrap(),
    ];
    let o = support::taisim_in(&elsewhere, &resume);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("cannot read policy file w.safetensors")
            && stderr(&o).contains("resume from the directory the run was started in"),
        "{}",
        stderr(&o)
    );
    assert!(!run.join("deals/part-00001.parquet").exists());
    let o = support::taisim_in(&started, &resume);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(run.join("deals/part-00001.parquet").exists());
}

/// A seat whose agent plays otherwise under the same name: `policy:PATH` in seat E (greedy in
/// the others), whose weights file can be written again with other weights. (In use, as
/// often plain `search` or any agent after a newer taisim changes it.)
struct Rewritable {
    weights: std::path::PathBuf,
    /// `policy:PATH`, seat E's agent.
    policy: String,
}

impl Rewritable {
    fn new(dir: &Path) -> Rewritable {
        let weights = dir.join("w.safetensors");
        let policy = format!("policy:{}", weights.display());
        let r = Rewritable { weights, policy };
        r.write(false);
        r
    }

    /// Writes the first weights, or (`other`) the second, into the agent's file.
    fn write(&self, other: bool) {
        let root = env!("CARGO_MANIFEST_DIR");
        let source = if other {
            format!("{root}/agents/policies/trained.safetensors")
        } else {
            format!("{root}/tests/fixtures/policy_obs_v2.safetensors")
        };
        std::fs::copy(source, &self.weights).unwrap();
    }

    /// `simulate` of 400 deals of seed 3 in parts of 100 into `out`, with `extra` flags.
    fn play(&self, out: &Path, extra: &[&str]) -> std::process::Output {
        let agents = format!("{},greedy,greedy,greedy", self.policy);
        let args = [
            "simulate",
            "--deals",
            "400",
            "--part-size",
            "100",
            "--seed",
            "3",
            "--agents",
            &agents,
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ];
        taisim(&[&args[..], extra].concat())
    }

    /// `simulate --resume` of the run in `out`.
    fn resume(out: &Path) -> std::process::Output {
        taisim(&[
            "simulate",
            "--resume",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ])
    }
}

/// A run records how its agents played its first deal. The same agent name played another
/// way (here `policy:PATH` after its weights file is written again; in use, as often plain
/// `search` or any agent after a newer taisim changes it) neither resumes the run, nor adds
/// a shard to it, nor replays its deals, and a refused resume leaves the run as it was.
/// With the weights put back, all three go on, to the files of an uninterrupted run.
#[test]
fn parts_played_otherwise_never_join_a_run() {
    let dir = tempfile::tempdir().unwrap();
    let agent = Rewritable::new(dir.path());
    let play = |out: &Path, extra: &[&str]| agent.play(out, extra);
    let resume = |out: &Path| Rewritable::resume(out);
    let (whole, killed, shared) = (
        dir.path().join("whole"),
        dir.path().join("killed"),
        dir.path().join("shared"),
    );
    for (out, extra) in [
        (&whole, &[][..]),
        (&killed, &[]),
        (&shared, &["--shard", "1/2"]),
    ] {
        let o = play(out, extra);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let recorded = manifest_json(&whole.join("manifest.json"))["play"].clone();
    assert_eq!(recorded["deal_id"], 0);
    assert_eq!(recorded["agents"][0], agent.policy.as_str());
    assert_eq!(recorded["agents"][1], "greedy");
    assert_eq!(recorded["sha256"].as_str().unwrap().len(), 64);
    // Every run of the same agents on the same seed records the same fingerprint.
    for m in [
        killed.join("manifest.json"),
        shared.join("manifest-shard-00001-of-00002.json"),
    ] {
        assert_eq!(manifest_json(&m)["play"], recorded);
    }
    std::fs::remove_file(killed.join("deals/part-00002.parquet")).unwrap();

    // The weights written again: the same name now plays otherwise.
    agent.write(true);
    let before = run_files(&killed);
    refused_as_played_otherwise(&resume(&killed), "manifest.json");
    assert_eq!(
        run_files(&killed),
        before,
        "a refused resume changes nothing"
    );
    let o = play(&shared, &["--shard", "2/2"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("manifest-shard-00001-of-00002.json"),
        "{}",
        stderr(&o)
    );
    assert!(!shared.join("manifest-shard-00002-of-00002.json").exists());
    let o = taisim(&["replay", whole.to_str().unwrap(), "5"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("cannot replay deal 5"),
        "{}",
        stderr(&o)
    );
    let o = taisim(&["replay", whole.to_str().unwrap(), "--all", "--json"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(o.stdout.is_empty(), "nothing is replayed");
    assert!(
        stderr(&o).contains("cannot replay the run's deals"),
        "{}",
        stderr(&o)
    );

    // The weights put back: the run resumes to the uninterrupted run's files, the second
    // shard joins the first, and the deal replays.
    agent.write(false);
    let o = resume(&killed);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(support::table_files(&killed), support::table_files(&whole));
    let o = play(&shared, &["--shard", "2/2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = taisim(&["report", shared.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = taisim(&["replay", whole.to_str().unwrap(), "5"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = taisim(&["replay", whole.to_str().unwrap(), "--all", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));

    // Shards whose manifests record two ways of play are not one run.
    let second_shard = shared.join("manifest-shard-00002-of-00002.json");
    let mut m = manifest_json(&second_shard);
    m["play"]["sha256"] = serde_json::json!("0".repeat(64));
    std::fs::write(&second_shard, m.to_string()).unwrap();
    let o = taisim(&["report", shared.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("shard 2/2 was played otherwise than shard 1/2"),
        "{}",
        stderr(&o)
    );
}

/// A run whose manifest records no play fingerprint (an older taisim's) resumes, says that
/// its play was not checked, and is not given this taisim's fingerprint for parts it did
/// not play; once no kept part is left unvouched for, the fingerprint is recorded.
#[test]
fn a_run_without_a_fingerprint_resumes_unvouched() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("older");
    let o = taisim(&[&SMALL[..], &["--out", out.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let path = out.join("manifest.json");
    let recorded = manifest_json(&path)["play"].clone();
    assert!(recorded.is_object(), "{recorded}");
    let strip = || {
        let mut m = manifest_json(&path);
        m.as_object_mut().unwrap().remove("play");
        std::fs::write(&path, m.to_string()).unwrap();
    };
    strip();
    std::fs::remove_file(out.join("deals/part-00001.parquet")).unwrap();
    let o = taisim(&["simulate", "--resume", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("manifest.json records no play fingerprint"),
        "{}",
        stderr(&o)
    );
    assert!(manifest_json(&path).get("play").is_none());

    // Every part played again by this taisim: now it vouches for them all.
    strip();
    std::fs::remove_dir_all(out.join("deals")).unwrap();
    std::fs::remove_dir_all(out.join("wins")).unwrap();
    std::fs::remove_dir_all(out.join("tai")).unwrap();
    let o = taisim(&["simulate", "--resume", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(manifest_json(&path)["play"], recorded);
}

/// A run that lost its manifest resumes from its journal, whose header records how the
/// invocation that wrote it played: parts played another way are refused there too (the
/// journal named, nothing changed), the same play resumes to the run's files and is vouched
/// for in the new manifest, and a journal that records no play (an older taisim's) resumes
/// unvouched, with a note.
#[test]
fn a_lost_manifest_is_vouched_for_by_its_journal() {
    let dir = tempfile::tempdir().unwrap();
    let agent = Rewritable::new(dir.path());
    let out = dir.path().join("run");
    let o = agent.play(&out, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let whole = support::table_files(&out);
    let manifest = out.join("manifest.json");
    let recorded = manifest_json(&manifest);
    assert!(recorded["play"].is_object(), "{recorded}");
    let journal = out.join(".manifest.json.journal");
    // What a kill after every part but the third leaves once the manifest is lost: the
    // journal (its header as `simulate` writes it, with or without the play), the files.
    let lose_manifest = |play: bool| {
        let mut header = serde_json::json!({
            "journal": "taisim-journal/1",
            "spec": recorded["spec"],
        });
        if play {
            header["play"] = recorded["play"].clone();
        }
        let mut text = format!("{header}\n");
        for p in recorded["parts"].as_array().unwrap() {
            if p["index"] != 2 {
                text.push_str(&format!("{p}\n"));
            }
        }
        std::fs::write(&journal, text).unwrap();
        std::fs::remove_file(&manifest).unwrap();
        std::fs::remove_file(out.join("deals/part-00002.parquet")).unwrap();
    };
    let resume = || Rewritable::resume(&out);

    lose_manifest(true);
    agent.write(true);
    let before = run_files(&out);
    let journal_before = std::fs::read(&journal).unwrap();
    refused_as_played_otherwise(&resume(), ".manifest.json.journal");
    assert_eq!(run_files(&out), before, "a refused resume changes nothing");
    assert_eq!(std::fs::read(&journal).unwrap(), journal_before);

    agent.write(false);
    let o = resume();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("fingerprint"), "{}", stderr(&o));
    assert_eq!(support::table_files(&out), whole);
    assert_eq!(manifest_json(&manifest)["play"], recorded["play"]);

    lose_manifest(false);
    let o = resume();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(".manifest.json.journal records no play fingerprint"),
        "{}",
        stderr(&o)
    );
    assert_eq!(support::table_files(&out), whole);
    assert!(manifest_json(&manifest).get("play").is_none());
}

/// A search's threads change how fast it plays, never what: a run of `search:4` and one of
/// `search:4:threads=2` write the same part files, byte for byte, and record the same spec
/// and play; a part lost from the second is played again on three threads by a resume that
/// names them, to the same files.
#[test]
fn a_searchs_threads_leave_its_run_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let seat_e = |agent: &str| format!("{agent},greedy,greedy,greedy");
    let play = |out: &Path, agent: &str, extra: &[&str]| {
        let args = [
            "simulate",
            "--deals",
            "6",
            "--part-size",
            "2",
            "--seed",
            "5",
            "--agents",
            &seat_e(agent),
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ];
        let o = taisim(&[&args[..], extra].concat());
        assert!(o.status.success(), "{}", stderr(&o));
    };
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    play(&one, "search:4", &[]);
    play(&two, "search:4:threads=2", &[]);
    let files = support::table_files(&one);
    assert_eq!(files.len(), 9, "three parts of three tables");
    assert_eq!(support::table_files(&two), files);
    let manifest = |out: &Path| manifest_json(&out.join("manifest.json"));
    let recorded = manifest(&one);
    assert_eq!(recorded["spec"]["agents"][0], "search:4");
    assert_eq!(recorded["play"]["agents"][0], "search:4");
    for key in ["spec", "play"] {
        assert_eq!(manifest(&two)[key], recorded[key], "{key}");
    }

    std::fs::remove_file(two.join("deals/part-00001.parquet")).unwrap();
    play(&two, "search:4:threads=3", &["--resume"]);
    assert_eq!(support::table_files(&two), files);
    assert_eq!(manifest(&two)["spec"], recorded["spec"]);
}
