//! Organisation, forces and scenarios: GRID-SET-02 to GRID-SET-12, GRID-SEQ-09, GRID-OPT-02 to GRID-OPT-04,
//! GRID-VIC-01.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::Side;
use acw_core::vocab::{Formation, Mount};
use acw_grid::board::{GridKind, Terrain};
use acw_grid::error::{GridError, RuleViolation};
use acw_grid::options::{Scale, SquareDistance};
use acw_grid::setup::{
    ArmyScale, RosterLine, Scenario, UnitSpec, roster_stands, standard_unit, stands,
};
use acw_grid::state::{BrigadeId, CommanderId, DivisionId, Phase, Rank, Stand};
use acw_grid::tables::{self, Firepower, OrgUnit, StandType};
use common::*;

#[test]
fn set_02_stand_scale() {
    // GRID-SET-02: 400-500 men a stand (earlier 400-600), 6-8 guns a battery stand.
    assert_eq!(
        tables::stand_scale(StandType::Infantry),
        Some((400, 500, "men"))
    );
    assert_eq!(
        tables::stand_scale(StandType::Artillery),
        Some((6, 8, "guns"))
    );
    assert_eq!(tables::stand_scale(StandType::Wagons), None);
    assert_eq!(tables::MEN_PER_STAND_DRAFT, (400, 600));
    assert_eq!(tables::AREA_YARDS, (300, 500));
}

#[test]
fn set_03_piece_types_and_formations() {
    // GRID-SET-03: four stand types; cavalry mounted or not; deployed or march column; commanders are not stands.
    let mut b = square();
    let cav = put(
        &mut b,
        Side::Union,
        a(2, 2),
        &stand(Side::Union, StandType::Cavalry),
        3,
        0,
    );
    assert_eq!(b.unit(cav).unwrap().mount(), Mount::Mounted);
    let gun = b
        .deploy(
            UnitSpec::new(
                Side::Union,
                a(3, 2),
                vec![stand(Side::Union, StandType::Artillery)],
            )
            .column(),
        )
        .unwrap();
    assert_eq!(
        b.unit(gun).unwrap().limber(),
        acw_core::vocab::Limber::Limbered
    );
    let mut bad = UnitSpec::new(Side::Union, a(4, 2), vec![inf(Side::Union)]);
    bad.formation = Formation::Square;
    assert!(matches!(
        b.deploy(bad),
        Err(RuleViolation::Input(GridError::BadStand(_)))
    ));
    // Wagons have no combat qualities.
    let w = stand(Side::Union, StandType::Wagons).shock();
    assert!(w.validate().is_err());
    // Commanders stand in an area without counting as stands.
    assert_eq!(b.stands_in(a(0, 0)), 0);
}

#[test]
fn set_04_every_stand_has_a_division_commander() {
    // GRID-SET-04: stands need a Division Commander of their side; Division Commanders answer to a Corps Commander.
    let mut b = square();
    let orphan = Stand::new(StandType::Infantry, DivisionId(77), BrigadeId(1));
    assert!(matches!(
        b.deploy(UnitSpec::new(Side::Union, a(3, 3), vec![orphan])),
        Err(RuleViolation::Inconsistent(_))
    ));
    assert_eq!(b.commander(UNION_DC).unwrap().superior(), Some(UNION_CORPS));
    // A division commander cannot answer to another division commander.
    assert!(
        b.add_commander(
            CommanderId(9),
            Side::Union,
            Rank::Division(DivisionId(9)),
            Some(UNION_DC),
            a(1, 1)
        )
        .is_err()
    );
    assert_eq!(
        b.add_commander(UNION_DC, Side::Union, Rank::Corps, None, a(1, 1)),
        Err(RuleViolation::Input(GridError::DuplicateId(1)))
    );
}

#[test]
fn set_05_area_unit_keeps_brigades() {
    // GRID-SET-05: all stands of a side in one area are one unit; brigades stay known, mixed units allowed.
    let mut b = square();
    let mut v = stands(3, &Stand::new(StandType::Infantry, UNION_DIV, BrigadeId(1)));
    v.push(
        Stand::new(StandType::Artillery, UNION_DIV, BrigadeId(2))
            .with_firepower(Firepower::Superior),
    );
    let id = b.deploy(UnitSpec::new(Side::Union, a(4, 4), v)).unwrap();
    let u = b.unit(id).unwrap();
    assert_eq!(u.stand_count(), 4);
    assert_eq!(
        u.stands()
            .iter()
            .filter(|s| s.brigade == BrigadeId(2))
            .count(),
        1
    );
    // Each stand is assessed on its own: the mixed unit moves at the slower rate (both 2 areas).
    assert_eq!(u.allowance_halves(), 4);
    // A second unit of the same side in that area is refused: it would have to join.
    assert!(
        b.deploy(UnitSpec::new(Side::Union, a(4, 4), vec![inf(Side::Union)]))
            .is_err()
    );
}

#[test]
fn set_06_standard_unit_sizes() {
    // GRID-SET-06: 3-stand brigades, 1-stand batteries (2-stand battalions as first planned).
    assert_eq!(tables::standard_stands(OrgUnit::InfantryBrigade), 3);
    assert_eq!(tables::standard_stands(OrgUnit::CavalryBrigade), 3);
    assert_eq!(tables::standard_stands(OrgUnit::Battery), 1);
    assert_eq!(tables::standard_stands(OrgUnit::ArtilleryBattalion), 2);
    let v = standard_unit(OrgUnit::CavalryBrigade, UNION_DIV, BrigadeId(5));
    assert_eq!(v.len(), 3);
    assert!(v.iter().all(|s| s.kind == StandType::Cavalry));
}

#[test]
fn set_07_army_generation() {
    // GRID-SET-07: units = round(strength / (3 x men per stand)), guns / 7 for batteries.
    let s = ArmyScale::default();
    assert_eq!(s.men_per_stand(), 450);
    assert_eq!(s.units_for_division(6000), 4); // 6000 / 1350 = 4.44
    assert_eq!(s.units_for_division(6100), 5); // 4.52
    let big = ArmyScale::new(600).unwrap();
    assert_eq!(big.units_for_division(6000), 3); // 6000 / 1800 = 3.33
    assert_eq!(s.artillery_stands(24), 3); // 3.43
    assert_eq!(s.artillery_stands(4), 1); // 0.57
    assert!(ArmyScale::new(399).is_err() && ArmyScale::new(601).is_err());
}

#[test]
fn set_08_stand_attributes() {
    // GRID-SET-08: firepower, shock, elite, unsteady and tenacity per stand.
    let s = inf(Side::Union)
        .with_firepower(Firepower::Superior)
        .shock()
        .elite()
        .tenacious();
    assert!(s.shock && s.elite && s.tenacity && !s.unsteady);
    assert_eq!(s.morale_modifier(), 1);
    assert_eq!(inf(Side::Union).unsteady().morale_modifier(), -1);
    assert_eq!(inf(Side::Union).elite().unsteady().morale_modifier(), 0);
    assert_eq!(s.quality_score(), 3);
}

#[test]
fn set_10_stacking_limit() {
    // GRID-SET-10: at most 6 stands in an area; opposing stands never share one.
    let mut b = square();
    let big = UnitSpec::new(Side::Union, a(3, 3), stands(7, &inf(Side::Union)));
    assert_eq!(
        b.deploy(big),
        Err(RuleViolation::OverStacked {
            area: a(3, 3),
            stands: 7,
            limit: 6
        })
    );
    put_inf(&mut b, Side::Union, a(3, 3), 6, 0);
    assert_eq!(
        b.deploy(UnitSpec::new(
            Side::Confederate,
            a(3, 3),
            vec![inf(Side::Confederate)]
        )),
        Err(RuleViolation::EnemyInArea(a(3, 3)))
    );
    assert!(b.validate().is_ok());
}

#[test]
fn set_11_scenario_builds_a_battle() {
    // GRID-SET-11: a scenario sets terrain, forces, options (initiative bonus) and length; built with checks.
    let s = Scenario::meeting_engagement(7, GridKind::Square);
    let b = s.build().unwrap();
    assert_eq!(b.units().count(), 14);
    assert_eq!(b.turn_limit(), Some(12));
    assert_eq!(
        b.units()
            .filter(|u| u.side() == Side::Union)
            .map(|u| u.stand_count())
            .sum::<u32>(),
        17
    );
    // The same seed gives the same scenario; another seed other terrain.
    assert_eq!(Scenario::meeting_engagement(7, GridKind::Square), s);
    assert_ne!(
        Scenario::meeting_engagement(8, GridKind::Square).board,
        s.board
    );
    let h = Scenario::meeting_engagement(7, GridKind::Hex)
        .build()
        .unwrap();
    assert_eq!(h.units().count(), 14);
    // A scenario with a bad placement is refused.
    let mut bad = s.clone();
    bad.units[1].area = bad.units[0].area;
    assert!(bad.build().is_err());
    // Scenario options carry the initiative bonus and fortifications are terrain.
    let mut s2 = s.clone();
    s2.options.initiative_bonus = Some(Side::Confederate);
    s2.board
        .set_terrain(
            a(5, 5),
            Terrain {
                fortification: true,
                ..Terrain::OPEN
            },
        )
        .unwrap();
    let b2 = s2.build().unwrap();
    assert_eq!(b2.options().initiative_bonus, Some(Side::Confederate));
    assert!(b2.board().terrain(a(5, 5)).unwrap().gives_cover());
}

#[test]
fn set_12_initial_facing_and_formation() {
    // GRID-SET-12: each unit faces a side and is deployed or in column; cavalry starts mounted.
    let mut b = square();
    let spec = UnitSpec::new(
        Side::Union,
        a(2, 2),
        vec![stand(Side::Union, StandType::Cavalry)],
    );
    assert_eq!(spec.mount, Mount::Mounted);
    assert_eq!(spec.formation, Formation::Line);
    let id = b.deploy(spec.facing(facing(&b, 3)).column()).unwrap();
    let u = b.unit(id).unwrap();
    assert_eq!(u.facing().index(), 3);
    assert!(u.in_column());
    let dis = b
        .deploy(
            UnitSpec::new(
                Side::Union,
                a(3, 2),
                vec![stand(Side::Union, StandType::Cavalry)],
            )
            .dismounted(),
        )
        .unwrap();
    assert_eq!(b.unit(dis).unwrap().mount(), Mount::Dismounted);
}

#[test]
fn seq_09_game_length() {
    // GRID-SEQ-09: the scenario sets the number of turns; the game is over after the last.
    let mut b = square();
    b.set_turn_limit(Some(1));
    assert!(!b.game_over());
    go_to(&mut b, Side::Union, Phase::Combat);
    end_turn(&mut b);
    assert_eq!(b.turn(), 2);
    assert!(b.game_over());
}

#[test]
fn opt_02_hidden_units() {
    // GRID-OPT-02: hidden units need the option, cannot be targeted, do not engage until revealed.
    let mut plain = square();
    assert!(
        plain
            .deploy(UnitSpec::new(Side::Union, a(3, 3), vec![inf(Side::Union)]).hidden())
            .is_err()
    );
    let mut b = battle_with(GridKind::Square, 12, 12, opts(|o| o.hidden_units = true));
    let h = b
        .deploy(
            UnitSpec::new(
                Side::Confederate,
                a(5, 7),
                stands(3, &inf(Side::Confederate)),
            )
            .hidden(),
        )
        .unwrap();
    let u = put_inf(&mut b, Side::Union, a(5, 5), 3, 0);
    assert!(b.unit(h).unwrap().hidden());
    // A skirmish at it is refused: hidden units cannot be targeted.
    go_to(&mut b, Side::Union, Phase::Combat);
    assert!(matches!(
        b.skirmish_dice(acw_grid::fire::SkirmishOrder {
            firer: u,
            target: h
        }),
        Err(RuleViolation::BadTarget { .. })
    ));
}

#[test]
fn opt_03_rosters_of_virtual_stands() {
    // GRID-OPT-03: a roster of counts expands to the stands the rules count.
    let lines = [
        RosterLine {
            count: 2,
            stand: inf(Side::Union),
        },
        RosterLine {
            count: 1,
            stand: inf(Side::Union).elite(),
        },
    ];
    let v = roster_stands(&lines, 6).unwrap();
    assert_eq!(v.len(), 3);
    assert_eq!(v.iter().filter(|s| s.elite).count(), 1);
    assert!(roster_stands(&lines, 2).is_err());
    assert!(roster_stands(&[], 6).is_err());
}

#[test]
fn opt_04_variable_unit_sizes() {
    // GRID-OPT-04: stack limit, stands that fight, dice per stand, inner support die: defaults 6 / 3 / 2 / 1.
    let d = Scale::default();
    assert_eq!(
        (
            d.stack_limit(),
            d.fighting_stands(),
            d.dice_per_stand(),
            d.inner_support_dice()
        ),
        (6, 3, 2, 1)
    );
    assert!(Scale::new(4, 5, 2, 1).is_err());
    assert!(Scale::new(0, 0, 2, 1).is_err());
    let s = Scale::new(8, 4, 2, 1).unwrap();
    let mut b = battle_with(GridKind::Square, 12, 12, opts(|o| o.scale = s));
    // 8 stands now fit.
    put_inf(&mut b, Side::Union, a(3, 3), 8, 0);
    assert_eq!(b.stands_in(a(3, 3)), 8);
}

#[test]
fn vic_01_victory_information() {
    // GRID-VIC-01: losses, who holds each area, the turn.
    // Counted diagonally (Chebyshev), the battery on its hill at (8, 8) is 5 areas from (3, 3).
    let mut b = battle_with(
        GridKind::Square,
        12,
        12,
        opts(|o| o.square_distance = SquareDistance::Chebyshev),
    );
    b.board_mut()
        .set_terrain(
            a(8, 8),
            Terrain {
                elevation: 1,
                ..Terrain::OPEN
            },
        )
        .unwrap();
    let u = put_inf(&mut b, Side::Union, a(3, 3), 3, 0);
    let g = put(
        &mut b,
        Side::Confederate,
        a(8, 8),
        &stand(Side::Confederate, StandType::Artillery),
        2,
        2,
    );
    // The battery on its hill reaches 5 areas (GRID-ART-04) with a die a stand: two hits take a stand.
    go_to(&mut b, Side::Union, Phase::Bombardment);
    b.bombardment_phase(
        &[acw_grid::fire::BombardOrder {
            battery: g,
            target: u,
        }],
        &mut dice(&[6, 6]),
    )
    .unwrap();
    let r = b.victory_report();
    assert_eq!(r.turn, 1);
    assert_eq!(r.losses.union.stands_lost, 1);
    assert_eq!(r.stands.union, 2);
    assert_eq!(r.stands.confederate, 2);
    assert_eq!(b.holder(a(8, 8)), Some(Side::Confederate));
    assert_eq!(
        b.objectives_held(Side::Union, &[a(3, 3), a(8, 8), a(0, 1)]),
        1
    );
    assert_eq!(
        r.held,
        vec![(a(3, 3), Side::Union), (a(8, 8), Side::Confederate)]
    );
}

#[test]
fn scenario_commander_ids_are_checked() {
    let mut b = square();
    assert!(
        b.add_commander(CommanderId(50), Side::Union, Rank::Army, None, a(99, 0))
            .is_err()
    );
}

#[test]
fn every_seed_gives_a_meeting_engagement_that_sets_up() {
    // The generator never fails: for a few hundred seeds on both boards the scenario builds, its road runs the
    // whole column (11 links), and it round-trips through the checked loader.
    for seed in 0..200 {
        for kind in [GridKind::Square, GridKind::Hex] {
            let s = Scenario::meeting_engagement(seed, kind);
            let b = s.build().unwrap();
            assert_eq!(b.units().count(), 14, "seed {seed} on {kind:?}");
            let road = s
                .board
                .areas()
                .filter(|a| {
                    s.board
                        .neighbours(*a)
                        .any(|n| n.x == a.x && n.y > a.y && s.board.road_between(*a, n))
                })
                .count();
            assert_eq!(road, 11, "seed {seed} on {kind:?}");
        }
    }
}

#[test]
fn the_default_scenario_is_the_fixed_seed_meeting_engagement_on_squares() {
    let s = Scenario::default();
    assert_eq!(
        s,
        Scenario::meeting_engagement(acw_grid::setup::DEFAULT_SCENARIO_SEED, GridKind::Square)
    );
    assert_eq!(s.board.kind(), GridKind::Square);
    assert_eq!(s.turns, Some(12));
    let json = serde_json::to_string(&s).unwrap();
    let back: Scenario = serde_json::from_str(&json).unwrap();
    assert_eq!(back, s);
}

#[test]
fn army_scale_loads_through_its_checks() {
    // GRID-SET-07: 400 to 600 men a stand, whether built or loaded.
    let ok: ArmyScale = serde_json::from_str(r#"{"men_per_stand":500}"#).unwrap();
    assert_eq!(ok.men_per_stand(), 500);
    let e = serde_json::from_str::<ArmyScale>(r#"{"men_per_stand":0}"#).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("men per stand must be 400 to 600, not 0"),
        "{e}"
    );
    assert!(serde_json::from_str::<ArmyScale>(r#"{"men_per_stand":601}"#).is_err());
}
