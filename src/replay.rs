//! `taisim replay`: a deal of a run step by step (text), as a deal log in the bot protocol's
//! vocabulary (`--json`), as an HTML page (`--html`); and the check of a deal log
//! (`--log FILE`).

use std::path::PathBuf;
use std::sync::Arc;

use taisim_agents::{AgentSpec, SearchSpec};
use taisim_datasets::review::review;
use taisim_datasets::{deal_log, write_atomically, DealLog, HarnessError};
use taisim_sim::{Seat, Wind};

use crate::failure::{CliError, Failure};
use crate::output::{outln, Stdout};

#[derive(clap::Args)]
pub struct ReplayArgs {
    /// The run directory.
    #[arg(required_unless_present = "log")]
    run: Option<PathBuf>,
    /// The deal's `deal_id`.
    #[arg(value_parser = crate::simulate::parse_deal_id, allow_negative_numbers = true)]
    deal_id: Option<u64>,
    /// Write the deal as a deal log: the bot protocol's events with every seat's view merged
    /// and each decision between them, one JSON object a line (docs/protocol.md).
    #[arg(long)]
    json: bool,
    /// With --json and no DEAL: every deal of the run, one after another.
    #[arg(long, requires = "json", conflicts_with = "deal_id")]
    all: bool,
    /// Write the deal as one self-contained HTML page that steps through it.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// With --html: the search's review of this seat's decisions (E, S, W or N) beside them.
    #[arg(long, value_name = "SEAT", requires = "html", value_parser = parse_seat)]
    review: Option<Seat>,
    /// Determinizations each reviewed decision (the review of `search:N`) [default: the
    /// search agent's default].
    #[arg(long, requires = "review", value_parser = parse_budget)]
    budget: Option<u32>,
    /// The reviewing search agent, as agents are named: search, search:N,
    /// search:N:SETTING=VALUE, search:SETTING=VALUE (a tuned search) [default: search].
    #[arg(long, requires = "review", conflicts_with = "budget", value_parser = parse_search)]
    search: Option<SearchSpec>,
    /// Check a deal log: deal each deal from its seed, play the logged decisions and compare
    /// every event with the log's, naming the first that differs.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["run", "deal_id", "all", "json"])]
    log: Option<PathBuf>,
    /// With --log and --html: the deal of the log to draw (when it holds several).
    #[arg(long, requires = "log", value_parser = crate::simulate::parse_deal_id)]
    deal: Option<u64>,
    /// With --log: the variant file of a log whose variant is not a shipped one.
    #[arg(long, requires = "log")]
    variant: Option<String>,
}

pub(crate) fn parse_seat(s: &str) -> Result<Seat, String> {
    let mut c = s.trim().chars();
    match (c.next().and_then(Wind::from_char), c.next()) {
        (Some(w), None) => Ok(w),
        _ => Err(format!("a seat is E, S, W or N; got {s:?}")),
    }
}

pub(crate) fn parse_budget(s: &str) -> Result<u32, String> {
    let max = taisim_agents::search::SearchConfig::MAX_DETERMINIZATIONS;
    match crate::simulate::parse_whole("budget", s, max as u64)? {
        0 => Err("the budget must be at least 1 determinization".into()),
        n => Ok(n as u32),
    }
}

/// A search agent's name (`search`, `search:N`, `search:N:SETTING=VALUE, search:SETTING=VALUE`).
pub(crate) fn parse_search(s: &str) -> Result<SearchSpec, String> {
    taisim_datasets::review::reviewing_search(s.parse::<AgentSpec>().map_err(|e| e.to_string())?)
}

/// The reviewing search: `--search`, else `search:` `--budget`, else plain `search`.
pub(crate) fn review_search(search: Option<SearchSpec>, budget: Option<u32>) -> SearchSpec {
    search.unwrap_or_else(|| budget.map_or(SearchSpec::DEFAULT, SearchSpec::with_budget))
}

/// The options that go only with others, refused where those are absent. clap's `requires`
/// cannot say it here: `--log` conflicts with RUN, and a required argument that conflicts
/// with one given is taken as satisfied.
fn check_options(args: &ReplayArgs) -> Result<(), Failure> {
    let refuse = |why: &str| Err(Failure::from(CliError::Usage(why.to_string())));
    if args.log.is_none() {
        if let Some(v) = &args.variant {
            return refuse(&format!(
                "--variant {v} goes with --log (the variant file of a deal log); a run's deals are replayed under the variant the run recorded (its variant.toml)"
            ));
        }
        if let Some(id) = args.deal {
            return refuse(&format!(
                "--deal {id} goes with --log and --html (the deal of a log to draw); a run's deal is the DEAL_ID after the run directory"
            ));
        }
    } else if let (Some(id), None) = (args.deal, &args.html) {
        return refuse(&format!(
            "--deal {id} picks the deal of the log that --html draws; without --html every deal of the log is checked"
        ));
    }
    if args.all && args.html.is_some() {
        return refuse("--html draws one deal and --all writes every deal's log: give the deal's DEAL_ID for a page");
    }
    Ok(())
}

pub fn replay(args: &ReplayArgs) -> Result<(), Failure> {
    check_options(args)?;
    if let Some(path) = &args.log {
        return check_log(args, path);
    }
    let run = args.run.as_ref().expect("clap requires RUN without --log");
    if args.all {
        let written = taisim_datasets::write_run_log(run, &mut Stdout)?;
        // The logs are of the recorded parts: a run still playing, or killed, has fewer deals
        // than its spec, and a consumer counting lines would take them for the whole run.
        if written.parts as u64 != written.parts_in_run {
            eprintln!(
                "warning: {} records {} of its {} parts (a shard missing, still running or killed): only their deals were written; a killed run is finished with taisim simulate --resume --out {} (and its --shard)",
                run.display(),
                written.parts,
                written.parts_in_run,
                run.display()
            );
        }
        return Ok(());
    }
    let Some(deal_id) = args.deal_id else {
        return Err(Failure::from(CliError::Usage(
            "which deal? give its deal_id after the run directory (or --all --json for every deal)"
                .to_string(),
        )));
    };
    if !args.json && args.html.is_none() {
        return taisim_datasets::replay(run, deal_id, &mut Stdout).map_err(Failure::from);
    }
    if let Some(html) = &args.html {
        taisim_datasets::check_output(html)?;
    }
    let log = deal_log(run, deal_id)?;
    if args.json {
        crate::output::out!("{}", log.to_jsonl());
    }
    if let Some(html) = &args.html {
        write_page(&log, html, args)?;
    }
    Ok(())
}

fn write_page(
    log: &DealLog,
    path: &std::path::Path,
    args: &ReplayArgs,
) -> Result<(), HarnessError> {
    let search = review_search(args.search, args.budget);
    let reviewed = args
        .review
        .map(|s| review(&log.variant, log.deal_id, &log.decisions, s, search));
    let page = taisim_datasets::html::deal_page(log, reviewed.as_ref());
    write_atomically(path, page.as_bytes())
}

fn check_log(args: &ReplayArgs, path: &std::path::Path) -> Result<(), Failure> {
    if let Some(html) = &args.html {
        taisim_datasets::check_output(html)?;
    }
    let given = match &args.variant {
        None => None,
        Some(v) => {
            let found = taisim_datasets::RunVariant::by_name_or_path(v)
                .map_err(|e| CliError::flag("--variant")(e.into()))?;
            Some((Arc::clone(found.variant()), found.record().sha256.clone()))
        }
    };
    let flag = || CliError::flag(format!("--log {}", path.display()));
    // What is at the path is the user's to fix (exit 2), as every input file of a command.
    let (file, _) = taisim_score::file::open_regular(path)
        .map_err(|e| flag()(CliError::Input(e.to_string())))?;
    let name = path.display().to_string();
    let deals = taisim_datasets::verify_log(std::io::BufReader::new(file), &name, given.as_ref())
        .map_err(|e| CliError::flag(name.clone())(e.into()))?;
    for (v, _) in &deals {
        let p = v.payments;
        outln!(
            "deal {}: {} events verified ({}; payments E {} S {} W {} N {})",
            v.deal_id,
            v.events,
            v.outcome,
            p[0],
            p[1],
            p[2],
            p[3]
        );
    }
    outln!(
        "{name}: {} deal(s) verified against the engine",
        deals.len()
    );
    if let Some(html) = &args.html {
        let (_, log) = match args.deal {
            Some(id) => deals.iter().find(|(v, _)| v.deal_id == id).ok_or_else(|| {
                CliError::Usage(format!("--deal {id}: the log holds no deal {id}"))
            })?,
            None if deals.len() == 1 => &deals[0],
            None => {
                return Err(Failure::from(CliError::Usage(format!(
                    "the log holds {} deals: choose the one to draw with --deal",
                    deals.len()
                ))))
            }
        };
        write_page(log, html, args)?;
    }
    Ok(())
}
