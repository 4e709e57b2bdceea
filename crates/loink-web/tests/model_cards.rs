//! Every model of the page's catalog has a model card that says what of the paper its view
//! reproduces and what it does not: the model file's own words, never empty.
#![cfg(all(feature = "unswept", feature = "multi-chart"))]

use loink_web::catalog::MODELS;
use loink_web::engine::Engine;

#[test]
fn every_catalog_model_card_says_what_it_reproduces_and_what_it_does_not() {
    let mut e = Engine::new().unwrap();
    let mut carded = 0;
    // A regressor is a lesson's baseline, not a view of the page.
    for entry in MODELS
        .iter()
        .filter(|m| m.opens_a_view() || m.kind == "flow")
    {
        let text = std::fs::read_to_string(format!("../../{}", entry.file)).expect(entry.file);
        e.load_model(entry.name, &text)
            .unwrap_or_else(|why| panic!("{}: {why}", entry.name));
        if entry.kind == "flow" {
            continue; // a flow is its problem's baseline solver, not a view of its own
        }
        let mut next = e.settings().clone();
        next.model = entry.name.to_string();
        next.target.clear();
        e.apply(next);
        assert_eq!(e.settings().model, entry.name);
        let card =
            loink_web::model_card::card(&e).unwrap_or_else(|| panic!("{}: no card", entry.name));
        assert!(
            card.reproduces.trim().len() > 20,
            "{}: reproduces '{}'",
            entry.name,
            card.reproduces
        );
        assert!(
            card.not_reproduced.trim().len() > 20,
            "{}: does not '{}'",
            entry.name,
            card.not_reproduced
        );
        carded += 1;
    }
    assert!(carded >= 10, "{carded} cards");
}
