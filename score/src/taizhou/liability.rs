//! 全包: when one player pays for everyone (taizhou.md 全包情况, its five cases).
//!
//! The facts are plain data, so the rule can be decided and tested apart from the engine:
//! [`Liability::from_deal`] takes them from a finished deal (the engine's
//! [`DiscardFacts`](taisim_sim::DiscardFacts)), a JSON request gives them by hand.

use taisim_sim::{Deal, MeldKind, MeldList, Seat, Tile};

use super::super::breakdown::Score;
use super::super::pattern::PatternId;
use super::super::reading::WaitShape;

/// What decides 全包 for one win (taizhou.md 全包情况 1-5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Liability {
    /// The winner.
    pub winner: Seat,
    /// Who discarded the winning tile; `None` for a self-draw (cases 1, 2, 3, 5 need a
    /// discard: "捉铳", "碰胡").
    pub discarder: Option<Seat>,
    /// The winning tile (cases 1, 2, 3: "打中发白"; case 5: "剩下的中发白一者").
    pub win_tile: Tile,
    /// The discarder could have won earlier in the deal and declined (case 1 "当能胡的时候
    /// 不胡").
    pub declined_win: bool,
    /// The discarder's hand was ready after the winning discard (case 2 "玩家未听牌" when
    /// false; case 3 "打成不听牌" when false).
    pub ready_after_discard: bool,
    /// Before the winning discard, some discard would have left the discarder ready (case 3
    /// "能听牌"); with `ready_after_discard` false, it broke its ready hand.
    pub could_be_ready: bool,
    /// No copy of the winning tile was visible before it was discarded (case 2 "生张"; 白板
    /// counts as a dragon here, "白板是硬张").
    pub fresh: bool,
    /// The winner's melds. Chows come only from the player on the left (taizhou.md 吃牌
    /// "只能吃上家的牌"), so its chow melds are the chows it took from there (case 4 "吃上家
    /// 三次或三次以上"); its exposed dragon pungs and kongs decide case 5.
    pub winner_melds: MeldList,
}

/// Which 全包 case applies, if any (the text's numbering).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LiabilityCase {
    /// 1: could have won, declined, then fed the win with a dragon (not for a 清一色 win).
    DeclinedThenDragon = 1,
    /// 2: not ready, fed the win with a fresh dragon.
    FreshDragonNotReady = 2,
    /// 3: broke a ready hand to discard the dragon that won.
    BrokeReadyForDragon = 3,
    /// 4: a 清一色 winner took three or more chows from its left neighbour.
    FlushFedByLeft = 4,
    /// 5: the winner had two dragon pungs exposed and punged the third on the discard.
    ThirdDragon = 5,
}

impl Liability {
    /// The facts of `win`'s win in the finished `deal`: who let the winning tile go and what
    /// the engine saw of its hand then ([`Deal::discard_facts`]), and the winner's melds. A
    /// self-draw has no discarder, so only the cases that need none (4) can apply. `None`
    /// for a win without a winning tile (a flower win).
    pub fn from_deal(deal: &Deal, win: &crate::WinInput) -> Option<Liability> {
        let facts = deal.discard_facts();
        Some(Liability {
            winner: win.seat,
            discarder: facts.map(|f| f.discarder),
            win_tile: win.win_tile?,
            declined_win: facts.is_some_and(|f| f.declined_win),
            ready_after_discard: facts.is_some_and(|f| f.ready_after),
            could_be_ready: facts.is_some_and(|f| f.could_be_ready),
            fresh: facts.is_some_and(|f| f.first_seen),
            winner_melds: win.melds.clone(),
        })
    }

    /// The case that applies to this win, scored as `win`, and the responsible seat; the
    /// first in the text's order when several do.
    pub fn decide(&self, win: &Score) -> Option<(LiabilityCase, Seat)> {
        let full_flush = win.has(PatternId::FullFlush);
        let dragon = self.win_tile.is_dragon();
        if let Some(d) = self.discarder.filter(|&d| d != self.winner) {
            if self.declined_win && dragon && !full_flush {
                return Some((LiabilityCase::DeclinedThenDragon, d));
            }
            if !self.ready_after_discard && self.fresh && dragon {
                return Some((LiabilityCase::FreshDragonNotReady, d));
            }
            if self.could_be_ready && !self.ready_after_discard && dragon {
                return Some((LiabilityCase::BrokeReadyForDragon, d));
            }
        }
        let chows = self
            .winner_melds
            .iter()
            .filter(|m| m.kind() == MeldKind::Chow)
            .count();
        if full_flush && chows >= 3 {
            return Some((LiabilityCase::FlushFedByLeft, self.winner.add(3)));
        }
        if let Some(d) = self.discarder.filter(|&d| d != self.winner) {
            let other_dragons = self
                .winner_melds
                .iter()
                .filter(|m| {
                    m.kind() != MeldKind::Chow
                        && m.kind() != MeldKind::ConcealedKong
                        && m.tile().is_dragon()
                        && m.tile() != self.win_tile
                })
                .count();
            // "碰胡": the discard makes the winner's pung of the third dragon.
            if dragon && other_dragons >= 2 && win.wait == WaitShape::DoublePair {
                return Some((LiabilityCase::ThirdDragon, d));
            }
        }
        None
    }

    /// The responsible seat ([`Liability::decide`]'s), for [`settle_all_pairs`](super::super::settle_all_pairs).
    pub fn responsible(&self, win: &Score) -> Option<Seat> {
        self.decide(win).map(|(_, s)| s)
    }
}
