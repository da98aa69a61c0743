//! `taisim report`: a run directory's statistics, as a table on the terminal and a Markdown
//! file.

use std::path::PathBuf;

use taisim_datasets::{check_output, expect_run_dir, HarnessError, Report, ReportOptions};

use crate::output::publish;

#[derive(clap::Args)]
pub struct ReportArgs {
    /// The run directory (`taisim simulate --out`); for a sharded run, the directory its
    /// shards share.
    run: PathBuf,
    /// Where to write the Markdown report [default: RUN/report.md]; a regular file (or a
    /// new one), replaced whole.
    #[arg(long, value_name = "PATH")]
    markdown: Option<PathBuf>,
    /// List only the N most frequent patterns [default: all].
    #[arg(long, value_name = "N", value_parser = crate::simulate::whole::<usize>("number of patterns"), allow_negative_numbers = true)]
    top: Option<usize>,
    /// Check row counts and sizes only, not every file's SHA-256 (faster on large runs).
    #[arg(long)]
    no_checksums: bool,
    /// Print the report as one JSON document instead of the tables (the Markdown file is
    /// written all the same).
    #[arg(long)]
    json: bool,
    /// Worker threads, 1 to 1024 (default: all cores). The report does not depend on it.
    #[arg(long, value_parser = crate::simulate::parse_threads, allow_negative_numbers = true)]
    threads: Option<usize>,
}

/// Computes the report, writes the Markdown file, prints the tables.
pub fn report(args: &ReportArgs) -> Result<(), HarnessError> {
    let options = ReportOptions {
        verify_checksums: !args.no_checksums,
        threads: args.threads,
    };
    let path = args
        .markdown
        .clone()
        .unwrap_or_else(|| args.run.join("report.md"));
    // A FIFO, a device, a link or a directory at the path is refused before the report is
    // computed, not after; a run that is not a directory is named as such first.
    expect_run_dir(&args.run)?;
    check_output(&path)?;
    let report = Report::from_run(&args.run, &options)?;
    publish(
        &path,
        args.markdown.is_some(),
        &report.to_markdown(args.top),
        args.json.then(|| report.to_json()),
        || report.to_terminal(args.top),
        "report",
    )
}
