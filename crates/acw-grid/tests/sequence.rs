//! The turn: GRID-SEQ-01 to GRID-SEQ-08.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::Side;
use acw_grid::board::FlankSide;
use acw_grid::board::GridKind;
use acw_grid::combat::CombatPlan;
use acw_grid::error::RuleViolation;
use acw_grid::fire::{BombardOrder, SkirmishOrder};
use acw_grid::movement::MoveOrder;
use acw_grid::options::FirstTurnTie;
use acw_grid::sequence::InitiativeOutcome;
use acw_grid::state::Phase;
use acw_grid::tables::StandType;
use common::*;

#[test]
fn seq_01_turn_order() {
    // GRID-SEQ-01: initiative, bombardment, first player, second player, combat, then the next turn.
    let mut b = square();
    let u = put_inf(&mut b, Side::Union, a(2, 2), 3, 0);
    assert_eq!(b.phase(), Phase::Initiative);
    assert!(b.advance().is_err(), "the order must be settled first");
    let mut d = dice(&[6, 1]);
    b.roll_initiative(&mut d).unwrap();
    b.choose_first_player(Side::Union, Side::Confederate)
        .unwrap();
    assert_eq!(b.phase(), Phase::Bombardment);
    let order = MoveOrder::along(b.unit(u).unwrap(), vec![a(2, 3)]);
    assert!(matches!(
        b.move_unit(&order),
        Err(RuleViolation::WrongPhase { .. })
    ));
    assert_eq!(b.advance().unwrap(), Phase::FirstMovement);
    assert_eq!(b.moving_side(), Some(Side::Confederate));
    assert!(matches!(
        b.move_unit(&order),
        Err(RuleViolation::NotYourStep(Side::Union))
    ));
    assert_eq!(b.advance().unwrap(), Phase::SecondMovement);
    assert_eq!(b.moving_side(), Some(Side::Union));
    roll_command(&mut b);
    b.move_unit(&order).unwrap();
    assert_eq!(b.advance().unwrap(), Phase::Combat);
    // The Combat Phase must be fought (here, nothing to roll) before the turn ends; the refusal changes nothing.
    let unfought = b.clone();
    assert!(b.advance().is_err());
    assert_eq!(b, unfought);
    b.resolve_combats(&acw_grid::combat::CombatPlan::default(), &mut dice(&[]))
        .unwrap();
    assert_eq!(b.advance().unwrap(), Phase::Initiative);
    assert_eq!(b.turn(), 2);
}

#[test]
fn seq_02_initiative_winner_chooses() {
    // GRID-SEQ-02: each side rolls; the higher chooses to go first or second.
    let mut b = square();
    let mut d = dice(&[2, 5]);
    assert_eq!(
        b.roll_initiative(&mut d).unwrap(),
        InitiativeOutcome::Chooses(Side::Confederate)
    );
    assert!(b.roll_initiative(&mut dice(&[1, 1])).is_err());
    assert_eq!(
        b.choose_first_player(Side::Union, Side::Union),
        Err(RuleViolation::WrongSide(Side::Confederate))
    );
    b.choose_first_player(Side::Confederate, Side::Union)
        .unwrap();
    assert_eq!(b.first_player(), Some(Side::Union));
    assert_eq!(b.initiative_side(), Some(Side::Confederate));
}

#[test]
fn seq_03_ties() {
    // GRID-SEQ-03: a tie keeps last turn's order; on turn 1 it is rerolled (or the scenario names a side).
    let mut b = square();
    let mut d = dice(&[4, 4, 1, 2]);
    assert_eq!(
        b.roll_initiative(&mut d).unwrap(),
        InitiativeOutcome::Chooses(Side::Confederate)
    );
    assert!(d.finish().is_ok() && d.remaining() == 0);
    b.choose_first_player(Side::Confederate, Side::Confederate)
        .unwrap();
    end_turn(&mut b);
    assert_eq!(
        b.roll_initiative(&mut dice(&[3, 3])).unwrap(),
        InitiativeOutcome::KeepsOrder
    );
    assert_eq!(b.first_player(), Some(Side::Confederate));
    assert_eq!(b.phase(), Phase::Bombardment);
    let mut s = battle_with(
        GridKind::Square,
        6,
        6,
        opts(|o| o.first_turn_tie = FirstTurnTie::ScenarioFirst(Side::Union)),
    );
    assert_eq!(
        s.roll_initiative(&mut dice(&[5, 5])).unwrap(),
        InitiativeOutcome::ScenarioFirst(Side::Union)
    );
    assert_eq!(s.first_player(), Some(Side::Union));
}

#[test]
fn seq_04_scenario_bonus() {
    // GRID-SEQ-04: +1 to one side's roll: 4 + 1 beats 4.
    let mut b = battle_with(
        GridKind::Square,
        6,
        6,
        opts(|o| o.initiative_bonus = Some(Side::Union)),
    );
    assert_eq!(
        b.roll_initiative(&mut dice(&[4, 4])).unwrap(),
        InitiativeOutcome::Chooses(Side::Union)
    );
    let mut c = battle_with(
        GridKind::Square,
        6,
        6,
        opts(|o| o.initiative_bonus = Some(Side::Union)),
    );
    // 3 + 1 ties 4: rerolled on turn 1.
    assert_eq!(
        c.roll_initiative(&mut dice(&[3, 4, 1, 6])).unwrap(),
        InitiativeOutcome::Chooses(Side::Confederate)
    );
}

#[test]
fn seq_05_bombardment_is_simultaneous() {
    // GRID-SEQ-05: all dice are rolled before any result: two batteries destroy each other and both fire.
    let mut b = square();
    let gun_u = put(
        &mut b,
        Side::Union,
        a(5, 3),
        &stand(Side::Union, StandType::Artillery),
        1,
        0,
    );
    let gun_c = put(
        &mut b,
        Side::Confederate,
        a(5, 5),
        &stand(Side::Confederate, StandType::Artillery),
        1,
        2,
    );
    go_to(&mut b, Side::Union, Phase::Bombardment);
    let orders = [
        BombardOrder {
            battery: gun_u,
            target: gun_c,
        },
        BombardOrder {
            battery: gun_c,
            target: gun_u,
        },
    ];
    let mut d = dice(&[6, 5, 6, 6]);
    let r = b.bombardment_phase(&orders, &mut d).unwrap();
    assert_eq!(r.len(), 2);
    assert!(r.iter().all(|t| t.recorded.is_some_and(|h| h.destroyed)));
    assert!(b.unit(gun_u).is_err() && b.unit(gun_c).is_err());
    assert_eq!(b.losses(Side::Union).units_destroyed, 1);
    assert_eq!(b.losses(Side::Confederate).units_destroyed, 1);
}

#[test]
fn seq_06_movement_step_content() {
    // GRID-SEQ-06: command rolls first; then each unit moves, rallies, or stays and entrenches or refuses a flank.
    let mut b = square();
    let mover = put_inf(&mut b, Side::Union, a(1, 1), 3, 0);
    let digger = b
        .deploy(
            acw_grid::setup::UnitSpec::new(Side::Union, a(3, 1), vec![inf(Side::Union); 3])
                .disordered(),
        )
        .unwrap();
    let turner = put_inf(&mut b, Side::Union, a(5, 1), 3, 0);
    go_to_unrolled(&mut b, Side::Union, Phase::FirstMovement);
    // The command step rolls two dice here; every face given is used.
    let mut command_dice = dice(&[6, 6]);
    b.command_phase(Side::Union, &mut command_dice).unwrap();
    assert_eq!(command_dice.remaining(), 0);
    b.move_unit(&MoveOrder::along(b.unit(mover).unwrap(), vec![a(1, 2)]))
        .unwrap();
    // Rally and entrench in one phase is allowed (both need the unit still).
    b.rally(digger).unwrap();
    assert_eq!(b.entrench(digger, &mut dice(&[4])).unwrap(), 4);
    b.refuse_flank(turner, FlankSide::Left).unwrap();
    let d = b.unit(digger).unwrap();
    assert!(d.flags().entrenched && d.flags().rallied && !d.disordered());
    assert!(!b.unit(turner).unwrap().flags().moved);
    // Command is checked before anything moves.
    assert!(b.command_phase(Side::Union, &mut dice(&[])).is_err());
}

#[test]
fn seq_07_combat_phase_order() {
    // GRID-SEQ-07: skirmish dice first, then combat dice; skirmish and combat hits recorded together; then the
    // side that took more hits in each combat tests.
    let mut b = square();
    let firer = put_inf(&mut b, Side::Union, a(2, 2), 3, 0);
    let target = put_inf(&mut b, Side::Confederate, a(2, 4), 3, 2);
    let u2 = put_inf(&mut b, Side::Union, a(6, 6), 1, 0);
    let r2 = put_inf(&mut b, Side::Confederate, a(6, 7), 1, 2);
    go_to(&mut b, Side::Union, Phase::Combat);
    let plan = CombatPlan {
        skirmish: vec![SkirmishOrder { firer, target }],
        ..CombatPlan::default()
    };
    // Skirmish 3 dice: 6 6 1 (2 hits). Combat: the Union unit (centre) 5 1 (1 hit), the Confederates 1 1.
    let mut d = dice(&[6, 6, 1, 5, 1, 1, 1]);
    let r = b.resolve_combats(&plan, &mut d).unwrap();
    assert!(d.finish().is_ok() && d.remaining() == 0);
    assert_eq!(r.skirmish[0].1.hits, 2);
    assert_eq!(r.combats.len(), 1);
    assert_eq!(r.combats[0].combat.centre, u2);
    assert_eq!(r.combats[0].raw, (0, 1));
    assert_eq!(r.combats[0].tester, Some(Side::Confederate));
    assert_eq!(r.combats[0].testers, vec![r2]);
    assert_eq!(b.unit(target).unwrap().stand_count(), 2);
    assert_eq!(b.unit(r2).unwrap().hits(), 1);
}

#[test]
fn seq_08_per_turn_flags_reset() {
    // GRID-SEQ-08: turn flags reset; disorder, hits and entrenchment progress persist.
    let mut b = square();
    let u = put_inf(&mut b, Side::Union, a(2, 2), 3, 0);
    // A hit recorded the turn before (a bombarded unit may not entrench that turn).
    bombard_hits(&mut b, &[(u, 1)]);
    next_turn(&mut b, Side::Union, Phase::FirstMovement);
    b.entrench(u, &mut dice(&[3])).unwrap();
    assert!(b.unit(u).unwrap().flags().entrenched);
    end_turn(&mut b);
    let v = b.unit(u).unwrap();
    assert!(!v.flags().entrenched);
    assert_eq!(v.entrench_progress(), 3);
    assert_eq!(v.hits(), 1);
    assert_eq!(b.first_player(), None);
}

#[test]
fn a_procedure_whose_dice_run_out_or_show_the_impossible_changes_nothing() {
    // Every Battle method that rolls refuses, changing nothing, when its dice source could not give a face.
    let mut b = square();
    let before = b.clone();
    assert!(matches!(
        b.roll_initiative(&mut dice(&[4])),
        Err(RuleViolation::Dice(_))
    ));
    assert_eq!(b, before);
    assert!(matches!(
        b.roll_initiative(&mut dice(&[4, 7])),
        Err(RuleViolation::Dice(_))
    ));
    assert_eq!(b, before);
    // With both faces the roll stands: 4 against 3, the Union chooses.
    assert_eq!(
        b.roll_initiative(&mut dice(&[4, 3])).unwrap(),
        InitiativeOutcome::Chooses(Side::Union)
    );
}

#[test]
fn refusals_name_the_unit_once() {
    use acw_grid::state::{CommanderId, UnitId};
    assert_eq!(
        RuleViolation::OutOfCommand(UnitId(4)).to_string(),
        "unit 4 is out of command this turn"
    );
    assert_eq!(
        RuleViolation::UnknownUnit(UnitId(9)).to_string(),
        "there is no unit 9 (it may have been removed)"
    );
    assert_eq!(
        RuleViolation::BadCommanderMove(CommanderId(2), "he already moved this turn").to_string(),
        "commander 2 may not move there: he already moved this turn"
    );
}
