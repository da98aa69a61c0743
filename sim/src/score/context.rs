//! What scoring needs to know about one win: the winner's tiles and the circumstances.

use crate::algo::{waits, HandRules};
use crate::deal::{Deal, Outcome, WinContext};
use crate::hand::Hand;
use crate::meld::{Meld, MeldKind, MeldList};
use crate::rules::Rules;
use crate::seat::seat_wind;
use crate::tile::{FlowerSet, Seat, Tile, Wind};

/// A ready declaration (報聽) the winner made, as the texts grade it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Ready {
    /// No declaration.
    #[default]
    None,
    /// Ready on the dealt hand: the dealer declared with its first discard, or a non-dealer
    /// was ready on its sixteen dealt tiles (天聽 in taiwan16 and the 2015 table; mahjongtime
    /// "Ready on original hand").
    OnDeal,
    /// Declared ready later, within the variant's window (地聽).
    Declared,
}

/// One win, everything scoring and settlement look at.
///
/// Unchecked input: [`WinInput::validate`] (called by [`score`](super::score)) rejects a
/// shape no table could hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WinInput {
    /// The winner.
    pub seat: Seat,
    pub dealer: Seat,
    /// 圈風.
    pub round_wind: Wind,
    /// Consecutive deals the dealer has kept (連莊), 0 for a first deal.
    pub streak: u8,
    /// Concealed tiles including the winning tile (empty for a flower win).
    pub hand: Hand,
    pub melds: MeldList,
    pub flowers: FlowerSet,
    /// The winning tile (`None` for a flower win).
    pub win_tile: Option<Tile>,
    /// Who pays alone: the discarder, the kong declarer robbed, the seat whose flower was
    /// robbed, or (with [`WinContext::exposed_kong_from`]) the seat whose discard was
    /// kong-ed. `None` for a self-draw.
    pub discarder: Option<Seat>,
    pub context: WinContext,
    pub ready: Ready,
    /// Every other copy of each tile the hand waited on is visible to the winner (絕張).
    pub last_copy: bool,
    /// Discards made in the deal when the hand went out, the winning one included, where
    /// known (mahjongtime "Early winning").
    pub discards: Option<u8>,
    /// Won on a discard no one had shown yet, with five or fewer tiles left to draw
    /// (mahjongtime insurance penalty "Last Five Tiles error").
    pub late_fresh_discard: bool,
}

/// Why a [`WinInput`] cannot be scored.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScoreError {
    #[error("{melds} melds leave room for {expected} concealed tiles, but the hand has {got}")]
    TileCount {
        melds: usize,
        expected: usize,
        got: usize,
    },
    #[error("more than 5 melds ({0})")]
    TooManyMelds(usize),
    #[error("a fifth {0}: there are only four of each tile (hand and melds together)")]
    FifthCopy(Tile),
    #[error("the winning tile {0} is not in the hand")]
    WinTileMissing(Tile),
    #[error("no winning tile given")]
    NoWinTile,
    #[error("the hand is not a winning shape")]
    NotAWin,
    #[error("a discard win needs the discarder, other than the winner")]
    BadDiscarder,
    #[error("a flower win needs {0}")]
    FlowerWin(&'static str),
    #[error("this variant's scoring kind is not supported by the tai scorer")]
    Unsupported,
    #[error("the deal is not over")]
    DealNotOver,
}

impl WinInput {
    /// A plain input: East round, seat E deals with no streak, no flowers, no melds.
    pub fn new(seat: Seat, hand: Hand, win_tile: Tile, self_draw: bool) -> WinInput {
        WinInput {
            seat,
            dealer: Wind::East,
            round_wind: Wind::East,
            streak: 0,
            hand,
            melds: MeldList::new(),
            flowers: FlowerSet::EMPTY,
            win_tile: Some(win_tile),
            discarder: None,
            context: WinContext {
                self_draw,
                ..WinContext::default()
            },
            ready: Ready::None,
            last_copy: false,
            discards: None,
            late_fresh_discard: false,
        }
    }

    /// The winner's seat wind (門風).
    #[inline]
    pub const fn seat_wind(&self) -> Wind {
        seat_wind(self.seat, self.dealer)
    }

    /// Whether the winner deals.
    #[inline]
    pub fn is_dealer(&self) -> bool {
        self.seat == self.dealer
    }

    /// Checks what no deal could produce: tile counts, fifth copies, a missing winning tile,
    /// a discard win without a discarder. Whether the tiles form a winning shape is left to
    /// the scorer, which needs the decompositions anyway.
    pub fn validate(&self, rules: &Rules) -> Result<(), ScoreError> {
        if self.melds.len() > rules.sets as usize {
            return Err(ScoreError::TooManyMelds(self.melds.len()));
        }
        // The hand itself cannot hold a fifth copy; only kinds in melds need counting.
        if !self.melds.is_empty() {
            // Each meld as the kinds it covers and the copies of each.
            let span = |m: &Meld| match m.kind() {
                MeldKind::Chow => (m.tile().index(), 3, 1),
                kind => (m.tile().index(), 1, kind.len()),
            };
            let mut melded = [0u8; 34];
            for m in &self.melds {
                let (first, kinds, copies) = span(m);
                for n in &mut melded[first..first + kinds] {
                    *n += copies;
                }
            }
            for m in &self.melds {
                let (first, kinds, _) = span(m);
                for (i, &n) in melded.iter().enumerate().skip(first).take(kinds) {
                    let t = Tile::ALL[i];
                    if self.hand.count(t) + n > 4 {
                        return Err(ScoreError::FifthCopy(t));
                    }
                }
            }
        }
        if self.context.flower_win {
            if !self.context.self_draw && self.discarder.is_none() {
                return Err(ScoreError::FlowerWin(
                    "the seat whose flower was robbed (七搶一) or a self-draw (八仙過海)",
                ));
            }
            return Ok(());
        }
        let expected = 3 * (rules.sets as usize - self.melds.len()) + 2;
        if self.hand.len() != expected {
            return Err(ScoreError::TileCount {
                melds: self.melds.len(),
                expected,
                got: self.hand.len(),
            });
        }
        let tile = self.win_tile.ok_or(ScoreError::NoWinTile)?;
        if self.hand.count(tile) == 0 {
            return Err(ScoreError::WinTileMissing(tile));
        }
        if !self.context.self_draw && self.discarder.is_none_or(|d| d == self.seat) {
            return Err(ScoreError::BadDiscarder);
        }
        Ok(())
    }

    /// The input for one winner of a finished deal (`None` if `seat` did not win).
    ///
    /// What the deal does not record directly is worked out from it: the ready declaration
    /// (the dealer's declaration with the first discard of the deal is [`Ready::OnDeal`]; a
    /// non-dealer's ready-on-deal cannot be told from a declaration and reads as
    /// [`Ready::Declared`]), whether the winning tile was the last copy, the discard count,
    /// and whether the winning discard was fresh late in the deal.
    pub fn from_deal(deal: &Deal, seat: Seat) -> Option<WinInput> {
        let result = deal.result()?;
        if !result.winners.contains(seat) {
            return None;
        }
        let ctx = deal.context();
        let flower_win = result.outcome == Outcome::FlowerWin;
        let hand = if flower_win {
            *deal.hand(seat)
        } else {
            deal.winning_hand(seat)?
        };
        let melds: MeldList = deal.melds(seat).iter().copied().collect();
        let ready = match deal.ready_declaration(seat) {
            None => Ready::None,
            Some(0) if seat == ctx.dealer => Ready::OnDeal,
            Some(_) => Ready::Declared,
        };
        let mut input = WinInput {
            seat,
            dealer: ctx.dealer,
            round_wind: ctx.round_wind,
            streak: ctx.streak,
            hand,
            melds,
            flowers: deal.flowers(seat),
            win_tile: result.win_tile,
            discarder: result.payer.or(result.context.exposed_kong_from),
            context: result.context,
            ready,
            last_copy: false,
            discards: Some(deal.discards().len().min(u8::MAX as usize) as u8),
            late_fresh_discard: false,
        };
        if let (Some(tile), false) = (result.win_tile, flower_win) {
            // Copies the winner can see: its own tiles, every meld, the unclaimed river.
            let mut seen = [0u8; 34];
            for t in hand.tiles() {
                seen[t.index()] += 1;
            }
            for s in Wind::ALL {
                for m in deal.melds(s) {
                    // A concealed kong lies face down: nobody else sees it.
                    if m.kind() != MeldKind::ConcealedKong || s == seat {
                        for t in m.tiles() {
                            seen[t.index()] += 1;
                        }
                    }
                }
            }
            let river = deal.discards();
            let won_on_discard = !result.context.self_draw && !result.context.robbing_kong;
            let earlier = if won_on_discard && !river.is_empty() {
                &river[..river.len() - 1]
            } else {
                river
            };
            for d in earlier.iter().filter(|d| !d.is_claimed()) {
                seen[d.tile().index()] += 1;
            }
            let mut before = hand;
            before.remove(tile);
            let sets = deal.rules().sets - input.melds.len() as u8;
            let wait_set = waits(&before, HandRules::new(sets, deal.rules().special));
            input.last_copy = !wait_set.is_empty() && wait_set.iter().all(|w| seen[w.index()] >= 4);
            if won_on_discard && deal.drawable() <= 5 {
                let shown = earlier.iter().any(|d| d.tile() == tile)
                    || Wind::ALL
                        .iter()
                        .any(|&s| deal.melds(s).iter().any(|m| m.count(tile) > 0));
                input.late_fresh_discard = !shown;
            }
        }
        Some(input)
    }
}
