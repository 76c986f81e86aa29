//! Command and commanders: the detached-unit and division checks, commander movement, the commander's die in
//! combat, and what becomes of commanders whose units are lost.

use crate::board::Area;
use crate::error::RuleViolation;
use crate::options::{CommanderFate, DivisionRoll, NoCorpsCommander};
use crate::state::{Battle, CommanderId, DivisionId, Leader, Rank, Unit, UnitId};
use crate::tables::{self, CommanderResult, Mover};
use acw_core::dice::{Dice, Die};
use acw_core::{Dist, Resolve, Side};
use std::sync::Arc;

/// GRID-CMD-01, GRID-CMD-02, GRID-CMD-03: the command rolls one unit needs this turn; it moves only if every
/// roll it needs passes. The division roll (1d6 ≥ 2) comes first; the unit's own roll (1d6 ≥ 3) is made only
/// if the division roll passed. Both needed: P = 5/6 × 4/6 = 5/9.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CommandCheck {
    /// GRID-CMD-01: the unit is not within 3 areas and in sight of its Division Commander.
    pub unit_roll: bool,
    /// GRID-CMD-02: its Division Commander is not within 5 areas of his Corps Commander.
    pub division_roll: bool,
}

impl Resolve for CommandCheck {
    type Outcome = bool;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> bool {
        if self.division_roll && Die::D6.roll(dice) < tables::DIVISION_COMMAND_SCORE {
            return false;
        }
        !self.unit_roll || Die::D6.roll(dice) >= tables::UNIT_COMMAND_SCORE
    }

    fn odds(&self) -> Dist<bool> {
        let pass = |needed: bool, score: u16| {
            if needed {
                Dist::die(Die::D6).map(move |&f| f >= u32::from(score))
            } else {
                Dist::certain(true)
            }
        };
        pass(self.division_roll, tables::DIVISION_COMMAND_SCORE)
            .zip_with(&pass(self.unit_roll, tables::UNIT_COMMAND_SCORE), |a, b| {
                *a && *b
            })
    }
}

/// GRID-CMD-06: the die of a commander with a unit in combat: 5–6 cancels a hit on the unit, 1 removes him,
/// 2–4 nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CommanderRoll;

impl Resolve for CommanderRoll {
    type Outcome = CommanderResult;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> CommanderResult {
        tables::commander_result(Die::D6.roll(dice))
    }

    fn odds(&self) -> Dist<CommanderResult> {
        Dist::die(Die::D6).map(|&f| tables::commander_result(f as u16))
    }
}

/// One command roll made in a movement phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CommandRollRecord {
    /// The division rolling (or whose stands roll).
    pub division: DivisionId,
    /// The unit rolling; `None` for a once-per-division roll.
    pub unit: Option<UnitId>,
    /// True for the division check (≥ 2), false for the unit check (≥ 3).
    pub division_check: bool,
    /// The face rolled.
    pub face: u16,
    /// Whether it passed.
    pub passed: bool,
}

/// The command rolls of one side's movement step, and which stands may not move.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CommandReport {
    /// Every roll, in the order made.
    pub rolls: Vec<CommandRollRecord>,
    /// (unit, division) groups of stands that may not move this turn.
    pub halted: Vec<(UnitId, DivisionId)>,
}

impl Battle {
    /// The present Division Commander of `division` on `side`.
    #[must_use]
    pub fn division_commander(&self, side: Side, division: DivisionId) -> Option<CommanderId> {
        self.division_leader(side, division).map(Leader::id)
    }

    /// The Division Commander of [`Battle::division_commander`] himself, found once (not found and then looked
    /// up again by his id).
    fn division_leader(&self, side: Side, division: DivisionId) -> Option<&Leader> {
        self.commanders()
            .find(|c| c.side() == side && c.rank() == Rank::Division(division) && c.present())
    }

    /// GRID-CMD-01, GRID-CMD-07: whether the stands of `division` in unit `id` must roll 3+ to move: their
    /// Division Commander is gone, more than 3 areas away, or out of sight (terrain and elevation only; troops
    /// do not block command sight, GRID-GEO-07 step 4).
    pub fn needs_unit_roll(&self, id: UnitId, division: DivisionId) -> Result<bool, RuleViolation> {
        let u = self.unit(id)?;
        let Some(c) = self.division_leader(u.side(), division) else {
            return Ok(true);
        };
        if self.board.distance(u.area(), c.area(), &self.options) > tables::UNIT_COMMAND_RADIUS {
            return Ok(true);
        }
        let seen = self
            .board
            .line_of_sight(c.area(), u.area(), &self.options, |_| false)?;
        Ok(!seen)
    }

    /// Whether some stands of unit `id` would have to roll for command (their division or their own roll)
    /// before moving this turn.
    pub(crate) fn command_roll_owed(&self, id: UnitId) -> Result<bool, RuleViolation> {
        let u = self.unit(id)?;
        for d in Battle::divisions_in(u) {
            if self.division_needs_roll(u.side(), d)? || self.needs_unit_roll(id, d)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// GRID-CMD-02, GRID-CMD-09: whether `division` must roll 2+ before any of its units moves: its
    /// commander is more than 5 areas from his Corps Commander. With no Corps Commander on the table the
    /// check is skipped, or measured from the Army Commander with that option. A division whose own
    /// commander is gone makes no division roll (its units roll under GRID-CMD-07 instead).
    pub fn division_needs_roll(
        &self,
        side: Side,
        division: DivisionId,
    ) -> Result<bool, RuleViolation> {
        let Some(dc) = self.division_leader(side, division) else {
            return Ok(false);
        };
        let corps = dc
            .superior()
            .and_then(|s| self.commander(s).ok())
            .filter(|c| c.present());
        let reference = match (corps, self.options.no_corps_commander) {
            (Some(c), _) => Some(c),
            (None, NoCorpsCommander::SkipCheck) => None,
            (None, NoCorpsCommander::MeasureFromArmy) => self
                .commanders()
                .find(|c| c.side() == side && c.rank() == Rank::Army && c.present()),
        };
        Ok(reference.is_some_and(|r| {
            self.board.distance(dc.area(), r.area(), &self.options)
                > tables::DIVISION_COMMAND_RADIUS
        }))
    }

    /// The divisions of unit `u`'s stands, each once, in ascending order (read from its few stands as they are
    /// asked for, not gathered into a list).
    fn divisions_in(u: &Unit) -> impl Iterator<Item = DivisionId> + '_ {
        let mut last: Option<DivisionId> = None;
        std::iter::from_fn(move || {
            let next = u
                .stands()
                .iter()
                .map(|s| s.division)
                .filter(|&d| last.is_none_or(|l| d > l))
                .min()?;
            last = Some(next);
            Some(next)
        })
    }

    /// GRID-CMD-01 to GRID-CMD-04, GRID-SEQ-06: the command rolls at the start of `side`'s movement step,
    /// from positions before anything moves. Distant divisions roll once each (or once per unit with
    /// [`DivisionRoll::PerUnit`]), then each group of a unit's stands out of its commander's reach rolls;
    /// stands of different divisions in one area check against their own commanders. Stands that fail may not
    /// move voluntarily this turn. Refused outside the side's movement step, twice, or after it has moved.
    pub fn command_phase<D: Dice + ?Sized>(
        &mut self,
        side: Side,
        dice: &mut D,
    ) -> Result<CommandReport, RuleViolation> {
        let mut next = self.clone();
        let out = next.command_phase_in_place(side, dice)?;
        *self = next;
        Ok(out)
    }

    /// [`Battle::command_phase`] carried out on this battle itself, for a caller that works on a copy of its own and drops it
    /// on a refusal (the game's orders): a refusal may leave this battle partly changed.
    pub(crate) fn command_phase_in_place<D: Dice + ?Sized>(
        &mut self,
        side: Side,
        dice: &mut D,
    ) -> Result<CommandReport, RuleViolation> {
        let out = self.command_phase_unchecked(side, dice)?;
        crate::error::fault_check(dice)?;
        Ok(out)
    }

    fn command_phase_unchecked<D: Dice + ?Sized>(
        &mut self,
        side: Side,
        dice: &mut D,
    ) -> Result<CommandReport, RuleViolation> {
        self.in_movement_of(side)?;
        if *self.command_checked.get(side) {
            return Err(RuleViolation::Inconsistent(
                "command was already checked this turn",
            ));
        }
        if self
            .units()
            .any(|u| u.side() == side && (u.flags().moved || u.flags().rallied))
        {
            return Err(RuleViolation::Inconsistent(
                "command is checked before anything moves",
            ));
        }
        // Sized once for a group per unit (most units hold stands of one division) rather than grown.
        let mut groups: Vec<(UnitId, DivisionId)> = Vec::with_capacity(self.units().size_hint().0);
        for u in self.units().filter(|u| u.side() == side) {
            for d in Battle::divisions_in(u) {
                groups.push((u.id(), d));
            }
        }
        let mut divisions: Vec<DivisionId> = groups.iter().map(|g| g.1).collect();
        divisions.sort();
        divisions.dedup();
        let mut report = CommandReport::default();
        let mut division_ok: Vec<(DivisionId, bool)> = Vec::with_capacity(divisions.len());
        let mut group_ok: Vec<((UnitId, DivisionId), bool)> = Vec::new();
        // Division checks first.
        for &d in &divisions {
            if !self.division_needs_roll(side, d)? {
                division_ok.push((d, true));
                continue;
            }
            match self.options.division_roll {
                DivisionRoll::PerDivision => {
                    let face = Die::D6.roll(dice);
                    let passed = face >= tables::DIVISION_COMMAND_SCORE;
                    report.rolls.push(CommandRollRecord {
                        division: d,
                        unit: None,
                        division_check: true,
                        face,
                        passed,
                    });
                    division_ok.push((d, passed));
                }
                DivisionRoll::PerUnit => {
                    division_ok.push((d, true));
                    for g in groups.iter().filter(|g| g.1 == d) {
                        let face = Die::D6.roll(dice);
                        let passed = face >= tables::DIVISION_COMMAND_SCORE;
                        report.rolls.push(CommandRollRecord {
                            division: d,
                            unit: Some(g.0),
                            division_check: true,
                            face,
                            passed,
                        });
                        group_ok.push((*g, passed));
                    }
                }
            }
        }
        // Then each group out of its commander's reach.
        for g in &groups {
            let div_pass = division_ok.iter().any(|(d, ok)| *d == g.1 && *ok)
                && group_ok.iter().all(|(k, ok)| k != g || *ok);
            let mut pass = div_pass;
            if div_pass && self.needs_unit_roll(g.0, g.1)? {
                let face = Die::D6.roll(dice);
                pass = face >= tables::UNIT_COMMAND_SCORE;
                report.rolls.push(CommandRollRecord {
                    division: g.1,
                    unit: Some(g.0),
                    division_check: false,
                    face,
                    passed: pass,
                });
            }
            if !pass {
                report.halted.push(*g);
            }
        }
        for &(id, d) in &report.halted {
            let u = self.unit_mut(id)?;
            for s in u.stands_mut().iter_mut().filter(|s| s.division == d) {
                s.set_command(false);
            }
        }
        *self.command_checked.get_mut(side) = true;
        Ok(report)
    }

    /// GRID-CMD-05, GRID-MOV-03, GRID-MOV-06: moves a commander along `path` (the areas entered) in his side's
    /// movement step: 3 areas, no command roll, difficult ground allowed, obstacles cost double (ground classes
    /// only with the commander-ground option), road rate unless that option is off; never into an area holding
    /// enemy stands. Commanders never count for stacking.
    pub fn move_commander(&mut self, id: CommanderId, path: &[Area]) -> Result<(), RuleViolation> {
        let c = self.commander(id)?;
        if !c.present() {
            return Err(RuleViolation::BadCommanderMove(id, "he is off the table"));
        }
        self.in_movement_of(c.side())?;
        if c.moved() {
            return Err(RuleViolation::BadCommanderMove(
                id,
                "he already moved this turn",
            ));
        }
        let mut at = c.area();
        let mut cost = 0;
        for &next in path {
            if !self.board.contains(next) {
                return Err(crate::error::GridError::OffBoard(next).into());
            }
            if !self.board.adjacent(at, next) {
                return Err(RuleViolation::NotAdjacentStep(at, next));
            }
            if self.occupied_by(next, c.side().enemy()) {
                return Err(RuleViolation::EnemyInArea(next));
            }
            cost += self.step_cost(
                &[Mover::Commander],
                at,
                next,
                self.options.commanders_use_roads,
            )?;
            at = next;
        }
        let allowance = tables::allowance_halves(Mover::Commander);
        if cost > allowance {
            return Err(RuleViolation::TooFar {
                cost_halves: cost,
                allowance_halves: allowance,
            });
        }
        let Some(c) = Arc::make_mut(&mut self.commanders).get_mut(&id) else {
            return Err(RuleViolation::UnknownCommander(id));
        };
        c.set_area(at);
        c.set_moved(true);
        Ok(())
    }

    /// GRID-CMD-08: commanders of `side` in `from` move with their unit to `to`.
    pub(crate) fn commanders_follow(&mut self, side: Side, from: Area, to: Area) {
        let follows = |c: &Leader| c.side() == side && c.present() && c.area() == from;
        // Most moves carry no commander: the commanders are copied (if shared) only when one follows.
        if !self.commanders.values().any(follows) {
            return;
        }
        for c in Arc::make_mut(&mut self.commanders).values_mut() {
            if follows(c) {
                c.set_area(to);
            }
        }
    }

    /// Removes a commander from the table (GRID-CMD-06 on a 1, GRID-CMD-08 captured).
    pub(crate) fn lose_commander(&mut self, id: CommanderId) {
        let turn = self.turn;
        let mut side = None;
        if let Some(c) = Arc::make_mut(&mut self.commanders).get_mut(&id)
            && c.present()
        {
            c.set_removed(Some(turn));
            side = Some(c.side());
        }
        if let Some(s) = side {
            self.count_losses(s, |l| l.commanders_lost += 1);
        }
    }

    /// GRID-CMD-08: the commanders left in `area` when its `side` unit is destroyed, routs or surrenders either
    /// escape to the nearest friendly unit of their command (else the nearest friendly unit), or are captured,
    /// as the option says. With no friendly unit left they are captured.
    pub(crate) fn commanders_lose_unit(&mut self, side: Side, area: Area, _lost: &Unit) {
        let here: Vec<CommanderId> = self
            .commanders()
            .filter(|c| c.side() == side && c.present() && c.area() == area)
            .map(|c| c.id())
            .collect();
        for id in here {
            let dest = match self.options.commander_fate {
                CommanderFate::Captured => None,
                CommanderFate::Escapes => self.escape_area(id),
            };
            match dest {
                Some(a) => {
                    if let Some(c) = Arc::make_mut(&mut self.commanders).get_mut(&id) {
                        c.set_area(a);
                    }
                }
                None => self.lose_commander(id),
            }
        }
    }

    fn commands(&self, c: CommanderId, u: &Unit) -> bool {
        let Ok(cmd) = self.commander(c) else {
            return false;
        };
        match cmd.rank() {
            Rank::Division(d) => u.stands().iter().any(|s| s.division == d),
            Rank::Corps => u.stands().iter().any(|s| {
                self.commanders()
                    .any(|dc| dc.rank() == Rank::Division(s.division) && dc.superior() == Some(c))
            }),
            Rank::Army => true,
        }
    }

    fn escape_area(&self, id: CommanderId) -> Option<Area> {
        let c = self.commander(id).ok()?;
        let nearest = |own: bool| {
            self.units()
                .filter(|u| u.side() == c.side() && (!own || self.commands(id, u)))
                .min_by_key(|u| {
                    (
                        self.board.distance(c.area(), u.area(), &self.options),
                        u.id(),
                    )
                })
                .map(Unit::area)
        };
        nearest(true).or_else(|| nearest(false))
    }

    /// GRID-CMD-07: with the replacement option, a Division Commander removed at least N turns ago returns
    /// with the first unit of his division (he stays off if his division has none). Called at each new turn.
    pub(crate) fn replace_commanders(&mut self) {
        let Some(n) = self.options.commander_replacement_turns else {
            return;
        };
        let due: Vec<(CommanderId, Side, DivisionId)> = self
            .commanders()
            .filter_map(|c| match (c.rank(), c.removed_on_turn()) {
                (Rank::Division(d), Some(t)) if self.turn.saturating_sub(t) >= n => {
                    Some((c.id(), c.side(), d))
                }
                _ => None,
            })
            .collect();
        for (id, side, d) in due {
            let home = self
                .units()
                .find(|u| u.side() == side && u.stands().iter().any(|s| s.division == d))
                .map(Unit::area);
            if let (Some(a), Some(c)) = (home, Arc::make_mut(&mut self.commanders).get_mut(&id)) {
                c.set_area(a);
                c.set_removed(None);
            }
        }
    }
}
