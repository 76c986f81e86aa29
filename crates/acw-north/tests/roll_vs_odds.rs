//! Every random procedure's fast `roll` agrees with its exact `odds` (fixed-seed statistical check).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use acw_core::testing::assert_roll_matches_odds;
use acw_north::combat::CombatToss;
use acw_north::command::{OrderChangeToss, OrderCheck, RallyToss};
use acw_north::morale::{Choice, ChoicePolicy, MoraleCheck, MoraleToss, RallyPolicy, WholeAttack};
use acw_north::movement::{AccomplishmentToss, ObstacleToss};
use acw_north::tables::BrigadeOrder;

#[test]
fn accomplishment_and_obstacle() {
    for capacity in [1, 3, 4, 6] {
        for charge_cover in [false, true] {
            assert_roll_matches_odds(&AccomplishmentToss {
                capacity,
                charge_cover,
            });
        }
    }
    for obstacles in [0, 1, 3] {
        for per_obstacle in [false, true] {
            assert_roll_matches_odds(&ObstacleToss {
                obstacles,
                per_obstacle,
            });
        }
    }
}

#[test]
fn command_tosses() {
    assert_roll_matches_odds(&OrderChangeToss);
    assert_roll_matches_odds(&RallyToss { melee: false });
    assert_roll_matches_odds(&RallyToss { melee: true });
    for current in [
        BrigadeOrder::Withdraw,
        BrigadeOrder::Hold,
        BrigadeOrder::Advance,
    ] {
        assert_roll_matches_odds(&OrderCheck { current });
    }
}

#[test]
fn combat_toss() {
    for modifier in [-2, -1, 0, 2, 4] {
        assert_roll_matches_odds(&CombatToss {
            modifier,
            automatic: false,
        });
    }
    assert_roll_matches_odds(&CombatToss {
        modifier: -3,
        automatic: true,
    });
}

#[test]
fn morale_tosses_and_checks() {
    for modifier in [-2, 0, 2] {
        assert_roll_matches_odds(&MoraleToss { modifier });
        for rallies in [0, 1, 2] {
            for policy in [RallyPolicy::Always, RallyPolicy::IfWouldNotRally] {
                for declared_before in [false, true] {
                    for melee in [false, true] {
                        assert_roll_matches_odds(&MoraleCheck {
                            modifier,
                            rallies,
                            melee,
                            policy,
                            declared_before,
                        });
                    }
                }
            }
        }
    }
}

#[test]
fn whole_attack() {
    for (stands, artillery) in [(4, false), (3, false), (2, true), (1, true)] {
        for choice in [
            ChoicePolicy::Always(Choice::FallBack),
            ChoicePolicy::Always(Choice::LoseStand),
            ChoicePolicy::default(),
        ] {
            let check = MoraleCheck {
                rallies: 1,
                melee: true,
                ..MoraleCheck::default()
            };
            assert_roll_matches_odds(&WholeAttack {
                toss: CombatToss {
                    modifier: 1,
                    automatic: false,
                },
                check,
                stands,
                artillery,
                crews_removed: artillery,
                choice,
            });
        }
    }
}
