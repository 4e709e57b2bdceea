//! NumPy at the boundary: rows read out of an array of the right width (any real dtype,
//! converted to float64; a list is taken through `numpy.asarray`), and float64 arrays built
//! for answers. A wrong shape or a dtype that is no real number is a `ValueError` naming the
//! shape expected.

use numpy::{
    PyArray1, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::prelude::*;

use crate::errors::value_error;

/// What an array holds, for messages: `targets` with columns `x,y,z`, or `q` of n joints.
pub struct Expected<'a> {
    /// The argument's name.
    pub what: &'a str,
    /// Numbers per row.
    pub width: usize,
    /// The columns, as a file header would name them.
    pub columns: &'a str,
}

impl Expected<'_> {
    fn shape(&self) -> String {
        format!(
            "shape (N, {w}) or ({w},), columns {c}",
            w = self.width,
            c = self.columns
        )
    }
}

/// The rows of `obj`: a 2-D array of `expected.width` columns, or one row as a 1-D array.
pub fn rows(obj: &Bound<'_, PyAny>, expected: &Expected) -> PyResult<Vec<Vec<f64>>> {
    let py = obj.py();
    let numpy = py.import("numpy")?;
    let array = if obj.is_instance_of::<PyUntypedArray>() {
        obj.clone()
    } else {
        numpy.call_method1("asarray", (obj,)).map_err(|e| {
            value_error(format!(
                "{} must be an array of numbers of {}: {e}",
                expected.what,
                expected.shape()
            ))
        })?
    };
    let untyped = array.cast::<PyUntypedArray>()?;
    let dtype = untyped.dtype();
    if !matches!(dtype.kind(), b'f' | b'i' | b'u') {
        return Err(value_error(format!(
            "{} must hold real numbers (float64) of {}; got dtype {}",
            expected.what,
            expected.shape(),
            dtype.str()?
        )));
    }
    let shape = untyped.shape().to_vec();
    let width_ok = match shape.as_slice() {
        [w] | [_, w] => *w == expected.width,
        _ => false,
    };
    if !width_ok {
        return Err(value_error(format!(
            "{} must have {}; got shape {}",
            expected.what,
            expected.shape(),
            python_shape(&shape)
        )));
    }
    let floats = numpy.call_method1("ascontiguousarray", (array, "float64"))?;
    let typed = floats.cast::<PyArrayDyn<f64>>()?.readonly();
    let flat = typed
        .as_slice()
        .map_err(|e| value_error(format!("{}: {e}", expected.what)))?;
    Ok(flat
        .chunks(expected.width.max(1))
        .map(<[f64]>::to_vec)
        .collect())
}

/// A shape as Python prints it: `(3, 2)`, `(3,)`, `()`.
fn python_shape(shape: &[usize]) -> String {
    match shape {
        [one] => format!("({one},)"),
        dims => format!(
            "({})",
            dims.iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// A float64 vector.
pub fn vector<'py>(py: Python<'py>, values: Vec<f64>) -> Bound<'py, PyArray1<f64>> {
    PyArray1::from_vec(py, values)
}

/// A float64 matrix of `rows` rows of `width` from its row-major values.
pub fn matrix<'py>(
    py: Python<'py>,
    values: Vec<f64>,
    rows: usize,
    width: usize,
) -> PyResult<Bound<'py, PyAny>> {
    Ok(PyArray1::from_vec(py, values)
        .reshape([rows, width])?
        .into_any())
}
