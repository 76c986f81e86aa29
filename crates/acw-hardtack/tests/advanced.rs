//! The advanced rules: shot ranges, off-table guns, case, ammunition, the Grand Gesture, Quiet Mutiny, Full
//! Strength and regrouping, modern weapons, Quick Combat Resolution, prepared fire.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::dice::ScriptedDice;
use acw_core::{Resolve, Side};
use acw_hardtack::DieType::{D4, D6, D8, D10, D12};
use acw_hardtack::advanced::{
    CASE_MINIMUM_RANGE, GESTURE_RISK, Modern, OffTable, QuietMutiny, case_armour_shift, case_table,
    gesture_die, gesture_in_range, loads_per_fire, merged_full_strength, shot_range, shot_ranges,
    starting_loads,
};
use acw_hardtack::artillery::ShotRange;
use acw_hardtack::casualties::carry;
use acw_hardtack::fire::{Cover, RangeFacts};
use acw_hardtack::ladder::Success;
use acw_hardtack::morale::{FiredOn, TestEvent, threat_level};
use acw_hardtack::setup::MenPerFigure;
use acw_hardtack::state::{Ammunition, BurstFacts, FigureRef};
use acw_hardtack::state::{CompanySpec, FireFacts, Formation};
use acw_hardtack::tables::{
    ConfidenceLevel, FieldPiece, Leadership, Motivation, Quality, SmallArm, Weapon,
};
use acw_hardtack::{Battle, Options, RuleViolation};
use common::two;

// HT-OPT-01: the shot range table, and bands by distance.
#[test]
fn shot_range_table() {
    assert_eq!(shot_ranges(FieldPiece::Napoleon12lb), [30.0, 60.0, 150.0]);
    assert_eq!(
        shot_range(FieldPiece::Napoleon12lb, 30.0).unwrap(),
        Some(ShotRange::Short)
    );
    assert_eq!(
        shot_range(FieldPiece::Napoleon12lb, 85.0).unwrap(),
        Some(ShotRange::Long)
    );
    assert_eq!(shot_range(FieldPiece::Gun6lb, 141.0).unwrap(), None);
    assert!(shot_range(FieldPiece::Gun6lb, f64::NAN).is_err());
}

// HT-ACC-21, HT-OPT-03, HT-OPT-04: a 12lb gun 700 yards behind the edge: 70" off table, a 35" arc band, a
// target 15" from the edge point at 85" — long range for a Napoleon.
#[test]
fn off_table_gun() {
    let g = OffTable::from_yards(700.0).unwrap();
    assert!((g.behind - 70.0).abs() < 1e-12);
    assert!((g.arc_band() - 35.0).abs() < 1e-12);
    let r = g.range(15.0).unwrap();
    assert!((r - 85.0).abs() < 1e-12);
    assert_eq!(
        shot_range(FieldPiece::Napoleon12lb, r).unwrap(),
        Some(ShotRange::Long)
    );
}

// HT-OPT-05, HT-OPT-06, HT-OPT-07: case radii and dice; In Position adds armour; the case rows.
#[test]
fn case_and_spherical_case() {
    assert_eq!(
        case_table(FieldPiece::Rifle20lb),
        ((1.5, D10), ((8.0, 1.0), D8))
    );
    assert_eq!(
        case_table(FieldPiece::Gun6lb),
        ((0.5, D6), ((4.0, 0.5), D4))
    );
    assert!((CASE_MINIMUM_RANGE - 50.0).abs() < 1e-12);
    assert_eq!(case_armour_shift(1, true), 2);
    let o = Options::default();
    let e = TestEvent {
        fired_on: Some(FiredOn::Case),
        survivors: 8,
        ..TestEvent::default()
    };
    assert_eq!(threat_level(&e, Motivation::High, &o), Some(0));
    let cav = TestEvent {
        fired_on: Some(FiredOn::CaseCavalry),
        ..e
    };
    assert_eq!(threat_level(&cav, Motivation::Low, &o), Some(3));
}

// HT-ACC-24, HT-OPT-08, HT-OPT-09, HT-SEQ-07: Union 10 loads, Confederate 6, repeaters spend 2 (five shots),
// 40 rounds make 8 loads; at 0 loads Fire and Reload are refused; a scrounge adds 2.
#[test]
fn ammunition_supply() {
    assert_eq!(starting_loads(Side::Union, None), 10);
    assert_eq!(starting_loads(Side::Confederate, None), 6);
    assert_eq!(starting_loads(Side::Union, Some(40)), 8);
    assert_eq!(10 / loads_per_fire(true), 5);
    let mut b = Battle::new(Options::default());
    let mut spec = CompanySpec::new("Spencer men", Side::Union, 6);
    spec.weapon = Weapon {
        repeater: true,
        ..Weapon::of(SmallArm::Carbine)
    };
    spec.loads = Some(2);
    let a = b.add_company(spec).unwrap();
    let r = b
        .add_company(CompanySpec::new("rebels", Side::Confederate, 6))
        .unwrap();
    b.activate(a).unwrap();
    b.fire(
        a,
        r,
        FireFacts {
            distance: 6.0,
            ..FireFacts::default()
        },
        &mut ScriptedDice::faces([4, 1, 1]),
    )
    .unwrap();
    assert_eq!(b.company(a).unwrap().loads(), Some(0));
    let refused = b.fire(
        a,
        r,
        FireFacts {
            distance: 6.0,
            ..FireFacts::default()
        },
        &mut ScriptedDice::faces([]),
    );
    assert!(matches!(refused, Err(RuleViolation::CannotFire { .. })));
    assert!(matches!(b.reload(a), Err(RuleViolation::Refused { .. })));
    assert_eq!(b.scrounge(a).unwrap(), 2);
}

// HT-ACC-26, HT-OPT-15, HT-INT-12: a Regular company 39" from a lone Union commander: band 5, D12 in the
// open — in range; in soft cover D14 — not; counting the lone-figure shift, not even in the open.
#[test]
fn grand_gesture_range() {
    let o = Options::default();
    let mut f = RangeFacts::at(39.0, 8.0);
    assert!(gesture_in_range(&f, false, &o).unwrap());
    assert!(!gesture_in_range(&f, true, &o).unwrap());
    f.cover = Cover::Soft;
    assert!(!gesture_in_range(&f, false, &o).unwrap());
}

// HT-ACC-08, HT-OPT-16, HT-OPT-17: the gesture raises Green D6 to D8 and Regular D8 to D10; when the colonel
// falls, each company that took it tests at the leader row +1: the printed example's assaulting companies (no
// formation -1 after their combat move, +1 for the combined-assault drop-out) 6/5/3; the company that failed
// its attack test, still in column, 4/3/1.
#[test]
fn grand_gesture_example() {
    assert_eq!(gesture_die(D6), D8);
    assert_eq!(gesture_die(D8), D10);
    assert_eq!(gesture_die(D12), D12);
    let o = Options::default();
    let assaulting = TestEvent {
        leader_casualty: true,
        modifier: GESTURE_RISK + 1,
        ..TestEvent::default()
    };
    let stayed = TestEvent {
        leader_casualty: true,
        close_formation: true,
        modifier: GESTURE_RISK,
        ..TestEvent::default()
    };
    let levels = |e: &TestEvent| {
        [Motivation::Low, Motivation::Medium, Motivation::High].map(|m| threat_level(e, m, &o))
    };
    assert_eq!(levels(&assaulting), [Some(6), Some(5), Some(3)]);
    assert_eq!(levels(&stayed), [Some(4), Some(3), Some(1)]);
}

// HT-OPT-15, HT-OPT-16, HT-OPT-17, HT-INT-12, HT-INT-13: the Grand Gesture in the engine. Refused without the
// rule, or with no enemy in range (60" from a Regular: band 8); a gestured Regular company assaults on a D10
// (a 9 cannot come up on its own D8); when the colonel falls the gestured company takes a confidence test at
// the leader row +1 (Medium 3 + 1 - 1 in line = 3; T = 5): a 5 fails, one level; the successor's LV from a
// D6.
#[test]
fn grand_gesture_in_the_engine() {
    let enemy = RangeFacts::at(20.0, 8.0);
    let (mut plain, a, _) = two(
        Options::default(),
        (8, Formation::Line),
        (4, Formation::Skirmish),
    );
    let col = plain
        .add_company(CompanySpec::new("colonel", Side::Union, 1))
        .unwrap();
    assert!(matches!(
        plain.grand_gesture(col, &enemy, &[a]),
        Err(RuleViolation::Refused { .. })
    ));
    let mut o = Options::default();
    o.grand_gesture = true;
    let (mut b, a, r) = two(o, (8, Formation::Line), (4, Formation::Skirmish));
    let col = b
        .add_company(CompanySpec::new("colonel", Side::Union, 1))
        .unwrap();
    assert!(
        b.grand_gesture(col, &RangeFacts::at(60.0, 8.0), &[a])
            .is_err()
    );
    b.grand_gesture(col, &enemy, &[a]).unwrap();
    assert!(b.assault(a, r, &mut ScriptedDice::faces([9])).unwrap());
    b.defend(
        acw_hardtack::state::DefenderChoice::Withdraw,
        &mut ScriptedDice::faces([]),
    )
    .unwrap();
    assert!(b.assault(a, r, &mut ScriptedDice::faces([])).is_err());
    let mut o = Options::default();
    o.grand_gesture = true;
    let (mut b, a, _) = two(o, (8, Formation::Line), (4, Formation::Skirmish));
    let col = b
        .add_company(CompanySpec::new("colonel", Side::Union, 1))
        .unwrap();
    b.grand_gesture(col, &enemy, &[a]).unwrap();
    let chosen = b
        .colonel_falls(col, &[a], &mut ScriptedDice::faces([5, 6]))
        .unwrap();
    assert_eq!(chosen, a);
    assert_eq!(b.company(a).unwrap().confidence(), ConfidenceLevel::Steady);
}

// HT-OPT-26: Quiet Mutiny: quality + LV of 9 or more makes the unit Shaken; Regular LV1/2/3 1/8, 1/4, 3/8;
// Veteran 3/10, 2/5, 1/2; Green never.
#[test]
fn quiet_mutiny() {
    let p = |q, lv| QuietMutiny { quality: q, lv }.odds().p(&true);
    assert!((p(Quality::Regular, Leadership::ONE) - 1.0 / 8.0).abs() < 1e-12);
    assert!((p(Quality::Regular, Leadership::THREE) - 3.0 / 8.0).abs() < 1e-12);
    assert!((p(Quality::Veteran, Leadership::TWO) - 2.0 / 5.0).abs() < 1e-12);
    assert_eq!(p(Quality::Green, Leadership::THREE), 0.0);
    assert_eq!(
        QuietMutiny::apply(ConfidenceLevel::Confident, true),
        ConfidenceLevel::Shaken
    );
    assert_eq!(
        QuietMutiny::apply(ConfidenceLevel::Broken, true),
        ConfidenceLevel::Broken
    );
}

// HT-ACC-10, HT-ACC-11, HT-OPT-19: companies of FS 8 and 6 merged into 7 figures: FS 8; into 9: FS 9.
#[test]
fn full_strength_complement() {
    assert_eq!(merged_full_strength(&[8, 6], 7), 8);
    assert_eq!(merged_full_strength(&[8, 6], 9), 9);
}

// HT-SG2-08, HT-OPT-19: regrouping in the engine: the better LV, the larger company's quality, the average
// level rounded toward the better, the larger complement.
#[test]
fn regroup_in_the_engine() {
    let mut b = Battle::new(Options::default());
    let mut a = CompanySpec::new("remnant A", Side::Union, 5);
    a.quality = Quality::Veteran;
    a.lv = Leadership::THREE;
    let mut c = CompanySpec::new("remnant B", Side::Union, 3);
    c.quality = Quality::Green;
    c.lv = Leadership::ONE;
    c.fatigue = acw_hardtack::tables::Fatigue::Exhausted;
    let ida = b.add_company(a).unwrap();
    let idc = b.add_company(c).unwrap();
    b.regroup(ida, idc).unwrap();
    let m = b.company(ida).unwrap();
    assert_eq!(
        (m.quality(), m.lv(), m.fit()),
        (Quality::Veteran, Leadership::ONE, 8)
    );
    assert_eq!(m.confidence(), ConfidenceLevel::Steady);
    assert_eq!(m.full_strength(), 8);
    assert_eq!(b.company(idc).unwrap().fit(), 0);
    assert!(b.regroup(ida, idc).is_err());
}

// HT-OPT-32: an AK-47 squad of 3 Regular
// figures at 1:3 (FP 18 -> D12, no skirmish shift) against skirmishers at 2 bands (D6): Q 3, FP 6 against
// 4: minor; a suppression marker and the fired-on test at 0 + 1 = 1 (Medium). Two figures against a line at 2
// bands (D4): R 2, Q 4, FP 7: 11/4 = 2 + remainder 3; no marker; the test 1/0/NTR + 1 + 1 - 1.
#[test]
fn modern_weapons() {
    let mut b = Battle::new(Options::default());
    b.set_scale(MenPerFigure::new(3).unwrap());
    let mut ak = CompanySpec::new("AK-armed squad", Side::Confederate, 3);
    ak.modern = Some(Modern::ASSAULT_RIFLE);
    let squad = b.add_company(ak).unwrap();
    let skirm = b
        .add_company(CompanySpec::new("Union skirmishers", Side::Union, 8))
        .unwrap();
    b.activate(squad).unwrap();
    let rep = b
        .fire(
            squad,
            skirm,
            FireFacts {
                distance: 12.0,
                ..FireFacts::default()
            },
            &mut ScriptedDice::faces([4, 3, 6, 8]),
        )
        .unwrap();
    // HT-ACC-13, the first printed AK-47 example: a minor result and the test at 1.
    assert_eq!(rep.range, Some(D6));
    // HT-OPT-30: no skirmish shift on the squad's firepower: its D12 firepower die rolled the 6 (a D10 or
    // lower would still allow it, but the Q 3 + FP 6 against R 4 is only a minor result with both dice).
    assert_eq!(rep.effect.success, Success::Minor);
    // HT-OPT-31, HT-INT-10: modern fire adds +1 to the skirmishers' fired-on test (0 + 1), not -1.
    assert_eq!(rep.companies[0].test.map(|t| t.0), Some(1));
    assert_eq!(b.company(skirm).unwrap().suppression(), 1);
    // HT-OPT-29: modern weapons never need reloading.
    assert!(!b.company(squad).unwrap().needs_reload());
    let e = TestEvent {
        fired_on: Some(FiredOn::SmallArms),
        survivors: 8,
        modifier: Modern::ASSAULT_RIFLE.morale(),
        ..TestEvent::default()
    };
    let o = Options::default();
    assert_eq!(threat_level(&e, Motivation::Low, &o), Some(2));
    assert_eq!(threat_level(&e, Motivation::High, &o), None);
    let casualties = TestEvent {
        casualties: 2,
        survivors: 6,
        close_formation: true,
        ..e
    };
    assert_eq!(threat_level(&casualties, Motivation::Low, &o), Some(2));
    assert_eq!(threat_level(&casualties, Motivation::High, &o), Some(0));
    assert_eq!(
        Modern::ASSAULT_RIFLE.half_fp(MenPerFigure::new(3).unwrap()),
        12
    );
    // The second example in the engine: two AK figures (FP 12, D12) at a Union line 2 bands off: D6 - 1 = D4.
    // R 2, Q 4, FP 7: 11/4 = 2, remainder 3; the remainder roll 3 gives a third. The D8 impacts (2, 3, 1)
    // against armour 4 do nothing; the line tests at 0 + 1 - 1 = 0 (8 passes); no suppression marker.
    let mut b = Battle::new(Options::default());
    let mut ak = CompanySpec::new("AK pair", Side::Confederate, 2);
    ak.modern = Some(Modern::ASSAULT_RIFLE);
    let pair = b.add_company(ak).unwrap();
    let mut l = CompanySpec::new("Union line", Side::Union, 8);
    l.formation = Formation::Line;
    let line = b.add_company(l).unwrap();
    b.activate(pair).unwrap();
    let mut dice = ScriptedDice::faces([2, 4, 7, 3, 1, 4, 2, 2, 4, 3, 3, 4, 1, 8]);
    let rep = b
        .fire(
            pair,
            line,
            FireFacts {
                distance: 12.0,
                ..FireFacts::default()
            },
            &mut dice,
        )
        .unwrap();
    assert_eq!(dice.remaining(), 0);
    // HT-ACC-14, the second printed AK-47 example; HT-OPT-30: the formation shift on the range die still
    // applies to modern fire at a line (D6 - 1 = D4).
    assert_eq!(rep.range, Some(D4));
    assert_eq!(
        (rep.effect.success, rep.effect.potential),
        (Success::Major, 3)
    );
    // HT-OPT-31: 0 + 1 (modern) - 1 (in formation) = 0.
    assert_eq!(rep.companies[0].test.map(|t| t.0), Some(0));
    assert_eq!(b.company(line).unwrap().suppression(), 0);
}

// HT-OPT-22, HT-OPT-24, HT-ACC-23, HT-OPT-23: Quick Combat Resolution: every potential casualty is wounded with
// no impact roll; a Reorganise treats them (D6 1-2 dead, 3-5 wounded, 6 back). A company of 10 with 6
// wounded carries 4 and abandons 2.
#[test]
fn quick_combat_resolution() {
    let mut o = Options::default();
    o.quick_combat_resolution = true;
    let (mut b, a, r) = two(o, (8, Formation::Line), (8, Formation::Skirmish));
    // R 1, Q 8, FP 8: 16/4 = 4 wounded: allocation 2, 3, 4, 5 (D8).
    let mut dice = ScriptedDice::faces([1, 8, 8, 2, 3, 4, 5, 8]);
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
    assert_eq!(dice.remaining(), 0);
    assert_eq!((rep.companies[0].wounded, rep.companies[0].killed), (4, 0));
    b.end_activation().unwrap();
    b.activate(r).unwrap();
    assert_eq!(
        b.treat_wounded(r, &mut ScriptedDice::faces([1, 3, 5, 6]))
            .unwrap(),
        (1, 2, 1)
    );
    assert_eq!(b.company(r).unwrap().fit(), 5);
    assert_eq!(carry(6, 4), (4, 2));
    let (mut plain, _, r2) = two(
        Options::default(),
        (8, Formation::Line),
        (8, Formation::Line),
    );
    plain.end_activation().unwrap();
    plain.activate(r2).unwrap();
    assert!(
        plain
            .treat_wounded(r2, &mut ScriptedDice::faces([]))
            .is_err()
    );
}

// HT-OPT-20, HT-OPT-21, HT-ACC-12: Prepared Fire: both actions for a marker; when the enemy acts, the
// activated company fires out of turn with the range die one up (2 bands: D6 + 1 = D8); the marker is then
// gone; without the option the action is refused; the marker also goes at the company's next activation.
#[test]
fn prepared_fire_in_the_engine() {
    let mut o = Options::default();
    o.prepared_fire = true;
    let (mut b, a, r) = two(o, (8, Formation::Skirmish), (8, Formation::Skirmish));
    b.prepare(a).unwrap();
    assert!(b.company(a).unwrap().prepared());
    b.activate(r).unwrap();
    let facts = FireFacts {
        distance: 16.0,
        ..FireFacts::default()
    };
    let rep = b
        .prepared_fire(a, r, facts, &mut ScriptedDice::faces([8, 1, 1]))
        .unwrap();
    assert_eq!(rep.range, Some(D8));
    assert!(!b.company(a).unwrap().prepared());
    assert!(matches!(
        b.prepared_fire(a, r, facts, &mut ScriptedDice::faces([8, 1, 1])),
        Err(RuleViolation::CannotFire { .. })
    ));
    let (mut plain, a, _) = two(
        Options::default(),
        (8, Formation::Skirmish),
        (8, Formation::Skirmish),
    );
    assert!(matches!(
        plain.prepare(a),
        Err(RuleViolation::Refused { .. })
    ));
    let (mut b, a, _) = two(o, (8, Formation::Skirmish), (8, Formation::Skirmish));
    b.prepare(a).unwrap();
    b.end_turn().unwrap();
    b.activate(a).unwrap();
    assert!(!b.company(a).unwrap().prepared());
}

// HT-OPT-12, HT-OPT-13, HT-OPT-14: a first volley in the engine: FP D8 -> D10; the marker is gone afterwards
// and a Shaken company loses it.
#[test]
fn first_volley_in_the_engine() {
    let mut o = Options::default();
    o.first_volley = true;
    let (mut b, a, r) = two(o, (8, Formation::Line), (8, Formation::Skirmish));
    // R 4, Q 1, FP 10: only a D10 can roll 10 — a minor result.
    let rep = b
        .fire(
            a,
            r,
            FireFacts {
                distance: 6.0,
                ..FireFacts::default()
            },
            &mut ScriptedDice::faces([4, 1, 10, 8]),
        )
        .unwrap();
    assert_eq!(rep.effect.success, Success::Minor);
    assert!(!b.company(a).unwrap().has_first_volley());
    // The target, knocked to Shaken by a test roll of 1 later, would lose its own marker.
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
        &mut ScriptedDice::faces([4, 7, 1, 1]),
    )
    .unwrap();
    assert_eq!(b.company(r).unwrap().confidence(), ConfidenceLevel::Shaken);
    assert!(!b.company(r).unwrap().has_first_volley());
}

// HT-OPT-05, HT-OPT-06, HT-OPT-07, HT-ART-21: case in the engine: refused without the advanced rule and
// under 50"; a Napoleon's case (D8) bursts among two figures, one In Position behind soft cover (D4 +1 +1 =
// D8): (armour 2, impact 4) kills the first, (armour 7, impact 8) wounds the second; a gun model in the burst
// (armour 4, impact 8) is disabled; the company (not cavalry) tests at 1 + 1 = 2.
#[test]
fn case_in_the_engine() {
    let mut plain = Battle::new(Options::default());
    let crew = plain
        .add_company(CompanySpec::new("crew", Side::Union, 3))
        .unwrap();
    let gun = plain
        .add_gun("Napoleon", FieldPiece::Napoleon12lb, false, crew)
        .unwrap();
    plain.activate(crew).unwrap();
    assert!(matches!(
        plain.load(gun, Ammunition::Case),
        Err(RuleViolation::GunRefused { .. })
    ));

    let mut o = Options::default();
    o.case_shot = true;
    let mut b = Battle::new(o);
    let crew = b
        .add_company(CompanySpec::new("crew", Side::Union, 3))
        .unwrap();
    let gun = b
        .add_gun("Napoleon", FieldPiece::Napoleon12lb, false, crew)
        .unwrap();
    let foe = b
        .add_company(CompanySpec::new("rebels", Side::Confederate, 8))
        .unwrap();
    let foe_crew = b
        .add_company(CompanySpec::new("rebel crew", Side::Confederate, 3))
        .unwrap();
    let foe_gun = b
        .add_gun("rebel rifle", FieldPiece::Rifle10lbOr3in, true, foe_crew)
        .unwrap();
    b.activate(foe).unwrap();
    assert!(
        b.go_in_position(foe, Cover::Soft, &mut ScriptedDice::faces([8]))
            .unwrap()
    );
    b.end_activation().unwrap();
    b.activate(crew).unwrap();
    b.load(gun, Ammunition::Case).unwrap();
    assert!(
        b.fire_case(gun, 40.0, &mut ScriptedDice::faces([8]))
            .is_err()
    );
    assert_eq!(
        b.fire_case(gun, 60.0, &mut ScriptedDice::faces([8]))
            .unwrap(),
        acw_hardtack::artillery::Landing::OnTarget
    );
    let facts = BurstFacts {
        figures: vec![
            (
                FigureRef {
                    company: foe,
                    index: 1,
                },
                Cover::Open,
            ),
            (
                FigureRef {
                    company: foe,
                    index: 2,
                },
                Cover::Soft,
            ),
        ],
        guns: vec![foe_gun],
        horses: vec![],
    };
    let mut dice = ScriptedDice::faces([2, 4, 7, 8, 4, 8, 8]);
    let rep = b.case_burst(&facts, &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    assert_eq!(rep.impact, D8);
    assert_eq!((rep.companies[0].killed, rep.companies[0].wounded), (1, 1));
    assert_eq!(rep.companies[0].test.map(|t| t.0), Some(2));
    assert_eq!(rep.guns_disabled.len(), 1);
    assert!(b.case_burst(&facts, &mut ScriptedDice::faces([])).is_err());
}

// HT-OPT-33: stand-based fire for 6mm figures. Twenty line muskets are two stands of ten, each firing as a
// squad with FP 10 (a D10, not the company's D12). Stand one: range 4, quality 5, FP 3 — a minor result;
// stand two: range 1, quality 4, FP 4 — a major one, 8 over a D4 is 2 potential casualties. The hits fall
// on the eight skirmishers together: allocation 2, armour 1, impact 6 kills; allocation 3, armour 2, impact
// 3 wounds. The target tests once at TL 1 (fired on 0, casualties +1): 8 passes.
#[test]
fn stand_based_fire_in_the_engine() {
    let mut o = Options::default();
    o.stand_based_fire = true;
    let facts = FireFacts {
        distance: 6.0,
        ..FireFacts::default()
    };
    let (mut b, a, r) = two(o, (20, Formation::Line), (8, Formation::Skirmish));
    let rep = b
        .fire(
            a,
            r,
            facts,
            &mut ScriptedDice::faces([4, 5, 3, 1, 4, 4, 2, 1, 6, 3, 2, 3, 8]),
        )
        .unwrap();
    assert_eq!(rep.effect.success, Success::Major);
    assert_eq!(rep.effect.potential, 2);
    let hit = &rep.companies[0];
    assert_eq!((hit.killed, hit.wounded), (1, 1));
    assert_eq!(hit.test.unwrap().0, 1);
    assert_eq!(b.company(r).unwrap().fit(), 6);

    // A stand's firepower die is a D10: an 11 cannot be rolled, and the refused fire changes nothing.
    let (mut b, a, r) = two(o, (20, Formation::Line), (8, Formation::Skirmish));
    let before = b.clone();
    assert!(matches!(
        b.fire(a, r, facts, &mut ScriptedDice::faces([4, 5, 11])),
        Err(RuleViolation::Dice(_))
    ));
    assert_eq!(b, before);
    // Without the rule the company fires once with FP 20, a D12: range 4, quality 5, FP 11 is a major
    // result of 16 over a D4 — four potential casualties.
    let (mut b, a, r) = two(
        Options::default(),
        (20, Formation::Line),
        (8, Formation::Skirmish),
    );
    let rep = b
        .fire(
            a,
            r,
            facts,
            &mut ScriptedDice::faces([4, 5, 11, 1, 1, 1, 2, 1, 1, 3, 1, 1, 4, 1, 1, 8]),
        )
        .unwrap();
    assert_eq!(rep.effect.potential, 4);
}
