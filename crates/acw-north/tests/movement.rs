//! Formations and movement (NORTH-MOV-*, NORTH-ART-05 to NORTH-ART-08, NORTH-ART-10 and their options).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::measure::{Inches, Point};
use acw_core::vocab::Mount;
use acw_core::{Resolve, Side};
use acw_north::combat::{AttackGroup, Category, Sight};
use acw_north::error::{AttackRefusal, ChargeRefusal};
use acw_north::melee::ChargeOrder;
use acw_north::morale::MoraleResponse;
use acw_north::movement::{
    AccomplishmentToss, MoveDirection, MoveOrder, MoveStop, ObstacleOutcome, ObstacleToss,
    allowance, charge_reach,
};
use acw_north::options::{DismountedMove, NonDeployedContactHalt, OrderedMove, RemountFormation};
use acw_north::sequence::Step;
use acw_north::setup::{Table, UnitSpec};
use acw_north::state::{AfterFailure, GunState};
use acw_north::tables::{
    BrigadeOrder, FireIntent, Formation, MoraleBand, Quality, Troop, accomplishment_sixths,
    fall_back_distance, formation_is_legal, legal_formations, movement_allowance,
};
use acw_north::{Battle, Options, RuleViolation, UnitId};
use common::*;

fn toward(d: f64) -> MoveOrder {
    MoveOrder {
        distance: Inches(d),
        direction: Some(MoveDirection::TowardEnemy),
        ..MoveOrder::default()
    }
}

fn inf() -> UnitSpec {
    UnitSpec::infantry("x", Quality::Standard)
}
fn cav() -> UnitSpec {
    UnitSpec::cavalry("x", Quality::Standard)
}
fn gun() -> UnitSpec {
    UnitSpec::artillery("x", Quality::Standard)
}

/// A battle at the Confederate units step.
fn at_units(c1: UnitSpec, c2: UnitSpec, o: Options) -> (Battle, UnitId, UnitId, UnitId) {
    let mut b = duel(inf(), inf(), c1, c2, o);
    skip_to(&mut b, Step::Units).unwrap();
    let (c1, c2, u1) = (id(&b, "C1"), id(&b, "C2"), id(&b, "U1"));
    (b, c1, c2, u1)
}

/// C1 charges U1 (passing on 1) so the two are in contact.
fn in_contact(b: &mut Battle, c: UnitId, u: UnitId) {
    let r = b
        .attempt_charge(
            c,
            u,
            ChargeOrder {
                distance: Inches(2.0),
                ..ChargeOrder::default()
            },
            &mut dice([1]),
        )
        .unwrap();
    assert!(r.contact);
}

#[test]
fn north_mov_01_formations_and_deployment() {
    // NORTH-MOV-01
    let o = Options::default();
    assert!(
        Formation::Line.is_deployed()
            && Formation::Skirmish.is_deployed()
            && Formation::Unlimbered.is_deployed()
    );
    assert!(!Formation::Column.is_deployed() && !Formation::Limbered.is_deployed());
    assert_eq!(
        legal_formations(Troop::MountedCavalry, &o),
        &[Formation::Line, Formation::Column]
    );
    assert!(!formation_is_legal(Troop::Artillery, Formation::Line, &o));
    assert!(!formation_is_legal(
        Troop::Infantry,
        Formation::Unlimbered,
        &o
    ));
    assert_eq!(
        Formation::Line.to_core(),
        Some(acw_core::vocab::Formation::Line)
    );
    assert_eq!(
        Formation::Limbered.to_limber(),
        Some(acw_core::vocab::Limber::Limbered)
    );
    let (mut b, c1, _, _) = at_units(inf(), cav(), o);
    assert_eq!(
        b.attempt_formation_change(c1, Formation::Limbered, &mut dice([1])),
        Err(RuleViolation::IllegalFormation {
            troop: Troop::Infantry,
            formation: Formation::Limbered
        })
    );
    assert_eq!(
        b.attempt_formation_change(c1, Formation::Line, &mut dice([1])),
        Err(RuleViolation::SameFormation(c1))
    );
}

#[test]
fn north_mov_02_movement_allowances() {
    // NORTH-MOV-02
    let o = Options::default();
    let a = |t, f| movement_allowance(t, f, FireIntent::NoFire, &o).unwrap();
    assert_eq!(a(Troop::Artillery, Formation::Unlimbered), Inches(0.0));
    assert_eq!(a(Troop::Infantry, Formation::Line), Inches(5.0));
    assert_eq!(a(Troop::MountedCavalry, Formation::Line), Inches(10.0));
    assert_eq!(a(Troop::Infantry, Formation::Column), Inches(10.0));
    assert_eq!(a(Troop::Artillery, Formation::Limbered), Inches(10.0));
    assert_eq!(a(Troop::DismountedCavalry, Formation::Column), Inches(10.0));
    assert_eq!(a(Troop::MountedCavalry, Formation::Column), Inches(15.0));
    assert_eq!(acw_north::tables::GENERAL_MOVE, Inches(15.0));
    assert_eq!(
        movement_allowance(Troop::Infantry, Formation::Limbered, FireIntent::NoFire, &o),
        None
    );
}

#[test]
fn north_mov_03_ordered_moves_are_full_and_north_opt_09() {
    // NORTH-MOV-03 / NORTH-OPT-09
    let (mut b, c1, c2, _) = at_units(inf(), inf(), Options::default());
    assert_eq!(
        b.move_unit(c1, &toward(3.0), &mut dice([])),
        Err(RuleViolation::MoveTooShort {
            distance: 3.0,
            allowance: 5.0
        })
    );
    assert!(matches!(
        b.move_unit(c1, &toward(6.0), &mut dice([])),
        Err(RuleViolation::MoveTooLong { .. })
    ));
    let edge = MoveOrder {
        stopped_by: Some(MoveStop::TableEdge),
        ..toward(3.0)
    };
    assert_eq!(
        b.move_unit(c1, &edge, &mut dice([])).unwrap().moved,
        Inches(3.0)
    );
    assert!(b.move_unit(c2, &toward(5.0), &mut dice([])).is_ok());
    let mut o = Options::default();
    o.ordered_move = OrderedMove::UpTo;
    let (mut b, c1, _, _) = at_units(inf(), inf(), o);
    assert_eq!(
        b.move_unit(c1, &toward(2.0), &mut dice([])).unwrap().moved,
        Inches(2.0)
    );
}

#[test]
fn north_mov_04_hold_units_do_not_move() {
    // NORTH-MOV-04
    let mut b = custom(
        vec![brigade(
            "U",
            BrigadeOrder::Advance,
            vec![
                UnitSpec {
                    name: "U1".into(),
                    ..inf()
                },
                UnitSpec {
                    name: "U2".into(),
                    ..inf()
                },
            ],
        )],
        vec![brigade(
            "C",
            BrigadeOrder::Hold,
            vec![
                UnitSpec {
                    name: "C1".into(),
                    ..inf()
                },
                UnitSpec {
                    name: "C2".into(),
                    ..inf()
                },
            ],
        )],
        Options::default(),
    );
    skip_to(&mut b, Step::Units).unwrap();
    let c1 = id(&b, "C1");
    assert!(matches!(
        b.move_unit(c1, &toward(5.0), &mut dice([])),
        Err(RuleViolation::OrderForbidsMove { .. })
    ));
    let r = b
        .attempt_formation_change(c1, Formation::Column, &mut dice([4]))
        .unwrap();
    assert!(r.success);
    assert_eq!(b.unit(c1).unwrap().formation(), Formation::Column);
}

#[test]
fn north_mov_05_accomplishment_toss() {
    // NORTH-MOV-05: succeed iff d6 + c <= N.
    for n in 1..=7u8 {
        let plain = AccomplishmentToss {
            capacity: n,
            charge_cover: false,
        };
        p("plain", plain.odds().p(&true), f64::from(n.min(6)) / 6.0);
        let cover = AccomplishmentToss {
            capacity: n,
            charge_cover: true,
        };
        p(
            "cover",
            cover.odds().p(&true),
            f64::from((n - 1).min(6)) / 6.0,
        );
        assert_eq!(accomplishment_sixths(n, false), n.min(6));
    }
    let t = AccomplishmentToss {
        capacity: 4,
        charge_cover: false,
    };
    assert!(t.passes(4) && !t.passes(5));
    let t = AccomplishmentToss {
        capacity: 4,
        charge_cover: true,
    };
    assert!(t.passes(3) && !t.passes(4));
}

#[test]
fn north_mov_06_artillery_counts_crew_figures() {
    // NORTH-MOV-06 / NORTH-CAS-06
    let mut b = duel(
        gun(),
        UnitSpec::artillery("x", Quality::Elite),
        inf(),
        inf(),
        Options::default(),
    );
    let o = Options::default();
    let (u1, u2) = (id(&b, "U1"), id(&b, "U2"));
    assert_eq!(b.unit(u1).unwrap().capacity(&o), 4);
    assert_eq!(b.unit(u2).unwrap().capacity(&o), 6);
    morale_result(
        &mut b,
        u1,
        MoraleBand::Choice,
        Some(acw_north::morale::Choice::LoseStand),
        Default::default(),
        true,
    )
    .unwrap();
    assert_eq!(b.unit(u1).unwrap().capacity(&o), 2);
    p(
        "standard battery less a stand",
        AccomplishmentToss::for_unit(b.unit(u1).unwrap(), &o)
            .odds()
            .p(&true),
        2.0 / 6.0,
    );
}

#[test]
fn north_mov_07_actions_needing_the_toss_one_a_phase() {
    // NORTH-MOV-07: formation change on the toss; a standard unit fails on 5.
    let (mut b, c1, c2, _) = at_units(inf(), inf(), Options::default());
    let r = b
        .attempt_formation_change(c1, Formation::Column, &mut dice([5]))
        .unwrap();
    assert!(!r.success && r.face == Some(5));
    assert_eq!(b.unit(c1).unwrap().formation(), Formation::Line);
    assert_eq!(
        b.attempt_formation_change(c1, Formation::Column, &mut dice([1])),
        Err(RuleViolation::AlreadyActed(c1))
    );
    let r = b
        .attempt_formation_change(c2, Formation::Skirmish, &mut dice([4]))
        .unwrap();
    assert!(r.success);
}

#[test]
fn north_mov_08_a_formation_change_is_the_move() {
    // NORTH-MOV-08
    let (mut b, c1, _, _) = at_units(inf(), inf(), Options::default());
    b.attempt_formation_change(c1, Formation::Column, &mut dice([1]))
        .unwrap();
    assert_eq!(
        b.move_unit(c1, &toward(10.0), &mut dice([])),
        Err(RuleViolation::AlreadyActed(c1))
    );
}

#[test]
fn north_mov_09_after_a_failed_toss_and_north_opt_10() {
    // NORTH-MOV-09: under Advance the unit still makes its ordered move in its current formation.
    let (mut b, c1, _, _) = at_units(inf(), inf(), Options::default());
    let r = b
        .attempt_formation_change(c1, Formation::Column, &mut dice([6]))
        .unwrap();
    assert_eq!(r.after_failure, Some(AfterFailure::OrderedMove));
    assert_eq!(
        b.move_unit(c1, &toward(5.0), &mut dice([])).unwrap().moved,
        Inches(5.0)
    );
    assert_eq!(
        b.move_unit(c1, &toward(5.0), &mut dice([])),
        Err(RuleViolation::AlreadyActed(c1))
    );
    // A not-deployed unit whose move would reach an enemy stands in place...
    let col = || inf().in_formation(Formation::Column);
    let (mut b, c1, _, _) = at_units(col(), col(), Options::default());
    b.attempt_formation_change(c1, Formation::Line, &mut dice([6]))
        .unwrap();
    let near = MoveOrder {
        stopped_by: Some(MoveStop::ContactGap),
        would_contact: true,
        ..toward(4.0)
    };
    assert_eq!(
        b.move_unit(c1, &near, &mut dice([])),
        Err(RuleViolation::MustStandInPlace(c1))
    );
    // ...or, under NORTH-OPT-10, stops short.
    let mut o = Options::default();
    o.non_deployed_contact_halt = NonDeployedContactHalt::StopShort;
    let (mut b, c1, _, _) = at_units(col(), col(), o);
    b.attempt_formation_change(c1, Formation::Line, &mut dice([6]))
        .unwrap();
    assert_eq!(
        b.move_unit(c1, &near, &mut dice([])).unwrap().moved,
        Inches(4.0)
    );
    // Under Hold a failure means staying put.
    assert_eq!(
        acw_north::movement::after_failure(
            BrigadeOrder::Hold,
            acw_north::state::Activity::FormationChange,
            false,
            &Options::default()
        ),
        AfterFailure::Stay
    );
}

#[test]
fn north_mov_10_artillery_unlimbers_under_orders_and_north_opt_11() {
    // NORTH-MOV-10: a battery under Advance may unlimber (toss on figures), which halts it.
    let limbered = || gun().in_formation(Formation::Limbered);
    let (mut b, c1, c2, _) = at_units(limbered(), limbered(), Options::default());
    let r = b
        .attempt_formation_change(c1, Formation::Unlimbered, &mut dice([5]))
        .unwrap();
    assert!(!r.success);
    assert_eq!(r.after_failure, Some(AfterFailure::OrderedMove));
    assert_eq!(
        b.move_unit(c1, &toward(10.0), &mut dice([])).unwrap().moved,
        Inches(10.0)
    );
    assert!(
        b.attempt_formation_change(c2, Formation::Unlimbered, &mut dice([4]))
            .unwrap()
            .success
    );
    assert_eq!(b.order_of(c2).unwrap(), BrigadeOrder::Advance);
    assert_eq!(
        allowance(b.unit(c2).unwrap(), FireIntent::NoFire, b.options()),
        Inches(0.0)
    );
    // NORTH-OPT-11: no toss (no die is used).
    let mut o = Options::default();
    o.artillery_unlimber_automatic = true;
    let (mut b, c1, _, _) = at_units(limbered(), limbered(), o);
    let mut d = dice([]);
    let r = b
        .attempt_formation_change(c1, Formation::Unlimbered, &mut d)
        .unwrap();
    assert!(r.success && r.face.is_none());
    assert!(acw_core::Dice::fault(&d).is_none());
}

#[test]
fn north_mov_11_contact_only_by_a_passed_charge() {
    // NORTH-MOV-11
    let (mut b, c1, _, _) = at_units(inf(), inf(), Options::default());
    let into = MoveOrder {
        would_contact: true,
        ..toward(5.0)
    };
    assert_eq!(
        b.move_unit(c1, &into, &mut dice([])),
        Err(RuleViolation::MayNotContact(c1))
    );
}

#[test]
fn north_mov_12_obstacle_toss_and_north_opt_12_13() {
    // NORTH-MOV-12: 1-4 crosses, 5-6 no movement.
    let one = ObstacleToss {
        obstacles: 2,
        per_obstacle: false,
    };
    p("cross", one.odds().p(&ObstacleOutcome::Crossed), 4.0 / 6.0);
    p(
        "halt",
        one.odds().p(&ObstacleOutcome::HaltedBefore(0)),
        2.0 / 6.0,
    );
    let (mut b, c1, c2, _) = at_units(inf(), inf(), Options::default());
    let fence = MoveOrder {
        obstacles_at: vec![Inches(2.0)],
        ..toward(5.0)
    };
    let r = b.move_unit(c1, &fence, &mut dice([5])).unwrap();
    assert_eq!(
        (r.obstacle, r.moved),
        (Some(ObstacleOutcome::HaltedBefore(0)), Inches(0.0))
    );
    let r = b.move_unit(c2, &fence, &mut dice([4])).unwrap();
    assert_eq!(
        (r.obstacle, r.moved),
        (Some(ObstacleOutcome::Crossed), Inches(5.0))
    );
    // NORTH-OPT-12: one toss per obstacle; the unit stops before the first it fails.
    let per = ObstacleToss {
        obstacles: 2,
        per_obstacle: true,
    };
    p("both", per.odds().p(&ObstacleOutcome::Crossed), 16.0 / 36.0);
    p(
        "stop at second",
        per.odds().p(&ObstacleOutcome::HaltedBefore(1)),
        8.0 / 36.0,
    );
    let mut o = Options::default();
    o.obstacle_toss_per_obstacle = true;
    let (mut b, c1, _, _) = at_units(inf(), inf(), o);
    let two = MoveOrder {
        obstacles_at: vec![Inches(1.0), Inches(3.0)],
        ..toward(5.0)
    };
    let r = b.move_unit(c1, &two, &mut dice([2, 6])).unwrap();
    assert_eq!(
        (r.obstacle, r.moved),
        (Some(ObstacleOutcome::HaltedBefore(1)), Inches(3.0))
    );
    // NORTH-OPT-13: skirmishers cross with no toss.
    let sk = || inf().in_formation(Formation::Skirmish);
    let mut o = Options::default();
    o.skirmishers_exempt_from_obstacle_toss = true;
    let (mut b, c1, _, _) = at_units(sk(), sk(), o);
    let r = b
        .move_unit(
            c1,
            &MoveOrder {
                obstacles_at: vec![Inches(1.0)],
                ..toward(10.0)
            },
            &mut dice([]),
        )
        .unwrap();
    assert_eq!((r.obstacle, r.moved), (None, Inches(10.0)));
    let (mut b, c1, _, _) = at_units(sk(), sk(), Options::default());
    let r = b
        .move_unit(
            c1,
            &MoveOrder {
                obstacles_at: vec![Inches(1.0)],
                ..toward(10.0)
            },
            &mut dice([6]),
        )
        .unwrap();
    assert_eq!(r.moved, Inches(0.0));
}

#[test]
fn north_mov_13_mixed_brigades_conform_to_the_slowest() {
    // NORTH-MOV-13: a column (10") conforms to the line infantry (5"); the unlimbered gun (0") is ignored.
    let mut b = custom(
        vec![brigade(
            "U",
            BrigadeOrder::Advance,
            vec![
                UnitSpec {
                    name: "U1".into(),
                    ..inf()
                },
                UnitSpec {
                    name: "U2".into(),
                    ..inf()
                },
            ],
        )],
        vec![brigade(
            "C",
            BrigadeOrder::Advance,
            vec![
                UnitSpec {
                    name: "C1".into(),
                    ..inf().in_formation(Formation::Column)
                },
                UnitSpec {
                    name: "C2".into(),
                    ..inf()
                },
                UnitSpec {
                    name: "C3".into(),
                    ..gun()
                },
            ],
        )],
        Options::default(),
    );
    skip_to(&mut b, Step::Units).unwrap();
    let c1 = id(&b, "C1");
    assert_eq!(
        b.brigade_conform_allowance(brigade_of(&b, c1)).unwrap(),
        Inches(5.0)
    );
    let conform = MoveOrder {
        stopped_by: Some(MoveStop::Conform),
        ..toward(5.0)
    };
    assert_eq!(
        b.move_unit(c1, &conform, &mut dice([])).unwrap().moved,
        Inches(5.0)
    );
    // Without conforming, a short move is refused.
    let c2 = id(&b, "C2");
    assert!(
        b.move_unit(
            c2,
            &MoveOrder {
                stopped_by: Some(MoveStop::Conform),
                ..toward(6.0)
            },
            &mut dice([])
        )
        .is_err()
    );
}

#[test]
fn north_mov_14_measuring_moves() {
    // NORTH-MOV-14: the farthest stand's path; toward the enemy means closer to his base edge.
    let t = Table::default();
    let from = Point::new(10.0, 10.0);
    assert!((t.gain_toward_enemy(Side::Union, from, Point::new(10.0, 15.0)) - 5.0).abs() < 1e-9);
    assert!(t.gain_toward_enemy(Side::Confederate, from, Point::new(10.0, 15.0)) < 0.0);
}

#[test]
fn north_mov_15_withdraw_from_melee() {
    // NORTH-MOV-15
    let (mut b, c1, c2, u1) = at_units(inf(), inf(), Options::default());
    assert_eq!(
        b.attempt_withdraw_from_melee(c2, Inches(3.0), 0, &mut dice([1])),
        Err(RuleViolation::NotInContact(c2))
    );
    in_contact(&mut b, c1, u1);
    skip_to(&mut b, Step::Melee).unwrap();
    b.end_phase(&acw_north::victory::StandardEnd).unwrap();
    skip_to(&mut b, Step::Melee).unwrap();
    b.end_phase(&acw_north::victory::StandardEnd).unwrap();
    skip_to(&mut b, Step::Units).unwrap();
    // Failure: stays in contact.
    let r = b
        .attempt_withdraw_from_melee(c1, Inches(5.0), 0, &mut dice([5]))
        .unwrap();
    assert_eq!(
        (r.success, r.after_failure),
        (false, Some(AfterFailure::Stay))
    );
    assert_eq!(b.unit(c1).unwrap().contacts(), &[u1]);
    skip_to(&mut b, Step::Melee).unwrap();
    b.end_phase(&acw_north::victory::StandardEnd).unwrap();
    skip_to(&mut b, Step::Melee).unwrap();
    b.end_phase(&acw_north::victory::StandardEnd).unwrap();
    skip_to(&mut b, Step::Units).unwrap();
    assert!(matches!(
        b.attempt_withdraw_from_melee(c1, Inches(6.0), 0, &mut dice([1])),
        Err(RuleViolation::MoveTooLong { .. })
    ));
    let r = b
        .attempt_withdraw_from_melee(c1, Inches(5.0), 0, &mut dice([4]))
        .unwrap();
    assert!(r.success);
    assert!(b.unit(c1).unwrap().contacts().is_empty() && b.unit(u1).unwrap().contacts().is_empty());
}

#[test]
fn north_mov_15_unlimbered_guns_cannot_withdraw() {
    // NORTH-MOV-15: a battery in contact has 0" and cannot leave.
    let mut b = duel(inf(), inf(), gun(), inf(), Options::default());
    let (c1, u1) = (id(&b, "C1"), id(&b, "U1"));
    goto(&mut b, Side::Union, Step::Units);
    in_contact(&mut b, u1, c1);
    goto(&mut b, Side::Confederate, Step::Units);
    assert_eq!(
        b.attempt_withdraw_from_melee(c1, Inches(1.0), 0, &mut dice([1])),
        Err(RuleViolation::CannotMove(c1))
    );
}

#[test]
fn north_mov_16_skirmish_order_and_north_opt_35() {
    // NORTH-MOV-16: infantry skirmishers are deployed, may not charge.
    let (mut b, c1, c2, u1) = at_units(
        inf().in_formation(Formation::Skirmish),
        cav(),
        Options::default(),
    );
    assert!(b.unit(c1).unwrap().is_deployed());
    assert_eq!(
        b.attempt_charge(
            c1,
            u1,
            ChargeOrder {
                distance: Inches(2.0),
                ..ChargeOrder::default()
            },
            &mut dice([1])
        ),
        Err(RuleViolation::CannotCharge {
            unit: c1,
            reason: ChargeRefusal::Skirmishers
        })
    );
    assert!(matches!(
        b.attempt_formation_change(c2, Formation::Skirmish, &mut dice([1])),
        Err(RuleViolation::IllegalFormation { .. })
    ));
    assert_eq!(
        b.attempt_skirmisher_fall_back(c2, &mut dice([1])),
        Err(RuleViolation::NotSkirmishers(c2))
    );
    assert_eq!(acw_north::tables::SKIRMISH_FRONTAGE, Inches(10.0));
    assert_eq!(acw_north::tables::SKIRMISH_FRONT_FIGURES, 4);
    // NORTH-OPT-35: dismounted cavalry may skirmish.
    let o = Options::default();
    assert!(!formation_is_legal(
        Troop::DismountedCavalry,
        Formation::Skirmish,
        &o
    ));
    let mut o2 = Options::default();
    o2.dismounted_cavalry_skirmish = true;
    assert!(formation_is_legal(
        Troop::DismountedCavalry,
        Formation::Skirmish,
        &o2
    ));
    let (mut b, c1, _, _) = at_units(cav().dismounted(), inf(), o2);
    assert!(
        b.attempt_formation_change(c1, Formation::Skirmish, &mut dice([4]))
            .unwrap()
            .success
    );
}

#[test]
fn north_mov_17_skirmishers_move_ten_or_five_and_fire() {
    // NORTH-MOV-17
    let sk = || inf().in_formation(Formation::Skirmish);
    let o = Options::default();
    assert_eq!(
        movement_allowance(Troop::Infantry, Formation::Skirmish, FireIntent::NoFire, &o),
        Some(Inches(10.0))
    );
    assert_eq!(
        movement_allowance(Troop::Infantry, Formation::Skirmish, FireIntent::Fire, &o),
        Some(Inches(5.0))
    );
    let (mut b, c1, c2, u1) = at_units(sk(), sk(), o);
    b.move_unit(c1, &toward(10.0), &mut dice([])).unwrap();
    let fire5 = MoveOrder {
        intent: FireIntent::Fire,
        ..toward(5.0)
    };
    assert!(matches!(
        b.move_unit(
            c2,
            &MoveOrder {
                intent: FireIntent::Fire,
                ..toward(6.0)
            },
            &mut dice([])
        ),
        Err(RuleViolation::MoveTooLong { .. })
    ));
    b.move_unit(c2, &fire5, &mut dice([])).unwrap();
    skip_to(&mut b, Step::Musketry).unwrap();
    let g = |a| AttackGroup {
        category: Category::Musketry,
        target: u1,
        attackers: vec![a],
    };
    assert_eq!(
        b.attack(
            &g(c1),
            &[Sight::clear(Inches(10.0))],
            false,
            &MoraleResponse::default(),
            &mut dice([1])
        ),
        Err(RuleViolation::CannotAttack {
            unit: c1,
            category: Category::Musketry,
            reason: AttackRefusal::MovedTooFar
        })
    );
    assert!(
        b.attack(
            &g(c2),
            &[Sight::clear(Inches(10.0))],
            false,
            &MoraleResponse::default(),
            &mut dice([1])
        )
        .is_ok()
    );
}

#[test]
fn north_mov_18_skirmishers_fall_back_and_reform() {
    // NORTH-MOV-18: success: 10" back, in column, out of contact.
    let sk = || inf().in_formation(Formation::Skirmish);
    let mut b = duel(inf(), inf(), sk(), sk(), Options::default());
    let (c1, c2, u1, u2) = (id(&b, "C1"), id(&b, "C2"), id(&b, "U1"), id(&b, "U2"));
    goto(&mut b, Side::Union, Step::Units);
    in_contact(&mut b, u1, c1);
    in_contact(&mut b, u2, c2);
    goto(&mut b, Side::Confederate, Step::Units);
    let r = b.attempt_skirmisher_fall_back(c1, &mut dice([4])).unwrap();
    assert!(r.success);
    let c = b.unit(c1).unwrap();
    assert_eq!(
        (c.formation(), c.phase().moved, c.in_contact()),
        (Formation::Column, Inches(10.0), false)
    );
    let r = b.attempt_skirmisher_fall_back(c2, &mut dice([5])).unwrap();
    assert_eq!(
        (r.success, r.after_failure),
        (false, Some(AfterFailure::Stay))
    );
    assert!(b.unit(c2).unwrap().in_contact());
}

#[test]
fn north_mov_19_dismounting() {
    // NORTH-MOV-19: N mounted stands become N-1 dismounted + a holder, in line; a 5 fails for 4 stands.
    let (mut b, c1, c2, _) = at_units(
        cav().in_formation(Formation::Column),
        cav(),
        Options::default(),
    );
    let r = b.attempt_dismount(c1, &mut dice([4])).unwrap();
    assert!(r.success);
    let u = b.unit(c1).unwrap();
    assert_eq!(
        (
            u.mount(),
            u.has_horse_holder(),
            u.formation(),
            u.current_stands()
        ),
        (Mount::Dismounted, true, Formation::Line, 4)
    );
    assert_eq!(u.figures(), 6);
    let r = b.attempt_dismount(c2, &mut dice([5])).unwrap();
    assert!(!r.success);
    assert_eq!(b.unit(c2).unwrap().mount(), Mount::Mounted);
    let (mut b, c1, _, _) = at_units(inf(), inf(), Options::default());
    assert!(matches!(
        b.attempt_dismount(c1, &mut dice([1])),
        Err(RuleViolation::WrongTroop { .. })
    ));
}

#[test]
fn north_mov_20_dismounted_movement_and_north_opt_06() {
    // NORTH-MOV-20 / NORTH-OPT-06
    let a = |m: DismountedMove, f, i| {
        let mut o = Options::default();
        o.dismounted_move = m;
        movement_allowance(Troop::DismountedCavalry, f, i, &o).unwrap()
    };
    assert_eq!(
        a(
            DismountedMove::TenOrFiveAndFire,
            Formation::Line,
            FireIntent::NoFire
        ),
        Inches(10.0)
    );
    assert_eq!(
        a(
            DismountedMove::TenOrFiveAndFire,
            Formation::Line,
            FireIntent::Fire
        ),
        Inches(5.0)
    );
    assert_eq!(
        a(DismountedMove::Table5, Formation::Line, FireIntent::NoFire),
        Inches(5.0)
    );
    assert_eq!(
        a(
            DismountedMove::Table5,
            Formation::Column,
            FireIntent::NoFire
        ),
        Inches(10.0)
    );
    assert_eq!(
        a(DismountedMove::Always10, Formation::Line, FireIntent::Fire),
        Inches(10.0)
    );
    // Under the default, dismounted cavalry that moved 10" do not fire.
    let (mut b, c1, _, u1) = at_units(cav().dismounted(), inf(), Options::default());
    b.move_unit(c1, &toward(10.0), &mut dice([])).unwrap();
    skip_to(&mut b, Step::Musketry).unwrap();
    let g = AttackGroup {
        category: Category::Musketry,
        target: u1,
        attackers: vec![c1],
    };
    assert!(matches!(
        b.attack(
            &g,
            &[Sight::clear(Inches(10.0))],
            false,
            &MoraleResponse::default(),
            &mut dice([1])
        ),
        Err(RuleViolation::CannotAttack {
            reason: AttackRefusal::MovedTooFar,
            ..
        })
    ));
}

#[test]
fn north_mov_21_remounting_and_north_opt_30() {
    // NORTH-MOV-21: 3 + 1 becomes 4 mounted stands, in line by default (in column under NORTH-OPT-30).
    let (mut b, c1, c2, _) = at_units(cav().dismounted(), cav().dismounted(), Options::default());
    assert!(b.attempt_remount(c1, &mut dice([4])).unwrap().success);
    let u = b.unit(c1).unwrap();
    assert_eq!(
        (
            u.mount(),
            u.has_horse_holder(),
            u.formation(),
            u.current_stands()
        ),
        (Mount::Mounted, false, Formation::Line, 4)
    );
    assert!(!b.attempt_remount(c2, &mut dice([5])).unwrap().success);
    let mut o = Options::default();
    o.remount_formation = RemountFormation::Column;
    let (mut b, c1, _, _) = at_units(cav().dismounted(), cav(), o);
    b.attempt_remount(c1, &mut dice([1])).unwrap();
    assert_eq!(b.unit(c1).unwrap().formation(), Formation::Column);
    let (mut b, c1, _, _) = at_units(cav(), cav(), Options::default());
    assert!(matches!(
        b.attempt_remount(c1, &mut dice([1])),
        Err(RuleViolation::WrongTroop { .. })
    ));
}

#[test]
fn north_mov_22_dismounted_cavalry_count_as_infantry() {
    // NORTH-MOV-22: 18" fire, 10" fall-back, not "mounted" for modifiers, removed below 3 counting the holder.
    let b = duel(cav().dismounted(), inf(), inf(), inf(), Options::default());
    let u = b.unit(id(&b, "U1")).unwrap();
    let o = Options::default();
    assert_eq!(
        acw_north::combat::firer_kind(u),
        Some(acw_north::tables::Firer::DismountedCavalry)
    );
    assert_eq!(
        acw_north::tables::musketry_range(acw_north::tables::Firer::DismountedCavalry, &o),
        Inches(18.0)
    );
    assert_eq!(fall_back_distance(u.troop()), Inches(10.0));
    assert_eq!(fall_back_distance(Troop::MountedCavalry), Inches(15.0));
    assert!(!u.is_mounted_cavalry());
    assert_eq!(charge_reach(u.troop(), &o), Some(Inches(10.0)));
    // 4 stands (3 + holder): the second loss removes it.
    assert!(!u.next_loss_removes(&o));
}

#[test]
fn north_mov_23_units_in_contact_stay_put() {
    // NORTH-MOV-23
    let (mut b, c1, _, u1) = at_units(inf(), inf(), Options::default());
    in_contact(&mut b, c1, u1);
    goto(&mut b, Side::Union, Step::Units);
    assert_eq!(
        b.move_unit(u1, &toward(5.0), &mut dice([])),
        Err(RuleViolation::InContact(u1))
    );
    assert_eq!(
        b.attempt_formation_change(u1, Formation::Column, &mut dice([1])),
        Err(RuleViolation::InContact(u1))
    );
}

#[test]
fn north_mov_24_unlimbered_guns_pivot_and_north_opt_32() {
    // NORTH-MOV-24 / NORTH-OPT-32
    let (mut b, c1, c2, _) = at_units(
        gun(),
        gun().in_formation(Formation::Limbered),
        Options::default(),
    );
    assert!(b.pivot_gun(c1).is_ok());
    assert_eq!(b.pivot_gun(c1), Err(RuleViolation::AlreadyActed(c1)));
    assert!(matches!(
        b.pivot_gun(c2),
        Err(RuleViolation::IllegalFormation { .. })
    ));
    let mut o = Options::default();
    o.no_artillery_pivot = true;
    let (mut b, c1, _, _) = at_units(gun(), gun(), o);
    assert_eq!(
        b.pivot_gun(c1),
        Err(RuleViolation::OptionForbids("no_artillery_pivot"))
    );
}

#[test]
fn north_art_05_artillery_never_charges() {
    // NORTH-ART-05
    let (mut b, c1, _, u1) = at_units(gun(), inf(), Options::default());
    assert_eq!(
        b.attempt_charge(
            c1,
            u1,
            ChargeOrder {
                distance: Inches(1.0),
                ..ChargeOrder::default()
            },
            &mut dice([1])
        ),
        Err(RuleViolation::CannotCharge {
            unit: c1,
            reason: ChargeRefusal::Artillery
        })
    );
    assert_eq!(charge_reach(Troop::Artillery, &Options::default()), None);
}

#[test]
fn north_art_06_guns_stay_in_place() {
    // NORTH-ART-06: the crew falls back, the gun stays (abandoned, unlimbered); the crew cannot fire, is not
    // deployed, still tosses on figures.
    let mut b = duel(gun(), inf(), inf(), inf(), Options::default());
    let u1 = id(&b, "U1");
    let e = morale_result(
        &mut b,
        u1,
        MoraleBand::Choice,
        Some(acw_north::morale::Choice::FallBack),
        Default::default(),
        true,
    )
    .unwrap();
    assert!(e.gun_abandoned);
    let u = b.unit(u1).unwrap();
    assert_eq!(
        u.gun(),
        Some(GunState::Abandoned {
            left_in: Formation::Unlimbered
        })
    );
    assert_eq!(u.formation(), Formation::Limbered);
    assert!(!u.is_deployed() && u.crew_without_gun() && u.in_play());
    assert_eq!(u.capacity(&Options::default()), 4);
    assert_eq!(
        allowance(u, FireIntent::NoFire, &Options::default()),
        Inches(10.0)
    );
    goto(&mut b, Side::Union, Step::Units);
    assert_eq!(
        b.attempt_formation_change(u1, Formation::Unlimbered, &mut dice([1])),
        Err(RuleViolation::NoGun(u1))
    );
    skip_to(&mut b, Step::Artillery).unwrap();
    let g = AttackGroup {
        category: Category::Artillery,
        target: id(&b, "C1"),
        attackers: vec![u1],
    };
    assert!(matches!(
        b.attack(
            &g,
            &[Sight::clear(Inches(10.0))],
            false,
            &MoraleResponse::default(),
            &mut dice([6])
        ),
        Err(RuleViolation::CannotAttack {
            reason: AttackRefusal::NoGun,
            ..
        })
    ));
    // Eliminated: the gun stays too.
    let mut b = duel(
        UnitSpec::artillery("x", Quality::Poor),
        inf(),
        inf(),
        inf(),
        Options::default(),
    );
    let u1 = id(&b, "U1");
    morale_result(&mut b, u1, MoraleBand::Both, None, Default::default(), true).unwrap();
    assert_eq!(
        b.unit(u1).unwrap().gun(),
        Some(GunState::Abandoned {
            left_in: Formation::Unlimbered
        })
    );
    assert!(!b.unit(u1).unwrap().in_play());
}

#[test]
fn north_art_07_crews_reman_their_guns_and_north_opt_20() {
    // NORTH-ART-07 / NORTH-OPT-20 (a)
    let setup = |o: Options| {
        let mut b = duel(gun(), inf(), inf(), inf(), o);
        let u1 = id(&b, "U1");
        morale_result(
            &mut b,
            u1,
            MoraleBand::Choice,
            Some(acw_north::morale::Choice::FallBack),
            Default::default(),
            true,
        )
        .unwrap();
        goto(&mut b, Side::Union, Step::Units);
        (b, u1)
    };
    let (mut b, u1) = setup(Options::default());
    assert!(matches!(
        b.reman_gun(u1, Inches(11.0)),
        Err(RuleViolation::MoveTooLong { .. })
    ));
    b.reman_gun(u1, Inches(10.0)).unwrap();
    let u = b.unit(u1).unwrap();
    assert_eq!(
        (u.gun(), u.formation(), u.is_deployed()),
        (Some(GunState::Manned), Formation::Unlimbered, true)
    );
    let mut o = Options::default();
    o.crew_may_reman_gun = false;
    let (mut b, u1) = setup(o);
    assert_eq!(
        b.reman_gun(u1, Inches(10.0)),
        Err(RuleViolation::OptionForbids("crew_may_reman_gun"))
    );
}

#[test]
fn north_art_08_abandoned_guns_are_captured() {
    // NORTH-ART-08 / NORTH-OPT-20 (b)
    let make = |o: Options| {
        let mut b = duel(gun(), inf(), inf(), gun(), o);
        let u1 = id(&b, "U1");
        morale_result(
            &mut b,
            u1,
            MoraleBand::Choice,
            Some(acw_north::morale::Choice::FallBack),
            Default::default(),
            true,
        )
        .unwrap();
        skip_to(&mut b, Step::Units).unwrap();
        (b, u1)
    };
    let (mut b, u1) = make(Options::default());
    let (c1, c2) = (id(&b, "C1"), id(&b, "C2"));
    assert!(matches!(
        b.capture_gun(c2, u1),
        Err(RuleViolation::WrongTroop { .. })
    ));
    b.capture_gun(c1, u1).unwrap();
    assert_eq!(
        b.unit(u1).unwrap().gun(),
        Some(GunState::Captured {
            by: Side::Confederate
        })
    );
    assert_eq!(b.report(Side::Union).guns_lost_to_capture, 1);
    goto(&mut b, Side::Union, Step::Units);
    assert_eq!(
        b.reman_gun(u1, Inches(5.0)),
        Err(RuleViolation::GunNotAbandoned(u1))
    );
    let mut o = Options::default();
    o.enemy_captures_abandoned_guns = false;
    let (mut b, u1) = make(o);
    assert_eq!(
        b.capture_gun(id(&b, "C1"), u1),
        Err(RuleViolation::OptionForbids(
            "enemy_captures_abandoned_guns"
        ))
    );
}

#[test]
fn north_art_10_limbering_on_crew_figures() {
    // NORTH-ART-10: standard battery passes on 1-4, elite always, poor on 1-2.
    let (mut b, c1, c2, _) = at_units(
        gun(),
        UnitSpec::artillery("x", Quality::Elite),
        Options::default(),
    );
    assert!(
        b.attempt_formation_change(c1, Formation::Limbered, &mut dice([4]))
            .unwrap()
            .success
    );
    assert!(
        b.attempt_formation_change(c2, Formation::Limbered, &mut dice([6]))
            .unwrap()
            .success
    );
    let (mut b, c1, _, _) = at_units(
        UnitSpec::artillery("x", Quality::Poor),
        gun(),
        Options::default(),
    );
    assert!(
        !b.attempt_formation_change(c1, Formation::Limbered, &mut dice([3]))
            .unwrap()
            .success
    );
}
