//! Errors: bad input ([`GridError`]) and actions the rules refuse ([`RuleViolation`]).
//!
//! A refused action never changes the state it was asked of.

use crate::board::Area;
use crate::state::{CommanderId, UnitId};
use acw_core::Side;
use thiserror::Error;

/// Input that cannot describe a board, a force or a procedure: out-of-range counts, unknown areas, bad facings.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum GridError {
    /// The area is not part of the board.
    #[error("area {0} is not on the board")]
    OffBoard(Area),
    /// A facing index that the grid does not have (squares have 4 sides, hexes 6).
    #[error("a {grid} has no side {side}")]
    BadFacing {
        /// "square" or "hex".
        grid: &'static str,
        /// The side index given.
        side: u8,
    },
    /// Two areas that had to share a side do not.
    #[error("areas {0} and {1} are not adjacent")]
    NotAdjacent(Area, Area),
    /// A board needs at least one area, and its dimensions must be sensible.
    #[error("a board needs 1 to {max} areas a side, not {given}")]
    BadBoardSize {
        /// The size given.
        given: u32,
        /// The largest size allowed.
        max: u32,
    },
    /// An area of a board lies farther from (0, 0) than any board may reach (GRID-SET-01: boards are bounded
    /// in extent, wherever they come from, so distances and lines of sight stay cheap).
    #[error(
        "area {area} is off any board: a board's areas have columns and rows from -{limit} to {limit}"
    )]
    AreaTooFar {
        /// The area given.
        area: Area,
        /// The largest column or row number, either way.
        limit: i32,
    },
    /// A count out of its allowed range (dice, stands, men, guns …).
    #[error("{what} must be {min} to {max}, not {given}")]
    OutOfRange {
        /// What was counted.
        what: &'static str,
        /// The value given.
        given: i64,
        /// The smallest allowed.
        min: i64,
        /// The largest allowed.
        max: i64,
    },
    /// A unit needs at least one stand.
    #[error("a unit needs at least one stand")]
    NoStands,
    /// A stand's attributes contradict each other or its type.
    #[error("impossible stand: {0}")]
    BadStand(&'static str),
    /// An identifier used twice.
    #[error("identifier {0} is used twice")]
    DuplicateId(u32),
    /// A length that is not finite and positive (the text of the value given).
    #[error("a length must be finite and positive, not {0}")]
    BadLength(String),
}

/// An action the rules forbid, with the reason. The state is left as it was.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum RuleViolation {
    /// Bad input rather than a rules matter.
    #[error(transparent)]
    Input(#[from] GridError),
    /// No unit has this id (it may have been removed).
    #[error("there is no {0} (it may have been removed)")]
    UnknownUnit(UnitId),
    /// No commander has this id (he may have been removed).
    #[error("there is no {0} (he may have been removed)")]
    UnknownCommander(CommanderId),
    /// The action belongs to another phase of the turn (GRID-SEQ-01).
    #[error("not allowed in the {now} phase; it belongs to the {needed} phase")]
    WrongPhase {
        /// The phase the game is in.
        now: &'static str,
        /// The phase the action needs.
        needed: &'static str,
    },
    /// It is the other side's movement step (GRID-SEQ-01).
    #[error("it is not {0}'s movement step")]
    NotYourStep(Side),
    /// More stands would end in one area than the stacking limit allows (GRID-SET-10).
    #[error("area {area} would hold {stands} stands, more than the limit of {limit}")]
    OverStacked {
        /// The area.
        area: Area,
        /// Stands it would hold.
        stands: u32,
        /// The limit.
        limit: u32,
    },
    /// Opposing stands may never share an area (GRID-SET-10, GRID-MOV-16).
    #[error("area {0} holds enemy stands")]
    EnemyInArea(Area),
    /// A disordered unit may only retreat (GRID-MOV-15, GRID-MOR-13).
    #[error("{0} is disordered")]
    Disordered(UnitId),
    /// A unit that bombarded this turn may not move (GRID-MOV-11).
    #[error("{0} bombarded this turn and may not move")]
    Bombarded(UnitId),
    /// The unit failed (or may not take) its command roll this turn (GRID-CMD-01, GRID-CMD-02).
    #[error("{0} is out of command this turn")]
    OutOfCommand(UnitId),
    /// The unit owes no morale test: only the units of a side that took more hits in a combat test, once
    /// each (GRID-MEL-14, GRID-MOR-01).
    #[error("{0} owes no morale test: only a combat's losing side tests, once")]
    MoraleNotOwed(UnitId),
    /// The unit owes no retreat: retreats come only from a morale result or from fire that caused one
    /// (GRID-MOR-05 to GRID-MOR-08), once each.
    #[error(
        "{0} owes no retreat: a unit retreats only as the result of a morale test or fire that caused it"
    )]
    RetreatNotOwed(UnitId),
    /// The Combat Phase cannot end while a unit still owes its morale test.
    #[error("{0} must test its morale before the Combat Phase ends")]
    MoraleOwed(UnitId),
    /// The Combat Phase cannot end while a unit still owes a retreat.
    #[error("{0} must carry out its retreat before the Combat Phase ends")]
    RetreatOwed(UnitId),
    /// The unit must roll for command before it moves, and its side's command rolls have not been made this
    /// turn (GRID-SEQ-06: they come first, with [`crate::Battle::command_phase`]).
    #[error(
        "{0} is out of its commanders' reach and must pass a command roll before it moves: roll the side's \
         command dice first"
    )]
    CommandRollOwed(UnitId),
    /// The unit already moved or acted this turn in a way that excludes this action.
    #[error("{unit} may not do that: {why}")]
    AlreadyActed {
        /// The unit.
        unit: UnitId,
        /// What it did that stops this.
        why: &'static str,
    },
    /// A path step does not go to an adjacent area (GRID-MOV-02, GRID-GEO-01).
    #[error("step {0} -> {1} does not cross a side")]
    NotAdjacentStep(Area, Area),
    /// The path costs more than the unit's allowance (GRID-MOV-01 to GRID-MOV-07).
    #[error("the path costs {cost_halves} half-areas, the allowance is {allowance_halves}")]
    TooFar {
        /// Cost in half-areas.
        cost_halves: u32,
        /// Allowance in half-areas.
        allowance_halves: u32,
    },
    /// Terrain the moving piece may not enter (GRID-MOV-05, GRID-MOV-25).
    #[error("area {0} is closed to this piece")]
    Prohibited(Area),
    /// The move passes an area next to the enemy without halting there (GRID-MOV-18).
    #[error("the move must halt at {0}, next to the enemy")]
    MustHalt(Area),
    /// A unit that started engaged may move away but not attack (GRID-MOV-21).
    #[error("a unit that started engaged may not attack (step into {0})")]
    EngagedMayNotAttack(Area),
    /// The enemy attacked was not in the attacker's front arc when the move began (GRID-MOV-19).
    #[error("the enemy at {0} was not to the attacker's front")]
    NotToFront(Area),
    /// An attack's path left the front arc (GRID-MOV-20).
    #[error("an attack may not pass through {0}, outside its front arc")]
    PathOutsideArc(Area),
    /// A unit of wagons alone may not attack (GRID-MEL-17).
    #[error("wagons alone may not attack")]
    WagonsMayNotAttack,
    /// The move used the road rate and must end in march column (GRID-MOV-09).
    #[error("a unit that used march-column bonuses must end in march column")]
    MustStayInColumn,
    /// Cavalry that attacked mounted must stay mounted (GRID-MOV-23).
    #[error("cavalry that attacks mounted must stay mounted")]
    MustStayMounted,
    /// The piece has no such state or formation (e.g. infantry cannot mount).
    #[error("impossible formation or state: {0}")]
    BadFormation(&'static str),
    /// The unit does not qualify for this action.
    #[error("{unit} may not do that: {why}")]
    NotEligible {
        /// The unit.
        unit: UnitId,
        /// The condition it fails.
        why: &'static str,
    },
    /// The target is not one this fire may take (GRID-ART-02, GRID-FIR-02).
    #[error("{target} is not a legal target: {why}")]
    BadTarget {
        /// The target.
        target: UnitId,
        /// Why not.
        why: &'static str,
    },
    /// The combats given do not split the engagements as the rules require (GRID-MEL-02, GRID-MEL-03).
    #[error("bad combat split: {0}")]
    BadCombatSplit(&'static str),
    /// The hit allocation given breaks the allocation rule (GRID-MEL-12).
    #[error("bad hit allocation: {0}")]
    BadAllocation(&'static str),
    /// A retreat path that the rules do not allow (GRID-MOR-05 to GRID-MOR-12).
    #[error("bad retreat path: {0}")]
    BadRetreat(&'static str),
    /// A pursuit the rules do not allow (GRID-MEL-16).
    #[error("no pursuit: {0}")]
    BadPursuit(&'static str),
    /// Nothing to cancel, or no marker to spend (GRID-CAS-06).
    #[error("{0} has no tenacity marker on that stand or no hit to cancel")]
    NoMarker(UnitId),
    /// A stand index that the unit does not have.
    #[error("{unit} has no stand {index}")]
    NoSuchStand {
        /// The unit.
        unit: UnitId,
        /// The index given.
        index: usize,
    },
    /// A commander move the rules forbid (GRID-CMD-05).
    #[error("{0} may not move there: {1}")]
    BadCommanderMove(CommanderId, &'static str),
    /// The order belongs to the other side.
    #[error("that belongs to {0}")]
    WrongSide(Side),
    /// The exact odds of a combat cannot be worked out for this unit (GRID-MEL-19): what the odds leave out
    /// applies to it.
    #[error("the exact odds of the combat of {unit} cannot be worked out: {why}")]
    NoExactOdds {
        /// The unit.
        unit: UnitId,
        /// What stands in the way.
        why: &'static str,
    },
    /// The scenario sets an option the whole game ([`crate::game::Grid`]) does not play; the `Battle` alone plays
    /// it.
    #[error("the game does not play this option (a Battle driven directly does): {0}")]
    OptionNotInGame(&'static str),
    /// An input was inconsistent with the state or the procedure.
    #[error("{0}")]
    Inconsistent(&'static str),
    /// The game does not ask for that order now (another step, another side, or a unit the question is not
    /// about).
    #[error("{0}")]
    NotAsked(String),
    /// The dice source could not give a face the procedure needs (ran out, or a face the die cannot show); nothing
    /// was applied.
    #[error("the dice could not be read: {0}")]
    Dice(acw_core::dice::DiceError),
}

/// Refuses when the dice source could not give every face: a face never thrown must not become a result.
pub(crate) fn fault_check<D: acw_core::Dice + ?Sized>(dice: &D) -> Result<(), RuleViolation> {
    match dice.fault() {
        Some(e) => Err(RuleViolation::Dice(e.clone())),
        None => Ok(()),
    }
}
