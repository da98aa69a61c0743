//! The protocol's messages as Rust values: what the table tells a seat (or, merged, what a
//! deal log records), how each is written as one JSON line and read back, and what each
//! seat may see of it.

use serde_json::Value;
use taisim_sim::{
    chow_tiles, Action, BySeat, DealContext, DealResult, Flower, FlowerSet, Hand, Meld, MeldKind,
    MeldList, Outcome, Seat, SeatSet, Tile, WallTile, WinContext, Wind,
};

use super::json::{self, names, Fields, Obj, ReadError};

/// The protocol version this table speaks (`"protocol": 1` in both hellos).
pub const PROTOCOL_VERSION: u32 = 1;

/// A deal's opening as one seat sees it, or (in a log) as the table dealt it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Start {
    /// In a log: the deal's seed (it deals the wall). To a seat: a number for the bot's own
    /// random choices, drawn from the generator the built-in agents draw from
    /// ([`crate::agent_rng`]), which is independent of the wall's.
    pub seed: u64,
    pub variant: String,
    /// The variant file's SHA-256, as the run records it: in a log, and to a seat when the
    /// table knows it.
    pub variant_sha256: Option<String>,
    /// In a log: the stakes the payments were settled at.
    pub stakes: Option<(i64, i64)>,
    pub context: DealContext,
    /// The concealed tiles after the deal and the flower replacement: every seat's in a log,
    /// the seat's own (others `None`) to a seat.
    pub hands: BySeat<Option<Hand>>,
    /// The flowers each seat showed while the tiles were dealt (public).
    pub flowers: BySeat<FlowerSet>,
    pub wild_indicator: Option<WallTile>,
    pub wild: Option<Tile>,
    /// Tiles left in the wall, the reserve included.
    pub left: u8,
}

impl Start {
    /// Whether the variant file the table plays (its `variant_sha256`, when sent) is the one
    /// a bot found by the variant's name or was given (`ours`: its file's SHA-256 as a run
    /// records it): an edited file may keep a shipped name, and would then be played by the
    /// wrong rules. The error says so, naming both hashes.
    pub fn check_variant_file(&self, ours: Option<&str>) -> Result<(), String> {
        match (&self.variant_sha256, ours) {
            (Some(table), Some(ours)) if table != ours => Err(format!(
                "the table's variant {} has SHA-256 {}…, this bot's {}… (a file that keeps a shipped name, or another file than the bot was given): give the bot the table's variant file",
                self.variant,
                table.get(..12).unwrap_or(table),
                ours.get(..12).unwrap_or(ours)
            )),
            _ => Ok(()),
        }
    }
}

/// One pattern of a win as the end of a deal reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternLine {
    pub id: String,
    pub name: String,
    pub tai: u16,
}

/// One winner's score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WinLine {
    pub seat: Seat,
    pub tai: u16,
    pub dealer_tai: u16,
    /// 胡 and points under a points variant (0 under the tai model).
    pub hu: u32,
    pub points: u64,
    pub patterns: Vec<PatternLine>,
}

/// The end of a deal: its result, every hand shown, and the settlement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct End {
    pub result: DealResult,
    pub hands: BySeat<Hand>,
    /// Every meld, concealed kongs face up.
    pub melds: BySeat<MeldList>,
    pub flowers: BySeat<FlowerSet>,
    pub wins: Vec<WinLine>,
    /// Net payments by seat (they sum to zero).
    pub payments: BySeat<i64>,
    /// The seat that paid for everyone (全包), under all-pairs settlement.
    pub responsible: Option<Seat>,
}

/// What happened at the table, in the protocol's vocabulary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Start(Box<Start>),
    /// `actor` drew a tile (`tile` shown to the drawer and in logs only); `left` tiles remain.
    Draw {
        actor: Seat,
        tile: Option<Tile>,
        left: u8,
    },
    /// `actor` showed a flower; a replacement draw follows.
    Flower {
        actor: Seat,
        flower: Flower,
    },
    /// `actor` discarded `tile`, declaring ready with it when `ready`.
    Discard {
        actor: Seat,
        tile: Tile,
        ready: bool,
    },
    /// `actor` claimed `from`'s discard `tile` into a chow (run from `low`), pung or kong.
    Claim {
        kind: MeldKind,
        actor: Seat,
        from: Seat,
        tile: Tile,
        low: Tile,
    },
    /// `actor` laid a kong face down (its kind shown to the actor and in logs only).
    ConcealedKong {
        actor: Seat,
        tile: Option<Tile>,
    },
    /// `actor` added the fourth `tile` to its pung.
    AddedKong {
        actor: Seat,
        tile: Tile,
    },
    /// In logs only: `actor`'s decision number `step` (counted from 1) of the deal.
    Decision {
        actor: Seat,
        step: u16,
        action: Action,
    },
    End(Box<End>),
}

/// An event of one deal as a line: the deal it belongs to, and the seat whose view it is
/// (`None` in a log, which every seat's view merged).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub deal: u64,
    pub seat: Option<Seat>,
    pub event: Event,
}

impl Event {
    /// The message type as written (`"draw"`, `"pung"`, …).
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Start(_) => "start",
            Event::Draw { .. } => "draw",
            Event::Flower { .. } => "flower",
            Event::Discard { .. } => "discard",
            Event::Claim { kind, .. } => kind.name(),
            Event::ConcealedKong { .. } => "concealed_kong",
            Event::AddedKong { .. } => "added_kong",
            Event::Decision { .. } => "decision",
            Event::End(_) => "end",
        }
    }

    /// The event in a line of English, as a person at the table or an error message says
    /// it ("W discards 9p and declares ready", "N pungs 5m from E: 5m 5m 5m"). `me`: the
    /// seat spoken to, named "you"; a drawn tile or a face-down kong's kind is shown when the
    /// event holds it.
    pub fn line(&self, me: Option<Seat>) -> String {
        let who = |s: Seat| {
            if Some(s) == me {
                "you".to_string()
            } else {
                s.to_string()
            }
        };
        // The verb's ending: "you discard", "W discards".
        let s = |actor: Seat| if Some(actor) == me { "" } else { "s" };
        let tiles = |ts: &mut dyn Iterator<Item = Tile>| {
            ts.map(|t| t.to_string()).collect::<Vec<_>>().join(" ")
        };
        match self {
            Event::Start(st) => format!(
                "the deal starts: round {}, dealer {}, streak {}, {} tiles left",
                st.context.round_wind, st.context.dealer, st.context.streak, st.left
            ),
            Event::Draw { actor, tile, left } => format!(
                "{} draw{}{} ({left} left)",
                who(*actor),
                s(*actor),
                tile.map(|t| format!(" {t}")).unwrap_or_default()
            ),
            Event::Flower { actor, flower } => format!(
                "{} show{} {flower} ({})",
                who(*actor),
                s(*actor),
                flower.name_zh()
            ),
            Event::Discard { actor, tile, ready } => format!(
                "{} discard{} {tile}{}",
                who(*actor),
                s(*actor),
                match (ready, Some(*actor) == me) {
                    (false, _) => "",
                    (true, true) => " and declare ready",
                    (true, false) => " and declares ready",
                }
            ),
            Event::Claim {
                kind,
                actor,
                from,
                tile,
                low,
            } => {
                let set = match kind {
                    MeldKind::Chow => tiles(&mut chow_tiles(*low).into_iter()),
                    k => tiles(&mut std::iter::repeat_n(*tile, k.len() as usize)),
                };
                format!(
                    "{} {}{} {tile} from {}: {set}",
                    who(*actor),
                    kind.name(),
                    s(*actor),
                    who(*from)
                )
            }
            Event::ConcealedKong { actor, tile } => format!(
                "{} lay{} a kong face down{}",
                who(*actor),
                s(*actor),
                tile.map(|t| format!(": {t}")).unwrap_or_default()
            ),
            Event::AddedKong { actor, tile } => {
                format!("{} add{} {tile} to a pung", who(*actor), s(*actor))
            }
            Event::Decision {
                actor,
                step,
                action,
            } => {
                format!("decision {step}: {} {action}", who(*actor))
            }
            Event::End(e) => format!("the deal ends: {}", e.result.outcome.name()),
        }
    }

    /// What `seat` is told of this event: the same, hiding another seat's drawn tile and the
    /// kind of another seat's face-down kong, showing only its own hand at the start, and
    /// nothing of a decision (the answers to offers are private). `None`: not sent.
    pub fn seen_by(&self, seat: Seat) -> Option<Event> {
        Some(match self {
            Event::Start(s) => {
                let mut hands = BySeat::<Option<Hand>>::default();
                hands[seat] = s.hands[seat];
                Event::Start(Box::new(Start {
                    seed: super::narrate::bot_seed(s.seed, seat),
                    hands,
                    stakes: None,
                    ..(**s).clone()
                }))
            }
            Event::Draw { actor, tile, left } => Event::Draw {
                actor: *actor,
                tile: tile.filter(|_| *actor == seat),
                left: *left,
            },
            Event::ConcealedKong { actor, tile } => Event::ConcealedKong {
                actor: *actor,
                tile: tile.filter(|_| *actor == seat),
            },
            Event::Decision { .. } => return None,
            other => other.clone(),
        })
    }
}

/// Writes an action's own fields (`"type"` and its tiles) into an open object.
pub(crate) fn write_action_fields(o: &mut Obj<'_>, action: Action) {
    o.str("type", action.name());
    match action {
        Action::Chow(low) => {
            o.tiles("tiles", chow_tiles(low));
        }
        other => {
            if let Some(t) = other.tile() {
                o.name("tile", t);
            }
        }
    }
}

/// Appends (without a newline) the request asking `seat` to decide in `deal` (the bot's deal
/// `number`): `{"type":"act","deal":…,"seat":…,"step":…,"offer":…,"legal":[{"id":0,…},…]}`,
/// the ids numbering `legal` in order.
pub fn write_request(
    out: &mut String,
    number: u64,
    deal: &taisim_sim::Deal,
    seat: Seat,
    legal: &[Action],
) {
    let mut o = Obj::new(out);
    o.str("type", "act")
        .num("deal", number)
        .name("seat", seat)
        .num("step", deal.steps() + 1);
    let view = deal.view(seat);
    if let Some(t) = view.tile_on_offer() {
        o.name("offer", t);
    } else if let Some(f) = view.flower_on_offer() {
        o.name("offer", f);
    }
    o.raw("legal", |out| {
        out.push('[');
        for (id, &a) in legal.iter().enumerate() {
            if id > 0 {
                out.push(',');
            }
            let mut e = Obj::new(out);
            e.num("id", id);
            write_action_fields(&mut e, a);
            e.end();
        }
        out.push(']');
    });
    o.end();
}

/// `{"type":"discard","tile":"5m"}`, `{"type":"chow","tiles":["3m","4m","5m"]}`, `{"type":"pass"}`.
pub fn action_json(action: Action) -> String {
    let mut s = String::with_capacity(40);
    let mut o = Obj::new(&mut s);
    write_action_fields(&mut o, action);
    o.end();
    s
}

/// Reads an action written by [`action_json`].
pub fn read_action(v: &Value) -> Result<Action, ReadError> {
    let f = Fields::of(v)?;
    let kind = f.str("type")?;
    Ok(match kind {
        "discard" => Action::Discard(f.tile("tile")?),
        "discard_ready" => Action::DiscardReady(f.tile("tile")?),
        "concealed_kong" => Action::ConcealedKong(f.tile("tile")?),
        "added_kong" => Action::AddedKong(f.tile("tile")?),
        "self_draw_win" => Action::SelfDrawWin,
        "flower_win" => Action::FlowerWin,
        "win" => Action::Win,
        "pung" => Action::Pung,
        "kong" => Action::Kong,
        "pass" => Action::Pass,
        "chow" => {
            let tiles = f.tiles("tiles")?;
            match tiles.as_slice() {
                [a, ..]
                    if tiles.len() == 3
                        && tiles == chow_tiles(*a)
                        && !a.is_honor()
                        && a.rank() <= 7 =>
                {
                    Action::Chow(*a)
                }
                _ => {
                    return Err(ReadError::Field {
                        field: "tiles",
                        why: "a chow names three tiles in a run of one suit, lowest first".into(),
                    })
                }
            }
        }
        other => return Err(ReadError::UnknownType(other.to_string())),
    })
}

/// A circumstance of a win: its name, how to read it and how to set it.
type ContextFlag = (&'static str, fn(&WinContext) -> bool, fn(&mut WinContext));

const CONTEXT_FLAGS: [ContextFlag; 9] = [
    ("self_draw", |c| c.self_draw, |c| c.self_draw = true),
    (
        "robbing_kong",
        |c| c.robbing_kong,
        |c| c.robbing_kong = true,
    ),
    (
        "kong_replacement",
        |c| c.kong_replacement,
        |c| c.kong_replacement = true,
    ),
    (
        "flower_replacement",
        |c| c.flower_replacement,
        |c| c.flower_replacement = true,
    ),
    ("last_tile", |c| c.last_tile, |c| c.last_tile = true),
    ("heavenly", |c| c.heavenly, |c| c.heavenly = true),
    ("earthly", |c| c.earthly, |c| c.earthly = true),
    ("human", |c| c.human, |c| c.human = true),
    ("flower_win", |c| c.flower_win, |c| c.flower_win = true),
];

fn outcome_of(name: &str) -> Option<Outcome> {
    [
        Outcome::SelfDraw,
        Outcome::Discard,
        Outcome::FlowerWin,
        Outcome::ExhaustiveDraw,
    ]
    .into_iter()
    .find(|o| o.name() == name)
}

fn seat_list(out: &mut String, seats: SeatSet) {
    names(out, seats.iter());
}

fn flowers_by_seat(out: &mut String, flowers: &BySeat<FlowerSet>) {
    json::by_seat(out, |out, s| names(out, flowers[s].iter()));
}

fn hands_by_seat(out: &mut String, hands: &BySeat<Hand>) {
    json::by_seat(out, |out, s| names(out, hands[s].tiles()));
}

fn meld_json(out: &mut String, m: Meld) {
    let mut o = Obj::new(out);
    o.str("type", m.kind().name())
        .tiles("tiles", m.tiles())
        .name("from", m.from());
    if m.kind() == MeldKind::Chow {
        o.name("tile", m.claimed_tile());
    }
    o.end();
}

impl Message {
    /// The message as one JSON line (no newline).
    pub fn to_json(&self) -> String {
        let mut s = String::with_capacity(96);
        self.write_json(&mut s);
        s
    }

    /// Appends the message as JSON (no newline) to `out`.
    pub fn write_json(&self, out: &mut String) {
        let mut o = Obj::new(out);
        o.str("type", self.event.kind()).num("deal", self.deal);
        if let Some(seat) = self.seat {
            o.name("seat", seat);
        }
        match &self.event {
            Event::Start(s) => {
                o.num("seed", s.seed).str("variant", &s.variant);
                if let Some(sha) = &s.variant_sha256 {
                    o.str("variant_sha256", sha);
                }
                if let Some((base, per_tai)) = s.stakes {
                    o.num("base", base).num("per_tai", per_tai);
                }
                o.name("round_wind", s.context.round_wind)
                    .name("dealer", s.context.dealer)
                    .num("streak", s.context.streak);
                match self.seat {
                    Some(seat) => {
                        let hand = s.hands[seat].unwrap_or_default();
                        o.tiles("hand", hand.tiles());
                    }
                    None => {
                        o.raw("hands", |out| {
                            json::by_seat(out, |out, seat| {
                                names(out, s.hands[seat].unwrap_or_default().tiles())
                            })
                        });
                    }
                }
                o.raw("flowers", |out| flowers_by_seat(out, &s.flowers))
                    .opt_name("wild_indicator", s.wild_indicator)
                    .opt_name("wild", s.wild)
                    .num("left", s.left);
            }
            Event::Draw { actor, tile, left } => {
                o.name("actor", actor);
                if let Some(t) = tile {
                    o.name("tile", t);
                }
                o.num("left", left);
            }
            Event::Flower { actor, flower } => {
                o.name("actor", actor).name("flower", flower);
            }
            Event::Discard { actor, tile, ready } => {
                o.name("actor", actor)
                    .name("tile", tile)
                    .bool("ready", *ready);
            }
            Event::Claim {
                kind,
                actor,
                from,
                tile,
                low,
            } => {
                o.name("actor", actor).name("from", from).name("tile", tile);
                match kind {
                    MeldKind::Chow => o.tiles("tiles", chow_tiles(*low)),
                    k => o.tiles("tiles", std::iter::repeat_n(*tile, k.len() as usize)),
                };
            }
            Event::ConcealedKong { actor, tile } => {
                o.name("actor", actor);
                if let Some(t) = tile {
                    o.name("tile", t);
                }
            }
            Event::AddedKong { actor, tile } => {
                o.name("actor", actor).name("tile", tile);
            }
            Event::Decision {
                actor,
                step,
                action,
            } => {
                o.num("step", step)
                    .name("actor", actor)
                    .raw("action", |out| {
                        let mut a = Obj::new(out);
                        write_action_fields(&mut a, *action);
                        a.end();
                    });
            }
            Event::End(e) => write_end(&mut o, e),
        }
        o.end();
    }

    /// Reads one line written by [`Message::write_json`] (a log's or a seat's).
    pub fn from_json(line: &str) -> Result<Message, ReadError> {
        let v: Value = serde_json::from_str(line).map_err(|e| ReadError::NotJson(e.to_string()))?;
        Message::from_value(&v)
    }

    pub fn from_value(v: &Value) -> Result<Message, ReadError> {
        let f = Fields::of(v)?;
        let kind = f.str("type")?;
        // The event before the fields every message shares: a line of a type no message has
        // is named by its type, not by the first shared field it lacks ("deal").
        let event = match kind {
            "start" => Event::Start(Box::new(read_start(&f, f.opt_seat("seat")?)?)),
            "draw" => Event::Draw {
                actor: f.seat("actor")?,
                tile: f.opt_tile("tile")?,
                left: f.small("left")?,
            },
            "flower" => Event::Flower {
                actor: f.seat("actor")?,
                flower: f.flower("flower")?,
            },
            "discard" => Event::Discard {
                actor: f.seat("actor")?,
                tile: f.tile("tile")?,
                ready: f.bool("ready")?,
            },
            "chow" | "pung" | "kong" => {
                let kind = MeldKind::from_name(kind).expect("a claim's name");
                let tiles = f.tiles("tiles")?;
                let tile = f.tile("tile")?;
                let low = *tiles.iter().min().ok_or(ReadError::Missing("tiles"))?;
                let fits = match kind {
                    MeldKind::Chow => {
                        !low.is_honor()
                            && low.rank() <= 7
                            && tiles == chow_tiles(low)
                            && tiles.contains(&tile)
                    }
                    k => tiles.len() == k.len() as usize && tiles.iter().all(|&t| t == tile),
                };
                if !fits {
                    return Err(ReadError::Field {
                        field: "tiles",
                        why: format!(
                            "not the tiles of a {kind:?} claiming {tile}",
                            kind = kind.name()
                        ),
                    });
                }
                Event::Claim {
                    kind,
                    actor: f.seat("actor")?,
                    from: f.seat("from")?,
                    tile,
                    low,
                }
            }
            "concealed_kong" => Event::ConcealedKong {
                actor: f.seat("actor")?,
                tile: f.opt_tile("tile")?,
            },
            "added_kong" => Event::AddedKong {
                actor: f.seat("actor")?,
                tile: f.tile("tile")?,
            },
            "decision" => Event::Decision {
                actor: f.seat("actor")?,
                step: f.small("step")?,
                action: read_action(f.get("action")?)?,
            },
            "end" => Event::End(Box::new(read_end(&f)?)),
            other => return Err(ReadError::UnknownType(other.to_string())),
        };
        let deal = f.u64("deal")?;
        let seat = f.opt_seat("seat")?;
        Ok(Message { deal, seat, event })
    }
}

fn write_end(o: &mut Obj<'_>, e: &End) {
    let r = &e.result;
    o.str("outcome", r.outcome.name())
        .raw("winners", |out| seat_list(out, r.winners))
        .opt_name("payer", r.payer)
        .opt_name("win_tile", r.win_tile)
        .raw("context", |out| {
            names(
                out,
                CONTEXT_FLAGS
                    .iter()
                    .filter(|(_, get, _)| get(&r.context))
                    .map(|(n, _, _)| n),
            )
        })
        .opt_name("exposed_kong_from", r.context.exposed_kong_from)
        .raw("hands", |out| hands_by_seat(out, &e.hands))
        .raw("melds", |out| {
            json::by_seat(out, |out, s| {
                out.push('[');
                for (i, m) in e.melds[s].iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    meld_json(out, *m);
                }
                out.push(']');
            })
        })
        .raw("flowers", |out| flowers_by_seat(out, &e.flowers))
        .raw("wins", |out| {
            out.push('[');
            for (i, w) in e.wins.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                let mut wo = Obj::new(out);
                wo.name("seat", w.seat)
                    .num("tai", w.tai)
                    .num("dealer_tai", w.dealer_tai)
                    .num("hu", w.hu)
                    .num("points", w.points)
                    .raw("patterns", |out| {
                        out.push('[');
                        for (j, p) in w.patterns.iter().enumerate() {
                            if j > 0 {
                                out.push(',');
                            }
                            let mut po = Obj::new(out);
                            po.str("id", &p.id).str("name", &p.name).num("tai", p.tai);
                            po.end();
                        }
                        out.push(']');
                    });
                wo.end();
            }
            out.push(']');
        })
        .raw("payments", |out| {
            json::by_seat(out, |out, s| {
                use core::fmt::Write as _;
                let _ = write!(out, "{}", e.payments[s]);
            })
        })
        .opt_name("responsible", e.responsible);
}

fn read_start(f: &Fields<'_>, seat: Option<Seat>) -> Result<Start, ReadError> {
    let hand_of = |v: &Value| -> Result<Hand, String> {
        let tiles = json::tiles_of(v)?;
        let mut h = Hand::default();
        for t in tiles {
            h.try_add(t).map_err(|e| e.to_string())?;
        }
        Ok(h)
    };
    let mut hands = BySeat::<Option<Hand>>::default();
    match seat {
        Some(s) => {
            hands[s] = Some(
                hand_of(f.get("hand")?).map_err(|why| ReadError::Field { field: "hand", why })?,
            )
        }
        // A seat's start carries its one `hand`; without the `seat` that says whose it is,
        // the missing field is the seat, not a log's `hands`.
        None if f.has("hand") && !f.has("hands") => return Err(ReadError::Missing("seat")),
        None => {
            let all = f.by_seat("hands", hand_of)?;
            for s in Wind::ALL {
                hands[s] = Some(all[s]);
            }
        }
    }
    let stakes = if f.has("base") || f.has("per_tai") {
        Some((f.i64("base")?, f.i64("per_tai")?))
    } else {
        None
    };
    Ok(Start {
        seed: f.u64("seed")?,
        variant: f.str("variant")?.to_string(),
        variant_sha256: if f.has("variant_sha256") {
            Some(f.str("variant_sha256")?.to_string())
        } else {
            None
        },
        stakes,
        context: DealContext {
            round_wind: f.seat("round_wind")?,
            dealer: f.seat("dealer")?,
            streak: f.small("streak")?,
        },
        hands,
        flowers: f.by_seat("flowers", flower_set_of)?,
        wild_indicator: f.opt_wall_tile("wild_indicator")?,
        wild: f.opt_tile("wild")?,
        left: f.small("left")?,
    })
}

fn flower_set_of(v: &Value) -> Result<FlowerSet, String> {
    let mut set = FlowerSet::EMPTY;
    for x in v.as_array().ok_or("expected an array of flowers")? {
        let fl = json::flower_of(x)?;
        if set.contains(fl) {
            return Err(format!("{fl} twice"));
        }
        set = set.with(fl);
    }
    Ok(set)
}

fn read_end(f: &Fields<'_>) -> Result<End, ReadError> {
    let outcome_name = f.str("outcome")?;
    let outcome = outcome_of(outcome_name).ok_or_else(|| ReadError::Field {
        field: "outcome",
        why: format!("{outcome_name:?} is not an outcome"),
    })?;
    let mut winners = SeatSet::EMPTY;
    for v in f.get("winners")?.as_array().ok_or(ReadError::Field {
        field: "winners",
        why: "expected an array of seats".into(),
    })? {
        winners.insert(json::seat_of(v).map_err(|why| ReadError::Field {
            field: "winners",
            why,
        })?);
    }
    let mut context = WinContext::default();
    for v in f.get("context")?.as_array().ok_or(ReadError::Field {
        field: "context",
        why: "expected an array of names".into(),
    })? {
        let name = v.as_str().unwrap_or_default();
        let (_, _, set) = CONTEXT_FLAGS
            .iter()
            .find(|(n, _, _)| *n == name)
            .ok_or_else(|| ReadError::Field {
                field: "context",
                why: format!("{v} is not a circumstance of a win"),
            })?;
        set(&mut context);
    }
    context.exposed_kong_from = f.opt_seat("exposed_kong_from")?;
    let hands = f.by_seat("hands", |v| {
        let mut h = Hand::default();
        for t in json::tiles_of(v)? {
            h.try_add(t).map_err(|e| e.to_string())?;
        }
        Ok(h)
    })?;
    let melds = f.by_seat("melds", |v| {
        let mut list = MeldList::new();
        for m in v.as_array().ok_or("expected an array of melds")? {
            let mf = Fields::of(m).map_err(|e| e.to_string())?;
            let kind_name = mf.str("type").map_err(|e| e.to_string())?;
            let kind =
                MeldKind::from_name(kind_name).ok_or(format!("{kind_name:?} is not a meld"))?;
            let tiles = mf.tiles("tiles").map_err(|e| e.to_string())?;
            let low = *tiles.iter().min().ok_or("a meld without tiles")?;
            let from = mf.seat("from").map_err(|e| e.to_string())?;
            let claimed = if kind == MeldKind::Chow {
                let t = mf.tile("tile").map_err(|e| e.to_string())?;
                t.to_u8().wrapping_sub(low.to_u8())
            } else {
                0
            };
            if claimed > 2 {
                return Err("a chow's claimed tile is not in its run".into());
            }
            list.try_push(Meld::new(kind, low, from, claimed))
                .map_err(|_| "more than five melds")?;
        }
        Ok(list)
    })?;
    let mut wins = Vec::new();
    for w in f.get("wins")?.as_array().ok_or(ReadError::Field {
        field: "wins",
        why: "expected an array".into(),
    })? {
        let wf = Fields::of(w)?;
        let mut patterns = Vec::new();
        for p in wf.get("patterns")?.as_array().ok_or(ReadError::Field {
            field: "patterns",
            why: "expected an array".into(),
        })? {
            let pf = Fields::of(p)?;
            patterns.push(PatternLine {
                id: pf.str("id")?.to_string(),
                name: pf.str("name")?.to_string(),
                tai: pf.small("tai")?,
            });
        }
        wins.push(WinLine {
            seat: wf.seat("seat")?,
            tai: wf.small("tai")?,
            dealer_tai: wf.small("dealer_tai")?,
            hu: wf.small("hu")?,
            points: wf.u64("points")?,
            patterns,
        });
    }
    let payments = f.by_seat("payments", |v| {
        v.as_i64()
            .ok_or_else(|| "expected a whole number".to_string())
    })?;
    Ok(End {
        result: DealResult {
            outcome,
            winners,
            payer: f.opt_seat("payer")?,
            win_tile: f.opt_tile("win_tile")?,
            context,
        },
        hands,
        melds,
        flowers: f.by_seat("flowers", flower_set_of)?,
        wins,
        payments,
        responsible: f.opt_seat("responsible")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use taisim_sim::parse_tile;

    fn t(s: &str) -> Tile {
        parse_tile(s).unwrap()
    }

    #[test]
    fn actions_round_trip() {
        let all = [
            Action::Discard(t("5m")),
            Action::DiscardReady(t("E")),
            Action::ConcealedKong(t("9s")),
            Action::AddedKong(t("C")),
            Action::SelfDrawWin,
            Action::FlowerWin,
            Action::Win,
            Action::Pung,
            Action::Kong,
            Action::Chow(t("3p")),
            Action::Pass,
        ];
        for a in all {
            let text = action_json(a);
            let v: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(read_action(&v).unwrap(), a, "{text}");
        }
        assert_eq!(
            action_json(Action::Chow(t("3p"))),
            r#"{"type":"chow","tiles":["3p","4p","5p"]}"#
        );
        let bad: Value =
            serde_json::from_str(r#"{"type":"chow","tiles":["8p","9p","1s"]}"#).unwrap();
        assert!(read_action(&bad).is_err());
    }

    #[test]
    fn events_round_trip_and_hide_what_a_seat_cannot_see() {
        let events = [
            Event::Draw {
                actor: Wind::South,
                tile: Some(t("7p")),
                left: 60,
            },
            Event::ConcealedKong {
                actor: Wind::West,
                tile: Some(t("2s")),
            },
            Event::Claim {
                kind: MeldKind::Chow,
                actor: Wind::North,
                from: Wind::West,
                tile: t("4m"),
                low: t("3m"),
            },
            Event::Discard {
                actor: Wind::East,
                tile: t("F"),
                ready: true,
            },
        ];
        for e in events {
            for seat in [None, Some(Wind::South), Some(Wind::West)] {
                let shown = match seat {
                    None => Some(e.clone()),
                    Some(s) => e.seen_by(s),
                };
                let m = Message {
                    deal: 3,
                    seat,
                    event: shown.unwrap(),
                };
                let line = m.to_json();
                assert_eq!(Message::from_json(&line).unwrap(), m, "{line}");
            }
        }
        let draw = Event::Draw {
            actor: Wind::South,
            tile: Some(t("7p")),
            left: 60,
        };
        assert!(matches!(
            draw.seen_by(Wind::East),
            Some(Event::Draw { tile: None, .. })
        ));
        assert!(matches!(
            draw.seen_by(Wind::South),
            Some(Event::Draw { tile: Some(_), .. })
        ));
        let decision = Event::Decision {
            actor: Wind::East,
            step: 1,
            action: Action::Pass,
        };
        assert_eq!(decision.seen_by(Wind::East), None);
    }

    /// A seat's start (one `hand`) that leaves out its `seat` is named as missing the seat,
    /// not a log's `hands`; the same line with its seat reads.
    #[test]
    fn a_seats_start_without_its_seat_names_the_seat() {
        let seat_start = r#"{"type":"start","deal":1,"seat":"S","seed":7,"variant":"taiwan16","round_wind":"E","dealer":"E","streak":0,"hand":["3m","4m","6m","7m","2p","4p","4p","6p","8p","9p","2s","5s","5s","9s","S","C"],"flowers":{"E":["f5"],"S":[],"W":["f1"],"N":["f8"]},"wild_indicator":null,"wild":null,"left":76}"#;
        let m = Message::from_json(seat_start).unwrap();
        assert_eq!(m.seat, Some(Wind::South));
        let without = seat_start.replace(r#""seat":"S","#, "");
        let e = Message::from_json(&without).unwrap_err();
        assert!(matches!(e, ReadError::Missing("seat")), "{e}");
    }

    /// A line of a type no message has is named by its type, whatever else it lacks; a
    /// message of a known type still needs its deal.
    #[test]
    fn an_unknown_message_type_is_named_before_any_missing_field() {
        for line in [
            r#"{"type":"bogus"}"#,
            r#"{"type":"bogus","deal":-1,"seat":"X"}"#,
        ] {
            let e = Message::from_json(line).unwrap_err();
            assert_eq!(e.to_string(), r#"unknown message type "bogus""#, "{line}");
        }
        let e = Message::from_json(
            r#"{"type":"decision","actor":"E","step":1,"action":{"type":"pass"}}"#,
        )
        .unwrap_err();
        assert!(matches!(e, ReadError::Missing("deal")), "{e}");
    }
}
