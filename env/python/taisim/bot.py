"""Bots for taisim's table in Python: a program that speaks the JSON-lines protocol
(``docs/protocol.md``) on its standard input and output, served by :func:`serve`.

The bot's seats and deals are each rebuilt from the table's messages, so at every decision
it has what :class:`taisim.Env` gives a learner: the observation and the legal-action mask
of the same layout. A policy trained in the environment plays at the table as it is::

    import numpy as np, taisim
    from taisim.bot import serve

    def choose(d):                       # d: a taisim.bot.Decision
        logits = taisim.policy_logits("policy.safetensors", d.observation[None])[0]
        return int(np.argmax(np.where(d.action_mask == 1, logits, -np.inf)))

    serve(choose, name="my policy")

and ``taisim simulate --agents 'exec:python3 my_bot.py'`` seats it. ``serve(agent="greedy")``
lets a built-in agent decide instead (``d.builtin("greedy")`` asks one from ``choose``).
"""

import json
import sys

from taisim._native import NativeBotTable, ProtocolError, UsageError
from taisim._seed import variant_arg

PROTOCOL = 1


class Decision:
    """One decision the table asks for: ``deal`` and ``seat`` (as the messages name them),
    ``step``, ``legal`` (the request's actions, each a dict with its ``id``), ``offer`` (the
    tile answered, if any), and, computed when first read, ``observation`` (float32,
    ``taisim.OBS_SHAPE``) and ``action_mask`` (int8, ``taisim.ACTION_SPACE_SIZE``)."""

    def __init__(self, table, request):
        self._table = table
        # The table's tell() checked deal, seat and legal; step is informative.
        self.deal = request["deal"]
        self.seat = request["seat"]
        self.step = request.get("step")
        self.legal = request["legal"]
        self.offer = request.get("offer")
        self._obs = None

    def _observe(self):
        if self._obs is None:
            self._obs = self._table.observe(self.deal, self.seat)
        return self._obs

    @property
    def observation(self):
        return self._observe()[0]

    @property
    def action_mask(self):
        return self._observe()[1]

    def builtin(self, agent):
        """The built-in ``agent``'s choice here (``greedy``, ``trained``, ``search:64``, ...),
        as an index of the action space."""
        return self._table.agent_choice(self.deal, self.seat, agent)


def serve(choose=None, *, agent=None, name="python bot", variant=None, stdin=None, stdout=None):
    """Plays at the table until it closes the bot's input. ``choose(decision)`` returns an
    index of the action space (a legal one: its mask entry is 1; ``decision.builtin(name)``
    gives a built-in agent's);
    without ``choose``, the built-in ``agent`` plays every decision. ``variant`` is a shipped
    variant's name or a variant file's path, as the environments take it: the file of a
    variant that is not shipped (each deal's start names its variant, and a shipped one is
    found by that name). An ``agent`` that names no built-in agent raises
    ``taisim.AgentError`` at once, before any line is read (an ``exec:`` agent
    ``taisim.UsageError``). A line the bot cannot follow (not JSON, a message of an unknown
    type, a request or an event for a deal before its start, a deal started twice, a start
    whose ``variant_sha256`` is not the hash of the variant file found by its name or given)
    raises ``taisim.ProtocolError`` (a ``ValueError``), and the table then reports the bot
    as failed."""
    if (choose is None) == (agent is None):
        raise UsageError("give either choose or agent")
    if agent is not None and not isinstance(agent, str):
        raise TypeError(f"serve(): agent must be a str, not {type(agent).__name__}")
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    table = NativeBotTable(variant=None if variant is None else variant_arg(variant))
    if agent is not None:
        # At once, not at the first decision, where the table would only see a failed bot.
        table.check_agent(agent)
    for line in stdin:
        if not line.strip():
            continue
        # The table writes "type" first: a hello is known without parsing every line.
        hello = _hello(line) if '"hello"' in line[:24] else None
        if hello is not None:
            if hello.get("protocol") != PROTOCOL:
                raise ProtocolError(f"the table speaks protocol {hello.get('protocol')}, this bot {PROTOCOL}")
            stdout.write(json.dumps({"type": "hello", "protocol": PROTOCOL, "name": name}) + "\n")
            stdout.flush()
            continue
        asked = table.tell(line)
        if asked is None:
            continue
        deal, seat = asked
        if choose is None:
            answer = table.answer_agent(deal, seat, agent)
        else:
            answer = table.answer_index(deal, seat, int(choose(Decision(table, json.loads(line)))))
        stdout.write('{"id":%d}\n' % answer)
        stdout.flush()


def _hello(line):
    """The table's hello on ``line``, or None when the line is another message (which
    ``NativeBotTable.tell`` reads); a line that is no JSON object raises ``ProtocolError``."""
    try:
        message = json.loads(line)
    except ValueError as e:
        raise ProtocolError(f"not JSON: {e}: {line.strip()[:80]}") from None
    if not isinstance(message, dict):
        raise ProtocolError(f"not a message (a JSON object): {line.strip()[:80]}")
    return message if message.get("type") == "hello" else None
