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
    let (Ok(side), Some(_)) = (b.unit(id).map(Unit::side), state.field().place(id)) else {
        return Vec::new();
    };
    let mut v: Vec<(UnitId, f64)> = Vec::with_capacity(b.units().len());
    v.extend(
        b.units_in_play(side.enemy())
            .filter_map(|e| Some((e.id(), nearest_key(state, id, e.id(), seed)?))),
    );
    v.sort_by(|a, b| a.1.total_cmp(&b.1));
    v
}

/// The key [`enemies_by_distance`] sorts enemy `e` of unit `id` by: the distance between the centres and the
/// seed's tie-break (`None` when either is not placed).
fn nearest_key(state: &State, id: UnitId, e: UnitId, seed: u64) -> Option<f64> {
    let (me, them) = (state.field().place(id)?, state.field().place(e)?);
    Some(me.centre.distance(them.centre).0 + 0.01 * jitter(seed, id, e))
}

/// A commander's memory of [`enemies_by_distance`], by unit: the list is read back while the unit and every
/// enemy in play stand where they stood (their centres to the bit, the same enemies in the same order), which
/// is all the list is worked out from. Not part of any game state.
#[derive(Clone, Debug, Default)]
struct NearestMemo {
    by_unit: Vec<Option<NearestEntry>>,
}

/// One unit's remembered list and what it was worked out from.
#[derive(Clone, Debug)]
struct NearestEntry {
    side: Side,
    me: (u64, u64),
    /// Each enemy in play, in order, with its centre's bits (`None`: not placed).
    enemies: Vec<(UnitId, Option<(u64, u64)>)>,
    sorted: Vec<(UnitId, f64)>,
}

fn centre_bits(state: &State, id: UnitId) -> Option<(u64, u64)> {
    state
        .field()
        .place(id)
        .map(|p| (p.centre.x.to_bits(), p.centre.y.to_bits()))
}

impl NearestMemo {
    /// [`enemies_by_distance`], remembered (and lent, not copied).
    fn get(&mut self, state: &State, id: UnitId, seed: u64) -> &[(UnitId, f64)] {
        let b = state.battle();
        // An unknown or unplaced unit has no enemies by distance.
        let (Ok(side), Some(me)) = (b.unit(id).map(Unit::side), centre_bits(state, id)) else {
            return &[];
        };
        let i = id.0 as usize;
        if self.by_unit.len() <= i {
            self.by_unit.resize(i + 1, None);
        }
        let entry = self.by_unit[i].get_or_insert_with(|| NearestEntry {
            side,
            me,
            enemies: Vec::with_capacity(b.units().len()),
            sorted: Vec::new(),
        });
        if entry.side == side && entry.me == me && !entry.sorted.is_empty() {
            // The same enemies in the same order: those that moved (placed before and now) get their keys worked
            // out afresh, as `enemies_by_distance` works them out, and the list is sorted again. With every key
            // distinct the order sorted is the only one, so it is the list `enemies_by_distance` gives; any
            // other change (an enemy in or out of play, placed or unplaced, two keys equal) lists them afresh.
            let mut kept = entry.enemies.iter_mut();
            let mut moved = false;
            let same = b.units_in_play(side.enemy()).all(|u| {
                let Some((kept_id, kept_bits)) = kept.next() else {
                    return false;
                };
                if *kept_id != u.id() {
                    return false;
                }
                let now = centre_bits(state, u.id());
                if *kept_bits == now {
                    return true;
                }
                let (Some(_), Some(_)) = (*kept_bits, now) else {
                    return false;
                };
                *kept_bits = now;
                let key = nearest_key(state, id, u.id(), seed);
                match (key, entry.sorted.iter_mut().find(|(e, _)| *e == u.id())) {
                    (Some(key), Some(slot)) => {
                        slot.1 = key;
                        moved = true;
                        true
                    }
                    _ => false,
                }
            }) && kept.next().is_none();
            if same {
                if moved {
                    entry.sorted.sort_by(|a, b| a.1.total_cmp(&b.1));
                }
                let distinct = entry
                    .sorted
                    .windows(2)
                    .all(|w| w[0].1.total_cmp(&w[1].1).is_lt());
                if distinct {
                    return &entry.sorted;
                }
            }
        }
        entry.side = side;
        entry.me = me;
        entry.enemies.clear();
        entry.enemies.extend(
            b.units_in_play(side.enemy())
                .map(|u| (u.id(), centre_bits(state, u.id()))),
        );
        entry.sorted = enemies_by_distance(state, id, seed);
        &entry.sorted
    }
}

/// What a commander remembers between its orders to spare asking the engine again (no part of the game).
#[derive(Clone, Debug, Default)]
struct Memory {
    attacks: AttackMemo,
    nearest: NearestMemo,
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

/// What one unit's attack on one target came to when last asked of the engine, and on what it depended.
#[derive(Clone, Copy, Debug)]
struct PairAnswer {
    /// The attack was allowed.
    ok: bool,
    /// The refusal comes from the attacker's own state ([`refuses_every_target`]).
    every: bool,
    /// The answer read no unit but the two (see [`reads_only_the_pair`]).
    local: bool,
    /// The attacker's and the target's versions when it was asked.
    versions: (u64, u64),
    /// The ground's version when it was asked (read only when the answer is not `local`).
    geometry: u64,
}

/// Whether an answer of [`State::can_attack`] (for fire or artillery) stays what it is while neither unit
/// changes, whatever the others do: every refusal but a blocked line of sight or a screen. The check reads
/// the other units only to find the line of sight and the screen, and only once every other condition has
/// passed (with the arc and the range as they are); a refusal after that (a target in melee) is still a
/// refusal, not by the attacker's own state, whatever the line of sight becomes.
fn reads_only_the_pair(answer: &Result<crate::combat::Sight, RuleViolation>) -> bool {
    !matches!(
        answer,
        Ok(_)
            | Err(RuleViolation::CannotAttack {
                reason: AttackRefusal::NoLineOfSight | AttackRefusal::Screened,
                ..
            })
    )
}

/// A commander's memory of the engine's answers to "may this unit attack that one" within a combat step, so
/// the attack after the first does not ask again of units that did not change. Not part of any game state:
/// every answer is checked against the state it is asked of, and a stale one is asked again, so the choice is
/// the one the engine's answers give, bit for bit.
///
/// An answer depends on the attacker and the target (every field of each and their places) and, when it
/// reads the line of sight, on where every unit in play stands and how large it is. Each unit carries a
/// version, raised when anything of it changes; the ground carries one, raised when a unit moves, changes
/// size, enters or leaves play, or goes into or out of skirmish order.
#[derive(Clone, Debug, Default)]
struct AttackMemo {
    /// What the answers were asked under; any change starts the memory afresh.
    category: Option<Category>,
    options: Option<crate::options::Options>,
    ground: Option<acw_core::table::Table>,
    bases: Option<crate::field::Bases>,
    /// Each unit and its place as last seen, by id.
    units: Vec<Unit>,
    places: Vec<crate::field::Place>,
    versions: Vec<u64>,
    geometry: u64,
    tick: u64,
    /// Answers by attacker and target (`attacker * units + target`).
    answers: Vec<Option<PairAnswer>>,
}

/// The same place, to the bit.
fn same_place(a: &crate::field::Place, b: &crate::field::Place) -> bool {
    a.centre.x.to_bits() == b.centre.x.to_bits()
        && a.centre.y.to_bits() == b.centre.y.to_bits()
        && a.facing.as_degrees().to_bits() == b.facing.as_degrees().to_bits()
}

impl AttackMemo {
    /// Brings the memory up to `state`: versions raised for every unit that changed. When the state's units
    /// and places are not laid out by id the memory is emptied, and [`AttackMemo::ask`] then asks every time.
    fn refresh(&mut self, state: &State, category: Category) {
        let b = state.battle();
        let f = state.field();
        let n = b.units().len();
        if f.places.len() != n
            || b.units()
                .iter()
                .enumerate()
                .any(|(i, u)| u.id().0 as usize != i)
        {
            *self = AttackMemo::default();
            return;
        }
        let same_world = self.category == Some(category)
            && self.units.len() == n
            && self.options.as_ref() == Some(b.options())
            && self.ground.as_ref() == Some(&f.ground)
            && self.bases == Some(f.bases);
        if !same_world {
            *self = AttackMemo {
                category: Some(category),
                options: Some(b.options().clone()),
                ground: Some(f.ground.clone()),
                bases: Some(f.bases),
                units: b.units().to_vec(),
                places: f.places.clone(),
                versions: vec![0; n],
                geometry: 0,
                tick: 0,
                answers: vec![None; n * n],
            };
            return;
        }
        for (i, (u, p)) in b.units().iter().zip(&f.places).enumerate() {
            let moved = !same_place(p, &self.places[i]);
            // The same stamp is the same unit in every part (see `Units`); otherwise it is compared.
            if !moved && (u.stamp == self.units[i].stamp || *u == self.units[i]) {
                continue;
            }
            let old = &self.units[i];
            let (ow, od) = f.bases.size(old);
            let (nw, nd) = f.bases.size(u);
            let reshaped = moved
                || old.in_play() != u.in_play()
                || old.is_skirmishers() != u.is_skirmishers()
                || old.side() != u.side()
                || ow.0.to_bits() != nw.0.to_bits()
                || od.0.to_bits() != nd.0.to_bits();
            self.tick += 1;
            self.versions[i] = self.tick;
            if reshaped {
                self.geometry = self.tick;
            }
            self.units[i].clone_from(u);
            self.places[i] = *p;
        }
    }

    /// Whether `attacker` may attack `target` now: refused at once when it is surely out of range, else
    /// [`AttackMemo::ask`].
    fn ask_ok(
        &mut self,
        state: &State,
        attacker: UnitId,
        target: UnitId,
        category: Category,
    ) -> bool {
        !state.surely_out_of_range(attacker, target, category)
            && self.ask(state, attacker, target, category).0
    }

    /// Whether `attacker` may attack `target` now (`ok`), and whether a refusal comes from the attacker's own
    /// state (`every`): the engine's answer, remembered.
    fn ask(
        &mut self,
        state: &State,
        attacker: UnitId,
        target: UnitId,
        category: Category,
    ) -> (bool, bool) {
        let n = self.units.len();
        let (a, t) = (attacker.0 as usize, target.0 as usize);
        let versions = match (self.versions.get(a), self.versions.get(t)) {
            (Some(&va), Some(&vt)) => (va, vt),
            _ => {
                let r = state.can_attack(attacker, target, category);
                return (
                    r.is_ok(),
                    r.as_ref().err().is_some_and(refuses_every_target),
                );
            }
        };
        if let Some(Some(m)) = self.answers.get(a * n + t)
            && m.versions == versions
            && (m.local || m.geometry == self.geometry)
        {
            return (m.ok, m.every);
        }
        let r = state.can_attack(attacker, target, category);
        let answer = PairAnswer {
            ok: r.is_ok(),
            every: r.as_ref().err().is_some_and(refuses_every_target),
            local: reads_only_the_pair(&r),
            versions,
            geometry: self.geometry,
        };
        self.answers[a * n + t] = Some(answer);
        (answer.ok, answer.every)
    }
}

/// The next attack of the step: the first unit (by id) with a legal target attacks its nearest one, with every
/// other unit that may attack the same target; `EndStep` when nobody can. The engine's answers are taken
/// through `memo`, which gives each one as the engine would give it now.
fn next_attack(state: &State, side: Side, seed: u64, memory: &mut Memory) -> Order {
    let category = match state.step() {
        Step::Artillery => Category::Artillery,
        Step::Musketry => Category::Musketry,
        _ => return Order::EndStep,
    };
    let Memory {
        attacks: memo,
        nearest,
    } = memory;
    // A state whose units are not laid out by id leaves the memory empty: every answer is then asked.
    memo.refresh(state, category);
    let b = state.battle();
    let first_enemy = b.units_in_play(side.enemy()).next().map(Unit::id);
    for u in b.units_in_play(side) {
        if u.phase().attacked.is_some() {
            continue;
        }
        // A unit whose own state refuses one enemy refuses them all: no need to sort them.
        if let Some(t) = first_enemy
            && let (false, true) = memo.ask(state, u.id(), t, category)
        {
            continue;
        }
        let target = nearest
            .get(state, u.id(), seed)
            .iter()
            .map(|&(t, _)| t)
            .find(|&t| memo.ask_ok(state, u.id(), t, category));
        if let Some(target) = target {
            let attackers = b
                .units_in_play(side)
                .filter(|o| o.phase().attacked.is_none())
                .filter(|o| memo.ask_ok(state, o.id(), target, category))
                .map(Unit::id)
                .collect();
            return Order::Attack { target, attackers };
        }
    }
    Order::EndStep
}

/// The heading of an advance: toward the nearest enemy if that gains ground toward the enemy's edge, else
/// straight at the edge.
fn advance_heading(
    state: &State,
    id: UnitId,
    seed: u64,
    memo: &mut NearestMemo,
) -> Option<Heading> {
    let straight = state.ordered_heading(id)?;
    let me = state.footprint(id)?;
    let nearest = memo.get(state, id, seed).first().map(|&(e, _)| e)?;
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
fn common_action(state: &State, u: &Unit, seed: u64, memo: &mut NearestMemo) -> Option<Action> {
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
            let (nearest, _) = *memo.get(state, id, seed).first()?;
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
    mut choose: impl FnMut(&State, &Unit) -> Option<Action>,
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
#[derive(Clone, Debug)]
pub struct Attacker {
    seed: u64,
    /// What it remembers of the engine's answers between orders (no part of the game).
    memo: Memory,
}

impl PartialEq for Attacker {
    /// Two commanders are equal when they decide alike: by their seeds (the memory changes no decision).
    fn eq(&self, other: &Self) -> bool {
        self.seed == other.seed
    }
}

impl Eq for Attacker {}

impl Attacker {
    /// An attacker whose ties are broken by `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Attacker {
            seed,
            memo: Memory::default(),
        }
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

    fn choose(&mut self, state: &State, u: &Unit) -> Option<Action> {
        if let Some(a) = common_action(state, u, self.seed, &mut self.memo.nearest) {
            return Some(a);
        }
        let id = u.id();
        let enemies = self.memo.nearest.get(state, id, self.seed);
        if let Some(&(target, _)) = enemies.iter().find(|&&(t, _)| {
            !state.surely_beyond_charge_reach(id, t) && state.can_charge(id, t).is_ok()
        }) {
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
                let heading = advance_heading(state, id, self.seed, &mut self.memo.nearest)?;
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
            Step::Artillery | Step::Musketry => next_attack(state, side, self.seed, &mut self.memo),
            Step::Melee => Order::EndStep,
        }
    }
}

/// Holds its ground: asks for Hold (the Army Commander sets it for his brigade, the MGs toss for the rest),
/// stands and fires, and charges only an enemy that comes within reach in column or weaker than itself.
#[derive(Clone, Debug)]
pub struct Holder {
    seed: u64,
    /// What it remembers of the engine's answers between orders (no part of the game).
    memo: Memory,
}

impl PartialEq for Holder {
    /// Two commanders are equal when they decide alike: by their seeds (the memory changes no decision).
    fn eq(&self, other: &Self) -> bool {
        self.seed == other.seed
    }
}

impl Eq for Holder {}

impl Holder {
    /// A holder whose ties are broken by `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Holder {
            seed,
            memo: Memory::default(),
        }
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

    fn choose(&mut self, state: &State, u: &Unit) -> Option<Action> {
        if let Some(a) = common_action(state, u, self.seed, &mut self.memo.nearest) {
            return Some(a);
        }
        let id = u.id();
        let b = state.battle();
        let tempting = self
            .memo
            .nearest
            .get(state, id, self.seed)
            .iter()
            .copied()
            .find(|&(t, _)| {
                !state.surely_beyond_charge_reach(id, t)
                    && state.can_charge(id, t).is_ok()
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
            Step::Artillery | Step::Musketry => next_attack(state, side, self.seed, &mut self.memo),
            Step::Melee => Order::EndStep,
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::setup::Scenario;
    use acw_core::game::Ruleset;

    /// The memory of enemies by distance gives, at every order of two seeded games and for every unit in play,
    /// the list `enemies_by_distance` works out afresh, entry for entry and bit for bit; among those asks are
    /// many where the unit stood still and enemies moved (the lists brought up to date in place).
    #[test]
    fn the_memory_of_enemies_by_distance_is_the_list_worked_out_afresh() {
        let mut still_with_enemies_moved = 0u32;
        for seed in [7u64, 11] {
            let mut state = North.setup(&Scenario::default(), seed).unwrap();
            let (mut attacker, mut holder) = (Attacker::new(seed), Holder::new(seed));
            let mut memo = NearestMemo::default();
            let mut log = Vec::new();
            let mut last: Vec<Option<(u64, u64)>> = Vec::new();
            while let Some(side) = North.to_order(&state) {
                let now: Vec<Option<(u64, u64)>> = state
                    .battle()
                    .units()
                    .iter()
                    .map(|u| centre_bits(&state, u.id()))
                    .collect();
                for u in state.battle().units().iter().filter(|u| u.in_play()) {
                    let i = u.id().0 as usize;
                    let enemy_moved = state
                        .battle()
                        .units_in_play(u.side().enemy())
                        .any(|e| last.get(e.id().0 as usize) != now.get(e.id().0 as usize));
                    if last.get(i) == now.get(i) && enemy_moved {
                        still_with_enemies_moved += 1;
                    }
                    let fresh = enemies_by_distance(&state, u.id(), seed);
                    let kept = memo.get(&state, u.id(), seed);
                    assert_eq!(kept.len(), fresh.len());
                    for (k, f) in kept.iter().zip(&fresh) {
                        assert_eq!((k.0, k.1.to_bits()), (f.0, f.1.to_bits()));
                    }
                }
                last = now;
                let order = match side {
                    Side::Union => attacker.order(&North, &state, side),
                    Side::Confederate => holder.order(&North, &state, side),
                };
                North.apply(&mut state, &order, &mut log).unwrap();
            }
        }
        assert!(
            still_with_enemies_moved > 1_000,
            "{still_with_enemies_moved}"
        );
    }
}
