"""Taizhou (taizhou.md; shared/rules/README.md "taizhou: readings the project adopts") through
every Python API: the Gymnasium env, the registered id, the PettingZoo AEC env and the
vector env. The observation's wild row (row ``WILD_ROW``, observation version 2) marks the
deal's wild kind, as ``info["wild"]`` and the rendered table name it.

The points reward settles a taizhou deal among all four players through the scorer's taizhou
tables (wild readings). Until those are merged the episodes here use the ``win_loss`` reward
and the points test is skipped (see its marker)."""

import gymnasium as gym
import numpy as np
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import taisim

#: The observation row marking the wild kind (taisim_agents::obs::channel::WILD).
WILD_ROW = 59
#: Tile names in the engine's kind order, as the observation's columns.
KINDS = [f"{r}{s}" for s in "mps" for r in range(1, 10)] + list("ESWNPFC")


def wild_in(obs):
    """The kind the observation's wild row marks, or None."""
    row = obs[WILD_ROW]
    assert set(np.unique(row)) <= {0.0, 1.0} and row.sum() <= 1
    marked = np.flatnonzero(row)
    return KINDS[int(marked[0])] if marked.size else None


def rendered_wild(text):
    """The wild the rendered table names (its ``wild X`` line), or None."""
    for line in text.splitlines():
        if line.startswith("wild "):
            return line.split()[1]
    return None


def test_layout_keeps_the_wild_row():
    # Version 3 appends its hand-efficiency rows after version 2's last row, the wild row,
    # and version 4 the claim row after those.
    assert taisim.OBS_VERSION == 4
    assert taisim.OBS_SHAPE == (65, 34)
    assert WILD_ROW == 59


def test_gym_episodes_show_the_wild(legal):
    env = taisim.Env(variant="taizhou", opponents="greedy", reward="win_loss", render_mode="ansi")
    rng = np.random.default_rng(12)
    wins = 0
    for seed in range(15):
        obs, info = env.reset(seed=seed)
        wild = info["wild"]
        assert wild in KINDS
        assert wild_in(obs) == wild == rendered_wild(env.render())
        terminated = False
        while not terminated:
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal(info["action_mask"]))))
            assert not truncated
            assert info["wild"] == wild
            assert wild_in(obs) == wild
        assert reward in (-1.0, 0.0, 1.0)
        wins += info["outcome"] != "exhaustive_draw"
    assert wins > 0


def test_taiwanese_observations_have_no_wild():
    obs, info = taisim.Env(variant="taiwan16", opponents="random").reset(seed=1)
    assert info["wild"] is None and wild_in(obs) is None


def test_gymnasium_check_env_taizhou():
    check_env(
        taisim.LegalizeActions(taisim.Env(variant="taizhou", opponents="random", reward="win_loss")),
        skip_render_check=True,
    )


def test_registered_taizhou_id():
    assert taisim.GYM_IDS["taisim/Taizhou-v0"] == "taizhou"
    env = gym.make("taisim/Taizhou-v0", opponents="random", reward="win_loss")
    obs, info = env.reset(seed=4)
    raw_obs, raw_info = taisim.Env(variant="taizhou", opponents="random", reward="win_loss").reset(seed=4)
    assert np.array_equal(obs, raw_obs) and info["wild"] == raw_info["wild"]
    assert wild_in(obs) == info["wild"]


def test_pettingzoo_api_test_taizhou():
    api_test(taisim.aec.env(variant="taizhou", reward="win_loss"), num_cycles=1000)


def test_aec_episodes_show_the_wild_and_pay_win_loss():
    env = taisim.aec.raw_env(variant="taizhou", reward="win_loss", render_mode="ansi")
    rng = np.random.default_rng(3)
    win = next(i for i in range(taisim.ACTION_SPACE_SIZE) if taisim.action_name(i) == "win")
    paid = 0
    for seed in range(20):
        env.reset(seed=seed)
        wild = rendered_wild(env.render())
        assert wild in KINDS
        totals = {a: 0.0 for a in env.possible_agents}
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            totals[agent] += reward
            assert wild_in(obs["observation"]) == wild
            if terminated or truncated:
                action = None
            else:
                mask = obs["action_mask"]
                action = win if mask[win] else int(rng.choice(np.flatnonzero(mask)))
            env.step(action)
        assert env.agents == []
        values = sorted(totals.values())
        # One winner +1; the discarder -1, or all three others on a self-draw.
        assert values in ([0.0] * 4, [-1.0, 0.0, 0.0, 1.0], [-1.0, -1.0, -1.0, 1.0]), values
        paid += values != [0.0] * 4
    assert paid > 0


def test_vec_env_taizhou():
    envs = taisim.VecEnv(num_envs=8, variant="taizhou", opponents="greedy", reward="win_loss", threads=2)
    obs, infos = envs.reset(seed=9)
    assert obs.shape == (8, *taisim.OBS_SHAPE)
    for i in range(8):
        assert wild_in(obs[i]) == envs.info(i)["wild"] is not None
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(300):
        masks = envs.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        ended += int(terminated.sum())
        for i in np.flatnonzero(~terminated):
            assert wild_in(obs[i]) == envs.info(int(i))["wild"]
    assert ended > 0


def test_points_reward_settles_all_pairs():
    env = taisim.aec.raw_env(variant="taizhou", reward="points")
    rng = np.random.default_rng(5)
    win = next(i for i in range(taisim.ACTION_SPACE_SIZE) if taisim.action_name(i) == "win")
    paid = 0
    for seed in range(30):
        env.reset(seed=seed)
        totals = {a: 0.0 for a in env.possible_agents}
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            totals[agent] += reward
            if terminated or truncated:
                action = None
            else:
                mask = obs["action_mask"]
                action = win if mask[win] else int(rng.choice(np.flatnonzero(mask)))
            env.step(action)
        assert abs(sum(totals.values())) < 1e-6
        paid += any(totals.values())
    assert paid > 0
