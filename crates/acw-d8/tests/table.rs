//! The `[geometry]` items the game plays on the table, each set up as a position on a fixed map and shown to
//! be accepted, refused or measured by the engine as the rule says.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::Side;
use acw_d8::Options;
use acw_d8::field::{at_cm, cm, square_at, square_centre};
use acw_d8::formation::FfCause;
use acw_d8::game::{Event, Order};
use acw_d8::map::Square;
use acw_d8::state::{OfficerId, UnitId};
use acw_d8::tables::Formation;
use common::table::{apply, edited, next_turn, on_table, put, state, table_map};
use common::{C, U, uid};

fn sq(n: u8) -> Square {
    Square::new(n).unwrap()
}

fn refusal(s: &acw_d8::game::State, o: &Order) -> String {
    s.check_order(o).unwrap_err().to_string()
}

fn ff(s: &acw_d8::game::State, id: UnitId) -> Option<FfCause> {
    s.battle().unwrap().unit(id).unwrap().ff.map(|f| f.cause)
}

/// D8-SET-05, D8-SET-10, D8-SET-11: the road and river laid on the table run from the perimeter squares their
/// D20s name (road 1 to 10, that is squares 1 and 30; river 4 to 12, squares 4 and 28) to the table's edges,
/// go round the hills, and the farm road joins the farm in 28: a column (which may move only along roads) is
/// accepted along the road and the farm road, refused off them.
#[test]
fn roads_and_rivers_on_the_table() {
    let map = table_map();
    let d = map.data();
    let (b, mut f) = on_table(Options::default(), &[uid(U + 1)]);
    // D8-SET-05: the ends are edge squares: square 1 touches the north and west edges, 30 the south and east.
    assert_eq!((d.road.start, d.road.finish), (sq(1), sq(30)));
    assert_eq!((d.river.start, d.river.finish), (sq(4), sq(28)));
    assert_eq!(square_at(at_cm(0.5, 149.5)), Some(sq(1)));
    assert_eq!(square_at(at_cm(179.5, 0.5)), Some(sq(30)));
    assert_eq!(square_at(at_cm(105.0, 149.5)), Some(sq(4)));
    assert_eq!(square_at(at_cm(105.0, 0.5)), Some(sq(28)));
    // D8-SET-10: every leg of the road and the river between square centres crosses no hill on the table.
    for route in [&d.road.route, &d.river.route, &d.branches[0]] {
        for w in route.windows(2) {
            let (a, c) = (square_centre(w[0]), square_centre(w[1]));
            let (crossed, _) = f.crossed(a, c);
            assert!(!crossed.contains(&acw_d8::tables::Ground::Hill), "{w:?}");
            // Neighbours: at most a square's diagonal apart.
            assert!(cm(a.distance(c).0) <= 30.0 * 2f64.sqrt() + 1e-9);
        }
    }
    // The straight line from the road's start to the hill's side would cross it; the route does not.
    assert!(
        f.crossed(square_centre(sq(1)), square_centre(sq(3)))
            .0
            .contains(&acw_d8::tables::Ground::Hill)
    );
    // A column on the road from 15 to 16 (orthogonal, 30 cm): accepted; the same unit from 14 to 20, off the
    // road: refused.
    let col = edited(&b, uid(U + 1), |u| u["formation"] = "Column".into());
    put(&col, &mut f, uid(U + 1), 80.0, 75.0);
    let s = state(&col, &f);
    let along = Order::Move {
        unit: uid(U + 1),
        x_cm: 100.0,
        y_cm: 75.0,
    };
    s.check_order(&along).unwrap();
    put(&col, &mut f, uid(U + 1), 45.0, 75.0);
    let s = state(&col, &f);
    let off = Order::Move {
        unit: uid(U + 1),
        x_cm: 45.0,
        y_cm: 55.0,
    };
    assert!(refusal(&s, &off).contains("columns move only along roads"));
    // D8-SET-11: the farm road from 23 into the farm in 28 carries a column too.
    assert!(f.along_road(square_centre(sq(23)), square_centre(sq(28))));
    assert!(!f.along_road(square_centre(sq(23)), square_centre(sq(29))));
    assert!(f.road_square(sq(28)) && !f.road_square(sq(29)));
    // The farm road cuts the corner from 23 to 28: a column on it follows it, one leaving it for 29 may not.
    put(&col, &mut f, uid(U + 1), 130.0, 40.0);
    let s = state(&col, &f);
    let branch = Order::Move {
        unit: uid(U + 1),
        x_cm: 110.0,
        y_cm: 20.0,
    };
    s.check_order(&branch).unwrap();
    let to_29 = Order::Move {
        unit: uid(U + 1),
        x_cm: 130.0,
        y_cm: 20.0,
    };
    assert!(refusal(&s, &to_29).contains("columns move only along roads"));
}

fn mv(unit: UnitId, x_cm: f64, y_cm: f64) -> Order {
    Order::Move { unit, x_cm, y_cm }
}

/// D8-MOV-16: a limbered gun may not enter a wood (square 22) or cross the river away from a crossing (square
/// 4), and crosses it at the ford (square 10) and the bridge (square 16).
#[test]
fn guns_keep_out_of_woods_and_rivers() {
    let gun = uid(U + 11);
    let (b, mut f) = on_table(Options::default(), &[gun]);
    assert!(b.unit(gun).unwrap().limbered);
    let mut at = |x: f64, y: f64| {
        put(&b, &mut f, gun, x, y);
        state(&b, &f)
    };
    let s = at(75.0, 45.0);
    assert!(refusal(&s, &mv(gun, 100.0, 45.0)).contains("guns cannot pass woods"));
    s.check_order(&mv(gun, 50.0, 45.0)).unwrap();
    // Nor the farm's fences in 15.
    assert!(refusal(&s, &mv(gun, 75.0, 70.0)).contains("guns cannot pass"));
    let s = at(125.0, 125.0);
    assert!(refusal(&s, &mv(gun, 98.0, 125.0)).contains("guns cannot pass"));
    let s = at(125.0, 110.0);
    s.check_order(&mv(gun, 98.0, 110.0)).unwrap();
    let s = at(135.0, 75.0);
    s.check_order(&mv(gun, 108.0, 75.0)).unwrap();
    // Foot cross the river in square 4 anywhere, with a formation fail (hard cover, D8-FRM-02).
    let foot = uid(U + 1);
    let (b, mut f) = on_table(Options::default(), &[foot]);
    put(&b, &mut f, foot, 115.0, 125.0);
    let mut s = state(&b, &f);
    let ev = apply(&mut s, mv(foot, 100.0, 125.0)).unwrap();
    assert!(matches!(ev[..], [Event::Moved { ff: true, .. }]), "{ev:?}");
    assert_eq!(ff(&s, foot), Some(FfCause::CrossedCover));
}

/// D8-FRM-02, D8-MOV-08, D8-MOV-09: the causes of a formation fail the table shows: entering a wood; a formed
/// unit passing over a friendly formed unit's footprint (both fail); skirmishers passing through a line (neither
/// fails, unless the option gives both a fail); a move over open ground gives none.
#[test]
fn formation_fails_from_the_table() {
    let (a, line, skirm) = (uid(U + 1), uid(U + 3), uid(U + 10));
    let (b, mut f) = on_table(Options::default(), &[a, line, skirm]);
    assert_eq!(b.unit(skirm).unwrap().formation, Formation::Skirmish);
    // Open ground: square 14 to 20.
    put(&b, &mut f, a, 45.0, 75.0);
    let mut s = state(&b, &f);
    apply(&mut s, mv(a, 45.0, 61.0)).unwrap();
    assert_eq!(ff(&s, a), None);
    // Into the wood in 22.
    put(&b, &mut f, a, 80.0, 45.0);
    let mut s = state(&b, &f);
    apply(&mut s, mv(a, 94.0, 45.0)).unwrap();
    assert_eq!(ff(&s, a), Some(FfCause::CrossedCover));
    // Through a friendly line 7 cm ahead: both fail (D8-MOV-09).
    put(&b, &mut f, a, 45.0, 80.0);
    put(&b, &mut f, line, 45.0, 73.0);
    let mut s = state(&b, &f);
    apply(&mut s, mv(a, 45.0, 66.0)).unwrap();
    assert_eq!(ff(&s, a), Some(FfCause::Interpenetration));
    assert_eq!(ff(&s, line), Some(FfCause::Interpenetration));
    // Beside it, not over it: neither.
    put(&b, &mut f, a, 15.0, 80.0);
    let mut s = state(&b, &f);
    apply(&mut s, mv(a, 15.0, 66.0)).unwrap();
    assert_eq!((ff(&s, a), ff(&s, line)), (None, None));
    // D8-MOV-08: skirmishers through the line: no fail for either by default…
    put(&b, &mut f, skirm, 45.0, 80.0);
    let mut s = state(&b, &f);
    apply(&mut s, mv(skirm, 45.0, 66.0)).unwrap();
    assert_eq!((ff(&s, skirm), ff(&s, line)), (None, None));
    // …and both fail under the option.
    let mut o = Options::default();
    o.skirmish_interpenetration_ff = true;
    let (b, mut f) = on_table(o, &[a, line, skirm]);
    put(&b, &mut f, skirm, 45.0, 80.0);
    put(&b, &mut f, line, 45.0, 73.0);
    let mut s = state(&b, &f);
    apply(&mut s, mv(skirm, 45.0, 66.0)).unwrap();
    assert_eq!(ff(&s, skirm), Some(FfCause::SkirmishInterpenetration));
    assert!(ff(&s, line).is_some());
}

/// D8-MOV-20: who may charge, measured on the table: a line over open ground (the road in 8 is open) charges;
/// the same charge over the broken ground in 12 is refused, as is a charge at a target in the wood in 23, a
/// charge by skirmishers, and one by a column (allowed under the option).
#[test]
fn who_may_charge_on_the_table() {
    let (cav, foe) = (uid(U + 9), uid(C));
    let (b, mut f) = on_table(Options::default(), &[cav, foe]);
    let charge = Order::Charge {
        unit: cav,
        target: foe,
    };
    // Cavalry front edge at y = 132.5, the target's at 81: 51.5 cm, over 3/4 of 60.
    put(&b, &mut f, cav, 45.0, 135.0);
    put(&b, &mut f, foe, 45.0, 80.0);
    let s = state(&b, &f);
    let ua = s.battle().unwrap().unit(cav).unwrap();
    let ue = s.battle().unwrap().unit(foe).unwrap();
    assert!((s.field().unwrap().gap_cm(ua, ue) - 51.5).abs() < 1e-6);
    s.check_order(&charge).unwrap();
    // Over broken ground (square 12).
    put(&b, &mut f, cav, 165.0, 135.0);
    put(&b, &mut f, foe, 165.0, 80.0);
    assert!(refusal(&state(&b, &f), &charge).contains("open"));
    // A target in the wood in 23, charged from 17.
    let (line, foe2) = (uid(U + 1), uid(C + 1));
    let (b, mut f) = on_table(Options::default(), &[line, foe2]);
    let charge = Order::Charge {
        unit: line,
        target: foe2,
    };
    put(&b, &mut f, line, 45.0, 83.0);
    put(&b, &mut f, foe2, 45.0, 57.0);
    state(&b, &f).check_order(&charge).unwrap();
    put(&b, &mut f, line, 135.0, 83.0);
    put(&b, &mut f, foe2, 135.0, 57.0);
    assert!(refusal(&state(&b, &f), &charge).contains("not all open ground"));
    // From the wood's own edge (the path stays in the square): the target's cover alone refuses it.
    put(&b, &mut f, line, 135.0, 59.0);
    put(&b, &mut f, foe2, 135.0, 33.0);
    assert!(refusal(&state(&b, &f), &charge).contains("the target is in cover"));
    // Skirmishers and columns, in the open.
    put(&b, &mut f, line, 45.0, 83.0);
    put(&b, &mut f, foe2, 45.0, 57.0);
    let sk = edited(&b, line, |u| u["formation"] = "Skirmish".into());
    assert!(refusal(&state(&sk, &f), &charge).contains("kirmish"));
    let col = edited(&b, line, |u| u["formation"] = "Column".into());
    assert!(refusal(&state(&col, &f), &charge).contains("only a line may charge"));
    let mut o = Options::default();
    o.column_may_charge = true;
    let (b, mut f) = on_table(o, &[line, foe2]);
    // A column of 12 is 6 ranks (12 cm) deep: its front 25 cm from the target's.
    put(&b, &mut f, line, 45.0, 89.0);
    put(&b, &mut f, foe2, 45.0, 57.0);
    let col = edited(&b, line, |u| u["formation"] = "Column".into());
    let s = state(&col, &f);
    let (bt, ft) = (s.battle().unwrap(), s.field().unwrap());
    assert!((ft.gap_cm(bt.unit(line).unwrap(), bt.unit(foe2).unwrap()) - 25.0).abs() < 1e-6);
    s.check_order(&charge).unwrap();
}

/// D8-MOV-12, D8-ART-02: an unlimbered gun fires only within 45° of its barrel: a target 51° off is refused;
/// realigning on it is a whole move (no fire that turn); in its next turn the gun fires with the target dead
/// ahead.
#[test]
fn a_gun_realigns_to_fire() {
    let (gun, foe) = (uid(U + 11), uid(C + 1));
    let (b, mut f) = on_table(Options::default(), &[gun, foe]);
    let b = edited(&b, gun, |u| {
        u["limbered"] = false.into();
        u["formation"] = "Skirmish".into();
    });
    put(&b, &mut f, gun, 25.0, 85.0);
    // 50 cm east and 40 cm south: atan(50/40) = 51.3° off the barrel (south).
    put(&b, &mut f, foe, 75.0, 45.0);
    let mut s = state(&b, &f);
    let fire = Order::Fire {
        unit: gun,
        target: foe,
    };
    let realign = Order::Realign {
        unit: gun,
        towards: foe,
    };
    // Realigning is a move: only in the Movement phase.
    let mut firing = s.clone();
    apply(&mut firing, Order::EndPhase).unwrap();
    assert!(refusal(&firing, &fire).contains("arc"));
    assert!(firing.check_order(&realign).is_err());
    let ev = apply(&mut s, realign.clone()).unwrap();
    assert_eq!(
        ev[0].to_string(),
        "The 1st Battery (Union) turns its gun to face the 2nd Volunteers (Confederate)."
    );
    let p = s.field().unwrap().place(gun).unwrap();
    let want = at_cm(25.0, 85.0).heading_to(at_cm(75.0, 45.0));
    let (got, want) = (p.facing.as_degrees(), want.as_degrees());
    assert!(
        (got - want).abs() < 1e-9 && (got - 180.0 + 51.34).abs() < 0.01,
        "{got}"
    );
    assert!(s.check_order(&realign).is_err(), "one whole move a turn");
    apply(&mut s, Order::EndPhase).unwrap();
    assert!(
        refusal(&s, &fire).contains("moved"),
        "{}",
        refusal(&s, &fire)
    );
    next_turn(&mut s, Side::Union);
    apply(&mut s, Order::EndPhase).unwrap();
    let ev = apply(&mut s, fire).unwrap();
    assert!(matches!(ev[0], Event::Fired { .. }), "{ev:?}");
}

/// D8-CMD-09: a lone officer in the open is a target of one figure; behind a unit, as the firer sees him, he may
/// not be fired at.
#[test]
fn officers_are_targets_unless_screened() {
    let (firer, screen) = (uid(U), uid(C + 1));
    let officer = OfficerId(5);
    let (b, mut f) = on_table(Options::default(), &[firer, screen]);
    put(&b, &mut f, firer, 30.0, 80.0);
    put(&b, &mut f, screen, 150.0, 45.0);
    f.set_officer(officer, at_cm(30.0, 55.0));
    let mut fb = b.clone();
    fb.end_movement().unwrap();
    let at_officer = Order::FireAtOfficer {
        unit: firer,
        officer,
    };
    let mut s = state(&fb, &f);
    let ev = apply(&mut s, at_officer.clone()).unwrap();
    let Event::Fired {
        target,
        short,
        long,
        ..
    } = &ev[0]
    else {
        panic!("{ev:?}")
    };
    assert_eq!(target, "Confederate Brigadier of brigade 1");
    assert!(
        ev[0].to_string().starts_with(
            "The 1st Zouaves (Union) fires at the Confederate Brigadier of brigade 1: "
        ),
        "{}",
        ev[0]
    );
    // Rifles within 30 cm at short range: every figure of the line with him in its arc.
    assert_eq!(long.0, 0);
    assert!(short.0 > 0);
    // A Confederate regiment between them.
    put(&b, &mut f, screen, 30.0, 65.0);
    let s = state(&fb, &f);
    assert!(refusal(&s, &at_officer).contains("behind a unit"));
    // Off to the side of the line of fire it does not screen him.
    put(&b, &mut f, screen, 60.0, 65.0);
    state(&fb, &f).check_order(&at_officer).unwrap();
}

/// D8-ENV-06: with smoke in play a unit fires two of its turns running from one spot, not a third; its smoke
/// takes two moves to clear, and then it fires again.
#[test]
fn smoke_builds_in_front_of_a_unit_that_stays() {
    // Four sharpshooters at long range on a regiment of 20: it stands the volleys.
    let (firer, foe) = (uid(U + 10), uid(C + 8));
    let mut o = Options::default();
    o.smoke_whatever_wind = true;
    let (b, mut f) = on_table(o, &[firer, foe]);
    put(&b, &mut f, firer, 30.0, 85.0);
    put(&b, &mut f, foe, 30.0, 40.0);
    let fire = Order::Fire {
        unit: firer,
        target: foe,
    };
    let mut s = state(&b, &f);
    for turn in 1..=5 {
        apply(&mut s, Order::EndPhase).unwrap();
        if matches!(turn, 3 | 4) {
            assert!(
                refusal(&s, &fire).contains("smoke"),
                "turn {turn}: {}",
                refusal(&s, &fire)
            );
        } else {
            apply(&mut s, fire.clone()).unwrap();
        }
        next_turn(&mut s, Side::Union);
    }
}

/// D8-MOV-24: a boat goes along the river's line on the table: from the ford in 10 it is rowed 12" (30.48 cm)
/// downstream (south, towards 28) but not 31 cm, 6" (15.24 cm) upstream but not 16 cm; a destination off the
/// river is refused, and so is boarding away from the bank.
#[test]
fn boats_go_along_the_river() {
    let sharp = uid(U + 10);
    let (b, mut f) = on_table(Options::default(), &[sharp]);
    put(&b, &mut f, sharp, 45.0, 100.0);
    let board = Order::Boat {
        unit: sharp,
        boat: Some(acw_d8::tables::Boat::Canoe),
    };
    assert!(refusal(&state(&b, &f), &board).contains("not at the river"));
    put(&b, &mut f, sharp, 110.0, 100.0);
    let mut s = state(&b, &f);
    let ev = apply(&mut s, board).unwrap();
    assert_eq!(
        ev[0].to_string(),
        "The 1st Sharpshooters (Union) gets into a canoe."
    );
    // On the river's line (x = 105 cm), with a formation fail for boarding (D8-MOV-26).
    let p = s.field().unwrap().place(sharp).unwrap().centre;
    assert!((cm(p.x) - 105.0).abs() < 1e-9 && (cm(p.y) - 100.0).abs() < 1e-9);
    assert!(ff(&s, sharp).is_some());
    next_turn(&mut s, Side::Union);
    let row = |y: f64| Order::Row {
        unit: sharp,
        x_cm: 105.0,
        y_cm: y,
    };
    s.check_order(&row(100.0 - 30.48)).unwrap();
    assert!(refusal(&s, &row(69.0)).contains("at most 30.48 cm"));
    s.check_order(&row(100.0 + 15.24)).unwrap();
    assert!(refusal(&s, &row(116.0)).contains("at most 15.24 cm"));
    let off = Order::Row {
        unit: sharp,
        x_cm: 110.0,
        y_cm: 90.0,
    };
    assert!(refusal(&s, &off).contains("on it"));
    let ev = apply(&mut s, row(75.0)).unwrap();
    assert_eq!(
        ev[0].to_string(),
        "The 1st Sharpshooters (Union) is rowed 25.00 cm downstream."
    );
    let p = s.field().unwrap().place(sharp).unwrap().centre;
    assert!((cm(p.y) - 75.0).abs() < 1e-9);
}

/// D8-STR-02, D8-MOV-23: figures go into the farmhouse in 15 only from beside it, at most 5; going in gives a
/// formation fail; a unit mostly inside is in hard cover against a volley.
#[test]
fn farmhouses_hold_five_figures() {
    let (sharp, foe) = (uid(U + 10), uid(C + 1));
    let (b, mut f) = on_table(Options::default(), &[sharp, foe]);
    let enter = |n: u32| Order::Building {
        unit: sharp,
        figures: n,
    };
    put(&b, &mut f, sharp, 45.0, 80.0);
    assert!(refusal(&state(&b, &f), &enter(4)).contains("not beside a farmhouse"));
    // The house is 6 cm square at (75, 75): a skirmish line 2 cm deep centred at y = 79.5 is 0.5 cm from it.
    put(&b, &mut f, sharp, 75.0, 79.5);
    put(&b, &mut f, foe, 75.0, 55.0);
    let s = state(&b, &f);
    assert!(refusal(&s, &enter(6)).contains("at most 5"));
    let mut s2 = s.clone();
    apply(&mut s2, enter(4)).unwrap();
    assert_eq!(ff(&s2, sharp), Some(FfCause::Building));
    assert_eq!(s2.battle().unwrap().unit(sharp).unwrap().in_building, 4);
    // The enemy's turn: its volley sees the sharpshooters in hard cover.
    next_turn(&mut s2, Side::Confederate);
    apply(&mut s2, Order::EndPhase).unwrap();
    let ev = apply(
        &mut s2,
        Order::Fire {
            unit: foe,
            target: sharp,
        },
    )
    .unwrap();
    let Event::Fired { cover, .. } = &ev[0] else {
        panic!("{ev:?}")
    };
    assert_eq!(*cover, acw_d8::tables::Cover::Hard);
}

/// D8-OPT-02, D8-OPT-03: flank marchers held back at deployment come on at the table's edge of their flank
/// square on the move their D20 gave: the Union cavalry (a 2: move 2, flank square 1, square 1 on the west
/// flank counted from the Union's own base line) and sharpshooters (a 6: move 6, flank square 2, square 7); the
/// Confederate cavalry (a 5: move 5, flank square 2, counted from the south: square 24 on the east flank). Until
/// then they are off the table and take no orders; they come on with their flank against the edge, facing the
/// enemy, clear of a unit already standing there, and may move at once.
#[test]
fn flank_marchers_come_on_at_their_squares_edge() {
    use acw_core::dice::ScriptedDice;
    use acw_d8::field::{Field, size_cm};
    use acw_d8::flank::{Flank, FlankMarch};
    let mut o = Options::default();
    o.flank_marches = true;
    let (cav, sharp, rebel_cav, blocker) = (uid(U + 9), uid(U + 10), uid(C + 9), uid(U + 1));
    let (mut b, mut f) = (0..)
        .find_map(|seed| {
            let mut b = common::battle_with(o.clone());
            let west = FlankMarch::new(Side::Union, Flank::West, 2, &o).unwrap();
            let east = FlankMarch::new(Side::Confederate, Flank::East, 1, &o).unwrap();
            let held = b
                .hold_back(&west, &[cav, sharp], &mut ScriptedDice::faces([2, 6]))
                .unwrap();
            assert_eq!(
                held.iter().map(|h| (h.1.on_move, h.2)).collect::<Vec<_>>(),
                [(2, sq(1)), (6, sq(7))]
            );
            let held = b
                .hold_back(&east, &[rebel_cav], &mut ScriptedDice::faces([5]))
                .unwrap();
            assert_eq!((held[0].1.on_move, held[0].2), (5, sq(24)));
            let mut f = Field::new(&table_map()).unwrap();
            f.deploy(&b).unwrap();
            b.open(&mut acw_core::GameRng::seed(seed)).unwrap();
            (b.active() == Side::Union).then_some((b, f))
        })
        .unwrap();
    common::start(&mut b);
    for u in b.units() {
        if u.id != blocker {
            put(&b, &mut f, u.id, 165.0, 15.0);
        }
    }
    // A regiment in the middle of square 1's stretch of the west edge.
    put(&b, &mut f, blocker, 8.0, 135.0);
    let mut s = state(&b, &f);
    let step = |id| mv(id, 10.0, 100.0);
    assert!(refusal(&s, &step(cav)).contains("removed"));
    let mut arrived = Vec::new();
    // Nine player turns (three phases each) take the game to the Confederates' 5th move.
    for _ in 0..27 {
        let events = apply(&mut s, Order::EndPhase).unwrap();
        let before = arrived.len();
        for e in events {
            if let Event::FlankArrived { unit, square, turn } = e {
                let b = s.battle().unwrap();
                arrived.push((unit, square, turn, b.active(), *b.turns().get(b.active())));
            }
        }
        if before == 0 && arrived.len() == 1 {
            // On its move it takes orders at once, in its side's Movement phase.
            assert_eq!(
                s.battle().unwrap().phase(),
                acw_d8::sequence::Phase::Movement
            );
            s.check_order(&mv(cav, 10.0, 146.0)).unwrap();
        }
    }
    let names: Vec<_> = arrived.iter().map(|a| (a.0.as_str(), a.1, a.2)).collect();
    assert_eq!(
        names,
        [
            ("1st Cavalry (Union)", sq(1), 2),
            ("1st Cavalry (Confederate)", sq(24), 5),
        ]
    );
    // Each arrived on its own side's move.
    assert!(arrived.iter().all(|a| a.2 == a.4));
    let b = s.battle().unwrap();
    let f = s.field().unwrap();
    for (id, west) in [(cav, true), (rebel_cav, false)] {
        let u = b.unit(id).unwrap();
        assert!(!u.removed && u.away.is_none());
        let p = f.place(id).unwrap();
        let half = size_cm(u).0 / 2.0;
        let x = if west { half } else { 180.0 - half };
        assert!((cm(p.centre.x) - x).abs() < 1e-9, "{}", cm(p.centre.x));
        assert_eq!(p.facing, acw_d8::field::facing(u.side));
        assert_eq!(square_at(p.centre), Some(if west { sq(1) } else { sq(24) }));
    }
    // Clear of the regiment standing there.
    let (ub, uc) = (b.unit(blocker).unwrap(), b.unit(cav).unwrap());
    assert!(f.gap_cm(ub, uc) > 0.5);
    // The sharpshooters (move 6) are still away after the Union's 5th move.
    assert!(*b.turns().get(Side::Union) < 6);
    assert!(b.unit(sharp).unwrap().removed);
    assert!(refusal(&s, &step(sharp)).contains("removed"));
}

/// Ends phases until it is `side`'s `phase`.
fn to(s: &mut acw_d8::game::State, side: Side, phase: acw_d8::sequence::Phase) {
    loop {
        let b = s.battle().unwrap();
        if b.active() == side && b.phase() == phase {
            return;
        }
        apply(s, Order::EndPhase).unwrap();
    }
}

/// D8-ENV-06, D8-ENV-01: the smoke of a unit that fires two moves running from one spot is a marker on the
/// table, as wide as its front and 5 cm deep against it, laid with its second volley; it blocks sight through it
/// (the enemy it fired on cannot fire back through it, though it could before) until it clears two moves later,
/// when the marker is taken up and sight is open again. A line of sight that misses the marker is not blocked.
#[test]
fn smoke_markers_block_sight_until_they_clear() {
    use acw_d8::field::{Field, SMOKE_DEPTH_CM};
    use acw_d8::sequence::Phase;
    let (firer, foe, other, other_foe) = (uid(U + 10), uid(C + 6), uid(U + 2), uid(C));
    let mut o = Options::default();
    o.smoke_whatever_wind = true;
    let (b, mut f) = on_table(o, &[firer, foe, other, other_foe]);
    put(&b, &mut f, firer, 30.0, 85.0);
    put(&b, &mut f, foe, 30.0, 40.0);
    put(&b, &mut f, other, 90.0, 85.0);
    put(&b, &mut f, other_foe, 90.0, 40.0);
    let fire = Order::Fire {
        unit: firer,
        target: foe,
    };
    let back = Order::Fire {
        unit: foe,
        target: firer,
    };
    let aside = Order::Fire {
        unit: other_foe,
        target: other,
    };
    let mut s = state(&b, &f);
    let markers = |s: &acw_d8::game::State| {
        s.field()
            .unwrap()
            .smoke(s.battle().unwrap())
            .collect::<Vec<_>>()
    };
    // Union moves 1 and 2: it fires; the Confederates can answer after the first, not after the second.
    for turn in 1..=2 {
        to(&mut s, Side::Union, Phase::Firing);
        apply(&mut s, fire.clone()).unwrap();
        assert_eq!(markers(&s).len(), usize::from(turn == 2));
        to(&mut s, Side::Confederate, Phase::Firing);
        if turn == 1 {
            s.check_order(&back).unwrap();
        } else {
            let why = refusal(&s, &back);
            assert!(why.contains("cannot see the target"), "{why}");
        }
        s.check_order(&aside).unwrap();
    }
    // The marker lies against the firer's front (the Union faces south), as wide as its front, 5 cm deep.
    let m = markers(&s)[0];
    let fp = s
        .field()
        .unwrap()
        .footprint(s.battle().unwrap().unit(firer).unwrap())
        .unwrap();
    assert_eq!(m.0, firer);
    assert_eq!(m.1, Field::smoke_marker(&fp));
    assert!((cm(m.1.depth.0) - SMOKE_DEPTH_CM).abs() < 1e-9);
    assert!((cm(m.1.frontage.0) - cm(fp.frontage.0)).abs() < 1e-9);
    assert!((cm(m.1.centre.y) - (85.0 - cm(fp.depth.0) / 2.0 - SMOKE_DEPTH_CM / 2.0)).abs() < 1e-9);
    // Moves 3 and 4 the smoke hangs (the firer may not fire, the foe not see it); at move 5 it has cleared.
    for turn in 3..=5 {
        to(&mut s, Side::Union, Phase::Firing);
        if turn < 5 {
            assert!(refusal(&s, &fire).contains("smoke"));
            to(&mut s, Side::Confederate, Phase::Firing);
            assert!(refusal(&s, &back).contains("cannot see the target"));
        } else {
            assert!(markers(&s).is_empty());
            to(&mut s, Side::Confederate, Phase::Firing);
            s.check_order(&back).unwrap();
        }
    }
}
