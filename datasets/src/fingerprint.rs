//! The play fingerprint: how a run's agents played its first deal, recorded in its
//! manifest, so that parts played another way never join the run.
//!
//! A spec names its agents (`search`, `policy:w.safetensors`) but not how they play. The same
//! name plays otherwise after a newer taisim changes an agent or plain `search`'s settings,
//! or after a weights file is written again, and a resumed run, a shard added from another
//! machine, or a replay of a deal would then mix two ways of play under one name. Every
//! built-in agent is a function of the deal's seed and what it sees, so playing one deal
//! again and comparing tells: its decisions, what each search worked out for them (its
//! choice and estimates: a change that keeps the choices of this deal still shows) and its
//! payments (a change to scoring or settlement shows too).
//!
//! A policy's weights are recorded besides: a weights file trained further may well play
//! the first deal as before and every later one otherwise, which no single deal can tell.
//! Each policy seat's SHA-256 is of the policy as loaded, written out canonically
//! ([`taisim_agents::Policy::to_bytes`]): the file's metadata order and a rename do not
//! matter, and the hash is of the weights that play (never a second read of a file that
//! may have changed since).

use serde::{Deserialize, Serialize};
use taisim_agents::{AgentSpec, BuiltinAgent};
use taisim_score::Variant;
use taisim_sim::Wind;

use crate::error::HarnessError;
use crate::play::Player;
use crate::spec::{sha256_hex, short_sha256, RunSpec};
use crate::table::PartTables;

/// What the manifest records of the run's play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayFingerprint {
    /// The deal played again: the run's first (deal id 0: deal 0, or game 0's first deal).
    pub deal_id: u64,
    /// Each seat's agent as a run records it ([`AgentSpec::recorded`]: a search's threads
    /// left out) with every setting spelled out ([`AgentSpec::in_full`]), in seat order E, S,
    /// W, N: for the reader, and to say which seat differs.
    pub agents: [String; 4],
    /// SHA-256 of the deal's trace: its decisions' action indices (a byte each, as
    /// `--log-actions` records them); then, decision by decision, what every search (the
    /// acting seat's, and a `--label-with` labeller's) worked out (its choice,
    /// determinizations, and each action's index, rollouts, mean and advantage as `f32`,
    /// little-endian); then the four payments (E, S, W, N; `i64`, little-endian).
    pub sha256: String,
    /// Each seat's policy weights (`policy:PATH`, `trained`): the SHA-256 of the policy as
    /// loaded, written out canonically; `None` for a seat without weights. Absent from a
    /// manifest written before taisim recorded weights (and from any run without a policy
    /// seat): nothing is compared then.
    #[serde(default, skip_serializing_if = "no_weights")]
    pub weights: [Option<String>; 4],
}

fn no_weights(weights: &[Option<String>; 4]) -> bool {
    weights.iter().all(Option::is_none)
}

impl PlayFingerprint {
    /// How `other` (another taisim's, or another shard's) differs from this one, or `None`
    /// when they agree.
    pub fn difference(&self, other: &PlayFingerprint, [this, that]: [&str; 2]) -> Option<String> {
        // A fingerprint written before runs left a search's threads out names them.
        let recorded = |name: &str| {
            name.parse::<AgentSpec>()
                .map_or_else(|_| name.to_string(), |a| a.recorded().in_full())
        };
        let renamed = (0..4).find(|&s| recorded(&self.agents[s]) != recorded(&other.agents[s]));
        // Only where both sides recorded a seat's weights: an older run's manifest has none.
        let reweighted = (0..4).find_map(|s| match (&self.weights[s], &other.weights[s]) {
            (Some(a), Some(b)) if a != b => Some((s, a, b)),
            _ => None,
        });
        if renamed.is_none()
            && reweighted.is_none()
            && self.deal_id == other.deal_id
            && self.sha256 == other.sha256
        {
            return None;
        }
        Some(match (renamed, reweighted) {
            (Some(s), _) => format!(
                "seat {}'s agent is {} {this} and {} {that}",
                Wind::ALL[s], self.agents[s], other.agents[s]
            ),
            (None, Some((s, a, b))) => format!(
                "seat {}'s {} has weights SHA-256 {}… {this} and {}… {that}: its weights changed",
                Wind::ALL[s],
                self.agents[s],
                short_sha256(a),
                short_sha256(b)
            ),
            (None, None) if self.deal_id != other.deal_id => format!(
                "the fingerprint is of deal {} {this} and of deal {} {that}",
                self.deal_id, other.deal_id
            ),
            (None, None) => format!(
                "the agents ({}) play deal {} otherwise: its decisions, the searches' estimates or its payments differ (trace SHA-256 {}… {this}, {}… {that})",
                self.agents.join(","),
                self.deal_id,
                short_sha256(&self.sha256),
                short_sha256(&other.sha256)
            ),
        })
    }
}

/// The fingerprint of `agents` (built from `spec.agents` under `variant`) playing the run's
/// first deal; `None` when a seat is an outside program (`exec:`): taisim cannot vouch for
/// how another program plays, and would start it only to find out.
pub(crate) fn fingerprint(
    spec: &RunSpec,
    variant: &Variant,
    agents: &[BuiltinAgent; 4],
) -> Result<Option<PlayFingerprint>, HarnessError> {
    if spec.seats_bots() {
        return Ok(None);
    }
    // The run's decisions table and labeller too, so that the labels' search is traced.
    let probe = RunSpec {
        log_actions: true,
        ..spec.clone()
    };
    let mut tables = PartTables::new(true, 1, probe.decisions, probe.search_labels());
    let mut player = Player::new(&probe, variant, agents.clone());
    let trace = player.trace_first_deal(&mut tables)?;
    Ok(Some(PlayFingerprint {
        deal_id: 0,
        agents: spec.agents.each_ref().map(|a| a.recorded().in_full()),
        sha256: sha256_hex(&trace),
        weights: agents.each_ref().map(weights_sha256),
    }))
}

/// The SHA-256 of a policy seat's weights, as loaded and written out canonically.
fn weights_sha256(agent: &BuiltinAgent) -> Option<String> {
    match agent {
        BuiltinAgent::Policy(a) => Some(sha256_hex(&a.policy().to_bytes())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{Shard, Unit};
    use crate::table::DecisionSeats;
    use taisim_agents::build_agents;

    fn spec(agents: &str) -> RunSpec {
        RunSpec {
            seed: 7,
            ..crate::spec::test_spec(agents)
        }
    }

    fn of(spec: &RunSpec) -> Option<PlayFingerprint> {
        let variant = spec.variant.variant();
        let agents = build_agents(&spec.agents, variant).unwrap();
        fingerprint(spec, variant, &agents).unwrap()
    }

    #[test]
    fn the_fingerprint_follows_play_not_the_layout() {
        let greedy = spec("greedy");
        let a = of(&greedy).unwrap();
        assert_eq!(a.deal_id, 0);
        assert_eq!(a.agents, ["greedy"; 4].map(String::from));
        assert_eq!(
            of(&greedy).as_ref(),
            Some(&a),
            "the same spec, the same fingerprint"
        );
        // What only lays the rows out otherwise (actions logged, parts, the run's length,
        // a shard) plays the first deal alike.
        let laid_out = RunSpec {
            log_actions: true,
            part_size: 7,
            count: 50,
            shard: Shard { index: 2, count: 3 },
            ..greedy.clone()
        };
        assert_eq!(of(&laid_out).as_ref(), Some(&a));
        // Another seed's deal, another game of it, another agent: another trace.
        let other_seed = of(&RunSpec {
            seed: 8,
            ..greedy.clone()
        })
        .unwrap();
        let games = of(&RunSpec {
            unit: Unit::Games,
            ..greedy.clone()
        })
        .unwrap();
        let random = of(&spec("random,greedy,greedy,greedy")).unwrap();
        for other in [&other_seed, &games, &random] {
            assert_ne!(other.sha256, a.sha256);
        }
        assert_eq!(random.agents[0], "random");
        assert!(a.difference(&a, ["here", "there"]).is_none());
        let renamed = a.difference(&random, ["here", "there"]).unwrap();
        assert!(
            renamed.starts_with("seat E's agent is greedy here and random there"),
            "{renamed}"
        );
        let replayed = a.difference(&other_seed, ["here", "there"]).unwrap();
        assert!(replayed.contains("play deal 0 otherwise"), "{replayed}");
    }

    /// A labeller's search is traced: greedy plays the same decisions under either labeller,
    /// so only what the labels' search worked out tells the two apart.
    #[test]
    fn a_labellers_search_is_in_the_trace() {
        let labelled = |budget: &str| {
            of(&RunSpec {
                decisions: Some(DecisionSeats::ALL),
                label_with: Some(budget.parse().unwrap()),
                ..spec("greedy")
            })
            .unwrap()
        };
        let (four, eight) = (labelled("search:4"), labelled("search:8"));
        assert_eq!(four.agents, eight.agents);
        assert_ne!(four.sha256, eight.sha256);
        assert_eq!(labelled("search:4"), four);
        let unlabelled = of(&spec("greedy")).unwrap();
        assert_ne!(unlabelled.sha256, four.sha256);
    }

    /// A search's threads change how fast it plays, never what: the fingerprint is the same,
    /// and one recorded before runs left the threads out (naming them) agrees with it.
    #[test]
    fn a_searchs_threads_are_not_its_play() {
        let one = of(&spec("search:4,greedy,greedy,greedy")).unwrap();
        let two = of(&spec("search:4:threads=2,greedy,greedy,greedy")).unwrap();
        assert_eq!(one, two);
        assert_eq!(one.agents[0], "search:4");
        let named = |seat_e: &str| PlayFingerprint {
            agents: [seat_e, "greedy", "greedy", "greedy"].map(String::from),
            ..one.clone()
        };
        let older = named("search:4:threads=2");
        assert!(one.difference(&older, ["here", "there"]).is_none());
        assert!(older.difference(&one, ["here", "there"]).is_none());
        let renamed = one
            .difference(&named("search:8:threads=2"), ["here", "there"])
            .unwrap();
        assert!(
            renamed.starts_with("seat E's agent is search:4 here and search:8:threads=2 there"),
            "{renamed}"
        );
        let replayed = one
            .difference(
                &PlayFingerprint {
                    sha256: "0".repeat(64),
                    ..older
                },
                ["here", "there"],
            )
            .unwrap();
        assert!(replayed.contains("play deal 0 otherwise"), "{replayed}");
    }

    /// A policy seat's weights are compared where both sides recorded them, and tell apart
    /// two policies whose first deal's trace agrees; a side without them (a manifest written
    /// before weights were recorded) is not compared.
    #[test]
    fn a_policy_seats_weights_are_compared_where_both_recorded_them() {
        let trained = of(&spec("trained,greedy,greedy,greedy")).unwrap();
        let weights = trained.weights[0].clone().unwrap();
        assert_eq!(weights.len(), 64);
        assert_eq!(trained.weights[1..], [None, None, None]);
        assert_eq!(
            of(&spec("greedy")).unwrap().weights,
            [None, None, None, None]
        );
        let reweighted = PlayFingerprint {
            weights: [Some("f".repeat(64)), None, None, None],
            ..trained.clone()
        };
        let why = trained.difference(&reweighted, ["here", "there"]).unwrap();
        assert_eq!(
            why,
            format!(
                "seat E's trained has weights SHA-256 {}… here and ffffffffffff… there: its weights changed",
                &weights[..12]
            )
        );
        let older = PlayFingerprint {
            weights: Default::default(),
            ..trained.clone()
        };
        assert!(trained.difference(&older, ["here", "there"]).is_none());
        assert!(older.difference(&trained, ["here", "there"]).is_none());
        // Only a run with a policy seat writes the field: other manifests read as before.
        let json = serde_json::to_string(&of(&spec("greedy")).unwrap()).unwrap();
        assert!(!json.contains("weights"), "{json}");
        let back: PlayFingerprint =
            serde_json::from_str(&serde_json::to_string(&trained).unwrap()).unwrap();
        assert_eq!(back, trained);
    }

    #[test]
    fn an_outside_program_has_no_fingerprint() {
        assert_eq!(of(&spec("exec:false,greedy,greedy,greedy")), None);
    }
}
