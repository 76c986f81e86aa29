//! Every random procedure's fast `roll` agrees with its exact `odds` (fixed-seed statistical check).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use acw_core::Resolve;
use acw_core::testing::assert_roll_matches_odds;
use acw_tsatf::Options;
use acw_tsatf::fire::{
    AmmunitionRoll, Fire, HitCard, MassFire, Personal, PersonalShot, TypeFire, Volley,
};
use acw_tsatf::melee::{
    CatchRoll, CloseTest, ColoursRoll, Combat, Melee, MeleeSide, StragglerRoll,
};
use acw_tsatf::morale::{MoraleTest, RatingRoll, SixRoll};
use acw_tsatf::movement::{Flight, LeaderlessDie, MoveDice, VehicleMove};
use acw_tsatf::options::{MeleeWoundAsMiss, Remainder, SequencingDeck, Tie, WoundPolicy};
use acw_tsatf::sequence::CardOrder;
use acw_tsatf::tables::{FireRow, Quality, TargetClass};
use strum::IntoEnumIterator;

#[test]
fn movement_dice_agree() {
    // TSATF-MOV-01, TSATF-MOV-06, TSATF-MOV-07: kD6 with the highest dropped, even every die dropped.
    for dice in 1..=7 {
        for drops in 0..=3 {
            assert_roll_matches_odds(&MoveDice { dice, drops });
        }
    }
    // TSATF-CMD-02
    for quality in Quality::iter() {
        assert_roll_matches_odds(&LeaderlessDie { quality });
    }
    // TSATF-MOV-13, TSATF-OPT-08, TSATF-OPT-10
    assert_roll_matches_odds(&Flight);
    for m in [
        VehicleMove::GunboatForward,
        VehicleMove::GunboatAgainstCurrent,
        VehicleMove::TrainStartOrStop,
        VehicleMove::TrainFullSpeed,
    ] {
        assert_roll_matches_odds(&m);
    }
}

#[test]
fn fire_agrees() {
    // TSATF-FIR-10, TSATF-FIR-11: every row and class, every leftover rule
    for row in FireRow::iter() {
        for class in TargetClass::iter() {
            for remainder in [Remainder::Drop, Remainder::RoundHalfUp, Remainder::Chance] {
                assert_roll_matches_odds(&MassFire {
                    row,
                    class,
                    figures: 17,
                    remainder,
                    green_class3_pattern: false,
                });
            }
            // TSATF-FIR-23
            assert_roll_matches_odds(&TypeFire::of(row, class, 12, &Options::default()));
        }
    }
    // TSATF-FIR-18: whole volleys with their cards, both systems, every wound policy
    for wounds in [
        WoundPolicy::WoundsAsKills,
        WoundPolicy::WoundsAsMisses,
        WoundPolicy::Campaign,
    ] {
        let mass = MassFire {
            row: FireRow::CrackMusket,
            class: TargetClass::I,
            figures: 9,
            remainder: Remainder::Drop,
            green_class3_pattern: false,
        };
        assert_roll_matches_odds(&Volley {
            fire: Fire::Mass(mass),
            wounds,
        });
        let typed = TypeFire::of(FireRow::Canister, TargetClass::II, 6, &Options::default());
        assert_roll_matches_odds(&Volley {
            fire: Fire::Type(typed),
            wounds,
        });
    }
    // TSATF-FIR-14, TSATF-FIR-19, TSATF-FIR-20, TSATF-SET-09
    assert_roll_matches_odds(&HitCard);
    // TSATF-FIR-15: a real deck with the hearts and the aces gone
    let left: Vec<acw_core::cards::Card> = acw_tsatf::fire::FULL_DECK
        .iter()
        .copied()
        .filter(|c| {
            c.suit() != Some(acw_core::cards::Suit::Hearts)
                && c.rank() != Some(acw_core::cards::Rank::Ace)
        })
        .collect();
    let partial = acw_tsatf::fire::DeckHitCard { pile: &left };
    assert_roll_matches_odds(&partial);
    assert!(
        partial
            .odds()
            .prob(|&(e, _)| e == acw_tsatf::tables::HitEffect::Killed)
            == 0.0
    );
    assert!(
        (partial
            .odds()
            .prob(|&(e, _)| e == acw_tsatf::tables::HitEffect::Wounded)
            - 12.0 / 36.0)
            .abs()
            < 1e-12
    );
    assert_roll_matches_odds(&PersonalShot(Personal::Pistol));
    assert_roll_matches_odds(&PersonalShot(Personal::SniperRifle));
    assert_roll_matches_odds(&AmmunitionRoll);
}

#[test]
fn tests_agree() {
    let o = Options::default();
    for quality in Quality::iter() {
        for leader in [false, true] {
            for m in [-2, 0, 1, 3] {
                // TSATF-MEL-08, TSATF-MOR-03
                assert_roll_matches_odds(&CloseTest::new(quality, leader, m, &o));
                assert_roll_matches_odds(&MoraleTest::critical(quality, leader, m));
            }
        }
        assert_roll_matches_odds(&MoraleTest::major(quality, 0));
    }
    // TSATF-OPT-01, TSATF-OPT-04, TSATF-MEL-23
    assert_roll_matches_odds(&RatingRoll);
    assert_roll_matches_odds(&SixRoll);
    assert_roll_matches_odds(&ColoursRoll);
}

#[test]
fn charges_and_melee_agree() {
    // TSATF-MEL-02, TSATF-MEL-06, TSATF-MEL-11
    for charging in [8, 12, 16, 21] {
        assert_roll_matches_odds(&StragglerRoll {
            charging,
            may_straggle: charging - 3,
            starting: 21,
        });
    }
    for unused in [0.0, 9.5, 14.0, 25.0] {
        assert_roll_matches_odds(&CatchRoll { unused });
    }
    // TSATF-MEL-15
    for modifier in -6..=6 {
        assert_roll_matches_odds(&Combat { modifier });
    }
    // TSATF-MEL-17 under every wound and tie reading
    let side = |cadre, others, modifier, cadre_first| MeleeSide {
        cadre,
        others,
        modifier,
        cadre_first,
    };
    for (policy, as_miss, tie) in [
        (
            WoundPolicy::WoundsAsKills,
            MeleeWoundAsMiss::NoEffect,
            Tie::NoEffect,
        ),
        (
            WoundPolicy::Campaign,
            MeleeWoundAsMiss::NoEffect,
            Tie::Reroll,
        ),
        (
            WoundPolicy::WoundsAsMisses,
            MeleeWoundAsMiss::NoEffect,
            Tie::NoEffect,
        ),
        (
            WoundPolicy::WoundsAsMisses,
            MeleeWoundAsMiss::PushedBack,
            Tie::Reroll,
        ),
    ] {
        let mut o = Options::default();
        o.wound_policy = policy;
        o.melee_wound_as_miss = as_miss;
        o.tie = tie;
        assert_roll_matches_odds(&Melee::new(side(1, 4, 1, true), side(1, 3, 2, false), &o));
        assert_roll_matches_odds(&Melee::new(side(2, 0, -1, true), side(0, 3, 0, true), &o));
        // TSATF-MEL-26: two places on the obstacle, the rest reserves
        assert_roll_matches_odds(
            &Melee::new(side(1, 4, -1, true), side(1, 3, 2, false), &o).with_front(2),
        );
        // TSATF-MEL-17 with overlapping pairs: the extras gang up on the smaller side
        o.melee_overlap = true;
        assert_roll_matches_odds(&Melee::new(side(1, 4, 1, true), side(1, 1, 2, false), &o));
        assert_roll_matches_odds(&Melee::new(side(0, 2, 0, true), side(1, 4, -1, true), &o));
        // overlapping is given up where the obstacle cannot hold the larger side
        assert_roll_matches_odds(
            &Melee::new(side(0, 2, 0, true), side(1, 4, -1, true), &o).with_front(3),
        );
    }
}

#[test]
fn card_orders_agree() {
    // TSATF-SEQ-03, TSATF-SEQ-04, both deck readings
    for (u, c) in [(1, 1), (3, 2), (2, 4)] {
        for kind in [SequencingDeck::PerUnit, SequencingDeck::Full52WithSkip] {
            assert_roll_matches_odds(&CardOrder::new(u, c, kind).unwrap());
        }
    }
}
