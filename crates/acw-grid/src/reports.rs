//! What a person reads of the reports the battle returns: the `Display` of [`CommandReport`],
//! [`MoveReport`], [`HitReport`], [`CombatReport`], [`CombatPhaseReport`] and [`VictoryReport`]. A report
//! names units, commanders and divisions by id ("unit 3"); the game's narration ([`crate::game::Event`])
//! tells the same sentences with the units' names.

use crate::casualties::HitReport;
use crate::combat::{CombatPhaseReport, CombatReport};
use crate::command::{CommandReport, CommandRollRecord};
use crate::movement::MoveReport;
use crate::state::Losses;
use crate::tables::{self, CommanderResult};
use crate::victory::VictoryReport;
use acw_core::Side;
use std::fmt;

/// "1 hit" or "3 hits".
pub(crate) fn hits(n: u32) -> String {
    format!("{n} hit{}", if n == 1 { "" } else { "s" })
}

/// "1 stand" or "3 stands".
fn stands(n: u32) -> String {
    format!("{n} stand{}", if n == 1 { "" } else { "s" })
}

/// What hits did to a unit, after its hits: " and is destroyed", " and loses 2 stands", or nothing.
pub(crate) fn losses(
    f: &mut fmt::Formatter<'_>,
    stands_removed: u32,
    destroyed: bool,
) -> fmt::Result {
    if destroyed {
        f.write_str(" and is destroyed")
    } else if stands_removed > 0 {
        write!(f, " and loses {}", stands(stands_removed))
    } else {
        Ok(())
    }
}

/// The combat's morale test: "The Union side took more hits and tests morale." or "Neither side took more
/// hits; no morale test."
pub(crate) fn morale_test(f: &mut fmt::Formatter<'_>, tester: Option<Side>) -> fmt::Result {
    match tester {
        Some(s) => write!(f, "The {s} side took more hits and tests morale."),
        None => f.write_str("Neither side took more hits; no morale test."),
    }
}

/// Skirmish fire, told of its firer and target: "unit 2 fires skirmish fire at unit 5: 1 hit after cover."
pub(crate) fn skirmish(
    f: &mut fmt::Formatter<'_>,
    firer: &dyn fmt::Display,
    target: &dyn fmt::Display,
    hit_count: u32,
) -> fmt::Result {
    write!(
        f,
        "{firer} fires skirmish fire at {target}: {} after cover.",
        hits(hit_count)
    )
}

/// `text` with its first letter a capital.
fn capital(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

impl fmt::Display for HitReport {
    /// "The unit takes 3 hits and loses 1 stand; 1 hit is left over."
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "The unit takes {}", hits(self.hits))?;
        losses(f, self.stands_removed, self.destroyed)?;
        if !self.destroyed && self.leftover > 0 {
            write!(f, "; {} is left over", hits(u32::from(self.leftover)))?;
        }
        f.write_str(".")
    }
}

impl fmt::Display for CommandRollRecord {
    /// "division 1 rolls 1, needing 2 or more — it fails" or "unit 4 of division 1 rolls 3, needing 3 or
    /// more — it passes".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let need = if self.division_check {
            tables::DIVISION_COMMAND_SCORE
        } else {
            tables::UNIT_COMMAND_SCORE
        };
        match self.unit {
            Some(u) => write!(f, "{u} of {}", self.division)?,
            None => write!(f, "{}", self.division)?,
        }
        write!(
            f,
            " rolls {}, needing {need} or more — {}",
            self.face,
            if self.passed { "it passes" } else { "it fails" }
        )
    }
}

impl fmt::Display for CommandReport {
    /// "Command dice: unit 3 of division 1 rolls 2, needing 3 or more — it fails. The stands of division 1
    /// in unit 3 may not move this turn."
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.rolls.is_empty() {
            f.write_str("Every unit is in command: no command dice.")?;
        } else {
            f.write_str("Command dice: ")?;
            for (i, r) in self.rolls.iter().enumerate() {
                if i > 0 {
                    f.write_str("; ")?;
                }
                write!(f, "{r}")?;
            }
            f.write_str(".")?;
        }
        if self.halted.is_empty() {
            return Ok(());
        }
        f.write_str(" The stands of ")?;
        for (i, (u, d)) in self.halted.iter().enumerate() {
            if i > 0 {
                f.write_str(", and of ")?;
            }
            write!(f, "{d} in {u}")?;
        }
        f.write_str(" may not move this turn.")
    }
}

/// A cost in half-areas: "½ area", "1 area", "1½ areas".
fn areas(halves: u32) -> String {
    let (whole, half) = (halves / 2, halves % 2 == 1);
    match (whole, half) {
        (0, true) => "½ area".to_string(),
        (1, false) => "1 area".to_string(),
        (n, false) => format!("{n} areas"),
        (n, true) => format!("{n}½ areas"),
    }
}

impl fmt::Display for MoveReport {
    /// "Unit 3 moves, spending 1½ areas of its allowance, and attacks."
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}",
            capital(&format!(
                "{} moves, spending {} of its allowance",
                self.unit,
                areas(self.cost_halves)
            ))
        )?;
        if let Some(j) = self.joined {
            write!(f, ", joining {j}")?;
        }
        if self.attack {
            f.write_str(", and attacks")?;
        }
        f.write_str(".")?;
        if !self.revealed.is_empty() {
            let v: Vec<String> = self.revealed.iter().map(ToString::to_string).collect();
            write!(f, " It reveals {}.", v.join(" and "))?;
        }
        if !self.counted_as_move {
            f.write_str(" It does not count as a move.")?;
        }
        Ok(())
    }
}

impl fmt::Display for CombatReport {
    /// "Combat around unit 1 (Union), against unit 2: the Union side takes 0 hits, the Confederate side 2
    /// hits. Unit 2 takes 2 hits and is destroyed. Neither side took more hits; no morale test."
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let other = self.centre_side.enemy();
        let against: Vec<String> = self
            .combat
            .opponents
            .iter()
            .map(ToString::to_string)
            .collect();
        write!(
            f,
            "Combat around {} ({}), against {}: the {} side takes {}, the {other} side {}.",
            self.combat.centre,
            self.centre_side,
            against.join(" and "),
            self.centre_side,
            hits(self.raw.0),
            hits(self.raw.1),
        )?;
        for (c, u, r) in &self.commanders {
            let what = match r {
                CommanderResult::Removed => "is removed",
                CommanderResult::NoEffect => "has no effect",
                CommanderResult::CancelHit => "cancels a hit",
            };
            write!(f, " {} with {u} {what}.", capital(&c.to_string()))?;
        }
        for (u, r) in &self.recorded {
            write!(f, " {} takes {}", capital(&u.to_string()), hits(r.hits))?;
            losses(f, r.stands_removed, r.destroyed)?;
            f.write_str(".")?;
        }
        f.write_str(" ")?;
        morale_test(f, self.tester)?;
        if !self.testers.is_empty() {
            let v: Vec<String> = self.testers.iter().map(ToString::to_string).collect();
            write!(f, " Testing: {}.", v.join(", "))?;
        }
        Ok(())
    }
}

impl fmt::Display for CombatPhaseReport {
    /// Each skirmish fire, then each combat, in order; "No skirmish fire and no combat." when empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.skirmish.is_empty() && self.combats.is_empty() {
            return f.write_str("No skirmish fire and no combat.");
        }
        let mut first = true;
        for (o, h) in &self.skirmish {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            skirmish(f, &capital(&o.firer.to_string()), &o.target, h.hits)?;
        }
        for c in &self.combats {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

/// A side's losses: "6 stands lost; 1 unit destroyed, 0 routed, 0 surrendered, 0 removed; 0 commanders lost".
fn losses_text(l: &Losses) -> String {
    format!(
        "{} lost; {} destroyed, {} routed, {} surrendered, {} removed; {} lost",
        stands(l.stands_lost),
        count(l.units_destroyed, "unit", "units"),
        l.units_routed,
        l.units_surrendered,
        l.units_removed,
        count(l.commanders_lost, "commander", "commanders"),
    )
}

/// "1 unit" or "3 units".
fn count(n: u32, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

impl fmt::Display for VictoryReport {
    /// "Turn 3: the Union side has 12 stands on the table (2 stands lost; …); the Confederate side …; the
    /// Union side holds 4 areas, the Confederate side 4."
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Turn {}", self.turn)?;
        if self.over {
            f.write_str(", the game's length has run out")?;
        }
        f.write_str(":")?;
        for (i, side) in [Side::Union, Side::Confederate].into_iter().enumerate() {
            if i > 0 {
                f.write_str(";")?;
            }
            write!(
                f,
                " the {side} side has {} on the table ({})",
                stands(self.stands[side]),
                losses_text(&self.losses[side])
            )?;
        }
        let held = |s: Side| self.held.iter().filter(|(_, h)| *h == s).count();
        let (u, c) = (held(Side::Union), held(Side::Confederate));
        write!(
            f,
            "; the Union side holds {}, the Confederate side {c}.",
            count(u32::try_from(u).unwrap_or(u32::MAX), "area", "areas")
        )
    }
}
