"""Property tests (taisim issue 15): random action sequences through ``Env`` and the AEC
env. Legal actions are always accepted, illegal and out-of-range ones always refused with
``ValueError``, and a refusal leaves the state exactly as it was (same table, same mask)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import taisim

# An index drawn anywhere in and around the action space, so every draw may be legal,
# illegal or out of range.
INDEX = st.integers(min_value=-3, max_value=taisim.ACTION_SPACE_SIZE + 3)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**64 - 1), opponents=st.sampled_from(["random", "greedy"]),
       seat=st.sampled_from("ESWN"), picks=st.lists(INDEX, min_size=1, max_size=300))
def test_env_accepts_legal_refuses_illegal(seed, opponents, seat, picks):
    env = taisim.Env(opponents=opponents, seat=seat, render_mode="ansi")
    _, info = env.reset(seed=seed)
    for pick in picks:
        mask = info["action_mask"]
        legal = 0 <= pick < taisim.ACTION_SPACE_SIZE and mask[pick] == 1
        if legal:
            _, reward, terminated, truncated, info = env.step(pick)
            assert not truncated
            if terminated:
                assert info["outcome"]
                _, info = env.reset(seed=(seed + 1) % 2**64)
            else:
                assert reward == 0.0
                assert info["action_mask"].any()
            continue
        table = env.render()
        with pytest.raises(taisim.IllegalActionError, match="out of range" if not 0 <= pick < taisim.ACTION_SPACE_SIZE
                           else "not legal now"):
            env.step(pick)
        assert env.render() == table, "a refused action changes nothing"
        assert np.array_equal(env.action_masks(), mask)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**64 - 1), picks=st.lists(INDEX, min_size=1, max_size=400))
def test_aec_accepts_legal_refuses_illegal(seed, picks):
    env = taisim.aec_env(render_mode="ansi")
    env.reset(seed=seed)
    for pick in picks:
        agent = env.agent_selection
        if agent is None or not env.agents:
            env.reset(seed=(seed + 1) % 2**64)
            continue
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        mask = env.observe(agent)["action_mask"]
        assert mask.any(), "the selected live agent always has a legal action"
        if 0 <= pick < taisim.ACTION_SPACE_SIZE and mask[pick] == 1:
            env.step(pick)
            continue
        table = env.render()
        with pytest.raises(taisim.IllegalActionError):
            env.step(pick)
        assert env.render() == table, "a refused action changes nothing"
        assert env.agent_selection == agent
        assert np.array_equal(env.observe(agent)["action_mask"], mask)
