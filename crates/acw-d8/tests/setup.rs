//! Set-up: the grid, terrain, roads and rivers, the three maps, armies, brigades, officers, weapons; scripted
//! draws give exact results, bad data is refused, and generation is reproducible and always valid.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use acw_core::dice::ScriptedDice;
use acw_core::{Dice, Die, GameRng, Resolve, Side};
use acw_d8::army::{
    Army, ArmyData, ArmyFigures, ClassRoll, ExtraRegiments, Player, RollOff, Strength,
    cavalry_units, weapon_allowed,
};
use acw_d8::map::{
    DEPLOYMENT_DEPTH_CM, Feature, Map, MapChoice, MapOwner, Maps, Piece, Square, base_line_y,
    farm_roads, flow, forward, in_deployment_zone, perimeter_square, pieces, route,
};
use acw_d8::options::ImprovedMuskets;
use acw_d8::tables::{
    BASE_REGIMENTS, CAVALRY_TO_INFANTRY, Class, Cover, Ground, GunType, HISTORICAL_ORGANISATION,
    Rank, Troop, Weapon, basing, board,
};
use acw_d8::{Battle, D8Error, Options};
use proptest::prelude::*;

fn sq(n: u8) -> Square {
    Square::new(n).unwrap()
}

fn squares(ns: &[u8]) -> Vec<Square> {
    ns.iter().map(|&n| sq(n)).collect()
}

#[test]
fn basing_and_table() {
    // D8-SET-01: foot 12.5 × 20 mm; cavalry 25 mm wide, 40/50/60 deep; the limber 45 × 60; columns 25 and 50 mm.
    assert_eq!(basing::FOOT, (12.5, 20.0));
    assert_eq!(basing::CAVALRY_DEPTHS, [40.0, 50.0, 60.0]);
    assert_eq!(basing::LIMBER, (45.0, 60.0));
    assert_eq!(basing::COLUMN_WIDTH_FOOT, 2.0 * basing::FOOT.0);
    assert_eq!(basing::COLUMN_WIDTH_CAVALRY, 2.0 * basing::CAVALRY_FRONTAGE);
    // D8-SET-02: 180 × 150 cm; the Union's base line is the north edge (y = 0), forward is +y; the Confederates'
    // is the south edge.
    assert_eq!((board::WIDTH_CM, board::DEPTH_CM), (180.0, 150.0));
    assert_eq!(base_line_y(Side::Union), 0.0);
    assert_eq!(base_line_y(Side::Confederate), 150.0);
    assert_eq!(forward(Side::Union), 1.0);
    assert_eq!(forward(Side::Confederate), -1.0);
}

#[test]
fn choosing_sides_rerolls_ties() {
    // D8-SET-03: each rolls a D6, the higher chooses; a tie is rolled again.
    let mut d = ScriptedDice::faces([4, 4, 2, 5]);
    assert_eq!(RollOff { die: Die::D6 }.roll(&mut d), Player::Second);
    assert_eq!(d.remaining(), 0);
    let mut d = ScriptedDice::faces([6, 1]);
    assert_eq!(RollOff { die: Die::D6 }.roll(&mut d), Player::First);
}

#[test]
fn grid_squares() {
    // D8-SET-04: squares numbered in rows from the north-west, 30 cm each.
    let s = sq(9);
    assert_eq!((s.column(), s.row()), (2, 1));
    assert_eq!(s.bounds_cm(), (60.0, 90.0, 30.0, 60.0));
    assert_eq!(Square::containing(65.0, 35.0).unwrap(), sq(9));
    assert_eq!(Square::containing(180.0, 150.0).unwrap(), sq(30));
    assert_eq!(Square::containing(0.0, 0.0).unwrap(), sq(1));
    assert!(Square::new(0).is_err());
    assert!(Square::new(31).is_err());
    assert!(Square::containing(f64::NAN, 1.0).is_err());
    assert!(Square::containing(181.0, 1.0).is_err());
    assert!(sq(12).on_perimeter() && !sq(9).on_perimeter());
}

#[test]
fn perimeter_grid() {
    // D8-SET-05: clockwise from the NW corner; 19 and 20 name squares 30 and 1 again.
    let got: Vec<u8> = (1..=20)
        .map(|f| perimeter_square(f).unwrap().number())
        .collect();
    assert_eq!(
        got,
        [
            1, 2, 3, 4, 5, 6, 12, 18, 24, 30, 29, 28, 27, 26, 25, 19, 13, 7, 30, 1
        ]
    );
    assert!(perimeter_square(0).is_none() && perimeter_square(21).is_none());
}

#[test]
fn terrain_pieces_and_cover() {
    // D8-SET-06: 2 hills, 2 farms, 2 woods, 1 broken ground (9 with separate fields); a farm is hard cover (its
    // buildings), a field soft, broken ground soft.
    assert_eq!(pieces(false).len(), 7);
    assert_eq!(pieces(true).len(), 9);
    assert_eq!(
        pieces(false).iter().filter(|&&p| p == Piece::Hill).count(),
        2
    );
    assert_eq!(Piece::Farm.cover(true), Cover::Hard);
    assert_eq!(Piece::Field.cover(true), Cover::Soft);
    assert_eq!(Piece::BrokenGround.cover(true), Cover::Soft);
    assert_eq!(Piece::BrokenGround.cover(false), Cover::Open);
    // D8-SET-16, D8-STR-01: the cover classes.
    for g in [
        Ground::Fence,
        Ground::LowWall,
        Ground::Hedge,
        Ground::Marsh,
        Ground::Hill,
        Ground::Stream,
    ] {
        assert_eq!(g.cover(true), Cover::Soft, "{g:?}");
    }
    for g in [
        Ground::Fieldworks,
        Ground::Earthworks,
        Ground::Wood,
        Ground::HighWall,
        Ground::River,
        Ground::StoneBuilding,
        Ground::WoodenBuilding,
        Ground::Bridge,
        Ground::Swamp,
    ] {
        assert_eq!(g.cover(true), Cover::Hard, "{g:?}");
    }
    assert_eq!(Ground::Road.cover(true), Cover::Open);
}

/// D8-SET-07, D8-SET-08, D8-SET-10 to D8-SET-13, D8-SET-38: a whole scripted map.
fn scripted_map() -> (Map, ScriptedDice) {
    let mut d = ScriptedDice::faces([
        3, 9, 15, 3, 28, 22, 23,
        12, // pieces: hills 3 and 9, farms 15 and (3 taken) 28, woods 22, 23, broken 12
        1, 10, // road: square 1 to square 30
        3, 4, 12, // river: 3 is a hill, re-rolled to 4; finish 28
        2, 3, // fords: the 2nd of 4 river squares left, then the 3rd of 3
    ]);
    let m = Map::generate(&mut d, &Options::default()).unwrap();
    (m, d)
}

#[test]
fn whole_map_from_scripted_dice() {
    let (m, d) = scripted_map();
    assert!(d.finish().is_ok() && d.remaining() == 0);
    let data = m.data();
    // D8-SET-07: each piece in its D30 square, a taken square re-rolled.
    assert_eq!(
        data.pieces,
        vec![
            (Piece::Hill, sq(3)),
            (Piece::Hill, sq(9)),
            (Piece::Farm, sq(15)),
            (Piece::Farm, sq(28)),
            (Piece::Wood, sq(22)),
            (Piece::Wood, sq(23)),
            (Piece::BrokenGround, sq(12)),
        ]
    );
    // D8-SET-10: the road's quickest route round the hills in 3 and 9, hugging the line from 1 to 30.
    assert_eq!(data.road.route, squares(&[1, 8, 15, 16, 23, 30]));
    // D8-SET-08: the river's start re-rolled off the hill in square 3.
    assert_eq!((data.river.start, data.river.finish), (sq(4), sq(28)));
    assert_eq!(data.river.route, squares(&[4, 10, 16, 22, 28]));
    // D8-SET-11: the farm in 15 is on the road; the one in 28 gets a road from 23, the nearest road square.
    assert_eq!(data.branches, vec![squares(&[23, 28])]);
    // D8-SET-12: the bridge where the road first meets the river; 2 fords on other river squares.
    assert_eq!(data.bridge, Some(sq(16)));
    assert_eq!(data.fords, squares(&[10, 28]));
    // D8-SET-13: the river flows south, from 4 to 28.
    assert_eq!(data.downstream, sq(28));
    assert!(acw_d8::map::downstream(&m, sq(10), sq(22)));
    assert!(!acw_d8::map::downstream(&m, sq(22), sq(10)));
}

#[test]
fn a_farm_cut_off_by_hills() {
    // D8-SET-10, D8-SET-11 with 4-connected routes: hills in 2 and 7 shut square 1 off; its farm gets no road (there
    // is none to be had), the other farm does.
    let mut o = Options::default();
    o.four_connected_routes = true;
    let mut d = ScriptedDice::faces([2, 7, 1, 15, 22, 23, 12, 4, 14, 5, 12, 1, 1]);
    let m = Map::generate(&mut d, &o).unwrap();
    assert!(d.finish().is_ok());
    let data = m.data();
    assert!(!data.road.route.contains(&sq(1)));
    assert!(data.branches.iter().all(|b| b.last() != Some(&sq(1))));
    assert!(
        data.road.route.contains(&sq(15))
            || data.branches.iter().any(|b| b.last() == Some(&sq(15)))
    );
    assert!(
        data.road
            .route
            .windows(2)
            .all(|w| w[0].touches(w[1], false)),
        "orthogonal steps only"
    );
}

#[test]
fn routes() {
    // D8-SET-10: 8-connected, hills impassable, ties to the route nearest the straight line.
    let none = [false; 30];
    assert_eq!(
        route(sq(1), sq(6), &none, false).unwrap(),
        squares(&[1, 2, 3, 4, 5, 6])
    );
    assert_eq!(route(sq(1), sq(30), &none, false).unwrap().len(), 6);
    let mut hills = [false; 30];
    hills[1] = true; // square 2
    hills[6] = true; // square 7
    // 8-connected: a diagonal step between the two hills reaches square 1.
    assert_eq!(
        route(sq(1), sq(13), &hills, false).unwrap(),
        squares(&[1, 8, 13])
    );
    // 4-connected (option): square 1 is cut off.
    assert!(route(sq(1), sq(13), &hills, true).is_none());
    // Never into a hill.
    assert!(route(sq(2), sq(30), &hills, false).is_none());
    // D8-SET-09: the same start and finish: the feature is that one square.
    assert_eq!(route(sq(12), sq(12), &none, false).unwrap(), squares(&[12]));
}

/// D8-SET-11 as written: every road square's quickest route to the farm measured, the shortest kept (ties to
/// the one nearer the road's start).
fn farm_roads_measuring_every_square(
    placed: &[(Piece, Square)],
    road: &[Square],
    hills: &[bool; 30],
    four: bool,
) -> Vec<Vec<Square>> {
    let len = |v: &[Square]| {
        v.windows(2)
            .map(|w| {
                if w[0].column() != w[1].column() && w[0].row() != w[1].row() {
                    std::f64::consts::SQRT_2
                } else {
                    1.0
                }
            })
            .sum::<f64>()
    };
    let mut out = Vec::new();
    for &(p, farm) in placed {
        if p != Piece::Farm || road.contains(&farm) || hills[usize::from(farm.number() - 1)] {
            continue;
        }
        let mut best: Option<Vec<Square>> = None;
        for &r in road {
            if let Some(b) = route(r, farm, hills, four)
                && best.as_ref().is_none_or(|cur| len(&b) < len(cur) - 1e-9)
            {
                best = Some(b);
            }
        }
        out.extend(best);
    }
    out
}

#[test]
fn farm_roads_pass_over_road_squares_that_cannot_be_nearer() {
    // D8-SET-11: `farm_roads` measures the route only from road squares that could be the nearest; on random
    // grids, hills, roads and farms it finds the same branches as measuring the route from every road square.
    let mut rng = GameRng::seed(11);
    let mut roll = |faces: u16| Die::new(faces).unwrap().roll(&mut rng);
    let mut branches = 0;
    for case in 0..400 {
        let mut hills = [false; 30];
        for _ in 0..roll(6) {
            hills[usize::from(roll(30) - 1)] = true;
        }
        let road: Vec<Square> = (0..roll(8)).map(|_| sq(roll(30) as u8)).collect();
        let placed: Vec<(Piece, Square)> = (0..roll(5))
            .map(|_| {
                let piece = if roll(3) == 1 {
                    Piece::Wood
                } else {
                    Piece::Farm
                };
                (piece, sq(roll(30) as u8))
            })
            .collect();
        let four = case % 4 == 0;
        let want = farm_roads_measuring_every_square(&placed, &road, &hills, four);
        branches += want.len();
        assert_eq!(
            farm_roads(&placed, &road, &hills, four),
            want,
            "case {case}"
        );
    }
    assert!(branches > 300, "{branches} branches compared");
}

#[test]
fn farm_roads_and_flow() {
    // D8-SET-11: a branch from the road square nearest by route.
    let none = [false; 30];
    let placed = [(Piece::Farm, sq(21)), (Piece::Farm, sq(2))];
    let roads = farm_roads(&placed, &squares(&[1, 2, 3]), &none, false);
    assert_eq!(roads, vec![squares(&[3, 9, 15, 21])]);
    // D8-SET-13: flows from the more northerly end, start to finish in one row, or always under the option.
    let f = Feature {
        start: sq(28),
        finish: sq(4),
        route: squares(&[28, 22, 16, 10, 4]),
    };
    assert_eq!(flow(&f, false), sq(28));
    assert_eq!(flow(&f, true), sq(4));
    let g = Feature {
        start: sq(7),
        finish: sq(12),
        route: squares(&[7, 8, 9, 10, 11, 12]),
    };
    assert_eq!(flow(&g, false), sq(12));
}

#[test]
fn three_maps_and_the_choice() {
    // D8-SET-14: three maps, then the umpire's D3.
    assert_eq!(
        MapChoice.roll(&mut ScriptedDice::faces([2])),
        MapOwner::Confederate
    );
    let mut rng = GameRng::seed(11);
    let maps = Maps::generate(&mut rng, &Options::default()).unwrap();
    let played = match maps.chosen {
        MapOwner::Union => &maps.union,
        MapOwner::Confederate => &maps.confederate,
        MapOwner::Umpire => &maps.umpire,
    };
    assert_eq!(maps.played(), played);
    assert_ne!(maps.union, maps.confederate);
}

#[test]
fn deployment_zones() {
    // D8-SET-15: the row next to the side's own base line.
    assert!(in_deployment_zone(Side::Union, 25.0, DEPLOYMENT_DEPTH_CM).unwrap());
    assert!(!in_deployment_zone(Side::Union, 35.0, DEPLOYMENT_DEPTH_CM).unwrap());
    assert!(in_deployment_zone(Side::Confederate, 125.0, DEPLOYMENT_DEPTH_CM).unwrap());
    assert!(!in_deployment_zone(Side::Confederate, 100.0, DEPLOYMENT_DEPTH_CM).unwrap());
    assert!(in_deployment_zone(Side::Union, -1.0, 30.0).is_err());
    // The battle checks a unit's figures against it.
    let c = Army::generate(
        Side::Confederate,
        &mut GameRng::seed(2),
        &Options::default(),
        0,
        1862,
    )
    .unwrap();
    let u = Army::generate(
        Side::Union,
        &mut GameRng::seed(3),
        &Options::default(),
        0,
        1862,
    )
    .unwrap();
    let b = Battle::new(&u, &c, Options::default()).unwrap();
    let first_rebel = b
        .units()
        .iter()
        .find(|u| u.side == Side::Confederate)
        .unwrap()
        .id;
    assert!(
        b.check_deployment(acw_d8::UnitId(0), &[5.0, 29.5], DEPLOYMENT_DEPTH_CM)
            .is_ok()
    );
    assert!(
        b.check_deployment(acw_d8::UnitId(0), &[5.0, 31.0], DEPLOYMENT_DEPTH_CM)
            .is_err()
    );
    assert!(
        b.check_deployment(first_rebel, &[140.0, 121.0], DEPLOYMENT_DEPTH_CM)
            .is_ok()
    );
    let e = b
        .check_deployment(first_rebel, &[20.0], DEPLOYMENT_DEPTH_CM)
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("within 30 cm of the Confederate base line")
    );
}

#[test]
fn bad_maps_are_refused() {
    let (m, _) = scripted_map();
    // D8-SET-06: pieces may not share a square.
    let mut d = m.data().clone();
    d.pieces[6].1 = sq(9);
    assert!(matches!(Map::new(d), Err(D8Error::BadMap(_))));
    // D8-SET-10: a route over a hill or jumping squares.
    let mut d = m.data().clone();
    d.road.route = squares(&[1, 2, 3, 4, 5, 6, 12, 18, 24, 30]);
    assert!(Map::new(d).is_err());
    let mut d = m.data().clone();
    d.road.route = squares(&[1, 15, 30]);
    assert!(Map::new(d).is_err());
    // D8-SET-12: at most 2 fords, the bridge where road meets river.
    let mut d = m.data().clone();
    d.fords = squares(&[4, 10, 22]);
    assert!(Map::new(d).is_err());
    let mut d = m.data().clone();
    d.bridge = Some(sq(10));
    assert!(Map::new(d).is_err());
    // The loader runs the same checks.
    let mut d = m.data().clone();
    d.pieces.pop();
    let json = serde_json::to_string(&d).unwrap();
    assert!(serde_json::from_str::<Map>(&json).is_err());
    assert!(serde_json::from_str::<Map>(&serde_json::to_string(&m).unwrap()).is_ok());
    assert!(serde_json::from_str::<Square>("31").is_err());
}

/// D8-SET-36: a whole Union army from scripted dice.
fn scripted_union() -> (Army, ScriptedDice) {
    let mut d = ScriptedDice::faces([
        1, 6, 2, // D4 extras (1 Raw), D12 cavalry (6 companies), D4 batteries (2)
        1, // D2 sharpshooters: Veteran
        10, 1, 5, 5, // Raw regiments: 20, 11, 15, 15
        8, 1, 2, 3, 4, 5, // Experienced: 18, 11, 12, 13, 14, 15
        3, 5, 1, // Veteran: 13, 15, 11
        4, // cavalry class: Experienced
        6, 5, 1, 2, // batteries: Veteran heavy, Raw field
    ]);
    let o = Options::default();
    let mut s = Strength::roll(Side::Union, &mut d, &o).unwrap();
    assert_eq!(
        (s.extra, s.cavalry_companies, s.batteries),
        ((0, 0, 1), 6, 2)
    );
    s.exchange(1, &o).unwrap();
    let a = s.complete(&mut d, &o, 1862).unwrap();
    (a, d)
}

#[test]
fn whole_army_from_scripted_dice() {
    let (a, d) = scripted_union();
    assert!(d.finish().is_ok() && d.remaining() == 0);
    let data = a.data();
    // D8-SET-18, D8-SET-19: 12 + 1 Raw = 13 regiments, 3 Vet, 6 Exp, 4 Raw.
    let foot: Vec<_> = data
        .units
        .iter()
        .filter(|u| u.troop == Troop::Foot)
        .collect();
    assert_eq!(foot.len(), 13);
    assert_eq!(foot.iter().filter(|u| u.class == Class::Raw).count(), 4);
    // D8-SET-20: the figures in the rules' order, Raw then Experienced then Veteran.
    let figs = |c: Class| {
        foot.iter()
            .filter(|u| u.class == c)
            .map(|u| u.figures)
            .collect::<Vec<_>>()
    };
    assert_eq!(figs(Class::Raw), [20, 11, 15, 15]);
    assert_eq!(figs(Class::Experienced), [18, 11, 12, 13, 14, 15]);
    assert_eq!(figs(Class::Veteran), [13, 15, 11]);
    // D8-SET-21, D8-SET-23, D8-SET-26, D8-SET-27: 6 companies less 1 exchanged: one unit of 20, Experienced.
    let cav: Vec<_> = data
        .units
        .iter()
        .filter(|u| u.troop == Troop::Cavalry)
        .collect();
    assert_eq!(cav.len(), 1);
    assert_eq!(
        (cav[0].figures, cav[0].class, cav[0].weapon),
        (20, Class::Experienced, Weapon::Carbine)
    );
    // D8-SET-25: one sharpshooter company of 4, Veteran, with rifles.
    let ss: Vec<_> = data
        .units
        .iter()
        .filter(|u| u.troop == Troop::Sharpshooters)
        .collect();
    assert_eq!(
        (ss.len(), ss[0].figures, ss[0].class, ss[0].weapon),
        (1, 4, Class::Veteran, Weapon::Rifle)
    );
    // D8-SET-28, D8-SET-30, D8-SET-29, D8-SET-31: 2 batteries; each battery's class, then its type (5 or 6
    // heavy); crews from the table (Union heavy 8, field 7).
    let bat: Vec<_> = data.units.iter().filter(|u| u.troop.is_battery()).collect();
    assert_eq!(bat[0].troop, Troop::Battery(GunType::Heavy));
    assert_eq!((bat[0].class, bat[0].figures), (Class::Veteran, 8));
    assert_eq!(bat[1].troop, Troop::Battery(GunType::Field));
    assert_eq!((bat[1].class, bat[1].figures), (Class::Raw, 7));
    // D8-SET-32: 13 regiments in brigades of 4/3/3/3, dealt round by class.
    let sizes: Vec<usize> = (1..=4)
        .map(|b| foot.iter().filter(|u| u.brigade == Some(b)).count())
        .collect();
    assert_eq!(sizes, [4, 3, 3, 3]);
    assert_eq!(foot[0].brigade, Some(1));
    assert_eq!(foot[3].brigade, Some(4));
    // D8-SET-33: 4 Brigadiers and a Divisional Commander.
    assert_eq!(
        data.officers
            .iter()
            .filter(|&&r| r == Rank::Brigadier)
            .count(),
        4
    );
    assert_eq!(
        data.officers
            .iter()
            .filter(|&&r| r == Rank::Division)
            .count(),
        1
    );
    // D8-SET-34: Veterans carry rifles, the rest muskets (1862).
    assert!(
        foot.iter()
            .all(|u| (u.weapon == Weapon::Rifle) == (u.class == Class::Veteran))
    );
    // D8-SET-35: a baggage wagon.
    assert_eq!(data.baggage, 1);
    // The report reads as sentences.
    assert!(
        a.to_string()
            .contains("1st Raw Regiment: Raw foot regiment, 20 figures, musket, brigade 2")
    );
}

#[test]
fn extra_regiments_and_figures() {
    // D8-SET-19: D4 = 3: Raw, Exp, Exp by default; Raw, Exp, Vet under the option.
    assert_eq!(
        ExtraRegiments::default().roll(&mut ScriptedDice::faces([3])),
        (0, 2, 1)
    );
    assert_eq!(
        ExtraRegiments { d4_3_veteran: true }.roll(&mut ScriptedDice::faces([3])),
        (1, 1, 1)
    );
    assert_eq!(
        ExtraRegiments::default().roll(&mut ScriptedDice::faces([4])),
        (1, 2, 1)
    );
    // D8-SET-18: 3 Vet, 6 Exp, 3 Raw to start.
    assert_eq!(
        BASE_REGIMENTS,
        [
            (Class::Veteran, 3),
            (Class::Experienced, 6),
            (Class::Raw, 3)
        ]
    );
    // D8-SET-20: a Veteran regiment rolling 3 on its D5 has 13 figures.
    assert_eq!(
        acw_d8::army::RegimentSize {
            class: Class::Veteran
        }
        .roll(&mut ScriptedDice::faces([3])),
        13
    );
}

#[test]
fn cavalry_dice() {
    // D8-SET-21: a D12 of 4-figure companies; a 1 is still one company.
    let o = Options::default();
    let s = Strength::roll(Side::Union, &mut ScriptedDice::faces([1, 1, 1]), &o).unwrap();
    assert_eq!(s.cavalry_companies, 1);
    // D8-SET-22: the Confederates' D10 of 2-figure companies; a 1 gives none.
    let s = Strength::roll(Side::Confederate, &mut ScriptedDice::faces([1, 1, 1]), &o).unwrap();
    assert_eq!(s.cavalry_companies, 0);
    let s = Strength::roll(Side::Confederate, &mut ScriptedDice::faces([1, 7, 1]), &o).unwrap();
    assert_eq!(s.cavalry_companies, 7);
    // D8-SET-26: Union companies in the fewest units of at most 5, as even as possible; Confederates one unit.
    assert_eq!(cavalry_units(Side::Union, 5), [5]);
    assert_eq!(cavalry_units(Side::Union, 6), [3, 3]);
    assert_eq!(cavalry_units(Side::Union, 7), [4, 3]);
    assert_eq!(cavalry_units(Side::Union, 9), [5, 4]);
    assert_eq!(cavalry_units(Side::Union, 11), [4, 4, 3]);
    assert_eq!(cavalry_units(Side::Union, 12), [4, 4, 4]);
    assert_eq!(cavalry_units(Side::Confederate, 10), [10]);
    // D8-SET-27: a D6 per unit: 1–2 Raw, 3–4 Experienced, 5–6 Veteran.
    let classes: Vec<Class> = (1..=6)
        .map(|f| ClassRoll.roll(&mut ScriptedDice::faces([f])))
        .collect();
    use Class::*;
    assert_eq!(
        classes,
        [Raw, Raw, Experienced, Experienced, Veteran, Veteran]
    );
}

#[test]
fn sharpshooter_exchanges() {
    let o = Options::default();
    // D8-SET-23: the Union gives 1 company for each, at most 2.
    let mut s = Strength {
        side: Side::Union,
        extra: (0, 0, 1),
        cavalry_companies: 3,
        batteries: 1,
        sharpshooter_companies: 0,
    };
    assert!(s.exchange(3, &o).is_err());
    s.exchange(2, &o).unwrap();
    assert_eq!(s.cavalry_left(), 1);
    // D8-SET-24: the Confederates give 2 companies for each; a 1-company remnant is refused, unchanged…
    let mut c = Strength {
        side: Side::Confederate,
        extra: (0, 0, 1),
        cavalry_companies: 3,
        batteries: 1,
        sharpshooter_companies: 0,
    };
    let before = c;
    assert!(matches!(c.exchange(1, &o), Err(D8Error::BadArmy(_))));
    assert_eq!(c, before);
    assert!(c.exchange(2, &o).is_err()); // needs 4 companies
    // …or disbanded under the option.
    let mut opt = Options::default();
    opt.disband_cavalry_remnant = true;
    c.exchange(1, &opt).unwrap();
    assert_eq!(c.cavalry_left(), 0);
    // D8-SET-25: under the option each company is its own unit with its own D2.
    let mut opt = Options::default();
    opt.sharpshooters_per_company = true;
    let mut u = Strength {
        side: Side::Union,
        extra: (0, 0, 1),
        cavalry_companies: 2,
        batteries: 1,
        sharpshooter_companies: 0,
    };
    u.exchange(2, &opt).unwrap();
    let faces = [1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1];
    let a = u
        .complete(&mut ScriptedDice::faces(faces), &opt, 1862)
        .unwrap();
    let ss: Vec<_> = a
        .data()
        .units
        .iter()
        .filter(|u| u.troop == Troop::Sharpshooters)
        .map(|u| (u.figures, u.class))
        .collect();
    assert_eq!(ss, [(4, Class::Veteran), (4, Class::Experienced)]);
}

#[test]
fn improved_muskets_after_1862() {
    // D8-SET-34: after 1862 a quarter of the regiments (rounded down), Experienced ones, get the 90 cm musket.
    let o = Options::default();
    let s = Strength {
        side: Side::Union,
        extra: (0, 2, 1),
        cavalry_companies: 1,
        batteries: 1,
        sharpshooter_companies: 0,
    };
    let improved = |o: &Options, year| {
        let a = s.complete(&mut GameRng::seed(3), o, year).unwrap();
        a.data()
            .units
            .iter()
            .filter(|u| u.weapon == Weapon::ImprovedMusket)
            .count()
    };
    assert_eq!(improved(&o, 1863), 15 / 4);
    assert_eq!(improved(&o, 1862), 0);
    let mut all = Options::default();
    all.improved_muskets = ImprovedMuskets::AllExperienced;
    assert_eq!(improved(&all, 1864), 8);
    let mut none = Options::default();
    none.improved_muskets = ImprovedMuskets::None;
    assert_eq!(improved(&none, 1864), 0);
    assert!(weapon_allowed(Troop::Cavalry, Class::Raw, Weapon::Shotgun));
    assert!(!weapon_allowed(Troop::Foot, Class::Raw, Weapon::Rifle));
    assert!(weapon_allowed(Troop::Indians, Class::Raw, Weapon::Bow));
}

#[test]
fn army_limits_are_checked() {
    let (a, _) = scripted_union();
    let base = a.data().clone();
    // D8-SET-37: units of 4 to 20 figures.
    let mut d = base.clone();
    let cav = d
        .units
        .iter()
        .position(|u| u.troop == Troop::Cavalry)
        .unwrap();
    d.units[cav].figures = 3;
    assert!(Army::new(d.clone()).is_err());
    d.units[cav].figures = 21;
    assert!(Army::new(d).is_err());
    // D8-SET-32, D8-SET-17: brigades of 3 to 6, at least 3 of them, at most 5 a division.
    let mut d = base.clone();
    for u in d.units.iter_mut().filter(|u| u.brigade == Some(4)) {
        u.brigade = Some(1);
    }
    d.brigades = 3;
    d.officers.retain(|&r| r != Rank::Brigadier);
    d.officers.extend([Rank::Brigadier; 3]);
    assert!(Army::new(d.clone()).is_err(), "brigade 1 would have 7");
    assert_eq!(
        HISTORICAL_ORGANISATION[0],
        ("infantry brigade", 3, 6, "regiments")
    );
    assert_eq!(
        HISTORICAL_ORGANISATION[1],
        ("infantry division", 2, 5, "brigades")
    );
    assert_eq!(CAVALRY_TO_INFANTRY, (1, 6));
    // D8-SET-33: a Brigadier for each brigade.
    let mut d = base.clone();
    d.officers.pop();
    assert!(Army::new(d).is_err());
    // D8-SET-31: no more crew than the table.
    let mut d = base.clone();
    let b = d
        .units
        .iter()
        .position(|u| u.troop == Troop::Battery(GunType::Field))
        .unwrap();
    d.units[b].figures = 8;
    assert!(Army::new(d).is_err());
    assert_eq!(GunType::Field.crew(Side::Confederate), 6);
    assert_eq!(GunType::Heavy.crew(Side::Confederate), 7);
    // D8-SET-35: one baggage wagon a division.
    let mut d = base.clone();
    d.baggage = 2;
    assert!(Army::new(d).is_err());
    // The loader runs the same checks.
    let mut d: ArmyData = base.clone();
    d.units[0].figures = 30;
    assert!(serde_json::from_str::<Army>(&serde_json::to_string(&d).unwrap()).is_err());
    let back: Army = serde_json::from_str(&serde_json::to_string(&a).unwrap()).unwrap();
    assert_eq!(back, a);
}

#[test]
fn corps_of_two_divisions() {
    // D8-OPT-05, D8-SET-33: a doubled game has 2 Divisional Commanders and a Corps Commander.
    let (a, _) = scripted_union();
    let corps = Army::corps(&a, &a).unwrap();
    let r = &corps.data().officers;
    assert_eq!(r.iter().filter(|&&x| x == Rank::Division).count(), 2);
    assert_eq!(r.iter().filter(|&&x| x == Rank::Corps).count(), 1);
    assert_eq!(corps.data().brigades, 8);
    assert_eq!(acw_d8::flank::big_table_columns(2).unwrap(), 12);
    assert!(acw_d8::flank::big_table_columns(0).is_err());
    // A battle gives every officer of the order of battle a figure.
    let c = Army::generate(
        Side::Confederate,
        &mut GameRng::seed(2),
        &Options::default(),
        0,
        1862,
    )
    .unwrap();
    let b = Battle::new(&corps, &c, Options::default()).unwrap();
    let union_officers = b
        .officers()
        .iter()
        .filter(|o| o.side == Side::Union)
        .count();
    assert_eq!(union_officers, 8 + 2 + 1);
}

#[test]
fn loaded_generator_outputs_are_checked() {
    use acw_d8::environment::Day;
    use acw_d8::flank::{Arrival, FlankMarch};
    // D8-ENV-03: a start hour is 7 to 16.
    assert!(serde_json::from_str::<Day>(r#"{"season":"Summer","start_hour":13}"#).is_ok());
    assert!(serde_json::from_str::<Day>(r#"{"season":"Summer","start_hour":5}"#).is_err());
    // D8-OPT-03: move 7 arrives by flank square 2; D8-OPT-01: at most 2 units.
    assert!(serde_json::from_str::<Arrival>(r#"{"on_move":7,"square":2}"#).is_ok());
    assert!(serde_json::from_str::<Arrival>(r#"{"on_move":7,"square":3}"#).is_err());
    assert!(serde_json::from_str::<Arrival>(r#"{"on_move":21,"square":6}"#).is_err());
    assert!(
        serde_json::from_str::<FlankMarch>(r#"{"side":"Union","flank":"West","units":3}"#).is_err()
    );
    // D8-SET-19, D8-SET-22, D8-SET-24, D8-SET-28: first rolls a D4, D10 or D12 can give, an exchange paid for.
    let ok = r#"{"side":"Confederate","extra":[0,2,1],"cavalry_companies":4,"batteries":2,"sharpshooter_companies":2}"#;
    let s: Strength = serde_json::from_str(ok).unwrap();
    assert_eq!(s.cavalry_left(), 0);
    for bad in [
        r#"{"side":"Confederate","extra":[1,0,0],"cavalry_companies":4,"batteries":2,"sharpshooter_companies":0}"#,
        r#"{"side":"Confederate","extra":[0,0,1],"cavalry_companies":1,"batteries":2,"sharpshooter_companies":0}"#,
        r#"{"side":"Confederate","extra":[0,0,1],"cavalry_companies":11,"batteries":2,"sharpshooter_companies":0}"#,
        r#"{"side":"Union","extra":[0,0,1],"cavalry_companies":4,"batteries":5,"sharpshooter_companies":0}"#,
        r#"{"side":"Union","extra":[0,0,1],"cavalry_companies":0,"batteries":1,"sharpshooter_companies":0}"#,
        r#"{"side":"Confederate","extra":[0,0,1],"cavalry_companies":3,"batteries":2,"sharpshooter_companies":1}"#,
    ] {
        assert!(serde_json::from_str::<Strength>(bad).is_err(), "{bad}");
    }
}

#[test]
fn generation_is_reproducible() {
    let o = Options::default();
    let run = |seed| {
        let mut rng = GameRng::seed(seed);
        let maps = Maps::generate(&mut rng, &o).unwrap();
        let u = Army::generate(Side::Union, &mut rng, &o, 2, 1863).unwrap();
        let c = Army::generate(Side::Confederate, &mut rng, &o, 1, 1863).unwrap();
        (maps, u, c)
    };
    assert_eq!(run(5), run(5));
    assert_ne!(run(5), run(6));
}

#[test]
fn faulty_dice_are_an_error_not_a_hang() {
    // A script that runs out (it then gives 1s: square 1 again and again) is reported.
    let mut d = ScriptedDice::faces([1, 1]);
    assert!(matches!(
        Map::generate(&mut d, &Options::default()),
        Err(D8Error::Dice(_))
    ));
    let mut d = ScriptedDice::faces([1]);
    assert!(Army::generate(Side::Union, &mut d, &Options::default(), 0, 1862).is_err());
    assert!(d.fault().is_some());
}

fn army_odds(side: Side) -> &'static acw_core::Dist<u32> {
    static ODDS: std::sync::OnceLock<[acw_core::Dist<u32>; 2]> = std::sync::OnceLock::new();
    let both = ODDS.get_or_init(|| {
        [Side::Union, Side::Confederate].map(|side| {
            ArmyFigures {
                side,
                d4_3_veteran: false,
            }
            .odds()
        })
    });
    &both[usize::from(side == Side::Confederate)]
}

fn options_strategy() -> impl Strategy<Value = Options> {
    proptest::collection::vec(any::<bool>(), 7).prop_map(|f| {
        let mut o = Options::default();
        o.reroll_corner_labels = f[0];
        o.separate_fields = f[1];
        o.shared_endpoints = f[2];
        o.river_flows_start_to_finish = f[3];
        o.extra_d4_3_veteran = f[4];
        o.sharpshooters_per_company = f[5];
        o.four_connected_routes = f[6];
        o
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Every generated map and army passes the loader's checks (D8-SET-38, D8-SET-36).
    #[test]
    fn generated_maps_and_armies_load(seed in any::<u64>(), o in options_strategy(), ss in 0u8..=2, year in 1861u16..=1865) {
        let mut rng = GameRng::seed(seed);
        let maps = Maps::generate(&mut rng, &o).unwrap();
        for m in [&maps.union, &maps.confederate, &maps.umpire] {
            let back: Map = serde_json::from_str(&serde_json::to_string(m).unwrap()).unwrap();
            prop_assert_eq!(&back, m);
            prop_assert_eq!(m.data().pieces.len(), if o.separate_fields { 9 } else { 7 });
            for &(p, s) in &m.data().pieces {
                if p == Piece::Hill {
                    prop_assert!(!m.data().road.route.contains(&s) && !m.data().river.route.contains(&s));
                }
            }
        }
        for side in [Side::Union, Side::Confederate] {
            let a = Army::generate(side, &mut rng, &o, ss, year).unwrap();
            let back: Army = serde_json::from_str(&serde_json::to_string(&a).unwrap()).unwrap();
            prop_assert_eq!(&back, &a);
            let foot = a.data().units.iter().filter(|u| u.troop == Troop::Foot).count();
            prop_assert!((13..=16).contains(&foot));
            // Its size is one the exact odds allow (the 4-for-4 exchange keeps the total; a disbanded remnant
            // is not in play here).
            if !o.extra_d4_3_veteran {
                let total = a.figures(|_| true);
                prop_assert!(army_odds(side).p(&total) > 0.0, "{side} army of {total} figures");
            }
        }
    }
}
