//! Combat: GRID-MEL-01 to GRID-MEL-19.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::Resolve;
use acw_core::Side;
use acw_core::testing::assert_prob;
use acw_core::vocab::Mount;
use acw_grid::board::{FlankSide, GridKind, Terrain};
use acw_grid::combat::{
    Combat, CombatOdds, CombatPlan, CombatSide, Tester, combat_modifier, own_dice,
};
use acw_grid::error::RuleViolation;
use acw_grid::movement::MoveOrder;
use acw_grid::options::{FlankTest, HitAllocation, HitComparison, Rounding};
use acw_grid::pool::HitPool;
use acw_grid::setup::UnitSpec;
use acw_grid::state::{CommanderId, DivisionId, Phase, Rank};
use acw_grid::tables::{Firepower, Ground, MoraleResult, StandType};
use common::*;

fn combat_of(centre: acw_grid::UnitId, opponents: &[acw_grid::UnitId]) -> Combat {
    Combat {
        centre,
        opponents: opponents.to_vec(),
    }
}

#[test]
fn mel_01_combat_is_compulsory() {
    // GRID-MEL-01: every engaged unit fights, whoever moved.
    let mut b = square();
    let u = put_inf(&mut b, Side::Union, a(5, 5), 3, 0);
    let c = put_inf(&mut b, Side::Confederate, a(5, 6), 3, 2);
    go_to(&mut b, Side::Union, Phase::Combat);
    assert_eq!(
        b.check_combats(&[]),
        Err(RuleViolation::BadCombatSplit(
            "every engaged unit must fight"
        ))
    );
    let plan = CombatPlan {
        combats: Some(vec![]),
        ..CombatPlan::default()
    };
    assert!(b.resolve_combats(&plan, &mut dice(&[])).is_err());
    assert_eq!(b.default_combats(), vec![combat_of(u, &[c])]);
    b.resolve_combats(&CombatPlan::default(), &mut dice(&[1; 12]))
        .unwrap();
    assert!(
        b.resolve_combats(&CombatPlan::default(), &mut dice(&[1; 12]))
            .is_err(),
        "once a turn"
    );
    // Next turn they are still adjacent and must fight again, whoever moved.
    next_turn(&mut b, Side::Union, Phase::Combat);
    assert_eq!(
        b.resolve_combats(&CombatPlan::default(), &mut dice(&[1; 12]))
            .unwrap()
            .combats
            .len(),
        1
    );
}

#[test]
fn mel_02_default_split() {
    // GRID-MEL-02: a breadth-first tree from the initiative player's lowest unit; deepest first join their
    // parent's combat.
    let mut b = square();
    let u1 = put_inf(&mut b, Side::Union, a(5, 5), 3, 0);
    let c1 = put_inf(&mut b, Side::Confederate, a(5, 6), 3, 2);
    let u2 = put_inf(&mut b, Side::Union, a(5, 7), 3, 2);
    go_to(&mut b, Side::Union, Phase::Combat);
    assert_eq!(b.default_combats(), vec![combat_of(c1, &[u1, u2])]);
    // Four units in a square: two combats; U1 and C1, though adjacent, do not fight each other.
    let mut q = square();
    let u1 = put_inf(&mut q, Side::Union, a(5, 5), 3, 0);
    let c1 = put_inf(&mut q, Side::Confederate, a(5, 6), 3, 2);
    let u2 = put_inf(&mut q, Side::Union, a(6, 6), 3, 2);
    let c2 = put_inf(&mut q, Side::Confederate, a(6, 5), 3, 3);
    go_to(&mut q, Side::Union, Phase::Combat);
    let combats = q.default_combats();
    assert_eq!(combats, vec![combat_of(u1, &[c2]), combat_of(c1, &[u2])]);
    assert!(q.check_combats(&combats).is_ok());
}

#[test]
fn mel_03_caller_split_is_checked() {
    // GRID-MEL-03: the initiative player (or a GM, GRID-OPT-05) may give any split that obeys GRID-MEL-02.
    let mut b = square();
    let u1 = put_inf(&mut b, Side::Union, a(5, 5), 3, 0);
    let c1 = put_inf(&mut b, Side::Confederate, a(5, 6), 3, 2);
    let u2 = put_inf(&mut b, Side::Union, a(6, 6), 3, 2);
    let c2 = put_inf(&mut b, Side::Confederate, a(6, 5), 3, 3);
    go_to(&mut b, Side::Union, Phase::Combat);
    let other = vec![combat_of(u1, &[c1]), combat_of(u2, &[c2])];
    assert!(b.check_combats(&other).is_ok());
    assert!(
        b.check_combats(&[combat_of(u1, &[c1, u2]), combat_of(c2, &[])])
            .is_err()
    );
    assert_eq!(
        b.check_combats(&[
            combat_of(u1, &[c1]),
            combat_of(u2, &[c1]),
            combat_of(c2, &[u1])
        ]),
        Err(RuleViolation::BadCombatSplit(
            "a unit is in more than one combat"
        ))
    );
    // Without a GM only the initiative player (the Union here) splits.
    let theirs = CombatPlan {
        combats: Some(other.clone()),
        split_by: Some(Side::Confederate),
        ..CombatPlan::default()
    };
    assert!(matches!(
        b.resolve_combats(&theirs, &mut dice(&[1; 24])),
        Err(RuleViolation::BadCombatSplit(_))
    ));
    let mut gm = b.clone();
    set_opt(&mut gm, |o| o.game_master = true);
    assert!(matches!(
        gm.resolve_combats(&theirs, &mut dice(&[1; 24])),
        Err(RuleViolation::BadCombatSplit(_))
    ));
    let by_gm = CombatPlan {
        combats: Some(other.clone()),
        ..CombatPlan::default()
    };
    assert_eq!(
        gm.resolve_combats(&by_gm, &mut dice(&[1; 24]))
            .map(|r| r.combats.len()),
        Ok(2)
    );
    let plan = CombatPlan {
        combats: Some(other),
        split_by: Some(Side::Union),
        ..CombatPlan::default()
    };
    let r = b.resolve_combats(&plan, &mut dice(&[1; 24])).unwrap();
    assert_eq!(r.combats.len(), 2);
}

#[test]
fn mel_04_two_dice_a_stand_three_stands() {
    // GRID-MEL-04: 2 dice per stand, at most 3 stands; wagons roll none.
    let o = acw_grid::Options::default();
    let mut b = square();
    let two = put_inf(&mut b, Side::Union, a(1, 1), 2, 0);
    let three = put_inf(&mut b, Side::Union, a(3, 1), 3, 0);
    let wag = put(
        &mut b,
        Side::Union,
        a(5, 1),
        &stand(Side::Union, StandType::Wagons),
        2,
        0,
    );
    let none = Default::default();
    assert_eq!(own_dice(b.unit(two).unwrap(), none, &o).len(), 4);
    assert_eq!(own_dice(b.unit(three).unwrap(), none, &o).len(), 6);
    assert_eq!(own_dice(b.unit(wag).unwrap(), none, &o).len(), 0);
}

#[test]
fn mel_05_inner_support_die() {
    // GRID-MEL-05: +1 die if the unit has supporting stands; at most 1.
    let o = acw_grid::Options::default();
    let mut b = square();
    let four = put_inf(&mut b, Side::Union, a(1, 1), 4, 0);
    let six = put_inf(&mut b, Side::Union, a(3, 1), 6, 0);
    let none = Default::default();
    assert_eq!(own_dice(b.unit(four).unwrap(), none, &o).len(), 7);
    assert_eq!(own_dice(b.unit(six).unwrap(), none, &o).len(), 7);
}

#[test]
fn mel_06_support_from_nearby_units() {
    // GRID-MEL-06: +1 die per unengaged friendly unit adjacent to a friendly unit in the combat; one combat
    // each (option: every one); disordered units and columns may support (option: not).
    let mut b = square();
    let u = put_inf(&mut b, Side::Union, a(5, 5), 3, 0);
    let c = put_inf(&mut b, Side::Confederate, a(5, 6), 3, 2);
    let s = b
        .deploy(
            UnitSpec::new(
                Side::Union,
                a(5, 4),
                vec![inf(Side::Union).with_firepower(Firepower::Superior); 6],
            )
            .disordered(),
        )
        .unwrap();
    let cb = combat_of(u, &[c]);
    assert_eq!(b.may_support(s, &cb), Ok(Side::Union));
    assert_eq!(b.default_support(std::slice::from_ref(&cb)), vec![(s, 0)]);
    let mut strict = b.clone();
    set_opt(&mut strict, |o| o.disordered_or_column_support = false);
    assert!(strict.may_support(s, &cb).is_err());
    go_to(&mut b, Side::Union, Phase::Combat);
    // Union: 6 dice 1s, then the support die (superior, 4 hits); Confederates 6 dice 1s.
    let mut d = dice(&[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 4]);
    let r = b.resolve_combats(&CombatPlan::default(), &mut d).unwrap();
    assert_eq!(r.combats[0].support.0.dice(), 1);
    assert_eq!(r.combats[0].raw, (0, 1));
    // A unit supports one combat only (option: every adjacent combat).
    let mut t = square();
    let u1 = put_inf(&mut t, Side::Union, a(4, 5), 1, 0);
    let c1 = put_inf(&mut t, Side::Confederate, a(4, 6), 1, 2);
    let u2 = put_inf(&mut t, Side::Union, a(6, 5), 1, 0);
    let c2 = put_inf(&mut t, Side::Confederate, a(6, 6), 1, 2);
    let sup = put_inf(&mut t, Side::Union, a(5, 5), 1, 0);
    let cs = vec![combat_of(u1, &[c1]), combat_of(u2, &[c2])];
    assert_eq!(t.default_support(&cs), vec![(sup, 0)]);
    go_to(&mut t, Side::Union, Phase::Combat);
    let both = CombatPlan {
        combats: Some(cs.clone()),
        split_by: Some(Side::Union),
        support: Some(vec![(sup, 0), (sup, 1)]),
        ..CombatPlan::default()
    };
    assert!(matches!(
        t.resolve_combats(&both, &mut dice(&[1; 20])),
        Err(RuleViolation::NotEligible { .. })
    ));
    set_opt(&mut t, |o| o.support_every_combat = true);
    assert_eq!(t.default_support(&cs), vec![(sup, 0), (sup, 1)]);
    assert!(t.resolve_combats(&both, &mut dice(&[1; 20])).is_ok());
}

#[test]
fn mel_07_disadvantaged_units_roll_half() {
    // GRID-MEL-07: half dice if disordered, in column or flanked: own dice halved once, rounded down; support
    // not halved. Options: round up, halve support, quarter for two disadvantages.
    let mut b = square();
    let six = b
        .deploy(
            UnitSpec::new(Side::Union, a(5, 5), vec![inf(Side::Union); 6])
                .disordered()
                .column(),
        )
        .unwrap();
    let e = put_inf(&mut b, Side::Confederate, a(5, 6), 3, 2);
    let c = combat_of(six, &[e]);
    let d = b.unit_dice(six, &c).unwrap();
    assert_eq!((d.own_before, d.own.dice()), (7, 3));
    assert!(d.disadvantages.disordered && d.disadvantages.column && !d.disadvantages.flank);
    let mut up = b.clone();
    set_opt(&mut up, |o| o.halving_rounding = Rounding::Up);
    assert_eq!(up.unit_dice(six, &c).unwrap().own.dice(), 4);
    let mut quarter = b.clone();
    set_opt(&mut quarter, |o| o.stacking_disadvantages = true);
    assert_eq!(quarter.unit_dice(six, &c).unwrap().own.dice(), 1);
    assert_eq!(Rounding::Up.quarter(7), 2);
    // Support dice are not halved by default; with the option they are.
    let s1 = put_inf(&mut b, Side::Union, a(4, 5), 1, 0);
    let s2 = put_inf(&mut b, Side::Union, a(6, 5), 1, 0);
    let _ = (s1, s2);
    let mut halve = b.clone();
    set_opt(&mut halve, |o| o.halve_outside_support = true);
    go_to(&mut b, Side::Union, Phase::Combat);
    let r = b
        .resolve_combats(&CombatPlan::default(), &mut dice(&[1; 20]))
        .unwrap();
    assert_eq!(r.combats[0].support.0.dice(), 2);
    go_to(&mut halve, Side::Union, Phase::Combat);
    let r = halve
        .resolve_combats(&CombatPlan::default(), &mut dice(&[1; 20]))
        .unwrap();
    assert_eq!(r.combats[0].support.0.dice(), 1);
}

#[test]
fn mel_08_attacked_in_flank_or_rear() {
    // GRID-MEL-08: an enemy of its combat on a flank or rear side halves the unit; a refused flank covers one
    // side; option: only an enemy that moved in this turn.
    let mut b = square();
    let u = put_inf(&mut b, Side::Union, a(5, 5), 6, 0);
    let e = put_inf(&mut b, Side::Confederate, a(6, 5), 3, 3);
    let c = combat_of(u, &[e]);
    assert!(b.attacked_in_flank(u, &c).unwrap());
    assert_eq!(b.unit_dice(u, &c).unwrap().own.dice(), 3);
    let mut refused = b.clone();
    go_to(&mut refused, Side::Union, Phase::FirstMovement);
    refused.refuse_flank(u, FlankSide::Right).unwrap();
    assert!(!refused.attacked_in_flank(u, &c).unwrap());
    let mut moved = b.clone();
    set_opt(&mut moved, |o| o.flank_test = FlankTest::OnlyIfMovedIn);
    assert!(!moved.attacked_in_flank(u, &c).unwrap());
    // The enemy in front is not a flank attack; hexes: the rear-oblique side is.
    let mut h = battle(GridKind::Hex);
    let hu = put_inf(&mut h, Side::Union, a(3, 3), 3, 0);
    let he = put_inf(&mut h, Side::Confederate, a(4, 2), 3, 5);
    assert!(h.attacked_in_flank(hu, &combat_of(hu, &[he])).unwrap());
    let mut f = square();
    let fu = put_inf(&mut f, Side::Union, a(5, 5), 3, 0);
    let fe = put_inf(&mut f, Side::Confederate, a(5, 6), 3, 2);
    assert!(!f.attacked_in_flank(fu, &combat_of(fu, &[fe])).unwrap());
}

#[test]
fn mel_09_hits_on_five_and_six() {
    // GRID-MEL-09: each 5 or 6 hits the other side.
    let mut b = square();
    let u = put_inf(&mut b, Side::Union, a(5, 5), 1, 0);
    let c = put_inf(&mut b, Side::Confederate, a(5, 6), 1, 2);
    go_to(&mut b, Side::Union, Phase::Combat);
    let r = b
        .resolve_combats(&CombatPlan::default(), &mut dice(&[5, 6, 4, 1]))
        .unwrap();
    assert_eq!(r.combats[0].raw, (0, 2));
    assert!(b.unit(c).is_err(), "2 hits destroy a 1-stand unit");
    assert_eq!(b.unit(u).unwrap().hits(), 0);
}

#[test]
fn mel_10_quality_modifiers() {
    // GRID-MEL-10: superior or shock +1 (both +2 with the option), unsteady -1, inferior 0 (option -1), clamp.
    let o = acw_grid::Options::default();
    let s = inf(Side::Union);
    assert_eq!(
        combat_modifier(&s.clone().with_firepower(Firepower::Superior), &o),
        1
    );
    assert_eq!(combat_modifier(&s.clone().shock(), &o), 1);
    assert_eq!(
        combat_modifier(&s.clone().shock().with_firepower(Firepower::Superior), &o),
        1
    );
    assert_eq!(combat_modifier(&s.clone().unsteady(), &o), -1);
    assert_eq!(
        combat_modifier(
            &s.clone().unsteady().with_firepower(Firepower::Superior),
            &o
        ),
        0
    );
    assert_eq!(
        combat_modifier(&s.clone().with_firepower(Firepower::Inferior), &o),
        0
    );
    let both = opts(|o| o.superior_and_shock_cumulative = true);
    assert_eq!(
        combat_modifier(
            &s.clone().shock().with_firepower(Firepower::Superior),
            &both
        ),
        2
    );
    let inferior = opts(|o| o.inferior_in_close_fire = true);
    let poor = s.clone().with_firepower(Firepower::Inferior).unsteady();
    assert_eq!(combat_modifier(&poor, &inferior), -1);
    let unclamped = opts(|o| {
        o.inferior_in_close_fire = true;
        o.clamp_net_modifier = false;
    });
    assert_eq!(combat_modifier(&poor, &unclamped), -2);
    assert_prob("+1 die", HitPool::uniform(1, 1).unwrap().odds().p(&1), 0.5);
}

#[test]
fn mel_11_cover_and_advantageous_positions() {
    // GRID-MEL-11: half the hits in cover or defending an advantageous position; the two do not stack.
    let mut b = square();
    b.board_mut()
        .set_terrain(
            a(5, 5),
            Terrain {
                ground: Ground::Broken,
                cover: true,
                advantageous: true,
                ..Terrain::OPEN
            },
        )
        .unwrap();
    b.board_mut()
        .set_terrain(
            a(5, 6),
            Terrain {
                advantageous: true,
                ..Terrain::OPEN
            },
        )
        .unwrap();
    let u = put_inf(&mut b, Side::Union, a(5, 5), 3, 0);
    let c = put_inf(&mut b, Side::Confederate, a(5, 6), 3, 2);
    go_to(&mut b, Side::Union, Phase::Combat);
    // Union 6 dice: 4 hits; Confederates 6 dice: 4 hits. Each side halves to 2 (cover and advantage together
    // halve once).
    let r = b
        .resolve_combats(
            &CombatPlan::default(),
            &mut dice(&[6, 6, 6, 6, 1, 1, 6, 6, 6, 6, 1, 1]),
        )
        .unwrap();
    assert_eq!(r.combats[0].taken, vec![(u, 2), (c, 2)]);
    // An attacker does not get the advantage of its own area.
    let mut m = square();
    m.board_mut()
        .set_terrain(
            a(5, 5),
            Terrain {
                advantageous: true,
                ..Terrain::OPEN
            },
        )
        .unwrap();
    let u = put_inf(&mut m, Side::Union, a(5, 4), 3, 0);
    let c = put_inf(&mut m, Side::Confederate, a(5, 6), 3, 2);
    go_to(&mut m, Side::Union, Phase::FirstMovement);
    m.move_unit(&MoveOrder::along(m.unit(u).unwrap(), vec![a(5, 5)]))
        .unwrap();
    m.advance().unwrap();
    m.advance().unwrap();
    let r = m
        .resolve_combats(
            &CombatPlan::default(),
            &mut dice(&[1, 1, 1, 1, 1, 1, 6, 6, 1, 1, 1, 1]),
        )
        .unwrap();
    assert_eq!(r.combats[0].taken, vec![(u, 2), (c, 0)]);
}

#[test]
fn mel_12_sharing_hits() {
    // GRID-MEL-12: as evenly as possible, the receiver placing the remainder (options: free, inflicter).
    let mut b = square();
    let c = put_inf(&mut b, Side::Confederate, a(5, 6), 6, 2);
    let u1 = put_inf(&mut b, Side::Union, a(5, 5), 3, 0);
    let u2 = put_inf(&mut b, Side::Union, a(4, 6), 3, 1);
    go_to(&mut b, Side::Union, Phase::Combat);
    let split = vec![combat_of(c, &[u1, u2])];
    // Confederate centre: 7 dice, 3 hits; Union units: 6 + 6 dice, all 1s.
    let faces: Vec<u16> = [vec![6, 6, 6, 1, 1, 1, 1], vec![1; 12]].concat();
    let mut even = b.clone();
    let plan = CombatPlan {
        combats: Some(split.clone()),
        split_by: Some(Side::Union),
        ..CombatPlan::default()
    };
    let r = even.resolve_combats(&plan, &mut dice(&faces)).unwrap();
    assert_eq!(r.combats[0].taken, vec![(c, 0), (u1, 2), (u2, 1)]);
    let mut placed = b.clone();
    let plan = CombatPlan {
        combats: Some(split.clone()),
        split_by: Some(Side::Union),
        allocation: vec![(0, vec![(u1, 1), (u2, 2)])],
        ..CombatPlan::default()
    };
    let r = placed.resolve_combats(&plan, &mut dice(&faces)).unwrap();
    assert_eq!(r.combats[0].taken, vec![(c, 0), (u1, 1), (u2, 2)]);
    let lopsided = CombatPlan {
        combats: Some(split.clone()),
        split_by: Some(Side::Union),
        allocation: vec![(0, vec![(u1, 3), (u2, 0)])],
        ..CombatPlan::default()
    };
    assert!(matches!(
        b.clone().resolve_combats(&lopsided, &mut dice(&faces)),
        Err(RuleViolation::BadAllocation(_))
    ));
    let mut free = b.clone();
    set_opt(&mut free, |o| {
        o.hit_allocation = HitAllocation::ReceiverFree
    });
    let r = free.resolve_combats(&lopsided, &mut dice(&faces)).unwrap();
    assert_eq!(r.combats[0].taken, vec![(c, 0), (u1, 3), (u2, 0)]);
    set_opt(&mut b, |o| o.hit_allocation = HitAllocation::Inflicter);
    assert!(b.resolve_combats(&lopsided, &mut dice(&faces)).is_ok());
}

#[test]
fn mel_13_order_of_applying_results() {
    // GRID-MEL-13: allocation, cover, commander, markers, record, remove the destroyed.
    let mut b = square();
    b.board_mut()
        .set_terrain(
            a(0, 0),
            Terrain {
                cover: true,
                ..Terrain::OPEN
            },
        )
        .unwrap();
    let u = put(
        &mut b,
        Side::Union,
        a(0, 0),
        &inf(Side::Union).tenacious(),
        3,
        0,
    );
    let c = put_inf(&mut b, Side::Confederate, a(0, 1), 1, 2);
    go_to(&mut b, Side::Union, Phase::Combat);
    // The Confederates roll 2 dice (6 6: 2 hits on the Union unit in cover: 1); the Union commanders roll 5
    // (cancel: 0 left) and 3; the marker is not spent as no hit is left.
    let plan = CombatPlan {
        markers: vec![(u, 0)],
        ..CombatPlan::default()
    };
    let faces = [1, 1, 1, 1, 1, 1, 6, 6, 5, 3];
    let r = b.resolve_combats(&plan, &mut dice(&faces)).unwrap();
    assert_eq!(r.combats[0].taken, vec![(u, 0), (c, 0)]);
    assert!(b.unit(u).unwrap().stands()[0].tenacity);
    // Without the commander's luck, the marker takes the last hit.
    let mut m = square();
    let u = put(
        &mut m,
        Side::Union,
        a(5, 5),
        &inf(Side::Union).tenacious(),
        3,
        0,
    );
    let c = put_inf(&mut m, Side::Confederate, a(5, 6), 3, 2);
    go_to(&mut m, Side::Union, Phase::Combat);
    let plan = CombatPlan {
        markers: vec![(u, 1)],
        ..CombatPlan::default()
    };
    let r = m
        .resolve_combats(&plan, &mut dice(&[1, 1, 1, 1, 1, 1, 6, 6, 1, 1, 1, 1]))
        .unwrap();
    assert_eq!(r.combats[0].taken, vec![(u, 1), (c, 0)]);
    assert!(!m.unit(u).unwrap().stands()[1].tenacity);
    // GRID-MEL-14 counts the hits after the marker: the Union took more (1 to 0) and tests.
    assert_eq!(r.combats[0].tester, Some(Side::Union));
}

#[test]
fn mel_14_who_tests() {
    // GRID-MEL-14: only with both sides left; the side that took more tests; equal: nobody. Option: raw hits.
    let mut b = square();
    let u = put_inf(&mut b, Side::Union, a(5, 5), 3, 0);
    let c = put_inf(&mut b, Side::Confederate, a(5, 6), 1, 2);
    go_to(&mut b, Side::Union, Phase::Combat);
    let mut tie = b.clone();
    // Union: 2 hits, destroying the 1-stand Confederates: nobody tests though the Union took 0.
    let r = b
        .resolve_combats(&CombatPlan::default(), &mut dice(&[6, 6, 1, 1, 1, 1, 1, 1]))
        .unwrap();
    assert_eq!(r.combats[0].tester, None);
    assert!(b.unit(c).is_err());
    let r = tie
        .resolve_combats(&CombatPlan::default(), &mut dice(&[6, 1, 1, 1, 1, 1, 6, 1]))
        .unwrap();
    assert_eq!(r.combats[0].tester, None);
    assert_eq!(r.combats[0].taken, vec![(u, 1), (c, 1)]);
    // Raw comparison: the Union commander cancels a hit, yet the Union took more raw hits.
    let mut raw = square();
    let u = put_inf(&mut raw, Side::Union, a(0, 0), 3, 0);
    put_inf(&mut raw, Side::Confederate, a(0, 1), 3, 2);
    set_opt(&mut raw, |o| o.hit_comparison = HitComparison::Raw);
    let mut after = raw.clone();
    set_opt(&mut after, |o| {
        o.hit_comparison = HitComparison::AfterReductions
    });
    go_to(&mut raw, Side::Union, Phase::Combat);
    go_to(&mut after, Side::Union, Phase::Combat);
    let faces = [1, 1, 1, 1, 1, 1, 6, 1, 1, 1, 1, 1, 6, 3];
    let r = raw
        .resolve_combats(&CombatPlan::default(), &mut dice(&faces))
        .unwrap();
    assert_eq!(r.combats[0].taken[0], (u, 0));
    assert_eq!(r.combats[0].tester, Some(Side::Union));
    let r = after
        .resolve_combats(&CombatPlan::default(), &mut dice(&faces))
        .unwrap();
    assert_eq!(r.combats[0].tester, None);
}

#[test]
fn mel_15_mounted_cavalry_may_not_stay_in_contact() {
    // GRID-MEL-15: after retreats, mounted cavalry next to an enemy retreats a full move in disorder.
    let mut b = square();
    let cav = put(
        &mut b,
        Side::Union,
        a(5, 5),
        &stand(Side::Union, StandType::Cavalry),
        3,
        0,
    );
    let dis = b
        .deploy(
            UnitSpec::new(
                Side::Union,
                a(8, 5),
                vec![stand(Side::Union, StandType::Cavalry); 2],
            )
            .dismounted(),
        )
        .unwrap();
    put_inf(&mut b, Side::Confederate, a(5, 6), 3, 2);
    put_inf(&mut b, Side::Confederate, a(8, 6), 3, 2);
    go_to(&mut b, Side::Union, Phase::Combat);
    assert_eq!(b.cavalry_in_contact(), vec![cav]);
    assert!(acw_grid::Battle::has_dismounted_cavalry(
        b.unit(dis).unwrap()
    ));
    let (id, _) = b
        .forced_cavalry_retreat(cav, &[a(5, 4), a(5, 3), a(5, 2)])
        .unwrap();
    let u = b.unit(id).unwrap();
    assert_eq!(
        (u.area(), u.disordered(), u.mount()),
        (a(5, 2), true, Mount::Mounted)
    );
    assert!(b.forced_cavalry_retreat(dis, &[a(8, 4)]).is_err());
}

#[test]
fn mel_16_pursuit() {
    // GRID-MEL-16: a unit that attacked may take the area its enemy left.
    let mut b = square();
    let u = put_inf(&mut b, Side::Union, a(5, 3), 3, 0);
    let idle = put_inf(&mut b, Side::Union, a(6, 5), 3, 0);
    let c = put_inf(&mut b, Side::Confederate, a(5, 5), 3, 2);
    go_to(&mut b, Side::Union, Phase::FirstMovement);
    b.move_unit(&MoveOrder::along(b.unit(u).unwrap(), vec![a(5, 4)]))
        .unwrap();
    b.advance().unwrap();
    b.advance().unwrap();
    let n = facing(&b, 0);
    assert!(matches!(
        b.pursue(u, a(5, 5), n),
        Err(RuleViolation::BadPursuit(_))
    ));
    assert_eq!(
        lose_and_test(&mut b, c, 4),
        vec![(c, MoraleResult::Recoiled)]
    );
    assert_eq!(b.owed_retreats()[0].enemies, vec![a(5, 4), a(6, 5)]);
    b.carry_out(c).unwrap();
    assert_eq!(b.unit(c).unwrap().area(), a(5, 6));
    assert!(matches!(
        b.pursue(idle, a(5, 5), n),
        Err(RuleViolation::BadPursuit(_))
    ));
    b.pursue(u, a(5, 5), n).unwrap();
    assert_eq!(b.unit(u).unwrap().area(), a(5, 5));
    assert!(b.engaged(u).unwrap(), "a new engagement, fought next turn");
    assert!(b.pursue(u, a(5, 5), n).is_err());
}

#[test]
fn mel_17_wagons() {
    // GRID-MEL-17: wagons roll no combat dice, take 2 hits a stand, and may not attack alone.
    let mut b = square();
    let w = put(
        &mut b,
        Side::Union,
        a(5, 4),
        &stand(Side::Union, StandType::Wagons),
        2,
        0,
    );
    let c = put_inf(&mut b, Side::Confederate, a(5, 6), 1, 2);
    assert_eq!(b.unit_dice(w, &combat_of(w, &[c])).unwrap().own.dice(), 0);
    let mut m = b.clone();
    go_to(&mut m, Side::Union, Phase::FirstMovement);
    assert_eq!(
        m.move_unit(&MoveOrder::along(m.unit(w).unwrap(), vec![a(5, 5)])),
        Err(RuleViolation::WagonsMayNotAttack)
    );
    let r = bombard_hits(&mut b, &[(w, 3)])[0];
    assert_eq!((r.stands_removed, r.leftover), (1, 1));
}

#[test]
fn mel_18_ambush() {
    // GRID-MEL-18: moving next to a hidden enemy halts and engages; the front-arc rules do not apply to it.
    let mut b = battle_with(GridKind::Square, 12, 12, opts(|o| o.hidden_units = true));
    let u = put_inf(&mut b, Side::Union, a(5, 3), 3, 1); // facing east
    let h = b
        .deploy(UnitSpec::new(Side::Confederate, a(5, 5), vec![inf(Side::Confederate); 3]).hidden())
        .unwrap();
    go_to(&mut b, Side::Union, Phase::FirstMovement);
    let far = MoveOrder::along(b.unit(u).unwrap(), vec![a(5, 4), a(4, 4)]);
    assert_eq!(b.move_unit(&far), Err(RuleViolation::MustHalt(a(5, 4))));
    let r = b
        .move_unit(&MoveOrder::along(b.unit(u).unwrap(), vec![a(5, 4)]))
        .unwrap();
    assert!(r.attack);
    assert_eq!(r.revealed, vec![h]);
    assert!(!b.unit(h).unwrap().hidden());
    assert!(b.engaged(u).unwrap());
    assert!(b.unit(u).unwrap().flags().attacked);
}

#[test]
fn mel_19_whole_combat_odds() {
    // GRID-MEL-19: joint hits, who tests, and the tester's morale result.
    let six = CombatSide {
        pool: HitPool::uniform(6, 0).unwrap(),
        capacity: 6,
        ..CombatSide::default()
    };
    let d = CombatOdds::new(six, six).odds();
    let a_tests = 201040.0 / 531441.0;
    assert_prob("A tests", d.prob(|o| o.tester == Some(Tester::A)), a_tests);
    assert_prob(
        "A tests and is defeated",
        d.prob(|o| o.tester == Some(Tester::A) && o.morale == Some(MoraleResult::Defeated)),
        a_tests / 2.0,
    );
    assert_prob(
        "A steady",
        d.prob(|o| o.tester == Some(Tester::A) && o.morale == Some(MoraleResult::Steady)),
        a_tests / 6.0,
    );
    assert_prob("sums to 1", d.prob(|_| true), 1.0);
    // Elite losers never rout.
    let elite = CombatSide { morale: 1, ..six };
    let d = CombatOdds::new(elite, six).odds();
    assert_prob(
        "elite routs",
        d.prob(|o| o.morale == Some(MoraleResult::Routed) && o.tester == Some(Tester::A)),
        0.0,
    );
}

#[test]
fn mel_19_each_unit_with_its_own_cover() {
    // GRID-MEL-12, GRID-MEL-19: side B's 2 dice (each hits 1/3) against two A units, one in cover; A rolls
    // nothing. P(0 hits) = 4/9, P(1) = 4/9, P(2) = 1/9; one hit goes to A's first unit, two give each one.
    use acw_core::testing::{assert_prob, assert_roll_matches_odds};
    use acw_grid::combat::{CombatOdds, CombatSide, CombatUnit, Tester, UnitCombatOdds};
    use acw_grid::pool::HitPool;
    let open = CombatUnit {
        capacity: 6,
        ..CombatUnit::default()
    };
    let covered = CombatUnit {
        cover: true,
        ..open
    };
    let two = HitPool::uniform(2, 0).unwrap();
    let a_tests = |o: &acw_grid::combat::UnitCombatOutcome| o.tester == Some(Tester::A);
    // Covered unit first: a single hit is halved away; of two, the open unit keeps its one: A tests 1/9.
    let first_covered =
        UnitCombatOdds::new(HitPool::EMPTY, vec![covered, open], two, vec![open]).odds();
    assert_prob("A tests", first_covered.prob(a_tests), 1.0 / 9.0);
    // Open unit first: every hit leaves one on it: 4/9 + 1/9.
    let first_open =
        UnitCombatOdds::new(HitPool::EMPTY, vec![open, covered], two, vec![open]).odds();
    assert_prob("A tests", first_open.prob(a_tests), 5.0 / 9.0);
    // Both A units survive and test, each with its own die: both steady 1/6 x 1/6.
    assert_prob(
        "A tests, both steady",
        first_open.prob(|o| {
            a_tests(o)
                && o.morale.len() == 2
                && o.morale.iter().all(|(_, r)| *r == MoraleResult::Steady)
        }),
        5.0 / 9.0 / 36.0,
    );
    // One unit a side is the single-unit procedure.
    let single = UnitCombatOdds::new(two, vec![open], two, vec![covered]).odds();
    let side = |cover| CombatSide {
        pool: two,
        cover,
        capacity: 6,
        ..CombatSide::default()
    };
    let old = CombatOdds::new(side(false), side(true)).odds();
    for t in [None, Some(Tester::A), Some(Tester::B)] {
        assert_prob(
            "same tester",
            single.prob(|o| o.tester == t),
            old.prob(|o| o.tester == t),
        );
    }
    assert_roll_matches_odds(&UnitCombatOdds::new(
        two,
        vec![open, covered],
        HitPool::uniform(3, 1).unwrap(),
        vec![open],
    ));
}

/// GRID-MEL-19, GRID-MEL-08, GRID-MEL-12: the per-unit odds built from a combat on the battle. A Union stand at
/// (5,5) facing (5,6) is attacked by a Confederate stand there and by another on its flank at (6,5): its 2 dice
/// are halved to 1 for the flank attack; the Confederates roll 2 dice each, 4 in all; every die hits on 5 or 6
/// (1/3). Union hits: Bin(1, 1/3); Confederate hits: Bin(4, 1/3), P(0) = 16/81, P(1) = 32/81. The Union stand
/// (2 hits destroy it) dies with P(2 or more) = 1 − 48/81 = 11/27. It tests when it took 1 and gave 0:
/// 32/81 × 2/3 = 64/243; the Confederates test when they took 1 and gave 0: 1/3 × 16/81 = 16/243, and the
/// single hit goes to the first of them. Then the same combat, resolved by the battle from seeded dice many
/// times, gives the same frequencies of hits and testers.
#[test]
fn mel_19_unit_odds_read_from_the_battle() {
    use acw_core::testing::{assert_roll_matches_odds, check_sampler_matches};
    use acw_grid::combat::UnitCombatOdds;
    let mut b = square();
    let u = put_inf(&mut b, Side::Union, a(5, 5), 1, 0);
    let x = put_inf(&mut b, Side::Confederate, a(5, 6), 1, 2);
    let towards = b.board().side_towards(a(6, 5), a(5, 5)).unwrap().index();
    let y = put_inf(&mut b, Side::Confederate, a(6, 5), 1, towards);
    go_to(&mut b, Side::Union, Phase::Combat);
    let combat = combat_of(u, &[x, y]);
    assert_eq!(b.default_combats(), vec![combat.clone()]);
    let odds = UnitCombatOdds::from_battle(&b, &combat, None).unwrap();
    assert_eq!((odds.a_pool.dice(), odds.b_pool.dice()), (1, 4));
    assert_eq!(odds.a.len() + odds.b.len(), 3);
    let d = odds.odds();
    assert_prob(
        "the Union stand destroyed",
        d.prob(|o| o.a_destroyed[0]),
        11.0 / 27.0,
    );
    assert_prob(
        "the Union tests",
        d.prob(|o| o.tester == Some(Tester::A)),
        64.0 / 243.0,
    );
    assert_prob(
        "the Confederates test",
        d.prob(|o| o.tester == Some(Tester::B)),
        16.0 / 243.0,
    );
    assert_prob(
        "the first Confederate takes the single hit",
        d.prob(|o| o.hits_on_b == vec![1, 0]),
        1.0 / 3.0,
    );
    assert_roll_matches_odds(&odds);
    // The battle's own Combat Phase, rolled from seeded dice: hits taken per unit and the side that tests.
    let seen = d.map(|o| (o.hits_on_a.clone(), o.hits_on_b.clone(), o.tester));
    check_sampler_matches(&seen, 4000, |rng| {
        let mut fought = b.clone();
        let r = fought.resolve_combats(&CombatPlan::default(), rng).unwrap();
        let c = &r.combats[0];
        let taken = |id| c.taken.iter().find(|(t, _)| *t == id).map_or(0, |t| t.1);
        let tester = c.tester.map(|s| {
            if s == Side::Union {
                Tester::A
            } else {
                Tester::B
            }
        });
        (vec![taken(u)], vec![taken(x), taken(y)], tester)
    })
    .unwrap();
    // A supporter that may not support, and a combat the battle would not fight, are refused.
    assert!(UnitCombatOdds::from_battle(&b, &combat, Some(&[x])).is_err());
    assert_eq!(
        UnitCombatOdds::from_battle(&b, &combat_of(u, &[]), None),
        Err(RuleViolation::BadCombatSplit("a combat needs two sides"))
    );
    // Two commanders with one unit: the odds hold one commander die a unit.
    let mut two = b.clone();
    two.add_commander(CommanderId(200), Side::Union, Rank::Army, None, a(5, 5))
        .unwrap();
    two.add_commander(
        CommanderId(201),
        Side::Union,
        Rank::Division(DivisionId(9)),
        Some(UNION_CORPS),
        a(5, 5),
    )
    .unwrap();
    assert_eq!(
        UnitCombatOdds::from_battle(&two, &combat, None)
            .unwrap_err()
            .to_string(),
        "the exact odds of the combat of unit 1 cannot be worked out: two commanders are with it"
    );
    // One commander with the Union stand: its die is in the odds (a 6 removes it, GRID-CMD-06), and the odds
    // still agree with the battle's rolls.
    let mut one = b.clone();
    one.add_commander(CommanderId(200), Side::Union, Rank::Army, None, a(5, 5))
        .unwrap();
    let with = UnitCombatOdds::from_battle(&one, &combat, None).unwrap();
    assert!(with.a[0].commander && !with.b[0].commander);
}
