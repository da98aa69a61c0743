//! `taisim report`'s statistics, recomputed independently from the rows; its determinism;
//! sharded runs; and the errors bad run directories give.

use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::types::{Int64Type, Int8Type, UInt16Type, UInt8Type};
use arrow_array::{Array, RecordBatch};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use taisim_agents::parse_agents;
use taisim_datasets::report::{wilson_interval, Proportion};
use taisim_datasets::{
    part_path, simulate, HarnessError, Manifest, Report, ReportOptions, Run, RunOptions, RunSpec,
    RunVariant, Shard, Table, Unit,
};

/// 1,200 deals in parts of 500 (the last one short), with mixed agents so the seats differ.
fn spec() -> RunSpec {
    let variant = RunVariant::by_name_or_path("taiwan16").unwrap();
    let v = variant.variant().clone();
    RunSpec {
        variant,
        unit: Unit::Deals,
        count: 1_200,
        seed: 11,
        agents: parse_agents("greedy,random,defensive,greedy").unwrap(),
        part_size: 500,
        shard: Shard::WHOLE,
        log_actions: false,
        base: v.settlement().base,
        per_tai: v.settlement().per_tai,
        decisions: None,
        label_with: None,
    }
}

fn run_into(dir: &Path, spec: &RunSpec) {
    let options = RunOptions {
        threads: Some(2),
        ..RunOptions::default()
    };
    simulate(spec, dir, &options).unwrap();
}

fn options(threads: usize, verify_checksums: bool) -> ReportOptions {
    ReportOptions {
        verify_checksums,
        threads: Some(threads),
    }
}

/// A run shared by the read-only tests, made once. A static is never dropped, so its
/// directory is made under the build's own temporary directory (removed with `target/`),
/// never left in the system's.
fn sample() -> &'static Path {
    static DIR: std::sync::OnceLock<(tempfile::TempDir, PathBuf)> = std::sync::OnceLock::new();
    let (_, path) = DIR.get_or_init(|| {
        let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
        let out = dir.path().join("run");
        run_into(&out, &spec());
        (dir, out)
    });
    path
}

/// A copy of the sample run to damage.
fn copy_of_sample(to: &Path) -> PathBuf {
    let out = to.join("copy");
    for sub in ["", "deals", "wins", "tai"] {
        std::fs::create_dir_all(out.join(sub)).unwrap();
        for entry in std::fs::read_dir(sample().join(sub)).unwrap() {
            let entry = entry.unwrap();
            if entry.file_type().unwrap().is_file() {
                std::fs::copy(entry.path(), out.join(sub).join(entry.file_name())).unwrap();
            }
        }
    }
    out
}

/// Every row of a table, all parts in order, read without taisim_datasets' reader.
fn batches(out: &Path, table: Table) -> Vec<RecordBatch> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(out.join(table.dir()))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "parquet"))
        .collect();
    names.sort();
    let mut batches = Vec::new();
    for path in names {
        let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(path).unwrap())
            .unwrap()
            .build()
            .unwrap();
        batches.extend(reader.map(|b| b.unwrap()));
    }
    batches
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

/// The report's figures, recounted from every row with plain loops.
#[derive(Default, Debug)]
struct Recount {
    deals: u64,
    outcomes: BTreeMap<String, u64>,
    multi_winner: u64,
    deal_ins: [u64; 4],
    pay: [i64; 4],
    deal_tai: u64,
    wins: u64,
    seat_wins: [u64; 4],
    seat_self_drawn: [u64; 4],
    win_tai: u64,
    histogram: BTreeMap<u16, u64>,
    patterns: BTreeMap<String, (u64, u64)>,
}

fn recount(out: &Path) -> Recount {
    let mut r = Recount::default();
    for b in batches(out, Table::Deals) {
        let outcome = strings(&b, "outcome");
        let discarder = strings(&b, "discarder");
        let n = b
            .column_by_name("n_winners")
            .unwrap()
            .as_primitive::<UInt8Type>();
        let tai = b
            .column_by_name("total_tai")
            .unwrap()
            .as_primitive::<UInt16Type>();
        for i in 0..b.num_rows() {
            r.deals += 1;
            *r.outcomes.entry(outcome[i].clone().unwrap()).or_default() += 1;
            r.multi_winner += (n.value(i) > 1) as u64;
            if let Some(d) = &discarder[i] {
                r.deal_ins[seat(d)] += 1;
            }
            if tai.is_valid(i) {
                r.deal_tai += tai.value(i) as u64;
            }
            for (s, name) in ["pay_e", "pay_s", "pay_w", "pay_n"].iter().enumerate() {
                r.pay[s] += b
                    .column_by_name(name)
                    .unwrap()
                    .as_primitive::<Int64Type>()
                    .value(i);
            }
        }
    }
    for b in batches(out, Table::Wins) {
        let winner = strings(&b, "winner");
        let tai = b
            .column_by_name("total_tai")
            .unwrap()
            .as_primitive::<UInt16Type>();
        let self_draw = b.column_by_name("self_draw").unwrap().as_boolean();
        for (i, w) in winner.iter().enumerate() {
            let s = seat(w.as_deref().unwrap());
            r.wins += 1;
            r.seat_wins[s] += 1;
            r.seat_self_drawn[s] += self_draw.value(i) as u64;
            r.win_tai += tai.value(i) as u64;
            *r.histogram.entry(tai.value(i)).or_default() += 1;
        }
    }
    for b in batches(out, Table::Tai) {
        let pattern = strings(&b, "pattern");
        let tai = b
            .column_by_name("tai")
            .unwrap()
            .as_primitive::<UInt16Type>();
        for (i, p) in pattern.iter().enumerate() {
            let e = r.patterns.entry(p.clone().unwrap()).or_default();
            e.0 += 1;
            e.1 += tai.value(i) as u64;
        }
    }
    r
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * (1.0 + a.abs().max(b.abs()))
}

#[test]
fn figures_agree_with_a_recount_of_the_rows() {
    let report = Report::from_run(sample(), &options(2, true)).unwrap();
    let r = recount(sample());
    assert_eq!(report.deals, 1_200);
    assert_eq!(report.deals, r.deals);
    assert_eq!(report.wins, r.wins);
    assert!(report.wins > 500, "greedy players win most deals");

    // Outcome rates per deal.
    for (i, name) in ["self_draw", "discard", "flower_win", "exhaustive_draw"]
        .iter()
        .enumerate()
    {
        assert_eq!(
            report.outcomes[i],
            r.outcomes.get(*name).copied().unwrap_or(0),
            "{name}"
        );
    }
    assert_eq!(report.outcomes.iter().sum::<u64>(), report.deals);
    let draws = r.outcomes.get("exhaustive_draw").copied().unwrap_or(0);
    assert!(close(
        report.won().rate().unwrap(),
        (r.deals - draws) as f64 / r.deals as f64
    ));
    assert_eq!(report.multi_winner_deals, r.multi_winner);
    // A deal with several winners has several win rows.
    assert!(report.wins >= r.deals - draws);

    // Expected tai: per win over win rows, per deal over deals (draws count 0), and the
    // deals' total_tai is the sum of their wins'.
    assert_eq!(report.tai_per_win.n, r.wins);
    assert!(close(
        report.tai_per_win.mean(),
        r.win_tai as f64 / r.wins as f64
    ));
    assert_eq!(report.tai_per_deal.n, r.deals);
    assert_eq!(r.deal_tai, r.win_tai);
    assert!(close(
        report.tai_per_deal.mean(),
        r.deal_tai as f64 / r.deals as f64
    ));

    // Seats: wins, deal-ins, payments summing to zero.
    let mut mean_pay_sum = 0.0;
    for s in 0..4 {
        let st = &report.seats[s];
        assert_eq!(st.wins, r.seat_wins[s], "seat {s}");
        assert_eq!(st.self_drawn, r.seat_self_drawn[s], "seat {s}");
        assert_eq!(st.deal_ins, r.deal_ins[s], "seat {s}");
        assert_eq!(st.pay.n, r.deals);
        assert_eq!(st.pay.sum, r.pay[s] as i128, "seat {s}");
        mean_pay_sum += st.pay.mean();
    }
    assert_eq!(report.seats.iter().map(|s| s.pay.sum).sum::<i128>(), 0);
    assert!(mean_pay_sum.abs() < 1e-9, "{mean_pay_sum}");
    assert_eq!(
        report.seats.iter().map(|s| s.wins).sum::<u64>(),
        report.wins
    );
    assert_eq!(report.seats[1].agent, "random");

    // The tai distribution covers every win once.
    let hist: BTreeMap<u16, u64> = report.tai_histogram.iter().copied().collect();
    assert_eq!(hist, r.histogram);
    assert_eq!(hist.values().sum::<u64>(), report.wins);

    // Patterns: per 1,000 wins, most frequent first.
    assert_eq!(report.patterns.len(), r.patterns.len());
    for p in &report.patterns {
        let (wins, tai) = r.patterns[&p.id];
        assert_eq!((p.wins, p.tai), (wins, tai), "{}", p.id);
        assert!(!p.name.is_empty());
        let f = report.pattern_frequency(p);
        let rate = f.rate().unwrap();
        assert!(close(1000.0 * rate, 1000.0 * wins as f64 / r.wins as f64));
        let (lo, hi) = f.ci95().unwrap();
        assert!(lo <= rate && rate <= hi);
        assert!(p.wins <= report.wins, "a pattern counts a win at most once");
    }
    for pair in report.patterns.windows(2) {
        assert!((pair[0].wins, &pair[1].id) >= (pair[1].wins, &pair[0].id));
    }
    assert_eq!(
        report.tai_rows,
        r.patterns.values().map(|p| p.0).sum::<u64>()
    );
}

#[test]
fn the_text_shows_the_figures() {
    let report = Report::from_run(sample(), &options(2, true)).unwrap();
    let text = report.to_terminal(None);
    assert!(
        text.contains("taiwan16 (builtin:taiwan16, sha256 "),
        "{text}"
    );
    assert!(text.contains(&report.spec.variant.sha256[..12]));
    assert!(
        text.contains("E greedy, S random, W defensive, N greedy"),
        "{text}"
    );
    assert!(text.contains("1,200 deals, seed 11"), "{text}");
    assert!(
        text.contains("parts 3 of 3 counted, checksums verified"),
        "{text}"
    );
    assert!(!text.contains("warning"), "{text}");
    let top = &report.patterns[0];
    let per_1000 = format!("{:.2}", 1000.0 * top.wins as f64 / report.wins as f64);
    let row = text
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("{} ", top.id)))
        .unwrap();
    assert!(row.contains(&per_1000), "{row}");
    let md = report.to_markdown(None);
    assert!(md.starts_with("# taisim report"));
    for section in [
        "Outcomes",
        "Expected tai",
        "By seat",
        "Patterns",
        "Tai distribution",
    ] {
        // A --deals run's by-seat table says what its rows are: the dealer and the others.
        let title = match section {
            "By seat" => "By seat: the dealer and the non-dealers",
            s => s,
        };
        assert!(text.contains(&format!("\n{title}\n")), "{section}");
        assert!(md.contains(&format!("\n## {title}\n")), "{section}");
    }
    assert!(
        text.contains("E (dealer)") && text.contains("N (non-dealer)"),
        "{text}"
    );
    assert!(
        text.contains("every deal was dealt by E in the E round"),
        "{text}"
    );
    // Every Markdown table row has as many cells as its header.
    let mut cells = None;
    for line in md.lines() {
        if line.starts_with('|') {
            let n = line.replace("\\|", "").matches('|').count();
            assert_eq!(*cells.get_or_insert(n), n, "{line}");
        } else {
            cells = None;
        }
    }
}

#[test]
fn top_limits_the_pattern_list() {
    let report = Report::from_run(sample(), &options(1, false)).unwrap();
    assert!(report.patterns.len() > 3);
    let md = report.to_markdown(Some(3));
    let section = md.split("## Patterns").nth(1).unwrap();
    let table = section.split("\n## ").next().unwrap();
    let rows = table.lines().filter(|l| l.starts_with('|')).count();
    assert_eq!(rows, 2 + 3, "header, alignment, three patterns");
    assert!(table.contains(&format!("the top 3 of {} patterns", report.patterns.len())));
    assert_eq!(report.to_markdown(Some(1000)), report.to_markdown(None));
}

#[test]
fn reports_do_not_depend_on_threads_or_checksum_checks() {
    let one = Report::from_run(sample(), &options(1, true)).unwrap();
    let three = Report::from_run(sample(), &options(3, true)).unwrap();
    assert_eq!(one, three);
    assert_eq!(one.to_terminal(None), three.to_terminal(None));
    assert_eq!(one.to_markdown(Some(5)), three.to_markdown(Some(5)));
    let quick = Report::from_run(sample(), &options(2, false)).unwrap();
    assert!(!quick.checksums_verified);
    assert_eq!(
        Report {
            checksums_verified: true,
            ..quick
        },
        one
    );
}

#[test]
fn wilson_intervals_match_published_values() {
    // Newcombe (1998), "Two-sided confidence intervals for the single proportion", method 3.
    for (k, n, lo, hi) in [
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ] {
        let (l, h) = wilson_interval(k, n, 1.96);
        assert!(
            (l - lo).abs() < 5e-5 && (h - hi).abs() < 5e-5,
            "{k}/{n}: {l} {h}"
        );
    }
    assert_eq!(Proportion::new(10, 10).ci95().unwrap().1, 1.0);
    assert!((Proportion::new(0, 10).ci95().unwrap().1 - 0.27754).abs() < 1e-5);
    assert_eq!(Proportion::new(0, 10).rate(), Some(0.0));
    // A rate of nothing has no value and no interval (not 0 in [0, 0]).
    assert_eq!(Proportion::new(0, 0).ci95(), None);
    assert_eq!(Proportion::new(0, 0).rate(), None);
}

#[test]
fn shards_make_the_whole_run_and_missing_ones_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let sharded = dir.path().join("sharded");
    for k in 1..=3 {
        let s = RunSpec {
            shard: Shard { index: k, count: 3 },
            ..spec()
        };
        run_into(&sharded, &s);
    }
    let whole = Report::from_run(sample(), &options(2, true)).unwrap();
    let parts = Report::from_run(&sharded, &options(2, true)).unwrap();
    assert!(parts.warnings.is_empty(), "{:?}", parts.warnings);
    assert_eq!(parts.shards_present.len(), 3);
    assert_eq!(
        (
            parts.deals,
            parts.wins,
            &parts.patterns,
            &parts.tai_histogram
        ),
        (
            whole.deals,
            whole.wins,
            &whole.patterns,
            &whole.tai_histogram
        )
    );
    assert!(parts
        .to_terminal(None)
        .contains("3 of 3 present (1/3, 2/3, 3/3)"));

    std::fs::remove_file(sharded.join(Manifest::file_name(Shard { index: 2, count: 3 }))).unwrap();
    let partial = Report::from_run(&sharded, &options(2, true)).unwrap();
    assert_eq!(partial.parts_counted, 2);
    assert_eq!(partial.deals, 500 + 200, "parts 0 and 2");
    let text = partial.to_terminal(None);
    assert!(
        text.contains("warning: shard 2/3 of this 3-shard run has no manifest"),
        "{text}"
    );
    assert!(partial.to_markdown(None).contains("**Warning**"));
}

/// A split of many shards of which few are here: the warning counts the missing ones and
/// names the first few, rather than every one of thousands on one line.
#[test]
fn many_missing_shards_are_summarised() {
    let dir = tempfile::tempdir().unwrap();
    let s = RunSpec {
        count: 40,
        part_size: 1,
        agents: parse_agents("random").unwrap(),
        ..spec()
    };
    for index in [1, 3] {
        let shard = RunSpec {
            shard: Shard { index, count: 40 },
            ..s.clone()
        };
        run_into(dir.path(), &shard);
    }
    let report = Report::from_run(dir.path(), &options(1, true)).unwrap();
    assert_eq!(report.parts_counted, 2);
    let warning = &report.warnings[0];
    assert_eq!(
        warning,
        "38 shards of this 40-shard run have no manifest here (2/40, 4/40, 5/40, 6/40, 7/40, … and 33 more): 2 of 40 parts are counted"
    );
}

#[test]
fn deals_are_found_in_their_parts() {
    let run = Run::open(sample()).unwrap();
    assert!(run.is_complete());
    let part = |id| run.part_of_deal(id).map(|p| p.index);
    assert_eq!(part(0), Some(0));
    assert_eq!(part(499), Some(0));
    assert_eq!(part(500), Some(1));
    assert_eq!(part(1_199), Some(2));
    assert_eq!(part(1_200), None);
}

fn expect_corrupt(out: &Path, verify: bool, file: &str, words: &str) {
    let err = Report::from_run(out, &options(2, verify)).unwrap_err();
    let message = err.to_string();
    assert!(
        matches!(err, HarnessError::Corrupt { .. }),
        "{message} ({err:?})"
    );
    assert!(message.contains(file), "{message} should name {file}");
    assert!(message.contains(words), "{message} should say {words}");
}

#[test]
fn paths_that_are_not_runs_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let err = Report::from_run(&dir.path().join("nowhere"), &options(1, true)).unwrap_err();
    assert!(matches!(err, HarnessError::Usage(_)), "{err}");
    assert!(err.to_string().contains("nowhere"), "{err}");
    let err = Report::from_run(dir.path(), &options(1, true)).unwrap_err();
    assert!(matches!(err, HarnessError::Usage(_)), "{err}");
    assert!(err.to_string().contains("no manifest.json"), "{err}");
}

#[test]
fn damaged_parts_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let out = copy_of_sample(dir.path());
    let wins = part_path(&out, Table::Wins, 1);
    let bytes = std::fs::read(&wins).unwrap();
    // Same length, one byte changed inside the data pages.
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 3] ^= 0x55;
    std::fs::write(&wins, &flipped).unwrap();
    expect_corrupt(&out, true, "wins/part-00001.parquet", "SHA-256");
    // Truncated: without checksums, the footer cannot be read.
    std::fs::write(&wins, &bytes[..bytes.len() / 2]).unwrap();
    expect_corrupt(&out, false, "wins/part-00001.parquet", "Parquet");
    std::fs::remove_file(&wins).unwrap();
    expect_corrupt(&out, false, "wins/part-00001.parquet", "missing");
}

/// Rewrites the manifest through `edit`.
fn edit_manifest(out: &Path, edit: impl FnOnce(&mut Manifest)) {
    let mut m = Manifest::read(&out.join("manifest.json")).unwrap();
    edit(&mut m);
    m.write(out).unwrap();
}

#[test]
fn manifests_that_disagree_with_the_files_are_caught() {
    let dir = tempfile::tempdir().unwrap();
    let out = copy_of_sample(dir.path());

    // Rows that disagree with the footer (the totals kept consistent).
    edit_manifest(&out, |m| {
        m.parts[2].tai.rows += 1;
        m.rows.tai += 1;
    });
    expect_corrupt(&out, false, "tai/part-00002.parquet", "footer");
    // Totals that disagree with the parts.
    edit_manifest(&out, |m| m.parts[2].tai.rows -= 1);
    expect_corrupt(&out, false, "manifest.json", "add up");
    edit_manifest(&out, |m| m.rows.tai -= 1);
    Report::from_run(&out, &options(2, true)).unwrap();

    // A checksum that disagrees with the bytes.
    let good = Manifest::read(&out.join("manifest.json")).unwrap();
    edit_manifest(&out, |m| m.parts[0].deals.sha256 = "0".repeat(64));
    expect_corrupt(&out, true, "deals/part-00000.parquet", "SHA-256");
    Report::from_run(&out, &options(2, false)).unwrap();
    good.write(&out).unwrap();

    // Another part's wins under this part's name, recorded faithfully: the files are
    // intact, but the part's deals and wins disagree.
    let (w0, w1) = (
        part_path(&out, Table::Wins, 0),
        part_path(&out, Table::Wins, 1),
    );
    std::fs::copy(&w1, &w0).unwrap();
    edit_manifest(&out, |m| {
        let mut record = m.parts[1].wins.clone();
        record.file = m.parts[0].wins.file.clone();
        m.rows.wins = m.rows.wins - m.parts[0].wins.rows + record.rows;
        m.parts[0].wins = record;
    });
    let err = Report::from_run(&out, &options(2, true)).unwrap_err();
    assert!(matches!(err, HarnessError::Corrupt { .. }), "{err}");
    assert!(err.to_string().contains("part-00000.parquet"), "{err}");
    good.write(&out).unwrap();
    std::fs::copy(part_path(sample(), Table::Wins, 0), &w0).unwrap();

    // A variant file that is not the one the run was played with.
    let variant = out.join("variant.toml");
    let text = std::fs::read_to_string(&variant).unwrap();
    std::fs::write(&variant, text.replace("taiwan16", "taiwan16x")).unwrap();
    expect_corrupt(&out, true, "variant.toml", "SHA-256");
    std::fs::write(&variant, text).unwrap();
    Report::from_run(&out, &options(2, true)).unwrap();
}

/// Rewrites part `p`'s file of `table` with `edit` applied to its rows (its footer's
/// `taisim.part` kept) and records the new file in the manifest: the part as a damaged file
/// may decode, each table valid alone, and the run's record of its bytes in step with it.
fn rewrite_part(out: &Path, table: Table, p: usize, edit: impl Fn(RecordBatch) -> RecordBatch) {
    use parquet::arrow::ArrowWriter;
    use parquet::file::properties::WriterProperties;
    let path = part_path(out, table, p as u64);
    let builder = ParquetRecordBatchReaderBuilder::try_new(File::open(&path).unwrap()).unwrap();
    let kv: Vec<_> = builder
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .unwrap()
        .iter()
        .filter(|kv| kv.key != "ARROW:schema")
        .cloned()
        .collect();
    let schema = builder.schema().clone();
    let batches: Vec<RecordBatch> = builder.build().unwrap().map(|b| edit(b.unwrap())).collect();
    let props = WriterProperties::builder()
        .set_key_value_metadata(Some(kv))
        .build();
    let mut writer =
        ArrowWriter::try_new(File::create(&path).unwrap(), schema, Some(props)).unwrap();
    for b in &batches {
        writer.write(b).unwrap();
    }
    writer.close().unwrap();
    let bytes = std::fs::read(&path).unwrap();
    edit_manifest(out, |m| {
        let record = match table {
            Table::Deals => &mut m.parts[p].deals,
            Table::Wins => &mut m.parts[p].wins,
            _ => &mut m.parts[p].tai,
        };
        record.bytes = bytes.len() as u64;
        record.sha256 = taisim_datasets::sha256_hex(&bytes);
    });
}

/// `batch` with column `name` replaced by `column`.
fn with_column(batch: RecordBatch, name: &str, column: arrow_array::ArrayRef) -> RecordBatch {
    let i = batch.schema().index_of(name).unwrap();
    let mut columns = batch.columns().to_vec();
    columns[i] = column;
    RecordBatch::try_new(batch.schema(), columns).unwrap()
}

/// `batch` with row `row` of the integer column `name` raised by one.
fn raise_one<T>(batch: RecordBatch, name: &str, row: usize) -> RecordBatch
where
    T: arrow_array::ArrowPrimitiveType,
    T::Native: std::ops::Add<Output = T::Native> + From<u8>,
{
    let column = batch.column_by_name(name).unwrap().as_primitive::<T>();
    let raised: arrow_array::PrimitiveArray<T> = column
        .iter()
        .enumerate()
        .map(|(i, v)| v.map(|v| if i == row { v + T::Native::from(1) } else { v }))
        .collect();
    with_column(batch, name, std::sync::Arc::new(raised))
}

/// The tables of a part are checked against each other, not only against the manifest's
/// checksums: a settlement that does not balance, a deal whose total is not its wins', a
/// win whose total is not its patterns', a pattern taisim does not score. Each rewritten
/// part is a valid Parquet file that the manifest records faithfully, so only these
/// recomputes can tell (as when `--no-checksums` reads a damaged file that still decodes).
#[test]
fn tables_that_disagree_with_each_other_are_caught() {
    use arrow_array::{DictionaryArray, StringArray};
    use std::sync::Arc;
    let dir = tempfile::tempdir().unwrap();
    let out = copy_of_sample(dir.path());
    let good: Vec<(Table, Vec<u8>)> = [Table::Deals, Table::Tai]
        .map(|t| (t, std::fs::read(part_path(&out, t, 1)).unwrap()))
        .into();
    let manifest = Manifest::read(&out.join("manifest.json")).unwrap();
    let restore = || {
        for (t, bytes) in &good {
            std::fs::write(part_path(&out, *t, 1), bytes).unwrap();
        }
        manifest.write(&out).unwrap();
        Report::from_run(&out, &options(2, true)).unwrap();
    };
    restore();

    // A payment moved onto one seat only.
    rewrite_part(&out, Table::Deals, 1, |b| {
        raise_one::<Int64Type>(b, "pay_e", 3)
    });
    for verify in [true, false] {
        expect_corrupt(
            &out,
            verify,
            "deals/part-00001.parquet",
            "payments sum to 1, not 0",
        );
    }
    restore();

    // A deal's total one tai above its wins'.
    rewrite_part(&out, Table::Deals, 1, |b| {
        let total = b.column_by_name("total_tai").unwrap();
        let first_win = (0..total.len()).find(|&i| total.is_valid(i)).unwrap();
        raise_one::<UInt16Type>(b, "total_tai", first_win)
    });
    expect_corrupt(
        &out,
        false,
        "deals/part-00001.parquet",
        "but the wins table has",
    );
    restore();

    // A pattern row one tai above what its win totals.
    rewrite_part(&out, Table::Tai, 1, |b| {
        raise_one::<UInt16Type>(b, "tai", 0)
    });
    expect_corrupt(
        &out,
        false,
        "tai/part-00001.parquet",
        "but its pattern rows sum to",
    );
    restore();

    // A pattern id taisim never scores.
    rewrite_part(&out, Table::Tai, 1, |b| {
        let pattern = b
            .column_by_name("pattern")
            .unwrap()
            .as_dictionary::<Int8Type>();
        let values = pattern.values().as_string::<i32>();
        let renamed: StringArray = values.iter().map(|v| v.map(|v| format!("{v}x"))).collect();
        let column =
            DictionaryArray::<Int8Type>::try_new(pattern.keys().clone(), Arc::new(renamed))
                .unwrap();
        with_column(b, "pattern", Arc::new(column))
    });
    expect_corrupt(&out, false, "tai/part-00001.parquet", "unexpected value");
}

/// Under a points variant each win's 胡 is its pattern rows' (each row's count times its
/// pattern's 胡 in the run's variant): a count changed in the tai table is caught.
#[test]
fn a_points_wins_hu_is_its_patterns() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("taizhou");
    let variant = RunVariant::by_name_or_path("taizhou").unwrap();
    let v = variant.variant().clone();
    let spec = RunSpec {
        variant,
        count: 200,
        part_size: 200,
        agents: parse_agents("greedy").unwrap(),
        base: v.settlement().base,
        per_tai: v.settlement().per_tai,
        ..spec()
    };
    run_into(&out, &spec);
    let report = Report::from_run(&out, &options(1, true)).unwrap();
    let points = report.points.as_ref().unwrap();
    let patterns_hu: u64 = report.patterns.iter().map(|p| p.hu.unwrap()).sum();
    assert_eq!(patterns_hu as i128, points.hu_per_win.sum);

    // The first row of a pattern worth 胡 counted once more.
    rewrite_part(&out, Table::Tai, 0, |b| {
        let pattern = strings(&b, "pattern");
        let row = pattern
            .iter()
            .position(|p| {
                let id = taisim_score::PatternId::from_id(p.as_deref().unwrap()).unwrap();
                v.pattern_hu(id) > 0
            })
            .unwrap();
        raise_one::<UInt8Type>(b, "count", row)
    });
    expect_corrupt(
        &out,
        false,
        "tai/part-00000.parquet",
        "pattern rows' 胡 sum to",
    );
}

#[test]
fn unfinished_shards_are_warned_about() {
    let dir = tempfile::tempdir().unwrap();
    let out = copy_of_sample(dir.path());
    edit_manifest(&out, |m| {
        m.status = taisim_datasets::Status::Running;
        m.parts.truncate(1);
        m.rows = taisim_datasets::Rows {
            deals: m.parts[0].deals.rows,
            wins: m.parts[0].wins.rows,
            tai: m.parts[0].tai.rows,
            decisions: 0,
        };
    });
    let report = Report::from_run(&out, &options(2, true)).unwrap();
    assert_eq!(report.deals, 500);
    assert_eq!(report.warnings.len(), 1, "{:?}", report.warnings);
    assert!(
        report.warnings[0].contains("status running"),
        "{:?}",
        report.warnings
    );
    assert!(report.to_terminal(None).contains("parts 1 of 3 counted"));
}
