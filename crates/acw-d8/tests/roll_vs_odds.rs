//! Every random procedure's fast `roll` agrees with its exact `odds` (a fixed-seed statistical check).

use acw_core::testing::assert_roll_matches_odds;
use acw_core::{BySide, Die, Side};
use acw_d8::Options;
use acw_d8::army::{
    ArmyFigures, BatteryCount, BatteryType, CavalryCompanies, ClassRoll, ExtraRegiments,
    FootStrength, RegimentSize, RollOff, SharpshooterClass,
};
use acw_d8::environment::{GameLength, NightDay, Wind};
use acw_d8::fire::{OfficerCheck, Saves, ToHit, Volley};
use acw_d8::flank::FlankArrival;
use acw_d8::formation::FormationTest;
use acw_d8::map::{EndPoint, FeatureEnds, MapChoice, Square, TerrainInSquare};
use acw_d8::melee::{Melee, Pairing};
use acw_d8::movement::Hazard;
use acw_d8::sequence::FirstMove;
use acw_d8::structures::Bombard;
use acw_d8::tables::{Band, Class, GunType, TargetKind};

#[test]
fn setup_procedures() {
    // D8-SET-03 choosing sides, D8-SEQ-02 the D10 roll-off.
    assert_roll_matches_odds(&RollOff { die: Die::D6 });
    assert_roll_matches_odds(&RollOff { die: Die::D10 });
    // D8-SET-07, D8-SET-05, D8-SET-08, D8-SET-09, D8-SET-14.
    let sq = Square::new(8).unwrap_or_else(|_| unreachable!());
    assert_roll_matches_odds(&TerrainInSquare {
        square: sq,
        separate_fields: false,
    });
    assert_roll_matches_odds(&TerrainInSquare {
        square: sq,
        separate_fields: true,
    });
    assert_roll_matches_odds(&EndPoint::default());
    assert_roll_matches_odds(&EndPoint {
        reroll_corner_labels: true,
    });
    assert_roll_matches_odds(&FeatureEnds::default());
    assert_roll_matches_odds(&MapChoice);
    // D8-SET-19 to D8-SET-22, D8-SET-25, D8-SET-27 to D8-SET-30.
    assert_roll_matches_odds(&ExtraRegiments::default());
    assert_roll_matches_odds(&ExtraRegiments { d4_3_veteran: true });
    for class in Class::ALL {
        assert_roll_matches_odds(&RegimentSize { class });
    }
    assert_roll_matches_odds(&FootStrength::default());
    assert_roll_matches_odds(&ArmyFigures {
        side: Side::Union,
        d4_3_veteran: false,
    });
    assert_roll_matches_odds(&ArmyFigures {
        side: Side::Confederate,
        d4_3_veteran: true,
    });
    assert_roll_matches_odds(&CavalryCompanies { side: Side::Union });
    assert_roll_matches_odds(&CavalryCompanies {
        side: Side::Confederate,
    });
    assert_roll_matches_odds(&SharpshooterClass);
    assert_roll_matches_odds(&ClassRoll);
    assert_roll_matches_odds(&BatteryCount);
    assert_roll_matches_odds(&BatteryType);
}

#[test]
fn play_procedures() {
    // D8-SEQ-02.
    assert_roll_matches_odds(&FirstMove::default());
    assert_roll_matches_odds(&FirstMove {
        cavalry: BySide::new(8, 4),
        ..FirstMove::default()
    });
    // D8-MOV-18, D8-MOV-19.
    assert_roll_matches_odds(&Hazard::jump(6));
    assert_roll_matches_odds(&Hazard::river(8));
    // D8-FRM-04, D8-MOV-26.
    for class in Class::ALL {
        assert_roll_matches_odds(&FormationTest { class, d6: false });
        assert_roll_matches_odds(&FormationTest { class, d6: true });
    }
    // D8-FIR-10, D8-FIR-13, D8-FIR-14, D8-ART-06.
    assert_roll_matches_odds(&ToHit { dice: 12, need: 4 });
    assert_roll_matches_odds(&Saves {
        hits: 7,
        save: Some(5),
    });
    assert_roll_matches_odds(&Saves {
        hits: 3,
        save: None,
    });
    assert_roll_matches_odds(&Volley::new(
        Class::Experienced,
        true,
        TargetKind::Skirmishers,
        6,
        4,
        Some(3),
    ));
    assert_roll_matches_odds(&Volley::new(
        Class::Veteran,
        false,
        TargetKind::Column,
        24,
        0,
        Some(6),
    ));
    // D8-CAS-03.
    assert_roll_matches_odds(&OfficerCheck { casualties: 2 });
    assert_roll_matches_odds(&OfficerCheck { casualties: 4 });
    // D8-MEL-09.
    let pairings = vec![
        Pairing {
            attackers: 3,
            need: 8,
        },
        Pairing {
            attackers: 1,
            need: 4,
        },
        Pairing {
            attackers: 2,
            need: 6,
        },
    ];
    assert_roll_matches_odds(&Melee {
        pairings: pairings.clone(),
        pooled: false,
    });
    assert_roll_matches_odds(&Melee {
        pairings,
        pooled: true,
    });
    // D8-STR-05.
    let o = Options::default();
    assert_roll_matches_odds(&Bombard::new(
        GunType::Field,
        7,
        Class::Experienced,
        Band::Short,
        &o,
    ));
    assert_roll_matches_odds(&Bombard::new(GunType::Heavy, 2, Class::Raw, Band::Long, &o));
    // D8-ENV-02 to D8-ENV-05.
    assert_roll_matches_odds(&NightDay);
    assert_roll_matches_odds(&GameLength);
    assert_roll_matches_odds(&Wind);
    // D8-OPT-03.
    assert_roll_matches_odds(&FlankArrival);
}
