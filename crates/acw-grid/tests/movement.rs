//! Movement: GRID-MOV-01 to GRID-MOV-29.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::Resolve;
use acw_core::Side;
use acw_core::testing::assert_prob;
use acw_core::vocab::{Formation, Mount};
use acw_grid::board::{Area, FlankSide, Terrain};
use acw_grid::error::RuleViolation;
use acw_grid::fire::BombardOrder;
use acw_grid::movement::{EntrenchRoll, EntrenchTurns, MoveOrder};
use acw_grid::options::{AttackFrontCheck, BombardedMeans};
use acw_grid::setup::UnitSpec;
use acw_grid::state::{Battle, Phase, UnitId};
use acw_grid::tables::{self, Ground, Mover, StandType};
use common::*;

fn ready(b: &mut Battle) {
    go_to(b, Side::Union, Phase::FirstMovement);
}

fn mv(
    b: &mut Battle,
    u: UnitId,
    path: &[Area],
) -> Result<acw_grid::movement::MoveReport, RuleViolation> {
    let o = MoveOrder::along(b.unit(u).unwrap(), path.to_vec());
    b.move_unit(&o)
}

fn ground(b: &mut Battle, area: Area, g: Ground) {
    b.board_mut()
        .set_terrain(
            area,
            Terrain {
                ground: g,
                ..Terrain::OPEN
            },
        )
        .unwrap();
}

#[test]
fn mov_01_allowances() {
    // GRID-MOV-01: infantry and artillery 2, cavalry and commanders 3, wagons 1, dismounted cavalry 2.
    assert_eq!(tables::allowance_areas(Mover::Infantry), 2);
    assert_eq!(tables::allowance_areas(Mover::Artillery), 2);
    assert_eq!(tables::allowance_areas(Mover::MountedCavalry), 3);
    assert_eq!(tables::allowance_areas(Mover::Commander), 3);
    assert_eq!(tables::allowance_areas(Mover::Wagons), 1);
    assert_eq!(tables::allowance_areas(Mover::DismountedCavalry), 2);
    let mut b = square();
    let i = put_inf(&mut b, Side::Union, a(1, 1), 3, 0);
    let c = put(
        &mut b,
        Side::Union,
        a(3, 1),
        &stand(Side::Union, StandType::Cavalry),
        3,
        0,
    );
    ready(&mut b);
    assert_eq!(
        mv(&mut b, i, &[a(1, 2), a(1, 3), a(1, 4)]),
        Err(RuleViolation::TooFar {
            cost_halves: 6,
            allowance_halves: 4
        })
    );
    mv(&mut b, i, &[a(1, 2), a(1, 3)]).unwrap();
    mv(&mut b, c, &[a(3, 2), a(3, 3), a(3, 4)]).unwrap();
}

#[test]
fn mov_02_movement_points_and_groups() {
    // GRID-MOV-02: steps cross sides; a mixed group moves at its slowest stand's rate.
    let mut b = square();
    let mut v = vec![stand(Side::Union, StandType::Cavalry); 2];
    v.push(inf(Side::Union));
    let mixed = b.deploy(UnitSpec::new(Side::Union, a(1, 1), v)).unwrap();
    ready(&mut b);
    assert_eq!(
        mv(&mut b, mixed, &[a(2, 2)]),
        Err(RuleViolation::NotAdjacentStep(a(1, 1), a(2, 2)))
    );
    assert!(matches!(
        mv(&mut b, mixed, &[a(1, 2), a(1, 3), a(1, 4)]),
        Err(RuleViolation::TooFar { .. })
    ));
    mv(&mut b, mixed, &[a(1, 2), a(1, 3)]).unwrap();
}

#[test]
fn mov_03_double_cost_areas() {
    // GRID-MOV-03: obstacles double for all; broken doubles for cavalry and artillery; difficult for infantry.
    let mut b = square();
    ground(&mut b, a(1, 2), Ground::Broken);
    ground(&mut b, a(2, 2), Ground::Difficult);
    b.board_mut().add_obstacle(a(3, 1), a(3, 2)).unwrap();
    let g = b.board().terrain(a(1, 2)).unwrap().ground;
    assert!(tables::ground_doubles(Mover::MountedCavalry, g, false));
    assert!(!tables::ground_doubles(Mover::Infantry, g, false));
    assert_eq!(
        b.step_cost(&[Mover::Infantry], a(1, 1), a(1, 2), false),
        Ok(2)
    );
    assert_eq!(
        b.step_cost(&[Mover::Artillery], a(1, 1), a(1, 2), false),
        Ok(4)
    );
    assert_eq!(
        b.step_cost(&[Mover::MountedCavalry], a(1, 1), a(1, 2), false),
        Ok(4)
    );
    assert_eq!(
        b.step_cost(&[Mover::Infantry], a(2, 1), a(2, 2), false),
        Ok(4)
    );
    assert_eq!(
        b.step_cost(&[Mover::DismountedCavalry], a(2, 1), a(2, 2), false),
        Ok(4)
    );
    assert_eq!(
        b.step_cost(&[Mover::Infantry], a(3, 1), a(3, 2), false),
        Ok(4)
    );
    assert_eq!(
        b.step_cost(&[Mover::Commander], a(3, 1), a(3, 2), false),
        Ok(4)
    );
    // Commanders pay no ground penalty as written.
    assert_eq!(
        b.step_cost(&[Mover::Commander], a(2, 1), a(2, 2), false),
        Ok(2)
    );
    let i = put_inf(&mut b, Side::Union, a(3, 1), 3, 0);
    ready(&mut b);
    assert!(matches!(
        mv(&mut b, i, &[a(3, 2), a(3, 3)]),
        Err(RuleViolation::TooFar { cost_halves: 6, .. })
    ));
    mv(&mut b, i, &[a(3, 2)]).unwrap();
}

#[test]
fn mov_04_penalties_do_not_stack() {
    // GRID-MOV-04: several conditions still count 2 (option: 4).
    let mut b = square();
    ground(&mut b, a(1, 2), Ground::Broken);
    b.board_mut().add_obstacle(a(1, 1), a(1, 2)).unwrap();
    assert_eq!(
        b.step_cost(&[Mover::MountedCavalry], a(1, 1), a(1, 2), false),
        Ok(4)
    );
    let c = put(
        &mut b,
        Side::Union,
        a(1, 1),
        &stand(Side::Union, StandType::Cavalry),
        3,
        0,
    );
    let mut cum = b.clone();
    set_opt(&mut cum, |o| o.cumulative_double_costs = true);
    assert_eq!(
        cum.step_cost(&[Mover::MountedCavalry], a(1, 1), a(1, 2), false),
        Ok(8)
    );
    ready(&mut b);
    mv(&mut b, c, &[a(1, 2), a(1, 3)]).unwrap();
    ready(&mut cum);
    assert!(matches!(
        mv(&mut cum, c, &[a(1, 2)]),
        Err(RuleViolation::TooFar { cost_halves: 8, .. })
    ));
}

#[test]
fn mov_05_prohibited_terrain() {
    // GRID-MOV-05: difficult closed to mounted cavalry, artillery, wagons; broken closed to wagons; scenario may open.
    assert!(!tables::may_enter(Mover::MountedCavalry, Ground::Difficult));
    assert!(!tables::may_enter(Mover::Artillery, Ground::Difficult));
    assert!(!tables::may_enter(Mover::Wagons, Ground::Broken));
    assert!(tables::may_enter(Mover::Infantry, Ground::Difficult));
    assert!(tables::may_enter(Mover::Commander, Ground::Difficult));
    assert!(tables::may_enter(
        Mover::DismountedCavalry,
        Ground::Difficult
    ));
    let mut b = square();
    ground(&mut b, a(1, 2), Ground::Difficult);
    assert_eq!(
        b.step_cost(&[Mover::MountedCavalry], a(1, 1), a(1, 2), false),
        Err(RuleViolation::Prohibited(a(1, 2)))
    );
    b.board_mut()
        .set_terrain(
            a(1, 2),
            Terrain {
                ground: Ground::Difficult,
                open_to_all: true,
                ..Terrain::OPEN
            },
        )
        .unwrap();
    assert_eq!(
        b.step_cost(&[Mover::Artillery], a(1, 1), a(1, 2), false),
        Ok(2)
    );
    // Abatis is difficult for every piece.
    b.board_mut()
        .set_terrain(
            a(2, 2),
            Terrain {
                abatis: true,
                ..Terrain::OPEN
            },
        )
        .unwrap();
    assert_eq!(
        b.step_cost(&[Mover::Artillery], a(2, 1), a(2, 2), false),
        Err(RuleViolation::Prohibited(a(2, 2)))
    );
    assert_eq!(
        b.step_cost(&[Mover::Infantry], a(2, 1), a(2, 2), false),
        Ok(4)
    );
}

fn road_board() -> Battle {
    let mut b = square();
    let road: Vec<Area> = (0..8).map(|y| a(6, y)).collect();
    b.board_mut().add_road_path(&road).unwrap();
    b
}

#[test]
fn mov_06_road_movement() {
    // GRID-MOV-06: a march column on a road pays half an area per area: infantry 4, cavalry 6, wagons 2.
    let mut b = road_board();
    let i = put_inf(&mut b, Side::Union, a(6, 0), 3, 0);
    let w = put(
        &mut b,
        Side::Union,
        a(6, 7),
        &stand(Side::Union, StandType::Wagons),
        1,
        2,
    );
    ready(&mut b);
    let o =
        MoveOrder::along(b.unit(i).unwrap(), vec![a(6, 1), a(6, 2), a(6, 3), a(6, 4)]).in_column();
    let r = b.move_unit(&o).unwrap();
    assert_eq!(r.cost_halves, 4);
    // Wagons count as a column anyway: 2 areas by road.
    let o = MoveOrder::along(b.unit(w).unwrap(), vec![a(6, 6), a(6, 5)]);
    b.move_unit(&o).unwrap();
    // Mixing road and off road: 2 road steps (1 area) and one off-road step (1 area).
    let mut c = road_board();
    let cav = put(
        &mut c,
        Side::Union,
        a(6, 0),
        &stand(Side::Union, StandType::Cavalry),
        3,
        0,
    );
    ready(&mut c);
    let path = vec![a(6, 1), a(6, 2), a(6, 3), a(6, 4), a(6, 5), a(6, 6)];
    let r = c
        .move_unit(&MoveOrder::along(c.unit(cav).unwrap(), path).in_column())
        .unwrap();
    assert_eq!(r.cost_halves, 6);
    let mut d = road_board();
    let i = put_inf(&mut d, Side::Union, a(6, 0), 3, 0);
    ready(&mut d);
    let r = d
        .move_unit(
            &MoveOrder::along(d.unit(i).unwrap(), vec![a(6, 1), a(6, 2), a(7, 2)]).in_column(),
        )
        .unwrap();
    assert_eq!(r.cost_halves, 4);
}

#[test]
fn mov_07_roads_cancel_terrain() {
    // GRID-MOV-07: a column on a road ignores ground (even prohibitions) and the obstacle the road crosses.
    let mut b = road_board();
    ground(&mut b, a(6, 1), Ground::Difficult);
    b.board_mut().add_obstacle(a(6, 1), a(6, 2)).unwrap();
    let gun = put(
        &mut b,
        Side::Union,
        a(6, 0),
        &stand(Side::Union, StandType::Artillery),
        1,
        0,
    );
    let w = put(
        &mut b,
        Side::Union,
        a(5, 0),
        &stand(Side::Union, StandType::Wagons),
        1,
        0,
    );
    ground(&mut b, a(5, 1), Ground::Broken);
    ready(&mut b);
    assert_eq!(
        b.step_cost(&[Mover::Artillery], a(6, 0), a(6, 1), true),
        Ok(1)
    );
    assert_eq!(
        b.step_cost(&[Mover::Artillery], a(6, 0), a(6, 1), false),
        Err(RuleViolation::Prohibited(a(6, 1)))
    );
    let o = MoveOrder::along(b.unit(gun).unwrap(), vec![a(6, 1), a(6, 2), a(6, 3)]).in_column();
    b.move_unit(&o).unwrap();
    // Wagons off the road may not enter broken ground.
    assert_eq!(
        mv(&mut b, w, &[a(5, 1)]),
        Err(RuleViolation::Prohibited(a(5, 1)))
    );
}

#[test]
fn mov_08_formation_change_timing() {
    // GRID-MOV-08: by default a deployed unit may form column at the start and take the road; strict: it may not.
    let mut b = road_board();
    let i = put_inf(&mut b, Side::Union, a(6, 0), 3, 0);
    let mut strict = b.clone();
    set_opt(&mut strict, |o| o.strict_formation_change = true);
    let path = vec![a(6, 1), a(6, 2), a(6, 3)];
    ready(&mut b);
    let o = MoveOrder::along(b.unit(i).unwrap(), path.clone()).in_column();
    b.move_unit(&o).unwrap();
    assert_eq!(b.unit(i).unwrap().formation(), Formation::MarchColumn);
    ready(&mut strict);
    assert!(matches!(
        strict.move_unit(&o),
        Err(RuleViolation::TooFar { .. })
    ));
    // Changing formation in place counts as a move.
    let mut c = square();
    let j = put_inf(&mut c, Side::Union, a(1, 1), 3, 0);
    ready(&mut c);
    let o = MoveOrder::along(c.unit(j).unwrap(), vec![]).ending(Formation::MarchColumn);
    assert!(c.move_unit(&o).unwrap().counted_as_move);
    assert!(c.unit(j).unwrap().flags().moved);
}

#[test]
fn mov_09_march_column_lock() {
    // GRID-MOV-09: a unit that used march-column bonuses ends in column; stands joining make the unit a column.
    let mut b = road_board();
    let i = put_inf(&mut b, Side::Union, a(6, 0), 2, 0);
    let host = put_inf(&mut b, Side::Union, a(6, 3), 2, 0);
    ready(&mut b);
    let mut o = MoveOrder::along(b.unit(i).unwrap(), vec![a(6, 1), a(6, 2), a(6, 3)]);
    o.column = true;
    o.end_formation = Formation::Line;
    assert_eq!(b.move_unit(&o), Err(RuleViolation::MustStayInColumn));
    o.end_formation = Formation::MarchColumn;
    let r = b.move_unit(&o).unwrap();
    assert_eq!(r.joined, Some(host));
    assert_eq!(b.unit(host).unwrap().formation(), Formation::MarchColumn);
    assert_eq!(b.unit(host).unwrap().stand_count(), 4);
}

#[test]
fn mov_10_facing_changes() {
    // GRID-MOV-10: any direction; face a side after moving; turning in place is a move (option: not), even engaged.
    let mut b = square();
    let i = put_inf(&mut b, Side::Union, a(5, 5), 3, 0);
    put_inf(&mut b, Side::Confederate, a(5, 6), 3, 2);
    let mut lax = b.clone();
    set_opt(&mut lax, |o| o.facing_change_is_move = false);
    ready(&mut b);
    let turn = MoveOrder::along(b.unit(i).unwrap(), vec![]).facing(facing(&b, 1));
    let r = b.move_unit(&turn).unwrap();
    assert!(r.counted_as_move && !r.attack);
    assert_eq!(b.unit(i).unwrap().facing().index(), 1);
    assert!(b.unit(i).unwrap().flags().moved);
    ready(&mut lax);
    let r = lax.move_unit(&turn).unwrap();
    assert!(!r.counted_as_move);
    assert!(!lax.unit(i).unwrap().flags().moved);
    // A bad facing is refused.
    let mut bad = MoveOrder::along(lax.unit(i).unwrap(), vec![]);
    bad.facing = acw_grid::board::Facing::new(acw_grid::board::GridKind::Hex, 5).unwrap();
    assert!(lax.move_unit(&bad).is_err());
}

#[test]
fn mov_11_bombarding_stands_stay() {
    // GRID-MOV-11: stands that bombarded may not move; other stands of the area may detach and move.
    let mut b = square();
    let mut v = vec![stand(Side::Union, StandType::Artillery)];
    v.push(inf(Side::Union));
    let mixed = b.deploy(UnitSpec::new(Side::Union, a(5, 2), v)).unwrap();
    let target = put_inf(&mut b, Side::Confederate, a(5, 4), 3, 2);
    go_to(&mut b, Side::Union, Phase::Bombardment);
    b.bombardment_phase(
        &[BombardOrder {
            battery: mixed,
            target,
        }],
        &mut dice(&[1, 1]),
    )
    .unwrap();
    b.advance().unwrap();
    roll_command(&mut b);
    assert_eq!(
        mv(&mut b, mixed, &[a(4, 2)]),
        Err(RuleViolation::Bombarded(mixed))
    );
    let o = MoveOrder::along(b.unit(mixed).unwrap(), vec![a(4, 2)]).detaching(vec![1]);
    b.move_unit(&o).unwrap();
    assert_eq!(b.unit(mixed).unwrap().stand_count(), 1);
}

#[test]
fn mov_12_refusing_a_flank() {
    // GRID-MOV-12: a unit that has not moved turns one stand to a flank; not a move; it lasts until the unit moves.
    let mut b = square();
    let i = put_inf(&mut b, Side::Union, a(5, 5), 3, 0);
    let single = put_inf(&mut b, Side::Union, a(1, 1), 1, 0);
    ready(&mut b);
    b.refuse_flank(i, FlankSide::Right).unwrap();
    assert_eq!(b.unit(i).unwrap().refused(), Some(FlankSide::Right));
    assert!(!b.unit(i).unwrap().flags().moved);
    assert!(matches!(
        b.refuse_flank(single, FlankSide::Left),
        Err(RuleViolation::NotEligible { .. })
    ));
    mv(&mut b, i, &[a(5, 4)]).unwrap();
    assert_eq!(b.unit(i).unwrap().refused(), None);
    assert!(matches!(
        b.refuse_flank(i, FlankSide::Right),
        Err(RuleViolation::AlreadyActed { .. })
    ));
}

#[test]
fn mov_13_stacking_at_the_end_of_movement() {
    // GRID-MOV-13: units may pass through full friendly areas, not end over the limit.
    let mut b = square();
    put_inf(&mut b, Side::Union, a(1, 2), 6, 0);
    let i = put_inf(&mut b, Side::Union, a(1, 1), 1, 0);
    ready(&mut b);
    assert_eq!(
        mv(&mut b, i, &[a(1, 2)]),
        Err(RuleViolation::OverStacked {
            area: a(1, 2),
            stands: 7,
            limit: 6
        })
    );
    mv(&mut b, i, &[a(1, 2), a(1, 3)]).unwrap();
}

#[test]
fn mov_14_detaching_and_joining() {
    // GRID-MOV-14: stands detach as a new unit or join a unit; hits add up (GRID-CAS-09); disorder spreads;
    // the unit that stayed keeps its entrenchments.
    let mut b = square();
    let host = b
        .deploy(UnitSpec::new(Side::Union, a(1, 3), vec![inf(Side::Union); 2]).disordered())
        .unwrap();
    let i = put_inf(&mut b, Side::Union, a(1, 1), 3, 0);
    bombard_hits(&mut b, &[(host, 1), (i, 1)]);
    ready(&mut b);
    let o = MoveOrder::along(b.unit(i).unwrap(), vec![a(1, 2)]).detaching(vec![2]);
    let r = b.move_unit(&o).unwrap();
    let new = r.unit;
    assert_ne!(new, i);
    assert_eq!(b.unit(i).unwrap().stand_count(), 2);
    assert_eq!(
        b.unit(i).unwrap().hits(),
        1,
        "the leftover hit stays with the original"
    );
    assert_eq!(b.unit(new).unwrap().hits(), 0);
    let r = mv(&mut b, i, &[a(1, 2)]).unwrap();
    assert_eq!(r.joined, Some(new));
    let merged = a_unit(&b, a(1, 2));
    let j = mv(&mut b, merged, &[a(1, 3)]);
    // The merged unit at (1,2) already moved this turn.
    assert!(matches!(j, Err(RuleViolation::AlreadyActed { .. })));
    // Next turn it joins the disordered host: 3 + 2 stands, 1 + 1 hits make a stand: 4 stands, disordered.
    end_turn(&mut b);
    go_to(&mut b, Side::Union, Phase::FirstMovement);
    let k = a_unit(&b, a(1, 2));
    let r = mv(&mut b, k, &[a(1, 3)]).unwrap();
    assert_eq!(r.joined, Some(host));
    let h = b.unit(host).unwrap();
    assert_eq!(h.stand_count(), 4);
    assert_eq!(h.hits(), 0);
    assert!(h.disordered());
}

fn a_unit(b: &Battle, area: Area) -> UnitId {
    b.units_at(area).next().unwrap().id()
}

#[test]
fn mov_15_disordered_units_do_not_move() {
    // GRID-MOV-15: a disordered unit may only retreat.
    let mut b = square();
    let i = b
        .deploy(UnitSpec::new(Side::Union, a(1, 1), vec![inf(Side::Union); 3]).disordered())
        .unwrap();
    ready(&mut b);
    assert_eq!(mv(&mut b, i, &[a(1, 2)]), Err(RuleViolation::Disordered(i)));
}

#[test]
fn mov_16_no_entering_enemy_areas() {
    // GRID-MOV-16: never into an area holding enemy stands.
    let mut b = square();
    let i = put(
        &mut b,
        Side::Union,
        a(1, 1),
        &stand(Side::Union, StandType::Cavalry),
        1,
        0,
    );
    put_inf(&mut b, Side::Confederate, a(1, 2), 1, 2);
    ready(&mut b);
    assert_eq!(
        mv(&mut b, i, &[a(1, 2)]),
        Err(RuleViolation::EnemyInArea(a(1, 2)))
    );
}

#[test]
fn mov_17_what_counts_as_an_attack() {
    // GRID-MOV-17: a move that ends adjacent to an enemy is an attack; already adjacent and still is not.
    let mut b = square();
    let i = put_inf(&mut b, Side::Union, a(5, 3), 3, 0);
    let still = put_inf(&mut b, Side::Union, a(8, 5), 3, 0);
    put_inf(&mut b, Side::Confederate, a(5, 5), 3, 2);
    put_inf(&mut b, Side::Confederate, a(8, 6), 3, 2);
    ready(&mut b);
    let r = mv(&mut b, i, &[a(5, 4)]).unwrap();
    assert!(r.attack);
    assert!(b.unit(i).unwrap().flags().attacked);
    assert_eq!(b.unit(i).unwrap().attacked_areas(), &[a(5, 5)]);
    assert!(b.engaged(still).unwrap() && !b.unit(still).unwrap().flags().attacked);
}

#[test]
fn mov_18_halt_next_to_the_enemy() {
    // GRID-MOV-18: a unit must stop on entering an area adjacent to an enemy, meaning to attack or not.
    let mut b = square();
    let c = put(
        &mut b,
        Side::Union,
        a(4, 3),
        &stand(Side::Union, StandType::Cavalry),
        1,
        0,
    );
    put_inf(&mut b, Side::Confederate, a(5, 5), 1, 2);
    ready(&mut b);
    assert_eq!(
        mv(&mut b, c, &[a(4, 4), a(4, 5), a(4, 6)]),
        Err(RuleViolation::MustHalt(a(4, 5)))
    );
    assert_eq!(
        mv(&mut b, c, &[a(4, 4), a(5, 4), a(6, 4)]),
        Err(RuleViolation::MustHalt(a(5, 4)))
    );
}

#[test]
fn mov_19_attacks_go_to_the_front() {
    // GRID-MOV-19: every enemy contacted must have been in the front arc at the start (option: at least one).
    let mut b = square();
    let i = put_inf(&mut b, Side::Union, a(5, 3), 3, 0); // facing north
    put_inf(&mut b, Side::Confederate, a(6, 5), 3, 2); // (1,2) from the start: in the arc
    put_inf(&mut b, Side::Confederate, a(7, 4), 3, 2); // (2,1): outside it
    let mut lenient = b.clone();
    set_opt(&mut lenient, |o| {
        o.attack_front_check = AttackFrontCheck::AtLeastOne
    });
    let mut alone = b.clone();
    ready(&mut b);
    // (6,4) touches both.
    assert_eq!(
        mv(&mut b, i, &[a(5, 4), a(6, 4)]),
        Err(RuleViolation::NotToFront(a(7, 4)))
    );
    ready(&mut lenient);
    assert!(mv(&mut lenient, i, &[a(5, 4), a(6, 4)]).unwrap().attack);
    // An attack on the one in the arc alone is fine: (5,5) touches (6,5) only.
    ready(&mut alone);
    assert!(mv(&mut alone, i, &[a(5, 4), a(5, 5)]).unwrap().attack);
}

#[test]
fn mov_20_attack_path_in_the_arc() {
    // GRID-MOV-20: every area of an attack's path lies in the front arc from the start (option: lenient).
    let mut b = square();
    let c = put(
        &mut b,
        Side::Union,
        a(5, 3),
        &stand(Side::Union, StandType::Cavalry),
        3,
        0,
    );
    put_inf(&mut b, Side::Confederate, a(6, 6), 3, 2);
    let mut lenient = b.clone();
    set_opt(&mut lenient, |o| o.attack_path_in_arc = false);
    let mut straight = b.clone();
    ready(&mut b);
    assert_eq!(
        mv(&mut b, c, &[a(6, 3), a(6, 4), a(6, 5)]),
        Err(RuleViolation::PathOutsideArc(a(6, 3)))
    );
    ready(&mut lenient);
    assert!(
        mv(&mut lenient, c, &[a(6, 3), a(6, 4), a(6, 5)])
            .unwrap()
            .attack
    );
    ready(&mut straight);
    assert!(
        mv(&mut straight, c, &[a(5, 4), a(5, 5), a(6, 5)])
            .unwrap()
            .attack
    );
}

#[test]
fn mov_21_units_that_start_engaged() {
    // GRID-MOV-21: an engaged unit may move away but not attack.
    let mut b = square();
    let i = put(
        &mut b,
        Side::Union,
        a(5, 5),
        &stand(Side::Union, StandType::Cavalry),
        3,
        0,
    );
    put_inf(&mut b, Side::Confederate, a(5, 6), 3, 2);
    put_inf(&mut b, Side::Confederate, a(7, 4), 3, 2);
    let mut away = b.clone();
    ready(&mut b);
    assert_eq!(
        mv(&mut b, i, &[a(6, 5), a(6, 4)]),
        Err(RuleViolation::EngagedMayNotAttack(a(6, 4)))
    );
    ready(&mut away);
    let r = mv(&mut away, i, &[a(5, 4), a(5, 3)]).unwrap();
    assert!(!r.attack);
    assert!(!away.engaged(i).unwrap());
}

#[test]
fn mov_22_mounting_and_dismounting() {
    // GRID-MOV-22: cavalry picks its state at the start (3 mounted, 2 dismounted); changes at the end of a move
    // that was not an attack; dismounted it counts as infantry for terrain. Infantry cannot mount.
    let mut b = square();
    let c = put(
        &mut b,
        Side::Union,
        a(1, 1),
        &stand(Side::Union, StandType::Cavalry),
        3,
        0,
    );
    let i = put_inf(&mut b, Side::Union, a(3, 1), 3, 0);
    ground(&mut b, a(1, 2), Ground::Difficult);
    ready(&mut b);
    let mut o = MoveOrder::along(b.unit(c).unwrap(), vec![a(1, 2)]);
    assert_eq!(b.move_unit(&o), Err(RuleViolation::Prohibited(a(1, 2))));
    o.mount = Mount::Dismounted;
    o.end_mount = Mount::Dismounted;
    let r = b.move_unit(&o).unwrap();
    assert_eq!(r.cost_halves, 4);
    assert_eq!(b.unit(c).unwrap().mount(), Mount::Dismounted);
    let mut o = MoveOrder::along(b.unit(i).unwrap(), vec![a(3, 2)]);
    o.end_mount = Mount::Dismounted;
    assert!(matches!(
        b.move_unit(&o),
        Err(RuleViolation::BadFormation(_))
    ));
}

#[test]
fn mov_23_mounted_attack_stays_mounted() {
    // GRID-MOV-23: cavalry that attacks mounted stays mounted.
    let mut b = square();
    let c = put(
        &mut b,
        Side::Union,
        a(5, 3),
        &stand(Side::Union, StandType::Cavalry),
        3,
        0,
    );
    put_inf(&mut b, Side::Confederate, a(5, 6), 3, 2);
    ready(&mut b);
    let mut o = MoveOrder::along(b.unit(c).unwrap(), vec![a(5, 4), a(5, 5)]);
    o.end_mount = Mount::Dismounted;
    assert_eq!(b.move_unit(&o), Err(RuleViolation::MustStayMounted));
    o.end_mount = Mount::Mounted;
    assert!(b.move_unit(&o).unwrap().attack);
}

#[test]
fn mov_24_artillery_deployment() {
    // GRID-MOV-24: artillery bombards only deployed; it moves in either formation, chosen at the end.
    let mut b = square();
    let gun = b
        .deploy(
            UnitSpec::new(
                Side::Union,
                a(5, 2),
                vec![stand(Side::Union, StandType::Artillery)],
            )
            .column(),
        )
        .unwrap();
    let t = put_inf(&mut b, Side::Confederate, a(5, 4), 3, 2);
    assert!(matches!(
        b.bombard_dice(BombardOrder {
            battery: gun,
            target: t
        }),
        Err(RuleViolation::NotEligible { .. })
    ));
    ready(&mut b);
    let o = MoveOrder::along(b.unit(gun).unwrap(), vec![a(4, 2)]).ending(Formation::Line);
    b.move_unit(&o).unwrap();
    assert!(!b.unit(gun).unwrap().in_column());
}

#[test]
fn mov_25_wagons() {
    // GRID-MOV-25: 1 area, 2 by road; no broken or difficult ground off road; no obstacle crossing off road.
    let mut b = road_board();
    let w = put(
        &mut b,
        Side::Union,
        a(3, 1),
        &stand(Side::Union, StandType::Wagons),
        1,
        0,
    );
    b.board_mut().add_obstacle(a(3, 1), a(3, 2)).unwrap();
    ready(&mut b);
    assert!(matches!(
        mv(&mut b, w, &[a(3, 2)]),
        Err(RuleViolation::TooFar {
            cost_halves: 4,
            allowance_halves: 2
        })
    ));
    assert!(matches!(
        mv(&mut b, w, &[a(2, 1), a(1, 1)]),
        Err(RuleViolation::TooFar { .. })
    ));
    mv(&mut b, w, &[a(4, 1)]).unwrap();
}

#[test]
fn mov_26_entrenching() {
    // GRID-MOV-26: infantry that does not move, is not engaged and was not bombarded adds 1d6 a turn; done at 6.
    let turns = EntrenchTurns { progress: 0 }.odds();
    assert_prob("done by turn 2", turns.cdf(&2), 13.0 / 18.0);
    assert_prob("expected turns", turns.mean(), 16807.0 / 7776.0);
    assert_eq!(EntrenchRoll { progress: 4 }.roll(&mut dice(&[5])), 6);
    assert_prob(
        "from 4, done at once",
        EntrenchRoll { progress: 4 }.odds().p(&6),
        5.0 / 6.0,
    );
    let mut b = square();
    let i = put_inf(&mut b, Side::Union, a(1, 1), 3, 0);
    let cav = b
        .deploy(
            UnitSpec::new(
                Side::Union,
                a(3, 1),
                vec![stand(Side::Union, StandType::Cavalry); 3],
            )
            .dismounted(),
        )
        .unwrap();
    let engaged = put_inf(&mut b, Side::Union, a(8, 8), 3, 0);
    put_inf(&mut b, Side::Confederate, a(8, 9), 3, 2);
    let mut with_cav = b.clone();
    set_opt(&mut with_cav, |o| o.dismounted_cavalry_entrench = true);
    ready(&mut b);
    assert_eq!(b.entrench(i, &mut dice(&[4])).unwrap(), 4);
    assert!(matches!(
        b.entrench(i, &mut dice(&[4])),
        Err(RuleViolation::NotEligible { .. })
    ));
    assert!(matches!(
        b.entrench(cav, &mut dice(&[4])),
        Err(RuleViolation::NotEligible { .. })
    ));
    assert!(matches!(
        b.entrench(engaged, &mut dice(&[4])),
        Err(RuleViolation::NotEligible { .. })
    ));
    ready(&mut with_cav);
    assert_eq!(with_cav.entrench(cav, &mut dice(&[2])).unwrap(), 2);
    // The next turn: 4 + 3 = 7, finished.
    end_turn(&mut b);
    go_to(&mut b, Side::Union, Phase::FirstMovement);
    assert_eq!(b.entrench(i, &mut dice(&[3])).unwrap(), 6);
    assert!(b.unit(i).unwrap().entrenched());
}

#[test]
fn mov_26_bombarded_units_do_not_dig() {
    // GRID-MOV-26: a bombardment target may not dig that turn (option: only if it took hits).
    let mut b = square();
    let gun = put(
        &mut b,
        Side::Confederate,
        a(5, 7),
        &stand(Side::Confederate, StandType::Artillery),
        1,
        2,
    );
    let i = put_inf(&mut b, Side::Union, a(5, 5), 3, 0);
    let mut hits_only = b.clone();
    set_opt(&mut hits_only, |o| {
        o.bombarded_for_entrenching = BombardedMeans::TookHits
    });
    for bb in [&mut b, &mut hits_only] {
        go_to(bb, Side::Union, Phase::Bombardment);
        bb.bombardment_phase(
            &[BombardOrder {
                battery: gun,
                target: i,
            }],
            &mut dice(&[1, 2]),
        )
        .unwrap();
        bb.advance().unwrap();
    }
    assert!(matches!(
        b.entrench(i, &mut dice(&[4])),
        Err(RuleViolation::NotEligible { .. })
    ));
    assert_eq!(hits_only.entrench(i, &mut dice(&[4])).unwrap(), 4);
}

#[test]
fn mov_27_entrenchments_are_cover_and_lost_on_moving() {
    // GRID-MOV-27: finished entrenchments count as cover; moving for any reason loses all the work.
    let mut b = square();
    let i = put_inf(&mut b, Side::Union, a(1, 1), 3, 0);
    ready(&mut b);
    b.entrench(i, &mut dice(&[6])).unwrap();
    assert!(b.unit(i).unwrap().own_cover());
    end_turn(&mut b);
    go_to(&mut b, Side::Union, Phase::FirstMovement);
    mv(&mut b, i, &[a(1, 2)]).unwrap();
    let u = b.unit(i).unwrap();
    assert!(!u.entrenched() && u.entrench_progress() == 0);
}

#[test]
fn mov_28_fortifications() {
    // GRID-MOV-28: a scenario fortification gives cover and stays when units leave.
    let mut b = square();
    b.board_mut()
        .set_terrain(
            a(1, 1),
            Terrain {
                fortification: true,
                ..Terrain::OPEN
            },
        )
        .unwrap();
    let i = put_inf(&mut b, Side::Union, a(1, 1), 3, 0);
    ready(&mut b);
    mv(&mut b, i, &[a(1, 2)]).unwrap();
    assert!(b.board().terrain(a(1, 1)).unwrap().gives_cover());
}

#[test]
fn mov_29_minimum_move() {
    // GRID-MOV-29: with the option a unit may always move 1 area into terrain it may enter.
    let mut b = square();
    let w = put(
        &mut b,
        Side::Union,
        a(3, 1),
        &stand(Side::Union, StandType::Wagons),
        1,
        0,
    );
    b.board_mut().add_obstacle(a(3, 1), a(3, 2)).unwrap();
    let mut opt = b.clone();
    set_opt(&mut opt, |o| o.minimum_move = true);
    ready(&mut b);
    assert!(mv(&mut b, w, &[a(3, 2)]).is_err());
    ready(&mut opt);
    mv(&mut opt, w, &[a(3, 2)]).unwrap();
    assert_eq!(opt.unit(w).unwrap().area(), a(3, 2));
}
