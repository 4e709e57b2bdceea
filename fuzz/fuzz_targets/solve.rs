//! Fuzz `solve(y)`: the input is read as a solver selector and a sequence of f64 targets
//! (16 bytes each, any bit pattern: NaN payloads, ±∞, subnormals, −0.0, 1e308). Every solver
//! must return an honest report, and an invalid target must leave the learned solver's
//! warm-start state exactly as it was.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use loink::artifact::{random_model, validate};
use loink::problem::Problem;
use loink::report::{Solution, Status, Tolerance};
use loink::solvers::{analytic, dls, reference};
use loink::surrogate::Loink;

struct Fixtures {
    planar2: Problem,
    planar3: Problem,
    planar4: Problem,
    loink3: Loink,
    loink4: Loink,
}

fn fixtures() -> &'static Fixtures {
    static F: OnceLock<Fixtures> = OnceLock::new();
    F.get_or_init(|| {
        let learned = |robot: &str| {
            let file = random_model(robot, 2, &[8, 8], 0.1, 4.0, 3).expect("random model");
            Loink::new(validate(file).expect("valid random model"))
        };
        Fixtures {
            planar2: Problem::preset("planar2").unwrap(),
            planar3: Problem::preset("planar3").unwrap(),
            planar4: Problem::preset("planar4").unwrap(),
            loink3: learned("planar3"),
            loink4: learned("planar4"),
        }
    })
}

fn check(s: &Solution) {
    let tolerance = Tolerance::CLASSICAL;
    match s.status() {
        Status::Invalid => assert!(s.q().is_empty(), "{s:?}"),
        Status::Converged => {
            assert!(s.residual() <= tolerance.residual, "{s:?}");
            assert!(s.margin() >= -tolerance.limits, "{s:?}");
        }
        _ => {}
    }
    if s.status() != Status::Invalid {
        assert!(s.q().iter().all(|v| v.is_finite()), "{s:?}");
        assert!(s.residual().is_finite() && s.cost().is_finite(), "{s:?}");
    }
}

/// A large miss inside the workspace costs a reachability sweep (~ms): at most 4 targets an input.
fn learned(solver: &Loink, targets: &[Vec<f64>]) {
    let mut state = solver.new_state();
    for y in targets.iter().take(4) {
        // Compared through Debug: a fresh state holds NaN placeholders, and NaN != NaN.
        let before = format!("{state:?}");
        let s = solver.solve(&mut state, y);
        check(&s);
        if s.status() == Status::Invalid {
            assert!(
                format!("{state:?}") == before,
                "an invalid target changed the state"
            );
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    // Targets of 2 coordinates, plus one odd-length tail to exercise wrong dimensions.
    let values: Vec<f64> = rest
        .chunks_exact(8)
        .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
        .take(16)
        .collect();
    let mut targets: Vec<Vec<f64>> = values.chunks(2).map(<[f64]>::to_vec).collect();
    if selector & 0x80 != 0 {
        targets.push(values.iter().take(3).copied().collect());
    }
    let f = fixtures();
    match (selector & 0x7f) % 6 {
        0 => learned(&f.loink3, &targets),
        1 => learned(&f.loink4, &targets),
        2 => {
            for y in &targets {
                let seed = f.planar3.limits().centres();
                check(
                    &dls::solve(&f.planar3, y, &seed, &dls::DlsOptions::default()));
            }
        }
        3 => {
            for y in &targets {
                let seed = f.planar4.limits().centres();
                check(
                    &dls::solve(&f.planar4, y, &seed, &dls::DlsOptions::default()));
            }
        }
        4 => {
            for y in &targets {
                check(
                    &analytic::solve_best(&f.planar2, y).unwrap());
            }
        }
        // The reference sweep costs ~ms a target: only the first.
        _ => {
            for y in targets.iter().take(1) {
                check(&reference::solve(&f.planar3, y));
            }
        }
    }
});
