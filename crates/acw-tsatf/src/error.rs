//! Typed errors: bad options, bad setups and actions the rules refuse.

use crate::state::{MoraleState, Phase};
use crate::tables::{FireRow, MoveMode, MoveRow, TargetClass};
use acw_core::Side;
use acw_core::dice::DiceError;
use thiserror::Error;

/// A numeric option out of range.
#[derive(Clone, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum OptionsError {
    /// A length that is negative, infinite or NaN.
    #[error("option {what} must be a finite length of at least 0\", not {value}")]
    BadLength {
        /// The option.
        what: &'static str,
        /// The value given.
        value: f64,
    },
    /// An angle outside 0–180 degrees.
    #[error("option {what} must lie in 0–180 degrees, not {value}")]
    BadArc {
        /// The option.
        what: &'static str,
        /// The value given.
        value: f64,
    },
    /// A column frontage of no figures.
    #[error("a column's front rank must hold at least one figure")]
    ZeroFrontage,
    /// A turn limit of zero turns.
    #[error("a turn limit must be at least one turn")]
    ZeroTurnLimit,
}

/// A force list, a unit or a saved battle the rules could not produce.
#[derive(Clone, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum SetupError {
    /// The options are out of range.
    #[error(transparent)]
    Options(#[from] OptionsError),
    /// A unit without a name.
    #[error("every unit needs a name")]
    NoName,
    /// Two units share a name.
    #[error("two units are both called {0}")]
    DuplicateName(String),
    /// A unit with no figures.
    #[error("{0} has no figures")]
    NoFigures(String),
    /// More figures than a unit may hold.
    #[error("{unit} has {figures} figures; a unit holds at most {max}")]
    TooManyFigures {
        /// The unit.
        unit: String,
        /// Its figures.
        figures: usize,
        /// The limit.
        max: usize,
    },
    /// A formation the unit's kind cannot take.
    #[error("{unit} cannot be formed as {formation}")]
    BadFormation {
        /// The unit.
        unit: String,
        /// The formation asked for.
        formation: String,
    },
    /// A gun or Gatling that is not crewed by gunners, or a crewed unit that is not a gun.
    #[error(
        "{0}: a gun's figures must be its officer or NCOs and gunners, and only guns have gunners"
    )]
    BadCrew(String),
    /// A fire row the unit cannot use.
    #[error("{unit} cannot fire as {row}")]
    BadFireRow {
        /// The unit.
        unit: String,
        /// The row.
        row: FireRow,
    },
    /// A side with no units.
    #[error("the {0} side has no units")]
    EmptySide(Side),
    /// A side with more units than the sequencing deck has cards of its colour.
    #[error(
        "the {side} side has {units} units; the sequencing deck has only 26 cards of its colour"
    )]
    TooManyUnits {
        /// The side.
        side: Side,
        /// Its units.
        units: usize,
    },
    /// A train or gunboat outside its limits.
    #[error("{0}")]
    Vehicle(String),
    /// A saved battle whose parts do not agree.
    #[error("the saved battle is inconsistent: {0}")]
    Inconsistent(String),
}

/// An action the rules refuse. The battle is unchanged.
#[derive(Clone, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum RuleViolation {
    /// No unit with that id.
    #[error("there is no unit number {0}")]
    NoSuchUnit(u32),
    /// No figure with that index in the unit.
    #[error("{unit} has no figure number {index}")]
    NoSuchFigure {
        /// The unit.
        unit: String,
        /// The index.
        index: usize,
    },
    /// The wrong phase for the action.
    #[error("{action} belongs to the {needed} phase, not the {now} phase")]
    WrongPhase {
        /// What was tried.
        action: &'static str,
        /// The phase it needs.
        needed: Phase,
        /// The phase the battle is in.
        now: Phase,
    },
    /// A unit acting without its side's card.
    #[error("{unit} cannot act: the card turned is not the {side} side's, or no card is turned")]
    NotOnCard {
        /// The unit.
        unit: String,
        /// Its side.
        side: Side,
    },
    /// A unit acting twice in one phase.
    #[error("{0} has already acted in this phase")]
    AlreadyActed(String),
    /// No cards left to turn in the phase.
    #[error("every card of this phase has been turned")]
    DeckDone,
    /// A card is waiting for its unit.
    #[error("the {0} side must activate a unit for the card already turned")]
    CardPending(Side),
    /// A unit of the card's side must make its compulsory move first.
    #[error("{0} must make its compulsory move first")]
    CompulsoryFirst(String),
    /// The unit has no compulsory move to make.
    #[error("{0} has no compulsory move to make")]
    NoCompulsoryMove(String),
    /// A unit's morale state forbids the action.
    #[error("{unit} is {state} and may not {action}")]
    MoraleForbids {
        /// The unit.
        unit: String,
        /// Its state.
        state: MoraleState,
        /// What it tried.
        action: &'static str,
    },
    /// The side failed Major Morale and may not move this turn.
    #[error("{0} may not move: its side failed Major Morale")]
    Frozen(String),
    /// A leaderless unit's die stopped it.
    #[error("{0} rolled its leaderless die and may not move this turn")]
    LeaderlessHalt(String),
    /// A movement column the row does not have.
    #[error("{row} has no rate {mode}")]
    NoRate {
        /// The row.
        row: MoveRow,
        /// The column.
        mode: MoveMode,
    },
    /// A formation change that costs more than the move allows.
    #[error("the formation change needs {needed}\" but only {allowed}\" of movement is left")]
    ChangeTooLong {
        /// Inches needed.
        needed: f64,
        /// Inches left.
        allowed: f64,
    },
    /// A measured length that is negative, NaN or infinite.
    #[error("{what} must be a finite length of at least 0, not {value}")]
    BadLength {
        /// What was measured.
        what: &'static str,
        /// The value.
        value: f64,
    },
    /// A unit that cannot do that at all.
    #[error("{unit} cannot {action}")]
    Cannot {
        /// The unit.
        unit: String,
        /// What it tried.
        action: &'static str,
    },
    /// A unit may not fire, and why.
    #[error("{unit} may not fire: {reason}")]
    MayNotFire {
        /// The unit.
        unit: String,
        /// Why.
        reason: &'static str,
    },
    /// A target beyond a weapon's range.
    #[error("{range}\" is beyond the reach of {row}")]
    OutOfRange {
        /// The row.
        row: FireRow,
        /// The range.
        range: f64,
    },
    /// A target that a weapon cannot touch at this class.
    #[error("{row} has no effect on a {class} target")]
    NoEffect {
        /// The row.
        row: FireRow,
        /// The class.
        class: TargetClass,
    },
    /// A target of one's own side, or the unit itself.
    #[error("{0} is not an enemy unit")]
    NotEnemy(String),
    /// A hidden unit cannot be fired at or charged.
    #[error("{0} is hidden")]
    Hidden(String),
    /// A figure that cannot do what was asked.
    #[error("{unit}'s figure {index} cannot {action}")]
    FigureCannot {
        /// The unit.
        unit: String,
        /// The figure.
        index: usize,
        /// What.
        action: &'static str,
    },
    /// No charge with that id is open.
    #[error("there is no open charge number {0}")]
    NoSuchCharge(u32),
    /// A charge step taken out of order.
    #[error("this charge is not at that step: {0}")]
    ChargeStep(&'static str),
    /// A unit is already charging this turn.
    #[error("{0} is already charging")]
    AlreadyCharging(String),
    /// The dice source ran out or gave an impossible face.
    #[error("the dice failed: {0}")]
    Dice(DiceError),
    /// The game is over.
    #[error("the game is over")]
    GameOver,
}
