//! What the duplicate-match studies share: each wall's round and dealer, a table played and
//! scored, a seat's outcomes counted, the running mean of the walls' differences with its
//! standard error, and the walls shared among threads.

use taisim_agents::{play_deal, BuiltinAgent};
use taisim_score::{score_deal, Variant};
use taisim_sim::{splitmix64, ActionList, Deal, DealContext, Outcome, Seat, Wind};

/// The round wind and dealer of the wall dealt from `seed` (drawn from the seed, so that the
/// walls of a study cover every seat as dealer and every round).
pub fn context(seed: u64) -> DealContext {
    let r = splitmix64(seed ^ 0xc0_7e87);
    DealContext {
        round_wind: Wind::new((r >> 2) as u8),
        dealer: Wind::new(r as u8),
        streak: 0,
    }
}

/// Plays `deal` to its end with `agents` and returns every seat's points.
pub fn play(deal: &mut Deal, agents: &mut [BuiltinAgent; 4], variant: &Variant) -> [i64; 4] {
    play_deal(deal, agents, &mut ActionList::new());
    payments(deal, variant)
}

/// Every seat's points in the finished `deal` under `variant`'s settlement.
pub fn payments(deal: &Deal, variant: &Variant) -> [i64; 4] {
    let st = variant.settlement();
    score_deal(deal, variant, st.base, st.per_tai)
        .unwrap()
        .payments
        .0
}

/// How one seat's deals ended: wins (self-draws among them) and deal-ins.
#[derive(Default, Clone, Copy)]
pub struct Outcomes {
    wins: u64,
    self_draws: u64,
    deal_ins: u64,
}

impl Outcomes {
    /// Counts how the finished `deal` ended for `seat`.
    pub fn count(&mut self, deal: &Deal, seat: Seat) {
        let r = deal.result().unwrap();
        if r.winners.contains(seat) {
            self.wins += 1;
            self.self_draws += u64::from(r.outcome == Outcome::SelfDraw);
        }
        self.deal_ins += u64::from(r.outcome == Outcome::Discard && r.payer == Some(seat));
    }

    /// Takes in another thread's deals.
    pub fn merge(&mut self, other: Outcomes) {
        self.wins += other.wins;
        self.self_draws += other.self_draws;
        self.deal_ins += other.deal_ins;
    }

    /// The win, self-draw and deal-in rates over `deals` seat-deals.
    pub fn rates(&self, deals: f64) -> [f64; 3] {
        [self.wins, self.self_draws, self.deal_ins].map(|n| n as f64 / deals)
    }
}

/// The walls' differences, summed: their count, sum and sum of squares.
#[derive(Default, Clone, Copy)]
pub struct Diffs {
    pub walls: u64,
    sum: f64,
    sum_sq: f64,
}

impl Diffs {
    pub fn add(&mut self, x: f64) {
        self.walls += 1;
        self.sum += x;
        self.sum_sq += x * x;
    }

    /// Takes in another thread's walls.
    pub fn merge(&mut self, other: Diffs) {
        self.walls += other.walls;
        self.sum += other.sum;
        self.sum_sq += other.sum_sq;
    }

    /// The mean difference a wall and its standard error.
    pub fn mean_se(&self) -> (f64, f64) {
        let n = self.walls as f64;
        let mean = self.sum / n;
        let se = ((self.sum_sq / n - mean * mean) / (n - 1.0))
            .max(0.0)
            .sqrt();
        (mean, se)
    }
}

/// Plays walls `0..walls` on `threads` threads, wall `w` on thread `w % threads` (so the
/// result does not depend on the count), each thread adding into its own `T` with
/// `play(w, &mut tally)`; returns the threads' tallies.
pub fn across_threads<T: Default + Send>(
    walls: u64,
    threads: u64,
    play: impl Fn(u64, &mut T) + Sync,
) -> Vec<T> {
    let play = &play;
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut tally = T::default();
                    let mut w = t;
                    while w < walls {
                        play(w, &mut tally);
                        w += threads;
                    }
                    tally
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}
