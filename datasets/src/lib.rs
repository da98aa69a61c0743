//! Seeded self-play runs of taisim, written as Parquet datasets.
//!
//! A run plays `count` deals (or full games) of one rule variant with four named agents and
//! writes three tables, each a directory of part files that DuckDB, Polars and pandas read
//! as one table (`read_parquet('runs/NAME/deals/*.parquet')`):
//!
//! - `deals/`: one row per deal: outcome, winners, payments, each seat's melds and flowers;
//! - `wins/`: one row per winning hand: tai, wait, circumstances, the hand;
//! - `tai/`: one row per counted pattern of each win.
//!
//! Every table carries the run's `variant`, so the tables of many runs read as one and group
//! by it. [`Report`] sums up one run; [`Comparison`] two runs of the same walls, deal by deal.
//!
//! Deal `i`'s seed derives from `(run seed, i)` alone and a part holds a fixed range of
//! deals, so the files are byte-identical whatever the thread count. Parts are written under
//! temporary names and renamed when complete, so an interrupted run resumes exactly
//! ([`RunOptions::resume`]); `--shard K/N` splits a run over machines into the same layout.
//! `manifest.json` records the spec, the variant's hash, and every file's rows and SHA-256;
//! each part file's footer records the run it belongs to ([`PartOrigin`]), so a directory
//! that lost its manifest still says what it holds, and a resume never takes another run's
//! file for its own.

mod arena;
mod atomic;
pub mod compare;
mod error;
mod fingerprint;
pub mod html;
mod journal;
mod layout;
mod load;
mod log;
mod manifest;
mod memory;
mod part;
mod play;
mod pool;
mod progress;
mod read;
mod replay;
pub mod report;
mod request;
mod resume;
pub mod review;
mod run;
mod spec;
mod table;

/// The directory of a run that keeps its outside players' standard error, one file per
/// process: `bots/part-00003-ESWN.stderr` for the process that served seats E, S, W and N
/// in part 3 (written again when the part is played again).
pub const BOTS_DIR: &str = "bots";

pub use arena::{
    play_arena, Arena, ArenaError, ArenaReport, ArenaRun, Contender, Side, SideReport, SideTally,
    Tally,
};
pub use atomic::{check_replaceable, write_atomically};
pub use compare::{CompareError, CompareOptions, Comparison};
pub use error::{EngineError, HarnessError};
pub use fingerprint::PlayFingerprint;
pub use layout::check_output;
pub use load::{load_decisions, load_decisions_into, Decisions, SearchLabels};
pub use log::{
    deal_log, tell_deal, verify_log, write_run_log, DealLog, LogError, LogHeader, RunLogWritten,
    Verified,
};
pub use manifest::{
    Manifest, Rows, Status, MANIFEST_FORMAT, MANIFEST_LIMIT, OLDER_MANIFEST_FORMATS, VARIANT_FILE,
};
pub use part::{part_path, FileRecord, PartRecord};
pub use pool::{check_threads, worker_pool, ThreadCountError, MAX_THREADS};
pub use progress::{per_second, ProgressMode};
pub use read::{
    column, expect_run_dir, string_codes, verify_checksum, Batches, PartFile, Run, READ_BATCH_ROWS,
};
pub use replay::{replay, wild_line, write_settlement};
pub use report::{Report, ReportOptions};
pub use request::RunRequest;
pub use resume::{recorded_spec, resumable_without_manifest, resume_spec, SpecSource};
pub use run::{simulate, RunOptions, RunSummary};
pub use spec::{
    default_out_dir, game_deal_id, sha256_hex, PartOrigin, RecordedSpec, RunSpec, RunVariant,
    Shard, SpecVariant, Unit, VariantRecord, MAX_DEALS_PER_GAME, MAX_PARTS, PART_ORIGIN_FORMAT,
    PART_ORIGIN_KEY, RESOLVED_HEADER,
};
pub use table::{
    obs_denominators, obs_scale, quantize, run_schema, schema, schema_text, variant_schema,
    writer_properties, DecisionSeats, QuantizeError, Table, MAX_ROW_GROUP_ROWS,
    MIN_COMPRESSED_ROWS, SEARCH_COLUMNS,
};
