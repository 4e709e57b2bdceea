//! The climber against docs/climber.md: the reference table (task, cost, adhesion) to 1e-9, the
//! closed-form stance, the analytic Jacobian against central differences, the optima IPOPT found
//! (best of 16) and a many-start search, and targets drawn inside the useful domain.

use loink::problem::climber::body::Stance;
use loink::problem::climber::stance::{placement_of, stance, Placement};
use loink::problem::climber::statics::{forces, WEIGHT};
use loink::problem::Problem;
use loink::report::Status;
use loink::solvers::reference::{self, multistart};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn climber() -> Problem {
    Problem::preset("climber").expect("the climber preset")
}

/// One row of docs/climber.md §5: x, y, J, (a_U, a_L).
type Row = ([f64; 5], [f64; 3], f64, [f64; 2]);

/// docs/climber.md §5 (row N's θ_b is the table's 12-digit π/2, kept as printed).
#[allow(clippy::approx_constant)]
const TABLE: [Row; 6] = [
    (
        [
            1.57079632679,
            -0.0754545679137,
            -1.68259473039,
            -0.0754545679137,
            -1.68259473039,
        ],
        [3.06161699787e-17, 0.5, 0.08],
        0.88118624728,
        [52.933141429, 33.7084014783],
    ),
    (
        [1.9, -0.7, -1.5, 0.6, -1.7],
        [0.00908150276263, 0.500533786414, 0.0805437682791],
        0.787001781386,
        [44.9185543283, 40.610251697],
    ),
    (
        [2.3, -0.4, -1.5, 0.3, -1.9],
        [-0.251727478778, 0.425384018394, 0.0779034459952],
        1.02653875553,
        [61.2816904925, 44.1668165015],
    ),
    (
        [1.2, 0.2, -1.9, -0.6, -1.1],
        [0.06967861622, 0.495201115982, 0.0982423192122],
        0.844600105473,
        [49.4991728263, 27.8522264738],
    ),
    (
        [3.0, -1.0, -0.8, 0.9, -2.2],
        [-0.390721332446, 0.303251276733, 0.0851437304206],
        1.06680957301,
        [60.4087252019, 40.6505590149],
    ),
    (
        [2.1, 0.392, -1.177, 0.392, -1.177],
        [-0.360457368876, 0.616326786037, -0.0250046968391],
        2.77357948653,
        [76.7670334428, 28.6677414993],
    ),
];

#[test]
fn the_reference_table_holds() {
    let problem = climber();
    assert!((WEIGHT - 60.616088).abs() < 1e-6, "W = {WEIGHT}");
    for (x, y, j, a) in TABLE {
        let got = problem.forward(&x).unwrap();
        for r in 0..3 {
            // The table's x has 12 digits: y follows to about 1e-11 m.
            assert!(
                (got[r] - y[r]).abs() < 1e-9,
                "{x:?}: y{} {} vs {}",
                r + 1,
                got[r],
                y[r]
            );
        }
        let cost = problem.cost().value(&x);
        assert!((cost - j).abs() < 1e-9, "{x:?}: J {cost} vs {j}");
        let f = forces(&Stance::new(&x));
        for i in 0..2 {
            assert!(
                (f.adhesion[i] - a[i]).abs() < 1e-7,
                "{x:?}: a {:?} vs {a:?}",
                f.adhesion
            );
        }
    }
    // Row N in detail: the shear and normal forces, and J's three parts.
    let f = forces(&Stance::new(&TABLE[0].0));
    for (got, want) in f.shear.iter().zip([30.729437, 29.886651]) {
        assert!((got - want).abs() < 1e-6, "T {:?}", f.shear);
    }
    for (got, want) in f.normal.iter().zip([-9.010707, 9.010707]) {
        assert!((got - want).abs() < 1e-6, "N {:?}", f.normal);
    }
    let parts = Problem::new(
        problem.kinematics_arc(),
        loink::cost::CostSpec::parse("adhesion=1").unwrap(),
    )
    .unwrap()
    .cost()
    .value(&TABLE[0].0);
    assert!(
        (parts - 0.873340214321).abs() < 1e-9,
        "adhesion part {parts}"
    );
}

#[test]
fn the_closed_form_stance_is_row_n() {
    let x = stance(&Placement {
        inclination: std::f64::consts::FRAC_PI_2,
        span: 0.5,
        clearance: 0.08,
        tilt: 0.0,
        offset: 0.0,
    })
    .expect("reachable");
    for (got, want) in x.iter().zip(TABLE[0].0) {
        assert!((got - want).abs() < 1e-9, "{x:?}");
    }
    // And any placement's stance lands on its task.
    let problem = climber();
    for (tilt, offset) in [(0.3, 0.05), (-0.4, -0.1), (0.6, 0.12)] {
        let y = [-0.2, 0.4, 0.1];
        let x = stance(&placement_of(&y, tilt, offset)).expect("reachable");
        let got = problem.forward(&x).unwrap();
        for r in 0..3 {
            assert!((got[r] - y[r]).abs() < 1e-12, "{got:?}");
        }
    }
}

#[test]
fn the_jacobian_is_analytic_and_equals_central_differences() {
    let problem = climber();
    assert!(problem.profile().analytic_jacobian);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for x in problem.random_configurations(50, &mut rng) {
        let (mut y, mut jac) = ([0.0; 3], [0.0; 15]);
        problem.kinematics().jacobian_into(&x, &mut y, &mut jac);
        for i in 0..5 {
            let step = 1e-6;
            let (mut up, mut down) = (x.clone(), x.clone());
            up[i] += step;
            down[i] -= step;
            let (yu, yd) = (problem.position(&up), problem.position(&down));
            for r in 0..3 {
                let fd = (yu[r] - yd[r]) / (2.0 * step);
                assert!(
                    (jac[i * 3 + r] - fd).abs() < 1e-7,
                    "∂y{}/∂x{}: {} vs {fd}",
                    r + 1,
                    i + 1,
                    jac[i * 3 + r]
                );
            }
        }
    }
}

#[test]
fn the_reference_finds_the_optima_ipopt_found() {
    let problem = climber();
    let deg = std::f64::consts::PI / 180.0;
    for (gamma, d, h, j_star) in [
        (90.0, 0.5, 0.08, 0.7971056206),
        (135.0, 0.5, 0.09, 1.0315560497),
        (180.0, 0.5, 0.09, 0.6290773962),
        (70.0, 0.45, 0.06, 0.5865313732),
    ] {
        let g: f64 = gamma * deg;
        let y = [d * g.cos(), d * g.sin(), h];
        let s = reference::solve(&problem, &y);
        assert_eq!(s.status(), Status::Converged, "{gamma}°: {s:?}");
        assert!(
            (s.cost() - j_star).abs() <= 1e-9 * j_star.max(1.0) + 1e-10,
            "{gamma}°, {d}, {h}: J* {} vs IPOPT's {j_star}",
            s.cost()
        );
    }
}

#[test]
fn targets_lie_in_the_domain_and_the_reference_beats_a_many_start_search() {
    let problem = climber();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let targets = problem.random_targets(24, &mut rng);
    assert_eq!(targets.len(), 24);
    for y in &targets {
        let gamma = y[1].atan2(y[0]).to_degrees();
        let span = y[0].hypot(y[1]);
        assert!((60.0..=180.0).contains(&gamma), "γ {gamma}");
        assert!((0.30..=0.70).contains(&span), "d {span}");
        assert!((0.04..=0.16).contains(&y[2]), "h {}", y[2]);
        let best = reference::solve(&problem, y);
        assert_eq!(best.status(), Status::Converged, "{y:?}");
        let many = multistart::solve_from(&problem, y, 64);
        assert!(
            best.cost() <= many.cost() * (1.0 + 1e-9) || many.status() != Status::Converged,
            "{y:?}: reference {} above 64 starts' {}",
            best.cost(),
            many.cost()
        );
    }
}
