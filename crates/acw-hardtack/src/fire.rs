//! Fire on the Stargrunt II core: the range die, the firer's dice, potential hits, impact against armour,
//! allocation, and the whole chain from the first roll to the casualties.
//!
//! - [`range_die`]: band, then the fixed order of shifts (HT-FIR-03/04).
//! - [`firer_dice`]: the firepower total to a die, the D2 rule, skirmish and first-volley shifts (HT-FIR-08/09/10).
//! - [`FireDice`]: the multiple opposed roll and the potential hits (HT-SG2-30/31).
//! - [`Impact`]: one potential hit against one figure's armour (HT-SG2-32, HT-FIR-18).
//! - [`Volley`]: the chain — fire, potential hits, allocation, impact per hit — to killed and wounded.

use crate::error::SetupError;
use crate::ladder::{DieType, RangeIndex, Success};
use crate::options::{
    FormationSpill, FortificationArmour, FpDieRounding, KillThreshold, Options, RangeOverflow,
};
use acw_core::{Dice, Dist, Resolve};
use std::fmt;

/// Cover between the firer and the target (HT-SG2-13, HT-FIR-06).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Cover {
    /// No cover.
    #[default]
    Open,
    /// Soft cover (fences, bushes, wood edges): range +1, armour +1.
    Soft,
    /// Hard cover (walls, entrenchments): range +2, armour +2.
    Hard,
    /// Fortification (head-logged works, blockhouses): range +3; armour per [`FortificationArmour`].
    Fortification,
}

impl Cover {
    /// The range-die shift (HT-SG2-13, HT-FIR-06).
    #[must_use]
    pub const fn range_shift(self) -> i16 {
        match self {
            Cover::Open => 0,
            Cover::Soft => 1,
            Cover::Hard => 2,
            Cover::Fortification => 3,
        }
    }

    /// The armour-die shift (HT-SG2-13, HT-FIR-06, HT-INT-22); `burst` for case and spherical case.
    #[must_use]
    pub const fn armour_shift(self, fortification: FortificationArmour, burst: bool) -> i16 {
        match self {
            Cover::Open => 0,
            Cover::Soft => 1,
            Cover::Hard => 2,
            Cover::Fortification => match fortification {
                FortificationArmour::Plus3 => 3,
                FortificationArmour::Plus2 => 2,
                FortificationArmour::HardPlusIp => {
                    if burst {
                        3
                    } else {
                        2
                    }
                }
            },
        }
    }
}

impl fmt::Display for Cover {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Cover::Open => "the open",
            Cover::Soft => "soft cover",
            Cover::Hard => "hard cover",
            Cover::Fortification => "a fortification",
        })
    }
}

/// Which kind of fire computes a range die: it decides the smoothbore shift and where a formation spill goes.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum FireKind {
    /// Company small arms.
    SmallArms,
    /// Canister from a gun.
    Canister,
}

/// The measured and known facts of one fire that set its range die (HT-FIR-03/04).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RangeFacts {
    /// Distance from the firer's centre to the target's centre, in inches.
    pub distance: f64,
    /// The band size in inches: the firer's quality band, or the gun's canister band.
    pub band: f64,
    /// Smoothbore small arms (HT-FIR-05).
    pub smoothbore: bool,
    /// The target's cover, including cover given by enemy skirmishers fired through (HT-FIR-23).
    pub cover: Cover,
    /// The target is In Position (HT-SG2-14).
    pub in_position: bool,
    /// The target is a lone independent figure (HT-FIR-13).
    pub lone_figure: bool,
    /// Most firing figures are mounted (HT-FIR-12).
    pub mounted_firers: bool,
    /// Prepared Fire (HT-OPT-21).
    pub prepared: bool,
    /// Canister blast-through: damaged companies in front (HT-ART-19).
    pub blast_through: u8,
    /// The target is in travel mode (HT-SG2-23).
    pub travel_mode: bool,
    /// The target company is in line or column (HT-FIR-07).
    pub close_formation_target: bool,
}

impl RangeFacts {
    /// Facts for a target at `distance` with a band of `band`, in the open and with nothing else.
    pub const fn at(distance: f64, band: f64) -> RangeFacts {
        RangeFacts {
            distance,
            band,
            smoothbore: false,
            cover: Cover::Open,
            in_position: false,
            lone_figure: false,
            mounted_firers: false,
            prepared: false,
            blast_through: 0,
            travel_mode: false,
            close_formation_target: false,
        }
    }

    /// The range band: `max(1, ceil(distance / band))` (HT-GEN-04). A distance exactly on a multiple counts
    /// in the lower band. Refuses negative, infinite or NaN lengths and a band of zero.
    pub fn band_number(&self) -> Result<u32, SetupError> {
        if !self.distance.is_finite() || self.distance < 0.0 {
            return Err(SetupError::BadLength {
                what: "distance",
                value: self.distance,
            });
        }
        if !self.band.is_finite() || self.band <= 0.0 {
            return Err(SetupError::BadLength {
                what: "band",
                value: self.band,
            });
        }
        let b = (self.distance / self.band).ceil();
        // Distances are table lengths: a band count beyond u32 is simply out of reach.
        Ok(if b < 1.0 {
            1
        } else if b > 1000.0 {
            1000
        } else {
            b as u32
        })
    }
}

/// Which firer die a formation shift spilled onto (HT-FIR-07).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Spill {
    /// The firer's firepower die goes up one.
    Firepower,
    /// The firer's quality die goes up one.
    Quality,
}

/// A computed range die.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RangeDie {
    /// The fire can have no effect: the die went beyond D12, or a close-range weapon is beyond the first band.
    OutOfReach,
    /// The die the target rolls, and a spill onto the firer's dice.
    Die {
        /// The range die.
        die: DieType,
        /// A formation shift that went below D4 and raises a firer die instead.
        spill: Option<Spill>,
    },
}

/// The range die (HT-SG2-28, HT-FIR-03, HT-FIR-04): band, then smoothbore (HT-FIR-05), cover (incl.
/// fortification, HT-FIR-06), In Position, lone figure (HT-FIR-13, HT-SG2-26), mounted firers (HT-FIR-12), prepared
/// fire, blast-through; the overflow check; travel mode; the formation shift (HT-FIR-07, open, spilling onto
/// the firepower die for small arms and the quality die for canister, HT-ART-17). Close-range-only weapons
/// (HT-FIR-14) reach the first band only; pass `close_range_only` for them.
pub fn range_die(
    facts: &RangeFacts,
    kind: FireKind,
    close_range_only: bool,
    options: &Options,
) -> Result<RangeDie, SetupError> {
    let band = facts.band_number()?;
    if close_range_only && band > 1 {
        return Ok(RangeDie::OutOfReach);
    }
    let band = i16::try_from(band.min(100)).unwrap_or(100);
    let mut i = band;
    if kind == FireKind::SmallArms && facts.smoothbore && band >= 2 {
        i += 1;
    }
    i += facts.cover.range_shift();
    if facts.in_position && facts.cover != Cover::Fortification {
        i += 1;
    }
    i += i16::from(facts.lone_figure);
    if kind == FireKind::SmallArms {
        i += i16::from(facts.mounted_firers);
    }
    i += i16::from(facts.prepared);
    i += i16::from(facts.blast_through);
    if options.range_overflow == RangeOverflow::Sequential && i > 5 {
        return Ok(RangeDie::OutOfReach);
    }
    if facts.travel_mode {
        i = (i - 1).max(1);
    }
    let mut spill = None;
    if facts.close_formation_target {
        if i <= 1 {
            spill = Some(match (options.formation_spill, kind) {
                (FormationSpill::AlwaysFirepower, _)
                | (FormationSpill::PerSection, FireKind::SmallArms) => Spill::Firepower,
                _ => Spill::Quality,
            });
        } else {
            i -= 1;
        }
    }
    Ok(match RangeIndex(i).die() {
        Some(die) => RangeDie::Die { die, spill },
        None => RangeDie::OutOfReach,
    })
}

/// What sets a company's firepower and quality dice (HT-FIR-08).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FirepowerFacts {
    /// The firer's quality die.
    pub quality: DieType,
    /// Total firepower of the figures firing, in half points (a musket is 2, a pistol 1).
    pub half_fp: u32,
    /// The company is in skirmish formation (HT-FIR-10).
    pub skirmish: bool,
    /// The company fires its first volley (HT-OPT-12).
    pub first_volley: bool,
    /// A formation shift spilled onto a firer die (HT-FIR-07).
    pub spill: Option<Spill>,
}

/// The firer's quality and firepower dice, and whether a first volley lowered the range die.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FirerPair {
    /// The quality die, after the D2 rule and a spill.
    pub quality: DieType,
    /// The firepower die.
    pub firepower: DieType,
    /// First Volley found the firepower die at D12: the range die goes down one (closed).
    pub range_down: bool,
}

/// The firepower total (in half points) as a die index, 0 standing for the virtual D2 (HT-SG2-29, HT-FIR-09,
/// HT-INT-06).
fn fp_index(half_fp: u32, rounding: FpDieRounding) -> i16 {
    if half_fp <= 4 {
        return 0;
    }
    match rounding {
        FpDieRounding::RoundUp => {
            let whole = half_fp.div_ceil(2);
            match whole {
                0..=4 => 1,
                5..=6 => 2,
                7..=8 => 3,
                9..=10 => 4,
                _ => 5,
            }
        }
        FpDieRounding::RoundDownOddMinD4 => {
            let even = (half_fp / 4) * 2;
            match even {
                0..=4 => 1,
                6 => 2,
                8 => 3,
                10 => 4,
                _ => 5,
            }
        }
    }
}

/// The firer's dice (HT-SG2-29, HT-FIR-08): total to a die rounding up; a total of 2 or less is the "D2"
/// (HT-FIR-09): a D4 firepower die with the quality die one lower; skirmishers shift the firepower die down
/// one (HT-FIR-10, closed); a first volley up one (HT-OPT-12, open onto the range die); a formation spill
/// raises the named die (HT-FIR-07, closed). Refuses a total of zero.
///
/// HT-FIR-11 is a number the rules hold for First Volley firepower and fill with nothing of their own: the
/// first-volley step above is that rule, played only when the advanced rule is in use (`Options::first_volley`;
/// `FirepowerFacts::first_volley` is false otherwise), so without it the firepower die never moves.
pub fn firer_dice(facts: &FirepowerFacts, options: &Options) -> Result<FirerPair, SetupError> {
    if facts.half_fp == 0 {
        return Err(SetupError::NoFirepower);
    }
    let raw = fp_index(facts.half_fp, options.fp_die_rounding);
    let mut quality = facts.quality;
    let (mut i, floor) = if options.d2_ladder {
        (raw, 0)
    } else {
        if raw == 0 {
            quality = quality.shift_closed(-1);
        }
        (raw.max(1), 1)
    };
    if facts.skirmish {
        i = (i - 1).max(floor);
    }
    let mut range_down = false;
    if facts.first_volley {
        if i >= 5 {
            range_down = true;
        } else {
            i += 1;
        }
    }
    match facts.spill {
        Some(Spill::Firepower) => i = (i + 1).min(5),
        Some(Spill::Quality) => quality = quality.shift_closed(1),
        None => {}
    }
    if options.d2_ladder && i == 0 {
        quality = quality.shift_closed(-1);
    }
    let firepower = DieType::from_index(i.max(1)).unwrap_or(DieType::D4);
    Ok(FirerPair {
        quality,
        firepower,
        range_down,
    })
}

/// The firer's dice of one fire: two to four dice (quality, firepower or canister dice, Gatling guns).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "Vec<DieType>", into = "Vec<DieType>")
)]
#[must_use]
pub struct FirerDice {
    dice: [DieType; 4],
    count: u8,
}

impl FirerDice {
    /// Two to four dice; other counts are refused.
    pub fn new(dice: &[DieType]) -> Result<FirerDice, SetupError> {
        if !(2..=4).contains(&dice.len()) {
            return Err(SetupError::FirerDice(dice.len()));
        }
        let mut d = [DieType::D4; 4];
        d[..dice.len()].copy_from_slice(dice);
        Ok(FirerDice {
            dice: d,
            count: dice.len() as u8,
        })
    }

    /// Two dice (quality and firepower).
    pub const fn two(a: DieType, b: DieType) -> FirerDice {
        FirerDice {
            dice: [a, b, DieType::D4, DieType::D4],
            count: 2,
        }
    }

    /// Three dice (a crew's quality and two canister dice; or quality, firepower and a Gatling gun).
    pub const fn three(a: DieType, b: DieType, c: DieType) -> FirerDice {
        FirerDice {
            dice: [a, b, c, DieType::D4],
            count: 3,
        }
    }

    /// The dice, in rolling order.
    pub fn as_slice(&self) -> &[DieType] {
        &self.dice[..usize::from(self.count)]
    }
}

impl TryFrom<Vec<DieType>> for FirerDice {
    type Error = SetupError;
    fn try_from(v: Vec<DieType>) -> Result<Self, Self::Error> {
        FirerDice::new(&v)
    }
}

impl From<FirerDice> for Vec<DieType> {
    fn from(d: FirerDice) -> Vec<DieType> {
        d.as_slice().to_vec()
    }
}

impl fmt::Display for FirerDice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.as_slice().iter().enumerate() {
            if i > 0 {
                f.write_str(" + ")?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

/// The fire roll proper: the firer's dice against the range die, then the potential hits (HT-SG2-30,
/// HT-SG2-31, HT-FIR-17). Roll order: the range die, each firer die, then the remainder re-roll of the range
/// die when there is one.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FireDice {
    /// The firer's dice.
    pub firer: FirerDice,
    /// The target's range die (after every shift).
    pub range: DieType,
}

/// The outcome of [`FireDice`].
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FireEffect {
    /// No effect, minor (the fired-on test only) or major (potential hits).
    pub success: Success,
    /// Potential hits (0 unless major).
    pub potential: u8,
}

impl fmt::Display for FireEffect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.success {
            Success::Major => write!(
                f,
                "a major result with {} potential {}",
                self.potential,
                if self.potential == 1 {
                    "casualty"
                } else {
                    "casualties"
                }
            ),
            other => write!(f, "{other}"),
        }
    }
}

/// Potential hits from the firer's sum against a range die: `floor(S/F)`, and one more with chance `rem/F`
/// (HT-SG2-31). Returns (certain hits, remainder).
#[must_use]
pub const fn potential_hits(sum: u32, range: DieType) -> (u32, u32) {
    let f = range.faces() as u32;
    (sum / f, sum % f)
}

impl FireDice {
    pub(crate) fn roll_effect<D: Dice + ?Sized>(&self, dice: &mut D) -> FireEffect {
        let r = dice.face(self.range.die());
        let mut exceed = 0u32;
        let mut sum = 0u32;
        for d in self.firer.as_slice() {
            let x = dice.face(d.die());
            sum += u32::from(x);
            exceed += u32::from(x > r);
        }
        let success = Success::from_count(exceed);
        let potential = if success == Success::Major {
            let (n, rem) = potential_hits(sum, self.range);
            let extra = rem > 0 && u32::from(dice.face(self.range.die())) <= rem;
            n + u32::from(extra)
        } else {
            0
        };
        FireEffect {
            success,
            potential: u8::try_from(potential).unwrap_or(u8::MAX),
        }
    }

    /// The joint distribution of (dice beating the range roll, capped at 2; sum of the firer's dice), by range
    /// roll and then by key. Each die's step adds its chances into a grid by key, in the order a sort by key and
    /// merge of the same list would add them, and reads the grid back in key order: the same chances to the last
    /// bit (a test holds this against the sorted merge).
    fn joint(&self) -> Vec<((u8, u32), f64)> {
        let rf = self.range.faces();
        let sums = self
            .firer
            .as_slice()
            .iter()
            .map(|d| usize::from(d.faces()))
            .sum::<usize>()
            + 1;
        // (exceed capped at 2, sum) at exceed * sums + sum
        let mut grid = vec![0.0f64; 3 * sums];
        let mut reached = vec![false; 3 * sums];
        let mut out: Vec<((u8, u32), f64)> = Vec::new();
        let mut cur: Vec<((u8, u32), f64)> = Vec::new();
        for r in 1..=rf {
            cur.clear();
            cur.push(((0, 0), 1.0 / f64::from(rf)));
            for d in self.firer.as_slice() {
                let faces = d.faces();
                let p = 1.0 / f64::from(faces);
                for &((e, s), q) in &cur {
                    for x in 1..=faces {
                        let e2 = (e + u8::from(x > r)).min(2);
                        let i = usize::from(e2) * sums + s as usize + usize::from(x);
                        grid[i] += q * p;
                        reached[i] = true;
                    }
                }
                cur.clear();
                for (i, (g, hit)) in grid.iter_mut().zip(reached.iter_mut()).enumerate() {
                    if *hit {
                        let (e, s) = (i / sums, i % sums);
                        cur.push(((u8::try_from(e).unwrap_or(2), s as u32), *g));
                        *g = 0.0;
                        *hit = false;
                    }
                }
            }
            out.extend_from_slice(&cur);
        }
        out
    }
}

impl Resolve for FireDice {
    type Outcome = FireEffect;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> FireEffect {
        self.roll_effect(dice)
    }

    fn odds(&self) -> Dist<FireEffect> {
        let f = u32::from(self.range.faces());
        let mut v: Vec<(FireEffect, f64)> = Vec::new();
        for ((e, s), p) in self.joint() {
            let success = Success::from_count(u32::from(e));
            if success != Success::Major {
                v.push((
                    FireEffect {
                        success,
                        potential: 0,
                    },
                    p,
                ));
                continue;
            }
            let (n, rem) = (s / f, s % f);
            let pe = f64::from(rem) / f64::from(f);
            let mk = |k: u32| FireEffect {
                success,
                potential: u8::try_from(k).unwrap_or(u8::MAX),
            };
            v.push((mk(n + 1), p * pe));
            v.push((mk(n), p * (1.0 - pe)));
        }
        Dist::weighted(v).unwrap_or_else(|_| {
            Dist::certain(FireEffect {
                success: Success::Fail,
                potential: 0,
            })
        })
    }
}

/// The result of one potential hit against one figure (HT-SG2-32, HT-FIR-18).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum HitResult {
    /// Impact did not beat armour.
    NoEffect,
    /// Impact beat armour: wounded.
    Wounded,
    /// Impact of double the armour (or more than double, by option): killed.
    Killed,
}

impl fmt::Display for HitResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HitResult::NoEffect => "no effect",
            HitResult::Wounded => "wounded",
            HitResult::Killed => "killed",
        })
    }
}

/// Classifies an impact roll against an armour roll (HT-SG2-32, HT-FIR-18, HT-CAS-02, HT-INT-01).
pub const fn classify_impact(impact: u16, armour: u16, kill: KillThreshold) -> HitResult {
    if impact <= armour {
        HitResult::NoEffect
    } else {
        let killed = match kill {
            KillThreshold::DoubleOrMore => impact >= 2 * armour,
            KillThreshold::MoreThanDouble => impact > 2 * armour,
        };
        if killed {
            HitResult::Killed
        } else {
            HitResult::Wounded
        }
    }
}

/// One potential hit: impact die against the figure's armour die (HT-SG2-32, HT-FIR-18). The armour shift
/// (cover) is **open**: armour pushed past D12 lowers the impact die. Roll order: armour, then impact.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Impact {
    /// The impact die.
    pub impact: DieType,
    /// The figure's armour die before cover.
    pub armour: DieType,
    /// Cover's shift on the armour die.
    pub armour_shift: i16,
    /// When impact kills.
    pub kill: KillThreshold,
}

impl Impact {
    /// The impact and armour dice actually rolled, after the open armour shift.
    pub const fn dice(&self) -> (DieType, DieType) {
        let s = self.armour.shift_open(self.armour_shift);
        (s.onto(self.impact), s.die)
    }

    /// The probabilities of (no effect, wounded, killed).
    #[must_use]
    pub fn probabilities(&self) -> [f64; 3] {
        let (i, a) = self.dice();
        let mut p = [0.0; 3];
        let w = 1.0 / f64::from(i.faces() * a.faces());
        for ar in 1..=a.faces() {
            for ir in 1..=i.faces() {
                p[classify_impact(ir, ar, self.kill) as usize] += w;
            }
        }
        p
    }
}

impl Resolve for Impact {
    type Outcome = HitResult;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> HitResult {
        let (i, a) = self.dice();
        let ar = dice.face(a.die());
        let ir = dice.face(i.die());
        classify_impact(ir, ar, self.kill)
    }

    fn odds(&self) -> Dist<HitResult> {
        let p = self.probabilities();
        Dist::weighted([
            (HitResult::NoEffect, p[0]),
            (HitResult::Wounded, p[1]),
            (HitResult::Killed, p[2]),
        ])
        .unwrap_or_else(|_| Dist::certain(HitResult::NoEffect))
    }
}

/// The most figures an allocation pool may hold.
pub const MAX_POOL: usize = 48;
/// The most potential hits a single fire can produce (four D12s against a D4).
pub const MAX_HITS: usize = 13;

/// The allocation die for a pool of `n` figures (HT-SG2-33): the die nearest the count, or `None` above 12
/// figures, where the pick is uniform.
#[must_use]
pub const fn allocation_die(n: usize) -> Option<DieType> {
    match n {
        0..=4 => Some(DieType::D4),
        5..=6 => Some(DieType::D6),
        7..=8 => Some(DieType::D8),
        9..=10 => Some(DieType::D10),
        11..=12 => Some(DieType::D12),
        _ => None,
    }
}

/// Rolls which figure of a pool of `n` (`n ≥ 1`) a hit falls on (HT-SG2-33, HT-FIR-19): count along from the
/// first figure, wrapping round. A single figure needs no roll. A pool of more than twelve (a company with
/// the skirmishers fired through, HT-FIR-23) picks uniformly with a die of `n` sides, which a player at the
/// table can be asked to throw like any other.
pub fn allocate<D: Dice + ?Sized>(n: usize, dice: &mut D) -> usize {
    if n <= 1 {
        return 0;
    }
    match allocation_die(n) {
        Some(d) => usize::from(dice.face(d.die()).saturating_sub(1)) % n,
        None => match u16::try_from(n)
            .ok()
            .and_then(|s| acw_core::Die::new(s).ok())
        {
            Some(d) => usize::from(dice.face(d).saturating_sub(1)) % n,
            None => dice.index(n) % n,
        },
    }
}

/// The chance each figure of a pool of `n` takes a hit (HT-SG2-33).
#[must_use]
pub fn allocation_odds(n: usize) -> Vec<f64> {
    if n <= 1 {
        return vec![1.0; n];
    }
    match allocation_die(n) {
        Some(d) => {
            let f = usize::from(d.faces());
            let mut p = vec![0.0; n];
            for r in 0..f {
                p[r % n] += 1.0 / f as f64;
            }
            p
        }
        None => vec![1.0 / n as f64; n],
    }
}

/// One fire from the first roll to its casualties (HT-FIR-01 steps 4–7): the fire roll ([`FireDice`]), each
/// potential hit allocated to a figure of the pool (HT-FIR-19) and rolled against armour ([`Impact`]); two
/// wounds on one figure kill it (HT-CAS-07). Roll order: the fire roll, then per hit the allocation die,
/// armour, impact.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Volley {
    /// The fire roll.
    pub fire: FireDice,
    /// Impact against the pool's armour (one armour for the whole pool).
    pub impact: Impact,
    /// Figures that can be allocated hits (1 to [`MAX_POOL`]).
    pub pool: u8,
}

/// The final result of a [`Volley`].
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct VolleyOutcome {
    /// The fire roll's result.
    pub effect: FireEffect,
    /// Figures wounded.
    pub wounded: u8,
    /// Figures killed.
    pub killed: u8,
}

impl VolleyOutcome {
    /// Casualties: killed and wounded.
    #[must_use]
    pub const fn casualties(&self) -> u8 {
        self.wounded + self.killed
    }
}

impl fmt::Display for VolleyOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} killed, {} wounded",
            self.effect, self.killed, self.wounded
        )
    }
}

/// One hit of a rolled volley: the figure (index in the pool) and what it did.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HitRecord {
    /// The figure's place in the pool.
    pub figure: u8,
    /// The impact result.
    pub result: HitResult,
}

/// A rolled volley with every hit, for the engine to apply to named figures.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VolleyDetail {
    /// The fire roll's result.
    pub effect: FireEffect,
    hits: [HitRecord; MAX_HITS],
    count: u8,
}

impl VolleyDetail {
    /// Every potential hit, in order.
    pub fn hits(&self) -> &[HitRecord] {
        &self.hits[..usize::from(self.count)]
    }

    /// The casualty a figure of the pool ends with: killed if any hit killed it or two wounded it.
    pub fn fate(&self, figure: u8) -> HitResult {
        let mut wounds = 0;
        for h in self.hits() {
            if h.figure == figure {
                match h.result {
                    HitResult::Killed => return HitResult::Killed,
                    HitResult::Wounded => wounds += 1,
                    HitResult::NoEffect => {}
                }
            }
        }
        match wounds {
            0 => HitResult::NoEffect,
            1 => HitResult::Wounded,
            _ => HitResult::Killed,
        }
    }
}

impl Volley {
    /// Rolls the volley and keeps every hit.
    pub fn roll_detail<D: Dice + ?Sized>(&self, dice: &mut D) -> VolleyDetail {
        let effect = self.fire.roll_effect(dice);
        let mut hits = [HitRecord {
            figure: 0,
            result: HitResult::NoEffect,
        }; MAX_HITS];
        let n = usize::from(effect.potential).min(MAX_HITS);
        let pool = usize::from(self.pool.max(1));
        for h in hits.iter_mut().take(n) {
            let figure = allocate(pool, dice);
            let result = self.impact.roll(dice);
            *h = HitRecord {
                figure: u8::try_from(figure).unwrap_or(0),
                result,
            };
        }
        VolleyDetail {
            effect,
            hits,
            count: u8::try_from(n).unwrap_or(0),
        }
    }

    /// The distribution of (wounded, killed) when `hits` potential hits fall on the pool.
    #[must_use]
    pub fn casualty_odds(&self, hits: u32) -> Vec<((u8, u8), f64)> {
        casualty_odds(
            usize::from(self.pool.max(1)),
            hits,
            self.impact.probabilities(),
        )
    }
}

/// (wounded, killed) from `hits` hits on a pool of `n`, each hit allocated by the SGII die and resolved with
/// per-hit probabilities `p` = (none, wound, kill). Exact: a multinomial allocation, figure by figure.
pub(crate) fn casualty_odds(n: usize, hits: u32, p: [f64; 3]) -> Vec<((u8, u8), f64)> {
    let alloc = allocation_odds(n);
    let h = hits as usize;
    // factorials for the multinomial
    let mut fact = vec![1.0f64; h + 1];
    for i in 1..=h {
        fact[i] = fact[i - 1] * i as f64;
    }
    // state: (hits used, wounded, killed) -> weight (without the H! factor). Each figure's step adds into a
    // grid by state, in the order a stable sort by state and merge of the same list would add them, and reads
    // the states reached back in their order: the same weights to the last bit (a test holds this against the
    // sorted merge).
    let side = alloc.len() + 1;
    let at = |used: usize, w: u8, k: u8| (used * side + usize::from(w)) * side + usize::from(k);
    let mut grid = vec![0.0f64; (h + 1) * side * side];
    let mut reached = vec![false; grid.len()];
    let mut touched: Vec<usize> = Vec::new();
    let mut cur: Vec<((usize, u8, u8), f64)> = vec![((0, 0, 0), 1.0)];
    for (fi, &pi) in alloc.iter().enumerate() {
        let last = fi + 1 == alloc.len();
        for &((used, w, k), q) in &cur {
            let left = h - used;
            let first = if last { left } else { 0 };
            for (m, &fm) in fact.iter().enumerate().take(left + 1).skip(first) {
                let share = pi.powi(m as i32) / fm;
                if share == 0.0 && m > 0 {
                    continue;
                }
                for (dw, dk, pr) in figure_fate(&p, m) {
                    if pr > 0.0 {
                        let i = at(used + m, w + dw, k + dk);
                        if !reached[i] {
                            reached[i] = true;
                            touched.push(i);
                        }
                        grid[i] += q * share * pr;
                    }
                }
            }
        }
        touched.sort_unstable();
        cur.clear();
        for &i in &touched {
            let (used, wk) = (i / (side * side), i % (side * side));
            let (w, k) = (wk / side, wk % side);
            let key = (
                used,
                u8::try_from(w).unwrap_or(u8::MAX),
                u8::try_from(k).unwrap_or(u8::MAX),
            );
            cur.push((key, grid[i]));
            grid[i] = 0.0;
            reached[i] = false;
        }
        touched.clear();
    }
    cur.into_iter()
        .filter(|((used, _, _), _)| *used == h)
        .map(|((_, w, k), q)| ((w, k), q * fact[h]))
        .collect()
}

impl Resolve for Volley {
    type Outcome = VolleyOutcome;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> VolleyOutcome {
        let d = self.roll_detail(dice);
        let mut wounded = 0;
        let mut killed = 0;
        let pool = self.pool.max(1);
        for fig in 0..pool {
            match d.fate(fig) {
                HitResult::Wounded => wounded += 1,
                HitResult::Killed => killed += 1,
                HitResult::NoEffect => {}
            }
        }
        VolleyOutcome {
            effect: d.effect,
            wounded,
            killed,
        }
    }

    fn odds(&self) -> Dist<VolleyOutcome> {
        let fire = self.fire.odds();
        fire.and_then(|e| {
            let pairs = self.casualty_odds(u32::from(e.potential));
            Dist::weighted(pairs.into_iter().map(|((wounded, killed), p)| {
                (
                    VolleyOutcome {
                        effect: *e,
                        wounded,
                        killed,
                    },
                    p,
                )
            }))
            .unwrap_or_else(|_| {
                Dist::certain(VolleyOutcome {
                    effect: *e,
                    wounded: 0,
                    killed: 0,
                })
            })
        })
    }
}

/// Casualties among skirmishers fired through ([`ScreenedVolley`]).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ScreenLosses {
    /// Figures wounded.
    pub wounded: u8,
    /// Figures killed.
    pub killed: u8,
}

impl ScreenLosses {
    /// Casualties: killed and wounded.
    #[must_use]
    pub const fn casualties(&self) -> u8 {
        self.wounded + self.killed
    }
}

impl fmt::Display for ScreenLosses {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the skirmishers fired through: {} killed, {} wounded",
            self.killed, self.wounded
        )
    }
}

/// The fate of one figure that takes `k` hits, each doing nothing with chance `p[0]` and wounding with chance
/// `p[1]` (a kill otherwise): as (wounds, kills, chance) — unhurt, wounded once, or down (two wounds kill).
fn figure_fate(p: &[f64; 3], k: usize) -> [(u8, u8, f64); 3] {
    let ok = p[0].powi(k as i32);
    let one = if k == 0 {
        0.0
    } else {
        k as f64 * p[1] * p[0].powi(k as i32 - 1)
    };
    let dead = (1.0 - ok - one).max(0.0);
    [(0, 0, ok), (1, 0, one), (0, 1, dead)]
}

/// What a [`ScreenedVolley`] did: the target's casualties (with the fire's result) and the skirmishers'.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ScreenedOutcome {
    /// The fire's result and the target's casualties.
    pub target: VolleyOutcome,
    /// The skirmishers' casualties.
    pub screen: ScreenLosses,
}

impl fmt::Display for ScreenedOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}; {}", self.target, self.screen)
    }
}

/// Fire through enemy skirmishers at the company behind them (HT-FIR-23 for small arms, HT-ART-18 for
/// canister and a canister blast's step, HT-ART-19), from the fire roll to both companies' casualties. The
/// fire roll is the target's (its range die, with the skirmishers' cover); the skirmishers not In Position
/// join the allocation pool after the target's figures (`screen` of them; those In Position take no
/// casualties and are left out), each hit allocated over the whole pool by the Stargrunt II die and rolled
/// against the armour of the company whose figure it falls on (the cover's shift alike for both); two
/// wounds on one figure kill it. Roll order: the fire roll, then per hit the allocation die, armour,
/// impact — as [`crate::Battle::fire`], [`crate::Battle::fire_canister`] and [`crate::Battle::blast_through`]
/// roll them through skirmishers (before either company's test). The companies are on foot.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ScreenedVolley {
    /// The fire at the target: its roll, impact against the target's armour, the target's fit figures
    /// (1 to [`MAX_POOL`]).
    pub volley: Volley,
    /// The skirmishers' armour die.
    pub screen_armour: DieType,
    /// The skirmishers' fit figures not In Position (0 to [`MAX_POOL`]).
    pub screen: u8,
}

impl ScreenedVolley {
    fn pools(&self) -> (usize, usize) {
        (
            usize::from(self.volley.pool).clamp(1, MAX_POOL),
            usize::from(self.screen).min(MAX_POOL),
        )
    }

    fn screen_impact(&self) -> Impact {
        Impact {
            armour: self.screen_armour,
            ..self.volley.impact
        }
    }
}

impl Resolve for ScreenedVolley {
    type Outcome = ScreenedOutcome;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> ScreenedOutcome {
        let (n, m) = self.pools();
        let effect = self.volley.fire.roll_effect(dice);
        let mut wounds = [0u8; 2 * MAX_POOL];
        let mut killed = [false; 2 * MAX_POOL];
        for _ in 0..effect.potential {
            let slot = allocate(n + m, dice);
            let impact = if slot < n {
                self.volley.impact
            } else {
                self.screen_impact()
            };
            match impact.roll(dice) {
                HitResult::Killed => killed[slot] = true,
                HitResult::Wounded => wounds[slot] = wounds[slot].saturating_add(1),
                HitResult::NoEffect => {}
            }
        }
        let mut out = ScreenedOutcome {
            target: VolleyOutcome {
                effect,
                wounded: 0,
                killed: 0,
            },
            screen: ScreenLosses::default(),
        };
        for slot in 0..n + m {
            let (w, k) = if slot < n {
                (&mut out.target.wounded, &mut out.target.killed)
            } else {
                (&mut out.screen.wounded, &mut out.screen.killed)
            };
            if killed[slot] || wounds[slot] >= 2 {
                *k += 1;
            } else if wounds[slot] == 1 {
                *w += 1;
            }
        }
        out
    }

    fn odds(&self) -> Dist<ScreenedOutcome> {
        let (n, m) = self.pools();
        if m == 0 {
            return self.volley.odds().map(|&target| ScreenedOutcome {
                target,
                screen: ScreenLosses::default(),
            });
        }
        let (pa, pb) = (
            self.volley.impact.probabilities(),
            self.screen_impact().probabilities(),
        );
        self.volley.fire.odds().and_then(|e| {
            let split = split_casualty_odds(n, m, u32::from(e.potential), pa, pb);
            Dist::weighted(split.into_iter().map(|((wa, ka, wb, kb), p)| {
                (
                    ScreenedOutcome {
                        target: VolleyOutcome {
                            effect: *e,
                            wounded: wa,
                            killed: ka,
                        },
                        screen: ScreenLosses {
                            wounded: wb,
                            killed: kb,
                        },
                    },
                    p,
                )
            }))
            .unwrap_or_else(|_| {
                Dist::certain(ScreenedOutcome {
                    target: VolleyOutcome {
                        effect: *e,
                        wounded: 0,
                        killed: 0,
                    },
                    screen: ScreenLosses::default(),
                })
            })
        })
    }
}

/// (wounded, killed) of the first `n` figures and of the `m` after them, when `hits` hits fall on the pool
/// of `n + m` by the Stargrunt II die, each resolved with (none, wound, kill) probabilities `pa` on the
/// first and `pb` on the rest. Exact: a multinomial allocation, figure by figure, as [`casualty_odds`].
fn split_casualty_odds(
    n: usize,
    m: usize,
    hits: u32,
    pa: [f64; 3],
    pb: [f64; 3],
) -> Vec<((u8, u8, u8, u8), f64)> {
    type Key = (usize, u8, u8, u8, u8);
    let alloc = allocation_odds(n + m);
    let h = hits as usize;
    let mut fact = vec![1.0f64; h + 1];
    for i in 1..=h {
        fact[i] = fact[i - 1] * i as f64;
    }
    let mut cur: Vec<(Key, f64)> = vec![((0, 0, 0, 0, 0), 1.0)];
    for (fi, &share_p) in alloc.iter().enumerate() {
        let last = fi + 1 == alloc.len();
        let p = if fi < n { pa } else { pb };
        let mut next: Vec<(Key, f64)> = Vec::new();
        for &((used, wa, ka, wb, kb), q) in &cur {
            let left = h - used;
            let from = if last { left } else { 0 };
            for (k, &fk) in fact.iter().enumerate().take(left + 1).skip(from) {
                let share = share_p.powi(k as i32) / fk;
                if share == 0.0 && k > 0 {
                    continue;
                }
                for (dw, dk, pr) in figure_fate(&p, k) {
                    if pr > 0.0 {
                        let key = if fi < n {
                            (used + k, wa + dw, ka + dk, wb, kb)
                        } else {
                            (used + k, wa, ka, wb + dw, kb + dk)
                        };
                        next.push((key, q * share * pr));
                    }
                }
            }
        }
        next.sort_by_key(|a| a.0);
        cur.clear();
        for (key, q) in next {
            match cur.last_mut() {
                Some((lk, lq)) if *lk == key => *lq += q,
                _ => cur.push((key, q)),
            }
        }
    }
    cur.into_iter()
        .filter(|((used, ..), _)| *used == h)
        .map(|((_, wa, ka, wb, kb), q)| ((wa, ka, wb, kb), q * fact[h]))
        .collect()
}

/// Figures on one 6mm stand under stand-based fire (HT-OPT-33): ten, each a man.
pub const STAND_FIGURES: usize = 10;

/// Most stands of one stand-based fire: a company's 48 figures in stands of ten (HT-OPT-33).
pub const MAX_STANDS: usize = 5;

/// Stand-based fire for 6mm figures at one man a figure (HT-OPT-33, `Options::stand_based_fire`): each stand
/// of up to ten firing figures fires as if it were a Stargrunt II squad — its quality die and a firepower die
/// from its own figures' firepower — so a company makes one fire roll per stand against the same target, each
/// with its own range roll. The target takes the potential hits of every stand, allocated over its figures
/// and rolled against armour as one fire; its test sees the best result any stand scored and every casualty.
/// Roll order: each stand's fire roll in turn ([`FireDice`]), then per hit the allocation die, armour, impact.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StandFire {
    stands: [FireDice; MAX_STANDS],
    count: u8,
    /// Impact against the pool's armour.
    pub impact: Impact,
    pool: u8,
}

impl StandFire {
    /// One fire roll per stand, hits falling on `pool` target figures. Refuses no stands, more than
    /// [`MAX_STANDS`], or a pool outside 1 to [`MAX_POOL`].
    pub fn new(stands: &[FireDice], impact: Impact, pool: usize) -> Result<StandFire, SetupError> {
        let bad = SetupError::Stands {
            stands: stands.len(),
            pool,
        };
        if stands.is_empty() || stands.len() > MAX_STANDS || pool == 0 || pool > MAX_POOL {
            return Err(bad);
        }
        let mut all = [stands[0]; MAX_STANDS];
        all[..stands.len()].copy_from_slice(stands);
        Ok(StandFire {
            stands: all,
            count: u8::try_from(stands.len()).map_err(|_| bad.clone())?,
            impact,
            pool: u8::try_from(pool).map_err(|_| bad)?,
        })
    }

    /// Each stand's fire roll.
    pub fn stands(&self) -> &[FireDice] {
        &self.stands[..usize::from(self.count)]
    }

    /// The target figures hits can fall on.
    #[must_use]
    pub const fn pool(&self) -> u8 {
        self.pool
    }

    /// Rolls every stand: the best result any stand scored, and the potential hits of all of them.
    pub(crate) fn roll_effect<D: Dice + ?Sized>(&self, dice: &mut D) -> FireEffect {
        let mut best = Success::Fail;
        let mut potential = 0u8;
        for s in self.stands() {
            let e = s.roll_effect(dice);
            best = best.max(e.success);
            potential = potential.saturating_add(e.potential);
        }
        FireEffect {
            success: best,
            potential,
        }
    }

    /// The exact distribution of the combined fire roll: the best result and the total potential hits.
    #[must_use]
    pub fn effect_odds(&self) -> Dist<FireEffect> {
        let none = Dist::certain(FireEffect {
            success: Success::Fail,
            potential: 0,
        });
        self.stands().iter().fold(none, |acc, s| {
            acc.zip_with(&s.odds(), |a, b| FireEffect {
                success: a.success.max(b.success),
                potential: a.potential.saturating_add(b.potential),
            })
        })
    }
}

impl Resolve for StandFire {
    type Outcome = VolleyOutcome;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> VolleyOutcome {
        let effect = self.roll_effect(dice);
        let pool = usize::from(self.pool);
        let mut wounds = [0u8; MAX_POOL];
        let mut dead = [false; MAX_POOL];
        for _ in 0..effect.potential {
            let f = allocate(pool, dice).min(MAX_POOL - 1);
            match self.impact.roll(dice) {
                HitResult::Killed => dead[f] = true,
                HitResult::Wounded => wounds[f] = wounds[f].saturating_add(1),
                HitResult::NoEffect => {}
            }
        }
        let (mut wounded, mut killed) = (0u8, 0u8);
        for f in 0..pool {
            if dead[f] || wounds[f] >= 2 {
                killed += 1;
            } else if wounds[f] == 1 {
                wounded += 1;
            }
        }
        VolleyOutcome {
            effect,
            wounded,
            killed,
        }
    }

    fn odds(&self) -> Dist<VolleyOutcome> {
        let p = self.impact.probabilities();
        let pool = usize::from(self.pool);
        self.effect_odds().and_then(|e| {
            let pairs = casualty_odds(pool, u32::from(e.potential), p);
            Dist::weighted(pairs.into_iter().map(|((wounded, killed), q)| {
                (
                    VolleyOutcome {
                        effect: *e,
                        wounded,
                        killed,
                    },
                    q,
                )
            }))
            .unwrap_or_else(|_| {
                Dist::certain(VolleyOutcome {
                    effect: *e,
                    wounded: 0,
                    killed: 0,
                })
            })
        })
    }
}

/// Spotting a hidden unit (HT-SG2-25): the observer's quality die and a D4 (unaided eyes) against the
/// target's die — D4, one type up per full 12" of range, +1 soft / +2 hard cover, +1 In Position (closed at
/// D12). One die beating it flips the counter, two place the figures. Roll order: target, quality, D4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Observation {
    /// The observer's quality die.
    pub quality: DieType,
    /// The target's die.
    pub target: DieType,
}

impl Observation {
    /// The target's die for a range, cover and In Position (HT-SG2-25). Refuses a bad distance.
    pub fn target_die(
        distance: f64,
        cover: Cover,
        in_position: bool,
    ) -> Result<DieType, SetupError> {
        if !distance.is_finite() || distance < 0.0 {
            return Err(SetupError::BadLength {
                what: "observation distance",
                value: distance,
            });
        }
        let steps = (distance / 12.0).floor().min(10.0) as i16;
        let cover = match cover {
            Cover::Open => 0,
            Cover::Soft => 1,
            _ => 2,
        };
        Ok(DieType::D4.shift_closed(steps + cover + i16::from(in_position)))
    }
}

impl Resolve for Observation {
    type Outcome = Success;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> Success {
        let t = dice.face(self.target.die());
        let q = dice.face(self.quality.die());
        let e = dice.face(DieType::D4.die());
        Success::from_count(u32::from(q > t) + u32::from(e > t))
    }
    fn odds(&self) -> Dist<Success> {
        let mut v = Vec::new();
        let (tf, qf) = (self.target.faces(), self.quality.faces());
        let w = 1.0 / f64::from(tf * qf * 4);
        for t in 1..=tf {
            for q in 1..=qf {
                for e in 1..=4u16 {
                    v.push((Success::from_count(u32::from(q > t) + u32::from(e > t)), w));
                }
            }
        }
        Dist::weighted(v).unwrap_or_else(|_| Dist::certain(Success::Fail))
    }
}

/// A target's standing for target priority (HT-SG2-11, HT-FIR-25).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Candidate {
    /// Its range band from the firer.
    pub band: u32,
    /// The firer could enfilade it (rather than it facing the firer).
    pub enfilade: bool,
    /// It has already activated this turn.
    pub activated: bool,
    /// It is in cover.
    pub in_cover: bool,
}

/// Advisory target priority (HT-SG2-11, HT-FIR-25): the indices of the candidates, best first — the nearest
/// band first; within a band a unit facing the firer before one it could enfilade; then units that have
/// activated before those that have not, and units in the open before those in cover. Ties keep their order.
#[must_use]
pub fn target_priority(candidates: &[Candidate]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    order.sort_by_key(|&i| {
        let c = candidates[i];
        (c.band, c.enfilade, !c.activated, c.in_cover)
    });
    order
}

/// A sharpshooter's shot (HT-SG2-27, HT-FIR-24): the range die against his quality die and a D8; a natural 1
/// on the quality die reveals him. Roll order: range die, quality, D8.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Sharpshot {
    /// The sharpshooter's quality die.
    pub quality: DieType,
    /// The target's range die.
    pub range: DieType,
}

/// What a sharpshooter's dice did: 0 successes (the target tests as fired on), 1 (a random figure is hit),
/// 2 (a figure of his choice is hit); and whether he was revealed.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SharpshotResult {
    /// Dice that beat the range die.
    pub successes: u8,
    /// A natural 1 on his quality die.
    pub revealed: bool,
}

impl fmt::Display for SharpshotResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.successes {
            0 => f.write_str("the sharpshooter misses")?,
            1 => f.write_str("the sharpshooter beats the range die once")?,
            2 => f.write_str("the sharpshooter beats the range die twice")?,
            n => write!(f, "the sharpshooter beats the range die {n} times")?,
        }
        if self.revealed {
            f.write_str(" and reveals himself")?;
        }
        Ok(())
    }
}

impl Sharpshot {
    /// The result of given rolls.
    pub const fn judge(r: u16, q: u16, d8: u16) -> SharpshotResult {
        SharpshotResult {
            successes: (q > r) as u8 + (d8 > r) as u8,
            revealed: q == 1,
        }
    }
}

impl Resolve for Sharpshot {
    type Outcome = SharpshotResult;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> SharpshotResult {
        let r = dice.face(self.range.die());
        let q = dice.face(self.quality.die());
        let d = dice.face(crate::tables::SHARPSHOOTER_DIE.die());
        Sharpshot::judge(r, q, d)
    }
    fn odds(&self) -> Dist<SharpshotResult> {
        let mut v = Vec::new();
        let (rf, qf, df) = (
            self.range.faces(),
            self.quality.faces(),
            crate::tables::SHARPSHOOTER_DIE.faces(),
        );
        let w = 1.0 / f64::from(rf * qf * df);
        for r in 1..=rf {
            for q in 1..=qf {
                for d in 1..=df {
                    v.push((Sharpshot::judge(r, q, d), w));
                }
            }
        }
        Dist::weighted(v).unwrap_or_else(|_| {
            Dist::certain(SharpshotResult {
                successes: 0,
                revealed: false,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use acw_core::dice::ScriptedDice;
    /// [`FireDice::joint`] as it was first written: each die's step sorted by key and merged.
    fn joint_by_sort(f: &FireDice) -> Vec<((u8, u32), f64)> {
        let rf = f.range.faces();
        let mut out: Vec<((u8, u32), f64)> = Vec::new();
        for r in 1..=rf {
            // DP over the firer's dice: (exceed capped at 2, sum) -> probability.
            let mut cur: Vec<((u8, u32), f64)> = vec![((0, 0), 1.0 / f64::from(rf))];
            for d in f.firer.as_slice() {
                let faces = d.faces();
                let p = 1.0 / f64::from(faces);
                let mut next: Vec<((u8, u32), f64)> =
                    Vec::with_capacity(cur.len() * usize::from(faces));
                for &((e, s), q) in &cur {
                    for x in 1..=faces {
                        let e2 = (e + u8::from(x > r)).min(2);
                        next.push(((e2, s + u32::from(x)), q * p));
                    }
                }
                next.sort_by_key(|a| a.0);
                cur.clear();
                for (k, q) in next {
                    match cur.last_mut() {
                        Some((lk, lq)) if *lk == k => *lq += q,
                        _ => cur.push((k, q)),
                    }
                }
            }
            out.extend(cur);
        }
        out
    }

    fn casualty_odds_by_sort(n: usize, hits: u32, p: [f64; 3]) -> Vec<((u8, u8), f64)> {
        let alloc = allocation_odds(n);
        let h = hits as usize;
        // factorials for the multinomial
        let mut fact = vec![1.0f64; h + 1];
        for i in 1..=h {
            fact[i] = fact[i - 1] * i as f64;
        }
        // state: (hits used, wounded, killed) -> weight (without the H! factor)
        let mut cur: Vec<((usize, u8, u8), f64)> = vec![((0, 0, 0), 1.0)];
        for (fi, &pi) in alloc.iter().enumerate() {
            let last = fi + 1 == alloc.len();
            let mut next: Vec<((usize, u8, u8), f64)> = Vec::new();
            for &((used, w, k), q) in &cur {
                let left = h - used;
                let range: Vec<usize> = if last {
                    vec![left]
                } else {
                    (0..=left).collect()
                };
                for m in range {
                    let share = pi.powi(m as i32) / fact[m];
                    if share == 0.0 && m > 0 {
                        continue;
                    }
                    for (dw, dk, pr) in figure_fate(&p, m) {
                        if pr > 0.0 {
                            next.push(((used + m, w + dw, k + dk), q * share * pr));
                        }
                    }
                }
            }
            next.sort_by_key(|a| a.0);
            cur.clear();
            for (key, q) in next {
                match cur.last_mut() {
                    Some((lk, lq)) if *lk == key => *lq += q,
                    _ => cur.push((key, q)),
                }
            }
        }
        cur.into_iter()
            .filter(|((used, _, _), _)| *used == h)
            .map(|((_, w, k), q)| ((w, k), q * fact[h]))
            .collect()
    }

    // The casualty weights from the grid are those of the sorted merge, bit for bit, for pools of 1 to 12
    // figures, 0 to 14 hits and several impact chances (none that wounds, none that kills, every hit
    // wounding).
    #[test]
    fn casualty_odds_match_the_sorted_merge_bit_for_bit() {
        let chances = [
            [0.5, 0.3, 0.2],
            [0.25, 0.5, 0.25],
            [0.6, 0.0, 0.4],
            [0.7, 0.3, 0.0],
            [0.0, 1.0, 0.0],
            [0.1, 0.15, 0.75],
        ];
        let mut compared = 0usize;
        for n in 1..=12 {
            for hits in 0..=14 {
                for p in chances {
                    let (got, want) =
                        (casualty_odds(n, hits, p), casualty_odds_by_sort(n, hits, p));
                    assert_eq!(got.len(), want.len(), "{n} {hits} {p:?}");
                    for ((k, q), (wk, wq)) in got.iter().zip(&want) {
                        assert_eq!(k, wk, "{n} {hits} {p:?}");
                        assert_eq!(q.to_bits(), wq.to_bits(), "{n} {hits} {p:?} {k:?}");
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 10_000, "{compared} weights compared");
    }

    // The joint chances from the grid are those of the sorted merge, bit for bit, for every range die against
    // every pair and every three of dice, and four-dice pools of each die with the others around it.
    #[test]
    fn joint_matches_the_sorted_merge_bit_for_bit() {
        let mut pools: Vec<Vec<DieType>> = Vec::new();
        for &a in &DieType::ALL {
            for &b in &DieType::ALL {
                pools.push(vec![a, b]);
                for &c in &DieType::ALL {
                    pools.push(vec![a, b, c]);
                }
                pools.push(vec![a, b, a, b]);
                pools.push(vec![a, DieType::D12, b, DieType::D4]);
            }
        }
        let mut compared = 0usize;
        for pool in &pools {
            let firer = FirerDice::new(pool);
            assert!(firer.is_ok(), "{pool:?}");
            let Ok(firer) = firer else { continue };
            for &range in &DieType::ALL {
                let f = FireDice { firer, range };
                let (got, want) = (f.joint(), joint_by_sort(&f));
                assert_eq!(got.len(), want.len(), "{f:?}");
                for ((k, p), (wk, wp)) in got.iter().zip(&want) {
                    assert_eq!(k, wk, "{f:?}");
                    assert_eq!(p.to_bits(), wp.to_bits(), "{f:?} {k:?}");
                    compared += 1;
                }
            }
        }
        assert!(compared > 100_000, "{compared} chances compared");
    }

    // HT-GEN-04: band counting, with the boundary in the lower band.
    #[test]
    fn band_counting() {
        assert_eq!(RangeFacts::at(8.0, 8.0).band_number(), Ok(1));
        assert_eq!(RangeFacts::at(8.5, 8.0).band_number(), Ok(2));
        assert_eq!(RangeFacts::at(0.0, 8.0).band_number(), Ok(1));
        assert!(RangeFacts::at(f64::NAN, 8.0).band_number().is_err());
        assert!(RangeFacts::at(4.0, 0.0).band_number().is_err());
    }

    // HT-SG2-33: a pool of 5 on a D6 — the first figure twice as likely.
    #[test]
    fn allocation_wraps() {
        let p = allocation_odds(5);
        assert!((p[0] - 1.0 / 3.0).abs() < 1e-12);
        assert!((p[4] - 1.0 / 6.0).abs() < 1e-12);
        let mut d = ScriptedDice::faces([6]);
        assert_eq!(allocate(5, &mut d), 0);
    }

    // HT-SG2-33, HT-FIR-23: a pool of 14 (a company with the skirmishers fired through) is past the D12: a
    // D14 picks the figure, each with a chance of 1/14, and its face counts along from the first.
    #[test]
    fn allocation_past_twelve_throws_a_die_of_as_many_sides() {
        let p = allocation_odds(14);
        assert!(p.iter().all(|&x| (x - 1.0 / 14.0).abs() < 1e-12));
        let mut d = ScriptedDice::faces([14, 1]);
        assert_eq!(allocate(14, &mut d), 13);
        assert_eq!(allocate(14, &mut d), 0);
        // a D14 cannot show 15
        let mut bad = ScriptedDice::faces([15]);
        allocate(14, &mut bad);
        assert!(bad.fault().is_some());
    }
}
