//! Claims: who may take a discard or rob a kong, and how the answers resolve by priority.

use crate::action::Action;
use crate::meld::{Meld, MeldKind};
use crate::seat::SeatSet;
use crate::tile::{Seat, Tile};

use super::{ClaimOptions, Deal, DrawSource, Phase, WinContext};

impl Deal {
    pub(super) fn answer_rob_kong(&mut self, action: Action) {
        let Phase::RobKong {
            tile,
            seat,
            concealed,
            mut pending,
            mut winners,
        } = self.phase
        else {
            unreachable!()
        };
        let responder = pending.iter_after(seat).next().expect("a seat to ask");
        pending.remove(responder);
        if action == Action::Win {
            winners.insert(responder);
            if !self.rules.multiple_winners {
                pending = SeatSet::EMPTY;
            }
        } else {
            self.note_passed_win(responder, tile);
        }
        if !pending.is_empty() {
            self.phase = Phase::RobKong {
                tile,
                seat,
                concealed,
                pending,
                winners,
            };
            return;
        }
        if winners.is_empty() {
            self.complete_kong(seat, tile, concealed);
        } else {
            let result = self.discard_win_result(winners, seat, tile, true);
            self.finish(result, Some(seat));
        }
    }

    /// The context of a win on `discarder`'s discard (or on the kong it declares, when
    /// `robbing_kong`).
    pub(super) fn discard_win_context(
        &self,
        winners: SeatSet,
        discarder: Seat,
        robbing_kong: bool,
    ) -> WinContext {
        // 人胡 is a single-winner notion; with several winners it is judged for the first.
        // Where only the dealer's first discard gives it (`Rules::human_win_dealer_discard`),
        // that discard is the deal's first: nobody has claimed, so nobody else has discarded.
        let first = winners.iter().next();
        let dealer = self.context.dealer;
        let from_dealer = !robbing_kong && discarder == dealer && self.discards.len() == 1;
        let human = first.is_some_and(|w| {
            w != dealer
                && self.discard_counts[w] == 0
                && !self.any_meld()
                && (!self.rules.human_win_dealer_discard || from_dealer)
        });
        WinContext {
            robbing_kong,
            last_tile: self.drawable() == 0,
            human,
            ..WinContext::default()
        }
    }

    /// After a discard: work out who may claim it; with no one, the next seat draws.
    pub(super) fn offer_discard(&mut self, discarder: Seat, tile: Tile) {
        let next = discarder.next();
        let chow = self.chow_options(next, tile);
        // Most discards interest no one. This test passes for every discard that gives any
        // seat an option (過水, the last tile and locked hands only take options away), and
        // when it fails the next seat draws without the full work below.
        let mut wanted = chow != 0;
        for k in 1..4u8 {
            let seat = discarder.add(k);
            wanted |= self.waits[seat].contains(tile) | (self.hands[seat].count(tile) >= 2);
        }
        if !wanted {
            self.draw(next, DrawSource::Live);
            return;
        }
        // A discarded wild kept out of claims is dead (see `Rules::wilds_in_claims`): tested
        // only past the test above, so that a discard nobody wants pays nothing for it.
        if (self.claimable >> tile.index()) & 1 == 0 {
            self.draw(next, DrawSource::Live);
            return;
        }
        let (options, pending) = self.claim_options(discarder, tile, chow);
        if pending.is_empty() {
            self.draw(next, DrawSource::Live);
        } else {
            self.phase = Phase::Claims {
                tile,
                discarder,
                options,
                pending,
                winners: SeatSet::EMPTY,
                meld: None,
                chow: None,
            };
        }
    }

    /// Every other seat's options on `tile` discarded by `discarder` (the next seat's chows
    /// given as `chow`, from [`Deal::chow_options`]), and the seats that have any.
    pub(super) fn claim_options(
        &self,
        discarder: Seat,
        tile: Tile,
        chow: u8,
    ) -> ([ClaimOptions; 4], SeatSet) {
        let last = self.drawable() == 0;
        let mut options = [ClaimOptions::default(); 4];
        let mut pending = SeatSet::EMPTY;
        for k in 1..4u8 {
            let seat = discarder.add(k);
            let mut bits = 0u8;
            if self.may_win_on_offer(seat, tile) && self.can_win_with(seat, tile) {
                bits |= ClaimOptions::WIN;
            }
            // 2015 table: "無牌可摸時, 不得吃、碰、槓". A locked ready hand only wins.
            if !last && self.ready[seat].is_none() {
                // The tile is not of a wild kind kept out of claims (a dead wild never gets
                // here), so neither are the copies held. A kind the seat passed a pung on
                // since its own last discard may not be punged (弃先碰后), nor konged.
                let held = self.hands[seat].count(tile);
                if held >= 2 && !self.pung_barred(seat).contains(tile) {
                    bits |= ClaimOptions::PUNG;
                    if held == 3 {
                        bits |= ClaimOptions::KONG;
                    }
                }
                if k == 1 {
                    bits |= chow;
                }
            }
            if bits != 0 {
                options[seat as usize] = ClaimOptions(bits);
                pending.insert(seat);
            }
        }
        (options, pending)
    }

    /// The chow bits of [`ClaimOptions`] for `seat` on `tile`: two table loads, since every
    /// discard asks.
    pub(super) fn chow_options(&self, seat: Seat, tile: Tile) -> u8 {
        // Per kind, which of the kinds two below to two above it (bits 0 to 4, itself at
        // bit 2 left out) lie in its suit; none for honors, which never chow.
        const WINDOW: [u8; 34] = {
            let mut w = [0u8; 34];
            let mut i = 0;
            while i < 27 {
                let r = i % 9 + 1;
                let below = if r >= 3 {
                    0b00011
                } else if r == 2 {
                    0b00010
                } else {
                    0
                };
                let above = if r <= 7 {
                    0b11000
                } else if r == 8 {
                    0b01000
                } else {
                    0
                };
                w[i] = below | above;
                i += 1;
            }
            w
        };
        // Per window of neighbours held: the chows they make with the discard as the run's
        // lowest (both above held), middle (one each side) or highest (both below).
        const CHOWS: [u8; 32] = {
            let mut c = [0u8; 32];
            let mut near = 0;
            while near < 32 {
                let low = (near & 0b11000 == 0b11000) as u8;
                let middle = (near & 0b01010 == 0b01010) as u8;
                let high = (near & 0b00011 == 0b00011) as u8;
                c[near] = (low * ClaimOptions::CHOW_LOW)
                    | (middle * (ClaimOptions::CHOW_LOW << 1))
                    | (high * (ClaimOptions::CHOW_LOW << 2));
                near += 1;
            }
            c
        };
        let i = tile.index();
        let near = (((self.hands[seat].kinds().0 & self.claimable) << 2) >> i) as u8 & WINDOW[i];
        CHOWS[(near & 0x1f) as usize]
    }

    pub(super) fn answer_claim(&mut self, action: Action) {
        let Phase::Claims {
            tile,
            discarder,
            options,
            mut pending,
            mut winners,
            mut meld,
            mut chow,
        } = self.phase
        else {
            unreachable!()
        };
        let seat = pending.iter_after(discarder).next().expect("a seat to ask");
        pending.remove(seat);
        let opts = options[seat as usize];
        match action {
            Action::Win => winners.insert(seat),
            Action::Pung | Action::Kong => meld = Some((seat, action)),
            Action::Chow(lowest) => chow = Some(lowest),
            _ => {}
        }
        if action != Action::Win && opts.has(ClaimOptions::WIN) {
            self.note_passed_win(seat, tile);
        }
        if self.rules.missed_pung
            && opts.has(ClaimOptions::PUNG)
            && !matches!(action, Action::Pung | Action::Kong)
        {
            self.bar_pung(seat, tile);
        }
        // Drop the seats whose answer can no longer change the outcome: after a win only
        // other wins matter (and none at all with a single winner); a chow never beats the
        // pung or kong that a later seat may still answer, so only earlier seats are pruned.
        if !winners.is_empty() && !self.rules.multiple_winners {
            pending = SeatSet::EMPTY;
        }
        for s in pending.iter() {
            let o = options[s as usize];
            let relevant = o.has(ClaimOptions::WIN)
                || (winners.is_empty() && (o.has(ClaimOptions::PUNG) || o.has(ClaimOptions::KONG)));
            if !relevant {
                pending.remove(s);
            }
        }
        if !pending.is_empty() {
            self.phase = Phase::Claims {
                tile,
                discarder,
                options,
                pending,
                winners,
                meld,
                chow,
            };
            return;
        }
        if !winners.is_empty() {
            let result = self.discard_win_result(winners, discarder, tile, false);
            self.finish(result, None);
            return;
        }
        let claimed = match (meld, chow) {
            (Some((claimer, Action::Pung)), _) => {
                self.hands[claimer].remove_n(tile, 2);
                self.shown[tile.index()] += 2;
                self.melds[claimer].push(Meld::new(MeldKind::Pung, tile, discarder, 0));
                self.phase = Phase::Turn {
                    seat: claimer,
                    source: DrawSource::Claim,
                    drawn: None,
                };
                true
            }
            (Some((claimer, _)), _) => {
                self.hands[claimer].remove_n(tile, 3);
                self.shown[tile.index()] += 3;
                self.melds[claimer].push(Meld::new(MeldKind::Kong, tile, discarder, 0));
                self.mark_last_discard_claimed();
                self.draw(
                    claimer,
                    DrawSource::Kong {
                        exposed_from: Some(discarder),
                    },
                );
                return;
            }
            (None, Some(lowest)) => {
                let claimer = discarder.next();
                let offset = tile.to_u8() - lowest.to_u8();
                for k in 0..3 {
                    if k != offset {
                        let t = Tile::new(lowest.to_u8() + k);
                        self.hands[claimer].remove(t);
                        self.shown[t.index()] += 1;
                    }
                }
                self.melds[claimer].push(Meld::new(MeldKind::Chow, lowest, discarder, offset));
                self.phase = Phase::Turn {
                    seat: claimer,
                    source: DrawSource::Claim,
                    drawn: None,
                };
                true
            }
            (None, None) => false,
        };
        if claimed {
            self.mark_last_discard_claimed();
        } else {
            self.draw(discarder.next(), DrawSource::Live);
        }
    }

    pub(super) fn mark_last_discard_claimed(&mut self) {
        if let Some(d) = self.discards.last_mut() {
            d.0 |= 1 << 8;
        }
    }
}
