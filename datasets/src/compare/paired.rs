//! Paired differences between two runs of the same walls: each deal is played once in each
//! run, so a figure's difference is estimated from the deals' own differences, whose spread
//! is far smaller than either run's when most deals play alike. Both kinds of figure fold
//! integers only, so merging in any order gives the same sums, and a run compared with
//! itself gives differences of exactly 0 with intervals of width exactly 0.
//!
//! - [`PairedMean`]: a per-deal value (a rate's 0/1, tai per deal, a seat's payment): the
//!   mean of the differences ± z·s_d/√n.
//! - [`PairedRatio`]: a ratio of two per-deal sums (tai per win = Σ tai / Σ wins, a pattern's
//!   share of wins): the difference of the two ratios, its variance by the delta method on
//!   the deals' linearised differences (each deal's `(N − R·D)/D̄` in B minus the same in A).

use crate::report::{Moments, Z95};

/// A per-deal value in runs A and B, and their difference deal by deal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairedMean {
    pub a: Moments,
    pub b: Moments,
    /// B − A, deal by deal.
    pub d: Moments,
}

impl PairedMean {
    pub fn add(&mut self, a: i64, b: i64) {
        self.a.add(a);
        self.b.add(b);
        self.d.add(b - a);
    }

    pub fn merge(&mut self, o: &PairedMean) {
        self.a.merge(&o.a);
        self.b.merge(&o.b);
        self.d.merge(&o.d);
    }

    /// B's mean minus A's.
    pub fn difference(&self) -> f64 {
        self.d.mean()
    }

    /// The paired 95% interval of the difference; `None` over fewer than two deals, whose
    /// spread is undefined (not 0).
    pub fn ci95(&self) -> Option<(f64, f64)> {
        let (m, h) = (self.d.mean(), self.d.half_width95());
        (self.d.n >= 2).then_some((m - h, m + h))
    }
}

/// Sums of a ratio's numerator and denominator per deal in runs A (index 0) and B (index
/// 1), with the products the paired variance needs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairedRatio {
    /// Deals.
    pub n: u64,
    pub num: [i128; 2],
    pub den: [i128; 2],
    pub num_sq: [i128; 2],
    pub den_sq: [i128; 2],
    /// Σ N·D within each run.
    pub num_den: [i128; 2],
    /// Σ N_A·N_B.
    pub num_ab: i128,
    /// Σ D_A·D_B.
    pub den_ab: i128,
    /// Σ N_A·D_B.
    pub num_a_den_b: i128,
    /// Σ D_A·N_B.
    pub den_a_num_b: i128,
    /// Some deal's numerator or denominator differs between the runs.
    pub differs: bool,
}

impl PairedRatio {
    /// One deal: numerator and denominator in A, then in B.
    pub fn add(&mut self, (na, da): (i64, i64), (nb, db): (i64, i64)) {
        let (na, da, nb, db) = (na as i128, da as i128, nb as i128, db as i128);
        self.n += 1;
        self.num[0] += na;
        self.num[1] += nb;
        self.den[0] += da;
        self.den[1] += db;
        self.num_sq[0] += na * na;
        self.num_sq[1] += nb * nb;
        self.den_sq[0] += da * da;
        self.den_sq[1] += db * db;
        self.num_den[0] += na * da;
        self.num_den[1] += nb * db;
        self.num_ab += na * nb;
        self.den_ab += da * db;
        self.num_a_den_b += na * db;
        self.den_a_num_b += da * nb;
        self.differs |= na != nb || da != db;
    }

    /// One deal's terms that involve the numerators alone, for figures that share their
    /// denominators (each pattern's share of the wins): a deal where the numerator is 0 in
    /// both runs adds nothing here, so only the deals that count a pattern need visiting.
    /// [`PairedRatio::with_denominators`] then adds the shared sums.
    pub fn add_numerator(&mut self, (na, da): (i64, i64), (nb, db): (i64, i64)) {
        let (na, da, nb, db) = (na as i128, da as i128, nb as i128, db as i128);
        self.num[0] += na;
        self.num[1] += nb;
        self.num_sq[0] += na * na;
        self.num_sq[1] += nb * nb;
        self.num_den[0] += na * da;
        self.num_den[1] += nb * db;
        self.num_ab += na * nb;
        self.num_a_den_b += na * db;
        self.den_a_num_b += da * nb;
        self.differs |= na != nb;
    }

    /// These numerator sums ([`PairedRatio::add_numerator`]) over the denominators' sums of
    /// `shared` (every deal added to it, numerators 0).
    pub fn with_denominators(mut self, shared: &PairedRatio) -> PairedRatio {
        self.n = shared.n;
        self.den = shared.den;
        self.den_sq = shared.den_sq;
        self.den_ab = shared.den_ab;
        self.differs |= shared.differs;
        self
    }

    pub fn merge(&mut self, o: &PairedRatio) {
        self.n += o.n;
        for i in 0..2 {
            self.num[i] += o.num[i];
            self.den[i] += o.den[i];
            self.num_sq[i] += o.num_sq[i];
            self.den_sq[i] += o.den_sq[i];
            self.num_den[i] += o.num_den[i];
        }
        self.num_ab += o.num_ab;
        self.den_ab += o.den_ab;
        self.num_a_den_b += o.num_a_den_b;
        self.den_a_num_b += o.den_a_num_b;
        self.differs |= o.differs;
    }

    /// Run `side`'s ratio (0: A, 1: B); `None` when its denominator sums to 0 (no wins).
    pub fn ratio(&self, side: usize) -> Option<f64> {
        (self.den[side] != 0).then(|| self.num[side] as f64 / self.den[side] as f64)
    }

    /// B's ratio minus A's; `None` when either is undefined.
    pub fn difference(&self) -> Option<f64> {
        Some(self.ratio(1)? - self.ratio(0)?)
    }

    /// Half the width of the paired 95% interval of the difference: z·√(Σu² / (n(n−1)))
    /// with `u` each deal's linearised difference, Σu² expanded in the sums kept (its
    /// mean is 0 by construction). Exactly 0 when no deal differs; `None` over fewer than
    /// two deals, whose spread is undefined.
    pub fn half_width95(&self) -> Option<f64> {
        let (ra, rb) = (self.ratio(0)?, self.ratio(1)?);
        if self.n < 2 {
            return None;
        }
        if !self.differs {
            return Some(0.0);
        }
        let n = self.n as f64;
        let (mean_da, mean_db) = (self.den[0] as f64 / n, self.den[1] as f64 / n);
        // u = α_b·N_B + β_b·D_B + α_a·N_A + β_a·D_A.
        let (alpha_b, beta_b) = (1.0 / mean_db, -rb / mean_db);
        let (alpha_a, beta_a) = (-1.0 / mean_da, ra / mean_da);
        let f = |x: i128| x as f64;
        let sum_sq = alpha_b * alpha_b * f(self.num_sq[1])
            + beta_b * beta_b * f(self.den_sq[1])
            + alpha_a * alpha_a * f(self.num_sq[0])
            + beta_a * beta_a * f(self.den_sq[0])
            + 2.0 * alpha_b * beta_b * f(self.num_den[1])
            + 2.0 * alpha_a * beta_a * f(self.num_den[0])
            + 2.0 * alpha_b * alpha_a * f(self.num_ab)
            + 2.0 * beta_b * beta_a * f(self.den_ab)
            + 2.0 * alpha_b * beta_a * f(self.den_a_num_b)
            + 2.0 * beta_b * alpha_a * f(self.num_a_den_b);
        Some(Z95 * (sum_sq.max(0.0) / (n * (n - 1.0))).sqrt())
    }

    /// The paired 95% interval of the difference.
    pub fn ci95(&self) -> Option<(f64, f64)> {
        let (d, h) = (self.difference()?, self.half_width95()?);
        Some((d - h, d + h))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator, so the test needs no random crate.
    fn lcg(state: &mut u64) -> u64 {
        *state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *state >> 33
    }

    /// One deal: (numerator, denominator) in A, then in B.
    type Deal = ((i64, i64), (i64, i64));

    /// The interval computed the long way: the ratios, then each deal's linearised
    /// difference, then its sample variance.
    fn two_pass(deals: &[Deal]) -> (f64, f64) {
        let n = deals.len() as f64;
        let sum = |f: &dyn Fn(&Deal) -> i64| deals.iter().map(|d| f(d) as f64).sum::<f64>();
        let (na, da) = (sum(&|d| d.0 .0), sum(&|d| d.0 .1));
        let (nb, db) = (sum(&|d| d.1 .0), sum(&|d| d.1 .1));
        let (ra, rb) = (na / da, nb / db);
        let u: Vec<f64> = deals
            .iter()
            .map(|&((a_n, a_d), (b_n, b_d))| {
                (b_n as f64 - rb * b_d as f64) / (db / n)
                    - (a_n as f64 - ra * a_d as f64) / (da / n)
            })
            .collect();
        let mean = u.iter().sum::<f64>() / n;
        let var = u.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
        (rb - ra, Z95 * (var / n).sqrt())
    }

    #[test]
    fn the_expanded_interval_is_the_two_pass_one() {
        let mut state = 7;
        for trial in 0..20 {
            let deals: Vec<_> = (0..500)
                .map(|_| {
                    let wins_a = (lcg(&mut state) % 2) as i64;
                    // B plays alike most of the time.
                    let wins_b = if lcg(&mut state) % 5 == 0 {
                        1 - wins_a
                    } else {
                        wins_a
                    };
                    let tai =
                        |w: i64, s: &mut u64| if w == 0 { 0 } else { 1 + (lcg(s) % 12) as i64 };
                    let ta = tai(wins_a, &mut state);
                    let tb = if wins_b == wins_a && lcg(&mut state) % 3 != 0 {
                        ta
                    } else {
                        tai(wins_b, &mut state)
                    };
                    ((ta, wins_a), (tb, wins_b))
                })
                .collect();
            let mut r = PairedRatio::default();
            for &(a, b) in &deals {
                r.add(a, b);
            }
            let (d, h) = two_pass(&deals);
            assert!((r.difference().unwrap() - d).abs() < 1e-12, "trial {trial}");
            assert!(
                (r.half_width95().unwrap() - h).abs() < 1e-9 * h.max(1.0),
                "trial {trial}: {} vs {h}",
                r.half_width95().unwrap()
            );
        }
    }

    #[test]
    fn numerators_over_shared_denominators_are_the_full_sums() {
        let deals = [
            ((2, 1), (0, 1)),
            ((0, 0), (0, 0)),
            ((0, 2), (1, 2)),
            ((1, 1), (1, 1)),
            ((0, 1), (0, 0)),
        ];
        let (mut full, mut shared, mut nums) = (
            PairedRatio::default(),
            PairedRatio::default(),
            PairedRatio::default(),
        );
        for ((na, da), (nb, db)) in deals {
            full.add((na, da), (nb, db));
            shared.add((0, da), (0, db));
            if na != 0 || nb != 0 {
                nums.add_numerator((na, da), (nb, db));
            }
        }
        assert_eq!(nums.with_denominators(&shared), full);
    }

    #[test]
    fn a_run_against_itself_differs_by_exactly_zero() {
        let mut r = PairedRatio::default();
        let mut m = PairedMean::default();
        for (tai, wins) in [(3, 1), (0, 0), (17, 2), (5, 1), (0, 0)] {
            r.add((tai, wins), (tai, wins));
            m.add(tai, tai);
        }
        assert_eq!(r.difference(), Some(0.0));
        assert_eq!(r.ci95(), Some((0.0, 0.0)));
        assert_eq!(m.difference(), 0.0);
        assert_eq!(m.ci95(), Some((0.0, 0.0)));
        // No wins in a run: no ratio to compare.
        let mut none = PairedRatio::default();
        none.add((0, 0), (2, 1));
        assert_eq!(none.difference(), None);
    }

    #[test]
    fn the_paired_mean_is_the_mean_of_the_differences() {
        let mut m = PairedMean::default();
        let pairs = [(1, 0), (0, 0), (1, 1), (0, 1), (1, 0)];
        for (a, b) in pairs {
            m.add(a, b);
        }
        // Differences -1, 0, 0, 1, -1: mean -0.2, sample sd √0.7.
        assert!((m.difference() + 0.2).abs() < 1e-12);
        let half = Z95 * 0.7f64.sqrt() / 5f64.sqrt();
        let (lo, hi) = m.ci95().unwrap();
        assert!((lo - (-0.2 - half)).abs() < 1e-12 && (hi - (-0.2 + half)).abs() < 1e-12);
    }

    /// One deal has a difference but no spread: no interval (it was [d, d], as sure as a
    /// million deals that agree), for a mean and for a ratio alike.
    #[test]
    fn one_deal_has_no_interval() {
        let mut m = PairedMean::default();
        m.add(3, 5);
        assert_eq!(m.difference(), 2.0);
        assert_eq!(m.ci95(), None);
        let mut r = PairedRatio::default();
        r.add((3, 1), (5, 1));
        assert_eq!(r.difference(), Some(2.0));
        assert_eq!(r.ci95(), None);
        m.add(3, 5);
        assert_eq!(m.ci95(), Some((2.0, 2.0)));
    }
}
