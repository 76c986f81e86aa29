//! Input a caller controls never panics, hangs or loads into a game the rules cannot continue: each case here was
//! found loading or building a North game that then failed later, and is refused with its reason up front.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::BySide;
use acw_core::game::{Commander, Ruleset};
use acw_core::measure::{Heading, Inches, Point};
use acw_north::RuleViolation;
use acw_north::bots::{Attacker, Holder};
use acw_north::error::SetupError;
use acw_north::game::{North, State};
use acw_north::sequence::Step;
use acw_north::setup::{Placement, Scenario};
use common::*;

/// A game some way in, as a user would save it.
fn saved_midgame() -> serde_json::Value {
    let mut st = North.setup(&Scenario::default(), 4).unwrap();
    let (mut a, mut h) = (Attacker::new(4), Holder::new(4));
    let mut c = BySide::new(&mut a as &mut dyn Commander<North>, &mut h);
    let mut log = Vec::new();
    for _ in 0..40 {
        let side = North.to_order(&st).unwrap();
        let order = c[side].order(&North, &st, side);
        North.apply(&mut st, &order, &mut log).unwrap();
    }
    serde_json::to_value(&st).unwrap()
}

fn load(v: serde_json::Value) -> Result<State, String> {
    serde_json::from_value::<State>(v).map_err(|e| e.to_string())
}

#[test]
fn the_midgame_save_itself_loads() {
    assert!(load(saved_midgame()).is_ok());
}

#[test]
fn a_save_whose_dice_are_stuck_at_zero_is_refused() {
    // It used to load, and its first die never came back.
    let mut v = saved_midgame();
    v["rng"] = serde_json::json!({"s": [0, 0, 0, 0]});
    let e = load(v).unwrap_err();
    assert!(e.contains("all zeros"), "{e}");
}

#[test]
fn a_save_with_impossible_stands_is_refused() {
    // u32::MAX starting stands wrapped the victory sum and flipped the winner.
    let mut v = saved_midgame();
    v["battle"]["units"][0]["stands"]["original"] = serde_json::json!(4_294_967_295u64);
    assert!(load(v).is_err());
    let mut v = saved_midgame();
    v["battle"]["units"][0]["stands"]["original"] = serde_json::json!(9);
    let e = load(v).unwrap_err();
    assert!(e.contains("started with 9 stands"), "{e}");
}

#[test]
fn a_save_with_zones_setup_would_refuse_is_refused() {
    // It loaded, and a bot's order was refused 29 orders later.
    for (key, value) in [("depth", -1.0), ("deployment_depth", 30.0), ("width", 1e9)] {
        let mut v = saved_midgame();
        v["zones"][key] = serde_json::json!(value);
        let e = load(v).unwrap_err();
        assert!(e.contains("zones"), "{key} = {value}: {e}");
    }
}

#[test]
fn a_save_with_a_unit_off_the_table_is_refused() {
    let mut v = saved_midgame();
    v["field"]["places"][0]["centre"] = serde_json::json!({"x": -500.0, "y": 3.0});
    let e = load(v).unwrap_err();
    assert!(e.contains("does not fit on the table"), "{e}");
}

#[test]
fn huge_or_broken_base_sizes_are_refused() {
    // A finite but huge base passed validation and panicked inside the geometry during play.
    for depth in [1e300, 25.0, 0.0, -1.0, f64::NAN] {
        let mut s = Scenario::default();
        s.bases.limbered_depth = Inches(depth);
        assert!(North.setup(&s, 1).is_err(), "limbered depth {depth}");
    }
}

#[test]
fn a_placement_at_no_finite_place_is_refused() {
    // Such a unit used to be left out of the layout checks, and its save could not be loaded back.
    for centre in [Point::new(f64::NAN, 5.0), Point::new(30.0, f64::INFINITY)] {
        let s = Scenario {
            placements: vec![Placement {
                unit: "USA 1st Bde, Regt 1".into(),
                centre,
                facing: Heading::NORTH,
            }],
            ..Scenario::default()
        };
        match North.setup(&s, 1) {
            Err(SetupError::PlacementOutside(name)) => assert_eq!(name, "USA 1st Bde, Regt 1"),
            other => panic!("{centre:?}: {other:?}"),
        }
    }
}

#[test]
fn units_must_have_names_of_their_own() {
    // A placement found the first of two units of one name.
    let mut s = Scenario::default();
    let first = s.forces.armies.union.brigades[0].units[0].name.clone();
    s.forces.armies.union.brigades[0].units[1].name = first.clone();
    let e = North.setup(&s, 1).map(|_| ()).unwrap_err();
    assert_eq!(e, SetupError::DuplicateName(first.clone()));
    assert_eq!(
        e.to_string(),
        format!("two units are named {first:?}; every unit needs its own name")
    );
}

#[test]
fn a_heading_that_is_not_a_number_is_refused() {
    // Heading::degrees(NaN) used to become north, a legal move.
    assert!(Heading::degrees(f64::NAN).is_err());
    assert!(serde_json::from_str::<Heading>("1e999").is_err());
}

#[test]
fn refusals_name_what_is_wrong() {
    // "it is the Confederate phase, not the Confederate phase" came from standing a removed unit.
    let mut b = battle();
    let u = id(&b, "CSA 1st Bde, Regt 1");
    skip_to(&mut b, Step::Units).unwrap();
    wipe_unit(&mut b, u);
    assert_eq!(b.stand(u), Err(RuleViolation::NotInPlay(u)));
    let enemy = id(&b, "USA 1st Bde, Regt 1");
    assert_eq!(
        b.stand(enemy).unwrap_err().to_string(),
        "the Union side cannot act in the Confederate phase"
    );
}

/// Takes stands from `u` until it is removed.
fn wipe_unit(b: &mut acw_north::Battle, u: acw_north::UnitId) {
    while b.unit(u).unwrap().in_play() {
        morale_result(
            b,
            u,
            acw_north::tables::MoraleBand::Choice,
            Some(acw_north::morale::Choice::LoseStand),
            acw_north::morale::FallBackRoom::Clear,
            true,
        )
        .unwrap();
    }
}
