//! The luck of a Hardtack battle: each roll of the log placed among the results it could have had
//! ([`acw_core::luck`]).
//!
//! Every event that rolled carries its chance, worked out by the engine from the exact odds of the procedure it
//! rolled, for the side the roll served; the reader adds them up and needs no context. The events that report
//! luck:
//!
//! - [`Event::Fired`] (a company's fire or its reaction fire, a canister step): the fire roll — the firer's
//!   dice against the range die — for the firing side; a better result is better (a major result with more
//!   potential casualties above fewer, a major above a minor, a minor above none); the impact dice of its
//!   potential hits (their allocation and impact against armour), for the firing side: more figures down is
//!   better, then more of them killed; and each confidence test the fire brought, for the side of the company
//!   testing (a pass above losing one level above losing two);
//! - [`Event::Assault`]: each combat move, for the attacking side (contact is best, then the farther move);
//!   final defensive fire's roll and its impact dice, for the defending side, as for a fire; the reaction test
//!   of an attacker the final fire hit, for the attacking side (a pass is better); a melee of one
//!   attacker, for the attacking side (a win above a stalemate above a loss, then more defenders down than
//!   attackers); and each confidence test of the assault after the defender answers (the defender's stand
//!   test, the tests the melee brings), for the side of the company testing;
//! - [`Event::Shot`]: each confidence test a round shot brought at its impact points, for the side of the
//!   company testing (a gun's canister is an [`Event::Fired`] a step);
//! - [`Event::Moved`]: the reaction tests a move rolled (to leave In Position, a Shaken company leaving cover),
//!   for the moving side, as one chance: that every test passes;
//! - [`Event::Rallied`]: the rally test, for the rallying side: a pass is better;
//! - [`Event::ColonelFell`]: each company's test at its colonel's fall, for its side, as any confidence test;
//!   the LV its successor's company's new leader rolled, for that side (a better LV is better); the lot among
//!   equal leaders is shown but not counted (no leader is better for his side than another);
//! - [`Event::AssaultDeclared`]: the attacker's test to go in, for the attacking side: a pass is better;
//! - [`Event::Observed`] and [`Event::ObservedCompany`]: a leader's look at an enemy counter or a hidden
//!   enemy company (HT-SG2-25), for the observing side: a major success above a minor above a failure.
//!
//! Not counted yet: the impact dice of a fire whose pool holds horses or riders (a mounted company, a limbered
//! gun's team: the horse-or-rider rolls have no exact procedure over a whole pool) and of a round shot's impact
//! points. A sharpshooter's shot and a melee of several attackers are no orders of the game (the battle's
//! `sharpshoot` and `assault_together`), so no event reports them. Every other event rolled nothing.
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
            Event::Fired {
                chance,
                impact,
                tests,
                ..
            } => {
                out.extend(chance.iter().copied());
                out.extend(impact.iter().copied());
                out.extend(tests.iter().copied());
            }
            Event::Assault { tests, chances, .. } => {
                out.extend(chances.iter().map(|c| c.chance));
                out.extend(tests.iter().copied());
            }
            Event::Shot { tests, .. } => {
                out.extend(tests.iter().copied());
            }
            Event::ColonelFell { tests, chance, .. } => {
                out.extend(tests.iter().copied());
                out.extend(chance.iter().copied());
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
