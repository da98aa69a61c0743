"""taisim.replay and taisim.review (`taisim replay RUN DEAL --json` and `taisim review --json`
from Python), and the review of a decision being played: `Env.review` and the AEC env's
`review` (issue 23, "everywhere agents go" and "a review of its reasons")."""

import json

import numpy as np
import pytest

import taisim

AGENTS = "greedy,search:4,random,greedy"


def _run(path, log_actions, variant="taiwan16"):
    return taisim.simulate(path, deals=6, seed=19, agents=AGENTS, variant=variant, part_size=3,
                           threads=2, log_actions=log_actions)


@pytest.mark.parametrize("variant", ["taiwan16", "taizhou"])
def test_a_deal_replays_alike_from_its_log_and_from_its_agents(tmp_path, variant):
    logged = _run(tmp_path / "logged", True, variant)
    played = _run(tmp_path / "played", False, variant)
    seeds = set()
    for deal_id in range(6):
        events = taisim.replay(logged, deal_id)
        # The run without an action log is played again by its agents (search:4 among them)
        # and must come out event for event as the recorded one.
        assert taisim.replay(played, deal_id) == events
        start, end = events[0], events[-1]
        assert start["type"] == "start" and start["deal"] == deal_id
        assert start["variant"] == variant
        seeds.add(start["seed"])
        assert end["type"] == "end" and end["deal"] == deal_id
        assert sum(end["payments"].values()) == 0
        steps = [e["step"] for e in events if e["type"] == "decision"]
        assert steps == list(range(1, len(steps) + 1))
        # Every event is plain JSON, as the command line writes it.
        assert json.loads(json.dumps(events)) == events
    assert len(seeds) == 6


def test_the_review_of_a_searching_seat_plays_as_it_played(tmp_path):
    run = _run(tmp_path / "run", False)
    reviewed = 0
    for deal_id in range(3):
        r = taisim.review(run, deal_id, "S", search="search:4")
        assert (r["deal"], r["seat"], r["search"], r["budget"]) == (deal_id, "S", "search:4", 4)
        assert r["default_by"] == "greedy"
        played = [e for e in taisim.replay(run, deal_id)
                  if e["type"] == "decision" and e["actor"] == "S"]
        by_step = {e["step"]: e["action"] for e in played}
        for d in r["decisions"]:
            reviewed += 1
            # Seat S played search:4, and the review's agent is search:4 on the same view:
            # what it plays is what the seat played at the table.
            assert d["played"] == by_step[d["step"]]
            assert d["search_plays"] == d["played"]
            actions = [e["action"] for e in d["estimates"]]
            assert len(actions) >= 2 and d["played"] in actions and d["best"] in actions
            assert 1 <= d["determinizations"] <= 4
            for e in d["estimates"]:
                assert 0 < e["rollouts"] <= 4
                assert e["std_error"] is None or e["std_error"] >= 0
            # The agent's own figures, of the actions it raced, its choice among them.
            decided = [e["action"] for e in d["decided_on"]]
            assert d["played"] in decided and set(map(str, decided)) <= set(map(str, actions))
    assert reviewed > 10


def test_the_reviewing_search_is_plain_search_unless_named(tmp_path):
    run = _run(tmp_path / "run", True)
    plain = taisim.review(run, 0, "E")
    assert (plain["search"], plain["budget"], plain["default_by"]) == ("search", 2048, "greedy")
    tuned = taisim.review(run, 0, "E", search="search:2:own=value")
    assert tuned["search"] == "search:2:own=value" and tuned["default_by"] == "value"
    for r in (plain, tuned):
        assert r["decisions"]
        # Seat E played greedy: greedy's choice is what it played, whoever reviews it.
        assert all(d["greedy"] == d["played"] for d in r["decisions"])
    assert [d["step"] for d in plain["decisions"]] == [d["step"] for d in tuned["decisions"]]


def test_ctrl_c_stops_a_review(tmp_path, interrupted):
    """Ctrl-C during ``taisim.review`` stops the search under way and raises
    ``KeyboardInterrupt``. The review here (the largest budget, every action raced to the end)
    would run for hours; before, the signal waited for it."""
    run = _run(tmp_path / "run", True)
    call = f"taisim.review({str(run)!r}, 0, 'E', search='search:1048576:indifference=0')"
    assert interrupted(call) == "interrupted"


@pytest.mark.parametrize("make", [
    "taisim.Env(opponents='greedy')",
    "taisim.VecEnv(4, opponents='greedy', threads=2)",
])
def test_ctrl_c_stops_an_environments_review(interrupted, make):
    """Ctrl-C during ``Env.review`` or ``VecEnv.review`` stops the searches under way and
    raises ``KeyboardInterrupt``; the environment then goes on as if nothing had been asked.
    The reviews here would run for hours; before, the signal waited for them. The signal is
    sent two seconds in, well after the call started."""
    call = (f"e = {make}; e.reset(seed=3)\n"
            "    try:\n"
            "        e.review(search='search:1048576:indifference=0')\n"
            "    finally:\n"
            "        e.reset(seed=3); m = e.action_masks(); e.step(int(m.argmax()) if m.ndim == 1 "
            "else m.argmax(axis=1))")
    assert interrupted(call, after=2.0) == "interrupted"


def test_bad_arguments_are_named(tmp_path):
    run = _run(tmp_path / "run", True)
    with pytest.raises(taisim.UsageError, match="deal 6"):
        taisim.replay(run, 6)
    with pytest.raises(taisim.UsageError, match="deal 99"):
        taisim.review(run, 99, "E")
    with pytest.raises(taisim.UsageError, match=r"deal_id -1 is out of range: deal_id must be 0 to 2\*\*64 - 1"):
        taisim.replay(run, -1)
    with pytest.raises(TypeError, match="deal_id must be an int"):
        taisim.replay(run, True)
    with pytest.raises(taisim.UsageError, match="seat"):
        taisim.review(run, 0, "X")
    with pytest.raises(taisim.UsageError, match="a review is a search agent's"):
        taisim.review(run, 0, "E", search="greedy")
    with pytest.raises(taisim.AgentError):
        taisim.review(run, 0, "E", search="search:0")
    with pytest.raises(TypeError, match="search must be a str"):
        taisim.review(run, 0, "E", search=4)
    with pytest.raises(taisim.UsageError, match="not a directory"):
        taisim.replay(tmp_path / "run" / "manifest.json", 0)
    with pytest.raises(taisim.UsageError, match="holds no manifest"):
        taisim.replay(tmp_path, 0)


def _learner_plays(env, seed, pick):
    """Plays one deal, the learner choosing ``pick(review)`` at each decision; returns the
    rewards and outcome and the reviews."""
    _, info = env.reset(seed=seed)
    reviews = []
    terminated = False
    while not terminated:
        r = env.review(search="search:8")
        reviews.append((r, info["action_mask"]))
        _, _, terminated, _, info = env.step(pick(r))
    return (info["rewards"], info["outcome"]), reviews


@pytest.mark.parametrize("variant", sorted(taisim.GYM_IDS.values()))
def test_env_review_plays_as_the_search_agent_and_greedy_play(variant):
    """Under every shipped variant: a learner that plays what the review says ``search:8``
    plays, in seat E, meets the very deal that ``search:8`` as E's opponent plays while the
    learner in S plays the review's greedy choice: both ends are alike, seat by seat. A review
    that read another view, seed or state than the agent's would part from it somewhere."""
    searched = 0
    for seed in range(2):
        a, reviews = _learner_plays(taisim.Env(variant=variant, seat="E", opponents="greedy"),
                                    seed, lambda r: r["search_plays"])
        b, _ = _learner_plays(taisim.Env(variant=variant, seat="S",
                                         opponents="search:8,greedy,greedy,greedy"),
                              seed, lambda r: r["greedy"])
        assert a == b
        for r, mask in reviews:
            legal = set(np.flatnonzero(mask))
            assert (r["search"], r["budget"], r["seat"]) == ("search:8", 8, "E")
            assert {r["search_plays"], r["greedy"]} <= legal
            estimated = set(np.flatnonzero(~np.isnan(r["mean"])))
            if r["determinizations"]:
                searched += 1
                # Every legal action is searched, nothing else.
                assert estimated == legal == set(np.flatnonzero(r["rollouts"]))
                assert r["default"] in legal and r["best"] in legal
                assert r["advantage"][r["default"]] == 0.0
                # What the agent chose on: its own race, of legal actions, the default
                # among them; another action only when its advantage there is positive.
                decided = set(np.flatnonzero(r["decided_rollouts"]))
                assert decided == set(np.flatnonzero(~np.isnan(r["decided_mean"]))) <= legal
                assert {r["default"], r["search_plays"]} <= decided
                assert r["decided_advantage"][r["default"]] == 0.0
                if r["search_plays"] != r["default"]:
                    assert r["decided_advantage"][r["search_plays"]] > 0.0
            else:
                # A single legal action (or a flower robbed before the first turn): nothing
                # searched, the default is what is played.
                assert not estimated and r["best"] is None and r["default"] in legal
    assert searched > 10


def test_aec_review_is_of_the_seat_to_act():
    env = taisim.aec_env()
    env.reset(seed=4)
    steps = []
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            with pytest.raises(taisim.UsageError, match="no decision"):
                env.review(search="search:4")
            env.step(None)
            continue
        r = env.review(search="search:4")
        assert r["seat"] == agent
        mask = env.observe(agent)["action_mask"]
        assert mask[r["search_plays"]] == 1 and mask[r["greedy"]] == 1
        steps.append(r["step"])
        env.step(r["search_plays"])
    assert steps == sorted(steps) and len(set(steps)) == len(steps) and len(steps) > 20


def test_env_review_refuses_what_it_cannot_review():
    env = taisim.Env(opponents="greedy")
    with pytest.raises(taisim.UsageError, match="call reset"):
        env.review()
    _, info = env.reset(seed=2)
    with pytest.raises(taisim.UsageError, match="a review is a search agent's"):
        env.review(search="value")
    with pytest.raises(taisim.AgentError):
        env.review(search="search:-3")
    with pytest.raises(TypeError, match="search must be a str"):
        env.review(search=64)
    terminated = False
    while not terminated:
        _, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    with pytest.raises(taisim.UsageError, match="deal is over"):
        env.review(search="search:4")


def _same_review(batch, i, one):
    for key in ("search_plays", "greedy", "determinizations", "step"):
        assert batch[key][i] == one[key], key
    for key in ("best", "default"):
        assert batch[key][i] == (-1 if one[key] is None else one[key]), key
    for key in ("rollouts", "mean", "std_error", "advantage", "advantage_error"):
        for k in (key, "decided_" + key):
            np.testing.assert_array_equal(batch[k][i], one[k], err_msg=k)


def test_vec_env_review_is_each_environment_review_on_any_thread_count():
    """The batch's review of environment i is `Env.review` of the same deal (dealt from the
    environment's `deal_seed`), step after step, and the same on 1 and 2 threads (of the
    batch, and of the search's rollouts: `search:8:threads=2`)."""
    batches = [taisim.VecEnv(num_envs=3, opponents="greedy", threads=t) for t in (1, 2)]
    for envs in batches:
        envs.reset(seed=5)
    singles = []
    for i in range(3):
        env = taisim.Env(opponents="greedy")
        env.reset(seed=int(batches[0].info(i)["deal_seed"]))
        singles.append(env)
    live = [True] * 3
    for _ in range(6):
        reviews = [envs.review(search="search:8") for envs in batches]
        assert (reviews[0]["search"], reviews[0]["seat"]) == ("search:8", "E")
        assert reviews[0]["mean"].shape == (3, taisim.ACTION_SPACE_SIZE)
        for i, env in enumerate(singles):
            if live[i]:
                _same_review(reviews[0], i, env.review(search="search:8"))
                # A search on two threads reviews alike.
                _same_review(reviews[0], i, env.review(search="search:8:threads=2"))
            _same_review(reviews[1], i, {k: (v[i] if hasattr(v, "shape") else v)
                                         for k, v in reviews[0].items()})
        actions = reviews[0]["search_plays"]
        for envs in batches:
            envs.step(actions)
        for i, env in enumerate(singles):
            if live[i]:
                live[i] = not env.step(int(actions[i]))[2]
    assert any(live)


def test_vec_env_review_before_reset_is_refused():
    envs = taisim.VecEnv(num_envs=2, opponents="greedy")
    with pytest.raises(taisim.UsageError, match="call reset"):
        envs.review()
    envs.reset(seed=1)
    with pytest.raises(taisim.UsageError, match="a review is a search agent's"):
        envs.review(search="greedy")
