#!/usr/bin/env python3
"""A random player for taisim's JSON-lines protocol (docs/protocol.md): the standard
library only, one process serving every seat and deal it is sent.

    taisim simulate --agents 'exec:python3 examples/bots/random_bot.py' --deals 1000

It answers each decision with a uniformly random legal action, drawn from a generator
seeded by the deal's start message (``seed``), so a run with it is the same on any number
of threads. Everything else the table sends (draws, discards, claims, the end) it reads
and ignores.
"""

import json
import random
import sys


def main():
    out = sys.stdout
    rngs = {}  # (deal, seat) -> random.Random
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "act":
            key = (msg["deal"], msg["seat"])
            legal = msg["legal"]
            choice = legal[rngs[key].randrange(len(legal))]
            out.write('{"id":%d}\n' % choice["id"])
            out.flush()  # the table waits for this line
        elif kind == "start":
            rngs[(msg["deal"], msg["seat"])] = random.Random(msg["seed"])
        elif kind in ("end", "abort"):
            rngs.pop((msg["deal"], msg["seat"]), None)
        elif kind == "hello":
            if msg["protocol"] != 1:
                sys.exit("random_bot speaks protocol 1, the table %r" % msg["protocol"])
            out.write(json.dumps({"type": "hello", "protocol": 1, "name": "random_bot"}) + "\n")
            out.flush()


if __name__ == "__main__":
    main()
