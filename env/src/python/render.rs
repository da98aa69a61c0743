//! The table of a deal as text (`render_mode="ansi"`).

use taisim_sim::{Deal, Seat, Wind};

/// The table of a deal as `taisim deal` prints its start: every seat's concealed tiles and
/// flowers, with the melds and river so far, the seat to act and the wall.
pub(super) fn render_deal(deal: &Deal, learner: Option<Seat>) -> String {
    use std::fmt::Write;
    let ctx = deal.context();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "seed {}  dice {:?}  dealer {}  round {}  step {}  wall {}",
        deal.seed(),
        deal.wall().dice(),
        ctx.dealer,
        ctx.round_wind,
        deal.steps(),
        deal.tiles_left()
    );
    if let Some(w) = deal.wild() {
        // The turned-up indicator's kind (taizhou's 得牌), as the observation's wild row.
        let _ = writeln!(out, "wild {w}");
    }
    for s in Wind::ALL {
        let mark = match (Some(s) == learner, Some(s) == deal.to_act()) {
            (true, true) => "*>",
            (true, false) => "* ",
            (false, true) => " >",
            (false, false) => "  ",
        };
        let melds: Vec<String> = deal.melds(s).iter().map(|m| m.to_string()).collect();
        let river: Vec<String> = deal
            .discards()
            .iter()
            .filter(|d| d.seat() == s && !d.is_claimed())
            .map(|d| d.tile().to_string())
            .collect();
        let _ = writeln!(
            out,
            "{mark}{s}: {}  melds [{}]  flowers {}  river {}",
            deal.hand(s),
            melds.join(" "),
            deal.flowers(s),
            river.concat()
        );
    }
    match (deal.result(), deal.tile_on_offer()) {
        (Some(r), _) => {
            let winners: Vec<String> = r.winners.iter().map(|s| s.to_string()).collect();
            let _ = writeln!(out, "over: {} {}", r.outcome.name(), winners.join(" "));
        }
        (None, Some(t)) => {
            let _ = writeln!(out, "on offer: {t}");
        }
        (None, None) => {}
    }
    out
}
