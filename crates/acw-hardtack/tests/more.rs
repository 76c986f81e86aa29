//! Sharpshooters, target priority, guns on the move, formations, and the remaining readings.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::dice::ScriptedDice;
use acw_core::{Resolve, Side};
use acw_hardtack::DieType::{D6, D8};
use acw_hardtack::fire::{Candidate, Cover, Sharpshot, target_priority};
use acw_hardtack::morale::{FiredOn, TestEvent, threat_level};
use acw_hardtack::options::{FiredOnTl, FortificationArmour};
use acw_hardtack::state::{Ammunition, CompanySpec, FireFacts, Formation, MoveOrder};
use acw_hardtack::tables::{ConfidenceLevel, FieldPiece, Motivation, tl};
use acw_hardtack::{Battle, Options, RuleViolation};
use common::two;

// HT-ACC-40, HT-FIR-24, HT-SG2-27: a Regular sharpshooter's band is 16": at 30" band 2, D6; he rolls D8 + D8.
// Two successes hit the figure he names: R 2, Q 5, D8 7; the chosen figure 3: armour 1, impact 4 (D8):
// killed; the target tests at 0 + 1 = 1 (8 passes). He must reload; a 1 on his quality die reveals him.
#[test]
fn sharpshooter() {
    let mut b = Battle::new(Options::default());
    let sharp = b
        .add_company(CompanySpec::new("Berdan's man", Side::Union, 1))
        .unwrap();
    let foe = b
        .add_company(CompanySpec::new("rebels", Side::Confederate, 8))
        .unwrap();
    b.activate(sharp).unwrap();
    let facts = FireFacts {
        distance: 30.0,
        ..FireFacts::default()
    };
    let mut dice = ScriptedDice::faces([2, 5, 7, 1, 4, 8]);
    let (rep, revealed) = b.sharpshoot(sharp, foe, facts, Some(3), &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    assert_eq!(rep.range, Some(D6));
    assert_eq!(rep.companies[0].killed, 1);
    assert!(!revealed);
    assert_eq!(
        b.company(foe).unwrap().figures()[3].condition,
        acw_hardtack::state::Condition::Dead
    );
    assert!(matches!(
        b.sharpshoot(sharp, foe, facts, None, &mut ScriptedDice::faces([])),
        Err(RuleViolation::CannotFire { .. })
    ));
    let odds = Sharpshot {
        quality: D8,
        range: D6,
    }
    .odds();
    assert!((odds.prob(|r| r.revealed) - 1.0 / 8.0).abs() < 1e-12);
    assert!(
        (odds.prob(|r| r.successes == 0) - (1.0 + 4.0 + 9.0 + 16.0 + 25.0 + 36.0) / 384.0).abs()
            < 1e-12
    );
}

// HT-SG2-11, HT-FIR-25: nearest band first; within a band the facing unit before one the firer could enfilade;
// then activated before unactivated, open before cover.
#[test]
fn target_priority_order() {
    let c = |band, enfilade, activated, in_cover| Candidate {
        band,
        enfilade,
        activated,
        in_cover,
    };
    let list = [
        c(2, false, true, false),
        c(1, true, true, false),
        c(1, false, false, true),
        c(1, false, true, false),
    ];
    assert_eq!(target_priority(&list), vec![3, 2, 1, 0]);
}

// HT-MOV-13, HT-MOV-14, HT-FRM-14: an unlimbered gun is pushed 4" by its crew (2" by one man); limbered it moves
// with the team at 10".
#[test]
fn guns_on_the_move() {
    let mut b = Battle::new(Options::default());
    let crew = b
        .add_company(CompanySpec::new("crew", Side::Union, 3))
        .unwrap();
    let gun = b
        .add_gun("Napoleon", FieldPiece::Napoleon12lb, false, crew)
        .unwrap();
    b.activate(crew).unwrap();
    let mv = |d| MoveOrder {
        distance: d,
        ..MoveOrder::default()
    };
    assert!(
        b.move_company(crew, mv(4.5), &mut ScriptedDice::faces([]))
            .is_err()
    );
    assert!(
        b.move_company(crew, mv(4.0), &mut ScriptedDice::faces([]))
            .unwrap()
    );
    b.limber(gun, true, 2.0).unwrap();
    b.end_turn().unwrap();
    b.activate(crew).unwrap();
    assert!(
        b.move_company(crew, mv(10.0), &mut ScriptedDice::faces([]))
            .unwrap()
    );
    assert!(matches!(b.load(gun, Ammunition::Shot), Ok(())));
}

// HT-FRM-01, HT-FRM-03, HT-FRM-04, HT-SEQ-09, HT-FRM-11: companies are in skirmish, line or column; one or two
// rows make a line, three a column; a Broken company cannot form; casualties leave a line a line.
#[test]
fn formations() {
    assert_eq!(Formation::from_rows(1), Formation::Line);
    assert_eq!(Formation::from_rows(2), Formation::Line);
    assert_eq!(Formation::from_rows(3), Formation::Column);
    assert!(Formation::Column.is_close());
    assert!(!Formation::Skirmish.is_close());
    let (mut b, a, r) = two(
        Options::default(),
        (8, Formation::Line),
        (8, Formation::Line),
    );
    // R 1, Q 8, FP 8 (line at 6": D4, spill to D10): 18/4 = 4 rem 2; remainder 3 (no extra); hits at 2, 3, 4,
    // 5: armour 1, impact 6 each, killed; the line tests (4 dead, 4 left: 3, -1 = 2) and passes with 8.
    let mut dice = ScriptedDice::faces([1, 8, 10, 3, 2, 1, 6, 3, 1, 6, 4, 1, 6, 5, 1, 6, 8]);
    b.fire(
        a,
        r,
        FireFacts {
            distance: 6.0,
            ..FireFacts::default()
        },
        &mut dice,
    )
    .unwrap();
    assert_eq!(dice.remaining(), 0);
    assert_eq!(b.company(r).unwrap().formation(), Formation::Line);
    assert_eq!(b.company(r).unwrap().dead(), 4);
    // Break it: a minor and a roll of 1 twice.
    let (mut b, a, r) = two(
        Options::default(),
        (8, Formation::Line),
        (8, Formation::Skirmish),
    );
    b.fire(
        a,
        r,
        FireFacts {
            distance: 6.0,
            ..FireFacts::default()
        },
        &mut ScriptedDice::faces([4, 7, 2, 1]),
    )
    .unwrap();
    b.reload(a).unwrap();
    b.end_turn().unwrap();
    b.activate(a).unwrap();
    b.fire(
        a,
        r,
        FireFacts {
            distance: 6.0,
            ..FireFacts::default()
        },
        &mut ScriptedDice::faces([4, 7, 2, 2]),
    )
    .unwrap();
    b.end_activation().unwrap();
    b.activate(r).unwrap();
    assert_eq!(b.company(r).unwrap().confidence(), ConfidenceLevel::Broken);
    assert!(matches!(
        b.reorganise(r, Formation::Line),
        Err(RuleViolation::Refused { .. })
    ));
    b.reorganise(r, Formation::Skirmish).unwrap();
}

// HT-MOR-04: the combined table's rows.
#[test]
fn combined_table_rows() {
    let m = Motivation::Medium;
    assert_eq!(tl::FIRED_ON_CASE.value(Motivation::High), 0);
    assert_eq!(tl::FIRED_ON_CASE_CAVALRY.value(m), 2);
    assert_eq!(tl::FIRST_VOLLEY_CASUALTIES.value(Motivation::Low), 3);
    assert_eq!(tl::HALF_LOST.value(m), 3);
    assert_eq!(tl::ENFILADE.value(Motivation::High), 2);
    assert_eq!(tl::COLOURS_CAPTURED.value(m), 1);
    assert_eq!(tl::CLOSE_FORMATION.value(m), -1);
}

// HT-INT-22, HT-FIR-06: fortification armour +3 by default, +2 by option, +2 against direct fire and +3 against
// bursts as "hard cover In Position".
#[test]
fn fortification_armour() {
    let f = Cover::Fortification;
    assert_eq!(f.armour_shift(FortificationArmour::Plus3, false), 3);
    assert_eq!(f.armour_shift(FortificationArmour::Plus2, true), 2);
    assert_eq!(f.armour_shift(FortificationArmour::HardPlusIp, false), 2);
    assert_eq!(f.armour_shift(FortificationArmour::HardPlusIp, true), 3);
    assert_eq!(f.range_shift(), 3);
}

// HT-INT-04: Stargrunt II's first-suppression test, 2/1/NTR the first time and no test after, in the engine.
#[test]
fn first_suppression_reading() {
    let mut o = Options::default();
    o.fired_on_tl = FiredOnTl::SgiiFirstSuppression;
    let e = TestEvent {
        fired_on: Some(FiredOn::SmallArms),
        survivors: 8,
        first_time: true,
        ..TestEvent::default()
    };
    assert_eq!(threat_level(&e, Motivation::Low, &o), Some(2));
    let again = TestEvent {
        first_time: false,
        ..e
    };
    assert_eq!(threat_level(&again, Motivation::Low, &o), None);
    let (mut b, a, r) = two(o, (8, Formation::Line), (8, Formation::Skirmish));
    let rep = b
        .fire(
            a,
            r,
            FireFacts {
                distance: 6.0,
                ..FireFacts::default()
            },
            &mut ScriptedDice::faces([4, 7, 2, 8]),
        )
        .unwrap();
    assert_eq!(rep.companies[0].test.map(|t| t.0), Some(1));
    b.reload(a).unwrap();
    b.end_turn().unwrap();
    b.activate(a).unwrap();
    let rep = b
        .fire(
            a,
            r,
            FireFacts {
                distance: 6.0,
                ..FireFacts::default()
            },
            &mut ScriptedDice::faces([4, 7, 2]),
        )
        .unwrap();
    assert_eq!(rep.companies[0].test, None);
}

// HT-INT-19, HT-MOR-12: by option a Low unit adds +1 per wounded figure (Stargrunt II's untreated casualties).
#[test]
fn untreated_casualties_reading() {
    let mut o = Options::default();
    o.sgii_untreated_casualty_mod = true;
    let mut b = Battle::new(o);
    let mut l = CompanySpec::new("Union line", Side::Union, 8);
    l.formation = Formation::Line;
    let a = b.add_company(l).unwrap();
    let mut c = CompanySpec::new("low company", Side::Confederate, 8);
    c.motivation = Motivation::Low;
    let r = b.add_company(c).unwrap();
    b.activate(a).unwrap();
    // R 3, Q 4, FP 4 (8 muskets D8, the skirmish target: no spill): 8/4 = 2 hits: figures 2 and 3 wounded
    // (armour 2, impact 3). Test: 1 + 1 (casualties) + 2 (two wounded) = 4.
    let mut dice = ScriptedDice::faces([3, 4, 4, 2, 2, 3, 3, 2, 3, 8]);
    let rep = b
        .fire(
            a,
            r,
            FireFacts {
                distance: 6.0,
                ..FireFacts::default()
            },
            &mut dice,
        )
        .unwrap();
    assert_eq!(rep.companies[0].wounded, 2);
    assert_eq!(rep.companies[0].test.map(|t| t.0), Some(4));
}

// HT-GEN-06: the options' defaults are the readings the docs name.
#[test]
fn option_defaults() {
    let o = Options::default();
    assert_eq!(
        o.kill_threshold,
        acw_hardtack::options::KillThreshold::DoubleOrMore
    );
    assert_eq!(o.fortification_armour, FortificationArmour::Plus3);
    assert_eq!(o.fired_on_tl, FiredOnTl::EveryTime);
    assert!(o.fdf_confidence_test);
    assert!(!o.first_volley && !o.case_shot && !o.quick_combat_resolution && !o.prepared_fire);
}

// HT-CMD-09, HT-SG2-26, HT-FIR-13: a lone commander fired on in the engine: the range die one up (12": D8).
#[test]
fn lone_commander_in_the_engine() {
    let mut b = Battle::new(Options::default());
    let a = b
        .add_company(CompanySpec::new("rebels", Side::Confederate, 8))
        .unwrap();
    let col = b
        .add_company(CompanySpec::new("Colonel Chamberlain", Side::Union, 1))
        .unwrap();
    b.activate(a).unwrap();
    let facts = FireFacts {
        distance: 12.0,
        lone_figure: true,
        ..FireFacts::default()
    };
    let rep = b
        .fire(a, col, facts, &mut ScriptedDice::faces([8, 1, 1]))
        .unwrap();
    assert_eq!(rep.range, Some(D8));
}
