//! `taisim`: the command-line front end of the taisim engine.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod report;
mod score;
mod simulate;

#[derive(Parser)]
#[command(
    name = "taisim",
    version,
    about = "Taiwanese 16-tile mahjong simulation harness"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play seeded deals (or games) in parallel into a Parquet dataset.
    Simulate(Box<simulate::SimulateArgs>),
    /// Print one deal of a run step by step, with every hand and the scoring.
    Replay(simulate::ReplayArgs),
    /// Statistics of a run: outcome rates, expected tai, seats, patterns, tai distribution.
    Report(report::ReportArgs),
    /// Time the bare engine: random play, no scoring, no output.
    EngineBench(simulate::EngineBenchArgs),
    /// Play one seeded deal with random agents and print it step by step.
    Deal(simulate::DealArgs),
    /// Score a winning hand: a table for people, or JSON in and out with --json.
    Score(Box<score::ScoreArgs>),
    /// List the shipped rule variants.
    Variants,
    /// Inspect a rule variant.
    Variant(score::VariantArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match &cli.command {
        Command::Simulate(args) => {
            return match simulate::simulate(args) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    if e.exit_code() != 2 {
                        eprintln!(
                            "complete parts are kept; rerun with --resume --out DIR to continue"
                        );
                    }
                    ExitCode::from(e.exit_code())
                }
            }
        }
        Command::EngineBench(args) => simulate::engine_bench(args),
        Command::Replay(args) => {
            let mut stdout = std::io::stdout().lock();
            return match taisim_datasets::replay(&args.run, args.deal_id, &mut stdout) {
                Ok(()) => ExitCode::SUCCESS,
                // A closed pipe (`taisim replay … | head`) is the reader's choice.
                Err(taisim_datasets::HarnessError::Io { source, .. })
                    if source.kind() == std::io::ErrorKind::BrokenPipe =>
                {
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(e.exit_code())
                }
            };
        }
        Command::Report(args) => {
            return match report::report(args) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(e.exit_code())
                }
            };
        }
        Command::Deal(args) => simulate::show_deal(args),
        Command::Score(args) => score::run(args),
        Command::Variants => score::list_variants(),
        Command::Variant(args) => score::variant(args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}
