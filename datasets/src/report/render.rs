//! A report as text: aligned tables for a terminal, and the same tables as Markdown.

use std::fmt::Write as _;

use taisim_sim::{Outcome, Wind};

use super::{AllPairsStats, Estimate, Moments, PointsStats, Proportion, Report};
use crate::spec::{short_sha256, stake_unit, Unit};

impl Report {
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
        let hash = short_sha256(&s.variant.sha256);
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
                    "{units}, seed {}, {} per part, settlement {} + {} per {}",
                    s.seed,
                    count(s.part_size),
                    s.base,
                    s.per_tai,
                    stake_unit(self.points.is_some())
                ),
            ),
            (
                "shards",
                format!(
                    "{shards}; parts {} of {} counted{}{}",
                    self.parts_counted,
                    self.parts_in_run,
                    if self.checksums_verified {
                        // The decisions files are the loaders' to read, not the report's.
                        if self.spec.decisions.is_some() {
                            ", checksums of the deals, wins and tai files verified (the decisions files are not read)"
                        } else {
                            ", checksums verified"
                        }
                    } else {
                        ", row counts verified (checksums not checked)"
                    },
                    match self.unrecorded.len() {
                        0 => String::new(),
                        n => format!(
                            "; {n} unrecorded {} beside them (see the warning)",
                            if n == 1 { "file" } else { "files" }
                        ),
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
        let mut sections = vec![
            self.outcome_section(),
            self.tai_section(),
            self.seat_section(),
            self.pattern_section(top),
            self.histogram_section(),
        ];
        // A tai variant's report is as it was; a points or all-pairs run adds its own.
        if let Some(p) = &self.points {
            sections.push(points_section(p));
            sections.push(points_histogram_section(p, self.wins));
        }
        if let Some(a) = &self.all_pairs {
            sections.push(self.all_pairs_section(a));
        }
        sections
    }

    fn all_pairs_section(&self, a: &AllPairsStats) -> Section {
        let responsible = Proportion::new(a.responsible_wins, self.wins);
        let mut rows = vec![vec![
            "全包 (one seat pays for all)".to_string(),
            count(responsible.k),
            "wins".to_string(),
            format!("{} {}", rate_percent(responsible), percent_ci(responsible)),
        ]];
        let pays: [(&str, &dyn Estimate); 2] = [
            ("dealer's net payment", &a.dealer_pay),
            ("a non-dealer's net payment", &a.non_dealer_pay),
        ];
        for (name, m) in pays {
            rows.push(vec![
                name.to_string(),
                count(m.samples()),
                "deals".to_string(),
                mean_pm(m),
            ]);
        }
        Section {
            title: "All-pairs settlement".into(),
            note: Some(
                "全包 rate with 95% Wilson interval; payments: money per deal, draws included, ± 95% CI (a non-dealer's: the three non-dealers' mean, each deal one sample; the by-seat table gives each seat's)"
                    .into(),
            ),
            headers: vec!["measure", "n", "of", "value"],
            numeric: vec![false, true, false, true],
            rows,
        }
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
                // Named by what the run's wins below the minimum were paid: with none, there
                // is nothing to say of them (the built-in agents let such a win go).
                match (self.below_minimum_wins, self.below_minimum_fined) {
                    (0, _) => "below the minimum (起胡)",
                    (_, 0) => "below the minimum (unpaid)",
                    (w, k) if k == w => "below the minimum (詐胡: claimant fined)",
                    _ => "below the minimum (unpaid or fined)",
                },
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
                    rate_percent(*p),
                    percent_ci(*p),
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
            .map(|(name, m)| measure_row(name, m))
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
        let fixed_dealer = self.fixed_dealer();
        let rows = Wind::ALL
            .iter()
            .zip(&self.seats)
            .enumerate()
            .map(|(i, (w, s))| {
                let win = Proportion::new(s.wins, self.deals);
                let deal_in = Proportion::new(s.deal_ins, self.deals);
                let m = &s.pay;
                let seat = match fixed_dealer {
                    Some((d, _)) if d == i => format!("{w} (dealer)"),
                    Some(_) => format!("{w} (non-dealer)"),
                    None => format!(
                        "{w} (dealt {})",
                        rate_percent(Proportion::new(s.dealer, self.deals))
                    ),
                };
                vec![
                    seat,
                    s.agent.clone(),
                    count(s.wins),
                    rate_with_ci(win),
                    count(s.self_drawn),
                    rate_with_ci(deal_in),
                    mean_pm(m),
                ]
            })
            .collect();
        let mut note = "rates per deal; deal-in: a winner took the seat's tile (its discard, or its kong or flower robbed)".to_string();
        if self.all_pairs.is_some() {
            note.push_str(", though under all-pairs settlement every non-winner pays");
        }
        if self.below_minimum_wins > 0 {
            note.push_str("; wins and deal-ins count the wins below the minimum");
        }
        note.push_str("; payment: net per deal ± 95% CI");
        let title = match fixed_dealer {
            Some((dealer, wind)) => {
                let _ = write!(
                    note,
                    "; every deal was dealt by {} in the {} round (a --deals run plays each deal as a game's first), so the rows are the dealer and three non-dealers, not seats in general (--games rotates the dealer)",
                    Wind::ALL[dealer],
                    Wind::ALL[wind]
                );
                "By seat: the dealer and the non-dealers"
            }
            None => "By seat",
        };
        Section {
            title: title.into(),
            note: Some(note),
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
        // A points variant's patterns give 胡 as well as 台 (many only 胡).
        let hu = self.patterns.iter().any(|p| p.hu.is_some());
        let rows = self.patterns[..shown]
            .iter()
            .map(|p| {
                // A pattern is listed once a win counts it: there are wins to divide by.
                let f = self.pattern_frequency(p);
                let (lo, hi) = f.ci95().unwrap_or_default();
                let mut row = vec![
                    p.id.clone(),
                    p.name.clone(),
                    count(p.wins),
                    fixed(1000.0 * f.rate().unwrap_or_default(), 2),
                    format!("[{}, {}]", fixed(1000.0 * lo, 2), fixed(1000.0 * hi, 2)),
                    fixed(p.mean_tai(), 2),
                    fixed(
                        Proportion::new(p.tai, self.wins).rate().unwrap_or_default(),
                        3,
                    ),
                ];
                if hu {
                    let total = p.hu.unwrap_or_default();
                    row.push(fixed(p.mean_hu().unwrap_or_default(), 2));
                    row.push(fixed(
                        Proportion::new(total, self.wins).rate().unwrap_or_default(),
                        3,
                    ));
                }
                row
            })
            .collect();
        let mut note = "per 1,000 wins with 95% Wilson interval; mean tai when counted; tai/win: contribution averaged over all wins".to_string();
        if hu {
            note.push_str("; mean 胡 and 胡/win the same for the pattern's 胡");
        }
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
            headers: [
                &[
                    "pattern",
                    "name",
                    "wins",
                    "per 1,000 wins",
                    "95% CI",
                    "mean tai",
                    "tai/win",
                ][..],
                if hu { &["mean 胡", "胡/win"] } else { &[] },
            ]
            .concat(),
            numeric: [
                &[false, false, true, true, true, true, true][..],
                if hu { &[true, true] } else { &[] },
            ]
            .concat(),
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
                    rate_percent(Proportion::new(n, self.wins)),
                    rate_percent(Proportion::new(cumulative, self.wins)),
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

/// 胡 and points per win: means and quantiles.
fn points_section(p: &PointsStats) -> Section {
    let rows: Vec<Vec<String>> = [
        ("胡 per win", &p.hu_per_win),
        ("points per win", &p.points_per_win),
    ]
    .iter()
    .map(|(name, m)| measure_row(name, m))
    .collect();
    let quantiles: Vec<String> = POINTS_QUANTILES
        .iter()
        .map(|&(name, q)| format!("{name} {}", p.points_quantile(q)))
        .collect();
    Section {
        title: "Points (胡數)".into(),
        note: Some(format!(
            "胡: the counted patterns', 底胡 not included; points: (底胡 + 胡) × 2^台, capped; 95% CI = mean ± 1.96·sd/√n; points quantiles (the least points at or below which that share of wins lie): {}",
            quantiles.join(", ")
        )),
        headers: vec!["measure", "n", "mean", "95% CI", "sd"],
        numeric: vec![false, true, true, true, true],
        rows,
    }
}

/// The quantiles of points a report shows.
pub(super) const POINTS_QUANTILES: [(&str, f64); 7] = [
    ("min", 0.0),
    ("p25", 0.25),
    ("median", 0.5),
    ("p75", 0.75),
    ("p90", 0.9),
    ("p99", 0.99),
    ("max", 1.0),
];

/// Wins by points.
fn points_histogram_section(p: &PointsStats, wins: u64) -> Section {
    let mut cumulative = 0;
    let rows = p
        .points_histogram
        .iter()
        .map(|&(points, n)| {
            cumulative += n;
            vec![
                points.to_string(),
                count(n),
                rate_percent(Proportion::new(n, wins)),
                rate_percent(Proportion::new(cumulative, wins)),
            ]
        })
        .collect();
    Section {
        title: "Points distribution".into(),
        note: Some("points of each win".into()),
        headers: vec!["points", "wins", "share", "cumulative"],
        numeric: vec![true, true, true, true],
        rows,
    }
}

/// A titled table, printed for a terminal or as Markdown (the report's and the
/// comparison's).
pub(crate) struct Section {
    pub title: String,
    pub note: Option<String>,
    pub headers: Vec<&'static str>,
    /// Right-aligned columns.
    pub numeric: Vec<bool>,
    pub rows: Vec<Vec<String>>,
}

/// Display width, counting CJK characters as two columns.
pub(crate) fn display_width(s: &str) -> usize {
    s.chars()
        .map(|c| if c as u32 >= 0x2e80 { 2 } else { 1 })
        .sum()
}

impl Section {
    pub fn to_terminal(&self) -> String {
        let mut widths: Vec<usize> = self.headers.iter().map(|h| display_width(h)).collect();
        for row in &self.rows {
            for (w, cell) in widths.iter_mut().zip(row) {
                *w = (*w).max(display_width(cell));
            }
        }
        let line = |cells: &[String]| {
            let mut s = String::from(" ");
            for ((cell, w), right) in cells.iter().zip(&widths).zip(&self.numeric) {
                let pad = " ".repeat(w.saturating_sub(display_width(cell)));
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

    pub fn to_markdown(&self) -> String {
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
pub(crate) fn md_escape(s: &str) -> String {
    s.replace('|', "\\|")
        .replace('*', "\\*")
        .replace('_', "\\_")
}

/// `1234567` as `1,234,567`.
pub(crate) fn count(n: u64) -> String {
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
pub(crate) fn fixed(x: f64, decimals: usize) -> String {
    let s = format!("{x:.decimals$}");
    if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') {
        s[1..].to_string()
    } else {
        s
    }
}

/// `x` with an explicit sign unless it rounds to zero.
pub(crate) fn signed(x: f64, decimals: usize) -> String {
    let s = fixed(x, decimals);
    if s.starts_with('-') || s.chars().all(|c| c == '0' || c == '.') {
        s
    } else {
        format!("+{s}")
    }
}

pub(crate) fn percent(rate: f64) -> String {
    format!("{}%", fixed(100.0 * rate, 2))
}

/// What a figure over nothing (a rate of 0 deals, a mean of 0 wins) is shown as.
pub(crate) const UNDEFINED: &str = "—";

/// A rate in percent, or [`UNDEFINED`] when it is a rate of nothing.
pub(crate) fn rate_percent(p: Proportion) -> String {
    p.rate().map_or_else(|| UNDEFINED.to_string(), percent)
}

/// A rate's Wilson interval in percent; empty when it is a rate of nothing, which has no
/// interval.
pub(crate) fn percent_ci(p: Proportion) -> String {
    p.ci95().map_or_else(String::new, |(lo, hi)| {
        format!("[{}, {}]", fixed(100.0 * lo, 2), fixed(100.0 * hi, 2))
    })
}

/// A rate and its interval in one cell: `12.50% [9.31, 16.60]`, or [`UNDEFINED`].
fn rate_with_ci(p: Proportion) -> String {
    match p.n {
        0 => UNDEFINED.to_string(),
        _ => format!("{} {}", rate_percent(p), percent_ci(p)),
    }
}

/// A mean with its 95% half-width, `+1.250 ± 0.310`, or [`UNDEFINED`] over no samples.
fn mean_pm(m: &(impl Estimate + ?Sized)) -> String {
    match m.samples() {
        0 => UNDEFINED.to_string(),
        // One sample: a mean, no spread.
        1 => format!("{} ± {UNDEFINED}", signed(m.mean(), 3)),
        _ => format!("{} ± {}", signed(m.mean(), 3), fixed(m.half_width95(), 3)),
    }
}

/// One row of a measures table: name, count, mean, its 95% interval and the spread; over no
/// samples, the count alone.
fn measure_row(name: &str, m: &Moments) -> Vec<String> {
    if m.n < 2 {
        // No samples: no mean (and no interval column); one: a mean, but no spread.
        let none = UNDEFINED.to_string();
        let (mean, ci) = match m.n {
            0 => (none.clone(), String::new()),
            _ => (fixed(m.mean(), 3), none.clone()),
        };
        return vec![name.to_string(), count(m.n), mean, ci, none];
    }
    let (lo, hi) = (m.mean() - m.half_width95(), m.mean() + m.half_width95());
    vec![
        name.to_string(),
        count(m.n),
        fixed(m.mean(), 3),
        format!("[{}, {}]", fixed(lo, 3), fixed(hi, 3)),
        fixed(m.std_dev(), 3),
    ]
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
    fn cjk_is_two_columns_wide() {
        assert_eq!(display_width("門清"), 4);
        assert_eq!(display_width("abc"), 3);
    }
}
