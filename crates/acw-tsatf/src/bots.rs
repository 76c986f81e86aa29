//! Two baseline commanders: [`Attacker`] advances on the nearest enemy, charges it from close range and fires
//! whenever it can; [`Holder`] stands its ground, fires, and charges only broken enemies that come close. Both
//! decide from the state alone and ask the engine what is legal ([`State::check_order`]), so they never give
//! an order the rules refuse. Ties are broken by a hash of the seed, so different seeds play differently and
//! the same seed the same.

use crate::game::{Activation, Order, Question, State, Tsatf};
use crate::state::{MoraleState, Unit, UnitId};
use acw_core::Side;
use acw_core::game::Commander;

/// Charges are declared on enemies this close or closer, in inches.
pub const CHARGE_REACH: f64 = 12.0;

/// The attacker takes down a fence or wall it touches when the nearest enemy stands behind it this close or
/// closer, in inches.
pub const DISMANTLE_REACH: f64 = 18.0;

/// A small deterministic mix of the seed and two numbers, in 0..1, to break ties.
fn jitter(seed: u64, a: u32, b: u32) -> f64 {
    let mut z = seed ^ (u64::from(a) << 32) ^ u64::from(b).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z >> 11) as f64 / (1u64 << 53) as f64
}

fn in_play(u: &Unit) -> bool {
    !u.off_table() && u.strength() > 0
}

/// The side's units that have not taken a card this phase, in a seeded order (a turn's worth of shuffling).
fn ready(state: &State, side: Side, seed: u64) -> Vec<UnitId> {
    let b = state.battle();
    let mut v: Vec<(UnitId, f64)> = b
        .units()
        .iter()
        .filter(|u| u.side() == side && in_play(u) && !u.acted())
        .map(|u| (u.id(), jitter(seed, u.id().0, b.turn())))
        .collect();
    v.sort_by(|a, b| a.1.total_cmp(&b.1));
    v.into_iter().map(|(id, _)| id).collect()
}

/// Enemy units in play, nearest first by centre distance less a unit's depth (ties broken by the seed).
fn enemies(state: &State, id: UnitId, seed: u64) -> Vec<(UnitId, f64)> {
    let b = state.battle();
    let Ok(me) = b.unit(id) else {
        return Vec::new();
    };
    let mut v: Vec<(UnitId, f64)> = b
        .units()
        .iter()
        .filter(|e| e.side() != me.side() && in_play(e) && !e.hidden())
        .filter_map(|e| {
            // centre to centre less a unit's depth: a cheap stand-in for the range, to rank and screen targets
            let (a, b) = (state.field().place(id)?, state.field().place(e.id())?);
            let d = a.centre.distance(b.centre).0 - crate::field::UNIT_DEPTH;
            Some((e.id(), d + 0.01 * jitter(seed, id.0, e.id().0)))
        })
        .collect();
    v.sort_by(|a, b| a.1.total_cmp(&b.1));
    v
}

/// The first order the engine accepts.
fn first_legal(state: &State, orders: impl IntoIterator<Item = Order>) -> Option<Order> {
    orders.into_iter().find(|o| state.check_order(o).is_ok())
}

/// Fire from the first ready unit that may fire, at its nearest target it may fire at; else a hold.
fn fire_card(state: &State, side: Side, seed: u64) -> Option<Order> {
    let units = ready(state, side, seed);
    let b = state.battle();
    for &u in &units {
        let Ok(me) = b.unit(u) else { continue };
        let targets = enemies(state, u, seed);
        // the measured cone first: only targets the unit bears on go to the engine to check
        let bearing = targets
            .iter()
            .filter(|&&(t, _)| state.field().in_cone(u, t, me.kind().is_gun(), b.options()));
        // where the options let it, the unit gathers other units' fire with its own (TSATF-FIR-11), at a
        // target another ready unit bears on too, if there is one
        let pool = state.may_pool(u);
        let mut bearing: Vec<&(UnitId, f64)> = bearing.collect();
        if pool {
            let shared = |t: UnitId| {
                units.iter().any(|&p| {
                    p != u
                        && b.unit(p).is_ok_and(|pu| {
                            state.field().in_cone(p, t, pu.kind().is_gun(), b.options())
                        })
                })
            };
            bearing.sort_by_key(|&&(t, _)| !shared(t));
        }
        if let Some(o) = first_legal(
            state,
            bearing.into_iter().flat_map(|&(t, _)| {
                let fire = Order::Fire { unit: u, target: t };
                if pool {
                    vec![Order::Pool { unit: u, target: t }, fire]
                } else {
                    vec![fire]
                }
            }),
        ) {
            return Some(o);
        }
    }
    first_legal(state, units.iter().map(|&u| Order::Hold { unit: u }))
}

/// A compulsory move, when the side owes one.
fn compulsory(state: &State, side: Side, seed: u64) -> Option<Order> {
    first_legal(
        state,
        ready(state, side, seed)
            .into_iter()
            .filter(|&u| {
                state
                    .battle()
                    .unit(u)
                    .is_ok_and(|u| u.compulsory().is_some())
            })
            .map(|u| Order::Compulsory { unit: u }),
    )
}

/// How near, in inches, an enemy brings a limbered gun to unlimber, and a holding side's cavalry to dismount
/// and fight on foot.
pub const DEPLOY_REACH: f64 = 36.0;

/// A change of state where a unit stands, when the side wants one: a limbered gun unlimbers once an enemy is
/// within [`DEPLOY_REACH`]; with `dismount`, so does mounted cavalry get off to fight on foot.
fn deploy(state: &State, side: Side, seed: u64, dismount: bool) -> Option<Order> {
    let b = state.battle();
    // only units that could change are measured (none in an infantry battle)
    let could = |u: &crate::state::Unit| {
        u.side() == side
            && ((u.kind().is_gun() && u.formation() == crate::state::Formation::Limbered)
                || (dismount && u.mounted()))
    };
    if !b.units().iter().any(could) {
        return None;
    }
    let wanted = ready(state, side, seed).into_iter().filter_map(|u| {
        let me = b.unit(u).ok()?;
        if !could(me) {
            return None;
        }
        let near = enemies(state, u, seed)
            .first()
            .is_some_and(|&(_, d)| d <= DEPLOY_REACH);
        if !near {
            return None;
        }
        if me.kind().is_gun() && me.formation() == crate::state::Formation::Limbered {
            Some(Order::Limber {
                unit: u,
                limber: false,
            })
        } else if dismount && me.mounted() {
            Some(Order::Mount {
                unit: u,
                mount: false,
            })
        } else {
            None
        }
    });
    first_legal(state, wanted)
}

/// The figure of an enemy unit a single shot aims at: its highest officer or NCO, else its first figure in
/// the fight.
fn aim_at(state: &State, target: UnitId) -> Option<u16> {
    let t = state.battle().unit(target).ok()?;
    let f = t.figures();
    let best = (0..f.len())
        .filter(|&k| f[k].can_fight())
        .min_by_key(|&k| (f[k].role(), k))?;
    u16::try_from(best).ok()
}

/// The next step of a card held open: every unit that can joins a pooled fire; officers and snipers take
/// their single shots at the nearest enemy in reach, aiming at its leaders; a split move fires when the unit
/// bears on an enemy and rides at the nearest (the attacker) or stops (the holder). Then the card is closed.
fn carry_on(state: &State, side: Side, seed: u64, rides: bool) -> Option<Order> {
    let open = state.open()?.clone();
    let unit = open.unit();
    let finish = Order::Finish { unit };
    let next = match &open {
        Activation::Pool { target, .. } => first_legal(
            state,
            ready(state, side, seed)
                .into_iter()
                .filter(|&u| u != unit)
                .map(|u| Order::Pool {
                    unit: u,
                    target: *target,
                }),
        ),
        Activation::Shots { .. } => {
            let near: Vec<UnitId> = enemies(state, unit, seed).iter().map(|e| e.0).collect();
            let shots: Vec<Order> = state
                .shooters(unit)
                .into_iter()
                .flat_map(|(k, w)| {
                    let reach = state.shot_targets(unit, w);
                    near.iter()
                        .filter(|t| reach.contains(t))
                        .filter_map(|&t| {
                            Some(Order::Shoot {
                                unit,
                                figure: u16::try_from(k).ok()?,
                                target: t,
                                aim: aim_at(state, t)?,
                            })
                        })
                        .collect::<Vec<_>>()
                })
                .collect();
            first_legal(state, shots)
        }
        Activation::Split { .. } => {
            let targets = enemies(state, unit, seed);
            let b = state.battle();
            let fired = b.unit(unit).is_ok_and(|u| u.fired);
            let bearing: Vec<Order> = targets
                .iter()
                .filter(|&&(t, _)| !fired && state.field().in_cone(unit, t, false, b.options()))
                .map(|&(t, _)| Order::Fire { unit, target: t })
                .collect();
            let ride = targets
                .iter()
                .take(usize::from(rides))
                .map(|&(t, _)| Order::Ride {
                    unit,
                    toward: t,
                    die: 0,
                });
            first_legal(state, bearing.into_iter().chain(ride))
        }
    };
    next.or(Some(finish))
}

/// How far, in inches, an enemy in a unit's cone counts as in reach for carrying wounded: the longest musket
/// range.
pub const CARRY_REACH: f64 = 36.0;

/// Campaign games (TSATF-MOV-15): a unit still to act carries its wounded, one man each, while no enemy in its
/// cone is within [`CARRY_REACH`] (the carriers would not fire anyway), and sets them down once one is, so
/// every musket fires. Naming carriers does not spend the card; the side is asked again.
fn carry(state: &State, side: Side, seed: u64) -> Option<Order> {
    let b = state.battle();
    if b.options().wound_policy != crate::options::WoundPolicy::Campaign {
        return None;
    }
    let wanted = ready(state, side, seed).into_iter().filter_map(|u| {
        let me = b.unit(u).ok()?;
        let carrying = me.figures().iter().filter(|f| f.carrying()).count();
        if me.wounded() == 0 && carrying == 0 {
            return None;
        }
        let bears = enemies(state, u, seed).iter().any(|&(t, _)| {
            state.field().range(u, t) <= CARRY_REACH
                && state.field().in_cone(u, t, me.kind().is_gun(), b.options())
        });
        let want = if bears { 0 } else { me.wounded() };
        (usize::from(want) != carrying).then_some(Order::Carry {
            unit: u,
            carriers: want,
        })
    });
    first_legal(state, wanted)
}

fn answer(state: &State, cadre_first: bool, pursue: bool) -> Option<Order> {
    match state_question(state)? {
        Question::Pair { .. } => Some(Order::Pair { cadre_first }),
        Question::Fight { .. } => Some(Order::Fight {
            cadre_first,
            pursue,
        }),
        Question::Rally { .. } => state
            .actions()
            .into_iter()
            .find(|o| matches!(o, Order::Rally { attempt: true, .. })),
        Question::Activate { .. } | Question::Continue { .. } => None,
    }
}

fn state_question(state: &State) -> Option<Question> {
    use acw_core::game::Ruleset;
    Tsatf.owed(state).map(|d| d.question)
}

fn fallback(state: &State) -> Order {
    // every decision has a legal answer (a hold, a compulsory move, a choice); the first the engine accepts
    state
        .actions()
        .into_iter()
        .next()
        .unwrap_or(Order::Pair { cadre_first: true })
}

/// Advances on the nearest enemy, charges it from within [`CHARGE_REACH`] while above half strength, fires whenever it can, puts its
/// officers and NCOs into a melee first, pursues, and always tries to rally. Its guns unlimber once an enemy is
/// within [`DEPLOY_REACH`]; its cavalry stays mounted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attacker {
    seed: u64,
}

impl Attacker {
    /// An attacker whose ties are broken by `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Attacker { seed }
    }

    fn movement(&self, state: &State, side: Side) -> Option<Order> {
        if let Some(o) = compulsory(state, side, self.seed) {
            return Some(o);
        }
        if let Some(o) = deploy(state, side, self.seed, false) {
            return Some(o);
        }
        if let Some(o) = carry(state, side, self.seed) {
            return Some(o);
        }
        let units = ready(state, side, self.seed);
        let split = state.battle().options().split_cavalry_dice.is_some();
        for &u in &units {
            let targets = enemies(state, u, self.seed);
            // a fence or wall in contact between the unit and the enemy it would charge comes down first, so the
            // enemy loses its protected position and the charge its rough ground (TSATF-MOV-12)
            let behind_fence = targets
                .first()
                .is_some_and(|&(t, d)| d <= DISMANTLE_REACH && state.field().protected(u, t));
            if behind_fence
                && state.field().obstacle_in_contact(u).is_some()
                && let Some(o) = first_legal(state, [Order::Dismantle { unit: u }])
            {
                return Some(o);
            }
            // a charge at half strength or less halts before it starts (TSATF-MEL-06)
            let strong = state.battle().unit(u).is_ok_and(|x| !x.at_half());
            let charge = targets
                .iter()
                .filter(|&&(_, d)| strong && d <= CHARGE_REACH)
                .map(|&(t, _)| Order::Charge { unit: u, target: t });
            // cavalry under the split-dice option rides out its dice one at a time (TSATF-MOV-17)
            let cavalry = split
                && state
                    .battle()
                    .unit(u)
                    .is_ok_and(|x| x.kind() == crate::state::UnitKind::Cavalry);
            let split_move = cavalry.then_some(Order::Split { unit: u });
            let advance = targets
                .iter()
                .take(1)
                .map(|&(t, _)| Order::Advance { unit: u, toward: t });
            if let Some(o) = first_legal(state, charge.chain(split_move).chain(advance)) {
                return Some(o);
            }
        }
        first_legal(state, units.iter().map(|&u| Order::Hold { unit: u }))
    }
}

impl Commander<Tsatf> for Attacker {
    fn order(&mut self, _: &Tsatf, state: &State, side: Side) -> Order {
        let o = match state_question(state) {
            Some(Question::Continue { .. }) => carry_on(state, side, self.seed, true),
            Some(Question::Activate { phase, .. }) => match phase {
                crate::state::Phase::Movement => self.movement(state, side),
                _ => fire_card(state, side, self.seed),
            },
            Some(_) => answer(state, true, true),
            None => None,
        };
        o.unwrap_or_else(|| fallback(state))
    }
}

/// Holds its ground and fires; a unit that cannot bring fire to bear turns toward the nearest enemy (a short
/// advance); charges only a shaken, pinned or routed enemy within six inches; keeps its officers and NCOs back
/// in melee and does not pursue; always tries to rally. Its guns unlimber, and its cavalry dismounts to fight on
/// foot, once an enemy is within [`DEPLOY_REACH`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Holder {
    seed: u64,
}

impl Holder {
    /// A holder whose ties are broken by `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Holder { seed }
    }

    fn movement(&self, state: &State, side: Side) -> Option<Order> {
        if let Some(o) = compulsory(state, side, self.seed) {
            return Some(o);
        }
        if let Some(o) = deploy(state, side, self.seed, true) {
            return Some(o);
        }
        if let Some(o) = carry(state, side, self.seed) {
            return Some(o);
        }
        let b = state.battle();
        let units = ready(state, side, self.seed);
        for &u in &units {
            let targets = enemies(state, u, self.seed);
            let broken = targets
                .iter()
                .filter(|&&(t, d)| {
                    d <= 6.0 && b.unit(t).is_ok_and(|e| e.morale() != MoraleState::Steady)
                })
                .map(|&(t, _)| Order::Charge { unit: u, target: t });
            if let Some(o) = first_legal(state, broken) {
                return Some(o);
            }
            let Ok(me) = b.unit(u) else { continue };
            let bears = targets
                .iter()
                .any(|&(t, _)| state.field().in_cone(u, t, me.kind().is_gun(), b.options()));
            if !bears
                && let Some(o) = first_legal(
                    state,
                    targets
                        .iter()
                        .take(1)
                        .map(|&(t, _)| Order::Advance { unit: u, toward: t }),
                )
            {
                return Some(o);
            }
        }
        first_legal(state, units.iter().map(|&u| Order::Hold { unit: u }))
    }
}

impl Commander<Tsatf> for Holder {
    fn order(&mut self, _: &Tsatf, state: &State, side: Side) -> Order {
        let o = match state_question(state) {
            Some(Question::Continue { .. }) => carry_on(state, side, self.seed, false),
            Some(Question::Activate { phase, .. }) => match phase {
                crate::state::Phase::Movement => self.movement(state, side),
                _ => fire_card(state, side, self.seed),
            },
            Some(_) => answer(state, false, false),
            None => None,
        };
        o.unwrap_or_else(|| fallback(state))
    }
}
