//! The fixed battle of `common` on a fixed map laid on the table, for the `[geometry]` items played by the game.
//!
//! The map (from scripted dice): hills in squares 3 and 9, farms in 15 and 28, woods in 22 and 23, broken ground
//! in 12; the road 1, 8, 15, 16, 23, 30 with a farm road 23, 28; the river 4, 10, 16, 22, 28 (down the line
//! x = 105 cm) with the bridge in 16 and fords in 10 and 28. Squares are 30 cm, numbered from the north-west:
//! square 14 is x 30–60 cm, y 60–90 cm (y from the south edge).

use super::{battle_with, start};
use acw_core::dice::ScriptedDice;
use acw_core::game::Ruleset;
use acw_core::{GameRng, Side};
use acw_d8::Options;
use acw_d8::field::{Field, Place, at_cm, facing};
use acw_d8::game::{D8, Event, GameError, Order, State};
use acw_d8::map::Map;
use acw_d8::state::{Battle, UnitId};

/// The map described above.
pub fn table_map() -> Map {
    let mut d = ScriptedDice::faces([3, 9, 15, 3, 28, 22, 23, 12, 1, 10, 3, 4, 12, 2, 3]);
    Map::generate(&mut d, &Options::default()).unwrap()
}

/// The fixed battle on the map, deployed and opened with the Union to move first, in its Movement phase with
/// every unit in influence; every unit but `keep` parked in the south-east corner (square 30), out of the way.
pub fn on_table(options: Options, keep: &[UnitId]) -> (Battle, Field) {
    let map = table_map();
    for seed in 0.. {
        let mut b = battle_with(options.clone());
        let mut f = Field::new(&map).unwrap();
        f.deploy(&b).unwrap();
        b.open(&mut GameRng::seed(seed)).unwrap();
        if b.active() != Side::Union || b.wind() {
            continue;
        }
        start(&mut b);
        for u in b.units() {
            if !keep.contains(&u.id) {
                put(&b, &mut f, u.id, 165.0, 15.0);
            }
        }
        return (b, f);
    }
    unreachable!()
}

/// Puts unit `id` with its centre at (x, y) cm facing its side's way (the Union south, the Confederates north).
pub fn put(b: &Battle, f: &mut Field, id: UnitId, x: f64, y: f64) {
    let side = b.unit(id).unwrap().side;
    f.set_place(
        id,
        Place {
            centre: at_cm(x, y),
            facing: facing(side),
        },
    );
}

/// The battle with unit `id` changed as a saved game could hold it (its formation, limber…), loaded back
/// through the save's checks.
pub fn edited(b: &Battle, id: UnitId, edit: impl FnOnce(&mut serde_json::Value)) -> Battle {
    let mut v = serde_json::to_value(b).unwrap();
    edit(&mut v["units"][id.0 as usize]);
    serde_json::from_value(v).unwrap()
}

/// The game on this battle and field.
pub fn state(b: &Battle, f: &Field) -> State {
    State::from_battle(b.clone(), f.clone(), 1).unwrap()
}

/// Applies an order, returning its events.
pub fn apply(state: &mut State, order: Order) -> Result<Vec<Event>, GameError> {
    let mut log = Vec::new();
    D8.apply(state, &order, &mut log)?;
    Ok(log)
}

/// Ends phases until it is `side`'s Movement phase again.
pub fn next_turn(state: &mut State, side: Side) {
    apply(state, Order::EndPhase).unwrap();
    loop {
        let b = state.battle().unwrap();
        if b.active() == side && b.phase() == acw_d8::sequence::Phase::Movement {
            return;
        }
        apply(state, Order::EndPhase).unwrap();
    }
}
