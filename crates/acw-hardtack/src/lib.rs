//! # acw-hardtack
//!
//! Hardtack, a set of American Civil War skirmish rules that plugs into **Stargrunt II**: a company of 6–12
//! figures is the unit; a figure stands for three to five men; the sides alternate activating one company
//! (two actions each). Every test rolls a die off the ladder D4 < D6 < D8 < D10 < D12 — the unit's quality
//! die — against its leadership plus a threat level. Fire is the quality die plus a firepower die against the
//! target's range die: one die beating it makes the target test its confidence, two or more also bring
//! potential casualties (the firer's total divided by the range die's faces), each rolled as impact against
//! armour. Hardtack adds skirmish/line/column formations, reloading, smoothbores, round shot that bounces,
//! canister that blasts through, and many optional rules.
//!
//! Modules:
//! - [`ladder`]: the die-type ladder with closed and open shifts and the roll conventions (free of the rest
//!   of the crate, ready to move to acw-core);
//! - [`tables`]: quality, leadership, motivation, confidence levels, threat levels, armour, weapons,
//!   canister, close-combat weapons, mobility; [`options`]: every reading and advanced-rule switch;
//! - [`fire`]: the range die, the firer's dice, the fire roll, impact, allocation, the whole chain to
//!   casualties, sharpshooters, target priority;
//! - [`morale`]: threat-level composition, confidence, reaction, rally, replacement leaders;
//! - [`melee`]: close-assault tests, close-combat dice, the melee to its end, downed figures, the whole assault;
//! - [`artillery`]: canister, round shot with deviation and bounces, area damage;
//! - [`movement`], [`casualties`], [`command`], [`setup`], [`advanced`]: combat moves, horses and treatment,
//!   communication and regimental formations, scale and terrain, the advanced rules' tables and tests;
//! - [`state`]: companies, figures, guns and the [`Battle`] that checks, rolls and applies every rule in one
//!   step, refusing with a typed [`RuleViolation`] and changing nothing.
//! - [`game`]: the whole game behind acw-core's `Ruleset` — alternating activations, the defender's answer to
//!   an assault as a pause, fire and moves measured on the table, the objectives; [`bots`]: two baseline
//!   commanders; [`luck`]: each side's luck over a game's log, from the chance every rolling event carries;
//!   [`prelude`]: the common imports.
//!
//! ```
//! use acw_core::dice::ScriptedDice;
//! use acw_core::{Resolve, Side};
//! use acw_hardtack::fire::{FireDice, FirerDice, Impact, Volley};
//! use acw_hardtack::options::KillThreshold;
//! use acw_hardtack::state::{CompanySpec, FireFacts, Formation};
//! use acw_hardtack::{Battle, DieType, Options};
//!
//! // A Regular line of 8 fires at 8 skirmishers 6" away: range die D4, quality D8 + firepower D8.
//! let mut battle = Battle::new(Options::default());
//! let mut spec = CompanySpec::new("1st Minnesota, Company A", Side::Union, 8);
//! spec.formation = Formation::Line;
//! let blue = battle.add_company(spec)?;
//! let grey = battle.add_company(CompanySpec::new("8th Alabama, Company C", Side::Confederate, 8))?;
//! battle.activate(blue)?;
//! // Range die 4, quality 7, firepower 2: one die beats it — the target only tests (TL 0, roll 5 passes).
//! let report = battle.fire(blue, grey, FireFacts { distance: 6.0, ..FireFacts::default() },
//!                          &mut ScriptedDice::faces([4, 7, 2, 5]))?;
//! println!("{report}");
//!
//! // Exact odds of the same fire to its casualties.
//! let volley = Volley {
//!     fire: FireDice { firer: FirerDice::two(DieType::D8, DieType::D8), range: DieType::D4 },
//!     impact: Impact { impact: DieType::D6, armour: DieType::D4, armour_shift: 0,
//!                      kill: KillThreshold::DoubleOrMore },
//!     pool: 8,
//! };
//! let odds = volley.odds();
//! let none = odds.prob(|o| o.casualties() == 0);
//! assert!(none > 0.5 && none < 0.7);
//! # Ok::<(), acw_hardtack::RuleViolation>(())
//! ```
//!
//! Not done yet (docs/rulesets/hardtack.md lists them with why): exact odds for combined close assaults
//! (the engine plays them), gun teams' horses hit by small arms or canister, dummy counters for hidden units,
//! scenario set-up, stand-based fire for 6mm figures, lone figures' own markers, and the horse-or-rider roll
//! inside a melee.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod advanced;
pub mod artillery;
pub mod bots;
pub mod casualties;
pub mod catalogue;
pub mod command;
pub mod error;
pub mod fire;
pub mod game;
pub mod ladder;
pub mod luck;
pub mod melee;
pub mod morale;
pub mod movement;
pub mod options;
pub mod setup;
pub mod state;
pub mod tables;

/// The common imports for playing and studying Hardtack: `use acw_hardtack::prelude::*;` brings the battle with
/// its companies, guns and ids, the options, the whole game with its scenario, orders and two bots, the main
/// procedures with their outcomes (fire, close assault, confidence tests, round shot), the die ladder, and the
/// `Resolve` trait that gives every random procedure its `roll` and `odds`.
///
/// ```
/// use acw_hardtack::prelude::*;
/// use acw_core::dice::ScriptedDice;
/// use acw_core::{BySide, Side, game::play};
///
/// // A Regular line of 8 fires at 8 skirmishers 6" away: range die 4, quality 7, firepower 2 — one die beats
/// // the range die, so the target only tests its confidence (TL 0, a 5 passes).
/// let mut battle = Battle::new(Options::default());
/// let mut spec = CompanySpec::new("1st Minnesota, Company A", Side::Union, 8);
/// spec.formation = Formation::Line;
/// let blue: CompanyId = battle.add_company(spec)?;
/// let grey = battle.add_company(CompanySpec::new("8th Alabama, Company C", Side::Confederate, 8))?;
/// assert_eq!(grey.to_string(), "company 1");
/// battle.activate(blue)?;
/// let report: FireReport = battle.fire(blue, grey, FireFacts { distance: 6.0, ..FireFacts::default() },
///                                      &mut ScriptedDice::faces([4, 7, 2, 5]))?;
/// assert!(report.to_string().starts_with("1st Minnesota, Company A fired"));
///
/// // The exact odds of the same fire to its casualties.
/// let volley = Volley {
///     fire: FireDice { firer: FirerDice::two(DieType::D8, DieType::D8), range: DieType::D4 },
///     impact: Impact { impact: DieType::D6, armour: DieType::D4, armour_shift: 0,
///                      kill: KillThreshold::DoubleOrMore },
///     pool: 8,
/// };
/// assert!(volley.odds().prob(|o| o.casualties() == 0) > 0.5);
///
/// // A whole game between the two bots.
/// let scenario = Scenario::meeting_at_the_fence()?;
/// let (mut union, mut confederate) = (Thruster::new(1), Holder::new(2));
/// let played = play(&Hardtack, &scenario, 7, BySide::new(&mut union, &mut confederate))?;
/// assert!(!played.log.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub mod prelude {
    pub use crate::artillery::{ShotBounces, ShotRange};
    pub use crate::bots::{Holder, Thruster};
    pub use crate::error::{RuleViolation, SetupError};
    pub use crate::fire::{
        Cover, FireDice, FireEffect, FirerDice, Impact, Sharpshot, SharpshotResult, Volley,
        VolleyOutcome,
    };
    pub use crate::game::{
        DeployedGun, Event, GameError, GameSetupError, GunAim, Hardtack, Order, Question, Retreat,
        Scenario, ShotPoint, State,
    };
    pub use crate::ladder::{DieType, Success};
    pub use crate::melee::{
        AssaultEnd, AssaultFire, CloseAssault, FinalFire, FireToll, Melee, MeleeOutcome,
    };
    pub use crate::morale::{Confidence, ConfidenceTest, Rally, ReactionTest};
    pub use crate::options::{KillThreshold, Options};
    pub use crate::state::{
        Action, AssaultReport, Battle, CanisterFacts, Company, CompanyId, CompanySpec,
        DefenderChoice, FireFacts, FireReport, Formation, Gun, GunId, MoveOrder, ShortOfContact,
        ShotImpactReport,
    };
    pub use crate::tables::{ConfidenceLevel, Leadership, Motivation, Quality};
    pub use acw_core::Resolve;
}

pub use error::{RuleViolation, SetupError};
pub use ladder::DieType;
pub use options::Options;
pub use state::{Battle, CompanyId, DummyId, GunId};
