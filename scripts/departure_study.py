#!/usr/bin/env python3
"""Can a student find where the search leaves greedy? A development study, not a test.

Two MLP students (two ReLU layers of 256, scores over the action space, the legal mask
applied) imitate the search's choice on a search-labelled run of greedy play
(``simulate --agents greedy --decisions all --label-with search``), one from the flattened
observation alone and one with a one-hot of greedy's choice (the recorded action: the seats
played greedy) appended to it. On held-out deals (the last of every 20), each student departs
from greedy where its best action's score exceeds greedy's by more than a margin (log-odds),
and the study prints how many departures it makes, at turns and at offers, and how many of
them are the departure the search made (precision), beside how often the search departs.

Usage:
    .venv/bin/python scripts/departure_study.py RUN [--epochs 4] [--seed 0] [--threads 1]
"""

import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

import taisim

PASS = taisim.ACTION_SPACE_SIZE - 1


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("run", help="a search-labelled run of greedy play")
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=1)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    d = taisim.load_decisions(args.run)
    if "search_action" not in d:
        raise SystemExit(f"departure_study: {args.run} has no search labels")
    keep = (d["search_action"] >= 0) & (d["search_rollouts"] > 0).any(1)
    n = int(keep.sum())
    obs = torch.from_numpy(d["obs"][keep].reshape(n, -1))
    scale = torch.from_numpy(np.asarray(d["obs_scale"], np.float32).reshape(-1))
    mask = torch.from_numpy(d["mask"][keep].astype(bool))
    target = torch.from_numpy(d["search_action"][keep].astype(np.int64))
    greedy = torch.from_numpy(d["action"][keep].astype(np.int64))
    held = torch.from_numpy(d["deal"][keep] % 20 == 19)
    offer = mask[:, PASS]
    actions = mask.shape[1]
    train, test = torch.nonzero(~held).squeeze(1), torch.nonzero(held).squeeze(1)
    print(f"{n} searched decisions, {len(test)} held out; the search departs from greedy in "
          f"{float((target != greedy).float().mean()):.4f} of them")

    for with_greedy in (False, True):
        width = obs.shape[1] + (actions if with_greedy else 0)
        net = nn.Sequential(nn.Linear(width, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(),
                            nn.Linear(256, actions))
        opt = torch.optim.Adam(net.parameters(), 3e-4)

        def inputs(idx):
            o = obs[idx].float() * scale
            return torch.cat([o, F.one_hot(greedy[idx], actions).float()], 1) if with_greedy else o

        for _ in range(args.epochs):
            perm = train[torch.randperm(len(train))]
            for i in range(0, len(perm), 512):
                idx = perm[i:i + 512]
                loss = F.cross_entropy(net(inputs(idx)).masked_fill(~mask[idx], -1e9), target[idx])
                opt.zero_grad()
                loss.backward()
                opt.step()
        with torch.no_grad():
            logits = torch.cat([net(inputs(test[i:i + 4096])).masked_fill(~mask[test[i:i + 4096]], -1e9)
                                for i in range(0, len(test), 4096)])
        g, t, off = greedy[test], target[test], offer[test]
        best = logits.argmax(1)
        margin_over = logits.max(1).values - logits.gather(1, g[:, None]).squeeze(1)
        print(f"\nstudent {'with' if with_greedy else 'without'} greedy's choice: held-out "
              f"agreement with the search {float((best == t).float().mean()):.4f} "
              f"(greedy's own {float((g == t).float().mean()):.4f})")
        for m in (0.0, 1.0, 2.0, 3.0):
            dep = (best != g) & (margin_over > m)
            for name, sel in (("turns", ~off), ("offers", off)):
                k, hit = int((dep & sel).sum()), int((dep & sel & (best == t)).sum())
                print(f"  margin {m:g}, {name:6s}: departs {k:5d}, the search's own departure "
                      f"{hit:4d} ({hit / max(k, 1):.2f}); the search departs "
                      f"{int(((t != g) & sel).sum())}")


if __name__ == "__main__":
    main()
