//! Two baseline commanders for whole games: [`Attacker`] closes with the enemy and fights, [`Holder`] takes
//! the scenario's objectives and holds them. Both ask the game what is legal ([`State::actions`],
//! [`State::retreat_routes`]) and so never give an order the rules refuse; ties between equally good orders
//! are broken by the commander's seed, from the state alone, so a saved game continues as the original.

use crate::board::{Area, GridKind};
use crate::game::{Grid, Order, State, Step};
use crate::options::SquareDistance;
use crate::state::{Unit, UnitId};
use crate::tables::StandType;
use acw_core::Side;
use acw_core::game::Commander;

/// A seeded tie-break: a hash of the commander's seed and what is being decided.
fn mix(seed: u64, a: u64, b: u64) -> u64 {
    let mut x =
        seed ^ a.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    x ^= x >> 33;
    x = x.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    x ^= x >> 33;
    x
}

/// The areas of `side`'s enemies, gathered once for all the distances one order weighs, into `out` (a
/// buffer the commander keeps between orders, so an order allocates nothing for them).
fn enemy_areas(state: &State, side: Side, out: &mut Vec<Area>) {
    out.clear();
    out.extend(
        state
            .battle()
            .units()
            .filter(|e| e.side() != side)
            .map(Unit::area),
    );
}

/// The distance from `at` to the nearest of the enemy areas `enemies`.
fn distance_to_enemy(state: &State, enemies: &[Area], at: Area) -> u32 {
    let b = state.battle();
    enemies
        .iter()
        .map(|&e| b.board().distance(at, e, b.options()))
        .min()
        .unwrap_or(u32::MAX)
}

fn distance_to_objective(state: &State, at: Area) -> Option<u32> {
    let b = state.battle();
    state
        .victory()
        .objectives()
        .iter()
        .map(|o| b.board().distance(at, *o, b.options()))
        .min()
}

/// Whether an area within 1 area of another (by [`crate::board::Board::distance`]) is next to it: on hexes, and
/// on squares measured square by square (with a diagonal counted as one step it need not be).
fn adjacent_is_near(state: &State) -> bool {
    let b = state.battle();
    b.board().kind() == GridKind::Hex || b.options().square_distance == SquareDistance::Manhattan
}

/// The ids of `side`'s units, in the battle's order (the state does not change while a commander decides).
fn own_units(state: &State, side: Side) -> impl Iterator<Item = UnitId> + '_ {
    state
        .battle()
        .units()
        .filter(move |u| u.side() == side)
        .map(Unit::id)
}

/// The common answers: initiative, bombardment and skirmish targets (the most dice), retreats (the route
/// ending farthest from the enemy).
fn common(
    state: &State,
    side: Side,
    seed: u64,
    wants_first: bool,
    enemies: &mut Vec<Area>,
) -> Option<Order> {
    let turn = u64::from(state.battle().turn());
    match state.step() {
        Step::Initiative => Some(Order::RollInitiative),
        Step::ChooseOrder(_) => Some(Order::MovesFirst(if wants_first {
            side
        } else {
            side.enemy()
        })),
        Step::Bombard(_) => {
            for id in own_units(state, side) {
                // The dice each target draws come with the targets (worked out once).
                let best = state
                    .bombard_targets_with_dice(id)
                    .into_iter()
                    .max_by_key(|&(t, dice)| (dice, mix(seed, turn, u64::from(t.0))));
                if let Some((target, _)) = best {
                    return Some(Order::Bombard(crate::fire::BombardOrder {
                        battery: id,
                        target,
                    }));
                }
            }
            Some(Order::Done)
        }
        Step::Skirmish(_) => {
            for id in own_units(state, side) {
                let best = state
                    .skirmish_targets(id)
                    .into_iter()
                    .max_by_key(|&t| mix(seed, turn, u64::from(t.0)));
                if let Some(target) = best {
                    return Some(Order::Skirmish(crate::fire::SkirmishOrder {
                        firer: id,
                        target,
                    }));
                }
            }
            Some(Order::Done)
        }
        Step::Allocate(_) => {
            // As evenly as possible; the odd hits to the units with the most stands.
            let placed = state
                .owed_allocations()
                .into_iter()
                .map(|o| {
                    let mut units = o.units.clone();
                    units.sort_by_key(|u| {
                        let n = state.battle().unit(*u).map_or(0, Unit::stand_count);
                        (std::cmp::Reverse(n), mix(seed, turn, u64::from(u.0)))
                    });
                    let k = units.len() as u32;
                    let split = units
                        .into_iter()
                        .enumerate()
                        .map(|(i, u)| (u, o.hits / k + u32::from((i as u32) < o.hits % k)))
                        .collect();
                    (o.combat, split)
                })
                .collect();
            Some(Order::Allocate(placed))
        }
        Step::Retreat(_) => {
            // The routes read where the game keeps them; only the chosen one is copied into the order.
            let routes = state.retreat_routes_kept();
            enemy_areas(state, side, enemies);
            let enemies = &*enemies;
            let best = routes.iter().enumerate().max_by_key(|(i, r)| {
                let end = r.last().copied();
                let d = end.map_or(0, |a| distance_to_enemy(state, enemies, a));
                (d, mix(seed, turn, *i as u64))
            });
            Some(Order::Retreat(
                best.map(|(_, r)| r.clone()).unwrap_or_default(),
            ))
        }
        Step::Move(_) | Step::Pursue(_) | Step::Over => None,
    }
}

/// Closes with the enemy: every unit but the batteries moves to the reachable area nearest an enemy
/// (attacking when it can), disordered units rally first, and units that attacked pursue.
#[derive(Clone, Debug)]
pub struct Attacker {
    seed: u64,
    /// The enemy's areas of the order being decided: a buffer kept between orders (not part of the choice).
    enemies: Vec<Area>,
}

impl Attacker {
    /// An attacker breaking ties with `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Attacker {
        Attacker {
            seed,
            enemies: Vec::new(),
        }
    }
}

impl Commander<Grid> for Attacker {
    fn order(&mut self, _rules: &Grid, state: &State, side: Side) -> Order {
        if let Some(o) = common(state, side, self.seed, true, &mut self.enemies) {
            return o;
        }
        let turn = u64::from(state.battle().turn());
        match state.step() {
            Step::Move(_) => {
                enemy_areas(state, side, &mut self.enemies);
                let enemies = &*self.enemies;
                let adjacent_is_near = adjacent_is_near(state);
                for id in own_units(state, side) {
                    if state.battle().may_rally(id).is_ok() {
                        return Order::Rally(id);
                    }
                    let Ok(u) = state.battle().unit(id) else {
                        continue;
                    };
                    if u.all_artillery() || u.all_wagons() {
                        continue;
                    }
                    let now = distance_to_enemy(state, enemies, u.area());
                    // No move ends in an enemy's area, so a unit next to the enemy cannot get nearer:
                    // skip its search.
                    if now <= 1 {
                        continue;
                    }
                    // The facing a move ends with does not enter the choice: it is worked out for the
                    // chosen route alone.
                    let routes = state.move_routes(id);
                    let key = |&(d, i): &(u32, usize)| {
                        (d, mix(self.seed, turn, (u64::from(id.0) << 16) | i as u64))
                    };
                    // Where within 1 area is next to (see the Holder), a route the search marked as an attack
                    // ends 1 area from the enemy and every other route farther: if there is an attack, the
                    // nearest routes are the attacks, and nothing need be measured.
                    let attacks = adjacent_is_near && (0..routes.len()).any(|i| routes.attack(i));
                    let best = if attacks {
                        (0..routes.len())
                            .filter(|&i| routes.attack(i))
                            .map(|i| (1, i))
                            .min_by_key(key)
                    } else {
                        (0..routes.len())
                            .map(|i| (distance_to_enemy(state, enemies, routes.end(i)), i))
                            .min_by_key(key)
                    };
                    if let Some((d, i)) = best
                        && d < now
                        && let Some(m) = state.move_along(id, routes.path(i))
                    {
                        return Order::Move(m);
                    }
                }
                Order::Done
            }
            Step::Pursue(_) => {
                for id in own_units(state, side) {
                    if let Some(o) = state.actions(id).into_iter().next() {
                        return o;
                    }
                }
                Order::Done
            }
            _ => Order::Done,
        }
    }
}

/// Takes and holds ground: infantry and cavalry march to the scenario's objectives (never into contact),
/// then stand; disordered units rally; nobody pursues. Batteries bombard.
#[derive(Clone, Debug)]
pub struct Holder {
    seed: u64,
    /// The enemy's areas of the order being decided: a buffer kept between orders (not part of the choice).
    enemies: Vec<Area>,
}

impl Holder {
    /// A holder breaking ties with `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Holder {
        Holder {
            seed,
            enemies: Vec::new(),
        }
    }
}

impl Commander<Grid> for Holder {
    fn order(&mut self, _rules: &Grid, state: &State, side: Side) -> Order {
        if let Some(o) = common(state, side, self.seed, false, &mut self.enemies) {
            return o;
        }
        let turn = u64::from(state.battle().turn());
        if let Step::Move(_) = state.step() {
            enemy_areas(state, side, &mut self.enemies);
            let enemies = &*self.enemies;
            let adjacent_is_near = adjacent_is_near(state);
            for id in own_units(state, side) {
                if state.battle().may_rally(id).is_ok() {
                    return Order::Rally(id);
                }
                let Ok(u) = state.battle().unit(id) else {
                    continue;
                };
                if !u.has(StandType::Infantry) && !u.has(StandType::Cavalry) {
                    continue;
                }
                let Some(now) = distance_to_objective(state, u.area()) else {
                    continue;
                };
                if now <= 1 {
                    continue;
                }
                let routes = state.move_routes(id);
                // Within 1 area of an enemy is next to one (no route ends in an enemy's area) where the
                // distance counts steps across sides, as on hexes and on squares measured square by square:
                // the search has marked those ends already.
                let next_to_enemy = |r: usize| {
                    if adjacent_is_near {
                        routes.attack(r)
                    } else {
                        distance_to_enemy(state, enemies, routes.end(r)) <= 1
                    }
                };
                let best = (0..routes.len())
                    .filter(|&r| !next_to_enemy(r))
                    .enumerate()
                    .map(|(i, r)| {
                        (
                            distance_to_objective(state, routes.end(r)).unwrap_or(u32::MAX),
                            i,
                            r,
                        )
                    })
                    .min_by_key(|&(d, i, _)| {
                        (d, mix(self.seed, turn, (u64::from(id.0) << 16) | i as u64))
                    });
                if let Some((d, _, r)) = best
                    && d < now
                    && let Some(m) = state.move_along(id, routes.path(r))
                {
                    return Order::Move(m);
                }
            }
        }
        Order::Done
    }
}
