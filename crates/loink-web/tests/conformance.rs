//! The page's engine natively against every kind of problem (states are compared through
//! their debug text: an unknown J* is NaN): a model file for any preset reaches
//! the views of its own problem and works through every solver there, and is refused, changing
//! nothing, by every other view — including a file that names another problem than its spec
//! describes (another kind, other links, a wider box).

use loink::artifact::{random_model, save_model};
use loink::problem::registry::preset_names;
use loink::problem::Problem;
use loink_web::catalog;
use loink_web::engine::Engine;
use loink_web::settings::{Settings, SolverKind};

fn untrained_json(preset: &str) -> String {
    save_model(&random_model(preset, 2, &[8, 8], 0.5, 2.0, 7).expect("random model"))
}

/// Opens catalog view `name` with the engine's default settings otherwise.
fn open(e: &mut Engine, name: &str) {
    let next = Settings {
        model: name.to_string(),
        ..e.settings().clone()
    };
    e.apply(next);
    assert_eq!(e.entry().name, name);
}

#[test]
fn every_preset_reaches_its_own_views_and_no_other() {
    for preset in preset_names() {
        let json = untrained_json(preset);
        for entry in catalog::MODELS.iter().filter(|m| m.kind == "loink") {
            let mut e = Engine::new().expect("the default view builds");
            open(&mut e, entry.name);
            let before = e.state();
            let loaded = e.load_model(entry.name, &json);
            if entry.problem != preset {
                let why = loaded.expect_err(&format!("{preset} into {}", entry.name));
                assert!(why.contains(preset), "{why}");
                assert_eq!(
                    format!("{:?}", e.state()),
                    format!("{before:?}"),
                    "{preset} into {}",
                    entry.name
                );
                continue;
            }
            loaded.unwrap_or_else(|why| panic!("{preset} into {}: {why}", entry.name));
            let dof = Problem::preset(preset).unwrap().dof();
            for solver in SolverKind::ALL {
                if e.solver_available(solver).is_err() {
                    continue;
                }
                let next = Settings {
                    solver,
                    ..e.settings().clone()
                };
                e.apply(next);
                while e.idle_pending() {
                    e.idle(1e6);
                }
                let s = e.state();
                assert_eq!(s.q.len(), dof, "{preset}, {solver:?}");
                assert!(s.residual.is_finite(), "{preset}, {solver:?}");
                assert_ne!(s.status, "invalid", "{preset}, {solver:?}");
            }
        }
    }
}

#[test]
fn a_file_whose_spec_is_another_kind_than_its_name_is_refused() {
    for preset in preset_names() {
        let mut file: serde_json::Value = serde_json::from_str(&untrained_json(preset)).unwrap();
        for entry in catalog::MODELS.iter().filter(|m| m.kind == "loink") {
            // The same robot in a narrower box (planar3 is planar3-wide's arm) is a legal file.
            let mut renamed = Problem::preset(preset).unwrap().spec();
            renamed.name = entry.problem.to_string();
            if renamed.within(&Problem::preset(entry.problem).unwrap().spec()) {
                continue;
            }
            file["problem"]["name"] = serde_json::Value::from(entry.problem);
            let mut e = Engine::new().expect("the default view builds");
            open(&mut e, entry.name);
            let before = e.state();
            let loaded = e.load_model(entry.name, &file.to_string());
            assert!(
                loaded.is_err(),
                "a {preset} file named {} taken by {}",
                entry.problem,
                entry.name
            );
            assert_eq!(format!("{:?}", e.state()), format!("{before:?}"));
        }
    }
}
