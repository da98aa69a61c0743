"""Copies of the environments: ``copy.deepcopy`` and ``copy.copy`` clone the Rust engine, so
a copy goes on exactly as the original would and independently of it; pickling and copies
that cannot be faithful are refused with a ``TypeError`` saying why."""

import copy
import pickle

import gymnasium as gym
import numpy as np
import pytest

import taisim

# Opponents with state of their own: random's generator, a search's scratch and generator.
OPPONENTS = "random,random,greedy,search:4"


def first_legal(mask):
    return int(np.flatnonzero(mask)[0])


def play(env, actions):
    """Steps ``env`` by ``actions`` (stopping at the deal's end); what it returned each step."""
    out = []
    for a in actions:
        obs, reward, terminated, truncated, info = env.step(a)
        out.append((obs, reward, terminated, info["action_mask"], info["decisions"]))
        if terminated:
            break
    return out


def assert_same(a, b):
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert np.array_equal(x[0], y[0]) and x[1:3] == y[1:3]
        assert np.array_equal(x[3], y[3]) and x[4] == y[4]


def masked_actions(env, info, n, seed):
    """``n`` masked random actions played on a deep copy of ``env`` (``env`` untouched)."""
    probe = copy.deepcopy(env)
    rng = np.random.default_rng(seed)
    mask, actions = info["action_mask"], []
    for _ in range(n):
        actions.append(int(rng.choice(np.flatnonzero(mask))))
        _, _, terminated, _, step_info = probe.step(actions[-1])
        if terminated:
            break
        mask = step_info["action_mask"]
    return actions


@pytest.mark.parametrize("copier", [copy.deepcopy, copy.copy])
def test_a_copy_goes_on_as_the_original_and_independently(copier):
    env = taisim.Env(opponents=OPPONENTS)
    _, info = env.reset(seed=11)
    for _ in range(3):
        _, _, _, _, info = env.step(first_legal(info["action_mask"]))
    twin = copier(env)
    assert twin._native is not env._native
    actions = masked_actions(env, info, 200, seed=1)
    # The original first, all the way to the deal's end: the copy must not move with it.
    original = play(env, actions)
    assert original[-1][2], "the actions play the deal to its end"
    assert np.array_equal(twin.action_masks(), info["action_mask"]), "the copy did not move"
    assert_same(play(twin, actions), original)
    # The generator that reset(seed=None) draws from was copied too.
    a, _ = env.reset()
    b, _ = twin.reset()
    assert np.array_equal(a, b)


def test_a_copy_before_reset_and_through_gymnasium_wrappers():
    fresh = copy.deepcopy(taisim.Env(opponents="random"))
    with pytest.raises(RuntimeError, match=r"reset\(\)"):
        fresh.step(0)
    env = gym.make("taisim/Taiwan16-v0", opponents="random")
    _, info = env.reset(seed=4)
    twin = copy.deepcopy(env)
    assert twin.unwrapped is not env.unwrapped
    actions = masked_actions(env, info, 200, seed=2)
    assert_same(play(twin, actions), play(env, actions))


def test_aec_copy_goes_on_as_the_original():
    env = taisim.aec.env()
    env.reset(seed=7)
    rng = np.random.default_rng(3)
    for _ in range(10):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    twin = copy.deepcopy(env)
    twin_raw = copy.copy(env.unwrapped)
    trace = {id(e): [] for e in (env, twin)}
    for e in (env, twin):
        rng = np.random.default_rng(9)
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
            trace[id(e)].append((agent, obs["observation"].copy(), reward, action))
            e.step(action)
    a, b = trace[id(env)], trace[id(twin)]
    assert len(a) == len(b) > 4
    for x, y in zip(a, b):
        assert x[0] == y[0] and np.array_equal(x[1], y[1]) and x[2:] == y[2:]
    # The shallow copy kept the state the deep copy started from: neither run moved it.
    assert twin_raw.agents == ["E", "S", "W", "N"]
    assert twin_raw.agent_selection == trace[id(env)][0][0]


def test_pickling_and_unfaithful_copies_are_refused_saying_why():
    env = taisim.Env(opponents="random")
    env.reset(seed=1)
    for obj in (env, gym.make("taisim/Taiwan16-v0"), taisim.aec.env()):
        with pytest.raises(TypeError, match="cannot be pickled.*deepcopy"):
            pickle.dumps(obj)
    bot = taisim.Env(opponents="exec:cat")
    for copier in (copy.deepcopy, copy.copy):
        with pytest.raises(TypeError, match="exec: opponent cannot be copied"):
            copier(bot)
    vec = taisim.VecEnv(2)
    for call, what in ((copy.deepcopy, "deep-copied"), (copy.copy, "copied"),
                       (pickle.dumps, "pickled")):
        with pytest.raises(TypeError, match=f"VecEnv cannot be {what}.*same seed"):
            call(vec)
