//! Two baseline commanders for North's rules: [`Attacker`] closes with the enemy and charges; [`Holder`] tries
//! to put its brigades on Hold and fights where it stands. Both decide from the state alone (asking the
//! engine what is legal), so they never give an order the rules refuse. Each is seeded: ties between equally
//! good targets are broken by a hash of the seed, so different seeds play differently and the same seed the
//! same.

use crate::combat::Category;
use crate::command::OrderTarget;
use crate::error::{AttackRefusal, RuleViolation};
use crate::game::{Action, CommandAction, North, Order, Question, State};
use crate::morale::RallyPolicy;
use crate::sequence::Step;
use crate::state::{Unit, UnitId};
use crate::tables::{BrigadeOrder, Formation, Troop};
use acw_core::Side;
use acw_core::game::Commander;
use acw_core::measure::{Heading, Inches};

/// A small deterministic mix of the seed and two ids, in 0..1, to break ties.
fn jitter(seed: u64, a: UnitId, b: UnitId) -> f64 {
    let mut z = seed ^ (u64::from(a.0) << 32) ^ u64::from(b.0).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// Enemy units in play, nearest first by centre distance (ties broken by the seed).
fn enemies_by_distance(state: &State, id: UnitId, seed: u64) -> Vec<(UnitId, f64)> {
    let b = state.battle();
    let (Ok(side), Some(me)) = (b.unit(id).map(Unit::side), state.field().place(id)) else {
        return Vec::new();
    };
    let mut v: Vec<(UnitId, f64)> = b
        .units_in_play(side.enemy())
        .filter_map(|e| {
            let d = me.centre.distance(state.field().place(e.id())?.centre).0;
            Some((e.id(), d + 0.01 * jitter(seed, id, e.id())))
        })
        .collect();
    v.sort_by(|a, b| a.1.total_cmp(&b.1));
    v
}

/// Whether a refusal of an attack comes from the attacker's own state alone (it has attacked, has no gun, is not
/// deployed, cannot attack in this category, moved too far to fire, is in contact), so it refuses every target.
fn refuses_every_target(e: &RuleViolation) -> bool {
    matches!(
        e,
        RuleViolation::AlreadyAttacked(_)
            | RuleViolation::CannotAttack {
                reason: AttackRefusal::NoGun
                    | AttackRefusal::NotDeployed
                    | AttackRefusal::WrongCategory
                    | AttackRefusal::MovedTooFar
                    | AttackRefusal::InContact,
                ..
            }
    )
}

/// The next attack of the step: the first unit (by id) with a legal target attacks its nearest one, with every
/// other unit that may attack the same target; `EndStep` when nobody can.
fn next_attack(state: &State, side: Side, seed: u64) -> Order {
    let category = match state.step() {
        Step::Artillery => Category::Artillery,
        Step::Musketry => Category::Musketry,
        _ => return Order::EndStep,
    };
    let b = state.battle();
    let first_enemy = b.units_in_play(side.enemy()).next().map(Unit::id);
    for u in b.units_in_play(side) {
        if u.phase().attacked.is_some() {
            continue;
        }
        // A unit whose own state refuses one enemy refuses them all: no need to sort them.
        if let Some(t) = first_enemy
            && let Err(e) = state.can_attack(u.id(), t, category)
            && refuses_every_target(&e)
        {
            continue;
        }
        let target = enemies_by_distance(state, u.id(), seed)
            .into_iter()
            .map(|(t, _)| t)
            .find(|&t| state.can_attack(u.id(), t, category).is_ok());
        if let Some(target) = target {
            let attackers = b
                .units_in_play(side)
                .filter(|o| o.phase().attacked.is_none())
                .filter(|o| state.can_attack(o.id(), target, category).is_ok())
                .map(Unit::id)
                .collect();
            return Order::Attack { target, attackers };
        }
    }
    Order::EndStep
}

/// The heading of an advance: toward the nearest enemy if that gains ground toward the enemy's edge, else
/// straight at the edge.
fn advance_heading(state: &State, id: UnitId, seed: u64) -> Option<Heading> {
    let straight = state.ordered_heading(id)?;
    let me = state.footprint(id)?;
    let nearest = enemies_by_distance(state, id, seed)
        .first()
        .map(|&(e, _)| e)?;
    let them = state.footprint(nearest)?;
    let h = me.centre.heading_to(them.centre);
    (h.angle_to(straight) < 60.0)
        .then_some(h)
        .or(Some(straight))
}

/// Whether `march` (along `heading`) takes unit `id` anywhere: a unit whose way is blocked is left to the
/// ordered move at the end of the step (which the engine excuses when it finds no way either). A unit already
/// facing `heading` (no turn first) is judged by its route for an inch; any other is tried on a copy of the
/// state, turn and all.
fn goes_somewhere(state: &State, id: UnitId, heading: Heading, march: Action) -> bool {
    let facing = state.field().place(id).map(|p| p.facing);
    if facing == Some(heading) {
        let gap = state.battle().options().contact_gap;
        let route = state.field().route(
            state.battle(),
            id,
            heading,
            Inches(1.0),
            gap,
            state.ordered_heading(id),
        );
        if route.length().0 >= 1.0 - 1e-6 {
            return true;
        }
    }
    state.march_preview(id, march).is_some_and(|d| d.0 >= 0.05)
}

/// What a unit that is free to act does in common: re-man a gun, turn a gun toward the enemy, stand in
/// contact. `None` when the bot has nothing particular for it.
fn common_action(state: &State, u: &Unit, seed: u64) -> Option<Action> {
    let id = u.id();
    if u.in_contact() {
        return state.may_stand(id).is_ok().then_some(Action::Stand);
    }
    if u.troop() == Troop::Artillery {
        if u.crew_without_gun() {
            let near_gun = state
                .field()
                .guns
                .get(id.0 as usize)
                .copied()
                .flatten()
                .zip(state.footprint(id))
                .is_some_and(|(g, f)| f.distance_to(g).0 <= 10.0);
            if near_gun && state.battle().options().crew_may_reman_gun {
                return Some(Action::RemanGun);
            }
            return None;
        }
        if u.formation() == Formation::Unlimbered {
            let me = state.footprint(id)?;
            let (nearest, _) = *enemies_by_distance(state, id, seed).first()?;
            let them = state.footprint(nearest)?;
            let arc = state.battle().options().artillery_arc_degrees;
            if !me.in_front_arc(&them, arc) && !state.battle().options().no_artillery_pivot {
                return Some(Action::PivotGun {
                    facing: me.centre.heading_to(them.centre),
                });
            }
            return state.may_stand(id).is_ok().then_some(Action::Stand);
        }
    }
    None
}

/// The answer to a morale question owed by `side` (a unit of its hit in the enemy's phase), from the side's
/// standing [`crate::game::Reactions`]: a general tries to rally when the reactions allow it (and, under
/// `IfWouldNotRally`, only while the toss would not already rally); on 3–4 the reactions' choice.
#[must_use]
pub fn reactions_answer(state: &State, side: Side) -> Option<Order> {
    let reactions = state.reactions(side);
    match state.question() {
        Question::Rally {
            total, generals, ..
        } => {
            let wanted = reactions.rally
                && (reactions.rally_policy == RallyPolicy::Always || total.is_none_or(|t| t >= 3));
            Some(match generals.first() {
                Some(&general) if wanted => Order::Rally { general },
                _ => Order::NoRally,
            })
        }
        Question::Choice { unit, .. } => {
            let removes = state
                .battle()
                .unit(unit)
                .is_ok_and(|u| u.next_loss_removes(state.battle().options()));
            Some(Order::Choose(reactions.choice.choose(removes)))
        }
        _ => None,
    }
}

/// The first unit of `side` (by id) the bot wants to order, and its action.
fn next_action(
    state: &State,
    side: Side,
    choose: impl Fn(&State, &Unit) -> Option<Action>,
) -> Order {
    for u in state.battle().units_in_play(side) {
        if u.has_acted() || state.stood(u.id()) {
            continue;
        }
        if let Some(action) = choose(state, u) {
            return Order::Act {
                unit: u.id(),
                action,
            };
        }
    }
    Order::EndStep
}

/// Closes with the enemy: keeps every brigade on Advance, marches at the nearest enemy, charges whatever
/// comes within reach, re-forms line after a fall-back when the enemy is near, fires at the nearest target.
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

    fn command(&self, state: &State, side: Side) -> Order {
        let b = state.battle();
        let mut actions = Vec::new();
        for br in b.brigades().iter().filter(|br| br.side() == side) {
            if br.order() == BrigadeOrder::Advance {
                continue;
            }
            if br.is_leaderless() {
                for &u in br.units() {
                    let unit_ok = b.unit(u).is_ok_and(|x| x.in_play());
                    if unit_ok && b.order_of(u).is_ok_and(|o| o != BrigadeOrder::Advance) {
                        actions.push(CommandAction::Leaderless {
                            unit: u,
                            order: BrigadeOrder::Advance,
                        });
                    }
                }
            } else if b.general(br.major_general()).is_ok_and(|g| g.is_active()) {
                actions.push(CommandAction::MajorGeneral {
                    brigade: br.id(),
                    order: BrigadeOrder::Advance,
                });
            }
        }
        Order::Command(actions)
    }

    fn choose(&self, state: &State, u: &Unit) -> Option<Action> {
        if let Some(a) = common_action(state, u, self.seed) {
            return Some(a);
        }
        let id = u.id();
        let enemies = enemies_by_distance(state, id, self.seed);
        if let Some(&(target, _)) = enemies
            .iter()
            .find(|&&(t, _)| state.can_charge(id, t).is_ok())
        {
            return Some(Action::Charge { target });
        }
        let nearest = enemies.first().map_or(f64::INFINITY, |e| e.1);
        if u.formation() == Formation::Column && u.troop() != Troop::Artillery && nearest < 16.0 {
            return Some(Action::Formation(Formation::Line));
        }
        if u.formation() == Formation::Limbered && nearest < 30.0 {
            return Some(Action::Formation(Formation::Unlimbered));
        }
        match state.order_of(id).ok()? {
            BrigadeOrder::Hold => state.may_stand(id).is_ok().then_some(Action::Stand),
            BrigadeOrder::Withdraw => None,
            BrigadeOrder::Advance => {
                let heading = advance_heading(state, id, self.seed)?;
                let march = Action::March {
                    heading,
                    distance: None,
                    fire: false,
                    conform: false,
                    face: Some(heading),
                };
                goes_somewhere(state, id, heading, march).then_some(march)
            }
        }
    }
}

impl Commander<North> for Attacker {
    fn order(&mut self, _: &North, state: &State, side: Side) -> Order {
        if let Some(answer) = reactions_answer(state, side) {
            return answer;
        }
        match state.step() {
            Step::Command => self.command(state, side),
            Step::Units => next_action(state, side, |s, u| self.choose(s, u)),
            Step::Artillery | Step::Musketry => next_attack(state, side, self.seed),
            Step::Melee => Order::EndStep,
        }
    }
}

/// Holds its ground: asks for Hold (the Army Commander sets it for his brigade, the MGs toss for the rest),
/// stands and fires, and charges only an enemy that comes within reach in column or weaker than itself.
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

    fn command(&self, state: &State, side: Side) -> Order {
        let b = state.battle();
        let mut actions = Vec::new();
        let ac = b.army_commander(side);
        let ac_brigade = b
            .general(ac)
            .ok()
            .filter(|g| g.is_active())
            .and_then(|g| g.with_unit())
            .and_then(|u| b.unit(u).ok())
            .map(Unit::brigade);
        for br in b.brigades().iter().filter(|br| br.side() == side) {
            if br.order() == BrigadeOrder::Hold || br.is_leaderless() {
                continue;
            }
            if Some(br.id()) == ac_brigade {
                actions.push(CommandAction::ArmyCommander {
                    target: OrderTarget::Brigade(br.id()),
                    order: BrigadeOrder::Hold,
                });
            } else if b.general(br.major_general()).is_ok_and(|g| g.is_active()) {
                actions.push(CommandAction::MajorGeneral {
                    brigade: br.id(),
                    order: BrigadeOrder::Hold,
                });
            }
        }
        Order::Command(actions)
    }

    fn choose(&self, state: &State, u: &Unit) -> Option<Action> {
        if let Some(a) = common_action(state, u, self.seed) {
            return Some(a);
        }
        let id = u.id();
        let b = state.battle();
        let tempting = enemies_by_distance(state, id, self.seed)
            .into_iter()
            .find(|&(t, _)| {
                state.can_charge(id, t).is_ok()
                    && b.unit(t)
                        .is_ok_and(|e| !e.is_deployed() || e.current_stands() < u.current_stands())
            });
        if let Some((target, _)) = tempting {
            return Some(Action::Charge { target });
        }
        if u.formation() == Formation::Column && u.troop() != Troop::Artillery {
            return Some(Action::Formation(Formation::Line));
        }
        // Units still under a movement order are left to make their ordered move when the step ends.
        state.may_stand(id).is_ok().then_some(Action::Stand)
    }
}

impl Commander<North> for Holder {
    fn order(&mut self, _: &North, state: &State, side: Side) -> Order {
        if let Some(answer) = reactions_answer(state, side) {
            return answer;
        }
        match state.step() {
            Step::Command => self.command(state, side),
            Step::Units => next_action(state, side, |s, u| self.choose(s, u)),
            Step::Artillery | Step::Musketry => next_attack(state, side, self.seed),
            Step::Melee => Order::EndStep,
        }
    }
}
