//! What the search knows of each candidate action: its rollouts' points, summed, and paired
//! with the default action's on the same determinizations (common random numbers).

use arrayvec::ArrayVec;
use taisim_sim::Action;

/// The most candidates a decision has: a turn's legal actions (bounded as `ActionList` is).
pub const MAX_CANDIDATES: usize = 41;

/// One candidate's running sums.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Candidate {
    pub(crate) action: Action,
    /// Still being played on new determinizations.
    pub(crate) alive: bool,
    pub(crate) n: u32,
    sum: f64,
    sum_sq: f64,
    /// Σ (this − default) and its squares, over the same determinizations.
    diff: f64,
    diff_sq: f64,
}

impl Candidate {
    pub(crate) const fn new(action: Action) -> Candidate {
        Candidate {
            action,
            alive: true,
            n: 0,
            sum: 0.0,
            sum_sq: 0.0,
            diff: 0.0,
            diff_sq: 0.0,
        }
    }

    /// Adds one determinization's points, with the default action's on it.
    #[inline]
    pub(crate) fn add(&mut self, points: f64, default_points: f64) {
        self.n += 1;
        self.sum += points;
        self.sum_sq += points * points;
        let d = points - default_points;
        self.diff += d;
        self.diff_sq += d * d;
    }

    pub(crate) fn mean(&self) -> f64 {
        self.sum / self.n.max(1) as f64
    }

    /// The standard error of [`Candidate::mean`] (0 below two rollouts).
    pub(crate) fn std_error(&self) -> f64 {
        std_error(self.n, self.sum, self.sum_sq)
    }

    /// The mean advantage over the default action on the same determinizations.
    pub(crate) fn advantage(&self) -> f64 {
        self.diff / self.n.max(1) as f64
    }

    /// The standard error of [`Candidate::advantage`].
    pub(crate) fn advantage_error(&self) -> f64 {
        std_error(self.n, self.diff, self.diff_sq)
    }
}

fn std_error(n: u32, sum: f64, sum_sq: f64) -> f64 {
    (variance(n, sum, sum_sq) / f64::from(n.max(1))).sqrt()
}

/// The sample variance of `n` values from their sum and sum of squares (0 below two values).
pub(crate) fn variance(n: u32, sum: f64, sum_sq: f64) -> f64 {
    if n < 2 {
        return 0.0;
    }
    let n = f64::from(n);
    ((sum_sq - sum * sum / n) / (n - 1.0)).max(0.0)
}

/// The candidates of one decision.
pub(crate) type Candidates = ArrayVec<Candidate, MAX_CANDIDATES>;

/// Keeps the better half of the live candidates by mean (rounded up), and the default action
/// (index `default`) whatever its rank. Ties keep the earlier candidate.
pub(crate) fn halve(candidates: &mut Candidates, default: usize) {
    let alive = candidates.iter().filter(|c| c.alive).count();
    let keep = alive.div_ceil(2);
    let mut order: ArrayVec<usize, MAX_CANDIDATES> = (0..candidates.len())
        .filter(|&i| candidates[i].alive)
        .collect();
    order.sort_by(|&a, &b| {
        candidates[b]
            .mean()
            .total_cmp(&candidates[a].mean())
            .then(a.cmp(&b))
    });
    for &i in &order[keep..] {
        if i != default {
            candidates[i].alive = false;
        }
    }
}
