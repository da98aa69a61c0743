//! Hands inferred from a seat's whole play: sequential importance sampling over its turns.
//!
//! A particle replays one possible history of another seat from the deal to now: a dealt hand
//! drawn at random from the tiles that seat can have held (those the viewer cannot see, its
//! own discards and the tiles it laid down from its hand), then, turn by turn, the draw (or
//! the claim) and the discard the viewer saw it make. A discard the particle's hand does not
//! hold is made its draw (weighted by that draw's chance), and each discard weighs the
//! particle by how likely a player of the rollout policy's kind lets it go from the hand it
//! then held (see [`discard_likelihood`]). The hand at the end is a sample of what the seat
//! holds now, weighted by how well its history explains the seat's play.
//!
//! Seats that laid a kong are left to the proposals of [`super::belief`]: a kong's timing is
//! not in the view.

use arrayvec::ArrayVec;
use rand_core::RngCore;
use taisim_sim::algo::{Discards, HandRules};
use taisim_sim::{bounded, Hand, MeldKind, Seat, Tile, TileSet, View};

use crate::efficiency::discard_ukeire;

use super::belief::MISPLAY;

/// How a turn of the seat began.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Start {
    /// The dealer's first turn: its seventeenth tile was dealt.
    Dealt,
    /// A draw from the wall.
    Draw,
    /// A chow or pung of the previous discard, laying down these tiles of its own.
    Claim { own: [Tile; 2] },
}

/// One turn of the seat: how it began and what it let go.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Turn {
    start: Start,
    discard: Tile,
}

/// The turns of a seat; a seat discards at most once for each of the 136 tiles' turns, and
/// far fewer in practice: the wall of 144 tiles gives each seat at most 36 draws.
type Turns = ArrayVec<Turn, 40>;

/// A seat's replayable history, worked out from the view.
#[derive(Clone, Debug)]
pub(crate) struct History {
    turns: Turns,
    /// Tiles dealt to the seat (the dealer's extra tile counted as [`Start::Dealt`]'s).
    dealt: u8,
    /// Copies of each kind the seat can have held at some time.
    pool: [u8; Tile::NUM],
}

impl History {
    /// The seat's history, or `None` when it cannot be replayed from the view (a kong laid,
    /// or a claim whose meld cannot be matched).
    pub(crate) fn of(view: &View<'_>, seat: Seat, unseen: &[u8]) -> Option<History> {
        let melds: ArrayVec<_, 5> = view.melds(seat).collect();
        if melds.iter().any(|m| m.kind.is_kong()) {
            return None;
        }
        let discards = view.discards();
        let mut pool = [0u8; Tile::NUM];
        pool.copy_from_slice(&unseen[..Tile::NUM]);
        let mut turns = Turns::new();
        let mut next_meld = 0;
        let dealer = view.context().dealer == seat;
        for (i, d) in discards.iter().enumerate() {
            if d.seat() != seat {
                continue;
            }
            pool[d.tile().index()] += 1;
            let claimed = (i > 0 && discards[i - 1].is_claimed()).then(|| discards[i - 1]);
            let start = match claimed {
                Some(c) => {
                    let m = melds.get(next_meld)?;
                    next_meld += 1;
                    let t = m.tile?;
                    let mut own = ArrayVec::<Tile, 3>::new();
                    let mut skipped = false;
                    for k in 0..3u8 {
                        let tile = match m.kind {
                            MeldKind::Chow => Tile::new(t.to_u8() + k),
                            _ => t,
                        };
                        if !skipped && tile == c.tile() {
                            skipped = true;
                        } else {
                            own.push(tile);
                        }
                    }
                    if !skipped || own.len() != 2 {
                        return None;
                    }
                    for &u in &own {
                        pool[u.index()] += 1;
                    }
                    Start::Claim {
                        own: [own[0], own[1]],
                    }
                }
                None if dealer && turns.is_empty() => Start::Dealt,
                None => Start::Draw,
            };
            turns
                .try_push(Turn {
                    start,
                    discard: d.tile(),
                })
                .ok()?;
        }
        if next_meld != melds.len() {
            return None;
        }
        Some(History {
            turns,
            dealt: view.rules().hand_size() + u8::from(dealer),
            pool,
        })
    }

    /// Replays `N` histories side by side, turn by turn, resampling them by weight whenever
    /// their weights grow uneven (a particle filter: histories that explain the seat's play
    /// multiply, those that do not die out). Leaves in `out` the hands the histories end
    /// with and their weights (not normalised); empty when none fits the seat's play.
    pub(crate) fn filter<const N: usize>(
        &self,
        rules: HandRules,
        rng: &mut impl RngCore,
        out: &mut ArrayVec<(Hand, f64), N>,
    ) {
        out.clear();
        let mut particles: ArrayVec<Particle, N> = ArrayVec::new();
        let mut dealt = self.dealt;
        if self.turns.first().is_some_and(|t| t.start == Start::Dealt) {
            dealt -= 1;
        }
        for _ in 0..N {
            let mut p = Particle {
                hand: Hand::EMPTY,
                pool: Counts::new(&self.pool),
                log_w: 0.0,
                sets: rules.sets,
            };
            for _ in 0..dealt {
                let Some(t) = p.pool.draw(rng) else { return };
                p.hand.add(t);
            }
            particles.push(p);
        }
        let mut weights = [0.0f64; N];
        for turn in &self.turns {
            for p in particles.iter_mut() {
                if p.log_w.is_finite() && p.play(turn, rules, rng).is_none() {
                    p.log_w = f64::NEG_INFINITY;
                }
            }
            let top = particles
                .iter()
                .map(|p| p.log_w)
                .fold(f64::NEG_INFINITY, f64::max);
            if !top.is_finite() {
                return;
            }
            let (mut sum, mut sum_sq) = (0.0, 0.0);
            for (w, p) in weights.iter_mut().zip(&particles) {
                *w = (p.log_w - top).exp();
                sum += *w;
                sum_sq += *w * *w;
            }
            // Resampled when the effective number of particles falls below half.
            if sum * sum < 0.5 * N as f64 * sum_sq {
                let step = sum / N as f64;
                let mut u = uniform(rng) * step;
                let mut next: ArrayVec<Particle, N> = ArrayVec::new();
                let (mut i, mut acc) = (0, weights[0]);
                for _ in 0..N {
                    while acc <= u && i + 1 < particles.len() {
                        i += 1;
                        acc += weights[i];
                    }
                    let mut p = particles[i].clone();
                    p.log_w = 0.0;
                    next.push(p);
                    u += step;
                }
                particles = next;
            }
        }
        let top = particles
            .iter()
            .map(|p| p.log_w)
            .fold(f64::NEG_INFINITY, f64::max);
        for p in &particles {
            if p.log_w.is_finite() {
                out.push((p.hand, (p.log_w - top).exp()));
            }
        }
    }
}

/// One history being replayed.
#[derive(Clone, Debug)]
struct Particle {
    hand: Hand,
    /// What is left for it to draw.
    pool: Counts,
    log_w: f64,
    /// Sets its concealed tiles must still form.
    sets: u8,
}

impl Particle {
    /// Plays one turn of the seat's; `None` when the particle cannot.
    fn play(&mut self, turn: &Turn, rules: HandRules, rng: &mut impl RngCore) -> Option<()> {
        let hand = &mut self.hand;
        let pool = &mut self.pool;
        match turn.start {
            Start::Dealt => hand.add(pool.draw(rng)?),
            Start::Draw => {
                let d = turn.discard;
                let x = if hand.count(d) == 0 {
                    // Its discard was the tile it drew.
                    self.log_w += pool.share(d)?.ln();
                    pool.take(d);
                    d
                } else {
                    pool.draw(rng)?
                };
                hand.add(x);
            }
            Start::Claim { own } => {
                for u in own {
                    if hand.count(u) == 0 {
                        // It held the tile: one of its tiles was this one instead.
                        self.log_w += pool.share(u)?.ln();
                        let r = nth(hand, bounded(rng, hand.len() as u32) as usize);
                        hand.remove(r);
                        pool.put(r);
                        pool.take(u);
                        hand.add(u);
                    }
                }
                for u in own {
                    if hand.count(u) == 0 {
                        return None;
                    }
                    hand.remove(u);
                }
                self.sets = self.sets.checked_sub(1)?;
            }
        }
        let d = turn.discard;
        if hand.count(d) == 0 {
            return None;
        }
        self.log_w += discard_likelihood(hand, d, rules.with_sets(self.sets)).ln();
        hand.remove(d);
        Some(())
    }
}

/// A uniform draw in `[0, 1)`.
fn uniform(rng: &mut impl RngCore) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// How likely a player of the rollout policy's kind lets go of `d` from `turn` (`3k + 2`
/// tiles): it lets go of a tile that leaves the least shanten ([`MISPLAY`] for each step
/// above), the least connected of those (half as likely for a better connected one).
pub(crate) fn discard_likelihood(turn: &Hand, d: Tile, rules: HandRules) -> f64 {
    let discards = Discards::new(turn, rules);
    let mut least = i8::MAX;
    let mut best = TileSet::EMPTY;
    for t in turn.kinds() {
        let s = discards.shanten(t);
        if s < least {
            least = s;
            best = TileSet::EMPTY;
        }
        if s == least {
            best.insert(t);
        }
    }
    let own = discards.shanten(d);
    if own > least {
        return MISPLAY.powi((own - least) as i32) / turn.kinds().len() as f64;
    }
    if best.len() == 1 {
        return 1.0;
    }
    // Ties broken as greedy breaks them: by the unseen copies of the tiles that would lower
    // the shanten after the discard (its own tiles and the public ones out of the count; the
    // public part is not known here, so every copy outside the hand counts).
    let unseen = turn.counts().map(|n| 4 - n);
    let uke = discard_ukeire(turn, rules, &discards, best, &unseen);
    let top = best.iter().map(|t| uke[t.index()]).max().unwrap_or(0);
    let winners = best.iter().filter(|t| uke[t.index()] == top).count() as f64;
    if uke[d.index()] == top {
        (1.0 - TIE_MISS) / winners
    } else {
        TIE_MISS / (best.len() as f64 - winners)
    }
}

/// The chance a tie of least shanten goes to a discard that greedy's ukeire ranks lower.
const TIE_MISS: f64 = 0.1;

/// The `n`-th tile of `hand` in kind order.
pub(crate) fn nth(hand: &Hand, mut n: usize) -> Tile {
    for t in hand.kinds() {
        let c = hand.count(t) as usize;
        if n < c {
            return t;
        }
        n -= c;
    }
    unreachable!("n < hand.len()")
}

/// Copies of each kind left to draw, with their total.
#[derive(Clone, Debug)]
pub(crate) struct Counts {
    counts: [u8; Tile::NUM],
    total: u32,
}

impl Counts {
    pub(crate) fn new(counts: &[u8; Tile::NUM]) -> Counts {
        Counts {
            counts: *counts,
            total: counts.iter().map(|&n| n as u32).sum(),
        }
    }

    pub(crate) fn count(&self, t: Tile) -> u8 {
        self.counts[t.index()]
    }

    /// The chance a uniform draw is `t`, `None` when none is left.
    fn share(&self, t: Tile) -> Option<f64> {
        let n = self.counts[t.index()];
        (n > 0).then(|| n as f64 / self.total as f64)
    }

    /// Takes one tile uniformly at random.
    pub(crate) fn draw(&mut self, rng: &mut impl RngCore) -> Option<Tile> {
        if self.total == 0 {
            return None;
        }
        let mut k = bounded(rng, self.total);
        for (i, n) in self.counts.iter_mut().enumerate() {
            if k < *n as u32 {
                *n -= 1;
                self.total -= 1;
                return Some(Tile::new(i as u8));
            }
            k -= *n as u32;
        }
        unreachable!("k < total")
    }

    pub(crate) fn take(&mut self, t: Tile) {
        debug_assert!(self.counts[t.index()] > 0);
        self.counts[t.index()] -= 1;
        self.total -= 1;
    }

    pub(crate) fn put(&mut self, t: Tile) {
        self.counts[t.index()] += 1;
        self.total += 1;
    }

    /// Whether every tile of `hand` is here.
    pub(crate) fn holds(&self, hand: &Hand) -> bool {
        hand.kinds()
            .iter()
            .all(|t| hand.count(t) <= self.counts[t.index()])
    }
}
