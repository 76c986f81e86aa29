//! The table: where units stand and what the ground says about them. This module measures what the rules
//! take as facts — ranges, arcs, line of sight, screens, cover, obstacles on a path, room to fall back — from
//! unit footprints on an [`acw_core::table::Table`].
//!
//! The rules give no base sizes ([`Bases`] holds them, with defaults); a unit's footprint follows from its
//! formation and stands.

use crate::combat::{Category, Screen, Sight};
use crate::morale::FallBackRoom;
use crate::options::SkirmishScreen;
use crate::state::{Battle, Unit, UnitId};
use crate::tables::{Formation, SKIRMISH_FRONTAGE, Troop};
use acw_core::Side;
use acw_core::measure::{Heading, Inches, Point};
use acw_core::table::{Footprint, Table, TableError};

/// Base sizes, in inches (the rules give none; NORTH-SET-08).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Bases {
    /// Width of an infantry or dismounted cavalry stand.
    pub foot_width: Inches,
    /// Depth of an infantry or dismounted cavalry stand.
    pub foot_depth: Inches,
    /// Width of a mounted cavalry stand.
    pub horse_width: Inches,
    /// Depth of a mounted cavalry stand.
    pub horse_depth: Inches,
    /// Frontage of an unlimbered battery (gun and crew).
    pub battery_width: Inches,
    /// Depth of an unlimbered battery.
    pub battery_depth: Inches,
    /// Depth of a limbered battery (its width is a foot stand's).
    pub limbered_depth: Inches,
    /// How close behind a linear cover feature (a fence) a unit must stand to use it (NORTH-CBT-05).
    pub cover_depth: Inches,
}

impl Default for Bases {
    fn default() -> Self {
        Bases {
            foot_width: Inches(1.0),
            foot_depth: Inches(0.5),
            horse_width: Inches(1.0),
            horse_depth: Inches(1.0),
            battery_width: Inches(1.5),
            battery_depth: Inches(2.0),
            limbered_depth: Inches(3.0),
            cover_depth: Inches(1.5),
        }
    }
}

/// The largest base size accepted, in inches.
pub const MAX_BASE: f64 = 24.0;

impl Bases {
    /// Checks that every size is a finite length above zero and at most [`MAX_BASE`] (a base larger than that
    /// is no miniature's, and far larger ones break the geometry).
    pub fn validate(&self) -> Result<(), TableError> {
        let all = [
            self.foot_width,
            self.foot_depth,
            self.horse_width,
            self.horse_depth,
            self.battery_width,
            self.battery_depth,
            self.limbered_depth,
            self.cover_depth,
        ];
        if all
            .iter()
            .all(|v| v.0.is_finite() && v.0 > 0.0 && v.0 <= MAX_BASE)
        {
            Ok(())
        } else {
            Err(TableError::NotFinite {
                what: "a base size",
                positive: true,
            })
        }
    }

    /// NORTH-MOV-01 / NORTH-MOV-16 / NORTH-MOV-19: frontage and depth of a unit in its current formation: a
    /// line is its stands side by side, a column one behind another (as wide as a stand), skirmishers a 10"
    /// front with the rest behind, dismounted cavalry a line of fighting stands with the horse holder behind.
    #[must_use]
    #[inline]
    pub fn size(&self, unit: &Unit) -> (Inches, Inches) {
        let n = f64::from(unit.current_stands().max(1));
        let troop = unit.troop();
        match (troop, unit.formation()) {
            (Troop::Artillery, Formation::Limbered) => (self.foot_width, self.limbered_depth),
            (Troop::Artillery, _) if unit.crew_without_gun() => {
                (self.foot_width, self.limbered_depth)
            }
            (Troop::Artillery, _) => (self.battery_width, self.battery_depth),
            (Troop::MountedCavalry, Formation::Column) => {
                (self.horse_width, Inches(self.horse_depth.0 * n))
            }
            (Troop::MountedCavalry, _) => (Inches(self.horse_width.0 * n), self.horse_depth),
            (_, Formation::Skirmish) => (SKIRMISH_FRONTAGE, Inches(self.foot_depth.0 * 2.0)),
            (_, Formation::Column) => (self.foot_width, Inches(self.foot_depth.0 * n)),
            (Troop::DismountedCavalry, _) if unit.has_horse_holder() => (
                Inches(self.foot_width.0 * (n - 1.0).max(1.0)),
                Inches(self.foot_depth.0 * 2.0),
            ),
            _ => (Inches(self.foot_width.0 * n), self.foot_depth),
        }
    }
}

/// What stops a unit's slide short of the distance it wanted (both may; neither means a friendly unit did).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stop {
    /// The table edge alone would stop it there.
    pub edge: bool,
    /// Enemy units alone would stop it there (it would come within the contact gap of one).
    pub enemy: bool,
}

/// The path of a move (NORTH-MOV-14): up to two straight legs, each a heading and a length, walked in order
/// with the unit keeping its facing; and what stopped it short of the distance wanted, if anything did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Route {
    /// The legs, in order (the second is of length 0 on a straight move).
    pub legs: [(Heading, Inches); 2],
    /// What stopped the path short of the distance wanted (`None`: it gets it all).
    pub stop: Option<Stop>,
}

impl Route {
    /// The path's length: what every stand moves, the unit keeping its facing.
    #[must_use]
    pub fn length(&self) -> Inches {
        Inches(self.legs[0].1.0 + self.legs[1].1.0)
    }

    /// The point `along` inches down the path from `from` (its end if `along` is longer).
    #[must_use]
    pub fn point_at(&self, from: Point, along: Inches) -> Point {
        let mut at = from;
        let mut left = along.0.max(0.0);
        for (h, len) in self.legs {
            let d = left.min(len.0);
            if d > 0.0 {
                at = at.moved(h, Inches(d));
            }
            left -= d;
        }
        at
    }

    /// The corner of the path (where the first leg ends).
    #[must_use]
    pub fn corner(&self, from: Point) -> Point {
        self.point_at(from, self.legs[0].1)
    }
}

/// The least clearance over the contact gap the table's slide advances by; a unit nearer a footprint than
/// the gap and this stops (the slide's `step`).
pub const SLIDE_STEP: Inches = Inches(0.1);

/// How many times a slide that stopped by a neighbour it then moves no nearer to goes on.
const SLIDE_RESTARTS: usize = 4;

/// How far a move is tried to tell whether it takes a unit away from a neighbour at the gap.
const PROBE: f64 = 0.01;

/// Whether footprint `me`, moving `length` along `heading`, keeps at least `gap` from `o` (`apart` away at
/// the start) all the way. The distance is convex along a straight move: if the first hundredth of an inch
/// takes it no nearer, it never comes nearer; otherwise its least value is found by golden-section search.
fn path_keeps_gap(
    me: &Footprint,
    heading: Heading,
    length: f64,
    o: &Footprint,
    apart: f64,
    gap: f64,
) -> bool {
    let at = |t: f64| {
        me.placed(me.centre.moved(heading, Inches(t)), me.facing)
            .distance(o)
            .0
    };
    if length <= 0.0 {
        return apart >= gap - 1e-9;
    }
    if at(PROBE.min(length)) >= apart - 1e-12 {
        return apart >= gap - 1e-9;
    }
    // The distances at the bracket's ends (at the start, where the unit stands and where the move ends). A
    // move that ends nearer than the gap does not keep it, whatever the distances on the way.
    let (mut flo, mut fhi) = (apart, at(length));
    if fhi < gap + 1e-6 {
        return false;
    }
    let ratio = (5.0_f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (0.0, length);
    let mut a = hi - ratio * (hi - lo);
    let mut b = lo + ratio * (hi - lo);
    let (mut fa, mut fb) = (at(a), at(b));
    let mut least = fa.min(fb).min(fhi);
    for _ in 0..GOLDEN_STEPS {
        if least < gap + 1e-6 {
            return false;
        }
        // Every measure still to come lies in [lo, hi]: once a lower bound of the distance there clears the
        // gap by a margin far above rounding, none of them can fall under it and the search would end keeping
        // the gap, so it ends here.
        if bracket_floor([(lo, flo), (a, fa), (b, fb), (hi, fhi)]) >= gap + 1e-6 + KEEPS_MARGIN {
            return true;
        }
        if fa <= fb {
            hi = b;
            fhi = fb;
            b = a;
            fb = fa;
            a = hi - ratio * (hi - lo);
            fa = at(a);
            least = least.min(fa);
        } else {
            lo = a;
            flo = fa;
            a = b;
            fa = fb;
            b = lo + ratio * (hi - lo);
            fb = at(b);
            least = least.min(fb);
        }
    }
    least >= gap + 1e-6
}

/// Golden-section steps in [`path_keeps_gap`] (the interval shrinks to under a millionth of its length).
const GOLDEN_STEPS: usize = 30;

/// A lower bound of a convex function on `[lo, hi]`, 1-Lipschitz (a distance to a footprint along a straight
/// move), from its values at `lo < a < b < hi` (`NEG_INFINITY` when the figures give none: out of order, or
/// not all finite). A convex function
/// lies on or above every chord's line outside the chord: on `[lo, a]` above the line through `a` and `b`, on
/// `[b, hi]` above the same line, and on `[a, b]` above both the line through `lo` and `a` and the one through
/// `b` and `hi`. A move of `m` inches changes the distance by at most `m`, so `f(a)` less the way from `a` to
/// the bracket's farther end bounds it too.
fn bracket_floor(points: [(f64, f64); 4]) -> f64 {
    let [(lo, flo), (a, fa), (b, fb), (hi, fhi)] = points;
    let ordered = lo < a && a < b && b < hi;
    if !ordered || points.iter().any(|(x, y)| !x.is_finite() || !y.is_finite()) {
        return f64::NEG_INFINITY;
    }
    let line =
        |(x1, y1): (f64, f64), (x2, y2): (f64, f64), t: f64| y1 + (y2 - y1) * (t - x1) / (x2 - x1);
    let lipschitz = (fa - (a - lo).max(hi - a)).max(fb - (b - lo).max(hi - b));
    // On [a, b]: the greater of two lines, least at an end or where they cross.
    let rising = |t: f64| line((lo, flo), (a, fa), t);
    let falling = |t: f64| line((b, fb), (hi, fhi), t);
    let s1 = (fa - flo) / (a - lo);
    let s2 = (fhi - fb) / (hi - b);
    let cross = ((fb - s2 * b) - (fa - s1 * a)) / (s1 - s2);
    let mut middle = fa.max(falling(a)).min(rising(b).max(fb));
    if cross > a && cross < b {
        middle = middle.min(rising(cross).max(falling(cross)));
    }
    let convex = [
        line((a, fa), (b, fb), lo).min(fa),
        middle,
        line((a, fa), (b, fb), hi).min(fb),
    ];
    let pieces = [convex[0], convex[1], convex[2], lipschitz, s1, s2];
    if pieces.iter().any(|v| !v.is_finite()) {
        return f64::NEG_INFINITY;
    }
    convex[0].min(convex[1]).min(convex[2]).max(lipschitz)
}

/// The margin, in inches, by which the lower bound of the measures still to come in [`path_keeps_gap`] must clear
/// the gap before it stops searching (far above the rounding of a distance on a table of a few hundred inches).
const KEEPS_MARGIN: f64 = 1e-9;

/// How many route searches [`Field::route`] remembers (per thread).
const ROUTES_KEPT: usize = 4;

thread_local! {
    /// The last route searches and their results, by everything the search reads.
    static ROUTES: std::cell::RefCell<Vec<(Vec<u64>, Route)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Where a unit stands: the centre of its footprint and the way it faces.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Place {
    /// Centre of the footprint.
    pub centre: Point,
    /// The way its front faces (the muzzle of an unlimbered battery, NORTH-ART-04).
    pub facing: Heading,
}

/// The ground and the units' places on it.
#[derive(Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Field {
    /// The table and its terrain.
    pub ground: Table,
    /// Base sizes.
    pub bases: Bases,
    /// Each unit's place, by unit id.
    pub places: Vec<Place>,
    /// Where each battery's abandoned gun stands, by unit id (NORTH-ART-06).
    pub guns: Vec<Option<Point>>,
}

/// Written out for `clone_from`, which reuses the lists' room.
impl Clone for Field {
    fn clone(&self) -> Field {
        Field {
            ground: self.ground.clone(),
            bases: self.bases,
            places: self.places.clone(),
            guns: self.guns.clone(),
        }
    }
    fn clone_from(&mut self, source: &Field) {
        let Field {
            ground,
            bases,
            places,
            guns,
        } = source;
        // The same table (its terrain the same shared list, its size the same to the bit) is kept as it is:
        // comparing the terrain piece by piece cost more than the copy.
        let same_table = std::ptr::eq(self.ground.terrain(), ground.terrain())
            && self.ground.width().0.to_bits() == ground.width().0.to_bits()
            && self.ground.depth().0.to_bits() == ground.depth().0.to_bits();
        if !same_table {
            self.ground.clone_from(ground);
        }
        self.bases = *bases;
        self.places.clone_from(places);
        self.guns.clone_from(guns);
    }
}

impl Field {
    /// The footprint of unit `id` as it stands now (`None` for an unknown id).
    #[must_use]
    #[inline]
    pub fn footprint(&self, battle: &Battle, id: UnitId) -> Option<Footprint> {
        let u = battle.unit(id).ok()?;
        let place = self.places.get(id.0 as usize)?;
        let (w, d) = self.bases.size(u);
        Footprint::new(place.centre, place.facing, w, d).ok()
    }

    /// Footprints of every unit in play except those in `skip`.
    #[must_use]
    pub fn others(&self, battle: &Battle, skip: &[UnitId]) -> Vec<(UnitId, Footprint)> {
        // Sized for every unit at once: grown from empty, the list was copied three times on the way.
        let mut v = Vec::with_capacity(battle.units().len());
        v.extend(
            battle
                .units()
                .iter()
                .filter(|u| u.in_play() && !skip.contains(&u.id()))
                .filter_map(|u| self.footprint(battle, u.id()).map(|f| (u.id(), f))),
        );
        v
    }

    /// NORTH-MOV-14: edge-to-edge distance between two units.
    #[must_use]
    pub fn distance(&self, battle: &Battle, a: UnitId, b: UnitId) -> Option<Inches> {
        Some(
            self.footprint(battle, a)?
                .distance(&self.footprint(battle, b)?),
        )
    }

    /// NORTH-CBT-05 / NORTH-SET-09: whether `target` is behind cover against `attacker`: it stands in a cover
    /// area, or a linear cover feature lies between them within [`Bases::cover_depth`] of the target.
    #[must_use]
    pub fn in_cover(&self, battle: &Battle, target: UnitId, attacker: UnitId) -> bool {
        match (
            self.footprint(battle, target),
            self.footprint(battle, attacker),
        ) {
            (Some(t), Some(a)) => {
                self.ground
                    .in_cover(&t, a.front_centre(), self.bases.cover_depth)
            }
            _ => false,
        }
    }

    /// NORTH-FIR-01 / NORTH-FIR-02 / NORTH-FIR-06 / NORTH-FIR-07 / NORTH-ART-01 / NORTH-ART-04: how
    /// `attacker` sees `target` for an attack of `category`: range edge to edge, line of sight from the
    /// middle of its front to the target's centre past blocking terrain and every other unit (skirmishers
    /// apart), the front arc (45° lines outward from the front edge's ends by default) or the gun's, and
    /// skirmishers on the line of fire. Melee is contact.
    #[must_use]
    pub fn sight(
        &self,
        battle: &Battle,
        attacker: UnitId,
        target: UnitId,
        category: Category,
    ) -> Option<Sight> {
        self.sight_measured(battle, attacker, target, category, None)
    }

    /// [`Field::sight`], with the edge-to-edge distance of the two footprints as they stand when the caller
    /// has measured it already (`None` to measure it here).
    pub(crate) fn sight_measured(
        &self,
        battle: &Battle,
        attacker: UnitId,
        target: UnitId,
        category: Category,
        distance: Option<Inches>,
    ) -> Option<Sight> {
        if category == Category::Melee {
            return Some(Sight::contact());
        }
        let options = battle.options();
        let a = self.footprint(battle, attacker)?;
        let t = self.footprint(battle, target)?;
        let side = battle.unit(attacker).ok()?.side();
        let from = a.front_centre();
        let to = t.centre;
        let mut blockers = Vec::new();
        let mut screen = Screen::Clear;
        // The segment's direction, for the distance of a unit's centre from the line of sight.
        let (sx, sy) = (to.x - from.x, to.y - from.y);
        let length_sq = sx * sx + sy * sy;
        for u in battle.units() {
            if !u.in_play() || u.id() == attacker || u.id() == target {
                continue;
            }
            // A unit whose centre lies farther from the line than its half-diagonal (with a margin far above
            // rounding) cannot touch it: skipped before its footprint is built.
            if let Some(place) = self.places.get(u.id().0 as usize) {
                let (w, d) = self.bases.size(u);
                let (px, py) = (place.centre.x - from.x, place.centre.y - from.y);
                let t = if length_sq > 0.0 {
                    ((px * sx + py * sy) / length_sq).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let (ex, ey) = (px - t * sx, py - t * sy);
                let off = ex * ex + ey * ey;
                // The half-sides' sum is no less than the half-diagonal: beyond it is beyond the diagonal,
                // found without a square root.
                let wide = (w.0 + d.0) / 2.0 + 1e-6;
                if off > wide * wide {
                    continue;
                }
                let reach = w.0.hypot(d.0) / 2.0 + 1e-6;
                if off > reach * reach {
                    continue;
                }
            }
            let Some(f) = self.footprint(battle, u.id()) else {
                continue;
            };
            if !f.blocks(from, to) {
                continue;
            }
            if u.is_skirmishers() {
                screen = if u.side() == side {
                    Screen::FriendlySkirmishers
                } else {
                    Screen::EnemySkirmishers
                };
                if options.skirmish_screen == SkirmishScreen::MutualScreen {
                    blockers.push(f);
                }
            } else {
                blockers.push(f);
            }
        }
        let in_arc = match category {
            Category::Artillery => crate::combat::in_artillery_arc(&a, &t, options),
            _ => crate::combat::in_fire_arc(&a, &t, options),
        };
        Some(Sight {
            distance: distance.unwrap_or_else(|| a.distance(&t)),
            line_of_sight: self.ground.line_of_sight(from, to, &blockers),
            in_arc,
            screen,
        })
    }

    /// NORTH-CMD-02 / NORTH-CMD-04 / NORTH-MOV-14: the heading straight toward the enemy's base edge (the
    /// Union's edge is y = 0, as in [`crate::setup::Table`]).
    #[must_use]
    pub fn toward_enemy(side: Side) -> Heading {
        crate::setup::Table::default().facing_enemy(side)
    }

    /// NORTH-MOV-11 / NORTH-MOV-14: how far footprint `me` slides straight along `heading`, up to `distance`,
    /// staying on the table and keeping `gap` from every footprint of `blockers` (see [`Table::slide`]).
    ///
    /// The table's measure advances by the clearance left over the gap and stops once that is under
    /// [`SLIDE_STEP`], so on its own it holds a unit still beside a neighbour standing just beyond the gap (a
    /// regiment of the same line, a unit that stopped at the gap), whichever way it moves, and stops it where
    /// its path runs alongside one. Here a footprint within that step beyond the gap is passed over when the
    /// whole path keeps at least the gap from it (the distance from a footprint moving in a straight line to
    /// another is convex along the path, so its least value is found by a golden-section search), and a slide
    /// stopped by such a footprint goes on from where it stopped.
    #[must_use]
    pub fn slide(
        &self,
        me: &Footprint,
        heading: Heading,
        distance: Inches,
        blockers: &[Footprint],
        gap: Inches,
    ) -> Inches {
        let total = distance.0.max(0.0);
        let mut done = self.slide_once(me, heading, total, blockers, gap, false);
        for _ in 0..SLIDE_RESTARTS {
            if done >= total - 1e-9 || done <= 0.0 {
                break;
            }
            let here = me.placed(me.centre.moved(heading, Inches(done)), me.facing);
            let more = self.slide_once(&here, heading, total - done, blockers, gap, true);
            if more <= 0.0 {
                break;
            }
            done += more;
        }
        Inches(done.min(total))
    }

    /// One slide of [`Field::slide`] from where `me` stands. A footprint nearer than the gap and a step is
    /// passed over when the path keeps the gap from it; on a slide that `resumes` one that stopped, any other
    /// such footprint stops it at once (the table's measure would pass over one it already touches).
    fn slide_once(
        &self,
        me: &Footprint,
        heading: Heading,
        distance: f64,
        blockers: &[Footprint],
        gap: Inches,
        resumes: bool,
    ) -> f64 {
        let near = gap.0 + SLIDE_STEP.0 + 1e-9;
        // The distance from `o` where it was measured (one near on the lower bound), whether `o` is near (and,
        // on a first slide, beyond the gap: the table's measure passes over one it touches at the start), and
        // then whether the path keeps the gap from it.
        let judge = |o: &Footprint| -> (Option<f64>, Option<bool>) {
            if me.distance_at_least(o).0 > near {
                return (None, None);
            }
            let apart = me.distance(o).0;
            if apart > near || (!resumes && apart <= gap.0) {
                return (Some(apart), None);
            }
            (
                Some(apart),
                Some(path_keeps_gap(me, heading, distance, o, apart, gap.0)),
            )
        };
        // The blockers kept, built only once one is passed over (each judged once), and the distances measured
        // to the first 32 of them (NaN where not measured), handed to the table's slide, which would measure
        // them again where the unit stands.
        let mut kept: Option<Vec<Footprint>> = None;
        let mut known = [f64::NAN; 32];
        for (i, o) in blockers.iter().enumerate() {
            let (apart, keeps) = judge(o);
            match keeps {
                Some(true) => {
                    kept.get_or_insert_with(|| blockers.get(..i).unwrap_or_default().to_vec());
                }
                Some(false) if resumes => return 0.0,
                _ => {
                    let at = match kept.as_mut() {
                        Some(k) => {
                            k.push(*o);
                            k.len() - 1
                        }
                        None => i,
                    };
                    if let (Some(d), Some(slot)) = (apart, known.get_mut(at)) {
                        *slot = d;
                    }
                }
            }
        }
        let kept = kept.as_deref().unwrap_or(blockers);
        let known = known.get(..kept.len()).unwrap_or(&known);
        self.ground
            .slide_measured(me, heading, Inches(distance), kept, gap, SLIDE_STEP, known)
            .0
    }

    /// How far unit `id` can slide along `heading`, up to `distance`, staying on the table and keeping
    /// `gap` from every other unit in play (NORTH-MOV-11: no contact without a charge), and what stopped it
    /// short (`None` when it gets the whole distance).
    #[must_use]
    pub fn room(
        &self,
        battle: &Battle,
        id: UnitId,
        heading: Heading,
        distance: Inches,
        gap: Inches,
    ) -> (Inches, Option<Stop>) {
        self.room_with(battle, id, heading, distance, gap, true)
    }

    /// [`Field::room`], telling whether enemies alone would stop the unit as soon only when `enemy` is asked
    /// for (it costs a third slide); otherwise [`Stop::enemy`] is false.
    fn room_with(
        &self,
        battle: &Battle,
        id: UnitId,
        heading: Heading,
        distance: Inches,
        gap: Inches,
        enemy: bool,
    ) -> (Inches, Option<Stop>) {
        let (Some(me), Ok(side)) = (self.footprint(battle, id), battle.unit(id).map(Unit::side))
        else {
            return (Inches(0.0), None);
        };
        let others = self.others(battle, &[id]);
        self.room_among(battle, &me, side, &others, heading, distance, gap, enemy)
    }

    /// [`Field::room_with`] for footprint `me` of a unit of `side`, among the footprints `others` of every
    /// other unit in play (as [`Field::others`] lists them).
    #[allow(clippy::too_many_arguments)]
    fn room_among(
        &self,
        battle: &Battle,
        me: &Footprint,
        side: Side,
        others: &[(UnitId, Footprint)],
        heading: Heading,
        distance: Inches,
        gap: Inches,
        enemy: bool,
    ) -> (Inches, Option<Stop>) {
        let me = *me;
        let prints: Vec<Footprint> = others.iter().map(|(_, f)| *f).collect();
        let got = self.slide(&me, heading, distance, &prints, gap);
        if got.0 >= distance.0 - 1e-9 {
            return (got, None);
        }
        // What stops it: sliding with only the edge, or only enemies, in the way stops as soon.
        let stops_as_soon = |blockers: &[Footprint]| {
            self.slide(&me, heading, distance, blockers, gap).0 <= got.0 + 1e-9
        };
        let enemies: Vec<Footprint> = if enemy {
            let mut v = Vec::with_capacity(others.len());
            v.extend(
                others
                    .iter()
                    .filter(|(o, _)| battle.unit(*o).is_ok_and(|u| u.side() != side))
                    .map(|(_, f)| *f),
            );
            v
        } else {
            Vec::new()
        };
        let stop = Stop {
            edge: stops_as_soon(&[]),
            enemy: enemy && stops_as_soon(&enemies),
        };
        (got, Some(stop))
    }

    /// NORTH-MOV-14: the path of unit `id`'s move of up to `distance` along `heading`, finding a way round
    /// friendly units. The straight slide (see [`Field::room`]) is taken unless a friend stops it short; then the
    /// unit may first side-step along a heading up to 90° off (in steps of 15°, keeping its facing), and go on
    /// along `heading` with what is left of the distance. The path kept is the one that gets farthest along
    /// `heading` (the straight slide unless a detour beats it by a twentieth of an inch; ties go to the smaller
    /// turn, right before left, the shorter side-step). The unit keeps its facing along the path, so every stand
    /// moves the path's length: that is the move's length (NORTH-MOV-14, the stand that moves farthest). With
    /// `keep` (the heading of the unit's orders), a detour must gain at least as much ground that way as the
    /// straight move, so a move its orders allow stays allowed.
    #[must_use]
    pub fn route(
        &self,
        battle: &Battle,
        id: UnitId,
        heading: Heading,
        distance: Inches,
        gap: Inches,
        keep: Option<Heading>,
    ) -> Route {
        // A route is a function of the footprints, the sides, the table's size and the request alone: the last
        // few searches are remembered by exactly those inputs (bit for bit), so a search repeated on an
        // identical field (a bot's preview of a march, then the march) is read back, not searched again.
        // The footprints of every other unit in play, listed once for the key and the search.
        let others = self.others(battle, &[id]);
        let key = self.route_key(battle, id, heading, distance, gap, keep, &others);
        if let Some(route) = ROUTES.with(|memo| {
            memo.borrow()
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, r)| *r)
        }) {
            return route;
        }
        let route = self.search_route(battle, id, heading, distance, gap, keep, &others);
        ROUTES.with(|memo| {
            let mut memo = memo.borrow_mut();
            if memo.len() >= ROUTES_KEPT {
                memo.remove(0);
            }
            memo.push((key, route));
        });
        route
    }

    /// Everything [`Field::route`] reads, as bits: the request, the table's size, the unit's footprint and
    /// side, and every other unit in play (in order, `others` as [`Field::others`] lists them) with its
    /// footprint and whether it is an enemy.
    #[allow(clippy::too_many_arguments)]
    fn route_key(
        &self,
        battle: &Battle,
        id: UnitId,
        heading: Heading,
        distance: Inches,
        gap: Inches,
        keep: Option<Heading>,
        others: &[(UnitId, Footprint)],
    ) -> Vec<u64> {
        let print = |key: &mut Vec<u64>, f: &Footprint| {
            key.extend([
                f.centre.x.to_bits(),
                f.centre.y.to_bits(),
                f.facing.as_degrees().to_bits(),
                f.frontage.0.to_bits(),
                f.depth.0.to_bits(),
            ]);
        };
        let side = battle.unit(id).map(Unit::side).ok();
        let mut key = Vec::with_capacity(10 + 6 * battle.units().len());
        key.extend([
            u64::from(id.0),
            heading.as_degrees().to_bits(),
            distance.0.to_bits(),
            gap.0.to_bits(),
            keep.map_or(u64::MAX, |k| k.as_degrees().to_bits()),
            u64::from(keep.is_some()),
            self.ground.width().0.to_bits(),
            self.ground.depth().0.to_bits(),
            side.map_or(2, |s| u64::from(s == Side::Union)),
        ]);
        match self.footprint(battle, id) {
            Some(me) => print(&mut key, &me),
            None => key.push(u64::MAX),
        }
        for &(o, f) in others {
            let enemy = battle.unit(o).is_ok_and(|u| Some(u.side()) != side);
            key.push(u64::from(o.0) << 1 | u64::from(enemy));
            print(&mut key, &f);
        }
        key
    }

    /// The search [`Field::route`] makes, among `others` (every other unit in play, as [`Field::others`]
    /// lists them).
    #[allow(clippy::too_many_arguments)]
    fn search_route(
        &self,
        battle: &Battle,
        id: UnitId,
        heading: Heading,
        distance: Inches,
        gap: Inches,
        keep: Option<Heading>,
        others: &[(UnitId, Footprint)],
    ) -> Route {
        let straight = |(got, stop): (Inches, Option<Stop>)| Route {
            legs: [(heading, got), (heading, Inches(0.0))],
            stop,
        };
        let (Some(me), Ok(side)) = (self.footprint(battle, id), battle.unit(id).map(Unit::side))
        else {
            return straight((Inches(0.0), None));
        };
        let (got, stop) = self.room_among(battle, &me, side, others, heading, distance, gap, true);
        let by_friend = matches!(
            stop,
            Some(Stop {
                edge: false,
                enemy: false
            })
        );
        if !by_friend {
            return straight((got, stop));
        }
        // Every slide of the detours below starts within `distance` of the unit's centre and goes no farther
        // than what is left of it: a footprint whose centre lies farther than that, both half-diagonals, the
        // gap and an inch (far above rounding) is passed over by every one of them (the table's slide skips
        // it as out of reach, and it is never near enough to be judged), so it is left out once here.
        let half_diagonal = |f: &Footprint| f.frontage.0.hypot(f.depth.0) / 2.0;
        let own_reach = half_diagonal(&me);
        let prints: Vec<Footprint> = others
            .iter()
            .map(|(_, f)| *f)
            .filter(|f| {
                me.centre.distance(f.centre).0
                    <= distance.0 + own_reach + half_diagonal(f) + gap.0 + 1.0
            })
            .collect();
        let mut enemies: Vec<Footprint> = Vec::with_capacity(others.len());
        enemies.extend(
            others
                .iter()
                .filter(|(o, _)| battle.unit(*o).is_ok_and(|u| u.side() != side))
                .map(|(_, f)| *f),
        );
        let slide = |f: &Footprint, h: Heading, d: f64, blockers: &[Footprint]| {
            self.slide(f, h, Inches(d), blockers, gap).0
        };
        // The best detour so far: its gain along `heading`, its side-step, its first leg and the second leg.
        let mut best: Option<(f64, Heading, f64, f64)> = None;
        for turn in [
            15.0, -15.0, 30.0, -30.0, 45.0, -45.0, 60.0, -60.0, 75.0, -75.0, 90.0, -90.0,
        ] {
            let aside = heading.turned(turn);
            let cos = f64::to_radians(turn).cos();
            let mut room = None;
            let mut step = 1.0;
            loop {
                let to_beat = best.map_or(got.0 + 0.05, |b| b.0);
                // No side-step of this length or more can beat the best: the rest of the allowance, all gained,
                // is the most it could get.
                if step * cos + (distance.0 - step) <= to_beat {
                    break;
                }
                let room = *room.get_or_insert_with(|| slide(&me, aside, distance.0, &prints));
                if step > room + 1e-9 {
                    break;
                }
                let first = step.min(room);
                let moved = me.placed(me.centre.moved(aside, Inches(first)), me.facing);
                let left = distance.0 - first;
                let second = slide(&moved, heading, left, &prints);
                let gain = first * cos + second;
                // Along `keep` (the way its orders send it) a detour gains at least what the straight move does.
                let kept = keep.is_none_or(|k| {
                    let along = |h: Heading, d: f64| d * f64::to_radians(h.angle_to(k)).cos();
                    let detour = along(aside, first) + along(heading, second);
                    detour > 1e-3 && detour >= along(heading, got.0)
                });
                if kept && gain > to_beat {
                    best = Some((gain, aside, first, second));
                }
                if first >= room {
                    break;
                }
                step += 1.0;
            }
        }
        let Some((_, aside, first, second)) = best else {
            return straight((got, stop));
        };
        let moved = me.placed(me.centre.moved(aside, Inches(first)), me.facing);
        let left = distance.0 - first;
        let stop = (second < left - 1e-9).then(|| Stop {
            edge: slide(&moved, heading, left, &[]) <= second + 1e-9,
            enemy: slide(&moved, heading, left, &enemies) <= second + 1e-9,
        });
        Route {
            legs: [(aside, Inches(first)), (heading, Inches(second))],
            stop,
        }
    }

    /// NORTH-MOV-12: where along a straight path from `from` to `to` it crosses each obstacle, in order.
    #[must_use]
    pub fn obstacles_on(&self, from: Point, to: Point) -> Vec<Inches> {
        let length = from.distance(to).0;
        let heading = from.heading_to(to);
        let mut at: Vec<Inches> = self
            .ground
            .obstacles_crossed(from, to)
            .map(|t| {
                // first point along the path at which the segment so far touches the obstacle
                let mut d = 0.0;
                while d < length && !t.touches_segment(from, from.moved(heading, Inches(d))) {
                    d += 0.1;
                }
                Inches(d.min(length))
            })
            .collect();
        at.sort_by(|a, b| a.0.total_cmp(&b.0));
        at
    }

    /// NORTH-FIR-04: whether a straight path touches rough ground.
    #[must_use]
    pub fn crosses_rough(&self, from: Point, to: Point) -> bool {
        self.ground
            .terrain()
            .iter()
            .any(|t| t.effects().rough && (t.touches_segment(from, to) || t.contains(from)))
    }

    /// NORTH-MOR-07 / NORTH-MOR-09: the way a unit falls back — directly away from the centre of its attackers,
    /// or toward its own base edge when they stand on it.
    pub fn fall_back_heading(&self, battle: &Battle, id: UnitId, attackers: &[UnitId]) -> Heading {
        let Ok(side) = battle.unit(id).map(Unit::side) else {
            return Heading::NORTH;
        };
        let home = Field::toward_enemy(side).reversed();
        let Some(me) = self.footprint(battle, id) else {
            return home;
        };
        let pts: Vec<Point> = attackers
            .iter()
            .filter_map(|&a| self.footprint(battle, a).map(|f| f.centre))
            .collect();
        if pts.is_empty() {
            return home;
        }
        let n = pts.len() as f64;
        let c = Point::new(
            pts.iter().map(|p| p.x).sum::<f64>() / n,
            pts.iter().map(|p| p.y).sum::<f64>() / n,
        );
        if c.distance(me.centre).0 < 1e-9 {
            return home;
        }
        c.heading_to(me.centre)
    }

    /// NORTH-MOR-09: how much room a fall-back of `distance` along `heading` has, and the distance it gets.
    #[must_use]
    pub fn fall_back_room(
        &self,
        battle: &Battle,
        id: UnitId,
        heading: Heading,
        distance: Inches,
    ) -> (FallBackRoom, Inches) {
        // Only the edge tells the kinds of room apart: enemies and friends block alike.
        match self.room_with(
            battle,
            id,
            heading,
            distance,
            battle.options().contact_gap,
            false,
        ) {
            (_, None) => (FallBackRoom::Clear, distance),
            (got, Some(Stop { edge: true, .. })) => (FallBackRoom::TableEdge, got),
            (got, Some(_)) => (FallBackRoom::Blocked, got),
        }
    }

    /// Moves unit `id` `distance` along `heading`, turning it to `facing`.
    pub fn shift(&mut self, id: UnitId, heading: Heading, distance: Inches, facing: Heading) {
        if let Some(p) = self.places.get_mut(id.0 as usize) {
            p.centre = p.centre.moved(heading, distance);
            p.facing = facing;
        }
    }

    /// Keeps unit `id` wholly on the table: a footprint that a formation change, a turn or a charge left over an
    /// edge is moved straight back onto it (the smallest shift that fits).
    pub fn settle(&mut self, battle: &Battle, id: UnitId) {
        let (w, d) = (self.ground.width().0, self.ground.depth().0);
        // Every corner lies within half the diagonal of the centre: a footprint that far inside every edge
        // (with a margin far above rounding) is on the table, and neither it nor its corners need be built.
        if let (Ok(u), Some(place)) = (battle.unit(id), self.places.get(id.0 as usize)) {
            let (frontage, depth) = self.bases.size(u);
            let c = place.centre;
            let inside = |reach: f64| {
                c.x - reach >= 0.0 && c.x + reach <= w && c.y - reach >= 0.0 && c.y + reach <= d
            };
            // The half-sides' sum is no less than the half-diagonal: inside by it is inside by the diagonal,
            // without its square root.
            if inside((frontage.0 + depth.0) / 2.0 + 1e-9)
                || inside(frontage.0.hypot(depth.0) / 2.0 + 1e-9)
            {
                return;
            }
        }
        let Some(f) = self.footprint(battle, id) else {
            return;
        };
        let c = f.corners();
        let (min_x, max_x) = c
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
                (a.min(p.x), b.max(p.x))
            });
        let (min_y, max_y) = c
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
                (a.min(p.y), b.max(p.y))
            });
        let shift = |lo: f64, hi: f64, size: f64| {
            if lo < 0.0 {
                -lo
            } else if hi > size {
                size - hi
            } else {
                0.0
            }
        };
        let (dx, dy) = (shift(min_x, max_x, w), shift(min_y, max_y, d));
        if (dx != 0.0 || dy != 0.0)
            && let Some(p) = self.places.get_mut(id.0 as usize)
        {
            p.centre = Point::new(p.centre.x + dx, p.centre.y + dy);
        }
    }

    /// Sets unit `id`'s place.
    pub fn set(&mut self, id: UnitId, place: Place) {
        if let Some(p) = self.places.get_mut(id.0 as usize) {
            *p = place;
        }
    }

    /// The place of unit `id`.
    #[must_use]
    pub fn place(&self, id: UnitId) -> Option<Place> {
        self.places.get(id.0 as usize).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search [`path_keeps_gap`] made before it stopped on a lower bound: every golden-section step taken.
    fn keeps_gap_searched(
        me: &Footprint,
        heading: Heading,
        length: f64,
        o: &Footprint,
        apart: f64,
        gap: f64,
    ) -> bool {
        let at = |t: f64| {
            me.placed(me.centre.moved(heading, Inches(t)), me.facing)
                .distance(o)
                .0
        };
        if length <= 0.0 {
            return apart >= gap - 1e-9;
        }
        if at(PROBE.min(length)) >= apart - 1e-12 {
            return apart >= gap - 1e-9;
        }
        let ratio = (5.0_f64.sqrt() - 1.0) / 2.0;
        let (mut lo, mut hi) = (0.0, length);
        let mut a = hi - ratio * (hi - lo);
        let mut b = lo + ratio * (hi - lo);
        let (mut fa, mut fb) = (at(a), at(b));
        let mut least = fa.min(fb).min(at(length));
        for _ in 0..GOLDEN_STEPS {
            if least < gap + 1e-6 {
                return false;
            }
            if fa <= fb {
                hi = b;
                b = a;
                fb = fa;
                a = hi - ratio * (hi - lo);
                fa = at(a);
                least = least.min(fa);
            } else {
                lo = a;
                a = b;
                fa = fb;
                b = lo + ratio * (hi - lo);
                fb = at(b);
                least = least.min(fb);
            }
        }
        least >= gap + 1e-6
    }

    #[test]
    fn bracket_floor_of_a_kinked_distance_is_its_least_value() {
        // |t - 2| + 0.5 sampled at 0, 1, 3 and 4: the two outer chords cross at t = 2, at 0.5.
        let floor = bracket_floor([(0.0, 2.5), (1.0, 1.5), (3.0, 1.5), (4.0, 2.5)]);
        assert!((floor - 0.5).abs() < 1e-15, "{floor}");
        // Falling all the way: the line through the inner two, carried to the far end, is the floor (0.5).
        let floor = bracket_floor([(0.0, 3.5), (1.0, 2.5), (2.0, 1.5), (3.0, 0.5)]);
        assert!((floor - 0.5).abs() < 1e-15, "{floor}");
        // A figure that is not a number gives no bound.
        let floor = bracket_floor([(0.0, f64::NAN), (1.0, 2.5), (2.0, 1.5), (3.0, 0.5)]);
        assert_eq!(floor, f64::NEG_INFINITY);
    }

    #[test]
    fn path_keeps_gap_answers_as_the_whole_search() {
        // Neighbours within a tenth of an inch beyond the gap of a unit moving past them at every angle: the
        // search that stops on its lower bound answers as the one that takes every step.
        let gap = 0.5;
        let me = Footprint {
            centre: Point::new(20.0, 20.0),
            facing: Heading::NORTH,
            frontage: Inches(4.0),
            depth: Inches(0.5),
        };
        let (mut kept, mut not_kept) = (0, 0);
        for facing in (0..8).map(|k| f64::from(k) * 45.0 + 7.0) {
            let facing = Heading::NORTH.turned(facing);
            for side in [-1.0, 1.0] {
                for over in [0.0, 0.013, 0.05, 0.099] {
                    for along in (-4..=4).map(|k| f64::from(k) * 1.5) {
                        // A neighbour beside the unit, `over` beyond the gap at the start.
                        let mut o = Footprint {
                            centre: Point::new(20.0 + side * 4.0, 20.0 + along),
                            facing,
                            frontage: Inches(2.0),
                            depth: Inches(1.0),
                        };
                        let apart = me.distance(&o).0;
                        let shift = gap + over - apart;
                        o = o.placed(Point::new(o.centre.x + side * shift, o.centre.y), facing);
                        let apart = me.distance(&o).0;
                        for heading in (0..24).map(|k| Heading::NORTH.turned(f64::from(k) * 15.0)) {
                            for length in [0.3, 2.5, 9.0] {
                                let quick = path_keeps_gap(&me, heading, length, &o, apart, gap);
                                let whole =
                                    keeps_gap_searched(&me, heading, length, &o, apart, gap);
                                assert_eq!(
                                    quick, whole,
                                    "{facing:?} {along} {over} {heading:?} {length}"
                                );
                                if quick {
                                    kept += 1;
                                } else {
                                    not_kept += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(
            kept > 1000 && not_kept > 1000,
            "{kept} kept, {not_kept} not"
        );
    }
}
