//! Confidence and reaction: the threat level of a test composed from Hardtack's tables, the confidence test
//! and its two-level drop, reaction tests, rallies and a new leader's leadership.

use crate::ladder::DieType;
use crate::options::{
    CasualtyTl, FiredOnTl, LeaderCasualtyTl, Options, OverwhelmedTrigger, TwoLevelDrop,
};
use crate::tables::{ConfidenceLevel, Leadership, Motivation, Tl, TlRow, tl};
use acw_core::{Dice, Die, Dist, Resolve};
use std::fmt;

/// What a unit was fired on by: the fired-on base row of its test (HT-MOR-05 step 1).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum FiredOn {
    /// Small arms: 1/0/NTR.
    SmallArms,
    /// Round shot: 1/0/NTR (HT-ART-09).
    Shot,
    /// Canister: 3/2/1 (HT-ART-20).
    Canister,
    /// Anything else Stargrunt II would suppress: 1/0/NTR (HT-MOR-01).
    Suppression,
    /// Case or spherical case, a unit that is not cavalry: 2/1/0 (HT-OPT-07).
    Case,
    /// Case or spherical case, a cavalry unit: 3/2/1 (HT-OPT-07).
    CaseCavalry,
}

impl FiredOn {
    /// The base row (HT-MOR-03).
    pub const fn row(self) -> TlRow {
        match self {
            FiredOn::SmallArms | FiredOn::Suppression => tl::FIRED_ON_SMALL_ARMS,
            FiredOn::Shot => tl::FIRED_ON_SHOT,
            FiredOn::Canister => tl::FIRED_ON_CANISTER,
            FiredOn::Case => tl::FIRED_ON_CASE,
            FiredOn::CaseCavalry => tl::FIRED_ON_CASE_CAVALRY,
        }
    }
}

/// One event that makes a unit test, with everything that sets its threat level (HT-MOR-05 inputs).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TestEvent {
    /// The fire that caused it, if any.
    pub fired_on: Option<FiredOn>,
    /// Casualties (killed and wounded) the unit suffered in this event.
    pub casualties: u32,
    /// The unit's figures still fit afterwards.
    pub survivors: u32,
    /// The unit's leader became a casualty (HT-MOR-10).
    pub leader_casualty: bool,
    /// Morale Modifications: the unit has now lost half its full-strength complement (HT-OPT-18).
    pub half_lost: bool,
    /// The casualties came from an enemy's first volley (HT-OPT-13).
    pub first_volley: bool,
    /// The unit is under enfilade (HT-OPT-11); ignored for skirmishers.
    pub enfilade: bool,
    /// The unit is in line or column at the moment of testing (HT-MOR-06).
    pub close_formation: bool,
    /// Charged by an enemy in close formation (HT-MEL-04).
    pub charged_by_close_formation: bool,
    /// Charged by mounted cavalry, the unit not being mounted cavalry (HT-MEL-04).
    pub charged_by_mounted: bool,
    /// Forced to abandon wounded (HT-MOR-11): the test happens even with no other base.
    pub abandon_wounded: bool,
    /// Another base threat level: a close-assault stand's odds, or a melee round's casualties.
    pub other_base: Option<i16>,
    /// Other cumulative modifiers (a combined-assault drop-out +1).
    pub modifier: i16,
    /// The unit is fired on for the first time (used by `fired_on_tl = SgiiFirstSuppression`).
    pub first_time: bool,
}

/// The threat level of a confidence test (HT-MOR-05, the complete algorithm; the rows of HT-MOR-03 and
/// HT-MOR-04), or `None` when no test is required:
/// 1. the fired-on base (HT-MOR-01/02, HT-FIR-26, HT-ART-09, HT-ART-20; by option Stargrunt II's first-time
///    2/1/NTR, HT-INT-04), raised by the casualties row
///    (+1/+1/+0, a High unit then testing at 0; option: Stargrunt II's 2/1/NTR, HT-INT-03);
/// 2. the other bases: casualties as many as survivors (HT-MOR-09), the 50% rule, the leader (HT-MOR-10,
///    HT-INT-02), a stand's odds or a round's casualties;
/// 3. the highest base; none → no test, unless wounded are abandoned (HT-MOR-11, a base of 0);
/// 4. plus the cumulative rows: first volley, enfilade (not skirmishers), close formation −1 (HT-MOR-06),
///    charged by close formation or by mounted cavalry, abandoned wounded, other modifiers.
///
/// The firer's formation is not an input (HT-INT-21): the designer's notes call volleys from a formation
/// nastier than skirmish fire, but neither threat-level table has such a row, so fire from a line, a column
/// or skirmishers gives the target the same TL. Formed firers still cause more tests in practice, because
/// skirmishers fire with a firepower die one type lower (HT-FIR-10).
#[must_use]
pub fn threat_level(event: &TestEvent, m: Motivation, options: &Options) -> Option<i16> {
    let mut best: Option<i16> = None;
    let mut take = |t: Tl| {
        if let Tl::Level(v) = t {
            best = Some(best.map_or(v, |b: i16| b.max(v)));
        }
    };
    if let Some(f) = event.fired_on {
        let base = match (options.fired_on_tl, f) {
            (
                FiredOnTl::SgiiFirstSuppression,
                FiredOn::SmallArms | FiredOn::Shot | FiredOn::Suppression,
            ) => {
                if event.first_time {
                    tl::SGII_2_1_NTR.at(m)
                } else {
                    Tl::Ntr
                }
            }
            _ => f.row().at(m),
        };
        if event.casualties > 0 {
            match options.casualty_tl {
                CasualtyTl::Hardtack => {
                    let b = match base {
                        Tl::Ntr => 0,
                        Tl::Level(v) => v,
                    };
                    take(Tl::Level(b + tl::CASUALTIES.value(m)));
                }
                CasualtyTl::Sgii => {
                    take(base);
                    take(tl::SGII_2_1_NTR.at(m));
                }
            }
        } else {
            take(base);
        }
    }
    if event.casualties > 0 {
        let c = event.casualties;
        let s = event.survivors;
        let overwhelmed = match options.overwhelmed_trigger {
            OverwhelmedTrigger::AsManyOrMore => c >= s,
            OverwhelmedTrigger::MoreThan => c > s,
        };
        if overwhelmed {
            take(tl::OVERWHELMED.at(m));
        }
    }
    if event.half_lost && options.morale_modifications {
        take(tl::HALF_LOST.at(m));
    }
    if event.leader_casualty {
        take(match options.leader_casualty_tl {
            LeaderCasualtyTl::Hardtack => tl::LEADER.at(m),
            LeaderCasualtyTl::Sgii => tl::LEADER_SGII.at(m),
        });
    }
    if let Some(b) = event.other_base {
        take(Tl::Level(b));
    }
    let mut level = match best {
        Some(b) => b,
        None if event.abandon_wounded => 0,
        None => return None,
    };
    if event.first_volley && event.casualties > 0 && options.first_volley {
        level += if options.first_volley_low_example {
            tl::FIRST_VOLLEY_CASUALTIES_EXAMPLE.value(m)
        } else {
            tl::FIRST_VOLLEY_CASUALTIES.value(m)
        };
    }
    if event.enfilade && event.close_formation && options.enfilade {
        level += tl::ENFILADE.value(m);
    }
    if event.close_formation {
        level += tl::CLOSE_FORMATION.value(m);
    }
    if event.charged_by_close_formation {
        level += tl::CHARGED_BY_CLOSE_FORMATION.value(m);
    }
    if event.charged_by_mounted {
        level += 1;
    }
    if event.abandon_wounded {
        level += tl::ABANDON_WOUNDED.value(m);
    }
    Some(level + event.modifier)
}

/// The result of a confidence test (HT-SG2-16).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Confidence {
    /// The roll beat LV + TL.
    Pass,
    /// At or below: one level lost.
    LoseOne,
    /// Half of LV + TL or less: two levels lost.
    LoseTwo,
}

impl Confidence {
    /// Levels lost.
    #[must_use]
    pub const fn levels(self) -> u8 {
        match self {
            Confidence::Pass => 0,
            Confidence::LoseOne => 1,
            Confidence::LoseTwo => 2,
        }
    }
}

impl fmt::Display for Confidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Confidence::Pass => "passed",
            Confidence::LoseOne => "failed, losing one level",
            Confidence::LoseTwo => "failed badly, losing two levels",
        })
    }
}

/// A confidence test (HT-SG2-16): the unit's quality die against LV + TL; above passes, at or below loses a
/// level, half or less loses two (option: less than half). Rolled even when it cannot pass.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ConfidenceTest {
    /// The unit's quality die.
    pub quality: DieType,
    /// The unit's leadership.
    pub lv: Leadership,
    /// The threat level.
    pub tl: i16,
    /// The two-level threshold.
    pub two_level: TwoLevelDrop,
}

impl ConfidenceTest {
    /// The result of a given roll.
    pub const fn judge(&self, roll: u16) -> Confidence {
        let t = self.lv.value() + self.tl;
        let r = roll as i16;
        if r > t {
            Confidence::Pass
        } else {
            let two = match self.two_level {
                TwoLevelDrop::HalfOrLess => 2 * r <= t,
                TwoLevelDrop::LessThanHalf => 2 * r < t,
            };
            if two {
                Confidence::LoseTwo
            } else {
                Confidence::LoseOne
            }
        }
    }
}

impl Resolve for ConfidenceTest {
    type Outcome = Confidence;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> Confidence {
        self.judge(dice.face(self.quality.die()))
    }
    fn odds(&self) -> Dist<Confidence> {
        Dist::die(self.quality.die()).map(|&f| self.judge(f as u16))
    }
}

/// A reaction test (HT-SG2-18): the quality die must beat LV + TL; failing costs nothing but the action.
/// Also the panic test at TL 0 (HT-SG2-19, HT-MOR-08), the In Position test (HT-SG2-14) and the
/// attacker's close-assault test (HT-MEL-03).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ReactionTest {
    /// The unit's quality die (shifted by a Grand Gesture where one applies).
    pub quality: DieType,
    /// The unit's leadership.
    pub lv: Leadership,
    /// The threat level, with its modifiers (close formation −1, HT-MOR-06).
    pub tl: i16,
}

impl ReactionTest {
    /// Whether a roll passes.
    #[must_use]
    pub const fn passes(&self, roll: u16) -> bool {
        (roll as i16) > self.lv.value() + self.tl
    }
}

impl Resolve for ReactionTest {
    type Outcome = bool;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> bool {
        self.passes(dice.face(self.quality.die()))
    }
    fn odds(&self) -> Dist<bool> {
        Dist::die(self.quality.die()).map(|&f| self.passes(f as u16))
    }
}

/// Reaction-test threat levels (HT-SG2-18).
pub mod reaction {
    /// Going In Position in the open (HT-SG2-14).
    pub const IN_POSITION_OPEN: i16 = 2;
    /// Going In Position in cover (HT-SG2-14).
    pub const IN_POSITION_COVER: i16 = 0;
    /// Moving without first removing In Position; removing it in a Reorganise (HT-FRM-12).
    pub const MOVE_FROM_IN_POSITION: i16 = 2;
    /// A Shaken unit leaving cover (HT-MOV-09).
    pub const SHAKEN_LEAVES_COVER: i16 = 2;
    /// Panic, and panic removal (HT-SG2-19).
    pub const PANIC: i16 = 0;
}

/// A rally (HT-SG2-07, HT-CMD-06): the rallied unit's quality die must beat its LV plus the rallier's;
/// success raises it one level, not above its fatigue ceiling. Hardtack needs the rallier within 6" and no
/// communication roll.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rally {
    /// The rallied unit's quality die.
    pub quality: DieType,
    /// The rallied unit's leadership.
    pub lv: Leadership,
    /// The rallying commander's leadership.
    pub rallier: Leadership,
}

impl Resolve for Rally {
    type Outcome = bool;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> bool {
        self.as_reaction().roll(dice)
    }
    fn odds(&self) -> Dist<bool> {
        self.as_reaction().odds()
    }
}

impl Rally {
    const fn as_reaction(&self) -> ReactionTest {
        ReactionTest {
            quality: self.quality,
            lv: self.lv,
            tl: self.rallier.value(),
        }
    }
}

/// A new leader's leadership (HT-SG2-20): D6 1–2 one worse, 3–5 the same, 6 one better, within 1–3.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ReplacementLeader {
    /// The fallen leader's leadership.
    pub old: Leadership,
}

impl ReplacementLeader {
    /// The leadership a D6 roll gives.
    pub const fn judge(&self, roll: u16) -> Leadership {
        match roll {
            1 | 2 => self.old.worsened(1),
            6 => self.old.worsened(-1),
            _ => self.old,
        }
    }
}

impl Resolve for ReplacementLeader {
    type Outcome = Leadership;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> Leadership {
        self.judge(dice.face(Die::D6))
    }
    fn odds(&self) -> Dist<Leadership> {
        Dist::die(Die::D6).map(|&f| self.judge(f as u16))
    }
}

/// Applies a confidence result to a level (HT-SG2-17).
pub const fn apply(cl: ConfidenceLevel, result: Confidence) -> ConfidenceLevel {
    cl.dropped(result.levels())
}

#[cfg(test)]
mod tests {
    use super::*;

    // HT-SG2-20: replacement leader from LV3 (HT-ACC-39 numbers).
    #[test]
    fn replacement_leader_from_lv3() {
        let r = ReplacementLeader {
            old: Leadership::THREE,
        };
        assert_eq!(r.judge(5), Leadership::THREE);
        assert_eq!(r.judge(6), Leadership::TWO);
    }
}
