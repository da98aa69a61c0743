//! `taisim play`: a person at the table, in a terminal, against built-in agents.
//!
//! The person is a client of the same events a bot is sent (`docs/protocol.md`): the deal is
//! told to the person's seat event by event ([`Event::seen_by`]), the table they see is the
//! one those events build ([`TableState`]), and at each decision the legal actions are
//! numbered as a bot's request numbers them. After the deal: the settlement, every hand
//! shown, and the search agent's review of the person's decisions.

use std::io::BufRead;
use std::sync::Arc;

use taisim_agents::protocol::{
    end_event_scored, start_event, step_events, Event, Message, TableState,
};
use taisim_agents::{see_step, Agent, AgentSpec};
use taisim_datasets::review::review;
use taisim_datasets::{write_settlement, EngineError, HarnessError};
use taisim_score::{score_deal, SettlementModel, Variant};
use taisim_sim::{
    chow_tiles, parse_tile, seat_wind, Action, ActionList, Deal, DealContext, MeldKind, Seat, Tile,
    Wind,
};

use crate::failure::{CliError, Failure};
use crate::input::{read_line, Line, MAX_LINE};
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

/// A seat as the person reads it: its letter (as `--seat` and every event name it) and the
/// wind it holds in this deal (門風: the dealer holds East), which is what 門風刻 and 正花
/// score. The two differ whenever the drawn dealer is not seat E.
fn seat_label(s: Seat, dealer: Seat) -> String {
    let wind = seat_wind(s, dealer);
    let name = match wind {
        Wind::East => "東 East",
        Wind::South => "南 South",
        Wind::West => "西 West",
        Wind::North => "北 North",
    };
    format!(
        "seat {s} ({name} wind{})",
        if s == dealer { ", dealer" } else { "" }
    )
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
    match e {
        Event::Draw { actor, .. } if *actor != me => None,
        Event::Start(_) | Event::Decision { .. } | Event::End(_) => None,
        e => Some(e.line(Some(me))),
    }
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
            "  {} {}{}  {} tiles",
            if s == me { "you," } else { "    " },
            seat_label(s, ctx.dealer),
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
    let bots = taisim_agents::ExecSettings {
        variant_sha256: crate::variant::recorded_sha256(args.variant.as_deref()),
        ..Default::default()
    };
    let opponent = spec
        .build_with(&variant, &bots)
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
        seat_label(me, context.dealer),
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
                match ask(&mut input, &legal)? {
                    Some(i) => legal[i],
                    None => {
                        // Not a finished deal: a script (or Ctrl-D) must be able to tell.
                        outln!();
                        return Err(Failure::from(CliError::Io(std::io::Error::new(
                            std::io::ErrorKind::UnexpectedEof,
                            format!(
                                "taisim play: no more input; the deal is left unfinished (play it again with --seed {seed})"
                            ),
                        ))));
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
        // A bot that failed answers with a fallback from then on: the person would play the
        // rest of the deal against something they did not choose. Stop at the fault.
        if let Some(f) = taisim_agents::exec::first_fault(&agents) {
            return Err(Failure::from(Box::new(f)));
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
    // Scored once: the end event the person's table is told, and the settlement shown.
    let st = variant.settlement();
    let scored = score_deal(&deal, &variant, st.base, st.per_tai).map_err(EngineError::from)?;
    let end = end_event_scored(&deal, &scored).map_err(EngineError::from)?;
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
            if s == me { "you, " } else { "" },
            seat_label(s, context.dealer),
            tiles(e.hands[s].tiles()),
            melds.join(" "),
            e.flowers[s]
        );
    }
    // The settlement as `replay` shows it: under a points variant (taizhou) the 胡 of each
    // pattern, every seat's value and the points before the stake, which the end event
    // does not carry.
    let mut settlement = Vec::new();
    write_settlement(
        &deal,
        &variant,
        &scored,
        st.per_tai,
        &HarnessError::engine(0, seed),
        &mut settlement,
    )?;
    for line in String::from_utf8_lossy(&settlement).lines() {
        outln!("  {line}");
    }
    outln!(
        "  you: {:+} {}",
        e.payments[me],
        match st.model {
            SettlementModel::AllPairs => "(points × the stake)",
            SettlementModel::WinnerPays => "points",
        }
    );
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

/// Reads a choice of one of `legal`, asking again after anything else; `None` at the end of
/// the input.
fn ask(input: &mut impl BufRead, legal: &ActionList) -> Result<Option<usize>, Failure> {
    loop {
        out!("choose [0-{}, or an action as listed]: ", legal.len() - 1);
        let _ = std::io::Write::flush(&mut crate::output::Stdout);
        // Bytes, not text: a stray byte that is not UTF-8 (a terminal set to Latin-1) is
        // answered like any other typing the table cannot read, not by ending the deal.
        let mut bytes = Vec::new();
        match read_line(input, &mut bytes) {
            Ok(Line::End) => return Ok(None),
            Ok(Line::Read) => {}
            Ok(Line::TooLong) => {
                return Err(Failure::from(CliError::Input(format!(
                    "reading your choice: a line longer than {MAX_LINE} bytes"
                ))))
            }
            Err(e) => {
                return Err(Failure::from(CliError::Input(format!(
                    "reading your choice: {e}"
                ))))
            }
        }
        let Ok(line) = std::str::from_utf8(&bytes) else {
            outln!(
                "  {:?} is not text this table can read (UTF-8)",
                String::from_utf8_lossy(&bytes).trim()
            );
            continue;
        };
        match choice(line.trim(), legal) {
            Ok(i) => return Ok(Some(i)),
            Err(why) => outln!("  {why}"),
        }
    }
}

/// The legal action a person typed: its number, its text as listed (`discard 5m`, `chow 3m
/// 4m 5m`, `pass`; any case, tiles in any notation the project reads), or a tile alone for
/// its plain discard.
fn choice(typed: &str, legal: &ActionList) -> Result<usize, String> {
    let last = legal.len() - 1;
    // Digits alone: Rust's integer parse also takes a leading `+`, which no list shows.
    if !typed.is_empty() && typed.bytes().all(|b| b.is_ascii_digit()) {
        return match typed.parse::<usize>() {
            Ok(i) if i <= last => Ok(i),
            _ => Err(format!("{typed} is not one of 0 to {last}")),
        };
    }
    // Words that are tiles are written as the list writes them (`7z` as `C`), then
    // compared without regard to case.
    let canonical = |text: &str| {
        text.split_whitespace()
            .map(|w| parse_tile(w).map_or(w.to_string(), |t| t.to_string()))
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let typed_text = canonical(typed);
    if let Some(i) = legal
        .iter()
        .position(|&a| canonical(&action_text(a)) == typed_text)
    {
        return Ok(i);
    }
    // A tile alone: its plain discard.
    let as_discard = canonical(&format!("discard {typed}"));
    if let Some(i) = legal
        .iter()
        .position(|&a| matches!(a, Action::Discard(_)) && canonical(&action_text(a)) == as_discard)
    {
        return Ok(i);
    }
    if let Ok(tile) = parse_tile(typed) {
        return Err(format!(
            "discarding {tile} is not among your choices; type a number from 0 to {last}, or an action as listed"
        ));
    }
    Err(format!(
        "{typed:?} is neither one of 0 to {last} nor an action as listed"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Typing that is not UTF-8 is asked again, as other unreadable typing is, rather than
    /// ending the deal; the end of input leaves it unfinished.
    #[test]
    fn bytes_that_are_not_text_are_asked_again() {
        let t = |s: &str| parse_tile(s).unwrap();
        let legal: ActionList = [Action::Discard(t("5m")), Action::Discard(t("C"))]
            .into_iter()
            .collect();
        let mut typed = std::io::Cursor::new(b"\xe9\n\xff\xfe1\n1\n".to_vec());
        assert_eq!(ask(&mut typed, &legal).ok(), Some(Some(1)));
        assert_eq!(ask(&mut typed, &legal).ok(), Some(None));
    }

    /// What a person may type at a prompt, and the action each picks (`None`: asked again).
    #[test]
    fn a_choice_is_a_number_an_action_as_listed_or_a_tile_to_discard() {
        let t = |s: &str| parse_tile(s).unwrap();
        let legal: ActionList = [
            Action::Discard(t("5m")),
            Action::Discard(t("C")),
            Action::DiscardReady(t("5m")),
            Action::Chow(t("3m")),
            Action::Pass,
        ]
        .into_iter()
        .collect();
        let cases: &[(&str, Option<usize>)] = &[
            ("0", Some(0)),
            ("4", Some(4)),
            ("5", None),
            ("-1", None),
            ("+1", None),
            ("01", Some(1)),
            ("99999999999999999999999", None),
            ("discard 5m", Some(0)),
            ("DISCARD  5M", Some(0)),
            ("5m", Some(0)),
            // Tenhou's 7z is 中, written C.
            ("7z", Some(1)),
            ("discard 7z", Some(1)),
            ("c", Some(1)),
            ("discard_ready 5m", Some(2)),
            ("chow 3m 4m 5m", Some(3)),
            ("chow 3m", None),
            ("pass", Some(4)),
            ("Pass", Some(4)),
            ("6m", None),
            ("discard F", None),
            ("five", None),
            ("", None),
        ];
        for &(typed, want) in cases {
            assert_eq!(choice(typed, &legal).ok(), want, "{typed:?}");
        }
        assert!(choice("99999999999999999999999", &legal)
            .unwrap_err()
            .contains("is not one of 0 to 4"));
        assert!(choice("6m", &legal)
            .unwrap_err()
            .contains("discarding 6m is not among your choices"));
    }
}
