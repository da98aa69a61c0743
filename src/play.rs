//! `taisim play`: a person at the table, in a terminal, against built-in agents.
//!
//! The person is a client of the same events a bot is sent (`docs/protocol.md`): the deal is
//! told to the person's seat event by event ([`Event::seen_by`]), the table they see is the
//! one those events build ([`TableState`]), and at each decision the legal actions are
//! numbered as a bot's request numbers them. After the deal: the settlement, every hand
//! shown, and the search agent's review of the person's decisions.

use std::io::BufRead;
use std::sync::Arc;

use taisim_agents::protocol::{end_event, start_event, step_events, Event, Message, TableState};
use taisim_agents::{see_step, Agent, AgentSpec};
use taisim_datasets::review::review;
use taisim_datasets::EngineError;
use taisim_score::Variant;
use taisim_sim::{chow_tiles, Action, ActionList, Deal, DealContext, MeldKind, Seat, Tile, Wind};

use crate::failure::{CliError, Failure};
use crate::output::{out, outln};

#[derive(clap::Args)]
pub struct PlayArgs {
    /// A shipped variant's name or a variant file's path [default: taiwan16].
    #[arg(long)]
    variant: Option<String>,
    /// Your seat: E, S, W or N.
    #[arg(long, default_value = "S", value_parser = crate::replay::parse_seat)]
    seat: Seat,
    /// The other seats' agent (one name): random, greedy, defensive, value, trained, policy:PATH,
    /// search, search:N, search:N:SETTING=VALUE, search:SETTING=VALUE, exec:COMMAND.
    #[arg(long, default_value = "search")]
    opponents: String,
    /// The deal's seed, 0 to 2^64 - 1 (it deals the wall, the dealer and the round wind)
    /// [default: from the clock, printed so the deal can be played again].
    #[arg(long, value_parser = crate::simulate::parse_seed, allow_negative_numbers = true)]
    seed: Option<u64>,
    /// Determinizations the search's review spends on each of your decisions (the review of
    /// `search:N`: its `*` marks what that agent plays) [default: plain `search`'s].
    #[arg(long, value_parser = crate::replay::parse_budget)]
    review_budget: Option<u32>,
    /// The search agent that reviews your decisions, as agents are named: search, search:N,
    /// search:N:SETTING=VALUE, search:SETTING=VALUE (a tuned search) [default: search].
    #[arg(long, conflicts_with = "review_budget", value_parser = crate::replay::parse_search)]
    review_search: Option<taisim_agents::SearchSpec>,
    /// No review after the deal.
    #[arg(long)]
    no_review: bool,
}

fn seat_name(s: Seat) -> &'static str {
    match s {
        Wind::East => "East 東",
        Wind::South => "South 南",
        Wind::West => "West 西",
        Wind::North => "North 北",
    }
}

fn tiles(ts: impl IntoIterator<Item = Tile>) -> String {
    ts.into_iter()
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn action_text(a: Action) -> String {
    match a {
        Action::Chow(low) => format!("chow {}", tiles(chow_tiles(low))),
        a => a.to_string(),
    }
}

/// One line for an event the person's seat is told (`None`: nothing to say).
fn event_line(e: &Event, me: Seat) -> Option<String> {
    let who = |s: &Seat| {
        if *s == me {
            "you".to_string()
        } else {
            s.to_string()
        }
    };
    Some(match e {
        Event::Draw { actor, tile, .. } if *actor == me => {
            format!("you draw {}", tile.map_or("?".into(), |t| t.to_string()))
        }
        Event::Draw { .. } | Event::Start(_) | Event::Decision { .. } | Event::End(_) => {
            return None
        }
        Event::Flower { actor, flower } => {
            format!(
                "{} show{} {flower} ({})",
                who(actor),
                if *actor == me { "" } else { "s" },
                flower.name_zh()
            )
        }
        Event::Discard { actor, tile, ready } => format!(
            "{} discard{} {tile}{}",
            who(actor),
            if *actor == me { "" } else { "s" },
            if *ready { " and declare ready" } else { "" }
        ),
        Event::Claim {
            kind,
            actor,
            from,
            tile,
            low,
        } => {
            let set = match kind {
                MeldKind::Chow => tiles(chow_tiles(*low)),
                k => tiles(std::iter::repeat_n(*tile, k.len() as usize)),
            };
            format!(
                "{} {} {tile} from {}: {set}",
                who(actor),
                kind.name(),
                who(from)
            )
        }
        Event::ConcealedKong { actor, tile } => format!(
            "{} lay{} a kong face down{}",
            who(actor),
            if *actor == me { "" } else { "s" },
            tile.map(|t| format!(": {t}")).unwrap_or_default()
        ),
        Event::AddedKong { actor, tile } => format!("{} add {tile} to a pung", who(actor)),
    })
}

/// The table as the person's events built it.
fn draw_table(t: &TableState, me: Seat) {
    let ctx = t.context.expect("started");
    outln!(
        "── {} · round {} · dealer {} · {} tiles left{} ──",
        t.variant,
        ctx.round_wind,
        ctx.dealer,
        t.left,
        match (t.wild_indicator, t.wild) {
            (Some(i), Some(w)) => format!(" · wild {w} (indicator {i})"),
            _ => String::new(),
        }
    );
    for k in 1..=4u8 {
        let s = me.add(k % 4);
        let melds: Vec<String> = t.melds[s]
            .iter()
            .map(|m| match (m.kind, m.tile) {
                (MeldKind::Chow, Some(low)) => tiles(chow_tiles(low)),
                (MeldKind::ConcealedKong, None) => "[face-down kong]".into(),
                (k, Some(t)) => tiles(std::iter::repeat_n(t, k.len() as usize)),
                (_, None) => "?".into(),
            })
            .collect();
        let river: Vec<String> = t
            .river
            .iter()
            .filter(|d| d.seat == s)
            .map(|d| {
                let mut x = d.tile.to_string();
                if d.claimed {
                    x = format!("({x})");
                }
                if d.ready {
                    x.push('!');
                }
                x
            })
            .collect();
        let flowers: Vec<String> = t.flowers[s].iter().map(|f| f.to_string()).collect();
        outln!(
            "  {} {}{}{}  {} tiles",
            if s == me { "you" } else { "   " },
            seat_name(s),
            if s == ctx.dealer { " (dealer)" } else { "" },
            if t.ready[s] { " READY" } else { "" },
            t.hand_sizes[s]
        );
        outln!(
            "      melds: {:<34} flowers: {}",
            if melds.is_empty() {
                "-".to_string()
            } else {
                melds.join(" | ")
            },
            if flowers.is_empty() {
                "-".to_string()
            } else {
                flowers.join(" ")
            }
        );
        outln!("      river: {}", river.join(" "));
    }
    if let Some(h) = t.hands[me] {
        let drawn = match t.drawn {
            Some((s, Some(x))) if s == me => format!("   (drew {x})"),
            _ => String::new(),
        };
        outln!("  your hand: {}{drawn}", tiles(h.tiles()));
    }
}

pub fn play(args: &PlayArgs) -> Result<(), Failure> {
    let variant = Variant::by_name_or_path(args.variant.as_deref().unwrap_or(Variant::DEFAULT))
        .map_err(|e| CliError::flag("--variant")(e.into()))?;
    let variant = Arc::new(variant);
    let spec: AgentSpec = args
        .opponents
        .parse()
        .map_err(|e: taisim_agents::AgentParseError| CliError::flag("--opponents")(e.into()))?;
    let opponent = spec
        .build(&variant)
        .map_err(|e| CliError::flag(format!("--opponents {spec}"))(e.into()))?;
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let context = DealContext::drawn(seed);
    let me = args.seat;
    let mut deal = Deal::new(variant.rules(), seed, context).map_err(EngineError::from)?;
    let mut agents = [
        opponent.clone(),
        opponent.clone(),
        opponent.clone(),
        opponent,
    ];
    taisim_agents::renew_bots(&mut agents, |_| taisim_agents::BotStderr::Inherit);
    for s in Wind::ALL {
        agents[s as usize].reset(seed, s);
    }
    let watching = agents.iter().any(Agent::sees_steps);
    outln!(
        "taisim play: you are {} against {spec} ({}, seed {seed}; play it again with --seed {seed})",
        seat_name(me),
        variant.name()
    );
    let mut table = TableState::default();
    let tell = |e: &Event, table: &mut TableState| -> Result<(), Failure> {
        if let Some(seen) = e.seen_by(me) {
            let m = Message {
                deal: 1,
                seat: Some(me),
                event: seen,
            };
            table.apply(&m).map_err(|x| {
                CliError::Protocol(format!("the table and its events disagree: {x}"))
            })?;
            if let Some(line) = event_line(&m.event, me) {
                outln!("  {line}");
            }
        }
        Ok(())
    };
    tell(&start_event(&deal, variant.name(), None, None), &mut table)?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut legal = ActionList::new();
    let mut events = Vec::new();
    let mut mine = Vec::new();
    while let Some(seat) = deal.to_act() {
        let action = if seat == me {
            deal.legal_actions(&mut legal);
            let chosen = if legal.len() == 1 {
                legal[0]
            } else {
                outln!();
                draw_table(&table, me);
                match deal.tile_on_offer() {
                    Some(t) => outln!("  {t} is on offer to you:"),
                    None => outln!("  your turn:"),
                }
                for (i, a) in legal.iter().enumerate() {
                    out!("  {i:>2} {:<18}", action_text(*a));
                    if i % 4 == 3 || i + 1 == legal.len() {
                        outln!();
                    }
                }
                match ask(&mut input, legal.len())? {
                    Some(i) => legal[i],
                    None => {
                        outln!();
                        outln!(
                            "taisim play: no more input; the deal is left unfinished (seed {seed})"
                        );
                        return Ok(());
                    }
                }
            };
            mine.push((deal.clone(), chosen));
            chosen
        } else {
            agents[seat as usize].act_in(&deal, seat, &mut legal)
        };
        if watching {
            see_step(&mut agents, &deal, Some(action));
        }
        let before = deal.clone();
        deal.play_unchecked(action);
        events.clear();
        step_events(&before, action, &deal, &mut events);
        for e in &events {
            tell(e, &mut table)?;
        }
    }
    if watching {
        see_step(&mut agents, &deal, None);
        if let Some(f) = taisim_agents::exec::first_fault(&agents) {
            return Err(Failure::from(Box::new(f)));
        }
    }
    let st = variant.settlement();
    let end = end_event(&deal, &variant, st.base, st.per_tai).map_err(EngineError::from)?;
    tell(&end, &mut table)?;
    let Some(e) = &table.end else {
        unreachable!("the end was told")
    };
    outln!();
    outln!(
        "── the deal is over: {} ──",
        e.result.outcome.name().replace('_', " ")
    );
    for s in Wind::ALL {
        let melds: Vec<String> = e.melds[s].iter().map(|m| m.to_string()).collect();
        outln!(
            "  {}{}: {}  {}  {}",
            if s == me { "you " } else { "" },
            seat_name(s),
            tiles(e.hands[s].tiles()),
            melds.join(" "),
            e.flowers[s]
        );
    }
    for w in &e.wins {
        outln!(
            "  {} win{} with {} tai{}:",
            if w.seat == me {
                "you".to_string()
            } else {
                w.seat.to_string()
            },
            if w.seat == me { "" } else { "s" },
            w.tai,
            e.result
                .win_tile
                .map(|t| format!(" on {t}"))
                .unwrap_or_default()
        );
        for p in &w.patterns {
            outln!("      {:<10} {:>3}  {}", p.name, p.tai, p.id);
        }
    }
    outln!(
        "  payments: {}",
        Wind::ALL
            .map(|s| format!("{s} {:+}", e.payments[s]))
            .join("  ")
    );
    outln!("  you: {:+} points", e.payments[me]);
    if !args.no_review {
        let decisions: Vec<(Deal, Action)> = mine
            .into_iter()
            .filter(|(d, _)| {
                d.legal_actions(&mut legal);
                legal.len() > 1
            })
            .collect();
        outln!();
        let search = crate::replay::review_search(args.review_search, args.review_budget);
        outln!(
            "the search reviews your decisions ({}; a few seconds):",
            AgentSpec::Search(search)
        );
        let r = review(&variant, seed, &decisions, me, search);
        out!("{}", r.to_text());
    }
    Ok(())
}

/// Reads a choice from 0 to `n - 1`, asking again after anything else; `None` at the end of
/// the input.
fn ask(input: &mut impl BufRead, n: usize) -> Result<Option<usize>, Failure> {
    loop {
        out!("choose [0-{}]: ", n - 1);
        let _ = std::io::Write::flush(&mut crate::output::Stdout);
        let mut line = String::new();
        match input.read_line(&mut line) {
            Ok(0) => return Ok(None),
            Ok(_) => {}
            Err(e) => {
                return Err(Failure::from(CliError::Input(format!(
                    "reading your choice: {e}"
                ))))
            }
        }
        match line.trim().parse::<usize>() {
            Ok(i) if i < n => return Ok(Some(i)),
            _ => outln!("  {:?} is not one of 0 to {}", line.trim(), n - 1),
        }
    }
}
