//! Runs of the all-pairs variant (taizhou) read back: the wins table's settlement columns
//! agree with the deals table and with a settlement recomputed from the values, the report's
//! figures with a recount of the rows, a replay with the rows; and runs of the tai variants
//! are byte for byte what they were before those columns existed.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::path::Path;

use arrow_array::cast::AsArray;
use arrow_array::types::{Int64Type, UInt16Type, UInt32Type, UInt64Type};
use arrow_array::{Array, RecordBatch};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use taisim_agents::parse_agents;
use taisim_datasets::{
    part_path, replay, simulate, variant_schema, Manifest, Report, ReportOptions, RunOptions,
    RunSpec, RunVariant, Shard, Table, Unit,
};
use taisim_score::{settle_all_pairs, Variant};
use taisim_sim::{BySeat, Deal, DealContext, Wind};

/// The taizhou variant with no wild turned up: its points model and all-pairs settlement
/// as shipped, over hands without wilds. Written into `dir`; returns its path.
fn taizhou_without_wild(dir: &Path) -> String {
    let text = Variant::builtin_text("taizhou").unwrap();
    let edited = text
        .replacen("name = \"taizhou\"", "name = \"taizhou-nowild\"", 1)
        .replacen("wild_indicator = true", "wild_indicator = false", 1);
    assert_ne!(edited, text);
    let path = dir.join("taizhou-nowild.toml");
    std::fs::write(&path, edited).unwrap();
    path.to_str().unwrap().to_string()
}

/// Declares a test running `body` on the shipped taizhou variant, and one on a copy that
/// turns up no wild (the same settlement with plain hands).
macro_rules! on_both_variants {
    ($body:ident, $without_wild:ident, $shipped:ident) => {
        #[test]
        fn $without_wild() {
            let dir = tempfile::tempdir().unwrap();
            $body(&taizhou_without_wild(dir.path()), dir.path());
        }

        #[test]
        fn $shipped() {
            let dir = tempfile::tempdir().unwrap();
            $body("taizhou", dir.path());
        }
    };
}

fn spec(variant: &str, count: u64, part_size: u64, agents: &str) -> (RunSpec, Variant) {
    let variant = RunVariant::by_name_or_path(variant).unwrap();
    let v = Variant::clone(variant.variant());
    let spec = RunSpec {
        variant,
        unit: Unit::Deals,
        count,
        seed: 11,
        agents: parse_agents(agents).unwrap(),
        part_size,
        shard: Shard::WHOLE,
        log_actions: false,
        decisions: None,
        label_with: None,
        base: v.settlement().base,
        per_tai: v.settlement().per_tai,
    };
    (spec, v)
}

fn options(threads: usize) -> RunOptions {
    RunOptions {
        threads: Some(threads),
        ..RunOptions::default()
    }
}

/// A table's rows, every part in order, as one batch; each part's schema is checked against
/// the one the variant calls for.
fn read_table(out: &Path, table: Table, variant: &Variant) -> RecordBatch {
    let mut parts: Vec<u64> = Manifest::read_all(out)
        .unwrap()
        .iter()
        .flat_map(|m| m.parts.iter().map(|p| p.index))
        .collect();
    parts.sort();
    let schema = variant_schema(table, false, variant);
    let mut batches = Vec::new();
    for p in parts {
        let file = File::open(part_path(out, table, p)).unwrap();
        let reader = ParquetRecordBatchReaderBuilder::try_new(file)
            .unwrap()
            .build()
            .unwrap();
        for b in reader {
            let b = b.unwrap();
            assert_eq!(b.schema(), schema, "{} part {p}", table.dir());
            batches.push(b);
        }
    }
    arrow_select::concat::concat_batches(&schema, &batches).unwrap()
}

fn u64s(batch: &RecordBatch, name: &str) -> Vec<u64> {
    batch
        .column_by_name(name)
        .unwrap_or_else(|| panic!("no column {name}"))
        .as_primitive::<UInt64Type>()
        .values()
        .to_vec()
}

fn i64s(batch: &RecordBatch, name: &str) -> Vec<i64> {
    batch
        .column_by_name(name)
        .unwrap_or_else(|| panic!("no column {name}"))
        .as_primitive::<Int64Type>()
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

fn seat(s: &str) -> Wind {
    Wind::from_char(s.chars().next().unwrap()).unwrap()
}

const SUFFIX: [&str; 4] = ["e", "s", "w", "n"];

/// The wins table's settlement of one deal, as read back.
struct WinRead {
    winner: Wind,
    responsible: Option<Wind>,
    values: [u64; 4],
    pays: [i64; 4],
    payment: i64,
    hu: u32,
    tai: u16,
    points: u64,
}

fn wins_by_deal(wins: &RecordBatch) -> HashMap<u64, Vec<WinRead>> {
    let ids = u64s(wins, "deal_id");
    let winner = strs(wins, "winner");
    let responsible = strs(wins, "responsible");
    let values: Vec<Vec<u64>> = SUFFIX
        .iter()
        .map(|s| u64s(wins, &format!("value_{s}")))
        .collect();
    let pays: Vec<Vec<i64>> = SUFFIX
        .iter()
        .map(|s| i64s(wins, &format!("pay_{s}")))
        .collect();
    let payment = i64s(wins, "payment");
    let hu = wins
        .column_by_name("hu")
        .unwrap()
        .as_primitive::<UInt32Type>();
    let tai = wins
        .column_by_name("total_tai")
        .unwrap()
        .as_primitive::<UInt16Type>();
    let points = u64s(wins, "points");
    let mut out: HashMap<u64, Vec<WinRead>> = HashMap::new();
    for i in 0..wins.num_rows() {
        out.entry(ids[i]).or_default().push(WinRead {
            winner: seat(winner[i].as_deref().unwrap()),
            responsible: responsible[i].as_deref().map(seat),
            values: [0, 1, 2, 3].map(|s| values[s][i]),
            pays: [0, 1, 2, 3].map(|s| pays[s][i]),
            payment: payment[i],
            hu: hu.value(i),
            tai: tai.value(i),
            points: points[i],
        });
    }
    out
}

/// Every agent kind plays taizhou; the tables read back as the variant's schema says, and
/// every deal's settlement checks out: payments sum to zero, the wins row carries the
/// deals row's payments, the winner's value is its points ((底胡 + 胡) × 2^台 capped, as
/// the scoring model computes it), and the payments are the all-pairs settlement of the
/// values recomputed here (shared/rules/README.md "taizhou": "Settlement"), in halves of a
/// point times per_tai. A drawn deal settles nothing (README: "an exhaustive draw settles
/// nothing").
fn runs_read_back_settled_among_all_pairs(name: &str, dir: &Path) {
    for agents in [
        "random",
        "greedy",
        "defensive",
        "greedy,random,defensive,random",
    ] {
        let out = dir.join(agents.replace(',', "-"));
        let (s, variant) = spec(name, 600, 250, agents);
        simulate(&s, &out, &options(2)).unwrap();
        let deals = read_table(&out, Table::Deals, &variant);
        let wins = read_table(&out, Table::Wins, &variant);
        read_table(&out, Table::Tai, &variant);
        assert_eq!(deals.num_rows(), 600);
        let by_deal = wins_by_deal(&wins);
        let ids = u64s(&deals, "deal_id");
        let outcome = strs(&deals, "outcome");
        let dealer = strs(&deals, "dealer");
        let deal_pays: Vec<Vec<i64>> = SUFFIX
            .iter()
            .map(|s| i64s(&deals, &format!("pay_{s}")))
            .collect();
        let mut settled = 0;
        for i in 0..deals.num_rows() {
            let pays = [0, 1, 2, 3].map(|s| deal_pays[s][i]);
            assert_eq!(pays.iter().sum::<i64>(), 0, "deal {} pays {pays:?}", ids[i]);
            let rows = by_deal.get(&ids[i]);
            if outcome[i].as_deref() == Some("exhaustive_draw") {
                assert!(rows.is_none(), "a drawn deal has no wins row");
                assert_eq!(pays, [0; 4], "a drawn deal settles nothing");
                continue;
            }
            let rows = rows.unwrap_or_else(|| panic!("deal {} won but has no wins row", ids[i]));
            assert_eq!(rows.len(), 1, "taizhou has one winner a deal");
            let r = &rows[0];
            assert_eq!(r.pays, pays, "deal {}: the wins row's payments", ids[i]);
            assert_eq!(r.payment, pays[r.winner as usize]);
            assert_eq!(r.values[r.winner as usize], r.points);
            assert_eq!(
                variant.scoring().value(r.hu, r.tai as u32).points,
                r.points,
                "deal {}: points of {} 胡 and {} 台",
                ids[i],
                r.hu,
                r.tai
            );
            assert!(r.points <= 100, "the cap (勒子) is 100");
            let d = seat(dealer[i].as_deref().unwrap());
            let points = settle_all_pairs(r.winner, d, BySeat(r.values), r.responsible).unwrap();
            for s in Wind::ALL {
                let money = points[s].halves() * s_per_tai(&variant) / 2;
                assert_eq!(points[s].halves() * s_per_tai(&variant) % 2, 0);
                assert_eq!(money, pays[s as usize], "deal {} seat {s}", ids[i]);
            }
            assert!(pays[r.winner as usize] > 0, "the winner is paid");
            settled += 1;
        }
        // Random agents win about one deal in thirty.
        assert!(settled >= 10, "{agents}: only {settled} deals were won");
    }
}

on_both_variants!(
    runs_read_back_settled_among_all_pairs,
    taizhou_without_wild_runs_read_back_settled_among_all_pairs,
    taizhou_runs_read_back_settled_among_all_pairs
);

fn s_per_tai(variant: &Variant) -> i64 {
    variant.settlement().per_tai
}

/// The report's taizhou figures are those of a recount of the Parquet rows: 胡 and points
/// moments, the points histogram and its quantiles, the 全包 count, and the dealer's and
/// non-dealers' payments. A tai variant's report has none of them.
fn report_figures_match_a_recount(name: &str, dir: &Path) {
    let out = dir.join("run");
    let (s, variant) = spec(name, 900, 400, "greedy");
    simulate(&s, &out, &options(2)).unwrap();
    let report = Report::from_run(
        &out,
        &ReportOptions {
            verify_checksums: true,
            threads: Some(2),
        },
    )
    .unwrap();
    let deals = read_table(&out, Table::Deals, &variant);
    let wins = read_table(&out, Table::Wins, &variant);
    let by_deal = wins_by_deal(&wins);

    let mut hist: BTreeMap<u64, u64> = BTreeMap::new();
    let (mut hu_sum, mut points_sum, mut responsible) = (0u64, 0u64, 0u64);
    for r in by_deal.values().flatten() {
        *hist.entry(r.points).or_default() += 1;
        hu_sum += r.hu as u64;
        points_sum += r.points;
        responsible += r.responsible.is_some() as u64;
    }
    let p = report.points.as_ref().expect("a points variant's report");
    assert_eq!(p.hu_per_win.n, wins.num_rows() as u64);
    assert_eq!(p.hu_per_win.sum, hu_sum as i128);
    assert_eq!(p.points_per_win.sum, points_sum as i128);
    assert_eq!(
        p.points_histogram,
        hist.clone().into_iter().collect::<Vec<_>>()
    );
    // The median recounted: the least points with at least half the wins at or below.
    let mut sorted: Vec<u64> = by_deal.values().flatten().map(|r| r.points).collect();
    sorted.sort();
    assert_eq!(p.points_quantile(0.5), sorted[sorted.len().div_ceil(2) - 1]);
    assert_eq!(p.points_quantile(1.0), *sorted.last().unwrap());
    assert_eq!(p.points_quantile(0.0), sorted[0]);

    // Each pattern's 胡, recounted from the tai table's counts and the variant's values; they
    // add up to the wins' 胡.
    let tai = read_table(&out, Table::Tai, &variant);
    let counts = tai
        .column_by_name("count")
        .unwrap()
        .as_primitive::<arrow_array::types::UInt8Type>();
    let mut hu_of: BTreeMap<String, u64> = BTreeMap::new();
    for (i, id) in strs(&tai, "pattern").into_iter().enumerate() {
        let id = id.unwrap();
        let value = variant.pattern_hu(taisim_score::PatternId::from_id(&id).unwrap());
        *hu_of.entry(id).or_default() += value as u64 * counts.value(i) as u64;
    }
    for pattern in &report.patterns {
        assert_eq!(pattern.hu, Some(hu_of[&pattern.id]), "{}", pattern.id);
    }
    assert_eq!(hu_of.values().sum::<u64>(), hu_sum);
    assert!(
        report.patterns.iter().any(|p| p.hu > Some(0) && p.tai == 0),
        "patterns that give 胡 alone"
    );

    let a = report
        .all_pairs
        .as_ref()
        .expect("an all-pairs variant's report");
    assert_eq!(a.responsible_wins, responsible);
    let dealer = strs(&deals, "dealer");
    let (mut dealer_sum, mut others_sum) = (0i128, 0i128);
    for (k, sfx) in SUFFIX.iter().enumerate() {
        for (i, pay) in i64s(&deals, &format!("pay_{sfx}")).into_iter().enumerate() {
            if seat(dealer[i].as_deref().unwrap()) as usize == k {
                dealer_sum += pay as i128;
            } else {
                others_sum += pay as i128;
            }
        }
    }
    // The non-dealers' payments are summed a deal: one sample a deal, as the dealer's.
    assert_eq!((a.dealer_pay.n, a.non_dealer_pay.sum.n), (900, 900));
    assert_eq!(a.non_dealer_pay.seats, 3);
    assert_eq!(
        (a.dealer_pay.sum, a.non_dealer_pay.sum.sum),
        (dealer_sum, others_sum)
    );
    // The seats' sums balance: what the dealers pay, the others receive.
    assert_eq!(dealer_sum + others_sum, 0);

    let text = report.to_terminal(None);
    for heading in [
        "Points (胡數)",
        "Points distribution",
        "All-pairs settlement",
        "全包",
        "mean 胡",
    ] {
        assert!(text.contains(heading), "{heading} missing from\n{text}");
    }
    let json = report.to_json();
    assert_eq!(
        json["points"]["points_per_win"]["n"],
        wins.num_rows() as u64
    );
    assert_eq!(json["all_pairs"]["responsible"]["count"], responsible);
    assert_eq!(
        json["points"]["points_quantiles"]["max"],
        *sorted.last().unwrap()
    );

    // A tai variant's report has no points or all-pairs figures.
    let out = dir.join("tai");
    let (s, _) = spec("taiwan16", 300, 300, "greedy");
    simulate(&s, &out, &options(1)).unwrap();
    let report = Report::from_run(&out, &ReportOptions::default()).unwrap();
    assert!(report.points.is_none() && report.all_pairs.is_none());
    assert!(!report.to_terminal(None).contains("Points"));
    assert!(!report.to_terminal(None).contains("胡/win"));
    assert!(report.to_json()["points"].is_null());
    assert!(report.patterns.iter().all(|p| p.hu.is_none()));
    assert!(report.to_json()["patterns"][0]["mean_hu"].is_null());
}

on_both_variants!(
    report_figures_match_a_recount,
    taizhou_without_wild_report_figures_match_a_recount,
    taizhou_report_figures_match_a_recount
);

/// Taizhou runs are deterministic like the others: the same files on one and two threads,
/// and two shards make the whole run's files.
fn files_do_not_depend_on_threads_or_shards(name: &str, dir: &Path) {
    let (s, _) = spec(name, 500, 100, "random,greedy,defensive,greedy");
    let sums = |out: &Path| -> Vec<(u64, String, String, String)> {
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
    };
    simulate(&s, &dir.join("one"), &options(1)).unwrap();
    simulate(&s, &dir.join("two"), &options(2)).unwrap();
    let sharded = dir.join("sharded");
    for k in 1..=2 {
        let shard = RunSpec {
            shard: Shard { index: k, count: 2 },
            ..s.clone()
        };
        simulate(&shard, &sharded, &options(1)).unwrap();
    }
    let whole = sums(&dir.join("one"));
    assert_eq!(whole.len(), 5);
    assert_eq!(whole, sums(&dir.join("two")));
    assert_eq!(whole, sums(&sharded));
}

on_both_variants!(
    files_do_not_depend_on_threads_or_shards,
    taizhou_without_wild_files_do_not_depend_on_threads_or_shards,
    taizhou_files_do_not_depend_on_threads_or_shards
);

/// A taizhou replay shows the wild (its indicator as the deal turns it up), every seat's
/// value and the settlement, each as the run's rows have them.
fn replay_shows_the_wild_values_and_settlement(name: &str, dir: &Path) {
    let out = dir.join("run");
    let (s, variant) = spec(name, 120, 60, "greedy");
    simulate(&s, &out, &options(2)).unwrap();
    let deals = read_table(&out, Table::Deals, &variant);
    let wins = read_table(&out, Table::Wins, &variant);
    let by_deal = wins_by_deal(&wins);
    let seeds = u64s(&deals, "seed");
    let outcome = strs(&deals, "outcome");
    let mut won = 0;
    for id in 0..120u64 {
        let mut text = Vec::new();
        replay(&out, id, &mut text).unwrap_or_else(|e| panic!("deal {id}: {e}"));
        let text = String::from_utf8(text).unwrap();
        let deal = Deal::new(variant.rules(), seeds[id as usize], DealContext::FIRST).unwrap();
        match (deal.wild_indicator(), deal.wild()) {
            (Some(indicator), Some(wild)) => {
                let line = format!("得牌: {indicator} turned up; wild kind {wild} ");
                assert!(text.contains(&line), "deal {id}: no {line:?} in\n{text}");
            }
            _ => assert!(!text.contains("得牌"), "deal {id}: no wild, yet\n{text}"),
        }
        let pays: Vec<i64> = SUFFIX
            .iter()
            .map(|sfx| i64s(&deals, &format!("pay_{sfx}"))[id as usize])
            .collect();
        let line = format!(
            "payments: E {} S {} W {} N {}",
            pays[0], pays[1], pays[2], pays[3]
        );
        assert!(text.contains(&line), "deal {id}: no {line:?} in\n{text}");
        if outcome[id as usize].as_deref() == Some("exhaustive_draw") {
            assert!(text.contains("drawn: nothing is settled"), "{text}");
            continue;
        }
        let r = &by_deal[&id][0];
        let v = r.values;
        let line = format!("values: E {} S {} W {} N {}", v[0], v[1], v[2], v[3]);
        assert!(text.contains(&line), "deal {id}: no {line:?} in\n{text}");
        assert!(text.contains("settlement in points: "), "{text}");
        assert!(
            text.contains(&format!("{} 台: {} points", r.tai, r.points)),
            "deal {id}: {text}"
        );
        won += 1;
    }
    assert!(won > 5, "only {won} deals were won");
}

on_both_variants!(
    replay_shows_the_wild_values_and_settlement,
    taizhou_without_wild_replay_shows_the_values_and_settlement,
    taizhou_replay_shows_the_wild_values_and_settlement
);

/// The 得牌 line of a replay: the indicator the deal turns up and the wild kind, with 白板
/// standing for it (taizhou.md 「得牌」; shared/rules/README.md "taizhou": "白板"). Only the
/// deal is played here, so it needs no scoring of wilds.
#[test]
fn taizhou_replay_names_the_wild_and_its_stand_in() {
    let variant = Variant::builtin("taizhou").unwrap();
    for seed in 0..40u64 {
        let deal = Deal::new(variant.rules(), seed, DealContext::FIRST).unwrap();
        let indicator = deal.wild_indicator().expect("taizhou turns up a wild");
        let wild = deal.wild().unwrap();
        assert_eq!(indicator.to_string(), wild.to_string());
        let line = taisim_datasets::wild_line(&deal).unwrap();
        assert!(
            line.starts_with(&format!("得牌: {indicator} turned up; wild kind {wild} ")),
            "{line}"
        );
        if wild.to_string() == "P" {
            assert!(line.contains("nothing stands in for them"), "{line}");
        } else {
            assert!(
                line.contains(&format!("白板 (P) stands for {wild}")),
                "{line}"
            );
        }
    }
}

/// The SHA-256 of every file of a small run of each tai variant, as the harness wrote them
/// before the all-pairs columns existed: a tai variant's run stays byte for byte the same.
/// (Computed with the harness of the commit that shipped the taizhou variant file, 7b85d12:
/// `taisim simulate --variant V --deals 300 --part-size 100 --agents greedy --seed 11`.)
///
/// Since footers record the run each part belongs to (key `taisim.part`), the files differ
/// from 7b85d12's in their footers alone: the first hash, of every byte before each footer
/// (the row groups), is still 7b85d12's (checked against that harness's files when the key
/// was added); the second is of the whole files as they are now. The footer records the
/// variant's SHA-256, so taiwan16-2015's whole-file hash moved when its file gained the
/// exclusion closures of issue 22 (its row groups, the first hash, did not).
///
/// Issue 25 gave the wins and tai tables a `variant` column and the footers format
/// taisim-part/2, so the first two hashes were pinned again (after checking with DuckDB that
/// every column but the new one holds the rows of 78d0fed's binary, which gave the old
/// hashes). The deals files' row groups did not move: the third hash, of them alone, is the
/// same as 78d0fed's files give.
///
/// Re-pinned for the mahjongtime rule fixes (branch fix-rules): taiwan16-2015.toml and
/// mahjongtime.toml gained engine keys (human_win_dealer_discard, missed_win_same_tile) and
/// corrected citations, so their footers' SHA-256 moved (taiwan16-2015's row groups did
/// not). mahjongtime's rows moved in one deal of part 2: a liable dealer now pays its
/// dealer's bonus (mahjongtime-taiwanese-rules.txt:73, :116), one more unit from E to S;
/// `taisim compare` of the run before and after shows no other difference (same outcomes,
/// winners, tai and patterns in all 300 deals).
///
/// Re-pinned when greedy came to let a win below 起胡 go (2026-12-07): taiwan16-2015's rows
/// moved in 57 of the 300 deals, exactly the deals the run before (commit c77a4a1's release
/// binary, the same command) ended in a win below the minimum, each fined as a 詐胡; every
/// other deal's rows, and its wins', are the same (compared row by row with pyarrow). The new
/// run has no win below the minimum. taiwan16's and mahjongtime's did not move.
#[test]
fn tai_variant_runs_are_byte_identical_to_before() {
    let dir = tempfile::tempdir().unwrap();
    for (variant, expected_data, expected_files, expected_deals) in [
        (
            "taiwan16",
            "d264748f307f5102cb1f357a7e14fe6486f2cfcf0808e7dcfb89963ae2d24e6c",
            "5ec1765d32102f75d7dc71a750fdff5a2e7cd957ba92f02dc4c6ef160a939760",
            "5d4ea8e5b25e23992b235124405d36b134aae60a3e9ebe7ed14f682fc1a76e42",
        ),
        (
            "taiwan16-2015",
            "d1a4e1671b9ff02ccf99b79a660aeb15001420952e2055a2c7910f24c93ecb8d",
            "8331695105efbb0bb337b93a14e30f2228e0c05c70f4e04b273438a22debb984",
            "978faa34eeaa9f9792c7f1100f609b057942159c15690c676bd98ebd7832d7df",
        ),
        (
            "mahjongtime",
            "93cb054e2e4128e45af8ea225a8ca7ac5cc27a10fa674ac995f78e69282038a6",
            "1b4f63d979d14583c5da8a38aced46233bce9ab793d586e1e56400ee8d75dea4",
            "8d37d37d7babb54f6b4b15fa4fc523331d0602b4463c1aa598122a5bace8b204",
        ),
    ] {
        let out = dir.path().join(variant);
        let (s, _) = spec(variant, 300, 100, "greedy");
        simulate(&s, &out, &options(2)).unwrap();
        let mut data = String::new();
        let mut files = String::new();
        let mut deals = String::new();
        for p in 0..3 {
            for table in [Table::Deals, Table::Wins, Table::Tai] {
                let bytes = std::fs::read(part_path(&out, table, p)).unwrap();
                // A Parquet file ends with its footer, the footer's length (4 bytes, little
                // endian) and "PAR1".
                let n = bytes.len();
                let footer = u32::from_le_bytes(bytes[n - 8..n - 4].try_into().unwrap());
                let rows = &bytes[..n - 8 - footer as usize];
                data.push_str(&taisim_datasets::sha256_hex(rows));
                files.push_str(&taisim_datasets::sha256_hex(&bytes));
                if table == Table::Deals {
                    deals.push_str(&taisim_datasets::sha256_hex(rows));
                }
            }
        }
        assert_eq!(
            taisim_datasets::sha256_hex(data.as_bytes()),
            expected_data,
            "{variant}'s row groups changed"
        );
        assert_eq!(
            taisim_datasets::sha256_hex(files.as_bytes()),
            expected_files,
            "{variant}'s files changed"
        );
        assert_eq!(
            taisim_datasets::sha256_hex(deals.as_bytes()),
            expected_deals,
            "{variant}'s deals row groups changed"
        );
    }
}
