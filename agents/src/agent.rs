//! The `Agent` trait and the random agent.

use rand_pcg::Pcg64Mcg;

use crate::exec::BotFault;
use taisim_sim::{bounded, deal_seed, rng_from_seed, Action, ActionList, Deal, Seat, View};

/// A policy for one seat.
///
/// The harness calls [`Agent::reset`] at the start of every deal with the deal's seed and the
/// seat the agent holds, then [`Agent::act`] at each of that seat's decisions. An agent's
/// randomness must come only from generators seeded in `reset` (see [`agent_rng`]), so a run
/// replays exactly from its seeds whatever the thread count. `act` allocates nothing: scratch
/// space is owned by the agent and sized when it is built.
pub trait Agent {
    /// A new deal starts: reseed from `(seed, seat)` and drop per-deal state.
    fn reset(&mut self, seed: u64, seat: Seat);

    /// Chooses one of `legal`, the actions legal now for `view.seat()` (never empty, in the
    /// engine's order). The result must be an element of `legal`.
    fn act(&mut self, view: &View<'_>, legal: &ActionList) -> Action;

    /// Chooses for several decisions at once (one per deal, for this agent's seat in each):
    /// `out[i]` answers `views[i]` with `legal[i]`. The default asks [`Agent::act`] in turn; a
    /// network policy may override it to score the batch together.
    ///
    /// # Panics
    /// If the three slices differ in length.
    fn act_batch(&mut self, views: &[View<'_>], legal: &[ActionList], out: &mut [Action]) {
        assert!(views.len() == legal.len() && legal.len() == out.len());
        for ((view, legal), out) in views.iter().zip(legal).zip(out) {
            *out = self.act(view, legal);
        }
    }

    /// Chooses for `seat`, the seat to act in `deal`: by default [`Agent::act`] on the seat's
    /// view and its legal actions, listed into `scratch`. An agent that needs no list
    /// overrides it (the random agent draws a position in [`Deal::legal`]); an override must
    /// decide only on what `deal.view(seat)` shows and choose what `act` would.
    #[inline]
    fn act_in(&mut self, deal: &Deal, seat: Seat, scratch: &mut ActionList) -> Action {
        deal.legal_actions(scratch);
        self.act(&deal.view(seat), scratch)
    }

    /// Whether the agent must see every step of the deal ([`Agent::see`]), every seat's, not
    /// only its own decisions: true only for a player outside the process (`exec:`), which is
    /// told the deal as it goes. Loops that play deals ask once per deal and call
    /// [`Agent::see`] only when some agent says yes, so the built-in agents cost nothing.
    fn sees_steps(&self) -> bool {
        false
    }

    /// `action` is about to be played on `deal` by the seat to act (any seat's), or, with
    /// `None`, the deal just ended. Called only where [`Agent::sees_steps`] says so; the
    /// default does nothing.
    #[inline]
    fn see(&mut self, _deal: &Deal, _action: Option<Action>) {}

    /// The fault that stopped an outside player (see [`crate::exec`]): from then on it
    /// answers the first legal action, and the caller must discard the deal and stop. The
    /// built-in agents never fail.
    fn fault(&self) -> Option<BotFault> {
        None
    }

    /// The agent's name as the command line spells it (`random`, `greedy`, …).
    fn name(&self) -> &str;
}

/// The generator of the agent at `seat` for the deal seeded `seed`: a function of the pair
/// alone, and independent of the wall's generator (which is seeded by `seed` itself).
pub fn agent_rng(seed: u64, seat: Seat) -> Pcg64Mcg {
    // Stream indices far from the small ones runs use for deal seeds.
    rng_from_seed(deal_seed(seed, 0xa6e7_0000 + seat as u64))
}

/// Uniform over the legal actions, claims, kongs and wins included.
#[derive(Clone, Debug)]
pub struct RandomAgent {
    rng: Pcg64Mcg,
}

impl RandomAgent {
    /// An agent seeded as for deal 0 at seat E; [`Agent::reset`] reseeds it per deal.
    pub fn new() -> RandomAgent {
        RandomAgent {
            rng: agent_rng(0, Seat::East),
        }
    }
}

impl Default for RandomAgent {
    fn default() -> RandomAgent {
        RandomAgent::new()
    }
}

impl Agent for RandomAgent {
    fn reset(&mut self, seed: u64, seat: Seat) {
        self.rng = agent_rng(seed, seat);
    }

    #[inline]
    fn act(&mut self, _view: &View<'_>, legal: &ActionList) -> Action {
        legal[bounded(&mut self.rng, legal.len() as u32) as usize]
    }

    /// The same draw as [`Agent::act`], from the packed legal actions: nothing is listed.
    #[inline]
    fn act_in(&mut self, deal: &Deal, _seat: Seat, _scratch: &mut ActionList) -> Action {
        let legal = deal.legal();
        legal.get(bounded(&mut self.rng, legal.len() as u32) as usize)
    }

    fn name(&self) -> &str {
        "random"
    }
}

/// Plays `deal` to its end, seat `s` played by `agents[s]`, after resetting each agent for
/// the deal (`Agent::reset(deal.seed(), s)`). `legal` is scratch space. Returns the number of
/// decisions taken. Allocates nothing (for the built-in agents). An outside player's fault
/// ([`Agent::fault`]) does not stop the loop: the caller checks after the deal.
pub fn play_deal<A: Agent>(deal: &mut Deal, agents: &mut [A; 4], legal: &mut ActionList) -> u32 {
    play_deal_with(deal, agents, legal, |_, _| {})
}

/// [`play_deal`], calling `before_action(deal, action)` with each decision just before it is
/// played (to log the actions of a deal, say).
pub fn play_deal_with<A: Agent>(
    deal: &mut Deal,
    agents: &mut [A; 4],
    legal: &mut ActionList,
    mut before_action: impl FnMut(&Deal, Action),
) -> u32 {
    play_deal_observed(deal, agents, legal, |d, a, _| before_action(d, a))
}

/// [`play_deal_with`], the callback also given the agent that just chose `action`, so it can
/// read what the agent worked out for it (a search agent's estimates, say).
pub fn play_deal_observed<A: Agent>(
    deal: &mut Deal,
    agents: &mut [A; 4],
    legal: &mut ActionList,
    mut before_action: impl FnMut(&Deal, Action, &A),
) -> u32 {
    for seat in Seat::ALL {
        agents[seat as usize].reset(deal.seed(), seat);
    }
    // Asked once a deal: the built-in agents see nothing, and their loop below stays as it
    // was (a loop that also told every step would cost the built-in agents a test a step).
    if agents.iter().any(Agent::sees_steps) {
        return play_watched(deal, agents, legal, before_action);
    }
    let mut steps = 0;
    while let Some(seat) = deal.to_act() {
        let action = agents[seat as usize].act_in(deal, seat, legal);
        debug_assert!(
            deal.is_legal(action),
            "{} chose illegal {action}",
            agents[seat as usize].name()
        );
        before_action(deal, action, &agents[seat as usize]);
        deal.play_unchecked(action);
        steps += 1;
    }
    steps
}

/// [`play_deal_with`]'s loop when some agent sees every step ([`Agent::see`]).
#[cold]
#[inline(never)]
fn play_watched<A: Agent>(
    deal: &mut Deal,
    agents: &mut [A; 4],
    legal: &mut ActionList,
    mut before_action: impl FnMut(&Deal, Action, &A),
) -> u32 {
    let mut steps = 0;
    while let Some(seat) = deal.to_act() {
        let action = agents[seat as usize].act_in(deal, seat, legal);
        before_action(deal, action, &agents[seat as usize]);
        see_step(agents, deal, Some(action));
        deal.play_unchecked(action);
        steps += 1;
    }
    see_step(agents, deal, None);
    steps
}

/// Shows a step (or, with `None`, the end) to the agents that see every step.
pub fn see_step<A: Agent>(agents: &mut [A], deal: &Deal, action: Option<Action>) {
    for a in agents.iter_mut() {
        if a.sees_steps() {
            a.see(deal, action);
        }
    }
}
