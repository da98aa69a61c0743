"""The batched environment: a Gymnasium VectorEnv stepped in Rust."""

import os
import pickle
import signal

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import taisim


def random_masked(rng, mask):
    """One legal index per row of a (N, A) mask."""
    scores = rng.random(mask.shape) * mask
    return scores.argmax(axis=1)


def test_is_a_gymnasium_vector_env():
    envs = taisim.VecEnv(num_envs=4, opponents="random")
    assert isinstance(envs, gym.vector.VectorEnv)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert envs.single_action_space == gym.spaces.Discrete(taisim.ACTION_SPACE_SIZE)
    assert envs.single_observation_space.shape == taisim.OBS_SHAPE
    assert envs.observation_space.shape == (4, *taisim.OBS_SHAPE)
    assert envs.action_space == gym.spaces.MultiDiscrete([taisim.ACTION_SPACE_SIZE] * 4)
    for space in (envs.single_action_space, envs.single_observation_space, envs.action_space):
        assert pickle.loads(pickle.dumps(space)) == space
    obs, infos = envs.reset(seed=0)
    assert obs in envs.observation_space
    envs.close()
    assert envs.closed


def test_shapes_and_auto_reset():
    envs = taisim.VecEnv(num_envs=16, opponents="random")
    obs, infos = envs.reset(seed=0)
    mask = infos["action_mask"]
    assert obs.shape == (16, *taisim.OBS_SHAPE) and obs.dtype == np.float32
    assert mask.shape == (16, taisim.ACTION_SPACE_SIZE) and mask.dtype == np.int8
    assert infos["_action_mask"].all()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(2000):
        obs, reward, terminated, truncated, infos = envs.step(random_masked(rng, mask))
        mask = infos["action_mask"]
        assert np.array_equal(mask, envs.action_masks())
        assert reward.shape == terminated.shape == truncated.shape == (16,)
        assert mask.any(axis=1).all(), "every environment, auto-reset included, can act"
        assert not truncated.any()
        if terminated.any():
            # Same-step autoreset: the finished deals' infos, flagged per environment.
            assert np.array_equal(infos["_final_info"], terminated)
            final = infos["final_info"]
            # u64 seeds batch as uint64, never overflowing an int64 array.
            assert final["deal_seed"].dtype == np.uint64
            for i in np.flatnonzero(terminated):
                assert final["outcome"][i] in ("self_draw", "discard", "flower_win", "exhaustive_draw")
                assert final["_outcome"][i]
                # The seat rewards of the finished deal are the step's reward for the learner.
                assert final["rewards"][i][0] == reward[i]
        else:
            assert "final_info" not in infos
        ended += int(terminated.sum())
    assert ended > 0


def test_zero_sum_points_and_positive_wins():
    envs = taisim.VecEnv(num_envs=32, opponents="greedy")
    _, infos = envs.reset(seed=5)
    rng = np.random.default_rng(5)
    wins = 0
    for _ in range(1500):
        _, reward, terminated, _, infos = envs.step(random_masked(rng, infos["action_mask"]))
        for i in np.flatnonzero(terminated):
            seats = infos["final_info"]["rewards"][i]
            assert abs(sum(seats)) < 1e-3, "points are zero-sum"
            for w in infos["final_info"]["winners"][i]:
                wins += 1
                assert seats["ESWN".index(w)] > 0, "every win earns a positive reward by default"
            assert reward[i] == seats[0], "the learner holds seat E"
    assert wins > 0


def test_lockstep_and_thread_count_independence():
    runs = []
    for threads in (1, 2, 2):
        envs = taisim.VecEnv(num_envs=8, opponents="greedy", threads=threads)
        obs, infos = envs.reset(seed=11)
        mask = infos["action_mask"]
        rng = np.random.default_rng(3)
        trace = [obs.copy()]
        for _ in range(300):
            obs, reward, terminated, _, infos = envs.step(random_masked(rng, mask))
            mask = infos["action_mask"]
            trace += [obs.copy(), reward.copy(), terminated.copy(), mask.copy()]
        runs.append(trace)
    for other in runs[1:]:
        assert all(np.array_equal(x, y) for x, y in zip(runs[0], other))


def test_bad_batches():
    envs = taisim.VecEnv(num_envs=4, opponents="random")
    envs.reset(seed=1)
    with pytest.raises(taisim.IllegalActionError, match=r"shape \(num_envs,\) = \(4,\)"):
        envs.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(taisim.IllegalActionError, match="got shape \\(2, 2\\)"):
        envs.step(np.zeros((2, 2), dtype=np.int64))
    with pytest.raises(taisim.IllegalActionError, match="got shape \\(4, 1\\)"):
        envs.step(np.zeros((4, 1), dtype=np.int64))
    with pytest.raises(taisim.IllegalActionError, match="out of range"):
        envs.step(np.full(4, taisim.ACTION_SPACE_SIZE + 1))
    with pytest.raises(taisim.IllegalActionError, match="environment 0: action -1 is out of range"):
        envs.step(np.full(4, -1))
    with pytest.raises(taisim.IllegalActionError, match="out of range"):
        envs.step(np.full(4, 2**64 - 1, dtype=np.uint64))
    with pytest.raises(TypeError):
        envs.step(np.zeros(4, dtype=np.float32))
    # In range but not legal now: the engine's refusal, named by its environment and kind.
    masks = envs.action_masks()
    illegal = np.array([int(np.flatnonzero(m == 0)[0]) for m in masks])
    with pytest.raises(taisim.IllegalActionError, match="environment 0: action .* is not legal"):
        envs.step(illegal)
    with pytest.raises(TypeError):
        taisim.VecEnv(num_envs="many")
    with pytest.raises(taisim.UsageError):
        taisim.VecEnv(num_envs=0)
    with pytest.raises(taisim.UsageError, match="num_envs must be between 1 and"):
        taisim.VecEnv(num_envs=2**31)
    with pytest.raises(taisim.UsageError, match="num_envs must be between 1 and"):
        taisim.VecEnv(num_envs=-3)
    with pytest.raises(taisim.UsageError, match="threads"):
        taisim.VecEnv(num_envs=2, threads=0)


def test_seeds_are_checked_like_the_other_environments():
    envs = taisim.VecEnv(num_envs=2, opponents="random")
    for bad in (-1, 2**64):
        with pytest.raises(taisim.UsageError, match="out of range"):
            envs.reset(seed=bad)
    with pytest.raises(taisim.UsageError, match="3 seeds given for a batch of 2 environments"):
        envs.reset(seed=[1, 2, 3])
    with pytest.raises(taisim.UsageError, match=r"seed\[1\]: seed -1 is out of range"):
        envs.reset(seed=[1, -1])
    with pytest.raises(TypeError, match=r"seed\[0\]: seed must be an int or None, not str"):
        envs.reset(seed=["1", 2])
    with pytest.raises(taisim.UsageError, match=r"not an array of shape \(2, 1\)"):
        envs.reset(seed=np.array([[1], [2]]))
    a, _ = envs.reset(seed=2**64 - 1)
    b, _ = envs.reset(seed=2**64 - 1)
    assert np.array_equal(a, b)


def _course(envs, seed, steps):
    """Every observation and reward of ``steps`` first-legal steps after ``reset(seed=seed)``."""
    obs, info = envs.reset(seed=seed)
    out = [obs.copy()]
    for _ in range(steps):
        obs, rewards, *_, info = envs.step(info["action_mask"].argmax(axis=1))
        out += [obs.copy(), rewards.copy()]
    return out


def test_a_list_of_seeds_gives_each_environment_its_own_stream():
    """Gymnasium's vector API: ``reset(seed=[s_0, ...])``, one seed per environment. An
    environment's deals follow from its own seed alone, at any place in any batch, with
    auto-resets; ``None`` entries draw from the batch's ``np_random``."""
    steps = 300
    pair = _course(taisim.VecEnv(num_envs=2, opponents="greedy", threads=2), [11, 12], steps)
    for i, seed in enumerate((11, 12)):
        alone = _course(taisim.VecEnv(num_envs=1, opponents="greedy"), [seed], steps)
        assert all(np.array_equal(p[i], a[0]) for p, a in zip(pair, alone))
    swapped = _course(taisim.VecEnv(num_envs=2, opponents="greedy"), np.array([12, 11], dtype=np.uint64), steps)
    assert all(np.array_equal(p, s[::-1]) for p, s in zip(pair, swapped))
    # At least one deal ended and auto-reset within the course (rewards paid).
    assert any(np.any(r != 0) for r in pair[2::2])
    # One int for the batch is another thing than the same int for every environment.
    one, _ = taisim.VecEnv(num_envs=2, opponents="greedy").reset(seed=11)
    assert not np.array_equal(one[0], pair[0][0])
    # None entries: drawn from np_random, so a batch seeded first repeats them.
    envs = taisim.VecEnv(num_envs=2, opponents="greedy")
    envs.reset(seed=5)
    a, _ = envs.reset(seed=[None, 12])
    envs.reset(seed=5)
    b, _ = envs.reset(seed=[None, 12])
    assert np.array_equal(a, b)
    assert np.array_equal(a[1], pair[0][1])


def _deals(seeds_each_step):
    """Per environment, the deals it played in order (consecutive repeats merged)."""
    out = [[] for _ in seeds_each_step[0]]
    for row in seeds_each_step:
        for i, d in enumerate(row):
            if not out[i] or out[i][-1] != d:
                out[i].append(int(d))
    return out


@pytest.mark.parametrize("variant", ["taiwan16", "taizhou"])
def test_a_batch_plays_the_deals_of_envs_and_of_gymnasiums_own_vectoriser(variant):
    """``VecEnv.reset(seed=[s, s + 1])`` plays, environment by environment, the deals that
    ``taisim.Env.reset(seed=s + i)`` and its unseeded resets play, step for step, and the
    deals of Gymnasium's synchronous vectoriser over ``taisim.Env`` reset with ``seed=s``
    (next-step auto-reset, so its steps are aligned otherwise): the learner plays the first
    legal action, the opponents greedy, so a deal's course is the deal's alone."""
    s, steps = 40, 300
    ids = {v: k for k, v in taisim.GYM_IDS.items()}
    envs = taisim.VecEnv(num_envs=2, variant=variant, opponents="greedy", threads=2)
    obs, info = envs.reset(seed=[s, s + 1])
    singles = [taisim.Env(variant=variant, opponents="greedy") for _ in range(2)]
    firsts = [e.reset(seed=s + i) for i, e in enumerate(singles)]
    for i, (o, _) in enumerate(firsts):
        assert np.array_equal(obs[i], o)
    batch_deals = [[envs.info(i)["deal_seed"] for i in range(2)]]
    for _ in range(steps):
        actions = info["action_mask"].argmax(axis=1)
        obs, rewards, terminated, _, info = envs.step(actions)
        for i, e in enumerate(singles):
            o, r, t, _, _ = e.step(int(actions[i]))
            assert r == rewards[i] and t == terminated[i]
            if t:
                o, _ = e.reset()
            assert np.array_equal(obs[i], o)
        batch_deals.append([envs.info(i)["deal_seed"] for i in range(2)])
    played = _deals(batch_deals)
    assert all(len(d) >= 3 for d in played), played

    sync = gym.make_vec(ids[variant], num_envs=2, vectorization_mode="sync", opponents="greedy")
    _, info = sync.reset(seed=s)
    sync_deals = [list(info["deal_seed"])]
    while any(len(d) <= len(p) for d, p in zip(_deals(sync_deals), played)):
        _, _, _, _, info = sync.step(info["action_mask"].argmax(axis=1))
        sync_deals.append(list(info["deal_seed"]))
    assert [d[:len(p)] for d, p in zip(_deals(sync_deals), played)] == played


def test_base_and_per_tai_and_path_variant(tmp_path):
    import pathlib

    path = pathlib.Path(__file__).resolve().parents[3] / "score" / "variants" / "taiwan16.toml"
    by_name = taisim.VecEnv(num_envs=8, opponents="random", base=0, per_tai=1)
    by_path = taisim.VecEnv(num_envs=8, opponents="random", variant=path, base=0, per_tai=2)
    _, ia = by_name.reset(seed=4)
    _, ib = by_path.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(600):
        actions = random_masked(rng, ia["action_mask"])
        _, ra, ta, _, ia = by_name.step(actions)
        _, rb, tb, _, ib = by_path.step(actions)
        assert np.array_equal(ta, tb)
        # Without a base, doubling the value of a tai doubles every settlement.
        assert np.array_equal(rb, 2 * ra)


def _same_info_batch(ours, theirs):
    """Two batched info dicts alike: the same keys in the same order, the same dtypes and
    shapes, the same entries (object entries compared by ``==`` and by type)."""
    assert list(ours) == list(theirs)
    for key, expected in theirs.items():
        found = ours[key]
        assert isinstance(found, np.ndarray), key
        assert (found.dtype, found.shape) == (expected.dtype, expected.shape), key
        if expected.dtype == object:
            for x, y in zip(found, expected):
                assert type(x) is type(y) and x == y, (key, x, y)
        else:
            assert np.array_equal(found, expected), key


@pytest.mark.parametrize(
    "opponents, outcomes",
    # Random opponents (and a random learner) practically never win: their deals end drawn.
    [("random", {"exhaustive_draw"}), ("greedy", {"self_draw", "discard", "exhaustive_draw"})],
)
def test_final_info_is_gymnasiums_batch_of_the_finished_deals_infos(opponents, outcomes):
    """``final_info`` (built in Rust) is exactly what Gymnasium's own ``_add_info`` makes of
    the finished deals' info dicts, one environment at a time."""
    envs = taisim.VecEnv(num_envs=24, opponents=opponents)
    _, infos = envs.reset(seed=21)
    rng = np.random.default_rng(21)
    checked = set()
    for _ in range(400):
        _, _, terminated, _, infos = envs.step(random_masked(rng, infos["action_mask"]))
        assert list(infos)[:2] == ["action_mask", "_action_mask"]
        assert infos["_action_mask"].dtype == np.bool_ and infos["_action_mask"].all()
        if not terminated.any():
            assert "final_info" not in infos and "_final_info" not in infos
            continue
        expected = {}
        for i in np.flatnonzero(terminated):
            info = envs.info(int(i))
            checked.add(info["outcome"])
            expected = envs._add_info(expected, info, int(i))
        _same_info_batch(infos["final_info"], expected)
        assert infos["_final_info"].dtype == np.bool_
        assert np.array_equal(infos["_final_info"], terminated)
        # Every mask is its own array, as Gymnasium's are: writing one leaves the rest.
        masks = [v for k, v in infos["final_info"].items() if k.startswith("_")]
        assert len({id(m) for m in masks}) == len(masks)
        assert not np.shares_memory(infos["_final_info"], terminated)
    # With greedy opponents, wins with and without a payer, and draws, were all compared.
    assert outcomes <= checked


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_child_steps_batches():
    # The stepping thread joins a pool of worker threads that a forked child does not have;
    # the child's batches must still be stepped (by the thread alone), not wait forever.
    envs = taisim.VecEnv(num_envs=64, opponents="random")
    _, infos = envs.reset(seed=0)

    def play(envs, infos, steps):
        for _ in range(steps):
            actions = np.array([np.flatnonzero(m)[0] for m in infos["action_mask"]])
            _, _, _, _, infos = envs.step(actions)
        return infos

    infos = play(envs, infos, 5)
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            signal.alarm(60)
            play(envs, infos, 20)
            other = taisim.VecEnv(num_envs=64, opponents="random")
            play(other, other.reset(seed=1)[1], 20)
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, f"child status {status}"
    play(envs, infos, 5)


def test_a_batch_in_use_by_another_thread_says_so():
    """A call on a batch while another thread steps it (the step releases the GIL) raises
    UsageError saying the batch is in use, not pyo3's bare "Already borrowed". (One thread
    steps: two stepping threads would race on which state each one's actions are for.)"""
    import threading

    from taisim._seed import reraise_in_use

    with pytest.raises(taisim.UsageError, match="VecEnv is in use by another thread"):
        reraise_in_use(RuntimeError("Already borrowed"), "VecEnv")
    reraise_in_use(RuntimeError("something else"), "VecEnv")  # left to the caller
    envs = taisim.VecEnv(num_envs=512, threads=1)
    envs.reset(seed=1)
    errors = []

    def play():
        for _ in range(40):
            masks = envs.action_masks()
            try:
                envs.step(masks.argmax(axis=1))
            except Exception as e:  # noqa: BLE001 - every kind is recorded
                errors.append(e)

    threads = [threading.Thread(target=play)]
    for t in threads:
        t.start()
    while any(t.is_alive() for t in threads):
        try:
            envs.info(0)
        except Exception as e:  # noqa: BLE001
            errors.append(e)
    for t in threads:
        t.join()
    for e in errors:
        assert isinstance(e, taisim.UsageError) and "in use by another thread" in str(e), repr(e)
