//! The per-kind head of a policy: one small network shared by the 34 tile kinds, scoring the
//! four actions named by a kind (discard, discard and declare ready, concealed kong, added
//! kong) from that kind's column of the observation.
//!
//! Why: most decisions are discards, and what makes a discard good is written in the
//! discarded kind's own column (its count, whether it leaves the least shanten, the ukeire
//! after it, how safe it is). An MLP over the flattened observation has to learn the same
//! rule 34 times, once per kind, and learns it badly: cloning greedy, it picked a discard of
//! less than the most ukeire in 6% of the turns. One network applied to every column learns it
//! once (a 1×1 convolution over the kinds, as Mortal's and Suphx's networks read tiles).
//!
//! For kind `k`, with `x` the observation as `channels × 34` rows, `h` the MLP trunk's last
//! hidden layer (the input of its score layer) and `ReLU` applied elementwise:
//!
//! ```text
//! column  = [x[r][k] for r in rows] ++ [x[r][k] - max_j x[r][j] for r in rows]
//! z_k     = ReLU(input.weight · column + input.bias + context.weight · h)
//! score_b = output.weight[b] · z_k + output.bias[b]       b = 0..4
//! ```
//!
//! and `score_b` is added to the trunk's score of action `KIND_BLOCKS[b] + k`. The second half
//! of the column (each value less its row's largest) lets the head see "the most ukeire of
//! all discards" without comparing columns itself; the context lets it weigh a column by the
//! state of the game (the danger late in a deal, the hand's distance from ready).

use crate::dense::{add_set_columns, transposed, Layer};
use crate::space::{ADDED_KONG, CONCEALED_KONG, DISCARD, DISCARD_READY};
use taisim_sim::Tile;

/// The first action index of each block the head scores, in its output order.
pub const KIND_BLOCKS: [usize; 4] = [DISCARD, DISCARD_READY, CONCEALED_KONG, ADDED_KONG];

/// Why a head's tensors do not fit the policy they came with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KindHeadShape(pub String);

/// A validated per-kind head (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct KindHead {
    /// `hidden × 2·rows`: the column and the column less its rows' maxima.
    input: Layer,
    /// `hidden × trunk width`, row-major as stored in the file.
    context: Vec<f32>,
    /// The same transposed (`trunk width × hidden`), so that only the set values of the
    /// trunk's (ReLU, often zero) output are added up.
    context_columns: Vec<f32>,
    /// For each observation row `r`, the input layer's two columns of that row added up
    /// (`rows × hidden`): `W·[x; x − m] = (W₁ + W₂)·x − W₂·m`, where the second term is the
    /// same for every kind (computed once a decision) and the first adds up only the set
    /// values of a kind's column, about one in twenty.
    combined_columns: Vec<f32>,
    /// `4 × hidden`.
    output: Layer,
}

impl KindHead {
    /// A head reading `rows` observation rows, beside a trunk whose score layer reads `width`
    /// values; `context` is row-major of shape `context_shape` (a flat list alone could be
    /// its transpose). The shapes are checked.
    pub fn new(
        rows: usize,
        width: usize,
        input: Layer,
        context_shape: [usize; 2],
        context: Vec<f32>,
        output: Layer,
    ) -> Result<KindHead, KindHeadShape> {
        let hidden = input.outputs;
        let bad = |what: String| Err(KindHeadShape(what));
        if hidden == 0 {
            return bad("the input layer has no outputs".into());
        }
        if input.inputs != 2 * rows {
            return bad(format!(
                "the input layer takes {} values, expected {} (2 × {rows} observation rows)",
                input.inputs,
                2 * rows
            ));
        }
        if input.weights.len() != hidden * input.inputs || input.bias.len() != hidden {
            return bad(format!(
                "the input layer has {} weights and {} biases, expected {hidden} × {} and {hidden}",
                input.weights.len(),
                input.bias.len(),
                input.inputs
            ));
        }
        if context.len() != context_shape[0] * context_shape[1] {
            return bad(format!(
                "the context weight has {} values for shape {context_shape:?}",
                context.len()
            ));
        }
        if context_shape != [hidden, width] {
            return bad(format!(
                "the context weight has shape {context_shape:?}, expected [{hidden}, {width}] \
                 (the hidden width, the inputs of the last layer)"
            ));
        }
        if output.inputs != hidden
            || output.outputs != KIND_BLOCKS.len()
            || output.weights.len() != KIND_BLOCKS.len() * hidden
            || output.bias.len() != KIND_BLOCKS.len()
        {
            return bad(format!(
                "the output layer is {} × {} with {} weights and {} biases, expected {} × {hidden}",
                output.outputs,
                output.inputs,
                output.weights.len(),
                output.bias.len(),
                KIND_BLOCKS.len()
            ));
        }
        let finite = |v: &[f32]| v.iter().all(|x| x.is_finite());
        if !(finite(&input.weights)
            && finite(&input.bias)
            && finite(&context)
            && finite(&output.weights)
            && finite(&output.bias))
        {
            return bad("it holds a NaN or infinite value".into());
        }
        let context_columns = transposed(&context, hidden, width);
        // Row `r`'s column of the first half plus its column of the second.
        let input_columns = transposed(&input.weights, hidden, 2 * rows);
        let (plain, relative) = input_columns.split_at(rows * hidden);
        let combined_columns = plain.iter().zip(relative).map(|(a, b)| a + b).collect();
        Ok(KindHead {
            input,
            context,
            context_columns,
            combined_columns,
            output,
        })
    }

    pub fn hidden(&self) -> usize {
        self.input.outputs
    }

    /// Observation rows read per kind.
    pub fn rows(&self) -> usize {
        self.input.inputs / 2
    }

    pub fn input(&self) -> &Layer {
        &self.input
    }

    /// `hidden × trunk width`, row-major.
    pub fn context(&self) -> &[f32] {
        &self.context
    }

    pub fn output(&self) -> &Layer {
        &self.output
    }

    /// Scratch for [`KindHead::begin`] and [`KindHead::scores`], sized for this head.
    pub fn scratch(&self) -> KindScratch {
        KindScratch {
            base: vec![0.0; self.hidden()],
            row_max: vec![0.0; self.rows()],
            z: vec![0.0; self.hidden()],
            cache: vec![[0.0; 4]; Tile::NUM],
            done: 0,
        }
    }

    /// Prepares a decision: what every kind's hidden layer shares (its bias, the context of
    /// the trunk output `h`, less the second half of the input layer times the rows' maxima
    /// of `obs`, a policy's input of `rows × 34` values and possibly more rows after them).
    pub fn begin(&self, obs: &[f32], h: &[f32], s: &mut KindScratch) {
        let width = Tile::NUM;
        let rows = self.rows();
        for (r, m) in s.row_max.iter_mut().enumerate() {
            *m = obs[r * width..(r + 1) * width]
                .iter()
                .copied()
                .fold(f32::NEG_INFINITY, f32::max);
        }
        for (i, b) in s.base.iter_mut().enumerate() {
            let relative = &self.input.weights[i * 2 * rows + rows..(i + 1) * 2 * rows];
            let shift: f32 = relative.iter().zip(&s.row_max).map(|(w, m)| w * m).sum();
            *b = self.input.bias[i] - shift;
        }
        add_set_columns(&mut s.base, h.iter().copied(), &self.context_columns);
        s.done = 0;
    }

    /// The four scores of kind `kind` for the decision [`KindHead::begin`] prepared.
    pub fn scores(&self, obs: &[f32], kind: usize, s: &mut KindScratch) -> [f32; 4] {
        if s.done >> kind & 1 == 1 {
            return s.cache[kind];
        }
        s.z.copy_from_slice(&s.base);
        let column = (0..self.rows()).map(|r| obs[r * Tile::NUM + kind]);
        add_set_columns(&mut s.z, column, &self.combined_columns);
        for z in s.z.iter_mut() {
            *z = z.max(0.0);
        }
        let mut out = [0.0; 4];
        for (b, o) in out.iter_mut().enumerate() {
            *o = self.output.row(b, &s.z);
        }
        s.cache[kind] = out;
        s.done |= 1 << kind;
        out
    }
}

/// Per-decision buffers of a [`KindHead`]: sized when the agent is built, so a decision
/// allocates nothing.
#[derive(Clone, Debug)]
pub struct KindScratch {
    /// Every kind's hidden layer before its own column (see [`KindHead::begin`]).
    base: Vec<f32>,
    row_max: Vec<f32>,
    z: Vec<f32>,
    /// Scores already computed this decision, by kind (34 entries): discard and
    /// discard-ready of the same kind share them. On the heap, as the other buffers: an agent
    /// is moved around by value.
    cache: Vec<[f32; 4]>,
    done: u64,
}

/// The block and kind of a per-kind action index, if it is one.
#[inline]
pub fn kind_action(index: usize) -> Option<(usize, usize)> {
    KIND_BLOCKS
        .iter()
        .position(|&b| (b..b + Tile::NUM).contains(&index))
        .map(|b| (b, index - KIND_BLOCKS[b]))
}
