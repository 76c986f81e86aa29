//! Charges into melee (NORTH-MEL-01 to NORTH-MEL-05, NORTH-MEL-08). The melee toss itself is the shared
//! combat toss ([`crate::combat`]).

use crate::error::{ChargeRefusal, RuleViolation};
use crate::movement::{AccomplishmentToss, ObstacleOutcome, ObstacleToss, charge_reach};
use crate::state::{Activity, AfterFailure, Battle, MeleeRole, UnitId};
use crate::tables::{BrigadeOrder, Formation, Troop};
use acw_core::Resolve;
use acw_core::dice::{Dice, Die};
use acw_core::measure::Inches;

/// A charge as measured by the game layer.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ChargeOrder {
    /// Inches to contact.
    pub distance: Inches,
    /// The target is behind cover (+1 to the charge toss, NORTH-MEL-02).
    pub target_in_cover: bool,
    /// Obstacles on the charge path (NORTH-MEL-03).
    pub obstacles: u8,
}

/// What a charge did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ChargeReport {
    /// The charge toss face.
    pub face: u16,
    /// Whether the charge toss passed.
    pub toss_passed: bool,
    /// The obstacle toss after a passed charge toss, if one was needed.
    pub obstacle: Option<ObstacleOutcome>,
    /// Whether the charger is now in contact.
    pub contact: bool,
    /// Whether it joined a melee already going on (NORTH-MEL-04).
    pub joined_existing: bool,
    /// After a failure: what the charger may still do (NORTH-MEL-05).
    pub after_failure: Option<AfterFailure>,
}

impl Battle {
    /// NORTH-MEL-01: whether `unit` may attempt a charge now: infantry or cavalry (mounted or dismounted)
    /// deployed in line, not skirmishers, not in contact, under Advance or Hold.
    pub fn check_charger(&self, unit: UnitId) -> Result<(), RuleViolation> {
        let u = self.fresh_unit(unit)?;
        let refuse = |reason| Err(RuleViolation::CannotCharge { unit, reason });
        if u.troop() == Troop::Artillery {
            return refuse(ChargeRefusal::Artillery);
        }
        if u.is_skirmishers() {
            return refuse(ChargeRefusal::Skirmishers);
        }
        if u.formation() != Formation::Line {
            return refuse(ChargeRefusal::NotInLine);
        }
        if u.in_contact() {
            return refuse(ChargeRefusal::AlreadyInContact);
        }
        if self.order_of(unit)? == BrigadeOrder::Withdraw {
            return refuse(ChargeRefusal::WithdrawOrder);
        }
        Ok(())
    }

    /// NORTH-MEL-02 / NORTH-MEL-03 / NORTH-MEL-04 / NORTH-MEL-05 / NORTH-MOV-11: a charge. The target must
    /// be an enemy within reach; the charge toss is the accomplishment toss with +1 against a target behind
    /// cover; an obstacle on the way then needs the obstacle toss (failing it: no movement). Success puts
    /// the charger in contact, opening a melee or joining one. Failure follows NORTH-MEL-05: a Hold unit
    /// stays, an Advance unit moves but stops short of contact (NORTH-OPT-37).
    pub fn attempt_charge<D: Dice + ?Sized>(
        &mut self,
        charger: UnitId,
        target: UnitId,
        order: ChargeOrder,
        dice: &mut D,
    ) -> Result<ChargeReport, RuleViolation> {
        let mut next = self.clone();
        let out = next.attempt_charge_inner(charger, target, order, dice)?;
        crate::morale::fault_check(dice)?;
        *self = next;
        Ok(out)
    }

    pub(crate) fn attempt_charge_inner<D: Dice + ?Sized>(
        &mut self,
        charger: UnitId,
        target: UnitId,
        order: ChargeOrder,
        dice: &mut D,
    ) -> Result<ChargeReport, RuleViolation> {
        if !(order.distance.0.is_finite() && order.distance.0 >= 0.0) {
            return Err(RuleViolation::BadLength(order.distance.0));
        }
        self.check_charger(charger)?;
        let c = self.unit(charger)?;
        let t = self.live_unit(target)?;
        if t.side() == c.side() {
            return Err(RuleViolation::BadTarget(target));
        }
        let reach = charge_reach(c.troop(), &self.options).unwrap_or(Inches(0.0));
        if order.distance.0 > reach.0 + 1e-9 {
            return Err(RuleViolation::CannotCharge {
                unit: charger,
                reason: ChargeRefusal::OutOfReach,
            });
        }
        let toss = AccomplishmentToss {
            capacity: c.capacity(&self.options),
            charge_cover: order.target_in_cover,
        };
        dice.about(format_args!("charge toss of {} at {}", c.name(), t.name()));
        let face = Die::D6.roll(dice);
        let toss_passed = toss.passes(face);
        let obstacle = (toss_passed && order.obstacles > 0).then(|| {
            dice.about(format_args!("obstacle toss of {} charging", c.name()));
            ObstacleToss {
                obstacles: order.obstacles,
                per_obstacle: self.options.obstacle_toss_per_obstacle,
            }
            .roll(dice)
        });
        let contact = toss_passed && obstacle.is_none_or(|o| o == ObstacleOutcome::Crossed);
        let joined_existing = contact && t.in_contact();
        // A charge stopped by an obstacle is no failed toss: the unit simply does not move.
        let after = self.record_action(charger, Activity::Charge, toss_passed)?;
        if contact {
            let c = self.unit_mut(charger)?;
            c.contacts.push(target);
            c.phase.charged = true;
            c.phase.moved = order.distance;
            if c.melee.role.is_none() {
                c.melee.role = Some(MeleeRole::Charger);
            }
            let t = self.unit_mut(target)?;
            if !joined_existing {
                t.melee.opened_this_phase = true;
                t.melee.role = Some(MeleeRole::Defender);
            }
            t.contacts.push(charger);
        }
        Ok(ChargeReport {
            face,
            toss_passed,
            obstacle,
            contact,
            joined_existing,
            after_failure: after,
        })
    }
}
