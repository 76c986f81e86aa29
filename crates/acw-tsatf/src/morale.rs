//! Morale: the 2D6 roll-low tests (major, critical, pinned), the test modifiers, whose number a side's Major
//! Morale uses, leader ratings, and the few other one-die procedures (scouts, torpedoes).

use crate::options::{MajorScope, Options};
use crate::tables::{LeaderRating, Quality};
use acw_core::{Dice, Die, Dist, Resolve};

/// A 2D6 roll-low test (TSATF-MOR-03): passed when 2D6 plus the modifier is at most the number. Used for Major
/// (TSATF-MOR-04), Critical (TSATF-MOR-07) and Pinned (TSATF-MOR-09) morale.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[must_use]
pub struct MoraleTest {
    /// The chart's number (TSATF-MOR-02).
    pub number: u8,
    /// The net modifier to the dice; positive is worse (TSATF-MOR-14).
    pub modifier: i8,
}

impl MoraleTest {
    /// A Major Morale test of a class (TSATF-MOR-04).
    pub fn major(quality: Quality, modifier: i8) -> MoraleTest {
        MoraleTest {
            number: quality.major_morale(),
            modifier,
        }
    }

    /// A Critical or Pinned test of a class, with or without leader (TSATF-MOR-07, TSATF-MOR-09).
    pub fn critical(quality: Quality, with_leader: bool, modifier: i8) -> MoraleTest {
        MoraleTest {
            number: quality.critical_morale(with_leader),
            modifier,
        }
    }

    fn pass(&self, total: u32) -> bool {
        total as i32 + i32::from(self.modifier) <= i32::from(self.number)
    }
}

impl Resolve for MoraleTest {
    type Outcome = bool;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> bool {
        let total = u32::from(dice.face(Die::D6)) + u32::from(dice.face(Die::D6));
        self.pass(total)
    }
    fn odds(&self) -> Dist<bool> {
        Dist::die(Die::D6).sum_n(2).map(|&t| self.pass(t))
    }
}

/// The net modifier to a unit's own tests (TSATF-MOR-14, TSATF-OPT-02, TSATF-MEL-23): its leader's rating (when
/// ratings are in use and it has a leader) and 2 points of benefit for each enemy colour it holds (−2 on the
/// die, or the literal +2 under [`Options::colours_literal_plus2`]).
#[must_use]
pub fn test_modifier(rating: Option<LeaderRating>, colours_held: u8, options: &Options) -> i8 {
    let leader = if options.leader_quality {
        rating.map_or(0, LeaderRating::modifier)
    } else {
        0
    };
    let per = if options.colours_literal_plus2 {
        2i8
    } else {
        -2
    };
    let colours = i8::try_from(colours_held)
        .unwrap_or(i8::MAX / 2)
        .saturating_mul(per);
    leader.saturating_add(colours)
}

/// The class whose Major Morale number a side rolls against (TSATF-MOR-05): the class most of its units have,
/// a tie going to the lower class; or the side's lowest class. `None` for a side with no units or under
/// [`MajorScope::PerUnit`], where each unit uses its own.
#[must_use]
pub fn major_class(classes: &[Quality], options: &Options) -> Option<Quality> {
    match options.major_scope {
        MajorScope::PerUnit => None,
        MajorScope::LowestClass => classes.iter().copied().min_by_key(|q| q.order()),
        _ => {
            let mut best: Option<(usize, Quality)> = None;
            for q in [
                Quality::Green,
                Quality::Indians,
                Quality::Average,
                Quality::Veteran,
                Quality::Crack,
            ] {
                let n = classes.iter().filter(|&&c| c == q).count();
                if n > 0 && best.is_none_or(|(b, _)| n > b) {
                    best = Some((n, q));
                }
            }
            best.map(|(_, q)| q)
        }
    }
}

/// A leader's rating roll, 1D6 (TSATF-OPT-01).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[must_use]
pub struct RatingRoll;

impl Resolve for RatingRoll {
    type Outcome = LeaderRating;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> LeaderRating {
        LeaderRating::from_face(dice.face(Die::D6))
    }
    fn odds(&self) -> Dist<LeaderRating> {
        Dist::die(Die::D6).map(|&f| LeaderRating::from_face(f as u16))
    }
}

/// A roll that succeeds only on a 6: trained scouts spotting hidden Indians (TSATF-OPT-04), a vessel striking a
/// torpedo in a suspicious stretch of river (TSATF-OPT-09).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[must_use]
pub struct SixRoll;

impl Resolve for SixRoll {
    type Outcome = bool;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> bool {
        dice.face(Die::D6) == 6
    }
    fn odds(&self) -> Dist<bool> {
        Dist::die(Die::D6).map(|&f| f == 6)
    }
}
