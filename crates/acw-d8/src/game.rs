//! The game layer: the D8 rules as a whole game behind [`acw_core::game::Ruleset`]. The [`State`] is the rules'
//! [`Battle`], the [`Field`] that measures it on the table, and the game's [`GameRng`].
//!
//! A game from a seed alone: the three maps and the umpire's D3, then each side's first army rolls; each side
//! answers the sharpshooter exchange (D8-SET-23, D8-SET-24) before its army is completed; both armies deploy on
//! their base lines, the game opens (roll-off, day, wind, first move) and the player turns run until nightfall
//! or until a side has no units left. An order is one decision: a unit's move, charge or change of formation, a
//! target to fire at, a melee to fight, or the end of a phase (at which the engine fights the melees still in
//! contact, tests morale, and begins the next player's turn with its formation-fail tests).

use crate::army::{Army, Strength};
use crate::error::{D8Error, Refusal};
use crate::field::{CONTACT_CM, Field, GAP_CM, Place, cm, inches};
use crate::flank::{Flank, FlankMarch};
use crate::map::{Map, Maps, Square};
use crate::melee::Melee;
use crate::movement::{ChargeFacts, MoveFacts};
use crate::options::Options;
use crate::sequence::Phase;
use crate::state::{
    Battle, FireFacts, MeleeFacts, OfficerId, Opening, Struck, Target, Unit, UnitId,
};
use crate::tables::{Cover, Formation, Troop};
use crate::victory::Points;
use acw_core::game::{Decision, EndReason, GameResult, Outcome, Ruleset};
use acw_core::measure::{Inches, Point};
use acw_core::{BySide, Dice, GameRng, Resolve, Side};
use std::fmt;
use thiserror::Error;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// How near the river's line (cm) a unit's centre must stand to get into a boat.
pub const BANK_CM: f64 = 10.0;
/// How near the river's line (cm) a boat and its destination must be.
const ON_RIVER_CM: f64 = 0.5;

/// The D8 rules as a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct D8;

/// A game to play: the options and the year, and optionally a map and both armies written by hand (each checked
/// as its constructor checks it). Whatever is not given is generated from the game's seed.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "ScenarioData"))]
pub struct Scenario {
    options: Options,
    year: u16,
    map: Option<Map>,
    armies: Option<(Army, Army)>,
    flank_marches: Vec<FlankMarch>,
}

/// A [`Scenario`] as written or loaded, before its checks.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct ScenarioData {
    /// The options.
    pub options: Options,
    /// The year (1861 to 1865).
    pub year: u16,
    /// A map, or none to generate the three maps.
    pub map: Option<Map>,
    /// The Union and Confederate armies, or none to generate them.
    pub armies: Option<(Army, Army)>,
    /// The flank marches declared (D8-OPT-01), at most one a side; only with flank marches in the options.
    #[cfg_attr(feature = "serde", serde(default))]
    pub flank_marches: Vec<FlankMarch>,
}

impl TryFrom<ScenarioData> for Scenario {
    type Error = SetupError;
    fn try_from(d: ScenarioData) -> Result<Scenario, SetupError> {
        let mut s = Scenario::new(d.options, d.year, d.map, d.armies)?;
        for m in d.flank_marches {
            s = s.with_flank_march(m)?;
        }
        Ok(s)
    }
}

impl Default for Scenario {
    /// A generated battle of 1862 under the default options.
    fn default() -> Scenario {
        Scenario {
            options: Options::default(),
            year: 1862,
            map: None,
            armies: None,
            flank_marches: Vec::new(),
        }
    }
}

impl Scenario {
    /// A scenario, checked: a year of the war, a turn limit of at least 1 where night and day is not played, and
    /// armies given as (Union, Confederate) that the rules accept together.
    pub fn new(
        options: Options,
        year: u16,
        map: Option<Map>,
        armies: Option<(Army, Army)>,
    ) -> Result<Scenario, SetupError> {
        if !(1861..=1865).contains(&year) {
            return Err(SetupError::Year(year));
        }
        if !options.night_and_day && options.turn_limit == 0 {
            return Err(SetupError::NoTurns);
        }
        if let Some((u, c)) = &armies {
            Battle::new(u, c, options.clone())?;
        }
        Ok(Scenario {
            options,
            year,
            map,
            armies,
            flank_marches: Vec::new(),
        })
    }

    /// D8-OPT-01: the scenario with a side's flank march declared: flank marches must be in the options, and a
    /// side declares at most one. At deployment the side holds back its mounted units first, then its
    /// sharpshooters, then its foot regiments from the last of its order of battle (never a battery), as many as
    /// it declared.
    pub fn with_flank_march(mut self, march: FlankMarch) -> Result<Scenario, SetupError> {
        let march = FlankMarch::new(march.side, march.flank, march.units, &self.options)?;
        if self.flank_marches.iter().any(|m| m.side == march.side) {
            return Err(SetupError::Rules(D8Error::BadArmy(format!(
                "the {} side has already declared a flank march",
                march.side
            ))));
        }
        self.flank_marches.push(march);
        Ok(self)
    }

    /// A wholly generated battle of `year` under `options`.
    pub fn generated(options: Options, year: u16) -> Result<Scenario, SetupError> {
        Scenario::new(options, year, None, None)
    }

    /// The options.
    #[must_use]
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The scenario's parts, as written.
    #[must_use]
    pub fn data(&self) -> ScenarioData {
        ScenarioData {
            options: self.options.clone(),
            year: self.year,
            map: self.map.clone(),
            armies: self.armies.clone(),
            flank_marches: self.flank_marches.clone(),
        }
    }
}

/// Why a game could not be set up.
#[derive(Clone, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum SetupError {
    /// A year outside the war.
    #[error("the year must be 1861 to 1865, not {0}")]
    Year(u16),
    /// No turns to play.
    #[error("without night and day the turn limit must be at least 1")]
    NoTurns,
    /// A map or army the rules refuse.
    #[error(transparent)]
    Rules(#[from] D8Error),
    /// The table could not be built.
    #[error("the table could not be laid out: {0}")]
    Table(String),
    /// An army that does not fit its deployment zone.
    #[error("deployment failed: {0}")]
    Deployment(String),
    /// The game could not open.
    #[error("the game could not open: {0}")]
    Opening(String),
}

/// An order the game refuses. Nothing changes.
#[derive(Clone, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum GameError {
    /// The rules refuse it.
    #[error(transparent)]
    Rules(#[from] Refusal),
    /// The table does not allow it (off the table, onto another unit, not in contact).
    #[error("{0}")]
    Table(String),
    /// Not the time for this order.
    #[error("that order is not allowed now: {0}")]
    NotNow(String),
    /// The game is over.
    #[error("the game is over")]
    Over,
}

/// One decision.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum Order {
    /// D8-SET-23, D8-SET-24: the side's sharpshooter companies (0 to 2), paid for in cavalry.
    Sharpshooters(u8),
    /// A unit moves its centre to a point given in centimetres from the south-west corner of the table, keeping
    /// its facing.
    Move {
        /// The unit.
        unit: UnitId,
        /// Centimetres from the west edge.
        x_cm: f64,
        /// Centimetres from the south edge.
        y_cm: f64,
    },
    /// A unit charges an enemy unit and ends in contact with it.
    Charge {
        /// The charging unit.
        unit: UnitId,
        /// The enemy.
        target: UnitId,
    },
    /// A unit changes formation (a whole move).
    Formation {
        /// The unit.
        unit: UnitId,
        /// The new formation.
        to: Formation,
    },
    /// A battery limbers (true) or unlimbers (false) (a whole move).
    Limber {
        /// The battery.
        unit: UnitId,
        /// Limbered or not.
        limbered: bool,
    },
    /// Cavalry mount (true) or dismount (false) (a whole move).
    Mount {
        /// The cavalry.
        unit: UnitId,
        /// Mounted or not.
        mounted: bool,
    },
    /// A unit fires at an enemy unit.
    Fire {
        /// The firer.
        unit: UnitId,
        /// The target.
        target: UnitId,
    },
    /// D8-MOV-12, D8-ART-02: an unlimbered gun turns its barrel to face an enemy unit (a whole move).
    Realign {
        /// The battery.
        unit: UnitId,
        /// The enemy unit it turns to face.
        towards: UnitId,
    },
    /// D8-CMD-09: a unit fires at a lone enemy officer (one figure), if no unit screens him.
    FireAtOfficer {
        /// The firer.
        unit: UnitId,
        /// The enemy officer.
        officer: OfficerId,
    },
    /// D8-MOV-25, D8-MOV-26: a unit standing at the river gets into a boat (`Some`, a whole move; it is placed on
    /// the river's line) or out of one (`None`).
    Boat {
        /// The unit.
        unit: UnitId,
        /// The boat, or none to get out.
        boat: Option<crate::tables::Boat>,
    },
    /// D8-MOV-24: a unit in a boat is rowed along the river to a point on it, given in centimetres from the
    /// south-west corner of the table.
    Row {
        /// The unit.
        unit: UnitId,
        /// Centimetres from the west edge.
        x_cm: f64,
        /// Centimetres from the south edge.
        y_cm: f64,
    },
    /// D8-MOV-23, D8-STR-02: a unit beside a farmhouse puts some of its figures inside (at most 5; 0 to come out).
    Building {
        /// The unit.
        unit: UnitId,
        /// Figures inside.
        figures: u32,
    },
    /// A unit of the active side fights an enemy unit it is in contact with.
    Melee {
        /// The attacker.
        attacker: UnitId,
        /// The defender.
        defender: UnitId,
    },
    /// Ends the phase (the Melee phase's end fights every contact not yet fought, tests morale and begins the
    /// next player's turn).
    EndPhase,
}

/// What a side is asked.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum Question {
    /// The sharpshooter exchange.
    Sharpshooters {
        /// Cavalry companies rolled.
        companies: u8,
    },
    /// A unit's move, or the end of the Movement phase.
    Movement,
    /// A unit's target, or the end of the Firing phase.
    Firing,
    /// A melee to fight, or the end of the Melee phase.
    Melee,
}

impl fmt::Display for Question {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Question::Sharpshooters { companies } => write!(
                f,
                "you rolled {companies} cavalry companies: how many sharpshooter companies (0 to 2) do you take in exchange?"
            ),
            Question::Movement => f.write_str(
                "which unit moves, charges or changes formation next, or do you end the Movement phase?",
            ),
            Question::Firing => {
                f.write_str("which unit fires, and at whom, or do you end the Firing phase?")
            }
            Question::Melee => f.write_str(
                "which of your units in contact fights, and whom, or do you end the Melee phase?",
            ),
        }
    }
}

/// A formation-fail test at the start of a turn.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct FfTestResult {
    /// The unit.
    pub unit: String,
    /// The face needed on the D8.
    pub need: u8,
    /// Passed.
    pub passed: bool,
}

impl fmt::Display for FfTestResult {
    /// "The 2nd Texas tests its formation fail, needing 5+ on a D8 (50.0%): passed".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "The {} tests its formation fail, needing {}+ on a D8 ({}): {}",
            self.unit,
            self.need,
            pct(f64::from(9 - self.need.min(9)) / 8.0),
            if self.passed { "passed" } else { "failed" }
        )
    }
}

/// What happened.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum Event {
    /// The maps were made and one picked.
    MapChosen {
        /// Whose map.
        whose: String,
    },
    /// A side took sharpshooters and its army was completed.
    Mustered {
        /// The side.
        side: Side,
        /// Sharpshooter companies taken.
        sharpshooters: u8,
        /// Units and figures.
        units: usize,
        /// Figures.
        figures: u32,
    },
    /// The game opened.
    Opened {
        /// The roll-off, day, wind and first move.
        opening: String,
        /// Turns each player gets.
        turns: u32,
    },
    /// A player turn began.
    TurnBegan {
        /// The side.
        side: Side,
        /// Its turn number.
        turn: u32,
        /// Formation-fail tests.
        tests: Vec<FfTestResult>,
        /// Units out of their commander's influence.
        out_of_influence: u32,
    },
    /// A unit moved.
    Moved {
        /// The unit.
        unit: String,
        /// Centimetres.
        distance_cm: f64,
        /// From square.
        from: u8,
        /// To square.
        to: u8,
        /// Figures lost to jumps or the river.
        lost: u32,
        /// Gained a formation fail.
        ff: bool,
    },
    /// A whole-move action.
    Changed {
        /// The unit.
        unit: String,
        /// What it did.
        what: String,
    },
    /// A charge.
    Charged {
        /// The unit.
        unit: String,
        /// The target.
        target: String,
        /// Distance charged.
        distance_cm: f64,
    },
    /// A volley.
    Fired {
        /// The firer.
        unit: String,
        /// The target.
        target: String,
        /// D8s at short range and the face each needed.
        short: (u32, u8),
        /// D8s at long range and the face each needed.
        long: (u32, u8),
        /// The D6 save, if any.
        save: Option<u8>,
        /// The target's cover.
        cover: Cover,
        /// Hits.
        hits: u32,
        /// Casualties.
        casualties: u32,
        /// The chance of exactly these casualties.
        chance: f64,
        /// An attached officer killed.
        officer_killed: bool,
    },
    /// The Firing phase ended; officers killed by the casualties of their units.
    FiringEnded {
        /// Officers killed.
        officers: Vec<String>,
    },
    /// A melee.
    Fought {
        /// The attacker.
        attacker: String,
        /// The defender.
        defender: String,
        /// D10s rolled.
        dice: u32,
        /// Defending figures in contact.
        pairs: u32,
        /// The D10 face each attacker needed to kill (the defender's class and cover, the bonuses).
        need: u8,
        /// Figures killed.
        killed: u32,
        /// The chance of exactly this many.
        chance: f64,
    },
    /// A morale test (no dice: the points decide, so the result is certain).
    Morale {
        /// The unit.
        unit: String,
        /// Its figures left (a point each).
        figures: u32,
        /// The modifiers that applied.
        modifiers: Vec<crate::morale::MoraleModifier>,
        /// Its morale points: figures plus modifiers.
        points: i32,
        /// The chart value for its class and original size.
        break_at: u32,
        /// Removed.
        removed: bool,
    },
    /// A unit held back for a flank march rolled its arrival (D8-OPT-03).
    FlankMarched {
        /// The unit.
        unit: String,
        /// The edge it marches by.
        flank: Flank,
        /// The flank square, 1 to 5 from its own base line.
        flank_square: u8,
        /// The grid square that is.
        square: Square,
        /// Its side's move it arrives on.
        on_move: u8,
    },
    /// Both sides marched by the same edge: both forces take no further part (D8-OPT-04).
    FlankCancelled {
        /// The edge.
        flank: Flank,
        /// The units of both forces.
        units: Vec<String>,
    },
    /// A flank marcher came onto the table at the edge of its square (D8-OPT-02).
    FlankArrived {
        /// The unit.
        unit: String,
        /// The grid square.
        square: Square,
        /// Its side's move.
        turn: u32,
    },
    /// The game ended.
    Ended {
        /// Points by side.
        points: BySide<Points>,
        /// The result.
        result: GameResult,
        /// Why.
        reason: EndReason,
    },
}

fn pct(p: f64) -> String {
    if p >= 0.9995 {
        "certain".into()
    } else if p < 0.0005 {
        "under 0.1%".into()
    } else {
        format!("{:.1}%", p * 100.0)
    }
}

/// "a 19.1% chance", "an 8.3% chance", "a certain result".
fn chance_of(p: f64) -> String {
    let s = pct(p);
    if s == "certain" {
        return "a certain result".into();
    }
    let an = s.starts_with('8') || s.starts_with("11.") || s.starts_with("18.");
    format!("{} {s} chance", if an { "an" } else { "a" })
}

fn points_line(f: &mut fmt::Formatter<'_>, side: Side, p: &Points) -> fmt::Result {
    write!(
        f,
        "{side} {} VP (kills {}, officers {}, baggage {}, farms {}, bridge {}, squares {})",
        p.total(),
        p.kills,
        p.officers,
        p.baggage,
        p.farms,
        p.bridge,
        p.squares
    )
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::MapChosen { whose } => write!(f, "The umpire's D3 picks the {whose} map."),
            Event::Mustered {
                side,
                sharpshooters,
                units,
                figures,
            } => write!(
                f,
                "The {side} army takes {sharpshooters} sharpshooter compan{} and musters {units} units of {figures} figures.",
                if *sharpshooters == 1 { "y" } else { "ies" }
            ),
            Event::Opened { opening, turns } => {
                write!(
                    f,
                    "The game opens: {opening}; each player has {turns} turns."
                )
            }
            Event::TurnBegan {
                side,
                turn,
                tests,
                out_of_influence,
            } => {
                write!(f, "Turn {turn} of the {side} player.")?;
                for t in tests {
                    write!(f, " {t}.")?;
                }
                if *out_of_influence > 0 {
                    write!(
                        f,
                        " {out_of_influence} unit(s) are out of their commander's influence and may not advance."
                    )?;
                }
                Ok(())
            }
            Event::Moved {
                unit,
                distance_cm,
                from,
                to,
                lost,
                ff,
            } => {
                write!(f, "The {unit} moves {distance_cm:.1} cm")?;
                if from == to {
                    write!(f, " within square {to}")?;
                } else {
                    write!(f, " from square {from} to square {to}")?;
                }
                if *lost > 0 {
                    write!(f, ", losing {lost} figure(s) crossing")?;
                }
                if *ff {
                    f.write_str(" and takes a formation fail")?;
                }
                f.write_str(".")
            }
            Event::Changed { unit, what } => write!(f, "The {unit} {what}."),
            Event::Charged {
                unit,
                target,
                distance_cm,
            } => write!(
                f,
                "The {unit} charges {distance_cm:.1} cm into the {target}."
            ),
            Event::Fired {
                unit,
                target,
                short,
                long,
                save,
                cover,
                hits,
                casualties,
                chance,
                officer_killed,
            } => {
                write!(f, "The {unit} fires at the {target}: ")?;
                let mut parts = Vec::new();
                if short.0 > 0 {
                    parts.push(format!(
                        "{} D8 at short range needing {}+",
                        short.0, short.1
                    ));
                }
                if long.0 > 0 {
                    parts.push(format!("{} D8 at long range needing {}+", long.0, long.1));
                }
                f.write_str(&parts.join(" and "))?;
                write!(f, "; {hits} hit(s)")?;
                match save {
                    Some(s) => write!(f, ", each saved on {s}+ on a D6 (the target {cover})")?,
                    None => f.write_str(", no save")?,
                }
                write!(
                    f,
                    "; {casualties} casualt{} ({}).",
                    if *casualties == 1 { "y" } else { "ies" },
                    chance_of(*chance)
                )?;
                if *officer_killed {
                    f.write_str(" The officer with the target is killed.")?;
                }
                Ok(())
            }
            Event::FiringEnded { officers } => {
                if officers.is_empty() {
                    f.write_str("The Firing phase ends.")
                } else {
                    write!(
                        f,
                        "The Firing phase ends; killed with their units: {}.",
                        officers.join(", ")
                    )
                }
            }
            Event::Fought {
                attacker,
                defender,
                dice,
                pairs,
                need,
                killed,
                chance,
            } => write!(
                f,
                "The {attacker} fights the {defender}: {dice} D10 against {pairs} figure(s) in contact, each needing {need}+ to kill; {killed} killed ({}).",
                chance_of(*chance)
            ),
            Event::Morale {
                unit,
                figures,
                modifiers,
                points,
                break_at,
                removed,
            } => {
                write!(f, "The {unit} tests morale: {figures} figure(s)")?;
                for m in modifiers {
                    write!(f, ", {m}")?;
                }
                write!(
                    f,
                    ", {points} points against {break_at} on the chart; no dice are rolled, so it certainly {}.",
                    if *removed {
                        "breaks and is removed"
                    } else {
                        "stands"
                    }
                )
            }
            Event::FlankMarched {
                unit,
                flank,
                flank_square,
                square,
                on_move,
            } => write!(
                f,
                "The {unit} is held back to march by the {flank} flank; its D20 shows {on_move}: it arrives on its side's move {on_move} by flank square {flank_square} (square {square})."
            ),
            Event::FlankCancelled { flank, units } => write!(
                f,
                "Both sides march by the {flank} flank, and both forces take no further part: {}.",
                units.join(", ")
            ),
            Event::FlankArrived { unit, square, turn } => write!(
                f,
                "The {unit} arrives from its flank march at the table's edge in square {square}, on its side's move {turn}."
            ),
            Event::Ended {
                points,
                result,
                reason,
            } => {
                write!(f, "The game ends ({reason}): ")?;
                points_line(f, Side::Union, &points.union)?;
                f.write_str("; ")?;
                points_line(f, Side::Confederate, &points.confederate)?;
                write!(f, ". {result}.")
            }
        }
    }
}

/// What the rules make of a volley ([`State::check_fire`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FireCheck {
    /// Accepted, as [`State::check_order`] accepts the [`Order::Fire`].
    Accepted,
    /// Refused by the ground where the two units stand: no figure of the firer has the target in its arc or
    /// within its weapon's reach, either stands deep in a wood, or woods, farms or hills lie between. While both
    /// units keep their footprints and the firer its troop, formation, figures and weapon, the volley is refused
    /// whatever else holds (the ground does not change during a battle).
    Ground,
    /// Refused: this unit stands across the line of fire. While the three units keep their footprints, the
    /// volley is refused whatever else holds.
    Across(UnitId),
    /// Refused for a reason that may not last (the firer's state, smoke, the target, ...).
    Refused,
}

/// The muster: the side deciding its sharpshooters, its first rolls, and the Union army once complete.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Muster {
    options: Options,
    year: u16,
    map: Map,
    strength: Strength,
    union: Option<Army>,
    #[cfg_attr(feature = "serde", serde(default))]
    flank_marches: Vec<FlankMarch>,
}

/// The whole game: the muster or the battle on its field, the dice, and the end.
#[derive(Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "StateData"))]
pub struct State {
    rng: GameRng,
    muster: Option<Muster>,
    battle: Option<Battle>,
    field: Option<Field>,
    attacked: Vec<UnitId>,
    end: Option<(Outcome, BySide<Points>)>,
    /// What the last accepted check measured, for applying that order without measuring it again.
    #[cfg_attr(feature = "serde", serde(skip))]
    checked: Checked,
}

impl fmt::Debug for State {
    /// As a derived `Debug` of the rng, muster, battle, field, attackers and end: what the last check
    /// measured is left out.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("State")
            .field("rng", &self.rng)
            .field("muster", &self.muster)
            .field("battle", &self.battle)
            .field("field", &self.field)
            .field("attacked", &self.attacked)
            .field("end", &self.end)
            .finish()
    }
}

/// What a check measured for an order it accepted.
enum Measured {
    /// A move's plan ([`plan_move`]).
    Move(MovePlan),
    /// A volley's facts ([`fire_facts`]) and the rules' plan of it on the state as it is
    /// ([`Battle::plan_volley`]).
    Fire(FireFacts, crate::state::FirePlan),
}

/// The order last accepted by [`State::check_order`] (a move) or [`State::check_fire`] (a volley) with what was
/// measured for it. A state changes only when an order is applied, and applying takes this out first: what it
/// holds was measured on the state as it is, so the order applied next, if it is that one, uses it instead of
/// measuring again (the same facts, bit for bit). A copy of the state starts without it; it takes no part in
/// comparing, printing or saving states.
#[derive(Default)]
struct Checked(std::sync::Mutex<Option<(Order, Measured)>>);

impl Checked {
    /// Keeps what a check measured for `order` (if another thread holds it, nothing is kept).
    fn keep(&self, order: Order, measured: Measured) {
        if let Ok(mut slot) = self.0.try_lock() {
            *slot = Some((order, measured));
        }
    }

    /// Takes what was kept, if it was for `order`, leaving nothing.
    fn take(&mut self, order: &Order) -> Option<Measured> {
        let slot = self.0.get_mut().ok()?.take()?;
        (slot.0 == *order).then_some(slot.1)
    }
}

impl Clone for Checked {
    fn clone(&self) -> Checked {
        Checked::default()
    }
}

impl PartialEq for Checked {
    fn eq(&self, _: &Checked) -> bool {
        true
    }
}

/// A [`State`] as loaded, before its checks.
#[cfg(feature = "serde")]
#[derive(Deserialize)]
struct StateData {
    rng: GameRng,
    muster: Option<Muster>,
    battle: Option<Battle>,
    field: Option<Field>,
    attacked: Vec<UnitId>,
    end: Option<(Outcome, BySide<Points>)>,
}

#[cfg(feature = "serde")]
impl TryFrom<StateData> for State {
    type Error = SetupError;
    fn try_from(d: StateData) -> Result<State, SetupError> {
        let bad = |why: &str| SetupError::Rules(D8Error::BadBattle(why.into()));
        match (&d.muster, &d.battle, &d.field) {
            (Some(_), None, None) => {}
            (None, Some(b), Some(f)) => {
                if f.counts() != (b.units().len(), b.officers().len()) {
                    return Err(bad("the field does not place every unit and officer"));
                }
                if d.attacked.iter().any(|u| b.unit(*u).is_err()) {
                    return Err(bad("an attacker is not in the battle"));
                }
            }
            _ => return Err(bad("a game is either mustering or fighting")),
        }
        Ok(State {
            rng: d.rng,
            muster: d.muster,
            battle: d.battle,
            field: d.field,
            attacked: d.attacked,
            end: d.end,
            checked: Checked::default(),
        })
    }
}

/// "1st Regiment (Union)": the unit's name and side, written into a string sized for it at once (`format!`
/// would grow it three times), piece by piece (the formatting machinery cost more than the text).
fn name(u: &Unit) -> String {
    let side = crate::tables::side_word(u.side);
    let mut s = String::with_capacity(u.name.len() + side.len() + 3);
    s.push_str(&u.name);
    s.push_str(" (");
    s.push_str(side);
    s.push(')');
    s
}

impl State {
    /// D8-SET-36, D8-SET-15: sets a game up from a scenario and a seed: the maps (three and the umpire's D3) and
    /// the Union's first rolls come from the seed unless the scenario gives them; with both armies given, they
    /// deploy and the game opens at once.
    pub fn new(scenario: &Scenario, seed: u64) -> Result<(State, Vec<Event>), SetupError> {
        let mut rng = GameRng::seed(seed);
        let o = scenario.options.clone();
        let mut events = Vec::new();
        let map = match &scenario.map {
            Some(m) => m.clone(),
            None => {
                let maps = Maps::generate(&mut rng, &o)?;
                events.push(Event::MapChosen {
                    whose: maps.chosen.to_string(),
                });
                maps.played().clone()
            }
        };
        let mut state = State {
            rng,
            muster: None,
            battle: None,
            field: None,
            attacked: Vec::new(),
            end: None,
            checked: Checked::default(),
        };
        match &scenario.armies {
            Some((u, c)) => {
                let mut dice = state.rng.clone();
                state.fight(
                    &map,
                    (u, c),
                    o,
                    &scenario.flank_marches,
                    &mut dice,
                    &mut events,
                )?;
                state.rng = dice;
            }
            None => {
                let strength = Strength::roll(Side::Union, &mut state.rng, &o)?;
                state.muster = Some(Muster {
                    options: o,
                    year: scenario.year,
                    map,
                    strength,
                    union: None,
                    flank_marches: scenario.flank_marches.clone(),
                });
            }
        }
        Ok((state, events))
    }

    fn fight(
        &mut self,
        map: &Map,
        (union, rebels): (&Army, &Army),
        o: Options,
        marches: &[FlankMarch],
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) -> Result<(), SetupError> {
        let mut battle = Battle::new(union, rebels, o)?;
        let mut field = Field::new(map).map_err(|e| SetupError::Table(e.to_string()))?;
        hold_back(&mut battle, marches, dice, events)
            .map_err(|e| SetupError::Opening(e.to_string()))?;
        field.deploy(&battle).map_err(SetupError::Deployment)?;
        let opening: Opening = battle
            .open(dice)
            .map_err(|e| SetupError::Opening(e.to_string()))?;
        events.push(Event::Opened {
            opening: opening.to_string(),
            turns: battle.turn_limit(),
        });
        let arrived = begin_turn(&mut battle, &field, dice, events)
            .map_err(|e| SetupError::Opening(e.to_string()))?;
        for (id, p) in arrived {
            field.set_place(id, p);
        }
        self.muster = None;
        self.battle = Some(battle);
        self.field = Some(field);
        Ok(())
    }

    /// A game from a battle already under way and its field, placed by hand (a virtual table's own set-up, a
    /// position to study): the battle must be in a Movement, Firing or Melee phase, and the field must place every
    /// unit and officer, each unit in play wholly on the table.
    pub fn from_battle(battle: Battle, field: Field, seed: u64) -> Result<State, SetupError> {
        if !matches!(
            battle.phase(),
            Phase::Movement | Phase::Firing | Phase::Melee
        ) {
            return Err(SetupError::Opening(format!(
                "a game is taken up in a player's Movement, Firing or Melee phase, not {}",
                battle.phase()
            )));
        }
        if field.counts() != (battle.units().len(), battle.officers().len()) {
            return Err(SetupError::Deployment(
                "the field must place every unit and officer of the battle".into(),
            ));
        }
        for u in battle.units().iter().filter(|u| !u.removed) {
            if !field.footprint(u).is_some_and(|f| field.on_table(&f)) {
                return Err(SetupError::Deployment(format!(
                    "the {} does not stand wholly on the table",
                    name(u)
                )));
            }
        }
        Ok(State {
            rng: GameRng::seed(seed),
            muster: None,
            battle: Some(battle),
            field: Some(field),
            attacked: Vec::new(),
            end: None,
            checked: Checked::default(),
        })
    }

    /// The battle, once both armies are mustered.
    #[must_use]
    pub fn battle(&self) -> Option<&Battle> {
        self.battle.as_ref()
    }

    /// The field, once both armies are mustered.
    #[must_use]
    pub fn field(&self) -> Option<&Field> {
        self.field.as_ref()
    }

    /// The muster's first rolls for the side deciding its sharpshooters.
    #[must_use]
    pub fn mustering(&self) -> Option<&Strength> {
        self.muster.as_ref().map(|m| &m.strength)
    }

    /// The end: the outcome and the final points.
    #[must_use]
    pub fn end(&self) -> Option<(Outcome, BySide<Points>)> {
        self.end
    }

    /// D8-FIR-03, D8-FIR-05, D8-ENV-01: what the rules make of a volley from `unit` at `target` now, for a
    /// commander weighing it: accepted exactly when [`State::check_order`] accepts the [`Order::Fire`], and when
    /// refused, whether the refusal lasts while the units stand as they are ([`FireCheck`]). The ground is
    /// measured first (the terrain, then each figure's arc and reach up to the first in reach), then the units
    /// across the line of fire, then the smoke; nothing changes.
    #[must_use]
    pub fn check_fire(&self, unit: UnitId, target: UnitId) -> FireCheck {
        if self.end.is_some() || self.muster.is_some() {
            return FireCheck::Refused;
        }
        let (Some(b), Some(f)) = (&self.battle, &self.field) else {
            return FireCheck::Refused;
        };
        let (Ok(u), Ok(t)) = (live(b, unit), live(b, target)) else {
            return FireCheck::Refused;
        };
        let (Some(uf), Some(tf)) = (f.footprint(u), f.footprint(t)) else {
            return FireCheck::Refused;
        };
        // The sight: refused if either stands deep in a wood or the terrain lies between.
        let (from, to) = (crate::field::front_centre(&uf), tf.centre);
        if f.deep_in_wood(uf.centre) || f.deep_in_wood(tf.centre) || f.sight_blocked(from, to, &[])
        {
            return FireCheck::Ground;
        }
        // No figure has the target in its arc, or none within its weapon's reach: refused (`fire_facts`, then
        // the range in `Battle::planned_volley`, which counts a subset of these figures). Measured only up to
        // the first figure in reach.
        if !crate::field::figure_distances(u, &uf, &tf)
            .any(|d| crate::fire::band(u.weapon, d, b.options()).is_some())
        {
            return FireCheck::Ground;
        }
        if let Some(across) = f.unit_across(b, &[unit, target], from, to) {
            return FireCheck::Across(across);
        }
        if f.smoke(b).any(|(_, m)| m.blocks(from, to)) {
            return FireCheck::Refused;
        }
        // Accepted, the facts are those `fire_facts` measures (the same distances, some figure in reach, the
        // sight clear) and are kept for applying the volley.
        // The figures' distances written straight into the facts (`fire_distances` without its list).
        let (ds, bearing) = (
            crate::field::figure_distances(u, &uf, &tf),
            crate::field::fire_bearing(&uf, &tf),
        );
        // Neither stands deep in a wood (refused above otherwise).
        let deep = Some((false, false));
        match volley_facts(b, f, u, t, (&uf, &tf), ds, bearing, false, deep).and_then(|facts| {
            let plan = b.plan_volley(unit, Target::Unit(target), &facts)?;
            Ok((facts, plan))
        }) {
            Ok((facts, plan)) => {
                self.checked
                    .keep(Order::Fire { unit, target }, Measured::Fire(facts, plan));
                FireCheck::Accepted
            }
            Err(_) => FireCheck::Refused,
        }
    }

    /// D8-CMD-04: whether the rules refuse the [`Order::Move`] of `unit` to (`x_cm`, `y_cm`) without measuring
    /// it: it goes towards the enemy's base line and [`Battle::advance_barred`] holds, or the game is not at a
    /// battle. `false` says nothing: the move must still be checked ([`State::check_order`]).
    #[must_use]
    pub fn move_barred(&self, unit: UnitId, x_cm: f64, y_cm: f64) -> bool {
        let (None, None, Some(b), Some(f)) = (&self.end, &self.muster, &self.battle, &self.field)
        else {
            return true;
        };
        let (Ok(u), Some(from)) = (b.unit(unit), f.place(unit)) else {
            return true;
        };
        b.advance_barred(unit)
            && towards_base_line(u.side, from.centre, crate::field::at_cm(x_cm, y_cm))
    }

    /// Whether a unit already fought as the attacker in this Melee phase.
    #[must_use]
    pub fn attacked(&self, id: UnitId) -> bool {
        self.attacked.contains(&id)
    }

    /// The side to decide and its question, while the game is on.
    #[must_use]
    pub fn decision(&self) -> Option<Decision<Question>> {
        if self.end.is_some() {
            return None;
        }
        if let Some(m) = &self.muster {
            return Some(Decision {
                side: m.strength.side,
                question: Question::Sharpshooters {
                    companies: m.strength.cavalry_companies,
                },
            });
        }
        let b = self.battle.as_ref()?;
        let question = match b.phase() {
            Phase::Movement => Question::Movement,
            Phase::Firing => Question::Firing,
            Phase::Melee => Question::Melee,
            _ => return None,
        };
        Some(Decision {
            side: b.active(),
            question,
        })
    }

    /// Whether the rules accept an order now, by running the same code as applying it on a copy of the battle
    /// with a copy of the game's dice. Nothing changes.
    pub fn check_order(&self, order: &Order) -> Result<(), GameError> {
        if self.end.is_some() {
            return Err(GameError::Over);
        }
        if let Some(m) = &self.muster {
            return match order {
                Order::Sharpshooters(n) => {
                    let mut s = m.strength;
                    s.exchange(*n, &m.options).map_err(Refusal::from)?;
                    Ok(())
                }
                _ => Err(GameError::NotNow(
                    "the armies are still mustering; the side must choose its sharpshooters".into(),
                )),
            };
        }
        let (Some(b), Some(f)) = (&self.battle, &self.field) else {
            return Err(GameError::Over);
        };
        if matches!(order, Order::EndPhase) {
            return if matches!(b.phase(), Phase::Movement | Phase::Firing | Phase::Melee) {
                Ok(())
            } else {
                Err(GameError::NotNow(format!("it is {}", b.phase())))
            };
        }
        match *order {
            // Fire and melee: the same checks as applying, up to the first die (the planned procedure).
            Order::Fire { unit, target } => {
                let (u, t) = (live(b, unit)?, live(b, target)?);
                let facts = fire_facts(b, f, u, t)?;
                b.planned_volley(unit, Target::Unit(target), &facts)?;
                Ok(())
            }
            Order::FireAtOfficer { unit, officer } => {
                let u = live(b, unit)?;
                let facts = officer_fire_facts(b, f, u, officer)?;
                b.planned_volley(unit, Target::Officer(officer), &facts)?;
                Ok(())
            }
            Order::Melee { attacker, defender } => {
                plan_fight(b, f, &self.attacked, attacker, defender)?;
                Ok(())
            }
            // A move: the rules' checks of the move, everything before its dice (which a check's copy of the
            // game's generator never lacks); the units it passes over always take their formation fails.
            Order::Move { unit, x_cm, y_cm } => {
                let u = live(b, unit)?;
                let plan = plan_move(b, f, u, x_cm, y_cm)?;
                b.check_move(unit, &plan.facts)?;
                self.checked.keep(order.clone(), Measured::Move(plan));
                Ok(())
            }
            // A charge: measured, then the rules' checks of it (a charge rolls no dice).
            Order::Charge { unit, target } => {
                let (u, t) = (live(b, unit)?, live(b, target)?);
                let (facts, uf, tf) = charge_facts(b, f, u, t)?;
                // Where the charger would end is worked out only when it could be off the table: it ends on the
                // line between the two centres, so with both centres farther inside every edge than its
                // half-diagonal it is on the table.
                let reach = crate::field::span(uf.frontage.0, uf.depth.0) / 2.0;
                if !f.holds_around(uf.centre, tf.centre, reach)
                    && !f.on_table(&uf.placed_in_contact(&tf))
                {
                    return Err(GameError::Table(OFF_TABLE_CHARGE.into()));
                }
                b.check_charge(unit, target, &facts)?;
                Ok(())
            }
            _ => {
                let mut copy = b.clone();
                let mut dice = self.rng.clone();
                let mut sink = Vec::new();
                unit_order(
                    &mut copy,
                    f,
                    &self.attacked,
                    order,
                    None,
                    &mut dice,
                    &mut sink,
                    false,
                )
                .map(|_| ())
            }
        }
    }

    fn apply(
        &mut self,
        order: &Order,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        // What the last check measured, if it was of this order, taken out whatever happens next.
        let measured = self.checked.take(order);
        if self.end.is_some() {
            return Err(GameError::Over);
        }
        if let Some(m) = self.muster.clone() {
            let Order::Sharpshooters(n) = order else {
                return Err(GameError::NotNow(
                    "the armies are still mustering; the side must choose its sharpshooters".into(),
                ));
            };
            let mut s = m.strength;
            s.exchange(*n, &m.options).map_err(Refusal::from)?;
            let army = s
                .complete(dice, &m.options, m.year)
                .map_err(Refusal::from)?;
            log.push(Event::Mustered {
                side: s.side,
                sharpshooters: *n,
                units: army.data().units.len(),
                figures: army.figures(|_| true),
            });
            match m.union {
                None => {
                    let strength = Strength::roll(Side::Confederate, dice, &m.options)
                        .map_err(Refusal::from)?;
                    self.muster = Some(Muster {
                        strength,
                        union: Some(army),
                        ..m
                    });
                }
                Some(union) => {
                    self.fight(
                        &m.map,
                        (&union, &army),
                        m.options,
                        &m.flank_marches,
                        dice,
                        log,
                    )
                    .map_err(|e| GameError::NotNow(e.to_string()))?;
                }
            }
            return Ok(());
        }
        let (Some(b), Some(f)) = (self.battle.as_mut(), self.field.as_ref()) else {
            return Err(GameError::Over);
        };
        if matches!(order, Order::EndPhase) {
            let mut events = Vec::new();
            let mut officers = Vec::new();
            let mut arrived = Vec::new();
            let mut end = None;
            match b.phase() {
                // Made on the battle itself: the officers' moves change nothing in the battle but the
                // attachment of officers that are not attached (`move_officers` moves only those), so a refusal
                // among them leaves it as it was, and ending the phase is one rules call that checks before it
                // changes anything.
                Phase::Movement => {
                    officers = move_officers(b, f)?;
                    b.end_movement()?;
                }
                // One rules call that rolls every die and checks the dice before it changes anything.
                Phase::Firing => {
                    let killed = b.end_firing(dice)?;
                    events.push(Event::FiringEnded {
                        officers: killed
                            .iter()
                            .filter_map(|o| b.officer(*o).ok().map(|o| o.to_string()))
                            .collect(),
                    });
                }
                // Several rules calls: made on a copy of the battle, committed when all are accepted.
                Phase::Melee => {
                    let mut copy = b.clone();
                    end_melee(&mut copy, f, &self.attacked, dice, &mut events)?;
                    if copy.phase() == Phase::Over {
                        end = Some(finish(&copy, f, &mut events));
                    } else {
                        arrived = begin_turn(&mut copy, f, dice, &mut events)?;
                    }
                    *b = copy;
                }
                p => return Err(GameError::NotNow(format!("it is {p}"))),
            }
            if b.phase() != Phase::Firing && b.phase() != Phase::Melee {
                self.attacked.clear();
            }
            if let Some(f) = self.field.as_mut() {
                for (id, p) in officers {
                    f.set_officer(id, p);
                }
                for (id, p) in arrived {
                    f.set_place(id, p);
                }
                if let Some(b) = self.battle.as_ref() {
                    f.clear_smoke(b);
                }
            }
            if end.is_some() {
                self.end = end;
            }
            log.extend(events);
            return Ok(());
        }
        let done = unit_order(b, f, &self.attacked, order, measured, dice, log, true)?;
        if let Some(a) = done.attacker {
            self.attacked.push(a);
        }
        if let Some(f) = self.field.as_mut() {
            if let Some((id, p)) = done.place {
                f.set_place(id, p);
            }
            if let Some((id, marker)) = done.smoke {
                f.lay_smoke(id, marker);
            }
        }
        Ok(())
    }
}

/// Begins the active side's turn: influence measured on the table, formation-fail tests.
fn begin_turn(
    b: &mut Battle,
    f: &Field,
    dice: &mut dyn Dice,
    log: &mut Vec<Event>,
) -> Result<Vec<(UnitId, Place)>, GameError> {
    let side = b.active();
    let results = b.start_turn_in(|b| Ok(f.in_influence(b, side)?), dice)?;
    // D8-OPT-03: flank marchers due on this move come on at the start of the Movement phase.
    let (mut placed, mut arrivals) = (Vec::new(), Vec::new());
    for (id, square) in b.flank_due() {
        let u = b.unit(id).map_err(Refusal::from)?;
        if let Some(p) = f.arrival_place(b, u, square, &placed) {
            b.arrive(id)?;
            placed.push((id, p));
            arrivals.push(Event::FlankArrived {
                unit: name(b.unit(id).map_err(Refusal::from)?),
                square,
                turn: *b.turns().get(side),
            });
        }
    }
    let tests = results
        .iter()
        .filter_map(|&(id, passed)| {
            let u = b.unit(id).ok()?;
            Some(FfTestResult {
                unit: name(u),
                // D8-FRM-04: the D8 test passes on the class's score or more (`FormationTest`'s roll), so that
                // score is the face needed.
                need: u.class.base_score(),
                passed,
            })
        })
        .collect();
    let out = b
        .units()
        .iter()
        .filter(|u| u.side == side && !u.removed && !u.in_influence)
        .count() as u32;
    log.push(Event::TurnBegan {
        side,
        turn: *b.turns().get(side),
        tests,
        out_of_influence: out,
    });
    log.extend(arrivals);
    Ok(placed)
}

/// D8-OPT-01, D8-OPT-02, D8-OPT-04: at deployment each declared flank force is held back (its mounted units
/// first, then sharpshooters, then foot regiments from the last), each unit rolling its arrival; two marches by the
/// same edge cancel each other, and both forces take no further part.
fn hold_back(
    b: &mut Battle,
    marches: &[FlankMarch],
    dice: &mut dyn Dice,
    log: &mut Vec<Event>,
) -> Result<(), GameError> {
    let mut forces = Vec::new();
    for m in marches {
        let mut pick: Vec<&Unit> = b
            .units()
            .iter()
            .filter(|u| u.side == m.side && !u.troop.is_battery())
            .collect();
        pick.sort_by_key(|u| {
            (
                match u.troop {
                    Troop::Cavalry | Troop::Indians => 0,
                    Troop::Sharpshooters => 1,
                    _ => 2,
                },
                std::cmp::Reverse(u.id),
            )
        });
        let ids: Vec<UnitId> = pick
            .iter()
            .take(usize::from(m.units))
            .map(|u| u.id)
            .collect();
        if !ids.is_empty() {
            forces.push((m, ids));
        }
    }
    if let [(a, ua), (c, uc)] = forces.as_slice()
        && crate::flank::cancelled(a, c)
    {
        let all: Vec<UnitId> = ua.iter().chain(uc).copied().collect();
        b.cancel_flank_forces(a, c, &all)?;
        log.push(Event::FlankCancelled {
            flank: a.flank,
            units: all
                .iter()
                .filter_map(|&id| b.unit(id).ok().map(name))
                .collect(),
        });
        return Ok(());
    }
    for (m, ids) in &forces {
        for (id, arrival, square) in b.hold_back(m, ids, dice)? {
            log.push(Event::FlankMarched {
                unit: name(b.unit(id).map_err(Refusal::from)?),
                flank: m.flank,
                flank_square: arrival.square,
                square,
                on_move: arrival.on_move,
            });
        }
    }
    fault(dice)
}

/// D8-CMD-07: at the end of the Movement phase each officer of the active side rides towards the middle of his
/// command, as far as his move allows.
fn move_officers(b: &mut Battle, f: &Field) -> Result<Vec<(OfficerId, Point)>, GameError> {
    let side = b.active();
    let mut moved = Vec::new();
    // By place in the list, not a list of them first: moving one officer changes no other.
    for i in 0..b.officers().len() {
        let o = &b.officers()[i];
        if !(o.alive && o.side == side && o.attached.is_none()) {
            continue;
        }
        let (id, mounted) = (o.id, o.mounted);
        let Some(from) = f.officer_at(id) else {
            continue;
        };
        let to = f.command_centre(b, id);
        let limit = if mounted { 30.0 } else { 15.0 };
        let d = cm(from.distance(to).0);
        let go = d.min(limit);
        if go <= 0.0 {
            continue;
        }
        b.move_officer(id, go)?;
        let p = if d <= limit {
            to
        } else {
            from.moved(from.heading_to(to), Inches(inches(go)))
        };
        moved.push((id, p));
    }
    Ok(moved)
}

/// D8-MEL-01: the pairings of a melee measured on the table: the defending figures in contact are as many as the
/// narrower of the two fronts holds (at most the defender's figures), each faced by one attacker, and the
/// attacker's other figures in reach join them up to 3 on a figure.
fn pairings(b: &Battle, f: &Field, a: &Unit, d: &Unit) -> Result<MeleeFacts, GameError> {
    let gap = f.gap_cm(a, d);
    if gap > CONTACT_CM {
        return Err(GameError::Table(format!(
            "the {} is {gap:.1} cm from the {} and not in contact",
            name(a),
            name(d)
        )));
    }
    let (wa, _) = crate::field::size_cm(a);
    let (wd, _) = crate::field::size_cm(d);
    let per = |u: &Unit, w: f64| w / f64::from(u.figures.max(1));
    let front = wa.min(wd);
    let pairs = ((front / per(d, wd)).floor() as u32)
        .clamp(1, d.figures.max(1))
        .min(a.figures.max(1));
    let attackers = a.figures.min(pairs * 3).max(pairs);
    let mut v = Vec::with_capacity(pairs as usize);
    for i in 0..pairs {
        let extra = (attackers - pairs) / pairs + u32::from(i < (attackers - pairs) % pairs);
        v.push((Struck::Figure, (1 + extra).min(3) as u8));
    }
    let cover = f.cover_at(
        f.place(d.id).map_or(Point::new(0.0, 0.0), |p| p.centre),
        b.options().broken_ground_soft,
    );
    Ok(MeleeFacts {
        pairings: v,
        cover,
        in_building: inside(d),
    })
}

/// D8-STR-02: whether most of a unit's figures are in a farmhouse (hard cover for a volley at it, behind hard
/// cover in a melee); a volley or melee takes one cover for the unit, its majority's.
fn inside(u: &Unit) -> bool {
    u.in_building > 0 && 2 * u.in_building >= u.figures
}

/// A unit in play.
fn live(b: &Battle, id: UnitId) -> Result<&Unit, GameError> {
    let u = b.unit(id).map_err(Refusal::from)?;
    if u.removed {
        return Err(Refusal::Forbidden(format!("the {} has been removed", name(u))).into());
    }
    Ok(u)
}

/// A melee's checks up to its first die: the attacker has not attacked this phase, both are in play and in
/// contact, and the rules accept the pairings.
fn plan_fight(
    b: &Battle,
    f: &Field,
    attacked: &[UnitId],
    attacker: UnitId,
    defender: UnitId,
) -> Result<(MeleeFacts, Melee), GameError> {
    if attacked.contains(&attacker) {
        return Err(GameError::NotNow(
            "that unit has already fought as the attacker this phase".into(),
        ));
    }
    let (a, d) = (live(b, attacker)?, live(b, defender)?);
    let facts = pairings(b, f, a, d)?;
    let melee = b.planned_melee(attacker, defender, &facts)?;
    Ok((facts, melee))
}

fn fight(
    b: &mut Battle,
    f: &Field,
    attacked: &[UnitId],
    attacker: UnitId,
    defender: UnitId,
    dice: &mut dyn Dice,
    log: &mut Vec<Event>,
) -> Result<(), GameError> {
    let (facts, melee) = plan_fight(b, f, attacked, attacker, defender)?;
    let (a, d) = (name(live(b, attacker)?), name(live(b, defender)?));
    let report = b.melee(attacker, defender, &facts, dice)?;
    let chance = melee.odds().p(&report.killed);
    log.push(Event::Fought {
        attacker: a,
        defender: d,
        dice: facts.pairings.iter().map(|(_, k)| u32::from(*k)).sum(),
        pairs: facts.pairings.len() as u32,
        need: melee.pairings.first().map_or(11, |p| p.need),
        killed: report.killed,
        chance,
    });
    Ok(())
}

/// The end of the Melee phase: every active unit in contact that has not attacked fights the enemy it touches
/// (D8-MEL-01), melee formation fails are given, every unit that lost figures tests morale on the table's facts
/// (D8-MOR-01), and the turn ends.
fn end_melee(
    b: &mut Battle,
    f: &Field,
    attacked: &[UnitId],
    dice: &mut dyn Dice,
    log: &mut Vec<Event>,
) -> Result<(), GameError> {
    let side = b.active();
    let mut pending = Vec::new();
    let enemies = f.enemies_placed(b, side);
    for a in b
        .units()
        .iter()
        .filter(|u| u.side == side && !u.removed && u.figures > 0)
    {
        if attacked.contains(&a.id) {
            continue;
        }
        if let Some(d) = f.within(a, &enemies, CONTACT_CM).next() {
            pending.push((a.id, d.id));
        }
    }
    drop(enemies);
    for (a, d) in pending {
        // An earlier melee may have removed either unit, or cost one figures and so narrowed its front until
        // the two no longer touch.
        let still = match (b.unit(a), b.unit(d)) {
            (Ok(ua), Ok(ud)) => !ua.removed && !ud.removed && f.gap_at_most(ua, ud, CONTACT_CM),
            _ => false,
        };
        if still {
            fight(b, f, attacked, a, d, dice, log)?;
        }
    }
    b.end_melee()?;
    for id in b.must_test() {
        let Ok(u) = b.unit(id) else { continue };
        let facts = f.morale_facts(b, u);
        let unit = name(u);
        let figures = u.figures;
        let modifiers = crate::morale::morale_modifiers(
            u.troop.brigaded(),
            u.ff.is_some(),
            &facts,
            b.options(),
        );
        let r = b.morale(id, &facts)?;
        log.push(Event::Morale {
            unit,
            figures,
            modifiers,
            points: r.points,
            break_at: r.break_at,
            removed: r.removed,
        });
    }
    b.end_turn()?;
    Ok(())
}

/// D8-SEQ-06, D8-VIC-01 to D8-VIC-08: the final points on the table's end position and the result.
fn finish(b: &Battle, f: &Field, log: &mut Vec<Event>) -> (Outcome, BySide<Points>) {
    let pos = f.end_position(b);
    let (farms, bridge) = f.objectives();
    let (points, verdict) = b.final_points(&pos, &farms, bridge);
    let left = crate::field::in_play(b);
    let reason = if left.union == 0 || left.confederate == 0 {
        EndReason::Annihilation
    } else {
        EndReason::TurnLimit
    };
    let result = match verdict {
        crate::victory::Verdict::Won(s) => GameResult::Winner(s),
        crate::victory::Verdict::Draw => GameResult::Draw,
    };
    log.push(Event::Ended {
        points,
        result,
        reason,
    });
    let t = b.turns();
    (
        Outcome {
            result,
            reason,
            turn: t.union.max(t.confederate),
        },
        points,
    )
}

/// What a unit's order changed besides the battle: a melee's attacker, a unit's new place.
#[derive(Default)]
struct Applied {
    attacker: Option<UnitId>,
    place: Option<(UnitId, Place)>,
    smoke: Option<(UnitId, acw_core::table::Footprint)>,
}

/// D8-ENV-06: the smoke marker a volley lays: the firer's second volley running from its spot (its smoke now
/// hangs; it could not have fired with smoke already hanging).
fn laid_smoke(b: &Battle, f: &Field, u: &Unit) -> Applied {
    Applied {
        smoke: b
            .smoke_hangs(u.id)
            .then(|| f.footprint(u).map(|fp| (u.id, Field::smoke_marker(&fp))))
            .flatten(),
        ..Applied::default()
    }
}

/// Applies a unit's order: facts measured on the field (or, for a move or volley, those `measured` by the check
/// that accepted it), then the one rules call that rolls and applies it.
#[allow(clippy::too_many_arguments)]
fn unit_order(
    b: &mut Battle,
    f: &Field,
    attacked: &[UnitId],
    order: &Order,
    measured: Option<Measured>,
    dice: &mut dyn Dice,
    log: &mut Vec<Event>,
    record: bool,
) -> Result<Applied, GameError> {
    let unit_of = |b: &Battle, id: UnitId| live(b, id).cloned();
    match *order {
        Order::Sharpshooters(_) => Err(GameError::NotNow(
            "the sharpshooters were chosen at the muster".into(),
        )),
        Order::EndPhase => Err(GameError::NotNow("the phase ends on its own order".into())),
        Order::Move { unit, x_cm, y_cm } => {
            let u = unit_of(b, unit)?;
            let MovePlan {
                facts,
                from,
                dest,
                through_formed,
                through_skirmishers,
            } = match measured {
                Some(Measured::Move(plan)) => plan,
                _ => plan_move(b, f, &u, x_cm, y_cm)?,
            };
            let ff_before = u.ff.is_some();
            let lost = b.move_unit(unit, &facts, dice)?;
            if let Some(o) = through_formed {
                b.passed_through(o, u.formation == Formation::Skirmish)?;
            }
            if let Some(o) = through_skirmishers {
                b.passed_through(o, false)?;
            }
            let sq = |p: Point| crate::field::square_at(p).map_or(0, |s| s.number());
            if record {
                log.push(Event::Moved {
                    unit: name(&u),
                    distance_cm: facts.distance_cm,
                    from: sq(from.centre),
                    to: sq(dest.centre),
                    lost,
                    ff: !ff_before && b.unit(unit).is_ok_and(|x| x.ff.is_some()),
                });
            }
            Ok(Applied {
                attacker: None,
                smoke: None,
                place: Some((unit, dest)),
            })
        }
        Order::Charge { unit, target } => {
            let u = unit_of(b, unit)?;
            let t = unit_of(b, target)?;
            let (facts, placed) = plan_charge(b, f, &u, &t)?;
            let distance = facts.distance_cm;
            b.charge(unit, target, &facts)?;
            if record {
                log.push(Event::Charged {
                    unit: name(&u),
                    target: name(&t),
                    distance_cm: distance,
                });
            }
            Ok(Applied {
                attacker: None,
                smoke: None,
                place: Some((
                    unit,
                    Place {
                        centre: placed.centre,
                        facing: placed.facing,
                    },
                )),
            })
        }
        Order::Formation { unit, to } => {
            let u = unit_of(b, unit)?;
            b.change_formation(unit, to)?;
            if record {
                log.push(Event::Changed {
                    unit: name(&u),
                    what: format!("forms {to}"),
                });
            }
            Ok(Applied::default())
        }
        Order::Limber { unit, limbered } => {
            let u = unit_of(b, unit)?;
            b.set_limbered(unit, limbered)?;
            if record {
                log.push(Event::Changed {
                    unit: name(&u),
                    what: if limbered { "limbers up" } else { "unlimbers" }.into(),
                });
            }
            Ok(Applied::default())
        }
        Order::Mount { unit, mounted } => {
            let u = unit_of(b, unit)?;
            b.set_mounted(unit, mounted)?;
            if record {
                log.push(Event::Changed {
                    unit: name(&u),
                    what: if mounted { "mounts" } else { "dismounts" }.into(),
                });
            }
            Ok(Applied::default())
        }
        Order::Realign { unit, towards } => {
            let u = unit_of(b, unit)?;
            let t = unit_of(b, towards)?;
            let (Some(from), Some(to)) = (f.place(unit), f.place(towards)) else {
                return Err(GameError::Table("the units are not placed".into()));
            };
            b.realign(unit)?;
            if record {
                log.push(Event::Changed {
                    unit: name(&u),
                    what: format!("turns its gun to face the {}", name(&t)),
                });
            }
            Ok(Applied {
                attacker: None,
                smoke: None,
                place: Some((
                    unit,
                    Place {
                        centre: from.centre,
                        facing: from.centre.heading_to(to.centre),
                    },
                )),
            })
        }
        Order::Boat { unit, boat } => {
            let u = unit_of(b, unit)?;
            let from = f
                .place(unit)
                .ok_or_else(|| GameError::Table("the unit is not placed".into()))?;
            let mut to = from;
            if boat.is_some() {
                let at = f.along_river(from.centre, BANK_CM).ok_or_else(|| {
                    GameError::Table(format!(
                        "the {} is not at the river (its centre must be within {BANK_CM} cm of it)",
                        name(&u)
                    ))
                })?;
                to.centre = f.river_point(at);
            }
            b.boat(unit, boat, dice)?;
            if record {
                log.push(Event::Changed {
                    unit: name(&u),
                    what: match boat {
                        Some(k) => format!("gets into a {k}"),
                        None => "gets out of its boat".into(),
                    },
                });
            }
            Ok(Applied {
                attacker: None,
                smoke: None,
                place: Some((unit, to)),
            })
        }
        Order::Row { unit, x_cm, y_cm } => {
            let u = unit_of(b, unit)?;
            crate::error::length("a destination's x", x_cm)
                .and_then(|_| crate::error::length("a destination's y", y_cm))
                .map_err(Refusal::from)?;
            let from = f
                .place(unit)
                .ok_or_else(|| GameError::Table("the unit is not placed".into()))?;
            let dest = crate::field::at_cm(x_cm, y_cm);
            let on_river = |p: Point| f.along_river(p, ON_RIVER_CM);
            let (Some(a), Some(z)) = (on_river(from.centre), on_river(dest)) else {
                return Err(GameError::Table(format!(
                    "a boat goes along the river: the {} and its destination must both be on it",
                    name(&u)
                )));
            };
            let downstream = (z > a) == f.downstream_is_finish();
            let distance = (z - a).abs();
            b.row(unit, downstream, distance)?;
            if record {
                log.push(Event::Changed {
                    unit: name(&u),
                    what: format!(
                        "is rowed {distance:.2} cm {}",
                        if downstream { "downstream" } else { "upstream" }
                    ),
                });
            }
            Ok(Applied {
                attacker: None,
                smoke: None,
                place: Some((
                    unit,
                    Place {
                        centre: f.river_point(z),
                        facing: from.facing,
                    },
                )),
            })
        }
        Order::Building { unit, figures } => {
            let u = unit_of(b, unit)?;
            if figures > 0 {
                let fp = f
                    .footprint(&u)
                    .ok_or_else(|| GameError::Table("the unit is not placed".into()))?;
                if f.building_beside(&fp).is_none() {
                    return Err(GameError::Table(format!(
                        "the {} is not beside a farmhouse",
                        name(&u)
                    )));
                }
            }
            b.occupy_building(unit, figures)?;
            if record {
                log.push(Event::Changed {
                    unit: name(&u),
                    what: if figures == 0 {
                        "comes out of the farmhouse".into()
                    } else {
                        format!("puts {figures} figure(s) into the farmhouse")
                    },
                });
            }
            Ok(Applied::default())
        }
        Order::FireAtOfficer { unit, officer } => {
            let u = unit_of(b, unit)?;
            let facts = officer_fire_facts(b, f, &u, officer)?;
            let target = b
                .officer(officer)
                .map(|o| o.to_string().trim_start_matches("the ").to_string())
                .map_err(Refusal::from)?;
            volley(
                b,
                &u,
                Target::Officer(officer),
                target,
                &facts,
                None,
                dice,
                log,
            )?;
            Ok(laid_smoke(b, f, &u))
        }
        Order::Fire { unit, target } => {
            let u = unit_of(b, unit)?;
            let t = unit_of(b, target)?;
            let (facts, plan) = match measured {
                Some(Measured::Fire(facts, plan)) => (facts, Some(plan)),
                _ => (fire_facts(b, f, &u, &t)?, None),
            };
            volley(
                b,
                &u,
                Target::Unit(target),
                name(&t),
                &facts,
                plan,
                dice,
                log,
            )?;
            Ok(laid_smoke(b, f, &u))
        }
        Order::Melee { attacker, defender } => {
            fight(b, f, attacked, attacker, defender, dice, log)?;
            Ok(Applied {
                attacker: Some(attacker),
                ..Applied::default()
            })
        }
    }
}

/// A move as measured on the table, before the rules judge it.
struct MovePlan {
    facts: MoveFacts,
    from: Place,
    dest: Place,
    through_formed: Option<UnitId>,
    through_skirmishers: Option<UnitId>,
}

/// D8-MOV-02, D8-MOV-06 to D8-MOV-09: measures a unit's move to (x, y) cm on the table: its distance, the road,
/// the ground and river it crosses, the units it passes over, whether it goes towards the enemy; refused if it
/// would leave the table or end in contact.
fn plan_move(b: &Battle, f: &Field, u: &Unit, x_cm: f64, y_cm: f64) -> Result<MovePlan, GameError> {
    let unit = u.id;
    crate::error::length("a destination's x", x_cm)
        .and_then(|_| crate::error::length("a destination's y", y_cm))
        .map_err(Refusal::from)?;
    let from = f
        .place(unit)
        .ok_or_else(|| GameError::Table("the unit is not placed".into()))?;
    let dest = Place {
        centre: crate::field::at_cm(x_cm, y_cm),
        facing: from.facing,
    };
    let fp = Field::footprint_at(u, dest);
    if !f.on_table(&fp) {
        return Err(GameError::Table(format!(
            "the {} would stand off the table",
            name(u)
        )));
    }
    let mut through_formed = None;
    let mut through_skirmishers = None;
    let half = |x: &Unit| {
        let (w, d) = crate::field::size_cm(x);
        crate::field::span(w, d) / 2.0
    };
    let half_u = half(u);
    // The box of the move's line: a friend whose centre lies farther outside it than half its diagonal (with
    // a margin far above rounding) is not near the line (`near_segment`).
    let (a, z) = (from.centre, dest.centre);
    let (lo, hi) = ((a.x.min(z.x), a.y.min(z.y)), (a.x.max(z.x), a.y.max(z.y)));
    for o in b.units().iter().filter(|o| !o.removed && o.id != unit) {
        let Some(op) = f.place(o.id) else { continue };
        let apart_cm = cm(crate::field::apart(dest.centre, op.centre));
        // Its size is worked out only for a unit that could be near enough to touch the destination (by half
        // its diagonal's bound from its figures, `half_diagonal_at_most`), or a friend whose centre lies within
        // that bound of the move's box: any other has `bound` at least `GAP_CM` and lies outside the box below.
        let most = crate::field::half_diagonal_at_most(o);
        if apart_cm - half_u - most >= GAP_CM + 1e-6 {
            if o.side != u.side {
                continue;
            }
            let (c, r) = (op.centre, crate::field::inches(most) + 1e-6);
            if c.x < lo.0 - r || c.x > hi.0 + r || c.y < lo.1 - r || c.y > hi.1 + r {
                continue;
            }
        }
        // The footprint is built only for a unit near enough to touch the destination, or a friend the move
        // could pass through: the same footprint `Field::footprint` gives.
        let half_o = half(o);
        let bound = apart_cm - half_u - half_o;
        // Measured exactly only when the footprints' bounds (`Footprint::distance_bounds`, in cm) leave it open.
        if bound < GAP_CM && {
            let of = Field::footprint_at(o, op);
            let (least, most) = fp.distance_bounds(&of);
            let (least, most) = (cm(least), cm(most));
            least <= GAP_CM + 1e-6 && (most < GAP_CM - 1e-6 || cm(fp.distance(&of).0) < GAP_CM)
        } {
            return Err(GameError::Table(format!(
                "the {} would end in contact with the {}; only a charge makes contact",
                name(u),
                name(o)
            )));
        }
        if o.side != u.side {
            continue;
        }
        let (c, r) = (op.centre, crate::field::inches(half_o) + 1e-6);
        if c.x < lo.0 - r || c.x > hi.0 + r || c.y < lo.1 - r || c.y > hi.1 + r {
            continue;
        }
        let of = Field::footprint_at(o, op);
        if crate::field::near_segment(&of, from.centre, dest.centre)
            && of.blocks(from.centre, dest.centre)
        {
            if o.formation == Formation::Skirmish {
                through_skirmishers = Some(o.id);
            } else {
                through_formed = Some(o.id);
            }
        }
    }
    let towards = towards_base_line(u.side, from.centre, dest.centre);
    let (crossed, at_crossing) = f.crossed(from.centre, dest.centre);
    let facts = MoveFacts {
        distance_cm: cm(from.centre.distance(dest.centre).0),
        in_column: u.formation == Formation::Column,
        on_road: f.along_road(from.centre, dest.centre),
        towards_base_line: towards,
        // Only a unit out of influence is asked whether it moves nearer the enemy (D8-CMD-04), so only
        // its move is measured for it.
        nearer_enemy: !u.in_influence && {
            // The enemies' centres and half-diagonals, gathered once for both places (on the stack for up to
            // 64 units).
            let units = b.units();
            let (mut stack, mut heap) = ([(Point::new(0.0, 0.0), 0.0, 0u32); 64], Vec::new());
            let slots: &mut [(Point, f64, u32)] = if units.len() <= stack.len() {
                &mut stack[..units.len()]
            } else {
                heap.resize(units.len(), (Point::new(0.0, 0.0), 0.0, 0u32));
                &mut heap
            };
            let mut n = 0;
            for (i, o) in units.iter().enumerate() {
                if o.removed || o.side == u.side {
                    continue;
                }
                let Some(o) = f.footprint(o) else { continue };
                slots[n] = (
                    o.centre,
                    crate::field::span(o.frontage.0, o.depth.0) / 2.0,
                    i as u32,
                );
                n += 1;
            }
            let enemies = &slots[..n];
            let now = nearest_enemy(f, units, enemies, u, from, f64::INFINITY);
            nearest_enemy(f, units, enemies, u, dest, now) < now
        },
        into_contact: false,
        crossed,
        building: false,
        through_formed: through_formed.is_some(),
        // Skirmishers passing through a formed unit, or a formed unit through skirmishers (D8-MOV-08).
        through_skirmishers: (through_skirmishers.is_some() && u.formation != Formation::Skirmish)
            || (through_formed.is_some() && u.formation == Formation::Skirmish),
        at_crossing,
    };
    Ok(MovePlan {
        facts,
        from,
        dest,
        through_formed,
        through_skirmishers,
    })
}

/// D8-CMD-04: whether a move of a unit of `side` from `from` to `to` goes towards the enemy's base line.
fn towards_base_line(side: Side, from: Point, to: Point) -> bool {
    match side {
        Side::Union => to.y < from.y,
        Side::Confederate => to.y > from.y,
    }
}

/// The nearest enemy's distance from a place `p` of `u`, or (with `beat`) only whether some enemy is nearer than
/// `beat`: exact, measured only for the enemies whose cheap lower bound (centre distance less the
/// half-diagonals) could beat the best so far. `enemies` holds each enemy's centre, half-diagonal and index in
/// `units`. They are taken in order of bound, ties in the list's order (as a stable sort would put them), the
/// least left picked each time: the few taken before the search stops are all that are ordered.
fn nearest_enemy(
    f: &Field,
    units: &[Unit],
    enemies: &[(Point, f64, u32)],
    u: &Unit,
    p: Place,
    beat: f64,
) -> f64 {
    let me = Field::footprint_at(u, p);
    let half_me = crate::field::span(me.frontage.0, me.depth.0) / 2.0;
    let (mut stack, mut heap) = ([(0.0, false); 64], Vec::new());
    let bounds: &mut [(f64, bool)] = if enemies.len() <= stack.len() {
        &mut stack[..enemies.len()]
    } else {
        heap.resize(enemies.len(), (0.0, false));
        &mut heap
    };
    for (slot, &(centre, half, _)) in bounds.iter_mut().zip(enemies) {
        *slot = (
            crate::field::apart(me.centre, centre) - half_me - half,
            false,
        );
    }
    let mut best = f64::INFINITY;
    loop {
        let mut pick: Option<(usize, f64)> = None;
        for (j, &(bound, taken)) in bounds.iter().enumerate() {
            if !taken && pick.is_none_or(|(_, least)| bound.total_cmp(&least).is_lt()) {
                pick = Some((j, bound));
            }
        }
        let Some((j, bound)) = pick else { break };
        bounds[j].1 = true;
        if bound > best || bound >= beat {
            break;
        }
        let Some(o) = f.footprint(&units[enemies[j].2 as usize]) else {
            continue;
        };
        best = best.min(me.distance(&o).0);
        if best < beat {
            break;
        }
    }
    best
}

/// D8-MOV-20 to D8-MOV-22: measures a charge on the table: the distance base edge to base edge, whether the
/// path crosses anything but open ground, the target's cover, and where the charger ends, in contact; refused if
/// that is off the table.
fn plan_charge(
    b: &Battle,
    f: &Field,
    u: &Unit,
    t: &Unit,
) -> Result<(ChargeFacts, acw_core::table::Footprint), GameError> {
    let (facts, uf, tf) = charge_facts(b, f, u, t)?;
    let placed = uf.placed_in_contact(&tf);
    if !f.on_table(&placed) {
        return Err(GameError::Table(OFF_TABLE_CHARGE.into()));
    }
    Ok((facts, placed))
}

/// Why a charge that would end off the table is refused.
const OFF_TABLE_CHARGE: &str = "the charge would leave the table";

/// [`plan_charge`]'s facts, with the charger's and the target's footprints.
fn charge_facts(
    b: &Battle,
    f: &Field,
    u: &Unit,
    t: &Unit,
) -> Result<
    (
        ChargeFacts,
        acw_core::table::Footprint,
        acw_core::table::Footprint,
    ),
    GameError,
> {
    let (Some(uf), Some(tf)) = (f.footprint(u), f.footprint(t)) else {
        return Err(GameError::Table("the units are not placed".into()));
    };
    let distance = cm(uf.distance(&tf).0);
    let facts = ChargeFacts {
        distance_cm: distance,
        path_open: f.path_open(crate::field::front_centre(&uf), tf.centre),
        target_in_cover: f.cover_at(tf.centre, b.options().broken_ground_soft) != Cover::Open,
        in_contact_order: u.formation != Formation::Skirmish,
    };
    Ok((facts, uf, tf))
}

/// One volley: planned (for its exact odds), rolled and applied by the rules, and logged.
#[allow(clippy::too_many_arguments)]
fn volley(
    b: &mut Battle,
    u: &Unit,
    target: Target,
    target_name: String,
    facts: &FireFacts,
    plan: Option<crate::state::FirePlan>,
    dice: &mut dyn Dice,
    log: &mut Vec<Event>,
) -> Result<(), GameError> {
    // The volley as planned comes back with the report (planning it first as well measured it twice); a plan
    // the check made on this state is fired as it is.
    let report = match plan {
        Some(plan) => b.fire_planned(u.id, plan, dice)?,
        None => {
            let r = b.fire(u.id, target, facts, dice)?;
            crate::state::Fired {
                hits: r.hits,
                casualties: r.casualties,
                officer_killed: r.officer_killed,
                volley: r.volley,
            }
        }
    };
    let volley = report.volley;
    let chance = volley.p_casualties(report.casualties);
    log.push(Event::Fired {
        unit: name(u),
        target: target_name,
        short: (volley.short.dice, volley.short.need),
        long: (volley.long.dice, volley.long.need),
        save: volley.save,
        cover: facts.target_cover,
        hits: report.hits,
        casualties: report.casualties,
        chance,
        officer_killed: report.officer_killed,
    });
    Ok(())
}

/// D8-CMD-09: a volley at a lone officer measured on the table: his figure (a base at his point) is the target;
/// he is screened when the line from the firer's front to him crosses any other unit's footprint (he stands
/// behind it as the firer sees him); sight and cover as for a unit.
fn officer_fire_facts(
    b: &Battle,
    f: &Field,
    u: &Unit,
    officer: OfficerId,
) -> Result<FireFacts, GameError> {
    let o = b.officer(officer).map_err(Refusal::from)?;
    let (Some(uf), Some(at)) = (f.footprint(u), f.officer_at(officer)) else {
        return Err(GameError::Table(
            "the firer or the officer is not placed".into(),
        ));
    };
    let (w, d) = if o.mounted { (2.5, 5.0) } else { (1.25, 2.0) };
    let figure = acw_core::table::Footprint {
        centre: at,
        facing: uf.centre.heading_to(at),
        frontage: Inches(inches(w)),
        depth: Inches(inches(d)),
    };
    let (ds, bearing) = f.fire_distances(u, &uf, &figure);
    let from = crate::field::front_centre(&uf);
    let mut facts = FireFacts {
        figures: ds.len().min(24),
        bearing_degrees: bearing,
        sight_blocked: f.smoke(b).any(|(_, m)| m.blocks(from, at))
            || f.sight_blocked(from, at, &[]),
        firer_deep_in_wood: f.deep_in_wood(uf.centre),
        target_deep_in_wood: f.deep_in_wood(at),
        target_cover: f.cover_at(at, b.options().broken_ground_soft),
        officer_screened: f.unit_across(b, &[u.id], from, at).is_some(),
        crew_at_gun: u.figures,
        ..FireFacts::default()
    };
    for (slot, d) in facts.distances_cm.iter_mut().zip(ds) {
        *slot = d;
    }
    if facts.figures == 0 {
        return Err(Refusal::CannotFire {
            unit: u.label(),
            why: "no figure has the officer in its arc".into(),
        }
        .into());
    }
    Ok(facts)
}

/// D8-FIR-03, D8-FIR-05, D8-FIR-12, D8-ENV-01: a volley's facts measured on the table.
fn fire_facts(b: &Battle, f: &Field, u: &Unit, t: &Unit) -> Result<FireFacts, GameError> {
    let (Some(uf), Some(tf)) = (f.footprint(u), f.footprint(t)) else {
        return Err(GameError::Table("the units are not placed".into()));
    };
    let (ds, bearing) = f.fire_distances(u, &uf, &tf);
    if ds.is_empty() {
        return Err(Refusal::CannotFire {
            unit: u.label(),
            why: "no figure has the target in its arc".into(),
        }
        .into());
    }
    // Sight is measured only when some figure has the target within its weapon's reach: otherwise the rules
    // refuse the volley as out of range (or for an earlier reason) whatever lies between.
    let in_reach = ds
        .iter()
        .any(|&d| crate::fire::band(u.weapon, d, b.options()).is_some());
    let sight_blocked = in_reach && {
        let (from, to) = (crate::field::front_centre(&uf), tf.centre);
        // The units and smoke between first (cheap), the terrain only if they leave the line clear.
        f.unit_across(b, &[u.id, t.id], from, to).is_some()
            || f.smoke(b).any(|(_, m)| m.blocks(from, to))
            || f.sight_blocked(from, to, &[])
    };
    volley_facts(
        b,
        f,
        u,
        t,
        (&uf, &tf),
        ds.into_iter(),
        bearing,
        sight_blocked,
        None,
    )
}

/// [`fire_facts`] from what is already measured: the two footprints, each firing figure's distance (at least
/// one), the bearing, whether the sight is blocked, and whether the firer and the target stand deep in a wood
/// when that is known (measured here otherwise).
#[allow(clippy::too_many_arguments)]
fn volley_facts(
    b: &Battle,
    f: &Field,
    u: &Unit,
    t: &Unit,
    (uf, tf): (&acw_core::table::Footprint, &acw_core::table::Footprint),
    ds: impl Iterator<Item = f64>,
    bearing: f64,
    sight_blocked: bool,
    deep: Option<(bool, bool)>,
) -> Result<FireFacts, GameError> {
    let (firer_deep_in_wood, target_deep_in_wood) =
        deep.unwrap_or_else(|| (f.deep_in_wood(uf.centre), f.deep_in_wood(tf.centre)));
    let mut facts = FireFacts {
        figures: 0,
        bearing_degrees: bearing,
        sight_blocked,
        firer_deep_in_wood,
        target_deep_in_wood,
        target_cover: if inside(t) {
            Cover::Hard
        } else {
            f.cover_at(tf.centre, b.options().broken_ground_soft)
        },
        officer_screened: false,
        crew_at_gun: u.figures,
        ..FireFacts::default()
    };
    // Every figure counted, the first 24 kept.
    let mut n = 0;
    for d in ds {
        if let Some(slot) = facts.distances_cm.get_mut(n) {
            *slot = d;
        }
        n += 1;
    }
    facts.figures = n.min(24);
    if facts.figures == 0 {
        return Err(Refusal::CannotFire {
            unit: u.label(),
            why: "no figure has the target in its arc".into(),
        }
        .into());
    }
    Ok(facts)
}

fn fault(dice: &dyn Dice) -> Result<(), GameError> {
    match dice.fault() {
        Some(e) => Err(Refusal::Input(D8Error::Dice(e.to_string())).into()),
        None => Ok(()),
    }
}

impl Ruleset for D8 {
    type Scenario = Scenario;
    type State = State;
    type Order = Order;
    type Event = Event;
    type Question = Question;
    type SetupError = SetupError;
    type RuleError = GameError;

    fn setup(&self, scenario: &Scenario, seed: u64) -> Result<State, SetupError> {
        State::new(scenario, seed).map(|(s, _)| s)
    }

    /// The side mustering, or the active side in its Movement, Firing and Melee phases.
    fn owed(&self, state: &State) -> Option<Decision<Question>> {
        state.decision()
    }

    /// Applies the order atomically: a unit's order is one rules call that rolls everything, checks the dice
    /// and only then applies (the field is moved after it is accepted); an order that makes several rules calls
    /// (the end of a phase, a muster) works on a copy of the battle and commits it when every call was accepted
    /// and every face given. A refused order changes nothing.
    fn apply_with(
        &self,
        state: &mut State,
        order: &Order,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        fault(dice)?;
        let mut events = Vec::new();
        state.apply(order, dice, &mut events)?;
        log.extend(events);
        Ok(())
    }

    fn rng_mut<'s>(&self, state: &'s mut State) -> &'s mut GameRng {
        &mut state.rng
    }

    fn outcome(&self, state: &State) -> Option<Outcome> {
        state.end.map(|(o, _)| o)
    }

    /// Figures lost: killed, and the figures of units removed.
    fn losses(&self, state: &State) -> BySide<u32> {
        let mut l = BySide::new(0, 0);
        if let Some(b) = &state.battle {
            // A flank force still marching or cancelled is not lost (D8-OPT-04).
            for u in b.units().iter().filter(|u| u.away.is_none()) {
                *l.get_mut(u.side) += if u.removed {
                    u.original
                } else {
                    u.original - u.figures
                };
            }
        }
        l
    }
}
