#!/usr/bin/env python3
"""Writes a reproducible stream of `taisim score --jsonl` requests, one JSON object a line.

The mix (by share of lines): taiwan16 wins of several shapes (chows, pungs, honours, flushes,
claimed melds, flowers, circumstances, stakes) about 72%; taiwan16-house 8%; mahjongtime 8%;
taizhou (wild, the other players, 全包 facts, stakes) 7%; bad lines 5% (bad JSON, an unknown
field, a hand that does not win, a bad seat, a bad circumstance, an empty line). Suits are
permuted and seats, dealer, round wind, win method and stakes drawn from a seeded generator,
so the same arguments always give the same bytes. Standard library only.

    python3 scripts/gen_score_requests.py --lines 300000 --seed 14 > /tmp/requests.jsonl
    taskset -c 0 target/release/taisim score --jsonl < /tmp/requests.jsonl > /dev/null
"""

import argparse
import json
import random
import sys

SEATS = "ESWN"

# Winning taiwan16 hands (17 tiles with the winning tile, less three per claimed meld), each
# with its winning tile and claimed melds. Suit letters are placeholders a, b, c, permuted
# per line over m, p, s.
SHAPES = [
    ("123a 456a 789a 234b 99c 345c", "9c", []),  # all chows
    ("111a 999b EEE CCC 55c 777c", "5c", []),  # pungs and honours
    ("123a 234a 345a 567a 789a 99a", "9a", []),  # full flush
    ("123a 456a 789a EE SSS WWW", "E", []),  # half flush, winds
    ("CCC FFF 123a 456b 789c 11c", "1c", []),  # two dragon pungs
    ("234a 567b 88c 456c", "4c", [("chow", "123a"), ("pung", "NNN")]),  # claimed melds
    ("22a 678b", "7b", [("pung", "555a"), ("kong", "PPPP"), ("chow", "345c"), ("pung", "999b")]),
    ("123a 456a 789a 123b 456b 77c", "7c", []),  # two suits
    ("345a 345b 345c 678a 678b 55c", "5c", []),  # all simples
    ("111a 123b 999c EEE 789a 11b", "1b", []),  # terminals
]

# Circumstances, each where it can apply: a kong replacement needs a claimed kong and a
# self-draw, a declared ready hand no claimed meld.
CONTEXTS = [[], [], [], ["last_tile"], ["declared_ready"], ["kong_replacement"]]

TAIZHOU = {
    "variant": "taizhou",
    "seat": "S",
    "dealer": "E",
    "hand": "234m 456p 77s 9s P 8s",
    "melds": [["pung", "CCC"]],
    "win_tile": "8s",
    "win": "discard",
    "discarder": "W",
    "wild": "9s",
    "others": {
        "E": {"hand": "147m 28p E N", "melds": [["kong", "5s5s5s5s"], ["pung", "3m3m3m"]]},
        "W": {"hand": "1m 19p EE SS W N FF 23s"},
        "N": {"hand": "666m 237p 146s S W N F"},
    },
}

BAD = [
    '{"hand": "123m 456m 789m 234p 99s 345s", "win_tile": "9s", "win": "self_draw"',
    '{"hand": "123m 456m 789m 234p 99s 345s", "win_tile": "9s", "win": "self_draw", '
    '"seat": "E", "colour": "red"}',
    '{"hand": "123m 456m 789m 234p 99s 346s", "win_tile": "9s", "win": "self_draw", "seat": "E"}',
    '{"hand": "123m 456m 789m 234p 99s 345s", "win_tile": "9s", "win": "self_draw", "seat": "X"}',
    '{"hand": "123m 456m 789m 234p 99s 345s", "win_tile": "9s", "win": "discard", "seat": "E", '
    '"discarder": "S", "context": ["moonlight"]}',
    "",
]


def suited(text, perm):
    return "".join(perm.get(ch, ch) for ch in text)


def winning_request(rng, variant):
    hand, win_tile, melds = rng.choice(SHAPES)
    perm = dict(zip("abc", rng.sample("mps", 3)))
    seat = rng.choice(SEATS)
    req = {}
    if variant != "taiwan16" or rng.random() < 0.3:
        req["variant"] = variant
    req["seat"] = seat
    if rng.random() < 0.5:
        req["dealer"] = rng.choice(SEATS)
    if rng.random() < 0.3:
        req["round_wind"] = rng.choice(SEATS)
    if rng.random() < 0.2:
        req["dealer_streak"] = rng.randrange(1, 4)
    req["hand"] = suited(hand, perm)
    if melds:
        req["melds"] = [[k, suited(t, perm)] for k, t in melds]
    if rng.random() < 0.3:
        req["flowers"] = sorted(rng.sample(["f%d" % i for i in range(1, 9)], rng.randrange(1, 4)))
    req["win_tile"] = suited(win_tile, perm)
    context = list(rng.choice(CONTEXTS))
    if "kong_replacement" in context and not any(k == "kong" for k, _ in melds):
        context = []
    if "declared_ready" in context and melds:
        context = []
    if rng.random() < 0.5:
        req["win"] = "self_draw"
    else:
        req["win"] = "discard"
        req["discarder"] = rng.choice([s for s in SEATS if s != seat])
        if "kong_replacement" in context:
            context.remove("kong_replacement")
    if context:
        req["context"] = context
    if rng.random() < 0.4:
        req["base"] = rng.choice([0, 10, 100])
        req["per_tai"] = rng.choice([5, 20, 50])
    return req


def taizhou_request(rng):
    req = json.loads(json.dumps(TAIZHOU))
    roll = rng.random()
    if roll < 0.3:
        req["base"] = 0
        req["per_tai"] = 50
    elif roll < 0.6:
        # 全包: West discards a fresh 中 (taizhou.md:467).
        req["hand"] = "234m 456p 789s CC"
        req["melds"] = [["chow", "678p"]]
        req["win_tile"] = "C"
        req["wild"] = "9m"
        req["liability"] = {"fresh": rng.random() < 0.5}
    return req


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lines", type=int, default=300_000)
    ap.add_argument("--seed", type=int, default=14)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    out = sys.stdout
    for _ in range(args.lines):
        roll = rng.random()
        if roll < 0.72:
            line = json.dumps(winning_request(rng, "taiwan16"), ensure_ascii=False)
        elif roll < 0.80:
            line = json.dumps(winning_request(rng, "taiwan16-house"), ensure_ascii=False)
        elif roll < 0.88:
            line = json.dumps(winning_request(rng, "mahjongtime"), ensure_ascii=False)
        elif roll < 0.95:
            line = json.dumps(taizhou_request(rng), ensure_ascii=False)
        else:
            line = rng.choice(BAD)
        out.write(line + "\n")


if __name__ == "__main__":
    main()
