//! How much of a search decision is the position's and how much the sample's? At every
//! decision of greedy self-play with a choice, the search decides twice from its own belief,
//! on two independent sets of determinizations (the second seeded apart from the first), and
//! the study counts how often each leaves greedy's choice and how often both leave it for the
//! same action: the share of departures a student could learn from the position alone. A
//! development study: the hidden tiles are never read.
//!
//! `cargo run --release -p taisim-agents --example search_stability -- DEALS SEED BUDGET [VARIANT]`

use std::sync::Arc;

#[path = "common/greedy_choices.rs"]
mod greedy_choices;
use greedy_choices::for_each_choice;

use taisim_agents::search::{SearchAgent, SearchConfig};
use taisim_agents::Agent;
use taisim_score::Variant;
use taisim_sim::deal_seed;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 4 {
        eprintln!("usage: search_stability DEALS SEED BUDGET [VARIANT]");
        std::process::exit(2);
    }
    let deals: u64 = a[1].parse().expect("DEALS: a whole number");
    let seed: u64 = a[2].parse().expect("SEED: a whole number");
    let budget: u32 = a[3].parse().expect("BUDGET: a whole number");
    let name = a.get(4).map_or("taiwan16", String::as_str);
    let variant = Arc::new(Variant::builtin(name).expect("VARIANT: a shipped variant"));
    let config = SearchConfig::with_budget(budget);
    let mut searches = [
        SearchAgent::new(Arc::clone(&variant), config),
        SearchAgent::new(Arc::clone(&variant), config),
    ];
    let (mut searched, mut first, mut second, mut both, mut same) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let (mut offers, mut offer_first, mut offer_same) = (0u64, 0u64, 0u64);
    for_each_choice(&variant, seed, deals, |i, _deal, view, legal, default| {
        // The two searches' determinizations come from unrelated seeds.
        let mut chosen = [default; 2];
        for (k, (search, c)) in searches.iter_mut().zip(&mut chosen).enumerate() {
            search.reset(deal_seed(seed, i) ^ ((k as u64) << 63), view.seat());
            *c = search.act(view, legal);
        }
        let offer = view.tile_on_offer().is_some();
        searched += 1;
        offers += offer as u64;
        let [x, y] = chosen.map(|c| c != default);
        first += x as u64;
        second += y as u64;
        both += (x && y) as u64;
        same += (x && chosen[0] == chosen[1]) as u64;
        offer_first += (offer && x) as u64;
        offer_same += (offer && x && chosen[0] == chosen[1]) as u64;
    });
    let share = |k: u64, n: u64| k as f64 / n.max(1) as f64;
    println!("search:{budget}, {deals} deals of seed {seed} ({name}), {searched} searched decisions ({offers} answers to an offer)");
    println!(
        "departures: first search {first} ({:.4}), second {second} ({:.4}); both depart {both}, to the same action {same}",
        share(first, searched),
        share(second, searched)
    );
    println!(
        "of the first search's departures, the second makes the same one in {:.3} (at turns {:.3}, at offers {:.3})",
        share(same, first),
        share(same - offer_same, first - offer_first),
        share(offer_same, offer_first)
    );
}
