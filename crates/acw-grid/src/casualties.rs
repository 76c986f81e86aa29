//! Hits, casualties and removal: 2 hits per stand, one running total per unit, which stand goes first, halving
//! and its fractions, tenacity markers, merging and detaching.

use crate::error::RuleViolation;
use crate::options::{FractionMode, Rounding};
use crate::state::{Battle, Unit, UnitId};
use crate::tables;
use acw_core::dice::{Dice, Die};
use acw_core::{Dist, Resolve};

/// Hits after halving, with the half-hit carried in [`FractionMode::CarryFractions`] (GRID-CAS-05).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Halved {
    /// Whole hits suffered.
    pub hits: u32,
    /// The half-hit carried afterwards (only ever set in carry-fractions mode).
    pub carry: bool,
}

/// GRID-CAS-05: halving `hits` for cover, an advantageous position or the like, in one of three fraction
/// modes. `carry` is the half-hit the unit already holds (carry-fractions mode only).
///
/// - Round down: floor(h / 2).
/// - Carry fractions: an odd half adds to the carried half; two halves make a whole hit.
/// - Dice for it: an odd half becomes a whole hit on a d6 of 4–6 (P = 1/2); a die is rolled only when `hits`
///   is odd.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CoverHalving {
    /// Hits before halving.
    pub hits: u32,
    /// Fraction mode.
    pub mode: FractionMode,
    /// Half-hit held before.
    pub carry: bool,
}

/// GRID-CAS-05: the d6 score at which an odd half-hit becomes a whole one in dice-for-fraction mode (Inferred).
pub const FRACTION_DIE_SCORE: u16 = 4;

impl CoverHalving {
    /// The result without dice, when no die is needed (every mode but an odd total under dice-for-fraction).
    #[must_use]
    pub fn without_dice(&self) -> Option<Halved> {
        let h = self.hits;
        match self.mode {
            FractionMode::RoundDown => Some(Halved {
                hits: h / 2,
                carry: self.carry,
            }),
            FractionMode::CarryFractions => {
                let halves = h + u32::from(self.carry);
                Some(Halved {
                    hits: halves / 2,
                    carry: halves % 2 == 1,
                })
            }
            FractionMode::DiceForFraction => h.is_multiple_of(2).then_some(Halved {
                hits: h / 2,
                carry: self.carry,
            }),
        }
    }
}

impl Resolve for CoverHalving {
    type Outcome = Halved;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> Halved {
        match self.without_dice() {
            Some(h) => h,
            None => Halved {
                hits: self.hits / 2 + u32::from(Die::D6.roll(dice) >= FRACTION_DIE_SCORE),
                carry: self.carry,
            },
        }
    }

    fn odds(&self) -> Dist<Halved> {
        match self.without_dice() {
            Some(h) => Dist::certain(h),
            None => Dist::die(Die::D6).map(|&f| Halved {
                hits: self.hits / 2 + u32::from(f >= u32::from(FRACTION_DIE_SCORE)),
                carry: self.carry,
            }),
        }
    }
}

/// GRID-ART-12: hits a silenced battery cancels: half of `hits`, rounded down (default) or up.
#[must_use]
pub fn silenced_cancel(hits: u32, rounding: Rounding) -> u32 {
    rounding.half(hits)
}

/// What recording hits did to a unit (GRID-CAS-02, GRID-CAS-03).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct HitReport {
    /// Hits recorded.
    pub hits: u32,
    /// Stands removed.
    pub stands_removed: u32,
    /// The unit had no stands left and was removed.
    pub destroyed: bool,
    /// Leftover hits afterwards (0 or 1).
    pub leftover: u8,
}

/// GRID-CAS-04: which stand of `unit` goes first: supporting stands (beyond the fighting ones) before fighting
/// ones, then stands without a tenacity marker, then the lowest quality; among equals the last in the owner's
/// order.
#[must_use]
pub fn next_stand_to_remove(unit: &Unit, fighting: u8) -> Option<usize> {
    unit.stands()
        .iter()
        .enumerate()
        .map(|(i, s)| {
            (
                (i < usize::from(fighting), s.tenacity, s.quality_score()),
                i,
            )
        })
        .min_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)))
        .map(|(_, i)| i)
}

impl Battle {
    /// GRID-CAS-01, GRID-CAS-02, GRID-CAS-03, GRID-CAS-04: records `hits` on a unit. All its hits make one
    /// running total; each time it reaches 2 a stand is removed (chosen by [`next_stand_to_remove`]) and 2
    /// come off. A unit with no stands left is destroyed and removed. Lost stands and destroyed units are
    /// counted for the owner (GRID-CAS-08). Hits are never recovered (GRID-CAS-07).
    pub(crate) fn apply_hits(&mut self, id: UnitId, hits: u32) -> Result<HitReport, RuleViolation> {
        let fighting = self.options.scale.fighting_stands();
        let u = self.unit_mut(id)?;
        let side = u.side();
        let per = u32::from(tables::HITS_PER_STAND);
        let mut total = u32::from(u.hits()) + hits;
        let mut removed = 0;
        while total >= per && u.stand_count() > 0 {
            let Some(i) = next_stand_to_remove(u, fighting) else {
                break;
            };
            u.stands_mut().remove(i);
            total -= per;
            removed += 1;
        }
        let destroyed = u.stand_count() == 0;
        let leftover = if destroyed {
            0
        } else {
            total.min(per - 1) as u8
        };
        let half = u.half_hit();
        u.set_hits(leftover, half);
        self.count_losses(side, |l| {
            l.stands_lost += removed;
            if destroyed {
                l.units_destroyed += 1;
            }
        });
        if destroyed {
            self.remove_unit(id);
        }
        Ok(HitReport {
            hits,
            stands_removed: removed,
            destroyed,
            leftover,
        })
    }

    /// GRID-CAS-05: sets the half-hit a unit carries (carry-fractions mode); the halving procedures return it.
    pub(crate) fn set_half_hit(&mut self, id: UnitId, carry: bool) -> Result<(), RuleViolation> {
        let u = self.unit_mut(id)?;
        let h = u.hits();
        u.set_hits(h, carry);
        Ok(())
    }

    /// GRID-CAS-06: the owner removes the tenacity marker of stand `stand` to cancel one leftover hit on its
    /// unit. Refused if the stand has no marker or the unit holds no hit. (In combat, markers cancel hits
    /// before they are recorded: see the combat plan.) Each marker is used once.
    pub fn spend_marker(&mut self, id: UnitId, stand: usize) -> Result<(), RuleViolation> {
        let u = self.unit(id)?;
        let s = u.stands().get(stand).ok_or(RuleViolation::NoSuchStand {
            unit: id,
            index: stand,
        })?;
        if !s.tenacity || u.hits() == 0 {
            return Err(RuleViolation::NoMarker(id));
        }
        let u = self.unit_mut(id)?;
        let half = u.half_hit();
        let h = u.hits() - 1;
        u.set_hits(h, half);
        if let Some(s) = u.stands_mut().get_mut(stand) {
            s.tenacity = false;
        }
        Ok(())
    }

    /// Takes one tenacity marker off a unit to cancel a pending hit (GRID-CAS-06); false if it has none left.
    pub(crate) fn take_marker(&mut self, id: UnitId, stand: usize) -> Result<bool, RuleViolation> {
        let u = self.unit_mut(id)?;
        match u.stands_mut().get_mut(stand) {
            Some(s) if s.tenacity => {
                s.tenacity = false;
                Ok(true)
            }
            Some(_) => Ok(false),
            None => Err(RuleViolation::NoSuchStand {
                unit: id,
                index: stand,
            }),
        }
    }

    /// GRID-CAS-09, GRID-MOV-14: merges unit `from` into unit `into` (same side, same area). Hits are added and
    /// grouped again, which may remove a stand at once; two carried halves make a hit; the merged unit is
    /// disordered if either part was; the unit that stayed keeps its entrenchments.
    pub(crate) fn merge_units(
        &mut self,
        into: UnitId,
        from: UnitId,
    ) -> Result<HitReport, RuleViolation> {
        let a = self.unit(into)?;
        let b = self.unit(from)?;
        if a.side() != b.side() || a.area() != b.area() || into == from {
            return Err(RuleViolation::Inconsistent(
                "only units of one side in one area merge",
            ));
        }
        self.owed_tests.retain(|t| t.unit != from);
        self.owed_retreats.retain(|r| r.unit != from);
        let Some(b) = self.units.remove(&from) else {
            return Err(RuleViolation::UnknownUnit(from));
        };
        let a = self.unit_mut(into)?;
        let halves = u32::from(a.half_hit()) + u32::from(b.half_hit());
        let extra = u32::from(b.hits()) + halves / 2;
        let half = halves % 2 == 1;
        let h = a.hits();
        a.set_hits(h, half);
        if b.disordered() {
            a.set_disordered(true);
        }
        a.stands_mut().extend(b.stands().iter().cloned());
        let bf = b.flags();
        let f = a.flags_mut();
        f.moved |= bf.moved;
        f.attacked |= bf.attacked;
        f.retreated |= bf.retreated;
        f.bombarded |= bf.bombarded;
        self.apply_hits(into, extra)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn silenced_rounding() {
        // GRID-ART-12: 2 → 1, 3 → 1, 4 → 2 rounding down; 3 → 2 rounding up.
        assert_eq!(silenced_cancel(2, Rounding::Down), 1);
        assert_eq!(silenced_cancel(3, Rounding::Down), 1);
        assert_eq!(silenced_cancel(4, Rounding::Down), 2);
        assert_eq!(silenced_cancel(3, Rounding::Up), 2);
    }
}
