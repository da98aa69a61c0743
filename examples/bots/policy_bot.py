#!/usr/bin/env python3
"""A bot built on the taisim Python package: it rebuilds its seat's deal from the table's
messages (taisim.bot) and decides on the same observation and action mask taisim.Env gives
a learner, so a policy trained there plays at any table that speaks docs/protocol.md.

    # the shipped policy, played from Python on the Env's observation
    taisim simulate --agents 'exec:python3 examples/bots/policy_bot.py --policy agents/policies/trained.safetensors' --deals 100
    # a built-in agent deciding on the rebuilt deal (identical to seating it directly)
    taisim arena --candidate 'exec:python3 examples/bots/policy_bot.py --agent greedy' --baseline greedy --deals 100

Needs the taisim package (``maturin develop -m env/Cargo.toml`` or ``pip install ./env``).
"""

import argparse

import numpy as np

import taisim
from taisim.bot import serve

PASS = next(i for i in range(taisim.ACTION_SPACE_SIZE) if taisim.action_name(i) == "pass")
WINS = {i for i in range(taisim.ACTION_SPACE_SIZE) if taisim.action_name(i) in ("win", "flower_win")}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--policy", help="a policy file (safetensors) played as the Rust agent plays it: the "
                   "masked argmax of its scores, greedy's choice where the file says so")
    p.add_argument("--agent", help="let a built-in agent decide instead: greedy, trained, search:64, ...")
    p.add_argument("--variant", help="the variant file, for a variant that is not shipped")
    args = p.parse_args()
    if args.policy:
        meta = taisim.policy_metadata(args.policy)
        decides = meta.get("decides", "all")
        margin = float(meta["greedy_margin"]) if "greedy_margin" in meta else None

        def choose(decision):
            mask = decision.action_mask
            # An offer (a discard, kong or flower to answer) is a decision where passing is
            # legal; a policy that decides only turns (or only offers) leaves greedy the rest.
            offer = bool(mask[PASS])
            if decides != "all" and offer != (decides == "offers"):
                return decision.builtin("greedy")
            scores = taisim.policy_logits(args.policy, decision.observation[None])[0]
            best = int(np.argmax(np.where(mask == 1, scores, -np.inf)))
            if margin is None:
                return best
            # A residual policy: greedy's choice (always a win it takes) unless the best
            # scores more than the margin above it.
            greedy = decision.builtin("greedy")
            if greedy in WINS or scores[best] - scores[greedy] <= margin:
                return greedy
            return best

        serve(choose, name=f"policy_bot {args.policy}", variant=args.variant)
    else:
        serve(agent=args.agent or "trained", name=f"policy_bot {args.agent or 'trained'}", variant=args.variant)


if __name__ == "__main__":
    main()
