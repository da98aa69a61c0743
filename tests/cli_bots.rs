//! `exec:` agents run by the real binary: the example random bot gives the same files on one
//! and two threads; each kind of fault stops the run with exit status 1 and an error naming
//! the bot, the deal, the decision and what it sent, keeps the complete parts and the bot's
//! standard error, and `--resume` with the bot fixed ends byte-identical to a run never
//! interrupted; a bot and what it started do not outlive taisim ended by a signal; `taisim
//! bot` refuses input it cannot follow with exit status 2.

mod support;
use std::path::{Path, PathBuf};

use support::{stderr, stdout, taisim, taisim_with_input};

/// The repository's example bots.
fn example(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/bots")
        .join(name)
        .display()
        .to_string()
}

fn python() -> &'static str {
    let ok = std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "these tests run the example bots with python3, which is not on PATH"
    );
    "python3"
}

/// `path`'s manifest: each part file's SHA-256 by name.
fn checksums(run: &Path) -> Vec<(String, String)> {
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("manifest.json")).unwrap()).unwrap();
    let mut out = Vec::new();
    for p in m["parts"].as_array().unwrap() {
        for table in ["deals", "wins", "tai"] {
            out.push((
                p[table]["file"].as_str().unwrap().to_string(),
                p[table]["sha256"].as_str().unwrap().to_string(),
            ));
        }
    }
    out
}

fn simulate(out: &Path, agents: &str, extra: &[&str]) -> std::process::Output {
    let out = out.display().to_string();
    let mut args = vec![
        "simulate",
        "--deals",
        "60",
        "--part-size",
        "20",
        "--seed",
        "5",
        "--quiet",
        "--out",
        &out,
        "--agents",
        agents,
    ];
    args.extend_from_slice(extra);
    taisim(&args)
}

#[test]
fn the_random_bot_plays_the_same_on_one_and_two_threads() {
    let dir = tempfile::tempdir().unwrap();
    let bot = format!("exec:{} {}", python(), example("random_bot.py"));
    let a = simulate(&dir.path().join("a"), &bot, &["--threads", "1"]);
    assert!(a.status.success(), "{}", stderr(&a));
    let b = simulate(&dir.path().join("b"), &bot, &["--threads", "2"]);
    assert!(b.status.success(), "{}", stderr(&b));
    let sums = checksums(&dir.path().join("a"));
    assert_eq!(sums.len(), 9);
    assert_eq!(sums, checksums(&dir.path().join("b")));
    // One stderr file per part's process, beside the run.
    for p in 0..3 {
        assert!(dir
            .path()
            .join(format!("a/bots/part-{p:05}-ESWN.stderr"))
            .is_file());
    }
}

/// A bot that plays like the random bot until the first decision after its `fail_at`-th
/// deal start over all its processes (counted in a file: four starts a deal, one a seat),
/// and there does what the mode file says. It writes a line to its stderr first.
const FAULT_BOT: &str = r#"
import json, random, sys, time, os
mode_file, count_file, fail_at = sys.argv[1], sys.argv[2], int(sys.argv[3])
print("fault bot starting", file=sys.stderr, flush=True)
rngs = {}
behind = False
for line in sys.stdin:
    msg = json.loads(line)
    t = msg["type"]
    if t == "hello":
        mode = open(mode_file).read().strip()
        if mode == "nohello":
            print("HELLO THERE", flush=True)
            continue
        version = 2 if mode == "version" else 1
        hello = json.dumps({"type": "hello", "protocol": version, "name": "faulty"}) + "\n"
        # "early": a line no request asked for, written with the hello (one write), so that
        # it waits at the table before the first request however the processes are timed.
        sys.stdout.write(hello + ('{"id": 0}\n' if mode == "early" else ""))
        sys.stdout.flush()
    elif t == "start":
        rngs[(msg["deal"], msg["seat"])] = random.Random(msg["seed"])
        # One byte a start, appended: processes of parallel parts may count at once.
        fd = os.open(count_file, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        os.write(fd, b"s")
        os.close(fd)
    elif t == "act":
        n = os.path.getsize(count_file)
        mode = open(mode_file).read().strip()
        legal = msg["legal"]
        choice = legal[rngs[(msg["deal"], msg["seat"])].randrange(len(legal))]["id"]
        if n >= fail_at and mode != "ok":
            if mode == "exit":
                sys.exit(3)
            if mode == "hang":
                time.sleep(60)
            if mode == "garbage":
                print("discard 5m please", flush=True)
                continue
            if mode == "illegal":
                print(json.dumps({"id": len(legal) + 7}), flush=True)
                continue
            if mode in ("behind", "behind_step") and not behind:
                # One second answer, sent a moment after the first: the table has already
                # sent the next request, so the copy reads as its answer, and every answer
                # after it is a decision late. Each is then the first legal action's id and
                # sent a moment late too, so that none is illegal where it is read and none
                # waits at the table before the request it is read for.
                behind = True
                answer = {"id": choice}
                if mode == "behind_step":
                    answer["step"] = msg["step"]
                print(json.dumps(answer), flush=True)
                time.sleep(0.05)
                print(json.dumps(answer), flush=True)
                continue
            if mode == "twice":
                # Both copies in one write: the second waits at the table before the next
                # request however the processes are timed.
                answer = json.dumps({"id": choice}) + "\n"
                sys.stdout.write(answer + answer)
                sys.stdout.flush()
                continue
        answer = {"id": choice}
        if behind:
            answer["id"] = legal[0]["id"]
            time.sleep(0.02)
        if mode == "behind_step":
            answer["step"] = msg["step"]
        print(json.dumps(answer), flush=True)
"#;

struct FaultBot {
    _dir: tempfile::TempDir,
    mode: PathBuf,
    count: PathBuf,
    agent: String,
}

impl FaultBot {
    fn new(mode: &str, fail_at: u32) -> FaultBot {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("fault_bot.py");
        std::fs::write(&script, FAULT_BOT).unwrap();
        let mode_file = dir.path().join("mode");
        std::fs::write(&mode_file, mode).unwrap();
        let count = dir.path().join("count");
        let agent = format!(
            "exec:{} {} {} {} {fail_at}",
            python(),
            script.display(),
            mode_file.display(),
            count.display()
        );
        FaultBot {
            _dir: dir,
            mode: mode_file,
            count,
            agent,
        }
    }

    fn fix(&self) {
        std::fs::write(&self.mode, "ok").unwrap();
    }
}

/// Runs the fault `mode` (failing at decision `fail_at`, in the second part), checks the
/// error, then resumes with the bot fixed and compares with a run of the fixed bot.
fn fault_then_resume(mode: &str, expect: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    // The 97th start is the first seat's of deal 25, in the second part (20 deals a part).
    let bot = FaultBot::new(mode, 97);
    let failed = simulate(&run, &bot.agent, &["--threads", "1", "--bot-timeout", "1"]);
    let err = stderr(&failed);
    assert_eq!(failed.status.code(), Some(1), "{mode}: {err}");
    for e in expect
        .iter()
        .chain(&["bot exec:", "seat ", "decision ", "(seed "])
    {
        assert!(err.contains(e), "{mode}: no {e:?} in: {err}");
    }
    assert!(err.contains("--resume"), "{mode}: {err}");
    // The first part is complete and recorded; the failed part left nothing.
    assert!(run.join("deals/part-00000.parquet").is_file(), "{mode}");
    assert!(!run.join("deals/part-00001.parquet").exists(), "{mode}");
    let log = std::fs::read_to_string(run.join("bots/part-00001-ESWN.stderr")).unwrap();
    assert!(log.contains("fault bot starting"), "{log}");

    bot.fix();
    let out = run.display().to_string();
    let resumed = taisim(&["simulate", "--resume", "--out", &out, "--quiet"]);
    assert!(resumed.status.success(), "{mode}: {}", stderr(&resumed));
    let whole = dir.path().join("whole");
    std::fs::remove_file(&bot.count).ok();
    let again = simulate(&whole, &bot.agent, &["--threads", "1"]);
    assert!(again.status.success(), "{}", stderr(&again));
    assert_eq!(checksums(&run), checksums(&whole), "{mode}");
}

#[test]
fn a_bot_that_exits_is_named_and_the_run_resumes() {
    fault_then_resume("exit", &["exited", "exit status: 3"]);
}

#[test]
fn a_bot_that_hangs_is_named_and_the_run_resumes() {
    fault_then_resume("hang", &["sent nothing within 1 s", "its answer"]);
}

#[test]
fn a_bot_that_sends_garbage_is_named_and_the_run_resumes() {
    fault_then_resume("garbage", &["not JSON", "it sent: discard 5m please"]);
}

#[test]
fn a_bot_that_answers_an_illegal_action_is_named_and_the_run_resumes() {
    fault_then_resume("illegal", &["not legal", "it sent: {\"id\": "]);
}

/// A bot that answers every request twice: taken as the answers to later requests, the
/// copies would put every decision after the first out of step.
#[test]
fn a_bot_that_answers_twice_is_named_and_the_run_resumes() {
    fault_then_resume("twice", &["before it was asked", "it sent: {\"id\": "]);
}

/// A bot that answers one request twice, the copy sent a moment late, falls a decision
/// behind: the copy is read as the next request's answer, and each answer after it as the
/// one after its own. Its answers stay legal and none waits at the table before the request
/// it is read for, so nothing in the deal shows it; it is caught when its input is closed at
/// the part's end, a line left over, and the part is not written (before, the run ended with
/// exit status 0, the bot's moves a decision out of step to the part's end).
#[test]
fn a_bot_that_falls_a_decision_behind_is_caught_before_its_part_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    // The 157th start is the first seat's of deal 39, the second part's last.
    let bot = FaultBot::new("behind", 157);
    let o = simulate(&run, &bot.agent, &["--threads", "1"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    for e in ["left a line unread", "it sent: {\"id\": ", "deal 39 (seed "] {
        assert!(err.contains(e), "no {e:?} in: {err}");
    }
    assert!(run.join("deals/part-00000.parquet").is_file());
    assert!(!run.join("deals/part-00001.parquet").exists(), "{err}");
}

/// The same bot echoing each request's `step` is caught at the copy itself.
#[test]
fn a_bot_that_echoes_the_step_is_caught_at_its_second_answer() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let bot = FaultBot::new("behind_step", 97);
    let o = simulate(&run, &bot.agent, &["--threads", "1"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("it answers decision "), "{err}");
    assert!(err.contains("was asked (a second answer"), "{err}");
    assert!(!run.join("deals/part-00001.parquet").exists(), "{err}");
}

/// A line before the first request is not taken as the answer to it.
#[test]
fn a_bot_that_sends_a_line_before_the_first_request_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let bot = FaultBot::new("early", 1_000_000);
    let o = simulate(&dir.path().join("run"), &bot.agent, &["--threads", "1"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    for e in [
        "(\"faulty\") at seat E, its deal 1, decision 1 sent a line before it was asked",
        "it sent: {\"id\": 0}",
    ] {
        assert!(err.contains(e), "no {e:?} in: {err}");
    }
    assert!(!dir.path().join("run/deals/part-00000.parquet").exists());
}

#[test]
fn a_bot_without_its_hello_is_refused() {
    for (mode, expect) in [
        ("nohello", "its hello is not JSON"),
        (
            "version",
            "it speaks protocol 2; this taisim speaks protocol 1",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let bot = FaultBot::new(mode, 1_000_000);
        let o = simulate(&dir.path().join("run"), &bot.agent, &["--threads", "1"]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains(expect), "{err}");
        assert!(err.contains("HELLO THERE") || mode != "nohello", "{err}");
    }
}

#[test]
fn a_bot_that_cannot_start_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let o = simulate(
        &dir.path().join("run"),
        "exec:/nonexistent/bot --flag",
        &["--threads", "1"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("bot exec:/nonexistent/bot --flag"), "{err}");
    assert!(!dir.path().join("run/deals/part-00000.parquet").exists());
}

#[test]
fn bad_bot_arguments_exit_2() {
    let o = taisim(&["simulate", "--agents", "exec:", "--deals", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("needs a command"), "{}", stderr(&o));
    for bad in ["0", "-1", "x", "1e9", "1e-12", "NaN"] {
        let o = taisim(&[
            "simulate",
            "--agents",
            "greedy",
            "--deals",
            "1",
            "--bot-timeout",
            bad,
        ]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(stderr(&o).contains("bot timeout"), "{}", stderr(&o));
    }
}

/// A Parquet file's bytes before its footer: the data pages, which hold every row. (The
/// footer records the run's spec, agents included, so it names the bot.)
fn data_pages(path: &Path) -> Vec<u8> {
    let b = std::fs::read(path).unwrap();
    let n = b.len();
    assert_eq!(&b[n - 4..], b"PAR1", "{}", path.display());
    let footer = u32::from_le_bytes(b[n - 8..n - 4].try_into().unwrap()) as usize;
    b[..n - 8 - footer].to_vec()
}

/// The protocol loses nothing: a bot that rebuilds its seat's deal from the messages and asks
/// built-in greedy what to play (`taisim bot greedy`) gives the built-in greedy run's rows
/// byte for byte, on one and on two threads, in every table, and the same deal logs.
/// Asserts that the first `parts` parts of runs `a` and `b` hold the same data pages.
fn same_data_pages(a: &Path, b: &Path, parts: u64, label: &str) {
    for table in ["deals", "wins", "tai"] {
        for p in 0..parts {
            let name = format!("{table}/part-{p:05}.parquet");
            assert_eq!(
                data_pages(&a.join(&name)),
                data_pages(&b.join(&name)),
                "{label} {name}"
            );
        }
    }
}

#[test]
fn greedy_through_the_protocol_is_greedy_to_the_byte() {
    let dir = tempfile::tempdir().unwrap();
    let taisim = env!("CARGO_BIN_EXE_taisim");
    for variant in ["taiwan16", "taizhou"] {
        let builtin = dir.path().join(format!("{variant}-builtin"));
        let bot = dir.path().join(format!("{variant}-bot"));
        let run = |out: &Path, agents: &str, threads: &str| {
            let o = taisim_args(&[
                "simulate",
                "--variant",
                variant,
                "--deals",
                "120",
                "--part-size",
                "40",
                "--seed",
                "11",
                "--log-actions",
                "--quiet",
                "--threads",
                threads,
                "--out",
                &out.display().to_string(),
                "--agents",
                agents,
            ]);
            assert!(o.status.success(), "{variant} {agents}: {}", stderr(&o));
        };
        run(&builtin, "greedy", "1");
        // Under taiwan16 the bot in seats E and W only, greedy itself in the others (both
        // kinds of seat at one table); under taizhou one bot process in all four seats.
        let exec = format!("exec:{taisim} bot greedy");
        let agents = match variant {
            "taiwan16" => format!("{exec},greedy,{exec},greedy"),
            _ => exec,
        };
        run(&bot, &agents, "2");
        same_data_pages(&builtin, &bot, 3, variant);
        let logs = |run: &Path| {
            let o = taisim_args(&["replay", &run.display().to_string(), "--all", "--json"]);
            assert!(o.status.success(), "{}", stderr(&o));
            o.stdout
        };
        let a = logs(&builtin);
        assert!(a.len() > 100_000);
        assert_eq!(a, logs(&bot), "{variant}: the deal logs differ");
    }
}

/// A variant file that keeps a shipped name but scores otherwise: `taisim bot`, which finds
/// a shipped name's rules by itself, would play it by the shipped table. The table sends the
/// file's SHA-256 with each deal's start, and the bot refuses the mismatch, naming both; given
/// the file with `--variant`, it plays as the built-in agent does, to the byte.
#[test]
fn a_bot_refuses_a_variant_file_that_keeps_a_shipped_name() {
    let dir = tempfile::tempdir().unwrap();
    let taisim = env!("CARGO_BIN_EXE_taisim");
    let shipped = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/score/variants/taiwan16.toml"
    ))
    .unwrap();
    let edited = shipped.replacen("\ndragon_pung = 1 ", "\ndragon_pung = 16 ", 1);
    assert_ne!(edited, shipped, "the edit applies");
    let file = dir.path().join("same-name.toml");
    std::fs::write(&file, edited).unwrap();
    let file = file.display().to_string();
    let run = |name: &str, agents: &str| {
        let out = dir.path().join(name);
        let o = taisim_args(&[
            "simulate",
            "--variant",
            &file,
            "--deals",
            "40",
            "--part-size",
            "20",
            "--seed",
            "3",
            "--quiet",
            "--out",
            &out.display().to_string(),
            "--agents",
            agents,
        ]);
        (out, o)
    };
    let (_, o) = run(
        "by-name",
        &format!("value,exec:{taisim} bot value,value,value"),
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let bot_errors: String = std::fs::read_dir(dir.path().join("by-name/bots"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert!(
        bot_errors.contains("the table's variant taiwan16 has SHA-256")
            && bot_errors.contains("give the bot the table's variant file with --variant"),
        "{bot_errors}"
    );
    let (builtin, o) = run("builtin", "value");
    assert!(o.status.success(), "{}", stderr(&o));
    let (given, o) = run(
        "given",
        &format!("value,exec:{taisim} bot value --variant {file},value,value"),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    same_data_pages(&builtin, &given, 2, "taiwan16");
}

fn taisim_args(args: &[&str]) -> std::process::Output {
    taisim(args)
}

/// `arena --json` with these agents, `threads` threads, 300 walls.
fn arena(candidate: &str, baseline: &str, threads: &str) -> serde_json::Value {
    let o = taisim(&[
        "arena",
        "--json",
        "--candidate",
        candidate,
        "--baseline",
        baseline,
        "--deals",
        "300",
        "--seed",
        "8",
        "--threads",
        threads,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_str(&String::from_utf8(o.stdout).unwrap()).unwrap()
}

/// The arena seats bots on both sides: greedy through the protocol as candidate or as
/// baseline gives every figure built-in greedy gives in its place (only the name differs),
/// on one and on two threads (300 walls: two work items, each with processes of its own);
/// a bot that fails stops the arena with exit status 1, naming it.
#[test]
fn the_arena_seats_bots_as_candidate_and_baseline() {
    let exec = format!("exec:{} bot greedy", env!("CARGO_BIN_EXE_taisim"));
    let builtin = arena("greedy", "defensive", "1");
    assert!(builtin["mean_diff"].as_f64().unwrap() != 0.0, "{builtin}");
    for threads in ["1", "2"] {
        let mut v = arena(&exec, "defensive", threads);
        assert_eq!(v["candidate"], exec.as_str());
        v["candidate"] = builtin["candidate"].clone();
        assert_eq!(v, builtin, "candidate, {threads} thread(s)");
    }
    let builtin = arena("defensive", "greedy", "2");
    let mut v = arena("defensive", &exec, "2");
    v["baseline"] = builtin["baseline"].clone();
    assert_eq!(v, builtin, "baseline");

    let o = taisim(&[
        "arena",
        "--candidate",
        "exec:echo not-a-bot",
        "--baseline",
        "greedy",
        "--deals",
        "10",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("bot exec:echo not-a-bot"),
        "{}",
        stderr(&o)
    );
}

/// Whether process `pid` has ended: gone, or a zombie nobody has waited for yet (its parent,
/// taisim, is gone, and what adopts it may be slow to reap it, or never do so in a container).
#[cfg(target_os = "linux")]
fn ended(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command name, which is in parentheses.
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X'])),
        Err(_) => true,
    }
}

/// Polls `done` every 50 ms until it holds or `seconds` pass (generous: the machine running
/// the tests may be busy).
#[cfg(target_os = "linux")]
fn within(seconds: u64, mut done: impl FnMut() -> bool) -> bool {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
    loop {
        if done() {
            return true;
        }
        if std::time::Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// `taisim simulate` into `dir/run` with `agent` in every seat, its standard error in
/// `dir/stderr`, started with SIGTERM and SIGINT at their default actions (tests run in the
/// background may inherit SIGINT ignored, which taisim leaves ignored).
#[cfg(target_os = "linux")]
fn simulate_in_background(dir: &Path, agent: &str) -> std::process::Child {
    use std::os::unix::process::CommandExt;
    std::fs::create_dir_all(dir).unwrap();
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_taisim"));
    cmd.args(["simulate", "--deals", "4", "--quiet", "--threads", "1"])
        .arg("--out")
        .arg(dir.join("run"))
        .args(["--agents", agent])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(dir.join("stderr")).unwrap());
    // SAFETY: signal(2) is async-signal-safe, as the time between fork and exec requires.
    unsafe {
        cmd.pre_exec(|| {
            libc::signal(libc::SIGTERM, libc::SIG_DFL);
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            Ok(())
        });
    }
    cmd.spawn().unwrap()
}

/// The process ids a bot script wrote to `file` (written whole, by a rename), once there;
/// fails if `taisim` ends first.
#[cfg(target_os = "linux")]
fn pids_in(file: &Path, taisim: &mut std::process::Child) -> Vec<i32> {
    let mut pids = Vec::new();
    let mut ended = None;
    within(60, || {
        if let Ok(text) = std::fs::read_to_string(file) {
            pids = text
                .split_whitespace()
                .map(|p| p.parse().unwrap())
                .collect();
            return true;
        }
        ended = taisim.try_wait().unwrap();
        ended.is_some()
    });
    if pids.is_empty() {
        let _ = taisim.kill();
        panic!("the bot never wrote {} (taisim: {ended:?})", file.display());
    }
    pids
}

/// Kills what is left of `pids` (so that a failing test leaves nothing running), then checks
/// that nothing was.
#[cfg(target_os = "linux")]
fn assert_ended(pids: &[i32], what: &str) {
    let ok = within(30, || pids.iter().all(|&p| ended(p)));
    let left: Vec<i32> = pids.iter().copied().filter(|&p| !ended(p)).collect();
    for &p in &left {
        // SAFETY: a signal to a process this test's bot started.
        unsafe {
            libc::kill(p, libc::SIGKILL);
        }
    }
    assert!(ok, "{what}: processes {left:?} outlived taisim");
}

/// A bot hung before its hello, and the process it started, end with taisim when SIGTERM or
/// SIGINT ends it; and taisim still ends by that signal.
#[cfg(target_os = "linux")]
#[test]
fn bots_and_what_they_start_end_when_taisim_is_signalled() {
    use std::os::unix::process::ExitStatusExt;
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("hang.sh");
    std::fs::write(
        &script,
        "sleep 1000 &\necho \"$$ $!\" > \"$1.tmp\" && mv \"$1.tmp\" \"$1\"\nwait\n",
    )
    .unwrap();
    for (signal, name) in [(libc::SIGTERM, "SIGTERM"), (libc::SIGINT, "SIGINT")] {
        let pids = dir.path().join(format!("pids-{name}"));
        let agent = format!("exec:sh {} {}", script.display(), pids.display());
        let mut taisim = simulate_in_background(&dir.path().join(name), &agent);
        let bot = pids_in(&pids, &mut taisim);
        assert_eq!(bot.len(), 2, "{name}");
        // SAFETY: a signal to the process this test started.
        unsafe {
            libc::kill(taisim.id() as i32, signal);
        }
        let mut status = None;
        within(30, || {
            status = taisim.try_wait().unwrap();
            status.is_some()
        });
        if status.is_none() {
            let _ = taisim.kill();
        }
        let status = taisim.wait().unwrap();
        assert_ended(&bot, name);
        assert_eq!(status.signal(), Some(signal), "{name}: {status}");
    }
}

/// Killed outright, taisim can run nothing; the process it started (here the bot itself, which
/// the shell executed in its place) still ends, by the parent-death signal.
#[cfg(target_os = "linux")]
#[test]
fn a_bot_ends_when_taisim_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("hang.sh");
    std::fs::write(
        &script,
        "echo \"$$\" > \"$1.tmp\" && mv \"$1.tmp\" \"$1\"\nexec sleep 1000\n",
    )
    .unwrap();
    let pids = dir.path().join("pids");
    // `exec sh`: the bot is the process taisim starts, whatever the shell does with `-c`.
    let agent = format!("exec:exec sh {} {}", script.display(), pids.display());
    let mut taisim = simulate_in_background(dir.path(), &agent);
    let bot = pids_in(&pids, &mut taisim);
    taisim.kill().unwrap();
    taisim.wait().unwrap();
    assert_ended(&bot, "SIGKILL");
}

/// The table's hello, as `taisim bot` reads it first.
const TABLE_HELLO: &str =
    r#"{"type":"hello","protocol":1,"table":"taisim","version":"0.1.0","variant":"taiwan16"}"#;

/// Input `taisim bot` cannot follow is the input's fault: exit status 2, naming the line and
/// what is wrong with it (a hello it did answer stays answered).
#[test]
fn taisim_bot_refuses_bad_input_with_exit_2() {
    let after_hello = |line: &str| format!("{TABLE_HELLO}\n\n{line}\n").into_bytes();
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (b"discard 5m please\n".to_vec(), "line 1: not JSON"),
        (b"\xff\xfe\n".to_vec(), "line 1: not UTF-8 text"),
        (
            br#"{"type":"start","deal":1,"seat":"E"}"#.to_vec(),
            "line 1: the table's first message must be its hello",
        ),
        (
            TABLE_HELLO.replace(":1,", ":2,").into_bytes(),
            "line 1: the table speaks protocol 2",
        ),
        (after_hello("[1, 2"), "line 3: not JSON"),
        (
            after_hello(r#"{"type":"act","deal":1,"step":1,"legal":[]}"#),
            "line 3: a request without its seat",
        ),
        (
            after_hello(r#"{"type":"act","deal":9,"seat":"S","step":1,"legal":[]}"#),
            "line 3: a request for deal 9 seat S, which never started (or has ended)",
        ),
        (
            after_hello(r#"{"type":"act","deal":9,"seat":2,"step":1,"legal":[]}"#),
            "line 3: \"seat\" is 2, not one of E S W N",
        ),
        (
            after_hello(r#"{"type":"act","deal":"1","seat":"S","step":1,"legal":[]}"#),
            "line 3: \"deal\" is \"1\", not a whole number",
        ),
        (
            after_hello(r#"{"type":"abort","seat":"S"}"#),
            "line 3: a request without its deal (\"deal\")",
        ),
        (
            after_hello(r#"{"type":"discard","deal":1,"actor":"E","tile":"5m","ready":false}"#),
            "line 3: a message to a bot names its seat",
        ),
        (
            after_hello(
                r#"{"type":"discard","deal":7,"seat":"S","actor":"E","tile":"1m","ready":false}"#,
            ),
            "line 3: a discard for deal 7 seat S, which never started (or has ended)",
        ),
        (after_hello(TABLE_HELLO), "line 3: a second hello"),
        // A line without end is refused at the protocol's bound, not gathered until the
        // process runs out of memory.
        (
            after_hello(&"x".repeat((1 << 20) + 1)),
            "line 3: longer than 1048576 bytes",
        ),
    ];
    for (input, expect) in cases {
        let o = taisim_with_input(&["bot", "greedy"], &input);
        let shown = String::from_utf8_lossy(&input).into_owned();
        assert_eq!(o.status.code(), Some(2), "{shown}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!("taisim bot: {expect}")),
            "{shown}: {}",
            stderr(&o)
        );
        let answered = stdout(&o).contains(r#""type":"hello""#);
        assert_eq!(
            answered,
            input.starts_with(TABLE_HELLO.as_bytes()),
            "{shown}"
        );
    }
    // Well-formed input ends with exit status 0; the bot's hello leads with its type, as
    // every message of docs/protocol.md does.
    let o = taisim_with_input(&["bot", "greedy"], format!("{TABLE_HELLO}\n").as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "{\"type\":\"hello\",\"protocol\":1,\"name\":\"taisim bot greedy\"}\n"
    );
}

/// `taisim bot` names the agents it can play: an unknown name lists the built-in ones and
/// not `exec:COMMAND`, which it refuses (a bot already).
#[test]
fn taisim_bot_lists_only_the_agents_it_plays() {
    let o = taisim_with_input(&["bot", "nosuch"], b"");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("unknown agent \"nosuch\""), "{err}");
    for known in ["greedy", "search:N:SETTING=VALUE", "policy:PATH"] {
        assert!(err.contains(known), "{known}: {err}");
    }
    assert!(!err.contains("exec:COMMAND"), "{err}");
    let o = taisim_with_input(&["bot", "exec:true"], b"");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("an exec: agent is a bot already"),
        "{}",
        stderr(&o)
    );
}

/// An agent that cannot be built (a policy file that does not read) is refused at start,
/// before the hello: not blamed on a line of the table's input mid-deal.
#[test]
fn taisim_bot_refuses_an_agent_it_cannot_build_before_its_hello() {
    let input = format!("{TABLE_HELLO}\n");
    let o = taisim_with_input(
        &["bot", "policy:/no/such/weights.safetensors"],
        input.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stdout(&o).is_empty(), "no hello: {}", stdout(&o));
    assert!(
        stderr(&o).contains("cannot read policy file /no/such/weights.safetensors")
            && !stderr(&o).contains("line "),
        "{}",
        stderr(&o)
    );
}

/// Writing its answers failing is not the input's fault: exit status 1.
#[cfg(target_os = "linux")]
#[test]
fn taisim_bot_exits_1_when_it_cannot_write() {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_taisim"))
        .args(["bot", "greedy"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let _ = writeln!(input, "{TABLE_HELLO}");
    drop(input);
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("taisim bot: writing standard output"),
        "{}",
        stderr(&o)
    );
}
