//! Skirmish fire and bombardment: GRID-FIR-01 to GRID-FIR-08, GRID-ART-01 to GRID-ART-14.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::Side;
use acw_grid::board::{Area, Terrain};
use acw_grid::combat::Combat;
use acw_grid::error::RuleViolation;
use acw_grid::fire::{BombardOrder, Silence, SkirmishOrder};
use acw_grid::movement::MoveOrder;
use acw_grid::options::{BombardCoverScope, HillBonus, Rounding, SkirmishTiming};
use acw_grid::setup::UnitSpec;
use acw_grid::state::{Battle, Phase, UnitId};
use acw_grid::tables::{self, Firepower, Ground, StandType};
use common::*;

fn woods() -> Terrain {
    Terrain {
        ground: Ground::Broken,
        cover: true,
        blocks_los: true,
        ..Terrain::OPEN
    }
}

fn gun(b: &mut Battle, side: Side, area: Area, n: u8, facing_: u8) -> UnitId {
    put(
        b,
        side,
        area,
        &stand(side, StandType::Artillery),
        n,
        facing_,
    )
}

fn sk(firer: UnitId, target: UnitId) -> SkirmishOrder {
    SkirmishOrder { firer, target }
}

fn bo(battery: UnitId, target: UnitId) -> BombardOrder {
    BombardOrder { battery, target }
}

#[test]
fn fir_01_who_may_skirmish() {
    // GRID-FIR-01: infantry or dismounted cavalry, not engaged, not disordered, not in march column.
    let mut b = square();
    let ok = put_inf(&mut b, Side::Union, a(1, 1), 3, 0);
    let t1 = put_inf(&mut b, Side::Confederate, a(1, 3), 3, 2);
    let col = b
        .deploy(UnitSpec::new(Side::Union, a(3, 1), vec![inf(Side::Union); 3]).column())
        .unwrap();
    let t2 = put_inf(&mut b, Side::Confederate, a(3, 3), 3, 2);
    let dis = b
        .deploy(UnitSpec::new(Side::Union, a(5, 1), vec![inf(Side::Union); 3]).disordered())
        .unwrap();
    let t3 = put_inf(&mut b, Side::Confederate, a(5, 3), 3, 2);
    let cav = put(
        &mut b,
        Side::Union,
        a(7, 1),
        &stand(Side::Union, StandType::Cavalry),
        3,
        0,
    );
    let t4 = put_inf(&mut b, Side::Confederate, a(7, 3), 3, 2);
    let dcav = b
        .deploy(
            UnitSpec::new(
                Side::Union,
                a(9, 1),
                vec![stand(Side::Union, StandType::Cavalry); 2],
            )
            .dismounted(),
        )
        .unwrap();
    let t5 = put_inf(&mut b, Side::Confederate, a(9, 3), 3, 2);
    let art = gun(&mut b, Side::Union, a(11, 1), 1, 0);
    let t6 = put_inf(&mut b, Side::Confederate, a(11, 3), 3, 2);
    assert_eq!(b.skirmish_dice(sk(ok, t1)).unwrap().dice(), 3);
    assert_eq!(b.skirmish_dice(sk(dcav, t5)).unwrap().dice(), 2);
    for (f, t) in [(col, t2), (dis, t3), (cav, t4), (art, t6)] {
        assert!(
            matches!(
                b.skirmish_dice(sk(f, t)),
                Err(RuleViolation::NotEligible { .. })
            ),
            "{f}"
        );
    }
    let eng = put_inf(&mut b, Side::Union, a(1, 6), 3, 0);
    let t7 = put_inf(&mut b, Side::Confederate, a(1, 8), 3, 2);
    put_inf(&mut b, Side::Confederate, a(0, 6), 1, 1);
    assert!(matches!(
        b.skirmish_dice(sk(eng, t7)),
        Err(RuleViolation::NotEligible { .. })
    ));
}

#[test]
fn fir_02_target_directly_in_front_two_areas_away() {
    // GRID-FIR-02: exactly 2 areas directly ahead with a clear line of fire.
    let mut b = square();
    let f = put_inf(&mut b, Side::Union, a(5, 5), 3, 0);
    let ahead = put_inf(&mut b, Side::Confederate, a(5, 7), 3, 2);
    let aside = put_inf(&mut b, Side::Confederate, a(6, 7), 3, 2);
    assert!(b.skirmish_dice(sk(f, ahead)).is_ok());
    assert!(matches!(
        b.skirmish_dice(sk(f, aside)),
        Err(RuleViolation::BadTarget { .. })
    ));
    let mut screened = b.clone();
    put_inf(&mut screened, Side::Union, a(5, 6), 1, 0);
    assert!(matches!(
        screened.skirmish_dice(sk(f, ahead)),
        Err(RuleViolation::BadTarget { .. })
    ));
    let mut wooded = b.clone();
    wooded.board_mut().set_terrain(a(5, 6), woods()).unwrap();
    assert!(matches!(
        wooded.skirmish_dice(sk(f, ahead)),
        Err(RuleViolation::BadTarget { .. })
    ));
}

#[test]
fn fir_03_one_die_per_stand_up_to_three() {
    // GRID-FIR-03: 1 die per eligible stand, at most 3; each die with its stand's modifier.
    let mut b = square();
    let five = put_inf(&mut b, Side::Union, a(1, 1), 5, 0);
    let t = put_inf(&mut b, Side::Confederate, a(1, 3), 3, 2);
    assert_eq!(b.skirmish_dice(sk(five, t)).unwrap().dice(), 3);
    let mut v = vec![stand(Side::Union, StandType::Artillery)];
    v.push(inf(Side::Union).with_firepower(Firepower::Superior));
    let mixed = b.deploy(UnitSpec::new(Side::Union, a(4, 1), v)).unwrap();
    let t2 = put_inf(&mut b, Side::Confederate, a(4, 3), 3, 2);
    let p = b.skirmish_dice(sk(mixed, t2)).unwrap();
    assert_eq!((p.dice(), p.count(1)), (1, 1));
}

#[test]
fn fir_04_skirmish_hits_and_modifiers() {
    // GRID-FIR-04: 5+ hits; superior +1; shock and unsteady do not count; inferior -1 only with the option.
    let mut b = square();
    let mut v = vec![inf(Side::Union).with_firepower(Firepower::Superior)];
    v.push(inf(Side::Union).shock().unsteady());
    v.push(inf(Side::Union).with_firepower(Firepower::Inferior));
    let f = b.deploy(UnitSpec::new(Side::Union, a(1, 1), v)).unwrap();
    let t = put_inf(&mut b, Side::Confederate, a(1, 3), 3, 2);
    let p = b.skirmish_dice(sk(f, t)).unwrap();
    assert_eq!((p.count(1), p.count(0), p.count(-1)), (1, 2, 0));
    let mut opt = b.clone();
    set_opt(&mut opt, |o| o.inferior_in_close_fire = true);
    let p = opt.skirmish_dice(sk(f, t)).unwrap();
    assert_eq!((p.count(1), p.count(0), p.count(-1)), (1, 1, 1));
    go_to(&mut b, Side::Union, Phase::Combat);
    // Dice are thrown lowest modifier first: 5 hits and 4 misses at 0, then 4 hits at +1: 2 hits.
    let r = b.roll_skirmish(&[sk(f, t)], &mut dice(&[5, 4, 4])).unwrap();
    assert_eq!(r[0].1.hits, 2);
}

#[test]
fn fir_05_cover_halves_skirmish_hits() {
    // GRID-FIR-05: a target in cover takes half (round down by default).
    let mut b = square();
    b.board_mut().set_terrain(a(1, 3), woods()).unwrap();
    let f = put_inf(&mut b, Side::Union, a(1, 1), 3, 0);
    let t = put_inf(&mut b, Side::Confederate, a(1, 3), 3, 2);
    go_to(&mut b, Side::Union, Phase::Combat);
    let r = b.roll_skirmish(&[sk(f, t)], &mut dice(&[6, 6, 6])).unwrap();
    assert_eq!(r[0].1.hits, 1);
}

#[test]
fn fir_06_no_morale_from_skirmish() {
    // GRID-FIR-06: skirmish hits are recorded; no morale test or retreat follows.
    let mut b = square();
    let f = put_inf(&mut b, Side::Union, a(1, 1), 3, 0);
    let t = put_inf(&mut b, Side::Confederate, a(1, 3), 3, 2);
    go_to(&mut b, Side::Union, Phase::Combat);
    let before = b.clone();
    assert!(
        b.roll_skirmish(&[sk(f, t)], &mut dice(&[6, 6])).is_err(),
        "dice run out: nothing rolled counts"
    );
    assert_eq!(b, before);
    let r = b.roll_skirmish(&[sk(f, t)], &mut dice(&[6, 6, 6])).unwrap();
    assert_eq!(r[0].1.hits, 3);
    assert_eq!(r[0].2.map(|h| h.stands_removed), Some(1));
    let u = b.unit(t).unwrap();
    assert_eq!(
        (u.stand_count(), u.hits(), u.area(), u.disordered()),
        (2, 1, a(1, 3), false)
    );
    assert!(b.unit(f).unwrap().flags().skirmished);
    assert!(
        b.roll_skirmish(&[sk(f, t)], &mut dice(&[6, 6, 6])).is_err(),
        "once a turn"
    );
}

#[test]
fn fir_07_engaged_targets() {
    // GRID-FIR-07: the target may be engaged with someone else (option: it may not).
    let mut b = square();
    let f = put_inf(&mut b, Side::Union, a(1, 1), 3, 0);
    let t = put_inf(&mut b, Side::Confederate, a(1, 3), 3, 2);
    put_inf(&mut b, Side::Union, a(2, 3), 1, 3);
    assert!(b.skirmish_dice(sk(f, t)).is_ok());
    set_opt(&mut b, |o| o.skirmish_at_engaged = false);
    assert!(matches!(
        b.skirmish_dice(sk(f, t)),
        Err(RuleViolation::BadTarget { .. })
    ));
}

#[test]
fn fir_08_skirmish_timing() {
    // GRID-FIR-08: in the Combat Phase by default; options: the Bombardment Phase or the firer's own step.
    let mut b = square();
    let f = put_inf(&mut b, Side::Union, a(1, 1), 3, 0);
    let t = put_inf(&mut b, Side::Confederate, a(1, 3), 3, 2);
    let mut bomb = b.clone();
    set_opt(&mut bomb, |o| {
        o.skirmish_timing = SkirmishTiming::BombardmentPhase
    });
    let mut own = b.clone();
    set_opt(&mut own, |o| {
        o.skirmish_timing = SkirmishTiming::OwnMovementStep
    });
    go_to(&mut b, Side::Union, Phase::Bombardment);
    assert!(matches!(
        b.roll_skirmish(&[sk(f, t)], &mut dice(&[1, 1, 1])),
        Err(RuleViolation::WrongPhase { .. })
    ));
    go_to(&mut bomb, Side::Union, Phase::Bombardment);
    assert!(
        bomb.roll_skirmish(&[sk(f, t)], &mut dice(&[1, 1, 1]))
            .is_ok()
    );
    go_to(&mut own, Side::Confederate, Phase::SecondMovement);
    assert!(
        own.roll_skirmish(&[sk(f, t)], &mut dice(&[1, 1, 1]))
            .is_ok()
    );
}

#[test]
fn art_01_who_may_bombard() {
    // GRID-ART-01: deployed artillery, not engaged, not disordered; firing is optional.
    let mut b = square();
    let g = gun(&mut b, Side::Union, a(5, 1), 1, 0);
    let t = put_inf(&mut b, Side::Confederate, a(5, 3), 3, 2);
    assert_eq!(b.bombard_dice(bo(g, t)).unwrap().pool.dice(), 2);
    let i = put_inf(&mut b, Side::Union, a(8, 1), 3, 0);
    let t2 = put_inf(&mut b, Side::Confederate, a(8, 3), 3, 2);
    assert!(matches!(
        b.bombard_dice(bo(i, t2)),
        Err(RuleViolation::NotEligible { .. })
    ));
    let mut eng = b.clone();
    put_inf(&mut eng, Side::Confederate, a(4, 1), 1, 1);
    assert!(matches!(
        eng.bombard_dice(bo(g, t)),
        Err(RuleViolation::NotEligible { .. })
    ));
    go_to(&mut b, Side::Union, Phase::Bombardment);
    assert!(b.bombardment_phase(&[], &mut dice(&[])).unwrap().is_empty());
}

#[test]
fn art_02_bombardment_targets() {
    // GRID-ART-02: an enemy not engaged, to the front, in sight and in range.
    let mut b = square();
    let g = gun(&mut b, Side::Union, a(5, 1), 1, 0);
    let behind = put_inf(&mut b, Side::Confederate, a(5, 0), 1, 2);
    let _ = behind;
    let mut c = square();
    let g2 = gun(&mut c, Side::Union, a(5, 1), 1, 0);
    let side_on = put_inf(&mut c, Side::Confederate, a(8, 2), 1, 2);
    assert!(matches!(
        c.bombard_dice(bo(g2, side_on)),
        Err(RuleViolation::BadTarget {
            why: "it is not to the battery's front",
            ..
        })
    ));
    let t = put_inf(&mut c, Side::Confederate, a(5, 4), 3, 2);
    assert!(c.bombard_dice(bo(g2, t)).is_ok());
    let mut screened = c.clone();
    put_inf(&mut screened, Side::Union, a(5, 2), 1, 0);
    assert!(matches!(
        screened.bombard_dice(bo(g2, t)),
        Err(RuleViolation::BadTarget {
            why: "it is out of sight",
            ..
        })
    ));
    let mut engaged = c.clone();
    put_inf(&mut engaged, Side::Union, a(6, 4), 1, 3);
    assert!(matches!(
        engaged.bombard_dice(bo(g2, t)),
        Err(RuleViolation::BadTarget { .. })
    ));
    assert!(b.unit(g).is_ok());
}

#[test]
fn art_03_range_table() {
    // GRID-ART-03: 2 dice a stand to range 2, 1 die at 3-4, nothing beyond; range 1 impossible.
    assert_eq!(tables::bombard_dice_per_stand(1, 0), None);
    assert_eq!(tables::bombard_dice_per_stand(2, 0), Some(2));
    assert_eq!(tables::bombard_dice_per_stand(3, 0), Some(1));
    assert_eq!(tables::bombard_dice_per_stand(4, 0), Some(1));
    assert_eq!(tables::bombard_dice_per_stand(5, 0), None);
    let mut b = square();
    let g = gun(&mut b, Side::Union, a(5, 1), 1, 0);
    let t3 = put_inf(&mut b, Side::Confederate, a(5, 4), 3, 2);
    let t5 = put_inf(&mut b, Side::Confederate, a(6, 5), 3, 2);
    assert_eq!(b.bombard_dice(bo(g, t3)).unwrap().pool.dice(), 1);
    assert_eq!(b.bombard_dice(bo(g, t3)).unwrap().range, 3);
    assert!(matches!(
        b.bombard_dice(bo(g, t5)),
        Err(RuleViolation::BadTarget {
            why: "it is out of range",
            ..
        })
    ));
}

#[test]
fn art_04_hill_artillery() {
    // GRID-ART-04: on a hill 2 dice to range 3, 1 at 4-5; it fires over lower troops. Options per contour and
    // only against lower targets.
    assert_eq!(tables::bombard_dice_per_stand(3, 1), Some(2));
    assert_eq!(tables::bombard_dice_per_stand(5, 1), Some(1));
    assert_eq!(tables::bombard_dice_per_stand(6, 1), None);
    let mut b = square();
    b.board_mut()
        .set_terrain(
            a(5, 1),
            Terrain {
                elevation: 2,
                ..Terrain::OPEN
            },
        )
        .unwrap();
    let g = gun(&mut b, Side::Union, a(5, 1), 1, 0);
    let t = put_inf(&mut b, Side::Confederate, a(5, 4), 3, 2);
    let far = put_inf(&mut b, Side::Confederate, a(5, 6), 3, 2);
    // Friendly troops at a lower level between do not block.
    put_inf(&mut b, Side::Union, a(5, 2), 1, 0);
    assert_eq!(b.bombard_dice(bo(g, t)).unwrap().pool.dice(), 2);
    assert_eq!(b.bombard_dice(bo(g, far)).unwrap().pool.dice(), 1);
    let mut per = b.clone();
    set_opt(&mut per, |o| o.hill_bonus = HillBonus::PerContour);
    assert_eq!(per.bombard_dice(bo(g, far)).unwrap().pool.dice(), 1); // elevation 2: 2 dice to range 4, 1 die to 6; (5,6) is 5 away
    assert_eq!(per.hill_extension(a(5, 1), a(5, 4)).unwrap(), 2);
    let mut lower = b.clone();
    set_opt(&mut lower, |o| o.hill_bonus = HillBonus::OnlyVsLower);
    lower
        .board_mut()
        .set_terrain(
            a(5, 4),
            Terrain {
                elevation: 2,
                ..Terrain::OPEN
            },
        )
        .unwrap();
    assert_eq!(lower.hill_extension(a(5, 1), a(5, 4)).unwrap(), 0);
    assert_eq!(lower.bombard_dice(bo(g, t)).unwrap().pool.dice(), 1);
}

#[test]
fn art_05_and_06_hits_and_quality() {
    // GRID-ART-05: 5+ hits. GRID-ART-06: superior +1 (4-6), inferior -1 (6 only).
    assert_eq!(tables::bombard_modifier(Firepower::Superior), 1);
    assert_eq!(tables::bombard_modifier(Firepower::Inferior), -1);
    let mut b = square();
    let sup = put(
        &mut b,
        Side::Union,
        a(2, 1),
        &stand(Side::Union, StandType::Artillery).with_firepower(Firepower::Superior),
        1,
        0,
    );
    let inf_ = put(
        &mut b,
        Side::Union,
        a(6, 1),
        &stand(Side::Union, StandType::Artillery).with_firepower(Firepower::Inferior),
        1,
        0,
    );
    let t1 = put_inf(&mut b, Side::Confederate, a(2, 3), 3, 2);
    let t2 = put_inf(&mut b, Side::Confederate, a(6, 3), 3, 2);
    go_to(&mut b, Side::Union, Phase::Bombardment);
    let r = b
        .roll_bombardment(&[bo(sup, t1), bo(inf_, t2)], &mut dice(&[4, 3, 5, 6]))
        .unwrap();
    assert_eq!(r.shots()[0].2, 1);
    assert_eq!(r.shots()[1].2, 1);
}

#[test]
fn art_07_cover_halves_the_phase_total() {
    // GRID-ART-07: cover halves the hits a target takes in the phase (option: per battery).
    let mut b = square();
    b.board_mut().set_terrain(a(5, 4), woods()).unwrap();
    let g1 = gun(&mut b, Side::Union, a(5, 2), 1, 0);
    let g2 = gun(&mut b, Side::Union, a(4, 2), 1, 0);
    let t = put_inf(&mut b, Side::Confederate, a(5, 4), 3, 2);
    let mut per = b.clone();
    set_opt(&mut per, |o| {
        o.bombard_cover_scope = BombardCoverScope::PerBattery
    });
    go_to(&mut b, Side::Union, Phase::Bombardment);
    let r = b
        .bombardment_phase(&[bo(g1, t), bo(g2, t)], &mut dice(&[5, 1, 5, 1]))
        .unwrap();
    assert_eq!((r[0].raw, r[0].after_cover), (2, 1));
    go_to(&mut per, Side::Union, Phase::Bombardment);
    let r = per
        .bombardment_phase(&[bo(g1, t), bo(g2, t)], &mut dice(&[5, 1, 5, 1]))
        .unwrap();
    assert_eq!((r[0].raw, r[0].after_cover), (2, 0));
}

#[test]
fn art_08_at_most_three_stands_fire() {
    // GRID-ART-08: a 4-stand artillery unit rolls for 3 stands.
    let mut b = square();
    let g = gun(&mut b, Side::Union, a(5, 2), 4, 0);
    let t = put_inf(&mut b, Side::Confederate, a(5, 4), 3, 2);
    let d = b.bombard_dice(bo(g, t)).unwrap();
    assert_eq!(d.pool.dice(), 6);
    assert_eq!(d.firing, vec![0, 1, 2]);
}

#[test]
fn art_09_one_target_each_hits_add_up() {
    // GRID-ART-09: each battery one target; several may fire at one; the hits add.
    let mut b = square();
    let g1 = gun(&mut b, Side::Union, a(5, 2), 1, 0);
    let g2 = gun(&mut b, Side::Union, a(4, 3), 1, 0);
    let t = put_inf(&mut b, Side::Confederate, a(5, 4), 3, 2);
    let t2 = put_inf(&mut b, Side::Confederate, a(7, 4), 3, 2);
    go_to(&mut b, Side::Union, Phase::Bombardment);
    assert!(
        b.roll_bombardment(&[bo(g1, t), bo(g1, t2)], &mut dice(&[6, 6, 6, 6]))
            .is_err()
    );
    let r = b
        .bombardment_phase(&[bo(g1, t), bo(g2, t)], &mut dice(&[6, 1, 6, 6]))
        .unwrap();
    assert_eq!(r[0].raw, 3);
    assert!(
        b.bombardment_phase(&[bo(g1, t2)], &mut dice(&[6, 6]))
            .is_err(),
        "once a phase"
    );
    assert_eq!(b.unit(t).unwrap().stand_count(), 2);
    assert_eq!(b.unit(t).unwrap().hits(), 1);
}

#[test]
fn art_10_bombarding_stops_movement() {
    // GRID-ART-10: artillery that bombards may not move that turn.
    let mut b = square();
    let g = gun(&mut b, Side::Union, a(5, 2), 1, 0);
    let t = put_inf(&mut b, Side::Confederate, a(5, 4), 3, 2);
    go_to(&mut b, Side::Union, Phase::Bombardment);
    b.bombardment_phase(&[bo(g, t)], &mut dice(&[1, 1]))
        .unwrap();
    assert!(b.unit(g).unwrap().flags().bombarded);
    b.advance().unwrap();
    let o = MoveOrder::along(b.unit(g).unwrap(), vec![a(5, 1)]);
    assert_eq!(b.move_unit(&o), Err(RuleViolation::Bombarded(g)));
}

#[test]
fn art_11_disordered_artillery() {
    // GRID-ART-11: disordered units may not bombard.
    let mut b = square();
    let g = b
        .deploy(
            UnitSpec::new(
                Side::Union,
                a(5, 2),
                vec![stand(Side::Union, StandType::Artillery)],
            )
            .disordered(),
        )
        .unwrap();
    let t = put_inf(&mut b, Side::Confederate, a(5, 4), 3, 2);
    assert!(matches!(
        b.bombard_dice(bo(g, t)),
        Err(RuleViolation::NotEligible {
            why: "disordered units may not bombard",
            ..
        })
    ));
}

#[test]
fn art_12_silenced_batteries() {
    // GRID-ART-12: artillery with 2+ bombardment hits may cancel half (rounded down) by retreating a full move
    // in disorder away from the firers.
    let mut b = square();
    let g1 = gun(&mut b, Side::Union, a(5, 2), 1, 0);
    let g2 = gun(&mut b, Side::Union, a(6, 2), 1, 0);
    let target = gun(&mut b, Side::Confederate, a(5, 4), 2, 2);
    let mut up = b.clone();
    set_opt(&mut up, |o| o.silenced_rounding = Rounding::Up);
    let mut one_hit = b.clone();
    go_to(&mut b, Side::Union, Phase::Bombardment);
    b.roll_bombardment(&[bo(g1, target), bo(g2, target)], &mut dice(&[6, 6, 6, 1]))
        .unwrap();
    // A path that does not go away is refused and changes nothing.
    let bad = Silence {
        unit: target,
        path: vec![a(4, 4)],
    };
    assert!(b.apply_bombardment(&[bad], &mut dice(&[])).is_err());
    assert_eq!(b.unit(target).unwrap().hits(), 0);
    let s = Silence {
        unit: target,
        path: vec![a(5, 5), a(5, 6)],
    };
    let r = b
        .apply_bombardment(std::slice::from_ref(&s), &mut dice(&[]))
        .unwrap();
    assert_eq!((r[0].after_cover, r[0].cancelled), (3, 1));
    let u = b.unit(target).unwrap();
    assert_eq!(
        (u.area(), u.disordered(), u.stand_count(), u.hits()),
        (a(5, 6), true, 1, 0)
    );
    go_to(&mut up, Side::Union, Phase::Bombardment);
    up.roll_bombardment(&[bo(g1, target), bo(g2, target)], &mut dice(&[6, 6, 6, 1]))
        .unwrap();
    let r = up
        .apply_bombardment(std::slice::from_ref(&s), &mut dice(&[]))
        .unwrap();
    assert_eq!(r[0].cancelled, 2);
    assert_eq!(up.unit(target).unwrap().hits(), 1);
    go_to(&mut one_hit, Side::Union, Phase::Bombardment);
    one_hit
        .roll_bombardment(&[bo(g1, target)], &mut dice(&[6, 1]))
        .unwrap();
    assert!(matches!(
        one_hit.apply_bombardment(&[s], &mut dice(&[])),
        Err(RuleViolation::NotEligible { .. })
    ));
}

#[test]
fn art_13_no_morale_test_from_bombardment() {
    // GRID-ART-13: bombardment only adds hits.
    let mut b = square();
    let g = gun(&mut b, Side::Union, a(5, 2), 1, 0);
    let t = put_inf(&mut b, Side::Confederate, a(5, 4), 1, 2);
    go_to(&mut b, Side::Union, Phase::Bombardment);
    b.bombardment_phase(&[bo(g, t)], &mut dice(&[6, 1]))
        .unwrap();
    let u = b.unit(t).unwrap();
    assert_eq!((u.hits(), u.area(), u.disordered()), (1, a(5, 4), false));
}

#[test]
fn art_14_artillery_in_combat() {
    // GRID-ART-14: engaged artillery fights with 2 dice a stand and its firepower; halved in march column.
    let mut b = square();
    let g = put(
        &mut b,
        Side::Union,
        a(5, 4),
        &stand(Side::Union, StandType::Artillery).with_firepower(Firepower::Superior),
        1,
        0,
    );
    let e = put_inf(&mut b, Side::Confederate, a(5, 5), 3, 2);
    let c = Combat {
        centre: g,
        opponents: vec![e],
    };
    let d = b.unit_dice(g, &c).unwrap();
    assert_eq!((d.own.dice(), d.own.count(1)), (2, 2));
    let mut col = square();
    let g = col
        .deploy(
            UnitSpec::new(
                Side::Union,
                a(5, 4),
                vec![stand(Side::Union, StandType::Artillery)],
            )
            .column(),
        )
        .unwrap();
    let e = put_inf(&mut col, Side::Confederate, a(5, 5), 3, 2);
    let d = col
        .unit_dice(
            g,
            &Combat {
                centre: g,
                opponents: vec![e],
            },
        )
        .unwrap();
    assert_eq!(d.own.dice(), 1);
}

#[test]
fn seq_05_a_bombardment_is_rolled_once_and_applied_once() {
    // GRID-SEQ-05: the battle keeps the roll; it takes effect only through apply, once, and the phase cannot
    // end while it waits. A second roll in the same phase is refused, rolling nothing.
    let mut b = square();
    let g = put(
        &mut b,
        Side::Union,
        a(2, 1),
        &stand(Side::Union, StandType::Artillery),
        1,
        0,
    );
    let t = put_inf(&mut b, Side::Confederate, a(2, 3), 3, 2);
    go_to(&mut b, Side::Union, Phase::Bombardment);
    let before = b.clone();
    assert!(
        b.apply_bombardment(&[], &mut dice(&[])).is_err(),
        "nothing rolled yet"
    );
    assert_eq!(b, before);
    let hits = b
        .roll_bombardment(&[bo(g, t)], &mut dice(&[6, 6]))
        .unwrap()
        .shots()[0]
        .2;
    assert_eq!(hits, 2);
    let rolled = b.clone();
    assert!(b.roll_bombardment(&[bo(g, t)], &mut dice(&[6, 6])).is_err());
    assert!(b.advance().is_err());
    assert_eq!(b, rolled);
    b.apply_bombardment(&[], &mut dice(&[])).unwrap();
    assert_eq!(b.unit(t).unwrap().stand_count(), 2);
    assert!(b.pending_bombardment().is_none());
    let applied = b.clone();
    assert!(b.apply_bombardment(&[], &mut dice(&[])).is_err());
    assert_eq!(b, applied);
    assert_eq!(b.advance().unwrap(), Phase::FirstMovement);
}

#[test]
fn a_bombardment_built_from_the_battle_is_the_one_the_engine_rolls() {
    // GRID-ART-05, GRID-ART-07: the procedure a researcher asks for comes from the battle: each battery's dice,
    // the target's cover and half-hit, the options' fraction mode and scope.
    let mut b = square();
    let g1 = gun(&mut b, Side::Union, a(5, 2), 1, 0);
    let g2 = gun(&mut b, Side::Union, a(6, 2), 2, 0);
    let t = put_inf(&mut b, Side::Confederate, a(5, 4), 3, 2);
    b.board_mut()
        .set_terrain(
            a(5, 4),
            Terrain {
                cover: true,
                ..Terrain::OPEN
            },
        )
        .unwrap();
    let p = b.bombardment_of(t, &[g1, g2]).unwrap();
    assert_eq!(
        p.batteries,
        vec![
            b.bombard_dice(bo(g1, t)).unwrap().pool,
            b.bombard_dice(bo(g2, t)).unwrap().pool
        ]
    );
    assert!(p.cover && !p.carry);
    assert_eq!(p.scope, BombardCoverScope::PerTargetPerPhase);
    acw_core::testing::assert_roll_matches_odds(&p);
    // One battery at range 2 into cover: 2 dice (each 5+: 1/3), halved rounding down; a hit needs both dice:
    // 1/9.
    let one = b.bombardment_of(t, &[g1]).unwrap();
    assert_eq!(one.batteries[0].dice(), 2);
    acw_core::testing::assert_prob(
        "one hit after cover",
        acw_core::Resolve::odds(&one).prob(|h| h.hits == 1),
        1.0 / 9.0,
    );
    // A unit that is not there, or a battery that may not fire, is refused.
    assert_eq!(
        b.bombardment_of(UnitId(99), &[g1]),
        Err(RuleViolation::UnknownUnit(UnitId(99)))
    );
    assert!(b.bombardment_of(g1, &[g2]).is_err(), "no fire at friends");
}
