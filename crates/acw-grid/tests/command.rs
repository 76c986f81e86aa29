//! Command and commanders: GRID-CMD-01 to GRID-CMD-09.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::Resolve;
use acw_core::Side;
use acw_core::testing::assert_prob;
use acw_grid::board::{FlankSide, GridKind, Terrain};
use acw_grid::combat::CombatPlan;
use acw_grid::command::{CommandCheck, CommanderRoll};
use acw_grid::error::RuleViolation;
use acw_grid::movement::MoveOrder;
use acw_grid::options::{CommanderFate, DivisionRoll, NoCorpsCommander};
use acw_grid::setup::UnitSpec;
use acw_grid::state::{BrigadeId, CommanderId, DivisionId, Phase, Rank, Stand};
use acw_grid::tables::{CommanderResult, Ground, MoraleResult, StandType};
use common::*;

fn woods() -> Terrain {
    Terrain {
        ground: Ground::Broken,
        cover: true,
        blocks_los: true,
        ..Terrain::OPEN
    }
}

#[test]
fn cmd_01_detached_units_roll_three() {
    // GRID-CMD-01: a unit not within 3 areas and in sight of its Division Commander needs 3+ to move.
    let mut b = square();
    let near = put_inf(&mut b, Side::Union, a(2, 1), 3, 0);
    let far = put_inf(&mut b, Side::Union, a(4, 0), 3, 0);
    let hidden = put_inf(&mut b, Side::Union, a(0, 2), 3, 0);
    b.board_mut().set_terrain(a(0, 1), woods()).unwrap();
    // Friendly troops between do not block command sight.
    let screen = put_inf(&mut b, Side::Union, a(1, 0), 1, 0);
    let _ = screen;
    assert!(!b.needs_unit_roll(near, UNION_DIV).unwrap());
    assert!(b.needs_unit_roll(far, UNION_DIV).unwrap());
    assert!(b.needs_unit_roll(hidden, UNION_DIV).unwrap());
    go_to_unrolled(&mut b, Side::Union, Phase::FirstMovement);
    // GRID-SEQ-06: before the side's command dice are rolled, a unit that owes a roll may not move (refused,
    // nothing changed); a unit in its commander's reach owes none.
    let before = b.clone();
    let early = MoveOrder::along(b.unit(hidden).unwrap(), vec![a(0, 3)]);
    assert_eq!(
        b.move_unit(&early),
        Err(RuleViolation::CommandRollOwed(hidden))
    );
    assert_eq!(
        b.check_move(&early),
        Err(RuleViolation::CommandRollOwed(hidden))
    );
    assert_eq!(b, before);
    assert_eq!(
        RuleViolation::CommandRollOwed(hidden).to_string(),
        "unit 3 is out of its commanders' reach and must pass a command roll before it moves: roll the side's \
         command dice first"
    );
    b.check_move(&MoveOrder::along(b.unit(near).unwrap(), vec![a(2, 2)]))
        .unwrap();
    // far rolls 2 (fails), hidden rolls 3 (passes).
    let r = b.command_phase(Side::Union, &mut dice(&[2, 3])).unwrap();
    assert_eq!(r.rolls.len(), 2);
    assert_eq!(r.halted, vec![(far, UNION_DIV)]);
    let order = MoveOrder::along(b.unit(far).unwrap(), vec![a(5, 0)]);
    assert_eq!(b.move_unit(&order), Err(RuleViolation::OutOfCommand(far)));
    b.move_unit(&MoveOrder::along(b.unit(hidden).unwrap(), vec![a(0, 3)]))
        .unwrap();
}

#[test]
fn cmd_02_division_roll() {
    // GRID-CMD-02: a Division Commander more than 5 areas from his Corps Commander rolls 2+ once for the division.
    let mut b = square();
    let u1 = put_inf(&mut b, Side::Union, a(8, 8), 3, 0);
    let u2 = put_inf(&mut b, Side::Union, a(9, 8), 3, 0);
    go_to_unrolled(&mut b, Side::Union, Phase::FirstMovement);
    // Move the division commander away from his corps commander (at 0,0) in steps: 3 a turn.
    b.move_commander(UNION_DC, &[a(1, 0), a(2, 0), a(3, 0)])
        .unwrap();
    assert!(!b.division_needs_roll(Side::Union, UNION_DIV).unwrap()); // 3 away
    let mut c = square();
    c.add_commander(
        CommanderId(7),
        Side::Union,
        Rank::Division(DivisionId(7)),
        Some(UNION_CORPS),
        a(8, 9),
    )
    .unwrap();
    let s = Stand::new(StandType::Infantry, DivisionId(7), BrigadeId(1));
    let v1 = c
        .deploy(UnitSpec::new(Side::Union, a(8, 8), vec![s.clone(); 3]))
        .unwrap();
    let v2 = c
        .deploy(UnitSpec::new(Side::Union, a(9, 8), vec![s.clone(); 3]))
        .unwrap();
    assert!(c.division_needs_roll(Side::Union, DivisionId(7)).unwrap());
    let mut per_unit = c.clone();
    go_to_unrolled(&mut c, Side::Union, Phase::FirstMovement);
    let r = c.command_phase(Side::Union, &mut dice(&[1])).unwrap();
    assert_eq!(r.rolls.len(), 1);
    assert_eq!(r.halted, vec![(v1, DivisionId(7)), (v2, DivisionId(7))]);
    // The Division Commander himself may still move.
    c.move_commander(CommanderId(7), &[a(8, 10)]).unwrap();
    // Option: one roll per unit.
    set_opt(&mut per_unit, |o| o.division_roll = DivisionRoll::PerUnit);
    go_to_unrolled(&mut per_unit, Side::Union, Phase::FirstMovement);
    let r = per_unit
        .command_phase(Side::Union, &mut dice(&[1, 2]))
        .unwrap();
    assert_eq!(r.rolls.len(), 2);
    assert_eq!(r.halted, vec![(v1, DivisionId(7))]);
    let _ = (u1, u2);
}

#[test]
fn cmd_03_both_rolls_must_pass() {
    // GRID-CMD-03: a unit facing both checks moves only if the division roll (2+) and its own (3+) pass: 5/9.
    let both = CommandCheck {
        unit_roll: true,
        division_roll: true,
    };
    assert_prob("both checks", both.odds().p(&true), 5.0 / 9.0);
    assert!(!both.roll(&mut dice(&[2, 2])));
    assert!(both.roll(&mut dice(&[2, 3])));
    assert!(!both.roll(&mut dice(&[1])));
    let mut c = square();
    c.add_commander(
        CommanderId(7),
        Side::Union,
        Rank::Division(DivisionId(7)),
        Some(UNION_CORPS),
        a(11, 0),
    )
    .unwrap();
    let s = Stand::new(StandType::Infantry, DivisionId(7), BrigadeId(1));
    let v = c
        .deploy(UnitSpec::new(Side::Union, a(6, 6), vec![s; 3]))
        .unwrap();
    assert!(c.division_needs_roll(Side::Union, DivisionId(7)).unwrap());
    assert!(c.needs_unit_roll(v, DivisionId(7)).unwrap());
    go_to_unrolled(&mut c, Side::Union, Phase::FirstMovement);
    let r = c.command_phase(Side::Union, &mut dice(&[2, 2])).unwrap();
    assert_eq!(r.halted, vec![(v, DivisionId(7))]);
}

#[test]
fn cmd_04_what_the_roll_gates() {
    // GRID-CMD-04: voluntary moves only; rallying, entrenching and refusing a flank need no roll (option: rallying
    // does); stands of two divisions in one area check against their own commanders.
    let mut b = square();
    b.add_commander(
        CommanderId(7),
        Side::Union,
        Rank::Division(DivisionId(7)),
        Some(UNION_CORPS),
        a(11, 11),
    )
    .unwrap();
    let mut v = vec![inf(Side::Union); 2];
    v.push(Stand::new(StandType::Infantry, DivisionId(7), BrigadeId(2)));
    let mixed = b.deploy(UnitSpec::new(Side::Union, a(1, 1), v)).unwrap();
    go_to_unrolled(&mut b, Side::Union, Phase::FirstMovement);
    let r = b.command_phase(Side::Union, &mut dice(&[1, 1])).unwrap();
    assert_eq!(r.halted, vec![(mixed, DivisionId(7))]);
    let whole = MoveOrder::along(b.unit(mixed).unwrap(), vec![a(1, 2)]);
    assert_eq!(b.move_unit(&whole), Err(RuleViolation::OutOfCommand(mixed)));
    // The division-1 stands may detach and move.
    let part = whole.clone().detaching(vec![0, 1]);
    b.move_unit(&part).unwrap();
    // The halted stand may still refuse... it is alone now; entrenching needs no roll.
    assert_eq!(b.entrench(mixed, &mut dice(&[2])).unwrap(), 2);
    // Rallying with the option needs the roll.
    let mut c = square();
    set_opt(&mut c, |o| o.command_roll_for_rally = true);
    c.add_commander(
        CommanderId(7),
        Side::Union,
        Rank::Division(DivisionId(7)),
        Some(UNION_CORPS),
        a(11, 11),
    )
    .unwrap();
    let s = Stand::new(StandType::Infantry, DivisionId(7), BrigadeId(1));
    let w = c
        .deploy(UnitSpec::new(Side::Union, a(1, 1), vec![s; 3]).disordered())
        .unwrap();
    let mut plain = c.clone();
    set_opt(&mut plain, |o| o.command_roll_for_rally = false);
    go_to_unrolled(&mut c, Side::Union, Phase::FirstMovement);
    c.command_phase(Side::Union, &mut dice(&[1, 1])).unwrap();
    assert!(matches!(c.rally(w), Err(RuleViolation::NotEligible { .. })));
    go_to_unrolled(&mut plain, Side::Union, Phase::FirstMovement);
    plain
        .command_phase(Side::Union, &mut dice(&[1, 1]))
        .unwrap();
    plain.rally(w).unwrap();
    // Refusing a flank needs no roll either.
    plain.refuse_flank(w, FlankSide::Right).unwrap();
}

#[test]
fn cmd_05_commander_movement() {
    // GRID-CMD-05: 3 areas, difficult ground allowed, obstacles double, road rate, never into the enemy, no stacking.
    let mut b = square();
    b.board_mut()
        .set_terrain(
            a(1, 0),
            Terrain {
                ground: Ground::Difficult,
                ..Terrain::OPEN
            },
        )
        .unwrap();
    put_inf(&mut b, Side::Union, a(0, 1), 6, 0);
    put_inf(&mut b, Side::Confederate, a(0, 3), 1, 2);
    go_to_unrolled(&mut b, Side::Union, Phase::FirstMovement);
    let mut c = b.clone();
    b.move_commander(UNION_DC, &[a(1, 0), a(2, 0), a(3, 0)])
        .unwrap();
    assert_eq!(b.commander(UNION_DC).unwrap().area(), a(3, 0));
    assert!(
        b.move_commander(UNION_DC, &[a(4, 0)]).is_err(),
        "once a turn"
    );
    // Into a full area (commanders do not count), but not into the enemy.
    c.move_commander(UNION_DC, &[a(0, 1)]).unwrap();
    let mut d = c.clone();
    assert_eq!(
        c.move_commander(UNION_CORPS, &[a(0, 1), a(0, 2), a(0, 3)]),
        Err(RuleViolation::EnemyInArea(a(0, 3)))
    );
    // Obstacles count double: 2 + 2 > 3 areas' allowance (6 half-areas) only with a third step.
    d.board_mut().add_obstacle(a(0, 0), a(1, 0)).unwrap();
    assert!(matches!(
        d.move_commander(UNION_CORPS, &[a(1, 0), a(2, 0), a(3, 0)]),
        Err(RuleViolation::TooFar { cost_halves: 8, .. })
    ));
    // Roads: 6 areas along a road.
    let mut r = square();
    let road: Vec<_> = (0..7).map(|x| a(x, 0)).collect();
    r.board_mut().add_road_path(&road).unwrap();
    let mut no_roads = r.clone();
    set_opt(&mut no_roads, |o| o.commanders_use_roads = false);
    go_to_unrolled(&mut r, Side::Union, Phase::FirstMovement);
    r.move_commander(UNION_DC, &road[1..]).unwrap();
    go_to_unrolled(&mut no_roads, Side::Union, Phase::FirstMovement);
    assert!(no_roads.move_commander(UNION_DC, &road[1..]).is_err());
    // With the ground option commanders pay in difficult ground as infantry.
    let mut g = square();
    set_opt(&mut g, |o| o.commander_ground_penalty = true);
    g.board_mut()
        .set_terrain(
            a(1, 0),
            Terrain {
                ground: Ground::Difficult,
                ..Terrain::OPEN
            },
        )
        .unwrap();
    go_to_unrolled(&mut g, Side::Union, Phase::FirstMovement);
    assert!(
        g.move_commander(UNION_DC, &[a(1, 0), a(2, 0), a(3, 0)])
            .is_err()
    );
}

#[test]
fn cmd_06_commander_in_combat() {
    // GRID-CMD-06: 5-6 cancels a hit on his unit, 1 removes him, 2-4 nothing.
    let d = CommanderRoll.odds();
    assert_prob("cancel", d.p(&CommanderResult::CancelHit), 1.0 / 3.0);
    assert_prob("removed", d.p(&CommanderResult::Removed), 1.0 / 6.0);
    assert_prob("none", d.p(&CommanderResult::NoEffect), 1.0 / 2.0);
    let mut b = square();
    let u = put_inf(&mut b, Side::Union, a(0, 0), 1, 0);
    put_inf(&mut b, Side::Confederate, a(0, 1), 1, 2);
    go_to_unrolled(&mut b, Side::Union, Phase::Combat);
    // The Union centre rolls 1 1; the Confederates 6 1 (1 hit); then the corps commander's die 6 and the
    // division commander's die 1.
    let r = b
        .resolve_combats(&CombatPlan::default(), &mut dice(&[1, 1, 6, 1, 6, 1]))
        .unwrap();
    let c = &r.combats[0];
    assert_eq!(c.taken[0], (u, 0));
    assert_eq!(c.commanders.len(), 2);
    assert_eq!(c.commanders[0], (UNION_DC, u, CommanderResult::CancelHit));
    assert_eq!(c.commanders[1], (UNION_CORPS, u, CommanderResult::Removed));
    assert!(!b.commander(UNION_CORPS).unwrap().present());
    assert_eq!(b.losses(Side::Union).commanders_lost, 1);
    assert_eq!(c.tester, None);
}

#[test]
fn cmd_07_lost_division_commander() {
    // GRID-CMD-07: with no Division Commander every unit rolls 3+; with the option he returns after N turns.
    let mut b = square();
    let u = put_inf(&mut b, Side::Union, a(0, 0), 3, 0);
    put_inf(&mut b, Side::Confederate, a(0, 1), 1, 2);
    assert!(!b.needs_unit_roll(u, UNION_DIV).unwrap());
    go_to_unrolled(&mut b, Side::Union, Phase::Combat);
    let mut never = b.clone();
    set_opt(&mut b, |o| o.commander_replacement_turns = Some(1));
    // No hits either way; then the division commander's die is a 1, the corps commander's a 3.
    let faces = [1, 1, 1, 1, 1, 1, 1, 1, 1, 3];
    b.resolve_combats(&CombatPlan::default(), &mut dice(&faces))
        .unwrap();
    never
        .resolve_combats(&CombatPlan::default(), &mut dice(&faces))
        .unwrap();
    assert!(!b.commander(UNION_DC).unwrap().present());
    assert!(b.needs_unit_roll(u, UNION_DIV).unwrap());
    b.advance().unwrap();
    never.advance().unwrap();
    assert!(b.commander(UNION_DC).unwrap().present());
    assert_eq!(b.commander(UNION_DC).unwrap().area(), a(0, 0));
    assert!(!never.commander(UNION_DC).unwrap().present());
    assert!(never.needs_unit_roll(u, UNION_DIV).unwrap());
}

#[test]
fn cmd_08_commanders_go_with_their_units() {
    // GRID-CMD-08: a commander moves with a retreating unit; if it is destroyed he escapes to the nearest unit
    // of his command (option: he is captured).
    let mut b = square();
    let u = put_inf(&mut b, Side::Union, a(0, 0), 2, 0);
    let friend = put_inf(&mut b, Side::Union, a(4, 0), 1, 0);
    put_inf(&mut b, Side::Confederate, a(0, 1), 3, 2);
    go_to_unrolled(&mut b, Side::Union, Phase::Combat);
    let mut captured = b.clone();
    set_opt(&mut captured, |o| {
        o.commander_fate = CommanderFate::Captured
    });
    // The enemy's combat dice destroy the unit (4 hits on its 2 stands).
    let destroyed =
        |t: &acw_grid::Battle| t.unit(u).is_err() && t.losses(Side::Union).stands_lost == 2;
    fight_until(&mut b, destroyed);
    assert_eq!(
        b.commander(UNION_DC).unwrap().area(),
        b.unit(friend).unwrap().area()
    );
    fight_until(&mut captured, destroyed);
    assert!(!captured.commander(UNION_DC).unwrap().present());
    assert_eq!(captured.losses(Side::Union).commanders_lost, 2);
    // Retreat: the commanders follow.
    let mut r = square();
    r.add_commander(
        CommanderId(8),
        Side::Union,
        Rank::Division(DivisionId(8)),
        Some(UNION_CORPS),
        a(5, 5),
    )
    .unwrap();
    let s8 = Stand::new(StandType::Infantry, DivisionId(8), BrigadeId(1));
    let v = r
        .deploy(UnitSpec::new(Side::Union, a(5, 5), vec![s8; 3]))
        .unwrap();
    put_inf(&mut r, Side::Confederate, a(5, 6), 3, 2);
    go_to_unrolled(&mut r, Side::Union, Phase::Combat);
    assert_eq!(
        lose_and_test(&mut r, v, 4),
        vec![(v, MoraleResult::Recoiled)]
    );
    r.carry_out(v).unwrap();
    assert_ne!(r.unit(v).unwrap().area(), a(5, 5));
    assert_eq!(
        r.commander(CommanderId(8)).unwrap().area(),
        r.unit(v).unwrap().area()
    );
}

#[test]
fn cmd_09_no_corps_commander() {
    // GRID-CMD-09: without a Corps Commander the division check is skipped (option: from the Army Commander).
    let mut b = battle_with(GridKind::Square, 12, 12, opts(|_| {}));
    // The Confederate division commander has no superior and stands far from everything.
    assert!(!b.division_needs_roll(Side::Confederate, REBEL_DIV).unwrap());
    b.add_commander(
        CommanderId(300),
        Side::Confederate,
        Rank::Army,
        None,
        a(0, 11),
    )
    .unwrap();
    assert!(!b.division_needs_roll(Side::Confederate, REBEL_DIV).unwrap());
    set_opt(&mut b, |o| {
        o.no_corps_commander = NoCorpsCommander::MeasureFromArmy
    });
    assert!(b.division_needs_roll(Side::Confederate, REBEL_DIV).unwrap()); // 11 areas away
}
