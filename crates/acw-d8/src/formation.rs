//! Formation fails: what causes one, when a unit may test, the D8 test by class, and what it does (D8-FRM-*).

use crate::tables::Class;
use acw_core::{Dice, Die, Dist, Resolve};
use std::fmt;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// D8-FRM-02: why a unit has a formation fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum FfCause {
    /// It changed formation (D8-MOV-05).
    ChangedFormation,
    /// It crossed soft or hard cover (D8-MOV-07).
    CrossedCover,
    /// Skirmishers closer than 1 cm or out of sight of each other (D8-MOV-03).
    SkirmishSpacing,
    /// It took part in a melee (D8-MEL-10).
    Melee,
    /// A line or column not in base-to-base contact (D8-MOV-03).
    OutOfContact,
    /// It mounted, dismounted, limbered or unlimbered (D8-MOV-10, D8-MOV-11).
    MountOrLimber,
    /// It moved into or out of a building, or is split between inside and outside (D8-MOV-23).
    Building,
    /// Skirmishers and a formed unit passed through each other, under the option (D8-MOV-08).
    SkirmishInterpenetration,
    /// A formed unit passed through another (D8-MOV-09).
    Interpenetration,
    /// It got into or out of a boat (D8-MOV-26).
    Boat,
}

impl FfCause {
    /// Whether the cause lasts until the caller reports it ended (spacing, contact, a split building party):
    /// the rest end with the action that caused them.
    #[must_use]
    pub const fn lasting(self) -> bool {
        matches!(
            self,
            FfCause::SkirmishSpacing | FfCause::OutOfContact | FfCause::Building
        )
    }
}

impl fmt::Display for FfCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FfCause::ChangedFormation => "changing formation",
            FfCause::CrossedCover => "crossing cover",
            FfCause::SkirmishSpacing => "skirmishers too close or out of sight of each other",
            FfCause::Melee => "fighting a melee",
            FfCause::OutOfContact => "figures out of base contact",
            FfCause::MountOrLimber => "mounting, dismounting, limbering or unlimbering",
            FfCause::Building => "entering, leaving or being split by a building",
            FfCause::SkirmishInterpenetration => "skirmishers passing through",
            FfCause::Interpenetration => "passing through another formed unit",
            FfCause::Boat => "getting into or out of a boat",
        })
    }
}

/// D8-FRM-01: a unit's formation fail: why, and whether the cause is still going on. A second cause while one is
/// held adds nothing (it only keeps a lasting cause's flag).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct FormationFail {
    /// What caused it.
    pub cause: FfCause,
    /// Whether the cause is still going on (then no test may be taken).
    pub cause_active: bool,
}

impl FormationFail {
    /// A new formation fail from `cause`; lasting causes start active.
    #[must_use]
    pub const fn new(cause: FfCause) -> FormationFail {
        FormationFail {
            cause,
            cause_active: cause.lasting(),
        }
    }

    /// D8-FRM-03: whether the unit must test at the start of its turn: only once the cause has ended.
    #[must_use]
    pub const fn may_test(&self) -> bool {
        !self.cause_active
    }
}

/// D8-FRM-04 (and D8-MOV-26's option): the formation-fail test: a D8 needing Vet 3+, Exp 4+, Raw 5+ (P = 6/8,
/// 5/8, 4/8); under the boat option an immediate D6 on the same scores (4/6, 3/6, 2/6). The outcome: passed.
///
/// D8-FRM-06, the rules' worked example: a Veteran regiment that crossed a wall fails on a 1, still moves its full
/// 15 cm, and passes on a 4 the turn after ([`crate::Battle::start_turn`] takes the test).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormationTest {
    /// The unit's class.
    pub class: Class,
    /// Roll a D6 instead (the boat option).
    pub d6: bool,
}

impl FormationTest {
    fn die(&self) -> Die {
        if self.d6 { Die::D6 } else { Die::D8 }
    }
}

impl Resolve for FormationTest {
    type Outcome = bool;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> bool {
        self.die().roll(dice) >= u16::from(self.class.base_score())
    }

    fn odds(&self) -> Dist<bool> {
        let need = u32::from(self.class.base_score());
        Dist::die(self.die()).map(|&f| f >= need)
    }
}
