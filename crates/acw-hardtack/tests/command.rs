//! Command: transfers, Activate Regiment, regimental formations and their shape, the regimental combat move,
//! a colonel's successor, communication rolls.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use acw_core::dice::ScriptedDice;
use acw_core::{Resolve, Side};
use acw_hardtack::DieType::{D4, D6, D8};
use acw_hardtack::command::{
    Branch, CommunicationRoll, FormationBar, Member, RegimentalCombatMove, Successor,
    formation_is_line, regimental_formation,
};
use acw_hardtack::movement::{CombatMove, MoveResult};
use acw_hardtack::state::{Ammunition, CompanySpec, Formation};
use acw_hardtack::tables::{ConfidenceLevel, FieldPiece, Leadership, Quality};
use acw_hardtack::{Battle, Options, RuleViolation};

fn company(b: &mut Battle, name: &str, formation: Formation) -> acw_hardtack::CompanyId {
    let mut s = CompanySpec::new(name, Side::Union, 8);
    s.formation = formation;
    b.add_company(s).unwrap()
}

// A regimental commander within 6" of a gun crew spends one action; the crew, already activated, takes a full activation and loads its gun; beyond 6"
// refused; at most two transfers a turn.
#[test]
fn transfer_to_a_gun_crew() {
    let mut b = Battle::new(Options::default());
    let colonel = company(&mut b, "colonel's staff", Formation::Skirmish);
    let crew = company(&mut b, "gun crew", Formation::Skirmish);
    let gun = b
        .add_gun("Napoleon", FieldPiece::Napoleon12lb, false, crew)
        .unwrap();
    let other = company(&mut b, "Company K", Formation::Skirmish);
    // HT-SEQ-10, HT-SET-06: the gun crew activates as a company.
    b.activate(crew).unwrap();
    b.end_activation().unwrap();
    b.activate(colonel).unwrap();
    // HT-CMD-01: no communication roll, but a transfer only within 6".
    assert!(matches!(
        b.transfer(colonel, crew, 6.5),
        Err(RuleViolation::Refused { .. })
    ));
    // HT-ACC-28, HT-SET-06, HT-SG2-05, HT-INT-17: the colonel transfers to the crew as to one of his
    // companies; already activated, it takes a full activation of two actions and loads its gun, for one
    // of the colonel's actions.
    b.transfer(colonel, crew, 5.0).unwrap();
    assert_eq!(b.company(crew).unwrap().actions_left(), 2);
    b.load(gun, Ammunition::Canister).unwrap();
    assert_eq!(b.company(colonel).unwrap().actions_left(), 1);
    b.transfer(colonel, other, 3.0).unwrap();
    b.end_turn().unwrap();
    b.activate(colonel).unwrap();
    b.transfer(colonel, other, 3.0).unwrap();
    b.transfer(colonel, crew, 3.0).unwrap();
    // HT-SG2-05, HT-CMD-01: at most two transfers a turn.
    let third = b.transfer(colonel, crew, 3.0).unwrap_err();
    assert!(third.to_string().contains("at most two"), "{third}");
}

// HT-SEQ-03, HT-SEQ-04, HT-FRM-07, HT-ACC-18, HT-SEQ-01: Activate Regiment spends both of the colonel's actions
// and gives every company in the formation its two; a skirmisher, a far company or an activated one is
// refused; next turn the front row alone may be activated, leaving the rest to a later activation.
#[test]
fn activate_regiment() {
    let mut b = Battle::new(Options::default());
    let colonel = company(&mut b, "colonel", Formation::Skirmish);
    let ids: Vec<_> = (0..4)
        .map(|i| company(&mut b, &format!("company {i}"), Formation::Line))
        .collect();
    let skirm = company(&mut b, "skirmishers", Formation::Skirmish);
    b.activate(colonel).unwrap();
    let all: Vec<_> = ids.iter().map(|&i| (i, 4.0)).collect();
    let mut with_skirm = all.clone();
    with_skirm.push((skirm, 3.0));
    assert!(matches!(
        b.activate_regiment(colonel, &with_skirm),
        Err(RuleViolation::Refused { .. })
    ));
    let mut far = all.clone();
    far[0].1 = 7.0;
    assert!(b.activate_regiment(colonel, &far).is_err());
    b.activate_regiment(colonel, &all).unwrap();
    assert_eq!(b.company(colonel).unwrap().actions_left(), 0);
    for &i in &ids {
        assert_eq!(b.company(i).unwrap().actions_left(), 2);
    }
    b.end_turn().unwrap();
    b.activate(colonel).unwrap();
    b.activate_regiment(colonel, &all[..2]).unwrap();
    assert!(!b.company(ids[3]).unwrap().activated());
}

// HT-FRM-07: the formation's conditions.
#[test]
fn formation_conditions() {
    let m = |close, cl, distance, branch| Member {
        close,
        cl,
        distance,
        branch,
    };
    let ok = m(true, ConfidenceLevel::Steady, 5.0, Branch::Infantry);
    assert_eq!(regimental_formation(&[ok]), Err(FormationBar::TooFew));
    assert_eq!(
        regimental_formation(&[
            ok,
            m(true, ConfidenceLevel::Shaken, 6.0, Branch::Dismounted)
        ]),
        Ok(())
    );
    assert_eq!(
        regimental_formation(&[ok, m(true, ConfidenceLevel::Broken, 2.0, Branch::Infantry)]),
        Err(FormationBar::Broken)
    );
    assert_eq!(
        regimental_formation(&[ok, m(true, ConfidenceLevel::Steady, 2.0, Branch::Mounted)]),
        Err(FormationBar::Mixed)
    );
    assert_eq!(
        regimental_formation(&[ok, m(false, ConfidenceLevel::Steady, 2.0, Branch::Infantry)]),
        Err(FormationBar::NotClose)
    );
}

// HT-ACC-19, HT-FRM-08: 4 rows of 10 is a line; 5 rows of 10 a column; a one-row company inside a 10-row
// column moves as a column.
#[test]
fn formation_shape() {
    assert!(formation_is_line(4, 10));
    assert!(!formation_is_line(5, 10));
    assert!(!formation_is_line(10, 10));
}

// HT-ACC-17, HT-MOV-11, HT-CMD-03: each company rolls its own die and doubles it; the colonel may take any
// of the distances. The printed example's 2", 4", 6" are rolls of 1, 2, 3 doubled (its "1, 3, 5" would
// move 2", 6", 10"; the docs page records the reading).
#[test]
fn regimental_combat_move() {
    let m = RegimentalCombatMove {
        companies: 3,
        die: D6,
    };
    let d = m.roll(&mut ScriptedDice::faces([1, 2, 3]));
    assert_eq!(&d[..3], &[2, 4, 6]);
    let d = m.roll(&mut ScriptedDice::faces([1, 3, 5]));
    assert_eq!(&d[..3], &[2, 6, 10]);
    assert!(
        (m.odds().p(&{
            let mut x = [0u8; 16];
            x[..3].copy_from_slice(&[2, 4, 6]);
            x
        }) - 1.0 / 216.0)
            .abs()
            < 1e-12
    );
}

// HT-ACC-35, HT-SG2-21: a D6 combat move to 15": rolls 4 then 6 reach (8" + 12"); 4 then 1 leaves it 5"
// short.
#[test]
fn combat_move_example() {
    let first = CombatMove::new(D6, 15.0).unwrap();
    assert_eq!(
        first.roll(&mut ScriptedDice::faces([4])),
        MoveResult::Short(8)
    );
    let second = CombatMove::new(D6, 7.0).unwrap();
    assert_eq!(
        second.roll(&mut ScriptedDice::faces([6])),
        MoveResult::Reached
    );
    assert_eq!(
        second.roll(&mut ScriptedDice::faces([1])),
        MoveResult::Short(2)
    );
    assert!(CombatMove::new(D4, f64::INFINITY).is_err());
}

// HT-ACC-43, HT-CMD-05: A (Veteran, Shaken), B (Regular, Confident), C (Veteran, Steady): A or C, 1/2 each;
// all Broken or Routed: any.
#[test]
fn colonels_successor() {
    let c = [
        (Quality::Veteran, ConfidenceLevel::Shaken),
        (Quality::Regular, ConfidenceLevel::Confident),
        (Quality::Veteran, ConfidenceLevel::Steady),
    ];
    let s = Successor { companies: &c };
    let o = s.odds();
    assert!((o.p(&0) - 0.5).abs() < 1e-12);
    assert!((o.p(&2) - 0.5).abs() < 1e-12);
    assert_eq!(o.p(&1), 0.0);
    let broken = [
        (Quality::Green, ConfidenceLevel::Broken),
        (Quality::Veteran, ConfidenceLevel::Routed),
    ];
    assert!((Successor { companies: &broken }.odds().p(&1) - 1.0).abs() < 1e-12);
}

// HT-ACC-41, HT-SG2-50, HT-OPT-25, HT-INT-08: Regular LV1 to Green LV2: a D8 needing 3+; Green LV3 to Veteran
// LV2: a D6 needing 4+; a level skipped drops the die.
#[test]
fn communication_roll() {
    let a = CommunicationRoll {
        quality: D8,
        sender: Leadership::ONE,
        receiver: Leadership::TWO,
        skipped: 0,
    };
    assert_eq!((a.die(), a.number()), (D8, 2));
    assert!((a.odds().p(&true) - 6.0 / 8.0).abs() < 1e-12);
    let b = CommunicationRoll {
        quality: D6,
        sender: Leadership::THREE,
        receiver: Leadership::TWO,
        skipped: 0,
    };
    assert!((b.odds().p(&true) - 3.0 / 6.0).abs() < 1e-12);
    let c = CommunicationRoll { skipped: 1, ..a };
    assert_eq!(c.die(), D6);
}

// HT-MOV-10, HT-FRM-08, HT-SEQ-05: two columns activated as a regiment whose shape (2 rows of 16) is a line
// move at the line's 4", not a column's 6"; one disordered on the way moves as a skirmisher; both remain in the
// formation for the activation, so both test when the colonel falls.
#[test]
fn regimental_shape_and_membership() {
    let mut b = Battle::new(Options::default());
    let colonel = company(&mut b, "colonel", Formation::Skirmish);
    let c1 = company(&mut b, "first", Formation::Column);
    let c2 = company(&mut b, "second", Formation::Column);
    b.activate(colonel).unwrap();
    assert!(b.regiment_shape(2, 16).is_err());
    b.activate_regiment(colonel, &[(c1, 3.0), (c2, 3.0)])
        .unwrap();
    assert_eq!(b.regiment_members(), &[c1, c2]);
    assert_eq!(b.regiment_shape(2, 16).unwrap(), Formation::Line);
    let mv = |d| acw_hardtack::state::MoveOrder {
        distance: d,
        ..Default::default()
    };
    assert!(
        b.move_company(c1, mv(5.0), &mut ScriptedDice::faces([]))
            .is_err()
    );
    assert!(
        b.move_company(c1, mv(4.0), &mut ScriptedDice::faces([]))
            .unwrap()
    );
    let stream = acw_hardtack::state::MoveOrder {
        disordering_terrain: true,
        ..mv(2.0)
    };
    b.move_company(c2, stream, &mut ScriptedDice::faces([]))
        .unwrap();
    assert!(
        b.move_company(c2, mv(6.0), &mut ScriptedDice::faces([]))
            .unwrap()
    );
    // The colonel falls: the first company named, and the second as a member, both test (8, 8); the successor
    // comes from the first (no roll), its new leader's LV from a D6 (3).
    let chosen = b
        .colonel_falls(colonel, &[c1], &mut ScriptedDice::faces([8, 8, 3]))
        .unwrap();
    assert_eq!(chosen, c1);
}

// HT-INT-17, HT-CMD-01, HT-SG2-05, HT-SEQ-06: what a transfer gives, under each setting of `transfer_grants`.
// A brigadier gives one action to his colonel, whose regiment's first two companies have already activated
// with him. By default (`FullActivation`) the colonel takes a fresh activation of two actions and spends both
// on Activate Regiment for the other two companies, each then taking its own two. Under `SingleAction` he
// has the one action given: Activate Regiment (two actions) is refused and changes nothing, and the one
// action goes on a move; a second move is then refused for want of an action.
#[test]
fn what_a_transfer_grants_under_each_setting() {
    use acw_hardtack::options::TransferGrants;
    use acw_hardtack::state::MoveOrder;
    for grants in [TransferGrants::FullActivation, TransferGrants::SingleAction] {
        let mut o = Options::default();
        o.transfer_grants = grants;
        let mut b = Battle::new(o);
        let col = company(&mut b, "colonel", Formation::Skirmish);
        let brig = company(&mut b, "brigadier", Formation::Skirmish);
        let ids: Vec<_> = (0..4)
            .map(|i| company(&mut b, &format!("company {i}"), Formation::Line))
            .collect();
        b.activate(col).unwrap();
        b.activate_regiment(col, &[(ids[0], 3.0), (ids[1], 3.0)])
            .unwrap();
        b.end_activation().unwrap();
        b.activate(brig).unwrap();
        b.transfer(brig, col, 4.0).unwrap();
        assert_eq!(b.company(brig).unwrap().actions_left(), 1);
        let second = [(ids[2], 3.0), (ids[3], 3.0)];
        match grants {
            TransferGrants::FullActivation => {
                assert_eq!(b.company(col).unwrap().actions_left(), 2);
                b.activate_regiment(col, &second).unwrap();
                assert_eq!(b.company(col).unwrap().actions_left(), 0);
                for &id in &ids[2..] {
                    assert!(b.company(id).unwrap().activated());
                    assert_eq!(b.company(id).unwrap().actions_left(), 2);
                }
            }
            TransferGrants::SingleAction => {
                assert_eq!(b.company(col).unwrap().actions_left(), 1);
                let before = b.clone();
                let refused = b.activate_regiment(col, &second).unwrap_err();
                assert!(
                    matches!(refused, RuleViolation::NoActionLeft { .. }),
                    "{refused}"
                );
                assert_eq!(b, before);
                for &id in &ids[2..] {
                    assert!(!b.company(id).unwrap().activated());
                }
                let step = MoveOrder {
                    distance: 2.0,
                    ..MoveOrder::default()
                };
                b.move_company(col, step, &mut ScriptedDice::faces([]))
                    .unwrap();
                assert_eq!(b.company(col).unwrap().actions_left(), 0);
                let before = b.clone();
                assert!(matches!(
                    b.move_company(col, step, &mut ScriptedDice::faces([])),
                    Err(RuleViolation::NoActionLeft { .. })
                ));
                assert_eq!(b, before);
            }
        }
    }
}
