//! [`Options`]: every switch between readings of the rules (the inventory's OPT section).
//!
//! `Options::default()` is the inventory's default reading throughout. Each field names the rule ID of its
//! switch; the docs page lists what each alternative changes.

use crate::error::OptionsError;
use acw_core::Side;
use acw_core::measure::Inches;

/// How the mounted-cavalry attack modifier is read (NORTH-OPT-01).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, strum::EnumIter, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CavalryAttackModifier {
    /// Reading C: −1 whenever mounted cavalry attack; with cover that makes the −2 of the note.
    #[default]
    Minus1Always,
    /// Reading A: no penalty against a target in the open; −2 (instead of −1) against a covered target.
    CoverOnly,
}

/// Where the mounted-cavalry attack modifier applies (NORTH-OPT-02).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, strum::EnumIter, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CavalryAttackScope {
    /// In musketry and in melee.
    #[default]
    MusketryAndMelee,
    /// In melee only.
    MeleeOnly,
}

/// The sign of the "mounted cavalry under fire" row (NORTH-OPT-03).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, strum::EnumIter, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum MountedTargetUnderFire {
    /// +1: mounted cavalry are easier to hit by fire.
    #[default]
    Plus1,
    /// −1 (reading D, not recommended).
    Minus1,
}

/// How an attacker-tied penalty applies to a mixed group (NORTH-OPT-04).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, strum::EnumIter, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum GroupModifierPolicy {
    /// Once, if any unit of the group meets the condition.
    #[default]
    Any,
    /// Once, only if every unit of the group meets it.
    All,
    /// Once per unit that meets it (not recommended: contradicts the artillery note).
    PerUnit,
}

/// Which melee tosses count as "first round" (NORTH-OPT-05).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, strum::EnumIter, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum FirstRoundScope {
    /// Only the charging side's first toss, in the phase the charge opened the melee.
    #[default]
    ChargerFirstTossOnly,
    /// (a) Each side's first melee toss in that melee.
    BothSidesFirstToss,
    /// (b) Any toss whose group includes a unit that charged this phase.
    AnyGroupWithFreshCharger,
}

/// Movement of dismounted cavalry, where the table and the text disagree (NORTH-OPT-06).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, strum::EnumIter, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum DismountedMove {
    /// In line: 10" without firing, or 5" and fire (as skirmishers).
    #[default]
    TenOrFiveAndFire,
    /// By the table: 5" in line, 10" in column.
    Table5,
    /// 10" in every formation, no firing restriction.
    Always10,
}

/// Musketry range of dismounted cavalry (NORTH-OPT-07).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, strum::EnumIter, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum DismountedCavalryRange {
    /// 18", as infantry.
    #[default]
    Infantry18,
    /// 12", as all cavalry (carbines).
    Carbine12,
}

/// How far a unit under a movement order must move (NORTH-OPT-09).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, strum::EnumIter, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum OrderedMove {
    /// Its full allowance, unless something stops it.
    #[default]
    Full,
    /// Anything from 0 up to its allowance in the ordered direction.
    UpTo,
}

/// What a not-deployed unit does when its ordered move after a failed toss would reach an enemy
/// (NORTH-OPT-10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, strum::EnumIter, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum NonDeployedContactHalt {
    /// It stands where it is (the literal reading).
    #[default]
    StandInPlace,
    /// It moves but stops just short of contact.
    StopShort,
}

/// How skirmishers screen fire (NORTH-OPT-14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, strum::EnumIter, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum SkirmishScreen {
    /// Skirmishers block fire through their footprint in both directions.
    #[default]
    BlockBothWays,
    /// Units behind enemy skirmishers count as behind cover from fire; fire out through friendly skirmishers
    /// is allowed.
    AsCover,
    /// Enemy skirmishers block fire at what is behind them; formed troops in front screen skirmishers behind
    /// them (ordinary line of sight); friendly skirmishers do not block their own side's fire.
    MutualScreen,
}

/// How units of a brigade without its Major General change orders (NORTH-OPT-19).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, strum::EnumIter, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum LeaderlessOrders {
    /// Each unit may toss for its own order change (5–6) in its side's phase.
    #[default]
    IndividualToss,
    /// No toss: only the Army Commander can change them.
    ArmyCommanderOnly,
    /// Each unit checks on the brigade order table at the start of every own phase.
    CheckEveryPhase,
}

/// What happens to a fall-back that cannot cover its full distance (NORTH-OPT-21).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, strum::EnumIter, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BlockedFallBack {
    /// It goes as far as it can and stops.
    #[default]
    StopShort,
    /// It stops short and also loses a stand (not on top of a 5–6 loss).
    LoseStand,
    /// Pushed past the table edge, it leaves play; otherwise it stops short.
    ExitTable,
}

/// How far a unit may charge (NORTH-OPT-24).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ChargeReach {
    /// Its deployed movement allowance.
    #[default]
    DeployedAllowance,
    /// A fixed reach for every charger.
    FixedInches(Inches),
}

/// The formation a remounted unit takes (NORTH-OPT-30).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, strum::EnumIter, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RemountFormation {
    /// Mounted line (deployed).
    #[default]
    Line,
    /// Mounted column.
    Column,
}

/// What an Advance unit does after failing its charge toss (NORTH-OPT-37).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, strum::EnumIter, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum FailedChargeUnderOrders {
    /// It makes its ordered move but stops `contact_gap` short of the enemy.
    #[default]
    StopShort,
    /// It stays where it is.
    Stand,
}

/// Every switch between readings of the rules. `Default` is the inventory's reading.
///
/// ```
/// use acw_north::options::{Options, CavalryAttackModifier};
/// let mut o = Options::default();
/// assert_eq!(o.turn_limit, Some(12));
/// o.cavalry_attack_modifier = CavalryAttackModifier::CoverOnly;
/// assert!(o.validate().is_ok());
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[non_exhaustive]
pub struct Options {
    /// NORTH-OPT-01: reading of the mounted-cavalry attack modifier.
    pub cavalry_attack_modifier: CavalryAttackModifier,
    /// NORTH-OPT-02: categories where the mounted-cavalry attack modifier applies.
    pub cavalry_attack_scope: CavalryAttackScope,
    /// NORTH-OPT-03: sign of the mounted-target-under-fire modifier.
    pub mounted_target_under_fire: MountedTargetUnderFire,
    /// NORTH-OPT-04: attacker-tied penalties in mixed groups.
    pub group_modifier_policy: GroupModifierPolicy,
    /// NORTH-OPT-05: which melee tosses are "first round".
    pub first_round_scope: FirstRoundScope,
    /// NORTH-OPT-06: movement of dismounted cavalry.
    pub dismounted_move: DismountedMove,
    /// NORTH-OPT-07: musketry range of dismounted cavalry.
    pub dismounted_cavalry_range: DismountedCavalryRange,
    /// NORTH-OPT-08: whether the horse-holder stand counts as a stand.
    pub horse_holder_counted: bool,
    /// NORTH-OPT-09: full or up-to ordered moves.
    pub ordered_move: OrderedMove,
    /// NORTH-OPT-10: not-deployed unit whose move after a failed toss would reach an enemy.
    pub non_deployed_contact_halt: NonDeployedContactHalt,
    /// NORTH-OPT-11: artillery under a movement order unlimbers without a toss.
    pub artillery_unlimber_automatic: bool,
    /// NORTH-OPT-12: one obstacle toss per obstacle instead of one per move.
    pub obstacle_toss_per_obstacle: bool,
    /// NORTH-OPT-13: skirmishers cross obstacles without a toss.
    pub skirmishers_exempt_from_obstacle_toss: bool,
    /// NORTH-OPT-14: how skirmishers screen fire.
    pub skirmish_screen: SkirmishScreen,
    /// NORTH-OPT-15: a rally attempt is declared before the morale die is rolled.
    pub rally_declared_before_morale_toss: bool,
    /// NORTH-OPT-16: a rallying general must be with the unit.
    pub rally_requires_with: bool,
    /// NORTH-OPT-16 / NORTH-CMD-08: how close (edge to edge) a general must be to count as "with" a unit.
    pub with_distance: Inches,
    /// NORTH-OPT-17: the MG and the AC may both attempt a rally on one check.
    pub multiple_rally_attempts: bool,
    /// NORTH-OPT-18: a captured MG triggers the brigade order check, as a killed one does.
    pub capture_triggers_order_check: bool,
    /// NORTH-OPT-19: order changes of units without their MG.
    pub leaderless_orders: LeaderlessOrders,
    /// NORTH-OPT-20 (a): a crew may return to its abandoned gun.
    pub crew_may_reman_gun: bool,
    /// NORTH-OPT-20 (b): enemy infantry or cavalry capture abandoned guns they touch.
    pub enemy_captures_abandoned_guns: bool,
    /// NORTH-OPT-20 (c): a crew that falls back from its gun is removed.
    pub crews_without_guns_removed: bool,
    /// NORTH-OPT-21: fall-backs that cannot cover their distance.
    pub blocked_fall_back: BlockedFallBack,
    /// NORTH-OPT-22: skirmishers in contact may make melee attacks.
    pub skirmishers_may_melee: bool,
    /// NORTH-OPT-23: artillery never attacks in melee.
    pub artillery_no_melee_attack: bool,
    /// NORTH-OPT-24: how far a charge may reach.
    pub charge_reach: ChargeReach,
    /// NORTH-OPT-25: all attacks of a category are declared before any toss.
    pub predeclare_attacks: bool,
    /// NORTH-OPT-26: the side whose phase comes first in each turn.
    pub first_side: Side,
    /// NORTH-OPT-27: maximum artillery range (none in the rules).
    pub artillery_max_range: Option<Inches>,
    /// NORTH-OPT-28: real cover and the skirmisher cover status stack to −2.
    pub skirmisher_cover_stacks: bool,
    /// NORTH-OPT-29: an MG may rally units of other brigades.
    pub mg_rallies_other_brigades: bool,
    /// NORTH-OPT-30: formation after remounting.
    pub remount_formation: RemountFormation,
    /// NORTH-OPT-31: musketry arc, degrees either side of the front.
    pub fire_arc_degrees: f64,
    /// NORTH-OPT-31: artillery arc, degrees either side of the muzzle.
    pub artillery_arc_degrees: f64,
    /// NORTH-OPT-31: how far short of an enemy a unit that may not contact it stops.
    pub contact_gap: Inches,
    /// NORTH-OPT-32: unlimbered artillery may not pivot in place.
    pub no_artillery_pivot: bool,
    /// NORTH-OPT-33: artillery morale modifiers follow the source of the hit, not the checking unit.
    pub artillery_morale_by_source: bool,
    /// NORTH-OPT-34: fall-backs across obstacles need the obstacle toss.
    pub fall_back_obstacle_toss: bool,
    /// NORTH-OPT-35: dismounted cavalry may take skirmish order.
    pub dismounted_cavalry_skirmish: bool,
    /// NORTH-OPT-36: a withdrawing unit that reaches its own table edge leaves play.
    pub exit_table_on_withdraw: bool,
    /// NORTH-OPT-37: an Advance unit that fails its charge toss.
    pub failed_charge_under_orders: FailedChargeUnderOrders,
    /// NORTH-OPT-38: no fire at enemy units in contact with friendly units.
    pub no_fire_into_melee: bool,
    /// NORTH-OPT-39: armies outside 10–20 units are accepted.
    pub allow_non_standard_army_size: bool,
    /// NORTH-OPT-40: the game ends after this many turns; `None` only with a scenario's own end predicate.
    pub turn_limit: Option<u32>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            cavalry_attack_modifier: CavalryAttackModifier::Minus1Always,
            cavalry_attack_scope: CavalryAttackScope::MusketryAndMelee,
            mounted_target_under_fire: MountedTargetUnderFire::Plus1,
            group_modifier_policy: GroupModifierPolicy::Any,
            first_round_scope: FirstRoundScope::ChargerFirstTossOnly,
            dismounted_move: DismountedMove::TenOrFiveAndFire,
            dismounted_cavalry_range: DismountedCavalryRange::Infantry18,
            horse_holder_counted: true,
            ordered_move: OrderedMove::Full,
            non_deployed_contact_halt: NonDeployedContactHalt::StandInPlace,
            artillery_unlimber_automatic: false,
            obstacle_toss_per_obstacle: false,
            skirmishers_exempt_from_obstacle_toss: false,
            skirmish_screen: SkirmishScreen::BlockBothWays,
            rally_declared_before_morale_toss: false,
            rally_requires_with: true,
            with_distance: Inches(0.0),
            multiple_rally_attempts: false,
            capture_triggers_order_check: true,
            leaderless_orders: LeaderlessOrders::IndividualToss,
            crew_may_reman_gun: true,
            enemy_captures_abandoned_guns: true,
            crews_without_guns_removed: false,
            blocked_fall_back: BlockedFallBack::StopShort,
            skirmishers_may_melee: false,
            artillery_no_melee_attack: false,
            charge_reach: ChargeReach::DeployedAllowance,
            predeclare_attacks: false,
            first_side: Side::Confederate,
            artillery_max_range: None,
            skirmisher_cover_stacks: false,
            mg_rallies_other_brigades: false,
            remount_formation: RemountFormation::Line,
            fire_arc_degrees: 45.0,
            artillery_arc_degrees: 45.0,
            contact_gap: Inches(0.5),
            no_artillery_pivot: false,
            artillery_morale_by_source: false,
            fall_back_obstacle_toss: false,
            dismounted_cavalry_skirmish: false,
            exit_table_on_withdraw: false,
            failed_charge_under_orders: FailedChargeUnderOrders::StopShort,
            no_fire_into_melee: false,
            allow_non_standard_army_size: false,
            turn_limit: Some(12),
        }
    }
}

impl Options {
    /// Checks the numeric parameters: lengths finite and not negative, arcs within 0–180°, a turn limit of at
    /// least one turn.
    pub fn validate(&self) -> Result<(), OptionsError> {
        let length = |what: &'static str, v: Inches| {
            if v.0.is_finite() && v.0 >= 0.0 {
                Ok(())
            } else {
                Err(OptionsError::BadLength { what, value: v.0 })
            }
        };
        length("with_distance", self.with_distance)?;
        length("contact_gap", self.contact_gap)?;
        if let ChargeReach::FixedInches(x) = self.charge_reach {
            length("charge_reach", x)?;
        }
        if let Some(r) = self.artillery_max_range {
            length("artillery_max_range", r)?;
        }
        for (what, deg) in [
            ("fire_arc_degrees", self.fire_arc_degrees),
            ("artillery_arc_degrees", self.artillery_arc_degrees),
        ] {
            if !(deg.is_finite() && (0.0..=180.0).contains(&deg)) {
                return Err(OptionsError::BadArc { what, value: deg });
            }
        }
        if self.turn_limit == Some(0) {
            return Err(OptionsError::ZeroTurnLimit);
        }
        Ok(())
    }
}
