//! The game layer: Hardtack as a whole game behind acw-core's [`Ruleset`].
//!
//! The [`State`] is the rules' [`Battle`], a [`Field`] that measures ranges, cover, line of sight and arcs from
//! company footprints on acw-core's [`Table`] (1" = 10 yards, HT-GEN-04), and the game's own [`GameRng`].
//!
//! The turn runs as Stargrunt II runs it (HT-SG2-03): the side that chooses decides who activates first; the
//! sides then alternate activating one company for two actions (HT-SG2-04), a side with fewer companies
//! waiting may pass, and when every company has acted the turn ends. An [`Order`] is one activation, one
//! action, or one decision. A close assault pauses for the defender (HT-SG2-36): [`Ruleset::owed`] names the
//! defending side, which answers with [`Order::Defend`] before the attacker's combat move is rolled. An
//! attacker that stops short of contact owes its side's choice (HT-SG2-37, HT-MEL-07): one still short after
//! its second combat move stays mid-dash or aborts ([`Question::MidDash`]), and one that faltered under final
//! defensive fire or aborted withdraws to the nearest cover or to its start point ([`Question::FallBack`]).
//! The loser of a melee falls back the way its side chooses, whatever level it is left at (HT-SG2-40).
//!
//! A company the rules leave no choice is moved by the engine when its side activates it (HT-SG2-17,
//! HT-MOV-08): a Routed company runs toward its own baseline with both actions, and surrenders or disperses
//! when every way back closes on the enemy (HT-SG2-48); a Broken company in the open makes for the nearest
//! cover, and acts as its side chooses once there.
//!
//! Victory (HT-SG2-51, HT-VIC-01: Hardtack adds none): the primary objective is to break the enemy — a side
//! with half or more of its companies Broken, Routed or without a fit figure has lost; at the turn limit the
//! secondary objective decides: the side with more fit figures in the wood wins, else neither.
use crate::artillery::{Landing, ShotRange};
use crate::error::RuleViolation;
use crate::fire::Cover;
use crate::ladder::Success;
use crate::morale::Confidence;
use crate::movement::MoveResult;
use crate::options::Options;
use crate::setup::Going;
use crate::state::{
    Ammunition, Battle, CanisterFacts, CompanyId, CompanySpec, DefenderChoice, DummyId, FigureRef,
    FireFacts, FireReport, Formation, GunId, MoveOrder, RollMade, ShortOfContact, ShotImpactFacts,
    UnhorsedChoice,
};
use crate::tables::{ConfidenceLevel, FieldPiece};
use acw_core::Resolve;
use acw_core::dice::DiceError;
use acw_core::game::{Decision, EndReason, GameResult, Outcome, Ruleset};
use acw_core::luck::LuckyRoll;
use acw_core::measure::{Heading, Inches, Point};
use acw_core::table::{Footprint, Table, TableError, Terrain};
use acw_core::{BySide, Dice, Die, GameRng, Side};
use std::fmt;
use thiserror::Error;

/// Depth of a company's footprint, in inches.
const DEPTH: f64 = 1.0;

/// How far behind a fence a company stands to use it as cover, in inches (HT-SG2-13).
const BEHIND: f64 = 2.0;

/// The front arc's spread either side of the front edge, in degrees (HT-FIR-21).
const ARC: f64 = 45.0;

/// The frontage of a gun crew's footprint, in inches: the gun and the men about it.
const GUN_FRONTAGE: f64 = 2.0;

/// Half the width of a round shot's damage area and of a canister blast line, in inches (HT-ART-07,
/// HT-ART-16).
const HALF_LINE: f64 = 0.25;

/// The length of a round shot's damage area, in inches (HT-ART-07).
const SHOT_AREA: f64 = 2.0;

/// How near two companies count as touching, in inches: no move brings a company nearer another than half
/// an inch (only a close assault closes to contact), so a second line as close behind the first as a move lets
/// it stand touches it (HT-FIR-22).
const TOUCHING: f64 = 0.5;

/// The side of a dummy counter's square footprint, in inches (HT-SG2-25).
const COUNTER: f64 = 1.0;

/// A company placed on the table at the start.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Deployed {
    /// What the company is.
    pub spec: CompanySpec,
    /// The centre of its footprint.
    pub at: Point,
}

/// A gun placed on the table at the start, served by one of the scenario's companies as its crew
/// (HT-SET-05). The gun stands at the centre of its crew's footprint and faces as the crew faces; a crew's
/// footprint is 2" wide (a gun and the men about it), whatever its formation.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DeployedGun {
    /// Its name.
    pub name: String,
    /// The piece (HT-ART-15).
    pub piece: FieldPiece,
    /// Rifled (for Rifled Artillery Bounces, HT-OPT-02).
    pub rifled: bool,
    /// The crew: an index into [`Scenario::companies`].
    pub crew: usize,
    /// Where its detached team of horses stands (the centre of a 2" × 1" footprint facing as the crew faces),
    /// for a gun that starts unlimbered with its team on the table (HT-ART-22); `None` leaves the team off the
    /// table, where nothing can fire at it.
    #[cfg_attr(feature = "serde", serde(default))]
    pub team: Option<Point>,
}

/// A dummy counter placed on the table at the start (HT-SG2-25): a side that deploys hidden companies may put
/// dummies among them. It stands on a 1" × 1" footprint, blocks neither movement nor sight, and is taken off
/// the table once an enemy observes it, sees it in the open or fires a major result at it.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DeployedDummy {
    /// The side that deploys it.
    pub side: Side,
    /// The centre of the counter.
    pub at: Point,
}

/// A regiment's colonel placed on the table at the start: a command figure, raised in the battle as a company
/// of one figure in skirmish order (the colonel and his staff). He gives the regiment's orders: Activate
/// Regiment (HT-SEQ-03) for its companies within 6" of him, transfers of actions to any unit of his side within
/// 6" (HT-CMD-01), rallies; he does not fire, reorganise or assault. Distances to him are measured from his
/// centre to a unit's centre (HT-GEN-04).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DeployedColonel {
    /// His name, used in everything a person reads.
    pub name: String,
    /// His side.
    pub side: Side,
    /// His regiment: the companies of his side whose [`CompanySpec::regiment`] it is.
    pub regiment: u32,
    /// The centre of his footprint (2" × 1", facing as his side faces).
    pub at: Point,
}

/// Forces, terrain and turn limit of a Hardtack game.
///
/// Loaded from JSON through the same checks as [`State::new`] ([`Scenario::check`]): a scenario the game could
/// not set up is refused with its [`GameSetupError`], as is a field the scenario does not have.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "ScenarioData", into = "ScenarioData")
)]
pub struct Scenario {
    /// Its name.
    pub name: String,
    /// Turns before the game is decided on what is left (1 to 50).
    pub turns: u32,
    /// The table and its terrain.
    pub table: Table,
    /// Every company, both sides.
    pub companies: Vec<Deployed>,
    /// The guns, each served by one of the companies (at most one gun a crew).
    pub guns: Vec<DeployedGun>,
    /// Dummy counters, each deployed by a side that has a hidden company (HT-SG2-25).
    pub dummies: Vec<DeployedDummy>,
    /// The regiments' colonels, at most one a regiment, each of a regiment with companies on his side.
    pub colonels: Vec<DeployedColonel>,
    /// The rules' options in force.
    pub options: Options,
}

impl Scenario {
    /// The default scenario: a Union regiment of four companies in line against a Confederate one, each with
    /// its colonel 2" behind the middle of its line (within 6" of the two middle companies' centres), a company
    /// of skirmishers ahead and a gun on a flank (a Union 12lb Napoleon on the left, a Confederate 3"
    /// rifle on the left of its line, each with a crew of four), on a 48" × 36" table with a fence line across
    /// the middle and a wood on the Confederate right.
    ///
    /// # Errors
    /// None in practice; the terrain is checked like any other.
    pub fn meeting_at_the_fence() -> Result<Scenario, TableError> {
        let table = Table::new(
            Inches(48.0),
            Inches(36.0),
            vec![
                Terrain::fence(
                    "the rail fence",
                    vec![Point::new(4.0, 17.0), Point::new(44.0, 17.0)],
                )?,
                Terrain::woods(
                    "Miller's wood",
                    vec![
                        Point::new(28.0, 20.0),
                        Point::new(40.0, 20.0),
                        Point::new(40.0, 27.0),
                        Point::new(28.0, 27.0),
                    ],
                )?,
            ],
        )?;
        let mut companies = Vec::new();
        for (side, y, skirmish_y, names) in [
            (Side::Union, 6.0, 14.5, ["A", "B", "C", "D", "E"]),
            (Side::Confederate, 30.0, 19.0, ["F", "G", "H", "I", "K"]),
        ] {
            let regiment = if side == Side::Union { 1 } else { 2 };
            let title = if side == Side::Union {
                "19th Indiana"
            } else {
                "2nd Tennessee"
            };
            for (i, letter) in names.iter().enumerate().take(4) {
                let mut spec = CompanySpec::new(&format!("{title}, Company {letter}"), side, 8);
                spec.formation = Formation::Line;
                spec.regiment = Some(regiment);
                spec.colour_bearer = i == 1;
                companies.push(Deployed {
                    spec,
                    at: Point::new(8.0 + 11.0 * i as f64, y),
                });
            }
            let spec = CompanySpec::new(&format!("{title}, Company {}", names[4]), side, 6);
            companies.push(Deployed {
                spec,
                at: Point::new(24.0, skirmish_y),
            });
        }
        let mut guns = Vec::new();
        for (side, crew, at, team, gun, piece, rifled) in [
            (
                Side::Union,
                "Battery B, 4th U.S., first section",
                Point::new(1.5, 6.0),
                Point::new(1.5, 2.0),
                "Battery B's Napoleon",
                FieldPiece::Napoleon12lb,
                false,
            ),
            (
                Side::Confederate,
                "Rutledge's Battery, first section",
                Point::new(46.5, 30.0),
                Point::new(46.5, 34.0),
                "Rutledge's 3-inch rifle",
                FieldPiece::Rifle10lbOr3in,
                true,
            ),
        ] {
            guns.push(DeployedGun {
                name: gun.to_string(),
                piece,
                rifled,
                crew: companies.len(),
                team: Some(team),
            });
            companies.push(Deployed {
                spec: CompanySpec::new(crew, side, 4),
                at,
            });
        }
        Ok(Scenario {
            name: "Meeting at the fence".to_string(),
            turns: 10,
            table,
            companies,
            guns,
            // a meeting engagement: neither side deploys hidden, so neither has dummies (HT-SG2-25)
            dummies: Vec::new(),
            colonels: vec![
                DeployedColonel {
                    name: "Colonel Meredith, 19th Indiana".to_string(),
                    side: Side::Union,
                    regiment: 1,
                    at: Point::new(24.5, 4.0),
                },
                DeployedColonel {
                    name: "Colonel Forrest, 2nd Tennessee".to_string(),
                    side: Side::Confederate,
                    regiment: 2,
                    at: Point::new(24.5, 32.0),
                },
            ],
            options: Options::default(),
        })
    }
}

impl Scenario {
    /// Checks the scenario as the game sets it up, without playing it.
    ///
    /// # Errors
    /// A turn limit outside 1–50, a company the rules refuse, off the table or overlapping another, a side
    /// with none, or a colonel of a regiment with no company on his side or a second for one regiment.
    pub fn check(&self) -> Result<(), GameSetupError> {
        self.raise().map(|_| ())
    }

    /// The battle and the field (the companies', the teams' and the dummies' footprints), every check made.
    fn raise(&self) -> Result<(Battle, Field), GameSetupError> {
        if !(1..=50).contains(&self.turns) {
            return Err(GameSetupError::Turns(self.turns));
        }
        for side in [Side::Union, Side::Confederate] {
            if !self.companies.iter().any(|d| d.spec.side == side) {
                return Err(GameSetupError::NoCompany(side));
            }
        }
        let mut battle = Battle::new(self.options);
        let mut at: Vec<Footprint> = Vec::new();
        for (i, d) in self.companies.iter().enumerate() {
            let crew = self.guns.iter().any(|g| g.crew == i);
            let facing = Heading::degrees(if d.spec.side == Side::Union {
                0.0
            } else {
                180.0
            })
            .map_err(|_| GameSetupError::Inconsistent("bad heading".to_string()))?;
            let fp = Footprint::new(
                d.at,
                facing,
                Inches(if crew {
                    GUN_FRONTAGE
                } else {
                    frontage(d.spec.formation, d.spec.figures)
                }),
                Inches(DEPTH),
            )?;
            if !self.table.holds(&fp) {
                return Err(GameSetupError::OffTable(d.spec.name.clone()));
            }
            if let Some(i) = at.iter().position(|o| o.distance(&fp).0 <= 0.0) {
                return Err(GameSetupError::Overlap(
                    self.companies[i].spec.name.clone(),
                    d.spec.name.clone(),
                ));
            }
            battle.add_company(d.spec.clone())?;
            at.push(fp);
        }
        let mut colonels = Vec::new();
        for (k, c) in self.colonels.iter().enumerate() {
            let why = if !self
                .companies
                .iter()
                .any(|d| d.spec.side == c.side && d.spec.regiment == Some(c.regiment))
            {
                Some("his regiment has no company on his side")
            } else if self.colonels[..k]
                .iter()
                .any(|o| o.side == c.side && o.regiment == c.regiment)
            {
                Some("his regiment already has a colonel")
            } else {
                None
            };
            if let Some(why) = why {
                return Err(GameSetupError::Colonel {
                    colonel: c.name.clone(),
                    why,
                });
            }
            let facing = Heading::degrees(if c.side == Side::Union { 0.0 } else { 180.0 })
                .map_err(|_| GameSetupError::Inconsistent("bad heading".to_string()))?;
            let fp = Footprint::new(
                c.at,
                facing,
                Inches(frontage(Formation::Skirmish, 1)),
                Inches(DEPTH),
            )?;
            if !self.table.holds(&fp) {
                return Err(GameSetupError::OffTable(c.name.clone()));
            }
            if let Some(i) = at.iter().position(|o| o.distance(&fp).0 <= 0.0) {
                let other = self.companies.get(i).map_or_else(
                    || self.colonels[i - self.companies.len()].name.clone(),
                    |d| d.spec.name.clone(),
                );
                return Err(GameSetupError::Overlap(other, c.name.clone()));
            }
            let mut spec = CompanySpec::new(&c.name, c.side, 1);
            spec.regiment = Some(c.regiment);
            colonels.push((battle.add_company(spec)?, c.regiment));
            at.push(fp);
        }
        for (i, g) in self.guns.iter().enumerate() {
            let why = if g.crew >= self.companies.len() {
                Some("its crew is not among the companies")
            } else if self.guns[..i].iter().any(|o| o.crew == g.crew) {
                Some("its crew already serves another gun")
            } else {
                None
            };
            if let Some(why) = why {
                return Err(GameSetupError::Gun {
                    gun: g.name.clone(),
                    why,
                });
            }
            let crew = CompanyId(u32::try_from(g.crew).unwrap_or(u32::MAX));
            battle.add_gun(&g.name, g.piece, g.rifled, crew)?;
        }
        let mut field = Field {
            table: self.table.clone(),
            at,
            teams: Vec::new(),
            dummies: Vec::new(),
            colonels,
            fallen: Vec::new(),
        };
        for (i, g) in self.guns.iter().enumerate() {
            let Some(centre) = g.team else { continue };
            let facing = field.at[g.crew].facing;
            let fp = Footprint::new(centre, facing, Inches(GUN_FRONTAGE), Inches(DEPTH))?;
            let name = format!("the team of {}", g.name);
            field.place(&name, fp)?;
            field
                .teams
                .push((GunId(u32::try_from(i).unwrap_or(u32::MAX)), fp));
        }
        for d in &self.dummies {
            let id = battle.add_dummy(d.side)?;
            let facing = Heading::degrees(if d.side == Side::Union { 0.0 } else { 180.0 })
                .map_err(|_| GameSetupError::Inconsistent("bad heading".to_string()))?;
            let fp = Footprint::new(d.at, facing, Inches(COUNTER), Inches(COUNTER))?;
            field.place(&format!("the {} {id}", d.side), fp)?;
            field.dummies.push((id, fp));
        }
        Ok((battle, field))
    }
}

impl Default for Scenario {
    /// [`Scenario::meeting_at_the_fence`].
    ///
    /// # Panics
    /// Never: the scenario is fixed and passes its checks (a test holds it so).
    fn default() -> Scenario {
        Scenario::meeting_at_the_fence()
            .unwrap_or_else(|e| unreachable!("the default scenario is valid: {e}"))
    }
}

/// A scenario as written in JSON, checked by [`Scenario::check`] before it is used.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioData {
    name: String,
    turns: u32,
    table: Table,
    companies: Vec<Deployed>,
    #[serde(default)]
    guns: Vec<DeployedGun>,
    #[serde(default)]
    dummies: Vec<DeployedDummy>,
    #[serde(default)]
    colonels: Vec<DeployedColonel>,
    options: Options,
}

#[cfg(feature = "serde")]
impl From<Scenario> for ScenarioData {
    fn from(s: Scenario) -> ScenarioData {
        ScenarioData {
            name: s.name,
            turns: s.turns,
            table: s.table,
            companies: s.companies,
            guns: s.guns,
            dummies: s.dummies,
            colonels: s.colonels,
            options: s.options,
        }
    }
}

#[cfg(feature = "serde")]
impl TryFrom<ScenarioData> for Scenario {
    type Error = GameSetupError;

    fn try_from(d: ScenarioData) -> Result<Scenario, GameSetupError> {
        let scenario = Scenario {
            name: d.name,
            turns: d.turns,
            table: d.table,
            companies: d.companies,
            guns: d.guns,
            dummies: d.dummies,
            colonels: d.colonels,
            options: d.options,
        };
        scenario.check()?;
        Ok(scenario)
    }
}

/// Why a scenario cannot be set up, or a saved game loaded.
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum GameSetupError {
    /// A turn limit outside 1–50.
    #[error("a game lasts 1 to 50 turns, not {0}")]
    Turns(u32),
    /// A company the rules refuse.
    #[error("a company cannot be raised: {0}")]
    Company(#[from] RuleViolation),
    /// A footprint the table refuses.
    #[error("a company cannot be placed: {0}")]
    Table(#[from] TableError),
    /// A company not wholly on the table.
    #[error("{0} does not stand wholly on the table")]
    OffTable(String),
    /// Two companies overlapping.
    #[error("{0} and {1} stand on the same ground")]
    Overlap(String, String),
    /// A side with no company.
    #[error("the {0} side has no company")]
    NoCompany(Side),
    /// A gun's team or a dummy counter on the ground of a company, a team or another counter.
    #[error("{0} stands on ground already taken")]
    Crowded(String),
    /// A gun whose crew is not a company of the scenario, or serves another gun.
    #[error("{gun} cannot be placed: {why}")]
    Gun {
        /// The gun.
        gun: String,
        /// Why not.
        why: &'static str,
    },
    /// A colonel of a regiment with no company on his side, or a second colonel for one regiment.
    #[error("{colonel} cannot be placed: {why}")]
    Colonel {
        /// The colonel.
        colonel: String,
        /// Why not.
        why: &'static str,
    },
    /// A saved game that does not hold together.
    #[error("the saved game cannot be loaded: {0}")]
    Inconsistent(String),
}

/// Why an order is refused. A refused order changes nothing.
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum GameError {
    /// The rules refuse it.
    #[error(transparent)]
    Rules(#[from] RuleViolation),
    /// The order does not answer what is asked.
    #[error("that order does not answer the question: {0}")]
    NotAsked(Question),
    /// The game is over.
    #[error("the game is over")]
    Over,
    /// A company that may not be named here.
    #[error("{0}")]
    Company(String),
    /// A move the table refuses.
    #[error("{company} cannot move there: {why}")]
    Ground {
        /// The company.
        company: String,
        /// Why not.
        why: String,
    },
    /// No line of sight.
    #[error("{firer} cannot see {target}: something stands in the line of fire")]
    NoSight {
        /// The firer.
        firer: String,
        /// The target.
        target: String,
    },
    /// The dice source faulted.
    #[error("the dice gave no usable face: {0}")]
    Dice(DiceError),
}

/// What a side is asked.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Question {
    /// Which side activates first this turn (HT-SG2-03).
    WhoGoesFirst {
        /// The turn.
        turn: u32,
    },
    /// Which company activates next, or pass (HT-SG2-03).
    Activate {
        /// Whether passing is allowed.
        may_pass: bool,
    },
    /// Which company of the regiment activated now takes its action of this wave (HT-SEQ-04): every company
    /// takes its first action before any takes its second. Answered with [`Order::Activate`].
    Regiment {
        /// The colonel.
        colonel: String,
        /// The wave: 1 (first actions) or 2 (second actions).
        wave: u8,
    },
    /// The active company's next action (HT-SG2-04).
    Act {
        /// Its name.
        company: String,
        /// Actions left.
        actions: u8,
    },
    /// An enemy company is about to make its second move: does an unactivated company give reaction fire
    /// (HT-SG2-47)?
    React {
        /// The moving company.
        mover: String,
    },
    /// The defender's answer to a close assault (HT-SG2-36).
    Defend {
        /// The defending company.
        defender: String,
    },
    /// An attacker still short of contact after its second combat move (HT-SG2-37, HT-MEL-07): does it stay
    /// mid-dash ([`Order::StayMidDash`]) or abort as if it had faltered ([`Order::AbortAssault`])?
    MidDash {
        /// The attacking company.
        company: String,
        /// The company it assaulted.
        defender: String,
    },
    /// An attacker that faltered under final defensive fire, or aborted, withdraws (HT-SG2-37, HT-MEL-07): to
    /// the nearest cover or to its start point ([`Order::FallBack`])?
    FallBack {
        /// The attacking company.
        company: String,
        /// The company it assaulted.
        defender: String,
    },
    /// The active company, cavalry in close formation, has riders unhorsed (HT-FRM-06): does it reorganise
    /// into skirmish order, make them a detached element, or remove them as casualties
    /// ([`Order::Unhorsed`])?
    Unhorsed {
        /// The company.
        company: String,
        /// Its fit riders on foot.
        riders: usize,
    },
    /// A company that failed its stand test, withdrew before an assault or lost a melee withdraws 6"
    /// (HT-SG2-36, HT-SG2-40): which way, not closing on the company it falls back from?
    Withdraw {
        /// The withdrawing company.
        company: String,
        /// The company it withdraws from.
        from: String,
    },
}

impl fmt::Display for Question {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Question::WhoGoesFirst { turn } => {
                write!(f, "which side activates first in turn {turn}?")
            }
            Question::Activate { may_pass: true } => {
                f.write_str("which company activates next, or do you pass?")
            }
            Question::Activate { may_pass: false } => f.write_str("which company activates next?"),
            Question::Regiment { colonel, wave } => write!(
                f,
                "which company of {colonel}'s regiment takes its {} action now?",
                if *wave == 1 { "first" } else { "second" }
            ),
            Question::Act { company, actions } => match actions {
                1 => write!(f, "what does {company} do with its one action left?"),
                2 => write!(f, "what does {company} do with its two actions left?"),
                n => write!(f, "what does {company} do with its {n} actions left?"),
            },
            Question::React { mover } => write!(
                f,
                "{mover} is about to move again: does one of your companies that has not yet activated give reaction fire, spending its activation?"
            ),
            Question::Defend { defender } => write!(
                f,
                "{defender} is assaulted: does it stand (and fire at attackers who fall short) or withdraw?"
            ),
            Question::MidDash { company, defender } => write!(
                f,
                "{company} is still short of {defender} after its second combat move: does it stay mid-dash or abort the assault?"
            ),
            Question::FallBack { company, defender } => write!(
                f,
                "{company} falls back short of {defender}: to the nearest cover or to its start point?"
            ),
            Question::Unhorsed { company, riders } => write!(
                f,
                "{company} has {riders} {} on foot in its close formation: does it reorganise into skirmish order, make {} a detached element, or remove {} as casualties?",
                if *riders == 1 { "rider" } else { "riders" },
                if *riders == 1 { "him" } else { "them" },
                if *riders == 1 { "him" } else { "them" },
            ),
            Question::Withdraw { company, from } => write!(
                f,
                "{company} withdraws 6 inches from {from}: which way does it go, not closing on {from}?"
            ),
        }
    }
}

/// Where an attacker that stopped short of contact falls back to (HT-SG2-37, HT-MEL-07).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Retreat {
    /// The nearest cover within 6" that does not close on the defender ([`State::cover_for_fall_back`]).
    Cover,
    /// The point it started its assault from (where it stands on the table: the game does not move an
    /// attacker during its combat moves).
    StartPoint,
}

impl fmt::Display for Retreat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Retreat::Cover => "the nearest cover",
            Retreat::StartPoint => "its start point",
        })
    }
}

/// One decision of a side.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Order {
    /// Who activates first this turn.
    GoFirst(Side),
    /// Activate a company.
    Activate(CompanyId),
    /// Pass instead of activating.
    Pass,
    /// Activate Regiment (HT-SEQ-03, HT-SEQ-04, HT-FRM-07): the colonel of these companies' regiment activates
    /// and spends both his actions; the companies (two or more, not yet activated, in line or column, none
    /// Broken or Routed, each centre within 6" of his) then act in two waves, as [`Question::Regiment`] asks.
    ActivateRegiment {
        /// The companies, all of one regiment of the side activating.
        companies: Vec<CompanyId>,
    },
    /// The active colonel transfers one action to a unit of his side within 6" (HT-CMD-01, HT-INT-17), at
    /// most two a turn: it at once takes a fresh activation (even if it has activated), then the colonel goes
    /// on with any action he has left.
    Transfer {
        /// The receiving unit.
        to: CompanyId,
    },
    /// Move the active company's centre to a point, turning to face the nearest enemy (HT-MOV-01).
    Move {
        /// Where.
        to: Point,
    },
    /// The active company fires (HT-FIR-01).
    Fire {
        /// At whom.
        target: CompanyId,
    },
    /// The active company reloads (HT-SEQ-07).
    Reload,
    /// The active company rallies one of its side within 6" (HT-SG2-07).
    Rally {
        /// Whom.
        target: CompanyId,
    },
    /// The active company reorganises into a formation (HT-FRM-01).
    Reorganise(Formation),
    /// The active company declares a close assault (HT-MEL-01).
    Assault {
        /// On whom.
        defender: CompanyId,
    },
    /// The defender stands (with or without final defensive fire) or withdraws.
    Defend {
        /// Stand.
        stand: bool,
        /// Fire final defensive fire if the attackers fall short.
        final_fire: bool,
    },
    /// The answer to a reaction question: a company that fires, or none.
    React(Option<CompanyId>),
    /// The answer to a withdrawal question: the heading the company withdraws along (degrees clockwise from
    /// +y), at most 90 degrees off straight away from the company it withdraws from ([`State::withdrawals`]
    /// lists the usual answers).
    Withdraw(Heading),
    /// The answer to [`Question::MidDash`]: stay where the two combat moves left it.
    StayMidDash,
    /// The answer to [`Question::MidDash`]: abort as if it had faltered (a test, then a fall back).
    AbortAssault,
    /// The answer to [`Question::FallBack`].
    FallBack(Retreat),
    /// The active company, a gun's crew, loads its gun (HT-SEQ-08): one action, two for a crew of one
    /// (HT-ART-04).
    Load(Ammunition),
    /// The active company, a gun's crew, fires its gun at an enemy company with what it has loaded
    /// (HT-ART-01, HT-ART-03): round shot aimed at, or canister at, the company's fit figure nearest the
    /// gun's line of fire ([`State::gun_aim`]).
    FireGun {
        /// At whom.
        target: CompanyId,
    },
    /// The active company's leader observes an enemy counter it can see (HT-SG2-25): one action; the
    /// counter rolls D4, one type up a full 12" of distance and one for soft cover, against the company's
    /// quality die and a D4 (unaided eyes); any success shows it a dummy, and it is taken off the table.
    Observe {
        /// The counter.
        dummy: DummyId,
    },
    /// The active company's leader observes a hidden enemy company it can see (HT-SG2-25): one action; the
    /// hidden company rolls D4, one type up a full 12" of distance, one for soft cover and one In Position,
    /// against the observer's quality die and a D4 (unaided eyes); any success reveals it.
    ObserveCompany {
        /// The hidden company.
        target: CompanyId,
    },
    /// The active company fires speculatively at an enemy counter it can see (HT-SG2-25): one action; a
    /// major result shows it a dummy, and it is taken off the table.
    FireAtDummy {
        /// The counter.
        dummy: DummyId,
    },
    /// The active company fires its small arms at the detached team of an enemy gun it can see (HT-ART-22):
    /// the team's sound horses are the pool.
    FireAtTeam {
        /// The gun whose team it fires at.
        gun: GunId,
    },
    /// The active company, a gun's crew, fires the canister it has loaded at the detached team of an enemy
    /// gun (HT-ART-22, HT-ART-14); a hit carries the blast on along the line, as at a company.
    FireGunAtTeam {
        /// The gun whose team it fires at.
        team: GunId,
    },
    /// The answer to [`Question::Unhorsed`] (HT-FRM-06): reorganise into skirmish order (one action), make
    /// the riders a detached element (one action; it stands 1" behind the company), or remove them as if
    /// they were casualties (no action).
    Unhorsed(UnhorsedChoice),
    /// End the activation, giving up any actions left.
    EndActivation,
}

/// A die rolled, and for what.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rolled {
    /// Its faces.
    pub sides: u16,
    /// The face it showed.
    pub face: u16,
}

impl fmt::Display for Rolled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "D{} showed {}", self.sides, self.face)
    }
}

fn rolls_text(rolls: &[Rolled]) -> String {
    if rolls.is_empty() {
        return String::new();
    }
    let list: Vec<String> = rolls.iter().map(ToString::to_string).collect();
    format!(" (dice: {})", list.join(", "))
}

/// ", with a chance of 41.7% of passing" for a roll's result, or nothing when no roll was made.
fn chance_text(chance: Option<&LuckyRoll>, what: &str) -> String {
    chance.map_or_else(String::new, |c| {
        format!(", with a chance of {} of {what}", percent(c.exactly))
    })
}

/// The chance of one roll's result, and which roll it was.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RollChance {
    /// The roll, in words: "a combat move", "the final defensive fire", "the reaction test after the final defensive fire", "its casualties", "the melee".
    pub roll: String,
    /// The chance of its result, for the side it served.
    pub chance: LuckyRoll,
}

/// ", with a chance of 41.7% of that fire result and of 20.8% of those casualties", or less for what was not
/// rolled.
fn fire_chances_text(chance: Option<&LuckyRoll>, impact: Option<&LuckyRoll>) -> String {
    match (chance, impact) {
        (Some(c), Some(i)) => format!(
            ", with a chance of {} of that fire result and of {} of those casualties",
            percent(c.exactly),
            percent(i.exactly)
        ),
        (c, None) => chance_text(c, "that fire result"),
        (None, i) => chance_text(i, "those casualties"),
    }
}

/// " (the other rolls' results had chances of 50.0% (a combat move) and 20.8% (the melee))", or nothing.
fn roll_chances_text(chances: &[RollChance]) -> String {
    let list: Vec<String> = chances
        .iter()
        .map(|c| format!("{} ({})", percent(c.chance.exactly), c.roll))
        .collect();
    match list.as_slice() {
        [] => String::new(),
        [one] => format!(" (the other roll's result had a chance of {one})"),
        [init @ .., last] => format!(
            " (the other rolls' results had chances of {} and {last})",
            init.join(", ")
        ),
    }
}

/// " (the confidence test's result had a chance of 62.5%)", or nothing when no test was rolled.
fn tests_text(tests: &[LuckyRoll]) -> String {
    let list: Vec<String> = tests.iter().map(|t| percent(t.exactly)).collect();
    match list.as_slice() {
        [] => String::new(),
        [one] => format!(" (the confidence test's result had a chance of {one})"),
        [init @ .., last] => format!(
            " (the confidence tests' results had chances of {} and {last})",
            init.join(", ")
        ),
    }
}

/// How good a confidence test's result is for the company testing.
fn confidence_goodness(r: &Confidence) -> u8 {
    match r {
        Confidence::Pass => 2,
        Confidence::LoseOne => 1,
        Confidence::LoseTwo => 0,
    }
}

/// A probability as a percentage with one decimal ("41.7%"), "under 0.1%" for a rare but possible result.
fn percent(p: f64) -> String {
    if p > 0.0 && p < 0.0005 {
        "under 0.1%".to_string()
    } else {
        format!("{:.1}%", 100.0 * p)
    }
}

/// The chance of a fire roll's result for the firer's side, from the roll's exact odds; `None` when no fire
/// roll was made.
///
/// A one-roll fire's chance depends only on the dice, the result and the side, and a game makes the same few
/// rolls again and again, so each is worked out once a thread and kept ([`FIRE_CHANCES`]); stand-based fire is
/// worked out afresh.
fn fire_chance(report: &FireReport, side: Side) -> Option<LuckyRoll> {
    let roll = report.roll.as_ref()?;
    let work_out = || LuckyRoll::from_dist(side, &roll.effect_odds(), &report.effect, |e| *e);
    let crate::state::FireRoll::Dice(dice) = roll else {
        return Some(work_out());
    };
    Some(dice_chance(*dice, report.effect, side))
}

/// A roll the battle made, in words, and the chance of its result for the side it served, from the exact odds
/// of the procedure rolled: a fire's impact dice from [`crate::fire::Volley`]'s casualty odds (the allocation
/// and impact dice of its potential hits over the pool; more figures down is better for the firer, then more
/// killed); final defensive fire from [`FireDice`](crate::fire::FireDice)'s odds, as any fire; the reaction
/// test of an attacker it hit from [`ReactionTest`](crate::morale::ReactionTest)'s (passing is better); a combat move
/// from [`CombatMove`](crate::movement::CombatMove)'s (reaching contact is best, then the farther move); a
/// melee from [`Melee`](crate::melee::Melee)'s (for the attacker: winning above a stalemate above losing, then
/// more of the defenders down than of its own). The fire rolls, the casualties and the melees are remembered a
/// thread, as [`fire_chance`] does.
fn roll_luck(r: &RollMade) -> (&'static str, LuckyRoll) {
    match r {
        RollMade::Casualties {
            side,
            pool,
            hits,
            impact,
            wounded,
            killed,
        } => {
            let key = (*pool, *hits, *impact, *wounded, *killed, *side);
            let work_out = || {
                // under Quick Combat Resolution every hit wounds
                let p = impact.map_or([0.0, 1.0, 0.0], |i| i.probabilities());
                let pairs = crate::fire::casualty_odds(usize::from(*pool), u32::from(*hits), p);
                let dist = acw_core::Dist::weighted(pairs)
                    .unwrap_or_else(|_| acw_core::Dist::certain((*wounded, *killed)));
                LuckyRoll::from_dist(*side, &dist, &(*wounded, *killed), |&(w, k)| (w + k, k))
            };
            let luck =
                CASUALTY_CHANCES.with_borrow_mut(|memo| *memo.entry(key).or_insert_with(work_out));
            ("its casualties", luck)
        }
        RollMade::FinalFire { side, dice, effect } => (
            "the final defensive fire",
            dice_chance(*dice, *effect, *side),
        ),
        RollMade::Reaction { side, test, passed } => (
            "the reaction test after the final defensive fire",
            LuckyRoll::chance(*side, test.odds().p(&true), *passed),
        ),
        RollMade::CombatMove { side, roll, result } => {
            let goodness = |m: &MoveResult| match m {
                MoveResult::Reached => u32::MAX,
                MoveResult::Short(d) => u32::from(*d),
            };
            (
                "a combat move",
                LuckyRoll::from_dist(*side, &roll.odds(), result, goodness),
            )
        }
        RollMade::Melee {
            side,
            melee,
            outcome,
        } => {
            let goodness = |o: &crate::melee::MeleeOutcome| {
                let won = match o.winner() {
                    Some(crate::melee::AssaultSide::Attacker) => 2,
                    None => 1,
                    Some(crate::melee::AssaultSide::Defender) => 0,
                };
                (won, i16::from(o.defender_down) - i16::from(o.attacker_down))
            };
            let luck = MELEE_ODDS.with_borrow_mut(|memo| {
                let odds = memo.entry(*melee).or_insert_with(|| melee.odds());
                LuckyRoll::from_dist(*side, odds, outcome, goodness)
            });
            ("the melee", luck)
        }
    }
}

/// The chance of a one-roll fire's result for `side`, remembered a thread ([`FIRE_CHANCES`]).
fn dice_chance(
    dice: crate::fire::FireDice,
    effect: crate::fire::FireEffect,
    side: Side,
) -> LuckyRoll {
    FIRE_CHANCES.with_borrow_mut(|memo| {
        *memo
            .entry((dice, effect, side))
            .or_insert_with(|| LuckyRoll::from_dist(side, &dice.odds(), &effect, |e| *e))
    })
}

/// A key of [`CASUALTY_CHANCES`]: pool, hits, impact, wounded, killed, side.
type CasualtyKey = (u8, u8, Option<crate::fire::Impact>, u8, u8, Side);

thread_local! {
    /// The exact odds [`roll_luck`] worked out for a melee, by the melee (the melee's odds are its costliest
    /// part, and the same melees come again and again): the same melee gives the same odds, bit for bit,
    /// whether worked out or remembered.
    static MELEE_ODDS: std::cell::RefCell<std::collections::HashMap<crate::melee::Melee, acw_core::Dist<crate::melee::MeleeOutcome>>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

thread_local! {
    /// The chances [`roll_luck`] worked out for a fire's impact dice: the same inputs give the same chance,
    /// bit for bit, whether worked out or remembered.
    static CASUALTY_CHANCES: std::cell::RefCell<std::collections::HashMap<CasualtyKey, LuckyRoll>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

thread_local! {
    /// The chances [`fire_chance`] worked out for one-roll fire, by dice, result and side: the same inputs give
    /// the same chance, bit for bit, whether worked out or remembered.
    static FIRE_CHANCES: std::cell::RefCell<std::collections::HashMap<(crate::fire::FireDice, crate::fire::FireEffect, Side), LuckyRoll>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// Where a round shot struck, or left the table, and what it did there (HT-ART-07..13).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ShotPoint {
    /// The impact point (for a ball that left the table, the point off it where it would have come down).
    pub at: Point,
    /// The companies with a figure in the damage area, in the order of their ids.
    pub companies: Vec<String>,
    /// What the rules said there; `None` where the ball left the table.
    pub report: Option<String>,
    /// The ball met a wood and stopped at its edge (HT-ART-13).
    pub wood_edge: bool,
}

impl fmt::Display for ShotPoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.report {
            None => write!(
                f,
                "the ball leaves the table toward ({:.1}, {:.1})",
                self.at.x, self.at.y
            ),
            Some(r) => {
                write!(f, "at ({:.1}, {:.1})", self.at.x, self.at.y)?;
                if self.wood_edge {
                    f.write_str(", the edge of a wood,")?;
                }
                if self.companies.is_empty() {
                    f.write_str(" it touches no one: ")?;
                } else {
                    write!(f, " it reaches {}: ", self.companies.join(" and "))?;
                }
                f.write_str(r)
            }
        }
    }
}

/// What happened.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Event {
    /// A turn began.
    TurnBegan(u32),
    /// A side was chosen to activate first.
    GoesFirst(Side),
    /// A company activated.
    Activated(String),
    /// A side passed.
    Passed(Side),
    /// A company moved (or failed its test and stayed).
    Moved {
        /// Its name.
        company: String,
        /// Inches.
        distance: f64,
        /// Whether it moved.
        moved: bool,
        /// Dice.
        rolls: Vec<Rolled>,
        /// The chance of the result of its reaction tests, for its side (`None` when the move needed none).
        #[cfg_attr(feature = "serde", serde(default))]
        chance: Option<LuckyRoll>,
    },
    /// A company fired.
    Fired {
        /// What the line of fire measured.
        line: String,
        /// What the rules said.
        report: String,
        /// Dice.
        rolls: Vec<Rolled>,
        /// The chance of the fire roll's result, for the firer's side (`None` when no fire roll was made).
        #[cfg_attr(feature = "serde", serde(default))]
        chance: Option<LuckyRoll>,
        /// The chance of the casualties its impact dice gave (the allocation and impact dice of its potential
        /// hits), for the firer's side; `None` when none were rolled, or the pool held horses or riders.
        #[cfg_attr(feature = "serde", serde(default))]
        impact: Option<LuckyRoll>,
        /// The chance of each confidence test's result the fire brought, for the side of the company testing.
        #[cfg_attr(feature = "serde", serde(default))]
        tests: Vec<LuckyRoll>,
    },
    /// A company reloaded.
    Reloaded(String),
    /// A crew loaded its gun (HT-SEQ-08).
    Loaded {
        /// The crew.
        company: String,
        /// The gun.
        gun: String,
        /// What it loaded.
        ammunition: Ammunition,
    },
    /// A gun fired round shot (HT-ART-06..13): where it was aimed, and every point the ball struck.
    Shot {
        /// The gun, its target and the aim.
        line: String,
        /// How the ball landed against the aim point (HT-ART-06).
        landing: Landing,
        /// Each impact point in turn, the first where it landed, then each bounce.
        impacts: Vec<ShotPoint>,
        /// Dice.
        rolls: Vec<Rolled>,
        /// The chance of each confidence test's result the ball brought, for the side of the company testing.
        #[cfg_attr(feature = "serde", serde(default))]
        tests: Vec<LuckyRoll>,
    },
    /// A company reorganised.
    Reorganised {
        /// Its name.
        company: String,
        /// Its new formation.
        formation: Formation,
    },
    /// A rally.
    Rallied {
        /// The rallier.
        rallier: String,
        /// The rallied.
        target: String,
        /// Its level after.
        level: ConfidenceLevel,
        /// Whether the rally test passed (a pass at the fatigue ceiling leaves the level as it was).
        #[cfg_attr(feature = "serde", serde(default))]
        passed: bool,
        /// Dice.
        rolls: Vec<Rolled>,
        /// The chance of the rally test's result, for the rallying side.
        #[cfg_attr(feature = "serde", serde(default))]
        chance: Option<LuckyRoll>,
    },
    /// A close assault declared.
    AssaultDeclared {
        /// The attacker.
        attacker: String,
        /// The defender.
        defender: String,
        /// Whether it passed its test and goes in.
        goes_in: bool,
        /// Dice.
        rolls: Vec<Rolled>,
        /// The chance of the assault test's result, for the attacking side.
        #[cfg_attr(feature = "serde", serde(default))]
        chance: Option<LuckyRoll>,
    },
    /// The assault resolved after the defender's answer.
    Assault {
        /// Each step in words.
        steps: Vec<String>,
        /// Dice.
        rolls: Vec<Rolled>,
        /// The chance of each confidence test's result (the stand test, the tests of the melee), for the side
        /// of the company testing.
        #[cfg_attr(feature = "serde", serde(default))]
        tests: Vec<LuckyRoll>,
        /// The chance of each other roll's result, in the order rolled: the combat moves and the melee for
        /// the attacking side, final defensive fire and its casualties for the defending side.
        #[cfg_attr(feature = "serde", serde(default))]
        chances: Vec<RollChance>,
    },
    /// A company withdrew the way its side chose (HT-SG2-36, HT-SG2-40).
    Withdrew {
        /// The withdrawing company.
        company: String,
        /// The company it withdrew from.
        from: String,
        /// Inches it went: 6, or 4 or 2 where the ground allowed no more.
        distance: f64,
        /// Degrees off straight away from `from` (0 to 90).
        off: f64,
    },
    /// An attacker short of contact stayed mid-dash (HT-SG2-37).
    StayedMidDash {
        /// The attacking company.
        company: String,
        /// The company it assaulted.
        defender: String,
        /// Inches its two combat moves carried it on the table (less where the ground was taken).
        distance: f64,
    },
    /// An attacker short of contact fell back (HT-SG2-37, HT-MEL-07).
    FellBack {
        /// The attacking company.
        company: String,
        /// The company it assaulted.
        defender: String,
        /// Where it went.
        to: Retreat,
        /// Inches it went (0 when it was already there).
        distance: f64,
    },
    /// A Broken or Routed company's move the rules make for it when it activates (HT-SG2-17, HT-MOV-08): a
    /// Routed one runs toward its own baseline, a Broken one in the open makes for the nearest cover. The
    /// move itself follows as [`Event::Moved`].
    Compelled {
        /// The company.
        company: String,
        /// Routed (else Broken).
        routed: bool,
        /// Inches to the place it makes for: this move's end when Routed, the nearest cover when Broken.
        distance: f64,
    },
    /// A Routed company that could not withdraw without closing on the enemy (HT-SG2-48): it surrendered to an
    /// enemy within 12", or with none that near it dispersed.
    Surrendered {
        /// The company.
        company: String,
        /// The enemy company within 12" it surrendered to (`None`: it dispersed).
        to: Option<String>,
    },
    /// A Routed company with no free ground toward its own baseline stayed where it was (HT-MOV-08).
    NoWayBack(String),
    /// A company's leader observed an enemy counter (HT-SG2-25).
    Observed {
        /// The observing company.
        observer: String,
        /// The counter.
        counter: String,
        /// Inches from the company to the counter.
        distance: f64,
        /// How the observation came out: any success shows the counter a dummy, taken off the table.
        result: Success,
        /// Dice.
        rolls: Vec<Rolled>,
        /// The chance of the result, for the observer's side.
        #[cfg_attr(feature = "serde", serde(default))]
        chance: Option<LuckyRoll>,
    },
    /// A company's leader observed a hidden enemy company (HT-SG2-25).
    ObservedCompany {
        /// The observing company.
        observer: String,
        /// The hidden company.
        target: String,
        /// Inches between the two companies.
        distance: f64,
        /// How the observation came out: any success reveals the company.
        result: Success,
        /// Dice.
        rolls: Vec<Rolled>,
        /// The chance of the result, for the observer's side.
        #[cfg_attr(feature = "serde", serde(default))]
        chance: Option<LuckyRoll>,
    },
    /// An enemy company had a clear sight of a hidden company in the open: it is revealed (HT-SG2-25).
    Revealed {
        /// The hidden company.
        company: String,
        /// The company that saw it.
        by: String,
    },
    /// An enemy company had a clear sight of a counter in the open: it is a dummy, and it is taken off the
    /// table (HT-SG2-25).
    Sighted {
        /// The counter.
        counter: String,
        /// The company that saw it.
        by: String,
    },
    /// A company passed through a friendly company in close formation, which is disordered into skirmish
    /// order (HT-MOV-07, HT-MOV-08).
    Disordered {
        /// The company passed through.
        company: String,
        /// The company that passed through it.
        by: String,
    },
    /// A company in close formation passed through a friendly company and is disordered into skirmish order
    /// itself (HT-MOV-07).
    DisorderedPassing {
        /// The company that moved.
        company: String,
        /// The company it passed through.
        through: String,
    },
    /// A cavalry company's side dealt with its unhorsed riders (HT-FRM-06).
    UnhorsedDealt {
        /// The company.
        company: String,
        /// How many riders.
        riders: usize,
        /// What it chose.
        choice: UnhorsedChoice,
    },
    /// The other side let a second move go by without reaction fire.
    NoReaction(String),
    /// A colonel activated his regiment (HT-SEQ-03).
    RegimentActivated {
        /// The colonel.
        colonel: String,
        /// The companies, as ordered.
        companies: Vec<String>,
    },
    /// A company of a regiment activated now takes its action of a wave (HT-SEQ-04).
    WaveAction {
        /// The company.
        company: String,
        /// 1 or 2.
        wave: u8,
    },
    /// A colonel transferred an action (HT-CMD-01, HT-INT-17).
    Transferred {
        /// The colonel.
        colonel: String,
        /// The receiving unit.
        to: String,
        /// Centre to centre, inches.
        distance: f64,
        /// The actions it takes.
        actions: u8,
    },
    /// A colonel fell, wounded, killed or taken (HT-CMD-04, HT-CMD-05): every company in a regimental
    /// formation under him tested as though it had lost its own leader, and the leader of the best of them (by
    /// quality, among those still Confident, Steady or Shaken; by lot where several are equal) took his place
    /// at the command stand, his own company led by its next figure. With no formation none tested and no one
    /// took his place.
    ColonelFell {
        /// The colonel (his command stand's name).
        colonel: String,
        /// Each company that tested, and how its test came out.
        tested: Vec<(String, String)>,
        /// The company whose leader took his place; `None` with no formation.
        successor: Option<String>,
        /// How many equal leaders the successor was chosen among by lot (1: no lot was needed).
        among: usize,
        /// The LV of the successor company's new leader (1 is the best), rolled on the D6 (HT-SG2-20).
        new_lv: Option<i16>,
        /// The dice rolled, in order: the tests, then the new leader's D6.
        rolls: Vec<Rolled>,
        /// The chance of each test's result, for the side of the company testing.
        tests: Vec<LuckyRoll>,
        /// The chance of the new leader's LV, for his side (a better LV is better).
        chance: Option<LuckyRoll>,
    },
    /// A colonel moved with his regiment at the end of its activation (HT-CMD-03).
    ColonelFollowed {
        /// The colonel.
        colonel: String,
        /// How far, inches.
        distance: f64,
    },
    /// An activation ended.
    ActivationEnded(String),
    /// A turn ended.
    TurnEnded(u32),
    /// The game ended.
    Ended(Outcome),
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::TurnBegan(t) => write!(f, "Turn {t} begins."),
            Event::GoesFirst(s) => write!(f, "The {s} side activates first."),
            Event::Activated(c) => write!(f, "{c} activates."),
            Event::Passed(s) => write!(f, "The {s} side passes."),
            Event::Moved {
                company,
                distance,
                moved,
                rolls,
                chance,
            } => {
                if *moved {
                    write!(
                        f,
                        "{company} moves {distance:.1}\"{}{}.",
                        rolls_text(rolls),
                        chance_text(chance.as_ref(), "passing its test")
                    )
                } else {
                    write!(
                        f,
                        "{company} fails its test and stays put{}{}.",
                        rolls_text(rolls),
                        chance_text(chance.as_ref(), "failing")
                    )
                }
            }
            Event::Fired {
                line,
                report,
                rolls,
                chance,
                impact,
                tests,
            } => write!(
                f,
                "{line}{}{}. {report}{}",
                rolls_text(rolls),
                fire_chances_text(chance.as_ref(), impact.as_ref()),
                tests_text(tests)
            ),
            Event::Observed {
                observer,
                counter,
                distance,
                result,
                rolls,
                chance,
            } => {
                let what = match result {
                    Success::Fail => "fails to make it out, and it stays on the table",
                    Success::Minor => {
                        "makes it out with a minor success: it is a dummy, taken off the table"
                    }
                    Success::Major => {
                        "makes it out with a major success: it is a dummy, taken off the table"
                    }
                };
                write!(
                    f,
                    "{observer} observes {counter} {distance:.1}\" away and {what}{}{}.",
                    rolls_text(rolls),
                    chance_text(chance.as_ref(), "that result")
                )
            }
            Event::ObservedCompany {
                observer,
                target,
                distance,
                result,
                rolls,
                chance,
            } => {
                let what = match result {
                    Success::Fail => "fails to make it out, and it stays hidden",
                    Success::Minor => "makes it out with a minor success: it is revealed",
                    Success::Major => "makes it out with a major success: it is revealed",
                };
                write!(
                    f,
                    "{observer} observes the hidden {target} {distance:.1}\" away and {what}{}{}.",
                    rolls_text(rolls),
                    chance_text(chance.as_ref(), "that result")
                )
            }
            Event::Revealed { company, by } => write!(
                f,
                "{by} has a clear sight of the hidden {company} in the open: it is revealed."
            ),
            Event::Sighted { counter, by } => write!(
                f,
                "{by} has a clear sight of {counter} in the open: it is a dummy, taken off the table."
            ),
            Event::Disordered { company, by } => write!(
                f,
                "{by} passes through {company}, which is disordered into skirmish order."
            ),
            Event::DisorderedPassing { company, through } => write!(
                f,
                "{company} passes through {through} and is disordered into skirmish order."
            ),
            Event::UnhorsedDealt {
                company,
                riders,
                choice,
            } => write!(
                f,
                "{company}, with {riders} {} on foot, {choice}.",
                if *riders == 1 { "rider" } else { "riders" }
            ),
            Event::Reloaded(c) => write!(f, "{c} reloads."),
            Event::Loaded {
                company,
                gun,
                ammunition,
            } => write!(f, "{company} loads {gun} with {ammunition}."),
            Event::Shot {
                line,
                landing,
                impacts,
                rolls,
                tests,
            } => {
                write!(f, "{line}; the ball lands {landing}")?;
                for p in impacts {
                    write!(f, "; {p}")?;
                }
                write!(f, "{}{}.", rolls_text(rolls), tests_text(tests))
            }
            Event::Reorganised { company, formation } => {
                write!(f, "{company} reorganises into {formation}.")
            }
            Event::Rallied {
                rallier,
                target,
                level,
                passed,
                rolls,
                chance,
            } => {
                write!(
                    f,
                    "{rallier} rallies {target}, {} its test, which is now {level}{}{}.",
                    if *passed { "passing" } else { "failing" },
                    rolls_text(rolls),
                    chance_text(chance.as_ref(), if *passed { "passing" } else { "failing" })
                )
            }
            Event::AssaultDeclared {
                attacker,
                defender,
                goes_in,
                rolls,
                chance,
            } => {
                if *goes_in {
                    write!(
                        f,
                        "{attacker} declares a close assault on {defender} and passes its test{}{}.",
                        rolls_text(rolls),
                        chance_text(chance.as_ref(), "passing")
                    )
                } else {
                    write!(
                        f,
                        "{attacker} tries to assault {defender} but fails its test{}{}.",
                        rolls_text(rolls),
                        chance_text(chance.as_ref(), "failing")
                    )
                }
            }
            Event::Assault {
                steps,
                rolls,
                tests,
                chances,
            } => {
                write!(
                    f,
                    "{}{}{}{}.",
                    steps.join("; "),
                    rolls_text(rolls),
                    roll_chances_text(chances),
                    tests_text(tests)
                )
            }
            Event::StayedMidDash {
                company,
                defender,
                distance,
            } => write!(
                f,
                "{company} stays mid-dash, {distance:.0}\" on toward {defender}."
            ),
            Event::FellBack {
                company,
                defender,
                to,
                distance,
            } => {
                if *distance < 0.05 {
                    write!(
                        f,
                        "{company} falls back short of {defender} and stays at {to}."
                    )
                } else {
                    write!(
                        f,
                        "{company} falls back {distance:.1}\" from short of {defender} to {to}."
                    )
                }
            }
            Event::Compelled {
                company,
                routed: true,
                distance,
            } => write!(
                f,
                "{company} is Routed: it runs {distance:.0}\" toward its own baseline."
            ),
            Event::Compelled {
                company,
                routed: false,
                distance,
            } => write!(
                f,
                "{company} is Broken and in the open: it makes for the nearest cover, {distance:.0}\" away."
            ),
            Event::Surrendered {
                company,
                to: Some(to),
            } => write!(
                f,
                "{company} is Routed and cannot withdraw without closing on the enemy: it surrenders to {to}."
            ),
            Event::Surrendered { company, to: None } => write!(
                f,
                "{company} is Routed and cannot withdraw without closing on the enemy; with no enemy within 12\" it disperses."
            ),
            Event::NoWayBack(c) => write!(
                f,
                "{c} is Routed but has no free ground toward its own baseline: it stays where it is."
            ),
            Event::NoReaction(c) => write!(f, "{c} moves again without drawing reaction fire."),
            Event::ActivationEnded(c) => write!(f, "{c}'s activation ends."),
            Event::TurnEnded(t) => write!(f, "Turn {t} ends."),
            Event::Withdrew {
                company,
                from,
                distance,
                off,
            } => {
                if *off < 0.5 {
                    write!(
                        f,
                        "{company} withdraws {distance:.0}\" straight away from {from}."
                    )
                } else {
                    write!(
                        f,
                        "{company} withdraws {distance:.0}\" away from {from}, {off:.0} degrees off the straight line back."
                    )
                }
            }
            Event::RegimentActivated { colonel, companies } => write!(
                f,
                "{colonel} activates his regiment: {} each take two actions, every first action before any second.",
                and_list(companies)
            ),
            Event::WaveAction { company, wave } => write!(
                f,
                "{company} takes its {} action in the regiment's activation.",
                if *wave == 1 { "first" } else { "second" }
            ),
            Event::Transferred {
                colonel,
                to,
                distance,
                actions,
            } => write!(
                f,
                "{colonel} transfers an action to {to}, {distance:.1}\" away: it takes a fresh activation of {}.",
                if *actions == 1 {
                    "one action"
                } else {
                    "two actions"
                }
            ),
            Event::ColonelFell {
                colonel,
                tested,
                successor,
                among,
                new_lv,
                rolls,
                tests,
                chance,
            } => {
                write!(f, "{colonel} has fallen")?;
                if tested.is_empty() {
                    f.write_str(
                        ": no company of his regiment stood in formation with him, so none tests, and no one takes his place",
                    )?;
                } else {
                    let list: Vec<String> = tested
                        .iter()
                        .map(|(company, result)| format!("{company} {result}"))
                        .collect();
                    write!(
                        f,
                        "; the companies in formation with him test as though each had lost its own leader: {}",
                        list.join("; ")
                    )?;
                }
                if let Some(s) = successor {
                    write!(
                        f,
                        ". The leader of {s} takes his place at the command stand"
                    )?;
                    if *among > 1 {
                        write!(
                            f,
                            ", chosen by lot among {among} equal leaders (a chance of {})",
                            percent(1.0 / *among as f64)
                        )?;
                    }
                    if let Some(lv) = new_lv {
                        write!(
                            f,
                            "; {s}'s next figure leads it at LV {lv}{}",
                            chance_text(chance.as_ref(), "that LV")
                        )?;
                    }
                }
                write!(f, "{}{}.", rolls_text(rolls), tests_text(tests))
            }
            Event::ColonelFollowed { colonel, distance } => write!(
                f,
                "{colonel} moves {distance:.1}\" with his regiment, keeping his place behind it."
            ),
            Event::Ended(o) => write!(f, "The game ends: {o}."),
        }
    }
}

/// Names joined as a person lists them: "A", "A and B", "A, B and C".
fn and_list(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Dice that record every face they give.
struct Recording<'a> {
    dice: &'a mut dyn Dice,
    rolls: Vec<Rolled>,
    /// Whether the events are kept: the chances of results are worked out only then (not when an order is
    /// only checked).
    narrate: bool,
}

impl Dice for Recording<'_> {
    fn face(&mut self, die: Die) -> u16 {
        let face = self.dice.face(die);
        self.rolls.push(Rolled {
            sides: die.sides(),
            face,
        });
        face
    }
    fn index(&mut self, n: usize) -> usize {
        self.dice.index(n)
    }
    fn fault(&self) -> Option<&DiceError> {
        self.dice.fault()
    }
    fn about(&mut self, purpose: fmt::Arguments<'_>) {
        self.dice.about(purpose);
    }
}

/// Where the companies stand: footprints on the table (HT-GEN-04: 1" = 10 yards).
///
/// `clone_from` copies into a field already there without allocating: its lists keep their room and the
/// table's terrain stays shared.
#[derive(Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Field {
    table: Table,
    at: Vec<Footprint>,
    /// Where the detached teams of unlimbered guns stand, by gun (HT-ART-22).
    #[cfg_attr(feature = "serde", serde(default))]
    teams: Vec<(GunId, Footprint)>,
    /// Where the dummy counters stand (HT-SG2-25); a counter taken off the table keeps its place here.
    #[cfg_attr(feature = "serde", serde(default))]
    dummies: Vec<(DummyId, Footprint)>,
    /// The colonels on the table and their regiments (HT-SEQ-03, HT-CMD-01).
    #[cfg_attr(feature = "serde", serde(default))]
    colonels: Vec<(CompanyId, u32)>,
    /// The colonels who fell with no regimental formation to give a successor (HT-CMD-04, HT-CMD-05): their
    /// command stands stay down and their regiments have no colonel.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    fallen: Vec<CompanyId>,
}

impl Clone for Field {
    fn clone(&self) -> Field {
        Field {
            table: self.table.clone(),
            at: self.at.clone(),
            teams: self.teams.clone(),
            dummies: self.dummies.clone(),
            colonels: self.colonels.clone(),
            fallen: self.fallen.clone(),
        }
    }

    fn clone_from(&mut self, source: &Field) {
        // Destructured so that a field added to `Field` cannot be left out here.
        let Field {
            table,
            at,
            teams,
            dummies,
            colonels,
            fallen,
        } = source;
        self.table.clone_from(table);
        self.at.clone_from(at);
        self.teams.clone_from(teams);
        self.dummies.clone_from(dummies);
        self.colonels.clone_from(colonels);
        self.fallen.clone_from(fallen);
    }
}

impl Field {
    /// The regiment whose colonel `id` is, if he is one.
    #[must_use]
    pub fn colonel_of(&self, id: CompanyId) -> Option<u32> {
        self.colonels.iter().find(|c| c.0 == id).map(|c| c.1)
    }

    /// The colonels on the table and their regiments.
    #[must_use]
    pub fn colonels(&self) -> &[(CompanyId, u32)] {
        &self.colonels
    }

    /// The colonels who fell with no one to take their place (HT-CMD-05): no company of their regiment stood in
    /// a regimental formation with them.
    #[must_use]
    pub fn fallen_colonels(&self) -> &[CompanyId] {
        &self.fallen
    }

    /// The distance between two units for command (HT-GEN-04, HT-CMD-01, HT-SEQ-03): centre to centre.
    #[must_use]
    pub fn command_distance(&self, a: CompanyId, b: CompanyId) -> Option<f64> {
        let (a, b) = (self.footprint(a)?, self.footprint(b)?);
        Some(a.centre.distance(b.centre).0)
    }

    /// Where a gun's detached team stands, if it is on the table.
    #[must_use]
    pub fn team(&self, gun: GunId) -> Option<&Footprint> {
        self.teams.iter().find(|(g, _)| *g == gun).map(|(_, f)| f)
    }

    /// Where a dummy counter stands (or stood, once taken off the table).
    #[must_use]
    pub fn dummy(&self, id: DummyId) -> Option<&Footprint> {
        self.dummies.iter().find(|(d, _)| *d == id).map(|(_, f)| f)
    }

    /// Places a team or a counter at set-up: wholly on the table, on no company's, team's or counter's ground.
    fn place(&self, name: &str, fp: Footprint) -> Result<(), GameSetupError> {
        if !self.table.holds(&fp) {
            return Err(GameSetupError::OffTable(name.to_string()));
        }
        let taken = self
            .at
            .iter()
            .chain(self.teams.iter().map(|(_, f)| f))
            .chain(self.dummies.iter().map(|(_, f)| f))
            .any(|o| o.distance(&fp).0 <= 0.0);
        if taken {
            return Err(GameSetupError::Crowded(name.to_string()));
        }
        Ok(())
    }

    /// The table.
    #[must_use]
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// A company's footprint.
    #[must_use]
    pub fn footprint(&self, id: CompanyId) -> Option<&Footprint> {
        self.at.get(id.0 as usize)
    }

    /// Whether no company but `a` and `b` stands across the line from `from` to `to` (the companies are
    /// walked in place: no list of them is made).
    fn clear_of_others(&self, a: CompanyId, b: CompanyId, from: Point, to: Point) -> bool {
        self.at
            .iter()
            .enumerate()
            .all(|(i, f)| i == a.0 as usize || i == b.0 as usize || !f.blocks(from, to))
    }

    fn in_woods(&self, p: Point) -> bool {
        self.table
            .terrain()
            .iter()
            .any(|t| t.effects().blocks_sight && t.contains(p))
    }
}

/// Whether `p` lies in `f`'s front arc (HT-FIR-21): ahead of its front edge, within lines running [`ARC`]
/// degrees outward from the ends of that edge. Every figure of a line, 1" wide and 1" deep side by side,
/// then sees `p` through its front without its line crossing a neighbour; the rule asks it of the target's
/// centre.
fn centre_in_front_arc(f: &Footprint, p: Point) -> bool {
    // headings run clockwise from +y: ahead is (sin, cos), the right hand (cos, −sin)
    let (sin, cos) = f.facing.as_degrees().to_radians().sin_cos();
    let origin = f.front_centre();
    let (dx, dy) = (p.x - origin.x, p.y - origin.y);
    let y = dx * sin + dy * cos;
    let x = dx * cos - dy * sin;
    y >= -1e-9 && x.abs() <= f.frontage.0 / 2.0 + y * ARC.to_radians().tan() + 1e-9
}

/// Whether a company may stand somewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ground {
    Free,
    OffTable,
    /// Within half an inch of the company at this index.
    Taken(usize),
    /// Within half an inch of a gun's detached team.
    Team(GunId),
}

/// Half a footprint's diagonal: no point of it lies farther from its centre.
fn reach(f: &Footprint) -> f64 {
    f.frontage.0.hypot(f.depth.0) / 2.0
}

/// Whether the points `(x, y)` from a centre lie clearly beyond `reach` of it: their squared distance exceeds
/// `reach` squared with a relative margin of a millionth. Squares only (no `hypot`, no square root), so it is
/// a cheap first look: where it holds, `x.hypot(y) > reach` holds too, far beyond rounding, and a test on the
/// exact distance gives the same answer; where it does not, the caller makes that test.
fn clearly_beyond(x: f64, y: f64, reach: f64) -> bool {
    x * x + y * y > reach * reach * (1.0 + 1e-6)
}

/// [`reach`] as a square root of squares rather than `hypot` (the two agree to a rounding), for the margins
/// of [`clearly_beyond`].
fn rough_reach(f: &Footprint) -> f64 {
    (f.frontage.0 * f.frontage.0 + f.depth.0 * f.depth.0).sqrt() / 2.0
}

/// A line of sight as `State::sight_between` finds it: the enemy skirmish company fired through, and the
/// friendly company the firer stands directly behind (as [`FireFacts::friendly_between`]).
type Sight = (Option<CompanyId>, Option<(CompanyId, bool)>);

/// How many searches for cover [`COVER_SOUGHT`] keeps.
const COVER_SOUGHT_KEPT: usize = 4;

/// A search for cover remembered: what it looked at (see `State::cover_sought`), the table (kept, so that its
/// terrain's address is its own), and the way found.
struct KeptCover {
    key: Vec<u64>,
    table: Table,
    found: Option<(Heading, f64)>,
}

/// The searches for cover kept on a thread, the next to be replaced, and a key's room reused.
#[derive(Default)]
struct CoverMemo {
    kept: Vec<KeptCover>,
    next: usize,
    key: Vec<u64>,
}

thread_local! {
    /// The last searches for cover of a Broken company (`State::cover_sought`).
    static COVER_SOUGHT: std::cell::RefCell<CoverMemo> = std::cell::RefCell::new(CoverMemo::default());
}

/// How many distances between footprints [`measured`] remembers a thread (a power of two).
const MEASURED_SLOTS: usize = 1 << 11;

/// A remembered distance: both footprints as bits (centre, facing, frontage and depth of each), and the distance.
type MeasuredSlot = Option<([u64; 10], f64)>;

thread_local! {
    /// The distances [`measured`] worked out last, by the hash of both footprints' bits. The same footprints (bit
    /// for bit, in the same order) give the same distance whether worked out or remembered.
    static MEASURED: std::cell::RefCell<Vec<MeasuredSlot>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// [`Footprint::distance`] from `a` to `b`, remembered a thread: a game measures the same companies where
/// they stand again and again (the nearest enemy of each company waiting, every candidate order's checks).
/// The same two footprints, bit for bit, give the same distance, so a remembered one is the one measured.
pub(crate) fn measured(a: &Footprint, b: &Footprint) -> f64 {
    let bits = |f: &Footprint| {
        [
            f.centre.x.to_bits(),
            f.centre.y.to_bits(),
            f.facing.as_degrees().to_bits(),
            f.frontage.0.to_bits(),
            f.depth.0.to_bits(),
        ]
    };
    let (ka, kb) = (bits(a), bits(b));
    let key = [
        ka[0], ka[1], ka[2], ka[3], ka[4], kb[0], kb[1], kb[2], kb[3], kb[4],
    ];
    let hash = key.iter().fold(0u64, |h, &k| {
        (h.rotate_left(5) ^ k).wrapping_mul(0x517c_c1b7_2722_0a95)
    });
    // the slot from the hash's top bits
    let slot = (hash >> (64 - MEASURED_SLOTS.trailing_zeros())) as usize;
    MEASURED
        .try_with(|memo| {
            let mut memo = memo.borrow_mut();
            if memo.is_empty() {
                memo.resize(MEASURED_SLOTS, None);
            }
            match memo[slot] {
                Some((k, d)) if k == key => d,
                _ => {
                    let d = a.distance(b).0;
                    memo[slot] = Some((key, d));
                    d
                }
            }
        })
        .unwrap_or_else(|_| a.distance(b).0)
}

/// Whether the segment from `a` to `b` clearly passes by footprint `f`: its nearest point to `f`'s centre lies
/// beyond the half-diagonal by a thousandth of an inch (squares only). [`Footprint::blocks`] then says no too:
/// the segment misses even the rectangle grown by its margin.
fn clearly_misses(f: &Footprint, a: Point, b: Point) -> bool {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let (ox, oy) = (f.centre.x - a.x, f.centre.y - a.y);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        ((ox * dx + oy * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    clearly_beyond(ox - t * dx, oy - t * dy, rough_reach(f) + 1e-3)
}

/// Whether footprints `a` and `b` clearly lie more than `gap` apart: the least their distance can be
/// ([`Footprint::distance_bounds`], the widest gap between their shadows along their sides' directions) is more
/// than `gap` by a millionth of an inch beyond rounding, so [`Footprint::distance`] need not be measured to say so.
fn sides_clearly_apart(a: &Footprint, b: &Footprint, gap: f64) -> bool {
    a.distance_bounds(b).0 > gap + 1e-6
}

/// Whether footprints `a` and `b` clearly overlap: the circles inside them (round each centre, of half its
/// shorter side) overlap by a hundredth of an inch. The rectangles then overlap by as much across every line,
/// and [`Footprint::distance`] between them is 0.
fn clearly_overlap(a: &Footprint, b: &Footprint) -> bool {
    let inner = (a.frontage.0.min(a.depth.0) + b.frontage.0.min(b.depth.0)) / 2.0 - 0.01;
    let (dx, dy) = (a.centre.x - b.centre.x, a.centre.y - b.centre.y);
    inner > 0.0 && dx * dx + dy * dy < inner * inner
}

/// Whether footprints `a` and `b` lie clearly more than `gap` apart by their bounding circles (see
/// [`clearly_beyond`]): then `a.centre.distance(b.centre).0 - reach(a) - reach(b) >= gap` as well.
fn circles_clearly_apart(a: &Footprint, b: &Footprint, gap: f64) -> bool {
    clearly_beyond(
        a.centre.x - b.centre.x,
        a.centre.y - b.centre.y,
        gap + rough_reach(a) + rough_reach(b),
    )
}

/// Whether the footprint `fp`, moved straight (facing as it stands) until its centre is at `to`, touches
/// `other` on the way (HT-MOV-07): the area it sweeps is the convex hull of its footprints at the start and
/// at the end, and two convex shapes are apart exactly when one of their edge directions separates them
/// (separating axes: the two rectangles' sides and the line of the move).
fn sweeps(fp: &Footprint, to: Point, other: &Footprint) -> bool {
    let (dx, dy) = (to.x - fp.centre.x, to.y - fp.centre.y);
    // Far apart: the line the centre follows stays more than both half-diagonals (and a margin) off.
    let (ox, oy) = (other.centre.x - fp.centre.x, other.centre.y - fp.centre.y);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        ((ox * dx + oy * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (ex, ey) = (ox - t * dx, oy - t * dy);
    if clearly_beyond(ex, ey, rough_reach(fp) + rough_reach(other) + 1e-6)
        || ex.hypot(ey) > reach(fp) + reach(other) + 1e-6
    {
        return false;
    }
    let a = fp.corners();
    let swept = [
        a[0],
        a[1],
        a[2],
        a[3],
        Point::new(a[0].x + dx, a[0].y + dy),
        Point::new(a[1].x + dx, a[1].y + dy),
        Point::new(a[2].x + dx, a[2].y + dy),
        Point::new(a[3].x + dx, a[3].y + dy),
    ];
    let b = other.corners();
    let edge = |p: Point, q: Point| (q.x - p.x, q.y - p.y);
    let axes = [
        edge(a[0], a[1]),
        edge(a[1], a[2]),
        edge(b[0], b[1]),
        edge(b[1], b[2]),
        // the normal of the line of the move
        (-dy, dx),
    ];
    !axes.iter().any(|&(ux, uy)| {
        if ux == 0.0 && uy == 0.0 {
            return false;
        }
        let span = |ps: &[Point]| {
            ps.iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
                    let v = p.x * ux + p.y * uy;
                    (lo.min(v), hi.max(v))
                })
        };
        let (alo, ahi) = span(&swept);
        let (blo, bhi) = span(&b);
        let slack = 1e-9 * ux.hypot(uy) * (1.0 + fp.centre.x.abs() + fp.centre.y.abs());
        ahi < blo - slack || bhi < alo - slack
    })
}

/// A company's frontage in its formation (the rules give no base sizes: 1" a figure in line, 2" a figure in
/// skirmish order, 2" for a column).
fn frontage(formation: Formation, figures: usize) -> f64 {
    let n = figures.max(1) as f64;
    match formation {
        Formation::Line => n,
        Formation::Skirmish => 2.0 * n,
        Formation::Column => 2.0,
    }
}

/// Where figure `i` of `n` stands in a footprint (the rules give no base sizes): in line, in skirmish order
/// and in a gun's crew, one rank across the frontage, evenly spaced from its left; in column, two files 1"
/// apart, ranks evenly spaced through the depth from the front.
fn figure_point(fp: &Footprint, column: bool, n: usize, i: usize) -> Point {
    let right = fp.facing.turned(90.0);
    let (across, along) = if column {
        let rows = n.div_ceil(2).max(1) as f64;
        let (row, file) = ((i / 2) as f64, (i % 2) as f64);
        (
            file - 0.5,
            fp.depth.0 / 2.0 - fp.depth.0 * (row + 0.5) / rows,
        )
    } else {
        let w = fp.frontage.0;
        (-w / 2.0 + w * (i as f64 + 0.5) / n.max(1) as f64, 0.0)
    };
    fp.centre
        .moved(right, Inches(across))
        .moved(fp.facing, Inches(along))
}

/// A gun's line of fire at a company, measured on the table ([`State::gun_aim`]).
#[derive(Clone, Debug, PartialEq)]
pub struct GunAim {
    /// The gun.
    pub gun: GunId,
    /// Where the gun stands: the centre of its crew's footprint.
    pub from: Point,
    /// The aimed figure of the target (its index in [`crate::state::Company::figures`]) and where it stands.
    pub figure: usize,
    /// Where the aimed figure stands: the aim point of round shot, the aimed figure of canister.
    pub at: Point,
    /// Degrees between the gun's facing and the aimed figure (HT-ART-02: more than 15 is outside its arc).
    pub off_facing: f64,
    /// From the gun to the nearest point of the target's footprint, in inches.
    pub distance: f64,
    /// The target's cover from the gun: in a wood, or within 2" behind a fence seen across it (HT-SG2-13).
    pub cover: Cover,
    /// The gun stands outside the target's front arc.
    pub enfilade: bool,
    /// Companies whose footprints the line from the gun to the aimed figure crosses, nearest first.
    pub between: Vec<CompanyId>,
}

/// A regimental activation under way (HT-SEQ-04): its colonel, its companies and where each stood when it
/// began, the wave, and the companies that have taken their action of this wave.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct RegimentTurn {
    colonel: CompanyId,
    companies: Vec<CompanyId>,
    from: Vec<Point>,
    wave: u8,
    acted: Vec<CompanyId>,
}

/// A game as saved, checked by [`State::try_from`] before it is loaded.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct StateData {
    battle: Battle,
    field: Field,
    rng: GameRng,
    turn: u32,
    turns: u32,
    first: Option<Side>,
    to_act: Side,
    active: Option<CompanyId>,
    reaction: Option<Point>,
    #[cfg_attr(feature = "serde", serde(default))]
    withdrawal: Option<(CompanyId, CompanyId)>,
    #[cfg_attr(feature = "serde", serde(default))]
    regiment: Option<RegimentTurn>,
    #[cfg_attr(feature = "serde", serde(default))]
    resume: Option<CompanyId>,
    end: Option<Outcome>,
}

#[cfg(feature = "serde")]
impl TryFrom<StateData> for State {
    type Error = GameSetupError;

    /// The checks of set-up and play: one footprint per company, each on the table; a turn within the limit
    /// (1 to 50); an active company that exists, belongs to the side in its activation and has actions left,
    /// an assault under way or a withdrawal to choose; no active company before the first side is chosen; a
    /// withdrawal only of one company from an enemy, with no other question open.
    fn try_from(d: StateData) -> Result<State, GameSetupError> {
        let bad = |why: &str| Err(GameSetupError::Inconsistent(why.to_string()));
        if !(1..=50).contains(&d.turns) || d.turn == 0 || d.turn > d.turns {
            return bad("its turn lies outside the game's turn limit");
        }
        let n = d.battle.company_ids().count();
        if d.field.at.len() != n {
            return bad("the table does not hold one footprint per company");
        }
        if d.field.at.iter().any(|f| !d.field.table.holds(f)) {
            return bad("a company stands off the table");
        }
        for (i, (g, fp)) in d.field.teams.iter().enumerate() {
            if d.battle.gun(*g).is_err()
                || d.field.teams[..i].iter().any(|(o, _)| o == g)
                || !d.field.table.holds(fp)
            {
                return bad(
                    "a gun's team stands off the table, twice, or for no gun of the battle",
                );
            }
        }
        let dummies = d.field.dummies.len();
        if (0..dummies).any(|i| {
            let (id, fp) = &d.field.dummies[i];
            d.battle.dummy(*id).is_err()
                || d.field.dummies[..i].iter().any(|(o, _)| o == id)
                || !d.field.table.holds(fp)
        }) || d
            .battle
            .dummy(DummyId(u32::try_from(dummies).unwrap_or(u32::MAX)))
            .is_ok()
        {
            return bad("the table does not hold one place for each dummy counter of the battle");
        }
        if let Some(a) = d.active {
            let Ok(c) = d.battle.company(a) else {
                return bad("the active company is not in the battle");
            };
            if d.first.is_none()
                || (c.actions_left() == 0
                    && d.battle.assault_defender().is_none()
                    && d.battle.short_of_contact().is_none()
                    && d.withdrawal.is_none())
            {
                return bad("a company is active out of its activation");
            }
        }
        if d.reaction.is_some()
            && (d.active.is_none()
                || d.reaction
                    .is_some_and(|p| !p.x.is_finite() || !p.y.is_finite()))
        {
            return bad("a reaction is asked for with no company moving");
        }
        if d.battle.assault_defender().is_some() && d.active.is_none() {
            return bad("an assault waits for its defender with no attacker active");
        }
        if let Some((who, _, _)) = d.battle.short_of_contact()
            && (d.active != Some(who) || d.reaction.is_some() || d.withdrawal.is_some())
        {
            return bad(
                "an attacker short of contact owes a choice while it is not the company acting, or with another question open",
            );
        }
        if let Some((who, from)) = d.withdrawal {
            let side = |id| {
                d.battle
                    .company(id)
                    .map(|c: &crate::state::Company| c.side())
            };
            match (side(who), side(from)) {
                (Ok(a), Ok(b)) if a != b => {}
                _ => {
                    return bad(
                        "a withdrawal is asked for that is not one company falling back from an enemy",
                    );
                }
            }
            if d.reaction.is_some() || d.battle.assault_defender().is_some() {
                return bad("a withdrawal is asked for while another question is open");
            }
        }
        let colonel = |id: CompanyId| d.field.colonels.iter().any(|c| c.0 == id);
        if (0..d.field.colonels.len()).any(|i| {
            let (id, r) = d.field.colonels[i];
            d.battle
                .company_at(id)
                .is_none_or(|c| c.regiment() != Some(r))
                || d.field.colonels[..i].iter().any(|o| {
                    o.0 == id
                        || (o.1 == r
                            && d.battle.company(o.0).map(|c| c.side()).ok()
                                == d.battle.company(id).map(|c| c.side()).ok())
                })
        }) {
            return bad(
                "a colonel is not in the battle, not of his regiment, or his regiment has two",
            );
        }
        if d.field.fallen.iter().enumerate().any(|(i, &id)| {
            !colonel(id)
                || d.field.fallen[..i].contains(&id)
                || d.battle.company_at(id).is_none_or(|c| c.has_fit())
        }) {
            return bad("a fallen colonel is not a colonel, is named twice, or still stands");
        }
        if let Some(reg) = &d.regiment {
            let known = |id: CompanyId| d.battle.company(id).is_ok();
            if !colonel(reg.colonel)
                || !(1..=2).contains(&reg.wave)
                || reg.companies.len() != reg.from.len()
                || !reg.companies.iter().chain(&reg.acted).all(|&c| known(c))
                || reg.acted.iter().any(|a| !reg.companies.contains(a))
                || d.active.is_some_and(|a| !reg.companies.contains(&a))
                || d.resume.is_some()
            {
                return bad(
                    "a regimental activation names a unit that is not its colonel's or its own",
                );
            }
        }
        if let Some(r) = d.resume
            && (!colonel(r) || d.active.is_none())
        {
            return bad("a colonel waits to go on with no unit acting on his transfer");
        }
        Ok(State {
            battle: d.battle,
            field: d.field,
            rng: d.rng,
            turn: d.turn,
            turns: d.turns,
            first: d.first,
            to_act: d.to_act,
            active: d.active,
            reaction: d.reaction,
            withdrawal: d.withdrawal,
            regiment: d.regiment,
            resume: d.resume,
            end: d.end,
        })
    }
}

/// The whole game: the battle, the field and the dice.
///
/// `clone_from` copies into a state already there without allocating where it can (every list keeps its room,
/// the shared names stay shared): [`Hardtack`] applies each order, and [`State::check_order`] tries each, on a
/// spare kept per thread and copied from the game's state this way, so that a refused order changes nothing.
#[derive(Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "StateData"))]
pub struct State {
    battle: Battle,
    field: Field,
    rng: GameRng,
    turn: u32,
    turns: u32,
    first: Option<Side>,
    to_act: Side,
    active: Option<CompanyId>,
    reaction: Option<Point>,
    #[cfg_attr(feature = "serde", serde(default))]
    withdrawal: Option<(CompanyId, CompanyId)>,
    /// A regimental activation under way (HT-SEQ-04).
    #[cfg_attr(feature = "serde", serde(default))]
    regiment: Option<RegimentTurn>,
    /// The colonel who transferred an action to the active unit, to go on when it is done (HT-CMD-01).
    #[cfg_attr(feature = "serde", serde(default))]
    resume: Option<CompanyId>,
    end: Option<Outcome>,
}

impl Clone for State {
    fn clone(&self) -> State {
        State {
            battle: self.battle.clone(),
            field: self.field.clone(),
            rng: self.rng.clone(),
            turn: self.turn,
            turns: self.turns,
            first: self.first,
            to_act: self.to_act,
            active: self.active,
            reaction: self.reaction,
            withdrawal: self.withdrawal,
            regiment: self.regiment.clone(),
            resume: self.resume,
            end: self.end,
        }
    }

    fn clone_from(&mut self, source: &State) {
        // Destructured so that a field added to `State` cannot be left out here.
        let State {
            battle,
            field,
            rng,
            turn,
            turns,
            first,
            to_act,
            active,
            reaction,
            withdrawal,
            regiment,
            resume,
            end,
        } = source;
        self.battle.clone_from(battle);
        self.field.clone_from(field);
        self.rng.clone_from(rng);
        self.turn = *turn;
        self.turns = *turns;
        self.first = *first;
        self.to_act = *to_act;
        self.active = *active;
        self.reaction = *reaction;
        self.withdrawal = *withdrawal;
        self.regiment.clone_from(regiment);
        self.resume = *resume;
        self.end = *end;
    }
}

thread_local! {
    /// A state to apply the next order to on this thread, or to check the next candidate order on: the game's
    /// state before the last order applied here (or the copy last checked or refused), whose lists are reused.
    /// See `State::spare_copy`.
    static SPARE_STATE: acw_core::game::Spare<State> = const { acw_core::game::Spare::new() };
}

impl State {
    /// Sets up `scenario` with dice from `seed`.
    ///
    /// # Errors
    /// A turn limit outside 1–50, a company the rules refuse, off the table or overlapping another, or a side
    /// with none.
    pub fn new(scenario: &Scenario, seed: u64) -> Result<State, GameSetupError> {
        let (battle, field) = scenario.raise()?;
        Ok(State {
            battle,
            field,
            rng: GameRng::seed(seed),
            turn: 1,
            turns: scenario.turns,
            first: None,
            // the side that went second "last turn": the Union chooses on the first turn
            to_act: Side::Confederate,
            active: None,
            reaction: None,
            withdrawal: None,
            regiment: None,
            resume: None,
            end: None,
        })
    }

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

    /// The turn (from 1).
    #[must_use]
    pub const fn turn(&self) -> u32 {
        self.turn
    }

    /// The company activated now.
    #[must_use]
    pub const fn active(&self) -> Option<CompanyId> {
        self.active
    }

    /// The confidence tests the battle rolled since last asked, each as the chance of its result for the side
    /// of the company testing.
    fn tests_luck(&mut self, narrate: bool) -> Vec<LuckyRoll> {
        let tests = self.battle.take_tests();
        if !narrate {
            return Vec::new();
        }
        self.luck_of_tests(&tests)
    }

    /// Each confidence test taken from the battle ([`Battle::take_tests`]) as the chance of its result for the
    /// side of the company testing.
    fn luck_of_tests(
        &self,
        tests: &[(CompanyId, crate::morale::ConfidenceTest, Confidence)],
    ) -> Vec<LuckyRoll> {
        tests
            .iter()
            .map(|(id, test, result)| {
                LuckyRoll::from_dist(self.side_of(*id), &test.odds(), result, confidence_goodness)
            })
            .collect()
    }

    /// The chance of the casualties a fire's impact dice gave, from the rolls the battle made since last asked
    /// ([`roll_luck`]); the other rolls are let go (a fire makes none).
    fn impact_luck(&mut self, narrate: bool) -> Option<LuckyRoll> {
        let rolls = self.battle.take_rolls();
        if !narrate {
            return None;
        }
        rolls
            .iter()
            .find(|r| matches!(r, RollMade::Casualties { .. }))
            .map(|r| roll_luck(r).1)
    }

    /// The chance of each roll the battle made since last asked, other than its confidence tests
    /// ([`roll_luck`]).
    fn rolls_luck(&mut self, narrate: bool) -> Vec<RollChance> {
        let rolls = self.battle.take_rolls();
        if !narrate {
            return Vec::new();
        }
        rolls
            .iter()
            .map(|r| {
                let (roll, chance) = roll_luck(r);
                RollChance {
                    roll: roll.to_string(),
                    chance,
                }
            })
            .collect()
    }

    /// The chance an observation (HT-SG2-25) had of the `result` it rolled, as the observer's side saw it: the
    /// observer's quality die against the target's die for the distance, cover and In Position (of a company; a
    /// counter never is). `None` when the observer or the distance is not one the table has.
    fn observation_chance(
        &self,
        observer: CompanyId,
        distance: f64,
        cover: Cover,
        in_position: bool,
        result: Success,
    ) -> Option<LuckyRoll> {
        let look = crate::fire::Observation {
            quality: self.battle.company_at(observer)?.quality().die(),
            target: crate::fire::Observation::target_die(distance, cover, in_position).ok()?,
        };
        Some(LuckyRoll::from_dist(
            self.side_of(observer),
            &look.odds(),
            &result,
            |r| *r as u8,
        ))
    }

    /// The side of a company (the Union for an unknown one: only companies of the battle are asked about).
    fn side_of(&self, id: CompanyId) -> Side {
        self.battle.company_at(id).map_or(Side::Union, |c| c.side())
    }

    fn name(&self, id: CompanyId) -> String {
        self.battle
            .company(id)
            .map_or_else(|_| format!("company {}", id.0), |c| c.name().to_string())
    }

    /// Companies that may still activate this turn on `side`: not yet activated and with a fit figure.
    #[must_use]
    pub fn waiting(&self, side: Side) -> Vec<CompanyId> {
        self.battle
            .company_ids()
            .filter(|&id| self.is_waiting(id, side))
            .collect()
    }

    fn is_waiting(&self, id: CompanyId, side: Side) -> bool {
        self.battle
            .company_at(id)
            .is_some_and(|c| c.side() == side && !c.activated() && c.has_fit())
    }

    /// Whether `side` has a company waiting ([`State::waiting`] not empty).
    fn any_waiting(&self, side: Side) -> bool {
        self.battle
            .company_ids()
            .any(|id| self.is_waiting(id, side))
    }

    /// Who owes the next decision and what it is.
    #[must_use]
    pub fn decision(&self) -> Option<Decision<Question>> {
        if self.end.is_some() {
            return None;
        }
        if let Some((who, from)) = self.withdrawal {
            return Some(Decision {
                side: self.side_of(who),
                question: Question::Withdraw {
                    company: self.name(who),
                    from: self.name(from),
                },
            });
        }
        if let Some((who, def, kind)) = self.battle.short_of_contact() {
            let (company, defender) = (self.name(who), self.name(def));
            return Some(Decision {
                side: self.side_of(who),
                question: match kind {
                    ShortOfContact::StillShort { .. } => Question::MidDash { company, defender },
                    ShortOfContact::Withdraws => Question::FallBack { company, defender },
                },
            });
        }
        if let Some(d) = self.battle.assault_defender() {
            let c = self.battle.company_at(d)?;
            return Some(Decision {
                side: c.side(),
                question: Question::Defend {
                    defender: c.name().to_string(),
                },
            });
        }
        if let (Some(a), Some(_)) = (self.active, self.reaction) {
            let c = self.battle.company_at(a)?;
            return Some(Decision {
                side: c.side().enemy(),
                question: Question::React {
                    mover: c.name().to_string(),
                },
            });
        }
        if let Some(a) = self.active
            && let Some(riders) = self.unhorsed_riders(a)
        {
            return Some(Decision {
                side: self.side_of(a),
                question: Question::Unhorsed {
                    company: self.name(a),
                    riders,
                },
            });
        }
        if let Some(a) = self.active {
            let c = self.battle.company_at(a)?;
            return Some(Decision {
                side: c.side(),
                question: Question::Act {
                    company: c.name().to_string(),
                    actions: c.actions_left(),
                },
            });
        }
        if let Some(reg) = &self.regiment {
            return Some(Decision {
                side: self.side_of(reg.colonel),
                question: Question::Regiment {
                    colonel: self.name(reg.colonel),
                    wave: reg.wave,
                },
            });
        }
        if self.first.is_none() {
            return Some(Decision {
                side: self.chooser(),
                question: Question::WhoGoesFirst { turn: self.turn },
            });
        }
        Some(Decision {
            side: self.to_act,
            question: Question::Activate {
                may_pass: self.battle.may_pass(self.to_act),
            },
        })
    }

    /// The side that chooses who activates first (HT-SG2-03): the one with fewer companies; with equal
    /// numbers, the side that went second last turn (the Union on the first turn).
    fn chooser(&self) -> Side {
        self.battle.chooses_first().unwrap_or(self.to_act.enemy())
    }

    /// The nearest enemy company with a fit figure to `id`.
    #[must_use]
    pub fn nearest_enemy(&self, id: CompanyId) -> Option<(CompanyId, f64)> {
        let me = self.battle.company_at(id)?;
        let fp = self.field.footprint(id)?;
        // Every point of a footprint lies within half its diagonal of its centre, so the centres' distance less
        // both half-diagonals bounds the exact distance from below. The enemy of the nearest bound is measured
        // first; then, in the order of their ids, every other enemy whose bound is not beyond the best distance
        // so far (one beyond it cannot be nearer, nor equal: the margin); equal distances go to the lower id.
        // Which enemies are measured changes no answer, only how many measures it takes. Squares and square
        // roots (no `hypot`, no list): the bounds are rounded no worse than by a billionth.
        let enemies = || {
            self.battle.company_ids().filter_map(|o| {
                let c = self.battle.company_at(o)?;
                let ofp = self.field.footprint(o)?;
                (c.side() != me.side() && c.has_fit()).then_some((o, ofp))
            })
        };
        let bound = |ofp: &Footprint| {
            let (dx, dy) = (ofp.centre.x - fp.centre.x, ofp.centre.y - fp.centre.y);
            (dx * dx + dy * dy).sqrt() - rough_reach(fp) - rough_reach(ofp)
        };
        let (first, first_fp) = enemies().min_by(|a, b| bound(a.1).total_cmp(&bound(b.1)))?;
        let mut best = (first, measured(fp, first_fp));
        for (o, ofp) in enemies() {
            if o == first || bound(ofp) - 1e-9 > best.1 {
                continue;
            }
            let d = measured(fp, ofp);
            if d < best.1 || (d == best.1 && o < best.0) {
                best = (o, d);
            }
        }
        Some(best)
    }

    /// The facts of a fire from `firer` at `target` measured on the table: distance between footprints, line of
    /// sight through woods (HT-SG2-11, HT-SG2-12) and past the companies across it (HT-FIR-02): friendly
    /// skirmishers never block, a friendly line or column blocks unless the firer stands directly behind it and
    /// touching it (within the half inch no move closes, HT-FIR-22), one enemy skirmish company is fired
    /// through and any other enemy blocks (HT-FIR-23), a company with no figure standing blocks nothing; cover
    /// in woods or behind a fence, the target's or that of the skirmishers fired through (HT-SG2-13,
    /// HT-FIR-23), enfilade from outside the target's front arc, the firer's own arc (HT-FIR-21).
    ///
    /// # Errors
    /// An unknown company, or no line of sight.
    pub fn fire_facts(&self, firer: CompanyId, target: CompanyId) -> Result<FireFacts, GameError> {
        let unknown = |id: CompanyId| GameError::Rules(RuleViolation::UnknownCompany(id));
        let f = self.field.footprint(firer).ok_or_else(|| unknown(firer))?;
        let t = self
            .field
            .footprint(target)
            .ok_or_else(|| unknown(target))?;
        self.facts_between(firer, f, target, t)
            .ok_or_else(|| GameError::NoSight {
                firer: self.name(firer),
                target: self.name(target),
            })
    }

    /// [`State::fire_facts`] for the game's own questions that need only the facts, not why there are none:
    /// `None` for an unknown company or no line of sight, without building the error's text.
    pub(crate) fn fire_facts_if_seen(
        &self,
        firer: CompanyId,
        target: CompanyId,
    ) -> Option<FireFacts> {
        let f = self.field.footprint(firer)?;
        let t = self.field.footprint(target)?;
        self.facts_between(firer, f, target, t)
    }

    /// The line of sight of [`State::fire_facts`] between two footprints (the terrain, then the companies
    /// across it): the enemy skirmish company fired through and the friendly company the firer stands directly
    /// behind, if any; `None` when there is no line of sight.
    fn sight_between(
        &self,
        firer: CompanyId,
        f: &Footprint,
        target: CompanyId,
        t: &Footprint,
    ) -> Option<Sight> {
        let (from, to) = (f.front_centre(), t.centre);
        // the terrain first, then the companies across the line
        if !self.field.table.line_of_sight(from, to, &[]) {
            return None;
        }
        let side = self.battle.company_at(firer)?.side();
        let mut through = None;
        let mut friendly_between = None;
        for (i, o) in self.field.at.iter().enumerate() {
            if i == firer.0 as usize
                || i == target.0 as usize
                || clearly_misses(o, from, to)
                || !o.blocks(from, to)
            {
                continue;
            }
            let id = CompanyId(u32::try_from(i).ok()?);
            let c = self.battle.company_at(id)?;
            if !c.has_fit() {
                // no figure standing: no unit in the way
                continue;
            }
            let close = c.formation().is_close();
            if c.side() == side {
                if !close {
                    // friendly skirmishers never block sight or fire (HT-FIR-22)
                    continue;
                }
                // a friendly close formation blocks unless the firer stands directly behind it, as near as
                // the table lets companies stand (HT-FIR-22: a second line firing through the first)
                if friendly_between.is_none()
                    && f.in_front_arc(o, 0.0)
                    && measured(f, o) <= TOUCHING + 1e-9
                {
                    friendly_between = Some((id, true));
                    continue;
                }
                return None;
            }
            // one enemy skirmish company is fired through; an enemy close formation, or a second
            // company, blocks (HT-FIR-23)
            if close || through.is_some() {
                return None;
            }
            through = Some(id);
        }
        Some((through, friendly_between))
    }

    /// The distance from `firer` to `target` when it has a line of sight to it ([`State::fire_facts`]'s
    /// distance, `None` where that has no facts), for the bots' search for targets: the cover, arcs and
    /// enfilade are not looked at.
    pub(crate) fn seen_distance(&self, firer: CompanyId, target: CompanyId) -> Option<f64> {
        let f = self.field.footprint(firer)?;
        let t = self.field.footprint(target)?;
        self.sight_between(firer, f, target, t)?;
        Some(measured(f, t))
    }

    /// The facts of [`State::fire_facts`] between two footprints; `None` when there is no line of sight.
    fn facts_between(
        &self,
        firer: CompanyId,
        f: &Footprint,
        target: CompanyId,
        t: &Footprint,
    ) -> Option<FireFacts> {
        let (through, friendly_between) = self.sight_between(firer, f, target, t)?;
        // skirmishers fired through in cover give the target the same cover (HT-FIR-23)
        let in_cover = self.field.table.in_cover(t, f.centre, Inches(BEHIND))
            || through.is_some_and(|s| self.covered_from(s, f.centre));
        Some(FireFacts {
            distance: measured(f, t),
            cover: if in_cover { Cover::Soft } else { Cover::Open },
            through,
            enfilade: !t.in_front_arc(f, ARC),
            arc_blocked: !centre_in_front_arc(f, t.centre)
                || self.column_fires_through_itself(firer),
            within_woods: self.field.in_woods(t.centre) && self.field.in_woods(f.centre),
            friendly_between,
            ..FireFacts::default()
        })
    }

    /// Whether `id` is a column with fit figures in more than one of its rows (HT-FIR-21, HT-FRM-04): its
    /// figures stand in two files ([`figure_point`]), so a rear figure's line to any target crosses the figure
    /// ahead of it or, to the side, the other file; not every member can fire, and the column cannot. A
    /// column whose fit figures stand in one row fires as a line of them does.
    fn column_fires_through_itself(&self, id: CompanyId) -> bool {
        let Ok(c) = self.battle.company(id) else {
            return false;
        };
        if c.formation() != Formation::Column || self.crews(id) {
            return false;
        }
        let mut rows = c
            .figures()
            .iter()
            .enumerate()
            .filter(|(_, x)| x.condition == crate::state::Condition::Fit)
            .map(|(i, _)| i / 2);
        let first = rows.next();
        rows.any(|r| Some(r) != first)
    }

    /// The move of `id` to `to` as the battle would take it — its distance centre to centre, the going, toward
    /// the enemy or out of cover, and the friendly company its footprint passes through on the way
    /// ([`MoveOrder::through`], HT-MOV-07) — checked by the table and by [`Battle::check_move`] without a die
    /// rolled. The move itself rolls its reaction tests, if any ([`Battle::move_tests`]).
    ///
    /// # Errors
    /// The move refused, with its reason: off the table, onto taken ground, touching an enemy on its way,
    /// through more than one company, a close formation through another, or any refusal of the battle.
    pub fn preview_move(&self, id: CompanyId, to: Point) -> Result<MoveOrder, GameError> {
        self.battle.company(id)?;
        let mut copy = self.spare_copy();
        let planned = copy.plan_move(id, to);
        copy.keep_as_spare();
        let (order, _, _) = planned?;
        self.battle.check_move(id, &order)?;
        Ok(order)
    }

    /// Whether `order` would be accepted now for `side`: it is applied to a copy with the game's own dice.
    #[must_use]
    pub fn check_order(&self, side: Side, order: &Order) -> bool {
        if self.decision().is_none_or(|d| d.side != side) {
            return false;
        }
        // A move onto ground the table refuses is refused whatever else holds (both ways of moving check the
        // ground first): that is answered without copying the game.
        if let (Some(id), Order::Move { to }) = (self.active, order)
            && let Some(old) = self.field.at.get(id.0 as usize)
            && matches!(
                self.decision(),
                Some(Decision {
                    question: Question::Act { .. },
                    ..
                })
            )
            && self.ground(id, &old.placed(*to, old.facing)) != Ground::Free
        {
            return false;
        }
        let mut next = self.spare_copy();
        let mut rng = next.rng.clone();
        // the copy is thrown away: the battle's steps need no copies of their own
        next.battle.as_throwaway_copy(true);
        let accepted = next
            .apply_order(order, &mut rng, &mut Vec::new(), false)
            .is_ok();
        next.keep_as_spare();
        accepted
    }

    /// A copy of this state, made into this thread's spare (`SPARE_STATE`) where one is kept, which allocates
    /// little; afresh otherwise (as when an order is checked inside another's application, which holds it).
    fn spare_copy(&self) -> State {
        SPARE_STATE.with(|spare| spare.copy_of(self))
    }

    /// Keeps this state as this thread's spare, for the next [`State::spare_copy`] to copy into.
    fn keep_as_spare(self) {
        SPARE_STATE.with(|spare| spare.keep(self));
    }

    fn active_or(&self, q: &Question) -> Result<CompanyId, GameError> {
        self.active.ok_or_else(|| GameError::NotAsked(q.clone()))
    }

    fn apply_order(
        &mut self,
        order: &Order,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
        narrate: bool,
    ) -> Result<(), GameError> {
        let Some(decision) = self.decision() else {
            return Err(GameError::Over);
        };
        let q = decision.question.clone();
        let not_asked = || GameError::NotAsked(q.clone());
        // tests and rolls made outside an order (by a caller of the battle) belong to no event
        self.battle.take_tests();
        self.battle.take_rolls();
        let mut rec = Recording {
            dice,
            rolls: Vec::new(),
            narrate,
        };
        if let (Question::Act { .. }, Some(a)) = (&q, self.active)
            && self.field.colonel_of(a).is_some()
            && matches!(
                order,
                Order::Fire { .. }
                    | Order::Reload
                    | Order::Reorganise(_)
                    | Order::Assault { .. }
                    | Order::Load(_)
                    | Order::FireGun { .. }
                    | Order::FireAtDummy { .. }
                    | Order::FireAtTeam { .. }
                    | Order::FireGunAtTeam { .. }
            )
        {
            return Err(GameError::Company(format!(
                "{} commands his regiment: he does not fire, reorganise or assault",
                self.name(a)
            )));
        }
        match (&q, order) {
            (Question::Activate { .. }, Order::ActivateRegiment { companies }) => {
                self.activate_regiment(companies, log)?;
            }
            (Question::Regiment { wave, .. }, Order::Activate(id)) => {
                if !self.wave_open().contains(id) {
                    return Err(GameError::Company(format!(
                        "{} is not a company of the regiment still to take its {} action",
                        self.name(*id),
                        if *wave == 1 { "first" } else { "second" }
                    )));
                }
                self.active = Some(*id);
                log.push(Event::WaveAction {
                    company: self.name(*id),
                    wave: *wave,
                });
            }
            (Question::Act { .. }, Order::Transfer { to }) => {
                let id = self.active_or(&q)?;
                self.transfer(id, *to, log)?;
            }
            (Question::WhoGoesFirst { .. }, Order::GoFirst(side)) => {
                self.first = Some(*side);
                self.to_act = *side;
                log.push(Event::GoesFirst(*side));
                if !self.any_waiting(*side) {
                    self.to_act = side.enemy();
                }
            }
            (Question::Activate { .. }, Order::Activate(id)) => {
                let c = self.battle.company(*id)?;
                if c.side() != self.to_act {
                    return Err(GameError::Company(format!(
                        "{} belongs to the other side",
                        c.name()
                    )));
                }
                if !c.has_fit() {
                    return Err(GameError::Company(format!(
                        "{} has no fit figure left",
                        c.name()
                    )));
                }
                self.battle.activate(*id)?;
                self.active = Some(*id);
                log.push(Event::Activated(self.name(*id)));
            }
            (Question::Activate { may_pass: true }, Order::Pass) => {
                log.push(Event::Passed(self.to_act));
                self.to_act = self.to_act.enemy();
            }
            (Question::Act { .. }, Order::Move { to }) => {
                let id = self.active_or(&q)?;
                self.broken_leaving_cover(id, *to)?;
                self.move_or_wait(id, *to, &mut rec, log)?;
            }
            (Question::React { .. }, Order::React(firer)) => {
                let (Some(id), Some(to)) = (self.active, self.reaction) else {
                    return Err(not_asked());
                };
                if let Some(firer) = firer {
                    if !self.reactors(id).contains(firer) {
                        return Err(GameError::Company(format!(
                            "{} cannot give reaction fire at {}: it must be an unactivated company of the other side that sees it",
                            self.name(*firer),
                            self.name(id)
                        )));
                    }
                    let facts = self.fire_facts(*firer, id)?;
                    rec.about(format_args!(
                        "the reaction fire of {} at {}",
                        self.name(*firer),
                        self.name(id)
                    ));
                    let report = self.battle.reaction_fire(*firer, id, facts, &mut rec)?;
                    let chance = rec
                        .narrate
                        .then(|| fire_chance(&report, self.side_of(*firer)))
                        .flatten();
                    let impact = self.impact_luck(rec.narrate);
                    let tests = self.tests_luck(rec.narrate);
                    log.push(Event::Fired {
                        line: format!(
                            "{} gives reaction fire at {} {:.1}\" away{}",
                            self.name(*firer),
                            self.name(id),
                            facts.distance,
                            facts.through.map_or_else(String::new, |s| format!(
                                ", through {}",
                                self.name(s)
                            ))
                        ),
                        report: report.to_string(),
                        rolls: std::mem::take(&mut rec.rolls),
                        chance,
                        impact,
                        tests,
                    });
                } else {
                    log.push(Event::NoReaction(self.name(id)));
                }
                self.reaction = None;
                // the move goes on if the rules still allow it; a company the fire has shaken may not
                let mut trial = self.clone();
                let mut trial_log = Vec::new();
                let before = rec.rolls.len();
                if trial.do_move(id, to, &mut rec, &mut trial_log).is_ok() && rec.fault().is_none()
                {
                    *self = trial;
                    log.extend(trial_log);
                } else {
                    rec.rolls.truncate(before);
                    self.battle.end_activation()?;
                    log.push(Event::Moved {
                        company: self.name(id),
                        distance: 0.0,
                        moved: false,
                        rolls: Vec::new(),
                        chance: None,
                    });
                }
            }
            (Question::Act { .. }, Order::Fire { target }) => {
                let id = self.active_or(&q)?;
                let facts = self.fire_facts(id, *target)?;
                rec.about(format_args!(
                    "the fire of {} at {}",
                    self.name(id),
                    self.name(*target)
                ));
                let report = self.battle.fire(id, *target, facts, &mut rec)?;
                let chance = rec
                    .narrate
                    .then(|| fire_chance(&report, self.side_of(id)))
                    .flatten();
                let impact = self.impact_luck(rec.narrate);
                let tests = self.tests_luck(rec.narrate);
                let line = format!(
                    "{} fires at {} {:.1}\" away{}{}{}",
                    self.name(id),
                    self.name(*target),
                    facts.distance,
                    facts
                        .through
                        .map_or_else(String::new, |s| format!(", through {}", self.name(s))),
                    if facts.cover == Cover::Soft {
                        ", the target in cover"
                    } else {
                        ""
                    },
                    if facts.enfilade {
                        ", from its flank"
                    } else {
                        ""
                    }
                );
                log.push(Event::Fired {
                    line,
                    report: report.to_string(),
                    rolls: std::mem::take(&mut rec.rolls),
                    chance,
                    impact,
                    tests,
                });
            }
            (Question::Act { .. }, Order::Reload) => {
                let id = self.active_or(&q)?;
                self.battle.reload(id)?;
                log.push(Event::Reloaded(self.name(id)));
            }
            (Question::Act { .. }, Order::Reorganise(formation)) => {
                let id = self.active_or(&q)?;
                self.battle.reorganise(id, *formation)?;
                let fit = self.battle.company(id)?.figures().len();
                let old = self.field.at[id.0 as usize];
                let width = if self.crews(id) {
                    GUN_FRONTAGE
                } else {
                    frontage(*formation, fit)
                };
                let fp = Footprint::new(old.centre, old.facing, Inches(width), Inches(DEPTH))
                    .map_err(|e| GameError::Ground {
                        company: self.name(id),
                        why: e.to_string(),
                    })?;
                self.check_ground(id, &fp)?;
                self.field.at[id.0 as usize] = fp;
                log.push(Event::Reorganised {
                    company: self.name(id),
                    formation: *formation,
                });
            }
            (Question::Act { .. }, Order::Rally { target }) => {
                let id = self.active_or(&q)?;
                let (a, b) = (
                    self.field.footprint(id).copied(),
                    self.field.footprint(*target).copied(),
                );
                let (Some(a), Some(b)) = (a, b) else {
                    return Err(RuleViolation::UnknownCompany(*target).into());
                };
                rec.about(format_args!(
                    "{} rallying {}",
                    self.name(id),
                    self.name(*target)
                ));
                // the test as it stands before the roll (a refused rally is refused by the rally itself)
                let test = rec
                    .narrate
                    .then(|| self.battle.rally_test(id, *target).ok())
                    .flatten();
                let (level, passed) =
                    self.battle
                        .rally_passed(id, *target, a.distance(&b).0, &mut rec)?;
                log.push(Event::Rallied {
                    rallier: self.name(id),
                    target: self.name(*target),
                    level,
                    passed,
                    rolls: std::mem::take(&mut rec.rolls),
                    chance: test
                        .map(|t| LuckyRoll::chance(self.side_of(id), t.odds().p(&true), passed)),
                });
            }
            (Question::Act { .. }, Order::Assault { defender }) => {
                let id = self.active_or(&q)?;
                let (Some(a), Some(d)) = (
                    self.field.footprint(id).copied(),
                    self.field.footprint(*defender).copied(),
                ) else {
                    return Err(RuleViolation::UnknownCompany(*defender).into());
                };
                if a.distance(&d).0 > 12.0 {
                    return Err(GameError::Ground {
                        company: self.name(id),
                        why: "a close assault reaches at most 12 inches, two combat moves"
                            .to_string(),
                    });
                }
                rec.about(format_args!("the assault test of {}", self.name(id)));
                // the test as it stands before the roll (a refused assault is refused by the assault itself)
                let test = rec
                    .narrate
                    .then(|| self.battle.assault_test(id).ok())
                    .flatten();
                let goes_in = self.battle.assault(id, *defender, &mut rec)?;
                log.push(Event::AssaultDeclared {
                    attacker: self.name(id),
                    defender: self.name(*defender),
                    goes_in,
                    rolls: std::mem::take(&mut rec.rolls),
                    chance: test
                        .map(|t| LuckyRoll::chance(self.side_of(id), t.odds().p(&true), goes_in)),
                });
            }
            (Question::Defend { .. }, Order::Defend { stand, final_fire }) => {
                let Some(def) = self.battle.assault_defender() else {
                    return Err(not_asked());
                };
                let att = self.active_or(&q)?;
                let choice = if *stand {
                    DefenderChoice::Stand {
                        final_fire: *final_fire,
                    }
                } else {
                    DefenderChoice::Withdraw
                };
                rec.about(format_args!("the stand test of {}", self.name(def)));
                let report = self.battle.defend(choice, &mut rec)?;
                let mut steps = report.steps;
                // a fall back's passings are said after the assault that led to it
                let mut later = Vec::new();
                if report.over {
                    self.withdraw(def, att, &mut later);
                } else {
                    let (a, d) = (self.field.at[att.0 as usize], self.field.at[def.0 as usize]);
                    rec.about(format_args!("the assault of {}", self.name(att)));
                    let r = self.battle.charge(a.distance(&d).0, &mut rec)?;
                    steps.extend(r.steps);
                    let (ca, cd) = (self.battle.company(att)?, self.battle.company(def)?);
                    if self.battle.short_of_contact().is_some() {
                        // the attacker stopped short: its side's choice comes first, and no melee was fought
                    } else if let Some(&loser) = r.fell_back.first() {
                        // the side that lost the melee's tests falls back, whatever level it is left at
                        // (HT-SG2-40)
                        let winner = if loser == def { att } else { def };
                        self.withdraw(loser, winner, &mut later);
                    } else if cd.confidence() >= ConfidenceLevel::Broken || !cd.has_fit() {
                        self.withdraw(def, att, &mut later);
                    } else if ca.confidence() >= ConfidenceLevel::Broken || !ca.has_fit() {
                        self.withdraw(att, def, &mut later);
                    }
                }
                log.push(Event::Assault {
                    steps,
                    rolls: std::mem::take(&mut rec.rolls),
                    tests: self.tests_luck(rec.narrate),
                    chances: self.rolls_luck(rec.narrate),
                });
                log.append(&mut later);
            }
            (Question::Withdraw { .. }, Order::Withdraw(heading)) => {
                let Some((who, from)) = self.withdrawal else {
                    return Err(not_asked());
                };
                let (fp, distance, through) = self.withdrawal_to(who, from, *heading)?;
                let away = self.away(who, from);
                self.withdrawal = None;
                log.push(Event::Withdrew {
                    company: self.name(who),
                    from: self.name(from),
                    distance,
                    off: away.angle_to(*heading),
                });
                self.place_through(who, fp, through, log)?;
            }
            (Question::MidDash { .. }, Order::StayMidDash) => {
                let Some((who, def, ShortOfContact::StillShort { moved })) =
                    self.battle.short_of_contact()
                else {
                    return Err(not_asked());
                };
                self.battle.stay_mid_dash()?;
                let (fp, distance, through) = self.mid_dash(who, def, moved);
                log.push(Event::StayedMidDash {
                    company: self.name(who),
                    defender: self.name(def),
                    distance,
                });
                self.place_through(who, fp, through, log)?;
            }
            (Question::MidDash { .. }, Order::AbortAssault) => {
                let Some((who, _, _)) = self.battle.short_of_contact() else {
                    return Err(not_asked());
                };
                rec.about(format_args!("the abort test of {}", self.name(who)));
                let step = self.battle.abort_dash(&mut rec)?;
                log.push(Event::Assault {
                    steps: vec![step],
                    rolls: std::mem::take(&mut rec.rolls),
                    tests: self.tests_luck(rec.narrate),
                    chances: self.rolls_luck(rec.narrate),
                });
            }
            (Question::FallBack { .. }, Order::FallBack(to)) => {
                let Some((who, def, _)) = self.battle.short_of_contact() else {
                    return Err(not_asked());
                };
                let old = self.field.at[who.0 as usize];
                let fp = match to {
                    Retreat::StartPoint => old,
                    Retreat::Cover => {
                        self.cover_for(who, def).ok_or_else(|| GameError::Ground {
                            company: self.name(who),
                            why: format!(
                                "no cover lies within 6 inches that does not close on {}",
                                self.name(def)
                            ),
                        })?
                    }
                };
                self.battle.withdraw_short()?;
                self.field.at[who.0 as usize] = fp;
                log.push(Event::FellBack {
                    company: self.name(who),
                    defender: self.name(def),
                    to: *to,
                    distance: old.centre.distance(fp.centre).0,
                });
            }
            (Question::Act { .. }, Order::Load(ammunition)) => {
                let id = self.active_or(&q)?;
                let gun = self.gun_of(id).ok_or_else(|| {
                    GameError::Company(format!("{} serves no gun", self.name(id)))
                })?;
                self.battle.load(gun, *ammunition)?;
                log.push(Event::Loaded {
                    company: self.name(id),
                    gun: self.battle.gun(gun)?.name().to_string(),
                    ammunition: *ammunition,
                });
            }
            (Question::Act { .. }, Order::FireGun { target }) => {
                let id = self.active_or(&q)?;
                let aim = self.gun_aim(id, *target)?;
                let gun = self.battle.gun(aim.gun)?;
                match gun.loaded() {
                    Some(Ammunition::Shot) => {
                        self.fire_round_shot(id, *target, &aim, &mut rec, log)?;
                    }
                    Some(Ammunition::Canister) => {
                        self.fire_canister_line(id, *target, &aim, &mut rec, log)?;
                    }
                    _ => {
                        return Err(RuleViolation::GunRefused {
                            name: gun.name().to_string(),
                            what: "fire",
                            why: "it has neither round shot nor canister loaded",
                        }
                        .into());
                    }
                }
            }
            (Question::Act { .. }, Order::Observe { dummy }) => {
                let id = self.active_or(&q)?;
                let facts = self.counter_facts(id, *dummy)?;
                rec.about(format_args!(
                    "{} observing {}",
                    self.name(id),
                    self.counter_name(*dummy)
                ));
                let result =
                    self.battle
                        .observe_dummy(id, *dummy, facts.distance, facts.cover, &mut rec)?;
                let chance = rec
                    .narrate
                    .then(|| {
                        self.observation_chance(id, facts.distance, facts.cover, false, result)
                    })
                    .flatten();
                log.push(Event::Observed {
                    observer: self.name(id),
                    counter: self.counter_name(*dummy),
                    distance: facts.distance,
                    result,
                    rolls: std::mem::take(&mut rec.rolls),
                    chance,
                });
            }
            (Question::Act { .. }, Order::ObserveCompany { target }) => {
                let id = self.active_or(&q)?;
                let facts = self.fire_facts(id, *target)?;
                rec.about(format_args!(
                    "{} observing {}",
                    self.name(id),
                    self.name(*target)
                ));
                let in_position = self.battle.company(*target)?.in_position();
                let result =
                    self.battle
                        .observe(id, *target, facts.distance, facts.cover, &mut rec)?;
                let chance = rec
                    .narrate
                    .then(|| {
                        self.observation_chance(
                            id,
                            facts.distance,
                            facts.cover,
                            in_position,
                            result,
                        )
                    })
                    .flatten();
                log.push(Event::ObservedCompany {
                    observer: self.name(id),
                    target: self.name(*target),
                    distance: facts.distance,
                    result,
                    rolls: std::mem::take(&mut rec.rolls),
                    chance,
                });
            }
            (Question::Act { .. }, Order::FireAtDummy { dummy }) => {
                let id = self.active_or(&q)?;
                let facts = self.counter_facts(id, *dummy)?;
                rec.about(format_args!(
                    "the fire of {} at {}",
                    self.name(id),
                    self.counter_name(*dummy)
                ));
                let report = self.battle.fire_at_dummy(id, *dummy, facts, &mut rec)?;
                let line = format!(
                    "{} fires at {} {:.1}\" away{}",
                    self.name(id),
                    self.counter_name(*dummy),
                    facts.distance,
                    if facts.cover == Cover::Soft {
                        ", the counter in cover"
                    } else {
                        ""
                    },
                );
                self.fired_event(line, id, &report, &mut rec, log);
            }
            (Question::Act { .. }, Order::FireAtTeam { gun }) => {
                let id = self.active_or(&q)?;
                let facts = self.team_facts(id, *gun)?;
                rec.about(format_args!(
                    "the fire of {} at {}",
                    self.name(id),
                    self.team_name(*gun)
                ));
                let report = self.battle.fire_at_team(id, *gun, facts, &mut rec)?;
                let line = format!(
                    "{} fires at {} {:.1}\" away{}",
                    self.name(id),
                    self.team_name(*gun),
                    facts.distance,
                    if facts.cover == Cover::Soft {
                        ", the horses in cover"
                    } else {
                        ""
                    },
                );
                self.fired_event(line, id, &report, &mut rec, log);
            }
            (Question::Act { .. }, Order::FireGunAtTeam { team }) => {
                let id = self.active_or(&q)?;
                self.fire_canister_at_team(id, *team, &mut rec, log)?;
            }
            (Question::Unhorsed { riders, .. }, Order::Unhorsed(choice)) => {
                let id = self.active_or(&q)?;
                let before = self.battle.company_ids().count();
                self.battle.unhorsed_riders(id, *choice)?;
                let fp = self.field.at[id.0 as usize];
                match choice {
                    UnhorsedChoice::Skirmish => {
                        let fit = self.battle.company(id)?.figures().len();
                        let wide = Footprint::new(
                            fp.centre,
                            fp.facing,
                            Inches(frontage(Formation::Skirmish, fit)),
                            Inches(DEPTH),
                        )
                        .map_err(|e| GameError::Ground {
                            company: self.name(id),
                            why: e.to_string(),
                        })?;
                        self.check_ground(id, &wide)?;
                        self.field.at[id.0 as usize] = wide;
                    }
                    UnhorsedChoice::Detach => {
                        // the element stands in skirmish order 1" behind the company
                        let el = CompanyId(u32::try_from(before).unwrap_or(u32::MAX));
                        let back = fp
                            .centre
                            .moved(fp.facing.turned(180.0), Inches(DEPTH + 1.0));
                        let efp = Footprint::new(
                            back,
                            fp.facing,
                            Inches(frontage(Formation::Skirmish, *riders)),
                            Inches(DEPTH),
                        )
                        .map_err(|e| GameError::Ground {
                            company: self.name(id),
                            why: e.to_string(),
                        })?;
                        self.field.at.push(efp);
                        self.check_ground(el, &efp).map_err(|_| GameError::Ground {
                            company: self.name(id),
                            why: "there is no free ground 1 inch behind it for the detached riders"
                                .to_string(),
                        })?;
                    }
                    UnhorsedChoice::Remove => {}
                }
                log.push(Event::UnhorsedDealt {
                    company: self.name(id),
                    riders: *riders,
                    choice: *choice,
                });
            }
            (Question::Act { .. }, Order::EndActivation) => {
                match self.active {
                    // a company of a regiment, or a unit acting on a transfer, ends its own part only
                    Some(a) if self.regiment.is_some() || self.resume.is_some() => {
                        self.battle.forgo(a)?;
                    }
                    _ => self.battle.end_activation()?,
                }
            }
            _ => return Err(not_asked()),
        }
        self.after(&mut rec, log)?;
        if let Some(e) = rec.fault() {
            return Err(GameError::Dice(e.clone()));
        }
        Ok(())
    }

    /// The fit riders on foot of `id` if it is cavalry in close formation with any (HT-FRM-06): its side owes
    /// the choice of what to do with them when it is active, before its next action.
    fn unhorsed_riders(&self, id: CompanyId) -> Option<usize> {
        let c = self.battle.company_at(id)?;
        if !c.mounted() || !c.formation().is_close() {
            return None;
        }
        let n = c
            .figures()
            .iter()
            .filter(|f| f.unhorsed && f.condition == crate::state::Condition::Fit)
            .count();
        (n > 0).then_some(n)
    }

    /// The name a counter goes by: "the Confederate counter 1".
    fn counter_name(&self, id: DummyId) -> String {
        self.battle.dummy(id).map_or_else(
            |_| format!("counter {}", id.0),
            |d| format!("the {} counter {}", d.side, id.0),
        )
    }

    /// The name a gun's detached team goes by: "the team of Battery B's Napoleon".
    fn team_name(&self, gun: GunId) -> String {
        self.battle.gun(gun).map_or_else(
            |_| format!("the team of gun {}", gun.0),
            |g| format!("the team of {}", g.name()),
        )
    }

    /// The facts of a fire or a look from `firer` at a counter or a team standing on `t`, measured on the
    /// table as [`State::fire_facts`] measures them at a company: the distance between footprints, the
    /// line of sight past every company but the firer's friendly skirmishers (HT-FIR-22) and through woods
    /// (HT-SG2-11, HT-SG2-12), soft cover
    /// in a wood or within 2" behind a fence seen across (HT-SG2-13), the firer's own arc (HT-FIR-21).
    /// Neither a counter nor a team has a front, so no fire at either is enfilade. `None` with no line of
    /// sight.
    fn facts_at(&self, firer: CompanyId, t: &Footprint) -> Option<FireFacts> {
        let f = self.field.footprint(firer)?;
        let (from, to) = (f.front_centre(), t.centre);
        if !self.field.table.line_of_sight(from, to, &[]) {
            return None;
        }
        let side = self.battle.company_at(firer)?.side();
        // friendly skirmishers, and companies with no figure standing, are seen and fired past (HT-FIR-22);
        // any other company across the line blocks it (fire at a counter or a team never goes through
        // skirmishers)
        let blocked = self.field.at.iter().enumerate().any(|(i, o)| {
            i != firer.0 as usize
                && o.blocks(from, to)
                && self
                    .battle
                    .company(CompanyId(u32::try_from(i).unwrap_or(u32::MAX)))
                    .is_ok_and(|c| c.has_fit() && (c.side() != side || c.formation().is_close()))
        });
        if blocked {
            return None;
        }
        Some(FireFacts {
            distance: f.distance(t).0,
            cover: if self.field.table.in_cover(t, f.centre, Inches(BEHIND)) {
                Cover::Soft
            } else {
                Cover::Open
            },
            arc_blocked: !centre_in_front_arc(f, t.centre)
                || self.column_fires_through_itself(firer),
            within_woods: self.field.in_woods(t.centre) && self.field.in_woods(f.centre),
            ..FireFacts::default()
        })
    }

    /// [`State::facts_at`] a counter still on the table.
    ///
    /// # Errors
    /// A counter not on the table, or out of sight.
    fn counter_facts(&self, firer: CompanyId, dummy: DummyId) -> Result<FireFacts, GameError> {
        let on_table = self.battle.dummy(dummy)?.on_table;
        let fp = self
            .field
            .dummy(dummy)
            .filter(|_| on_table)
            .ok_or_else(|| {
                GameError::Company(format!(
                    "{} is no longer on the table",
                    self.counter_name(dummy)
                ))
            })?;
        self.facts_at(firer, fp).ok_or_else(|| GameError::NoSight {
            firer: self.name(firer),
            target: self.counter_name(dummy),
        })
    }

    /// [`State::facts_at`] a gun's detached team on the table.
    ///
    /// # Errors
    /// A gun with no team on the table, or a team out of sight.
    fn team_facts(&self, firer: CompanyId, gun: GunId) -> Result<FireFacts, GameError> {
        self.battle.gun(gun)?;
        let fp = self.field.team(gun).ok_or_else(|| {
            GameError::Company(format!("{} is not on the table", self.team_name(gun)))
        })?;
        self.facts_at(firer, fp).ok_or_else(|| GameError::NoSight {
            firer: self.name(firer),
            target: self.team_name(gun),
        })
    }

    /// The event of a small-arms fire by `firer`: its line, the rules' report, the dice and the chances.
    fn fired_event(
        &mut self,
        line: String,
        firer: CompanyId,
        report: &FireReport,
        rec: &mut Recording<'_>,
        log: &mut Vec<Event>,
    ) {
        let chance = rec
            .narrate
            .then(|| fire_chance(report, self.side_of(firer)))
            .flatten();
        let impact = self.impact_luck(rec.narrate);
        let tests = self.tests_luck(rec.narrate);
        log.push(Event::Fired {
            line,
            report: report.to_string(),
            rolls: std::mem::take(&mut rec.rolls),
            chance,
            impact,
            tests,
        });
    }

    /// The gun `crew` serves and has not abandoned.
    #[must_use]
    pub fn gun_of(&self, crew: CompanyId) -> Option<GunId> {
        self.battle.gun_ids().find(|&g| {
            self.battle
                .gun(g)
                .is_ok_and(|x| x.crew() == crew && !x.abandoned())
        })
    }

    /// Whether `id` crews a gun, abandoned or not (its footprint is then a gun's).
    fn crews(&self, id: CompanyId) -> bool {
        self.battle
            .gun_ids()
            .any(|g| self.battle.gun(g).is_ok_and(|x| x.crew() == id))
    }

    /// Where each figure of `id` stands on the table, by index, down or not: in line, in skirmish order and in
    /// a gun's crew one rank across its footprint, evenly spaced from its left; in column two files 1" apart,
    /// the ranks spread through its depth. Whole, every company so placed is in unit integrity (HT-SG2-10):
    /// each figure within 2" of the next (1" in line, 2" in skirmish order, 1" across and along a column).
    /// Empty for an unknown company.
    #[must_use]
    pub fn figure_points(&self, id: CompanyId) -> Vec<Point> {
        let (Ok(c), Some(fp)) = (self.battle.company(id), self.field.footprint(id)) else {
            return Vec::new();
        };
        let n = c.figures().len();
        let column = c.formation() == Formation::Column && !self.crews(id);
        (0..n).map(|i| figure_point(fp, column, n, i)).collect()
    }

    /// The line of fire of the gun `crew` serves at `target`, measured on the table (HT-ART-01, HT-ART-02,
    /// HT-ART-14, HT-ART-16): the gun stands at its crew's centre and faces as its crew faces; it aims at the
    /// target's fit figure least off its facing (the nearer on equal angles, then the lower index), within its
    /// 30-degree arc or not (the rules refuse one outside); the distance runs to the target's footprint; a wood
    /// between blocks the line, and the companies crossed are listed for the fire to judge.
    ///
    /// # Errors
    /// An unknown company, a company that serves no gun, a target of the crew's own side or with no fit
    /// figure, or a wood in the line.
    pub fn gun_aim(&self, crew: CompanyId, target: CompanyId) -> Result<GunAim, GameError> {
        let c = self.battle.company(crew)?;
        let t = self.battle.company(target)?;
        let gun = self
            .gun_of(crew)
            .ok_or_else(|| GameError::Company(format!("{} serves no gun", c.name())))?;
        if t.side() == c.side() {
            return Err(GameError::Company(format!(
                "{} is of {}'s own side",
                t.name(),
                c.name()
            )));
        }
        let (cf, tf) = (
            self.field.at[crew.0 as usize],
            self.field.at[target.0 as usize],
        );
        let from = cf.centre;
        let mut best: Option<(f64, f64, usize, Point)> = None;
        for (i, p) in self.figure_points(target).into_iter().enumerate() {
            if t.figures()[i].condition != crate::state::Condition::Fit {
                continue;
            }
            let (off, d) = (cf.facing.angle_to(from.heading_to(p)), from.distance(p).0);
            if best
                .is_none_or(|(bo, bd, _, _)| off < bo - 1e-9 || (off < bo + 1e-9 && d < bd - 1e-9))
            {
                best = Some((off, d, i, p));
            }
        }
        let Some((off_facing, _, figure, at)) = best else {
            return Err(GameError::Company(format!(
                "{} has no fit figure left",
                t.name()
            )));
        };
        if !self.field.table.line_of_sight(from, at, &[]) {
            return Err(GameError::NoSight {
                firer: self.name(crew),
                target: self.name(target),
            });
        }
        let mut between: Vec<(f64, CompanyId)> = self
            .field
            .at
            .iter()
            .enumerate()
            .filter(|&(i, f)| i != crew.0 as usize && i != target.0 as usize && f.blocks(from, at))
            .map(|(i, f)| {
                (
                    f.centre.distance(from).0,
                    CompanyId(u32::try_from(i).unwrap_or(u32::MAX)),
                )
            })
            .collect();
        between.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        Ok(GunAim {
            gun,
            from,
            figure,
            at,
            off_facing,
            distance: tf.distance_to(from).0,
            cover: if self.field.table.in_cover(&tf, from, Inches(BEHIND)) {
                Cover::Soft
            } else {
                Cover::Open
            },
            enfilade: !tf.in_front_arc(&cf, ARC),
            between: between.into_iter().map(|b| b.1).collect(),
        })
    }

    /// Round shot from `aim.gun` (HT-ART-06..13, HT-INT-18): the battle rolls accuracy and deviation; the ball
    /// lands at the aim point, or deviated from it by the clock (12 along the line of fire, HT-ART-06's
    /// default reference) and the inches rolled. At each impact point every figure whose centre lies in the
    /// ½" × 2" area centred on it, its long axis along the ball's line of travel (toward the gun for the
    /// first, HT-ART-07's default), is a potential casualty, with its company's cover from the point the ball
    /// came from; gun models there too. A ball whose line meets a wood stops at its edge, with no bounce
    /// (HT-ART-13); a ball in a wood or in rough ground does not bounce (HT-ART-10); a bounce goes on straight
    /// along the line from the previous point through this one (HT-ART-11, HT-INT-18), its target point then
    /// deviated by the battle's D12 and D4; a ball that comes down off the table is over (HT-ART-12).
    fn fire_round_shot(
        &mut self,
        crew: CompanyId,
        target: CompanyId,
        aim: &GunAim,
        rec: &mut Recording<'_>,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        if let Some(&b) = aim.between.first() {
            return Err(GameError::NoSight {
                firer: self.name(crew),
                target: format!("{} past {}", self.name(target), self.name(b)),
            });
        }
        let g = self.battle.gun(aim.gun)?.clone();
        let range = if self.battle.options().artillery_shot_ranges {
            crate::advanced::shot_range(g.piece(), aim.from.distance(aim.at).0)
                .map_err(RuleViolation::from)?
                .ok_or_else(|| RuleViolation::GunRefused {
                    name: g.name().to_string(),
                    what: "fire round shot",
                    why: "the aim lies beyond its long range",
                })?
        } else {
            ShotRange::Medium
        };
        rec.about(format_args!("the round shot of {}", g.name()));
        let landing = self.battle.fire_shot(aim.gun, range, aim.off_facing, rec)?;
        let mut line = aim.from.heading_to(aim.at);
        let mut prev = aim.from;
        let mut next = match landing {
            Landing::OnTarget => aim.at,
            Landing::Deviated { clock, inches } => aim.at.moved(
                line.turned(30.0 * f64::from(clock)),
                Inches(f64::from(inches)),
            ),
        };
        let mut impacts = Vec::new();
        // at most the first impact and three bounces (HT-ART-12)
        for _ in 0..4 {
            let (at, wood_edge) = match self.wood_edge(prev, next) {
                Some(edge) => (edge, true),
                None => (next, false),
            };
            if !self.field.table.contains(at) {
                self.battle.shot_off_table()?;
                impacts.push(ShotPoint {
                    at,
                    companies: Vec::new(),
                    report: None,
                    wood_edge: false,
                });
                break;
            }
            let facts = self.shot_area(aim.gun, prev, at, wood_edge);
            let mut companies: Vec<CompanyId> = facts.figures.iter().map(|f| f.0.company).collect();
            companies.dedup();
            let report = self.battle.shot_impact(&facts, rec)?;
            impacts.push(ShotPoint {
                at,
                companies: companies.iter().map(|&c| self.name(c)).collect(),
                report: Some(report.to_string()),
                wood_edge,
            });
            let Some((d, dev)) = report.bounce else {
                break;
            };
            line = prev.heading_to(at);
            let aim_point = at.moved(line, Inches(f64::from(d)));
            next = match dev {
                Landing::OnTarget => aim_point,
                Landing::Deviated { clock, inches } => aim_point.moved(
                    line.turned(30.0 * f64::from(clock)),
                    Inches(f64::from(inches)),
                ),
            };
            prev = at;
        }
        let tests = self.tests_luck(rec.narrate);
        // a ball's impact dice at its impact points carry no chance: let them go
        self.battle.take_rolls();
        log.push(Event::Shot {
            line: format!(
                "{} fires round shot at {}, aimed {:.1}\" away",
                g.name(),
                self.name(target),
                aim.from.distance(aim.at).0
            ),
            landing,
            impacts,
            rolls: std::mem::take(&mut rec.rolls),
            tests,
        });
        Ok(())
    }

    /// Where the straight flight from `a` to `b` first meets a wood it did not start in (HT-ART-13), found by
    /// halving the flight until within a thousandth of an inch; `None` when it meets none.
    fn wood_edge(&self, a: Point, b: Point) -> Option<Point> {
        let at = |s: f64| Point::new(a.x + (b.x - a.x) * s, a.y + (b.y - a.y) * s);
        let mut first: Option<f64> = None;
        for t in self.field.table.terrain() {
            if !t.effects().blocks_sight || t.contains(a) || !t.touches_segment(a, b) {
                continue;
            }
            let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
            let len = a.distance(b).0.max(1e-9);
            while (hi - lo) * len > 1e-3 {
                let mid = f64::midpoint(lo, hi);
                if t.touches_segment(a, at(mid)) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            if first.is_none_or(|f| hi < f) {
                first = Some(hi);
            }
        }
        first.map(at)
    }

    /// The facts at a round shot's impact point `at`, the ball coming from `prev` (HT-ART-07, HT-ART-08,
    /// HT-ART-10, HT-ART-21): every figure whose centre lies in the ½" × 2" area centred on `at`, its long
    /// axis along the line from `prev`, with its company's cover from `prev` and whether it stands in a wood;
    /// every other gun whose model (its crew's centre) lies in the area. The ground lets the ball bounce
    /// unless it stopped at a wood's edge or lies in a wood or rough ground. Gun teams are not on the table.
    fn shot_area(&self, gun: GunId, prev: Point, at: Point, wood_edge: bool) -> ShotImpactFacts {
        let area = Footprint {
            centre: at,
            facing: prev.heading_to(at),
            frontage: Inches(2.0 * HALF_LINE),
            depth: Inches(SHOT_AREA),
        };
        let inside = |p: Point| area.distance_to(p).0 <= 1e-9;
        let mut figures = Vec::new();
        for (i, fp) in self.field.at.iter().enumerate() {
            if fp.centre.distance(at).0 > reach(fp) + reach(&area) + 1e-6 {
                continue;
            }
            let id = CompanyId(u32::try_from(i).unwrap_or(u32::MAX));
            let cover = if self.field.table.in_cover(fp, prev, Inches(BEHIND)) {
                Cover::Soft
            } else {
                Cover::Open
            };
            for (index, p) in self.figure_points(id).into_iter().enumerate() {
                if inside(p) {
                    figures.push((
                        FigureRef { company: id, index },
                        cover,
                        self.field.in_woods(p),
                    ));
                }
            }
        }
        let guns = self
            .battle
            .gun_ids()
            .filter(|&g| g != gun)
            .filter(|&g| {
                self.battle
                    .gun(g)
                    .is_ok_and(|x| inside(self.field.at[x.crew().0 as usize].centre))
            })
            .collect();
        ShotImpactFacts {
            gun_distance: self.battle.gun(gun).map_or(0.0, |x| {
                self.field.at[x.crew().0 as usize].centre.distance(at).0
            }),
            figures,
            guns,
            // the sound horses of a detached team standing in the area, one entry a horse (HT-ART-22)
            horses: self
                .field
                .teams
                .iter()
                .flat_map(|&(g, fp)| {
                    let sound = self.battle.gun(g).map_or(0, |x| x.sound_horses());
                    (0..2)
                        .filter(move |&i| inside(figure_point(&fp, false, 2, i)))
                        .take(usize::from(sound))
                        .map(move |_| g)
                })
                .collect(),
            ground_allows_bounce: !wood_edge
                && !self.field.in_woods(at)
                && !self.field.table.is_rough(at),
        }
    }

    /// Canister from `aim.gun` (HT-ART-14..20): the battle's refusals and dice; the line measured here. Enemy
    /// skirmishers crossed by the line are fired through (one company at most; the cover of either counts),
    /// a friendly company crossed is reported to the battle (which refuses: never through friends), enemy
    /// close formations crossed block the line. A target beyond the canister's reach is refused before any
    /// action is spent. A hit carries the blast on (HT-ART-16, HT-ART-19) to the company with the nearest
    /// figure whose centre lies within ¼" of the line from the gun through the aimed figure, beyond the last
    /// one reached; the blast stops at a friendly company, and ends when no company lies on the line.
    fn fire_canister_line(
        &mut self,
        crew: CompanyId,
        target: CompanyId,
        aim: &GunAim,
        rec: &mut Recording<'_>,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let side = self.side_of(crew);
        let mut through = None;
        let mut friendly_between = false;
        for &b in &aim.between {
            let c = self.battle.company(b)?;
            if c.side() == side {
                friendly_between = true;
            } else if !c.formation().is_close() && through.is_none() {
                through = Some(b);
            } else {
                return Err(GameError::NoSight {
                    firer: self.name(crew),
                    target: format!("{} past {}", self.name(target), self.name(b)),
                });
            }
        }
        let cover = if aim.cover == Cover::Soft
            || through.is_some_and(|s| self.covered_from(s, aim.from))
        {
            Cover::Soft
        } else {
            Cover::Open
        };
        let facts = CanisterFacts {
            distance: aim.distance,
            cover,
            through,
            enfilade: aim.enfilade,
            off_facing: aim.off_facing,
            friendly_between,
        };
        let g = self.battle.gun(aim.gun)?.clone();
        rec.about(format_args!("the canister of {}", g.name()));
        let report = self.battle.fire_canister(aim.gun, target, facts, rec)?;
        self.canister_event(
            format!(
                "{} fires canister at {} {:.1}\" away{}{}{}",
                g.name(),
                self.name(target),
                aim.distance,
                through.map_or_else(String::new, |s| format!(", through {}", self.name(s))),
                if cover == Cover::Soft {
                    ", the target in cover"
                } else {
                    ""
                },
                if aim.enfilade { ", from its flank" } else { "" }
            ),
            &report,
            rec,
            log,
        );
        let mut reached = vec![crew, target];
        reached.extend(through);
        self.carry_blast(
            crew,
            aim.gun,
            aim.from,
            aim.at,
            aim.off_facing,
            reached,
            rec,
            log,
        )
    }

    /// The active crew fires the canister it has loaded at an enemy gun's detached team (HT-ART-22,
    /// HT-ART-14), aimed at the team's centre: the distance from the gun to the team's footprint, its cover
    /// from the gun; any company across the line blocks it; then the blast carries on ([`State::carry_blast`]).
    fn fire_canister_at_team(
        &mut self,
        crew: CompanyId,
        team: GunId,
        rec: &mut Recording<'_>,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let gun = self
            .gun_of(crew)
            .ok_or_else(|| GameError::Company(format!("{} serves no gun", self.name(crew))))?;
        self.battle.gun(team)?;
        let fp = *self.field.team(team).ok_or_else(|| {
            GameError::Company(format!("{} is not on the table", self.team_name(team)))
        })?;
        let cfp = self.field.at[crew.0 as usize];
        let (from, at) = (cfp.centre, fp.centre);
        if !(self.field.table.line_of_sight(from, at, &[])
            && self.field.clear_of_others(crew, crew, from, at))
        {
            return Err(GameError::NoSight {
                firer: self.name(crew),
                target: self.team_name(team),
            });
        }
        let cover = if self.field.table.in_cover(&fp, from, Inches(BEHIND)) {
            Cover::Soft
        } else {
            Cover::Open
        };
        let off_facing = cfp.facing.angle_to(from.heading_to(at));
        let facts = CanisterFacts {
            distance: fp.distance_to(from).0,
            cover,
            through: None,
            enfilade: false,
            off_facing,
            friendly_between: false,
        };
        let name = self.battle.gun(gun)?.name().to_string();
        rec.about(format_args!("the canister of {name}"));
        let report = self.battle.fire_canister_at_team(gun, team, facts, rec)?;
        self.canister_event(
            format!(
                "{name} fires canister at {} {:.1}\" away{}",
                self.team_name(team),
                facts.distance,
                if cover == Cover::Soft {
                    ", the horses in cover"
                } else {
                    ""
                },
            ),
            &report,
            rec,
            log,
        );
        self.carry_blast(crew, gun, from, at, off_facing, vec![crew], rec, log)
    }

    /// Carries a pending canister blast on along the line from the gun at `from` through `at`, ½" wide
    /// (HT-ART-16, HT-ART-19): the next step is the company or detached team (HT-ART-22) with the nearest
    /// fit figure or sound horse on that line beyond the last reached, at its own distance and cover; a
    /// friendly one on the line, or none, ends the blast.
    #[allow(clippy::too_many_arguments)]
    fn carry_blast(
        &mut self,
        crew: CompanyId,
        gun: GunId,
        from: Point,
        at: Point,
        off_facing: f64,
        mut reached: Vec<CompanyId>,
        rec: &mut Recording<'_>,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        /// What the blast reaches next.
        #[derive(Clone, Copy)]
        enum Next {
            Company(CompanyId),
            Team(GunId),
        }
        let side = self.side_of(crew);
        let name = self.battle.gun(gun)?.name().to_string();
        let dir = from.heading_to(at).as_degrees().to_radians();
        let (ux, uy) = dir.sin_cos();
        let mut beyond = from.distance(at).0;
        let mut teams_reached: Vec<GunId> = Vec::new();
        let on_line = |p: Point| {
            let (dx, dy) = (p.x - from.x, p.y - from.y);
            let along = dx * ux + dy * uy;
            let across = (dx * uy - dy * ux).abs();
            (across <= HALF_LINE + 1e-9).then_some(along)
        };
        while self.battle.blast_pending() {
            let mut next: Option<(f64, Next, Side)> = None;
            for id in self.battle.company_ids() {
                if reached.contains(&id) || self.battle.company_at(id).map_or(0, |c| c.fit()) == 0 {
                    continue;
                }
                let c = self.battle.company(id)?;
                for (i, p) in self.figure_points(id).into_iter().enumerate() {
                    if c.figures()[i].condition != crate::state::Condition::Fit {
                        continue;
                    }
                    if let Some(along) = on_line(p)
                        && along > beyond + 1e-9
                        && next.is_none_or(|(a, _, _)| along < a)
                    {
                        next = Some((along, Next::Company(id), c.side()));
                    }
                }
            }
            for &(g, fp) in &self.field.teams {
                let gun = self.battle.gun(g)?;
                if teams_reached.contains(&g) || gun.sound_horses() == 0 {
                    continue;
                }
                let team_side = self.side_of(gun.crew());
                for i in 0..2 {
                    if let Some(along) = on_line(figure_point(&fp, false, 2, i))
                        && along > beyond + 1e-9
                        && next.is_none_or(|(a, _, _)| along < a)
                    {
                        next = Some((along, Next::Team(g), team_side));
                    }
                }
            }
            let Some((along, step)) = next.filter(|&(_, _, s)| s != side).map(|(a, n, _)| (a, n))
            else {
                self.battle.end_blast()?;
                break;
            };
            match step {
                Next::Company(id) => {
                    let fp = self.field.at[id.0 as usize];
                    let facts = CanisterFacts {
                        distance: fp.distance_to(from).0,
                        cover: if self.covered_from(id, from) {
                            Cover::Soft
                        } else {
                            Cover::Open
                        },
                        through: None,
                        enfilade: !fp.in_front_arc(&self.field.at[crew.0 as usize], ARC),
                        off_facing,
                        friendly_between: false,
                    };
                    rec.about(format_args!(
                        "the blast of {name} through {}",
                        self.name(id)
                    ));
                    let report = self.battle.blast_through(id, facts, rec)?;
                    self.canister_event(
                        format!(
                            "the blast of {name} carries on to {} {:.1}\" from the gun",
                            self.name(id),
                            facts.distance
                        ),
                        &report,
                        rec,
                        log,
                    );
                    reached.push(id);
                }
                Next::Team(g) => {
                    let fp = self.field.team(g).copied().ok_or_else(|| {
                        GameError::Company(format!("{} is not on the table", self.team_name(g)))
                    })?;
                    let facts = CanisterFacts {
                        distance: fp.distance_to(from).0,
                        cover: if self.field.table.in_cover(&fp, from, Inches(BEHIND)) {
                            Cover::Soft
                        } else {
                            Cover::Open
                        },
                        through: None,
                        enfilade: false,
                        off_facing,
                        friendly_between: false,
                    };
                    rec.about(format_args!(
                        "the blast of {name} onto {}",
                        self.team_name(g)
                    ));
                    let report = self.battle.blast_through_team(g, facts, rec)?;
                    self.canister_event(
                        format!(
                            "the blast of {name} carries on to {} {:.1}\" from the gun",
                            self.team_name(g),
                            facts.distance
                        ),
                        &report,
                        rec,
                        log,
                    );
                    teams_reached.push(g);
                }
            }
            beyond = along;
        }
        Ok(())
    }

    /// Whether `id` is in cover from fire from `from` (HT-SG2-13).
    fn covered_from(&self, id: CompanyId, from: Point) -> bool {
        self.field
            .table
            .in_cover(&self.field.at[id.0 as usize], from, Inches(BEHIND))
    }

    /// The event of one canister step: its line, the rules' report, the dice and the chances.
    fn canister_event(
        &mut self,
        line: String,
        report: &FireReport,
        rec: &mut Recording<'_>,
        log: &mut Vec<Event>,
    ) {
        // the firing crew is the active company
        let side = self.active.map_or(Side::Union, |a| self.side_of(a));
        let chance = rec.narrate.then(|| fire_chance(report, side)).flatten();
        let impact = self.impact_luck(rec.narrate);
        let tests = self.tests_luck(rec.narrate);
        log.push(Event::Fired {
            line,
            report: report.to_string(),
            rolls: std::mem::take(&mut rec.rolls),
            chance,
            impact,
            tests,
        });
    }

    /// The companies that may give reaction fire at `mover` (HT-SG2-47): of the other side, not yet activated,
    /// with a fit figure, not Routed, able to see it.
    #[must_use]
    pub fn reactors(&self, mover: CompanyId) -> Vec<CompanyId> {
        let Ok(m) = self.battle.company(mover) else {
            return Vec::new();
        };
        self.waiting(m.side().enemy())
            .into_iter()
            .filter(|&f| self.may_react(f, mover))
            .collect()
    }

    /// Whether any company may give reaction fire at `mover` ([`State::reactors`] not empty), stopping at the
    /// first.
    fn any_reactor(&self, mover: CompanyId) -> bool {
        self.battle.company_at(mover).is_some_and(|m| {
            let side = m.side().enemy();
            self.battle
                .company_ids()
                .any(|f| self.is_waiting(f, side) && self.may_react(f, mover))
        })
    }

    fn may_react(&self, firer: CompanyId, mover: CompanyId) -> bool {
        // a colonel does not fire
        self.field.colonel_of(firer).is_none()
            && self
                .battle
                .company_at(firer)
                .is_some_and(|c| c.confidence() < ConfidenceLevel::Routed && !c.needs_reload())
            && self
                .fire_facts_if_seen(firer, mover)
                .is_some_and(|x| !x.arc_blocked)
    }

    fn check_ground(&self, id: CompanyId, fp: &Footprint) -> Result<(), GameError> {
        match self.ground(id, fp) {
            Ground::Free => Ok(()),
            Ground::OffTable => Err(GameError::Ground {
                company: self.name(id),
                why: "it would leave the table".to_string(),
            }),
            Ground::Taken(i) => Err(GameError::Ground {
                company: self.name(id),
                why: format!(
                    "it would come within half an inch of {}; only a close assault closes to contact",
                    self.name(CompanyId(u32::try_from(i).unwrap_or(u32::MAX)))
                ),
            }),
            Ground::Team(g) => Err(GameError::Ground {
                company: self.name(id),
                why: format!("it would come within half an inch of {}", self.team_name(g)),
            }),
        }
    }

    /// Whether `id` may stand on `fp`: on the table, and more than half an inch from every other company.
    fn ground(&self, id: CompanyId, fp: &Footprint) -> Ground {
        if !self.field.table.holds(fp) {
            return Ground::OffTable;
        }
        for (i, o) in self.field.at.iter().enumerate() {
            // footprints whose bounding circles, or sides, are clearly more than half an inch apart cannot
            // touch; footprints that clearly overlap are at no distance (the exact test's answer, either way)
            if i == id.0 as usize
                || circles_clearly_apart(o, fp, 0.5)
                || sides_clearly_apart(o, fp, 0.5)
            {
                continue;
            }
            if clearly_overlap(o, fp) {
                return Ground::Taken(i);
            }
            let apart = o.centre.distance(fp.centre).0 - reach(o) - reach(fp);
            if apart < 0.5 && measured(o, fp) < 0.5 {
                return Ground::Taken(i);
            }
        }
        // a detached team's horses are figures on the table: no company moves onto them (HT-ART-22)
        for (g, o) in &self.field.teams {
            if circles_clearly_apart(o, fp, 0.5) {
                continue;
            }
            let apart = o.centre.distance(fp.centre).0 - reach(o) - reach(fp);
            if apart < 0.5 && measured(o, fp) < 0.5 {
                return Ground::Team(*g);
            }
        }
        Ground::Free
    }

    /// The move of `id` to `to` as the battle takes it (HT-MOV-01, HT-MOV-02), the footprint it would stand on
    /// there and its nearest enemy from there: refused if the point is not a number or the ground is not free.
    fn plan_move(
        &mut self,
        id: CompanyId,
        to: Point,
    ) -> Result<(MoveOrder, Footprint, Nearest), GameError> {
        let old = self.field.at[id.0 as usize];
        if !to.x.is_finite() || !to.y.is_finite() {
            return Err(GameError::Ground {
                company: self.name(id),
                why: "the point is not on the table".to_string(),
            });
        }
        let before = self.nearest_enemy(id).map(|e| e.1);
        let moved_fp = old.placed(to, old.facing);
        self.check_ground(id, &moved_fp)?;
        let through = self.passed_through(id, old.centre, to)?;
        self.field.at[id.0 as usize] = moved_fp;
        let after = self.nearest_enemy(id);
        self.field.at[id.0 as usize] = old;
        let order = MoveOrder {
            distance: old.centre.distance(to).0,
            going: if self.field.in_woods(to) || self.field.in_woods(old.centre) {
                Going::Poor
            } else {
                Going::Clear
            },
            toward_enemy: matches!((before, after), (Some(b), Some(a)) if a.1 < b - 1e-9),
            leaves_cover: self.field.in_woods(old.centre) && !self.field.in_woods(to),
            through,
            ..MoveOrder::default()
        };
        Ok((order, moved_fp, after))
    }

    /// The company `id`'s move from `from` to `to` passes through (HT-MOV-07, HT-MOV-08): the one whose
    /// footprint the company's footprint touches as it sweeps along the straight line its centre follows
    /// (facing as it stands; it turns only once there). Companies with no fit figure left are no unit to pass
    /// through, and a friendly gun's detached team is passed freely. The battle ([`MoveOrder::through`])
    /// refuses a close formation through another unless it is Broken or Routed, and disorders every close
    /// formation in the passing.
    ///
    /// # Errors
    /// A move whose footprint would touch an enemy company or an enemy gun's detached team (only a close
    /// assault or the taking of a surrender, their own orders, close to contact), or would pass through more
    /// than one company (the battle takes one at a time).
    fn passed_through(
        &self,
        id: CompanyId,
        from: Point,
        to: Point,
    ) -> Result<Option<CompanyId>, GameError> {
        let fp = self.field.at[id.0 as usize].placed(from, self.field.at[id.0 as usize].facing);
        let side = self.side_of(id);
        let refuse = |why: String| {
            Err(GameError::Ground {
                company: self.name(id),
                why,
            })
        };
        let mut first = None;
        for (i, o) in self.field.at.iter().enumerate() {
            let other = CompanyId(u32::try_from(i).unwrap_or(u32::MAX));
            if i == id.0 as usize
                || !sweeps(&fp, to, o)
                || self.battle.company_at(other).is_some_and(|c| !c.has_fit())
            {
                continue;
            }
            if self.side_of(other) != side {
                return refuse(format!(
                    "it would touch {} on its way, and enemy units may never be touched nor moved \
                     through (only a close assault or the taking of a surrender closes with them)",
                    self.name(other)
                ));
            }
            if first.is_some() {
                return refuse(
                    "it would pass through more than one company in one move".to_string(),
                );
            }
            first = Some(other);
        }
        for (g, o) in &self.field.teams {
            let enemy = self
                .battle
                .gun(*g)
                .is_ok_and(|gun| self.side_of(gun.crew()) != side);
            if enemy && sweeps(&fp, to, o) {
                return refuse(format!(
                    "it would touch {} on its way, and enemy units may never be touched nor moved through",
                    self.team_name(*g)
                ));
            }
        }
        Ok(first)
    }

    /// A move (HT-MOV-01, HT-MOV-02): the distance is measured centre to centre; the going is poor in the wood
    /// (HT-SG2-12); it is toward the enemy if it brings the company nearer the nearest enemy; it leaves cover if
    /// it starts in the wood and ends outside. The company turns to face the nearest enemy.
    fn do_move(
        &mut self,
        id: CompanyId,
        to: Point,
        dice: &mut Recording<'_>,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let (order, mut moved_fp, after) = self.plan_move(id, to)?;
        let distance = order.distance;
        let close = |o: CompanyId| {
            self.battle
                .company_at(o)
                .is_some_and(|c| c.formation().is_close())
        };
        let through = order.through.map(|o| (o, close(o), close(id)));
        let tests = self.battle.move_tests(id, &order)?;
        dice.about(format_args!("the move of {}", self.name(id)));
        let moved = self.battle.move_company(id, order, dice)?;
        // the move stops at the first test failed: it goes on with the chance that every test passes
        let chance = (dice.narrate && !tests.is_empty()).then(|| {
            let p = tests.iter().map(|t| t.odds().p(&true)).product::<f64>();
            LuckyRoll::chance(self.side_of(id), p, moved)
        });
        if moved {
            if let Some((e, _)) = after {
                let facing = to.heading_to(self.field.at[e.0 as usize].centre);
                let faced = moved_fp.placed(to, facing);
                // it turns only if there is room to turn
                if self.check_ground(id, &faced).is_ok() {
                    moved_fp = faced;
                }
            }
            self.field.at[id.0 as usize] = moved_fp;
        }
        log.push(Event::Moved {
            company: self.name(id),
            distance,
            moved,
            rolls: std::mem::take(&mut dice.rolls),
            chance,
        });
        if let Some((other, other_close, mover_close)) = through.filter(|_| moved) {
            if mover_close {
                log.push(Event::DisorderedPassing {
                    company: self.name(id),
                    through: self.name(other),
                });
            }
            if other_close {
                log.push(Event::Disordered {
                    company: self.name(other),
                    by: self.name(id),
                });
            }
        }
        Ok(())
    }

    /// A company that lost or refused an assault withdraws from the other (HT-SG2-36, HT-SG2-40). Its side
    /// chooses the way ([`Question::Withdraw`]) when it has a fit figure, is not Routed and has somewhere to
    /// go; a Routed company has no choice and falls back straight away; one with
    /// nowhere to go stays.
    fn withdraw(&mut self, who: CompanyId, from: CompanyId, log: &mut Vec<Event>) {
        let choosing = self
            .battle
            .company_at(who)
            .is_some_and(|c| c.has_fit() && c.confidence() < ConfidenceLevel::Routed);
        if choosing && !self.withdrawals_for(who, from).is_empty() {
            self.withdrawal = Some((who, from));
        } else {
            self.fall_back(who, from, log);
        }
    }

    /// Straight away from `from`, centre to centre.
    fn away(&self, who: CompanyId, from: CompanyId) -> Heading {
        self.field.at[from.0 as usize]
            .centre
            .heading_to(self.field.at[who.0 as usize].centre)
    }

    /// Where `who` ends withdrawing from `from` along `heading`, how far it went — 6", or 4" or 2" where the
    /// ground allows no more — and the friendly company it passes through on the way. The way is traced as a
    /// move's (HT-MOV-07, HT-MOV-08): a step whose footprint would touch an enemy, pass more than one company
    /// or take a close formation through another (unless the company is Broken) does not fit. Refused if the
    /// heading is more than 90 degrees off straight away (it would close on `from`) or if no step of the three
    /// fits.
    fn withdrawal_to(
        &self,
        who: CompanyId,
        from: CompanyId,
        heading: Heading,
    ) -> Result<(Footprint, f64, Option<CompanyId>), GameError> {
        let off = self.away(who, from).angle_to(heading);
        if off > 90.0 + 1e-9 {
            return Err(GameError::Ground {
                company: self.name(who),
                why: format!(
                    "that way is {off:.0} degrees off straight away from {}: a withdrawal may not close on it",
                    self.name(from)
                ),
            });
        }
        let w = self.field.at[who.0 as usize];
        let place = |d: f64| w.placed(w.centre.moved(heading, Inches(d)), w.facing);
        let mut whole = None;
        for d in [6.0, 4.0, 2.0] {
            let fp = place(d);
            match self.step_through(who, &fp) {
                Ok(through) => return Ok((fp, d, through)),
                // the refusal says why the whole way is not open
                Err(e) => _ = whole.get_or_insert(e),
            }
        }
        Err(whole.unwrap_or(GameError::Over))
    }

    /// The friendly company `who` passes through going straight from where it stands to `fp`, a place the
    /// engine puts it rather than a move (a withdrawal, a fall back, a mid-dash placing), traced as a move
    /// (HT-MOV-07, HT-MOV-08): free ground at the end, no enemy touched, at most one company passed, and that
    /// passing one the battle allows ([`Battle::check_pass_through`]).
    fn step_through(&self, who: CompanyId, fp: &Footprint) -> Result<Option<CompanyId>, GameError> {
        self.check_ground(who, fp)?;
        let through = self.passed_through(who, self.field.at[who.0 as usize].centre, fp.centre)?;
        if let Some(other) = through {
            self.battle.check_pass_through(who, other)?;
        }
        Ok(through)
    }

    /// Puts `who` on `fp` and has it pass through `through` (HT-MOV-07, HT-MOV-08): every close formation in
    /// the passing is disordered, and said.
    fn place_through(
        &mut self,
        who: CompanyId,
        fp: Footprint,
        through: Option<CompanyId>,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        if let Some(other) = through {
            let (mover, passed) = self.battle.pass_through(who, other)?;
            if mover {
                log.push(Event::DisorderedPassing {
                    company: self.name(who),
                    through: self.name(other),
                });
            }
            if passed {
                log.push(Event::Disordered {
                    company: self.name(other),
                    by: self.name(who),
                });
            }
        }
        self.field.at[who.0 as usize] = fp;
        Ok(())
    }

    fn withdrawals_for(&self, who: CompanyId, from: CompanyId) -> Vec<Heading> {
        let away = self.away(who, from);
        [0.0, -45.0, 45.0, -90.0, 90.0]
            .into_iter()
            .map(|t| away.turned(t))
            .filter(|&h| self.withdrawal_to(who, from, h).is_ok())
            .collect()
    }

    /// The usual answers to a pending [`Question::Withdraw`], those the ground allows: straight away from the
    /// enemy first, then 45 and 90 degrees to either side. Any heading within 90 degrees of straight away is
    /// accepted if the ground allows it; empty when no withdrawal is asked for.
    #[must_use]
    pub fn withdrawals(&self) -> Vec<Heading> {
        self.withdrawal
            .map_or_else(Vec::new, |(who, from)| self.withdrawals_for(who, from))
    }

    /// Whether a company standing on `fp` is in cover from `from`: in a wood, or behind a fence (HT-SG2-13).
    fn covered(&self, fp: &Footprint, from: CompanyId) -> bool {
        self.field.in_woods(fp.centre)
            || self
                .field
                .table
                .in_cover(fp, self.field.at[from.0 as usize].centre, Inches(BEHIND))
    }

    /// The nearest cover for `who` falling back from `from` (HT-SG2-37, HT-MEL-07): where it stands if that is
    /// cover; else the nearest of the places 1" to 6" (in whole inches) along straight away from `from`, then
    /// 45 and 90 degrees to either side, that is cover from `from` and free ground; `None` when there is none.
    fn cover_for(&self, who: CompanyId, from: CompanyId) -> Option<Footprint> {
        let w = self.field.at[who.0 as usize];
        if self.covered(&w, from) {
            return Some(w);
        }
        let away = self.away(who, from);
        (1..=6).find_map(|d| {
            [0.0, -45.0, 45.0, -90.0, 90.0].into_iter().find_map(|t| {
                let fp = w.placed(
                    w.centre.moved(away.turned(t), Inches(f64::from(d))),
                    w.facing,
                );
                (self.ground(who, &fp) == Ground::Free && self.covered(&fp, from)).then_some(fp)
            })
        })
    }

    /// Where a pending [`Question::FallBack`] would take the company to the nearest cover
    /// ([`Retreat::Cover`]); `None` when no fall back is asked for or no cover lies within reach, and then
    /// only [`Retreat::StartPoint`] is accepted.
    #[must_use]
    pub fn cover_for_fall_back(&self) -> Option<Point> {
        match self.battle.short_of_contact() {
            Some((who, from, ShortOfContact::Withdraws)) => {
                self.cover_for(who, from).map(|f| f.centre)
            }
            _ => None,
        }
    }

    /// Where an attacker that stays mid-dash is placed (HT-SG2-37): its centre `moved` inches along the line
    /// to the defender's centre, facing it; where that ground is taken or the way there is not one a move
    /// could take (HT-MOV-07: an enemy touched, more than one company passed, a close formation through
    /// another), a whole inch shorter at a time, down to where it stands. Returns the place, how far it went
    /// and the friendly company it passes through.
    fn mid_dash(
        &self,
        who: CompanyId,
        def: CompanyId,
        moved: f64,
    ) -> (Footprint, f64, Option<CompanyId>) {
        let (w, d) = (self.field.at[who.0 as usize], self.field.at[def.0 as usize]);
        let toward = w.centre.heading_to(d.centre);
        let mut step = moved;
        while step > 0.0 {
            let fp = w.placed(w.centre.moved(toward, Inches(step)), toward);
            if let Ok(through) = self.step_through(who, &fp) {
                return (fp, step, through);
            }
            step -= 1.0;
        }
        (w, 0.0, None)
    }

    /// A Routed company, or one with no fit figure left, falls back 6" straight away from the other (HT-SG2-36,
    /// HT-SG2-40, HT-MOV-08), or 4" or 2" where the ground or the way allows no more: the way is traced as a
    /// move's (an enemy never touched, one company passed at most; a Routed company passes even a friendly
    /// close formation, disordering it). It stays where it is when no step is open.
    fn fall_back(&mut self, who: CompanyId, from: CompanyId, log: &mut Vec<Event>) {
        let (w, f) = (
            self.field.at[who.0 as usize],
            self.field.at[from.0 as usize],
        );
        let away = f.centre.heading_to(w.centre);
        for d in [6.0, 4.0, 2.0] {
            let fp = w.placed(w.centre.moved(away, Inches(d)), w.facing);
            if let Ok(through) = self.step_through(who, &fp)
                && self.place_through(who, fp, through, log).is_ok()
            {
                return;
            }
        }
    }

    /// A move of the active company `id` to `to`; a second move after a first waits for the other side's
    /// reaction (HT-SG2-47) when it has a company that may give it, and is made when that is answered.
    fn move_or_wait(
        &mut self,
        id: CompanyId,
        to: Point,
        rec: &mut Recording<'_>,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let c = self.battle.company(id)?;
        if c.moves_made() == 1 && c.actions_left() == 1 && self.any_reactor(id) {
            // the ground is checked now so that a move the table refuses is refused before anyone is asked
            let old = self.field.at[id.0 as usize];
            self.check_ground(id, &old.placed(to, old.facing))?;
            if !to.x.is_finite() || !to.y.is_finite() {
                return Err(GameError::Ground {
                    company: self.name(id),
                    why: "the point is not on the table".to_string(),
                });
            }
            self.reaction = Some(to);
            Ok(())
        } else {
            self.do_move(id, to, rec, log)
        }
    }

    /// The heading toward `side`'s own baseline: the Union's is the table's edge at y = 0, the
    /// Confederate's the far edge (HT-SG2-17).
    fn homeward(side: Side) -> Heading {
        match side {
            Side::Union => Heading::SOUTH,
            Side::Confederate => Heading::NORTH,
        }
    }

    /// Whether `id` standing on `fp` would be nearer any enemy company with a fit figure than it is now
    /// (HT-SG2-17: Broken and Routed companies never close on a located enemy).
    fn closes_on_enemy(&self, id: CompanyId, fp: &Footprint) -> bool {
        let Ok(me) = self.battle.company(id) else {
            return true;
        };
        let now = self.field.at[id.0 as usize];
        self.battle.company_ids().any(|o| {
            self.battle
                .company_at(o)
                .is_some_and(|c| c.side() != me.side() && c.has_fit())
                && {
                    let e = &self.field.at[o.0 as usize];
                    measured(fp, e) < measured(&now, e) - 1e-9
                }
        })
    }

    /// A Broken company in cover leaves it only to withdraw further from every enemy (HT-SG2-17): a move of a
    /// Broken `id` standing in cover from its nearest enemy to a place that is not cover from it is refused
    /// unless the place is farther from every enemy company with a fit figure than where it stands.
    fn broken_leaving_cover(&self, id: CompanyId, to: Point) -> Result<(), GameError> {
        if self.battle.company(id)?.confidence() != ConfidenceLevel::Broken {
            return Ok(());
        }
        let Some((enemy, _)) = self.nearest_enemy(id) else {
            return Ok(());
        };
        let w = self.field.at[id.0 as usize];
        let fp = w.placed(to, w.facing);
        if !to.x.is_finite()
            || !to.y.is_finite()
            || !self.covered(&w, enemy)
            || self.covered(&fp, enemy)
        {
            return Ok(());
        }
        let side = self.side_of(id);
        let withdraws = self.battle.company_ids().all(|o| {
            self.battle
                .company_at(o)
                .is_some_and(|c| c.side() == side || !c.has_fit())
                || {
                    let e = &self.field.at[o.0 as usize];
                    measured(&fp, e) > measured(&w, e) + 1e-9
                }
        });
        if withdraws {
            Ok(())
        } else {
            Err(GameError::Ground {
                company: self.name(id),
                why: "a Broken company leaves cover only to withdraw further from every enemy"
                    .to_string(),
            })
        }
    }

    /// Whether the ground and the battle allow `id` a move to the footprint `fp` as its next action, no die
    /// rolled, whether or not it closes on the enemy (the caller weighs that, against every enemy).
    fn may_move_to(&mut self, id: CompanyId, fp: &Footprint) -> bool {
        self.ground(id, fp) == Ground::Free
            && self.plan_move(id, fp.centre).is_ok_and(|(order, _, _)| {
                let order = MoveOrder {
                    toward_enemy: false,
                    ..order
                };
                self.battle.check_move(id, &order).is_ok()
            })
    }

    /// Where a Routed company runs this action (HT-SG2-17, HT-MOV-08, HT-SG2-48): by the shortest route
    /// toward its own baseline — straight back, else 45 degrees to its left or right — as far as its move
    /// allows (whole inches, the longest first) on free ground without closing on any enemy.
    fn rout_step(&mut self, id: CompanyId) -> RoutStep {
        let Ok(side) = self.battle.company(id).map(|c| c.side()) else {
            return RoutStep::NoWay;
        };
        let w = self.field.at[id.0 as usize];
        let home = Self::homeward(side);
        let mut cornered = false;
        for turn in [0.0, -45.0, 45.0] {
            let h = home.turned(turn);
            for d in (1..=12).rev() {
                let fp = w.placed(w.centre.moved(h, Inches(f64::from(d))), w.facing);
                if !self.may_move_to(id, &fp) {
                    continue;
                }
                if self.closes_on_enemy(id, &fp) {
                    cornered = true;
                } else {
                    return RoutStep::To(fp.centre, f64::from(d));
                }
            }
        }
        if cornered {
            RoutStep::Cornered
        } else {
            RoutStep::NoWay
        }
    }

    /// Where a Broken company in the open moves this action (HT-SG2-17, HT-MOV-08): toward the nearest cover
    /// from its nearest enemy (a wood, or behind a fence seen across from it) within 24", searched in whole
    /// inches along 16 headings, the nearest first (at equal distances the heading nearest straight away
    /// from that enemy, then the right before the left), whose place does not close on any enemy; as far along
    /// that line as its move allows on free ground without closing on any enemy. `None` when it is in cover,
    /// has no enemy, or finds no such cover or step: then its side acts with it.
    fn cover_step(&mut self, id: CompanyId) -> Option<(Point, f64)> {
        let w = self.field.at[id.0 as usize];
        let (heading, distance) = self.cover_sought(id)?;
        (1..=12u32)
            .rev()
            .map(f64::from)
            .filter(|&d| d <= distance)
            .find_map(|d| {
                let fp = w.placed(w.centre.moved(heading, Inches(d)), w.facing);
                (self.may_move_to(id, &fp) && !self.closes_on_enemy(id, &fp))
                    .then_some((fp.centre, distance))
            })
    }

    /// [`State::seek_cover`], remembered a thread ([`COVER_SOUGHT`]) by everything it looks at: the company,
    /// the table, every company's footprint, side and whether it has a fit figure, and the detached teams'
    /// footprints. The same inputs, bit for bit, give the same way, so a remembered one is the one sought.
    /// (The bots check each candidate order on a copy, and a Broken company's search runs after each: most
    /// candidates leave every company where it stood.)
    fn cover_sought(&self, id: CompanyId) -> Option<(Heading, f64)> {
        let mut key = COVER_SOUGHT.with_borrow_mut(|memo| std::mem::take(&mut memo.key));
        key.clear();
        key.push(u64::from(id.0));
        key.push(self.field.table.width().0.to_bits());
        key.push(self.field.table.depth().0.to_bits());
        let bits = |key: &mut Vec<u64>, f: &Footprint| {
            key.extend([
                f.centre.x.to_bits(),
                f.centre.y.to_bits(),
                f.facing.as_degrees().to_bits(),
                f.frontage.0.to_bits(),
                f.depth.0.to_bits(),
            ]);
        };
        key.push(self.field.at.len() as u64);
        for f in &self.field.at {
            bits(&mut key, f);
        }
        key.push(self.field.teams.len() as u64);
        for (g, f) in &self.field.teams {
            key.push(u64::from(g.0));
            bits(&mut key, f);
        }
        let ids = self.battle.company_ids();
        key.push(ids.size_hint().0 as u64);
        for o in ids {
            key.push(self.battle.company_at(o).map_or(3, |c| {
                u64::from(c.side() == Side::Union) * 2 + u64::from(c.has_fit())
            }));
        }
        let terrain = self.field.table.terrain().as_ptr();
        let found = COVER_SOUGHT.with_borrow_mut(|memo| {
            memo.kept
                .iter()
                .find(|k| k.key == key && std::ptr::eq(k.table.terrain().as_ptr(), terrain))
                .map(|k| k.found)
        });
        let found = found.unwrap_or_else(|| {
            let found = self.seek_cover(id);
            COVER_SOUGHT.with_borrow_mut(|memo| {
                let kept = KeptCover {
                    key: key.clone(),
                    // kept so that its terrain, compared by address, cannot be another's
                    table: self.field.table.clone(),
                    found,
                };
                if memo.kept.len() < COVER_SOUGHT_KEPT {
                    memo.kept.push(kept);
                } else {
                    let i = memo.next % COVER_SOUGHT_KEPT;
                    memo.kept[i] = kept;
                }
                memo.next = memo.next.wrapping_add(1);
            });
            found
        });
        COVER_SOUGHT.with_borrow_mut(|memo| memo.key = key);
        found
    }

    /// The way toward the nearest cover of [`State::cover_step`] and how far it lies: `None` when the company
    /// has no enemy, is in cover from its nearest, or finds none within 24".
    fn seek_cover(&self, id: CompanyId) -> Option<(Heading, f64)> {
        let (enemy, _) = self.nearest_enemy(id)?;
        let w = self.field.at[id.0 as usize];
        if self.covered(&w, enemy) {
            return None;
        }
        let away = self.away(id, enemy);
        (1..=24).find_map(|d| {
            (0..16u8).find_map(|k| {
                // 0, +22.5, -22.5, +45, ... degrees off straight away
                let off = 22.5 * f64::from(k.div_ceil(2)) * if k % 2 == 1 { 1.0 } else { -1.0 };
                let h = away.turned(off);
                let fp = w.placed(w.centre.moved(h, Inches(f64::from(d))), w.facing);
                (self.ground(id, &fp) == Ground::Free
                    && self.covered(&fp, enemy)
                    && !self.closes_on_enemy(id, &fp))
                .then_some((h, f64::from(d)))
            })
        })
    }

    /// Plays the action the rules make for the active company `id` if it is Broken or Routed (HT-SG2-17,
    /// HT-MOV-08, HT-MOR-07): a Routed company runs toward its own baseline with every action (its side has
    /// no choice to make; it never fires), surrenders to an enemy within 12" — or disperses with none that
    /// near — when every way back closes on the enemy (HT-SG2-48), and stays when no ground is free; a
    /// Broken company in the open moves toward the nearest cover without closing on any enemy, and once in
    /// cover (or with no cover in reach) its side acts with it. Returns whether it played a move.
    fn compelled(
        &mut self,
        id: CompanyId,
        rec: &mut Recording<'_>,
        log: &mut Vec<Event>,
    ) -> Result<bool, GameError> {
        let level = self.battle.company(id)?.confidence();
        let (to, routed, distance) = match level {
            ConfidenceLevel::Routed => match self.rout_step(id) {
                RoutStep::To(to, d) => (to, true, d),
                RoutStep::Cornered => {
                    let near = self.nearest_enemy(id).filter(|e| e.1 <= 12.0);
                    self.battle.rout_blocked(id, near.is_some())?;
                    self.battle.end_activation()?;
                    log.push(Event::Surrendered {
                        company: self.name(id),
                        to: near.map(|e| self.name(e.0)),
                    });
                    return Ok(false);
                }
                RoutStep::NoWay => {
                    self.battle.end_activation()?;
                    log.push(Event::NoWayBack(self.name(id)));
                    return Ok(false);
                }
            },
            ConfidenceLevel::Broken => match self.cover_step(id) {
                Some((to, distance)) => (to, false, distance),
                None => return Ok(false),
            },
            _ => return Ok(false),
        };
        log.push(Event::Compelled {
            company: self.name(id),
            routed,
            distance,
        });
        self.move_or_wait(id, to, rec, log)?;
        Ok(true)
    }

    /// Every enemy counter still on the table that a company has a clear line of sight to while the counter
    /// stands in the open (not in cover from that company) is shown a dummy and taken off the table
    /// (HT-SG2-25): the engine looks after every order, as the rules leave the players no choice in it.
    fn sight_counters(&mut self, log: &mut Vec<Event>) -> Result<(), GameError> {
        if !self.battle.is_idle() {
            return Ok(());
        }
        self.sight_hidden(log)?;
        for i in 0..self.field.dummies.len() {
            let (dummy, fp) = self.field.dummies[i];
            let d = *self.battle.dummy(dummy)?;
            if !d.on_table {
                continue;
            }
            let by = self.battle.company_ids().find(|&c| {
                self.battle
                    .company_at(c)
                    .is_some_and(|c| c.side() != d.side && c.has_fit())
                    && self
                        .facts_at(c, &fp)
                        .is_some_and(|f| f.cover == Cover::Open)
            });
            if let Some(by) = by {
                self.battle.sight_dummy(by, dummy)?;
                log.push(Event::Sighted {
                    counter: self.counter_name(dummy),
                    by: self.name(by),
                });
            }
        }
        Ok(())
    }

    /// Every hidden company (with a fit figure) that an enemy company has a clear line of sight to while it
    /// stands in the open (not in cover from that company) is revealed (HT-SG2-25), as a counter is shown
    /// for what it is: the engine looks after every order.
    fn sight_hidden(&mut self, log: &mut Vec<Event>) -> Result<(), GameError> {
        let hidden = |b: &Battle, c: CompanyId| b.company_at(c).is_some_and(|c| c.hidden());
        if !self.battle.company_ids().any(|c| hidden(&self.battle, c)) {
            return Ok(());
        }
        let ids: Vec<CompanyId> = self.battle.company_ids().collect();
        for target in ids {
            let t = self.battle.company(target)?;
            if !t.hidden() || !t.has_fit() {
                continue;
            }
            let side = t.side();
            let by = self.battle.company_ids().find(|&c| {
                self.battle
                    .company_at(c)
                    .is_some_and(|c| c.side() != side && c.has_fit())
                    && self
                        .fire_facts_if_seen(c, target)
                        .is_some_and(|f| f.cover == Cover::Open)
            });
            if let Some(by) = by {
                self.battle.sight_hidden(by, target)?;
                log.push(Event::Revealed {
                    company: self.name(target),
                    by: self.name(by),
                });
            }
        }
        Ok(())
    }

    /// The companies of the regiment activated now still to take their action of this wave (HT-SEQ-04): not
    /// yet acted in it, with a fit figure and an action for it; empty with no regiment activated.
    #[must_use]
    pub fn wave_open(&self) -> Vec<CompanyId> {
        let Some(reg) = &self.regiment else {
            return Vec::new();
        };
        let keep = 2 - reg.wave;
        reg.companies
            .iter()
            .copied()
            .filter(|id| {
                !reg.acted.contains(id)
                    && self
                        .battle
                        .company_at(*id)
                        .is_some_and(|c| c.has_fit() && c.actions_left() > keep)
            })
            .collect()
    }

    /// Activate Regiment (HT-SEQ-03, HT-SEQ-04, HT-FRM-07): the colonel of the companies' regiment, on the side
    /// activating and not yet activated, activates and spends both actions; each company's centre is measured
    /// from his (HT-GEN-04). The companies then act in waves ([`Question::Regiment`]).
    fn activate_regiment(
        &mut self,
        companies: &[CompanyId],
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let side = self.to_act;
        let Some(&first) = companies.first() else {
            return Err(GameError::Company(
                "a regimental activation names two or more companies".to_string(),
            ));
        };
        let regiment = self.battle.company(first)?.regiment();
        let Some(colonel) = self
            .field
            .colonels
            .iter()
            .find(|(c, r)| Some(*r) == regiment && self.side_of(*c) == side)
            .map(|c| c.0)
        else {
            return Err(GameError::Company(format!(
                "{} has no colonel of its side on the table to activate its regiment",
                self.name(first)
            )));
        };
        let mut list = Vec::with_capacity(companies.len());
        let mut from = Vec::with_capacity(companies.len());
        for (i, &id) in companies.iter().enumerate() {
            let c = self.battle.company(id)?;
            if c.side() != side
                || c.regiment() != regiment
                || id == colonel
                || companies[..i].contains(&id)
            {
                return Err(GameError::Company(format!(
                    "{} is not a company of {}'s regiment, or is named twice",
                    c.name(),
                    self.name(colonel)
                )));
            }
            let d = self
                .field
                .command_distance(colonel, id)
                .ok_or(RuleViolation::UnknownCompany(id))?;
            list.push((id, d));
            from.push(self.field.at[id.0 as usize].centre);
        }
        if !self.battle.company(colonel)?.has_fit() {
            return Err(GameError::Company(format!(
                "{} has fallen",
                self.name(colonel)
            )));
        }
        self.battle.activate(colonel)?;
        self.battle.activate_regiment(colonel, &list)?;
        log.push(Event::RegimentActivated {
            colonel: self.name(colonel),
            companies: companies.iter().map(|&c| self.name(c)).collect(),
        });
        self.regiment = Some(RegimentTurn {
            colonel,
            companies: companies.to_vec(),
            from,
            wave: 1,
            acted: Vec::new(),
        });
        Ok(())
    }

    /// A colonel's transfer of an action (HT-CMD-01, HT-INT-17), measured centre to centre (HT-GEN-04): the
    /// receiver, a unit of his side with a fit figure and not a colonel, becomes the unit acting; the colonel
    /// goes on when it is done.
    fn transfer(
        &mut self,
        colonel: CompanyId,
        to: CompanyId,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        if self.field.colonel_of(colonel).is_none() {
            return Err(GameError::Company(format!(
                "{} cannot transfer an action: only a colonel gives his actions to another unit",
                self.name(colonel)
            )));
        }
        let r = self.battle.company(to)?;
        if !r.has_fit() || self.field.colonel_of(to).is_some() {
            return Err(GameError::Company(format!(
                "{} cannot take a transferred action: it has no fit figure, or is a colonel (the game has no brigade commander to re-activate one)",
                r.name()
            )));
        }
        let distance = self
            .field
            .command_distance(colonel, to)
            .ok_or(RuleViolation::UnknownCompany(to))?;
        self.battle.transfer(colonel, to, distance)?;
        let actions = self.battle.company(to)?.actions_left();
        log.push(Event::Transferred {
            colonel: self.name(colonel),
            to: self.name(to),
            distance,
            actions,
        });
        self.resume = Some(colonel);
        self.active = Some(to);
        Ok(())
    }

    /// After a company of the regiment has taken its action of the wave: the second wave once every company
    /// has taken its first, and the end of the regiment's activation once every one has taken its second
    /// (HT-SEQ-04). At the end, actions left unused are given up, and the colonel moves with his formation
    /// (HT-CMD-03): by the mean of its companies' moves, where the ground is free (else he stays).
    fn next_wave(&mut self, log: &mut Vec<Event>) -> Result<(), GameError> {
        if !self.wave_open().is_empty() {
            return Ok(());
        }
        let Some(reg) = self.regiment.as_mut() else {
            return Ok(());
        };
        if reg.wave == 1 {
            reg.wave = 2;
            reg.acted.clear();
            if !self.wave_open().is_empty() {
                return Ok(());
            }
        }
        let Some(reg) = self.regiment.take() else {
            return Ok(());
        };
        for &id in &reg.companies {
            if self
                .battle
                .company_at(id)
                .is_some_and(|c| c.actions_left() > 0)
            {
                self.battle.forgo(id)?;
            }
        }
        let n = reg.companies.len() as f64;
        let (mut dx, mut dy) = (0.0, 0.0);
        for (&id, p) in reg.companies.iter().zip(&reg.from) {
            let now = self.field.at[id.0 as usize].centre;
            dx += (now.x - p.x) / n;
            dy += (now.y - p.y) / n;
        }
        let shift = dx.hypot(dy);
        let old = self.field.at[reg.colonel.0 as usize];
        if shift > 0.05 {
            let fp = old.placed(Point::new(old.centre.x + dx, old.centre.y + dy), old.facing);
            if self.ground(reg.colonel, &fp) == Ground::Free {
                self.field.at[reg.colonel.0 as usize] = fp;
                log.push(Event::ColonelFollowed {
                    colonel: self.name(reg.colonel),
                    distance: shift,
                });
            }
        }
        log.push(Event::ActivationEnded(self.name(reg.colonel)));
        self.to_act = self.side_of(reg.colonel).enemy();
        Ok(())
    }

    /// Whether a question other than the active company's next action is pending.
    fn pending(&self) -> bool {
        self.battle.assault_defender().is_some()
            || self.battle.short_of_contact().is_some()
            || self.reaction.is_some()
            || self.withdrawal.is_some()
    }

    /// After an order: plays the moves the rules make for a Broken or Routed active company
    /// ([`State::compelled`]), ends an activation with no actions left, hands over to the other side, ends the
    /// turn when every company has acted, and checks victory.
    fn after(&mut self, rec: &mut Recording<'_>, log: &mut Vec<Event>) -> Result<(), GameError> {
        self.sight_counters(log)?;
        self.colonels_fall(rec, log)?;
        if self.pending() {
            return Ok(());
        }
        if let Some(mut a) = self.active {
            // a company of a regiment takes one action a wave (HT-SEQ-04)
            let keep = self.regiment.as_ref().map_or(0, |r| 2 - r.wave);
            while !self.pending()
                && self
                    .battle
                    .company_at(a)
                    .is_some_and(|c| c.actions_left() > keep)
                && self.compelled(a, rec, log)?
            {}
            if self.pending()
                || self
                    .battle
                    .company_at(a)
                    .is_some_and(|c| c.actions_left() > keep)
            {
                return Ok(());
            }
            self.active = None;
            if let Some(reg) = self.regiment.as_mut() {
                reg.acted.push(a);
            } else {
                if let Some(colonel) = self.resume.take() {
                    // the unit given the transfer is done: the colonel goes on with what he has left
                    log.push(Event::ActivationEnded(self.name(a)));
                    a = colonel;
                    if self
                        .battle
                        .company_at(a)
                        .is_some_and(|c| c.actions_left() > 0)
                    {
                        self.active = Some(a);
                        if let Some(o) = self.victory(false) {
                            self.end = Some(o);
                            log.push(Event::Ended(o));
                        }
                        return Ok(());
                    }
                }
                log.push(Event::ActivationEnded(self.name(a)));
                let side = self.battle.company_at(a).map_or(self.to_act, |c| c.side());
                self.to_act = side.enemy();
            }
        }
        if self.regiment.is_some() {
            self.next_wave(log)?;
            if self.regiment.is_some() {
                if let Some(o) = self.victory(false) {
                    self.end = Some(o);
                    log.push(Event::Ended(o));
                }
                return Ok(());
            }
        }
        if let Some(o) = self.victory(false) {
            self.end = Some(o);
            log.push(Event::Ended(o));
            return Ok(());
        }
        if self.first.is_none() {
            return Ok(());
        }
        if !self.any_waiting(self.to_act) {
            self.to_act = self.to_act.enemy();
        }
        if !self.any_waiting(Side::Union) && !self.any_waiting(Side::Confederate) {
            log.push(Event::TurnEnded(self.turn));
            // idle by construction: no assault is pending here
            let _ = self.battle.end_turn();
            let went_first = self.first.unwrap_or(Side::Union);
            self.first = None;
            self.to_act = went_first;
            if self.turn >= self.turns {
                if let Some(o) = self.victory(true) {
                    self.end = Some(o);
                    log.push(Event::Ended(o));
                }
                return Ok(());
            }
            self.turn += 1;
            log.push(Event::TurnBegan(self.turn));
        }
        Ok(())
    }

    /// The companies in a regimental formation under `colonel` of `regiment` (HT-CMD-04): those of his
    /// regiment's activation under way, counted in it to the end of their activation (HT-SEQ-05), and those
    /// that stand in one with him now (HT-FRM-07: two or more of his regiment's companies, each in line or
    /// column, not Broken or Routed, its centre within 6" of his, all foot or all mounted; a formation forms at
    /// will, so companies that could form one are in one). Companies with no fit figure are in none.
    fn formation_under(&self, colonel: CompanyId, regiment: u32) -> Vec<CompanyId> {
        let side = self.side_of(colonel);
        let mut out: Vec<CompanyId> = self
            .regiment
            .as_ref()
            .filter(|r| r.colonel == colonel)
            .map(|r| r.companies.clone())
            .unwrap_or_default();
        let mut standing = Vec::new();
        let mut members = Vec::new();
        for id in self.battle.company_ids() {
            let Ok(c) = self.battle.company(id) else {
                continue;
            };
            let Some(distance) = self.field.command_distance(colonel, id) else {
                continue;
            };
            if id == colonel
                || c.side() != side
                || c.regiment() != Some(regiment)
                || self.field.colonel_of(id).is_some()
                || !c.has_fit()
                || !c.formation().is_close()
                || c.confidence() >= ConfidenceLevel::Broken
                || distance > crate::command::COMMAND_RANGE
            {
                continue;
            }
            standing.push(id);
            members.push(crate::command::Member {
                close: true,
                cl: c.confidence(),
                distance,
                branch: if c.mounted() {
                    crate::command::Branch::Mounted
                } else {
                    crate::command::Branch::Infantry
                },
            });
        }
        if crate::command::regimental_formation(&members).is_ok() {
            for id in standing {
                if !out.contains(&id) {
                    out.push(id);
                }
            }
        }
        out.retain(|&id| self.battle.company_at(id).is_some_and(|c| c.has_fit()));
        out
    }

    /// A colonel with no fit figure left has fallen (HT-CMD-04, HT-CMD-05): once the battle is between steps,
    /// every company in a regimental formation under him tests as though it had lost its own leader (base
    /// 4/3/1 by motivation, with the usual modifiers, −1 in close formation among them), and the leader of the
    /// best company still Confident, Steady or Shaken (the best quality; by lot with the game's dice among
    /// equals; any, by lot, if every company is Broken or Routed) takes his place at the command stand with
    /// his own quality and LV, his company's next figure leading it at an LV rolled as for a leader killed
    /// (HT-SG2-20), with no test. With no formation no company tests, and the stand, a single figure with no
    /// second in command, stays down: his regiment has no colonel.
    fn colonels_fall(
        &mut self,
        rec: &mut Recording<'_>,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        if !self.battle.is_idle() {
            return Ok(());
        }
        for i in 0..self.field.colonels.len() {
            let (colonel, regiment) = self.field.colonels[i];
            if self.field.fallen.contains(&colonel) || self.battle.company(colonel)?.has_fit() {
                continue;
            }
            let formation = self.formation_under(colonel, regiment);
            let name = self.name(colonel);
            if formation.is_empty() {
                self.field.fallen.push(colonel);
                log.push(Event::ColonelFell {
                    colonel: name,
                    tested: Vec::new(),
                    successor: None,
                    among: 0,
                    new_lv: None,
                    rolls: Vec::new(),
                    tests: Vec::new(),
                    chance: None,
                });
                continue;
            }
            // tests and rolls of the order before belong to its own events
            self.battle.take_tests();
            let before = rec.rolls.len();
            rec.about(format_args!("the fall of {name}"));
            let chosen = self.battle.colonel_falls(colonel, &formation, rec)?;
            let taken = self.battle.take_tests();
            let rolls = rec.rolls.split_off(before);
            let tested = taken
                .iter()
                .map(|(id, _, r)| (self.name(*id), r.to_string()))
                .collect();
            let tests = if rec.narrate {
                self.luck_of_tests(&taken)
            } else {
                Vec::new()
            };
            let after: Vec<_> = formation
                .iter()
                .map(|&id| {
                    self.battle
                        .company(id)
                        .map(|c| (c.quality(), c.confidence()))
                })
                .collect::<Result<_, _>>()?;
            let among = crate::command::Successor { companies: &after }
                .odds()
                .outcomes()
                .len();
            let stand = self.battle.company(colonel)?;
            let new_lv = self.battle.company(chosen)?.lv();
            let chance = rec.narrate.then(|| {
                LuckyRoll::from_dist(
                    self.side_of(chosen),
                    &crate::morale::ReplacementLeader { old: stand.lv() }.odds(),
                    &new_lv,
                    |lv| -lv.value(),
                )
            });
            log.push(Event::ColonelFell {
                colonel: name,
                tested,
                successor: Some(self.name(chosen)),
                among,
                new_lv: Some(new_lv.value()),
                rolls,
                tests,
                chance,
            });
        }
        Ok(())
    }

    /// Whether `side` is broken: half or more of its companies Broken, Routed or without a fit figure.
    #[must_use]
    pub fn broken(&self, side: Side) -> bool {
        // counted in one pass, no list
        let (mut mine, mut out) = (0usize, 0usize);
        for c in self
            .battle
            .company_ids()
            .filter(|&id| self.field.colonel_of(id).is_none())
            .filter_map(|id| self.battle.company_at(id))
            .filter(|c| c.side() == side)
        {
            mine += 1;
            out += usize::from(c.confidence() >= ConfidenceLevel::Broken || !c.has_fit());
        }
        2 * out >= mine
    }

    fn fit(&self, side: Side, in_wood: bool) -> usize {
        self.battle
            .company_ids()
            .filter(|&id| !in_wood || self.field.in_woods(self.field.at[id.0 as usize].centre))
            .filter_map(|id| self.battle.company_at(id))
            .filter(|c| c.side() == side && c.confidence() < ConfidenceLevel::Broken)
            .map(|c| c.fit())
            .sum()
    }

    /// Whether `side` has a fit figure in a company not Broken or Routed: `fit(side, false) > 0`, stopping at
    /// the first.
    fn any_fit(&self, side: Side) -> bool {
        self.battle.company_ids().any(|id| {
            self.battle.company_at(id).is_some_and(|c| {
                c.side() == side && c.confidence() < ConfidenceLevel::Broken && c.has_fit()
            })
        })
    }

    fn victory(&self, at_limit: bool) -> Option<Outcome> {
        let turn = self.turn;
        let (u, c) = (self.any_fit(Side::Union), self.any_fit(Side::Confederate));
        if !u || !c {
            let result = match (u, c) {
                (false, false) => GameResult::Draw,
                (false, true) => GameResult::Winner(Side::Confederate),
                _ => GameResult::Winner(Side::Union),
            };
            return Some(Outcome {
                result,
                reason: EndReason::Annihilation,
                turn,
            });
        }
        let (bu, bc) = (self.broken(Side::Union), self.broken(Side::Confederate));
        if bu || bc {
            let result = match (bu, bc) {
                (true, true) => GameResult::Draw,
                (true, false) => GameResult::Winner(Side::Confederate),
                _ => GameResult::Winner(Side::Union),
            };
            return Some(Outcome {
                result,
                reason: EndReason::ArmyBroken,
                turn,
            });
        }
        if !at_limit {
            return None;
        }
        let (wu, wc) = (
            self.fit(Side::Union, true),
            self.fit(Side::Confederate, true),
        );
        let result = match wu.cmp(&wc) {
            std::cmp::Ordering::Greater => GameResult::Winner(Side::Union),
            std::cmp::Ordering::Less => GameResult::Winner(Side::Confederate),
            std::cmp::Ordering::Equal => GameResult::Draw,
        };
        Some(Outcome {
            result,
            reason: EndReason::TurnLimit,
            turn,
        })
    }

    fn losses(&self) -> BySide<u32> {
        let lost = |side: Side| {
            self.battle
                .company_ids()
                .filter_map(|id| self.battle.company_at(id))
                .filter(|c| c.side() == side)
                .map(|c| u32::try_from(c.figures().len() - c.fit()).unwrap_or(u32::MAX))
                .sum()
        };
        BySide::new(lost(Side::Union), lost(Side::Confederate))
    }
}

/// A company's nearest enemy and its distance, if any.
type Nearest = Option<(CompanyId, f64)>;

/// Where a Routed company's run takes it this action.
enum RoutStep {
    /// Toward its own baseline, to this point, this many inches.
    To(Point, f64),
    /// Every free way back closes on the enemy (HT-SG2-48).
    Cornered,
    /// No free ground toward its own baseline.
    NoWay,
}

/// Hardtack as a [`Ruleset`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hardtack;

impl Ruleset for Hardtack {
    type Scenario = Scenario;
    type State = State;
    type Order = Order;
    type Event = Event;
    type Question = Question;
    type SetupError = GameSetupError;
    type RuleError = GameError;

    fn setup(&self, scenario: &Scenario, seed: u64) -> Result<State, GameSetupError> {
        State::new(scenario, seed)
    }

    fn owed(&self, state: &State) -> Option<Decision<Question>> {
        state.decision()
    }

    /// Applies the order to a copy and keeps it only if it was accepted and every face was given.
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
        // The order is applied to a spare copy, kept per thread so that copying the state into it allocates
        // little; the game's state and the spare change places only when the order is accepted.
        let mut next = state.spare_copy();
        let mut events = Vec::new();
        // kept only if accepted whole: the battle's steps need no copies of their own
        next.battle.as_throwaway_copy(true);
        let applied = next
            .apply_order(order, dice, &mut events, true)
            .and_then(|()| match dice.fault() {
                Some(e) => Err(GameError::Dice(e.clone())),
                None => Ok(()),
            });
        if applied.is_ok() {
            next.battle.as_throwaway_copy(false);
            std::mem::swap(state, &mut next);
            log.extend(events);
        }
        next.keep_as_spare();
        applied
    }

    fn rng_mut<'s>(&self, state: &'s mut State) -> &'s mut GameRng {
        &mut state.rng
    }

    fn outcome(&self, state: &State) -> Option<Outcome> {
        state.end
    }

    fn losses(&self, state: &State) -> BySide<u32> {
        state.losses()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// The squares-only first look of `ground` and `sweeps` never skips a pair the exact test would keep: over
    /// footprints of several sizes and facings, at centre distances stepping through where their bounding
    /// circles come within half an inch (and so through the margin of half a millionth of the distance), every
    /// pair it calls clearly apart is at
    /// least half an inch apart by the `hypot` bound and by the exact distance; pairs touching or overlapping
    /// are never skipped; pairs far apart are.
    #[test]
    fn the_quick_look_at_ground_skips_only_what_the_exact_test_skips() {
        let sizes = [(6.0, 1.0), (3.0, 2.0), (1.0, 1.0), (4.5, 0.75)];
        let (mut skipped, mut kept) = (0u32, 0u32);
        for &(f1, d1) in &sizes {
            for &(f2, d2) in &sizes {
                for facing in [0.0, 30.0, 90.0, 137.5] {
                    let a = Footprint {
                        centre: Point::new(24.0, 18.0),
                        facing: Heading::NORTH.turned(facing),
                        frontage: Inches(f1),
                        depth: Inches(d1),
                    };
                    let mut b = Footprint {
                        centre: a.centre,
                        facing: Heading::NORTH.turned(facing + 45.0),
                        frontage: Inches(f2),
                        depth: Inches(d2),
                    };
                    let edge = 0.5 + reach(&a) + reach(&b);
                    for k in -40..=40 {
                        let r = edge * (1.0 + f64::from(k) * 1e-7);
                        for bearing in [0.0, 60.0, 200.0] {
                            b.centre = a.centre.moved(Heading::NORTH.turned(bearing), Inches(r));
                            let bound = a.centre.distance(b.centre).0 - reach(&a) - reach(&b);
                            let skip = circles_clearly_apart(&a, &b, 0.5);
                            // a millionth on the squares is half that on the distances
                            if k <= 4 {
                                assert!(!skip, "{k}: {a:?} {b:?}");
                            } else if k >= 6 {
                                assert!(skip, "{k}: {a:?} {b:?}");
                            }
                            if skip {
                                skipped += 1;
                                assert!(bound >= 0.5, "{a:?} {b:?}");
                                assert!(a.distance(&b).0 >= 0.5, "{a:?} {b:?}");
                                let (x, y) = (b.centre.x - a.centre.x, b.centre.y - a.centre.y);
                                assert!(clearly_beyond(x, y, edge));
                                assert!(x.hypot(y) > edge);
                            } else {
                                kept += 1;
                            }
                        }
                    }
                    // overlapping and touching are looked at; far apart is not
                    b.centre = a.centre.moved(Heading::NORTH.turned(10.0), Inches(0.3));
                    assert!(!circles_clearly_apart(&a, &b, 0.5));
                    b.centre = a
                        .centre
                        .moved(Heading::NORTH.turned(10.0), Inches(edge - 0.5));
                    assert!(!circles_clearly_apart(&a, &b, 0.5));
                    b.centre = a
                        .centre
                        .moved(Heading::NORTH.turned(10.0), Inches(edge * 1.001));
                    assert!(circles_clearly_apart(&a, &b, 0.5));
                }
            }
        }
        // 16 pairs of sizes, 4 facings, 3 bearings: 45 steps looked at (up to 4e-7 beyond the circles), 36 not
        assert_eq!((skipped, kept), (16 * 4 * 3 * 36, 16 * 4 * 3 * 45));
    }

    /// A state copied into another with `clone_from` (as each order's spare is) equals the state copied, its
    /// `Debug` form too (which shows the confidence tests the equality passes over), and carries its mark as a
    /// throwaway copy or not: two seeded default games are played side by side by the bots, and at every order
    /// each is copied into a copy of the other (marked as a throwaway) and into the copy of itself kept from
    /// before its last order. The games lose figures, fire, rally and activate regiments, so the lists copied
    /// into differ in length both ways.
    #[test]
    fn a_copy_into_another_state_is_that_state() {
        use crate::bots::{Holder, Thruster};
        use acw_core::game::Commander;
        let scenario = Scenario::meeting_at_the_fence().unwrap();
        let mut games = [3u64, 4].map(|seed| {
            (
                Hardtack.setup(&scenario, seed).unwrap(),
                Thruster::new(seed),
                Holder::new(seed),
            )
        });
        let mut before: Vec<State> = games.iter().map(|g| g.0.clone()).collect();
        let (mut orders, mut differed) = (0u32, 0u32);
        let mut log = Vec::new();
        loop {
            for ((state, ..), earlier) in games.iter().zip(&mut before) {
                earlier.clone_from(state);
                assert_eq!(*earlier, *state);
                assert_eq!(format!("{earlier:?}"), format!("{state:?}"));
            }
            let [(a, ..), (b, ..)] = &games;
            differed += u32::from(a != b);
            for (from, into) in [(a, b), (b, a)] {
                let mut copy = into.clone();
                copy.battle.as_throwaway_copy(true);
                copy.clone_from(from);
                assert_eq!(copy, *from);
                assert_eq!(format!("{copy:?}"), format!("{from:?}"));
                assert!(!copy.battle.is_throwaway_copy());
            }
            let mut played = false;
            for (state, thruster, holder) in &mut games {
                if let Some(side) = Hardtack.to_order(state) {
                    let order = match side {
                        Side::Union => thruster.order(&Hardtack, state, side),
                        Side::Confederate => holder.order(&Hardtack, state, side),
                    };
                    Hardtack.apply(state, &order, &mut log).unwrap();
                    orders += 1;
                    played = true;
                }
            }
            if !played {
                break;
            }
        }
        assert!(orders > 400, "{orders}");
        assert!(differed > 200, "{differed}");
    }

    /// The other first looks of `ground` agree with the exact distance: over footprints of several sizes and
    /// facings placed on a grid of offsets round one another, a pair whose sides are called clearly more than
    /// half an inch apart is more than half an inch apart by [`Footprint::distance`], and a pair called clearly
    /// overlapping is at distance 0; near pairs (within 0.5" plus a millionth of the gap along every side's
    /// direction) are left to the exact test.
    #[test]
    fn the_quick_looks_at_sides_and_overlaps_agree_with_the_distance() {
        let sizes = [(6.0, 1.0), (3.0, 2.0), (1.0, 1.0), (0.75, 4.5)];
        let (mut apart, mut overlap, mut left, mut near) = (0u32, 0u32, 0u32, 0u32);
        let mut beyond_circles = 0u32;
        for &(f1, d1) in &sizes {
            for &(f2, d2) in &sizes {
                for (facing, turn) in [(0.0, 0.0), (30.0, 45.0), (90.0, 10.0), (137.5, 180.0)] {
                    let a = Footprint {
                        centre: Point::new(24.0, 18.0),
                        facing: Heading::NORTH.turned(facing),
                        frontage: Inches(f1),
                        depth: Inches(d1),
                    };
                    for i in -20..=20 {
                        for j in -20..=20 {
                            let b = Footprint {
                                centre: Point::new(
                                    24.0 + f64::from(i) * 0.37,
                                    18.0 + f64::from(j) * 0.29,
                                ),
                                facing: Heading::NORTH.turned(facing + turn),
                                frontage: Inches(f2),
                                depth: Inches(d2),
                            };
                            let d = a.distance(&b).0;
                            if sides_clearly_apart(&a, &b, 0.5) {
                                apart += 1;
                                beyond_circles += u32::from(!circles_clearly_apart(&a, &b, 0.5));
                                assert!(d > 0.5, "{a:?} {b:?} {d}");
                            } else if clearly_overlap(&a, &b) {
                                overlap += 1;
                                assert_eq!(d, 0.0, "{a:?} {b:?}");
                            } else {
                                left += 1;
                                near += u32::from(d < 0.5);
                            }
                        }
                    }
                }
            }
        }
        // most pairs are answered without the exact distance, many that the bounding circles leave open
        assert_eq!(apart + overlap + left, 16 * 4 * 41 * 41);
        assert!(near > 0, "{near}");
        assert!(apart > left && overlap > 0, "{apart} {overlap} {left}");
        assert!(beyond_circles > left / 4, "{beyond_circles} {left}");
    }

    /// A remembered distance is the distance measured, bit for bit: pairs of footprints (more than the slots
    /// remembered, so that slots are taken over) are measured through [`measured`] three times over, both ways
    /// round, and each answer equals [`Footprint::distance`]'s; a centre written with a negative zero (other
    /// bits, so another key) is measured as itself.
    #[test]
    fn a_remembered_distance_is_the_distance_measured() {
        let place = |x: f64, y: f64, facing: f64, frontage: f64| Footprint {
            centre: Point::new(x, y),
            facing: Heading::NORTH.turned(facing),
            frontage: Inches(frontage),
            depth: Inches(1.0),
        };
        let pairs: Vec<(Footprint, Footprint)> = (0..3 * MEASURED_SLOTS)
            .map(|i| {
                let k = i as f64;
                (
                    place(k % 48.0, (k * 0.37) % 36.0, k * 7.0, 3.0 + k % 4.0),
                    place((k * 1.3) % 48.0, (k * 0.11) % 36.0, k * 11.0, 6.0),
                )
            })
            .collect();
        let mut apart = 0;
        for _ in 0..3 {
            for (a, b) in &pairs {
                assert_eq!(measured(a, b).to_bits(), a.distance(b).0.to_bits());
                assert_eq!(measured(b, a).to_bits(), b.distance(a).0.to_bits());
                apart += usize::from(measured(a, b) > 0.0);
            }
        }
        assert!(apart > pairs.len(), "{apart}");
        let (a, b) = (place(0.0, 10.0, 0.0, 6.0), place(-0.0, 14.0, 0.0, 6.0));
        assert_eq!(measured(&a, &b), 3.0);
        assert_eq!(measured(&b, &a), 3.0);
    }

    /// The bots' search for targets sees what the fire facts see: through a seeded default game, at every
    /// order, for every firer and target, [`State::seen_distance`] is the distance of [`State::fire_facts`]
    /// where those are given (bit for bit) and `None` where there is no line of sight.
    #[test]
    fn the_distance_seen_is_that_of_the_fire_facts() {
        use crate::bots::{Holder, Thruster};
        use acw_core::game::Commander;
        let scenario = Scenario::meeting_at_the_fence().unwrap();
        let mut state = Hardtack.setup(&scenario, 5).unwrap();
        let (mut union, mut confederate) = (Thruster::new(5), Holder::new(5));
        let (mut seen, mut unseen) = (0u32, 0u32);
        let mut log = Vec::new();
        while let Some(side) = Hardtack.to_order(&state) {
            for a in state.battle.company_ids() {
                for b in state.battle.company_ids() {
                    let facts = state.fire_facts(a, b).ok().map(|f| f.distance.to_bits());
                    assert_eq!(state.seen_distance(a, b).map(f64::to_bits), facts);
                    seen += u32::from(facts.is_some());
                    unseen += u32::from(facts.is_none());
                }
            }
            let order = match side {
                Side::Union => union.order(&Hardtack, &state, side),
                Side::Confederate => confederate.order(&Hardtack, &state, side),
            };
            Hardtack.apply(&mut state, &order, &mut log).unwrap();
        }
        assert!(seen > 1000 && unseen > 1000, "{seen} {unseen}");
    }

    /// The nearest enemy measured by bounds first is the nearest by every distance: through a seeded default
    /// game, at every order, for every company, [`State::nearest_enemy`] is the enemy with a fit figure at the
    /// least [`Footprint::distance`] (the lower id among equals), every enemy measured.
    #[test]
    fn the_nearest_enemy_is_the_nearest_of_all() {
        use crate::bots::{Holder, Thruster};
        use acw_core::game::Commander;
        let scenario = Scenario::meeting_at_the_fence().unwrap();
        let mut state = Hardtack.setup(&scenario, 6).unwrap();
        let (mut union, mut confederate) = (Thruster::new(6), Holder::new(6));
        let (mut asked, mut not_first_bound) = (0u32, 0u32);
        let mut log = Vec::new();
        while let Some(side) = Hardtack.to_order(&state) {
            for id in state.battle.company_ids() {
                let me = state.battle.company(id).unwrap();
                let fp = state.field.at[id.0 as usize];
                let mut all: Vec<(f64, CompanyId)> = state
                    .battle
                    .company_ids()
                    .filter(|&o| {
                        let c = state.battle.company(o).unwrap();
                        c.side() != me.side() && c.fit() > 0
                    })
                    .map(|o| (fp.distance(&state.field.at[o.0 as usize]).0, o))
                    .collect();
                all.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                let nearest = state.nearest_enemy(id);
                assert_eq!(
                    nearest.map(|n| (n.1.to_bits(), n.0)),
                    all.first().map(|a| (a.0.to_bits(), a.1))
                );
                // the enemy of the nearest centre is not always the nearest
                let by_centre = all.iter().min_by(|a, b| {
                    let c =
                        |o: CompanyId| fp.centre.distance(state.field.at[o.0 as usize].centre).0;
                    c(a.1).total_cmp(&c(b.1))
                });
                not_first_bound += u32::from(by_centre.map(|b| b.1) != nearest.map(|n| n.0));
                asked += 1;
            }
            let order = match side {
                Side::Union => union.order(&Hardtack, &state, side),
                Side::Confederate => confederate.order(&Hardtack, &state, side),
            };
            Hardtack.apply(&mut state, &order, &mut log).unwrap();
        }
        assert!(asked > 1000, "{asked}");
        assert!(not_first_bound > 0, "{not_first_bound}");
    }

    /// Whether a company has a fit figure, answered at the first one, is whether its count of fit figures is
    /// more than none: through a seeded default game, at every order, for every company.
    #[test]
    fn a_company_has_a_fit_figure_when_it_counts_one() {
        use crate::bots::{Holder, Thruster};
        use acw_core::game::Commander;
        let scenario = Scenario::meeting_at_the_fence().unwrap();
        let mut state = Hardtack.setup(&scenario, 7).unwrap();
        let (mut union, mut confederate) = (Thruster::new(7), Holder::new(7));
        let (mut fit, mut none_fit) = (0u32, 0u32);
        let mut log = Vec::new();
        while let Some(side) = Hardtack.to_order(&state) {
            for id in state.battle.company_ids() {
                let c = state.battle.company(id).unwrap();
                assert_eq!(c.has_fit(), c.fit() > 0);
                fit += u32::from(c.fit() > 0);
                none_fit += u32::from(c.fit() == 0);
            }
            let order = match side {
                Side::Union => union.order(&Hardtack, &state, side),
                Side::Confederate => confederate.order(&Hardtack, &state, side),
            };
            Hardtack.apply(&mut state, &order, &mut log).unwrap();
        }
        assert!(fit > 1000 && none_fit > 0, "{fit} {none_fit}");
    }

    /// The game's own lookups of a company find what [`Battle::company`] finds: for every company of a seeded
    /// default game and ids past the last, [`Battle::company_at`] is the company where `company` gives it and
    /// nothing where `company` refuses.
    #[test]
    fn a_company_looked_up_as_an_option_is_the_company() {
        let scenario = Scenario::meeting_at_the_fence().unwrap();
        let state = Hardtack.setup(&scenario, 8).unwrap();
        let n = state.battle.company_ids().count();
        assert!(n > 10, "{n}");
        for i in 0..n + 3 {
            let id = CompanyId(u32::try_from(i).unwrap());
            let (at, by_result) = (state.battle.company_at(id), state.battle.company(id));
            assert_eq!(at.is_some(), i < n);
            assert_eq!(
                at.map(|c| c as *const crate::state::Company),
                by_result.ok().map(|c| c as *const crate::state::Company)
            );
        }
    }

    /// Whether a side has a fit figure in a company not Broken, answered at the first, is whether it counts
    /// one: through a seeded default game, at every order, for both sides.
    #[test]
    fn a_side_has_a_fit_figure_when_it_counts_one() {
        use crate::bots::{Holder, Thruster};
        use acw_core::game::Commander;
        let scenario = Scenario::meeting_at_the_fence().unwrap();
        let mut state = Hardtack.setup(&scenario, 9).unwrap();
        let (mut union, mut confederate) = (Thruster::new(9), Holder::new(9));
        let mut asked = 0u32;
        let mut log = Vec::new();
        while let Some(side) = Hardtack.to_order(&state) {
            for s in [Side::Union, Side::Confederate] {
                assert_eq!(state.any_fit(s), state.fit(s, false) > 0);
                asked += 1;
            }
            let order = match side {
                Side::Union => union.order(&Hardtack, &state, side),
                Side::Confederate => confederate.order(&Hardtack, &state, side),
            };
            Hardtack.apply(&mut state, &order, &mut log).unwrap();
        }
        for s in [Side::Union, Side::Confederate] {
            assert_eq!(state.any_fit(s), state.fit(s, false) > 0);
        }
        assert!(asked > 100, "{asked}");
    }

    /// A line of sight called clearly past a footprint does not cross it: over footprints of several sizes
    /// and facings and segments from a ring of points round them to another (some through, some grazing, some
    /// wide), every segment [`clearly_misses`] passes is one [`Footprint::blocks`] says does not block, and
    /// most that do not block are answered without it.
    #[test]
    fn a_line_clearly_past_a_footprint_is_not_blocked_by_it() {
        let (mut missed, mut blocked, mut open) = (0u32, 0u32, 0u32);
        for (frontage, depth) in [(6.0, 1.0), (1.0, 1.0), (0.75, 4.5)] {
            for facing in [0.0, 33.0, 90.0, 200.0] {
                let f = Footprint {
                    centre: Point::new(20.0, 20.0),
                    facing: Heading::NORTH.turned(facing),
                    frontage: Inches(frontage),
                    depth: Inches(depth),
                };
                for i in 0..24 {
                    for j in 0..24 {
                        let a = f
                            .centre
                            .moved(Heading::NORTH.turned(f64::from(i) * 15.0), Inches(9.0));
                        let b = f.centre.moved(
                            Heading::NORTH.turned(f64::from(j) * 15.0 + 7.0),
                            Inches(4.0),
                        );
                        let blocks = f.blocks(a, b);
                        if clearly_misses(&f, a, b) {
                            missed += 1;
                            assert!(!blocks, "{f:?} {a:?} {b:?}");
                        } else if blocks {
                            blocked += 1;
                        } else {
                            open += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(missed + blocked + open, 3 * 4 * 24 * 24);
        assert!(blocked > 0 && missed > open, "{missed} {blocked} {open}");
    }

    /// A remembered search for cover is the search made afresh: through a seeded default game, at every order,
    /// for every company, the way [`State::cover_sought`] gives (asked twice, the second time remembered) is
    /// the one [`State::seek_cover`] finds, bit for bit, as the companies move, fall and break.
    #[test]
    fn a_remembered_search_for_cover_is_the_search() {
        use crate::bots::{Holder, Thruster};
        use acw_core::game::Commander;
        let scenario = Scenario::meeting_at_the_fence().unwrap();
        let mut state = Hardtack.setup(&scenario, 8).unwrap();
        let (mut union, mut confederate) = (Thruster::new(8), Holder::new(8));
        let (mut found, mut none) = (0u32, 0u32);
        let bits =
            |w: Option<(Heading, f64)>| w.map(|(h, d)| (h.as_degrees().to_bits(), d.to_bits()));
        let mut log = Vec::new();
        while let Some(side) = Hardtack.to_order(&state) {
            for id in state.battle.company_ids() {
                let afresh = bits(state.seek_cover(id));
                assert_eq!(bits(state.cover_sought(id)), afresh);
                assert_eq!(bits(state.cover_sought(id)), afresh);
                found += u32::from(afresh.is_some());
                none += u32::from(afresh.is_none());
            }
            let order = match side {
                Side::Union => union.order(&Hardtack, &state, side),
                Side::Confederate => confederate.order(&Hardtack, &state, side),
            };
            Hardtack.apply(&mut state, &order, &mut log).unwrap();
        }
        assert!(found > 50 && none > 1000, "{found} {none}");
    }
}
