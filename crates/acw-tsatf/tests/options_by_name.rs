//! Every option settable by name, refusals typed and nothing changed by them.
#![allow(clippy::unwrap_used)]

use acw_core::catalogue::{OptionError, OptionsByName};
use acw_tsatf::options::{FireSystem, Options, WoundPolicy};

#[test]
fn options_by_name() {
    let list = Options::options();
    let fire = list.iter().find(|o| o.name == "fire_system").unwrap();
    assert_eq!(fire.default, "mass-fire");
    assert_eq!(fire.kind.to_string(), "one of mass-fire, type-firing");
    let mut o = Options::default();
    o.set_pair("fire_system=type-firing").unwrap();
    o.set_pair("wound_policy=campaign").unwrap();
    o.set_pair("turn_limit=6").unwrap();
    o.set_pair("leader_radius=none").unwrap();
    assert_eq!(o.fire_system, FireSystem::TypeFiring);
    assert_eq!(o.wound_policy, WoundPolicy::Campaign);
    assert_eq!(o.turn_limit, Some(6));
    assert_eq!(o.leader_radius, None);
    let before = o.clone();
    assert!(matches!(
        o.set_pair("frontal_sector_half_angle=190"),
        Err(OptionError::Refused { .. })
    ));
    assert!(matches!(
        o.set_pair("split_cavalry_dice=none"),
        Err(OptionError::Unknown { .. })
    ));
    assert_eq!(o, before);
}

#[test]
fn catalogued_procedures_roll_as_their_odds_say() {
    use acw_tsatf::catalogue::catalogue;
    use acw_tsatf::tables::{FireRow, Quality, TypeFireRow};
    use strum::IntoEnumIterator;
    let c = catalogue();
    assert_eq!(c.entries().len(), 17);
    c.check_every_entry(acw_core::testing::DEFAULT_SAMPLES)
        .unwrap();
    // A sniper rifle's D6: 5-6 kills, 3-4 wounds, 1/3 each. One card a side in a per-unit deck: either
    // first, 1/2. A train at full speed, 4D6: 24 once in 1296.
    let t = c
        .build("personal-shot", "weapon=sniper-rifle")
        .unwrap()
        .table();
    assert!((t.p("killed") - 1.0 / 3.0).abs() < 1e-12);
    assert!((t.p("wounded") - 1.0 / 3.0).abs() < 1e-12);
    let t = c
        .build("card-order", "union=1 confederate=1")
        .unwrap()
        .table();
    assert!((t.p("UC") - 1.0 / 2.0).abs() < 1e-12);
    let t = c
        .build("vehicle-move", "mover=train-full-speed")
        .unwrap()
        .table();
    assert!((t.p("24") - 1.0 / 1296.0).abs() < 1e-12);
    // Every row and class can be named: the last of each list builds.
    assert_eq!(FireRow::iter().count(), 11);
    assert_eq!(TypeFireRow::iter().count(), 7);
    assert_eq!(Quality::iter().count(), 5);
    c.build("mass-fire", "row=gatling class=iv").unwrap();
    c.build("type-fire", "row=canister-gatling").unwrap();
    // 2D6 at most 7: 21 of 36. 1D6 at most 4 with +1 (worse): at most 3, 1/2.
    let t = c.build("morale-test", "number=7").unwrap().table();
    assert!((t.p("passes") - 21.0 / 36.0).abs() < 1e-12);
    let t = c
        .build("close-test", "score=4 modifier=+1")
        .unwrap()
        .table();
    assert!((t.p("passes") - 0.5).abs() < 1e-12);
    assert!(c.build("stragglers", "charging=10 starting=5").is_err());
}
