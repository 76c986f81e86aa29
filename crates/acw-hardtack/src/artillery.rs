//! Artillery on the table: canister's dice, round shot's accuracy, deviation and bounces, and damage to
//! every figure in a shot's area.

use crate::fire::{Cover, FirerDice, Impact, Spill};
use crate::ladder::DieType;
use crate::options::{KillThreshold, Options, ShotCover};
use crate::tables::{FieldPiece, Leadership, SHOT_IMPACT};
use acw_core::{Dice, Die, Dist, Resolve};
use std::fmt;

/// Canister's firer dice (HT-ART-14 step 4, HT-ART-15, HT-ART-17): the crew's quality die (up one when a
/// formation shift spilled onto it) and the piece's two canister dice. No D2 rule, skirmish shift or first
/// volley.
pub fn canister_dice(crew: DieType, piece: FieldPiece, spill: Option<Spill>) -> FirerDice {
    let q = match spill {
        Some(Spill::Quality) => crew.shift_closed(1),
        _ => crew,
    };
    let fp = piece.canister_die();
    let fp = match spill {
        Some(Spill::Firepower) => fp.shift_closed(1),
        _ => fp,
    };
    FirerDice::three(q, fp, fp)
}

/// A shot's range under the Artillery Shot Ranges option (HT-OPT-01).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ShotRange {
    /// Short range: +1 on the accuracy roll.
    Short,
    /// Medium range: no change.
    #[default]
    Medium,
    /// Long range: −1 on the accuracy roll.
    Long,
}

impl ShotRange {
    /// The modifier on the accuracy roll (HT-OPT-01).
    #[must_use]
    pub const fn modifier(self) -> i16 {
        match self {
            ShotRange::Short => 1,
            ShotRange::Medium => 0,
            ShotRange::Long => -1,
        }
    }
}

/// Where a shot lands relative to its aim point.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Landing {
    /// On the aim point.
    OnTarget,
    /// Deviated: a clock direction (12 = straight on along the line of fire) and a distance in inches.
    Deviated {
        /// The D12 clock face.
        clock: u8,
        /// Inches.
        inches: u8,
    },
}

impl fmt::Display for Landing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Landing::OnTarget => f.write_str("on the aim point"),
            Landing::Deviated { clock, inches } => {
                write!(f, "{inches}\" off toward {clock} o'clock")
            }
        }
    }
}

/// Round shot's accuracy (HT-SG2-44, HT-ART-06, HT-ART-01, HT-OPT-01): the crew's quality die (±1 by range
/// under Artillery Shot Ranges) must beat its LV; otherwise D12 for the clock direction (12 = along the line
/// of fire) and D8 for the inches, with no multiplier (open sights). Roll order: quality, D12, D8.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ShotAccuracy {
    /// The crew's quality die.
    pub quality: DieType,
    /// The crew's leadership.
    pub lv: Leadership,
    /// The accuracy modifier (0 unless Artillery Shot Ranges is on).
    pub modifier: i16,
}

impl ShotAccuracy {
    /// Accuracy for a crew at a range, with the options' shot-range rule.
    pub const fn new(
        quality: DieType,
        lv: Leadership,
        range: ShotRange,
        options: &Options,
    ) -> ShotAccuracy {
        ShotAccuracy {
            quality,
            lv,
            modifier: if options.artillery_shot_ranges {
                range.modifier()
            } else {
                0
            },
        }
    }

    /// Whether a quality roll hits the aim point.
    #[must_use]
    pub const fn hits(&self, roll: u16) -> bool {
        roll as i16 + self.modifier > self.lv.value()
    }
}

impl Resolve for ShotAccuracy {
    type Outcome = Landing;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> Landing {
        if self.hits(dice.face(self.quality.die())) {
            return Landing::OnTarget;
        }
        let clock = dice.face(Die::D12) as u8;
        let inches = dice.face(Die::D8) as u8;
        Landing::Deviated { clock, inches }
    }
    fn odds(&self) -> Dist<Landing> {
        let f = f64::from(self.quality.faces());
        let hit = (1..=self.quality.faces()).filter(|&r| self.hits(r)).count() as f64 / f;
        let mut v = vec![(Landing::OnTarget, hit)];
        let miss = (1.0 - hit) / 96.0;
        if miss > 0.0 {
            for clock in 1..=12u8 {
                for inches in 1..=8u8 {
                    v.push((Landing::Deviated { clock, inches }, miss));
                }
            }
        }
        Dist::weighted(v).unwrap_or_else(|_| Dist::certain(Landing::OnTarget))
    }
}

/// The impact die at an impact point after `bounces` bounces (HT-ART-08): D10, one type lower per bounce;
/// `None` past D4.
#[must_use]
pub const fn shot_impact(bounces: u8) -> Option<DieType> {
    DieType::from_index(SHOT_IMPACT.index() - bounces as i16)
}

/// The distance of a bounce (HT-ART-11): the first is half the gun's distance to the impact point, rounded
/// down; each later one half the one before, rounded down.
#[must_use]
pub fn bounce_distance(gun_distance: f64, previous_bounce: Option<u32>) -> u32 {
    match previous_bounce {
        Some(p) => p / 2,
        None => {
            if gun_distance.is_finite() && gun_distance > 0.0 {
                (gun_distance / 2.0).floor().min(f64::from(u32::MAX)) as u32
            } else {
                0
            }
        }
    }
}

/// The test for the `k`-th bounce (HT-ART-10, HT-ART-12, HT-OPT-02): the crew's quality die must beat
/// LV + 2k (+2 more for a rifled gun under Rifled Artillery Bounces). No bounce after a D4 impact die (so at
/// most three), and none when the number cannot be beaten (no roll is made then).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BounceTest {
    /// The crew's quality die.
    pub quality: DieType,
    /// The crew's leadership.
    pub lv: Leadership,
    /// Which bounce, 1 to 3.
    pub k: u8,
    /// A rifled gun with Rifled Artillery Bounces on.
    pub rifled: bool,
}

impl BounceTest {
    /// The number to beat.
    #[must_use]
    pub const fn number(&self) -> i16 {
        self.lv.value() + 2 * self.k as i16 + if self.rifled { 2 } else { 0 }
    }

    /// Whether the bounce is possible at all (HT-ART-12 rules 4 and 5).
    #[must_use]
    pub const fn possible(&self) -> bool {
        self.k >= 1 && self.k <= 3 && self.number() < self.quality.faces() as i16
    }
}

impl Resolve for BounceTest {
    type Outcome = bool;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> bool {
        self.possible() && (dice.face(self.quality.die()) as i16) > self.number()
    }
    fn odds(&self) -> Dist<bool> {
        if !self.possible() {
            return Dist::certain(false);
        }
        Dist::die(self.quality.die()).map(|&f| (f as i16) > self.number())
    }
}

/// How many times a shot bounces when the ground allows every bounce (HT-ART-10..12): the bounce tests in
/// turn, stopping at the first failure or after the third. Roll order: one quality die per test made.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ShotBounces {
    /// The crew's quality die.
    pub quality: DieType,
    /// The crew's leadership.
    pub lv: Leadership,
    /// A rifled gun with Rifled Artillery Bounces on.
    pub rifled: bool,
}

impl ShotBounces {
    const fn test(&self, k: u8) -> BounceTest {
        BounceTest {
            quality: self.quality,
            lv: self.lv,
            k,
            rifled: self.rifled,
        }
    }
}

impl Resolve for ShotBounces {
    type Outcome = u8;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> u8 {
        let mut n = 0;
        for k in 1..=3 {
            if !self.test(k).roll(dice) {
                break;
            }
            n = k;
        }
        n
    }
    fn odds(&self) -> Dist<u8> {
        let mut v = Vec::new();
        let mut reach = 1.0;
        for k in 1..=3u8 {
            let p = self.test(k).odds().p(&true);
            v.push((k - 1, reach * (1.0 - p)));
            reach *= p;
        }
        v.push((3, reach));
        Dist::weighted(v).unwrap_or_else(|_| Dist::certain(0))
    }
}

/// The armour shift a figure gets against round shot (HT-ART-08): by default its cover (soft +1, hard +2,
/// fortification per the option); with `shot_cover = WoodsOnly`, +1 for figures in woods only.
#[must_use]
pub const fn shot_armour_shift(cover: Cover, in_woods: bool, options: &Options) -> i16 {
    match options.shot_cover {
        ShotCover::SgiiCover => cover.armour_shift(options.fortification_armour, false),
        ShotCover::WoodsOnly => in_woods as i16,
    }
}

/// Damage to `figures` identical figures in a shot's area (HT-ART-08, HT-SG2-45): each rolls armour against
/// the impact die, no allocation. Outcome (wounded, killed). Roll order: per figure, armour then impact.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AreaDamage {
    /// Impact against each figure.
    pub impact: Impact,
    /// Figures in the area.
    pub figures: u8,
}

impl AreaDamage {
    /// Damage from a shot at its `bounces`-th bounce point against figures of one armour and cover shift.
    #[must_use]
    pub const fn shot(
        bounces: u8,
        armour: DieType,
        armour_shift: i16,
        figures: u8,
        kill: KillThreshold,
    ) -> Option<AreaDamage> {
        match shot_impact(bounces) {
            Some(impact) => Some(AreaDamage {
                impact: Impact {
                    impact,
                    armour,
                    armour_shift,
                    kill,
                },
                figures,
            }),
            None => None,
        }
    }
}

impl Resolve for AreaDamage {
    type Outcome = (u8, u8);
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> (u8, u8) {
        let mut c = (0, 0);
        for _ in 0..self.figures {
            match self.impact.roll(dice) {
                crate::fire::HitResult::Wounded => c.0 += 1,
                crate::fire::HitResult::Killed => c.1 += 1,
                crate::fire::HitResult::NoEffect => {}
            }
        }
        c
    }
    fn odds(&self) -> Dist<(u8, u8)> {
        let p = self.impact.probabilities();
        let one = Dist::weighted([((0u8, 0u8), p[0]), ((1, 0), p[1]), ((0, 1), p[2])])
            .unwrap_or_else(|_| Dist::certain((0, 0)));
        let mut acc = Dist::certain((0u8, 0u8));
        for _ in 0..self.figures {
            acc = acc.product(&one).map(|(a, b)| (a.0 + b.0, a.1 + b.1));
        }
        acc
    }
}
