//! `taisim arena`: a duplicate match of a candidate agent against a baseline, played by
//! the library's arena (`taisim_datasets::Arena`, which Python's `taisim.arena` shares),
//! printed as one JSON object or as a table.

use taisim_agents::ExecSettings;
use taisim_datasets::{per_second, Arena, ArenaError, ArenaReport, Contender};
use taisim_score::Variant;

use crate::failure::{CliError, Failure};
use crate::output::outln;
use crate::simulate::{parse_seed, parse_threads, progress_mode, ProgressArg};

#[derive(clap::Args)]
pub struct ArenaArgs {
    /// The agent under test: random, greedy, defensive, value, trained, search, search:N,
    /// search:N:SETTING=VALUE, search:SETTING=VALUE (a tuned search), policy:PATH, exec:COMMAND (one name).
    #[arg(long)]
    candidate: String,
    /// The agent it is measured against, in the other three seats and on the reference
    /// table (one name).
    #[arg(long)]
    baseline: String,
    /// The agent in the other three seats around both the candidate and the baseline, each
    /// played in every seat against it (eight tables a wall; one name) [default: the
    /// baseline].
    #[arg(long)]
    field: Option<String>,
    /// Walls (deals) to play; each is played five times (eight with --field).
    #[arg(long, value_parser = crate::simulate::count("number of deals"), allow_negative_numbers = true)]
    deals: u64,
    /// Seed, 0 to 2^64 - 1: wall i is dealt from (seed, i) alone.
    #[arg(long, default_value_t = 0, value_parser = parse_seed, allow_negative_numbers = true)]
    seed: u64,
    /// A shipped variant's name or a variant file's path: its rules deal the walls and its
    /// settlement (base + tai × per_tai) gives the points [default: taiwan16].
    #[arg(long)]
    variant: Option<String>,
    /// Worker threads, 1 to 1024 (default: all cores). The result does not depend on it.
    #[arg(long, value_parser = parse_threads, allow_negative_numbers = true)]
    threads: Option<usize>,
    /// Print the result as one JSON object instead of a table.
    #[arg(long)]
    json: bool,
    /// Seconds an exec: agent may take over one decision [default: 10].
    #[arg(long, value_parser = crate::simulate::parse_bot_timeout, allow_negative_numbers = true)]
    bot_timeout: Option<f64>,
    /// No progress output.
    #[arg(long, conflicts_with = "progress")]
    quiet: bool,
    /// Progress in walls on stderr: a bar on a terminal, plain lines in a log.
    #[arg(long, value_enum, default_value_t = ProgressArg::Auto)]
    progress: ProgressArg,
}

/// `taisim arena`: the match played by the library ([`Arena`]), printed as JSON or a table.
/// A side's or the variant's error names its flag.
pub fn arena(args: &ArenaArgs) -> Result<(), Failure> {
    let variant = args.variant.as_deref().unwrap_or(Variant::DEFAULT);
    let variant = std::sync::Arc::new(
        Variant::by_name_or_path(variant).map_err(|e| flagged(ArenaError::Variant(e)))?,
    );
    let mut bots = args
        .bot_timeout
        .map_or_else(ExecSettings::default, ExecSettings::with_timeout);
    bots.variant_sha256 = crate::variant::recorded_sha256(args.variant.as_deref());
    let mut duel =
        Arena::with_settings(&args.candidate, &args.baseline, variant, &bots).map_err(flagged)?;
    if let Some(field) = &args.field {
        duel = duel
            .with_field(Contender::Named(field), &bots)
            .map_err(flagged)?;
    }
    let progress = progress_mode(args.quiet, args.progress);
    let run = duel.play_showing(args.deals, args.seed, args.threads, progress)?;
    if args.json {
        outln!("{}", run.report.to_json());
    } else {
        print_table(&run.report, run.seconds, run.threads);
    }
    Ok(())
}

/// An arena's error with the flag that gave the value: `--candidate: unknown agent …`,
/// `--baseline policy:p.safetensors: cannot read …`, `--field: …`, `--variant: …`.
fn flagged(e: ArenaError) -> CliError {
    match e {
        ArenaError::AgentName { side, source } => {
            CliError::flag(format!("--{side}"))(source.into())
        }
        ArenaError::Agent { side, spec, source } => {
            CliError::flag(format!("--{side} {spec}"))(source.into())
        }
        ArenaError::Variant(e) => CliError::flag("--variant")(e.into()),
        e => e.into(),
    }
}

fn print_table(r: &ArenaReport, seconds: f64, threads: usize) {
    let field = r
        .field
        .as_ref()
        .map(|f| format!(", each against {f} (field)"))
        .unwrap_or_default();
    outln!(
        "arena: {} (candidate) vs {} (baseline){field}, {}, seed {}",
        r.candidate,
        r.baseline,
        r.variant,
        r.seed
    );
    for (name, in_full) in [
        (Some(&r.candidate), &r.candidate_in_full),
        (Some(&r.baseline), &r.baseline_in_full),
        (r.field.as_ref(), &r.field_in_full),
    ] {
        if let (Some(name), Some(in_full)) = (name, in_full) {
            outln!("{name} is {in_full}");
        }
    }
    outln!(
        "{} walls × {} = {} deals in {:.2} s ({} walls/s on {} thread{})",
        r.deals,
        r.deals_played / r.deals.max(1),
        r.deals_played,
        seconds,
        per_second(r.deals as f64 / seconds.max(1e-9)),
        threads,
        if threads == 1 { "" } else { "s" }
    );
    outln!();
    outln!("points per deal, candidate minus baseline in the same seat on the same wall:");
    match (r.ci95_low, r.ci95_high) {
        (Some(lo), Some(hi)) => outln!(
            "  mean_diff {:+.3}   95% CI [{lo:+.3}, {hi:+.3}]",
            r.mean_diff
        ),
        _ => outln!("  mean_diff {:+.3}   (one wall: no interval)", r.mean_diff),
    }
    outln!();
    outln!("{:<16} {:>12} {:>12}", "", "candidate", "baseline");
    let c = &r.candidate_stats;
    let b = &r.baseline_stats;
    outln!(
        "{:<16} {:>12.3} {:>12.3}",
        "points/deal",
        c.points_per_deal,
        b.points_per_deal
    );
    for (name, x, y) in [
        ("win rate", c.win_rate, b.win_rate),
        ("self-draw rate", c.self_draw_rate, b.self_draw_rate),
        ("deal-in rate", c.deal_in_rate, b.deal_in_rate),
    ] {
        outln!("{:<16} {:>11.2}% {:>11.2}%", name, 100.0 * x, 100.0 * y);
    }
}
