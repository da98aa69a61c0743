//! Score requests as data: the JSON object of `taisim score --json` and of the Python
//! `taisim.score(dict)`, parsed, checked, scored and answered in one place.

use std::borrow::{Borrow, Cow};
use std::collections::{BTreeMap, HashMap};
use std::io::{self, Write};
use std::time::SystemTime;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::settle::all_pairs_money;
use super::{
    check_stakes, physical_copies_fit, score, seat_value, settle, settle_all_pairs, Amount,
    Liability, LiabilityCase, Ready, Score, ScoringModel, SettlementModel, Variant, VariantError,
    WinInput,
};
use taisim_sim::{
    parse_flowers, parse_hand, parse_tile, parse_tiles, seat_wind, BySeat, FlowerSet, Hand, Meld,
    MeldKind, MeldList, Seat, Tile, WinContext, Wind,
};

/// Scores a JSON request and returns the JSON response (`total_tai`, `dealer_tai`,
/// `patterns`, and `settlement` when `base` and `per_tai` are given). An impossible request
/// is an error naming the problem.
pub fn score_json(text: &str) -> Result<String, String> {
    let job = ScoreJob::from_json(text)?;
    let s = score(&job.input, &job.variant).map_err(|e| e.to_string())?;
    Ok(job.answer(&s).to_json_string())
}

/// The variants a stream of requests named, each parsed once: parsing a variant's TOML costs
/// about a hundred times what scoring one hand does. A variant read from a file is read again
/// when the file's modification time changes.
#[derive(Default)]
pub struct VariantCache {
    parsed: HashMap<String, (Option<SystemTime>, Variant)>,
}

impl VariantCache {
    /// Entries kept at most: each distinct path a long-lived process scores with adds one, so
    /// the cache is emptied when full rather than grown without bound.
    const CAPACITY: usize = 64;

    pub fn new() -> VariantCache {
        VariantCache::default()
    }

    /// The variant `name` names (a shipped name or a file path), parsed on first use.
    pub fn get(&mut self, name: &str) -> Result<&Variant, VariantError> {
        // A shipped name never changes; a file is checked by its modification time.
        let stamp = match Variant::builtin_text(name) {
            Some(_) => None,
            None => std::fs::metadata(name).and_then(|m| m.modified()).ok(),
        };
        let fresh = matches!(self.parsed.get(name), Some((t, _)) if *t == stamp);
        if !fresh {
            let variant = Variant::by_name_or_path(name)?;
            if self.parsed.len() >= VariantCache::CAPACITY {
                self.parsed.clear();
            }
            self.parsed.insert(name.to_string(), (stamp, variant));
        }
        Ok(&self.parsed[name].1)
    }

    /// [`score_json`] with the variant taken from the cache: the JSON answer to one JSON
    /// request, or an error naming the problem.
    pub fn score_json(&mut self, text: &str) -> Result<String, String> {
        let scored = self.score_request(text)?;
        Ok(scored.answer().to_json_string())
    }

    /// [`VariantCache::score_json`]'s answer as a JSON value.
    pub fn score_value(&mut self, text: &str) -> Result<Value, String> {
        let scored = self.score_request(text)?;
        Ok(scored.job.to_json(&scored.score))
    }

    /// Scores one JSON request with the variant borrowed from the cache, for a caller that
    /// writes the answer straight into its own buffer ([`ScoredRequest::answer`],
    /// [`Answer::write_json`]; `taisim score --jsonl`): the bytes of
    /// [`VariantCache::score_json`], with no variant copied and no JSON tree built.
    pub fn score_request(&mut self, text: &str) -> Result<ScoredRequest<'_>, String> {
        let req: ScoreRequest =
            serde_json::from_str(text).map_err(|e| format!("bad JSON input: {e}"))?;
        let variant = self.get(&req.variant).map_err(|e| e.to_string())?;
        let job = job_with_variant(req, variant)?;
        let score = score(&job.input, job.variant).map_err(|e| e.to_string())?;
        Ok(ScoredRequest { job, score })
    }
}

/// A request scored under a variant the cache holds: its job and its score.
pub struct ScoredRequest<'v> {
    pub job: ScoreJob<&'v Variant>,
    pub score: Score,
}

impl ScoredRequest<'_> {
    /// The JSON answer, to write ([`Answer::write_json`]).
    pub fn answer(&self) -> Answer<'_> {
        self.job.answer(&self.score)
    }
}

/// The circumstances of a win named in a request's `context` list.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Circumstances {
    pub context: WinContext,
    pub ready: Ready,
    pub last_copy: bool,
    pub late_fresh_discard: bool,
}

impl Circumstances {
    /// None named yet, for a win that is or is not self-drawn.
    pub fn new(self_draw: bool) -> Circumstances {
        Circumstances {
            context: WinContext {
                self_draw,
                ..WinContext::default()
            },
            ready: Ready::None,
            last_copy: false,
            late_fresh_discard: false,
        }
    }

    /// Adds one named circumstance (`robbing_kong`, `last_tile`, `declared_ready`, …); an
    /// unknown name is an error naming it.
    pub fn add(&mut self, name: &str) -> Result<(), String> {
        let c = &mut self.context;
        match name {
            "robbing_kong" => c.robbing_kong = true,
            "kong_replacement" => c.kong_replacement = true,
            "flower_replacement" => c.flower_replacement = true,
            "last_tile" => c.last_tile = true,
            "heavenly" => c.heavenly = true,
            "earthly" => c.earthly = true,
            "human" => c.human = true,
            "flower_win" => c.flower_win = true,
            "ready_on_deal" => self.ready = Ready::OnDeal,
            "declared_ready" => self.ready = Ready::Declared,
            "last_copy" => self.last_copy = true,
            "late_fresh_discard" => self.late_fresh_discard = true,
            other => return Err(format!("context: unknown circumstance {other:?}")),
        }
        Ok(())
    }
}

/// One score request: the fields of `taisim score --json`. Its text is borrowed from the
/// JSON where a string holds no escape (the usual case), so reading a request copies none.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoreRequest<'a> {
    #[serde(borrow, default = "default_variant")]
    pub variant: Cow<'a, str>,
    #[serde(borrow, default = "east")]
    pub round_wind: Cow<'a, str>,
    #[serde(borrow)]
    pub seat: Cow<'a, str>,
    #[serde(borrow, default = "east")]
    pub dealer: Cow<'a, str>,
    #[serde(default)]
    pub dealer_streak: u8,
    #[serde(borrow)]
    pub hand: Cow<'a, str>,
    #[serde(default)]
    pub melds: Vec<(String, String)>,
    #[serde(default)]
    pub flowers: Vec<String>,
    #[serde(borrow, default, deserialize_with = "optional_text")]
    pub win_tile: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub win: Cow<'a, str>,
    #[serde(borrow, default, deserialize_with = "optional_text")]
    pub discarder: Option<Cow<'a, str>>,
    #[serde(default)]
    pub context: Vec<String>,
    pub discards: Option<u8>,
    pub base: Option<i64>,
    pub per_tai: Option<i64>,
    /// The turned-up wild indicator (taizhou.md 得牌), e.g. "9s": its kind is wild.
    #[serde(borrow, default, deserialize_with = "optional_text")]
    pub wild: Option<Cow<'a, str>>,
    /// The three other players' tiles, by seat ("E", "S", "W", "N"), under all-pairs
    /// settlement: each is valued ([`seat_value`]) and settles with the others.
    #[serde(default)]
    pub others: Option<BTreeMap<String, OtherHand>>,
    /// What the discarder did, for 全包 (taizhou.md 全包情况); with `others`.
    #[serde(default)]
    pub liability: Option<LiabilityFacts>,
}

/// Text that borrows from the JSON when it can (serde borrows a `Cow` field by itself, but
/// not one inside an `Option`).
struct Text<'a>(Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Text<'de>;
            // The words serde's own `String` uses, so an error reads as it did.
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E>(self, v: String) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v)))
            }
        }
        d.deserialize_string(Visit)
    }
}

fn optional_text<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<Cow<'de, str>>, D::Error> {
    Ok(Option::<Text<'de>>::deserialize(d)?.map(|t| t.0))
}

/// The facts of 全包 a request gives (see [`Liability`] for what each one serves); the
/// winner, the discarder, the winning tile and the melds come from the request itself.
#[derive(Deserialize, Clone, Copy, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct LiabilityFacts {
    #[serde(default)]
    pub declined_win: bool,
    #[serde(default)]
    pub ready_after_discard: bool,
    #[serde(default)]
    pub could_be_ready: bool,
    #[serde(default)]
    pub fresh: bool,
}

/// A player who did not win: its concealed tiles and its melds.
#[derive(Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub struct OtherHand {
    #[serde(default)]
    pub hand: String,
    #[serde(default)]
    pub melds: Vec<(String, String)>,
}

fn default_variant<'a>() -> Cow<'a, str> {
    Cow::Borrowed(Variant::DEFAULT)
}

fn east<'a>() -> Cow<'a, str> {
    Cow::Borrowed("E")
}

/// Everything needed to score and print, parsed and checked. The variant is owned
/// (`ScoreJob`, from [`ScoreJob::from_request`]) or borrowed from a [`VariantCache`]
/// (`ScoreJob<&Variant>`), which copies none per request.
pub struct ScoreJob<V = Variant> {
    pub variant: V,
    pub input: WinInput,
    /// `(base, per_tai)` when the request asks for a settlement.
    pub settle: Option<(i64, i64)>,
    /// The other players' tiles, when the request gives them (all-pairs variants): each
    /// seat but the winner's, its concealed tiles and its melds.
    pub others: Option<BySeat<(Hand, MeldList)>>,
    /// The facts deciding 全包, when the request gives them.
    pub liability: Option<Liability>,
}

fn seat(field: &str, s: &str) -> Result<Seat, String> {
    let mut chars = s.chars();
    match (chars.next().and_then(Wind::from_char), chars.next()) {
        (Some(w), None) => Ok(w),
        _ => Err(format!("{field}: {s:?} is not a seat (E, S, W or N)")),
    }
}

fn meld(kind: &str, tiles: &str, owner: Seat) -> Result<Meld, String> {
    let k = MeldKind::from_name(kind).ok_or_else(|| {
        format!("meld kind {kind:?} is not one of chow, pung, kong, concealed_kong, added_kong")
    })?;
    let mut t = parse_tiles(tiles).map_err(|e| format!("meld {tiles:?}: {e}"))?;
    t.sort();
    let bad = || format!("meld {kind}:{tiles} is not a {kind}");
    if t.len() != k.len() as usize {
        return Err(bad());
    }
    let ok = match k {
        MeldKind::Chow => {
            !t[0].is_honor()
                && t[0].suit() == t[2].suit()
                && t[1].to_u8() == t[0].to_u8() + 1
                && t[2].to_u8() == t[0].to_u8() + 2
        }
        _ => t.iter().all(|&x| x == t[0]),
    };
    if !ok {
        return Err(bad());
    }
    // Who the claimed tile came from does not change the score; the player on the left
    // (chows must come from there) stands in.
    let from = if k == MeldKind::ConcealedKong {
        owner
    } else {
        owner.add(3)
    };
    Ok(Meld::new(k, t[0], from, 0))
}

impl ScoreJob {
    /// Parses and checks a request.
    pub fn from_request(req: ScoreRequest) -> Result<ScoreJob, String> {
        job_from_request(req)
    }

    /// Parses a JSON request (unknown fields are errors).
    pub fn from_json(text: &str) -> Result<ScoreJob, String> {
        let req: ScoreRequest =
            serde_json::from_str(text).map_err(|e| format!("bad JSON input: {e}"))?;
        job_from_request(req)
    }
}

impl<V: Borrow<Variant>> ScoreJob<V> {
    /// Each seat's payment, when the request asked for a settlement.
    pub fn settlement(&self, s: &Score) -> Option<[(Wind, i64); 4]> {
        settlement(self, s)
    }

    /// The response object of `taisim score --json`, as a JSON value.
    pub fn to_json(&self, s: &Score) -> Value {
        // The answer is JSON by construction (the test `static_names_need_no_escapes` and
        // the CLI tests read it back).
        serde_json::from_str(&self.answer(s).to_json_string()).unwrap_or(Value::Null)
    }

    /// The response of `taisim score --json`, to write where the caller wants it
    /// ([`Answer::write_json`]): no JSON tree is built.
    pub fn answer<'a>(&'a self, s: &'a Score) -> Answer<'a> {
        answer(self, s)
    }

    /// The seat that pays for everyone (全包), when the request gave the facts and a case
    /// applies.
    pub fn responsible(&self, s: &Score) -> Option<Seat> {
        self.liability.as_ref().and_then(|l| l.responsible(s))
    }

    /// Each seat's value (the winner's points, the others' [`seat_value`]) when the request
    /// gave the other players.
    pub fn values(&self, s: &Score) -> Option<BySeat<u64>> {
        values(self, s)
    }

    /// The all-pairs settlement in 胡 (taizhou.md 胜负规则), when the request gave the other
    /// players: each seat's net amount, exact in halves.
    pub fn settlement_points(&self, s: &Score) -> Option<Result<BySeat<Amount>, String>> {
        let values = self.values(s)?;
        Some(settlement_points(self, s, values))
    }
}

fn settlement_points<V: Borrow<Variant>>(
    job: &ScoreJob<V>,
    s: &Score,
    values: BySeat<u64>,
) -> Result<BySeat<Amount>, String> {
    settle_all_pairs(job.input.seat, job.input.dealer, values, job.responsible(s))
        .map_err(|e| e.to_string())
}

fn job_from_request(req: ScoreRequest) -> Result<ScoreJob, String> {
    let variant = Variant::by_name_or_path(&req.variant).map_err(|e| e.to_string())?;
    job_with_variant(req, variant)
}

/// A request's job under `variant`, already parsed from `req.variant`.
fn job_with_variant<V: Borrow<Variant>>(
    req: ScoreRequest,
    variant_ref: V,
) -> Result<ScoreJob<V>, String> {
    let variant = variant_ref.borrow();
    if req.others.is_some() && variant.settlement.model != SettlementModel::AllPairs {
        return Err(format!(
            "others: variant {} settles winner-pays, which values no other player; \
             give others only under all-pairs settlement (taizhou)",
            variant.name
        ));
    }
    let winner = seat("seat", &req.seat)?;
    let dealer = seat("dealer", &req.dealer)?;
    let round_wind = seat("round_wind", &req.round_wind)?;
    let self_draw = match &*req.win {
        "self_draw" => true,
        "discard" => false,
        other => {
            return Err(format!(
                "win: {other:?} is neither \"self_draw\" nor \"discard\""
            ))
        }
    };
    let discarder = req
        .discarder
        .as_deref()
        .map(|d| seat("discarder", d))
        .transpose()?;
    let mut facts = Circumstances::new(self_draw);
    for c in &req.context {
        facts.add(c)?;
    }
    let Circumstances {
        mut context,
        ready,
        last_copy,
        late_fresh_discard,
    } = facts;
    // A self-drawn kong replacement with a discarder named: the kong was claimed from that
    // discard (the 2015 table makes the discarder pay).
    if self_draw && context.kong_replacement {
        context.exposed_kong_from = discarder;
    }
    let hand = if req.hand.trim().is_empty() && context.flower_win {
        Hand::EMPTY
    } else {
        parse_hand(&req.hand).map_err(|e| format!("hand: {e}"))?
    };
    let mut melds = MeldList::new();
    for (kind, tiles) in &req.melds {
        let m = meld(kind, tiles, winner)?;
        melds
            .try_push(m)
            .map_err(|_| "more than 5 melds".to_string())?;
    }
    let mut flowers = FlowerSet::EMPTY;
    for f in &req.flowers {
        let set = parse_flowers(f).map_err(|e| format!("flowers: {e}"))?;
        if set.len() != 1 {
            return Err(format!("flowers: {f:?} is not one flower (f1 to f8)"));
        }
        if flowers.is_superset(set) {
            return Err(format!("flowers: {f} is given twice"));
        }
        flowers = FlowerSet(flowers.0 | set.0);
    }
    let win_tile = match &req.win_tile {
        Some(t) => Some(parse_tile(t).map_err(|e| format!("win_tile: {e}"))?),
        None if context.flower_win => None,
        None => return Err("win_tile is missing".into()),
    };
    let settle = match (req.base, req.per_tai) {
        (Some(b), Some(p)) => {
            check_stakes(variant, b, p).map_err(|e| e.to_string())?;
            Some((b, p))
        }
        (None, None) => None,
        _ => return Err("give both base and per_tai, or neither".into()),
    };
    let wild = req
        .wild
        .as_deref()
        .map(|t| parse_tile(t).map_err(|e| format!("wild: {e}")))
        .transpose()?;
    let input = WinInput {
        seat: winner,
        dealer,
        round_wind,
        streak: req.dealer_streak,
        hand,
        melds,
        flowers,
        win_tile,
        discarder,
        context,
        ready,
        last_copy,
        discards: req.discards,
        late_fresh_discard,
        wild,
    };
    // A job is never built on an impossible win: the same checks as scoring, so a caller
    // that only settles or prints still hears what is wrong.
    input
        .validate(&variant.rules())
        .map_err(|e| e.to_string())?;
    let others = match &req.others {
        None => None,
        Some(given) => Some(other_hands(given, &input, variant)?),
    };
    let liability = match (req.liability, &others) {
        (None, _) => None,
        (Some(_), None) => {
            return Err("liability: give others too (全包 settles every player)".into())
        }
        (Some(f), Some(_)) => Some(Liability {
            winner: input.seat,
            discarder: if input.context.self_draw {
                None
            } else {
                input.discarder
            },
            win_tile: input.win_tile.ok_or("liability: needs win_tile")?,
            declined_win: f.declined_win,
            ready_after_discard: f.ready_after_discard,
            could_be_ready: f.could_be_ready,
            fresh: f.fresh,
            winner_melds: input.melds.clone(),
        }),
    };
    Ok(ScoreJob {
        variant: variant_ref,
        input,
        settle,
        others,
        liability,
    })
}

/// The other players' tiles of a request: exactly the three seats but the winner's, each a
/// hand a non-winner can hold (13 or 16 tiles less three per meld), no wild in a meld, and no
/// kind held more often than the wall has it, every player counted (taizhou.md 得牌: the
/// turned-up tile leaves three of the wild kind).
fn other_hands(
    given: &BTreeMap<String, OtherHand>,
    input: &WinInput,
    variant: &Variant,
) -> Result<BySeat<(Hand, MeldList)>, String> {
    let mut out = BySeat(core::array::from_fn(|_| (Hand::EMPTY, MeldList::new())));
    let mut named = [false; 4];
    for (key, other) in given {
        let s = seat("others", key)?;
        if s == input.seat {
            return Err(format!(
                "others: {s} is the winner, whose tiles are hand and melds"
            ));
        }
        named[s as usize] = true;
        let hand = if other.hand.trim().is_empty() {
            Hand::EMPTY
        } else {
            parse_hand(&other.hand).map_err(|e| format!("others.{s}.hand: {e}"))?
        };
        let mut melds = MeldList::new();
        for (kind, tiles) in &other.melds {
            let m = meld(kind, tiles, s).map_err(|e| format!("others.{s}: {e}"))?;
            melds
                .try_push(m)
                .map_err(|_| format!("others.{s}: more than 5 melds"))?;
        }
        let sets = variant.rules().sets as usize;
        if melds.len() > sets || hand.len() != 3 * (sets - melds.len()) + 1 {
            return Err(format!(
                "others.{s}: {} melds and {} concealed tiles; a player who did not win holds \
                 {} tiles, three per meld",
                melds.len(),
                hand.len(),
                3 * sets + 1
            ));
        }
        out[s] = (hand, melds);
    }
    if let Some(s) = Seat::ALL
        .into_iter()
        .find(|&s| s != input.seat && !named[s as usize])
    {
        return Err(format!(
            "others: {s} is missing (give all three other players)"
        ));
    }
    if let Some(w) = input.wild_rules() {
        // Every player's physical tiles, each meld's wild face held as the 白板 standing for it.
        let mut held = input.hand.counts();
        let add_melds = |melds: &MeldList, who: Seat, held: &mut [u8; Tile::NUM]| {
            for m in melds {
                if m.kind() != MeldKind::Chow && m.tile() == w.kind() {
                    return Err(format!(
                        "{who}: meld {m}: a wild (得牌) never takes part in a chow, pung or kong"
                    ));
                }
                for t in m.tiles() {
                    let physical = match w.stand_in() {
                        Some(st) if t == w.kind() => st,
                        _ => t,
                    };
                    held[physical.index()] += 1;
                }
            }
            Ok(())
        };
        add_melds(&input.melds, input.seat, &mut held)?;
        for s in Seat::ALL.into_iter().filter(|&s| s != input.seat) {
            for (i, n) in out[s].0.counts().iter().enumerate() {
                held[i] += n;
            }
            add_melds(&out[s].1, s, &mut held)?;
        }
        physical_copies_fit(&held, w.kind()).map_err(|e| format!("all players: {e}"))?;
    } else {
        let mut held = [0u8; Tile::NUM];
        for s in Seat::ALL {
            let (hand, melds) = if s == input.seat {
                (input.hand, input.melds.clone())
            } else {
                out[s].clone()
            };
            for (i, n) in hand.counts().iter().enumerate() {
                held[i] += n;
            }
            for m in &melds {
                for t in m.tiles() {
                    held[t.index()] += 1;
                }
            }
        }
        if let Some(i) = held.iter().position(|&n| n > 4) {
            return Err(format!(
                "all players: a fifth {}: there are only four of each tile",
                Tile::ALL[i]
            ));
        }
    }
    Ok(out)
}

/// Each seat's value: the winner's points, the others' [`seat_value`].
fn values<V: Borrow<Variant>>(job: &ScoreJob<V>, s: &Score) -> Option<BySeat<u64>> {
    let others = job.others.as_ref()?;
    let i = &job.input;
    let mut out = BySeat([0u64; 4]);
    for o in Seat::ALL {
        out[o] = if o == i.seat {
            s.points
        } else {
            let (hand, melds) = &others[o];
            seat_value(
                hand,
                melds,
                seat_wind(o, i.dealer),
                i.wild,
                job.variant.borrow(),
            )
        };
    }
    Some(out)
}

fn settlement<V: Borrow<Variant>>(job: &ScoreJob<V>, s: &Score) -> Option<[(Wind, i64); 4]> {
    settlement_with(job, s, values(job, s))
}

/// [`settlement`] with the seats' values already worked out.
fn settlement_with<V: Borrow<Variant>>(
    job: &ScoreJob<V>,
    s: &Score,
    values: Option<BySeat<u64>>,
) -> Option<[(Wind, i64); 4]> {
    let (base, per_tai) = job.settle?;
    let pay = match values {
        // Every seat valued: the stakes were checked when the job was made, and a value is
        // at most the variant's cap, so this cannot fail.
        Some(v) if s.meets_minimum => {
            let r = job.responsible(s);
            all_pairs_money(job.input.seat, job.input.dealer, v, r, per_tai).ok()?
        }
        // The stakes were checked when the job was made, so this cannot fail.
        _ => settle(s, &job.input, job.variant.borrow(), base, per_tai),
    };
    Some(Wind::ALL.map(|w| (w, pay[w])))
}

/// The answer of `taisim score --json`, written straight into a writer by
/// [`Answer::write_json`]: no JSON tree is built and no text scanned for characters to
/// escape but the variant's name. The fields are written in sorted order, the order in
/// which answers were first written (through a `serde_json::Value`, whose objects keep
/// their keys sorted), so the bytes stay the same; a field that does not apply is left out.
pub struct Answer<'a> {
    /// Under the points model: 胡 of the patterns (taizhou.md 胜负规则 基础胡数, 底胡
    /// apart, written as both `hu` and `base_points`), the value, and the 台 (`tai`, as
    /// `total_tai`).
    points_model: Option<(u32, u64)>,
    score: &'a Score,
    liability: Option<(LiabilityCase, Seat)>,
    /// Money, when the other players were given and stakes too.
    payments: Option<BySeat<i64>>,
    settlement: Option<Settlement>,
    values: Option<BySeat<u64>>,
    variant: &'a str,
}

/// The settlement: in 胡, exact in halves (all-pairs, with the other players given), or in
/// money (winner-pays, with stakes).
enum Settlement {
    Points(BySeat<Amount>),
    Money(BySeat<i64>),
}

/// The seats in the order a JSON object sorted by key lists them.
const SEATS_BY_LETTER: [(Seat, &[u8]); 4] = [
    (Wind::East, b"\"E\":"),
    (Wind::North, b"\"N\":"),
    (Wind::South, b"\"S\":"),
    (Wind::West, b"\"W\":"),
];

/// A number or a string as serde_json writes it (integers in decimal, a float as its shortest
/// round trip, so halves as `.5`; a string escaped), as it did when answers were built as
/// `serde_json::Value`s.
fn scalar<W: Write>(out: &mut W, n: impl Serialize) -> io::Result<()> {
    serde_json::to_writer(out, &n).map_err(io::Error::from)
}

/// A string known to hold nothing JSON escapes (a catalogue name, a seat letter, a wait),
/// in quotes; the unit test `static_names_need_no_escapes` checks every one.
fn plain<W: Write>(out: &mut W, s: &str) -> io::Result<()> {
    out.write_all(b"\"")?;
    out.write_all(s.as_bytes())?;
    out.write_all(b"\"")
}

fn by_seat<W: Write, T: Copy>(
    out: &mut W,
    key: &[u8],
    v: &BySeat<T>,
    mut write: impl FnMut(&mut W, T) -> io::Result<()>,
) -> io::Result<()> {
    out.write_all(key)?;
    let mut sep: &[u8] = b"{";
    for (seat, letter) in SEATS_BY_LETTER {
        out.write_all(sep)?;
        out.write_all(letter)?;
        write(out, v[seat])?;
        sep = b",";
    }
    out.write_all(b"}")
}

/// An amount of 胡: a whole number, or a number ending in .5.
fn amount<W: Write>(out: &mut W, a: Amount) -> io::Result<()> {
    match a.as_whole() {
        Some(n) => scalar(out, n),
        None => scalar(out, a.halves() as f64 / 2.0),
    }
}

impl Answer<'_> {
    /// Writes the answer as one JSON object, without a newline.
    pub fn write_json<W: Write>(&self, out: &mut W) -> io::Result<()> {
        let s = self.score;
        out.write_all(b"{")?;
        if let Some((hu, _)) = self.points_model {
            out.write_all(b"\"base_points\":")?;
            scalar(out, hu)?;
            out.write_all(b",")?;
        }
        out.write_all(b"\"dealer_tai\":")?;
        scalar(out, s.dealer_tai)?;
        if let Some((hu, _)) = self.points_model {
            out.write_all(b",\"hu\":")?;
            scalar(out, hu)?;
        }
        if let Some((case, _)) = self.liability {
            out.write_all(b",\"liability_case\":")?;
            scalar(out, case as u8)?;
        }
        out.write_all(if s.meets_minimum {
            b",\"meets_minimum\":true"
        } else {
            b",\"meets_minimum\":false"
        })?;
        out.write_all(b",\"patterns\":[")?;
        for (i, p) in s.patterns.iter().enumerate() {
            out.write_all(if i == 0 {
                b"{\"count\":"
            } else {
                b",{\"count\":"
            })?;
            scalar(out, p.count)?;
            if self.points_model.is_some() {
                out.write_all(b",\"hu\":")?;
                scalar(out, p.hu)?;
            }
            out.write_all(b",\"id\":")?;
            plain(out, p.id.id())?;
            out.write_all(b",\"name\":")?;
            plain(out, p.name_zh())?;
            out.write_all(b",\"name_en\":")?;
            plain(out, p.name_en())?;
            out.write_all(b",\"tai\":")?;
            scalar(out, p.tai)?;
            out.write_all(b"}")?;
        }
        out.write_all(b"]")?;
        if let Some(pay) = &self.payments {
            by_seat(out, b",\"payments\":", pay, scalar)?;
        }
        if let Some((_, points)) = self.points_model {
            out.write_all(b",\"points\":")?;
            scalar(out, points)?;
        }
        if let Some((_, seat)) = self.liability {
            out.write_all(b",\"responsible\":")?;
            plain(out, SeatLetter(seat).letter())?;
        }
        match &self.settlement {
            Some(Settlement::Points(p)) => by_seat(out, b",\"settlement\":", p, amount)?,
            Some(Settlement::Money(m)) => by_seat(out, b",\"settlement\":", m, scalar)?,
            None => {}
        }
        if self.points_model.is_some() {
            out.write_all(b",\"tai\":")?;
            scalar(out, s.total)?;
        }
        out.write_all(b",\"total_tai\":")?;
        scalar(out, s.total)?;
        if let Some(v) = &self.values {
            by_seat(out, b",\"values\":", v, scalar)?;
        }
        // The one string from outside the program (a variant file names itself): escaped.
        out.write_all(b",\"variant\":")?;
        scalar(out, self.variant)?;
        out.write_all(b",\"wait\":")?;
        plain(out, s.wait.name())?;
        out.write_all(b"}")
    }

    /// The answer as JSON text.
    pub fn to_json_string(&self) -> String {
        let mut out = Vec::with_capacity(512);
        // Writing into a `Vec` cannot fail, and every piece written is UTF-8.
        let _ = self.write_json(&mut out);
        String::from_utf8(out).unwrap_or_default()
    }
}

/// A seat as its letter.
struct SeatLetter(Seat);

impl SeatLetter {
    const fn letter(self) -> &'static str {
        ["E", "S", "W", "N"][self.0 as usize]
    }
}

fn answer<'a, V: Borrow<Variant>>(job: &'a ScoreJob<V>, s: &'a Score) -> Answer<'a> {
    let variant = job.variant.borrow();
    let points_model = matches!(variant.scoring, ScoringModel::Points { .. });
    let mut out = Answer {
        points_model: points_model.then_some((s.hu, s.points)),
        score: s,
        liability: None,
        payments: None,
        settlement: None,
        values: None,
        variant: &variant.name,
    };
    let money = |pay: [(Wind, i64); 4]| BySeat(pay.map(|(_, v)| v));
    match values(job, s) {
        Some(v) => {
            out.values = Some(v);
            out.liability = job.liability.as_ref().and_then(|l| l.decide(s));
            // In 胡; with stakes, "payments" gives the money.
            out.settlement = settlement_points(job, s, v).ok().map(Settlement::Points);
            out.payments = settlement_with(job, s, Some(v)).map(money);
        }
        None => out.settlement = settlement_with(job, s, None).map(|p| Settlement::Money(money(p))),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{PatternId, WaitShape};

    /// `Answer::write_json` writes the catalogue's names, the waits and the seat letters
    /// without escaping them: each must be its own JSON string body.
    #[test]
    fn static_names_need_no_escapes() {
        let mut names: Vec<&str> = PatternId::ALL
            .iter()
            .flat_map(|p| [p.id(), p.name_zh(), p.name_en()])
            .collect();
        names.extend(
            [
                WaitShape::TwoSided,
                WaitShape::Edge,
                WaitShape::Closed,
                WaitShape::Single,
                WaitShape::DoublePair,
                WaitShape::None,
            ]
            .map(WaitShape::name),
        );
        names.extend(Seat::ALL.map(|w| SeatLetter(w).letter()));
        for name in names {
            let mut raw = Vec::new();
            plain(&mut raw, name).unwrap();
            assert_eq!(raw, serde_json::to_vec(name).unwrap(), "{name}");
        }
        for (seat, key) in SEATS_BY_LETTER {
            assert_eq!(key, format!("\"{seat}\":").as_bytes());
        }
        let letters: Vec<&[u8]> = SEATS_BY_LETTER.iter().map(|(_, k)| *k).collect();
        assert!(letters.is_sorted(), "a sorted map's order");
    }
}
