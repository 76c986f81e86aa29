//! The turn and its cards.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::cards::Colour;
use acw_core::{GameRng, Side};
use acw_tsatf::Options;
use acw_tsatf::RuleViolation;
use acw_tsatf::battle::{ChargeOrder, ChargeReport, CloseReport, FireOrder, GameEnd, MoveOrder};
use acw_tsatf::fire::TargetArea;
use acw_tsatf::options::{CasualtyTiming, CompulsoryFirst, EvadedCharge, SequencingDeck};
use acw_tsatf::state::{Compulsory, MoraleState, Phase, Status};
use acw_tsatf::tables::MoveMode;
use common::*;

#[test]
fn a_turn_is_movement_firing_close_combat_morale() {
    // TSATF-SEQ-01
    let mut b = battle();
    assert_eq!((b.turn(), b.phase()), (1, Phase::Movement));
    finish_phase(&mut b);
    assert_eq!(b.phase(), Phase::Firing);
    finish_phase(&mut b);
    assert_eq!(b.phase(), Phase::CloseCombat);
    finish_phase(&mut b);
    assert_eq!(b.phase(), Phase::Morale);
    finish_phase(&mut b);
    assert_eq!((b.turn(), b.phase()), (2, Phase::Movement));
}

#[test]
fn the_deck_holds_a_card_per_unit_or_all_52() {
    // TSATF-SEQ-02
    let mut b = battle();
    assert_eq!(b.begin_phase(&mut GameRng::seed(1)).unwrap(), 6);
    let pile = b.sequencing_deck().unwrap().pile();
    assert_eq!(pile.iter().filter(|c| c.colour() == Colour::Red).count(), 3);
    assert!(pile.iter().all(|c| !c.is_joker()));
    assert!(b.begin_phase(&mut GameRng::seed(1)).is_err());
    let mut o = Options::default();
    o.sequencing_deck = SequencingDeck::Full52WithSkip;
    let mut b = battle_with(o);
    assert_eq!(b.begin_phase(&mut GameRng::seed(1)).unwrap(), 52);
}

#[test]
fn a_card_activates_one_unit_of_its_colour() {
    // TSATF-SEQ-03
    let mut b = battle();
    turn(&mut b, Side::Confederate);
    assert_eq!(b.card(), Some(Side::Confederate));
    let e = b.hold(USA_A).unwrap_err();
    assert_eq!(
        e,
        RuleViolation::NotOnCard {
            unit: "1st Maine, Company A".into(),
            side: Side::Union
        }
    );
    assert_eq!(
        e.to_string(),
        "1st Maine, Company A cannot act: the card turned is not the Union side's, or no card is turned"
    );
    assert!(matches!(
        b.turn_card(&mut GameRng::seed(3)),
        Err(RuleViolation::CardPending(Side::Confederate))
    ));
    b.hold(CSA_C).unwrap();
    assert_eq!(b.card(), None);
    turn(&mut b, Side::Confederate);
    assert_eq!(
        b.hold(CSA_C).unwrap_err(),
        RuleViolation::AlreadyActed("4th Alabama, Company C".into())
    );
    // the phase cannot end until every unit has had its card
    assert!(b.advance().is_err());
}

#[test]
fn fire_goes_unit_by_unit_and_hits_land_at_once_or_at_the_end() {
    // TSATF-SEQ-04, TSATF-FIR-12
    for timing in [CasualtyTiming::Immediate, CasualtyTiming::Simultaneous] {
        let mut o = Options::default();
        o.casualty_timing = timing;
        let mut b = battle_with(o);
        to_phase(&mut b, Phase::Firing);
        turn(&mut b, Side::Confederate);
        let order = FireOrder {
            target: USA_A,
            range: 10.0,
            in_reach: None,
            area: TargetArea {
                figures: 21,
                close_order: 21,
                ..TargetArea::default()
            },
            canister: false,
            with: vec![],
            hit_order: vec![],
        };
        // a 6: Average at Class I, 1/4 of 10 firers = 2 hits; two hearts 2-10 kill two privates
        let mut dice = acw_core::dice::ScriptedDice::new([
            acw_core::dice::Scripted::Face(6),
            acw_core::dice::Scripted::Card(acw_core::cards::Card::Suited(
                acw_core::cards::Rank::Two,
                acw_core::cards::Suit::Hearts,
            )),
            acw_core::dice::Scripted::Card(acw_core::cards::Card::Suited(
                acw_core::cards::Rank::Three,
                acw_core::cards::Suit::Hearts,
            )),
        ]);
        let r = b.fire(CSA_C, &order, &mut dice).unwrap();
        assert_eq!(r.hits, 2);
        let killed_now = b.unit(USA_A).unwrap().killed();
        match timing {
            CasualtyTiming::Immediate => assert_eq!(killed_now, 2),
            _ => {
                assert_eq!(killed_now, 0);
                finish_phase(&mut b);
                assert_eq!(b.unit(USA_A).unwrap().killed(), 2);
            }
        }
    }
}

#[test]
fn compulsory_moves_come_first() {
    // TSATF-SEQ-05: a routed unit must move before its side's voluntary movers
    for mode in [
        CompulsoryFirst::OnOwnCard,
        CompulsoryFirst::AllBeforeFirstCard,
    ] {
        let mut o = Options::default();
        o.compulsory_first = mode;
        let mut b = small_battle(o);
        rout_small(&mut b);
        assert_eq!(compulsory(&b, USA_B), Some(Compulsory::Rout));
        shuffle(&mut b);
        match mode {
            CompulsoryFirst::OnOwnCard => {
                turn(&mut b, Side::Union);
                assert_eq!(
                    b.hold(USA_A).unwrap_err(),
                    RuleViolation::CompulsoryFirst("Co. B".into())
                );
                let before = b.clone();
                assert_eq!(
                    b.move_unit(USA_A, &MoveOrder::default(), &mut faces(&[4, 4, 4]))
                        .unwrap_err(),
                    RuleViolation::CompulsoryFirst("Co. B".into())
                );
                assert_eq!(b, before);
                assert_eq!(
                    b.compulsory_move(USA_B, false, &mut faces(&[1, 2, 3, 4]))
                        .unwrap(),
                    10
                );
            }
            _ => {
                assert!(matches!(
                    b.turn_card(&mut GameRng::seed(1)),
                    Err(RuleViolation::CompulsoryFirst(_))
                ));
                assert_eq!(
                    b.compulsory_move(USA_B, true, &mut faces(&[6, 6, 6, 6]))
                        .unwrap(),
                    24
                );
                assert!(b.unit(USA_B).unwrap().off_table());
                assert!(
                    b.unit(USA_B)
                        .unwrap()
                        .figures()
                        .iter()
                        .all(|f| f.status() != Status::Active)
                );
                assert!(b.turn_card(&mut GameRng::seed(1)).is_ok());
            }
        }
    }
}

#[test]
fn a_charge_on_a_unit_that_moves_away_strikes_empty_ground() {
    // TSATF-SEQ-06, TSATF-MEL-07: the chargers take the ground (or stay) and still may not fire
    for (reading, want) in [
        (EvadedCharge::OccupyVacatedGround, CloseReport::Occupied),
        (EvadedCharge::StayInPlace, CloseReport::StayedPut),
    ] {
        let mut o = Options::default();
        o.evaded_charge = reading;
        let mut b = battle_with(o);
        turn(&mut b, Side::Union);
        let order = ChargeOrder {
            target: CSA_C,
            distance: 6.0,
            rough_features: 0,
            flank_or_rear: false,
            protected: false,
        };
        // stragglers 1, charge dice 4D6 = 3+3+3+3 = 12 > 5 needed
        let r = b
            .charge(USA_A, &order, &mut faces(&[1, 3, 3, 3, 3]))
            .unwrap();
        let ChargeReport::Contact { charge, unused, .. } = r else {
            panic!("{r}")
        };
        assert_eq!(unused, 7.0);
        to_phase(&mut b, Phase::Firing);
        turn(&mut b, Side::Union);
        let fire = FireOrder {
            target: CSA_C,
            range: 1.0,
            in_reach: None,
            area: TargetArea {
                figures: 21,
                ..TargetArea::default()
            },
            canister: false,
            with: vec![],
            hit_order: vec![],
        };
        assert!(matches!(
            b.fire(USA_A, &fire, &mut faces(&[6])),
            Err(RuleViolation::MayNotFire { .. })
        ));
        to_phase(&mut b, Phase::CloseCombat);
        assert_eq!(b.close_in(charge, false, &mut faces(&[])).unwrap(), want);
    }
}

#[test]
fn charges_resolve_in_the_order_they_were_moved() {
    // TSATF-SEQ-07
    let mut b = battle();
    turn(&mut b, Side::Union);
    let o1 = ChargeOrder {
        target: CSA_C,
        distance: 4.0,
        rough_features: 0,
        flank_or_rear: false,
        protected: false,
    };
    let ChargeReport::Contact { charge: first, .. } =
        b.charge(USA_A, &o1, &mut faces(&[1, 3, 3, 3, 3])).unwrap()
    else {
        panic!()
    };
    turn(&mut b, Side::Confederate);
    let o2 = ChargeOrder {
        target: USA_B,
        distance: 4.0,
        rough_features: 0,
        flank_or_rear: false,
        protected: false,
    };
    let ChargeReport::Contact { charge: second, .. } =
        b.charge(CSA_D, &o2, &mut faces(&[1, 3, 3, 3, 3])).unwrap()
    else {
        panic!()
    };
    to_phase(&mut b, Phase::CloseCombat);
    assert_eq!(
        b.close_in(second, true, &mut faces(&[1])).unwrap_err(),
        RuleViolation::ChargeStep("an earlier charge must be resolved first")
    );
    // the Veteran attackers with leader pass on 5 or less
    assert_eq!(
        b.close_in(first, true, &mut faces(&[5])).unwrap(),
        CloseReport::Closed
    );
}

#[test]
fn the_game_ends_at_the_turn_limit() {
    // TSATF-SEQ-09
    let mut o = Options::default();
    o.turn_limit = Some(1);
    let mut b = battle_with(o);
    assert_eq!(b.game_over(), None);
    to_phase(&mut b, Phase::Morale);
    b.advance().unwrap();
    assert_eq!(b.game_over(), Some(GameEnd::TurnLimit));
    assert_eq!(b.advance().unwrap_err(), RuleViolation::GameOver);
    let _ = (MoveMode::Road, MoraleState::Steady);
}
