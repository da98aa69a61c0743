//! `taisim`: the command-line front end of the taisim engine.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

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
    /// Play seeded deals in parallel and summarise the outcomes.
    Simulate(simulate::SimulateArgs),
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
        Command::Simulate(args) => simulate::simulate(args),
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
