//! Command: who commands, influence measured at the start of the turn, units out of influence, succession,
//! officers moving and attaching.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::dice::ScriptedDice;
use acw_d8::movement::MoveFacts;
use acw_d8::sequence::Phase;
use acw_d8::state::{FireFacts, Target, UnitId};
use acw_d8::tables::Rank;
use acw_d8::{Battle, Options, Refusal};
use common::*;

fn forward(d: f64) -> MoveFacts {
    MoveFacts {
        distance_cm: d,
        towards_base_line: true,
        nearer_enemy: true,
        ..MoveFacts::default()
    }
}

fn back(d: f64) -> MoveFacts {
    MoveFacts {
        distance_cm: d,
        ..MoveFacts::default()
    }
}

fn start_with(b: &mut Battle, at: &[(UnitId, f64)]) {
    b.start_turn(at, &mut ScriptedDice::faces([])).unwrap();
}

/// Shoots a lone Confederate officer dead in the Union Firing phase (one hit, failed save), then passes the
/// Union turn; the Confederate turn is next, at its start.
fn shoot_officer(b: &mut Battle, officer: u32) {
    to_phase(b, Phase::Firing);
    b.fire(
        uid(U + 1),
        Target::Officer(oid(officer)),
        &FireFacts::all_at(1, 10.0),
        &mut ScriptedDice::faces([8, 1]),
    )
    .unwrap();
    to_phase(b, Phase::Morale);
    b.end_turn().unwrap();
}

#[test]
fn ranks_and_radii() {
    // D8-CMD-01.
    let table: Vec<(u8, f64)> = [
        Rank::CommanderInChief,
        Rank::ChiefOfStaff,
        Rank::Corps,
        Rank::Division,
        Rank::Brigadier,
    ]
    .iter()
    .map(|r| (r.precedence(), r.radius_cm()))
    .collect();
    assert_eq!(
        table,
        [(1, 120.0), (2, 120.0), (3, 90.0), (4, 60.0), (5, 30.0)]
    );
}

#[test]
fn who_commands() {
    // D8-CMD-02: a regiment answers to its own Brigadier; cavalry, sharpshooters and guns to the Divisional
    // Commander.
    let mut b = battle();
    assert_eq!(b.commanding_officer(uid(U + 1)), Some(oid(1)));
    assert_eq!(b.commanding_officer(uid(U + 4)), Some(oid(2)));
    assert_eq!(b.commanding_officer(uid(U + 9)), Some(oid(0)));
    assert_eq!(b.commanding_officer(uid(U + 11)), Some(oid(0)));
    assert_eq!(b.commanding_officer(uid(C + 1)), Some(oid(5)));
    // D8-CMD-05: with the Brigadier killed the Divisional Commander takes the brigade (never another Brigadier);
    // with him dead too, nobody: the regiment may never again move forwards.
    shoot_officer(&mut b, 5);
    assert_eq!(b.commanding_officer(uid(C + 1)), Some(oid(4)));
    assert_eq!(b.commanding_officer(uid(C + 4)), Some(oid(6)));
    to_phase(&mut b, Phase::Morale);
    b.end_turn().unwrap();
    shoot_officer(&mut b, 4);
    assert_eq!(b.commanding_officer(uid(C + 1)), None);
    assert_eq!(b.commanding_officer(uid(C + 9)), None);
    let inf = all_in(&b);
    start_with(&mut b, &inf);
    let r = b.move_unit(uid(C + 1), &forward(5.0), &mut ScriptedDice::faces([]));
    assert!(matches!(r, Err(Refusal::CannotMove { ref why, .. }) if why.contains("never")));
    b.move_unit(uid(C + 1), &back(5.0), &mut ScriptedDice::faces([]))
        .unwrap();
}

#[test]
fn influence_is_measured_at_the_start() {
    // D8-CMD-03: a regiment 30 cm from its Brigadier is in influence, 30.5 cm is not; cavalry to 60 cm.
    let mut b = battle();
    start_with(
        &mut b,
        &[
            (uid(U + 1), 30.0),
            (uid(U + 2), 30.5),
            (uid(U + 9), 60.0),
            (uid(U + 10), 61.0),
        ],
    );
    let f = |b: &Battle, n| b.unit(uid(n)).unwrap().in_influence;
    assert!(f(&b, U + 1) && !f(&b, U + 2) && f(&b, U + 9) && !f(&b, U + 10));
    // Units not listed are out of influence.
    assert!(!f(&b, U + 3));
    // D8-CMD-04: out of influence, no move forwards or towards the enemy; moving away is allowed.
    let none = &mut ScriptedDice::faces([]);
    let before = b.clone();
    let r = b.move_unit(uid(U + 2), &forward(5.0), none);
    assert_eq!(
        r.unwrap_err().to_string(),
        "the 3rd Recruits (Union foot regiment) may not make that move: it was out of its commander's influence at \
         the start of the turn, so it may not move forwards or towards the enemy"
    );
    let towards = MoveFacts {
        distance_cm: 5.0,
        towards_base_line: true,
        ..MoveFacts::default()
    };
    assert!(b.move_unit(uid(U + 2), &towards, none).is_err());
    assert_eq!(b, before);
    b.move_unit(uid(U + 2), &back(5.0), none).unwrap();
    b.move_unit(uid(U + 1), &forward(5.0), none).unwrap();
    // D8-CMD-06: the Brigadier riding up now does not help this turn.
    b.move_officer(oid(1), 20.0).unwrap();
    assert!(b.move_unit(uid(U + 3), &forward(5.0), none).is_err());
    // Next turn, measured in range, it may advance.
    to_phase(&mut b, Phase::Morale);
    b.end_turn().unwrap();
    to_phase(&mut b, Phase::Morale);
    b.end_turn().unwrap();
    start_with(&mut b, &[(uid(U + 3), 10.0)]);
    b.move_unit(uid(U + 3), &forward(5.0), none).unwrap();
    // Under the option only the distance to the nearest enemy counts.
    let mut o = Options::default();
    o.towards_enemy_distance_only = true;
    let mut b = battle_with(o);
    start_with(&mut b, &[]);
    b.move_unit(uid(U + 2), &towards, none).unwrap();
}

#[test]
fn officers_move_and_attach() {
    // D8-CMD-07: mounted officers 30 cm (60 under the option).
    let mut b = battle();
    start(&mut b);
    assert!(b.move_officer(oid(0), 30.5).is_err());
    b.move_officer(oid(0), 30.0).unwrap();
    assert!(b.move_officer(oid(4), 1.0).is_err(), "not his turn");
    let mut o = Options::default();
    o.officer_column_rate = true;
    let mut b = battle_with(o);
    start(&mut b);
    b.move_officer(oid(0), 60.0).unwrap();
    // D8-CMD-08: attached this turn, he stays; in a later Movement phase he may leave.
    let mut b = battle();
    start(&mut b);
    b.attach(oid(2), uid(U + 4)).unwrap();
    assert!(b.move_officer(oid(2), 5.0).is_err());
    assert!(
        b.attach(oid(2), uid(C + 4)).is_err(),
        "not to an enemy unit"
    );
    to_phase(&mut b, Phase::Morale);
    b.end_turn().unwrap();
    to_phase(&mut b, Phase::Morale);
    b.end_turn().unwrap();
    start(&mut b);
    b.move_officer(oid(2), 5.0).unwrap();
    assert!(b.officer(oid(2)).unwrap().attached.is_none());
}
