//! Vocabulary every ruleset shares: sides, arms of service, formations, mounted and limbered states, strength.
//!
//! Quality scales differ between rulesets (Green/Average/Veteran/Crack, Elite/Standard/Poor …), so each ruleset
//! keeps its own.

use std::fmt;
use strum::{EnumIter, IntoEnumIterator};
use thiserror::Error;

/// One of the two sides.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    EnumIter,
    strum::Display,
    strum::EnumString,
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Side {
    /// The United States (USA, "the North").
    Union,
    /// The Confederate States (CSA, "the South").
    Confederate,
}

impl Side {
    /// The other side.
    #[must_use]
    pub const fn enemy(self) -> Side {
        match self {
            Side::Union => Side::Confederate,
            Side::Confederate => Side::Union,
        }
    }

    /// Both sides, Union first.
    pub fn both() -> impl Iterator<Item = Side> {
        Side::iter()
    }
}

/// A value for each side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BySide<T> {
    /// The Union's value.
    pub union: T,
    /// The Confederates' value.
    pub confederate: T,
}

impl<T> BySide<T> {
    /// A value per side.
    pub const fn new(union: T, confederate: T) -> Self {
        BySide { union, confederate }
    }

    /// The value of `side`.
    pub fn get(&self, side: Side) -> &T {
        match side {
            Side::Union => &self.union,
            Side::Confederate => &self.confederate,
        }
    }

    /// The value of `side`, mutably.
    pub fn get_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::Union => &mut self.union,
            Side::Confederate => &mut self.confederate,
        }
    }

    /// Applies `f` to both values.
    pub fn map<U>(self, mut f: impl FnMut(Side, T) -> U) -> BySide<U> {
        BySide {
            union: f(Side::Union, self.union),
            confederate: f(Side::Confederate, self.confederate),
        }
    }
}

impl<T> std::ops::Index<Side> for BySide<T> {
    type Output = T;
    fn index(&self, side: Side) -> &T {
        self.get(side)
    }
}

impl<T> std::ops::IndexMut<Side> for BySide<T> {
    fn index_mut(&mut self, side: Side) -> &mut T {
        self.get_mut(side)
    }
}

/// Arm of service.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, EnumIter, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Arm {
    /// Foot soldiers.
    Infantry,
    /// Horse soldiers, mounted or dismounted.
    Cavalry,
    /// Guns and their crews.
    Artillery,
}

/// A formation of foot or horse, as the rulesets name them (each ruleset allows its own subset).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, EnumIter, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Formation {
    /// Line of battle: two ranks facing the enemy.
    Line,
    /// Column: narrow and deep, for movement or assault.
    Column,
    /// March column on a road.
    MarchColumn,
    /// Open, extended order.
    Skirmish,
    /// A square against cavalry.
    Square,
}

/// Whether cavalry is on horseback.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, EnumIter, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Mount {
    /// On horseback.
    Mounted,
    /// Fighting on foot.
    Dismounted,
}

/// Whether guns are hooked to their limbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, EnumIter, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Limber {
    /// Hooked up, ready to move, cannot fire.
    Limbered,
    /// Deployed to fire.
    Unlimbered,
}

/// A strength that is not possible.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("strength {current} exceeds its original {original}")]
pub struct BadStrength {
    /// The current strength given.
    pub current: u32,
    /// The original strength given.
    pub original: u32,
}

/// Current and original strength, in whatever a ruleset counts (figures, stands, men). Never negative, never
/// above the original.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "StrengthRepr", into = "StrengthRepr")
)]
pub struct Strength {
    current: u32,
    original: u32,
}

#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy)]
struct StrengthRepr {
    current: u32,
    original: u32,
}

impl TryFrom<StrengthRepr> for Strength {
    type Error = BadStrength;
    fn try_from(r: StrengthRepr) -> Result<Self, BadStrength> {
        Strength::new(r.current, r.original)
    }
}

impl From<Strength> for StrengthRepr {
    fn from(s: Strength) -> StrengthRepr {
        StrengthRepr {
            current: s.current,
            original: s.original,
        }
    }
}

impl Strength {
    /// At full strength.
    #[must_use]
    pub const fn full(original: u32) -> Strength {
        Strength {
            current: original,
            original,
        }
    }

    /// `current` of `original`; more than the original is an error.
    pub const fn new(current: u32, original: u32) -> Result<Strength, BadStrength> {
        if current > original {
            Err(BadStrength { current, original })
        } else {
            Ok(Strength { current, original })
        }
    }

    /// Current strength.
    #[must_use]
    pub const fn current(self) -> u32 {
        self.current
    }

    /// Original strength.
    #[must_use]
    pub const fn original(self) -> u32 {
        self.original
    }

    /// Losses so far.
    #[must_use]
    pub const fn lost(self) -> u32 {
        self.original - self.current
    }

    /// Whether nothing is left.
    #[must_use]
    pub const fn is_gone(self) -> bool {
        self.current == 0
    }

    /// Takes up to `n` losses (never below zero); returns how many were actually taken.
    pub fn lose(&mut self, n: u32) -> u32 {
        let taken = n.min(self.current);
        self.current -= taken;
        taken
    }

    /// Restores up to `n` (never above the original); returns how many were restored.
    pub fn restore(&mut self, n: u32) -> u32 {
        let back = n.min(self.original - self.current);
        self.current += back;
        back
    }

    /// Current as a fraction of original (0 for an original of 0).
    #[must_use]
    pub fn fraction(self) -> f64 {
        if self.original == 0 {
            0.0
        } else {
            f64::from(self.current) / f64::from(self.original)
        }
    }
}

impl fmt::Display for Strength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.current, self.original)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_and_by_side() {
        assert_eq!(Side::Union.enemy(), Side::Confederate);
        let mut b = BySide::new(1, 2);
        b[Side::Confederate] += 1;
        assert_eq!(b.confederate, 3);
        assert_eq!("Union".parse::<Side>(), Ok(Side::Union));
    }

    #[test]
    fn strength_never_negative() {
        let mut s = Strength::full(4);
        assert_eq!(s.lose(3), 3);
        assert_eq!(s.lose(3), 1);
        assert_eq!(s.current(), 0);
        assert!(s.is_gone());
        assert_eq!(s.restore(9), 4);
        assert!(Strength::new(5, 4).is_err());
    }
}
