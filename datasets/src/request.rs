//! A run as a user asks for it ([`RunRequest`]: every field optional, from the command line
//! or Python) turned into the [`RunSpec`] to play: the defaults of a new run, or the recorded
//! run's own values on resume. Above `run.rs` and `resume.rs`, which it asks what a directory
//! recorded; nothing below imports it.

use taisim_agents::parse_agents;
use taisim_score::{check_stakes, Variant};

use crate::error::HarnessError;
use crate::resume::{
    recorded_spec, refuse_another_run, resumable_without_manifest, resume_spec, SpecSource,
};
use crate::spec::{sha256_hex, RunSpec, RunVariant, Shard, Unit};
use crate::table::DecisionSeats;

/// A run as a user asks for it: every field optional. [`RunRequest::spec`] fills the gaps
/// with the defaults of a new run, or with the recorded run's own values on resume
/// (where any field given must then agree with the run).
#[derive(Clone, Debug, Default)]
pub struct RunRequest {
    pub variant: Option<String>,
    pub deals: Option<u64>,
    pub games: Option<u64>,
    pub seed: Option<u64>,
    pub agents: Option<String>,
    pub part_size: Option<u64>,
    pub shard: Option<Shard>,
    pub log_actions: bool,
    pub base: Option<i64>,
    pub per_tai: Option<i64>,
    pub decisions: Option<DecisionSeats>,
    /// `search` or `search:N`: labels every recorded decision with that search's estimates.
    pub label_with: Option<String>,
}

impl RunRequest {
    /// The default run: 1,000,000 deals of taiwan16, greedy agents, seed 0.
    pub const DEFAULT_DEALS: u64 = 1_000_000;
    pub const DEFAULT_AGENTS: &'static str = "greedy";

    /// The spec of the run to play into `out`.
    pub fn spec(&self, out: &std::path::Path, resume: bool) -> Result<RunSpec, HarnessError> {
        self.spec_and_source(out, resume).map(|(spec, _)| spec)
    }

    /// [`RunRequest::spec`], and where a resume read it from (`None`: from the arguments, a
    /// new run or a directory that records none), for a message that says so.
    pub fn spec_and_source(
        &self,
        out: &std::path::Path,
        resume: bool,
    ) -> Result<(RunSpec, Option<SpecSource>), HarnessError> {
        if self.deals.is_some() && self.games.is_some() {
            return Err(HarnessError::Usage(
                "give a number of deals or of games, not both".into(),
            ));
        }
        let shard = self.shard.unwrap_or(Shard::WHOLE);
        // What the directory recorded (its manifest, journal or part files); a run killed
        // before its first manifest resumes from the arguments alone.
        let recorded = match resume {
            true => recorded_spec(out, shard)?,
            false => None,
        };
        if resume && recorded.is_none() && !resumable_without_manifest(out, shard) {
            // Names what is missing.
            resume_spec(out, shard)?;
        }
        let from_manifest = recorded.is_some();
        let mut spec = if let Some((spec, _)) = &recorded {
            spec.clone()
        } else {
            // The one place a new run's variant is looked up and parsed; every stage after
            // takes this object.
            let variant =
                RunVariant::by_name_or_path(self.variant.as_deref().unwrap_or(Variant::DEFAULT))?;
            let settlement = variant.variant().settlement();
            let unit = if self.games.is_some() {
                Unit::Games
            } else {
                Unit::Deals
            };
            RunSpec {
                unit,
                count: RunRequest::DEFAULT_DEALS,
                seed: 0,
                agents: parse_agents(RunRequest::DEFAULT_AGENTS).expect("a known agent"),
                part_size: unit.default_part_size(),
                shard,
                log_actions: false,
                base: settlement.base,
                per_tai: settlement.per_tai,
                decisions: None,
                label_with: None,
                variant,
            }
        };
        if let (Some(name), true) = (&self.variant, from_manifest) {
            let asked = Variant::find(name)?;
            // The same variant read from elsewhere keeps the run's record of it (and is not
            // parsed again); another one replaces it, and the resume is refused naming it.
            if sha256_hex(asked.text.as_bytes()) != spec.variant.record().sha256 {
                spec.variant = RunVariant::from_text(asked.text, asked.origin)?;
            }
        }
        if let Some(n) = self.deals {
            spec.unit = Unit::Deals;
            spec.count = n;
        }
        if let Some(n) = self.games {
            spec.unit = Unit::Games;
            spec.count = n;
        }
        if let Some(seed) = self.seed {
            spec.seed = seed;
        }
        if let Some(agents) = &self.agents {
            spec.agents = parse_agents(agents)?;
        }
        if let Some(n) = self.part_size {
            spec.part_size = n;
        }
        if self.log_actions {
            spec.log_actions = true;
        }
        if let Some(base) = self.base {
            spec.base = base;
        }
        if let Some(per_tai) = self.per_tai {
            spec.per_tai = per_tai;
        }
        if let Some(seats) = self.decisions {
            spec.decisions = Some(seats);
        }
        if let Some(labeller) = &self.label_with {
            spec.label_with = Some(labeller.parse()?);
        }
        if !from_manifest && self.part_size.is_none() {
            spec.part_size = spec.default_part_size();
        }
        if let Some((recorded, source)) = &recorded {
            refuse_another_run(out, recorded, &spec, *source)?;
        }
        spec.validate()?;
        // Stakes the settlement cannot pay exactly are refused before anything is played,
        // not met as an error at the run's first win.
        check_stakes(spec.variant.variant(), spec.base, spec.per_tai)?;
        Ok((spec, recorded.map(|(_, source)| source)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part_size(request: RunRequest) -> u64 {
        let out = std::env::temp_dir().join("taisim-request-test-never-written");
        request.spec(&out, false).unwrap().part_size
    }

    fn asking(agents: &str) -> RunRequest {
        RunRequest {
            deals: Some(1_000),
            agents: Some(agents.into()),
            ..RunRequest::default()
        }
    }

    /// A run seating the search or a bot would be one default part, played on one thread.
    #[test]
    fn a_slow_seat_or_labeller_cuts_the_run_into_small_parts() {
        let fast = Unit::Deals.default_part_size();
        let slow = Unit::Deals.slow_part_size();
        assert_eq!(part_size(asking("greedy")), fast);
        assert_eq!(part_size(asking("greedy,trained,random,defensive")), fast);
        assert_eq!(part_size(asking("search,greedy,greedy,greedy")), slow);
        assert_eq!(part_size(asking("greedy,greedy,greedy,search:64")), slow);
        assert_eq!(part_size(asking("exec:python3 bot.py")), slow);
        let labelled = RunRequest {
            decisions: Some("all".parse().unwrap()),
            label_with: Some("search:64".into()),
            ..asking("greedy")
        };
        assert_eq!(part_size(labelled), slow);
        let recorded = RunRequest {
            decisions: Some("all".parse().unwrap()),
            ..asking("greedy")
        };
        assert_eq!(part_size(recorded), fast / 32);
        let games = RunRequest {
            deals: None,
            games: Some(100),
            ..asking("search:64")
        };
        assert_eq!(part_size(games), Unit::Games.slow_part_size());
        // A part size asked for is kept.
        let asked = RunRequest {
            part_size: Some(500),
            ..asking("search")
        };
        assert_eq!(part_size(asked), 500);
    }
}
