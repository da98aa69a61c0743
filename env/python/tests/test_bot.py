"""Bots at taisim's table from Python: ``exec:`` opponents in the environments, the example
bots, and ``taisim.bot``: a built-in agent or a policy deciding on the rebuilt deal plays as
the same agent seated directly, byte for byte."""

import pathlib
import sys

import numpy as np
import pytest

import taisim

ROOT = pathlib.Path(__file__).resolve().parents[3]
BOTS = ROOT / "examples" / "bots"
TRAINED = ROOT / "agents" / "policies" / "trained.safetensors"


def exec_agent(script, *args):
    return "exec:" + " ".join([sys.executable, str(BOTS / script), *args])


def data_pages(path):
    """A Parquet file's bytes before its footer (which records the run's agents)."""
    b = path.read_bytes()
    assert b[-4:] == b"PAR1"
    footer = int.from_bytes(b[-8:-4], "little")
    return b[: len(b) - 8 - footer]


def same_rows(a, b):
    for table in ("deals", "wins", "tai"):
        files = sorted((a / table).glob("*.parquet"))
        assert files
        for f in files:
            assert data_pages(f) == data_pages(b / table / f.name), f"{table}/{f.name}"


def test_env_plays_against_the_stdlib_random_bot():
    env = taisim.Env(opponents=exec_agent("random_bot.py"), bot_timeout=5)
    total = 0.0
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        terminated = False
        while not terminated:
            action = int(np.flatnonzero(info["action_mask"])[0])
            obs, reward, terminated, truncated, info = env.step(action)
        total += reward
    assert np.isfinite(total)


def test_vec_env_shares_one_bot():
    envs = taisim.VecEnv(num_envs=4, opponents=exec_agent("random_bot.py"), threads=2)
    obs, infos = envs.reset(seed=1)
    for _ in range(50):
        actions = np.array([int(np.flatnonzero(m)[0]) for m in infos["action_mask"]])
        obs, rewards, terminations, truncations, infos = envs.step(actions)


def test_a_failing_bot_raises_runtime_error_naming_it():
    env = taisim.Env(opponents="exec:" + sys.executable + " -c 'print(1)'", bot_timeout=2)
    with pytest.raises(taisim.BotError, match="exec:.*hello"):
        env.reset(seed=0)
    # The review of a deal stopped by the bot is that fault, not a review of another turn.
    with pytest.raises(taisim.BotError, match="exec:.*hello"):
        env.review(search="search:4")
    assert issubclass(taisim.BotError, RuntimeError)
    envs = taisim.VecEnv(num_envs=2, opponents="exec:" + sys.executable + " -c 'print(1)'", threads=1)
    with pytest.raises(taisim.BotError, match="environment 0: bot exec:"):
        envs.reset(seed=0)
    with pytest.raises(taisim.BotError, match="environment 0: bot exec:"):
        envs.review(search="search:4")
    with pytest.raises(taisim.UsageError, match="bot_timeout"):
        taisim.Env(opponents="greedy", bot_timeout=0)
    with pytest.raises(taisim.UsageError, match="0.001 to 86400 seconds"):
        taisim.Env(opponents="greedy", bot_timeout=1e-12)


HANGING_BOT = """
import json, sys, time
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": 1, "name": "sleepy"}), flush=True)
    elif msg["type"] == "act":
        time.sleep(30)
"""


def test_simulate_takes_a_bot_timeout(tmp_path):
    """``taisim.simulate(bot_timeout=)`` is ``simulate --bot-timeout``: a bot that takes
    longer over a decision is a RuntimeError naming it and the seconds, and no part is
    written; a timeout out of range is a ValueError."""
    script = tmp_path / "sleepy.py"
    script.write_text(HANGING_BOT)
    run = tmp_path / "run"
    with pytest.raises(taisim.BotError, match=r"bot exec:.*sleepy.*within 1 s"):
        taisim.simulate(str(run), deals=4, seed=1, threads=1, bot_timeout=1,
                        agents="exec:" + sys.executable + " " + str(script))
    assert not list((run / "deals").glob("*.parquet"))
    for bad in (0, -1, 1e9):
        with pytest.raises(taisim.UsageError, match="bot_timeout"):
            taisim.simulate(str(tmp_path / "bad"), deals=1, bot_timeout=bad)


def test_greedy_through_taisim_bot_is_greedy(tmp_path):
    a = taisim.simulate(str(tmp_path / "a"), deals=60, seed=3, agents="greedy", threads=1)
    b = taisim.simulate(str(tmp_path / "b"), deals=60, seed=3,
                        agents=exec_agent("policy_bot.py", "--agent", "greedy"), threads=1)
    same_rows(pathlib.Path(a), pathlib.Path(b))


def test_the_trained_policy_from_python_is_the_trained_agent(tmp_path):
    """The example bot scores the Env's observation with the policy file from Python and plays
    the masked argmax: the built-in ``trained`` agent's choice, at every decision."""
    a = taisim.simulate(str(tmp_path / "a"), deals=40, seed=5, agents="trained", threads=1)
    b = taisim.simulate(str(tmp_path / "b"), deals=40, seed=5,
                        agents=exec_agent("policy_bot.py", "--policy", str(TRAINED)), threads=1)
    same_rows(pathlib.Path(a), pathlib.Path(b))


def test_a_policy_of_one_kind_of_decision_or_residual_plays_from_python_as_in_rust(tmp_path):
    """The example bot reads the file's ``decides`` and ``greedy_margin`` (taisim.policy_metadata)
    and plays greedy where the Rust agent does: the same deals, decision for decision."""
    from rl_extras import rl_import

    rl_import("torch")
    module = taisim.torch_policy.load_policy("trained")
    for name, kwargs in [("turns", dict(decides="turns", greedy_margin=0.5)),
                         ("offers", dict(decides="offers"))]:
        path = taisim.export_policy(module, tmp_path / f"{name}.safetensors", **kwargs)
        meta = taisim.policy_metadata(path)
        assert meta["decides"] == name and meta["format"] == "taisim-policy"
        a = taisim.simulate(str(tmp_path / f"{name}-a"), deals=20, seed=6, agents=f"policy:{path}",
                            threads=1)
        b = taisim.simulate(str(tmp_path / f"{name}-b"), deals=20, seed=6,
                            agents=exec_agent("policy_bot.py", "--policy", str(path)), threads=1)
        same_rows(pathlib.Path(a), pathlib.Path(b))
    (tmp_path / "junk.safetensors").write_bytes(b"\xff" * 32)
    with pytest.raises(taisim.PolicyError, match="not a safetensors"):
        taisim.policy_metadata(tmp_path / "junk.safetensors")


def test_bot_helper_answers_the_hello_and_refuses_bad_use():
    """taisim.bot.serve answers the table's hello with its name and version (the simulate
    tests above play whole runs through it), and needs exactly one of choose and agent."""
    import io
    import json

    hello = {"type": "hello", "protocol": 1, "table": "taisim", "version": "0", "variant": "taiwan16"}
    out = io.StringIO()
    taisim.bot.serve(agent="greedy", name="t", stdin=io.StringIO(json.dumps(hello) + "\n"), stdout=out)
    assert json.loads(out.getvalue()) == {"type": "hello", "protocol": 1, "name": "t"}
    hello["protocol"] = 2
    with pytest.raises(taisim.ProtocolError, match="protocol"):
        taisim.bot.serve(agent="greedy", stdin=io.StringIO(json.dumps(hello) + "\n"), stdout=io.StringIO())
    with pytest.raises(taisim.UsageError):
        taisim.bot.serve(lambda d: 0, agent="greedy")
    with pytest.raises(taisim.UsageError):
        taisim.bot.serve()


RECORDER = """
import sys
from taisim.bot import serve
log = open(sys.argv[1], "a")
def lines():
    for line in sys.stdin:
        log.write(line)
        log.flush()
        yield line
serve(agent="greedy", stdin=lines())
"""


@pytest.fixture(scope="module")
def lines(tmp_path_factory):
    """The protocol lines a bot at seat E reads in a real run, up to its first request: the
    hello, the deal's start and events, then the ``act`` line."""
    import json

    d = tmp_path_factory.mktemp("lines")
    (d / "recorder.py").write_text(RECORDER)
    log = d / "lines.jsonl"
    taisim.simulate(d / "run", deals=1, seed=2, threads=1,
                    agents=f"exec:{sys.executable} {d / 'recorder.py'} {log},greedy,greedy,greedy")
    out = []
    for line in log.read_text().splitlines(keepends=True):
        out.append(line)
        if json.loads(line)["type"] == "act":
            return out
    raise AssertionError("the bot was never asked to act")


def served(lines, **kwargs):
    """What ``taisim.bot.serve`` writes after reading ``lines``."""
    import io

    out = io.StringIO()
    taisim.bot.serve(stdin=io.StringIO("".join(lines)), stdout=out, **kwargs)
    return out.getvalue()


def with_act(lines, **change):
    """``lines`` with fields of its last line, the request, changed."""
    import json

    act = dict(json.loads(lines[-1]), **change)
    return lines[:-1] + [json.dumps(act) + "\n"]


def test_the_recorded_lines_are_served(lines):
    import json

    assert json.loads(served(lines, agent="greedy").splitlines()[-1])["id"] >= 0


def test_a_request_of_another_number_of_actions_is_a_protocol_error(lines):
    """An ``act`` whose ``legal`` list is empty (or shorter than the rebuilt deal's) is refused
    at that line, whoever decides: never a Rust panic, never a decision with nothing legal."""
    import json

    asked = json.loads(lines[-1])["legal"]
    for legal in ([], asked[:-1]):
        for decide in (dict(agent="greedy"), dict(choose=lambda d: d.builtin("greedy")),
                       dict(choose=lambda d: int(np.flatnonzero(d.action_mask)[0]))):
            with pytest.raises(taisim.ProtocolError,
                               match=f"the table offers {len(legal)} actions; the rebuilt deal "
                                     f"offers {len(asked)}"):
                served(with_act(lines, legal=legal), **decide)


def test_a_request_names_its_deal_as_a_number(lines):
    for deal in ("1", -1, None, 1.5):
        with pytest.raises(taisim.ProtocolError, match='"deal"'):
            served(with_act(lines, deal=deal), agent="greedy")
    import json

    act = json.loads(lines[-1])
    del act["deal"]
    with pytest.raises(taisim.ProtocolError, match='no "deal"'):
        served(lines[:-1] + [json.dumps(act) + "\n"], agent="greedy")


def test_a_hello_that_is_not_a_message_is_a_protocol_error():
    for line in ('["hello"]', '{"type":"hello", bad}', '"hello"'):
        with pytest.raises(taisim.ProtocolError):
            served([line + "\n"], agent="greedy")


def test_an_answer_outside_the_action_space_is_an_illegal_action(lines):
    import json

    table = taisim.bot.NativeBotTable()
    for line in lines:
        asked = table.tell(line)
    act = json.loads(lines[-1])
    assert asked == (act["deal"], act["seat"])
    for bad in (-1, taisim.ACTION_SPACE_SIZE, 2**64, -(2**70)):
        with pytest.raises(taisim.IllegalActionError, match=f"action {bad} is out of range"):
            table.answer_index(act["deal"], act["seat"], bad)
        with pytest.raises(taisim.IllegalActionError, match=f"action {bad} is out of range"):
            served(lines, choose=lambda d: bad)
    with pytest.raises(TypeError):
        table.answer_index(act["deal"], act["seat"], "3")
    # The request is still open: a legal answer is taken.
    legal = int(np.flatnonzero(table.observe(act["deal"], act["seat"])[1])[0])
    assert table.answer_index(act["deal"], act["seat"], legal) >= 0


def test_a_shipped_variant_is_named_as_everywhere_else(lines):
    """``serve(variant=...)`` takes a shipped name or a file's path, as the environments
    take it; the deal's own variant is played either way."""
    answer = served(lines, agent="greedy")
    assert served(lines, agent="greedy", variant="taizhou") == answer
    shipped_file = ROOT / "score" / "variants" / "taiwan16.toml"
    assert served(lines, agent="greedy", variant=shipped_file) == answer
    with pytest.raises(taisim.VariantError, match="no such variant"):
        served(lines, agent="greedy", variant="taiwan17")


def test_an_agent_that_cannot_play_is_refused_before_any_line(tmp_path):
    """The table would see only a bot that failed at its first decision; the bot's author
    sees the name at once, with the agents a bot can play (not ``exec:COMMAND``)."""
    import io

    def untouched():
        # A stream that fails when read: the refusal comes before any line.
        class Unread(io.StringIO):
            def __iter__(self):
                raise AssertionError("a line was read")
        return Unread()

    with pytest.raises(taisim.AgentError, match='unknown agent "nope"') as err:
        taisim.bot.serve(agent="nope", stdin=untouched(), stdout=io.StringIO())
    for known in ("greedy", "trained", "search:N", "policy:PATH"):
        assert known in str(err.value), err.value
    assert "exec:COMMAND" not in str(err.value)
    with pytest.raises(taisim.UsageError, match="exec: agent"):
        taisim.bot.serve(agent="exec:true", stdin=untouched(), stdout=io.StringIO())
    with pytest.raises(FileNotFoundError, match="missing.safetensors"):
        taisim.bot.serve(agent=f"policy:{tmp_path / 'missing.safetensors'}", stdin=untouched(),
                         stdout=io.StringIO())
    with pytest.raises(TypeError, match="agent must be a str"):
        taisim.bot.serve(agent=1, stdin=untouched(), stdout=io.StringIO())


def test_a_message_of_an_unknown_type_is_named(lines):
    for before in ([], lines[:-1]):
        with pytest.raises(taisim.ProtocolError, match='unknown message type "bogus"'):
            served(before + ['{"type":"bogus"}\n'], agent="greedy")


def test_a_request_before_its_deal_s_start_is_a_protocol_error(lines):
    """The table's line out of order is a line the bot cannot follow (``ProtocolError``, as
    ``serve`` says), not a misuse of the bot's own calls (``UsageError``)."""
    hello, act = lines[0], lines[-1]
    with pytest.raises(taisim.ProtocolError, match="before the deal's start"):
        served([hello, act], agent="greedy")
    with pytest.raises(taisim.ProtocolError, match="before the deal's start"):
        served([hello, act], choose=lambda d: 0)
    # An event of a deal never started, and a start repeated, are refused, not dropped.
    import json

    start = next(line for line in lines if line.startswith('{"type":"start"'))
    fields = json.loads(start)
    event = json.dumps({"type": "draw", "deal": fields["deal"], "seat": fields["seat"],
                        "actor": "N", "left": 60}) + "\n"
    with pytest.raises(taisim.ProtocolError, match="a draw for deal .* which never started"):
        served([hello, event], agent="greedy")
    with pytest.raises(taisim.ProtocolError, match="starts again before it ended"):
        served([hello, start, start], agent="greedy")


def test_a_variant_file_that_keeps_a_shipped_name_is_refused(lines):
    """The table sends its variant file's SHA-256 with each deal's start; a bot that finds the
    rules by the variant's name refuses a file that keeps a shipped name but differs."""
    import hashlib
    import json

    start = next(i for i, line in enumerate(lines) if json.loads(line)["type"] == "start")
    shipped = (ROOT / "score" / "variants" / "taiwan16.toml").read_bytes()
    assert json.loads(lines[start])["variant_sha256"] == hashlib.sha256(shipped).hexdigest()
    edited = dict(json.loads(lines[start]), variant_sha256="0" * 64)
    changed = lines[:start] + [json.dumps(edited) + "\n"] + lines[start + 1:]
    with pytest.raises(taisim.ProtocolError, match="SHA-256 000000000000…"):
        served(changed, agent="greedy")


def test_an_environment_sends_its_variant_file_s_hash_to_its_bots(tmp_path):
    """An environment tells its ``exec:`` opponents which variant file it plays: a bot that
    found a shipped variant by the name an edited file keeps refuses to play it (the table
    then raises ``BotError``), and plays it once given the file."""
    shipped = (ROOT / "score" / "variants" / "taiwan16.toml").read_text()
    edited = shipped.replace("\ndragon_pung = 1 ", "\ndragon_pung = 16 ", 1)
    assert edited != shipped
    path = tmp_path / "same-name.toml"
    path.write_text(edited)
    by_name = taisim.Env(variant=path, opponents=exec_agent("policy_bot.py", "--agent", "greedy"))
    with pytest.raises(taisim.BotError):
        by_name.reset(seed=1)
    by_name.close()
    given = taisim.Env(variant=path, opponents=exec_agent("policy_bot.py", "--agent", "greedy",
                                                          "--variant", str(path)))
    _, info = given.reset(seed=1)
    assert info["action_mask"].any()
    given.close()
