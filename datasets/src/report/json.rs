//! A report as one JSON document (`taisim report --json`): the raw counts and the figures
//! derived from them, under stable keys, for scripts.

use serde_json::{json, Value};
use taisim_sim::Wind;

use super::{Estimate, Proportion, Report};
use crate::table::OUTCOMES;

/// A mean, its spread and its interval; null over no samples, where none is defined.
fn moments(m: &impl Estimate) -> Value {
    if m.samples() == 0 {
        return json!({ "n": 0, "mean": null, "sd": null, "ci95": null });
    }
    // One sample has a mean but no spread: its sd and interval are undefined, not 0.
    let spread = m.samples() >= 2;
    let half = m.half_width95();
    json!({
        "n": m.samples(),
        "mean": m.mean(),
        "sd": spread.then(|| m.std_dev()),
        "ci95": spread.then(|| [m.mean() - half, m.mean() + half]),
    })
}

/// A rate and its interval: null when it is a rate of nothing (`of` 0).
pub(crate) fn proportion(p: Proportion) -> Value {
    json!({ "count": p.k, "of": p.n, "rate": p.rate(), "ci95": p.ci95().map(<[f64; 2]>::from) })
}

impl Report {
    /// The report as JSON. `points` and `all_pairs` are null for a run whose variant has no
    /// points model or no all-pairs settlement.
    pub fn to_json(&self) -> Value {
        let s = &self.spec;
        let outcomes: serde_json::Map<String, Value> = OUTCOMES
            .iter()
            .map(|o| (o.name().to_string(), proportion(self.outcome(*o))))
            .collect();
        let seats: Vec<Value> = Wind::ALL
            .iter()
            .zip(&self.seats)
            .map(|(w, st)| {
                json!({
                    "seat": w.to_string(),
                    "agent": st.agent,
                    "wins": st.wins,
                    "self_drawn": st.self_drawn,
                    "deal_ins": st.deal_ins,
                    "dealer_deals": st.dealer,
                    "pay": moments(&st.pay),
                })
            })
            .collect();
        let patterns: Vec<Value> = self
            .patterns
            .iter()
            .map(|p| {
                json!({
                    "id": p.id,
                    "name": p.name,
                    "wins": p.wins,
                    "tai": p.tai,
                    "frequency": proportion(self.pattern_frequency(p)),
                    "mean_tai": p.mean_tai(),
                    "hu": p.hu,
                    "mean_hu": p.mean_hu(),
                })
            })
            .collect();
        let tai_histogram: Vec<Value> = self
            .tai_histogram
            .iter()
            .map(|(tai, n)| json!({ "tai": tai, "wins": n }))
            .collect();
        let points = self.points.as_ref().map(|p| {
            let quantiles: serde_json::Map<String, Value> = super::render::POINTS_QUANTILES
                .iter()
                .map(|&(name, q)| (name.to_string(), json!(p.points_quantile(q))))
                .collect();
            json!({
                "hu_per_win": moments(&p.hu_per_win),
                "points_per_win": moments(&p.points_per_win),
                "points_quantiles": quantiles,
                "points_histogram": p
                    .points_histogram
                    .iter()
                    .map(|(points, n)| json!({ "points": points, "wins": n }))
                    .collect::<Vec<_>>(),
            })
        });
        let all_pairs = self.all_pairs.as_ref().map(|a| {
            json!({
                "responsible": proportion(Proportion::new(a.responsible_wins, self.wins)),
                "dealer_pay": moments(&a.dealer_pay),
                "non_dealer_pay": moments(&a.non_dealer_pay),
            })
        });
        json!({
            "dir": self.dir.display().to_string(),
            "variant": { "name": s.variant.name, "origin": s.variant.origin, "sha256": s.variant.sha256 },
            "agents": s.agents.iter().map(|a| a.to_string()).collect::<Vec<_>>(),
            "unit": s.unit.name(),
            "count": s.count,
            "seed": s.seed,
            "part_size": s.part_size,
            "base": s.base,
            "per_tai": s.per_tai,
            "shards_present": self.shards_present.iter().map(|k| k.to_string()).collect::<Vec<_>>(),
            "shard_count": s.shard.count,
            "parts_counted": self.parts_counted,
            "parts_in_run": self.parts_in_run,
            "checksums_verified": self.checksums_verified,
            // Which tables' files the figures were read from and, with checksums verified,
            // checked: never the decisions table, which no figure here reads.
            "tables_read": ["deals", "wins", "tai"],
            "warnings": self.warnings,
            "unrecorded_files": self.unrecorded,
            "deals": self.deals,
            "wins": self.wins,
            "tai_rows": self.tai_rows,
            "outcomes": outcomes,
            "won": proportion(self.won()),
            "multi_winner_deals": self.multi_winner_deals,
            "self_drawn_wins": self.self_drawn_wins,
            "capped_wins": self.capped_wins,
            "below_minimum_wins": self.below_minimum_wins,
            "below_minimum_fined": self.below_minimum_fined,
            "tai_per_win": moments(&self.tai_per_win),
            "tai_per_deal": moments(&self.tai_per_deal),
            "payment_per_win": moments(&self.payment_per_win),
            "seats": seats,
            "patterns": patterns,
            "tai_histogram": tai_histogram,
            "round_winds": Wind::ALL.iter().zip(self.round_winds).map(|(w, n)| (w.to_string(), json!(n))).collect::<serde_json::Map<_, _>>(),
            "dealer_is_fixed": self.fixed_dealer().is_some(),
            "points": points,
            "all_pairs": all_pairs,
        })
    }
}
