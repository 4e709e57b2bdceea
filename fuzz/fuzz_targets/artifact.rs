//! Fuzz the model-file loader: any bytes → `load_model_bytes` returns a typed error or a
//! validated model; a model that loads must solve a few targets without panicking, with an
//! honest report (finite q unless `invalid`; `converged` only within tolerance).
#![no_main]

use libfuzzer_sys::fuzz_target;
use loink::artifact::load_model_bytes;
use loink::report::{Status, Tolerance};
use loink::surrogate::Loink;

fuzz_target!(|data: &[u8]| {
    let model = match load_model_bytes(data) {
        Ok(model) => model,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    let solver = Loink::new(model);
    let tolerance = Tolerance::CLASSICAL;
    let mut state = solver.new_state();
    let m = solver.task_dim();
    for y in [[0.5, 0.4], [0.0, 0.0], [3.0, 0.0], [f64::NAN, 0.0]] {
        let y: Vec<f64> = (0..m).map(|i| y.get(i).copied().unwrap_or(0.1)).collect();
        let s = solver.solve(&mut state, &y);
        match s.status() {
            Status::Invalid => assert!(s.q().is_empty()),
            Status::Converged => {
                assert!(s.residual() <= tolerance.residual, "{s:?}");
                assert!(s.q().iter().all(|v| v.is_finite()));
            }
            _ => assert!(s.q().iter().all(|v| v.is_finite()), "{s:?}"),
        }
    }
});
