//! The procedure catalogue, walked whole and checked against hand-worked odds.
#![allow(clippy::unwrap_used)]

use acw_core::catalogue::CatalogueError;
use acw_hardtack::catalogue::catalogue;

#[test]
fn every_procedure_rolls_as_its_odds_say() {
    let c = catalogue();
    assert_eq!(c.entries().len(), 35);
    c.check_every_entry(acw_core::testing::DEFAULT_SAMPLES)
        .unwrap();
}

#[test]
fn odds_by_hand_through_the_catalogue() {
    // A D8 company, LV 2, TL 2: the die must beat 4. 5-8 pass (1/2); 1-2 are half of 4 or less and drop
    // two levels (1/4); 3-4 drop one (1/4).
    let t = catalogue()
        .build("confidence-test", "quality=d8 lv=2 tl=2")
        .unwrap()
        .table();
    assert!((t.p("passed") - 1.0 / 2.0).abs() < 1e-12);
    assert!((t.p("failed, losing one level") - 1.0 / 4.0).abs() < 1e-12);
    assert!((t.p("failed badly, losing two levels") - 1.0 / 4.0).abs() < 1e-12);
    // The same test with "less than half": only a 1 (2 < 4) drops two levels.
    let t = catalogue()
        .build(
            "confidence-test",
            "quality=d8 lv=2 tl=2 two_level=less-than-half",
        )
        .unwrap()
        .table();
    assert!((t.p("failed badly, losing two levels") - 1.0 / 8.0).abs() < 1e-12);
    // Quiet Mutiny, a Veteran (D10) unit under LV 2: 7-10 reach 9, 2/5; a Green unit never tests.
    let t = catalogue().build("quiet-mutiny", "lv=2").unwrap().table();
    assert!((t.p("Shaken") - 2.0 / 5.0).abs() < 1e-12);
    let t = catalogue()
        .build("quiet-mutiny", "unit_quality=green")
        .unwrap()
        .table();
    assert!((t.p("no effect") - 1.0).abs() < 1e-12);
    // A struck horse: 1-2 dead, 3-5 wounded, 6 unhurt.
    let t = catalogue().build("horse-status", "").unwrap().table();
    assert!((t.p("the horse is dead") - 1.0 / 3.0).abs() < 1e-12);
    assert!((t.p("the horse is wounded") - 1.0 / 2.0).abs() < 1e-12);
}

#[test]
fn bad_parameters_are_refused() {
    assert!(matches!(
        catalogue().build("reaction-test", "lv=4"),
        Err(CatalogueError::BadValue { .. })
    ));
    assert!(matches!(
        catalogue().build("reaction-test", "quality=d20"),
        Err(CatalogueError::BadValue { .. })
    ));
    assert!(matches!(
        catalogue().build("combined-melee", "companies=1"),
        Err(CatalogueError::BadValue { .. })
    ));
    assert!(matches!(
        catalogue().build("volley", "sharpness=3"),
        Err(CatalogueError::UnknownKey { .. })
    ));
}
