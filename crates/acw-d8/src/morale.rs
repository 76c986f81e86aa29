//! Morale: points (a point a surviving figure plus modifiers) against the break chart for the unit's class and
//! original size; a unit at or under the chart value is removed (D8-MOR-*). Deterministic: no dice.

use crate::options::Options;
use crate::tables::{Class, Cover, break_value, morale_points as mp};
use std::fmt;

/// Where an officer is, for the morale modifiers (D8-MOR-04).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OfficerAt {
    /// Within his radius of the unit.
    #[default]
    InRange,
    /// Alive but further than his radius.
    Away,
    /// Killed.
    Killed,
}

/// The measured facts of a morale test (D8-MOR-04). Distances are judged base edge to base edge by the caller;
/// "behind cover" means at least half the unit's figures are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct MoraleFacts {
    /// Another regiment of the same brigade within 30 cm.
    pub brigade_mate_near: bool,
    /// The unit's cover.
    pub cover: Cover,
    /// An enemy unit within 30 cm.
    pub enemy_near: bool,
    /// The Brigadier (brigaded regiments only; ignored for others).
    pub brigadier: OfficerAt,
    /// The Divisional Officer.
    pub division: OfficerAt,
}

/// A modifier to a unit's morale points (D8-MOR-04, D8-MOR-08).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum MoraleModifier {
    /// Another regiment of its brigade within 30 cm (+1).
    BrigadeMateNear,
    /// Behind soft cover (+1).
    SoftCover,
    /// Behind hard cover (+2).
    HardCover,
    /// An enemy unit within 30 cm (−1).
    EnemyNear,
    /// Its Brigadier away or killed (−1).
    BrigadierAway,
    /// Its Brigadier killed and the Divisional Officer away too (−1).
    BrigadierDeadDivisionAway,
    /// An unbrigaded unit with the Divisional Officer away (−1).
    UnbrigadedDivisionAway,
    /// The Divisional Officer killed (−1).
    DivisionKilled,
    /// A formation fail, under the option (−1).
    FormationFail,
}

impl MoraleModifier {
    /// The points it adds (negative: takes away).
    #[must_use]
    pub const fn points(self) -> i32 {
        match self {
            MoraleModifier::BrigadeMateNear => mp::BRIGADE_MATE_NEAR,
            MoraleModifier::SoftCover => mp::SOFT_COVER,
            MoraleModifier::HardCover => mp::HARD_COVER,
            MoraleModifier::EnemyNear => mp::ENEMY_NEAR,
            MoraleModifier::BrigadierAway => mp::BRIGADIER_AWAY,
            MoraleModifier::BrigadierDeadDivisionAway => mp::BRIGADIER_DEAD_DIVISION_AWAY,
            MoraleModifier::UnbrigadedDivisionAway => mp::UNBRIGADED_DIVISION_AWAY,
            MoraleModifier::DivisionKilled => mp::DIVISION_KILLED,
            MoraleModifier::FormationFail => -1,
        }
    }
}

impl fmt::Display for MoraleModifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self {
            MoraleModifier::BrigadeMateNear => "a regiment of its brigade within 30 cm",
            MoraleModifier::SoftCover => "behind soft cover",
            MoraleModifier::HardCover => "behind hard cover",
            MoraleModifier::EnemyNear => "an enemy within 30 cm",
            MoraleModifier::BrigadierAway => "its Brigadier away or killed",
            MoraleModifier::BrigadierDeadDivisionAway => {
                "its Brigadier killed and the Divisional Officer away"
            }
            MoraleModifier::UnbrigadedDivisionAway => "the Divisional Officer away",
            MoraleModifier::DivisionKilled => "the Divisional Officer killed",
            MoraleModifier::FormationFail => "a formation fail",
        };
        let p = self.points();
        if p < 0 {
            write!(f, "\u{2212}{} for {what}", -p)
        } else {
            write!(f, "+{p} for {what}")
        }
    }
}

/// D8-MOR-04, D8-MOR-08: the modifiers that apply to a unit's morale: +1 for a brigade mate within 30 cm, +1 soft
/// or +2 hard cover, −1 for an enemy within 30 cm; for a brigaded regiment −1 if its Brigadier is away or
/// killed, −1 more if he is killed and the Divisional Officer is away; −1 if the Divisional Officer is killed;
/// for an unbrigaded unit −1 if the Divisional Officer is away. A killed Divisional Officer is not also "away"
/// unless the option says so. −1 with a formation fail only under the option.
#[must_use]
pub fn morale_modifiers(
    brigaded: bool,
    ff: bool,
    facts: &MoraleFacts,
    options: &Options,
) -> Vec<MoraleModifier> {
    let mut v = Vec::new();
    each_modifier(brigaded, ff, facts, options, |m| v.push(m));
    v
}

/// Calls `apply` with each modifier of [`morale_modifiers`], in order, without allocating.
fn each_modifier(
    brigaded: bool,
    ff: bool,
    facts: &MoraleFacts,
    options: &Options,
    mut apply: impl FnMut(MoraleModifier),
) {
    if brigaded && facts.brigade_mate_near {
        apply(MoraleModifier::BrigadeMateNear);
    }
    match facts.cover {
        Cover::Open => {}
        Cover::Soft => apply(MoraleModifier::SoftCover),
        Cover::Hard => apply(MoraleModifier::HardCover),
    }
    if facts.enemy_near {
        apply(MoraleModifier::EnemyNear);
    }
    let div_away = match facts.division {
        OfficerAt::Away => true,
        OfficerAt::Killed => options.division_killed_double_count,
        OfficerAt::InRange => false,
    };
    if brigaded {
        if facts.brigadier != OfficerAt::InRange {
            apply(MoraleModifier::BrigadierAway);
        }
        if facts.brigadier == OfficerAt::Killed && div_away {
            apply(MoraleModifier::BrigadierDeadDivisionAway);
        }
    } else if div_away {
        apply(MoraleModifier::UnbrigadedDivisionAway);
    }
    if facts.division == OfficerAt::Killed {
        apply(MoraleModifier::DivisionKilled);
    }
    if ff && options.ff_affects_morale {
        apply(MoraleModifier::FormationFail);
    }
}

/// D8-MOR-02, D8-MOR-04, D8-MOR-08: a unit's morale points: its surviving figures plus its modifiers
/// ([`morale_modifiers`]).
#[must_use]
pub fn morale_points(
    survivors: u32,
    brigaded: bool,
    ff: bool,
    facts: &MoraleFacts,
    options: &Options,
) -> i32 {
    let mut p = survivors as i32;
    each_modifier(brigaded, ff, facts, options, |m| p += m.points());
    p
}

/// The result of a morale test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoraleResult {
    /// The unit's points.
    pub points: i32,
    /// The chart value for its class and original size.
    pub break_at: u32,
    /// Whether it is removed.
    pub removed: bool,
}

impl fmt::Display for MoraleResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.removed {
            write!(
                f,
                "{} morale points against a break value of {}: the unit breaks and is removed",
                self.points, self.break_at
            )
        } else {
            write!(
                f,
                "{} morale points against a break value of {}: the unit stands",
                self.points, self.break_at
            )
        }
    }
}

/// D8-MOR-03, D8-MOR-05, D8-MOR-06: compares `points` with the chart value for `class` at the unit's **original**
/// size (figures sent into buildings still count): at or under it, the unit is removed. A size off the chart
/// (under 4 or over 20) uses the nearest column.
///
/// D8-MOR-07: in the rules' worked example an Experienced regiment of 12 reduced to 7 scores 7 points; the rules
/// name 5 as its break value, which is the Veteran figure; this uses the chart as printed (6), and 7 stands either
/// way.
#[must_use]
pub fn test(class: Class, original: u32, points: i32) -> MoraleResult {
    let col = original.clamp(crate::tables::MIN_UNIT, crate::tables::MAX_UNIT);
    let break_at = break_value(class, col).unwrap_or(0);
    MoraleResult {
        points,
        break_at,
        removed: points <= break_at as i32,
    }
}
