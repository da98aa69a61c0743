//! `taisim`: the command-line front end of the taisim engine.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod arena;
mod bot;
mod compare;
mod failure;
mod input;
mod interrupt;
mod output;
mod play;
mod replay;
mod report;
mod review;
mod score;
mod simulate;
mod variant;

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
    /// Print one deal of a run step by step, with every hand and the scoring; or write it as
    /// a deal log (--json) or an HTML page (--html); or check a deal log (--log FILE).
    Replay(Box<replay::ReplayArgs>),
    /// The search agent's review of one seat's decisions in a deal: every legal action's
    /// expected points with its standard error.
    Review(review::ReviewArgs),
    /// Statistics of a run: outcome rates, expected tai, seats, patterns, tai distribution.
    Report(report::ReportArgs),
    /// Two runs of the same walls compared deal by deal: what changed, with paired 95%
    /// intervals, and which agents respond to the scoring table.
    Compare(compare::CompareArgs),
    /// Time the bare engine: random play, no scoring, no output.
    EngineBench(simulate::EngineBenchArgs),
    /// Play one seeded deal with random agents and print it step by step.
    Deal(simulate::DealArgs),
    /// Score a winning hand: a table for people, or JSON in and out with --json.
    Score(Box<score::ScoreArgs>),
    /// Duplicate match: a candidate agent against a baseline on the same walls, seat by seat.
    Arena(Box<arena::ArenaArgs>),
    /// Serve a built-in agent as a bot over the JSON-lines protocol on stdin/stdout (for
    /// exec:, other tables and tests).
    Bot(bot::BotArgs),
    /// Sit at the table yourself, in the terminal, against built-in agents; then the
    /// settlement and the search's review of your decisions.
    Play(play::PlayArgs),
    /// List the shipped rule variants.
    Variants,
    /// Inspect a rule variant: the whole file, its changes from another, its patterns.
    Variant(variant::VariantArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // The bots a command starts (exec: agents) end with it, even when a signal ends it.
    taisim_agents::end_bots_with_process();
    let result: Result<(), Failure> = match &cli.command {
        Command::Simulate(args) => simulate::simulate(args),
        Command::EngineBench(args) => simulate::engine_bench(args),
        Command::Replay(args) => replay::replay(args),
        Command::Review(args) => review::review(args),
        Command::Report(args) => report::report(args).map_err(Failure::from),
        Command::Compare(args) => compare::compare(args),
        Command::Deal(args) => simulate::show_deal(args),
        Command::Score(args) => score::run(args),
        Command::Arena(args) => arena::arena(args),
        Command::Bot(args) => bot::bot(args),
        Command::Play(args) => play::play(args),
        Command::Variants => variant::list_variants(),
        Command::Variant(args) => variant::variant(args),
    };
    output::finish(result)
}
