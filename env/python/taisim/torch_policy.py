"""The per-kind policy architecture (``mlp_kinds``) as ``torch`` modules, computing exactly
what the Rust policy agent computes from the exported file (``taisim.export_policy``).

An MLP over the flattened observation scores every action; beside it, one small network
shared by the 34 tile kinds reads each kind's column of the observation (the column, and the
column less each row's largest value), plus a projection of the MLP's last hidden layer (the
context), and adds four scores to the actions that kind names: discard, discard and declare
ready, concealed kong, added kong. Why: a discard's merit is written in its own column, and
one network applied to every column learns that once instead of 34 times (see
``agents/src/kind_head.rs``).

Needs ``torch``.
"""

import torch
import torch.nn as nn

from taisim._native import (ACTION_SPACE_SIZE, OBS_SHAPE, OLDEST_POLICY_OBS_VERSION,
                            PolicyError)

#: The first action index of each block the head scores, in its output order: discard,
#: discard and declare ready, concealed kong, added kong.
KIND_BLOCKS = (0, 34, 73, 107)
KINDS = OBS_SHAPE[1]


class KindHead(nn.Module):
    """The per-kind head: ``input`` (``2 × rows`` → ``hidden``), ``context`` (the MLP's last
    hidden width → ``hidden``, no bias) and ``output`` (``hidden`` → 4)."""

    def __init__(self, width, hidden=64, rows=OBS_SHAPE[0]):
        super().__init__()
        self.rows = rows
        self.input = nn.Linear(2 * rows, hidden)
        self.context = nn.Linear(width, hidden, bias=False)
        self.output = nn.Linear(hidden, len(KIND_BLOCKS))
        index = torch.cat([torch.arange(b, b + KINDS) for b in KIND_BLOCKS])
        self.register_buffer("index", index, persistent=False)

    def forward(self, obs, h):
        """The head's scores, ``(n, ACTION_SPACE_SIZE)`` (zero outside its blocks), for
        observations ``obs`` and the MLP's last hidden layer ``h``."""
        n = obs.shape[0]
        x = obs.reshape(n, -1)[:, : self.rows * KINDS].reshape(n, self.rows, KINDS)
        columns = torch.cat([x, x - x.amax(2, keepdim=True)], 1).transpose(1, 2)
        z = torch.relu(self.input(columns) + self.context(h)[:, None, :])
        scores = self.output(z).transpose(1, 2).reshape(n, -1)
        return obs.new_zeros(n, ACTION_SPACE_SIZE).index_copy(1, self.index, scores)


class KindPolicy(nn.Module):
    """``mlp`` (an ``nn.Sequential`` of ``nn.Linear`` layers with ``nn.ReLU`` between them,
    from the flattened observation to the action scores) plus a :class:`KindHead` reading
    the input of its last layer."""

    def __init__(self, mlp, head):
        super().__init__()
        if not isinstance(mlp, nn.Sequential) or not isinstance(mlp[-1], nn.Linear):
            raise PolicyError("KindPolicy: mlp must be an nn.Sequential ending with nn.Linear")
        if head.context.in_features != mlp[-1].in_features:
            raise PolicyError(f"KindPolicy: the head's context reads {head.context.in_features} "
                             f"values, the last layer {mlp[-1].in_features}")
        self.mlp = mlp
        self.head = head

    @classmethod
    def new(cls, hidden=(256, 256), kind_hidden=64):
        """A fresh policy: an MLP with ``hidden`` widths and a head of ``kind_hidden``."""
        layers, width = [], OBS_SHAPE[0] * OBS_SHAPE[1]
        for h in hidden:
            layers += [nn.Linear(width, h), nn.ReLU()]
            width = h
        layers.append(nn.Linear(width, ACTION_SPACE_SIZE))
        return cls(nn.Sequential(*layers), KindHead(width, kind_hidden))

    def forward(self, obs):
        x = obs.reshape(obs.shape[0], -1)
        h = self.mlp[:-1](x)
        return self.mlp[-1](h) + self.head(obs, h)


def load_policy(path):
    """A policy file (``taisim.export_policy``, or the shipped ``trained``) read back into
    ``torch`` modules computing what the Rust agent computes: an ``nn.Sequential`` of
    ``nn.Linear`` layers with ``nn.ReLU`` between them (architecture ``mlp``), or a
    :class:`KindPolicy` (``mlp_kinds``). A warm start for training (``scripts/distill_policy.py
    --init``). ``path`` may be ``"trained"``: the policy built into this package. A policy of
    an older layout that the current one extends (version 2 or 3: rows were only appended
    since) is read with zero weights for the appended rows, so the modules take the current
    observation and score it as the Rust agent scores it, and training goes on from there
    with every row. Any other file raises ``taisim.PolicyError``."""
    from taisim._native import OBS_VERSION, obs_rows, trained_policy_bytes
    from taisim.policy import safetensors_header

    data = trained_policy_bytes() if str(path) == "trained" else open(path, "rb").read()
    header, start = safetensors_header(data, path)
    meta = header.pop("__metadata__", {}) or {}
    if meta.get("format") != "taisim-policy":
        raise PolicyError(f"{path}: format is {meta.get('format')!r}, not 'taisim-policy'")
    version = meta.get("obs_version")
    if version not in [str(v) for v in range(OLDEST_POLICY_OBS_VERSION, OBS_VERSION + 1)]:
        raise PolicyError(f"{path}: observation version {version}; this build encodes version "
                          f"{OBS_VERSION} and reads policies of versions "
                          f"{OLDEST_POLICY_OBS_VERSION} to {OBS_VERSION}")
    # The rows of the file's layout, and those appended since (read with zero weights).
    then = len(obs_rows(int(version)))
    added = OBS_SHAPE[0] - then
    body = data[start:]

    def tensor(name):
        info = header.get(name)
        if info is None or info.get("dtype") != "F32":
            raise PolicyError(f"{path}: no float32 tensor {name!r}")
        start, end = info["data_offsets"]
        return torch.frombuffer(bytearray(body[start:end]), dtype=torch.float32).reshape(
            info["shape"]).clone()

    layers = []
    for i in range(int(meta.get("layers", 0))):
        w, b = tensor(f"layers.{i}.weight"), tensor(f"layers.{i}.bias")
        if i == 0 and added:
            w = torch.cat([w, w.new_zeros(w.shape[0], added * KINDS)], 1)
        linear = nn.Linear(w.shape[1], w.shape[0])
        with torch.no_grad():
            linear.weight.copy_(w)
            linear.bias.copy_(b)
        if layers:
            layers.append(nn.ReLU())
        layers.append(linear)
    if not layers:
        raise PolicyError(f"{path}: no layers")
    mlp = nn.Sequential(*layers)
    if meta.get("architecture") != "mlp_kinds":
        return mlp
    head = KindHead(mlp[-1].in_features, tensor("kinds.input.bias").shape[0])
    w = tensor("kinds.input.weight")
    if added:
        # The head reads each kind's column, then the column less each row's largest value:
        # zero weights after each half for the rows appended.
        pad = w.new_zeros(w.shape[0], added)
        w = torch.cat([w[:, :then], pad, w[:, then:], pad], 1)
    with torch.no_grad():
        head.input.weight.copy_(w)
        head.input.bias.copy_(tensor("kinds.input.bias"))
        head.context.weight.copy_(tensor("kinds.context.weight"))
        head.output.weight.copy_(tensor("kinds.output.weight"))
        head.output.bias.copy_(tensor("kinds.output.bias"))
    return KindPolicy(mlp, head)
