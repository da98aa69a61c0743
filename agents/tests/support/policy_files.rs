//! Policy files written by hand, as a trainer outside taisim would write them: the one
//! writer the policy tests share.

use std::collections::HashMap;

use safetensors::tensor::TensorView;
use safetensors::Dtype;
use taisim_agents::{ACTION_SPACE_SIZE, OBS_LEN, OBS_VERSION};

/// A tensor of a hand-made file: name, shape, f32 values.
pub type Tensor = (&'static str, Vec<usize>, Vec<f32>);

/// The metadata `export_policy` writes for an MLP of `layers` layers.
pub fn metadata(layers: usize) -> HashMap<String, String> {
    [
        ("format", "taisim-policy".to_string()),
        ("architecture", "mlp".to_string()),
        ("activation", "relu".to_string()),
        ("layers", layers.to_string()),
        ("obs_version", OBS_VERSION.to_string()),
        ("action_space", ACTION_SPACE_SIZE.to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// A safetensors file of `tensors` and `meta`.
pub fn file(tensors: &[Tensor], meta: HashMap<String, String>) -> Vec<u8> {
    let bytes: Vec<Vec<u8>> = tensors
        .iter()
        .map(|(_, _, v)| v.iter().flat_map(|x| x.to_le_bytes()).collect())
        .collect();
    let views = tensors.iter().zip(&bytes).map(|((name, shape, _), data)| {
        (
            *name,
            TensorView::new(Dtype::F32, shape.clone(), data).unwrap(),
        )
    });
    safetensors::serialize(views, Some(meta)).unwrap()
}

/// The tensors of a linear policy whose every weight is zero.
pub fn zero_linear() -> Vec<Tensor> {
    vec![
        (
            "layers.0.weight",
            vec![ACTION_SPACE_SIZE, OBS_LEN],
            vec![0.0; ACTION_SPACE_SIZE * OBS_LEN],
        ),
        (
            "layers.0.bias",
            vec![ACTION_SPACE_SIZE],
            vec![0.0; ACTION_SPACE_SIZE],
        ),
    ]
}
