//! The game layer: whole generated battles under the conformance suite, a golden playthrough, scenario
//! validation, `check_order` held equal to applying, and the rules that need the table (`[geometry]` items)
//! checked on it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use acw_core::game::{Commander, Game, Owed, Ruleset, play};
use acw_core::measure::Inches;
use acw_core::table::Footprint;
use acw_core::testing::conformance::{self, Suite};
use acw_core::{BySide, GameRng, Side};
use acw_d8::army::Army;
use acw_d8::bots::{Attacker, Holder};
use acw_d8::field::{Field, Place, at_cm, cm, facing, inches, square_at, square_centre};
use acw_d8::flank::{Flank, FlankMarch};
use acw_d8::game::{
    D8, Event, FireCheck, GameError, Order, Question, Scenario, ScenarioData, SetupError, State,
};
use acw_d8::map::{Map, Piece, Square};
use acw_d8::morale::OfficerAt;
use acw_d8::sequence::Phase;
use acw_d8::state::UnitId;
use acw_d8::tables::{Class, Cover, Formation, Troop, Weapon};
use acw_d8::{Battle, Options, Refusal};

fn bots(side: Side, seed: u64) -> Box<dyn Commander<D8>> {
    match side {
        Side::Union => Box::new(Attacker::new(seed)),
        Side::Confederate => Box::new(Holder::new(seed)),
    }
}

fn both_attack(_: Side, seed: u64) -> Box<dyn Commander<D8>> {
    Box::new(Attacker::new(seed))
}

/// Orders no state accepts: unknown units, orders of the wrong phase or stage, an enemy's unit, a move off the
/// table.
fn refused(state: &State, side: Side) -> Vec<Order> {
    let mut v = vec![Order::Fire {
        unit: UnitId(999),
        target: UnitId(0),
    }];
    let Some(b) = state.battle() else {
        v.push(Order::Sharpshooters(3));
        v.push(Order::EndPhase);
        v.push(Order::Move {
            unit: UnitId(0),
            x_cm: 10.0,
            y_cm: 10.0,
        });
        return v;
    };
    v.push(Order::Sharpshooters(0));
    let mine = b.units().iter().find(|u| u.side == side && !u.removed);
    let theirs = b.units().iter().find(|u| u.side != side && !u.removed);
    if let Some(u) = mine {
        v.push(Order::Move {
            unit: u.id,
            x_cm: -5.0,
            y_cm: 40.0,
        });
        v.push(Order::Move {
            unit: u.id,
            x_cm: 500.0,
            y_cm: 40.0,
        });
        match b.phase() {
            Phase::Movement => {
                if let Some(t) = theirs {
                    v.push(Order::Melee {
                        attacker: u.id,
                        defender: t.id,
                    });
                }
            }
            _ => v.push(Order::Formation {
                unit: u.id,
                to: Formation::Column,
            }),
        }
    }
    if let Some(t) = theirs {
        v.push(Order::Formation {
            unit: t.id,
            to: Formation::Column,
        });
    }
    v
}

fn invariants(state: &State) -> Result<(), String> {
    let (Some(b), Some(f)) = (state.battle(), state.field()) else {
        return if state.mustering().is_some() {
            Ok(())
        } else {
            Err("neither mustering nor fighting".into())
        };
    };
    if f.counts() != (b.units().len(), b.officers().len()) {
        return Err("the field does not place every unit and officer".into());
    }
    for u in b.units() {
        if u.figures > u.original {
            return Err(format!("{} has more figures than it began with", u.name));
        }
        if !u.removed {
            let fp = f.footprint(u).ok_or("a unit is not placed")?;
            if !f.on_table(&fp) {
                return Err(format!("{} stands off the table", u.name));
            }
        }
    }
    Ok(())
}

const SEEDS: [u64; 20] = [
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
];

#[test]
fn conformance_on_twenty_generated_battles() {
    let suite = Suite {
        seeds: &SEEDS,
        commanders: &bots,
        refused_orders: &refused,
        invariants: &invariants,
    };
    conformance::run(&D8, &Scenario::default(), &suite).unwrap();
}

#[test]
fn conformance_with_two_attackers() {
    let suite = Suite {
        seeds: &[101, 102, 103],
        commanders: &both_attack,
        refused_orders: &refused,
        invariants: &invariants,
    };
    conformance::run(&D8, &Scenario::default(), &suite).unwrap();
}

#[test]
fn golden_playthrough() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/d8_seed_1862.log");
    conformance::golden(&D8, &Scenario::default(), 1862, &bots, &path).unwrap();
}

// ----- Scenarios and the muster -----

#[test]
fn scenarios_are_checked_when_made_and_loaded() {
    assert_eq!(
        Scenario::generated(Options::default(), 1850),
        Err(SetupError::Year(1850))
    );
    let mut o = Options::default();
    o.night_and_day = false;
    o.turn_limit = 0;
    assert_eq!(Scenario::generated(o, 1862), Err(SetupError::NoTurns));
    // A hand-edited file: a generated map and armies, loaded back through the same checks.
    let opts = Options::default();
    let mut rng = GameRng::seed(4);
    let map = Map::generate(&mut rng, &opts).unwrap();
    let u = Army::generate(Side::Union, &mut rng, &opts, 0, 1863).unwrap();
    let c = Army::generate(Side::Confederate, &mut rng, &opts, 2, 1863).unwrap();
    let data = ScenarioData {
        options: opts.clone(),
        year: 1863,
        map: Some(map),
        armies: Some((u.clone(), c.clone())),
        flank_marches: Vec::new(),
    };
    let json = serde_json::to_string(&data).unwrap();
    let loaded: Scenario = serde_json::from_str(&json).unwrap();
    assert_eq!(loaded.data(), data);
    // Written scenarios skip the muster: the Union's or Confederates' first decision is a move.
    let state = D8.setup(&loaded, 9).unwrap();
    assert_eq!(D8.owed(&state).unwrap().question, Question::Movement);
    // The armies the wrong way round, and a year of peace, are refused on loading.
    let swapped = json.replacen("1863", "1870", 1);
    let err = serde_json::from_str::<Scenario>(&swapped).unwrap_err();
    assert!(err.to_string().contains("1861 to 1865"), "{err}");
    let wrong = ScenarioData {
        armies: Some((c, u)),
        ..data
    };
    let err =
        serde_json::from_str::<Scenario>(&serde_json::to_string(&wrong).unwrap()).unwrap_err();
    assert!(err.to_string().contains("Union"), "{err}");
}

/// D8-SET-23, D8-SET-24: each side answers the sharpshooter exchange for its own army, Union first; an
/// exchange the cavalry cannot pay for is refused and changes nothing.
#[test]
fn the_muster_asks_each_side_for_its_sharpshooters() {
    let mut game = Game::new(D8, &Scenario::default(), 5).unwrap();
    let Owed::Decision(d) = game.owed() else {
        panic!("the game should ask for the sharpshooters")
    };
    assert_eq!(d.side, Side::Union);
    assert!(
        d.to_string().contains("how many sharpshooter companies"),
        "{d}"
    );
    let before = game.state().clone();
    let refused = game
        .submit(Side::Union, Order::Sharpshooters(3))
        .unwrap_err();
    assert!(matches!(
        refused.reason,
        acw_core::game::Refusal::Rules(GameError::Rules(Refusal::Input(_)))
    ));
    assert_eq!(game.state(), &before);
    // The Confederates may not answer for the Union.
    assert!(
        game.submit(Side::Confederate, Order::Sharpshooters(0))
            .is_err()
    );
    game.submit(Side::Union, Order::Sharpshooters(1)).unwrap();
    assert!(matches!(
        game.log().last(),
        Some(Event::Mustered {
            side: Side::Union,
            sharpshooters: 1,
            ..
        })
    ));
    let Owed::Decision(d) = game.owed() else {
        panic!("the Confederates should be asked next")
    };
    assert_eq!(d.side, Side::Confederate);
    game.submit(Side::Confederate, Order::Sharpshooters(0))
        .unwrap();
    let b = game.state().battle().unwrap();
    assert_eq!(
        b.units()
            .iter()
            .filter(|u| u.side == Side::Union && u.troop == Troop::Sharpshooters)
            .count(),
        1
    );
    assert!(b.phase() == Phase::Movement);
}

/// `check_order` runs the same code as applying: over whole games, every order the bots give and a spread of
/// others are accepted by one exactly when the other accepts them.
#[test]
fn check_order_agrees_with_applying() {
    let mut checked = 0;
    for seed in [31u64, 32] {
        let mut game = Game::new(D8, &Scenario::default(), seed).unwrap();
        let mut union = bots(Side::Union, seed);
        let mut rebels = bots(Side::Confederate, seed);
        let mut n = 0;
        while let Owed::Decision(d) = game.owed() {
            let side = d.side;
            let state = game.state().clone();
            let mut candidates = refused(&state, side);
            if let (Some(b), Some(f)) = (state.battle(), state.field()) {
                for u in b.units().iter().filter(|u| !u.removed).step_by(3) {
                    let p = f.place(u.id).unwrap();
                    for (dx, dy) in [(0.0, 14.0), (0.0, -14.0), (6.0, 0.0), (0.0, 31.0)] {
                        candidates.push(Order::Move {
                            unit: u.id,
                            x_cm: cm(p.centre.x) + dx,
                            y_cm: cm(p.centre.y) + dy,
                        });
                    }
                    for t in b
                        .units()
                        .iter()
                        .filter(|t| t.side != u.side && !t.removed)
                        .step_by(5)
                    {
                        candidates.push(Order::Fire {
                            unit: u.id,
                            target: t.id,
                        });
                        candidates.push(Order::Charge {
                            unit: u.id,
                            target: t.id,
                        });
                        candidates.push(Order::Melee {
                            attacker: u.id,
                            defender: t.id,
                        });
                    }
                }
            }
            for o in &candidates {
                let mut copy = state.clone();
                let applied = D8.apply(&mut copy, o, &mut Vec::new()).is_ok();
                assert_eq!(state.check_order(o).is_ok(), applied, "{o:?}");
                checked += 1;
            }
            let order = match side {
                Side::Union => union.order(game.rules(), game.state(), side),
                Side::Confederate => rebels.order(game.rules(), game.state(), side),
            };
            game.submit(side, order).unwrap();
            n += 1;
            if n > 250 {
                break;
            }
        }
    }
    assert!(checked > 5_000, "{checked}");
}

/// An order applied after a check accepted it (a move by `check_order`, a volley by `check_fire`, which keep
/// what they measured) gives the same events and the same state as the order applied unchecked; and what a
/// check kept is not used for another order. Over a whole game, at every decision: the bots' order, and a
/// move or volley of each unit checked and then applied, and applied after another order's check.
#[test]
fn an_order_applied_after_its_check_is_the_order_applied_unchecked() {
    let seed = 33u64;
    let mut game = Game::new(D8, &Scenario::default(), seed).unwrap();
    let mut union = bots(Side::Union, seed);
    let mut rebels = bots(Side::Confederate, seed);
    let (mut kept, mut n) = (0, 0);
    let same = |state: &State, check: &dyn Fn(&State) -> bool, o: &Order| {
        let (mut checked, mut fresh) = (state.clone(), state.clone());
        let accepted = check(&checked);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let (ra, rb) = (
            D8.apply(&mut checked, o, &mut a),
            D8.apply(&mut fresh, o, &mut b),
        );
        assert_eq!(ra.is_ok(), rb.is_ok(), "{o:?}");
        assert_eq!(a, b, "{o:?}");
        assert_eq!(checked, fresh, "{o:?}");
        assert_eq!(format!("{checked:?}"), format!("{fresh:?}"));
        accepted && rb.is_ok()
    };
    while let Owed::Decision(d) = game.owed() {
        let side = d.side;
        let state = game.state().clone();
        let order = match side {
            Side::Union => union.order(game.rules(), game.state(), side),
            Side::Confederate => rebels.order(game.rules(), game.state(), side),
        };
        if let (Some(b), Some(f)) = (state.battle(), state.field()) {
            let mut others = vec![order.clone()];
            for u in b.units().iter().filter(|u| !u.removed && u.side == side) {
                let p = f.place(u.id).unwrap();
                let step = if side == Side::Union { -8.0 } else { 8.0 };
                others.push(Order::Move {
                    unit: u.id,
                    x_cm: cm(p.centre.x),
                    y_cm: cm(p.centre.y) + step,
                });
                if let Some(t) = b.units().iter().find(|t| !t.removed && t.side != side) {
                    others.push(Order::Fire {
                        unit: u.id,
                        target: t.id,
                    });
                }
            }
            for o in &others {
                let check = |s: &State| match *o {
                    Order::Fire { unit, target } => {
                        s.check_fire(unit, target) == FireCheck::Accepted
                    }
                    _ => s.check_order(o).is_ok(),
                };
                kept += usize::from(same(&state, &check, o));
                // Another order checked first: what it kept is not used for this one.
                let first = others[0].clone();
                let other = |s: &State| {
                    let _ = s.check_order(&first);
                    false
                };
                same(&state, &other, o);
            }
        }
        game.submit(side, order).unwrap();
        n += 1;
        if n > 120 {
            break;
        }
    }
    assert!(kept > 50, "{kept}");
}

/// D8-FIR-03, D8-FIR-05, D8-ENV-01: over whole games, at every Firing decision, `check_fire` accepts a volley
/// from each unit of the side at each enemy exactly when `check_order` accepts it; and a volley it refused for
/// a lasting reason (the ground, or a unit across the line of fire) is refused by `check_order` at every later
/// decision while what that reason names stands as it was.
#[test]
fn check_fire_agrees_with_check_order_and_its_lasting_refusals_last() {
    type Lasting = (
        UnitId,
        UnitId,
        FireCheck,
        Vec<Option<Footprint>>,
        (Troop, Formation, u32, Weapon),
    );
    let (mut checked, mut lasting_checked, mut ground, mut across) = (0, 0, 0, 0);
    for seed in [31u64, 32] {
        let mut game = Game::new(D8, &Scenario::default(), seed).unwrap();
        let mut union = bots(Side::Union, seed);
        let mut rebels = bots(Side::Confederate, seed);
        let mut noted: Vec<Lasting> = Vec::new();
        while let Owed::Decision(d) = game.owed() {
            let side = d.side;
            let state = game.state();
            if let (Some(b), Some(f), Question::Firing) =
                (state.battle(), state.field(), d.question)
            {
                let print = |id: UnitId| {
                    b.unit(id)
                        .ok()
                        .filter(|u| !u.removed)
                        .and_then(|u| f.footprint(u))
                };
                let facts = |id: UnitId| {
                    let u = b.unit(id).unwrap();
                    (u.troop, u.formation, u.figures, u.weapon)
                };
                for (u, t, why, prints, was) in &noted {
                    let ids: Vec<UnitId> = match why {
                        FireCheck::Across(a) => vec![*u, *t, *a],
                        _ => vec![*u, *t],
                    };
                    let now: Vec<_> = ids.iter().map(|&id| print(id)).collect();
                    if &now == prints && (!matches!(why, FireCheck::Ground) || facts(*u) == *was) {
                        let fire = Order::Fire {
                            unit: *u,
                            target: *t,
                        };
                        assert!(state.check_order(&fire).is_err(), "{fire:?} {why:?}");
                        lasting_checked += 1;
                    }
                }
                for u in b.units().iter().filter(|u| u.side == side && !u.removed) {
                    for t in b.units().iter().filter(|t| t.side != side && !t.removed) {
                        let fire = Order::Fire {
                            unit: u.id,
                            target: t.id,
                        };
                        let why = state.check_fire(u.id, t.id);
                        assert_eq!(
                            why == FireCheck::Accepted,
                            state.check_order(&fire).is_ok(),
                            "{fire:?} {why:?}"
                        );
                        checked += 1;
                        let ids = match why {
                            FireCheck::Ground => {
                                ground += 1;
                                vec![u.id, t.id]
                            }
                            FireCheck::Across(a) => {
                                across += 1;
                                vec![u.id, t.id, a]
                            }
                            _ => continue,
                        };
                        noted.retain(|n| (n.0, n.1) != (u.id, t.id));
                        let prints = ids.iter().map(|&id| print(id)).collect();
                        noted.push((u.id, t.id, why, prints, facts(u.id)));
                    }
                }
            }
            let order = match side {
                Side::Union => union.order(game.rules(), game.state(), side),
                Side::Confederate => rebels.order(game.rules(), game.state(), side),
            };
            game.submit(side, order).unwrap();
        }
    }
    assert!(checked > 10_000, "{checked}");
    assert!(lasting_checked > 1_000, "{lasting_checked}");
    assert!(ground > 1_000 && across > 100, "{ground} {across}");
}

/// D8-CMD-04, D8-MOV-20, D8-MOV-21, D8-FRM-05: over whole games, at every Movement decision, a charge by a unit
/// for which `charge_barred` holds is refused by `check_order` at every enemy, and a move for which
/// `move_barred` holds (steps towards and away from the enemy's base line and sideways) is refused; both bars
/// are met often, and a barred move is one towards the base line.
#[test]
fn barred_charges_and_moves_are_refused() {
    let (mut charges, mut moves, mut free) = (0, 0, 0);
    for seed in [41u64, 42] {
        let mut game = Game::new(D8, &Scenario::default(), seed).unwrap();
        let mut union = bots(Side::Union, seed);
        let mut rebels = bots(Side::Confederate, seed);
        while let Owed::Decision(d) = game.owed() {
            let side = d.side;
            let state = game.state();
            if let (Some(b), Some(f), Question::Movement) =
                (state.battle(), state.field(), d.question)
            {
                for u in b.units().iter().filter(|u| u.side == side && !u.removed) {
                    if b.charge_barred(u.id) {
                        for t in b.units().iter().filter(|t| t.side != side && !t.removed) {
                            let o = Order::Charge {
                                unit: u.id,
                                target: t.id,
                            };
                            assert!(state.check_order(&o).is_err(), "{o:?}");
                            charges += 1;
                        }
                    }
                    let p = f.place(u.id).unwrap();
                    let ahead = if side == Side::Union { -1.0 } else { 1.0 };
                    for (dx, dy) in [
                        (0.0, 8.0 * ahead),
                        (3.0, 2.0 * ahead),
                        (0.0, -8.0 * ahead),
                        (5.0, 0.0),
                    ] {
                        let (x_cm, y_cm) = (cm(p.centre.x) + dx, cm(p.centre.y) + dy);
                        if state.move_barred(u.id, x_cm, y_cm) {
                            assert!(dy * ahead > 0.0, "{dx} {dy}");
                            let o = Order::Move {
                                unit: u.id,
                                x_cm,
                                y_cm,
                            };
                            assert!(state.check_order(&o).is_err(), "{o:?}");
                            moves += 1;
                        } else {
                            free += 1;
                        }
                    }
                }
            }
            let order = match side {
                Side::Union => union.order(game.rules(), game.state(), side),
                Side::Confederate => rebels.order(game.rules(), game.state(), side),
            };
            game.submit(side, order).unwrap();
        }
    }
    assert!(
        charges > 1_000 && moves > 1_000 && free > 1_000,
        "{charges} {moves} {free}"
    );
}

#[test]
fn events_and_questions_read_as_sentences() {
    let mut u = bots(Side::Union, 77);
    let mut c = bots(Side::Confederate, 77);
    let played = play(
        &D8,
        &Scenario::default(),
        77,
        acw_core::BySide::new(u.as_mut(), c.as_mut()),
    )
    .unwrap();
    for e in &played.log {
        let text = e.to_string();
        assert!(
            !text.contains("UnitId") && !text.contains('{') && !text.contains("Some("),
            "{text}"
        );
        assert!(text.ends_with('.'), "{text}");
    }
    assert!(matches!(played.log.last(), Some(Event::Ended { .. })));
    for q in [Question::Movement, Question::Firing, Question::Melee] {
        assert!(q.to_string().ends_with('?'));
    }
}

// ----- The table ([geometry] items) -----

/// A generated battle on its field, opened, in the first player's Movement phase.
fn opened(seed: u64) -> (Battle, Field) {
    let o = Options::default();
    let mut rng = GameRng::seed(seed);
    let map = Map::generate(&mut rng, &o).unwrap();
    let u = Army::generate(Side::Union, &mut rng, &o, 0, 1862).unwrap();
    let c = Army::generate(Side::Confederate, &mut rng, &o, 0, 1862).unwrap();
    let mut b = Battle::new(&u, &c, o).unwrap();
    let mut f = Field::new(&map).unwrap();
    f.deploy(&b).unwrap();
    b.open(&mut rng).unwrap();
    let inf = f.influence(&b, b.active());
    b.start_turn(&inf, &mut rng).unwrap();
    (b, f)
}

/// An open square (no piece, no river) away from the base lines.
fn open_square(f: &Field) -> Square {
    let d = f.map().data();
    Square::all()
        .filter(|s| (1..=3).contains(&s.row()) && (1..=4).contains(&s.column()))
        .find(|s| {
            let c = square_centre(*s);
            let (n, so) = (
                acw_core::measure::Point::new(c.x, c.y + inches(14.0)),
                acw_core::measure::Point::new(c.x, c.y - inches(14.0)),
            );
            f.map().piece(*s).is_none()
                && !d.river.route.contains(s)
                && f.crossed(n, so).0.is_empty()
        })
        .unwrap()
}

/// The active side's first foot regiment and the enemy's.
fn pair(b: &Battle) -> (UnitId, UnitId) {
    let side = b.active();
    let a = b
        .units()
        .iter()
        .find(|u| u.side == side && u.troop == Troop::Foot)
        .unwrap()
        .id;
    let e = b
        .units()
        .iter()
        .find(|u| u.side != side && u.troop == Troop::Foot)
        .unwrap()
        .id;
    (a, e)
}

/// Puts unit `id` with its centre at (x, y) cm facing its side's way.
fn put(b: &Battle, f: &mut Field, id: UnitId, x: f64, y: f64) {
    let side = b.unit(id).unwrap().side;
    f.set_place(
        id,
        Place {
            centre: at_cm(x, y),
            facing: facing(side),
        },
    );
}

/// D8-SET-02, D8-SET-04: the table is 180 × 150 cm over 6 × 5 squares of 30 cm numbered from the north-west.
#[test]
fn the_table_and_its_squares() {
    let (_, f) = opened(1);
    assert!((cm(f.table().width().0) - 180.0).abs() < 1e-9);
    assert!((cm(f.table().depth().0) - 150.0).abs() < 1e-9);
    assert_eq!(square_at(at_cm(1.0, 149.0)).unwrap().number(), 1);
    assert_eq!(square_at(at_cm(179.0, 1.0)).unwrap().number(), 30);
    assert_eq!(square_at(at_cm(45.0, 100.0)).unwrap().number(), 8);
    let c = square_centre(Square::new(8).unwrap());
    assert!((cm(c.x) - 45.0).abs() < 1e-9 && (cm(c.y) - 105.0).abs() < 1e-9);
    assert!(square_at(at_cm(181.0, 10.0)).is_none());
}

/// D8-SET-15, D8-SET-01, D8-MOV-03: every unit deploys wholly within 30 cm of its own base line, its footprint
/// sized from its figures and formation (a foot line 12.5 mm a figure).
#[test]
fn armies_deploy_on_their_base_lines() {
    for seed in 1..6 {
        let (b, f) = opened(seed);
        for u in b.units() {
            let fp = f.footprint(u).unwrap();
            for c in fp.corners() {
                let from_base = match u.side {
                    Side::Union => 150.0 - cm(c.y),
                    Side::Confederate => cm(c.y),
                };
                assert!(
                    (-1e-9..=30.0 + 1e-9).contains(&from_base),
                    "{} at {from_base}",
                    u.name
                );
            }
            if u.troop == Troop::Foot && u.formation == Formation::Line {
                assert!((cm(fp.frontage.0) - 1.25 * f64::from(u.figures)).abs() < 1e-9);
            }
        }
    }
}

/// D8-MOV-02, D8-MOV-06: a foot regiment moves at most 15 cm (every figure moves as far as its centre), and
/// only a move whose every square carries the road runs along it.
#[test]
fn moves_are_measured_on_the_table() {
    let (mut b, mut f) = opened(3);
    let (a, _) = pair(&b);
    let sq = open_square(&f);
    let c = square_centre(sq);
    put(&b, &mut f, a, cm(c.x), cm(c.y));
    // Keep the unit in influence: its Brigadier stands beside it.
    let officer = b.commanding_officer(a).unwrap();
    f.set_officer(officer, c);
    let inf = f.influence(&b, b.active());
    assert!(inf.iter().any(|&(id, d)| id == a && d < 5.0));
    b.end_movement().unwrap();
    let state = State::from_battle(b, f, 1).unwrap();
    assert_eq!(D8.owed(&state).unwrap().question, Question::Firing);
    let (b, f) = opened(3);
    let (a, _) = pair(&b);
    let mut f2 = f.clone();
    put(&b, &mut f2, a, cm(c.x), cm(c.y));
    let state = State::from_battle(b, f2, 1).unwrap();
    let toward = if state.battle().unwrap().active() == Side::Union {
        -1.0
    } else {
        1.0
    };
    let far = Order::Move {
        unit: a,
        x_cm: cm(c.x),
        y_cm: cm(c.y) + toward * 15.5,
    };
    let err = state.check_order(&far).unwrap_err();
    assert!(err.to_string().contains("at most 15 cm"), "{err}");
    let sideways = Order::Move {
        unit: a,
        x_cm: cm(c.x) + 10.0,
        y_cm: cm(c.y),
    };
    state.check_order(&sideways).unwrap();
    // The road: two neighbouring road squares, and a square off it.
    let d = f.map().data();
    let route = &d.road.route;
    if route.len() >= 2 {
        assert!(f.along_road(square_centre(route[0]), square_centre(route[1])));
    }
    let off = Square::all().find(|s| !f.road_square(*s)).unwrap();
    assert!(!f.along_road(square_centre(route[0]), square_centre(off)));
}

/// D8-FIR-03, D8-FIR-05: each figure of a line fires only at a target within 45° of its front, at the range band
/// of its own distance: a target off to the front-right is at short range for the near figures and long for the
/// far ones, and the volley the rules roll splits its dice so.
#[test]
fn fire_is_measured_figure_by_figure() {
    let (mut b, mut f) = opened(2);
    let side = b.active();
    let a = b
        .units()
        .iter()
        .find(|u| u.side == side && u.troop == Troop::Foot && u.class == Class::Veteran)
        .unwrap()
        .id;
    let e = pair(&b).1;
    let way = if side == Side::Union { -1.0 } else { 1.0 };
    put(&b, &mut f, a, 90.0, 75.0);
    // Rifles: short to 30 cm. The target ahead and to the right.
    put(&b, &mut f, e, 110.0, 75.0 + way * 30.0);
    let (ua, ue) = (b.unit(a).unwrap().clone(), b.unit(e).unwrap().clone());
    let (fa, fe) = (f.footprint(&ua).unwrap(), f.footprint(&ue).unwrap());
    let (ds, _) = f.fire_distances(&ua, &fa, &fe);
    let short = ds.iter().filter(|d| **d <= 30.0).count() as u32;
    let long = ds.iter().filter(|d| **d > 30.0).count() as u32;
    assert!(short > 0 && long > 0, "{ds:?}");
    // Far off to the side: no figure has it in its arc.
    let mut side_field = f.clone();
    put(&b, &mut side_field, e, 170.0, 75.0);
    let fe2 = side_field.footprint(&ue).unwrap();
    assert!(side_field.fire_distances(&ua, &fa, &fe2).0.is_empty());
    b.end_movement().unwrap();
    let mut state = State::from_battle(b.clone(), f, 5).unwrap();
    let mut log = Vec::new();
    D8.apply(&mut state, &Order::Fire { unit: a, target: e }, &mut log)
        .unwrap();
    let Some(Event::Fired {
        short: s, long: l, ..
    }) = log.last()
    else {
        panic!("no volley")
    };
    assert_eq!((s.0, l.0), (short, long));
    let state = State::from_battle(b, side_field, 5).unwrap();
    let err = state
        .check_order(&Order::Fire { unit: a, target: e })
        .unwrap_err();
    assert!(err.to_string().contains("arc"), "{err}");
}

/// D8-FIR-12, D8-ENV-01: a target's cover is the ground of its square (a wood is hard cover), and woods, farms
/// and hills between two points block the sight between them.
#[test]
fn cover_and_sight_come_from_the_map() {
    for seed in 1..30 {
        let (_, f) = opened(seed);
        let Some(&(_, w)) = f
            .map()
            .data()
            .pieces
            .iter()
            .find(|(p, s)| *p == Piece::Wood && (1..=4).contains(&s.column()))
        else {
            continue;
        };
        assert_eq!(f.cover_at(square_centre(w), true), Cover::Hard);
        let west = Square::at_cell(i32::from(w.column()) - 1, i32::from(w.row())).unwrap();
        let east = Square::at_cell(i32::from(w.column()) + 1, i32::from(w.row())).unwrap();
        let clear = |s: Square| f.map().piece(s).is_none();
        if clear(west) && clear(east) {
            assert!(f.sight_blocked(square_centre(west), square_centre(east), &[]));
            let c = square_centre(west);
            let near = acw_core::measure::Point::new(c.x + inches(5.0), c.y);
            assert!(!f.sight_blocked(c, near, &[]));
            assert!(f.deep_in_wood(square_centre(w)));
            return;
        }
    }
    panic!("no map with a wood between two open squares");
}

/// D8-ENV-01: a unit standing across the line of fire blocks the volley's sight: the state names it
/// (`check_fire`, what the commanders ask), and the volley is refused while it stands there and accepted with it
/// out of the way.
#[test]
fn a_unit_across_the_line_of_fire_screens_the_volley() {
    let (mut b, mut f) = opened(2);
    let side = b.active();
    let (a, e) = pair(&b);
    let friend = b
        .units()
        .iter()
        .find(|u| u.side == side && u.troop == Troop::Foot && u.id != a)
        .unwrap()
        .id;
    let c = square_centre(open_square(&f));
    let (x, y) = (cm(c.x), cm(c.y));
    let way = if side == Side::Union { -1.0 } else { 1.0 };
    put(&b, &mut f, a, x, y - way * 10.0);
    put(&b, &mut f, e, x, y + way * 10.0);
    b.end_movement().unwrap();
    let fire = Order::Fire { unit: a, target: e };
    let clear = State::from_battle(b.clone(), f.clone(), 5).unwrap();
    assert_eq!(clear.check_fire(a, e), FireCheck::Accepted);
    clear.check_order(&fire).unwrap();
    // The friend steps between them.
    put(&b, &mut f, friend, x, y);
    let screened = State::from_battle(b, f, 5).unwrap();
    assert_eq!(screened.check_fire(a, e), FireCheck::Across(friend));
    let err = screened.check_order(&fire).unwrap_err();
    assert!(err.to_string().contains("cannot see the target"), "{err}");
}

/// D8-MEL-01, D8-MOV-22: a melee needs base contact on the table, which a charge makes; a charge must cover
/// more than 3/4 of the charge rate (22.5 cm for foot).
#[test]
fn charges_make_contact_and_melee_needs_it() {
    let (mut b, mut f) = opened(6);
    let (a, e) = pair(&b);
    let sq = open_square(&f);
    let c = square_centre(sq);
    let side = b.active();
    let way = if side == Side::Union { -1.0 } else { 1.0 };
    put(&b, &mut f, a, cm(c.x), cm(c.y) - way * 13.0);
    // 20 cm apart (front to front): too short for a charge.
    put(&b, &mut f, e, cm(c.x), cm(c.y) - way * 13.0 + way * 22.0);
    let state = State::from_battle(b.clone(), f.clone(), 1).unwrap();
    let ua = state.battle().unwrap().unit(a).unwrap().clone();
    let ue = state.battle().unwrap().unit(e).unwrap().clone();
    let gap = f.gap_cm(&ua, &ue);
    assert!((gap - 20.0).abs() < 1e-6, "{gap}");
    assert!(ua.in_influence);
    {
        let err = state
            .check_order(&Order::Charge { unit: a, target: e })
            .unwrap_err();
        assert!(err.to_string().contains("charge"), "{err}");
        // 25 cm: a charge, ending in contact.
        put(&b, &mut f, e, cm(c.x), cm(c.y) - way * 13.0 + way * 27.0);
        let mut state = State::from_battle(b.clone(), f.clone(), 1).unwrap();
        let mut log = Vec::new();
        D8.apply(&mut state, &Order::Charge { unit: a, target: e }, &mut log)
            .unwrap();
        let bt = state.battle().unwrap();
        assert!(
            state
                .field()
                .unwrap()
                .gap_cm(bt.unit(a).unwrap(), bt.unit(e).unwrap())
                <= 0.1
        );
    }
    // Melee: refused out of contact, fought in contact.
    b.end_movement().unwrap();
    let mut r = GameRng::seed(3);
    b.end_firing(&mut r).unwrap();
    put(&b, &mut f, e, cm(c.x), cm(c.y) - way * 13.0 + way * 27.0);
    let state = State::from_battle(b.clone(), f.clone(), 1).unwrap();
    let err = state
        .check_order(&Order::Melee {
            attacker: a,
            defender: e,
        })
        .unwrap_err();
    assert!(err.to_string().contains("not in contact"), "{err}");
    let fa = f.footprint(&ua).unwrap();
    let fe = f.footprint(&ue).unwrap();
    let touching = fa.placed_in_contact(&fe);
    f.set_place(
        a,
        Place {
            centre: touching.centre,
            facing: touching.facing,
        },
    );
    let mut state = State::from_battle(b, f, 1).unwrap();
    let mut log = Vec::new();
    D8.apply(
        &mut state,
        &Order::Melee {
            attacker: a,
            defender: e,
        },
        &mut log,
    )
    .unwrap();
    let Some(Event::Fought { pairs, dice, .. }) = log.last() else {
        panic!("no melee")
    };
    // The narrower front decides the defenders in contact; every attacker in reach rolls, up to 3 a figure.
    let narrow = ua.figures.min(ue.figures);
    assert_eq!(*pairs, narrow);
    assert_eq!(*dice, ua.figures.min(3 * narrow));
}

/// D8-CMD-03, D8-CMD-04, D8-MOR-04: influence and the morale facts are measured base edge to base edge on the
/// table: a regiment 40 cm from its Brigadier is out of his 30 cm and may not advance; an enemy 20 cm off is near,
/// 40 cm off is not.
#[test]
fn influence_and_morale_are_measured() {
    let (b, mut f) = opened(8);
    let (a, e) = pair(&b);
    let side = b.active();
    let way = if side == Side::Union { -1.0 } else { 1.0 };
    let sq = open_square(&f);
    let c = square_centre(sq);
    put(&b, &mut f, a, cm(c.x), cm(c.y));
    let o = b.commanding_officer(a).unwrap();
    let ua = b.unit(a).unwrap().clone();
    let (_, depth) = acw_d8::field::size_cm(&ua);
    f.set_officer(
        o,
        c.moved(facing(side).reversed(), Inches(inches(40.0 + depth / 2.0))),
    );
    let d = f
        .influence(&b, side)
        .into_iter()
        .find(|(id, _)| *id == a)
        .unwrap()
        .1;
    assert!((d - 40.0).abs() < 1e-6, "{d}");
    let facts = f.morale_facts(&b, &ua);
    assert_eq!(
        facts.brigadier,
        if ua.brigade.is_some() {
            OfficerAt::Away
        } else {
            OfficerAt::InRange
        }
    );
    let ue = b.unit(e).unwrap().clone();
    let (_, de) = acw_d8::field::size_cm(&ue);
    put(
        &b,
        &mut f,
        e,
        cm(c.x),
        cm(c.y) + way * (depth / 2.0 + de / 2.0 + 20.0),
    );
    assert!(f.morale_facts(&b, &ua).enemy_near);
    put(
        &b,
        &mut f,
        e,
        cm(c.x),
        cm(c.y) + way * (depth / 2.0 + de / 2.0 + 40.0),
    );
    assert!(!f.morale_facts(&b, &ua).enemy_near);
}

/// D8-VIC-07, D8-VIC-02, D8-VIC-03: the end position is read from the table: a unit's figures count in the
/// square of its centre, and any figure in the squares its footprint reaches.
#[test]
fn the_end_position_is_read_from_the_table() {
    let (b, mut f) = opened(9);
    let (a, _) = pair(&b);
    let side = b.unit(a).unwrap().side;
    let c = square_centre(Square::new(15).unwrap());
    put(&b, &mut f, a, cm(c.x), cm(c.y));
    let pos = f.end_position(&b);
    assert!(*pos.squares[14].half_unit.get(side));
    assert!(!*pos.squares[14].half_unit.get(side.enemy()));
    // On the line between squares 15 and 16 the unit has figures in both, and half of it in one only.
    put(&b, &mut f, a, 90.0, cm(c.y));
    let pos = f.end_position(&b);
    assert!(*pos.squares[14].any_figure.get(side) && *pos.squares[15].any_figure.get(side));
    assert_eq!(
        u8::from(*pos.squares[14].half_unit.get(side))
            + u8::from(*pos.squares[15].half_unit.get(side)),
        1
    );
}

/// At the table every die is asked for with what it is for, naming the unit: the muster's army rolls, and a
/// volley's D8s.
#[test]
fn dice_at_the_table_are_announced() {
    use acw_core::game::{Dicing, Submitted, Throw};
    let mut game = Game::new(D8, &Scenario::default(), 12).unwrap();
    game.set_dicing(Dicing::AtTheTable).unwrap();
    let Ok(Submitted::Waiting(throw)) = game.submit(Side::Union, Order::Sharpshooters(0)) else {
        panic!("the muster should wait for dice")
    };
    assert!(
        throw.purpose().contains("the figures of the Union"),
        "{}",
        throw.purpose()
    );
    game.withdraw().unwrap();
    game.set_dicing(Dicing::Seeded).unwrap();
    let mut union = bots(Side::Union, 12);
    let mut rebels = bots(Side::Confederate, 12);
    loop {
        let Owed::Decision(d) = game.owed() else {
            panic!("no volley before the end")
        };
        let order = match d.side {
            Side::Union => union.order(game.rules(), game.state(), d.side),
            Side::Confederate => rebels.order(game.rules(), game.state(), d.side),
        };
        if let Order::Fire { unit, .. } = order {
            let firer = game
                .state()
                .battle()
                .unwrap()
                .unit(unit)
                .unwrap()
                .name
                .clone();
            game.set_dicing(Dicing::AtTheTable).unwrap();
            let Ok(Submitted::Waiting(Throw::Face { die, purpose, .. })) =
                game.submit(d.side, order)
            else {
                panic!("the volley should wait for its dice")
            };
            assert_eq!(*die, acw_core::Die::D8);
            assert!(
                purpose.starts_with("the volley of the ") && purpose.contains(&*firer),
                "{purpose}"
            );
            return;
        }
        game.submit(d.side, order).unwrap();
    }
}

/// Ids read as the kind in lower case and the number; the prelude brings the common types in.
#[test]
fn ids_read_as_words_and_the_prelude_imports() {
    use acw_d8::prelude::{OfficerId as O, StructureId, UnitId as U};
    assert_eq!(U(14).to_string(), "unit 14");
    assert_eq!(O(3).to_string(), "officer 3");
    assert_eq!(StructureId(2).to_string(), "structure 2");
}

/// A formation-fail test reads as a sentence naming the unit, and the turn's narration is built from it.
#[test]
fn formation_fail_tests_read_as_sentences() {
    use acw_d8::game::{Event, FfTestResult};
    let test = FfTestResult {
        unit: "2nd Texas".into(),
        need: 5,
        passed: true,
    };
    assert_eq!(
        test.to_string(),
        "The 2nd Texas tests its formation fail, needing 5+ on a D8 (50.0%): passed"
    );
    let failed = FfTestResult {
        unit: "1st Battery".into(),
        need: 4,
        passed: false,
    };
    let turn = Event::TurnBegan {
        side: Side::Confederate,
        turn: 2,
        tests: vec![test, failed],
        out_of_influence: 0,
    };
    assert_eq!(
        turn.to_string(),
        "Turn 2 of the Confederate player. \
         The 2nd Texas tests its formation fail, needing 5+ on a D8 (50.0%): passed. \
         The 1st Battery tests its formation fail, needing 4+ on a D8 (62.5%): failed."
    );
}

// ----- Flank marches -----

fn flanking(union: Flank, confederate: Flank) -> Scenario {
    let mut o = Options::default();
    o.flank_marches = true;
    let march = |side, flank| FlankMarch {
        side,
        flank,
        units: 2,
    };
    Scenario::generated(o, 1862)
        .unwrap()
        .with_flank_march(march(Side::Union, union))
        .unwrap()
        .with_flank_march(march(Side::Confederate, confederate))
        .unwrap()
}

/// D8-OPT-01, D8-OPT-02, D8-OPT-03: with flank marches on, each side holds back two units (its cavalry first) at
/// deployment, each rolls its D20, and each comes on at the table's edge of its flank square on the move it
/// rolled, then plays on: whole generated battles pass the conformance suite, and in each one every marcher due
/// before nightfall arrives by its flank's edge within its square, on its move.
#[test]
fn flank_marches_arrive_in_whole_games() {
    let scenario = flanking(Flank::West, Flank::East);
    let suite = Suite {
        seeds: &[31, 32, 33],
        commanders: &bots,
        refused_orders: &refused,
        invariants: &invariants,
    };
    conformance::run(&D8, &scenario, &suite).unwrap();
    let mut arrivals = 0;
    for seed in [31, 32, 33] {
        let (mut u, mut c) = (bots(Side::Union, seed), bots(Side::Confederate, seed));
        let played = play(&D8, &scenario, seed, BySide::new(&mut *u, &mut *c)).unwrap();
        let marched: Vec<_> = played
            .log
            .iter()
            .filter_map(|e| match e {
                Event::FlankMarched {
                    unit,
                    flank,
                    square,
                    on_move,
                    ..
                } => Some((unit.clone(), *flank, *square, *on_move)),
                _ => None,
            })
            .collect();
        assert_eq!(marched.len(), 4, "seed {seed}");
        let b = played.state.battle().unwrap();
        for (unit, flank, square, on_move) in marched {
            // The Union's flank is the west column, the Confederates' the east.
            let col = (square.number() - 1) % 6;
            assert_eq!(col, if flank == Flank::West { 0 } else { 5 });
            assert_eq!(
                flank,
                if unit.ends_with("(Union)") {
                    Flank::West
                } else {
                    Flank::East
                }
            );
            let arrived = played.log.iter().find_map(|e| match e {
                Event::FlankArrived {
                    unit: a,
                    square: s,
                    turn,
                } if *a == unit => Some((*s, *turn)),
                _ => None,
            });
            if u32::from(on_move) <= b.turn_limit() {
                assert_eq!(arrived, Some((square, u32::from(on_move))), "{unit}");
                arrivals += 1;
            } else {
                assert_eq!(arrived, None);
            }
        }
    }
    assert!(arrivals > 0);
}

/// D8-OPT-04: both sides marching by the same edge cancel: both forces leave the battle at once, are never
/// counted as lost, and never arrive.
#[test]
fn flank_marches_by_one_edge_cancel_in_the_game() {
    let scenario = flanking(Flank::East, Flank::East);
    let (mut u, mut c) = (bots(Side::Union, 7), bots(Side::Confederate, 7));
    let played = play(&D8, &scenario, 7, BySide::new(&mut *u, &mut *c)).unwrap();
    let cancelled = played
        .log
        .iter()
        .find_map(|e| match e {
            Event::FlankCancelled { units, .. } => Some(units.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(cancelled.len(), 4);
    assert!(
        played
            .log
            .iter()
            .all(|e| !matches!(e, Event::FlankMarched { .. } | Event::FlankArrived { .. }))
    );
    let b = played.state.battle().unwrap();
    let away: Vec<_> = b.units().iter().filter(|u| u.away.is_some()).collect();
    assert_eq!(away.len(), 4);
    assert!(away.iter().all(|u| u.removed && u.figures == u.original));
    // A scenario declaring two marches for one side, or one with flank marches off, is refused.
    let twice = flanking(Flank::West, Flank::East).with_flank_march(FlankMarch {
        side: Side::Union,
        flank: Flank::East,
        units: 1,
    });
    assert!(twice.unwrap_err().to_string().contains("already declared"));
    let off = Scenario::default().with_flank_march(FlankMarch {
        side: Side::Union,
        flank: Flank::East,
        units: 1,
    });
    assert!(off.unwrap_err().to_string().contains("not in play"));
}

/// The enemies within a distance of a unit, measured against the enemies gathered once (`enemies_placed`,
/// `within`), are those `gap_within` finds, in the battle's order, at the contact distance and at longer ones.
#[test]
fn enemies_within_a_distance_are_those_gap_within_finds() {
    let mut found = 0;
    for seed in 1..6 {
        let (b, f) = opened(seed);
        for side in [Side::Union, Side::Confederate] {
            let enemies = f.enemies_placed(&b, side);
            for a in b.units().iter().filter(|u| !u.removed && u.side == side) {
                for limit in [0.1, 60.0, 110.0, 200.0] {
                    let near: Vec<UnitId> = f.within(a, &enemies, limit).map(|o| o.id).collect();
                    let want: Vec<UnitId> = b
                        .units()
                        .iter()
                        .filter(|o| !o.removed && o.side != side)
                        .filter(|o| f.gap_within(a, o, limit).is_some())
                        .map(|o| o.id)
                        .collect();
                    assert_eq!(near, want, "{limit}");
                    found += near.len();
                }
            }
        }
    }
    assert!(found > 100, "{found}");
}

/// Whether two units' bases lie within a distance (`gap_at_most`, with its cheap lower and upper bounds, and
/// the tighter ones from the facings along the line between the centres) is the exact gap compared with it, for every pair of units, at limits about the exact gap and at fixed ones.
#[test]
fn gap_at_most_is_the_exact_gap_compared() {
    let mut accepted = 0;
    for seed in 1..6 {
        let (b, f) = opened(seed);
        for a in b.units().iter().filter(|u| !u.removed) {
            for o in b.units().iter().filter(|u| !u.removed && u.id != a.id) {
                let exact = f.gap_cm(a, o);
                for limit in [
                    0.1,
                    30.0,
                    60.0,
                    exact,
                    exact + 1e-3,
                    (exact - 1e-3).max(0.0),
                    exact + 0.05,
                    (exact - 0.05).max(0.0),
                    exact + 0.5,
                    (exact - 0.5).max(0.0),
                ] {
                    assert_eq!(
                        f.gap_at_most(a, o, limit),
                        exact <= limit,
                        "{exact} {limit}"
                    );
                }
                accepted += usize::from(f.gap_at_most(a, o, 60.0));
            }
        }
    }
    assert!(accepted > 100, "{accepted}");
}

/// The cheap bound between two units' bases, measured from one unit to many, is the pairwise bound bit for bit,
/// never more than the exact gap, and 0 from a unit to itself.
#[test]
fn least_gap_from_one_unit_is_the_pairwise_bound() {
    for seed in 1..6 {
        let (b, f) = opened(seed);
        for a in b.units().iter().filter(|u| !u.removed) {
            let gap = f.least_gap_from(a);
            for o in b.units().iter().filter(|u| !u.removed && u.id != a.id) {
                let least = gap(o);
                assert_eq!(least.to_bits(), f.least_gap_cm(a, o).to_bits());
                assert!(least >= 0.0 && least <= f.gap_cm(a, o) + 1e-9, "{least}");
            }
            assert_eq!(gap(a), 0.0);
        }
    }
}
