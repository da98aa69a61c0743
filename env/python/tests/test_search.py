"""The search agent as an opponent: named as on the command line, under every shipped variant,
in the single and the batched environments, deterministic from the seeds."""

import numpy as np
import pytest

import taisim


@pytest.mark.parametrize("variant", ["taiwan16", "taiwan16-2015", "mahjongtime", "taizhou"])
def test_search_opponents_play_deals_the_same_way_twice(variant, legal):
    traces = []
    for _ in range(2):
        env = taisim.Env(variant=variant, opponents="search:8")
        rng = np.random.default_rng(1)
        trace = []
        for seed in range(2):
            _, info = env.reset(seed=seed)
            terminated = False
            while not terminated:
                action = int(rng.choice(legal(info["action_mask"])))
                _, reward, terminated, truncated, info = env.step(action)
                assert not truncated
                trace.append((action, reward))
            trace.append(info["outcome"])
        traces.append(trace)
    assert traces[0] == traces[1]


def test_vec_env_steps_with_search_opponents(legal):
    envs = taisim.VecEnv(num_envs=3, opponents="search:8")
    _, infos = envs.reset(seed=5)
    rng = np.random.default_rng(2)
    for _ in range(30):
        actions = np.array([rng.choice(legal(m)) for m in infos["action_mask"]])
        _, rewards, terminations, truncations, infos = envs.step(actions)
        assert rewards.shape == (3,) and not truncations.any()


def test_a_tuned_search_plays_as_its_settings_say():
    """A tuned name is the search with those settings: the same settings as the default's,
    spelled out, play the same deals as plain ``search:N``; another setting plays others."""
    def play(name):
        env = taisim.Env(opponents=name)
        _, info = env.reset(seed=11)
        steps = []
        for _ in range(40):
            action = int(np.flatnonzero(info["action_mask"])[0])
            obs, reward, done, _, info = env.step(action)
            steps.append((action, reward, done, obs.tobytes()))
            if done:
                _, info = env.reset()
        return steps

    plain = play("search:16")
    assert play("search:16:margin=1:first=64:indifference=0.2:prune=prior") == plain
    assert play("search:16:prune=all:indifference=0") != plain


@pytest.mark.parametrize("name", ["search:16:speed=2", "search:16:prune=some", "search:16:margin=-1"])
def test_a_bad_search_setting_is_named(name):
    with pytest.raises(taisim.AgentError, match="search setting"):
        taisim.Env(opponents=name)


@pytest.mark.parametrize("name", ["search:0", "search:x", "search:"])
def test_a_bad_search_budget_is_named(name):
    with pytest.raises(taisim.AgentError, match="search"):
        taisim.Env(opponents=name)
