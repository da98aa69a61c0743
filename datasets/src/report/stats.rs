//! The statistics a report is made of: proportions with Wilson intervals, running moments
//! with normal intervals, and the per-seat and per-pattern counters built from them.

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.96;

/// The Wilson score interval of a proportion of `k` successes in `n` trials at normal
/// quantile `z`; `(0, 0)` when `n` is 0.
pub fn wilson_interval(k: u64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 0.0);
    }
    let n = n as f64;
    let p = k as f64 / n;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// `k` of `n`: a rate with its Wilson interval.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Proportion {
    pub k: u64,
    pub n: u64,
}

impl Proportion {
    pub const fn new(k: u64, n: u64) -> Proportion {
        Proportion { k, n }
    }

    /// `k / n`, 0 when `n` is 0.
    pub fn rate(self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.k as f64 / self.n as f64
        }
    }

    /// The 95% Wilson score interval of the rate.
    pub fn ci95(self) -> (f64, f64) {
        wilson_interval(self.k, self.n, Z95)
    }
}

/// Count, sum and sum of squares of integer samples: exact, so merging in any order gives
/// the same figures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Moments {
    pub n: u64,
    pub sum: i128,
    pub sum_sq: i128,
}

impl Moments {
    pub fn add(&mut self, x: i64) {
        let x = x as i128;
        self.n += 1;
        self.sum += x;
        self.sum_sq += x * x;
    }

    pub fn merge(&mut self, other: &Moments) {
        self.n += other.n;
        self.sum += other.sum;
        self.sum_sq += other.sum_sq;
    }

    /// The sample mean, 0 with no samples.
    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.sum as f64 / self.n as f64
        }
    }

    /// The sample standard deviation (n − 1 in the denominator), 0 with fewer than two
    /// samples.
    pub fn std_dev(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = self.n as i128;
        // n·Σx² − (Σx)² is exact in integers and never negative.
        let numerator = (n * self.sum_sq - self.sum * self.sum).max(0);
        (numerator as f64 / (n as f64 * (n - 1) as f64)).sqrt()
    }

    /// Half the width of the 95% interval of the mean: z·s/√n.
    pub fn half_width95(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            Z95 * self.std_dev() / (self.n as f64).sqrt()
        }
    }
}

/// One seat's figures over the run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SeatStats {
    /// The agent as `--agents` spells it.
    pub agent: String,
    /// Wins (at most one per deal).
    pub wins: u64,
    /// Of which self-drawn.
    pub self_drawn: u64,
    /// Deals in which the seat alone paid a winner (`discarder`: the discarder, the robbed
    /// kong's or flower's owner).
    pub deal_ins: u64,
    /// The seat's net payment per deal.
    pub pay: Moments,
}

/// One pattern's figures: how many wins count it and the tai it gave them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PatternStats {
    /// Its stable id (`self_draw`, `dragon_pung`, …).
    pub id: String,
    /// Its Chinese name.
    pub name: String,
    /// Wins that count it (a pattern is counted at most once per win).
    pub wins: u64,
    /// Tai it contributed, all those wins together.
    pub tai: u64,
}

impl PatternStats {
    /// Mean tai it gives a win that counts it.
    pub fn mean_tai(&self) -> f64 {
        Proportion::new(self.tai, self.wins).rate()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moments_match_two_pass() {
        let xs = [3i64, -7, 12, 0, 5, 5, -2];
        let mut m = Moments::default();
        for x in xs {
            m.add(x);
        }
        let n = xs.len() as f64;
        let mean = xs.iter().sum::<i64>() as f64 / n;
        let var = xs.iter().map(|&x| (x as f64 - mean).powi(2)).sum::<f64>() / (n - 1.0);
        assert!((m.mean() - mean).abs() < 1e-12);
        assert!((m.std_dev() - var.sqrt()).abs() < 1e-12);
        assert!((m.half_width95() - 1.96 * var.sqrt() / n.sqrt()).abs() < 1e-12);
    }
}
