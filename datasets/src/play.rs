//! Playing a part's units (deals or games) and turning each finished deal into rows.

use taisim_agents::exec::{close_bots, first_fault};
use taisim_agents::search::{SearchAgent, SearchDecision};
use taisim_agents::{
    action_to_index, play_deal_observed, Agent, AgentSpec, BuiltinAgent, RandomAgent,
};
use taisim_score::{score_deal, Variant, WinInput};
use taisim_sim::algo::{shanten, HandRules};
use taisim_sim::{
    deal_seed, Action, ActionList, Deal, DealContext, DealResult, MeldKind, Outcome, Rules, Wind,
};

use crate::error::{EngineError, HarnessError};
use crate::spec::{game_deal_id, RunSpec, Unit, MAX_DEALS_PER_GAME};
use crate::table::{
    AllPairsRow, DealRow, DecisionsColumns, PartTables, SeatEnd, WinRow, WinsLayout,
};

/// The four seats' agents. Four random agents get a variant of their own so that the
/// decision loop is compiled for [`RandomAgent`] alone: its choice inlines to a generator
/// step, where [`BuiltinAgent`] costs a call that sets up the greedy agent's stack frame on
/// every decision. (Boxed: the other agents are five times the random ones' size.)
enum Seats {
    Random([RandomAgent; 4]),
    Builtin(Box<[BuiltinAgent; 4]>),
}

impl Seats {
    fn new(agents: [BuiltinAgent; 4]) -> Seats {
        match &agents {
            [BuiltinAgent::Random(e), BuiltinAgent::Random(s), BuiltinAgent::Random(w), BuiltinAgent::Random(n)] => {
                Seats::Random([e.clone(), s.clone(), w.clone(), n.clone()])
            }
            _ => Seats::Builtin(Box::new(agents)),
        }
    }
}

/// One worker's players and scratch space, reused from deal to deal.
pub(crate) struct Player<'a> {
    spec: &'a RunSpec,
    variant: &'a Variant,
    rules: Rules,
    /// The wins table's optional columns, from the variant.
    layout: WinsLayout,
    seats: Seats,
    legal: ActionList,
    /// The current deal's decisions as action indices (with `--log-actions`); its capacity
    /// grows to the longest deal once and is then reused.
    actions: Vec<u8>,
    /// With `--label-with`: the labelling search of each seat, and its scratch.
    labellers: Option<Labellers>,
    /// Only while a play fingerprint is taken ([`crate::fingerprint`]): every decision's
    /// action and what each search worked out for it, as bytes.
    trace: Option<Vec<u8>>,
    /// The last deal's payments, seat order E, S, W, N.
    pays: [i64; 4],
    /// The last deal begun (its id and seed), which a bot's fault found after it is put at.
    last_deal: (u64, u64),
}

/// The search that labels the recorded decisions (`--label-with`), one per seat so that each
/// is reset for the deal and its seat as an agent is.
struct Labellers {
    seats: Box<[SearchAgent; 4]>,
    legal: ActionList,
}

impl Labellers {
    fn new(spec: &AgentSpec, variant: &std::sync::Arc<Variant>) -> Option<Labellers> {
        let AgentSpec::Search(search) = spec else {
            return None;
        };
        let one = SearchAgent::new(std::sync::Arc::clone(variant), search.config());
        Some(Labellers {
            seats: Box::new([one.clone(), one.clone(), one.clone(), one]),
            legal: ActionList::new(),
        })
    }

    /// What the seat to act in `deal` would decide, as its search worked it out.
    fn label(&mut self, deal: &Deal) -> Option<&SearchDecision> {
        let seat = deal.to_act()?;
        let search = &mut self.seats[seat as usize];
        search.act_in(deal, seat, &mut self.legal);
        Some(search.last_decision())
    }
}

/// Records the decision about to be played in `deal` (with `--decisions`) and labels it:
/// by `labellers` if given, else by what the acting agent worked out (`own`, a search's).
/// Returns the labelling search's decision when a labeller (not `own`) made it.
fn record<'l>(
    recorder: &mut DecisionsColumns,
    labellers: Option<&'l mut Labellers>,
    deal: &Deal,
    action: Action,
    step: u32,
    own: Option<&SearchDecision>,
) -> Option<&'l SearchDecision> {
    if !recorder.record(deal, action, step) || !recorder.labelled() {
        return None;
    }
    match labellers {
        Some(l) => {
            let decision = l.label(deal);
            if let Some(d) = decision {
                recorder.label(deal, d);
            }
            decision
        }
        None => {
            if let Some(d) = own {
                recorder.label(deal, d);
            }
            None
        }
    }
}

/// Appends what a search worked out to a fingerprint's trace: its choice and every
/// estimate, the means rounded to `f32` as the decisions table keeps them.
fn trace_decision(trace: &mut Vec<u8>, deal: &Deal, decision: &SearchDecision) {
    let index = |a: Option<Action>| {
        a.and_then(|a| action_to_index(a, deal))
            .map_or(u8::MAX, |i| i as u8)
    };
    trace.push(index(decision.chosen));
    trace.extend_from_slice(&decision.determinizations.to_le_bytes());
    for e in &decision.estimates {
        trace.push(index(Some(e.action)));
        trace.extend_from_slice(&e.rollouts.to_le_bytes());
        trace.extend_from_slice(&(e.mean as f32).to_le_bytes());
        trace.extend_from_slice(&(e.advantage as f32).to_le_bytes());
    }
}

impl<'a> Player<'a> {
    pub fn new(spec: &'a RunSpec, variant: &'a Variant, agents: [BuiltinAgent; 4]) -> Player<'a> {
        Player {
            labellers: spec
                .label_with
                .as_ref()
                .filter(|_| spec.decisions.is_some())
                .and_then(|l| Labellers::new(l, spec.variant.variant())),
            spec,
            variant,
            rules: variant.rules(),
            layout: WinsLayout::of(variant),
            seats: Seats::new(agents),
            legal: ActionList::new(),
            actions: Vec::with_capacity(if spec.log_actions { 256 } else { 0 }),
            trace: None,
            pays: [0; 4],
            last_deal: (0, 0),
        }
    }

    /// Ends the outside players' processes ([`close_bots`]): a fault one shows then (a line
    /// it left unread, so its answers were out of step) is put at the last deal played.
    pub fn close_bots(&mut self) -> Result<(), HarnessError> {
        let Seats::Builtin(agents) = &self.seats else {
            return Ok(());
        };
        match close_bots(agents.iter()) {
            Some(fault) => Err(HarnessError::Bot {
                deal_id: self.last_deal.0,
                seed: self.last_deal.1,
                fault: Box::new(fault),
            }),
            None => Ok(()),
        }
    }

    /// Plays the run's first deal (deal id 0: deal 0, or game 0's first deal) into `tables`
    /// and returns its trace: the decisions' action indices, what every search (an acting
    /// seat's, a labeller's) worked out along the deal, and the deal's payments.
    pub fn trace_first_deal(&mut self, tables: &mut PartTables) -> Result<Vec<u8>, HarnessError> {
        let (id, game, seed) = self.unit_deal(0, 0);
        debug_assert!(self.spec.log_actions, "a probe logs its actions");
        self.trace = Some(Vec::new());
        let played = self.play_deal::<true>(id, game, seed, DealContext::FIRST, tables);
        let searched = self.trace.take().unwrap_or_default();
        played?;
        // The decisions, then what the searches worked out for them, then the payments.
        let mut trace = self.actions.clone();
        trace.extend_from_slice(&searched);
        for p in self.pays {
            trace.extend_from_slice(&p.to_le_bytes());
        }
        Ok(trace)
    }

    /// Deal `j` of unit `index` (`j` is 0 in a run of deals), as the manifest's `seeding`
    /// says: its deal id, its game and place in it (`None` in a run of deals), and its seed.
    fn unit_deal(&self, index: u64, j: u64) -> (u64, Option<(u64, u16)>, u64) {
        match self.spec.unit {
            Unit::Deals => (index, None, deal_seed(self.spec.seed, index)),
            Unit::Games => (
                game_deal_id(index, j),
                Some((index, j as u16)),
                deal_seed(deal_seed(self.spec.seed, index), j),
            ),
        }
    }

    /// Plays unit `index` (a deal, or a whole game) into `tables`; returns the deals played.
    pub fn play_unit(&mut self, index: u64, tables: &mut PartTables) -> Result<u64, HarnessError> {
        match self.spec.unit {
            Unit::Deals => {
                let (id, game, seed) = self.unit_deal(index, 0);
                self.play_deal::<false>(id, game, seed, DealContext::FIRST, tables)?;
                Ok(1)
            }
            Unit::Games => {
                let mut context = DealContext::FIRST;
                for j in 0..MAX_DEALS_PER_GAME {
                    let (id, game, seed) = self.unit_deal(index, j);
                    let result = self.play_deal::<false>(id, game, seed, context, tables)?;
                    match context.next(&result, &self.rules) {
                        Some(next) => context = next,
                        None => return Ok(j + 1),
                    }
                }
                Ok(MAX_DEALS_PER_GAME)
            }
        }
    }

    /// Plays one deal into `tables` and returns its result (the deal itself stays here: it
    /// is large, and a game needs only the result to go on).
    ///
    /// `TRACE`: a fingerprint's probe, which appends what the searches worked out to
    /// `self.trace`; a run's own deals are compiled without it.
    fn play_deal<const TRACE: bool>(
        &mut self,
        deal_id: u64,
        game: Option<(u64, u16)>,
        seed: u64,
        context: DealContext,
        tables: &mut PartTables,
    ) -> Result<DealResult, HarnessError> {
        self.last_deal = (deal_id, seed);
        let engine = HarnessError::engine(deal_id, seed);
        let mut deal = Deal::new(self.rules, seed, context).map_err(|e| engine(e.into()))?;
        self.actions.clear();
        let log = self.spec.log_actions;
        let actions = &mut self.actions;
        let mut recorder = tables.decisions.as_mut();
        if let Some(r) = recorder.as_mut() {
            r.start_deal();
        }
        let mut labellers = self.labellers.as_mut();
        if let Some(l) = labellers.as_mut() {
            for seat in Wind::ALL {
                l.seats[seat as usize].reset(seed, seat);
            }
        }
        let mut trace = self.trace.as_mut();
        let mut step = 0u32;
        let mut log_action = |d: &Deal, a: Action, own: Option<&SearchDecision>| {
            if log {
                // The action space has 144 entries, so an index fits a byte.
                actions.push(action_to_index(a, d).map_or(u8::MAX, |i| i as u8));
            }
            let label = match recorder.as_mut() {
                Some(r) => record(r, labellers.as_deref_mut(), d, a, step, own),
                None => None,
            };
            // A fingerprint's probe logs the actions too; the trace adds what the searches
            // worked out.
            if TRACE {
                if let Some(t) = trace.as_mut() {
                    for decision in own.into_iter().chain(label) {
                        trace_decision(t, d, decision);
                    }
                }
            }
            step += 1;
        };
        let decisions = match &mut self.seats {
            Seats::Random(agents) => {
                play_deal_observed(&mut deal, agents, &mut self.legal, |d, a, _| {
                    log_action(d, a, None)
                })
            }
            Seats::Builtin(agents) => {
                let n = play_deal_observed(&mut deal, agents, &mut self.legal, |d, a, agent| {
                    log_action(d, a, agent.search_decision())
                });
                // An outside player that failed finished the deal on fallback answers: the
                // deal is not written, and the run stops.
                if let Some(fault) = first_fault(&agents[..]) {
                    return Err(HarnessError::Bot {
                        deal_id,
                        seed,
                        fault: Box::new(fault),
                    });
                }
                n
            }
        };
        let result = *deal.result().expect("a played deal is over");

        let mut seats = [SeatEnd::default(); 4];
        for s in Wind::ALL {
            let end = &mut seats[s as usize];
            end.flowers = deal.flowers(s).len() as u8;
            for m in deal.melds(s) {
                match m.kind() {
                    MeldKind::Chow => end.chows += 1,
                    MeldKind::Pung => end.pungs += 1,
                    MeldKind::Kong => end.kongs += 1,
                    MeldKind::ConcealedKong => end.concealed_kongs += 1,
                    MeldKind::AddedKong => end.added_kongs += 1,
                }
            }
            end.declared_ready = deal.ready_declaration(s).is_some();
            end.shanten = if result.winners.contains(s) {
                -1
            } else {
                let sets = self.rules.sets.saturating_sub(deal.melds(s).len() as u8);
                shanten(deal.hand(s), HandRules::new(sets, self.rules.special))
            };
        }

        // The optional columns (hu, points; responsible, values, payments) are in every part
        // of a run whose variant calls for them, wins or none.
        tables.wins.set_layout(self.layout);
        let mut total_tai: Option<u16> = None;
        if result.outcome != Outcome::ExhaustiveDraw {
            // Every win scored and the deal settled by the scoring crate under the variant's
            // model: each win alone (winner-pays), or once among all four seats with every
            // seat's value and 全包 (all-pairs). The one place a deal's payments are worked out.
            let ds = score_deal(&deal, self.variant, self.spec.base, self.spec.per_tai)
                .map_err(|e| engine(e.into()))?;
            for (end, p) in seats.iter_mut().zip(ds.payments.0) {
                end.pay = p;
            }
            let settled = self.layout.all_pairs.then_some(AllPairsRow {
                responsible: ds.responsible,
                values: ds.values.0,
                pays: ds.payments.0,
            });
            for ((winner, s), pay) in ds.wins.iter().zip(&ds.win_payments) {
                let winner = *winner;
                let input = WinInput::from_deal(&deal, winner)
                    .ok_or_else(|| engine(EngineError::NoWinningHand(winner)))?;
                *total_tai.get_or_insert(0) += s.total;
                for p in &s.patterns {
                    tables.tai.push(deal_id, winner, p.id, p.count, p.tai);
                }
                tables.wins.push(&WinRow {
                    deal_id,
                    winner,
                    discarder: input.discarder,
                    win_tile: input.win_tile,
                    total_tai: s.total,
                    dealer_tai: s.dealer_tai,
                    wait: s.wait,
                    reading: s.reading,
                    context: result.context,
                    concealed: input
                        .melds
                        .iter()
                        .all(|m| m.kind() == MeldKind::ConcealedKong),
                    declared_ready: deal.ready_declaration(winner).is_some(),
                    winner_is_dealer: winner == context.dealer,
                    meets_minimum: s.meets_minimum,
                    capped: s.capped,
                    payment: pay[winner],
                    value: self.layout.points_model.then_some((s.hu, s.points)),
                    all_pairs: settled,
                    n_patterns: s.patterns.len() as u8,
                    hand: &input.hand,
                    melds: &input.melds,
                    flowers: input.flowers,
                });
            }
        }
        if let Some(r) = tables.decisions.as_mut() {
            r.end_deal(deal_id, seats.map(|s| s.pay))
                .map_err(|e| engine(e.into()))?;
        }
        self.pays = seats.map(|s| s.pay);
        let conserved: i64 = seats.iter().map(|s| s.pay).sum();
        if conserved != 0 {
            return Err(engine(EngineError::NotConserved(conserved)));
        }
        tables.deals.push(
            &DealRow {
                deal_id,
                game,
                seed,
                round_wind: context.round_wind,
                dealer: context.dealer,
                dealer_streak: context.streak,
                outcome: result.outcome,
                winners: result.winners,
                discarder: result.payer,
                win_tile: result.win_tile,
                total_tai,
                turns: deal.discards().len() as u16,
                decisions: decisions.min(u16::MAX as u32) as u16,
                tiles_left: deal.tiles_left(),
                seats,
            },
            &self.actions,
        );
        Ok(result)
    }
}
