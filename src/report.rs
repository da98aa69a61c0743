//! `taisim report`: a run directory's statistics, as a table on the terminal and a Markdown
//! file.

use std::io::Write;
use std::path::PathBuf;

use taisim_datasets::{HarnessError, Report, ReportOptions};

#[derive(clap::Args)]
pub struct ReportArgs {
    /// The run directory (`taisim simulate --out`); for a sharded run, the directory its
    /// shards share.
    run: PathBuf,
    /// Where to write the Markdown report [default: RUN/report.md].
    #[arg(long, value_name = "PATH")]
    markdown: Option<PathBuf>,
    /// List only the N most frequent patterns [default: all].
    #[arg(long, value_name = "N")]
    top: Option<usize>,
    /// Check row counts and sizes only, not every file's SHA-256 (faster on large runs).
    #[arg(long)]
    no_checksums: bool,
    /// Worker threads (default: all cores). The report does not depend on it.
    #[arg(long)]
    threads: Option<usize>,
}

/// Computes the report, writes the Markdown file, prints the tables.
pub fn report(args: &ReportArgs) -> Result<(), HarnessError> {
    if args.threads == Some(0) {
        return Err(HarnessError::Usage("--threads must be at least 1".into()));
    }
    let options = ReportOptions {
        verify_checksums: !args.no_checksums,
        threads: args.threads,
    };
    let report = Report::from_run(&args.run, &options)?;
    let path = args
        .markdown
        .clone()
        .unwrap_or_else(|| args.run.join("report.md"));
    std::fs::write(&path, report.to_markdown(args.top)).map_err(|e| {
        HarnessError::Usage(format!(
            "cannot write the Markdown report {}: {e}",
            path.display()
        ))
    })?;
    let text = format!(
        "{}\nMarkdown report: {}\n",
        report.to_terminal(args.top),
        path.display()
    );
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        // A closed pipe (`taisim report RUN | head`) is the reader's choice.
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(HarnessError::Io {
            action: "cannot write",
            path: PathBuf::from("<stdout>"),
            source: e,
        }),
        _ => Ok(()),
    }
}
