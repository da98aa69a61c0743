//! The tables of a run, one file each, every table's schema and column meanings beside the
//! code that fills it: `deals.rs` (one row per deal), `wins.rs` (per winning hand), `tai.rs`
//! (per counted pattern), `decisions.rs` (per decision, with `--decisions`). Their columns
//! are plain vectors filled deal by deal and turned into Arrow record batches at the end of
//! a part; building a batch checks it against its schema. `storage.rs` holds the fixed
//! dictionaries and each column's layout. Here: the [`Table`] names, the writer settings and
//! the row-group bound every part file is written with, and what `simulate --schema` prints.

mod deals;
mod decisions;
mod storage;
mod tai;
mod wins;

use std::fmt::Write as _;

use arrow_schema::{DataType, SchemaRef};
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterVersion};
use parquet::schema::types::ColumnPath;
use taisim_score::Variant;

pub(crate) use deals::{DealRow, DealsColumns, SeatEnd};
pub(crate) use decisions::DecisionsColumns;
pub use decisions::{
    obs_denominators, obs_scale, quantize, DecisionSeats, QuantizeError, SEARCH_COLUMNS,
};
pub(crate) use storage::{OUTCOMES, SEAT_SUFFIX};
pub(crate) use tai::TaiColumns;
pub(crate) use wins::{AllPairsRow, WinRow, WinsColumns, WinsLayout};

use storage::{is_id, storage, Storage};

/// The tables of a run, each a directory of part files.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Table {
    Deals,
    Wins,
    Tai,
    /// Written only by runs made with `--decisions`, so not in [`Table::ALL`].
    Decisions,
}

impl Table {
    /// In the order a part's files are renamed into place: deals last.
    pub const ALL: [Table; 3] = [Table::Wins, Table::Tai, Table::Deals];
    /// Every table a run may write, for removing a part's files.
    pub const EVERY: [Table; 4] = [Table::Decisions, Table::Wins, Table::Tai, Table::Deals];

    /// The tables a run writes, in the order a part's files are renamed into place.
    pub fn of_run(decisions: bool) -> &'static [Table] {
        if decisions {
            &Table::EVERY
        } else {
            &Table::ALL
        }
    }

    pub const fn dir(self) -> &'static str {
        match self {
            Table::Deals => "deals",
            Table::Wins => "wins",
            Table::Tai => "tai",
            Table::Decisions => "decisions",
        }
    }
}

/// Rows per row group: a reader can skip or parallelise at this grain, and a writer holds
/// at most one row group's encoded pages at a time.
pub const MAX_ROW_GROUP_ROWS: usize = 128 * 1024;

/// Parts of a table with fewer rows than this are written uncompressed: zstd's set-up for
/// each page then costs more than compressing (and checksumming) the few kilobytes saves.
/// Random agents win about one deal in 200, so their wins and tai tables stay below it.
pub const MIN_COMPRESSED_ROWS: usize = 1024;

/// The writer settings of a part of `table` with `rows` rows, spelled out so a crate
/// upgrade cannot change the files silently: zstd level 1 (fast, and still ~5× smaller than
/// plain) from [`MIN_COMPRESSED_ROWS`] rows up, each column laid out for its values (see
/// `storage.rs`), and a fixed `created_by` so the same run gives byte-identical files.
///
/// Only the id columns carry statistics (page and chunk min/max): they let a reader looking
/// up a deal skip every other part and page. Elsewhere a part of 65,536 deals holds nearly
/// every value a column takes, so min/max could prune nothing, while computing them costs
/// the writer a comparison or two per value (a string comparison for the string columns).
pub fn writer_properties(table: Table, rows: usize) -> WriterProperties {
    if table == Table::Decisions {
        return decisions_writer_properties();
    }
    let compression = if rows < MIN_COMPRESSED_ROWS {
        Compression::UNCOMPRESSED
    } else {
        Compression::ZSTD(ZstdLevel::try_new(1).expect("zstd level 1 exists"))
    };
    let mut builder = WriterProperties::builder()
        .set_writer_version(WriterVersion::PARQUET_1_0)
        .set_compression(compression)
        .set_dictionary_enabled(true)
        .set_encoding(Encoding::PLAIN)
        .set_statistics_enabled(EnabledStatistics::Page)
        .set_max_row_group_row_count(Some(MAX_ROW_GROUP_ROWS))
        .set_created_by(format!("taisim {}", env!("CARGO_PKG_VERSION")));
    for field in schema(table, true).fields() {
        let column = ColumnPath::from(field.name().as_str());
        if !is_id(field.name()) {
            builder =
                builder.set_column_statistics_enabled(column.clone(), EnabledStatistics::None);
        }
        builder = match storage(table, field.name()) {
            Storage::Dictionary => builder,
            Storage::Plain => builder.set_column_dictionary_enabled(column, false),
            Storage::Delta => builder
                .set_column_dictionary_enabled(column.clone(), false)
                .set_column_encoding(column.clone(), Encoding::DELTA_BINARY_PACKED)
                .set_column_compression(column, Compression::UNCOMPRESSED),
            Storage::Raw => builder
                .set_column_dictionary_enabled(column.clone(), false)
                .set_column_compression(column, Compression::UNCOMPRESSED),
        };
    }
    builder.build()
}

/// The writer settings of a decisions part: zstd level 1 (the observations are mostly
/// zeros, and zstd's decoder is what bounds reading them back), no dictionaries (nearly
/// every observation differs), statistics only on the id column. (LZ4_RAW for the
/// observations and masks, through parquet's pure-Rust lz4_flex, was measured against it:
/// files 2.2 times larger and about 8% more CPU to read back, so zstd stays.)
fn decisions_writer_properties() -> WriterProperties {
    let mut builder = WriterProperties::builder()
        .set_writer_version(WriterVersion::PARQUET_1_0)
        .set_compression(Compression::ZSTD(
            ZstdLevel::try_new(1).expect("zstd level 1 exists"),
        ))
        .set_dictionary_enabled(false)
        .set_encoding(Encoding::PLAIN)
        .set_statistics_enabled(EnabledStatistics::None)
        .set_column_statistics_enabled(ColumnPath::from("deal_id"), EnabledStatistics::Page)
        .set_max_row_group_row_count(Some(MAX_ROW_GROUP_ROWS))
        .set_created_by(format!("taisim {}", env!("CARGO_PKG_VERSION")));
    for column in ["obs_version", "variant"] {
        builder = builder.set_column_dictionary_enabled(ColumnPath::from(column), true);
    }
    builder.build()
}

/// Every column a table may have, as `--schema` describes it: the deals table with its
/// `actions` column when `optional` (a run made with `--log-actions`), the decisions table
/// with its search labels when `optional` (a run whose decisions a search made or labelled),
/// the wins table with the points model's columns.
pub fn schema(table: Table, optional: bool) -> SchemaRef {
    match table {
        Table::Deals => DealsColumns::schema(optional),
        Table::Wins => WinsColumns::schema(),
        Table::Tai => TaiColumns::schema(),
        Table::Decisions => decisions::schema(optional),
    }
}

/// The exact schema a run of a winner-pays variant writes: [`schema`] less the wins table's
/// points columns unless the variant scores with the points model. [`variant_schema`] covers
/// every variant.
pub fn run_schema(table: Table, log_actions: bool, points_model: bool) -> SchemaRef {
    match table {
        Table::Wins => WinsColumns::schema_for(WinsLayout {
            points_model,
            all_pairs: false,
        }),
        _ => schema(table, log_actions),
    }
}

/// The exact schema a run of `variant` writes: [`schema`] less the wins table's optional
/// columns the variant does not call for (`hu`, `points` under the points model;
/// `responsible`, `value_*`, `pay_*` under all-pairs settlement).
pub fn variant_schema(table: Table, log_actions: bool, variant: &Variant) -> SchemaRef {
    match table {
        Table::Wins => WinsColumns::schema_for(WinsLayout::of(variant)),
        _ => schema(table, log_actions),
    }
}

/// What a column holds, for `--schema`: per-seat columns are described once by their stem
/// (`pay_*`); the columns several tables share here, the rest by their table.
fn describe(table: Table, column: &str) -> Option<&'static str> {
    Some(match (table, storage::stem(table, column)) {
        (Table::Decisions, _) => return decisions::describe(column),
        (_, "deal_id") => "the deal: i for independent deals; game * 65536 + deal for games",
        (Table::Wins | Table::Tai, "variant") => {
            "the variant's name, as in the deals table: read_parquet('runs/*/tai/*.parquet') \
             groups by it (runs of manifest format taisim-run/1 have it in deals only)"
        }
        (Table::Deals | Table::Wins, "discarder") => {
            "the seat whose tile was won on: the discarder, the robbed kong's or flower's owner; null otherwise (it pays alone under winner-pays settlement, but all non-winners pay under all-pairs, and a win below a minimum fines the claimant instead)"
        }
        (Table::Deals | Table::Wins, "win_tile") => {
            "the winning tile in notation (null for flower wins and draws)"
        }
        (Table::Wins | Table::Tai, "winner") => "the winning seat",
        (Table::Deals, stem) => return deals::describe(stem),
        (Table::Wins, stem) => return wins::describe(stem),
        (Table::Tai, stem) => return tai::describe(stem),
    })
}

fn type_name(ty: &DataType) -> String {
    match ty {
        DataType::Dictionary(_, value) if **value == DataType::Utf8 => "string (dictionary)".into(),
        DataType::Utf8 => "string".into(),
        DataType::Binary => "binary".into(),
        other => format!("{other}").to_lowercase(),
    }
}

/// Every table's columns: name, type, nullability and meaning.
pub fn schema_text() -> String {
    let mut out = String::new();
    for table in [Table::Deals, Table::Wins, Table::Tai, Table::Decisions] {
        let _ = writeln!(out, "{}/part-NNNNN.parquet", table.dir());
        for field in schema(table, true).fields() {
            let _ = writeln!(
                out,
                "  {:<26} {:<20} {:<9} {}",
                field.name(),
                type_name(field.data_type()),
                if field.is_nullable() { "nullable" } else { "" },
                describe(table, field.name()).unwrap_or("")
            );
        }
        out.push('\n');
    }
    out.push_str(
        "The deals table's actions column is present only in runs made with --log-actions;\n\
         the wins table's hu and points columns only in runs of a points variant, and its\n\
         responsible, value_* and pay_* columns only in runs of an all-pairs variant (taizhou);\n\
         the decisions table only in runs made with --decisions, and its search_* columns\n\
         only in those whose recorded seats are search agents or made with --label-with.\n\
         A drawn deal of an all-pairs variant settles nothing and has no wins row.\n\
         Every table has the run's variant column (manifest format taisim-run/2); runs of\n\
         taisim-run/1 have it in the deals and decisions tables only, and this taisim reads\n\
         them (report, compare, replay) but does not resume them.\n",
    );
    out
}

/// The tables of one part, filled deal by deal.
pub(crate) struct PartTables {
    pub deals: DealsColumns,
    pub wins: WinsColumns,
    pub tai: TaiColumns,
    /// With `--decisions`.
    pub decisions: Option<DecisionsColumns>,
}

impl PartTables {
    /// With the decisions of `decisions` (search-labelled with `search_labels`).
    pub fn new(
        log_actions: bool,
        capacity: usize,
        decisions: Option<DecisionSeats>,
        search_labels: bool,
    ) -> PartTables {
        PartTables {
            deals: DealsColumns::new(log_actions, capacity),
            wins: WinsColumns::default(),
            tai: TaiColumns::default(),
            decisions: decisions.map(|seats| DecisionsColumns::new(seats, search_labels)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_column_is_described() {
        for table in [Table::Deals, Table::Wins, Table::Tai, Table::Decisions] {
            for field in schema(table, true).fields() {
                assert!(
                    describe(table, field.name()).is_some(),
                    "{}.{} has no description",
                    table.dir(),
                    field.name()
                );
            }
        }
    }

    /// A misspelt name in the layout lists would quietly leave its column a dictionary.
    #[test]
    fn every_laid_out_name_is_a_column() {
        use super::storage::{stem, storage, Storage, LAYOUTS};
        for (table, layout, names) in LAYOUTS {
            let schema = schema(table, true);
            let stems: Vec<&str> = schema
                .fields()
                .iter()
                .map(|f| stem(table, f.name()))
                .collect();
            for name in names {
                assert!(
                    stems.contains(name),
                    "{}.{name} is not a column",
                    table.dir()
                );
            }
            for field in schema.fields() {
                let listed = names.contains(&stem(table, field.name()));
                if listed {
                    assert_eq!(storage(table, field.name()), layout, "{}", field.name());
                }
            }
        }
        assert_eq!(storage(Table::Deals, "pay_w"), Storage::Delta);
        assert_eq!(storage(Table::Wins, "win_tile"), Storage::Dictionary);
    }
}
