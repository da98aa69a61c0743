//! A comparison as text: aligned tables for a terminal, and the same tables as Markdown.

use std::fmt::Write as _;

use taisim_score::RuleChange;
use taisim_sim::Wind;

use super::{Comparison, PairedMean, PairedRatio, Side, PER_DEAL, PER_WIN};
use crate::report::render::{
    count, fixed, md_escape, percent, percent_ci, rate_percent, signed, Section,
};
use crate::spec::short_sha256;
use crate::table::OUTCOMES;

/// A value shown as a percentage (a rate) or a number with three places.
fn value(x: f64, rate: bool) -> String {
    if rate {
        percent(x)
    } else {
        fixed(x, 3)
    }
}

/// A difference: percentage points for rates, else a signed number.
fn difference(x: f64, rate: bool) -> String {
    if rate {
        format!("{} pp", signed(100.0 * x, 2))
    } else {
        signed(x, 3)
    }
}

fn interval((lo, hi): (f64, f64), rate: bool) -> String {
    if rate {
        format!("[{}, {}]", signed(100.0 * lo, 2), signed(100.0 * hi, 2))
    } else {
        format!("[{}, {}]", signed(lo, 3), signed(hi, 3))
    }
}

fn mean_row(label: &str, m: &PairedMean, rate: bool) -> Vec<String> {
    vec![
        label.to_string(),
        value(m.a.mean(), rate),
        value(m.b.mean(), rate),
        difference(m.difference(), rate),
        m.ci95()
            .map_or_else(|| "-".to_string(), |ci| interval(ci, rate)),
    ]
}

fn ratio_row(label: &str, r: &PairedRatio, rate: bool, scale: f64) -> Vec<String> {
    let shown = |x: Option<f64>| match x {
        Some(x) if rate => percent(x),
        Some(x) => fixed(scale * x, if scale > 1.0 { 2 } else { 3 }),
        None => "-".to_string(),
    };
    let (diff, ci) = match (r.difference(), r.ci95()) {
        (Some(d), Some((lo, hi))) if rate => (difference(d, true), interval((lo, hi), true)),
        (Some(d), Some((lo, hi))) => (
            signed(scale * d, if scale > 1.0 { 2 } else { 3 }),
            format!(
                "[{}, {}]",
                signed(scale * lo, if scale > 1.0 { 2 } else { 3 }),
                signed(scale * hi, if scale > 1.0 { 2 } else { 3 })
            ),
        ),
        _ => ("-".to_string(), "-".to_string()),
    };
    vec![
        label.to_string(),
        shown(r.ratio(0)),
        shown(r.ratio(1)),
        diff,
        ci,
    ]
}

impl Comparison {
    /// The comparison as aligned text tables; `top` limits the pattern list.
    pub fn to_terminal(&self, top: Option<usize>) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "taisim compare: A {} vs B {}",
            self.a.dir.display(),
            self.b.dir.display()
        );
        let header = self.header();
        let width = header.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
        for (k, v) in &header {
            let _ = writeln!(out, "  {k:<width$}  {v}");
        }
        for w in self.warnings() {
            let _ = writeln!(out, "warning: {w}");
        }
        for section in self.sections(top) {
            out.push('\n');
            out.push_str(&section.to_terminal());
        }
        out
    }

    /// The comparison as Markdown; `top` limits the pattern list.
    pub fn to_markdown(&self, top: Option<usize>) -> String {
        let mut out = format!(
            "# taisim compare: `{}` vs `{}`\n\n",
            self.a.dir.display(),
            self.b.dir.display()
        );
        for (k, v) in self.header() {
            let _ = writeln!(out, "- **{k}**: {}", md_escape(&v));
        }
        let warnings = self.warnings();
        if !warnings.is_empty() {
            out.push('\n');
            for w in warnings {
                let _ = writeln!(out, "> **Warning**: {}", md_escape(&w));
            }
        }
        for section in self.sections(top) {
            out.push('\n');
            out.push_str(&section.to_markdown());
        }
        out
    }

    fn header(&self) -> Vec<(&'static str, String)> {
        // Each run's stakes when they differ: a payment's difference is theirs too.
        let stakes_differ = self.stakes_differ();
        let side = |s: &Side| {
            let v = &s.spec.variant;
            format!(
                "{} ({}, sha256 {}); agents {}{}",
                v.name,
                v.origin,
                short_sha256(&v.sha256),
                s.spec
                    .agents
                    .iter()
                    .map(|a| a.to_string())
                    .collect::<Vec<_>>()
                    .join(","),
                if stakes_differ {
                    format!("; settlement {}", s.stakes())
                } else {
                    String::new()
                }
            )
        };
        vec![
            ("A", side(&self.a)),
            ("B", side(&self.b)),
            (
                "walls",
                format!(
                    "{} deals of seed {}, the same in both runs (every deal_id and seed checked)",
                    count(self.deals),
                    self.a.spec.seed
                ),
            ),
            (
                "wins",
                format!("A {}, B {}", count(self.a.wins), count(self.b.wins)),
            ),
            (
                "engine rules",
                match self.same_engine_rules {
                    Some(true) => "the same in both variants".to_string(),
                    Some(false) => format!("differ: {}", self.rule_changes_text()),
                    None => "unknown (a run's variant.toml could not be read)".to_string(),
                },
            ),
            (
                "scoring table",
                match &self.table_changes {
                    Some(changes) if changes.is_empty() => "the same in both variants".to_string(),
                    Some(changes) => format!("differs: {}", changes_text(changes)),
                    None => "unknown (a run's variant.toml could not be read)".to_string(),
                },
            ),
        ]
    }

    /// The engine rules that differ, A's value to B's: `rules.missed_win (true → false),
    /// rules.rob_concealed_kong (false → true)`.
    pub fn rule_changes_text(&self) -> String {
        changes_text(&self.rule_changes)
    }

    fn sections(&self, top: Option<usize>) -> Vec<Section> {
        vec![
            self.agents_section(),
            self.changes_section(),
            self.crosstab_section(),
            self.deal_section(),
            self.win_section(),
            self.seat_section(),
            self.pattern_section(top),
        ]
    }

    fn agents_section(&self) -> Section {
        let yes_no = |r: Option<bool>| match r {
            Some(true) => "yes".to_string(),
            Some(false) => "no".to_string(),
            None => "unknown".to_string(),
        };
        let (ra, rb) = (self.a.responds(), self.b.responds());
        let rows = Wind::ALL
            .iter()
            .enumerate()
            .map(|(s, w)| {
                vec![
                    w.to_string(),
                    self.a.spec.agents[s].to_string(),
                    yes_no(ra[s]),
                    self.b.spec.agents[s].to_string(),
                    yes_no(rb[s]),
                ]
            })
            .collect();
        Section {
            title: "Agents".into(),
            note: Some(
                "responds: whether the agent's play depends on the scoring table (search plays the action of highest expected points under its variant, value weighs its waits by it; greedy, defensive, random and trained policies do not look at tai; an exec: bot is told the variant's name, and whether it plays by it taisim cannot know: unknown)"
                    .into(),
            ),
            headers: vec!["seat", "A", "responds", "B", "responds"],
            numeric: vec![false; 5],
            rows,
        }
    }

    fn changes_section(&self) -> Section {
        let rows = [
            ("outcome differs", self.outcome_changed),
            ("outcome or winners differ", self.result_changed),
        ]
        .iter()
        .map(|(label, p)| {
            vec![
                label.to_string(),
                count(p.k),
                rate_percent(*p),
                percent_ci(*p),
            ]
        })
        .collect();
        Section {
            title: "Deals that changed".into(),
            note: Some(
                "deals of the same wall whose result differs between A and B; 95% Wilson interval"
                    .into(),
            ),
            headers: vec!["change", "deals", "rate", "95% CI"],
            numeric: vec![false, true, true, true],
            rows,
        }
    }

    fn crosstab_section(&self) -> Section {
        let rows = OUTCOMES
            .iter()
            .enumerate()
            .map(|(i, o)| {
                let mut row = vec![format!("A {}", o.name())];
                row.extend(self.crosstab[i].iter().map(|n| count(*n)));
                row
            })
            .collect();
        Section {
            title: "Outcome in A (rows) and B (columns)".into(),
            note: None,
            headers: vec![
                "",
                "B self_draw",
                "B discard",
                "B flower_win",
                "B exhaustive_draw",
            ],
            numeric: vec![false, true, true, true, true],
            rows,
        }
    }

    fn deal_section(&self) -> Section {
        let rows = self
            .per_deal
            .iter()
            .zip(PER_DEAL)
            .map(|(m, (_, label, rate))| mean_row(label, m, rate))
            .collect();
        Section {
            title: "Per deal".into(),
            note: Some(
                "rates of deals; B − A with its paired 95% interval (mean of the deals' differences ± 1.96·sd/√n); pp: percentage points; tai excludes dealer tai"
                    .into(),
            ),
            headers: vec!["measure", "A", "B", "B − A", "95% CI"],
            numeric: vec![false, true, true, true, true],
            rows,
        }
    }

    fn win_section(&self) -> Section {
        let rows = self
            .per_win
            .iter()
            .zip(PER_WIN)
            .map(|(r, (_, label, rate))| ratio_row(label, r, rate, 1.0))
            .collect();
        Section {
            title: "Per win".into(),
            note: Some(
                "ratios over each run's wins; B − A with its paired 95% interval (delta method on the deals' linearised differences)"
                    .into(),
            ),
            headers: vec!["measure", "A", "B", "B − A", "95% CI"],
            numeric: vec![false, true, true, true, true],
            rows,
        }
    }

    fn seat_section(&self) -> Section {
        let mut rows = Vec::new();
        for (s, w) in Wind::ALL.iter().enumerate() {
            let seat = &self.seats[s];
            let agents = if self.a.spec.agents[s] == self.b.spec.agents[s] {
                self.a.spec.agents[s].to_string()
            } else {
                format!("{} / {}", self.a.spec.agents[s], self.b.spec.agents[s])
            };
            for (label, m, rate) in [
                ("win rate", &seat.win, true),
                ("deal-in rate", &seat.deal_in, true),
                ("net payment per deal", &seat.pay, false),
            ] {
                let mut row = vec![w.to_string(), agents.clone()];
                row.extend(mean_row(label, m, rate));
                rows.push(row);
            }
        }
        Section {
            title: "By seat".into(),
            note: Some(
                "in --deals runs every deal has dealer E and round wind E: E is the dealer, S W N the non-dealers; paired 95% intervals"
                    .into(),
            ),
            headers: vec!["seat", "agent", "measure", "A", "B", "B − A", "95% CI"],
            numeric: vec![false, false, false, true, true, true, true],
            rows,
        }
    }

    /// Patterns by the size of their change, largest first (ties in catalogue order).
    pub fn patterns_by_change(&self) -> Vec<&super::PatternDiff> {
        let mut list: Vec<&super::PatternDiff> = self.patterns.iter().collect();
        list.sort_by(|x, y| {
            let d = |p: &super::PatternDiff| p.share.difference().map_or(0.0, f64::abs);
            d(y).total_cmp(&d(x))
        });
        list
    }

    fn pattern_section(&self, top: Option<usize>) -> Section {
        let list = self.patterns_by_change();
        let shown = top.unwrap_or(usize::MAX).min(list.len());
        let rows = list[..shown]
            .iter()
            .map(|p| {
                let mut row = vec![p.pattern.id().to_string(), p.pattern.name_zh().to_string()];
                row.extend(ratio_row("", &p.share, false, 1000.0).into_iter().skip(1));
                row
            })
            .collect();
        let mut note = "wins counting the pattern per 1,000 wins; B − A with its paired 95% interval; largest changes first".to_string();
        if shown < list.len() {
            let _ = write!(note, "; the top {shown} of {} patterns", list.len());
        }
        Section {
            title: "Patterns".into(),
            note: Some(note),
            headers: vec!["pattern", "name", "A", "B", "B − A", "95% CI"],
            numeric: vec![false, false, true, true, true, true],
            rows,
        }
    }
}

/// Keys that differ, A's value to B's: `tai.min (0 → 4), patterns.all_chows.tai (2 → 3)`.
fn changes_text(changes: &[RuleChange]) -> String {
    changes
        .iter()
        .map(|c| format!("{} ({} → {})", c.key, c.from, c.to))
        .collect::<Vec<_>>()
        .join(", ")
}
