//! Structures: buildings, bridges, walls, fences and works; building works; artillery damage by D6 (D8-STR-*).

use crate::options::{Options, StructureHits};
use crate::tables::{Band, Class, GunType, StructureKind};
use acw_core::{Dice, Die, Dist, Resolve};

/// D8-STR-05: a battery's damage roll at a structure: 2D6 an artilleryman for a field gun, 3D6 for a heavy gun;
/// each hit scores 2 points at short range, 1 at long. What a hit is:
/// by default a die meeting the battery's class score (Vet 3+, Exp 4+, Raw 5+); "pips" counts every pip; "4+"
/// any die of 4 or more. The outcome is the damage points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bombard {
    /// D6s rolled (artillerymen × 2 or 3).
    pub dice: u32,
    /// The battery's class.
    pub class: Class,
    /// The range band.
    pub band: Band,
    /// What counts as a hit.
    pub rule: StructureHits,
}

impl Bombard {
    /// D8-STR-05, D8-ART-09: a battery of `gun` with `crew` artillerymen.
    #[must_use]
    pub fn new(gun: GunType, crew: u32, class: Class, band: Band, options: &Options) -> Bombard {
        Bombard {
            dice: crew * gun.dice_per_artilleryman(),
            class,
            band,
            rule: options.structure_hits,
        }
    }

    fn per_hit(&self) -> u32 {
        match self.band {
            Band::Short => 2,
            Band::Long => 1,
        }
    }

    fn hits_on(&self, face: u32) -> u32 {
        match self.rule {
            StructureHits::ClassScore => u32::from(face >= u32::from(self.class.base_score())),
            StructureHits::FourUp => u32::from(face >= 4),
            StructureHits::Pips => face,
        }
    }
}

impl Resolve for Bombard {
    type Outcome = u32;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> u32 {
        (0..self.dice)
            .map(|_| self.hits_on(u32::from(Die::D6.roll(dice))))
            .sum::<u32>()
            * self.per_hit()
    }

    fn odds(&self) -> Dist<u32> {
        if self.dice == 0 {
            return Dist::certain(0);
        }
        let one = Dist::die(Die::D6).map(|&f| self.hits_on(f));
        let k = self.per_hit();
        one.sum_n(self.dice).map(|&h| h * k)
    }
}

/// A structure on the table and the damage it has taken (D8-STR-06, D8-STR-07).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Structure {
    /// What it is.
    pub kind: StructureKind,
    /// Damage points so far.
    pub damage: u32,
}

impl Structure {
    /// D8-STR-07: destroyed once the damage reaches the hit value.
    #[must_use]
    pub fn destroyed(&self) -> bool {
        self.damage >= self.kind.hit_value()
    }
}

/// D8-STR-03: the length of works built, in cm: one base width (1.25 cm for foot) a working figure for every 4
/// whole moves of work (credited at the end of each 4th move).
#[must_use]
pub fn works_built_cm(figures: u32, moves_worked: u32) -> f64 {
    f64::from(figures) * (crate::tables::basing::FOOT.0 / 10.0) * f64::from(moves_worked / 4)
}
