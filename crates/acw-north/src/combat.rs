//! The combat toss shared by artillery, musketry and melee: who may attack, the modifier table, grouping by
//! target, and resolving an attack through to its morale check (NORTH-CBT-01 to NORTH-CBT-13, NORTH-FIR-01
//! to NORTH-FIR-07, NORTH-ART-01 to NORTH-ART-04, NORTH-ART-09, NORTH-MEL-06, NORTH-MEL-09,
//! NORTH-SEQ-04 to NORTH-SEQ-08).

use crate::error::{AttackRefusal, RuleViolation};
use crate::morale::{FallBackFacts, MoraleReport, MoraleResponse, fault_check};
use crate::options::{
    CavalryAttackModifier, CavalryAttackScope, DismountedMove, FirstRoundScope,
    GroupModifierPolicy, MountedTargetUnderFire, Options, SkirmishScreen,
};
use crate::state::{Battle, GeneralId, GunState, MeleeRole, Unit, UnitId};
use crate::tables::{
    Firer, Formation, HIT_TARGET, LONG_RANGE, MOD_COVER, MOD_FIRST_ROUND, MOD_LONG_RANGE,
    MOD_MOUNTED_ATTACKER, MOD_MOUNTED_TARGET, MOD_NOT_DEPLOYED, MOD_PER_EXTRA_ATTACKER,
    MOD_SKIRMISHER_CROSSING, SKIRMISH_FIRE_MOVE, Troop, hit_sixths, musketry_range,
};
use acw_core::dice::{Dice, Die};
use acw_core::measure::Inches;
use acw_core::table::Footprint;
use acw_core::{Arm, Dist, Resolve};

/// The three combat categories, in the order they are resolved (NORTH-SEQ-04).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::EnumIter, strum::Display,
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[strum(serialize_all = "lowercase")]
pub enum Category {
    /// Artillery fire along line of sight.
    Artillery,
    /// Musketry: 18" infantry, 12" mounted cavalry.
    Musketry,
    /// Melee between units in contact.
    Melee,
}

impl Category {
    /// Whether the category is fire (artillery or musketry) rather than melee.
    #[must_use]
    pub const fn is_fire(self) -> bool {
        !matches!(self, Category::Melee)
    }

    /// The category's position in the resolution order, from 0.
    #[must_use]
    pub const fn index(self) -> usize {
        match self {
            Category::Artillery => 0,
            Category::Musketry => 1,
            Category::Melee => 2,
        }
    }
}

/// The facts about a target that set modifiers (NORTH-CBT-05, NORTH-CBT-08, NORTH-CBT-09, NORTH-FIR-05).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TargetFacts {
    /// Behind real cover against these attackers.
    pub behind_cover: bool,
    /// Behind enemy skirmishers, counted as cover under `SkirmishScreen::AsCover` (NORTH-OPT-14).
    pub screened: bool,
    /// Deployed (line, skirmish order, unlimbered).
    pub deployed: bool,
    /// Mounted cavalry.
    pub mounted_cavalry: bool,
    /// In skirmish order.
    pub skirmishers: bool,
}

/// Everything that sets the net modifier of one combat toss.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CombatSituation {
    /// The category.
    pub category: Category,
    /// k: units attacking the target together (at least 1).
    pub attackers: u8,
    /// Batteries of the group firing at more than 24" (NORTH-CBT-04).
    pub long_range_batteries: u8,
    /// Mounted cavalry units in the group (NORTH-CBT-06).
    pub mounted_cavalry_attackers: u8,
    /// Skirmishers of the group that crossed obstacles or rough terrain this phase (NORTH-FIR-04).
    pub crossing_skirmishers: u8,
    /// First round of melee (NORTH-CBT-07).
    pub first_round: bool,
    /// The target.
    pub target: TargetFacts,
}

impl Default for CombatSituation {
    fn default() -> Self {
        CombatSituation {
            category: Category::Musketry,
            attackers: 1,
            long_range_batteries: 0,
            mounted_cavalry_attackers: 0,
            crossing_skirmishers: 0,
            first_round: false,
            target: TargetFacts {
                deployed: true,
                ..TargetFacts::default()
            },
        }
    }
}

/// Each modifier of the combat table as it applies to one toss (NORTH-CBT-03).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ModifierBreakdown {
    /// −1: artillery at more than 24" (NORTH-CBT-04).
    pub long_range: i16,
    /// −1 (or −2): target behind cover (NORTH-CBT-05, NORTH-FIR-05, NORTH-OPT-28).
    pub cover: i16,
    /// −1: target attacked by mounted cavalry (NORTH-CBT-06).
    pub mounted_attacker: i16,
    /// −1: skirmishers firing after crossing obstacles or rough terrain (NORTH-FIR-04).
    pub skirmisher_crossing: i16,
    /// +1: first round of melee (NORTH-CBT-07).
    pub first_round: i16,
    /// +1: target not deployed (NORTH-CBT-08).
    pub not_deployed: i16,
    /// +1: target is mounted cavalry under fire (NORTH-CBT-09).
    pub mounted_target: i16,
    /// +1 per attacking unit after the first (NORTH-CBT-10).
    pub extra_attackers: i16,
}

impl ModifierBreakdown {
    /// NORTH-CBT-13: the net modifier, the plain sum (no cap).
    #[must_use]
    pub const fn net(&self) -> i16 {
        self.long_range
            .saturating_add(self.cover)
            .saturating_add(self.mounted_attacker)
            .saturating_add(self.skirmisher_crossing)
            .saturating_add(self.first_round)
            .saturating_add(self.not_deployed)
            .saturating_add(self.mounted_target)
            .saturating_add(self.extra_attackers)
    }
}

/// NORTH-CBT-12: how an attacker-tied penalty of `value` applies when `meeting` of `k` attackers meet its
/// condition.
#[must_use]
pub const fn group_penalty(meeting: u8, k: u8, value: i16, policy: GroupModifierPolicy) -> i16 {
    match policy {
        GroupModifierPolicy::Any if meeting > 0 => value,
        GroupModifierPolicy::All if meeting > 0 && meeting >= k => value,
        GroupModifierPolicy::PerUnit => value.saturating_mul(meeting as i16),
        _ => 0,
    }
}

impl CombatSituation {
    /// NORTH-CBT-03 to NORTH-CBT-13 (with NORTH-ART-02, NORTH-FIR-03, NORTH-MEL-06): every modifier that
    /// applies. Artillery: range, cover, not deployed, mounted target, extra batteries. Musketry: cover, not
    /// deployed, mounted target, mounted attackers, skirmisher crossing, extra units. Melee: first round, not
    /// deployed, cover, mounted attackers, extra units. Several batteries on one target combine their fire
    /// this way (NORTH-ART-03).
    #[must_use]
    pub fn modifiers(&self, options: &Options) -> ModifierBreakdown {
        let fire = self.category.is_fire();
        let k = self.attackers.max(1);
        let policy = options.group_modifier_policy;
        let t = self.target;
        let base_cover = t.behind_cover
            || (fire && t.screened && options.skirmish_screen == SkirmishScreen::AsCover);
        let skirmisher_cover = fire && t.skirmishers;
        let cover = match (base_cover, skirmisher_cover) {
            (true, true) if options.skirmisher_cover_stacks => 2 * MOD_COVER,
            (false, false) => 0,
            _ => MOD_COVER,
        };
        let cavalry_scope = match options.cavalry_attack_scope {
            CavalryAttackScope::MusketryAndMelee => self.category != Category::Artillery,
            CavalryAttackScope::MeleeOnly => self.category == Category::Melee,
        };
        let cavalry_applies = cavalry_scope
            && match options.cavalry_attack_modifier {
                CavalryAttackModifier::Minus1Always => true,
                CavalryAttackModifier::CoverOnly => cover != 0,
            };
        ModifierBreakdown {
            long_range: if self.category == Category::Artillery {
                group_penalty(self.long_range_batteries, k, MOD_LONG_RANGE, policy)
            } else {
                0
            },
            cover,
            mounted_attacker: if cavalry_applies {
                group_penalty(
                    self.mounted_cavalry_attackers,
                    k,
                    MOD_MOUNTED_ATTACKER,
                    policy,
                )
            } else {
                0
            },
            skirmisher_crossing: if self.category == Category::Musketry {
                group_penalty(
                    self.crossing_skirmishers,
                    k,
                    MOD_SKIRMISHER_CROSSING,
                    policy,
                )
            } else {
                0
            },
            first_round: if self.category == Category::Melee && self.first_round {
                MOD_FIRST_ROUND
            } else {
                0
            },
            not_deployed: if t.deployed { 0 } else { MOD_NOT_DEPLOYED },
            mounted_target: if fire && t.mounted_cavalry {
                match options.mounted_target_under_fire {
                    MountedTargetUnderFire::Plus1 => MOD_MOUNTED_TARGET,
                    MountedTargetUnderFire::Minus1 => -MOD_MOUNTED_TARGET,
                }
            } else {
                0
            },
            extra_attackers: MOD_PER_EXTRA_ATTACKER * (i16::from(k) - 1),
        }
    }

    /// The toss for this situation: an automatic hit on skirmishers in melee (NORTH-MEL-09), otherwise one
    /// d6 with the net modifier.
    #[must_use]
    pub fn toss(&self, options: &Options) -> CombatToss {
        CombatToss {
            modifier: self.modifiers(options).net(),
            automatic: self.category == Category::Melee && self.target.skirmishers,
        }
    }
}

/// NORTH-CBT-02: the combat toss of a group against one target: one d6, a hit iff d6 + m ≥ 5, so
/// P(hit) = clamp(2 + m, 0, 6)/6 (NORTH-CBT-11). `automatic`: no toss, a certain hit (skirmishers attacked
/// in melee, NORTH-MEL-09).
///
/// ```
/// use acw_core::Resolve;
/// use acw_north::combat::CombatToss;
/// let three_units = CombatToss { modifier: 2, automatic: false };
/// assert!((three_units.odds().p(&true) - 4.0 / 6.0).abs() < 1e-12);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct CombatToss {
    /// The net modifier m.
    pub modifier: i16,
    /// A certain hit with no toss.
    pub automatic: bool,
}

impl CombatToss {
    /// Whether `face` hits.
    #[must_use]
    pub const fn hits(&self, face: u16) -> bool {
        self.automatic || (face as i16).saturating_add(self.modifier) >= HIT_TARGET
    }

    /// P(hit) in sixths.
    #[must_use]
    pub const fn sixths(&self) -> u8 {
        if self.automatic {
            6
        } else {
            hit_sixths(self.modifier)
        }
    }
}

impl Resolve for CombatToss {
    /// Whether the toss hits (a hit forces one morale check).
    type Outcome = bool;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> bool {
        if self.automatic {
            return true;
        }
        self.hits(Die::D6.roll(dice))
    }
    fn odds(&self) -> Dist<bool> {
        if self.automatic {
            return Dist::certain(true);
        }
        let t = *self;
        Dist::die(Die::D6).map(move |&f| t.hits(f as u16))
    }
}

/// What lies on the line of fire between attacker and target (NORTH-FIR-06).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Screen {
    /// Nothing.
    #[default]
    Clear,
    /// Skirmishers of the target's side.
    EnemySkirmishers,
    /// Skirmishers of the attacker's own side.
    FriendlySkirmishers,
}

/// How an attacker sees its target, as measured by the game layer (NORTH-FIR-01, NORTH-FIR-07,
/// NORTH-ART-01, NORTH-ART-04).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Sight {
    /// Range, edge to edge (NORTH-MOV-14).
    pub distance: Inches,
    /// Whether the line of sight is clear of units and blocking terrain (NORTH-FIR-07).
    pub line_of_sight: bool,
    /// Whether the target is in the front or muzzle arc.
    pub in_arc: bool,
    /// Skirmishers on the line of fire.
    pub screen: Screen,
}

impl Sight {
    /// A clear view at `distance`, in arc.
    #[must_use]
    pub const fn clear(distance: Inches) -> Sight {
        Sight {
            distance,
            line_of_sight: true,
            in_arc: true,
            screen: Screen::Clear,
        }
    }

    /// Bases touching (melee).
    #[must_use]
    pub const fn contact() -> Sight {
        Sight::clear(Inches(0.0))
    }
}

/// NORTH-FIR-01 / NORTH-OPT-31: whether `target` lies wholly or partly in the firer's front arc: the region
/// ahead of its front edge bounded by lines `fire_arc_degrees` (45) outward from the edge's ends.
#[must_use]
pub fn in_fire_arc(firer: &Footprint, target: &Footprint, options: &Options) -> bool {
    firer.in_front_arc(target, options.fire_arc_degrees)
}

/// NORTH-ART-04 / NORTH-OPT-31: whether `target` lies in a battery's muzzle arc: as the front arc, with
/// `artillery_arc_degrees` (45) from the ends of the battery's front.
#[must_use]
pub fn in_artillery_arc(battery: &Footprint, target: &Footprint, options: &Options) -> bool {
    battery.in_front_arc(target, options.artillery_arc_degrees)
}

/// NORTH-CBT-04: whether artillery at `distance` takes the long-range penalty (strictly more than 24").
#[must_use]
pub fn is_long_range(distance: Inches) -> bool {
    distance.0 > LONG_RANGE.0 + 1e-9
}

/// NORTH-FIR-02 / NORTH-MOV-22: who a unit fires musketry as, if it fires musketry at all. Dismounted cavalry
/// fire as infantry (18") unless NORTH-OPT-07 gives them 12"; they are no "mounted cavalry" for the
/// modifiers of NORTH-CBT-06 and NORTH-CBT-09.
#[must_use]
pub fn firer_kind(unit: &Unit) -> Option<Firer> {
    match unit.troop() {
        Troop::Infantry => Some(Firer::Infantry),
        Troop::DismountedCavalry => Some(Firer::DismountedCavalry),
        Troop::MountedCavalry => Some(Firer::MountedCavalry),
        Troop::Artillery => None,
    }
}

/// Units attacking one target together in one category: one toss (NORTH-SEQ-06, NORTH-CBT-10).
#[derive(Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AttackGroup {
    /// The category.
    pub category: Category,
    /// The target.
    pub target: UnitId,
    /// The attackers, each once.
    pub attackers: Vec<UnitId>,
}

/// Written out for `clone_from`, which reuses the list of attackers.
impl Clone for AttackGroup {
    fn clone(&self) -> AttackGroup {
        AttackGroup {
            category: self.category,
            target: self.target,
            attackers: self.attackers.clone(),
        }
    }
    fn clone_from(&mut self, source: &AttackGroup) {
        self.category = source.category;
        self.target = source.target;
        self.attackers.clone_from(&source.attackers);
    }
}

/// What an attack did.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AttackReport {
    /// The modifiers that applied.
    pub modifiers: ModifierBreakdown,
    /// The face thrown (`None` for an automatic hit).
    pub face: Option<u16>,
    /// P(hit) of the toss, in sixths.
    pub hit_sixths: u8,
    /// Whether it hit.
    pub hit: bool,
    /// The morale check a hit caused.
    pub morale: Option<MoraleReport>,
}

impl Battle {
    /// NORTH-CBT-01 / NORTH-FIR-01 / NORTH-FIR-02 / NORTH-FIR-06 / NORTH-FIR-07 / NORTH-ART-01 /
    /// NORTH-ART-09 / NORTH-MEL-06 / NORTH-MEL-09 / NORTH-SEQ-08: whether `attacker` may attack `target` in
    /// `category`, seen as `sight`. Returns whether the target counts as screened (cover under
    /// `SkirmishScreen::AsCover`).
    pub fn check_attacker(
        &self,
        attacker: UnitId,
        category: Category,
        target: UnitId,
        sight: &Sight,
    ) -> Result<bool, RuleViolation> {
        crate::movement::check_length(sight.distance)?;
        let a = self.live_unit(attacker)?;
        let t = self.live_unit(target)?;
        if t.side() == a.side() {
            return Err(RuleViolation::BadTarget(target));
        }
        if a.phase().attacked.is_some() {
            return Err(RuleViolation::AlreadyAttacked(attacker));
        }
        let refuse = |reason| {
            Err(RuleViolation::CannotAttack {
                unit: attacker,
                category,
                reason,
            })
        };
        let o = &self.options;
        if category == Category::Melee {
            if !a.contacts().contains(&target) {
                return refuse(AttackRefusal::NotInContactWithTarget);
            }
            if a.is_skirmishers() && !o.skirmishers_may_melee {
                return refuse(AttackRefusal::SkirmishersDoNotMelee);
            }
            if a.arm() == Arm::Artillery && o.artillery_no_melee_attack {
                return refuse(AttackRefusal::ArtilleryDoesNotMelee);
            }
            return Ok(false);
        }
        match (category, a.arm()) {
            (Category::Artillery, Arm::Artillery) => {
                if a.gun() != Some(GunState::Manned) {
                    return refuse(AttackRefusal::NoGun);
                }
                if a.formation() != Formation::Unlimbered {
                    return refuse(AttackRefusal::NotDeployed);
                }
                if o.artillery_max_range
                    .is_some_and(|r| sight.distance.0 > r.0 + 1e-9)
                {
                    return refuse(AttackRefusal::OutOfRange);
                }
            }
            (Category::Musketry, Arm::Infantry | Arm::Cavalry) => {
                if !a.is_deployed() {
                    return refuse(AttackRefusal::NotDeployed);
                }
                let Some(firer) = firer_kind(a) else {
                    return refuse(AttackRefusal::WrongCategory);
                };
                if sight.distance.0 > musketry_range(firer, o).0 + 1e-9 {
                    return refuse(AttackRefusal::OutOfRange);
                }
                let limited = a.is_skirmishers()
                    || (a.troop() == Troop::DismountedCavalry
                        && o.dismounted_move == DismountedMove::TenOrFiveAndFire);
                if limited && a.phase().moved.0 > SKIRMISH_FIRE_MOVE.0 + 1e-9 {
                    return refuse(AttackRefusal::MovedTooFar);
                }
            }
            _ => return refuse(AttackRefusal::WrongCategory),
        }
        if a.in_contact() {
            return refuse(AttackRefusal::InContact);
        }
        if !sight.line_of_sight {
            return refuse(AttackRefusal::NoLineOfSight);
        }
        if !sight.in_arc {
            return refuse(AttackRefusal::OutOfArc);
        }
        if o.no_fire_into_melee && t.in_contact() {
            return refuse(AttackRefusal::TargetInMelee);
        }
        let screened = match (sight.screen, o.skirmish_screen) {
            (Screen::Clear, _) => false,
            (Screen::EnemySkirmishers, SkirmishScreen::AsCover) => true,
            (
                Screen::FriendlySkirmishers,
                SkirmishScreen::AsCover | SkirmishScreen::MutualScreen,
            ) => false,
            _ => return refuse(AttackRefusal::Screened),
        };
        Ok(screened)
    }

    /// NORTH-CBT-07 / NORTH-MEL-07 / NORTH-OPT-05: whether a melee toss by `attackers` against `target` is
    /// "first round".
    pub fn first_round(&self, attackers: &[UnitId], target: UnitId) -> Result<bool, RuleViolation> {
        let t = self.unit(target)?;
        let mut fresh_charger = false;
        let mut fresh_defender = false;
        for &id in attackers {
            let a = self.unit(id)?;
            fresh_charger |= a.phase().charged;
            fresh_defender |= a.melee().role == Some(MeleeRole::Defender) && !a.melee().tossed;
        }
        Ok(match self.options.first_round_scope {
            FirstRoundScope::ChargerFirstTossOnly => t.melee().opened_this_phase,
            FirstRoundScope::BothSidesFirstToss => t.melee().opened_this_phase || fresh_defender,
            FirstRoundScope::AnyGroupWithFreshCharger => fresh_charger,
        })
    }

    /// NORTH-SEQ-06: validates a group (distinct attackers, at least one, one sight each) and each attacker,
    /// and works out the situation of its toss.
    pub fn combat_situation(
        &self,
        group: &AttackGroup,
        sights: &[Sight],
        target_in_cover: bool,
    ) -> Result<CombatSituation, RuleViolation> {
        let n = group.attackers.len();
        if n == 0 || sights.len() != n {
            return Err(RuleViolation::BadGroup);
        }
        for s in sights {
            crate::movement::check_length(s.distance)?;
        }
        for (i, a) in group.attackers.iter().enumerate() {
            if group.attackers.iter().skip(i + 1).any(|b| b == a) {
                return Err(RuleViolation::BadGroup);
            }
        }
        let k = u8::try_from(n).map_err(|_| RuleViolation::BadGroup)?;
        let mut s = CombatSituation {
            category: group.category,
            attackers: k,
            long_range_batteries: 0,
            mounted_cavalry_attackers: 0,
            crossing_skirmishers: 0,
            first_round: false,
            target: TargetFacts::default(),
        };
        let mut screened = false;
        for (&id, sight) in group.attackers.iter().zip(sights) {
            if !(sight.distance.0.is_finite() && sight.distance.0 >= 0.0) {
                return Err(RuleViolation::BadLength(sight.distance.0));
            }
            screened |= self.check_attacker(id, group.category, group.target, sight)?;
            let a = self.unit(id)?;
            if a.arm() == Arm::Artillery && is_long_range(sight.distance) {
                s.long_range_batteries += 1;
            }
            if a.is_mounted_cavalry() {
                s.mounted_cavalry_attackers += 1;
            }
            if a.is_skirmishers() && a.phase().crossed_obstacle_or_rough {
                s.crossing_skirmishers += 1;
            }
        }
        let t = self.live_unit(group.target)?;
        if t.phase().targeted.get(group.category.index()) == Some(&true) {
            return Err(RuleViolation::TargetAlreadyAttacked(group.target));
        }
        s.target = TargetFacts {
            behind_cover: target_in_cover,
            screened,
            deployed: t.is_deployed(),
            mounted_cavalry: t.is_mounted_cavalry(),
            skirmishers: t.is_skirmishers(),
        };
        if group.category == Category::Melee {
            s.first_round = self.first_round(&group.attackers, group.target)?;
        }
        Ok(s)
    }

    /// NORTH-OPT-25: declares every attack of the current combat category before any toss. Later only these
    /// are resolved, in any order; one whose target has meanwhile fallen back or been removed is refused
    /// (NORTH-SEQ-07).
    pub fn declare_attacks(
        &mut self,
        category: Category,
        groups: Vec<AttackGroup>,
    ) -> Result<(), RuleViolation> {
        self.require_phase(
            self.clock.phasing(),
            crate::sequence::Step::of_category(category),
        )?;
        if !self.options.predeclare_attacks {
            return Err(RuleViolation::OptionForbids("predeclare_attacks"));
        }
        if self.declared_category == Some(category) {
            return Err(RuleViolation::AlreadyDeclared);
        }
        let mut seen: Vec<UnitId> = Vec::new();
        for g in &groups {
            if g.category != category || g.attackers.is_empty() {
                return Err(RuleViolation::BadGroup);
            }
            for &a in &g.attackers {
                let u = self.live_unit(a)?;
                if u.side() != self.clock.phasing() {
                    return Err(RuleViolation::NotPhasing {
                        side: u.side(),
                        phasing: self.clock.phasing(),
                    });
                }
                if seen.contains(&a) {
                    return Err(RuleViolation::BadGroup);
                }
                seen.push(a);
            }
        }
        self.declared = groups;
        self.declared_category = Some(category);
        Ok(())
    }

    /// The attacks declared and not yet resolved (NORTH-OPT-25).
    #[must_use]
    pub fn declared_attacks(&self) -> &[AttackGroup] {
        &self.declared
    }

    /// The exact odds of what [`Battle::attack`] would do with the same arguments, without throwing a die:
    /// the combat toss of the group's situation, then on a hit the target's morale check (its modifier as the
    /// battle measures it, one attempt for each general in `response.rally_by`, the response's rally policy
    /// and choice on 3–4), as a [`crate::morale::WholeAttack`]. The same refusals as [`Battle::attack`] for a
    /// bad group, attacker, target or response; the battle is not changed. The fall-back is taken as clear (a
    /// blocked one turns a fall-back into a stand lost, which these odds do not count).
    ///
    /// "How likely is this charge to break that regiment" is the chance of
    /// [`crate::morale::AttackEffect::Removed`] (or of any effect at all) in the result.
    pub fn attack_odds(
        &self,
        group: &AttackGroup,
        sights: &[Sight],
        target_in_cover: bool,
        response: &MoraleResponse,
    ) -> Result<Dist<crate::morale::AttackOutcome>, RuleViolation> {
        Ok(self
            .whole_attack(group, sights, target_in_cover, response)?
            .odds())
    }

    /// The random procedure [`Battle::attack_odds`] gives the odds of: for a caller who wants to roll it too.
    pub fn whole_attack(
        &self,
        group: &AttackGroup,
        sights: &[Sight],
        target_in_cover: bool,
        response: &MoraleResponse,
    ) -> Result<crate::morale::WholeAttack, RuleViolation> {
        self.check_response(group.target, group.category, target_in_cover, response)?;
        let situation = self.combat_situation(group, sights, target_in_cover)?;
        let target = self.live_unit(group.target)?;
        let facts = self.morale_facts(group.target, group.category, target_in_cover)?;
        Ok(crate::morale::WholeAttack {
            toss: situation.toss(&self.options),
            check: crate::morale::MoraleCheck {
                modifier: crate::morale::morale_modifier(&facts, &self.options),
                rallies: u8::try_from(response.rally_by.len().min(2)).unwrap_or(2),
                melee: group.category == Category::Melee,
                policy: response.policy,
                declared_before: self.options.rally_declared_before_morale_toss,
            },
            stands: target.counted_stands(&self.options),
            artillery: target.troop() == crate::tables::Troop::Artillery,
            crews_removed: self.options.crews_without_guns_removed,
            choice: response.choice,
        })
    }

    /// NORTH-SEQ-04 to NORTH-SEQ-08 / NORTH-CBT-02 / NORTH-MOR-01: resolves one group's attack: checks the
    /// step, the phasing side, every attacker and the morale response; makes the one combat toss; marks the
    /// attackers as having attacked this phase; and on a hit resolves the target's morale check at once with
    /// the owner's standing decisions in `response`. A refusal changes nothing, and so does a dice source that
    /// could not give a face.
    pub fn attack<D: Dice + ?Sized>(
        &mut self,
        group: &AttackGroup,
        sights: &[Sight],
        target_in_cover: bool,
        response: &MoraleResponse,
        dice: &mut D,
    ) -> Result<AttackReport, RuleViolation> {
        self.check_response(group.target, group.category, target_in_cover, response)?;
        let facts = FallBackFacts::from(response);
        let mut next = self.clone();
        let mut report =
            next.open_attack_inner(group, sights, target_in_cover, |_| facts, Vec::new(), dice)?;
        if next.morale.is_some() {
            report.morale = Some(next.answer_morale(group.target, response, dice)?);
        }
        fault_check(dice)?;
        *self = next;
        Ok(report)
    }

    /// NORTH-SEQ-07 / NORTH-MOR-01: the attack up to the target's decisions: the checks, the combat toss and,
    /// on a hit, the morale toss. The check then waits for its owner ([`Battle::morale_step`]: a rally with the
    /// toss seen, then the choice on 3–4), unless no decision is left to make, when it is finished at once and
    /// in the report. A table-side app or a game asks the owner; [`Battle::attack`] answers from a standing
    /// response. The morale facts of a fall-back are measured now: nothing moves while the owner decides.
    /// `nearby` lists generals measured within `with_distance` of the target (NORTH-OPT-16), who count as with
    /// it for a rally although attached elsewhere.
    pub fn open_attack<D: Dice + ?Sized>(
        &mut self,
        group: &AttackGroup,
        sights: &[Sight],
        target_in_cover: bool,
        fall_back: FallBackFacts,
        nearby: Vec<GeneralId>,
        dice: &mut D,
    ) -> Result<AttackReport, RuleViolation> {
        let mut next = self.clone();
        let report =
            next.open_attack_inner(group, sights, target_in_cover, |_| fall_back, nearby, dice)?;
        fault_check(dice)?;
        *self = next;
        Ok(report)
    }

    /// The attack up to the target's decisions; `fall_back` gives the fall-back's facts from the battle as it
    /// stands when a hit opens the morale check (asked only then).
    pub(crate) fn open_attack_inner<D: Dice + ?Sized>(
        &mut self,
        group: &AttackGroup,
        sights: &[Sight],
        target_in_cover: bool,
        fall_back: impl FnOnce(&Battle) -> FallBackFacts,
        nearby: Vec<GeneralId>,
        dice: &mut D,
    ) -> Result<AttackReport, RuleViolation> {
        let phasing = self.clock.phasing();
        self.require_phase(phasing, crate::sequence::Step::of_category(group.category))?;
        for &a in &group.attackers {
            let u = self.live_unit(a)?;
            if u.side() != phasing {
                return Err(RuleViolation::NotPhasing {
                    side: u.side(),
                    phasing,
                });
            }
        }
        let situation = self.combat_situation(group, sights, target_in_cover)?;
        let declared_at = if self.options.predeclare_attacks {
            Some(
                self.declared
                    .iter()
                    .position(|g| g == group)
                    .ok_or(RuleViolation::NotDeclared)?,
            )
        } else {
            None
        };
        let toss = situation.toss(&self.options);
        if !toss.automatic {
            dice.about(format_args!(
                "{} combat toss against {}",
                group.category,
                self.unit(group.target)?.name()
            ));
        }
        let face = (!toss.automatic).then(|| Die::D6.roll(dice));
        let hit = face.is_none_or(|f| toss.hits(f));
        if let Some(i) = declared_at {
            self.declared.remove(i);
        }
        if let Some(t) = self
            .unit_mut(group.target)?
            .phase
            .targeted
            .get_mut(group.category.index())
        {
            *t = true;
        }
        for &a in &group.attackers {
            let u = self.unit_mut(a)?;
            u.phase.attacked = Some(group.category);
            if group.category == crate::combat::Category::Melee {
                u.melee.tossed = true;
            }
        }
        let morale = if hit {
            let cover = target_in_cover || situation.target.screened;
            let facts = fall_back(self);
            self.open_morale(group.target, group.category, cover, facts, nearby, dice)?
        } else {
            None
        };
        Ok(AttackReport {
            modifiers: situation.modifiers(&self.options),
            face,
            hit_sixths: toss.sixths(),
            hit,
            morale,
        })
    }
}
