//! What a player reads: every [`Event`] of a game told in sentences, with unit and general names, the face
//! thrown, the modifiers that applied and the chance the result had ([`Narrated`], from [`State::narrate`]).

use crate::combat::{Category, ModifierBreakdown};
use crate::command::OrderTarget;
use crate::game::{Event, State, Tried};
use crate::morale::{Choice, MoraleReport};
use crate::movement::ObstacleOutcome;
use crate::state::{BrigadeId, GeneralId, UnitId};
use crate::tables::{MoraleBand, RallyResult};
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
        write!(f, "{} checks morale: tossed {}", self.unit(unit), r.face)?;
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
            write!(f, "; {} tries to rally it: ", self.general(*g))?;
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
                self.brigade(*b)
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
            } => write!(
                f,
                "{} tries to change its orders to {wanted}: tossed {}, needing 5 or 6 (a 33% chance) — {}.",
                self.target(*target),
                report.face,
                if report.changed {
                    "the orders change"
                } else {
                    "the orders stand"
                }
            ),
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
                let name = self.unit(*unit);
                let by_orders = if *ordered_by_engine {
                    ", as its orders require"
                } else {
                    ""
                };
                match report.obstacle {
                    Some(o @ ObstacleOutcome::HaltedBefore(_)) if report.moved.0 < 0.05 => {
                        write!(f, "{name} {o} and stays where it is{by_orders}.")
                    }
                    Some(o @ ObstacleOutcome::HaltedBefore(_)) => {
                        write!(
                            f,
                            "{name} {o} and moves {:.1}\"{by_orders}.",
                            report.moved.0
                        )
                    }
                    _ if report.moved.0 < 0.05 => {
                        write!(f, "{name} cannot move: its way is blocked{by_orders}.")
                    }
                    Some(o) => write!(
                        f,
                        "{name} {o} and moves {:.1}\"{by_orders}.",
                        report.moved.0
                    ),
                    None => write!(f, "{name} moves {:.1}\"{by_orders}.", report.moved.0),
                }?;
                if report.left_table {
                    f.write_str(" It leaves the table.")?;
                }
                Ok(())
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
                        if report.success { "done" } else { "it fails" }
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
                if let Some(o) = report.obstacle {
                    write!(f, "it {o}, ")?;
                }
                match (report.contact, report.joined_existing) {
                    (true, true) => f.write_str("it joins the melee."),
                    (true, false) => f.write_str("contact!"),
                    (false, _) => f.write_str("the charge falters."),
                }
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
                write!(f, ": {}; ", report.modifiers)?;
                let chance = percent(f64::from(report.hit_sixths) / 6.0);
                match report.face {
                    Some(face) => write!(
                        f,
                        "tossed {face} (a hit {chance} of the time) — {}.",
                        if report.hit { "a hit" } else { "a miss" }
                    ),
                    None => f.write_str("an automatic hit."),
                }
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
