//! Combat between engaged units: splitting engagements into combats, dice and support, disadvantages, hits,
//! cover, commanders, markers, the hit comparison, pursuit, and the exact odds of a whole combat.

use crate::board::{Area, Facing};
use crate::casualties::{CoverHalving, Halved, HitReport};
use crate::command::CommanderRoll;
use crate::error::RuleViolation;
use crate::fire::{Skirmish, SkirmishOrder};
use crate::morale::MoraleTest;
use crate::options::{
    CancelTiming, FlankTest, FractionMode, HitAllocation, HitComparison, Options, SkirmishTiming,
};
use crate::pool::HitPool;
use crate::state::{Battle, CommanderId, Phase, Stand, Unit, UnitId};
use crate::tables::{self, Aspect, CommanderResult, MoraleResult, StandType};
use acw_core::dice::Dice;
use acw_core::{Dist, Resolve, Side};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::Arc;

/// One combat (GRID-MEL-02): one side is a single unit in one area (the centre); the other is one or more
/// units, each adjacent to it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Combat {
    /// The single unit.
    pub centre: UnitId,
    /// The units fighting it.
    pub opponents: Vec<UnitId>,
}

impl Combat {
    /// Every unit in the combat.
    pub fn units(&self) -> impl Iterator<Item = UnitId> + '_ {
        std::iter::once(self.centre).chain(self.opponents.iter().copied())
    }
}

/// GRID-MEL-10: a stand's modifier per die in combat: +1 for superior firepower or shock troops (+2 for both with
/// the option), −1 unsteady, −1 inferior only with the option; with the clamp, never below −1 (nor above the
/// largest bonus allowed). Wagons roll no dice.
#[must_use]
pub fn combat_modifier(s: &Stand, opts: &Options) -> i8 {
    let sup = s.firepower == tables::Firepower::Superior;
    let bonus: i8 = match (sup, s.shock) {
        (true, true) if opts.superior_and_shock_cumulative => 2,
        (false, false) => 0,
        _ => 1,
    };
    let inferior =
        -i8::from(s.firepower == tables::Firepower::Inferior && opts.inferior_in_close_fire);
    let net = bonus - i8::from(s.unsteady) + inferior;
    if opts.clamp_net_modifier {
        let top = if opts.superior_and_shock_cumulative {
            2
        } else {
            1
        };
        net.clamp(-1, top)
    } else {
        net
    }
}

/// Why a unit rolls half dice (GRID-MEL-07).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Disadvantages {
    /// It is disordered.
    pub disordered: bool,
    /// It is in march column.
    pub column: bool,
    /// It is attacked in flank or rear (GRID-MEL-08).
    pub flank: bool,
}

impl Disadvantages {
    /// How many apply.
    #[must_use]
    pub fn count(&self) -> u32 {
        u32::from(self.disordered) + u32::from(self.column) + u32::from(self.flank)
    }
}

/// A unit's dice in one combat (GRID-MEL-04 to GRID-MEL-07, GRID-MEL-10).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct UnitDice {
    /// The unit.
    pub unit: UnitId,
    /// Dice before halving: 2 per fighting stand (at most 3 stands) plus the inner support die.
    pub own_before: u32,
    /// Its own dice after any halving.
    pub own: HitPool,
    /// What halved them.
    pub disadvantages: Disadvantages,
}

/// GRID-MEL-04, GRID-MEL-05, GRID-MEL-07, GRID-ART-14: a unit's own combat dice (artillery fights like any
/// other stand, with its firepower), as per-die modifiers in the order they are
/// kept when halving: one die per fighting stand, then the inner support die (if the unit has supporting
/// stands, using the best of their modifiers), then each fighting stand's further dice. Halving keeps the first
/// half (rounded down, or up with the option); with stacking disadvantages two or more halve twice.
#[must_use]
pub fn own_dice(unit: &Unit, disadvantages: Disadvantages, opts: &Options) -> Vec<i8> {
    let mut list = all_own_dice(unit, opts);
    let keep = kept_dice(list.len() as u32, disadvantages, opts);
    list.truncate(keep as usize);
    list
}

/// [`own_dice`] without disadvantages: every die of the fighting stands and the inner support die, sized once.
fn all_own_dice(unit: &Unit, opts: &Options) -> Vec<i8> {
    let fighting = usize::from(opts.scale.fighting_stands());
    // The fighting stands are walked as they are needed, not gathered into a list.
    let fighters = || {
        unit.stands()
            .iter()
            .filter(|s| s.kind != StandType::Wagons)
            .take(fighting)
    };
    let fighting_idx = fighters().count();
    let supporting_best = unit
        .stands()
        .iter()
        .filter(|s| s.kind != StandType::Wagons)
        .skip(fighting_idx)
        .map(|s| combat_modifier(s, opts))
        .max();
    let rounds = opts.scale.dice_per_stand();
    let support = if supporting_best.is_some() {
        usize::from(opts.scale.inner_support_dice())
    } else {
        0
    };
    let mut list = Vec::with_capacity(usize::from(rounds) * fighting_idx + support);
    for round in 0..rounds {
        for s in fighters() {
            list.push(combat_modifier(s, opts));
        }
        if round == 0
            && let Some(m) = supporting_best
        {
            for _ in 0..opts.scale.inner_support_dice() {
                list.push(m);
            }
        }
    }
    list
}

/// How many of `n` dice a unit keeps with `disadvantages`, as [`own_dice`] halves them: all, half, or a quarter
/// when disadvantages stack with that option.
fn kept_dice(n: u32, disadvantages: Disadvantages, opts: &Options) -> u32 {
    match disadvantages.count() {
        0 => n,
        1 => opts.halving_rounding.half(n),
        _ if opts.stacking_disadvantages => opts.halving_rounding.quarter(n),
        _ => opts.halving_rounding.half(n),
    }
}

fn pool_of(mods: &[i8]) -> Result<HitPool, RuleViolation> {
    let mut p = HitPool::EMPTY;
    for &m in mods {
        p = p.with(1, m)?;
    }
    Ok(p)
}

/// The software's plan for a Combat Phase; every `None` or empty field takes the default reading.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CombatPlan {
    /// GRID-MEL-03: the split into combats (`None`: the default algorithm of GRID-MEL-02).
    pub combats: Option<Vec<Combat>>,
    /// GRID-MEL-03, GRID-OPT-05: who gave the split: without a game master, the player with the initiative
    /// (`Some(side)`); with one, the GM (`None`).
    pub split_by: Option<Side>,
    /// GRID-MEL-06: (supporting unit, index of the combat it supports) (`None`: each eligible unit supports
    /// the first combat it can, or all with the option).
    pub support: Option<Vec<(UnitId, usize)>>,
    /// GRID-FIR-08: skirmish fire rolled with combat (default timing).
    pub skirmish: Vec<SkirmishOrder>,
    /// GRID-MEL-12: hit placement for a combat's multi-unit side: (combat index, receiving units with hits).
    pub allocation: Vec<(usize, Vec<(UnitId, u32)>)>,
    /// GRID-CAS-06: tenacity markers (unit, stand index) spent to cancel a combat hit, if the unit has one
    /// pending after cover and commanders.
    pub markers: Vec<(UnitId, usize)>,
}

/// One combat's dice, as rolled.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct CombatPools {
    dice: Vec<UnitDice>,
    support: (HitPool, HitPool),
    centre_side: Side,
}

/// A Combat Phase whose dice are rolled and whose hits wait to be placed (GRID-MEL-12). Only the battle can
/// apply it ([`Battle::place_combat_hits`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RolledCombats {
    combats: Vec<Combat>,
    pools: Vec<CombatPools>,
    skirmish: Vec<(SkirmishOrder, Halved)>,
    raws: Vec<(u32, u32)>,
    markers: Vec<(UnitId, usize)>,
}

/// Hits a player must place among several units of one side in one combat (GRID-MEL-12).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct OwedAllocation {
    /// The combat's index.
    pub combat: usize,
    /// The side whose units take the hits.
    pub receiving: Side,
    /// The side that places them (the receiver, or the inflicter with that option).
    pub placer: Side,
    /// The units that share them.
    pub units: Vec<UnitId>,
    /// How many.
    pub hits: u32,
}

impl RolledCombats {
    /// The combats rolled.
    #[must_use]
    pub fn combats(&self) -> &[Combat] {
        &self.combats
    }

    /// Raw hits of each combat: (on the centre's side, on the other side).
    #[must_use]
    pub fn raw_hits(&self) -> &[(u32, u32)] {
        &self.raws
    }

    /// Where a player has a choice in placing hits: a side of several units that took hits that do not split
    /// evenly (or any hits, when the option lets the placer put them where he likes).
    #[must_use]
    pub fn owed(&self, battle: &Battle) -> Vec<OwedAllocation> {
        let mut out = Vec::new();
        // Only the side of several units (the opponents of the centre) can have a choice.
        for (ci, (c, (_, on_others))) in self.combats.iter().zip(&self.raws).enumerate() {
            let k = c.opponents.len() as u32;
            let hits = *on_others;
            let choice = match battle.options.hit_allocation {
                HitAllocation::Even => k > 1 && hits % k != 0,
                _ => k > 1 && hits > 0,
            };
            if !choice {
                continue;
            }
            let Some(receiving) = self.pools.get(ci).map(|p| p.centre_side.enemy()) else {
                continue;
            };
            let placer = if battle.options.hit_allocation == HitAllocation::Inflicter {
                receiving.enemy()
            } else {
                receiving
            };
            out.push(OwedAllocation {
                combat: ci,
                receiving,
                placer,
                units: c.opponents.clone(),
                hits,
            });
        }
        out
    }
}

/// What one combat did.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CombatReport {
    /// The combat.
    pub combat: Combat,
    /// The centre's side.
    pub centre_side: Side,
    /// Dice each unit rolled.
    pub dice: Vec<UnitDice>,
    /// Support dice per side (centre's side, other side).
    pub support: (HitPool, HitPool),
    /// Raw hits inflicted on the centre's side and on the other side.
    pub raw: (u32, u32),
    /// Hits taken (after allocation, cover, commanders and markers) by each unit.
    pub taken: Vec<(UnitId, u32)>,
    /// Commander dice: (commander, unit, result).
    pub commanders: Vec<(CommanderId, UnitId, CommanderResult)>,
    /// What recording did to each unit.
    pub recorded: Vec<(UnitId, HitReport)>,
    /// GRID-MEL-14: the side that must test morale, if any.
    pub tester: Option<Side>,
    /// The units that must test.
    pub testers: Vec<UnitId>,
    /// Areas of each side's units when the combat was fought (what a loser retreats from).
    pub areas: Vec<(UnitId, Side, Area)>,
}

impl CombatReport {
    /// Areas of the units of `side` in this combat (the enemies a unit of the other side retreats from).
    #[must_use]
    pub fn areas_of(&self, side: Side) -> Vec<Area> {
        self.areas
            .iter()
            .filter(|(_, s, _)| *s == side)
            .map(|(_, _, a)| *a)
            .collect()
    }
}

/// What a Combat Phase's dice did.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CombatPhaseReport {
    /// Skirmish results (hits after cover) and what recording them did.
    pub skirmish: Vec<(SkirmishOrder, Halved)>,
    /// Each combat.
    pub combats: Vec<CombatReport>,
}

impl Battle {
    /// GRID-MEL-02: the engagement graph: each engaged unit with the enemies adjacent to it.
    #[must_use]
    pub fn engagements(&self) -> BTreeMap<UnitId, Vec<UnitId>> {
        let mut g = BTreeMap::new();
        for u in self.units() {
            if let Ok(v) = self.adjacent_enemies(u.id())
                && !v.is_empty()
            {
                g.insert(u.id(), v);
            }
        }
        g
    }

    /// GRID-MEL-02: the default split of engagements into combats. For each connected group, a breadth-first
    /// tree is rooted at the lowest-id unit of the initiative player; from the deepest units up, each unit not
    /// yet placed joins the combat centred on its parent; a root left over joins a child's combat.
    pub fn default_combats(&self) -> Vec<Combat> {
        self.default_combats_of(&self.engagements())
    }

    /// [`Battle::default_combats`] of the engagement graph `g` (this battle's [`Battle::engagements`]).
    fn default_combats_of(&self, g: &BTreeMap<UnitId, Vec<UnitId>>) -> Vec<Combat> {
        let first = self.initiative_side().unwrap_or(Side::Union);
        let mut seen: BTreeSet<UnitId> = BTreeSet::new();
        let mut out: Vec<Combat> = Vec::new();
        let mut roots: Vec<UnitId> = g.keys().copied().collect();
        roots.sort_by_key(|id| {
            let side = self.unit(*id).map(Unit::side).unwrap_or(first);
            (side != first, *id)
        });
        for root in roots {
            if seen.contains(&root) {
                continue;
            }
            // Breadth-first tree.
            let mut parent: BTreeMap<UnitId, UnitId> = BTreeMap::new();
            let mut depth: Vec<(UnitId, usize)> = vec![(root, 0)];
            let mut q = VecDeque::from([(root, 0usize)]);
            seen.insert(root);
            while let Some((v, d)) = q.pop_front() {
                for &w in g.get(&v).map(Vec::as_slice).unwrap_or(&[]) {
                    if seen.insert(w) {
                        parent.insert(w, v);
                        depth.push((w, d + 1));
                        q.push_back((w, d + 1));
                    }
                }
            }
            depth.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            let mut centres: BTreeMap<UnitId, Vec<UnitId>> = BTreeMap::new();
            let mut assigned: BTreeSet<UnitId> = BTreeSet::new();
            for &(v, _) in &depth {
                if v == root || assigned.contains(&v) || centres.contains_key(&v) {
                    continue;
                }
                if let Some(&p) = parent.get(&v) {
                    centres.entry(p).or_default().push(v);
                    assigned.insert(v);
                }
            }
            if !centres.contains_key(&root)
                && let Some(child) = g
                    .get(&root)
                    .into_iter()
                    .flatten()
                    .copied()
                    .filter(|c| parent.get(c) == Some(&root))
                    .min()
            {
                centres.entry(child).or_default().push(root);
            }
            for (centre, mut opponents) in centres {
                opponents.sort();
                out.push(Combat { centre, opponents });
            }
        }
        out
    }

    /// GRID-MEL-01, GRID-MEL-02, GRID-MEL-03: checks a split into combats: every engaged unit is in exactly one
    /// combat (combat is compulsory), only engaged units appear, each centre's opponents are enemies adjacent to
    /// it.
    pub fn check_combats(&self, combats: &[Combat]) -> Result<(), RuleViolation> {
        self.check_combats_of(combats, &self.engagements())
    }

    /// [`Battle::check_combats`] against the engagement graph `g` (this battle's [`Battle::engagements`]).
    fn check_combats_of(
        &self,
        combats: &[Combat],
        g: &BTreeMap<UnitId, Vec<UnitId>>,
    ) -> Result<(), RuleViolation> {
        let mut seen: BTreeSet<UnitId> = BTreeSet::new();
        for c in combats {
            let centre = self.unit(c.centre)?;
            if c.opponents.is_empty() {
                return Err(RuleViolation::BadCombatSplit("a combat needs two sides"));
            }
            for u in c.units() {
                if !seen.insert(u) {
                    return Err(RuleViolation::BadCombatSplit(
                        "a unit is in more than one combat",
                    ));
                }
                if !g.contains_key(&u) {
                    return Err(RuleViolation::BadCombatSplit("only engaged units fight"));
                }
            }
            for &o in &c.opponents {
                let ou = self.unit(o)?;
                if ou.side() == centre.side() || !self.board.adjacent(ou.area(), centre.area()) {
                    return Err(RuleViolation::BadCombatSplit(
                        "every opponent is an enemy adjacent to the single unit",
                    ));
                }
            }
        }
        if g.keys().any(|u| !seen.contains(u)) {
            return Err(RuleViolation::BadCombatSplit(
                "every engaged unit must fight",
            ));
        }
        Ok(())
    }

    /// GRID-MEL-03, GRID-OPT-05: who may split the engagements: the player with the initiative when there is no
    /// game master, the GM (`None`) when there is one.
    pub fn check_split_author(&self, by: Option<Side>) -> Result<(), RuleViolation> {
        match (self.options.game_master, by) {
            (true, None) => Ok(()),
            (true, Some(_)) => Err(RuleViolation::BadCombatSplit(
                "with a game master, the GM splits the combats",
            )),
            (false, Some(s)) if Some(s) == self.initiative_side() => Ok(()),
            (false, _) => Err(RuleViolation::BadCombatSplit(
                "without a game master, the player with the initiative splits the combats",
            )),
        }
    }

    /// GRID-MEL-08: whether a unit is attacked in flank or rear in `combat`: an enemy of its combat stands on a
    /// flank or rear side not covered by a refused flank (with the option, only an enemy that moved in this
    /// turn counts).
    pub fn attacked_in_flank(&self, id: UnitId, combat: &Combat) -> Result<bool, RuleViolation> {
        let u = self.unit(id)?;
        // The enemies read where the combat keeps them, not copied into a list.
        let centre = [combat.centre];
        let enemies: &[UnitId] = if id == combat.centre {
            &combat.opponents
        } else {
            &centre
        };
        for &e in enemies {
            let eu = self.unit(e)?;
            if self.options.flank_test == FlankTest::OnlyIfMovedIn && !eu.flags().attacked {
                continue;
            }
            if let Some(Aspect::Flank | Aspect::Rear) =
                self.board
                    .aspect(u.area(), u.facing(), u.refused(), eu.area(), &self.options)
            {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// GRID-MEL-04 to GRID-MEL-08: a unit's own dice in a combat.
    pub fn unit_dice(&self, id: UnitId, combat: &Combat) -> Result<UnitDice, RuleViolation> {
        let u = self.unit(id)?;
        let dis = Disadvantages {
            disordered: u.disordered(),
            column: u.in_column(),
            flank: self.attacked_in_flank(id, combat)?,
        };
        // The dice without disadvantages, then those kept: `own_dice` worked out once.
        let mut own = all_own_dice(u, &self.options);
        let full = own.len() as u32;
        own.truncate(kept_dice(full, dis, &self.options) as usize);
        Ok(UnitDice {
            unit: id,
            own_before: full,
            own: pool_of(&own)?,
            disadvantages: dis,
        })
    }

    /// GRID-MEL-06: whether `supporter` may support `combat`: a friendly unit of one side of the combat, not
    /// engaged, adjacent to a unit of its side in the combat, with a stand that rolls dice (and, without the
    /// option, neither disordered nor in march column).
    pub fn may_support(&self, supporter: UnitId, combat: &Combat) -> Result<Side, RuleViolation> {
        let s = self.unit(supporter)?;
        let not = |why| RuleViolation::NotEligible {
            unit: supporter,
            why,
        };
        if self.engaged(supporter)? {
            return Err(not("an engaged unit does not support"));
        }
        if s.all_wagons() {
            return Err(not("wagons roll no dice"));
        }
        if !self.options.disordered_or_column_support && (s.disordered() || s.in_column()) {
            return Err(not("disordered units and columns may not support"));
        }
        let adjacent_friend = combat.units().any(|u| {
            self.unit(u)
                .map(|x| x.side() == s.side() && self.board.adjacent(x.area(), s.area()))
                .unwrap_or(false)
        });
        if !adjacent_friend {
            return Err(not("it is not next to a friendly unit in the combat"));
        }
        Ok(s.side())
    }

    /// GRID-MEL-06: the default support: every eligible unit supports the first combat it can (every one with
    /// the option).
    #[must_use]
    pub fn default_support(&self, combats: &[Combat]) -> Vec<(UnitId, usize)> {
        let mut out = Vec::new();
        for u in self.units() {
            for (i, c) in combats.iter().enumerate() {
                if self.may_support(u.id(), c).is_ok() {
                    out.push((u.id(), i));
                    if !self.options.support_every_combat {
                        break;
                    }
                }
            }
        }
        out
    }

    fn check_support(
        &self,
        combats: &[Combat],
        support: &[(UnitId, usize)],
    ) -> Result<(), RuleViolation> {
        let mut used: BTreeMap<UnitId, BTreeSet<usize>> = BTreeMap::new();
        for &(u, i) in support {
            let c = combats.get(i).ok_or(RuleViolation::Inconsistent(
                "support names a combat that does not exist",
            ))?;
            self.may_support(u, c)?;
            let e = used.entry(u).or_default();
            if !e.insert(i) || (!self.options.support_every_combat && e.len() > 1) {
                return Err(RuleViolation::NotEligible {
                    unit: u,
                    why: "a unit supports one combat a turn",
                });
            }
        }
        Ok(())
    }

    /// GRID-MEL-12: whether `given` is a legal placement of the hits `owed` describes, or why not: every hit
    /// placed, only on the units that share them, each unit once; with the default reading as evenly as
    /// possible (each unit the same number, give or take one).
    pub fn check_allocation(
        &self,
        owed: &OwedAllocation,
        given: &[(UnitId, u32)],
    ) -> Result<(), RuleViolation> {
        let total: u32 = given.iter().map(|(_, h)| h).sum();
        let distinct: BTreeSet<UnitId> = given.iter().map(|(u, _)| *u).collect();
        if total != owed.hits
            || distinct.len() != given.len()
            || !given.iter().all(|(u, _)| owed.units.contains(u))
        {
            return Err(RuleViolation::BadAllocation(
                "every hit goes to one of the units in the combat, each unit named once",
            ));
        }
        let k = owed.units.len() as u32;
        if self.options.hit_allocation == HitAllocation::Even && k > 0 {
            let each = |u: &UnitId| given.iter().find(|(x, _)| x == u).map_or(0, |(_, h)| *h);
            if !owed
                .units
                .iter()
                .all(|u| each(u) == owed.hits / k || each(u) == owed.hits.div_ceil(k))
            {
                return Err(RuleViolation::BadAllocation(
                    "hits are spread as evenly as possible",
                ));
            }
        }
        Ok(())
    }

    /// GRID-MEL-06: a supporting unit's die: one, with the best modifier among its stands.
    fn support_die(&self, u: &Unit) -> i8 {
        u.stands()
            .iter()
            .filter(|s| s.kind != StandType::Wagons)
            .map(|s| combat_modifier(s, &self.options))
            .max()
            .unwrap_or(0)
    }

    /// GRID-MEL-06: one side's support dice in a combat, one per supporting unit (halved, keeping the best,
    /// with the option that halves outside support).
    fn support_pool(&self, mods: &[i8]) -> Result<HitPool, RuleViolation> {
        let p = pool_of(mods)?;
        Ok(if self.options.halve_outside_support {
            p.best(self.options.halving_rounding.half(p.dice()))
        } else {
            p
        })
    }

    fn in_cover_for_combat(&self, u: &Unit) -> bool {
        let t = self.board.terrain(u.area()).ok();
        let cover = u.own_cover() || t.is_some_and(|t| t.gives_cover());
        let advantage = t.is_some_and(|t| t.advantageous) && !u.flags().attacked;
        cover || advantage
    }

    fn allocate(
        &self,
        ci: usize,
        units: &[UnitId],
        hits: u32,
        allocation: &[(usize, Vec<(UnitId, u32)>)],
    ) -> Result<Vec<(UnitId, u32)>, RuleViolation> {
        let given = allocation
            .iter()
            .find(|(i, v)| *i == ci && v.iter().all(|(u, _)| units.contains(u)));
        let k = units.len() as u32;
        if k == 1 {
            return Ok(vec![(units[0], hits)]);
        }
        let even = |v: &[(UnitId, u32)]| {
            v.iter()
                .all(|(_, h)| *h == hits / k || *h == hits.div_ceil(k))
        };
        match given {
            Some((_, v)) => {
                let total: u32 = v.iter().map(|(_, h)| h).sum();
                let distinct: BTreeSet<UnitId> = v.iter().map(|(u, _)| *u).collect();
                if total != hits || distinct.len() != v.len() {
                    return Err(RuleViolation::BadAllocation("the hits given do not add up"));
                }
                let mut out: Vec<(UnitId, u32)> = units.iter().map(|u| (*u, 0)).collect();
                for (u, h) in v {
                    if let Some(slot) = out.iter_mut().find(|(x, _)| x == u) {
                        slot.1 = *h;
                    }
                }
                if self.options.hit_allocation == HitAllocation::Even && !even(&out) {
                    return Err(RuleViolation::BadAllocation(
                        "hits are spread as evenly as possible",
                    ));
                }
                Ok(out)
            }
            None => Ok(units
                .iter()
                .enumerate()
                .map(|(i, u)| (*u, hits / k + u32::from((i as u32) < hits % k)))
                .collect()),
        }
    }

    /// GRID-SEQ-07, GRID-MEL-01 to GRID-MEL-14, GRID-CMD-06, GRID-CAS-06, GRID-FIR-06: the Combat Phase's dice.
    /// Everything is checked first (a refusal rolls nothing). Then skirmish fire is rolled, then every combat's
    /// dice (each side's units' own dice plus support dice); then per combat hits are allocated, halved for
    /// cover or an advantageous position, cut by commanders' dice (after cover by default) and by tenacity
    /// markers; then skirmish and combat hits are recorded together, stands removed and destroyed units
    /// removed; last, in each combat that still has both sides, the side that took more hits must test
    /// morale: the battle records the tests owed ([`Battle::owed_morale_tests`]), which
    /// [`Battle::test_morale`] then rolls, and the phase cannot end before they and their retreats are done.
    pub fn resolve_combats<D: Dice + ?Sized>(
        &mut self,
        plan: &CombatPlan,
        dice: &mut D,
    ) -> Result<CombatPhaseReport, RuleViolation> {
        let mut next = self.clone();
        let rolled = next.roll_combats_unchecked(plan, dice)?;
        let out = next.place_hits_unchecked(rolled, &plan.allocation, dice)?;
        crate::error::fault_check(dice)?;
        *self = next;
        Ok(out)
    }

    /// GRID-SEQ-07, GRID-MEL-12: the first half of [`Battle::resolve_combats`]: checks the plan (its
    /// `allocation` is not used) and rolls skirmish fire and every combat's dice. The battle keeps the dice
    /// ([`Battle::pending_combats`]); the players owed a choice see the hits ([`RolledCombats::owed`]) and place
    /// them with [`Battle::place_combat_hits`], the one way the roll takes effect, once. The phase cannot end
    /// while it waits.
    pub fn roll_combats<D: Dice + ?Sized>(
        &mut self,
        plan: &CombatPlan,
        dice: &mut D,
    ) -> Result<&RolledCombats, RuleViolation> {
        let rolled = self.roll_combats_unchecked(plan, dice)?;
        crate::error::fault_check(dice)?;
        Ok(self.rolled_combats.insert(Arc::new(rolled)))
    }

    /// The Combat Phase's dice rolled and waiting for their hits to be placed.
    #[must_use]
    pub fn pending_combats(&self) -> Option<&RolledCombats> {
        self.rolled_combats.as_deref()
    }

    /// GRID-MEL-12 and the rest of [`Battle::resolve_combats`]: places the rolled hits — `allocation` gives
    /// (combat index, units of one side with the hits each takes) where a side of several units has a choice;
    /// any other split is the even one — then cover, commanders, markers, recording and the comparison.
    /// Refused, changing nothing, if nothing was rolled or an allocation breaks the rules.
    pub fn place_combat_hits<D: Dice + ?Sized>(
        &mut self,
        allocation: &[(usize, Vec<(UnitId, u32)>)],
        dice: &mut D,
    ) -> Result<CombatPhaseReport, RuleViolation> {
        if self.rolled_combats.is_none() {
            return Err(RuleViolation::Inconsistent(
                "no combat waits for its hits: roll the combats first (they apply once)",
            ));
        }
        let mut next = self.clone();
        let out = next.place_combat_hits_in_place(allocation, dice)?;
        *self = next;
        Ok(out)
    }

    /// [`Battle::place_combat_hits`] carried out on this battle itself, for a caller that works on a copy of its own and drops it
    /// on a refusal (the game's orders): a refusal may leave this battle partly changed.
    pub(crate) fn place_combat_hits_in_place<D: Dice + ?Sized>(
        &mut self,
        allocation: &[(usize, Vec<(UnitId, u32)>)],
        dice: &mut D,
    ) -> Result<CombatPhaseReport, RuleViolation> {
        let Some(rolled) = self.rolled_combats.take() else {
            return Err(RuleViolation::Inconsistent(
                "no combat waits for its hits: roll the combats first (they apply once)",
            ));
        };
        let out = self.place_hits_unchecked(Arc::unwrap_or_clone(rolled), allocation, dice)?;
        crate::error::fault_check(dice)?;
        Ok(out)
    }

    /// Stage one of a Combat Phase: every check, then skirmish fire and every combat's dice, nothing applied.
    fn roll_combats_unchecked<D: Dice + ?Sized>(
        &self,
        plan: &CombatPlan,
        dice: &mut D,
    ) -> Result<RolledCombats, RuleViolation> {
        self.phase_is(Phase::Combat)?;
        if self.combat_done {
            return Err(RuleViolation::Inconsistent(
                "combat was already resolved this turn",
            ));
        }
        if self.rolled_combats.is_some() {
            return Err(RuleViolation::Inconsistent(
                "the combats were already rolled; place their hits",
            ));
        }
        // The engagement graph worked out once, for the default split and its check alike.
        let engaged = self.engagements();
        let combats = match &plan.combats {
            Some(c) => {
                self.check_split_author(plan.split_by)?;
                c.clone()
            }
            None => self.default_combats_of(&engaged),
        };
        self.check_combats_of(&combats, &engaged)?;
        let support = match &plan.support {
            Some(s) => s.clone(),
            None => self.default_support(&combats),
        };
        self.check_support(&combats, &support)?;
        if !plan.skirmish.is_empty() && self.options.skirmish_timing != SkirmishTiming::CombatPhase
        {
            return Err(RuleViolation::WrongPhase {
                now: "Combat",
                needed: "the skirmish phase set by the timing option",
            });
        }
        for &(u, i) in &plan.markers {
            let s = self
                .unit(u)?
                .stands()
                .get(i)
                .ok_or(RuleViolation::NoSuchStand { unit: u, index: i })?;
            if !s.tenacity {
                return Err(RuleViolation::NoMarker(u));
            }
        }
        // Skirmish pools (checked now, rolled first).
        let mut skirmish = Vec::new();
        for o in &plan.skirmish {
            if self.unit(o.firer)?.flags().skirmished {
                return Err(RuleViolation::NotEligible {
                    unit: o.firer,
                    why: "a unit skirmishes once a turn",
                });
            }
            let t = self.unit(o.target)?;
            skirmish.push((
                *o,
                Skirmish {
                    pool: self.skirmish_dice(*o)?,
                    cover: self.in_cover(t),
                    fractions: self.options.fractions,
                    carry: false,
                },
            ));
        }
        // Combat pools.
        let mut pools: Vec<CombatPools> = Vec::new();
        for (ci, c) in combats.iter().enumerate() {
            let centre_side = self.unit(c.centre)?.side();
            let mut dice_v = Vec::new();
            for u in c.units() {
                dice_v.push(self.unit_dice(u, c)?);
            }
            let mut sup = (Vec::new(), Vec::new());
            for &(s, i) in &support {
                if i == ci {
                    let su = self.unit(s)?;
                    let m = self.support_die(su);
                    if su.side() == centre_side {
                        sup.0.push(m);
                    } else {
                        sup.1.push(m);
                    }
                }
            }
            pools.push(CombatPools {
                dice: dice_v,
                support: (self.support_pool(&sup.0)?, self.support_pool(&sup.1)?),
                centre_side,
            });
        }
        // Roll: skirmish first, then each combat (centre's side, then the other side).
        let skirmish_results: Vec<(SkirmishOrder, Halved)> = skirmish
            .into_iter()
            .map(|(o, s)| (o, s.roll(dice)))
            .collect();
        let mut raws: Vec<(u32, u32)> = Vec::new();
        for (c, p) in combats.iter().zip(&pools) {
            let mut by_centre_side = 0;
            let mut by_other = 0;
            for d in &p.dice {
                let h = d.own.roll(dice);
                if d.unit == c.centre {
                    by_centre_side += h;
                } else {
                    by_other += h;
                }
            }
            by_centre_side += p.support.0.roll(dice);
            by_other += p.support.1.roll(dice);
            // raw = (hits on the centre's side, hits on the other side)
            raws.push((by_other, by_centre_side));
        }
        Ok(RolledCombats {
            combats,
            pools,
            skirmish: skirmish_results,
            raws,
            markers: plan.markers.clone(),
        })
    }

    /// Stage two of a Combat Phase: places each side's hits (GRID-MEL-12), then reductions, recording and the
    /// comparison.
    fn place_hits_unchecked<D: Dice + ?Sized>(
        &mut self,
        rolled: RolledCombats,
        allocation: &[(usize, Vec<(UnitId, u32)>)],
        dice: &mut D,
    ) -> Result<CombatPhaseReport, RuleViolation> {
        let RolledCombats {
            combats,
            pools,
            skirmish: skirmish_results,
            raws,
            markers,
        } = rolled;
        // Reductions, per combat.
        let mut pending: BTreeMap<UnitId, (u32, bool)> = BTreeMap::new();
        let mut raw_taken: BTreeMap<UnitId, u32> = BTreeMap::new();
        let mut commander_log: Vec<Vec<(CommanderId, UnitId, CommanderResult)>> = Vec::new();
        let mut markers: Vec<(UnitId, usize)> = markers;
        for (ci, c) in combats.iter().enumerate() {
            let (on_centre, on_others) = raws[ci];
            let mut log = Vec::new();
            let mut alloc = self.allocate(ci, &[c.centre], on_centre, allocation)?;
            alloc.extend(self.allocate(ci, &c.opponents, on_others, allocation)?);
            for (u, h) in alloc {
                raw_taken.insert(u, h);
                let unit = self.unit(u)?;
                let (side, area) = (unit.side(), unit.area());
                let cover = self.in_cover_for_combat(unit);
                let mut carry = unit.half_hit();
                let mut hits = h;
                let mode = self.options.fractions;
                let timing = self.options.commander_cancel;
                let halve = |hits: u32, carry: bool, dice: &mut D| -> Halved {
                    CoverHalving { hits, mode, carry }.roll(dice)
                };
                if cover && timing == CancelTiming::AfterCover {
                    let x = halve(hits, carry, dice);
                    hits = x.hits;
                    carry = x.carry;
                }
                let here: Vec<CommanderId> = self
                    .commanders()
                    .filter(|k| k.side() == side && k.present() && k.area() == area)
                    .map(|k| k.id())
                    .collect();
                for k in here {
                    let r = CommanderRoll.roll(dice);
                    match r {
                        CommanderResult::CancelHit => hits = hits.saturating_sub(1),
                        CommanderResult::Removed => self.lose_commander(k),
                        CommanderResult::NoEffect => {}
                    }
                    log.push((k, u, r));
                }
                if cover && timing == CancelTiming::BeforeCover {
                    let x = halve(hits, carry, dice);
                    hits = x.hits;
                    carry = x.carry;
                }
                let mut kept = Vec::new();
                for (mu, mi) in markers.drain(..) {
                    if mu == u && hits > 0 && self.take_marker(mu, mi)? {
                        hits -= 1;
                    } else {
                        kept.push((mu, mi));
                    }
                }
                markers = kept;
                pending.insert(u, (hits, carry));
            }
            commander_log.push(log);
        }
        // Record everything together (skirmish hits too).
        let mut recorded: BTreeMap<UnitId, HitReport> = BTreeMap::new();
        let mut extra: BTreeMap<UnitId, u32> = BTreeMap::new();
        for (o, h) in &skirmish_results {
            *extra.entry(o.target).or_default() += h.hits;
            if let Ok(f) = self.unit_mut(o.firer) {
                f.flags_mut().skirmished = true;
                f.set_hidden(false);
            }
        }
        let areas_before: Vec<Vec<(UnitId, Side, Area)>> = combats
            .iter()
            .map(|c| {
                c.units()
                    .filter_map(|u| self.unit(u).ok().map(|x| (u, x.side(), x.area())))
                    .collect()
            })
            .collect();
        let mut targets: BTreeSet<UnitId> = pending.keys().copied().collect();
        targets.extend(extra.keys().copied());
        for u in targets {
            if self.unit(u).is_err() {
                continue;
            }
            let (h, carry) = pending
                .get(&u)
                .copied()
                .unwrap_or((0, self.unit(u)?.half_hit()));
            self.set_half_hit(u, carry)?;
            let total = h + extra.get(&u).copied().unwrap_or(0);
            recorded.insert(u, self.apply_hits(u, total)?);
        }
        self.combat_done = true;
        // Compare.
        let mut reports = Vec::new();
        for (ci, c) in combats.iter().enumerate() {
            let p = &pools[ci];
            let side_of = |u: UnitId| {
                areas_before[ci]
                    .iter()
                    .find(|(x, _, _)| *x == u)
                    .map(|(_, s, _)| *s)
            };
            let count = |side: Side| -> u32 {
                c.units()
                    .filter(|u| side_of(*u) == Some(side))
                    .map(|u| match self.options.hit_comparison {
                        HitComparison::AfterReductions => pending.get(&u).map_or(0, |x| x.0),
                        HitComparison::Raw => raw_taken.get(&u).copied().unwrap_or(0),
                    })
                    .sum()
            };
            let cs = p.centre_side;
            let alive = |side: Side| {
                c.units()
                    .any(|u| side_of(u) == Some(side) && self.unit(u).is_ok())
            };
            let (a, b) = (count(cs), count(cs.enemy()));
            let tester = if alive(cs) && alive(cs.enemy()) {
                match a.cmp(&b) {
                    std::cmp::Ordering::Greater => Some(cs),
                    std::cmp::Ordering::Less => Some(cs.enemy()),
                    std::cmp::Ordering::Equal => None,
                }
            } else {
                None
            };
            let testers = tester.map_or_else(Vec::new, |s| {
                c.units()
                    .filter(|u| side_of(*u) == Some(s) && self.unit(*u).is_ok())
                    .collect()
            });
            if let Some(t) = tester {
                let enemies: Vec<Area> = areas_before[ci]
                    .iter()
                    .filter(|(_, s, _)| *s == t.enemy())
                    .map(|(_, _, a)| *a)
                    .collect();
                for &u in &testers {
                    if !self.owed_tests.iter().any(|o| o.unit == u) {
                        self.owed_tests.push(crate::morale::OwedTest {
                            unit: u,
                            enemies: enemies.clone(),
                        });
                    }
                }
            }
            reports.push(CombatReport {
                combat: c.clone(),
                centre_side: cs,
                dice: p.dice.clone(),
                support: p.support,
                raw: raws[ci],
                taken: c
                    .units()
                    .map(|u| (u, pending.get(&u).map_or(0, |x| x.0)))
                    .collect(),
                commanders: commander_log.get(ci).cloned().unwrap_or_default(),
                recorded: c
                    .units()
                    .filter_map(|u| recorded.get(&u).map(|r| (u, *r)))
                    .collect(),
                tester,
                testers,
                areas: areas_before[ci].clone(),
            });
        }
        Ok(CombatPhaseReport {
            skirmish: skirmish_results,
            combats: reports,
        })
    }

    /// GRID-MEL-16: after the enemy it attacked retreated (any retreat, a recoil too) or was destroyed, a unit
    /// that attacked this turn may move into that area: it must be adjacent, now free of enemies, enterable,
    /// and within the stacking limit; no command roll is needed; it may face any side. Once per turn; it
    /// loses its entrenchments. A pursuit that ends next to the enemy fights next turn.
    pub fn pursue(&mut self, id: UnitId, into: Area, facing: Facing) -> Result<(), RuleViolation> {
        let join = self.check_pursue(id, into, facing)?;
        let u = self.unit(id)?;
        let (side, from) = (u.side(), u.area());
        let u = self.unit_mut(id)?;
        u.set_area(into);
        u.set_facing(facing);
        u.set_entrench(0, false);
        u.set_refused(None);
        u.flags_mut().moved = true;
        u.set_attacked_areas(Vec::new());
        self.vacated.push((side, from));
        if let Some(j) = join {
            self.merge_units(j, id)?;
        }
        Ok(())
    }

    /// The checks of [`Battle::pursue`] (GRID-MEL-16), changing nothing: the friendly unit the pursuer would
    /// join in `into`, if any. Whatever they accept, `pursue` carries out: what follows them (moving the unit
    /// and merging it with a friendly unit of its side in the area it enters) cannot fail.
    pub(crate) fn check_pursue(
        &self,
        id: UnitId,
        into: Area,
        facing: Facing,
    ) -> Result<Option<UnitId>, RuleViolation> {
        self.phase_is(Phase::Combat)?;
        let u = self.unit(id)?;
        let side = u.side();
        let no = RuleViolation::BadPursuit;
        if !u.flags().attacked {
            return Err(no("only a unit that attacked this turn pursues"));
        }
        if !u.attacked_areas().contains(&into) {
            return Err(no("it may only take the area it attacked"));
        }
        if !self.vacated_this_turn(side.enemy(), into) {
            return Err(no("the enemy there did not retreat or die"));
        }
        if self.occupied_by(into, side.enemy()) {
            return Err(no("the area still holds the enemy"));
        }
        Facing::new(self.board.kind(), facing.index())?;
        self.step_cost(&u.movers(), u.area(), into, false)?;
        let total = self.stands_in(into) + u.stand_count();
        let limit = u32::from(self.options.scale.stack_limit());
        if total > limit {
            return Err(RuleViolation::OverStacked {
                area: into,
                stands: total,
                limit,
            });
        }
        Ok(self.unit_of_side_at(side, into).map(Unit::id))
    }
}

/// One side of a combat, for the exact odds of GRID-MEL-19.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CombatSide {
    /// All the dice this side rolls (its units' own dice and its support dice).
    pub pool: HitPool,
    /// It is in cover or holds an advantageous position (GRID-MEL-11).
    pub cover: bool,
    /// A commander is with it (GRID-CMD-06).
    pub commander: bool,
    /// Hits that destroy it (2 per stand less its leftover hit, GRID-CAS-03); 0 means it cannot be destroyed.
    pub capacity: u32,
    /// Its morale modifier (GRID-MOR-01).
    pub morale: i8,
}

/// Who must test after a combat (GRID-MEL-14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Tester {
    /// Side A took more hits.
    A,
    /// Side B took more hits.
    B,
}

/// The outcome of one combat between two single units (GRID-MEL-19).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CombatOutcome {
    /// Hits taken by A (after cover and its commander).
    pub hits_on_a: u32,
    /// Hits taken by B.
    pub hits_on_b: u32,
    /// A's commander was removed.
    pub a_commander_lost: bool,
    /// B's commander was removed.
    pub b_commander_lost: bool,
    /// A was destroyed.
    pub a_destroyed: bool,
    /// B was destroyed.
    pub b_destroyed: bool,
    /// Who must test morale.
    pub tester: Option<Tester>,
    /// The tester's morale result.
    pub morale: Option<MoraleResult>,
}

/// GRID-MEL-19: the exact joint outcome of a combat between two single units: each side's dice (5+ hits), cover
/// halving (fraction mode of GRID-CAS-05), each side's commander die (cancel after or before cover), destruction
/// (removed before the test), the hit comparison (after reductions, or raw with the option) and the loser's
/// morale test. Tenacity markers are the owner's choice and are left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CombatOdds {
    /// Side A.
    pub a: CombatSide,
    /// Side B.
    pub b: CombatSide,
    /// Fraction mode.
    pub fractions: FractionMode,
    /// When commanders cancel.
    pub cancel: CancelTiming,
    /// Which hits are compared.
    pub comparison: HitComparison,
}

impl CombatOdds {
    /// Two sides with the default readings.
    #[must_use]
    pub fn new(a: CombatSide, b: CombatSide) -> CombatOdds {
        CombatOdds {
            a,
            b,
            fractions: FractionMode::RoundDown,
            cancel: CancelTiming::AfterCover,
            comparison: HitComparison::AfterReductions,
        }
    }

    fn reduce_dist(&self, side: &CombatSide, raw: u32) -> Dist<(u32, bool)> {
        let halve = |h: u32| -> Dist<u32> {
            if side.cover {
                CoverHalving {
                    hits: h,
                    mode: self.fractions,
                    carry: false,
                }
                .odds()
                .map(|x| x.hits)
            } else {
                Dist::certain(h)
            }
        };
        let commander = |h: u32| -> Dist<(u32, bool)> {
            if side.commander {
                CommanderRoll.odds().map(|r| match r {
                    CommanderResult::CancelHit => (h.saturating_sub(1), false),
                    CommanderResult::Removed => (h, true),
                    CommanderResult::NoEffect => (h, false),
                })
            } else {
                Dist::certain((h, false))
            }
        };
        match self.cancel {
            CancelTiming::AfterCover => halve(raw).and_then(|&h| commander(h)),
            CancelTiming::BeforeCover => {
                commander(raw).and_then(|&(h, lost)| halve(h).map(move |&x| (x, lost)))
            }
        }
    }

    fn reduce<D: Dice + ?Sized>(&self, side: &CombatSide, raw: u32, dice: &mut D) -> (u32, bool) {
        let mut h = raw;
        let mut lost = false;
        let halve = |h: u32, dice: &mut D| {
            if side.cover {
                CoverHalving {
                    hits: h,
                    mode: self.fractions,
                    carry: false,
                }
                .roll(dice)
                .hits
            } else {
                h
            }
        };
        if self.cancel == CancelTiming::AfterCover {
            h = halve(h, dice);
        }
        if side.commander {
            match CommanderRoll.roll(dice) {
                CommanderResult::CancelHit => h = h.saturating_sub(1),
                CommanderResult::Removed => lost = true,
                CommanderResult::NoEffect => {}
            }
        }
        if self.cancel == CancelTiming::BeforeCover {
            h = halve(h, dice);
        }
        (h, lost)
    }

    fn finish(
        &self,
        raw_a: u32,
        raw_b: u32,
        a: (u32, bool),
        b: (u32, bool),
    ) -> (CombatOutcome, Option<i8>) {
        let dead = |s: &CombatSide, h: u32| s.capacity > 0 && h >= s.capacity;
        let (ad, bd) = (dead(&self.a, a.0), dead(&self.b, b.0));
        let (ca, cb) = match self.comparison {
            HitComparison::AfterReductions => (a.0, b.0),
            HitComparison::Raw => (raw_a, raw_b),
        };
        let tester = if ad || bd {
            None
        } else {
            match ca.cmp(&cb) {
                std::cmp::Ordering::Greater => Some(Tester::A),
                std::cmp::Ordering::Less => Some(Tester::B),
                std::cmp::Ordering::Equal => None,
            }
        };
        let modifier = tester.map(|t| match t {
            Tester::A => self.a.morale,
            Tester::B => self.b.morale,
        });
        (
            CombatOutcome {
                hits_on_a: a.0,
                hits_on_b: b.0,
                a_commander_lost: a.1,
                b_commander_lost: b.1,
                a_destroyed: ad,
                b_destroyed: bd,
                tester,
                morale: None,
            },
            modifier,
        )
    }
}

impl Resolve for CombatOdds {
    type Outcome = CombatOutcome;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> CombatOutcome {
        let hits_by_a = self.a.pool.roll(dice);
        let hits_by_b = self.b.pool.roll(dice);
        let on_a = self.reduce(&self.a, hits_by_b, dice);
        let on_b = self.reduce(&self.b, hits_by_a, dice);
        let (mut out, m) = self.finish(hits_by_b, hits_by_a, on_a, on_b);
        if let Some(m) = m {
            out.morale = Some(MoraleTest { modifier: m }.roll(dice));
        }
        out
    }

    fn odds(&self) -> Dist<CombatOutcome> {
        let by_a = self.a.pool.odds();
        let by_b = self.b.pool.odds();
        by_a.product(&by_b).and_then(|&(ha, hb)| {
            let ra = self.reduce_dist(&self.a, hb);
            let rb = self.reduce_dist(&self.b, ha);
            ra.product(&rb).and_then(|&(a, b)| {
                let (out, m) = self.finish(hb, ha, a, b);
                match m {
                    None => Dist::certain(out),
                    Some(m) => MoraleTest { modifier: m }
                        .odds()
                        .map(move |&r| CombatOutcome {
                            morale: Some(r),
                            ..out
                        }),
                }
            })
        })
    }
}

/// One unit of a side in [`UnitCombatOdds`]: its own cover, commander, strength and morale.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CombatUnit {
    /// It is in cover or holds an advantageous position (GRID-MEL-11).
    pub cover: bool,
    /// A commander is with it (GRID-CMD-06).
    pub commander: bool,
    /// Hits that destroy it (GRID-CAS-03); 0 means it cannot be destroyed.
    pub capacity: u32,
    /// Its morale modifier (GRID-MOR-01).
    pub morale: i8,
}

/// The outcome of a combat of several units a side, unit by unit (GRID-MEL-19).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct UnitCombatOutcome {
    /// Hits each unit of side A took (after its cover and its commander), in the order given.
    pub hits_on_a: Vec<u32>,
    /// Hits each unit of side B took.
    pub hits_on_b: Vec<u32>,
    /// Each unit of A destroyed.
    pub a_destroyed: Vec<bool>,
    /// Each unit of B destroyed.
    pub b_destroyed: Vec<bool>,
    /// Who must test morale (GRID-MEL-14).
    pub tester: Option<Tester>,
    /// Each surviving unit of the testing side with its morale result, one die each (GRID-MOR-04).
    pub morale: Vec<(usize, MoraleResult)>,
}

/// GRID-MEL-12, GRID-MEL-19: the exact outcome of a whole combat with several units a side, each with its own
/// cover, commander and strength. Each side rolls its pool (its units' own dice and its support); the hits it
/// scores are shared out evenly among the other side's units in the order given (the first units take the odd
/// hits, the rules' default split); each unit then halves its share for its own cover and rolls for its own
/// commander; destroyed units are removed; the side that took more hits (after reductions, or raw with the
/// option) tests, every surviving unit of it with its own die. Tenacity markers are the owner's choice and are
/// left out.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct UnitCombatOdds {
    /// Side A's dice.
    pub a_pool: HitPool,
    /// Side B's dice.
    pub b_pool: HitPool,
    /// Side A's units, in the order hits are shared out.
    pub a: Vec<CombatUnit>,
    /// Side B's units.
    pub b: Vec<CombatUnit>,
    /// Fraction mode.
    pub fractions: FractionMode,
    /// When commanders cancel.
    pub cancel: CancelTiming,
    /// Which hits are compared.
    pub comparison: HitComparison,
}

impl UnitCombatOdds {
    /// Two sides of units with the default readings.
    #[must_use]
    pub fn new(
        a_pool: HitPool,
        a: Vec<CombatUnit>,
        b_pool: HitPool,
        b: Vec<CombatUnit>,
    ) -> UnitCombatOdds {
        UnitCombatOdds {
            a_pool,
            b_pool,
            a,
            b,
            fractions: FractionMode::RoundDown,
            cancel: CancelTiming::AfterCover,
            comparison: HitComparison::AfterReductions,
        }
    }

    /// GRID-MEL-19: the exact odds of `combat` as the battle stands, read from the battle and its options: side A
    /// is the combat's single unit, side B its opponents in the order given (the first take the odd hits of an
    /// even split). Each side's pool is its units' own dice (GRID-MEL-04 to GRID-MEL-08: fighting stands, inner
    /// support, firepower and shock, halving for disorder, column and flank attacks) and the dice of its
    /// supporting units (GRID-MEL-06): `supporters` lists them, or `None` takes every unit that may support
    /// this combat. Each unit brings its own cover or advantageous position (GRID-MEL-11), its commander
    /// (GRID-CMD-06), the hits that destroy it (GRID-CAS-03) and its morale modifier (GRID-MOR-01); the fraction
    /// mode, the commanders' timing and the hit comparison are the options'. Tenacity markers and skirmish hits
    /// recorded with the combat are left out.
    ///
    /// Refused, with the reason, for a combat the battle would refuse ([`Battle::check_combats`] on that combat
    /// alone, a supporter that may not support it), and where these odds would not be exact: two commanders
    /// with one unit (the odds hold one commander die a unit), a unit whose stands test morale with different
    /// modifiers (it may split), a carried half-hit in the carry-fractions mode, or one morale die for the
    /// whole side of several units.
    pub fn from_battle(
        battle: &Battle,
        combat: &Combat,
        supporters: Option<&[UnitId]>,
    ) -> Result<UnitCombatOdds, RuleViolation> {
        let centre = battle.unit(combat.centre)?;
        let centre_side = centre.side();
        if combat.opponents.is_empty() {
            return Err(RuleViolation::BadCombatSplit("a combat needs two sides"));
        }
        for (i, &o) in combat.opponents.iter().enumerate() {
            let ou = battle.unit(o)?;
            if ou.side() == centre_side || !battle.board.adjacent(ou.area(), centre.area()) {
                return Err(RuleViolation::BadCombatSplit(
                    "every opponent is an enemy adjacent to the single unit",
                ));
            }
            if combat.opponents[..i].contains(&o) {
                return Err(RuleViolation::BadCombatSplit(
                    "a unit is in more than one combat",
                ));
            }
        }
        let whole = std::slice::from_ref(combat);
        let support: Vec<UnitId> = match supporters {
            Some(v) => {
                for &s in v {
                    battle.may_support(s, combat)?;
                }
                v.to_vec()
            }
            None => battle
                .default_support(whole)
                .into_iter()
                .map(|(u, _)| u)
                .collect(),
        };
        let mut pools = (HitPool::EMPTY, HitPool::EMPTY);
        let (mut sup_a, mut sup_b) = (Vec::new(), Vec::new());
        for &s in &support {
            let su = battle.unit(s)?;
            if su.side() == centre_side {
                sup_a.push(battle.support_die(su));
            } else {
                sup_b.push(battle.support_die(su));
            }
        }
        let merge = |p: HitPool, q: HitPool| p.merged(q).map_err(RuleViolation::from);
        pools.0 = merge(pools.0, battle.support_pool(&sup_a)?)?;
        pools.1 = merge(pools.1, battle.support_pool(&sup_b)?)?;
        let opts = battle.options();
        let mut units = (Vec::new(), Vec::new());
        for id in combat.units() {
            let u = battle.unit(id)?;
            let own = battle.unit_dice(id, combat)?.own;
            let no = |why| RuleViolation::NoExactOdds { unit: id, why };
            let commanders = battle
                .commanders()
                .filter(|k| k.side() == u.side() && k.present() && k.area() == u.area())
                .count();
            if commanders > 1 {
                return Err(no("two commanders are with it"));
            }
            let classes = crate::morale::UnitMorale::of(u).classes;
            if classes.iter().filter(|c| **c).count() > 1 {
                return Err(no("its stands test morale with different modifiers"));
            }
            if opts.fractions == FractionMode::CarryFractions && u.half_hit() {
                return Err(no("it carries a half-hit"));
            }
            if !battle.engaged(id)? {
                return Err(RuleViolation::BadCombatSplit("only engaged units fight"));
            }
            let morale = u
                .stands()
                .first()
                .map_or(0, |s| s.morale_modifier().clamp(-1, 1));
            let one = CombatUnit {
                cover: battle.in_cover_for_combat(u),
                commander: commanders == 1,
                capacity: u.hits_to_destroy(),
                morale,
            };
            if id == combat.centre {
                pools.0 = merge(pools.0, own)?;
                units.0.push(one);
            } else {
                pools.1 = merge(pools.1, own)?;
                units.1.push(one);
            }
        }
        if opts.side_morale_dice == crate::options::SideMoraleDice::PerSide && units.1.len() > 1 {
            return Err(RuleViolation::NoExactOdds {
                unit: combat.centre,
                why: "one morale die is rolled for a whole side of several units",
            });
        }
        Ok(UnitCombatOdds {
            a_pool: pools.0,
            b_pool: pools.1,
            a: units.0,
            b: units.1,
            fractions: opts.fractions,
            cancel: opts.commander_cancel,
            comparison: opts.hit_comparison,
        })
    }

    fn reducer(&self) -> CombatOdds {
        CombatOdds {
            a: CombatSide::default(),
            b: CombatSide::default(),
            fractions: self.fractions,
            cancel: self.cancel,
            comparison: self.comparison,
        }
    }

    fn side_of(u: &CombatUnit) -> CombatSide {
        CombatSide {
            pool: HitPool::EMPTY,
            cover: u.cover,
            commander: u.commander,
            capacity: u.capacity,
            morale: u.morale,
        }
    }

    /// The even split of `hits` among `k` units, the first taking the odd ones.
    fn share(hits: u32, k: usize, i: usize) -> u32 {
        let k = k.max(1) as u32;
        hits / k + u32::from((i as u32) < hits % k)
    }

    fn reduce_side_dist(&self, units: &[CombatUnit], hits: u32) -> Dist<Vec<u32>> {
        let r = self.reducer();
        let mut d: Dist<Vec<u32>> = Dist::certain(Vec::new());
        for (i, u) in units.iter().enumerate() {
            let one = r.reduce_dist(&Self::side_of(u), Self::share(hits, units.len(), i));
            d = d.and_then(|v| {
                one.map(|&(h, _)| {
                    let mut w = v.clone();
                    w.push(h);
                    w
                })
            });
        }
        d
    }

    fn reduce_side<D: Dice + ?Sized>(
        &self,
        units: &[CombatUnit],
        hits: u32,
        dice: &mut D,
    ) -> Vec<u32> {
        let r = self.reducer();
        units
            .iter()
            .enumerate()
            .map(|(i, u)| {
                r.reduce(&Self::side_of(u), Self::share(hits, units.len(), i), dice)
                    .0
            })
            .collect()
    }

    /// Destruction, the comparison and who tests, before the morale dice.
    fn finish(
        &self,
        raw_on_a: u32,
        raw_on_b: u32,
        on_a: Vec<u32>,
        on_b: Vec<u32>,
    ) -> UnitCombatOutcome {
        let dead = |units: &[CombatUnit], hits: &[u32]| -> Vec<bool> {
            units
                .iter()
                .zip(hits)
                .map(|(u, &h)| u.capacity > 0 && h >= u.capacity)
                .collect()
        };
        let (ad, bd) = (dead(&self.a, &on_a), dead(&self.b, &on_b));
        let alive = |d: &[bool]| d.iter().any(|x| !x);
        let (ca, cb) = match self.comparison {
            HitComparison::AfterReductions => (on_a.iter().sum::<u32>(), on_b.iter().sum::<u32>()),
            HitComparison::Raw => (raw_on_a, raw_on_b),
        };
        let tester = if alive(&ad) && alive(&bd) {
            match ca.cmp(&cb) {
                std::cmp::Ordering::Greater => Some(Tester::A),
                std::cmp::Ordering::Less => Some(Tester::B),
                std::cmp::Ordering::Equal => None,
            }
        } else {
            None
        };
        UnitCombatOutcome {
            hits_on_a: on_a,
            hits_on_b: on_b,
            a_destroyed: ad,
            b_destroyed: bd,
            tester,
            morale: Vec::new(),
        }
    }

    /// The surviving units of the testing side with their morale modifiers.
    fn testers(&self, out: &UnitCombatOutcome) -> Vec<(usize, i8)> {
        let (units, dead) = match out.tester {
            Some(Tester::A) => (&self.a, &out.a_destroyed),
            Some(Tester::B) => (&self.b, &out.b_destroyed),
            None => return Vec::new(),
        };
        units
            .iter()
            .zip(dead)
            .enumerate()
            .filter(|(_, (_, d))| !**d)
            .map(|(i, (u, _))| (i, u.morale))
            .collect()
    }
}

impl Resolve for UnitCombatOdds {
    type Outcome = UnitCombatOutcome;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> UnitCombatOutcome {
        let hits_by_a = self.a_pool.roll(dice);
        let hits_by_b = self.b_pool.roll(dice);
        let on_a = self.reduce_side(&self.a, hits_by_b, dice);
        let on_b = self.reduce_side(&self.b, hits_by_a, dice);
        let mut out = self.finish(hits_by_b, hits_by_a, on_a, on_b);
        for (i, m) in self.testers(&out) {
            out.morale.push((i, MoraleTest { modifier: m }.roll(dice)));
        }
        out
    }

    fn odds(&self) -> Dist<UnitCombatOutcome> {
        let by_a = self.a_pool.odds();
        let by_b = self.b_pool.odds();
        by_a.product(&by_b).and_then(|&(ha, hb)| {
            let ra = self.reduce_side_dist(&self.a, hb);
            let rb = self.reduce_side_dist(&self.b, ha);
            ra.product(&rb).and_then(|(a, b)| {
                let out = self.finish(hb, ha, a.clone(), b.clone());
                let mut d = Dist::certain(out.clone());
                for (i, m) in self.testers(&out) {
                    let test = MoraleTest { modifier: m }.odds();
                    d = d.and_then(|o| {
                        test.map(|&r| {
                            let mut with = o.clone();
                            with.morale.push((i, r));
                            with
                        })
                    });
                }
                d
            })
        })
    }
}
