//! Agents allocate nothing per decision: a counting global allocator watches deals played by
//! every built-in agent (the policy with a small MLP, with and without a per-kind head), under taiwan16 and under taizhou (its
//! wild-aware hand measures), after a warm-up that builds the engine's lookup tables.

use std::sync::Arc;

use taisim_agents::{
    play_deal, BuiltinAgent, DefensiveAgent, GreedyAgent, Layer, Policy, PolicyAgent, RandomAgent,
    ACTION_SPACE_SIZE, OBS_CHANNELS, OBS_LEN,
};
use taisim_sim::{ActionList, Deal, DealContext, Rules};

#[path = "../../sim/tests/support/counting_alloc.rs"]
mod counting_alloc;

#[global_allocator]
static GLOBAL: counting_alloc::Counting = counting_alloc::Counting;

fn play(agents: &mut [BuiltinAgent; 4], rules: Rules, seeds: std::ops::Range<u64>) -> u64 {
    let mut legal = ActionList::new();
    let mut steps = 0;
    for seed in seeds {
        let mut deal = Deal::new(rules, seed, DealContext::FIRST).unwrap();
        steps += play_deal(&mut deal, agents, &mut legal) as u64;
        std::hint::black_box(deal.result());
    }
    steps
}

#[test]
fn no_heap_allocation_per_decision() {
    let start = counting_alloc::allocations();
    std::hint::black_box(vec![0u8; 64]);
    assert!(counting_alloc::allocations() > start, "the counter counts");

    // A small MLP with deterministic pseudo-random weights.
    let weight = |i: usize| ((i * 2_654_435_761) % 1000) as f32 / 1000.0 - 0.5;
    let policy = Policy::new(vec![
        Layer::new(
            OBS_LEN,
            16,
            (0..16 * OBS_LEN).map(weight).collect(),
            vec![0.1; 16],
        ),
        Layer::new(
            16,
            ACTION_SPACE_SIZE,
            (0..16 * ACTION_SPACE_SIZE).map(weight).collect(),
            vec![0.0; ACTION_SPACE_SIZE],
        ),
    ])
    .unwrap();
    // The same trunk with a per-kind head (hidden width 8).
    let with_kinds = policy
        .clone()
        .with_kind_head(
            Layer::new(
                2 * OBS_CHANNELS,
                8,
                (0..16 * OBS_CHANNELS).map(weight).collect(),
                vec![0.1; 8],
            ),
            [8, 16],
            (0..8 * 16).map(weight).collect(),
            Layer::new(8, 4, (0..32).map(weight).collect(), vec![0.0; 4]),
        )
        .unwrap();
    let mut agents = [
        BuiltinAgent::Random(RandomAgent::new()),
        BuiltinAgent::Greedy(GreedyAgent::new()),
        BuiltinAgent::Defensive(DefensiveAgent::new()),
        BuiltinAgent::Policy(PolicyAgent::new(Arc::new(policy))),
    ];
    let mut kinds = [
        BuiltinAgent::Policy(PolicyAgent::new(Arc::new(with_kinds))),
        BuiltinAgent::Greedy(GreedyAgent::new()),
        BuiltinAgent::Random(RandomAgent::new()),
        BuiltinAgent::Greedy(GreedyAgent::new()),
    ];
    play(&mut agents, Rules::TAIWAN16, 0..20);
    play(&mut agents, Rules::TAIZHOU, 0..20);
    play(&mut kinds, Rules::TAIWAN16, 0..5);
    let before = counting_alloc::allocations();
    let steps = play(&mut agents, Rules::TAIWAN16, 20..520)
        + play(&mut agents, Rules::TAIZHOU, 20..320)
        + play(&mut kinds, Rules::TAIWAN16, 5..105)
        + play(&mut kinds, Rules::TAIZHOU, 5..105);
    let after = counting_alloc::allocations();
    assert!(steps > 20_000, "{steps}");
    assert_eq!(
        after - before,
        0,
        "{} allocations over {steps} decisions",
        after - before
    );
}

#[test]
fn the_search_and_the_value_agent_allocate_nothing_per_decision_or_rollout() {
    use taisim_agents::search::{OwnPolicy, SearchAgent, SearchConfig};
    use taisim_agents::value::ValueAgent;
    use taisim_score::Variant;
    // Built before counting: a variant and the agents' names allocate.
    let seats = |name: &str| -> [BuiltinAgent; 4] {
        let variant = Arc::new(Variant::builtin(name).unwrap());
        let search = |own| {
            let config = SearchConfig {
                own,
                ..SearchConfig::with_budget(24)
            };
            BuiltinAgent::Search(Box::new(SearchAgent::new(Arc::clone(&variant), config)))
        };
        [
            search(OwnPolicy::Greedy),
            BuiltinAgent::Value(ValueAgent::new(Arc::clone(&variant))),
            BuiltinAgent::Random(RandomAgent::new()),
            search(OwnPolicy::Value),
        ]
    };
    let mut taiwan = seats("taiwan16");
    let mut taizhou = seats("taizhou");
    play(&mut taiwan, Rules::TAIWAN16, 0..2);
    play(&mut taizhou, Rules::TAIZHOU, 0..2);
    let before = counting_alloc::allocations();
    let steps =
        play(&mut taiwan, Rules::TAIWAN16, 2..22) + play(&mut taizhou, Rules::TAIZHOU, 2..12);
    let after = counting_alloc::allocations();
    assert!(steps > 500, "{steps}");
    assert_eq!(
        after - before,
        0,
        "{} allocations over {steps} decisions",
        after - before
    );
}
