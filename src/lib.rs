//! # acw
//!
//! American Civil War miniatures rulesets for software: every die roll and card draw resolved, the exact odds of
//! every outcome, the rules enforced, and whole games played reproducibly.
//!
//! This facade re-exports [`acw_core`] (dice, cards, exact odds, the [`Resolve`] trait) and each ruleset behind
//! a feature of its name.
//!
//! ```
//! use acw::{Dist, Die, GameRng};
//! let mut rng = GameRng::seed(1);
//! let face = Die::D6.roll(&mut rng);
//! assert!((1..=6).contains(&face));
//! assert!((Dist::die(Die::D6).prob(|&f| f >= 5) - 1.0 / 3.0).abs() < 1e-12);
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub use acw_core::*;

/// David E. North's rules: brigade orders, accomplishment tosses, stand losses (feature `north`).
#[cfg(feature = "north")]
pub use acw_north as north;

/// The grid/area brigade rules: squares or hexes, D6 hit dice, two hits a stand (feature `grid`).
#[cfg(feature = "grid")]
pub use acw_grid as grid;

/// Hardtack on the Stargrunt II core: die-type ladder, fire, confidence, canister and round shot (feature `hardtack`).
#[cfg(feature = "hardtack")]
#[doc(inline)]
pub use acw_hardtack as hardtack;
