//! Hostile model files, beyond the per-field corruptions of `artifact_load.rs`:
//! empty files, numbers JSON cannot hold (`1e999`, `null`), huge arrays under the size cap,
//! sizes that would overflow, deep nesting in every container, unknown versions, and a seeded
//! byte-mutation sweep. Every file gets a typed [`ArtifactError`] (never a panic), and a rejected
//! file leaves an already loaded solver answering exactly as before.

use loink::artifact::{
    load_model, load_model_bytes, parse_model, random_model, save_model, ArtifactError, ModelFile,
    MAX_MODEL_BYTES,
};
use loink::report::Status;
use loink::surrogate::Loink;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn model() -> ModelFile {
    random_model("planar3", 2, &[8, 8], 0.1, 4.0, 11).unwrap()
}

fn text() -> String {
    save_model(&model())
}

/// Replaces the first occurrence of `from` (which must exist) in the saved model.
fn edit(from: &str, to: &str) -> String {
    let t = text();
    assert!(t.contains(from), "{from} not in the model text");
    t.replacen(from, to, 1)
}

#[test]
fn empty_and_blank_files_are_truncated() {
    for empty in ["", " ", "\n\n", "\u{feff}"] {
        let err = load_model(empty).unwrap_err();
        assert!(
            matches!(err, ArtifactError::Truncated(_) | ArtifactError::Parse(_)),
            "{empty:?}: {err}"
        );
    }
    assert!(matches!(load_model(""), Err(ArtifactError::Truncated(_))));
    assert!(matches!(
        load_model_bytes(b""),
        Err(ArtifactError::Truncated(_))
    ));
}

#[test]
fn not_json_is_a_parse_error() {
    for junk in [
        "<html><body>404</body></html>",
        "model = 1",
        "{format: loink}",
        "[1, 2,]",
        "NaN",
    ] {
        let err = load_model(junk).unwrap_err();
        assert!(matches!(err, ArtifactError::Parse(_)), "{junk:?}: {err}");
    }
    let mut bytes = text().into_bytes();
    bytes[10] = 0xc0; // an invalid UTF-8 lead byte
    assert!(matches!(
        load_model_bytes(&bytes),
        Err(ArtifactError::NotUtf8(_))
    ));
}

#[test]
fn numbers_json_cannot_hold_are_rejected() {
    // The random model's first orthogonal matrix starts with a negative or positive entry; find
    // the first number after "r": and replace it.
    let t = text();
    let at = t.find("\"r\": [").unwrap();
    let start = at
        + t[at..]
            .find(|c: char| c == '-' || c.is_ascii_digit())
            .unwrap();
    let end = start + t[start..].find([',', '\n']).unwrap();
    for hostile in [
        "1e999",
        "-1e999",
        "null",
        "\"NaN\"",
        "Infinity",
        "NaN",
        "1e-999999",
    ] {
        let file = format!("{}{hostile}{}", &t[..start], &t[end..]);
        let result = load_model(&file);
        match hostile {
            // Underflows to 0: parses, then the orthogonality check names the matrix.
            "1e-999999" => assert!(
                matches!(&result, Err(ArtifactError::NotOrthogonal { path, .. }) if path == "bilipnet.orthogonal[0].r"),
                "{hostile}: {result:?}"
            ),
            // serde_json refuses out-of-range numbers and null-for-f64 at parse time; if it ever
            // parsed 1e999 to ∞ the finiteness check would name the entry instead.
            _ => assert!(
                matches!(
                    &result,
                    Err(ArtifactError::Parse(_)) | Err(ArtifactError::NonFinite { .. })
                ),
                "{hostile}: {result:?}"
            ),
        }
    }
    // Non-finite numbers that *did* reach the file (the writer emits null for them).
    let mut file = model();
    file.bilipnet.monotone[0].s[0][0] = f64::INFINITY;
    assert!(matches!(
        load_model(&save_model(&file)),
        Err(ArtifactError::Parse(_))
    ));
    let mut file = model();
    file.metrics.insert("gap".into(), f64::NAN);
    assert!(load_model(&save_model(&file)).is_err());
}

#[test]
fn unknown_versions_and_formats_are_named() {
    for (version, expect_version_error) in [("0", true), ("3", true), ("4294967295", true)] {
        let err =
            load_model(&edit("\"version\": 2", &format!("\"version\": {version}"))).unwrap_err();
        assert_eq!(
            matches!(err, ArtifactError::Version { .. }),
            expect_version_error,
            "version {version}: {err}"
        );
    }
    for version in ["-1", "1.5", "4294967296", "\"1\"", "null"] {
        let err =
            load_model(&edit("\"version\": 2", &format!("\"version\": {version}"))).unwrap_err();
        assert!(
            matches!(err, ArtifactError::Parse(_)),
            "version {version}: {err}"
        );
    }
    let err = load_model(&edit("\"format\": \"loink-model\"", "\"format\": \"onnx\"")).unwrap_err();
    assert!(matches!(err, ArtifactError::Format { .. }), "{err}");
}

#[test]
fn huge_arrays_under_the_cap_are_shape_errors() {
    // A 7 MB row where a 3-entry row belongs: under the byte cap, so it parses, then the shape
    // check names the field.
    let row = vec!["0.5"; 1_000_000].join(",");
    let file = edit("\"b\": [", &format!("\"b\": [{row},"));
    assert!(file.len() < MAX_MODEL_BYTES);
    let err = load_model(&file).unwrap_err();
    assert!(
        matches!(&err, ArtifactError::Shape { path, .. } if path == "bilipnet.orthogonal[0].b"),
        "{err}"
    );
    // Just over the cap: refused before parsing.
    let big = format!("{}{}", text(), " ".repeat(MAX_MODEL_BYTES));
    assert!(matches!(
        load_model(&big),
        Err(ArtifactError::TooLarge { .. })
    ));
}

#[test]
fn sizes_that_would_allocate_or_overflow_are_refused() {
    for (field, value) in [
        ("hidden", vec![usize::MAX, 1]),
        ("hidden", vec![1 << 40]),
        ("hidden", vec![]),
        ("hidden", vec![0, 8]),
        ("head_hidden", vec![1 << 40]),
        ("head_hidden", vec![0]),
        ("head_hidden", vec![1; 100]),
    ] {
        let mut file = model();
        match field {
            "hidden" => file.hyper.hidden = value.clone(),
            _ => file.hyper.head_hidden = value.clone(),
        }
        let err = load_model(&save_model(&file)).unwrap_err();
        assert!(
            matches!(&err, ArtifactError::OutOfRange { path, .. } if path == &format!("hyper.{field}")),
            "{field} = {value:?}: {err}"
        );
    }
    for depth in [0, 65, usize::MAX] {
        let mut file = model();
        file.hyper.depth = depth;
        let err = load_model(&save_model(&file)).unwrap_err();
        assert!(
            matches!(&err, ArtifactError::OutOfRange { path, .. } if path == "hyper.depth"),
            "depth {depth}: {err}"
        );
    }
    let mut file = model();
    file.problem.link_lengths = vec![0.1; 100_000];
    assert!(matches!(
        load_model(&save_model(&file)),
        Err(ArtifactError::Problem(_))
    ));
}

#[test]
fn deep_nesting_anywhere_is_an_error_not_a_stack_overflow() {
    let open = "[".repeat(100_000);
    let close = "]".repeat(100_000);
    let deep = format!("{open}{close}");
    for field in [
        "\"problem\": {",
        "\"r\": [",
        "\"metrics\": {",
        "\"hyper\": {",
    ] {
        let file = edit(field, &format!("{field}\"deep\": {deep}, "));
        match parse_model(&file) {
            // Inside an object it is an unknown field: skipped without recursion, the rest of
            // the model is exactly the original.
            Ok(parsed) => assert!(parsed == model() && field.ends_with('{'), "{field}"),
            // Inside an array it is not JSON.
            Err(err) => assert!(
                matches!(err, ArtifactError::Parse(_) | ArtifactError::TooDeep(_)),
                "{field}: {err}"
            ),
        }
    }
    let objects = "{\"a\":".repeat(100_000);
    let err = load_model(&format!(
        "{{\"format\":\"loink-model\",\"version\":1,\"x\":{objects}"
    ))
    .unwrap_err();
    assert!(
        matches!(err, ArtifactError::Truncated(_) | ArtifactError::TooDeep(_)),
        "{err}"
    );
}

#[test]
fn broken_orthogonality_and_certificate_by_a_hair() {
    // Just beyond the tolerances: a scaled R and a scaled S.
    let mut file = model();
    for row in &mut file.bilipnet.orthogonal[1].r {
        for v in row {
            *v *= 1.0 + 1e-4;
        }
    }
    assert!(matches!(
        load_model(&save_model(&file)),
        Err(ArtifactError::NotOrthogonal { path, .. }) if path == "bilipnet.orthogonal[1].r"
    ));
    let mut file = model();
    for row in &mut file.bilipnet.monotone[1].s {
        for v in row {
            *v *= 3.0;
        }
    }
    assert!(matches!(
        load_model(&save_model(&file)),
        Err(ArtifactError::Certificate { path, .. }) if path == "bilipnet.monotone[1]"
    ));
    // Claimed bounds the layers do not imply.
    let mut file = model();
    file.hyper.mu *= 2.0;
    assert!(matches!(
        load_model(&save_model(&file)),
        Err(ArtifactError::Inconsistent { .. })
    ));
}

/// A seeded sweep of byte mutations (flip, delete, insert, duplicate a span) of a valid file:
/// loading never panics, every error has a message, and whatever does load still solves without
/// panicking and with an honest status. The cargo-fuzz target `artifact` does this open-ended.
#[test]
fn byte_mutations_never_panic() {
    let base = text().into_bytes();
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let mut loaded = 0;
    for _ in 0..1500 {
        let mut bytes = base.clone();
        for _ in 0..rng.random_range(1..4) {
            let at = rng.random_range(0..bytes.len());
            match rng.random_range(0..4) {
                0 => bytes[at] = rng.random(),
                1 => {
                    bytes.remove(at);
                }
                2 => bytes.insert(at, b"[]{}\",:0-e9.n"[rng.random_range(0..13)]),
                _ => {
                    let end = (at + rng.random_range(1..64)).min(bytes.len());
                    let span = bytes[at..end].to_vec();
                    bytes.splice(at..at, span);
                }
            }
        }
        match load_model_bytes(&bytes) {
            Err(e) => assert!(!e.to_string().is_empty()),
            Ok(model) => {
                loaded += 1;
                let solver = Loink::new(model);
                let s = solver.solve_cold(&[0.5, 0.4]);
                assert!(s.status() == Status::Invalid || s.q().iter().all(|v| v.is_finite()));
            }
        }
    }
    // Most mutations of digits still load (a changed weight or bias): the sweep reaches the solver.
    assert!(loaded > 10, "only {loaded} mutated files loaded");
}

#[test]
fn a_rejected_file_changes_nothing_for_the_loaded_solver() {
    let solver = Loink::from_json(&text()).unwrap();
    let mut state = solver.new_state();
    let before = solver.solve(&mut state, &[0.5, 0.4]);
    let state_before = state.clone();
    for bad in [
        "",
        "{",
        "null",
        &text()[..100],
        &edit("\"version\": 2", "\"version\": 9"),
    ] {
        assert!(Loink::from_json(bad).is_err());
    }
    assert_eq!(state, state_before);
    let mut fresh = solver.new_state();
    let again = solver.solve(&mut fresh, &[0.5, 0.4]);
    assert_eq!(again.q(), before.q());
}

/// A trained R is orthogonal only to f32 precision, and the loader accepts max |RᵀR − I| up to
/// 1e-5. The inverse must still be exact: before the orthogonal layers inverted by R⁻¹ instead
/// of Rᵀ, the shipped planar3 model round-tripped to 8.8e-7 while reporting convergence to 1e-10.
#[test]
fn nearly_orthogonal_layers_still_invert_exactly() {
    let mut file = model();
    for o in &mut file.bilipnet.orthogonal {
        for (i, row) in o.r.iter_mut().enumerate() {
            for v in row.iter_mut() {
                *v *= 1.0 + 1e-6 * (i as f64 + 1.0);
            }
        }
    }
    let loaded = load_model(&save_model(&file)).expect("within the orthogonality tolerance");
    let net = loaded.net();
    let options = loink::nn::InverseOptions::default();
    for t in [[0.3, -0.2, 0.0], [-0.9, 0.4, 1.5], [0.0, 0.0, -2.0]] {
        let inverse = net.inverse(&t, &options).unwrap();
        let back = net.forward(&inverse.x).unwrap();
        let error = loink::report::distance(&back, &t);
        assert!(inverse.converged, "{t:?}");
        assert!(error <= 1e-9, "{t:?}: round trip {error:e}");
    }
}
