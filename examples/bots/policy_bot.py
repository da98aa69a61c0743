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


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--policy", help="a policy file (safetensors) played by the masked argmax of its scores")
    p.add_argument("--agent", help="let a built-in agent decide instead: greedy, trained, search:64, ...")
    p.add_argument("--variant", help="the variant file, for a variant that is not shipped")
    args = p.parse_args()
    if args.policy:
        def choose(decision):
            scores = taisim.policy_logits(args.policy, decision.observation[None])[0]
            return int(np.argmax(np.where(decision.action_mask == 1, scores, -np.inf)))

        serve(choose, name=f"policy_bot {args.policy}", variant=args.variant)
    else:
        serve(agent=args.agent or "trained", name=f"policy_bot {args.agent or 'trained'}", variant=args.variant)


if __name__ == "__main__":
    main()
