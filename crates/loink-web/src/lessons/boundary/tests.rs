//! The boundary lesson's claims, checked on the same lines, every row replayed through planar3's
//! kinematics written out again here (links 0.5, 0.4, 0.3 m; angles summed), not the crate's.

use super::sweep::{Method, Row};
use super::*;

/// planar3's tip for q, from docs/planar3.md alone.
fn tip(q: &[f64]) -> [f64; 2] {
    let lengths = [0.5, 0.4, 0.3];
    let (mut x, mut y, mut s) = (0.0, 0.0, 0.0);
    for (l, qi) in lengths.iter().zip(q) {
        s += qi;
        x += l * s.cos();
        y += l * s.sin();
    }
    [x, y]
}

fn replayed(r: &Row) -> f64 {
    let p = tip(&r.q);
    (p[0] - r.target[0]).hypot(p[1] - r.target[1])
}

fn state(edge: EdgeKind) -> BoundaryState {
    BoundaryLesson::new(&models::shipped::<BoundaryLesson>(), edge, [0.0, 0.0]).state()
}

fn switch(state: &BoundaryState, method: Method) -> Switch {
    state
        .switches
        .iter()
        .find(|s| s.method == method.key())
        .cloned()
        .unwrap_or_else(|| panic!("no switch for {}", method.key()))
}

#[test]
fn every_residual_is_the_replayed_distance_and_no_converged_row_misses() {
    for edge in EdgeKind::ALL {
        let state = state(edge);
        assert!(state.sweep.len() >= 5 * 250, "{} rows", state.sweep.len());
        for r in &state.sweep {
            assert_eq!(r.q.len(), 3, "{r:?}");
            let replay = replayed(r);
            assert!(
                (r.residual_m - replay).abs() <= 1e-9,
                "{r:?}: replayed {replay}"
            );
            if r.status == "converged" {
                assert!(replay <= 1e-6, "{r:?}");
            }
        }
    }
}

#[test]
fn the_reference_converges_inside_the_edge_and_says_unreachable_past_it() {
    for edge in EdgeKind::ALL {
        let state = state(edge);
        let reference: Vec<&Row> = state
            .sweep
            .iter()
            .filter(|r| r.method == "reference")
            .collect();
        assert!(
            reference.first().unwrap().d_m < -0.2,
            "{edge:?}: starts well inside"
        );
        assert!(
            reference.last().unwrap().d_m > 0.049,
            "{edge:?}: ends 5 cm past the edge"
        );
        for r in reference {
            if r.d_m <= -1e-3 {
                assert_eq!(r.status, "converged", "{r:?}");
            }
            if r.d_m >= 1e-3 {
                assert_eq!(r.status, "unreachable", "{r:?}");
            }
        }
    }
}

#[test]
fn the_limit_line_crosses_an_edge_inside_the_reach_circle() {
    let state = state(EdgeKind::Limit);
    let edge = state.line.point(state.edge_m);
    let radius = edge[0].hypot(edge[1]);
    assert!(
        radius < 1.1,
        "the edge at {edge:?} is {radius} m from the base"
    );
    // The reference reaches a target up to its 1e-6 m tolerance past the reach circle.
    let reach = state_reach_edge();
    assert!(
        (reach - 1.2).abs() < 1e-5,
        "the reach line's edge is {reach} m out"
    );
}

fn state_reach_edge() -> f64 {
    let state = state(EdgeKind::Reach);
    let p = state.line.point(state.edge_m);
    p[0].hypot(p[1])
}

fn residual_at(state: &BoundaryState, method: Method, d: f64) -> &Row {
    let mine = state.sweep.iter().filter(|r| r.method == method.key());
    sweep::nearest(mine, d).expect("the method has rows")
}

/// The warning sign, where it is and where it is not: at the reach circle DLS's residual on a
/// 10-iteration budget grows a thousandfold over the last centimetres and its status turns
/// before the edge; at the shoulder's limit it stays at the floor up to the edge.
#[test]
fn the_residual_warns_at_the_stretched_edge_and_not_at_the_limit() {
    let reach = state(EdgeKind::Reach);
    let far = residual_at(&reach, Method::DlsWarm, -0.05).residual_m;
    let near = residual_at(&reach, Method::DlsWarm, -0.002);
    assert!(far <= 1e-10, "5 cm inside: {far}");
    assert!(
        near.residual_m >= 1e3 * far && near.residual_m > 1e-6,
        "{near:?}"
    );
    assert_eq!(near.status, "capped", "{near:?}");
    let warm = switch(&reach, Method::DlsWarm);
    let turned = warm.converged_until_m.expect("converged somewhere");
    assert!((-0.01..-0.002).contains(&turned), "{warm:?}");
    // With its own 500-iteration cap, DLS reaches every point up to 1 mm from the edge.
    assert_eq!(switch(&reach, Method::DlsCold).unconverged_inside, 0);
    let limit = state(EdgeKind::Limit);
    assert_eq!(switch(&limit, Method::DlsWarm).unconverged_inside, 0);
    // From mid-range DLS stalls far off just inside the shoulder's edge, and is called
    // unreachable within a millimetre of it, where the reference still reaches the target.
    let cold = switch(&limit, Method::DlsCold);
    assert!(cold.unreachable_from_m.is_some_and(|d| d < 0.0), "{cold:?}");
    let stalled = residual_at(&limit, Method::DlsCold, -0.0015);
    assert!(
        stalled.status == "capped" && stalled.residual_m > 0.1,
        "{stalled:?}"
    );
    for row in limit
        .sweep
        .iter()
        .filter(|r| r.method == "dls-warm" && r.d_m <= -1e-3)
    {
        assert!(row.residual_m <= 1e-8, "{row:?}");
    }
}

/// Past the edge every method says `unreachable` (1 mm on); the one-shot is never `converged`
/// (its residual is the network's fit), and the polish makes it so up to the edge.
#[test]
fn past_the_edge_every_method_says_unreachable() {
    for edge in EdgeKind::ALL {
        let state = state(edge);
        for s in &state.switches {
            assert_eq!(s.past_edge_not_unreachable, 0, "{edge:?}: {s:?}");
        }
        let one_shot = switch(&state, Method::LoinkOneShot);
        assert_eq!(one_shot.converged_until_m, None, "{one_shot:?}");
        assert!(one_shot.residual_1cm_in_m > 1e-3, "{one_shot:?}");
        assert_eq!(switch(&state, Method::LoinkRefine).unconverged_inside, 0);
    }
}

/// The re-seeding counts: every answer converges, from either seed, and LOInK's cold answer
/// takes its fixed few iterations; the stale seed's extra cost is measured, not assumed.
#[test]
fn after_a_contact_both_seeds_converge_and_loink_needs_none() {
    for edge in EdgeKind::ALL {
        let state = state(edge);
        assert_eq!(state.reseed.len(), 3);
        for r in &state.reseed {
            assert_eq!(r.converged, [r.points; 3], "{edge:?}: {r:?}");
            let loink = r.loink_iterations.expect("the model is loaded");
            assert!(loink <= 20.0, "{r:?}");
            assert!(
                (r.stale_iterations - r.measured_iterations).abs() < 1.5,
                "{r:?}"
            );
        }
    }
}

#[test]
fn print_the_measured_switches() {
    for edge in EdgeKind::ALL {
        let state = state(edge);
        println!("{edge:?}: edge at {:.6} m along the line", state.edge_m);
        for s in &state.switches {
            println!("  {s:?}");
        }
        for r in &state.reseed {
            println!("  {r:?}");
        }
        assert_eq!(
            switch(&state, Method::Reference).past_edge_not_unreachable,
            0
        );
    }
}

/// The lesson's reference (a quarter of the samples) is the reference: the same status and
/// cost as the default 40,000-sample sweep on every point of both lines.
#[test]
fn the_lessons_reference_is_the_full_reference_on_every_point() {
    let problem = Problem::preset("planar3").expect("a preset");
    for edge in EdgeKind::ALL {
        let state = state(edge);
        for r in state.sweep.iter().filter(|r| r.method == "reference") {
            let full = loink::solvers::reference::solve(&problem, &r.target);
            assert_eq!(full.status().as_str(), r.status, "{r:?}");
            let cost = problem.cost().value(&r.q);
            if r.status == "converged" {
                assert!(
                    (cost - full.cost()).abs() <= 1e-9 * full.cost().max(1.0),
                    "{r:?}: {cost} vs {}",
                    full.cost()
                );
            }
        }
    }
}
