//! Orders, generals, rallies and the brigade order check (NORTH-CMD-*, NORTH-OPT-15 to NORTH-OPT-19,
//! NORTH-OPT-29).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::measure::Inches;
use acw_core::{Resolve, Side};
use acw_north::combat::{AttackGroup, Category, Sight};
use acw_north::command::{OrderChangeToss, OrderCheck, OrderTarget, RallyToss, general_is_with};
use acw_north::error::{ChargeRefusal, RallyRefusal};
use acw_north::melee::ChargeOrder;
use acw_north::morale::{MoraleReport, MoraleResponse, RallyPolicy};
use acw_north::movement::{MoveDirection, MoveOrder, MoveStop};
use acw_north::sequence::Step;
use acw_north::setup::UnitSpec;
use acw_north::state::{GeneralId, GeneralStatus};
use acw_north::tables::{
    BrigadeOrder, Formation, MgPlacement, MoraleBand, Quality, RallyResult, mg_placement,
    order_check_band, order_shown_by, rally_effect,
};
use acw_north::victory::StandardEnd;
use acw_north::{Battle, Options, RuleViolation, UnitId};
use common::*;

/// In the Union phase of turn 1, puts `general` with `unit`; returns at the Confederate command step of turn 2.
fn put_with(b: &mut Battle, general: GeneralId, unit: UnitId) {
    goto(b, Side::Union, Step::Command);
    b.move_general(general, Inches(5.0), Some(unit)).unwrap();
    skip_to(b, Step::Melee).unwrap();
    b.end_phase(&StandardEnd).unwrap();
    assert_eq!(b.clock().phasing(), Side::Confederate);
}

/// The Confederate first battery fires at `target`; the response is `response`.
fn shell(b: &mut Battle, target: UnitId, response: &MoraleResponse, faces: &[u16]) -> MoraleReport {
    let gun = id(b, "CSA 1st Bde, Battery");
    skip_to(b, Step::Artillery).unwrap();
    let g = AttackGroup {
        category: Category::Artillery,
        target,
        attackers: vec![gun],
    };
    let mut d = acw_core::dice::ScriptedDice::faces(faces.iter().copied());
    let r = b
        .attack(&g, &[Sight::clear(Inches(10.0))], false, response, &mut d)
        .unwrap();
    assert!(
        d.finish().is_ok() && d.remaining() == 0,
        "dice left: {}",
        d.remaining()
    );
    r.morale.unwrap()
}

fn rally(by: Vec<GeneralId>) -> MoraleResponse {
    MoraleResponse {
        rally_by: by,
        generals_follow: true,
        ..MoraleResponse::default()
    }
}

fn move_toward(d: f64) -> MoveOrder {
    MoveOrder {
        distance: Inches(d),
        direction: Some(MoveDirection::TowardEnemy),
        ..MoveOrder::default()
    }
}

#[test]
fn north_cmd_01_every_unit_follows_its_brigade_order() {
    // NORTH-CMD-01
    let mut b = battle();
    let u = id(&b, "USA 1st Bde, Regt 2");
    assert_eq!(b.order_of(u).unwrap(), BrigadeOrder::Advance);
    let br = brigade_of(&b, u);
    goto(&mut b, Side::Union, Step::Command);
    b.attempt_order_change(br, BrigadeOrder::Hold, &mut dice([6]))
        .unwrap();
    for &unit in b.brigade(br).unwrap().units() {
        assert_eq!(b.order_of(unit).unwrap(), BrigadeOrder::Hold);
    }
}

#[test]
fn north_cmd_02_advance_moves_toward_the_enemy() {
    // NORTH-CMD-02
    let mut b = battle();
    let u = id(&b, "CSA 1st Bde, Regt 1");
    skip_to(&mut b, Step::Units).unwrap();
    let back = MoveOrder {
        direction: Some(MoveDirection::AwayFromEnemy),
        ..move_toward(5.0)
    };
    assert_eq!(
        b.move_unit(u, &back, &mut dice([])),
        Err(RuleViolation::OrderForbidsMove {
            unit: u,
            order: BrigadeOrder::Advance
        })
    );
    let r = b.move_unit(u, &move_toward(5.0), &mut dice([])).unwrap();
    assert_eq!(r.moved, Inches(5.0));
    assert_eq!(b.unit(u).unwrap().phase().moved, Inches(5.0));
}

#[test]
fn north_cmd_03_hold_makes_no_voluntary_move() {
    // NORTH-CMD-03: no move, but formation changes and charges are allowed.
    let s = || UnitSpec::infantry("x", Quality::Standard);
    let mut b = custom(
        vec![brigade(
            "U",
            BrigadeOrder::Advance,
            vec![
                UnitSpec {
                    name: "U1".into(),
                    ..s()
                },
                UnitSpec {
                    name: "U2".into(),
                    ..s()
                },
            ],
        )],
        vec![brigade(
            "C",
            BrigadeOrder::Hold,
            vec![
                UnitSpec {
                    name: "C1".into(),
                    ..s()
                },
                UnitSpec {
                    name: "C2".into(),
                    ..s()
                },
            ],
        )],
        Options::default(),
    );
    let (c1, c2) = (id(&b, "C1"), id(&b, "C2"));
    skip_to(&mut b, Step::Units).unwrap();
    assert_eq!(
        b.move_unit(c1, &move_toward(5.0), &mut dice([])),
        Err(RuleViolation::OrderForbidsMove {
            unit: c1,
            order: BrigadeOrder::Hold
        })
    );
    assert!(b.check_charger(c2).is_ok());
    let r = b
        .attempt_formation_change(c1, Formation::Column, &mut dice([6]))
        .unwrap();
    assert!(!r.success);
    assert_eq!(r.after_failure, Some(acw_north::state::AfterFailure::Stay));
}

#[test]
fn north_cmd_04_withdraw_moves_away_and_never_charges() {
    // NORTH-CMD-04 (and NORTH-OPT-36: leaving by the own edge)
    let s = || UnitSpec::infantry("x", Quality::Standard);
    let make = |o: Options| {
        custom(
            vec![brigade(
                "U",
                BrigadeOrder::Advance,
                vec![
                    UnitSpec {
                        name: "U1".into(),
                        ..s()
                    },
                    UnitSpec {
                        name: "U2".into(),
                        ..s()
                    },
                ],
            )],
            vec![brigade(
                "C",
                BrigadeOrder::Withdraw,
                vec![
                    UnitSpec {
                        name: "C1".into(),
                        ..s()
                    },
                    UnitSpec {
                        name: "C2".into(),
                        ..s()
                    },
                ],
            )],
            o,
        )
    };
    let mut b = make(Options::default());
    let (c1, c2, u1) = (id(&b, "C1"), id(&b, "C2"), id(&b, "U1"));
    skip_to(&mut b, Step::Units).unwrap();
    assert!(matches!(
        b.move_unit(c1, &move_toward(5.0), &mut dice([])),
        Err(RuleViolation::OrderForbidsMove { .. })
    ));
    assert_eq!(
        b.attempt_charge(
            c2,
            u1,
            ChargeOrder {
                distance: Inches(3.0),
                ..ChargeOrder::default()
            },
            &mut dice([1])
        ),
        Err(RuleViolation::CannotCharge {
            unit: c2,
            reason: ChargeRefusal::WithdrawOrder
        })
    );
    let away = |d: f64, edge: bool| MoveOrder {
        distance: Inches(d),
        direction: Some(MoveDirection::AwayFromEnemy),
        stopped_by: edge.then_some(MoveStop::TableEdge),
        ..MoveOrder::default()
    };
    // Stopped by the edge, it stays on the table by default.
    let r = b.move_unit(c1, &away(2.0, true), &mut dice([])).unwrap();
    assert!(!r.left_table && b.unit(c1).unwrap().in_play());
    let mut o = Options::default();
    o.exit_table_on_withdraw = true;
    let mut b = make(o);
    skip_to(&mut b, Step::Units).unwrap();
    let r = b.move_unit(c1, &away(2.0, true), &mut dice([])).unwrap();
    assert!(r.left_table);
    assert_eq!(
        b.unit(c1).unwrap().status(),
        acw_north::state::UnitStatus::LeftTable
    );
    // Moving its full 5" away is fine too.
    assert!(b.move_unit(c2, &away(5.0, false), &mut dice([])).is_ok());
}

#[test]
fn north_cmd_05_the_mg_shows_the_order() {
    // NORTH-CMD-05
    for (o, p) in [
        (BrigadeOrder::Advance, MgPlacement::InFront),
        (BrigadeOrder::Hold, MgPlacement::Behind),
        (BrigadeOrder::Withdraw, MgPlacement::BehindFacingRear),
    ] {
        assert_eq!(mg_placement(o), p);
        assert_eq!(order_shown_by(p), o);
    }
    let mut b = battle();
    let br = brigade_of(&b, id(&b, "CSA 1st Bde, Regt 1"));
    b.attempt_order_change(br, BrigadeOrder::Withdraw, &mut dice([5]))
        .unwrap();
    assert_eq!(
        mg_placement(b.brigade(br).unwrap().order()),
        MgPlacement::BehindFacingRear
    );
}

#[test]
fn north_cmd_06_army_commander_changes_orders_automatically() {
    // NORTH-CMD-06: the CSA AC starts with a unit of the 2nd (centre) brigade.
    let mut b = battle();
    let centre = brigade_of(&b, id(&b, "CSA 2nd Bde, Regt 1"));
    let first = brigade_of(&b, id(&b, "CSA 1st Bde, Regt 1"));
    let ac = b.army_commander(Side::Confederate);
    assert_eq!(
        b.army_commander_sets_order(
            Side::Confederate,
            OrderTarget::Brigade(first),
            BrigadeOrder::Hold
        ),
        Err(RuleViolation::GeneralNotWith(ac))
    );
    assert_eq!(
        b.army_commander_sets_order(
            Side::Confederate,
            OrderTarget::Unit(id(&b, "CSA 2nd Bde, Regt 1")),
            BrigadeOrder::Hold
        ),
        Err(RuleViolation::BrigadeHasLeader(centre))
    );
    b.army_commander_sets_order(
        Side::Confederate,
        OrderTarget::Brigade(centre),
        BrigadeOrder::Hold,
    )
    .unwrap();
    assert_eq!(b.brigade(centre).unwrap().order(), BrigadeOrder::Hold);
    assert_eq!(
        b.army_commander_sets_order(
            Side::Confederate,
            OrderTarget::Brigade(centre),
            BrigadeOrder::Withdraw
        ),
        Err(RuleViolation::ArmyCommanderUsed)
    );
    // The MG need not toss after the AC changed the order.
    assert_eq!(
        b.attempt_order_change(centre, BrigadeOrder::Advance, &mut dice([6])),
        Err(RuleViolation::OrderChangeUsed(centre))
    );
    // Only in his own command step.
    skip_to(&mut b, Step::Melee).unwrap();
    assert_eq!(b.end_phase(&StandardEnd), Ok(None));
    let union_centre = brigade_of(&b, id(&b, "USA 2nd Bde, Regt 1"));
    assert!(matches!(
        b.army_commander_sets_order(
            Side::Confederate,
            OrderTarget::Brigade(union_centre),
            BrigadeOrder::Hold
        ),
        Err(RuleViolation::NotPhasing { .. })
    ));
}

#[test]
fn north_cmd_07_mg_order_change_on_five_or_six() {
    // NORTH-CMD-07
    let mut b = battle();
    let b1 = brigade_of(&b, id(&b, "CSA 1st Bde, Regt 1"));
    let b3 = brigade_of(&b, id(&b, "CSA 3rd Bde, Regt 1"));
    let r = b
        .attempt_order_change(b1, BrigadeOrder::Hold, &mut dice([4]))
        .unwrap();
    assert!(!r.changed);
    assert_eq!(b.brigade(b1).unwrap().order(), BrigadeOrder::Advance);
    assert_eq!(
        b.attempt_order_change(b1, BrigadeOrder::Hold, &mut dice([6])),
        Err(RuleViolation::OrderChangeUsed(b1))
    );
    assert_eq!(
        b.attempt_order_change(b3, BrigadeOrder::Advance, &mut dice([6])),
        Err(RuleViolation::OrderUnchanged(BrigadeOrder::Advance))
    );
    let r = b
        .attempt_order_change(b3, BrigadeOrder::Withdraw, &mut dice([5]))
        .unwrap();
    assert!(r.changed && r.order == BrigadeOrder::Withdraw);
    p("order change", OrderChangeToss.odds().p(&true), 2.0 / 6.0);
}

#[test]
fn north_cmd_08_with_means_touching_by_default() {
    // NORTH-CMD-08 (with NORTH-OPT-16's WithDistance)
    let o = Options::default();
    assert!(general_is_with(Inches(0.0), &o));
    assert!(!general_is_with(Inches(0.1), &o));
    let mut o2 = Options::default();
    o2.with_distance = Inches(1.0);
    assert!(general_is_with(Inches(0.5), &o2));
    assert!(!general_is_with(Inches(f64::NAN), &o2));
}

#[test]
fn north_cmd_09_who_may_rally() {
    // NORTH-CMD-09 / NORTH-OPT-16 / NORTH-OPT-29
    let mut b = battle();
    let u = id(&b, "USA 1st Bde, Regt 1");
    let other = id(&b, "USA 3rd Bde, Regt 1");
    let mg = mg_of(&b, u);
    let csa_mg = mg_of(&b, id(&b, "CSA 1st Bde, Regt 1"));
    assert_eq!(
        b.check_rally(mg, u),
        Err(RuleViolation::CannotRally {
            general: mg,
            reason: RallyRefusal::NotWith
        })
    );
    assert_eq!(
        b.check_rally(csa_mg, u),
        Err(RuleViolation::CannotRally {
            general: csa_mg,
            reason: RallyRefusal::OtherSide
        })
    );
    put_with(&mut b, mg, u);
    assert!(b.check_rally(mg, u).is_ok());
    // With another brigade's unit, an MG still may not rally it.
    let mut b = battle();
    put_with(&mut b, mg, other);
    assert_eq!(
        b.check_rally(mg, other),
        Err(RuleViolation::CannotRally {
            general: mg,
            reason: RallyRefusal::OtherBrigade
        })
    );
    let mut o = Options::default();
    o.mg_rallies_other_brigades = true;
    let mut b = battle_with(o);
    put_with(&mut b, mg, other);
    assert!(b.check_rally(mg, other).is_ok());
    // NORTH-OPT-16 off: any distance.
    let mut o = Options::default();
    o.rally_requires_with = false;
    let b = battle_with(o);
    assert!(b.check_rally(mg, u).is_ok());
}

#[test]
fn north_cmd_10_rally_toss_table() {
    // NORTH-CMD-10
    assert_eq!(rally_effect(1, false), RallyResult::Subtract(1));
    assert_eq!(rally_effect(3, true), RallyResult::Subtract(3));
    assert_eq!(rally_effect(4, true), RallyResult::NoEffect);
    assert_eq!(rally_effect(5, false), RallyResult::NoEffect);
    assert_eq!(rally_effect(5, true), RallyResult::Captured);
    assert_eq!(rally_effect(6, false), RallyResult::Killed);
    let fire = RallyToss { melee: false }.odds();
    p(
        "fire subtract 2",
        fire.p(&RallyResult::Subtract(2)),
        1.0 / 6.0,
    );
    p("fire no effect", fire.p(&RallyResult::NoEffect), 2.0 / 6.0);
    p("fire captured", fire.p(&RallyResult::Captured), 0.0);
    p("fire killed", fire.p(&RallyResult::Killed), 1.0 / 6.0);
    let melee = RallyToss { melee: true }.odds();
    p(
        "melee no effect",
        melee.p(&RallyResult::NoEffect),
        1.0 / 6.0,
    );
    p("melee lost", melee.prob(|r| r.general_lost()), 2.0 / 6.0);
    p(
        "subtract >= 1",
        melee.prob(|r| r.subtraction() >= 1),
        3.0 / 6.0,
    );
    // Applied: a subtraction turns a 4 into a rally; the MG stays in play.
    let mut b = battle();
    let u = id(&b, "USA 1st Bde, Regt 1");
    let mg = mg_of(&b, u);
    put_with(&mut b, mg, u);
    // Hit on 6; morale 4; rally 2 -> 4 - 2 = 2: rallies.
    let m = shell(&mut b, u, &rally(vec![mg]), &[6, 4, 2]);
    assert_eq!(m.outcome.band, MoraleBand::Rallies);
    assert_eq!(m.rallies[0].1.subtract, 2);
    assert_eq!(b.general(mg).unwrap().status(), GeneralStatus::Active);
    assert_eq!(b.unit(u).unwrap().current_stands(), 4);
}

#[test]
fn north_cmd_11_brigade_order_check_when_the_mg_dies() {
    // NORTH-CMD-11
    for (current, w, h, a) in [
        (BrigadeOrder::Withdraw, 3.0, 2.0, 1.0),
        (BrigadeOrder::Hold, 2.0, 2.0, 2.0),
        (BrigadeOrder::Advance, 1.0, 2.0, 3.0),
    ] {
        let d = OrderCheck { current }.odds();
        p("withdraw", d.p(&BrigadeOrder::Withdraw), w / 6.0);
        p("hold", d.p(&BrigadeOrder::Hold), h / 6.0);
        p("advance", d.p(&BrigadeOrder::Advance), a / 6.0);
    }
    assert_eq!(order_check_band(0), BrigadeOrder::Withdraw);
    assert_eq!(order_check_band(7), BrigadeOrder::Advance);
    // Killed in a rally: hit 6, morale 4, rally 6 (killed), order check 1 (+1 from Advance = 2: Withdraw).
    let mut b = battle();
    let u = id(&b, "USA 1st Bde, Regt 1");
    let mg = mg_of(&b, u);
    let br = brigade_of(&b, u);
    put_with(&mut b, mg, u);
    let m = shell(&mut b, u, &rally(vec![mg]), &[6, 4, 6, 1]);
    assert_eq!(b.general(mg).unwrap().status(), GeneralStatus::Killed);
    assert_eq!(m.order_checks, vec![(br, BrigadeOrder::Withdraw)]);
    assert!(b.brigade(br).unwrap().is_leaderless());
    for &unit in b.brigade(br).unwrap().units() {
        assert_eq!(b.order_of(unit).unwrap(), BrigadeOrder::Withdraw);
    }
    // The morale toss went on with no subtraction: 4 is a choice, and the unit lost a stand.
    assert_eq!(m.outcome.band, MoraleBand::Choice);
    assert_eq!(b.unit(u).unwrap().current_stands(), 3);
    // No second check.
    assert_eq!(
        b.roll_order_check(br, &mut dice([6])),
        Err(RuleViolation::NoOrderCheckDue(br))
    );
}

/// The Confederate first regiment charges `target` (passing on 1) and attacks it in melee.
fn charge_and_melee(
    b: &mut Battle,
    target: UnitId,
    response: &MoraleResponse,
    faces: &[u16],
) -> MoraleReport {
    let c = id(b, "CSA 1st Bde, Regt 1");
    skip_to(b, Step::Units).unwrap();
    let mut d = acw_core::dice::ScriptedDice::faces(faces.iter().copied());
    let r = b
        .attempt_charge(
            c,
            target,
            ChargeOrder {
                distance: Inches(3.0),
                ..ChargeOrder::default()
            },
            &mut d,
        )
        .unwrap();
    assert!(r.contact);
    skip_to(b, Step::Melee).unwrap();
    let g = AttackGroup {
        category: Category::Melee,
        target,
        attackers: vec![c],
    };
    let r = b
        .attack(&g, &[Sight::contact()], false, response, &mut d)
        .unwrap();
    assert!(d.finish().is_ok() && d.remaining() == 0);
    r.morale.unwrap()
}

#[test]
fn north_cmd_12_captured_mg_and_north_opt_18() {
    // NORTH-CMD-12: by default a captured MG's brigade checks as for a killed one.
    let mut b = battle();
    let u = id(&b, "USA 1st Bde, Regt 1");
    let mg = mg_of(&b, u);
    let br = brigade_of(&b, u);
    put_with(&mut b, mg, u);
    // Charge 1; melee hit 4 (+1 first round); morale 3; rally 5 = captured in melee; order check 6 -> Advance.
    let m = charge_and_melee(&mut b, u, &rally(vec![mg]), &[1, 4, 3, 5, 6]);
    assert_eq!(b.general(mg).unwrap().status(), GeneralStatus::Captured);
    assert_eq!(m.order_checks, vec![(br, BrigadeOrder::Advance)]);
    // NORTH-OPT-18 off: no check; leaderless units keep the brigade's order.
    let mut o = Options::default();
    o.capture_triggers_order_check = false;
    let mut b = battle_with(o);
    put_with(&mut b, mg, u);
    let m = charge_and_melee(&mut b, u, &rally(vec![mg]), &[1, 4, 3, 5]);
    assert!(m.order_checks.is_empty());
    let brigade = b.brigade(br).unwrap();
    assert!(brigade.is_leaderless() && !brigade.order_check_due());
    assert_eq!(b.order_of(u).unwrap(), BrigadeOrder::Advance);
    assert_eq!(b.unit(u).unwrap().own_order(), Some(BrigadeOrder::Advance));
}

/// Kills the Union 1st brigade's MG (order check to Withdraw) and moves to the Union command step of turn 2.
fn leaderless(o: Options) -> (Battle, UnitId, UnitId) {
    let mut b = battle_with(o);
    let u = id(&b, "USA 1st Bde, Regt 1");
    let u2 = id(&b, "USA 1st Bde, Regt 2");
    let mg = mg_of(&b, u);
    put_with(&mut b, mg, u);
    shell(&mut b, u, &rally(vec![mg]), &[6, 4, 6, 1]);
    goto(&mut b, Side::Union, Step::Command);
    (b, u, u2)
}

#[test]
fn north_cmd_13_leaderless_units_hold_their_own_orders_and_north_opt_19() {
    // NORTH-CMD-13 / NORTH-OPT-19 (IndividualToss, the default)
    let (mut b, u, u2) = leaderless(Options::default());
    let br = brigade_of(&b, u);
    assert_eq!(
        b.attempt_order_change(br, BrigadeOrder::Advance, &mut dice([6])),
        Err(RuleViolation::BrigadeLeaderless(br))
    );
    let r = b
        .attempt_unit_order_change(u, BrigadeOrder::Hold, &mut dice([5]))
        .unwrap();
    assert!(r.changed);
    assert_eq!(b.order_of(u).unwrap(), BrigadeOrder::Hold);
    assert_eq!(b.order_of(u2).unwrap(), BrigadeOrder::Withdraw);
    assert_eq!(
        b.attempt_unit_order_change(u, BrigadeOrder::Advance, &mut dice([6])),
        Err(RuleViolation::AlreadyActed(u))
    );
    let r = b
        .attempt_unit_order_change(u2, BrigadeOrder::Hold, &mut dice([4]))
        .unwrap();
    assert!(!r.changed && r.order == BrigadeOrder::Withdraw);
    // Still part of the brigade (for conforming).
    assert_eq!(b.unit(u).unwrap().brigade(), br);
    // The AC with a leaderless unit may set its order.
    let ac = b.army_commander(Side::Union);
    let u3 = id(&b, "USA 1st Bde, Regt 3");
    b.move_general(ac, Inches(10.0), Some(u3)).unwrap();
    b.army_commander_sets_order(Side::Union, OrderTarget::Unit(u3), BrigadeOrder::Advance)
        .unwrap();
    assert_eq!(b.order_of(u3).unwrap(), BrigadeOrder::Advance);
    // ArmyCommanderOnly: no tosses.
    let mut o = Options::default();
    o.leaderless_orders = acw_north::options::LeaderlessOrders::ArmyCommanderOnly;
    let (mut b, u, _) = leaderless(o);
    assert_eq!(
        b.attempt_unit_order_change(u, BrigadeOrder::Hold, &mut dice([6])),
        Err(RuleViolation::OptionForbids("leaderless_orders"))
    );
    // CheckEveryPhase: each unit checks on the brigade table (Withdraw -1: a 5 gives 4, Hold).
    let mut o = Options::default();
    o.leaderless_orders = acw_north::options::LeaderlessOrders::CheckEveryPhase;
    let (mut b, u, u2) = leaderless(o);
    assert_eq!(
        b.leaderless_order_check(u, &mut dice([5])).unwrap(),
        BrigadeOrder::Hold
    );
    assert_eq!(
        b.leaderless_order_check(u2, &mut dice([6])).unwrap(),
        BrigadeOrder::Advance
    );
    assert_eq!(
        b.leaderless_order_check(u, &mut dice([6])),
        Err(RuleViolation::AlreadyActed(u))
    );
    assert!(matches!(
        b.attempt_unit_order_change(u2, BrigadeOrder::Hold, &mut dice([6])),
        Err(RuleViolation::OptionForbids(_))
    ));
}

#[test]
fn north_cmd_14_army_commander_rallies_and_his_loss_changes_no_order() {
    // NORTH-CMD-14: the Union AC starts with a unit of the 2nd brigade; he may rally it; killed, no order
    // changes anywhere and he can no longer change orders.
    let mut b = battle();
    let ac = b.army_commander(Side::Union);
    let with = b.general(ac).unwrap().with_unit().unwrap();
    let orders: Vec<BrigadeOrder> = b.brigades().iter().map(|br| br.order()).collect();
    assert!(b.check_rally(ac, with).is_ok());
    let m = shell(&mut b, with, &rally(vec![ac]), &[6, 5, 6]);
    assert_eq!(b.general(ac).unwrap().status(), GeneralStatus::Killed);
    assert!(m.order_checks.is_empty());
    assert_eq!(
        b.brigades().iter().map(|br| br.order()).collect::<Vec<_>>(),
        orders
    );
    assert!(b.brigades().iter().all(|br| !br.is_leaderless()));
    goto(&mut b, Side::Union, Step::Command);
    let centre = brigade_of(&b, with);
    assert_eq!(
        b.army_commander_sets_order(
            Side::Union,
            OrderTarget::Brigade(centre),
            BrigadeOrder::Hold
        ),
        Err(RuleViolation::GeneralLost(ac))
    );
    assert_eq!(b.report(Side::Union).generals_lost, 1);
}

#[test]
fn north_cmd_15_generals_move_15_inches_and_are_lost_only_by_rallying() {
    // NORTH-CMD-15
    let mut b = battle();
    let mg = mg_of(&b, id(&b, "CSA 1st Bde, Regt 1"));
    b.move_general(mg, Inches(10.0), None).unwrap();
    b.move_general(mg, Inches(5.0), None).unwrap();
    assert!(matches!(
        b.move_general(mg, Inches(0.5), None),
        Err(RuleViolation::MoveTooLong { .. })
    ));
    skip_to(&mut b, Step::Artillery).unwrap();
    let mg2 = mg_of(&b, id(&b, "CSA 2nd Bde, Regt 1"));
    assert!(matches!(
        b.move_general(mg2, Inches(1.0), None),
        Err(RuleViolation::WrongStep { .. })
    ));
    // A unit's removal does not harm the general with it.
    let mut b = battle();
    let u = id(&b, "USA 1st Bde, Regt 1");
    let umg = mg_of(&b, u);
    put_with(&mut b, umg, u);
    for _ in 0..2 {
        morale_result(&mut b, u, MoraleBand::Both, None, Default::default(), true).unwrap();
    }
    assert!(!b.unit(u).unwrap().in_play());
    assert_eq!(b.general(umg).unwrap().status(), GeneralStatus::Active);
    assert_eq!(b.general(umg).unwrap().with_unit(), None);
}

#[test]
fn north_opt_15_rally_declared_before_the_morale_toss() {
    // NORTH-OPT-15: by default the morale die comes first (the owner has seen it); under the option the
    // rally die comes first.
    let mut b = battle();
    let u = id(&b, "USA 1st Bde, Regt 1");
    let mg = mg_of(&b, u);
    put_with(&mut b, mg, u);
    // Hit 6; morale 5; rally 3: 5 - 3 = 2 rallies.
    let m = shell(&mut b, u, &rally(vec![mg]), &[6, 5, 3]);
    assert_eq!((m.face, m.outcome.band), (5, MoraleBand::Rallies));
    let mut o = Options::default();
    o.rally_declared_before_morale_toss = true;
    let mut b = battle_with(o);
    put_with(&mut b, mg, u);
    // Hit 6; rally 5 (no effect in fire); morale 3: a choice.
    let m = shell(&mut b, u, &rally(vec![mg]), &[6, 5, 3]);
    assert_eq!((m.face, m.outcome.band), (3, MoraleBand::Choice));
    // "Only if it would not rally" needs the die seen first.
    let mut o = Options::default();
    o.rally_declared_before_morale_toss = true;
    let mut b = battle_with(o);
    put_with(&mut b, mg, u);
    skip_to(&mut b, Step::Artillery).unwrap();
    let g = AttackGroup {
        category: Category::Artillery,
        target: u,
        attackers: vec![id(&b, "CSA 1st Bde, Battery")],
    };
    let resp = MoraleResponse {
        policy: RallyPolicy::IfWouldNotRally,
        ..rally(vec![mg])
    };
    assert_eq!(
        b.attack(
            &g,
            &[Sight::clear(Inches(10.0))],
            false,
            &resp,
            &mut dice([6, 1, 1])
        ),
        Err(RuleViolation::CannotRally {
            general: mg,
            reason: RallyRefusal::NeedsSightOfToss
        })
    );
}

#[test]
fn north_opt_16_17_rally_distance_and_attempts() {
    // NORTH-OPT-17: one attempt per check by default; MG and AC both under the option.
    let mut b = battle();
    let u = id(&b, "USA 2nd Bde, Regt 1");
    let mg = mg_of(&b, u);
    let ac = b.army_commander(Side::Union);
    assert_eq!(b.general(ac).unwrap().with_unit(), Some(u));
    put_with(&mut b, mg, u);
    skip_to(&mut b, Step::Artillery).unwrap();
    let g = AttackGroup {
        category: Category::Artillery,
        target: u,
        attackers: vec![id(&b, "CSA 1st Bde, Battery")],
    };
    assert_eq!(
        b.attack(
            &g,
            &[Sight::clear(Inches(10.0))],
            false,
            &rally(vec![mg, ac]),
            &mut dice([6, 4, 1, 1])
        ),
        Err(RuleViolation::CannotRally {
            general: ac,
            reason: RallyRefusal::TooManyAttempts
        })
    );
    let mut o = Options::default();
    o.multiple_rally_attempts = true;
    let mut b = battle_with(o);
    put_with(&mut b, mg, u);
    // Hit 6; morale 6; MG 2; AC 2: 6 - 4 = 2 rallies.
    let m = shell(&mut b, u, &rally(vec![mg, ac]), &[6, 6, 2, 2]);
    assert_eq!(m.outcome.band, MoraleBand::Rallies);
    assert_eq!(m.rallies.len(), 2);
    // The same general twice is refused even so.
    let mut o = Options::default();
    o.multiple_rally_attempts = true;
    let mut b = battle_with(o);
    put_with(&mut b, mg, u);
    skip_to(&mut b, Step::Artillery).unwrap();
    assert!(matches!(
        b.attack(
            &g,
            &[Sight::clear(Inches(10.0))],
            false,
            &rally(vec![mg, mg]),
            &mut dice([6, 4, 1, 1])
        ),
        Err(RuleViolation::CannotRally {
            reason: RallyRefusal::TooManyAttempts,
            ..
        })
    ));
}
