//! The grid rules as a whole game: conformance on squares and hexes (every game replayed at the table face by
//! face), golden playthroughs, illegal orders refused with nothing changed, the pause for a retreat's route,
//! the action query held equal to apply, and scenario loading.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use acw_core::dice::ScriptedDice;
use acw_core::game::{Commander, Game, Owed, Ruleset, play};
use acw_core::testing::conformance::{self, Suite};
use acw_core::{BySide, Side};
use acw_grid::RuleViolation;
use acw_grid::board::{Area, Board, GridKind};
use acw_grid::bots::{Attacker, Holder};
use acw_grid::game::{Event, Grid, Order, Question, State, Step};
use acw_grid::movement::MoveOrder;
use acw_grid::setup::{Scenario, Victory};
use acw_grid::state::UnitId;

fn bots(side: Side, seed: u64) -> Box<dyn Commander<Grid>> {
    match side {
        Side::Union => Box::new(Attacker::new(seed)),
        Side::Confederate => Box::new(Holder::new(seed ^ 0x5eed)),
    }
}

fn both_attack(side: Side, seed: u64) -> Box<dyn Commander<Grid>> {
    Box::new(Attacker::new(seed.wrapping_add(side as u64)))
}

/// Orders the state must refuse for the side asked: orders of other steps, an enemy's unit, unknown units.
fn refused(state: &State, side: Side) -> Vec<Order> {
    let mut v = vec![Order::Rally(UnitId(999))];
    match state.step() {
        Step::Initiative => v.extend([Order::Done, Order::MovesFirst(side)]),
        Step::Retreat(_) => v.extend([Order::Done, Order::Retreat(vec![Area::new(-5, -5)])]),
        _ => v.extend([Order::RollInitiative, Order::Retreat(Vec::new())]),
    }
    if let Some(e) = state.battle().units().find(|u| u.side() != side)
        && let Step::Move(_) = state.step()
    {
        v.push(Order::Rally(e.id()));
        v.push(Order::Move(acw_grid::movement::MoveOrder::along(e, vec![])));
    }
    v
}

fn invariants(state: &State) -> Result<(), String> {
    state.battle().validate().map_err(|e| e.to_string())?;
    let b = state.battle();
    for side in Side::both() {
        let now: u32 = b
            .units()
            .filter(|u| u.side() == side)
            .map(|u| u.stand_count())
            .sum();
        let lost = b.losses(side).stands_lost;
        if now + lost != state.starting_stands()[side] {
            return Err(format!(
                "{side}: {now} stands in play and {lost} lost, but {} at the start",
                state.starting_stands()[side]
            ));
        }
    }
    Ok(())
}

fn suite_on(
    kind: GridKind,
    seeds: std::ops::Range<u64>,
    commanders: conformance::MakeCommander<'_, Grid>,
) {
    let scenario = Scenario::meeting_engagement(11, kind);
    let seeds: Vec<u64> = seeds.collect();
    let suite = Suite {
        seeds: &seeds,
        commanders,
        refused_orders: &refused,
        invariants: &invariants,
    };
    if let Err(e) = conformance::run(&Grid, &scenario, &suite) {
        panic!("{e}");
    }
}

#[test]
fn conformance_on_squares() {
    suite_on(GridKind::Square, 0..20, &bots);
}

#[test]
fn conformance_on_hexes() {
    suite_on(GridKind::Hex, 0..20, &bots);
}

#[test]
fn conformance_with_two_attackers() {
    suite_on(GridKind::Square, 100..104, &both_attack);
    suite_on(GridKind::Hex, 100..104, &both_attack);
}

#[test]
fn golden_playthrough_on_squares() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/grid-squares-seed-7.log");
    let scenario = Scenario::meeting_engagement(7, GridKind::Square);
    if let Err(e) = conformance::golden(&Grid, &scenario, 7, &bots, &path) {
        panic!("{e}");
    }
}

#[test]
fn golden_playthrough_on_hexes() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/grid-hexes-seed-7.log");
    let scenario = Scenario::meeting_engagement(7, GridKind::Hex);
    if let Err(e) = conformance::golden(&Grid, &scenario, 7, &both_attack, &path) {
        panic!("{e}");
    }
}

/// Plays `seed` with the driver until `stop` says so, returning the game there.
fn play_until(kind: GridKind, seed: u64, stop: impl Fn(&State) -> bool) -> Option<Game<Grid>> {
    let scenario = Scenario::meeting_engagement(3, kind);
    let mut game = Game::new(Grid, &scenario, seed).unwrap();
    let (mut u, mut c) = (
        both_attack(Side::Union, seed),
        both_attack(Side::Confederate, seed),
    );
    loop {
        if stop(game.state()) {
            return Some(game);
        }
        let side = match game.owed() {
            Owed::Decision(d) => d.side,
            _ => return None,
        };
        let cmd = if side == Side::Union { &mut u } else { &mut c };
        let order = cmd.order(game.rules(), game.state(), side);
        game.submit(side, order).unwrap();
    }
}

/// GRID-SEQ-01: the sequence is the game's: leaving a step that is owed something, or giving an order of
/// another step, is refused and changes nothing, dice included.
#[test]
fn grid_seq_01_orders_out_of_sequence_are_refused() {
    let scenario = Scenario::meeting_engagement(3, GridKind::Square);
    let mut state = Grid.setup(&scenario, 1).unwrap();
    let before = state.clone();
    let mut log = Vec::new();
    // Before the initiative roll: no moving, no ending the step, no choosing the order.
    for bad in [
        Order::Done,
        Order::MovesFirst(Side::Union),
        Order::Retreat(vec![]),
    ] {
        let e = Grid.apply(&mut state, &bad, &mut log).unwrap_err();
        assert!(matches!(e, RuleViolation::NotAsked(_)), "{e}");
        assert_eq!(state, before);
        assert!(log.is_empty());
    }
    // Initiative 2 against 5: the Confederate player chooses; the Union may not.
    let mut dice = ScriptedDice::faces([2, 5]);
    Grid.apply_with(&mut state, &Order::RollInitiative, &mut dice, &mut log)
        .unwrap();
    assert_eq!(state.step(), Step::ChooseOrder(Side::Confederate));
    assert_eq!(Grid.owed(&state).unwrap().side, Side::Confederate);
    assert_eq!(Grid.owed(&state).unwrap().question, Question::ChooseOrder);
    // A second roll is refused.
    let again = state.clone();
    assert!(
        Grid.apply_with(
            &mut state,
            &Order::RollInitiative,
            &mut ScriptedDice::faces([6, 1]),
            &mut log
        )
        .is_err()
    );
    assert_eq!(state, again);
    Grid.apply(&mut state, &Order::MovesFirst(Side::Union), &mut log)
        .unwrap();
    // Bombardment: the Union (first player) names targets first, then the Confederates.
    assert_eq!(state.step(), Step::Bombard(Side::Union));
    assert!(matches!(
        log.last(),
        Some(Event::FirstPlayer {
            first: Side::Union,
            chosen_by: Some(Side::Confederate)
        })
    ));
}

/// GRID-SEQ-02, GRID-SEQ-05: an order whose dice source runs out is refused whole: no face of it is used and
/// the state, log and order of play are as before.
#[test]
fn grid_seq_02_a_faulted_dice_source_changes_nothing() {
    let scenario = Scenario::meeting_engagement(3, GridKind::Hex);
    let mut state = Grid.setup(&scenario, 1).unwrap();
    let before = state.clone();
    let mut log = Vec::new();
    let e = Grid
        .apply_with(
            &mut state,
            &Order::RollInitiative,
            &mut ScriptedDice::faces([4]),
            &mut log,
        )
        .unwrap_err();
    assert!(matches!(e, RuleViolation::Dice(_)), "{e}");
    assert_eq!(state, before);
    assert!(log.is_empty());
    let e = Grid
        .apply_with(
            &mut state,
            &Order::RollInitiative,
            &mut ScriptedDice::faces([4, 9]),
            &mut log,
        )
        .unwrap_err();
    assert!(matches!(e, RuleViolation::Dice(_)), "{e}");
    assert_eq!(state, before);
}

/// GRID-SEQ-05: bombardment targets are collected from both sides before any die is rolled; naming a second
/// target for one battery, or an enemy's battery, is refused.
#[test]
fn grid_seq_05_bombardment_waits_for_both_sides() {
    let game = (0..40)
        .find_map(|seed| {
            play_until(GridKind::Square, seed, |s| {
                matches!(s.step(), Step::Bombard(_))
                    && s.battle()
                        .units()
                        .any(|u| !s.bombard_targets(u.id()).is_empty())
            })
        })
        .expect("some turn has a battery in range");
    let state = game.state().clone();
    let Step::Bombard(side) = state.step() else {
        unreachable!()
    };
    let battery = state
        .battle()
        .units()
        .find(|u| !state.bombard_targets(u.id()).is_empty())
        .unwrap()
        .id();
    let target = state.bombard_targets(battery)[0];
    let order = Order::Bombard(acw_grid::fire::BombardOrder { battery, target });
    let mut s = state.clone();
    let mut log = Vec::new();
    let mut dice = ScriptedDice::faces([]);
    // Naming a target rolls nothing (an empty script is enough) and logs nothing.
    Grid.apply_with(&mut s, &order, &mut dice, &mut log)
        .unwrap();
    assert!(log.is_empty());
    // The same battery again is refused.
    let e = Grid.apply(&mut s.clone(), &order, &mut log).unwrap_err();
    assert!(e.to_string().contains("one target"), "{e}");
    // The other side may not name targets in this side's turn to speak.
    assert_eq!(Grid.owed(&s).unwrap().side, side);
}

/// GRID-MOR-09: where a retreat has more than one route the game pauses for the retreating unit's owner, who
/// must pick one of the routes the rules allow; any other path, or ending the step, is refused.
#[test]
fn grid_mor_09_a_retreat_with_a_choice_pauses_for_its_owner() {
    let mut found = None;
    for seed in 0..60 {
        if let Some(g) = play_until(GridKind::Square, seed, |s| {
            matches!(s.step(), Step::Retreat(_))
        }) {
            found = Some(g);
            break;
        }
    }
    let game = found.expect("some game pauses for a retreat");
    let state = game.state();
    let Step::Retreat(side) = state.step() else {
        unreachable!()
    };
    let d = Grid.owed(state).unwrap();
    assert_eq!(d.side, side);
    assert!(matches!(d.question, Question::Retreat { routes, .. } if routes > 1));
    let routes = state.retreat_routes();
    assert!(routes.len() > 1);
    for bad in [
        Order::Done,
        Order::Retreat(vec![Area::new(0, 0), Area::new(9, 9)]),
    ] {
        let mut s = state.clone();
        assert!(Grid.apply(&mut s, &bad, &mut Vec::new()).is_err());
        assert_eq!(&s, state);
    }
    let mut s = state.clone();
    let mut log = Vec::new();
    Grid.apply(&mut s, &Order::Retreat(routes[1].clone()), &mut log)
        .unwrap();
    assert!(
        matches!(log.first(), Some(Event::Retreat { .. })),
        "{log:?}"
    );
}

/// The action query is what apply accepts: over whole games, every order `State::actions` lists for a unit
/// passes `check_order` and is applied without refusal.
#[test]
fn actions_are_accepted_by_apply() {
    for kind in [GridKind::Square, GridKind::Hex] {
        let scenario = Scenario::meeting_engagement(5, kind);
        for seed in 0..6 {
            let mut game = Game::new(Grid, &scenario, seed).unwrap();
            let (mut u, mut c) = (
                both_attack(Side::Union, seed),
                both_attack(Side::Confederate, seed),
            );
            let mut checked = 0;
            while let Owed::Decision(d) = game.owed() {
                let state = game.state().clone();
                for unit in state.battle().units() {
                    for o in state.actions(unit.id()) {
                        state.check_order(&o).unwrap();
                        let mut s = state.clone();
                        Grid.apply(&mut s, &o, &mut Vec::new()).unwrap();
                        checked += 1;
                    }
                }
                let cmd = if d.side == Side::Union {
                    &mut u
                } else {
                    &mut c
                };
                let order = cmd.order(game.rules(), game.state(), d.side);
                game.submit(d.side, order).unwrap();
            }
            assert!(checked > 50, "{checked}");
        }
    }
}

/// The move search route by route, as `Battle::check_move` judges a whole move: breadth first, each area once by
/// the first route accepted.
fn routes_checked_one_by_one(state: &State, id: UnitId) -> Vec<Vec<Area>> {
    let b = state.battle();
    let u = b.unit(id).unwrap();
    let reach = (u.allowance_halves() as usize).min(6);
    let mut seen = vec![u.area()];
    let mut out = Vec::new();
    let mut queue = std::collections::VecDeque::from([Vec::new()]);
    while let Some(path) = queue.pop_front() {
        if path.len() >= reach {
            continue;
        }
        let here = path.last().copied().unwrap_or(u.area());
        for n in b.board().neighbours(here) {
            if seen.contains(&n) {
                continue;
            }
            let mut p: Vec<Area> = path.clone();
            p.push(n);
            if b.check_move(&MoveOrder::along(u, p.clone())).is_ok() {
                seen.push(n);
                out.push(p.clone());
                queue.push_back(p);
            }
        }
    }
    out
}

/// The meeting engagement on a `width` by `height` board of open areas, its terrain copied area by area (its
/// roads and obstacles left out).
fn enlarged(mut scenario: Scenario, width: u32, height: u32) -> Scenario {
    let mut board = Board::rectangle(scenario.board.kind(), width, height).unwrap();
    for a in scenario.board.areas() {
        board
            .set_terrain(a, *scenario.board.terrain(a).unwrap())
            .unwrap();
    }
    scenario.board = board;
    scenario
}

/// GRID-MOV-02, GRID-MOV-18, GRID-MOV-19: the one-search reachability (`Battle::reachable`, behind
/// `State::moves`) finds exactly the routes, in the same order, that checking every candidate route with the
/// whole move check finds, for every unit at every movement decision of whole games on both boards; and every
/// move it offers is accepted with the facing it carries. Also on a board of 20 by 16 areas, more than the
/// search keeps its per-area tables for on the stack.
#[test]
fn the_move_search_agrees_with_the_whole_move_check() {
    for kind in [GridKind::Square, GridKind::Hex] {
        for seed in 0..5 {
            let scenario = if seed < 4 {
                Scenario::meeting_engagement(seed + 2, kind)
            } else {
                enlarged(Scenario::meeting_engagement(seed + 2, kind), 20, 16)
            };
            assert_eq!(scenario.board.areas().count() > 256, seed == 4);
            let mut game = Game::new(Grid, &scenario, seed).unwrap();
            let (mut u, mut c) = (bots(Side::Union, seed), bots(Side::Confederate, seed));
            let mut compared = 0;
            while let Owed::Decision(d) = game.owed() {
                let state = game.state();
                if matches!(state.step(), Step::Move(_)) {
                    for unit in state.battle().units().filter(|x| x.side() == d.side) {
                        let moves = state.moves(unit.id());
                        for m in &moves {
                            state.battle().check_move(m).unwrap();
                        }
                        let found: Vec<Vec<Area>> = moves.into_iter().map(|m| m.path).collect();
                        let f = unit.flags();
                        if found.is_empty() && (f.bombarded || f.moved || f.rallied) {
                            continue;
                        }
                        assert_eq!(found, routes_checked_one_by_one(state, unit.id()));
                        compared += usize::from(!found.is_empty());
                    }
                }
                let cmd = if d.side == Side::Union {
                    &mut u
                } else {
                    &mut c
                };
                let order = cmd.order(game.rules(), game.state(), d.side);
                game.submit(d.side, order).unwrap();
            }
            assert!(compared > 20, "{compared}");
        }
    }
}

/// A route the move search marks as ending next to an enemy (an attack) is exactly one ending within 1 area of
/// an enemy unit, hidden or not, by the board's distance, on hexes and on squares measured square by square:
/// the Holder reads the mark instead of measuring, and the Attacker, when a unit has an attack, weighs only
/// its attacks (they end 1 area from the enemy, every other route farther). Checked for every route of every unit of the side to move
/// at every movement decision of whole games on both grids (with the Chebyshev reading of square distance, a
/// diagonal neighbour is within 1 area but not next to the unit, so there the Holder measures).
#[test]
fn a_route_marked_as_an_attack_ends_within_one_area_of_an_enemy() {
    for kind in [GridKind::Square, GridKind::Hex] {
        for seed in 0..4 {
            let scenario = Scenario::meeting_engagement(seed + 11, kind);
            let mut game = Game::new(Grid, &scenario, seed).unwrap();
            let (mut u, mut c) = (bots(Side::Union, seed), bots(Side::Confederate, seed));
            let (mut near, mut far) = (0, 0);
            while let Owed::Decision(d) = game.owed() {
                let state = game.state();
                if matches!(state.step(), Step::Move(_)) {
                    let b = state.battle();
                    for unit in b.units().filter(|x| x.side() == d.side) {
                        let routes = state.move_routes(unit.id());
                        for i in 0..routes.len() {
                            let within_one = b.units().filter(|e| e.side() != d.side).any(|e| {
                                b.board().distance(routes.end(i), e.area(), b.options()) <= 1
                            });
                            assert_eq!(routes.attack(i), within_one);
                            if within_one {
                                near += 1;
                            } else {
                                far += 1;
                            }
                        }
                        assert!(!routes.attack(routes.len()));
                    }
                }
                let cmd = if d.side == Side::Union {
                    &mut u
                } else {
                    &mut c
                };
                let order = cmd.order(game.rules(), game.state(), d.side);
                game.submit(d.side, order).unwrap();
            }
            assert!(near > 10 && far > 100, "{near} {far}");
        }
    }
}

/// A scenario asking for skirmish fire outside the Combat Phase (GRID-FIR-08) or for a game master's combat
/// split (GRID-OPT-05) is refused by the game at set-up, with the reason, instead of being played wrong; the
/// same scenario with the default options plays.
#[test]
fn options_the_game_does_not_play_are_refused_at_setup() {
    use acw_grid::options::SkirmishTiming;
    let mut scenario = Scenario::meeting_engagement(3, GridKind::Square);
    assert!(Grid.setup(&scenario, 1).is_ok());
    scenario.options.skirmish_timing = SkirmishTiming::BombardmentPhase;
    assert_eq!(
        Grid.setup(&scenario, 1).unwrap_err().to_string(),
        "the game does not play this option (a Battle driven directly does): skirmish fire at another time \
         than the Combat Phase"
    );
    scenario.options.skirmish_timing = SkirmishTiming::CombatPhase;
    scenario.options.game_master = true;
    assert_eq!(
        Grid.setup(&scenario, 1).unwrap_err(),
        RuleViolation::OptionNotInGame("a game master splitting the combats")
    );
}

/// GRID-VIC-01: games are decided by the rules (an army breaking) more often than by the turn limit, on both
/// boards; every game ends by the turn limit at the latest.
#[test]
fn grid_vic_01_games_are_decided_by_the_rules() {
    for kind in [GridKind::Square, GridKind::Hex] {
        let scenario = Scenario::meeting_engagement(1, kind);
        let summary = acw_core::game::simulate(&Grid, &scenario, 9, 200, bots, |_, _| ()).unwrap();
        assert_eq!(summary.games, 200);
        assert!(
            summary.decided_before_turn_limit().p > 0.5,
            "{kind:?}: {summary}"
        );
        assert!(summary.length.keys().all(|&t| t <= 12));
    }
}

/// The same batch seed gives the same summary (the game seeds are derived per game).
#[test]
fn same_seed_same_games() {
    let scenario = Scenario::meeting_engagement(2, GridKind::Hex);
    let a = acw_core::game::simulate(&Grid, &scenario, 4, 30, bots, |_, _| ()).unwrap();
    let b = acw_core::game::simulate(&Grid, &scenario, 4, 30, bots, |_, _| ()).unwrap();
    assert_eq!(a, b);
}

/// GRID-SET-11: a scenario file loads only if it sets up; a break point out of range or an objective off the
/// board is a typed error, and a saved scenario loads back equal.
#[test]
fn grid_set_11_scenario_files_are_checked() {
    let s = Scenario::meeting_engagement(4, GridKind::Square);
    let text = serde_json::to_string(&s).unwrap();
    let back: Scenario = serde_json::from_str(&text).unwrap();
    assert_eq!(back, s);
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["victory"]["break_percent"] = serde_json::json!(0);
    let e = serde_json::from_value::<Scenario>(v.clone()).unwrap_err();
    assert!(e.to_string().contains("break point"), "{e}");
    v["victory"]["break_percent"] = serde_json::json!(50);
    v["victory"]["objectives"] = serde_json::json!([{ "x": 40, "y": 40 }]);
    let e = serde_json::from_value::<Scenario>(v.clone()).unwrap_err();
    assert!(e.to_string().contains("not on the board"), "{e}");
    // Two units of one side stacked past the limit in one area is refused the same way.
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let first = v["units"][0]["area"].clone();
    for i in 1..4 {
        if v["units"][i]["side"] == v["units"][0]["side"] {
            v["units"][i]["area"] = first.clone();
        }
    }
    assert!(serde_json::from_value::<Scenario>(v).is_err());
    assert!(Victory::new(101, vec![]).is_err());
    assert!(Victory::new(50, vec![]).unwrap().broken(20, 10));
    assert!(!Victory::new(50, vec![]).unwrap().broken(20, 9));
}

/// GRID-VIC-01: two holders never close, so the game reaches its turn limit; the result is then the scenario's:
/// more objectives held wins, else 2 or more stands lost fewer, else a draw. Every event reads as a sentence
/// without Rust's debug forms.
#[test]
fn grid_vic_01_turn_limit_result() {
    use acw_core::game::{EndReason, GameResult};
    let scenario = Scenario::meeting_engagement(6, GridKind::Square);
    let (mut a, mut b) = (Holder::new(1), Holder::new(2));
    let g = play(
        &Grid,
        &scenario,
        6,
        BySide::new(&mut a as &mut dyn Commander<Grid>, &mut b),
    )
    .unwrap();
    assert_eq!(
        (g.outcome.turn, g.outcome.reason),
        (12, EndReason::TurnLimit)
    );
    let battle = g.state.battle();
    let objectives = g.state.victory().objectives();
    let held = |s: Side| battle.objectives_held(s, objectives);
    let lost = |s: Side| battle.losses(s).stands_lost;
    let want = if held(Side::Union) != held(Side::Confederate) {
        GameResult::Winner(if held(Side::Union) > held(Side::Confederate) {
            Side::Union
        } else {
            Side::Confederate
        })
    } else if lost(Side::Union) + 2 <= lost(Side::Confederate) {
        GameResult::Winner(Side::Union)
    } else if lost(Side::Confederate) + 2 <= lost(Side::Union) {
        GameResult::Winner(Side::Confederate)
    } else {
        GameResult::Draw
    };
    assert_eq!(g.outcome.result, want);
    assert!(matches!(g.log.last(), Some(Event::GameOver(o)) if *o == g.outcome));
    for e in &g.log {
        let t = e.to_string();
        assert!(
            !t.contains("UnitId") && !t.contains("Some(") && !t.contains('{'),
            "{t}"
        );
    }
}

/// GRID-MEL-12: after the dice, the game pauses for the player whose several units share hits that do not
/// split evenly; he must place every hit, as evenly as possible, on the units in that combat. Anything else is
/// refused and changes nothing. The Battle keeps the rolled dice meanwhile: the phase cannot end, the combats
/// cannot be rolled again, and the hits are placed once.
#[test]
fn grid_mel_12_the_receiving_player_places_hits_after_seeing_them() {
    let game = (0..80)
        .find_map(|seed| {
            play_until(GridKind::Square, seed, |s| {
                matches!(s.step(), Step::Allocate(_))
            })
            .or_else(|| {
                play_until(GridKind::Hex, seed, |s| {
                    matches!(s.step(), Step::Allocate(_))
                })
            })
        })
        .expect("some game pauses to place hits");
    let state = game.state().clone();
    let Step::Allocate(side) = state.step() else {
        unreachable!()
    };
    let d = Grid.owed(&state).unwrap();
    assert_eq!(d.side, side);
    assert!(matches!(d.question, Question::Allocate { .. }));
    assert!(d.question.to_string().contains("share the hits"));
    let owed = state.owed_allocations();
    assert!(!owed.is_empty());
    for o in &owed {
        assert_eq!(o.placer, side);
        assert!(o.units.len() > 1);
        assert_ne!(
            o.hits % o.units.len() as u32,
            0,
            "an even split leaves no choice"
        );
    }
    let o = &owed[0];
    let k = o.units.len() as u32;
    let even: Vec<(UnitId, u32)> = o
        .units
        .iter()
        .enumerate()
        .map(|(i, u)| (*u, o.hits / k + u32::from((i as u32) < o.hits % k)))
        .collect();
    let rest: Vec<(usize, Vec<(UnitId, u32)>)> = owed[1..]
        .iter()
        .map(|x| {
            let k = x.units.len() as u32;
            (
                x.combat,
                x.units
                    .iter()
                    .enumerate()
                    .map(|(i, u)| (*u, x.hits / k + u32::from((i as u32) < x.hits % k)))
                    .collect(),
            )
        })
        .collect();
    let with = |first: Vec<(UnitId, u32)>| {
        let mut v = vec![(o.combat, first)];
        v.extend(rest.iter().cloned());
        Order::Allocate(v)
    };
    // Every hit on one unit (not as even as possible), one hit short, a unit outside the combat, nothing.
    let mut lopsided = even.clone();
    lopsided[0].1 = o.hits;
    for x in lopsided.iter_mut().skip(1) {
        x.1 = 0;
    }
    let mut short = even.clone();
    short.iter_mut().find(|x| x.1 > 0).unwrap().1 -= 1;
    let mut outsider = even.clone();
    outsider[0].0 = UnitId(999);
    let mut bads = vec![
        with(short),
        with(outsider),
        Order::Allocate(vec![]),
        Order::Done,
    ];
    if o.hits >= 2 {
        bads.push(with(lopsided));
    }
    for bad in bads {
        let mut s = state.clone();
        assert!(
            Grid.apply(&mut s, &bad, &mut Vec::new()).is_err(),
            "{bad:?}"
        );
        assert_eq!(s, state);
    }
    // The Battle holds the dice: no second roll, no leaving the phase, nothing to place twice.
    let mut b = state.battle().clone();
    assert!(b.pending_combats().is_some());
    assert!(b.advance().is_err());
    assert!(
        b.roll_combats(
            &acw_grid::combat::CombatPlan::default(),
            &mut ScriptedDice::faces([])
        )
        .is_err()
    );
    assert!(
        b.resolve_combats(
            &acw_grid::combat::CombatPlan::default(),
            &mut ScriptedDice::faces([])
        )
        .is_err()
    );
    assert_eq!(&b, state.battle());
    // The even placement is accepted and logged.
    let mut s = state.clone();
    let mut log = Vec::new();
    Grid.apply(&mut s, &with(even), &mut log).unwrap();
    assert!(
        matches!(log.first(), Some(Event::HitsPlaced { .. })),
        "{log:?}"
    );
    assert!(s.battle().pending_combats().is_none() || matches!(s.step(), Step::Allocate(_)));
}

/// Events read as an example of play, with the dice and the exact chance of the result: 1 hit from 2 dice
/// hitting on 5–6 is 2·(1/3)·(2/3) = 4/9; a normal unit's recoil is faces 4–5 of the morale die, 1/3; the
/// initiative winner with no bonus on turn 1 (ties rerolled) is 1/2 a side.
#[test]
fn events_read_as_an_example_of_play() {
    use acw_grid::pool::HitPool;
    use acw_grid::sequence::{Initiative, InitiativeOutcome, TieBreak};
    use acw_grid::tables::MoraleResult;
    let e = Event::Bombarded {
        battery: "the Union 1st Battery".into(),
        target: "the Confederate 2nd Brigade".into(),
        pool: HitPool::uniform(2, 0).unwrap(),
        faces: vec![6, 3],
        hits: 1,
    };
    assert_eq!(
        e.to_string(),
        "The Union 1st Battery bombards the Confederate 2nd Brigade with 2 dice: 6, 3 — 1 hit (a 44.4% chance)."
    );
    let e = Event::Morale {
        unit: "the Union 2nd Brigade".into(),
        classes: [false, true, false],
        face: 4,
        result: MoraleResult::Recoiled,
    };
    assert_eq!(
        e.to_string(),
        "The Union 2nd Brigade tests morale: a 4, recoiled (a 33.3% chance)."
    );
    let e = Event::Initiative {
        faces: vec![2, 5],
        procedure: Initiative {
            bonus: None,
            tie: TieBreak::Reroll,
        },
        outcome: InitiativeOutcome::Chooses(Side::Confederate),
    };
    assert_eq!(
        e.to_string(),
        "Initiative dice: 2, 5 — the Confederate player wins and chooses the order (a 50.0% chance)."
    );
}
