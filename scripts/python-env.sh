#!/usr/bin/env bash
# Creates .venv (if missing) with the pinned tools the Python tests and scripts need.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -r scripts/requirements.txt
