//! The loader against the Arrow reader, on runs of every shape, and every way a table can
//! be damaged.

use std::path::PathBuf;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::Array;
use bytes::Bytes;
use parquet::arrow::arrow_reader::{
    ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReaderBuilder,
};
use parquet::basic::Compression;
use taisim_agents::{obs_shape, OBS_WIDTH};

use super::*;
use crate::request::RunRequest;
use crate::run::{simulate, RunOptions};
use crate::table::Table;
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
        false,
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
    write_batches(
        crate::table::schema(Table::Decisions, false),
        props,
        columns,
    )
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
        let props = crate::table::writer_properties(crate::table::Table::Decisions, 0)
            .into_builder()
            .set_writer_version(version)
            .set_compression(compression)
            .build();
        std::fs::write(&path, rewrite(&bytes, props, |_| ())).unwrap();
        let part = open_part(&path, rows, u64::MAX, false).unwrap();
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
    let v2 = crate::table::writer_properties(crate::table::Table::Decisions, 0)
        .into_builder()
        .set_writer_version(parquet::file::properties::WriterVersion::PARQUET_2_0)
        .build();
    std::fs::write(&path, rewrite(&bytes, v2, |_| ())).unwrap();
    assert_eq!(load_decisions(&out, None).unwrap(), good);
    let part = open_part(&path, rows - part_rows(&out, 0), u64::MAX, false).unwrap();
    assert!(read_group(&part, 1, 0, None, Wide::Pages).unwrap().pages[0].is_some());
    let dictionary = crate::table::writer_properties(crate::table::Table::Decisions, 0)
        .into_builder()
        .set_dictionary_enabled(true)
        .build();
    std::fs::write(&path, rewrite(&bytes, dictionary, |_| ())).unwrap();
    assert_eq!(load_decisions(&out, None).unwrap(), good);
    let part = open_part(&path, rows - part_rows(&out, 0), u64::MAX, false).unwrap();
    assert!(read_group(&part, 1, 0, None, Wide::Pages).unwrap().pages[0].is_none());

    // A part of another observation layout is refused by name; the layout changes in its
    // last batch only, so a part whose layout changes part-way is refused too.
    let props = crate::table::writer_properties(crate::table::Table::Decisions, 0);
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
        let mut fields: Vec<arrow_schema::Field> = crate::table::schema(Table::Decisions, false)
            .fields()
            .iter()
            .map(|f| (**f).clone())
            .collect();
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
            FixedSizeBinaryArray::try_new(ACTION_SPACE_SIZE as i32, bytes.into(), None).unwrap(),
        );
    };
    std::fs::write(&path, rewrite(&bytes, props, mask)).unwrap();
    let e = load_decisions(&out, None).unwrap_err();
    assert!(
        e.to_string().contains("part-00001") && e.to_string().contains("mask byte is 2"),
        "{e}"
    );
}
