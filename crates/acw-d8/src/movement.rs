//! Movement: what a move may be, given its measured facts (the caller measures; the rules judge), hazards by D6,
//! charges, boats (D8-MOV-*). The [`crate::Battle`] applies these when a unit moves.

use crate::options::Options;
use crate::tables::{Boat, Formation, Ground, GunType, MountedPassage, Mover, Pace, rate_cm};
use acw_core::{Dice, Die, Dist, Resolve};

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// A move as measured by the caller (D8-MOV-02): how it was made and what it crossed.
#[derive(Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct MoveFacts {
    /// The longest path any figure took, in cm.
    pub distance_cm: f64,
    /// Whether the unit moves in column (needs a road unless the option allows columns anywhere).
    pub in_column: bool,
    /// Whether the whole move is along a road.
    pub on_road: bool,
    /// Whether any figure moved towards the enemy base line.
    pub towards_base_line: bool,
    /// Whether any figure came nearer the nearest enemy figure.
    pub nearer_enemy: bool,
    /// Whether the move ends in base contact with an enemy.
    pub into_contact: bool,
    /// Linear obstacles crossed, or area features entered or left (moving inside one area crosses nothing).
    pub crossed: Vec<Ground>,
    /// Whether the move ended in, or came out of, a building.
    pub building: bool,
    /// Whether a formed unit passed through another formed unit.
    pub through_formed: bool,
    /// Whether skirmishers and a formed unit passed through each other.
    pub through_skirmishers: bool,
    /// Whether the gun crossed the river by the bridge or a ford (no hazard, allowed to guns).
    pub at_crossing: bool,
}

/// D8-MOV-01, D8-MOV-02, D8-MOV-14: the unit's allowance in cm, or `None` if it cannot move so. A limber with one
/// horse left moves at half rate, with none only by manhandling.
#[must_use]
pub fn allowance(mover: Mover, pace: Pace, horses: u8) -> Option<f64> {
    let r = rate_cm(mover, pace)?;
    match (mover, pace) {
        (Mover::Gun(_), Pace::Basic | Pace::Column) => match horses {
            0 => None,
            1 => Some(r / 2.0),
            _ => Some(r),
        },
        _ => Some(r),
    }
}

/// D8-MOV-02: the move is within the allowance (no deduction for cover).
#[must_use]
pub fn within(distance_cm: f64, allowance_cm: f64) -> bool {
    distance_cm.is_finite() && distance_cm >= 0.0 && distance_cm <= allowance_cm + 1e-9
}

/// D8-MOV-06: whether a unit may move in column here: infantry and cavalry columns only on roads (strict reading),
/// anywhere under the option; limbered guns and wagons are exempt.
#[must_use]
pub fn column_allowed(on_road: bool, gun_or_wagon: bool, options: &Options) -> bool {
    on_road || gun_or_wagon || options.column_anywhere
}

/// D8-MOV-03: a skirmish line is in order if its figures are at least 1 cm apart and in sight of each other.
#[must_use]
pub fn skirmish_in_order(closest_gap_cm: f64, all_in_sight: bool) -> bool {
    closest_gap_cm.is_finite() && closest_gap_cm >= 1.0 && all_in_sight
}

/// D8-MOV-16, D8-MOV-17: why a mover may not cross `ground`, if it may not. Guns: not woods, walls, rivers
/// (save by bridge or ford), marshes, swamps, fences, hedges or works. Mounted: not hedges, marshes or swamps;
/// fences and walls only by jumping, rivers by swimming (hazards rolled by the battle).
#[must_use]
pub fn barred(mover: Mover, ground: Ground, at_crossing: bool) -> Option<&'static str> {
    match mover {
        Mover::Gun(_) | Mover::Wagon => {
            if ground == Ground::River && at_crossing {
                None
            } else if !ground.passable_by_guns() {
                Some(
                    "guns cannot pass woods, walls, rivers, marshes, swamps, fences, hedges or works",
                )
            } else {
                None
            }
        }
        Mover::Mounted => match ground.mounted_passage() {
            MountedPassage::Barred => Some("mounted figures cannot pass hedges, marshes or swamps"),
            _ => None,
        },
        Mover::Foot => None,
    }
}

/// D8-MOV-18, D8-MOV-19: a D6 per mounted figure crossing a hazard: jumping a fence or wall kills on a 1 (1/6),
/// crossing a river drowns on 1–2 (1/3). The outcome is the figures lost, Binomial(figures, p).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hazard {
    /// Figures crossing.
    pub figures: u32,
    /// The highest face that kills: 1 for a jump, 2 for a river.
    pub kills_on: u8,
}

impl Hazard {
    /// D8-MOV-18: jumping a fence or wall.
    #[must_use]
    pub const fn jump(figures: u32) -> Hazard {
        Hazard {
            figures,
            kills_on: 1,
        }
    }

    /// D8-MOV-19: swimming a river.
    #[must_use]
    pub const fn river(figures: u32) -> Hazard {
        Hazard {
            figures,
            kills_on: 2,
        }
    }
}

impl Resolve for Hazard {
    type Outcome = u32;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> u32 {
        (0..self.figures)
            .filter(|_| Die::D6.roll(dice) <= u16::from(self.kills_on))
            .count() as u32
    }

    fn odds(&self) -> Dist<u32> {
        Dist::binomial(self.figures, f64::from(self.kills_on.min(6)) / 6.0)
            .unwrap_or_else(|_| Dist::certain(0))
    }
}

/// A charge as measured by the caller (D8-MOV-20 to D8-MOV-22).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct ChargeFacts {
    /// The leading figures' path, in cm.
    pub distance_cm: f64,
    /// Whether every part of the path is open ground.
    pub path_open: bool,
    /// The target's cover (an unlimbered battery in the open may be charged).
    pub target_in_cover: bool,
    /// Whether the charger's figures are in base-to-base contact.
    pub in_contact_order: bool,
}

/// D8-MOV-20 to D8-MOV-22: why a unit may not charge, if not. `formation` is its order, `ff` its formation fail,
/// `changed_formation` whether it changed this move, `last_charge` the move of its last charge and `now` this
/// move (counted in its side's turns), `basic` and `charge` its rates.
#[allow(clippy::too_many_arguments)]
#[must_use]
pub fn charge_refusal(
    facts: &ChargeFacts,
    formation: Formation,
    ff: bool,
    changed_formation: bool,
    last_charge: Option<u32>,
    now: u32,
    basic_cm: f64,
    charge_cm: f64,
    options: &Options,
) -> Option<String> {
    if formation == Formation::Skirmish {
        return Some("skirmishers cannot charge".into());
    }
    if formation == Formation::Column && !options.column_may_charge {
        return Some("only a line may charge".into());
    }
    if ff {
        return Some("it has a formation fail".into());
    }
    if changed_formation {
        return Some("it changed formation this move".into());
    }
    if !facts.in_contact_order {
        return Some("its figures are not in base-to-base contact".into());
    }
    if !facts.path_open {
        return Some("its path is not all open ground".into());
    }
    if facts.target_in_cover {
        return Some("the target is in cover".into());
    }
    let gap = if options.charge_interval_four { 4 } else { 3 };
    if let Some(t) = last_charge
        && now < t + gap
    {
        return Some(format!(
            "it charged on move {t} and may charge again on move {}",
            t + gap
        ));
    }
    let basis = if options.charge_distance_normal_rate {
        basic_cm
    } else {
        charge_cm
    };
    if facts.distance_cm.partial_cmp(&(0.75 * basis)) != Some(std::cmp::Ordering::Greater) {
        return Some(format!(
            "a charge must cover more than {} cm, and this one covers {} cm",
            0.75 * basis,
            facts.distance_cm
        ));
    }
    if !within(facts.distance_cm, charge_cm) {
        return Some(format!("a charge may cover at most {charge_cm} cm"));
    }
    None
}

/// D8-MOV-23, D8-STR-02: the most figures a building holds.
pub const BUILDING_CAPACITY: u32 = 5;

/// D8-MOV-24: a boat's move in cm: 12" downstream, 6" upstream (30.48 and 15.24 cm; 30 and 15 under the option).
#[must_use]
pub fn boat_move_cm(downstream: bool, options: &Options) -> f64 {
    match (downstream, options.boats_metric) {
        (true, false) => 12.0 * acw_core::measure::CM_PER_INCH,
        (false, false) => 6.0 * acw_core::measure::CM_PER_INCH,
        (true, true) => 30.0,
        (false, true) => 15.0,
    }
}

/// D8-MOV-25: whether `figures` fit the boat.
#[must_use]
pub fn boat_fits(boat: Boat, figures: u32) -> bool {
    figures <= boat.capacity()
}

/// D8-MOV-12, D8-MOV-13: the distance an unlimbered gun may be manhandled (field 7 cm, heavy 5 cm), with at least
/// 2 artillerymen; `None` with fewer.
#[must_use]
pub fn manhandle_cm(gun: GunType, crew_with_gun: u32) -> Option<f64> {
    if crew_with_gun >= 2 {
        rate_cm(Mover::Gun(gun), Pace::Manhandle)
    } else {
        None
    }
}
