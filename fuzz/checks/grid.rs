//! Checks shared by the grid rules' fuzz targets and by the test that replays their committed corpora: whatever
//! the bytes, loading a scenario or a saved game and giving orders either work or are refused with a reason, and
//! a refusal changes nothing, the dice included. Never a panic or a hang (every loop is bounded).

use acw_core::BySide;
use acw_core::game::{Commander, Ruleset};
use acw_core::vocab::{Formation, Mount};
use acw_grid::board::{Area, Facing, GridKind};
use acw_grid::bots::{Attacker, Holder};
use acw_grid::fire::{BombardOrder, SkirmishOrder};
use acw_grid::game::{Grid, Order, State};
use acw_grid::movement::MoveOrder;
use acw_grid::setup::Scenario;
use acw_grid::state::UnitId;

/// Orders played at most per input, so no input runs long.
const MAX_ORDERS: usize = 150;

/// Plays up to `n` orders of the bots from `state`; each refused order must leave the state as it was.
fn play_on(state: &mut State, seed: u64, n: usize) {
    let (mut a, mut h) = (Attacker::new(seed), Holder::new(seed ^ 1));
    let mut commanders = BySide::new(&mut a as &mut dyn Commander<Grid>, &mut h);
    let mut log = Vec::new();
    for _ in 0..n {
        let Some(side) = Grid.to_order(state) else {
            return;
        };
        let order = commanders[side].order(&Grid, state, side);
        let before = state.clone();
        if Grid.apply(state, &order, &mut log).is_err() {
            assert_eq!(*state, before, "a refused order changed the game");
            return;
        }
    }
}

/// Bytes read as a scenario or as a saved game: each either loads and plays on, or is refused.
pub fn load(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(scenario) = serde_json::from_str::<Scenario>(text)
        && let Ok(mut state) = Grid.setup(&scenario, 7)
    {
        // What was set up saves and loads back exactly.
        let saved = serde_json::to_string(&state).unwrap_or_default();
        let back = serde_json::from_str::<State>(&saved).ok();
        assert_eq!(
            back.as_ref(),
            Some(&state),
            "a fresh game did not load back"
        );
        play_on(&mut state, 7, MAX_ORDERS);
    }
    if let Ok(mut state) = serde_json::from_str::<State>(text) {
        let saved = serde_json::to_string(&state).unwrap_or_default();
        let back = serde_json::from_str::<State>(&saved).ok();
        assert_eq!(
            back.as_ref(),
            Some(&state),
            "a loaded game did not save back"
        );
        play_on(&mut state, 9, MAX_ORDERS);
    }
}

/// Reads the next byte (0 when the input is used up).
fn next(data: &mut &[u8]) -> u8 {
    match data.split_first() {
        Some((&b, rest)) => {
            *data = rest;
            b
        }
        None => 0,
    }
}

/// Any area near the board (the board is 10 x 12; a byte's range reaches well off it either way).
fn area(data: &mut &[u8]) -> Area {
    Area::new(
        i32::from(next(data) as i8) / 8,
        i32::from(next(data) as i8) / 8,
    )
}

fn unit(data: &mut &[u8]) -> UnitId {
    UnitId(u32::from(next(data) % 32))
}

fn order_from(state: &State, data: &mut &[u8]) -> Option<Order> {
    let kind = state.battle().board().kind();
    let facing = Facing::new(kind, next(data) % 6).unwrap_or(Facing::NORTH);
    Some(match next(data) % 12 {
        0 => Order::RollInitiative,
        1 => Order::MovesFirst(if next(data).is_multiple_of(2) {
            acw_core::Side::Union
        } else {
            acw_core::Side::Confederate
        }),
        2 => Order::Bombard(BombardOrder {
            battery: unit(data),
            target: unit(data),
        }),
        3 => Order::Move(MoveOrder {
            unit: unit(data),
            stands: (next(data).is_multiple_of(3)).then(|| {
                (0..next(data) % 4)
                    .map(|_| usize::from(next(data) % 5))
                    .collect()
            }),
            path: (0..next(data) % 6).map(|_| area(data)).collect(),
            column: next(data).is_multiple_of(2),
            end_formation: [
                Formation::Line,
                Formation::Column,
                Formation::MarchColumn,
                Formation::Skirmish,
                Formation::Square,
            ][usize::from(next(data) % 5)],
            facing,
            mount: if next(data).is_multiple_of(2) {
                Mount::Mounted
            } else {
                Mount::Dismounted
            },
            end_mount: if next(data).is_multiple_of(2) {
                Mount::Mounted
            } else {
                Mount::Dismounted
            },
            detached_take_hit: next(data).is_multiple_of(2),
        }),
        4 => Order::Rally(unit(data)),
        5 => Order::Skirmish(SkirmishOrder {
            firer: unit(data),
            target: unit(data),
        }),
        6 => Order::Allocate(
            (0..next(data) % 3)
                .map(|_| {
                    (
                        usize::from(next(data) % 4),
                        (0..next(data) % 3)
                            .map(|_| (unit(data), u32::from(next(data) % 8)))
                            .collect(),
                    )
                })
                .collect(),
        ),
        7 => Order::Retreat((0..next(data) % 4).map(|_| area(data)).collect()),
        8 => Order::Pursue {
            unit: unit(data),
            into: area(data),
            facing,
        },
        9 => Order::Done,
        // A legal action of some unit, as the engine lists them: the bytes then pick one.
        10 | 11 => {
            let actions = state.actions(unit(data));
            if actions.is_empty() {
                return None;
            }
            actions[usize::from(next(data)) % actions.len()].clone()
        }
        _ => return None,
    })
}

/// Bytes read as a seed, a board kind, a number of the bots' orders to play first (a real mid-game state),
/// then orders of every kind (any ids and areas, or legal actions the engine lists): each order is accepted or
/// refused, a refusal changes nothing, and the engine's own check (`check_order`) agrees with what it then does.
pub fn orders(mut data: &[u8]) {
    let seed = u64::from(next(&mut data));
    let kind = if next(&mut data).is_multiple_of(2) {
        GridKind::Square
    } else {
        GridKind::Hex
    };
    let Ok(mut state) = Grid.setup(&Scenario::meeting_engagement(seed, kind), seed) else {
        return;
    };
    let warm = usize::from(next(&mut data)) * 2;
    play_on(&mut state, seed, warm.min(MAX_ORDERS * 3));
    let mut log = Vec::new();
    for _ in 0..64 {
        if data.is_empty() {
            return;
        }
        let Some(order) = order_from(&state, &mut data) else {
            continue;
        };
        let verdict = state.check_order(&order);
        let before = state.clone();
        match Grid.apply(&mut state, &order, &mut log) {
            Ok(()) => assert!(
                verdict.is_ok(),
                "checked as refused, then accepted: {order:?}"
            ),
            Err(_) => {
                assert_eq!(state, before, "a refused order changed the game: {order:?}");
                assert!(
                    verdict.is_err(),
                    "checked as allowed, then refused: {order:?}"
                );
            }
        }
    }
}
