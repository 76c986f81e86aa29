//! Movement: dice by the table, penalties, leaders, formations, special movers.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::{Resolve, Side};
use acw_tsatf::battle::MoveOrder;
use acw_tsatf::movement::{self, MoveDice, MoveFacts, SplitMove, TrainState, VehicleMove};
use acw_tsatf::options::{
    Hd6Stacking, RoadB, RoadPartial, RoughPenalty, Rounding, SkirmishCharge, SplitFire, WoundPolicy,
};
use acw_tsatf::setup::UnitSpec;
use acw_tsatf::state::{Formation, MoraleState, Phase, UnitKind};
use acw_tsatf::tables::{FireRow, MoveMode, MoveRow, Quality};
use acw_tsatf::{Options, RuleViolation, UnitId};
use common::*;

fn dice(
    row: MoveRow,
    mode: MoveMode,
    facts: MoveFacts,
    o: &Options,
) -> Result<MoveDice, RuleViolation> {
    movement::move_dice(row, mode, facts, false, o)
}

#[test]
fn the_movement_table() {
    // TSATF-MOV-02
    use MoveMode::*;
    use MoveRow::*;
    let want: [(MoveRow, [Option<u8>; 4]); 9] = [
        (InfantryLine, [Some(3), None, None, Some(4)]),
        (InfantryColumn, [Some(4), Some(5), Some(6), Some(5)]),
        (InfantrySkirmish, [Some(4), None, None, None]),
        (CavalryLine, [Some(4), None, None, Some(6)]),
        (CavalryColumn, [Some(5), Some(6), Some(7), Some(6)]),
        (ArtilleryLimbered, [Some(4), Some(5), None, None]),
        (ArtilleryHandHauled, [Some(2), Some(2), None, None]),
        (Wagon, [Some(4), Some(5), None, None]),
        (PackAnimal, [Some(3), Some(3), None, None]),
    ];
    for (row, cols) in want {
        assert_eq!(
            [
                row.dice(CrossCountry),
                row.dice(Road),
                row.dice(RoadB),
                row.dice(Charge)
            ],
            cols,
            "{row}"
        );
        assert_eq!(row.rough_penalty(), row != InfantrySkirmish);
    }
}

#[test]
fn a_unit_moves_its_rolled_dice() {
    // TSATF-MOV-01: a close-order line rolls 3D6 and may move that far
    let mut b = battle();
    turn(&mut b, Side::Union);
    let r = b
        .move_unit(
            USA_A,
            &MoveOrder {
                mode: Some(MoveMode::CrossCountry),
                ..MoveOrder::default()
            },
            &mut faces(&[2, 3, 4]),
        )
        .unwrap();
    assert_eq!((r.rolled, r.allowance), (9, 9.0));
    assert_eq!(
        r.to_string(),
        "1st Maine, Company A rolled 9\" and may move 9\""
    );
    // a source that runs out changes nothing, not even the card
    turn(&mut b, Side::Union);
    let before = b.clone();
    assert!(matches!(
        b.move_unit(
            USA_B,
            &MoveOrder {
                mode: Some(MoveMode::CrossCountry),
                ..MoveOrder::default()
            },
            &mut faces(&[2])
        ),
        Err(RuleViolation::Dice(_))
    ));
    assert_eq!(b, before);
}

#[test]
fn the_two_road_columns() {
    // TSATF-MOV-03
    let o = Options::default();
    let f = MoveFacts::default();
    assert_eq!(
        dice(MoveRow::InfantryColumn, MoveMode::RoadB, f, &o)
            .unwrap()
            .dice,
        6
    );
    assert!(matches!(
        dice(MoveRow::InfantryLine, MoveMode::RoadB, f, &o),
        Err(RuleViolation::NoRate { .. })
    ));
    // a "–" on the road is the cross-country rate
    assert_eq!(
        dice(MoveRow::InfantryLine, MoveMode::Road, f, &o)
            .unwrap()
            .dice,
        3
    );
    let mut t = Options::default();
    t.road_b = RoadB::Turnpike;
    assert_eq!(
        dice(MoveRow::ArtilleryLimbered, MoveMode::RoadB, f, &t)
            .unwrap()
            .dice,
        5
    );
    t.road_b = RoadB::Ignore;
    assert!(dice(MoveRow::CavalryColumn, MoveMode::RoadB, f, &t).is_err());
}

#[test]
fn road_rates_need_the_whole_move_on_the_road() {
    // TSATF-MOV-04
    let mut o = Options::default();
    assert_eq!(
        movement::road_cost(MoveRow::InfantryColumn, 10.0, 0.0, &o).unwrap(),
        10.0
    );
    assert!(movement::road_cost(MoveRow::InfantryColumn, 10.0, 2.0, &o).is_err());
    o.road_partial = RoadPartial::ProRata;
    // off the road an inch costs 5/4 of a road inch for a column (4D6 across country, 5D6 on the road)
    assert_eq!(
        movement::road_cost(MoveRow::InfantryColumn, 10.0, 2.0, &o).unwrap(),
        12.5
    );
    assert!(movement::road_cost(MoveRow::InfantryColumn, f64::NAN, 2.0, &o).is_err());
}

#[test]
fn who_may_charge_and_with_what_dice() {
    // TSATF-MOV-05
    let mut o = Options::default();
    let f = MoveFacts::default();
    assert_eq!(
        dice(MoveRow::InfantryLine, MoveMode::Charge, f, &o)
            .unwrap()
            .dice,
        4
    );
    assert_eq!(
        dice(MoveRow::CavalryColumn, MoveMode::Charge, f, &o)
            .unwrap()
            .dice,
        6
    );
    assert_eq!(
        dice(MoveRow::InfantrySkirmish, MoveMode::Charge, f, &o)
            .unwrap()
            .dice,
        4
    );
    assert!(dice(MoveRow::ArtilleryLimbered, MoveMode::Charge, f, &o).is_err());
    o.skirmish_charge = SkirmishCharge::MustReform;
    assert!(dice(MoveRow::InfantrySkirmish, MoveMode::Charge, f, &o).is_err());
    // Indians are exempt
    assert_eq!(
        movement::move_dice(MoveRow::InfantrySkirmish, MoveMode::Charge, f, true, &o)
            .unwrap()
            .dice,
        4
    );
}

#[test]
fn rough_ground_drops_the_highest_die() {
    // TSATF-MOV-06
    let mut o = Options::default();
    let rough = MoveFacts {
        rough_features: 2,
        ..MoveFacts::default()
    };
    assert_eq!(
        dice(MoveRow::InfantryLine, MoveMode::CrossCountry, rough, &o).unwrap(),
        MoveDice { dice: 3, drops: 1 }
    );
    assert_eq!(
        dice(MoveRow::InfantrySkirmish, MoveMode::CrossCountry, rough, &o)
            .unwrap()
            .drops,
        0
    );
    o.rough_penalty = RoughPenalty::OncePerFeature;
    assert_eq!(
        dice(MoveRow::InfantryLine, MoveMode::CrossCountry, rough, &o)
            .unwrap()
            .drops,
        2
    );
    o.skirmish_rough_penalty = true;
    assert_eq!(
        dice(MoveRow::InfantrySkirmish, MoveMode::CrossCountry, rough, &o)
            .unwrap()
            .drops,
        2
    );
    // the mean of 3D6 dropping the highest is 133/24; 2D6 dropping the highest is 91/36
    assert!((MoveDice { dice: 3, drops: 1 }.odds().mean() - 133.0 / 24.0).abs() < 1e-12);
    assert!((MoveDice { dice: 2, drops: 1 }.odds().mean() - 91.0 / 36.0).abs() < 1e-12);
    // the rolled move keeps the lowest faces: 6, 1, 4 in rough ground is 5"
    assert_eq!(
        MoveDice { dice: 3, drops: 1 }.roll(&mut faces(&[6, 1, 4])),
        5
    );
}

#[test]
fn penalties_stack() {
    // TSATF-MOV-07
    let mut o = Options::default();
    let f = MoveFacts {
        rough_features: 1,
        limber_change: true,
        ..MoveFacts::default()
    };
    assert_eq!(
        dice(MoveRow::ArtilleryLimbered, MoveMode::CrossCountry, f, &o)
            .unwrap()
            .drops,
        2
    );
    o.hd6_stacking = Hd6Stacking::AtMostOne;
    assert_eq!(
        dice(MoveRow::ArtilleryLimbered, MoveMode::CrossCountry, f, &o)
            .unwrap()
            .drops,
        1
    );
    // a hand-hauled gun in rough ground unlimbering has no die left: it moves 0"
    assert_eq!(MoveDice { dice: 2, drops: 2 }.roll(&mut faces(&[5, 6])), 0);
}

fn cavalry_battle(o: Options) -> acw_tsatf::Battle {
    let units = vec![
        UnitSpec::cavalry(
            "1st Maine Cavalry",
            Side::Union,
            Quality::Veteran,
            16,
            FireRow::CavalryCarbine,
        )
        .unwrap(),
        UnitSpec::gun(
            "Battery A",
            Side::Union,
            Quality::Average,
            UnitKind::Artillery,
            4,
        )
        .unwrap(),
        UnitSpec::infantry("Co. C", Side::Confederate, Quality::Average).unwrap(),
    ];
    battle_of(units, o)
}

#[test]
fn dismounting_costs_a_die_and_leaves_horseholders() {
    // TSATF-MOV-08, TSATF-MOV-09
    let mut b = cavalry_battle(Options::default());
    turn(&mut b, Side::Union);
    let order = MoveOrder {
        mode: Some(MoveMode::CrossCountry),
        mount: Some(false),
        formation: Some((Formation::SkirmishLine, 0.0)),
        ..MoveOrder::default()
    };
    // march column 5D6, one dropped for dismounting: 6 5 4 3 2 -> 5+4+3+2 = 14
    let r = b
        .move_unit(UnitId(0), &order, &mut faces(&[6, 5, 4, 3, 2]))
        .unwrap();
    assert_eq!(r.rolled, 14);
    let u = b.unit(UnitId(0)).unwrap();
    assert!(!u.mounted());
    assert_eq!(u.horseholders(), 4);
    assert_eq!(u.move_row(), Some(MoveRow::InfantrySkirmish));
    // next turn: mounting out of skirmish order needs a mounted formation
    let mut later = b.clone();
    finish_phase(&mut later);
    to_phase(&mut later, Phase::Movement);
    turn(&mut later, Side::Union);
    let bare = MoveOrder {
        mode: Some(MoveMode::CrossCountry),
        mount: Some(true),
        ..MoveOrder::default()
    };
    assert!(matches!(
        later.move_unit(UnitId(0), &bare, &mut faces(&[1; 4])),
        Err(RuleViolation::Cannot { .. })
    ));
    let column = MoveOrder {
        formation: Some((Formation::MarchColumn, 2.0)),
        ..bare
    };
    later
        .move_unit(UnitId(0), &column, &mut faces(&[3; 4]))
        .unwrap();
    assert!(later.unit(UnitId(0)).unwrap().mounted());
    assert_eq!(later.unit(UnitId(0)).unwrap().horseholders(), 0);
    // the gun unlimbers for one die of its 4D6
    turn(&mut b, Side::Union);
    let r = b
        .move_unit(
            UnitId(1),
            &MoveOrder {
                mode: Some(MoveMode::CrossCountry),
                limber: Some(false),
                ..MoveOrder::default()
            },
            &mut faces(&[1, 1, 1, 6]),
        )
        .unwrap();
    assert_eq!(r.rolled, 3);
    assert_eq!(
        b.unit(UnitId(1)).unwrap().formation(),
        Formation::Unlimbered
    );
    // horseholders: one in four, rounded up by default
    let mut o = Options::default();
    assert_eq!(
        (
            movement::horseholders(20, &o),
            movement::horseholders(18, &o)
        ),
        (5, 5)
    );
    o.horseholder_rounding = Rounding::Floor;
    assert_eq!(movement::horseholders(18, &o), 4);
}

#[test]
fn formations_each_kind_may_take() {
    // TSATF-MOV-10
    let mut b = cavalry_battle(Options::default());
    turn(&mut b, Side::Union);
    let skirmish_mounted = MoveOrder {
        mode: Some(MoveMode::CrossCountry),
        formation: Some((Formation::SkirmishLine, 1.0)),
        ..MoveOrder::default()
    };
    assert!(matches!(
        b.move_unit(UnitId(0), &skirmish_mounted, &mut faces(&[1; 5])),
        Err(RuleViolation::Cannot { .. })
    ));
    let line = MoveOrder {
        mode: Some(MoveMode::CrossCountry),
        formation: Some((Formation::CloseOrderLine, 1.0)),
        ..MoveOrder::default()
    };
    b.move_unit(UnitId(0), &line, &mut faces(&[1; 5])).unwrap();
    assert_eq!(
        b.unit(UnitId(0)).unwrap().move_row(),
        Some(MoveRow::CavalryLine)
    );
}

#[test]
fn a_formation_change_costs_the_furthest_figures_distance() {
    // TSATF-MOV-11
    let mut b = battle();
    turn(&mut b, Side::Union);
    let order = MoveOrder {
        mode: Some(MoveMode::CrossCountry),
        formation: Some((Formation::MarchColumn, 4.0)),
        ..MoveOrder::default()
    };
    let r = b.move_unit(USA_A, &order, &mut faces(&[2, 3, 4])).unwrap();
    assert_eq!(r.allowance, 5.0);
    assert_eq!(b.unit(USA_A).unwrap().formation(), Formation::MarchColumn);
    turn(&mut b, Side::Union);
    let long = MoveOrder {
        mode: Some(MoveMode::CrossCountry),
        formation: Some((Formation::SkirmishLine, 12.0)),
        ..MoveOrder::default()
    };
    let before = b.clone();
    assert_eq!(
        b.move_unit(USA_B, &long, &mut faces(&[2, 3, 4]))
            .unwrap_err(),
        RuleViolation::ChangeTooLong {
            needed: 12.0,
            allowed: 9.0
        }
    );
    assert_eq!(b, before);
    let mut o = Options::default();
    o.formation_change_carry = true;
    assert_eq!(movement::formation_change(12.0, 9.0, &o).unwrap(), 0.0);
}

#[test]
fn dismantling_a_fence_takes_the_whole_turn() {
    // TSATF-MOV-12
    let mut b = battle();
    turn(&mut b, Side::Union);
    b.dismantle(USA_A).unwrap();
    assert!(b.unit(USA_A).unwrap().acted());
    assert_eq!(
        b.dismantle(USA_A).unwrap_err(),
        RuleViolation::AlreadyActed("1st Maine, Company A".into())
    );
}

#[test]
fn routed_units_run_off_the_table() {
    // TSATF-MOV-13, TSATF-MOR-08: 4D6 toward the edge every turn, off the table when it gets there
    let mut b = small_battle(Options::default());
    rout_small(&mut b);
    turn(&mut b, Side::Union);
    assert_eq!(
        b.compulsory_move(USA_B, false, &mut faces(&[2, 2, 2, 2]))
            .unwrap(),
        8
    );
    assert!(!b.unit(USA_B).unwrap().off_table());
    // routed units may not move voluntarily; next turn the rout goes on
    assert!(matches!(
        b.move_unit(USA_B, &MoveOrder::default(), &mut faces(&[1, 1, 1])),
        Err(RuleViolation::AlreadyActed(_)) | Err(RuleViolation::MoraleForbids { .. })
    ));
    finish_phase(&mut b);
    to_phase(&mut b, Phase::Movement);
    assert_eq!(
        compulsory(&b, USA_B),
        Some(acw_tsatf::state::Compulsory::Rout)
    );
    turn(&mut b, Side::Union);
    assert_eq!(
        b.compulsory_move(USA_B, true, &mut faces(&[3, 3, 3, 3]))
            .unwrap(),
        12
    );
    assert!(b.unit(USA_B).unwrap().off_table());
    assert_eq!(b.unit(USA_B).unwrap().strength(), 0);
}

#[test]
fn a_failed_major_morale_freezes_the_side() {
    // TSATF-MOV-14, TSATF-MOR-04
    let mut b = small_battle(Options::default());
    to_phase(&mut b, Phase::Firing);
    turn(&mut b, Side::Confederate);
    // an Ace of hearts kills the Union's highest officer (Co. A's lieutenant, the first figure)
    volley(
        &mut b,
        UnitId(2),
        USA_A,
        &[heart(acw_core::cards::Rank::Ace)],
    );
    to_phase(&mut b, Phase::Morale);
    assert!(!b.major_morale(Side::Union, &mut faces(&[6, 6])).unwrap());
    to_phase(&mut b, Phase::Movement);
    assert!(b.unit(USA_A).unwrap().frozen());
    turn(&mut b, Side::Union);
    let go = MoveOrder {
        mode: Some(MoveMode::CrossCountry),
        ..MoveOrder::default()
    };
    assert_eq!(
        b.move_unit(USA_A, &go, &mut faces(&[3, 3, 3])).unwrap_err(),
        RuleViolation::Frozen("Co. A".into())
    );
    // a formation change is still allowed
    let change = MoveOrder {
        mode: None,
        formation: Some((Formation::SkirmishLine, 2.0)),
        ..MoveOrder::default()
    };
    let r = b.move_unit(USA_A, &change, &mut faces(&[3, 3, 3])).unwrap();
    assert_eq!(r.allowance, 0.0);
    assert_eq!(b.unit(USA_A).unwrap().formation(), Formation::SkirmishLine);
}

#[test]
fn carrying_wounded_halves_the_move() {
    // TSATF-MOV-15
    assert_eq!(movement::carrying_wounded(9.0), 4.5);
    assert_eq!(movement::carrying_wounded(7.0), 3.5);
    assert_eq!(movement::carrying_wounded(f64::NAN), 0.0);
    let mut o = Options::default();
    o.wound_policy = WoundPolicy::Campaign;
    let mut b = small_battle(o);
    to_phase(&mut b, Phase::Firing);
    turn(&mut b, Side::Confederate);
    // a diamond wounds a private of Co. A
    volley(
        &mut b,
        UnitId(2),
        USA_A,
        &[acw_core::cards::Card::Suited(
            acw_core::cards::Rank::Five,
            acw_core::cards::Suit::Diamonds,
        )],
    );
    assert_eq!(b.unit(USA_A).unwrap().wounded(), 1);
    assert!(b.carry_wounded(USA_A, 2).is_err());
    b.carry_wounded(USA_A, 1).unwrap();
    to_phase(&mut b, Phase::Movement);
    turn(&mut b, Side::Union);
    let r = b
        .move_unit(
            USA_A,
            &MoveOrder {
                mode: Some(MoveMode::CrossCountry),
                ..MoveOrder::default()
            },
            &mut faces(&[2, 3, 4]),
        )
        .unwrap();
    assert_eq!((r.rolled, r.allowance), (9, 4.5));
}

fn indian_battle() -> acw_tsatf::Battle {
    let units = vec![
        UnitSpec::infantry("Co. A", Side::Union, Quality::Average)
            .unwrap()
            .as_scouts(),
        UnitSpec::infantry("Dog Soldiers", Side::Confederate, Quality::Indians)
            .unwrap()
            .hidden()
            .unwrap(),
        UnitSpec::cavalry(
            "Mounted Braves",
            Side::Confederate,
            Quality::Indians,
            12,
            FireRow::CavalryCarbine,
        )
        .unwrap(),
    ];
    battle_of(units, Options::default())
}

#[test]
fn indians_move_as_skirmishers_or_cavalry_in_column() {
    // TSATF-MOV-16, TSATF-OPT-03
    let b = indian_battle();
    assert_eq!(
        b.unit(UnitId(1)).unwrap().move_row(),
        Some(MoveRow::InfantrySkirmish)
    );
    assert_eq!(
        b.unit(UnitId(2)).unwrap().move_row(),
        Some(MoveRow::CavalryColumn)
    );
    assert_eq!(
        b.unit(UnitId(1)).unwrap().formation(),
        Formation::SkirmishLine
    );
    assert_eq!(Quality::Indians.leaderless_stop_from(), 5);
    assert_eq!(
        (
            Quality::Indians.major_morale(),
            Quality::Indians.critical_morale(true)
        ),
        (7, 8)
    );
}

#[test]
fn hidden_indians_are_revealed_by_nearness_or_scouts() {
    // TSATF-OPT-04
    let mut b = indian_battle();
    to_phase(&mut b, Phase::Firing);
    turn(&mut b, Side::Union);
    let order = acw_tsatf::battle::FireOrder {
        target: UnitId(1),
        range: 10.0,
        in_reach: None,
        area: acw_tsatf::fire::TargetArea {
            figures: 10,
            ..Default::default()
        },
        canister: false,
        with: vec![],
        hit_order: vec![],
    };
    assert_eq!(
        b.fire(USA_A, &order, &mut faces(&[6])).unwrap_err(),
        RuleViolation::Hidden("Dog Soldiers".into())
    );
    assert!(!b.reveal_if_near(UnitId(1), 4.5).unwrap());
    let mut c = indian_battle();
    assert!(c.reveal_if_near(UnitId(1), 4.0).unwrap());
    // scouts find them on a 6
    let mut d = indian_battle();
    turn(&mut d, Side::Union);
    let scout = MoveOrder {
        mode: Some(MoveMode::CrossCountry),
        scout_for: vec![(UnitId(1), 10.0), (UnitId(2), 30.0)],
        ..MoveOrder::default()
    };
    let r = d
        .move_unit(USA_A, &scout, &mut faces(&[1, 1, 1, 6]))
        .unwrap();
    assert_eq!(r.spotted, vec!["Dog Soldiers".to_string()]);
    assert!(!d.unit(UnitId(1)).unwrap().hidden());
}

#[test]
fn split_cavalry_dice() {
    // TSATF-MOV-17, TSATF-OPT-13
    let mut b = cavalry_battle(Options::default());
    turn(&mut b, Side::Union);
    assert!(b.split_move(UnitId(0), &mut faces(&[1; 5])).is_err());
    let mut o = Options::default();
    o.split_cavalry_dice = Some(SplitFire::DuringMovement);
    let mut b = cavalry_battle(o);
    turn(&mut b, Side::Union);
    let mut split = b
        .split_move(UnitId(0), &mut faces(&[2, 6, 3, 5, 1]))
        .unwrap();
    assert_eq!(split.faces(), &[6, 5, 3, 2, 1]);
    assert_eq!(split.spend_move(2), Some(3));
    b.split_mount(UnitId(0), false, &mut split).unwrap();
    assert_eq!(split.faces(), &[5, 2, 1]);
    assert!(!b.unit(UnitId(0)).unwrap().mounted());
    // it fires during its move (carbines reach 24")
    let order = acw_tsatf::battle::FireOrder {
        target: UnitId(2),
        range: 20.0,
        in_reach: None,
        area: acw_tsatf::fire::TargetArea {
            figures: 21,
            close_order: 21,
            ..Default::default()
        },
        canister: false,
        with: vec![],
        hit_order: vec![],
    };
    assert_eq!(split.spend_fire(), Some(1));
    assert_eq!(b.fire(UnitId(0), &order, &mut faces(&[1])).unwrap().hits, 0);
    b.split_mount(UnitId(0), true, &mut split).unwrap();
    assert!(b.unit(UnitId(0)).unwrap().mounted());
    let _ = SplitMove::roll(0, &mut faces(&[]));
}

#[test]
fn leaders_and_the_leaderless_die() {
    // TSATF-CMD-01, TSATF-CMD-02
    let mut b = small_battle(Options::default());
    assert!(b.with_leader(USA_B).unwrap());
    to_phase(&mut b, Phase::Firing);
    turn(&mut b, Side::Confederate);
    // the Ace kills Co. B's only leader, its lieutenant
    volley(
        &mut b,
        UnitId(2),
        USA_B,
        &[heart(acw_core::cards::Rank::Ace)],
    );
    assert!(!b.with_leader(USA_B).unwrap());
    to_phase(&mut b, Phase::Movement);
    turn(&mut b, Side::Union);
    // Average: 4, 5 or 6 stops the unit; the die is rolled before the move dice
    let go = MoveOrder {
        mode: Some(MoveMode::CrossCountry),
        ..MoveOrder::default()
    };
    let r = b.move_unit(USA_B, &go, &mut faces(&[4])).unwrap();
    assert!(r.leaderless_halt);
    assert_eq!(
        r.to_string(),
        "Co. B has no leader and will not move this turn"
    );
    // an officer who joins the unit leads it
    b.attach((USA_A, 0), USA_B, 0.0).unwrap();
    assert!(b.with_leader(USA_B).unwrap());
    assert!(b.attach((USA_A, 5), USA_B, 0.0).is_err());
}

#[test]
fn gunboats_steam_and_strike_torpedoes() {
    // TSATF-OPT-08, TSATF-OPT-09
    let units = vec![
        UnitSpec::gunboat("USS Tinclad", Side::Union, Quality::Average, 2, 24).unwrap(),
        UnitSpec::infantry("Co. C", Side::Confederate, Quality::Average).unwrap(),
    ];
    let mut b = battle_of(units, Options::default());
    turn(&mut b, Side::Union);
    assert_eq!(
        b.gunboat_move(UnitId(0), false, &mut faces(&[1, 2, 3]))
            .unwrap(),
        6
    );
    assert!(!b.torpedo_check(UnitId(0), &mut faces(&[5])).unwrap());
    assert!(b.torpedo_check(UnitId(0), &mut faces(&[6])).unwrap());
    assert!(b.unit(UnitId(0)).unwrap().disabled());
    assert!(
        b.gunboat_move(UnitId(0), true, &mut faces(&[1, 2]))
            .is_err()
    );
    assert_eq!(VehicleMove::GunboatAgainstCurrent.dice(), 2);
}

#[test]
fn trains_start_run_and_stop() {
    // TSATF-OPT-10, TSATF-CAS-07
    assert_eq!(
        movement::train_step(TrainState::Stopped, true, true).unwrap(),
        (VehicleMove::TrainStartOrStop, TrainState::Moving)
    );
    assert_eq!(
        movement::train_step(TrainState::Moving, true, true).unwrap(),
        (VehicleMove::TrainFullSpeed, TrainState::Moving)
    );
    assert_eq!(
        movement::train_step(TrainState::Moving, true, false).unwrap(),
        (VehicleMove::TrainStartOrStop, TrainState::Stopped)
    );
    assert!(movement::train_step(TrainState::Stopped, true, false).is_err());
    let units = vec![
        UnitSpec::train("Up train", Side::Confederate, 4, 3).unwrap(),
        UnitSpec::infantry("Co. A", Side::Union, Quality::Average).unwrap(),
    ];
    let mut b = battle_of(units, Options::default());
    turn(&mut b, Side::Confederate);
    assert_eq!(
        b.train_move(UnitId(0), true, &mut faces(&[3, 4])).unwrap(),
        7
    );
    finish_phase(&mut b);
    to_phase(&mut b, Phase::Movement);
    turn(&mut b, Side::Confederate);
    assert_eq!(
        b.train_move(UnitId(0), true, &mut faces(&[1, 2, 3, 4]))
            .unwrap(),
        10
    );
    // troops getting off drop a die, as dismounting (the unloading reading)
    let f = MoveFacts {
        mount_change: true,
        ..MoveFacts::default()
    };
    assert_eq!(
        dice(
            MoveRow::InfantryLine,
            MoveMode::CrossCountry,
            f,
            &Options::default()
        )
        .unwrap()
        .drops,
        1
    );
    let _ = MoraleState::Steady;
}
