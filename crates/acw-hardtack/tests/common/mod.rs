//! Shared test helpers.
#![allow(dead_code, clippy::unwrap_used)]

use acw_core::Side;
use acw_core::dice::ScriptedDice;
use acw_core::game::Ruleset;
use acw_core::measure::Point;
use acw_hardtack::game::{Deployed, Event, GameError, Hardtack, Order, State};
use acw_hardtack::state::{CompanySpec, FireFacts, Formation};
use acw_hardtack::{Battle, CompanyId, Options};

/// A battle with a Union company and a Confederate company, the Union one activated.
pub fn two(
    options: Options,
    union: (usize, Formation),
    rebels: (usize, Formation),
) -> (Battle, CompanyId, CompanyId) {
    let mut b = Battle::new(options);
    let mut u = CompanySpec::new("1st Minnesota, Company A", Side::Union, union.0);
    u.formation = union.1;
    let mut c = CompanySpec::new("8th Alabama, Company C", Side::Confederate, rebels.0);
    c.formation = rebels.1;
    let a = b.add_company(u).unwrap();
    let r = b.add_company(c).unwrap();
    b.activate(a).unwrap();
    (b, a, r)
}

/// Two Union companies "A" and "B" and a Confederate "D", four figures each, Regular LV2, for a combined
/// assault.
pub fn combined_assault() -> (Battle, CompanyId, CompanyId, CompanyId) {
    let mut b = Battle::new(Options::default());
    let mut add = |name: &str, side| b.add_company(CompanySpec::new(name, side, 4)).unwrap();
    let a1 = add("A", Side::Union);
    let a2 = add("B", Side::Union);
    let d = add("D", Side::Confederate);
    (b, a1, a2, d)
}

/// `firer` (already activated) fires at `target` 6" away in the open with `first`; reloads, and in the next
/// turn's activation fires again with `second`.
pub fn fire_twice(
    b: &mut Battle,
    firer: CompanyId,
    target: CompanyId,
    first: &[u16],
    second: &[u16],
) {
    let at = FireFacts {
        distance: 6.0,
        ..FireFacts::default()
    };
    b.fire(firer, target, at, &mut ScriptedDice::faces(first.to_vec()))
        .unwrap();
    b.reload(firer).unwrap();
    b.end_turn().unwrap();
    b.activate(firer).unwrap();
    b.fire(firer, target, at, &mut ScriptedDice::faces(second.to_vec()))
        .unwrap();
}

/// A company of `figures` figures of `side` in `formation`, placed with its centre at `at` (inches), for a
/// game scenario.
pub fn deployed(
    name: &str,
    side: Side,
    figures: usize,
    formation: Formation,
    at: (f64, f64),
) -> Deployed {
    let mut spec = CompanySpec::new(name, side, figures);
    spec.formation = formation;
    Deployed {
        spec,
        at: Point::new(at.0, at.1),
    }
}

/// Applies `order` to the game with scripted dice showing `faces` in turn, and returns its events; every face
/// must be used (a face left over means the order rolled fewer dice than the test expects).
pub fn apply(state: &mut State, order: Order, faces: &[u16]) -> Result<Vec<Event>, GameError> {
    let mut dice = ScriptedDice::faces(faces.to_vec());
    let mut log = Vec::new();
    Hardtack.apply_with(state, &order, &mut dice, &mut log)?;
    assert_eq!(dice.remaining(), 0, "{order:?} left dice unused: {log:?}");
    Ok(log)
}

/// `order` is refused by the game (and by both sides' `check_order`), and the game is exactly as it was;
/// returns why, as a person reads it.
pub fn refused(state: &mut State, order: Order) -> String {
    let before = state.clone();
    let why = apply(state, order.clone(), &[1, 1, 1, 1, 1, 1])
        .expect_err("the order was accepted")
        .to_string();
    assert_eq!(*state, before, "{order:?} changed the game");
    assert!(
        !state.check_order(Side::Union, &order) && !state.check_order(Side::Confederate, &order)
    );
    why
}
