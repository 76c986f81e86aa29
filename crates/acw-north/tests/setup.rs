//! Organisation, setup validation and the default scenario (NORTH-SET-*).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::measure::{Heading, Inches, Point};
use acw_core::vocab::Mount;
use acw_core::{Arm, Side};
use acw_north::error::SetupError;
use acw_north::setup::{
    ArmySpec, Scenario, Table, Terrain, UnitSpec, default_army, default_forces, mg_position,
    validate_army_size, validate_brigade,
};
use acw_north::state::{GeneralStatus, GunState, Rank, UnitStatus};
use acw_north::tables::{
    BrigadeOrder, Formation, MgPlacement, Quality, StandKind, Troop, crew_figures,
    figures_per_stand, mg_placement, starting_stands,
};
use acw_north::{Battle, Options};
use common::*;

#[test]
fn north_set_01_unit_composition() {
    // NORTH-SET-01: infantry 4 stands of 2, mounted cavalry 4 of 1, artillery a gun and 2 crew stands of 2.
    let b = battle();
    let inf = b.unit(id(&b, "USA 1st Bde, Regt 1")).unwrap();
    assert_eq!((inf.current_stands(), inf.figures()), (4, 8));
    let cav = b.unit(id(&b, "USA Cav Bde, Regt 1")).unwrap();
    assert_eq!(
        (cav.current_stands(), cav.figures(), cav.mount()),
        (4, 4, Mount::Mounted)
    );
    let art = b.unit(id(&b, "USA 1st Bde, Battery")).unwrap();
    assert_eq!((art.current_stands(), art.figures()), (2, 4));
    assert_eq!(art.gun(), Some(GunState::Manned));
    assert_eq!(figures_per_stand(StandKind::HorseHolder), None);
    assert_eq!(figures_per_stand(StandKind::DismountedCavalry), Some(2));
    // A cavalry unit set up dismounted: 3 fighting stands of 2 figures and a horse holder, 4 stands in all.
    let d = duel(
        UnitSpec::cavalry("x", Quality::Standard).dismounted(),
        UnitSpec::infantry("x", Quality::Standard),
        UnitSpec::infantry("x", Quality::Standard),
        UnitSpec::infantry("x", Quality::Standard),
        Options::default(),
    );
    let dc = d.unit(id(&d, "U1")).unwrap();
    assert_eq!(dc.troop(), Troop::DismountedCavalry);
    assert_eq!(
        (dc.current_stands(), dc.figures(), dc.has_horse_holder()),
        (4, 6, true)
    );
}

#[test]
fn north_set_02_quality_sets_stands() {
    // NORTH-SET-02
    assert_eq!(starting_stands(Arm::Infantry, Quality::Elite), 5);
    assert_eq!(starting_stands(Arm::Cavalry, Quality::Standard), 4);
    assert_eq!(starting_stands(Arm::Infantry, Quality::Poor), 3);
    assert_eq!(
        crew_figures(starting_stands(Arm::Artillery, Quality::Elite)),
        6
    );
    assert_eq!(
        crew_figures(starting_stands(Arm::Artillery, Quality::Standard)),
        4
    );
    let b = duel(
        UnitSpec::infantry("x", Quality::Elite),
        UnitSpec::artillery("x", Quality::Poor),
        UnitSpec::cavalry("x", Quality::Elite).dismounted(),
        UnitSpec::artillery("x", Quality::Elite),
        Options::default(),
    );
    let o = Options::default();
    assert_eq!(b.unit(id(&b, "U1")).unwrap().current_stands(), 5);
    assert_eq!(b.unit(id(&b, "U1")).unwrap().quality(), Quality::Elite);
    let poor_gun = b.unit(id(&b, "U2")).unwrap();
    assert_eq!((poor_gun.current_stands(), poor_gun.capacity(&o)), (1, 2));
    // Elite dismounted cavalry: 4 + 1.
    let dc = b.unit(id(&b, "C1")).unwrap();
    assert_eq!((dc.current_stands(), dc.figures()), (5, 8));
    assert_eq!(b.unit(id(&b, "C2")).unwrap().capacity(&o), 6);
}

#[test]
fn north_set_03_army_size_and_north_opt_39() {
    // NORTH-SET-03: 10 to 20 units a side; NORTH-OPT-39 lifts the limit.
    let mut forces = default_forces();
    // 14 units: drop the cavalry brigade and one infantry brigade -> 8 units.
    forces.armies.union.brigades.truncate(2);
    let err = Battle::new(&forces, Options::default()).unwrap_err();
    assert_eq!(
        err,
        SetupError::ArmySize {
            needs: "10 to 20",
            side: Side::Union,
            units: 8
        }
    );
    let mut o = Options::default();
    o.allow_non_standard_army_size = true;
    assert!(Battle::new(&forces, o.clone()).is_ok());
    // Four brigades of five: 20 units, the most allowed; a fifth brigade makes 25.
    let mut big = default_army(Side::Confederate);
    for b in &mut big.brigades {
        while b.units.len() < 5 {
            b.units.push(UnitSpec::infantry(
                format!("extra {}", b.units.len()),
                Quality::Poor,
            ));
        }
    }
    assert_eq!(big.unit_count(), 20);
    assert!(validate_army_size(Side::Confederate, &big, &Options::default()).is_ok());
    big.brigades.push(big.brigades[0].clone());
    assert_eq!(
        validate_army_size(Side::Confederate, &big, &Options::default()),
        Err(SetupError::ArmySize {
            needs: "10 to 20",
            side: Side::Confederate,
            units: 25
        })
    );
    // Ten units exactly is fine.
    let mut ten = default_army(Side::Union);
    ten.brigades.truncate(3);
    ten.brigades[2].units.truncate(2);
    assert_eq!(ten.unit_count(), 10);
    assert!(validate_army_size(Side::Union, &ten, &Options::default()).is_ok());
    // Even with the option, an army needs a unit.
    let empty = ArmySpec {
        army_commander: "x".into(),
        army_commander_with: None,
        brigades: vec![],
    };
    assert_eq!(
        validate_army_size(Side::Union, &empty, &o)
            .map_err(|e| e.to_string())
            .unwrap_err(),
        "the Union army has 0 units; it needs at least one"
    );
}

#[test]
fn north_set_04_brigades_of_two_to_five() {
    // NORTH-SET-04
    let mut b = default_army(Side::Union).brigades[0].clone();
    assert!(validate_brigade(&b).is_ok());
    b.units.truncate(1);
    assert_eq!(
        validate_brigade(&b),
        Err(SetupError::BrigadeSize {
            name: b.name.clone(),
            units: 1
        })
    );
    let mut six = default_army(Side::Union).brigades[0].clone();
    while six.units.len() < 6 {
        six.units.push(UnitSpec::infantry("x", Quality::Standard));
    }
    assert!(validate_brigade(&six).is_err());
    // Every unit is in exactly one brigade, whose MG commands it; mixed brigades are fine.
    let battle = battle();
    for u in battle.units() {
        let holding: Vec<_> = battle
            .brigades()
            .iter()
            .filter(|b| b.units().contains(&u.id()))
            .collect();
        assert_eq!(holding.len(), 1);
        assert_eq!(holding[0].id(), u.brigade());
    }
    for br in battle.brigades() {
        let mg = battle.general(br.major_general()).unwrap();
        assert_eq!(mg.rank(), Rank::MajorGeneral(br.id()));
    }
    let mixed = battle
        .brigade(
            battle
                .unit(id(&battle, "USA 1st Bde, Battery"))
                .unwrap()
                .brigade(),
        )
        .unwrap();
    assert_eq!(mixed.units().len(), 4);
}

#[test]
fn north_set_05_one_army_commander_a_side() {
    // NORTH-SET-05: one AC a side, in no brigade, not a unit.
    let b = battle();
    for side in Side::both() {
        let acs: Vec<_> = b
            .generals()
            .iter()
            .filter(|g| g.side() == side && g.rank() == Rank::ArmyCommander)
            .collect();
        assert_eq!(acs.len(), 1);
        assert_eq!(acs[0].id(), b.army_commander(side));
        assert!(
            b.brigades()
                .iter()
                .all(|br| br.major_general() != acs[0].id())
        );
    }
    assert_eq!(b.units().len(), 28);
    assert_eq!(b.generals().len(), 10);
    let mut forces = default_forces();
    forces.armies.confederate.army_commander_with = Some((1, 7));
    assert_eq!(
        Battle::new(&forces, Options::default()).unwrap_err(),
        SetupError::ArmyCommanderPlacement {
            side: Side::Confederate
        }
    );
    forces.armies.confederate.army_commander_with = None;
    let b = Battle::new(&forces, Options::default()).unwrap();
    assert_eq!(
        b.general(b.army_commander(Side::Confederate))
            .unwrap()
            .with_unit(),
        None
    );
}

#[test]
fn north_set_06_initial_orders_shown_by_the_mg() {
    // NORTH-SET-06: each brigade starts with the order given; the MG shows it.
    let mut forces = default_forces();
    forces.armies.union.brigades[0].order = BrigadeOrder::Hold;
    forces.armies.union.brigades[1].order = BrigadeOrder::Withdraw;
    let b = Battle::new(&forces, Options::default()).unwrap();
    let orders: Vec<BrigadeOrder> = b.brigades().iter().take(4).map(|br| br.order()).collect();
    assert_eq!(
        orders,
        vec![
            BrigadeOrder::Hold,
            BrigadeOrder::Withdraw,
            BrigadeOrder::Advance,
            BrigadeOrder::Advance
        ]
    );
    assert_eq!(mg_placement(b.brigades()[0].order()), MgPlacement::Behind);
    assert_eq!(
        mg_placement(b.brigades()[1].order()),
        MgPlacement::BehindFacingRear
    );
}

#[test]
fn north_set_07_sides_and_north_opt_26_first_side() {
    // NORTH-SET-07: Confederates first by default; NORTH-OPT-26 lets the Union go first.
    let b = battle();
    assert_eq!(b.clock().phasing(), Side::Confederate);
    let mut o = Options::default();
    o.first_side = Side::Union;
    let b = battle_with(o);
    assert_eq!(b.clock().phasing(), Side::Union);
    assert_eq!(b.clock().first_side(), Side::Union);
}

#[test]
fn north_set_08_placement_and_formations() {
    // NORTH-SET-08: MG in front for Advance, behind for Hold, behind facing the rear for Withdraw.
    let centre = Point::new(36.0, 10.0);
    let (p, h) = mg_position(centre, Heading::NORTH, BrigadeOrder::Advance, Inches(2.0));
    assert!((p.y - 12.0).abs() < 1e-9 && h == Heading::NORTH);
    let (p, h) = mg_position(centre, Heading::NORTH, BrigadeOrder::Hold, Inches(2.0));
    assert!((p.y - 8.0).abs() < 1e-9 && h == Heading::NORTH);
    let (p, h) = mg_position(centre, Heading::NORTH, BrigadeOrder::Withdraw, Inches(2.0));
    assert!((p.y - 8.0).abs() < 1e-9 && h == Heading::SOUTH);
    // Any legal formation may be chosen; an illegal one is refused.
    let mut forces = default_forces();
    forces.armies.union.brigades[0].units[0].formation = Formation::Column;
    assert!(Battle::new(&forces, Options::default()).is_ok());
    forces.armies.union.brigades[0].units[0].formation = Formation::Limbered;
    assert!(matches!(
        Battle::new(&forces, Options::default()),
        Err(SetupError::IllegalFormation {
            troop: Troop::Infantry,
            formation: Formation::Limbered,
            ..
        })
    ));
    let mut forces = default_forces();
    forces.armies.union.brigades[0].units[0].dismounted = true;
    assert!(matches!(
        Battle::new(&forces, Options::default()),
        Err(SetupError::DismountedNonCavalry { .. })
    ));
}

#[test]
fn north_set_09_terrain_questions() {
    // NORTH-SET-09: the ground answers cover, obstacle, rough and sight questions, here from acw-core's table.
    use acw_core::table::{Table as Ground, Terrain as Feature};
    let open = Ground::new(Inches(72.0), Inches(48.0), vec![]).unwrap();
    let a = Point::new(10.0, 10.0);
    let t = Point::new(10.0, 30.0);
    assert!(!open.behind_cover(t, a));
    assert_eq!(Terrain::obstacles_crossed(&open, a, t), 0);
    assert!(!open.crosses_rough(a, t) && !open.blocks_sight(a, t));
    let fence =
        Feature::fence("fence", vec![Point::new(0.0, 24.0), Point::new(72.0, 24.0)]).unwrap();
    let wood = Feature::woods(
        "wood",
        vec![
            Point::new(30.0, 5.0),
            Point::new(40.0, 5.0),
            Point::new(40.0, 15.0),
            Point::new(30.0, 15.0),
        ],
    )
    .unwrap();
    let rough = Feature::rough(
        "rocks",
        vec![
            Point::new(50.0, 5.0),
            Point::new(60.0, 5.0),
            Point::new(60.0, 15.0),
            Point::new(50.0, 15.0),
        ],
    )
    .unwrap();
    let ground = Ground::new(Inches(72.0), Inches(48.0), vec![fence, wood, rough]).unwrap();
    assert_eq!(Terrain::obstacles_crossed(&ground, a, t), 1);
    assert_eq!(
        Terrain::obstacles_crossed(&ground, a, Point::new(10.0, 20.0)),
        0
    );
    // Just behind the fence (0.5"): covered against attackers across it, not from its own side, and not 4"
    // back from it (the cover depth is 1.5").
    let behind = Point::new(10.0, 24.5);
    assert!(ground.behind_cover(behind, a));
    assert!(!ground.behind_cover(behind, Point::new(10.0, 40.0)));
    assert!(!ground.behind_cover(Point::new(10.0, 28.0), a));
    // In the wood: cover from anywhere; the wood blocks sight across it.
    assert!(ground.behind_cover(Point::new(35.0, 10.0), Point::new(35.0, 40.0)));
    assert!(ground.blocks_sight(Point::new(35.0, 0.0), Point::new(35.0, 20.0)));
    assert!(!ground.blocks_sight(Point::new(45.0, 0.0), Point::new(45.0, 20.0)));
    // Rough ground on the way.
    assert!(ground.crosses_rough(Point::new(55.0, 0.0), Point::new(55.0, 20.0)));
    assert!(!ground.crosses_rough(Point::new(65.0, 0.0), Point::new(65.0, 20.0)));
}

#[test]
fn north_set_10_unit_state_tracked() {
    // NORTH-SET-10: side, brigade, type, quality, stands, mount, formation, gun, contacts, phase record,
    // general status.
    let b = battle();
    let u = b.unit(id(&b, "CSA 2nd Bde, Regt 3")).unwrap();
    assert_eq!(u.side(), Side::Confederate);
    assert_eq!(b.brigade(u.brigade()).unwrap().name(), "CSA 2nd Brigade");
    assert_eq!(
        (u.arm(), u.quality(), u.formation()),
        (Arm::Infantry, Quality::Standard, Formation::Line)
    );
    assert_eq!((u.stands().current(), u.stands().original()), (4, 4));
    assert!(u.contacts().is_empty() && !u.has_acted() && u.phase().attacked.is_none());
    assert_eq!(u.status(), UnitStatus::InPlay);
    assert_eq!(u.own_order(), None);
    assert!(
        b.generals()
            .iter()
            .all(|g| g.status() == GeneralStatus::Active)
    );
}

#[test]
fn north_set_11_default_scenario() {
    // NORTH-SET-11: per side an AC, three infantry brigades of 3 + a battery, a cavalry brigade of 2; all
    // Advance; line, mounted, unlimbered; the AC with the centre brigade; 72" x 48", 12 turns.
    let s = Scenario::default();
    assert_eq!(s.table, Table::default());
    assert_eq!((s.table.width, s.table.depth), (Inches(72.0), Inches(48.0)));
    assert_eq!(s.table.gap_between_zones(), Inches(24.0));
    assert_eq!(s.options.turn_limit, Some(12));
    let b = s.battle().unwrap();
    for side in Side::both() {
        let units: Vec<_> = b.units().iter().filter(|u| u.side() == side).collect();
        assert_eq!(units.len(), 14);
        let brigades: Vec<_> = b.brigades().iter().filter(|br| br.side() == side).collect();
        assert_eq!(brigades.len(), 4);
        for br in &brigades[..3] {
            let arms: Vec<Arm> = br
                .units()
                .iter()
                .map(|&u| b.unit(u).unwrap().arm())
                .collect();
            assert_eq!(
                arms,
                vec![Arm::Infantry, Arm::Infantry, Arm::Infantry, Arm::Artillery]
            );
        }
        assert_eq!(brigades[3].units().len(), 2);
        assert!(
            brigades
                .iter()
                .all(|br| br.order() == BrigadeOrder::Advance)
        );
        for u in &units {
            let want = if u.arm() == Arm::Artillery {
                Formation::Unlimbered
            } else {
                Formation::Line
            };
            assert_eq!(u.formation(), want);
            assert_eq!(u.quality(), Quality::Standard);
            assert_eq!(u.mount(), Mount::Mounted);
        }
        let ac = b.general(b.army_commander(side)).unwrap();
        let with = ac.with_unit().unwrap();
        assert_eq!(b.unit(with).unwrap().brigade(), brigades[1].id());
    }
    // Deployment zones: each side within 12" of its base edge.
    let t = s.table;
    assert!(t.in_deployment_zone(Side::Union, Point::new(30.0, 11.0)));
    assert!(!t.in_deployment_zone(Side::Union, Point::new(30.0, 13.0)));
    assert!(t.in_deployment_zone(Side::Confederate, Point::new(30.0, 37.0)));
    assert_eq!(t.facing_enemy(Side::Union), Heading::NORTH);
}

#[test]
fn saved_state_round_trips_and_is_checked_on_loading() {
    let mut b = battle();
    let gun = id(&b, "USA 1st Bde, Battery");
    morale_result(
        &mut b,
        gun,
        acw_north::tables::MoraleBand::Both,
        None,
        Default::default(),
        true,
    )
    .unwrap();
    let json = serde_json::to_string(&b).unwrap();
    let back: Battle = serde_json::from_str(&json).unwrap();
    assert_eq!(back, b);
    // A tampered file: a unit in contact with a unit that does not know it.
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v["units"][0]["contacts"] = serde_json::json!([20]);
    assert!(serde_json::from_value::<Battle>(v).is_err());
    // A tampered file: an infantry unit limbered.
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v["units"][0]["formation"] = serde_json::json!("Limbered");
    assert!(serde_json::from_value::<Battle>(v).is_err());
    assert!(b.check_invariants().is_ok());
}
