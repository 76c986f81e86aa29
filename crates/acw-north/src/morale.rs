//! Morale: the morale toss and its modifiers, rally attempts before its effect, the owner's choice on 3–4,
//! stand losses, falling back and removal (NORTH-MOR-01 to NORTH-MOR-12, NORTH-MEL-10, NORTH-CAS-01 to
//! NORTH-CAS-06, NORTH-ART-06).

use crate::combat::{Category, CombatToss};
use crate::command::{RallyApplied, RallyToss};
use crate::error::{RallyRefusal, RuleViolation};
use crate::movement::{ObstacleOutcome, ObstacleToss};
use crate::options::{BlockedFallBack, Options};
use crate::state::{Battle, BrigadeId, GeneralId, GunState, Rank, StandLoss, UnitId, UnitStatus};
use crate::tables::{
    BrigadeOrder, Formation, MORALE_ARTILLERY_FIRE, MORALE_ARTILLERY_MELEE, MORALE_COVER_FROM_FIRE,
    MORALE_SKIRMISHERS_MELEE, MoraleBand, RallyResult, Troop, fall_back_distance, morale_band,
    rally_effect,
};
use acw_core::dice::{Dice, Die};
use acw_core::measure::Inches;
use acw_core::{Arm, Dist, Resolve};

/// What the checking unit is, for its morale modifiers (NORTH-MOR-03).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoraleFacts {
    /// The checking unit is artillery.
    pub artillery: bool,
    /// The checking unit is in skirmish order.
    pub skirmishers: bool,
    /// The checking unit is behind cover against the attackers (real cover, or screened under
    /// `SkirmishScreen::AsCover`).
    pub behind_cover: bool,
    /// What caused the check.
    pub source: Option<Category>,
}

/// NORTH-MOR-03 / NORTH-MEL-10 / NORTH-FIR-05 / NORTH-OPT-33: the morale modifier. Artillery −1 after fire,
/// +1 after melee; behind cover (skirmishers always) −1 after fire; skirmishers +2 after melee. Cover does not
/// count after a melee hit. Under NORTH-OPT-33 the −1 goes with artillery fire, whoever checks.
#[must_use]
pub fn morale_modifier(facts: &MoraleFacts, options: &Options) -> i16 {
    let Some(source) = facts.source else {
        return 0;
    };
    let fire = source.is_fire();
    let mut m = 0;
    if options.artillery_morale_by_source {
        if source == Category::Artillery {
            m += MORALE_ARTILLERY_FIRE;
        }
        if facts.artillery && source == Category::Melee {
            m += MORALE_ARTILLERY_MELEE;
        }
    } else if facts.artillery {
        m += if fire {
            MORALE_ARTILLERY_FIRE
        } else {
            MORALE_ARTILLERY_MELEE
        };
    }
    if fire && (facts.behind_cover || facts.skirmishers) {
        m += MORALE_COVER_FROM_FIRE;
    }
    if !fire && facts.skirmishers {
        m += MORALE_SKIRMISHERS_MELEE;
    }
    m
}

/// NORTH-MOR-02 / NORTH-MOR-10: the plain morale toss: one d6 plus the modifier; ≤2 rallies, 3–4 the owner
/// chooses, ≥5 both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct MoraleToss {
    /// The net modifier (NORTH-MOR-03).
    pub modifier: i16,
}

impl Resolve for MoraleToss {
    type Outcome = MoraleBand;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> MoraleBand {
        morale_band((Die::D6.roll(dice) as i16).saturating_add(self.modifier))
    }
    fn odds(&self) -> Dist<MoraleBand> {
        let m = self.modifier;
        Dist::die(Die::D6).map(move |&f| morale_band((f as i16).saturating_add(m)))
    }
}

/// When a general tries to rally (NORTH-CMD-09, NORTH-MOR-11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RallyPolicy {
    /// Whatever the morale die shows.
    #[default]
    Always,
    /// Only if the modified toss would not already rally (needs the die seen first: not under
    /// NORTH-OPT-15). The unit's outcome is the same as `Always`; the general runs less risk.
    IfWouldNotRally,
}

/// NORTH-MOR-01 / NORTH-CMD-09 / NORTH-CMD-10 / NORTH-MOR-11: a morale check with up to two rally attempts
/// (two only under NORTH-OPT-17). By default the morale die is thrown first and the rally dice after
/// (the owner decides having seen it); under NORTH-OPT-15 the rally dice come first. Each successful rally
/// subtracts from the toss.
///
/// ```
/// use acw_core::Resolve;
/// use acw_north::morale::{MoraleCheck, RallyPolicy};
/// use acw_north::tables::MoraleBand;
/// let check = MoraleCheck { modifier: 0, rallies: 1, melee: false, policy: RallyPolicy::Always, declared_before: false };
/// let d = check.odds();
/// assert!((d.prob(|o| o.band == MoraleBand::Rallies) - 0.5).abs() < 1e-12);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct MoraleCheck {
    /// The morale modifier (NORTH-MOR-03).
    pub modifier: i16,
    /// Rally attempts: 0, 1 or 2.
    pub rallies: u8,
    /// The check comes from a melee hit (a 5 captures the general).
    pub melee: bool,
    /// When the generals try.
    pub policy: RallyPolicy,
    /// NORTH-OPT-15: the rally is declared before the morale die (the policy is then `Always`).
    pub declared_before: bool,
}

/// What the dice of a morale check gave ([`MoraleCheck`]'s outcome, for odds and rolls away from a battle): the
/// morale band and each rally attempt's result. [`MoraleReport`] is the whole check as played on a battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoraleThrow {
    /// The morale result.
    pub band: MoraleBand,
    /// Each attempt's rally result (`None`: not attempted).
    pub rally: [Option<RallyResult>; 2],
}

impl MoraleThrow {
    /// Whether any rallying general was killed.
    #[must_use]
    pub fn general_killed(&self) -> bool {
        self.rally.contains(&Some(RallyResult::Killed))
    }
    /// Whether any rallying general was captured.
    #[must_use]
    pub fn general_captured(&self) -> bool {
        self.rally.contains(&Some(RallyResult::Captured))
    }
}

impl MoraleCheck {
    fn attempts(&self) -> usize {
        usize::from(self.rallies.min(2))
    }

    fn always(&self) -> bool {
        self.declared_before || self.policy == RallyPolicy::Always
    }

    /// Rolls the check, returning the morale face as well.
    pub fn roll_with_face<D: Dice + ?Sized>(&self, dice: &mut D) -> (u16, MoraleThrow) {
        let mut rally = [None; 2];
        let mut sub: i16 = 0;
        let face;
        if self.declared_before {
            for r in rally.iter_mut().take(self.attempts()) {
                let res = rally_effect(Die::D6.roll(dice), self.melee);
                sub += i16::from(res.subtraction());
                *r = Some(res);
            }
            face = Die::D6.roll(dice);
        } else {
            face = Die::D6.roll(dice);
            for r in rally.iter_mut().take(self.attempts()) {
                if self.always()
                    || (face as i16)
                        .saturating_add(self.modifier)
                        .saturating_sub(sub)
                        >= 3
                {
                    let res = rally_effect(Die::D6.roll(dice), self.melee);
                    sub += i16::from(res.subtraction());
                    *r = Some(res);
                }
            }
        }
        let band = morale_band(
            (face as i16)
                .saturating_add(self.modifier)
                .saturating_sub(sub),
        );
        (face, MoraleThrow { band, rally })
    }

    /// The rally attempts from `index` on, given the total so far and the results so far.
    fn rest_odds(
        &self,
        total: i16,
        index: usize,
        done: [Option<RallyResult>; 2],
    ) -> Dist<MoraleThrow> {
        if index >= self.attempts() {
            return Dist::certain(MoraleThrow {
                band: morale_band(total),
                rally: done,
            });
        }
        if !self.always() && total < 3 {
            return self.rest_odds(total, index + 1, done);
        }
        RallyToss { melee: self.melee }.odds().and_then(|&res| {
            let mut d = done;
            if let Some(slot) = d.get_mut(index) {
                *slot = Some(res);
            }
            self.rest_odds(
                total.saturating_sub(i16::from(res.subtraction())),
                index + 1,
                d,
            )
        })
    }
}

impl Resolve for MoraleCheck {
    type Outcome = MoraleThrow;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> MoraleThrow {
        self.roll_with_face(dice).1
    }
    fn odds(&self) -> Dist<MoraleThrow> {
        // The unit's result does not depend on which die is thrown first, so both orders share one
        // computation: morale die, then the rally dice.
        Dist::die(Die::D6)
            .and_then(|&f| self.rest_odds((f as i16).saturating_add(self.modifier), 0, [None; 2]))
    }
}

/// The owner's choice on a 3–4 (NORTH-MOR-05).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::EnumIter, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Choice {
    /// Lose one stand.
    LoseStand,
    /// Fall back and reform not deployed.
    FallBack,
}

/// How the owner chooses on a 3–4 (NORTH-MOR-05).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ChoicePolicy {
    /// Always this choice.
    Always(Choice),
    /// Fall back if the stand loss would remove the unit; otherwise `otherwise`.
    FallBackIfLossRemoves {
        /// The choice when the loss would not remove the unit.
        otherwise: Choice,
    },
}

impl Default for ChoicePolicy {
    fn default() -> Self {
        ChoicePolicy::FallBackIfLossRemoves {
            otherwise: Choice::LoseStand,
        }
    }
}

impl ChoicePolicy {
    /// The choice for a unit whose next stand loss does or does not remove it.
    #[must_use]
    pub const fn choose(self, loss_removes: bool) -> Choice {
        match self {
            ChoicePolicy::Always(c) => c,
            ChoicePolicy::FallBackIfLossRemoves { .. } if loss_removes => Choice::FallBack,
            ChoicePolicy::FallBackIfLossRemoves { otherwise } => otherwise,
        }
    }
}

/// How much room a fall-back has (NORTH-MOR-09), as measured by the game layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum FallBackRoom {
    /// The full distance is clear.
    #[default]
    Clear,
    /// Units or enemies stop it short.
    Blocked,
    /// The table edge stops it short.
    TableEdge,
}

/// The defending side's decisions for a morale check (NORTH-CMD-09, NORTH-MOR-05, NORTH-MOR-08,
/// NORTH-MOR-09).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoraleResponse {
    /// Generals attempting to rally (none, one, or an MG and the AC under NORTH-OPT-17).
    pub rally_by: Vec<GeneralId>,
    /// When they try.
    pub policy: RallyPolicy,
    /// The owner's choice on 3–4.
    pub choice: ChoicePolicy,
    /// Room for a fall-back.
    pub room: FallBackRoom,
    /// Whether generals with the unit go with it when it falls back (NORTH-MOR-08).
    pub generals_follow: bool,
    /// Obstacles on the fall-back path; they matter only under NORTH-OPT-34.
    pub fall_back_obstacles: u8,
}

/// What a morale result did to the unit on the battle (NORTH-MOR-04 to NORTH-MOR-09): stands lost, the
/// fall-back, removal. Part of a [`MoraleReport`].
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoraleApplied {
    /// The stand lost, if any.
    pub stand_lost: Option<StandLoss>,
    /// A second stand lost to a blocked fall-back (NORTH-OPT-21 `LoseStand`).
    pub blocked_loss: Option<StandLoss>,
    /// The fall-back distance, if it fell back.
    pub fell_back: Option<Inches>,
    /// Whether the fall-back was cut short.
    pub fall_back_short: bool,
    /// Whether the unit was removed.
    pub removed: bool,
    /// Whether the unit left the table (NORTH-OPT-21 `ExitTable`).
    pub left_table: bool,
    /// Whether a battery abandoned its gun (NORTH-ART-06).
    pub gun_abandoned: bool,
}

/// A morale check as played on a battle, from start to finish: the modifier and face, what the dice gave
/// ([`MoraleThrow`]), the rallies and their cost to the generals, the owner's choice, and what it did to the
/// unit ([`MoraleApplied`]).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoraleReport {
    /// The modifier before rallying.
    pub modifier: i16,
    /// The morale face thrown.
    pub face: u16,
    /// The band and rally results.
    pub outcome: MoraleThrow,
    /// Each rally result applied to its general.
    pub rallies: Vec<(GeneralId, RallyApplied)>,
    /// Brigade order checks made because an MG was lost (NORTH-CMD-11).
    pub order_checks: Vec<(BrigadeId, BrigadeOrder)>,
    /// The owner's choice on 3–4.
    pub choice: Option<Choice>,
    /// The fall-back's obstacle toss (NORTH-OPT-34), if one was made.
    pub fall_back_obstacle: Option<ObstacleOutcome>,
    /// What happened to the unit.
    pub effect: MoraleApplied,
}

/// What the owner of a unit checking morale decides next (the game pauses for it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum MoraleStep {
    /// Whether a general tries to rally the unit, having seen the morale toss (or before it, under
    /// NORTH-OPT-15).
    Rally,
    /// On a 3–4: lose a stand or fall back.
    Choice,
}

/// Where a morale check stands after a decision.
#[derive(Clone, Debug, PartialEq)]
pub enum MoraleProgress {
    /// It waits for the owner's next decision.
    Continues,
    /// It is over.
    Done(MoraleReport),
}

/// The facts of a fall-back, measured when the hit is scored (nothing moves while the owner decides).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FallBackFacts {
    /// Room for the fall-back (NORTH-MOR-09).
    pub room: FallBackRoom,
    /// Obstacles on its path (they matter only under NORTH-OPT-34).
    pub obstacles: u8,
    /// Whether generals with the unit go with it (NORTH-MOR-08).
    pub generals_follow: bool,
}

impl From<&MoraleResponse> for FallBackFacts {
    /// The fall-back facts a standing response carries.
    fn from(r: &MoraleResponse) -> Self {
        FallBackFacts {
            room: r.room,
            obstacles: r.fall_back_obstacles,
            generals_follow: r.generals_follow,
        }
    }
}

/// A morale check in progress: the toss and its modifier, the rallies tried so far, waiting for the owner.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoraleInProgress {
    /// The unit checking.
    pub unit: UnitId,
    /// What hit it.
    pub source: Category,
    /// The morale modifier (NORTH-MOR-03).
    pub modifier: i16,
    /// The morale face, once thrown.
    pub face: Option<u16>,
    /// Subtracted from the toss by rallies so far.
    pub subtract: i16,
    /// Each rally tried and its result on the general.
    pub rallies: Vec<(GeneralId, RallyApplied)>,
    /// The rally results, in order.
    pub rally_results: [Option<RallyResult>; 2],
    /// Brigade order checks made because an MG was lost.
    pub order_checks: Vec<(BrigadeId, BrigadeOrder)>,
    /// Whether the owner has made his last rally attempt.
    pub rallies_closed: bool,
    /// The fall-back's facts.
    pub fall_back: FallBackFacts,
    /// Generals measured as "with" the unit without being attached to it (within `with_distance`,
    /// NORTH-OPT-16 / NORTH-CMD-08).
    #[cfg_attr(feature = "serde", serde(default))]
    pub nearby: Vec<GeneralId>,
}

impl MoraleInProgress {
    /// The modified toss so far (face + modifier − rallies), once the face is thrown.
    #[must_use]
    pub fn total(&self) -> Option<i16> {
        self.face.map(|f| {
            (f as i16)
                .saturating_add(self.modifier)
                .saturating_sub(self.subtract)
        })
    }

    /// The band the toss gives so far (NORTH-MOR-02).
    #[must_use]
    pub fn band(&self) -> Option<MoraleBand> {
        self.total().map(morale_band)
    }
}

/// Refuses when the dice source could not give every face (a face not thrown must not become a result).
pub(crate) fn fault_check<D: Dice + ?Sized>(dice: &D) -> Result<(), RuleViolation> {
    match dice.fault() {
        Some(e) => Err(RuleViolation::Dice(e.clone())),
        None => Ok(()),
    }
}

impl Battle {
    /// NORTH-MOR-03: the facts a unit checks with after a hit of `source`.
    pub fn morale_facts(
        &self,
        unit: UnitId,
        source: Category,
        in_cover: bool,
    ) -> Result<MoraleFacts, RuleViolation> {
        let u = self.unit(unit)?;
        Ok(MoraleFacts {
            artillery: u.arm() == Arm::Artillery,
            skirmishers: u.is_skirmishers(),
            behind_cover: in_cover,
            source: Some(source),
        })
    }

    /// NORTH-CMD-09 / NORTH-OPT-15 / NORTH-OPT-17: checks a morale response before any die is thrown.
    pub(crate) fn check_response(
        &self,
        unit: UnitId,
        _source: Category,
        _in_cover: bool,
        response: &MoraleResponse,
    ) -> Result<(), RuleViolation> {
        let max = if self.options.multiple_rally_attempts {
            2
        } else {
            1
        };
        let mut ranks = Vec::new();
        for (i, &g) in response.rally_by.iter().enumerate() {
            let too_many = || {
                Err(RuleViolation::CannotRally {
                    general: g,
                    reason: RallyRefusal::TooManyAttempts,
                })
            };
            if i >= max || response.rally_by.iter().take(i).any(|&h| h == g) {
                return too_many();
            }
            self.check_rally(g, unit)?;
            let rank = matches!(self.general(g)?.rank(), Rank::ArmyCommander);
            if ranks.contains(&rank) {
                return too_many();
            }
            ranks.push(rank);
            if response.policy == RallyPolicy::IfWouldNotRally
                && self.options.rally_declared_before_morale_toss
            {
                return Err(RuleViolation::CannotRally {
                    general: g,
                    reason: RallyRefusal::NeedsSightOfToss,
                });
            }
        }
        Ok(())
    }

    /// NORTH-MOR-01 / NORTH-SEQ-07 / NORTH-MOR-12: the morale check a hit forces, resolved at once and
    /// completely with the owner's standing decisions: rally attempts, the toss, generals lost and their
    /// brigades' order checks, then the result. The game plays the same steps one decision at a time
    /// ([`Battle::open_attack`], [`Battle::rally`], [`Battle::end_rallies`], [`Battle::choose`]).
    pub fn resolve_morale<D: Dice + ?Sized>(
        &mut self,
        unit: UnitId,
        source: Category,
        in_cover: bool,
        response: &MoraleResponse,
        dice: &mut D,
    ) -> Result<MoraleReport, RuleViolation> {
        self.live_unit(unit)?;
        self.check_response(unit, source, in_cover, response)?;
        let mut next = self.clone();
        let report = next.morale_by_policy(unit, source, in_cover, response, dice)?;
        fault_check(dice)?;
        *self = next;
        Ok(report)
    }

    fn morale_by_policy<D: Dice + ?Sized>(
        &mut self,
        unit: UnitId,
        source: Category,
        in_cover: bool,
        response: &MoraleResponse,
        dice: &mut D,
    ) -> Result<MoraleReport, RuleViolation> {
        let fall_back = FallBackFacts::from(response);
        if let Some(report) =
            self.open_morale(unit, source, in_cover, fall_back, Vec::new(), dice)?
        {
            return Ok(report);
        }
        self.answer_morale(unit, response, dice)
    }

    /// Answers the waiting morale check of `unit` with the standing decisions of `response`: each listed
    /// general tries to rally when the policy says so, then the choice on 3–4.
    pub(crate) fn answer_morale<D: Dice + ?Sized>(
        &mut self,
        unit: UnitId,
        response: &MoraleResponse,
        dice: &mut D,
    ) -> Result<MoraleReport, RuleViolation> {
        for &g in &response.rally_by {
            let wanted = match self.morale.as_ref().and_then(MoraleInProgress::total) {
                Some(total) => response.policy == RallyPolicy::Always || total >= 3,
                None => true,
            };
            if wanted
                && self.morale_step() == Some(MoraleStep::Rally)
                && let MoraleProgress::Done(report) = self.rally_inner(g, dice)?
            {
                return Ok(report);
            }
        }
        if self.morale_step() == Some(MoraleStep::Rally)
            && let MoraleProgress::Done(report) = self.end_rallies_inner(dice)?
        {
            return Ok(report);
        }
        let loss_removes = self.unit(unit)?.next_loss_removes(&self.options);
        self.choose_inner(response.choice.choose(loss_removes), dice)
    }

    /// The morale check waiting for its owner's decisions, if any.
    #[must_use]
    pub fn morale_in_progress(&self) -> Option<&MoraleInProgress> {
        self.morale.as_ref()
    }

    /// What the owner of the unit checking morale decides next, if a check waits.
    #[must_use]
    pub fn morale_step(&self) -> Option<MoraleStep> {
        self.morale.as_ref().map(|m| {
            if m.rallies_closed {
                MoraleStep::Choice
            } else {
                MoraleStep::Rally
            }
        })
    }

    /// NORTH-CMD-09 / NORTH-CMD-14 / NORTH-OPT-17: the generals who may still try to rally the unit checking
    /// morale: with it (or as the options allow), not yet tried, within the attempts allowed (one; an MG and the
    /// AC under NORTH-OPT-17).
    #[must_use]
    pub fn rally_candidates(&self) -> Vec<GeneralId> {
        let Some(m) = &self.morale else {
            return Vec::new();
        };
        if m.rallies_closed {
            return Vec::new();
        }
        let max = if self.options.multiple_rally_attempts {
            2
        } else {
            1
        };
        if m.rallies.len() >= max {
            return Vec::new();
        }
        let Ok(u) = self.unit(m.unit) else {
            return Vec::new();
        };
        let mg = self.brigade(u.brigade()).ok().map(|b| b.major_general());
        let ac = self.army_commander(u.side());
        let tried_ranks: Vec<bool> = m
            .rallies
            .iter()
            .filter_map(|(g, _)| self.general(*g).ok())
            .map(|g| matches!(g.rank(), Rank::ArmyCommander))
            .collect();
        mg.into_iter()
            .chain([ac])
            .filter(|&g| m.rallies.iter().all(|(h, _)| *h != g))
            .filter(|&g| {
                self.general(g).is_ok_and(|general| {
                    !tried_ranks.contains(&matches!(general.rank(), Rank::ArmyCommander))
                })
            })
            .filter(|&g| self.check_rally(g, m.unit).is_ok())
            .collect()
    }

    /// NORTH-MOR-01 / NORTH-MOR-02 / NORTH-MOR-03: a hit opens the target's morale check: its modifier, and the
    /// morale toss thrown (unless rallies are declared before it, NORTH-OPT-15). The owner then decides on
    /// rallies and, on 3–4, chooses. A unit with no general able to rally it goes straight on.
    pub(crate) fn open_morale<D: Dice + ?Sized>(
        &mut self,
        unit: UnitId,
        source: Category,
        in_cover: bool,
        fall_back: FallBackFacts,
        nearby: Vec<GeneralId>,
        dice: &mut D,
    ) -> Result<Option<MoraleReport>, RuleViolation> {
        if self.morale.is_some() {
            return Err(RuleViolation::MoralePending);
        }
        let facts = self.morale_facts(unit, source, in_cover)?;
        let modifier = morale_modifier(&facts, &self.options);
        let face = if self.options.rally_declared_before_morale_toss {
            None
        } else {
            let name = self.unit(unit)?.name();
            dice.about(format_args!("morale toss of {name}"));
            Some(Die::D6.roll(dice))
        };
        self.morale = Some(MoraleInProgress {
            unit,
            source,
            modifier,
            face,
            subtract: 0,
            rallies: Vec::new(),
            rally_results: [None; 2],
            order_checks: Vec::new(),
            rallies_closed: false,
            fall_back,
            nearby,
        });
        if self.rally_candidates().is_empty() {
            return match self.end_rallies_inner(dice)? {
                MoraleProgress::Done(r) => Ok(Some(r)),
                MoraleProgress::Continues => Ok(None),
            };
        }
        Ok(None)
    }

    /// NORTH-CMD-09 / NORTH-CMD-10 / NORTH-CMD-11 / NORTH-CMD-12: the owner has general `general` try to rally
    /// the unit checking morale: his rally toss, its result on him, and the order check of his brigade if he is
    /// lost. When no further attempt is possible, the check goes on as [`Battle::end_rallies`].
    pub fn rally<D: Dice + ?Sized>(
        &mut self,
        general: GeneralId,
        dice: &mut D,
    ) -> Result<MoraleProgress, RuleViolation> {
        let mut next = self.clone();
        let progress = next.rally_inner(general, dice)?;
        fault_check(dice)?;
        *self = next;
        Ok(progress)
    }

    pub(crate) fn rally_inner<D: Dice + ?Sized>(
        &mut self,
        general: GeneralId,
        dice: &mut D,
    ) -> Result<MoraleProgress, RuleViolation> {
        if self.morale_step() != Some(MoraleStep::Rally) {
            return Err(RuleViolation::NoMoraleDecision);
        }
        let Some(unit) = self.morale.as_ref().map(|m| m.unit) else {
            return Err(RuleViolation::NoMoraleDecision);
        };
        if !self.rally_candidates().contains(&general) {
            self.check_rally(general, unit)?;
            return Err(RuleViolation::CannotRally {
                general,
                reason: RallyRefusal::TooManyAttempts,
            });
        }
        let melee = self.morale.as_ref().map(|m| m.source) == Some(Category::Melee);
        {
            let (g, u) = (self.general(general)?.name(), self.unit(unit)?.name());
            dice.about(format_args!("rally toss of {g} with {u}"));
        }
        let res = RallyToss { melee }.roll(dice);
        let applied = self.apply_rally_result(general, res)?;
        let check = match applied.order_check_due {
            Some(b) => {
                let name = self.brigade(b)?.name().to_string();
                dice.about(format_args!("order check of {name}, its general lost"));
                Some((b, self.roll_order_check_inner(b, dice)?))
            }
            None => None,
        };
        if let Some(m) = self.morale.as_mut() {
            if let Some(slot) = m.rally_results.get_mut(m.rallies.len()) {
                *slot = Some(res);
            }
            m.subtract += i16::from(res.subtraction());
            m.rallies.push((general, applied));
            m.order_checks.extend(check);
        }
        if self.rally_candidates().is_empty() {
            return self.end_rallies_inner(dice);
        }
        Ok(MoraleProgress::Continues)
    }

    /// NORTH-MOR-02 / NORTH-MOR-04 / NORTH-MOR-06: the owner makes no (further) rally attempt: the morale toss is
    /// thrown if it was not yet (NORTH-OPT-15), and its result applied, unless it is 3–4 and waits for the
    /// owner's choice ([`Battle::choose`]).
    pub fn end_rallies<D: Dice + ?Sized>(
        &mut self,
        dice: &mut D,
    ) -> Result<MoraleProgress, RuleViolation> {
        let mut next = self.clone();
        let progress = next.end_rallies_inner(dice)?;
        fault_check(dice)?;
        *self = next;
        Ok(progress)
    }

    pub(crate) fn end_rallies_inner<D: Dice + ?Sized>(
        &mut self,
        dice: &mut D,
    ) -> Result<MoraleProgress, RuleViolation> {
        if self.morale_step() != Some(MoraleStep::Rally) {
            return Err(RuleViolation::NoMoraleDecision);
        }
        let needs_face = self.morale.as_ref().is_some_and(|m| m.face.is_none());
        if needs_face {
            let unit = self.morale.as_ref().map(|m| m.unit);
            if let Some(u) = unit {
                let name = self.unit(u)?.name();
                dice.about(format_args!("morale toss of {name}"));
            }
            let face = Die::D6.roll(dice);
            if let Some(m) = self.morale.as_mut() {
                m.face = Some(face);
            }
        }
        let band = match self.morale.as_mut() {
            Some(m) => {
                m.rallies_closed = true;
                m.band()
            }
            None => None,
        };
        match band {
            Some(MoraleBand::Choice) => Ok(MoraleProgress::Continues),
            _ => self.finish_morale(None, dice).map(MoraleProgress::Done),
        }
    }

    /// NORTH-MOR-05: the owner's choice on a 3–4: lose a stand, or fall back.
    pub fn choose<D: Dice + ?Sized>(
        &mut self,
        choice: Choice,
        dice: &mut D,
    ) -> Result<MoraleReport, RuleViolation> {
        let mut next = self.clone();
        let report = next.choose_inner(choice, dice)?;
        fault_check(dice)?;
        *self = next;
        Ok(report)
    }

    pub(crate) fn choose_inner<D: Dice + ?Sized>(
        &mut self,
        choice: Choice,
        dice: &mut D,
    ) -> Result<MoraleReport, RuleViolation> {
        if self.morale_step() != Some(MoraleStep::Choice) {
            return Err(RuleViolation::NoMoraleDecision);
        }
        self.finish_morale(Some(choice), dice)
    }

    /// NORTH-MOR-04 to NORTH-MOR-09 / NORTH-OPT-34: applies the check's result and closes it.
    fn finish_morale<D: Dice + ?Sized>(
        &mut self,
        choice: Option<Choice>,
        dice: &mut D,
    ) -> Result<MoraleReport, RuleViolation> {
        let Some(m) = self.morale.clone() else {
            return Err(RuleViolation::NoMoraleDecision);
        };
        let band = m.band().unwrap_or(MoraleBand::Rallies);
        let falls = band == MoraleBand::Both || choice == Some(Choice::FallBack);
        let mut room = m.fall_back.room;
        let mut fall_back_obstacle = None;
        if falls && self.options.fall_back_obstacle_toss && m.fall_back.obstacles > 0 {
            // NORTH-OPT-34: a failed obstacle toss stops the fall-back at the obstacle, as a blocked one.
            let name = self.unit(m.unit)?.name();
            dice.about(format_args!("obstacle toss of {name} falling back"));
            let o = ObstacleToss {
                obstacles: m.fall_back.obstacles,
                per_obstacle: self.options.obstacle_toss_per_obstacle,
            }
            .roll(dice);
            if o != ObstacleOutcome::Crossed {
                room = FallBackRoom::Blocked;
            }
            fall_back_obstacle = Some(o);
        }
        let effect = self.apply_morale(m.unit, band, choice, room, m.fall_back.generals_follow)?;
        self.morale = None;
        Ok(MoraleReport {
            modifier: m.modifier,
            face: m.face.unwrap_or(1),
            outcome: MoraleThrow {
                band,
                rally: m.rally_results,
            },
            rallies: m.rallies,
            order_checks: m.order_checks,
            choice,
            fall_back_obstacle,
            effect,
        })
    }

    /// NORTH-MOR-04 / NORTH-MOR-05 / NORTH-MOR-06 / NORTH-CAS-01: applies a morale result: a rally changes
    /// nothing; 3–4 takes the owner's choice (a stand, or a fall-back); 5–6 a stand and then, if the unit is
    /// still in play, a fall-back. A choice must be given for 3–4 and only then.
    pub(crate) fn apply_morale(
        &mut self,
        unit: UnitId,
        band: MoraleBand,
        choice: Option<Choice>,
        room: FallBackRoom,
        generals_follow: bool,
    ) -> Result<MoraleApplied, RuleViolation> {
        self.live_unit(unit)?;
        if (band == MoraleBand::Choice) != choice.is_some() {
            return Err(RuleViolation::ChoiceMismatch(band));
        }
        let mut effect = MoraleApplied::default();
        let lose = matches!(
            (band, choice),
            (MoraleBand::Both, _) | (MoraleBand::Choice, Some(Choice::LoseStand))
        );
        let fall = matches!(
            (band, choice),
            (MoraleBand::Both, _) | (MoraleBand::Choice, Some(Choice::FallBack))
        );
        if lose {
            let loss = self.lose_stand(unit)?;
            effect.removed = loss.removed;
            effect.stand_lost = Some(loss);
        }
        if fall && !effect.removed {
            self.fall_back(unit, room, lose, generals_follow, &mut effect)?;
        }
        Ok(effect)
    }

    /// NORTH-CAS-01 to NORTH-CAS-05: one stand lost; a removed unit breaks contact and its generals are left
    /// alone.
    fn lose_stand(&mut self, unit: UnitId) -> Result<StandLoss, RuleViolation> {
        let options = self.options.clone();
        let loss = self.unit_mut(unit)?.lose_stand(&options);
        if loss.removed {
            self.detach(unit);
        }
        Ok(loss)
    }

    /// A unit leaving play: contacts broken, generals with it no longer with anything.
    fn detach(&mut self, unit: UnitId) {
        self.break_contacts(unit);
        for g in &mut self.generals {
            if g.with_unit == Some(unit) {
                g.with_unit = None;
            }
        }
    }

    /// NORTH-MOR-07 / NORTH-MOR-08 / NORTH-MOR-09 / NORTH-ART-06 / NORTH-OPT-20 / NORTH-OPT-21: the unit
    /// falls back 10" (mounted cavalry 15") away from its attackers, breaks contact and reforms not deployed:
    /// column, or a limbered crew that leaves its gun where it stood. Generals with it may go along.
    fn fall_back(
        &mut self,
        unit: UnitId,
        room: FallBackRoom,
        already_lost: bool,
        generals_follow: bool,
        effect: &mut MoraleApplied,
    ) -> Result<(), RuleViolation> {
        let options = self.options.clone();
        let u = self.unit_mut(unit)?;
        let troop = u.troop();
        effect.fell_back = Some(fall_back_distance(troop));
        if troop == Troop::Artillery {
            if u.gun == Some(GunState::Manned) {
                u.gun = Some(GunState::Abandoned {
                    left_in: u.formation,
                });
                effect.gun_abandoned = true;
            }
            u.formation = Formation::Limbered;
        } else {
            u.formation = Formation::Column;
        }
        let crews_removed = troop == Troop::Artillery && options.crews_without_guns_removed;
        if crews_removed {
            u.remove(UnitStatus::Removed);
            effect.removed = true;
        }
        self.break_contacts(unit);
        if !generals_follow || crews_removed {
            for g in &mut self.generals {
                if g.with_unit == Some(unit) {
                    g.with_unit = None;
                }
            }
        }
        if crews_removed || room == FallBackRoom::Clear {
            return Ok(());
        }
        effect.fall_back_short = true;
        match (options.blocked_fall_back, room) {
            (BlockedFallBack::LoseStand, _) if !already_lost => {
                let loss = self.lose_stand(unit)?;
                effect.removed = loss.removed;
                effect.blocked_loss = Some(loss);
            }
            (BlockedFallBack::ExitTable, FallBackRoom::TableEdge) => {
                self.unit_mut(unit)?.remove(UnitStatus::LeftTable);
                self.detach(unit);
                effect.left_table = true;
            }
            _ => {}
        }
        Ok(())
    }
}

/// The effect of one attack on its target, as [`WholeAttack`] counts it for the combined odds (NORTH-MOR-11).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::EnumIter, strum::Display,
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum AttackEffect {
    /// The toss missed.
    NoHit,
    /// Hit, but the unit rallied.
    Rallied,
    /// It lost a stand and stays.
    StandLost,
    /// It fell back.
    FellBack,
    /// It lost a stand and fell back.
    StandLostAndFellBack,
    /// It was removed.
    Removed,
}

/// The outcome of one attack: the effect on the target and any rallying general lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AttackOutcome {
    /// What happened to the target.
    pub effect: AttackEffect,
    /// A rallying general was killed.
    pub general_killed: bool,
    /// A rallying general was captured.
    pub general_captured: bool,
}

/// One whole attack as a random procedure ("expected effect of one attack"): the combat toss, then the morale
/// check with its rally attempts, then the owner's choice on 3–4 (NORTH-CBT-02, NORTH-MOR-02, NORTH-MOR-05,
/// NORTH-CAS-02, NORTH-CAS-03). Its [`Resolve::odds`] are the exact chances of each [`AttackOutcome`]; it
/// assumes a clear fall-back. [`crate::Battle::attack_odds`] builds one from a battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WholeAttack {
    /// The combat toss.
    pub toss: CombatToss,
    /// The morale check a hit causes.
    pub check: MoraleCheck,
    /// The target's counted stands now.
    pub stands: u8,
    /// The target is artillery (removed with its last crew stand, NORTH-CAS-03).
    pub artillery: bool,
    /// NORTH-OPT-20 (c): a crew that falls back is removed.
    pub crews_removed: bool,
    /// The owner's choice on 3–4.
    pub choice: ChoicePolicy,
}

impl WholeAttack {
    fn loss_removes(&self) -> bool {
        if self.artillery {
            self.stands <= 1
        } else {
            self.stands <= crate::tables::MIN_STANDS_IN_PLAY
        }
    }

    fn effect_of(&self, band: MoraleBand) -> AttackEffect {
        let removes = self.loss_removes();
        let fall = if self.artillery && self.crews_removed {
            AttackEffect::Removed
        } else {
            AttackEffect::FellBack
        };
        match band {
            MoraleBand::Rallies => AttackEffect::Rallied,
            MoraleBand::Choice => match self.choice.choose(removes) {
                Choice::LoseStand if removes => AttackEffect::Removed,
                Choice::LoseStand => AttackEffect::StandLost,
                Choice::FallBack => fall,
            },
            MoraleBand::Both if removes => AttackEffect::Removed,
            MoraleBand::Both if fall == AttackEffect::Removed => AttackEffect::Removed,
            MoraleBand::Both => AttackEffect::StandLostAndFellBack,
        }
    }

    fn outcome(&self, hit: bool, check: &MoraleThrow) -> AttackOutcome {
        if !hit {
            return AttackOutcome {
                effect: AttackEffect::NoHit,
                general_killed: false,
                general_captured: false,
            };
        }
        AttackOutcome {
            effect: self.effect_of(check.band),
            general_killed: check.general_killed(),
            general_captured: check.general_captured(),
        }
    }
}

impl Resolve for WholeAttack {
    type Outcome = AttackOutcome;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> AttackOutcome {
        if !self.toss.roll(dice) {
            return self.outcome(
                false,
                &MoraleThrow {
                    band: MoraleBand::Rallies,
                    rally: [None; 2],
                },
            );
        }
        let check = self.check.roll(dice);
        self.outcome(true, &check)
    }
    fn odds(&self) -> Dist<AttackOutcome> {
        let morale = self.check.odds();
        self.toss.odds().and_then(|&hit| {
            if hit {
                morale.map(|c| self.outcome(true, c))
            } else {
                Dist::certain(self.outcome(
                    false,
                    &MoraleThrow {
                        band: MoraleBand::Rallies,
                        rally: [None; 2],
                    },
                ))
            }
        })
    }
}
