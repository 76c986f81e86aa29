//! Checks shared by TSATF's fuzz targets and by the test that replays their committed corpora: whatever the
//! bytes, loading and ordering either work or are refused with a reason, a refusal changes nothing, and the
//! engine's own check agrees with what it then does. Never a panic or a hang (every loop is bounded).

use acw_core::BySide;
use acw_core::game::{Commander, Ruleset};
use acw_tsatf::UnitId;
use acw_tsatf::bots::{Attacker, Holder};
use acw_tsatf::game::{Order, Scenario, State, Tsatf};
use acw_tsatf::state::Formation;

/// Orders played at most per input, so no input runs long.
const MAX_ORDERS: usize = 150;

/// Plays up to `n` orders of the bots from `state`; each refused order must leave the state as it was.
fn play_on(state: &mut State, seed: u64, n: usize) {
    let (mut a, mut h) = (Attacker::new(seed), Holder::new(seed));
    let mut commanders = BySide::new(&mut a as &mut dyn Commander<Tsatf>, &mut h);
    let mut log = Vec::new();
    for _ in 0..n {
        let Some(side) = Tsatf.to_order(state) else {
            return;
        };
        let order = commanders[side].order(&Tsatf, state, side);
        let before = state.clone();
        if Tsatf.apply(state, &order, &mut log).is_err() {
            assert_eq!(*state, before, "a refused order changed the game");
            return;
        }
        log.clear();
    }
}

/// Bytes read as a scenario or as a saved game: each either loads and plays on, or is refused.
pub fn load(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(scenario) = serde_json::from_str::<Scenario>(text)
        && let Ok(mut state) = Tsatf.setup(&scenario, 7)
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

fn order_from(data: &mut &[u8]) -> Option<Order> {
    let unit = UnitId(u32::from(next(data) % 24));
    let other = UnitId(u32::from(next(data) % 24));
    Some(match next(data) % 21 {
        0 => Order::Compulsory { unit },
        1 => Order::Advance {
            unit,
            toward: other,
        },
        2 => Order::Withdraw { unit },
        3 => Order::Form {
            unit,
            formation: [
                Formation::CloseOrderLine,
                Formation::MarchColumn,
                Formation::AssaultColumn,
                Formation::SkirmishLine,
                Formation::Limbered,
                Formation::Unlimbered,
            ][usize::from(next(data) % 6)],
        },
        4 => Order::Charge {
            unit,
            target: other,
        },
        5 => Order::Fire {
            unit,
            target: other,
        },
        6 => Order::Hold { unit },
        7 => Order::Pair {
            cadre_first: next(data).is_multiple_of(2),
        },
        8 => Order::Fight {
            cadre_first: next(data).is_multiple_of(2),
            pursue: next(data).is_multiple_of(2),
        },
        9 => Order::Rally {
            unit,
            attempt: next(data).is_multiple_of(2),
        },
        10 => Order::Mount {
            unit,
            mount: next(data).is_multiple_of(2),
        },
        11 => Order::Limber {
            unit,
            limber: next(data).is_multiple_of(2),
        },
        12 => Order::Scout {
            unit,
            toward: other,
        },
        13 => Order::Dismantle { unit },
        14 => Order::Carry {
            unit,
            carriers: u16::from(next(data) % 4),
        },
        15 => Order::Pool {
            unit,
            target: other,
        },
        16 => Order::Shoot {
            unit,
            figure: u16::from(next(data) % 24),
            target: other,
            aim: u16::from(next(data) % 24),
        },
        17 => Order::Split { unit },
        18 => Order::Ride {
            unit,
            toward: other,
            die: next(data) % 8,
        },
        19 => Order::Finish { unit },
        _ => return None,
    })
}

/// Bytes read as a seed, a number of the bots' orders to play first, then orders of every kind (with any
/// ids): each order is accepted or refused, a refusal changes nothing, and the engine's own check
/// (`check_order`) agrees with what it then does.
pub fn orders(mut data: &[u8]) {
    let seed = u64::from(next(&mut data));
    let Ok(mut state) = Tsatf.setup(&Scenario::default(), seed) else {
        return;
    };
    let warm = usize::from(next(&mut data)) * 2;
    play_on(&mut state, seed, warm.min(MAX_ORDERS * 3));
    let mut log = Vec::new();
    for _ in 0..64 {
        if data.is_empty() {
            return;
        }
        let Some(order) = order_from(&mut data) else {
            continue;
        };
        let verdict = state.check_order(&order);
        let before = state.clone();
        match Tsatf.apply(&mut state, &order, &mut log) {
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
        log.clear();
    }
}
