//! A comparison as one JSON document (`taisim compare --json`, `taisim.compare`): every
//! figure under stable keys, A's and B's values with B − A and its paired 95% interval.

use serde_json::{json, Value};
use taisim_score::RuleChange;
use taisim_sim::Wind;

use super::{Comparison, PairedMean, PairedRatio, Side, PER_DEAL, PER_WIN};
use crate::report::json::proportion;
use crate::table::OUTCOMES;

fn mean(m: &PairedMean) -> Value {
    json!({
        "a": m.a.mean(),
        "b": m.b.mean(),
        "difference": m.difference(),
        "ci95": m.ci95().map(<[f64; 2]>::from),
    })
}

fn ratio(r: &PairedRatio) -> Value {
    json!({
        "a": r.ratio(0),
        "b": r.ratio(1),
        "difference": r.difference(),
        "ci95": r.ci95().map(<[f64; 2]>::from),
    })
}

/// One run. `responds_to_scoring` is per seat (E, S, W, N): `true` or `false` where taisim
/// knows whether the agent's play depends on the scoring table, `null` where it cannot (an
/// `exec:` bot, told the variant's name).
fn side(s: &Side, responds: [Option<bool>; 4]) -> Value {
    let v = &s.spec.variant;
    json!({
        "dir": s.dir.display().to_string(),
        "format": s.format,
        "variant": { "name": v.name, "origin": v.origin, "sha256": v.sha256 },
        "agents": s.spec.agents.iter().map(|a| a.to_string()).collect::<Vec<_>>(),
        "base": s.spec.base,
        "per_tai": s.spec.per_tai,
        "responds_to_scoring": responds,
        "wins": s.wins,
        "warnings": s.warnings,
    })
}

impl Comparison {
    /// The comparison as JSON. Ratios are null where a run has no wins; `points_*` figures
    /// appear only when both runs score with points; `a.responds_to_scoring` and
    /// `b.responds_to_scoring` are true, false or null (unknown: an `exec:` bot) per seat;
    /// `engine_rule_changes` lists each engine rule that differs (`key`, as a variant file
    /// writes it, with A's value `a` and B's `b`), empty when `same_engine_rules` is not
    /// false; `scoring_table_changes` lists the scoring table's keys that differ the same
    /// way (null when a run's variant file could not be read).
    pub fn to_json(&self) -> Value {
        let per_deal: serde_json::Map<String, Value> = self
            .per_deal
            .iter()
            .zip(PER_DEAL)
            .map(|(m, (key, _, _))| (key.to_string(), mean(m)))
            .collect();
        let per_win: serde_json::Map<String, Value> = self
            .per_win
            .iter()
            .zip(PER_WIN)
            .map(|(r, (key, _, _))| (key.to_string(), ratio(r)))
            .collect();
        let seats: Vec<Value> = Wind::ALL
            .iter()
            .zip(&self.seats)
            .map(|(w, s)| {
                json!({
                    "seat": w.to_string(),
                    "win": mean(&s.win),
                    "deal_in": mean(&s.deal_in),
                    "pay": mean(&s.pay),
                })
            })
            .collect();
        let patterns: Vec<Value> = self
            .patterns
            .iter()
            .map(|p| {
                json!({
                    "id": p.pattern.id(),
                    "name": p.pattern.name_zh(),
                    "wins": [p.share.num[0] as u64, p.share.num[1] as u64],
                    "share": ratio(&p.share),
                })
            })
            .collect();
        let crosstab: Vec<Value> = OUTCOMES
            .iter()
            .enumerate()
            .flat_map(|(i, a)| {
                OUTCOMES.iter().enumerate().map(move |(j, b)| (i, j, a, b))
            })
            .filter(|(i, j, _, _)| self.crosstab[*i][*j] > 0)
            .map(|(i, j, a, b)| json!({ "a": a.name(), "b": b.name(), "deals": self.crosstab[i][j] }))
            .collect();
        json!({
            "a": side(&self.a, self.a.responds()),
            "b": side(&self.b, self.b.responds()),
            "deals": self.deals,
            "seed": self.a.spec.seed,
            "same_engine_rules": self.same_engine_rules,
            "engine_rule_changes": changes(&self.rule_changes),
            "scoring_table_changes": self.table_changes.as_deref().map(changes),
            "warnings": self.warnings(),
            "outcome_changed": proportion(self.outcome_changed),
            "outcome_or_winners_changed": proportion(self.result_changed),
            "outcome_crosstab": crosstab,
            "per_deal": per_deal,
            "per_win": per_win,
            "seats": seats,
            "patterns": patterns,
        })
    }
}

/// Keys that differ: each with A's value `a` and B's `b`.
fn changes(changes: &[RuleChange]) -> Vec<Value> {
    changes
        .iter()
        .map(|c| json!({ "key": c.key, "a": c.from, "b": c.to }))
        .collect()
}
