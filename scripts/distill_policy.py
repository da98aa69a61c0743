#!/usr/bin/env python3
"""Distils the search agent into a fast policy network (expert iteration): the per-kind policy
is trained on search-labelled decisions, then improved by DAgger rounds (the states the
student reaches, labelled by the search), each round's policy scored in the arena on a
validation seed and the best one kept.

    taisim simulate --decisions all --agents greedy --label-with search:256 \\
        --deals 2000 --seed 1 --out runs/labels
    python scripts/distill_policy.py --out runs/distill --data runs/labels \\
        --init trained --teacher search:256 --dagger-rounds 2 --dagger-deals 1000

Data. ``--data`` names runs of ``taisim simulate --decisions`` whose rows carry search labels
(a search agent at the recorded seats, or ``--label-with search:N``; ``taisim.load_decisions``
returns them as ``search_action``, ``search_mean``, ...). Rows no search decided are left out.
``--decisions-at offers`` (or ``turns``) keeps only the answers to a discard (or only one's own
turns), and the student is exported to decide only those (its policy files' ``decides``):
greedy makes the other kind of decision, where the student learnt nothing.

Targets. The loss is the cross-entropy to the search's choice (with ``--min-advantage A``,
to its default, greedy's choice, wherever its choice beats that by less than ``A`` points:
the search's small deviations are mostly its rollouts' noise), mixed (``--soft-weight w``)
with the cross-entropy to a softmax of its estimates, ``softmax(search_mean / T)`` over the
actions it estimated (``--temperature T``, in points); a row without estimates (a win taken)
keeps its choice as the target.

DAgger. Each round exports the current student, plays ``--dagger-deals`` deals with it
(``--dagger-agents``, the student in every seat by default) while ``--teacher`` labels every
decision (``taisim.simulate(..., label_with=teacher)``), adds them to the data and trains
``--epochs`` more epochs on everything gathered. Round ``k``'s deals are seeded
``--dagger-seed + k`` (small seeds, never 2**40 or 2**41).

Residual students (``--residual``). Instead of imitating the search's choice, the network
regresses the search's estimate of every action's advantage over greedy's choice (points,
Huber loss; legal actions the search's prior did not estimate count as ``--pruned-advantage``
at a tenth of the weight; only the decisions the search estimated), and is exported as a
residual policy over greedy: the agent plays greedy's choice (always a win greedy takes)
unless the action it scores highest scores more than a margin above it (the policy file's
``greedy_margin``). A student that learnt little then plays as greedy, not
worse; it leaves greedy only where it learnt the search gains. Each round is validated at
every margin of ``--margins`` and the best (round, margin) is kept.

Cautious imitators (``--margins`` without ``--residual``). The network imitates the search's
choice as above, and each round is also exported as a residual policy over greedy whose
margin is in log-odds: the student leaves greedy's choice only for an action it finds more
than ``exp(m)`` times as likely to be the search's. A teacher that rarely departs (plain
``search``: about 7% of its decisions) teaches a clone to depart where it is sure, and to
play greedy where it is not.

Selection. After the first distillation and after each round the policy is played against
``--val-baseline`` in the duplicate arena for ``--val-deals`` walls on ``--val-seed``
(default 2**41, the validation seed of the README's recipe; never 2**40, the evaluation
seed) and the best one is written to ``OUT/policy.safetensors``. One deal in
``--heldout-every`` (20) is held out to report agreement with the search.

Written under ``--out``: ``metrics.csv`` (one row per epoch and per validation; TensorBoard
files in ``tb/`` too when ``tensorboard`` is installed), ``checkpoint.pt`` (rewritten after
every epoch; ``--resume`` continues from it, and a resumed run makes the same updates as one
never stopped on the same device, thread count and torch version), ``round-K.safetensors``
(each round's student), ``dagger-K/`` (each round's labelled run, resumed if cut short),
``policy.safetensors`` (the best on validation) and ``selection.json`` (every validation).
Optional afterwards: masked PPO with a KL penalty back to the distilled policy,
``scripts/train_policy.py --init OUT/policy.safetensors --kl-coef C`` (see its help).
"""

import argparse
import json
import os
import shutil
import sys

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import taisim  # noqa: E402
from train_policy import A, Log, PolicyNet, init_from_policy, masked, prepare  # noqa: E402

CHECKPOINT = "checkpoint.pt"
# The action index of passing (declining a claim): legal exactly when answering an offer.
PASS = next(i for i in range(taisim.ACTION_SPACE_SIZE) if taisim.action_name(i) == "pass")
POLICY = "policy.safetensors"
VALIDATION_SEED = 2**41
EVALUATION_SEED = 2**40


class Labelled:
    """Search-labelled decisions of one or more runs, kept as stored (observations one byte a
    cell, made floats a minibatch at a time); only rows a search decided."""

    def __init__(self, runs, soft, heldout_every=20, min_advantage=None, residual=False,
                 at="all"):
        obs, mask, action, mean, held = [], [], [], [], []
        advantage = []
        self.scale = None
        for run in runs:
            d = taisim.load_decisions(run)
            if "search_action" not in d:
                raise SystemExit(f"distill_policy: {run} has no search labels; record it with "
                                 f"search agents at the recorded seats or --label-with search:N")
            if d["obs_version"] != taisim.OBS_VERSION:
                raise SystemExit(f"distill_policy: {run} holds observation version "
                                 f"{d['obs_version']}; this build encodes {taisim.OBS_VERSION}")
            keep = d["search_action"] >= 0
            if residual:
                # Only the decisions the search estimated (a win it takes, or a single legal
                # action, teaches a residual nothing: the agent plays greedy's win itself).
                keep &= (d["search_rollouts"] > 0).any(axis=1)
            if at != "all":
                offer = d["mask"][:, PASS] > 0
                keep &= offer if at == "offers" else ~offer
            obs.append(d["obs"][keep].reshape(int(keep.sum()), -1))
            mask.append(d["mask"][keep])
            target = d["search_action"][keep]
            if min_advantage is not None:
                target = conservative(target, d["search_advantage"][keep],
                                      d["search_rollouts"][keep], min_advantage)
            action.append(target)
            if soft:
                mean.append(d["search_mean"][keep])
            if residual:
                advantage.append(d["search_advantage"][keep])
            # Whole deals held out (the last of every `heldout_every`): the decisions of a
            # deal are alike.
            held.append(d["deal"][keep] % heldout_every == heldout_every - 1)
            self.scale = torch.from_numpy(np.asarray(d["obs_scale"], np.float32).reshape(-1))
        if not runs:
            raise SystemExit("distill_policy: no labelled runs")
        self.obs = torch.from_numpy(np.concatenate(obs))
        self.mask = torch.from_numpy(np.concatenate(mask).astype(bool))
        self.action = torch.from_numpy(np.concatenate(action).astype(np.int64))
        self.mean = torch.from_numpy(np.concatenate(mean)) if soft else None
        self.advantage = torch.from_numpy(np.concatenate(advantage)) if residual else None
        held = torch.from_numpy(np.concatenate(held))
        self.train = torch.nonzero(~held).squeeze(1)
        self.held = torch.nonzero(held).squeeze(1)
        if len(self.obs) and not self.mask[torch.arange(len(self.obs)), self.action].all():
            raise SystemExit("distill_policy: a search action outside its mask")

    def __len__(self):
        return len(self.obs)

    def batch(self, idx, device):
        obs = self.obs[idx].float() * self.scale
        out = [obs.to(device), self.mask[idx].to(device), self.action[idx].to(device)]
        out.append(self.mean[idx].to(device) if self.mean is not None else None)
        out.append(self.advantage[idx].to(device) if self.advantage is not None else None)
        return out


def conservative(action, advantage, rollouts, min_advantage):
    """The search's choice where its advantage over the search's default (greedy's choice)
    is at least ``min_advantage`` points, else the default: the search plays another action
    than greedy's when its paired advantage passes one standard error, which a few hundred
    rollouts often give to noise. The default is the action played on every determinization
    with an advantage of exactly 0; a row without estimates keeps its choice."""
    action = action.copy()
    rows = np.arange(len(action))
    most = rollouts.max(axis=1)
    default = (advantage == 0) & (rollouts == most[:, None]) & (rollouts > 0)
    chosen = advantage[rows, action]
    demote = (most > 0) & ~default[rows, action] & ~(chosen >= min_advantage)
    action[demote] = default[demote].argmax(axis=1)
    return action


def distill_loss(logits, mask, action, mean, soft_weight, temperature):
    """Cross-entropy to the search's choice, mixed with the cross-entropy to the softmax of
    its estimates (``mean / temperature``) where it estimated any action."""
    logp = torch.log_softmax(masked(logits, mask), 1)
    hard = -logp.gather(1, action[:, None]).squeeze(1)
    if mean is None or soft_weight == 0:
        return hard.mean()
    estimated = ~torch.isnan(mean)
    target = torch.softmax((mean / temperature).masked_fill(~estimated, -torch.inf), 1)
    has = estimated.any(1)
    target = torch.where(has[:, None], target.nan_to_num(0.0), F.one_hot(action, A).float())
    soft = -(target * logp.masked_fill(~mask, 0.0)).sum(1)
    return ((1 - soft_weight) * hard + soft_weight * soft).mean()


def residual_loss(scores, mask, advantage, pruned):
    """Huber loss of the scores to the search's advantages over greedy's choice (points) on
    the actions it estimated; the other legal actions (which its prior pruned) count as
    ``pruned`` points at a tenth of the weight; illegal actions not at all."""
    estimated = ~torch.isnan(advantage)
    target = torch.where(estimated, advantage.nan_to_num(0.0), torch.full_like(advantage, pruned))
    weight = torch.where(estimated, 1.0, 0.1) * mask
    loss = F.huber_loss(scores, target, reduction="none", delta=2.0)
    return (weight * loss).sum() / weight.sum().clamp(min=1.0)


def train_epochs(model, opt, data, state, args, log, device, epochs):
    """``epochs`` passes over the data's training rows, each seeded from (seed, round,
    epoch); a checkpoint after each."""
    while state["epoch"] < epochs:
        gen = torch.Generator().manual_seed(
            args.seed * 1_000_003 + state["round"] * 1_000 + state["epoch"])
        perm = data.train[torch.randperm(len(data.train), generator=gen)]
        model.train()
        total, count, agree = 0.0, 0, 0
        for i in range(0, len(perm), args.batch):
            obs, mask, action, mean, advantage = data.batch(perm[i:i + args.batch], device)
            logits, _ = model(obs)
            if args.residual:
                loss = residual_loss(logits, mask, advantage, args.pruned_advantage)
            else:
                loss = distill_loss(logits, mask, action, mean, args.soft_weight,
                                    args.temperature)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            total += loss.item() * len(action)
            count += len(action)
            agree += int((masked(logits.detach(), mask).argmax(1) == action).sum())
            state["samples"] += len(action)
        state["epoch"] += 1
        log.write("distill", state["samples"], round=state["round"], epoch=state["epoch"],
                  loss=total / max(count, 1), train_agreement=agree / max(count, 1),
                  heldout_agreement=agreement(model, data, args.batch, device),
                  decisions=len(data))
        save_checkpoint(args.out, model, opt, state)


def agreement(model, data, batch, device):
    """The share of held-out decisions where the student plays the search's choice."""
    if not len(data.held):
        return float("nan")
    model.eval()
    agree = 0
    with torch.no_grad():
        for i in range(0, len(data.held), batch):
            obs, mask, action, _, _ = data.batch(data.held[i:i + batch], device)
            agree += int((masked(model(obs)[0], mask).argmax(1) == action).sum())
    return agree / len(data.held)


def save_checkpoint(out, model, opt, state):
    tmp = os.path.join(out, CHECKPOINT + ".tmp")
    torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "state": dict(state),
                "torch_rng": torch.get_rng_state()}, tmp)
    os.replace(tmp, os.path.join(out, CHECKPOINT))


def export(model, path, decides, greedy_margin=None):
    return taisim.export_policy(model.policy().cpu(), path, greedy_margin=greedy_margin,
                                decides=decides)


def labelled_run(out, agents, teacher, deals, seed, threads):
    """Plays (or finishes) the run in ``out``: ``agents`` playing, ``teacher`` labelling every
    decision."""
    done = os.path.exists(os.path.join(out, "manifest.json")) and json.load(
        open(os.path.join(out, "manifest.json")))["status"] == "complete"
    if not done:
        taisim.simulate(out, deals=deals, seed=seed, agents=agents, decisions="all",
                        label_with=teacher, threads=threads,
                        resume=os.path.exists(out))
    return out


def validate(path, args, state, log):
    """The arena of ``path`` against the validation baseline on the validation seed."""
    answer = taisim.arena(f"policy:{path}", args.val_baseline, deals=args.val_deals,
                          seed=args.val_seed, threads=args.threads)
    result = {"round": state["round"], "policy": os.path.basename(path),
              "mean_diff": answer["mean_diff"],
              "ci95_low": answer["ci95_low"], "ci95_high": answer["ci95_high"],
              "deals": answer["deals"], "baseline": args.val_baseline, "seed": args.val_seed}
    log.write("validation", state["samples"], round=state["round"],
              mean_diff=answer["mean_diff"], ci95_low=answer["ci95_low"] or float("nan"),
              ci95_high=answer["ci95_high"] or float("nan"))
    return result


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True)
    p.add_argument("--data", nargs="+", required=True, help="search-labelled runs")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--device", default="auto", help="cpu, cuda, or auto (a GPU when present)")
    p.add_argument("--threads", type=int, default=None, help="torch and simulation threads")
    p.add_argument("--hidden", default="256,256")
    p.add_argument("--kind-hidden", type=int, default=64)
    p.add_argument("--init", help="start from this policy file (or 'trained', the shipped one)"
                   "; its shape must be --hidden/--kind-hidden's")
    p.add_argument("--resume", action="store_true", help="continue from OUT/checkpoint.pt")
    g = p.add_argument_group("distillation")
    g.add_argument("--epochs", type=int, default=3, help="epochs of the first distillation")
    g.add_argument("--round-epochs", type=int, default=2, help="epochs after each DAgger round")
    g.add_argument("--batch", type=int, default=512)
    g.add_argument("--lr", type=float, default=3e-4)
    g.add_argument("--soft-weight", type=float, default=0.0,
                   help="weight of the soft target (softmax of the search's estimates)")
    g.add_argument("--temperature", type=float, default=1.0, help="points, for the soft target")
    g.add_argument("--min-advantage", type=float, default=None,
                   help="points: where the search's choice beats its default (greedy's choice) "
                        "by less, the target is the default (default: the search's choice)")
    g.add_argument("--residual", action="store_true",
                   help="regress the search's advantages over greedy's choice and export a "
                        "residual policy over greedy (see above)")
    g.add_argument("--pruned-advantage", type=float, default=-2.0,
                   help="points: the target of a legal action the search did not estimate "
                        "(--residual)")
    g.add_argument("--margins", default=None,
                   help="greedy margins validated for each round: points for --residual "
                        "(default 0.25,0.5,1,2), log-odds for an imitator (default: none, the "
                        "plain student only)")
    g.add_argument("--decisions-at", choices=("all", "turns", "offers"), default="all",
                   help="train on these decisions only (offers: the answers to a discard)")
    g.add_argument("--heldout-every", type=int, default=20,
                   help="the last deal of every N is held out to report agreement")
    g = p.add_argument_group("DAgger")
    g.add_argument("--dagger-rounds", type=int, default=0)
    g.add_argument("--dagger-deals", type=int, default=1000)
    g.add_argument("--dagger-seed", type=int, default=1_000,
                   help="round K plays deals seeded this + K")
    g.add_argument("--dagger-agents", default="{student}",
                   help="the seats of a round's deals, {student} for the policy (as --agents)")
    g.add_argument("--teacher", default="search:256", help="the labelling search")
    g = p.add_argument_group("selection")
    g.add_argument("--val-deals", type=int, default=2000, help="0: no validation")
    g.add_argument("--val-seed", type=int, default=VALIDATION_SEED)
    g.add_argument("--val-baseline", default="greedy")
    args = p.parse_args(argv)
    args.hidden = tuple(int(h) for h in args.hidden.split(",") if h)
    try:
        given = args.margins if args.margins is not None else (
            "0.25,0.5,1,2" if args.residual else "")
        args.margins = [float(m) for m in given.split(",") if m]
    except ValueError:
        raise SystemExit(f"distill_policy: --margins {args.margins!r}: numbers (points, or "
                         f"log-odds without --residual), comma-separated")
    if args.residual and not args.margins:
        raise SystemExit("distill_policy: --residual needs at least one margin")
    if args.margins and min(args.margins) < 0:
        raise SystemExit("distill_policy: --margins: none below 0")
    if args.val_seed == EVALUATION_SEED:
        raise SystemExit("distill_policy: --val-seed 2**40 is the evaluation seed; selecting on "
                         "it would tune to the evaluation")
    if args.heldout_every < 2:
        raise SystemExit("distill_policy: --heldout-every is at least 2")
    if not 0.0 <= args.soft_weight <= 1.0 or args.temperature <= 0:
        raise SystemExit("distill_policy: --soft-weight is in [0, 1] and --temperature > 0")
    if "{student}" not in args.dagger_agents and args.dagger_rounds:
        raise SystemExit("distill_policy: --dagger-agents must seat {student}")
    return args


def main(argv=None):
    args = parse_args(argv)
    device = prepare(args)
    model = PolicyNet(args.hidden, args.kind_hidden).to(device)
    architecture = {"hidden": list(args.hidden), "kind_hidden": args.kind_hidden}
    state = {"round": 0, "epoch": 0, "samples": 0, "validated": -1, "selections": [],
             "architecture": architecture}
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    ckpt = os.path.join(args.out, CHECKPOINT)
    if args.resume:
        if not os.path.exists(ckpt):
            raise SystemExit(f"distill_policy: --resume: no {ckpt}")
        saved = torch.load(ckpt, map_location=device, weights_only=False)
        if saved["state"]["architecture"] != architecture:
            raise SystemExit(f"distill_policy: --resume: {ckpt} holds {saved['state']['architecture']}; "
                             f"this command asks for {architecture}")
        model.load_state_dict(saved["model"])
        opt.load_state_dict(saved["opt"])
        state.update(saved["state"])
        torch.set_rng_state(saved["torch_rng"])
    elif args.init:
        init_from_policy(model, args.init)
    # A run stopped after its last checkpoint logged an epoch or a validation that the
    # resumed run makes again: those rows go.
    log = Log(args.out, args.resume, kept=lambda row: int(row["step"]) <= state["samples"] and (
        row["phase"] != "validation" or int(row["round"]) <= state["validated"]))
    soft = args.soft_weight > 0
    runs = list(args.data) + [os.path.join(args.out, f"dagger-{k}")
                              for k in range(1, state["round"] + 1)]
    data = Labelled(runs, soft, args.heldout_every, args.min_advantage, args.residual,
                    args.decisions_at)
    print(f"distill: {len(data)} labelled decisions ({len(data.held)} held out)", flush=True)
    while True:
        epochs = args.epochs if state["round"] == 0 else args.round_epochs
        train_epochs(model, opt, data, state, args, log, device, epochs)
        path = export(model, os.path.join(args.out, f"round-{state['round']}.safetensors"),
                      args.decisions_at)
        variants = [path]
        if args.margins:
            cautious = [export(model, os.path.join(
                args.out, f"round-{state['round']}-margin-{m:g}.safetensors"), args.decisions_at,
                greedy_margin=m)
                for m in args.margins]
            if args.residual:
                # A residual network is no policy alone: a round's student is played by its
                # first margin's file (DAgger).
                variants = cautious
                path = cautious[0]
            else:
                variants += cautious
        if args.val_deals and state["validated"] < state["round"]:
            for v in variants:
                state["selections"].append(validate(v, args, state, log))
            state["validated"] = state["round"]
            save_checkpoint(args.out, model, opt, state)
        if state["round"] >= args.dagger_rounds:
            break
        state["round"] += 1
        state["epoch"] = 0
        run = labelled_run(os.path.join(args.out, f"dagger-{state['round']}"),
                           args.dagger_agents.replace("{student}", f"policy:{path}"),
                           args.teacher, args.dagger_deals, args.dagger_seed + state["round"],
                           args.threads)
        save_checkpoint(args.out, model, opt, state)
        runs.append(run)
        data = Labelled(runs, soft, args.heldout_every, args.min_advantage, args.residual,
                        args.decisions_at)
        print(f"distill: round {state['round']}: {len(data)} labelled decisions", flush=True)
    rounds = state["selections"]
    last = os.path.basename(path)
    best = (max(rounds, key=lambda r: r["mean_diff"]) if rounds
            else {"round": state["round"], "policy": last})
    shutil.copyfile(os.path.join(args.out, best["policy"]), os.path.join(args.out, POLICY))
    with open(os.path.join(args.out, "selection.json"), "w") as f:
        json.dump({"chosen_round": best["round"], "chosen": best["policy"],
                   "validations": rounds}, f, indent=2)
    print(f"policy: {os.path.join(args.out, POLICY)} ({best['policy']})", flush=True)
    return os.path.join(args.out, POLICY)


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
