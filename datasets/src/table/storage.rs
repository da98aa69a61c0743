//! How the tables' columns are stored: the fixed dictionaries of the low-cardinality string
//! columns (seats, outcomes, tiles, pattern ids: a row stores a one-byte key, readers see
//! plain strings), and each column's layout in its part file ([`Storage`]).

use std::sync::{Arc, OnceLock};

use arrow_array::types::Int8Type;
use arrow_array::{ArrayRef, DictionaryArray, Int8Array, StringArray};
use arrow_schema::{DataType, Field};
use taisim_score::{PatternId, ReadingKind, WaitShape};
use taisim_sim::{Outcome, Seat, Tile, Wind};

use super::Table;

/// The fixed dictionaries of the dictionary columns.
pub(crate) struct Dictionaries {
    pub seats: ArrayRef,
    pub outcomes: ArrayRef,
    pub tiles: ArrayRef,
    pub patterns: ArrayRef,
    pub pattern_names: ArrayRef,
    pub waits: ArrayRef,
    pub readings: ArrayRef,
}

pub(crate) const OUTCOMES: [Outcome; 4] = [
    Outcome::SelfDraw,
    Outcome::Discard,
    Outcome::FlowerWin,
    Outcome::ExhaustiveDraw,
];

pub(crate) const WAITS: [WaitShape; 6] = [
    WaitShape::TwoSided,
    WaitShape::Edge,
    WaitShape::Closed,
    WaitShape::Single,
    WaitShape::DoublePair,
    WaitShape::None,
];

pub(crate) const READINGS: [ReadingKind; 4] = [
    ReadingKind::Regular,
    ReadingKind::EightPairs,
    ReadingKind::ThirteenOrphans,
    ReadingKind::FlowerWin,
];

pub(crate) fn strings<I: IntoIterator<Item = S>, S: AsRef<str>>(values: I) -> ArrayRef {
    Arc::new(StringArray::from_iter_values(values))
}

pub(crate) fn dictionaries() -> &'static Dictionaries {
    static DICTS: OnceLock<Dictionaries> = OnceLock::new();
    DICTS.get_or_init(|| Dictionaries {
        seats: strings(Wind::ALL.iter().map(|s| s.to_string())),
        outcomes: strings(OUTCOMES.iter().map(|o| o.name())),
        tiles: strings((0..34).map(|i| Tile::new(i).to_string())),
        patterns: strings(PatternId::ALL.iter().map(|p| p.id())),
        pattern_names: strings(PatternId::ALL.iter().map(|p| p.name_zh())),
        waits: strings(WAITS.iter().map(|w| w.name())),
        readings: strings(READINGS.iter().map(|r| r.name())),
    })
}

pub(crate) fn dict_type() -> DataType {
    DataType::Dictionary(Box::new(DataType::Int8), Box::new(DataType::Utf8))
}

pub(crate) fn dict(name: &str, nullable: bool) -> Field {
    Field::new(name, dict_type(), nullable)
}

/// A dictionary column over a fixed dictionary; `keys` is a `Vec<i8>`, or a
/// `Vec<Option<i8>>` for a nullable column.
pub(crate) fn dict_column(keys: impl Into<Int8Array>, values: &ArrayRef) -> ArrayRef {
    Arc::new(
        DictionaryArray::<Int8Type>::try_new(keys.into(), values.clone())
            .expect("keys index the fixed dictionary"),
    )
}

pub(crate) const fn seat_key(s: Seat) -> i8 {
    s as i8
}

pub(crate) fn outcome_key(o: Outcome) -> i8 {
    OUTCOMES.iter().position(|x| *x == o).unwrap_or(0) as i8
}

pub(crate) fn wait_key(w: WaitShape) -> i8 {
    WAITS
        .iter()
        .position(|x| *x == w)
        .unwrap_or(WAITS.len() - 1) as i8
}

pub(crate) fn reading_key(r: ReadingKind) -> i8 {
    READINGS.iter().position(|x| *x == r).unwrap_or(0) as i8
}

/// How a column is laid out in its part file, chosen from what its values look like. The
/// writer's default, a dictionary, hashes every value into a table: dearer per value than
/// anything else it does, and wasted on ids and random bits. Costs were measured with
/// callgrind on parts of random and greedy deals, counting the SHA-256 of the bytes written
/// (about 50 instructions a byte there) as part of each layout's cost; where the two kinds
/// of run disagree (`tiles_left`, nearly constant when random agents play), the random runs
/// decide, as they set the harness's throughput.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Storage {
    /// Distinct values once, then bit-packed keys, zstd-compressed: for values of a few
    /// dozen kinds repeated often (tiles, wait shapes, pattern ids).
    Dictionary,
    /// The values in row order, zstd-compressed: for columns nearly always one value (the
    /// variant, kongs), which zstd shrinks to almost nothing in one pass, and for strings
    /// nearly all distinct (hands, action logs), where a dictionary only costs.
    Plain,
    /// `DELTA_BINARY_PACKED` and uncompressed: for ids in order (a few bytes a page) and for
    /// small counts spread over a few values (each then takes the few bits its range
    /// needs, which zstd could not shrink much further).
    Delta,
    /// The values in row order, uncompressed: random bits, which zstd cannot shrink.
    Raw,
}

/// Whether `column` identifies a deal (in any table).
pub(crate) fn is_id(column: &str) -> bool {
    matches!(column, "deal_id" | "game_id" | "deal_in_game" | "seed")
}

/// A column's name without its seat suffix: the per-seat columns of the deals table
/// (`pay_e` … `pay_n`) and of the wins table (`value_e`, `pay_e`, …) share their stem's
/// layout and description. No other column of either table ends in a seat's letter.
pub(crate) fn stem(table: Table, column: &str) -> &str {
    match column.rsplit_once('_') {
        Some((stem, "e" | "s" | "w" | "n")) if matches!(table, Table::Deals | Table::Wins) => stem,
        _ => column,
    }
}

/// The columns (by [`stem`]) of each table stored other than as a dictionary, by layout. A
/// test checks that every name here is a column of its table.
pub(crate) const LAYOUTS: [(Table, Storage, &[&str]); 7] = [
    (
        Table::Deals,
        Storage::Delta,
        &[
            "deal_id",
            "game_id",
            "deal_in_game",
            "total_tai",
            "turns",
            "decisions",
            "pay",
            "flowers",
            "chows",
            "pungs",
            "shanten",
        ],
    ),
    (Table::Deals, Storage::Raw, &["seed"]),
    (
        Table::Deals,
        Storage::Plain,
        &[
            "variant",
            "round_wind",
            "dealer",
            "outcome",
            "dealer_streak",
            "n_winners",
            "tiles_left",
            "kongs",
            "concealed_kongs",
            "added_kongs",
            "declared_ready",
            "actions",
        ],
    ),
    (
        Table::Wins,
        Storage::Delta,
        &[
            "deal_id",
            "total_tai",
            "dealer_tai",
            "payment",
            "n_patterns",
            "n_melds",
            "n_flowers",
            "value",
            "pay",
        ],
    ),
    (Table::Wins, Storage::Plain, &["reading", "hand", "melds"]),
    (Table::Tai, Storage::Delta, &["deal_id"]),
    (Table::Tai, Storage::Plain, &["count", "tai"]),
];

/// The storage of `column` of `table`: as [`LAYOUTS`] lists it, else a dictionary.
pub(crate) fn storage(table: Table, column: &str) -> Storage {
    let stem = stem(table, column);
    LAYOUTS
        .iter()
        .find(|(t, _, names)| *t == table && names.contains(&stem))
        .map_or(Storage::Dictionary, |&(_, storage, _)| storage)
}

/// Per-seat columns of the deals and wins tables, in the order of their names' suffixes.
pub(crate) const SEAT_SUFFIX: [&str; 4] = ["e", "s", "w", "n"];
