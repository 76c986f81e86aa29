//! # acw-grid
//!
//! A brigade-level American Civil War ruleset played on a grid of **areas** — squares or hexes, each some
//! 300–500 yards across — or on an open table where a fixed length stands for an area. A stand is about 400–500
//! men or a battery of 6–8 guns; every stand of one side in one area forms the rules' **unit**. Only d6s are
//! used: almost every roll hits on a 5 or 6, ±1 per die for quality, and a stand absorbs 2 hits.
//!
//! A turn: initiative (high d6 chooses to move first or second), simultaneous bombardment, the first and second
//! player's movement (or rallying), then a simultaneous Combat Phase of skirmish fire and combat between
//! adjacent units. The side that took more hits in a combat tests morale: steady, recoiled, defeated or routed.
//!
//! Modules:
//! - [`board`]: the grid (squares, or hexes through `hexx`), terrain, adjacency, distance, facing, front arc,
//!   front/flank/rear, line of sight, free-table measurements;
//! - [`tables`]: the rules' tables as typed data; [`options`]: every interpretation switch;
//! - [`state`] and [`setup`]: stands, units, commanders, the [`Battle`], scenarios and army generation;
//! - [`sequence`], [`command`], [`movement`], [`fire`], [`combat`], [`morale`], [`casualties`], [`victory`]:
//!   the rules, each random procedure as an [`acw_core::Resolve`] type with exact odds;
//! - [`pool`]: the d6 hit pool all fire and combat share;
//! - [`game`]: the rules as a whole game behind acw-core's `Ruleset` ([`game::Grid`]), played on squares or
//!   hexes to an outcome; [`bots`]: two baseline commanders, an attacker and a holder.
//!
//! ```
//! use acw_core::dice::ScriptedDice;
//! use acw_core::{Resolve, Side};
//! use acw_grid::board::{Area, Board, Facing, GridKind};
//! use acw_grid::combat::{CombatOdds, CombatSide};
//! use acw_grid::fire::BombardOrder;
//! use acw_grid::pool::HitPool;
//! use acw_grid::setup::{UnitSpec, stands};
//! use acw_grid::state::{BrigadeId, CommanderId, DivisionId, Phase, Rank, Stand};
//! use acw_grid::tables::StandType;
//! use acw_grid::{Battle, Options};
//!
//! // A square board with one division a side.
//! let mut battle = Battle::new(Board::rectangle(GridKind::Square, 8, 8)?, Options::default());
//! let (blue, grey) = (DivisionId(1), DivisionId(2));
//! battle.add_commander(CommanderId(1), Side::Union, Rank::Division(blue), None, Area::new(0, 0))?;
//! battle.add_commander(CommanderId(2), Side::Confederate, Rank::Division(grey), None, Area::new(7, 7))?;
//! let gun = Stand::new(StandType::Artillery, blue, BrigadeId(1));
//! let battery = battle.deploy(UnitSpec::new(Side::Union, Area::new(3, 1), vec![gun]))?;
//! let rebels = Stand::new(StandType::Infantry, grey, BrigadeId(2));
//! let south = Facing::new(GridKind::Square, 2)?;
//! let brigade = battle.deploy(UnitSpec::new(Side::Confederate, Area::new(3, 3), stands(3, &rebels)).facing(south))?;
//!
//! // Initiative: 6 against 1, the Union chooses to move first; then the battery fires at range 2 (2 dice).
//! let mut dice = ScriptedDice::faces([6, 1, 5, 6]);
//! battle.roll_initiative(&mut dice)?;
//! battle.choose_first_player(Side::Union, Side::Union)?;
//! assert_eq!(battle.phase(), Phase::Bombardment);
//! battle.bombardment_phase(&[BombardOrder { battery, target: brigade }], &mut dice)?;
//! assert_eq!(battle.unit(brigade)?.stand_count(), 2); // 2 hits remove a stand
//!
//! // Exact odds: two fresh 3-stand units fight (6 dice each); P(side A must test) = 201040/531441.
//! let six = CombatSide { pool: HitPool::uniform(6, 0)?, capacity: 6, ..CombatSide::default() };
//! let odds = CombatOdds::new(six, six).odds();
//! let a_tests = odds.prob(|o| o.tester == Some(acw_grid::combat::Tester::A));
//! assert!((a_tests - 201040.0 / 531441.0).abs() < 1e-12);
//! # Ok::<(), acw_grid::RuleViolation>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod board;
pub mod bots;
pub mod casualties;
pub mod catalogue;
pub mod combat;
pub mod command;
pub mod error;
pub mod fire;
pub mod game;
pub mod luck;
pub mod morale;
pub mod movement;
pub mod options;
pub mod pool;
mod reports;
pub mod sequence;
pub mod setup;
pub mod state;
pub mod tables;
pub mod victory;

/// The common imports in one line: `use acw_grid::prelude::*;` brings the battle and its board, units and
/// stands, the orders, the whole-game types and the odds procedures a researcher asks about first.
pub mod prelude {
    pub use crate::board::{Area, Board, Facing, FlankSide, GridKind, Terrain};
    pub use crate::bots::{Attacker, Holder};
    pub use crate::combat::{CombatOdds, CombatPlan, CombatSide};
    pub use crate::error::{GridError, RuleViolation};
    pub use crate::fire::{BombardOrder, Bombardment, SkirmishOrder};
    pub use crate::game::{Grid, Order, State};
    pub use crate::morale::{MoraleTest, RetreatCause, UnitMorale};
    pub use crate::movement::MoveOrder;
    pub use crate::options::Options;
    pub use crate::pool::HitPool;
    pub use crate::setup::{Scenario, UnitSpec, stands};
    pub use crate::state::{
        Battle, BrigadeId, CommanderId, DivisionId, Leader, Phase, Rank, Stand, Unit, UnitId,
    };
    pub use crate::tables::{MoraleResult, StandType};
}

pub use board::{Area, Board, Facing, FlankSide, GridKind, Terrain};
pub use error::{GridError, RuleViolation};
pub use options::Options;
pub use pool::HitPool;
pub use state::{Battle, Phase, Stand, Unit, UnitId};
