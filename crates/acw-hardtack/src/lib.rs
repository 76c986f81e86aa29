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
//! - [`fire`]: the range die, the firer's dice, the fire roll, impact, allocation, and the whole chain;
//! - [`morale`]: threat-level composition, confidence, reaction, rally, replacement leaders;
//! - [`melee`]: close-assault tests, close-combat dice, the melee to its end, downed figures;
//! - [`artillery`]: canister, round shot with deviation and bounces, area damage;
//! - [`movement`]: combat moves;
//! - [`state`]: companies, figures, guns and the [`Battle`] that rolls and applies every rule.
//!
//! Not done yet (see docs/rulesets/hardtack.md for the full list and why): regimental formations and
//! Activate Regiment, runners and command transfers, mounted casualties and horse teams, travel mode and
//! terrain movement, case and spherical case, off-table guns, sharpshooters, Gatling guns in the engine,
//! and the advanced rules other than First Volley, Enfilade, Morale Modifications, Prepared Fire, Artillery
//! Shot Ranges and Rifled Bounces.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod advanced;
pub mod artillery;
pub mod casualties;
pub mod command;
pub mod error;
pub mod fire;
pub mod ladder;
pub mod melee;
pub mod morale;
pub mod movement;
pub mod options;
pub mod setup;
pub mod state;
pub mod tables;

pub use error::{RuleViolation, SetupError};
pub use ladder::DieType;
pub use options::Options;
pub use state::{Battle, CompanyId, GunId};
