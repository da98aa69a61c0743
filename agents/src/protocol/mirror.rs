//! A deal rebuilt from one seat's messages, so that a program on the far side of the
//! protocol can ask any taisim agent what it would play (`taisim bot AGENT`, the Python
//! package's bot helper).
//!
//! The mirror is a real [`Deal`] whose view for the seat equals the table's: the seat's own
//! tiles are the ones it was told, and everything it cannot see (the other hands, the wall's
//! order) is made up and then rearranged, just before each action, so that the action is
//! possible (the other seat holds the tile it discards, the claimer the tiles of its claim,
//! a seat declaring ready a ready hand) and the next draws are the ones told (a flower, the
//! seat's own tile, a plain tile for another seat). Each action is then played by the
//! engine, and the events the engine tells of it are compared with the table's: any
//! difference is an error, never a silent guess. The other seats' unseen answers are
//! guessed as passes and then forgotten ([`Deal::forget_hidden_answers`]).

use std::collections::VecDeque;

use taisim_score::Variant;
use taisim_sim::algo::waits;
use taisim_sim::{
    bounded, chow_tiles, rng_from_seed, Action, BySeat, Deal, Hand, Hidden, MeldKind, Seat, Tile,
    Wall, WallTile, Wind,
};

use super::event::{Event, Start};
use super::narrate::step_events;
use crate::knowledge::hand_rules;

/// Why the mirror lost the table.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the rebuilt deal cannot follow the table: {0}")]
pub struct MirrorError(pub String);

fn err<T>(s: impl Into<String>) -> Result<T, MirrorError> {
    Err(MirrorError(s.into()))
}

/// What a draw about to happen must bring.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Want {
    Exactly(WallTile),
    /// Any tile that is not a flower (another seat's draw).
    Plain,
}

/// The rebuilt deal just before the last discard was played, and what it has matched since:
/// when the seat answers that discard, the claim that wins it is told only after the answer,
/// and the discard is played again with the claimer holding its tiles.
#[derive(Clone, Debug)]
struct Checkpoint {
    deal: Deal,
    actor: Seat,
    action: Action,
    last_public: Option<Event>,
    matched: Vec<Event>,
}

/// One seat's deal, rebuilt (see the module documentation).
#[derive(Clone, Debug)]
pub struct Mirror {
    seat: Seat,
    deal: Deal,
    /// The seat's messages not yet matched by the rebuilt deal.
    queue: VecDeque<Event>,
    /// The seat's own answer, played once what followed it is known.
    pending: Option<Action>,
    /// The last public event matched.
    last_public: Option<Event>,
    checkpoint: Option<Box<Checkpoint>>,
}

impl Mirror {
    /// The deal as `start` (the seat's start message) opens it under `variant`.
    pub fn new(start: &Start, seat: Seat, variant: &Variant) -> Result<Mirror, MirrorError> {
        let rules = variant.rules();
        let dealer = start.context.dealer;
        let Some(hand) = start.hands[seat] else {
            return err("the start does not give the seat's hand");
        };
        let mut pool = [4u8; Tile::NUM];
        for t in hand.tiles() {
            pool[t.index()] = pool[t.index()].saturating_sub(1);
        }
        if let Some(taisim_sim::Drawn::Tile(t)) = start.wild_indicator.map(|w| w.classify()) {
            pool[t.index()] = pool[t.index()].saturating_sub(1);
        }
        let mut pool_tiles: Vec<Tile> = Tile::ALL
            .into_iter()
            .flat_map(|t| std::iter::repeat_n(t, pool[t.index()] as usize))
            .collect();
        // The made-up part is shuffled from the bot's own seed: a function of the messages.
        let mut rng = rng_from_seed(start.seed);
        for i in (1..pool_tiles.len()).rev() {
            let j = bounded(&mut rng, i as u32 + 1) as usize;
            pool_tiles.swap(i, j);
        }
        let n = rules.hand_size() as usize;
        let mut dealt: BySeat<Vec<WallTile>> = BySeat::default();
        let mut backs: BySeat<Vec<WallTile>> = BySeat::default();
        for s in Wind::ALL {
            let plain = n + usize::from(s == dealer);
            let tiles: Vec<Tile> = if s == seat {
                if hand.len() != plain {
                    return err(format!(
                        "the seat was dealt {} tiles; {plain} expected",
                        hand.len()
                    ));
                }
                hand.tiles().collect()
            } else {
                if pool_tiles.len() < plain {
                    return err("too few tiles for the other hands");
                }
                pool_tiles.split_off(pool_tiles.len() - plain)
            };
            let flowers: Vec<WallTile> = start.flowers[s].iter().map(WallTile::flower).collect();
            if flowers.len() > plain {
                return err("more flowers than dealt tiles");
            }
            let kept = plain - flowers.len();
            dealt[s] = tiles[..kept]
                .iter()
                .map(|&t| WallTile::tile(t))
                .chain(flowers)
                .collect();
            backs[s] = tiles[kept..].iter().map(|&t| WallTile::tile(t)).collect();
        }
        let back: Vec<WallTile> = (0..4).flat_map(|k| backs[dealer.add(k)].clone()).collect();
        let hands = Wind::ALL.map(|s| dealt[s].as_slice());
        let wall =
            Wall::arranged_with_indicator(&rules, dealer, hands, start.wild_indicator, &[], &back)
                .map_err(|e| MirrorError(format!("the start cannot be dealt: {e}")))?;
        let deal = Deal::with_wall(rules, start.seed, start.context, wall);
        let mut mirror = Mirror {
            seat,
            deal,
            queue: VecDeque::new(),
            pending: None,
            last_public: None,
            checkpoint: None,
        };
        let d = &mirror.deal;
        let same = *d.hand(seat) == hand
            && Wind::ALL.iter().all(|&s| d.flowers(s) == start.flowers[s])
            && d.tiles_left() == start.left
            && d.wild() == start.wild;
        if !same {
            return err(
                "the rebuilt deal does not open as the table's did (a flower robbed while the tiles were dealt?)",
            );
        }
        mirror.deal.forget_hidden_answers(seat);
        Ok(mirror)
    }

    /// The seat it plays.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The rebuilt deal as it stands (at the seat's decision after [`Mirror::decide_now`]).
    pub fn deal(&self) -> &Deal {
        &self.deal
    }

    /// Another message of the deal for the seat (after its start).
    pub fn tell(&mut self, event: Event) {
        if !matches!(event, Event::Decision { .. }) {
            self.queue.push_back(event);
        }
    }

    /// The seat answered `action` (played once what follows it is told).
    pub fn answered(&mut self, action: Action) {
        self.pending = Some(action);
    }

    /// Brings the rebuilt deal to the seat's decision the table asks for now, playing
    /// everything told since the last: the deal, at the seat's decision.
    pub fn decide_now(&mut self) -> Result<&Deal, MirrorError> {
        if let Some(a) = self.pending.take() {
            let answered_discard = self.deal.tile_on_offer().is_some()
                && matches!(self.last_public, Some(Event::Discard { .. }));
            match self.checkpoint.take() {
                Some(c) if answered_discard => {
                    // Back to before the discard, with everything told since in the queue:
                    // the discard is played again knowing who claims it.
                    let Checkpoint {
                        deal,
                        actor,
                        action,
                        last_public,
                        matched,
                    } = *c;
                    self.deal = deal;
                    self.last_public = last_public;
                    for e in matched.into_iter().rev() {
                        self.queue.push_front(e);
                    }
                    self.play(actor, action)?;
                    while let Some(x) = self.deal.to_act().filter(|&x| x != self.seat) {
                        let b = self.other_action(x)?;
                        self.play(x, b)?;
                    }
                    self.play(self.seat, a)?;
                }
                _ => self.play(self.seat, a)?,
            }
        }
        loop {
            match self.deal.to_act() {
                None => return err("the rebuilt deal is over, but the table asks for a decision"),
                Some(s) if s == self.seat => {
                    if let Some(e) = self.queue.front() {
                        return err(format!(
                            "the seat must decide, but the table told more first: {}",
                            e.line(None)
                        ));
                    }
                    return Ok(&self.deal);
                }
                Some(x) => {
                    let a = self.other_action(x)?;
                    self.play(x, a)?;
                }
            }
        }
    }

    /// What seat `x` (another) does now, read from the messages.
    fn other_action(&mut self, x: Seat) -> Result<Action, MirrorError> {
        if let Some(t) = self.deal.tile_on_offer() {
            // An offer: the claim that won it, if the table told one by this seat.
            let after_discard = matches!(self.last_public, Some(Event::Discard { .. }));
            if after_discard {
                if let Some(Event::Claim {
                    kind,
                    actor,
                    tile,
                    low,
                    ..
                }) = self.queue.front()
                {
                    if *actor == x && *tile == t {
                        return Ok(match kind {
                            MeldKind::Chow => Action::Chow(*low),
                            MeldKind::Pung => Action::Pung,
                            _ => Action::Kong,
                        });
                    }
                }
            }
            return Ok(Action::Pass);
        }
        if self.deal.flower_on_offer().is_some() {
            return Ok(Action::Pass);
        }
        match self.queue.front() {
            Some(Event::Discard { actor, tile, ready }) if *actor == x => Ok(if *ready {
                Action::DiscardReady(*tile)
            } else {
                Action::Discard(*tile)
            }),
            Some(Event::AddedKong { actor, tile }) if *actor == x => Ok(Action::AddedKong(*tile)),
            Some(Event::ConcealedKong { actor, .. }) if *actor == x => {
                Ok(Action::ConcealedKong(self.hidden_kong_kind(x)?))
            }
            other => err(format!(
                "{x} is to act, but the table told {}",
                other.map_or("nothing yet".into(), |e| e.line(None))
            )),
        }
    }

    /// Plays `action` for `actor` after rearranging what the seat cannot see, and checks the
    /// events the engine tells against the table's.
    fn play(&mut self, actor: Seat, action: Action) -> Result<(), MirrorError> {
        if matches!(action, Action::Discard(_) | Action::DiscardReady(_)) {
            self.checkpoint = Some(Box::new(Checkpoint {
                deal: self.deal.clone(),
                actor,
                action,
                last_public: self.last_public.clone(),
                matched: Vec::new(),
            }));
        }
        self.arrange(actor, action)?;
        let before = self.deal.clone();
        self.deal
            .play(action)
            .map_err(|e| MirrorError(format!("{actor} {action}: {e}")))?;
        self.deal.forget_hidden_answers(self.seat);
        let mut events = Vec::new();
        step_events(&before, action, &self.deal, &mut events);
        for e in events {
            let Some(seen) = e.seen_by(self.seat) else {
                continue;
            };
            if matches!(seen, Event::End(_)) {
                // The end shows every hand, and the hidden ones here are made up: the deal is
                // over, and nothing more is asked of it.
                self.queue.clear();
                return Ok(());
            }
            match self.queue.front() {
                Some(q) if *q == seen => {
                    if let (Some(c), Some(e)) = (self.checkpoint.as_mut(), self.queue.pop_front()) {
                        c.matched.push(e);
                    }
                }
                Some(q) => {
                    return err(format!(
                        "after {actor} {action} the rebuilt deal tells \"{}\", the table \"{}\"",
                        seen.line(None),
                        q.line(None)
                    ))
                }
                None if matches!(seen, Event::End(_)) => {}
                None => {
                    return err(format!(
                    "after {actor} {action} the rebuilt deal tells \"{}\", the table nothing yet",
                    seen.line(None)
                ))
                }
            }
            if !matches!(seen, Event::Draw { .. } | Event::Flower { .. }) {
                self.last_public = Some(seen);
            }
        }
        Ok(())
    }

    /// The hidden places holding `t` (wall positions first), outside `avoid` positions and
    /// beyond the tiles `keep` holds for each seat.
    fn source(
        &self,
        t: WallTile,
        avoid: &[usize],
        keep: &BySeat<[u8; Tile::NUM]>,
        not: Seat,
    ) -> Option<Hidden> {
        let wall = self.deal.wall().undrawn();
        if let Some(i) = (0..wall.len()).find(|&i| wall[i] == t && !avoid.contains(&i)) {
            return Some(Hidden::Wall(i));
        }
        let taisim_sim::Drawn::Tile(kind) = t.classify() else {
            return None;
        };
        // A hand declared ready last: its tiles are guesses too, but it waits with them.
        let mut hands: Vec<Seat> = Wind::ALL
            .into_iter()
            .filter(|&h| h != self.seat && h != not)
            .collect();
        hands.sort_by_key(|&h| self.deal.ready_declaration(h).is_some());
        hands
            .into_iter()
            .find(|&h| self.deal.hand(h).count(kind) > keep[h][kind.index()])
            .map(Hidden::Hand)
    }

    /// Where the copies of `t` lie, for an error message.
    fn whereabouts(&self, t: WallTile) -> String {
        let mut at = Vec::new();
        for (i, &w) in self.deal.wall().undrawn().iter().enumerate() {
            if w == t {
                at.push(format!("wall {i} of {}", self.deal.wall().undrawn().len()));
            }
        }
        if let taisim_sim::Drawn::Tile(k) = t.classify() {
            for s in Wind::ALL {
                let n = self.deal.hand(s).count(k);
                if n > 0 {
                    at.push(format!("{n} in {s}'s hand"));
                }
            }
            let shown = self.deal.view(self.seat).seen_counts()[k.index()];
            at.push(format!("{shown} seen by {}", self.seat));
            for s in Wind::ALL.into_iter().filter(|&s| s != self.seat) {
                for m in self.deal.melds(s) {
                    if m.kind() == MeldKind::ConcealedKong {
                        at.push(format!("{s} has a face-down kong of {} here", m.tile()));
                    }
                }
            }
        }
        at.join(", ")
    }

    /// Makes `w` hold at least `n` of `t` (counting what `keep` already holds for it), then
    /// keeps them.
    fn ensure(
        &mut self,
        w: Seat,
        t: Tile,
        n: u8,
        avoid: &[usize],
        keep: &mut BySeat<[u8; Tile::NUM]>,
    ) -> Result<(), MirrorError> {
        let want = n + keep[w][t.index()];
        while self.deal.hand(w).count(t) < want {
            let src = match self.source(WallTile::tile(t), avoid, keep, w) {
                Some(src) => src,
                None if self.free_from_kong(t, avoid, keep)? => continue,
                None => {
                    return err(format!(
                        "no hidden {t} left for {w} to hold ({})",
                        self.whereabouts(WallTile::tile(t))
                    ))
                }
            };
            let hand = self.deal.hand(w);
            let give = Tile::ALL
                .into_iter()
                .filter(|&g| g != t && hand.count(g) > keep[w][g.index()])
                .max_by_key(|g| hand.count(*g))
                .ok_or_else(|| MirrorError(format!("{w} has nothing to give for {t}")))?;
            self.deal
                .exchange_hidden(
                    self.seat,
                    (Hidden::Hand(w), WallTile::tile(give)),
                    (src, WallTile::tile(t)),
                )
                .map_err(|e| MirrorError(e.to_string()))?;
        }
        keep[w][t.index()] += n;
        Ok(())
    }

    /// When `t` lies only in another seat's face-down kong here (its kind was a guess),
    /// changes that kong's kind to one whose four copies are hidden and free: true when done.
    fn free_from_kong(
        &mut self,
        t: Tile,
        avoid: &[usize],
        keep: &BySeat<[u8; Tile::NUM]>,
    ) -> Result<bool, MirrorError> {
        let Some(owner) = Wind::ALL.into_iter().find(|&s| {
            s != self.seat
                && self
                    .deal
                    .melds(s)
                    .iter()
                    .any(|m| m.kind() == MeldKind::ConcealedKong && m.tile() == t)
        }) else {
            return Ok(false);
        };
        for k in Tile::ALL.into_iter().filter(|&k| k != t) {
            let mut places = Vec::with_capacity(4);
            for (i, &w) in self.deal.wall().undrawn().iter().enumerate() {
                if w == WallTile::tile(k) && !avoid.contains(&i) {
                    places.push(Hidden::Wall(i));
                }
            }
            for h in Wind::ALL.into_iter().filter(|&h| h != self.seat) {
                let n = self
                    .deal
                    .hand(h)
                    .count(k)
                    .saturating_sub(keep[h][k.index()]);
                places.extend(std::iter::repeat_n(Hidden::Hand(h), n as usize));
            }
            if let Ok(places) = <[Hidden; 4]>::try_from(places) {
                self.deal
                    .rekind_hidden_kong(self.seat, owner, t, k, places)
                    .map_err(|e| MirrorError(e.to_string()))?;
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// A kind `x` can lay face down: all four copies hidden and free, the most held first.
    fn hidden_kong_kind(&self, x: Seat) -> Result<Tile, MirrorError> {
        let (run, wants) = self.next_draws()?;
        let undrawn = self.deal.wall().undrawn();
        let fixed: Vec<usize> = run
            .iter()
            .zip(&wants)
            .filter(|(&p, w)| **w == Want::Exactly(undrawn[p]))
            .map(|(&p, _)| p)
            .collect();
        let mut free = [0u8; Tile::NUM];
        let mut in_ready = [0u8; Tile::NUM];
        for (i, &t) in undrawn.iter().enumerate() {
            if let (taisim_sim::Drawn::Tile(k), false) = (t.classify(), fixed.contains(&i)) {
                free[k.index()] += 1;
            }
        }
        for h in Wind::ALL.into_iter().filter(|&h| h != self.seat) {
            for k in self.deal.hand(h).tiles() {
                free[k.index()] += 1;
                if h != x && self.deal.ready_declaration(h).is_some() {
                    in_ready[k.index()] += 1;
                }
            }
        }
        // Kinds wholly hidden and free; those held by hands declared ready last, then the
        // most held by the seat itself.
        Tile::ALL
            .into_iter()
            .filter(|k| free[k.index()] == 4)
            .max_by_key(|k| {
                (
                    core::cmp::Reverse(in_ready[k.index()]),
                    self.deal.hand(x).count(*k),
                    core::cmp::Reverse(k.index()),
                )
            })
            .ok_or_else(|| {
                MirrorError(format!("no kind is wholly hidden for {x}'s face-down kong"))
            })
    }

    /// Rearranges what the seat cannot see so that `actor`'s `action` and what the table
    /// told after it can be played.
    fn arrange(&mut self, actor: Seat, action: Action) -> Result<(), MirrorError> {
        let (positions, wants) = self.next_draws()?;
        // The hands take their tiles anywhere but from a draw that already brings the tile
        // it must (the others are filled below).
        let undrawn = self.deal.wall().undrawn();
        let exact: Vec<usize> = positions
            .iter()
            .zip(&wants)
            .filter(|(&p, w)| **w == Want::Exactly(undrawn[p]))
            .map(|(&p, _)| p)
            .collect();
        let positions_for_draws = positions.clone();
        let positions = exact;
        let mut keep: BySeat<[u8; Tile::NUM]> = BySeat([[0; Tile::NUM]; 4]);
        if actor != self.seat {
            match action {
                Action::Discard(t) | Action::AddedKong(t) => {
                    self.ensure(actor, t, 1, &positions, &mut keep)?
                }
                Action::ConcealedKong(t) => self.ensure(actor, t, 4, &positions, &mut keep)?,
                Action::DiscardReady(t) => {
                    // The tiles the next draws must bring are not the ready hand's to take.
                    let mut needed = [0u8; Tile::NUM];
                    for w in &wants {
                        if let Want::Exactly(x) = w {
                            if let taisim_sim::Drawn::Tile(k) = x.classify() {
                                needed[k.index()] += 1;
                            }
                        }
                    }
                    self.ready_hand(actor, t, &positions, &needed, &mut keep)?
                }
                _ => {}
            }
        }
        // The claim that wins this discard: the claimer holds its tiles when it is offered.
        if let (
            Action::Discard(d) | Action::DiscardReady(d),
            Some(Event::Claim {
                kind,
                actor: w,
                low,
                ..
            }),
        ) = (action, self.queue.get(1).cloned())
        {
            if w != self.seat {
                match kind {
                    MeldKind::Chow => {
                        for t in chow_tiles(low) {
                            if t != d {
                                self.ensure(w, t, 1, &positions, &mut keep)?;
                            }
                        }
                    }
                    MeldKind::Pung => self.ensure(w, d, 2, &positions, &mut keep)?,
                    _ => self.ensure(w, d, 3, &positions, &mut keep)?,
                }
            }
        }
        // In draw order: each placed tile stays; the later places may still give theirs.
        for (i, (&p, &want)) in positions_for_draws.iter().zip(&wants).enumerate() {
            self.place(p, want, &positions_for_draws[..=i], &keep)?;
        }
        Ok(())
    }

    /// Where the next draws the table told of fall in the undrawn wall, and what each must
    /// bring.
    fn next_draws(&self) -> Result<(Vec<usize>, Vec<Want>), MirrorError> {
        let q = &self.queue;
        let Some(j) = q
            .iter()
            .position(|e| matches!(e, Event::Flower { .. } | Event::Draw { .. }))
        else {
            return Ok((Vec::new(), Vec::new()));
        };
        let drawer = match q[j] {
            Event::Flower { actor, .. } | Event::Draw { actor, .. } => actor,
            _ => unreachable!(),
        };
        let mut wants = Vec::new();
        let mut k = j;
        while let Some(Event::Flower { actor, flower }) = q.get(k) {
            if *actor != drawer {
                break;
            }
            wants.push(Want::Exactly(WallTile::flower(*flower)));
            k += 1;
        }
        if let Some(Event::Draw { actor, tile, .. }) = q.get(k) {
            if *actor == drawer {
                wants.push(match tile {
                    Some(t) => Want::Exactly(WallTile::tile(*t)),
                    // A locked ready hand discards what it draws.
                    None if self.deal.ready_declaration(drawer).is_some() => q
                        .iter()
                        .skip(k + 1)
                        .find_map(|e| match e {
                            Event::Discard { actor, tile, .. } if *actor == drawer => {
                                Some(Want::Exactly(WallTile::tile(*tile)))
                            }
                            _ => None,
                        })
                        .unwrap_or(Want::Plain),
                    None => Want::Plain,
                });
            }
        }
        let before = if j > 0 {
            q.get(j - 1)
        } else {
            self.last_public.as_ref()
        };
        let from_back = matches!(
            before,
            Some(
                Event::Claim {
                    kind: MeldKind::Kong,
                    ..
                } | Event::ConcealedKong { .. }
                    | Event::AddedKong { .. }
                    | Event::Flower { .. }
            )
        );
        let len = self.deal.wall().undrawn().len();
        if wants.len() > len {
            return err("the table told more draws than the wall holds");
        }
        let positions = (0..wants.len())
            .map(|i| {
                if from_back {
                    len - 1 - i
                } else if i == 0 {
                    0
                } else {
                    len - i
                }
            })
            .collect();
        Ok((positions, wants))
    }

    /// Makes wall position `p` bring `want`, leaving the positions of `run` (`p` among them)
    /// alone otherwise.
    fn place(
        &mut self,
        p: usize,
        want: Want,
        run: &[usize],
        keep: &BySeat<[u8; Tile::NUM]>,
    ) -> Result<(), MirrorError> {
        let cur = self.deal.wall().undrawn()[p];
        match want {
            Want::Plain if !cur.is_flower() => Ok(()),
            Want::Plain => {
                let q = self.plain_elsewhere(run)?;
                self.swap_wall(p, q)
            }
            Want::Exactly(x) if cur == x => Ok(()),
            Want::Exactly(x) => {
                let mut src = self.source(x, run, keep, self.seat);
                if src.is_none() {
                    if let taisim_sim::Drawn::Tile(k) = x.classify() {
                        // `p` itself may give up its tile to the kong.
                        let fixed = &run[..run.len() - 1];
                        if self.free_from_kong(k, fixed, keep)? {
                            src = self.source(x, run, keep, self.seat);
                        }
                    }
                }
                match src {
                    Some(Hidden::Wall(q)) => self.swap_wall(p, q),
                    Some(Hidden::Hand(h)) => {
                        if cur.is_flower() {
                            let q = self.plain_elsewhere(run)?;
                            self.swap_wall(p, q)?;
                        }
                        let cur = self.deal.wall().undrawn()[p];
                        self.deal
                            .exchange_hidden(self.seat, (Hidden::Wall(p), cur), (Hidden::Hand(h), x))
                            .map_err(|e| MirrorError(e.to_string()))
                    }
                    None => err(format!(
                        "no hidden {x} left to draw at {p} of run {run:?} ({}; queue {:?}; kept {:?})",
                        self.whereabouts(x),
                        self.queue.iter().take(6).collect::<Vec<_>>(),
                        keep.0.iter().map(|k| k.iter().enumerate().filter(|(_, &n)| n > 0).map(|(i, n)| format!("{}x{n}", Tile::new(i as u8))).collect::<Vec<_>>()).collect::<Vec<_>>()
                    )),
                }
            }
        }
    }

    /// A wall position outside `run` holding a tile that is not a flower.
    fn plain_elsewhere(&self, run: &[usize]) -> Result<usize, MirrorError> {
        let wall = self.deal.wall().undrawn();
        (0..wall.len())
            .find(|i| !run.contains(i) && !wall[*i].is_flower())
            .ok_or_else(|| MirrorError("no plain tile left in the wall for a draw".into()))
    }

    fn swap_wall(&mut self, p: usize, q: usize) -> Result<(), MirrorError> {
        let wall = self.deal.wall().undrawn();
        let (a, b) = (wall[p], wall[q]);
        self.deal
            .exchange_hidden(self.seat, (Hidden::Wall(p), a), (Hidden::Wall(q), b))
            .map_err(|e| MirrorError(e.to_string()))
    }

    /// Gives `x` a hand that is ready once it discards `t` (it declares ready with `t`).
    fn ready_hand(
        &mut self,
        x: Seat,
        t: Tile,
        avoid: &[usize],
        needed: &[u8; Tile::NUM],
        keep: &mut BySeat<[u8; Tile::NUM]>,
    ) -> Result<(), MirrorError> {
        let size = self.deal.hand(x).len();
        let sets = (size - 2) / 3;
        // What may go into the hand: its own tiles and the other hidden tiles that are free.
        let mut free = self.deal.hand(x).counts();
        let wall = self.deal.wall().undrawn();
        for (i, w) in wall.iter().enumerate() {
            if let (taisim_sim::Drawn::Tile(k), false) = (w.classify(), avoid.contains(&i)) {
                free[k.index()] += 1;
            }
        }
        for h in Wind::ALL.into_iter().filter(|&h| h != self.seat && h != x) {
            if self.deal.ready_declaration(h).is_none() {
                for k in Tile::ALL {
                    free[k.index()] += self
                        .deal
                        .hand(h)
                        .count(k)
                        .saturating_sub(keep[h][k.index()]);
                }
            }
        }
        for (f, n) in free.iter_mut().zip(needed) {
            *f = f.saturating_sub(*n);
        }
        // Sets from the seat's own tiles first: fewer tiles move.
        let own = self.deal.hand(x).counts();
        let mut kinds = Tile::ALL;
        kinds.sort_by_key(|k| core::cmp::Reverse(own[k.index()]));
        let view = self.deal.view(x);
        let rules = hand_rules(&view, sets as u8);
        let mut target: Option<Hand> = None;
        'single: for single in Tile::ALL {
            let mut left = free;
            let mut hand = Hand::default();
            let take = |k: Tile, n: u8, left: &mut [u8; Tile::NUM], hand: &mut Hand| {
                if left[k.index()] >= n {
                    left[k.index()] -= n;
                    hand.add_n(k, n);
                    true
                } else {
                    false
                }
            };
            if !take(t, 1, &mut left, &mut hand) || !take(single, 1, &mut left, &mut hand) {
                continue;
            }
            for _ in 0..sets {
                let pung = kinds.into_iter().find(|&k| left[k.index()] >= 3);
                if let Some(k) = pung {
                    take(k, 3, &mut left, &mut hand);
                    continue;
                }
                let chow = kinds.into_iter().find(|&k| {
                    !k.is_honor() && k.rank() <= 7 && (0..3).all(|d| left[k.index() + d] > 0)
                });
                match chow {
                    Some(k) => {
                        for d in 0..3 {
                            take(Tile::new(k.to_u8() + d), 1, &mut left, &mut hand);
                        }
                    }
                    None => continue 'single,
                }
            }
            let mut after = hand;
            after.remove(t);
            if !waits(&after, rules).is_empty() {
                target = Some(hand);
                break;
            }
        }
        let Some(target) = target else {
            return err(format!(
                "no ready hand for {x} can be made from the hidden tiles"
            ));
        };
        // Exchange the hand's surplus for what it lacks, kind by kind.
        loop {
            let hand = *self.deal.hand(x);
            let Some(need) = Tile::ALL
                .into_iter()
                .find(|k| hand.count(*k) < target.count(*k))
            else {
                break;
            };
            let give = Tile::ALL
                .into_iter()
                .find(|k| hand.count(*k) > target.count(*k))
                .expect("same sizes");
            let Some(src) = self.source(WallTile::tile(need), avoid, keep, x) else {
                return err(format!("no hidden {need} left for {x}'s ready hand"));
            };
            self.deal
                .exchange_hidden(
                    self.seat,
                    (Hidden::Hand(x), WallTile::tile(give)),
                    (src, WallTile::tile(need)),
                )
                .map_err(|e| MirrorError(e.to_string()))?;
        }
        keep[x] = target.counts();
        Ok(())
    }
}
