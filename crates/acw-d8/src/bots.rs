//! Two baseline commanders that ask the engine what is legal ([`State::check_order`]) and never give a refused
//! order: the [`Attacker`] advances on the enemy, charges when a charge is allowed, and fires when it is in
//! range; the [`Holder`] stands on its base line, deploys its guns and dismounts its cavalry, and fires at
//! whatever comes into range. Both fight every melee they are in. Ties between equally near targets are broken
//! by the commander's own seeded generator.

use crate::field::{Field, cm, facing};
use crate::game::{D8, FireCheck, Order, Question, State};
use crate::map::Map;
use crate::sequence::Phase;
use crate::state::{Battle, Unit, UnitId};
use crate::tables::{Formation, Troop, Weapon};
use acw_core::game::Commander;
use acw_core::measure::Inches;
use acw_core::table::Footprint;
use acw_core::{Die, GameRng, Side};

/// The enemy units in play nearest to `u` (centre to centre, less half of each footprint's diagonal), nearest
/// first; units at exactly the same distance are put in random order by `rng`.
fn enemies_by_distance(b: &Battle, f: &Field, u: &Unit, rng: &mut GameRng) -> Vec<(f64, UnitId)> {
    let gap = f.least_gap_from(u);
    let mut v: Vec<(f64, UnitId)> = Vec::with_capacity(b.units().len());
    v.extend(
        b.units()
            .iter()
            .filter(|o| !o.removed && o.side != u.side)
            .map(|o| (gap(o), o.id)),
    );
    // Ids are unique, so the order is total and an unstable sort gives the same list.
    v.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut i = 0;
    while i < v.len() {
        let mut j = i + 1;
        while j < v.len() && v[j].0 == v[i].0 {
            j += 1;
        }
        // A seeded shuffle of the tied run.
        for k in (i + 1..j).rev() {
            let pick = i + usize::from(Die::new((k - i + 1) as u16).map_or(1, |d| d.roll(rng))) - 1;
            v.swap(k, pick);
        }
        i = j;
    }
    v
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
fn fire_order(
    state: &State,
    b: &Battle,
    f: &Field,
    side: Side,
    rng: &mut GameRng,
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
        for (d, t) in enemies_by_distance(b, f, u, rng).into_iter().take(4) {
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

/// Whether `u` has an enemy it could fire on where it stands (the same checks as firing, made in the Movement
/// phase by distance and weapon range only).
fn in_range(b: &Battle, f: &Field, u: &Unit) -> bool {
    let reach = reach(b, u);
    b.units()
        .iter()
        .any(|o| !o.removed && o.side != u.side && f.gap_within(u, o, reach).is_some())
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
    passed: Passed,
    screens: Screens,
}

impl Attacker {
    /// A commander whose tie-breaks come from `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Attacker {
        Attacker {
            rng: GameRng::seed(seed ^ 0xA77A_C4E5),
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
        let enemies = enemies_by_distance(b, f, u, &mut self.rng);
        // A charge on the nearest enemies the rules allow.
        let charge_rate = if u.mounted { 60.0 } else { 30.0 };
        // A charge the rules refuse whatever its target (`Battle::charge_barred`) is not asked about.
        let charges = if b.charge_barred(u.id) { 0 } else { 3 };
        for &(bound, t) in enemies.iter().take(charges) {
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
            && enemies.iter().any(|&(bound, t)| {
                bound.partial_cmp(&reach) != Some(std::cmp::Ordering::Greater)
                    && b.unit(t).is_ok_and(|o| f.gap_cm(u, o) <= reach)
            })
        {
            return None;
        }
        let &(gap, t) = enemies.first()?;
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
            let p = me
                .centre
                .moved(facing(side), Inches(crate::field::inches(step * frac)));
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
    passed: Passed,
    screens: Screens,
}

impl Holder {
    /// A commander whose tie-breaks come from `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Holder {
        Holder {
            rng: GameRng::seed(seed ^ 0x401D_E125),
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
                Troop::Foot if u.formation == Formation::Line && !in_range(b, f, u) => {
                    let Some(&(gap, _)) = enemies_by_distance(b, f, u, &mut self.rng).first()
                    else {
                        continue;
                    };
                    if gap > 2.0 * reach(b, u) || Die::D6.roll(&mut self.rng) > 3 {
                        continue;
                    }
                    let Some(me) = f.place(u.id) else { continue };
                    let p = me
                        .centre
                        .moved(facing(side), Inches(crate::field::inches(10.0)));
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
                &mut self.passed,
                &mut self.screens,
            ),
            Some(Question::Melee) => melee_order(state, b, f, side),
            _ => None,
        };
        next.unwrap_or(Order::EndPhase)
    }
}
