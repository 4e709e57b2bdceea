//! LOInK from Python: the Python module `loink` (`loink._loink`, re-exported by
//! `python/loink/__init__.py`), NumPy arrays in and out, the same core, solvers and statuses as
//! the `loink` command.
//!
//! - [`model::Model`]: a trained model file (LOInK, charts, flow or regression baseline) and its
//!   solver, `Model.load(path).solve(targets, refine=…, feedback=…, threads=…)`.
//! - [`problem::Problem`]: a preset or a URDF chain — its forward map, cost, limits, and the
//!   classical solvers (`dls`, `reference`, `analytic`, `closed-form-search`).
//! - [`solutions::Solutions`]: one judged answer per target row (q, status, residual by
//!   forward-map replay, cost, limit margin, time).
//! - [`batch`]: rows solved in parallel with the GIL released; [`arrays`]: shapes and dtypes
//!   checked at the boundary; [`errors`]: the core's errors as Python exceptions.

use pyo3::prelude::*;

pub mod arrays;
pub mod batch;
pub mod errors;
pub mod model;
pub mod problem;
pub mod solutions;

/// The module `loink._loink`.
#[pymodule]
#[pyo3(name = "_loink")]
fn loink_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("STATUSES", statuses())?;
    m.add_class::<model::Model>()?;
    m.add_class::<problem::Problem>()?;
    m.add_class::<solutions::Solutions>()?;
    Ok(())
}

/// Every status word, in report order (the CLI's and the page's).
fn statuses() -> Vec<&'static str> {
    loink::report::Status::ALL
        .iter()
        .map(|s| s.as_str())
        .collect()
}
