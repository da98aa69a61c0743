//! The deals table: one row per deal (outcome, winners, payments, each seat's melds and
//! flowers), kept as whole rows and made into columns at the end of the part.

use std::sync::Arc;

use arrow_array::builder::BinaryBuilder;
use arrow_array::{
    ArrayRef, BooleanArray, Int64Array, Int8Array, RecordBatch, UInt16Array, UInt64Array,
    UInt8Array,
};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use taisim_sim::{Outcome, Seat, Tile, Wind};

use super::storage::{
    dict, dict_column, dictionaries, outcome_key, seat_key, strings, SEAT_SUFFIX,
};

/// What each seat ended the deal with.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct SeatEnd {
    pub pay: i64,
    pub flowers: u8,
    pub chows: u8,
    pub pungs: u8,
    /// Kongs claimed from a discard (明槓).
    pub kongs: u8,
    pub concealed_kongs: u8,
    pub added_kongs: u8,
    pub declared_ready: bool,
    /// Shanten of the final concealed hand; −1 for a winner.
    pub shanten: i8,
}

/// One row of the deals table.
#[derive(Copy, Clone, Debug)]
pub(crate) struct DealRow {
    pub deal_id: u64,
    pub game: Option<(u64, u16)>,
    pub seed: u64,
    pub round_wind: Wind,
    pub dealer: Seat,
    pub dealer_streak: u8,
    pub outcome: Outcome,
    pub winners: taisim_sim::SeatSet,
    pub discarder: Option<Seat>,
    pub win_tile: Option<Tile>,
    pub total_tai: Option<u16>,
    pub turns: u16,
    pub decisions: u16,
    pub tiles_left: u8,
    pub seats: [SeatEnd; 4],
}

/// The deals table of one part. Unlike the other tables it keeps whole rows and makes the
/// columns only at the end of the part: a deal is one push here instead of one push into
/// each of some fifty column vectors, each checking its own length and capacity.
pub(crate) struct DealsColumns {
    rows: Vec<DealRow>,
    /// Each deal's decisions as action-space indices, one byte each; present with
    /// `--log-actions`.
    actions: Option<BinaryBuilder>,
}

/// The winner sets, as the strings the `winners` column shows: seat letters in seat order.
fn winner_sets() -> ArrayRef {
    strings((0u8..16).map(|bits| {
        Wind::ALL
            .iter()
            .filter(|s| bits & (1 << **s as u8) != 0)
            .map(|s| s.to_string())
            .collect::<String>()
    }))
}

fn winners_key(set: taisim_sim::SeatSet) -> u8 {
    let mut bits = 0;
    for s in set.iter() {
        bits |= 1 << s as u8;
    }
    bits
}

impl DealsColumns {
    /// A table for about `capacity` deals, reserved up front.
    pub fn new(log_actions: bool, capacity: usize) -> DealsColumns {
        DealsColumns {
            rows: Vec::with_capacity(capacity),
            actions: log_actions.then(|| BinaryBuilder::with_capacity(capacity, capacity * 80)),
        }
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn schema(log_actions: bool) -> SchemaRef {
        let mut fields = vec![
            Field::new("deal_id", DataType::UInt64, false),
            Field::new("game_id", DataType::UInt64, true),
            Field::new("deal_in_game", DataType::UInt16, true),
            Field::new("seed", DataType::UInt64, false),
            dict("variant", false),
            dict("round_wind", false),
            dict("dealer", false),
            Field::new("dealer_streak", DataType::UInt8, false),
            dict("outcome", false),
            dict("winners", true),
            Field::new("n_winners", DataType::UInt8, false),
            dict("discarder", true),
            dict("win_tile", true),
            Field::new("total_tai", DataType::UInt16, true),
            Field::new("turns", DataType::UInt16, false),
            Field::new("decisions", DataType::UInt16, false),
            Field::new("tiles_left", DataType::UInt8, false),
        ];
        for s in SEAT_SUFFIX {
            fields.push(Field::new(format!("pay_{s}"), DataType::Int64, false));
        }
        for s in SEAT_SUFFIX {
            for (name, ty) in [
                ("flowers", DataType::UInt8),
                ("chows", DataType::UInt8),
                ("pungs", DataType::UInt8),
                ("kongs", DataType::UInt8),
                ("concealed_kongs", DataType::UInt8),
                ("added_kongs", DataType::UInt8),
                ("declared_ready", DataType::Boolean),
                ("shanten", DataType::Int8),
            ] {
                fields.push(Field::new(format!("{name}_{s}"), ty, false));
            }
        }
        if log_actions {
            fields.push(Field::new("actions", DataType::Binary, false));
        }
        Arc::new(Schema::new(fields))
    }

    pub fn push(&mut self, row: &DealRow, actions: &[u8]) {
        self.rows.push(*row);
        if let Some(b) = &mut self.actions {
            b.append_value(actions);
        }
    }

    pub fn finish(self, variant: &str) -> RecordBatch {
        let d = dictionaries();
        let rows = &self.rows[..];
        let log_actions = self.actions.is_some();
        // Generic, not `&dyn Fn`, so that each column's loop inlines its field access.
        fn u8s(rows: &[DealRow], f: impl Fn(&DealRow) -> u8) -> ArrayRef {
            Arc::new(UInt8Array::from_iter_values(rows.iter().map(f)))
        }
        fn u16s(rows: &[DealRow], f: impl Fn(&DealRow) -> u16) -> ArrayRef {
            Arc::new(UInt16Array::from_iter_values(rows.iter().map(f)))
        }
        fn keys(rows: &[DealRow], f: impl Fn(&DealRow) -> i8) -> Int8Array {
            Int8Array::from_iter_values(rows.iter().map(f))
        }
        fn nullable_keys(rows: &[DealRow], f: impl Fn(&DealRow) -> Option<i8>) -> Int8Array {
            Int8Array::from_iter(rows.iter().map(f))
        }
        let mut columns: Vec<ArrayRef> = vec![
            Arc::new(UInt64Array::from_iter_values(
                rows.iter().map(|r| r.deal_id),
            )),
            Arc::new(UInt64Array::from_iter(
                rows.iter().map(|r| r.game.map(|g| g.0)),
            )),
            Arc::new(UInt16Array::from_iter(
                rows.iter().map(|r| r.game.map(|g| g.1)),
            )),
            Arc::new(UInt64Array::from_iter_values(rows.iter().map(|r| r.seed))),
            dict_column(Int8Array::from_value(0, rows.len()), &strings([variant])),
            dict_column(keys(rows, |r| seat_key(r.round_wind)), &d.seats),
            dict_column(keys(rows, |r| seat_key(r.dealer)), &d.seats),
            u8s(rows, |r| r.dealer_streak),
            dict_column(keys(rows, |r| outcome_key(r.outcome)), &d.outcomes),
            dict_column(
                nullable_keys(rows, |r| {
                    let w = winners_key(r.winners);
                    (w != 0).then_some(w as i8)
                }),
                &winner_sets(),
            ),
            u8s(rows, |r| r.winners.len() as u8),
            dict_column(nullable_keys(rows, |r| r.discarder.map(seat_key)), &d.seats),
            dict_column(
                nullable_keys(rows, |r| r.win_tile.map(|t| t.to_u8() as i8)),
                &d.tiles,
            ),
            Arc::new(UInt16Array::from_iter(rows.iter().map(|r| r.total_tai))),
            u16s(rows, |r| r.turns),
            u16s(rows, |r| r.decisions),
            u8s(rows, |r| r.tiles_left),
        ];
        for s in 0..4 {
            columns.push(Arc::new(Int64Array::from_iter_values(
                rows.iter().map(|r| r.seats[s].pay),
            )));
        }
        for s in 0..4 {
            columns.extend([
                u8s(rows, |r| r.seats[s].flowers),
                u8s(rows, |r| r.seats[s].chows),
                u8s(rows, |r| r.seats[s].pungs),
                u8s(rows, |r| r.seats[s].kongs),
                u8s(rows, |r| r.seats[s].concealed_kongs),
                u8s(rows, |r| r.seats[s].added_kongs),
                Arc::new(BooleanArray::from(
                    rows.iter()
                        .map(|r| r.seats[s].declared_ready)
                        .collect::<Vec<_>>(),
                )),
                Arc::new(Int8Array::from_iter_values(
                    rows.iter().map(|r| r.seats[s].shanten),
                )),
            ]);
        }
        if let Some(mut b) = self.actions {
            columns.push(Arc::new(b.finish()));
        }
        RecordBatch::try_new(DealsColumns::schema(log_actions), columns)
            .expect("the deals columns follow the deals schema")
    }
}

/// What a column of the deals table holds, by its stem (`pay` for `pay_e` … `pay_n`), for
/// `simulate --schema`.
pub(crate) fn describe(stem: &str) -> Option<&'static str> {
    Some(match stem {
        "game_id" => "the game (with --games), else null",
        "deal_in_game" => "the deal's number in its game from 0 (with --games), else null",
        "seed" => "the deal's wall seed: Deal::new(rules, seed, context) replays it",
        "variant" => "the variant's name (its file and hash are in the manifest)",
        "round_wind" => "圈風, E S W N",
        "dealer" => "the dealer's seat",
        "dealer_streak" => "連莊: deals the dealer has kept in a row",
        "outcome" => "self_draw, discard (robbing a kong included), flower_win, exhaustive_draw",
        "winners" => "winning seats in seat order (several only with 一砲多響), null on a draw",
        "n_winners" => "number of winners",
        "total_tai" => "sum of the winners' tai (dealer tai not included), null on a draw",
        "turns" => "discards made in the deal",
        "decisions" => "decisions taken by all seats (discards, claims, passes, wins)",
        "tiles_left" => "tiles left in the wall, the reserve included",
        "pay" => "the seat's net payment for the deal (sums to zero over the seats)",
        "flowers" => "flowers the seat showed",
        "chows" => "chows the seat claimed",
        "pungs" => "pungs the seat claimed (not later upgraded)",
        "kongs" => "kongs claimed from a discard (明槓)",
        "concealed_kongs" => "concealed kongs (暗槓)",
        "added_kongs" => "pungs upgraded to kongs (加槓)",
        "declared_ready" => "declared ready (天聽/地聽)",
        "shanten" => "shanten of the final hand: -1 for a winner, 0 ready, …",
        "actions" => "the deal's decisions in order, one byte each: the action-space index (taisim_agents::space)",
        _ => return None,
    })
}
