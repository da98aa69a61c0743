//! Resuming a run: what the directory says was being played, and which of a shard's files
//! can be kept.
//!
//! The run's spec comes from what the directory recorded, in this order: the shard's
//! manifest, its journal's header, another shard's manifest, the footer of any part file
//! ([`PartOrigin`]). A command's flags may only repeat it. Every file is then judged
//! against the spec before anything is removed or written: a file that the footer says
//! belongs to another run, or that neither a record nor its footer vouches for, stops the
//! resume with its name (nothing is deleted); a file of this run that is not as recorded is
//! written again; a file as recorded is kept, even while the part's other files are written
//! again.

use std::path::Path;

use taisim_score::Variant;

use crate::error::HarnessError;
use crate::journal;
use crate::manifest::{Manifest, VARIANT_FILE};
use crate::part::{self, FileRecord, PartRecord};
use crate::spec::{
    same_run, sha256_hex, short_sha256, spec_difference, PartOrigin, RecordedSpec, RunSpec,
    RunVariant, Shard, SpecVariant, VariantRecord, PART_ORIGIN_FORMAT,
};
use crate::table::Table;

/// The variant a record names, read and parsed: `variant.toml` when its hash is the recorded
/// one, else the shipped variant of that name and hash (a deleted `variant.toml` of a shipped
/// variant is written again). The record's origin is where the run first read it.
pub(crate) fn recorded_variant(
    out: &Path,
    record: &VariantRecord,
) -> Result<RunVariant, HarnessError> {
    let VariantRecord {
        name,
        origin,
        sha256,
    } = record;
    let path = out.join(VARIANT_FILE);
    let text = match taisim_score::file::read_regular_text(
        &path,
        taisim_score::file::VARIANT_FILE_LIMIT,
        "a variant file",
    ) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            match Variant::builtin_text(name).filter(|t| sha256_hex(t.as_bytes()) == *sha256) {
                Some(text) => text.to_string(),
                None => {
                    return Err(HarnessError::Usage(format!(
                        "cannot resume: {} is missing, and the run's variant {name} (SHA-256 {}…) is not a shipped one; put the variant file back as {VARIANT_FILE}",
                        path.display(),
                        short_sha256(sha256)
                    )))
                }
            }
        }
        Err(e) => return Err(HarnessError::io("cannot read", &path)(e)),
    };
    let variant = RunVariant::from_text(text, origin.clone())?;
    if variant.record().sha256 != *sha256 {
        return Err(HarnessError::Corrupt {
            path,
            message: format!(
                "its SHA-256 is {}, the run recorded {sha256}",
                variant.record().sha256
            ),
        });
    }
    Ok(variant)
}

/// Why a run written by an older taisim is not resumed, `what` naming the record that says
/// so.
pub(crate) fn older_run(out: &Path, what: &str) -> HarnessError {
    HarnessError::Usage(format!(
        "cannot resume or add to the run in {}: it was written by an older taisim ({what}): its wins and tai tables have no variant column, and this taisim's parts have one, so the two layouts would mix in one table; finish it with the taisim that started it, or play it again into a new directory (taisim report and taisim compare read it as it is)",
        out.display()
    ))
}

/// Refuses a directory that holds a manifest of an older format ([`Manifest::is_current`]).
pub(crate) fn refuse_older(out: &Path) -> Result<(), HarnessError> {
    for m in Manifest::read_all(out)? {
        if !m.is_current() {
            return Err(older_run(
                out,
                &format!(
                    "{} has format {}",
                    Manifest::file_name(m.spec.shard),
                    m.format
                ),
            ));
        }
    }
    Ok(())
}

/// The spec the run in `out` recorded for `shard`, its variant read and parsed
/// ([`recorded_variant`]), and where it was found; `None` when the directory records none (a
/// new directory, or a run killed before its first manifest).
pub fn recorded_spec(
    out: &Path,
    shard: Shard,
) -> Result<Option<(RunSpec, SpecSource)>, HarnessError> {
    let Some((spec, source)) = recorded_record(out, shard)? else {
        return Ok(None);
    };
    let variant = recorded_variant(out, &spec.variant)?;
    Ok(Some((spec.with_variant(variant), source)))
}

/// Where a run's spec was read from, in the order a resume looks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SpecSource {
    Manifest,
    Journal,
    /// Another shard's manifest of the same split.
    OtherShard,
    /// The part files' footers.
    Footers,
}

impl SpecSource {
    /// Whether the shard's own record (its manifest or journal) holds the spec.
    pub const fn is_own_record(self) -> bool {
        matches!(self, SpecSource::Manifest | SpecSource::Journal)
    }
}

impl std::fmt::Display for SpecSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SpecSource::Manifest => "its manifest",
            SpecSource::Journal => "its journal",
            SpecSource::OtherShard => "another shard's manifest",
            SpecSource::Footers => "its part files' footers",
        })
    }
}

/// The spec the run in `out` recorded for `shard` as its records hold it (the variant by
/// name and hash, not read), and where it was found, in this order: the shard's manifest,
/// its journal's header, another shard's manifest, the part files' footers (which must all
/// record one run).
pub(crate) fn recorded_record(
    out: &Path,
    shard: Shard,
) -> Result<Option<(RecordedSpec, SpecSource)>, HarnessError> {
    if !out.is_dir() {
        return Ok(None);
    }
    refuse_older(out)?;
    if Manifest::path(out, shard).exists() {
        let manifest = Manifest::read(&Manifest::path(out, shard))?;
        return Ok(Some((manifest.spec, SpecSource::Manifest)));
    }
    if let Some(spec) = journal::read(&Manifest::journal_path(out, shard))?.spec {
        return Ok(Some((spec, SpecSource::Journal)));
    }
    // Another shard of the same split: everything but the shard is the run's.
    let others = Manifest::read_all(out)?;
    if let Some(other) = others.iter().find(|m| m.spec.shard.count == shard.count) {
        let spec = RunSpec {
            shard,
            ..other.spec.clone()
        };
        return Ok(Some((spec, SpecSource::OtherShard)));
    }
    // Shards of another split: this shard cannot join them (shards of one run all split it
    // alike), so say so now, with the split to resume, before the footers are read as a
    // record of the run asked for.
    if let Some(other) = others.first() {
        return Err(other_split(out, other.spec.shard, shard, true));
    }
    let mut first: Option<(std::path::PathBuf, PartOrigin)> = None;
    for table in Table::EVERY {
        let dir = out.join(table.dir());
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut parts: Vec<u64> = entries
            .filter_map(|e| e.ok())
            .filter_map(|e| crate::layout::part_index(&e.file_name().to_string_lossy()))
            .collect();
        parts.sort_unstable();
        for p in parts {
            let Ok(Some(origin)) = part::check_file(out, table, p, None)?.origin else {
                continue;
            };
            let path = part::part_path(out, table, p);
            if origin.format != PART_ORIGIN_FORMAT {
                return Err(older_run(
                    out,
                    &format!("{} has format {}", path.display(), origin.format),
                ));
            }
            match &first {
                None => first = Some((path, origin)),
                Some((first_path, o)) if !o.same_run(&origin) => {
                    let theirs = |o: &PartOrigin| o.spec(o.variant_record(), shard);
                    return Err(HarnessError::Usage(format!(
                        "cannot resume: {} has no {}, and its part files' footers record different runs: {} is of another run than {} ({}); move away the files that are not this run's",
                        out.display(),
                        Manifest::file_name(shard),
                        path.display(),
                        first_path.display(),
                        spec_difference(&theirs(&origin), &theirs(o), ["it has", "the other has"])
                    )));
                }
                Some(_) => {}
            }
        }
    }
    if let Some((_, origin)) = first {
        let shipped = Variant::builtin_text(&origin.variant)
            .is_some_and(|t| sha256_hex(t.as_bytes()) == origin.variant_sha256);
        let record = VariantRecord {
            origin: if shipped {
                format!("builtin:{}", origin.variant)
            } else {
                out.join(VARIANT_FILE).display().to_string()
            },
            ..origin.variant_record()
        };
        return Ok(Some((origin.spec(record, shard), SpecSource::Footers)));
    }
    Ok(None)
}

/// `asked` (a run or a shard of it) refused in `out`, which holds `theirs` of another split:
/// shards of one run all split it alike. A resume says how to resume what is there.
pub(crate) fn other_split(out: &Path, theirs: Shard, asked: Shard, resume: bool) -> HarnessError {
    let held = if theirs.is_whole() {
        "a run not split into shards".to_string()
    } else {
        format!("shard {theirs} of a run split into {} shards", theirs.count)
    };
    let asked = match (asked.is_whole(), resume) {
        (true, true) => "--resume without --shard resumes a run not split into shards".to_string(),
        (true, false) => "a run not split into shards cannot join it".to_string(),
        (false, _) => format!("shard {asked} cannot join it"),
    };
    let mut message = format!(
        "{} holds {held} ({}), and {asked}: shards of one run must all split it into the same number of shards",
        out.display(),
        Manifest::file_name(theirs),
    );
    if resume {
        message = format!("cannot resume: {message}; ");
        message.push_str(&if theirs.is_whole() {
            "resume it with --resume without --shard".to_string()
        } else {
            format!(
                "resume one of its shards with --resume --shard K/{}",
                theirs.count
            )
        });
    }
    HarnessError::Usage(message)
}

/// Refuses a resume whose arguments ask for another run than the directory recorded (read
/// from `source`), naming the first field that differs, the variant before any other: a
/// field checked against the variant (stakes its settlement cannot pay) would otherwise be
/// refused for what follows from the variant changed, not for the change.
pub(crate) fn refuse_another_run<A: SpecVariant, B: SpecVariant>(
    out: &Path,
    recorded: &RunSpec<A>,
    asked: &RunSpec<B>,
    source: SpecSource,
) -> Result<(), HarnessError> {
    if same_run(recorded, asked) {
        return Ok(());
    }
    Err(HarnessError::Usage(format!(
        "cannot resume: the arguments differ from the run in {} ({}; the run's spec as read from {source})",
        out.display(),
        spec_difference(recorded, asked, ["the run has", "the command asks for"])
    )))
}

/// What to do with one part of the shard.
pub(crate) struct PartPlan {
    pub index: u64,
    /// Every file is as recorded: the part's record.
    pub trusted: Option<PartRecord>,
    /// Files as recorded, kept while the part's others are written again.
    pub keep: Vec<(Table, FileRecord)>,
    /// Why the part is played again.
    pub why: Option<String>,
}

/// Judges part `p`'s files against `record` (from `source`, the manifest or the journal)
/// and the spec; an error for a file that must not be touched.
pub(crate) fn inspect_part(
    spec: &RunSpec,
    out: &Path,
    p: u64,
    record: Option<&PartRecord>,
) -> Result<PartPlan, HarnessError> {
    let (first, end) = spec.part_units(p);
    let damaged = |what: String| {
        HarnessError::Usage(format!(
            "cannot resume: the record of part {p} in {} {what}: the record is damaged, and taisim does not judge the files on disk by it; restore the manifest, or move it (and its journal) away to resume from the part files' own footers",
            out.display()
        ))
    };
    if let Some(r) = record {
        if r.index != p || r.units != [first, end] {
            return Err(damaged(format!(
                "says units {:?}, but the run's part {p} holds [{first}, {end}]",
                r.units
            )));
        }
    }
    let mut keep = Vec::new();
    let mut why = None;
    let mut found = false;
    for &table in Table::of_run(spec.decisions.is_some()) {
        let file_record = record.and_then(|r| match table {
            Table::Decisions => r.decisions.as_ref(),
            t => Some(r.file(t)),
        });
        if let Some(f) = file_record {
            let path = part::part_path(Path::new(""), table, p);
            if Path::new(&f.file) != path {
                return Err(damaged(format!(
                    "names its {} file {:?}",
                    table.dir(),
                    f.file
                )));
            }
        }
        let check = part::check_file(out, table, p, file_record)?;
        found |= check.exists;
        let path = part::part_path(out, table, p);
        match &check.origin {
            Ok(Some(origin)) if origin.format != PART_ORIGIN_FORMAT => {
                return Err(older_run(
                    out,
                    &format!("{} has format {}", path.display(), origin.format),
                ))
            }
            Ok(Some(origin)) => {
                if let Some(why) = origin.mismatch(spec, p, "this run has") {
                    return Err(HarnessError::Usage(format!(
                        "cannot resume: {} belongs to another run ({why}); taisim does not replace it: move it away, or resume the run it belongs to",
                        path.display(),
                    )));
                }
            }
            Ok(None) if check.exists && file_record.is_none() => {
                return Err(HarnessError::Usage(format!(
                    "cannot resume: {} records no run in its footer (written by an older taisim, or not by taisim) and no manifest or journal records it, so taisim cannot tell whether it is this run's; move it away, or restore the manifest",
                    path.display()
                )))
            }
            Err(e) if file_record.is_none() => {
                return Err(HarnessError::Usage(format!(
                    "cannot resume: {}: {e}; no manifest or journal records it, so taisim cannot tell whether it is this run's; move it away, or restore the manifest",
                    path.display()
                )))
            }
            // This run's file, or a recorded one (its footer unreadable: damaged).
            _ => {}
        }
        match (check.problem, file_record) {
            (None, Some(f)) => keep.push((table, f.clone())),
            (problem, _) => {
                if why.is_none() {
                    why = Some(format!(
                        "part {p}: {}",
                        problem.unwrap_or_else(|| "not recorded".into())
                    ));
                }
            }
        }
    }
    if record.is_none() {
        // A part never recorded: played (again, if a kill left some of its files).
        why = found.then(|| format!("part {p}: its files were never recorded as complete"));
    }
    let trusted = match (&why, record) {
        (None, Some(r)) => Some(r.clone()),
        _ => None,
    };
    Ok(PartPlan {
        index: p,
        trusted,
        keep,
        why,
    })
}

/// The spec a resumed run must continue: the one its manifest recorded.
pub fn resume_spec(out: &Path, shard: Shard) -> Result<RunSpec, HarnessError> {
    let manifest = shard_manifest(out, shard)?;
    refuse_older(out)?;
    spec_with_variant(out, manifest)
}

/// The spec a run's manifest recorded, with its variant, from a run of any format this
/// taisim reads: a replay reads the deals table alone, laid out alike in the older formats.
pub(crate) fn replay_spec(out: &Path, shard: Shard) -> Result<RunSpec, HarnessError> {
    spec_with_variant(out, shard_manifest(out, shard)?)
}

fn shard_manifest(out: &Path, shard: Shard) -> Result<Manifest, HarnessError> {
    crate::read::expect_run_dir(out)?;
    let path = Manifest::path(out, shard);
    if !path.is_file() {
        return Err(HarnessError::Usage(format!(
            "{} has no {}; is it the output directory of a taisim run{}?",
            out.display(),
            Manifest::file_name(shard),
            if shard.is_whole() { "" } else { " shard" }
        )));
    }
    Manifest::read(&path)
}

fn spec_with_variant(out: &Path, manifest: Manifest) -> Result<RunSpec, HarnessError> {
    let variant = recorded_variant(out, &manifest.spec.variant)?;
    Ok(manifest.spec.with_variant(variant))
}

/// Whether `out` is a directory a run was killed in before it wrote its first manifest:
/// it exists and holds nothing but what a run writes (and no manifest of this shard).
/// Such a run resumes from the arguments alone, which must then be the killed command's.
pub fn resumable_without_manifest(out: &Path, shard: Shard) -> bool {
    !Manifest::path(out, shard).exists()
        && std::fs::read_dir(out).is_ok_and(|entries| {
            entries.filter_map(|e| e.ok()).all(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                crate::layout::is_run_entry(&name)
            })
        })
}
