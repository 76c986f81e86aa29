//! Two baseline commanders that ask the engine what is legal ([`State::check_order`]) and never give a refused
//! order: the [`Attacker`] advances on the enemy, charges when a charge is allowed, and fires when it is in
//! range; the [`Holder`] stands on its base line, deploys its guns and dismounts its cavalry, and fires at
//! whatever comes into range. Both fight every melee they are in. Ties between equally near targets are broken
//! by the commander's own seeded generator.

use crate::field::{Field, cm, facing, gap_of_terms};
use crate::game::{D8, FireCheck, Order, Question, State};
use crate::map::Map;
use crate::sequence::Phase;
use crate::state::{Battle, Unit, UnitId};
use crate::tables::{Formation, Troop, Weapon};
use acw_core::game::Commander;
use acw_core::measure::{Inches, Point};
use acw_core::table::Footprint;
use acw_core::{Die, GameRng, Side};

/// The order of `f64::total_cmp` as an unsigned key: `a.total_cmp(&b)` is `key(a).cmp(&key(b))`.
fn total_key(d: f64) -> u64 {
    let bits = d.to_bits();
    // Negative numbers count down (their bits but the sign flipped), the rest up; the sign bit flipped puts the
    // negative half below the positive one.
    (bits ^ ((((bits as i64) >> 63) as u64) >> 1)) ^ (1 << 63)
}

/// How many of a nearest-enemy list the commanders read in order: the rest they only search for any enemy
/// in range.
const FRONT: usize = 4;

/// Whether no two of a run of distances are equal (as `==` takes them: no NaN, and 0 and -0 equal), and if so
/// the nearest of them and the others of the nearest [`FRONT`] that lie within `limit`, as (key, place in the
/// run), least first (`(u64::MAX, usize::MAX)` past those); the keys ([`total_key`]) of distinct distances
/// are distinct. A run of more than 32 counts as tied. Those beyond `limit` but the nearest are not put in
/// order (the commanders read no further than `limit` down the list, but for its nearest).
fn front_without_ties(run: &[(f64, UnitId)], limit: f64) -> Option<[(u64, usize); FRONT]> {
    /// Open addressing in a table at least twice the run.
    const SLOTS: usize = 64;
    if run.len() > SLOTS / 2 {
        return None;
    }
    // Seen distances by their bits with the sign bit set, so never 0, which marks an empty slot (-0 is turned
    // to 0 first; a distance and its negative would look equal and count as a tie, which the full sort takes
    // exactly).
    let mut seen = [0u64; SLOTS];
    let mut front = [(u64::MAX, usize::MAX); FRONT];
    let mut nearest = (u64::MAX, usize::MAX);
    let within = total_key(limit);
    for (i, &(d, _)) in run.iter().enumerate() {
        if d.is_nan() {
            return None;
        }
        let bits = if d == 0.0 { 0.0f64 } else { d }.to_bits();
        let mut slot = (bits.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58) as usize;
        let bits = bits | 1 << 63;
        loop {
            match seen[slot] {
                0 => {
                    seen[slot] = bits;
                    break;
                }
                s if s == bits => return None,
                _ => slot = (slot + 1) % SLOTS,
            }
        }
        let k = total_key(d);
        if k < nearest.0 {
            nearest = (k, i);
        }
        if k <= within && k < front[FRONT - 1].0 {
            let mut at = FRONT - 1;
            while at > 0 && front[at - 1].0 > k {
                front[at] = front[at - 1];
                at -= 1;
            }
            front[at] = (k, i);
        }
    }
    // The nearest is first when it lies within `limit` (it was put in order), else alone.
    if front[0].1 == usize::MAX {
        front[0] = nearest;
    }
    Some(front)
}

/// The nearest-enemy lists of a commander, in buffers kept from one list to the next.
#[derive(Clone, Debug, Default)]
struct Nearest {
    /// The enemies in the battle's order with their distances.
    raw: Vec<(f64, UnitId)>,
    /// Sort keys: the distance's `total_key` with its lowest 8 bits replaced by the enemy's place in `raw`.
    keys: Vec<u64>,
    /// The whole list sorted, when it is ([`Nearest::sort_and_shuffle`]).
    list: Vec<(f64, UnitId)>,
    /// The nearest [`FRONT`] in order, when the list is not sorted in full.
    front: Vec<(f64, UnitId)>,
    /// The units in play not of `foes_of` in the battle's order, each with its terms of the distance
    /// ([`Field::gap_terms`]), gathered at the first list a decision asks for of that side and kept for the
    /// decision's other lists (nothing moves or loses figures while a commander decides).
    foes: Vec<(UnitId, Option<(Point, f64)>)>,
    /// The side whose enemies `foes` holds; `None` until a decision's first list.
    foes_of: Option<Side>,
}

/// A nearest-enemy list as the commanders read it.
struct Near<'a> {
    /// The nearest [`FRONT`] (or all, if fewer), nearest first: the front of the whole list in the stable
    /// order by distance and then id with its tied runs shuffled.
    front: &'a [(f64, UnitId)],
    /// Every enemy with its distance, in no promised order (for questions of any of them).
    all: &'a [(f64, UnitId)],
}

impl Nearest {
    /// The enemy units in play by distance from `u` (centre to centre, less half of each footprint's
    /// diagonal, [`Field::least_gap_cm`]): the nearest [`FRONT`] in order, and all of them; units at exactly
    /// the same distance are put in random order by `rng`. The front may stop early after its first at an
    /// enemy farther than `limit`: the caller reads no further down it than `limit`, but for its first.
    ///
    /// The front is the front of the whole list in the stable order by distance and then id with its tied runs
    /// shuffled from the first run to the last, and `rng` draws the same: with no two distances equal
    /// ([`front_without_ties`], checked once they are measured) nothing is drawn and only the front is picked out; otherwise the whole
    /// list is sorted ([`Nearest::sort_and_shuffle`]).
    ///
    /// The enemies' terms are gathered once a decision ([`Nearest::forget`] between decisions).
    fn by_distance(
        &mut self,
        b: &Battle,
        f: &Field,
        u: &Unit,
        limit: f64,
        rng: &mut GameRng,
    ) -> Near<'_> {
        self.gather(b, f, u.side);
        let from = f.gap_terms(u);
        self.raw.clear();
        self.raw.extend(self.foes.iter().map(|&(id, terms)| {
            let d = match (from, terms) {
                (Some(a), Some(o)) => gap_of_terms(a, o),
                _ => f64::INFINITY,
            };
            (d, id)
        }));
        if let Some(front) = front_without_ties(&self.raw, limit) {
            self.front.clear();
            self.front.extend(
                front
                    .iter()
                    .take_while(|e| e.1 < self.raw.len())
                    .map(|e| self.raw[e.1]),
            );
            Near {
                front: &self.front,
                all: &self.raw,
            }
        } else {
            self.sort_and_shuffle(rng);
            Near {
                front: &self.list[..self.list.len().min(FRONT)],
                all: &self.list,
            }
        }
    }

    /// Gathers the terms of the enemies of `side` ([`Nearest::foes`]), unless this decision has.
    fn gather(&mut self, b: &Battle, f: &Field, side: Side) {
        if self.foes_of != Some(side) {
            self.foes_of = Some(side);
            self.foes.clear();
            self.foes.extend(
                b.units()
                    .iter()
                    .filter(|o| !o.removed && o.side != side)
                    .map(|o| (o.id, f.gap_terms(o))),
            );
        }
    }

    /// Whether `u` has an enemy it could fire on where it stands (the same checks as firing, made in the
    /// Movement phase by distance and weapon range only: some enemy in play within the reach of its weapon,
    /// [`Field::gap_at_most`]). Measured from the enemies' terms gathered for the decision: an enemy whose cheap
    /// lower bound (bit for bit the first bound `gap_at_most` tries) lies beyond the reach is passed over; the
    /// rest are asked of `gap_at_most`, in the battle's order, until one is in reach.
    fn in_range(&mut self, b: &Battle, f: &Field, u: &Unit) -> bool {
        self.gather(b, f, u.side);
        let reach = reach(b, u);
        let from = f.gap_terms(u);
        self.foes.iter().any(|&(id, terms)| {
            let bound = match (from, terms) {
                (Some(a), Some(o)) => gap_of_terms(a, o),
                _ => f64::INFINITY,
            };
            bound <= reach && b.unit(id).is_ok_and(|o| f.gap_at_most(u, o, reach))
        })
    }

    /// Drops the enemies' terms gathered for a decision: the next list gathers them again. Called at the start
    /// of each decision, since the battle changes between decisions.
    fn forget(&mut self) {
        self.foes_of = None;
    }

    /// With no two distances of `raw` equal (as `==` takes them: no NaN, and 0 and -0 equal), the nearest
    /// [`FRONT`] in order in `front`, and `true`; otherwise `false`.
    #[cfg(test)]
    fn front_without_ties(&mut self, limit: f64) -> bool {
        self.front.clear();
        let Some(front) = front_without_ties(&self.raw, limit) else {
            return false;
        };
        self.front.extend(
            front
                .iter()
                .take_while(|e| e.1 < self.raw.len())
                .map(|e| self.raw[e.1]),
        );
        true
    }

    /// The whole list in the stable order by distance and then id, each tied run shuffled by `rng`, from the
    /// first run to the last. The sort is of plain integer keys (the distance's order with its last 8 bits
    /// given to the enemy's place in the battle's order); only keys that agree but for those bits are ordered
    /// again by the exact distance and id.
    fn sort_and_shuffle(&mut self, rng: &mut GameRng) {
        let exact = |a: &(f64, UnitId), b: &(f64, UnitId)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
        self.list.clear();
        if self.raw.len() > 256 {
            self.list.extend_from_slice(&self.raw);
            self.list.sort_unstable_by(exact);
        } else {
            self.keys.clear();
            self.keys.extend(
                self.raw
                    .iter()
                    .enumerate()
                    .map(|(i, &(d, _))| (total_key(d) & !0xFF) | i as u64),
            );
            self.keys.sort_unstable();
            self.list
                .extend(self.keys.iter().map(|&k| self.raw[(k & 0xFF) as usize]));
            // Runs whose keys agree but for the place bits: ordered by distance and id.
            let mut i = 0;
            while i < self.keys.len() {
                let mut j = i + 1;
                while j < self.keys.len() && self.keys[j] >> 8 == self.keys[i] >> 8 {
                    j += 1;
                }
                if j - i > 1 {
                    self.list[i..j].sort_unstable_by(exact);
                }
                i = j;
            }
        }
        let v = &mut self.list;
        let mut i = 0;
        while i < v.len() {
            let mut j = i + 1;
            while j < v.len() && v[j].0 == v[i].0 {
                j += 1;
            }
            // A seeded shuffle of the tied run.
            for k in (i + 1..j).rev() {
                let pick =
                    i + usize::from(Die::new((k - i + 1) as u16).map_or(1, |d| d.roll(rng))) - 1;
                v.swap(k, pick);
            }
            i = j;
        }
    }
}

/// What a commander has already decided to leave alone in the current phase: the units it found nothing
/// for, so it does not weigh them again until the phase changes.
#[derive(Clone, Debug, Default)]
struct Passed {
    key: Option<(Side, u32, Phase)>,
    units: Vec<UnitId>,
}

impl Passed {
    fn refresh(&mut self, b: &Battle) {
        let key = (b.active(), *b.turns().get(b.active()), b.phase());
        if self.key != Some(key) {
            self.key = Some(key);
            self.units.clear();
        }
    }
}

/// The volleys the rules refused a commander for a lasting reason ([`FireCheck::Ground`] or
/// [`FireCheck::Across`]), by firer: the target and what must stay as it was for the refusal to hold. While it
/// does, the rules refuse that volley whatever else holds, so the commander does not ask again. The map the
/// refusals were measured on is kept, and they are forgotten on another.
#[derive(Clone, Debug, Default)]
struct Screens {
    map: Option<Map>,
    by_firer: Vec<Vec<(UnitId, Lasting)>>,
}

/// Why a volley stays refused.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Lasting {
    /// The ground: the firer's and the target's footprints, and the firer's troop, formation, figures and
    /// weapon.
    Ground([Footprint; 2], (Troop, Formation, u32, Weapon)),
    /// A unit across the line of fire, and the firer's, the target's and its footprints.
    Across(UnitId, [Footprint; 3]),
}

impl Screens {
    /// The footprint of a unit in play (not removed) where it stands.
    fn print(b: &Battle, f: &Field, id: UnitId) -> Option<Footprint> {
        b.unit(id)
            .ok()
            .filter(|u| !u.removed)
            .and_then(|u| f.footprint(u))
    }

    /// Whether `lasting` holds now for a volley from `firer` at `target`.
    fn holds(b: &Battle, f: &Field, firer: &Unit, target: UnitId, lasting: &Lasting) -> bool {
        let Some(uf) = f.footprint(firer) else {
            return false;
        };
        match lasting {
            Lasting::Ground(prints, facts) => {
                prints[0] == uf
                    && *facts == (firer.troop, firer.formation, firer.figures, firer.weapon)
                    && Screens::print(b, f, target) == Some(prints[1])
            }
            Lasting::Across(across, prints) => {
                prints[0] == uf
                    && Screens::print(b, f, target) == Some(prints[1])
                    && Screens::print(b, f, *across) == Some(prints[2])
            }
        }
    }

    /// Forgets everything if the battle is fought on another map than the one remembered.
    fn refresh(&mut self, f: &Field) {
        if self.map.as_ref() != Some(f.map()) {
            self.map = Some(f.map().clone());
            self.by_firer.clear();
        }
    }

    /// Whether the rules refuse a volley from `firer` at `target` for a reason noted before that still holds.
    fn screened(&self, b: &Battle, f: &Field, firer: &Unit, target: UnitId) -> bool {
        self.by_firer
            .get(firer.id.0 as usize)
            .and_then(|v| v.iter().find(|s| s.0 == target))
            .is_some_and(|s| Screens::holds(b, f, firer, target, &s.1))
    }

    /// Notes what the rules made of a refused volley: a lasting reason is kept (replacing any earlier one), any
    /// other forgets the volley.
    fn refused(&mut self, b: &Battle, f: &Field, firer: &Unit, target: UnitId, why: FireCheck) {
        let lasting = f.footprint(firer).and_then(|uf| match why {
            FireCheck::Ground => Screens::print(b, f, target).map(|tf| {
                Lasting::Ground(
                    [uf, tf],
                    (firer.troop, firer.formation, firer.figures, firer.weapon),
                )
            }),
            FireCheck::Across(across) => Screens::print(b, f, target)
                .zip(Screens::print(b, f, across))
                .map(|(tf, af)| Lasting::Across(across, [uf, tf, af])),
            FireCheck::Accepted | FireCheck::Refused => None,
        });
        let i = firer.id.0 as usize;
        if self.by_firer.len() <= i {
            self.by_firer.resize(i + 1, Vec::new());
        }
        let v = &mut self.by_firer[i];
        v.retain(|s| s.0 != target);
        if let Some(l) = lasting {
            v.push((target, l));
        }
    }
}

/// The sharpshooters a side asks for: `want`, or fewer until the rules accept it.
fn sharpshooters(state: &State, want: u8) -> Order {
    (0..=want)
        .rev()
        .map(Order::Sharpshooters)
        .find(|o| state.check_order(o).is_ok())
        .unwrap_or(Order::Sharpshooters(0))
}

/// The first legal fire order of the active side: each unit that has not fired, at the nearest enemy it may
/// fire on.
#[allow(clippy::too_many_arguments)]
fn fire_order(
    state: &State,
    b: &Battle,
    f: &Field,
    side: Side,
    rng: &mut GameRng,
    nearest: &mut Nearest,
    passed: &mut Passed,
    screens: &mut Screens,
) -> Option<Order> {
    passed.refresh(b);
    screens.refresh(f);
    for u in b
        .units()
        .iter()
        .filter(|u| u.side == side && !u.removed && !u.fired && !u.moved)
    {
        if u.mounted || (u.troop.is_battery() && u.limbered) || passed.units.contains(&u.id) {
            continue;
        }
        passed.units.push(u.id);
        let reach = reach(b, u);
        for &(d, t) in nearest.by_distance(b, f, u, reach, rng).front {
            if d > reach {
                break;
            }
            if screens.screened(b, f, u, t) {
                continue;
            }
            match state.check_fire(u.id, t) {
                FireCheck::Accepted => {
                    return Some(Order::Fire {
                        unit: u.id,
                        target: t,
                    });
                }
                why => screens.refused(b, f, u, t, why),
            }
        }
    }
    None
}

/// The first melee of the active side not yet fought.
fn melee_order(state: &State, b: &Battle, f: &Field, side: Side) -> Option<Order> {
    let enemies = f.enemies_placed(b, side);
    for u in b
        .units()
        .iter()
        .filter(|u| u.side == side && !u.removed && !state.attacked(u.id))
    {
        for d in f.within(u, &enemies, crate::field::CONTACT_CM) {
            let o = Order::Melee {
                attacker: u.id,
                defender: d.id,
            };
            if state.check_order(&o).is_ok() {
                return Some(o);
            }
        }
    }
    None
}

/// The longest range of a unit's weapon, in cm.
fn reach(b: &Battle, u: &Unit) -> f64 {
    let r = u.weapon.ranges(b.options().bow_short);
    r.long.or(r.short).unwrap_or(0.0)
}

/// The attacking commander.
#[derive(Clone, Debug)]
pub struct Attacker {
    rng: GameRng,
    nearest: Nearest,
    passed: Passed,
    screens: Screens,
}

impl Attacker {
    /// A commander whose tie-breaks come from `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Attacker {
        Attacker {
            rng: GameRng::seed(seed ^ 0xA77A_C4E5),
            nearest: Nearest::default(),
            passed: Passed::default(),
            screens: Screens::default(),
        }
    }

    fn movement(&mut self, state: &State, b: &Battle, f: &Field, side: Side) -> Option<Order> {
        self.passed.refresh(b);
        for u in b
            .units()
            .iter()
            .filter(|u| u.side == side && !u.removed && !u.moved)
        {
            if self.passed.units.contains(&u.id) {
                continue;
            }
            if let Some(o) = self.advance(state, b, f, u, side) {
                return Some(o);
            }
            self.passed.units.push(u.id);
        }
        None
    }

    fn advance(
        &mut self,
        state: &State,
        b: &Battle,
        f: &Field,
        u: &Unit,
        side: Side,
    ) -> Option<Order> {
        if u.boat.is_some() {
            return None;
        }
        // Guns unlimber and stay; anything in range of its weapon holds to fire.
        if u.troop.is_battery() {
            if u.limbered {
                let o = Order::Limber {
                    unit: u.id,
                    limbered: false,
                };
                if state.check_order(&o).is_ok() {
                    return Some(o);
                }
            }
            return None;
        }
        // A charge on the nearest enemies the rules allow.
        let charge_rate = if u.mounted { 60.0 } else { 30.0 };
        // A charge the rules refuse whatever its target (`Battle::charge_barred`) is not asked about.
        let charges = if b.charge_barred(u.id) { 0 } else { 3 };
        // Read down to the charge distance (when charges are asked about), and the nearest.
        let limit = if charges > 0 {
            charge_rate
        } else {
            f64::NEG_INFINITY
        };
        let enemies = self.nearest.by_distance(b, f, u, limit, &mut self.rng);
        for &(bound, t) in enemies.front.iter().take(charges) {
            if bound > charge_rate {
                break;
            }
            let o = Order::Charge {
                unit: u.id,
                target: t,
            };
            if state.check_order(&o).is_ok() {
                return Some(o);
            }
        }
        // `in_range`, from the list's bounds (each is `least_gap_cm`, bit for bit): the same enemies measured.
        let reach = reach(b, u);
        if !u.mounted
            && enemies.all.iter().any(|&(bound, t)| {
                bound.partial_cmp(&reach) != Some(std::cmp::Ordering::Greater)
                    && b.unit(t).is_ok_and(|o| f.gap_at_most(u, o, reach))
            })
        {
            return None;
        }
        let &(gap, t) = enemies.front.first()?;
        let (Some(me), Some(target)) = (f.place(u.id), b.unit(t).ok().and_then(|t| f.place(t.id)))
        else {
            return None;
        };
        // Close on the enemy: a full move, or to the edge of charge distance for a line that could charge.
        let rate: f64 = if u.mounted { 30.0 } else { 15.0 };
        let step = rate.min((gap - 1.0).max(0.0));
        if step < 1.0 {
            return None;
        }
        let heading = me.centre.heading_to(target.centre);
        for frac in [1.0, 0.66, 0.33] {
            let p = me
                .centre
                .moved(heading, Inches(crate::field::inches(step * frac)));
            let (x_cm, y_cm) = (cm(p.x), cm(p.y));
            // A move the rules refuse unmeasured (`State::move_barred`) is not asked about.
            if state.move_barred(u.id, x_cm, y_cm) {
                continue;
            }
            let o = Order::Move {
                unit: u.id,
                x_cm,
                y_cm,
            };
            if state.check_order(&o).is_ok() {
                return Some(o);
            }
        }
        // Blocked: straight ahead, shorter.
        for frac in [0.5, 0.25] {
            let p = crate::field::moved_by(
                me.centre,
                crate::field::frame(facing(side)).ahead,
                crate::field::inches(step * frac),
            );
            let (x_cm, y_cm) = (cm(p.x), cm(p.y));
            // A move the rules refuse unmeasured (`State::move_barred`) is not asked about.
            if state.move_barred(u.id, x_cm, y_cm) {
                continue;
            }
            let o = Order::Move {
                unit: u.id,
                x_cm,
                y_cm,
            };
            if state.check_order(&o).is_ok() {
                return Some(o);
            }
        }
        None
    }
}

impl Commander<D8> for Attacker {
    fn order(&mut self, _: &D8, state: &State, side: Side) -> Order {
        self.nearest.forget();
        let (Some(b), Some(f)) = (state.battle(), state.field()) else {
            return sharpshooters(state, 0);
        };
        let next = match state.decision().map(|d| d.question) {
            Some(Question::Movement) => self.movement(state, b, f, side),
            Some(Question::Firing) => fire_order(
                state,
                b,
                f,
                side,
                &mut self.rng,
                &mut self.nearest,
                &mut self.passed,
                &mut self.screens,
            ),
            Some(Question::Melee) => melee_order(state, b, f, side),
            _ => None,
        };
        next.unwrap_or(Order::EndPhase)
    }
}

/// The holding commander.
#[derive(Clone, Debug)]
pub struct Holder {
    rng: GameRng,
    nearest: Nearest,
    passed: Passed,
    screens: Screens,
}

impl Holder {
    /// A commander whose tie-breaks come from `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Holder {
        Holder {
            rng: GameRng::seed(seed ^ 0x401D_E125),
            nearest: Nearest::default(),
            passed: Passed::default(),
            screens: Screens::default(),
        }
    }

    fn movement(&mut self, state: &State, b: &Battle, f: &Field, side: Side) -> Option<Order> {
        self.passed.refresh(b);
        for u in b
            .units()
            .iter()
            .filter(|u| u.side == side && !u.removed && !u.moved)
        {
            if self.passed.units.contains(&u.id) {
                continue;
            }
            self.passed.units.push(u.id);
            let o = match u.troop {
                Troop::Battery(_) if u.limbered => Order::Limber {
                    unit: u.id,
                    limbered: false,
                },
                Troop::Cavalry if u.mounted => Order::Mount {
                    unit: u.id,
                    mounted: false,
                },
                // A line whose nearest enemy is out of its reach but within twice the reach steps up a little.
                Troop::Foot
                    if u.formation == Formation::Line && !self.nearest.in_range(b, f, u) =>
                {
                    let Some(&(gap, _)) = self
                        .nearest
                        .by_distance(b, f, u, f64::NEG_INFINITY, &mut self.rng)
                        .front
                        .first()
                    else {
                        continue;
                    };
                    if gap > 2.0 * reach(b, u) || Die::D6.roll(&mut self.rng) > 3 {
                        continue;
                    }
                    let Some(me) = f.place(u.id) else { continue };
                    let p = crate::field::moved_by(
                        me.centre,
                        crate::field::frame(facing(side)).ahead,
                        crate::field::inches(10.0),
                    );
                    Order::Move {
                        unit: u.id,
                        x_cm: cm(p.x),
                        y_cm: cm(p.y),
                    }
                }
                _ => continue,
            };
            if state.check_order(&o).is_ok() {
                return Some(o);
            }
        }
        None
    }
}

impl Commander<D8> for Holder {
    fn order(&mut self, _: &D8, state: &State, side: Side) -> Order {
        self.nearest.forget();
        let (Some(b), Some(f)) = (state.battle(), state.field()) else {
            return sharpshooters(state, 1);
        };
        if b.phase() == Phase::Over {
            return Order::EndPhase;
        }
        let next = match state.decision().map(|d| d.question) {
            Some(Question::Movement) => self.movement(state, b, f, side),
            Some(Question::Firing) => fire_order(
                state,
                b,
                f,
                side,
                &mut self.rng,
                &mut self.nearest,
                &mut self.passed,
                &mut self.screens,
            ),
            Some(Question::Melee) => melee_order(state, b, f, side),
            _ => None,
        };
        next.unwrap_or(Order::EndPhase)
    }
}

/// The state at the end of the default scenario's game of `seed` between the [`Attacker`] (the Union) and the
/// [`Holder`]: a battle with units placed, moved and lost as a whole game leaves them, for the crate's tests.
#[cfg(test)]
pub(crate) fn played_to_the_end(
    seed: u64,
) -> Result<crate::game::State, Box<dyn std::error::Error>> {
    let (mut blue, mut grey) = (Attacker::new(seed), Holder::new(seed));
    let game = acw_core::game::play(
        &crate::game::D8,
        &crate::game::Scenario::default(),
        seed,
        acw_core::BySide::new(
            &mut blue as &mut dyn acw_core::game::Commander<crate::game::D8>,
            &mut grey,
        ),
    )?;
    Ok(game.state)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn total_key_orders_as_total_cmp() {
        let xs = [
            f64::NEG_INFINITY,
            -3.5,
            -0.0,
            0.0,
            1e-300,
            2.0,
            2.000_000_000_000_000_4,
            f64::INFINITY,
            f64::NAN,
            -f64::NAN,
        ];
        for a in xs {
            for b in xs {
                assert_eq!(total_key(a).cmp(&total_key(b)), a.total_cmp(&b), "{a} {b}");
            }
        }
    }

    fn nearest(raw: &[f64]) -> Nearest {
        Nearest {
            raw: raw
                .iter()
                .enumerate()
                .map(|(i, &d)| (d, UnitId(i as u32)))
                .collect(),
            ..Nearest::default()
        }
    }

    #[test]
    fn without_ties_the_nearest_four_are_picked_out_in_order() {
        let mut n = nearest(&[5.0, 1.0, 3.0, 0.5, 9.0, 2.0]);
        assert!(n.front_without_ties(f64::INFINITY));
        let ids: Vec<u32> = n.front.iter().map(|e| e.1.0).collect();
        assert_eq!(ids, [3, 1, 5, 2]);
        let mut short = nearest(&[4.0, 0.0]);
        assert!(short.front_without_ties(f64::INFINITY));
        assert_eq!(short.front, [(0.0, UnitId(1)), (4.0, UnitId(0))]);
        // Within a limit: those within it in order, or the nearest alone.
        let mut n = nearest(&[5.0, 1.0, 3.0, 0.5, 9.0, 2.0]);
        assert!(n.front_without_ties(2.0));
        let ids: Vec<u32> = n.front.iter().map(|e| e.1.0).collect();
        assert_eq!(ids, [3, 1, 5]);
        assert!(n.front_without_ties(0.1));
        assert_eq!(n.front, [(0.5, UnitId(3))]);
        assert!(n.front_without_ties(f64::NEG_INFINITY));
        assert_eq!(n.front, [(0.5, UnitId(3))]);
    }

    #[test]
    fn equal_distances_anywhere_send_the_list_to_the_full_sort() {
        // A tie far behind the front still draws from the commander's generator, so it is not skipped.
        assert!(!nearest(&[1.0, 2.0, 3.0, 4.0, 8.0, 8.0]).front_without_ties(f64::INFINITY));
        assert!(!nearest(&[0.0, 5.0, -0.0]).front_without_ties(f64::INFINITY));
        assert!(!nearest(&[f64::INFINITY, 1.0, f64::INFINITY]).front_without_ties(f64::INFINITY));
        assert!(!nearest(&[1.0, f64::NAN]).front_without_ties(f64::INFINITY));
        // The full sort: the stable order by distance, then id, each tied run shuffled.
        let mut n = nearest(&[3.0, 1.0, 2.0]);
        let mut rng = GameRng::seed(1);
        n.sort_and_shuffle(&mut rng);
        let ids: Vec<u32> = n.list.iter().map(|e| e.1.0).collect();
        assert_eq!(ids, [1, 2, 0]);
        assert_eq!(rng, GameRng::seed(1), "no tie, no draw");
        let mut tied = nearest(&[2.0, 1.0, 2.0]);
        tied.sort_and_shuffle(&mut rng);
        assert_eq!(tied.list[0], (1.0, UnitId(1)));
        assert_ne!(rng, GameRng::seed(1), "the tie drew");
    }
}
