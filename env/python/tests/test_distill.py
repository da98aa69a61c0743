"""The distillation recipe's whole path, tiny, in seconds on CPU (scripts/distill_policy.py):
a search-labelled dataset (``simulate(label_with=...)``) -> distillation of the per-kind policy
-> one DAgger round (the student's own deals, labelled by the search) -> export -> the Rust
agent plays it -> the arena on the validation seed picks the round. Also: a resumed run makes
exactly the updates of one never stopped, the losses are what they say, and masked PPO with a
KL penalty starts from the distilled policy (scripts/train_policy.py --init --kl-coef)."""

import csv
import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import taisim
from rl_extras import rl_import

torch = rl_import("torch")

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "scripts"))


def load(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


dp = load("distill_policy")
tp = load("train_policy")

TINY = ["--seed", "3", "--threads", "1", "--hidden", "32", "--kind-hidden", "8",
        "--batch", "64", "--epochs", "2", "--round-epochs", "1", "--teacher", "search:8",
        "--dagger-deals", "2", "--val-deals", "3", "--heldout-every", "2"]


@pytest.fixture(scope="module")
def labels(tmp_path_factory):
    out = tmp_path_factory.mktemp("labels") / "run"
    return taisim.simulate(out, deals=4, seed=1, agents="greedy", decisions="all",
                           label_with="search:8", threads=1)


def test_the_whole_path_distils_improves_exports_plays_and_selects(labels, tmp_path):
    out = tmp_path / "distill"
    policy = dp.main(["--out", str(out), "--data", labels, "--dagger-rounds", "1",
                      "--soft-weight", "0.5", *TINY])
    rows = list(csv.DictReader(open(out / "metrics.csv")))
    assert [r["phase"] for r in rows] == ["distill", "distill", "validation", "distill",
                                          "validation"]
    assert [r["round"] for r in rows] == ["0", "0", "0", "1", "1"]
    assert all(0.0 <= float(r["heldout_agreement"]) <= 1.0 for r in rows if r["phase"] == "distill")
    # The round's data are the student's own deals, labelled by the teacher.
    manifest = json.loads((out / "dagger-1" / "manifest.json").read_text())
    assert manifest["spec"]["label_with"] == "search:8"
    assert manifest["spec"]["agents"] == [f"policy:{out / 'round-0.safetensors'}"] * 4
    assert int(rows[3]["decisions"]) > int(rows[0]["decisions"])
    # The policy kept is the round of the best validation, on the validation seed.
    selection = json.loads((out / "selection.json").read_text())
    best = max(selection["validations"], key=lambda v: v["mean_diff"])
    assert selection["chosen_round"] == best["round"]
    assert all(v["seed"] == 2**41 and v["deals"] == 3 for v in selection["validations"])
    assert Path(policy).read_bytes() == (out / f"round-{best['round']}.safetensors").read_bytes()
    # The Rust agent plays the file, in a run and in the arena.
    run = taisim.simulate(tmp_path / "plays", deals=2, seed=2, agents=f"policy:{policy}",
                          threads=1)
    assert json.loads((Path(run) / "manifest.json").read_text())["status"] == "complete"
    duel = taisim.arena(f"policy:{policy}", "greedy", deals=2, seed=5, threads=1)
    assert duel["deals"] == 2 and duel["deals_played"] == 10
    # What Rust scores is what the torch module scores.
    module = taisim.torch_policy.load_policy(policy)
    obs = np.random.default_rng(0).integers(0, 2, (5, *taisim.OBS_SHAPE)).astype(np.float32)
    with torch.no_grad():
        mine = module(torch.from_numpy(obs)).numpy()
    np.testing.assert_allclose(taisim.policy_logits(policy, obs), mine, rtol=1e-4, atol=1e-4)


def test_a_resumed_run_equals_one_never_stopped(labels, tmp_path):
    whole = tmp_path / "whole"
    dp.main(["--out", str(whole), "--data", labels, "--dagger-rounds", "1", *TINY])
    cut = tmp_path / "cut"
    dp.main(["--out", str(cut), "--data", labels, "--dagger-rounds", "0", *TINY])
    dp.main(["--out", str(cut), "--data", labels, "--dagger-rounds", "1", "--resume", *TINY])
    for name in ("round-0.safetensors", "round-1.safetensors", "policy.safetensors"):
        assert (whole / name).read_bytes() == (cut / name).read_bytes(), name
    strip = lambda p: [{k: v for k, v in r.items() if k != "elapsed_s"}  # noqa: E731
                       for r in csv.DictReader(open(p / "metrics.csv"))]
    assert strip(whole) == strip(cut)


def test_warm_start_and_refusals(labels, tmp_path):
    # --init trained with the shipped policy's shape: its scores before any update.
    model = tp.PolicyNet((256, 256), 64)
    tp.init_from_policy(model, "trained")
    path = taisim.export_policy(model.policy(), tmp_path / "again.safetensors")
    obs = np.random.default_rng(1).integers(0, 2, (4, *taisim.OBS_SHAPE)).astype(np.float32)
    trained = taisim.torch_policy.load_policy("trained")
    with torch.no_grad():
        np.testing.assert_allclose(taisim.policy_logits(path, obs),
                                   trained(torch.from_numpy(obs)).numpy(), rtol=1e-4, atol=1e-3)
    # The shipped file's torch module scores as the Rust agent scores the file.
    shipped = tmp_path / "shipped.safetensors"
    shipped.write_bytes(taisim._native.trained_policy_bytes())
    assert taisim.policy_metadata(shipped)["obs_version"] == str(taisim.OBS_VERSION)
    with torch.no_grad():
        np.testing.assert_allclose(taisim.policy_logits(shipped, obs),
                                   trained(torch.from_numpy(obs)).numpy(), rtol=1e-4, atol=1e-3)
    # A file of an older layout (version 2, which the current one extends): the torch module,
    # given zero weights for the rows appended since, scores the current observation (every
    # row set at random here) as the Rust agent scores it from the file.
    old = ROOT / "tests" / "fixtures" / "policy_obs_v2.safetensors"
    assert taisim.policy_metadata(old)["obs_version"] == "2"
    with torch.no_grad():
        np.testing.assert_allclose(taisim.policy_logits(old, obs),
                                   taisim.torch_policy.load_policy(old)(
                                       torch.from_numpy(obs.reshape(len(obs), -1))).numpy(),
                                   rtol=1e-4, atol=1e-3)
    with pytest.raises(SystemExit, match="--hidden"):
        tp.init_from_policy(tp.PolicyNet((32,), 8), "trained")
    with pytest.raises(SystemExit, match="evaluation seed"):
        dp.main(["--out", str(tmp_path / "x"), "--data", labels, "--val-seed", str(2**40)])
    plain = taisim.simulate(tmp_path / "plain", deals=2, agents="greedy", decisions="all")
    with pytest.raises(SystemExit, match="no search labels"):
        dp.main(["--out", str(tmp_path / "y"), "--data", plain, *TINY])


def test_losses_are_cross_entropies_to_the_choice_and_the_estimates():
    logits = torch.tensor([[1.0, 2.0, 0.0, 5.0]])
    mask = torch.tensor([[True, True, True, False]])
    action = torch.tensor([1])
    dp.A = 4
    try:
        hard = dp.distill_loss(logits, mask, action, None, 0.0, 1.0)
        logp = torch.log_softmax(torch.tensor([1.0, 2.0, 0.0]), 0)
        assert torch.isclose(hard, -logp[1])
        # Estimates of actions 0 and 1 only, 1 point apart at temperature 1.
        mean = torch.tensor([[0.0, 1.0, float("nan"), float("nan")]])
        target = torch.softmax(torch.tensor([0.0, 1.0]), 0)
        soft = dp.distill_loss(logits, mask, action, mean, 1.0, 1.0)
        assert torch.isclose(soft, -(target * logp[:2]).sum())
        mixed = dp.distill_loss(logits, mask, action, mean, 0.25, 1.0)
        assert torch.isclose(mixed, 0.75 * hard + 0.25 * soft)
        # A row without estimates keeps the choice as its target.
        none = torch.full((1, 4), float("nan"))
        assert torch.isclose(dp.distill_loss(logits, mask, action, none, 1.0, 1.0), hard)
    finally:
        dp.A = taisim.ACTION_SPACE_SIZE


def test_ppo_with_a_kl_penalty_starts_from_the_distilled_policy(labels, tmp_path):
    out = tmp_path / "distill"
    policy = dp.main(["--out", str(out), "--data", labels, "--val-deals", "0", *TINY])
    ppo = tmp_path / "ppo"
    tp.main(["--out", str(ppo), "--seed", "5", "--threads", "1", "--hidden", "32",
             "--kind-hidden", "8", "--init", policy, "--kl-coef", "0.5", "--steps", "512",
             "--num-envs", "16", "--rollout", "16", "--minibatch", "128", "--eval-deals", "0"])
    rows = [r for r in csv.DictReader(open(ppo / "metrics.csv")) if r["phase"] == "ppo"]
    assert len(rows) == 2
    # The first update starts at the reference: no divergence yet to speak of.
    assert 0.0 <= float(rows[0]["kl_to_reference"]) < 1e-3 <= float(rows[1]["kl_to_reference"]) + 1e-3
    with pytest.raises(SystemExit):
        tp.parse_args(["--out", str(ppo), "--kl-coef", "0.1"])


def test_small_deviations_from_the_default_become_the_default():
    nan = np.nan
    # Row 0: the search chose action 2 (0.3 points over its default, action 1): demoted.
    # Row 1: action 0 by 0.8 points: kept. Row 2: the default itself. Row 3: no estimates
    # (a win taken): kept. Row 4: action 0, dropped early (fewer rollouts) yet chosen.
    advantage = np.array([[-0.5, 0.0, 0.3], [0.8, 0.0, nan], [0.0, -0.2, nan],
                          [nan, nan, nan], [0.6, nan, 0.0]], dtype=np.float32)
    rollouts = np.array([[64, 256, 256], [256, 256, 0], [256, 256, 0], [0, 0, 0],
                         [64, 0, 256]], dtype=np.uint32)
    action = np.array([2, 0, 0, 1, 0])
    got = dp.conservative(action, advantage, rollouts, 0.5)
    assert got.tolist() == [1, 0, 0, 1, 0]
    assert action.tolist() == [2, 0, 0, 1, 0], "the labels given are left as they were"
    assert dp.conservative(action, advantage, rollouts, 0.25).tolist() == [2, 0, 0, 1, 0]


def test_a_residual_student_is_validated_at_each_margin_and_never_below_greedy_by_design(
        labels, tmp_path):
    out = tmp_path / "residual"
    policy = dp.main(["--out", str(out), "--data", labels, "--residual", "--margins",
                      "0.5,1000000", *TINY])
    selection = json.loads((out / "selection.json").read_text())
    assert [v["policy"] for v in selection["validations"]] == [
        "round-0-margin-0.5.safetensors", "round-0-margin-1e+06.safetensors"]
    best = max(selection["validations"], key=lambda v: v["mean_diff"])
    assert Path(policy).read_bytes() == (out / best["policy"]).read_bytes()
    # A margin no score difference reaches: greedy's play, deal for deal.
    duel = taisim.arena(f"policy:{out / 'round-0-margin-1e+06.safetensors'}", "greedy",
                        deals=3, seed=5, threads=1)
    assert duel["mean_diff"] == 0.0
    assert duel["candidate_stats"] == duel["baseline_stats"]
    # The scores the torch module gives are the file's (the margin is the agent's, not the
    # network's).
    module = taisim.torch_policy.load_policy(policy)
    obs = np.random.default_rng(2).integers(0, 2, (3, *taisim.OBS_SHAPE)).astype(np.float32)
    with torch.no_grad():
        mine = module(torch.from_numpy(obs)).numpy()
    np.testing.assert_allclose(taisim.policy_logits(policy, obs), mine, rtol=1e-4, atol=1e-4)
    with pytest.raises(SystemExit, match="--margins"):
        dp.main(["--out", str(tmp_path / "z"), "--data", labels, "--residual", "--margins",
                 "-1", *TINY])
    with pytest.raises(taisim.PolicyError, match="greedy_margin"):
        taisim.export_policy(module, tmp_path / "bad.safetensors", greedy_margin=float("nan"))


def test_a_cautious_imitator_is_validated_plain_and_at_each_log_odds_margin(labels, tmp_path):
    out = tmp_path / "cautious"
    policy = dp.main(["--out", str(out), "--data", labels, "--margins", "1,1000000", *TINY])
    selection = json.loads((out / "selection.json").read_text())
    assert [v["policy"] for v in selection["validations"]] == [
        "round-0.safetensors", "round-0-margin-1.safetensors", "round-0-margin-1e+06.safetensors"]
    best = max(selection["validations"], key=lambda v: v["mean_diff"])
    assert Path(policy).read_bytes() == (out / best["policy"]).read_bytes()
    # The same network in every file; only the margin differs, and a margin no log-odds
    # reach plays greedy deal for deal.
    obs = np.random.default_rng(4).integers(0, 2, (3, *taisim.OBS_SHAPE)).astype(np.float32)
    np.testing.assert_array_equal(taisim.policy_logits(out / "round-0.safetensors", obs),
                                  taisim.policy_logits(out / "round-0-margin-1.safetensors", obs))
    duel = taisim.arena(f"policy:{out / 'round-0-margin-1e+06.safetensors'}", "greedy",
                        deals=3, seed=5, threads=1)
    assert duel["mean_diff"] == 0.0
    with pytest.raises(SystemExit, match="--margins"):
        dp.main(["--out", str(tmp_path / "z"), "--data", labels, "--margins", "x", *TINY])


def test_the_residual_loss_regresses_the_estimated_advantages():
    scores = torch.tensor([[0.5, 0.0, -1.0, 7.0]])
    mask = torch.tensor([[True, True, True, False]])
    nan = float("nan")
    # Action 1 is the default (0), action 0 estimated +1.5, action 2 pruned, 3 illegal.
    advantage = torch.tensor([[1.5, 0.0, nan, nan]])
    loss = dp.residual_loss(scores, mask, advantage, -2.0)
    huber = torch.nn.functional.huber_loss
    want = (huber(torch.tensor(0.5), torch.tensor(1.5), delta=2.0)
            + huber(torch.tensor(0.0), torch.tensor(0.0), delta=2.0)
            + 0.1 * huber(torch.tensor(-1.0), torch.tensor(-2.0), delta=2.0)) / 2.1
    assert torch.isclose(loss, want)


def test_decisions_at_keeps_the_offers_or_the_turns_and_splits_the_data(labels):
    """``--decisions-at``: the answers to a discard (passing legal) or one's own turns (not),
    the two together every labelled row; the pass index is the action space's own."""
    assert taisim.action_name(dp.PASS) == "pass"
    whole = dp.Labelled([labels], False)
    offers = dp.Labelled([labels], False, at="offers")
    turns = dp.Labelled([labels], False, at="turns")
    assert len(offers) > 0 and len(turns) > 0
    assert len(offers) + len(turns) == len(whole)
    assert bool(offers.mask[:, dp.PASS].all()) and not bool(turns.mask[:, dp.PASS].any())
    out = dp.parse_args(["--out", "x", "--data", labels, "--decisions-at", "offers"])
    assert out.decisions_at == "offers"
    with pytest.raises(SystemExit):
        dp.parse_args(["--out", "x", "--data", labels, "--decisions-at", "claims"])


def test_a_student_of_one_kind_of_decision_is_exported_to_decide_only_those(labels, tmp_path):
    """``--decisions-at turns``: every file the run writes decides only turns (greedy answers
    the offers, where the student learnt nothing); the plain run's files decide everything and
    say nothing of it (the files of earlier versions)."""
    out = tmp_path / "turns"
    policy = dp.main(["--out", str(out), "--data", labels, "--decisions-at", "turns",
                      "--margins", "1", *TINY])
    files = sorted(out.glob("round-*.safetensors"))
    assert [f.name for f in files] == ["round-0-margin-1.safetensors", "round-0.safetensors"]
    assert all(taisim.policy_metadata(f)["decides"] == "turns" for f in files)
    assert taisim.policy_metadata(policy)["decides"] == "turns"
    duel = taisim.arena(f"policy:{policy}", "greedy", deals=2, seed=5, threads=1)
    assert duel["deals"] == 2
    module = taisim.torch_policy.load_policy(policy)
    plain = taisim.export_policy(module, tmp_path / "plain.safetensors")
    assert "decides" not in taisim.policy_metadata(plain)
    offers = taisim.export_policy(module, tmp_path / "offers.safetensors", decides="offers")
    assert taisim.policy_metadata(offers)["decides"] == "offers"
    with pytest.raises(taisim.PolicyError, match="decides.*all, turns or offers"):
        taisim.export_policy(module, tmp_path / "bad.safetensors", decides="claims")
    assert not (tmp_path / "bad.safetensors").exists()
