//! The luck of a D8 battle: each volley of the log placed among the results it could have had
//! ([`acw_core::luck`]).
//!
//! The events that report luck: [`Event::Fired`], the volley's to-hit D8s and save D6s, for the side whose turn
//! it is (the last [`Event::TurnBegan`]; orders are given by the side to move), with more casualties the
//! better. Not counted yet: the melee dice of [`Event::Fought`] (the log keeps the dice and pairs in total, not
//! how the attackers were spread over the defenders, which the odds depend on) and the tests of figures
//! fleeing as they start a turn. Every other event rolled nothing.
//!
//! ```
//! use acw_core::luck::luck_of;
//! use acw_core::Side;
//! use acw_d8::game::Event;
//!
//! let log: Vec<Event> = vec![];
//! assert_eq!(luck_of(&log).union.rolls, 0);
//! ```

use crate::fire::{ToHit, Volley};
use crate::game::Event;
use acw_core::Resolve;
use acw_core::luck::{Lucky, LuckyRoll};
use acw_core::vocab::Side;

/// What the reader of a D8 log remembers: whose turn it is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LuckContext {
    /// The side to move.
    pub moving: Option<Side>,
}

impl Lucky for Event {
    type Context = LuckContext;

    /// See the module docs for which events report luck; every other event (and any added later without a
    /// roll) reports none.
    fn rolls(&self, context: &mut LuckContext, out: &mut Vec<LuckyRoll>) {
        match self {
            Event::TurnBegan { side, .. } => context.moving = Some(*side),
            Event::Fired {
                short,
                long,
                save,
                casualties,
                ..
            } => {
                if let Some(side) = context.moving {
                    let volley = Volley {
                        short: ToHit {
                            dice: short.0,
                            need: short.1,
                        },
                        long: ToHit {
                            dice: long.0,
                            need: long.1,
                        },
                        save: *save,
                    };
                    out.push(LuckyRoll::from_dist(
                        side,
                        &volley.odds(),
                        casualties,
                        |&c| c,
                    ));
                }
            }
            _ => {}
        }
    }
}
