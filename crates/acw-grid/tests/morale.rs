//! Morale, retreat, disorder and rally: GRID-MOR-01 to GRID-MOR-13.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::Resolve;
use acw_core::Side;
use acw_core::testing::assert_prob;
use acw_grid::board::Terrain;
use acw_grid::error::RuleViolation;
use acw_grid::fire::{BombardOrder, Silence};
use acw_grid::morale::{
    MoraleTest, RetreatCause, RetreatKind, RetreatPlan, RetreatReport, SplitMorale, UnitMorale,
};
use acw_grid::movement::MoveOrder;
use acw_grid::options::{BlockedRetreat, SideMoraleDice};
use acw_grid::setup::UnitSpec;
use acw_grid::state::Phase;
use acw_grid::tables::{self, Ground, MoraleResult, StandType};
use common::*;

const RECOIL: RetreatCause = RetreatCause::Morale(MoraleResult::Recoiled);
const DEFEAT: RetreatCause = RetreatCause::Morale(MoraleResult::Defeated);
const ROUT: RetreatCause = RetreatCause::Morale(MoraleResult::Routed);

#[test]
fn mor_01_morale_test() {
    // GRID-MOR-01: 1d6, +1 Elite, -1 Unsteady.
    assert_eq!(
        MoraleTest { modifier: 0 }.roll(&mut dice(&[5])),
        MoraleResult::Recoiled
    );
    assert_eq!(
        MoraleTest { modifier: 1 }.roll(&mut dice(&[5])),
        MoraleResult::Steady
    );
    assert_eq!(
        MoraleTest { modifier: -1 }.roll(&mut dice(&[1])),
        MoraleResult::Routed
    );
    let mut b = square();
    let e = put(
        &mut b,
        Side::Union,
        a(5, 5),
        &inf(Side::Union).elite(),
        3,
        0,
    );
    let r = UnitMorale::of(b.unit(e).unwrap()).roll(&mut dice(&[3]));
    assert_eq!(r.elite, Some(MoraleResult::Recoiled));
    assert_eq!(r.normal, None);
    // As the engine plays it: only a unit that lost a combat tests, once, and the result is applied at once.
    let c = put_inf(&mut b, Side::Confederate, a(5, 6), 3, 2);
    go_to(&mut b, Side::Union, Phase::Combat);
    let before = b.clone();
    assert_eq!(
        b.test_morale(&[e], &mut dice(&[3])),
        Err(RuleViolation::MoraleNotOwed(e))
    );
    assert_eq!(b, before);
    lose_combat(&mut b, &[e]);
    assert_eq!(b.owed_morale_tests()[0].enemies, vec![a(5, 6)]);
    assert_eq!(
        b.test_morale(&[c], &mut dice(&[3])),
        Err(RuleViolation::MoraleNotOwed(c)),
        "the winner does not test"
    );
    assert_eq!(
        b.test_morale(&[e, e], &mut dice(&[3, 3])),
        Err(RuleViolation::MoraleNotOwed(e)),
        "one test a unit"
    );
    let r = b.test_morale(&[e], &mut dice(&[3])).unwrap();
    assert_eq!(r[0].result.elite, Some(MoraleResult::Recoiled));
    assert_eq!(r[0].parts, vec![(e, MoraleResult::Recoiled)]);
    assert_eq!(b.owed_retreats().len(), 1);
    assert_eq!(b.owed_retreats()[0].cause, RECOIL);
    // The Combat Phase may not end while the retreat is owed; the test may not be taken again.
    assert_eq!(b.advance(), Err(RuleViolation::RetreatOwed(e)));
    let after = b.clone();
    assert_eq!(
        b.test_morale(&[e], &mut dice(&[6])),
        Err(RuleViolation::MoraleNotOwed(e))
    );
    assert_eq!(b, after);
    assert_eq!(
        RuleViolation::MoraleNotOwed(e).to_string(),
        "unit 1 owes no morale test: only a combat's losing side tests, once"
    );
}

#[test]
fn the_combat_phase_waits_for_owed_tests_and_no_retreat_is_taken_unowed() {
    let mut b = square();
    let u = put_inf(&mut b, Side::Union, a(5, 5), 3, 0);
    let c = put_inf(&mut b, Side::Confederate, a(5, 6), 3, 2);
    go_to(&mut b, Side::Union, Phase::Combat);
    // A retreat no test or fire caused is refused, changing nothing.
    let before = b.clone();
    assert_eq!(
        b.retreat(u, &[a(5, 4)], None),
        Err(RuleViolation::RetreatNotOwed(u))
    );
    assert_eq!(b.carry_out(u), Err(RuleViolation::RetreatNotOwed(u)));
    assert_eq!(b, before);
    assert_eq!(
        RuleViolation::RetreatNotOwed(u).to_string(),
        "unit 1 owes no retreat: a unit retreats only as the result of a morale test or fire that caused it"
    );
    lose_combat(&mut b, &[u]);
    assert_eq!(b.advance(), Err(RuleViolation::MoraleOwed(u)));
    // A steady result owes nothing; the winner owes nothing either.
    b.test_morale(&[u], &mut dice(&[6])).unwrap();
    assert!(b.owed_retreats().is_empty());
    assert_eq!(
        b.retreat(c, &[a(5, 7)], None),
        Err(RuleViolation::RetreatNotOwed(c))
    );
    assert_eq!(b.advance(), Ok(Phase::Initiative));
}

#[test]
fn mor_02_results_table() {
    // GRID-MOR-02: 6+ Steady, 4-5 Recoiled, 1-3 Defeated, 0 Routed; normal 1/6, 1/3, 1/2, 0.
    assert_eq!(tables::morale_result(7), MoraleResult::Steady);
    assert_eq!(tables::morale_result(6), MoraleResult::Steady);
    assert_eq!(tables::morale_result(5), MoraleResult::Recoiled);
    assert_eq!(tables::morale_result(4), MoraleResult::Recoiled);
    assert_eq!(tables::morale_result(3), MoraleResult::Defeated);
    assert_eq!(tables::morale_result(1), MoraleResult::Defeated);
    assert_eq!(tables::morale_result(0), MoraleResult::Routed);
    let d = MoraleTest { modifier: 0 }.odds();
    assert_prob("steady", d.p(&MoraleResult::Steady), 1.0 / 6.0);
    assert_prob("recoiled", d.p(&MoraleResult::Recoiled), 2.0 / 6.0);
    assert_prob("defeated", d.p(&MoraleResult::Defeated), 3.0 / 6.0);
    assert_prob("routed", d.p(&MoraleResult::Routed), 0.0);
    assert_prob(
        "unsteady routs",
        MoraleTest { modifier: -1 }.odds().p(&MoraleResult::Routed),
        1.0 / 6.0,
    );
    assert_prob(
        "elite steady",
        MoraleTest { modifier: 1 }.odds().p(&MoraleResult::Steady),
        2.0 / 6.0,
    );
}

#[test]
fn mor_03_mixed_units_split() {
    // GRID-MOR-03: one die; each stand applies its own modifier and obeys its own result.
    let m = UnitMorale {
        classes: [false, true, true],
    };
    let r = m.roll(&mut dice(&[5]));
    assert_eq!(
        r,
        SplitMorale {
            unsteady: None,
            normal: Some(MoraleResult::Recoiled),
            elite: Some(MoraleResult::Steady)
        }
    );
    assert_prob("elite steady, normal recoils", m.odds().p(&r), 1.0 / 6.0);
    let mut b = square();
    let mut v = vec![inf(Side::Union).elite(); 2];
    v.push(inf(Side::Union));
    let u = b.deploy(UnitSpec::new(Side::Union, a(5, 5), v)).unwrap();
    put_inf(&mut b, Side::Confederate, a(5, 6), 3, 2);
    go_to(&mut b, Side::Union, Phase::Combat);
    let groups = lose_and_test(&mut b, u, 5);
    assert_eq!(groups.len(), 2);
    assert_eq!(groups[0], (u, MoraleResult::Steady));
    let (recoiler, res) = groups[1];
    assert_eq!(res, MoraleResult::Recoiled);
    assert_eq!(b.unit(u).unwrap().stand_count(), 2);
    assert_eq!(b.unit(recoiler).unwrap().stand_count(), 1);
    assert_eq!(b.owed_retreats().len(), 1);
    b.carry_out(recoiler).unwrap();
    assert_ne!(b.unit(recoiler).unwrap().area(), a(5, 5));
    assert!(b.validate().is_ok());
}

#[test]
fn mor_04_several_losing_units() {
    // GRID-MOR-04: each unit rolls its own die (option: one die for the side).
    let mut b = square();
    let u1 = put_inf(&mut b, Side::Union, a(5, 5), 3, 0);
    let u2 = put_inf(&mut b, Side::Union, a(4, 6), 3, 1);
    put_inf(&mut b, Side::Confederate, a(5, 6), 3, 2);
    go_to(&mut b, Side::Union, Phase::Combat);
    lose_combat(&mut b, &[u1, u2]);
    let mut per_side = b.clone();
    let r = b.test_morale(&[u1, u2], &mut dice(&[6, 1])).unwrap();
    assert_eq!(r[0].result.normal, Some(MoraleResult::Steady));
    assert_eq!(r[1].result.normal, Some(MoraleResult::Defeated));
    assert_eq!(b.owed_retreats().len(), 1);
    set_opt(&mut per_side, |o| {
        o.side_morale_dice = SideMoraleDice::PerSide
    });
    let mut d = dice(&[6]);
    let r = per_side.test_morale(&[u1, u2], &mut d).unwrap();
    assert_eq!(d.remaining(), 0);
    assert!(
        r.iter()
            .all(|m| m.result.normal == Some(MoraleResult::Steady))
    );
}

#[test]
fn mor_05_recoil() {
    // GRID-MOR-05: exactly 1 area away, facing the enemy, not disordered; terrain enterable, cost ignored.
    let mut b = square();
    let gun = put(
        &mut b,
        Side::Union,
        a(5, 5),
        &stand(Side::Union, StandType::Artillery),
        1,
        0,
    );
    put_inf(&mut b, Side::Confederate, a(5, 6), 3, 2);
    for x in [4, 6] {
        b.board_mut()
            .set_terrain(
                a(x, 5),
                Terrain {
                    ground: Ground::Difficult,
                    ..Terrain::OPEN
                },
            )
            .unwrap();
    }
    b.board_mut()
        .set_terrain(
            a(5, 4),
            Terrain {
                ground: Ground::Broken,
                ..Terrain::OPEN
            },
        )
        .unwrap();
    go_to(&mut b, Side::Union, Phase::Combat);
    let plan = b
        .retreat_plan(gun, RetreatKind::Recoil, &[a(5, 6)])
        .unwrap();
    assert_eq!(plan, RetreatPlan::Clear(vec![vec![a(5, 4)]]));
    assert_eq!(
        lose_and_test(&mut b, gun, 4),
        vec![(gun, MoraleResult::Recoiled)]
    );
    let r = b.retreat(gun, &[a(5, 4)], None).unwrap();
    assert_eq!(
        r,
        RetreatReport::Retreated {
            area: a(5, 4),
            joined: None
        }
    );
    let u = b.unit(gun).unwrap();
    assert_eq!(
        (u.area(), u.facing().index(), u.disordered()),
        (a(5, 4), 0, false)
    );
    assert!(u.flags().retreated);
}

#[test]
fn mor_06_defeated() {
    // GRID-MOR-06: a full move at normal costs, disordered, facing the enemy.
    let mut b = square();
    let u = put_inf(&mut b, Side::Union, a(5, 5), 3, 0);
    put_inf(&mut b, Side::Confederate, a(5, 6), 3, 2);
    b.board_mut()
        .set_terrain(
            a(5, 4),
            Terrain {
                ground: Ground::Difficult,
                ..Terrain::OPEN
            },
        )
        .unwrap();
    go_to(&mut b, Side::Union, Phase::Combat);
    let RetreatPlan::Clear(paths) = b
        .retreat_plan(u, RetreatKind::FullMove, &[a(5, 6)])
        .unwrap()
    else {
        panic!("clear")
    };
    assert!(
        paths.contains(&vec![a(5, 4)]),
        "difficult ground costs the whole move"
    );
    assert!(paths.contains(&vec![a(4, 5), a(4, 4)]));
    assert!(
        !paths.contains(&vec![a(4, 5)]),
        "a full move goes as far as it can"
    );
    assert_eq!(
        lose_and_test(&mut b, u, 2),
        vec![(u, MoraleResult::Defeated)]
    );
    assert_eq!(b.owed_retreats()[0].cause, DEFEAT);
    let before = b.clone();
    assert!(b.retreat(u, &[a(4, 5)], None).is_err());
    assert_eq!(b, before);
    b.retreat(u, &[a(4, 5), a(3, 5)], None).unwrap();
    let v = b.unit(u).unwrap();
    assert_eq!((v.area(), v.disordered()), (a(3, 5), true));
    assert_eq!(
        b.board().facings_towards(a(3, 5), a(5, 6)),
        vec![v.facing()]
    );
    // Carried out once: a second retreat is refused.
    assert_eq!(
        b.retreat(u, &[], Some(facing(&b, 2))),
        Err(RuleViolation::RetreatNotOwed(u))
    );
}

#[test]
fn mor_07_routed() {
    // GRID-MOR-07: retreat as defeated, then leave the table; the stands count as lost.
    let mut b = square();
    let u = put(
        &mut b,
        Side::Union,
        a(5, 5),
        &inf(Side::Union).unsteady(),
        3,
        0,
    );
    put_inf(&mut b, Side::Confederate, a(5, 6), 3, 2);
    go_to(&mut b, Side::Union, Phase::Combat);
    // Unsteady (-1) rolling a 1 reads 0: routed.
    assert_eq!(lose_and_test(&mut b, u, 1), vec![(u, MoraleResult::Routed)]);
    assert_eq!(b.owed_retreats()[0].cause, ROUT);
    let r = b.carry_out(u).unwrap();
    assert_eq!(r, RetreatReport::Routed);
    assert!(b.unit(u).is_err());
    let l = b.losses(Side::Union);
    assert_eq!((l.units_routed, l.stands_lost), (1, 3));
}

#[test]
fn mor_08_forced_cavalry_retreat() {
    // GRID-MOR-08: mounted cavalry in contact after the retreats goes a full move in disorder; in a mixed unit
    // only the cavalry goes.
    let mut b = square();
    let mut v = vec![stand(Side::Union, StandType::Cavalry); 2];
    v.push(inf(Side::Union));
    let mixed = b.deploy(UnitSpec::new(Side::Union, a(5, 5), v)).unwrap();
    put_inf(&mut b, Side::Confederate, a(5, 6), 3, 2);
    go_to(&mut b, Side::Union, Phase::Combat);
    assert_eq!(b.cavalry_in_contact(), vec![mixed]);
    // A path that is not a full move is refused and splits nothing.
    assert!(b.forced_cavalry_retreat(mixed, &[a(5, 4)]).is_err());
    assert_eq!(b.unit(mixed).unwrap().stand_count(), 3);
    let (cav, r) = b
        .forced_cavalry_retreat(mixed, &[a(5, 4), a(5, 3), a(5, 2)])
        .unwrap();
    assert_eq!(
        r,
        RetreatReport::Retreated {
            area: a(5, 2),
            joined: None
        }
    );
    assert_eq!(b.unit(cav).unwrap().stand_count(), 2);
    assert!(b.unit(cav).unwrap().disordered());
    assert_eq!(b.unit(mixed).unwrap().stand_count(), 1);
    assert_eq!(b.unit(mixed).unwrap().area(), a(5, 5));
}

#[test]
fn mor_09_retreat_path() {
    // GRID-MOR-09: every area entered enterable, free of enemies, farther from every enemy of the combat;
    // friends may be passed; the owner picks among legal paths.
    let mut b = square();
    let u = put_inf(&mut b, Side::Union, a(5, 5), 3, 0);
    put_inf(&mut b, Side::Union, a(5, 4), 6, 0);
    put_inf(&mut b, Side::Confederate, a(5, 6), 3, 2);
    put_inf(&mut b, Side::Confederate, a(6, 6), 3, 2);
    go_to(&mut b, Side::Union, Phase::Combat);
    let enemies = [a(5, 6), a(6, 6)];
    let RetreatPlan::Clear(paths) = b.retreat_plan(u, RetreatKind::FullMove, &enemies).unwrap()
    else {
        panic!("clear")
    };
    assert!(
        paths.contains(&vec![a(5, 4), a(5, 3)]),
        "through a full friendly area"
    );
    assert!(paths.contains(&vec![a(4, 5), a(3, 5)]));
    assert!(
        !paths.iter().any(|p| p.first() == Some(&a(6, 5))),
        "(6,5) is next to (6,6)"
    );
    // As the engine plays it: the unit retreats from the enemy of its combat, by a route the plan allows.
    assert_eq!(
        lose_and_test(&mut b, u, 1),
        vec![(u, MoraleResult::Defeated)]
    );
    assert_eq!(b.owed_retreats()[0].enemies, vec![a(5, 6)]);
    assert!(
        b.retreat(u, &[a(5, 4)], None).is_err(),
        "a full move goes on"
    );
    b.retreat(u, &[a(5, 4), a(5, 3)], None).unwrap();
    assert_eq!(b.unit(u).unwrap().area(), a(5, 3));
}

#[test]
fn mor_10_surrender() {
    // GRID-MOR-10: a retreat the enemy blocks ends in surrender.
    let mut b = square();
    let u = put_inf(&mut b, Side::Union, a(5, 5), 3, 0);
    for x in [a(5, 6), a(5, 4), a(4, 5), a(6, 5)] {
        put_inf(&mut b, Side::Confederate, x, 1, 2);
    }
    go_to(&mut b, Side::Union, Phase::Combat);
    assert_eq!(
        b.retreat_plan(u, RetreatKind::Recoil, &[a(5, 6)]).unwrap(),
        RetreatPlan::Surrender
    );
    // As the engine plays it: a defeated unit whose full move away from the enemy it fought is cut off by
    // enemy units farther out (not in its combat) surrenders.
    let mut b = square();
    let u = put_inf(&mut b, Side::Union, a(5, 5), 3, 0);
    put_inf(&mut b, Side::Confederate, a(5, 6), 3, 2);
    for x in [a(5, 3), a(4, 4), a(6, 4), a(3, 5), a(7, 5)] {
        put_inf(&mut b, Side::Confederate, x, 1, 2);
    }
    go_to(&mut b, Side::Union, Phase::Combat);
    assert_eq!(
        lose_and_test(&mut b, u, 1),
        vec![(u, MoraleResult::Defeated)]
    );
    assert_eq!(
        b.retreat_plan(u, RetreatKind::FullMove, &[a(5, 6)])
            .unwrap(),
        RetreatPlan::Surrender
    );
    assert!(
        b.retreat(u, &[a(5, 4)], None).is_err(),
        "a surrender takes no route"
    );
    assert_eq!(b.retreat(u, &[], None).unwrap(), RetreatReport::Surrendered);
    let l = b.losses(Side::Union);
    assert_eq!((l.units_surrendered, l.stands_lost), (1, 3));
}

#[test]
fn mor_11_retreating_into_a_full_area() {
    // GRID-MOR-11: a retreat that ends over the stacking limit goes on until the unit fits.
    let mut b = square();
    let u = put_inf(&mut b, Side::Union, a(5, 5), 3, 0);
    for x in [a(5, 4), a(4, 5), a(6, 5)] {
        put_inf(&mut b, Side::Union, x, 6, 0);
    }
    put_inf(&mut b, Side::Confederate, a(5, 6), 3, 2);
    go_to(&mut b, Side::Union, Phase::Combat);
    let RetreatPlan::Clear(paths) = b.retreat_plan(u, RetreatKind::Recoil, &[a(5, 6)]).unwrap()
    else {
        panic!("clear")
    };
    assert!(paths.contains(&vec![a(5, 4), a(5, 3)]));
    assert!(!paths.contains(&vec![a(5, 4)]));
    assert_eq!(
        lose_and_test(&mut b, u, 4),
        vec![(u, MoraleResult::Recoiled)]
    );
    b.retreat(u, &[a(5, 4), a(5, 3)], None).unwrap();
    assert_eq!(b.unit(u).unwrap().area(), a(5, 3));
    // A retreat into friends with room joins them.
    let mut j = square();
    let u = put_inf(&mut j, Side::Union, a(5, 5), 3, 0);
    let host = put_inf(&mut j, Side::Union, a(5, 4), 3, 0);
    put_inf(&mut j, Side::Confederate, a(5, 6), 3, 2);
    go_to(&mut j, Side::Union, Phase::Combat);
    assert_eq!(
        lose_and_test(&mut j, u, 5),
        vec![(u, MoraleResult::Recoiled)]
    );
    let r = j.retreat(u, &[a(5, 4)], None).unwrap();
    assert_eq!(
        r,
        RetreatReport::Retreated {
            area: a(5, 4),
            joined: Some(host)
        }
    );
    assert_eq!(j.unit(host).unwrap().stand_count(), 6);
}

#[test]
fn mor_12_blocked_by_terrain_or_edge() {
    // GRID-MOR-12: stop as far as possible and be disordered (option: removed).
    let mut b = square();
    let u = put_inf(&mut b, Side::Union, a(11, 0), 3, 0);
    put_inf(&mut b, Side::Confederate, a(11, 1), 3, 2);
    put_inf(&mut b, Side::Confederate, a(10, 0), 3, 1);
    let mut removed = b.clone();
    set_opt(&mut removed, |o| {
        o.blocked_retreat = BlockedRetreat::Removed
    });
    go_to(&mut b, Side::Union, Phase::Combat);
    let enemies = [a(11, 1), a(10, 0)];
    assert_eq!(
        b.retreat_plan(u, RetreatKind::FullMove, &enemies).unwrap(),
        RetreatPlan::Blocked(vec![vec![]])
    );
    assert_eq!(
        lose_and_test(&mut b, u, 3),
        vec![(u, MoraleResult::Defeated)]
    );
    assert_eq!(
        b.retreat(u, &[], None).unwrap(),
        RetreatReport::Stopped { area: a(11, 0) }
    );
    assert!(b.unit(u).unwrap().disordered());
    go_to(&mut removed, Side::Union, Phase::Combat);
    assert_eq!(
        lose_and_test(&mut removed, u, 3),
        vec![(u, MoraleResult::Defeated)]
    );
    assert_eq!(
        removed.retreat(u, &[], None).unwrap(),
        RetreatReport::Removed
    );
    assert_eq!(removed.losses(Side::Union).units_removed, 1);
}

#[test]
fn mor_13_disorder_and_rally() {
    // GRID-MOR-13: a disordered unit rallies in its own step if not engaged, not moved, did not bombard; no die.
    let mut b = square();
    let u = b
        .deploy(UnitSpec::new(Side::Union, a(2, 2), vec![inf(Side::Union); 3]).disordered())
        .unwrap();
    let e = b
        .deploy(UnitSpec::new(Side::Union, a(8, 8), vec![inf(Side::Union); 3]).disordered())
        .unwrap();
    put_inf(&mut b, Side::Confederate, a(8, 9), 3, 2);
    let gun = b
        .deploy(UnitSpec::new(
            Side::Union,
            a(5, 2),
            vec![stand(Side::Union, StandType::Artillery)],
        ))
        .unwrap();
    let t = put_inf(&mut b, Side::Confederate, a(5, 4), 3, 2);
    go_to(&mut b, Side::Union, Phase::Bombardment);
    b.bombardment_phase(
        &[BombardOrder {
            battery: gun,
            target: t,
        }],
        &mut dice(&[1, 1]),
    )
    .unwrap();
    b.advance().unwrap();
    // Disorder blocks bombarding and moving; rallying lifts it.
    assert_eq!(
        b.move_unit(&MoveOrder::along(b.unit(u).unwrap(), vec![a(2, 3)])),
        Err(RuleViolation::Disordered(u))
    );
    b.rally(u).unwrap();
    assert!(!b.unit(u).unwrap().disordered());
    assert!(
        b.move_unit(&MoveOrder::along(b.unit(u).unwrap(), vec![a(2, 3)]))
            .is_err(),
        "a rallied unit stays"
    );
    assert!(matches!(
        b.rally(e),
        Err(RuleViolation::NotEligible {
            why: "it is engaged",
            ..
        })
    ));
    assert!(matches!(b.rally(u), Err(RuleViolation::NotEligible { .. })));
    // A unit that retreated earlier this turn (a battery silenced in the Bombardment Phase, retreating in
    // disorder) may rally in its movement step by default, not with the option.
    let mut r = square();
    let gun = stand(Side::Union, StandType::Artillery);
    let g1 = put(&mut r, Side::Union, a(5, 2), &gun, 1, 0);
    let g2 = put(&mut r, Side::Union, a(6, 2), &gun, 1, 0);
    let rebel_guns = stand(Side::Confederate, StandType::Artillery);
    let v = put(&mut r, Side::Confederate, a(5, 4), &rebel_guns, 2, 2);
    let mut strict = r.clone();
    set_opt(&mut strict, |o| o.rally_after_retreat = false);
    for bb in [&mut r, &mut strict] {
        go_to(bb, Side::Union, Phase::Bombardment);
        let shots = [g1, g2].map(|battery| BombardOrder { battery, target: v });
        bb.roll_bombardment(&shots, &mut dice(&[6, 6, 6, 1]))
            .unwrap();
        let silence = Silence {
            unit: v,
            path: vec![a(5, 5), a(5, 6)],
        };
        bb.apply_bombardment(&[silence], &mut dice(&[])).unwrap();
        bb.advance().unwrap();
        bb.advance().unwrap();
    }
    assert!(r.unit(v).unwrap().disordered());
    r.rally(v).unwrap();
    assert!(matches!(
        strict.rally(v),
        Err(RuleViolation::NotEligible {
            why: "it retreated this turn",
            ..
        })
    ));
}
