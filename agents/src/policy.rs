//! A trained policy: a linear layer or a small MLP over the observation tensor, scoring the
//! action space; the agent plays the highest-scoring legal action.
//!
//! The file a trainer writes is JSON:
//!
//! ```json
//! {
//!   "format": "taisim-policy",
//!   "obs_version": 1,
//!   "action_space": 144,
//!   "layers": [
//!     {"inputs": 2006, "outputs": 64, "weights": [...], "bias": [...]},
//!     {"inputs": 64, "outputs": 144, "weights": [...], "bias": [...]}
//!   ]
//! }
//! ```
//!
//! `weights` is row-major `outputs × inputs` (PyTorch's `nn.Linear.weight` flattened), the
//! input is the observation flattened row-major (`OBS_LEN` values), and a ReLU follows every
//! layer but the last. One layer is a linear policy. The observation version is checked on
//! load: weights trained on another layout are refused rather than silently misread.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use taisim_sim::{Action, ActionList, Seat, View};

use crate::agent::Agent;
use crate::obs::{encode_slice, obs_shape, OBS_LEN, OBS_VERSION};
use crate::space::{action_index, ACTION_SPACE_SIZE};

/// The `format` tag of a policy file.
pub const POLICY_FORMAT: &str = "taisim-policy";

/// One dense layer: `y = W x + b`, `W` row-major `outputs × inputs`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Layer {
    pub inputs: usize,
    pub outputs: usize,
    pub weights: Vec<f32>,
    pub bias: Vec<f32>,
}

impl Layer {
    /// A layer from its weights (row-major `outputs × inputs`) and bias.
    pub fn new(inputs: usize, outputs: usize, weights: Vec<f32>, bias: Vec<f32>) -> Layer {
        Layer {
            inputs,
            outputs,
            weights,
            bias,
        }
    }

    /// Output `row` for input `x`.
    #[inline]
    fn row(&self, row: usize, x: &[f32]) -> f32 {
        let w = &self.weights[row * self.inputs..(row + 1) * self.inputs];
        // Four accumulators let the compiler vectorise without reassociating one sum.
        let mut acc = [0f32; 4];
        let mut chunks = w.chunks_exact(4).zip(x.chunks_exact(4));
        for (w4, x4) in &mut chunks {
            for k in 0..4 {
                acc[k] += w4[k] * x4[k];
            }
        }
        let tail: f32 = w[w.len() / 4 * 4..]
            .iter()
            .zip(&x[x.len() / 4 * 4..])
            .map(|(a, b)| a * b)
            .sum();
        self.bias[row] + (acc[0] + acc[1]) + (acc[2] + acc[3]) + tail
    }
}

/// The policy file as written to disk (see the module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct PolicyFile {
    format: String,
    obs_version: u32,
    action_space: usize,
    layers: Vec<Layer>,
}

/// Why a policy could not be loaded, saved or built.
#[derive(Debug, thiserror::Error)]
pub enum PolicyError {
    #[error("cannot read or write policy file {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("policy file is not valid JSON for a taisim policy: {0}")]
    Json(#[from] serde_json::Error),
    #[error("policy file format is {0:?}, expected {POLICY_FORMAT:?}")]
    Format(String),
    #[error(
        "policy was trained on observation version {found}, this build encodes version {expected}"
    )]
    ObsVersion { found: u32, expected: u32 },
    #[error("policy scores {found} actions, the action space has {expected}")]
    ActionSpace { found: usize, expected: usize },
    #[error("policy has no layers")]
    NoLayers,
    #[error("layer {layer}: {problem}")]
    LayerShape { layer: usize, problem: String },
    #[error("layer {layer} holds a NaN or infinite value")]
    NotFinite { layer: usize },
}

/// A validated policy network. Immutable; agents share it through an `Arc`.
#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    layers: Vec<Layer>,
}

impl Policy {
    /// A policy from its layers, checked against the current observation and action space.
    pub fn new(layers: Vec<Layer>) -> Result<Policy, PolicyError> {
        if layers.is_empty() {
            return Err(PolicyError::NoLayers);
        }
        let mut inputs = OBS_LEN;
        for (i, l) in layers.iter().enumerate() {
            let problem = if l.inputs != inputs {
                Some(format!("takes {} inputs, expected {inputs}", l.inputs))
            } else if l.weights.len() != l.inputs * l.outputs {
                Some(format!(
                    "has {} weights, expected {} × {}",
                    l.weights.len(),
                    l.outputs,
                    l.inputs
                ))
            } else if l.bias.len() != l.outputs {
                Some(format!(
                    "has {} biases, expected {}",
                    l.bias.len(),
                    l.outputs
                ))
            } else if l.outputs == 0 {
                Some("has no outputs".to_string())
            } else {
                None
            };
            if let Some(problem) = problem {
                return Err(PolicyError::LayerShape { layer: i, problem });
            }
            if !l.weights.iter().chain(&l.bias).all(|v| v.is_finite()) {
                return Err(PolicyError::NotFinite { layer: i });
            }
            inputs = l.outputs;
        }
        if inputs != ACTION_SPACE_SIZE {
            return Err(PolicyError::ActionSpace {
                found: inputs,
                expected: ACTION_SPACE_SIZE,
            });
        }
        Ok(Policy { layers })
    }

    /// A linear policy: `weights` row-major `ACTION_SPACE_SIZE × OBS_LEN`.
    pub fn linear(weights: Vec<f32>, bias: Vec<f32>) -> Result<Policy, PolicyError> {
        Policy::new(vec![Layer::new(OBS_LEN, ACTION_SPACE_SIZE, weights, bias)])
    }

    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    /// Parses and validates a policy file's text.
    pub fn from_json(text: &str) -> Result<Policy, PolicyError> {
        let file: PolicyFile = serde_json::from_str(text)?;
        if file.format != POLICY_FORMAT {
            return Err(PolicyError::Format(file.format));
        }
        if file.obs_version != OBS_VERSION || obs_shape(file.obs_version).is_none() {
            return Err(PolicyError::ObsVersion {
                found: file.obs_version,
                expected: OBS_VERSION,
            });
        }
        if file.action_space != ACTION_SPACE_SIZE {
            return Err(PolicyError::ActionSpace {
                found: file.action_space,
                expected: ACTION_SPACE_SIZE,
            });
        }
        Policy::new(file.layers)
    }

    /// The policy file's text, recording the observation version and action space.
    pub fn to_json(&self) -> String {
        let file = PolicyFile {
            format: POLICY_FORMAT.to_string(),
            obs_version: OBS_VERSION,
            action_space: ACTION_SPACE_SIZE,
            layers: self.layers.clone(),
        };
        serde_json::to_string(&file).expect("a policy always serialises")
    }

    /// Reads a policy file.
    pub fn load(path: impl AsRef<Path>) -> Result<Policy, PolicyError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|source| PolicyError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Policy::from_json(&text)
    }

    /// Writes the policy file.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), PolicyError> {
        let path = path.as_ref();
        std::fs::write(path, self.to_json()).map_err(|source| PolicyError::Io {
            path: path.to_path_buf(),
            source,
        })
    }

    /// The widest hidden layer (scratch size).
    fn widest_hidden(&self) -> usize {
        let n = self.layers.len();
        self.layers[..n - 1]
            .iter()
            .map(|l| l.outputs)
            .max()
            .unwrap_or(0)
    }

    /// Runs every layer but the last on `input`, in `scratch`; returns the last layer's input.
    fn hidden<'s>(&self, input: &'s [f32], scratch: &'s mut [Vec<f32>; 2]) -> &'s [f32] {
        let n = self.layers.len();
        if n == 1 {
            return input;
        }
        let [a, b] = scratch;
        for (i, layer) in self.layers[..n - 1].iter().enumerate() {
            let (src, dst): (&[f32], &mut Vec<f32>) = match i {
                0 => (input, &mut *a),
                _ if i % 2 == 1 => (&a[..], &mut *b),
                _ => (&b[..], &mut *a),
            };
            // `dst` was sized to the widest layer when the scratch was made: no reallocation.
            dst.clear();
            dst.extend((0..layer.outputs).map(|r| layer.row(r, src).max(0.0)));
        }
        if (n - 2) % 2 == 0 {
            &a[..]
        } else {
            &b[..]
        }
    }

    /// Scratch buffers for [`Policy::scores`], sized for this policy.
    pub fn scratch(&self) -> [Vec<f32>; 2] {
        let w = self.widest_hidden();
        [Vec::with_capacity(w), Vec::with_capacity(w)]
    }

    /// Scores every action for a flattened observation `input` (`OBS_LEN` values) into
    /// `out` (`ACTION_SPACE_SIZE` values). `scratch` comes from [`Policy::scratch`].
    ///
    /// # Panics
    /// On wrong input or output lengths.
    pub fn scores(&self, input: &[f32], scratch: &mut [Vec<f32>; 2], out: &mut [f32]) {
        assert_eq!(input.len(), OBS_LEN);
        assert_eq!(out.len(), ACTION_SPACE_SIZE);
        let last = self.layers.last().expect("validated: at least one layer");
        let h = self.hidden(input, scratch);
        for (r, o) in out.iter_mut().enumerate() {
            *o = last.row(r, h);
        }
    }
}

/// Plays the highest-scoring legal action of a [`Policy`] (ties: the lowest index).
/// Deterministic. Only the legal actions' output rows are computed.
#[derive(Clone, Debug)]
pub struct PolicyAgent {
    policy: Arc<Policy>,
    obs: Vec<f32>,
    scratch: [Vec<f32>; 2],
}

impl PolicyAgent {
    pub fn new(policy: Arc<Policy>) -> PolicyAgent {
        let scratch = policy.scratch();
        PolicyAgent {
            policy,
            obs: vec![0.0; OBS_LEN],
            scratch,
        }
    }

    pub fn policy(&self) -> &Arc<Policy> {
        &self.policy
    }
}

impl Agent for PolicyAgent {
    fn reset(&mut self, _seed: u64, _seat: Seat) {}

    fn act(&mut self, view: &View<'_>, legal: &ActionList) -> Action {
        encode_slice(view, &mut self.obs);
        let last = self
            .policy
            .layers
            .last()
            .expect("validated: at least one layer");
        let h = self.policy.hidden(&self.obs, &mut self.scratch);
        let offer = view.tile_on_offer();
        let mut best = (f32::NEG_INFINITY, usize::MAX, legal[0]);
        for &a in legal {
            let i = action_index(a, offer).expect("a legal action has an index");
            let s = last.row(i, h);
            if s > best.0 || (s == best.0 && i < best.1) {
                best = (s, i, a);
            }
        }
        best.2
    }

    fn name(&self) -> &str {
        "policy"
    }
}
