//! # acw
//!
//! American Civil War miniatures rulesets for software: every die roll and card draw resolved, the exact odds of
//! every outcome, the rules enforced, and whole games played reproducibly.
//!
//! This facade re-exports [`acw_core`] (dice, cards, exact odds, the [`Resolve`] trait, the game driver) and each
//! ruleset behind a feature of its name; `runtime` (feature `runtime`) plays any of them chosen by name at run
//! time, as the `acw` command does.
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
#[doc(inline)]
pub use acw_north as north;

/// The grid/area brigade rules: squares or hexes, D6 hit dice, two hits a stand (feature `grid`).
#[cfg(feature = "grid")]
#[doc(inline)]
pub use acw_grid as grid;

/// The regimental D8 rules: D8 fire, D6 saves, D10 melee, a morale chart, generated maps and armies (feature `d8`).
#[cfg(feature = "d8")]
#[doc(inline)]
pub use acw_d8 as d8;

/// Strike for Your God and Country: card-driven skirmish rules after The Sword and the Flame (feature `tsatf`).
#[cfg(feature = "tsatf")]
#[doc(inline)]
pub use acw_tsatf as tsatf;

/// Hardtack on the Stargrunt II core: die-type ladder, fire, confidence, canister and round shot (feature `hardtack`).
#[cfg(feature = "hardtack")]
#[doc(inline)]
pub use acw_hardtack as hardtack;

// Rulesets chosen at run time by name: play, narrate, simulate and load scenarios of any of them.
#[cfg(feature = "runtime")]
pub mod runtime;

#[cfg(feature = "runtime")]
pub use runtime::{RulesetError, RulesetId};

/// The README's examples, compiled and run as doc tests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeExamples;
