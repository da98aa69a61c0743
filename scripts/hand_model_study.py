#!/usr/bin/env python3
"""How much of the other seats' concealed tiles their public play reveals: a network trained
to predict them against the search's play-based belief (a development study, not a test).

Usage (the data from the `hand_data` example, development seeds):
    cargo run --release -p taisim-agents --example hand_data -- 5000 101 DIR/train
    cargo run --release -p taisim-agents --example hand_data -- 300 202 DIR/test taiwan16 64
    .venv/bin/python scripts/hand_model_study.py DIR [--epochs 4] [--seed 0]

For each turn of greedy self-play the example writes the observation of the seat to act and
how many of each kind each other seat holds; with SAMPLES it also writes the play belief's
share of fills holding each count. The network (the flattened observation, two ReLU
layers of 512 and 256, then 3 × 34 softmaxes over the counts 0..4, counts above the viewer's
unseen copies masked) is trained on `train` and, like the belief, scored on `test`:
- the cross-entropy of each (seat, kind) count,
- "holds the kind" log loss, against a constant rate,
- the squared error of the expected count.
"""

import argparse
import sys
import time

import numpy as np
import torch
import torch.nn as nn

import taisim

# The observation layout of the build that wrote the data (`hand_data` example).
(ROWS, KINDS), SEATS, COUNTS = taisim.OBS_SHAPE, 3, 5
VISIBLE_ROW = 7  # copies visible to the observer / 4 (agents/src/obs.rs)


def load(prefix):
    obs = np.fromfile(prefix + ".obs", dtype=np.float32).reshape(-1, ROWS * KINDS)
    hand = np.fromfile(prefix + ".hand", dtype=np.uint8).reshape(-1, SEATS, KINDS)
    return torch.from_numpy(obs), torch.from_numpy(hand.astype(np.int64))


def unseen(obs):
    """The viewer's unseen copies of each kind (0..4): no other seat holds more."""
    return torch.round(4 - 4 * obs.view(-1, ROWS, KINDS)[:, VISIBLE_ROW, :]).long()


def scores(probs, hand):
    """(cross-entropy, holds-the-kind log loss, expected-count squared error)."""
    probs = probs / probs.sum(-1, keepdim=True)
    ce = -probs.clamp_min(1e-9).log().gather(-1, hand[..., None]).mean().item()
    held = (hand > 0).float()
    p = (1 - probs[..., 0]).clamp(1e-6, 1 - 1e-6)
    hold = -(held * p.log() + (1 - held) * (1 - p).log()).mean().item()
    expected = (probs * torch.arange(COUNTS)).sum(-1)
    return ce, hold, ((expected - hand.float()) ** 2).mean().item()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("dir", help="folder of train.* and test.* from the hand_data example")
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--samples", type=int, default=64, help="SAMPLES of the test's belief file")
    args = p.parse_args()
    torch.manual_seed(args.seed)
    xtr, ytr = load(f"{args.dir}/train")
    xte, yte = load(f"{args.dir}/test")
    net = nn.Sequential(nn.Linear(ROWS * KINDS, 512), nn.ReLU(), nn.Linear(512, 256), nn.ReLU(),
                        nn.Linear(256, SEATS * KINDS * COUNTS))
    counts = torch.arange(COUNTS)

    def logits(x):
        z = net(x).view(-1, SEATS, KINDS, COUNTS)
        return z.masked_fill(counts > unseen(x)[:, None, :, None], -1e9)

    opt = torch.optim.Adam(net.parameters(), 1e-3)
    for epoch in range(args.epochs):
        start = time.time()
        for g in opt.param_groups:
            g["lr"] = 1e-3 * 0.5 ** epoch
        perm = torch.randperm(len(xtr))
        for i in range(0, len(xtr), 512):
            b = perm[i:i + 512]
            loss = -torch.log_softmax(logits(xtr[b]), -1).gather(-1, ytr[b][..., None]).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            model = torch.softmax(logits(xte), -1)
        print(f"epoch {epoch}: network  ce {{:.4f}}  holds log loss {{:.4f}}  count mse {{:.4f}}"
              .format(*scores(model, yte)), f"({time.time() - start:.0f} s)", flush=True)
    rate = (ytr > 0).float().mean()
    held = (yte > 0).float()
    constant = -(held * rate.log() + (1 - held) * (1 - rate).log()).mean().item()
    print(f"constant rate {rate:.4f}: holds log loss {constant:.4f}")
    try:
        belief = np.fromfile(f"{args.dir}/test.belief", dtype=np.float32)
    except FileNotFoundError:
        sys.exit(0)
    belief = torch.from_numpy(belief.reshape(-1, SEATS, KINDS, COUNTS))
    # The sampled shares, smoothed as a Dirichlet(0.1) posterior so that no count is certain.
    belief = (belief * args.samples + 0.1) / (args.samples + 0.5)
    print("play belief: ce {:.4f}  holds log loss {:.4f}  count mse {:.4f}".format(
        *scores(belief, yte)))
    for w in (0.5, 0.7):
        mix = model ** w * belief ** (1 - w)
        print(f"geometric mix, network weight {w}: " +
              "ce {:.4f}  holds log loss {:.4f}  count mse {:.4f}".format(*scores(mix, yte)))


if __name__ == "__main__":
    main()
