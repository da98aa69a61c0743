#!/usr/bin/env bash
# Creates .venv (if missing) with the pinned tools the Python tests and scripts need:
# scripts/requirements.txt (build and test tools, pyarrow), scripts/requirements-analysis.txt
# (DuckDB, matplotlib: the tests read the decisions table with DuckDB too, so it is here before
# pytest runs), then scripts/requirements-rl.txt (torch, Stable-Baselines3, sb3-contrib: about
# 5 GB, 3 minutes) unless TAISIM_RL=0.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -r scripts/requirements.txt -r scripts/requirements-analysis.txt
if [ "${TAISIM_RL:-1}" != 0 ]; then
  echo "python-env: torch, stable-baselines3, sb3-contrib (scripts/requirements-rl.txt; TAISIM_RL=0 skips)"
  .venv/bin/python -m pip install --quiet -r scripts/requirements-rl.txt
fi
