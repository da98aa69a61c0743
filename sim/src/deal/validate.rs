//! The recompute-from-scratch check of a deal's invariants, run after every step in tests.

use crate::algo::waits;
use crate::meld::MeldKind;
use crate::tile::{Flower, FlowerSet, Seat, Tile, TileSet, WallTile, Wind};

use super::{Deal, Phase, Resume};

/// One broken invariant of a deal (see [`Deal::validate`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Invalid {
    /// A tile is not in exactly as many places as the wall holds copies of it.
    Conservation {
        tile: WallTile,
        places: u8,
        expected: u8,
    },
    /// The kept face-up counts disagree with the river, the melds and the indicator.
    ShownCounts {
        kept: [u8; Tile::NUM],
        recounted: [u8; Tile::NUM],
    },
    /// A hand's packed keys disagree with its counts.
    HandKeys(Seat),
    /// A seat holds the wrong number of tiles for the phase.
    HandSize {
        seat: Seat,
        held: usize,
        expected: usize,
    },
    /// A seat's cached waits differ from the waits recomputed from its hand.
    Waits {
        seat: Seat,
        cached: TileSet,
        recomputed: TileSet,
    },
    /// Flowers still hidden after the replacement round.
    HiddenFlowers(Seat),
    /// The ready flag disagrees with the river's declarations.
    ReadyFlag(Seat),
    /// The discard count disagrees with the river.
    DiscardCount(Seat),
    /// A seat's barred kinds disagree with the rules and with whether it passed a win since
    /// its own last discard (every kind under 過水, some under the missed-discard rule, none
    /// otherwise).
    WinBarred(Seat),
    /// Tiles were drawn from the reserve.
    ReserveDrawn,
    /// The phase says over and there is no result, or the other way round.
    PhaseAndResult,
    /// The procedure turns up a wild indicator and the deal has none, or the other way round.
    Indicator,
}

impl core::fmt::Display for Invalid {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Invalid::Conservation {
                tile,
                places,
                expected,
            } => write!(f, "{tile} is in {places} places, expected {expected}"),
            Invalid::ShownCounts { kept, recounted } => write!(
                f,
                "shown counts {kept:?} disagree with the river, melds and indicator {recounted:?}"
            ),
            Invalid::HandKeys(seat) => write!(f, "{seat}'s hand keys disagree with its counts"),
            Invalid::HandSize {
                seat,
                held,
                expected,
            } => write!(f, "{seat} holds {held} tiles, expected {expected}"),
            Invalid::Waits {
                seat,
                cached,
                recomputed,
            } => write!(
                f,
                "{seat}'s cached waits {cached:?} differ from recomputed {recomputed:?}"
            ),
            Invalid::HiddenFlowers(seat) => {
                write!(f, "{seat} still hides flowers after the replacement round")
            }
            Invalid::ReadyFlag(seat) => write!(f, "{seat}'s ready flag disagrees with the river"),
            Invalid::DiscardCount(seat) => {
                write!(f, "{seat}'s discard count disagrees with the river")
            }
            Invalid::WinBarred(seat) => write!(
                f,
                "{seat}'s barred kinds disagree with the rules and its passed wins"
            ),
            Invalid::ReserveDrawn => f.write_str("the reserve was drawn from"),
            Invalid::PhaseAndResult => f.write_str("phase and result disagree"),
            Invalid::Indicator => {
                f.write_str("the wild indicator disagrees with the rules' set-up events")
            }
        }
    }
}

/// Every broken invariant [`Deal::validate`] found, in the order it checks them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationError {
    /// Where in the deal the problems were found (the phase, for the reader).
    pub phase: String,
    pub problems: Vec<Invalid>,
}

impl core::fmt::Display for ValidationError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{p}")?;
        }
        write!(f, " (in {})", self.phase)
    }
}

impl std::error::Error for ValidationError {}

impl Deal {
    /// Recomputes everything that is kept incrementally and checks the deal's invariants:
    /// every one of the wall's tiles is in exactly one place (wall, a hand, a meld, the river,
    /// a flower set or the wild indicator), every hand's keys match its counts, hand sizes fit
    /// the phase, and the deal's flags agree with its history. Used after every step in tests;
    /// the error lists every problem found. Allocates only when it finds one.
    pub fn validate(&self) -> Result<(), ValidationError> {
        let mut problems = Vec::new();
        // Conservation: 34 kinds × 4, and 8 flowers × 1 with flowers.
        let mut seen = [0u8; 42];
        // What `self.shown` should hold: the exposed melds, the river's unclaimed tiles and
        // the indicator.
        let mut shown = [0u8; Tile::NUM];
        for t in self.wall.undrawn() {
            seen[t.index()] += 1;
        }
        if let Some(t) = self.wild_indicator {
            seen[t.index()] += 1;
            if t.index() < Tile::NUM {
                shown[t.index()] += 1;
            }
        }
        if self.wild_indicator.is_some() != self.rules.procedure.setup.wild_indicator {
            problems.push(Invalid::Indicator);
        }
        for seat in Wind::ALL {
            for t in self.hands[seat].tiles() {
                seen[t.index()] += 1;
            }
            for m in &self.melds[seat] {
                let exposed = m.kind() != MeldKind::ConcealedKong;
                for t in m.tiles() {
                    seen[t.index()] += 1;
                    shown[t.index()] += u8::from(exposed);
                }
            }
            for f in self.flowers[seat]
                .iter()
                .chain(self.hidden_flowers[seat].iter())
            {
                seen[34 + f.index()] += 1;
            }
        }
        // A claimed discard lies in a meld; a discard won on lies in the river.
        for d in &self.discards {
            if !d.is_claimed() {
                seen[d.tile().index()] += 1;
                shown[d.tile().index()] += 1;
            }
        }
        if shown != self.shown {
            problems.push(Invalid::ShownCounts {
                kept: self.shown,
                recounted: shown,
            });
        }
        let flowers = self.rules.procedure.tiles.has_flowers();
        for (i, &n) in seen.iter().enumerate() {
            let expected = if i < 34 { 4 } else { u8::from(flowers) };
            if n != expected {
                let tile = if i < 34 {
                    WallTile::tile(Tile::new(i as u8))
                } else {
                    WallTile::flower(Flower::new(i as u8 - 34))
                };
                problems.push(Invalid::Conservation {
                    tile,
                    places: n,
                    expected,
                });
            }
        }
        for seat in Wind::ALL {
            let hand = &self.hands[seat];
            if !hand.is_consistent() {
                problems.push(Invalid::HandKeys(seat));
            }
            let base = 3 * self.sets_needed(seat) as usize + 1;
            // A flower shown during the initial replacement and now on offer (七搶一) has not
            // been replaced yet.
            let awaiting = match self.phase {
                Phase::RobFlower {
                    revealer,
                    resume: Resume::Initial,
                    ..
                } => revealer == seat,
                Phase::Over => self.end_short == Some(seat),
                _ => false,
            };
            let expected = base + (self.holder() == Some(seat)) as usize - awaiting as usize;
            let held = hand.len() + self.hidden_flowers[seat].len() as usize;
            if held != expected {
                problems.push(Invalid::HandSize {
                    seat,
                    held,
                    expected,
                });
            }
            if self.holder() != Some(seat) && self.initial_cursor >= 4 {
                let recomputed = waits(hand, self.hand_rules(seat));
                if recomputed != self.waits[seat] {
                    problems.push(Invalid::Waits {
                        seat,
                        cached: self.waits[seat],
                        recomputed,
                    });
                }
            }
            if self.hidden_flowers[seat] != FlowerSet::EMPTY && self.initial_cursor >= 4 {
                problems.push(Invalid::HiddenFlowers(seat));
            }
            let declared = self
                .discards
                .iter()
                .position(|d| d.seat() == seat && d.is_ready_declaration())
                .map(|i| i as u8);
            if declared != self.ready[seat] {
                problems.push(Invalid::ReadyFlag(seat));
            }
            let count = self.discards.iter().filter(|d| d.seat() == seat).count();
            if count != self.discard_counts[seat] as usize {
                problems.push(Invalid::DiscardCount(seat));
            }
            let barred = self.win_barred[seat];
            let passed = self.passed_win[seat] == self.discard_counts[seat] + 1;
            let expected_bar = if !self.rules.missed_win || !passed {
                barred.is_empty()
            } else if self.rules.missed_win_same_tile {
                !barred.is_empty() && barred.0 & !TileSet::ALL.0 == 0
            } else {
                barred == TileSet::ALL
            };
            if !expected_bar {
                problems.push(Invalid::WinBarred(seat));
            }
        }
        if self.wall.remaining() < self.rules.reserve {
            problems.push(Invalid::ReserveDrawn);
        }
        if self.is_over() != self.result.is_some() {
            problems.push(Invalid::PhaseAndResult);
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(ValidationError {
                phase: format!("{:?}", self.phase),
                problems,
            })
        }
    }
}
