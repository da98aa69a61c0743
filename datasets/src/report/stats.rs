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
    // At k = 0 (or n) the bound is exactly 0 (or 1); rounding left 1e-19 above a rate of
    // 0, an interval that excluded its own estimate.
    let lo = if k == 0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let hi = if k as f64 == n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (lo.min(p), hi.max(p))
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

    /// `k / n`; `None` when `n` is 0: a rate of nothing is undefined, not 0 (a run killed
    /// before its first part has won no deals, and lost none either).
    pub fn rate(self) -> Option<f64> {
        (self.n > 0).then(|| self.k as f64 / self.n as f64)
    }

    /// The 95% Wilson score interval of the rate; `None` when `n` is 0.
    pub fn ci95(self) -> Option<(f64, f64)> {
        (self.n > 0).then(|| wilson_interval(self.k, self.n, Z95))
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

/// A mean over samples, its spread and its 95% interval: what a report prints of a measure.
pub trait Estimate {
    /// The samples (deals, wins, …) the mean is over.
    fn samples(&self) -> u64;
    fn mean(&self) -> f64;
    fn std_dev(&self) -> f64;
    fn half_width95(&self) -> f64;
}

impl Estimate for Moments {
    fn samples(&self) -> u64 {
        self.n
    }
    fn mean(&self) -> f64 {
        Moments::mean(self)
    }
    fn std_dev(&self) -> f64 {
        Moments::std_dev(self)
    }
    fn half_width95(&self) -> f64 {
        Moments::half_width95(self)
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
    /// Deals in which a winner took the seat's tile (`discarder`: the discarder, the robbed
    /// kong's or flower's owner), whoever paid.
    pub deal_ins: u64,
    /// The seat's net payment per deal.
    pub pay: Moments,
    /// Deals the seat dealt (all of them for E in a `--deals` run).
    pub dealer: u64,
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
    /// 胡 it contributed, all those wins together: a points variant's run only (`None`
    /// otherwise, or when its variant file no longer reads).
    pub hu: Option<u64>,
}

impl PatternStats {
    /// Mean tai it gives a win that counts it.
    pub fn mean_tai(&self) -> f64 {
        // A pattern is listed once a win counts it: `wins` is never 0 here.
        Proportion::new(self.tai, self.wins).rate().unwrap_or(0.0)
    }

    /// Mean 胡 it gives a win that counts it, where known.
    pub fn mean_hu(&self) -> Option<f64> {
        self.hu
            .map(|hu| Proportion::new(hu, self.wins).rate().unwrap_or(0.0))
    }
}

/// The points model's figures (runs of a points variant: taizhou): each win's 胡 (the
/// counted patterns', 底胡 not included) and points ((底胡 + 胡) × 2^台, capped).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PointsStats {
    /// Each win's `hu`.
    pub hu_per_win: Moments,
    /// Each win's `points`.
    pub points_per_win: Moments,
    /// Wins by `points`, ascending.
    pub points_histogram: Vec<(u64, u64)>,
}

impl PointsStats {
    /// The `q`-quantile of the wins' points (0 ≤ q ≤ 1): the least value at or below which at
    /// least `q` of the wins lie (the lower median for q = 0.5); 0 with no wins.
    pub fn points_quantile(&self, q: f64) -> u64 {
        let n: u64 = self.points_histogram.iter().map(|(_, k)| k).sum();
        // At least one win, so the minimum is the 0-quantile.
        let rank = ((q.clamp(0.0, 1.0) * n as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for &(points, k) in &self.points_histogram {
            seen += k;
            if seen >= rank {
                return points;
            }
        }
        0
    }
}

/// The all-pairs settlement's figures (taizhou): 全包 and who pays, dealer or not.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AllPairsStats {
    /// Wins with a 全包 seat.
    pub responsible_wins: u64,
    /// The dealer's net payment per deal, draws included.
    pub dealer_pay: Moments,
    /// A non-dealer's net payment per deal, draws included: the three non-dealers' mean.
    pub non_dealer_pay: SeatsOfDeal,
}

/// A figure of one seat among `seats` seats of each deal, from the moments of their sum per
/// deal. The deal is the sample: its seats are not independent (their payments and the
/// others' sum to zero), so treating each seat-deal as a sample would misstate the interval.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatsOfDeal {
    /// The seats' sum, one sample a deal.
    pub sum: Moments,
    pub seats: u32,
}

/// A seat's mean, over the deals; its spread is that of the seats' mean.
impl Estimate for SeatsOfDeal {
    fn samples(&self) -> u64 {
        self.sum.n
    }
    fn mean(&self) -> f64 {
        self.sum.mean() / self.seats.max(1) as f64
    }
    fn std_dev(&self) -> f64 {
        self.sum.std_dev() / self.seats.max(1) as f64
    }
    fn half_width95(&self) -> f64 {
        self.sum.half_width95() / self.seats.max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Wilson interval always holds its own rate: exactly 0 at no successes and exactly 1
    /// at all of them (rounding once put the lower bound 1e-19 above a rate of 0).
    #[test]
    fn wilson_intervals_hold_their_rate() {
        for n in [1u64, 2, 7, 100, 3_000, 1_000_003] {
            for k in [0, 1, n / 2, n - 1, n] {
                let (lo, hi) = wilson_interval(k, n, Z95);
                let p = k as f64 / n as f64;
                assert!(lo <= p && p <= hi, "{k} of {n}: [{lo}, {hi}]");
            }
            assert_eq!(wilson_interval(0, n, Z95).0, 0.0);
            assert_eq!(wilson_interval(n, n, Z95).1, 1.0);
        }
    }

    #[test]
    fn quantiles_are_the_least_value_covering_the_share() {
        let p = PointsStats {
            points_histogram: vec![(12, 5), (24, 3), (100, 2)],
            ..PointsStats::default()
        };
        assert_eq!(p.points_quantile(0.0), 12);
        assert_eq!(p.points_quantile(0.5), 12);
        assert_eq!(p.points_quantile(0.51), 24);
        assert_eq!(p.points_quantile(0.8), 24);
        assert_eq!(p.points_quantile(0.81), 100);
        assert_eq!(p.points_quantile(1.0), 100);
        assert_eq!(PointsStats::default().points_quantile(0.5), 0);
    }

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
