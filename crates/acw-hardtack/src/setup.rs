//! Before the game: scale, organisation, random quality counters, under-strength units, and terrain.

use crate::error::SetupError;
use crate::fire::Cover;
use crate::tables::{Leadership, Quality};
use acw_core::{Dice, Die, Dist, Resolve};
use std::fmt;

/// The figure scale (HT-SET-01): men per figure, 3 to 5. Ground scale is 1" = 10 yards.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "u8", into = "u8"))]
pub struct MenPerFigure(u8);

impl MenPerFigure {
    /// 3, 4 or 5 men per figure; anything else is refused.
    pub const fn new(men: u8) -> Result<MenPerFigure, SetupError> {
        if men >= 3 && men <= 5 {
            Ok(MenPerFigure(men))
        } else {
            Err(SetupError::Scale(men))
        }
    }

    /// Men per figure.
    #[must_use]
    pub const fn men(self) -> u8 {
        self.0
    }

    /// The most figures a row of a column may have on a road (HT-FRM-05): 3 at 1:3, 2 at 1:4 or 1:5.
    #[must_use]
    pub const fn road_column_width(self) -> u8 {
        if self.0 == 3 { 3 } else { 2 }
    }
}

impl Default for MenPerFigure {
    fn default() -> Self {
        MenPerFigure(3)
    }
}

impl TryFrom<u8> for MenPerFigure {
    type Error = SetupError;
    fn try_from(v: u8) -> Result<Self, Self::Error> {
        MenPerFigure::new(v)
    }
}

impl From<MenPerFigure> for u8 {
    fn from(m: MenPerFigure) -> u8 {
        m.0
    }
}

/// Table inches for a real distance in yards (HT-SET-01): 1" = 10 yards. Refuses negative, infinite or NaN.
pub fn yards_to_inches(yards: f64) -> Result<f64, SetupError> {
    if !yards.is_finite() || yards < 0.0 {
        return Err(SetupError::BadLength {
            what: "distance in yards",
            value: yards,
        });
    }
    Ok(yards / 10.0)
}

/// Hardtack's organisation and its Stargrunt II equivalent (HT-SET-02).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Echelon {
    /// An infantry or cavalry company (6–12 figures).
    Company,
    /// A regiment of 2–16 companies.
    Regiment,
    /// A brigade of 2–6 regiments.
    Brigade,
    /// A gun and its crew.
    Gun,
    /// A battery of guns.
    Battery,
}

impl Echelon {
    /// The Stargrunt II unit every rule written for it applies to (HT-SET-02).
    #[must_use]
    pub const fn sgii(self) -> &'static str {
        match self {
            Echelon::Company => "squad",
            Echelon::Regiment => "platoon",
            Echelon::Brigade => "company",
            Echelon::Gun => "artillery piece and crew squad",
            Echelon::Battery => "artillery battery",
        }
    }

    /// The number of parts it is built from (HT-SET-03, HT-SET-05): figures in a company, companies in a
    /// regiment, regiments in a brigade, crew figures of a gun, guns in a battery.
    #[must_use]
    pub const fn parts(self) -> (u32, u32) {
        match self {
            Echelon::Company => (6, 12),
            Echelon::Regiment => (2, 16),
            Echelon::Brigade => (2, 6),
            Echelon::Gun => (2, 3),
            Echelon::Battery => (2, 6),
        }
    }
}

impl fmt::Display for Echelon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Echelon::Company => "company",
            Echelon::Regiment => "regiment",
            Echelon::Brigade => "brigade",
            Echelon::Gun => "gun",
            Echelon::Battery => "battery",
        })
    }
}

/// Horse holders when a cavalry company of `figures` dismounts (HT-SET-04, HT-FRM-13): one per four
/// figures, rounded up.
#[must_use]
pub const fn horse_holders(figures: usize) -> usize {
    figures.div_ceil(4)
}

/// The war year of a random draw of quality counters (HT-SET-08).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum WarYear {
    /// 1861: Green and Regular counters only.
    Early,
    /// 1862 on: Green, Regular and Veteran.
    Later,
}

/// Stargrunt II's counter mix (HT-SG2-01): per quality, the counters of LV 1, 2 and 3.
pub const COUNTERS: [(Quality, [u32; 3]); 5] = [
    (Quality::Untrained, [3, 4, 3]),
    (Quality::Green, [5, 8, 5]),
    (Quality::Regular, [8, 12, 8]),
    (Quality::Veteran, [6, 7, 5]),
    (Quality::Elite, [4, 4, 2]),
];

/// A random quality counter (HT-SET-08): drawn from the Stargrunt II mix restricted to Green and Regular in
/// 1861, to Green, Regular and Veteran later; each counter equally likely (with replacement).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct QualityDraw {
    /// The year.
    pub year: WarYear,
}

impl QualityDraw {
    fn pool(&self) -> impl Iterator<Item = (Quality, Leadership, u32)> + '_ {
        COUNTERS
            .iter()
            .filter(move |(q, _)| match self.year {
                WarYear::Early => matches!(q, Quality::Green | Quality::Regular),
                WarYear::Later => matches!(q, Quality::Green | Quality::Regular | Quality::Veteran),
            })
            .flat_map(|(q, lvs)| {
                [Leadership::ONE, Leadership::TWO, Leadership::THREE]
                    .into_iter()
                    .zip(lvs.iter().copied())
                    .map(move |(lv, n)| (*q, lv, n))
            })
    }
}

impl Resolve for QualityDraw {
    type Outcome = (Quality, Leadership);
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> (Quality, Leadership) {
        let total: u32 = self.pool().map(|(_, _, n)| n).sum();
        let mut pick = u32::try_from(dice.index(total as usize)).unwrap_or(0);
        for (q, lv, n) in self.pool() {
            if pick < n {
                return (q, lv);
            }
            pick -= n;
        }
        (Quality::Regular, Leadership::TWO)
    }
    fn odds(&self) -> Dist<(Quality, Leadership)> {
        Dist::weighted(self.pool().map(|(q, lv, n)| ((q, lv), f64::from(n))))
            .unwrap_or_else(|_| Dist::certain((Quality::Regular, Leadership::TWO)))
    }
}

/// Fatigue's die for the under-strength roll (HT-SG2-52): Fresh D10, Tired D8, Exhausted D6; each 1 removes
/// the figure. The outcome is the number removed from `figures`.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct UnderStrength {
    /// The company's fatigue.
    pub fatigue: crate::tables::Fatigue,
    /// Its figures before the roll.
    pub figures: u8,
}

impl UnderStrength {
    const fn die(&self) -> Die {
        match self.fatigue {
            crate::tables::Fatigue::Fresh => Die::D10,
            crate::tables::Fatigue::Tired => Die::D8,
            crate::tables::Fatigue::Exhausted => Die::D6,
        }
    }
}

impl Resolve for UnderStrength {
    type Outcome = u8;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> u8 {
        let die = self.die();
        (0..self.figures).filter(|_| dice.face(die) == 1).count() as u8
    }
    fn odds(&self) -> Dist<u8> {
        let p = 1.0 / f64::from(self.die().sides());
        Dist::binomial(u32::from(self.figures), p)
            .map(|d| d.map(|&k| k as u8))
            .unwrap_or_else(|_| Dist::certain(0))
    }
}

/// Terrain (HT-SET-14): Stargrunt II's types and Hardtack's linear obstacles and abatis.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Terrain {
    /// Open ground.
    Open,
    /// Light scrub.
    LightScrub,
    /// Slopes.
    Slopes,
    /// Roads.
    Road,
    /// Rough ground.
    Rough,
    /// Cultivated fields.
    Cultivated,
    /// Swamp.
    Swamp,
    /// Light or open woods.
    LightWoods,
    /// Dense woods.
    DenseWoods,
    /// Stone walls, fences, earthworks.
    LinearObstacle,
    /// Rivers and streams.
    Stream,
    /// Felled trees.
    Abatis,
    /// Open water.
    OpenWater,
}

/// A terrain's movement class (HT-SG2-22): inches of movement spent per inch moved.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Going {
    /// ×1.
    #[default]
    Clear,
    /// ×2.
    Poor,
    /// ×3.
    Difficult,
    /// No entry.
    Impassable,
}

impl Going {
    /// Movement spent per inch (HT-SG2-22); `None` for impassable ground.
    #[must_use]
    pub const fn cost(self) -> Option<u8> {
        match self {
            Going::Clear => Some(1),
            Going::Poor => Some(2),
            Going::Difficult => Some(3),
            Going::Impassable => None,
        }
    }
}

/// Who crosses the terrain (HT-MOV-05).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Crosser {
    /// Infantry and dismounted cavalry.
    Foot,
    /// Mounted cavalry.
    Mounted,
    /// Limbered artillery and horse teams.
    Limbered,
    /// Unlimbered artillery.
    Unlimbered,
}

impl Terrain {
    /// The movement class for a crosser (HT-MOV-05).
    pub const fn going(self, who: Crosser) -> Going {
        use Crosser::{Foot, Limbered, Mounted, Unlimbered};
        use Going::{Clear, Difficult, Impassable, Poor};
        match (self, who) {
            (Terrain::Open | Terrain::LightScrub | Terrain::Road, _) => Clear,
            (Terrain::Slopes, Unlimbered) => Poor,
            (Terrain::Slopes, _) => Clear,
            (Terrain::Rough | Terrain::Cultivated, _) => Poor,
            (Terrain::Swamp, Foot | Mounted) => Poor,
            (Terrain::Swamp, Limbered) => Difficult,
            (Terrain::Swamp, Unlimbered) => Impassable,
            (Terrain::LightWoods, Foot | Mounted) => Poor,
            (Terrain::LightWoods, _) => Difficult,
            (Terrain::DenseWoods, Foot) => Poor,
            (Terrain::DenseWoods, Mounted) => Difficult,
            (Terrain::DenseWoods, _) => Impassable,
            (Terrain::LinearObstacle, Foot | Mounted) => Poor,
            (Terrain::LinearObstacle, _) => Impassable,
            (Terrain::Stream, Foot | Mounted) => Difficult,
            (Terrain::Stream, _) => Impassable,
            (Terrain::Abatis, Foot) => Difficult,
            (Terrain::Abatis, _) => Impassable,
            (Terrain::OpenWater, _) => Impassable,
        }
    }

    /// Whether moving through it disorders a close formation (HT-MOV-06, HT-FRM-09).
    #[must_use]
    pub const fn disorders(self) -> bool {
        matches!(
            self,
            Terrain::DenseWoods | Terrain::Swamp | Terrain::Stream | Terrain::Abatis
        )
    }

    /// Whether round shot may bounce here (HT-ART-10, HT-ENV-01): open ground or road, and the ground not
    /// wet, muddy or snow-covered.
    #[must_use]
    pub const fn allows_bounce(self, soft_ground: bool) -> bool {
        matches!(self, Terrain::Open | Terrain::Road) && !soft_ground
    }
}

/// A cover feature and the cover it gives (HT-SET-14, HT-SG2-13, HT-FIR-06).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Feature {
    /// A wooden fence: soft.
    WoodenFence,
    /// A wood's edge, light cover, bushes: soft.
    WoodEdge,
    /// A stone wall: hard.
    StoneWall,
    /// An entrenchment without a head log: hard, as Stargrunt II's field defences (HT-SG2-15).
    Entrenchment,
    /// Earth-and-log works with a head log, or a blockhouse with firing slits: fortification.
    HeadLoggedWorks,
}

impl Feature {
    /// The cover (HT-SET-14).
    pub const fn cover(self) -> Cover {
        match self {
            Feature::WoodenFence | Feature::WoodEdge => Cover::Soft,
            Feature::StoneWall | Feature::Entrenchment => Cover::Hard,
            Feature::HeadLoggedWorks => Cover::Fortification,
        }
    }
}
