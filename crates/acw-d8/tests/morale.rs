//! Morale on the battle state: points, the chart, removal, officers with their unit.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::dice::ScriptedDice;
use acw_d8::morale::{MoraleFacts, OfficerAt, morale_points, test};
use acw_d8::sequence::Phase;
use acw_d8::state::{FireFacts, Target};
use acw_d8::tables::{BREAK_CHART, Class, Cover, break_value};
use acw_d8::{Battle, Options, Refusal};
use common::*;

/// The Confederate turn: the 8th Volunteers (18) fire at the Union 2nd Volunteers (Experienced, 12) and kill
/// `kills` (each die a hit, each save failed).
fn union_regiment_loses(b: &mut Battle, kills: usize, officer_check: &[u16]) {
    to_phase(b, Phase::Morale);
    b.end_turn().unwrap();
    to_phase(b, Phase::Firing);
    let mut faces = vec![8; kills];
    faces.extend(vec![1; 18 - kills]);
    faces.extend(vec![1; kills]);
    b.fire(
        uid(C + 7),
        Target::Unit(uid(U + 1)),
        &FireFacts::all_at(18, 10.0),
        &mut ScriptedDice::faces(faces),
    )
    .unwrap();
    b.end_firing(&mut ScriptedDice::faces(officer_check.to_vec()))
        .unwrap();
    b.end_melee().unwrap();
}

#[test]
fn the_worked_example() {
    // D8-MOR-07, D8-MOR-02, D8-MOR-05: an Experienced regiment of 12 in the open loses 5: 7 points, +1 for a
    // brigade mate within 30 cm, −1 for an enemy within 30 cm: 7. The chart at 12 Experienced says 6 (the rules'
    // example says 5, the Veteran value): 7 > 6, it stands.
    let mut b = battle();
    union_regiment_loses(&mut b, 5, &[]);
    let facts = MoraleFacts {
        brigade_mate_near: true,
        enemy_near: true,
        ..MoraleFacts::default()
    };
    let r = b.morale(uid(U + 1), &facts).unwrap();
    assert_eq!((r.points, r.break_at, r.removed), (7, 6, false));
    assert!(r.to_string().contains("stands"));
    assert!(!b.unit(uid(U + 1)).unwrap().removed);
    b.end_turn().unwrap();
}

#[test]
fn breaking_removes_the_unit_and_its_officer() {
    // D8-MOR-06, D8-CAS-03, D8-VIC-04: the regiment loses 6 (6 left), out in the open with an enemy near: 5 ≤ 6,
    // removed (his fire check, 6 then 6, spared him). Its attached Brigadier goes with it (10 VP); its figures are
    // not kills by default.
    let mut b = battle();
    start(&mut b);
    b.attach(oid(1), uid(U + 1)).unwrap();
    union_regiment_loses(&mut b, 6, &[6, 6]);
    let kills_before = b.points().confederate.kills;
    let facts = MoraleFacts {
        enemy_near: true,
        ..MoraleFacts::default()
    };
    let r = b.morale(uid(U + 1), &facts).unwrap();
    assert_eq!((r.points, r.removed), (5, true));
    assert!(b.unit(uid(U + 1)).unwrap().removed);
    assert!(!b.officer(oid(1)).unwrap().alive);
    assert_eq!(b.points().confederate.officers, 10);
    assert_eq!(b.points().confederate.kills, kills_before);
    // Under the options, the figures count and the officer does not.
    let mut o = Options::default();
    o.vp_for_morale_removed = true;
    o.removed_officer_no_vp = true;
    let mut b = battle_with(o);
    start(&mut b);
    b.attach(oid(1), uid(U + 1)).unwrap();
    union_regiment_loses(&mut b, 6, &[6, 6]);
    let before = b.points().confederate.kills;
    b.morale(uid(U + 1), &facts).unwrap();
    assert_eq!(b.points().confederate.kills, before + 6 * 2);
    assert_eq!(b.points().confederate.officers, 0);
}

#[test]
fn who_tests_and_when() {
    // D8-MOR-01: only units that lost a figure to fire or melee this turn; the turn cannot end until they test.
    let mut b = battle();
    union_regiment_loses(&mut b, 1, &[]);
    assert_eq!(b.must_test(), vec![uid(U + 1)]);
    assert!(matches!(
        b.morale(uid(U + 2), &MoraleFacts::default()),
        Err(Refusal::Forbidden(_))
    ));
    assert!(matches!(b.end_turn(), Err(Refusal::WrongTime { .. })));
    b.morale(uid(U + 1), &MoraleFacts::default()).unwrap();
    b.end_turn().unwrap();
    assert_eq!(b.phase(), Phase::Start);
}

#[test]
fn the_chart() {
    // D8-MOR-03: 17 columns, 4 to 20, non-decreasing; Raw 20 breaks at 14, Veteran 4 at 2.
    for row in BREAK_CHART {
        assert!(row.windows(2).all(|w| w[0] <= w[1]));
    }
    assert_eq!(break_value(Class::Raw, 20), Some(14));
    assert_eq!(break_value(Class::Veteran, 4), Some(2));
    assert_eq!(break_value(Class::Experienced, 12), Some(6));
    assert_eq!(break_value(Class::Veteran, 21), None);
    assert!(test(Class::Raw, 20, 14).removed && !test(Class::Raw, 20, 15).removed);
    assert!(test(Class::Veteran, 4, 2).removed && !test(Class::Veteran, 4, 3).removed);
}

#[test]
fn morale_modifiers() {
    // D8-MOR-04: each item once.
    let o = Options::default();
    let base = MoraleFacts::default();
    assert_eq!(morale_points(10, true, false, &base, &o), 10);
    assert_eq!(
        morale_points(
            10,
            true,
            false,
            &MoraleFacts {
                cover: Cover::Soft,
                ..base
            },
            &o
        ),
        11
    );
    assert_eq!(
        morale_points(
            10,
            true,
            false,
            &MoraleFacts {
                cover: Cover::Hard,
                ..base
            },
            &o
        ),
        12
    );
    assert_eq!(
        morale_points(
            10,
            true,
            false,
            &MoraleFacts {
                brigadier: OfficerAt::Away,
                ..base
            },
            &o
        ),
        9
    );
    let dead_brig_away_div = MoraleFacts {
        brigadier: OfficerAt::Killed,
        division: OfficerAt::Away,
        ..base
    };
    assert_eq!(morale_points(10, true, false, &dead_brig_away_div, &o), 8);
    // A killed Divisional Officer: −1, not also "away" (unless the option).
    let div_dead = MoraleFacts {
        division: OfficerAt::Killed,
        ..base
    };
    assert_eq!(morale_points(10, false, false, &div_dead, &o), 9);
    let mut both = Options::default();
    both.division_killed_double_count = true;
    assert_eq!(morale_points(10, false, false, &div_dead, &both), 8);
    // Unbrigaded units: only the Divisional Officer's distance; brigade items do not apply.
    let away = MoraleFacts {
        division: OfficerAt::Away,
        brigade_mate_near: true,
        brigadier: OfficerAt::Killed,
        ..base
    };
    assert_eq!(morale_points(10, false, false, &away, &o), 9);
    // D8-MOR-08, D8-FRM-05: a formation fail costs a point only under the option.
    assert_eq!(morale_points(10, true, true, &base, &o), 10);
    let mut ff = Options::default();
    ff.ff_affects_morale = true;
    assert_eq!(morale_points(10, true, true, &base, &ff), 9);
}

#[test]
fn units_below_the_minimum() {
    // D8-SET-37, D8-MOR-09: by default a unit worn under 4 figures stays (the chart decides); under the option it
    // is removed at once. The Union sharpshooters (4) lose 1.
    let hit_sharpshooters = |o: Options| {
        let mut b = battle_with(o);
        to_phase(&mut b, Phase::Morale);
        b.end_turn().unwrap();
        to_phase(&mut b, Phase::Firing);
        let mut faces = vec![8];
        faces.extend([1; 12]);
        faces.push(1);
        b.fire(
            uid(C + 1),
            Target::Unit(uid(U + 10)),
            &FireFacts::all_at(12, 10.0),
            &mut ScriptedDice::faces(faces),
        )
        .unwrap();
        b.unit(uid(U + 10)).unwrap().removed
    };
    assert!(!hit_sharpshooters(Options::default()));
    let mut o = Options::default();
    o.remove_below_minimum = true;
    assert!(hit_sharpshooters(o));
}

/// D8-MOR-04, D8-MOR-08: the modifiers a test names, in order, and the event that reads them out: a regiment of
/// 9 with a brigade mate near (+1), behind hard cover (+2), an enemy near (−1), its Brigadier killed (−1) and the
/// Divisional Officer away (−1 more): 9 points.
#[test]
fn the_modifiers_a_test_names() {
    use acw_d8::game::Event;
    use acw_d8::morale::{MoraleModifier as M, morale_modifiers};
    let facts = MoraleFacts {
        brigade_mate_near: true,
        cover: Cover::Hard,
        enemy_near: true,
        brigadier: OfficerAt::Killed,
        division: OfficerAt::Away,
    };
    let o = Options::default();
    let mods = morale_modifiers(true, true, &facts, &o);
    assert_eq!(
        mods,
        vec![
            M::BrigadeMateNear,
            M::HardCover,
            M::EnemyNear,
            M::BrigadierAway,
            M::BrigadierDeadDivisionAway
        ]
    );
    assert_eq!(morale_points(9, true, true, &facts, &o), 9);
    // The formation fail counts only under the option.
    let mut ff = Options::default();
    ff.ff_affects_morale = true;
    assert_eq!(
        morale_modifiers(true, true, &facts, &ff).last(),
        Some(&M::FormationFail)
    );
    assert_eq!(morale_points(9, true, true, &facts, &ff), 8);
    let r = test(Class::Experienced, 12, 9);
    let e = Event::Morale {
        unit: "2nd Volunteers (Union)".into(),
        figures: 9,
        modifiers: mods,
        points: r.points,
        break_at: r.break_at,
        removed: r.removed,
    };
    assert_eq!(
        e.to_string(),
        "The 2nd Volunteers (Union) tests morale: 9 figure(s), +1 for a regiment of its brigade within 30 cm, \
         +2 for behind hard cover, \u{2212}1 for an enemy within 30 cm, \u{2212}1 for its Brigadier away or killed, \
         \u{2212}1 for its Brigadier killed and the Divisional Officer away, 9 points against 6 on the chart; no \
         dice are rolled, so it certainly stands."
    );
}
