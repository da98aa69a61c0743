//! What scoring needs to know about one win: the winner's tiles and the circumstances.

use taisim_sim::algo::{waits, HandRules, SpecialHands, Wild};
use taisim_sim::seat_wind;
use taisim_sim::Hand;
use taisim_sim::Rules;
use taisim_sim::{Action, Deal, DealResult, Outcome, View, WinContext};
use taisim_sim::{FlowerSet, Seat, Tile, Wind};
use taisim_sim::{Meld, MeldKind, MeldList};

use super::error::ScoreError;
use super::pattern::PatternId;
use super::variant::Variant;

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

/// Discard counts ([`WinInput::discards`]) from this one up score alike: the early-win
/// patterns (mahjongtime "Early winning", `detect`) read counts up to 9, and the first
/// go-round's checks fewer. An agent that scores many wins may key what it keeps by the count
/// clamped to this (the value agent keeps a seat's worths from one turn to the next).
pub const DISCARDS_READ: u8 = 10;

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
    /// The deal's wild kind (taizhou.md 「得牌」: the kind of the tile turned up after the
    /// deal), `None` where the variant has none. Its three copies in play are wild, each 白板
    /// is read as its face or as itself (shared/rules/README.md, taizhou 得牌 and 白板).
    pub wild: Option<Tile>,
}

/// Checks physical copies (hands and melds, every seat given, by the tile each shows, a
/// 白板 as itself) against the wall: four of each kind, three of the wild kind `wild` (the
/// turned-up indicator is out of play, taizhou.md 得牌).
pub fn physical_copies_fit(held: &[u8; Tile::NUM], wild: Tile) -> Result<(), ScoreError> {
    for (i, &n) in held.iter().enumerate() {
        let t = Tile::ALL[i];
        if t == wild && n > 3 {
            return Err(ScoreError::WildCopies(t));
        }
        if n > 4 {
            return Err(ScoreError::FifthCopy(t));
        }
    }
    Ok(())
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
            wild: None,
        }
    }

    /// The same input with the deal's wild kind.
    pub fn with_wild(self, wild: Tile) -> WinInput {
        WinInput {
            wild: Some(wild),
            ..self
        }
    }

    /// How the hand algorithms read this hand's wilds: taizhou's 得牌 with each 白板 read as
    /// its face or as itself and a real tile in every set and the pair, as the deal reads
    /// them.
    pub fn wild_rules(&self) -> Option<Wild> {
        self.wild.map(|w| Wild::taizhou(w, true))
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
    pub fn validate(&self, variant: &Variant) -> Result<(), ScoreError> {
        let rules = &variant.rules();
        if self.melds.len() > rules.sets as usize {
            return Err(ScoreError::TooManyMelds(self.melds.len()));
        }
        match (self.wild, rules.has_wild()) {
            (None, true) => return Err(ScoreError::WildMissing),
            (Some(w), false) => return Err(ScoreError::WildUnused(w)),
            _ => {}
        }
        if !rules.flowers && !self.flowers.is_empty() {
            return Err(ScoreError::FlowersUnused(self.flowers));
        }
        // A discarded wild is dead where wilds stay out of claims: nobody wins on it, and a
        // kong robbed holds no wild either.
        if let (Some(w), Some(t), false) = (self.wild, self.win_tile, rules.wilds_in_claims) {
            if t == w && !self.context.self_draw {
                return Err(ScoreError::WinOnDiscardedWild(t));
            }
        }
        // A chow's lowest tile comes from the caller: one that runs off its suit is no meld.
        if let Some(&m) = self
            .melds
            .iter()
            .find(|m| m.kind() == MeldKind::Chow && (m.tile().is_honor() || m.tile().rank() > 7))
        {
            return Err(ScoreError::BadChow(m));
        }
        if let Some(w) = self.wild_rules() {
            self.validate_wild_tiles(w)?;
        } else if !self.melds.is_empty() {
            // The hand itself cannot hold a fifth copy; only kinds in melds need counting.
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
        // A non-dealer ready on its dealt hand (ready_on_deal) is the 2015 table's 平家天聽
        // (heavenly_ready, "取完牌後即聽牌"); a table without it reads it as 地聽.
        let non_dealer_ready_on_deal = variant.pattern(PatternId::HeavenlyReady).is_some();
        self.validate_context(rules, non_dealer_ready_on_deal)?;
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

    /// With a wild: no wild in a claimed meld ("也不能参与吃 / 碰 / 杠", taizhou.md 得牌), and
    /// no more physical copies of a kind than the wall holds: four, three of the wild kind
    /// (the turned-up one is out of play, "当前翻过来的…不可用于牌局"). A chow meld holding
    /// the wild's face holds the 白板 that stands for it.
    fn validate_wild_tiles(&self, w: Wild) -> Result<(), ScoreError> {
        let mut held = self.hand.counts();
        for m in &self.melds {
            if m.kind() != MeldKind::Chow && m.tile() == w.kind() {
                return Err(ScoreError::WildInMeld(*m));
            }
            for t in m.tiles() {
                let physical = match w.stand_in() {
                    Some(s) if t == w.kind() => s,
                    _ if t == w.kind() => return Err(ScoreError::WildInMeld(*m)),
                    _ => t,
                };
                held[physical.index()] += 1;
            }
        }
        physical_copies_fit(&held, w.kind())
    }

    /// How many kinds the hand waited on before its winning tile (`sets` left to complete,
    /// the `special` forms allowed), not counting a kind of which the winner holds all four
    /// in hand and melds: no copy of it is left to win on, so the hand does not wait on it
    /// ("waits on exactly one tile kind", shared/rules/README.md, wait tai). A hand that
    /// holds 5677889m with a 678m and a 789m chow melded waits on 5m only: every 8m is its
    /// own.
    pub(crate) fn live_wait_kinds(&self, sets: u8, special: SpecialHands) -> u8 {
        let Some(win) = self.win_tile else {
            return 0;
        };
        let mut before = self.hand;
        before.remove(win);
        let all = waits(&before, HandRules::new(sets, special));
        if self.melds.is_empty() {
            // `waits` already leaves out the kinds held four times in the hand.
            return all.len() as u8;
        }
        all.iter()
            .filter(|&t| before.count(t) + self.melds.iter().map(|m| m.count(t)).sum::<u8>() < 4)
            .count() as u8
    }

    /// Checks the circumstances against the seats, the kind of win and the melds: each
    /// special win has one way to happen (taiwan16-common.txt:77-90 and the 2015 table say
    /// who may claim it and when), and an input that says otherwise is refused by name
    /// rather than paid.
    fn validate_context(
        &self,
        rules: &Rules,
        non_dealer_ready_on_deal: bool,
    ) -> Result<(), ScoreError> {
        let c = &self.context;
        let refuse = |circumstance, needs| {
            Err(ScoreError::Context {
                circumstance,
                needs,
            })
        };
        let dealer = self.is_dealer();
        let no_melds = self.melds.is_empty();
        if c.flower_win {
            // 七搶一 / 八仙過海 end the deal on the flowers alone: no tile is won.
            let others = c.robbing_kong
                || c.kong_replacement
                || c.flower_replacement
                || c.last_tile
                || c.heavenly
                || c.earthly
                || c.human;
            if others {
                return refuse(
                    "flower_win (七搶一/八仙過海)",
                    "a flower win is won on flowers, with no other circumstance",
                );
            }
            if c.self_draw && self.flowers != FlowerSet::ALL {
                return refuse(
                    "flower_win (八仙過海)",
                    "a self-drawn flower win needs all eight flowers (:79 取得全部8張花牌)",
                );
            }
            if !c.self_draw && self.flowers.len() < 7 {
                return refuse(
                    "flower_win (七搶一)",
                    "robbing the eighth flower needs seven flowers held (:77 持7張花牌)",
                );
            }
        }
        if c.heavenly {
            if !dealer || !c.self_draw {
                return refuse(
                    "heavenly (天胡)",
                    "needs the dealer's self-draw on the dealt hand (:90 莊家專屬)",
                );
            }
            if !no_melds {
                return refuse(
                    "heavenly (天胡)",
                    "needs the dealt hand, before any claim or kong: no melds (:90 不可暗槓)",
                );
            }
        }
        if c.earthly {
            if dealer || !c.self_draw {
                return refuse(
                    "earthly (地胡)",
                    "needs a non-dealer's self-draw on its first draw (:88 閒家專屬)",
                );
            }
            if !no_melds {
                return refuse(
                    "earthly (地胡)",
                    "needs no claim or kong before the win: no melds (:88 無發生吃、碰、槓)",
                );
            }
        }
        if c.human {
            if dealer || c.self_draw {
                return refuse(
                    "human (人胡)",
                    "needs a non-dealer's win on a discard before its first draw (:86 閒家專屬, 胡他人牌)",
                );
            }
            if !no_melds {
                return refuse(
                    "human (人胡)",
                    "needs no claim or kong before the win: no melds (:86 無發生吃、碰、槓)",
                );
            }
        }
        if c.human
            && rules.human_win_dealer_discard
            && (c.robbing_kong || self.discarder != Some(self.dealer))
        {
            return refuse(
                "human (人胡)",
                "is won in this variant on the dealer's first discard only: the discarder must \
                 be the dealer, with no kong robbed (mahjongtime-taiwanese-scoring.md:100 \
                 \"Non-dealer goes out on dealer's first discard\"; taiwan16-2015-table.txt:383 \
                 莊家打第一張牌)",
            );
        }
        // 天胡, 地胡 and 人胡 are won in the first go-round: the wall is nearly whole, and the
        // winner has not discarded yet, so it cannot have declared ready with a discard
        // (地聽, and the dealer's 天聽, are declared with one). A non-dealer ready on its dealt
        // hand (ready_on_deal: the 2015 table's 平家天聽, "取完牌後即聽牌") may win 地胡.
        let first_go_round = [
            (c.heavenly, "heavenly (天胡)"),
            (c.earthly, "earthly (地胡)"),
            (c.human, "human (人胡)"),
        ];
        for (_, circumstance) in first_go_round.into_iter().filter(|(on, _)| *on) {
            if c.last_tile {
                return refuse(
                    circumstance,
                    "is won in the first go-round, with the wall nearly whole: never on the \
                     last tile (last_tile)",
                );
            }
            if self.ready == Ready::Declared {
                return refuse(
                    circumstance,
                    "is won before the winner's first discard, and a ready hand is declared \
                     with a discard (地聽): not with declared_ready",
                );
            }
            if self.ready == Ready::OnDeal && !dealer && !non_dealer_ready_on_deal {
                return refuse(
                    circumstance,
                    "is won before the winner's first discard, and this variant has no \
                     non-dealer ready on the dealt hand (the 2015 table's 平家天聽): its \
                     ready_on_deal is a declared ready hand (地聽), declared with a discard",
                );
            }
        }
        if c.heavenly && self.ready == Ready::OnDeal {
            return refuse(
                "heavenly (天胡)",
                "is won before the dealer's first discard, with which its 天聽 is declared: \
                 not with ready_on_deal",
            );
        }
        // The first go-round, when no one has claimed: the dealer discards first, then each
        // seat in turn, so the discards made tell who can have won how.
        let distance = |s: Seat| s.distance_from(self.dealer);
        const HUMAN_ORDER: &str = "is won on a discard of the first go-round, before the winner's \
                                   own first draw: the discarder sits between the dealer and the \
                                   winner, and discards count each seat up to it (:86 第一巡內)";
        // Whoever discarded before the winner's first draw sits between the dealer and the
        // winner, whether or not the discards made are given.
        if let (true, Some(d)) = (c.human, self.discarder) {
            if distance(d) >= distance(self.seat) {
                return refuse("human (人胡)", HUMAN_ORDER);
            }
        }
        if let Some(n) = self.discards {
            // The count includes the winning discard; a robbed kong was added to a pung
            // claimed from a discard. Only a robbed flower can be won before any discard.
            if n == 0 && !c.self_draw && !c.flower_win {
                return refuse(
                    "discards 0",
                    "a win on a discard or a robbed kong comes after at least one discard (the \
                     count includes the winning one)",
                );
            }
            if c.heavenly && n != 0 {
                return refuse(
                    "heavenly (天胡)",
                    "is won before the dealer's first discard: discards must be 0 (:90 起手)",
                );
            }
            if c.earthly && n != distance(self.seat) {
                return refuse(
                    "earthly (地胡)",
                    "is won on the first draw, after one discard by each seat before the \
                     winner since the dealer: discards must equal the winner's distance \
                     from the dealer (:88 第一巡內)",
                );
            }
            if c.human {
                if let Some(d) = self.discarder {
                    // Robbing a kong declared in the first go-round: the declarer had not
                    // discarded yet.
                    if n != distance(d) + !c.robbing_kong as u8 {
                        return refuse("human (人胡)", HUMAN_ORDER);
                    }
                }
            }
        }
        if self.late_fresh_discard && c.self_draw {
            return refuse(
                "late_fresh_discard",
                "is a win on a discard no one had shown: not a self-draw \
                 (mahjongtime insurance 'Last Five Tiles')",
            );
        }
        if c.robbing_kong && c.self_draw {
            return refuse(
                "robbing_kong (搶槓)",
                "is a win on the tile another player adds to a pung, not a self-draw (:44)",
            );
        }
        if c.robbing_kong {
            // The robbed player held the other three copies (its pung, or its four for a
            // concealed kong): the winner can hold no copy but the robbed one.
            if let Some(t) = self.win_tile {
                let own = self.hand.count(t) + self.melds.iter().map(|m| m.count(t)).sum::<u8>();
                if own != 1 {
                    return refuse(
                        "robbing_kong (搶槓)",
                        "the robbed kong holds the other three copies of the winning tile: \
                         the winner holds no other (:44 別人加槓的牌)",
                    );
                }
            }
        }
        if self.ready != Ready::None && !no_melds {
            return refuse(
                "ready_on_deal/declared_ready (天聽/地聽)",
                "is declared before any claim or kong and locks the hand: no melds \
                 (:67 無發生吃、碰、槓之情況聽牌; shared/rules/README.md 天聽)",
            );
        }
        let kongs = |kinds: &[MeldKind]| self.melds.iter().any(|m| kinds.contains(&m.kind()));
        if c.kong_replacement {
            if !c.self_draw {
                return refuse(
                    "kong_replacement (槓上開花)",
                    "is a win on the tile drawn after a kong, a self-draw (:45)",
                );
            }
            if !kongs(&[MeldKind::Kong, MeldKind::ConcealedKong, MeldKind::AddedKong]) {
                return refuse(
                    "kong_replacement (槓上開花)",
                    "needs a kong among the winner's melds (:45 暗槓、加槓)",
                );
            }
        }
        if c.flower_replacement {
            if !c.self_draw {
                return refuse(
                    "flower_replacement (槓上開花)",
                    "is a win on the tile drawn after a flower, a self-draw (:45 補花後所摸進的牌)",
                );
            }
            if self.flowers.is_empty() {
                return refuse(
                    "flower_replacement (槓上開花)",
                    "needs a flower among the winner's flowers (:45 補花)",
                );
            }
        }
        if c.self_draw {
            if let Some(d) = self.discarder {
                // The one self-draw with a payer named: the replacement after a kong
                // claimed from a discard (taiwan16-2015-table.txt makes that seat pay).
                let claimed_kong = c.kong_replacement && kongs(&[MeldKind::Kong]);
                if !claimed_kong || d == self.seat {
                    return Err(ScoreError::DiscarderOnSelfDraw(d));
                }
            }
        }
        if let Some(from) = c.exposed_kong_from {
            if !c.kong_replacement || !kongs(&[MeldKind::Kong]) || from == self.seat {
                return refuse(
                    "exposed_kong_from",
                    "needs a 槓上開花 and a kong claimed from another seat's discard",
                );
            }
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
        let hand = if result.outcome == Outcome::FlowerWin {
            *deal.hand(seat)
        } else {
            deal.winning_hand(seat)?
        };
        Some(WinInput::from_view(
            &deal.view(seat),
            result,
            hand,
            deal.flowers(seat),
        ))
    }

    /// The input the win `action` offered to the seat of `view` would score, read as
    /// [`WinInput::from_deal`] reads the deal that win would end (`None` when `action` is not
    /// a win the seat may declare now). On a discard several seats may win, the input of
    /// this seat's win, which no other winner changes. A seat weighing whether to declare
    /// (a variant's minimum, 起胡) reads it; it reads only the seat's view.
    pub fn offered(view: &View<'_>, action: Action) -> Option<WinInput> {
        let result = view.win_result(action)?;
        let mut hand = *view.hand();
        let mut flowers = view.flowers(view.seat());
        match result.outcome {
            Outcome::Discard => hand.add(result.win_tile?),
            // 七搶一: the robbed flower is the winner's once it wins.
            Outcome::FlowerWin => {
                if let Some(f) = view.flower_on_offer() {
                    flowers = flowers.with(f);
                }
            }
            _ => {}
        }
        Some(WinInput::from_view(view, &result, hand, flowers))
    }

    /// The input of the viewer's win ending the deal with `result`, its winning `hand` (the
    /// winning tile in it) and `flowers`, from what the viewer sees.
    fn from_view(view: &View<'_>, result: &DealResult, hand: Hand, flowers: FlowerSet) -> WinInput {
        let seat = view.seat();
        let ctx = view.context();
        let flower_win = result.outcome == Outcome::FlowerWin;
        let melds: MeldList = view.own_melds().iter().copied().collect();
        let ready = match view.ready_declaration(seat) {
            None => Ready::None,
            Some(0) if seat == ctx.dealer => Ready::OnDeal,
            Some(_) => Ready::Declared,
        };
        let river = view.discards();
        let mut context = result.context;
        if context.human {
            // The deal judges 人胡 for the first winner only (one flag for the deal); each
            // winner of a multiple win is judged on its own: a non-dealer who had not yet
            // discarded, with no meld on the table.
            context.human = seat != ctx.dealer
                && river.iter().all(|d| d.seat() != seat)
                && Wind::ALL.iter().all(|&s| view.melds(s).next().is_none());
        }
        let mut input = WinInput {
            seat,
            dealer: ctx.dealer,
            round_wind: ctx.round_wind,
            streak: ctx.streak,
            hand,
            melds,
            flowers,
            win_tile: result.win_tile,
            discarder: result.payer.or(result.context.exposed_kong_from),
            context,
            ready,
            last_copy: false,
            discards: Some(river.len().min(u8::MAX as usize) as u8),
            late_fresh_discard: false,
            wild: view.wild(),
        };
        if let (Some(tile), false) = (result.win_tile, flower_win) {
            // Copies the winner can see: its own tiles, every meld (another seat's concealed
            // kong lies face down), the unclaimed river.
            // The melds the winner sees face up, every seat's.
            let shown_melds = || {
                Wind::ALL.into_iter().flat_map(|s| {
                    view.melds(s)
                        .filter_map(|m| m.tile.map(|t| Meld::new(m.kind, t, m.from, 0)))
                })
            };
            let mut seen = [0u8; 34];
            for t in hand.tiles() {
                seen[t.index()] += 1;
            }
            for t in shown_melds().flat_map(Meld::tiles) {
                seen[t.index()] += 1;
            }
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
            let sets = view.rules().sets - input.melds.len() as u8;
            let mut hand_rules = HandRules::new(sets, view.rules().special);
            if let Some(w) = input.wild_rules() {
                hand_rules = hand_rules.with_wild(w);
            }
            let wait_set = waits(&before, hand_rules);
            input.last_copy = !wait_set.is_empty() && wait_set.iter().all(|w| seen[w.index()] >= 4);
            if won_on_discard && view.drawable() <= 5 {
                let shown = earlier.iter().any(|d| d.tile() == tile)
                    || shown_melds().any(|m| m.count(tile) > 0);
                input.late_fresh_discard = !shown;
            }
        }
        input
    }
}
