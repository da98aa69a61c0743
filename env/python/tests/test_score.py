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
    with pytest.raises(ValueError, match="unknown field"):
        taisim.score({"hand": "123m", "win": "discard", "seat": "E", "colour": "red"})
    with pytest.raises(ValueError):
        taisim.score({"hand": "11111m 456p", "win": "discard", "seat": "E", "win_tile": "1m"})
    with pytest.raises(ValueError):
        taisim.score({"hand": "123m 456m", "win": "self_draw", "seat": "E", "win_tile": "1m"})
    with pytest.raises(TypeError):
        taisim.score("123m")
