//! Artillery on the table: canister's dice, round shot's accuracy, deviation and bounces, and damage to
//! every figure in a shot's area.

use crate::casualties::HorseState;
use crate::error::SetupError;
use crate::fire::{
    Cover, FireDice, FireEffect, FireKind, FirerDice, HitResult, Impact, RangeDie, RangeFacts,
    ScreenLosses, ScreenedOutcome, ScreenedVolley, Spill, Volley, VolleyOutcome, range_die,
};
use crate::ladder::{DieType, Success};
use crate::options::{BlastThroughCount, KillThreshold, Options, ShotCover};
use crate::state::FireRoll;
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

/// Fire at an unlimbered gun's detached team (HT-ART-22), small arms or canister alike: the fire roll, then
/// each potential hit allocated over the team's sound horse figures (HT-SG2-33); a horse not yet down rolls
/// its D4 armour (with the cover's shift) against the impact die and, if struck, its state (HT-CAS-04: the
/// D6 table, or under `horse_status_roll = ImpactVsD4` the impact die rolled again against D4); a horse down
/// takes no further dice. Under Quick Combat Resolution (HT-OPT-22) every hit horse is down, with no dice.
/// The crew is not hit and does not test. Roll order: the fire roll, then per hit the allocation die,
/// armour, impact and the horse's D6 (or its D4 and impact die again) — as [`crate::Battle::fire_at_team`] and [`crate::Battle::fire_canister_at_team`] roll it.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TeamFire {
    /// The fire roll: the firer's dice against the team's range die (or stand by stand).
    pub fire: FireRoll,
    /// The impact die: the small arm's, or canister's D12.
    pub impact: DieType,
    /// The cover's shift on the horses' D4 armour.
    pub armour_shift: i16,
    /// The team's sound horse figures (1 to [`crate::fire::MAX_POOL`]).
    pub horses: u8,
    /// The options in force: the kill threshold, `horse_status_roll`, `quick_combat_resolution`.
    pub options: Options,
}

/// What a [`TeamFire`] did.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TeamFireOutcome {
    /// The fire roll's result.
    pub effect: FireEffect,
    /// Horses dead or wounded.
    pub horses_down: u8,
}

impl fmt::Display for TeamFireOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.horses_down {
            1 => write!(f, "{}: 1 team horse down", self.effect),
            n => write!(f, "{}: {n} team horses down", self.effect),
        }
    }
}

impl TeamFire {
    fn pool(&self) -> usize {
        usize::from(self.horses).min(crate::fire::MAX_POOL)
    }

    /// Whether a hit horse goes down (dead or wounded), rolled.
    fn struck<D: Dice + ?Sized>(&self, dice: &mut D) -> bool {
        if self.options.quick_combat_resolution {
            return true;
        }
        self.horse_impact().roll(dice) != HitResult::NoEffect
            && crate::casualties::horse_state(self.impact, &self.options, dice) != HorseState::Okay
    }

    fn horse_impact(&self) -> Impact {
        Impact {
            impact: self.impact,
            armour: DieType::D4,
            armour_shift: self.armour_shift,
            kill: self.options.kill_threshold,
        }
    }

    /// The chance one hit on a horse not yet down puts it down.
    fn struck_chance(&self) -> f64 {
        if self.options.quick_combat_resolution {
            return 1.0;
        }
        let hit = 1.0 - self.horse_impact().probabilities()[0];
        hit * crate::casualties::horse_down_chance(self.impact, &self.options)
    }

    /// Rolls the hits of a fire result that has `effect` on the team.
    fn roll_hits<D: Dice + ?Sized>(&self, effect: FireEffect, dice: &mut D) -> TeamFireOutcome {
        let n = self.pool();
        let mut down = [false; crate::fire::MAX_POOL];
        let mut horses_down = 0u8;
        if n > 0 {
            for _ in 0..effect.potential {
                let h = crate::fire::allocate(n, dice);
                if !down[h] && self.struck(dice) {
                    down[h] = true;
                    horses_down += 1;
                }
            }
        }
        TeamFireOutcome {
            effect,
            horses_down,
        }
    }

    /// The exact odds of the hits of a fire result `effect`: a horse taking m hits is down unless every one
    /// misses, the horses' counts multinomial under the allocation die.
    fn hit_odds(&self, effect: FireEffect) -> Vec<(TeamFireOutcome, f64)> {
        let n = self.pool();
        if n == 0 || effect.potential == 0 {
            return vec![(
                TeamFireOutcome {
                    effect,
                    horses_down: 0,
                },
                1.0,
            )];
        }
        let q = self.struck_chance();
        crate::fire::casualty_odds(n, u32::from(effect.potential), [1.0 - q, 0.0, q])
            .into_iter()
            .map(|((_, down), p)| {
                (
                    TeamFireOutcome {
                        effect,
                        horses_down: down,
                    },
                    p,
                )
            })
            .collect()
    }
}

impl Resolve for TeamFire {
    type Outcome = TeamFireOutcome;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> TeamFireOutcome {
        let effect = match self.fire {
            FireRoll::Dice(fd) => fd.roll_effect(dice),
            FireRoll::Stands(s) => s.roll_effect(dice),
        };
        self.roll_hits(effect, dice)
    }

    fn odds(&self) -> Dist<TeamFireOutcome> {
        self.fire.effect_odds().and_then(|&e| {
            Dist::weighted(self.hit_odds(e)).unwrap_or_else(|_| {
                Dist::certain(TeamFireOutcome {
                    effect: e,
                    horses_down: 0,
                })
            })
        })
    }
}

/// A canister blast carried through a company onto an unlimbered gun's detached team behind it (HT-ART-14,
/// HT-ART-19, HT-ART-22), from the gun's first roll to the horses down. The canister at the company is a
/// [`Volley`] (its fire roll, each hit allocated over the company's figures against its armour, two wounds
/// killing). A hit carries the blast on (with casualties, under `blast_requires_casualties`); the team's
/// range die is then shifted up one per blast step that hit — one — or, under `blast_through_count =
/// EveryDamagedCompany`, one if the company took casualties and none if not (HT-INT-11); past
/// D12 the blast stops. Every firer die is rolled again at the team ([`TeamFire`]). Roll order: the company's
/// volley, then the team's fire — as [`crate::Battle::fire_canister`] and then
/// [`crate::Battle::blast_through_team`] roll them (the company's tests, which the battle rolls in between,
/// play no part in the blast).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BlastOntoTeam {
    /// The canister at the company in front.
    pub company: Volley,
    /// The canister at the team with no blast step counted (`[0]`) and with one (`[1]`): `None` where the
    /// range die passed D12.
    pub team: [Option<TeamFire>; 2],
    /// The options in force (`blast_through_count`, `blast_requires_casualties`).
    pub options: Options,
}

/// What a [`BlastOntoTeam`] did: the company's casualties, and the team's fire if the blast reached it.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BlastOutcome {
    /// The canister at the company.
    pub company: VolleyOutcome,
    /// The canister at the team; `None` when the blast stopped at the company or went past D12.
    pub team: Option<TeamFireOutcome>,
}

impl fmt::Display for BlastOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the company: {}", self.company)?;
        match self.team {
            Some(t) => write!(f, "; the team behind: {t}"),
            None => f.write_str("; the blast stops"),
        }
    }
}

impl BlastOntoTeam {
    /// The chain from the company's canister `company` on to a team of `horses` sound horse figures whose
    /// range die, with no blast step counted, is `team_range`, in `cover`'s armour shift; the crew's
    /// `quality` and the gun's `piece` give the canister dice at the team.
    pub fn new(
        company: Volley,
        quality: DieType,
        piece: FieldPiece,
        team_range: DieType,
        armour_shift: i16,
        horses: u8,
        options: Options,
    ) -> BlastOntoTeam {
        let at = |k: i16| {
            DieType::from_index(team_range.index() + k).map(|range| TeamFire {
                fire: FireRoll::Dice(FireDice {
                    firer: canister_dice(quality, piece, None),
                    range,
                }),
                impact: crate::tables::CANISTER_IMPACT,
                armour_shift,
                horses,
                options,
            })
        };
        BlastOntoTeam {
            company,
            team: [at(0), at(1)],
            options,
        }
    }

    /// The blast steps the team's range die counts after the company's result, if the blast carries on and
    /// its range die stays on the ladder.
    fn steps(&self, company: &VolleyOutcome) -> Option<usize> {
        let hit = company.effect.success != Success::Fail;
        let hurt = company.casualties() > 0;
        if !hit || (self.options.blast_requires_casualties && !hurt) {
            return None;
        }
        let k = match self.options.blast_through_count {
            BlastThroughCount::PerBlastStep => 1,
            BlastThroughCount::EveryDamagedCompany => usize::from(hurt),
        };
        self.team[k].is_some().then_some(k)
    }
}

impl Resolve for BlastOntoTeam {
    type Outcome = BlastOutcome;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> BlastOutcome {
        let company = self.company.roll(dice);
        let team = self
            .steps(&company)
            .and_then(|k| self.team[k])
            .map(|t| t.roll(dice));
        BlastOutcome { company, team }
    }

    fn odds(&self) -> Dist<BlastOutcome> {
        let team = self.team.map(|t| t.map(|t| t.odds()));
        self.company
            .odds()
            .and_then(|c| match self.steps(c).and_then(|k| team[k].as_ref()) {
                None => Dist::certain(BlastOutcome {
                    company: *c,
                    team: None,
                }),
                Some(d) => d.map(|&t| BlastOutcome {
                    company: *c,
                    team: Some(t),
                }),
            })
    }
}

/// Most companies a [`BlastChain`] carries through before the team (or the end of the line).
pub const MAX_BLAST: usize = 4;

/// A company on a canister blast's line (HT-ART-14, HT-ART-19): its range facts as the gun sees it with no
/// blast step counted (distance, the gun's canister band, cover, In Position, line or column), the armour
/// of its figures, and its fit figures (1 to [`crate::fire::MAX_POOL`]).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BlastCompany {
    /// The range facts (the blast-through count is set by the chain).
    pub range: RangeFacts,
    /// The figures' armour die.
    pub armour: DieType,
    /// Fit figures.
    pub pool: u8,
}

/// A gun's detached team at the end of a blast's line: its range facts with no blast step counted (never In
/// Position or in close formation) and its sound horse figures.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BlastTeam {
    /// The range facts (the blast-through count is set by the chain).
    pub range: RangeFacts,
    /// Sound horse figures (1 to [`crate::fire::MAX_POOL`]).
    pub horses: u8,
}

/// Enemy skirmishers the canister at a company of a blast's line is fired through (HT-ART-18, HT-ART-19,
/// HT-FIR-23): their armour and their fit figures not In Position (1 to [`crate::fire::MAX_POOL`]; those In
/// Position take no casualties, so a screen of only such figures is no screen).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlastScreen {
    /// The skirmishers' armour die.
    pub armour: DieType,
    /// Their fit figures not In Position.
    pub pool: u8,
}

/// Most blast steps a [`BlastChain`] counts: two a company (the company and the skirmishers fired through
/// in front of it, under `blast_through_count = EveryDamagedCompany`).
const MAX_STEPS: usize = 2 * MAX_BLAST;

/// A whole canister blast (HT-ART-14, HT-ART-16, HT-ART-19, HT-INT-11, HT-ART-22): the gun's canister at
/// the first company, then on through each company behind it on the line, and at the end, if one lies
/// there, an unlimbered gun's detached team — from the first roll to every company's casualties and the
/// team's horses down. Each step's range die is the company's own (`range_die` with its facts) shifted up one
/// per blast step that hit before it (`blast_through_count = PerBlastStep`), or one per company in front
/// that took casualties (`EveryDamagedCompany`); a range die past D12 stops the blast there (that company is
/// not fired at). A step carries the blast on if its fire did not fail (and, under
/// `blast_requires_casualties`, if it caused a casualty); every firer die is rolled again at each step, with
/// a formation shift spilled onto the crew's quality die as at the first. Each company is on foot with one
/// armour for its figures. A step may be fired through enemy skirmishers in front of its company
/// ([`BlastChain::with_screens`], HT-ART-18): two companies in one step, each with its own armour, their
/// figures in one pool ([`ScreenedVolley`]); the skirmishers' casualties count towards the step's
/// casualties, and under `EveryDamagedCompany` they are a damaged company of their own. Roll order: step by
/// step, each the fire roll then per hit the allocation die, armour and impact (the team's horses as
/// [`TeamFire`]) — as [`crate::Battle::fire_canister`], [`crate::Battle::blast_through`] and
/// [`crate::Battle::blast_through_team`] roll them, without the companies' tests.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BlastChain {
    /// `volleys[i][k]`: the canister at company `i` (and the skirmishers in front of it) with `k` blast
    /// steps counted; `None` past D12.
    volleys: [[Option<ScreenedVolley>; MAX_STEPS]; MAX_BLAST],
    /// `team[k]`: the canister at the team with `k` blast steps counted; `None` past D12 or with no team.
    team: [Option<TeamFire>; MAX_STEPS + 1],
    companies: u8,
    /// Bit `i`: company `i` is fired at through skirmishers.
    screened: u8,
    options: Options,
}

/// What a [`BlastChain`] did: each company's canister, in line order (`None` where the blast had stopped or
/// its range die went past D12, and after the last company), and the team's if the blast reached it.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BlastChainOutcome {
    /// The canister at each company.
    pub companies: [Option<VolleyOutcome>; MAX_BLAST],
    /// The casualties of the skirmishers fired through in front of each company (`None` where there were
    /// none, or the blast did not reach that company).
    pub screens: [Option<ScreenLosses>; MAX_BLAST],
    /// The canister at the team.
    pub team: Option<TeamFireOutcome>,
}

impl fmt::Display for BlastChainOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (i, c) in self.companies.iter().enumerate() {
            if let Some(c) = c {
                if !first {
                    f.write_str("; ")?;
                }
                first = false;
                write!(f, "company {}: {c}", i + 1)?;
                if let Some(sk) = self.screens[i] {
                    write!(f, " ({sk})")?;
                }
            }
        }
        if first {
            f.write_str("the blast reaches no company")?;
        }
        match self.team {
            Some(t) => write!(f, "; the team behind: {t}"),
            None => Ok(()),
        }
    }
}

impl BlastChain {
    /// The blast of a gun whose crew's quality die is `quality` and whose piece is `piece` through
    /// `companies` (first the one fired at, then those behind it in line order; 1 to [`MAX_BLAST`]) and on
    /// to `team` if one lies at the end. Refuses an empty line or a longer one, a company or team with no
    /// figure or more than the largest pool, and facts with no range band.
    pub fn new(
        quality: DieType,
        piece: FieldPiece,
        companies: &[BlastCompany],
        team: Option<BlastTeam>,
        options: Options,
    ) -> Result<BlastChain, SetupError> {
        Self::with_screens(quality, piece, companies, &[], team, options)
    }

    /// [`BlastChain::new`] with enemy skirmishers fired through: `screens[i]` lies in front of company `i`
    /// (`None`, or a missing entry, for none). Refuses, besides, more screens than companies and a screen
    /// with no figure or more than the largest pool.
    pub fn with_screens(
        quality: DieType,
        piece: FieldPiece,
        companies: &[BlastCompany],
        screens: &[Option<BlastScreen>],
        team: Option<BlastTeam>,
        options: Options,
    ) -> Result<BlastChain, SetupError> {
        let pool_ok = |n: u8| (1..=crate::fire::MAX_POOL).contains(&usize::from(n));
        if companies.is_empty()
            || companies.len() > MAX_BLAST
            || screens.len() > companies.len()
            || companies.iter().any(|c| !pool_ok(c.pool))
            || screens.iter().flatten().any(|s| !pool_ok(s.pool))
            || team.is_some_and(|t| !pool_ok(t.horses))
        {
            return Err(SetupError::BlastLine(companies.len()));
        }
        let screen = |i: usize| screens.get(i).copied().flatten();
        let shifted = |rf: &RangeFacts, k: usize| -> Result<Option<FireDice>, SetupError> {
            let mut rf = *rf;
            rf.blast_through = u8::try_from(k).unwrap_or(u8::MAX);
            Ok(match range_die(&rf, FireKind::Canister, false, &options)? {
                RangeDie::OutOfReach => None,
                RangeDie::Die { die, spill } => Some(FireDice {
                    firer: canister_dice(quality, piece, spill),
                    range: die,
                }),
            })
        };
        let mut volleys = [[None; MAX_STEPS]; MAX_BLAST];
        // the most steps counted before company i: one for each company in front, and one for each screen
        let mut most = 0;
        for (i, (c, row)) in companies.iter().zip(volleys.iter_mut()).enumerate() {
            let sk = screen(i);
            for (k, slot) in row.iter_mut().enumerate().take(most + 1) {
                *slot = shifted(&c.range, k)?.map(|fire| ScreenedVolley {
                    volley: Volley {
                        fire,
                        impact: Impact {
                            impact: crate::tables::CANISTER_IMPACT,
                            armour: c.armour,
                            armour_shift: c
                                .range
                                .cover
                                .armour_shift(options.fortification_armour, false),
                            kill: options.kill_threshold,
                        },
                        pool: c.pool,
                    },
                    screen_armour: sk.map_or(c.armour, |s| s.armour),
                    screen: sk.map_or(0, |s| s.pool),
                });
            }
            most += 1 + usize::from(sk.is_some());
        }
        let mut teams = [None; MAX_STEPS + 1];
        if let Some(t) = team {
            for (k, slot) in teams.iter_mut().enumerate().take(most + 1) {
                *slot = shifted(&t.range, k)?.map(|fd| TeamFire {
                    fire: FireRoll::Dice(fd),
                    impact: crate::tables::CANISTER_IMPACT,
                    armour_shift: t
                        .range
                        .cover
                        .armour_shift(options.fortification_armour, false),
                    horses: t.horses,
                    options,
                });
            }
        }
        Ok(BlastChain {
            volleys,
            team: teams,
            companies: u8::try_from(companies.len()).unwrap_or(0),
            screened: (0..companies.len())
                .filter(|&i| screen(i).is_some())
                .fold(0, |b, i| b | 1 << i),
            options,
        })
    }

    /// The blast steps counted after a step that ends in `out` with `k` counted before it, or `None` if the
    /// blast stops there.
    fn carry(&self, k: usize, out: &ScreenedOutcome) -> Option<usize> {
        let hurt = out.target.casualties() > 0;
        let screen_hurt = out.screen.casualties() > 0;
        if out.target.effect.success == Success::Fail
            || (self.options.blast_requires_casualties && !hurt && !screen_hurt)
        {
            return None;
        }
        Some(match self.options.blast_through_count {
            BlastThroughCount::PerBlastStep => k + 1,
            BlastThroughCount::EveryDamagedCompany => {
                k + usize::from(hurt) + usize::from(screen_hurt)
            }
        })
    }

    /// Records a step's outcome at company `i`.
    fn record(&self, acc: &mut BlastChainOutcome, i: usize, c: &ScreenedOutcome) {
        acc.companies[i] = Some(c.target);
        if self.screened >> i & 1 == 1 {
            acc.screens[i] = Some(c.screen);
        }
    }

    fn odds_from(
        &self,
        i: usize,
        k: usize,
        acc: BlastChainOutcome,
        volleys: &[[Option<Dist<ScreenedOutcome>>; MAX_STEPS]; MAX_BLAST],
        team: &[Option<Dist<TeamFireOutcome>>; MAX_STEPS + 1],
    ) -> Dist<BlastChainOutcome> {
        if i == usize::from(self.companies) {
            return match &team[k] {
                None => Dist::certain(acc),
                Some(d) => {
                    let (companies, screens) = (acc.companies, acc.screens);
                    d.map(move |&t| BlastChainOutcome {
                        companies,
                        screens,
                        team: Some(t),
                    })
                }
            };
        }
        let Some(d) = &volleys[i][k] else {
            return Dist::certain(acc);
        };
        d.and_then(|c| {
            let mut next = acc;
            self.record(&mut next, i, c);
            match self.carry(k, c) {
                None => Dist::certain(next),
                Some(k2) => self.odds_from(i + 1, k2, next, volleys, team),
            }
        })
    }
}

impl Resolve for BlastChain {
    type Outcome = BlastChainOutcome;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> BlastChainOutcome {
        let mut out = BlastChainOutcome {
            companies: [None; MAX_BLAST],
            screens: [None; MAX_BLAST],
            team: None,
        };
        let mut k = 0;
        for i in 0..usize::from(self.companies) {
            let Some(v) = self.volleys[i][k] else {
                return out;
            };
            let c = v.roll(dice);
            self.record(&mut out, i, &c);
            match self.carry(k, &c) {
                Some(k2) => k = k2,
                None => return out,
            }
        }
        out.team = self.team[k].map(|t| t.roll(dice));
        out
    }

    fn odds(&self) -> Dist<BlastChainOutcome> {
        let volleys = self.volleys.map(|row| row.map(|v| v.map(|v| v.odds())));
        let team = self.team.map(|t| t.map(|t| t.odds()));
        self.odds_from(
            0,
            0,
            BlastChainOutcome {
                companies: [None; MAX_BLAST],
                screens: [None; MAX_BLAST],
                team: None,
            },
            &volleys,
            &team,
        )
    }
}
