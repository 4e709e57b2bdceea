//! `loink.Problem`: a robot and its cost — a preset by name or a chain read from a URDF file —
//! with its forward map, cost, joint box, and the classical solvers.

use std::collections::HashMap;
use std::path::PathBuf;

use loink::problem::chain::urdf_file::UrdfProblem;
use loink::problem::chain::{HeldJoint, Task};
use loink::solvers::registry::{self, SolverKind, SolverSettings};
use numpy::PyArray1;
use pyo3::prelude::*;

use crate::arrays::{matrix, rows, vector, Expected};
use crate::batch::{check_threads, read_row, solve_rows, Refused, Row, Solve};
use crate::errors::{check_robot_file, from_core, value_error};
use crate::solutions::Solutions;

/// A robot and its cost: `n` joints in a box, a task of `m` coordinates given in the columns
/// `task_columns` (a pose's `x,y,z,qw,qx,qy,qz`), and the cost J(q) every solver minimises.
#[pyclass(frozen, module = "loink")]
pub struct Problem {
    pub(crate) inner: loink::problem::Problem,
    /// What loading a URDF did that the file does not say outright.
    pub(crate) notes: Vec<String>,
}

impl Problem {
    /// The targets' expected shape, for messages and reading.
    pub(crate) fn target_rows(&self, targets: &Bound<'_, PyAny>) -> PyResult<Vec<Row>> {
        let task = self.inner.task();
        let columns = task.columns();
        let joined = columns.join(",");
        let expected = Expected {
            what: "targets",
            width: columns.len(),
            columns: &joined,
        };
        Ok(rows(targets, &expected)?
            .iter()
            .map(|r| read_row(task, r))
            .collect())
    }

    fn q_rows(&self, q: &Bound<'_, PyAny>) -> PyResult<Vec<Vec<f64>>> {
        let names: Vec<String> = (1..=self.inner.dof()).map(|i| format!("q{i}")).collect();
        let joined = names.join(",");
        let rows = rows(
            q,
            &Expected {
                what: "q",
                width: self.inner.dof(),
                columns: &joined,
            },
        )?;
        for (r, row) in rows.iter().enumerate() {
            self.inner
                .check_q(row)
                .map_err(|e| value_error(format!("row {r} of q: {e}")))?;
        }
        Ok(rows)
    }
}

#[pymethods]
impl Problem {
    /// A preset by name (`planar3`, `panda`, `panda-pose`, `climber`, …; see `Problem.presets()`).
    #[staticmethod]
    fn preset(name: &str) -> PyResult<Problem> {
        let inner = loink::problem::Problem::preset(name).map_err(from_core)?;
        Ok(Problem {
            inner,
            notes: Vec::new(),
        })
    }

    /// Every preset's name.
    #[staticmethod]
    fn presets() -> Vec<&'static str> {
        loink::problem::registry::preset_names()
    }

    /// The serial chain of a URDF file from `base` to `tip` (revolute, continuous and
    /// prismatic joints; fixed ones folded in), its task `position` (x,y,z), `pose`
    /// (x,y,z,qw,qx,qy,qz) or `axis` (x,y,z,ax,ay,az), joint centring its cost. `hold` maps joint
    /// names to values they are held at; `name` names the problem (the file's stem otherwise).
    /// `spheres` (a file of `loink spheres`) and `scene` (a TOML scene file) keep the chain clear
    /// of itself and the scene, its cost then `limits=1,self=10,scene=10` (docs/collision.md).
    #[staticmethod]
    #[pyo3(signature = (path, base, tip, task="position", hold=None, name=None, spheres=None, scene=None))]
    #[allow(clippy::too_many_arguments)]
    fn from_urdf(
        path: PathBuf,
        base: &str,
        tip: &str,
        task: &str,
        hold: Option<HashMap<String, f64>>,
        name: Option<&str>,
        spheres: Option<PathBuf>,
        scene: Option<PathBuf>,
    ) -> PyResult<Problem> {
        if scene.is_some() && spheres.is_none() {
            return Err(value_error(
                "scene= needs spheres= (the links as spheres)".to_string(),
            ));
        }
        let task = Task::parse(task)
            .ok_or_else(|| value_error(format!("'{task}' is no task (position, pose or axis)")))?;
        let mut held: Vec<HeldJoint> = hold
            .unwrap_or_default()
            .into_iter()
            .map(|(name, value)| HeldJoint { name, value })
            .collect();
        held.sort_by(|a, b| a.name.cmp(&b.name));
        if let Some(h) = held.iter().find(|h| !h.value.is_finite()) {
            return Err(value_error(format!(
                "hold {}={}: the value must be finite",
                h.name, h.value
            )));
        }
        check_robot_file(&path)?;
        let (inner, notes) = UrdfProblem {
            path: &path,
            name,
            base,
            tip,
            task,
            held: &held,
            collision: spheres
                .as_deref()
                .map(|spheres| (spheres, scene.as_deref())),
        }
        .load()
        .map_err(from_core)?;
        Ok(Problem { inner, notes })
    }

    /// What loading a URDF did that the file does not say outright, one sentence each: joints
    /// that follow another (`<mimic>`), joints fixed by zero-width limits, a held angle wrapped.
    #[getter]
    fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }

    /// The joints' names in the order of q: a URDF chain's variables (each free joint, and the
    /// source of a joint that follows one off the chain); `q1`, `q2`, … for other problems.
    #[getter]
    fn joint_names(&self) -> Vec<String> {
        use loink::problem::chain::SerialChain;
        match self
            .inner
            .kinematics()
            .as_any()
            .downcast_ref::<SerialChain>()
        {
            Some(chain) => chain.joint_names().map(str::to_string).collect(),
            None => (1..=self.inner.dof()).map(|i| format!("q{i}")).collect(),
        }
    }

    /// The problem's name.
    #[getter]
    fn name(&self) -> String {
        self.inner.name().to_string()
    }

    /// Joints (n).
    #[getter]
    fn n(&self) -> usize {
        self.inner.dof()
    }

    /// Task coordinates (m: 3 for a position, 6 for a pose, 5 for a position and an axis).
    #[getter]
    fn m(&self) -> usize {
        self.inner.task_dim()
    }

    /// The columns targets are given in, as a targets file names them.
    #[getter]
    fn task_columns(&self) -> Vec<String> {
        self.inner.task().columns()
    }

    /// Lower joint limits (rad or m).
    #[getter]
    fn lower<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        vector(py, self.inner.limits().lower().to_vec())
    }

    /// Upper joint limits (rad or m).
    #[getter]
    fn upper<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        vector(py, self.inner.limits().upper().to_vec())
    }

    /// The target a view of the problem opens at, in `task_columns`.
    #[getter]
    fn default_target<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        vector(
            py,
            self.inner.task().to_columns(&self.inner.default_target()),
        )
    }

    /// The cost J(q), in words.
    #[getter]
    fn cost_formula(&self) -> String {
        self.inner.cost().spec().formula()
    }

    /// Where each configuration puts the tip: (N, len(task_columns)) in the columns of a
    /// targets file, so `solve(forward(q))` asks for the poses q reaches. `q` is (N, n) or (n,).
    fn forward<'py>(&self, py: Python<'py>, q: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let configurations = self.q_rows(q)?;
        let width = self.inner.task().columns().len();
        let mut flat = Vec::with_capacity(configurations.len() * width);
        for row in &configurations {
            let y = self.inner.forward(row).map_err(from_core)?;
            flat.extend(self.inner.task().to_columns(&y));
        }
        matrix(py, flat, configurations.len(), width)
    }

    /// J(q) of each configuration, (N,).
    fn cost<'py>(
        &self,
        py: Python<'py>,
        q: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let configurations = self.q_rows(q)?;
        let values = configurations
            .iter()
            .map(|row| self.inner.cost().value(row))
            .collect();
        Ok(vector(py, values))
    }

    /// Solves every target row with a classical solver: `dls` (damped least squares with the
    /// null-space cost pull, cold from the mid-range), `reference` (the global reference
    /// optimum), `analytic` (closed form, two-link arms) or `closed-form-search` (the Panda's
    /// pose: its closed form along q7, searched). Rows are solved on every core
    /// unless `threads` says how many; a non-finite row comes back `invalid`.
    #[pyo3(signature = (targets, solver="dls", threads=None))]
    fn solve(
        &self,
        py: Python<'_>,
        targets: &Bound<'_, PyAny>,
        solver: &str,
        threads: Option<usize>,
    ) -> PyResult<Solutions> {
        let kind = SolverKind::parse(solver)
            .filter(|k| {
                matches!(
                    k,
                    SolverKind::Dls
                        | SolverKind::Reference
                        | SolverKind::Analytic
                        | SolverKind::ClosedFormSearch
                )
            })
            .ok_or_else(|| {
                value_error(format!(
                    "'{solver}' is no classical solver (dls, reference, analytic, closed-form-search); a learned one is Model.load(path).solve"
                ))
            })?;
        let threads = check_threads(threads)?;
        let rows = self.target_rows(targets)?;
        let settings = SolverSettings::new(kind);
        registry::applies(kind, &self.inner).map_err(from_core)?;
        let problem = &self.inner;
        let make = || -> Box<dyn Solve> {
            match registry::build(problem, &settings) {
                Ok(solver) => Box::new(solver),
                Err(e) => Box::new(Refused(e.to_string())),
            }
        };
        let answers = solve_rows(py, &rows, threads, kind.as_str(), &make)?;
        Ok(Solutions::new(
            answers,
            self.inner.dof(),
            self.inner.task().clone(),
        ))
    }

    fn __repr__(&self) -> String {
        format!(
            "Problem('{}': {} joints, task {})",
            self.inner.name(),
            self.inner.dof(),
            self.inner.task().columns().join(",")
        )
    }
}
