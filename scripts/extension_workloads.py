"""Fixed workloads of the Python extension, for counting instructions under callgrind.

Usage: valgrind --tool=callgrind .venv/bin/python scripts/extension_workloads.py MODE [RUN]

MODE is one of:
  import   only ``import taisim`` (subtract it from the others)
  sim      ``taisim.simulate``: 3,000 greedy deals, seed 1, one thread
  simdec   the same with ``decisions="all"``, 300 deals
  vec      ``taisim.VecEnv``: 64 environments, random opponents, one thread, 300 random
           masked steps
  load     ``taisim.load_decisions(RUN)`` once (RUN a run made with ``--decisions``)

Instruction counts are what compares two builds of the extension (profiles, opt-levels) on
this shared machine, where wall-clock figures move by 40%; see BENCHMARKS.md.
"""

import shutil
import sys
import tempfile

import numpy as np

import taisim


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "import":
        return
    if mode in ("sim", "simdec"):
        out = tempfile.mkdtemp(prefix="taisim-workload-")
        try:
            if mode == "sim":
                taisim.simulate(out + "/run", deals=3000, seed=1, agents="greedy", threads=1)
            else:
                taisim.simulate(out + "/run", deals=300, seed=1, agents="greedy", threads=1,
                                decisions="all")
        finally:
            shutil.rmtree(out, ignore_errors=True)
    elif mode == "vec":
        envs = taisim.VecEnv(num_envs=64, opponents="random", threads=1)
        _, infos = envs.reset(seed=1)
        rng = np.random.default_rng(1)
        for _ in range(300):
            mask = infos["action_mask"]
            action = (rng.random(mask.shape, dtype=np.float32) * mask).argmax(axis=1)
            _, _, _, _, infos = envs.step(action)
    elif mode == "load" and len(sys.argv) == 3:
        taisim.load_decisions(sys.argv[2])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
