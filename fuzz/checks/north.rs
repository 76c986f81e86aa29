//! Checks shared by North's fuzz targets and by the test that replays their committed corpora: whatever the
//! bytes, loading, ordering and throwing dice either work or are refused with a reason, and a refusal changes
//! nothing. Never a panic or a hang (every loop is bounded).

use acw_core::BySide;
use acw_core::game::{Commander, Dicing, Game, Owed, Ruleset, Submitted};
use acw_core::measure::{Heading, Inches};
use acw_north::UnitId;
use acw_north::bots::{Attacker, Holder};
use acw_north::game::{Action, CommandAction, North, Order, State};
use acw_north::morale::Choice;
use acw_north::setup::Scenario;
use acw_north::state::GeneralId;
use acw_north::tables::{BrigadeOrder, Formation};

/// Orders played at most per input, so no input runs long.
const MAX_ORDERS: usize = 150;

fn bots(seed: u64) -> (Attacker, Holder) {
    (Attacker::new(seed), Holder::new(seed))
}

/// Plays up to `n` orders of the bots from `state`; each refused order must leave the state as it was.
fn play_on(state: &mut State, seed: u64, n: usize) {
    let (mut a, mut h) = bots(seed);
    let mut commanders = BySide::new(&mut a as &mut dyn Commander<North>, &mut h);
    let mut log = Vec::new();
    for _ in 0..n {
        let Some(side) = North.to_order(state) else {
            return;
        };
        let order = commanders[side].order(&North, state, side);
        let before = state.clone();
        if North.apply(state, &order, &mut log).is_err() {
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
        && let Ok(mut state) = North.setup(&scenario, 7)
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

/// Reads the next 8 bytes as an f64 (any bits: NaN, infinities, huge values).
fn float(data: &mut &[u8]) -> f64 {
    let mut bits = [0u8; 8];
    for b in &mut bits {
        *b = next(data);
    }
    f64::from_le_bytes(bits)
}

fn order_from(data: &mut &[u8]) -> Option<Order> {
    let unit = UnitId(u32::from(next(data) % 40));
    let heading = Heading::degrees(float(data)).unwrap_or(Heading::EAST);
    Some(match next(data) % 12 {
        0 => Order::EndStep,
        1 => Order::Command(vec![CommandAction::General {
            general: GeneralId(u32::from(next(data) % 12)),
            with: Some(unit),
        }]),
        2 => Order::Command(vec![CommandAction::MajorGeneral {
            brigade: acw_north::state::BrigadeId(u32::from(next(data) % 10)),
            order: [
                BrigadeOrder::Advance,
                BrigadeOrder::Hold,
                BrigadeOrder::Withdraw,
            ][usize::from(next(data) % 3)],
        }]),
        3 => Order::Act {
            unit,
            action: Action::March {
                heading,
                distance: Some(Inches(float(data))),
                fire: next(data).is_multiple_of(2),
                conform: next(data).is_multiple_of(2),
                face: Some(heading),
            },
        },
        4 => Order::Act {
            unit,
            action: Action::Formation(
                [
                    Formation::Line,
                    Formation::Column,
                    Formation::Skirmish,
                    Formation::Limbered,
                    Formation::Unlimbered,
                ][usize::from(next(data) % 5)],
            ),
        },
        5 => Order::Act {
            unit,
            action: Action::Charge {
                target: UnitId(u32::from(next(data) % 40)),
            },
        },
        6 => Order::Act {
            unit,
            action: [
                Action::Stand,
                Action::Dismount,
                Action::Remount,
                Action::SkirmisherFallBack,
                Action::WithdrawFromMelee,
                Action::RemanGun,
                Action::PivotGun { facing: heading },
            ][usize::from(next(data) % 7)],
        },
        7 => Order::Attack {
            target: UnitId(u32::from(next(data) % 40)),
            attackers: (0..next(data) % 4)
                .map(|_| UnitId(u32::from(next(data) % 40)))
                .collect(),
        },
        8 => Order::Rally {
            general: GeneralId(u32::from(next(data) % 12)),
        },
        9 => Order::NoRally,
        10 => Order::Choose(if next(data).is_multiple_of(2) {
            Choice::LoseStand
        } else {
            Choice::FallBack
        }),
        _ => return None,
    })
}

/// Bytes read as a seed, a number of the bots' orders to play first, then orders of every kind (with any ids,
/// headings and lengths): each order is accepted or refused, and a refusal changes nothing. The engine's own
/// check (`check_order`) agrees with what it then does.
pub fn orders(mut data: &[u8]) {
    let seed = u64::from(next(&mut data));
    let Ok(mut state) = North.setup(&Scenario::default(), seed) else {
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
        match North.apply(&mut state, &order, &mut log) {
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

/// A game at the table with the bots deciding and the bytes typed in as faces (any value, possible or not):
/// an impossible face is refused and changes nothing; nothing is logged before an order's last face.
pub fn table_dice(data: &[u8]) {
    let Ok(game) = Game::new(North, &Scenario::default(), 3) else {
        return;
    };
    let mut game = game.with_dicing(Dicing::AtTheTable);
    let (mut a, mut h) = bots(3);
    let mut commanders = BySide::new(&mut a as &mut dyn Commander<North>, &mut h);
    let mut faces = data.iter().map(|&b| u16::from(b % 9));
    for _ in 0..MAX_ORDERS * 4 {
        match game.owed() {
            Owed::Decision(d) => {
                let order = commanders[d.side].order(game.rules(), game.state(), d.side);
                if game.submit(d.side, order).is_err() {
                    return;
                }
            }
            Owed::Throw { .. } => {
                let Some(face) = faces.next() else { return };
                let before = (game.state().clone(), game.log().len());
                match game.throw(face) {
                    Ok(Submitted::Waiting(_)) | Err(_) => {
                        assert_eq!((game.state().clone(), game.log().len()), before);
                    }
                    Ok(Submitted::Applied(_)) => {}
                }
            }
            Owed::Over(_) | Owed::Stuck => return,
        }
    }
}
