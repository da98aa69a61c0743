//! One part of the decisions table: its bytes and footer, checked against the table's
//! schema and the manifest's rows, and each row group's small columns read (and filtered by
//! seat) through the Arrow reader, with the page layout of its wide columns.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, UInt32Type, UInt64Type, UInt8Type};
use arrow_array::Array;
use bytes::Bytes;
use parquet::arrow::arrow_reader::{
    ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReaderBuilder,
};
use parquet::arrow::ProjectionMask;
use parquet::basic::{Compression, Encoding, Type as PhysicalType};
use parquet::column::page::PageReader;
use parquet::file::metadata::ColumnChunkMetaData;
use parquet::file::serialized_reader::SerializedPageReader;
use taisim_agents::{obs_shape, ACTION_SPACE_SIZE, OBS_CHANNELS, OBS_VERSION, OBS_WIDTH};

use super::{bad, leaf, unreadable, SearchLabels, Wide, WIDE};
use crate::error::HarnessError;
use crate::table::{schema, DecisionSeats, Table};

/// A part file read whole (its compressed size is about 75 bytes a decision) with its footer.
pub(super) struct PartBytes {
    pub path: PathBuf,
    pub bytes: Bytes,
    pub meta: ArrowReaderMetadata,
}

/// One row group of one part: the small columns (already filtered by seat), which rows are
/// kept, and for each wide column the rows of its data pages, or `None` when the chunk is
/// not plain pages and goes through the Arrow reader.
pub(super) struct Group {
    pub part: usize,
    pub index: usize,
    /// The part's row its first row is.
    pub start: usize,
    pub rows: usize,
    pub small: Small,
    /// `None`: every row is kept.
    pub keep: Option<Vec<bool>>,
    pub pages: [Option<Vec<usize>>; 2],
}

impl Group {
    /// The part's row of the group's `kept`-th kept row (for errors).
    pub fn part_row(&self, kept: usize) -> usize {
        let row = match &self.keep {
            None => kept,
            Some(keep) => keep
                .iter()
                .enumerate()
                .filter(|(_, &k)| k)
                .nth(kept)
                .map_or(kept, |(r, _)| r),
        };
        self.start + row
    }
}

#[derive(Default)]
pub(super) struct Small {
    pub deal: Vec<u64>,
    pub step: Vec<u32>,
    pub seat: Vec<u8>,
    pub action: Vec<i64>,
    pub reward: Vec<f32>,
    /// In a search-labelled table.
    pub search: Option<SearchLabels>,
}

/// The older observation layout whose cell count the `obs` column of `schema` has, if any:
/// a table recorded by an earlier build, whose observations are narrower.
fn older_layout(schema: &arrow_schema::Schema) -> Option<u32> {
    let width = match schema.field_with_name("obs").ok()?.data_type() {
        arrow_schema::DataType::FixedSizeBinary(n) => usize::try_from(*n).ok()?,
        _ => return None,
    };
    (1..OBS_VERSION).find(|&v| obs_shape(v).is_some_and(|[rows, cols]| rows * cols == width))
}

/// Reads `path` whole and its footer, checking its columns (with the search labels if
/// `labelled`) and rows.
pub(super) fn open_part(
    path: &Path,
    rows: u64,
    max_bytes: u64,
    labelled: bool,
) -> Result<PartBytes, HarnessError> {
    let bytes = taisim_score::file::read_regular(path, max_bytes, "a decisions part of its rows")
        .map_err(HarnessError::io("cannot read", path))?;
    let bytes = Bytes::from(bytes);
    let meta = ArrowReaderMetadata::load(&bytes, ArrowReaderOptions::new())
        .map_err(HarnessError::parquet("cannot read", path))?;
    if meta.schema().fields() != schema(Table::Decisions, labelled).fields() {
        if meta.schema().fields() == schema(Table::Decisions, !labelled).fields() {
            return Err(bad(
                path,
                if labelled {
                    "it has no search labels, which its run's manifest says it records"
                } else {
                    "it has search labels, which its run's manifest says it does not record"
                },
            ));
        }
        if let Some(v) = older_layout(meta.schema()) {
            return Err(bad(
                path,
                format!("its observations are of layout version {v}; this build reads version {OBS_VERSION} ({OBS_CHANNELS} × {OBS_WIDTH}): record the table again with this build"),
            ));
        }
        return Err(bad(
            path,
            format!(
                "its columns are not those of a decisions table of observation version {OBS_VERSION} ({OBS_CHANNELS} × {OBS_WIDTH})"
            ),
        ));
    }
    let read_rows = meta.metadata().file_metadata().num_rows();
    if u64::try_from(read_rows).ok() != Some(rows) {
        return Err(bad(
            path,
            format!("it holds {read_rows} rows, {rows} were recorded"),
        ));
    }
    Ok(PartBytes {
        path: path.to_path_buf(),
        bytes,
        meta,
    })
}

/// Reads row group `index` of `part`: its small columns through Arrow, checked, and the
/// page layout of its wide columns.
pub(super) fn read_group(
    part: &PartBytes,
    p: usize,
    index: usize,
    seats: Option<DecisionSeats>,
    wide: Wide,
) -> Result<Group, HarnessError> {
    let path = &part.path;
    let meta = part.meta.metadata().row_group(index);
    let rows = usize::try_from(meta.num_rows()).map_err(|_| bad(path, "a negative row count"))?;
    let start = (0..index)
        .map(|g| part.meta.metadata().row_group(g).num_rows())
        .sum::<i64>();
    let start = usize::try_from(start).map_err(|_| bad(path, "a negative row count"))?;
    let labelled = part.meta.schema().fields().len() > leaf::SEARCH_ACTION;
    let mut leaves = vec![
        leaf::DEAL,
        leaf::STEP,
        leaf::SEAT,
        leaf::ACTION,
        leaf::REWARD,
        leaf::OBS_VERSION,
    ];
    if labelled {
        leaves.extend(leaf::SEARCH);
    }
    let projection = ProjectionMask::leaves(part.meta.parquet_schema(), leaves);
    let reader =
        ParquetRecordBatchReaderBuilder::new_with_metadata(part.bytes.clone(), part.meta.clone())
            .with_row_groups(vec![index])
            .with_projection(projection)
            .with_batch_size(rows.max(1))
            .build()
            .map_err(unreadable(path))?;
    let mut small = Small {
        search: labelled.then(SearchLabels::default),
        ..Small::default()
    };
    let mut keep: Option<Vec<bool>> = seats.map(|_| Vec::with_capacity(rows));
    for batch in reader {
        let batch = batch.map_err(unreadable(path))?;
        // The projected columns, in leaf order.
        let deal = batch.column(0).as_primitive::<UInt64Type>().values();
        let step = batch.column(1).as_primitive::<UInt32Type>().values();
        let seat = batch.column(2).as_primitive::<UInt8Type>().values();
        let action = batch.column(3).as_primitive::<UInt8Type>().values();
        let reward = batch.column(4).as_primitive::<Float32Type>().values();
        let versions = batch.column(5).as_primitive::<UInt8Type>();
        if let Some(v) = versions
            .values()
            .iter()
            .find(|&&v| u32::from(v) != OBS_VERSION)
        {
            return Err(bad(
                path,
                format!("its observations are of layout version {v}; this build reads version {OBS_VERSION}"),
            ));
        }
        if let Some(&s) = seat.iter().find(|&&s| s > 3) {
            return Err(bad(path, format!("seat {s} is not a seat (0 to 3)")));
        }
        if let Some(&a) = action
            .iter()
            .find(|&&a| usize::from(a) >= ACTION_SPACE_SIZE)
        {
            return Err(bad(
                path,
                format!("action index {a} is outside the action space"),
            ));
        }
        // A deal's settlement is a whole number of points: never NaN or infinite. Checked by
        // a fold the compiler vectorises, the row looked for only once one is known bad.
        if !reward.iter().fold(true, |ok, r| ok & r.is_finite()) {
            let i = reward.iter().position(|r| !r.is_finite()).unwrap_or(0);
            let row = start + keep.as_ref().map_or(small.seat.len(), Vec::len) + i;
            return Err(bad(
                path,
                format!(
                    "row {row}: its reward is {}, not a number of points",
                    reward[i]
                ),
            ));
        }
        let kept_before = keep.as_ref().map_or(0, Vec::len);
        match (&mut keep, seats) {
            (Some(keep), Some(wanted)) => {
                for i in 0..batch.num_rows() {
                    let k = wanted.contains(taisim_sim::Seat::new(seat[i]));
                    keep.push(k);
                    if k {
                        small.deal.push(deal[i]);
                        small.step.push(step[i]);
                        small.seat.push(seat[i]);
                        small.action.push(i64::from(action[i]));
                        small.reward.push(reward[i]);
                    }
                }
            }
            _ => {
                small.deal.extend_from_slice(deal);
                small.step.extend_from_slice(step);
                small.seat.extend_from_slice(seat);
                small.action.extend(action.iter().map(|&a| i64::from(a)));
                small.reward.extend_from_slice(reward);
            }
        }
        if let Some(search) = &mut small.search {
            let kept = keep.as_ref().map(|k| &k[kept_before..]);
            read_labels(path, &batch, kept, search)?;
        }
    }
    let read = keep.as_ref().map_or(small.seat.len(), Vec::len);
    if read != rows {
        return Err(bad(
            path,
            format!("row group {index} holds {read} rows, its footer says {rows}"),
        ));
    }
    let mut pages = [None, None];
    if wide == Wide::Pages {
        for (slot, &(column, width)) in pages.iter_mut().zip(&WIDE) {
            *slot = page_rows(part, meta.column(column), rows, width)?;
        }
    }
    Ok(Group {
        part: p,
        index,
        start,
        rows,
        small,
        keep,
        pages,
    })
}

/// Appends the search labels of `batch` (the projected columns, labels from the seventh on)
/// to `out`, only the rows `kept` marks if given: a null choice as −1, each per-action list
/// flat. A choice outside the action space is an error naming the file.
fn read_labels(
    path: &Path,
    batch: &arrow_array::RecordBatch,
    kept: Option<&[bool]>,
    out: &mut SearchLabels,
) -> Result<(), HarnessError> {
    let action = batch.column(6).as_primitive::<UInt8Type>();
    let list = |c: usize| {
        let l = batch.column(c).as_fixed_size_list();
        (l.value_length() as usize == ACTION_SPACE_SIZE && l.null_count() == 0)
            .then(|| l.values().clone())
            .ok_or_else(|| {
                bad(
                    path,
                    format!(
                        "its {} column is not {ACTION_SPACE_SIZE} values a row",
                        batch.schema().field(c).name()
                    ),
                )
            })
    };
    let (mean, advantage, rollouts) = (list(7)?, list(8)?, list(9)?);
    let mean = mean.as_primitive::<Float32Type>().values();
    let advantage = advantage.as_primitive::<Float32Type>().values();
    let rollouts = rollouts.as_primitive::<UInt32Type>().values();
    for i in 0..batch.num_rows() {
        if kept.is_some_and(|k| !k[i]) {
            continue;
        }
        let a = action.is_valid(i).then(|| action.value(i));
        if let Some(a) = a.filter(|&a| usize::from(a) >= ACTION_SPACE_SIZE) {
            return Err(bad(
                path,
                format!("search action index {a} is outside the action space"),
            ));
        }
        out.action.push(a.map_or(-1, i64::from));
        let row = i * ACTION_SPACE_SIZE..(i + 1) * ACTION_SPACE_SIZE;
        out.mean.extend_from_slice(&mean[row.clone()]);
        out.advantage.extend_from_slice(&advantage[row.clone()]);
        out.rollouts.extend_from_slice(&rollouts[row]);
    }
    Ok(())
}

/// The rows of each data page of `chunk`, if it is what the page path reads: required
/// fixed-size binaries of `width` bytes in PLAIN data pages, no dictionary; `None` if not.
fn page_rows(
    part: &PartBytes,
    chunk: &ColumnChunkMetaData,
    rows: usize,
    width: usize,
) -> Result<Option<Vec<usize>>, HarnessError> {
    let descr = chunk.column_descr();
    let plain = chunk
        .encodings()
        .all(|e| matches!(e, Encoding::PLAIN | Encoding::RLE));
    if !plain
        || chunk.column_type() != PhysicalType::FIXED_LEN_BYTE_ARRAY
        || usize::try_from(descr.type_length()).ok() != Some(width)
        || descr.max_def_level() != 0
        || descr.max_rep_level() != 0
    {
        return Ok(None);
    }
    let (mut reader, _) = page_reader(part, chunk, rows)?;
    let mut out = Vec::new();
    let mut total = 0usize;
    loop {
        let page = match reader.peek_next_page() {
            Ok(Some(page)) => page,
            Ok(None) => break,
            Err(e) => return Err(unreadable(&part.path)(e)),
        };
        let Some(n) = page.num_levels.or(page.num_rows).filter(|_| !page.is_dict) else {
            return Ok(None);
        };
        total = total.saturating_add(n);
        out.push(n);
        reader.skip_next_page().map_err(unreadable(&part.path))?;
    }
    if total != rows {
        return Err(bad(
            &part.path,
            format!(
                "column {} of row group holds {total} values in its pages, {rows} rows in its footer",
                descr.name()
            ),
        ));
    }
    Ok(Some(out))
}

/// A reader of the pages of column chunk `chunk` of `part` (`rows` rows), and whether they
/// come zstd-compressed: a zstd chunk is described to the reader as uncompressed, so that its
/// pages come as stored, for `pages::read_pages` to decompress in place (and [`page_rows`], which
/// reads only their headers, makes no codec). Other chunks' pages come decompressed.
pub(super) fn page_reader(
    part: &PartBytes,
    chunk: &ColumnChunkMetaData,
    rows: usize,
) -> Result<(SerializedPageReader<Bytes>, bool), HarnessError> {
    let zstd = matches!(chunk.compression(), Compression::ZSTD(_));
    let stored;
    let described = if zstd {
        stored = chunk
            .clone()
            .into_builder()
            .set_compression(Compression::UNCOMPRESSED)
            .build()
            .map_err(unreadable(&part.path))?;
        &stored
    } else {
        chunk
    };
    let reader = SerializedPageReader::new(Arc::new(part.bytes.clone()), described, rows, None)
        .map_err(unreadable(&part.path))?;
    Ok((reader, zstd))
}
