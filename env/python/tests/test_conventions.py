"""What Gymnasium, PettingZoo and SB3 users expect of the package (taisim issue 14): plain
picklable spaces, registered ids, masks through wrappers, rendering, versions, seeds, the
reward settings and variant paths."""

import pathlib
import pickle
import re

import gymnasium as gym
import numpy as np
import pytest

import taisim

VARIANT_FILE = pathlib.Path(__file__).resolve().parents[3] / "score" / "variants" / "taiwan16.toml"


def first_legal(mask):
    return int(np.flatnonzero(mask)[0])


def test_version():
    assert re.fullmatch(r"\d+\.\d+\.\d+.*", taisim.__version__)


def test_spaces_are_plain_and_pickle():
    env = taisim.Env(opponents="random")
    assert type(env.action_space) is gym.spaces.Discrete
    assert env.action_space == gym.spaces.Discrete(taisim.ACTION_SPACE_SIZE)
    for space in (env.action_space, env.observation_space):
        assert pickle.loads(pickle.dumps(space)) == space


@pytest.mark.parametrize("env_id,variant", sorted(taisim.GYM_IDS.items()))
def test_registered_ids_make_each_variant(env_id, variant):
    env = gym.make(env_id, opponents="random")
    assert env.unwrapped.spec.id == env_id
    obs, info = env.reset(seed=3)
    # The same deal as the class built by hand.
    raw_obs, raw_info = taisim.Env(variant=variant, opponents="random").reset(seed=3)
    assert np.array_equal(obs, raw_obs)
    assert np.array_equal(info["action_mask"], raw_info["action_mask"])
    env.step(first_legal(info["action_mask"]))


def test_make_with_module_prefix_and_kwargs():
    env = gym.make("taisim:taisim/Taiwan16-v0", variant="mahjongtime", seat="W", base=3, per_tai=2)
    _, info = env.reset(seed=1)
    assert info["seat"] == "W"


def test_action_masks_reachable_through_wrappers():
    env = gym.wrappers.TimeLimit(gym.make("taisim/Taiwan16-v0", opponents="random"), max_episode_steps=500)
    _, info = env.reset(seed=8)
    # Gymnasium >= 1.0 wrappers do not forward attributes; get_wrapper_attr is the documented
    # way, and what sb3-contrib's get_action_masks uses.
    masks = env.get_wrapper_attr("action_masks")
    assert np.array_equal(masks(), info["action_mask"])
    _, _, _, _, info = env.step(first_legal(info["action_mask"]))
    assert np.array_equal(masks(), info["action_mask"])


def _play(env, steps):
    _, info = env.reset(seed=0)
    for _ in range(steps):
        _, _, terminated, truncated, info = env.step(first_legal(info["action_mask"]))
        if terminated or truncated:
            _, info = env.reset()
    return info


def test_async_vector_env():
    envs = gym.vector.AsyncVectorEnv([lambda: taisim.Env(opponents="random")] * 2)
    try:
        obs, infos = envs.reset(seed=[1, 2])
        assert obs.shape == (2, *taisim.OBS_SHAPE)
        ended = np.zeros(2, dtype=bool)
        for _ in range(200):
            # Next-step autoreset: after a deal ends (its final mask is empty) the next
            # action is ignored while that environment resets.
            actions = np.array([first_legal(m) if not e else 0 for m, e in zip(infos["action_mask"], ended)])
            obs, _, terminated, truncated, infos = envs.step(actions)
            ended = terminated | truncated
            assert infos["action_mask"].shape == (2, taisim.ACTION_SPACE_SIZE)
    finally:
        envs.close()


def test_render_ansi_shows_the_table():
    env = taisim.Env(opponents="random", seat="S", render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    lines = text.splitlines()
    assert lines[0].startswith("seed 3  dice ")
    seat_lines = [line for line in lines if re.match(r"^[ *][ >][ESWN]: ", line)]
    assert [line[2] for line in seat_lines] == ["E", "S", "W", "N"]
    assert seat_lines[1].startswith("*"), "the learner's seat is marked"
    assert taisim.Env(opponents="random").render() is None
    with pytest.raises(taisim.UsageError, match="render_mode"):
        taisim.Env(render_mode="rgb_array")


def test_render_human_prints_the_table(capsys):
    """Gymnasium's and PettingZoo's "human" mode: the table is printed for a person after
    each reset and step, and by ``render()``, which returns None."""
    env = taisim.Env(opponents="random", render_mode="human")
    assert "human" in env.metadata["render_modes"]
    _, info = env.reset(seed=3)
    assert capsys.readouterr().out.startswith("seed 3  dice ")
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert "seed 3  dice " in capsys.readouterr().out
    assert env.render() is None
    assert capsys.readouterr().out.startswith("seed 3  dice ")
    aec = taisim.aec.env(render_mode="human")
    assert "human" in aec.metadata["render_modes"]
    aec.reset(seed=3)
    assert capsys.readouterr().out.startswith("seed 3  dice ")
    assert aec.render() is None
    assert capsys.readouterr().out.startswith("seed 3  dice ")


def test_render_ansi_aec():
    env = taisim.aec.env(render_mode="ansi")
    env.reset(seed=3)
    assert env.render().startswith("seed 3  dice ")


def test_seeds_out_of_range_are_refused_everywhere():
    env = taisim.Env(opponents="random")
    aec = taisim.aec_env()
    for bad in (-1, 2**64, -(2**70)):
        with pytest.raises(taisim.UsageError, match="out of range"):
            env.reset(seed=bad)
        with pytest.raises(taisim.UsageError, match="out of range"):
            aec.reset(seed=bad)
    a, _ = env.reset(seed=2**64 - 1)
    b, _ = taisim.Env(opponents="random").reset(seed=2**64 - 1)
    assert np.array_equal(a, b)
    aec.reset(seed=2**64 - 1)


def test_actions_out_of_range_and_arrays():
    env = taisim.Env(opponents="random")
    _, info = env.reset(seed=0)
    for bad in (-1, taisim.ACTION_SPACE_SIZE, 2**64):
        with pytest.raises(taisim.IllegalActionError, match=f"action {bad} is out of range"):
            env.step(bad)
    with pytest.raises(taisim.IllegalActionError, match="one action expected"):
        env.step(np.array([[first_legal(info["action_mask"])]]))
    # A numpy scalar or 0-d array is one action.
    env.step(np.array(first_legal(info["action_mask"])))
    aec = taisim.aec_env()
    aec.reset(seed=0)
    with pytest.raises(taisim.IllegalActionError, match="action -1 is out of range"):
        aec.step(-1)
    with pytest.raises(taisim.IllegalActionError, match="one action expected"):
        aec.step(np.array([0, 1]))


def test_out_of_range_actions_name_the_last_index():
    """Every message of an action out of range names the space as "0 to 143": Rust's
    "0..144" reads as a range that holds 144, which is refused."""
    last = taisim.ACTION_SPACE_SIZE - 1
    env = taisim.Env(opponents="random")
    env.reset(seed=0)
    vec = taisim.VecEnv(2, opponents="random")
    vec.reset(seed=0)
    aec = taisim.aec_env()
    aec.reset(seed=0)
    calls = [
        lambda: env.step(last + 1),
        lambda: env.step(2**64),
        lambda: taisim.action_name(last + 1),
        lambda: taisim.action_name(2**64),
        lambda: aec.step(-1),
        lambda: vec.step(np.full(2, last + 1)),
        lambda: vec.step(np.full(2, 2**64 - 1, dtype=np.uint64)),
    ]
    for call in calls:
        with pytest.raises(taisim.IllegalActionError, match="out of range") as err:
            call()
        assert f"the action space is 0 to {last}" in str(err.value), err.value


def test_variant_as_path():
    by_name = taisim.Env(opponents="random")
    by_path = taisim.Env(opponents="random", variant=VARIANT_FILE)
    by_str = taisim.Env(opponents="random", variant=str(VARIANT_FILE))
    a, _ = by_name.reset(seed=6)
    for env in (by_path, by_str):
        b, _ = env.reset(seed=6)
        assert np.array_equal(a, b)
    taisim.aec_env(variant=VARIANT_FILE).reset(seed=0)
    with pytest.raises(TypeError, match="variant"):
        taisim.Env(variant=16)


SEATS = "ESWN"


def _won_deals(env, seeds):
    """The final info of each deal somebody won; the learner wins when it can, otherwise
    plays uniformly at random."""
    win = [i for i in range(taisim.ACTION_SPACE_SIZE) if taisim.action_name(i) in ("win", "flower_win")]
    won = []
    for seed in seeds:
        _, info = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while True:
            legal = np.flatnonzero(info["action_mask"])
            wins = [a for a in win if info["action_mask"][a]]
            action = wins[0] if wins else int(rng.choice(legal))
            _, _, terminated, _, info = env.step(action)
            if terminated:
                break
        if info["winners"]:
            won.append(info)
    return won


def test_default_reward_pays_every_win():
    # taiwan16's own settlement has base 0: a 0-tai win would pay nothing. The environment's
    # default base is one tai's worth, so every win is rewarded (every seat's reward is in
    # info["rewards"]).
    won = _won_deals(taisim.Env(opponents="greedy"), range(200))
    assert len(won) > 50
    for info in won:
        for w in info["winners"]:
            assert info["rewards"][SEATS.index(w)] > 0


def test_base_and_per_tai_settle_the_points_reward():
    # base 7, nothing per tai: each payer pays each winner exactly 7.
    won = _won_deals(taisim.Env(opponents="greedy", base=7, per_tai=0), range(200))
    assert len(won) > 50
    for info in won:
        payers = 1 if info["payer"] is not None else 3
        for w in info["winners"]:
            assert info["rewards"][SEATS.index(w)] == 7 * payers
        assert abs(sum(info["rewards"])) < 1e-6
    with pytest.raises(taisim.UsageError, match="base"):
        taisim.Env(base=-1)
    with pytest.raises(TypeError, match="per_tai"):
        taisim.Env(per_tai=1.5)


def test_pettingzoo_env_factory():
    from pettingzoo.test import api_test
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    env = taisim.aec.env()
    assert isinstance(env, OrderEnforcingWrapper)
    api_test(env, num_cycles=200)
    env.reset(seed=1)
    obs = env.observe(env.agent_selection)
    assert set(obs) == {"observation", "action_mask"}
    assert isinstance(taisim.aec.raw_env(), taisim.TaisimAEC)


def test_integers_past_the_engines_range_name_the_argument(tmp_path):
    """An int the engine's fixed-width integers cannot hold is refused by name and range
    (``UsageError``; ``IllegalActionError`` for an action index), never a bare
    ``OverflowError``; and before anything is written."""
    big = 2**64
    run = tmp_path / "never"
    calls = [
        (lambda: taisim.simulate(run, deals=5, seed=big), "seed"),
        (lambda: taisim.simulate(run, deals=big), "deals"),
        (lambda: taisim.simulate(run, deals=5, part_size=big), "part_size"),
        (lambda: taisim.simulate(run, deals=5, threads=big), "threads"),
        (lambda: taisim.simulate(run, deals=5, base=big), "base"),
        (lambda: taisim.simulate(run, deals=5, per_tai=-1), "per_tai"),
        (lambda: taisim.arena("greedy", "random", deals=2, seed=big), "seed"),
        (lambda: taisim.arena("greedy", "random", deals=big), "deals"),
        (lambda: taisim.replay(run, big), "deal_id"),
        (lambda: taisim.review(run, big, "E"), "deal_id"),
        (lambda: taisim.obs_rows(2**40), "observation version"),
        (lambda: taisim.Env(opponents="random", per_tai=big), "per_tai"),
    ]
    for call, name in calls:
        with pytest.raises(taisim.UsageError, match=name) as err:
            call()
        assert "out of range" in str(err.value) or "version" in name, err.value
    assert not run.exists()
    for bad in (-1, taisim.ACTION_SPACE_SIZE, big, -(2**70)):
        with pytest.raises(taisim.IllegalActionError, match=f"action {bad} is out of range"):
            taisim.action_name(bad)
    with pytest.raises(TypeError):
        taisim.action_name("pung")
    assert taisim.action_name(np.int64(71)) == taisim.action_name(71)


def test_paths_are_paths(tmp_path, monkeypatch):
    """Path arguments take str, bytes or os.PathLike; an int or None is a TypeError, not a
    directory named "5" or "None"."""
    monkeypatch.chdir(tmp_path)
    for bad in (5, None, 1.5):
        with pytest.raises(TypeError, match="path"):
            taisim.load_decisions(bad)
        with pytest.raises(TypeError, match="path"):
            taisim.replay(bad, 0)
        if bad is not None:  # out=None is the default directory
            with pytest.raises(TypeError, match="path"):
                taisim.simulate(bad, deals=5)
    assert list(tmp_path.iterdir()) == []
    run = taisim.simulate(b"as-bytes", deals=3, threads=1, decisions="E")
    assert pathlib.Path(run).resolve() == (tmp_path / "as-bytes").resolve()
    assert len(taisim.load_decisions(b"as-bytes")["action"]) > 0


def test_nothing_is_shown_before_the_first_deal():
    """Before ``reset()`` every call that reads the deal raises ``UsageError`` ("call
    reset"), never an answer about a placeholder deal that was never dealt."""
    aec = taisim.aec_env(render_mode="ansi")
    for call in (lambda: aec.review(search="search:2"), lambda: aec.observe("E"), aec.render):
        with pytest.raises(taisim.UsageError, match=r"call reset\(\)"):
            call()
    with pytest.raises(taisim.UsageError, match=r"call reset\(\)"):
        taisim.Env(opponents="random", render_mode="ansi").render()
    vec = taisim.VecEnv(2)
    with pytest.raises(taisim.UsageError, match=r"call reset\(\)"):
        vec.info(0)
    with pytest.raises(RuntimeError, match=r"call reset\(\)"):
        taisim.VecEnv(2, illegal="legalize").step(np.array([-5, 0]))
    aec.reset(seed=1)
    assert aec.observe("E")["observation"].shape == taisim.OBS_SHAPE
    assert aec.render().startswith("seed 1 ")
    vec.reset(seed=1)
    assert vec.info(0)["deal_seed"] > 0


TRAINED = pathlib.Path(__file__).resolve().parents[3] / "agents" / "policies" / "trained.safetensors"


def test_malformed_policy_files_are_policy_errors_naming_the_file(tmp_path):
    import json
    import struct

    good = {"inputs": 2, "outputs": 1, "weights": [0.5, 0.5], "bias": [0.0]}
    docs = {
        "array.json": [1],
        "no_weights.json": {"layers": [{"inputs": 1, "outputs": 1, "bias": [0]}]},
        "text_bias.json": {"layers": [dict(good, bias="ab")]},
        "layer_list.json": {"layers": [[1, 2]]},
        "count.json": {"layers": [dict(good, inputs="2")]},
        "layers.json": {"layers": 3},
        "chain.json": {"layers": [good]},
    }
    for name, doc in docs.items():
        if isinstance(doc, dict):
            doc = dict(doc, format="taisim-policy", obs_version=taisim.OBS_VERSION)
        (tmp_path / name).write_text(json.dumps(doc))
    (tmp_path / "not.json").write_text("{not json")
    (tmp_path / "latin1.json").write_bytes(b'{"\xff": 1}')
    for name in [*docs, "not.json", "latin1.json"]:
        with pytest.raises(taisim.PolicyError, match=re.escape(name)):
            taisim.convert_json_policy(tmp_path / name, tmp_path / "out.safetensors")
    assert not (tmp_path / "out.safetensors").exists()
    for meta in ([1], {"format": 1}, "x"):
        header = json.dumps({"__metadata__": meta}).encode()
        path = tmp_path / "meta.safetensors"
        path.write_bytes(struct.pack("<Q", len(header)) + header)
        with pytest.raises(taisim.PolicyError, match="meta.safetensors.*__metadata__"):
            taisim.policy_metadata(path)
    assert taisim.policy_metadata(TRAINED)["format"] == "taisim-policy"


def test_policy_logits_refuses_observations_that_are_not_numbers():
    obs = np.zeros((3, *taisim.OBS_SHAPE), dtype=np.float32)
    assert np.isfinite(taisim.policy_logits(TRAINED, obs)).all()
    for value in (np.nan, np.inf, -np.inf):
        bad = obs.copy()
        bad[2, 5, 7] = value
        with pytest.raises(taisim.UsageError, match=f"(?i)observation 2 holds {value}"):
            taisim.policy_logits(TRAINED, bad)
    with pytest.raises(taisim.UsageError, match="finite"):
        taisim.policy_logits(TRAINED, np.full((1, 2210), np.nan))


def test_float32_rewards_are_documented_with_their_bound():
    """Rewards are float32: the Env's docstring says up to where a settlement stays exact and
    zero-sum (2**24 points), and past it, as with stakes of a billion, they are rounded."""
    assert "2**24" in taisim.Env.__doc__ and "float32" in taisim.Env.__doc__
    env = taisim.Env(opponents="random", base=999_999_999, per_tai=999_999_999)
    for seed in range(100):
        _, info = env.reset(seed=seed)
        terminated = False
        while not terminated:
            win = [i for i in np.flatnonzero(info["action_mask"])
                   if taisim.action_name(i) == "win"]
            _, _, terminated, _, info = env.step(win[0] if win else first_legal(info["action_mask"]))
        if info["winners"]:
            break
    rewards = info["rewards"]
    assert max(abs(r) for r in rewards) > 2**24
    assert all(r == np.float32(r) for r in rewards)


def test_a_step_before_reset_is_a_usage_error_and_a_runtime_error():
    """A step or ``action_masks()`` before ``reset()`` raises ``taisim.ResetNeeded``: caught
    as the README says (``UsageError``, as every call that needs a deal) and as it was first
    raised (``RuntimeError``), in the three environments."""
    calls = [
        lambda: taisim.Env(opponents="random").step(0),
        lambda: taisim.Env(opponents="random").action_masks(),
        lambda: taisim.VecEnv(2).step(np.array([0, 0])),
        lambda: taisim.VecEnv(2).action_masks(),
        lambda: taisim.aec_env().step(0),
    ]
    # The extension raises the class itself, so no wrapper has to recognise its message.
    calls += [
        lambda: taisim.Env(opponents="random")._native.step(0),
        lambda: taisim.aec_env()._native.step(0),
    ]
    for call in calls:
        with pytest.raises(taisim.ResetNeeded) as err:
            call()
        assert isinstance(err.value, taisim.UsageError) and isinstance(err.value, RuntimeError)


def test_bot_timeout_is_a_number_taken_by_every_environment(tmp_path):
    """``bot_timeout`` reaches the batch as it reaches ``Env`` (``gymnasium.make_vec`` passes
    ``gymnasium.make``'s arguments on), and what is no number is a ``TypeError`` naming it,
    not ``float()``'s message."""
    taisim.VecEnv(2, bot_timeout=5).reset(seed=1)
    gym.make_vec("taisim/Taiwan16-v0", num_envs=2, bot_timeout=5).reset(seed=1)
    calls = [
        lambda: taisim.Env(bot_timeout="x"),
        lambda: taisim.VecEnv(2, bot_timeout="x"),
        lambda: taisim.VecEnv(2, bot_timeout=True),
        lambda: taisim.simulate(tmp_path / "never", deals=2, bot_timeout="x"),
        lambda: taisim.arena("greedy", "random", deals=2, bot_timeout=[5]),
    ]
    for call in calls:
        with pytest.raises(TypeError, match="bot_timeout must be a number of seconds"):
            call()
    assert not (tmp_path / "never").exists()


def test_policy_metadata_takes_a_path_never_a_file_descriptor():
    """An int is no path: ``TypeError``, and the caller's file is neither read nor closed."""
    with open(TRAINED, "rb") as f:
        with pytest.raises(TypeError, match="path"):
            taisim.policy_metadata(f.fileno())
        assert f.read(8) == TRAINED.read_bytes()[:8]
    assert taisim.policy_metadata(TRAINED) == taisim.policy_metadata(str(TRAINED).encode())


def test_the_aec_env_names_the_wild_in_every_info():
    """Every agent's info names the deal's wild (taizhou's 得牌), as ``Env``'s does; None
    in a variant without one."""
    aec = taisim.aec_env(variant="taizhou", render_mode="ansi")
    aec.reset(seed=4)
    wild = aec.infos["E"]["wild"]
    assert wild is not None and all(info["wild"] == wild for info in aec.infos.values())
    assert f"wild {wild}" in aec.render()
    plain = taisim.aec_env()
    plain.reset(seed=4)
    assert all(info["wild"] is None for info in plain.infos.values())


def test_an_unset_base_follows_per_tai_and_per_tai_is_named_when_out_of_bounds():
    """With ``base`` unset the base follows ``per_tai``; a ``per_tai`` past the settlement's
    bounds is refused naming ``per_tai``, not the base the user never gave."""
    for make in (lambda: taisim.Env(opponents="random", per_tai=10**9 + 1),
                 lambda: taisim.VecEnv(2, per_tai=10**9 + 1),
                 lambda: taisim.aec_env(per_tai=10**9 + 1)):
        with pytest.raises(taisim.StakesError, match="per_tai = 1000000001") as err:
            make()
        assert "base" not in str(err.value), err.value


def test_counts_and_seats_arguments_say_what_they_take(tmp_path):
    """A run plays at least one deal (``deals=0`` and ``-1`` say "1 to"), ``seats`` that is
    neither a str nor a list of seats is named, and a variant path may be bytes."""
    for call in (lambda: taisim.simulate(tmp_path / "never", deals=0),
                 lambda: taisim.simulate(tmp_path / "never", deals=-1),
                 lambda: taisim.simulate(tmp_path / "never", games=0),
                 lambda: taisim.arena("greedy", "random", deals=-1)):
        with pytest.raises(taisim.UsageError, match=r"must be 1 to 2\*\*64 - 1"):
            call()
    assert not (tmp_path / "never").exists()
    run = taisim.simulate(tmp_path / "run", deals=3, threads=1, decisions="E")
    with pytest.raises(TypeError, match="seats must be a str"):
        taisim.load_decisions(run, seats=0)
    a, _ = taisim.Env(opponents="random", variant=b"taiwan16").reset(seed=3)
    b, _ = taisim.Env(opponents="random").reset(seed=3)
    assert np.array_equal(a, b)


def test_an_aec_reset_during_another_thread_s_call_says_so():
    """A reset while another thread's review holds the AEC env (the review releases the GIL)
    raises ``UsageError`` saying it is in use, as a step does, not pyo3's "Already
    borrowed"."""
    import threading

    aec = taisim.aec_env()
    aec.reset(seed=2)
    errors = []

    def review():
        for _ in range(6):
            try:
                aec.review(search="search:256")
            except Exception as e:  # noqa: BLE001 - every kind is recorded
                errors.append(e)

    thread = threading.Thread(target=review)
    thread.start()
    while thread.is_alive():
        try:
            aec.reset(seed=2)
        except Exception as e:  # noqa: BLE001
            errors.append(e)
    thread.join()
    for e in errors:
        assert isinstance(e, taisim.UsageError) and "in use by another thread" in str(e), repr(e)


def test_arguments_of_a_wrong_type_are_named_with_what_they_take(tmp_path):
    """Each argument of a wrong type raises ``TypeError`` naming it and what it takes, as
    ``Env``'s do, never pyo3's "'int' object cannot be converted to 'PyString'"; and before
    anything is written."""
    run = taisim.simulate(tmp_path / "run", deals=3, threads=1, decisions="E")
    aec = taisim.aec_env()
    aec.reset(seed=1)
    never = tmp_path / "never"
    calls = [
        (lambda: taisim.VecEnv(2, seat=1), "seat must be a str, not int"),
        (lambda: taisim.VecEnv(2, opponents=1), "opponents must be a str, not int"),
        (lambda: taisim.VecEnv(2, reward=1), "reward must be a str, not int"),
        (lambda: taisim.review(run, 0, 0), r"review\(\): seat must be a str \(E, S, W or N\), "
                                           r"not int"),
        (lambda: aec.observe(0), r"observe\(\): agent must be a seat \(E, S, W or N\), not int"),
        (lambda: taisim.simulate(never, deals=2, agents=5), "simulate\\(\\): agents must be "
                                                            "an agent's name"),
        (lambda: taisim.simulate(never, deals=2, agents=["greedy", 1, "greedy", "greedy"]),
         r"agents\[1\] must be a str, not int"),
        (lambda: taisim.simulate(never, deals=2, shard=1), 'shard must be a str "K/N"'),
        (lambda: taisim.simulate(never, deals=2, decisions=True),
         'decisions must be "all", seats as "E,S" or a list of seats, not bool'),
        (lambda: taisim.simulate(never, deals=2, log_actions="no"),
         "log_actions must be True or False, not str"),
        (lambda: taisim.simulate(never, deals=2, resume=1), "resume must be True or False"),
        (lambda: taisim.simulate(never, deals=2, progress="yes"), "progress must be True or"),
        (lambda: taisim.simulate(never, deals=2, label_with=8), "label_with must be a search "
                                                                "agent's name or None"),
        (lambda: taisim.load_decisions(run, out=[np.zeros(3)]),
         r"load_decisions\(\): out must be a dict of arrays \(obs, mask, action, reward, seat, "
         r"deal, step\) or None, not list"),
    ]
    for call, message in calls:
        with pytest.raises(TypeError, match=message) as err:
            call()
        assert "cannot be converted" not in str(err.value), err.value
    with pytest.raises(taisim.UsageError, match=r"agents\[0\] 'exec:a,b' holds a comma"):
        taisim.simulate(never, deals=2, agents=["exec:a,b", "greedy", "greedy", "greedy"])
    assert not never.exists()


def test_simulate_takes_agents_and_decisions_as_lists(tmp_path):
    """A list of four agents (and of seats to record) is the comma-separated text it
    spells, as ``load_decisions`` takes a list of seats: the same files."""
    import json

    def parts(run):
        manifest = json.loads((pathlib.Path(run) / "manifest.json").read_text())
        return [{t: p[t]["sha256"] for t in p if isinstance(p[t], dict)} for p in manifest["parts"]]

    a = taisim.simulate(tmp_path / "a", deals=20, seed=4, threads=1,
                        agents="greedy,random,defensive,random", decisions="E,W")
    b = taisim.simulate(tmp_path / "b", deals=20, seed=4, threads=1,
                        agents=["greedy", "random", "defensive", "random"], decisions=("E", "W"))
    assert parts(a) == parts(b) and parts(a)
    assert np.array_equal(taisim.load_decisions(a)["action"], taisim.load_decisions(b)["action"])
