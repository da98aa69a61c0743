//! Runs written by the harness: determinism across threads and part sizes, resume, shards,
//! the rows' internal consistency, replays, and the errors a user can provoke.

use std::collections::HashMap;
use std::fs::File;
use std::path::Path;

use arrow_array::cast::AsArray;
use arrow_array::types::{Int64Type, UInt16Type, UInt64Type, UInt8Type};
use arrow_array::{Array, RecordBatch};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::file::reader::{FileReader, SerializedFileReader};
use taisim_agents::parse_agents;
use taisim_datasets::{
    part_path, replay, simulate, HarnessError, Manifest, RunOptions, RunSpec, RunVariant, Shard,
    Status, Table, Unit,
};

fn spec(variant: &str, unit: Unit, count: u64, part_size: u64, agents: &str) -> RunSpec {
    let variant = RunVariant::by_name_or_path(variant).unwrap();
    let v = variant.variant().clone();
    RunSpec {
        variant,
        unit,
        count,
        seed: 7,
        agents: parse_agents(agents).unwrap(),
        part_size,
        shard: Shard::WHOLE,
        log_actions: false,
        base: v.settlement().base,
        per_tai: v.settlement().per_tai,
        decisions: None,
        label_with: None,
    }
}

fn options(threads: usize) -> RunOptions {
    RunOptions {
        threads: Some(threads),
        ..RunOptions::default()
    }
}

/// A table's rows, every part in order, as one batch.
fn read_table(out: &Path, table: Table) -> RecordBatch {
    let manifests = Manifest::read_all(out).unwrap();
    let mut parts: Vec<u64> = manifests
        .iter()
        .flat_map(|m| m.parts.iter().map(|p| p.index))
        .collect();
    parts.sort();
    let mut batches = Vec::new();
    for p in parts {
        let file = File::open(part_path(out, table, p)).unwrap();
        let reader = ParquetRecordBatchReaderBuilder::try_new(file)
            .unwrap()
            .build()
            .unwrap();
        batches.extend(reader.map(|b| b.unwrap()));
    }
    let schema = batches[0].schema();
    arrow_select::concat::concat_batches(&schema, &batches).unwrap()
}

fn u64s(batch: &RecordBatch, name: &str) -> Vec<u64> {
    batch
        .column_by_name(name)
        .unwrap()
        .as_primitive::<UInt64Type>()
        .values()
        .to_vec()
}

fn strs(batch: &RecordBatch, name: &str) -> Vec<Option<String>> {
    let col = batch.column_by_name(name).unwrap();
    let dict = col.as_dictionary::<arrow_array::types::Int8Type>();
    let values = dict.values().as_string::<i32>();
    (0..dict.len())
        .map(|i| {
            dict.is_valid(i)
                .then(|| values.value(dict.keys().value(i) as usize).to_string())
        })
        .collect()
}

fn checksums(out: &Path) -> Vec<(u64, String, String, String)> {
    let mut all: Vec<_> = Manifest::read_all(out)
        .unwrap()
        .iter()
        .flat_map(|m| {
            m.parts.iter().map(|p| {
                (
                    p.index,
                    p.deals.sha256.clone(),
                    p.wins.sha256.clone(),
                    p.tai.sha256.clone(),
                )
            })
        })
        .collect();
    all.sort();
    all
}

#[test]
fn files_are_identical_on_one_and_two_threads() {
    let dir = tempfile::tempdir().unwrap();
    let s = spec(
        "taiwan16",
        Unit::Deals,
        6_000,
        1_000,
        "greedy,greedy,random,defensive",
    );
    simulate(&s, &dir.path().join("one"), &options(1)).unwrap();
    simulate(&s, &dir.path().join("two"), &options(2)).unwrap();
    let one = checksums(&dir.path().join("one"));
    assert_eq!(one.len(), 6);
    assert_eq!(one, checksums(&dir.path().join("two")));
}

#[test]
fn rows_do_not_depend_on_the_part_size() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a");
    let b = dir.path().join("b");
    simulate(
        &spec("taiwan16", Unit::Deals, 3_000, 3_000, "greedy"),
        &a,
        &options(2),
    )
    .unwrap();
    simulate(
        &spec("taiwan16", Unit::Deals, 3_000, 700, "greedy"),
        &b,
        &options(2),
    )
    .unwrap();
    for table in [Table::Deals, Table::Wins, Table::Tai] {
        assert_eq!(
            read_table(&a, table),
            read_table(&b, table),
            "{}",
            table.dir()
        );
    }
}

/// Each column is laid out for its values (dictionary, plain, delta, raw), but a reader gets
/// back exactly the schema written, string columns still dictionary-typed, and only the id
/// columns carry the min/max statistics that let it skip parts when looking up a deal.
#[test]
fn files_read_back_as_their_schema_with_statistics_on_ids() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = spec(
        "taiwan16",
        Unit::Games,
        30,
        10,
        "greedy,random,greedy,random",
    );
    s.log_actions = true;
    simulate(&s, dir.path(), &options(2)).unwrap();
    for table in [Table::Deals, Table::Wins, Table::Tai] {
        let batch = read_table(dir.path(), table);
        assert!(batch.num_rows() > 0, "{}", table.dir());
        assert_eq!(
            batch.schema(),
            taisim_datasets::run_schema(table, true, false),
            "{}",
            table.dir()
        );
        for p in 0..3 {
            let file = File::open(part_path(dir.path(), table, p)).unwrap();
            let meta = SerializedFileReader::new(file).unwrap().metadata().clone();
            for rg in meta.row_groups() {
                for col in rg.columns() {
                    let name = col.column_path().string();
                    let is_id =
                        ["deal_id", "game_id", "deal_in_game", "seed"].contains(&name.as_str());
                    assert_eq!(
                        col.statistics()
                            .is_some_and(|st| st.min_bytes_opt().is_some()),
                        is_id,
                        "{}.{name}",
                        table.dir()
                    );
                }
            }
        }
    }
}

#[test]
fn rows_agree_with_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let summary = simulate(
        &spec("taiwan16", Unit::Deals, 4_000, 1_500, "greedy"),
        &out,
        &options(2),
    )
    .unwrap();
    let m = &summary.manifest;
    assert_eq!(m.status, Status::Complete);
    let deals = read_table(&out, Table::Deals);
    let wins = read_table(&out, Table::Wins);
    let tai = read_table(&out, Table::Tai);
    assert_eq!(
        (
            deals.num_rows() as u64,
            wins.num_rows() as u64,
            tai.num_rows() as u64
        ),
        (m.rows.deals, m.rows.wins, m.rows.tai)
    );
    assert_eq!(u64s(&deals, "deal_id"), (0..4_000).collect::<Vec<_>>());

    // Payments are conserved, and winners' rows match the deals'.
    let pays: Vec<_> = ["pay_e", "pay_s", "pay_w", "pay_n"]
        .iter()
        .map(|c| {
            deals
                .column_by_name(c)
                .unwrap()
                .as_primitive::<Int64Type>()
                .clone()
        })
        .collect();
    let n_winners = deals
        .column_by_name("n_winners")
        .unwrap()
        .as_primitive::<UInt8Type>();
    let outcomes = strs(&deals, "outcome");
    let mut winners_by_deal: HashMap<u64, u64> = HashMap::new();
    for id in u64s(&wins, "deal_id") {
        *winners_by_deal.entry(id).or_default() += 1;
    }
    for (i, outcome) in outcomes.iter().enumerate() {
        let sum: i64 = pays.iter().map(|p| p.value(i)).sum();
        assert_eq!(sum, 0, "deal {i} pays");
        let n = n_winners.value(i) as u64;
        assert_eq!(winners_by_deal.get(&(i as u64)).copied().unwrap_or(0), n);
        assert_eq!(n == 0, outcome.as_deref() == Some("exhaustive_draw"));
    }
    assert!(winners_by_deal.len() > 1_000, "greedy players win often");

    // Each win's pattern rows add up to its total (unless the limit cut it).
    let mut tai_by_win: HashMap<(u64, String), (u64, u64)> = HashMap::new();
    let tai_ids = u64s(&tai, "deal_id");
    let tai_winner = strs(&tai, "winner");
    let tai_values = tai
        .column_by_name("tai")
        .unwrap()
        .as_primitive::<UInt16Type>();
    for i in 0..tai.num_rows() {
        let e = tai_by_win
            .entry((tai_ids[i], tai_winner[i].clone().unwrap()))
            .or_default();
        e.0 += tai_values.value(i) as u64;
        e.1 += 1;
    }
    let win_ids = u64s(&wins, "deal_id");
    let win_winner = strs(&wins, "winner");
    let totals = wins
        .column_by_name("total_tai")
        .unwrap()
        .as_primitive::<UInt16Type>();
    let n_patterns = wins
        .column_by_name("n_patterns")
        .unwrap()
        .as_primitive::<UInt8Type>();
    let capped = wins.column_by_name("capped").unwrap().as_boolean();
    for i in 0..wins.num_rows() {
        let (sum, rows) = tai_by_win
            .get(&(win_ids[i], win_winner[i].clone().unwrap()))
            .copied()
            .unwrap_or((0, 0));
        assert_eq!(rows, n_patterns.value(i) as u64);
        if !capped.value(i) {
            assert_eq!(sum, totals.value(i) as u64, "win {i}");
        }
    }
}

#[test]
fn resume_finishes_exactly_as_an_uninterrupted_run() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    let broken = dir.path().join("broken");
    let s = spec(
        "taiwan16",
        Unit::Deals,
        5_000,
        1_000,
        "random,greedy,random,greedy",
    );
    simulate(&s, &whole, &options(2)).unwrap();
    simulate(&s, &broken, &options(2)).unwrap();

    // What a kill leaves: a part whose deals file was never renamed into place (its wins
    // and tai files were), a part with only temporary files, and a manifest still running.
    std::fs::remove_file(part_path(&broken, Table::Deals, 1)).unwrap();
    for table in Table::ALL {
        let path = part_path(&broken, table, 3);
        let tmp = path.with_file_name(".part-00003.parquet.tmp");
        std::fs::rename(&path, &tmp).unwrap();
        std::fs::write(&tmp, b"half a file").unwrap();
    }
    // The manifest as first written (running, no parts), and the journal of the parts
    // completed since: 0, 2 and 4, then a line the kill cut short.
    let mut m = Manifest::read(&broken.join("manifest.json")).unwrap();
    let mut journal = String::new();
    for p in [0, 2, 4] {
        journal.push_str(&serde_json::to_string(&m.parts[p]).unwrap());
        journal.push('\n');
    }
    journal.push_str(r#"{"index":1,"units":[1000,20"#);
    std::fs::write(Manifest::journal_path(&broken, Shard::WHOLE), journal).unwrap();
    m.status = Status::Running;
    m.parts.clear();
    m.rows = taisim_datasets::Rows::default();
    m.write(&broken).unwrap();

    let resumed = simulate(
        &s,
        &broken,
        &RunOptions {
            resume: true,
            ..options(1)
        },
    )
    .unwrap();
    assert_eq!(resumed.parts_played, 2);
    assert_eq!(resumed.deals_played, 2_000);
    assert_eq!(checksums(&whole), checksums(&broken));
    let leftovers: Vec<_> = std::fs::read_dir(broken.join("deals"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    assert!(!Manifest::journal_path(&broken, Shard::WHOLE).exists());
}

/// Faults a resume must find by reading the files, not trust: a flipped byte (same size),
/// a truncated file, an empty one, a missing one, a part on disk that no record vouches
/// for. Each part is played again, and the run ends byte-identical to an uninterrupted one.
/// A run cancelled from another thread (Python's Ctrl-C) stops between deals with
/// `Interrupted`, writes no part it had not finished, keeps those it had, and resumes to
/// exactly the files of an uninterrupted run.
#[test]
fn a_cancelled_run_stops_and_resumes_exactly() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let dir = tempfile::tempdir().unwrap();
    let s = spec("taiwan16", Unit::Deals, 30_000, 1_000, "greedy");
    let whole = dir.path().join("whole");
    simulate(&s, &whole, &options(2)).unwrap();

    // Cancelled before it starts: nothing played, and the run resumes from nothing.
    let early = dir.path().join("early");
    let set = RunOptions {
        cancel: Some(Arc::new(AtomicBool::new(true))),
        ..options(2)
    };
    let got = simulate(&s, &early, &set);
    assert!(matches!(got, Err(HarnessError::Interrupted)), "{got:?}");
    assert_eq!(std::fs::read_dir(early.join("deals")).unwrap().count(), 0);
    let resume = RunOptions {
        resume: true,
        ..options(2)
    };
    assert_eq!(simulate(&s, &early, &resume).unwrap().parts_played, 30);
    assert_eq!(checksums(&whole), checksums(&early));

    // Cancelled once two parts are written, on one thread: the others are left to resume.
    let cancelled = dir.path().join("cancelled");
    let cancel = Arc::new(AtomicBool::new(false));
    // The flag is set once 2,500 deals are played: the workers stop within their parts.
    let setter = {
        let cancel = Arc::clone(&cancel);
        let out = cancelled.clone();
        std::thread::spawn(move || {
            while !cancel.load(Ordering::Relaxed) {
                let parts = std::fs::read_dir(out.join("deals"))
                    .map(|d| {
                        d.filter(|e| {
                            e.as_ref().is_ok_and(|e| {
                                e.file_name().to_string_lossy().ends_with(".parquet")
                            })
                        })
                        .count()
                    })
                    .unwrap_or(0);
                if parts >= 2 {
                    cancel.store(true, Ordering::Relaxed);
                }
                std::thread::yield_now();
            }
        })
    };
    let got = simulate(
        &s,
        &cancelled,
        &RunOptions {
            cancel: Some(Arc::clone(&cancel)),
            ..options(1)
        },
    );
    cancel.store(true, Ordering::Relaxed);
    setter.join().unwrap();
    assert!(matches!(got, Err(HarnessError::Interrupted)), "{got:?}");
    let m = Manifest::read(&cancelled.join("manifest.json")).unwrap();
    assert_eq!(m.status, Status::Running);
    let kept = std::fs::read_dir(cancelled.join("deals")).unwrap().count();
    assert!((2..30).contains(&kept), "{kept} parts kept");

    let resumed = simulate(&s, &cancelled, &resume).unwrap();
    assert_eq!(resumed.parts_played, 30 - kept as u64);
    assert_eq!(checksums(&whole), checksums(&cancelled));
}

#[test]
fn resume_plays_again_every_part_that_differs_from_its_record() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    let broken = dir.path().join("broken");
    let s = spec(
        "taiwan16",
        Unit::Deals,
        6_000,
        1_000,
        "random,greedy,random,greedy",
    );
    simulate(&s, &whole, &options(2)).unwrap();
    simulate(&s, &broken, &options(2)).unwrap();
    let file = |table, p| part_path(&broken, table, p);

    let mut bytes = std::fs::read(file(Table::Deals, 0)).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x01;
    std::fs::write(file(Table::Deals, 0), &bytes).unwrap();
    let bytes = std::fs::read(file(Table::Wins, 1)).unwrap();
    std::fs::write(file(Table::Wins, 1), &bytes[..bytes.len() - 1]).unwrap();
    std::fs::write(file(Table::Tai, 2), b"").unwrap();
    std::fs::remove_file(file(Table::Wins, 3)).unwrap();
    // A record with a checksum the file does not have (a damaged manifest).
    let mut m = Manifest::read(&broken.join("manifest.json")).unwrap();
    m.parts[4].tai.sha256 = "0".repeat(64);
    m.parts.remove(5);
    m.write(&broken).unwrap();

    let resumed = simulate(
        &s,
        &broken,
        &RunOptions {
            resume: true,
            ..options(2)
        },
    )
    .unwrap();
    assert_eq!(resumed.parts_played, 6, "{:?}", resumed.repaired);
    let reasons = resumed.repaired.join("\n");
    for needle in [
        "part 0: deals/part-00000.parquet has SHA-256",
        "part 1: wins/part-00001.parquet has",
        "part 2: tai/part-00002.parquet has 0 bytes",
        "part 3: wins/part-00003.parquet is missing",
        "part 4: tai/part-00004.parquet has SHA-256",
        "part 5: its files were never recorded as complete",
    ] {
        assert!(reasons.contains(needle), "{needle} in {reasons}");
    }
    assert_eq!(checksums(&whole), checksums(&broken));
    for table in Table::ALL {
        for p in 0..6 {
            assert_eq!(
                std::fs::read(part_path(&whole, table, p)).unwrap(),
                std::fs::read(part_path(&broken, table, p)).unwrap()
            );
        }
    }

    // A second resume finds everything as recorded and plays nothing.
    let again = simulate(
        &s,
        &broken,
        &RunOptions {
            resume: true,
            ..options(2)
        },
    )
    .unwrap();
    assert_eq!(again.parts_played, 0);
    assert!(again.repaired.is_empty(), "{:?}", again.repaired);
    assert_eq!(checksums(&whole), checksums(&broken));
}

/// A run killed after creating its directory but before its first manifest resumes from
/// the arguments alone; a shard of another split is refused by name.
#[test]
fn a_run_killed_before_its_manifest_resumes_and_splits_must_agree() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    let killed = dir.path().join("killed");
    let s = spec("taiwan16", Unit::Deals, 3_000, 1_000, "random");
    simulate(&s, &whole, &options(2)).unwrap();
    for table in Table::ALL {
        std::fs::create_dir_all(killed.join(table.dir())).unwrap();
    }
    std::fs::copy(whole.join("variant.toml"), killed.join("variant.toml")).unwrap();
    // A finished part (renamed) whose record never reached disk, and a half-written one.
    for table in Table::ALL {
        std::fs::copy(part_path(&whole, table, 1), part_path(&killed, table, 1)).unwrap();
    }
    std::fs::write(
        killed.join("deals").join(".part-00002.parquet.tmp"),
        b"half",
    )
    .unwrap();

    let err = simulate(&s, &killed, &options(1)).unwrap_err();
    assert!(matches!(err, HarnessError::Usage(_)), "{err}");
    assert!(err.to_string().contains("not empty"), "{err}");
    let resumed = simulate(
        &s,
        &killed,
        &RunOptions {
            resume: true,
            ..options(1)
        },
    )
    .unwrap();
    assert_eq!(resumed.parts_played, 3);
    assert_eq!(checksums(&whole), checksums(&killed));
    assert!(!killed
        .join("deals")
        .join(".part-00002.parquet.tmp")
        .exists());

    // A directory of another run's files is not resumed.
    let other = dir.path().join("other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("notes.txt"), "mine").unwrap();
    let err = simulate(
        &s,
        &other,
        &RunOptions {
            resume: true,
            ..options(1)
        },
    )
    .unwrap_err();
    assert!(matches!(err, HarnessError::Usage(_)), "{err}");
    assert!(std::fs::read_dir(&other).unwrap().count() == 1);

    // Shards of a 2-way split; a 3-way shard (or an unsplit run) cannot join them.
    let shared = dir.path().join("shared");
    let shard = |index, count| RunSpec {
        shard: Shard { index, count },
        ..s.clone()
    };
    simulate(&shard(1, 2), &shared, &options(1)).unwrap();
    for (asked, resume) in [
        (shard(1, 3), false),
        (shard(2, 3), true),
        (s.clone(), false),
    ] {
        let err = simulate(
            &asked,
            &shared,
            &RunOptions {
                resume,
                ..options(1)
            },
        )
        .unwrap_err();
        assert!(matches!(err, HarnessError::Usage(_)), "{err}");
        let text = err.to_string();
        assert!(text.contains("shard 1/2"), "{text}");
        assert!(
            text.contains(&asked.shard.to_string()) || asked.shard.is_whole(),
            "{text}"
        );
    }
    simulate(&shard(2, 2), &shared, &options(1)).unwrap();
}

#[test]
fn shards_in_one_directory_make_the_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    let sharded = dir.path().join("sharded");
    let s = spec("taiwan16", Unit::Deals, 4_500, 1_000, "greedy");
    simulate(&s, &whole, &options(2)).unwrap();
    for k in 1..=3 {
        let shard = RunSpec {
            shard: Shard { index: k, count: 3 },
            ..s.clone()
        };
        simulate(&shard, &sharded, &options(1)).unwrap();
    }
    assert_eq!(Manifest::read_all(&sharded).unwrap().len(), 3);
    assert_eq!(checksums(&whole), checksums(&sharded));

    // A shard of another run may not join them.
    let stranger = RunSpec {
        seed: 8,
        shard: Shard { index: 1, count: 4 },
        ..s.clone()
    };
    let err = simulate(&stranger, &sharded, &options(1)).unwrap_err();
    assert!(matches!(err, HarnessError::Usage(_)), "{err}");
    assert!(err.to_string().contains("seed"), "{err}");
}

#[test]
fn games_follow_the_dealer() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games");
    simulate(
        &spec("taiwan16", Unit::Games, 30, 8, "greedy"),
        &out,
        &options(2),
    )
    .unwrap();
    let deals = read_table(&out, Table::Deals);
    let games = deals
        .column_by_name("game_id")
        .unwrap()
        .as_primitive::<UInt64Type>();
    let nums = deals
        .column_by_name("deal_in_game")
        .unwrap()
        .as_primitive::<UInt16Type>();
    let ids = u64s(&deals, "deal_id");
    let dealers = strs(&deals, "dealer");
    let rounds = strs(&deals, "round_wind");
    let mut seen_games = 0;
    for i in 0..deals.num_rows() {
        let (g, j) = (games.value(i), nums.value(i) as u64);
        assert_eq!(ids[i], taisim_datasets::game_deal_id(g, j));
        if j == 0 {
            assert_eq!(g, seen_games, "games in order");
            seen_games += 1;
            assert_eq!(dealers[i].as_deref(), Some("E"));
            assert_eq!(rounds[i].as_deref(), Some("E"));
        } else {
            assert_eq!(games.value(i - 1), g);
            assert_eq!(nums.value(i - 1) as u64, j - 1);
        }
    }
    assert_eq!(seen_games, 30);
    // A game runs four rounds: at least 16 deals, and its last deal is in the North round.
    for (i, round) in rounds.iter().enumerate() {
        let last = i + 1 == deals.num_rows() || nums.value(i + 1) == 0;
        if last {
            assert!(nums.value(i) >= 15);
            assert_eq!(round.as_deref(), Some("N"));
        }
    }
}

#[test]
fn every_deal_replays_with_or_without_an_action_log() {
    let dir = tempfile::tempdir().unwrap();
    for log in [true, false] {
        let out = dir.path().join(format!("log-{log}"));
        let s = RunSpec {
            log_actions: log,
            ..spec(
                "taiwan16-2015",
                Unit::Deals,
                300,
                100,
                "greedy,random,defensive,greedy",
            )
        };
        simulate(&s, &out, &options(2)).unwrap();
        for id in (0..300).step_by(7) {
            let mut text = Vec::new();
            replay(&out, id, &mut text).unwrap_or_else(|e| panic!("deal {id}: {e}"));
            let text = String::from_utf8(text).unwrap();
            assert!(text.contains("result: "), "{text}");
        }
        let err = replay(&out, 300, &mut Vec::new()).unwrap_err();
        assert!(err.to_string().contains("not in the run"), "{err}");
    }
}

#[test]
fn an_action_log_that_does_not_fit_its_deal_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let s = RunSpec {
        log_actions: true,
        ..spec("taiwan16", Unit::Deals, 40, 40, "greedy")
    };
    simulate(&s, &out, &options(1)).unwrap();
    // Give each deal the next deal's decisions.
    let path = part_path(&out, Table::Deals, 0);
    let batch = read_table(&out, Table::Deals);
    let actions = batch.column_by_name("actions").unwrap().as_binary::<i32>();
    let shifted: arrow_array::BinaryArray = (0..actions.len())
        .map(|i| Some(actions.value((i + 1) % actions.len())))
        .collect();
    let index = batch.schema().index_of("actions").unwrap();
    let mut columns = batch.columns().to_vec();
    columns[index] = std::sync::Arc::new(shifted);
    let tampered = RecordBatch::try_new(batch.schema(), columns).unwrap();
    let mut writer =
        parquet::arrow::ArrowWriter::try_new(File::create(&path).unwrap(), tampered.schema(), None)
            .unwrap();
    writer.write(&tampered).unwrap();
    writer.close().unwrap();
    for id in 0..40 {
        let err = replay(&out, id, &mut Vec::new()).unwrap_err();
        assert!(
            matches!(err, HarnessError::Corrupt { .. }),
            "deal {id}: {err}"
        );
    }
}

#[test]
fn user_errors_are_usage_errors_and_touch_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let s = spec("taiwan16", Unit::Deals, 200, 100, "random");
    simulate(&s, &out, &options(1)).unwrap();
    let before = checksums(&out);

    // An existing run without --resume.
    let err = simulate(&s, &out, &options(1)).unwrap_err();
    assert!(matches!(err, HarnessError::Usage(_)));
    assert!(err.to_string().contains("resume"), "{err}");
    assert!(
        !err.to_string().contains("--"),
        "no command-line flag: {err}"
    );
    // --resume with other arguments names the difference.
    let err = simulate(
        &RunSpec {
            seed: 1,
            ..s.clone()
        },
        &out,
        &RunOptions {
            resume: true,
            ..options(1)
        },
    )
    .unwrap_err();
    assert!(err.to_string().contains("seed: the run has 7"), "{err}");
    assert_eq!(before, checksums(&out));

    // An output path below a file.
    let file = dir.path().join("file");
    std::fs::write(&file, "x").unwrap();
    let err = simulate(&s, &file.join("run"), &options(1)).unwrap_err();
    assert!(matches!(err, HarnessError::Usage(_)), "{err}");
    assert!(err.to_string().contains("output directory"), "{err}");

    // Unknown names list the known ones.
    let err = RunVariant::by_name_or_path("taiwan17").unwrap_err();
    assert!(matches!(err, HarnessError::Variant(_)), "{err:?}");
    assert!(err.to_string().contains("taiwan16-house"), "{err}");
    let err = simulate(
        &RunSpec {
            count: 0,
            ..s.clone()
        },
        &dir.path().join("z"),
        &options(1),
    )
    .unwrap_err();
    assert!(err.to_string().contains("at least 1"), "{err}");
}

#[test]
fn a_failed_write_keeps_the_complete_parts() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let s = spec("taiwan16", Unit::Deals, 300, 100, "random");
    simulate(&s, &out, &options(1)).unwrap();
    let before = checksums(&out);
    // Part 2 must be played again, but a directory squats on its temporary wins file.
    std::fs::remove_file(part_path(&out, Table::Deals, 2)).unwrap();
    let squat = out.join("wins").join(".part-00002.parquet.tmp");
    std::fs::create_dir(&squat).unwrap();
    std::fs::write(squat.join("x"), "x").unwrap();
    let err = simulate(
        &s,
        &out,
        &RunOptions {
            resume: true,
            ..options(1)
        },
    )
    .unwrap_err();
    assert!(matches!(err, HarnessError::Io { .. }), "{err}");
    assert!(err.to_string().contains(".part-00002.parquet.tmp"), "{err}");
    for p in [0, 1] {
        for table in Table::ALL {
            assert!(part_path(&out, table, p).is_file());
        }
    }
    // Once the obstacle is gone, the run resumes to the same files.
    std::fs::remove_dir_all(&squat).unwrap();
    simulate(
        &s,
        &out,
        &RunOptions {
            resume: true,
            ..options(1)
        },
    )
    .unwrap();
    assert_eq!(before, checksums(&out));
}

/// A run of a variant file that extends another keeps the variant it resolves to, whole
/// (its base may change, or be out of the run directory's reach), and resumes from that file
/// or from the run's own copy alike.
#[test]
fn a_run_of_an_extending_file_records_the_whole_variant() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("flat.toml");
    std::fs::write(
        &file,
        "extends = \"taiwan16\"\nname = \"flat\"\n[tai]\nmax = 20\n",
    )
    .unwrap();
    let out = dir.path().join("run");
    let request = taisim_datasets::RunRequest {
        variant: Some(file.to_str().unwrap().into()),
        deals: Some(40),
        part_size: Some(20),
        agents: Some("greedy".into()),
        ..taisim_datasets::RunRequest::default()
    };
    let spec = request.spec(&out, false).unwrap();
    simulate(&spec, &out, &options(2)).unwrap();
    let recorded = std::fs::read_to_string(out.join("variant.toml")).unwrap();
    assert!(
        recorded.starts_with(taisim_datasets::RESOLVED_HEADER),
        "{recorded}"
    );
    assert!(!recorded.contains("extends ="), "{recorded}");
    assert!(recorded.contains("description = \"taiwan16 with the changes in flat.toml\""));
    let whole = taisim_score::Variant::from_toml_str(&recorded, "recorded").unwrap();
    assert_eq!(whole, taisim_score::Variant::load(&file).unwrap());
    assert_eq!(whole.max_tai(), Some(20));
    // Every table names the variant.
    for table in [Table::Deals, Table::Wins, Table::Tai] {
        let batch = read_table(&out, table);
        assert!(strs(&batch, "variant")
            .iter()
            .all(|v| v.as_deref() == Some("flat")));
    }
    // Resumed with the same file: the same variant, so the same run.
    let resume = RunOptions {
        resume: true,
        ..options(2)
    };
    let spec = request.spec(&out, true).unwrap();
    simulate(&spec, &out, &resume).unwrap();
    // From the run's own copy, with the file gone.
    std::fs::remove_file(&file).unwrap();
    let spec = taisim_datasets::resume_spec(&out, Shard::WHOLE).unwrap();
    assert_eq!(spec.variant.name(), "flat");
    simulate(&spec, &out, &resume).unwrap();
}
