//! The turn sequence: two player-phases per turn, each an activation step and three combat steps
//! (NORTH-SEQ-01 to NORTH-SEQ-04).

use crate::combat::Category;
use acw_core::Side;

/// A step of a player-phase, in the order they run (NORTH-SEQ-02, NORTH-SEQ-03, NORTH-SEQ-04).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::EnumIter, strum::Display,
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Step {
    /// NORTH-SEQ-03 (a): generals move, the AC and the MGs change orders.
    #[strum(to_string = "command")]
    Command,
    /// NORTH-SEQ-03 (b): each unit makes its one action: a move, a formation change, a charge, a withdrawal
    /// from melee, or nothing.
    #[strum(to_string = "units")]
    Units,
    /// NORTH-SEQ-04 (1): artillery fire.
    #[strum(to_string = "artillery")]
    Artillery,
    /// NORTH-SEQ-04 (2): musketry.
    #[strum(to_string = "musketry")]
    Musketry,
    /// NORTH-SEQ-04 (3): melee.
    #[strum(to_string = "melee")]
    Melee,
}

impl Step {
    /// NORTH-SEQ-02: the step after this one in the same phase (`None` after melee).
    #[must_use]
    pub const fn next(self) -> Option<Step> {
        match self {
            Step::Command => Some(Step::Units),
            Step::Units => Some(Step::Artillery),
            Step::Artillery => Some(Step::Musketry),
            Step::Musketry => Some(Step::Melee),
            Step::Melee => None,
        }
    }

    /// NORTH-SEQ-04: the combat step of a category.
    #[must_use]
    pub const fn of_category(category: Category) -> Step {
        match category {
            Category::Artillery => Step::Artillery,
            Category::Musketry => Step::Musketry,
            Category::Melee => Step::Melee,
        }
    }
}

/// Where the game stands: turn, phasing side, step (NORTH-SEQ-01).
///
/// ```
/// use acw_core::Side;
/// use acw_north::sequence::{Clock, Step};
/// let mut c = Clock::new(Side::Confederate);
/// assert_eq!((c.turn(), c.phasing(), c.step()), (1, Side::Confederate, Step::Command));
/// c.next_phase();
/// assert_eq!((c.turn(), c.phasing()), (1, Side::Union));
/// c.next_phase();
/// assert_eq!((c.turn(), c.phasing()), (2, Side::Confederate));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Clock {
    turn: u32,
    first: Side,
    second_phase: bool,
    step: Step,
}

impl Clock {
    /// Turn 1, the first side's phase, command step. The first side is the Confederates by the rules
    /// (NORTH-SEQ-01); NORTH-OPT-26 may give the first phase to the Union.
    #[must_use]
    pub const fn new(first: Side) -> Clock {
        Clock {
            turn: 1,
            first,
            second_phase: false,
            step: Step::Command,
        }
    }

    /// The turn number, from 1.
    #[must_use]
    pub const fn turn(&self) -> u32 {
        self.turn
    }

    /// The side whose phase it is.
    #[must_use]
    pub const fn phasing(&self) -> Side {
        if self.second_phase {
            self.first.enemy()
        } else {
            self.first
        }
    }

    /// The side whose phase comes first in every turn.
    #[must_use]
    pub const fn first_side(&self) -> Side {
        self.first
    }

    /// Whether this is the second player-phase of the turn.
    #[must_use]
    pub const fn is_second_phase(&self) -> bool {
        self.second_phase
    }

    /// The current step.
    #[must_use]
    pub const fn step(&self) -> Step {
        self.step
    }

    /// Moves to the next step of this phase; `false` (and no change) after melee.
    pub fn next_step(&mut self) -> bool {
        match self.step.next() {
            Some(s) => {
                self.step = s;
                true
            }
            None => false,
        }
    }

    /// Moves forward to `step` in this phase; `false` (and no change) if that would go back.
    pub fn advance_to(&mut self, step: Step) -> bool {
        if step < self.step {
            return false;
        }
        self.step = step;
        true
    }

    /// NORTH-SEQ-01: starts the next player-phase: the other side's phase of this turn, or the first side's
    /// phase of the next turn.
    pub fn next_phase(&mut self) {
        if self.second_phase {
            self.second_phase = false;
            self.turn = self.turn.saturating_add(1);
        } else {
            self.second_phase = true;
        }
        self.step = Step::Command;
    }
}
