//! Melee on the battle state: pairings, scores to kill, bonuses, kills, formation fails after.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::Resolve;
use acw_core::dice::ScriptedDice;
use acw_d8::formation::FfCause;
use acw_d8::melee::{Defender, Melee, MeleeBonuses, Pairing, kill_need, melee_bonus};
use acw_d8::movement::ChargeFacts;
use acw_d8::sequence::Phase;
use acw_d8::state::{MeleeFacts, Struck};
use acw_d8::tables::{Class, Cover, kill_score};
use acw_d8::{Options, Refusal};
use common::*;

fn pairs(p: &[u8]) -> MeleeFacts {
    MeleeFacts {
        pairings: p.iter().map(|&k| (Struck::Figure, k)).collect(),
        ..MeleeFacts::default()
    }
}

#[test]
fn to_kill_table() {
    // D8-MEL-04: Raw 4+/5+/6+, Experienced 6+/7+/8+, Veteran 8+/9+/10 in the open, soft and hard cover.
    let rows: Vec<[u8; 3]> = Class::ALL
        .iter()
        .map(|&c| {
            [
                kill_score(c, Cover::Open),
                kill_score(c, Cover::Soft),
                kill_score(c, Cover::Hard),
            ]
        })
        .collect();
    assert_eq!(rows, [[4, 5, 6], [6, 7, 8], [8, 9, 10]]);
    // D8-MEL-11: officers as Veterans. D8-MEL-07: artillerymen at least soft cover.
    assert_eq!(kill_need(Defender::Officer, Cover::Open, 0), 8);
    assert_eq!(
        kill_need(Defender::Artilleryman(Class::Raw), Cover::Open, 0),
        5
    );
    assert_eq!(
        kill_need(Defender::Artilleryman(Class::Raw), Cover::Hard, 0),
        6
    );
    // D8-MEL-05, D8-MEL-06: +1 each, cumulative; none with the attacker's formation fail.
    let all = MeleeBonuses {
        enemy_ff: true,
        formed_against_skirmishers: true,
        charged: true,
    };
    assert_eq!(melee_bonus(all, false), 3);
    assert_eq!(melee_bonus(all, true), 0);
    assert_eq!(
        kill_need(Defender::Figure(Class::Experienced), Cover::Open, 1),
        5
    );
}

#[test]
fn a_melee_kills_and_leaves_both_disordered() {
    // D8-MEL-01, D8-MEL-03, D8-MEL-09: the Union Zouaves fight the 2nd Volunteers (Experienced, open: 6+): three
    // on one (1, 2, 6: killed), one on another (5: lives).
    let mut b = battle();
    to_phase(&mut b, Phase::Melee);
    let mut d = ScriptedDice::faces([1, 2, 6, 5]);
    let r = b
        .melee(uid(U), uid(C + 1), &pairs(&[3, 1]), &mut d)
        .unwrap();
    assert_eq!((r.killed, r.officers_killed), (1, 0));
    assert_eq!(b.unit(uid(C + 1)).unwrap().figures, 11);
    assert_eq!(b.points().union.kills, 2);
    assert!(r.to_string().contains("1 figures killed"));
    // D8-MEL-10: both get a formation fail after the phase.
    assert!(b.unit(uid(U)).unwrap().ff.is_none());
    b.end_melee().unwrap();
    assert_eq!(
        b.unit(uid(U)).unwrap().ff.map(|f| f.cause),
        Some(FfCause::Melee)
    );
    assert_eq!(
        b.unit(uid(C + 1)).unwrap().ff.map(|f| f.cause),
        Some(FfCause::Melee)
    );
    assert!(b.unit(uid(C + 1)).unwrap().ff.is_some_and(|f| f.may_test()));
}

#[test]
fn melee_refusals() {
    let mut b = battle();
    to_phase(&mut b, Phase::Melee);
    let before = b.clone();
    let none = &mut ScriptedDice::faces([]);
    // D8-MEL-01: at most 3 on one figure; not more defenders than there are.
    assert!(matches!(
        b.melee(uid(U), uid(C + 1), &pairs(&[4]), none),
        Err(Refusal::BadMelee(_))
    ));
    assert!(
        b.melee(uid(U + 10), uid(C + 1), &pairs(&[1; 5]), none)
            .is_err(),
        "4 sharpshooters, 5 attackers"
    );
    assert!(
        b.melee(uid(U), uid(C + 10), &pairs(&[1; 5]), none).is_err(),
        "only 4 defenders"
    );
    // D8-MEL-02: only the active side strikes, only in the Melee phase.
    assert!(matches!(
        b.melee(uid(C), uid(U + 1), &pairs(&[1]), none),
        Err(Refusal::WrongTime { .. })
    ));
    assert_eq!(b, before);
    let mut b = battle();
    to_phase(&mut b, Phase::Firing);
    assert!(matches!(
        b.melee(uid(U), uid(C + 1), &pairs(&[1]), none),
        Err(Refusal::WrongTime { .. })
    ));
}

#[test]
fn a_charge_and_formation_fails_change_the_scores() {
    // D8-MEL-05: a charge gives +1: an Experienced figure in the open dies on 5.
    let mut b = battle();
    start(&mut b);
    let charge = ChargeFacts {
        distance_cm: 25.0,
        path_open: true,
        target_in_cover: false,
        in_contact_order: true,
    };
    b.charge(uid(U), uid(C + 1), &charge).unwrap();
    b.end_movement().unwrap();
    b.end_firing(&mut ScriptedDice::faces([])).unwrap();
    let r = b
        .melee(
            uid(U),
            uid(C + 1),
            &pairs(&[1]),
            &mut ScriptedDice::faces([5]),
        )
        .unwrap();
    assert_eq!(r.killed, 1);
    // D8-MEL-06: the attacker's own formation fail cancels every bonus, the enemy's included.
    let mut b = battle();
    start(&mut b);
    b.formation_fail(uid(U + 1), FfCause::CrossedCover).unwrap();
    b.formation_fail(uid(C + 1), FfCause::CrossedCover).unwrap();
    to_phase(&mut b, Phase::Melee);
    let r = b
        .melee(
            uid(U + 1),
            uid(C + 1),
            &pairs(&[1]),
            &mut ScriptedDice::faces([5]),
        )
        .unwrap();
    assert_eq!(r.killed, 0);
    // Without it, the enemy's formation fail gives +1: 5 kills.
    let r = b
        .melee(
            uid(U + 3),
            uid(C + 1),
            &pairs(&[1]),
            &mut ScriptedDice::faces([5]),
        )
        .unwrap();
    assert_eq!(r.killed, 1);
}

#[test]
fn crews_buildings_and_officers() {
    // D8-MEL-07: a battery's artilleryman (Confederate field battery, Experienced) counts as behind soft cover: 7+;
    // the line also gets +1 against the unlimbered... here limbered, so no skirmisher bonus.
    let mut b = battle();
    to_phase(&mut b, Phase::Melee);
    let r = b
        .melee(
            uid(U + 1),
            uid(C + 11),
            &pairs(&[1, 1]),
            &mut ScriptedDice::faces([6, 7]),
        )
        .unwrap();
    assert_eq!(r.killed, 1);
    // D8-MEL-08: defenders in a building are behind hard cover: a Raw figure needs 6.
    let facts = MeleeFacts {
        in_building: true,
        ..pairs(&[1, 1])
    };
    let r = b
        .melee(
            uid(U + 3),
            uid(C + 2),
            &facts,
            &mut ScriptedDice::faces([5, 6]),
        )
        .unwrap();
    assert_eq!(r.killed, 1);
    // D8-MEL-11, D8-VIC-05: an officer in contact, killed on 8+ in the open: 10 VP.
    let facts = MeleeFacts {
        pairings: vec![(Struck::Officer(oid(4)), 2)],
        ..MeleeFacts::default()
    };
    let r = b
        .melee(
            uid(U + 4),
            uid(C + 2),
            &facts,
            &mut ScriptedDice::faces([3, 8]),
        )
        .unwrap();
    assert_eq!(r.officers_killed, 1);
    assert!(!b.officer(oid(4)).unwrap().alive);
    assert_eq!(b.points().union.officers, 10);
    // A dead officer cannot be fought again.
    assert!(
        b.melee(
            uid(U + 5),
            uid(C + 2),
            &facts,
            &mut ScriptedDice::faces([8, 8])
        )
        .is_err()
    );
}

#[test]
fn pooled_and_officers_rolling_options() {
    // D8-MEL-09 option: pooled successes, up to the defenders in contact: one defender with 1 attacker and one
    // with 2; faces 4, 4, 4 (Raw, open: all succeed): 2 killed either way; 4, 1, 1: per defender 1, pooled 1.
    let p = vec![
        Pairing {
            attackers: 1,
            need: 4,
        },
        Pairing {
            attackers: 2,
            need: 4,
        },
    ];
    let per = Melee {
        pairings: p.clone(),
        pooled: false,
    };
    let pooled = Melee {
        pairings: p,
        pooled: true,
    };
    assert_eq!(per.roll(&mut ScriptedDice::faces([4, 4, 4])), 2);
    assert_eq!(pooled.roll(&mut ScriptedDice::faces([4, 4, 4])), 2);
    assert_eq!(per.roll(&mut ScriptedDice::faces([1, 4, 4])), 1);
    assert_eq!(pooled.roll(&mut ScriptedDice::faces([1, 4, 4])), 2);
    let mut o = Options::default();
    o.pooled_melee = true;
    let mut b = battle_with(o);
    to_phase(&mut b, Phase::Melee);
    let r = b
        .melee(
            uid(U),
            uid(C + 2),
            &pairs(&[1, 2]),
            &mut ScriptedDice::faces([1, 4, 4]),
        )
        .unwrap();
    assert_eq!(r.killed, 2);
    // D8-MEL-03: officers do not roll by default; under the option an attached officer adds a die.
    let mut b = battle();
    start(&mut b);
    b.attach(oid(1), uid(U + 10)).unwrap();
    to_phase(&mut b, Phase::Melee);
    assert!(
        b.melee(
            uid(U + 10),
            uid(C + 2),
            &pairs(&[1, 1, 1, 1, 1]),
            &mut ScriptedDice::faces([1; 5])
        )
        .is_err()
    );
    let mut o = Options::default();
    o.officers_roll_in_melee = true;
    let mut b = battle_with(o);
    start(&mut b);
    b.attach(oid(1), uid(U + 10)).unwrap();
    to_phase(&mut b, Phase::Melee);
    assert!(
        b.melee(
            uid(U + 10),
            uid(C + 2),
            &pairs(&[1, 1, 1, 1, 1]),
            &mut ScriptedDice::faces([1; 5])
        )
        .is_ok()
    );
}

#[test]
fn the_battle_gives_the_odds_of_the_melee_it_would_roll() {
    // D8-MEL-09: the Zouaves on the 2nd Volunteers (6+, 1/2 a die): three on one (7/8) and one on another (1/2).
    let mut b = battle();
    to_phase(&mut b, Phase::Melee);
    let m = b
        .planned_melee(uid(U), uid(C + 1), &pairs(&[3, 1]))
        .unwrap();
    let d = m.odds();
    assert!((d.p(&2) - 7.0 / 16.0).abs() < 1e-12);
    assert!((d.p(&0) - 1.0 / 16.0).abs() < 1e-12);
    assert!(b.planned_melee(uid(U), uid(C + 1), &pairs(&[4])).is_err());
}

#[test]
fn exact_melee_odds() {
    // D8-MEL-09: three on one Veteran in the open: 1 − (7/10)³ = 657/1000.
    let m = Melee {
        pairings: vec![Pairing {
            attackers: 3,
            need: 8,
        }],
        pooled: false,
    };
    assert!((m.odds().p(&1) - 657.0 / 1000.0).abs() < 1e-12);
}
