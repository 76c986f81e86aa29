//! Command: brigade orders and their changes, generals, rally tosses and the brigade order check
//! (NORTH-CMD-01 to NORTH-CMD-15).

use crate::error::{RallyRefusal, RuleViolation};
use crate::options::{LeaderlessOrders, Options};
use crate::sequence::Step;
use crate::state::{Battle, BrigadeId, GeneralId, GeneralStatus, Rank, UnitId};
use crate::tables::{
    BrigadeOrder, GENERAL_MOVE, ORDER_CHANGE_MIN, RallyResult, order_check_band,
    order_check_modifier, rally_effect,
};
use acw_core::dice::{Dice, Die};
use acw_core::measure::Inches;
use acw_core::{Dist, Resolve};

/// NORTH-CMD-07: the MG's order-change toss: 5 or 6 on one d6 changes the order (2/6). Also the individual
/// toss of a leaderless unit (NORTH-CMD-13).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct OrderChangeToss;

impl Resolve for OrderChangeToss {
    /// Whether the order may change.
    type Outcome = bool;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> bool {
        Die::D6.roll(dice) >= ORDER_CHANGE_MIN
    }
    fn odds(&self) -> Dist<bool> {
        Dist::die(Die::D6).map(|&f| f >= u32::from(ORDER_CHANGE_MIN))
    }
}

/// NORTH-CMD-10: a general's rally toss. `melee` is whether the morale check comes from a melee hit (only
/// then does a 5 capture him).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RallyToss {
    /// The check comes from a melee hit.
    pub melee: bool,
}

impl Resolve for RallyToss {
    type Outcome = RallyResult;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> RallyResult {
        rally_effect(Die::D6.roll(dice), self.melee)
    }
    fn odds(&self) -> Dist<RallyResult> {
        let melee = self.melee;
        Dist::die(Die::D6).map(move |&f| rally_effect(f as u16, melee))
    }
}

/// NORTH-CMD-11: the brigade order check after its MG is lost: one d6, −1 from Withdraw, +1 from Advance;
/// 1–2 Withdraw, 3–4 Hold, 5–6 Advance (results beyond read as the nearest band).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OrderCheck {
    /// The order before the check.
    pub current: BrigadeOrder,
}

impl Resolve for OrderCheck {
    type Outcome = BrigadeOrder;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> BrigadeOrder {
        order_check_band(Die::D6.roll(dice) as i16 + order_check_modifier(self.current))
    }
    fn odds(&self) -> Dist<BrigadeOrder> {
        let m = order_check_modifier(self.current);
        Dist::die(Die::D6).map(move |&f| order_check_band(f as i16 + m))
    }
}

/// NORTH-CMD-08: whether a general `edge_distance` from a unit is "with" it (within `with_distance`,
/// default 0": touching).
#[must_use]
pub fn general_is_with(edge_distance: Inches, options: &Options) -> bool {
    edge_distance.0.is_finite() && edge_distance.0 <= options.with_distance.0 + 1e-9
}

/// What an Army Commander's automatic order change is aimed at (NORTH-CMD-06).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum OrderTarget {
    /// A brigade that still has its MG.
    Brigade(BrigadeId),
    /// A unit of a leaderless brigade, holding its own order.
    Unit(UnitId),
}

/// The result of applying a rally toss to a general (NORTH-CMD-10, NORTH-CMD-12, NORTH-CMD-14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RallyApplied {
    /// Subtracted from the morale toss.
    pub subtract: u8,
    /// The general's status afterwards.
    pub general: GeneralStatus,
    /// A brigade that now owes its order check (NORTH-CMD-11).
    pub order_check_due: Option<BrigadeId>,
}

/// The result of an order-change toss (NORTH-CMD-07, NORTH-CMD-13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct OrderChangeReport {
    /// The face thrown.
    pub face: u16,
    /// Whether the order changed.
    pub changed: bool,
    /// The order afterwards.
    pub order: BrigadeOrder,
}

impl Battle {
    /// NORTH-CMD-15 / NORTH-MOV-02: moves a general up to 15" this phase, in his side's command or units
    /// step, ending with the unit `with` (or none). Generals make no tosses.
    pub fn move_general(
        &mut self,
        id: GeneralId,
        distance: Inches,
        with: Option<UnitId>,
    ) -> Result<(), RuleViolation> {
        crate::movement::check_length(distance)?;
        let g = self.general(id)?;
        if !g.is_active() {
            return Err(RuleViolation::GeneralLost(id));
        }
        let side = g.side;
        if self.clock.step() > Step::Units {
            return Err(RuleViolation::WrongStep {
                expected: Step::Units,
                actual: self.clock.step(),
            });
        }
        self.require_phase(side, self.clock.step())?;
        if !(distance.0.is_finite() && distance.0 >= 0.0) {
            return Err(RuleViolation::BadLength(distance.0));
        }
        let total = g.moved.0 + distance.0;
        if total > GENERAL_MOVE.0 + 1e-9 {
            return Err(RuleViolation::MoveTooLong {
                distance: total,
                allowance: GENERAL_MOVE.0,
            });
        }
        if let Some(u) = with {
            let unit = self.live_unit(u)?;
            if unit.side != side {
                return Err(RuleViolation::GeneralOtherSide(id));
            }
        }
        let g = self.general_mut(id)?;
        g.moved = Inches(total);
        g.with_unit = with;
        Ok(())
    }

    /// NORTH-CMD-06: the Army Commander, with a brigade (any unit of it) or with a leaderless unit, sets its
    /// order with no toss; once per phase, in the command step.
    pub fn army_commander_sets_order(
        &mut self,
        side: acw_core::Side,
        target: OrderTarget,
        order: BrigadeOrder,
    ) -> Result<(), RuleViolation> {
        self.require_phase(side, Step::Command)?;
        let ac = self.army_commanders[side];
        let g = self.general(ac)?;
        if !g.is_active() {
            return Err(RuleViolation::GeneralLost(ac));
        }
        if self.ac_order_used {
            return Err(RuleViolation::ArmyCommanderUsed);
        }
        let with = g.with_unit;
        match target {
            OrderTarget::Brigade(b) => {
                let brigade = self.brigade(b)?;
                if brigade.side != side {
                    return Err(RuleViolation::GeneralOtherSide(ac));
                }
                if brigade.leaderless {
                    return Err(RuleViolation::BrigadeLeaderless(b));
                }
                if !with.is_some_and(|u| brigade.units.contains(&u)) {
                    return Err(RuleViolation::GeneralNotWith(ac));
                }
                if brigade.order == order {
                    return Err(RuleViolation::OrderUnchanged(order));
                }
                let brigade = self.brigade_mut(b)?;
                brigade.order = order;
                brigade.order_change_used = true;
            }
            OrderTarget::Unit(u) => {
                let unit = self.live_unit(u)?;
                if unit.side != side {
                    return Err(RuleViolation::GeneralOtherSide(ac));
                }
                let b = self.brigade(unit.brigade)?;
                if !b.leaderless {
                    return Err(RuleViolation::BrigadeHasLeader(b.id));
                }
                if with != Some(u) {
                    return Err(RuleViolation::GeneralNotWith(ac));
                }
                if self.order_of(u)? == order {
                    return Err(RuleViolation::OrderUnchanged(order));
                }
                let unit = self.unit_mut(u)?;
                unit.own_order = Some(order);
                unit.phase.order_toss_used = true;
            }
        }
        self.ac_order_used = true;
        Ok(())
    }

    /// NORTH-CMD-07: the MG of `brigade` tries to change its order to `order`: 5–6 on a d6. One attempt per
    /// brigade per phase, in the command step, not after the AC changed it.
    pub fn attempt_order_change<D: Dice + ?Sized>(
        &mut self,
        brigade: BrigadeId,
        order: BrigadeOrder,
        dice: &mut D,
    ) -> Result<OrderChangeReport, RuleViolation> {
        let mut next = self.clone();
        let out = next.attempt_order_change_inner(brigade, order, dice)?;
        crate::morale::fault_check(dice)?;
        *self = next;
        Ok(out)
    }

    pub(crate) fn attempt_order_change_inner<D: Dice + ?Sized>(
        &mut self,
        brigade: BrigadeId,
        order: BrigadeOrder,
        dice: &mut D,
    ) -> Result<OrderChangeReport, RuleViolation> {
        let b = self.brigade(brigade)?;
        self.require_phase(b.side, Step::Command)?;
        if b.leaderless {
            return Err(RuleViolation::BrigadeLeaderless(brigade));
        }
        if b.order_change_used {
            return Err(RuleViolation::OrderChangeUsed(brigade));
        }
        if b.order == order {
            return Err(RuleViolation::OrderUnchanged(order));
        }
        dice.about(format_args!(
            "order change toss of {} (to {order})",
            b.name()
        ));
        let face = Die::D6.roll(dice);
        let changed = face >= ORDER_CHANGE_MIN;
        let b = self.brigade_mut(brigade)?;
        b.order_change_used = true;
        if changed {
            b.order = order;
        }
        Ok(OrderChangeReport {
            face,
            changed,
            order: b.order,
        })
    }

    /// NORTH-CMD-13 (`LeaderlessOrders = IndividualToss`): a unit of a leaderless brigade tries to change its
    /// own order: 5–6 on a d6, once per phase.
    pub fn attempt_unit_order_change<D: Dice + ?Sized>(
        &mut self,
        unit: UnitId,
        order: BrigadeOrder,
        dice: &mut D,
    ) -> Result<OrderChangeReport, RuleViolation> {
        let mut next = self.clone();
        let out = next.attempt_unit_order_change_inner(unit, order, dice)?;
        crate::morale::fault_check(dice)?;
        *self = next;
        Ok(out)
    }

    pub(crate) fn attempt_unit_order_change_inner<D: Dice + ?Sized>(
        &mut self,
        unit: UnitId,
        order: BrigadeOrder,
        dice: &mut D,
    ) -> Result<OrderChangeReport, RuleViolation> {
        let u = self.live_unit(unit)?;
        self.require_phase(u.side, Step::Command)?;
        let b = self.brigade(u.brigade)?;
        if !b.leaderless {
            return Err(RuleViolation::BrigadeHasLeader(b.id));
        }
        if self.options.leaderless_orders != LeaderlessOrders::IndividualToss {
            return Err(RuleViolation::OptionForbids("leaderless_orders"));
        }
        if u.phase.order_toss_used {
            return Err(RuleViolation::AlreadyActed(unit));
        }
        if self.order_of(unit)? == order {
            return Err(RuleViolation::OrderUnchanged(order));
        }
        dice.about(format_args!(
            "order change toss of {} (to {order})",
            u.name()
        ));
        let face = Die::D6.roll(dice);
        let changed = face >= ORDER_CHANGE_MIN;
        let u = self.unit_mut(unit)?;
        u.phase.order_toss_used = true;
        if changed {
            u.own_order = Some(order);
        }
        let order = self.order_of(unit)?;
        Ok(OrderChangeReport {
            face,
            changed,
            order,
        })
    }

    /// NORTH-CMD-13 (`LeaderlessOrders = CheckEveryPhase`): a unit of a leaderless brigade checks on the
    /// brigade order table at the start of its side's phase.
    pub fn leaderless_order_check<D: Dice + ?Sized>(
        &mut self,
        unit: UnitId,
        dice: &mut D,
    ) -> Result<BrigadeOrder, RuleViolation> {
        let mut next = self.clone();
        let out = next.leaderless_order_check_inner(unit, dice)?;
        crate::morale::fault_check(dice)?;
        *self = next;
        Ok(out)
    }

    pub(crate) fn leaderless_order_check_inner<D: Dice + ?Sized>(
        &mut self,
        unit: UnitId,
        dice: &mut D,
    ) -> Result<BrigadeOrder, RuleViolation> {
        let u = self.live_unit(unit)?;
        self.require_phase(u.side, Step::Command)?;
        let b = self.brigade(u.brigade)?;
        if !b.leaderless {
            return Err(RuleViolation::BrigadeHasLeader(b.id));
        }
        if self.options.leaderless_orders != LeaderlessOrders::CheckEveryPhase {
            return Err(RuleViolation::OptionForbids("leaderless_orders"));
        }
        if u.phase.order_toss_used {
            return Err(RuleViolation::AlreadyActed(unit));
        }
        let current = self.order_of(unit)?;
        dice.about(format_args!("leaderless order check of {}", u.name()));
        let new = OrderCheck { current }.roll(dice);
        let u = self.unit_mut(unit)?;
        u.phase.order_toss_used = true;
        u.own_order = Some(new);
        Ok(new)
    }

    /// NORTH-CMD-09 / NORTH-CMD-14 / NORTH-OPT-16 / NORTH-OPT-29: whether `general` may attempt to rally
    /// `unit`: alive, same side, with the unit (by default), and an MG only for his own brigade (by default);
    /// the AC for any friendly unit. A leaderless brigade's units thus can be rallied by the AC alone.
    pub fn check_rally(&self, general: GeneralId, unit: UnitId) -> Result<(), RuleViolation> {
        let g = self.general(general)?;
        let u = self.live_unit(unit)?;
        let refuse = |reason| Err(RuleViolation::CannotRally { general, reason });
        if !g.is_active() {
            return refuse(RallyRefusal::GeneralLost);
        }
        if g.side != u.side {
            return refuse(RallyRefusal::OtherSide);
        }
        // NORTH-OPT-16 / NORTH-CMD-08: "with" is attached to the unit, or measured within `with_distance` of it
        // when the check began.
        let near = self
            .morale
            .as_ref()
            .is_some_and(|m| m.unit == unit && m.nearby.contains(&general));
        if self.options.rally_requires_with && g.with_unit != Some(unit) && !near {
            return refuse(RallyRefusal::NotWith);
        }
        if let Rank::MajorGeneral(b) = g.rank
            && b != u.brigade
            && !self.options.mg_rallies_other_brigades
        {
            return refuse(RallyRefusal::OtherBrigade);
        }
        Ok(())
    }

    /// NORTH-CMD-10 / NORTH-CMD-12 / NORTH-CMD-14: applies a rally result to its general. A 6 kills him, a 5
    /// in melee captures him; either way he leaves play. A lost MG leaves his brigade leaderless and, when
    /// killed (or captured, under NORTH-OPT-18), owing its order check (NORTH-CMD-11); under the literal
    /// reading a captured MG's units keep the brigade's order. Losing the AC changes no orders.
    pub(crate) fn apply_rally_result(
        &mut self,
        general: GeneralId,
        result: RallyResult,
    ) -> Result<RallyApplied, RuleViolation> {
        let g = self.general(general)?;
        if !g.is_active() {
            return Err(RuleViolation::GeneralLost(general));
        }
        let rank = g.rank;
        let status = match result {
            RallyResult::Killed => GeneralStatus::Killed,
            RallyResult::Captured => GeneralStatus::Captured,
            RallyResult::Subtract(_) | RallyResult::NoEffect => GeneralStatus::Active,
        };
        let mut order_check_due = None;
        if status != GeneralStatus::Active {
            let g = self.general_mut(general)?;
            g.status = status;
            g.with_unit = None;
            if let Rank::MajorGeneral(b) = rank {
                let checks =
                    status == GeneralStatus::Killed || self.options.capture_triggers_order_check;
                let brigade = self.brigade_mut(b)?;
                brigade.leaderless = true;
                let order = brigade.order;
                let units = brigade.units.clone();
                if checks {
                    brigade.order_check_due = true;
                    order_check_due = Some(b);
                }
                for u in units {
                    if let Ok(unit) = self.unit_mut(u) {
                        unit.own_order = Some(order);
                    }
                }
            }
        }
        Ok(RallyApplied {
            subtract: result.subtraction(),
            general: status,
            order_check_due,
        })
    }

    /// NORTH-CMD-11: applies the brigade order check's result: the brigade and each of its units take the new
    /// order, and from then on each unit holds its own (NORTH-CMD-13).
    pub(crate) fn apply_order_check(
        &mut self,
        brigade: BrigadeId,
        order: BrigadeOrder,
    ) -> Result<(), RuleViolation> {
        let b = self.brigade(brigade)?;
        if !b.order_check_due {
            return Err(RuleViolation::NoOrderCheckDue(brigade));
        }
        let units = b.units.clone();
        let b = self.brigade_mut(brigade)?;
        b.order = order;
        b.order_check_due = false;
        for u in units {
            if let Ok(unit) = self.unit_mut(u) {
                unit.own_order = Some(order);
            }
        }
        Ok(())
    }

    /// NORTH-CMD-11: rolls and applies the brigade order check a lost MG left owing.
    pub fn roll_order_check<D: Dice + ?Sized>(
        &mut self,
        brigade: BrigadeId,
        dice: &mut D,
    ) -> Result<BrigadeOrder, RuleViolation> {
        let mut next = self.clone();
        let new = next.roll_order_check_inner(brigade, dice)?;
        crate::morale::fault_check(dice)?;
        *self = next;
        Ok(new)
    }

    pub(crate) fn roll_order_check_inner<D: Dice + ?Sized>(
        &mut self,
        brigade: BrigadeId,
        dice: &mut D,
    ) -> Result<BrigadeOrder, RuleViolation> {
        let b = self.brigade(brigade)?;
        if !b.order_check_due {
            return Err(RuleViolation::NoOrderCheckDue(brigade));
        }
        let new = OrderCheck { current: b.order }.roll(dice);
        self.apply_order_check(brigade, new)?;
        Ok(new)
    }
}
