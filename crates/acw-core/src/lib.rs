//! # acw-core
//!
//! The foundation every acw ruleset builds on:
//!
//! - [`dice`]: dice of any size, pools with keep/drop, dice notation, and [`Dice`] — where faces come from
//!   (a seeded generator, a script, a person at the table);
//! - [`cards`]: a standard deck with draws through the same sources (a draw fills its gap with the last card of
//!   the pile; the cards a seed draws changed once when draws became swaps, the dice faces never have);
//! - [`odds`]: [`Dist`], exact finite distributions;
//! - [`Resolve`]: the shape of every random procedure — a fast `roll` and exact `odds`;
//! - [`GameRng`]: the value-stable seeded generator a game carries;
//! - [`catalogue`]: a ruleset's procedures by name with typed parameters, and options set by name;
//! - [`luck`]: how far each side's dice ran above or below expectation over a game log;
//! - [`compare`]: what an option is worth, from games played on the same seeds under two sets of options;
//! - [`measure`]: inches, centimetres, grid areas, points, headings, arcs;
//! - `table` (feature `table`): the table, terrain shapes, unit footprints, line of sight, obstacles and cover
//!   (on `geo`);
//! - [`vocab`]: sides, arms, formations, strength;
//! - [`game`]: the [`Ruleset`] and [`Commander`] traits, the [`Game`] driver (who owes what; dice thrown at the
//!   table), [`play`] one game, and `simulate` many in parallel (feature `parallel`).
//!
//! Features: `serde`, `table` (geometry on `geo`), `parallel` (`simulate` on `rayon`), `testing`. None is on by
//! default, so a dice-only user builds neither geometry nor threads.
//!
//! ```
//! use acw_core::dice::DiceExpr;
//! use acw_core::odds::Dist;
//! use acw_core::GameRng;
//!
//! let expr: DiceExpr = "4d6kh3".parse()?;
//! let mut rng = GameRng::seed(1863);
//! let total = expr.total(&mut rng);
//! assert!((3..=18).contains(&total));
//! let odds = Dist::pool(expr.pool);
//! println!("{expr} rolled {total}; P(18) = {:.5}", odds.p(&18));
//! assert!((odds.p(&18) - 21.0 / 1296.0).abs() < 1e-12);
//! # Ok::<(), acw_core::dice::DiceError>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cards;
pub mod catalogue;
pub mod compare;
pub mod dice;
pub mod game;
pub mod luck;
pub mod measure;
pub mod odds;
mod resolve;
mod rng;
#[cfg(feature = "table")]
pub mod table;
#[cfg(feature = "testing")]
pub mod testing;
pub mod vocab;

pub use dice::{Dice, Die};
pub use game::{
    Commander, Decision, Dicing, EndReason, Game, GameResult, Outcome, Owed, Ruleset, play,
};
#[cfg(feature = "parallel")]
pub use game::{simulate, simulate_with};
pub use odds::Dist;
pub use resolve::Resolve;
pub use rng::GameRng;
pub use vocab::{Arm, BySide, Side, Strength};
