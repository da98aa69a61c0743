//! `AgentSpec::responds_to_scoring` (issue 25) against what the agents do: on the same walls
//! under the same engine rules, an agent that declares it does not respond plays every deal
//! the same whatever the scoring table, and the search and the value agent, which declare they
//! do, play some deal differently when the table changes. `taisim compare` warns from the
//! declaration, so a declaration that the agents' play contradicts would mislead every
//! comparison.

use std::sync::Arc;

use taisim_agents::{build_agents, parse_agents, play_deal_with};
use taisim_score::Variant;
use taisim_sim::{Action, ActionList, Deal, DealContext};

/// taiwan16 with its table turned upside down (the same engine rules): what a hand is worth,
/// and so what the search's rollouts score, changes everywhere.
fn other_table() -> Arc<Variant> {
    let text = "extends = \"taiwan16\"\nname = \"upside-down\"\n\
                [patterns]\nall_chows = 20\nhalf_flush = 0\nfull_flush = 0\nall_pungs = 0\n\
                self_draw = 10\nconcealed_hand = 8\ndragon_pung = 0\nseat_flower = 6\n\
                [settlement]\nbase = 30\n";
    let v = Variant::from_toml_str(text, "upside-down.toml").unwrap();
    assert_eq!(v.rules(), Variant::builtin("taiwan16").unwrap().rules());
    Arc::new(v)
}

/// Every decision of deals `seeds` played by `agents` under `variant`.
fn play(agents: &str, variant: &Arc<Variant>, seeds: std::ops::Range<u64>) -> Vec<Vec<Action>> {
    let specs = parse_agents(agents).unwrap();
    let mut built = build_agents(&specs, variant).unwrap();
    let mut legal = ActionList::new();
    seeds
        .map(|seed| {
            let mut deal = Deal::new(variant.rules(), seed, DealContext::FIRST).unwrap();
            let mut actions = Vec::new();
            play_deal_with(&mut deal, &mut built, &mut legal, |_, a| actions.push(a));
            actions
        })
        .collect()
}

#[test]
fn agents_that_declare_they_ignore_the_table_play_the_same_under_another() {
    let (base, other) = (
        Arc::new(Variant::builtin("taiwan16").unwrap()),
        other_table(),
    );
    for agents in [
        "random",
        "greedy",
        "defensive",
        "trained",
        "greedy,defensive,random,trained",
    ] {
        for spec in parse_agents(agents).unwrap() {
            assert_eq!(spec.responds_to_scoring(), Some(false), "{spec}");
        }
        assert_eq!(
            play(agents, &base, 0..40),
            play(agents, &other, 0..40),
            "{agents}"
        );
    }
}

/// An outside bot is told the variant's name (its hello says it) and may play by it, so
/// whether it responds is not known: neither yes nor no.
#[test]
fn whether_an_outside_bot_responds_is_unknown() {
    for name in ["exec:./bot", "exec:python3 bot.py --fast"] {
        let spec: taisim_agents::AgentSpec = name.parse().unwrap();
        assert_eq!(spec.responds_to_scoring(), None, "{spec}");
    }
}

/// The agents that declare they respond (the search at a small budget, the value agent in
/// every seat) play some deal differently when the table changes.
#[test]
fn agents_that_declare_they_respond_play_differently_under_another_table() {
    let (base, other) = (
        Arc::new(Variant::builtin("taiwan16").unwrap()),
        other_table(),
    );
    for (agents, deals) in [("search:24,greedy,greedy,greedy", 12), ("value", 40)] {
        assert_eq!(
            parse_agents(agents).unwrap()[0].responds_to_scoring(),
            Some(true)
        );
        let (a, b) = (
            play(agents, &base, 0..deals),
            play(agents, &other, 0..deals),
        );
        assert!(
            a.iter().zip(&b).any(|(x, y)| x != y),
            "{agents} played {deals} deals the same under two scoring tables"
        );
    }
}

/// The value agent's response to the table pays where the table pays for hands: in a
/// duplicate match against greedy (the value agent in each seat in turn, greedy in the
/// others, against greedy in all four on the same wall) it gains under the 2015 table, whose
/// patterns pay far more for big hands, and under taizhou's, with the whole 95% interval above
/// zero. Measured over 40,000 walls of development seed 101: +1.06 ± 0.03 and +2.32 ± 0.13
/// points a deal; a weighing turned the wrong way loses. Since both agents let a win below
/// 起胡 go (2026-12-07) most of the 2015 figure is gone: `taisim arena --candidate value
/// --baseline greedy --deals 40000 --seed 101 --variant taiwan16-2015` gives +0.351 ± 0.016
/// (+1.186 ± 0.021 with the build before, greedy fined for its false wins).
#[test]
fn the_value_agent_beats_greedy_where_the_table_pays_for_hands() {
    use taisim_agents::value::ValueAgent;
    use taisim_agents::{BuiltinAgent, GreedyAgent};
    use taisim_score::score_deal;
    use taisim_sim::{deal_seed, Seat};
    const WALLS: u64 = 1_500;
    for name in ["taiwan16-2015", "taizhou"] {
        let variant = Arc::new(Variant::builtin(name).unwrap());
        let stakes = variant.settlement();
        let mut legal = ActionList::new();
        let mut points = |seat: Option<Seat>, seed: u64| {
            let mut agents =
                [(); 4].map(|_| BuiltinAgent::Greedy(GreedyAgent::for_variant(&variant)));
            if let Some(s) = seat {
                agents[s as usize] = BuiltinAgent::Value(ValueAgent::new(Arc::clone(&variant)));
            }
            let mut deal = Deal::new(variant.rules(), seed, DealContext::FIRST).unwrap();
            taisim_agents::play_deal(&mut deal, &mut agents, &mut legal);
            score_deal(&deal, &variant, stakes.base, stakes.per_tai)
                .unwrap()
                .payments
        };
        let diffs: Vec<f64> = (0..WALLS)
            .map(|w| {
                let seed = deal_seed(20_261_205, w);
                let greedy = points(None, seed);
                Seat::ALL
                    .into_iter()
                    .map(|s| (points(Some(s), seed)[s] - greedy[s]) as f64 / 4.0)
                    .sum()
            })
            .collect();
        let n = diffs.len() as f64;
        let mean = diffs.iter().sum::<f64>() / n;
        let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0);
        let low = mean - 1.96 * (var / n).sqrt();
        assert!(low > 0.0, "{name}: {mean:+.3}, 95% interval from {low:+.3}");
    }
}
