//! A win offered, read before it is declared (`WinInput::offered`, over `View::win_result`),
//! is the input scoring reads once the deal has ended on it (`WinInput::from_deal`): for every
//! win offered in greedy play of every shipped variant (most wins let go, so deals run on
//! and offer many), the deal is played on with the win
//! declared (any other winner on the same discard passing) and the two inputs compared. An
//! agent weighing a win below a variant's minimum (起胡) decides on the first.

use taisim_agents::{Agent, GreedyAgent};
use taisim_score::{Variant, WinInput};
use taisim_sim::{
    bounded, rng_from_seed, Action, ActionList, Deal, DealContext, Outcome, Seat, Wind,
};

const VARIANTS: [&str; 5] = [
    "taiwan16",
    "taiwan16-house",
    "taiwan16-2015",
    "mahjongtime",
    "taizhou",
];

/// How many offers of each kind were checked: self-drawn, on a discard, robbing a kong,
/// by flowers.
#[derive(Default, Debug)]
struct Seen {
    self_draw: u32,
    discard: u32,
    robbing_kong: u32,
    flowers: u32,
}

/// `deal` after `seat` declares `win`, every other seat that may win on the same tile
/// passing.
fn declared(deal: &Deal, seat: Seat, win: Action) -> Deal {
    let mut after = deal.clone();
    after.play(win).unwrap();
    while !after.is_over() {
        assert_ne!(
            after.to_act(),
            Some(seat),
            "{seat} asked again after declaring"
        );
        after.play(Action::Pass).unwrap();
    }
    after
}

fn check(deal: &Deal, legal: &ActionList, seen: &mut Seen) {
    let seat = deal.to_act().unwrap();
    for &a in legal {
        let offered = WinInput::offered(&deal.view(seat), a);
        // No other seat's view answers for the seat to act.
        assert_eq!(WinInput::offered(&deal.view(seat.next()), a), None);
        if !a.is_win() {
            assert_eq!(offered, None, "{a} is not a win");
            continue;
        }
        let offered = offered.unwrap_or_else(|| panic!("{a} legal but not offered"));
        let after = declared(deal, seat, a);
        let result = after.result().unwrap();
        assert_eq!(
            WinInput::from_deal(&after, seat).as_ref(),
            Some(&offered),
            "{a}"
        );
        // The engine's own result, where the seat won alone.
        if result.winners.len() == 1 {
            assert_eq!(deal.win_result(a).as_ref(), Some(result), "{a}");
        }
        match result.outcome {
            Outcome::SelfDraw => seen.self_draw += 1,
            Outcome::FlowerWin => seen.flowers += 1,
            _ if result.context.robbing_kong => seen.robbing_kong += 1,
            _ => seen.discard += 1,
        }
    }
}

/// Plays `deals` deals of `variant`, checking every win offered; `pick` chooses each action
/// from the legal ones (most wins are let go, so deals run on and offer many).
fn play(name: &str, deals: u64, mut pick: impl FnMut(&Deal, &ActionList, u64) -> Action) -> Seen {
    let rules = Variant::builtin(name).unwrap().rules();
    let mut seen = Seen::default();
    let mut legal = ActionList::new();
    for i in 0..deals {
        let context = DealContext {
            round_wind: Wind::new((i / 4 % 4) as u8),
            dealer: Wind::new((i % 4) as u8),
            streak: (i % 3) as u8,
        };
        let mut deal = Deal::new(rules, i, context).unwrap();
        let mut rng = rng_from_seed(i ^ 0x0ffe);
        while !deal.is_over() {
            deal.legal_actions(&mut legal);
            check(&deal, &legal, &mut seen);
            let a = pick(&deal, &legal, i);
            let a = if a.is_win() && bounded(&mut rng, 4) != 0 {
                legal.iter().copied().find(|a| !a.is_win()).unwrap_or(a)
            } else {
                a
            };
            deal.play(a).unwrap();
        }
    }
    println!("{name}: {seen:?}");
    seen
}

#[test]
fn a_win_offered_reads_as_the_win_declared() {
    for name in VARIANTS {
        let seen = play(name, 1_000, |deal, legal, _| {
            GreedyAgent::new().act(&deal.view(deal.to_act().unwrap()), legal)
        });
        assert!(seen.self_draw > 100, "{name}: {seen:?}");
        assert!(seen.discard > 100, "{name}: {seen:?}");
        assert!(seen.robbing_kong > 0, "{name}: {seen:?}");
    }
}

/// Flower wins (七搶一, 八仙過海) come by chance, which random play's long deals give
/// (greedy's 1,000 deals a variant give none).
#[test]
fn a_flower_win_offered_reads_as_the_win_declared() {
    let seen = play("taiwan16", 20_000, |_, legal, i| {
        let mut rng = rng_from_seed(i ^ legal.len() as u64);
        legal[bounded(&mut rng, legal.len() as u32) as usize]
    });
    assert!(seen.flowers > 2, "{seen:?}");
}
