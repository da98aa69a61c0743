//! `taisim review RUN DEAL --seat S`: the search agent's reasons, decision by decision, for
//! one seat of a deal of a run (see `taisim_datasets::review`).

use std::path::PathBuf;

use taisim_agents::SearchSpec;
use taisim_datasets::deal_log;
use taisim_datasets::review::review as review_deal;
use taisim_sim::Seat;

use crate::failure::Failure;
use crate::output::{out, outln};

#[derive(clap::Args)]
pub struct ReviewArgs {
    /// The run directory.
    run: PathBuf,
    /// The deal's `deal_id`.
    #[arg(value_parser = crate::simulate::parse_deal_id, allow_negative_numbers = true)]
    deal_id: u64,
    /// The seat whose decisions are reviewed: E, S, W or N.
    #[arg(long, value_parser = crate::replay::parse_seat)]
    seat: Seat,
    /// Determinizations each decision (the review of `search:N`) [default: the search
    /// agent's default].
    #[arg(long, value_parser = crate::replay::parse_budget)]
    budget: Option<u32>,
    /// The reviewing search agent, as agents are named: search, search:N,
    /// search:N:SETTING=VALUE or search:SETTING=VALUE (a tuned search) [default: search].
    #[arg(long, conflicts_with = "budget", value_parser = crate::replay::parse_search)]
    search: Option<SearchSpec>,
    /// Print the review as one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn review(args: &ReviewArgs) -> Result<(), Failure> {
    let log = deal_log(&args.run, args.deal_id)?;
    let r = review_deal(
        &log.variant,
        log.deal_id,
        &log.decisions,
        args.seat,
        crate::replay::review_search(args.search, args.budget),
    );
    if args.json {
        outln!("{}", r.to_json());
    } else {
        out!("{}", r.to_text());
    }
    Ok(())
}
