//! Typed errors: bad options, bad setups and actions the rules refuse.

use crate::combat::Category;
use crate::sequence::Step;
use crate::state::{BrigadeId, GeneralId, UnitId};
use crate::tables::{BrigadeOrder, Formation, Troop};
use acw_core::Side;
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
    /// An arc outside 0–180 degrees.
    #[error("option {what} must lie in 0–180 degrees, not {value}")]
    BadArc {
        /// The option.
        what: &'static str,
        /// The value given.
        value: f64,
    },
    /// A turn limit of zero turns.
    #[error("a turn limit must be at least one turn")]
    ZeroTurnLimit,
}

/// A force list or a saved state the rules could not produce.
#[derive(Clone, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum SetupError {
    /// The options are out of range.
    #[error(transparent)]
    Options(#[from] OptionsError),
    /// Two units share a name (placements and narration find units by name).
    #[error("two units are named {0:?}; every unit needs its own name")]
    DuplicateName(String),
    /// NORTH-SET-03: an army outside 10–20 units (or with none, when the size is free under NORTH-OPT-39).
    #[error("the {side} army has {units} units; it needs {needs}")]
    ArmySize {
        /// What the options require ("10 to 20", or "at least one").
        needs: &'static str,
        /// The side.
        side: Side,
        /// Its unit count.
        units: usize,
    },
    /// NORTH-SET-04: a brigade outside 2–5 units.
    #[error("brigade {name:?} has {units} units; a brigade needs 2 to 5")]
    BrigadeSize {
        /// The brigade's name.
        name: String,
        /// Its unit count.
        units: usize,
    },
    /// NORTH-MOV-01: a unit set up in a formation its kind cannot take.
    #[error("unit {name:?} ({troop}) cannot start in {formation}")]
    IllegalFormation {
        /// The unit's name.
        name: String,
        /// Its kind.
        troop: Troop,
        /// The formation given.
        formation: Formation,
    },
    /// Only cavalry can be dismounted.
    #[error("unit {name:?} is not cavalry and cannot start dismounted")]
    DismountedNonCavalry {
        /// The unit's name.
        name: String,
    },
    /// NORTH-CAS-02 / NORTH-CAS-04: an infantry or cavalry unit that would start below three counted stands
    /// (a poor dismounted unit when the horse holder does not count).
    #[error(
        "unit {name:?} would start with {stands} counted stands, below the 3 that keep it in play"
    )]
    TooFewStands {
        /// The unit's name.
        name: String,
        /// Its counted stands.
        stands: u8,
    },
    /// NORTH-SET-05: the Army Commander is placed with a unit the army does not have.
    #[error("the {side} Army Commander is placed with a unit that does not exist")]
    ArmyCommanderPlacement {
        /// The side.
        side: Side,
    },
    /// NORTH-SEQ-09: no turn limit and no scenario end predicate.
    #[error("a game without a turn limit needs a scenario end predicate")]
    NoTurnLimit,
    /// The table, its terrain or the base sizes are impossible.
    #[error("the table or its terrain: {0}")]
    Ground(#[from] acw_core::table::TableError),
    /// A placement names a unit the forces do not have, or names one twice.
    #[error("placement of {0:?}: no such unit, or placed twice")]
    UnknownPlacement(String),
    /// A unit placed (or deployed) partly off the table or outside its deployment zone.
    #[error("unit {0:?} does not fit on the table inside its deployment zone")]
    PlacementOutside(String),
    /// Two units placed on top of each other.
    #[error("units {0:?} and {1:?} overlap")]
    Overlap(String, String),
    /// The deployment zone is not inside the table.
    #[error("deployment zones must lie on the table and not overlap")]
    BadZones,
    /// More units, brigades or generals than ids can number.
    #[error("too many {0} to number")]
    TooMany(&'static str),
    /// A saved state that breaks an invariant of the rules.
    #[error("inconsistent state: {0}")]
    Inconsistent(String),
}

/// Why a unit may not attack (fire or melee) a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum AttackRefusal {
    /// The unit's kind does not attack in this category.
    #[strum(to_string = "its kind of unit does not attack in this step")]
    WrongCategory,
    /// Only deployed units fire (NORTH-MOV-01).
    #[strum(to_string = "only deployed units fire")]
    NotDeployed,
    /// A battery without its gun cannot fire (NORTH-ART-06).
    #[strum(to_string = "the crew is not with its gun")]
    NoGun,
    /// Units in contact do not fire (NORTH-FIR-01, NORTH-ART-01).
    #[strum(to_string = "units in contact do not fire")]
    InContact,
    /// Beyond musketry range or the artillery range option.
    #[strum(to_string = "the target is out of range")]
    OutOfRange,
    /// No line of sight (NORTH-FIR-07).
    #[strum(to_string = "it cannot see the target")]
    NoLineOfSight,
    /// Outside the front or muzzle arc (NORTH-FIR-01, NORTH-ART-04).
    #[strum(to_string = "the target is outside its arc of fire")]
    OutOfArc,
    /// Skirmishers (or dismounted cavalry under the default reading) that moved more than 5" do not fire
    /// (NORTH-MOV-17, NORTH-MOV-20).
    #[strum(to_string = "it moved too far this phase to fire")]
    MovedTooFar,
    /// Skirmishers screen the line of fire (NORTH-FIR-06).
    #[strum(to_string = "skirmishers screen the line of fire")]
    Screened,
    /// The target is in contact with friendly units (NORTH-OPT-38).
    #[strum(to_string = "the target is in melee with friendly units")]
    TargetInMelee,
    /// A melee attacker must be in contact with its target (NORTH-MEL-06).
    #[strum(to_string = "it is not in contact with the target")]
    NotInContactWithTarget,
    /// Skirmishers make no melee attacks (NORTH-MEL-09).
    #[strum(to_string = "skirmishers make no melee attacks")]
    SkirmishersDoNotMelee,
    /// Artillery makes no melee attacks under NORTH-OPT-23.
    #[strum(to_string = "artillery makes no melee attacks under the options in play")]
    ArtilleryDoesNotMelee,
}

/// Why a unit may not charge (NORTH-MEL-01).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum ChargeRefusal {
    /// Artillery never charges (NORTH-ART-05).
    #[strum(to_string = "artillery never charges")]
    Artillery,
    /// Skirmishers may not charge (NORTH-MOV-16).
    #[strum(to_string = "skirmishers do not charge")]
    Skirmishers,
    /// Only units deployed in line charge.
    #[strum(to_string = "only units in line charge")]
    NotInLine,
    /// A unit already in contact does not charge.
    #[strum(to_string = "it is already in contact")]
    AlreadyInContact,
    /// Withdrawing units do not charge (NORTH-CMD-04).
    #[strum(to_string = "units under Withdraw orders do not charge")]
    WithdrawOrder,
    /// The target is beyond charge reach (NORTH-MEL-03).
    #[strum(to_string = "the target is beyond charge reach")]
    OutOfReach,
}

/// Why a general may not rally a unit (NORTH-CMD-09, NORTH-CMD-14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum RallyRefusal {
    /// The general is killed or captured.
    #[strum(to_string = "he is killed or captured")]
    GeneralLost,
    /// The general belongs to the other side.
    #[strum(to_string = "he belongs to the other side")]
    OtherSide,
    /// The general is not with the unit (NORTH-CMD-08).
    #[strum(to_string = "he is not with the unit")]
    NotWith,
    /// An MG rallies only units of his own brigade (NORTH-OPT-29).
    #[strum(to_string = "a Major General rallies only his own brigade's units")]
    OtherBrigade,
    /// One rally attempt per check (NORTH-OPT-17), or one per general when several are allowed.
    #[strum(to_string = "no further rally attempt is allowed for this check")]
    TooManyAttempts,
    /// "Attempt only if it would not rally" needs the morale die seen first (NORTH-OPT-15).
    #[strum(to_string = "rallies are declared before the toss, so the toss cannot decide it")]
    NeedsSightOfToss,
}

/// An action the rules refuse. A refused action changes nothing.
#[derive(Clone, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum RuleViolation {
    /// No unit has this id.
    #[error("no {0}")]
    UnknownUnit(UnitId),
    /// No brigade has this id.
    #[error("no {0}")]
    UnknownBrigade(BrigadeId),
    /// No general has this id.
    #[error("no {0}")]
    UnknownGeneral(GeneralId),
    /// The unit has been removed or has left the table.
    #[error("{0} is not in play")]
    NotInPlay(UnitId),
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// NORTH-SEQ-05: only the phasing side acts and attacks.
    #[error("the {side} side cannot act in the {phasing} phase")]
    NotPhasing {
        /// The side that tried to act.
        side: Side,
        /// The side whose phase it is.
        phasing: Side,
    },
    /// NORTH-SEQ-02 / NORTH-SEQ-03 / NORTH-SEQ-04: the action belongs to another step.
    #[error("this belongs to the {expected} step; the phase is at {actual}")]
    WrongStep {
        /// The step the action belongs to.
        expected: Step,
        /// The step the phase is at.
        actual: Step,
    },
    /// NORTH-SEQ-04: steps run forward only.
    #[error("the phase cannot go back from {from} to {to}")]
    StepBackwards {
        /// Current step.
        from: Step,
        /// Requested step.
        to: Step,
    },
    /// NORTH-SEQ-03 / NORTH-MOV-07: one action per unit per phase.
    #[error("{0} has already acted this phase")]
    AlreadyActed(UnitId),
    /// NORTH-MOV-23: a unit in contact neither moves freely nor changes formation.
    #[error("{0} is in contact with the enemy")]
    InContact(UnitId),
    /// The action needs contact with the enemy (NORTH-MOV-15).
    #[error("{0} is not in contact with the enemy")]
    NotInContact(UnitId),
    /// NORTH-MOV-01: a formation the unit cannot take.
    #[error("a {troop} unit cannot take {formation}")]
    IllegalFormation {
        /// The unit's kind.
        troop: Troop,
        /// The formation asked for.
        formation: Formation,
    },
    /// A formation change to the formation the unit already has.
    #[error("{0} is already in that formation")]
    SameFormation(UnitId),
    /// NORTH-MEL-01: the unit may not charge.
    #[error("{unit} may not charge: {reason}")]
    CannotCharge {
        /// The unit.
        unit: UnitId,
        /// Why not.
        reason: ChargeRefusal,
    },
    /// The target is not an enemy unit in play.
    #[error("{0} is not an enemy unit in play")]
    BadTarget(UnitId),
    /// NORTH-CMD-03: a Hold unit makes no voluntary move.
    #[error("{unit} is under {order} orders and may not move that way")]
    OrderForbidsMove {
        /// The unit.
        unit: UnitId,
        /// Its order.
        order: BrigadeOrder,
    },
    /// NORTH-MOV-02 / NORTH-MOV-14: a move longer than the allowance.
    #[error("a move of {distance}\" exceeds the allowance of {allowance}\"")]
    MoveTooLong {
        /// Inches asked for.
        distance: f64,
        /// Inches allowed.
        allowance: f64,
    },
    /// NORTH-MOV-03 (`OrderedMove = Full`): an ordered move shorter than the allowance with no reason.
    #[error("an ordered move must be the full {allowance}\", not {distance}\"")]
    MoveTooShort {
        /// Inches asked for.
        distance: f64,
        /// Inches required.
        allowance: f64,
    },
    /// A length that is negative or not finite.
    #[error("{0} is not a length")]
    BadLength(f64),
    /// NORTH-MOV-09: a not-deployed unit whose move after a failed toss would reach an enemy stands in place.
    #[error("{0} must stand in place")]
    MustStandInPlace(UnitId),
    /// NORTH-CAS-02 / NORTH-CAS-04: the action would leave the unit below three counted stands.
    #[error("{0} would drop below three counted stands")]
    TooFewStands(UnitId),
    /// NORTH-MOV-11: the unit may not enter contact.
    #[error("{0} may not move into contact")]
    MayNotContact(UnitId),
    /// The action applies to another kind of unit (dismounting non-cavalry, limbering infantry, …).
    #[error("{unit} ({troop}) cannot do that")]
    WrongTroop {
        /// The unit.
        unit: UnitId,
        /// Its kind.
        troop: Troop,
    },
    /// The action needs skirmish order (NORTH-MOV-18).
    #[error("{0} is not in skirmish order")]
    NotSkirmishers(UnitId),
    /// NORTH-ART-06: a crew without its gun cannot do that.
    #[error("battery {0} is not with its gun")]
    NoGun(UnitId),
    /// NORTH-ART-07 / NORTH-ART-08: the gun is not abandoned.
    #[error("the gun of battery {0} is not abandoned")]
    GunNotAbandoned(UnitId),
    /// The rule is switched off by an option.
    #[error("option {0} forbids this")]
    OptionForbids(&'static str),
    /// NORTH-MOV-15: unlimbered artillery cannot move out of contact.
    #[error("{0} cannot move")]
    CannotMove(UnitId),
    /// NORTH-MOV-03 / NORTH-MOV-14: the ordered move the engine makes at the end of the units step finds no
    /// path at all (friends, enemies within the contact gap or the table edge on every way): the unit is excused.
    #[error("its way is blocked on every side")]
    NoWay(UnitId),
    /// NORTH-MOV-03 / NORTH-MOV-14: the ordered move the engine makes at the end of the units step would take the
    /// unit off the table, and it already stands at the edge (without NORTH-OPT-36 a withdrawing unit stays
    /// there): the unit is excused.
    #[error("it stands at the table edge, with no room to go the way its orders send it")]
    AtTableEdge(UnitId),
    /// The general is killed or captured.
    #[error("{0} is no longer in play")]
    GeneralLost(GeneralId),
    /// The general belongs to the other side.
    #[error("{0} is not on that side")]
    GeneralOtherSide(GeneralId),
    /// NORTH-CMD-06: the Army Commander must be with the brigade or unit.
    #[error("{0} is not with that brigade or unit")]
    GeneralNotWith(GeneralId),
    /// The general's rank cannot do this.
    #[error("{0} cannot do this")]
    WrongRank(GeneralId),
    /// NORTH-CMD-06: one automatic order change per phase.
    #[error("the Army Commander has already changed an order this phase")]
    ArmyCommanderUsed,
    /// NORTH-CMD-07: one order-change attempt per brigade per phase.
    #[error("{0} has already tried or received an order change this phase")]
    OrderChangeUsed(BrigadeId),
    /// An order change to the order already held.
    #[error("the order is already {0}")]
    OrderUnchanged(BrigadeOrder),
    /// The brigade still has its MG (the action is for leaderless units).
    #[error("{0} still has its Major General")]
    BrigadeHasLeader(BrigadeId),
    /// The brigade has lost its MG (NORTH-CMD-13).
    #[error("{0} has lost its Major General")]
    BrigadeLeaderless(BrigadeId),
    /// NORTH-CMD-09: the rally attempt is not allowed.
    #[error("{general} may not rally: {reason}")]
    CannotRally {
        /// The general.
        general: GeneralId,
        /// Why not.
        reason: RallyRefusal,
    },
    /// NORTH-SEQ-08: one attack per unit per phase.
    #[error("{0} has already attacked this phase")]
    AlreadyAttacked(UnitId),
    /// NORTH-SEQ-06: every attacker on one target in one category tosses together, once.
    #[error("{0} has already been attacked in this category this phase")]
    TargetAlreadyAttacked(UnitId),
    /// NORTH-SEQ-06: a group needs at least one attacker, each listed once.
    #[error("an attack needs distinct attackers, at least one")]
    BadGroup,
    /// The unit may not make this attack.
    #[error("{unit} may not attack in {category}: {reason}")]
    CannotAttack {
        /// The attacker.
        unit: UnitId,
        /// The category.
        category: Category,
        /// Why not.
        reason: AttackRefusal,
    },
    /// NORTH-OPT-25: with predeclared attacks, only declared attacks are resolved.
    #[error("that attack was not declared")]
    NotDeclared,
    /// NORTH-OPT-25: declarations are made once per category, before any toss.
    #[error("attacks for this category are already declared or resolved")]
    AlreadyDeclared,
    /// NORTH-MOR-05: a 3–4 result needs the owner's choice; other results leave none.
    #[error("the owner's choice does not fit a {0} result")]
    ChoiceMismatch(crate::tables::MoraleBand),
    /// NORTH-CMD-11: an order check needs a brigade whose MG was just lost.
    #[error("{0} owes no order check")]
    NoOrderCheckDue(BrigadeId),
    /// NORTH-MOV-03: a unit under Advance or Withdraw that is free to move must move (or try another action).
    #[error("{0} is under a movement order and must move")]
    MustMove(UnitId),
    /// An order given in a step that does not take it (a command order in the units step, say).
    #[error("that order is not given in the {step} step")]
    NotThisStep {
        /// The step the game is in.
        step: crate::sequence::Step,
    },
    /// The unit has no place on the table.
    #[error("{0} is not on the table")]
    NotPlaced(UnitId),
    /// NORTH-MOV-03: the units step cannot end while a unit owes its ordered move.
    #[error("{0} still owes its ordered move")]
    MoveOwed(UnitId),
    /// NORTH-MOR-01: a morale check waits for its owner's decision; nothing else happens until it is made.
    #[error("a morale check waits for its owner's decision first")]
    MoralePending,
    /// No morale check waits for that decision.
    #[error("no morale check waits for that decision")]
    NoMoraleDecision,
    /// The dice source could not give a face the action needs (ran out, or a face the die cannot show).
    #[error("the dice could not be read: {0}")]
    Dice(acw_core::dice::DiceError),
}
