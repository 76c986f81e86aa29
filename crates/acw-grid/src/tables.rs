//! The rules' tables as typed data, each with its rule ID.
//!
//! Costs are kept in **half-areas** so that the road rate of ½ an area per area (GRID-MOV-06) stays an integer.

use strum::{EnumIter, IntoStaticStr};

/// The kinds of stand (GRID-SET-03). Commanders are separate pieces, not stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, EnumIter, IntoStaticStr)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum StandType {
    /// Foot: about 400–500 men.
    Infantry,
    /// Horse, mounted or dismounted: about 400–500 men.
    Cavalry,
    /// A battery: 6–8 guns with crews.
    Artillery,
    /// Supply wagons: no combat dice, but they take hits.
    Wagons,
}

/// Firepower grade of a stand (GRID-SET-08, GRID-ART-06).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default, EnumIter, IntoStaticStr,
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Firepower {
    /// −1 per die in bombardment (and, with the option, in skirmish and combat).
    Inferior,
    /// No modifier.
    #[default]
    Normal,
    /// +1 per die.
    Superior,
}

/// Ground class of an area (GRID-SET-09).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default, EnumIter, IntoStaticStr,
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Ground {
    /// No effect.
    #[default]
    Open,
    /// Passable by most troops; double cost for mounted cavalry and artillery, closed to wagons.
    Broken,
    /// Impassable for most troops; infantry pay double.
    Difficult,
}

/// What is moving, for allowances and terrain (GRID-MOV-01, GRID-MOV-03, GRID-MOV-05).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, EnumIter, IntoStaticStr)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Mover {
    /// Infantry stands.
    Infantry,
    /// Artillery, limbered or not.
    Artillery,
    /// Cavalry on horseback.
    MountedCavalry,
    /// Cavalry on foot: moves and pays terrain as infantry (Inferred).
    DismountedCavalry,
    /// A Division, Corps or Army Commander.
    Commander,
    /// Wagons: always a march column.
    Wagons,
}

/// GRID-SET-01: one area is about this many yards across (low, high).
pub const AREA_YARDS: (u32, u32) = (300, 500);

/// GRID-SET-02: men in an infantry or cavalry stand (low, high); an earlier draft said 400–600.
pub const MEN_PER_STAND: (u32, u32) = (400, 500);
/// GRID-SET-02: the earlier draft's men per stand.
pub const MEN_PER_STAND_DRAFT: (u32, u32) = (400, 600);
/// GRID-SET-02: guns in an artillery stand (low, high).
pub const GUNS_PER_STAND: (u32, u32) = (6, 8);

/// GRID-SET-02: what one stand of `kind` represents, as (low, high, "men" or "guns"); wagons are not scaled.
#[must_use]
pub const fn stand_scale(kind: StandType) -> Option<(u32, u32, &'static str)> {
    match kind {
        StandType::Infantry | StandType::Cavalry => Some((MEN_PER_STAND.0, MEN_PER_STAND.1, "men")),
        StandType::Artillery => Some((GUNS_PER_STAND.0, GUNS_PER_STAND.1, "guns")),
        StandType::Wagons => None,
    }
}

/// Organisational units (GRID-SET-06).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, EnumIter, IntoStaticStr)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum OrgUnit {
    /// A brigade of foot.
    InfantryBrigade,
    /// A brigade of horse.
    CavalryBrigade,
    /// A battery of guns.
    Battery,
    /// The originally planned 2-stand artillery battalion.
    ArtilleryBattalion,
}

/// GRID-SET-06: standard stands per organisational unit.
#[must_use]
pub const fn standard_stands(unit: OrgUnit) -> u8 {
    match unit {
        OrgUnit::InfantryBrigade | OrgUnit::CavalryBrigade => 3,
        OrgUnit::Battery => 1,
        OrgUnit::ArtilleryBattalion => 2,
    }
}

/// GRID-SET-10: at most this many stands in one area at the end of movement (default of GRID-OPT-04).
pub const STACK_LIMIT: u8 = 6;
/// GRID-MEL-04, GRID-ART-08, GRID-FIR-03: at most this many stands of a unit shoot or fight.
pub const FIGHTING_STANDS: u8 = 3;
/// GRID-MEL-04: combat dice per fighting stand.
pub const COMBAT_DICE_PER_STAND: u8 = 2;
/// GRID-MEL-05: the die a unit with supporting stands adds.
pub const INNER_SUPPORT_DICE: u8 = 1;
/// GRID-CAS-01: hits a stand absorbs.
pub const HITS_PER_STAND: u8 = 2;
/// GRID-MOV-26: running total that completes hasty entrenchments.
pub const ENTRENCH_TARGET: u8 = 6;
/// GRID-CMD-01: a unit must be within this many areas of its Division Commander.
pub const UNIT_COMMAND_RADIUS: u32 = 3;
/// GRID-CMD-01: score needed by a detached unit to move.
pub const UNIT_COMMAND_SCORE: u16 = 3;
/// GRID-CMD-02: a Division Commander must be within this many areas of his Corps Commander.
pub const DIVISION_COMMAND_RADIUS: u32 = 5;
/// GRID-CMD-02: score a distant division needs to move.
pub const DIVISION_COMMAND_SCORE: u16 = 2;
/// GRID-MEL-09, GRID-ART-05, GRID-FIR-04: a die hits on a modified score of this or more.
pub const HIT_SCORE: i16 = 5;
/// GRID-FIR-02: skirmish fire reaches a target exactly this many areas ahead.
pub const SKIRMISH_RANGE: u32 = 2;

/// GRID-MOV-01: movement allowance in areas.
#[must_use]
pub const fn allowance_areas(mover: Mover) -> u32 {
    match mover {
        Mover::Infantry | Mover::Artillery | Mover::DismountedCavalry => 2,
        Mover::MountedCavalry | Mover::Commander => 3,
        Mover::Wagons => 1,
    }
}

/// GRID-MOV-01 in half-areas (the unit of path costs).
#[must_use]
pub const fn allowance_halves(mover: Mover) -> u32 {
    allowance_areas(mover) * 2
}

/// GRID-MOV-03: whether entering `ground` costs double for `mover` (obstacles are separate and apply to all).
///
/// Commanders pay no ground penalty as written; with `commander_ground_penalty` they pay as cavalry in broken
/// ground and as infantry in difficult ground.
#[must_use]
pub const fn ground_doubles(mover: Mover, ground: Ground, commander_ground_penalty: bool) -> bool {
    match (mover, ground) {
        (_, Ground::Open) => false,
        (Mover::MountedCavalry | Mover::Artillery, Ground::Broken) => true,
        (Mover::Infantry | Mover::DismountedCavalry, Ground::Difficult) => true,
        (Mover::Commander, _) => commander_ground_penalty,
        _ => false,
    }
}

/// GRID-MOV-05: whether `mover` may normally enter `ground` off-road.
#[must_use]
pub const fn may_enter(mover: Mover, ground: Ground) -> bool {
    match (mover, ground) {
        (_, Ground::Open) => true,
        (Mover::Wagons, _) => false,
        (_, Ground::Broken) => true,
        (Mover::Infantry | Mover::DismountedCavalry | Mover::Commander, Ground::Difficult) => true,
        (Mover::MountedCavalry | Mover::Artillery, Ground::Difficult) => false,
    }
}

/// GRID-ART-03 and GRID-ART-04: bombardment dice per artillery stand at `range` areas.
///
/// `extra_bands` is how far the hill shifts both bands: 0 on level ground, 1 on a 1-contour hill (and, with the
/// per-contour option, 1 more per contour). Range 1 is impossible (both would be engaged) and gives `None`, as
/// does anything beyond the long band.
#[must_use]
pub const fn bombard_dice_per_stand(range: u32, extra_bands: u32) -> Option<u8> {
    if range <= 1 {
        return None;
    }
    if range <= 2 + extra_bands {
        Some(2)
    } else if range <= 4 + extra_bands {
        Some(1)
    } else {
        None
    }
}

/// GRID-ART-06: bombardment modifier per die by firepower.
#[must_use]
pub const fn bombard_modifier(firepower: Firepower) -> i8 {
    match firepower {
        Firepower::Superior => 1,
        Firepower::Normal => 0,
        Firepower::Inferior => -1,
    }
}

/// GRID-ART-06, GRID-MEL-10: chance in sixths that one die hits (modified score 5 or more) with `modifier`.
///
/// +1 → 3 (4, 5, 6), 0 → 2 (5, 6), −1 → 1 (6 only), −2 → 0: a natural 6 is not an automatic hit.
#[must_use]
pub const fn hit_sixths(modifier: i8) -> u32 {
    let m = modifier as i32;
    let s = 2 + m;
    if s < 0 {
        0
    } else if s > 6 {
        6
    } else {
        s as u32
    }
}

/// Whether a face hits with `modifier` (GRID-MEL-09).
#[inline]
#[must_use]
pub const fn face_hits(face: u16, modifier: i8) -> bool {
    face as i16 + modifier as i16 >= HIT_SCORE
}

/// The four morale results (GRID-MOR-02).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, EnumIter, IntoStaticStr)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum MoraleResult {
    /// Retreat a full move in disorder, then leave the table.
    Routed,
    /// Retreat a full move; disordered.
    Defeated,
    /// Retreat 1 area facing the enemy; not disordered.
    Recoiled,
    /// Hold in place.
    Steady,
}

/// GRID-MOR-02: result of a modified morale score (0 to 7 in play; anything lower is a rout, higher steady).
#[must_use]
pub const fn morale_result(score: i16) -> MoraleResult {
    if score >= 6 {
        MoraleResult::Steady
    } else if score >= 4 {
        MoraleResult::Recoiled
    } else if score >= 1 {
        MoraleResult::Defeated
    } else {
        MoraleResult::Routed
    }
}

/// GRID-MOR-01: morale modifier of a stand: +1 Elite, −1 Unsteady (both: 0).
#[must_use]
pub const fn morale_modifier(elite: bool, unsteady: bool) -> i8 {
    (elite as i8) - (unsteady as i8)
}

/// What a commander's die does in combat (GRID-CMD-06).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, EnumIter, IntoStaticStr)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CommanderResult {
    /// 1: the commander is removed.
    Removed,
    /// 2–4: nothing.
    NoEffect,
    /// 5–6: one hit on his unit is cancelled.
    CancelHit,
}

/// GRID-CMD-06: the commander's table.
#[must_use]
pub const fn commander_result(face: u16) -> CommanderResult {
    match face {
        0 | 1 => CommanderResult::Removed,
        2..=4 => CommanderResult::NoEffect,
        _ => CommanderResult::CancelHit,
    }
}

/// Position of an adjacent area relative to a unit's facing (GRID-GEO-06).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, EnumIter, IntoStaticStr)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Aspect {
    /// On the unit's front.
    Front,
    /// On a flank.
    Flank,
    /// Behind it.
    Rear,
}

/// GRID-GEO-06: aspect of the side `relative` steps clockwise from the faced side.
///
/// Squares (4 sides): 0 front, 1 and 3 flank, 2 rear. Hexes (6 sides), default: 0, 1 and 5 front, 2 and 4 flank,
/// 3 rear; with `narrow_hex_front`: 0 front, 1, 2, 4 and 5 flank, 3 rear.
#[must_use]
pub const fn aspect_of_side(sides: u8, relative: u8, narrow_hex_front: bool) -> Aspect {
    if sides == 4 {
        match relative % 4 {
            0 => Aspect::Front,
            2 => Aspect::Rear,
            _ => Aspect::Flank,
        }
    } else {
        match relative % 6 {
            0 => Aspect::Front,
            3 => Aspect::Rear,
            1 | 5 if !narrow_hex_front => Aspect::Front,
            _ => Aspect::Flank,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hit_chances_by_modifier() {
        // GRID-ART-06: superior hits on 4-6, normal on 5-6, inferior on 6.
        assert_eq!(hit_sixths(1), 3);
        assert_eq!(hit_sixths(0), 2);
        assert_eq!(hit_sixths(-1), 1);
        assert_eq!(hit_sixths(-2), 0);
        assert!(face_hits(4, 1) && !face_hits(4, 0) && !face_hits(6, -2));
    }

    #[test]
    fn allowance_table() {
        // GRID-MOV-01
        assert_eq!(allowance_areas(Mover::Infantry), 2);
        assert_eq!(allowance_areas(Mover::MountedCavalry), 3);
        assert_eq!(allowance_halves(Mover::Wagons), 2);
    }
}
