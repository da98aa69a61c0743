"""taisim.score: the same scorer as `taisim score --json`."""

import pytest

import taisim


def test_scores_a_concealed_self_draw():
    # taiwan16 (README): 門清一摸三 3, and 99s waits on 9s alone: 獨聽 1.
    out = taisim.score(
        {"hand": "123m 456m 789m 234p 99s 345s", "win_tile": "9s", "win": "self_draw", "seat": "S",
         "base": 10, "per_tai": 5}
    )
    assert out["total_tai"] == 4
    ids = {p["id"] for p in out["patterns"]}
    assert "concealed_self_draw" in ids
    assert all({"id", "name", "name_en", "tai"} <= p.keys() for p in out["patterns"])
    assert sum(out["settlement"].values()) == 0
    assert out["settlement"]["S"] > 0


def test_impossible_requests_raise_value_error():
    with pytest.raises(taisim.ScoreRequestError, match="unknown field"):
        taisim.score({"hand": "123m", "win": "discard", "seat": "E", "colour": "red"})
    # A variant that cannot be used is its own kind; both are ValueErrors.
    with pytest.raises(taisim.VariantError, match="no such variant"):
        taisim.score(dict(SELF_DRAW, variant="taiwan17"))
    assert issubclass(taisim.ScoreRequestError, ValueError)
    assert issubclass(taisim.VariantError, ValueError)
    with pytest.raises(taisim.ScoreRequestError):
        taisim.score({"hand": "11111m 456p", "win": "discard", "seat": "E", "win_tile": "1m"})
    with pytest.raises(taisim.ScoreRequestError):
        taisim.score({"hand": "123m 456m", "win": "self_draw", "seat": "E", "win_tile": "1m"})
    with pytest.raises(TypeError):
        taisim.score("123m")


SELF_DRAW = {"hand": "123m 456m 789m 234p 99s 345s", "win_tile": "9s", "win": "self_draw", "seat": "S"}


def test_score_many_matches_score_in_order():
    requests = [
        SELF_DRAW,
        dict(SELF_DRAW, variant="taiwan16-house", base=10, per_tai=5),
        dict(SELF_DRAW, variant="mahjongtime", win="discard", discarder="E"),
    ]
    assert taisim.score_many(requests) == [taisim.score(r) for r in requests]
    assert taisim.score_many([]) == []


def test_score_many_errors():
    bad = {"hand": "11111m 456p", "win": "discard", "seat": "E", "win_tile": "1m"}
    with pytest.raises(taisim.ScoreRequestError, match="request 1: "):
        taisim.score_many([SELF_DRAW, bad])
    with pytest.raises(taisim.VariantError, match="request 1: "):
        taisim.score_many([SELF_DRAW, dict(SELF_DRAW, variant="taiwan17")])
    out = taisim.score_many([SELF_DRAW, bad, SELF_DRAW], errors="return")
    assert out[0] == out[2] == taisim.score(SELF_DRAW)
    assert set(out[1]) == {"error"} and out[1]["error"]
    with pytest.raises(TypeError, match="request 0"):
        taisim.score_many(["123m"])
    with pytest.raises(taisim.UsageError, match="errors"):
        taisim.score_many([SELF_DRAW], errors="ignore")


def test_cached_variant_file_is_reread_when_it_changes(tmp_path):
    import os
    import pathlib

    shipped = pathlib.Path(__file__).resolve().parents[3] / "score" / "variants" / "taiwan16.toml"
    path = tmp_path / "mine.toml"
    text = shipped.read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    first = taisim.score(dict(SELF_DRAW, variant=path))
    assert first == taisim.score(SELF_DRAW) | {"variant": first["variant"]}
    # A new name in the file, and a later modification time: the cache must not serve the old one.
    path.write_text(text.replace('name = "taiwan16"', 'name = "mine"', 1), encoding="utf-8")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5_000_000_000))
    assert taisim.score(dict(SELF_DRAW, variant=str(path)))["variant"] == "mine"


def test_numpy_numbers_are_taken_as_the_environments_take_them():
    import numpy as np

    plain = dict(SELF_DRAW, base=10, per_tai=5, dealer_streak=1, seat="E")
    numpy = dict(plain, base=np.int64(10), per_tai=np.int32(5), dealer_streak=np.uint8(1))
    assert taisim.score(numpy) == taisim.score(plain)
    assert taisim.score_many([numpy]) == [taisim.score(plain)]


def test_numbers_json_would_lose_are_named_by_field():
    """An int past 64 bits reached the scorer as a float ("invalid type: floating point
    1.18e21") and a NaN as text that is no JSON ("expected value at line 1"), neither naming
    the field."""
    import numpy as np

    for value in (2**70, -(2**70), 2**63):
        with pytest.raises(taisim.ScoreRequestError, match=f"^base = {value} is out of range"):
            taisim.score(dict(SELF_DRAW, base=value, per_tai=5))
    for value in (float("nan"), np.float32("nan")):
        with pytest.raises(taisim.ScoreRequestError, match="^base is NaN, not a number$"):
            taisim.score(dict(SELF_DRAW, base=value, per_tai=5))
    with pytest.raises(taisim.ScoreRequestError, match=r"^others\.W\.melds\[0\]\[1\] is inf, "
                                                      r"not a finite number$"):
        taisim.score(dict(SELF_DRAW, others={"W": {"melds": [["pung", float("inf")]]}}))
    bad = dict(SELF_DRAW, base=float("nan"))
    with pytest.raises(taisim.ScoreRequestError, match="^request 1: base is NaN, not a number$"):
        taisim.score_many([SELF_DRAW, bad, SELF_DRAW])
    out = taisim.score_many([SELF_DRAW, bad, SELF_DRAW], errors="return")
    assert out == [taisim.score(SELF_DRAW), {"error": "base is NaN, not a number"},
                   taisim.score(SELF_DRAW)]
    with pytest.raises(TypeError, match="per_tai is a object"):
        taisim.score(dict(SELF_DRAW, per_tai=object()))
