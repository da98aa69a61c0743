//! Reading a run's decisions table back into flat arrays ([`load_decisions`]), fast enough
//! that loading a behaviour-cloning dataset costs less than a pass of training over it.
//!
//! Nearly all of a decision's bytes are its observation (2,176 bytes) and mask (144), stored
//! as PLAIN fixed-size binaries in zstd pages. Those two columns are read page by page: each
//! page is decompressed straight into its place in one preallocated array, the pages of every
//! row group shared out over the threads, with no per-value decoding. The small
//! columns (ids, seat, action, reward, layout version) go through the Arrow reader. A column
//! chunk laid out otherwise (a file rewritten by another tool with dictionary pages, say) is
//! read through the Arrow reader too, into the same place: slower, never refused.

use std::ops::Range;
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
use parquet::column::page::{Page, PageReader};
use parquet::file::metadata::ColumnChunkMetaData;
use parquet::file::serialized_reader::SerializedPageReader;
use rayon::prelude::*;
use taisim_agents::{obs_shape, ACTION_SPACE_SIZE, OBS_CHANNELS, OBS_LEN, OBS_VERSION, OBS_WIDTH};

use crate::decisions::{schema, DecisionSeats};
use crate::error::HarnessError;
use crate::read::Run;

/// A run's decisions as flat arrays, one entry (or row of entries) per decision, in part
/// order and, within a part, in the order they were taken.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Decisions {
    pub rows: usize,
    /// `rows × OBS_LEN` numerators.
    pub obs: Vec<u8>,
    /// `rows × ACTION_SPACE_SIZE`, 0 or 1.
    pub mask: Vec<u8>,
    pub action: Vec<i64>,
    pub reward: Vec<f32>,
    pub seat: Vec<u8>,
    pub deal: Vec<u64>,
    pub step: Vec<u32>,
    pub obs_version: u32,
    pub obs_channels: usize,
}

/// The table's leaf columns, as [`schema`] orders them.
mod leaf {
    pub const DEAL: usize = 0;
    pub const STEP: usize = 1;
    pub const SEAT: usize = 2;
    pub const OBS: usize = 3;
    pub const MASK: usize = 4;
    pub const ACTION: usize = 5;
    pub const REWARD: usize = 6;
    pub const OBS_VERSION: usize = 7;
}

/// The wide columns read page by page: (leaf, bytes per row).
const WIDE: [(usize, usize); 2] = [(leaf::OBS, OBS_LEN), (leaf::MASK, ACTION_SPACE_SIZE)];

/// Output bytes one task fills at least (whole pages): large enough that opening a page
/// reader and skipping to the task's first page cost nothing beside it, small enough that
/// a row group of 128 Ki rows (256 MiB of observations) makes dozens of tasks for the
/// threads to share.
const TASK_BYTES: usize = 4 << 20;

/// How the wide columns are read: page by page ([`load_decisions`]), or every chunk through
/// the Arrow reader (the slow path, kept as the reference the tests compare with).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(not(test), allow(dead_code))]
enum Wide {
    Pages,
    Arrow,
}

/// Reads the decisions table of the run in `dir`, only the rows of `seats` if given.
/// Errors name the problem: no such run, a run written without `--decisions`, a part
/// that is missing, unreadable, damaged or of another layout.
pub fn load_decisions(dir: &Path, seats: Option<DecisionSeats>) -> Result<Decisions, HarnessError> {
    load(dir, seats, Wide::Pages, None)
}

/// [`load_decisions`] with the observations and masks written into the caller's `obs`
/// (`rows × OBS_LEN`) and `mask` (`rows × ACTION_SPACE_SIZE`) instead of fresh vectors,
/// which are left empty in the result. A training loop that reloads a run into the arrays
/// of its previous load saves the kernel's faulting-in of fresh memory, two fifths of a
/// load's CPU time. Slices of another number of rows than the table's are a usage error, raised before
/// any byte of them is written.
pub fn load_decisions_into(
    dir: &Path,
    seats: Option<DecisionSeats>,
    obs: &mut [u8],
    mask: &mut [u8],
) -> Result<Decisions, HarnessError> {
    load(dir, seats, Wide::Pages, Some((obs, mask)))
}

/// A part file read whole (its compressed size is about 75 bytes a decision) with its footer.
struct PartBytes {
    path: PathBuf,
    bytes: Bytes,
    meta: ArrowReaderMetadata,
}

/// One row group of one part: the small columns (already filtered by seat), which rows are
/// kept, and for each wide column the rows of its data pages, or `None` when the chunk is
/// not plain pages and goes through the Arrow reader.
struct Group {
    part: usize,
    index: usize,
    rows: usize,
    small: Small,
    /// `None`: every row is kept.
    keep: Option<Vec<bool>>,
    pages: [Option<Vec<usize>>; 2],
}

#[derive(Default)]
struct Small {
    deal: Vec<u64>,
    step: Vec<u32>,
    seat: Vec<u8>,
    action: Vec<i64>,
    reward: Vec<f32>,
}

fn bad(path: &Path, message: impl Into<String>) -> HarnessError {
    HarnessError::Corrupt {
        path: path.to_path_buf(),
        message: message.into(),
    }
}

/// A Parquet or Arrow error reading `path`.
fn unreadable<E: std::fmt::Display>(path: &Path) -> impl Fn(E) -> HarnessError + '_ {
    move |e| HarnessError::Parquet {
        action: "cannot read",
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// The caller's observation and mask slices ([`load_decisions_into`]).
type Dest<'a> = (&'a mut [u8], &'a mut [u8]);

fn load(
    dir: &Path,
    seats: Option<DecisionSeats>,
    wide: Wide,
    dest: Option<Dest<'_>>,
) -> Result<Decisions, HarnessError> {
    let run = Run::open(dir)?;
    if run.spec().decisions.is_none() {
        return Err(HarnessError::Usage(format!(
            "the run in {} has no decisions table: it was simulated without --decisions",
            dir.display()
        )));
    }
    let parts: Vec<PartBytes> = run
        .parts
        .par_iter()
        .map(|p| {
            let record = p.decisions.as_ref().ok_or_else(|| {
                bad(
                    &run.dir.join("manifest.json"),
                    format!("part {} records no decisions file", p.index),
                )
            })?;
            // No row takes 4 KB even uncompressed (2,176 observation and 144 mask bytes):
            // a file larger than that is not a part of this table.
            let limit = record.rows.saturating_mul(4096).saturating_add(1 << 20);
            open_part(&run.path(record), record.rows, limit)
        })
        .collect::<Result<_, _>>()?;
    let seats = seats.filter(|&s| s != DecisionSeats::ALL);
    let units: Vec<(usize, usize)> = parts
        .iter()
        .enumerate()
        .flat_map(|(p, part)| (0..part.meta.metadata().num_row_groups()).map(move |g| (p, g)))
        .collect();
    let groups: Vec<Group> = units
        .into_par_iter()
        .map(|(p, g)| read_group(&parts[p], p, g, seats, wide))
        .collect::<Result<_, _>>()?;

    let rows: usize = groups.iter().map(|g| g.small.seat.len()).sum();
    let mut out = Decisions {
        rows,
        obs_version: OBS_VERSION,
        obs_channels: OBS_CHANNELS,
        ..Decisions::default()
    };
    let (obs, mask) = match dest {
        Some((obs, mask)) => {
            if obs.len() != rows * OBS_LEN || mask.len() != rows * ACTION_SPACE_SIZE {
                return Err(HarnessError::Usage(format!(
                    "the arrays given hold {} observations and {} masks; the decisions table of {} has {rows} rows",
                    obs.len() / OBS_LEN,
                    mask.len() / ACTION_SPACE_SIZE,
                    dir.display()
                )));
            }
            (obs, mask)
        }
        None => {
            out.obs = vec![0; rows * OBS_LEN];
            out.mask = vec![0; rows * ACTION_SPACE_SIZE];
            (&mut out.obs[..], &mut out.mask[..])
        }
    };
    let mut tasks = Vec::new();
    for (column, dest) in [obs, mask].into_iter().enumerate() {
        let width = WIDE[column].1;
        let mut rest = dest;
        for (g, group) in groups.iter().enumerate() {
            let kept = group.small.seat.len();
            let (mine, tail) = std::mem::take(&mut rest).split_at_mut(kept * width);
            rest = tail;
            plan(&mut tasks, g, group, column, mine);
        }
    }
    // The small columns are joined by one thread while the others start on the wide ones
    // (it is a few percent of a load that would otherwise run alone at the end).
    let (wide, small) = rayon::join(
        || {
            tasks
                .into_par_iter()
                .try_for_each(|t| t.run(&groups, &parts))
        },
        || join_small(&groups, rows),
    );
    wide?;
    out.deal = small.deal;
    out.step = small.step;
    out.seat = small.seat;
    out.action = small.action;
    out.reward = small.reward;
    Ok(out)
}

/// The small columns of `groups` (`rows` rows in all) end to end.
fn join_small(groups: &[Group], rows: usize) -> Small {
    let mut out = Small {
        deal: Vec::with_capacity(rows),
        step: Vec::with_capacity(rows),
        seat: Vec::with_capacity(rows),
        action: Vec::with_capacity(rows),
        reward: Vec::with_capacity(rows),
    };
    for g in groups {
        let s = &g.small;
        out.deal.extend_from_slice(&s.deal);
        out.step.extend_from_slice(&s.step);
        out.seat.extend_from_slice(&s.seat);
        out.action.extend_from_slice(&s.action);
        out.reward.extend_from_slice(&s.reward);
    }
    out
}

/// Asks the kernel to map the whole pages of `dest` before it is filled: one system call per
/// task instead of one trap per 4 KiB page (2 GB of observations a million decisions are half
/// a million pages, whose faults were half the load's time; this takes a quarter off them).
/// Where the kernel cannot (before Linux 5.14, or pages larger than 4 KiB) the pages fault
/// in as usual.
///
/// Not 2 MiB pages (`MADV_HUGEPAGE`), though they take 512 times fewer faults: the VM
/// measured reports its free 2 MiB blocks to the host, which takes them back, so a huge page
/// is faulted in again on the host when used. Loads into huge pages cost 1.3 CPU-seconds per
/// million decisions when they reused pages freed a moment before, but 3.3 to 6.2 otherwise
/// (a first load, or one a second after the last), against 1.7 to 2.1 in 4 KiB pages, whose
/// free blocks are scattered and not given back (BENCHMARKS.md, 2026-11-24).
fn prefault(dest: &mut [u8]) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = (dest.as_mut_ptr() as usize).next_multiple_of(PAGE);
        let end = (dest.as_mut_ptr() as usize + dest.len()) / PAGE * PAGE;
        // Arrays already mapped (those of an earlier load, given back with `out=`) are
        // left as they are: populating present pages still walks them one by one, 6% of
        // such a load. Their first and last pages tell, as the kernel maps a fresh
        // allocation only where it is written.
        if end > start && !(resident(start) && resident(end - PAGE)) {
            // SAFETY: the range is whole pages inside `dest`, which this thread holds
            // exclusively. MADV_POPULATE_WRITE faults them in as a write would, leaving
            // what they hold unchanged; failure only means they fault in later, so the
            // result is ignored.
            unsafe {
                libc::madvise(
                    start as *mut libc::c_void,
                    end - start,
                    libc::MADV_POPULATE_WRITE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = dest;
}

/// Whether the 4 KiB page at `page` (page-aligned, inside memory this process owns) is
/// mapped in; `false` where the kernel cannot tell.
#[cfg(target_os = "linux")]
fn resident(page: usize) -> bool {
    let mut vec = [0u8; 1];
    // SAFETY: mincore only reads the process's page tables for the one page at `page`, and
    // writes one byte for it into `vec`, which has room for it. An error (an address not
    // mapped) is answered `false`.
    let ok = unsafe { libc::mincore(page as *mut libc::c_void, 4096, vec.as_mut_ptr()) } == 0;
    ok && vec[0] & 1 == 1
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

/// Reads `path` whole and its footer, checking its columns and rows.
fn open_part(path: &Path, rows: u64, max_bytes: u64) -> Result<PartBytes, HarnessError> {
    let bytes = taisim_score::file::read_regular(path, max_bytes, "a decisions part of its rows")
        .map_err(HarnessError::io("cannot read", path))?;
    let bytes = Bytes::from(bytes);
    let meta = ArrowReaderMetadata::load(&bytes, ArrowReaderOptions::new())
        .map_err(HarnessError::parquet("cannot read", path))?;
    if meta.schema().fields() != schema().fields() {
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
fn read_group(
    part: &PartBytes,
    p: usize,
    index: usize,
    seats: Option<DecisionSeats>,
    wide: Wide,
) -> Result<Group, HarnessError> {
    let path = &part.path;
    let meta = part.meta.metadata().row_group(index);
    let rows = usize::try_from(meta.num_rows()).map_err(|_| bad(path, "a negative row count"))?;
    let projection = ProjectionMask::leaves(
        part.meta.parquet_schema(),
        [
            leaf::DEAL,
            leaf::STEP,
            leaf::SEAT,
            leaf::ACTION,
            leaf::REWARD,
            leaf::OBS_VERSION,
        ],
    );
    let reader =
        ParquetRecordBatchReaderBuilder::new_with_metadata(part.bytes.clone(), part.meta.clone())
            .with_row_groups(vec![index])
            .with_projection(projection)
            .with_batch_size(rows.max(1))
            .build()
            .map_err(unreadable(path))?;
    let mut small = Small::default();
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
        rows,
        small,
        keep,
        pages,
    })
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

/// A share of one wide column of one row group, and the slice of the output it fills.
struct Task<'a> {
    group: usize,
    /// Index into [`WIDE`].
    column: usize,
    /// The data pages it reads (all of them through Arrow), and the first one's first row.
    pages: Range<usize>,
    first_row: usize,
    dest: &'a mut [u8],
}

/// Shares out the wide column `column` of group `g` (output `dest`) into tasks of whole
/// pages of at least [`TASK_BYTES`].
fn plan<'a>(tasks: &mut Vec<Task<'a>>, g: usize, group: &Group, column: usize, dest: &'a mut [u8]) {
    let width = WIDE[column].1;
    let Some(pages) = &group.pages[column] else {
        tasks.push(Task {
            group: g,
            column,
            pages: 0..0,
            first_row: 0,
            dest,
        });
        return;
    };
    let kept = |rows: Range<usize>| {
        group
            .keep
            .as_ref()
            .map_or(rows.len(), |k| k[rows].iter().filter(|&&k| k).count())
    };
    let mut rest = dest;
    let (mut start, mut first_row, mut row) = (0, 0, 0);
    for (i, &n) in pages.iter().enumerate() {
        row += n;
        let last = i + 1 == pages.len();
        if (row - first_row) * width >= TASK_BYTES || last {
            let len = kept(first_row..row) * width;
            let (mine, tail) = std::mem::take(&mut rest).split_at_mut(len);
            rest = tail;
            tasks.push(Task {
                group: g,
                column,
                pages: start..i + 1,
                first_row,
                dest: mine,
            });
            start = i + 1;
            first_row = row;
        }
    }
}

impl Task<'_> {
    fn run(self, groups: &[Group], parts: &[PartBytes]) -> Result<(), HarnessError> {
        let group = &groups[self.group];
        let part = &parts[group.part];
        let keep = group.keep.as_deref();
        prefault(self.dest);
        match &group.pages[self.column] {
            Some(pages) => read_pages(
                part,
                group,
                self.column,
                self.pages.start,
                &pages[self.pages.clone()],
                self.first_row,
                keep,
                self.dest,
            )?,
            None => read_arrow(part, group, self.column, keep, self.dest)?,
        }
        if WIDE[self.column].0 == leaf::MASK {
            // The largest byte by a fold the compiler vectorises (`find` goes byte by byte).
            let top = self.dest.iter().fold(0u8, |m, &b| m.max(b));
            if top > 1 {
                return Err(bad(&part.path, format!("a mask byte is {top}, not 0 or 1")));
            }
        }
        Ok(())
    }
}

/// Decompresses the data pages `skip..skip + pages.len()` of wide column `column` of
/// `group` (their rows `pages`, the first row `first_row`) and copies their kept rows into
/// `out`, which they fill exactly.
///
/// zstd pages (what `simulate` writes) are taken from the page reader as stored and
/// decompressed here, each straight into its place in `out` when every row is kept: through
/// parquet's codec each would be decompressed into a fresh buffer and then copied.
#[allow(clippy::too_many_arguments)]
fn read_pages(
    part: &PartBytes,
    group: &Group,
    column: usize,
    skip: usize,
    pages: &[usize],
    first_row: usize,
    keep: Option<&[bool]>,
    out: &mut [u8],
) -> Result<(), HarnessError> {
    let path = &part.path;
    let (leaf, width) = WIDE[column];
    let chunk = part.meta.metadata().row_group(group.index).column(leaf);
    let (mut reader, zstd) = page_reader(part, chunk, group.rows)?;
    // The thread's decompressor, put back when the pages are read (one made per task was
    // half a percent of a load).
    let mut zstd = if zstd {
        Some(match ZSTD.take() {
            Some(zstd) => zstd,
            None => zstd::bulk::Decompressor::new()
                .map_err(HarnessError::io("cannot decompress", path))?,
        })
    } else {
        None
    };
    for _ in 0..skip {
        reader.skip_next_page().map_err(unreadable(path))?;
    }
    // A page's values when some rows are dropped (seats): decompressed here first.
    let mut scratch = Vec::new();
    let mut at = 0usize;
    let mut row = first_row;
    for &n in pages {
        let page = reader
            .get_next_page()
            .map_err(unreadable(path))?
            .ok_or_else(|| bad(path, "a column chunk ends before its pages do"))?;
        let (values, count, encoding, compressed) = match page {
            Page::DataPage {
                buf,
                num_values,
                encoding,
                ..
            } => (buf, num_values, encoding, true),
            Page::DataPageV2 {
                buf,
                num_values,
                encoding,
                def_levels_byte_len,
                rep_levels_byte_len,
                is_compressed,
                ..
            } => {
                // A required column has no levels; skip whatever a writer put there (levels
                // are stored uncompressed).
                let levels =
                    (def_levels_byte_len as usize).saturating_add(rep_levels_byte_len as usize);
                if levels > buf.len() {
                    return Err(bad(path, "a data page's levels are longer than the page"));
                }
                (buf.slice(levels..), num_values, encoding, is_compressed)
            }
            Page::DictionaryPage { .. } => {
                return Err(bad(path, "a dictionary page where only data pages were"));
            }
        };
        let len = n * width;
        let misshapen = |got: &dyn std::fmt::Display| {
            bad(
                path,
                format!(
                    "a data page of column {} holds {got} for {count} values ({encoding}), not {n} values of {width} bytes",
                    chunk.column_descr().name(),
                ),
            )
        };
        if encoding != Encoding::PLAIN || count as usize != n {
            return Err(misshapen(&format_args!("{} bytes", values.len())));
        }
        let codec = zstd.as_mut().filter(|_| compressed);
        let room = out.len() - at;
        match keep {
            None if len <= room => {
                unpack(&values, codec, &mut out[at..at + len]).map_err(|e| misshapen(&e))?;
                at += len;
            }
            None => return Err(bad(path, "its pages hold more rows than its row groups")),
            Some(keep) => {
                let values: &[u8] = match codec {
                    Some(_) => {
                        scratch.resize(len, 0);
                        unpack(&values, codec, &mut scratch).map_err(|e| misshapen(&e))?;
                        &scratch
                    }
                    None if values.len() == len => &values,
                    None => return Err(misshapen(&format_args!("{} bytes", values.len()))),
                };
                for (r, value) in values.chunks_exact(width).enumerate() {
                    if keep[row + r] {
                        if out.len() - at < width {
                            return Err(bad(path, "its pages hold more rows than its row groups"));
                        }
                        out[at..at + width].copy_from_slice(value);
                        at += width;
                    }
                }
            }
        }
        row += n;
    }
    if at != out.len() {
        return Err(bad(path, "its pages hold fewer rows than its row groups"));
    }
    if zstd.is_some() {
        ZSTD.set(zstd);
    }
    Ok(())
}

thread_local! {
    /// Each thread's zstd decompressor for [`read_pages`], between uses.
    static ZSTD: std::cell::Cell<Option<zstd::bulk::Decompressor<'static>>> =
        const { std::cell::Cell::new(None) };
}

/// A reader of the pages of column chunk `chunk` of `part` (`rows` rows), and whether they
/// come zstd-compressed: a zstd chunk is described to the reader as uncompressed, so that its
/// pages come as stored, for [`read_pages`] to decompress in place (and [`page_rows`], which
/// reads only their headers, makes no codec). Other chunks' pages come decompressed.
fn page_reader(
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

/// Writes a page's values into `dest`, which they must fill exactly: decompressed by `zstd`
/// if given, else copied as stored. The error says what the page held instead.
fn unpack(
    stored: &[u8],
    zstd: Option<&mut zstd::bulk::Decompressor<'_>>,
    dest: &mut [u8],
) -> Result<(), String> {
    match zstd {
        None if stored.len() == dest.len() => {
            dest.copy_from_slice(stored);
            Ok(())
        }
        None => Err(format!("{} bytes", stored.len())),
        Some(zstd) => match zstd.decompress_to_buffer(stored, dest) {
            Ok(written) if written == dest.len() => Ok(()),
            Ok(written) => Err(format!("{written} bytes")),
            // Too small a destination included: more bytes than the page's rows take.
            Err(e) => Err(format!("zstd data that does not decompress ({e})")),
        },
    }
}

/// Reads wide column `column` of `group` through the Arrow reader into `out` (its kept rows).
fn read_arrow(
    part: &PartBytes,
    group: &Group,
    column: usize,
    keep: Option<&[bool]>,
    out: &mut [u8],
) -> Result<(), HarnessError> {
    let path = &part.path;
    let (leaf, width) = WIDE[column];
    let reader =
        ParquetRecordBatchReaderBuilder::new_with_metadata(part.bytes.clone(), part.meta.clone())
            .with_row_groups(vec![group.index])
            .with_projection(ProjectionMask::leaves(part.meta.parquet_schema(), [leaf]))
            .with_batch_size(crate::read::READ_BATCH_ROWS)
            .build()
            .map_err(unreadable(path))?;
    let mut at = 0usize;
    let mut row = 0usize;
    for batch in reader {
        let batch = batch.map_err(unreadable(path))?;
        let values = batch.column(0).as_fixed_size_binary();
        if values.null_count() > 0 || values.value_length() as usize != width {
            return Err(bad(path, "null or misshapen observations or masks"));
        }
        let n = values.len();
        if row + n > group.rows {
            return Err(bad(path, "a column holds more rows than its row group"));
        }
        match keep {
            None => {
                let data = &values.value_data()[..n * width];
                out[at..at + data.len()].copy_from_slice(data);
                at += data.len();
            }
            Some(keep) => {
                for i in 0..n {
                    if keep[row + i] {
                        out[at..at + width].copy_from_slice(values.value(i));
                        at += width;
                    }
                }
            }
        }
        row += n;
    }
    if row != group.rows {
        return Err(bad(path, "a column holds fewer rows than its row group"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::{simulate, RunOptions};
    use crate::spec::RunRequest;
    use arrow_array::{ArrayRef, FixedSizeBinaryArray, RecordBatch, UInt8Array};

    /// A run of `deals` deals of four different agents with every seat's decisions, in parts
    /// of `part_size` deals.
    fn run(dir: &Path, deals: u64, part_size: u64) -> PathBuf {
        let out = dir.join("run");
        let spec = RunRequest {
            deals: Some(deals),
            seed: Some(11),
            agents: Some("greedy,random,defensive,greedy".into()),
            part_size: Some(part_size),
            decisions: Some(DecisionSeats::ALL),
            ..RunRequest::default()
        }
        .spec(&out, false)
        .unwrap();
        simulate(&spec, &out, &RunOptions::default()).unwrap();
        out
    }

    fn part_file(out: &Path, part: usize) -> PathBuf {
        out.join("decisions")
            .join(format!("part-{part:05}.parquet"))
    }

    /// The page path gives exactly what the Arrow reader gives, every seat and each filter,
    /// over several parts and pages.
    #[test]
    fn pages_read_the_same_rows_as_the_arrow_reader() {
        let dir = tempfile::tempdir().unwrap();
        let out = run(dir.path(), 160, 70);
        let all = load(&out, None, Wide::Pages, None).unwrap();
        assert_eq!(all, load(&out, None, Wide::Arrow, None).unwrap());
        assert!(all.rows > 5_000, "{} rows", all.rows);
        assert_eq!(all.obs.len(), all.rows * OBS_LEN);
        assert_eq!(all.mask.len(), all.rows * ACTION_SPACE_SIZE);
        for seats in ["E", "S,N", "E,S,W"] {
            let seats: DecisionSeats = seats.parse().unwrap();
            let pages = load(&out, Some(seats), Wide::Pages, None).unwrap();
            assert_eq!(pages, load(&out, Some(seats), Wide::Arrow, None).unwrap());
            // Recomputed from the whole table: the rows of those seats, in order.
            let rows: Vec<usize> = (0..all.rows)
                .filter(|&i| seats.contains(taisim_sim::Seat::new(all.seat[i])))
                .collect();
            assert!(!rows.is_empty() && rows.len() < all.rows);
            assert_eq!(pages.rows, rows.len());
            for (k, &i) in rows.iter().enumerate() {
                assert_eq!(
                    pages.obs[k * OBS_LEN..][..OBS_LEN],
                    all.obs[i * OBS_LEN..][..OBS_LEN]
                );
                assert_eq!(
                    pages.mask[k * ACTION_SPACE_SIZE..][..ACTION_SPACE_SIZE],
                    all.mask[i * ACTION_SPACE_SIZE..][..ACTION_SPACE_SIZE]
                );
                assert_eq!(
                    (
                        pages.deal[k],
                        pages.step[k],
                        pages.action[k],
                        pages.reward[k]
                    ),
                    (all.deal[i], all.step[i], all.action[i], all.reward[i])
                );
            }
        }
        // Every row's action is legal in its mask, and every mask offers a real choice.
        for i in 0..all.rows {
            let mask = &all.mask[i * ACTION_SPACE_SIZE..][..ACTION_SPACE_SIZE];
            assert_eq!(mask[all.action[i] as usize], 1, "row {i}");
            assert!(mask.iter().filter(|&&b| b == 1).count() >= 2, "row {i}");
        }
    }

    /// Reading into the caller's arrays (dirty from an earlier load of other rows) gives the
    /// same rows as reading into fresh ones; arrays of another size are refused untouched.
    #[test]
    fn loading_into_given_arrays_gives_the_same_rows() {
        let dir = tempfile::tempdir().unwrap();
        let out = run(dir.path(), 90, 40);
        let all = load_decisions(&out, None).unwrap();
        let east: DecisionSeats = "E".parse().unwrap();
        let some = load_decisions(&out, Some(east)).unwrap();
        let mut obs = vec![0xa5; some.rows * OBS_LEN];
        let mut mask = vec![0xa5; some.rows * ACTION_SPACE_SIZE];
        let small = load_decisions_into(&out, Some(east), &mut obs, &mut mask).unwrap();
        assert_eq!((obs, mask), (some.obs.clone(), some.mask.clone()));
        assert!(small.obs.is_empty() && small.mask.is_empty());
        assert_eq!(
            Decisions {
                obs: some.obs.clone(),
                mask: some.mask.clone(),
                ..small
            },
            some
        );
        // The same arrays, one row short or long for the whole table, are refused by rows.
        for rows in [all.rows - 1, all.rows + 1] {
            let mut obs = vec![7; rows * OBS_LEN];
            let mut mask = vec![7; rows * ACTION_SPACE_SIZE];
            let e = load_decisions_into(&out, None, &mut obs, &mut mask).unwrap_err();
            assert!(matches!(e, HarnessError::Usage(_)), "{e}");
            assert!(
                e.to_string().contains(&format!("hold {rows} observations"))
                    && e.to_string().contains(&format!("{} rows", all.rows)),
                "{e}"
            );
            assert!(obs.iter().chain(&mask).all(|&b| b == 7));
        }
        let mut obs = vec![0; all.rows * OBS_LEN];
        let mut mask = vec![0; all.rows * ACTION_SPACE_SIZE + 1];
        let e = load_decisions_into(&out, None, &mut obs, &mut mask).unwrap_err();
        assert!(matches!(e, HarnessError::Usage(_)), "{e}");
        let mut mask = vec![0; all.rows * ACTION_SPACE_SIZE];
        load_decisions_into(&out, None, &mut obs, &mut mask).unwrap();
        assert_eq!((obs, mask), (all.obs, all.mask));
    }

    /// A row group of many pages is shared out over several tasks, each filling its own
    /// slice, and together they cover the output exactly.
    #[test]
    fn a_row_group_is_shared_out_in_whole_pages() {
        let dir = tempfile::tempdir().unwrap();
        let out = run(dir.path(), 400, 400);
        let part = open_part(
            &part_file(&out, 0),
            load(&out, None, Wide::Pages, None).unwrap().rows as u64,
            u64::MAX,
        )
        .unwrap();
        let group = read_group(&part, 0, 0, None, Wide::Pages).unwrap();
        let pages = group.pages[0].as_ref().unwrap();
        assert!(pages.len() > 2, "{} pages", pages.len());
        assert_eq!(pages.iter().sum::<usize>(), group.rows);
        let mut dest = vec![0u8; group.rows * OBS_LEN];
        let mut tasks = Vec::new();
        plan(&mut tasks, 0, &group, 0, &mut dest);
        assert!(tasks.len() > 1, "{} tasks", tasks.len());
        let covered: usize = tasks.iter().map(|t| t.dest.len()).sum();
        assert_eq!(covered, group.rows * OBS_LEN);
        for pair in tasks.windows(2) {
            assert_eq!(pair[0].pages.end, pair[1].pages.start);
        }
    }

    fn part_rows(out: &Path, part: usize) -> u64 {
        let bytes = Bytes::from(std::fs::read(part_file(out, part)).unwrap());
        let meta = ArrowReaderMetadata::load(&bytes, ArrowReaderOptions::new()).unwrap();
        meta.metadata().file_metadata().num_rows() as u64
    }

    /// The record batches of the part file `bytes`.
    fn batches(bytes: &[u8]) -> Vec<RecordBatch> {
        ParquetRecordBatchReaderBuilder::try_new(Bytes::from(bytes.to_vec()))
            .unwrap()
            .build()
            .unwrap()
            .map(Result::unwrap)
            .collect()
    }

    /// A part file of `schema` holding the batches of `columns`, written with `props`.
    fn write_batches(
        schema: arrow_schema::SchemaRef,
        props: parquet::file::properties::WriterProperties,
        columns: impl IntoIterator<Item = Vec<ArrayRef>>,
    ) -> Vec<u8> {
        let mut file = Vec::new();
        let mut writer =
            parquet::arrow::ArrowWriter::try_new(&mut file, schema.clone(), Some(props)).unwrap();
        for c in columns {
            writer
                .write(&RecordBatch::try_new(schema.clone(), c).unwrap())
                .unwrap();
        }
        writer.close().unwrap();
        file
    }

    /// The part file `bytes` written again with `props`, its last batch's columns changed by
    /// `edit`.
    fn rewrite(
        bytes: &[u8],
        props: parquet::file::properties::WriterProperties,
        edit: impl Fn(&mut [ArrayRef]),
    ) -> Vec<u8> {
        let batches = batches(bytes);
        let last = batches.len() - 1;
        let columns = batches.iter().enumerate().map(|(i, b)| {
            let mut columns = b.columns().to_vec();
            if i == last {
                edit(&mut columns);
            }
            columns
        });
        write_batches(schema(), props, columns)
    }

    /// Pages stored otherwise than `simulate` writes them (uncompressed, data pages v2 with or
    /// without compression) still go the page path and read the same rows as the Arrow
    /// reader, every row and a seat's.
    #[test]
    fn pages_stored_otherwise_read_the_same() {
        use parquet::file::properties::WriterVersion;
        let dir = tempfile::tempdir().unwrap();
        let out = run(dir.path(), 90, 40);
        let path = part_file(&out, 1);
        let bytes = std::fs::read(&path).unwrap();
        let all = load_decisions(&out, None).unwrap();
        let rows = part_rows(&out, 1);
        let east: DecisionSeats = "E".parse().unwrap();
        let some = load_decisions(&out, Some(east)).unwrap();
        for (version, compression) in [
            (WriterVersion::PARQUET_1_0, Compression::UNCOMPRESSED),
            (WriterVersion::PARQUET_2_0, Compression::UNCOMPRESSED),
            (
                WriterVersion::PARQUET_2_0,
                Compression::ZSTD(Default::default()),
            ),
        ] {
            let props = crate::decisions::writer_properties()
                .into_builder()
                .set_writer_version(version)
                .set_compression(compression)
                .build();
            std::fs::write(&path, rewrite(&bytes, props, |_| ())).unwrap();
            let part = open_part(&path, rows, u64::MAX).unwrap();
            let chunk = part.meta.metadata().row_group(0).column(leaf::OBS);
            assert_eq!(chunk.compression(), compression);
            assert!(read_group(&part, 1, 0, None, Wide::Pages).unwrap().pages[0].is_some());
            assert_eq!(
                load_decisions(&out, None).unwrap(),
                all,
                "{version:?} {compression}"
            );
            let got = load_decisions(&out, Some(east)).unwrap();
            assert_eq!(got, some, "{version:?} {compression}");
            assert_eq!(got, load(&out, Some(east), Wide::Arrow, None).unwrap());
        }
    }

    /// `resident` tells a page written from one never touched, in a fresh allocation (64 MiB,
    /// above what the allocator serves from its heap, so mapped fresh and not written), and
    /// prefaulting maps the pages without changing what they hold.
    #[cfg(target_os = "linux")]
    #[test]
    fn resident_tells_mapped_pages_from_fresh_ones() {
        let mut v = vec![0u8; 64 << 20];
        let base = v.as_ptr() as usize;
        let page = |k: usize| base.next_multiple_of(4096) + k * 4096;
        assert!(!resident(page(3)) && !resident(page(100)));
        v[page(3) - base] = 7;
        assert!(resident(page(3)) && !resident(page(100)));
        prefault(&mut v[page(50) - base..page(200) - base]);
        assert!(resident(page(100)) && !resident(page(300)));
        assert!(v
            .iter()
            .enumerate()
            .all(|(i, &b)| b == u8::from(i == page(3) - base) * 7));
    }

    /// A page's values fill their place exactly or are an error saying what the page held:
    /// the near misses are a byte short or over, decompressed or stored.
    #[test]
    fn a_page_must_fill_its_place_exactly() {
        let values: Vec<u8> = (0..3 * OBS_LEN).map(|i| (i % 7 == 0) as u8).collect();
        let packed = zstd::bulk::compress(&values, 1).unwrap();
        let mut zstd = zstd::bulk::Decompressor::new().unwrap();
        let mut dest = vec![9u8; values.len()];
        unpack(&packed, Some(&mut zstd), &mut dest).unwrap();
        assert_eq!(dest, values);
        let mut dest = vec![9u8; values.len()];
        unpack(&values, None, &mut dest).unwrap();
        assert_eq!(dest, values);
        let mut over = vec![0u8; values.len() + 1];
        assert_eq!(
            unpack(&packed, Some(&mut zstd), &mut over),
            Err(format!("{} bytes", values.len()))
        );
        assert_eq!(
            unpack(&values, None, &mut over),
            Err(format!("{} bytes", values.len()))
        );
        let mut short = vec![0u8; values.len() - 1];
        let e = unpack(&packed, Some(&mut zstd), &mut short).unwrap_err();
        assert!(e.contains("does not decompress"), "{e}");
        assert!(unpack(&values, None, &mut short).is_err());
        // Not zstd at all.
        let e = unpack(&values, Some(&mut zstd), &mut dest).unwrap_err();
        assert!(e.contains("does not decompress"), "{e}");
    }

    #[test]
    fn bad_runs_are_errors_naming_the_problem() {
        let dir = tempfile::tempdir().unwrap();
        let missing = load_decisions(&dir.path().join("nowhere"), None).unwrap_err();
        assert!(missing.to_string().contains("nowhere"), "{missing}");
        let out = run(dir.path(), 60, 30);
        let good = load_decisions(&out, None).unwrap();
        let path = part_file(&out, 1);
        let bytes = std::fs::read(&path).unwrap();

        // A truncated part names its file.
        std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
        let e = load_decisions(&out, None).unwrap_err();
        assert!(e.to_string().contains("part-00001"), "{e}");

        // A byte flipped anywhere is an error naming the file or, where the format cannot
        // tell (inside compressed data without a checksum), the same number of rows: never
        // a panic.
        let mut errors = 0;
        for k in 1..97 {
            let at = bytes.len() * k / 97;
            let mut bent = bytes.clone();
            bent[at] ^= 0x5a;
            std::fs::write(&path, &bent).unwrap();
            match load_decisions(&out, None) {
                Err(e) => {
                    errors += 1;
                    assert!(e.to_string().contains("part-00001"), "byte {at}: {e}");
                }
                Ok(d) => assert_eq!(d.rows, good.rows, "byte {at}"),
            }
        }
        assert!(errors > 0);

        // Restored, it reads as before.
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(load_decisions(&out, None).unwrap(), good);

        // The same rows written as another tool might (data pages v2; dictionary pages, which
        // the Arrow reader reads instead) read the same.
        let rows = good.rows as u64;
        let v2 = crate::decisions::writer_properties()
            .into_builder()
            .set_writer_version(parquet::file::properties::WriterVersion::PARQUET_2_0)
            .build();
        std::fs::write(&path, rewrite(&bytes, v2, |_| ())).unwrap();
        assert_eq!(load_decisions(&out, None).unwrap(), good);
        let part = open_part(&path, rows - part_rows(&out, 0), u64::MAX).unwrap();
        assert!(read_group(&part, 1, 0, None, Wide::Pages).unwrap().pages[0].is_some());
        let dictionary = crate::decisions::writer_properties()
            .into_builder()
            .set_dictionary_enabled(true)
            .build();
        std::fs::write(&path, rewrite(&bytes, dictionary, |_| ())).unwrap();
        assert_eq!(load_decisions(&out, None).unwrap(), good);
        let part = open_part(&path, rows - part_rows(&out, 0), u64::MAX).unwrap();
        assert!(read_group(&part, 1, 0, None, Wide::Pages).unwrap().pages[0].is_none());

        // A part of another observation layout is refused by name; the layout changes in its
        // last batch only, so a part whose layout changes part-way is refused too.
        let props = crate::decisions::writer_properties();
        let version = |c: &mut [ArrayRef]| {
            c[leaf::OBS_VERSION] = Arc::new(UInt8Array::from_value(99, c[0].len()));
        };
        std::fs::write(&path, rewrite(&bytes, props.clone(), version)).unwrap();
        let e = load_decisions(&out, None).unwrap_err();
        assert!(
            e.to_string().contains("part-00001") && e.to_string().contains("layout version 99"),
            "{e}"
        );

        // A table of version 2 (60 rows, before the hand-efficiency rows; as `main` wrote
        // them before version 3): the first 60 rows of each observation, version 2 recorded.
        let v2 = obs_shape(2).unwrap()[0] * OBS_WIDTH;
        let old_schema = {
            let mut fields: Vec<arrow_schema::Field> =
                schema().fields().iter().map(|f| (**f).clone()).collect();
            fields[leaf::OBS] = arrow_schema::Field::new(
                "obs",
                arrow_schema::DataType::FixedSizeBinary(v2 as i32),
                false,
            );
            Arc::new(arrow_schema::Schema::new(fields))
        };
        let columns = batches(&bytes).into_iter().map(|b| {
            let mut columns = b.columns().to_vec();
            let obs = columns[leaf::OBS].as_fixed_size_binary();
            let cut: Vec<u8> = (0..obs.len())
                .flat_map(|i| obs.value(i)[..v2].to_vec())
                .collect();
            columns[leaf::OBS] =
                Arc::new(FixedSizeBinaryArray::try_new(v2 as i32, cut.into(), None).unwrap());
            columns[leaf::OBS_VERSION] = Arc::new(UInt8Array::from_value(2, b.num_rows()));
            columns
        });
        let file = write_batches(old_schema, props.clone(), columns);
        std::fs::write(&path, &file).unwrap();
        let e = load_decisions(&out, None).unwrap_err().to_string();
        assert!(
            e.contains("part-00001")
                && e.contains("layout version 2")
                && e.contains(&format!("reads version {OBS_VERSION}")),
            "{e}"
        );

        // A mask byte other than 0 or 1 (numpy gets the masks as bools) is refused.
        let mask = |c: &mut [ArrayRef]| {
            let mut bytes = c[leaf::MASK].as_fixed_size_binary().value_data().to_vec();
            bytes[7] = 2;
            c[leaf::MASK] = Arc::new(
                FixedSizeBinaryArray::try_new(ACTION_SPACE_SIZE as i32, bytes.into(), None)
                    .unwrap(),
            );
        };
        std::fs::write(&path, rewrite(&bytes, props, mask)).unwrap();
        let e = load_decisions(&out, None).unwrap_err();
        assert!(
            e.to_string().contains("part-00001") && e.to_string().contains("mask byte is 2"),
            "{e}"
        );
    }
}
