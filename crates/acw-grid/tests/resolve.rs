//! Every random procedure's fast `roll` agrees with its exact `odds` (the shared statistical check), and its
//! odds sum to 1.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use acw_core::Side;
use acw_core::testing::assert_roll_matches_odds;
use acw_grid::casualties::CoverHalving;
use acw_grid::combat::{CombatOdds, CombatSide};
use acw_grid::command::{CommandCheck, CommanderRoll};
use acw_grid::fire::{Bombardment, Skirmish};
use acw_grid::morale::{MoraleTest, UnitMorale};
use acw_grid::movement::{EntrenchRoll, EntrenchTurns};
use acw_grid::options::{BombardCoverScope, CancelTiming, FractionMode, HitComparison};
use acw_grid::pool::HitPool;
use acw_grid::sequence::{Initiative, TieBreak};

fn pool(groups: &[(i8, u32)]) -> HitPool {
    groups
        .iter()
        .fold(HitPool::EMPTY, |p, &(m, n)| p.with(n, m).unwrap())
}

#[test]
fn hit_pools() {
    // GRID-MEL-09, GRID-ART-05, GRID-FIR-04
    assert_roll_matches_odds(&pool(&[(0, 6)]));
    assert_roll_matches_odds(&pool(&[(-1, 2), (0, 3), (1, 2), (2, 1)]));
    assert_roll_matches_odds(&HitPool::EMPTY);
}

#[test]
fn halving() {
    // GRID-CAS-05
    for mode in [
        FractionMode::RoundDown,
        FractionMode::CarryFractions,
        FractionMode::DiceForFraction,
    ] {
        for hits in [0, 3, 4] {
            assert_roll_matches_odds(&CoverHalving {
                hits,
                mode,
                carry: true,
            });
        }
    }
}

#[test]
fn skirmish_and_bombardment() {
    // GRID-FIR-04, GRID-FIR-05, GRID-ART-05, GRID-ART-07
    for mode in [
        FractionMode::RoundDown,
        FractionMode::DiceForFraction,
        FractionMode::CarryFractions,
    ] {
        assert_roll_matches_odds(&Skirmish {
            pool: pool(&[(0, 2), (1, 1)]),
            cover: true,
            fractions: mode,
            carry: false,
        });
        for scope in [
            BombardCoverScope::PerTargetPerPhase,
            BombardCoverScope::PerBattery,
        ] {
            assert_roll_matches_odds(&Bombardment {
                batteries: vec![pool(&[(0, 2)]), pool(&[(1, 2), (-1, 1)])],
                cover: true,
                fractions: mode,
                carry: false,
                scope,
            });
        }
    }
    assert_roll_matches_odds(&Bombardment {
        batteries: vec![pool(&[(0, 4)])],
        cover: false,
        fractions: FractionMode::RoundDown,
        carry: false,
        scope: BombardCoverScope::PerTargetPerPhase,
    });
}

#[test]
fn initiative_and_command() {
    // GRID-SEQ-02, GRID-SEQ-03, GRID-SEQ-04, GRID-CMD-01..03, GRID-CMD-06
    for tie in [
        TieBreak::KeepLastOrder,
        TieBreak::Reroll,
        TieBreak::ScenarioFirst(Side::Confederate),
    ] {
        for bonus in [None, Some(Side::Union)] {
            assert_roll_matches_odds(&Initiative { bonus, tie });
        }
    }
    for (u, d) in [(false, false), (true, false), (false, true), (true, true)] {
        assert_roll_matches_odds(&CommandCheck {
            unit_roll: u,
            division_roll: d,
        });
    }
    assert_roll_matches_odds(&CommanderRoll);
}

#[test]
fn entrenching() {
    // GRID-MOV-26
    for progress in [0, 3, 5] {
        assert_roll_matches_odds(&EntrenchRoll { progress });
        assert_roll_matches_odds(&EntrenchTurns { progress });
    }
}

#[test]
fn morale() {
    // GRID-MOR-01, GRID-MOR-03
    for modifier in [-1, 0, 1] {
        assert_roll_matches_odds(&MoraleTest { modifier });
    }
    assert_roll_matches_odds(&UnitMorale {
        classes: [true, true, true],
    });
}

#[test]
fn whole_combat() {
    // GRID-MEL-19
    let a = CombatSide {
        pool: pool(&[(0, 4), (1, 1)]),
        cover: true,
        commander: true,
        capacity: 4,
        morale: -1,
    };
    let b = CombatSide {
        pool: pool(&[(0, 3)]),
        cover: false,
        commander: true,
        capacity: 6,
        morale: 1,
    };
    assert_roll_matches_odds(&CombatOdds::new(a, b));
    let mut o = CombatOdds::new(a, b);
    o.fractions = FractionMode::DiceForFraction;
    o.cancel = CancelTiming::BeforeCover;
    o.comparison = HitComparison::Raw;
    assert_roll_matches_odds(&o);
}
