//! [`Resolve`]: the one shape of every random procedure of every ruleset.

use crate::dice::Dice;
use crate::odds::Dist;

/// A random procedure of a ruleset: an input struct (a volley: firers, quality, range …) that can be resolved
/// fast from a [`Dice`] source, or turned into the exact distribution of its outcomes.
///
/// The two must agree: `testing::check_roll_matches_odds` (feature `testing`) checks a procedure's
/// `roll` against its `odds` statistically, with a fixed seed.
///
/// ```
/// use acw_core::dice::{Dice, Die};
/// use acw_core::odds::Dist;
/// use acw_core::Resolve;
///
/// /// Hit on 5+ with one d6, plus a modifier.
/// struct Shot { modifier: i8 }
///
/// impl Resolve for Shot {
///     type Outcome = bool;
///     fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> bool {
///         dice.face(Die::D6) as i16 + i16::from(self.modifier) >= 5
///     }
///     fn odds(&self) -> Dist<bool> {
///         Dist::die(Die::D6).map(|&f| f as i16 + i16::from(self.modifier) >= 5)
///     }
/// }
///
/// assert!((Shot { modifier: 1 }.odds().p(&true) - 0.5).abs() < 1e-12);
/// ```
pub trait Resolve {
    /// What the procedure produces.
    type Outcome;

    /// Resolves the procedure once with faces from `dice`. The fast path: allocates nothing.
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> Self::Outcome;

    /// The exact distribution of the outcome.
    fn odds(&self) -> Dist<Self::Outcome>;
}
