"""The PettingZoo AEC environment."""

import numpy as np
from pettingzoo.test import api_test, render_test, seed_test

import taisim


def test_pettingzoo_api_test():
    api_test(taisim.aec_env(), num_cycles=2000)


def test_pettingzoo_seed_test():
    seed_test(lambda: taisim.aec_env(), num_cycles=500)


def test_pettingzoo_render_test(capsys):
    """PettingZoo's render_test builds the env with ``render_mode="human"`` first, then
    every mode in ``metadata["render_modes"]``: "ansi" returns text, "human" None."""
    render_test(taisim.aec.env)
    render_test(taisim.aec.raw_env)
    assert "seed " in capsys.readouterr().out


def test_whole_deals_rewards_are_zero_sum():
    # Masked random play that always takes a win, so the points reward is exercised.
    env = taisim.aec_env(reward="points")
    win = next(i for i in range(taisim.ACTION_SPACE_SIZE) if taisim.action_name(i) == "win")
    rng = np.random.default_rng(5)
    paid = 0
    for seed in range(40):
        env.reset(seed=seed)
        totals = {a: 0.0 for a in env.possible_agents}
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            totals[agent] += reward
            if terminated or truncated:
                action = None
            else:
                mask = obs["action_mask"]
                assert mask.any()
                action = win if mask[win] else int(rng.choice(np.flatnonzero(mask)))
            env.step(action)
        assert env.agents == []
        assert abs(sum(totals.values())) < 1e-6
        paid += any(totals.values())
    assert paid > 0


def _first_decisions(env, deals):
    """The observation of the first seat to decide in each of ``deals`` deals played by
    first legal actions, the later deals dealt by unseeded resets."""
    out = []
    for _ in range(deals):
        agent = env.agent_selection
        out.append(env.observe(agent)["observation"].copy())
        for agent in env.agent_iter():
            _, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                env.step(int(env.observe(agent)["action_mask"].argmax()))
        env.reset()
    return out


def test_unseeded_resets_go_on_with_the_seeds_stream():
    """``reset(seed=s)`` then ``reset()`` deals the seed stream's deals, as ``taisim.Env``'s
    resets do: the same whatever happened to the generator in between, and not the first
    deal again."""
    a, b = taisim.aec_env(), taisim.aec_env()
    a.reset(seed=9)
    b.reset(seed=9)
    b._np_random.integers(10)  # the stream, not the generator, gives the next deals
    first, second = _first_decisions(a, 3), _first_decisions(b, 3)
    assert all(np.array_equal(x, y) for x, y in zip(first, second))
    assert not np.array_equal(first[0], first[1])
    c = taisim.aec_env()
    c.reset(seed=9)
    assert np.array_equal(_first_decisions(c, 1)[0], first[0])
