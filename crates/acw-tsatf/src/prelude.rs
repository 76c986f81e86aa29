//! The common imports for playing and studying TSATF: `use acw_tsatf::prelude::*;` brings the engine, the
//! game layer, the bots, the ids and the procedures a researcher asks odds of.
//!
//! ```
//! use acw_core::Resolve;
//! use acw_tsatf::prelude::*;
//!
//! // A whole melee, one against one at equal modifiers: each side wins half the time.
//! let one = MeleeSide { cadre: 0, others: 1, modifier: 0, cadre_first: true };
//! let melee = Melee::new(one, one, &Options::default());
//! assert!((melee.odds().prob(|o| o.winner == Party::Attackers) - 0.5).abs() < 1e-12);
//! // The default game, set up from its embedded scenario.
//! let state = acw_core::game::Ruleset::setup(&Tsatf, &Scenario::default(), 7)?;
//! assert_eq!(state.battle().unit(UnitId(0))?.name(), "20th Maine, Company A");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub use crate::Battle;
pub use crate::battle::{ChargeId, ChargeOrder, FireOrder, MeleeOrder, MoveOrder};
pub use crate::bots::{Attacker, Holder};
pub use crate::error::{RuleViolation, SetupError};
pub use crate::field::Field;
pub use crate::fire::{MassFire, TargetArea};
pub use crate::game::{
    Event, GameError, Order, Placement, Question, Scenario, ScenarioError, SideView, State, Tsatf,
    UnitView, Victory,
};
pub use crate::melee::{CloseTest, Combat, Melee, MeleeOutcome, MeleeSide, Party};
pub use crate::morale::MoraleTest;
pub use crate::options::Options;
pub use crate::setup::UnitSpec;
pub use crate::state::{Formation, MoraleState, Phase, Unit, UnitId};
pub use crate::tables::{FireRow, Quality, TargetClass};
