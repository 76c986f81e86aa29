//! Hits and casualties: GRID-CAS-01 to GRID-CAS-09.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::Resolve;
use acw_core::Side;
use acw_core::testing::assert_prob;
use acw_grid::board::Terrain;
use acw_grid::casualties::{CoverHalving, Halved, next_stand_to_remove};
use acw_grid::error::RuleViolation;
use acw_grid::fire::BombardOrder;
use acw_grid::movement::MoveOrder;
use acw_grid::options::{DetachedHit, FractionMode};
use acw_grid::setup::UnitSpec;
use acw_grid::state::Phase;
use acw_grid::tables::{Firepower, MoraleResult, StandType};
use common::*;

#[test]
fn cas_01_two_hits_a_stand() {
    // GRID-CAS-01: a stand absorbs 2 hits.
    let mut b = square();
    let u = put_inf(&mut b, Side::Union, a(2, 2), 3, 0);
    let r = bombard_hits(&mut b, &[(u, 2)])[0];
    assert_eq!((r.stands_removed, r.leftover, r.destroyed), (1, 0, false));
    assert_eq!(b.unit(u).unwrap().stand_count(), 2);
}

#[test]
fn cas_02_one_running_total() {
    // GRID-CAS-02: hits add to one total; each 2 removes a stand; at most 1 left over.
    let mut b = square();
    let u = put_inf(&mut b, Side::Union, a(2, 2), 3, 0);
    assert_eq!(bombard_hits(&mut b, &[(u, 1)])[0].stands_removed, 0);
    assert_eq!(b.unit(u).unwrap().hits(), 1);
    assert_eq!(bombard_hits(&mut b, &[(u, 1)])[0].stands_removed, 1);
    let r = bombard_hits(&mut b, &[(u, 3)])[0];
    assert_eq!((r.stands_removed, r.leftover), (1, 1));
    assert_eq!(b.unit(u).unwrap().stand_count(), 1);
    assert_eq!(b.losses(Side::Union).stands_lost, 2);
}

#[test]
fn cas_03_destroyed_units() {
    // GRID-CAS-03: no stands left (hits = 2 x stands): destroyed and removed.
    let mut b = square();
    let u = put_inf(&mut b, Side::Union, a(2, 2), 3, 0);
    assert_eq!(b.unit(u).unwrap().hits_to_destroy(), 6);
    bombard_hits(&mut b, &[(u, 1)]);
    assert_eq!(b.unit(u).unwrap().hits_to_destroy(), 5);
    let r = bombard_hits(&mut b, &[(u, 9)])[0];
    assert!(r.destroyed);
    assert_eq!(r.stands_removed, 3);
    assert!(b.unit(u).is_err());
    assert_eq!(b.losses(Side::Union).units_destroyed, 1);
}

#[test]
fn cas_04_which_stand_goes() {
    // GRID-CAS-04: supporting stands first, then those without a marker, then the lowest quality.
    let mut b = square();
    let v = vec![
        inf(Side::Union).tenacious(),
        inf(Side::Union).unsteady(),
        inf(Side::Union).with_firepower(Firepower::Superior),
        inf(Side::Union).elite(),
    ];
    let u = b.deploy(UnitSpec::new(Side::Union, a(2, 2), v)).unwrap();
    assert_eq!(
        next_stand_to_remove(b.unit(u).unwrap(), 3),
        Some(3),
        "the supporting stand"
    );
    bombard_hits(&mut b, &[(u, 2)]);
    assert_eq!(
        next_stand_to_remove(b.unit(u).unwrap(), 3),
        Some(1),
        "unsteady, no marker"
    );
    bombard_hits(&mut b, &[(u, 2)]);
    let left: Vec<_> = b
        .unit(u)
        .unwrap()
        .stands()
        .iter()
        .map(|s| (s.tenacity, s.firepower))
        .collect();
    assert_eq!(
        left,
        vec![(true, Firepower::Normal), (false, Firepower::Superior)]
    );
    assert_eq!(
        next_stand_to_remove(b.unit(u).unwrap(), 3),
        Some(1),
        "no marker goes before a marker"
    );
}

#[test]
fn cas_05_halving_and_fractions() {
    // GRID-CAS-05: round down (default), carry fractions, or dice for them (4-6 on a d6).
    let h = |hits, mode, carry| CoverHalving { hits, mode, carry };
    assert_eq!(
        h(3, FractionMode::RoundDown, false).roll(&mut dice(&[])),
        Halved {
            hits: 1,
            carry: false
        }
    );
    assert_eq!(
        h(3, FractionMode::CarryFractions, false).roll(&mut dice(&[])),
        Halved {
            hits: 1,
            carry: true
        }
    );
    assert_eq!(
        h(3, FractionMode::CarryFractions, true).roll(&mut dice(&[])),
        Halved {
            hits: 2,
            carry: false
        }
    );
    assert_eq!(
        h(3, FractionMode::DiceForFraction, false)
            .roll(&mut dice(&[4]))
            .hits,
        2
    );
    assert_eq!(
        h(3, FractionMode::DiceForFraction, false)
            .roll(&mut dice(&[3]))
            .hits,
        1
    );
    let mut d = dice(&[]);
    assert_eq!(
        h(4, FractionMode::DiceForFraction, false).roll(&mut d).hits,
        2
    );
    assert!(d.finish().is_ok(), "no die for an even total");
    assert_prob(
        "odd half rounds up",
        h(5, FractionMode::DiceForFraction, false)
            .odds()
            .p(&Halved {
                hits: 3,
                carry: false,
            }),
        0.5,
    );
    // Carried halves live on the unit between phases.
    let mut b = square();
    set_opt(&mut b, |o| o.fractions = FractionMode::CarryFractions);
    b.board_mut()
        .set_terrain(
            a(5, 4),
            Terrain {
                cover: true,
                ..Terrain::OPEN
            },
        )
        .unwrap();
    let g = put(
        &mut b,
        Side::Union,
        a(5, 2),
        &stand(Side::Union, StandType::Artillery),
        1,
        0,
    );
    let t = put_inf(&mut b, Side::Confederate, a(5, 4), 3, 2);
    go_to(&mut b, Side::Union, Phase::Bombardment);
    b.bombardment_phase(
        &[BombardOrder {
            battery: g,
            target: t,
        }],
        &mut dice(&[6, 1]),
    )
    .unwrap();
    assert_eq!(
        (b.unit(t).unwrap().hits(), b.unit(t).unwrap().half_hit()),
        (0, true)
    );
    next_turn(&mut b, Side::Union, Phase::Bombardment);
    b.bombardment_phase(
        &[BombardOrder {
            battery: g,
            target: t,
        }],
        &mut dice(&[6, 1]),
    )
    .unwrap();
    assert_eq!(
        (b.unit(t).unwrap().hits(), b.unit(t).unwrap().half_hit()),
        (1, false)
    );
}

#[test]
fn cas_06_tenacity_markers() {
    // GRID-CAS-06: removing a marker cancels 1 hit; once each; lost with its stand.
    let mut b = square();
    let u = put(
        &mut b,
        Side::Union,
        a(2, 2),
        &inf(Side::Union).tenacious(),
        3,
        0,
    );
    assert_eq!(
        b.spend_marker(u, 0),
        Err(RuleViolation::NoMarker(u)),
        "no hit to cancel"
    );
    bombard_hits(&mut b, &[(u, 1)]);
    b.spend_marker(u, 0).unwrap();
    assert_eq!(b.unit(u).unwrap().hits(), 0);
    bombard_hits(&mut b, &[(u, 1)]);
    assert_eq!(
        b.spend_marker(u, 0),
        Err(RuleViolation::NoMarker(u)),
        "used once"
    );
    assert_eq!(
        b.spend_marker(u, 9),
        Err(RuleViolation::NoSuchStand { unit: u, index: 9 })
    );
    let markers = |b: &acw_grid::Battle| {
        b.unit(u)
            .unwrap()
            .stands()
            .iter()
            .filter(|s| s.tenacity)
            .count()
    };
    assert_eq!(markers(&b), 2);
    bombard_hits(&mut b, &[(u, 1)]);
    // The stand without a marker went first; next one takes a marker with it.
    assert_eq!(markers(&b), 2);
    bombard_hits(&mut b, &[(u, 2)]);
    assert_eq!(markers(&b), 1);
}

#[test]
fn cas_07_no_recovery() {
    // GRID-CAS-07: rallying removes disorder only; hits and stands stay lost.
    let mut b = square();
    let u = b
        .deploy(UnitSpec::new(Side::Union, a(2, 2), vec![inf(Side::Union); 3]).disordered())
        .unwrap();
    bombard_hits(&mut b, &[(u, 3)]);
    go_to(&mut b, Side::Union, Phase::FirstMovement);
    b.rally(u).unwrap();
    let v = b.unit(u).unwrap();
    assert_eq!((v.stand_count(), v.hits(), v.disordered()), (2, 1, false));
    end_turn(&mut b);
    assert_eq!(b.unit(u).unwrap().stand_count(), 2);
}

#[test]
fn cas_08_loss_counts() {
    // GRID-CAS-08: stands lost, units routed, surrendered, commanders lost, per side.
    let mut b = square();
    let unsteady = inf(Side::Confederate).unsteady();
    let r = put(&mut b, Side::Confederate, a(5, 5), &unsteady, 2, 0);
    put_inf(&mut b, Side::Union, a(5, 4), 3, 0);
    go_to(&mut b, Side::Union, Phase::Combat);
    // It loses its combat (one hit) and routs on a 1 (unsteady: 0).
    assert_eq!(lose_and_test(&mut b, r, 1), vec![(r, MoraleResult::Routed)]);
    b.carry_out(r).unwrap();
    let l = b.losses(Side::Confederate);
    assert_eq!(
        (
            l.stands_lost,
            l.units_routed,
            l.units_destroyed,
            l.commanders_lost
        ),
        (2, 1, 0, 0)
    );
    assert_eq!(b.losses(Side::Union), Default::default());
}

#[test]
fn cas_09_merging_and_detaching_hits() {
    // GRID-CAS-09: joining adds and regroups the hits; detaching leaves the hit with the original (option: the
    // owner says which part keeps it).
    let mut b = square();
    let host = put_inf(&mut b, Side::Union, a(2, 3), 2, 0);
    let u = put_inf(&mut b, Side::Union, a(2, 2), 3, 0);
    bombard_hits(&mut b, &[(host, 1), (u, 1)]);
    let mut chooser = b.clone();
    set_opt(&mut chooser, |o| o.detached_hit = DetachedHit::OwnerChooses);
    go_to(&mut b, Side::Union, Phase::FirstMovement);
    let r = b
        .move_unit(&MoveOrder::along(b.unit(u).unwrap(), vec![a(2, 3)]))
        .unwrap();
    assert_eq!(r.joined, Some(host));
    let h = b.unit(host).unwrap();
    assert_eq!((h.stand_count(), h.hits()), (4, 0));
    assert_eq!(b.losses(Side::Union).stands_lost, 1);
    go_to(&mut chooser, Side::Union, Phase::FirstMovement);
    let mut o = MoveOrder::along(chooser.unit(u).unwrap(), vec![a(1, 2)]).detaching(vec![0]);
    o.detached_take_hit = true;
    let r = chooser.move_unit(&o).unwrap();
    assert_eq!(chooser.unit(r.unit).unwrap().hits(), 1);
    assert_eq!(chooser.unit(u).unwrap().hits(), 0);
}
