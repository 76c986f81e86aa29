//! Movement: the combat move (a rolled dash toward a declared destination).

use crate::error::SetupError;
use crate::ladder::DieType;
use acw_core::{Dice, Dist, Resolve};
use std::fmt;

/// A combat move (HT-SG2-21, HT-MEL-06, HT-MOV-11): the mobility die doubled; if that reaches the declared
/// destination the unit stops there, otherwise it moves the full distance rolled.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "CombatMoveInput"))]
pub struct CombatMove {
    die: DieType,
    distance: f64,
}

/// The serde form of [`CombatMove`], checked on load.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct CombatMoveInput {
    die: DieType,
    distance: f64,
}

#[cfg(feature = "serde")]
impl TryFrom<CombatMoveInput> for CombatMove {
    type Error = SetupError;
    fn try_from(i: CombatMoveInput) -> Result<Self, Self::Error> {
        CombatMove::new(i.die, i.distance)
    }
}

impl CombatMove {
    /// A combat move with a mobility die toward a destination `distance` inches away (finite, at least 0).
    pub fn new(die: DieType, distance: f64) -> Result<CombatMove, SetupError> {
        if !distance.is_finite() || distance < 0.0 {
            return Err(SetupError::BadLength {
                what: "combat-move distance",
                value: distance,
            });
        }
        Ok(CombatMove { die, distance })
    }

    /// The mobility die.
    pub const fn die(&self) -> DieType {
        self.die
    }

    /// The distance to the destination, in inches.
    #[must_use]
    pub const fn distance(&self) -> f64 {
        self.distance
    }

    /// The result of a roll of the mobility die.
    pub fn judge(&self, roll: u16) -> MoveResult {
        let dash = 2 * roll;
        if f64::from(dash) >= self.distance {
            MoveResult::Reached
        } else {
            MoveResult::Short(dash)
        }
    }
}

/// The result of a combat move.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum MoveResult {
    /// The destination was reached.
    Reached,
    /// The unit moved this many inches and stopped short.
    Short(u16),
}

impl fmt::Display for MoveResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveResult::Reached => f.write_str("reached its destination"),
            MoveResult::Short(d) => write!(f, "moved {d}\" and stopped short"),
        }
    }
}

impl Resolve for CombatMove {
    type Outcome = MoveResult;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> MoveResult {
        self.judge(dice.face(self.die.die()))
    }
    fn odds(&self) -> Dist<MoveResult> {
        Dist::die(self.die.die()).map(|&f| self.judge(f as u16))
    }
}
