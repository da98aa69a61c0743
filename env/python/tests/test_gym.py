"""The Gymnasium environment: the checker, masks, errors, determinism."""

import numpy as np
import pytest
from gymnasium.utils.env_checker import (
    check_env,
    check_reset_options,
    check_reset_return_type,
    check_reset_seed_determinism,
)
from gymnasium.utils.passive_env_checker import env_reset_passive_checker, env_step_passive_checker

import taisim


def test_gymnasium_check_env():
    # check_env samples its step-determinism action before it resets, i.e. from another
    # state's mask; the raw env rightly refuses that action, so the full checker runs through
    # LegalizeActions and every check that does not step blindly runs on the raw env.
    check_env(taisim.LegalizeActions(taisim.Env(opponents="random")), skip_render_check=True)
    env = taisim.Env(opponents="random")
    check_reset_return_type(env)
    check_reset_seed_determinism(env)
    check_reset_options(env)
    env_reset_passive_checker(env)
    env_step_passive_checker(env, env.action_space.sample(mask=env.action_masks()))


def test_legalize_actions_reports_replacements():
    env = taisim.LegalizeActions(taisim.Env(opponents="random"))
    _, info = env.reset(seed=2)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, _, _, _, info = env.step(bad)
    assert info["illegal"] is True
    _, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert info["illegal"] is False


def test_play_to_the_end_with_masked_random_actions(legal):
    env = taisim.Env(opponents="greedy")
    rng = np.random.default_rng(0)
    finished = 0
    for seed in range(20):
        obs, info = env.reset(seed=seed)
        assert obs.shape == taisim.OBS_SHAPE and obs.dtype == np.float32
        terminated = False
        steps = 0
        while not terminated:
            mask = info["action_mask"]
            assert mask.dtype == np.int8 and mask.shape == (taisim.ACTION_SPACE_SIZE,)
            choices = legal(mask)
            assert choices, "a running deal always has a legal action"
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(choices)))
            assert not truncated
            steps += 1
        finished += 1
        assert "outcome" in info
        assert not info["action_mask"].any(), "no action after the deal ends"
    assert finished == 20


def test_points_reward_sums_to_zero_over_seats():
    env = taisim.Env(opponents="greedy", reward="points")
    rng = np.random.default_rng(1)
    seen_nonzero = False
    for seed in range(40):
        _, info = env.reset(seed=seed)
        terminated = False
        while not terminated:
            choices = np.flatnonzero(info["action_mask"])
            _, reward, terminated, _, info = env.step(int(rng.choice(choices)))
        assert abs(sum(info["rewards"])) < 1e-6
        assert reward == info["rewards"]["ESWN".index(info["seat"])]
        seen_nonzero |= reward != 0
    assert seen_nonzero


def test_illegal_action_is_a_value_error_and_changes_nothing(legal):
    assert issubclass(taisim.IllegalActionError, ValueError)
    env = taisim.Env(opponents="random")
    obs, info = env.reset(seed=3)
    mask = info["action_mask"].copy()
    bad = next(i for i in range(taisim.ACTION_SPACE_SIZE) if mask[i] == 0)
    with pytest.raises(taisim.IllegalActionError) as err:
        env.step(bad)
    message = str(err.value)
    assert str(bad) in message and taisim.action_name(bad) in message
    assert taisim.action_name(legal(mask)[0]) in message, "the message lists the legal actions"
    with pytest.raises(taisim.IllegalActionError, match="out of range"):
        env.step(taisim.ACTION_SPACE_SIZE + 5)
    assert (env.action_masks() == mask).all()
    env.step(legal(mask)[0])


def test_wrong_types_and_values():
    with pytest.raises(TypeError):
        taisim.Env(seat=1)
    with pytest.raises(taisim.AgentError, match="greedy"):
        taisim.Env(opponents="nobody")
    with pytest.raises(taisim.UsageError, match="seat"):
        taisim.Env(seat="X")
    with pytest.raises(taisim.VariantError, match="no-such-variant"):
        taisim.Env(variant="no-such-variant")
    with pytest.raises(taisim.UsageError, match="money"):
        taisim.Env(reward="money")
    env = taisim.Env(opponents="random")
    with pytest.raises(RuntimeError):
        env.step(0)
    env.reset(seed=0)
    with pytest.raises(TypeError):
        env.step("discard")
    with pytest.raises(TypeError):
        env.reset(seed="zero")


def test_lockstep_same_seed_same_everything():
    a = taisim.Env(opponents="greedy,random,defensive,greedy", seat="S")
    b = taisim.Env(opponents="greedy,random,defensive,greedy", seat="S")
    for seed in (0, 7, 42):
        oa, ia = a.reset(seed=seed)
        ob, ib = b.reset(seed=seed)
        rng = np.random.default_rng(seed)
        done = False
        while True:
            assert np.array_equal(oa, ob)
            assert np.array_equal(ia["action_mask"], ib["action_mask"])
            assert ia.keys() == ib.keys()
            if done:
                break
            action = int(rng.choice(np.flatnonzero(ia["action_mask"])))
            oa, ra, done, _, ia = a.step(action)
            ob, rb, done_b, _, ib = b.step(action)
            assert (ra, done) == (rb, done_b)
