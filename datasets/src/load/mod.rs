//! Reading a run's decisions table back into flat arrays ([`load_decisions`]), fast enough
//! that loading a behaviour-cloning dataset costs less than a pass of training over it.
//!
//! Nearly all of a decision's bytes are its observation (2,176 bytes) and mask (144), stored
//! as PLAIN fixed-size binaries in zstd pages. Those two columns are read page by page: each
//! page is decompressed straight into its place in one preallocated array, the pages of every
//! row group shared out over the threads, with no per-value decoding. The small
//! columns (ids, seat, action, reward, layout version) go through the Arrow reader. A column
//! chunk laid out otherwise (a file rewritten by another tool with dictionary pages, say) is
//! read through the Arrow reader too, into the same place: slower, never refused.
//!
//! Here the API and the plan of a load; `part.rs` opens a part and reads its small
//! columns, `pages.rs` shares the wide columns' pages out into tasks and reads them, and
//! `paging.rs` asks the kernel to map the output before it is filled.

mod pages;
mod paging;
mod part;

use std::path::Path;

use rayon::prelude::*;
use taisim_agents::{ACTION_SPACE_SIZE, OBS_CHANNELS, OBS_LEN, OBS_VERSION};

use crate::error::HarnessError;
use crate::read::Run;
use crate::table::DecisionSeats;
use pages::plan;
use part::{open_part, read_group, Group, PartBytes, Small};

/// A run's decisions as flat arrays, one entry (or row of entries) per decision, in part
/// order and, within a part, in the order they were taken.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Decisions {
    pub rows: usize,
    /// `rows × OBS_LEN` numerators.
    pub obs: Vec<u8>,
    /// `rows × ACTION_SPACE_SIZE`, 0 or 1.
    pub mask: Vec<u8>,
    pub action: Vec<i64>,
    pub reward: Vec<f32>,
    pub seat: Vec<u8>,
    pub deal: Vec<u64>,
    pub step: Vec<u32>,
    pub obs_version: u32,
    pub obs_channels: usize,
    /// The search labels of a labelled table (`simulate` with a search agent at a recorded
    /// seat, or `--label-with`); `None` for a table without them.
    pub search: Option<SearchLabels>,
}

/// The search-label columns of the decisions table, one entry (or row of
/// `ACTION_SPACE_SIZE` entries, indexed by action) per decision.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchLabels {
    /// The search's choice, −1 where no search decided.
    pub action: Vec<i64>,
    /// Mean points per action; NaN where not estimated.
    pub mean: Vec<f32>,
    /// Mean points more than the search's default action, on the same determinizations;
    /// NaN where not estimated.
    pub advantage: Vec<f32>,
    /// Rollouts behind each mean; 0 where not estimated.
    pub rollouts: Vec<u32>,
}

/// The table's leaf columns, as the decisions schema orders them.
mod leaf {
    pub const DEAL: usize = 0;
    pub const STEP: usize = 1;
    pub const SEAT: usize = 2;
    pub const OBS: usize = 3;
    pub const MASK: usize = 4;
    pub const ACTION: usize = 5;
    pub const REWARD: usize = 6;
    pub const OBS_VERSION: usize = 7;
    /// The first search-label column (after `variant`), and the four of them.
    pub const SEARCH_ACTION: usize = 9;
    pub const SEARCH: [usize; 4] = [9, 10, 11, 12];
}

/// The wide columns read page by page: (leaf, bytes per row).
pub(crate) const WIDE: [(usize, usize); 2] =
    [(leaf::OBS, OBS_LEN), (leaf::MASK, ACTION_SPACE_SIZE)];

/// Output bytes one task fills at least (whole pages): large enough that opening a page
/// reader and skipping to the task's first page cost nothing beside it, small enough that
/// a row group of 128 Ki rows (256 MiB of observations) makes dozens of tasks for the
/// threads to share.
pub(crate) const TASK_BYTES: usize = 4 << 20;

/// How the wide columns are read: page by page ([`load_decisions`]), or every chunk through
/// the Arrow reader (the slow path, kept as the reference the tests compare with).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) enum Wide {
    Pages,
    Arrow,
}

/// Reads the decisions table of the run in `dir`, only the rows of `seats` if given.
/// Errors name the problem: no such run, a run written without `--decisions`, a part
/// that is missing, unreadable, damaged or of another layout, or a row no run records (a
/// seat, action or mask byte out of range, an action its own mask forbids, a reward that is
/// not finite, an observation numerator above its denominator), named by its file and row.
///
/// A part's SHA-256 is not compared with the manifest's: a part rewritten by another tool
/// (other pages, compression) reads as long as its rows pass; `taisim compare` verifies
/// checksums.
pub fn load_decisions(dir: &Path, seats: Option<DecisionSeats>) -> Result<Decisions, HarnessError> {
    load(dir, seats, Wide::Pages, None)
}

/// [`load_decisions`] with the observations and masks written into the caller's `obs`
/// (`rows × OBS_LEN`) and `mask` (`rows × ACTION_SPACE_SIZE`) instead of fresh vectors,
/// which are left empty in the result. A training loop that reloads a run into the arrays
/// of its previous load saves the kernel's faulting-in of fresh memory, two fifths of a
/// load's CPU time. Slices of another number of rows than the table's are a usage error, raised before
/// any byte of them is written.
pub fn load_decisions_into(
    dir: &Path,
    seats: Option<DecisionSeats>,
    obs: &mut [u8],
    mask: &mut [u8],
) -> Result<Decisions, HarnessError> {
    load(dir, seats, Wide::Pages, Some((obs, mask)))
}

pub(crate) fn bad(path: &Path, message: impl Into<String>) -> HarnessError {
    HarnessError::Corrupt {
        path: path.to_path_buf(),
        message: message.into(),
    }
}

/// A Parquet or Arrow error reading `path`.
pub(crate) fn unreadable<E: std::error::Error + Send + Sync + 'static>(
    path: &Path,
) -> impl Fn(E) -> HarnessError + '_ {
    move |e| HarnessError::Parquet {
        action: "cannot read",
        path: path.to_path_buf(),
        source: Box::new(e),
    }
}

/// The caller's observation and mask slices ([`load_decisions_into`]).
type Dest<'a> = (&'a mut [u8], &'a mut [u8]);

fn load(
    dir: &Path,
    seats: Option<DecisionSeats>,
    wide: Wide,
    dest: Option<Dest<'_>>,
) -> Result<Decisions, HarnessError> {
    let run = Run::open(dir)?;
    if run.spec().decisions.is_none() {
        return Err(HarnessError::Usage(format!(
            "the run in {} has no decisions table: it was simulated without --decisions",
            dir.display()
        )));
    }
    let labelled = run.spec().search_labels();
    let parts: Vec<PartBytes> = run
        .parts
        .par_iter()
        .map(|p| {
            let record = p.decisions.as_ref().ok_or_else(|| {
                bad(
                    &run.dir.join("manifest.json"),
                    format!("part {} records no decisions file", p.index),
                )
            })?;
            // No row takes 4 KB even uncompressed (2,176 observation and 144 mask bytes),
            // nor 6 KB more with search labels (1,729 bytes): a file larger than that is not
            // a part of this table.
            let row_bytes = if labelled { 10 << 10 } else { 4 << 10 };
            let limit = record
                .rows
                .saturating_mul(row_bytes)
                .saturating_add(1 << 20);
            let part = open_part(&run.path(record), record.rows, limit, labelled)?;
            run.check_footer(p.index, &part.path, part.meta.metadata().file_metadata())?;
            Ok::<_, HarnessError>(part)
        })
        .collect::<Result<_, _>>()?;
    let seats = seats.filter(|&s| s != DecisionSeats::ALL);
    let units: Vec<(usize, usize)> = parts
        .iter()
        .enumerate()
        .flat_map(|(p, part)| (0..part.meta.metadata().num_row_groups()).map(move |g| (p, g)))
        .collect();
    let groups: Vec<Group> = units
        .into_par_iter()
        .map(|(p, g)| read_group(&parts[p], p, g, seats, wide))
        .collect::<Result<_, _>>()?;

    let rows: usize = groups.iter().map(|g| g.small.seat.len()).sum();
    let mut out = Decisions {
        rows,
        obs_version: OBS_VERSION,
        obs_channels: OBS_CHANNELS,
        ..Decisions::default()
    };
    let (obs, mask) = match dest {
        Some((obs, mask)) => {
            if obs.len() != rows * OBS_LEN || mask.len() != rows * ACTION_SPACE_SIZE {
                return Err(HarnessError::Usage(format!(
                    "the arrays given hold {} observations and {} masks; the decisions table of {} has {rows} rows",
                    obs.len() / OBS_LEN,
                    mask.len() / ACTION_SPACE_SIZE,
                    dir.display()
                )));
            }
            (obs, mask)
        }
        None => {
            out.obs = vec![0; rows * OBS_LEN];
            out.mask = vec![0; rows * ACTION_SPACE_SIZE];
            (&mut out.obs[..], &mut out.mask[..])
        }
    };
    let mut tasks = Vec::new();
    for (column, dest) in [obs, mask].into_iter().enumerate() {
        let width = WIDE[column].1;
        let mut rest = dest;
        for (g, group) in groups.iter().enumerate() {
            let kept = group.small.seat.len();
            let (mine, tail) = std::mem::take(&mut rest).split_at_mut(kept * width);
            rest = tail;
            plan(&mut tasks, g, group, column, mine);
        }
    }
    // The small columns are joined by one thread while the others start on the wide ones
    // (it is a few percent of a load that would otherwise run alone at the end).
    let (wide, small) = rayon::join(
        || {
            tasks
                .into_par_iter()
                .try_for_each(|t| t.run(&groups, &parts))
        },
        || join_small(&groups, rows, labelled),
    );
    wide?;
    out.deal = small.deal;
    out.step = small.step;
    out.seat = small.seat;
    out.action = small.action;
    out.reward = small.reward;
    out.search = small.search;
    Ok(out)
}

/// The small columns of `groups` (`rows` rows in all) end to end, with their search labels
/// if `labelled`.
fn join_small(groups: &[Group], rows: usize, labelled: bool) -> Small {
    let mut out = Small {
        deal: Vec::with_capacity(rows),
        step: Vec::with_capacity(rows),
        seat: Vec::with_capacity(rows),
        action: Vec::with_capacity(rows),
        reward: Vec::with_capacity(rows),
        search: labelled.then(|| SearchLabels {
            action: Vec::with_capacity(rows),
            mean: Vec::with_capacity(rows * ACTION_SPACE_SIZE),
            advantage: Vec::with_capacity(rows * ACTION_SPACE_SIZE),
            rollouts: Vec::with_capacity(rows * ACTION_SPACE_SIZE),
        }),
    };
    for g in groups {
        let s = &g.small;
        out.deal.extend_from_slice(&s.deal);
        out.step.extend_from_slice(&s.step);
        out.seat.extend_from_slice(&s.seat);
        out.action.extend_from_slice(&s.action);
        out.reward.extend_from_slice(&s.reward);
        if let (Some(o), Some(labels)) = (&mut out.search, &s.search) {
            o.action.extend_from_slice(&labels.action);
            o.mean.extend_from_slice(&labels.mean);
            o.advantage.extend_from_slice(&labels.advantage);
            o.rollouts.extend_from_slice(&labels.rollouts);
        }
    }
    out
}

#[cfg(test)]
mod tests;
