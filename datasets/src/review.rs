//! The search agent's review of one seat's decisions in a deal: at each decision with a real
//! choice, a fresh search (every legal action a candidate) on the state the seat decided in,
//! each action's estimated expected points with its standard error, the action played and
//! the one the search would play. `taisim review`, `taisim play` and the HTML page show it.

use std::sync::Arc;

use taisim_agents::protocol::action_json;
use taisim_agents::search::{SearchAgent, SearchConfig};
use taisim_agents::Agent;
use taisim_score::Variant;
use taisim_sim::{Action, ActionList, Deal, Seat, Tile};

/// One action's estimate.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewedAction {
    pub action: Action,
    /// Determinizations it was played on (fewer for an action the halving dropped early).
    pub rollouts: u32,
    /// Mean points of the seat at the end of the deal after this action.
    pub mean: f64,
    pub std_error: f64,
    /// Mean points more than greedy's choice on the same determinizations, and its error.
    pub advantage: f64,
    pub advantage_error: f64,
}

/// One decision of the seat.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewedDecision {
    /// The deal's decision number (from 1, every seat's decisions counted).
    pub step: u16,
    pub hand: taisim_sim::Hand,
    /// The tile (discard or kong) the seat answered, when it answered one.
    pub offer: Option<Tile>,
    pub played: Action,
    /// What the search agent plays here (greedy's choice unless another action beats it by
    /// its margin).
    pub search_plays: Option<Action>,
    /// The action of highest mean among those played on every determinization.
    pub best: Option<Action>,
    /// Greedy's choice (the search's default).
    pub greedy: Option<Action>,
    pub determinizations: u32,
    /// Every legal action's estimate, in the engine's order; empty when the search did not
    /// search (a win offered is taken).
    pub estimates: Vec<ReviewedAction>,
}

/// A seat's decisions in a deal, reviewed.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    pub deal_id: u64,
    pub seat: Seat,
    /// Determinizations a decision.
    pub budget: u32,
    pub decisions: Vec<ReviewedDecision>,
}

/// Reviews `seat`'s decisions among `decisions` (each the deal before it and the action
/// played) with a fresh search of `budget` determinizations at each, every legal action a
/// candidate. A decision with one legal action is skipped.
pub fn review(
    variant: &Arc<Variant>,
    deal_id: u64,
    decisions: &[(Deal, Action)],
    seat: Seat,
    budget: u32,
) -> Review {
    let mut config = SearchConfig::with_budget(budget);
    config.prune = false;
    let mut out = Vec::new();
    let mut legal = ActionList::new();
    for (before, played) in decisions {
        if before.to_act() != Some(seat) {
            continue;
        }
        before.legal_actions(&mut legal);
        if legal.len() < 2 {
            continue;
        }
        let mut agent = SearchAgent::new(Arc::clone(variant), config);
        agent.reset(before.seed(), seat);
        let view = before.view(seat);
        agent.act(&view, &legal);
        let d = agent.last_decision();
        out.push(ReviewedDecision {
            step: before.steps() + 1,
            hand: *view.hand(),
            offer: view.tile_on_offer(),
            played: *played,
            search_plays: d.chosen,
            best: d.best,
            greedy: d.default,
            determinizations: d.determinizations,
            estimates: d
                .estimates
                .iter()
                .map(|e| ReviewedAction {
                    action: e.action,
                    rollouts: e.rollouts,
                    mean: e.mean,
                    std_error: e.std_error,
                    advantage: e.advantage,
                    advantage_error: e.advantage_error,
                })
                .collect(),
        });
    }
    Review {
        deal_id,
        seat,
        budget,
        decisions: out,
    }
}

/// The default budget of a review: the search agent's own.
pub const REVIEW_BUDGET: u32 = SearchConfig::DEFAULT_DETERMINIZATIONS;

fn num(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.4}")
    } else {
        "null".into()
    }
}

fn opt_action(a: Option<Action>) -> String {
    a.map_or("null".into(), action_json)
}

impl Review {
    /// The review as one JSON object (`taisim review --json`; the HTML page embeds it).
    pub fn to_json(&self) -> String {
        let mut s = format!(
            "{{\"deal\":{},\"seat\":\"{}\",\"budget\":{},\"decisions\":[",
            self.deal_id, self.seat, self.budget
        );
        for (i, d) in self.decisions.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            let tiles: Vec<String> = d.hand.tiles().map(|t| format!("\"{t}\"")).collect();
            s.push_str(&format!(
                "{{\"step\":{},\"hand\":[{}],\"offer\":{},\"played\":{},\"search_plays\":{},\"best\":{},\"greedy\":{},\"determinizations\":{},\"estimates\":[",
                d.step,
                tiles.join(","),
                d.offer.map_or("null".into(), |t| format!("\"{t}\"")),
                action_json(d.played),
                opt_action(d.search_plays),
                opt_action(d.best),
                opt_action(d.greedy),
                d.determinizations
            ));
            for (j, e) in d.estimates.iter().enumerate() {
                if j > 0 {
                    s.push(',');
                }
                s.push_str(&format!(
                    "{{\"action\":{},\"rollouts\":{},\"mean\":{},\"std_error\":{},\"advantage\":{},\"advantage_error\":{}}}",
                    action_json(e.action),
                    e.rollouts,
                    num(e.mean),
                    num(e.std_error),
                    num(e.advantage),
                    num(e.advantage_error)
                ));
            }
            s.push_str("]}");
        }
        s.push_str("]}");
        s
    }

    /// The review as text for people: per decision, every action's mean and standard error,
    /// `>` on the action played and `*` on the one the search plays.
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "review of seat {} in deal {} (search, {} determinizations a decision, every legal action a candidate)\n",
            self.seat, self.deal_id, self.budget
        );
        s.push_str(
            "  > played   * the search plays   points are the seat's at the end of the deal\n",
        );
        for d in &self.decisions {
            let offer = d
                .offer
                .map(|t| format!(", answering {t}"))
                .unwrap_or_default();
            s.push_str(&format!("\nstep {}: hand {}{offer}\n", d.step, d.hand));
            if d.estimates.is_empty() {
                s.push_str(&format!(
                    "  played {}; the search takes a win offered without searching\n",
                    d.played
                ));
                continue;
            }
            s.push_str("     action                 mean   s.e.  rollouts\n");
            for e in &d.estimates {
                let mark = format!(
                    "{}{}",
                    if e.action == d.played { '>' } else { ' ' },
                    if Some(e.action) == d.search_plays {
                        '*'
                    } else {
                        ' '
                    }
                );
                s.push_str(&format!(
                    "  {mark} {:<20} {:>+7.3} {:>6.3} {:>9}\n",
                    e.action.to_string(),
                    e.mean,
                    e.std_error,
                    e.rollouts
                ));
            }
            if d.best != d.search_plays {
                if let Some(b) = d.best {
                    s.push_str(&format!(
                        "  (highest mean of the actions played on every determinization: {b}; the search keeps greedy's choice unless another beats it by its margin)\n"
                    ));
                }
            }
        }
        s
    }
}
