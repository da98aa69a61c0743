"""``taisim.load_decisions`` throughput: decisions read from disk into numpy arrays per second.

Usage: .venv/bin/python scripts/bench_load_decisions.py RUN [--repeat 5] [--seats E,S]
       [--reuse] [--make DEALS]

``RUN`` is a run made with ``--decisions``, e.g. the issue's benchmark run:

    target/release/taisim simulate --decisions all --agents greedy --deals 20000 --seed 1 --out /tmp/dec

With ``--make DEALS`` and no run at ``RUN``, the script first makes that run itself
(``taisim.simulate(RUN, deals=DEALS, seed=1, agents="greedy", decisions="all")``, the same
files as the command above).

The first load reads the part files from disk or from the page cache, whichever holds them
(dropping the cache needs root: the figure printed first is "cold" only on a freshly booted
or freshly written-and-evicted run, so the script says which it cannot tell); the repeats
read them from the page cache ("warm cache"). Besides wall-clock decisions per second, each
figure is given per second of CPU time (the process's, all threads): on a shared machine the
wall clock measures the other processes as much as this one.
"""

import argparse
import os
import statistics
import time

import taisim


def run_size(run):
    total = 0
    for root, _, files in os.walk(os.path.join(run, "decisions")):
        total += sum(os.path.getsize(os.path.join(root, f)) for f in files)
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run")
    parser.add_argument("--repeat", type=int, default=5, help="timed loads after the first")
    parser.add_argument("--seats", default=None, help='only these seats\' rows, as "E,S"')
    parser.add_argument("--reuse", action="store_true",
                        help="each load after the first reads into the previous one's arrays "
                             "(out=), as a training loop that reloads would")
    parser.add_argument("--make", type=int, default=0, metavar="DEALS",
                        help="make the run first if RUN does not exist")
    args = parser.parse_args()

    if not os.path.exists(args.run):
        if not args.make:
            raise SystemExit(f"bench_load_decisions: no run at {args.run} (give --make DEALS)")
        start = time.perf_counter()
        taisim.simulate(args.run, deals=args.make, seed=1, agents="greedy", decisions="all")
        print(f"made {args.run} ({args.make} deals) in {time.perf_counter() - start:.1f} s")

    size = run_size(args.run)
    # The machine's load beside the figures: on a shared machine the wall clock depends on it.
    load_before = os.getloadavg()
    figures = []
    d = None
    for i in range(args.repeat + 1):
        out = d if args.reuse else None
        wall, cpu = time.perf_counter(), time.process_time()
        d = taisim.load_decisions(args.run, seats=args.seats, out=out)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        n = len(d["action"])
        label = "first load" if i == 0 else "warm cache" + (", out=" if args.reuse else "")
        print(f"{label}: {n} decisions ({size / 1e6:.1f} MB on disk, "
              f"{d['obs'].nbytes / 1e9:.2f} GB of observations) in {wall:.3f} s: "
              f"{n / wall:,.0f} decisions/s ({n / max(cpu, 1e-9):,.0f} per CPU-second)")
        if i > 0:
            figures.append((n / wall, n / max(cpu, 1e-9)))
        if not args.reuse:
            d = None
    if figures:
        walls, cpus = zip(*figures)
        print(f"warm cache, {len(figures)} loads: median {statistics.median(walls):,.0f}, "
              f"best {max(walls):,.0f} decisions/s; median {statistics.median(cpus):,.0f} per "
              f"CPU-second ({1e6 / statistics.median(cpus):.2f} CPU-seconds per million)")
    print("load average (1, 5, 15 min) before: {:.2f} {:.2f} {:.2f}, after: {:.2f} {:.2f} {:.2f}"
          .format(*load_before, *os.getloadavg()))


if __name__ == "__main__":
    main()
