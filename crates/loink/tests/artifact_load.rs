//! Model files: exact save → load round trip, and every corruption rejected with its own error.

use loink::artifact::{
    load_model, load_model_bytes, parse_model, random_model, save_model, ArtifactError, ModelFile,
    MAX_MODEL_BYTES,
};

fn model() -> ModelFile {
    random_model("planar3", 3, &[16; 4], 0.1, 20.0, 42).expect("valid preset")
}

fn load(file: &ModelFile) -> Result<(), ArtifactError> {
    load_model(&save_model(file)).map(|_| ())
}

#[test]
fn save_then_load_is_exact() {
    for (robot, depth, hidden) in [("planar3", 3, vec![16; 4]), ("planar4", 2, vec![8, 16])] {
        let file = random_model(robot, depth, &hidden, 0.05, 20.0, 7).expect("valid");
        let text = save_model(&file);
        let loaded = load_model(&text).expect("valid model loads");
        assert_eq!(
            loaded.file(),
            &file,
            "every f64 must survive the round trip"
        );
        assert_eq!(save_model(loaded.file()), text);
        let from_bytes = load_model_bytes(text.as_bytes()).expect("valid bytes");
        assert_eq!(from_bytes.file(), &file);
    }
}

#[test]
fn random_model_is_reproducible() {
    assert_eq!(model(), model());
    assert_ne!(
        model(),
        random_model("planar3", 3, &[16; 4], 0.1, 20.0, 43).expect("valid")
    );
}

#[test]
fn wrong_shape_names_the_field() {
    let mut file = model();
    file.bilipnet.monotone[1].s[3].pop();
    let err = load(&file).unwrap_err();
    assert_eq!(
        err.to_string(),
        "bilipnet.monotone[1].s: row 3 has 2 entries, expected 3"
    );
    assert!(matches!(err, ArtifactError::Shape { .. }));

    let mut file = model();
    file.bilipnet.orthogonal.pop();
    assert!(
        matches!(load(&file), Err(ArtifactError::Shape { path, .. }) if path == "bilipnet.orthogonal")
    );

    let mut file = model();
    file.value_head.layers[0].b.push(0.0);
    assert!(
        matches!(load(&file), Err(ArtifactError::Shape { path, .. }) if path == "value_head.layers[0].b")
    );

    let mut file = model();
    file.bilipnet.monotone[0].v[1].push(vec![0.0; 16]);
    assert!(
        matches!(load(&file), Err(ArtifactError::Shape { path, .. }) if path == "bilipnet.monotone[0].v[1]")
    );
}

#[test]
fn nan_is_rejected_with_its_path() {
    // JSON has no NaN: a NaN is written as null and fails to parse; a huge exponent overflows.
    let mut file = model();
    file.bilipnet.orthogonal[2].b[1] = f64::NAN;
    assert!(matches!(load(&file), Err(ArtifactError::Parse(_))));
    let text = save_model(&model()).replacen("\"cost_scale\": 1.0", "\"cost_scale\": 1e999", 1);
    assert!(load_model(&text).is_err());
    // Validation itself also catches non-finite values when handed a ModelFile directly.
    let mut file = model();
    file.bilipnet.monotone[2].b_hidden[5] = f64::INFINITY;
    let err = loink::artifact::validate(file).unwrap_err();
    assert!(
        matches!(&err, ArtifactError::NonFinite { path, index, .. } if path == "bilipnet.monotone[2].b_hidden" && index == "[5]"),
        "{err}"
    );
}

#[test]
fn broken_orthogonality_is_rejected() {
    let mut file = model();
    file.bilipnet.orthogonal[1].r[0][0] += 1e-3;
    let err = load(&file).unwrap_err();
    assert!(
        matches!(&err, ArtifactError::NotOrthogonal { path, deviation, .. } if path == "bilipnet.orthogonal[1].r" && *deviation > 1e-4),
        "{err}"
    );
}

#[test]
fn failing_certificate_is_rejected() {
    let mut file = model();
    for row in &mut file.bilipnet.monotone[0].s {
        row.iter_mut().for_each(|v| *v *= 1.05);
    }
    let err = load(&file).unwrap_err();
    assert!(
        matches!(&err, ArtifactError::Certificate { path, .. } if path == "bilipnet.monotone[0]"),
        "{err}"
    );

    let mut file = model();
    file.bilipnet.monotone[2].v[0][0][0] += 0.5;
    assert!(matches!(
        load(&file),
        Err(ArtifactError::Certificate { .. })
    ));
}

#[test]
fn bounds_and_scales_are_checked() {
    let mut file = model();
    file.hyper.mu = file.hyper.nu * 2.0;
    assert!(matches!(load(&file), Err(ArtifactError::OutOfRange { path, .. }) if path == "hyper"));

    let mut file = model();
    file.hyper.nu *= 0.5;
    assert!(matches!(
        load(&file),
        Err(ArtifactError::Inconsistent { .. })
    ));

    let mut file = model();
    file.normalisation.x_scale[2] = 0.0;
    assert!(
        matches!(load(&file), Err(ArtifactError::OutOfRange { path, .. }) if path == "normalisation.x_scale[2]")
    );

    let mut file = model();
    file.bilipnet.monotone[1].gamma = -1.0;
    assert!(
        matches!(load(&file), Err(ArtifactError::OutOfRange { path, .. }) if path == "bilipnet.monotone[1]")
    );

    let mut file = model();
    file.metric_head.activation = "relu".into();
    assert!(matches!(load(&file), Err(ArtifactError::Activation { .. })));
}

#[test]
fn robot_and_cost_are_checked() {
    let mut file = model();
    file.problem.link_lengths[1] = -0.4;
    assert!(matches!(load(&file), Err(ArtifactError::Problem(_))));
    let mut file = model();
    file.problem.lower.pop();
    assert!(matches!(load(&file), Err(ArtifactError::Problem(_))));
    let mut file = model();
    file.cost.terms.clear();
    assert!(matches!(load(&file), Err(ArtifactError::Cost(_))));
    let mut file = model();
    file.hyper.latent_dim = 2;
    assert!(
        matches!(load(&file), Err(ArtifactError::OutOfRange { path, .. }) if path == "hyper.latent_dim")
    );
}

#[test]
fn header_errors_come_first() {
    let mut file = model();
    file.version = 3;
    assert_eq!(
        load(&file),
        Err(ArtifactError::Version {
            found: 3,
            supported: 2
        })
    );
    let mut file = model();
    file.format = "onnx".into();
    assert!(matches!(load(&file), Err(ArtifactError::Format { .. })));
}

#[test]
fn truncated_file_is_rejected() {
    let text = save_model(&model());
    for cut in [1, text.len() / 3, text.len() / 2, text.len() - 2] {
        let err = load_model(&text[..cut]).unwrap_err();
        assert!(
            matches!(err, ArtifactError::Truncated(_)),
            "cut at {cut}: {err}"
        );
    }
    assert!(matches!(
        load_model("{\"format\": 3}"),
        Err(ArtifactError::Parse(_))
    ));
    assert!(matches!(
        load_model("not json"),
        Err(ArtifactError::Parse(_))
    ));
    assert!(matches!(
        load_model_bytes(&[0xff, 0xfe, 0x00]),
        Err(ArtifactError::NotUtf8(_))
    ));
}

#[test]
fn huge_file_is_rejected_before_parsing() {
    let mut text = save_model(&model());
    text.push_str(&" ".repeat(MAX_MODEL_BYTES));
    assert!(matches!(
        load_model(&text),
        Err(ArtifactError::TooLarge { limit, .. }) if limit == MAX_MODEL_BYTES
    ));
    assert!(matches!(
        load_model_bytes(text.as_bytes()),
        Err(ArtifactError::TooLarge { .. })
    ));
}

#[test]
fn deeply_nested_input_errors_without_overflowing() {
    for depth in [200, 100_000, 1_000_000] {
        let open = "[".repeat(depth);
        let close = "]".repeat(depth);
        // A bare array is not a model: rejected before any descent.
        let result = parse_model(&format!("{open}{close}"));
        assert!(
            matches!(result, Err(ArtifactError::Parse(_))),
            "depth {depth}: {result:?}"
        );
        // Deep nesting where the schema expects numbers: a type error at the first level.
        let result = parse_model(&format!(
            "{{\"format\": \"loink-model\", \"version\": 1, \"metrics\": {{\"a\": {open}{close}}}}}"
        ));
        assert!(
            matches!(result, Err(ArtifactError::Parse(_))),
            "depth {depth}: {result:?}"
        );
        // Deep nesting in an unknown field: serde_json skips it without recursing (no stack
        // growth), then the missing fields are reported.
        let result = parse_model(&format!(
            "{{\"format\": \"loink-model\", \"version\": 1, \"extra\": {open}{close}}}"
        ));
        assert!(
            matches!(&result, Err(ArtifactError::Parse(m)) if m.contains("missing field")),
            "depth {depth}: {result:?}"
        );
        // Deep nesting inside a cost term: terms are read as flat structs (never buffered), so
        // the weight's first bracket is refused as the wrong type without descending.
        let result = parse_model(&format!(
            "{{\"format\": \"loink-model\", \"version\": 1, \"cost\": {{\"terms\": [{{\"weight\": {open}{close}, \"term\": \"effort\"}}]}}}}"
        ));
        assert!(
            matches!(&result, Err(ArtifactError::Parse(m)) if m.contains("invalid type")),
            "depth {depth}: {result:?}"
        );
        // Unclosed deep nesting is truncated input.
        let result = parse_model(&format!("{{\"format\": \"loink-model\", \"extra\": {open}"));
        assert!(
            matches!(result, Err(ArtifactError::Truncated(_))),
            "depth {depth}: {result:?}"
        );
    }
}

#[test]
fn cost_terms_keep_their_tagged_json_form() {
    use loink::cost::{CostSpec, Term, TermSpec};
    let spec = CostSpec {
        terms: vec![
            TermSpec::new(Term::JointLimit, 1.0),
            TermSpec::new(Term::CentreOfMass, 4.0),
            TermSpec::new(Term::Effort, 0.25),
        ],
    };
    let text = serde_json::to_string(&spec).unwrap();
    assert_eq!(
        text,
        r#"{"terms":[{"term":"joint_limit","weight":1.0},{"term":"centre_of_mass","weight":4.0},{"term":"effort","weight":0.25}]}"#
    );
    assert_eq!(serde_json::from_str::<CostSpec>(&text).unwrap(), spec);
    // Key order and unknown keys do not matter; the tag and the weight are required.
    let reordered: CostSpec =
        serde_json::from_str(r#"{"terms":[{"weight":2.0,"note":"x","term":"effort"}]}"#).unwrap();
    assert_eq!(reordered.terms, vec![TermSpec::new(Term::Effort, 2.0)]);
    for bad in [
        r#"{"terms":[{"term":"speed","weight":1.0}]}"#,
        r#"{"terms":[{"term":"effort"}]}"#,
        r#"{"terms":[{"weight":1.0}]}"#,
        r#"{"terms":[{"term":"effort","weight":"1"}]}"#,
    ] {
        assert!(serde_json::from_str::<CostSpec>(bad).is_err(), "{bad}");
    }
}
