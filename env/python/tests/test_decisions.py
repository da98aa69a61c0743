"""taisim.load_decisions: a run's decisions table as numpy arrays, and the same table read
by PyArrow and DuckDB."""

import json
import os

import numpy as np
import pytest

import taisim


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("decisions") / "run"
    taisim.simulate(out, deals=300, seed=5, agents="greedy,random,defensive,greedy",
                    part_size=120, threads=2, decisions="all")
    return out


def test_arrays_have_the_contracted_types_and_shapes(run):
    d = taisim.load_decisions(run)
    n = len(d["action"])
    manifest = json.loads((run / "manifest.json").read_text())
    assert n == manifest["rows"]["decisions"] > 1000
    channels, width = taisim.OBS_SHAPE
    assert d["obs"].dtype == np.uint8 and d["obs"].shape == (n, channels, width)
    assert d["obs_scale"].dtype == np.float32 and d["obs_scale"].shape == (channels, width)
    assert d["mask"].dtype == np.bool_ and d["mask"].shape == (n, taisim.ACTION_SPACE_SIZE)
    for key, dtype in (("action", np.int64), ("reward", np.float32), ("seat", np.uint8),
                       ("deal", np.uint64), ("step", np.uint32)):
        assert d[key].dtype == dtype and d[key].shape == (n,), key
    assert d["obs_version"] == taisim.OBS_VERSION
    # Only real choices, and the action taken is always legal.
    assert (d["mask"].sum(axis=1) >= 2).all()
    assert d["mask"][np.arange(n), d["action"]].all()
    obs = d["obs"] * d["obs_scale"]
    assert obs.dtype == np.float32 and obs.min() == 0.0 and obs.max() == 1.0
    assert set(np.unique(d["seat"])) == {0, 1, 2, 3}
    # Within a deal, decisions come in step order.
    same = d["deal"][1:] == d["deal"][:-1]
    assert (d["step"][1:][same] > d["step"][:-1][same]).all()


def test_scale_is_one_over_the_layouts_denominators(run):
    """The bit-for-bit equality with the encoder's floats is proven in Rust
    (tests/cli_decisions.rs replays every deal); here: the scale is 1/d for the layout's
    denominators, and no stored numerator exceeds its denominator."""
    d = taisim.load_decisions(run, seats="E,S,W,N")
    den = np.round(1.0 / d["obs_scale"]).astype(np.int64)
    assert set(np.unique(den)) == {4, 5, 8, 17, 64, 128, 136}
    assert (d["obs_scale"] == (np.float32(1.0) / den.astype(np.float32))).all()
    assert (d["obs"].max(axis=0) <= den).all()


def test_seats_filter(run):
    d = taisim.load_decisions(run)
    ew = taisim.load_decisions(run, seats=["E", "W"])
    keep = (d["seat"] == 0) | (d["seat"] == 2)
    assert len(ew["action"]) == keep.sum()
    assert (ew["obs"] == d["obs"][keep]).all()
    assert (ew["reward"] == d["reward"][keep]).all()


KEYS = ("obs", "mask", "action", "reward", "seat", "deal", "step")


def test_out_reuses_the_arrays_and_reads_the_same_rows(run):
    d = taisim.load_decisions(run)
    want = {k: d[k].copy() for k in KEYS}
    # Dirtied, then refilled in place: the same array objects, the same rows.
    for k in KEYS:
        d[k][...] = 1
    again = taisim.load_decisions(run, out=d)
    for k in KEYS:
        assert again[k] is d[k], k
        assert again[k].dtype == want[k].dtype and (again[k] == want[k]).all(), k
    assert (again["obs_scale"] == d["obs_scale"]).all()
    assert again["obs_version"] == taisim.OBS_VERSION
    # Arrays the caller allocated, a uint8 mask, and a seat filter.
    east = taisim.load_decisions(run, seats="E")
    n = len(east["action"])
    mine = {k: np.empty_like(east[k]) for k in KEYS}
    mine["mask"] = np.empty(east["mask"].shape, np.uint8)
    got = taisim.load_decisions(run, seats="E", out=mine)
    for k in KEYS:
        assert got[k] is mine[k] and (got[k] == east[k]).all(), k
    assert n < len(want["action"])


def test_every_kind_of_destination_reads_the_same_rows(run):
    """Fresh arrays (loaded and dropped in a loop), arrays given back, and arrays written only
    at their ends (the loader skips mapping in arrays whose first and last pages are mapped;
    the pages between must fill all the same) hold the same rows."""
    want = {k: taisim.load_decisions(run)[k].copy() for k in KEYS}
    for _ in range(3):
        d = taisim.load_decisions(run)
        assert all((d[k] == want[k]).all() for k in KEYS)
        d = taisim.load_decisions(run, out=d)
        assert all((d[k] == want[k]).all() for k in KEYS)
        del d
    ends = {k: np.zeros_like(want[k]) for k in KEYS}
    for k in KEYS:
        flat = ends[k].reshape(-1)
        flat[0] = flat[-1] = 1
    got = taisim.load_decisions(run, out=ends)
    assert all((got[k] == want[k]).all() for k in KEYS)


def test_out_of_the_wrong_size_or_type_is_refused_untouched(run):
    d = taisim.load_decisions(run)
    east = taisim.load_decisions(run, seats="E")
    for k in KEYS:
        east[k][...] = 0
    with pytest.raises(taisim.UsageError, match=f"hold {len(east['action'])} observations.* "
                                         f"{len(d['action'])} rows"):
        taisim.load_decisions(run, out=east)
    assert all(not east[k].any() for k in KEYS)
    bad = [
        ({"action": d["action"].astype(np.int32)}, "action.*int64"),
        ({"obs": d["obs"][:, :, ::2]}, "obs"),
        ({"obs": np.asfortranarray(d["obs"])}, "C-contiguous"),
        ({"reward": d["reward"][:-1]}, r"reward.*shape"),
        ({"deal": None}, "deal"),
    ]
    for change, message in bad:
        out = {**d, **change}
        if change.get("deal", 0) is None:
            del out["deal"]
        with pytest.raises(taisim.UsageError, match=message):
            taisim.load_decisions(run, out=out)


def test_pyarrow_reads_the_table(run):
    # Pinned in scripts/requirements.txt: a missing reader fails, it is not skipped.
    import pyarrow.parquet as pq
    table = pq.read_table(run / "decisions")
    d = taisim.load_decisions(run)
    assert table.num_rows == len(d["action"])
    assert table.column_names == ["deal_id", "step", "seat", "obs", "mask", "action", "reward",
                                  "obs_version", "variant"]
    first = table.slice(0, 1).to_pylist()[0]
    assert first["obs"] == d["obs"][0].tobytes()
    assert first["mask"] == d["mask"][0].astype(np.uint8).tobytes()
    assert first["variant"] == "taiwan16"
    assert first["action"] == d["action"][0]


def test_duckdb_reads_the_table(run):
    # Installed by scripts/python-env.sh (scripts/requirements-analysis.txt) before pytest.
    import duckdb
    path = os.path.join(run, "decisions", "*.parquet")
    n, seats = duckdb.sql(
        f"select count(*), count(distinct seat) from read_parquet('{path}')").fetchall()[0]
    assert n == len(taisim.load_decisions(run)["action"]) and seats == 4


def test_errors_name_the_problem(run, tmp_path):
    with pytest.raises(taisim.UsageError, match="nowhere"):
        taisim.load_decisions(tmp_path / "nowhere")
    plain = taisim.simulate(tmp_path / "plain", deals=20, threads=1)
    with pytest.raises(taisim.UsageError, match="no decisions table"):
        taisim.load_decisions(plain)
    with pytest.raises(taisim.UsageError, match="decision seats"):
        taisim.load_decisions(run, seats="X")
    with pytest.raises(taisim.UsageError, match="decision seats"):
        taisim.simulate(tmp_path / "bad", deals=5, decisions="EAST")
    cut = taisim.simulate(tmp_path / "cut", deals=50, threads=1, decisions="E")
    part = os.path.join(cut, "decisions", "part-00000.parquet")
    data = open(part, "rb").read()
    open(part, "wb").write(data[: len(data) // 2])
    # A damaged part is bad input, caught by its own kind (a ValueError).
    with pytest.raises(taisim.CorruptRunError, match="part-00000") as err:
        taisim.load_decisions(cut)
    assert isinstance(err.value, ValueError)


SEARCH_KEYS = ("search_action", "search_mean", "search_advantage", "search_rollouts")


def test_a_plain_table_has_no_search_labels(run):
    d = taisim.load_decisions(run)
    assert not any(k in d for k in SEARCH_KEYS)


@pytest.fixture(scope="module")
def labelled(tmp_path_factory):
    """Seats E and W played by greedy, S by the shipped policy, N by random; every decision
    labelled by search:16 (DAgger's labels: the states these agents reach)."""
    out = tmp_path_factory.mktemp("labelled") / "run"
    taisim.simulate(out, deals=4, seed=9, agents="greedy,trained,greedy,random", part_size=2,
                    threads=2, decisions="all", label_with="search:16")
    return out


def test_search_labels_load_in_the_action_space(labelled):
    d = taisim.load_decisions(labelled)
    n = len(d["action"])
    a = taisim.ACTION_SPACE_SIZE
    assert d["search_action"].dtype == np.int64 and d["search_action"].shape == (n,)
    assert d["search_mean"].dtype == np.float32 and d["search_mean"].shape == (n, a)
    assert d["search_advantage"].dtype == np.float32 and d["search_advantage"].shape == (n, a)
    assert d["search_rollouts"].dtype == np.uint32 and d["search_rollouts"].shape == (n, a)
    # Every row labelled, the labeller's choice legal; estimates only of legal actions, each
    # with its rollouts, NaN exactly where there are none.
    rows = np.arange(n)
    assert (d["search_action"] >= 0).all() and d["mask"][rows, d["search_action"]].all()
    estimated = d["search_rollouts"] > 0
    assert not (estimated & ~d["mask"]).any()
    assert (np.isnan(d["search_mean"]) == ~estimated).all()
    assert (np.isnan(d["search_advantage"]) == ~estimated).all()
    assert (d["search_rollouts"] <= 16).all() and estimated.any(axis=1).mean() > 0.5
    # The default (greedy's choice) is its own baseline: some estimate has advantage 0 at the
    # full budget in every searched row.
    searched = estimated.any(axis=1)
    zero = (d["search_advantage"] == 0) & (d["search_rollouts"] == 16)
    assert zero[searched].any(axis=1).all()
    # The seats played their own actions, which the labeller did not always pick.
    assert (d["search_action"] != d["action"]).any()


def test_search_labels_follow_the_seat_filter_and_out(labelled):
    d = taisim.load_decisions(labelled)
    keep = d["seat"] == 1
    s = taisim.load_decisions(labelled, seats="S")
    for k in SEARCH_KEYS:
        np.testing.assert_array_equal(s[k], d[k][keep], err_msg=k)
    again = taisim.load_decisions(labelled, out={k: d[k] for k in KEYS})
    for k in SEARCH_KEYS:
        np.testing.assert_array_equal(again[k], d[k], err_msg=k)


def test_a_labeller_must_be_a_search(tmp_path):
    with pytest.raises(taisim.UsageError, match="search or search:N"):
        taisim.simulate(tmp_path / "x", deals=2, decisions="all", label_with="greedy")
    with pytest.raises(taisim.UsageError, match="record decisions too"):
        taisim.simulate(tmp_path / "y", deals=2, label_with="search:4")


def test_out_arrays_that_share_memory_are_refused_untouched(run):
    d = taisim.load_decisions(run)
    n = len(d["action"])
    want = {k: d[k].copy() for k in KEYS}
    views = [
        ("seat", lambda d: d["action"].view(np.uint8)[:n], "action"),
        ("step", lambda d: d["deal"].view(np.uint32)[:n], "deal"),
        ("reward", lambda d: d["deal"].view(np.float32)[n:], "deal"),
        ("mask", lambda d: d["obs"].reshape(-1)[: n * taisim.ACTION_SPACE_SIZE].reshape(n, -1),
         "obs"),
    ]
    for key, view, under in views:
        out = {k: d[k] for k in KEYS}
        out[key] = view(out)
        with pytest.raises(taisim.UsageError, match="share memory") as err:
            taisim.load_decisions(run, out=out)
        assert f"out[{key!r}]" in str(err.value) and f"out[{under!r}]" in str(err.value)
        for k in KEYS:
            assert (d[k] == want[k]).all(), k


def rewritten_run(tmp_path, change, **write):
    """A fresh run whose first decisions part is written again by PyArrow (valid Parquet, its
    manifest record updated) with ``change(columns)`` applied to its columns as numpy
    arrays."""
    import hashlib
    import pyarrow as pa
    import pyarrow.parquet as pq

    run = tmp_path / "run"
    taisim.simulate(run, deals=30, seed=3, threads=1, decisions="all")
    part = run / "decisions" / "part-00000.parquet"
    table = pq.read_table(part)
    n = table.num_rows
    cols = {
        "obs": np.frombuffer(b"".join(table["obs"].to_pylist()), np.uint8).reshape(n, -1).copy(),
        "mask": np.frombuffer(b"".join(table["mask"].to_pylist()), np.uint8).reshape(n, -1).copy(),
        "action": table["action"].to_numpy().copy(),
        "reward": table["reward"].to_numpy().copy(),
    }
    change(cols)
    for name in cols:
        field = table.schema.field(name)
        values = cols[name]
        if values.ndim == 2:
            values = [row.tobytes() for row in values]
        table = table.set_column(table.schema.get_field_index(name), field,
                                 pa.array(values, type=field.type))
    pq.write_table(table, part, **write)
    manifest = json.loads((run / "manifest.json").read_text())
    record = manifest["parts"][0]["decisions"]
    data = part.read_bytes()
    record["bytes"], record["sha256"] = len(data), hashlib.sha256(data).hexdigest()
    (run / "manifest.json").write_text(json.dumps(manifest))
    return run, table["seat"].to_numpy()


@pytest.mark.parametrize("write", [{"compression": "none"},
                                   {"use_dictionary": False, "compression": "zstd"}],
                         ids=["arrow-path", "page-path"])
def test_impossible_rows_in_valid_parquet_are_corrupt(tmp_path, write):
    """A part rewritten with valid Parquet whose rows no run can hold: a NaN reward, an action
    its own mask forbids, an observation numerator above its denominator (outside the
    observation space once scaled). Each is a CorruptRunError naming the file and row."""
    row = 5

    def nan_reward(c):
        c["reward"][row] = np.nan

    def forbidden_action(c):
        c["mask"][row, c["action"][row]] = 0

    def numerator(c):
        c["obs"][row, 3] = 255

    cases = [(nan_reward, "reward is nan"), (forbidden_action, "not legal by its own mask"),
             (numerator, r"observation cell \(row 0, column 3\) holds 255/4")]
    for i, (change, message) in enumerate(cases):
        run, seats = rewritten_run(tmp_path / str(i), change, **write)
        with pytest.raises(taisim.CorruptRunError,
                           match=f"(?i)part-00000.parquet.*row {row}: .*{message}"):
            taisim.load_decisions(run)
        # Read through a seat filter, the row is still named by its place in the file.
        with pytest.raises(taisim.CorruptRunError, match=f"(?i)row {row}: .*{message}"):
            taisim.load_decisions(run, seats="ESWN"[seats[row]])
    untouched, _ = rewritten_run(tmp_path / "same", lambda c: None, **write)
    assert len(taisim.load_decisions(untouched)["action"]) > row
