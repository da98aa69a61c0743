//! `taisim score`: the scorer for people and for programs.

use std::io::{BufRead, Read, Write};

use crate::failure::{CliError, Failure};
use crate::output::outln;
use crate::simulate::whole;

use taisim_score::{
    score, score_json, RequestError, Score, ScoreJob, ScoreRequest, ScoringModel, Variant,
    VariantCache,
};
use taisim_sim::parse_flowers;
use taisim_sim::FlowerSet;
use taisim_sim::Seat;

#[derive(clap::Args)]
pub struct ScoreArgs {
    /// Concealed tiles including the winning tile, e.g. "123m 456p 789s EEE CC 66s".
    hand: Option<String>,
    /// Read one JSON object on stdin and write one on stdout.
    #[arg(long, conflicts_with = "jsonl")]
    json: bool,
    /// Read one JSON request per line on stdin and write one JSON answer per line on stdout,
    /// `{"error": "..."}` for a bad request (the rest are still scored).
    #[arg(long)]
    jsonl: bool,
    /// The winning tile.
    #[arg(long)]
    win_tile: Option<String>,
    /// Won on one's own draw (otherwise on a discard, which needs --discarder).
    #[arg(long)]
    self_drawn: bool,
    /// The winner's seat (E, S, W, N).
    #[arg(long, default_value = "E")]
    seat: String,
    /// The dealer's seat.
    #[arg(long, default_value = "E")]
    dealer: String,
    /// Consecutive deals the dealer has kept.
    #[arg(long, default_value_t = 0, value_parser = whole::<u8>("dealer streak"), allow_negative_numbers = true)]
    streak: u8,
    /// The round wind.
    #[arg(long, default_value = "E")]
    round_wind: String,
    /// Who discarded the winning tile (or declared the robbed kong).
    #[arg(long)]
    discarder: Option<String>,
    /// A meld, KIND:TILES with KIND one of chow, pung, kong, concealed_kong, added_kong
    /// (e.g. pung:EEE); repeat for several.
    #[arg(long = "meld")]
    melds: Vec<String>,
    /// Flowers held, e.g. f1f5.
    #[arg(long)]
    flowers: Option<String>,
    /// Circumstances, comma-separated: robbing_kong, kong_replacement, flower_replacement,
    /// last_tile, heavenly, earthly, human, ready_on_deal, declared_ready, last_copy,
    /// late_fresh_discard, flower_win.
    #[arg(long, value_delimiter = ',')]
    context: Vec<String>,
    /// Discards made in the deal when the hand went out (mahjongtime early winning).
    #[arg(long, value_parser = whole::<u8>("number of discards"), allow_negative_numbers = true)]
    discards: Option<u8>,
    /// A shipped variant's name or a variant file's path [default: taiwan16]. Not with
    /// --json or --jsonl: each request names its own ("variant").
    #[arg(long)]
    variant: Option<String>,
    /// Settle with this base (底); needs --per-tai too.
    #[arg(long, value_parser = crate::simulate::parse_stake, allow_negative_numbers = true)]
    base: Option<i64>,
    /// Settle with this value per tai.
    #[arg(long, value_parser = crate::simulate::parse_stake, allow_negative_numbers = true)]
    per_tai: Option<i64>,
    /// The turned-up wild indicator (taizhou 得牌), e.g. 9s.
    #[arg(long)]
    wild: Option<String>,
}

/// The most bytes `score --json` reads on stdin: one request is a few hundred bytes, so a
/// stream past this is not one request (`< /dev/zero`), and is refused before it fills
/// memory.
const JSON_LIMIT: u64 = 16 << 20;

/// The longest line `score --jsonl` reads: longer ones are answered with an error and
/// skipped to their end, never held whole.
const JSONL_LINE_LIMIT: usize = 1 << 20;

/// Why a line of `--jsonl` input (or the text of `--json`) is not one request, before it is
/// parsed: the reading of the stream is the command line's; what a request says is
/// [`RequestError`]'s.
#[derive(Debug, thiserror::Error)]
enum InputError {
    #[error("line longer than {JSONL_LINE_LIMIT} bytes: not one request; skipped")]
    TooLong,
    #[error("line is not UTF-8: {0}")]
    NotUtf8(#[source] std::str::Utf8Error),
    #[error("the JSON starts with a byte-order mark (U+FEFF, bytes EF BB BF), which JSON does not allow; save it as UTF-8 without a BOM")]
    ByteOrderMark,
    #[error("empty line: expected one JSON request")]
    Empty,
    #[error(transparent)]
    Request(#[from] RequestError),
}

/// A byte-order mark starting a JSON text: not JSON, named as what it is.
fn bom_error(text: &str) -> Option<InputError> {
    text.starts_with('\u{feff}')
        .then_some(InputError::ByteOrderMark)
}

/// The JSON request of `taisim score --json`.
pub fn run(args: &ScoreArgs) -> Result<(), Failure> {
    let usage = |message: String| Failure::from(CliError::Usage(message));
    if let (true, Some(v)) = (args.json || args.jsonl, &args.variant) {
        return Err(usage(format!(
            "--variant does not apply to --json or --jsonl: each request names its variant, as in {{\"variant\": {}, ...}} (taiwan16 when it names none)",
            serde_json::Value::from(v.as_str())
        )));
    }
    if args.jsonl {
        if args.hand.is_some() {
            return Err(usage(
                "give the hands as JSON lines on stdin with --jsonl, not as an argument".into(),
            ));
        }
        let stdin = std::io::stdin().lock();
        let stdout = std::io::stdout().lock();
        return match score_lines(stdin, stdout) {
            // A closed pipe (`taisim score --jsonl | head`) is the reader's choice.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            other => other.map_err(|e| CliError::flag("--jsonl")(e.into()).into()),
        };
    }
    if args.json {
        if args.hand.is_some() {
            return Err(usage(
                "give the hand either as an argument or in the JSON, not both".into(),
            ));
        }
        let mut bytes = Vec::new();
        std::io::stdin()
            .take(JSON_LIMIT + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| CliError::Input(format!("cannot read stdin: {e}")))?;
        if bytes.len() as u64 > JSON_LIMIT {
            return Err(CliError::Input(format!(
                "more than {JSON_LIMIT} bytes on stdin: --json reads one request (use --jsonl for many, one a line)"
            ))
            .into());
        }
        let text = String::from_utf8(bytes)
            .map_err(|e| CliError::Input(format!("stdin is not UTF-8 text: {e}")))?;
        if let Some(e) = bom_error(&text) {
            return Err(CliError::Input(e.to_string()).into());
        }
        outln!("{}", score_json(&text)?);
        return Ok(());
    }
    let hand = args.hand.as_deref().ok_or_else(|| {
        usage("give the hand (e.g. \"123m 456p 789s EEE CC 66s\") or --json".into())
    })?;
    let flowers = match &args.flowers {
        Some(f) => parse_flowers(f).map_err(|e| CliError::flag("--flowers")(e.into()))?,
        None => FlowerSet::EMPTY,
    };
    let melds = args
        .melds
        .iter()
        .map(|m| {
            let (kind, tiles) = m.split_once(':').ok_or_else(|| {
                usage(format!("--meld {m:?}: expected KIND:TILES, e.g. pung:EEE"))
            })?;
            Ok((kind.to_string(), tiles.to_string()))
        })
        .collect::<Result<Vec<_>, Failure>>()?;
    let req = ScoreRequest {
        variant: args.variant.as_deref().unwrap_or(Variant::DEFAULT).into(),
        round_wind: args.round_wind.as_str().into(),
        seat: args.seat.as_str().into(),
        dealer: args.dealer.as_str().into(),
        dealer_streak: args.streak,
        hand: hand.into(),
        melds,
        flowers: flowers.iter().map(|f| f.to_string()).collect(),
        win_tile: args.win_tile.as_deref().map(Into::into),
        win: if args.self_drawn {
            "self_draw"
        } else {
            "discard"
        }
        .into(),
        discarder: args.discarder.as_deref().map(Into::into),
        context: args.context.clone(),
        discards: args.discards,
        base: args.base,
        per_tai: args.per_tai,
        wild: args.wild.as_deref().map(Into::into),
        others: None,
        liability: None,
    };
    let job = ScoreJob::from_request(req)?;
    let s = score(&job.input, &job.variant).map_err(RequestError::from)?;
    print_table(&job, &s);
    Ok(())
}

/// `taisim score --jsonl`: answers each line of `input` with one line of `output`, in order.
/// Each variant is parsed once ([`VariantCache`]). A bad line (bad JSON, not UTF-8, an
/// impossible hand) is answered with `{"error": "..."}` and the next line is read; only a
/// failed read or write stops.
fn score_lines(input: impl Read, output: impl Write) -> std::io::Result<()> {
    let mut input = std::io::BufReader::with_capacity(1 << 16, input);
    let mut cache = VariantCache::new();
    let mut out = std::io::BufWriter::new(output);
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = (&mut input)
            .take(JSONL_LINE_LIMIT as u64 + 1)
            .read_until(b'\n', &mut line)?;
        if read == 0 {
            break;
        }
        let too_long = line.len() > JSONL_LINE_LIMIT && line.last() != Some(&b'\n');
        if too_long {
            // The rest of the line is skipped a buffer at a time, never held.
            loop {
                let buf = input.fill_buf()?;
                if buf.is_empty() {
                    break;
                }
                match buf.iter().position(|&b| b == b'\n') {
                    Some(i) => {
                        input.consume(i + 1);
                        break;
                    }
                    None => {
                        let n = buf.len();
                        input.consume(n);
                    }
                }
            }
        }
        let text = if too_long {
            Err(InputError::TooLong)
        } else {
            std::str::from_utf8(&line)
                .map_err(InputError::NotUtf8)
                .map(|t| t.trim_end_matches(['\n', '\r']))
                .and_then(|t| bom_error(t).map_or(Ok(t), Err))
        };
        // Each answer is written straight into the output buffer: the bytes of
        // `score --json`, with no JSON tree or `String` built per line.
        match text.and_then(|t| match t.trim() {
            "" => Err(InputError::Empty),
            _ => Ok(cache.score_request(t)?),
        }) {
            Ok(scored) => scored.answer().write_json(&mut out)?,
            Err(e) => serde_json::to_writer(
                &mut out,
                &ErrorAnswer {
                    error: &e.to_string(),
                },
            )?,
        }
        out.write_all(b"\n")?;
        // Batch the writes while more input is waiting, but answer at once when the caller
        // waits for this answer before sending the next request (a co-process).
        if input.buffer().is_empty() {
            out.flush()?;
        }
    }
    out.flush()
}

/// The answer to a request that could not be scored.
#[derive(serde::Serialize)]
struct ErrorAnswer<'a> {
    error: &'a str,
}

/// Pads to a display width, counting CJK characters as two columns.
fn pad(s: &str, width: usize) -> String {
    let w: usize = s
        .chars()
        .map(|c| if c as u32 >= 0x2e80 { 2 } else { 1 })
        .sum();
    format!("{s}{}", " ".repeat(width.saturating_sub(w)))
}

fn print_table(job: &ScoreJob, s: &Score) {
    let i = &job.input;
    let how = if i.context.self_draw {
        "self-drawn".to_string()
    } else {
        format!(
            "on {}'s discard",
            i.discarder.map_or("?".into(), |d| d.to_string())
        )
    };
    outln!(
        "variant {} · seat {} (seat wind {}, round {}, dealer {}) · {how} · wait {}",
        job.variant.name(),
        i.seat,
        i.seat_wind(),
        i.round_wind,
        i.dealer,
        s.wait.name()
    );
    outln!(
        "{}{}{}{:>4}",
        pad("牌型", 14),
        pad("pattern", 28),
        pad("", 34),
        "台"
    );
    for p in &s.patterns {
        let en = if p.count > 1 {
            format!("{} ×{}", p.name_en(), p.count)
        } else {
            p.name_en().to_string()
        };
        outln!(
            "{}{}{}{:>4}",
            pad(p.name_zh(), 14),
            pad(p.id.id(), 28),
            pad(&en, 34),
            p.tai
        );
    }
    match (s.capped, job.variant.scoring()) {
        // A points variant's cap is on the points, said on their line below.
        (true, ScoringModel::Tai) => outln!(
            "{}{:>4}  (capped at the variant's limit; the patterns add up to {})",
            pad("total", 76),
            s.total,
            s.patterns.iter().map(|p| p.tai as u32).sum::<u32>()
        ),
        _ => outln!("{}{:>4}", pad("total", 76), s.total),
    }
    outln!(
        "{}{:>4}",
        pad("dealer tai (payments with the dealer)", 76),
        s.dealer_tai
    );
    if let ScoringModel::Points { base_hu, .. } = job.variant.scoring() {
        let capped = if s.capped { " (capped)" } else { "" };
        outln!(
            "points: (底胡 {base_hu} + 胡 {}) × 2^{} = {}{capped}",
            s.hu,
            s.total,
            s.points
        );
    }
    if !s.meets_minimum {
        outln!(
            "below the minimum of {} tai (起胡): not a valid win",
            job.variant.min_tai()
        );
    }
    if let Some(values) = job.values(s) {
        let parts: Vec<String> = Seat::ALL
            .iter()
            .map(|&w| format!("{w} {}", values[w]))
            .collect();
        outln!("values (胡): {}", parts.join("  "));
        if let Some(r) = job.responsible(s) {
            outln!("全包: {r} pays for everyone");
        }
        if let Some(Ok(points)) = job.settlement_points(s) {
            let parts: Vec<String> = Seat::ALL
                .iter()
                .map(|&w| {
                    let sign = if points[w].halves() > 0 { "+" } else { "" };
                    format!("{w} {sign}{}", points[w])
                })
                .collect();
            outln!("settlement (胡): {}", parts.join("  "));
        }
        if let Some(pay) = job.settlement(s) {
            let parts: Vec<String> = pay.iter().map(|(w, v)| format!("{w} {v:+}")).collect();
            outln!("payments: {}", parts.join("  "));
        }
    } else if let Some(pay) = job.settlement(s) {
        let parts: Vec<String> = pay.iter().map(|(w, v)| format!("{w} {v:+}")).collect();
        outln!("settlement: {}", parts.join("  "));
    }
}
