//! `taisim compare RUN_A RUN_B`: two runs of the same walls compared deal by deal, as a
//! table on the terminal and a Markdown file (or JSON).

use std::path::PathBuf;

use taisim_datasets::{check_output, expect_run_dir, CompareOptions, Comparison};

use crate::failure::Failure;
use crate::output::publish;

#[derive(clap::Args)]
pub struct CompareArgs {
    /// The first run (the rules compared against), a `taisim simulate --out` directory.
    run_a: PathBuf,
    /// The second run, of the same seed and deals.
    run_b: PathBuf,
    /// Where to write the Markdown comparison [default: RUN_B/compare.md]; a regular file
    /// (or a new one), replaced whole.
    #[arg(long, value_name = "PATH")]
    markdown: Option<PathBuf>,
    /// List only the N patterns that changed most [default: all].
    #[arg(long, value_name = "N", value_parser = crate::simulate::whole::<usize>("number of patterns"), allow_negative_numbers = true)]
    top: Option<usize>,
    /// Check row counts and sizes only, not every file's SHA-256 (faster on large runs).
    #[arg(long)]
    no_checksums: bool,
    /// Print the comparison as one JSON document instead of the tables (the Markdown file is
    /// written all the same).
    #[arg(long)]
    json: bool,
}

/// Compares, writes the Markdown file, prints the tables (or JSON).
pub fn compare(args: &CompareArgs) -> Result<(), Failure> {
    let path = args
        .markdown
        .clone()
        .unwrap_or_else(|| args.run_b.join("compare.md"));
    expect_run_dir(&args.run_a)?;
    expect_run_dir(&args.run_b)?;
    check_output(&path)?;
    let options = CompareOptions {
        verify_checksums: !args.no_checksums,
    };
    let comparison = Comparison::from_runs(&args.run_a, &args.run_b, &options)?;
    publish(
        &path,
        args.markdown.is_some(),
        &comparison.to_markdown(args.top),
        args.json.then(|| comparison.to_json()),
        || comparison.to_terminal(args.top),
        "comparison",
    )?;
    Ok(())
}
