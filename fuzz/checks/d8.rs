//! Checks shared by D8's fuzz targets and by the test that replays their committed corpora: whatever the bytes,
//! loading a scenario or a save, and giving orders, either work or are refused with a reason, and a refusal
//! changes nothing. Never a panic or a hang (every loop is bounded).

use acw_core::BySide;
use acw_core::game::{Commander, Ruleset};
use acw_d8::bots::{Attacker, Holder};
use acw_d8::game::{D8, Order, Scenario, State};
use acw_d8::state::{OfficerId, UnitId};
use acw_d8::tables::{Boat, Formation};

/// Orders played at most per input, so no input runs long.
const MAX_ORDERS: usize = 150;

/// Plays up to `n` orders of the bots from `state`; each refused order must leave the state as it was.
fn play_on(state: &mut State, seed: u64, n: usize) {
    let (mut a, mut h) = (Attacker::new(seed), Holder::new(seed));
    let mut commanders = BySide::new(&mut a as &mut dyn Commander<D8>, &mut h);
    let mut log = Vec::new();
    for _ in 0..n {
        let Some(side) = D8.to_order(state) else {
            return;
        };
        let order = commanders[side].order(&D8, state, side);
        let before = state.clone();
        if D8.apply(state, &order, &mut log).is_err() {
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
        && let Ok(mut state) = D8.setup(&scenario, 7)
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

/// Reads a length in cm: any f64 bits (NaN, infinities, huge values) when the first byte is odd, otherwise a
/// point on or near the table (0 to 191 cm in steps of 0.75).
fn length(data: &mut &[u8]) -> f64 {
    if !next(data).is_multiple_of(2) {
        let mut bits = [0u8; 8];
        for b in &mut bits {
            *b = next(data);
        }
        f64::from_le_bytes(bits)
    } else {
        f64::from(next(data)) * 0.75
    }
}

fn order_from(data: &mut &[u8]) -> Order {
    let unit = UnitId(u32::from(next(data) % 48));
    let other = UnitId(u32::from(next(data) % 48));
    match next(data) % 14 {
        0 => Order::EndPhase,
        1 => Order::Sharpshooters(next(data) % 4),
        2 | 3 => Order::Move {
            unit,
            x_cm: length(data),
            y_cm: length(data),
        },
        4 => Order::Charge {
            unit,
            target: other,
        },
        5 => Order::Formation {
            unit,
            to: [Formation::Line, Formation::Column, Formation::Skirmish]
                [usize::from(next(data) % 3)],
        },
        6 => Order::Limber {
            unit,
            limbered: next(data).is_multiple_of(2),
        },
        7 => Order::Mount {
            unit,
            mounted: next(data).is_multiple_of(2),
        },
        8 => Order::Fire {
            unit,
            target: other,
        },
        9 => Order::Melee {
            attacker: unit,
            defender: other,
        },
        10 => Order::Realign {
            unit,
            towards: other,
        },
        11 => Order::FireAtOfficer {
            unit,
            officer: OfficerId(u32::from(next(data) % 12)),
        },
        12 => match next(data) % 5 {
            0 => Order::Boat { unit, boat: None },
            1 => Order::Boat {
                unit,
                boat: Some(Boat::Canoe),
            },
            2 => Order::Boat {
                unit,
                boat: Some(Boat::LargeBoat),
            },
            _ => Order::Row {
                unit,
                x_cm: length(data),
                y_cm: length(data),
            },
        },
        _ => Order::Building {
            unit,
            figures: u32::from(next(data) % 8),
        },
    }
}

/// Bytes read as a seed, a number of the bots' orders to play first (from the muster into the battle), then
/// orders of every kind (with any ids and lengths): each order is accepted or refused, a refusal changes
/// nothing, and the engine's own check (`check_order`) agrees with what it then does.
pub fn orders(mut data: &[u8]) {
    let seed = u64::from(next(&mut data));
    let Ok(mut state) = D8.setup(&Scenario::default(), seed) else {
        return;
    };
    let warm = usize::from(next(&mut data)) * 2;
    play_on(&mut state, seed, warm.min(MAX_ORDERS * 3));
    let mut log = Vec::new();
    for _ in 0..64 {
        if data.is_empty() {
            return;
        }
        let order = order_from(&mut data);
        let verdict = state.check_order(&order);
        let before = state.clone();
        match D8.apply(&mut state, &order, &mut log) {
            Ok(()) => assert!(
                verdict.is_ok(),
                "checked as refused, then accepted: {order:?}: {verdict:?}"
            ),
            Err(e) => {
                assert_eq!(state, before, "a refused order changed the game: {order:?}");
                assert!(
                    verdict.is_err(),
                    "checked as allowed, then refused: {order:?}: {e}"
                );
            }
        }
    }
}
