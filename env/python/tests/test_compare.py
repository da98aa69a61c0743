"""taisim.compare: `taisim compare --json` from Python (issue 25)."""

import pytest

import taisim


def _run(path, seed, variant="taiwan16", agents="greedy"):
    return taisim.simulate(path, deals=200, seed=seed, agents=agents, variant=variant,
                           part_size=80, threads=2)


def test_two_tables_on_the_same_walls(tmp_path):
    flat = tmp_path / "flat.toml"
    flat.write_text('extends = "taiwan16"\nname = "flat"\n[patterns]\nself_draw = 2\n')
    a = _run(tmp_path / "a", 7)
    b = _run(tmp_path / "b", 7, variant=str(flat))
    c = taisim.compare(a, tmp_path / "b")
    assert c["deals"] == 200
    assert c["a"]["variant"]["name"] == "taiwan16" and c["b"]["variant"]["name"] == "flat"
    assert c["a"]["responds_to_scoring"] == [False] * 4
    assert any("no agent here responds" in w for w in c["warnings"])
    # Greedy ignores the table: the same play, one more tai for each self-drawn 自摸 win.
    assert c["outcome_changed"]["count"] == 0
    assert c["per_deal"]["won"]["difference"] == 0.0
    assert c["per_win"]["tai_per_win"]["difference"] > 0
    lo, hi = c["per_win"]["tai_per_win"]["ci95"]
    assert lo <= c["per_win"]["tai_per_win"]["difference"] <= hi
    ids = {p["id"] for p in c["patterns"]}
    assert "self_draw" in ids


def test_a_run_against_itself_and_other_walls(tmp_path):
    a = _run(tmp_path / "a", 3, agents="greedy,random,defensive,greedy")
    c = taisim.compare(a, a, verify_checksums=False)
    for figure in [*c["per_deal"].values(), *c["per_win"].values(), *(p["share"] for p in c["patterns"])]:
        assert figure["difference"] == 0.0
        assert figure["ci95"] == [0.0, 0.0]
    b = _run(tmp_path / "b", 4)
    with pytest.raises(ValueError, match="not played on the same walls: A's seed is 3, B's is 4"):
        taisim.compare(a, b)
    with pytest.raises(ValueError, match="manifest"):
        taisim.compare(a, tmp_path)
