//! The advanced rules that stand on their own: Artillery Shot Ranges' table, off-table guns' range, case and
//! spherical case, ammunition supply, the Grand Gesture, Quiet Mutiny, the Full Strength complement and
//! regrouping, and modern and future weapons.

use crate::artillery::ShotRange;
use crate::error::SetupError;
use crate::fire::{FireKind, RangeDie, RangeFacts, range_die};
use crate::ladder::DieType;
use crate::options::Options;
use crate::setup::MenPerFigure;
use crate::tables::{ConfidenceLevel, FieldPiece, Leadership, Quality};
use acw_core::{Dice, Dist, Resolve, Side};

/// Artillery Shot Ranges (HT-OPT-01): the longest short, medium and long ranges of a piece, in inches.
#[must_use]
pub const fn shot_ranges(piece: FieldPiece) -> [f64; 3] {
    match piece {
        FieldPiece::Rifle20lb => [45.0, 90.0, 200.0],
        FieldPiece::Napoleon12lb => [30.0, 60.0, 150.0],
        FieldPiece::Rifle10lbOr3in => [40.0, 80.0, 180.0],
        FieldPiece::Gun6lb => [25.0, 50.0, 140.0],
    }
}

/// The shot range band at a distance (HT-OPT-01); `None` beyond long range, where the gun cannot fire shot.
pub fn shot_range(piece: FieldPiece, distance: f64) -> Result<Option<ShotRange>, SetupError> {
    if !distance.is_finite() || distance < 0.0 {
        return Err(SetupError::BadLength {
            what: "shot distance",
            value: distance,
        });
    }
    let [s, m, l] = shot_ranges(piece);
    Ok(if distance <= s {
        Some(ShotRange::Short)
    } else if distance <= m {
        Some(ShotRange::Medium)
    } else if distance <= l {
        Some(ShotRange::Long)
    } else {
        None
    })
}

/// An off-table gun's geometry (HT-OPT-03, HT-OPT-04): it stands `behind` inches behind the edge point E,
/// cannot move or turn, and receives no transferred actions.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OffTable {
    /// Inches behind the table edge (1" = 10 yards).
    pub behind: f64,
}

impl OffTable {
    /// An off-table gun `yards` behind the edge.
    pub fn from_yards(yards: f64) -> Result<OffTable, SetupError> {
        Ok(OffTable {
            behind: crate::setup::yards_to_inches(yards)?,
        })
    }

    /// The length of its fire-arc band along the edge, centred on E: half the distance behind.
    #[must_use]
    pub fn arc_band(&self) -> f64 {
        self.behind / 2.0
    }

    /// The range to a point `from_e` inches from E: the two added.
    pub fn range(&self, from_e: f64) -> Result<f64, SetupError> {
        if !from_e.is_finite() || from_e < 0.0 {
            return Err(SetupError::BadLength {
                what: "distance from the edge point",
                value: from_e,
            });
        }
        Ok(self.behind + from_e)
    }
}

/// Case and spherical case (HT-OPT-05, HT-OPT-06): the case burst's radius and impact die, the spherical
/// case area (length × width) and impact die.
pub const fn case_table(piece: FieldPiece) -> ((f64, DieType), ((f64, f64), DieType)) {
    match piece {
        FieldPiece::Rifle20lb => ((1.5, DieType::D10), ((8.0, 1.0), DieType::D8)),
        FieldPiece::Napoleon12lb | FieldPiece::Rifle10lbOr3in => {
            ((1.0, DieType::D8), ((6.0, 1.0), DieType::D6))
        }
        FieldPiece::Gun6lb => ((0.5, DieType::D6), ((4.0, 0.5), DieType::D4)),
    }
}

/// Case and spherical case need an aim point at least 50" away (HT-OPT-05).
pub const CASE_MINIMUM_RANGE: f64 = 50.0;

/// The armour shift of a figure in a case burst (HT-OPT-06, HT-SG2-45): its cover's, plus 1 if In Position
/// (open).
#[must_use]
pub const fn case_armour_shift(cover_shift: i16, in_position: bool) -> i16 {
    cover_shift + in_position as i16
}

/// Starting small-arms loads (HT-OPT-08): Union 10, Confederate 6, unless the scenario gives rounds (5 a
/// load).
#[must_use]
pub const fn starting_loads(side: Side, rounds: Option<u32>) -> u32 {
    match rounds {
        Some(r) => r / 5,
        None => match side {
            Side::Union => 10,
            Side::Confederate => 6,
        },
    }
}

/// Loads a Fire action spends (HT-OPT-08): 1, or 2 for repeaters.
#[must_use]
pub const fn loads_per_fire(repeater: bool) -> u32 {
    if repeater { 2 } else { 1 }
}

/// Loads a scrounging Reorganise adds (HT-OPT-09): 2.
pub const SCROUNGE_LOADS: u32 = 2;

/// The Grand Gesture's range condition (HT-OPT-15, HT-INT-12): an enemy firer's range die against the
/// commander, with the commander's cover, must be D12 or less. The lone-figure shift counts only with
/// `with_lone_figure_shift`.
pub fn gesture_in_range(
    enemy: &RangeFacts,
    with_lone_figure_shift: bool,
    options: &Options,
) -> Result<bool, SetupError> {
    let facts = RangeFacts {
        lone_figure: with_lone_figure_shift,
        close_formation_target: false,
        ..*enemy
    };
    Ok(matches!(
        range_die(&facts, FireKind::SmallArms, false, options)?,
        RangeDie::Die { .. }
    ))
}

/// The Grand Gesture's effect (HT-OPT-16): each motivated company's quality die one type up (closed).
pub const fn gesture_die(quality: DieType) -> DieType {
    quality.shift_closed(1)
}

/// The Grand Gesture's risk (HT-OPT-17): a company that took the gesture tests as if its own leader fell,
/// with +1.
pub const GESTURE_RISK: i16 = 1;

/// Quiet Mutiny (HT-OPT-26): the first time a Regular or Veteran unit is ordered to advance in the open, its
/// quality die plus LV; 9 or more makes it Shaken. Green and Elite units never test (the outcome is then
/// always `false`).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct QuietMutiny {
    /// The unit's quality.
    pub quality: Quality,
    /// Its leadership.
    pub lv: Leadership,
}

impl QuietMutiny {
    const fn tests(&self) -> bool {
        matches!(self.quality, Quality::Regular | Quality::Veteran)
    }

    /// Whether a roll makes the unit Shaken.
    #[must_use]
    pub const fn mutinies(&self, roll: u16) -> bool {
        roll as i16 + self.lv.value() >= 9
    }

    /// The level after the roll: Shaken at best.
    pub fn apply(cl: ConfidenceLevel, mutinied: bool) -> ConfidenceLevel {
        if mutinied {
            cl.max(ConfidenceLevel::Shaken)
        } else {
            cl
        }
    }
}

impl Resolve for QuietMutiny {
    type Outcome = bool;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> bool {
        self.tests() && self.mutinies(dice.face(self.quality.die().die()))
    }
    fn odds(&self) -> Dist<bool> {
        if !self.tests() {
            return Dist::certain(false);
        }
        Dist::die(self.quality.die().die()).map(|&f| self.mutinies(f as u16))
    }
}

/// The Full Strength complement of merged companies (HT-OPT-19, HT-SG2-08): the larger of the originals'
/// largest complement and the new figure count.
#[must_use]
pub fn merged_full_strength(originals: &[usize], figures: usize) -> usize {
    originals.iter().copied().max().unwrap_or(0).max(figures)
}

/// Regrouping two depleted companies (HT-SG2-08): the better LV, the quality of the one with more figures,
/// the average level rounded toward the better.
pub fn regroup(
    a: (Quality, Leadership, ConfidenceLevel, usize),
    b: (Quality, Leadership, ConfidenceLevel, usize),
) -> (Quality, Leadership, ConfidenceLevel) {
    let lv = a.1.min(b.1);
    let quality = if a.3 >= b.3 { a.0 } else { b.0 };
    let avg = (a.2 as u8 + b.2 as u8) / 2;
    (quality, lv, ConfidenceLevel::Confident.dropped(avg))
}

/// A modern or future weapon (HT-OPT-29..32).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Modern {
    /// Stargrunt II firepower per man.
    pub fp_per_man: u8,
    /// Its impact die.
    pub impact: DieType,
    /// A future weapon (+2 on morale) rather than a modern one (+1).
    pub future: bool,
}

impl Modern {
    /// The low-tech assault rifle (an AK-47): FP 2 per man, impact D8.
    pub const ASSAULT_RIFLE: Modern = Modern {
        fp_per_man: 2,
        impact: DieType::D8,
        future: false,
    };

    /// Firepower per figure in half points (HT-OPT-29): the weapon's FP times the men a figure stands for.
    #[must_use]
    pub const fn half_fp(&self, scale: MenPerFigure) -> u32 {
        self.fp_per_man as u32 * scale.men() as u32 * 2
    }

    /// The morale modifier on the target's test (HT-OPT-31): +1 modern, +2 future (the printed "−1" of the
    /// first AK-47 example is read as +1, HT-INT-10).
    #[must_use]
    pub const fn morale(&self) -> i16 {
        if self.future { 2 } else { 1 }
    }
}
