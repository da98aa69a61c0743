"""The batched environment."""

import numpy as np
import pytest

import taisim


def random_masked(rng, mask):
    """One legal index per row of a (N, A) mask."""
    scores = rng.random(mask.shape) * mask
    return scores.argmax(axis=1)


def test_shapes_and_auto_reset():
    envs = taisim.VecEnv(num_envs=16, opponents="random")
    obs, mask = envs.reset(seed=0)
    assert obs.shape == (16, *taisim.OBS_SHAPE) and obs.dtype == np.float32
    assert mask.shape == (16, taisim.ACTION_SPACE_SIZE) and mask.dtype == np.int8
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(2000):
        obs, reward, terminated, truncated, mask = envs.step(random_masked(rng, mask))
        assert reward.shape == terminated.shape == truncated.shape == (16,)
        assert mask.any(axis=1).all(), "every environment, auto-reset included, can act"
        assert not truncated.any()
        ended += int(terminated.sum())
    assert ended > 0
    assert "outcome" in envs.info(int(np.flatnonzero(terminated)[0])) if terminated.any() else True


def test_lockstep_and_thread_count_independence():
    runs = []
    for threads in (1, 2, 2):
        envs = taisim.VecEnv(num_envs=8, opponents="greedy", threads=threads)
        obs, mask = envs.reset(seed=11)
        rng = np.random.default_rng(3)
        trace = [obs.copy()]
        for _ in range(300):
            obs, reward, terminated, _, mask = envs.step(random_masked(rng, mask))
            trace += [obs.copy(), reward.copy(), terminated.copy(), mask.copy()]
        runs.append(trace)
    for other in runs[1:]:
        assert all(np.array_equal(x, y) for x, y in zip(runs[0], other))


def test_bad_batches():
    envs = taisim.VecEnv(num_envs=4, opponents="random")
    envs.reset(seed=1)
    with pytest.raises(ValueError, match="4 environments"):
        envs.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError):
        envs.step(np.full(4, taisim.ACTION_SPACE_SIZE + 1))
    with pytest.raises(TypeError):
        envs.step(np.zeros(4, dtype=np.float32))
    with pytest.raises(TypeError):
        taisim.VecEnv(num_envs="many")
    with pytest.raises(ValueError):
        taisim.VecEnv(num_envs=0)
