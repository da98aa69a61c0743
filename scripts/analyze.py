#!/usr/bin/env python3
"""Plots and a summary of a `taisim simulate` run (optionally compared with a second run).

Usage:
    python scripts/analyze.py RUN_DIR [--compare OTHER_RUN_DIR] [--out DIR]

Reads the run's Parquet tables (deals/, wins/, tai/) with DuckDB, draws PNGs with matplotlib
into --out (default RUN_DIR/plots), writes summary.json there with every number plotted, and
prints a short text summary. With --compare and runs of the same walls, compare_paired.png
plots the paired differences `taisim compare` tables (B − A with paired 95% intervals). Exit status 2 means the input could not be analysed (a missing
directory, no part files, a corrupt manifest); the message names the problem.

Needs DuckDB and matplotlib: ``pip install "./env[analysis]"`` (or the pinned set CI uses,
``pip install -r scripts/requirements-analysis.txt``).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path

SEATS = ("E", "S", "W", "N")
# The deals table's outcomes, in the order they are shown; any other value found is appended.
OUTCOMES = ("self_draw", "discard", "flower_win", "exhaustive_draw")
TABLES = ("deals", "wins", "tai")
Z95 = 1.96  # two-sided 95% normal quantile, as `taisim report` and `taisim compare` use it
PART_NAME = re.compile(r"^part-(\d+)\.parquet$")

COLOURS = ("#1f77b4", "#ff7f0e")  # run A, run B in the comparison plots
DPI = 120


class AnalysisError(Exception):
    """A problem with the input: reported as one line, exit status 2."""


# ---------------------------------------------------------------------------------------------
# Reading a run directory


@dataclass
class Run:
    path: Path
    label: str  # the variant's name, or the directory's when there is no manifest
    files: dict[str, list[Path]]  # table -> its part files, in part order
    manifest: dict  # provenance kept in summary.json


def load_run(path: Path) -> Run:
    """Finds a run's manifests and part files; raises AnalysisError when it has no data."""
    if not path.exists():
        raise AnalysisError(f"run directory {path} does not exist")
    if not path.is_dir():
        raise AnalysisError(f"{path} is not a directory")

    # A part is complete once its deals file is in place (it is renamed into place last), so
    # the deals files decide which parts are read; their wins and tai files must exist.
    deals_dir = path / "deals"
    indices = sorted(int(m.group(1)) for f in deals_dir.glob("part-*.parquet")
                     if (m := PART_NAME.match(f.name)))
    if not indices:
        where = deals_dir if deals_dir.is_dir() else path
        raise AnalysisError(f"no deals/part-*.parquet files in {where}: is {path} a taisim run directory?")
    files = {}
    for table in TABLES:
        files[table] = [path / table / f"part-{i:05d}.parquet" for i in indices]
        missing = [f for f in files[table] if not f.is_file()]
        if missing:
            raise AnalysisError(f"{missing[0]} is missing although its deals part exists: the run is damaged")

    # Shards of one run share a directory, each with its own manifest-shard-K-of-N.json.
    manifests = []
    for mpath in sorted([*path.glob("manifest.json"), *path.glob("manifest-shard-*.json")]):
        try:
            manifest = json.loads(mpath.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise AnalysisError(f"cannot read the manifest {mpath}: {e}") from e
        if not isinstance(manifest, dict):
            raise AnalysisError(f"{mpath} is not a taisim run manifest")
        manifests.append(manifest)
    if not manifests:
        warn(f"{path} has no manifest.json: reading its part files without provenance")
    statuses = sorted({str(m.get("status")) for m in manifests})
    if manifests and statuses != ["complete"]:
        warn(f"{path}: the run is not complete (status {', '.join(statuses)}); analysing the parts written so far")

    spec = manifests[0].get("spec", {}) if manifests else {}
    variant = spec.get("variant", {})
    label = variant.get("name") or path.resolve().name
    manifest = {
        "variant": variant.get("name"),
        "variant_sha256": variant.get("sha256"),
        "seed": spec.get("seed"),
        "unit": spec.get("unit"),
        "agents": spec.get("agents"),
        "status": statuses if manifests else None,
        "manifests": len(manifests),
        "parts": len(indices),
    }
    return Run(path=path, label=label, files=files, manifest=manifest)


def warn(message: str) -> None:
    print(f"analyze.py: warning: {message}", file=sys.stderr)


def register(con, run: Run, prefix: str) -> None:
    """Creates the views PREFIX_deals, PREFIX_wins and PREFIX_tai over the run's part files."""
    for table, paths in run.files.items():
        listing = ", ".join("'" + str(p).replace("'", "''") + "'" for p in paths)
        con.execute(f"CREATE VIEW {prefix}_{table} AS SELECT * FROM read_parquet([{listing}])")


# ---------------------------------------------------------------------------------------------
# Statistics


def wilson(k: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion k/n (n > 0)."""
    p = k / n
    denom = 1 + Z95 * Z95 / n
    centre = (p + Z95 * Z95 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n)) / denom
    # Clamped so that rounding never leaves p outside its interval (as at k = 0 or k = n).
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def rate(k: int, n: int) -> dict:
    """A proportion with its 95% Wilson interval, as written to summary.json."""
    if n == 0:
        return {"count": k, "rate": None, "ci95": None}
    lo, hi = wilson(k, n)
    return {"count": k, "rate": k / n, "ci95": [lo, hi]}


def run_stats(con, prefix: str) -> dict:
    """Everything plotted for one run: outcomes, tai distribution, patterns, seats."""
    n_deals, n_wins_deals = con.execute(
        f"SELECT count(*), count_if(n_winners > 0) FROM {prefix}_deals").fetchone()
    if n_deals == 0:
        raise AnalysisError("its deals files hold no rows")
    outcome_counts = dict(con.execute(
        f"SELECT outcome, count(*) FROM {prefix}_deals GROUP BY outcome").fetchall())
    outcomes = {o: rate(outcome_counts.get(o, 0), n_deals)
                for o in [*OUTCOMES, *sorted(set(outcome_counts) - set(OUTCOMES))]}

    tai_rows = con.execute(
        f"SELECT total_tai, count(*) FROM {prefix}_wins GROUP BY total_tai ORDER BY total_tai").fetchall()
    n_wins = sum(c for _, c in tai_rows)
    tai = {
        "histogram": {str(t): c for t, c in tai_rows},
        "mean": (sum(t * c for t, c in tai_rows) / n_wins) if n_wins else None,
        "median": con.execute(f"SELECT median(total_tai) FROM {prefix}_wins").fetchone()[0],
        "max": tai_rows[-1][0] if tai_rows else None,
    }

    # A pattern's frequency is the share of wins that count it (each win lists a pattern once;
    # `count` is how many times it applies within that win).
    patterns = []
    for pattern, name, k, mean_tai in con.execute(
            f"SELECT pattern, min(name), count(DISTINCT (deal_id, winner)), avg(tai) "
            f"FROM {prefix}_tai GROUP BY pattern ORDER BY 3 DESC, pattern").fetchall():
        r = rate(k, n_wins)
        patterns.append({
            "pattern": pattern, "name": name, "wins": k, "mean_tai": mean_tai,
            "per_1000_wins": 1000 * r["rate"],
            "ci95_per_1000": [1000 * x for x in r["ci95"]],
        })

    # Per seat: a win (one 一砲多響 deal counts for each winner), a self-draw win, a deal-in
    # (a winner took the seat's tile: it discarded the winning tile, had its kong robbed or gave
    # up the flower), and the mean net payment, which sums to zero over the seats.
    columns = []
    for s in SEATS:
        won = f"contains(coalesce(winners, ''), '{s}')"
        p = f"pay_{s.lower()}"
        columns += [f"count_if({won})", f"count_if({won} AND outcome = 'self_draw')",
                    f"count_if(discarder = '{s}')", f"count_if(dealer = '{s}')",
                    f"avg({p})", f"coalesce(stddev_samp({p}), 0)"]
    values = con.execute(f"SELECT {', '.join(columns)} FROM {prefix}_deals").fetchone()
    seats = {}
    for i, s in enumerate(SEATS):
        wins, self_draws, deal_ins, dealer, pay_mean, pay_sd = values[6 * i:6 * i + 6]
        # One deal has no spread: its interval is undefined, as `taisim report` says.
        half = Z95 * pay_sd / math.sqrt(n_deals) if n_deals > 1 else None
        seats[s] = {
            "win": rate(wins, n_deals), "self_draw": rate(self_draws, n_deals),
            "deal_in": rate(deal_ins, n_deals), "dealer_share": dealer / n_deals,
            "mean_payment": pay_mean,
            "mean_payment_ci95": None if half is None else [pay_mean - half, pay_mean + half],
        }
    return {
        "deals": n_deals, "deals_with_a_win": n_wins_deals, "wins": n_wins,
        "outcomes": outcomes, "tai": tai, "patterns": patterns, "seats": seats,
        "mean_payment_sum": sum(seats[s]["mean_payment"] for s in SEATS),
    }


def pairing_stats(con) -> dict:
    """Deals of runs A and B played from the same wall (same deal_id and seed), and how often
    their outcome (or their winners) differ. Empty pairs when the runs used other seeds."""
    common_ids = con.execute("SELECT count(*) FROM a_deals JOIN b_deals USING (deal_id)").fetchone()[0]
    n, outcome_diff, result_diff = con.execute(
        "SELECT count(*), count_if(a.outcome <> b.outcome), "
        "count_if(a.outcome <> b.outcome OR a.winners IS DISTINCT FROM b.winners) "
        "FROM a_deals a JOIN b_deals b USING (deal_id, seed)").fetchone()
    crosstab = con.execute(
        "SELECT a.outcome, b.outcome, count(*) FROM a_deals a JOIN b_deals b USING (deal_id, seed) "
        "GROUP BY ALL").fetchall()
    return {
        "common_deal_ids": common_ids,
        "paired_deals": n,
        "outcome_differs": rate(outcome_diff, n),
        "outcome_or_winners_differ": rate(result_diff, n),
        "outcome_crosstab": [{"a": a, "b": b, "deals": c} for a, b, c in crosstab],
    }


# Paired differences B − A over the deals both runs played from the same wall, with 95%
# intervals: recomputed here from the rows (two passes) as `taisim compare` computes them from
# its sums, so each checks the other (scripts/check_analysis.sh compares the two).
PER_DEAL = ("won", "self_draw", "discard", "deal_in", "exhaustive_draw", "several_winners", "tai_per_deal")
PER_WIN = ("tai_per_win", "payment_per_win", "self_drawn_share")


def paired_mean(a: list[float], b: list[float]) -> dict:
    """Mean of the deals' differences ± z·sd/√n (no interval for one deal: it has no spread)."""
    n = len(a)
    d = [y - x for x, y in zip(a, b)]
    mean = sum(d) / n
    out = {"a": sum(a) / n, "b": sum(b) / n, "difference": mean, "ci95": None}
    if n > 1:
        half = Z95 * math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1)) / math.sqrt(n)
        out["ci95"] = [mean - half, mean + half]
    return out


def paired_ratio(num_a, den_a, num_b, den_b) -> dict:
    """Σnum/Σden in B minus in A, its variance by the delta method: each deal's linearised
    difference (N − R·D)/D̄ in B minus in A, then its sample variance."""
    n = len(num_a)
    sa, sb = sum(den_a), sum(den_b)
    if sa == 0 or sb == 0:
        return {"a": None, "b": None, "difference": None, "ci95": None}
    ra, rb = sum(num_a) / sa, sum(num_b) / sb
    u = [(nb - rb * db) / (sb / n) - (na - ra * da) / (sa / n)
         for na, da, nb, db in zip(num_a, den_a, num_b, den_b)]
    if n < 2:
        return {"a": ra, "b": rb, "difference": rb - ra, "ci95": None}
    mean = sum(u) / n
    half = Z95 * math.sqrt(sum((x - mean) ** 2 for x in u) / (n - 1) / n)
    return {"a": ra, "b": rb, "difference": rb - ra, "ci95": [rb - ra - half, rb - ra + half]}


def paired_differences(con) -> dict:
    """Every figure `taisim compare` gives, over the deals of the same wall (deal_id and seed)."""
    wins = ("SELECT deal_id, count(*) AS w, sum(total_tai) AS t, sum(payment) AS pay, "
            "count_if(self_draw) AS sd FROM {}_wins GROUP BY deal_id")
    rows = con.execute(
        f"WITH wa AS ({wins.format('a')}), wb AS ({wins.format('b')}) "
        "SELECT a.deal_id, "
        "a.n_winners > 0, b.n_winners > 0, a.outcome = 'self_draw', b.outcome = 'self_draw', "
        "a.outcome = 'discard', b.outcome = 'discard', a.discarder IS NOT NULL, b.discarder IS NOT NULL, "
        "a.outcome = 'exhaustive_draw', b.outcome = 'exhaustive_draw', a.n_winners > 1, b.n_winners > 1, "
        "coalesce(a.total_tai, 0), coalesce(b.total_tai, 0), "
        "coalesce(wa.w, 0), coalesce(wa.t, 0), coalesce(wa.pay, 0), coalesce(wa.sd, 0), "
        "coalesce(wb.w, 0), coalesce(wb.t, 0), coalesce(wb.pay, 0), coalesce(wb.sd, 0) "
        "FROM a_deals a JOIN b_deals b USING (deal_id, seed) "
        "LEFT JOIN wa ON wa.deal_id = a.deal_id LEFT JOIN wb ON wb.deal_id = a.deal_id "
        "ORDER BY a.deal_id").fetchall()
    if not rows:
        return {}
    column = lambda i: [float(r[i]) for r in rows]  # noqa: E731
    per_deal = {key: paired_mean(column(1 + 2 * k), column(2 + 2 * k)) for k, key in enumerate(PER_DEAL)}
    wa, wb = column(15), column(19)
    per_win = {
        "tai_per_win": paired_ratio(column(16), wa, column(20), wb),
        "payment_per_win": paired_ratio(column(17), wa, column(21), wb),
        "self_drawn_share": paired_ratio(column(18), wa, column(22), wb),
    }
    position = {r[0]: i for i, r in enumerate(rows)}
    counts: dict[str, list[list[float]]] = {}
    for side, prefix in ((0, "a"), (1, "b")):
        for deal_id, pattern, k in con.execute(
                f"SELECT deal_id, pattern, count(*) FROM {prefix}_tai GROUP BY ALL").fetchall():
            if deal_id in position:
                counts.setdefault(pattern, [[0.0] * len(rows), [0.0] * len(rows)])[side][position[deal_id]] = k
    patterns = {p: paired_ratio(c[0], wa, c[1], wb) for p, c in sorted(counts.items())}
    return {"deals": len(rows), "per_deal": per_deal, "per_win": per_win, "patterns": patterns}


# ---------------------------------------------------------------------------------------------
# Pattern labels: Chinese names need a font that has their glyphs


def find_cjk_font(text: str, requested: Path | None):
    """A FontProperties for a font that draws every character of `text`, or None.

    Checking the glyphs actually needed (rather than trusting a family name) is what keeps
    matplotlib from printing a "Glyph ... missing" warning per character. The whole label is
    drawn in that font, so `text` holds the ASCII pattern ids too."""
    from matplotlib import font_manager
    from matplotlib.ft2font import FT2Font

    needed = {ord(c) for c in text}

    def covers(fname: str) -> bool:
        try:
            return needed <= FT2Font(fname).get_charmap().keys()
        except (OSError, RuntimeError, ValueError):
            return False  # a font file FreeType cannot open

    if requested is not None:
        if not requested.is_file():
            raise AnalysisError(f"--cjk-font {requested} is not a file")
        if covers(str(requested)):
            return font_manager.FontProperties(fname=str(requested))
        warn(f"--cjk-font {requested} lacks some of the pattern names' characters; labelling with ids only")
        return None
    # Likely CJK families first, so a machine with many fonts rarely opens them all. Last Resort
    # maps every character to a placeholder box: it "covers" everything and draws nothing.
    hints = ("cjk", "han", "hei", "ming", "kai", "song", "wenquanyi", "wqy", "gothic", "pingfang",
             "yahei", "jhenghei", "simsun", "mincho", "uming", "ukai", "droid sans fallback")
    fonts = sorted({(f.name, f.fname) for f in font_manager.fontManager.ttflist
                    if "last resort" not in f.name.lower()},
                   key=lambda nf: not any(h in nf[0].lower() for h in hints))
    for _, fname in fonts:
        if covers(fname):
            return font_manager.FontProperties(fname=fname)
    return None


def pattern_label(p: dict, cjk) -> str:
    return f"{p['pattern']} {p['name']}" if cjk is not None and p["name"] else p["pattern"]


def log_frequency_axis(ax) -> None:
    """A log x axis: pattern frequencies span several orders of magnitude, and a linear one
    would hide the rare patterns. Ticks at 1, 2, 5 × 10^k, written as plain numbers."""
    from matplotlib import ticker

    ax.set_xscale("log")
    ax.xaxis.set_major_locator(ticker.LogLocator(subs=(1, 2, 5)))
    ax.xaxis.set_major_formatter(ticker.FormatStrFormatter("%g"))
    ax.xaxis.set_minor_formatter(ticker.NullFormatter())


# ---------------------------------------------------------------------------------------------
# Plots. Figures are made without pyplot: Figure.savefig renders PNG with the Agg canvas, so no
# display or interactive backend is ever involved.


def new_figure(width: float, height: float):
    from matplotlib.figure import Figure
    return Figure(figsize=(width, height), dpi=DPI, layout="constrained")


def save(fig, out: Path, name: str, written: list[str]) -> None:
    fig.savefig(out / name)
    written.append(name)


def tai_shares(stats: dict, upto: int) -> list[float]:
    n = stats["wins"]
    return [stats["tai"]["histogram"].get(str(t), 0) / n if n else 0.0 for t in range(upto + 1)]


def tai_axis(ax, top: int) -> None:
    """An x axis of whole tai from 0 to `top`, at most about 20 ticks."""
    from matplotlib import ticker

    ax.xaxis.set_major_locator(ticker.MaxNLocator(nbins=20, integer=True))
    ax.set_xlim(-0.6, top + 0.6)


def plot_tai(stats: dict, label: str, out: Path, written: list[str]) -> None:
    fig = new_figure(8, 4.5)
    ax = fig.add_subplot()
    top = stats["tai"]["max"] or 0
    shares = tai_shares(stats, top)
    bars = ax.bar(range(top + 1), [100 * s for s in shares], color=COLOURS[0])
    # The tail is too rare to see as bars, so every bar is labelled with its count.
    ax.bar_label(bars, labels=[f"{stats['tai']['histogram'].get(str(t), 0):,}" for t in range(top + 1)],
                 fontsize=7, rotation=90, padding=2)
    tai_axis(ax, top)
    ax.set_xlabel("total tai per win (dealer tai not included)")
    ax.set_ylabel("% of wins")
    ax.margins(y=0.15)
    mean = stats["tai"]["mean"]
    ax.set_title(f"{label}: tai per win ({stats['wins']:,} wins"
                 + (f", mean {mean:.2f}, median {stats['tai']['median']:g})" if mean is not None else ")"))
    save(fig, out, "tai_histogram.png", written)


def plot_patterns(stats: dict, label: str, top: int, cjk, out: Path, written: list[str]) -> None:
    shown = stats["patterns"][:top]
    fig = new_figure(9, 1.2 + 0.3 * max(len(shown), 1))
    ax = fig.add_subplot()
    if shown:
        y = range(len(shown))
        freq = [p["per_1000_wins"] for p in shown]
        err = [[f - p["ci95_per_1000"][0] for f, p in zip(freq, shown)],
               [p["ci95_per_1000"][1] - f for f, p in zip(freq, shown)]]
        ax.barh(y, freq, xerr=err, color=COLOURS[0], ecolor="black", capsize=2)
        ax.set_yticks(y, [pattern_label(p, cjk) for p in shown], fontproperties=cjk)
        ax.invert_yaxis()
        log_frequency_axis(ax)
    ax.set_xlabel("wins counting the pattern, per 1,000 wins (95% Wilson interval)")
    ax.set_title(f"{label}: the {len(shown)} most frequent patterns ({stats['wins']:,} wins)")
    save(fig, out, "patterns.png", written)


def error_bars(values: list[float], intervals: list) -> list[list[float]]:
    """Matplotlib's (below, above) error bars of `values`; none where an interval is undefined
    (None: a mean over fewer than two samples)."""
    return [[v - ci[0] if ci else 0.0 for v, ci in zip(values, intervals)],
            [ci[1] - v if ci else 0.0 for v, ci in zip(values, intervals)]]


def plot_seats(stats: dict, label: str, out: Path, written: list[str]) -> None:
    import numpy as np

    seats = stats["seats"]
    fig = new_figure(11, 4.5)
    ax_rate, ax_pay = fig.subplots(1, 2, width_ratios=[2, 1])
    x = np.arange(len(SEATS))
    ticks = [f"{s}\n(dealer {100 * seats[s]['dealer_share']:.0f}%)" for s in SEATS]
    kinds = (("win", "win"), ("self_draw", "self-draw win"), ("deal_in", "deal-in"))
    width = 0.8 / len(kinds)
    for j, (key, name) in enumerate(kinds):
        values = [seats[s][key]["rate"] for s in SEATS]
        err = error_bars(values, [seats[s][key]["ci95"] for s in SEATS])
        ax_rate.bar(x + (j - 1) * width, values, width, yerr=err, capsize=2, label=name)
    ax_rate.set_xticks(x, ticks)
    ax_rate.set_ylabel("share of deals (95% Wilson interval)")
    ax_rate.set_title(f"{label}: outcome by seat ({stats['deals']:,} deals)")
    ax_rate.margins(y=0.2)  # room for the legend above the bars
    ax_rate.legend(loc="upper center", ncols=len(kinds))

    means = [seats[s]["mean_payment"] for s in SEATS]
    err = error_bars(means, [seats[s]["mean_payment_ci95"] for s in SEATS])
    ax_pay.bar(x, means, yerr=err, capsize=3, color=["tab:green" if m >= 0 else "tab:red" for m in means])
    ax_pay.axhline(0, color="black", linewidth=0.8)
    ax_pay.set_xticks(x, SEATS)
    ax_pay.set_ylabel("mean net payment per deal (95% CI)")
    ax_pay.set_title("mean payment by seat")
    save(fig, out, "seats.png", written)


def plot_compare_patterns(a: dict, b: dict, labels: tuple[str, str], top: int, cjk,
                          out: Path, written: list[str]) -> None:
    import numpy as np

    by_id = [{p["pattern"]: p for p in s["patterns"]} for s in (a, b)]
    # The patterns most frequent in either run; a pattern one variant lacks shows as 0 there.
    ids = sorted(set(by_id[0]) | set(by_id[1]),
                 key=lambda i: -max(d[i]["per_1000_wins"] if i in d else 0 for d in by_id))[:top]
    fig = new_figure(10, 1.5 + 0.4 * max(len(ids), 1))
    ax = fig.add_subplot()
    y = np.arange(len(ids))
    for j, (d, lab) in enumerate(zip(by_id, labels)):
        freq = [d[i]["per_1000_wins"] if i in d else 0.0 for i in ids]
        lo = [d[i]["ci95_per_1000"][0] if i in d else 0.0 for i in ids]
        hi = [d[i]["ci95_per_1000"][1] if i in d else 0.0 for i in ids]
        ax.barh(y + (j - 0.5) * 0.4, freq, 0.4, xerr=[np.subtract(freq, lo), np.subtract(hi, freq)],
                color=COLOURS[j], ecolor="black", capsize=1.5, label=lab)
    names = {i: pattern_label(d[i], cjk) for d in reversed(by_id) for i in d}
    ax.set_yticks(y, [names[i] for i in ids], fontproperties=cjk)
    ax.invert_yaxis()
    log_frequency_axis(ax)
    ax.set_xlabel("wins counting the pattern, per 1,000 wins (95% Wilson interval; absent = no bar)")
    ax.set_title(f"pattern frequency: {labels[0]} vs {labels[1]}")
    ax.legend(loc="lower right")
    save(fig, out, "compare_patterns.png", written)


def plot_compare_tai(a: dict, b: dict, labels: tuple[str, str], out: Path, written: list[str]) -> None:
    import numpy as np

    top = max(a["tai"]["max"] or 0, b["tai"]["max"] or 0)
    x = np.arange(top + 1)
    fig = new_figure(12, 4.5)
    ax, ax_tail = fig.subplots(1, 2)
    for j, (s, lab) in enumerate(zip((a, b), labels)):
        mean = s["tai"]["mean"]
        shares = np.array(tai_shares(s, top))
        ax.bar(x + (j - 0.5) * 0.4, 100 * shares, 0.4, color=COLOURS[j],
               label=f"{lab} (mean {mean:.2f})" if mean is not None else lab)
        # The tail, too rare to see as bars: the share of wins worth at least t tai.
        at_least = shares[::-1].cumsum()[::-1]
        ax_tail.step(x[at_least > 0], 100 * at_least[at_least > 0], where="post", color=COLOURS[j], label=lab)
    for axis in (ax, ax_tail):
        tai_axis(axis, top)
        axis.set_xlabel("total tai per win")
    ax.set_ylabel("% of wins")
    ax.set_title(f"tai per win: {labels[0]} vs {labels[1]}")
    ax.legend()
    ax_tail.set_yscale("log")
    ax_tail.set_ylabel("% of wins with at least this many tai")
    ax_tail.set_title("the tail")
    ax_tail.legend()
    save(fig, out, "compare_tai.png", written)


def plot_compare_outcomes(pairing: dict, labels: tuple[str, str], out: Path, written: list[str]) -> None:
    import numpy as np

    found = {c["a"] for c in pairing["outcome_crosstab"]} | {c["b"] for c in pairing["outcome_crosstab"]}
    order = [o for o in OUTCOMES if o in found] + sorted(found - set(OUTCOMES))
    grid = np.zeros((len(order), len(order)))
    for c in pairing["outcome_crosstab"]:
        grid[order.index(c["a"]), order.index(c["b"])] = c["deals"]
    share = grid / pairing["paired_deals"]
    fig = new_figure(7, 5.5)
    ax = fig.add_subplot()
    image = ax.imshow(share, cmap="Blues", vmin=0)
    for (i, j), v in np.ndenumerate(share):
        ax.text(j, i, f"{100 * v:.1f}%", ha="center", va="center",
                color="white" if v > 0.6 * share.max() else "black")
    ax.set_xticks(range(len(order)), order, rotation=20)
    ax.set_yticks(range(len(order)), order)
    ax.set_xlabel(labels[1])
    ax.set_ylabel(labels[0])
    # The cells are labelled in %, so the bar is too (its values are shares of 1).
    from matplotlib.ticker import PercentFormatter

    fig.colorbar(image, ax=ax, label="share of paired deals", format=PercentFormatter(xmax=1, decimals=0))
    d = pairing["outcome_differs"]["rate"]
    ax.set_title(f"same walls ({pairing['paired_deals']:,} deals): outcome differs in {100 * d:.1f}%")
    save(fig, out, "compare_outcomes.png", written)


def plot_compare_paired(paired: dict, labels: tuple[str, str], top: int, cjk, names: dict,
                        out: Path, written: list[str]) -> None:
    """B − A with paired 95% intervals: rates in percentage points, tai per win and per deal,
    and the patterns whose share of wins moved most."""
    rates = [k for k in PER_DEAL if k != "tai_per_deal"]
    shown = sorted((p for p, v in paired["patterns"].items() if v["difference"] is not None),
                   key=lambda p: (-abs(paired["patterns"][p]["difference"]), p))[:top]
    fig = new_figure(13, 1.5 + 0.3 * max(len(shown), len(rates), 4))
    ax_rate, ax_tai, ax_pat = fig.subplots(1, 3, width_ratios=[1, 1, 1.3])

    def forest(ax, items, scale, xlabel):
        y = list(range(len(items)))
        d = [scale * v["difference"] for _, v in items]
        err = error_bars(d, [v["ci95"] and [scale * x for x in v["ci95"]] for _, v in items])
        ax.errorbar(d, y, xerr=err, fmt="o", color=COLOURS[1], ecolor="black", capsize=3)
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_yticks(y, [k for k, _ in items], fontproperties=cjk if ax is ax_pat else None)
        ax.invert_yaxis()
        ax.set_xlabel(xlabel)

    forest(ax_rate, [(k, paired["per_deal"][k]) for k in rates], 100, "percentage points of deals")
    ax_rate.set_title("rates")
    tai = [("tai per deal", paired["per_deal"]["tai_per_deal"])]
    tai += [(k.replace("_", " "), paired["per_win"][k]) for k in ("tai_per_win", "payment_per_win")
            if paired["per_win"][k]["difference"] is not None]
    forest(ax_tai, tai, 1, "tai (payment: money)")
    ax_tai.set_title("tai and payment")
    items = [(pattern_label({"pattern": p, "name": names.get(p)}, cjk), paired["patterns"][p]) for p in shown]
    forest(ax_pat, items, 1000, "per 1,000 wins")
    ax_pat.set_title(f"the {len(shown)} patterns that moved most")
    fig.suptitle(f"{labels[1]} − {labels[0]} on the same walls ({paired['deals']:,} deals; paired 95% intervals)")
    save(fig, out, "compare_paired.png", written)


# ---------------------------------------------------------------------------------------------
# Text summary


def pct(r: dict) -> str:
    return "n/a" if r["rate"] is None else f"{100 * r['rate']:.1f}%"


def print_run(run: Run, s: dict) -> None:
    print(f"run {run.path} ({run.label}): {s['deals']:,} deals, {s['wins']:,} wins")
    print("  outcomes: " + "  ".join(f"{o} {pct(r)}" for o, r in s["outcomes"].items()))
    if s["tai"]["mean"] is not None:
        print(f"  tai per win: mean {s['tai']['mean']:.2f}, median {s['tai']['median']:g}, max {s['tai']['max']}")
    print("  seat  win     self-draw  deal-in  mean payment")
    for seat, v in s["seats"].items():
        print(f"  {seat}     {pct(v['win']):>6}  {pct(v['self_draw']):>9}  {pct(v['deal_in']):>7}  "
              f"{v['mean_payment']:+.3f}")
    top = ", ".join(f"{p['pattern']} {p['per_1000_wins']:.0f}" for p in s["patterns"][:5])
    print(f"  top patterns per 1,000 wins: {top}")


# ---------------------------------------------------------------------------------------------


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run", type=Path, metavar="RUN_DIR", help="a `taisim simulate` output directory")
    ap.add_argument("--compare", type=Path, metavar="OTHER_RUN_DIR",
                    help="a second run to compare with (e.g. another variant on the same seeds)")
    ap.add_argument("--out", type=Path, metavar="DIR",
                    help="where the PNGs and summary.json go (default RUN_DIR/plots)")
    ap.add_argument("--top", type=int, default=25, metavar="N", help="patterns shown (default 25)")
    ap.add_argument("--cjk-font", type=Path, metavar="FILE",
                    help="a font file for the patterns' Chinese names (default: an installed font that has them)")
    args = ap.parse_args(argv)
    if args.top < 1:
        ap.error("--top must be at least 1")
    return args


def analyse(args) -> int:
    try:
        import duckdb
        import matplotlib  # noqa: F401  (imported where drawn; checked here for a clear message)
    except ImportError as e:
        raise AnalysisError(f"{e}: install the analysis extra "
                            "(python -m pip install \"./env[analysis]\", or the pinned "
                            "python -m pip install -r scripts/requirements-analysis.txt)") from e

    runs = [load_run(args.run)] + ([load_run(args.compare)] if args.compare else [])
    out = args.out or args.run / "plots"
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise AnalysisError(f"cannot create the output directory {out}: {e}") from e

    con = duckdb.connect()
    stats = []
    for run, prefix in zip(runs, ("a", "b")):
        register(con, run, prefix)
        try:
            stats.append(run_stats(con, prefix))
        except duckdb.Error as e:
            raise AnalysisError(f"cannot read the tables of {run.path}: {e}") from e
        except AnalysisError as e:
            raise AnalysisError(f"{run.path}: {e}") from e

    labels_text = "".join(p["pattern"] + " " + (p["name"] or "") for s in stats for p in s["patterns"])
    cjk = find_cjk_font(labels_text, args.cjk_font)

    written: list[str] = []
    a = stats[0]
    plot_tai(a, runs[0].label, out, written)
    plot_patterns(a, runs[0].label, args.top, cjk, out, written)
    plot_seats(a, runs[0].label, out, written)
    summary = {"run": {"path": str(runs[0].path), "label": runs[0].label, **runs[0].manifest, **a}}

    print_run(runs[0], a)
    if args.compare:
        b = stats[1]
        labels = (runs[0].label, runs[1].label)
        if labels[0] == labels[1]:  # same variant: tell the runs apart by directory
            labels = (f"A {runs[0].path.resolve().name}", f"B {runs[1].path.resolve().name}")
        pairing = pairing_stats(con)
        plot_compare_patterns(a, b, labels, args.top, cjk, out, written)
        plot_compare_tai(a, b, labels, out, written)
        paired = paired_differences(con) if pairing["paired_deals"] else {}
        if pairing["paired_deals"]:
            plot_compare_outcomes(pairing, labels, out, written)
            names = {p["pattern"]: p["name"] for s in (a, b) for p in s["patterns"]}
            plot_compare_paired(paired, labels, args.top, cjk, names, out, written)
        summary["compare_run"] = {"path": str(runs[1].path), "label": runs[1].label, **runs[1].manifest, **b}
        summary["comparison"] = {"labels": list(labels), **pairing, "paired": paired}
        print_run(runs[1], b)
        if pairing["paired_deals"]:
            print(f"same walls: {pairing['paired_deals']:,} deals share deal_id and seed; "
                  f"outcome differs in {pct(pairing['outcome_differs'])}, "
                  f"outcome or winners in {pct(pairing['outcome_or_winners_differ'])}")
        else:
            print(f"same walls: none ({pairing['common_deal_ids']:,} common deal ids, other seeds): "
                  "no per-deal comparison")

    summary["pattern_names_drawn"] = cjk is not None
    summary["plots"] = written
    (out / "summary.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {', '.join(written)} and summary.json to {out}")
    return 0


def main(argv=None) -> int:
    args = parse_args(argv)
    try:
        return analyse(args)
    except AnalysisError as e:
        print(f"analyze.py: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
