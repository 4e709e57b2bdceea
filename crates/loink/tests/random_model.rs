//! `random_model` on every preset, the non-redundant planar2 included: latent dimension 0 (as
//! trained planar2 files have), a metric head with the one ignored output the loader expects,
//! and a file that loads and solves — not a confusing dense-layer shape error.

use loink::artifact::{load_model, random_model, save_model};
use loink::problem::registry::preset_names;
use loink::report::Status;
use loink::surrogate::Loink;

#[test]
fn planar2_has_no_redundancy_and_gets_latent_dimension_zero() {
    let file = random_model("planar2", 2, &[8, 8], 0.5, 2.0, 1).expect("planar2 builds");
    assert_eq!((file.hyper.task_dim, file.hyper.latent_dim), (2, 0));
    let last = file.metric_head.layers.last().expect("layers");
    assert_eq!(
        last.b.len(),
        1,
        "M is 0 × 0: one ignored output, as the loader expects"
    );
    let loink = Loink::new(load_model(&save_model(&file)).expect("the file loads"));
    assert_eq!(loink.latent_dim(), 0);
    let s = loink.solve_cold(&[1.2, 0.5]);
    assert_ne!(s.status(), Status::Invalid);
    assert!(s.residual().is_finite() && s.q().len() == 2);
}

#[test]
fn every_preset_builds_a_loadable_random_model() {
    for name in preset_names() {
        let file =
            random_model(name, 2, &[8, 8], 0.5, 2.0, 3).unwrap_or_else(|e| panic!("{name}: {e}"));
        load_model(&save_model(&file)).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    let err = random_model("planar9", 2, &[8], 0.5, 2.0, 3).unwrap_err();
    assert!(err.to_string().contains("planar9"), "{err}");
}
