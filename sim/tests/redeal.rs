//! Determinizations ([`View::redeal`]): at every decision of random deals of every rules set,
//! a uniformly redealt deal is a legal deal (`validate`), shows the deciding seat exactly what
//! the real one shows it, offers it the same actions, and plays on to an end; and it depends on
//! nothing the seat cannot see: redealing a redealt deal with the same fill gives the same deal.

#[path = "support/rule_sets.rs"]
mod rule_sets;

use taisim_sim::{
    bounded, rng_from_seed, Action, ActionList, Deal, DealContext, Fill, MeldKind, RedealError,
    Seat, View, Wind,
};

/// Everything `view` shows, in one comparable value.
fn shown(view: &View<'_>) -> String {
    let mut s = format!(
        "seat {} hand {:?} seen {:?} left {} drawable {} offer {:?} drawn {:?} wild {:?} \
         missed {} barred {:?} waits {:?} ctx {:?} to_act {:?} kong {:?} flower {:?}",
        view.seat(),
        view.hand(),
        view.seen_counts(),
        view.tiles_left(),
        view.drawable(),
        view.tile_on_offer(),
        view.drawn_tile(),
        view.wild_indicator(),
        view.is_missed(),
        view.pung_barred(),
        view.waits(),
        view.context(),
        view.to_act().is_some(),
        view.kong_on_offer(),
        view.flower_on_offer(),
    );
    for seat in Wind::ALL {
        s += &format!(
            " | {seat}: len {} flowers {:?} ready {} melds {:?}",
            view.hand_len(seat),
            view.flowers(seat),
            view.declared_ready(seat),
            view.melds(seat).collect::<Vec<_>>(),
        );
    }
    s += &format!(" | river {:?}", view.discards());
    s
}

/// Answers with the first legal action until `seat` must decide (the seats asked before it
/// about a discard are asked again in a redealt deal); false if the offer passes it by.
fn advance_to(deal: &mut Deal, seat: Seat) -> bool {
    let mut legal = ActionList::new();
    while let Some(s) = deal.to_act() {
        if s == seat {
            return true;
        }
        deal.legal_actions(&mut legal);
        let pass = legal.iter().copied().find(|&a| a == Action::Pass);
        deal.play(pass.unwrap_or(legal[0])).unwrap();
        if deal.tile_on_offer().is_none() {
            return false;
        }
    }
    false
}

/// What the checks met, over a run of deals.
#[derive(Default)]
struct Tally {
    /// Decisions redealt.
    checked: u64,
    /// Of them, decisions facing a face-down kong.
    with_hidden_kongs: u64,
    /// Of them, decisions robbing a kong, and robbing a flower.
    robs: [u64; 2],
}

/// Checks the decision of `deal`'s seat to act: its view's unseen tiles fill the hidden
/// places, and a redealt deal is legal, shows the seat the same, offers it the same actions,
/// depends on the view alone and plays on by random choices to a legal end.
fn check_decision(
    name: &str,
    i: u64,
    deal: &Deal,
    rng: &mut impl rand_core::RngCore,
    tally: &mut Tally,
) {
    let seat = deal.to_act().unwrap();
    let view = deal.view(seat);
    let unseen = view.unseen();
    assert_eq!(
        unseen.counts.iter().map(|&n| n as usize).sum::<usize>(),
        unseen.places(),
        "{name} deal {i}: the unseen tiles fill the hidden places"
    );
    let mut legal = ActionList::new();
    match Fill::shuffled(&unseen, rng).map(|f| (view.redeal(&f), f)) {
        Some((Ok(mut redealt), fill)) => {
            assert!(view.can_redeal(), "{name} deal {i}");
            redealt
                .validate()
                .unwrap_or_else(|e| panic!("{name} deal {i}: {e}"));
            tally.with_hidden_kongs += u64::from(unseen.hidden_kongs.0.iter().any(|&n| n > 0));
            tally.robs[0] += u64::from(view.kong_on_offer().is_some());
            tally.robs[1] += u64::from(view.flower_on_offer().is_some());
            if advance_to(&mut redealt, seat) {
                assert_eq!(shown(&redealt.view(seat)), shown(&deal.view(seat)));
                assert_eq!(redealt.legal(), deal.legal(), "{name} deal {i}");
                // The redealt deal differs from the real one in everything hidden (hands,
                // kongs, wall, the answers of the seats asked before): redealing either with
                // the same fill gives the same deal.
                let again = redealt.view(seat).redeal(&fill).unwrap();
                assert_eq!(again, view.redeal(&fill).unwrap(), "{name} deal {i}");
                let other = Fill::shuffled(&unseen, rng).unwrap();
                assert_eq!(
                    view.redeal(&other).unwrap(),
                    redealt.view(seat).redeal(&other).unwrap(),
                    "{name} deal {i}: a redeal depends on the view alone"
                );
            } else {
                // A seat asked before the viewer won on the redealt hands.
                assert!(deal.tile_on_offer().is_some());
            }
            // Played on by random choices to an end, checked at every step.
            while !redealt.is_over() {
                redealt.legal_actions(&mut legal);
                let a = legal[bounded(rng, legal.len() as u32) as usize];
                redealt.play(a).unwrap();
                redealt
                    .validate()
                    .unwrap_or_else(|e| panic!("{name} deal {i}: {e}"));
            }
            tally.checked += 1;
        }
        Some((Err(RedealError::NotDeciding(_)), _)) => {
            // Only a flower robbed while the flowers first dealt are still being replaced.
            assert!(!view.can_redeal(), "{name} deal {i}");
            assert!(view.flower_on_offer().is_some(), "{name} deal {i}");
            let legal = deal.legal();
            assert!(legal.contains(Action::Win) && legal.len() == 2);
        }
        Some((Err(e), _)) => panic!("{name} deal {i}: {e}"),
        None => panic!("{name} deal {i}: no fill"),
    }
}

/// Plays `deals` deals of every rules set with `choose` at every decision, checking each
/// decision ([`check_decision`]).
fn check_deals(
    deals: u64,
    mut choose: impl FnMut(&Deal, &ActionList, &mut rand_pcg::Pcg64Mcg) -> Action,
) -> Tally {
    let mut tally = Tally::default();
    for (name, rules) in rule_sets::rule_sets() {
        for i in 0..deals {
            let context = DealContext {
                round_wind: Wind::new((i / 4) as u8),
                dealer: Wind::new(i as u8),
                streak: 0,
            };
            let mut deal = Deal::new(rules, i, context).unwrap();
            let mut rng = rng_from_seed(i ^ 0x5eed);
            let mut legal = ActionList::new();
            while deal.to_act().is_some() {
                check_decision(name, i, &deal, &mut rng, &mut tally);
                deal.legal_actions(&mut legal);
                let a = choose(&deal, &legal, &mut rng);
                deal.play(a).unwrap();
            }
        }
    }
    tally
}

#[test]
fn redealt_deals_are_legal_show_the_same_and_play_to_the_end() {
    const DEALS: u64 = 300;
    let tally = check_deals(DEALS, |_, legal, rng| {
        legal[bounded(rng, legal.len() as u32) as usize]
    });
    assert!(
        tally.checked > 6 * DEALS * 20,
        "{} decisions redealt",
        tally.checked
    );
    assert!(
        tally.with_hidden_kongs > 0,
        "no decision faced a face-down kong"
    );
}

/// Random play seldom makes a hand ready, so it seldom meets a kong or a flower that another
/// seat may rob. Play that wins whenever it may, pungs every discard it may, adds every kong
/// it may, and otherwise discards a tile of least shanten does: the same checks at those
/// decisions too.
#[test]
fn a_kong_or_a_flower_a_seat_may_rob_is_redealt() {
    let tally = check_deals(150, |deal, legal, rng| {
        let find = |f: fn(&Action) -> bool| legal.iter().copied().find(f);
        if let Some(a) = find(|a| a.is_win())
            .or_else(|| find(|a| matches!(a, Action::AddedKong(_) | Action::Pung)))
        {
            return a;
        }
        if legal.contains(&Action::Pass) {
            return Action::Pass;
        }
        let seat = deal.to_act().unwrap();
        let view = deal.view(seat);
        let sets = view.rules().sets - view.own_melds().len() as u8;
        let rules = taisim_sim::algo::HandRules::new(sets, view.rules().special);
        let (_, least) = taisim_sim::algo::Discards::new(view.hand(), rules).least();
        let discards: Vec<Action> = least
            .into_iter()
            .map(Action::Discard)
            .filter(|a| legal.contains(a))
            .collect();
        match discards.len() {
            0 => legal[bounded(rng, legal.len() as u32) as usize],
            n => discards[bounded(rng, n as u32) as usize],
        }
    });
    eprintln!(
        "robs redealt (kong, flower): {:?} of {} decisions",
        tally.robs, tally.checked
    );
    assert!(tally.robs[0] > 0, "no decision robbing a kong was redealt");
}

#[test]
fn a_fill_that_does_not_match_the_unseen_tiles_is_refused() {
    let deal = Deal::new(taisim_sim::Rules::TAIWAN16, 3, DealContext::FIRST).unwrap();
    let seat = deal.to_act().unwrap();
    let view = deal.view(seat);
    let unseen = view.unseen();
    let mut rng = rng_from_seed(1);
    let good = Fill::shuffled(&unseen, &mut rng).unwrap();
    assert!(view.redeal(&good).is_ok());

    let mut short = good.clone();
    short.wall.pop();
    assert!(matches!(view.redeal(&short), Err(RedealError::Wall { .. })));

    // One tile swapped for one the seat holds four of or can see.
    let other = seat.next();
    let mut swapped = good.clone();
    let t = swapped.hands[other].tiles().next().unwrap();
    swapped.hands[other].remove(t);
    let seen = view.seen_counts();
    let full = taisim_sim::Tile::ALL
        .into_iter()
        .find(|k| seen[k.index()] > 0 && *k != t)
        .unwrap();
    swapped.hands[other].add(full);
    let err = view.redeal(&swapped).unwrap_err();
    assert!(matches!(err, RedealError::Counts { .. }), "{err}");

    let mut small = good.clone();
    small.hands[other].remove(t);
    assert!(matches!(
        view.redeal(&small),
        Err(RedealError::HandSize { .. })
    ));

    let mut kong = good;
    kong.kongs[other].push(t);
    assert!(matches!(view.redeal(&kong), Err(RedealError::Kongs { .. })));
    let _ = MeldKind::ConcealedKong;
}
