//! The luck of a TSATF battle: each roll and draw of the log placed among the results it could have had
//! ([`acw_core::luck`]).
//!
//! The events that report luck, and whom each served:
//!
//! - [`Event::CardTurned`]: the sequencing card, for both sides: the side whose colour came up had the better
//!   draw (its chance is the event's), the other the worse; a turn that passed over cards of a side with
//!   nobody left to act was certain for the side that acts, and counts for neither;
//! - [`Event::Fired`] under mass fire: the fire die, for the firing unit's side (more hits is better), its odds
//!   those of the mass-fire chart for the report's row, class and figures with the default leftover rules;
//! - [`Event::Shot`]: an officer's or sniper's die, for his side (killed is better than wounded, wounded than
//!   a miss);
//! - [`Event::Morale`], and the tests of [`Event::Closed`] and [`Event::Stand`]: for the side of the unit
//!   tested (passing is better), with the chance the event gives.
//!
//! The log names units, not their sides; the reader learns them as it goes: a unit that moves, fires, charges
//! or holds on a card belongs to the side of that card, and the target of a charge to the other side. A test of
//! a unit not yet seen is left out, as are Type Firing volleys (their hit cards are drawn from a deck whose
//! make-up the log does not keep), movement dice and melee bouts. Every other event rolled nothing.
//!
//! ```
//! use acw_core::luck::luck_of;
//! use acw_core::Side;
//! use acw_tsatf::game::Event;
//!
//! // The Union's card came up when a Union card was one chance in two: 3/4 for the Union, 1/4 for the other.
//! let log = vec![Event::CardTurned { cards: vec![], side: Side::Union, chance: 0.5 }];
//! let luck = luck_of(&log);
//! assert!((luck.union.index - 0.75).abs() < 1e-12);
//! assert!((luck.confederate.index - 0.25).abs() < 1e-12);
//! ```

use crate::fire::{MassFire, PersonalShot};
use crate::game::{Event, TestResult};
use crate::options::Options;
use crate::tables::HitEffect;
use acw_core::Resolve;
use acw_core::luck::{Lucky, LuckyRoll};
use acw_core::vocab::Side;
use std::collections::BTreeMap;

/// What the reader of a TSATF log remembers: the side of the last card turned, and each unit's side.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LuckContext {
    /// The side whose card was turned last.
    pub acting: Option<Side>,
    /// Each unit's side, by name.
    pub sides: BTreeMap<String, Side>,
}

impl LuckContext {
    fn learn(&mut self, unit: &str) {
        if let Some(side) = self.acting {
            self.sides.entry(unit.to_string()).or_insert(side);
        }
    }

    fn side_of(&self, who: &str) -> Option<Side> {
        match who {
            "Union" => Some(Side::Union),
            "Confederate" => Some(Side::Confederate),
            _ => self.sides.get(who).copied(),
        }
    }

    fn test(&self, t: &TestResult, out: &mut Vec<LuckyRoll>) {
        if let Some(side) = self.side_of(&t.who) {
            let p_pass = if t.passed { t.chance } else { 1.0 - t.chance };
            out.push(LuckyRoll::chance(side, p_pass, t.passed));
        }
    }
}

impl Lucky for Event {
    type Context = LuckContext;

    /// See the module docs for which events report luck; every other event (and any added later without a
    /// roll) reports none.
    fn rolls(&self, context: &mut LuckContext, out: &mut Vec<LuckyRoll>) {
        match self {
            Event::CardTurned {
                cards,
                side,
                chance,
            } => {
                context.acting = Some(*side);
                if cards.len() <= 1 {
                    out.push(LuckyRoll::chance(*side, *chance, true));
                    out.push(LuckyRoll::chance(side.enemy(), 1.0 - chance, false));
                }
            }
            Event::Pooled { unit, .. }
            | Event::SplitRolled { unit, .. }
            | Event::Rode { unit, .. } => context.learn(unit),
            Event::Shot { unit, report, .. } => {
                context.learn(unit);
                if let Some(side) = context.sides.get(unit).copied() {
                    out.push(LuckyRoll::from_dist(
                        side,
                        &PersonalShot(report.weapon).odds(),
                        &report.effect,
                        |e| match e {
                            HitEffect::Miss => 0u8,
                            HitEffect::Wounded => 1,
                            HitEffect::Killed => 2,
                        },
                    ));
                }
            }
            Event::Moved { report, .. } => context.learn(&report.unit),
            Event::Held { unit, .. } => context.learn(unit),
            Event::Charged { unit, target, .. } => {
                context.learn(unit);
                if let Some(side) = context.sides.get(unit).copied() {
                    context.sides.entry(target.clone()).or_insert(side.enemy());
                }
            }
            Event::Fired { report, chance, .. } => {
                context.learn(&report.firer);
                let side = context.sides.get(&report.firer).copied();
                if let (Some(side), Some(_)) = (side, chance) {
                    let o = Options::default();
                    let fire = MassFire {
                        row: report.row,
                        class: report.class,
                        figures: report.figures,
                        remainder: o.remainder,
                        green_class3_pattern: o.green_class3_pattern,
                    };
                    out.push(LuckyRoll::from_dist(
                        side,
                        &fire.odds(),
                        &report.hits,
                        |&h| h,
                    ));
                }
            }
            Event::Closed { test: Some(t), .. } => context.test(t, out),
            Event::Stand { test, .. } => context.test(test, out),
            Event::Morale(t) => context.test(t, out),
            _ => {}
        }
    }
}
