//! Charges and close combat.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::{Resolve, Side};
use acw_tsatf::battle::{
    ChargeOrder, ChargeReport, CloseReport, FireOrder, MeleeOrder, StandReport,
};
use acw_tsatf::fire::TargetArea;
use acw_tsatf::melee::{Defending, Melee, MeleeFacts, MeleeSide, Party, side_modifier};
use acw_tsatf::options::{AssaultColumn, CaughtFleeing, ColourRecovery};
use acw_tsatf::setup::UnitSpec;
use acw_tsatf::state::{Formation, MoraleState, Phase, Status, UnitKind};
use acw_tsatf::tables::{FireRow, MeleeColumn, MeleeRow, Quality};
use acw_tsatf::{Battle, Options, RuleViolation, UnitId};
use common::*;

const ATT: UnitId = UnitId(0);
const DEF: UnitId = UnitId(2);

/// Union: "Attackers" (Veteran, a lieutenant and `a` privates) and a reserve; Confederates: "Defenders"
/// (Average, a lieutenant and `d` privates) and a reserve.
fn tiny(a: u16, d: u16, o: Options) -> Battle {
    let units = vec![
        UnitSpec::infantry("Attackers", Side::Union, Quality::Veteran)
            .unwrap()
            .with_ranks(0, a)
            .unwrap(),
        UnitSpec::infantry("Union reserve", Side::Union, Quality::Average).unwrap(),
        UnitSpec::infantry("Defenders", Side::Confederate, Quality::Average)
            .unwrap()
            .with_ranks(0, d)
            .unwrap()
            .with_colours(),
        UnitSpec::infantry("Confederate reserve", Side::Confederate, Quality::Average).unwrap(),
    ];
    battle_of(units, o)
}

fn at(target: UnitId, distance: f64) -> ChargeOrder {
    ChargeOrder {
        target,
        distance,
        rough_features: 0,
        flank_or_rear: false,
        protected: false,
    }
}

/// Attackers charge Defenders 4" away: 1 straggler, 4D6 of 3s (12"), 9" unused.
fn charged(b: &mut Battle) -> acw_tsatf::battle::ChargeId {
    turn(b, Side::Union);
    match b
        .charge(ATT, &at(DEF, 4.0), &mut faces(&[1, 3, 3, 3, 3]))
        .unwrap()
    {
        ChargeReport::Contact {
            charge,
            unused,
            stragglers,
            ..
        } => {
            assert_eq!((unused, stragglers), (9.0, 1));
            to_phase(b, Phase::CloseCombat);
            charge
        }
        r => panic!("{r}"),
    }
}

#[test]
fn who_may_charge() {
    // TSATF-MEL-01
    let mut b = small_battle(Options::default());
    rout_small(&mut b);
    turn(&mut b, Side::Union);
    b.compulsory_move(USA_B, false, &mut faces(&[1, 1, 1, 1]))
        .unwrap();
    turn(&mut b, Side::Union);
    let before = b.clone();
    // own side
    assert_eq!(
        b.charge(USA_A, &at(USA_B, 4.0), &mut faces(&[1, 3, 3, 3, 3]))
            .unwrap_err(),
        RuleViolation::NotEnemy("Co. B".into())
    );
    assert_eq!(b, before);
    // a gun cannot charge
    let mut g = battle();
    turn(&mut g, Side::Union);
    assert!(matches!(
        g.charge(USA_GUN, &at(CSA_C, 4.0), &mut faces(&[1, 3, 3, 3, 3])),
        Err(RuleViolation::NoRate { .. })
    ));
    // a routed unit cannot charge
    let mut c = small_battle(Options::default());
    rout_small(&mut c);
    to_phase(&mut c, Phase::Movement);
    let e = c
        .clone()
        .charge(USA_B, &at(UnitId(2), 4.0), &mut faces(&[1, 3, 3, 3, 3]))
        .unwrap_err();
    assert!(matches!(
        e,
        RuleViolation::CompulsoryFirst(_) | RuleViolation::MoraleForbids { .. }
    ));
}

#[test]
fn stragglers_and_the_half_strength_halt() {
    // TSATF-MEL-02, TSATF-MEL-06: four men, two straggle: two left of four is half, the charge halts
    let mut b = tiny(3, 3, Options::default());
    turn(&mut b, Side::Union);
    let r = b.charge(ATT, &at(DEF, 4.0), &mut faces(&[2])).unwrap();
    assert_eq!(r, ChargeReport::Halted { stragglers: 2 });
    let u = b.unit(ATT).unwrap();
    assert_eq!(u.morale(), MoraleState::Pinned);
    assert!(u.prone());
    // the officer never straggles
    assert!(!u.figures()[0].straggling());
    assert_eq!(u.figures().iter().filter(|f| f.straggling()).count(), 2);
    // stragglers rejoin at the end of close combat
    to_phase(&mut b, Phase::Morale);
    assert_eq!(
        b.unit(ATT)
            .unwrap()
            .figures()
            .iter()
            .filter(|f| f.straggling())
            .count(),
        0
    );
    // under the option they are lost
    let mut o = Options::default();
    o.stragglers_lost = true;
    let mut c = tiny(3, 3, o);
    turn(&mut c, Side::Union);
    c.charge(ATT, &at(DEF, 4.0), &mut faces(&[2])).unwrap();
    to_phase(&mut c, Phase::Morale);
    assert_eq!(c.unit(ATT).unwrap().strength(), 2);
}

#[test]
fn charge_dice_and_the_marked_extent() {
    // TSATF-MEL-03: the charge must reach within an inch; what is left over is marked
    let mut b = tiny(10, 3, Options::default());
    turn(&mut b, Side::Union);
    let r = b
        .charge(ATT, &at(DEF, 20.0), &mut faces(&[1, 2, 2, 2, 2]))
        .unwrap();
    assert_eq!(
        r,
        ChargeReport::Short {
            stragglers: 1,
            rolled: 8
        }
    );
    assert!(b.charges().is_empty());
    // rough ground drops the highest charge die: 6 3 3 3 keeps 9
    let mut c = tiny(10, 3, Options::default());
    turn(&mut c, Side::Union);
    let mut o = at(DEF, 6.0);
    o.rough_features = 1;
    let r = c.charge(ATT, &o, &mut faces(&[1, 6, 3, 3, 3])).unwrap();
    assert!(matches!(r, ChargeReport::Contact { rolled: 9, unused, .. } if unused == 4.0));
}

#[test]
fn in_contact_the_chargers_take_the_storm_of_fire() {
    // TSATF-MEL-04: the target may fire at the chargers, who may not fire back
    let mut b = tiny(10, 10, Options::default());
    let _ = charged_at(&mut b, 1.0);
    to_phase(&mut b, Phase::Firing);
    turn(&mut b, Side::Confederate);
    let fo = FireOrder {
        target: ATT,
        range: 1.0,
        in_reach: None,
        area: TargetArea {
            figures: 10,
            close_order: 10,
            ..Default::default()
        },
        canister: false,
        with: vec![],
        hit_order: vec![],
    };
    assert!(
        b.fire(
            DEF,
            &fo,
            &mut acw_core::dice::ScriptedDice::new([acw_core::dice::Scripted::Face(1)])
        )
        .is_ok()
    );
    turn(&mut b, Side::Union);
    let back = FireOrder { target: DEF, ..fo };
    assert!(matches!(
        b.fire(ATT, &back, &mut faces(&[1])),
        Err(RuleViolation::MayNotFire { .. })
    ));
}

fn charged_at(b: &mut Battle, distance: f64) -> ChargeReport {
    turn(b, Side::Union);
    b.charge(ATT, &at(DEF, distance), &mut faces(&[1, 1, 1, 1, 1]))
        .unwrap()
}

#[test]
fn attackers_who_fail_to_close_fall_back_pinned() {
    // TSATF-MEL-05, TSATF-MEL-08, TSATF-MEL-09: Veteran with leader closes on 1-5; a 6 fails
    let mut b = tiny(10, 3, Options::default());
    let c = charged(&mut b);
    assert_eq!(
        b.close_in(c, true, &mut faces(&[6])).unwrap(),
        CloseReport::FailedToClose
    );
    let u = b.unit(ATT).unwrap();
    assert_eq!(u.morale(), MoraleState::Pinned);
    assert!(u.prone());
    // the defenders take no test: the charge is over
    assert!(matches!(
        b.stand(c, &mut faces(&[1])),
        Err(RuleViolation::ChargeStep(_))
    ));
}

#[test]
fn fire_casualties_can_halt_a_charge_at_contact() {
    // TSATF-MEL-06: stragglers and casualties together leave half or fewer
    let mut b = tiny(5, 20, Options::default());
    // 6 figures, 1 straggler: 5 charging of 6
    turn(&mut b, Side::Union);
    let ChargeReport::Contact { charge: c, .. } = b
        .charge(ATT, &at(DEF, 4.0), &mut faces(&[1, 3, 3, 3, 3]))
        .unwrap()
    else {
        panic!()
    };
    to_phase(&mut b, Phase::Firing);
    turn(&mut b, Side::Confederate);
    // two privates killed: 3 of 6 still charging
    volley(
        &mut b,
        DEF,
        ATT,
        &[
            heart(acw_core::cards::Rank::Two),
            heart(acw_core::cards::Rank::Three),
        ],
    );
    to_phase(&mut b, Phase::CloseCombat);
    assert_eq!(
        b.close_in(c, true, &mut faces(&[])).unwrap(),
        CloseReport::Halted
    );
    assert_eq!(b.unit(ATT).unwrap().morale(), MoraleState::Pinned);
}

#[test]
fn defenders_who_fail_to_stand_flee_and_may_be_caught() {
    // TSATF-MEL-10, TSATF-MEL-11: Average with leader stands on 1-4; a 5 fails; 4D6 flight of 8 < 9 - 1... caught
    let mut b = tiny(10, 3, Options::default());
    let c = charged(&mut b);
    assert_eq!(
        b.close_in(c, true, &mut faces(&[2])).unwrap(),
        CloseReport::Closed
    );
    let r = b.stand(c, &mut faces(&[5, 2, 2, 2, 2])).unwrap();
    assert_eq!(
        r,
        StandReport::Caught {
            flight: 8,
            captured: false
        }
    );
    assert_eq!(b.unit(DEF).unwrap().morale(), MoraleState::Shaken);
    // a longer flight gets away: 9 unused is not 1" beyond 12
    let mut d = tiny(10, 3, Options::default());
    let c2 = charged(&mut d);
    d.close_in(c2, true, &mut faces(&[2])).unwrap();
    assert_eq!(
        d.stand(c2, &mut faces(&[5, 3, 3, 3, 3])).unwrap(),
        StandReport::Fled { flight: 12 }
    );
    assert_eq!(
        d.stand(c2, &mut faces(&[1])).unwrap_err(),
        RuleViolation::ChargeStep("the defenders' test is not next")
    );
    // a stand that passes leads to the melee
    let mut e = tiny(10, 3, Options::default());
    let c3 = charged(&mut e);
    e.close_in(c3, true, &mut faces(&[2])).unwrap();
    assert_eq!(e.stand(c3, &mut faces(&[4])).unwrap(), StandReport::Stood);
}

#[test]
fn caught_fugitives_fight_from_the_rear_or_are_taken() {
    // TSATF-MEL-12, TSATF-CAS-04
    let mut o = Options::default();
    o.caught_fleeing = CaughtFleeing::Captured;
    let mut b = tiny(10, 3, o);
    let c = charged(&mut b);
    b.close_in(c, true, &mut faces(&[2])).unwrap();
    assert_eq!(
        b.stand(c, &mut faces(&[5, 2, 2, 2, 2])).unwrap(),
        StandReport::Caught {
            flight: 8,
            captured: true
        }
    );
    assert_eq!(b.unit(DEF).unwrap().captured(), 4);
    // by default they are meleed in the rear and open order: -1 open, -1 flank for Average
    let mut d = tiny(10, 3, Options::default());
    let c2 = charged(&mut d);
    d.close_in(c2, true, &mut faces(&[2])).unwrap();
    d.stand(c2, &mut faces(&[5, 2, 2, 2, 2])).unwrap();
    // round 1: four pairs; the attackers win each (6 v 1): all four defenders fall
    // then the colours roll: a 4 takes them
    let r = d
        .melee(
            c2,
            &MeleeOrder::default(),
            &mut faces(&[6, 1, 6, 1, 6, 1, 6, 1, 4]),
        )
        .unwrap();
    assert_eq!(r.party, Party::Attackers);
    assert_eq!(d.unit(DEF).unwrap().killed(), 4);
    assert!(r.colours_taken);
}

#[test]
fn a_protected_position_takes_two_turns_and_the_wall_costs_a_die() {
    // TSATF-MEL-25, TSATF-MEL-13, TSATF-MEL-27
    let mut b = tiny(10, 3, Options::default());
    turn(&mut b, Side::Union);
    let mut o = at(DEF, 5.0);
    o.protected = true;
    // turn 1: a line's 3D6 brings it up within an inch; no stragglers, no contact
    assert_eq!(
        b.charge(ATT, &o, &mut faces(&[2, 2, 2])).unwrap(),
        ChargeReport::Approached {
            rolled: 6,
            in_position: true
        }
    );
    assert!(b.charges().is_empty());
    // it may fire in that turn
    to_phase(&mut b, Phase::Firing);
    turn(&mut b, Side::Union);
    let fo = FireOrder {
        target: DEF,
        range: 1.0,
        in_reach: None,
        area: TargetArea {
            figures: 4,
            substantial_cover: 4,
            ..Default::default()
        },
        canister: false,
        with: vec![],
        hit_order: vec![],
    };
    assert!(b.fire(ATT, &fo, &mut faces(&[1])).is_ok());
    // turn 2: the charge proper, 1" away
    to_phase(&mut b, Phase::Morale);
    finish_phase(&mut b);
    turn(&mut b, Side::Union);
    let mut o2 = o;
    o2.distance = 1.0;
    let r = b.charge(ATT, &o2, &mut faces(&[1, 6, 2, 2, 2])).unwrap();
    let ChargeReport::Contact { charge, unused, .. } = r else {
        panic!("{r}")
    };
    assert_eq!(unused, 12.0);
    to_phase(&mut b, Phase::CloseCombat);
    b.close_in(charge, true, &mut faces(&[1])).unwrap();
    // the defenders flee 4D6 = 11; crossing the wall costs the highest charge die (6): 6" left, not caught
    assert_eq!(
        b.stand(charge, &mut faces(&[5, 2, 3, 3, 3])).unwrap(),
        StandReport::Fled { flight: 11 }
    );
}

#[test]
fn the_melee_on_the_battle() {
    // TSATF-MEL-14, TSATF-MEL-15, TSATF-MEL-16, TSATF-MEL-17, TSATF-MEL-20, TSATF-MEL-22, TSATF-MEL-29
    let mut b = tiny(3, 1, Options::default());
    let c = charged(&mut b); // 3 fight (officer, 2 privates); 1 straggles
    b.close_in(c, true, &mut faces(&[1])).unwrap();
    b.stand(c, &mut faces(&[1])).unwrap();
    // pairs: officer v officer (both +1, equal), private v private; the reserve private waits
    // round 1: officers 2 v 2 tie; privates 5 v 6: ours loses on a 5, pushed back
    // round 2: officers 6 v 3: theirs wounded (a kill in a one-off game); our reserve steps in: 4 v 4 tie
    // round 3: 3 v 1: their last man killed
    let script = [2, 2, 5, 6, 6, 3, 4, 4, 3, 1, 6];
    let r = b
        .melee(
            c,
            &MeleeOrder {
                pursue: false,
                ..MeleeOrder::default()
            },
            &mut faces(&script),
        )
        .unwrap();
    assert_eq!(r.party, Party::Attackers);
    assert_eq!(r.tally.rounds, 3);
    assert_eq!(r.tally.attackers.pushed_back, [0, 1]);
    assert_eq!(r.tally.defenders.killed, [1, 1]);
    // the pushed-back private is not a casualty
    let a = b.unit(ATT).unwrap();
    assert_eq!(a.strength(), 4);
    // the losers are all gone, so no one flees; the colours are taken on a 6
    assert_eq!(r.flight, None);
    assert!(r.colours_taken);
    assert_eq!(b.unit(ATT).unwrap().colours_held(), &[DEF]);
    // the event keeps the melee as fought (an officer and two privates against an officer and a private, no
    // limit on pairs) and says how likely the win was, exactly as the melee's odds give it
    assert_eq!((r.melee.attackers.cadre, r.melee.attackers.others), (1, 2));
    assert_eq!((r.melee.defenders.cadre, r.melee.defenders.others), (1, 1));
    assert_eq!(r.melee.front, u16::MAX);
    let p = r.melee.odds().prob(|o| o.winner == Party::Attackers);
    assert!((r.chance() - p).abs() < 1e-12);
    assert_eq!(
        r.to_string(),
        format!(
            "Attackers beat Defenders after 3 rounds (3 against 2 figures; the attackers won with a chance of \
             {:.1}%); the colours were captured",
            100.0 * p
        )
    );
    assert!(r.to_string().contains("63.5%"));
}

#[test]
fn the_close_combat_modifiers() {
    // TSATF-MEL-18
    use MeleeColumn::*;
    let row = |r: MeleeRow| {
        [
            Charging,
            DefendingOpen,
            DefendingClose,
            AssaultColumn,
            DefendingCover,
            FlankOrRear,
        ]
        .map(|c| r.cell(c))
    };
    assert_eq!(
        row(MeleeRow::GreenInfantry),
        [Some(0), Some(-1), Some(1), Some(1), Some(2), Some(-2)]
    );
    assert_eq!(
        row(MeleeRow::AverageInfantry),
        [Some(0), Some(-1), Some(1), Some(2), Some(2), Some(-1)]
    );
    assert_eq!(
        row(MeleeRow::VeteranInfantry),
        [Some(1), Some(-1), Some(2), Some(2), Some(2), Some(-1)]
    );
    assert_eq!(
        row(MeleeRow::CrackInfantry),
        [Some(2), None, Some(2), Some(2), Some(2), None]
    );
    assert_eq!(
        row(MeleeRow::Indians),
        [Some(2), None, None, None, Some(1), Some(-3)]
    );
    assert_eq!(
        row(MeleeRow::Cavalry),
        [Some(3), Some(-1), Some(2), None, None, Some(-3)]
    );
    // "-" reads 0, or -1 for Crack under the option
    let f = MeleeFacts {
        row: MeleeRow::CrackInfantry,
        charging: false,
        enemy_infantry: true,
        defending: Defending::OpenOrder,
        in_column: false,
        cover: false,
        flank_or_rear: true,
        on_obstacle: false,
    };
    assert_eq!(side_modifier(f, &Options::default()), 0);
    let mut o = Options::default();
    o.crack_dash_as_minus1 = true;
    assert_eq!(side_modifier(f, &o), -2);
}

#[test]
fn when_each_modifier_applies() {
    // TSATF-MEL-19
    let o = Options::default();
    let cav = MeleeFacts {
        row: MeleeRow::Cavalry,
        charging: true,
        enemy_infantry: true,
        defending: Defending::No,
        in_column: false,
        cover: false,
        flank_or_rear: false,
        on_obstacle: false,
    };
    assert_eq!(side_modifier(cav, &o), 3);
    assert_eq!(
        side_modifier(
            MeleeFacts {
                enemy_infantry: false,
                ..cav
            },
            &o
        ),
        0
    );
    // Average infantry charging in assault column: 0 + 2; under the other reading the larger of the two
    let col = MeleeFacts {
        row: MeleeRow::AverageInfantry,
        in_column: true,
        ..cav
    };
    assert_eq!(side_modifier(col, &o), 2);
    let vet = MeleeFacts {
        row: MeleeRow::VeteranInfantry,
        in_column: true,
        ..cav
    };
    assert_eq!(side_modifier(vet, &o), 3);
    let mut a = Options::default();
    a.assault_column = AssaultColumn::AttackOnlyReplacesCharging;
    assert_eq!(side_modifier(vet, &a), 2);
    // Green defenders behind cover in close order, hit in the flank: +1 +2 -2
    let green = MeleeFacts {
        row: MeleeRow::GreenInfantry,
        charging: false,
        enemy_infantry: true,
        defending: Defending::CloseOrder,
        in_column: false,
        cover: true,
        flank_or_rear: true,
        on_obstacle: false,
    };
    assert_eq!(side_modifier(green, &o), 1);
    // a cavalry charge on Green infantry in close order: 3 against 1, the first figure wins 13/18
    let m = Melee::new(
        MeleeSide {
            cadre: 0,
            others: 1,
            modifier: 3,
            cadre_first: true,
        },
        MeleeSide {
            cadre: 0,
            others: 1,
            modifier: 1,
            cadre_first: true,
        },
        &o,
    );
    let round = acw_tsatf::melee::Combat { modifier: 2 }.odds();
    assert!(
        (round.prob(|b| matches!(b, acw_tsatf::melee::Bout::Won(_))) - 13.0 / 18.0).abs() < 1e-12
    );
    assert!((m.odds().prob(|x| x.winner == Party::Attackers) - 26.0 / 32.0).abs() < 1e-12);
}

#[test]
fn fighting_on_the_obstacle_is_minus_one() {
    // TSATF-MEL-26
    let o = Options::default();
    let on = MeleeFacts {
        row: MeleeRow::AverageInfantry,
        charging: true,
        enemy_infantry: true,
        defending: Defending::No,
        in_column: false,
        cover: false,
        flank_or_rear: false,
        on_obstacle: true,
    };
    assert_eq!(side_modifier(on, &o), -1);
    // only as many attackers fight as there are defenders; the rest wait: 5 attackers v 1 defender is a
    // string of single combats, the attackers losing only if the defender wins five times in a row
    let m = Melee::new(
        MeleeSide {
            cadre: 0,
            others: 5,
            modifier: 0,
            cadre_first: true,
        },
        MeleeSide {
            cadre: 0,
            others: 1,
            modifier: 0,
            cadre_first: true,
        },
        &o,
    );
    assert!((m.odds().prob(|x| x.winner == Party::Defenders) - 1.0 / 32.0).abs() < 1e-12);
}

#[test]
fn victorious_attackers_pursue_and_take_prisoners() {
    // TSATF-MEL-21, TSATF-MEL-22, TSATF-CAS-04: the losers flee 4D6 = 4; 9 unused reaches: prisoners
    let mut b = tiny(3, 3, Options::default());
    let c = charged(&mut b);
    b.close_in(c, true, &mut faces(&[1])).unwrap();
    b.stand(c, &mut faces(&[1])).unwrap();
    // three pairs: officers 6 v 1 (killed); private 6 v 6 tie; private 5 v 5 tie... round 2 ...
    // round 1: 6 1 | 6 5 (theirs pushed back) | 6 6 (tie)
    // round 2: 3 pairs? theirs has 2 left (a private, a private): pairs of (officer, private)(private, private)
    //          6 5 (pushed back) | 6 6 tie ; round 3: one pair: 6 5 pushed back
    let script = [6, 1, 6, 5, 6, 6, 6, 5, 6, 6, 6, 5, 1, 1, 1, 1, 1];
    let r = b
        .melee(c, &MeleeOrder::default(), &mut faces(&script))
        .unwrap();
    assert_eq!(r.party, Party::Attackers);
    assert_eq!(r.tally.defenders.pushed_back, [0, 3]);
    assert_eq!(r.flight, Some(4));
    assert_eq!(r.captured, 3);
    assert_eq!(b.unit(DEF).unwrap().captured(), 3);
}

#[test]
fn colours_change_hands_and_come_back() {
    // TSATF-MEL-23, TSATF-MEL-24
    for (reading, want_back) in [
        (ColourRecovery::MeleeWinPlusRoll, false),
        (ColourRecovery::AutomaticOnMeleeWin, true),
    ] {
        let mut o = Options::default();
        o.colour_recovery = reading;
        let mut b = tiny(3, 1, o);
        let c = charged(&mut b);
        b.close_in(c, true, &mut faces(&[1])).unwrap();
        b.stand(c, &mut faces(&[1])).unwrap();
        // attackers win at once (6 v 1 twice): no one is left to flee; colours on a 4
        b.melee(
            c,
            &MeleeOrder {
                pursue: false,
                ..MeleeOrder::default()
            },
            &mut faces(&[6, 1, 6, 1, 4]),
        )
        .unwrap();
        assert!(!b.unit(DEF).unwrap().has_colours());
        // +2 benefit on the holders' tests: -2 on the die
        assert_eq!(b.test_modifier(ATT).unwrap(), -2);
        let _ = want_back;
    }
    // recovery: next turn the owners charge the holders and beat them
    let mut b = tiny(3, 3, Options::default());
    let c = charged(&mut b);
    b.close_in(c, true, &mut faces(&[1])).unwrap();
    b.stand(c, &mut faces(&[1])).unwrap();
    // round 1: officers 6 v 5 (theirs pushed back), two ties; round 2: three pushed back on 6 v 5
    let script = [6, 5, 6, 6, 6, 6, 6, 5, 6, 5, 6, 5, 1, 1, 1, 1, 4];
    let r = b
        .melee(
            c,
            &MeleeOrder {
                pursue: false,
                ..MeleeOrder::default()
            },
            &mut faces(&script),
        )
        .unwrap();
    assert!(r.colours_taken);
    assert_eq!(b.unit(DEF).unwrap().strength(), 4);
    to_phase(&mut b, Phase::Morale);
    assert!(b.rally(DEF, &mut faces(&[1])).unwrap());
    finish_phase(&mut b);
    turn(&mut b, Side::Confederate);
    let ChargeReport::Contact { charge, .. } = b
        .charge(DEF, &at(ATT, 4.0), &mut faces(&[1, 3, 3, 3, 3]))
        .unwrap()
    else {
        panic!()
    };
    to_phase(&mut b, Phase::CloseCombat);
    b.close_in(charge, true, &mut faces(&[1])).unwrap();
    b.stand(charge, &mut faces(&[1])).unwrap();
    // round 1: the owners win three pairs on 6 v 1; round 2 their officer kills the last man; no one is left to
    // flee; recovery roll 6
    let script = [6, 1, 6, 1, 6, 1, 6, 1, 6];
    let r = b
        .melee(charge, &MeleeOrder::default(), &mut faces(&script))
        .unwrap();
    assert!(r.colours_recovered);
    assert!(b.unit(DEF).unwrap().has_colours());
    assert!(b.unit(ATT).unwrap().colours_held().is_empty());
    let _ = (
        Formation::AssaultColumn,
        UnitKind::Artillery,
        FireRow::Canister,
        Status::Active,
    );
}

#[test]
fn routed_troops_are_caught_from_the_rear_and_taken() {
    // TSATF-MEL-28
    let mut b = small_battle(Options::default());
    rout_small(&mut b);
    // Co. D charges the routed Co. B (4 figures, 2 left)
    turn(&mut b, Side::Union);
    b.compulsory_move(USA_B, false, &mut faces(&[1, 1, 1, 1]))
        .unwrap();
    turn(&mut b, Side::Confederate);
    let r = b
        .charge(
            UnitId(3),
            &ChargeOrder {
                target: USA_B,
                distance: 3.0,
                rough_features: 0,
                flank_or_rear: false,
                protected: false,
            },
            &mut faces(&[1, 3, 3, 3, 3]),
        )
        .unwrap();
    let ChargeReport::Contact { charge, .. } = r else {
        panic!("{r}")
    };
    to_phase(&mut b, Phase::CloseCombat);
    assert_eq!(
        b.close_in(charge, true, &mut faces(&[])).unwrap(),
        CloseReport::RoutedTarget
    );
    // two pairs: officers 1 v 6 (ours loses, pushed... no: a 1 is killed), privates 6 v 1
    // round 2: their officer v our private 6 v 1 ... the routed side's figures lose -1 open, -1 rear
    let r = b
        .melee(charge, &MeleeOrder::default(), &mut faces(&[6, 2, 6, 5]))
        .unwrap();
    assert_eq!(r.party, Party::Attackers);
    // every survivor of the routed unit, pushed back or not, is taken
    let u = b.unit(USA_B).unwrap();
    assert_eq!(u.strength(), 0);
    assert!(u.captured() >= 1);
}

#[test]
fn non_fighters_do_not_fight_and_are_taken_when_reached() {
    // TSATF-MEL-29: the straggler stays out of the melee; contacted non-fighters of the losers are captured
    let mut b = tiny(3, 1, Options::default());
    let c = charged(&mut b);
    b.close_in(c, true, &mut faces(&[1])).unwrap();
    b.stand(c, &mut faces(&[1])).unwrap();
    // defenders win: 1 v 6 (our officer killed), 5 v 6 (our private pushed); reserve steps in: 1 v 6 killed
    let script = [1, 6, 5, 6, 1, 6, 2, 2, 2, 2];
    let order = MeleeOrder {
        non_fighters_contacted: true,
        ..MeleeOrder::default()
    };
    let r = b.melee(c, &order, &mut faces(&script)).unwrap();
    assert_eq!(r.party, Party::Defenders);
    assert_eq!(r.tally.attackers.killed, [1, 1]);
    // the straggler was not in the fight but is taken
    assert_eq!(b.unit(ATT).unwrap().captured(), 1);
    assert_eq!(b.unit(ATT).unwrap().morale(), MoraleState::Shaken);
}

#[test]
fn overlapping_pairs_gang_up_on_the_lone_defender() {
    // TSATF-MEL-17 (overlap): the defending officer fights all three attackers in one round and takes the
    // worst of his losses
    let mut o = Options::default();
    o.melee_overlap = true;
    let mut b = tiny(3, 0, o);
    let c = charged(&mut b);
    b.close_in(c, true, &mut faces(&[1])).unwrap();
    b.stand(c, &mut faces(&[1])).unwrap();
    // officer v officer at +2 each, 1 v 6: ours killed; each private (+1) v their officer (+2): 6 v 2, theirs
    // killed, and 2 v 2, ours killed; the officer takes the worst of his losses. No one is left to flee; the
    // colours roll 1 keeps them.
    let r = b
        .melee(
            c,
            &MeleeOrder::default(),
            &mut faces(&[1, 6, 6, 2, 2, 2, 1]),
        )
        .unwrap();
    assert_eq!(r.party, Party::Attackers);
    assert_eq!(r.tally.rounds, 1);
    assert_eq!(r.tally.outcome.left, 1);
    assert_eq!(r.tally.attackers.killed, [1, 1]);
    assert_eq!(r.tally.defenders.killed, [1, 0]);
    assert_eq!(r.captured, 0);
    assert!(!r.colours_taken);
}

/// TSATF-MEL-26 / TSATF-MEL-14: with room for one attacker on the obstacle, the melee is a run of single
/// combats in the owners' order. The attackers' officer (+1) fights first against the defenders' two privates:
/// a combat at +1 is won 21/36, lost 10/36 and tied 5/36, so one that decides anything goes to the officer with
/// q1 = 21/31; once the officer is down their private fights at evens, q0 = 1/2. The attackers take two before
/// losing two by W W, W L W or L W W: q1² + q1(1 − q1)q0 + (1 − q1)q0² = 1247/1922. With both pairs fighting
/// at once (no obstacle), the private fights from the first round and the ends differ.
#[test]
fn tsatf_mel_26_one_place_on_the_obstacle_makes_single_combats() {
    let attackers = MeleeSide {
        cadre: 1,
        others: 1,
        modifier: 0,
        cadre_first: true,
    };
    let defenders = MeleeSide {
        cadre: 0,
        others: 2,
        modifier: 0,
        cadre_first: true,
    };
    let melee = Melee::new(attackers, defenders, &Options::default());
    let single = melee.with_front(1);
    let p = single.odds().prob(|o| o.winner == Party::Attackers);
    assert!((p - 1247.0 / 1922.0).abs() < 1e-12, "{p}");
    // they win without a loss only by W W: q1² = 441/961
    let clean = |m: &Melee| {
        m.odds()
            .prob(|o| o.winner == Party::Attackers && o.left == 2)
    };
    assert!((clean(&single) - 441.0 / 961.0).abs() < 1e-12);
    // both pairs at once: the same chance to win (every removal is one combat's, whichever order they come
    // in), but a win without loss is rarer, as the private must win its own combat too: 2331/6541
    let open = melee.odds().prob(|o| o.winner == Party::Attackers);
    assert!((open - p).abs() < 1e-12, "{open} {p}");
    assert!((clean(&melee) - 2331.0 / 6541.0).abs() < 1e-12);
    // a room of none still lets the figure in contact fight
    assert_eq!(melee.with_front(0).front, 1);
}
