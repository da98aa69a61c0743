//! `taisim replay`: one deal of a run, step by step, with every hand.
//!
//! A run made with `--log-actions` holds each deal's decisions, which are played back as
//! recorded. Any other run is replayed by letting its agents play the deal again: every
//! built-in agent is a function of the deal's seed and what it sees, so the deal comes out
//! the same. Either way the replayed result is checked against the recorded row.

use std::io::Write;
use std::path::Path;

use arrow_array::{BinaryArray, Int64Array, RecordBatch, UInt16Array, UInt64Array, UInt8Array};
use taisim_agents::{build_agents, index_to_action, play_deal_with};
use taisim_score::{
    insurance_payer, score_deal, settle_all_pairs, DealScore, ScoreError, SettlementModel, Variant,
    WinInput,
};
use taisim_sim::{ActionList, Deal, DealContext, Wind};

use crate::error::{EngineError, HarnessError};
use crate::fingerprint::{fingerprint, PlayFingerprint};
use crate::manifest::{Manifest, Status};
use crate::read::{column, string_codes, Run, READ_BATCH_ROWS};
use crate::report::render::display_width;
use crate::resume::replay_spec;
use crate::spec::{game_deal_id, RunSpec, MAX_DEALS_PER_GAME};
use crate::table::Table;

/// What the deals table recorded of one deal.
pub(crate) struct Recorded {
    pub seed: u64,
    pub context: DealContext,
    pub pays: [i64; 4],
    /// Decisions, discards and tiles left when the deal ended.
    pub decisions: u16,
    pub turns: u16,
    pub tiles_left: u8,
    pub actions: Option<Vec<u8>>,
}

impl Recorded {
    /// Checks a deal played again (`deal`, ended, paying `pays`) against its row: its
    /// payments, and the decisions, discards and tiles left it ended with, so that play that
    /// went otherwise shows even when it pays the same.
    pub(crate) fn check(
        &self,
        out: &Path,
        deal_id: u64,
        deal: &Deal,
        pays: [i64; 4],
    ) -> Result<(), HarnessError> {
        let turns = u16::try_from(deal.discards().len()).unwrap_or(u16::MAX);
        let ours = (pays, deal.steps(), turns, deal.tiles_left());
        let theirs = (self.pays, self.decisions, self.turns, self.tiles_left);
        if ours == theirs {
            return Ok(());
        }
        Err(HarnessError::Corrupt {
            path: out.to_path_buf(),
            message: format!(
                "deal {deal_id} replays to payments {:?}, {} decisions, {} discards and {} tiles left, but the run recorded {:?}, {}, {} and {}",
                ours.0, ours.1, ours.2, ours.3, theirs.0, theirs.1, theirs.2, theirs.3
            ),
        })
    }
}

/// The run's spec with its variant's text, and the deals row of `deal_id`.
pub(crate) fn find(out: &Path, deal_id: u64) -> Result<(RunSpec, Recorded), HarnessError> {
    let run = Run::open(out)?;
    // The shards agree on everything but the shard; any one's spec carries the variant.
    let spec = replay_spec(out, run.spec().shard)?;
    let unit = match spec.unit {
        crate::Unit::Deals => deal_id,
        crate::Unit::Games => GameDeals::of(deal_id),
    };
    if unit >= spec.count {
        return Err(HarnessError::Usage(format!(
            "deal {deal_id} is not in the run: it has {} {}",
            spec.count,
            spec.unit.name()
        )));
    }
    let part = run
        .part_of_deal(deal_id)
        .ok_or_else(|| unrecorded_part(&run, out, deal_id, unit / spec.part_size))?;
    let file = run.open_part(part, Table::Deals)?;
    let path = file.path().to_path_buf();
    let columns = deal_columns(spec.log_actions);
    // A game's deal ids run from g × 65536 up, as many as the game lasted: the ids of the
    // deal's game seen, to tell an id past its game's end from a deal its part lost.
    let game = GameDeals::of(deal_id);
    let mut seen = GameDeals::default();
    for batch in file.batches(&columns, READ_BATCH_ROWS)? {
        let batch = batch?;
        let ids = column::<UInt64Array>(&batch, "deal_id", &path)?;
        if let Some(row) = ids.values().iter().position(|&id| id == deal_id) {
            let rec = recorded(&batch, row, &path)?;
            if rec.actions.is_none() {
                check_play(&spec, run.play(), &format!("deal {deal_id}"))?;
            }
            return Ok((spec, rec));
        }
        seen.add(ids.values().iter().filter(|&&id| GameDeals::of(id) == game));
    }
    match (spec.unit, seen.last) {
        (crate::Unit::Games, Some(last)) if deal_id > last => Err(HarnessError::Usage(format!(
            "deal {deal_id} is not in the run: game {game} has {} deals (ids {}–{last})",
            seen.count,
            game_deal_id(game, 0)
        ))),
        _ => Err(HarnessError::Corrupt {
            path,
            message: format!("deal {deal_id} is missing from its part"),
        }),
    }
}

/// Why part `p`, holding deal `deal_id`, is not among the parts the run's manifests record:
/// its shard is unfinished (a manifest records the parts played when its run ends; a killed
/// run's journal holds those it completed), or no manifest of its shard is here.
fn unrecorded_part(run: &Run, out: &Path, deal_id: u64, p: u64) -> HarnessError {
    let owner = run
        .manifests
        .iter()
        .find(|m| m.spec.shard_parts().contains(&p));
    let Some(m) = owner.filter(|m| m.status == Status::Running) else {
        return HarnessError::Usage(format!(
            "deal {deal_id} is in part {p}, which no manifest in {} records; was it played by another shard?",
            out.display()
        ));
    };
    let shard = m.spec.shard;
    // Best effort: the journal only adds to the message.
    let journaled = crate::journal::read(&Manifest::journal_path(out, shard))
        .is_ok_and(|j| j.records.iter().any(|r| r.index == p));
    HarnessError::Usage(format!(
        "deal {deal_id} is in part {p}, which {} does not record yet: the run is unfinished (status running: still running, or killed{}); replay the deal once it has finished, or finish a killed run with `taisim simulate --resume --out {}{}`",
        Manifest::file_name(shard),
        if journaled {
            "; its journal lists the part as played, but the manifest records parts only when the run ends"
        } else {
            ""
        },
        out.display(),
        if shard.is_whole() {
            String::new()
        } else {
            format!(" --shard {shard}")
        }
    ))
}

/// The deals of one game found in a part: how many, and the last id.
#[derive(Default)]
struct GameDeals {
    count: u64,
    last: Option<u64>,
}

impl GameDeals {
    /// The game a deal id belongs to in a `--games` run ([`game_deal_id`]).
    fn of(deal_id: u64) -> u64 {
        deal_id / MAX_DEALS_PER_GAME
    }

    fn add<'a>(&mut self, ids: impl Iterator<Item = &'a u64>) {
        for &id in ids {
            self.count += 1;
            self.last = self.last.max(Some(id));
        }
    }
}

/// Before a deal of a run without recorded decisions is played again: that this taisim's
/// agents play as the run's did (its [`PlayFingerprint`], when it records one).
pub(crate) fn check_play(
    spec: &RunSpec,
    recorded: Option<&PlayFingerprint>,
    what: &str,
) -> Result<(), HarnessError> {
    let Some(theirs) = recorded else {
        return Ok(());
    };
    let variant = spec.variant.variant();
    let agents = build_agents(&spec.agents, variant).map_err(HarnessError::Unreplayable)?;
    let ours = fingerprint(spec, variant, &agents)?;
    match ours.and_then(|ours| ours.difference(theirs, ["here", "in the run"])) {
        None => Ok(()),
        Some(why) => Err(HarnessError::Usage(format!(
            "cannot replay {what}: the run recorded no decisions (made without --log-actions), so its deals are replayed by playing them again, and this taisim's agents play otherwise than those that made it ({why}); replay it with the taisim (and weights files) that made the run"
        ))),
    }
}

/// A seat column's value at `row`.
fn seat_at(batch: &RecordBatch, name: &str, row: usize, path: &Path) -> Result<Wind, HarnessError> {
    let codes = string_codes(batch, name, path, |s| {
        s.chars()
            .next()
            .and_then(Wind::from_char)
            .map(|w| w as usize)
    })?;
    codes[row]
        .map(|i| Wind::ALL[i])
        .ok_or_else(|| HarnessError::Corrupt {
            path: path.to_path_buf(),
            message: format!("{name} is null in row {row}"),
        })
}

pub(crate) fn recorded(
    batch: &RecordBatch,
    row: usize,
    path: &Path,
) -> Result<Recorded, HarnessError> {
    let mut pays = [0; 4];
    for (i, name) in ["pay_e", "pay_s", "pay_w", "pay_n"].iter().enumerate() {
        pays[i] = column::<Int64Array>(batch, name, path)?.value(row);
    }
    let actions = match batch.column_by_name("actions") {
        Some(_) => Some(
            column::<BinaryArray>(batch, "actions", path)?
                .value(row)
                .to_vec(),
        ),
        None => None,
    };
    Ok(Recorded {
        seed: column::<UInt64Array>(batch, "seed", path)?.value(row),
        decisions: column::<UInt16Array>(batch, "decisions", path)?.value(row),
        turns: column::<UInt16Array>(batch, "turns", path)?.value(row),
        tiles_left: column::<UInt8Array>(batch, "tiles_left", path)?.value(row),
        context: DealContext {
            round_wind: seat_at(batch, "round_wind", row, path)?,
            dealer: seat_at(batch, "dealer", row, path)?,
            streak: column::<UInt8Array>(batch, "dealer_streak", path)?.value(row),
        },
        pays,
        actions,
    })
}

/// Prints deal `deal_id` of the run in `out` step by step.
pub fn replay(out: &Path, deal_id: u64, w: &mut dyn Write) -> Result<(), HarnessError> {
    let (spec, rec) = find(out, deal_id)?;
    // The run's variant, read and parsed once from its records (`variant.toml`).
    let variant = spec.variant.variant();
    let rules = variant.rules();
    let io = write_error;
    let mut deal = Deal::new(rules, rec.seed, rec.context).map_err(|e| HarnessError::Corrupt {
        path: out.to_path_buf(),
        message: format!("the run's rules are invalid: {e}"),
    })?;
    writeln!(
        w,
        "deal {deal_id} of {} (variant {}, seed {}): round {}, dealer {}, streak {}, dice {:?}",
        out.display(),
        spec.variant.name(),
        rec.seed,
        rec.context.round_wind,
        rec.context.dealer,
        rec.context.streak,
        deal.wall().dice()
    )
    .map_err(io)?;
    if let Some(line) = wild_line(&deal) {
        writeln!(w, "  {line}").map_err(io)?;
    }
    for s in Wind::ALL {
        writeln!(
            w,
            "  {s} ({}): {}  flowers {}",
            spec.agents[s as usize],
            deal.hand(s),
            deal.flowers(s)
        )
        .map_err(io)?;
    }
    let mut step = 0usize;
    let mut write_step = |w: &mut dyn Write, deal: &Deal, a: taisim_sim::Action| {
        step += 1;
        let seat = deal.to_act().expect("a seat acts");
        let offer = deal
            .tile_on_offer()
            .map(|t| format!(" on {t}"))
            .unwrap_or_default();
        let what = format!("{a}{offer}");
        writeln!(
            w,
            "{step:>4}. {seat} {what:<22} [{} | wall {}]",
            deal.hand(seat),
            deal.tiles_left()
        )
    };
    match &rec.actions {
        Some(actions) => {
            let mut legal = ActionList::new();
            for (i, &index) in actions.iter().enumerate() {
                let bad = |why: &str| HarnessError::Corrupt {
                    path: out.to_path_buf(),
                    message: format!(
                        "deal {deal_id}: recorded decision {} ({index}) {why}",
                        i + 1
                    ),
                };
                if deal.is_over() {
                    return Err(bad("comes after the deal ended"));
                }
                let action = index_to_action(index as usize, &deal)
                    .ok_or_else(|| bad("is not an action here"))?;
                deal.legal_actions(&mut legal);
                if !legal.contains(&action) {
                    return Err(bad("is illegal here"));
                }
                write_step(w, &deal, action).map_err(io)?;
                deal.play_unchecked(action);
            }
            if !deal.is_over() {
                return Err(HarnessError::Corrupt {
                    path: out.to_path_buf(),
                    message: format!(
                        "deal {deal_id}: the recorded decisions stop before the deal ends"
                    ),
                });
            }
        }
        None => {
            let mut agents =
                build_agents(&spec.agents, variant).map_err(HarnessError::Unreplayable)?;
            let mut failed = Ok(());
            play_deal_with(&mut deal, &mut agents, &mut ActionList::new(), |d, a| {
                if failed.is_ok() {
                    failed = write_step(w, d, a);
                }
            });
            failed.map_err(io)?;
        }
    }

    let result = *deal.result().expect("the deal is over");
    writeln!(w, "result: {}", result.outcome.name()).map_err(io)?;
    // The deal scored and settled by the scoring crate under the variant's model, as the run
    // did.
    let engine = HarnessError::engine(deal_id, rec.seed);
    let ds = score_deal(&deal, variant, spec.base, spec.per_tai).map_err(|e| engine(e.into()))?;
    write_settlement(&deal, variant, &ds, spec.per_tai, &engine, w)?;
    rec.check(out, deal_id, &deal, ds.payments.0)
}

/// Writes the settlement of a finished deal as a replay shows it: each win with its patterns
/// (under a points variant its 胡, every seat's value and the settlement in points), then the
/// payments. `ds` is the deal scored and settled under `variant` ([`score_deal`]) at the
/// stake `per_tai`; only what is shown differs by model. `engine` names the deal in an error.
pub fn write_settlement(
    deal: &Deal,
    variant: &Variant,
    ds: &DealScore,
    per_tai: i64,
    engine: &dyn Fn(EngineError) -> HarnessError,
    w: &mut dyn Write,
) -> Result<(), HarnessError> {
    if variant.settlement().model == SettlementModel::AllPairs {
        write_all_pairs(deal, ds, per_tai, engine, w)?;
    } else {
        write_wins(deal, variant, ds, engine, w)?;
    }
    let pays = ds.payments.0;
    writeln!(
        w,
        "payments: E {} S {} W {} N {}",
        pays[0], pays[1], pays[2], pays[3]
    )
    .map_err(write_error)
}

/// A pattern's Chinese name padded to `cols` display columns (its characters are two wide).
fn name_zh_padded(name: &str, cols: usize) -> String {
    format!(
        "{name}{}",
        " ".repeat(cols.saturating_sub(display_width(name)))
    )
}

/// The deal's wild as a replay shows it, `None` when the deal turns up none: taizhou.md
/// 「得牌」 as shared/rules/README.md reads it (the indicator is out of play, its kind's
/// other copies are wild, 白板 plays the wild's face unless it is the wild itself).
pub fn wild_line(deal: &Deal) -> Option<String> {
    let indicator = deal.wild_indicator()?;
    let wild = deal.wild()?;
    let white = taisim_sim::parse_tile("P").expect("P is a tile");
    let stand_in = if wild == white {
        "nothing stands in for them".to_string()
    } else {
        format!("白板 (P) stands for {wild}")
    };
    Some(format!(
        "得牌: {indicator} turned up; wild kind {wild} (its other copies are wild; {stand_in})"
    ))
}

/// A failed write to the replay's output.
fn write_error(e: std::io::Error) -> HarnessError {
    HarnessError::Io {
        action: "cannot write",
        path: "stdout".into(),
        source: e,
    }
}

/// Each win of a winner-pays deal: the hand and its patterns.
fn write_wins(
    deal: &Deal,
    variant: &Variant,
    ds: &DealScore,
    engine: &dyn Fn(EngineError) -> HarnessError,
    w: &mut dyn Write,
) -> Result<(), HarnessError> {
    let io = write_error;
    for (winner, s) in &ds.wins {
        let winner = *winner;
        let input = WinInput::from_deal(deal, winner)
            .ok_or_else(|| engine(EngineError::NoWinningHand(winner)))?;
        let melds: Vec<String> = input.melds.iter().map(|m| m.to_string()).collect();
        writeln!(
            w,
            "  {winner} wins: {} {} {}  on {}  {} tai (+{} dealer)",
            input.hand,
            melds.join(" "),
            input.flowers,
            input.win_tile.map_or("-".into(), |t| t.to_string()),
            s.total,
            s.dealer_tai
        )
        .map_err(io)?;
        for p in &s.patterns {
            writeln!(
                w,
                "    {:<28} {} {:>3}",
                p.id.id(),
                name_zh_padded(p.name_zh(), 10),
                p.tai
            )
            .map_err(io)?;
        }
        // Without this line a payer who did not discard the winning tile reads as a bug.
        if let Some(liable) = insurance_payer(s, &input, variant) {
            writeln!(
                w,
                "    insurance: {liable} pays for all losers, liable for {winner}'s insured hand (settlement.insurance)"
            )
            .map_err(io)?;
        }
    }
    Ok(())
}

/// An all-pairs deal (taizhou): the win, every seat's value, the 全包 seat, the amounts in
/// points (halves where a non-dealer pays half) and in money. A drawn deal settles nothing.
fn write_all_pairs(
    deal: &Deal,
    ds: &DealScore,
    per_tai: i64,
    engine: &dyn Fn(EngineError) -> HarnessError,
    w: &mut dyn Write,
) -> Result<(), HarnessError> {
    let io = write_error;
    if ds.wins.is_empty() {
        writeln!(w, "  drawn: nothing is settled").map_err(io)?;
        return Ok(());
    }
    let dealer = deal.context().dealer;
    for (winner, s) in &ds.wins {
        let input = WinInput::from_deal(deal, *winner)
            .ok_or_else(|| engine(EngineError::NoWinningHand(*winner)))?;
        let melds: Vec<String> = input.melds.iter().map(|m| m.to_string()).collect();
        writeln!(
            w,
            "  {winner} wins: {} {}  on {}  {} 胡 + 底胡, {} 台: {} points{}",
            input.hand,
            melds.join(" "),
            input.win_tile.map_or("-".into(), |t| t.to_string()),
            s.hu,
            s.total,
            s.points,
            if s.capped { " (capped)" } else { "" }
        )
        .map_err(io)?;
        for p in &s.patterns {
            writeln!(
                w,
                "    {:<28} {} {:>3} 胡 {:>2} 台",
                p.id.id(),
                name_zh_padded(p.name_zh(), 10),
                p.hu,
                p.tai
            )
            .map_err(io)?;
        }
        let v = ds.values.0;
        writeln!(
            w,
            "  values: E {} S {} W {} N {}  (dealer {dealer}; 全包 {})",
            v[0],
            v[1],
            v[2],
            v[3],
            ds.responsible.map_or("none".into(), |r| r.to_string())
        )
        .map_err(io)?;
        let points = settle_all_pairs(*winner, dealer, ds.values, ds.responsible)
            .map_err(|e| engine(ScoreError::from(e).into()))?;
        writeln!(
            w,
            "  settlement in points: E {} S {} W {} N {}  (× {} money per point)",
            points[Wind::East],
            points[Wind::South],
            points[Wind::West],
            points[Wind::North],
            per_tai
        )
        .map_err(io)?;
    }
    Ok(())
}

/// The deals table's columns that play a deal back: its seed and context, the payments to
/// check it against, and its action log where the run recorded one.
pub(crate) fn deal_columns(log_actions: bool) -> Vec<&'static str> {
    let mut columns = vec![
        "deal_id",
        "seed",
        "round_wind",
        "dealer",
        "dealer_streak",
        "pay_e",
        "pay_s",
        "pay_w",
        "pay_n",
        "decisions",
        "turns",
        "tiles_left",
    ];
    if log_actions {
        columns.push("actions");
    }
    columns
}

#[cfg(test)]
mod tests {
    use super::*;
    use taisim_agents::{build_agents, parse_agents};
    use taisim_score::Variant;

    /// A deal played again is checked on every column it ends with, not only its payments:
    /// play that went otherwise but pays the same (a drawn deal pays nothing either way)
    /// still shows.
    #[test]
    fn a_replayed_deal_is_checked_on_its_decisions_discards_and_wall() {
        let variant = std::sync::Arc::new(Variant::builtin("taiwan16").unwrap());
        let mut agents = build_agents(&parse_agents("greedy").unwrap(), &variant).unwrap();
        let mut deal = Deal::new(variant.rules(), 9, DealContext::FIRST).unwrap();
        let steps = play_deal_with(&mut deal, &mut agents, &mut ActionList::new(), |_, _| {});
        let pays = score_deal(&deal, &variant, 0, 1).unwrap().payments.0;
        let rec = Recorded {
            seed: 9,
            context: DealContext::FIRST,
            pays,
            decisions: u16::try_from(steps).unwrap(),
            turns: deal.discards().len() as u16,
            tiles_left: deal.tiles_left(),
            actions: None,
        };
        let out = Path::new("run");
        rec.check(out, 3, &deal, pays).unwrap();
        let wrong = [
            Recorded {
                decisions: rec.decisions + 1,
                actions: None,
                ..rec
            },
            Recorded {
                turns: rec.turns - 1,
                actions: None,
                ..rec
            },
            Recorded {
                tiles_left: rec.tiles_left + 2,
                actions: None,
                ..rec
            },
        ];
        for r in &wrong {
            let e = r.check(out, 3, &deal, pays).unwrap_err().to_string();
            assert!(e.contains("deal 3 replays to payments"), "{e}");
            assert!(e.contains("decisions") && e.contains("tiles left"), "{e}");
        }
        let mut other = pays;
        other[0] += 1;
        other[1] -= 1;
        assert!(rec.check(out, 3, &deal, other).is_err());
    }
}
