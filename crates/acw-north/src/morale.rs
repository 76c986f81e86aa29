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
    Formation, MORALE_ARTILLERY_FIRE, MORALE_ARTILLERY_MELEE, MORALE_COVER_FROM_FIRE,
    MORALE_SKIRMISHERS_MELEE, MoraleBand, Order, RallyResult, Troop, fall_back_distance,
    morale_band, rally_effect,
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

/// The result of a morale check: its band and each rally attempt's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoraleCheckOutcome {
    /// The morale result.
    pub band: MoraleBand,
    /// Each attempt's rally result (`None`: not attempted).
    pub rally: [Option<RallyResult>; 2],
}

impl MoraleCheckOutcome {
    /// Whether any rallying general was killed.
    pub fn general_killed(&self) -> bool {
        self.rally.contains(&Some(RallyResult::Killed))
    }
    /// Whether any rallying general was captured.
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
    pub fn roll_with_face<D: Dice + ?Sized>(&self, dice: &mut D) -> (u16, MoraleCheckOutcome) {
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
        (face, MoraleCheckOutcome { band, rally })
    }

    /// The rally attempts from `index` on, given the total so far and the results so far.
    fn rest_odds(
        &self,
        total: i16,
        index: usize,
        done: [Option<RallyResult>; 2],
    ) -> Dist<MoraleCheckOutcome> {
        if index >= self.attempts() {
            return Dist::certain(MoraleCheckOutcome {
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
    type Outcome = MoraleCheckOutcome;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> MoraleCheckOutcome {
        self.roll_with_face(dice).1
    }
    fn odds(&self) -> Dist<MoraleCheckOutcome> {
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

/// What a morale result did to the unit (NORTH-MOR-04 to NORTH-MOR-09).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoraleEffect {
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

/// A morale check from start to finish.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoraleReport {
    /// The modifier before rallying.
    pub modifier: i16,
    /// The morale face thrown.
    pub face: u16,
    /// The band and rally results.
    pub outcome: MoraleCheckOutcome,
    /// Each rally result applied to its general.
    pub rallies: Vec<(GeneralId, RallyApplied)>,
    /// Brigade order checks made because an MG was lost (NORTH-CMD-11).
    pub order_checks: Vec<(BrigadeId, Order)>,
    /// The owner's choice on 3–4.
    pub choice: Option<Choice>,
    /// The fall-back's obstacle toss (NORTH-OPT-34), if one was made.
    pub fall_back_obstacle: Option<ObstacleOutcome>,
    /// What happened to the unit.
    pub effect: MoraleEffect,
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
    /// completely: rally attempts, the toss, generals lost and their brigades' order checks, then the result.
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
        let facts = self.morale_facts(unit, source, in_cover)?;
        let modifier = morale_modifier(&facts, &self.options);
        let check = MoraleCheck {
            modifier,
            rallies: u8::try_from(response.rally_by.len()).unwrap_or(2),
            melee: source == Category::Melee,
            policy: response.policy,
            declared_before: self.options.rally_declared_before_morale_toss,
        };
        let (face, outcome) = check.roll_with_face(dice);
        let mut rallies = Vec::new();
        let mut order_checks = Vec::new();
        for (&g, res) in response.rally_by.iter().zip(outcome.rally) {
            let Some(res) = res else { continue };
            let applied = self.apply_rally_result(g, res)?;
            if let Some(b) = applied.order_check_due {
                let new = self.roll_order_check(b, dice)?;
                order_checks.push((b, new));
            }
            rallies.push((g, applied));
        }
        let loss_removes = self.unit(unit)?.next_loss_removes(&self.options);
        let choice =
            (outcome.band == MoraleBand::Choice).then(|| response.choice.choose(loss_removes));
        let falls = outcome.band == MoraleBand::Both || choice == Some(Choice::FallBack);
        let mut room = response.room;
        let mut fall_back_obstacle = None;
        if falls && self.options.fall_back_obstacle_toss && response.fall_back_obstacles > 0 {
            // NORTH-OPT-34: a failed obstacle toss stops the fall-back at the obstacle, as a blocked one.
            let o = ObstacleToss {
                obstacles: response.fall_back_obstacles,
                per_obstacle: self.options.obstacle_toss_per_obstacle,
            }
            .roll(dice);
            if o != ObstacleOutcome::Crossed {
                room = FallBackRoom::Blocked;
            }
            fall_back_obstacle = Some(o);
        }
        let effect =
            self.apply_morale(unit, outcome.band, choice, room, response.generals_follow)?;
        Ok(MoraleReport {
            modifier,
            face,
            outcome,
            rallies,
            order_checks,
            choice,
            fall_back_obstacle,
            effect,
        })
    }

    /// NORTH-MOR-04 / NORTH-MOR-05 / NORTH-MOR-06 / NORTH-CAS-01: applies a morale result: a rally changes
    /// nothing; 3–4 takes the owner's choice (a stand, or a fall-back); 5–6 a stand and then, if the unit is
    /// still in play, a fall-back. A choice must be given for 3–4 and only then.
    pub fn apply_morale(
        &mut self,
        unit: UnitId,
        band: MoraleBand,
        choice: Option<Choice>,
        room: FallBackRoom,
        generals_follow: bool,
    ) -> Result<MoraleEffect, RuleViolation> {
        self.live_unit(unit)?;
        if (band == MoraleBand::Choice) != choice.is_some() {
            return Err(RuleViolation::ChoiceMismatch(band));
        }
        let mut effect = MoraleEffect::default();
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
        effect: &mut MoraleEffect,
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

/// The effect of one attack on its target, for the combined odds (NORTH-MOR-11).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::EnumIter, strum::Display,
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Effect {
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
    pub effect: Effect,
    /// A rallying general was killed.
    pub general_killed: bool,
    /// A rallying general was captured.
    pub general_captured: bool,
}

/// "Expected effect of one attack": the combat toss, then the morale check with its rally attempts, then the
/// owner's choice on 3–4 (NORTH-CBT-02, NORTH-MOR-02, NORTH-MOR-05, NORTH-CAS-02, NORTH-CAS-03). Assumes a
/// clear fall-back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AttackOdds {
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

impl AttackOdds {
    fn loss_removes(&self) -> bool {
        if self.artillery {
            self.stands <= 1
        } else {
            self.stands <= crate::tables::MIN_STANDS_IN_PLAY
        }
    }

    fn effect_of(&self, band: MoraleBand) -> Effect {
        let removes = self.loss_removes();
        let fall = if self.artillery && self.crews_removed {
            Effect::Removed
        } else {
            Effect::FellBack
        };
        match band {
            MoraleBand::Rallies => Effect::Rallied,
            MoraleBand::Choice => match self.choice.choose(removes) {
                Choice::LoseStand if removes => Effect::Removed,
                Choice::LoseStand => Effect::StandLost,
                Choice::FallBack => fall,
            },
            MoraleBand::Both if removes => Effect::Removed,
            MoraleBand::Both if fall == Effect::Removed => Effect::Removed,
            MoraleBand::Both => Effect::StandLostAndFellBack,
        }
    }

    fn outcome(&self, hit: bool, check: &MoraleCheckOutcome) -> AttackOutcome {
        if !hit {
            return AttackOutcome {
                effect: Effect::NoHit,
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

impl Resolve for AttackOdds {
    type Outcome = AttackOutcome;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> AttackOutcome {
        if !self.toss.roll(dice) {
            return self.outcome(
                false,
                &MoraleCheckOutcome {
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
                    &MoraleCheckOutcome {
                        band: MoraleBand::Rallies,
                        rally: [None; 2],
                    },
                ))
            }
        })
    }
}
