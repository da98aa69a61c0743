"""The observation's rows by name (``taisim.obs_rows``), named from the layout's own offsets in
Rust, checked against what the environment actually writes in them."""

import numpy as np
import pytest

import taisim


def test_every_row_of_every_version_is_named_once():
    rows = taisim.obs_rows()
    assert len(rows) == taisim.OBS_SHAPE[0]
    assert [r.index for r in rows] == list(range(len(rows)))
    assert len({r.name for r in rows}) == len(rows)
    assert all(r.meaning for r in rows)
    # Rows were only appended: versions 1, 2 and 3 are prefixes, of 59, 60 and 64 rows.
    for version, n in ((1, 59), (2, 60), (3, 64)):
        old = taisim.obs_rows(version)
        assert len(old) == n and old == rows[:n]
    assert taisim.obs_rows(taisim.OBS_VERSION) == rows
    for bad in (0, taisim.OBS_VERSION + 1, -1):
        with pytest.raises(taisim.UsageError, match="observation version"):
            taisim.obs_rows(bad)
    with pytest.raises(TypeError):
        taisim.obs_rows("3")
    with pytest.raises(TypeError):
        taisim.obs_rows(np.bool_(True))
    # A numpy integer is an int here as in every other argument (a version read from a file
    # of arrays, a policy's metadata parsed by numpy).
    for kind in (np.int64, np.uint8, np.int32):
        assert taisim.obs_rows(kind(3)) == taisim.obs_rows(3)
        assert taisim.obs_rows(kind(taisim.OBS_VERSION)) == rows
    with pytest.raises(taisim.UsageError, match="observation version"):
        taisim.obs_rows(np.uint64(2**64 - 1))
    scalars = taisim.obs_scalar_columns()
    assert len(scalars) == taisim.OBS_SHAPE[1] and len(set(scalars)) == len(scalars)


def test_the_names_say_what_the_rows_hold():
    names = [r.name for r in taisim.obs_rows()]
    row = names.index
    col = taisim.obs_scalar_columns().index
    seats = "ESWN"
    for seed in range(4):
        env = taisim.Env(opponents="greedy", seat="E")
        obs, info = env.reset(seed=seed)
        # The seat and round winds, one-hot on their wind tiles (E S W N are kinds 27..30):
        # the dealer sits East.
        wind = (seats.index(info["seat"]) - seats.index(info["dealer"])) % 4
        assert np.flatnonzero(obs[row("seat_wind")]).tolist() == [27 + wind]
        assert np.flatnonzero(obs[row("round_wind")]).tolist() == [27 + seats.index(info["round_wind"])]
        # The dealer by relative seat: self, next, across, previous.
        dealer = (seats.index(info["dealer"]) - seats.index(info["seat"])) % 4
        relative = ("self", "next", "across", "previous")
        scalars = obs[row("scalars")]
        assert [scalars[col(f"dealer_{r}")] for r in relative] == [
            1.0 if i == dealer else 0.0 for i in range(4)]
        # Asked on its own turn, with a tile just drawn among the tiles it holds.
        assert scalars[col("turn")] == 1.0 and scalars[col("responding")] == 0.0
        assert obs[row("drawn")].sum() == 1.0
        assert (obs[row("drawn")] <= obs[row("hand_1")]).all()
        # The thresholds nest: >= 2 copies only where >= 1.
        assert (obs[row("hand_2")] <= obs[row("hand_1")]).all()
        # On a discard turn best_discard marks held kinds only.
        assert obs[row("best_discard")].sum() >= 1
        assert (obs[row("best_discard")] <= obs[row("hand_1")]).all()
