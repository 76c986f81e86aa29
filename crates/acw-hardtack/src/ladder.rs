//! The Stargrunt II die-type ladder: D4 < D6 < D8 < D10 < D12, closed and open shifts, and the roll
//! conventions every test shares.
//!
//! This module depends on nothing else in the crate (only on [`acw_core::Die`]), so it can move to acw-core
//! as it stands once a second ruleset needs it.

use acw_core::Die;
use std::fmt;

/// A rung of the die-type ladder (HT-GEN-01): D4 (index 1) to D12 (index 5). There is no D20.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum DieType {
    /// A four-sided die (index 1).
    D4,
    /// A six-sided die (index 2).
    D6,
    /// An eight-sided die (index 3).
    D8,
    /// A ten-sided die (index 4).
    D10,
    /// A twelve-sided die (index 5).
    D12,
}

impl DieType {
    /// Every rung, lowest first.
    pub const ALL: [DieType; 5] = [
        DieType::D4,
        DieType::D6,
        DieType::D8,
        DieType::D10,
        DieType::D12,
    ];

    /// The rung's index on the ladder, D4 = 1 … D12 = 5 (HT-GEN-01).
    #[must_use]
    pub const fn index(self) -> i16 {
        match self {
            DieType::D4 => 1,
            DieType::D6 => 2,
            DieType::D8 => 3,
            DieType::D10 => 4,
            DieType::D12 => 5,
        }
    }

    /// The rung of an index 1–5; anything else is off the ladder.
    #[must_use]
    pub const fn from_index(index: i16) -> Option<DieType> {
        match index {
            1 => Some(DieType::D4),
            2 => Some(DieType::D6),
            3 => Some(DieType::D8),
            4 => Some(DieType::D10),
            5 => Some(DieType::D12),
            _ => None,
        }
    }

    /// The number of faces (4 to 12).
    #[must_use]
    pub const fn faces(self) -> u16 {
        (self.index() as u16) * 2 + 2
    }

    /// The die to roll.
    #[must_use]
    pub const fn die(self) -> Die {
        match self {
            DieType::D4 => Die::D4,
            DieType::D6 => Die::D6,
            DieType::D8 => Die::D8,
            DieType::D10 => Die::D10,
            DieType::D12 => Die::D12,
        }
    }

    /// A **closed** shift (HT-GEN-02): `by` types up (positive) or down (negative); whatever goes past D4 or
    /// D12 is lost.
    pub const fn shift_closed(self, by: i16) -> DieType {
        let i = self.index() + by;
        let i = if i < 1 {
            1
        } else if i > 5 {
            5
        } else {
            i
        };
        match DieType::from_index(i) {
            Some(d) => d,
            None => DieType::D4,
        }
    }

    /// An **open** shift (HT-GEN-02): the die stops at the end of the ladder and the part of the shift that
    /// went past it is returned as `spill`, to be applied the other way to the opponent's die. A spill of +2
    /// (a D8 shifted up four) means the opponent's die goes **down** two; a spill of −1 (a D4 shifted down
    /// one) means the opponent's die goes **up** one.
    pub const fn shift_open(self, by: i16) -> OpenShift {
        let i = self.index() + by;
        if i > 5 {
            OpenShift {
                die: DieType::D12,
                spill: i - 5,
            }
        } else if i < 1 {
            OpenShift {
                die: DieType::D4,
                spill: i - 1,
            }
        } else {
            OpenShift {
                die: self.shift_closed(by),
                spill: 0,
            }
        }
    }
}

impl fmt::Display for DieType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "D{}", self.faces())
    }
}

/// The result of an open shift: the die on the ladder, and what went past an end of it (HT-GEN-02).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpenShift {
    /// The die, stopped at D4 or D12.
    pub die: DieType,
    /// Types beyond D12 (positive) or below D4 (negative); 0 when the shift stayed on the ladder.
    pub spill: i16,
}

impl OpenShift {
    /// Applies the spill to an opponent's die: its die moves the other way, **closed** (HT-GEN-02: a shift
    /// carried onto the opponent is itself closed).
    pub const fn onto(self, opponent: DieType) -> DieType {
        opponent.shift_closed(-self.spill)
    }
}

/// A range die before the overflow check: an index that may go beyond D12, where the fire can have no effect
/// (HT-GEN-02: range dice are not clamped).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RangeIndex(pub i16);

impl RangeIndex {
    /// The die, if the index is on the ladder; above D12 there is none. Below D4 the die is D4.
    #[must_use]
    pub const fn die(self) -> Option<DieType> {
        if self.0 > 5 {
            None
        } else if self.0 < 1 {
            Some(DieType::D4)
        } else {
            DieType::from_index(self.0)
        }
    }
}

/// Roll against a number (HT-GEN-03): the roll must **exceed** it; a tie fails.
#[must_use]
pub const fn beats(roll: u16, number: i16) -> bool {
    (roll as i16) > number
}

/// The result of a multiple opposed roll (HT-GEN-03): the actor rolls two or more dice against one.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Success {
    /// No die beat the opposing roll.
    Fail,
    /// Exactly one die beat it.
    Minor,
    /// Two or more dice beat it.
    Major,
}

impl Success {
    /// Classifies by the number of the actor's dice that beat the opposing roll (HT-GEN-03).
    pub const fn from_count(exceeding: u32) -> Success {
        match exceeding {
            0 => Success::Fail,
            1 => Success::Minor,
            _ => Success::Major,
        }
    }
}

impl fmt::Display for Success {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Success::Fail => "no effect",
            Success::Minor => "a minor result",
            Success::Major => "a major result",
        })
    }
}

/// A clock-face direction from a D12 (HT-GEN-03): 12 is the reference direction, 3 a quarter turn to the
/// right. Returns the angle clockwise from the reference, in degrees.
#[must_use]
pub fn clock_degrees(face: u16) -> f64 {
    f64::from(face % 12) * 30.0
}

#[cfg(test)]
mod tests {
    use super::*;

    // HT-GEN-01: the ladder's indices and faces; HT-GEN-02: closed and open shifts.
    #[test]
    fn ladder_and_shifts() {
        assert_eq!(DieType::D4.index(), 1);
        assert_eq!(DieType::D12.faces(), 12);
        assert_eq!(DieType::D8.shift_closed(3), DieType::D12);
        assert_eq!(DieType::D6.shift_closed(-4), DieType::D4);
        let up = DieType::D10.shift_open(2);
        assert_eq!((up.die, up.spill), (DieType::D12, 1));
        assert_eq!(up.onto(DieType::D8), DieType::D6);
        let down = DieType::D4.shift_open(-1);
        assert_eq!((down.die, down.spill), (DieType::D4, -1));
        assert_eq!(down.onto(DieType::D8), DieType::D10);
        assert_eq!(RangeIndex(6).die(), None);
    }

    // HT-GEN-03: a tie fails; multiple opposed results.
    #[test]
    fn roll_conventions() {
        assert!(!beats(4, 4));
        assert!(beats(5, 4));
        assert_eq!(Success::from_count(0), Success::Fail);
        assert_eq!(Success::from_count(1), Success::Minor);
        assert_eq!(Success::from_count(3), Success::Major);
        assert!((clock_degrees(12) - 0.0).abs() < 1e-12);
        assert!((clock_degrees(3) - 90.0).abs() < 1e-12);
    }
}
