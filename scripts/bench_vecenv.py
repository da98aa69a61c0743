"""Python VecEnv throughput: agent steps per second with random masked actions.

Usage: .venv/bin/python scripts/bench_vecenv.py [--num-envs 256] [--steps 2000] [--threads N]
"""

import argparse
import time

import numpy as np

import taisim


def masked_uniform(rng, mask):
    """One uniformly random legal index per row: the argmax of uniform noise on the legal
    entries (float32 noise: ties have probability ~0 and it halves numpy's work)."""
    return (rng.random(mask.shape, dtype=np.float32) * mask).argmax(axis=1)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--num-envs", type=int, default=256)
    parser.add_argument("--steps", type=int, default=2000, help="batched steps to time")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--opponents", default="random")
    args = parser.parse_args()

    envs = taisim.VecEnv(num_envs=args.num_envs, opponents=args.opponents, threads=args.threads)
    rng = np.random.default_rng(0)
    _, mask = envs.reset(seed=0)
    for _ in range(50):  # warm-up
        _, _, _, _, mask = envs.step(masked_uniform(rng, mask))
    start = time.perf_counter()
    for _ in range(args.steps):
        _, _, _, _, mask = envs.step(masked_uniform(rng, mask))
    elapsed = time.perf_counter() - start
    steps = args.steps * args.num_envs
    print(
        f"{steps} agent steps in {elapsed:.2f} s: {steps / elapsed:,.0f} steps/s "
        f"({args.num_envs} envs, threads={args.threads or 'all'}, opponents={args.opponents})"
    )


if __name__ == "__main__":
    main()
