"""Ctrl-C during an environment's reset or step while its opponents take long: a search
deciding, an ``exec:`` bot that does not answer. The call raises ``KeyboardInterrupt`` at
once instead of waiting for them; the deal under way is abandoned."""

import pytest

# A search that would take hours over one decision: only the signal ends it.
ENDLESS = "search:1048576:indifference=0"

# The signal is sent half a second after the environment is made (the fixture's own timer,
# which counts its making too, is called off), so that it lands in the reset or step.
ARM = ("    [t.cancel() for t in threading.enumerate() if isinstance(t, threading.Timer)]\n"
       "    threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()\n")

# After the interrupted call, in the same interpreter: what the environment then says.
AFTER = ("    finally:\n"
         "        try:\n"
         "            e.step(0 if getattr(e, 'num_envs', 1) == 1 else [0] * e.num_envs)\n"
         "        except taisim.ResetNeeded:\n"
         "            print('needs reset')\n")


@pytest.mark.parametrize("make", [
    f"taisim.Env(opponents={ENDLESS!r})",
    f"taisim.Env(opponents={ENDLESS!r}, variant='taizhou')",
    f"taisim.VecEnv(2, opponents={ENDLESS!r}, threads=2)",
])
def test_ctrl_c_stops_searching_opponents(interrupted, make):
    """The reset or the first step meets an opponent's endless search (the learner may
    decide first); before, the signal waited for it. The deal is then abandoned: a step
    raises ``ResetNeeded``."""
    call = (f"e = {make}\n" + ARM +
            "    try:\n"
            "        e.reset(seed=3)\n"
            "        m = e.action_masks()\n"
            "        e.step(int(m.argmax()) if m.ndim == 1 else m.argmax(axis=1))\n"
            + AFTER)
    assert interrupted(call, after=60).split() == ["needs", "reset", "interrupted"]


@pytest.mark.parametrize("make", [
    "taisim.Env(opponents='exec:sleep 600')",
    "taisim.VecEnv(2, opponents='exec:sleep 600', threads=1)",
])
def test_ctrl_c_ends_the_wait_for_a_bot_that_never_says_hello(interrupted, make):
    """A bot that never says hello held Ctrl-C for its whole start-up timeout (60 s, which
    would fail this test with ``BotError`` instead). Now the wait ends at once, and so does
    the bot, whose fault says why: the environment raises it from then on."""
    call = (f"e = {make}\n" + ARM +
            "    try:\n"
            "        e.reset(seed=3)\n"
            "        m = e.action_masks()\n"
            "        e.step(int(m.argmax()) if m.ndim == 1 else m.argmax(axis=1))\n"
            "    finally:\n"
            "        try:\n"
            "            e.reset(seed=4)\n"
            "        except taisim.BotError as err:\n"
            "            print('Ctrl-C' in str(err) and 'hello' in str(err))\n")
    assert interrupted(call, after=60).split() == ["True", "interrupted"]


def test_a_copy_of_an_environment_with_searching_opponents_plays_as_the_original():
    """The copy's steps, like the original's, run where Ctrl-C can stop them, on a flag of
    its own; it goes on exactly as the original does (and greedy opponents' steps, which
    need no flag, play as ever)."""
    import copy

    import taisim

    env = taisim.Env(opponents="greedy")
    _, info = env.reset(seed=1)
    env.step(int(info["action_mask"].argmax()))
    searching = taisim.Env(opponents="search:16")
    searching.reset(seed=1)
    twin = copy.deepcopy(searching)
    a = int(searching.action_masks().argmax())
    first = searching.step(a)
    second = twin.step(a)
    assert (first[0] == second[0]).all() and first[1:4] == second[1:4]
