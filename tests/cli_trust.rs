//! The real binary against what a hostile user (or a bad day) does to a run directory:
//! manifests deleted, table directories deleted or replaced by symbolic links, another run's
//! parts slipped in, damaged manifest fields, shards racing into one directory, special
//! files where files are read or written. Each case ends with the data intact (the same
//! bytes as an uninterrupted run, or untouched) and a clear error (exit 2) or success.

#![cfg(unix)]

use std::collections::BTreeMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod support;
use support::{stderr, stdout, table_files, taisim, taisim_within};

/// A small run: 2,000 deals in four parts.
fn run_args(out: &Path, seed: &str) -> Vec<String> {
    [
        "simulate",
        "--deals",
        "2000",
        "--part-size",
        "500",
        "--seed",
        seed,
        "--agents",
        "greedy,random,greedy,random",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn ok(args: &[String]) -> String {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = taisim(&args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stderr(&o)
}

fn refused(args: &[&str]) -> String {
    let o = taisim(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    stderr(&o)
}

fn resume(out: &Path) -> Vec<String> {
    vec![
        "simulate".into(),
        "--resume".into(),
        "--quiet".into(),
        "--out".into(),
        out.to_str().unwrap().into(),
    ]
}

/// The inode of each table file: a file kept is the same inode, one written again is not.
fn inodes(run: &Path) -> BTreeMap<String, u64> {
    table_files(run)
        .into_keys()
        .map(|name| {
            let ino = std::fs::metadata(run.join(&name)).unwrap().ino();
            (name, ino)
        })
        .collect()
}

fn manifest(run: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(run.join("manifest.json")).unwrap()).unwrap()
}

/// A finished reference run and a copy to damage.
struct Runs {
    _dir: tempfile::TempDir,
    root: PathBuf,
    reference: BTreeMap<String, Vec<u8>>,
}

impl Runs {
    fn new() -> Runs {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        ok(&run_args(&root.join("reference"), "42"));
        let reference = table_files(&root.join("reference"));
        assert_eq!(reference.len(), 12);
        Runs {
            _dir: dir,
            root,
            reference,
        }
    }

    /// A fresh complete run named `name` (seed 42 unless told).
    fn run(&self, name: &str, seed: &str) -> PathBuf {
        let out = self.root.join(name);
        ok(&run_args(&out, seed));
        out
    }
}

/// Issue 22, 1: a run whose manifest was deleted resumes from its parts' footers, keeping
/// every file; flags that differ from what the footers record are refused, naming the
/// difference, with nothing touched.
#[test]
fn resume_without_a_manifest_takes_the_spec_from_the_parts() {
    let runs = Runs::new();
    let run = runs.run("no-manifest", "42");
    std::fs::remove_file(run.join("manifest.json")).unwrap();

    // Other flags: refused, every file kept as it was.
    let before = inodes(&run);
    for (flags, needle) in [
        (
            &["--seed", "77"][..],
            "seed: the run has 42, the command asks for 77",
        ),
        (&["--deals", "5000"][..], "count: the run has 2000"),
        (&["--agents", "random"][..], "agents"),
        (&["--variant", "taiwan16-house"][..], "variant"),
    ] {
        let mut args = resume(&run);
        args.extend(flags.iter().map(|s| s.to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let err = refused(&args);
        assert!(err.contains(needle), "{flags:?}: {err}");
        assert!(err.contains("footers"), "{err}");
        assert_eq!(inodes(&run), before, "{flags:?}");
        assert!(!run.join("manifest.json").exists());
    }

    // The same flags, or none: the spec of the parts, and their very files.
    let err = ok(&resume(&run));
    assert!(err.contains("never recorded"), "{err}");
    // It says where the spec came from, not that a new run starts from defaults.
    assert!(
        err.contains("has no manifest.json: resuming the run recorded by its part files' footers: 2000 deals of taiwan16, seed 42"),
        "{err}"
    );
    assert!(!err.contains("no run yet"), "{err}");
    assert_eq!(table_files(&run), runs.reference);
    let m = manifest(&run);
    assert_eq!(m["spec"]["seed"], 42);
    assert_eq!(m["spec"]["count"], 2000);
    assert_eq!(m["spec"]["variant"]["origin"], "builtin:taiwan16");
    assert_eq!(m["status"], "complete");
    let o = taisim(&["report", run.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("parts 4 of 4 counted, checksums verified"));

    // Manifest and variant.toml both gone (a shipped variant): still resumable.
    std::fs::remove_file(run.join("manifest.json")).unwrap();
    std::fs::remove_file(run.join("variant.toml")).unwrap();
    ok(&resume(&run));
    assert_eq!(table_files(&run), runs.reference);
}

/// A directory holding shards of one split resumed as another (no `--shard`, or another
/// count): refused before anything is said to resume, naming the split held and how to
/// resume it, every file kept; its own split resumes.
#[test]
fn resuming_another_split_of_a_sharded_run_says_which_split_to_resume() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("sharded");
    let mut args = run_args(&run, "42");
    args.extend(["--shard".to_string(), "1/2".to_string()]);
    ok(&args);
    let before = inodes(&run);
    for (shard, asked) in [
        (
            None,
            "--resume without --shard resumes a run not split into shards",
        ),
        (Some("1/3"), "shard 1/3 cannot join it"),
    ] {
        let mut args = resume(&run);
        args.extend(
            shard
                .iter()
                .flat_map(|s| ["--shard".to_string(), s.to_string()]),
        );
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let err = refused(&args);
        assert!(
            err.contains(&format!(
                "holds shard 1/2 of a run split into 2 shards (manifest-shard-00001-of-00002.json), and {asked}"
            )),
            "{shard:?}: {err}"
        );
        assert!(err.contains("--resume --shard K/2"), "{err}");
        assert!(!err.contains("resuming"), "{err}");
        assert_eq!(inodes(&run), before, "{shard:?}");
    }
    let mut args = resume(&run);
    args.extend(["--shard".to_string(), "2/2".to_string()]);
    ok(&args);
}

/// Issue 22, 1: another run's part in place of one of this run's: never replaced (with or
/// without the manifest), named with what differs.
#[test]
fn a_part_of_another_run_is_refused_not_replaced() {
    let runs = Runs::new();
    let other77 = runs.run("seed-77", "77");
    for keep_manifest in [true, false] {
        let run = runs.run(&format!("mixed-{keep_manifest}"), "42");
        let foreign = std::fs::read(other77.join("wins/part-00001.parquet")).unwrap();
        std::fs::write(run.join("wins/part-00001.parquet"), &foreign).unwrap();
        if !keep_manifest {
            std::fs::remove_file(run.join("manifest.json")).unwrap();
        }
        let before = table_files(&run);
        let args = resume(&run);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let err = refused(&args);
        assert!(err.contains("wins/part-00001.parquet"), "{err}");
        assert!(err.contains("another run"), "{err}");
        assert!(err.contains("seed"), "{err}");
        assert_eq!(table_files(&run), before, "nothing written or removed");
    }
}

/// Issue 22, 2: a deleted table directory is made again and only its files are written;
/// every other file is kept (the same inode), and a second resume plays nothing.
#[test]
fn a_deleted_table_directory_is_made_again_keeping_every_other_file() {
    let runs = Runs::new();
    for table in ["wins", "deals", "tai"] {
        let run = runs.run(&format!("no-{table}"), "42");
        let before = inodes(&run);
        std::fs::remove_dir_all(run.join(table)).unwrap();
        let err = ok(&resume(&run));
        assert!(err.contains("is missing"), "{err}");
        assert_eq!(table_files(&run), runs.reference, "{table}");
        let after = inodes(&run);
        for (name, ino) in &before {
            if !name.starts_with(table) {
                assert_eq!(after[name], *ino, "{name} was rewritten");
            }
        }
        let err = ok(&resume(&run));
        assert!(!err.contains("played again"), "{err}");
        assert_eq!(manifest(&run)["parts"].as_array().unwrap().len(), 4);
    }
}

/// Issue 22, 3: four shards started at once into one directory, many times over: every
/// time each succeeds, and the directory holds exactly the unsharded run's files.
#[test]
fn shards_racing_into_one_directory_never_fail_or_clobber() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    let args = |out: &Path| {
        vec![
            "simulate".to_string(),
            "--deals".into(),
            "400".into(),
            "--part-size".into(),
            "50".into(),
            "--agents".into(),
            "random".into(),
            "--seed".into(),
            "3".into(),
            "--threads".into(),
            "2".into(),
            "--quiet".into(),
            "--out".into(),
            out.to_str().unwrap().into(),
        ]
    };
    ok(&args(&whole));
    let reference = table_files(&whole);
    let variant = std::fs::read(whole.join("variant.toml")).unwrap();
    const ROUNDS: usize = 30;
    for round in 0..ROUNDS {
        let out = dir.path().join(format!("shared-{round}"));
        let children: Vec<_> = (1..=4)
            .map(|k| {
                Command::new(env!("CARGO_BIN_EXE_taisim"))
                    .args(args(&out))
                    .args(["--shard", &format!("{k}/4")])
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for (k, child) in children.into_iter().enumerate() {
            let o = child.wait_with_output().unwrap();
            assert!(
                o.status.success(),
                "round {round}, shard {}/4: {}",
                k + 1,
                String::from_utf8_lossy(&o.stderr)
            );
        }
        assert_eq!(table_files(&out), reference, "round {round}");
        assert_eq!(std::fs::read(out.join("variant.toml")).unwrap(), variant);
        let hidden: Vec<String> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with('.'))
            .collect();
        assert!(hidden.is_empty(), "round {round}: left {hidden:?}");
        let o = taisim(&["report", out.to_str().unwrap()]);
        assert!(o.status.success(), "round {round}: {}", stderr(&o));
        assert!(stdout(&o).contains("parts 8 of 8 counted, checksums verified"));
    }
}

/// Issue 22, 3: the same shard started twice at once: one plays it, the other is refused
/// while the first holds it; the files are the run's either way.
#[test]
fn one_shard_played_twice_at_once_is_refused_not_raced() {
    let runs = Runs::new();
    let out = runs.root.join("twice");
    let mut started = Vec::new();
    for _ in 0..2 {
        started.push(
            Command::new(env!("CARGO_BIN_EXE_taisim"))
                .args(run_args(&out, "42"))
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap(),
        );
    }
    let mut codes = Vec::new();
    for child in started {
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        match o.status.code() {
            Some(0) => {}
            Some(2) => assert!(
                err.contains("another taisim process") || err.contains("not empty"),
                "{err}"
            ),
            other => panic!("exit {other:?}: {err}"),
        }
        codes.push(o.status.code());
    }
    assert!(codes.contains(&Some(0)), "{codes:?}");
    ok(&resume(&out));
    assert_eq!(table_files(&out), runs.reference);
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success());
}

/// Issue 22, 4: `report --markdown` writes regular files only: a FIFO, a device, a
/// symbolic link or a directory at the path is refused (exit 2) and left as it was.
#[test]
fn report_markdown_writes_only_regular_files() {
    let runs = Runs::new();
    let run = runs.root.join("reference");
    let fifo = runs.root.join("fifo.md");
    mkfifo(&fifo);
    let target = runs.root.join("target.md");
    std::fs::write(&target, "keep me").unwrap();
    let link = runs.root.join("link.md");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let sub = runs.root.join("sub.md");
    std::fs::create_dir(&sub).unwrap();
    for (path, kind) in [
        (fifo.as_path(), "not a regular file"),
        (Path::new("/dev/null"), "not a regular file"),
        (link.as_path(), "symbolic link"),
        (sub.as_path(), "directory"),
    ] {
        let o = taisim_within(
            &[
                "report",
                run.to_str().unwrap(),
                "--markdown",
                path.to_str().unwrap(),
            ],
            b"",
            60,
        )
        .expect("report hung");
        assert_eq!(o.status.code(), Some(2), "{path:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(kind), "{path:?}: {}", stderr(&o));
    }
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read(&target).unwrap(), b"keep me");
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
    // A regular file is replaced.
    let o = taisim(&[
        "report",
        run.to_str().unwrap(),
        "--markdown",
        target.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&target)
        .unwrap()
        .starts_with("# taisim report"));
}

/// Issue 22, 5: a file no manifest records is named by `report` and by `--resume` and left
/// alone; a table directory that is a symbolic link into another run is refused by
/// `--resume` (the other run untouched) and named by `report`.
#[test]
fn stray_files_are_named_and_symlinked_tables_refused() {
    let runs = Runs::new();
    let run = runs.run("stray", "42");
    let part = std::fs::read(run.join("deals/part-00001.parquet")).unwrap();
    std::fs::write(run.join("deals/part-00050.parquet"), &part).unwrap();
    std::fs::write(run.join("tai/notes.txt"), "mine").unwrap();
    let o = taisim(&["report", run.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("2 unrecorded files"), "{text}");
    assert!(
        text.contains("deals/part-00050.parquet, tai/notes.txt"),
        "{text}"
    );
    let o = taisim(&["report", run.to_str().unwrap(), "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        json["unrecorded_files"],
        serde_json::json!(["deals/part-00050.parquet", "tai/notes.txt"])
    );
    let err = ok(&resume(&run));
    assert!(
        err.contains("deals/part-00050.parquet is not a part of this run"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(run.join("deals/part-00050.parquet")).unwrap(),
        part
    );
    assert_eq!(std::fs::read(run.join("tai/notes.txt")).unwrap(), b"mine");

    // deals/ a symbolic link into another run.
    let theirs = runs.run("theirs", "7");
    let linked = runs.run("linked", "42");
    let before = table_files(&theirs);
    std::fs::remove_dir_all(linked.join("deals")).unwrap();
    std::os::unix::fs::symlink(theirs.join("deals"), linked.join("deals")).unwrap();
    let args = resume(&linked);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let err = refused(&args);
    assert!(err.contains("symbolic link"), "{err}");
    assert_eq!(table_files(&theirs), before);
    // `report` reads through the link: the other run's files are not this manifest's, and
    // are named as such; a run whose table is a link to an identical copy is read with a
    // warning naming the link.
    let o = taisim(&["report", linked.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("deals/part-0000"), "{}", stderr(&o));
    let copy = runs.root.join("copy");
    std::fs::create_dir(&copy).unwrap();
    std::fs::rename(linked.join("deals"), linked.join("gone")).unwrap();
    std::fs::remove_file(linked.join("gone")).unwrap();
    std::fs::rename(run.join("deals"), copy.join("deals")).unwrap();
    std::fs::remove_file(copy.join("deals/part-00050.parquet")).unwrap();
    std::os::unix::fs::symlink(copy.join("deals"), linked.join("deals")).unwrap();
    let o = taisim(&["report", linked.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("is a symbolic link"), "{}", stdout(&o));
}

/// Issue 22, 6: damaged `parts_in_run` / `shard_parts` break `report`; `--resume` writes
/// them again from the spec, after which `report` and `replay` work. A damaged spec field
/// (the count) disagrees with the parts' footers and is refused, nothing touched.
#[test]
fn damaged_manifest_fields_are_repaired_or_refused() {
    let runs = Runs::new();
    for (field, value) in [
        ("parts_in_run", serde_json::json!(7)),
        ("shard_parts", serde_json::json!([0, 9])),
        ("shard_parts", serde_json::json!([3, 1])),
    ] {
        let run = runs.run(
            &format!("fields-{field}-{value}").replace(['[', ']', ','], "_"),
            "42",
        );
        let mut m = manifest(&run);
        m[field] = value.clone();
        std::fs::write(run.join("manifest.json"), m.to_string()).unwrap();
        let o = taisim(&["report", run.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1), "{field}: {}", stderr(&o));
        let err = ok(&resume(&run));
        assert!(err.contains("written again"), "{field}: {err}");
        let m = manifest(&run);
        assert_eq!(m["parts_in_run"], 4);
        assert_eq!(m["shard_parts"], serde_json::json!([0, 4]));
        assert_eq!(table_files(&run), runs.reference);
        let o = taisim(&["report", run.to_str().unwrap()]);
        assert!(o.status.success(), "{field}: {}", stderr(&o));
        let o = taisim(&["replay", run.to_str().unwrap(), "1999"]);
        assert!(o.status.success(), "{field}: {}", stderr(&o));
    }
    let run = runs.run("count", "42");
    let mut m = manifest(&run);
    m["spec"]["count"] = serde_json::json!(2400);
    m["parts_in_run"] = serde_json::json!(5);
    m["shard_parts"] = serde_json::json!([0, 5]);
    m["status"] = serde_json::json!("running");
    std::fs::write(run.join("manifest.json"), m.to_string()).unwrap();
    let before = inodes(&run);
    let args = resume(&run);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let err = refused(&args);
    assert!(
        err.contains("count: the file has 2000, this run has 2400"),
        "{err}"
    );
    assert_eq!(inodes(&run), before);
}

/// Issue 22, 7: a part size no memory holds is refused before anything is created (never a
/// capacity overflow or an allocation abort); a non-UTF-8 output name is refused.
#[test]
fn parts_past_memory_and_non_utf8_names_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    for (deals, part_size) in [
        ("18446744073709551615", "18446744073709551615"),
        ("35184372088832", "1099511627776"),
        ("1000000000000", "1000000000000"),
    ] {
        let out = dir.path().join(format!("p{part_size}"));
        let err = refused(&[
            "simulate",
            "--deals",
            deals,
            "--part-size",
            part_size,
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(err.contains("lower the part size to at most"), "{err}");
        assert!(!out.exists());
    }
    // A part size past the deals is one part of them: played.
    let out = dir.path().join("one-part");
    ok(&[
        "simulate",
        "--deals",
        "300",
        "--part-size",
        "18446744073709551615",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]
    .map(String::from));
    // Not UTF-8.
    use std::os::unix::ffi::OsStrExt;
    let name = std::ffi::OsStr::from_bytes(b"run-\xff\xfe");
    let out = dir.path().join(name);
    let o = Command::new(env!("CARGO_BIN_EXE_taisim"))
        .args(["simulate", "--deals", "10", "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("not valid UTF-8"), "{}", stderr(&o));
    assert!(!out.exists());
}

/// Issue 22, 8: every path the tool reads is a regular file of bounded size, in every
/// command: a FIFO, /dev/zero, a directory or a file too large is an error naming it (exit
/// 2 within seconds), never a hang or a read until memory runs out.
#[test]
fn special_files_as_variant_or_policy_paths_are_refused_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo.toml");
    mkfifo(&fifo);
    let large = dir.path().join("large.toml");
    std::fs::write(&large, vec![b'#'; 2 << 20]).unwrap();
    let large_policy = dir.path().join("large.safetensors");
    std::fs::File::create(&large_policy)
        .unwrap()
        .set_len(300 << 20)
        .unwrap();
    let out = dir.path().join("never");
    let out = out.to_str().unwrap();
    let mut tried = 0;
    for (path, why) in [
        (fifo.to_str().unwrap(), "FIFO"),
        ("/dev/zero", "character device"),
        (dir.path().to_str().unwrap(), "directory"),
        (large.to_str().unwrap(), "more than"),
    ] {
        let policy = format!("policy:{path}");
        let hand = "123m 456m 789m 234p 99s 345s";
        let json = serde_json::json!({
            "hand": hand, "seat": "E", "win": "self_draw", "win_tile": "9s", "variant": path,
        })
        .to_string();
        let commands: Vec<(Vec<&str>, Vec<u8>)> = vec![
            (vec!["score", "--json"], json.clone().into_bytes()),
            (
                vec![
                    "score",
                    hand,
                    "--win-tile",
                    "9s",
                    "--self-drawn",
                    "--variant",
                    path,
                ],
                vec![],
            ),
            (vec!["variant", "show", path], vec![]),
            (
                vec![
                    "arena",
                    "--candidate",
                    "greedy",
                    "--baseline",
                    "random",
                    "--deals",
                    "2",
                    "--variant",
                    path,
                ],
                vec![],
            ),
            (
                vec!["simulate", "--deals", "10", "--variant", path, "--out", out],
                vec![],
            ),
        ];
        let mut commands = commands;
        if why != "more than" {
            commands.push((
                vec![
                    "arena",
                    "--candidate",
                    &policy,
                    "--baseline",
                    "random",
                    "--deals",
                    "2",
                ],
                vec![],
            ));
            commands.push((
                vec![
                    "simulate", "--deals", "10", "--agents", &policy, "--out", out,
                ],
                vec![],
            ));
        }
        for (args, input) in commands {
            tried += 1;
            let o = taisim_within(&args, &input, 30)
                .unwrap_or_else(|| panic!("{args:?} hung on {path}"));
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
            assert!(stderr(&o).contains(why), "{args:?}: {}", stderr(&o));
            assert!(!Path::new(out).exists(), "{args:?} made the run directory");
        }
        // --jsonl answers the line with the error and goes on.
        let o = taisim_within(&["score", "--jsonl"], format!("{json}\n").as_bytes(), 30)
            .expect("score --jsonl hung");
        assert!(o.status.success());
        assert!(stdout(&o).contains(why), "{}", stdout(&o));
        tried += 1;
    }
    // A policy file past its bound.
    let policy = format!("policy:{}", large_policy.display());
    let o = taisim_within(
        &[
            "arena",
            "--candidate",
            &policy,
            "--baseline",
            "random",
            "--deals",
            "2",
        ],
        b"",
        30,
    )
    .expect("arena hung");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("more than a policy file may have"),
        "{}",
        stderr(&o)
    );
    assert!(tried >= 30, "{tried}");
}

/// Issue 22, 9: a variant whose keys conflict is refused when it loads, before a run
/// directory exists, naming the keys.
#[test]
fn conflicting_variant_keys_are_refused_before_a_run_starts() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/score/variants/taiwan16.toml"
    ))
    .unwrap()
    .replace("flowers = true", "flowers = false")
    .replace("flower_wins = true", "flower_wins = false")
    .replace(
        "[tai]",
        "[rules.procedure]\nsetup = { wild_indicator = true }\n\n[tai]",
    );
    let path = dir.path().join("wild.toml");
    std::fs::write(&path, text).unwrap();
    let out = dir.path().join("run");
    for args in [
        vec![
            "simulate",
            "--deals",
            "200",
            "--variant",
            path.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        vec!["variant", "show", path.to_str().unwrap()],
        vec![
            "arena",
            "--candidate",
            "greedy",
            "--baseline",
            "random",
            "--deals",
            "5",
            "--variant",
            path.to_str().unwrap(),
        ],
    ] {
        let err = refused(&args);
        assert!(
            err.contains("rules.procedure.setup.wild_indicator"),
            "{err}"
        );
    }
    assert!(!out.exists());
}

/// Issue 22, 8, for a run's own files: a FIFO in place of the manifest or of a part is named
/// by `report`, `replay` and `--resume` (exit 2), never waited on, and left as it is.
#[test]
fn fifos_in_a_run_directory_are_refused_not_waited_on() {
    use std::os::unix::fs::FileTypeExt;
    let runs = Runs::new();
    for (name, file) in [
        ("fifo-manifest", "manifest.json"),
        ("fifo-part", "wins/part-00002.parquet"),
    ] {
        let run = runs.run(name, "42");
        std::fs::remove_file(run.join(file)).unwrap();
        mkfifo(&run.join(file));
        let dir = run.to_str().unwrap();
        for args in [
            vec!["report", dir],
            vec!["replay", dir, "1100"],
            vec!["simulate", "--resume", "--quiet", "--out", dir],
        ] {
            let o = taisim_within(&args, b"", 60).unwrap_or_else(|| panic!("{args:?} hung"));
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
            assert!(stderr(&o).contains("FIFO"), "{args:?}: {}", stderr(&o));
        }
        assert!(std::fs::metadata(run.join(file))
            .unwrap()
            .file_type()
            .is_fifo());
    }
}
