//! `taisim report`: the statistics of a run directory.
//!
//! The parts are read batch by batch (only the columns a figure needs) and folded into
//! integer counters, one [`Tally`] per part, merged in part order; every figure derives from
//! those integers at the end. So the report needs memory for one batch per thread whatever
//! the run's size, and the same run gives the same text whatever the thread count.
//!
//! Intervals are 95% (z = 1.96): Wilson score intervals for proportions, and
//! mean ± z·s/√n (s the sample standard deviation) for means.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use arrow_array::{Array, BooleanArray, Int64Array, UInt16Array, UInt64Array, UInt8Array};
use rayon::prelude::*;
use taisim_sim::{Outcome, Wind};

use crate::error::HarnessError;
use crate::part::{PartRecord, Table};
use crate::read::{column, string_codes, Run, READ_BATCH_ROWS};
use crate::spec::{RunSpec, Shard, Unit};
use crate::tables::OUTCOMES;

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.96;

/// The Wilson score interval of a proportion of `k` successes in `n` trials at normal
/// quantile `z`; `(0, 0)` when `n` is 0.
pub fn wilson_interval(k: u64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 0.0);
    }
    let n = n as f64;
    let p = k as f64 / n;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// `k` of `n`: a rate with its Wilson interval.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Proportion {
    pub k: u64,
    pub n: u64,
}

impl Proportion {
    pub const fn new(k: u64, n: u64) -> Proportion {
        Proportion { k, n }
    }

    /// `k / n`, 0 when `n` is 0.
    pub fn rate(self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.k as f64 / self.n as f64
        }
    }

    /// The 95% Wilson score interval of the rate.
    pub fn ci95(self) -> (f64, f64) {
        wilson_interval(self.k, self.n, Z95)
    }
}

/// Count, sum and sum of squares of integer samples: exact, so merging in any order gives
/// the same figures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Moments {
    pub n: u64,
    pub sum: i128,
    pub sum_sq: i128,
}

impl Moments {
    pub fn add(&mut self, x: i64) {
        let x = x as i128;
        self.n += 1;
        self.sum += x;
        self.sum_sq += x * x;
    }

    pub fn merge(&mut self, other: &Moments) {
        self.n += other.n;
        self.sum += other.sum;
        self.sum_sq += other.sum_sq;
    }

    /// The sample mean, 0 with no samples.
    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.sum as f64 / self.n as f64
        }
    }

    /// The sample standard deviation (n − 1 in the denominator), 0 with fewer than two
    /// samples.
    pub fn std_dev(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = self.n as i128;
        // n·Σx² − (Σx)² is exact in integers and never negative.
        let numerator = (n * self.sum_sq - self.sum * self.sum).max(0);
        (numerator as f64 / (n as f64 * (n - 1) as f64)).sqrt()
    }

    /// Half the width of the 95% interval of the mean: z·s/√n.
    pub fn half_width95(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            Z95 * self.std_dev() / (self.n as f64).sqrt()
        }
    }
}

/// One seat's figures over the run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SeatStats {
    /// The agent as `--agents` spells it.
    pub agent: String,
    /// Wins (at most one per deal).
    pub wins: u64,
    /// Of which self-drawn.
    pub self_drawn: u64,
    /// Deals in which the seat alone paid a winner (`discarder`: the discarder, the robbed
    /// kong's or flower's owner).
    pub deal_ins: u64,
    /// The seat's net payment per deal.
    pub pay: Moments,
}

/// One pattern's figures: how many wins count it and the tai it gave them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PatternStats {
    /// Its stable id (`self_draw`, `dragon_pung`, …).
    pub id: String,
    /// Its Chinese name.
    pub name: String,
    /// Wins that count it (a pattern is counted at most once per win).
    pub wins: u64,
    /// Tai it contributed, all those wins together.
    pub tai: u64,
}

impl PatternStats {
    /// Mean tai it gives a win that counts it.
    pub fn mean_tai(&self) -> f64 {
        Proportion::new(self.tai, self.wins).rate()
    }
}

/// How to compute a report.
#[derive(Clone, Debug)]
pub struct ReportOptions {
    /// Read every part file whole and check its SHA-256 against the manifest (row counts
    /// and sizes are always checked).
    pub verify_checksums: bool,
    /// Worker threads; `None` for every core. The report does not depend on it.
    pub threads: Option<usize>,
}

impl Default for ReportOptions {
    fn default() -> ReportOptions {
        ReportOptions {
            verify_checksums: true,
            threads: None,
        }
    }
}

/// The statistics of a run: raw counts, from which every printed figure derives.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub dir: PathBuf,
    /// The run's spec (as its first manifest records it).
    pub spec: RunSpec,
    pub shards_present: Vec<Shard>,
    pub parts_counted: u64,
    pub parts_in_run: u64,
    /// Missing shards, unfinished manifests.
    pub warnings: Vec<String>,
    pub checksums_verified: bool,
    /// Deal rows counted.
    pub deals: u64,
    /// Win rows counted (a deal with two winners has two).
    pub wins: u64,
    /// Tai rows counted.
    pub tai_rows: u64,
    /// Deals by outcome, in the order self_draw, discard, flower_win, exhaustive_draw.
    pub outcomes: [u64; 4],
    /// Deals with more than one winner (一砲多響).
    pub multi_winner_deals: u64,
    /// Wins won on one's own draw.
    pub self_drawn_wins: u64,
    /// Wins whose total the variant's limit cut.
    pub capped_wins: u64,
    /// Wins below the variant's minimum (nobody pays).
    pub below_minimum_wins: u64,
    /// Each win's `total_tai`.
    pub tai_per_win: Moments,
    /// Each deal's `total_tai`, 0 for a draw.
    pub tai_per_deal: Moments,
    /// Each win's `payment` (what the winner received).
    pub payment_per_win: Moments,
    /// By seat, E S W N.
    pub seats: [SeatStats; 4],
    /// Every pattern counted at least once, most frequent first (ties by id).
    pub patterns: Vec<PatternStats>,
    /// Wins by `total_tai`, ascending.
    pub tai_histogram: Vec<(u16, u64)>,
}

impl Report {
    /// Reads the run in `dir` and computes its report.
    pub fn from_run(dir: &Path, options: &ReportOptions) -> Result<Report, HarnessError> {
        let run = Run::open(dir)?;
        Report::compute(&run, options)
    }

    /// Computes the report of an opened run.
    pub fn compute(run: &Run, options: &ReportOptions) -> Result<Report, HarnessError> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(options.threads.unwrap_or(0))
            .build()
            .map_err(|e| HarnessError::Usage(format!("cannot start worker threads: {e}")))?;
        // Parts are tallied in parallel a chunk at a time, so few tallies wait at once
        // however many parts the run has, and merged in part order; the first failing
        // part's error is the one reported. Nothing depends on which worker finished first.
        const CHUNK: usize = 64;
        let mut total = Tally::default();
        for chunk in run.parts.chunks(CHUNK) {
            let tallies: Vec<Result<Tally, HarnessError>> = pool.install(|| {
                chunk
                    .par_iter()
                    .map(|p| Tally::of_part(run, p, options.verify_checksums))
                    .collect()
            });
            for t in tallies {
                total.merge(t?);
            }
        }
        Ok(total.into_report(run, options.verify_checksums))
    }

    /// The deals that ended with `outcome`.
    pub fn outcome(&self, outcome: Outcome) -> Proportion {
        let i = OUTCOMES.iter().position(|o| *o == outcome).unwrap_or(0);
        Proportion::new(self.outcomes[i], self.deals)
    }

    /// Deals with at least one winner.
    pub fn won(&self) -> Proportion {
        Proportion::new(
            self.deals - self.outcome(Outcome::ExhaustiveDraw).k,
            self.deals,
        )
    }

    /// The share of wins counting `pattern` (multiply by 1,000 for per 1,000 wins).
    pub fn pattern_frequency(&self, pattern: &PatternStats) -> Proportion {
        Proportion::new(pattern.wins, self.wins)
    }

    /// The report as aligned text tables; `top` limits the pattern list.
    pub fn to_terminal(&self, top: Option<usize>) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "taisim report: {}", self.dir.display());
        let header = self.header();
        let width = header.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
        for (k, v) in &header {
            let _ = writeln!(out, "  {k:<width$}  {v}");
        }
        for w in &self.warnings {
            let _ = writeln!(out, "warning: {w}");
        }
        for section in self.sections(top) {
            out.push('\n');
            out.push_str(&section.to_terminal());
        }
        out
    }

    /// The report as Markdown; `top` limits the pattern list.
    pub fn to_markdown(&self, top: Option<usize>) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "# taisim report: `{}`\n", self.dir.display());
        for (k, v) in self.header() {
            let _ = writeln!(out, "- **{k}**: {}", md_escape(&v));
        }
        if !self.warnings.is_empty() {
            out.push('\n');
            for w in &self.warnings {
                let _ = writeln!(out, "> **Warning**: {}", md_escape(w));
            }
        }
        for section in self.sections(top) {
            out.push('\n');
            out.push_str(&section.to_markdown());
        }
        out
    }

    fn header(&self) -> Vec<(&'static str, String)> {
        let s = &self.spec;
        let hash = &s.variant.sha256[..12.min(s.variant.sha256.len())];
        let agents: Vec<String> = Wind::ALL
            .iter()
            .zip(&s.agents)
            .map(|(w, a)| format!("{w} {a}"))
            .collect();
        let units = match s.unit {
            Unit::Deals => format!("{} deals", count(s.count)),
            Unit::Games => format!(
                "{} games ({} deals played)",
                count(s.count),
                count(self.deals)
            ),
        };
        let shards = if s.shard.count == 1 {
            "unsharded".to_string()
        } else {
            let present: Vec<String> = self.shards_present.iter().map(|k| k.to_string()).collect();
            format!(
                "{} of {} present ({})",
                self.shards_present.len(),
                s.shard.count,
                present.join(", ")
            )
        };
        vec![
            (
                "variant",
                format!("{} ({}, sha256 {hash})", s.variant.name, s.variant.origin),
            ),
            ("agents", agents.join(", ")),
            (
                "run",
                format!(
                    "{units}, seed {}, {} per part, settlement {} + {} per tai",
                    s.seed,
                    count(s.part_size),
                    s.base,
                    s.per_tai
                ),
            ),
            (
                "shards",
                format!(
                    "{shards}; parts {} of {} counted{}",
                    self.parts_counted,
                    self.parts_in_run,
                    if self.checksums_verified {
                        ", checksums verified"
                    } else {
                        ", row counts verified (checksums not checked)"
                    }
                ),
            ),
            (
                "rows",
                format!(
                    "{} deals, {} wins, {} pattern rows",
                    count(self.deals),
                    count(self.wins),
                    count(self.tai_rows)
                ),
            ),
        ]
    }

    fn sections(&self, top: Option<usize>) -> Vec<Section> {
        vec![
            self.outcome_section(),
            self.tai_section(),
            self.seat_section(),
            self.pattern_section(top),
            self.histogram_section(),
        ]
    }

    fn outcome_section(&self) -> Section {
        let of_deals = [
            ("won (at least one winner)", self.won()),
            ("self-draw win (自摸)", self.outcome(Outcome::SelfDraw)),
            ("discard win (放槍, 搶槓)", self.outcome(Outcome::Discard)),
            (
                "flower win (八仙過海, 七搶一)",
                self.outcome(Outcome::FlowerWin),
            ),
            (
                "exhaustive draw (流局)",
                self.outcome(Outcome::ExhaustiveDraw),
            ),
            (
                "several winners (一砲多響)",
                Proportion::new(self.multi_winner_deals, self.deals),
            ),
        ];
        let of_wins = [
            (
                "self-drawn",
                Proportion::new(self.self_drawn_wins, self.wins),
            ),
            (
                "capped at the limit",
                Proportion::new(self.capped_wins, self.wins),
            ),
            (
                "below the minimum (unpaid)",
                Proportion::new(self.below_minimum_wins, self.wins),
            ),
        ];
        let mut rows = Vec::new();
        for (of, list) in [("deals", &of_deals[..]), ("wins", &of_wins[..])] {
            for (name, p) in list {
                rows.push(vec![
                    name.to_string(),
                    count(p.k),
                    of.to_string(),
                    percent(p.rate()),
                    percent_ci(p.ci95()),
                ]);
            }
        }
        Section {
            title: "Outcomes".into(),
            note: None,
            headers: vec!["event", "count", "of", "rate", "95% CI"],
            numeric: vec![false, true, false, true, true],
            rows,
        }
    }

    fn tai_section(&self) -> Section {
        let measures = [
            ("tai per win", &self.tai_per_win),
            ("tai per deal (draws 0)", &self.tai_per_deal),
            ("payment per win", &self.payment_per_win),
        ];
        let rows = measures
            .iter()
            .map(|(name, m)| {
                let (lo, hi) = (m.mean() - m.half_width95(), m.mean() + m.half_width95());
                vec![
                    name.to_string(),
                    count(m.n),
                    fixed(m.mean(), 3),
                    format!("[{}, {}]", fixed(lo, 3), fixed(hi, 3)),
                    fixed(m.std_dev(), 3),
                ]
            })
            .collect();
        Section {
            title: "Expected tai".into(),
            note: Some("total_tai excludes dealer tai; 95% CI = mean ± 1.96·sd/√n".into()),
            headers: vec!["measure", "n", "mean", "95% CI", "sd"],
            numeric: vec![false, true, true, true, true],
            rows,
        }
    }

    fn seat_section(&self) -> Section {
        let rows = Wind::ALL
            .iter()
            .zip(&self.seats)
            .map(|(w, s)| {
                let win = Proportion::new(s.wins, self.deals);
                let deal_in = Proportion::new(s.deal_ins, self.deals);
                let m = &s.pay;
                vec![
                    w.to_string(),
                    s.agent.clone(),
                    count(s.wins),
                    format!("{} {}", percent(win.rate()), percent_ci(win.ci95())),
                    count(s.self_drawn),
                    format!("{} {}", percent(deal_in.rate()), percent_ci(deal_in.ci95())),
                    format!("{} ± {}", signed(m.mean(), 3), fixed(m.half_width95(), 3)),
                ]
            })
            .collect();
        Section {
            title: "By seat".into(),
            note: Some(
                "rates per deal; deal-in: the seat alone paid (discarder, robbed kong's or flower's owner); payment: net per deal ± 95% CI"
                    .into(),
            ),
            headers: vec![
                "seat",
                "agent",
                "wins",
                "win rate [95% CI]",
                "self-drawn",
                "deal-in rate [95% CI]",
                "mean payment",
            ],
            numeric: vec![false, false, true, true, true, true, true],
            rows,
        }
    }

    fn pattern_section(&self, top: Option<usize>) -> Section {
        let shown = top.unwrap_or(usize::MAX).min(self.patterns.len());
        let rows = self.patterns[..shown]
            .iter()
            .map(|p| {
                let f = self.pattern_frequency(p);
                let (lo, hi) = f.ci95();
                vec![
                    p.id.clone(),
                    p.name.clone(),
                    count(p.wins),
                    fixed(1000.0 * f.rate(), 2),
                    format!("[{}, {}]", fixed(1000.0 * lo, 2), fixed(1000.0 * hi, 2)),
                    fixed(p.mean_tai(), 2),
                    fixed(Proportion::new(p.tai, self.wins).rate(), 3),
                ]
            })
            .collect();
        let mut note = "per 1,000 wins with 95% Wilson interval; mean tai when counted; tai/win: contribution averaged over all wins".to_string();
        if shown < self.patterns.len() {
            let _ = write!(
                note,
                "; the top {shown} of {} patterns",
                self.patterns.len()
            );
        }
        Section {
            title: "Patterns".into(),
            note: Some(note),
            headers: vec![
                "pattern",
                "name",
                "wins",
                "per 1,000 wins",
                "95% CI",
                "mean tai",
                "tai/win",
            ],
            numeric: vec![false, false, true, true, true, true, true],
            rows,
        }
    }

    fn histogram_section(&self) -> Section {
        let mut cumulative = 0;
        let rows = self
            .tai_histogram
            .iter()
            .map(|&(tai, n)| {
                cumulative += n;
                vec![
                    tai.to_string(),
                    count(n),
                    percent(Proportion::new(n, self.wins).rate()),
                    percent(Proportion::new(cumulative, self.wins).rate()),
                ]
            })
            .collect();
        Section {
            title: "Tai distribution".into(),
            note: Some("total_tai of each win".into()),
            headers: vec!["tai", "wins", "share", "cumulative"],
            numeric: vec![true, true, true, true],
            rows,
        }
    }
}

/// A titled table, printed for a terminal or as Markdown.
struct Section {
    title: String,
    note: Option<String>,
    headers: Vec<&'static str>,
    /// Right-aligned columns.
    numeric: Vec<bool>,
    rows: Vec<Vec<String>>,
}

/// Display width, counting CJK characters as two columns.
fn width(s: &str) -> usize {
    s.chars()
        .map(|c| if c as u32 >= 0x2e80 { 2 } else { 1 })
        .sum()
}

impl Section {
    fn to_terminal(&self) -> String {
        let mut widths: Vec<usize> = self.headers.iter().map(|h| width(h)).collect();
        for row in &self.rows {
            for (w, cell) in widths.iter_mut().zip(row) {
                *w = (*w).max(width(cell));
            }
        }
        let line = |cells: &[String]| {
            let mut s = String::from(" ");
            for ((cell, w), right) in cells.iter().zip(&widths).zip(&self.numeric) {
                let pad = " ".repeat(w.saturating_sub(width(cell)));
                s.push_str("  ");
                if *right {
                    s.push_str(&pad);
                    s.push_str(cell);
                } else {
                    s.push_str(cell);
                    s.push_str(&pad);
                }
            }
            s.trim_end().to_string() + "\n"
        };
        let mut out = format!("{}\n", self.title);
        if let Some(note) = &self.note {
            let _ = writeln!(out, "  ({note})");
        }
        let headers: Vec<String> = self.headers.iter().map(|h| h.to_string()).collect();
        out.push_str(&line(&headers));
        let rules: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
        out.push_str(&line(&rules));
        for row in &self.rows {
            out.push_str(&line(row));
        }
        out
    }

    fn to_markdown(&self) -> String {
        let mut out = format!("## {}\n\n", self.title);
        if let Some(note) = &self.note {
            let _ = writeln!(out, "{}\n", md_escape(note));
        }
        let cells = |row: &[String]| {
            let escaped: Vec<String> = row.iter().map(|c| md_escape(c)).collect();
            format!("| {} |\n", escaped.join(" | "))
        };
        let headers: Vec<String> = self.headers.iter().map(|h| h.to_string()).collect();
        out.push_str(&cells(&headers));
        let align: Vec<&str> = self
            .numeric
            .iter()
            .map(|&r| if r { "---:" } else { "---" })
            .collect();
        let _ = writeln!(out, "| {} |", align.join(" | "));
        for row in &self.rows {
            out.push_str(&cells(row));
        }
        out
    }
}

/// Escapes what Markdown tables and emphasis would misread.
fn md_escape(s: &str) -> String {
    s.replace('|', "\\|")
        .replace('*', "\\*")
        .replace('_', "\\_")
}

/// `1234567` as `1,234,567`.
fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `x` with `decimals` places, never `-0.00`.
fn fixed(x: f64, decimals: usize) -> String {
    let s = format!("{x:.decimals$}");
    if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') {
        s[1..].to_string()
    } else {
        s
    }
}

/// `x` with an explicit sign unless it rounds to zero.
fn signed(x: f64, decimals: usize) -> String {
    let s = fixed(x, decimals);
    if s.starts_with('-') || s.chars().all(|c| c == '0' || c == '.') {
        s
    } else {
        format!("+{s}")
    }
}

fn percent(rate: f64) -> String {
    format!("{}%", fixed(100.0 * rate, 2))
}

fn percent_ci((lo, hi): (f64, f64)) -> String {
    format!("[{}, {}]", fixed(100.0 * lo, 2), fixed(100.0 * hi, 2))
}

/// The counters of some parts; merged in part order.
#[derive(Default)]
struct Tally {
    deals: u64,
    wins: u64,
    tai_rows: u64,
    outcomes: [u64; 4],
    multi_winner_deals: u64,
    self_drawn_wins: u64,
    capped_wins: u64,
    below_minimum_wins: u64,
    tai_per_win: Moments,
    tai_per_deal: Moments,
    payment_per_win: Moments,
    seat_wins: [u64; 4],
    seat_self_drawn: [u64; 4],
    seat_deal_ins: [u64; 4],
    seat_pay: [Moments; 4],
    /// Wins by total_tai, indexed by tai.
    histogram: Vec<u64>,
    /// By pattern id: (name, wins, tai).
    patterns: BTreeMap<String, (String, u64, u64)>,
}

fn seat_code(s: &str) -> Option<usize> {
    Wind::ALL.iter().position(|w| w.to_string() == s)
}

fn outcome_code(s: &str) -> Option<usize> {
    OUTCOMES.iter().position(|o| o.name() == s)
}

const PAY_COLUMNS: [&str; 4] = ["pay_e", "pay_s", "pay_w", "pay_n"];

/// A part's pattern ids and names, coded in order of first sight.
#[derive(Default)]
struct PatternCodes {
    ids: Vec<String>,
    names: Vec<Option<String>>,
    wins: Vec<u64>,
    tai: Vec<u64>,
}

impl PatternCodes {
    fn code(&mut self, id: &str) -> usize {
        match self.ids.iter().position(|x| x == id) {
            Some(i) => i,
            None => {
                self.ids.push(id.to_string());
                self.names.push(None);
                self.wins.push(0);
                self.tai.push(0);
                self.ids.len() - 1
            }
        }
    }
}

impl Tally {
    /// Reads one part's three tables.
    fn of_part(run: &Run, part: &PartRecord, verify: bool) -> Result<Tally, HarnessError> {
        if verify {
            for table in [Table::Deals, Table::Wins, Table::Tai] {
                run.verify_checksum(part, table)?;
            }
        }
        let mut t = Tally::default();
        let winners = t.read_deals(run, part)?;
        let patterns = t.read_wins(run, part)?;
        if winners != t.wins {
            return Err(HarnessError::Corrupt {
                path: run.path(&part.wins),
                message: format!(
                    "{} win rows, but the part's deals have {winners} winners",
                    t.wins
                ),
            });
        }
        t.read_tai(run, part)?;
        if patterns != t.tai_rows {
            return Err(HarnessError::Corrupt {
                path: run.path(&part.tai),
                message: format!(
                    "{} pattern rows, but the part's wins count {patterns} patterns",
                    t.tai_rows
                ),
            });
        }
        Ok(t)
    }

    /// Returns the deals' winners, for checking against the wins table.
    fn read_deals(&mut self, run: &Run, part: &PartRecord) -> Result<u64, HarnessError> {
        let file = run.open_part(part, Table::Deals)?;
        let path = file.path().to_path_buf();
        let mut columns = vec!["outcome", "n_winners", "discarder", "total_tai"];
        columns.extend(PAY_COLUMNS);
        let mut winners = 0;
        for batch in file.batches(&columns, READ_BATCH_ROWS)? {
            let batch = batch?;
            let outcome = string_codes(&batch, "outcome", &path, outcome_code)?;
            let discarder = string_codes(&batch, "discarder", &path, seat_code)?;
            let n_winners = column::<UInt8Array>(&batch, "n_winners", &path)?;
            let total_tai = column::<UInt16Array>(&batch, "total_tai", &path)?;
            let mut pays = Vec::with_capacity(4);
            for name in PAY_COLUMNS {
                pays.push(column::<Int64Array>(&batch, name, &path)?);
            }
            for i in 0..batch.num_rows() {
                let o = outcome[i].ok_or_else(|| null_in(&path, "outcome"))?;
                let n = n_winners.value(i);
                if (OUTCOMES[o] == Outcome::ExhaustiveDraw) != (n == 0) {
                    return Err(HarnessError::Corrupt {
                        path: path.clone(),
                        message: format!(
                            "a deal with outcome {} has {n} winners",
                            OUTCOMES[o].name()
                        ),
                    });
                }
                self.deals += 1;
                self.outcomes[o] += 1;
                winners += n as u64;
                if n > 1 {
                    self.multi_winner_deals += 1;
                }
                if let Some(s) = discarder[i] {
                    self.seat_deal_ins[s] += 1;
                }
                let tai = if total_tai.is_null(i) {
                    0
                } else {
                    total_tai.value(i)
                };
                self.tai_per_deal.add(tai as i64);
                for (m, pay) in self.seat_pay.iter_mut().zip(&pays) {
                    m.add(pay.value(i));
                }
            }
        }
        Ok(winners)
    }

    /// Returns the patterns the wins say they count, for checking against the tai table.
    fn read_wins(&mut self, run: &Run, part: &PartRecord) -> Result<u64, HarnessError> {
        let file = run.open_part(part, Table::Wins)?;
        let path = file.path().to_path_buf();
        let columns = [
            "winner",
            "total_tai",
            "self_draw",
            "capped",
            "meets_minimum",
            "payment",
            "n_patterns",
        ];
        let mut patterns = 0;
        for batch in file.batches(&columns, READ_BATCH_ROWS)? {
            let batch = batch?;
            let winner = string_codes(&batch, "winner", &path, seat_code)?;
            let total_tai = column::<UInt16Array>(&batch, "total_tai", &path)?;
            let self_draw = column::<BooleanArray>(&batch, "self_draw", &path)?;
            let capped = column::<BooleanArray>(&batch, "capped", &path)?;
            let meets_minimum = column::<BooleanArray>(&batch, "meets_minimum", &path)?;
            let payment = column::<Int64Array>(&batch, "payment", &path)?;
            let n_patterns = column::<UInt8Array>(&batch, "n_patterns", &path)?;
            for (i, w) in winner.iter().enumerate() {
                let w = w.ok_or_else(|| null_in(&path, "winner"))?;
                let tai = total_tai.value(i);
                self.wins += 1;
                self.seat_wins[w] += 1;
                if self_draw.value(i) {
                    self.self_drawn_wins += 1;
                    self.seat_self_drawn[w] += 1;
                }
                self.capped_wins += capped.value(i) as u64;
                self.below_minimum_wins += !meets_minimum.value(i) as u64;
                self.tai_per_win.add(tai as i64);
                self.payment_per_win.add(payment.value(i));
                let t = tai as usize;
                if self.histogram.len() <= t {
                    self.histogram.resize(t + 1, 0);
                }
                self.histogram[t] += 1;
                patterns += n_patterns.value(i) as u64;
            }
        }
        Ok(patterns)
    }

    fn read_tai(&mut self, run: &Run, part: &PartRecord) -> Result<(), HarnessError> {
        let file = run.open_part(part, Table::Tai)?;
        let path = file.path().to_path_buf();
        let mut codes = PatternCodes::default();
        let mut names: Vec<String> = Vec::new();
        // The rows of one win are consecutive; a pattern twice in one win would count the
        // win twice in its frequency.
        let mut current: Option<(u64, usize)> = None;
        let mut seen: Vec<usize> = Vec::new();
        let columns = ["deal_id", "winner", "pattern", "name", "tai"];
        for batch in file.batches(&columns, READ_BATCH_ROWS)? {
            let batch = batch?;
            let deal_id = column::<UInt64Array>(&batch, "deal_id", &path)?;
            let winner = string_codes(&batch, "winner", &path, seat_code)?;
            let pattern = string_codes(&batch, "pattern", &path, |s| Some(codes.code(s)))?;
            let name = string_codes(&batch, "name", &path, |s| {
                Some(match names.iter().position(|x| x == s) {
                    Some(i) => i,
                    None => {
                        names.push(s.to_string());
                        names.len() - 1
                    }
                })
            })?;
            let tai = column::<UInt16Array>(&batch, "tai", &path)?;
            for i in 0..batch.num_rows() {
                let w = winner[i].ok_or_else(|| null_in(&path, "winner"))?;
                let p = pattern[i].ok_or_else(|| null_in(&path, "pattern"))?;
                let key = (deal_id.value(i), w);
                if current != Some(key) {
                    current = Some(key);
                    seen.clear();
                }
                if seen.contains(&p) {
                    return Err(HarnessError::Corrupt {
                        path: path.clone(),
                        message: format!(
                            "pattern {:?} appears twice in the win of seat {} in deal {}",
                            codes.ids[p],
                            Wind::ALL[w],
                            key.0
                        ),
                    });
                }
                seen.push(p);
                self.tai_rows += 1;
                codes.wins[p] += 1;
                codes.tai[p] += tai.value(i) as u64;
                if codes.names[p].is_none() {
                    if let Some(n) = name[i] {
                        codes.names[p] = Some(names[n].clone());
                    }
                }
            }
        }
        for (i, id) in codes.ids.into_iter().enumerate() {
            let name = codes.names[i].take().unwrap_or_default();
            self.patterns
                .insert(id, (name, codes.wins[i], codes.tai[i]));
        }
        Ok(())
    }

    fn merge(&mut self, o: Tally) {
        self.deals += o.deals;
        self.wins += o.wins;
        self.tai_rows += o.tai_rows;
        for i in 0..4 {
            self.outcomes[i] += o.outcomes[i];
            self.seat_wins[i] += o.seat_wins[i];
            self.seat_self_drawn[i] += o.seat_self_drawn[i];
            self.seat_deal_ins[i] += o.seat_deal_ins[i];
            self.seat_pay[i].merge(&o.seat_pay[i]);
        }
        self.multi_winner_deals += o.multi_winner_deals;
        self.self_drawn_wins += o.self_drawn_wins;
        self.capped_wins += o.capped_wins;
        self.below_minimum_wins += o.below_minimum_wins;
        self.tai_per_win.merge(&o.tai_per_win);
        self.tai_per_deal.merge(&o.tai_per_deal);
        self.payment_per_win.merge(&o.payment_per_win);
        if self.histogram.len() < o.histogram.len() {
            self.histogram.resize(o.histogram.len(), 0);
        }
        for (a, b) in self.histogram.iter_mut().zip(&o.histogram) {
            *a += b;
        }
        for (id, (name, wins, tai)) in o.patterns {
            // The name first seen (in part order) stays.
            let e = self.patterns.entry(id).or_insert((name, 0, 0));
            e.1 += wins;
            e.2 += tai;
        }
    }

    fn into_report(self, run: &Run, checksums_verified: bool) -> Report {
        let spec = run.spec().clone();
        let mut seats: [SeatStats; 4] = Default::default();
        for (i, s) in seats.iter_mut().enumerate() {
            *s = SeatStats {
                agent: spec.agents[i].to_string(),
                wins: self.seat_wins[i],
                self_drawn: self.seat_self_drawn[i],
                deal_ins: self.seat_deal_ins[i],
                pay: self.seat_pay[i],
            };
        }
        let mut patterns: Vec<PatternStats> = self
            .patterns
            .into_iter()
            .map(|(id, (name, wins, tai))| PatternStats {
                id,
                name,
                wins,
                tai,
            })
            .collect();
        patterns.sort_by(|a, b| b.wins.cmp(&a.wins).then_with(|| a.id.cmp(&b.id)));
        let tai_histogram = self
            .histogram
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(t, n)| (t as u16, *n))
            .collect();
        Report {
            dir: run.dir.clone(),
            spec,
            shards_present: run.shards_present(),
            parts_counted: run.parts.len() as u64,
            parts_in_run: run.parts_in_run(),
            warnings: run.warnings.clone(),
            checksums_verified,
            deals: self.deals,
            wins: self.wins,
            tai_rows: self.tai_rows,
            outcomes: self.outcomes,
            multi_winner_deals: self.multi_winner_deals,
            self_drawn_wins: self.self_drawn_wins,
            capped_wins: self.capped_wins,
            below_minimum_wins: self.below_minimum_wins,
            tai_per_win: self.tai_per_win,
            tai_per_deal: self.tai_per_deal,
            payment_per_win: self.payment_per_win,
            seats,
            patterns,
            tai_histogram,
        }
    }
}

fn null_in(path: &Path, column: &str) -> HarnessError {
    HarnessError::Corrupt {
        path: path.to_path_buf(),
        message: format!("null in the non-nullable column {column:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_have_separators() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(1000), "1,000");
        assert_eq!(count(29_511), "29,511");
        assert_eq!(count(10_000_000), "10,000,000");
    }

    #[test]
    fn no_negative_zero() {
        assert_eq!(fixed(-0.0001, 3), "0.000");
        assert_eq!(fixed(-0.5, 1), "-0.5");
        assert_eq!(signed(0.0004, 3), "0.000");
        assert_eq!(signed(1.25, 2), "+1.25");
        assert_eq!(signed(-1.25, 2), "-1.25");
    }

    #[test]
    fn moments_match_two_pass() {
        let xs = [3i64, -7, 12, 0, 5, 5, -2];
        let mut m = Moments::default();
        for x in xs {
            m.add(x);
        }
        let n = xs.len() as f64;
        let mean = xs.iter().sum::<i64>() as f64 / n;
        let var = xs.iter().map(|&x| (x as f64 - mean).powi(2)).sum::<f64>() / (n - 1.0);
        assert!((m.mean() - mean).abs() < 1e-12);
        assert!((m.std_dev() - var.sqrt()).abs() < 1e-12);
        assert!((m.half_width95() - 1.96 * var.sqrt() / n.sqrt()).abs() < 1e-12);
    }

    #[test]
    fn cjk_is_two_columns_wide() {
        assert_eq!(width("門清"), 4);
        assert_eq!(width("abc"), 3);
    }
}
