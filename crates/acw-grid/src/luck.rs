//! The luck of a grid battle: each roll of the log placed among the results it could have had
//! ([`acw_core::luck`]).
//!
//! The events that report luck, and whom each roll served:
//!
//! - [`Event::Fought`]: each side's combat dice, for that side (more hits scored is better);
//! - [`Event::Initiative`]: each initiative die, for the side that threw it (the Union's first, then in turn;
//!   a higher face is better);
//! - [`Event::Command`]: each command die, for the side moving (a higher face is never worse: the rolls pass
//!   on 2+ and 3+);
//! - [`Event::Morale`]: the morale die, for the unit's side (a better worst result among its stands is better);
//! - [`Event::Bombarded`]: a battery's dice, for its side (more hits is better).
//!
//! The log names units, not their sides; the reader learns a unit's side from the combats it fought
//! ([`Event::Fought`] lists each side's units). A morale test or a bombardment whose units have not yet been
//! seen in a combat is left out. Cover and commander dice ([`Event::ReductionDice`]) are not counted: the log
//! keeps their faces but not which unit each was for. Every other event rolled nothing.
//!
//! ```
//! use acw_core::luck::luck_of;
//! use acw_grid::game::Event;
//!
//! let log: Vec<Event> = vec![Event::TurnBegins { turn: 1 }];
//! assert_eq!(luck_of(&log).union.rolls, 0);
//! ```

use crate::game::Event;
use crate::morale::UnitMorale;
use crate::tables::MoraleResult;
use acw_core::dice::Die;
use acw_core::luck::{Lucky, LuckyRoll};
use acw_core::{Dist, Resolve, Side};
use std::collections::BTreeMap;

/// What the reader of a grid log remembers: the side of each unit seen in a combat.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LuckContext {
    /// Each unit's side, by name.
    pub sides: BTreeMap<String, Side>,
}

fn morale_goodness(r: &MoraleResult) -> u8 {
    match r {
        MoraleResult::Routed => 0,
        MoraleResult::Defeated => 1,
        MoraleResult::Recoiled => 2,
        MoraleResult::Steady => 3,
    }
}

fn face_roll(side: Side, face: u16) -> LuckyRoll {
    LuckyRoll::from_dist(side, &Dist::die(Die::D6), &u32::from(face), |&f| f)
}

impl Lucky for Event {
    type Context = LuckContext;

    /// See the module docs for which events report luck; every other event (and any added later without a
    /// roll) reports none.
    fn rolls(&self, context: &mut LuckContext, out: &mut Vec<LuckyRoll>) {
        match self {
            Event::Fought { sides, .. } => {
                for s in sides {
                    for (unit, _) in &s.units {
                        context.sides.insert(unit.clone(), s.side);
                    }
                    out.push(LuckyRoll::from_dist(
                        s.side,
                        &s.pool.odds(),
                        &s.scored,
                        |&h| h,
                    ));
                }
            }
            Event::Initiative { faces, .. } => {
                for (i, &face) in faces.iter().enumerate() {
                    let side = if i % 2 == 0 {
                        Side::Union
                    } else {
                        Side::Confederate
                    };
                    out.push(face_roll(side, face));
                }
            }
            Event::Command { side, faces, .. } => {
                for &face in faces {
                    out.push(face_roll(*side, face));
                }
            }
            Event::Morale {
                unit,
                classes,
                result,
                ..
            } => {
                if let Some(&side) = context.sides.get(unit) {
                    let odds = UnitMorale { classes: *classes }
                        .odds()
                        .map(|split| split.worst().unwrap_or(MoraleResult::Steady));
                    out.push(LuckyRoll::from_dist(side, &odds, result, morale_goodness));
                }
            }
            Event::Bombarded {
                battery,
                target,
                pool,
                hits,
                ..
            } => {
                let side = context
                    .sides
                    .get(battery)
                    .copied()
                    .or_else(|| context.sides.get(target).map(|s| s.enemy()));
                if let Some(side) = side {
                    out.push(LuckyRoll::from_dist(side, &pool.odds(), hits, |&h| h));
                }
            }
            _ => {}
        }
    }
}
