//! The game layer: "Strike for Your God and Country" as a whole game behind acw-core's [`Ruleset`].
//!
//! [`State`] is the rules' [`Battle`] (units, figures, the sequencing and hit decks), a [`Field`] of footprints
//! on acw-core's table, the scenario's victory terms and the game's [`GameRng`]. Each card phase turns one
//! sequencing card at a time (red for the Union, black for the Confederates), so the side to order changes with
//! every card; that side names the unit the card activates and what it does ([`Order`]). Between decisions the
//! engine resolves all chance: shuffles, cards, the close-combat tests of each charge, the morale checks. Where
//! the rules give the other side a choice in the middle of a procedure, the state holds the step and
//! [`Ruleset::owed`] names that side: the defenders of a melee choose who fights first before the attackers
//! choose theirs and whether to pursue, and the owner of a shaken or routed unit chooses whether it tries to
//! rally. Some activations take several decisions of the same side ([`Activation`], asked as
//! [`Question::Continue`]): pooled fire gathered unit by unit before one roll, the single shots of a unit's
//! officers and snipers after its volley, and a cavalry unit's split movement dice spent one at a time.
//!
//! The rules have no victory conditions, so the scenario states them ([`Victory`]): a side whose figures in good
//! order fall to a share of its starting figures breaks, a side with nothing left in play but routed units has
//! lost, and at the turn limit the side that lost the smaller share of its figures wins.

use crate::Battle;
use crate::battle::{
    ChargeId, ChargeOrder, ChargeReport, ChargeStep, CheckDue, CloseReport, FireOrder, FireReport,
    GameEnd, MeleeOrder, MeleeReport, MoveOrder, MoveReport, StandReport,
};
use crate::error::{RuleViolation, SetupError};
use crate::field::{Field, MOVE_GAP, SPACING};
use crate::fire::MassFire;
use crate::melee::CloseTest;
use crate::morale::MoraleTest;
use crate::options::{FireSystem, Options, RallyRouted};
use crate::setup::UnitSpec;
use crate::state::{Compulsory, Formation, MoraleState, Phase, Unit, UnitId};
use crate::tables::{CONTACT_DISTANCE, MoveMode, Quality};
use acw_core::cards::Card;
use acw_core::dice::{DiceError, ScriptedDice};
use acw_core::game::{Decision, EndReason, GameResult, Outcome, Ruleset};
use acw_core::measure::{Heading, Inches, Point};
use acw_core::table::{Effects, Footprint, Shape, Table, TableError, Terrain};
use acw_core::{BySide, Dice, GameRng, Resolve, Side};
use std::fmt;
use thiserror::Error;

mod open;
pub use open::Activation;

// ----- scenario -----

/// Where a unit stands when the game begins: the centre of its footprint in inches from the table's lower-left
/// corner, and the way it faces in degrees clockwise from north (the Confederate edge).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Placement {
    /// Inches along the table's width.
    pub x: f64,
    /// Inches along the table's depth.
    pub y: f64,
    /// Facing in degrees, 0 north, 90 east.
    pub facing: f64,
}

/// The scenario's victory terms: the rules have none of their own.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Victory {
    /// A side breaks when its figures in good order (in units in play that are neither shaken nor routed) are
    /// this many percent of its starting figures or fewer; 0 turns the break off.
    pub break_percent: u8,
}

/// A scenario: the forces, where they stand, the table, the options (with a turn limit) and the victory terms.
/// Loaded through the same checks as [`Scenario::new`].
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "ScenarioData", into = "ScenarioData")
)]
pub struct Scenario {
    name: String,
    forces: Vec<UnitSpec>,
    placements: Vec<Placement>,
    table: Table,
    options: Options,
    victory: Victory,
}

/// The serde form of [`Scenario`], checked on load.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[doc(hidden)]
pub struct ScenarioData {
    name: String,
    forces: Vec<UnitSpec>,
    placements: Vec<Placement>,
    table: Table,
    options: Options,
    victory: Victory,
}

impl From<Scenario> for ScenarioData {
    fn from(s: Scenario) -> Self {
        ScenarioData {
            name: s.name,
            forces: s.forces,
            placements: s.placements,
            table: s.table,
            options: s.options,
            victory: s.victory,
        }
    }
}

impl TryFrom<ScenarioData> for Scenario {
    type Error = ScenarioError;
    fn try_from(d: ScenarioData) -> Result<Self, ScenarioError> {
        Scenario::new(
            d.name,
            d.forces,
            d.placements,
            d.table,
            d.options,
            d.victory,
        )
    }
}

/// Why a scenario or a saved game was refused.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum ScenarioError {
    /// The forces or options break the rules' setup.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The table is malformed.
    #[error(transparent)]
    Table(#[from] TableError),
    /// Not one placement a unit.
    #[error("the scenario places {placed} units but has {units}")]
    Placements {
        /// Units in the forces.
        units: usize,
        /// Placements given.
        placed: usize,
    },
    /// A unit placed off the table or at a non-finite spot.
    #[error("{0} is not placed wholly on the table")]
    OffTable(String),
    /// Two units placed on top of each other.
    #[error("{0} and {1} are placed on top of each other")]
    Overlap(String, String),
    /// No turn limit.
    #[error("a scenario needs a turn limit of at least one turn")]
    NoTurnLimit,
    /// A break share above 100 percent.
    #[error("a side cannot break at {0} percent of its figures: the share is at most 100")]
    BreakPercent(u8),
    /// A saved state no game could reach.
    #[error("the saved game is inconsistent: {0}")]
    Inconsistent(String),
}

impl Scenario {
    /// A scenario, checked: the forces and options pass the rules' setup, every unit has a placement wholly on
    /// the table and apart from the others, the options set a turn limit, and the break share is a percentage.
    pub fn new(
        name: impl Into<String>,
        forces: Vec<UnitSpec>,
        placements: Vec<Placement>,
        table: Table,
        options: Options,
        victory: Victory,
    ) -> Result<Scenario, ScenarioError> {
        let battle = Battle::new(&forces, options.clone())?;
        if placements.len() != forces.len() {
            return Err(ScenarioError::Placements {
                units: forces.len(),
                placed: placements.len(),
            });
        }
        if options.turn_limit.is_none_or(|t| t == 0) {
            return Err(ScenarioError::NoTurnLimit);
        }
        if victory.break_percent > 100 {
            return Err(ScenarioError::BreakPercent(victory.break_percent));
        }
        let places = footprints(&battle, &placements)?;
        for (i, f) in places.iter().enumerate() {
            if !table.holds(f) {
                return Err(ScenarioError::OffTable(
                    battle.units()[i].name().to_string(),
                ));
            }
            for (j, g) in places.iter().enumerate().take(i) {
                if f.distance(g).0 <= 0.0 {
                    return Err(ScenarioError::Overlap(
                        battle.units()[j].name().to_string(),
                        battle.units()[i].name().to_string(),
                    ));
                }
            }
        }
        Ok(Scenario {
            name: name.into(),
            forces,
            placements,
            table,
            options,
            victory,
        })
    }

    /// The scenario's name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The forces, in unit order.
    #[must_use]
    pub fn forces(&self) -> &[UnitSpec] {
        &self.forces
    }

    /// The table.
    #[must_use]
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// The options.
    #[must_use]
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The victory terms.
    pub fn victory(&self) -> Victory {
        self.victory
    }

    /// The default scenario, "The Fence at Miller's Farm": three Union companies (one Veteran with its colours,
    /// two Average) advance across a 48" by 36" table on three Confederate companies (one Average with its
    /// colours, one Average, one Green); a rail fence covers part of the Confederate line, a wood stands on the
    /// Union left and a rocky field in the middle. Twelve turns; a side breaks at 40% of its figures in good
    /// order.
    ///
    /// # Panics
    /// Never: the scenario is fixed and passes its checks (a test holds it so).
    #[must_use]
    pub fn miller_farm() -> Scenario {
        default_scenario().unwrap_or_else(|e| unreachable!("the default scenario is valid: {e}"))
    }
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario::miller_farm()
    }
}

fn default_scenario() -> Result<Scenario, ScenarioError> {
    use Side::{Confederate as Csa, Union as Usa};
    let forces = vec![
        UnitSpec::infantry("20th Maine, Company A", Usa, Quality::Veteran)?.with_colours(),
        UnitSpec::infantry("20th Maine, Company B", Usa, Quality::Average)?,
        UnitSpec::infantry("20th Maine, Company C", Usa, Quality::Average)?,
        UnitSpec::infantry("15th Alabama, Company D", Csa, Quality::Average)?.with_colours(),
        UnitSpec::infantry("15th Alabama, Company E", Csa, Quality::Average)?,
        UnitSpec::infantry("15th Alabama, Company F", Csa, Quality::Green)?,
    ];
    let p = |x, y, facing| Placement { x, y, facing };
    let placements = vec![
        p(8.0, 5.0, 0.0),
        p(24.0, 5.0, 0.0),
        p(40.0, 5.0, 0.0),
        p(8.0, 30.0, 180.0),
        p(24.0, 30.0, 180.0),
        p(40.0, 30.0, 180.0),
    ];
    let sq = |x0: f64, y0: f64, x1: f64, y1: f64| {
        vec![
            Point::new(x0, y0),
            Point::new(x1, y0),
            Point::new(x1, y1),
            Point::new(x0, y1),
        ]
    };
    let table = Table::new(
        Inches(48.0),
        Inches(36.0),
        vec![
            Terrain::fence(
                "the rail fence",
                vec![Point::new(16.0, 28.5), Point::new(47.0, 28.5)],
            )?,
            // woods are rough ground in these rules as well as cover that blocks sight
            Terrain::new(
                "Miller's wood",
                Shape::Area(sq(2.0, 12.0, 10.0, 22.0)),
                Effects {
                    cover: true,
                    blocks_sight: true,
                    rough: true,
                    ..Effects::default()
                },
            )?,
            Terrain::rough("the rocky field", sq(20.0, 15.0, 30.0, 20.0))?,
        ],
    )?;
    let options = Options {
        turn_limit: Some(12),
        ..Options::default()
    };
    Scenario::new(
        "The Fence at Miller's Farm",
        forces,
        placements,
        table,
        options,
        Victory { break_percent: 40 },
    )
}

fn footprints(battle: &Battle, placements: &[Placement]) -> Result<Vec<Footprint>, ScenarioError> {
    battle
        .units()
        .iter()
        .zip(placements)
        .map(|(u, p)| {
            let off = || ScenarioError::OffTable(u.name().to_string());
            let facing = Heading::degrees(p.facing).map_err(|_| off())?;
            Footprint::new(
                Point::new(p.x, p.y),
                facing,
                Inches(crate::field::frontage(u)),
                Inches(crate::field::UNIT_DEPTH),
            )
            .map_err(|_| off())
        })
        .collect()
}

// ----- orders, questions, events -----

/// One decision of a side.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Order {
    /// On a movement card: the unit makes its compulsory move (a rout, or staying pinned) (TSATF-SEQ-05).
    Compulsory {
        /// The unit.
        unit: UnitId,
    },
    /// On a movement card: the unit moves cross-country straight toward an enemy unit, stopping short of it
    /// (TSATF-MOV-01).
    Advance {
        /// The unit.
        unit: UnitId,
        /// The enemy it moves toward.
        toward: UnitId,
    },
    /// On a movement card: the unit moves cross-country straight back toward its own base edge (TSATF-MOV-01).
    Withdraw {
        /// The unit.
        unit: UnitId,
    },
    /// On a movement card: the unit changes formation where it stands, paying for the figure that moves
    /// furthest out of its rolled movement (TSATF-MOV-11).
    Form {
        /// The unit.
        unit: UnitId,
        /// The new formation.
        formation: Formation,
    },
    /// On a movement card: the unit charges an enemy unit (TSATF-MEL-01).
    Charge {
        /// The charger.
        unit: UnitId,
        /// Its target.
        target: UnitId,
    },
    /// On a firing card: the unit fires at an enemy unit (TSATF-FIR-01).
    Fire {
        /// The firer.
        unit: UnitId,
        /// Its target.
        target: UnitId,
    },
    /// On a movement card: cavalry mounts or dismounts where it stands, keeping its formation (which must suit
    /// the new state: mounted cavalry is in line or column); the change drops a movement die, and the
    /// horseholders of dismounted troopers leave the firing line (TSATF-MOV-08, TSATF-MOV-09).
    Mount {
        /// The unit.
        unit: UnitId,
        /// Mount (true) or dismount (false).
        mount: bool,
    },
    /// On a movement card: a gun limbers up or unlimbers where it stands; the change drops a movement die
    /// (TSATF-MOV-08).
    Limber {
        /// The gun.
        unit: UnitId,
        /// Limber up (true) or unlimber (false).
        limber: bool,
    },
    /// On a movement card: a unit of trained scouts advances like [`Order::Advance`] and looks for hidden
    /// enemies as it goes: a 6 on 1D6 reveals every hidden enemy unit within the spotting distance of where it
    /// set out (TSATF-OPT-04).
    Scout {
        /// The scouts.
        unit: UnitId,
        /// The enemy it moves toward.
        toward: UnitId,
    },
    /// On a movement card: the unit takes down the obstacle (a fence, wall or the like) it is in contact with,
    /// the nearest if there are several; it does not move, and may still fire on the firing card. The obstacle
    /// is gone for the rest of the game: no longer rough ground, cover or a protected position (TSATF-MOV-12).
    Dismantle {
        /// The unit.
        unit: UnitId,
    },
    /// On its side's movement card, before the unit moves (campaign games only): how many of the unit's
    /// privates carry its wounded, one each (0 sets them all down). Carriers may not fire, and the unit moves
    /// half its rolled distance while any carry (TSATF-MOV-15). Naming carriers does not spend the card: the
    /// same side is asked again, and the move it then gives spends it.
    Carry {
        /// The unit.
        unit: UnitId,
        /// How many privates carry wounded.
        carriers: u16,
    },
    /// On a firing card: the unit starts a pooled fire at an enemy unit and takes the card; while the pool is
    /// open, another unit of the same side, weapon row and view of the target joins it, giving up its own card
    /// (TSATF-FIR-11 under `remainder = Pool`, TSATF-ART-02 under `battery_fire = Pooled`). The fire goes, all
    /// figures together on one roll, on [`Order::Finish`].
    Pool {
        /// The unit that starts or joins the pool.
        unit: UnitId,
        /// The target.
        target: UnitId,
    },
    /// While a unit's card is open for single shots: one of its officers (pistol, 15") or snipers (rifle, 48")
    /// fires at one figure of an enemy unit, officers before snipers (TSATF-FIR-13, TSATF-FIR-19 to
    /// TSATF-FIR-21).
    Shoot {
        /// The unit whose card is open.
        unit: UnitId,
        /// The figure that fires (its index in the unit).
        figure: u16,
        /// The enemy unit.
        target: UnitId,
        /// The figure aimed at (its index in the enemy unit).
        aim: u16,
    },
    /// On a movement card, when the option is agreed: cavalry rolls its movement dice to spend one at a time
    /// (TSATF-MOV-17); the card stays open for [`Order::Ride`], [`Order::Mount`], [`Order::Fire`] and
    /// [`Order::Finish`].
    Split {
        /// The cavalry unit.
        unit: UnitId,
    },
    /// Within a split move: the die at `die` (0 is the highest left) is spent riding straight at an enemy unit,
    /// stopping short of it (TSATF-MOV-17).
    Ride {
        /// The cavalry unit.
        unit: UnitId,
        /// The enemy it rides toward.
        toward: UnitId,
        /// Which die left to spend, highest first.
        die: u8,
    },
    /// Closes the unit's open activation: a gathered pool fires, single shots not taken are given up, dice of a
    /// split move not spent are lost.
    Finish {
        /// The unit whose card is open.
        unit: UnitId,
    },
    /// On either card: the unit takes the card and does nothing.
    Hold {
        /// The unit.
        unit: UnitId,
    },
    /// The defenders of a melee choose who fights first: officers and NCOs, or the ranks (TSATF-MEL-14).
    Pair {
        /// Officers and NCOs fight first.
        cadre_first: bool,
    },
    /// The attackers of a melee choose who fights first and whether they pursue if they win (TSATF-MEL-14,
    /// TSATF-MEL-21); the melee is then fought out.
    Fight {
        /// Officers and NCOs fight first.
        cadre_first: bool,
        /// Follow up the beaten enemy.
        pursue: bool,
    },
    /// A shaken or routed unit's owner chooses whether it tries to rally (TSATF-MOR-10, TSATF-MOR-12).
    Rally {
        /// The unit.
        unit: UnitId,
        /// Try (true) or let it be (false).
        attempt: bool,
    },
}

/// A change of state made where a unit stands (TSATF-MOV-08).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum StateChange {
    /// Cavalry got on its horses.
    #[strum(to_string = "mounted")]
    Mounted,
    /// Cavalry got off, its horseholders taking the horses.
    #[strum(to_string = "dismounted")]
    Dismounted,
    /// A gun was hooked to its limber.
    #[strum(to_string = "limbered up")]
    Limbered,
    /// A gun was unhooked and made ready to fire.
    #[strum(to_string = "unlimbered")]
    Unlimbered,
}

/// What a side is asked.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Question {
    /// A card of the side's colour is turned: which unit takes it, and what does it do?
    Activate {
        /// The side.
        side: Side,
        /// The phase.
        phase: Phase,
        /// The turn.
        turn: u32,
        /// A unit that must make its compulsory move before any other acts.
        compulsory: Option<String>,
    },
    /// The defenders of a melee choose who fights first.
    Pair {
        /// The defending unit.
        defender: String,
        /// The charging unit.
        attacker: String,
    },
    /// The attackers of a melee choose who fights first and whether to pursue.
    Fight {
        /// The charging unit.
        attacker: String,
        /// The defending unit.
        defender: String,
    },
    /// A shaken or routed unit may try to rally.
    Rally {
        /// The unit.
        unit: String,
        /// Its state.
        morale: MoraleState,
    },
    /// The side's unit still holds its card (a pooled fire being gathered, single shots to take, split dice to
    /// spend): what next?
    Continue {
        /// The side.
        side: Side,
        /// The unit whose card is open.
        unit: String,
        /// What the open card waits for, in a sentence.
        open: String,
    },
}

impl fmt::Display for Question {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Question::Activate {
                side,
                phase,
                turn,
                compulsory,
            } => {
                write!(
                    f,
                    "Turn {turn}, {phase} phase: a {side} card is turned. Which {side} unit takes it, and what does it do?"
                )?;
                if let Some(u) = compulsory {
                    write!(f, " ({u} must make its compulsory move first.)")?;
                }
                Ok(())
            }
            Question::Pair { defender, attacker } => write!(
                f,
                "{defender} stands against the charge of {attacker}: do its officers and NCOs fight first?"
            ),
            Question::Fight { attacker, defender } => write!(
                f,
                "{attacker} meets {defender} in melee: do its officers and NCOs fight first, and does it pursue if it wins?"
            ),
            Question::Rally { unit, morale } => {
                write!(f, "{unit} is {morale}: does it try to rally?")
            }
            Question::Continue { unit, open, .. } => {
                write!(f, "{unit} still holds its card: {open}. What next?")
            }
        }
    }
}

/// A morale test's result with its odds (TSATF-MOR-01).
#[must_use]
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TestResult {
    /// Whose test: a unit or a side.
    pub who: String,
    /// The test.
    pub test: String,
    /// The unit counted as with a leader.
    pub leader: bool,
    /// The modifier applied to the roll.
    pub modifier: i8,
    /// Passed.
    pub passed: bool,
    /// The chance of this result before the roll.
    pub chance: f64,
}

/// What happened.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Event {
    /// A phase began.
    PhaseBegan {
        /// The turn.
        turn: u32,
        /// The phase.
        phase: Phase,
    },
    /// The sequencing deck was made up and shuffled (TSATF-SEQ-02).
    Shuffled {
        /// The phase.
        phase: Phase,
        /// Cards in it.
        cards: usize,
    },
    /// A sequencing card was turned (TSATF-SEQ-03): the cards drawn (a card of a side with nobody left to act
    /// is passed over), the side whose unit acts, and the chance of turning cards of those colours in that
    /// order.
    CardTurned {
        /// Cards drawn, in order.
        cards: Vec<Card>,
        /// The side to act.
        side: Side,
        /// The chance of drawing cards of these colours in this order (the passed-over cards, then the
        /// card that activates).
        chance: f64,
    },
    /// A compulsory move (TSATF-SEQ-05, TSATF-MOR-08).
    Compulsory {
        /// The unit.
        unit: String,
        /// What it had to do.
        kind: Compulsory,
        /// Inches rolled.
        inches: u32,
        /// It left the table.
        off_table: bool,
    },
    /// A unit moved (TSATF-MOV-01).
    Moved {
        /// Toward what.
        toward: String,
        /// The rules' report: dice and allowance.
        report: MoveReport,
        /// Rough or obstacle features on the path (each drops the highest die, TSATF-MOV-06).
        rough: u8,
        /// The whole move kept to a road, at the road rate (TSATF-MOV-04).
        road: bool,
        /// Inches actually moved on the table.
        moved: f64,
    },
    /// A unit changed formation (TSATF-MOV-11).
    Formed {
        /// The new formation.
        formation: Formation,
        /// Inches the furthest figure moved, paid out of the roll.
        cost: f64,
        /// The rules' report: the dice rolled.
        report: MoveReport,
    },
    /// Cavalry mounted or dismounted, or a gun limbered or unlimbered, where it stands (TSATF-MOV-08).
    StateChanged {
        /// What changed.
        change: StateChange,
        /// The rules' report: the dice rolled.
        report: MoveReport,
    },
    /// A formation change the roll could not pay for: not finished, the card spent (TSATF-MOV-11).
    FormationUnfinished {
        /// The unit.
        unit: String,
        /// The formation it tried to take.
        formation: Formation,
        /// Inches the furthest figure had to move.
        needed: f64,
        /// Inches rolled.
        rolled: f64,
    },
    /// A hidden unit was revealed by enemy troops coming within 4" (TSATF-OPT-04).
    Revealed {
        /// The unit.
        unit: String,
        /// Inches to the nearest enemy.
        distance: f64,
    },
    /// A unit spent its movement card taking down an obstacle (TSATF-MOV-12).
    Dismantled {
        /// The unit.
        unit: String,
        /// The obstacle's name.
        obstacle: String,
    },
    /// A unit's privates took up (or set down) its wounded (TSATF-MOV-15).
    Carrying {
        /// The unit.
        unit: String,
        /// How many now carry wounded.
        carriers: u16,
    },
    /// A unit started a pooled fire, or joined one (TSATF-FIR-11).
    Pooled {
        /// The unit.
        unit: String,
        /// The unit whose pool it joined (`None`: it started the pool).
        lead: Option<String>,
        /// The target.
        target: String,
    },
    /// An officer's or sniper's single shot (TSATF-FIR-19, TSATF-FIR-20).
    Shot {
        /// The unit.
        unit: String,
        /// Who fired: the figure's role.
        shooter: String,
        /// The enemy unit.
        target: String,
        /// The figure aimed at: its role.
        aimed: String,
        /// The range in inches.
        range: f64,
        /// What the shot did.
        report: crate::battle::PersonalReport,
        /// The chance of that effect.
        chance: f64,
    },
    /// Cavalry rolled its movement dice to spend one at a time (TSATF-MOV-17).
    SplitRolled {
        /// The unit.
        unit: String,
        /// The faces, highest first.
        faces: Vec<u16>,
    },
    /// One part of a split move: a die spent riding (TSATF-MOV-17).
    Rode {
        /// The unit.
        unit: String,
        /// Toward which enemy.
        toward: String,
        /// The die spent.
        die: u16,
        /// The highest die left dropped for rough ground or an obstacle on the way.
        dropped: Option<u16>,
        /// Inches moved.
        moved: f64,
    },
    /// Within a split move, a die spent on mounting, dismounting (`change`) or firing (`None`).
    SplitStep {
        /// The unit.
        unit: String,
        /// The die spent.
        die: u16,
        /// The change of state, or `None` for fire.
        change: Option<StateChange>,
    },
    /// A unit's open card was closed with single shots not taken or dice not spent.
    Finished {
        /// The unit.
        unit: String,
        /// Dice of a split move left unspent.
        left: Vec<u16>,
    },
    /// A unit took its card and did nothing.
    Held {
        /// The unit.
        unit: String,
        /// The phase.
        phase: Phase,
    },
    /// A charge was declared and moved (TSATF-MEL-01).
    Charged {
        /// The charger.
        unit: String,
        /// The target.
        target: String,
        /// Inches to the target.
        distance: f64,
        /// Rough or obstacle features crossed.
        rough: u8,
        /// Against the target's flank or rear.
        flank: bool,
        /// The rules' report.
        report: ChargeReport,
    },
    /// A unit fired (TSATF-FIR-01).
    Fired {
        /// The rules' report: row, class, figures, hits and every hit card.
        report: FireReport,
        /// Range in inches.
        range: f64,
        /// The fire enfiladed the target.
        enfilade: bool,
        /// The chance of exactly this many hits (mass fire).
        chance: Option<f64>,
    },
    /// The attackers' close-to-combat step (TSATF-MEL-05).
    Closed {
        /// The charger.
        attacker: String,
        /// The target.
        defender: String,
        /// What happened.
        report: CloseReport,
        /// The test taken, if one was.
        test: Option<TestResult>,
    },
    /// The defenders' stand-and-fight test (TSATF-MEL-10).
    Stand {
        /// The defenders.
        defender: String,
        /// What happened.
        report: StandReport,
        /// The test.
        test: TestResult,
    },
    /// The defenders chose who fights first.
    Paired {
        /// The defenders.
        unit: String,
        /// Officers and NCOs first.
        cadre_first: bool,
    },
    /// A melee was fought out (TSATF-MEL-14 to TSATF-MEL-24).
    Melee {
        /// The rules' report.
        report: MeleeReport,
    },
    /// A morale test or rally (TSATF-MOR-01).
    Morale(TestResult),
    /// A unit's owner let it be instead of rallying.
    RallyDeclined {
        /// The unit.
        unit: String,
    },
    /// The game ended.
    GameEnded {
        /// How.
        outcome: Outcome,
    },
}

/// A chance as a person reads it, to a tenth of a percent ("83.3%"). Always written after "a chance of" or
/// "with a chance of", never after an article of its own: "a 83%" and "a 11%" read wrong.
fn pct(p: f64) -> String {
    format!("{:.1}%", 100.0 * p)
}

impl fmt::Display for TestResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} took {} ({}, modifier {:+}) and {} with a chance of {}",
            self.who,
            self.test,
            if self.leader {
                "with a leader"
            } else {
                "without a leader"
            },
            self.modifier,
            if self.passed { "passed" } else { "failed" },
            pct(self.chance)
        )
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::PhaseBegan { turn, phase } => {
                write!(f, "Turn {turn}: the {phase} phase begins.")
            }
            Event::Shuffled { phase, cards } => {
                write!(f, "The {phase} deck of {cards} cards is shuffled.")
            }
            Event::CardTurned {
                cards,
                side,
                chance,
            } => {
                let names: Vec<String> = cards.iter().map(ToString::to_string).collect();
                if cards.len() > 1 {
                    write!(
                        f,
                        "Turned {}: a {side} card after {} passed over (those colours in that order), with a chance of {}.",
                        names.join(", then "),
                        cards.len() - 1,
                        pct(*chance)
                    )
                } else {
                    write!(
                        f,
                        "Turned {}: a {side} card, with a chance of {}.",
                        names.join(", then "),
                        pct(*chance)
                    )
                }
            }
            Event::Compulsory {
                unit,
                kind,
                inches,
                off_table,
            } => match kind {
                Compulsory::StayPinned => write!(f, "{unit} stays pinned where it lies."),
                _ => write!(
                    f,
                    "{unit} must {kind}: it goes {inches}\"{}.",
                    if *off_table {
                        " and leaves the table"
                    } else {
                        ""
                    }
                ),
            },
            Event::Moved {
                toward,
                report,
                rough,
                road,
                moved,
            } => {
                write!(f, "{report}")?;
                if *road {
                    write!(f, " on the road")?;
                }
                if let Some(d) = report.dice {
                    write!(f, " ({}D6, keeping {})", d.dice, d.kept())?;
                }
                if *rough > 0 {
                    write!(f, ", crossing {rough} rough or obstacle feature(s)")?;
                }
                if report.leaderless_halt {
                    write!(f, ".")
                } else {
                    write!(f, "; it moves {moved:.1}\" toward {toward}.")
                }
            }
            Event::StateChanged { change, report } => {
                if report.leaderless_halt {
                    write!(f, "{report}.")
                } else {
                    write!(
                        f,
                        "{} {change} where it stood (its {}\" roll, a die dropped for the change, goes unused).",
                        report.unit, report.rolled
                    )
                }
            }
            Event::Formed {
                formation,
                cost,
                report,
            } => {
                if report.leaderless_halt {
                    write!(f, "{report}.")
                } else {
                    write!(
                        f,
                        "{} rolled {}\" and formed {formation}, the furthest figure moving {cost:.1}\".",
                        report.unit, report.rolled
                    )
                }
            }
            Event::FormationUnfinished {
                unit,
                formation,
                needed,
                rolled,
            } => write!(
                f,
                "{unit} rolled {rolled}\" but needed {needed:.1}\" to form {formation}: the change is not finished."
            ),
            Event::Revealed { unit, distance } => write!(
                f,
                "{unit} is revealed: enemy troops have come within {distance:.1}\" of it."
            ),
            Event::Dismantled { unit, obstacle } => write!(
                f,
                "{unit} spends its movement card taking down {obstacle}; it stays where it is, and {obstacle} is gone from the field."
            ),
            Event::Carrying { unit, carriers: 0 } => {
                write!(
                    f,
                    "{unit} sets its wounded down: every man may fight and fire again."
                )
            }
            Event::Carrying { unit, carriers: 1 } => write!(
                f,
                "{unit} takes up its wounded: one man carries a wounded comrade and may not fire, and the unit moves at half speed."
            ),
            Event::Carrying { unit, carriers } => write!(
                f,
                "{unit} takes up its wounded: {carriers} men each carry a wounded comrade and may not fire, and the unit moves at half speed."
            ),
            Event::Pooled { unit, lead, target } => match lead {
                None => write!(
                    f,
                    "{unit} makes ready to fire at {target} and holds its fire for other units to join."
                ),
                Some(lead) => write!(
                    f,
                    "{unit} joins the fire of {lead} at {target}, giving up its own card."
                ),
            },
            Event::Shot {
                unit,
                shooter,
                target,
                aimed,
                range,
                report,
                chance,
            } => {
                write!(
                    f,
                    "The {shooter} of {unit} fires his {} at the {aimed} of {target}, {range:.1}\" away: ",
                    report.weapon
                )?;
                match report.struck {
                    Some((_, status)) if status.to_string() != report.effect.to_string() => {
                        write!(f, "{}, which counts as {status}", report.effect)?;
                    }
                    Some((_, status)) => write!(f, "{status}")?,
                    None => write!(f, "{}", report.effect)?,
                }
                write!(f, ", with a chance of {}.", pct(*chance))
            }
            Event::SplitRolled { unit, faces } => write!(
                f,
                "{unit} rolls {} for its movement, to spend one die at a time.",
                open::faces_text(faces)
            ),
            Event::Rode {
                unit,
                toward,
                die,
                dropped,
                moved,
            } => {
                write!(f, "{unit} spends its {die} riding at {toward}")?;
                if let Some(d) = dropped {
                    write!(f, " and drops its {d} for the rough ground on the way")?;
                }
                write!(f, ": it goes {moved:.1}\".")
            }
            Event::SplitStep { unit, die, change } => match change {
                Some(c) => write!(f, "{unit} spends its {die}: it has {c}."),
                None => write!(f, "{unit} spends its {die} to fire during its move."),
            },
            Event::Finished { unit, left } => {
                if left.is_empty() {
                    write!(f, "{unit} takes no more single shots.")
                } else {
                    write!(
                        f,
                        "{unit} ends its move, leaving {} unspent.",
                        open::faces_text(left)
                    )
                }
            }
            Event::Held { unit, phase } => {
                write!(f, "{unit} takes its {phase} card and stays as it is.")
            }
            Event::Charged {
                unit,
                target,
                distance,
                rough,
                flank,
                report,
            } => write!(
                f,
                "{unit} charges {target}, {distance:.1}\" away{}{}: {report}.",
                if *flank { ", in flank or rear" } else { "" },
                if *rough > 0 {
                    format!(", over {rough} rough or obstacle feature(s)")
                } else {
                    String::new()
                }
            ),
            Event::Fired {
                report,
                range,
                enfilade,
                chance,
            } => {
                write!(
                    f,
                    "At {range:.1}\"{}, {report}",
                    if *enfilade { ", in enfilade" } else { "" }
                )?;
                if let Some(p) = chance {
                    write!(f, " (that many hits had a chance of {})", pct(*p))?;
                }
                if !report.cards.is_empty() {
                    let cards: Vec<String> = report
                        .cards
                        .iter()
                        .map(|c| format!("{} ({}, {})", c.card, c.effect, c.category))
                        .collect();
                    write!(f, "; hit cards: {}", cards.join(", "))?;
                }
                write!(f, ".")
            }
            Event::Closed {
                attacker,
                defender,
                report,
                test,
            } => {
                write!(f, "{attacker} against {defender}: {report}")?;
                if let Some(t) = test {
                    write!(f, "; {t}")?;
                }
                write!(f, ".")
            }
            Event::Stand {
                defender: _,
                report,
                test,
            } => write!(f, "{test}: {report}."),
            Event::Paired { unit, cadre_first } => write!(
                f,
                "{unit} puts {} into the fight first.",
                if *cadre_first {
                    "its officers and NCOs"
                } else {
                    "its rank and file"
                }
            ),
            Event::Melee { report } => write!(f, "Melee: {report}."),
            Event::Morale(t) => write!(f, "{t}."),
            Event::RallyDeclined { unit } => write!(f, "{unit} does not try to rally."),
            Event::GameEnded { outcome } => write!(f, "The game is over: {outcome}."),
        }
    }
}

/// Why an order was refused.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum GameError {
    /// The rules refuse it.
    #[error(transparent)]
    Rule(#[from] RuleViolation),
    /// The order does not answer the question asked.
    #[error("that order does not answer the question: {0}")]
    NotAsked(String),
    /// The game is over.
    #[error("the game is over")]
    Over,
    /// No unit with that number.
    #[error("there is no unit number {0}")]
    NoSuchUnit(u32),
    /// A unit of the other side.
    #[error("{0} is not a unit of the side to order")]
    NotYours(String),
    /// A target that is not an enemy in play.
    #[error("{0} is not an enemy unit on the table")]
    NotEnemy(String),
    /// The target is not in the firer's cone of fire.
    #[error("{target} is outside the cone of fire of {unit}")]
    OutOfCone {
        /// The firer.
        unit: String,
        /// The target.
        target: String,
    },
    /// The new formation would not fit on the table where the unit stands.
    #[error("{0} has no room on the table to take that formation")]
    NoRoom(String),
    /// Something blocks sight to the target.
    #[error("{unit} cannot see {target}")]
    NoSight {
        /// The firer.
        unit: String,
        /// The target.
        target: String,
    },
    /// The dice source ran out or gave an impossible face.
    #[error(transparent)]
    Dice(#[from] DiceError),
    /// Carrying wounded is named only before the unit moves on its side's movement card, and must change
    /// something.
    #[error(
        "{0} cannot change who carries its wounded now: only on its own movement card, before it moves, and to a new number"
    )]
    NotNow(String),
    /// The unit is not in contact with a fence, wall or other obstacle to take down.
    #[error("{0} is not in contact with an obstacle it could take down")]
    NoObstacle(String),
    /// A unit cannot join a pooled fire.
    #[error("{unit} cannot join the fire of {lead}: {reason}")]
    CannotJoin {
        /// The unit.
        unit: String,
        /// The unit that started the pool.
        lead: String,
        /// Why not.
        reason: &'static str,
    },
    /// A split move has no such die left.
    #[error(
        "{unit} has no movement die left to spend there (die number {index}, counting from 0 for the highest)"
    )]
    NoDie {
        /// The unit.
        unit: String,
        /// The die asked for.
        index: u8,
    },
}

// ----- a side's view -----

/// One unit as a side sees it (see [`State::side_view`]).
#[must_use]
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct UnitView {
    /// The unit's number.
    pub id: UnitId,
    /// Its name.
    pub name: String,
    /// Its side.
    pub side: Side,
    /// Where it stands.
    pub place: Footprint,
    /// Figures still with it.
    pub figures: u16,
    /// Its formation.
    pub formation: Formation,
    /// Its morale state.
    pub morale: MoraleState,
    /// Hidden from the enemy (only ever true of the viewing side's own units).
    pub hidden: bool,
    /// It has left the table.
    pub off_table: bool,
}

/// What one side may be shown of a game (TSATF-OPT-04): the table as it stands and the units that side can see,
/// never the other side's hidden units. Made by [`State::side_view`]; loading one (with the `serde` feature)
/// refuses a view that holds a hidden enemy or the same unit twice, as the game never makes one.
#[must_use]
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "SideViewData"))]
pub struct SideView {
    /// The side it is shown to.
    pub side: Side,
    /// The turn.
    pub turn: u32,
    /// The phase.
    pub phase: Phase,
    /// The side whose card is turned, if one is.
    pub card: Option<Side>,
    /// The table as it stands (obstacles taken down are gone from it).
    pub table: Table,
    /// The units the side can see, in id order.
    pub units: Vec<UnitView>,
    /// How the game ended, once it has.
    pub outcome: Option<Outcome>,
}

#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct SideViewData {
    side: Side,
    turn: u32,
    phase: Phase,
    card: Option<Side>,
    table: Table,
    units: Vec<UnitView>,
    outcome: Option<Outcome>,
}

#[cfg(feature = "serde")]
impl TryFrom<SideViewData> for SideView {
    type Error = ScenarioError;
    fn try_from(d: SideViewData) -> Result<Self, ScenarioError> {
        let bad = |m: &str| Err(ScenarioError::Inconsistent(m.to_string()));
        if d.units.iter().any(|u| u.side != d.side && u.hidden) {
            return bad("a side's view holds a hidden enemy unit");
        }
        if d.units.windows(2).any(|w| w[0].id >= w[1].id) {
            return bad("a side's view lists its units out of order or twice");
        }
        Ok(SideView {
            side: d.side,
            turn: d.turn,
            phase: d.phase,
            card: d.card,
            table: d.table,
            units: d.units,
            outcome: d.outcome,
        })
    }
}

// ----- state -----

/// A game in progress: the rules' battle, the field, the victory terms, the generator and the step in hand.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "StateData", into = "StateData"))]
pub struct State {
    battle: Battle,
    field: Field,
    victory: Victory,
    starting: BySide<u32>,
    rng: GameRng,
    charge_starts: Vec<(ChargeId, Footprint)>,
    pairing: Option<bool>,
    declined: Vec<UnitId>,
    over: Option<Outcome>,
    opening: Vec<Event>,
    open: Option<Activation>,
}

/// The serde form of [`State`], checked on load.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[doc(hidden)]
pub struct StateData {
    battle: Battle,
    field: Field,
    victory: Victory,
    starting: BySide<u32>,
    rng: GameRng,
    charge_starts: Vec<(ChargeId, Footprint)>,
    pairing: Option<bool>,
    declined: Vec<UnitId>,
    over: Option<Outcome>,
    opening: Vec<Event>,
    #[cfg_attr(feature = "serde", serde(default))]
    open: Option<Activation>,
}

impl From<State> for StateData {
    fn from(s: State) -> Self {
        StateData {
            battle: s.battle,
            field: s.field,
            victory: s.victory,
            starting: s.starting,
            rng: s.rng,
            charge_starts: s.charge_starts,
            pairing: s.pairing,
            declined: s.declined,
            over: s.over,
            opening: s.opening,
            open: s.open,
        }
    }
}

impl TryFrom<StateData> for State {
    type Error = ScenarioError;
    fn try_from(d: StateData) -> Result<Self, ScenarioError> {
        let bad = |m: &str| Err(ScenarioError::Inconsistent(m.to_string()));
        let n = d.battle.units().len();
        if d.field.places().len() != n {
            return bad("the field does not place every unit");
        }
        for u in d.battle.units() {
            if u.off_table() || u.strength() == 0 {
                continue;
            }
            let f = d.field.places()[u.id().0 as usize];
            if !(f.frontage.0 > 0.0 && f.depth.0 > 0.0 && d.field.table().holds(&f)) {
                return bad("a unit in play stands off the table");
            }
        }
        if d.field.dismantled().iter().any(|t| !t.effects().obstacle) {
            return bad("only obstacles can have been taken down");
        }
        if d.victory.break_percent > 100 {
            return Err(ScenarioError::BreakPercent(d.victory.break_percent));
        }
        if d.battle.options().turn_limit.is_none() {
            return Err(ScenarioError::NoTurnLimit);
        }
        let starting = BySide::new(
            starting_figures(&d.battle, Side::Union),
            starting_figures(&d.battle, Side::Confederate),
        );
        if starting != d.starting {
            return bad("the starting strengths do not match the units");
        }
        if d.charge_starts
            .iter()
            .any(|(c, _)| !d.battle.charges().iter().any(|x| x.id() == *c))
        {
            return bad("a charge's start refers to no charge");
        }
        if d.declined.iter().any(|u| u.0 as usize >= n) {
            return bad("a declined rally refers to no unit");
        }
        let s = State {
            battle: d.battle,
            field: d.field,
            victory: d.victory,
            starting: d.starting,
            rng: d.rng,
            charge_starts: d.charge_starts,
            pairing: d.pairing,
            declined: d.declined,
            over: d.over,
            opening: d.opening,
            open: d.open,
        };
        if !s.open_consistent() {
            return bad("the open activation does not fit the battle");
        }
        if s.pairing.is_some() && s.melee_due().is_none() {
            return bad("a melee pairing is recorded with no melee waiting");
        }
        if s.over != s.end() {
            return bad("the recorded end does not follow from the battle");
        }
        if s.over.is_none() && s.decision().is_none() {
            return bad("no side owes a decision in a game that is not over");
        }
        Ok(s)
    }
}

/// The chance of turning cards of these colours in this order from `pile` (the cards passed over for a side
/// with nobody left to act, then the card that activates).
fn colours_chance(pile: &[Card], turned: &[Card]) -> f64 {
    let mut left = BySide::new(0usize, 0usize);
    for &c in pile {
        *left.get_mut(crate::sequence::side_of(c)) += 1;
    }
    let mut total = pile.len();
    let mut p = 1.0;
    for &c in turned {
        let s = crate::sequence::side_of(c);
        if total == 0 {
            return 0.0;
        }
        p *= *left.get(s) as f64 / total as f64;
        *left.get_mut(s) = left.get(s).saturating_sub(1);
        total -= 1;
    }
    p
}

fn starting_figures(b: &Battle, side: Side) -> u32 {
    b.units()
        .iter()
        .filter(|u| u.side() == side)
        .map(|u| u32::from(u.starting_strength()))
        .sum()
}

fn good_order(u: &Unit) -> bool {
    !u.off_table()
        && u.strength() > 0
        && !matches!(u.morale(), MoraleState::Shaken | MoraleState::Routed)
}

impl State {
    /// The rules' battle.
    #[must_use]
    pub fn battle(&self) -> &Battle {
        &self.battle
    }

    /// The field.
    #[must_use]
    pub fn field(&self) -> &Field {
        &self.field
    }

    /// What `side` sees of the table: every unit of its own and every enemy unit not hidden, with its name and
    /// footprint, in id order. Hidden enemies are left out (TSATF-OPT-04): a table-side app shows a side this,
    /// not [`State::field`], and no order of that side may name them (refused as units that do not exist).
    #[must_use]
    pub fn view(&self, side: Side) -> Vec<(UnitId, &str, Footprint)> {
        self.battle
            .units()
            .iter()
            .filter(|u| u.side() == side || !u.hidden())
            .filter_map(|u| Some((u.id(), u.name(), *self.field.place(u.id())?)))
            .collect()
    }

    /// What `side` may be shown of the game, in a form an app can save or send to that player: the table as it
    /// stands and every unit [`State::view`] shows (its own, hidden or not, and the enemies not hidden), with
    /// their state as seen across the table. Unlike a save of the [`State`], it never holds the other side's
    /// hidden units (TSATF-OPT-04); it is a picture to show, not a game to play on.
    pub fn side_view(&self, side: Side) -> SideView {
        let units = self
            .battle
            .units()
            .iter()
            .filter(|u| u.side() == side || !u.hidden())
            .filter_map(|u| {
                Some(UnitView {
                    id: u.id(),
                    name: u.name().to_string(),
                    side: u.side(),
                    place: *self.field.place(u.id())?,
                    figures: u.strength(),
                    formation: u.formation(),
                    morale: u.morale(),
                    hidden: u.hidden(),
                    off_table: u.off_table(),
                })
            })
            .collect();
        SideView {
            side,
            turn: self.battle.turn(),
            phase: self.battle.phase(),
            card: self.battle.card(),
            table: self.field.table().clone(),
            units,
            outcome: self.over,
        }
    }

    /// The victory terms.
    pub fn victory(&self) -> Victory {
        self.victory
    }

    /// How the game ended, once it has.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.over
    }

    /// Figures each side started with.
    #[must_use]
    pub fn starting(&self) -> BySide<u32> {
        self.starting
    }

    /// Figures each side has lost: killed, wounded, captured, or gone off the table.
    #[must_use]
    pub fn losses(&self) -> BySide<u32> {
        let lost = |s: Side| {
            self.battle
                .units()
                .iter()
                .filter(|u| u.side() == s)
                .map(|u| u32::from(u.starting_strength() - u.strength()))
                .sum()
        };
        BySide::new(lost(Side::Union), lost(Side::Confederate))
    }

    /// Figures a side has in good order: in units on the table that are neither shaken nor routed.
    #[must_use]
    pub fn in_good_order(&self, side: Side) -> u32 {
        self.battle
            .units()
            .iter()
            .filter(|u| u.side() == side && good_order(u))
            .map(|u| u32::from(u.strength()))
            .sum()
    }

    /// The charge whose melee waits for the sides' choices.
    fn melee_due(&self) -> Option<crate::battle::Charge> {
        if self.battle.phase() != Phase::CloseCombat {
            return None;
        }
        self.battle
            .charges()
            .iter()
            .find(|c| c.step() != ChargeStep::Done)
            .filter(|c| c.step() == ChargeStep::AwaitMelee)
            .copied()
    }

    /// The unit whose rally its owner must decide on, in unit order.
    fn rally_due(&self) -> Option<UnitId> {
        if self.battle.phase() != Phase::Morale {
            return None;
        }
        let checks = self.battle.checks_due();
        if checks.iter().any(|c| !matches!(c, CheckDue::Rally(_))) {
            return None;
        }
        checks.into_iter().find_map(|c| match c {
            CheckDue::Rally(u) if !self.declined.contains(&u) => Some(u),
            _ => None,
        })
    }

    fn name(&self, id: UnitId) -> String {
        self.battle
            .unit(id)
            .map_or_else(|_| format!("unit {}", id.0), |u| u.name().to_string())
    }

    /// The decision owed now, if any.
    fn decision(&self) -> Option<Decision<Question>> {
        if self.over.is_some() {
            return None;
        }
        let b = &self.battle;
        if let Some(a) = &self.open {
            let unit = b.unit(a.unit()).ok()?;
            return Some(Decision {
                side: unit.side(),
                question: Question::Continue {
                    side: unit.side(),
                    unit: unit.name().to_string(),
                    open: self.open_text(a),
                },
            });
        }
        if let Some(c) = self.melee_due() {
            let (a, t) = (c.attacker(), c.target());
            let side_of = |id: UnitId| b.unit(id).map(Unit::side).ok();
            return match self.pairing {
                None => Some(Decision {
                    side: side_of(t)?,
                    question: Question::Pair {
                        defender: self.name(t),
                        attacker: self.name(a),
                    },
                }),
                Some(_) => Some(Decision {
                    side: side_of(a)?,
                    question: Question::Fight {
                        attacker: self.name(a),
                        defender: self.name(t),
                    },
                }),
            };
        }
        if let Some(u) = self.rally_due() {
            let unit = b.unit(u).ok()?;
            return Some(Decision {
                side: unit.side(),
                question: Question::Rally {
                    unit: unit.name().to_string(),
                    morale: unit.morale(),
                },
            });
        }
        let side = b.card()?;
        let compulsory = (b.phase() == Phase::Movement)
            .then(|| {
                b.units().iter().find(|u| {
                    u.side() == side
                        && u.compulsory().is_some()
                        && !u.acted()
                        && !u.off_table()
                        && u.strength() > 0
                })
            })
            .flatten()
            .map(|u| u.name().to_string());
        Some(Decision {
            side,
            question: Question::Activate {
                side,
                phase: b.phase(),
                turn: b.turn(),
                compulsory,
            },
        })
    }

    /// The game's end, if it has come (the scenario's victory terms over the rules' own end).
    fn end(&self) -> Option<Outcome> {
        let turn = self.battle.turn();
        if let Some(GameEnd::SideBroken(s)) = self.battle.game_over() {
            let other = s.enemy();
            let result = if self.battle.game_over() == Some(GameEnd::SideBroken(other))
                || self.in_good_order(other) == 0
            {
                GameResult::Draw
            } else {
                GameResult::Winner(other)
            };
            let reason = if self
                .battle
                .units()
                .iter()
                .any(|u| u.side() == s && !u.off_table() && u.strength() > 0)
            {
                EndReason::ArmyBroken
            } else {
                EndReason::Annihilation
            };
            return Some(Outcome {
                result,
                reason,
                turn,
            });
        }
        let pct = u32::from(self.victory.break_percent);
        let broken =
            |s: Side| pct > 0 && 100 * self.in_good_order(s) <= pct * *self.starting.get(s);
        match (broken(Side::Union), broken(Side::Confederate)) {
            (true, true) => {
                return Some(Outcome {
                    result: GameResult::Draw,
                    reason: EndReason::Scenario,
                    turn,
                });
            }
            (true, false) | (false, true) => {
                let loser = if broken(Side::Union) {
                    Side::Union
                } else {
                    Side::Confederate
                };
                return Some(Outcome {
                    result: GameResult::Winner(loser.enemy()),
                    reason: EndReason::Scenario,
                    turn,
                });
            }
            _ => {}
        }
        if self.battle.game_over() == Some(GameEnd::TurnLimit) {
            let lost = self.losses();
            // the smaller share of its figures lost wins: compare lost/start across sides
            let u = u64::from(lost.union) * u64::from(self.starting.confederate);
            let c = u64::from(lost.confederate) * u64::from(self.starting.union);
            let result = match u.cmp(&c) {
                std::cmp::Ordering::Less => GameResult::Winner(Side::Union),
                std::cmp::Ordering::Greater => GameResult::Winner(Side::Confederate),
                std::cmp::Ordering::Equal => GameResult::Draw,
            };
            return Some(Outcome {
                result,
                reason: EndReason::TurnLimit,
                turn: turn.saturating_sub(1).max(1),
            });
        }
        None
    }

    fn unit_checked(&self, id: UnitId) -> Result<&Unit, GameError> {
        self.battle
            .unit(id)
            .map_err(|_| GameError::NoSuchUnit(id.0))
    }

    fn enemy_of(&self, side: Side, id: UnitId) -> Result<&Unit, GameError> {
        let t = self.unit_checked(id)?;
        // a hidden enemy is refused as a unit that does not exist, so no order can find it out (TSATF-OPT-04)
        if t.side() != side && t.hidden() {
            return Err(GameError::NoSuchUnit(id.0));
        }
        if t.side() == side || t.off_table() || t.strength() == 0 {
            return Err(GameError::NotEnemy(t.name().to_string()));
        }
        Ok(t)
    }

    /// Whether the rules accept an order now, without applying it: the same code as the game's own apply,
    /// stopped at its first die (a die asked for means every check before it passed).
    pub fn check_order(&self, order: &Order) -> Result<(), GameError> {
        let mut copy = self.clone();
        let mut dry = ScriptedDice::new([]);
        let mut log = Vec::new();
        let d = self.decision().ok_or(GameError::Over)?;
        // what follows the order (the next card, close combat, morale) refuses nothing the order did
        match copy.order(order, &d, &mut dry, &mut log) {
            Ok(()) => Ok(()),
            // the order passed every check before its first die
            Err(_) if dry.fault().is_some() => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Every order the side owing the decision may give now, among advances, withdrawals, charges, fire at
    /// every enemy, holds, compulsory moves, melee and rally choices: each checked by [`State::check_order`].
    #[must_use]
    pub fn actions(&self) -> Vec<Order> {
        let Some(d) = self.decision() else {
            return Vec::new();
        };
        let mut v = Vec::new();
        match d.question {
            Question::Pair { .. } => {
                v.extend([true, false].map(|c| Order::Pair { cadre_first: c }));
            }
            Question::Fight { .. } => {
                for c in [true, false] {
                    for p in [true, false] {
                        v.push(Order::Fight {
                            cadre_first: c,
                            pursue: p,
                        });
                    }
                }
            }
            Question::Rally { .. } => {
                if let Some(u) = self.rally_due() {
                    v.extend([true, false].map(|a| Order::Rally {
                        unit: u,
                        attempt: a,
                    }));
                }
            }
            Question::Continue { side, .. } => self.continuations(side, &mut v),
            Question::Activate { side, .. } => {
                let units = self.battle.units();
                let split = self.battle.options().split_cavalry_dice.is_some();
                for u in units.iter().filter(|u| u.side() == side) {
                    let unit = u.id();
                    if split && u.kind() == crate::state::UnitKind::Cavalry {
                        v.push(Order::Split { unit });
                    }
                    if self.may_pool(unit) {
                        for e in units.iter().filter(|e| e.side() != side) {
                            v.push(Order::Pool {
                                unit,
                                target: e.id(),
                            });
                        }
                    }
                    v.push(Order::Compulsory { unit });
                    v.push(Order::Hold { unit });
                    v.push(Order::Dismantle { unit });
                    for carriers in 0..=u.wounded() {
                        v.push(Order::Carry { unit, carriers });
                    }
                    v.push(Order::Withdraw { unit });
                    for formation in [
                        Formation::CloseOrderLine,
                        Formation::MarchColumn,
                        Formation::AssaultColumn,
                        Formation::SkirmishLine,
                    ] {
                        v.push(Order::Form { unit, formation });
                    }
                    for flag in [true, false] {
                        v.push(Order::Mount { unit, mount: flag });
                        v.push(Order::Limber { unit, limber: flag });
                    }
                    for e in units.iter().filter(|e| e.side() != side) {
                        let t = e.id();
                        v.push(Order::Advance { unit, toward: t });
                        if u.scouts {
                            v.push(Order::Scout { unit, toward: t });
                        }
                        v.push(Order::Charge { unit, target: t });
                        v.push(Order::Fire { unit, target: t });
                    }
                }
            }
        }
        v.retain(|o| self.check_order(o).is_ok());
        v
    }

    /// The orders that may continue or close the open activation, before checking.
    fn continuations(&self, side: Side, v: &mut Vec<Order>) {
        let Some(a) = &self.open else {
            return;
        };
        let unit = a.unit();
        v.push(Order::Finish { unit });
        let units = self.battle.units();
        let enemies = || units.iter().filter(|e| e.side() != side).map(Unit::id);
        match a {
            Activation::Pool { target, .. } => {
                for u in units.iter().filter(|u| u.side() == side && !u.acted()) {
                    v.push(Order::Pool {
                        unit: u.id(),
                        target: *target,
                    });
                }
            }
            Activation::Shots { .. } => {
                for (k, w) in self.shooters(unit) {
                    for t in self.shot_targets(unit, w) {
                        let n = self.battle.unit(t).map_or(0, |t| t.figures().len());
                        for aim in 0..n {
                            v.push(Order::Shoot {
                                unit,
                                figure: k as u16,
                                target: t,
                                aim: aim as u16,
                            });
                        }
                    }
                }
            }
            Activation::Split { dice, .. } => {
                for t in enemies() {
                    for die in 0..dice.len() {
                        v.push(Order::Ride {
                            unit,
                            toward: t,
                            die: die as u8,
                        });
                    }
                    v.push(Order::Fire { unit, target: t });
                }
                v.extend([true, false].map(|mount| Order::Mount { unit, mount }));
            }
        }
    }

    // ----- applying -----

    /// Applies one order and then everything the rules do before the next decision.
    fn step(
        &mut self,
        order: &Order,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let d = self.decision().ok_or(GameError::Over)?;
        self.order(order, &d, dice, log)?;
        self.reveal(log)?;
        self.settle(dice, log)
    }

    /// Hidden units with enemy troops now within 4" of them are revealed (TSATF-OPT-04).
    fn reveal(&mut self, log: &mut Vec<Event>) -> Result<(), GameError> {
        let hidden: Vec<(UnitId, Side)> = self
            .battle
            .units()
            .iter()
            .filter(|u| u.hidden() && !u.off_table() && u.strength() > 0)
            .map(|u| (u.id(), u.side()))
            .collect();
        for (id, side) in hidden {
            let nearest = self
                .battle
                .units()
                .iter()
                .filter(|e| e.side() != side && !e.off_table() && e.strength() > 0)
                .map(|e| self.field.range(id, e.id()))
                .fold(f64::INFINITY, f64::min);
            if nearest.is_finite() && self.battle.reveal_if_near(id, nearest)? {
                log.push(Event::Revealed {
                    unit: self.name(id),
                    distance: nearest,
                });
            }
        }
        Ok(())
    }

    fn order(
        &mut self,
        order: &Order,
        d: &Decision<Question>,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let side = d.side;
        let not_asked = || GameError::NotAsked(d.question.to_string());
        let own = |s: &State, id: UnitId| -> Result<(), GameError> {
            let u = s.unit_checked(id)?;
            if u.side() == side {
                Ok(())
            } else {
                Err(GameError::NotYours(u.name().to_string()))
            }
        };
        match (*order, &d.question) {
            (Order::Pair { cadre_first }, Question::Pair { defender, .. }) => {
                self.pairing = Some(cadre_first);
                log.push(Event::Paired {
                    unit: defender.clone(),
                    cadre_first,
                });
                Ok(())
            }
            (
                Order::Fight {
                    cadre_first,
                    pursue,
                },
                Question::Fight { .. },
            ) => self.fight(cadre_first, pursue, dice, log),
            (Order::Rally { unit, attempt }, Question::Rally { .. }) => {
                if self.rally_due() != Some(unit) {
                    return Err(not_asked());
                }
                if attempt {
                    self.rally(unit, dice, log)
                } else {
                    self.declined.push(unit);
                    log.push(Event::RallyDeclined {
                        unit: self.name(unit),
                    });
                    Ok(())
                }
            }
            (Order::Hold { unit }, Question::Activate { phase, .. }) => {
                own(self, unit)?;
                self.battle.hold(unit)?;
                log.push(Event::Held {
                    unit: self.name(unit),
                    phase: *phase,
                });
                Ok(())
            }
            (Order::Carry { unit, carriers }, Question::Activate { phase, .. }) => {
                own(self, unit)?;
                let u = self.unit_checked(unit)?;
                let now = u.figures().iter().filter(|f| f.carrying()).count();
                if *phase != Phase::Movement || u.acted() || now == usize::from(carriers) {
                    return Err(GameError::NotNow(u.name().to_string()));
                }
                self.battle.carry_wounded(unit, carriers)?;
                log.push(Event::Carrying {
                    unit: self.name(unit),
                    carriers,
                });
                Ok(())
            }
            (Order::Dismantle { unit }, Question::Activate { .. }) => {
                own(self, unit)?;
                let name = self.name(unit);
                let k = self
                    .field
                    .obstacle_in_contact(unit)
                    .ok_or_else(|| GameError::NoObstacle(name.clone()))?;
                self.battle.dismantle(unit)?;
                let obstacle = self
                    .field
                    .dismantle(k)
                    .map(|t| t.name().to_string())
                    .ok_or_else(|| GameError::NoObstacle(name.clone()))?;
                log.push(Event::Dismantled {
                    unit: name,
                    obstacle,
                });
                Ok(())
            }
            (Order::Compulsory { unit }, Question::Activate { .. }) => {
                own(self, unit)?;
                self.compulsory(unit, dice, log)
            }
            (Order::Advance { unit, toward }, Question::Activate { .. }) => {
                own(self, unit)?;
                self.enemy_of(side, toward)?;
                let target = self.field.place(toward).map(|f| f.centre);
                let room = self.field.range(unit, toward) - MOVE_GAP;
                self.advance(unit, (target, room), self.name(toward), false, dice, log)
            }
            (Order::Scout { unit, toward }, Question::Activate { .. }) => {
                own(self, unit)?;
                self.enemy_of(side, toward)?;
                let target = self.field.place(toward).map(|f| f.centre);
                let room = self.field.range(unit, toward) - MOVE_GAP;
                self.advance(unit, (target, room), self.name(toward), true, dice, log)
            }
            (Order::Withdraw { unit }, Question::Activate { .. }) => {
                own(self, unit)?;
                let here = self.field.place(unit).map(|f| f.centre);
                let edge = here.map(|c| match side {
                    Side::Union => Point::new(c.x, 0.0),
                    Side::Confederate => Point::new(c.x, self.field.table().depth().0),
                });
                let room = here.zip(edge).map_or(0.0, |(h, e)| h.distance(e).0);
                let to = format!("the {side} base edge");
                self.advance(unit, (edge, room), to, false, dice, log)
            }
            (Order::Form { unit, formation }, Question::Activate { .. }) => {
                own(self, unit)?;
                self.form(unit, formation, dice, log)
            }
            (Order::Mount { unit, mount }, Question::Activate { .. }) => {
                own(self, unit)?;
                self.change_state(unit, Some(mount), None, dice, log)
            }
            (Order::Limber { unit, limber }, Question::Activate { .. }) => {
                own(self, unit)?;
                self.change_state(unit, None, Some(limber), dice, log)
            }
            (Order::Charge { unit, target }, Question::Activate { .. }) => {
                own(self, unit)?;
                self.enemy_of(side, target)?;
                self.charge(unit, target, dice, log)
            }
            (Order::Fire { unit, target }, Question::Activate { phase, .. }) => {
                own(self, unit)?;
                self.enemy_of(side, target)?;
                if *phase != Phase::Firing {
                    return Err(RuleViolation::WrongPhase {
                        action: "fire",
                        needed: Phase::Firing,
                        now: *phase,
                    }
                    .into());
                }
                self.fire_with(unit, target, Vec::new(), dice, log)
            }
            (Order::Pool { unit, target }, Question::Activate { .. }) => {
                own(self, unit)?;
                self.enemy_of(side, target)?;
                self.start_pool(unit, target, log)
            }
            (Order::Split { unit }, Question::Activate { .. }) => {
                own(self, unit)?;
                self.split(unit, dice, log)
            }
            (Order::Pool { unit, target }, Question::Continue { .. }) => {
                own(self, unit)?;
                self.enemy_of(side, target)?;
                self.join_pool(unit, target, log)
            }
            (
                Order::Shoot {
                    unit,
                    figure,
                    target,
                    aim,
                },
                Question::Continue { .. },
            ) => {
                own(self, unit)?;
                self.shoot((unit, figure), (target, aim), dice, log)
            }
            (Order::Ride { unit, toward, die }, Question::Continue { .. }) => {
                own(self, unit)?;
                self.ride(unit, toward, die, log)
            }
            (Order::Mount { unit, mount }, Question::Continue { .. }) => {
                own(self, unit)?;
                self.split_mount(unit, mount, log)
            }
            (Order::Fire { unit, target }, Question::Continue { .. }) => {
                own(self, unit)?;
                self.enemy_of(side, target)?;
                self.split_fire(unit, target, dice, log)
            }
            (Order::Finish { unit }, Question::Continue { .. }) => {
                own(self, unit)?;
                self.finish(unit, dice, log)
            }
            _ => Err(not_asked()),
        }
    }

    fn compulsory(
        &mut self,
        unit: UnitId,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let u = self.unit_checked(unit)?;
        let kind = u
            .compulsory()
            .ok_or_else(|| RuleViolation::NoCompulsoryMove(u.name().to_string()))?;
        let heading = self
            .field
            .flight_heading(unit, u.side(), self.battle.flight_edge());
        let room = self.field.edge_room(unit, heading);
        dice.about(format_args!("the compulsory move of {} ({kind})", u.name()));
        let inches = self.battle.compulsory_move_within(unit, room, dice)?;
        let off_table = self.unit_checked(unit)?.off_table();
        if !off_table && inches > 0 {
            self.field
                .shift(unit, heading, f64::from(inches), 0.0, heading);
        }
        log.push(Event::Compulsory {
            unit: self.name(unit),
            kind,
            inches,
            off_table,
        });
        Ok(())
    }

    fn advance(
        &mut self,
        unit: UnitId,
        (target, room): (Option<Point>, f64),
        toward: String,
        scout: bool,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let name = self.name(unit);
        // the scouts look for every hidden enemy, measured from where they set out (TSATF-OPT-04)
        let scout_for: Vec<(UnitId, f64)> = if scout {
            let side = self.unit_checked(unit)?.side();
            if !self.unit_checked(unit)?.scouts {
                return Err(RuleViolation::Cannot {
                    unit: name,
                    action: "scout: it is not trained for it",
                }
                .into());
            }
            self.battle
                .units()
                .iter()
                .filter(|e| e.side() != side && e.hidden() && !e.off_table())
                .map(|e| (e.id(), self.field.range(unit, e.id())))
                .filter(|&(_, d)| d.is_finite())
                .collect()
        } else {
            Vec::new()
        };
        let (Some(place), Some(target)) = (self.field.place(unit).copied(), target) else {
            return Err(GameError::NoSuchUnit(unit.0));
        };
        let heading = place.centre.heading_to(target);
        let goal = place.centre.moved(heading, Inches(room.max(0.0)));
        let rough = self.field.rough_features(place.centre, target);
        let facts = crate::movement::MoveFacts {
            rough_features: rough,
            ..Default::default()
        };
        // the road rate only when the whole move keeps to the road and the unit's row has one (TSATF-MOV-04)
        let road = self.field.on_road(place.centre, goal)
            && self.unit_checked(unit)?.move_row().is_some_and(|row| {
                crate::movement::move_dice(row, MoveMode::Road, facts, false, self.battle.options())
                    .is_ok()
            });
        let order = MoveOrder {
            mode: Some(if road {
                MoveMode::Road
            } else {
                MoveMode::CrossCountry
            }),
            facts,
            scout_for,
            ..MoveOrder::default()
        };
        dice.about(format_args!("the move of {name} toward {toward}"));
        let report = self.battle.move_unit(unit, &order, dice)?;
        let want = room.min(report.allowance);
        let moved = if report.leaderless_halt || want <= 0.0 {
            0.0
        } else {
            self.field.shift(unit, heading, want, SPACING, heading)
        };
        log.push(Event::Moved {
            toward,
            report,
            rough,
            road,
            moved,
        });
        Ok(())
    }

    fn form(
        &mut self,
        unit: UnitId,
        formation: Formation,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let u = self.unit_checked(unit)?;
        if u.formation() == formation {
            return Err(RuleViolation::Cannot {
                unit: u.name().to_string(),
                action: "change into the formation it is already in",
            }
            .into());
        }
        let (old, new) = (
            crate::field::frontage(u),
            crate::field::frontage_in(formation, u.strength()),
        );
        if !self.field.fits(unit, new) {
            return Err(GameError::NoRoom(u.name().to_string()));
        }
        // the figure moving furthest is at the end of the wider front: half the change of frontage
        let cost = (old - new).abs() / 2.0;
        let order = MoveOrder {
            mode: None,
            formation: Some((formation, cost)),
            ..MoveOrder::default()
        };
        let name = u.name().to_string();
        dice.about(format_args!("the formation change of {name}"));
        let report = match self.battle.move_unit(unit, &order, dice) {
            // the roll could not pay for the change: it is not finished, and the card is spent
            Err(RuleViolation::ChangeTooLong { needed, allowed }) if dice.fault().is_none() => {
                self.battle.hold(unit)?;
                log.push(Event::FormationUnfinished {
                    unit: name,
                    formation,
                    needed,
                    rolled: allowed,
                });
                return Ok(());
            }
            other => other?,
        };
        if let Ok(u) = self.battle.unit(unit) {
            let u = u.clone();
            self.field.refit(&u);
        }
        log.push(Event::Formed {
            formation,
            cost,
            report,
        });
        Ok(())
    }

    /// Mounts or dismounts cavalry, or limbers or unlimbers a gun, where it stands (TSATF-MOV-08).
    fn change_state(
        &mut self,
        unit: UnitId,
        mount: Option<bool>,
        limber: Option<bool>,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let u = self.unit_checked(unit)?;
        let name = u.name().to_string();
        let order = MoveOrder {
            mode: None,
            mount,
            limber,
            ..MoveOrder::default()
        };
        let change = match (mount, limber) {
            (Some(true), _) => StateChange::Mounted,
            (Some(false), _) => StateChange::Dismounted,
            (_, Some(true)) => StateChange::Limbered,
            _ => StateChange::Unlimbered,
        };
        // the new footprint must find room where the unit stands
        let after = match change {
            StateChange::Mounted | StateChange::Dismounted => {
                crate::field::frontage_in(u.formation(), u.strength())
            }
            StateChange::Limbered => crate::field::frontage_in(Formation::Limbered, u.strength()),
            StateChange::Unlimbered => {
                crate::field::frontage_in(Formation::Unlimbered, u.strength())
            }
        };
        if !self.field.fits(unit, after) {
            return Err(GameError::NoRoom(name));
        }
        dice.about(format_args!("{name}, {change} where it stands"));
        let report = self.battle.move_unit(unit, &order, dice)?;
        if let Ok(u) = self.battle.unit(unit) {
            let u = u.clone();
            self.field.refit(&u);
        }
        log.push(Event::StateChanged { change, report });
        Ok(())
    }

    fn charge(
        &mut self,
        unit: UnitId,
        target: UnitId,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let start = self
            .field
            .place(unit)
            .copied()
            .ok_or(GameError::NoSuchUnit(unit.0))?;
        let aim = self
            .field
            .place(target)
            .copied()
            .ok_or(GameError::NoSuchUnit(target.0))?;
        let distance = self.field.range(unit, target);
        let rough = self.field.rough_features(start.front_centre(), aim.centre);
        let flank = self
            .field
            .outside_front(unit, target, self.battle.options());
        let order = ChargeOrder {
            target,
            distance,
            rough_features: rough,
            flank_or_rear: flank,
            protected: self.field.protected(unit, target),
        };
        dice.about(format_args!(
            "the charge of {} on {}",
            self.name(unit),
            self.name(target)
        ));
        let report = self.battle.charge(unit, &order, dice)?;
        let heading = start.centre.heading_to(aim.centre);
        match report {
            ChargeReport::Contact { charge, .. } => {
                self.charge_starts.push((charge, start));
                self.field.close_with(unit, target);
            }
            ChargeReport::Short { rolled, .. } | ChargeReport::Approached { rolled, .. } => {
                let go = f64::from(rolled).min((distance - CONTACT_DISTANCE).max(0.0));
                self.field.shift(unit, heading, go, SPACING, heading);
            }
            ChargeReport::Halted { .. } | ChargeReport::LeaderlessHalt => {}
        }
        log.push(Event::Charged {
            unit: self.name(unit),
            target: self.name(target),
            distance,
            rough,
            flank,
            report,
        });
        Ok(())
    }

    /// What a unit's fire at a target is measured as on the table: range, target area and canister; refused
    /// outside the cone or out of sight (TSATF-FIR-03, TSATF-FIR-04, TSATF-FIR-06).
    fn fire_terms(
        &self,
        unit: UnitId,
        target: UnitId,
    ) -> Result<(f64, crate::fire::TargetArea, bool), GameError> {
        let u = self.unit_checked(unit)?;
        let t = self.unit_checked(target)?;
        let gun = u.kind().is_gun();
        let options = self.battle.options();
        if !self.field.in_cone(unit, target, gun, options) {
            return Err(GameError::OutOfCone {
                unit: u.name().to_string(),
                target: t.name().to_string(),
            });
        }
        if !self.field.line_of_sight(unit, target) {
            return Err(GameError::NoSight {
                unit: u.name().to_string(),
                target: t.name().to_string(),
            });
        }
        let range = self.field.range(unit, target);
        let area = self.field.target_area(unit, t, options);
        Ok((range, area, gun && range <= 24.0))
    }

    /// A unit's fire, with any units pooled with it, and then its officers' and snipers' single shots held
    /// open on its card while any is possible (TSATF-FIR-10, TSATF-FIR-11, TSATF-FIR-13).
    fn fire_with(
        &mut self,
        unit: UnitId,
        target: UnitId,
        with: Vec<UnitId>,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let (range, area, canister) = self.fire_terms(unit, target)?;
        let order = FireOrder {
            target,
            range,
            in_reach: None,
            area,
            canister,
            with,
            hit_order: Vec::new(),
        };
        dice.about(format_args!(
            "the fire of {} at {}",
            self.name(unit),
            self.name(target)
        ));
        let report = self.battle.fire(unit, &order, dice)?;
        let o = self.battle.options();
        let chance = (o.fire_system == FireSystem::MassFire).then(|| {
            MassFire {
                row: report.row,
                class: report.class,
                figures: report.figures,
                remainder: o.remainder,
                green_class3_pattern: o.green_class3_pattern,
            }
            .odds()
            .p(&report.hits)
        });
        if let Ok(t) = self.battle.unit(target) {
            let t = t.clone();
            self.field.refit(&t);
        }
        log.push(Event::Fired {
            report,
            range,
            enfilade: area.enfiladed,
            chance,
        });
        if self.battle.phase() == Phase::Firing {
            self.open_shots(unit);
        }
        Ok(())
    }

    fn close_test(&self, id: UnitId, what: &str) -> Result<(CloseTest, TestResult), GameError> {
        let u = self.unit_checked(id)?;
        let leader = self.battle.with_leader(id)?;
        let modifier = self.battle.test_modifier(id)?;
        let test = CloseTest::new(u.quality(), leader, modifier, self.battle.options());
        Ok((
            test,
            TestResult {
                who: u.name().to_string(),
                test: what.to_string(),
                leader,
                modifier,
                passed: false,
                chance: 0.0,
            },
        ))
    }

    fn fight(
        &mut self,
        cadre_first: bool,
        pursue: bool,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let c = self
            .melee_due()
            .ok_or(GameError::NotAsked("no melee waits".into()))?;
        let order = MeleeOrder {
            attacker_cadre_first: cadre_first,
            defender_cadre_first: self.pairing.unwrap_or(true),
            pursue,
            non_fighters_contacted: false,
            obstacle_room: self.field.obstacle_room(c.attacker(), c.target()),
        };
        dice.about(format_args!(
            "the melee of {} and {}",
            self.name(c.attacker()),
            self.name(c.target())
        ));
        let report = self.battle.melee(c.id(), &order, dice)?;
        self.pairing = None;
        let attackers_won = report.party == crate::melee::Party::Attackers;
        let (w, l) = if attackers_won {
            (c.attacker(), c.target())
        } else {
            (c.target(), c.attacker())
        };
        // the losers' survivors go 4D6 toward the table edge (TSATF-MEL-22)
        if let Some(d) = report.flight
            && let Ok(loser) = self.battle.unit(l)
            && loser.strength() > 0
        {
            let heading = self
                .field
                .flight_heading(l, loser.side(), self.battle.flight_edge());
            self.field.shift(l, heading, f64::from(d), 0.0, heading);
        }
        // victorious attackers who pursue spend their unused charge movement after them (TSATF-MEL-21)
        if attackers_won
            && pursue
            && let (Some(wf), Some(lf)) =
                (self.field.place(w).copied(), self.field.place(l).copied())
        {
            let go = c.unused().min(self.field.range(w, l));
            if go > 0.0 {
                let toward = wf.centre.heading_to(lf.centre);
                self.field.shift(w, toward, go, SPACING, toward);
            }
        }
        for id in [w, l] {
            if let Ok(u) = self.battle.unit(id) {
                let u = u.clone();
                self.field.refit(&u);
            }
        }
        log.push(Event::Melee { report });
        Ok(())
    }

    fn rally(
        &mut self,
        unit: UnitId,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let u = self.unit_checked(unit)?;
        let routed = u.morale() == MoraleState::Routed;
        let (close, mut res) = self.close_test(unit, "a rally test")?;
        let chance = if routed && self.battle.options().rally_routed == RallyRouted::Critical2D6 {
            MoraleTest::critical(u.quality(), res.leader, res.modifier)
                .odds()
                .p(&true)
        } else {
            close.odds().p(&true)
        };
        dice.about(format_args!("the rally test of {}", u.name()));
        let passed = self.battle.rally(unit, dice)?;
        res.passed = passed;
        res.chance = if passed { chance } else { 1.0 - chance };
        log.push(Event::Morale(res));
        Ok(())
    }

    /// Runs the rules from here to the next decision: shuffles, cards, close-combat tests, morale checks,
    /// phase ends, and the end of the game.
    fn settle(&mut self, dice: &mut dyn Dice, log: &mut Vec<Event>) -> Result<(), GameError> {
        loop {
            if self.over.is_some() {
                return Ok(());
            }
            if let Some(outcome) = self.end() {
                self.over = Some(outcome);
                self.open = None;
                log.push(Event::GameEnded { outcome });
                return Ok(());
            }
            // a card held open waits for its side's next decision
            if self.open.is_some() {
                return Ok(());
            }
            match self.battle.phase() {
                Phase::Movement | Phase::Firing => {
                    if self.battle.card().is_some() {
                        return Ok(());
                    }
                    let phase = self.battle.phase();
                    if self.battle.sequencing_deck().is_none() {
                        dice.about(format_args!("shuffling the {phase} deck"));
                        let cards = self.battle.begin_phase(dice)?;
                        log.push(Event::Shuffled { phase, cards });
                        continue;
                    }
                    let waiting = self
                        .battle
                        .units()
                        .iter()
                        .any(|u| !u.acted() && !u.off_table() && u.strength() > 0);
                    if !waiting {
                        self.next_phase(log)?;
                        continue;
                    }
                    let before: Vec<Card> = self
                        .battle
                        .sequencing_deck()
                        .map(|d| d.pile().to_vec())
                        .unwrap_or_default();
                    dice.about(format_args!("the next {phase} card"));
                    let (side, cards) = self.battle.turn_card_showing(dice)?;
                    let chance = colours_chance(&before, &cards);
                    log.push(Event::CardTurned {
                        cards,
                        side,
                        chance,
                    });
                    return Ok(());
                }
                Phase::CloseCombat => {
                    let Some(c) = self
                        .battle
                        .charges()
                        .iter()
                        .find(|c| c.step() != ChargeStep::Done)
                        .copied()
                    else {
                        self.next_phase(log)?;
                        continue;
                    };
                    match c.step() {
                        ChargeStep::Contact => self.close_in(c, dice, log)?,
                        ChargeStep::AwaitStand => self.stand(c, dice, log)?,
                        _ => return Ok(()),
                    }
                }
                Phase::Morale => {
                    let checks = self.battle.checks_due();
                    if let Some(check) = checks.iter().find(|c| !matches!(c, CheckDue::Rally(_))) {
                        self.morale_check(*check, dice, log)?;
                        continue;
                    }
                    if self.rally_due().is_some() {
                        return Ok(());
                    }
                    self.next_phase(log)?;
                }
            }
        }
    }

    fn next_phase(&mut self, log: &mut Vec<Event>) -> Result<(), GameError> {
        let phase = self.battle.advance()?;
        if phase == Phase::Movement {
            self.declined.clear();
            self.charge_starts.clear();
            self.pairing = None;
        }
        if self.battle.game_over().is_none() {
            log.push(Event::PhaseBegan {
                turn: self.battle.turn(),
                phase,
            });
        }
        Ok(())
    }

    fn close_in(
        &mut self,
        c: crate::battle::Charge,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let (a, t) = (c.attacker(), c.target());
        let in_play = self
            .battle
            .unit(t)
            .is_ok_and(|u| !u.off_table() && u.strength() > 0);
        let reach = in_play && self.field.range(a, t) <= CONTACT_DISTANCE + c.unused() + 1e-6;
        let test = self.close_test(a, "the close-to-combat test")?;
        dice.about(format_args!(
            "the close-combat step of {} against {}",
            self.name(a),
            self.name(t)
        ));
        let report = self.battle.close_in(c.id(), reach, dice)?;
        let tested = matches!(report, CloseReport::Closed | CloseReport::FailedToClose);
        let test = tested.then(|| {
            let (close, mut r) = test;
            let p = close.odds().p(&true);
            r.passed = report == CloseReport::Closed;
            r.chance = if r.passed { p } else { 1.0 - p };
            r
        });
        match report {
            CloseReport::FailedToClose => {
                if let (Some(af), Some(tf)) =
                    (self.field.place(a).copied(), self.field.place(t).copied())
                {
                    let back = tf.centre.heading_to(af.centre);
                    self.field.shift(a, back, 6.0, 0.0, af.facing);
                }
            }
            CloseReport::Halted => {
                if let Some((_, f)) = self.charge_starts.iter().find(|(id, _)| *id == c.id()) {
                    let f = *f;
                    self.field.set(a, f);
                }
            }
            CloseReport::Closed | CloseReport::RoutedTarget => self.field.close_with(a, t),
            // the chargers already stand where the target stood when they reached it (TSATF-SEQ-06)
            CloseReport::Occupied | CloseReport::StayedPut => {}
        }
        log.push(Event::Closed {
            attacker: self.name(a),
            defender: self.name(t),
            report,
            test,
        });
        Ok(())
    }

    fn stand(
        &mut self,
        c: crate::battle::Charge,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let (a, t) = (c.attacker(), c.target());
        let (close, mut res) = self.close_test(t, "the stand-and-fight test")?;
        dice.about(format_args!("the stand-and-fight test of {}", self.name(t)));
        let report = self.battle.stand(c.id(), dice)?;
        let p = close.odds().p(&true);
        res.passed = report == StandReport::Stood;
        res.chance = if res.passed { p } else { 1.0 - p };
        if let StandReport::Fled { flight } | StandReport::Caught { flight, .. } = report
            && let (Some(af), Some(tf)) =
                (self.field.place(a).copied(), self.field.place(t).copied())
        {
            let away = af.centre.heading_to(tf.centre);
            self.field.shift(t, away, f64::from(flight), 0.0, away);
            if matches!(report, StandReport::Caught { .. }) {
                self.field.close_with(a, t);
            }
        }
        log.push(Event::Stand {
            defender: self.name(t),
            report,
            test: res,
        });
        Ok(())
    }

    fn morale_check(
        &mut self,
        check: CheckDue,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let res = match check {
            CheckDue::Major(side) => {
                let classes: Vec<Quality> = self
                    .battle
                    .units()
                    .iter()
                    .filter(|u| u.side() == side && !u.off_table() && u.strength() > 0)
                    .map(Unit::quality)
                    .collect();
                let q = crate::morale::major_class(&classes, self.battle.options());
                dice.about(format_args!("the {side} side's Major Morale"));
                let passed = self.battle.major_morale(side, dice)?;
                let chance = q.map(|q| MoraleTest::major(q, 0).odds().p(&true));
                TestResult {
                    who: format!("The {side} side"),
                    test: "Major Morale".into(),
                    leader: false,
                    modifier: 0,
                    passed,
                    chance: chance.map_or(1.0, |p| if passed { p } else { 1.0 - p }),
                }
            }
            CheckDue::Critical(id) | CheckDue::Pinned(id) => {
                let u = self.unit_checked(id)?;
                let leader = self.battle.with_leader(id)?;
                let modifier = self.battle.test_modifier(id)?;
                let p = MoraleTest::critical(u.quality(), leader, modifier)
                    .odds()
                    .p(&true);
                let name = u.name().to_string();
                dice.about(format_args!("the {check} of {name}"));
                let passed = if matches!(check, CheckDue::Critical(_)) {
                    self.battle.critical_morale(id, dice)?
                } else {
                    self.battle.pinned_morale(id, dice)?
                };
                TestResult {
                    who: name,
                    test: check.to_string(),
                    leader,
                    modifier,
                    passed,
                    chance: if passed { p } else { 1.0 - p },
                }
            }
            CheckDue::Rally(_) => return Ok(()),
        };
        log.push(Event::Morale(res));
        Ok(())
    }
}

// ----- the ruleset -----

/// "Strike for Your God and Country" behind acw-core's [`Ruleset`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tsatf;

impl Ruleset for Tsatf {
    type Scenario = Scenario;
    type State = State;
    type Order = Order;
    type Event = Event;
    type Question = Question;
    type SetupError = ScenarioError;
    type RuleError = GameError;

    fn setup(&self, scenario: &Scenario, seed: u64) -> Result<State, ScenarioError> {
        let battle = Battle::new(&scenario.forces, scenario.options.clone())?;
        let places = footprints(&battle, &scenario.placements)?;
        let starting = BySide::new(
            starting_figures(&battle, Side::Union),
            starting_figures(&battle, Side::Confederate),
        );
        let mut s = State {
            battle,
            field: Field::new(scenario.table.clone(), places),
            victory: scenario.victory,
            starting,
            rng: GameRng::seed(seed),
            charge_starts: Vec::new(),
            pairing: None,
            declined: Vec::new(),
            over: None,
            opening: Vec::new(),
            open: None,
        };
        let mut rng = s.rng.clone();
        let mut log = Vec::new();
        s.settle(&mut rng, &mut log)
            .map_err(|e| ScenarioError::Inconsistent(e.to_string()))?;
        s.rng = rng;
        s.opening = log;
        Ok(s)
    }

    fn owed(&self, state: &State) -> Option<Decision<Question>> {
        state.decision()
    }

    fn apply_with(
        &self,
        state: &mut State,
        order: &Order,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        if let Some(e) = dice.fault() {
            return Err(GameError::Dice(e.clone()));
        }
        let mut copy = state.clone();
        // the first shuffle and card, turned when the game was set up, open the log
        let mut events = std::mem::take(&mut copy.opening);
        copy.step(order, dice, &mut events)?;
        if let Some(e) = dice.fault() {
            return Err(GameError::Dice(e.clone()));
        }
        *state = copy;
        log.extend(events);
        Ok(())
    }

    fn rng_mut<'s>(&self, state: &'s mut State) -> &'s mut GameRng {
        &mut state.rng
    }

    fn outcome(&self, state: &State) -> Option<Outcome> {
        state.over
    }

    fn losses(&self, state: &State) -> BySide<u32> {
        state.losses()
    }
}
