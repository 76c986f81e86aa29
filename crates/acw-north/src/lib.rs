//! # acw-north
//!
//! David E. North's "American Civil War Rules" (a modification of Aelred Gledden's adaptation of Steven
//! Simpson's rules concept) as a library: brigade orders, accomplishment tosses, stand losses.
//!
//! Units are regiments of 3–5 stands (infantry of two figures a stand, mounted cavalry of one) and batteries
//! of a gun with 1–3 crew stands, grouped in brigades of 2–5 units under a Major General; each side has 10–20
//! units and an Army Commander. A brigade's order (Advance, Hold, Withdraw) drives its units' moves. Every
//! action that matters — a formation change, a charge, leaving a melee — needs an *accomplishment toss*: a
//! d6 no higher than the unit's stands (crew figures for a battery). Combat runs artillery, then musketry
//! (18" infantry, 12" mounted cavalry), then melee; the units attacking one target throw one d6 together and
//! hit on 5+ after modifiers. A hit forces a morale toss: 1–2 the unit rallies, 3–4 it loses a stand or
//! falls back, 5–6 both; a general may try to rally it first, at the risk of his life. Infantry and cavalry
//! leave play below three stands. All distances are in inches; the rules give no figure or ground scale.
//!
//! Modules: [`tables`] (the rules' tables), [`options`] (every switch between readings), [`setup`] (force
//! lists, validation, the default scenario), [`state`] (units, generals, brigades, the [`Battle`]),
//! [`sequence`] (turns and steps), [`command`] (orders, rallies), [`movement`], [`combat`], [`melee`],
//! [`morale`], [`victory`], [`error`]; [`prelude`] gathers the common imports.
//!
//! ```
//! use acw_core::dice::ScriptedDice;
//! use acw_core::measure::Inches;
//! use acw_core::{Resolve, Side};
//! use acw_north::combat::{AttackGroup, Category, CombatSituation, Sight};
//! use acw_north::morale::{MoraleCheck, MoraleResponse};
//! use acw_north::sequence::Step;
//! use acw_north::tables::MoraleBand;
//! use acw_north::{Battle, Options, setup::default_forces};
//!
//! // Exact odds: one unit firing at a deployed target in the open hits on 5-6.
//! let shot = CombatSituation::default().toss(&Options::default());
//! assert!((shot.odds().p(&true) - 2.0 / 6.0).abs() < 1e-12);
//! // A morale check with one rally attempt: rallies with probability 1/2.
//! let check = MoraleCheck { rallies: 1, ..MoraleCheck::default() };
//! assert!((check.odds().prob(|o| o.band == MoraleBand::Rallies) - 0.5).abs() < 1e-12);
//!
//! // Play: the Confederate first battery fires at a Union regiment 20" away.
//! let mut battle = Battle::new(&default_forces(), Options::default())?;
//! let gun = battle.unit_named("CSA 1st Bde, Battery").map(|u| u.id()).ok_or("no gun")?;
//! let target = battle.unit_named("USA 1st Bde, Regt 1").map(|u| u.id()).ok_or("no target")?;
//! assert_eq!(battle.clock().phasing(), Side::Confederate);
//! battle.advance_to(Step::Units)?;
//! // Its units owe their ordered moves before the units step ends; no table is measured here, so excuse them.
//! for unit in battle.owed_moves() {
//!     battle.excuse_move(unit)?;
//! }
//! battle.advance_to(Step::Artillery)?;
//! let group = AttackGroup { category: Category::Artillery, target, attackers: vec![gun] };
//! // A 6 hits; the morale die shows 5: the regiment loses a stand and falls back in column.
//! let mut dice = ScriptedDice::faces([6, 5]);
//! let report = battle.attack(&group, &[Sight::clear(Inches(20.0))], false,
//!                            &MoraleResponse::default(), &mut dice)?;
//! assert!(report.hit);
//! assert_eq!(battle.unit(target)?.current_stands(), 3);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod bots;
pub mod catalogue;
pub mod combat;
pub mod command;
pub mod error;
pub mod field;
pub mod game;
pub mod luck;
pub mod melee;
pub mod morale;
pub mod movement;
pub mod narrate;
pub mod options;
pub mod sequence;
pub mod setup;
pub mod state;
pub mod tables;
pub mod victory;

pub mod prelude {
    //! The common imports: `use acw_north::prelude::*;` brings the battle, its ids and options, the brigade
    //! orders and unit kinds, an attack and its exact odds, the whole game with its two bots, and the
    //! `Resolve` trait that gives every random procedure its `roll` and `odds`.
    pub use crate::bots::{Attacker, Holder};
    pub use crate::combat::{AttackGroup, Category, Sight};
    pub use crate::error::{RuleViolation, SetupError};
    pub use crate::game::{Action, North, Order, State};
    pub use crate::morale::{
        AttackEffect, AttackOutcome, Choice, ChoicePolicy, MoraleResponse, WholeAttack,
    };
    pub use crate::options::Options;
    pub use crate::sequence::Step;
    pub use crate::setup::{Scenario, default_forces};
    pub use crate::state::{Battle, BrigadeId, GeneralId, Unit, UnitId};
    pub use crate::tables::{BrigadeOrder, Formation, Troop};
    pub use acw_core::Resolve;
}

pub use error::{RuleViolation, SetupError};
pub use options::Options;
pub use state::{Battle, BrigadeId, GeneralId, Unit, UnitId};
