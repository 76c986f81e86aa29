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
    assert_eq!(c.entries().len(), 21);
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

/// The chained procedures by name, hand-checked.
#[test]
fn whole_melee_volley_and_deck_card_by_name() {
    use acw_tsatf::catalogue::catalogue;
    let c = catalogue();
    // TSATF-MEL-15, TSATF-MEL-17: one private against one, the attacker +1. A bout: the attacker's D6 + 1
    // beats the defender's D6 in 21 of 36, loses in 10, ties in 5; any loss takes the loser out (wounds count
    // as kills) and a tie is fought again next round, so the attackers win 21/31.
    let t = c
        .build(
            "melee",
            "attacker_cadre=0 attacker_others=1 defender_cadre=0 defender_others=1 attacker_modifier=1",
        )
        .unwrap()
        .table();
    assert!((t.p("the attackers win with 1 figures still fighting") - 21.0 / 31.0).abs() < 1e-9);
    assert!((t.p("the defenders win with 1 figures still fighting") - 10.0 / 31.0).abs() < 1e-9);
    // TSATF-FIR-10, TSATF-FIR-14: ten Average muskets at Class II score 1 hit (5/6) or 2 (1/6); a heart or a
    // diamond kills (wounds count as kills), 1/2 a card: nobody killed 5/6 x 1/2 + 1/6 x 1/4 = 11/24.
    let t = c
        .build("volley", "row=average-musket class=ii figures=10")
        .unwrap()
        .table();
    assert!((t.p("0 killed, 0 wounded") - 11.0 / 24.0).abs() < 1e-12);
    assert!((t.p("2 killed, 0 wounded") - 1.0 / 24.0).abs() < 1e-12);
    // In a campaign game the diamonds wound: one hit kills 1/4 and wounds 1/4.
    let t = c
        .build(
            "volley",
            "row=average-musket class=ii figures=10 wounds=campaign",
        )
        .unwrap()
        .table();
    assert!((t.p("1 killed, 1 wounded") - 1.0 / 6.0 * 2.0 / 16.0).abs() < 1e-12);
    // TSATF-FIR-15: every black card drawn leaves the 26 red: hearts 2-10 kill an enlisted man, 9 of 26.
    let t = c.build("deck-hit-card", "drawn_misses=26").unwrap().table();
    assert!((t.p("an enlisted man: killed") - 9.0 / 26.0).abs() < 1e-12);
    assert!(t.p("an enlisted man: missed") == 0.0);
    assert!(c.build("deck-hit-card", "drawn_killed_cadre=2").is_err());
    assert!(
        c.build("melee", "attacker_cadre=0 attacker_others=0")
            .is_err()
    );
    // Type Firing with its cards builds by name too.
    c.build("type-volley", "row=veteran class=iii dice=6 wounds=misses")
        .unwrap();
}
