"""Policy files: a torch MLP exported with ``taisim.export_policy`` scores observations in
Rust (the policy agent's own code path, ``taisim.policy_logits``) as torch does; the file is
refused by name when it does not fit; the old JSON format converts; an exported policy plays
as an opponent. Skipped with TAISIM_RL=0 (no torch); a broken torch fails here where the RL
extras are meant to be installed (rl_extras.py)."""

import json

import numpy as np
import pytest

import taisim
from rl_extras import rl_import

torch = rl_import("torch")
from safetensors.numpy import load_file, save_file  # noqa: E402

OBS_LEN = taisim.OBS_SHAPE[0] * taisim.OBS_SHAPE[1]
A = taisim.ACTION_SPACE_SIZE


def observations(n, seed=0):
    """``n`` observations and masks from seeded deals against greedy opponents, the learner
    playing random legal actions, so that they cover turns and claims late and early."""
    env = taisim.VecEnv(num_envs=16, opponents="greedy", threads=1)
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out, masks = [], []
    while sum(len(o) for o in out) < n:
        mask = info["action_mask"]
        out.append(obs.copy())
        masks.append(mask.copy())
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        obs, _, _, _, info = env.step(actions)
    return np.concatenate(out)[:n], np.concatenate(masks)[:n].astype(bool)


def mlp(*hidden, seed=1):
    torch.manual_seed(seed)
    widths = [OBS_LEN, *hidden, A]
    layers = [torch.nn.Flatten()]
    for i in range(len(widths) - 1):
        layers.append(torch.nn.Linear(widths[i], widths[i + 1]))
        if i < len(widths) - 2:
            layers.append(torch.nn.ReLU())
    return torch.nn.Sequential(*layers)


def numpy_forward(layers, obs):
    """The policy format's meaning, written out independently of torch and Rust."""
    x = obs.reshape(len(obs), -1).astype(np.float64)
    for i, (w, b) in enumerate(layers):
        x = x @ np.asarray(w, dtype=np.float64).T + np.asarray(b, dtype=np.float64)
        if i < len(layers) - 1:
            x = np.maximum(x, 0.0)
    return x


@pytest.mark.parametrize("hidden", [(), (64,), (96, 48)])
def test_rust_scores_match_torch(tmp_path, hidden):
    module = mlp(*hidden)
    path = taisim.export_policy(module, tmp_path / "p.safetensors")
    obs, masks = observations(600)
    rust = taisim.policy_logits(path, obs)
    with torch.no_grad():
        ref = module(torch.from_numpy(obs)).numpy()
    assert rust.shape == (len(obs), A) and rust.dtype == np.float32
    np.testing.assert_allclose(rust, ref, rtol=1e-4, atol=1e-4)
    # The agent's choice: the best legal action. Equal wherever torch's best is clear.
    legal_rust = np.where(masks, rust, -np.inf)
    legal_ref = np.where(masks, ref, -np.inf)
    top2 = np.sort(legal_ref, axis=1)[:, -2:]
    clear = (top2[:, 1] - top2[:, 0]) > 1e-3
    assert clear.sum() > 0.9 * len(obs)
    assert (legal_rust.argmax(1) == legal_ref.argmax(1))[clear].all()
    # The file holds what the format says.
    tensors = load_file(str(path))
    linears = [m for m in module if isinstance(m, torch.nn.Linear)]
    assert sorted(tensors) == sorted(
        f"layers.{i}.{p}" for i in range(len(linears)) for p in ("weight", "bias")
    )
    np.testing.assert_allclose(
        numpy_forward([(tensors[f"layers.{i}.weight"], tensors[f"layers.{i}.bias"])
                       for i in range(len(linears))], obs),
        rust, rtol=1e-4, atol=1e-4)


def test_an_exported_policy_plays_as_an_opponent(tmp_path):
    path = taisim.export_policy(mlp(32), tmp_path / "p.safetensors")
    env = taisim.Env(opponents=f"policy:{path}")
    ended = 0
    obs, info = env.reset(seed=3)
    for _ in range(2000):
        action = int(np.flatnonzero(info["action_mask"])[0])
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated:
            ended += 1
            obs, info = env.reset()
    assert ended > 3


def test_modules_outside_the_format_are_refused(tmp_path):
    p = tmp_path / "x.safetensors"
    with pytest.raises(taisim.PolicyError, match="action space"):
        taisim.export_policy(torch.nn.Linear(OBS_LEN, 10), p)
    with pytest.raises(taisim.PolicyError, match="expected"):
        taisim.export_policy(torch.nn.Linear(100, A), p)
    with pytest.raises(taisim.PolicyError, match="Tanh"):
        taisim.export_policy(torch.nn.Sequential(torch.nn.Linear(OBS_LEN, 8), torch.nn.Tanh(),
                                                 torch.nn.Linear(8, A)), p)
    with pytest.raises(taisim.PolicyError, match="alternate"):
        taisim.export_policy(torch.nn.Sequential(torch.nn.Linear(OBS_LEN, 8), torch.nn.Linear(8, A)), p)
    with pytest.raises(taisim.PolicyError, match="end with"):
        taisim.export_policy(torch.nn.Sequential(torch.nn.Linear(OBS_LEN, A), torch.nn.ReLU()), p)
    with pytest.raises(taisim.PolicyError, match="bias"):
        taisim.export_policy(torch.nn.Linear(OBS_LEN, A, bias=False), p)
    assert not p.exists()


def test_rust_refuses_a_file_that_does_not_fit(tmp_path):
    good = taisim.export_policy(mlp(8), tmp_path / "good.safetensors")
    tensors = load_file(str(good))
    meta = {"format": "taisim-policy", "architecture": "mlp", "activation": "relu",
            "layers": "2", "obs_version": str(taisim.OBS_VERSION), "action_space": str(A)}
    obs = np.zeros((1, OBS_LEN), dtype=np.float32)

    def refused(tensors, meta, match):
        path = tmp_path / "bad.safetensors"
        save_file(tensors, str(path), metadata=meta)
        with pytest.raises(taisim.PolicyError, match=match):
            taisim.policy_logits(path, obs)
        with pytest.raises(taisim.PolicyError, match=match):
            taisim.Env(opponents=f"policy:{path}")

    refused(tensors, dict(meta, obs_version=str(taisim.OBS_VERSION + 1)), "observation version")
    refused({k: v for k, v in tensors.items() if k != "layers.1.bias"}, meta, "layers.1.bias")
    refused(dict(tensors, **{"layers.0.weight": tensors["layers.0.weight"].T.copy()}), meta, "layer 0")
    refused(dict(tensors, **{"layers.1.bias": tensors["layers.1.bias"].astype(np.float16)}), meta, "F16")
    refused(tensors, {k: v for k, v in meta.items() if k != "obs_version"}, "obs_version")
    (tmp_path / "junk.safetensors").write_bytes(b"\x00" * 40)
    with pytest.raises(taisim.PolicyError, match="not a safetensors file"):
        taisim.policy_logits(tmp_path / "junk.safetensors", obs)
    with pytest.raises(taisim.UsageError, match="values per row"):
        taisim.policy_logits(good, np.zeros((2, 10), dtype=np.float32))


def test_old_json_files_are_refused_with_how_to_convert_and_convert(tmp_path):
    module = mlp(16, seed=4)
    linears = [m for m in module if isinstance(m, torch.nn.Linear)]
    doc = {"format": "taisim-policy", "obs_version": taisim.OBS_VERSION, "action_space": A,
           "layers": [{"inputs": m.in_features, "outputs": m.out_features,
                       "weights": m.weight.detach().numpy().ravel().tolist(),
                       "bias": m.bias.detach().numpy().tolist()} for m in linears]}
    old = tmp_path / "old.json"
    old.write_text(json.dumps(doc))
    obs, _ = observations(50, seed=2)
    with pytest.raises(taisim.PolicyError, match="convert_json_policy"):
        taisim.policy_logits(old, obs)
    new = taisim.convert_json_policy(old, tmp_path / "new.safetensors")
    with torch.no_grad():
        ref = module(torch.from_numpy(obs)).numpy()
    np.testing.assert_allclose(taisim.policy_logits(new, obs), ref, rtol=1e-4, atol=1e-4)
    old.write_text(json.dumps(dict(doc, obs_version=taisim.OBS_VERSION + 1)))
    with pytest.raises(taisim.PolicyError, match="retrained"):
        taisim.convert_json_policy(old, tmp_path / "x.safetensors")


def test_the_shipped_policy_is_an_opponent_and_a_vec_env_opponent():
    # `trained` is built into the package: no path, the same name as on the CLI.
    env = taisim.Env(opponents="trained")
    vec = taisim.VecEnv(num_envs=4, opponents="greedy,trained,trained,random", threads=1)
    ended = 0
    obs, info = env.reset(seed=3)
    vobs, vinfo = vec.reset(seed=3)
    for _ in range(1000):
        obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        actions = vinfo["action_mask"].argmax(1)
        vobs, r, term, trunc, vinfo = vec.step(actions)
        if terminated:
            ended += 1
            obs, info = env.reset()
    assert ended > 3
    with pytest.raises(taisim.AgentError, match="trained"):
        taisim.Env(opponents="trainde")


def test_the_same_module_is_written_to_the_same_bytes(tmp_path):
    module = mlp(16)
    a = taisim.export_policy(module, tmp_path / "a.safetensors")
    b = taisim.export_policy(module, tmp_path / "b.safetensors")
    assert open(a, "rb").read() == open(b, "rb").read()


def kind_policy(hidden=(48,), kind_hidden=8, seed=2):
    from taisim.torch_policy import KindPolicy

    torch.manual_seed(seed)
    module = KindPolicy.new(hidden, kind_hidden)
    # Larger weights than the initialisation's, so the head's scores are not lost in the MLP's.
    with torch.no_grad():
        for p in module.head.parameters():
            p.mul_(4.0)
    return module


def numpy_kind_scores(tensors, obs):
    """The per-kind head's formula (agents/src/kind_head.rs), in numpy from the file's tensors."""
    x = obs.reshape(len(obs), -1).astype(np.float64)
    layers = []
    while f"layers.{len(layers)}.weight" in tensors:
        i = len(layers)
        layers.append((tensors[f"layers.{i}.weight"], tensors[f"layers.{i}.bias"]))
    h = x
    for w, b in layers[:-1]:
        h = np.maximum(h @ w.T.astype(np.float64) + b, 0.0)
    out = h @ layers[-1][0].T.astype(np.float64) + layers[-1][1]
    rows = tensors["kinds.input.weight"].shape[1] // 2
    grid = x[:, : rows * 34].reshape(len(x), rows, 34)
    columns = np.concatenate([grid, grid - grid.max(2, keepdims=True)], 1).transpose(0, 2, 1)
    context = h @ tensors["kinds.context.weight"].T.astype(np.float64)
    z = np.maximum(columns @ tensors["kinds.input.weight"].T + tensors["kinds.input.bias"]
                   + context[:, None, :], 0.0)
    scores = z @ tensors["kinds.output.weight"].T + tensors["kinds.output.bias"]
    for b, start in enumerate((0, 34, 73, 107)):
        out[:, start:start + 34] += scores[:, :, b]
    return out


def test_a_kind_policy_scores_in_rust_as_in_torch(tmp_path):
    module = kind_policy()
    path = taisim.export_policy(module, tmp_path / "k.safetensors")
    obs, masks = observations(600, seed=4)
    rust = taisim.policy_logits(path, obs)
    with torch.no_grad():
        ref = module(torch.from_numpy(obs)).numpy()
        plain = module.mlp(torch.from_numpy(obs).reshape(len(obs), -1)).numpy()
    np.testing.assert_allclose(rust, ref, rtol=1e-4, atol=1e-4)
    # The head counts: the discards' scores differ from the MLP's alone.
    assert np.abs(ref[:, :34] - plain[:, :34]).mean() > 0.1
    tensors = load_file(str(path))
    assert sorted(k for k in tensors if k.startswith("kinds.")) == [
        "kinds.context.weight", "kinds.input.bias", "kinds.input.weight",
        "kinds.output.bias", "kinds.output.weight"]
    np.testing.assert_allclose(numpy_kind_scores(tensors, obs), rust, rtol=1e-4, atol=1e-4)
    # The same module gives the same bytes; it plays as an opponent.
    again = taisim.export_policy(module, tmp_path / "k2.safetensors")
    assert again.read_bytes() == path.read_bytes()
    env = taisim.Env(opponents=f"policy:{path}")
    obs, info = env.reset(seed=5)
    for _ in range(300):
        obs, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if terminated:
            obs, info = env.reset()


def test_a_misshapen_kind_head_is_refused(tmp_path):
    from taisim.policy import _save, mlp_layers

    module = kind_policy()
    head = module.head
    parts = [t.detach().numpy() for t in (head.input.weight, head.input.bias,
                                          head.context.weight, head.output.weight,
                                          head.output.bias)]
    layers = mlp_layers(module.mlp)
    p = tmp_path / "bad.safetensors"
    transposed = list(parts)
    transposed[2] = np.ascontiguousarray(parts[2].T)
    with pytest.raises(taisim.PolicyError, match="context weight has shape"):
        _save(layers, p, transposed)
    narrow = list(parts)
    narrow[0] = parts[0][:, :10]
    with pytest.raises(taisim.PolicyError, match="per-kind head: the input layer takes 10 values"):
        _save(layers, p, narrow)
    assert not p.exists()
