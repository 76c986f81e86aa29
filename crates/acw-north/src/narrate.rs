//! What a player reads: every [`Event`] of a game told in sentences, with unit and general names, the face
//! thrown, the modifiers that applied and the chance the result had ([`Narrated`], from [`State::narrate`]);
//! and the `Display` of every report the battle returns ([`AttackReport`], [`MoraleReport`],
//! [`ChargeReport`], [`OrderChangeReport`], [`MoveReport`], [`ActionReport`], [`SideReport`], [`Clock`]).
//! A report on its own names units, generals and brigades by id ("unit 14", "general 2"); the narration
//! tells the same sentence with their names.

use crate::combat::{AttackReport, Category, ModifierBreakdown};
use crate::command::{OrderChangeReport, OrderTarget};
use crate::game::{Event, State, Tried};
use crate::melee::ChargeReport;
use crate::morale::{Choice, MoraleReport};
use crate::movement::{ActionReport, MoveReport, ObstacleOutcome};
use crate::sequence::Clock;
use crate::state::{AfterFailure, BrigadeId, GeneralId, UnitId};
use crate::tables::{MoraleBand, ORDER_CHANGE_MIN, RallyResult};
use crate::victory::SideReport;
use std::fmt;

/// An event as a player reads it, naming units and generals from the game's state.
#[derive(Clone, Copy, Debug)]
pub struct Narrated<'a> {
    state: &'a State,
    event: &'a Event,
}

impl State {
    /// `event` told in sentences. Bookkeeping events (a step beginning, a unit standing, standing answers set)
    /// read as nothing.
    #[must_use]
    pub fn narrate<'a>(&'a self, event: &'a Event) -> Narrated<'a> {
        Narrated { state: self, event }
    }
}

impl fmt::Display for ModifierBreakdown {
    /// "cover −1, first round of melee +1", or "no modifiers".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts = [
            (self.long_range, "artillery beyond 24\""),
            (self.cover, "cover"),
            (self.mounted_attacker, "mounted cavalry attacking"),
            (
                self.skirmisher_crossing,
                "skirmishers who crossed rough ground",
            ),
            (self.first_round, "first round of melee"),
            (self.not_deployed, "target not deployed"),
            (self.mounted_target, "mounted cavalry target"),
            (self.extra_attackers, "more attackers"),
        ];
        let mut any = false;
        for (value, what) in parts {
            if value == 0 {
                continue;
            }
            if any {
                f.write_str(", ")?;
            }
            any = true;
            write!(f, "{what} {}", signed(value))?;
        }
        if !any {
            f.write_str("no modifiers")?;
        }
        Ok(())
    }
}

impl fmt::Display for ObstacleOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ObstacleOutcome::Crossed => f.write_str("crosses the obstacle"),
            ObstacleOutcome::HaltedBefore(0) => f.write_str("balks at the first obstacle"),
            ObstacleOutcome::HaltedBefore(n) => {
                write!(f, "balks at obstacle {} of its path", u16::from(*n) + 1)
            }
        }
    }
}

/// A modifier with its sign, a true minus for negatives.
fn signed(v: i16) -> String {
    if v < 0 {
        format!("−{}", v.unsigned_abs())
    } else {
        format!("+{v}")
    }
}

fn percent(p: f64) -> String {
    format!("{:.0}%", p * 100.0)
}

/// How a report names the generals and brigades it speaks of.
trait Names {
    fn general(&self, id: GeneralId) -> String;
    fn brigade(&self, id: BrigadeId) -> String;
}

/// A report on its own: everyone by id, "general 2".
struct ById;

impl Names for ById {
    fn general(&self, id: GeneralId) -> String {
        id.to_string()
    }
    fn brigade(&self, id: BrigadeId) -> String {
        id.to_string()
    }
}

impl Names for Narrated<'_> {
    fn general(&self, id: GeneralId) -> String {
        Narrated::general(self, id)
    }
    fn brigade(&self, id: BrigadeId) -> String {
        Narrated::brigade(self, id)
    }
}

/// The chance of an order-change toss, in words: "needing 5 or 6 (a 33% chance)".
fn order_change_need() -> String {
    let n = ORDER_CHANGE_MIN;
    let chance = percent(f64::from(7 - n) / 6.0);
    match n {
        6 => format!("needing 6 (a {chance} chance)"),
        5 => format!("needing 5 or 6 (a {chance} chance)"),
        _ => format!("needing {n} or more (a {chance} chance)"),
    }
}

/// An order-change toss from its face to its result, without the full stop: "tossed 2, needing 5 or 6
/// (a 33% chance) — the orders stand".
fn order_change_body(f: &mut fmt::Formatter<'_>, r: &OrderChangeReport) -> fmt::Result {
    write!(
        f,
        "tossed {}, {} — {}",
        r.face,
        order_change_need(),
        if r.changed {
            "the orders change"
        } else {
            "the orders stand"
        }
    )
}

/// An attack from its modifiers to its result: "cover −1; tossed 4 (a hit 33% of the time) — a miss."
fn attack_body(f: &mut fmt::Formatter<'_>, r: &AttackReport) -> fmt::Result {
    write!(f, "{}; ", r.modifiers)?;
    let chance = percent(f64::from(r.hit_sixths) / 6.0);
    match r.face {
        Some(face) => write!(
            f,
            "tossed {face} (a hit {chance} of the time) — {}.",
            if r.hit { "a hit" } else { "a miss" }
        ),
        None => f.write_str("an automatic hit."),
    }
}

/// What a charge came to after its toss: "it crosses the obstacle, contact!"
fn charge_result(f: &mut fmt::Formatter<'_>, r: &ChargeReport) -> fmt::Result {
    if let Some(o) = r.obstacle {
        write!(f, "it {o}, ")?;
    }
    match (r.contact, r.joined_existing) {
        (true, true) => f.write_str("it joins the melee."),
        (true, false) => f.write_str("contact!"),
        (false, _) => f.write_str("the charge falters."),
    }
}

/// What a unit may still do after a failed toss, as a sentence.
fn after_failure(f: &mut fmt::Formatter<'_>, after: Option<AfterFailure>) -> fmt::Result {
    match after {
        None => Ok(()),
        Some(AfterFailure::Stay) => f.write_str(" It stays where it is."),
        Some(AfterFailure::OrderedMove) => f.write_str(" It may still make its ordered move."),
        Some(AfterFailure::OrderedMoveShortOfContact) => {
            f.write_str(" It may still make its ordered move, but not into contact.")
        }
    }
}

/// A move, told of `subject`; `by_orders` is put before the full stop.
fn move_sentence(
    f: &mut fmt::Formatter<'_>,
    r: &MoveReport,
    subject: &str,
    by_orders: &str,
) -> fmt::Result {
    match r.obstacle {
        Some(o @ ObstacleOutcome::HaltedBefore(_)) if r.moved.0 < 0.05 => {
            write!(f, "{subject} {o} and stays where it is{by_orders}.")
        }
        Some(o @ ObstacleOutcome::HaltedBefore(_)) => {
            write!(f, "{subject} {o} and moves {:.1}\"{by_orders}.", r.moved.0)
        }
        _ if r.moved.0 < 0.05 => {
            write!(f, "{subject} cannot move: its way is blocked{by_orders}.")
        }
        Some(o) => write!(f, "{subject} {o} and moves {:.1}\"{by_orders}.", r.moved.0),
        None => write!(f, "{subject} moves {:.1}\"{by_orders}.", r.moved.0),
    }?;
    if r.left_table {
        f.write_str(" It leaves the table.")?;
    }
    Ok(())
}

/// A morale check from its toss to its end: "tossed 3 −1 (steadied); … — it holds."
fn morale_body(f: &mut fmt::Formatter<'_>, r: &MoraleReport, names: &dyn Names) -> fmt::Result {
    write!(f, "tossed {}", r.face)?;
    if r.modifier != 0 {
        write!(f, " {} ", signed(r.modifier))?;
        f.write_str(if r.modifier < 0 {
            "(steadied)"
        } else {
            "(shaken)"
        })?;
    }
    for ((g, applied), result) in r
        .rallies
        .iter()
        .zip(r.outcome.rally.iter().flatten().copied())
    {
        write!(f, "; {} tries to rally it: ", names.general(*g))?;
        match result {
            RallyResult::Subtract(n) => write!(f, "−{n} from the toss")?,
            RallyResult::NoEffect => f.write_str("no effect")?,
            RallyResult::Killed => f.write_str("he is killed")?,
            RallyResult::Captured => f.write_str("he is captured")?,
        }
        if applied.order_check_due.is_some() {
            f.write_str(", and his brigade must check its orders")?;
        }
    }
    for (b, order) in &r.order_checks {
        write!(
            f,
            "; {}, its general lost, checks its orders: now {order}",
            names.brigade(*b)
        )?;
    }
    match (r.outcome.band, r.choice) {
        (MoraleBand::Rallies, _) => f.write_str(" — it holds")?,
        (MoraleBand::Choice, Some(Choice::LoseStand)) => {
            f.write_str(" — 3–4: its owner chooses to lose a stand")?
        }
        (MoraleBand::Choice, Some(Choice::FallBack)) => {
            f.write_str(" — 3–4: its owner chooses to fall back")?
        }
        (MoraleBand::Choice, None) => f.write_str(" — 3–4")?,
        (MoraleBand::Both, _) => f.write_str(" — it loses a stand and falls back")?,
    }
    let e = &r.effect;
    if let Some(o) = r.fall_back_obstacle {
        write!(f, "; falling back, it {o}")?;
    }
    if e.blocked_loss.is_some() {
        f.write_str("; blocked, it loses another stand")?;
    }
    if e.gun_abandoned {
        f.write_str("; the crew leaves its gun")?;
    }
    if e.left_table {
        f.write_str("; it leaves the table")?;
    }
    if e.removed {
        f.write_str("; the unit is removed")?;
    }
    f.write_str(".")
}

impl fmt::Display for MoraleReport {
    /// "The unit checks morale: tossed 4 (…) — 3–4: its owner chooses to lose a stand." Generals and brigades
    /// are named by id; the narration names them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("The unit checks morale: ")?;
        morale_body(f, self, &ById)
    }
}

impl fmt::Display for AttackReport {
    /// "The attack: cover −1; tossed 4 (a hit 33% of the time) — a miss.", and the morale check a hit caused.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("The attack: ")?;
        attack_body(f, self)?;
        if let Some(m) = &self.morale {
            write!(f, " The target checks morale: ")?;
            morale_body(f, m, &ById)?;
        }
        Ok(())
    }
}

impl fmt::Display for ChargeReport {
    /// "The charge: tossed 5, passed — contact!"
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "The charge: tossed {}, {} — ",
            self.face,
            if self.toss_passed { "passed" } else { "failed" }
        )?;
        charge_result(f, self)?;
        after_failure(f, self.after_failure)
    }
}

impl fmt::Display for OrderChangeReport {
    /// "The order change: tossed 5, needing 5 or 6 (a 33% chance) — the orders change; now Hold."
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("The order change: ")?;
        order_change_body(f, self)?;
        write!(f, "; now {}.", self.order)
    }
}

impl fmt::Display for MoveReport {
    /// "The unit moves 5.0"." or "The unit balks at the first obstacle and stays where it is."
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        move_sentence(f, self, "The unit", "")
    }
}

/// A toss's result for an action: "done" or "it fails".
const fn action_result(success: bool) -> &'static str {
    if success { "done" } else { "it fails" }
}

impl fmt::Display for ActionReport {
    /// "Tossed 4 — done." or "Done without a toss."
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.face {
            Some(face) => write!(f, "Tossed {face} — {}.", action_result(self.success))?,
            None if self.success => f.write_str("Done without a toss.")?,
            None => f.write_str("It fails without a toss.")?,
        }
        after_failure(f, self.after_failure)
    }
}

/// "1 unit" or "3 units".
fn count(n: u32, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

impl fmt::Display for SideReport {
    /// "13 units in play with 46 of 50 stands (4 lost); 1 unit out, 1 general lost, 1 gun abandoned, no gun
    /// captured."
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let gone = |n: u32, one: &str, many: &str| {
            if n == 0 {
                format!("no {one}")
            } else {
                count(n, one, many)
            }
        };
        write!(
            f,
            "{} in play with {} of {} stands ({} lost); {} out, {} lost, {} abandoned, {} captured.",
            count(self.units_in_play, "unit", "units"),
            self.stands_in_play,
            self.starting_stands,
            self.stands_lost(),
            gone(self.units_out, "unit", "units"),
            gone(self.generals_lost, "general", "generals"),
            gone(self.guns_abandoned, "gun", "guns"),
            gone(self.guns_lost_to_capture, "gun", "guns"),
        )
    }
}

impl fmt::Display for Clock {
    /// "Turn 2, the Union phase, the artillery step."
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Turn {}, the {} phase, the {} step.",
            self.turn(),
            self.phasing(),
            self.step()
        )
    }
}

impl Narrated<'_> {
    fn unit(&self, id: UnitId) -> String {
        self.state
            .battle()
            .unit(id)
            .map_or_else(|_| format!("unit {}", id.0), |u| u.name().to_string())
    }

    fn general(&self, id: GeneralId) -> String {
        self.state
            .battle()
            .general(id)
            .map_or_else(|_| format!("general {}", id.0), |g| g.name().to_string())
    }

    fn brigade(&self, id: BrigadeId) -> String {
        self.state
            .battle()
            .brigade(id)
            .map_or_else(|_| format!("brigade {}", id.0), |b| b.name().to_string())
    }

    fn target(&self, t: OrderTarget) -> String {
        match t {
            OrderTarget::Brigade(b) => self.brigade(b),
            OrderTarget::Unit(u) => self.unit(u),
        }
    }

    fn morale(&self, f: &mut fmt::Formatter<'_>, unit: UnitId, r: &MoraleReport) -> fmt::Result {
        write!(f, "{} checks morale: ", self.unit(unit))?;
        morale_body(f, r, self)
    }
}

impl fmt::Display for Narrated<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.event {
            Event::PhaseBegan { turn, side } => write!(f, "— Turn {turn}, the {side} phase —"),
            Event::StepBegan { .. } | Event::ReactionsSet { .. } | Event::Stood { .. } => Ok(()),
            Event::OrderSet { target, order } => write!(
                f,
                "The Army Commander, riding with {}, sets its orders to {order}.",
                self.target(*target)
            ),
            Event::OrderToss {
                target,
                wanted,
                report,
            } => {
                write!(
                    f,
                    "{} tries to change its orders to {wanted}: ",
                    self.target(*target)
                )?;
                order_change_body(f, report)?;
                f.write_str(".")
            }
            Event::LeaderlessCheck { unit, order } => write!(
                f,
                "{}, without its Major General, checks its orders: now {order}.",
                self.unit(*unit)
            ),
            Event::GeneralMoved {
                general,
                with,
                distance,
            } => match with {
                Some(u) => write!(
                    f,
                    "{} rides {:.1}\" to join {}.",
                    self.general(*general),
                    distance.0,
                    self.unit(*u)
                ),
                None => write!(f, "{} leaves his unit.", self.general(*general)),
            },
            Event::Moved {
                unit,
                report,
                ordered_by_engine,
                ..
            } => {
                let by_orders = if *ordered_by_engine {
                    ", as its orders require"
                } else {
                    ""
                };
                move_sentence(f, report, &self.unit(*unit), by_orders)
            }
            Event::Tried {
                unit,
                action,
                report,
                chance,
            } => {
                let what = match action {
                    Tried::Formation(to) => format!("to form {to}"),
                    Tried::Dismount => "to dismount".into(),
                    Tried::Remount => "to remount".into(),
                    Tried::SkirmisherFallBack => "to fall back as skirmishers".into(),
                    Tried::WithdrawFromMelee => "to leave the melee".into(),
                };
                match report.face {
                    Some(face) => write!(
                        f,
                        "{} tries {what}: tossed {face} (a {} chance) — {}.",
                        self.unit(*unit),
                        percent(*chance),
                        action_result(report.success)
                    ),
                    None => write!(f, "{} {what}s without a toss.", self.unit(*unit)),
                }
            }
            Event::Charged {
                unit,
                target,
                report,
                chance,
            } => {
                write!(
                    f,
                    "{} charges {}: tossed {} (a {} chance) — ",
                    self.unit(*unit),
                    self.unit(*target),
                    report.face,
                    percent(*chance)
                )?;
                charge_result(f, report)
            }
            Event::CouldNotMove { unit, reason } => write!(
                f,
                "{} cannot make its ordered move: {reason}.",
                self.unit(*unit)
            ),
            Event::GunPivoted { unit, facing } => write!(
                f,
                "{} turns its gun to bear at {:.0}°.",
                self.unit(*unit),
                facing.as_degrees()
            ),
            Event::GunRemanned { unit } => {
                write!(f, "The crew of {} returns to its gun.", self.unit(*unit))
            }
            Event::GunCaptured { battery, by } => write!(
                f,
                "{} captures the gun of {}.",
                self.unit(*by),
                self.unit(*battery)
            ),
            Event::Attack {
                category,
                target,
                attackers,
                cover,
                report,
            } => {
                let who: Vec<String> = attackers.iter().map(|&a| self.unit(a)).collect();
                let verb = match category {
                    Category::Artillery => "bombards",
                    Category::Musketry => "fires at",
                    Category::Melee => "attacks in melee",
                };
                let verb = if who.len() > 1 {
                    match category {
                        Category::Artillery => "bombard",
                        Category::Musketry => "fire at",
                        Category::Melee => "attack in melee",
                    }
                } else {
                    verb
                };
                write!(f, "{} {verb} {}", who.join(" and "), self.unit(*target))?;
                if *cover {
                    f.write_str(" (behind cover)")?;
                }
                f.write_str(": ")?;
                attack_body(f, report)
            }
            Event::Morale { unit, report } => self.morale(f, *unit, report),
            Event::FellBack { unit, from, to } => {
                let d = from.distance(*to).0;
                if d < 0.05 {
                    write!(f, "{} has no room to fall back.", self.unit(*unit))
                } else {
                    write!(f, "{} falls back {d:.1}\".", self.unit(*unit))
                }
            }
            Event::GunAbandoned { unit, .. } => {
                write!(f, "{} abandons its gun.", self.unit(*unit))
            }
            Event::GameEnded { end, turn } => write!(
                f,
                "The game ends on turn {turn}: {}, as {}.",
                end.result, end.reason
            ),
        }
    }
}
