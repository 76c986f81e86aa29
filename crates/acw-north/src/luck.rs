//! The luck of a North battle: each toss of the log placed among the results it could have had
//! ([`acw_core::luck`]).
//!
//! The events that report luck, and whom each toss served:
//!
//! - [`Event::Attack`]: the combat toss, for the attacking side (a hit is the better result; an automatic hit
//!   throws no die and counts for nothing);
//! - [`Event::Morale`]: the morale die, for the side of the unit checking (a lower band is better: rallies,
//!   then the owner's choice, then both), and each rally die thrown, for the same side (subtracting more is
//!   better, then no effect, then the general captured, then killed);
//! - [`Event::Tried`] (an accomplishment toss) and [`Event::Charged`] (the charge toss), for the side of the
//!   unit tossing: success is better;
//! - [`Event::OrderToss`]: the order-change toss, for the side asking: a change is better.
//!
//! The log does not say which side a unit is on, so the reader follows the phases: attackers, units tossing
//! and order changes belong to the side whose phase it is ([`Event::PhaseBegan`]); a morale check is made by a
//! unit the phasing side attacked, so it serves the other side. Obstacle tosses (in a move or a fall-back)
//! are not counted: a move's report keeps only where the unit stopped, not how many tosses it took. Every
//! other event rolled nothing.
//!
//! ```
//! use acw_core::luck::luck_of;
//! use acw_core::Side;
//! use acw_north::game::Event;
//!
//! let log: Vec<Event> = vec![Event::PhaseBegan { turn: 1, side: Side::Union }];
//! assert_eq!(luck_of(&log).union.rolls, 0);
//! ```

use crate::combat::Category;
use crate::command::RallyToss;
use crate::game::Event;
use crate::morale::MoraleToss;
use crate::tables::{MoraleBand, RallyResult, morale_band};
use acw_core::Resolve;
use acw_core::luck::{Lucky, LuckyRoll};
use acw_core::vocab::Side;

/// What the reader of a North log remembers: whose phase it is, and the category of the last attack (a
/// rally die after a melee hit can capture the general).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LuckContext {
    /// The phasing side (Confederate before the first phase is announced, as in the default options).
    pub phasing: Option<Side>,
    /// The category of the last attack.
    pub last_attack: Option<Category>,
}

impl LuckContext {
    fn phasing(&self) -> Side {
        self.phasing.unwrap_or(Side::Confederate)
    }
}

fn band_goodness(band: &MoraleBand) -> u8 {
    match band {
        MoraleBand::Rallies => 2,
        MoraleBand::Choice => 1,
        MoraleBand::Both => 0,
    }
}

fn rally_goodness(r: &RallyResult) -> u8 {
    match r {
        RallyResult::Subtract(n) => 10 + n,
        RallyResult::NoEffect => 5,
        RallyResult::Captured => 1,
        RallyResult::Killed => 0,
    }
}

impl Lucky for Event {
    type Context = LuckContext;

    /// See the module docs for which events report luck; every other event (and any added later without a
    /// toss) reports none.
    fn rolls(&self, context: &mut LuckContext, out: &mut Vec<LuckyRoll>) {
        let phasing = context.phasing();
        match self {
            Event::PhaseBegan { side, .. } => context.phasing = Some(*side),
            Event::Attack {
                category, report, ..
            } => {
                context.last_attack = Some(*category);
                if report.face.is_some() {
                    out.push(LuckyRoll::chance(
                        phasing,
                        f64::from(report.hit_sixths) / 6.0,
                        report.hit,
                    ));
                }
            }
            Event::Morale { report, .. } => {
                let side = phasing.enemy();
                let toss = MoraleToss {
                    modifier: report.modifier,
                };
                let band = morale_band((report.face as i16).saturating_add(report.modifier));
                out.push(LuckyRoll::from_dist(
                    side,
                    &toss.odds(),
                    &band,
                    band_goodness,
                ));
                let rally = RallyToss {
                    melee: context.last_attack == Some(Category::Melee),
                }
                .odds();
                for r in report.outcome.rally.iter().flatten() {
                    out.push(LuckyRoll::from_dist(side, &rally, r, rally_goodness));
                }
            }
            Event::Tried { report, chance, .. } if report.face.is_some() => {
                out.push(LuckyRoll::chance(phasing, *chance, report.success));
            }
            Event::Charged { report, chance, .. } => {
                out.push(LuckyRoll::chance(phasing, *chance, report.toss_passed));
            }
            Event::OrderToss { report, .. } => {
                let odds = crate::command::OrderChangeToss.odds();
                out.push(LuckyRoll::from_dist(phasing, &odds, &report.changed, |c| {
                    *c
                }));
            }
            _ => {}
        }
    }
}
