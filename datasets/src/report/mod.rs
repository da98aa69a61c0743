//! `taisim report`: the statistics of a run directory.
//!
//! The parts are read batch by batch (only the columns a figure needs) and folded into
//! integer counters, one [`Tally`] per part, merged in part order; every figure derives from
//! those integers at the end. So the report needs memory for one batch per thread whatever
//! the run's size, and the same run gives the same text whatever the thread count.
//!
//! Intervals are 95% (z = 1.96): Wilson score intervals for proportions, and
//! mean ± z·s/√n (s the sample standard deviation) for means.

pub(crate) mod json;
pub(crate) mod render;
mod stats;
mod tally;

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use taisim_sim::Outcome;

use crate::error::HarnessError;
use crate::read::Run;
use crate::spec::{RecordedSpec, Shard};
use crate::table::OUTCOMES;
pub use stats::{
    wilson_interval, AllPairsStats, Estimate, Moments, PatternStats, PointsStats, Proportion,
    SeatStats, SeatsOfDeal, Z95,
};
use tally::Tally;

/// How to compute a report.
#[derive(Clone, Debug)]
pub struct ReportOptions {
    /// Read every part file whole and check its SHA-256 against the manifest (row counts
    /// and sizes are always checked).
    pub verify_checksums: bool,
    /// Worker threads (1 to [`crate::MAX_THREADS`]); `None` for every core. The report
    /// does not depend on it.
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
    pub spec: RecordedSpec,
    pub shards_present: Vec<Shard>,
    pub parts_counted: u64,
    pub parts_in_run: u64,
    /// Missing shards, unfinished manifests, files no manifest records.
    pub warnings: Vec<String>,
    /// Files in the table directories that no manifest records ([`Run::unrecorded`]).
    pub unrecorded: Vec<String>,
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
    /// Wins below the variant's minimum (起胡): the hand is not paid, and where the variant
    /// fines a false win (詐胡) its claimant pays each other seat the fine.
    pub below_minimum_wins: u64,
    /// Of those, the wins whose claimant paid a fine.
    pub below_minimum_fined: u64,
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
    /// Deals by round wind, E S W N (all E in a `--deals` run).
    pub round_winds: [u64; 4],
    /// A points variant's run: 胡 and points (`None` for a tai variant's).
    pub points: Option<PointsStats>,
    /// An all-pairs variant's run: 全包 and payments by dealer and non-dealer.
    pub all_pairs: Option<AllPairsStats>,
}

impl Report {
    /// Reads the run in `dir` and computes its report.
    pub fn from_run(dir: &Path, options: &ReportOptions) -> Result<Report, HarnessError> {
        let run = Run::open(dir)?;
        Report::compute(&run, options)
    }

    /// Computes the report of an opened run.
    pub fn compute(run: &Run, options: &ReportOptions) -> Result<Report, HarnessError> {
        crate::pool::check_threads(options.threads)?;
        // No more threads than parts: the others would only be started to idle.
        let threads = options
            .threads
            .unwrap_or_else(|| {
                std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
            })
            .min(run.parts.len().max(1));
        let pool = crate::pool::worker_pool(threads)?;
        // Parts are tallied in parallel a chunk at a time, so few tallies wait at once
        // however many parts the run has, and merged in part order; the first failing
        // part's error is the one reported. Nothing depends on which worker finished first.
        const CHUNK: usize = 64;
        let hu = pattern_hu(run);
        let mut total = Tally::default();
        for chunk in run.parts.chunks(CHUNK) {
            let tallies: Vec<Result<Tally, HarnessError>> = pool.install(|| {
                chunk
                    .par_iter()
                    .map(|p| Tally::of_part(run, p, options.verify_checksums, hu.as_ref()))
                    .collect()
            });
            for (p, t) in chunk.iter().zip(tallies) {
                let t = t?;
                // Every part of a run has the wins columns its variant calls for.
                if total.parts > 0 && t.layout != total.layout {
                    return Err(HarnessError::Corrupt {
                        path: run.path(&p.wins),
                        message: format!(
                            "its columns ({}) are not those of the run's other parts ({})",
                            t.layout_text(),
                            total.layout_text()
                        ),
                    });
                }
                total.merge(t);
            }
        }
        Ok(total.into_report(run, options.verify_checksums, hu.is_some()))
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

    /// The seat that dealt every deal and the round wind of every deal, when one seat and
    /// one wind did (a `--deals` run: each deal is played as a game's first, dealer E in the
    /// East round), so the by-seat table compares the dealer with the non-dealers. A
    /// `--deals` run with no deal counted yet (killed before its first part) is laid out as
    /// the deals it will hold.
    pub fn fixed_dealer(&self) -> Option<(usize, usize)> {
        if self.deals == 0 && self.spec.unit == crate::spec::Unit::Deals {
            return Some((
                taisim_sim::Wind::East as usize,
                taisim_sim::Wind::East as usize,
            ));
        }
        let dealer = self.seats.iter().position(|s| s.dealer == self.deals)?;
        let wind = self.round_winds.iter().position(|n| *n == self.deals)?;
        (self.deals > 0).then_some((dealer, wind))
    }

    /// The share of wins counting `pattern` (multiply by 1,000 for per 1,000 wins).
    pub fn pattern_frequency(&self, pattern: &PatternStats) -> Proportion {
        Proportion::new(pattern.wins, self.wins)
    }
}

/// Each pattern's 胡 under the run's variant, when it is a points variant (taizhou) whose
/// `variant.toml` reads: the tai table records a row's count, and the scorer counts a
/// pattern's 胡 as its value times its count. `None` for a tai variant, and for a run whose
/// variant file this taisim no longer reads (an older format): its patterns' 胡 are then
/// not reported.
fn pattern_hu(run: &Run) -> Option<tally::PatternHu> {
    let recorded = crate::resume::recorded_variant(&run.dir, &run.spec().variant).ok()?;
    let variant = recorded.variant();
    if !matches!(variant.scoring(), taisim_score::ScoringModel::Points { .. }) {
        return None;
    }
    let mut hu = [0; taisim_score::PatternId::COUNT];
    for &p in taisim_score::PatternId::ALL {
        hu[p.index()] = variant.pattern_hu(p);
    }
    Some(hu)
}
