//! The playground's engine natively: settings, solving, hostile input, learned-model wiring
//! (with an untrained random model from `loink::artifact::random_model`, never shipped).

use loink::artifact::{random_model, save_model};
use loink_web::catalog;
use loink_web::engine::Engine;
use loink_web::settings::{format_hash, parse_hash, Settings, SolverKind};

/// The default view as the page first shows it: solved, panels prepared.
fn engine() -> Engine {
    let mut e = Engine::new().expect("the default view builds");
    assert!(
        e.state().optimum_pending,
        "new() leaves the panels to the first frame"
    );
    assert!(e.prepare_panels());
    e
}

fn untrained_json(robot: &str) -> String {
    save_model(&random_model(robot, 2, &[8, 8], 0.5, 2.0, 7).expect("random model"))
}

#[test]
fn starts_on_a_classical_solver_until_a_model_loads() {
    let e = engine();
    assert_eq!(e.settings().solver, SolverKind::Dls);
    assert!(e.solver_available(SolverKind::Loink).is_err());
    let s = e.state();
    assert_eq!(s.status, "converged");
    assert!(s.residual <= 1e-9, "{}", s.residual);
    assert!(
        s.gap.abs() < 1e-3,
        "DLS from mid-range finds the optimum here: {}",
        s.gap
    );
}

#[test]
fn dls_and_reference_reach_a_reachable_target_and_report_the_gap() {
    let mut e = engine();
    for solver in [SolverKind::Dls, SolverKind::Reference] {
        let mut next = e.settings().clone();
        next.solver = solver;
        next.target = vec![0.3, 0.8];
        assert!(e.apply(next).is_empty());
        let s = e.state();
        assert_eq!(s.status, "converged", "{solver:?}");
        assert!(s.residual <= 1e-9);
        assert!(s.optimum.is_finite() && s.gap >= -1e-6, "{}", s.gap);
        assert_eq!(s.readouts.status, "converged");
    }
}

#[test]
fn an_unreachable_target_is_labelled_unreachable() {
    let mut e = engine();
    e.set_target(&[2.0, 0.0]).unwrap();
    let s = e.state();
    assert_eq!(s.status, "unreachable");
    assert!(s.unreachable);
    assert!(s.message.contains("unreachable"));
    assert!(s.gap.is_nan());
    assert_eq!(s.readouts.gap, "—");
}

#[test]
fn hostile_targets_are_refused_and_change_nothing() {
    let mut e = engine();
    e.set_target(&[0.5, 0.5]).unwrap();
    let before = e.state();
    for bad in [
        [f64::NAN, 0.0],
        [0.0, f64::INFINITY],
        [f64::NEG_INFINITY, 0.0],
        [1e300, 0.0],
        [11.0, 0.0],
    ] {
        assert!(e.set_target(&bad).is_err(), "{bad:?}");
        assert_eq!(e.state().target, before.target);
        assert_eq!(e.state().q, before.q);
    }
    // The next good input is answered.
    e.set_target(&[0.6, 0.2]).unwrap();
    assert_eq!(e.state().status, "converged");
    // −0.0 and the base itself are valid points.
    e.set_target(&[-0.0, 0.0]).unwrap();
    assert!(["unreachable", "converged", "capped", "limits"].contains(&e.state().status.as_str()));
}

#[test]
fn a_hash_round_trips_through_the_engine() {
    let mut e = engine();
    let parsed = parse_hash("#model=planar4&solver=reference&target=0.5,0.4&sigma=0.3&samples=5&seed=42&refine=4&embed=1&seed_hide=1");
    assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
    assert!(e.apply(parsed.settings.clone()).is_empty());
    let hash = format_hash(e.settings());
    assert_eq!(parse_hash(&hash).settings, parsed.settings);
    assert_eq!(e.state().model, "planar4");
}

#[test]
fn unavailable_solvers_fall_back_with_a_warning() {
    let mut e = engine();
    let next = Settings {
        solver: SolverKind::Analytic,
        ..Settings::default()
    };
    let warnings = e.apply(next);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("two-link"));
    assert_ne!(e.settings().solver, SolverKind::Analytic);
    let planar2 = Settings {
        model: "planar2".into(),
        solver: SolverKind::Analytic,
        target: vec![1.2, 0.5],
        ..Settings::default()
    };
    assert!(e.apply(planar2).is_empty());
    assert_eq!(e.state().status, "converged");
}

#[test]
fn hostile_model_files_are_refused_and_change_nothing() {
    let mut e = engine();
    let before = e.state();
    for bad in [
        "",
        "{",
        "null",
        "[1,2,3]",
        "{\"format\":\"loink-model\",\"version\":99}",
    ] {
        assert!(e.load_model("planar3", bad).is_err(), "{bad}");
    }
    assert!(e
        .load_model("../planar3", &untrained_json("planar3"))
        .is_err());
    assert!(e.load_model("planar2", &untrained_json("planar3")).is_err());
    assert!(
        e.load_model("planar4", &untrained_json("planar3")).is_err(),
        "problem mismatch"
    );
    // Same links, other limits: a model is matched to its entry by the problem its file names.
    let wide = e.load_model("planar3-h38w", &untrained_json("planar3-wide"));
    assert!(
        wide.is_err_and(|m| m.contains("planar3-wide")),
        "planar3-wide taken for planar3"
    );
    assert_eq!(e.state(), before);
    assert!(e.loaded().is_empty());
}

#[test]
fn an_untrained_model_wires_through_every_learned_path() {
    let mut e = engine();
    // Into the default view's model (a planar3 one), so the view uses it at once.
    e.load_model(catalog::default_entry().name, &untrained_json("planar3"))
        .unwrap();
    assert!(e.model().unwrap().is_untrained());
    let next = Settings {
        solver: SolverKind::LoinkRefine,
        sigma: 0.5,
        samples: 6,
        refine: 20,
        target: vec![0.5, 0.5],
        ..Settings::default()
    };
    assert!(e.apply(next).is_empty());
    let s = e.state();
    assert_eq!(s.q.len(), 3);
    assert!(s.residual.is_finite());
    assert_eq!(e.samples().len(), 6);
    let curve = e.curve().expect("curve");
    assert!(curve.z.len() > 10 && curve.true_cost.iter().all(|c| c.is_finite()));
    assert!(curve.z.contains(&0.0));
    while e.idle_pending() {
        e.idle(1e6);
    }
    let map = e.latent_map().expect("latent map");
    assert!(map.complete() && map.rows == 1);
    assert!(map.cost.iter().all(|c| c.is_finite()));
    // Plain LOInK reports its own status honestly (an untrained map misses the target).
    let plain = Settings {
        solver: SolverKind::Loink,
        ..e.settings().clone()
    };
    e.apply(plain);
    assert_ne!(e.state().status, "invalid");
}

#[test]
fn planar4_gets_a_two_dimensional_latent_map_after_idle_work() {
    let mut e = engine();
    e.load_model("planar4", &untrained_json("planar4")).unwrap();
    let next = Settings {
        model: "planar4".into(),
        solver: SolverKind::Loink,
        target: vec![0.5, 0.4],
        ..Settings::default()
    };
    assert!(e.apply(next).is_empty());
    assert!(
        e.idle_pending(),
        "the four-link reference sweep is deferred"
    );
    let mut rounds = 0;
    while e.idle_pending() && rounds < 10_000 {
        e.idle(1e5);
        rounds += 1;
    }
    assert!(e.optimum().is_some());
    let map = e.latent_map().unwrap();
    assert_eq!(map.rows, map.cols);
    assert!(map.complete());
}

#[test]
fn move_target_solves_now_and_defers_the_reference_pass_honestly() {
    let mut e = engine();
    e.set_target(&[0.5, 0.5]).unwrap();
    assert!(!e.state().optimum_pending && e.state().gap.is_finite());
    e.move_target(&[0.3, 0.8]).unwrap();
    let now = e.state();
    // This target's own solution, at once…
    assert_eq!(now.target, [0.3, 0.8]);
    assert_eq!(now.status, "converged");
    assert!(now.residual <= 1e-9);
    // …but no J* yet: pending, not the previous target's gap.
    assert!(now.optimum_pending);
    assert!(now.gap.is_nan() && now.optimum.is_nan());
    assert_eq!(now.readouts.gap, "—");
    assert!(e.motion().is_none());
    assert!(e.prepare_panels());
    let drawn = e.state();
    assert!(!drawn.optimum_pending);
    assert_eq!(
        drawn.q, now.q,
        "the deferred pass does not change the solution"
    );
    assert!(drawn.gap.is_finite() && drawn.gap >= -1e-6, "{}", drawn.gap);
    assert!(!e.prepare_panels(), "nothing left");
    // The same figures as the all-at-once path.
    let mut full = engine();
    full.set_target(&[0.3, 0.8]).unwrap();
    assert_eq!(full.state().optimum, drawn.optimum);
    // A refused target changes nothing, pending or not.
    e.move_target(&[0.6, 0.1]).unwrap();
    assert!(e.move_target(&[f64::NAN, 0.0]).is_err());
    assert_eq!(e.state().target, [0.6, 0.1]);
    assert!(e.state().optimum_pending);
}

#[test]
fn a_deferred_apply_solves_now_and_leaves_the_optimum_pending() {
    let mut e = engine();
    let mut next = e.settings().clone();
    next.target = vec![0.4, 0.5];
    assert!(e.apply_deferred(next.clone()).is_empty());
    let now = e.state();
    assert_eq!(now.target, [0.4, 0.5]);
    assert_eq!(now.status, "converged");
    assert!(now.optimum_pending && now.gap.is_nan(), "no stale gap");
    assert!(e.prepare_panels());
    let drawn = e.state();
    assert!(!drawn.optimum_pending && drawn.gap.is_finite());
    // The same settings applied at once give the same view.
    let mut other = engine();
    other.apply(next);
    assert_eq!(other.state().q, drawn.q);
    assert_eq!(other.state().gap, drawn.gap);
}

#[test]
fn extrapolated_warm_starts_keep_the_curve_and_latent_map_exact() {
    // The landscape curve and the latent map walk z in equal steps with extrapolated warm
    // starts; every point must still be J(G⁻¹([y; z])) as a cold inverse finds it.
    use loink::surrogate::Loink;
    use loink_web::learned::LoinkView;
    let shipped = |name: &str| {
        let path = format!(
            "{}/../../web/models/{name}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::read_to_string(path).expect("a shipped model")
    };
    for (robot, json) in [
        ("untrained planar3", untrained_json("planar3")),
        ("untrained planar4", untrained_json("planar4")),
        ("shipped planar3", shipped("planar3")),
        ("shipped planar4", shipped("planar4")),
    ] {
        let model = LoinkView::from_json(&json).expect("valid model");
        let cold = Loink::from_json(&json).expect("valid model");
        let cost_at = |target: &[f64], z: &[f64]| {
            let (q, _) = cold
                .preimage(&mut cold.new_state(), target, z)
                .expect("valid input");
            cold.problem().cost().value(&q)
        };
        let target = [0.55, 0.35];
        let curve = model.curve(&target, 2.0, 64).expect("a latent axis");
        assert_eq!(curve.z.len(), 65, "{robot}");
        for (z, j) in curve.z.iter().zip(&curve.true_cost) {
            let mut latent = vec![0.0; cold.latent_dim()];
            latent[0] = *z;
            let expected = cost_at(&target, &latent);
            assert!(
                (j - expected).abs() <= 1e-8 * expected.abs().max(1.0),
                "{robot} z {z}: {j} vs {expected}"
            );
        }
        let mut map = model.new_map(2.0, 12, Vec::new(), None, [0, 1], &[]);
        while model.fill_map(&mut map, &target, 1e9) {}
        assert!(map.complete());
        let [lo, hi] = map.z_range;
        for (cell, j) in map.cost.iter().enumerate() {
            let (row, col) = (cell / map.cols, cell % map.cols);
            let mut z = vec![0.0; cold.latent_dim()];
            z[0] = lo + (col as f64 + 0.5) / map.cols as f64 * (hi - lo);
            if z.len() >= 2 {
                z[1] = hi - (row as f64 + 0.5) / map.rows as f64 * (hi - lo);
            }
            let expected = cost_at(&target, &z);
            assert!(
                (j - expected).abs() <= 1e-8 * expected.abs().max(1.0),
                "{robot} cell {cell}: {j} vs {expected}"
            );
        }
    }
}

#[test]
fn the_page_and_loink_eval_give_the_same_answer_for_the_same_settings() {
    // `loink eval` builds its solver with the registry, cold (tests/fixtures/eval-pins.json pins
    // its rows); the page builds the same one and warm-starts it, so its first solve is cold.
    use loink::solvers::registry::{SolverSettings, Start};
    use loink::surrogate::Loink;
    let name = catalog::default_entry().name;
    let json = std::fs::read_to_string(format!(
        "{}/../../web/models/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("the default model ships");
    let model = Loink::from_json(&json).expect("valid");
    let cases = [
        (SolverKind::Loink, 0, 0),
        (SolverKind::Loink, 0, 2),
        (SolverKind::LoinkRefine, 3, 0),
        (SolverKind::LoinkRefine, 3, 2),
        (SolverKind::Dls, 3, 2),
        (SolverKind::Reference, 3, 2),
    ];
    for (solver, refine, feedback) in cases {
        for target in [[0.6, 0.3], [0.2, 0.9], [-0.4, 0.5], [0.9, -0.4]] {
            let mut e = engine();
            e.load_model(name, &json).expect("loads");
            let settings = Settings {
                solver,
                refine,
                feedback,
                target: target.to_vec(),
                ..Settings::default()
            };
            // Another solver first: switching builds the solver afresh, so the next solve is cold.
            let other = if solver == SolverKind::Reference {
                SolverKind::Dls
            } else {
                SolverKind::Reference
            };
            assert!(e
                .apply(Settings {
                    solver: other,
                    ..settings.clone()
                })
                .is_empty());
            assert!(e.apply(settings).is_empty());
            // The page's reference answer comes from a coarser frame sweep first and is replaced
            // by the full sweep while the pointer rests (idle work): compare the rested answer.
            while e.idle_pending() {
                e.idle(1e9);
            }
            let page = e.state();
            let learned =
                loink::model::LearnedModel::from(loink::surrogate::ChartSet::from(model.clone()));
            let mut eval = loink::model::solver(
                learned.problem(),
                Some(&learned),
                &SolverSettings {
                    refine: refine as usize,
                    feedback: feedback as usize,
                    start: Start::Cold,
                    ..SolverSettings::new(solver)
                },
            )
            .expect("builds");
            let cli = eval.solve(&target);
            let what = format!("{solver:?} refine {refine} feedback {feedback} at {target:?}");
            assert_eq!(page.status, cli.status().as_str(), "{what}");
            assert_eq!(page.q, cli.q(), "{what}");
            assert_eq!(page.residual.to_bits(), cli.residual().to_bits(), "{what}");
            assert_eq!(page.iterations, cli.iterations(), "{what}");
        }
    }
}

#[test]
fn a_model_without_redundancy_has_no_latent_panel_work() {
    // planar2's model is a bijection onto the task (latent dimension 0): the idle work ends.
    let json = std::fs::read_to_string(format!(
        "{}/../../web/models/planar2.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("the planar2 model ships");
    let mut e = engine();
    e.load_model("planar2", &json).expect("loads");
    let next = Settings {
        model: "planar2".into(),
        solver: SolverKind::Loink,
        target: vec![1.0, 0.8],
        ..Settings::default()
    };
    assert!(e.apply(next).is_empty());
    for _ in 0..10 {
        if !e.idle_pending() {
            break;
        }
        e.idle(1e6);
    }
    assert!(!e.idle_pending());
    assert!(e.latent_map().is_none() && e.curve().is_none());
    assert_eq!(e.state().q.len(), 2);
}

#[test]
fn a_stalled_warm_start_never_traps_dls_on_a_reachable_target() {
    // The drag that used to leave DLS folded over the base, `capped` 0.37 m from an easy target
    // until the page was reloaded.
    use loink::problem::Reachability;
    let mut e = engine();
    let next = Settings {
        solver: SolverKind::Dls,
        target: vec![0.6, 0.3],
        ..Settings::default()
    };
    assert!(e.apply(next).is_empty());
    let corners = [
        [0.6, 0.3],
        [0.3, 0.7],
        [-0.3, 0.8],
        [-0.6, 0.2],
        [-0.5, -0.3],
        [0.2, -0.7],
        [0.9, -0.2],
        [0.6, 0.3],
    ];
    let mut restarts = 0;
    for w in corners.windows(2) {
        let steps = 40;
        for k in 1..=steps {
            let t = k as f64 / steps as f64;
            let y = [
                w[0][0] + t * (w[1][0] - w[0][0]),
                w[0][1] + t * (w[1][1] - w[0][1]),
            ];
            e.move_target(&y).unwrap();
            let s = e.state();
            restarts += usize::from(s.message.contains("restarted"));
            if e.problem().reachability(&y, None) == Reachability::Reachable {
                assert_eq!(s.status, "converged", "{y:?}: {}", s.message);
            }
        }
    }
    let last = e.state();
    assert_eq!(last.status, "converged", "{}", last.message);
    assert!(last.residual <= 1e-6);
    assert!(
        restarts > 0,
        "the path never needed a restart: the test no longer tests it"
    );
}

#[test]
fn a_latent_probe_solves_its_pose_and_a_probe_that_does_not_fit_is_refused_or_dropped() {
    let mut e = engine();
    let name = catalog::default_entry().name;
    e.load_model(name, &untrained_json(catalog::default_entry().problem))
        .unwrap();
    let latent = e.model().unwrap().latent_dim();
    assert!(latent >= 1);
    let mut next = e.settings().clone();
    next.solver = SolverKind::Loink;
    next.probe = vec![0.5; latent];
    assert!(e.apply(next.clone()).is_empty());
    let s = e.state();
    let probe = s.probe.expect("a probe pose");
    assert_eq!(probe.z, vec![0.5; latent]);
    assert_eq!(probe.q.len(), s.q.len());
    assert!(probe.residual.is_finite() && probe.cost.is_finite());
    assert!(format_hash(e.settings()).contains("probe=0.5"));
    // The wrong dimension through the API: refused, nothing changes.
    assert!(e.set_probe(&vec![0.1; latent + 1]).is_err());
    assert!(e.set_probe(&[f64::NAN; 1][..latent.min(1)]).is_err());
    assert_eq!(e.settings().probe, vec![0.5; latent]);
    // Through a link: a warning, and no probe.
    next.probe = vec![0.5; latent + 1];
    let warnings = e.apply(next);
    assert!(
        warnings.iter().any(|w| w.starts_with("probe")),
        "{warnings:?}"
    );
    assert!(e.state().probe.is_none());
    // Cleared by an empty z.
    e.set_probe(&vec![0.2; latent]).unwrap();
    assert!(e.state().probe.is_some());
    e.set_probe(&[]).unwrap();
    assert!(e.state().probe.is_none() && e.settings().probe.is_empty());
    // A probe carried to a model whose latent space does not fit it is dropped quietly.
    e.set_probe(&vec![0.2; latent]).unwrap();
    let mut other = e.settings().clone();
    other.model = "planar2".into();
    other.solver = SolverKind::Analytic;
    other.target = vec![1.0, 0.8];
    assert!(e.apply(other).is_empty());
    assert!(e.settings().probe.is_empty());
}

#[test]
fn the_readouts_say_what_they_count() {
    let mut e = engine();
    let s = e.state();
    assert!(
        s.cost_definition.starts_with("J = "),
        "{}",
        s.cost_definition
    );
    assert_eq!(s.readout_notes.cost, s.cost_definition);
    let mut next = e.settings().clone();
    next.model = "planar2".into();
    next.solver = SolverKind::Analytic;
    next.target = vec![1.0, 0.8];
    assert!(e.apply(next).is_empty());
    assert_eq!(e.state().readouts.iterations, "— (closed form)");
}

#[test]
fn the_model_card_carries_the_files_mu_nu_and_the_command_for_this_view() {
    let mut e = engine();
    assert!(
        loink_web::model_card::card(&e).is_none(),
        "no card without a model"
    );
    let json = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../web/models/planar3-h28w.json"
    ))
    .expect("the default model file");
    e.load_model("planar3-h28w", &json).expect("loads");
    let mut next = e.settings().clone();
    next.model = "planar3-h28w".into();
    next.solver = SolverKind::LoinkRefine;
    next.target = vec![0.5, 0.4];
    next.feedback = 1;
    next.refine = 4;
    assert!(e.apply(next).is_empty());
    let card = loink_web::model_card::card(&e).expect("a card");
    let row = |label: &str| {
        card.rows
            .iter()
            .find(|(l, _)| l.starts_with(label))
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    assert_eq!(row("μ"), "0.05");
    assert_eq!(row("ν"), "20");
    assert!(row("architecture").contains("[28, 28, 28, 28]"));
    assert!(row("trained by").starts_with("loink train --robot planar3"));
    assert!(row("within 1 %").contains("held-out targets"));
    assert_eq!(
        card.command,
        "printf 'x,y\\n0.5,0.4\\n' > T.csv && loink eval --model web/models/planar3-h28w.json --feedback 1 --refine 4 --targets T.csv --out R.csv"
    );
    assert!(!card.reproduces.is_empty() && !card.not_reproduced.is_empty());
}

#[test]
fn a_planar_model_file_goes_into_its_trained_slot_and_the_view_takes_it() {
    let mut e = engine();
    let json = untrained_json("planar3");
    let name = e.use_trained(&json).expect("a planar3 file loads");
    assert_eq!(name, "trained-planar3");
    assert!(e.loaded().contains(&"trained-planar3"));
    let mut next = e.settings().clone();
    next.model = name.into();
    next.solver = SolverKind::Loink;
    assert!(
        e.apply(next).is_empty(),
        "the slot is a model a view opens on"
    );
    let s = e.state();
    assert_eq!(s.model, "trained-planar3");
    assert_eq!(s.problem, "planar3");
    assert!(s.learned && s.controls.contains(&"train"));
    // A link naming the slot parses; its weights are not in the link.
    let parsed = parse_hash(&format_hash(e.settings()));
    assert_eq!(parsed.settings.model, "trained-planar3");
}

#[test]
fn a_trained_slot_refuses_other_problems_and_broken_files_and_changes_nothing() {
    let mut e = engine();
    let before = e.loaded();
    let climber = untrained_json("climber");
    let err = e.use_trained(&climber).unwrap_err();
    assert!(err.contains("planar2, planar3 and planar4"), "{err}");
    for bad in ["", "{", "null", "{\"format\":\"loink-model\"}"] {
        assert!(e.use_trained(bad).is_err(), "{bad:?} accepted");
    }
    assert_eq!(e.loaded(), before);
    assert!(catalog::lookup("trained-planar2").is_some());
    assert!(
        !catalog::names().contains("trained-"),
        "menus and errors list shipped models"
    );
}

#[test]
fn a_pose_view_opens_converged_with_the_solver_its_card_names_unless_the_link_names_one() {
    for name in ["panda-pose", "panda-axis"] {
        let opened = parse_hash(&format!("#model={name}"));
        assert!(opened.warnings.is_empty(), "{:?}", opened.warnings);
        assert_eq!(opened.settings.solver, SolverKind::LoinkRefine, "{name}");
        let named = parse_hash(&format!("#model={name}&solver=loink"));
        assert_eq!(
            named.settings.solver,
            SolverKind::Loink,
            "{name}: the link wins"
        );

        let json = std::fs::read_to_string(format!(
            "{}/../../web/models/{name}.json",
            env!("CARGO_MANIFEST_DIR")
        ))
        .expect("the model ships");
        let mut e = engine();
        e.load_model(name, &json).expect("loads");
        assert!(e.apply(opened.settings).is_empty());
        let s = e.state();
        assert_eq!(s.solver, "loink-refine", "{name}");
        assert_eq!(s.status, "converged", "{name}: residual {}", s.residual);
    }
    // A view whose card names none keeps the page's default.
    assert_eq!(
        parse_hash("#model=panda").settings.solver,
        Settings::default().solver
    );
}
