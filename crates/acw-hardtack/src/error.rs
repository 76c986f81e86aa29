//! Typed errors: bad inputs, and actions the rules refuse.

use crate::state::{CompanyId, GunId};
use acw_core::dice::DiceError;
use thiserror::Error;

/// An input the rules cannot use: a bad number, length or count.
#[derive(Clone, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum SetupError {
    /// A leadership value outside 1–3.
    #[error("a leadership value must be 1, 2 or 3, not {0}")]
    Leadership(u8),
    /// A negative, infinite or NaN length, or a band of zero.
    #[error(
        "the {what} must be a finite length of at least 0 inches (a band more than 0), not {value}"
    )]
    BadLength {
        /// Which length.
        what: &'static str,
        /// The value given.
        value: f64,
    },
    /// A fire with no firepower.
    #[error("no figure is able to fire, so there is no firepower")]
    NoFirepower,
    /// A fire roll needs two to four firer dice.
    #[error("a fire roll needs two to four firer dice, not {0}")]
    FirerDice(usize),
    /// A company with no figures, or more than the crate allows.
    #[error("company {name} has {count} figures; a company needs 1 to 48")]
    CompanySize {
        /// The company's name.
        name: String,
        /// Its figure count.
        count: usize,
    },
    /// A figure scale outside 3–5 men per figure.
    #[error("a figure stands for 3, 4 or 5 men, not {0}")]
    Scale(u8),
    /// A close assault with no figures on a side.
    #[error("a close assault needs at least one figure on each side")]
    EmptyAssault,
    /// A combined melee with no attacking companies or more than four, or a company of no figures or over 48.
    #[error(
        "a combined melee takes 1 to 4 attacking companies of 1 to 48 figures, and a defender of 1 to 48; {0} companies were given"
    )]
    Partners(usize),
    /// Stand-based fire with no stands, too many, or a target pool outside 1–48 figures.
    #[error(
        "stand-based fire needs 1 to 5 stands and 1 to 48 target figures, not {stands} and {pool}"
    )]
    Stands {
        /// Stands given.
        stands: usize,
        /// Target figures given.
        pool: usize,
    },
    /// A canister blast's line with no company or more than four, or a company or team with no figure or
    /// over 48.
    #[error(
        "a canister blast's line takes 1 to 4 companies of 1 to 48 figures, and a team of 1 to 48 horses; {0} companies were given"
    )]
    BlastLine(usize),
}

/// An action or step the rules refuse. A refused call changes nothing.
#[derive(Clone, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum RuleViolation {
    /// The input itself was bad.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// No such company.
    #[error("there is no company with id {}", .0.0)]
    UnknownCompany(CompanyId),
    /// No such figure in a company.
    #[error("{name} has no figure number {index}")]
    UnknownFigure {
        /// The company.
        name: String,
        /// The figure's index asked for.
        index: usize,
    },
    /// No such gun.
    #[error("there is no gun with id {}", .0.0)]
    UnknownGun(GunId),
    /// No such dummy counter.
    #[error("there is no dummy counter with id {}", .0.0)]
    UnknownDummy(crate::state::DummyId),
    /// The dice source ran out or gave an impossible face; nothing was applied.
    #[error("the dice could not be read ({0}); nothing was applied")]
    Dice(DiceError),
    /// The unit has not been activated, or its actions are spent.
    #[error("{name} has no action left this activation")]
    NoActionLeft {
        /// The unit.
        name: String,
    },
    /// The unit has already activated this turn.
    #[error("{name} has already activated this turn")]
    AlreadyActivated {
        /// The unit.
        name: String,
    },
    /// Another unit is in the middle of its activation.
    #[error("{name} is still activating; finish it first")]
    OtherActivating {
        /// The unit activating.
        name: String,
    },
    /// A company that cannot fire.
    #[error("{name} cannot fire: {why}")]
    CannotFire {
        /// The company.
        name: String,
        /// Why, in words.
        why: &'static str,
    },
    /// A gun that cannot fire or load.
    #[error("the {name} cannot {what}: {why}")]
    GunRefused {
        /// The gun.
        name: String,
        /// What was asked.
        what: &'static str,
        /// Why, in words.
        why: &'static str,
    },
    /// A company that may not do what was asked.
    #[error("{name} may not {what}: {why}")]
    Refused {
        /// The company.
        name: String,
        /// What was asked.
        what: &'static str,
        /// Why, in words.
        why: &'static str,
    },
    /// A step out of order: another procedure waits, or none does.
    #[error("{0}")]
    OutOfOrder(&'static str),
    /// Fire at one's own side.
    #[error("{firer} and {target} are on the same side")]
    SameSide {
        /// The firer.
        firer: String,
        /// The target.
        target: String,
    },
}
