//! The turn: phases, who moves first, whole-move actions (D8-SEQ-*).

use crate::dice_util::roll_off;
use acw_core::{BySide, Dice, Die, Dist, Resolve, Side};
use std::fmt;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// D8-SEQ-01: the phases of a player turn, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum Phase {
    /// Formation-fail tests, the command snapshot, flank arrivals.
    Start,
    /// Movement, charges, formation changes and the other whole-move actions.
    Movement,
    /// The active side fires.
    Firing,
    /// The active side's figures in contact roll.
    Melee,
    /// Units that lost figures this turn test.
    Morale,
    /// The game is over.
    Over,
}

impl Phase {
    /// D8-SEQ-01: the phase after this one (Morale is followed by the next player's Start).
    #[must_use]
    pub const fn next(self) -> Phase {
        match self {
            Phase::Start => Phase::Movement,
            Phase::Movement => Phase::Firing,
            Phase::Firing => Phase::Melee,
            Phase::Melee => Phase::Morale,
            Phase::Morale => Phase::Start,
            Phase::Over => Phase::Over,
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::Start => "the start of the turn",
            Phase::Movement => "the Movement phase",
            Phase::Firing => "the Firing phase",
            Phase::Melee => "the Melee phase",
            Phase::Morale => "the Morale phase",
            Phase::Over => "the end of the game",
        })
    }
}

/// D8-SEQ-02: who moves first: more cavalry figures; tied, more artillery (artillerymen, or batteries under the
/// option); tied again, a D10 roll-off, ties re-rolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct FirstMove {
    /// Cavalry figures each side has.
    pub cavalry: BySide<u32>,
    /// Artillery each side has (artillerymen or batteries).
    pub artillery: BySide<u32>,
}

impl FirstMove {
    fn decided(&self) -> Option<Side> {
        let pick = |a: &BySide<u32>| match a.union.cmp(&a.confederate) {
            std::cmp::Ordering::Greater => Some(Side::Union),
            std::cmp::Ordering::Less => Some(Side::Confederate),
            std::cmp::Ordering::Equal => None,
        };
        pick(&self.cavalry).or_else(|| pick(&self.artillery))
    }
}

impl Resolve for FirstMove {
    type Outcome = Side;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> Side {
        self.decided().unwrap_or_else(|| {
            if roll_off(dice, Die::D10) {
                Side::Union
            } else {
                Side::Confederate
            }
        })
    }

    fn odds(&self) -> Dist<Side> {
        match self.decided() {
            Some(s) => Dist::certain(s),
            None => Dist::uniform([Side::Union, Side::Confederate])
                .unwrap_or_else(|_| Dist::certain(Side::Union)),
        }
    }
}

/// D8-SEQ-04: the actions that take a unit's whole move, after which it may not fire that turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum WholeMove {
    /// Changing formation.
    ChangeFormation,
    /// Mounting or dismounting.
    MountOrDismount,
    /// Limbering or unlimbering.
    LimberOrUnlimber,
    /// Realigning a gun.
    Realign,
    /// Moving a limber horse to another limber.
    TransferHorse,
    /// Getting into or out of a boat, loading or unloading it.
    Boat,
}

impl fmt::Display for WholeMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            WholeMove::ChangeFormation => "changing formation",
            WholeMove::MountOrDismount => "mounting or dismounting",
            WholeMove::LimberOrUnlimber => "limbering or unlimbering",
            WholeMove::Realign => "realigning the gun",
            WholeMove::TransferHorse => "moving a limber horse",
            WholeMove::Boat => "getting into or out of a boat",
        })
    }
}
