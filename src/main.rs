//! `taisim`: the command-line front end of the taisim engine.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod arena;
mod failure;
mod output;
mod report;
mod score;
mod simulate;

use failure::Failure;

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
    /// Duplicate match: a candidate agent against a baseline on the same walls, seat by seat.
    Arena(Box<arena::ArenaArgs>),
    /// List the shipped rule variants.
    Variants,
    /// Inspect a rule variant.
    Variant(score::VariantArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result: Result<(), Failure> = match &cli.command {
        Command::Simulate(args) => simulate::simulate(args),
        Command::EngineBench(args) => simulate::engine_bench(args),
        Command::Replay(args) => {
            taisim_datasets::replay(&args.run, args.deal_id, &mut output::Stdout)
                .map_err(Failure::from)
        }
        Command::Report(args) => report::report(args).map_err(Failure::from),
        Command::Deal(args) => simulate::show_deal(args),
        Command::Score(args) => score::run(args),
        Command::Arena(args) => arena::arena(args),
        Command::Variants => score::list_variants(),
        Command::Variant(args) => score::variant(args),
    };
    output::finish(result)
}
