//! `taisim replay`: one deal of a run, step by step, with every hand.
//!
//! A run made with `--log-actions` holds each deal's decisions, which are played back as
//! recorded. Any other run is replayed by letting its agents play the deal again: every
//! built-in agent is a function of the deal's seed and what it sees, so the deal comes out
//! the same. Either way the replayed result is checked against the recorded row.

use std::fs::File;
use std::io::Write;
use std::path::Path;

use arrow_array::cast::AsArray;
use arrow_array::types::{Int64Type, UInt64Type, UInt8Type};
use arrow_array::{Array, RecordBatch};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ProjectionMask;
use taisim_agents::{build_agents, index_to_action, play_deal_with};
use taisim_sim::score::{score, settle, WinInput};
use taisim_sim::{ActionList, Deal, DealContext, Seat, Wind};

use crate::error::HarnessError;
use crate::manifest::Manifest;
use crate::part::{part_path, Table};
use crate::play::MAX_DEALS_PER_GAME;
use crate::spec::{RunSpec, Unit};
use crate::{resume_spec, Shard};

/// What the deals table recorded of one deal.
struct Recorded {
    seed: u64,
    context: DealContext,
    pays: [i64; 4],
    actions: Option<Vec<u8>>,
}

/// The run's spec (any shard's manifest will do: they agree on everything but the shard).
fn run_spec(out: &Path) -> Result<RunSpec, HarnessError> {
    if !out.is_dir() {
        return Err(HarnessError::Usage(format!(
            "{} is not a directory",
            out.display()
        )));
    }
    let manifests = Manifest::read_all(out)?;
    let first = manifests.first().ok_or_else(|| {
        HarnessError::Usage(format!(
            "{} has no manifest.json: is it a taisim run directory?",
            out.display()
        ))
    })?;
    resume_spec(out, first.spec.shard).or_else(|_| resume_spec(out, Shard::WHOLE))
}

fn find(out: &Path, spec: &RunSpec, deal_id: u64) -> Result<Recorded, HarnessError> {
    let unit = match spec.unit {
        Unit::Deals => deal_id,
        Unit::Games => deal_id / MAX_DEALS_PER_GAME,
    };
    if unit >= spec.count {
        return Err(HarnessError::Usage(format!(
            "deal {deal_id} is not in the run: it has {} {}",
            spec.count,
            spec.unit.name()
        )));
    }
    let part = unit / spec.part_size;
    let path = part_path(out, Table::Deals, part);
    let file = File::open(&path).map_err(|e| {
        HarnessError::Usage(format!(
            "deal {deal_id} is in part {part}, which this directory lacks ({}: {e}); was it played by another shard?",
            path.display()
        ))
    })?;
    let corrupt = HarnessError::parquet("cannot read", &path);
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(corrupt)?;
    let wanted = [
        "deal_id",
        "seed",
        "round_wind",
        "dealer",
        "dealer_streak",
        "pay_e",
        "pay_s",
        "pay_w",
        "pay_n",
        "actions",
    ];
    let schema = builder.parquet_schema();
    let indices: Vec<usize> = (0..schema.num_columns())
        .filter(|&i| wanted.contains(&schema.column(i).name()))
        .collect();
    let mask = ProjectionMask::leaves(schema, indices);
    let reader = builder
        .with_projection(mask)
        .build()
        .map_err(HarnessError::parquet("cannot read", &path))?;
    for batch in reader {
        let batch = batch.map_err(HarnessError::parquet("cannot read", &path))?;
        let ids = column(&batch, "deal_id", &path)?.as_primitive::<UInt64Type>();
        if let Some(row) = ids.values().iter().position(|&id| id == deal_id) {
            return recorded(&batch, row, &path);
        }
    }
    Err(HarnessError::Usage(format!(
        "deal {deal_id} is not in {}",
        path.display()
    )))
}

fn column<'a>(
    batch: &'a RecordBatch,
    name: &str,
    path: &Path,
) -> Result<&'a dyn Array, HarnessError> {
    batch
        .column_by_name(name)
        .map(|c| c.as_ref())
        .ok_or_else(|| HarnessError::Corrupt {
            path: path.to_path_buf(),
            message: format!("no column {name}"),
        })
}

/// A seat letter from a dictionary column.
fn seat_at(batch: &RecordBatch, name: &str, row: usize, path: &Path) -> Result<Seat, HarnessError> {
    let col = column(batch, name, path)?;
    let dict = col.as_dictionary::<arrow_array::types::Int8Type>();
    let key = dict.keys().value(row) as usize;
    let text = dict.values().as_string::<i32>().value(key);
    text.chars()
        .next()
        .and_then(Wind::from_char)
        .ok_or_else(|| HarnessError::Corrupt {
            path: path.to_path_buf(),
            message: format!("{name} holds {text:?}, not a seat"),
        })
}

fn recorded(batch: &RecordBatch, row: usize, path: &Path) -> Result<Recorded, HarnessError> {
    let seed = column(batch, "seed", path)?
        .as_primitive::<UInt64Type>()
        .value(row);
    let streak = column(batch, "dealer_streak", path)?
        .as_primitive::<UInt8Type>()
        .value(row);
    let mut pays = [0; 4];
    for (i, name) in ["pay_e", "pay_s", "pay_w", "pay_n"].iter().enumerate() {
        pays[i] = column(batch, name, path)?
            .as_primitive::<Int64Type>()
            .value(row);
    }
    let actions = batch
        .column_by_name("actions")
        .map(|c| c.as_binary::<i32>().value(row).to_vec());
    Ok(Recorded {
        seed,
        context: DealContext {
            round_wind: seat_at(batch, "round_wind", row, path)?,
            dealer: seat_at(batch, "dealer", row, path)?,
            streak,
        },
        pays,
        actions,
    })
}

/// Prints deal `deal_id` of the run in `out` step by step.
pub fn replay(out: &Path, deal_id: u64, w: &mut dyn Write) -> Result<(), HarnessError> {
    let spec = run_spec(out)?;
    let rec = find(out, &spec, deal_id)?;
    let (_, variant) =
        crate::VariantSource::from_text(spec.variant.text.clone(), spec.variant.origin.clone())?;
    let rules = variant.rules();
    let io = |e: std::io::Error| HarnessError::Io {
        action: "cannot write",
        path: "stdout".into(),
        source: e,
    };
    let mut deal = Deal::new(rules, rec.seed, rec.context).map_err(|e| HarnessError::Corrupt {
        path: out.to_path_buf(),
        message: format!("the run's rules are invalid: {e}"),
    })?;
    writeln!(
        w,
        "deal {deal_id} of {} (variant {}, seed {}): round {}, dealer {}, streak {}, dice {:?}",
        out.display(),
        spec.variant.name,
        rec.seed,
        rec.context.round_wind,
        rec.context.dealer,
        rec.context.streak,
        deal.wall().dice()
    )
    .map_err(io)?;
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
            let mut agents = build_agents(&spec.agents).map_err(|e| {
                HarnessError::Usage(format!(
                    "the run has no action log and its agents cannot be rebuilt to play the deal again: {e}"
                ))
            })?;
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
    let mut pays = [0i64; 4];
    for winner in result.winners.iter() {
        let input = WinInput::from_deal(&deal, winner).ok_or_else(|| HarnessError::Engine {
            deal_id,
            seed: rec.seed,
            message: format!("seat {winner} won but has no winning hand"),
        })?;
        let s = score(&input, &variant).map_err(|e| HarnessError::Engine {
            deal_id,
            seed: rec.seed,
            message: e.to_string(),
        })?;
        let pay = settle(&s, &input, &variant, spec.base, spec.per_tai);
        for (p, v) in pays.iter_mut().zip(pay.0) {
            *p += v;
        }
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
            writeln!(w, "    {:<28} {:<8} {:>3}", p.id.id(), p.name_zh(), p.tai).map_err(io)?;
        }
    }
    writeln!(
        w,
        "payments: E {} S {} W {} N {}",
        pays[0], pays[1], pays[2], pays[3]
    )
    .map_err(io)?;
    if pays != rec.pays {
        return Err(HarnessError::Corrupt {
            path: out.to_path_buf(),
            message: format!(
                "deal {deal_id} replays to payments {pays:?} but the run recorded {:?}",
                rec.pays
            ),
        });
    }
    Ok(())
}
