#!/usr/bin/env bash
# CI check of scripts/analyze.py: installs its pinned packages into a virtual environment,
# simulates two variants on the same seeds (the second as two shards sharing a directory),
# analyses them with --compare, and checks the PNGs, summary.json's numbers (the paired
# differences against `taisim compare --json` on the same runs) and the errors.
# Usage: bash scripts/check_analysis.sh [PYTHON] [TAISIM]
#   PYTHON  a virtual environment's python (default .venv/bin/python); the packages go there
#   TAISIM  the taisim binary (default target/release/taisim, else target/debug/taisim)
# Paths given are taken from the current directory, the defaults from the repository's root.
# Exits non-zero on any failure.
set -euo pipefail

absolute() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
py=${1:+$(absolute "$1")}
taisim=${2:+$(absolute "$2")}
cd "$(dirname "$0")/.."
py=${py:-$PWD/.venv/bin/python}
if [ -z "$taisim" ]; then
  taisim=$PWD/target/release/taisim
  [ -x "$taisim" ] || taisim=$PWD/target/debug/taisim
fi
[ -x "$py" ] || { echo "check_analysis: no python at $py (create .venv with scripts/python-env.sh)" >&2; exit 1; }
[ -x "$taisim" ] || { echo "check_analysis: no taisim binary at $taisim (cargo build first)" >&2; exit 1; }

echo "== analysis: pinned packages into $(dirname "$(dirname "$py")")"
# Pinned versions already installed make this a quick no-op.
"$py" -m pip install --quiet --disable-pip-version-check -r scripts/requirements-analysis.txt

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 2,000 deals keep this to seconds: greedy players are the slowest part of a run (several
# times slower under taiwan16-2015, whose special hands they also chase), and 2015's scoring
# differs enough that greedy play, and so the outcomes, differ on the same walls.
deals=2000
echo "== analysis: simulate taiwan16 and taiwan16-2015, $deals deals each, seed 7"
sim=("$taisim" simulate --deals $deals --agents greedy --seed 7 --part-size 800 --quiet)
"${sim[@]}" --variant taiwan16 --out "$tmp/a"
"${sim[@]}" --variant taiwan16-2015 --out "$tmp/b" --shard 1/2
"${sim[@]}" --variant taiwan16-2015 --out "$tmp/b" --shard 2/2

echo "== analysis: analyze.py --compare"
"$py" scripts/analyze.py "$tmp/a" --compare "$tmp/b" --out "$tmp/plots"

echo "== analysis: taisim compare on the same runs"
"$taisim" compare "$tmp/a" "$tmp/b" --json --markdown "$tmp/compare.md" > "$tmp/compare.json"

echo "== analysis: outputs and sanity numbers, and analyze.py's paired figures against taisim compare's"
"$py" - "$tmp/plots" "$deals" "$tmp/compare.json" <<'EOF'
import json
import math
import sys
from pathlib import Path

out, deals = Path(sys.argv[1]), int(sys.argv[2])
compare = json.loads(Path(sys.argv[3]).read_text(encoding="utf-8"))
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


plots = ["tai_histogram.png", "patterns.png", "seats.png",
         "compare_patterns.png", "compare_tai.png", "compare_outcomes.png", "compare_paired.png"]
for name in plots:
    f = out / name
    check(f.is_file() and f.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and f.stat().st_size > 5000,
          f"{name} is missing, not a PNG, or nearly empty")
summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
check(summary["plots"] == plots, f"summary.json lists plots {summary['plots']}")


def in_unit(r):
    lo, hi = r["ci95"]
    return 0 <= lo <= r["rate"] <= hi <= 1


for key in ("run", "compare_run"):
    s = summary[key]
    check(s["deals"] == deals, f"{key}: {s['deals']} deals, not {deals}")
    check(s["wins"] > 0 and s["patterns"], f"{key}: no wins or no patterns")
    check(all(in_unit(r) for r in s["outcomes"].values()), f"{key}: an outcome rate outside [0, 1]")
    check(math.isclose(sum(r["rate"] for r in s["outcomes"].values()), 1), f"{key}: outcome shares do not sum to 1")
    check(sum(s["tai"]["histogram"].values()) == s["wins"], f"{key}: the tai histogram does not count every win")
    check(all(p["ci95_per_1000"][0] <= p["per_1000_wins"] <= p["ci95_per_1000"][1] <= 1000 for p in s["patterns"]),
          f"{key}: a pattern frequency outside its interval or above 1,000 per 1,000 wins")
    for seat, v in s["seats"].items():
        check(all(in_unit(v[k]) for k in ("win", "self_draw", "deal_in")), f"{key}: seat {seat} has a rate outside [0, 1]")
    # Every deal's payments sum to zero over the seats, so the seats' means do too.
    check(abs(s["mean_payment_sum"]) < 1e-6, f"{key}: mean payments by seat sum to {s['mean_payment_sum']}")
check(summary["compare_run"]["manifests"] == 2, "the sharded run's two manifests were not both read")
c = summary["comparison"]
check(c["paired_deals"] == deals, f"{c['paired_deals']} paired deals, not {deals} (same seeds)")
check(in_unit(c["outcome_differs"]) and in_unit(c["outcome_or_winners_differ"]), "a differing share outside [0, 1]")
check(c["outcome_differs"]["rate"] <= c["outcome_or_winners_differ"]["rate"], "outcome differs more often than outcome or winners")
check(sum(x["deals"] for x in c["outcome_crosstab"]) == deals, "the outcome crosstab does not count every paired deal")

# The paired differences, recomputed by analyze.py from the rows with two passes, are taisim
# compare's (which folds sums in one): the two implementations check each other.
def same(x, y):
    if x is None or y is None:
        return x is None and y is None
    return math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12)


def same_figure(key, ours, theirs):
    check(same(ours["difference"], theirs["difference"]), f"{key}: difference {ours['difference']} vs {theirs['difference']}")
    if ours["ci95"] is None or theirs["ci95"] is None:
        check(ours["ci95"] is None and theirs["ci95"] is None, f"{key}: an interval only one side has")
    else:
        check(all(same(x, y) for x, y in zip(ours["ci95"], theirs["ci95"])), f"{key}: interval {ours['ci95']} vs {theirs['ci95']}")


paired = c["paired"]
check(paired["deals"] == compare["deals"] == deals, "analyze.py and taisim compare paired different deals")
check(compare["outcome_changed"]["count"] == round(c["outcome_differs"]["rate"] * deals), "outcome changes differ")
for key, figure in paired["per_deal"].items():
    same_figure(key, figure, compare["per_deal"][key])
for key, figure in paired["per_win"].items():
    same_figure(key, figure, compare["per_win"][key])
theirs = {p["id"]: p["share"] for p in compare["patterns"]}
check(sorted(paired["patterns"]) == sorted(theirs), "the patterns compared differ")
for key, figure in paired["patterns"].items():
    if key in theirs:
        same_figure(key, figure, theirs[key])

for f in failures:
    print(f"check_analysis: FAILED: {f}", file=sys.stderr)
sys.exit(1 if failures else 0)
EOF

echo "== analysis: bad input exits with status 2"
mkdir "$tmp/empty"
for bad in "$tmp/missing" "$tmp/empty"; do
  status=0
  "$py" scripts/analyze.py "$bad" --out "$tmp/bad-plots" 2>"$tmp/err" || status=$?
  if [ "$status" -ne 2 ] || ! grep -q "$bad" "$tmp/err"; then
    echo "check_analysis: FAILED: analyze.py $bad exited $status with: $(cat "$tmp/err")" >&2
    exit 1
  fi
done

echo "check_analysis: ok"
