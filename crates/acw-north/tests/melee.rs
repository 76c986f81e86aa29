//! Charges and melee (NORTH-MEL-*, NORTH-OPT-05, NORTH-OPT-22, NORTH-OPT-24, NORTH-OPT-37).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::Side;
use acw_core::measure::Inches;
use acw_north::combat::{AttackGroup, Category, Sight};
use acw_north::error::{AttackRefusal, ChargeRefusal};
use acw_north::melee::ChargeOrder;
use acw_north::morale::{Choice, ChoicePolicy, MoraleResponse};
use acw_north::movement::{MoveDirection, MoveOrder, MoveStop, charge_reach};
use acw_north::options::{ChargeReach, DismountedMove, FailedChargeUnderOrders, FirstRoundScope};
use acw_north::sequence::Step;
use acw_north::setup::UnitSpec;
use acw_north::state::{AfterFailure, MeleeRole};
use acw_north::tables::{BrigadeOrder, Formation, MoraleBand, Quality, Troop};
use acw_north::victory::StandardEnd;
use acw_north::{Battle, Options, RuleViolation, UnitId};
use common::*;

fn inf() -> UnitSpec {
    UnitSpec::infantry("x", Quality::Standard)
}
fn charge(d: f64) -> ChargeOrder {
    ChargeOrder {
        distance: Inches(d),
        ..ChargeOrder::default()
    }
}
fn melee(target: UnitId, attackers: Vec<UnitId>) -> AttackGroup {
    AttackGroup {
        category: Category::Melee,
        target,
        attackers,
    }
}
fn contact(n: usize) -> Vec<Sight> {
    vec![Sight::contact(); n]
}
/// Keeps the defender from falling back, so the melee goes on.
fn stand_fast() -> MoraleResponse {
    MoraleResponse {
        choice: ChoicePolicy::Always(Choice::LoseStand),
        ..MoraleResponse::default()
    }
}

fn at_units(c1: UnitSpec, c2: UnitSpec, o: Options) -> (Battle, UnitId, UnitId, UnitId, UnitId) {
    let mut b = duel(inf(), inf(), c1, c2, o);
    skip_to(&mut b, Step::Units).unwrap();
    let ids = (id(&b, "C1"), id(&b, "C2"), id(&b, "U1"), id(&b, "U2"));
    (b, ids.0, ids.1, ids.2, ids.3)
}

#[test]
fn north_mel_01_who_may_charge() {
    // NORTH-MEL-01: deployed in line, not skirmishers, not in contact, Advance or Hold; never artillery.
    let (mut b, c1, c2, u1, _) = at_units(
        inf().in_formation(Formation::Column),
        inf(),
        Options::default(),
    );
    assert_eq!(
        b.attempt_charge(c1, u1, charge(2.0), &mut dice([1])),
        Err(RuleViolation::CannotCharge {
            unit: c1,
            reason: ChargeRefusal::NotInLine
        })
    );
    b.attempt_charge(c2, u1, charge(2.0), &mut dice([1]))
        .unwrap();
    goto(&mut b, Side::Union, Step::Units);
    // In contact: no new charge.
    assert_eq!(
        b.attempt_charge(u1, c1, charge(2.0), &mut dice([1])),
        Err(RuleViolation::CannotCharge {
            unit: u1,
            reason: ChargeRefusal::AlreadyInContact
        })
    );
    // Dismounted cavalry in line may charge.
    let (mut b, c1, _, u1, _) = at_units(
        UnitSpec::cavalry("x", Quality::Standard).dismounted(),
        inf(),
        Options::default(),
    );
    assert!(
        b.attempt_charge(c1, u1, charge(8.0), &mut dice([1]))
            .unwrap()
            .contact
    );
    assert_eq!(
        b.attempt_charge(c1, u1, charge(1.0), &mut dice([1])),
        Err(RuleViolation::AlreadyActed(c1))
    );
}

#[test]
fn north_mel_02_charge_toss_plus_one_against_cover() {
    // NORTH-MEL-02: standard infantry 4/6, 3/6 against cover (a 4 then fails).
    let (mut b, c1, c2, u1, u2) = at_units(inf(), inf(), Options::default());
    let covered = ChargeOrder {
        target_in_cover: true,
        ..charge(3.0)
    };
    let r = b.attempt_charge(c1, u1, covered, &mut dice([4])).unwrap();
    assert!(!r.toss_passed && !r.contact);
    let r = b
        .attempt_charge(c2, u2, charge(3.0), &mut dice([4]))
        .unwrap();
    assert!(r.toss_passed && r.contact);
    let c = b.unit(c2).unwrap();
    assert_eq!(
        (c.contacts(), c.melee().role, c.phase().charged),
        (&[u2][..], Some(MeleeRole::Charger), true)
    );
    assert_eq!(b.unit(u2).unwrap().melee().role, Some(MeleeRole::Defender));
}

#[test]
fn north_mel_03_charge_reach_and_north_opt_24() {
    // NORTH-MEL-03: the deployed allowance: 5" infantry, 10" mounted, dismounted 10" (5" under Table5).
    let o = Options::default();
    assert_eq!(charge_reach(Troop::Infantry, &o), Some(Inches(5.0)));
    assert_eq!(charge_reach(Troop::MountedCavalry, &o), Some(Inches(10.0)));
    assert_eq!(
        charge_reach(Troop::DismountedCavalry, &o),
        Some(Inches(10.0))
    );
    let mut t5 = Options::default();
    t5.dismounted_move = DismountedMove::Table5;
    assert_eq!(
        charge_reach(Troop::DismountedCavalry, &t5),
        Some(Inches(5.0))
    );
    let (mut b, c1, _, u1, _) = at_units(inf(), inf(), Options::default());
    assert_eq!(
        b.attempt_charge(c1, u1, charge(5.5), &mut dice([1])),
        Err(RuleViolation::CannotCharge {
            unit: c1,
            reason: ChargeRefusal::OutOfReach
        })
    );
    assert!(
        b.attempt_charge(c1, u1, charge(5.0), &mut dice([1]))
            .unwrap()
            .contact
    );
    let mut fixed = Options::default();
    fixed.charge_reach = ChargeReach::FixedInches(Inches(8.0));
    assert_eq!(charge_reach(Troop::Infantry, &fixed), Some(Inches(8.0)));
    let (mut b, c1, _, u1, _) = at_units(inf(), inf(), fixed);
    assert!(
        b.attempt_charge(c1, u1, charge(7.5), &mut dice([1]))
            .unwrap()
            .contact
    );
    // An obstacle on the path: the obstacle toss follows a passed charge toss; failing it, no movement.
    let (mut b, c1, c2, u1, _) = at_units(inf(), inf(), Options::default());
    let r = b
        .attempt_charge(
            c1,
            u1,
            ChargeOrder {
                obstacles: 1,
                ..charge(3.0)
            },
            &mut dice([2, 5]),
        )
        .unwrap();
    assert!(r.toss_passed && !r.contact);
    let r = b
        .attempt_charge(
            c2,
            u1,
            ChargeOrder {
                obstacles: 1,
                ..charge(3.0)
            },
            &mut dice([2, 4]),
        )
        .unwrap();
    assert!(r.contact);
}

#[test]
fn north_mel_04_joining_an_existing_melee() {
    // NORTH-MEL-04: a second charger needs its own toss and adds +1 to the group.
    let (mut b, c1, c2, u1, _) = at_units(inf(), inf(), Options::default());
    b.attempt_charge(c1, u1, charge(3.0), &mut dice([1]))
        .unwrap();
    assert!(
        !b.attempt_charge(c2, u1, charge(3.0), &mut dice([6]))
            .unwrap()
            .contact
    );
    // Next turn: a fresh charge joins the melee going on.
    goto(&mut b, Side::Union, Step::Melee);
    goto(&mut b, Side::Confederate, Step::Units);
    let r = b
        .attempt_charge(c2, u1, charge(3.0), &mut dice([2]))
        .unwrap();
    assert!(r.contact && r.joined_existing);
    skip_to(&mut b, Step::Melee).unwrap();
    let s = b
        .combat_situation(&melee(u1, vec![c1, c2]), &contact(2), false)
        .unwrap();
    let m = s.modifiers(b.options());
    assert_eq!((m.extra_attackers, m.first_round), (1, 0));
}

#[test]
fn north_mel_05_failed_charges_and_north_opt_37() {
    // NORTH-MEL-05: Hold stays; Advance moves but stops short of contact (or stands, NORTH-OPT-37).
    let mut b = custom(
        vec![brigade(
            "U",
            BrigadeOrder::Advance,
            vec![
                UnitSpec {
                    name: "U1".into(),
                    ..inf()
                },
                UnitSpec {
                    name: "U2".into(),
                    ..inf()
                },
            ],
        )],
        vec![
            brigade(
                "C",
                BrigadeOrder::Hold,
                vec![
                    UnitSpec {
                        name: "C1".into(),
                        ..inf()
                    },
                    UnitSpec {
                        name: "C2".into(),
                        ..inf()
                    },
                ],
            ),
            brigade(
                "D",
                BrigadeOrder::Advance,
                vec![
                    UnitSpec {
                        name: "C3".into(),
                        ..inf()
                    },
                    UnitSpec {
                        name: "C4".into(),
                        ..inf()
                    },
                ],
            ),
        ],
        Options::default(),
    );
    skip_to(&mut b, Step::Units).unwrap();
    let (c1, c3, u1) = (id(&b, "C1"), id(&b, "C3"), id(&b, "U1"));
    let r = b
        .attempt_charge(c1, u1, charge(3.0), &mut dice([5]))
        .unwrap();
    assert_eq!(r.after_failure, Some(AfterFailure::Stay));
    let forward = MoveOrder {
        distance: Inches(2.5),
        direction: Some(MoveDirection::TowardEnemy),
        ..MoveOrder::default()
    };
    assert_eq!(
        b.move_unit(c1, &forward, &mut dice([])),
        Err(RuleViolation::AlreadyActed(c1))
    );
    let r = b
        .attempt_charge(c3, u1, charge(3.0), &mut dice([5]))
        .unwrap();
    assert_eq!(
        r.after_failure,
        Some(AfterFailure::OrderedMoveShortOfContact)
    );
    let short = MoveOrder {
        distance: Inches(2.5),
        direction: Some(MoveDirection::TowardEnemy),
        stopped_by: Some(MoveStop::ContactGap),
        would_contact: true,
        ..MoveOrder::default()
    };
    assert_eq!(
        b.move_unit(
            c3,
            &MoveOrder {
                stopped_by: None,
                ..short.clone()
            },
            &mut dice([])
        ),
        Err(RuleViolation::MayNotContact(c3))
    );
    assert_eq!(
        b.move_unit(c3, &short, &mut dice([])).unwrap().moved,
        Inches(2.5)
    );
    assert!(b.unit(c3).unwrap().contacts().is_empty());
    let mut o = Options::default();
    o.failed_charge_under_orders = FailedChargeUnderOrders::Stand;
    let (mut b, c1, _, u1, _) = at_units(inf(), inf(), o);
    let r = b
        .attempt_charge(c1, u1, charge(3.0), &mut dice([6]))
        .unwrap();
    assert_eq!(r.after_failure, Some(AfterFailure::Stay));
}

#[test]
fn north_mel_06_resolving_melee() {
    // NORTH-MEL-06: units in contact attack one unit they touch, one toss per target.
    let (mut b, c1, c2, u1, u2) = at_units(inf(), inf(), Options::default());
    b.attempt_charge(c1, u1, charge(3.0), &mut dice([1]))
        .unwrap();
    b.attempt_charge(c2, u1, charge(3.0), &mut dice([1]))
        .unwrap();
    skip_to(&mut b, Step::Melee).unwrap();
    assert!(matches!(
        b.attack(
            &melee(u2, vec![c1]),
            &contact(1),
            false,
            &stand_fast(),
            &mut dice([6, 1])
        ),
        Err(RuleViolation::CannotAttack {
            reason: AttackRefusal::NotInContactWithTarget,
            ..
        })
    ));
    // Two chargers opening the melee this phase: +1 first round, +1 second unit: a 3 hits.
    let r = b
        .attack(
            &melee(u1, vec![c1, c2]),
            &contact(2),
            false,
            &stand_fast(),
            &mut dice([3, 1]),
        )
        .unwrap();
    assert_eq!((r.modifiers.net(), r.hit), (2, true));
    assert_eq!((r.modifiers.mounted_target, r.modifiers.long_range), (0, 0));
}

#[test]
fn north_mel_07_first_round_only_when_the_charge_opens_the_melee_and_north_opt_05() {
    // NORTH-MEL-07 / NORTH-OPT-05
    let scenario = |scope: FirstRoundScope| {
        let mut o = Options::default();
        o.first_round_scope = scope;
        let (mut b, c1, c2, u1, u2) = at_units(inf(), inf(), o);
        b.attempt_charge(c1, u1, charge(3.0), &mut dice([1]))
            .unwrap();
        skip_to(&mut b, Step::Melee).unwrap();
        let opening = b.first_round(&[c1], u1).unwrap();
        b.attack(
            &melee(u1, vec![c1]),
            &contact(1),
            false,
            &stand_fast(),
            &mut dice([1]),
        )
        .unwrap();
        // The defender strikes back in its own phase.
        goto(&mut b, Side::Union, Step::Melee);
        let defender_first = b.first_round(&[u1], c1).unwrap();
        b.attack(
            &melee(c1, vec![u1]),
            &contact(1),
            false,
            &stand_fast(),
            &mut dice([1]),
        )
        .unwrap();
        // Next Confederate phase: C2 charges into the same melee; C1 keeps fighting.
        goto(&mut b, Side::Confederate, Step::Units);
        b.attempt_charge(c2, u1, charge(3.0), &mut dice([1]))
            .unwrap();
        skip_to(&mut b, Step::Melee).unwrap();
        let joined = b.first_round(&[c1, c2], u1).unwrap();
        let old = b.first_round(&[c1], u1).unwrap();
        let _ = u2;
        (opening, defender_first, joined, old)
    };
    assert_eq!(
        scenario(FirstRoundScope::ChargerFirstTossOnly),
        (true, false, false, false)
    );
    assert_eq!(
        scenario(FirstRoundScope::BothSidesFirstToss),
        (true, true, false, false)
    );
    assert_eq!(
        scenario(FirstRoundScope::AnyGroupWithFreshCharger),
        (true, false, true, false)
    );
}

#[test]
fn north_mel_08_melee_lasts_across_phases() {
    // NORTH-MEL-08: contact persists; it ends with a fall-back.
    let (mut b, c1, _, u1, _) = at_units(inf(), inf(), Options::default());
    b.attempt_charge(c1, u1, charge(3.0), &mut dice([1]))
        .unwrap();
    skip_to(&mut b, Step::Melee).unwrap();
    b.end_phase(&StandardEnd).unwrap();
    skip_to(&mut b, Step::Melee).unwrap();
    assert_eq!(b.unit(u1).unwrap().contacts(), &[c1]);
    // Union strikes back: hit on 5 (no first round), morale 5: stand lost and fall back: contact ends.
    let r = b
        .attack(
            &melee(c1, vec![u1]),
            &contact(1),
            false,
            &MoraleResponse::default(),
            &mut dice([5, 5]),
        )
        .unwrap();
    assert!(r.hit);
    assert!(b.unit(c1).unwrap().contacts().is_empty() && b.unit(u1).unwrap().contacts().is_empty());
    assert_eq!(b.unit(c1).unwrap().formation(), Formation::Column);
}

#[test]
fn north_mel_09_skirmishers_always_lose_melees_and_north_opt_22() {
    // NORTH-MEL-09: no toss, a certain hit; morale +2; skirmishers do not attack in melee.
    let sk = || inf().in_formation(Formation::Skirmish);
    let mut b = duel(sk(), inf(), inf(), inf(), Options::default());
    let (c1, u1) = (id(&b, "C1"), id(&b, "U1"));
    skip_to(&mut b, Step::Units).unwrap();
    // No cover bonus to the charge toss against skirmishers: a 4 passes.
    assert!(
        b.attempt_charge(c1, u1, charge(3.0), &mut dice([4]))
            .unwrap()
            .contact
    );
    skip_to(&mut b, Step::Melee).unwrap();
    // The only die is the morale die: 1 + 2 = 3, a choice.
    let r = b
        .attack(
            &melee(u1, vec![c1]),
            &contact(1),
            false,
            &stand_fast(),
            &mut dice([1]),
        )
        .unwrap();
    assert!(r.hit && r.face.is_none() && r.hit_sixths == 6);
    let m = r.morale.unwrap();
    assert_eq!((m.modifier, m.outcome.band), (2, MoraleBand::Choice));
    goto(&mut b, Side::Union, Step::Melee);
    assert!(matches!(
        b.attack(
            &melee(c1, vec![u1]),
            &contact(1),
            false,
            &MoraleResponse::default(),
            &mut dice([6, 6])
        ),
        Err(RuleViolation::CannotAttack {
            reason: AttackRefusal::SkirmishersDoNotMelee,
            ..
        })
    ));
    let mut o = Options::default();
    o.skirmishers_may_melee = true;
    let mut b = duel(sk(), inf(), inf(), inf(), o);
    let (c1, u1) = (id(&b, "C1"), id(&b, "U1"));
    skip_to(&mut b, Step::Units).unwrap();
    b.attempt_charge(c1, u1, charge(3.0), &mut dice([1]))
        .unwrap();
    goto(&mut b, Side::Union, Step::Melee);
    assert!(
        b.attack(
            &melee(c1, vec![u1]),
            &contact(1),
            false,
            &MoraleResponse::default(),
            &mut dice([1])
        )
        .is_ok()
    );
}

#[test]
fn north_mel_10_morale_after_melee() {
    // NORTH-MEL-10: artillery +1; cover does not count after a melee hit.
    let mut b = duel(
        UnitSpec::artillery("x", Quality::Standard),
        inf(),
        inf(),
        inf(),
        Options::default(),
    );
    let (c1, u1) = (id(&b, "C1"), id(&b, "U1"));
    skip_to(&mut b, Step::Units).unwrap();
    b.attempt_charge(
        c1,
        u1,
        ChargeOrder {
            target_in_cover: true,
            ..charge(3.0)
        },
        &mut dice([1]),
    )
    .unwrap();
    skip_to(&mut b, Step::Melee).unwrap();
    // Cover -1, first round +1: a 5 hits. Morale 2 + 1 = 3: a choice.
    let r = b
        .attack(
            &melee(u1, vec![c1]),
            &contact(1),
            true,
            &stand_fast(),
            &mut dice([5, 2]),
        )
        .unwrap();
    assert_eq!(r.modifiers.cover, -1);
    let m = r.morale.unwrap();
    assert_eq!((m.modifier, m.outcome.band), (1, MoraleBand::Choice));
}
