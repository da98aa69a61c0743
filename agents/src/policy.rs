//! A trained policy: a linear layer or a small MLP over the observation tensor, scoring the
//! action space; the agent plays the highest-scoring legal action.
//!
//! The file is [safetensors](https://huggingface.co/docs/safetensors) (what PyTorch users
//! already write with `safetensors.torch.save_file`; `taisim.export_policy` in Python writes
//! it from a `torch.nn` MLP). It holds, for each layer `i` from 0, two little-endian `F32`
//! tensors, PyTorch's `nn.Linear` parameters under their own names:
//!
//! | tensor             | shape                 |
//! |--------------------|-----------------------|
//! | `layers.{i}.weight` | `[outputs, inputs]`  |
//! | `layers.{i}.bias`   | `[outputs]`          |
//!
//! and, in the header's `__metadata__` (string values, as safetensors requires):
//!
//! | key            | value                                                      |
//! |----------------|------------------------------------------------------------|
//! | `format`       | `taisim-policy`                                            |
//! | `architecture` | `mlp`, or `mlp_kinds` with a per-kind head                 |
//! | `activation`   | `relu` (after every layer but the last)                    |
//! | `layers`       | the number of layers                                       |
//! | `obs_version`  | the observation layout it was trained on ([`OBS_VERSION`]) |
//! | `action_space` | its output width ([`ACTION_SPACE_SIZE`])                   |
//! | `greedy_margin`| optional: a residual policy (below), a number ≥ 0          |
//! | `decides`      | optional: `all` (the default), `turns` or `offers`         |
//!
//! A policy with a `greedy_margin` m refines greedy rather than replacing it: its scores are
//! read as points gained over greedy's choice (what a search's advantages teach, see
//! `scripts/distill_policy.py --residual`), and it plays greedy's choice unless the legal
//! action scoring highest scores more than m above it. A win greedy takes is always taken. A network that has learnt little
//! then plays as greedy does, not worse.
//!
//! A policy that `decides` only `turns` (the seat's own turn: a discard, kong, ready
//! declaration or self-drawn win) plays greedy's answer whenever a discard, kong or flower is
//! on offer (wherever passing is legal), and one that decides only `offers` plays greedy's
//! turn: a student trained on one kind of decision (`scripts/distill_policy.py
//! --decisions-at`) is played only where it learnt.
//!
//! The input is the observation flattened row-major (`OBS_LEN` values); the first layer takes
//! `OBS_LEN` inputs, each layer the previous one's outputs, and the last gives one score per
//! action. One layer is a linear policy.
//!
//! A `mlp_kinds` policy adds a head shared by the 34 tile kinds ([`KindHead`], whose docs
//! give the formula), its scores added to those of the actions named by a kind:
//!
//! | tensor                 | shape                                         |
//! |------------------------|-----------------------------------------------|
//! | `kinds.input.weight`   | `[hidden, 2 × observation rows]`              |
//! | `kinds.input.bias`     | `[hidden]`                                    |
//! | `kinds.context.weight` | `[hidden, inputs of the last layer]`          |
//! | `kinds.output.weight`  | `[4, hidden]`                                 |
//! | `kinds.output.bias`    | `[4]`                                         |
//!
//! The observation version is checked on load: a policy
//! of an older layout that is a prefix of the current one (version 2, see
//! [`OLDEST_POLICY_OBS_VERSION`]) takes the first `obs_shape(version)` rows of the current
//! observation, which are exactly the observation it was trained on; weights trained on any
//! other layout are refused rather than silently misread. Every problem is an
//! error naming it: not a safetensors file, a missing tensor or key, a wrong shape or dtype.
//!
//! Why safetensors and not ONNX: a policy here is a fixed MLP (and a fixed head), so the reader needs shapes and
//! numbers, not a graph interpreter; the `safetensors` crate is small and pure Rust (serde,
//! serde_json, hashbrown), where an ONNX runtime (tract) brings a large dependency tree to
//! every build. The JSON files of earlier versions are refused with a message saying how to
//! convert them (`taisim.convert_json_policy`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use safetensors::{Dtype, SafeTensorError, SafeTensors};
use taisim_score::Variant;
use taisim_sim::{Action, ActionList, Seat, View};

use crate::agent::Agent;
use crate::dense::{add_set_columns, transposed, Layer};
use crate::greedy::GreedyAgent;
use crate::kind_head::{kind_action, KindHead, KindScratch, KIND_BLOCKS};
use crate::obs::{encode_slice, obs_shape, OBS_LEN, OBS_VERSION, OBS_WIDTH};
use crate::space::{action_index, ACTION_SPACE_SIZE};

/// The `format` tag of a policy file (its safetensors metadata).
pub const POLICY_FORMAT: &str = "taisim-policy";
/// The architecture of a policy of dense layers with ReLU between them.
pub const POLICY_ARCHITECTURE: &str = "mlp";
/// The architecture of such a policy with a per-kind head ([`KindHead`]).
pub const POLICY_ARCHITECTURE_KINDS: &str = "mlp_kinds";
/// The tensors of a per-kind head, in file order.
const KIND_TENSORS: [&str; 5] = [
    "kinds.input.weight",
    "kinds.input.bias",
    "kinds.context.weight",
    "kinds.output.weight",
    "kinds.output.bias",
];
/// The activation between layers.
pub const POLICY_ACTIVATION: &str = "relu";
/// The oldest observation version a policy may have been trained on. Every later layout only
/// appends rows to it, so its observation is the first rows of the current one. Version 1
/// (the same rows less the wild row) is a prefix too, but its policies were trained before
/// the wild existed and would play taizhou blind to it: version 2 refused them by name, and
/// they stay refused.
pub const OLDEST_POLICY_OBS_VERSION: u32 = 2;

/// The input width of a policy trained on observation `version`, if this build can feed it.
pub const fn policy_inputs(version: u32) -> Option<usize> {
    if version < OLDEST_POLICY_OBS_VERSION || version > OBS_VERSION {
        return None;
    }
    match obs_shape(version) {
        Some([rows, width]) => Some(rows * width),
        None => None,
    }
}

/// More layers than any sensible policy has; bounds what a file may ask to be read.
pub const MAX_LAYERS: usize = 16;

/// The decisions a policy makes; greedy makes the others (see the module documentation).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Decides {
    /// Every decision.
    #[default]
    All,
    /// The seat's own turns; greedy answers what is on offer.
    Turns,
    /// The answers to a discard, kong or flower on offer; greedy plays the turns.
    Offers,
}

impl Decides {
    /// Every value, in the order of their names.
    pub const ALL: [Decides; 3] = [Decides::All, Decides::Turns, Decides::Offers];

    /// The name in a policy file's metadata.
    pub const fn name(self) -> &'static str {
        match self {
            Decides::All => "all",
            Decides::Turns => "turns",
            Decides::Offers => "offers",
        }
    }

    /// Whether the policy makes a decision whose legal actions are `legal`: an offer is a
    /// decision where passing is legal.
    pub fn covers(self, legal: &ActionList) -> bool {
        match self {
            Decides::All => true,
            Decides::Turns => !legal.contains(&Action::Pass),
            Decides::Offers => legal.contains(&Action::Pass),
        }
    }
}

impl std::str::FromStr for Decides {
    type Err = PolicyError;

    fn from_str(s: &str) -> Result<Decides, PolicyError> {
        Decides::ALL
            .into_iter()
            .find(|d| d.name() == s)
            .ok_or_else(|| PolicyError::Metadata {
                key: "decides",
                found: s.to_string(),
                expected: "all, turns or offers".to_string(),
            })
    }
}

impl std::fmt::Display for Decides {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The largest policy file read: about a hundred times the shipped policy (2.7 MB), 64
/// million f32 weights, far more than an agent deciding in microseconds can use.
pub const POLICY_FILE_LIMIT: u64 = 256 << 20;

/// Why a policy could not be loaded, saved or built.
#[derive(Debug, thiserror::Error)]
pub enum PolicyError {
    #[error("cannot {op} policy file {path}: {source}", op = if *writing { "write" } else { "read" })]
    Io {
        path: PathBuf,
        /// Whether the file was being written (saved), not read.
        writing: bool,
        source: std::io::Error,
    },
    #[error("{}: {source}", path.display())]
    InFile {
        path: PathBuf,
        #[source]
        source: Box<PolicyError>,
    },
    #[error("policy file is not a safetensors file: {0}")]
    NotSafetensors(#[source] SafeTensorError),
    #[error(
        "this is a JSON policy file, the format before safetensors; convert it with \
         python -c \"import taisim; taisim.convert_json_policy('OLD.json', 'NEW.safetensors')\""
    )]
    JsonFile,
    #[error("policy file has no metadata key {0:?} (written by taisim.export_policy?)")]
    MissingKey(&'static str),
    #[error("policy file metadata {key} is {found:?}, expected {expected}")]
    Metadata {
        key: &'static str,
        found: String,
        expected: String,
    },
    #[error("policy file format is {0:?}, expected {POLICY_FORMAT:?}")]
    Format(String),
    #[error(
        "policy was trained on observation version {found}, this build encodes version {expected}"
    )]
    ObsVersion { found: u32, expected: u32 },
    #[error("policy scores {found} actions, the action space has {expected}")]
    ActionSpace { found: usize, expected: usize },
    #[error("policy file has no tensor {0:?}")]
    MissingTensor(String),
    #[error("policy file holds tensor {0:?}, which is not a layer of its {1} layers")]
    ExtraTensor(String, usize),
    #[error("tensor {name:?} has dtype {found}, expected F32")]
    Dtype { name: String, found: String },
    #[error("policy has no layers")]
    NoLayers,
    #[error("layer {layer}: {problem}")]
    LayerShape { layer: usize, problem: String },
    #[error("layer {layer} holds a NaN or infinite value")]
    NotFinite { layer: usize },
    #[error("per-kind head: {0}")]
    KindHead(String),
    #[error(
        "the shipped policy `trained` (agents/policies/trained.safetensors) is unreadable: {0}"
    )]
    Trained(#[source] Arc<PolicyError>),
}

/// A validated policy network. Immutable; agents share it through an `Arc`.
#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    layers: Vec<Layer>,
    /// Every hidden layer's weights transposed (`inputs × outputs`), so that a layer adds up
    /// only the columns of its inputs that are set: an observation is mostly zeros (5% of its
    /// values are set on average, 8% at most, in deals against greedy) and a ReLU output
    /// often is. The last layer stays row-major: the agent scores only the legal rows.
    columns: Vec<Vec<f32>>,
    /// The observation layout it was trained on: it reads the first
    /// [`policy_inputs`]`(obs_version)` values of the current observation.
    obs_version: u32,
    /// The per-kind head of a `mlp_kinds` policy.
    kinds: Option<KindHead>,
    /// A residual policy's margin over greedy's choice (see the module documentation).
    greedy_margin: Option<f32>,
    /// The decisions it makes; greedy makes the others.
    decides: Decides,
}

/// Per-decision buffers of a [`Policy`], from [`Policy::scratch`].
#[derive(Clone, Debug)]
pub struct PolicyScratch {
    hidden: [Vec<f32>; 2],
    /// Boxed: agents are enum variants moved by value, and most policies have no head.
    kinds: Option<Box<KindScratch>>,
}

impl Policy {
    /// A policy from its layers, checked against the current observation and action space.
    pub fn new(layers: Vec<Layer>) -> Result<Policy, PolicyError> {
        Policy::for_obs_version(layers, OBS_VERSION)
    }

    /// A policy from its layers, trained on observation layout `obs_version`: checked
    /// against that layout's width ([`policy_inputs`]) and the action space.
    pub fn for_obs_version(layers: Vec<Layer>, obs_version: u32) -> Result<Policy, PolicyError> {
        let Some(mut inputs) = policy_inputs(obs_version) else {
            return Err(PolicyError::ObsVersion {
                found: obs_version,
                expected: OBS_VERSION,
            });
        };
        if layers.is_empty() {
            return Err(PolicyError::NoLayers);
        }
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
        let columns = layers[..layers.len() - 1]
            .iter()
            .map(|l| transposed(&l.weights, l.outputs, l.inputs))
            .collect();
        Ok(Policy {
            layers,
            columns,
            obs_version,
            kinds: None,
            greedy_margin: None,
            decides: Decides::All,
        })
    }

    /// The policy with a per-kind head (see [`KindHead`]): `input` reads twice the rows of
    /// its observation layout, `context` (row-major, of shape `context_shape`, which must be
    /// `[hidden, inputs of the last layer]`) the trunk's last hidden layer, and `output`
    /// gives the four per-kind scores.
    pub fn with_kind_head(
        mut self,
        input: Layer,
        context_shape: [usize; 2],
        context: Vec<f32>,
        output: Layer,
    ) -> Result<Policy, PolicyError> {
        let rows = self.layers[0].inputs / OBS_WIDTH;
        let width = self
            .layers
            .last()
            .expect("validated: at least one layer")
            .inputs;
        let head = KindHead::new(rows, width, input, context_shape, context, output)
            .map_err(|e| PolicyError::KindHead(e.0))?;
        self.kinds = Some(head);
        Ok(self)
    }

    /// The policy as a residual one over greedy with margin `margin` points (see the module
    /// documentation): a finite number, at least 0.
    pub fn with_greedy_margin(mut self, margin: f32) -> Result<Policy, PolicyError> {
        if !(margin.is_finite() && margin >= 0.0) {
            return Err(PolicyError::Metadata {
                key: "greedy_margin",
                found: margin.to_string(),
                expected: "a finite number of points, at least 0".to_string(),
            });
        }
        self.greedy_margin = Some(margin);
        Ok(self)
    }

    /// A residual policy's margin over greedy's choice, if it is one.
    pub fn greedy_margin(&self) -> Option<f32> {
        self.greedy_margin
    }

    /// The policy making only the decisions `decides` names, greedy the others.
    pub fn with_decides(mut self, decides: Decides) -> Policy {
        self.decides = decides;
        self
    }

    /// The decisions the policy makes.
    pub fn decides(&self) -> Decides {
        self.decides
    }

    /// The per-kind head, if the policy has one.
    pub fn kind_head(&self) -> Option<&KindHead> {
        self.kinds.as_ref()
    }

    /// A linear policy: `weights` row-major `ACTION_SPACE_SIZE × OBS_LEN`.
    pub fn linear(weights: Vec<f32>, bias: Vec<f32>) -> Result<Policy, PolicyError> {
        Policy::new(vec![Layer::new(OBS_LEN, ACTION_SPACE_SIZE, weights, bias)])
    }

    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    /// The observation layout the policy was trained on.
    pub fn obs_version(&self) -> u32 {
        self.obs_version
    }

    /// Its input: the first values of a current observation, as many as its layout has.
    #[inline]
    fn input<'o>(&self, obs: &'o [f32]) -> &'o [f32] {
        &obs[..self.layers[0].inputs]
    }

    /// Parses and validates a policy file's bytes (see the module docs).
    pub fn from_bytes(bytes: &[u8]) -> Result<Policy, PolicyError> {
        let file = SafeTensors::deserialize(bytes).map_err(|e| {
            // A safetensors file may start with `{` too (its header length's low byte), so
            // the JSON guess comes only after the safetensors reading failed.
            if bytes.trim_ascii_start().first() == Some(&b'{') {
                PolicyError::JsonFile
            } else {
                PolicyError::NotSafetensors(e)
            }
        })?;
        let (_, header) = SafeTensors::read_metadata(bytes).map_err(PolicyError::NotSafetensors)?;
        let empty = HashMap::new();
        let meta = header.metadata().as_ref().unwrap_or(&empty);
        let get = |key: &'static str| {
            meta.get(key)
                .map(String::as_str)
                .ok_or(PolicyError::MissingKey(key))
        };
        let format = get("format")?;
        if format != POLICY_FORMAT {
            return Err(PolicyError::Format(format.to_string()));
        }
        let exact = |key: &'static str, expected: &str| match get(key)? {
            found if found == expected => Ok(()),
            found => Err(PolicyError::Metadata {
                key,
                found: found.to_string(),
                expected: format!("{expected:?}"),
            }),
        };
        let with_kinds = match get("architecture")? {
            POLICY_ARCHITECTURE => false,
            POLICY_ARCHITECTURE_KINDS => true,
            found => {
                return Err(PolicyError::Metadata {
                    key: "architecture",
                    found: found.to_string(),
                    expected: format!("{POLICY_ARCHITECTURE:?} or {POLICY_ARCHITECTURE_KINDS:?}"),
                })
            }
        };
        exact("activation", POLICY_ACTIVATION)?;
        let number = |key: &'static str, expected: &str| -> Result<usize, PolicyError> {
            let found = get(key)?;
            found.parse().map_err(|_| PolicyError::Metadata {
                key,
                found: found.to_string(),
                expected: expected.to_string(),
            })
        };
        let obs_version = number("obs_version", "a whole number")?;
        let found = u32::try_from(obs_version).unwrap_or(u32::MAX);
        if policy_inputs(found).is_none() {
            return Err(PolicyError::ObsVersion {
                found,
                expected: OBS_VERSION,
            });
        }
        let action_space = number("action_space", "a whole number")?;
        if action_space != ACTION_SPACE_SIZE {
            return Err(PolicyError::ActionSpace {
                found: action_space,
                expected: ACTION_SPACE_SIZE,
            });
        }
        let n = number(
            "layers",
            &format!("a number of layers from 1 to {MAX_LAYERS}"),
        )?;
        if !(1..=MAX_LAYERS).contains(&n) {
            return Err(PolicyError::Metadata {
                key: "layers",
                found: n.to_string(),
                expected: format!("a number of layers from 1 to {MAX_LAYERS}"),
            });
        }
        for (name, _) in file.iter() {
            let known = (0..n).any(|i| {
                name == format!("layers.{i}.weight") || name == format!("layers.{i}.bias")
            }) || (with_kinds && KIND_TENSORS.contains(&name));
            if !known {
                return Err(PolicyError::ExtraTensor(name.to_string(), n));
            }
        }
        let mut layers = Vec::with_capacity(n);
        for i in 0..n {
            let (w_shape, weights) = tensor(&file, &format!("layers.{i}.weight"))?;
            let (b_shape, bias) = tensor(&file, &format!("layers.{i}.bias"))?;
            let [outputs, inputs] = w_shape[..] else {
                return Err(PolicyError::LayerShape {
                    layer: i,
                    problem: format!("weight has shape {w_shape:?}, expected [outputs, inputs]"),
                });
            };
            if b_shape != [outputs] {
                return Err(PolicyError::LayerShape {
                    layer: i,
                    problem: format!("bias has shape {b_shape:?}, expected [{outputs}]"),
                });
            }
            layers.push(Layer::new(inputs, outputs, weights, bias));
        }
        let mut policy = Policy::for_obs_version(layers, found)?;
        if let Some(m) = meta.get("greedy_margin") {
            let margin = m.parse::<f32>().map_err(|_| PolicyError::Metadata {
                key: "greedy_margin",
                found: m.clone(),
                expected: "a finite number of points, at least 0".to_string(),
            })?;
            policy = policy.with_greedy_margin(margin)?;
        }
        if let Some(d) = meta.get("decides") {
            policy = policy.with_decides(d.parse()?);
        }
        if !with_kinds {
            return Ok(policy);
        }
        let [input_w, input_b, context, output_w, output_b] =
            KIND_TENSORS.map(|name| tensor(&file, name));
        let matrix = |t: (Vec<usize>, Vec<f32>), name: &str| match t.0[..] {
            [rows, cols] => Ok((rows, cols, t.1)),
            _ => Err(PolicyError::KindHead(format!(
                "{name} has shape {:?}, expected two dimensions",
                t.0
            ))),
        };
        let vector = |t: (Vec<usize>, Vec<f32>), name: &str, len: usize| match t.0[..] {
            [n] if n == len => Ok(t.1),
            _ => Err(PolicyError::KindHead(format!(
                "{name} has shape {:?}, expected [{len}]",
                t.0
            ))),
        };
        let (hidden, inputs, w) = matrix(input_w?, KIND_TENSORS[0])?;
        let input = Layer::new(
            inputs,
            hidden,
            w,
            vector(input_b?, KIND_TENSORS[1], hidden)?,
        );
        let (outputs, hidden_out, w) = matrix(output_w?, KIND_TENSORS[3])?;
        let bias = vector(output_b?, KIND_TENSORS[4], KIND_BLOCKS.len())?;
        let output = Layer::new(hidden_out, outputs, w, bias);
        let (context_rows, context_cols, context) = matrix(context?, KIND_TENSORS[2])?;
        policy.with_kind_head(input, [context_rows, context_cols], context, output)
    }

    /// The policy file's bytes (safetensors, see the module docs), recording the observation
    /// version and action space.
    pub fn to_bytes(&self) -> Vec<u8> {
        let bytes: Vec<(String, Vec<usize>, Vec<u8>)> = self
            .layers
            .iter()
            .enumerate()
            .flat_map(|(i, l)| {
                [
                    (
                        format!("layers.{i}.weight"),
                        vec![l.outputs, l.inputs],
                        le_bytes(&l.weights),
                    ),
                    (
                        format!("layers.{i}.bias"),
                        vec![l.outputs],
                        le_bytes(&l.bias),
                    ),
                ]
            })
            .collect();
        let mut bytes = bytes;
        if let Some(k) = &self.kinds {
            let width = self.layers.last().expect("validated").inputs;
            let (input, output) = (k.input(), k.output());
            let shapes = [
                (vec![input.outputs, input.inputs], &input.weights[..]),
                (vec![input.outputs], &input.bias[..]),
                (vec![k.hidden(), width], k.context()),
                (vec![output.outputs, output.inputs], &output.weights[..]),
                (vec![output.outputs], &output.bias[..]),
            ];
            for (name, (shape, values)) in KIND_TENSORS.iter().zip(shapes) {
                bytes.push((name.to_string(), shape, le_bytes(values)));
            }
        }
        let views = bytes.iter().map(|(name, shape, data)| {
            let view = safetensors::tensor::TensorView::new(Dtype::F32, shape.clone(), data)
                .expect("shape and data agree: both from a validated layer");
            (name.as_str(), view)
        });
        let meta: HashMap<String, String> = [
            ("format", POLICY_FORMAT.to_string()),
            (
                "architecture",
                match self.kinds {
                    Some(_) => POLICY_ARCHITECTURE_KINDS,
                    None => POLICY_ARCHITECTURE,
                }
                .to_string(),
            ),
            ("activation", POLICY_ACTIVATION.to_string()),
            ("layers", self.layers.len().to_string()),
            ("obs_version", self.obs_version.to_string()),
            ("action_space", ACTION_SPACE_SIZE.to_string()),
        ]
        .into_iter()
        .chain(self.greedy_margin.map(|m| ("greedy_margin", m.to_string())))
        // Only when not every decision, so a file of an earlier version is written as it was.
        .chain((self.decides != Decides::All).then(|| ("decides", self.decides.to_string())))
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        let mut bytes = safetensors::serialize(views, Some(meta))
            .expect("a validated policy always serialises");
        sort_metadata(&mut bytes);
        bytes
    }

    /// Reads a policy file: a regular file of at most [`POLICY_FILE_LIMIT`] bytes (a FIFO or
    /// a device is refused, never waited on or read without end).
    pub fn load(path: impl AsRef<Path>) -> Result<Policy, PolicyError> {
        let path = path.as_ref();
        let bytes = taisim_score::file::read_regular(path, POLICY_FILE_LIMIT, "a policy file")
            .map_err(|source| PolicyError::Io {
                path: path.to_path_buf(),
                writing: false,
                source,
            })?;
        Policy::from_bytes(&bytes).map_err(|source| PolicyError::InFile {
            path: path.to_path_buf(),
            source: Box::new(source),
        })
    }

    /// Writes the policy file.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), PolicyError> {
        let path = path.as_ref();
        std::fs::write(path, self.to_bytes()).map_err(|source| PolicyError::Io {
            path: path.to_path_buf(),
            writing: true,
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
            dst.extend_from_slice(&layer.bias);
            add_set_columns(dst, src.iter().copied(), &self.columns[i]);
            for d in dst.iter_mut() {
                *d = d.max(0.0);
            }
        }
        if (n - 2) % 2 == 0 {
            &a[..]
        } else {
            &b[..]
        }
    }

    /// Scratch buffers for [`Policy::scores`], sized for this policy.
    pub fn scratch(&self) -> PolicyScratch {
        let w = self.widest_hidden();
        PolicyScratch {
            hidden: [Vec::with_capacity(w), Vec::with_capacity(w)],
            kinds: self.kinds.as_ref().map(|k| Box::new(k.scratch())),
        }
    }

    /// Scores every action for a flattened current observation `input` (`OBS_LEN` values)
    /// into `out` (`ACTION_SPACE_SIZE` values); a policy of an older layout reads its first
    /// rows. `scratch` comes from [`Policy::scratch`].
    ///
    /// # Panics
    /// On wrong input or output lengths.
    pub fn scores(&self, input: &[f32], scratch: &mut PolicyScratch, out: &mut [f32]) {
        assert_eq!(input.len(), OBS_LEN);
        assert_eq!(out.len(), ACTION_SPACE_SIZE);
        let last = self.layers.last().expect("validated: at least one layer");
        let input = self.input(input);
        let h = self.hidden(input, &mut scratch.hidden);
        for (r, o) in out.iter_mut().enumerate() {
            *o = last.row(r, h);
        }
        if let (Some(head), Some(s)) = (&self.kinds, &mut scratch.kinds) {
            head.begin(input, h, s);
            for kind in 0..OBS_WIDTH {
                for (block, score) in KIND_BLOCKS.iter().zip(head.scores(input, kind, s)) {
                    out[block + kind] += score;
                }
            }
        }
    }
}

/// The shipped policy's file, built into every binary so that `trained` needs no path. How it
/// was trained (command, seed, data) and what it reached: `agents/policies/README.md`.
pub const TRAINED_POLICY: &[u8] = include_bytes!("../policies/trained.safetensors");

/// The shipped policy, parsed once per process and shared by every agent that plays it.
pub fn trained_policy() -> Result<Arc<Policy>, PolicyError> {
    // The error is kept as it is (shared, as every later call returns it too).
    static TRAINED: OnceLock<Result<Arc<Policy>, Arc<PolicyError>>> = OnceLock::new();
    TRAINED
        .get_or_init(|| {
            Policy::from_bytes(TRAINED_POLICY)
                .map(Arc::new)
                .map_err(Arc::new)
        })
        .clone()
        .map_err(PolicyError::Trained)
}

/// Plays the highest-scoring legal action of a [`Policy`] (ties: the lowest index).
/// Deterministic. Only the legal actions' output rows are computed.
#[derive(Clone, Debug)]
pub struct PolicyAgent {
    policy: Arc<Policy>,
    name: &'static str,
    /// Greedy under the variant played: the decisions the policy does not make, and the
    /// yardstick of its greedy margin.
    greedy: GreedyAgent,
    obs: Vec<f32>,
    scratch: PolicyScratch,
}

impl PolicyAgent {
    pub fn new(policy: Arc<Policy>) -> PolicyAgent {
        PolicyAgent::named(policy, "policy")
    }

    /// The agent under another name than `policy` (the shipped one is `trained`).
    pub fn named(policy: Arc<Policy>, name: &'static str) -> PolicyAgent {
        let scratch = policy.scratch();
        PolicyAgent {
            policy,
            name,
            greedy: GreedyAgent::new(),
            obs: vec![0.0; OBS_LEN],
            scratch,
        }
    }

    /// The shipped policy as an agent (`trained`).
    pub fn trained() -> Result<PolicyAgent, PolicyError> {
        Ok(PolicyAgent::named(trained_policy()?, "trained"))
    }

    pub fn policy(&self) -> &Arc<Policy> {
        &self.policy
    }

    /// The agent for deals of `variant`: where the policy leaves a decision to greedy, a win
    /// below the variant's minimum (起胡) is let go ([`GreedyAgent::for_variant`]).
    pub fn for_variant(self, variant: &Variant) -> PolicyAgent {
        PolicyAgent {
            greedy: GreedyAgent::for_variant(variant),
            ..self
        }
    }
}

impl Agent for PolicyAgent {
    fn reset(&mut self, _seed: u64, _seat: Seat) {}

    fn act(&mut self, view: &View<'_>, legal: &ActionList) -> Action {
        if !self.policy.decides.covers(legal) {
            return self.greedy.act(view, legal);
        }
        encode_slice(view, &mut self.obs);
        let last = self
            .policy
            .layers
            .last()
            .expect("validated: at least one layer");
        let input = self.policy.input(&self.obs);
        let PolicyScratch { hidden, kinds } = &mut self.scratch;
        let h = self.policy.hidden(input, hidden);
        let head = self.policy.kinds.as_ref().zip(kinds.as_mut());
        let mut head = head.map(|(head, s)| {
            head.begin(input, h, s);
            (head, s)
        });
        let offer = view.tile_on_offer();
        let greedy = self
            .policy
            .greedy_margin
            .map(|m| (m, self.greedy.act(view, legal)));
        let mut greedy_score = f32::NEG_INFINITY;
        let mut best = (f32::NEG_INFINITY, usize::MAX, legal[0]);
        for &a in legal {
            let i = action_index(a, offer).expect("a legal action has an index");
            let mut s = last.row(i, h);
            if let (Some((head, scratch)), Some((block, kind))) = (&mut head, kind_action(i)) {
                s += head.scores(input, kind, scratch)[block];
            }
            if s > best.0 || (s == best.0 && i < best.1) {
                best = (s, i, a);
            }
            if greedy.is_some_and(|(_, g)| g == a) {
                greedy_score = s;
            }
        }
        match greedy {
            // A win offered is always taken, as greedy takes it.
            Some((_, g)) if g.is_win() => g,
            Some((margin, g)) if best.0 - greedy_score <= margin => g,
            _ => best.2,
        }
    }

    fn name(&self) -> &str {
        self.name
    }
}

/// Tensor `name` of `file` as `f32` values, with its shape.
fn tensor(file: &SafeTensors<'_>, name: &str) -> Result<(Vec<usize>, Vec<f32>), PolicyError> {
    let view = file
        .tensor(name)
        .map_err(|_| PolicyError::MissingTensor(name.to_string()))?;
    if view.dtype() != Dtype::F32 {
        return Err(PolicyError::Dtype {
            name: name.to_string(),
            found: format!("{:?}", view.dtype()),
        });
    }
    let values = view
        .data()
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    Ok((view.shape().to_vec(), values))
}

/// Puts the header's `__metadata__` pairs in key order. safetensors writes them from a
/// `HashMap`, in an order that changes between calls, and the same weights must give the same
/// file: a policy's checksum is a promise. The pairs are the constants of
/// [`Policy::to_bytes`] (ASCII with no quote, comma or brace inside a key or value), so
/// sorting the `"key":"value"` texts sorts by key and leaves the header's length unchanged.
fn sort_metadata(bytes: &mut [u8]) {
    const OPEN: &[u8] = b"\"__metadata__\":{";
    let len = u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes")) as usize;
    let header = &mut bytes[8..8 + len];
    let Some(at) = header.windows(OPEN.len()).position(|w| w == OPEN) else {
        return;
    };
    let start = at + OPEN.len();
    let Some(end) = header[start..].iter().position(|&b| b == b'}') else {
        return;
    };
    let inner = &mut header[start..start + end];
    let mut pairs: Vec<Vec<u8>> = inner.split(|&b| b == b',').map(<[u8]>::to_vec).collect();
    pairs.sort();
    inner.copy_from_slice(&pairs.join(&b',')[..]);
}

/// `values` as little-endian bytes (safetensors' byte order).
fn le_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}
