"""Policy files: a ``torch.nn`` MLP exported to the safetensors file the Rust policy agent
plays (``--agents policy:PATH``, ``taisim.Env(opponents="policy:PATH")``).

The file holds ``layers.{i}.weight`` (``[outputs, inputs]``) and ``layers.{i}.bias``
(``[outputs]``) as float32 for each dense layer ``i``, ReLU between layers, and in the
safetensors metadata ``format="taisim-policy"``, ``architecture="mlp"`` (or ``"mlp_kinds"``
with a per-kind head, see :mod:`taisim.torch_policy`),
``activation="relu"``, ``layers``, ``obs_version`` and ``action_space``. The first layer
reads the observation flattened row-major (``OBS_SHAPE[0] * OBS_SHAPE[1]`` values); the last
gives one score per action, and the agent plays the best-scoring legal one. The Rust loader
refuses a file for another observation version, a wrong shape or a missing tensor by name
(``taisim.PolicyError``, a ``ValueError``).

This module needs ``safetensors`` (``scripts/requirements.txt``); :func:`export_policy`
needs ``torch`` too.
"""

import json
import os
import secrets

import numpy as np

from taisim._native import ACTION_SPACE_SIZE, OBS_SHAPE, OBS_VERSION, PolicyError
from taisim._native import policy_bytes as _policy_bytes
from taisim._native import policy_logits as _policy_logits
from taisim._native import trained_policy_bytes as _trained_policy_bytes
from taisim._seed import path_arg

#: The ``format`` metadata of a policy file.
POLICY_FORMAT = "taisim-policy"
#: Values per flattened observation: the first layer's input width.
OBS_LEN = OBS_SHAPE[0] * OBS_SHAPE[1]
#: The shipped policy's name where a policy file's path is taken, as agents name it (a file
#: of that name is ``./trained``).
TRAINED = "trained"


def _save(layers, path, kinds=None, greedy_margin=None, decides=None):
    """Writes ``layers`` as a policy file at ``path`` (see :func:`_file_bytes`) and returns
    ``path``; nothing is written when they do not fit."""
    data = _file_bytes(layers, kinds, greedy_margin, decides)
    _replace_file(path_arg(path), data)
    return path


def _replace_file(path, data):
    """Writes ``data`` to ``path`` whole or not at all: to a temporary file beside it, then
    renamed over it, so a reader (an agent loading the policy) never sees half a file.

    The temporary name is new for each call (created exclusively), so two processes writing
    the same path never write into one another's file, and it is removed on any failure,
    the rename's included. A ``path`` that is a directory raises ``IsADirectoryError``
    before anything is written: the rename would fail only after the write."""
    if os.path.isdir(path):
        raise IsADirectoryError(f"{path} is a directory: a policy file is written to a file's "
                                f"path, such as {os.path.join(path, 'policy.safetensors')}")
    directory, name = os.path.split(os.path.abspath(path))
    # os.open with mode 0o666 leaves the permissions to the umask, as open() did; mkstemp's
    # 0o600 would make a shared policy unreadable to the rest of its group.
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        tmp = os.path.join(directory, f".{name}.{secrets.token_hex(6)}.tmp")
        try:
            fd = os.open(tmp, flags, 0o666)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        # KeyboardInterrupt included: a half-written temporary file is of no use to anyone.
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def _file_bytes(layers, kinds=None, greedy_margin=None, decides=None):
    """The policy file's bytes for ``layers`` (a list of ``(weight, bias)`` float32 numpy
    arrays, weight ``[outputs, inputs]``), after checking the shapes chain from the
    observation to the action space; ``kinds``, when given, is a per-kind head's ``(input
    weight, input bias, context weight, output weight, output bias)`` (checked by the Rust
    writer, which names a misfit); ``greedy_margin``, when given, makes it a residual policy
    over greedy, and ``decides`` names the decisions it makes (see :func:`export_policy`)."""
    if not layers:
        raise PolicyError("a policy needs at least one layer")
    width = OBS_LEN
    tensors = {}
    for i, (w, b) in enumerate(layers):
        w = np.ascontiguousarray(w, dtype=np.float32)
        b = np.ascontiguousarray(b, dtype=np.float32)
        if w.ndim != 2 or w.shape[1] != width:
            raise PolicyError(f"layer {i}: weight has shape {w.shape}, expected (outputs, {width})")
        if b.shape != (w.shape[0],):
            raise PolicyError(f"layer {i}: bias has shape {b.shape}, expected ({w.shape[0]},)")
        if not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise PolicyError(f"layer {i} holds a NaN or infinite value")
        tensors[f"layers.{i}.weight"] = w
        tensors[f"layers.{i}.bias"] = b
        width = w.shape[0]
    if width != ACTION_SPACE_SIZE:
        raise PolicyError(f"the last layer gives {width} outputs; the action space has {ACTION_SPACE_SIZE}")
    # Rust writes the file (the agent's own writer): safetensors' writers order the header's
    # metadata as a hash map does, differently from one run to the next, so the same weights
    # would not always give the same bytes.
    if kinds is not None:
        kinds = tuple(np.ascontiguousarray(t, dtype=np.float32) for t in kinds)
    if greedy_margin is not None:
        greedy_margin = float(greedy_margin)
    return _policy_bytes([(tensors[f"layers.{i}.weight"], tensors[f"layers.{i}.bias"])
                          for i in range(len(layers))], kinds, greedy_margin, decides)


def mlp_layers(module):
    """The ``(weight, bias)`` numpy arrays of ``module``'s ``nn.Linear`` layers, in order,
    after checking that ``module`` is an MLP the Rust agent computes exactly: ``nn.Linear``
    layers (with bias) with one ``nn.ReLU`` between each two and none after the last, and
    otherwise only ``nn.Flatten``, ``nn.Identity`` or ``nn.Dropout`` (inert at inference).
    Containers (``nn.Sequential``, ``nn.ModuleList``) are walked in registration order."""
    import torch.nn as nn

    leaves = [m for m in module.modules() if not list(m.children())]
    seq = []
    for m in leaves:
        if isinstance(m, nn.Linear):
            if m.bias is None:
                raise PolicyError("export_policy: every nn.Linear needs a bias (bias=True)")
            seq.append(m)
        elif isinstance(m, nn.ReLU):
            seq.append("relu")
        elif isinstance(m, (nn.Flatten, nn.Identity, nn.Dropout)):
            continue
        else:
            raise PolicyError(
                f"export_policy: {type(m).__name__} is not part of the policy format "
                "(nn.Linear layers with nn.ReLU between them); export the policy head alone"
            )
    layers = []
    for i, item in enumerate(seq):
        expect_linear = i % 2 == 0
        if expect_linear != isinstance(item, nn.Linear):
            raise PolicyError(
                "export_policy: the module must alternate nn.Linear and nn.ReLU, starting and "
                "ending with nn.Linear"
            )
        if expect_linear:
            layers.append((item.weight.detach().cpu().float().numpy(),
                           item.bias.detach().cpu().float().numpy()))
    if not seq or not isinstance(seq[-1], nn.Linear):
        raise PolicyError("export_policy: the module must end with an nn.Linear (the action scores)")
    return layers


def export_policy(module, path, greedy_margin=None, decides=None):
    """Writes ``module`` to ``path`` as a policy file for the current observation version and
    returns ``path``. ``module`` is a ``torch.nn`` MLP (``nn.Linear`` layers with ``nn.ReLU``
    between them, from ``OBS_SHAPE[0] * OBS_SHAPE[1]`` inputs to ``ACTION_SPACE_SIZE``
    scores), or a :class:`taisim.torch_policy.KindPolicy` (such an MLP with a per-kind head,
    architecture ``mlp_kinds``).

    A module of another shape, or one holding other layers, raises ``taisim.PolicyError`` (a
    ``ValueError``) naming the problem. The agent plays ``argmax`` of ``module(obs)`` over the
    legal actions; :func:`policy_logits` gives the Rust side's scores to check an export
    against. The file appears whole or not at all (written beside it under a temporary name
    of its own, then renamed); a ``path`` that is a directory raises ``IsADirectoryError``.

    With ``greedy_margin`` (points, at least 0) the file is a *residual* policy: its scores are
    read as points gained over greedy's choice, and the agent plays greedy's choice unless
    the legal action scoring highest scores more than ``greedy_margin`` above it (what
    ``scripts/distill_policy.py --residual`` trains from a search's advantages).

    With ``decides="turns"`` the agent plays the network only at its own turns and greedy's
    answer to whatever is on offer (a discard, kong or flower: wherever passing is legal);
    with ``"offers"`` the other way round; ``"all"`` (the default) everywhere. A student
    trained on one kind of decision (``distill_policy.py --decisions-at``) is exported so."""
    layers, kinds = _module_layers(module)
    return _save(layers, path, kinds, greedy_margin, decides)


def export_policy_bytes(module, greedy_margin=None, decides=None):
    """The bytes :func:`export_policy` would write for ``module``, without a file: what
    :func:`taisim.arena` plays when given a module, and what a trainer can keep in memory
    (``taisim.arena(policy_bytes, "greedy", ...)``)."""
    layers, kinds = _module_layers(module)
    return _file_bytes(layers, kinds, greedy_margin, decides)


def _module_layers(module):
    """``module``'s dense layers and per-kind head (``None`` without one) as numpy arrays,
    checked as :func:`mlp_layers` checks them."""
    from taisim.torch_policy import KindPolicy

    if isinstance(module, KindPolicy):
        head = module.head
        kinds = [t.detach().cpu().float().numpy() for t in (
            head.input.weight, head.input.bias, head.context.weight, head.output.weight,
            head.output.bias)]
        return mlp_layers(module.mlp), kinds
    return mlp_layers(module), None


def policy_metadata(path):
    """The metadata of the policy file at ``path`` (``"trained"``: the shipped policy) as a
    ``dict`` of strings (``format``, ``obs_version``, and ``greedy_margin`` and ``decides``
    where the file has them): what a player of the file outside the Rust agent needs to play
    it as the agent does. A file that is not safetensors raises ``taisim.PolicyError``.
    ``path`` is a path: an int is a ``TypeError``, never a file descriptor read and closed."""
    path = path_arg(path)
    if path == TRAINED:
        head = _trained_policy_bytes()
    else:
        with open(path, "rb") as f:
            head = f.read(8)
            size = int.from_bytes(head, "little") if len(head) == 8 else 0
            # safetensors caps its header at 100 MB; a larger length is no header.
            head += f.read(size) if size <= 100_000_000 else b""
    header, _ = safetensors_header(head, path)
    meta = header.get("__metadata__")
    if meta is None:
        return {}
    # safetensors' metadata is a map of strings to strings.
    if not (isinstance(meta, dict) and all(isinstance(v, str) for v in meta.values())):
        raise PolicyError(f"{os.fspath(path)}: its __metadata__ is not a map of strings to "
                          f"strings: {json.dumps(meta)[:80]}")
    return dict(meta)


def safetensors_header(data, path):
    """The JSON header of safetensors bytes ``data`` (a whole file, or at least its 8-byte
    length and the header) and the offset where the tensors' bytes begin. Bytes with no JSON
    object there raise ``taisim.PolicyError`` naming ``path``."""
    size = int.from_bytes(data[:8], "little") if len(data) >= 8 else 0
    try:
        header = json.loads(data[8:8 + size]) if size else None
    except ValueError:
        header = None
    if not isinstance(header, dict):
        raise PolicyError(f"{path}: not a safetensors file (no JSON header)")
    return header, 8 + size


def policy_logits(path, obs):
    """The scores the Rust policy agent computes from the policy file at ``path``
    (``"trained"``: the shipped policy) for each observation of ``obs`` (``(n, *OBS_SHAPE)``
    or ``(n, OBS_LEN)``): a ``(n, ACTION_SPACE_SIZE)`` float32 array. A file that cannot be
    played raises ``taisim.PolicyError``, one that cannot be read an ``OSError``, observations
    of another width ``taisim.UsageError``."""
    path = path_arg(path)
    obs = np.ascontiguousarray(obs, dtype=np.float32)
    return _policy_logits(path, obs)


def convert_json_policy(src, dst):
    """Converts a policy file in the JSON format of earlier taisim versions (``{"format":
    "taisim-policy", "obs_version": .., "layers": [{"inputs", "outputs", "weights",
    "bias"}, ..]}``) to the safetensors format. The observation version must be the current
    one: weights for another layout cannot be converted, only retrained. A file that cannot be
    converted raises ``taisim.PolicyError`` naming it and the problem (one that cannot be read,
    an ``OSError``)."""
    name = os.fspath(src)
    try:
        with open(src, encoding="utf-8") as f:
            doc = json.load(f)
    except ValueError as e:  # not JSON, or not UTF-8
        raise PolicyError(f"{name}: not a JSON policy file ({e})") from None
    if not isinstance(doc, dict):
        raise PolicyError(f"{name}: not a JSON policy file (a JSON object with format, "
                          f"obs_version and layers), but a {type(doc).__name__}")
    if doc.get("format") != POLICY_FORMAT:
        raise PolicyError(f"{src}: format is {doc.get('format')!r}, expected {POLICY_FORMAT!r}")
    if doc.get("obs_version") != OBS_VERSION:
        raise PolicyError(
            f"{src}: trained on observation version {doc.get('obs_version')}, this build "
            f"encodes version {OBS_VERSION}; such weights cannot be converted, only retrained"
        )
    if not isinstance(doc.get("layers"), list):
        raise PolicyError(f"{name}: its layers are not a list")
    layers = [_json_layer(name, i, layer) for i, layer in enumerate(doc["layers"])]
    try:
        return _save(layers, dst)
    except PolicyError as e:  # layers that do not chain, found before anything is written
        raise PolicyError(f"{name}: {e}") from None


def _json_layer(name, i, layer):
    """Layer ``i`` of the JSON policy file ``name`` as ``(weight, bias)`` float32 arrays, or
    ``PolicyError`` naming the file, the layer and what is wrong with it."""
    if not isinstance(layer, dict):
        raise PolicyError(f"{name}: layer {i} is a {type(layer).__name__}, not an object")
    for key in ("inputs", "outputs", "weights", "bias"):
        if key not in layer:
            raise PolicyError(f"{name}: layer {i} has no {key!r}")
    inputs, outputs = layer["inputs"], layer["outputs"]
    for key, n in (("inputs", inputs), ("outputs", outputs)):
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise PolicyError(f"{name}: layer {i}: {key} is {n!r}, not a count of at least 1")
    try:
        w = np.asarray(layer["weights"], dtype=np.float32)
        b = np.asarray(layer["bias"], dtype=np.float32)
    except (TypeError, ValueError) as e:
        raise PolicyError(f"{name}: layer {i}: its weights or bias are not numbers ({e})") from None
    if w.ndim != 1 or w.size != outputs * inputs:
        raise PolicyError(f"{name}: layer {i} has {w.size} weights, expected "
                          f"{outputs} x {inputs} in a flat list")
    return w.reshape(outputs, inputs), b
