//! A session trains, measures and exports a model file the inference crate loads; bad settings
//! are refused with their name; a fixed step count repeats bit for bit.

use loink::surrogate::Loink;
use loink_fit::session::{Session, SessionError, SessionSettings};

fn planar2(steps: usize) -> SessionSettings {
    SessionSettings {
        problem: "planar2".into(),
        steps: Some(steps),
        samples: 20_000,
        batch: 256,
        ..SessionSettings::default()
    }
}

fn run(settings: SessionSettings) -> Session {
    let steps = settings.steps.expect("a fixed step count");
    let mut session = Session::new(settings).expect("valid settings");
    for k in 0..steps {
        session.step(k as f64 / steps as f64).expect("finite loss");
    }
    session
}

#[test]
fn planar2_learns_and_exports_a_model_the_solver_loads() {
    let fresh = Session::new(planar2(1)).unwrap().measure().unwrap();
    let mut session = run(planar2(1500));
    let trained = session.measure().unwrap();
    assert!(
        trained.ee_median_m < 0.2 * fresh.ee_median_m && trained.ee_median_m < 0.02,
        "one-shot error {} m after training, {} m before",
        trained.ee_median_m,
        fresh.ee_median_m
    );
    assert!(
        trained.within_1pct >= 0.9,
        "within 1 %: {}",
        trained.within_1pct
    );
    let json = session.model_json(12.0).unwrap();
    let model = Loink::from_json(&json).expect("the exported file loads");
    assert_eq!(model.problem().name(), "planar2");
    let file = model.model().file();
    assert_eq!(file.about.name, "trained-planar2");
    assert!(
        file.about.command.contains("steps: 1500"),
        "{}",
        file.about.command
    );
    assert_eq!(file.metrics["steps"], 1500.0);
    // The file's check is the measurement of these weights just taken.
    assert_eq!(file.metrics["ee_error_median_m"], trained.ee_median_m);
    assert_eq!(file.metrics["within_1pct"], trained.within_1pct);
}

#[test]
fn a_fixed_step_count_repeats_bit_for_bit() {
    let a = run(planar2(40)).model_json(1.0).unwrap();
    let b = run(planar2(40)).model_json(2.0).unwrap();
    let strip = |s: &str| s.replace("in 1 s", "").replace("in 2 s", "");
    assert_eq!(strip(&a), strip(&b));
}

#[test]
fn bad_settings_are_refused_by_name() {
    let refused = |settings: SessionSettings| match Session::new(settings) {
        Err(SessionError::Setting { name, .. }) => name,
        Err(e) => panic!("refused otherwise: {e}"),
        Ok(_) => panic!("accepted"),
    };
    let d = SessionSettings::default;
    assert_eq!(refused(SessionSettings { width: 0, ..d() }), "width");
    assert_eq!(
        refused(SessionSettings {
            mu: f64::NAN,
            ..d()
        }),
        "mu"
    );
    assert_eq!(refused(SessionSettings { mu: 2.0, ..d() }), "mu");
    assert_eq!(
        refused(SessionSettings {
            seconds: f64::INFINITY,
            ..d()
        }),
        "seconds"
    );
    assert_eq!(
        refused(SessionSettings {
            problem: "panda".into(),
            ..d()
        }),
        "problem"
    );
    assert_eq!(
        refused(SessionSettings {
            cost: "limits=x".into(),
            ..d()
        }),
        "cost"
    );
    assert_eq!(
        refused(SessionSettings {
            steps: Some(0),
            ..d()
        }),
        "steps"
    );
    assert_eq!(refused(SessionSettings { batch: 0, ..d() }), "batch");
    let unknown = SessionSettings::check_keys(["problem", "colour"])
        .unwrap_err()
        .to_string();
    assert!(
        unknown.contains("'colour'") && unknown.contains("seconds"),
        "{unknown}"
    );
    assert!(SessionSettings::check_keys(SessionSettings::KEYS).is_ok());
    let text = Session::new(SessionSettings { width: 0, ..d() })
        .err()
        .unwrap()
        .to_string();
    assert!(
        text.contains("'width'") && text.contains("1 to 128"),
        "{text}"
    );
}
