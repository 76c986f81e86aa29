//! The procedure catalogue and options by name, checked against hand-worked odds.
#![allow(clippy::unwrap_used)]

use acw_core::Side;
use acw_core::catalogue::{CatalogueError, OptionError, OptionsByName};
use acw_grid::catalogue::catalogue;
use acw_grid::options::{FirstTurnTie, FractionMode, Options};

#[test]
fn every_procedure_rolls_as_its_odds_say() {
    let c = catalogue();
    assert_eq!(c.entries().len(), 12);
    c.check_every_entry(acw_core::testing::DEFAULT_SAMPLES)
        .unwrap();
}

#[test]
fn a_whole_combat_by_hand() {
    // A rolls one die against B, who rolls none: a 5+ (1/3) puts one hit on B, who took more and tests
    // unmodified: steady 1/6, recoiled 1/3, defeated 1/2. No hit (2/3): nobody tests.
    let t = catalogue()
        .build("combat", "a_dice=1 b_dice=0")
        .unwrap()
        .table();
    assert!((t.p("A takes 0, B takes 0") - 2.0 / 3.0).abs() < 1e-12);
    assert!((t.p("A takes 0, B takes 1; B tests: defeated") - 1.0 / 6.0).abs() < 1e-12);
    assert!((t.p("A takes 0, B takes 1; B tests: steady") - 1.0 / 18.0).abs() < 1e-12);
    // Both command rolls: 5/6 · 4/6.
    let t = catalogue().build("command-check", "").unwrap().table();
    assert!((t.p("moves") - 5.0 / 9.0).abs() < 1e-12);
    // Three hits halved with a die for the odd half: 1, or 2 on a 4-6.
    let t = catalogue()
        .build("cover-halving", "hits=3")
        .unwrap()
        .table();
    assert!((t.p("2") - 0.5).abs() < 1e-12);
    assert!(matches!(
        catalogue().build("unit-morale", "normal=false elite=false"),
        Err(CatalogueError::Refused { .. })
    ));
    assert!(matches!(
        catalogue().build("skirmish", "dice=4"),
        Err(CatalogueError::BadValue { .. })
    ));
}

#[test]
fn options_by_name() {
    let list = Options::options();
    assert_eq!(list.len(), 45);
    let mut o = Options::default();
    o.set_pair("fractions=dice-for-fraction").unwrap();
    o.set_pair("first_turn_tie=union-first").unwrap();
    o.set_pair("initiative_bonus=confederate").unwrap();
    assert_eq!(o.fractions, FractionMode::DiceForFraction);
    assert_eq!(o.first_turn_tie, FirstTurnTie::ScenarioFirst(Side::Union));
    assert_eq!(o.initiative_bonus, Some(Side::Confederate));
    let before = o.clone();
    assert!(matches!(
        o.set_pair("scale=4"),
        Err(OptionError::Unknown { .. })
    ));
    assert!(matches!(
        o.set_pair("fractions=halves"),
        Err(OptionError::BadValue { .. })
    ));
    assert_eq!(o, before);
}

#[test]
fn luck_of_a_written_log() {
    use acw_core::luck::luck_of;
    use acw_grid::game::{Event, FoughtSide};
    use acw_grid::pool::HitPool;
    use acw_grid::sequence::{Initiative, InitiativeOutcome, TieBreak};
    use acw_grid::tables::MoraleResult;
    let one_die = HitPool::uniform(1, 0).unwrap();
    let log = vec![
        // Initiative: the Union's 6 scores 11/12, the Confederates' 1 scores 1/12.
        Event::Initiative {
            faces: vec![6, 1],
            procedure: Initiative {
                bonus: None,
                tie: TieBreak::KeepLastOrder,
            },
            outcome: InitiativeOutcome::Chooses(Side::Union),
        },
        // One die each: the Union hits (1 - 1/3 + 1/6 = 5/6), the Confederates miss ((2/3)/2 = 1/3).
        Event::Fought {
            sides: vec![
                FoughtSide {
                    side: Side::Union,
                    units: vec![("1st Brigade".into(), 0)],
                    pool: one_die,
                    scored: 1,
                },
                FoughtSide {
                    side: Side::Confederate,
                    units: vec![("Texas Brigade".into(), 1)],
                    pool: one_die,
                    scored: 0,
                },
            ],
            tester: Some(Side::Confederate),
        },
        // Normal stands defeated, the worst they can do (1/2): 1/4.
        Event::Morale {
            unit: "Texas Brigade".into(),
            classes: [false, true, false],
            face: 1,
            result: MoraleResult::Defeated,
        },
        // A unit never seen in a combat: left out.
        Event::Morale {
            unit: "Unknown".into(),
            classes: [false, true, false],
            face: 6,
            result: MoraleResult::Steady,
        },
    ];
    let luck = luck_of(&log);
    assert_eq!(luck.union.rolls, 2);
    assert_eq!(luck.confederate.rolls, 3);
    assert!((luck.union.index - 7.0 / 8.0).abs() < 1e-12);
    assert!((luck.confederate.index - 2.0 / 9.0).abs() < 1e-12);
}
