//! The luck of a Hardtack battle: each roll of the log placed among the results it could have had
//! ([`acw_core::luck`]).
//!
//! Every event that rolled carries its chance, worked out by the engine from the exact odds of the procedure it
//! rolled, for the side the roll served; the reader adds them up and needs no context. The events that report
//! luck:
//!
//! - [`Event::Fired`] (a company's fire or its reaction fire): the fire roll — the firer's dice against the
//!   range die — for the firing side; a better result is better (a major result with more potential
//!   casualties above fewer, a major above a minor, a minor above none); and each confidence test the fire
//!   brought, for the side of the company testing (a pass above losing one level above losing two);
//! - [`Event::Assault`]: each confidence test of the assault after the defender answers (the defender's stand
//!   test, the tests the melee brings), for the side of the company testing;
//! - [`Event::Shot`]: each confidence test a round shot brought at its impact points, for the side of the
//!   company testing (a gun's canister is an [`Event::Fired`] a step);
//! - [`Event::Moved`]: the reaction tests a move rolled (to leave In Position, a Shaken company leaving cover),
//!   for the moving side, as one chance: that every test passes;
//! - [`Event::Rallied`]: the rally test, for the rallying side: a pass is better;
//! - [`Event::AssaultDeclared`]: the attacker's test to go in, for the attacking side: a pass is better;
//! - [`Event::Observed`] and [`Event::ObservedCompany`]: a leader's look at an enemy counter or a hidden
//!   enemy company (HT-SG2-25), for the observing side: a major success above a minor above a failure.
//!
//! Not counted yet: the impact dice and hit allocation of a fire, and in an assault the final defensive fire,
//! the reaction tests, the combat moves and the melee dice (the report names their results but not the odds
//! they were rolled at). Every other event rolled nothing.
//!
//! ```
//! use acw_core::luck::luck_of;
//! use acw_hardtack::game::Event;
//!
//! let log: Vec<Event> = vec![Event::TurnBegan(1)];
//! assert_eq!(luck_of(&log).union.rolls, 0);
//! ```

use crate::game::Event;
use acw_core::luck::{Lucky, LuckyRoll};

impl Lucky for Event {
    type Context = ();

    /// See the module docs for which events report luck; every other event (and any added later without a
    /// roll) reports none.
    fn rolls(&self, _context: &mut (), out: &mut Vec<LuckyRoll>) {
        match self {
            Event::Fired { chance, tests, .. } => {
                out.extend(chance.iter().copied());
                out.extend(tests.iter().copied());
            }
            Event::Assault { tests, .. } | Event::Shot { tests, .. } => {
                out.extend(tests.iter().copied());
            }
            Event::Moved { chance, .. }
            | Event::Rallied { chance, .. }
            | Event::AssaultDeclared { chance, .. }
            | Event::Observed { chance, .. }
            | Event::ObservedCompany { chance, .. } => out.extend(chance.iter().copied()),
            _ => {}
        }
    }
}
