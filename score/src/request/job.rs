//! A score request checked: every field parsed, the win validated as scoring validates it,
//! the other players' tiles counted against the wall, into a [`ScoreJob`] that scores,
//! settles and answers.

use std::borrow::Borrow;
use std::collections::BTreeMap;

use serde_json::Value;
use taisim_sim::{
    parse_flowers, parse_hand, parse_tile, parse_tiles, seat_wind, BySeat, FlowerSet, Hand, Meld,
    MeldKind, MeldList, Seat, Tile, WinContext, Wind,
};

use super::error::RequestError;
use super::wire::{OtherHand, ScoreRequest};
use crate::settle::all_pairs_money;
use crate::{
    check_stakes, physical_copies_fit, seat_value, settle, settle_all_pairs, Amount, Liability,
    Ready, Score, SettleError, SettlementModel, Variant, WinInput,
};

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
    pub fn add(&mut self, name: &str) -> Result<(), RequestError> {
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
            "ready_on_deal" | "declared_ready" => {
                let ready = if name == "ready_on_deal" {
                    Ready::OnDeal
                } else {
                    Ready::Declared
                };
                if self.ready != Ready::None && self.ready != ready {
                    return Err(RequestError::ReadyTwice);
                }
                self.ready = ready;
            }
            "last_copy" => self.last_copy = true,
            "late_fresh_discard" => self.late_fresh_discard = true,
            other => return Err(RequestError::Circumstance(other.to_string())),
        }
        Ok(())
    }
}

/// Everything needed to score and print, parsed and checked. The variant is owned
/// (`ScoreJob`, from [`ScoreJob::from_request`]) or borrowed from a [`VariantCache`](crate::VariantCache)
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

fn seat(field: &'static str, s: &str) -> Result<Seat, RequestError> {
    let mut chars = s.chars();
    match (chars.next().and_then(Wind::from_char), chars.next()) {
        (Some(w), None) => Ok(w),
        _ => Err(RequestError::Seat {
            field,
            given: s.to_string(),
        }),
    }
}

fn meld(kind: &str, tiles: &str, owner: Seat) -> Result<Meld, RequestError> {
    let k = MeldKind::from_name(kind).ok_or_else(|| RequestError::MeldKind(kind.to_string()))?;
    let mut t = parse_tiles(tiles).map_err(RequestError::tiles(format!("meld {tiles:?}")))?;
    t.sort();
    let bad = || RequestError::NotAMeld {
        kind: kind.to_string(),
        tiles: tiles.to_string(),
    };
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
    // Who the claimed tile came from does not change the score, and a request does not
    // say it: the meld is recorded as the owner's own, a source not known, so that no seat
    // is held liable for a dangerous discard claimed for it (mahjongtime's insurance).
    let from = owner;
    Ok(Meld::new(k, t[0], from, 0))
}

impl ScoreJob {
    /// Parses and checks a request.
    pub fn from_request(req: ScoreRequest) -> Result<ScoreJob, RequestError> {
        job_from_request(req)
    }

    /// Parses a JSON request (unknown fields are errors).
    pub fn from_json(text: &str) -> Result<ScoreJob, RequestError> {
        let req = ScoreRequest::parse(text)?;
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
    pub fn settlement_points(&self, s: &Score) -> Option<Result<BySeat<Amount>, SettleError>> {
        let values = self.values(s)?;
        Some(settlement_points(self, s, values))
    }
}

pub(super) fn settlement_points<V: Borrow<Variant>>(
    job: &ScoreJob<V>,
    s: &Score,
    values: BySeat<u64>,
) -> Result<BySeat<Amount>, SettleError> {
    settle_all_pairs(job.input.seat, job.input.dealer, values, job.responsible(s))
}

fn job_from_request(req: ScoreRequest) -> Result<ScoreJob, RequestError> {
    let variant = Variant::by_name_or_path(&req.variant)?;
    job_with_variant(req, variant)
}

/// A request's job under `variant`, already parsed from `req.variant`.
pub(super) fn job_with_variant<V: Borrow<Variant>>(
    req: ScoreRequest,
    variant_ref: V,
) -> Result<ScoreJob<V>, RequestError> {
    let variant = variant_ref.borrow();
    if req.others.is_some() && variant.settlement.model != SettlementModel::AllPairs {
        return Err(RequestError::OthersUnderWinnerPays {
            variant: variant.name.clone(),
        });
    }
    let winner = seat("seat", &req.seat)?;
    let dealer = seat("dealer", &req.dealer)?;
    let round_wind = seat("round_wind", &req.round_wind)?;
    let self_draw = match &*req.win {
        "self_draw" => true,
        "discard" => false,
        other => return Err(RequestError::Win(other.to_string())),
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
        parse_hand(&req.hand).map_err(RequestError::tiles("hand"))?
    };
    let mut melds = MeldList::new();
    for (kind, tiles) in &req.melds {
        let m = meld(kind, tiles, winner)?;
        melds.try_push(m).map_err(|_| RequestError::TooManyMelds)?;
    }
    let mut flowers = FlowerSet::EMPTY;
    for f in &req.flowers {
        let set = parse_flowers(f).map_err(RequestError::tiles("flowers"))?;
        if set.len() != 1 {
            return Err(RequestError::NotOneFlower(f.clone()));
        }
        if flowers.is_superset(set) {
            return Err(RequestError::FlowerTwice(f.clone()));
        }
        flowers = FlowerSet(flowers.0 | set.0);
    }
    let win_tile = match &req.win_tile {
        Some(t) => Some(parse_tile(t).map_err(RequestError::tiles("win_tile"))?),
        None if context.flower_win => None,
        None => return Err(RequestError::MissingWinTile),
    };
    let settle = match (req.base, req.per_tai) {
        (Some(b), Some(p)) => {
            check_stakes(variant, b, p)?;
            Some((b, p))
        }
        (None, None) => None,
        _ => return Err(RequestError::HalfStakes),
    };
    let wild = req
        .wild
        .as_deref()
        .map(|t| parse_tile(t).map_err(RequestError::tiles("wild")))
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
    input.validate(variant)?;
    let others = match &req.others {
        None => None,
        Some(given) => Some(other_hands(given, &input, variant)?),
    };
    let liability = match (req.liability, &others) {
        (None, _) => None,
        (Some(_), None) => return Err(RequestError::LiabilityWithoutOthers),
        (Some(f), Some(_)) => Some(Liability {
            winner: input.seat,
            discarder: if input.context.self_draw {
                None
            } else {
                input.discarder
            },
            win_tile: input
                .win_tile
                .ok_or(RequestError::LiabilityWithoutWinTile)?,
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
) -> Result<BySeat<(Hand, MeldList)>, RequestError> {
    let mut out = BySeat(core::array::from_fn(|_| (Hand::EMPTY, MeldList::new())));
    let mut named = [false; 4];
    for (key, other) in given {
        let s = seat("others", key)?;
        if s == input.seat {
            return Err(RequestError::OtherIsWinner(s));
        }
        named[s as usize] = true;
        let hand = if other.hand.trim().is_empty() {
            Hand::EMPTY
        } else {
            parse_hand(&other.hand).map_err(RequestError::tiles(format!("others.{s}.hand")))?
        };
        let mut melds = MeldList::new();
        for (kind, tiles) in &other.melds {
            let of = |e: RequestError| RequestError::Other {
                seat: s,
                source: Box::new(e),
            };
            let m = meld(kind, tiles, s).map_err(of)?;
            melds
                .try_push(m)
                .map_err(|_| of(RequestError::TooManyMelds))?;
        }
        let sets = variant.rules().sets as usize;
        if melds.len() > sets || hand.len() != 3 * (sets - melds.len()) + 1 {
            return Err(RequestError::OtherHandSize {
                seat: s,
                melds: melds.len(),
                tiles: hand.len(),
                holds: 3 * sets + 1,
            });
        }
        out[s] = (hand, melds);
    }
    if let Some(s) = Seat::ALL
        .into_iter()
        .find(|&s| s != input.seat && !named[s as usize])
    {
        return Err(RequestError::OtherMissing(s));
    }
    if let Some(w) = input.wild_rules() {
        // Every player's physical tiles, each meld's wild face held as the 白板 standing for it.
        let mut held = input.hand.counts();
        let add_melds = |melds: &MeldList, who: Seat, held: &mut [u8; Tile::NUM]| {
            for m in melds {
                if m.kind() != MeldKind::Chow && m.tile() == w.kind() {
                    return Err(RequestError::WildInMeld { who, meld: *m });
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
        physical_copies_fit(&held, w.kind()).map_err(RequestError::AllPlayers)?;
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
            return Err(RequestError::FifthTile(Tile::ALL[i]));
        }
    }
    Ok(out)
}

/// Each seat's value: the winner's points, the others' [`seat_value`].
pub(super) fn values<V: Borrow<Variant>>(job: &ScoreJob<V>, s: &Score) -> Option<BySeat<u64>> {
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
pub(super) fn settlement_with<V: Borrow<Variant>>(
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
