//! `Comparison` (issue 25): two runs of the same walls compared deal by deal. Its figures are
//! recomputed here from the rows with plain loops and two-pass formulas (the comparison
//! folds integer sums and expands the variance); a run against itself differs by exactly 0
//! with intervals of width 0; a pair of runs whose difference is known in advance (a table
//! that adds one tai to every self-drawn win, played by agents that ignore the table) shows
//! exactly it; runs of other walls are a named error; and a run written by the taisim before
//! the tables carried their variant (tests/fixtures/run-format-1) is read, compared and
//! reported, but not resumed.

use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::types::{Int64Type, Int8Type, UInt16Type, UInt64Type};
use arrow_array::{Array, RecordBatch};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use taisim_datasets::compare::{PER_DEAL, PER_WIN};
use taisim_datasets::report::Z95;
use taisim_datasets::{
    simulate, CompareError, CompareOptions, Comparison, Report, ReportOptions, RunOptions,
    RunRequest, Table,
};

fn run(out: &Path, variant: &str, agents: &str, seed: u64, deals: u64, part_size: u64) {
    let request = RunRequest {
        variant: Some(variant.into()),
        agents: Some(agents.into()),
        seed: Some(seed),
        deals: Some(deals),
        part_size: Some(part_size),
        ..RunRequest::default()
    };
    let spec = request.spec(out, false).unwrap();
    let options = RunOptions {
        threads: Some(2),
        ..RunOptions::default()
    };
    simulate(&spec, out, &options).unwrap();
}

fn compare(a: &Path, b: &Path) -> Result<Comparison, CompareError> {
    Comparison::from_runs(a, b, &CompareOptions::default())
}

/// Every row of a table, all parts in order, read without taisim_datasets' reader.
fn batches(out: &Path, table: Table) -> Vec<RecordBatch> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(out.join(table.dir()))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "parquet"))
        .collect();
    names.sort();
    let mut out = Vec::new();
    for path in names {
        let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(path).unwrap())
            .unwrap()
            .build()
            .unwrap();
        out.extend(reader.map(|b| b.unwrap()));
    }
    out
}

fn strings(batch: &RecordBatch, name: &str) -> Vec<Option<String>> {
    let dict = batch
        .column_by_name(name)
        .unwrap()
        .as_dictionary::<Int8Type>();
    let values = dict.values().as_string::<i32>();
    dict.keys()
        .iter()
        .map(|k| k.map(|k| values.value(k as usize).to_string()))
        .collect()
}

fn seat(s: &str) -> usize {
    ["E", "S", "W", "N"].iter().position(|x| *x == s).unwrap()
}

/// One deal, recounted from the rows.
#[derive(Clone, Debug, Default)]
struct Deal {
    id: u64,
    outcome: String,
    winners: String,
    discarder: Option<usize>,
    total_tai: i64,
    pays: [i64; 4],
    wins: i64,
    win_tai: i64,
    payment: i64,
    self_drawn: i64,
    patterns: BTreeMap<String, i64>,
}

fn deals_of(out: &Path) -> Vec<Deal> {
    let mut deals: Vec<Deal> = Vec::new();
    for b in batches(out, Table::Deals) {
        let ids = b
            .column_by_name("deal_id")
            .unwrap()
            .as_primitive::<UInt64Type>();
        let outcome = strings(&b, "outcome");
        let winners = strings(&b, "winners");
        let discarder = strings(&b, "discarder");
        let tai = b
            .column_by_name("total_tai")
            .unwrap()
            .as_primitive::<UInt16Type>();
        let pays: Vec<_> = ["pay_e", "pay_s", "pay_w", "pay_n"]
            .iter()
            .map(|c| b.column_by_name(c).unwrap().as_primitive::<Int64Type>())
            .collect();
        for i in 0..b.num_rows() {
            deals.push(Deal {
                id: ids.value(i),
                outcome: outcome[i].clone().unwrap(),
                winners: winners[i].clone().unwrap_or_default(),
                discarder: discarder[i].as_deref().map(seat),
                total_tai: if tai.is_null(i) {
                    0
                } else {
                    tai.value(i) as i64
                },
                pays: [0, 1, 2, 3].map(|s| pays[s].value(i)),
                ..Deal::default()
            });
        }
    }
    let index: BTreeMap<u64, usize> = deals.iter().enumerate().map(|(i, d)| (d.id, i)).collect();
    for b in batches(out, Table::Wins) {
        let ids = b
            .column_by_name("deal_id")
            .unwrap()
            .as_primitive::<UInt64Type>();
        let tai = b
            .column_by_name("total_tai")
            .unwrap()
            .as_primitive::<UInt16Type>();
        let payment = b
            .column_by_name("payment")
            .unwrap()
            .as_primitive::<Int64Type>();
        let self_draw = b.column_by_name("self_draw").unwrap().as_boolean();
        for i in 0..b.num_rows() {
            let d = &mut deals[index[&ids.value(i)]];
            d.wins += 1;
            d.win_tai += tai.value(i) as i64;
            d.payment += payment.value(i);
            d.self_drawn += self_draw.value(i) as i64;
        }
    }
    for b in batches(out, Table::Tai) {
        let ids = b
            .column_by_name("deal_id")
            .unwrap()
            .as_primitive::<UInt64Type>();
        let pattern = strings(&b, "pattern");
        for i in 0..b.num_rows() {
            let d = &mut deals[index[&ids.value(i)]];
            *d.patterns.entry(pattern[i].clone().unwrap()).or_default() += 1;
        }
    }
    deals
}

/// Mean difference and the half-width of its 95% interval, two passes over the values.
fn paired_mean(pairs: &[(f64, f64)]) -> (f64, f64) {
    let n = pairs.len() as f64;
    let d: Vec<f64> = pairs.iter().map(|(a, b)| b - a).collect();
    let mean = d.iter().sum::<f64>() / n;
    let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, Z95 * (var / n).sqrt())
}

/// One deal's (numerator, denominator) in A, then in B.
type RatioPair = ((f64, f64), (f64, f64));

/// Difference of two ratios Σnum/Σden and its half-width: each deal's linearised
/// difference, then its sample variance.
fn paired_ratio(pairs: &[RatioPair]) -> (f64, f64) {
    let n = pairs.len() as f64;
    let s = |f: &dyn Fn(&RatioPair) -> f64| pairs.iter().map(f).sum::<f64>();
    let (na, da, nb, db) = (
        s(&|p| p.0 .0),
        s(&|p| p.0 .1),
        s(&|p| p.1 .0),
        s(&|p| p.1 .1),
    );
    let (ra, rb) = (na / da, nb / db);
    let u: Vec<f64> = pairs
        .iter()
        .map(|((an, ad), (bn, bd))| (bn - rb * bd) / (db / n) - (an - ra * ad) / (da / n))
        .collect();
    let mean = u.iter().sum::<f64>() / n;
    let var = u.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (rb - ra, Z95 * (var / n).sqrt())
}

fn close(x: f64, y: f64) -> bool {
    (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1.0)
}

/// Every figure of `c` against a recount of the runs' rows.
fn check_against_rows(c: &Comparison, a: &Path, b: &Path) {
    let (da, db) = (deals_of(a), deals_of(b));
    assert_eq!(da.len(), db.len());
    assert_eq!(c.deals, da.len() as u64);
    let pairs: Vec<(&Deal, &Deal)> = da.iter().zip(&db).collect();
    let changed = pairs.iter().filter(|(x, y)| x.outcome != y.outcome).count() as u64;
    let result = pairs
        .iter()
        .filter(|(x, y)| x.outcome != y.outcome || x.winners != y.winners)
        .count() as u64;
    assert_eq!(c.outcome_changed.k, changed);
    assert_eq!(c.result_changed.k, result);
    let deal_figures: [fn(&Deal) -> f64; 7] = [
        |d| (!d.winners.is_empty()) as i64 as f64,
        |d| (d.outcome == "self_draw") as i64 as f64,
        |d| (d.outcome == "discard") as i64 as f64,
        |d| d.discarder.is_some() as i64 as f64,
        |d| (d.outcome == "exhaustive_draw") as i64 as f64,
        |d| (d.winners.len() > 1) as i64 as f64,
        |d| d.total_tai as f64,
    ];
    assert_eq!(c.per_deal.len(), 7, "no points in these runs");
    for ((figure, m), (key, _, _)) in deal_figures.iter().zip(&c.per_deal).zip(PER_DEAL) {
        let values: Vec<(f64, f64)> = pairs.iter().map(|(x, y)| (figure(x), figure(y))).collect();
        let (d, h) = paired_mean(&values);
        assert!(close(m.difference(), d), "{key}: {} vs {d}", m.difference());
        let (lo, hi) = m.ci95().unwrap();
        assert!(
            close(hi - lo, 2.0 * h),
            "{key}: width {} vs {}",
            hi - lo,
            2.0 * h
        );
    }
    type WinFigure = fn(&Deal) -> (f64, f64);
    let win_figures: [WinFigure; 3] = [
        |d| (d.win_tai as f64, d.wins as f64),
        |d| (d.payment as f64, d.wins as f64),
        |d| (d.self_drawn as f64, d.wins as f64),
    ];
    assert_eq!(c.per_win.len(), 3);
    for ((figure, r), (key, _, _)) in win_figures.iter().zip(&c.per_win).zip(PER_WIN) {
        let values: Vec<_> = pairs.iter().map(|(x, y)| (figure(x), figure(y))).collect();
        let (d, h) = paired_ratio(&values);
        assert!(close(r.difference().unwrap(), d), "{key}");
        assert!(
            close(r.half_width95().unwrap(), h),
            "{key}: {} vs {h}",
            r.half_width95().unwrap()
        );
    }
    for s in 0..4 {
        let letter = ["E", "S", "W", "N"][s];
        let pay: Vec<_> = pairs
            .iter()
            .map(|(x, y)| (x.pays[s] as f64, y.pays[s] as f64))
            .collect();
        let win: Vec<_> = pairs
            .iter()
            .map(|(x, y)| {
                (
                    x.winners.contains(letter) as i64 as f64,
                    y.winners.contains(letter) as i64 as f64,
                )
            })
            .collect();
        let deal_in: Vec<_> = pairs
            .iter()
            .map(|(x, y)| {
                (
                    (x.discarder == Some(s)) as i64 as f64,
                    (y.discarder == Some(s)) as i64 as f64,
                )
            })
            .collect();
        for (values, m) in [
            (pay, &c.seats[s].pay),
            (win, &c.seats[s].win),
            (deal_in, &c.seats[s].deal_in),
        ] {
            let (d, h) = paired_mean(&values);
            assert!(close(m.difference(), d), "seat {letter}");
            let (lo, hi) = m.ci95().unwrap();
            assert!(close(hi - lo, 2.0 * h), "seat {letter}");
        }
    }
    // Every pattern counted in either run, each with its paired share of the wins.
    let mut ids: Vec<String> = da
        .iter()
        .chain(&db)
        .flat_map(|d| d.patterns.keys().cloned())
        .collect();
    ids.sort();
    ids.dedup();
    assert_eq!(c.patterns.len(), ids.len());
    for p in &c.patterns {
        let id = p.pattern.id().to_string();
        let values: Vec<_> = pairs
            .iter()
            .map(|(x, y)| {
                let n = |d: &Deal| d.patterns.get(&id).copied().unwrap_or(0) as f64;
                ((n(x), x.wins as f64), (n(y), y.wins as f64))
            })
            .collect();
        let (d, h) = paired_ratio(&values);
        assert!(close(p.share.difference().unwrap(), d), "{id}");
        assert!(close(p.share.half_width95().unwrap(), h), "{id}");
    }
}

#[test]
fn figures_agree_with_a_recount_of_the_rows() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    // Other agents on the same walls, in parts of other sizes: most figures differ.
    run(&a, "taiwan16", "greedy", 21, 700, 250);
    run(
        &b,
        "taiwan16",
        "defensive,greedy,random,greedy",
        21,
        700,
        700,
    );
    let c = compare(&a, &b).unwrap();
    assert!(c.outcome_changed.k > 0);
    check_against_rows(&c, &a, &b);
    let warnings = c.warnings().join("\n");
    assert!(warnings.contains("the runs' agents differ"), "{warnings}");
    assert!(
        warnings.contains("no agent here responds to the scoring table"),
        "{warnings}"
    );
    // JSON carries the same figures.
    let json = c.to_json();
    assert_eq!(json["deals"], 700);
    assert_eq!(json["outcome_changed"]["count"], c.outcome_changed.k);
    assert_eq!(
        json["per_win"]["tai_per_win"]["difference"],
        c.per_win[0].difference().unwrap()
    );
    assert_eq!(
        json["a"]["responds_to_scoring"],
        serde_json::json!([false, false, false, false])
    );
}

#[test]
fn a_run_against_itself_differs_by_exactly_zero() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a");
    run(
        &a,
        "taiwan16",
        "greedy,random,defensive,greedy",
        5,
        400,
        150,
    );
    let c = compare(&a, &a).unwrap();
    check_against_rows(&c, &a, &a);
    assert_eq!(c.outcome_changed.k, 0);
    for m in c
        .per_deal
        .iter()
        .chain(c.seats.iter().flat_map(|s| [&s.win, &s.deal_in, &s.pay]))
    {
        assert_eq!(m.difference(), 0.0);
        assert_eq!(m.ci95(), Some((0.0, 0.0)));
    }
    for r in c.per_win.iter().chain(c.patterns.iter().map(|p| &p.share)) {
        assert_eq!(r.difference(), Some(0.0));
        assert_eq!(r.ci95(), Some((0.0, 0.0)));
    }
    assert!(c
        .warnings()
        .iter()
        .any(|w| w.contains("both runs play the same variant")));
    // Shown as zeros, never as -0.
    let text = c.to_terminal(None);
    assert!(
        !text.contains("-0.000") && !text.contains("-0.00 pp"),
        "{text}"
    );
}

#[test]
fn a_table_that_adds_a_tai_to_every_self_drawn_win_shows_exactly_that() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    // 自摸 2 instead of 1; taiwan16 counts no other pattern whose reading could change with
    // it, so every win that counts self_draw gains exactly one tai, and nothing else moves.
    let file = dir.path().join("self-draw-2.toml");
    std::fs::write(
        &file,
        "extends = \"taiwan16\"\nname = \"self-draw-2\"\n[patterns]\nself_draw = 2\n",
    )
    .unwrap();
    run(&a, "taiwan16", "greedy", 9, 600, 200);
    run(&b, file.to_str().unwrap(), "greedy", 9, 600, 200);
    let c = compare(&a, &b).unwrap();
    check_against_rows(&c, &a, &b);
    assert_eq!(c.same_engine_rules, Some(true));
    assert_eq!(c.outcome_changed.k, 0, "greedy ignores the table");
    let rows = deals_of(&a);
    let wins: i64 = rows.iter().map(|d| d.wins).sum();
    let self_draw: i64 = rows
        .iter()
        .map(|d| d.patterns.get("self_draw").copied().unwrap_or(0))
        .sum();
    assert!(self_draw > 0 && wins > 0);
    let tai_per_win = &c.per_win[0];
    assert!(close(
        tai_per_win.difference().unwrap(),
        self_draw as f64 / wins as f64
    ));
    assert!(close(c.per_deal[6].difference(), self_draw as f64 / 600.0));
    // The same play: every rate and every pattern's share is unchanged, to the last bit.
    for m in &c.per_deal[..6] {
        assert_eq!(m.ci95(), Some((0.0, 0.0)));
    }
    for p in &c.patterns {
        assert_eq!(p.share.ci95(), Some((0.0, 0.0)), "{}", p.pattern.id());
    }
    let warnings = c.warnings().join("\n");
    assert!(
        warnings.contains("no agent here responds to the scoring table (greedy plays by the hand and the rules, not by tai): the two variants have the same engine rules"),
        "{warnings}"
    );
}

#[test]
fn runs_of_other_walls_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run(&d.join("seed3"), "taiwan16", "random", 3, 100, 50);
    run(&d.join("seed4"), "taiwan16", "random", 4, 100, 50);
    run(&d.join("short"), "taiwan16", "random", 3, 60, 50);
    let games = d.join("games");
    let request = RunRequest {
        games: Some(2),
        seed: Some(3),
        agents: Some("random".into()),
        ..RunRequest::default()
    };
    let options = RunOptions {
        threads: Some(2),
        ..RunOptions::default()
    };
    simulate(&request.spec(&games, false).unwrap(), &games, &options).unwrap();
    for (b, why) in [
        ("seed4", "A's seed is 3, B's is 4"),
        ("short", "A has 100 deals, B has 60"),
        ("games", "A plays deals, B plays games"),
    ] {
        let e = compare(&d.join("seed3"), &d.join(b)).unwrap_err();
        assert!(matches!(e, CompareError::DifferentWalls { .. }), "{b}: {e}");
        let message = e.to_string();
        assert!(
            message.contains("were not played on the same walls") && message.contains(why),
            "{message}"
        );
    }
    let e = compare(&d.join("seed3"), &d.join("none")).unwrap_err();
    assert!(matches!(e, CompareError::Run(_)), "{e}");
}

/// tests/fixtures/run-format-1: `taisim simulate --deals 60 --part-size 30 --agents greedy
/// --seed 11 --threads 1` written by the taisim of 78d0fed, the commit before issue 25
/// (manifest format taisim-run/1, footers taisim-part/1, wins and tai without the variant
/// column).
fn format_1_fixture(to: &Path) -> PathBuf {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/run-format-1");
    let out = to.join("old");
    for sub in ["", "deals", "wins", "tai"] {
        std::fs::create_dir_all(out.join(sub)).unwrap();
        for entry in std::fs::read_dir(from.join(sub)).unwrap() {
            let entry = entry.unwrap();
            if entry.file_type().unwrap().is_file() {
                std::fs::copy(entry.path(), out.join(sub).join(entry.file_name())).unwrap();
            }
        }
    }
    out
}

#[test]
fn a_run_of_the_earlier_format_is_read_and_compared_but_not_resumed() {
    let dir = tempfile::tempdir().unwrap();
    let old = format_1_fixture(dir.path());
    let manifest = std::fs::read_to_string(old.join("manifest.json")).unwrap();
    assert!(manifest.contains("\"format\": \"taisim-run/1\""));
    // Its report, as ever.
    let report = Report::from_run(&old, &ReportOptions::default()).unwrap();
    assert_eq!(report.deals, 60);
    // The same run played now: the same deals, now with the variant in every table.
    let new = dir.path().join("new");
    run(&new, "taiwan16", "greedy", 11, 60, 30);
    let c = compare(&old, &new).unwrap();
    assert_eq!(c.a.format, "taisim-run/1");
    assert_eq!(c.b.format, taisim_datasets::MANIFEST_FORMAT);
    assert_eq!(c.outcome_changed.k, 0);
    for r in c.per_win.iter().chain(c.patterns.iter().map(|p| &p.share)) {
        assert_eq!(r.ci95(), Some((0.0, 0.0)));
    }
    for b in batches(&new, Table::Tai)
        .iter()
        .chain(&batches(&new, Table::Wins))
    {
        assert!(strings(b, "variant")
            .iter()
            .all(|v| v.as_deref() == Some("taiwan16")));
    }
    // Resuming it would mix two layouts in its tables: refused, naming why, nothing touched.
    let before: Vec<_> = std::fs::read_dir(old.join("wins"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    let request = RunRequest {
        variant: Some("taiwan16".into()),
        agents: Some("greedy".into()),
        seed: Some(11),
        deals: Some(60),
        part_size: Some(30),
        ..RunRequest::default()
    };
    let options = RunOptions {
        threads: Some(2),
        resume: true,
        ..RunOptions::default()
    };
    let e = request
        .spec(&old, true)
        .and_then(|spec| simulate(&spec, &old, &options))
        .unwrap_err();
    let message = e.to_string();
    assert!(message.contains("written by an older taisim"), "{message}");
    assert!(
        message.contains("manifest.json has format taisim-run/1"),
        "{message}"
    );
    let after: Vec<_> = std::fs::read_dir(old.join("wins"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(before, after);
    assert_eq!(
        std::fs::read_to_string(old.join("manifest.json")).unwrap(),
        manifest
    );
    // Without its manifest, its parts' footers say the same.
    std::fs::remove_file(old.join("manifest.json")).unwrap();
    let e = request
        .spec(&old, true)
        .and_then(|spec| simulate(&spec, &old, &options))
        .unwrap_err();
    let message = e.to_string();
    assert!(message.contains("written by an older taisim"), "{message}");
    assert!(message.contains("has format taisim-part/1"), "{message}");
}
