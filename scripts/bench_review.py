"""What the search's review of a learner's decision costs: ``Env.review`` at every decision of
a learner playing greedy's choice, and ``VecEnv.review`` of a batch.

Usage: .venv/bin/python scripts/bench_review.py [--search NAME] [--deals 4] [--num-envs 16]
       [--threads 2]

``Env.review`` runs on the calling thread, so its figures are the process's CPU time for each
call (steadier than the wall clock on a shared machine); ``VecEnv.review`` spreads the batch
over ``--threads`` threads, and its figure is wall-clock time with the CPU time beside it.
"""

import argparse
import statistics
import time

import taisim


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--search", default=None, help="the reviewing search (default: plain search)")
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--num-envs", type=int, default=16)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()

    env = taisim.Env(opponents="greedy")
    times = []
    for seed in range(args.deals):
        env.reset(seed=seed)
        done = False
        while not done:
            start = time.process_time()
            r = env.review(search=args.search)
            times.append(time.process_time() - start)
            _, _, done, _, _ = env.step(r["greedy"])
    times.sort()
    ms = [t * 1e3 for t in times]
    print(f"Env.review ({r['search']}), {len(ms)} decisions of {args.deals} deals: "
          f"mean {statistics.mean(ms):.0f} ms, median {statistics.median(ms):.0f} ms, "
          f"p90 {ms[int(0.9 * len(ms))]:.0f} ms, max {ms[-1]:.0f} ms (CPU time a call)")

    envs = taisim.VecEnv(num_envs=args.num_envs, opponents="greedy", threads=args.threads)
    envs.reset(seed=3)
    wall, cpu = time.perf_counter(), time.process_time()
    envs.review(search=args.search)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"VecEnv(num_envs={args.num_envs}, threads={args.threads}).review(): {wall:.2f} s wall, "
          f"{cpu:.2f} s CPU ({wall / args.num_envs * 1e3:.0f} ms wall an environment)")


if __name__ == "__main__":
    main()
