//! Morale: the checks, their triggers and results, leaders and their ratings.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::cards::Rank;
use acw_core::{Resolve, Side};
use acw_tsatf::battle::{ChargeOrder, ChargeReport, CheckDue, CloseReport, MoveOrder};
use acw_tsatf::morale::{self, MoraleTest};
use acw_tsatf::options::{MajorScope, RallyRouted};
use acw_tsatf::setup::UnitSpec;
use acw_tsatf::state::{Compulsory, MoraleState, Phase};
use acw_tsatf::tables::{LeaderRating, MoveMode, Quality};
use acw_tsatf::{Battle, Options, RuleViolation, UnitId};
use common::*;

const ATT: UnitId = UnitId(0);
const DEF: UnitId = UnitId(2);

fn tiny(o: Options) -> Battle {
    let units = vec![
        UnitSpec::infantry("Attackers", Side::Union, Quality::Green)
            .unwrap()
            .with_ranks(0, 9)
            .unwrap(),
        UnitSpec::infantry("Union reserve", Side::Union, Quality::Average).unwrap(),
        UnitSpec::infantry("Defenders", Side::Confederate, Quality::Average)
            .unwrap()
            .with_ranks(0, 9)
            .unwrap(),
        UnitSpec::infantry("Confederate reserve", Side::Confederate, Quality::Crack).unwrap(),
    ];
    battle_of(units, o)
}

/// Attackers charge Defenders; the Green attackers fail to close on a 6 and are pinned.
fn pinned(b: &mut Battle) {
    turn(b, Side::Union);
    let r = b
        .charge(
            ATT,
            &ChargeOrder {
                target: DEF,
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
    to_phase(b, Phase::CloseCombat);
    assert_eq!(
        b.close_in(charge, true, &mut faces(&[6])).unwrap(),
        CloseReport::FailedToClose
    );
    to_phase(b, Phase::Morale);
}

/// Attackers close; Defenders fail to stand on a 6 and get away shaken.
fn shaken(b: &mut Battle) {
    turn(b, Side::Union);
    let r = b
        .charge(
            ATT,
            &ChargeOrder {
                target: DEF,
                distance: 3.0,
                rough_features: 0,
                flank_or_rear: false,
                protected: false,
            },
            &mut faces(&[1, 1, 1, 1, 1]),
        )
        .unwrap();
    let ChargeReport::Contact { charge, .. } = r else {
        panic!("{r}")
    };
    to_phase(b, Phase::CloseCombat);
    b.close_in(charge, true, &mut faces(&[1])).unwrap();
    assert!(matches!(
        b.stand(charge, &mut faces(&[6, 6, 6, 6, 6])).unwrap(),
        acw_tsatf::battle::StandReport::Fled { .. }
    ));
}

#[test]
fn the_morale_chart_and_the_2d6_test() {
    // TSATF-MOR-02, TSATF-MOR-03
    let chart: Vec<(u8, u8, u8)> = [
        Quality::Green,
        Quality::Average,
        Quality::Veteran,
        Quality::Crack,
        Quality::Indians,
    ]
    .iter()
    .map(|q| {
        (
            q.major_morale(),
            q.critical_morale(true),
            q.critical_morale(false),
        )
    })
    .collect();
    assert_eq!(
        chart,
        vec![(7, 8, 7), (8, 9, 8), (9, 10, 9), (10, 11, 10), (7, 8, 7)]
    );
    let t = MoraleTest {
        number: 7,
        modifier: 0,
    };
    assert!(t.roll(&mut faces(&[3, 4])));
    assert!(!t.roll(&mut faces(&[4, 4])));
    assert!(
        !MoraleTest {
            number: 7,
            modifier: 1
        }
        .roll(&mut faces(&[3, 4]))
    );
    assert!((t.odds().p(&true) - 21.0 / 36.0).abs() < 1e-12);
}

#[test]
fn the_checks_of_the_morale_phase_in_order() {
    // TSATF-MOR-01, TSATF-SEQ-08: Major first, then Critical, Pinned and rallies
    let mut b = small_battle(Options::default());
    to_phase(&mut b, Phase::Firing);
    turn(&mut b, Side::Confederate);
    // an Ace kills Co. A's lieutenant (the Union's highest officer); a 2 and a 3 halve Co. B
    volley(&mut b, UnitId(2), USA_A, &[heart(Rank::Ace)]);
    turn(&mut b, Side::Confederate);
    volley(
        &mut b,
        UnitId(3),
        USA_B,
        &[heart(Rank::Two), heart(Rank::Three)],
    );
    to_phase(&mut b, Phase::Morale);
    assert_eq!(
        b.checks_due(),
        vec![CheckDue::Major(Side::Union), CheckDue::Critical(USA_B)]
    );
    let before = b.clone();
    assert!(matches!(
        b.critical_morale(USA_B, &mut faces(&[1, 1])),
        Err(RuleViolation::Cannot { .. })
    ));
    assert_eq!(b, before);
    assert!(b.advance().is_err());
    assert!(b.major_morale(Side::Union, &mut faces(&[3, 3])).unwrap());
    assert!(b.critical_morale(USA_B, &mut faces(&[4, 4])).unwrap());
    assert_eq!(b.checks_due(), vec![]);
    assert!(b.advance().is_ok());
}

#[test]
fn major_morale_when_the_highest_officer_falls() {
    // TSATF-MOR-04, TSATF-CMD-03: only when due; a fail freezes the side's steady units next turn
    let mut b = small_battle(Options::default());
    to_phase(&mut b, Phase::Morale);
    assert!(b.major_morale(Side::Union, &mut faces(&[1, 1])).is_err());
    let mut b = small_battle(Options::default());
    to_phase(&mut b, Phase::Firing);
    turn(&mut b, Side::Confederate);
    volley(&mut b, UnitId(2), USA_A, &[heart(Rank::Ace)]);
    // Co. B's lieutenant takes over
    assert_eq!(b.senior_officer(Side::Union), Some((USA_B, 0)));
    to_phase(&mut b, Phase::Morale);
    // Veteran and Average, one each: the tie goes to the lower, Average, 8: 4 + 5 fails
    assert!(!b.major_morale(Side::Union, &mut faces(&[4, 5])).unwrap());
    b.advance().unwrap();
    assert!(b.unit(USA_A).unwrap().frozen() && b.unit(USA_B).unwrap().frozen());
    assert!(!b.unit(UnitId(2)).unwrap().frozen());
}

#[test]
fn whose_number_the_side_rolls_against() {
    // TSATF-MOR-05
    let mut o = Options::default();
    let side = [
        Quality::Veteran,
        Quality::Green,
        Quality::Veteran,
        Quality::Crack,
    ];
    assert_eq!(morale::major_class(&side, &o), Some(Quality::Veteran));
    assert_eq!(
        morale::major_class(&[Quality::Crack, Quality::Average], &o),
        Some(Quality::Average)
    );
    o.major_scope = MajorScope::LowestClass;
    assert_eq!(morale::major_class(&side, &o), Some(Quality::Green));
    o.major_scope = MajorScope::PerUnit;
    assert_eq!(morale::major_class(&side, &o), None);
    // per unit on the battle: Veteran Co. A passes on 9, Average Co. B fails
    let mut b = small_battle(o);
    to_phase(&mut b, Phase::Firing);
    turn(&mut b, Side::Confederate);
    volley(&mut b, UnitId(2), USA_A, &[heart(Rank::Ace)]);
    to_phase(&mut b, Phase::Morale);
    assert!(
        !b.major_morale(Side::Union, &mut faces(&[4, 5, 4, 5]))
            .unwrap()
    );
    b.advance().unwrap();
    assert!(!b.unit(USA_A).unwrap().frozen());
    assert!(b.unit(USA_B).unwrap().frozen());
}

#[test]
fn critical_morale_triggers() {
    // TSATF-MOR-06: at half strength, once (or every turn under the option); shaken and hit
    for every in [false, true] {
        let mut o = Options::default();
        o.critical_every_turn_below_half = every;
        let mut b = small_battle(o);
        to_phase(&mut b, Phase::Firing);
        turn(&mut b, Side::Confederate);
        volley(
            &mut b,
            UnitId(2),
            USA_B,
            &[heart(Rank::Two), heart(Rank::Three)],
        );
        to_phase(&mut b, Phase::Morale);
        assert!(b.critical_morale(USA_B, &mut faces(&[1, 1])).unwrap());
        finish_phase(&mut b);
        to_phase(&mut b, Phase::Morale);
        assert_eq!(b.checks_due().contains(&CheckDue::Critical(USA_B)), every);
    }
    // shaken troops that take casualties test
    let mut b = tiny(Options::default());
    shaken(&mut b);
    to_phase(&mut b, Phase::Morale);
    assert!(!b.checks_due().contains(&CheckDue::Critical(DEF)));
    let mut c = tiny(Options::default());
    shaken(&mut c);
    to_phase(&mut c, Phase::Morale);
    finish_phase(&mut c);
    to_phase(&mut c, Phase::Firing);
    turn(&mut c, Side::Union);
    volley(&mut c, UnitId(1), DEF, &[heart(Rank::Two)]);
    to_phase(&mut c, Phase::Morale);
    assert!(c.checks_due().contains(&CheckDue::Critical(DEF)));
    // a miss card does not count, unless the option says so
    let mut o = Options::default();
    o.hits_include_misses = true;
    let mut d = tiny(o);
    shaken(&mut d);
    to_phase(&mut d, Phase::Morale);
    finish_phase(&mut d);
    to_phase(&mut d, Phase::Firing);
    turn(&mut d, Side::Union);
    volley(&mut d, UnitId(1), DEF, &[]);
    to_phase(&mut d, Phase::Morale);
    assert!(d.checks_due().contains(&CheckDue::Critical(DEF)));
}

#[test]
fn failing_critical_morale_routs() {
    // TSATF-MOR-07, TSATF-MOR-08
    let mut b = small_battle(Options::default());
    rout_small(&mut b);
    assert_eq!(b.unit(USA_B).unwrap().morale(), MoraleState::Routed);
    assert_eq!(compulsory(&b, USA_B), Some(Compulsory::Rout));
    // a routed unit may not move of its own will
    turn(&mut b, Side::Union);
    assert!(
        b.move_unit(
            USA_B,
            &MoveOrder {
                mode: Some(MoveMode::CrossCountry),
                ..MoveOrder::default()
            },
            &mut faces(&[1, 1, 1])
        )
        .is_err()
    );
}

#[test]
fn pinned_units_test_to_get_up() {
    // TSATF-MOR-09, TSATF-MOR-15: Green with leader un-pins on 8 or less
    let mut b = tiny(Options::default());
    pinned(&mut b);
    assert!(b.unit(ATT).unwrap().prone());
    assert_eq!(b.checks_due(), vec![CheckDue::Pinned(ATT)]);
    assert!(!b.pinned_morale(ATT, &mut faces(&[4, 5])).unwrap());
    assert_eq!(b.unit(ATT).unwrap().morale(), MoraleState::Pinned);
    finish_phase(&mut b);
    // it stays where it is, may not move or fire
    assert_eq!(compulsory(&b, ATT), Some(Compulsory::StayPinned));
    turn(&mut b, Side::Union);
    assert_eq!(b.compulsory_move(ATT, false, &mut faces(&[])).unwrap(), 0);
    to_phase(&mut b, Phase::Morale);
    assert!(b.pinned_morale(ATT, &mut faces(&[4, 4])).unwrap());
    assert_eq!(b.unit(ATT).unwrap().morale(), MoraleState::Steady);
    assert!(!b.unit(ATT).unwrap().prone());
}

#[test]
fn shaken_units_rally_on_the_chart() {
    // TSATF-MOR-10, TSATF-MOR-11
    let mut b = tiny(Options::default());
    shaken(&mut b);
    assert_eq!(b.unit(DEF).unwrap().morale(), MoraleState::Shaken);
    to_phase(&mut b, Phase::Morale);
    // Average with leader rallies on 1-4: a 5 fails, and one try is all
    assert!(!b.rally(DEF, &mut faces(&[5])).unwrap());
    assert!(b.rally(DEF, &mut faces(&[1])).is_err());
    finish_phase(&mut b);
    // shaken units may not charge or fire
    turn(&mut b, Side::Confederate);
    let e = b
        .charge(
            DEF,
            &ChargeOrder {
                target: ATT,
                distance: 2.0,
                rough_features: 0,
                flank_or_rear: false,
                protected: false,
            },
            &mut faces(&[1]),
        )
        .unwrap_err();
    assert_eq!(e.to_string(), "Defenders is shaken and may not charge");
    to_phase(&mut b, Phase::Morale);
    assert!(b.rally(DEF, &mut faces(&[4])).unwrap());
    assert_eq!(b.unit(DEF).unwrap().morale(), MoraleState::Steady);
    // under the option, shaken troops fall back 4D6 first thing each turn
    let mut o = Options::default();
    o.shaken_retreats = true;
    let mut c = tiny(o);
    shaken(&mut c);
    to_phase(&mut c, Phase::Morale);
    finish_phase(&mut c);
    assert_eq!(compulsory(&c, DEF), Some(Compulsory::ShakenRetreat));
}

#[test]
fn routed_units_rally_from_the_next_morale_phase() {
    // TSATF-MOR-12
    for (reading, faces_, to) in [
        (RallyRouted::D6ToSteady, vec![3], MoraleState::Steady),
        (RallyRouted::D6ToShaken, vec![3], MoraleState::Shaken),
        (RallyRouted::Critical2D6, vec![4, 4], MoraleState::Steady),
    ] {
        let mut o = Options::default();
        o.rally_routed = reading;
        let mut b = small_battle(o);
        to_phase(&mut b, Phase::Firing);
        turn(&mut b, Side::Confederate);
        volley(
            &mut b,
            UnitId(2),
            USA_B,
            &[heart(Rank::Two), heart(Rank::Three)],
        );
        to_phase(&mut b, Phase::Morale);
        b.critical_morale(USA_B, &mut faces(&[6, 6])).unwrap();
        // not in the phase it routed
        assert!(b.rally(USA_B, &mut faces(&[1])).is_err());
        b.advance().unwrap();
        to_phase(&mut b, Phase::Morale);
        assert!(
            b.rally(USA_B, &mut acw_core::dice::ScriptedDice::faces(faces_))
                .unwrap()
        );
        assert_eq!(b.unit(USA_B).unwrap().morale(), to);
    }
}

#[test]
fn half_strength() {
    // TSATF-MOR-13: 2 x current <= starting
    let mut b = small_battle(Options::default());
    assert!(!b.unit(USA_B).unwrap().at_half());
    to_phase(&mut b, Phase::Firing);
    turn(&mut b, Side::Confederate);
    volley(&mut b, UnitId(2), USA_B, &[heart(Rank::Two)]);
    assert!(!b.unit(USA_B).unwrap().at_half());
    turn(&mut b, Side::Confederate);
    volley(&mut b, UnitId(3), USA_B, &[heart(Rank::Three)]);
    assert!(b.unit(USA_B).unwrap().at_half());
    // a full company is at half with 10 left of 21
    let c = battle();
    let u = c.unit(USA_A).unwrap();
    assert_eq!((u.starting_strength(), u.strength()), (21, 21));
}

#[test]
fn test_modifiers_and_leader_ratings() {
    // TSATF-MOR-14, TSATF-OPT-01, TSATF-OPT-02
    let mut b = tiny(Options::default());
    assert!(b.roll_leader_ratings(&mut faces(&[1, 1, 1, 1])).is_err());
    let mut o = Options::default();
    o.leader_quality = true;
    let mut b = tiny(o);
    // one officer a unit: ratings 4 (fair), 1, 6, 5
    b.roll_leader_ratings(&mut faces(&[4, 1, 6, 5])).unwrap();
    assert_eq!(
        b.unit(ATT).unwrap().figures()[0].rating(),
        Some(LeaderRating::Fair)
    );
    assert_eq!(b.unit(ATT).unwrap().figures()[1].rating(), None);
    assert_eq!(b.test_modifier(ATT).unwrap(), -1);
    assert_eq!(b.test_modifier(DEF).unwrap(), -3);
    // a Green unit with a fair leader closes on a 4 (4 - 1 <= 3)
    turn(&mut b, Side::Union);
    let r = b
        .charge(
            ATT,
            &ChargeOrder {
                target: DEF,
                distance: 3.0,
                rough_features: 0,
                flank_or_rear: false,
                protected: false,
            },
            &mut faces(&[1, 3, 3, 3, 3]),
        )
        .unwrap();
    let ChargeReport::Contact { charge, .. } = r else {
        panic!()
    };
    to_phase(&mut b, Phase::CloseCombat);
    assert_eq!(
        b.close_in(charge, true, &mut faces(&[4])).unwrap(),
        CloseReport::Closed
    );
    // each rating has chance 1/6; the expected modifier is -1/2
    let ratings = morale::RatingRoll.odds();
    assert!((ratings.p(&LeaderRating::Lion) - 1.0 / 6.0).abs() < 1e-12);
    assert!((ratings.expect(|r| f64::from(r.modifier())) + 0.5).abs() < 1e-12);
    // ratings of officers who are not there do not count
    assert_eq!(morale::test_modifier(None, 0, b.options()), 0);
    assert_eq!(
        morale::test_modifier(Some(LeaderRating::Despised), 1, b.options()),
        0
    );
    // a historical leader is given his rating
    b.set_rating(ATT, 0, LeaderRating::Lion).unwrap();
    assert_eq!(b.test_modifier(ATT).unwrap(), -3);
    assert!(b.set_rating(ATT, 1, LeaderRating::Lion).is_err());
}

#[test]
fn the_order_of_morale_states() {
    // TSATF-MOR-16: a pinned unit that fails to stand when charged becomes shaken, and is pinned and prone no more
    assert!(MoraleState::Routed > MoraleState::Shaken && MoraleState::Shaken > MoraleState::Pinned);
    let mut b = tiny(Options::default());
    pinned(&mut b);
    assert!(!b.pinned_morale(ATT, &mut faces(&[6, 6])).unwrap());
    finish_phase(&mut b);
    turn(&mut b, Side::Confederate);
    let order = ChargeOrder {
        target: ATT,
        distance: 3.0,
        rough_features: 0,
        flank_or_rear: false,
        protected: false,
    };
    let ChargeReport::Contact { charge, .. } =
        b.charge(DEF, &order, &mut faces(&[1, 3, 3, 3, 3])).unwrap()
    else {
        panic!()
    };
    to_phase(&mut b, Phase::CloseCombat);
    assert_eq!(
        b.close_in(charge, true, &mut faces(&[1])).unwrap(),
        CloseReport::Closed
    );
    // the pinned Green unit with leader stands on 1-3: a 6 fails; it flees 4D6 = 24 and gets away
    b.stand(charge, &mut faces(&[6, 6, 6, 6, 6])).unwrap();
    let u = b.unit(ATT).unwrap();
    assert_eq!(u.morale(), MoraleState::Shaken);
    assert!(!u.prone());
    // a routed unit is neither
    let mut c = small_battle(Options::default());
    rout_small(&mut c);
    let u = c.unit(USA_B).unwrap();
    assert_eq!(u.morale(), MoraleState::Routed);
    assert!(!u.prone());
}
