//! The search agent's review of one seat's decisions in a deal: at each decision with a real
//! choice, a search with every legal action a candidate on the state the seat decided in
//! (each action's estimated expected points with its standard error), the action played, and
//! the action the search agent as named plays there (`search`, `search:N` or a tuned
//! `search:N:SETTING=VALUE`: the agent itself, deciding on the seat's view, its prior pruning
//! included). `taisim review`, `taisim play` and the HTML page show it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use taisim_agents::protocol::action_json;
use taisim_agents::search::{ActionEstimate, SearchAgent};
use taisim_agents::{Agent, AgentSpec, GreedyAgent, SearchSpec};
use taisim_score::Variant;
use taisim_sim::{Action, ActionList, Deal, Seat, Tile};

/// One decision of the seat.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewedDecision {
    /// The deal's decision number (from 1, every seat's decisions counted).
    pub step: u16,
    pub hand: taisim_sim::Hand,
    /// The tile (discard or kong) the seat answered, when it answered one.
    pub offer: Option<Tile>,
    pub played: Action,
    /// What the reviewing search agent plays here: its default unless another of the
    /// actions its prior keeps beats it by its margin.
    pub search_plays: Option<Action>,
    /// The action of highest mean, among every legal action, of those that survived the
    /// racing to the end of the review's search.
    pub best: Option<Action>,
    /// The search's default: its own policy's choice (greedy's, or the value agent's under
    /// `own=value`), which every action's advantage is measured against.
    pub default: Option<Action>,
    /// Greedy's choice, whatever the search's default.
    pub greedy: Option<Action>,
    pub determinizations: u32,
    /// Every legal action's estimate, in the engine's order; empty when the search did not
    /// search (a win it took unsearched: under `wins=take`, or one robbing a flower before the
    /// first turn).
    pub estimates: Vec<ActionEstimate>,
    /// The estimates `search_plays` was chosen on: the reviewing agent's own search, of the
    /// actions it raced (its prior's candidates at a turn), on determinizations of its own.
    /// The same as `estimates` (less the actions it never played) where it prunes nothing.
    pub decided_on: Vec<ActionEstimate>,
}

/// A seat's decisions in a deal, reviewed.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    pub deal_id: u64,
    pub seat: Seat,
    /// The reviewing search agent as named: its budget (determinizations a decision) and
    /// settings.
    pub search: SearchSpec,
    pub decisions: Vec<ReviewedDecision>,
}

/// Reviews `seat`'s decisions among `decisions` (each the deal before it and the action
/// played) with two searches at each, both configured as `search` names them: the agent as
/// it plays (what it would play here), and the same search with every legal action a
/// candidate (the estimates; one search serves both when `search` prunes no candidate).
/// Both are fresh agents reset for the deal, deciding on the seat's view alone; a search
/// agent's decision depends only on the deal's seed, its seat and its view, so the first
/// plays exactly what that agent played at the table. A decision with one legal action is
/// skipped.
pub fn review(
    variant: &Arc<Variant>,
    deal_id: u64,
    decisions: &[(Deal, Action)],
    seat: Seat,
    search: SearchSpec,
) -> Review {
    reviewed(variant, deal_id, decisions, seat, search, None)
        .expect("only a set flag stops a review")
}

/// [`review`], stopped once `cancel` is set (`None` then): its searches stop drawing
/// determinizations at once, and no decision after is reviewed. What Ctrl-C sets in
/// Python's `taisim.review`, where a review of a large budget runs for minutes.
pub fn review_cancellable(
    variant: &Arc<Variant>,
    deal_id: u64,
    decisions: &[(Deal, Action)],
    seat: Seat,
    search: SearchSpec,
    cancel: &Arc<AtomicBool>,
) -> Option<Review> {
    reviewed(variant, deal_id, decisions, seat, search, Some(cancel))
}

/// [`review_cancellable`], or [`review`] without a flag.
fn reviewed(
    variant: &Arc<Variant>,
    deal_id: u64,
    decisions: &[(Deal, Action)],
    seat: Seat,
    search: SearchSpec,
    cancel: Option<&Arc<AtomicBool>>,
) -> Option<Review> {
    let mut out = Vec::new();
    for (before, played) in decisions {
        let r = reasons_searched_by(variant, before, seat, search, cancel);
        // A search cut short estimated nothing worth showing: the review is dropped whole.
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return None;
        }
        let Some(r) = r else {
            continue;
        };
        out.push(ReviewedDecision {
            step: before.steps() + 1,
            hand: *before.view(seat).hand(),
            offer: before.tile_on_offer(),
            played: *played,
            search_plays: Some(r.search_plays),
            best: r.best,
            default: r.default,
            greedy: Some(r.greedy),
            determinizations: r.determinizations,
            estimates: r.estimates,
            decided_on: r.decided_on,
        });
    }
    Some(Review {
        deal_id,
        seat,
        search,
        decisions: out,
    })
}

/// What the reviewing search works out at one decision (see [`reasons`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Reasons {
    /// What the reviewing search agent plays here.
    pub search_plays: Action,
    /// The action of highest mean among those raced to the end.
    pub best: Option<Action>,
    /// The search's default: its own policy's choice.
    pub default: Option<Action>,
    /// Greedy's choice.
    pub greedy: Action,
    pub determinizations: u32,
    /// Every legal action's estimate, in the engine's order (empty for a win taken
    /// unsearched).
    pub estimates: Vec<ActionEstimate>,
    /// The estimates `search_plays` was chosen on, of the actions that search raced, in the
    /// engine's order (see [`ReviewedDecision::decided_on`]).
    pub decided_on: Vec<ActionEstimate>,
}

/// The review of the decision `seat` faces in `deal`, as [`review`] makes it for each
/// decision of a deal: `None` when the seat is not the one to act or has a single legal
/// action. It decides on the seat's view alone, so it serves a state still being played (an
/// environment's) as well as a recorded one.
pub fn reasons(
    variant: &Arc<Variant>,
    deal: &Deal,
    seat: Seat,
    search: SearchSpec,
) -> Option<Reasons> {
    reasons_searched_by(variant, deal, seat, search, None)
}

/// [`reasons`], its searches stopped once `cancel` is set (their figures then partial: a
/// caller that sets it discards them).
pub fn reasons_cancellable(
    variant: &Arc<Variant>,
    deal: &Deal,
    seat: Seat,
    search: SearchSpec,
    cancel: &Arc<AtomicBool>,
) -> Option<Reasons> {
    reasons_searched_by(variant, deal, seat, search, Some(cancel))
}

/// [`reasons`], its searches stopped once `cancel` is set (their figures then partial).
fn reasons_searched_by(
    variant: &Arc<Variant>,
    deal: &Deal,
    seat: Seat,
    search: SearchSpec,
    cancel: Option<&Arc<AtomicBool>>,
) -> Option<Reasons> {
    if deal.to_act() != Some(seat) {
        return None;
    }
    let mut legal = ActionList::new();
    deal.legal_actions(&mut legal);
    if legal.len() < 2 {
        return None;
    }
    let agent_config = search.config();
    let mut every_action = agent_config;
    every_action.prune = false;
    let view = deal.view(seat);
    let searched = |config| {
        let mut agent = SearchAgent::new(Arc::clone(variant), config);
        if let Some(flag) = cancel {
            agent = agent.cancelled_by(Arc::clone(flag));
        }
        agent.reset(deal.seed(), seat);
        let played = agent.act(&view, &legal);
        (played, agent)
    };
    let (search_plays, agent) = searched(agent_config);
    let decided_on = raced(&agent.last_decision().estimates).copied().collect();
    // A search that prunes no candidate here (one named `prune=all`, or any at an offer of a
    // discard) already estimated every action: the same search again would only repeat it.
    let agent = if agent_config.prunes_at(&view) {
        searched(every_action).1
    } else {
        agent
    };
    let d = agent.last_decision();
    Some(Reasons {
        search_plays,
        best: d.best,
        default: d.default,
        greedy: GreedyAgent::for_variant(variant).act(&view, &legal),
        determinizations: d.determinizations,
        estimates: d.estimates.to_vec(),
        decided_on,
    })
}

/// Of a search's estimates, those of the actions it played on any determinization.
fn raced(estimates: &[ActionEstimate]) -> impl Iterator<Item = &ActionEstimate> {
    estimates.iter().filter(|e| e.rollouts > 0)
}

/// The search agent `agent` names, as a review's reviewing search; another agent is refused
/// with a message that says what a review takes.
pub fn reviewing_search(agent: AgentSpec) -> Result<SearchSpec, String> {
    match agent {
        AgentSpec::Search(spec) => Ok(spec),
        other => Err(format!(
            "a review is a search agent's (search, search:N, search:N:SETTING=VALUE or search:SETTING=VALUE), not {other}"
        )),
    }
}

impl Review {
    /// The reviewing agent's name, as the command line names agents (`search`,
    /// `search:512:indifference=0.05`).
    pub fn agent_name(&self) -> String {
        AgentSpec::Search(self.search).to_string()
    }

    /// Who chooses the reviewing search's default (the `own` setting: `greedy`, `value`).
    pub fn default_by(&self) -> &'static str {
        self.search.config().own.name()
    }
}

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

fn estimates_json(s: &mut String, estimates: &[ActionEstimate]) {
    for (j, e) in estimates.iter().enumerate() {
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
}

impl ReviewedDecision {
    /// Whether `search_plays` was chosen on other estimates than the review's of every
    /// action: the reviewing agent pruned candidates here, and raced them apart.
    pub fn decided_apart(&self) -> bool {
        !raced(&self.estimates).eq(&self.decided_on)
    }
}

impl Review {
    /// The review as one JSON object (`taisim review --json`; the HTML page embeds it).
    pub fn to_json(&self) -> String {
        let mut s = format!(
            "{{\"deal\":{},\"seat\":\"{}\",\"search\":\"{}\",\"budget\":{},\"default_by\":\"{}\",\"decisions\":[",
            self.deal_id,
            self.seat,
            self.agent_name(),
            self.search.determinizations,
            self.default_by()
        );
        for (i, d) in self.decisions.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            let tiles: Vec<String> = d.hand.tiles().map(|t| format!("\"{t}\"")).collect();
            s.push_str(&format!(
                "{{\"step\":{},\"hand\":[{}],\"offer\":{},\"played\":{},\"search_plays\":{},\"best\":{},\"default\":{},\"greedy\":{},\"determinizations\":{},\"estimates\":[",
                d.step,
                tiles.join(","),
                d.offer.map_or("null".into(), |t| format!("\"{t}\"")),
                action_json(d.played),
                opt_action(d.search_plays),
                opt_action(d.best),
                opt_action(d.default),
                opt_action(d.greedy),
                d.determinizations
            ));
            estimates_json(&mut s, &d.estimates);
            s.push_str("],\"decided_on\":[");
            estimates_json(&mut s, &d.decided_on);
            s.push_str(&format!("],\"decided_apart\":{}}}", d.decided_apart()));
        }
        s.push_str("]}");
        s
    }

    /// The review as text for people: per decision, every action's mean and standard error,
    /// `>` on the action played and `*` on the one the search plays.
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "review of seat {} in deal {} ({}: every legal action's estimate; * what the agent plays)\n",
            self.seat,
            self.deal_id,
            self.agent_name()
        );
        s.push_str(
            "  > played   * the search plays   points are the seat's at the end of the deal\n",
        );
        if self.decisions.iter().any(ReviewedDecision::decided_apart) {
            s.push_str(
                "  as decided: where shown, the figures * was chosen on, those of the agent's own search,\n  which races only the candidates its prior keeps at a turn, on determinizations of its own\n",
            );
        }
        for d in &self.decisions {
            let offer = d
                .offer
                .map(|t| format!(", answering {t}"))
                .unwrap_or_default();
            s.push_str(&format!("\nstep {}: hand {}{offer}\n", d.step, d.hand));
            if d.estimates.is_empty() {
                s.push_str(&format!(
                    "  played {}; a win the search takes without searching (wins=take, or a flower robbed before the first turn)\n",
                    d.played
                ));
                continue;
            }
            let apart = d.decided_apart();
            s.push_str("     action                 mean   s.e.  rollouts");
            s.push_str(if apart {
                "   as decided:  mean   s.e.  rollouts\n"
            } else {
                "\n"
            });
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
                    "  {mark} {:<20} {:>+7.3} {:>6.3} {:>9}",
                    e.action.to_string(),
                    e.mean,
                    e.std_error,
                    e.rollouts
                ));
                match d.decided_on.iter().find(|o| o.action == e.action) {
                    Some(o) if apart => s.push_str(&format!(
                        "  {:>+18.3} {:>6.3} {:>9}\n",
                        o.mean, o.std_error, o.rollouts
                    )),
                    // Not among the candidates the agent raced.
                    None if apart => s.push_str(&format!("  {:>18}\n", "–")),
                    _ => s.push('\n'),
                }
            }
            if d.best != d.search_plays {
                if let Some(b) = d.best {
                    s.push_str(&format!(
                        "  (highest mean of the actions raced to the end: {b}; the search keeps its default, {}'s choice, unless another of the actions its prior keeps beats it by its margin{})\n",
                        self.default_by(),
                        if apart { ", on its own figures (as decided)" } else { "" }
                    ));
                }
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use taisim_agents::search::{SearchConfig, Wins};
    use taisim_agents::value::ValueAgent;
    use taisim_agents::{play_deal_with, BuiltinAgent};
    use taisim_sim::{deal_seed, DealContext, Wind};

    /// Plays a deal with `agents`, recording each decision as the review takes them.
    fn played(variant: &Variant, seed: u64, agents: &mut [BuiltinAgent; 4]) -> Vec<(Deal, Action)> {
        let context = DealContext {
            round_wind: Wind::new((seed >> 3) as u8),
            dealer: Wind::new(seed as u8),
            streak: 0,
        };
        let mut deal = Deal::new(variant.rules(), seed, context).unwrap();
        let mut decisions = Vec::new();
        play_deal_with(&mut deal, agents, &mut ActionList::new(), |d, a| {
            decisions.push((d.clone(), a));
        });
        decisions
    }

    /// Greedy in every seat.
    fn greedy_table(variant: &Arc<Variant>) -> [BuiltinAgent; 4] {
        let g = "greedy"
            .parse::<AgentSpec>()
            .unwrap()
            .build(variant)
            .unwrap();
        [g.clone(), g.clone(), g.clone(), g]
    }

    /// A review cancelled before it starts reviews nothing; one whose flag is never set is
    /// the plain review; one cancelled while it runs (from another thread, once it is under
    /// way) stops within the search it is running.
    #[test]
    fn a_cancelled_review_stops_within_its_search() {
        let variant = Arc::new(Variant::builtin("taiwan16").unwrap());
        let decisions = played(&variant, deal_seed(43, 0), &mut greedy_table(&variant));
        let spec = SearchSpec::with_budget(16);
        let set = Arc::new(AtomicBool::new(true));
        let review_with = |flag: &Arc<AtomicBool>| {
            review_cancellable(&variant, 0, &decisions, Seat::ALL[0], spec, flag)
        };
        assert_eq!(review_with(&set), None);
        let unset = Arc::new(AtomicBool::new(false));
        let whole = review_with(&unset).expect("nothing cancels it");
        // Each decision as reasons gives it, searched by an agent with no flag at all.
        let unflagged: Vec<Reasons> = decisions
            .iter()
            .filter_map(|(before, _)| reasons(&variant, before, Seat::ALL[0], spec))
            .collect();
        assert_eq!(whole.decisions.len(), unflagged.len());
        assert!(!unflagged.is_empty());
        for (d, r) in whole.decisions.iter().zip(&unflagged) {
            assert_eq!((d.search_plays, d.best), (Some(r.search_plays), r.best));
            assert_eq!(
                (d.determinizations, &d.estimates),
                (r.determinizations, &r.estimates)
            );
        }

        // The largest budget with no indifference races every action to the end: a review
        // for hours. The flag, set by another thread while it runs, stops it in its first
        // search.
        let huge: SearchSpec = format!("{}:indifference=0", SearchConfig::MAX_DETERMINIZATIONS)
            .parse()
            .unwrap();
        let flag = Arc::new(AtomicBool::new(false));
        let reviewed = std::thread::scope(|scope| {
            let worker = scope
                .spawn(|| review_cancellable(&variant, 0, &decisions, Seat::ALL[0], huge, &flag));
            std::thread::sleep(std::time::Duration::from_millis(50));
            flag.store(true, Ordering::Relaxed);
            worker.join().unwrap()
        });
        assert_eq!(reviewed, None, "the review ran to its end");
    }

    /// Under every shipped variant: the review covers exactly the seat's decisions with a
    /// choice, gives every legal action an estimate in the engine's order (a win offered too,
    /// unless the search is named `wins=take` or the win robs a flower before the first turn), and names greedy's choice and the search's default (the value agent's choice
    /// under `own=value`); and a review of a search agent's own play, plain (`search:24`) or
    /// tuned (`search:24:margin=0:first=8:own=value:wins=take`), by that agent marks at
    /// every decision the very action it played, which a review that rebuilt another state,
    /// another view, another seed or another configuration than the table's would not (the
    /// tuned agent's play is reviewed by the plain one too, and differs from it somewhere).
    #[test]
    fn the_review_covers_every_action_and_the_search_reviews_its_own_play() {
        const BUDGET: u32 = 24;
        let plain = SearchSpec::with_budget(BUDGET);
        let tuned: SearchSpec = format!("{BUDGET}:margin=0:first=8:own=value:wins=take")
            .parse()
            .unwrap();
        let mut checked = 0;
        let mut tuned_apart = 0;
        let mut wins_searched = 0;
        let mut decided_apart = 0;
        for name in Variant::names() {
            let variant = Arc::new(Variant::builtin(name).unwrap());
            for i in 0..2u64 {
                let seed = deal_seed(41, i);
                let spec = if i == 0 { plain } else { tuned };
                let search: BuiltinAgent = AgentSpec::Search(spec).build(&variant).unwrap();
                let greedy = || "greedy".parse::<taisim_agents::AgentSpec>().unwrap();
                let g = greedy().build(&variant).unwrap();
                let seat = Seat::ALL[i as usize * 2 + 1];
                let mut agents = [g.clone(), g.clone(), g.clone(), g];
                agents[seat as usize] = search;
                let decisions = played(&variant, seed, &mut agents);
                let r = review(&variant, 7, &decisions, seat, spec);
                assert_eq!((r.deal_id, r.seat, r.search), (7, seat, spec));
                if spec == tuned {
                    let by_plain = review(&variant, 7, &decisions, seat, plain);
                    tuned_apart += r
                        .decisions
                        .iter()
                        .zip(&by_plain.decisions)
                        .filter(|(t, p)| t.search_plays != p.search_plays)
                        .count();
                }
                let mut legal = ActionList::new();
                let mine: Vec<&(Deal, Action)> = decisions
                    .iter()
                    .filter(|(d, _)| {
                        d.legal_actions(&mut legal);
                        d.to_act() == Some(seat) && legal.len() > 1
                    })
                    .collect();
                assert_eq!(r.decisions.len(), mine.len(), "{name} deal {i}");
                for (d, (before, played)) in r.decisions.iter().zip(mine) {
                    before.legal_actions(&mut legal);
                    let view = before.view(seat);
                    assert_eq!(d.step, before.steps() + 1);
                    assert_eq!(d.played, *played);
                    assert_eq!(
                        d.search_plays,
                        Some(*played),
                        "{name} deal {i} step {}: the agent played {played}",
                        d.step
                    );
                    assert_eq!(
                        d.greedy,
                        Some(GreedyAgent::for_variant(&variant).act(&view, &legal))
                    );
                    let default = if spec == tuned {
                        ValueAgent::new(Arc::clone(&variant)).act(&view, &legal)
                    } else {
                        GreedyAgent::for_variant(&variant).act(&view, &legal)
                    };
                    assert_eq!(d.default, Some(default));
                    let win = legal.iter().any(|a| a.is_win());
                    if win && (spec.config().wins == Wins::Take || !view.can_redeal()) {
                        assert!(d.estimates.is_empty());
                        continue;
                    }
                    wins_searched += usize::from(win);
                    let actions: Vec<Action> = d.estimates.iter().map(|e| e.action).collect();
                    assert_eq!(actions, legal.to_vec(), "{name} deal {i} step {}", d.step);
                    for e in &d.estimates {
                        assert!(e.rollouts >= 1 && e.rollouts <= d.determinizations);
                        assert!(e.mean.is_finite() && e.std_error >= 0.0, "{e:?}");
                    }
                    // The default is never culled, nor is the best.
                    let most = d.estimates.iter().map(|e| e.rollouts).max().unwrap();
                    let rollouts = |a: Option<Action>| {
                        d.estimates
                            .iter()
                            .find(|e| Some(e.action) == a)
                            .unwrap()
                            .rollouts
                    };
                    assert_eq!(rollouts(d.default), most);
                    assert_eq!(rollouts(d.best), most);
                    // The figures shown as the agent's are the ones it chose on (its search,
                    // run again on the same view, holds them), and by them its choice follows
                    // its rule: another action than the default only when the best of those
                    // left in its race beats the default by its margin.
                    let mut agent = SearchAgent::new(Arc::clone(&variant), spec.config());
                    agent.reset(before.seed(), seat);
                    assert_eq!(Some(agent.act(&view, &legal)), d.search_plays);
                    let own = agent.last_decision();
                    let own_raced: Vec<ActionEstimate> = raced(&own.estimates).copied().collect();
                    assert_eq!(d.decided_on, own_raced);
                    let shown = |a: Option<Action>| {
                        d.decided_on.iter().find(|e| Some(e.action) == a).unwrap()
                    };
                    let margin = spec.config().margin;
                    let clears = |e: &ActionEstimate| {
                        e.advantage > margin * e.advantage_error && e.advantage > 0.0
                    };
                    if d.search_plays == d.default {
                        assert!(own.best == d.default || !clears(shown(own.best)), "{d:?}");
                    } else {
                        assert_eq!(own.best, d.search_plays, "{d:?}");
                        assert!(clears(shown(d.search_plays)), "{d:?}");
                    }
                    if spec.config().prunes_at(&view) {
                        decided_apart += usize::from(d.decided_apart());
                    } else {
                        assert!(!d.decided_apart(), "{d:?}");
                    }
                    checked += 1;
                }
                // A review is a function of the deal: the same twice.
                assert_eq!(r, review(&variant, 7, &decisions, seat, spec));
                // The text shows the agent's own columns where it decided apart; the JSON
                // carries its figures and says where they differ.
                let apart = r.decisions.iter().any(ReviewedDecision::decided_apart);
                assert_eq!(r.to_text().contains("as decided:"), apart);
                let json: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
                let shown = json["decisions"].as_array().unwrap();
                assert_eq!(shown.len(), r.decisions.len());
                for (d, j) in r.decisions.iter().zip(shown) {
                    assert_eq!(j["decided_apart"], d.decided_apart());
                    let own = j["decided_on"].as_array().unwrap();
                    assert_eq!(own.len(), d.decided_on.len());
                }
            }
        }
        assert!(checked > 60, "{checked} decisions reviewed");
        assert!(wins_searched > 0, "no win offered was searched");
        assert!(
            decided_apart > 10,
            "{decided_apart} decisions decided on figures of their own"
        );
        assert!(
            tuned_apart > 0,
            "the tuned search plays as the plain one throughout"
        );
    }

    /// A search that prunes nothing (`prune=all`) is searched once for its review: what it
    /// plays and every estimate are those of that search alone, to the bit, under the
    /// variants of the plain and the wild paths.
    #[test]
    fn an_unpruned_search_reviews_from_its_own_search() {
        let spec: SearchSpec = "16:prune=all".parse().unwrap();
        assert!(!spec.config().prune);
        let mut checked = 0;
        for name in ["taiwan16", "taizhou"] {
            let variant = Arc::new(Variant::builtin(name).unwrap());
            let decisions = played(&variant, deal_seed(43, 0), &mut greedy_table(&variant));
            for (deal, _) in decisions.iter().step_by(5) {
                let seat = deal.to_act().unwrap();
                let Some(r) = reasons(&variant, deal, seat, spec) else {
                    continue;
                };
                let mut legal = ActionList::new();
                deal.legal_actions(&mut legal);
                let mut agent = SearchAgent::new(Arc::clone(&variant), spec.config());
                agent.reset(deal.seed(), seat);
                assert_eq!(r.search_plays, agent.act(&deal.view(seat), &legal));
                let d = agent.last_decision();
                assert_eq!((r.best, r.default), (d.best, d.default));
                assert_eq!(r.determinizations, d.determinizations);
                assert_eq!(r.estimates, d.estimates.to_vec());
                checked += usize::from(!r.estimates.is_empty());
            }
        }
        assert!(checked > 10, "{checked} searched decisions");
    }

    /// At an offer of a discard a pruning search is the search of every action, to the bit,
    /// so its review searches once there and still gives the estimates of a search that
    /// prunes nothing, which is what a review shows at every decision. Under the variants of
    /// the plain and the wild paths.
    #[test]
    fn a_pruning_search_at_an_offer_is_reviewed_from_its_own_search() {
        let spec = SearchSpec::with_budget(16);
        assert!(spec.config().prune);
        let mut every_action = spec.config();
        every_action.prune = false;
        let mut offers = 0;
        for name in ["taiwan16", "taizhou"] {
            let variant = Arc::new(Variant::builtin(name).unwrap());
            for i in 0..3 {
                let decisions = played(&variant, deal_seed(44, i), &mut greedy_table(&variant));
                for (deal, _) in &decisions {
                    let seat = deal.to_act().unwrap();
                    let Some(r) = reasons(&variant, deal, seat, spec) else {
                        continue;
                    };
                    let view = deal.view(seat);
                    assert_eq!(
                        spec.config().prunes_at(&view),
                        view.tile_on_offer().is_none()
                    );
                    if view.tile_on_offer().is_none() || r.estimates.is_empty() {
                        continue;
                    }
                    let mut legal = ActionList::new();
                    deal.legal_actions(&mut legal);
                    let mut agent = SearchAgent::new(Arc::clone(&variant), every_action);
                    agent.reset(deal.seed(), seat);
                    let unpruned = agent.act(&view, &legal);
                    let d = agent.last_decision();
                    assert_eq!(
                        r.estimates,
                        d.estimates.to_vec(),
                        "{name} step {}",
                        deal.steps()
                    );
                    assert_eq!((r.best, r.default), (d.best, d.default));
                    assert_eq!(r.search_plays, unpruned);
                    // The premise of searching once: the pruning search itself estimated
                    // every action, to the bit.
                    let mut pruning = SearchAgent::new(Arc::clone(&variant), spec.config());
                    pruning.reset(deal.seed(), seat);
                    assert_eq!(pruning.act(&view, &legal), unpruned);
                    assert_eq!(pruning.last_decision().estimates, d.estimates);
                    offers += 1;
                }
            }
        }
        assert!(offers > 10, "{offers} offers reviewed");
    }
}
