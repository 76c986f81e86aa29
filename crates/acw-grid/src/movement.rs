//! Movement: allowances and terrain costs, roads and march columns, facing and formation, detaching and joining,
//! attacks and halting, refusing a flank, and entrenching.

use crate::board::{Area, Facing, FlankSide, Terrain};
use crate::error::{GridError, RuleViolation};
use crate::options::{AttackFrontCheck, BombardedMeans, DetachedHit};
use crate::state::{Battle, Unit, UnitId};
use crate::tables::{self, Mover, StandType};
use acw_core::dice::{Dice, Die};
use acw_core::vocab::{Formation, Mount};
use acw_core::{Dist, Resolve};

/// One voluntary move of a unit, or of some of its stands (GRID-SEQ-06).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoveOrder {
    /// The unit moving (or losing the stands that detach).
    pub unit: UnitId,
    /// GRID-MOV-14: the stands (indices) that detach and move as a new unit; `None` moves the whole unit.
    pub stands: Option<Vec<usize>>,
    /// The areas entered, in order; empty for a change in place.
    pub path: Vec<Area>,
    /// GRID-MOV-08: move as a march column (road rate on roads).
    pub column: bool,
    /// GRID-MOV-08, GRID-MOV-09, GRID-MOV-24: formation at the end of the move.
    pub end_formation: Formation,
    /// GRID-MOV-10: the side faced at the end.
    pub facing: Facing,
    /// GRID-MOV-22: the cavalry's state for the move (chosen at its start).
    pub mount: Mount,
    /// GRID-MOV-22, GRID-MOV-23: the cavalry's state at the end.
    pub end_mount: Mount,
    /// GRID-CAS-09 (owner-chooses option): the detaching stands take the leftover hit.
    pub detached_take_hit: bool,
}

impl MoveOrder {
    /// A move of the whole unit along `path`, keeping its formation, mount and facing.
    #[must_use]
    pub fn along(unit: &Unit, path: Vec<Area>) -> MoveOrder {
        MoveOrder {
            unit: unit.id(),
            stands: None,
            path,
            column: unit.in_column(),
            end_formation: unit.formation(),
            facing: unit.facing(),
            mount: unit.mount(),
            end_mount: unit.mount(),
            detached_take_hit: false,
        }
    }

    /// Ending facing `facing`.
    #[must_use]
    pub fn facing(mut self, facing: Facing) -> MoveOrder {
        self.facing = facing;
        self
    }

    /// Moving as a march column and ending in one.
    #[must_use]
    pub fn in_column(mut self) -> MoveOrder {
        self.column = true;
        self.end_formation = Formation::MarchColumn;
        self
    }

    /// Ending in `f`.
    #[must_use]
    pub fn ending(mut self, f: Formation) -> MoveOrder {
        self.end_formation = f;
        self
    }

    /// Only stands `idx` move, as a new unit.
    #[must_use]
    pub fn detaching(mut self, idx: Vec<usize>) -> MoveOrder {
        self.stands = Some(idx);
        self
    }
}

/// What a move did.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoveReport {
    /// The unit that moved (a new id if stands detached; the joined unit if they joined one).
    pub unit: UnitId,
    /// GRID-MOV-17: the move brought it adjacent to an enemy.
    pub attack: bool,
    /// GRID-OPT-02: hidden units revealed by the move.
    pub revealed: Vec<UnitId>,
    /// GRID-MOV-14: it joined this unit.
    pub joined: Option<UnitId>,
    /// Path cost in half-areas.
    pub cost_halves: u32,
    /// GRID-MOV-10: whether it counted as a move.
    pub counted_as_move: bool,
}

/// One area a unit may move to, and how: see [`Battle::reachable`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[must_use]
pub struct Reach {
    /// The areas entered, in order (the last is where the move ends).
    pub path: Vec<Area>,
    /// The route's cost in half-areas (GRID-MOV-02).
    pub cost_halves: u32,
    /// Whether the move ends next to an enemy: an attack (GRID-MOV-17).
    pub attack: bool,
    road: bool,
    path_in_arc: bool,
}

/// The areas a unit may move to now and the route to each, as [`Battle::routes`] finds them: route `i` ends in
/// area [`Routes::end`]`(i)`, in the order [`Battle::reachable`] lists them.
#[derive(Clone, Debug, Default)]
pub struct Routes {
    start: Area,
    nodes: Vec<RouteNode>,
}

/// One area of a [`Routes`] search: the route to it is its parent's and one more step.
#[derive(Clone, Copy, Debug)]
struct RouteNode {
    area: Area,
    /// The area's index on the board ([`crate::board::Board::index_of`]).
    index: u32,
    /// The route this one extends (`None`: a first step from the start).
    parent: Option<u32>,
    depth: u8,
    cost_halves: u32,
    attack: bool,
    road: bool,
    path_in_arc: bool,
}

impl Routes {
    /// How many areas the unit may move to.
    #[must_use]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the unit may move nowhere.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Where route `i` ends (the unit's own area if there is no such route).
    #[must_use]
    pub fn end(&self, i: usize) -> Area {
        self.nodes.get(i).map_or(self.start, |n| n.area)
    }

    /// Whether route `i` ends next to an enemy unit, hidden or not: a move along it is an attack (GRID-MOV-17).
    /// False if there is no such route.
    #[must_use]
    pub fn attack(&self, i: usize) -> bool {
        self.nodes.get(i).is_some_and(|n| n.attack)
    }

    /// The areas route `i` enters, in order (empty if there is no such route).
    #[must_use]
    pub fn path(&self, i: usize) -> Vec<Area> {
        let mut path = Vec::new();
        let mut at = self.nodes.get(i);
        while let Some(n) = at {
            path.push(n.area);
            at = n
                .parent
                .and_then(|p| usize::try_from(p).ok())
                .and_then(|p| self.nodes.get(p));
        }
        path.reverse();
        path
    }
}

struct MoveBasis<'a> {
    unit: &'a Unit,
    /// The indices of the stands moving when the order names them (sorted, without repeats); empty when the
    /// order moves the whole unit without naming its stands.
    moving: Vec<usize>,
    /// How many stands move.
    count: usize,
    whole: bool,
    /// Whether every stand moving is a wagon.
    wagons_only: bool,
    has_cav: bool,
    column: bool,
    movers: MoverSet,
    allowance: u32,
}

/// The distinct movers of the stands moving, in ascending order: at most one of each kind of [`Mover`], so
/// kept inline rather than in a vector built for every move checked or searched.
#[derive(Clone, Copy)]
struct MoverSet {
    items: [Mover; 6],
    len: usize,
}

impl MoverSet {
    /// The distinct movers of `movers`, sorted (as sorting and removing repeats would give them).
    fn of(movers: impl Iterator<Item = Mover>) -> MoverSet {
        let mut set = MoverSet {
            items: [Mover::Infantry; 6],
            len: 0,
        };
        for m in movers {
            let Err(at) = set.as_slice().binary_search(&m) else {
                continue;
            };
            if set.len < set.items.len() {
                set.items.copy_within(at..set.len, at + 1);
                if let Some(slot) = set.items.get_mut(at) {
                    *slot = m;
                }
                set.len += 1;
            }
        }
        set
    }

    fn as_slice(&self) -> &[Mover] {
        self.items.get(..self.len).unwrap_or(&[])
    }
}

/// What [`Battle::move_unit`] carries out once every check has passed (see [`Battle::check_move`]).
pub(crate) struct MovePlan {
    moving: Vec<usize>,
    whole: bool,
    cost: u32,
    attack: bool,
    used_road: bool,
    counts_as_move: bool,
    revealed: Vec<UnitId>,
    join: Option<UnitId>,
    attacked_areas: Vec<Area>,
}

impl Battle {
    /// GRID-MOV-02 to GRID-MOV-07, GRID-MOV-25: the cost in half-areas for a group of `movers` to step from
    /// `from` into the adjacent `to`. A march column (`column`; wagons always count as one) moving along a road
    /// pays ½ area and ignores ground and the obstacle the road crosses. Otherwise 1 area, counted as 2 if an
    /// obstacle is crossed or the ground doubles for any mover (capped at 2 unless the cumulative option is
    /// on, then ×2 per condition). Ground a mover may not normally enter is refused, unless the scenario opens
    /// the area to all.
    pub fn step_cost(
        &self,
        movers: &[Mover],
        from: Area,
        to: Area,
        column: bool,
    ) -> Result<u32, RuleViolation> {
        let t = *self.board.terrain(to)?;
        let Some((road, obstacle)) = self.board.side_between(from, to) else {
            return Err(RuleViolation::NotAdjacentStep(from, to));
        };
        self.cost_across(movers, &t, road, obstacle, to, column)
    }

    /// [`Battle::step_cost`] of a step into `to` (terrain `t`) across a side with or without a road and an
    /// obstacle.
    #[inline]
    pub(crate) fn cost_across(
        &self,
        movers: &[Mover],
        t: &Terrain,
        road: bool,
        obstacle: bool,
        to: Area,
        column: bool,
    ) -> Result<u32, RuleViolation> {
        let all_wagons = !movers.is_empty() && movers.iter().all(|m| *m == Mover::Wagons);
        if (column || all_wagons) && road {
            return Ok(1);
        }
        let ground = t.effective_ground();
        if !t.open_to_all && movers.iter().any(|m| !tables::may_enter(*m, ground)) {
            return Err(RuleViolation::Prohibited(to));
        }
        let mut conditions = 0u32;
        if obstacle {
            conditions += 1;
        }
        if movers
            .iter()
            .any(|m| tables::ground_doubles(*m, ground, self.options.commander_ground_penalty))
        {
            conditions += 1;
        }
        let factor = if self.options.cumulative_double_costs {
            1u32 << conditions
        } else if conditions > 0 {
            2
        } else {
            1
        };
        Ok(2 * factor)
    }

    /// GRID-MOV-01, GRID-MOV-02: the cost of `path` from `start`, and whether any step used the road rate.
    pub(crate) fn path_cost(
        &self,
        movers: &[Mover],
        start: Area,
        path: &[Area],
        column: bool,
    ) -> Result<(u32, bool), RuleViolation> {
        let mut at = start;
        let mut cost = 0;
        let mut road = false;
        for &next in path {
            if !self.board.contains(next) {
                return Err(GridError::OffBoard(next).into());
            }
            let c = self.step_cost(movers, at, next, column)?;
            road |= c == 1;
            cost += c;
            at = next;
        }
        Ok((cost, road))
    }

    /// Whether any enemy of `side` (hidden ones too) is adjacent to `area`.
    fn enemy_near(&self, side: acw_core::Side, area: Area, include_hidden: bool) -> bool {
        self.units().any(|e| {
            e.side() != side
                && (include_hidden || !e.hidden())
                && self.board.adjacent(area, e.area())
        })
    }

    /// Whether [`Battle::move_unit`] would accept `o` now, or why not; changes nothing.
    pub fn check_move(&self, o: &MoveOrder) -> Result<(), RuleViolation> {
        self.plan_move(o).map(|_| ())
    }

    /// The checks of a move that do not depend on its path (GRID-MOV-15, GRID-MOV-11, GRID-SEQ-06,
    /// GRID-CMD-04, GRID-MOV-08, GRID-MOV-22), and what the path checks need: the stands moving, their movers and
    /// allowance, and whether the road rate applies.
    fn move_basis<'a>(&'a self, o: &MoveOrder) -> Result<MoveBasis<'a>, RuleViolation> {
        let u = self.unit(o.unit)?;
        self.in_movement_of(u.side())?;
        Facing::new(self.board.kind(), o.facing.index())?;
        crate::state::check_formation(o.end_formation)?;
        let n = u.stands().len();
        let moving: Vec<usize> = match &o.stands {
            None => Vec::new(),
            Some(v) => {
                let mut v = v.clone();
                v.sort_unstable();
                v.dedup();
                if v.is_empty() {
                    return Err(GridError::NoStands.into());
                }
                if let Some(&bad) = v.iter().find(|&&i| i >= n) {
                    return Err(RuleViolation::NoSuchStand {
                        unit: o.unit,
                        index: bad,
                    });
                }
                v
            }
        };
        let count = if o.stands.is_some() { moving.len() } else { n };
        let whole = count == n;
        if !whole && o.path.is_empty() {
            return Err(RuleViolation::Inconsistent(
                "detaching stands must move away",
            ));
        }
        // GRID-MOV-15: disordered units only retreat.
        if u.disordered() {
            return Err(RuleViolation::Disordered(o.unit));
        }
        // The stands moving, in the order of the unit's stands.
        let named = o.stands.is_some();
        let stands = || {
            u.stands()
                .iter()
                .enumerate()
                .filter(|(i, _)| !named || moving.binary_search(i).is_ok())
                .map(|(_, s)| s)
        };
        // GRID-MOV-11, GRID-ART-10: stands that bombarded are frozen.
        if stands().any(|s| s.fired_this_turn()) {
            return Err(RuleViolation::Bombarded(o.unit));
        }
        // GRID-SEQ-06, GRID-CMD-04: the command roll gates voluntary moves, and is made before anything moves.
        if !*self.command_checked.get(u.side()) && self.command_roll_owed(o.unit)? {
            return Err(RuleViolation::CommandRollOwed(o.unit));
        }
        if stands().any(|s| !s.passed_command_roll()) {
            return Err(RuleViolation::OutOfCommand(o.unit));
        }
        let f = u.flags();
        if f.moved || f.rallied || f.entrenched {
            return Err(RuleViolation::AlreadyActed {
                unit: o.unit,
                why: "it already moved, rallied or entrenched this turn",
            });
        }
        let has_cav = stands().any(|s| s.kind == StandType::Cavalry);
        if !has_cav && (o.mount != u.mount() || o.end_mount != u.mount()) {
            return Err(RuleViolation::BadFormation(
                "only cavalry mounts or dismounts",
            ));
        }
        // GRID-MOV-08: strict timing gives road bonuses only to a column held at the start.
        let column = if self.options.strict_formation_change {
            o.column && u.in_column()
        } else {
            o.column
        };
        let movers = MoverSet::of(stands().map(|s| s.mover(o.mount)));
        let allowance = movers
            .as_slice()
            .iter()
            .map(|m| tables::allowance_halves(*m))
            .min()
            .unwrap_or(0);
        let wagons_only = stands().all(|s| s.kind == StandType::Wagons);
        Ok(MoveBasis {
            unit: u,
            moving,
            count,
            whole,
            wagons_only,
            has_cav,
            column,
            movers,
            allowance,
        })
    }

    pub(crate) fn plan_move(&self, o: &MoveOrder) -> Result<MovePlan, RuleViolation> {
        let MoveBasis {
            unit: u,
            moving,
            count,
            whole,
            wagons_only,
            has_cav,
            column,
            movers,
            allowance,
        } = self.move_basis(o)?;
        let start = u.area();
        let side = u.side();
        // GRID-MOV-02: steps across sides; GRID-MOV-16: never into enemy stands.
        let mut at = start;
        for &next in &o.path {
            if !self.board.contains(next) {
                return Err(GridError::OffBoard(next).into());
            }
            if !self.board.adjacent(at, next) {
                return Err(RuleViolation::NotAdjacentStep(at, next));
            }
            if self.occupied_by(next, side.enemy()) {
                return Err(RuleViolation::EnemyInArea(next));
            }
            at = next;
        }
        let (cost, used_road) = self.path_cost(movers.as_slice(), start, &o.path, column)?;
        let min_move_ok = self.options.minimum_move && o.path.len() == 1;
        if cost > allowance && !min_move_ok {
            return Err(RuleViolation::TooFar {
                cost_halves: cost,
                allowance_halves: allowance,
            });
        }
        // GRID-MOV-18: halt on entering an area next to the enemy (hidden enemies revealed there too).
        if let Some((_, before_last)) = o.path.split_last() {
            for &a in before_last {
                if self.enemy_near(side, a, true) {
                    return Err(RuleViolation::MustHalt(a));
                }
            }
        }
        let started_engaged = self.engaged(o.unit)?;
        // GRID-MOV-21: a unit that began engaged may move away but not attack.
        if started_engaged {
            for &a in &o.path {
                if self.enemy_near(side, a, false) {
                    return Err(RuleViolation::EngagedMayNotAttack(a));
                }
            }
        }
        let end = o.path.last().copied().unwrap_or(start);
        // GRID-MOV-17: a move that ends adjacent to an enemy is an attack.
        let attack = !o.path.is_empty() && self.enemy_near(side, end, true);
        let contacted: Vec<&Unit> = if attack {
            self.units()
                .filter(|e| e.side() != side && self.board.adjacent(end, e.area()))
                .collect()
        } else {
            Vec::new()
        };
        let revealed: Vec<UnitId> = contacted
            .iter()
            .filter(|e| e.hidden())
            .map(|e| e.id())
            .collect();
        if attack {
            // GRID-MEL-17: wagons alone may not attack.
            if wagons_only {
                return Err(RuleViolation::WagonsMayNotAttack);
            }
            // GRID-MOV-19, GRID-MEL-18: enemies attacked must have started in the front arc (ambushers aside).
            let visible: Vec<&&Unit> = contacted.iter().filter(|e| !e.hidden()).collect();
            let in_arc = |e: &&&Unit| {
                self.board
                    .in_front_arc(start, u.facing(), e.area(), &self.options)
            };
            let ok = match self.options.attack_front_check {
                AttackFrontCheck::AllContacted => visible.iter().all(in_arc),
                AttackFrontCheck::AtLeastOne => visible.is_empty() || visible.iter().any(in_arc),
            };
            if !ok {
                let bad = visible
                    .iter()
                    .find(|e| !in_arc(e))
                    .map_or(end, |e| e.area());
                return Err(RuleViolation::NotToFront(bad));
            }
            // GRID-MOV-20: the path of an attack stays inside the front arc (not for a blunder into an
            // ambush alone, GRID-MEL-18).
            if self.options.attack_path_in_arc && !visible.is_empty() {
                for &a in &o.path {
                    if !self.board.in_front_arc(start, u.facing(), a, &self.options) {
                        return Err(RuleViolation::PathOutsideArc(a));
                    }
                }
            }
            // GRID-MOV-23: a mounted attack stays mounted.
            if has_cav && o.mount == Mount::Mounted && o.end_mount != Mount::Mounted {
                return Err(RuleViolation::MustStayMounted);
            }
        }
        // GRID-MOV-22: cavalry changes state at the end of a move only if it was not an attack.
        if attack && has_cav && o.end_mount != o.mount {
            return Err(RuleViolation::MustStayMounted);
        }
        // GRID-MOV-09: march-column bonuses lock the column (wagons are always a column, GRID-MOV-06).
        if used_road && o.end_formation != Formation::MarchColumn && !wagons_only {
            return Err(RuleViolation::MustStayInColumn);
        }
        // GRID-MOV-10: a change in place counts as a move (option: it does not).
        let changed = o.facing != u.facing()
            || o.end_formation != u.formation()
            || o.end_mount != u.mount()
            || o.mount != u.mount();
        if o.path.is_empty() && !changed {
            return Err(RuleViolation::Inconsistent("the order changes nothing"));
        }
        let counts_as_move = !o.path.is_empty() || self.options.facing_change_is_move;
        // GRID-SET-10, GRID-MOV-13: stacking at the end of movement.
        let join = if o.path.is_empty() {
            None
        } else {
            self.unit_of_side_at(side, end)
                .map(Unit::id)
                .filter(|&j| j != o.unit)
        };
        if !o.path.is_empty() {
            let here = self.stands_in(end) - if end == start { u.stand_count() } else { 0 };
            let total = here + count as u32;
            let limit = u32::from(self.options.scale.stack_limit());
            if total > limit {
                return Err(RuleViolation::OverStacked {
                    area: end,
                    stands: total,
                    limit,
                });
            }
        }
        let attacked_areas = contacted.iter().map(|e| e.area()).collect();
        Ok(MovePlan {
            moving,
            whole,
            cost,
            attack,
            used_road,
            counts_as_move,
            revealed,
            join,
            attacked_areas,
        })
    }

    /// Every area unit `id` may move to now as a whole, keeping its formation, mount and facing rules, found in
    /// one breadth-first search from its area: each area once, by the first route (fewest steps, then the board's
    /// order of neighbours) whose every step is itself a legal move. Each route is exactly one that
    /// [`Battle::check_move`] accepts (with any facing), checked step by step instead of route by route: the
    /// cost so far (GRID-MOV-02 to GRID-MOV-07), never into enemy stands (GRID-MOV-16), a halt on coming next
    /// to the enemy (GRID-MOV-18), no attack by a unit that began engaged (GRID-MOV-21), an attack's targets and
    /// route in the front arc (GRID-MOV-19, GRID-MOV-20), the column kept after the road rate (GRID-MOV-09), and
    /// stacking at the end (GRID-SET-10). Routes longer than `max_steps` areas are not searched. Empty if the
    /// unit may not move at all now (wrong step, already acted, disordered, bombarded, out of command).
    #[must_use]
    pub fn reachable(&self, id: UnitId, max_steps: usize) -> Vec<Reach> {
        let routes = self.routes(id, max_steps);
        (0..routes.len())
            .map(|i| {
                let n = routes.nodes[i];
                Reach {
                    path: routes.path(i),
                    cost_halves: n.cost_halves,
                    attack: n.attack,
                    road: n.road,
                    path_in_arc: n.path_in_arc,
                }
            })
            .collect()
    }

    /// The search of [`Battle::reachable`], its routes kept as a tree (each area's route is its parent's and one
    /// more step), so that a caller weighing the areas alone builds no route it does not take.
    #[must_use]
    pub fn routes(&self, id: UnitId, max_steps: usize) -> Routes {
        let Ok(u) = self.unit(id) else {
            return Routes::default();
        };
        let start = u.area();
        let mut out = Routes {
            start,
            nodes: Vec::new(),
        };
        let probe = MoveOrder::along(u, Vec::new());
        let Ok(basis) = self.move_basis(&probe) else {
            return out;
        };
        // Room for a typical search's areas at once, instead of growing the list step by step.
        out.nodes.reserve(32);
        let (side, facing) = (u.side(), u.facing());
        let wagons_only = basis.wagons_only;
        let column_kept = probe.end_formation == Formation::MarchColumn || wagons_only;
        let limit = u32::from(self.options.scale.stack_limit());
        let count = basis.count as u32;
        let in_arc = |a: Area| self.board.in_front_arc(start, facing, a, &self.options);
        // What the search asks of every area, gathered once into tables indexed by area: where the enemy
        // stands, which areas are next to a visible enemy or to any enemy (adjacency is symmetric), the stands
        // in each area, and which areas the search has reached.
        const ENEMY: u8 = 1;
        const NEAR_ANY: u8 = 2;
        const NEAR_VISIBLE: u8 = 4;
        const SEEN: u8 = 8;
        const INLINE_CELLS: usize = 256;
        let board = &*self.board;
        let cells = board.cell_count();
        // The tables live on the stack for a board of up to `INLINE_CELLS` areas (the scenarios' boards are
        // 120), so a search allocates nothing but its routes; a larger board gets them from the heap.
        let (mut marks_inline, mut stands_inline) = ([0u8; INLINE_CELLS], [0u32; INLINE_CELLS]);
        let (mut marks_heap, mut stands_heap) = (Vec::new(), Vec::new());
        let (marks, stands): (&mut [u8], &mut [u32]) = if cells <= INLINE_CELLS {
            (&mut marks_inline[..cells], &mut stands_inline[..cells])
        } else {
            marks_heap.resize(cells, 0);
            stands_heap.resize(cells, 0);
            (&mut marks_heap, &mut stands_heap)
        };
        for e in self.units() {
            let Some(i) = board.index_of(e.area()) else {
                continue;
            };
            if let Some(n) = stands.get_mut(i) {
                *n += e.stand_count();
            }
            if e.side() == side {
                continue;
            }
            if let Some(m) = marks.get_mut(i) {
                *m |= ENEMY;
            }
            let near = if e.hidden() {
                NEAR_ANY
            } else {
                NEAR_ANY | NEAR_VISIBLE
            };
            for (_, j) in board.neighbour_links_at(i) {
                if let Some(m) = marks.get_mut(j) {
                    *m |= near;
                }
            }
        }
        let mark = |marks: &[u8], i: usize| marks.get(i).copied().unwrap_or(0);
        let Some(start_index) = board.index_of(start) else {
            return out;
        };
        // Engaged (`Battle::engaged`): a visible unit next to a visible enemy, read from the table just filled
        // (adjacency is symmetric) instead of walking the units again.
        let started_engaged = !u.hidden() && mark(marks, start_index) & NEAR_VISIBLE != 0;
        let step_ok = |from: &RouteNode,
                       next: Area,
                       i: usize,
                       road_side: bool,
                       obstacle: bool,
                       marks: &[u8]|
         -> Option<RouteNode> {
            let m = mark(marks, i);
            if m & ENEMY != 0 {
                return None;
            }
            let t = board.terrain_at(i)?;
            let c = self
                .cost_across(
                    basis.movers.as_slice(),
                    t,
                    road_side,
                    obstacle,
                    next,
                    basis.column,
                )
                .ok()?;
            let cost = from.cost_halves + c;
            let steps = usize::from(from.depth) + 1;
            if cost > basis.allowance && !(self.options.minimum_move && steps == 1) {
                return None;
            }
            if started_engaged && m & NEAR_VISIBLE != 0 {
                return None;
            }
            let attack = m & NEAR_ANY != 0;
            let path_in_arc = from.path_in_arc && in_arc(next);
            if attack {
                if wagons_only {
                    return None;
                }
                let mut visible = self
                    .units()
                    .filter(|e| e.side() != side && !e.hidden())
                    .filter(|e| board.adjacent(next, e.area()))
                    .peekable();
                let any_visible = visible.peek().is_some();
                let ok = match self.options.attack_front_check {
                    AttackFrontCheck::AllContacted => visible.all(|e| in_arc(e.area())),
                    AttackFrontCheck::AtLeastOne => {
                        !any_visible || visible.any(|e| in_arc(e.area()))
                    }
                };
                if !ok || (self.options.attack_path_in_arc && any_visible && !path_in_arc) {
                    return None;
                }
            }
            let road = from.road || c == 1;
            if road && !column_kept {
                return None;
            }
            if stands.get(i).copied().unwrap_or(0) + count > limit {
                return None;
            }
            Some(RouteNode {
                area: next,
                index: u32::try_from(i).ok()?,
                parent: None,
                depth: u8::try_from(steps).unwrap_or(u8::MAX),
                cost_halves: cost,
                attack,
                road,
                path_in_arc,
            })
        };
        let root = RouteNode {
            area: start,
            index: u32::try_from(start_index).unwrap_or(u32::MAX),
            parent: None,
            depth: 0,
            cost_halves: 0,
            attack: false,
            road: false,
            path_in_arc: true,
        };
        if let Some(m) = marks.get_mut(start_index) {
            *m |= SEEN;
        }
        let max_steps = max_steps.min(usize::from(u8::MAX));
        // The search's queue is the routes found (from index `next_index`), after the start's own steps.
        let mut next_index = usize::MAX;
        loop {
            let (from, parent) = if next_index == usize::MAX {
                if max_steps == 0 {
                    break;
                }
                (root, None)
            } else {
                let Some(&from) = out.nodes.get(next_index) else {
                    break;
                };
                if usize::from(from.depth) >= max_steps {
                    next_index += 1;
                    continue;
                }
                // GRID-MOV-18: a route may not go on from an area next to the enemy (hidden ones too).
                if mark(marks, from.index as usize) & NEAR_ANY != 0 {
                    next_index += 1;
                    continue;
                }
                (from, u32::try_from(next_index).ok())
            };
            let from_index = from.index as usize;
            // The neighbours from the board's table, in the order `Board::neighbours` gives them.
            // An area already reached is passed over on its index alone, before its coordinates and the side's
            // road and obstacle are read.
            for (k, i) in board.neighbour_links_at(from_index) {
                if mark(marks, i) & SEEN != 0 {
                    continue;
                }
                let (n, road_side, obstacle) = board.across_side(from.area, from_index, k);
                let Some(mut r) = step_ok(&from, n, i, road_side, obstacle, marks) else {
                    continue;
                };
                r.parent = parent;
                if let Some(m) = marks.get_mut(i) {
                    *m |= SEEN;
                }
                out.nodes.push(r);
            }
            next_index = if next_index == usize::MAX {
                0
            } else {
                next_index + 1
            };
        }
        out
    }

    /// GRID-SEQ-06 and GRID-MOV-01 to GRID-MOV-25: checks and carries out a voluntary move. The order is refused,
    /// changing nothing, if any rule forbids it. Moving clears a refused flank (GRID-MOV-12), loses entrenchments
    /// (GRID-MOV-27), reveals hidden units it meets or itself (GRID-OPT-02), and joins a friendly unit in the
    /// area it ends in (GRID-MOV-14, GRID-CAS-09), which then stays in march column if the move used the road
    /// rate (GRID-MOV-09).
    pub fn move_unit(&mut self, o: &MoveOrder) -> Result<MoveReport, RuleViolation> {
        let plan = self.plan_move(o)?;
        self.move_planned(o, plan)
    }

    /// [`Battle::move_unit`] with the plan [`Battle::plan_move`] has just made of `o` on this same battle.
    pub(crate) fn move_planned(
        &mut self,
        o: &MoveOrder,
        plan: MovePlan,
    ) -> Result<MoveReport, RuleViolation> {
        let end = o.path.last().copied().unwrap_or(self.unit(o.unit)?.area());
        let mover_id = if plan.whole {
            o.unit
        } else {
            self.detach(o.unit, &plan.moving, o.detached_take_hit)?
        };
        {
            let u = self.unit_mut(mover_id)?;
            u.set_area(end);
            u.set_facing(o.facing);
            u.set_formation(o.end_formation);
            u.set_mount(o.end_mount);
            u.set_hidden(false);
            if plan.counts_as_move {
                u.flags_mut().moved = true;
                u.set_refused(None);
                u.set_entrench(0, false);
            }
            if plan.attack {
                u.flags_mut().attacked = true;
                u.set_attacked_areas(plan.attacked_areas.clone());
            }
        }
        for &r in &plan.revealed {
            if let Ok(e) = self.unit_mut(r) {
                e.set_hidden(false);
            }
        }
        let mut final_id = mover_id;
        if let Some(j) = plan.join {
            self.merge_units(j, mover_id)?;
            if plan.used_road
                && let Ok(ju) = self.unit_mut(j)
            {
                ju.set_formation(Formation::MarchColumn);
            }
            if let Ok(ju) = self.unit_mut(j) {
                ju.set_facing(o.facing);
            }
            final_id = j;
        }
        Ok(MoveReport {
            unit: final_id,
            attack: plan.attack,
            revealed: plan.revealed,
            joined: plan.join,
            cost_halves: plan.cost,
            counted_as_move: plan.counts_as_move,
        })
    }

    /// GRID-MOV-14, GRID-CAS-09: splits stands `idx` off unit `id` as a new unit in the same area (flags copied;
    /// entrenchments stay with the original; the leftover hit stays unless `take_hit` under the owner-chooses
    /// option).
    pub(crate) fn detach(
        &mut self,
        id: UnitId,
        idx: &[usize],
        take_hit: bool,
    ) -> Result<UnitId, RuleViolation> {
        let new_id = self.fresh_unit_id();
        let owner_chooses = self.options.detached_hit == DetachedHit::OwnerChooses;
        let u = self.unit_mut(id)?;
        let mut keep = Vec::new();
        let mut go = Vec::new();
        for (i, s) in u.stands().iter().enumerate() {
            if idx.contains(&i) {
                go.push(s.clone());
            } else {
                keep.push(s.clone());
            }
        }
        if go.is_empty() || keep.is_empty() {
            return Err(RuleViolation::Inconsistent(
                "a detachment leaves stands on both sides",
            ));
        }
        let mut new = u.clone();
        *new.stands_mut() = go;
        new.set_id(new_id);
        new.set_entrench(0, false);
        new.set_refused(None);
        *u.stands_mut() = keep;
        if owner_chooses && take_hit {
            let (h, half) = (u.hits(), u.half_hit());
            u.set_hits(0, half);
            new.set_hits(h, false);
        } else {
            new.set_hits(0, false);
        }
        self.insert_unit(new);
        Ok(new_id)
    }

    /// GRID-MOV-12: a unit that has not moved turns one stand to face a flank, in its owner's movement step. It
    /// is not a move; engaged units may do it; it lasts until the unit moves. A unit needs 2 stands to refuse a
    /// flank (one must still face the front; Inferred).
    pub fn refuse_flank(&mut self, id: UnitId, flank: FlankSide) -> Result<(), RuleViolation> {
        let u = self.unit(id)?;
        self.in_movement_of(u.side())?;
        if u.flags().moved {
            return Err(RuleViolation::AlreadyActed {
                unit: id,
                why: "it moved this turn",
            });
        }
        if u.stand_count() < 2 {
            return Err(RuleViolation::NotEligible {
                unit: id,
                why: "a single stand cannot refuse a flank",
            });
        }
        self.unit_mut(id)?.set_refused(Some(flank));
        Ok(())
    }

    /// GRID-MOV-26: whether a unit may work on entrenchments now: infantry (dismounted cavalry with the
    /// option) only, not moved, not engaged, not bombarded this turn (targeted, or with the option hit), once
    /// per turn, in its own movement step.
    pub fn may_entrench(&self, id: UnitId) -> Result<(), RuleViolation> {
        let u = self.unit(id)?;
        self.in_movement_of(u.side())?;
        let ok_kind = u.stands().iter().all(|s| match s.kind {
            StandType::Infantry => true,
            StandType::Cavalry => {
                self.options.dismounted_cavalry_entrench && u.mount() == Mount::Dismounted
            }
            _ => false,
        });
        let why = if !ok_kind {
            Some("only infantry entrenches")
        } else if u.flags().moved {
            Some("it moved this turn")
        } else if u.flags().entrenched {
            Some("it already worked this turn")
        } else if self.engaged(id)? {
            Some("it is engaged")
        } else if match self.options.bombarded_for_entrenching {
            BombardedMeans::Targeted => u.flags().was_bombarded,
            BombardedMeans::TookHits => u.flags().took_bombard_hits,
        } {
            Some("it was bombarded this turn")
        } else if u.entrenched() {
            Some("its entrenchments are finished")
        } else {
            None
        };
        match why {
            Some(why) => Err(RuleViolation::NotEligible { unit: id, why }),
            None => Ok(()),
        }
    }

    /// GRID-MOV-26, GRID-MOV-27: works on hasty entrenchments: adds 1d6 to the unit's running total; at 6 or
    /// more they are finished and count as cover (they belong to the unit and are lost when it moves).
    /// Returns the new total.
    pub fn entrench<D: Dice + ?Sized>(
        &mut self,
        id: UnitId,
        dice: &mut D,
    ) -> Result<u8, RuleViolation> {
        let mut next = self.clone();
        let out = next.entrench_unchecked(id, dice)?;
        crate::error::fault_check(dice)?;
        *self = next;
        Ok(out)
    }

    fn entrench_unchecked<D: Dice + ?Sized>(
        &mut self,
        id: UnitId,
        dice: &mut D,
    ) -> Result<u8, RuleViolation> {
        self.may_entrench(id)?;
        let progress = self.unit(id)?.entrench_progress();
        let total = EntrenchRoll { progress }.roll(dice);
        let u = self.unit_mut(id)?;
        u.set_entrench(total, total >= tables::ENTRENCH_TARGET);
        u.flags_mut().entrenched = true;
        Ok(total)
    }
}

/// GRID-MOV-26: one turn's work: the running total plus 1d6, capped at 6 (finished).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct EntrenchRoll {
    /// The running total before the roll (0 to 5).
    pub progress: u8,
}

impl Resolve for EntrenchRoll {
    type Outcome = u8;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> u8 {
        (u16::from(self.progress) + Die::D6.roll(dice)).min(u16::from(tables::ENTRENCH_TARGET))
            as u8
    }

    fn odds(&self) -> Dist<u8> {
        let p = u32::from(self.progress);
        Dist::die(Die::D6).map(|&f| (p + f).min(u32::from(tables::ENTRENCH_TARGET)) as u8)
    }
}

/// GRID-MOV-26: the number of working turns needed to finish entrenchments from a running total of
/// `progress`: d6s are added until the total reaches 6. From 0: finished by turn 1 with 1/6, by turn 2 with
/// 13/18, … certainly by turn 6; expected (7/6)^5 turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct EntrenchTurns {
    /// The running total already made (0 to 5).
    pub progress: u8,
}

impl Resolve for EntrenchTurns {
    type Outcome = u32;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> u32 {
        let mut total = u16::from(self.progress);
        let mut turns = 0;
        while total < u16::from(tables::ENTRENCH_TARGET) {
            total += Die::D6.roll(dice);
            turns += 1;
        }
        turns
    }

    fn odds(&self) -> Dist<u32> {
        // State: (running total capped at 6, turns so far).
        let target = u32::from(tables::ENTRENCH_TARGET);
        let mut d: Dist<(u32, u32)> = Dist::certain((u32::from(self.progress).min(target), 0));
        for _ in 0..target {
            d = d.and_then(|&(t, n)| {
                if t >= target {
                    Dist::certain((t, n))
                } else {
                    Dist::die(Die::D6).map(move |&f| ((t + f).min(target), n + 1))
                }
            });
        }
        d.map(|&(_, n)| n)
    }
}
