//! Casualties beyond the impact roll: horse or rider, a hit horse's state, treating the wounded, carrying
//! them away.

use acw_core::{Dice, Die, Dist, Resolve};
use std::fmt;

/// Who a hit on a mounted figure strikes (HT-CAS-03, HT-MEL-12).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Struck {
    /// The horse: the rider is dismounted, unhurt, if the horse is dead or wounded.
    Horse,
    /// The rider: the casualty applies to him.
    Rider,
}

impl fmt::Display for Struck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Struck::Horse => "the horse",
            Struck::Rider => "the rider",
        })
    }
}

/// The D10 for a mounted figure hit (HT-CAS-03) or beaten in close combat (HT-MEL-12): under fire and
/// against an unmounted opponent 1–6 horse, 7–10 rider; against a mounted opponent 1–4 horse, 5–10 rider.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct HorseOrRider {
    /// Beaten in close combat by a mounted figure.
    pub by_mounted: bool,
}

impl HorseOrRider {
    /// Who a D10 roll strikes.
    pub const fn judge(&self, roll: u16) -> Struck {
        let horse_max = if self.by_mounted { 4 } else { 6 };
        if roll <= horse_max {
            Struck::Horse
        } else {
            Struck::Rider
        }
    }
}

impl Resolve for HorseOrRider {
    type Outcome = Struck;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> Struck {
        self.judge(dice.face(Die::D10))
    }
    fn odds(&self) -> Dist<Struck> {
        Dist::die(Die::D10).map(|&f| self.judge(f as u16))
    }
}

/// A hit horse's state (HT-CAS-04, HT-ART-22): D6 1–2 dead, 3–5 wounded, 6 unhurt.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum HorseState {
    /// Dead.
    Dead,
    /// Wounded.
    Wounded,
    /// Unhurt.
    Okay,
}

/// The roll for a hit horse (HT-CAS-04).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct HorseStatus;

impl HorseStatus {
    /// The state a D6 gives.
    pub const fn judge(roll: u16) -> HorseState {
        match roll {
            1 | 2 => HorseState::Dead,
            3..=5 => HorseState::Wounded,
            _ => HorseState::Okay,
        }
    }
}

impl Resolve for HorseStatus {
    type Outcome = HorseState;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> HorseState {
        HorseStatus::judge(dice.face(Die::D6))
    }
    fn odds(&self) -> Dist<HorseState> {
        Dist::die(Die::D6).map(|&f| HorseStatus::judge(f as u16))
    }
}

/// The state of a horse just hit (HT-CAS-04), rolled at once: the D6 table (1–2 dead, 3–5 wounded, 6
/// unhurt), or under `horse_status_roll = ImpactVsD4` a fresh roll of the hit's impact die against the
/// horse's D4 armour with no shift (at or under the armour unhurt, over it wounded, at the kill threshold
/// dead). The hit itself — the D10 that chose the horse, or a team horse's armour roll — is never reused:
/// the state is a roll of its own. Every hit horse goes through here: riders' horses under fire and in
/// close combat, and the horses of a gun's team.
pub(crate) fn horse_state<D: Dice + ?Sized>(
    impact: crate::ladder::DieType,
    options: &crate::options::Options,
    dice: &mut D,
) -> HorseState {
    use crate::fire::HitResult;
    use crate::options::HorseStatusRoll;
    match options.horse_status_roll {
        HorseStatusRoll::D6Table => HorseStatus.roll(dice),
        HorseStatusRoll::ImpactVsD4 => match horse_status_impact(impact, options).roll(dice) {
            HitResult::NoEffect => HorseState::Okay,
            HitResult::Wounded => HorseState::Wounded,
            HitResult::Killed => HorseState::Dead,
        },
    }
}

/// The chance a horse just hit is down (dead or wounded) by [`horse_state`].
pub(crate) fn horse_down_chance(
    impact: crate::ladder::DieType,
    options: &crate::options::Options,
) -> f64 {
    use crate::options::HorseStatusRoll;
    match options.horse_status_roll {
        HorseStatusRoll::D6Table => HorseStatus.odds().prob(|s| *s != HorseState::Okay),
        HorseStatusRoll::ImpactVsD4 => {
            let h = horse_status_impact(impact, options).probabilities();
            h[1] + h[2]
        }
    }
}

/// The impact die rolled again against the horse's D4 under `horse_status_roll = ImpactVsD4`.
fn horse_status_impact(
    impact: crate::ladder::DieType,
    options: &crate::options::Options,
) -> crate::fire::Impact {
    crate::fire::Impact {
        impact,
        armour: crate::ladder::DieType::D4,
        armour_shift: 0,
        kill: options.kill_threshold,
    }
}

/// A hit on a rider still on his horse (HT-CAS-03, HT-CAS-04, HT-CAS-05), as fire plays it: before the
/// result is marked, a D10 — 1–6 the horse, 7–10 the rider. A hit horse rolls its state ([`horse_state`]:
/// D6 1–2 dead, 3–5 wounded, 6 unhurt; or, by option, the hit's impact die rolled again against D4); dead or
/// wounded, the rider is on foot and unhurt (a leader stays leader). Under `WoundsOnly` a kill kills the
/// rider without the D10. Returns the result for the rider and whether he lost his horse.
pub(crate) fn rider_hit<D: Dice + ?Sized>(
    hit: crate::fire::HitResult,
    impact: crate::ladder::DieType,
    options: &crate::options::Options,
    dice: &mut D,
) -> (crate::fire::HitResult, bool) {
    use crate::fire::HitResult;
    use crate::options::MountedCasualtyScope;
    if hit == HitResult::NoEffect {
        return (hit, false);
    }
    if hit == HitResult::Killed
        && options.mounted_casualty_scope == MountedCasualtyScope::WoundsOnly
    {
        return (hit, false);
    }
    match (HorseOrRider { by_mounted: false }).roll(dice) {
        Struck::Rider => (hit, false),
        Struck::Horse => (
            HitResult::NoEffect,
            horse_state(impact, options, dice) != HorseState::Okay,
        ),
    }
}

/// The chances of one hit on a rider still on his horse ([`rider_hit`]) given the impact's chances `p` =
/// (no effect, wounded, killed): (he rides on, he is on foot and unhurt, he is down).
pub(crate) fn rider_hit_chances(
    p: [f64; 3],
    impact: crate::ladder::DieType,
    options: &crate::options::Options,
) -> [f64; 3] {
    use crate::options::MountedCasualtyScope;
    let horse_down = horse_down_chance(impact, options);
    let (rolled, killed_outright) = match options.mounted_casualty_scope {
        MountedCasualtyScope::AllCasualties => (p[1] + p[2], 0.0),
        MountedCasualtyScope::WoundsOnly => (p[1], p[2]),
    };
    // the D10 under fire: 6 in 10 the horse, 4 in 10 the rider
    let horse = rolled * 0.6;
    let down = killed_outright + rolled * 0.4;
    let unhorsed = horse * horse_down;
    [(1.0 - down - unhorsed).max(0.0), unhorsed, down]
}

/// A treated casualty's fate (HT-SG2-49).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Treated {
    /// D6 1–2.
    Dead,
    /// D6 3–5: out of action.
    Wounded,
    /// D6 6: fights again.
    Recovered,
}

/// Treating the wounded (HT-SG2-49): one D6 per casualty. Hardtack uses it after the battle only
/// (HT-CAS-06), or at a Reorganise under Quick Combat Resolution (HT-OPT-24). Outcome: (dead, wounded,
/// recovered).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Treatment {
    /// Casualties treated.
    pub casualties: u8,
}

impl Treatment {
    /// The fate a D6 gives.
    pub const fn judge(roll: u16) -> Treated {
        match roll {
            1 | 2 => Treated::Dead,
            3..=5 => Treated::Wounded,
            _ => Treated::Recovered,
        }
    }
}

impl Resolve for Treatment {
    type Outcome = (u8, u8, u8);
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> (u8, u8, u8) {
        let mut c = (0, 0, 0);
        for _ in 0..self.casualties {
            match Treatment::judge(dice.face(Die::D6)) {
                Treated::Dead => c.0 += 1,
                Treated::Wounded => c.1 += 1,
                Treated::Recovered => c.2 += 1,
            }
        }
        c
    }
    fn odds(&self) -> Dist<(u8, u8, u8)> {
        let one = Dist::die(Die::D6).map(|&f| match Treatment::judge(f as u16) {
            Treated::Dead => (1u8, 0u8, 0u8),
            Treated::Wounded => (0, 1, 0),
            Treated::Recovered => (0, 0, 1),
        });
        let mut acc = Dist::certain((0u8, 0u8, 0u8));
        for _ in 0..self.casualties {
            acc = acc
                .product(&one)
                .map(|(a, b)| (a.0 + b.0, a.1 + b.1, a.2 + b.2));
        }
        acc
    }
}

/// Carrying wounded away (HT-SG2-24, HT-OPT-23): each fit figure carries one; returns (carried, abandoned).
/// Carrying on foot encumbers the company; wounded riders on their own horses do not (HT-CAS-08,
/// HT-MOV-15).
#[must_use]
pub const fn carry(wounded: u32, fit: u32) -> (u32, u32) {
    let carried = if wounded < fit { wounded } else { fit };
    (carried, wounded - carried)
}

/// Whether carrying makes the company encumbered (HT-SG2-24, HT-CAS-08): wounded carried on foot do; wounded
/// riders on their own horses do not.
#[must_use]
pub const fn encumbered(carried_on_foot: u32) -> bool {
    carried_on_foot > 0
}
