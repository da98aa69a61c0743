"""Python VecEnv throughput: agent steps per second with random masked actions.

Usage: .venv/bin/python scripts/bench_vecenv.py [--num-envs 256] [--steps 2000] [--threads N]
       [--opponents NAME] [--riichienv STEPS] [--single]

With ``--single``, one ``taisim.Env`` is stepped instead, one Python call a step (``--steps``
of them), for the cost of a step against slow opponents (``exec:`` bots, searches), whose
steps run where Ctrl-C can stop them.

With ``--riichienv STEPS`` (needs ``pip install riichienv``, not one of the project's
requirements), RiichiEnv's agent steps per second with uniformly random legal actions for
every seat are measured in the same run, and the ratio printed.

Besides wall-clock steps per second, each figure is also given per second of CPU time (the
process's, all threads): on a shared, loaded machine the wall clock measures the other
processes as much as this one, while CPU time stays close to what the code itself costs.
With ``--threads 1`` the CPU figures of taisim and RiichiEnv compare like with like.
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
    parser.add_argument("--riichienv", type=int, default=0, metavar="STEPS",
                        help="also time RiichiEnv for this many agent steps")
    parser.add_argument("--single", action="store_true", help="time one taisim.Env instead")
    args = parser.parse_args()
    if args.single:
        single_env(args.opponents, args.steps)
        return

    envs = taisim.VecEnv(num_envs=args.num_envs, opponents=args.opponents, threads=args.threads)
    rng = np.random.default_rng(0)
    _, infos = envs.reset(seed=0)
    for _ in range(50):  # warm-up
        _, _, _, _, infos = envs.step(masked_uniform(rng, infos["action_mask"]))
    start, cpu_start = time.perf_counter(), time.process_time()
    for _ in range(args.steps):
        _, _, _, _, infos = envs.step(masked_uniform(rng, infos["action_mask"]))
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    steps = args.steps * args.num_envs
    print(
        f"{steps} agent steps in {elapsed:.2f} s: {steps / elapsed:,.0f} steps/s, "
        f"{steps / cpu:,.0f} per CPU-second "
        f"({args.num_envs} envs, threads={args.threads or 'all'}, opponents={args.opponents})"
    )
    if args.riichienv:
        theirs, theirs_cpu = riichienv_steps_per_second(args.riichienv)
        print(
            f"RiichiEnv: {theirs:,.0f} agent steps/s, {theirs_cpu:,.0f} per CPU-second; "
            f"taisim.VecEnv is {steps / elapsed / theirs:,.1f}x (wall), "
            f"{steps / cpu / theirs_cpu:,.1f}x (CPU)"
        )


def single_env(opponents, steps):
    """One ``taisim.Env`` stepped ``steps`` times with uniformly random legal actions (a new
    deal, seeded in turn, after each end): microseconds a step of wall clock."""
    env = taisim.Env(opponents=opponents)
    rng = np.random.default_rng(0)
    seed = 0
    _, info = env.reset(seed=seed)
    start = time.perf_counter()
    for _ in range(steps):
        mask = info["action_mask"][None, :]
        _, _, terminated, _, info = env.step(int(masked_uniform(rng, mask)[0]))
        if terminated:
            seed += 1
            _, info = env.reset(seed=seed)
    elapsed = time.perf_counter() - start
    print(f"{steps} steps of one Env in {elapsed:.2f} s: {elapsed / steps * 1e6:,.1f} us a step "
          f"(opponents={opponents})")


def riichienv_steps_per_second(target):
    """RiichiEnv (4 players, one Python call per step of every acting seat) with uniformly
    random legal actions: agent decisions per second of wall clock and of CPU time."""
    import random

    import riichienv

    env = riichienv.RiichiEnv(game_mode="4p-red-half", skip_mjai_logging=True, seed=0)
    rng = random.Random(0)
    obs = env.reset()
    done = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    while done < target:
        if env.done():
            obs = env.reset()
            continue
        actions = {pid: rng.choice(o.legal_actions()) for pid, o in obs.items()}
        obs = env.step(actions)
        done += len(actions)
    return done / (time.perf_counter() - start), done / (time.process_time() - cpu_start)


if __name__ == "__main__":
    main()
