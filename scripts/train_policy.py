#!/usr/bin/env python3
"""Trains a discard policy for taisim: behaviour cloning from a decisions dataset, then masked
PPO through ``taisim.VecEnv`` against built-in opponents; exports the policy file the Rust
agent plays (``--agents policy:OUT/policy.safetensors``) and evaluates it in the arena.

    python scripts/train_policy.py --out runs/policy --seed 0 \\
        --bc-run runs/decisions --opponents greedy --steps 2000000

Everything is seeded (``--seed``): torch, numpy and the environments' deals. Written under
``--out``:

- ``metrics.csv``: one row per behaviour-cloning epoch and per PPO update (``phase``,
  ``step``, ``elapsed_s``, losses, mean deal reward, entropy, ...); TensorBoard event files in
  ``tb/`` as well when the ``tensorboard`` package is installed (it is not pinned in
  scripts/requirements-rl.txt: it brings grpcio and protobuf for a viewer; the CSV is the
  record).
- ``checkpoint.pt``: model, optimiser, counters and random states, rewritten every
  ``--checkpoint-every`` updates and at the end; ``--resume`` continues from it. The
  environments are reset from ``(seed, checkpoint index)`` at every checkpoint, so a run
  stopped at a checkpoint and resumed makes the same updates as one never stopped (on the same
  device, thread count and torch version).
- ``policy.safetensors``: the policy (``taisim.export_policy``), and ``eval.json``: the arena
  against ``--eval-baseline`` on seeds the training never used (``--eval-seed``).

``--init POLICY`` starts from a policy file instead of cloning (``trained``, the shipped one,
or a distilled one from ``scripts/distill_policy.py``), and ``--kl-coef C`` adds ``C`` times
the KL divergence from ``--kl-reference`` (default: the ``--init`` policy) to the PPO loss, over
the legal actions: PPO then improves on a distilled policy without drifting far from it.

The network is an MLP over the flattened observation: ``--hidden`` layers with ReLU, then the
144 action scores (the exported policy) and a value head beside them (training only). With
``--kind-hidden H`` (the default, 64; 0 turns it off) a per-kind head of width ``H`` adds its
scores to the actions named by a tile kind (``taisim.torch_policy``: one network shared by
the 34 kinds, reading each kind's column of the observation; exported as ``mlp_kinds``).
"""

import argparse
import csv
import json
import os
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

import taisim
from taisim.torch_policy import KindHead, KindPolicy

OBS_LEN = taisim.OBS_SHAPE[0] * taisim.OBS_SHAPE[1]
A = taisim.ACTION_SPACE_SIZE
CHECKPOINT = "checkpoint.pt"
POLICY = "policy.safetensors"


class PolicyNet(nn.Module):
    """A shared ReLU trunk, the action scores (the exported policy) and a value head."""

    def __init__(self, hidden=(256, 256), kind_hidden=0):
        super().__init__()
        layers, width = [], OBS_LEN
        for h in hidden:
            layers += [nn.Linear(width, h), nn.ReLU()]
            width = h
        self.trunk = nn.Sequential(*layers)
        self.actor = nn.Linear(width, A)
        self.critic = nn.Linear(width, 1)
        self.kinds = KindHead(width, kind_hidden) if kind_hidden else None
        # Small initial scores: a near-uniform policy over the legal actions.
        nn.init.orthogonal_(self.actor.weight, gain=0.01)
        nn.init.zeros_(self.actor.bias)

    def forward(self, obs):
        h = self.trunk(obs.reshape(obs.shape[0], -1))
        scores = self.actor(h)
        if self.kinds is not None:
            scores = scores + self.kinds(obs, h)
        return scores, self.critic(h).squeeze(-1)

    def policy(self):
        """The policy alone (trunk, scores and per-kind head, sharing these parameters), for
        export."""
        mlp = nn.Sequential(*self.trunk, self.actor)
        return mlp if self.kinds is None else KindPolicy(mlp, self.kinds)


def init_from_policy(model, path):
    """Loads the policy file ``path`` (``"trained"``: the shipped one) into ``model``'s trunk,
    action scores and per-kind head (the value head stays as it is): a warm start. A file of
    another shape is refused naming both."""
    from taisim.torch_policy import load_policy

    policy = load_policy(path)
    target = model.policy()
    if type(policy) is not type(target) or any(
            a.shape != b.shape for a, b in zip(policy.state_dict().values(),
                                               target.state_dict().values())) or (
            len(policy.state_dict()) != len(target.state_dict())):
        shapes = lambda m: [tuple(t.shape) for t in m.state_dict().values()]  # noqa: E731
        raise SystemExit(f"--init {path}: its layers {shapes(policy)} are not this network's "
                         f"{shapes(target)} (set --hidden and --kind-hidden to match)")
    target.load_state_dict(policy.state_dict())


def masked(logits, mask):
    """Scores with illegal actions at a large negative value (never sampled)."""
    return logits.masked_fill(~mask, -1e9)


class Log:
    """``metrics.csv`` (a header row of every column ever logged, rewritten when a new one
    appears) and, when installed, TensorBoard."""

    def __init__(self, out, resume, state=None, kept=None):
        self.path = os.path.join(out, "metrics.csv")
        self.rows = []
        kept = kept or (lambda row: Log.kept(row, state))
        if resume and os.path.exists(self.path):
            with open(self.path, newline="") as f:
                self.rows = [r for r in csv.DictReader(f) if kept(r)]
        self.tb = None
        try:
            from torch.utils.tensorboard import SummaryWriter

            self.tb = SummaryWriter(os.path.join(out, "tb"))
        except ImportError:
            pass

    @staticmethod
    def kept(row, state):
        """Whether a logged row is part of the run a resume continues: a run stopped after its
        last checkpoint logged updates the resumed run makes again, and must not count twice."""
        if state is None:
            return True
        if row["phase"] == "bc":
            return state["bc_done"]
        return int(row["step"]) <= state["env_steps"]

    def write(self, phase, step, **metrics):
        row = {"phase": phase, "step": step, **{k: f"{v:.6g}" if isinstance(v, float) else v
                                                 for k, v in metrics.items()}}
        self.rows.append(row)
        columns = []
        for r in self.rows:
            columns += [k for k in r if k not in columns]
        tmp = self.path + ".tmp"
        with open(tmp, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=columns)
            w.writeheader()
            w.writerows(self.rows)
        os.replace(tmp, self.path)
        if self.tb is not None:
            for k, v in metrics.items():
                if isinstance(v, (int, float)):
                    self.tb.add_scalar(f"{phase}/{k}", v, step)
            self.tb.flush()
        print(f"[{phase}] step {step} " + " ".join(f"{k}={row[k]}" for k in metrics), flush=True)


# ---------------------------------------------------------------- behaviour cloning


class Decisions:
    """The ``taisim.load_decisions`` dict, checked, kept as stored: the observations stay one
    byte a cell (``obs`` numerators times ``obs_scale`` is the env's float32 observation) and
    are turned into floats one minibatch at a time, so a dataset of millions of decisions fits
    in memory (20,000 greedy deals: about 1M decisions, 2 GB as bytes, 8 GB as floats)."""

    def __init__(self, data):
        version = int(data.get("obs_version", taisim.OBS_VERSION))
        if version != taisim.OBS_VERSION:
            raise SystemExit(f"train_policy: the decisions were recorded with observation version "
                             f"{version}; this build encodes version {taisim.OBS_VERSION}. Record them again.")
        obs = np.asarray(data["obs"])
        if obs.dtype == np.uint8:
            self.scale = torch.from_numpy(np.asarray(data["obs_scale"], dtype=np.float32).reshape(-1))
        elif obs.dtype == np.float32:
            self.scale = None
        else:
            raise SystemExit(f"train_policy: decisions hold {obs.dtype} observations; expected "
                             f"uint8 numerators with obs_scale, or float32")
        self.obs = torch.from_numpy(np.ascontiguousarray(obs)).reshape(len(obs), -1)
        self.mask = torch.from_numpy(np.asarray(data["mask"]).astype(bool))
        self.action = torch.from_numpy(np.asarray(data["action"]).astype(np.int64))
        n = len(self.obs)
        if (self.obs.shape[1] != OBS_LEN or self.mask.shape[1:] != (A,) or len(self.mask) != n
                or len(self.action) != n
                or (self.scale is not None and self.scale.shape != (OBS_LEN,))):
            raise SystemExit(f"train_policy: decisions have obs {tuple(self.obs.shape)}, mask "
                             f"{tuple(self.mask.shape)}, action {tuple(self.action.shape)}; "
                             f"expected (n, {OBS_LEN}), (n, {A}), (n,)")
        if n and not self.mask[torch.arange(n), self.action].all():
            raise SystemExit("train_policy: the decisions hold an action outside its mask")

    def __len__(self):
        return len(self.obs)

    def batch(self, idx, device):
        """Float observations, masks and actions of the decisions ``idx``."""
        obs = self.obs[idx]
        obs = obs.float() * self.scale if self.scale is not None else obs
        return obs.to(device), self.mask[idx].to(device), self.action[idx].to(device)


def behaviour_cloning(model, opt, data, *, epochs, batch_size, gen, log, device):
    """Fits the policy head to the recorded actions (cross-entropy over the legal actions),
    holding out 5% of the decisions to report accuracy on."""
    data = Decisions(data)
    n = len(data)
    order = torch.randperm(n, generator=gen)
    held = order[: max(1, n // 20)]
    train = order[max(1, n // 20):]
    step = 0
    for epoch in range(epochs):
        model.train()
        perm = train[torch.randperm(len(train), generator=gen)]
        total, count = 0.0, 0
        for i in range(0, len(perm), batch_size):
            obs, mask, action = data.batch(perm[i:i + batch_size], device)
            logits, _ = model(obs)
            loss = F.cross_entropy(masked(logits, mask), action)
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            total += loss.item() * len(action)
            count += len(action)
            step += len(action)
        model.eval()
        correct = 0
        with torch.no_grad():
            for i in range(0, len(held), batch_size):
                obs, mask, action = data.batch(held[i:i + batch_size], device)
                correct += int((masked(model(obs)[0], mask).argmax(1) == action).sum())
        log.write("bc", step, epoch=epoch, loss=total / max(count, 1),
                  heldout_accuracy=correct / len(held), decisions=n)
    return model


def load_decisions(run):
    if not hasattr(taisim, "load_decisions"):
        raise SystemExit("train_policy: --bc-run needs taisim.load_decisions (build the package "
                         "with the decisions dataset; `taisim simulate --decisions all`)")
    return taisim.load_decisions(run)


# ---------------------------------------------------------------- PPO


def ppo(model, opt, state, args, log, device):
    """Masked PPO with GAE through ``taisim.VecEnv``; the learner holds one seat, the
    ``--opponents`` the rest. Continues from ``state`` (counters of a checkpoint)."""
    n, t = args.num_envs, args.rollout
    env = taisim.VecEnv(num_envs=n, opponents=args.opponents, reward="points",
                        threads=args.threads)
    obs_buf = torch.zeros((t, n, OBS_LEN))
    mask_buf = torch.zeros((t, n, A), dtype=torch.bool)
    act_buf = torch.zeros((t, n), dtype=torch.int64)
    logp_buf = torch.zeros((t, n))
    val_buf = torch.zeros((t, n))
    rew_buf = torch.zeros((t, n))
    done_buf = torch.zeros((t, n))
    gen = torch.Generator()
    obs = mask = None
    start = time.time()
    reference = None
    if args.kl_coef > 0:
        # The policy PPO is held near (a distilled one): KL(pi || reference) over the legal
        # actions, added to the loss with weight --kl-coef.
        from taisim.torch_policy import load_policy

        reference = load_policy(args.kl_reference).to(device).eval()
        for param in reference.parameters():
            param.requires_grad_(False)
    while state["env_steps"] < args.steps:
        # Each update's sampling and minibatches from (seed, update): the same after a resume.
        gen.manual_seed(args.seed * 1_000_003 + state["update"])
        if obs is None or state["update"] % args.checkpoint_every == 0:
            # Every checkpoint starts fresh deals from (seed, checkpoint index): a resumed run
            # sees the deals an uninterrupted one would.
            o, info = env.reset(seed=args.seed * 1_000_003 + state["update"] // args.checkpoint_every)
            obs = torch.from_numpy(o).reshape(n, -1)
            mask = torch.from_numpy(info["action_mask"].astype(bool))
        finished = []
        model.eval()
        for k in range(t):
            with torch.no_grad():
                logits, value = model(obs.to(device))
                logp_all = torch.log_softmax(masked(logits, mask.to(device)), 1).cpu()
                u = torch.rand((n, A), generator=gen).clamp_(1e-12, 1.0)
                # Gumbel-max: a seeded sample from the masked softmax.
                action = (logp_all - torch.log(-torch.log(u))).argmax(1)
                logp = logp_all.gather(1, action[:, None]).squeeze(1)
            obs_buf[k], mask_buf[k], act_buf[k] = obs, mask, action
            logp_buf[k], val_buf[k] = logp, value.cpu()
            o, r, term, trunc, info = env.step(action.numpy())
            rew_buf[k] = torch.from_numpy(np.asarray(r, dtype=np.float32)) / args.reward_scale
            done_buf[k] = torch.from_numpy((term | trunc).astype(np.float32))
            finished += [float(x) for x in np.asarray(r)[term]]
            obs = torch.from_numpy(o).reshape(n, -1)
            mask = torch.from_numpy(info["action_mask"].astype(bool))
        with torch.no_grad():
            _, next_value = model(obs.to(device))
            next_value = next_value.cpu()
        adv = torch.zeros((t, n))
        last = torch.zeros(n)
        for k in reversed(range(t)):
            nv = next_value if k == t - 1 else val_buf[k + 1]
            nonterm = 1.0 - done_buf[k]
            delta = rew_buf[k] + args.gamma * nv * nonterm - val_buf[k]
            last = delta + args.gamma * args.gae_lambda * nonterm * last
            adv[k] = last
        ret = adv + val_buf
        b_obs, b_mask = obs_buf.reshape(t * n, -1), mask_buf.reshape(t * n, A)
        b_act, b_logp = act_buf.reshape(-1), logp_buf.reshape(-1)
        b_adv, b_ret = adv.reshape(-1), ret.reshape(-1)
        model.train()
        clipped, pg_total, v_total, ent_total, kl_total, batches = 0.0, 0.0, 0.0, 0.0, 0.0, 0
        for _ in range(args.epochs):
            perm = torch.randperm(t * n, generator=gen)
            for i in range(0, t * n, args.minibatch):
                idx = perm[i:i + args.minibatch]
                logits, value = model(b_obs[idx].to(device))
                logits = masked(logits, b_mask[idx].to(device))
                logp_all = torch.log_softmax(logits, 1)
                logp = logp_all.gather(1, b_act[idx].to(device)[:, None]).squeeze(1)
                p = logp_all.exp()
                entropy = -(p * logp_all.masked_fill(~b_mask[idx].to(device), 0.0)).sum(1).mean()
                a = b_adv[idx].to(device)
                a = (a - a.mean()) / (a.std() + 1e-8)
                ratio = (logp - b_logp[idx].to(device)).exp()
                pg = -torch.min(ratio * a, ratio.clamp(1 - args.clip, 1 + args.clip) * a).mean()
                vloss = 0.5 * (value - b_ret[idx].to(device)).pow(2).mean()
                warming = state["update"] < args.value_warmup
                loss = (args.vf_coef * vloss if warming
                        else pg + args.vf_coef * vloss - args.ent_coef * entropy)
                if reference is not None:
                    legal = b_mask[idx].to(device)
                    with torch.no_grad():
                        ref_logp = torch.log_softmax(masked(reference(b_obs[idx].to(device)),
                                                            legal), 1)
                    kl = (p * (logp_all - ref_logp)).masked_fill(~legal, 0.0).sum(1).mean()
                    kl_total += kl.item()
                    if not warming:
                        loss = loss + args.kl_coef * kl
                opt.zero_grad()
                loss.backward()
                if warming:
                    # Only the value head learns: the cloned policy and the trunk it reads stay
                    # as they are until the advantages come from a value that means something.
                    for param in model.trunk.parameters():
                        param.grad = None
                nn.utils.clip_grad_norm_(model.parameters(), 0.5)
                opt.step()
                clipped += float(((ratio - 1).abs() > args.clip).float().mean())
                pg_total += pg.item()
                v_total += vloss.item()
                ent_total += entropy.item()
                batches += 1
        state["update"] += 1
        state["env_steps"] += t * n
        state["deals"] += len(finished)
        elapsed = time.time() - start
        log.write("ppo", state["env_steps"], update=state["update"], deals=state["deals"],
                  mean_deal_reward=float(np.mean(finished)) if finished else float("nan"),
                  policy_loss=pg_total / batches, value_loss=v_total / batches,
                  entropy=ent_total / batches, clip_fraction=clipped / batches,
                  kl_to_reference=kl_total / batches if reference is not None else float("nan"),
                  steps_per_s=t * n * (state["update"] - state["first_update"]) / elapsed)
        if state["update"] % args.checkpoint_every == 0 or state["env_steps"] >= args.steps:
            save_checkpoint(args.out, model, opt, state)
    return model


# ---------------------------------------------------------------- checkpoints, export, eval


def save_checkpoint(out, model, opt, state):
    tmp = os.path.join(out, CHECKPOINT + ".tmp")
    torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "state": dict(state),
                "torch_rng": torch.get_rng_state(), "numpy_rng": np.random.get_state()}, tmp)
    os.replace(tmp, os.path.join(out, CHECKPOINT))


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True, help="directory for logs, checkpoints and the policy")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--device", default="auto", help="cpu, cuda, or auto (a GPU when present)")
    p.add_argument("--threads", type=int, default=None, help="torch and VecEnv threads")
    p.add_argument("--hidden", default="256,256", help="hidden layer widths, comma-separated")
    p.add_argument("--kind-hidden", type=int, default=64,
                   help="width of the per-kind head (0: a plain MLP)")
    p.add_argument("--resume", action="store_true", help="continue from OUT/checkpoint.pt")
    p.add_argument("--init", help="start from this policy file ('trained': the shipped one), "
                   "e.g. a distilled policy (scripts/distill_policy.py); its shape must be "
                   "--hidden/--kind-hidden's. Behaviour cloning is then skipped")
    g = p.add_argument_group("behaviour cloning")
    g.add_argument("--bc-run", help="a decisions dataset (taisim simulate --decisions all)")
    g.add_argument("--bc-epochs", type=int, default=3)
    g.add_argument("--bc-batch", type=int, default=1024)
    g.add_argument("--bc-lr", type=float, default=1e-3)
    g = p.add_argument_group("PPO")
    g.add_argument("--opponents", default="greedy", help="the built-in opponents (as --agents)")
    g.add_argument("--steps", type=int, default=0, help="learner decisions to train on (0: none)")
    g.add_argument("--num-envs", type=int, default=256)
    g.add_argument("--rollout", type=int, default=32, help="steps per environment per update")
    g.add_argument("--epochs", type=int, default=2, help="passes over each rollout")
    g.add_argument("--minibatch", type=int, default=2048)
    g.add_argument("--lr", type=float, default=2.5e-4)
    g.add_argument("--gamma", type=float, default=1.0)
    g.add_argument("--gae-lambda", type=float, default=0.95)
    g.add_argument("--clip", type=float, default=0.2)
    g.add_argument("--ent-coef", type=float, default=0.01)
    g.add_argument("--vf-coef", type=float, default=0.5)
    g.add_argument("--reward-scale", type=float, default=10.0, help="rewards are divided by it")
    g.add_argument("--value-warmup", type=int, default=0,
                   help="first updates that train only the value head (after cloning, the "
                        "value is untrained and its advantages would move the policy at random)")
    g.add_argument("--checkpoint-every", type=int, default=20, help="updates between checkpoints")
    g.add_argument("--kl-coef", type=float, default=0.0,
                   help="weight of a KL penalty to --kl-reference (0: none)")
    g.add_argument("--kl-reference", help="the policy file the KL penalty holds PPO near "
                   "(default: --init)")
    g = p.add_argument_group("evaluation")
    g.add_argument("--eval-deals", type=int, default=20000, help="0: no evaluation")
    g.add_argument("--eval-seed", type=int, default=None,
                   help="arena seed (default 2**40 + seed: never a training seed)")
    g.add_argument("--eval-baseline", default="greedy,defensive",
                   help="baselines for the arena, comma-separated")
    args = p.parse_args(argv)
    args.hidden = tuple(int(h) for h in args.hidden.split(",") if h)
    if args.eval_seed is None:
        args.eval_seed = 2**40 + args.seed
    if args.kl_coef > 0 and not (args.kl_reference or args.init):
        p.error("--kl-coef needs --kl-reference (or --init, its default)")
    args.kl_reference = args.kl_reference or args.init
    if args.init and args.bc_run:
        p.error("--init starts from a trained policy: give it or --bc-run, not both")
    return args


def prepare(args):
    """Makes ``args.out``, sets torch's threads and seed; returns the device (``--device auto``:
    a GPU when present). Shared with distill_policy.py."""
    os.makedirs(args.out, exist_ok=True)
    device = torch.device("cuda" if args.device == "auto" and torch.cuda.is_available()
                          else ("cpu" if args.device == "auto" else args.device))
    if args.threads:
        torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    return device


def main(argv=None):
    args = parse_args(argv)
    device = prepare(args)
    np.random.seed(args.seed)
    model = PolicyNet(args.hidden, args.kind_hidden).to(device)
    architecture = {"hidden": list(args.hidden), "kind_hidden": args.kind_hidden}
    state = {"bc_done": False, "update": 0, "env_steps": 0, "deals": 0,
             "architecture": architecture}
    opt = torch.optim.Adam(model.parameters(), lr=args.bc_lr)
    ckpt = os.path.join(args.out, CHECKPOINT)
    if args.resume:
        if not os.path.exists(ckpt):
            raise SystemExit(f"train_policy: --resume: no {ckpt}")
        saved = torch.load(ckpt, map_location=device, weights_only=False)
        # Checkpoints from before the per-kind head were plain MLPs.
        found = saved["state"].get("architecture", {"hidden": list(args.hidden), "kind_hidden": 0})
        if found != architecture:
            raise SystemExit(f"train_policy: --resume: {ckpt} holds a network with "
                             f"--hidden {','.join(map(str, found['hidden']))} --kind-hidden "
                             f"{found['kind_hidden']}; this command asks for --hidden "
                             f"{','.join(map(str, args.hidden))} --kind-hidden {args.kind_hidden}")
        model.load_state_dict(saved["model"])
        state.update(saved["state"])
        torch.set_rng_state(saved["torch_rng"])
        np.random.set_state(saved["numpy_rng"])
        if state["bc_done"]:
            opt = torch.optim.Adam(model.parameters(), lr=args.lr)
        opt.load_state_dict(saved["opt"])
        # The optimiser's state carries on; its rate is this command's, as in a run never
        # stopped (a saved state would otherwise bring back the rate of the run that saved it).
        for group in opt.param_groups:
            group["lr"] = args.lr if state["bc_done"] else args.bc_lr
    if args.init and not args.resume:
        init_from_policy(model, args.init)
    log = Log(args.out, args.resume, state)
    if args.bc_run and not state["bc_done"]:
        gen = torch.Generator().manual_seed(args.seed)
        behaviour_cloning(model, opt, load_decisions(args.bc_run), epochs=args.bc_epochs,
                          batch_size=args.bc_batch, gen=gen, log=log, device=device)
    if not state["bc_done"]:
        state["bc_done"] = True
        opt = torch.optim.Adam(model.parameters(), lr=args.lr)
        save_checkpoint(args.out, model, opt, state)
    if state["env_steps"] < args.steps:
        state["first_update"] = state["update"]
        ppo(model, opt, state, args, log, device)
    policy_path = taisim.export_policy(model.policy().cpu(), os.path.join(args.out, POLICY))
    print(f"policy: {policy_path}")
    if args.eval_deals:
        results = {"policy": str(policy_path), "seed": args.eval_seed, "arena": []}
        for baseline in args.eval_baseline.split(","):
            # The library's arena, as `taisim arena --json` plays and reports it.
            results["arena"].append(taisim.arena(f"policy:{policy_path}", baseline,
                                                 deals=args.eval_deals, seed=args.eval_seed,
                                                 threads=args.threads))
        with open(os.path.join(args.out, "eval.json"), "w") as f:
            json.dump(results, f, indent=2)
        print(json.dumps(results, indent=2))
    return policy_path


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
