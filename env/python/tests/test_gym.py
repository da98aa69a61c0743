"""The Gymnasium environment: the checker, masks, errors, determinism."""

import copy
import warnings

import gymnasium as gym
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


@pytest.mark.parametrize("env_id", sorted(taisim.GYM_IDS))
def test_check_env_on_legalized_gym_make(env_id, capsys):
    """The wrapper on what ``gymnasium.make`` gives, the way users meet it: the checker
    rebuilds the environment from its spec (``LegalizeActions`` recorded there as Gymnasium's
    own wrappers are) and renders every declared mode, ``"human"`` included; nothing it
    checks may warn (but that a wrapper is checked, which is the point)."""
    env = taisim.LegalizeActions(gym.make(env_id, opponents="random", render_mode="ansi"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message=".*is different from the unwrapped version")
        check_env(env)
    rebuilt = env.spec.make()
    assert isinstance(rebuilt, taisim.LegalizeActions)
    assert rebuilt.spec.additional_wrappers[-1].name == "LegalizeActions"
    assert "seed " in capsys.readouterr().out, "the human mode printed the table"


def test_legalize_actions_reports_replacements():
    env = taisim.LegalizeActions(taisim.Env(opponents="random"))
    _, info = env.reset(seed=2)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, _, _, _, info = env.step(bad)
    assert info["illegal"] is True
    _, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert info["illegal"] is False


def test_an_illegal_answer_is_replaced_by_pass_never_by_a_win():
    """At a claim or a rob, where pass is legal, an illegal action is replaced by pass: the
    lowest legal index there is a meld or the win, which the learner never chose."""
    from taisim.wrappers import legal_replacement

    win = next(i for i in range(taisim.ACTION_SPACE_SIZE) if taisim.action_name(i) == "win")
    assert taisim.action_name(taisim.PASS_ACTION) == "pass"
    robbed = np.zeros(taisim.ACTION_SPACE_SIZE, dtype=np.int8)
    robbed[[win, taisim.PASS_ACTION]] = 1
    turn = np.zeros_like(robbed)
    turn[[5, 9, win]] = 1
    assert legal_replacement(robbed) == taisim.PASS_ACTION
    assert legal_replacement(turn) == 5
    assert legal_replacement(np.stack([turn, robbed])).tolist() == [5, taisim.PASS_ACTION]

    # In play: a claim decision met, an illegal action steps exactly as pass does.
    env = taisim.LegalizeActions(taisim.Env(opponents="greedy"))
    answered = 0
    for seed in range(40):
        _, info = env.reset(seed=seed)
        done = False
        while not done:
            mask = info["action_mask"]
            legal = np.flatnonzero(mask)
            if mask[taisim.PASS_ACTION] and len(legal) > 1:
                twin = copy.deepcopy(env)
                bad = int(np.flatnonzero(mask == 0)[0])
                expected = twin.step(taisim.PASS_ACTION)
                got = env.step(bad)
                assert got[4]["illegal"] is True and expected[4]["illegal"] is False
                np.testing.assert_array_equal(got[0], expected[0])
                assert got[1:4] == expected[1:4]
                answered += 1
                _, _, done, _, info = got
            else:
                _, _, done, _, info = env.step(int(legal[-1]))
        if answered >= 5:
            break
    assert answered >= 5


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


def test_make_vec_is_served_by_the_rust_vec_env():
    import gymnasium as gym

    envs = gym.make_vec("taisim/Taiwan16-v0", num_envs=3)
    try:
        assert isinstance(envs, taisim.VecEnv) and envs.num_envs == 3
        assert envs.spec.id == "taisim/Taiwan16-v0"
        assert envs.spec.kwargs["vectorization_mode"] == "vector_entry_point"
        # What gymnasium.make gives, three times: greedy opponents unless told otherwise.
        one, _ = gym.make("taisim/Taiwan16-v0").reset(seed=4)
        greedy = taisim.VecEnv(num_envs=3, opponents="greedy", threads=1)
        obs, info = envs.reset(seed=4)
        same, _ = greedy.reset(seed=4)
        assert obs.shape == (3, *one.shape) and obs.dtype == one.dtype
        for _ in range(40):
            assert (obs == same).all()
            act = info["action_mask"].argmax(axis=1)
            obs, _, _, _, info = envs.step(act)
            same, _, _, _, _ = greedy.step(act)
    finally:
        envs.close()
    taizhou = gym.make_vec("taisim/Taizhou-v0", num_envs=2, opponents="random", seat="S")
    assert isinstance(taizhou, taisim.VecEnv)
    obs, info = taizhou.reset(seed=1)
    wild = [r.name for r in taisim.obs_rows()].index("wild")
    assert (obs[:, wild].sum(axis=1) == 1).all(), "a taizhou deal shows its wild"
    # Gymnasium's own vectorisers still work on the same id.
    sync = gym.make_vec("taisim/Taiwan16-v0", num_envs=2, vectorization_mode="sync")
    assert isinstance(sync, gym.vector.SyncVectorEnv)
    with pytest.raises(taisim.UsageError, match="render"):
        gym.make_vec("taisim/Taiwan16-v0", num_envs=2, render_mode="ansi")


def test_vec_env_for_blind_samplers_legalizes_and_reports():
    envs = taisim.VecEnv(num_envs=4, opponents="greedy", threads=1, illegal="legalize",
                         mask_dtype="bool", final_info="regular")
    _, info = envs.reset(seed=6)
    assert info["action_mask"].dtype == np.bool_ and envs.action_masks().dtype == np.bool_
    masks = info["action_mask"]
    bad = np.array([int(np.flatnonzero(~m)[0]) for m in masks])
    bad[0] = 10_000
    _, _, _, _, info = envs.step(bad)
    assert info["illegal"].tolist() == [True] * 4
    good = np.array([int(np.flatnonzero(m)[-1]) for m in info["action_mask"]])
    finished = 0
    for _ in range(600):
        _, _, term, _, info = envs.step(good)
        assert not info["illegal"].any()
        if "final_info" in info:
            finished += int(term.sum())
            final = info["final_info"]
            for key, values in final.items():
                if not key.startswith("_") and values.dtype == object:
                    flags = final[f"_{key}"]
                    assert all(v is not None and not isinstance(v, list)
                               for v in values[flags]), key
            assert "wild" not in final, "taiwan16 has no wild"
            assert final["rewards"].shape == (4, 4) and final["rewards"].dtype == np.float64
            done = np.flatnonzero(term)
            assert (final["rewards"][done].sum(axis=1) == 0).all(), "payments balance"
            assert all(w == "" or set(w.split(",")) <= set("ESWN")
                       for w in final["winners"][done])
        good = np.array([int(np.flatnonzero(m)[-1]) for m in info["action_mask"]])
    assert finished > 0
    # By default an illegal action is an error, and the masks are int8.
    plain = taisim.VecEnv(num_envs=2, opponents="greedy", threads=1)
    _, info = plain.reset(seed=6)
    assert info["action_mask"].dtype == np.int8
    with pytest.raises(ValueError, match="not legal"):
        plain.step(np.array([int(np.flatnonzero(m == 0)[0]) for m in info["action_mask"]]))
    for kwargs in ({"illegal": "ignore"}, {"mask_dtype": "float32"}, {"final_info": "flat"}):
        with pytest.raises(taisim.UsageError, match=next(iter(kwargs))):
            taisim.VecEnv(num_envs=1, **kwargs)


def test_torch_and_sb3_modules_load_on_first_use():
    import subprocess
    import sys

    code = ("import sys, taisim; assert 'torch' not in sys.modules; "
            "assert 'stable_baselines3' not in sys.modules; "
            "print(taisim.sb3.SB3VecEnv.__name__, taisim.torch_policy.KindPolicy.__name__)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if done.returncode != 0 and "No module named" in done.stderr:
        from rl_extras import rl_import

        rl_import("stable_baselines3")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["SB3VecEnv", "KindPolicy"]
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        taisim.nothing


def test_legalize_actions_raises_what_the_env_raises():
    """Past the deal's end, where nothing is legal, LegalizeActions replaces nothing and the
    environment refuses the step as it would unwrapped; an array of actions is refused as the
    environment refuses it."""
    env = taisim.LegalizeActions(taisim.Env(opponents="random"))
    _, info = env.reset(seed=4)
    with pytest.raises(taisim.IllegalActionError, match="one action expected"):
        env.step(np.array([1, 2]))
    with pytest.raises(TypeError):
        env.step("1")
    terminated = False
    while not terminated:
        _, _, terminated, _, info = env.step(0)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    with pytest.raises(RuntimeError, match="reset"):
        env.unwrapped.step(0)
