//! Morale, retreat, surrender, disorder and rally.

use crate::board::{Area, Facing};
use crate::error::RuleViolation;
use crate::options::{BlockedRetreat, SideMoraleDice};
use crate::state::{Battle, Unit, UnitId};
use crate::tables::{self, MoraleResult, Mover, StandType};
use acw_core::dice::{Dice, Die};
use acw_core::vocab::Mount;
use acw_core::{Dist, Resolve};

/// GRID-MOR-01, GRID-MOR-02: one morale die plus a modifier (+1 Elite, −1 Unsteady) read on the results table.
/// Normal troops: Steady 1/6, Recoiled 1/3, Defeated 1/2; Elite: 1/3 each and never a rout; Unsteady:
/// Recoiled 1/3, Defeated 1/2, Routed 1/6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoraleTest {
    /// The net modifier.
    pub modifier: i8,
}

impl Resolve for MoraleTest {
    type Outcome = MoraleResult;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> MoraleResult {
        tables::morale_result(Die::D6.roll(dice) as i16 + i16::from(self.modifier))
    }

    fn odds(&self) -> Dist<MoraleResult> {
        let m = i16::from(self.modifier);
        Dist::die(Die::D6).map(|&f| tables::morale_result(f as i16 + m))
    }
}

/// The result for each morale class present in a unit from its one die (GRID-MOR-03): stands with −1, 0 and +1
/// may read different rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SplitMorale {
    /// Unsteady stands (−1).
    pub unsteady: Option<MoraleResult>,
    /// Normal stands (0, or Elite and Unsteady together).
    pub normal: Option<MoraleResult>,
    /// Elite stands (+1).
    pub elite: Option<MoraleResult>,
}

impl SplitMorale {
    /// The result for a stand with modifier `m`.
    #[must_use]
    pub fn for_modifier(&self, m: i8) -> Option<MoraleResult> {
        match m {
            ..=-1 => self.unsteady,
            0 => self.normal,
            _ => self.elite,
        }
    }

    /// The worst result present.
    #[must_use]
    pub fn worst(&self) -> Option<MoraleResult> {
        [self.unsteady, self.normal, self.elite]
            .into_iter()
            .flatten()
            .min()
    }
}

/// GRID-MOR-03: a unit's morale test: one die, each stand applying its own modifier. `classes` says which
/// modifiers (−1, 0, +1) its stands have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct UnitMorale {
    /// Whether stands with modifier −1, 0 and +1 are present.
    pub classes: [bool; 3],
}

impl UnitMorale {
    /// The classes present in `unit`.
    #[must_use]
    pub fn of(unit: &Unit) -> UnitMorale {
        let mut classes = [false; 3];
        for s in unit.stands() {
            classes[(s.morale_modifier().clamp(-1, 1) + 1) as usize] = true;
        }
        UnitMorale { classes }
    }

    fn read(&self, face: u32) -> SplitMorale {
        let r = |i: usize, m: i16| self.classes[i].then(|| tables::morale_result(face as i16 + m));
        SplitMorale {
            unsteady: r(0, -1),
            normal: r(1, 0),
            elite: r(2, 1),
        }
    }
}

impl Resolve for UnitMorale {
    type Outcome = SplitMorale;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> SplitMorale {
        self.read(u32::from(Die::D6.roll(dice)))
    }

    fn odds(&self) -> Dist<SplitMorale> {
        Dist::die(Die::D6).map(|&f| self.read(f))
    }
}

/// How far a retreat goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RetreatKind {
    /// GRID-MOR-05: exactly 1 area, cost ignored, not disordered.
    Recoil,
    /// GRID-MOR-06 to GRID-MOR-08, GRID-ART-12: a full move at normal terrain costs, ending disordered.
    FullMove,
}

/// A morale test a combat left owed (GRID-MEL-14): the unit, and the areas of the enemies it fought (what a
/// retreat moves away from).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct OwedTest {
    /// The unit that must test.
    pub unit: UnitId,
    /// The enemy areas of its combat.
    pub enemies: Vec<Area>,
}

/// A retreat a morale result or fire left owed: the unit, why, and the enemy areas it moves away from.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct OwedRetreat {
    /// The unit that must retreat.
    pub unit: UnitId,
    /// The result that caused it.
    pub cause: RetreatCause,
    /// The enemy areas it retreats from.
    pub enemies: Vec<Area>,
}

/// One unit's morale test as [`Battle::test_morale`] rolled and applied it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoraleOutcome {
    /// The unit tested.
    pub unit: UnitId,
    /// What its die read for each class of stand it had.
    pub result: SplitMorale,
    /// GRID-MOR-03: the unit after the test, split by result (best first; the first keeps the id). Every part
    /// not steady now owes its retreat ([`Battle::owed_retreats`]).
    pub parts: Vec<(UnitId, MoraleResult)>,
}

/// Why a unit retreats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RetreatCause {
    /// A morale result (GRID-MOR-05 to GRID-MOR-07).
    Morale(MoraleResult),
    /// A silenced battery (GRID-ART-12).
    Silenced,
    /// Mounted cavalry still in contact (GRID-MEL-15, GRID-MOR-08).
    CavalryContact,
}

impl RetreatCause {
    /// How far this cause retreats; `None` for a Steady result.
    #[must_use]
    pub fn kind(self) -> Option<RetreatKind> {
        match self {
            RetreatCause::Morale(MoraleResult::Steady) => None,
            RetreatCause::Morale(MoraleResult::Recoiled) => Some(RetreatKind::Recoil),
            _ => Some(RetreatKind::FullMove),
        }
    }
}

/// What the retreat rules allow a unit (GRID-MOR-09 to GRID-MOR-12).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RetreatPlan {
    /// Complete retreats exist; the owner picks one of these paths.
    Clear(Vec<Vec<Area>>),
    /// GRID-MOR-10: the enemy blocks it: the unit surrenders.
    Surrender,
    /// GRID-MOR-12: terrain or the table edge blocks it: these are the farthest partial retreats (possibly
    /// just staying put).
    Blocked(Vec<Vec<Area>>),
}

/// A [`RetreatPlan`] read where it is kept (the plan a caller has just worked out, or the routes the game keeps
/// with the question it asks), handed on without copying its routes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum PlanRef<'a> {
    /// [`RetreatPlan::Clear`].
    Clear(&'a [Vec<Area>]),
    /// [`RetreatPlan::Surrender`].
    Surrender,
    /// [`RetreatPlan::Blocked`].
    Blocked(&'a [Vec<Area>]),
}

impl RetreatPlan {
    /// This plan, read in place.
    pub(crate) fn as_plan_ref(&self) -> PlanRef<'_> {
        match self {
            RetreatPlan::Clear(v) => PlanRef::Clear(v),
            RetreatPlan::Surrender => PlanRef::Surrender,
            RetreatPlan::Blocked(v) => PlanRef::Blocked(v),
        }
    }
}

/// What a retreat did.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RetreatReport {
    /// The unit stood (a Steady result).
    Held,
    /// It retreated to `area` (joined into `joined` if friends were there).
    Retreated {
        /// Where it ended.
        area: Area,
        /// The friendly unit it joined there.
        joined: Option<UnitId>,
    },
    /// It retreated and then left the table (GRID-MOR-07).
    Routed,
    /// It surrendered (GRID-MOR-10).
    Surrendered,
    /// Its retreat was blocked by terrain or the edge; it stopped at `area`, disordered (GRID-MOR-12).
    Stopped {
        /// Where it stopped.
        area: Area,
    },
    /// Its retreat was blocked and it was removed (GRID-MOR-12 option).
    Removed,
}

const PATH_CAP: usize = 20_000;

struct Search<'a> {
    battle: &'a Battle,
    movers: Vec<Mover>,
    column: bool,
    enemies: &'a [Area],
    need_room: u32,
    kind: RetreatKind,
    budget: u32,
    complete: Vec<Vec<Area>>,
    /// The longest partial retreats met so far (only the longest are ever offered, GRID-MOR-12), in the order
    /// met; none kept once a complete retreat is known (a complete one is then offered instead).
    partial: Vec<Vec<Area>>,
    /// How many routes, complete and partial, the walk has reached: the cap on the search counts them all,
    /// kept or not.
    found: usize,
    /// Whether only the existence of a complete retreat is asked (the surrender test, GRID-MOR-10): the walk
    /// stops at the first and keeps no route's areas.
    any_only: bool,
    /// Where the retreat starts (not on `path`).
    origin: Option<Area>,
    /// The areas holding enemy stands, gathered once per search (empty when they are ignored).
    enemy_held: Vec<Area>,
    /// The legal steps out of each area met so far.
    steps: Vec<Steps>,
    /// For each area of the board (by [`crate::board::Board::index_of`]): 1 + the index in `steps` of its
    /// legal steps, or 0 if not yet worked out.
    step_slot: Vec<u16>,
    /// The stands of the retreating side in each area of the board (by index), gathered once per plan.
    friends: &'a [u32],
}

/// The legal steps out of one area and their costs: at most one per side of an area (six on hexes).
#[derive(Clone, Copy)]
struct Steps {
    items: [(Area, u32); 6],
    len: usize,
}

impl Steps {
    fn as_slice(&self) -> &[(Area, u32)] {
        &self.items[..self.len]
    }
}

impl Search<'_> {
    /// Whether a step from `from` to the neighbouring area `to` is open to the retreat, and its cost. The
    /// tests are pure and independent, so the cheapest (the distances) come first.
    fn legal(&self, from: Area, to: Area) -> Option<u32> {
        if !self.away_and_free(from, to) {
            return None;
        }
        let b = self.battle;
        b.step_cost(&self.movers, from, to, self.column).ok()
    }

    /// The first two tests of [`Search::legal`]: the step is away from the enemy and into an area free of
    /// enemy stands.
    fn away_and_free(&self, from: Area, to: Area) -> bool {
        let b = self.battle;
        b.board.is_away_step(from, to, self.enemies, &b.options) && !self.enemy_held.contains(&to)
    }

    /// The legal steps out of `at` and their costs, worked out once per area of a search (they depend on the
    /// area alone, not on the route that reached it).
    fn nexts(&mut self, at: Area) -> Steps {
        let slot = self.battle.board.index_of(at);
        if let Some(v) = slot
            .and_then(|i| self.step_slot.get(i))
            .and_then(|&k| usize::from(k).checked_sub(1))
            .and_then(|k| self.steps.get(k))
        {
            return *v;
        }
        let mut v = Steps {
            items: [(Area::default(), 0); 6],
            len: 0,
        };
        let mut keep = |n: Area, c: Option<u32>| {
            if let Some(c) = c
                && let Some(slot) = v.items.get_mut(v.len)
            {
                *slot = (n, c);
                v.len += 1;
            }
        };
        let b = self.battle;
        match slot {
            // The neighbours from the board's table (in the order of `Board::neighbours`), with the road and
            // obstacle of the side each lies across: the cost of a step as `Battle::step_cost` works it out,
            // without finding the side between the two areas again.
            Some(i) => {
                for (n, j, road, obstacle) in b.board.neighbours_across_at(at, i) {
                    let c = self.away_and_free(at, n).then(|| {
                        b.board.terrain_at(j).and_then(|t| {
                            b.cost_across(&self.movers, t, road, obstacle, n, self.column)
                                .ok()
                        })
                    });
                    keep(n, c.flatten());
                }
            }
            None => {
                for n in b.board.neighbours(at) {
                    keep(n, self.legal(at, n));
                }
            }
        }
        if let Some(k) = slot.and_then(|i| self.step_slot.get_mut(i))
            && let Ok(n) = u16::try_from(self.steps.len() + 1)
        {
            *k = n;
            self.steps.push(v);
        }
        v
    }

    fn room(&self, at: Area) -> bool {
        let b = self.battle;
        let friends = b
            .board
            .index_of(at)
            .and_then(|i| self.friends.get(i))
            .copied()
            .unwrap_or(0);
        friends + self.need_room <= u32::from(b.options.scale.stack_limit())
    }

    fn push_complete(&mut self, path: &[Area]) {
        self.found += 1;
        if self.any_only {
            // The areas are not needed: one (empty) entry says a complete retreat exists.
            if self.complete.is_empty() {
                self.complete.push(Vec::new());
            }
            return;
        }
        self.complete.push(path.to_vec());
        self.partial.clear();
    }

    fn push_partial(&mut self, path: &[Area]) {
        self.found += 1;
        if self.any_only || !self.complete.is_empty() {
            return;
        }
        match self.partial.first().map(Vec::len) {
            Some(n) if n > path.len() => {}
            Some(n) if n == path.len() => self.partial.push(path.to_vec()),
            _ => {
                self.partial.clear();
                self.partial.push(path.to_vec());
            }
        }
    }

    fn run(&mut self, start: Area) {
        self.origin = Some(start);
        let mut path = Vec::new();
        self.walk(start, 0, &mut path, false);
    }

    fn walk(&mut self, at: Area, spent: u32, path: &mut Vec<Area>, extending: bool) {
        if self.found >= PATH_CAP || (self.any_only && !self.complete.is_empty()) {
            return;
        }
        let nexts = self.nexts(at);
        if extending {
            // GRID-MOR-11: extra movement until the unit fits.
            if self.room(at) {
                self.push_complete(path);
                return;
            }
            if nexts.len == 0 {
                self.push_partial(path);
            }
            // Sideways steps count as away, so the extra movement never revisits an area: without this a search
            // between areas equally far from the enemy went round in circles until the stack ran out.
            for &(n, _) in nexts.as_slice() {
                if path.contains(&n) || self.origin == Some(n) {
                    continue;
                }
                path.push(n);
                self.walk(n, spent, path, true);
                path.pop();
            }
            return;
        }
        let done = match self.kind {
            RetreatKind::Recoil => !path.is_empty(),
            RetreatKind::FullMove => {
                let affordable = nexts
                    .as_slice()
                    .iter()
                    .any(|(_, c)| spent + c <= self.budget);
                if affordable {
                    false
                } else {
                    let left = self.budget.saturating_sub(spent);
                    let finished = left < 2 || nexts.len != 0;
                    if !finished {
                        self.push_partial(path);
                        return;
                    }
                    true
                }
            }
        };
        if done {
            if self.room(at) {
                self.push_complete(path);
            } else {
                self.walk(at, spent, path, true);
            }
            return;
        }
        if self.kind == RetreatKind::Recoil && nexts.len == 0 {
            self.push_partial(path);
            return;
        }
        for &(n, c) in nexts.as_slice() {
            if self.kind == RetreatKind::FullMove && spent + c > self.budget {
                continue;
            }
            path.push(n);
            self.walk(n, spent + c, path, false);
            path.pop();
        }
    }
}

impl Battle {
    /// GRID-MOR-05, GRID-MOR-06, GRID-MOR-09 to GRID-MOR-12, GRID-GEO-08: the retreats open to a unit moving
    /// away from the enemy units in `enemies`. Every area entered must be enterable, free of enemy stands, and
    /// farther from every one of those enemies than the last; friendly areas may be passed. A recoil is exactly
    /// one area, its cost ignored; a full move spends the unit's allowance at normal costs (road rate only for a
    /// march column on a road). A retreat that ends over the stacking limit goes on until it fits (GRID-MOR-11).
    /// If no complete retreat exists but one would with enemy-occupied areas treated as empty, the unit
    /// surrenders (GRID-MOR-10); otherwise it is blocked by terrain or the edge (GRID-MOR-12).
    pub fn retreat_plan(
        &self,
        id: UnitId,
        kind: RetreatKind,
        enemies: &[Area],
    ) -> Result<RetreatPlan, RuleViolation> {
        let u = self.unit(id)?;
        let enemy = u.side().enemy();
        let cells = self.board.cell_count();
        let mut friends = vec![0u32; cells];
        for f in self.units().filter(|f| f.side() == u.side()) {
            if let Some(n) = self
                .board
                .index_of(f.area())
                .and_then(|i| friends.get_mut(i))
            {
                *n += f.stand_count();
            }
        }
        let run = |ignore_enemy: bool| {
            let enemy_held = if ignore_enemy {
                Vec::new()
            } else {
                self.units()
                    .filter(|e| e.side() == enemy)
                    .map(Unit::area)
                    .collect()
            };
            let mut s = Search {
                battle: self,
                movers: u.movers(),
                column: u.in_column(),
                enemies,
                need_room: u.stand_count(),
                kind,
                budget: u.allowance_halves(),
                complete: Vec::new(),
                partial: Vec::new(),
                found: 0,
                any_only: ignore_enemy,
                origin: None,
                enemy_held,
                steps: Vec::with_capacity(16),
                step_slot: vec![0; cells],
                friends: &friends,
            };
            s.run(u.area());
            (s.complete, s.partial)
        };
        let (complete, partial) = run(false);
        if !complete.is_empty() {
            return Ok(RetreatPlan::Clear(complete));
        }
        let (would, _) = run(true);
        if !would.is_empty() {
            return Ok(RetreatPlan::Surrender);
        }
        // The search kept only the longest partial retreats, in the order it met them.
        let mut far = partial;
        if far.is_empty() {
            far.push(Vec::new());
        }
        Ok(RetreatPlan::Blocked(far))
    }

    fn nearest_enemy(&self, at: Area, enemies: &[Area]) -> Option<Area> {
        enemies
            .iter()
            .copied()
            .min_by_key(|e| (self.board.distance(at, *e, &self.options), *e))
    }

    /// GRID-MOR-05 to GRID-MOR-12, GRID-MOV-27, GRID-CMD-08: carries out the retreat unit `id` owes (from its
    /// morale test, [`Battle::owed_retreats`]) along `path` (the areas entered), which must be one the plan
    /// allows (a surrender takes no path). The unit ends facing the enemy it retreated from (`facing` must be
    /// one of the sides pointing nearest to it; `None` takes the first), loses its entrenchments and refused
    /// flank, and its commanders go with it. A full move leaves it disordered; a rout then removes it; a
    /// surrender or (with that option) a blocked retreat removes it too. Losses are counted (GRID-CAS-08).
    /// Refused, changing nothing, if the unit owes no retreat or the path breaks the rules; each owed retreat
    /// is carried out once.
    pub fn retreat(
        &mut self,
        id: UnitId,
        path: &[Area],
        facing: Option<Facing>,
    ) -> Result<RetreatReport, RuleViolation> {
        self.retreat_planned(id, path, facing, None)
    }

    /// [`Battle::retreat`], given the plan the caller has just worked out on this same battle for the same
    /// retreat (`kind` away from `enemies`): it is used only if the owed retreat is exactly that one, and
    /// otherwise worked out again, so the result is the same either way.
    pub(crate) fn retreat_planned(
        &mut self,
        id: UnitId,
        path: &[Area],
        facing: Option<Facing>,
        known: Option<(RetreatKind, &[Area], PlanRef<'_>)>,
    ) -> Result<RetreatReport, RuleViolation> {
        let owed = self.owed_retreat(id)?;
        let known = known
            .filter(|(kind, enemies, _)| {
                owed.cause.kind() == Some(*kind) && owed.enemies.as_slice() == *enemies
            })
            .map(|(_, _, plan)| plan);
        let mut next = self.clone();
        let r = next.retreat_by_planned(id, owed.cause, &owed.enemies, path, facing, known)?;
        if let Some(i) = next.owed_retreats.iter().position(|o| o.unit == id) {
            next.owed_retreats.remove(i);
        }
        *self = next;
        Ok(r)
    }

    /// The retreats morale tests left owed, in the order they fell due.
    #[must_use]
    pub fn owed_retreats(&self) -> &[OwedRetreat] {
        &self.owed_retreats
    }

    /// The morale tests the Combat Phase's combats left owed (GRID-MEL-14).
    #[must_use]
    pub fn owed_morale_tests(&self) -> &[OwedTest] {
        &self.owed_tests
    }

    fn owed_retreat(&self, id: UnitId) -> Result<OwedRetreat, RuleViolation> {
        self.unit(id)?;
        self.owed_retreats
            .iter()
            .find(|o| o.unit == id)
            .cloned()
            .ok_or(RuleViolation::RetreatNotOwed(id))
    }

    /// The retreat itself, for a cause the engine established (a morale result, silenced guns, cavalry in
    /// contact).
    pub(crate) fn retreat_by(
        &mut self,
        id: UnitId,
        cause: RetreatCause,
        enemies: &[Area],
        path: &[Area],
        facing: Option<Facing>,
    ) -> Result<RetreatReport, RuleViolation> {
        self.retreat_by_planned(id, cause, enemies, path, facing, None)
    }

    /// [`Battle::retreat_by`] with the retreat's plan, if already worked out on this battle.
    fn retreat_by_planned(
        &mut self,
        id: UnitId,
        cause: RetreatCause,
        enemies: &[Area],
        path: &[Area],
        facing: Option<Facing>,
        known: Option<PlanRef<'_>>,
    ) -> Result<RetreatReport, RuleViolation> {
        let Some(kind) = cause.kind() else {
            return if path.is_empty() {
                Ok(RetreatReport::Held)
            } else {
                Err(RuleViolation::BadRetreat("a steady unit holds its area"))
            };
        };
        if enemies.is_empty() {
            return Err(RuleViolation::BadRetreat(
                "a retreat is away from some enemy",
            ));
        }
        // The plan handed in is read, not copied (a forced cavalry retreat tries one plan for several routes).
        let planned;
        let plan = match known {
            Some(plan) => plan,
            None => {
                planned = self.retreat_plan(id, kind, enemies)?;
                planned.as_plan_ref()
            }
        };
        let u = self.unit(id)?;
        let side = u.side();
        let start = u.area();
        match plan {
            PlanRef::Surrender => {
                if !path.is_empty() {
                    return Err(RuleViolation::BadRetreat("the unit must surrender"));
                }
                let n = u.stand_count();
                self.count_losses(side, |l| {
                    l.units_surrendered += 1;
                    l.stands_lost += n;
                });
                self.remove_unit(id);
                Ok(RetreatReport::Surrendered)
            }
            PlanRef::Blocked(options) => {
                if !options.iter().any(|p| p == path) {
                    return Err(RuleViolation::BadRetreat(
                        "a blocked unit retreats as far as it can",
                    ));
                }
                if self.options.blocked_retreat == BlockedRetreat::Removed {
                    let n = u.stand_count();
                    self.count_losses(side, |l| {
                        l.units_removed += 1;
                        l.stands_lost += n;
                    });
                    self.remove_unit(id);
                    return Ok(RetreatReport::Removed);
                }
                let end = path.last().copied().unwrap_or(start);
                let f = self.retreat_facing(end, enemies, facing)?;
                let (area, _) = self.relocate(id, end, f, true, true)?;
                Ok(RetreatReport::Stopped { area })
            }
            PlanRef::Clear(options) => {
                if !options.iter().any(|p| p == path) {
                    return Err(RuleViolation::BadRetreat("not a legal retreat path"));
                }
                let end = path.last().copied().unwrap_or(start);
                let f = self.retreat_facing(end, enemies, facing)?;
                let disorder = kind == RetreatKind::FullMove;
                if cause == RetreatCause::Morale(MoraleResult::Routed) {
                    self.relocate(id, end, f, disorder, false)?;
                    self.rout_out(id);
                    return Ok(RetreatReport::Routed);
                }
                let (area, joined) = self.relocate(id, end, f, disorder, true)?;
                Ok(RetreatReport::Retreated { area, joined })
            }
        }
    }

    fn rout_out(&mut self, id: UnitId) {
        if let Ok(u) = self.unit(id) {
            let (side, n) = (u.side(), u.stand_count());
            self.count_losses(side, |l| {
                l.units_routed += 1;
                l.stands_lost += n;
            });
            self.remove_unit(id);
        }
    }

    fn retreat_facing(
        &self,
        end: Area,
        enemies: &[Area],
        facing: Option<Facing>,
    ) -> Result<Facing, RuleViolation> {
        let Some(e) = self.nearest_enemy(end, enemies) else {
            return Err(RuleViolation::BadRetreat("no enemy to face"));
        };
        let best = self.board.facings_towards(end, e);
        match facing {
            None => best
                .first()
                .copied()
                .ok_or(RuleViolation::BadRetreat("no facing")),
            Some(f) if best.contains(&f) => Ok(f),
            Some(_) => Err(RuleViolation::BadRetreat(
                "a retreating unit faces the enemy",
            )),
        }
    }

    /// Moves a unit by a combat result, taking its commanders along and merging with friends at the end.
    fn relocate(
        &mut self,
        id: UnitId,
        end: Area,
        facing: Facing,
        disorder: bool,
        merge: bool,
    ) -> Result<(Area, Option<UnitId>), RuleViolation> {
        let u = self.unit(id)?;
        let (side, start) = (u.side(), u.area());
        let join = if end == start || !merge {
            None
        } else {
            self.unit_of_side_at(side, end)
                .map(Unit::id)
                .filter(|&j| j != id)
        };
        {
            let u = self.unit_mut(id)?;
            u.set_area(end);
            u.set_facing(facing);
            if disorder {
                u.set_disordered(true);
            }
            if end != start {
                u.set_entrench(0, false);
                u.set_refused(None);
                u.flags_mut().retreated = true;
            }
        }
        if end != start {
            self.vacated.push((side, start));
            if !self.occupied_by(start, side) {
                self.commanders_follow(side, start, end);
            }
        }
        if let Some(j) = join {
            self.merge_units(j, id)?;
            return Ok((end, Some(j)));
        }
        Ok((end, None))
    }

    /// GRID-MOR-01, GRID-MOR-03, GRID-MOR-04: rolls and applies the morale tests of a losing side's units, each
    /// of which must owe one ([`Battle::owed_morale_tests`]): one die per unit, or one die for the whole side
    /// with that option. Each unit reads its die for every class of stand it has and splits by result; every
    /// part not steady then owes its retreat ([`Battle::retreat`]). Refused, changing nothing (dice included),
    /// if a unit owes no test (or is named twice) or the dice fault; a test is taken once.
    pub fn test_morale<D: Dice + ?Sized>(
        &mut self,
        units: &[UnitId],
        dice: &mut D,
    ) -> Result<Vec<MoraleOutcome>, RuleViolation> {
        let mut next = self.clone();
        let out = next.test_morale_in_place(units, dice)?;
        *self = next;
        Ok(out)
    }

    /// [`Battle::test_morale`] carried out on this battle itself, for a caller that works on a copy of its own
    /// and drops it on a refusal (the game's orders): a refusal may leave this battle partly changed.
    pub(crate) fn test_morale_in_place<D: Dice + ?Sized>(
        &mut self,
        units: &[UnitId],
        dice: &mut D,
    ) -> Result<Vec<MoraleOutcome>, RuleViolation> {
        for (i, &id) in units.iter().enumerate() {
            self.unit(id)?;
            if units[..i].contains(&id) || !self.owed_tests.iter().any(|t| t.unit == id) {
                return Err(RuleViolation::MoraleNotOwed(id));
            }
        }
        let rolled = self.test_morale_unchecked(units, dice)?;
        crate::error::fault_check(dice)?;
        self.apply_morale_results(rolled)
    }

    /// The second half of [`Battle::test_morale`]: each unit's rolled result applied (split, retreats owed).
    fn apply_morale_results(
        &mut self,
        rolled: Vec<(UnitId, SplitMorale)>,
    ) -> Result<Vec<MoraleOutcome>, RuleViolation> {
        let next = self;
        let mut out = Vec::with_capacity(rolled.len());
        for (id, result) in rolled {
            let Some(i) = next.owed_tests.iter().position(|t| t.unit == id) else {
                return Err(RuleViolation::MoraleNotOwed(id));
            };
            let owed = next.owed_tests.remove(i);
            let parts = next.split_by_morale(id, &result)?;
            for &(part, r) in &parts {
                if r != MoraleResult::Steady {
                    next.owed_retreats.push(OwedRetreat {
                        unit: part,
                        cause: RetreatCause::Morale(r),
                        enemies: owed.enemies.clone(),
                    });
                }
            }
            out.push(MoraleOutcome {
                unit: id,
                result,
                parts,
            });
        }
        Ok(out)
    }

    fn test_morale_unchecked<D: Dice + ?Sized>(
        &self,
        units: &[UnitId],
        dice: &mut D,
    ) -> Result<Vec<(UnitId, SplitMorale)>, RuleViolation> {
        for &id in units {
            self.unit(id)?;
        }
        let mut out = Vec::with_capacity(units.len());
        let shared = match self.options.side_morale_dice {
            SideMoraleDice::PerSide if !units.is_empty() => Some(u32::from(Die::D6.roll(dice))),
            _ => None,
        };
        for &id in units {
            let m = UnitMorale::of(self.unit(id)?);
            let r = match shared {
                Some(face) => m.read(face),
                None => m.roll(dice),
            };
            out.push((id, r));
        }
        Ok(out)
    }

    /// GRID-MOR-03: splits a unit whose stands read different results into one unit per result, all still in
    /// its area; the group with the best result keeps the id. Returns each group with its result, best first.
    fn split_by_morale(
        &mut self,
        id: UnitId,
        result: &SplitMorale,
    ) -> Result<Vec<(UnitId, MoraleResult)>, RuleViolation> {
        let u = self.unit(id)?;
        let mut by: Vec<(MoraleResult, Vec<usize>)> = Vec::new();
        for (i, s) in u.stands().iter().enumerate() {
            let Some(r) = result.for_modifier(s.morale_modifier()) else {
                return Err(RuleViolation::Inconsistent(
                    "the morale result misses a class of stand",
                ));
            };
            match by.iter_mut().find(|(k, _)| *k == r) {
                Some((_, v)) => v.push(i),
                None => by.push((r, vec![i])),
            }
        }
        by.sort_by_key(|b| std::cmp::Reverse(b.0));
        let mut out = Vec::new();
        let Some(((best, _), rest)) = by.split_first() else {
            return Ok(out);
        };
        out.push((id, *best));
        // Detach from the highest index down so earlier indices stay valid.
        let mut rest: Vec<(MoraleResult, Vec<usize>)> = rest.to_vec();
        let mut taken: Vec<usize> = Vec::new();
        for (r, idx) in rest.iter_mut() {
            let shifted: Vec<usize> = idx
                .iter()
                .map(|&i| i - taken.iter().filter(|&&t| t < i).count())
                .collect();
            let new = self.detach(id, &shifted, false)?;
            taken.extend(idx.iter().copied());
            out.push((new, *r));
        }
        Ok(out)
    }

    /// Carries out the retreat unit `id` owes with the software's default choices: the first legal path, the
    /// first facing towards the enemy (GRID-MOR-09: the owner chooses; this picks for him). Refused, changing
    /// nothing, if it owes none.
    pub fn carry_out(&mut self, id: UnitId) -> Result<RetreatReport, RuleViolation> {
        let owed = self.owed_retreat(id)?;
        let path = match owed.cause.kind() {
            Some(kind) => match self.retreat_plan(id, kind, &owed.enemies)? {
                RetreatPlan::Clear(p) | RetreatPlan::Blocked(p) => {
                    p.into_iter().next().unwrap_or_default()
                }
                RetreatPlan::Surrender => Vec::new(),
            },
            None => Vec::new(),
        };
        self.retreat(id, &path, None)
    }

    /// GRID-MEL-15, GRID-MOR-08: units with mounted cavalry still adjacent to an enemy after the retreats.
    pub fn cavalry_in_contact(&self) -> Vec<UnitId> {
        self.units()
            .filter(|u| u.has_mounted_cavalry() && self.engaged(u.id()).unwrap_or(false))
            .map(Unit::id)
            .collect()
    }

    /// GRID-MEL-15, GRID-MOR-08: mounted cavalry still in contact retreats a full move in disorder, away from
    /// every adjacent enemy; in a mixed unit only the mounted cavalry stands go. Returns the retreating unit's
    /// id with the report. Dismounted cavalry is not affected (GRID-MOV-22).
    pub fn forced_cavalry_retreat(
        &mut self,
        id: UnitId,
        path: &[Area],
    ) -> Result<(UnitId, RetreatReport), RuleViolation> {
        self.forced_cavalry_retreat_first(id, &[path.to_vec()], None)
    }

    /// [`Battle::forced_cavalry_retreat`] along the first of `candidates` the rules accept, as if each were
    /// tried in turn on this battle (a refused one changes nothing); the error of the last if none is. `known`
    /// is the plan of the whole unit's full-move retreat away from its adjacent enemies that the caller has just
    /// worked out on this same battle: used only if the whole unit goes. A mixed unit's cavalry retreats as a
    /// unit of its own, whose plan is worked out once for all the candidates (each is tried on the same
    /// battle, so it is the same plan). The result is the same either way.
    pub(crate) fn forced_cavalry_retreat_first(
        &mut self,
        id: UnitId,
        candidates: &[Vec<Area>],
        known: Option<PlanRef<'_>>,
    ) -> Result<(UnitId, RetreatReport), RuleViolation> {
        self.phase_is(crate::state::Phase::Combat)?;
        let u = self.unit(id)?;
        if !u.has_mounted_cavalry() {
            return Err(RuleViolation::NotEligible {
                unit: id,
                why: "it has no mounted cavalry",
            });
        }
        let enemies: Vec<Area> = self
            .adjacent_enemies(id)?
            .iter()
            .filter_map(|e| self.unit(*e).ok().map(Unit::area))
            .collect();
        if enemies.is_empty() {
            return Err(RuleViolation::NotEligible {
                unit: id,
                why: "it is not in contact",
            });
        }
        let cav: Vec<usize> = u
            .stands()
            .iter()
            .enumerate()
            .filter(|(_, s)| s.kind == StandType::Cavalry)
            .map(|(i, _)| i)
            .collect();
        let whole = cav.len() == u.stands().len();
        // Carried out on a copy, which replaces the battle only if nothing refused it.
        let mut base = self.clone();
        let (mover, known) = if whole {
            (id, known)
        } else {
            (base.detach(id, &cav, false)?, None)
        };
        let planned;
        let plan = match known {
            Some(plan) => plan,
            None => {
                planned = base.retreat_plan(mover, RetreatKind::FullMove, &enemies)?;
                planned.as_plan_ref()
            }
        };
        let mut last = Err(RuleViolation::BadRetreat("no retreat route was given"));
        for path in candidates {
            let mut next = base.clone();
            match next.retreat_by_planned(
                mover,
                RetreatCause::CavalryContact,
                &enemies,
                path,
                None,
                Some(plan),
            ) {
                Ok(r) => {
                    *self = next;
                    return Ok((mover, r));
                }
                Err(e) => last = Err(e),
            }
        }
        last
    }

    /// GRID-MOR-13, GRID-CMD-04: a disordered unit removes its disorder in its own movement step if it is not
    /// engaged, has not moved and did not bombard this turn. No die is rolled (with the rally option, its
    /// stands must have passed their command roll). A retreat earlier this turn does not stop it, unless the
    /// option says so. A unit that rallies may not then move.
    pub fn rally(&mut self, id: UnitId) -> Result<(), RuleViolation> {
        self.may_rally(id)?;
        let u = self.unit_mut(id)?;
        u.set_disordered(false);
        u.flags_mut().rallied = true;
        Ok(())
    }

    /// GRID-MOR-13: whether unit `id` may rally now (see [`Battle::rally`]), or why not.
    pub fn may_rally(&self, id: UnitId) -> Result<(), RuleViolation> {
        let u = self.unit(id)?;
        self.in_movement_of(u.side())?;
        let f = u.flags();
        let why = if !u.disordered() {
            Some("it is not disordered")
        } else if f.moved {
            Some("it moved this turn")
        } else if f.bombarded {
            Some("it bombarded this turn")
        } else if f.retreated && !self.options.rally_after_retreat {
            Some("it retreated this turn")
        } else if self.engaged(id)? {
            Some("it is engaged")
        } else if self.options.command_roll_for_rally
            && u.stands().iter().any(|s| !s.passed_command_roll())
        {
            Some("it failed its command roll")
        } else {
            None
        };
        match why {
            Some(why) => Err(RuleViolation::NotEligible { unit: id, why }),
            None => Ok(()),
        }
    }

    /// GRID-MOV-22: whether `u` has dismounted cavalry (which is exempt from GRID-MEL-15).
    #[must_use]
    pub fn has_dismounted_cavalry(u: &Unit) -> bool {
        u.mount() == Mount::Dismounted && u.has(StandType::Cavalry)
    }
}
