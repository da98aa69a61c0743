//! The wide columns (observations and masks) of the decisions table, read page by page:
//! each row group's pages shared out into tasks of a few megabytes, each page decompressed
//! straight into its place in the output; chunks laid out otherwise go through the Arrow
//! reader into the same place.

use std::ops::Range;
use std::path::Path;

use arrow_array::cast::AsArray;
use arrow_array::Array;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ProjectionMask;
use parquet::basic::Encoding;
use parquet::column::page::{Page, PageReader};

use super::paging::prefault;
use super::part::{page_reader, Group, PartBytes};
use super::{bad, leaf, unreadable, TASK_BYTES, WIDE};
use crate::error::HarnessError;
use crate::table::obs_denominators;
use taisim_agents::space::index_name;
use taisim_agents::{ACTION_SPACE_SIZE, OBS_LEN, OBS_WIDTH};

/// A share of one wide column of one row group, and the slice of the output it fills.
pub(super) struct Task<'a> {
    pub group: usize,
    /// Index into [`WIDE`].
    pub column: usize,
    /// The data pages it reads (all of them through Arrow), and the first one's first row.
    pub pages: Range<usize>,
    pub first_row: usize,
    /// How many of the group's kept rows come before the first one it fills.
    pub first_kept: usize,
    pub dest: &'a mut [u8],
}

/// Shares out the wide column `column` of group `g` (output `dest`) into tasks of whole
/// pages of at least [`TASK_BYTES`].
pub(super) fn plan<'a>(
    tasks: &mut Vec<Task<'a>>,
    g: usize,
    group: &Group,
    column: usize,
    dest: &'a mut [u8],
) {
    let width = WIDE[column].1;
    let Some(pages) = &group.pages[column] else {
        tasks.push(Task {
            group: g,
            column,
            pages: 0..0,
            first_row: 0,
            first_kept: 0,
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
    let (mut start, mut first_row, mut row, mut first_kept) = (0, 0, 0, 0);
    for (i, &n) in pages.iter().enumerate() {
        row += n;
        let last = i + 1 == pages.len();
        if (row - first_row) * width >= TASK_BYTES || last {
            let rows = kept(first_row..row);
            let (mine, tail) = std::mem::take(&mut rest).split_at_mut(rows * width);
            rest = tail;
            tasks.push(Task {
                group: g,
                column,
                pages: start..i + 1,
                first_row,
                first_kept,
                dest: mine,
            });
            start = i + 1;
            first_row = row;
            first_kept += rows;
        }
    }
}

impl Task<'_> {
    pub(super) fn run(self, groups: &[Group], parts: &[PartBytes]) -> Result<(), HarnessError> {
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
            check_actions_legal(group, &part.path, self.first_kept, self.dest)
        } else {
            check_numerators(group, &part.path, self.first_kept, self.dest)
        }
    }
}

/// Checks every row of `masks` (the group's kept rows from `first_kept` on) allows the
/// action its decision took: the table records only legal actions.
fn check_actions_legal(
    group: &Group,
    path: &Path,
    first_kept: usize,
    masks: &[u8],
) -> Result<(), HarnessError> {
    let actions = &group.small.action[first_kept..];
    for (j, (mask, &a)) in masks
        .chunks_exact(ACTION_SPACE_SIZE)
        .zip(actions)
        .enumerate()
    {
        // `read_group` checked every action lies in the action space.
        if mask[a as usize] != 1 {
            return Err(bad(
                path,
                format!(
                    "row {}: its action {a} ({}) is not legal by its own mask",
                    group.part_row(first_kept + j),
                    index_name(a as usize).unwrap_or_default()
                ),
            ));
        }
    }
    Ok(())
}

/// Checks no observation numerator of `obs` (the group's kept rows from `first_kept` on) is
/// above its cell's denominator, so that `obs × obs_scale` lies in the observation space's
/// [0, 1]. A fold the compiler vectorises per row; the cell looked for only once one is bad.
fn check_numerators(
    group: &Group,
    path: &Path,
    first_kept: usize,
    obs: &[u8],
) -> Result<(), HarnessError> {
    let den = obs_denominators();
    for (j, row) in obs.chunks_exact(OBS_LEN).enumerate() {
        let over = row
            .iter()
            .zip(den.iter())
            .fold(false, |over, (&v, &d)| over | (v > d));
        if over {
            let cell = row.iter().zip(den.iter()).position(|(v, d)| v > d);
            let cell = cell.unwrap_or(0);
            return Err(bad(
                path,
                format!(
                    "row {}: observation cell (row {}, column {}) holds {}/{}, above 1",
                    group.part_row(first_kept + j),
                    cell / OBS_WIDTH,
                    cell % OBS_WIDTH,
                    row[cell],
                    den[cell]
                ),
            ));
        }
    }
    Ok(())
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

/// What a page held instead of exactly the values its place takes.
#[derive(Debug, thiserror::Error)]
enum Unpacked {
    /// Another number of bytes than the place takes.
    #[error("{0} bytes")]
    Bytes(usize),
    /// zstd data that does not decompress (or decompresses past the place).
    #[error("zstd data that does not decompress ({0})")]
    Zstd(#[source] std::io::Error),
}

/// Writes a page's values into `dest`, which they must fill exactly: decompressed by `zstd`
/// if given, else copied as stored. The error says what the page held instead.
fn unpack(
    stored: &[u8],
    zstd: Option<&mut zstd::bulk::Decompressor<'_>>,
    dest: &mut [u8],
) -> Result<(), Unpacked> {
    match zstd {
        None if stored.len() == dest.len() => {
            dest.copy_from_slice(stored);
            Ok(())
        }
        None => Err(Unpacked::Bytes(stored.len())),
        Some(zstd) => match zstd.decompress_to_buffer(stored, dest) {
            Ok(written) if written == dest.len() => Ok(()),
            Ok(written) => Err(Unpacked::Bytes(written)),
            // Too small a destination included: more bytes than the page's rows take.
            Err(e) => Err(Unpacked::Zstd(e)),
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
        let e = unpack(&packed, Some(&mut zstd), &mut over).unwrap_err();
        assert!(matches!(e, Unpacked::Bytes(n) if n == values.len()), "{e}");
        let e = unpack(&values, None, &mut over).unwrap_err();
        assert_eq!(e.to_string(), format!("{} bytes", values.len()));
        let mut short = vec![0u8; values.len() - 1];
        let e = unpack(&packed, Some(&mut zstd), &mut short).unwrap_err();
        assert!(e.to_string().contains("does not decompress"), "{e}");
        assert!(unpack(&values, None, &mut short).is_err());
        // Not zstd at all.
        let e = unpack(&values, Some(&mut zstd), &mut dest).unwrap_err();
        assert!(matches!(e, Unpacked::Zstd(_)), "{e}");
    }
}
