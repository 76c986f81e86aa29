//! Checks shared by Hardtack's fuzz targets and by the test that replays their committed corpora: whatever the
//! bytes, loading a scenario or a saved game and giving orders either work or are refused with a reason, and a
//! refusal changes nothing. Never a panic or a hang (every loop is bounded).

use acw_core::game::{Commander, Ruleset};
use acw_core::measure::{Heading, Point};
use acw_core::{BySide, Side};
use acw_hardtack::bots::{Holder, Thruster};
use acw_hardtack::game::{DeployedDummy, Hardtack, Order, Retreat, Scenario, State};
use acw_hardtack::state::{Ammunition, Formation, UnhorsedChoice};
use acw_hardtack::{CompanyId, DummyId, GunId};

/// Orders played at most per input, so no input runs long.
const MAX_ORDERS: usize = 150;

/// Plays up to `n` orders of the bots from `state`; a refused order must leave the state as it was.
fn play_on(state: &mut State, seed: u64, n: usize) {
    let (mut t, mut h) = (Thruster::new(seed), Holder::new(seed ^ 1));
    let mut commanders = BySide::new(&mut t as &mut dyn Commander<Hardtack>, &mut h);
    let mut log = Vec::new();
    for _ in 0..n {
        let Some(side) = Hardtack.to_order(state) else {
            return;
        };
        let order = commanders[side].order(&Hardtack, state, side);
        let before = state.clone();
        if Hardtack.apply(state, &order, &mut log).is_err() {
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
    if let Ok(scenario) = serde_json::from_str::<Scenario>(text) {
        // A scenario that loaded passed every check of set-up.
        let mut state = match Hardtack.setup(&scenario, 7) {
            Ok(state) => state,
            Err(e) => panic!("a loaded scenario could not be set up: {e}"),
        };
        // What was set up saves and loads back exactly.
        let saved = serde_json::to_string(&state).unwrap_or_default();
        let back = serde_json::from_str::<State>(&saved).ok();
        assert_eq!(
            back.as_ref(),
            Some(&state),
            "a fresh game did not load back"
        );
        // And the scenario writes and reads back as itself.
        let written = serde_json::to_string(&scenario).unwrap_or_default();
        assert_eq!(
            serde_json::from_str::<Scenario>(&written).ok().as_ref(),
            Some(&scenario),
            "a scenario did not load back"
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

/// A company id, mostly among the default scenario's twelve, sometimes past them.
fn company(data: &mut &[u8]) -> CompanyId {
    CompanyId(u32::from(next(data) % 16))
}

/// A counter id, mostly among the hidden scenario's four, sometimes past them.
fn dummy(data: &mut &[u8]) -> DummyId {
    DummyId(u32::from(next(data) % 6))
}

/// A gun id, mostly among the default scenario's two, sometimes past them.
fn gun(data: &mut &[u8]) -> GunId {
    GunId(u32::from(next(data) % 4))
}

/// The default scenario with something hidden: each side's skirmish company (E and K) deploys hidden, and each
/// side has two dummy counters, one of the Confederates' in the wood.
pub fn hidden_scenario() -> Scenario {
    let mut scenario = Scenario::default();
    for c in &mut scenario.companies {
        if c.spec.name.ends_with("Company E") || c.spec.name.ends_with("Company K") {
            c.spec.hidden = true;
        }
    }
    let counter = |side, x, y| DeployedDummy {
        side,
        at: Point::new(x, y),
    };
    scenario.dummies = vec![
        counter(Side::Union, 14.0, 11.0),
        counter(Side::Union, 36.0, 11.0),
        counter(Side::Confederate, 14.0, 24.0),
        counter(Side::Confederate, 34.0, 23.5),
    ];
    scenario
}

fn order_from(data: &mut &[u8], state: &State) -> Order {
    match next(data) % 27 {
        0 => Order::GoFirst(if next(data).is_multiple_of(2) {
            Side::Union
        } else {
            Side::Confederate
        }),
        1 => Order::Activate(company(data)),
        2 => Order::Pass,
        // any point at all
        3 => Order::Move {
            to: Point::new(float(data), float(data)),
        },
        // a step of up to about 12" from where the active company stands, as a player would order
        4 => {
            let from = state
                .active()
                .and_then(|a| state.field().footprint(a))
                .map_or(Point::new(24.0, 18.0), |f| f.centre);
            let dx = f64::from(next(data)) / 10.0 - 12.8;
            let dy = f64::from(next(data)) / 10.0 - 12.8;
            Order::Move {
                to: Point::new(from.x + dx, from.y + dy),
            }
        }
        5 => Order::Fire {
            target: company(data),
        },
        6 => Order::Reload,
        7 => Order::Rally {
            target: company(data),
        },
        8 => Order::Reorganise(
            [Formation::Line, Formation::Skirmish, Formation::Column][usize::from(next(data) % 3)],
        ),
        9 => Order::Assault {
            defender: company(data),
        },
        10 => Order::Defend {
            stand: next(data).is_multiple_of(2),
            final_fire: next(data).is_multiple_of(2),
        },
        11 => Order::React(if next(data).is_multiple_of(3) {
            None
        } else {
            Some(company(data))
        }),
        // any heading, in steps of about 1.4 degrees
        12 => Order::Withdraw(Heading::NORTH.turned(f64::from(next(data)) * 360.0 / 256.0)),
        13 => Order::StayMidDash,
        14 => Order::AbortAssault,
        15 => Order::FallBack(if next(data).is_multiple_of(2) {
            Retreat::Cover
        } else {
            Retreat::StartPoint
        }),
        16 => Order::Load(
            [
                Ammunition::Shot,
                Ammunition::Canister,
                Ammunition::Case,
                Ammunition::SphericalCase,
            ][usize::from(next(data) % 4)],
        ),
        17 => Order::FireGun {
            target: company(data),
        },
        18 => Order::Observe { dummy: dummy(data) },
        19 => Order::ObserveCompany {
            target: company(data),
        },
        20 => Order::FireAtDummy { dummy: dummy(data) },
        21 => Order::FireAtTeam { gun: gun(data) },
        22 => Order::FireGunAtTeam { team: gun(data) },
        23 => Order::Unhorsed(
            [
                UnhorsedChoice::Skirmish,
                UnhorsedChoice::Detach,
                UnhorsedChoice::Remove,
            ][usize::from(next(data) % 3)],
        ),
        // zero to four companies, any ids
        24 => Order::ActivateRegiment {
            companies: (0..next(data) % 5).map(|_| company(data)).collect(),
        },
        25 => Order::Transfer { to: company(data) },
        _ => Order::EndActivation,
    }
}

/// Bytes read as a seed (whose top bit chooses the default scenario or [`hidden_scenario`]), a number of the
/// bots' orders to play first (a real mid-game state), then orders of every kind (with any ids and points): each order is accepted or refused, a refusal changes nothing, and the
/// engine's own check (`check_order`, for the side that owes the decision) agrees with what it then does.
pub fn orders(mut data: &[u8]) {
    let seed = u64::from(next(&mut data));
    // the seed's top bit chooses the scenario: the default, or one with hidden companies and counters
    let scenario = if seed >= 128 {
        hidden_scenario()
    } else {
        Scenario::default()
    };
    let mut state = match Hardtack.setup(&scenario, seed) {
        Ok(state) => state,
        Err(e) => panic!("a fixed scenario could not be set up: {e}"),
    };
    let warm = usize::from(next(&mut data)) * 2;
    play_on(&mut state, seed, warm.min(MAX_ORDERS * 3));
    let mut log = Vec::new();
    for _ in 0..64 {
        if data.is_empty() {
            return;
        }
        let order = order_from(&mut data, &state);
        let verdict = Hardtack
            .to_order(&state)
            .is_some_and(|side| state.check_order(side, &order));
        let before = state.clone();
        match Hardtack.apply(&mut state, &order, &mut log) {
            Ok(()) => assert!(verdict, "checked as refused, then accepted: {order:?}"),
            Err(_) => {
                assert_eq!(state, before, "a refused order changed the game: {order:?}");
                assert!(!verdict, "checked as allowed, then refused: {order:?}");
            }
        }
    }
}
