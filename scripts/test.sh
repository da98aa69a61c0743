#!/usr/bin/env bash
# Every check CI runs: formatting, lints, every Rust test, then the Python package's tests.
# Usage: bash scripts/test.sh        (from anywhere inside the repository)
# Python tools go into a local virtual environment, .venv, created here if missing.
set -euo pipefail
cd "$(dirname "$0")/.."
# A fresh clone (CI) gains nothing from incremental caches, which cost disk and build time.
if [ "${CI:-}" = true ]; then
  export CARGO_INCREMENTAL=0
fi

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== cargo clippy (all targets, warnings are errors; the Python bindings too)"
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo clippy -p taisim-env --features python --all-targets --locked -- -D warnings

echo "== cargo test (optimised test profile with debug assertions)"
cargo test --workspace --locked

echo "== Python: .venv, the taisim extension (maturin), pytest"
bash scripts/python-env.sh
export VIRTUAL_ENV="$PWD/.venv" PATH="$PWD/.venv/bin:$PATH"
maturin develop --profile wheel --locked -m env/Cargo.toml
# A skip other than the RL extras left out with TAISIM_RL=0 fails the run (conftest.py): a
# broken install or a missing reader must not turn tests into quiet skips.
# Temporary files under target/: pytest's default place is shared by every run on the
# machine, and it keeps only the three newest directories there, deleting older ones
# whoever made them.
TAISIM_NO_UNEXPECTED_SKIPS=1 python -m pytest env/python/tests -q -rs --basetemp "$PWD/target/pytest-tmp"

echo "== Analysis scripts (DuckDB, matplotlib) on a small run of the binary cargo test built"
bash scripts/check_analysis.sh .venv/bin/python target/debug/taisim
