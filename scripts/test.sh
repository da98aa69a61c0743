#!/usr/bin/env bash
# Every check CI runs: formatting, lints, and every test of the workspace.
# Usage: bash scripts/test.sh        (from anywhere inside the repository)
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== cargo clippy (all targets, warnings are errors)"
cargo clippy --workspace --all-targets --locked -- -D warnings

echo "== cargo test (optimised test profile with debug assertions)"
cargo test --workspace --locked
