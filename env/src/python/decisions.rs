//! `taisim.load_decisions`: a run's decisions table as numpy arrays, filled in Rust.

use numpy::ndarray::{Array1, Array2, Array3};
use numpy::{IntoPyArray, PyArray1, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::errors;
use crate::{ACTION_SPACE_SIZE, OBS_CHANNELS, OBS_VERSION, OBS_WIDTH};

/// `taisim.load_decisions(run, seats=None, out=None)`: a run's decisions table as numpy
/// arrays (see the Python wrapper). The GIL is released while the parts are read; each array
/// is handed to numpy without a copy, or, given `out`, the table is read into its arrays.
#[pyfunction]
#[pyo3(signature = (run, seats = None, out = None))]
pub(super) fn load_decisions<'py>(
    py: Python<'py>,
    run: std::path::PathBuf,
    seats: Option<&str>,
    out: Option<Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let seats = seats
        .map(str::parse::<taisim_datasets::DecisionSeats>)
        .transpose()
        .map_err(errors::usage)?;
    let dict = PyDict::new(py);
    let scale = Array2::from_shape_vec(
        (OBS_CHANNELS, OBS_WIDTH),
        taisim_datasets::obs_scale().to_vec(),
    )
    .map_err(errors::bug)?;
    dict.set_item("obs_scale", scale.into_pyarray(py))?;
    dict.set_item("obs_version", OBS_VERSION)?;
    match out {
        Some(out) => load_decisions_into(py, &run, seats, &out, &dict)?,
        None => {
            let d = py
                .allow_threads(|| taisim_datasets::load_decisions(&run, seats))
                .map_err(errors::harness)?;
            let n = d.rows;
            let obs = Array3::from_shape_vec((n, d.obs_channels, OBS_WIDTH), d.obs)
                .map_err(errors::bug)?;
            dict.set_item("obs", obs.into_pyarray(py))?;
            // The reader checked every mask byte is 0 or 1, so numpy's bool view of them (no
            // copy) holds only valid bools.
            let mask =
                Array2::from_shape_vec((n, ACTION_SPACE_SIZE), d.mask).map_err(errors::bug)?;
            dict.set_item(
                "mask",
                mask.into_pyarray(py).call_method1("view", ("bool",))?,
            )?;
            dict.set_item("action", Array1::from_vec(d.action).into_pyarray(py))?;
            dict.set_item("reward", Array1::from_vec(d.reward).into_pyarray(py))?;
            dict.set_item("seat", Array1::from_vec(d.seat).into_pyarray(py))?;
            dict.set_item("deal", Array1::from_vec(d.deal).into_pyarray(py))?;
            dict.set_item("step", Array1::from_vec(d.step).into_pyarray(py))?;
            set_search_labels(py, &dict, d.search, n)?;
        }
    }
    Ok(dict)
}

/// The search labels of a labelled table into `dict` (`search_action`, `search_mean`,
/// `search_advantage`, `search_rollouts`), fresh arrays handed to numpy without a copy; a
/// table without them adds nothing.
fn set_search_labels<'py>(
    py: Python<'py>,
    dict: &Bound<'py, PyDict>,
    labels: Option<taisim_datasets::SearchLabels>,
    rows: usize,
) -> PyResult<()> {
    let Some(l) = labels else {
        return Ok(());
    };
    let per_action = |v| Array2::from_shape_vec((rows, ACTION_SPACE_SIZE), v);
    dict.set_item("search_action", Array1::from_vec(l.action).into_pyarray(py))?;
    dict.set_item(
        "search_mean",
        per_action(l.mean).map_err(errors::bug)?.into_pyarray(py),
    )?;
    dict.set_item(
        "search_advantage",
        per_action(l.advantage)
            .map_err(errors::bug)?
            .into_pyarray(py),
    )?;
    dict.set_item(
        "search_rollouts",
        Array2::from_shape_vec((rows, ACTION_SPACE_SIZE), l.rollouts)
            .map_err(errors::bug)?
            .into_pyarray(py),
    )?;
    Ok(())
}

/// The array `out[key]`, which must be a C-contiguous numpy array of `T` and `D`'s rank.
fn out_array<'py, T: numpy::Element, D: numpy::ndarray::Dimension>(
    out: &Bound<'py, PyDict>,
    key: &str,
    dtype: &str,
) -> PyResult<Bound<'py, numpy::PyArray<T, D>>> {
    let item = out
        .get_item(key)?
        .ok_or_else(|| errors::usage(format!("out has no {key:?} array")))?;
    // A bool mask is read as the bytes it is (numpy's view, no copy).
    let item = if key == "mask" && item.getattr("dtype")?.str()?.to_str()? == "bool" {
        item.call_method1("view", ("uint8",))?
    } else {
        item
    };
    let array = item.downcast_into::<numpy::PyArray<T, D>>().map_err(|_| {
        errors::usage(format!(
            "out[{key:?}] is not a {}-dimensional numpy array of {dtype}",
            D::NDIM.unwrap_or(0)
        ))
    })?;
    if !array.is_c_contiguous() {
        return Err(errors::usage(format!("out[{key:?}] is not C-contiguous")));
    }
    Ok(array)
}

/// Copies `values` into `array`, of the same length.
fn fill<T: numpy::Element + Copy>(array: &Bound<'_, PyArray1<T>>, values: &[T]) -> PyResult<()> {
    let mut w = array.try_readwrite().map_err(errors::usage)?;
    w.as_slice_mut()
        .map_err(errors::usage)?
        .copy_from_slice(values);
    Ok(())
}

/// `load_decisions(run, seats, out)`: the table read into `out`'s arrays (all of one row
/// count, that of the table), which `dict` then holds.
fn load_decisions_into<'py>(
    py: Python<'py>,
    run: &std::path::Path,
    seats: Option<taisim_datasets::DecisionSeats>,
    out: &Bound<'py, PyDict>,
    dict: &Bound<'py, PyDict>,
) -> PyResult<()> {
    use numpy::ndarray::{Ix1, Ix2, Ix3};
    let obs = out_array::<u8, Ix3>(out, "obs", "uint8")?;
    let mask = out_array::<u8, Ix2>(out, "mask", "bool or uint8")?;
    let action = out_array::<i64, Ix1>(out, "action", "int64")?;
    let reward = out_array::<f32, Ix1>(out, "reward", "float32")?;
    let seat = out_array::<u8, Ix1>(out, "seat", "uint8")?;
    let deal = out_array::<u64, Ix1>(out, "deal", "uint64")?;
    let step = out_array::<u32, Ix1>(out, "step", "uint32")?;
    let n = obs.shape()[0];
    let shapes = [
        (
            "obs",
            obs.shape().to_vec(),
            vec![n, OBS_CHANNELS, OBS_WIDTH],
        ),
        ("mask", mask.shape().to_vec(), vec![n, ACTION_SPACE_SIZE]),
        ("action", action.shape().to_vec(), vec![n]),
        ("reward", reward.shape().to_vec(), vec![n]),
        ("seat", seat.shape().to_vec(), vec![n]),
        ("deal", deal.shape().to_vec(), vec![n]),
        ("step", step.shape().to_vec(), vec![n]),
    ];
    for (key, got, want) in shapes {
        if got != want {
            return Err(errors::usage(format!(
                "out[{key:?}] has shape {got:?}, not {want:?} (the rows of out[\"obs\"])"
            )));
        }
    }
    let d = {
        // Borrowed for writing (numpy refuses a second borrow, such as the same array
        // given twice) until the table is read.
        let mut obs_w = obs.try_readwrite().map_err(errors::usage)?;
        let mut mask_w = mask.try_readwrite().map_err(errors::usage)?;
        let (o, m) = (obs_w.as_slice_mut(), mask_w.as_slice_mut());
        let (o, m) = (o.map_err(errors::usage)?, m.map_err(errors::usage)?);
        py.allow_threads(|| taisim_datasets::load_decisions_into(run, seats, o, m))
            .map_err(errors::harness)?
    };
    fill(&action, &d.action)?;
    fill(&reward, &d.reward)?;
    fill(&seat, &d.seat)?;
    fill(&deal, &d.deal)?;
    fill(&step, &d.step)?;
    for key in ["obs", "mask", "action", "reward", "seat", "deal", "step"] {
        dict.set_item(key, out.get_item(key)?)?;
    }
    set_search_labels(py, dict, d.search, n)
}
