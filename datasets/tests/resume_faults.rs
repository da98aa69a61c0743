//! Fault injection: a finished run is damaged in one of many ways, chosen and combined by a
//! seeded generator, and resumed as the command line resumes it (the spec from what the
//! directory recorded). A resume either ends with exactly the files of an uninterrupted run
//! (and a second resume then plays nothing), or refuses with a usage error naming the file,
//! leaving every byte of the directory as it found it. It never removes or replaces a file
//! that is not the run's own.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::{Int64Array, RecordBatch};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::ArrowWriter;
use taisim_datasets::{
    part_path, simulate, HarnessError, Manifest, RunOptions, RunRequest, RunSummary, Shard, Table,
};
use taisim_sim::splitmix64;

/// Every file of a directory tree, by relative path, with its bytes (hidden temporaries and
/// locks too: a refused resume leaves even those as they were).
fn tree(root: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let e = e.unwrap();
            let path = e.path();
            let name = path.strip_prefix(root).unwrap().display().to_string();
            let t = e.file_type().unwrap();
            if t.is_dir() {
                walk(root, &path, out);
            } else {
                out.insert(name, std::fs::read(&path).unwrap_or_default());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

/// The names whose bytes differ between two trees (or that only one has).
fn differing(a: &BTreeMap<String, Vec<u8>>, b: &BTreeMap<String, Vec<u8>>) -> Vec<String> {
    let mut names: Vec<String> = a
        .keys()
        .chain(b.keys())
        .filter(|k| a.get(*k) != b.get(*k))
        .cloned()
        .collect();
    names.dedup();
    names
}

/// The table files only.
fn tables(root: &Path) -> BTreeMap<String, Vec<u8>> {
    tree(root)
        .into_iter()
        .filter(|(k, _)| {
            ["deals/", "wins/", "tai/"].iter().any(|t| k.starts_with(t)) && !k.contains("/.")
        })
        .collect()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

fn request(seed: u64) -> RunRequest {
    RunRequest {
        deals: Some(600),
        seed: Some(seed),
        agents: Some("random,greedy,random,random".into()),
        part_size: Some(100),
        ..RunRequest::default()
    }
}

fn run(out: &Path, req: &RunRequest, resume: bool) -> Result<RunSummary, HarnessError> {
    let spec = req.spec(out, resume)?;
    simulate(
        &spec,
        out,
        &RunOptions {
            threads: Some(2),
            resume,
            ..RunOptions::default()
        },
    )
}

/// What a fault should lead to.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Expect {
    /// The run's files again, byte for byte.
    Repaired,
    /// A usage error naming this text; nothing changed.
    Refused(&'static str),
    /// Either: a damaged file that no record vouches for any more (the manifest gone too)
    /// is refused if its footer no longer says whose it is, and written again if it does.
    Either,
}

/// Damages the run in `run` (with `other`, a run of another seed, at hand); `None` when
/// it does not apply (its file was deleted by an earlier fault).
type Fault = fn(&Path, &Path, u64) -> Option<Expect>;

/// A table file of the run chosen by `r`.
fn some_file(run: &Path, r: u64) -> PathBuf {
    let table = [Table::Deals, Table::Wins, Table::Tai][(r % 3) as usize];
    part_path(run, table, (r >> 8) % 6)
}

fn faults() -> Vec<(&'static str, Fault)> {
    vec![
        ("flip a byte", |run, _, r| {
            let path = some_file(run, r);
            if !path.exists() {
                return None;
            }
            let mut bytes = std::fs::read(&path).unwrap();
            let i = (r >> 16) as usize % bytes.len();
            bytes[i] ^= 1 << ((r >> 40) % 8);
            std::fs::write(&path, bytes).unwrap();
            Some(Expect::Repaired)
        }),
        ("truncate", |run, _, r| {
            let path = some_file(run, r);
            if !path.exists() {
                return None;
            }
            let bytes = std::fs::read(&path).unwrap();
            std::fs::write(&path, &bytes[..(r >> 16) as usize % bytes.len()]).unwrap();
            Some(Expect::Repaired)
        }),
        ("delete a file", |run, _, r| {
            std::fs::remove_file(some_file(run, r)).ok()?;
            Some(Expect::Repaired)
        }),
        ("delete a table directory", |run, _, r| {
            let table = ["deals", "wins", "tai"][(r % 3) as usize];
            std::fs::remove_dir_all(run.join(table)).ok()?;
            Some(Expect::Repaired)
        }),
        ("delete the manifest", |run, _, _| {
            std::fs::remove_file(run.join("manifest.json")).ok()?;
            Some(Expect::Repaired)
        }),
        ("delete the manifest and variant.toml", |run, _, _| {
            std::fs::remove_file(run.join("manifest.json")).ok()?;
            std::fs::remove_file(run.join("variant.toml")).ok()?;
            Some(Expect::Repaired)
        }),
        ("a manifest still running, a torn journal", |run, _, r| {
            let mut m = Manifest::read(&run.join("manifest.json")).ok()?;
            let journal: String = m
                .parts
                .iter()
                .filter(|p| (r >> p.index) & 1 == 1)
                .map(|p| serde_json::to_string(p).unwrap() + "\n")
                .collect();
            std::fs::write(
                Manifest::journal_path(run, Shard::WHOLE),
                journal + "{\"index\":3,\"uni",
            )
            .unwrap();
            m.parts.retain(|p| p.index % 2 == 0);
            m.rows = Default::default();
            for p in &m.parts {
                m.rows.deals += p.deals.rows;
                m.rows.wins += p.wins.rows;
                m.rows.tai += p.tai.rows;
            }
            m.status = taisim_datasets::Status::Running;
            m.write(run).unwrap();
            Some(Expect::Repaired)
        }),
        ("damage parts_in_run and shard_parts", |run, _, r| {
            let mut m = Manifest::read(&run.join("manifest.json")).ok()?;
            m.parts_in_run = r % 50;
            m.shard_parts = [r % 7, (r >> 8) % 9];
            m.write(run).unwrap();
            Some(Expect::Repaired)
        }),
        ("leave temporary files", |run, _, r| {
            let dir = run.join(["deals", "wins", "tai"][(r % 3) as usize]);
            std::fs::write(dir.join(".part-00002.parquet.tmp"), b"half").ok()?;
            std::fs::write(run.join(".manifest.json.tmp"), b"{").unwrap();
            std::fs::write(run.join(".manifest.json.999-0.tmp"), b"{").unwrap();
            Some(Expect::Repaired)
        }),
        ("another run's file in place of one", |run, other, r| {
            let path = some_file(run, r);
            let theirs = some_file(other, r);
            std::fs::copy(theirs, path).ok()?;
            Some(Expect::Refused("belongs to another run"))
        }),
        ("another run's file, and no manifest", |run, other, r| {
            let path = some_file(run, r);
            std::fs::copy(some_file(other, r), path).ok()?;
            std::fs::remove_file(run.join("manifest.json")).ok()?;
            // Whichever file the spec is then read from, the other disagrees with it.
            Some(Expect::Refused("another run"))
        }),
        (
            "an unrecorded Parquet file that records no run",
            |run, _, r| {
                std::fs::remove_file(run.join("manifest.json")).ok()?;
                let path = some_file(run, r);
                std::fs::write(path, foreign_parquet()).ok()?;
                Some(Expect::Refused("records no run"))
            },
        ),
        ("flags that differ from the parts", |run, _, _| {
            std::fs::remove_file(run.join("manifest.json")).ok()?;
            std::fs::write(run.join(".flags"), b"seed").unwrap();
            Some(Expect::Refused("seed: the run has"))
        }),
    ]
}

/// A Parquet file no taisim run wrote: one column, no `taisim.part` in its footer.
fn foreign_parquet() -> Vec<u8> {
    let schema = Arc::new(Schema::new(vec![Field::new("x", DataType::Int64, false)]));
    let batch =
        RecordBatch::try_new(schema.clone(), vec![Arc::new(Int64Array::from(vec![1, 2]))]).unwrap();
    let mut buf = Vec::new();
    let mut w = ArrowWriter::try_new(&mut buf, schema, None).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    buf
}

#[test]
fn resume_never_destroys_data() {
    let dir = tempfile::tempdir().unwrap();
    let reference = dir.path().join("reference");
    let other = dir.path().join("other");
    run(&reference, &request(42), false).unwrap();
    run(&other, &request(77), false).unwrap();
    let expected = tables(&reference);
    assert_eq!(expected.len(), 18);
    let faults = faults();
    let mut injected = 0;
    let mut survived = 0;
    let mut refused = 0;
    for case in 0..80u64 {
        let r = splitmix64(case);
        let refusing = |f: usize| {
            ["another", "an unrecorded", "flags"]
                .iter()
                .any(|p| faults[f].0.starts_with(p))
        };
        // One fault, or two or three of the repairable ones combined (a later one could
        // delete the file a refusing one planted).
        let first = (r >> 2) as usize % faults.len();
        let count = if refusing(first) {
            1
        } else {
            1 + (r % 3) as usize
        };
        let mut chosen = vec![first];
        for k in 1..count {
            let f = (splitmix64(r + k as u64) as usize) % faults.len();
            if refusing(f) || chosen.contains(&f) {
                continue;
            }
            chosen.push(f);
        }
        let out = dir.path().join(format!("case-{case}"));
        copy_dir(&reference, &out);
        let mut expect = Expect::Repaired;
        let mut names = Vec::new();
        for (k, &f) in chosen.iter().enumerate() {
            let (name, fault) = faults[f];
            match fault(&out, &other, splitmix64(r ^ k as u64)) {
                Some(Expect::Refused(why)) => expect = Expect::Refused(why),
                Some(_) => {}
                None => continue,
            }
            names.push(name);
            injected += 1;
        }
        let damaged = names
            .iter()
            .any(|n| ["flip a byte", "truncate"].contains(n));
        let unrecorded = names.iter().any(|n| n.starts_with("delete the manifest"));
        if damaged && unrecorded {
            expect = Expect::Either;
        }
        let req = if out.join(".flags").exists() {
            std::fs::remove_file(out.join(".flags")).unwrap();
            request(43)
        } else {
            request(42)
        };
        let before = tree(&out);
        let result = run(&out, &req, true);
        let expect = match (expect, &result) {
            (Expect::Either, Ok(_)) => Expect::Repaired,
            (Expect::Either, Err(_)) => Expect::Refused("cannot tell whether it is this run's"),
            (e, _) => e,
        };
        match expect {
            Expect::Either => unreachable!(),
            Expect::Repaired => {
                let summary = result.unwrap_or_else(|e| panic!("case {case} {names:?}: {e}"));
                assert!(
                    tables(&out) == expected,
                    "case {case} {names:?}: {:?}",
                    differing(&tables(&out), &expected)
                );
                let again = run(&out, &request(42), true).unwrap();
                assert_eq!(again.parts_played, 0, "case {case} {names:?}");
                assert!(
                    summary.strays.is_empty(),
                    "case {case}: {:?}",
                    summary.strays
                );
                survived += names.len();
            }
            Expect::Refused(why) => {
                let e = result
                    .err()
                    .unwrap_or_else(|| panic!("case {case} {names:?} resumed"));
                assert!(
                    matches!(e, HarnessError::Usage(_)),
                    "case {case} {names:?}: {e}"
                );
                assert!(e.to_string().contains(why), "case {case} {names:?}: {e}");
                let after = tree(&out);
                assert!(
                    after == before,
                    "case {case} {names:?}: the directory changed: {:?}",
                    differing(&after, &before)
                );
                refused += 1;
                survived += names.len();
            }
        }
        std::fs::remove_dir_all(&out).unwrap();
    }
    // Every fault was met, and every one left the data whole.
    assert!(injected >= 100, "{injected}");
    assert!(refused >= 5, "{refused}");
    assert_eq!(survived, injected);
    eprintln!("{injected} faults injected, {survived} survived with the data whole, {refused} cases refused");
}

/// A stray part past the run's last one is named, left alone, and never counted.
#[test]
fn files_past_the_run_are_named_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    run(&out, &request(42), false).unwrap();
    let stray = part_path(&out, Table::Deals, 50);
    std::fs::copy(part_path(&out, Table::Deals, 1), &stray).unwrap();
    std::fs::create_dir(out.join("decisions")).unwrap();
    std::fs::write(out.join("decisions/part-00000.parquet"), b"not ours").unwrap();
    let summary = run(&out, &request(42), true).unwrap();
    assert_eq!(
        summary.strays,
        ["deals/part-00050.parquet", "decisions/part-00000.parquet"]
    );
    assert_eq!(summary.parts_played, 0);
    assert!(stray.exists());
    assert_eq!(
        std::fs::read(out.join("decisions/part-00000.parquet")).unwrap(),
        b"not ours"
    );
    let report = taisim_datasets::Report::from_run(&out, &Default::default()).unwrap();
    assert_eq!(report.unrecorded, summary.strays);
    assert!(report
        .warnings
        .iter()
        .any(|w| w.contains("deals/part-00050.parquet")));
    assert_eq!(report.deals, 600);
}
