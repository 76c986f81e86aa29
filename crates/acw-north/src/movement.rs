//! Formations and movement: allowances, the accomplishment and obstacle tosses, ordered moves, formation
//! changes, skirmishers, dismounting and remounting, withdrawing from melee and abandoned guns
//! (NORTH-MOV-01 to NORTH-MOV-24, NORTH-ART-05 to NORTH-ART-10).

use crate::error::RuleViolation;
use crate::options::{
    ChargeReach, DismountedMove, FailedChargeUnderOrders, NonDeployedContactHalt, Options,
    OrderedMove, RemountFormation,
};
use crate::sequence::Step;
use crate::state::{Activity, AfterFailure, Battle, BrigadeId, GunState, Unit, UnitId, UnitStatus};
use crate::tables::{
    BrigadeOrder, FireIntent, Formation, MIN_STANDS_IN_PLAY, OBSTACLE_PASS_MAX, SKIRMISH_FALL_BACK,
    Troop, accomplishment_sixths, formation_is_legal, movement_allowance,
};
use acw_core::dice::{Dice, Die};
use acw_core::measure::Inches;
use acw_core::vocab::Mount;
use acw_core::{Arm, Dist, Resolve};

/// NORTH-MOV-05: the accomplishment toss. One d6; the action succeeds iff d6 + c ≤ N, where N is the unit's
/// current stands (crew figures for artillery, NORTH-MOV-06) and c is +1 for a charge at a target behind
/// cover (NORTH-MEL-02). P(success) = clamp(N − c, 0, 6)/6.
///
/// ```
/// use acw_core::Resolve;
/// use acw_north::movement::AccomplishmentToss;
/// let standard_infantry = AccomplishmentToss { capacity: 4, charge_cover: false };
/// assert!((standard_infantry.odds().p(&true) - 4.0 / 6.0).abs() < 1e-12);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AccomplishmentToss {
    /// N: current stands, or crew figures for artillery.
    pub capacity: u8,
    /// c = +1: a charge against a target behind cover.
    pub charge_cover: bool,
}

impl AccomplishmentToss {
    /// The toss a unit makes now for an ordinary action (c = 0).
    #[must_use]
    pub fn for_unit(unit: &Unit, options: &Options) -> AccomplishmentToss {
        AccomplishmentToss {
            capacity: unit.capacity(options),
            charge_cover: false,
        }
    }

    /// Whether `face` succeeds.
    #[must_use]
    pub const fn passes(&self, face: u16) -> bool {
        face + (self.charge_cover as u16) <= self.capacity as u16
    }

    /// P(success) in sixths.
    #[must_use]
    pub const fn sixths(&self) -> u8 {
        accomplishment_sixths(self.capacity, self.charge_cover)
    }
}

impl Resolve for AccomplishmentToss {
    /// Whether the action succeeds.
    type Outcome = bool;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> bool {
        self.passes(Die::D6.roll(dice))
    }
    fn odds(&self) -> Dist<bool> {
        let t = *self;
        Dist::die(Die::D6).map(move |&f| t.passes(f as u16))
    }
}

/// What an obstacle toss lets a unit do (NORTH-MOV-12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ObstacleOutcome {
    /// It stops before obstacle `i` (0: it does not move at all).
    HaltedBefore(u8),
    /// It moves normally, at its full rate.
    Crossed,
}

/// NORTH-MOV-12: the obstacle-crossing toss: 1–4 crosses (4/6), 5–6 no movement. By default one toss covers
/// every obstacle of the move; under NORTH-OPT-12 each obstacle is tossed for in path order and the unit
/// stops before the first it fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ObstacleToss {
    /// Obstacles the move crosses.
    pub obstacles: u8,
    /// One toss per obstacle (NORTH-OPT-12).
    pub per_obstacle: bool,
}

impl Resolve for ObstacleToss {
    type Outcome = ObstacleOutcome;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> ObstacleOutcome {
        let tosses = if self.per_obstacle {
            self.obstacles
        } else {
            self.obstacles.min(1)
        };
        for i in 0..tosses {
            if Die::D6.roll(dice) > OBSTACLE_PASS_MAX {
                return ObstacleOutcome::HaltedBefore(i);
            }
        }
        ObstacleOutcome::Crossed
    }
    fn odds(&self) -> Dist<ObstacleOutcome> {
        let tosses = if self.per_obstacle {
            self.obstacles
        } else {
            self.obstacles.min(1)
        };
        let pass = |&f: &u32| f <= u32::from(OBSTACLE_PASS_MAX);
        let mut dist = Dist::certain(ObstacleOutcome::Crossed);
        for i in (0..tosses).rev() {
            let rest = dist.clone();
            dist = Dist::die(Die::D6).and_then(|f| {
                if pass(f) {
                    rest.clone()
                } else {
                    Dist::certain(ObstacleOutcome::HaltedBefore(i))
                }
            });
        }
        dist
    }
}

/// Which way a move goes relative to the enemy (NORTH-MOV-14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum MoveDirection {
    /// Closer to the enemy base edge (Advance, NORTH-CMD-02).
    TowardEnemy,
    /// Closer to the own base edge (Withdraw, NORTH-CMD-04).
    AwayFromEnemy,
    /// Neither.
    Other,
}

/// Why a move ends short of the full allowance (NORTH-MOV-03).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum MoveStop {
    /// It stops `contact_gap` short of an enemy (NORTH-MOV-09, NORTH-MOV-11).
    ContactGap,
    /// It reached the table edge.
    TableEdge,
    /// It conforms to the brigade's slowest unit (NORTH-MOV-13).
    Conform,
}

/// A move a unit makes in its activation, as measured by the game layer.
#[derive(Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoveOrder {
    /// Inches moved by the stand that moves farthest (NORTH-MOV-14).
    pub distance: Inches,
    /// Which way it goes.
    pub direction: Option<MoveDirection>,
    /// Whether the unit will fire this phase (skirmishers, dismounted cavalry).
    pub intent: FireIntent,
    /// Inches along the path to each obstacle crossed, in order (NORTH-MOV-12).
    pub obstacles_at: Vec<Inches>,
    /// Whether the path crosses an obstacle or rough terrain (for NORTH-FIR-04).
    pub crosses_rough: bool,
    /// Why it stops short of its full allowance, if it does.
    pub stopped_by: Option<MoveStop>,
    /// Whether the full move would reach an enemy unit.
    pub would_contact: bool,
}

/// What a move did.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoveReport {
    /// The obstacle toss, if one was made.
    pub obstacle: Option<ObstacleOutcome>,
    /// Inches actually moved.
    pub moved: Inches,
    /// Whether the unit left the table (NORTH-OPT-36).
    pub left_table: bool,
}

/// What an accomplishment-toss action did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ActionReport {
    /// The face thrown (`None` when no toss was needed).
    pub face: Option<u16>,
    /// Whether the action succeeded.
    pub success: bool,
    /// After a failure: what the unit may still do (NORTH-MOV-09).
    pub after_failure: Option<AfterFailure>,
}

/// NORTH-MOV-02 / NORTH-MOV-17 / NORTH-MOV-20 / NORTH-ART-06: a unit's allowance now. A crew without its gun
/// moves at the limbered rate.
#[must_use]
pub fn allowance(unit: &Unit, intent: FireIntent, options: &Options) -> Inches {
    let formation = if unit.crew_without_gun() {
        Formation::Limbered
    } else {
        unit.formation()
    };
    movement_allowance(unit.troop(), formation, intent, options).unwrap_or(Inches(0.0))
}

/// NORTH-MEL-03 / NORTH-OPT-24: how far a unit may charge: its deployed allowance (infantry 5", mounted
/// cavalry 10", dismounted cavalry 10" or 5" by NORTH-OPT-06), or a fixed reach. `None` for artillery.
#[must_use]
pub fn charge_reach(troop: Troop, options: &Options) -> Option<Inches> {
    if troop == Troop::Artillery {
        return None;
    }
    if let ChargeReach::FixedInches(x) = options.charge_reach {
        return Some(x);
    }
    Some(match troop {
        Troop::DismountedCavalry => match options.dismounted_move {
            DismountedMove::Table5 => Inches(5.0),
            DismountedMove::TenOrFiveAndFire | DismountedMove::Always10 => Inches(10.0),
        },
        _ => movement_allowance(troop, Formation::Line, FireIntent::NoFire, options)?,
    })
}

/// NORTH-MOV-09 / NORTH-MEL-05 / NORTH-OPT-37: what a unit may do after failing a toss for `activity`
/// under `order`.
#[must_use]
pub fn after_failure(
    order: BrigadeOrder,
    activity: Activity,
    in_contact: bool,
    options: &Options,
) -> AfterFailure {
    if in_contact || activity == Activity::WithdrawFromMelee || order == BrigadeOrder::Hold {
        return AfterFailure::Stay;
    }
    if activity == Activity::Charge {
        return match options.failed_charge_under_orders {
            FailedChargeUnderOrders::StopShort => AfterFailure::OrderedMoveShortOfContact,
            FailedChargeUnderOrders::Stand => AfterFailure::Stay,
        };
    }
    AfterFailure::OrderedMove
}

pub(crate) fn check_length(d: Inches) -> Result<(), RuleViolation> {
    if d.0.is_finite() && d.0 >= 0.0 {
        Ok(())
    } else {
        Err(RuleViolation::BadLength(d.0))
    }
}

impl Battle {
    /// A unit in play of the phasing side, in the units step.
    pub(crate) fn acting_unit(&self, id: UnitId) -> Result<&Unit, RuleViolation> {
        let u = self.live_unit(id)?;
        self.require_phase(u.side(), Step::Units)?;
        Ok(u)
    }

    /// A unit that has not yet taken its one action (NORTH-SEQ-03, NORTH-MOV-07).
    pub(crate) fn fresh_unit(&self, id: UnitId) -> Result<&Unit, RuleViolation> {
        let u = self.acting_unit(id)?;
        if u.has_acted() {
            return Err(RuleViolation::AlreadyActed(id));
        }
        Ok(u)
    }

    /// NORTH-MOV-13: the allowance of the brigade's slowest unit in play, ignoring unlimbered artillery
    /// (0") and units in contact, for a brigade that moves together.
    pub fn brigade_conform_allowance(&self, brigade: BrigadeId) -> Result<Inches, RuleViolation> {
        let b = self.brigade(brigade)?;
        let mut slowest: Option<f64> = None;
        for &id in &b.units {
            let u = self.unit(id)?;
            if !u.in_play() || u.in_contact() {
                continue;
            }
            let a = allowance(u, FireIntent::NoFire, &self.options).0;
            if a <= 0.0 {
                continue;
            }
            slowest = Some(slowest.map_or(a, |s| s.min(a)));
        }
        Ok(Inches(slowest.unwrap_or(0.0)))
    }

    /// NORTH-MOV-03 / NORTH-MOV-04 / NORTH-CMD-02 / NORTH-CMD-03 / NORTH-CMD-04 / NORTH-MOV-12 /
    /// NORTH-MOV-13 / NORTH-MOV-23: a unit makes its move. Advance moves toward the enemy, Withdraw away,
    /// Hold not at all; by default the full allowance unless something stops it (NORTH-OPT-09). A move may
    /// never reach an enemy (NORTH-MOV-11); after a failed toss a not-deployed unit that would reach one
    /// stands in place (NORTH-MOV-09, NORTH-OPT-10). Obstacles need the obstacle toss (skirmishers are exempt
    /// under NORTH-OPT-13). A withdrawing unit at its own edge leaves play under NORTH-OPT-36.
    pub fn move_unit<D: Dice + ?Sized>(
        &mut self,
        id: UnitId,
        order: &MoveOrder,
        dice: &mut D,
    ) -> Result<MoveReport, RuleViolation> {
        let mut next = self.clone();
        let out = next.move_unit_inner(id, order, dice)?;
        crate::morale::fault_check(dice)?;
        *self = next;
        Ok(out)
    }

    pub(crate) fn move_unit_inner<D: Dice + ?Sized>(
        &mut self,
        id: UnitId,
        order: &MoveOrder,
        dice: &mut D,
    ) -> Result<MoveReport, RuleViolation> {
        let u = self.acting_unit(id)?;
        check_length(order.distance)?;
        for d in &order.obstacles_at {
            check_length(*d)?;
        }
        if u.in_contact() {
            return Err(RuleViolation::InContact(id));
        }
        let after = match (u.phase().activity, u.phase().after_failure) {
            (None, _) => None,
            (Some(_), Some(a)) if a != AfterFailure::Stay && !u.phase().moved_after_failure => {
                Some(a)
            }
            _ => return Err(RuleViolation::AlreadyActed(id)),
        };
        let unit_order = self.order_of(id)?;
        let wanted = match unit_order {
            BrigadeOrder::Advance => MoveDirection::TowardEnemy,
            BrigadeOrder::Withdraw => MoveDirection::AwayFromEnemy,
            BrigadeOrder::Hold => {
                return Err(RuleViolation::OrderForbidsMove {
                    unit: id,
                    order: unit_order,
                });
            }
        };
        if order.distance.0 > 0.0 && order.direction != Some(wanted) {
            return Err(RuleViolation::OrderForbidsMove {
                unit: id,
                order: unit_order,
            });
        }
        if order.would_contact {
            if order.stopped_by != Some(MoveStop::ContactGap) {
                return Err(RuleViolation::MayNotContact(id));
            }
            if after == Some(AfterFailure::OrderedMove)
                && !u.is_deployed()
                && self.options.non_deployed_contact_halt == NonDeployedContactHalt::StandInPlace
                && order.distance.0 > 0.0
            {
                return Err(RuleViolation::MustStandInPlace(id));
            }
        }
        let own = allowance(u, order.intent, &self.options);
        let limit = if order.stopped_by == Some(MoveStop::Conform) {
            self.brigade_conform_allowance(u.brigade())?.0.min(own.0)
        } else {
            own.0
        };
        if order.distance.0 > limit + 1e-9 {
            return Err(RuleViolation::MoveTooLong {
                distance: order.distance.0,
                allowance: limit,
            });
        }
        if self.options.ordered_move == OrderedMove::Full
            && order.distance.0 < limit - 1e-9
            && !matches!(
                order.stopped_by,
                Some(MoveStop::ContactGap | MoveStop::TableEdge)
            )
        {
            return Err(RuleViolation::MoveTooShort {
                distance: order.distance.0,
                allowance: limit,
            });
        }
        let exempt = u.is_skirmishers() && self.options.skirmishers_exempt_from_obstacle_toss;
        let n_obstacles = u8::try_from(order.obstacles_at.len()).unwrap_or(u8::MAX);
        let obstacle = (n_obstacles > 0 && !exempt).then(|| {
            dice.about(format_args!("obstacle toss of {}", u.name()));
            ObstacleToss {
                obstacles: n_obstacles,
                per_obstacle: self.options.obstacle_toss_per_obstacle,
            }
            .roll(dice)
        });
        let moved = match obstacle {
            Some(ObstacleOutcome::HaltedBefore(0)) => Inches(0.0),
            Some(ObstacleOutcome::HaltedBefore(i)) => Inches(
                order
                    .obstacles_at
                    .get(usize::from(i))
                    .map_or(0.0, |d| d.0)
                    .min(order.distance.0),
            ),
            _ => order.distance,
        };
        let left_table = unit_order == BrigadeOrder::Withdraw
            && order.stopped_by == Some(MoveStop::TableEdge)
            && self.options.exit_table_on_withdraw
            && obstacle.is_none_or(|o| o == ObstacleOutcome::Crossed);
        let u = self.unit_mut(id)?;
        if after.is_some() {
            u.phase.moved_after_failure = true;
        } else {
            u.phase.activity = Some(Activity::Move);
        }
        u.phase.moved = Inches(u.phase.moved.0 + moved.0);
        u.phase.fire_intent = order.intent;
        u.phase.crossed_obstacle_or_rough |=
            order.crosses_rough || (!order.obstacles_at.is_empty() && moved.0 > 0.0);
        if left_table {
            u.remove(UnitStatus::LeftTable);
            self.break_contacts(id);
        }
        Ok(MoveReport {
            obstacle,
            moved,
            left_table,
        })
    }

    /// Records a toss-based action: success or the NORTH-MOV-09 consequence of failure.
    pub(crate) fn record_action(
        &mut self,
        id: UnitId,
        activity: Activity,
        success: bool,
    ) -> Result<Option<AfterFailure>, RuleViolation> {
        let order = self.order_of(id)?;
        let in_contact = self.unit(id)?.in_contact();
        let after = (!success).then(|| after_failure(order, activity, in_contact, &self.options));
        let u = self.unit_mut(id)?;
        u.phase.activity = Some(activity);
        u.phase.after_failure = after;
        Ok(after)
    }

    /// NORTH-MOV-07 / NORTH-MOV-08 / NORTH-MOV-10 / NORTH-ART-10 / NORTH-MOV-16: a formation change: line
    /// ↔ column ↔ skirmish order, or limbering ↔ unlimbering. It needs an accomplishment toss (crew figures
    /// for artillery); under NORTH-OPT-11 a battery under a movement order unlimbers without one. Success is
    /// the unit's move for the phase; failure follows NORTH-MOV-09. Units in contact cannot change formation
    /// (NORTH-MOV-23), and a crew away from its gun cannot limber or unlimber.
    pub fn attempt_formation_change<D: Dice + ?Sized>(
        &mut self,
        id: UnitId,
        to: Formation,
        dice: &mut D,
    ) -> Result<ActionReport, RuleViolation> {
        let mut next = self.clone();
        let out = next.attempt_formation_change_inner(id, to, dice)?;
        crate::morale::fault_check(dice)?;
        *self = next;
        Ok(out)
    }

    pub(crate) fn attempt_formation_change_inner<D: Dice + ?Sized>(
        &mut self,
        id: UnitId,
        to: Formation,
        dice: &mut D,
    ) -> Result<ActionReport, RuleViolation> {
        let u = self.fresh_unit(id)?;
        if u.in_contact() {
            return Err(RuleViolation::InContact(id));
        }
        if !formation_is_legal(u.troop(), to, &self.options) {
            return Err(RuleViolation::IllegalFormation {
                troop: u.troop(),
                formation: to,
            });
        }
        if u.crew_without_gun() {
            return Err(RuleViolation::NoGun(id));
        }
        if u.formation() == to {
            return Err(RuleViolation::SameFormation(id));
        }
        let automatic = u.arm() == Arm::Artillery
            && to == Formation::Unlimbered
            && self.options.artillery_unlimber_automatic
            && self.order_of(id)?.is_movement_order();
        let toss = AccomplishmentToss::for_unit(u, &self.options);
        if !automatic {
            dice.about(format_args!(
                "accomplishment toss of {} to form {to}",
                u.name()
            ));
        }
        let face = (!automatic).then(|| Die::D6.roll(dice));
        let success = face.is_none_or(|f| toss.passes(f));
        let after = self.record_action(id, Activity::FormationChange, success)?;
        if success {
            self.unit_mut(id)?.formation = to;
        }
        Ok(ActionReport {
            face,
            success,
            after_failure: after,
        })
    }

    /// NORTH-MOV-19: mounted cavalry (in line or column, not in contact) dismount on an accomplishment toss:
    /// N mounted stands become N − 1 dismounted stands in line with a horse holder behind; the stand count is
    /// kept. It counts as the unit's move.
    pub fn attempt_dismount<D: Dice + ?Sized>(
        &mut self,
        id: UnitId,
        dice: &mut D,
    ) -> Result<ActionReport, RuleViolation> {
        let mut next = self.clone();
        let out = next.attempt_dismount_inner(id, dice)?;
        crate::morale::fault_check(dice)?;
        *self = next;
        Ok(out)
    }

    pub(crate) fn attempt_dismount_inner<D: Dice + ?Sized>(
        &mut self,
        id: UnitId,
        dice: &mut D,
    ) -> Result<ActionReport, RuleViolation> {
        let u = self.fresh_unit(id)?;
        if u.troop() != Troop::MountedCavalry {
            return Err(RuleViolation::WrongTroop {
                unit: id,
                troop: u.troop(),
            });
        }
        if u.in_contact() {
            return Err(RuleViolation::InContact(id));
        }
        if !self.options.horse_holder_counted
            && u.current_stands().saturating_sub(1) < MIN_STANDS_IN_PLAY
        {
            // NORTH-CAS-04 / NORTH-OPT-08: without the holder counted, dismounting would drop it below three.
            return Err(RuleViolation::TooFewStands(id));
        }
        let toss = AccomplishmentToss::for_unit(u, &self.options);
        dice.about(format_args!(
            "accomplishment toss of {} to dismount",
            u.name()
        ));
        let face = Die::D6.roll(dice);
        let success = toss.passes(face);
        let after = self.record_action(id, Activity::Dismount, success)?;
        if success {
            let u = self.unit_mut(id)?;
            u.mount = Mount::Dismounted;
            u.holder = true;
            u.formation = Formation::Line;
        }
        Ok(ActionReport {
            face: Some(face),
            success,
            after_failure: after,
        })
    }

    /// NORTH-MOV-21 / NORTH-OPT-30: dismounted cavalry remount on an accomplishment toss (N counts the
    /// holder): every stand becomes a mounted stand (3 + 1 becomes 4), in mounted line by default. It counts
    /// as the unit's move.
    pub fn attempt_remount<D: Dice + ?Sized>(
        &mut self,
        id: UnitId,
        dice: &mut D,
    ) -> Result<ActionReport, RuleViolation> {
        let mut next = self.clone();
        let out = next.attempt_remount_inner(id, dice)?;
        crate::morale::fault_check(dice)?;
        *self = next;
        Ok(out)
    }

    pub(crate) fn attempt_remount_inner<D: Dice + ?Sized>(
        &mut self,
        id: UnitId,
        dice: &mut D,
    ) -> Result<ActionReport, RuleViolation> {
        let u = self.fresh_unit(id)?;
        if u.troop() != Troop::DismountedCavalry {
            return Err(RuleViolation::WrongTroop {
                unit: id,
                troop: u.troop(),
            });
        }
        if u.in_contact() {
            return Err(RuleViolation::InContact(id));
        }
        let toss = AccomplishmentToss::for_unit(u, &self.options);
        dice.about(format_args!(
            "accomplishment toss of {} to remount",
            u.name()
        ));
        let face = Die::D6.roll(dice);
        let success = toss.passes(face);
        let after = self.record_action(id, Activity::Remount, success)?;
        if success {
            let formation = match self.options.remount_formation {
                RemountFormation::Line => Formation::Line,
                RemountFormation::Column => Formation::Column,
            };
            let u = self.unit_mut(id)?;
            u.mount = Mount::Mounted;
            u.holder = false;
            u.formation = formation;
        }
        Ok(ActionReport {
            face: Some(face),
            success,
            after_failure: after,
        })
    }

    /// NORTH-MOV-18: skirmishers fall back 10" and reform in column on an accomplishment toss; also a way
    /// out of contact. Failure follows NORTH-MOV-09 (in contact: it stays).
    pub fn attempt_skirmisher_fall_back<D: Dice + ?Sized>(
        &mut self,
        id: UnitId,
        dice: &mut D,
    ) -> Result<ActionReport, RuleViolation> {
        let mut next = self.clone();
        let out = next.attempt_skirmisher_fall_back_inner(id, dice)?;
        crate::morale::fault_check(dice)?;
        *self = next;
        Ok(out)
    }

    pub(crate) fn attempt_skirmisher_fall_back_inner<D: Dice + ?Sized>(
        &mut self,
        id: UnitId,
        dice: &mut D,
    ) -> Result<ActionReport, RuleViolation> {
        let u = self.fresh_unit(id)?;
        if !u.is_skirmishers() {
            return Err(RuleViolation::NotSkirmishers(id));
        }
        let toss = AccomplishmentToss::for_unit(u, &self.options);
        dice.about(format_args!(
            "accomplishment toss of {} to fall back as skirmishers",
            u.name()
        ));
        let face = Die::D6.roll(dice);
        let success = toss.passes(face);
        let after = self.record_action(id, Activity::SkirmisherFallBack, success)?;
        if success {
            self.break_contacts(id);
            let u = self.unit_mut(id)?;
            u.formation = Formation::Column;
            u.phase.moved = SKIRMISH_FALL_BACK;
        }
        Ok(ActionReport {
            face: Some(face),
            success,
            after_failure: after,
        })
    }

    /// NORTH-MOV-15: a unit in contact tries to withdraw from melee (accomplishment toss, c = 0) and moves
    /// `distance` (up to its allowance) out of contact; an obstacle on the way needs the obstacle toss too,
    /// and failing it means no movement. Unlimbered artillery cannot move and cannot withdraw. On failure the
    /// unit stays in contact.
    pub fn attempt_withdraw_from_melee<D: Dice + ?Sized>(
        &mut self,
        id: UnitId,
        distance: Inches,
        obstacles: u8,
        dice: &mut D,
    ) -> Result<ActionReport, RuleViolation> {
        let mut next = self.clone();
        let out = next.attempt_withdraw_from_melee_inner(id, distance, obstacles, dice)?;
        crate::morale::fault_check(dice)?;
        *self = next;
        Ok(out)
    }

    pub(crate) fn attempt_withdraw_from_melee_inner<D: Dice + ?Sized>(
        &mut self,
        id: UnitId,
        distance: Inches,
        obstacles: u8,
        dice: &mut D,
    ) -> Result<ActionReport, RuleViolation> {
        check_length(distance)?;
        let u = self.fresh_unit(id)?;
        if !u.in_contact() {
            return Err(RuleViolation::NotInContact(id));
        }
        let a = allowance(u, FireIntent::NoFire, &self.options);
        if a.0 <= 0.0 {
            return Err(RuleViolation::CannotMove(id));
        }
        if distance.0 > a.0 + 1e-9 {
            return Err(RuleViolation::MoveTooLong {
                distance: distance.0,
                allowance: a.0,
            });
        }
        let toss = AccomplishmentToss::for_unit(u, &self.options);
        dice.about(format_args!(
            "accomplishment toss of {} to leave the melee",
            u.name()
        ));
        let face = Die::D6.roll(dice);
        let mut success = toss.passes(face);
        if success && obstacles > 0 {
            dice.about(format_args!(
                "obstacle toss of {} leaving the melee",
                u.name()
            ));
            let o = ObstacleToss {
                obstacles,
                per_obstacle: false,
            }
            .roll(dice);
            success = o == ObstacleOutcome::Crossed;
        }
        let after = self.record_action(id, Activity::WithdrawFromMelee, success)?;
        if success {
            self.break_contacts(id);
            self.unit_mut(id)?.phase.moved = distance;
        }
        Ok(ActionReport {
            face: Some(face),
            success,
            after_failure: after,
        })
    }

    /// NORTH-MOV-24 / NORTH-OPT-32: an unlimbered battery pivots in place to face a target; no toss, not a
    /// formation change; it is the battery's activation. Refused under NORTH-OPT-32.
    pub fn pivot_gun(&mut self, id: UnitId) -> Result<(), RuleViolation> {
        let u = self.fresh_unit(id)?;
        if u.arm() != Arm::Artillery {
            return Err(RuleViolation::WrongTroop {
                unit: id,
                troop: u.troop(),
            });
        }
        if self.options.no_artillery_pivot {
            return Err(RuleViolation::OptionForbids("no_artillery_pivot"));
        }
        if u.crew_without_gun() {
            return Err(RuleViolation::NoGun(id));
        }
        if u.formation() != Formation::Unlimbered {
            return Err(RuleViolation::IllegalFormation {
                troop: u.troop(),
                formation: u.formation(),
            });
        }
        self.unit_mut(id)?.phase.activity = Some(Activity::Move);
        Ok(())
    }

    /// NORTH-ART-07 / NORTH-OPT-20: a crew without its gun moves back to it (at most 10") and re-forms
    /// around it in the state it was left in; no toss; this is its move. Refused if the option is off, the
    /// gun was captured, or the crew is in contact.
    pub fn reman_gun(&mut self, id: UnitId, distance: Inches) -> Result<(), RuleViolation> {
        check_length(distance)?;
        let u = self.fresh_unit(id)?;
        if !self.options.crew_may_reman_gun {
            return Err(RuleViolation::OptionForbids("crew_may_reman_gun"));
        }
        if u.in_contact() {
            return Err(RuleViolation::InContact(id));
        }
        let Some(GunState::Abandoned { left_in }) = u.gun() else {
            return Err(RuleViolation::GunNotAbandoned(id));
        };
        let a = allowance(u, FireIntent::NoFire, &self.options);
        if distance.0 > a.0 + 1e-9 {
            return Err(RuleViolation::MoveTooLong {
                distance: distance.0,
                allowance: a.0,
            });
        }
        let u = self.unit_mut(id)?;
        u.gun = Some(GunState::Manned);
        u.formation = left_in;
        u.phase.activity = Some(Activity::RemanGun);
        u.phase.moved = distance;
        Ok(())
    }

    /// NORTH-ART-08 / NORTH-OPT-20: an enemy infantry or cavalry unit that moved into contact with an
    /// abandoned gun captures it, with no toss; the gun is gone for good. Abandoned guns are no unit and no
    /// target (NORTH-ART-06).
    pub fn capture_gun(&mut self, capturer: UnitId, battery: UnitId) -> Result<(), RuleViolation> {
        let c = self.acting_unit(capturer)?;
        if c.arm() == Arm::Artillery {
            return Err(RuleViolation::WrongTroop {
                unit: capturer,
                troop: c.troop(),
            });
        }
        if !self.options.enemy_captures_abandoned_guns {
            return Err(RuleViolation::OptionForbids(
                "enemy_captures_abandoned_guns",
            ));
        }
        let side = c.side();
        let b = self.unit(battery)?;
        if b.side() == side {
            return Err(RuleViolation::BadTarget(battery));
        }
        if !matches!(b.gun(), Some(GunState::Abandoned { .. })) {
            return Err(RuleViolation::GunNotAbandoned(battery));
        }
        self.unit_mut(battery)?.gun = Some(GunState::Captured { by: side });
        Ok(())
    }
    /// NORTH-MOV-03 / NORTH-MOV-09: whether unit `id` of the phasing side still owes its ordered move this
    /// phase: in play, not in contact, not excused, under Advance or Withdraw with an allowance, and either
    /// without an action yet or free to move after a failed toss.
    pub fn owes_move(&self, id: UnitId) -> bool {
        let Ok(u) = self.unit(id) else {
            return false;
        };
        if !u.in_play() || u.side() != self.clock.phasing() || u.in_contact() || u.phase.excused {
            return false;
        }
        let owes = match (u.phase.activity, u.phase.after_failure) {
            (None, _) => true,
            (Some(_), Some(a)) => a != AfterFailure::Stay && !u.phase.moved_after_failure,
            _ => false,
        };
        owes && self.order_of(id).is_ok_and(BrigadeOrder::is_movement_order)
            && allowance(u, FireIntent::NoFire, &self.options).0 > 0.0
    }

    /// NORTH-MOV-03: the phasing side's units that still owe their ordered move; the units step cannot end
    /// before each has moved or been excused.
    pub fn owed_moves(&self) -> Vec<UnitId> {
        self.units
            .iter()
            .map(Unit::id)
            .filter(|&id| self.owes_move(id))
            .collect()
    }

    /// NORTH-MOV-03: whether unit `id` may stand this phase instead of acting: under Hold, in contact, or with
    /// no move allowed.
    pub fn check_stand(&self, id: UnitId) -> Result<(), RuleViolation> {
        let u = self.live_unit(id)?;
        self.require_phase(u.side(), Step::Units)?;
        if u.has_acted() || u.phase.excused {
            return Err(RuleViolation::AlreadyActed(id));
        }
        let order = self.order_of(id)?;
        let free = allowance(u, FireIntent::NoFire, &self.options).0 > 0.0;
        if order.is_movement_order() && free && !u.in_contact() {
            return Err(RuleViolation::MustMove(id));
        }
        Ok(())
    }

    /// NORTH-MOV-03: unit `id` stands this phase (see [`Battle::check_stand`]).
    pub fn stand(&mut self, id: UnitId) -> Result<(), RuleViolation> {
        self.check_stand(id)?;
        self.unit_mut(id)?.phase.excused = true;
        Ok(())
    }

    /// NORTH-MOV-03: a unit whose ordered move the table does not allow (no room, nothing to move through) is
    /// excused from it for the rest of the phase.
    pub fn excuse_move(&mut self, id: UnitId) -> Result<(), RuleViolation> {
        if !self.owes_move(id) {
            return Err(RuleViolation::AlreadyActed(id));
        }
        self.unit_mut(id)?.phase.excused = true;
        Ok(())
    }
}
