//! A card's activation held open across several decisions of the same side: pooled fire gathered unit by unit
//! before one roll (TSATF-FIR-11, TSATF-ART-02), the single shots of a unit's officers and snipers after its own
//! fire (TSATF-FIR-13, TSATF-FIR-19 to TSATF-FIR-21), and a cavalry unit's movement dice spent one at a time
//! (TSATF-MOV-17).

use super::{Event, GameError, State, StateChange};
use crate::error::RuleViolation;
use crate::field::{MOVE_GAP, SPACING};
use crate::fire::{self, Personal, PersonalShot};
use crate::movement::SplitMove;
use crate::options::{BatteryFire, Remainder, SplitFire};
use crate::state::{MoraleState, Phase, Role, UnitId, UnitKind};
use crate::tables::FireRow;
use acw_core::{Dice, Resolve};
use std::fmt;

/// A card's activation that is not finished: the side that took the card owes the next decision, and the
/// orders that continue it or [`super::Order::Finish`] close it.
#[must_use]
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Activation {
    /// Units of one side gathering their fire at one target, to be rolled as one (TSATF-FIR-11 under
    /// `remainder = Pool`, TSATF-ART-02 under `battery_fire = Pooled`). The first unit took the card; the others
    /// give up theirs when the fire goes.
    Pool {
        /// The unit that took the card.
        unit: UnitId,
        /// The target.
        target: UnitId,
        /// The units that joined, in order.
        with: Vec<UnitId>,
    },
    /// The unit has fired on its card; its officers and snipers may still fire their single shots, officers
    /// first (TSATF-FIR-13, TSATF-FIR-21).
    Shots {
        /// The unit.
        unit: UnitId,
    },
    /// A cavalry unit spending its movement dice one at a time (TSATF-MOV-17).
    Split {
        /// The unit.
        unit: UnitId,
        /// The faces not yet spent, highest first.
        dice: Vec<u16>,
    },
}

impl Activation {
    /// The unit whose card is open.
    #[must_use]
    pub fn unit(&self) -> UnitId {
        match self {
            Activation::Pool { unit, .. }
            | Activation::Shots { unit }
            | Activation::Split { unit, .. } => *unit,
        }
    }
}

/// Faces as a person reads them: "6, 4 and 2".
pub(super) fn faces_text(faces: &[u16]) -> String {
    match faces {
        [] => "none".into(),
        [one] => one.to_string(),
        [rest @ .., last] => {
            let rest: Vec<String> = rest.iter().map(ToString::to_string).collect();
            format!("{} and {last}", rest.join(", "))
        }
    }
}

/// What a figure firing alone fires with, if it may fire alone (TSATF-FIR-19, TSATF-FIR-20).
pub(crate) fn personal_weapon(role: Role, nco_pistols: bool) -> Option<Personal> {
    match role {
        Role::Officer(_) => Some(Personal::Pistol),
        Role::Nco | Role::SergeantMajor if nco_pistols => Some(Personal::Pistol),
        Role::Sniper => Some(Personal::SniperRifle),
        _ => None,
    }
}

impl fmt::Display for Activation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Activation::Pool { with, .. } => write!(
                f,
                "a pooled fire with {} other unit{} joined",
                with.len(),
                if with.len() == 1 { "" } else { "s" }
            ),
            Activation::Shots { .. } => write!(f, "the single shots of its officers and snipers"),
            Activation::Split { dice, .. } => {
                write!(f, "a split move with dice {} left", faces_text(dice))
            }
        }
    }
}

impl State {
    /// The card's activation held open, if one is: the side that took the card is asked
    /// [`super::Question::Continue`] until it finishes.
    pub fn open(&self) -> Option<&Activation> {
        self.open.as_ref()
    }

    /// What the open activation waits for, in a sentence.
    pub(super) fn open_text(&self, a: &Activation) -> String {
        match a {
            Activation::Pool { target, with, .. } => format!(
                "it gathers fire at {} ({} unit{} of the same weapon so far): another may join, or the fire goes",
                self.name(*target),
                with.len() + 1,
                if with.is_empty() { "" } else { "s" }
            ),
            Activation::Shots { .. } => {
                "its officers and snipers may each fire one shot at an enemy figure in reach, or stop".into()
            }
            Activation::Split { dice, .. } => format!(
                "it has movement dice {} left to spend one at a time: ride, fire, mount or dismount, or stop",
                faces_text(dice)
            ),
        }
    }

    /// Whether the options let this unit pool its fire with others (TSATF-FIR-11, TSATF-ART-02).
    pub(crate) fn may_pool(&self, unit: UnitId) -> bool {
        let o = self.battle.options();
        self.battle.unit(unit).is_ok_and(|u| {
            o.remainder == Remainder::Pool
                || (u.kind().is_gun() && o.battery_fire == BatteryFire::Pooled)
        })
    }

    /// The figures of `unit` that may still fire alone now, with their weapons, officers before snipers
    /// (TSATF-FIR-13, TSATF-FIR-19 to TSATF-FIR-21).
    pub(crate) fn shooters(&self, unit: UnitId) -> Vec<(usize, Personal)> {
        let Ok(u) = self.battle.unit(unit) else {
            return Vec::new();
        };
        if self.battle.phase() != Phase::Firing
            || u.morale() != MoraleState::Steady
            || u.charged
            || !u.acted()
        {
            return Vec::new();
        }
        let nco = self.battle.options().nco_pistols;
        let sniper_fired = u
            .figures()
            .iter()
            .any(|f| f.role == Role::Sniper && f.fired);
        let mut v: Vec<(usize, Personal)> = u
            .figures()
            .iter()
            .enumerate()
            .filter(|(_, f)| f.can_fight() && !f.fired)
            .filter_map(|(k, f)| Some((k, personal_weapon(f.role, nco)?)))
            .filter(|&(_, w)| !(sniper_fired && w == Personal::Pistol))
            .collect();
        v.sort_by_key(|&(_, w)| w == Personal::SniperRifle);
        v
    }

    /// Enemy units a single shot of `weapon` from `unit` may reach: in play, not hidden, in range, in the
    /// cone and in sight.
    pub(crate) fn shot_targets(&self, unit: UnitId, weapon: Personal) -> Vec<UnitId> {
        let Ok(u) = self.battle.unit(unit) else {
            return Vec::new();
        };
        let side = u.side();
        let options = self.battle.options();
        self.battle
            .units()
            .iter()
            .filter(|e| e.side() != side && !e.hidden() && !e.off_table() && e.strength() > 0)
            .map(|e| e.id())
            .filter(|&e| {
                self.field.range(unit, e) <= weapon.range()
                    && self.field.in_cone(unit, e, false, options)
                    && self.field.line_of_sight(unit, e)
            })
            .collect()
    }

    /// After a unit's own fire on its card: holds the card open for its single shots while any is possible.
    pub(super) fn open_shots(&mut self, unit: UnitId) {
        let any = self
            .shooters(unit)
            .iter()
            .any(|&(_, w)| !self.shot_targets(unit, w).is_empty());
        self.open = any.then_some(Activation::Shots { unit });
    }

    /// The row a unit fires on at this range (guns by range; the rest by weapon).
    fn row_at(&self, unit: UnitId, range: f64, canister: bool) -> Result<FireRow, GameError> {
        let u = self.unit_checked(unit)?;
        let o = self.battle.options();
        Ok(match u.kind() {
            UnitKind::Artillery | UnitKind::HeavyGun { .. } | UnitKind::Gunboat { .. } => {
                fire::gun_row(
                    range,
                    canister,
                    matches!(u.kind(), UnitKind::HeavyGun { mortar: true }),
                    o,
                )?
            }
            _ => u.fire_row().ok_or(RuleViolation::MayNotFire {
                unit: u.name().to_string(),
                reason: "it has no weapon",
            })?,
        })
    }

    /// Whether the rules would let `unit` fire at `target` with `with` pooled, on a copy stopped at the first
    /// die.
    fn dry_fire(&self, unit: UnitId, target: UnitId, with: &[UnitId]) -> Result<(), GameError> {
        let mut copy = self.clone();
        let mut dry = acw_core::dice::ScriptedDice::new([]);
        match copy.fire_with(unit, target, with.to_vec(), &mut dry, &mut Vec::new()) {
            Err(_) if dry.fault().is_some() => Ok(()),
            other => other,
        }
    }

    /// Starts a pooled fire on a firing card (TSATF-FIR-11, TSATF-ART-02).
    pub(super) fn start_pool(
        &mut self,
        unit: UnitId,
        target: UnitId,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let name = self.name(unit);
        if !self.may_pool(unit) {
            return Err(RuleViolation::Cannot {
                unit: name,
                action: "pool its fire with other units under these options",
            }
            .into());
        }
        self.dry_fire(unit, target, &[])?;
        self.open = Some(Activation::Pool {
            unit,
            target,
            with: Vec::new(),
        });
        log.push(Event::Pooled {
            unit: name,
            lead: None,
            target: self.name(target),
        });
        Ok(())
    }

    /// Adds a unit to the pooled fire being gathered: same target, same weapon row and target class, in its
    /// own cone, sight and range (TSATF-FIR-11).
    pub(super) fn join_pool(
        &mut self,
        unit: UnitId,
        target: UnitId,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let Some(Activation::Pool {
            unit: lead,
            target: aim,
            with,
        }) = self.open.clone()
        else {
            return Err(GameError::NotAsked(
                "no pooled fire is being gathered".into(),
            ));
        };
        let cannot = |s: &State, reason: &'static str| GameError::CannotJoin {
            unit: s.name(unit),
            lead: s.name(lead),
            reason,
        };
        if target != aim {
            return Err(cannot(self, "it must fire at the same target"));
        }
        if unit == lead || with.contains(&unit) {
            return Err(cannot(self, "it is already in the pool"));
        }
        let (lead_range, lead_area, lead_canister) = self.fire_terms(lead, target)?;
        let (range, area, canister) = self.fire_terms(unit, target)?;
        let o = self.battle.options();
        if fire::target_class(area, o) != fire::target_class(lead_area, o) {
            return Err(cannot(self, "it sees the target in another target class"));
        }
        let row = self.row_at(unit, range, canister)?;
        if row != self.row_at(lead, lead_range, lead_canister)? {
            return Err(cannot(self, "it fires on another row of the chart"));
        }
        if !fire::in_range(row, range)? {
            return Err(RuleViolation::OutOfRange { row, range }.into());
        }
        let mut all = with.clone();
        all.push(unit);
        self.dry_fire(lead, target, &all)?;
        self.open = Some(Activation::Pool {
            unit: lead,
            target,
            with: all,
        });
        log.push(Event::Pooled {
            unit: self.name(unit),
            lead: Some(self.name(lead)),
            target: self.name(target),
        });
        Ok(())
    }

    /// A single shot of an officer or sniper of the unit whose card is open (TSATF-FIR-13, TSATF-FIR-19 to
    /// TSATF-FIR-21): at a figure of an enemy unit in the weapon's range, in the cone and in sight.
    pub(super) fn shoot(
        &mut self,
        (unit, figure): (UnitId, u16),
        (target, aim): (UnitId, u16),
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        if self.open != Some(Activation::Shots { unit }) {
            return Err(GameError::NotAsked(format!(
                "{} has no single shots to take now",
                self.name(unit)
            )));
        }
        let u = self.unit_checked(unit)?;
        let side = u.side();
        self.enemy_of(side, target)?;
        let (name, tname) = (self.name(unit), self.name(target));
        if !self
            .field
            .in_cone(unit, target, false, self.battle.options())
        {
            return Err(GameError::OutOfCone {
                unit: name,
                target: tname,
            });
        }
        if !self.field.line_of_sight(unit, target) {
            return Err(GameError::NoSight {
                unit: name,
                target: tname,
            });
        }
        let range = self.field.range(unit, target);
        let shooter = u
            .figures()
            .get(usize::from(figure))
            .map(|f| f.role.to_string())
            .unwrap_or_default();
        let aimed = self
            .unit_checked(target)?
            .figures()
            .get(usize::from(aim))
            .map(|f| f.role.to_string())
            .unwrap_or_default();
        dice.about(format_args!(
            "the single shot of the {shooter} of {name} at {tname}"
        ));
        let report = self.battle.personal_fire(
            unit,
            usize::from(figure),
            target,
            usize::from(aim),
            range,
            dice,
        )?;
        let chance = PersonalShot(report.weapon).odds().p(&report.effect);
        if let Ok(t) = self.battle.unit(target) {
            let t = t.clone();
            self.field.refit(&t);
        }
        log.push(Event::Shot {
            unit: name,
            shooter,
            target: tname,
            aimed,
            range,
            report,
            chance,
        });
        self.open_shots(unit);
        Ok(())
    }

    /// Rolls a cavalry unit's movement dice to spend one at a time (TSATF-MOV-17).
    pub(super) fn split(
        &mut self,
        unit: UnitId,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let name = self.name(unit);
        dice.about(format_args!("the split move of {name}"));
        let m = self.battle.split_move(unit, dice)?;
        let faces = m.faces().to_vec();
        log.push(Event::SplitRolled {
            unit: name,
            faces: faces.clone(),
        });
        self.open = (!faces.is_empty()).then_some(Activation::Split { unit, dice: faces });
        Ok(())
    }

    fn split_dice(&self, unit: UnitId) -> Result<SplitMove, GameError> {
        match &self.open {
            Some(Activation::Split { unit: u, dice }) if *u == unit => SplitMove::from_faces(dice)
                .ok_or_else(|| GameError::NotAsked("no split move".into())),
            _ => Err(GameError::NotAsked(format!(
                "{} has no split move open",
                self.name(unit)
            ))),
        }
    }

    fn keep_split(&mut self, unit: UnitId, m: &SplitMove) {
        self.open = (!m.faces().is_empty()).then(|| Activation::Split {
            unit,
            dice: m.faces().to_vec(),
        });
    }

    /// One part of a split move: the die at `die` (0 = the highest left) is spent riding straight at an enemy
    /// unit, stopping short of it; a part whose path crosses rough ground or an obstacle also drops the highest
    /// die left (TSATF-MOV-17, TSATF-MOV-06).
    pub(super) fn ride(
        &mut self,
        unit: UnitId,
        toward: UnitId,
        die: u8,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let mut m = self.split_dice(unit)?;
        let side = self.unit_checked(unit)?.side();
        self.enemy_of(side, toward)?;
        let inches = m.spend_move(usize::from(die)).ok_or(GameError::NoDie {
            unit: self.name(unit),
            index: die,
        })?;
        let (Some(place), Some(aim)) = (
            self.field.place(unit).copied(),
            self.field.place(toward).copied(),
        ) else {
            return Err(GameError::NoSuchUnit(toward.0));
        };
        let rough = self.field.rough_features(place.centre, aim.centre);
        let dropped = if rough > 0 {
            Some(m.spend_mount_change().ok_or(RuleViolation::Cannot {
                unit: self.name(unit),
                action: "cross rough ground or an obstacle with no other die left to drop",
            })?)
        } else {
            None
        };
        let room = self.field.range(unit, toward) - MOVE_GAP;
        let heading = place.centre.heading_to(aim.centre);
        let moved = if room > 0.0 {
            self.field
                .shift(unit, heading, f64::from(inches).min(room), SPACING, heading)
        } else {
            0.0
        };
        self.keep_split(unit, &m);
        log.push(Event::Rode {
            unit: self.name(unit),
            toward: self.name(toward),
            die: inches,
            dropped,
            moved,
        });
        Ok(())
    }

    /// Within a split move: mounts or dismounts, spending the highest die left (TSATF-MOV-17, TSATF-MOV-08).
    pub(super) fn split_mount(
        &mut self,
        unit: UnitId,
        mount: bool,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let mut m = self.split_dice(unit)?;
        let u = self.unit_checked(unit)?;
        let name = u.name().to_string();
        if !self
            .field
            .fits(unit, crate::field::frontage_in(u.formation(), u.strength()))
        {
            return Err(GameError::NoRoom(name));
        }
        let die = m.faces().first().copied().unwrap_or(0);
        self.battle.split_mount(unit, mount, &mut m)?;
        if let Ok(u) = self.battle.unit(unit) {
            let u = u.clone();
            self.field.refit(&u);
        }
        self.keep_split(unit, &m);
        log.push(Event::SplitStep {
            unit: name,
            die,
            change: Some(if mount {
                StateChange::Mounted
            } else {
                StateChange::Dismounted
            }),
        });
        Ok(())
    }

    /// Within a split move: the unit fires, spending the lowest die left, resolved at once (TSATF-MOV-17 with
    /// its fire during movement); it does not fire again on the firing card.
    pub(super) fn split_fire(
        &mut self,
        unit: UnitId,
        target: UnitId,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let mut m = self.split_dice(unit)?;
        let name = self.name(unit);
        if self.battle.options().split_cavalry_dice != Some(SplitFire::DuringMovement) {
            return Err(RuleViolation::Cannot {
                unit: name,
                action: "fire inside its move: under these options its fire waits for its firing card",
            }
            .into());
        }
        let die = m.spend_fire().ok_or(GameError::NoDie {
            unit: name.clone(),
            index: 0,
        })?;
        self.keep_split(unit, &m);
        let keep = self.open.clone();
        log.push(Event::SplitStep {
            unit: name,
            die,
            change: None,
        });
        self.fire_with(unit, target, Vec::new(), dice, log)?;
        self.open = keep;
        Ok(())
    }

    /// Closes the open activation of `unit`: a gathered pool fires, single shots not taken are given up, dice
    /// not spent are lost.
    pub(super) fn finish(
        &mut self,
        unit: UnitId,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        match self.open.clone() {
            Some(Activation::Pool {
                unit: lead,
                target,
                with,
            }) if lead == unit => {
                self.open = None;
                self.fire_with(lead, target, with, dice, log)
            }
            Some(Activation::Shots { unit: u }) if u == unit => {
                self.open = None;
                log.push(Event::Finished {
                    unit: self.name(unit),
                    left: Vec::new(),
                });
                Ok(())
            }
            Some(Activation::Split {
                unit: u,
                dice: left,
            }) if u == unit => {
                self.open = None;
                log.push(Event::Finished {
                    unit: self.name(unit),
                    left,
                });
                Ok(())
            }
            _ => Err(GameError::NotAsked(format!(
                "{} has no open activation to finish",
                self.name(unit)
            ))),
        }
    }

    /// Checks a saved open activation against the battle.
    pub(super) fn open_consistent(&self) -> bool {
        let Some(a) = &self.open else {
            return true;
        };
        let b = &self.battle;
        let Ok(u) = b.unit(a.unit()) else {
            return false;
        };
        if self.over.is_some() || u.off_table() || u.strength() == 0 {
            return false;
        }
        match a {
            Activation::Pool { target, with, .. } => {
                let mut seen = vec![a.unit()];
                b.phase() == Phase::Firing
                    && b.card() == Some(u.side())
                    && !u.acted()
                    && b.unit(*target).is_ok_and(|t| t.side() != u.side())
                    && with.iter().all(|w| {
                        let ok = !seen.contains(w)
                            && b.unit(*w).is_ok_and(|p| p.side() == u.side() && !p.acted());
                        seen.push(*w);
                        ok
                    })
            }
            Activation::Shots { unit } => {
                b.phase() == Phase::Firing && !self.shooters(*unit).is_empty()
            }
            Activation::Split { unit, dice } => {
                b.phase() == Phase::Movement
                    && b.split_unit() == Some(*unit)
                    && !dice.is_empty()
                    && SplitMove::from_faces(dice).is_some()
            }
        }
    }
}
