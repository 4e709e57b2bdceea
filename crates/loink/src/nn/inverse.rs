//! What every inverse takes and returns: the options (method, tolerance on the **forward
//! residual**, iteration cap, DYS step and relaxation) and the per-layer report (iterations,
//! final residual, and which test stopped it).

/// How a monotone layer's equation F(x) = y is solved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InverseMethod {
    /// Davis–Yin three-operator splitting on the hidden state z (loink-math.md §3; the
    /// `davis-yin` feature).
    #[cfg(feature = "davis-yin")]
    DavisYin,
    /// Semi-smooth Newton on x with a backtracking line search (loink-math.md §3).
    Newton,
}

impl InverseMethod {
    /// Short name for tables and logs.
    pub fn as_str(self) -> &'static str {
        match self {
            #[cfg(feature = "davis-yin")]
            InverseMethod::DavisYin => "dys",
            InverseMethod::Newton => "newton",
        }
    }
}

/// Options of an inverse solve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InverseOptions {
    /// Which algorithm.
    pub method: InverseMethod,
    /// Tolerance on the forward residual. For a single layer it is ‖F(x) − y‖ ≤ `tolerance`;
    /// for a whole [`super::BiLipNet`] it bounds ‖G(x) − y‖ (split over the layers by their
    /// Lipschitz constants, see `BiLipNet::inverse_into`).
    pub tolerance: f64,
    /// Iteration cap per layer (DYS iterations or Newton steps).
    pub max_iterations: usize,
    /// DYS step α as a multiple of μ_l/γ (0.9 is safe; the bound for convergence is 2).
    pub alpha_factor: f64,
    /// DYS relaxation λ ∈ (0, 2).
    pub relaxation: f64,
    /// DYS: evaluate the forward residual every this many iterations (≥ 1; it costs one
    /// forward pass, about as much as an iteration).
    pub check_every: usize,
    /// Reuse each layer's last converged state (DYS u, Newton x) as the next start.
    pub warm_start: bool,
}

impl InverseOptions {
    /// Semi-smooth Newton, tolerance 1e-10, cap 50 steps, warm start on (the benchmark's pick,
    /// see `benches/README.md`).
    pub const NEWTON: InverseOptions = InverseOptions {
        method: InverseMethod::Newton,
        tolerance: 1e-10,
        max_iterations: 50,
        alpha_factor: 0.9,
        relaxation: 1.0,
        check_every: 1,
        warm_start: true,
    };
    /// Davis–Yin with α = 0.9·μ_l/γ, λ = 1, tolerance 1e-10, cap 20 000, warm start on.
    #[cfg(feature = "davis-yin")]
    pub const DAVIS_YIN: InverseOptions = InverseOptions {
        method: InverseMethod::DavisYin,
        tolerance: 1e-10,
        max_iterations: 20_000,
        alpha_factor: 0.9,
        relaxation: 1.0,
        check_every: 1,
        warm_start: true,
    };

    /// The same options with another method (the cap switches to that method's default).
    pub fn with_method(self, method: InverseMethod) -> Self {
        let base = match method {
            #[cfg(feature = "davis-yin")]
            InverseMethod::DavisYin => Self::DAVIS_YIN,
            InverseMethod::Newton => Self::NEWTON,
        };
        Self {
            method,
            max_iterations: base.max_iterations,
            ..self
        }
    }
}

impl Default for InverseOptions {
    fn default() -> Self {
        Self::NEWTON
    }
}

/// Which test ended a layer's inverse.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stop {
    /// The forward residual met the tolerance.
    Converged,
    /// The iteration cap was reached first.
    IterationCap,
    /// An iterate became non-finite or blew up; the best finite iterate is returned.
    Diverged,
    /// Newton's line search found no decrease (or the Jacobian was singular).
    Stalled,
    /// The call's slices or state did not fit the layer (nothing was solved; x is NaN).
    Invalid,
}

impl Stop {
    /// True only for [`Stop::Converged`].
    pub fn converged(self) -> bool {
        self == Stop::Converged
    }
    /// Short word for tables.
    pub fn as_str(self) -> &'static str {
        match self {
            Stop::Converged => "converged",
            Stop::IterationCap => "cap",
            Stop::Diverged => "diverged",
            Stop::Stalled => "stalled",
            Stop::Invalid => "invalid",
        }
    }
    /// The worse of two stops (a composed inverse reports its worst layer).
    pub fn worst(self, other: Stop) -> Stop {
        let rank = |s: Stop| match s {
            Stop::Converged => 0,
            Stop::IterationCap => 1,
            Stop::Stalled => 2,
            Stop::Diverged => 3,
            Stop::Invalid => 4,
        };
        if rank(other) > rank(self) {
            other
        } else {
            self
        }
    }
}

/// One monotone layer's inverse report.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LayerReport {
    /// Iterations used (DYS iterations or Newton steps).
    pub iterations: usize,
    /// Final ‖F(x) − y‖ of the returned x.
    pub residual: f64,
    /// What ended it.
    pub stop: Stop,
}

impl LayerReport {
    /// The report before any solve.
    pub const EMPTY: LayerReport = LayerReport {
        iterations: 0,
        residual: f64::NAN,
        stop: Stop::Converged,
    };
}
