//! The field: where each unit stands on the table, and the measurements the rules take from it (ranges, cones,
//! flanks, cover, rough ground, contact, the way to the table edge).
//!
//! The rules engine ([`crate::Battle`]) takes measured facts as inputs; this module measures them from
//! footprints on acw-core's [`Table`], so the rules stay testable without geometry and the geometry stays in
//! one place. The Union's base edge is the table's south edge (y = 0), the Confederates' the north edge.

use crate::fire::{self, TargetArea};
use crate::options::{FleeEdge, Options};
use crate::state::{Formation, MoraleState, Unit, UnitId};
use crate::tables::CONTACT_DISTANCE;
use acw_core::Side;
use acw_core::measure::{Heading, Inches, Point};
use acw_core::table::{Footprint, Shape, Table, Terrain};
use std::sync::Arc;

/// Depth of a unit's footprint in inches: two ranks of figures an inch apart (TSATF-SET-01).
pub const UNIT_DEPTH: f64 = 2.0;

/// How far an unobstructed move stops short of an enemy it does not charge, in inches: a move is not a charge,
/// so it ends outside contact (TSATF-MEL-04).
pub const MOVE_GAP: f64 = 2.0;

/// The least room, in inches, a moving unit leaves between itself and any other unit it passes.
pub const SPACING: f64 = 0.1;

/// A unit's frontage in inches (TSATF-SET-01, TSATF-FIR-05): one inch a figure, a close-order line in two ranks,
/// a skirmish line one rank with an inch between figures, a column four abreast.
#[must_use]
pub fn frontage(unit: &Unit) -> f64 {
    frontage_in(unit.formation(), unit.strength())
}

/// The frontage in inches of `figures` figures in a formation (see [`frontage`]).
#[must_use]
pub fn frontage_in(formation: Formation, figures: u16) -> f64 {
    let n = f64::from(figures.max(1));
    let w = match formation {
        Formation::CloseOrderLine => (n / 2.0).ceil(),
        Formation::SkirmishLine => 2.0 * n,
        Formation::MarchColumn | Formation::AssaultColumn => 4.0,
        _ => 2.0,
    };
    w.max(1.0)
}

/// The signed angle in degrees from heading `a` to heading `b`, in -180..=180.
#[must_use]
pub fn angle_between(a: Heading, b: Heading) -> f64 {
    let d = (b.as_degrees() - a.as_degrees()).rem_euclid(360.0);
    if d > 180.0 { d - 360.0 } else { d }
}

/// The table and every unit's footprint, by unit id. A unit the field does not hold is infinitely far away, in
/// no cone, flank, sight, contact or cover, and has no room to move.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Field {
    // the table as it stands, shared between copies: states are copied for every order, and the table
    // changes only when an obstacle is taken down (a new table then, never an edit of the shared one)
    #[cfg_attr(feature = "serde", serde(with = "shared_table"))]
    table: Arc<Table>,
    places: Vec<Footprint>,
    // the obstacles taken down so far, in the order they came down (TSATF-MOV-12)
    #[cfg_attr(feature = "serde", serde(default))]
    dismantled: Vec<Terrain>,
}

#[cfg(feature = "serde")]
mod shared_table {
    use acw_core::table::Table;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::sync::Arc;

    pub(super) fn serialize<S: Serializer>(t: &Arc<Table>, s: S) -> Result<S::Ok, S::Error> {
        t.as_ref().serialize(s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Arc<Table>, D::Error> {
        Table::deserialize(d).map(Arc::new)
    }
}

impl Field {
    /// A field; `places` holds one footprint per unit, in unit order. The caller checks that they lie on the
    /// table (the scenario loader does).
    #[must_use]
    pub fn new(table: Table, places: Vec<Footprint>) -> Field {
        Field {
            table: Arc::new(table),
            places,
            dismantled: Vec::new(),
        }
    }

    /// The table as it stands: the scenario's, less the obstacles taken down (TSATF-MOV-12).
    #[must_use]
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// The obstacles taken down so far, in the order they came down (TSATF-MOV-12). They are gone from
    /// [`Field::table`]: no longer rough ground, cover or a protected position.
    #[must_use]
    pub fn dismantled(&self) -> &[Terrain] {
        &self.dismantled
    }

    /// The obstacle (a fence, wall or the like) a unit is in contact with, by its place among the table's
    /// features; the nearest when there are several (TSATF-MOV-12). In contact: within an inch of the unit's
    /// footprint or crossing it (TSATF-MEL-04).
    #[must_use]
    pub fn obstacle_in_contact(&self, id: UnitId) -> Option<usize> {
        let f = self.fp(id)?;
        let c = f.corners();
        let edges = [(c[0], c[1]), (c[1], c[2]), (c[2], c[3]), (c[3], c[0])];
        self.table
            .terrain()
            .iter()
            .enumerate()
            .filter(|(_, t)| t.effects().obstacle)
            .filter_map(|(k, t)| {
                let gap = if edges.iter().any(|&(a, b)| t.touches_segment(a, b))
                    || t.contains(f.centre)
                {
                    0.0
                } else {
                    let points: &[Point] = match t.shape() {
                        Shape::Line(ps) | Shape::Area(ps) => ps,
                    };
                    let to_feature = c.iter().map(|&p| t.distance_to(p).0);
                    let to_unit = points.iter().map(|&p| f.distance_to(p).0);
                    to_feature.chain(to_unit).fold(f64::INFINITY, f64::min)
                };
                (gap <= CONTACT_DISTANCE).then_some((k, gap))
            })
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(k, _)| k)
    }

    /// Takes the table's feature at `index` down (TSATF-MOV-12): the field's table becomes a new one without
    /// it, and the feature is kept in [`Field::dismantled`]. `None` (and nothing changed) when there is no
    /// obstacle at that place.
    pub(crate) fn dismantle(&mut self, index: usize) -> Option<&Terrain> {
        let feature = self.table.terrain().get(index)?;
        if !feature.effects().obstacle {
            return None;
        }
        let feature = feature.clone();
        let rest: Vec<Terrain> = self
            .table
            .terrain()
            .iter()
            .enumerate()
            .filter(|&(k, _)| k != index)
            .map(|(_, t)| t.clone())
            .collect();
        let table = Table::new(self.table.width(), self.table.depth(), rest).ok()?;
        self.table = Arc::new(table);
        self.dismantled.push(feature);
        self.dismantled.last()
    }

    /// Every footprint, by unit id.
    #[must_use]
    pub fn places(&self) -> &[Footprint] {
        &self.places
    }

    /// A unit's footprint.
    #[must_use]
    pub fn place(&self, id: UnitId) -> Option<&Footprint> {
        self.places.get(id.0 as usize)
    }

    pub(crate) fn set(&mut self, id: UnitId, f: Footprint) {
        if let Some(p) = self.places.get_mut(id.0 as usize) {
            *p = f;
        }
    }

    fn fp(&self, id: UnitId) -> Option<Footprint> {
        self.places.get(id.0 as usize).copied()
    }

    /// The range from one unit to another in inches: from the nearest firing figure to the nearest target
    /// figure, the gap between the two footprints (TSATF-FIR-04).
    #[must_use]
    pub fn range(&self, from: UnitId, to: UnitId) -> f64 {
        match (self.fp(from), self.fp(to)) {
            (Some(a), Some(b)) => a.distance(&b).0,
            _ => f64::INFINITY,
        }
    }

    /// Whether `to` is in `from`'s cone of fire (TSATF-FIR-03, TSATF-ART-05): the angle between the firer's
    /// facing and the line from its front centre to the nearest point of the target, read by the options' cone.
    #[must_use]
    pub fn in_cone(&self, from: UnitId, to: UnitId, gun: bool, options: &Options) -> bool {
        let (Some(a), Some(b)) = (self.fp(from), self.fp(to)) else {
            return false;
        };
        let origin = a.front_centre();
        // the nearest of the target's corners, edge middles and centre
        let c = b.corners();
        let mid = |i: usize| {
            let (p, q) = (c[i], c[(i + 1) % 4]);
            Point::new((p.x + q.x) / 2.0, (p.y + q.y) / 2.0)
        };
        let pts = [
            b.centre,
            c[0],
            c[1],
            c[2],
            c[3],
            mid(0),
            mid(1),
            mid(2),
            mid(3),
        ];
        pts.iter().any(|&p| {
            origin.distance(p).0 < 1e-9
                || fire::in_cone(angle_between(a.facing, origin.heading_to(p)), gun, options)
                    .unwrap_or(false)
        })
    }

    /// Whether `from` stands outside `target`'s frontal sector (TSATF-FIR-08, TSATF-MEL-19): the angle at the
    /// target's centre between its facing and the line to `from`'s centre exceeds the options' half-angle.
    #[must_use]
    pub fn outside_front(&self, from: UnitId, target: UnitId, options: &Options) -> bool {
        let (Some(t), Some(f)) = (self.fp(target), self.fp(from)) else {
            return false;
        };
        let off = angle_between(t.facing, t.centre.heading_to(f.centre));
        fire::outside_front(off, options).unwrap_or(false)
    }

    /// Whether sight runs clear from one unit to another: no sight-blocking terrain and no other unit's
    /// footprint between their centres (TSATF-FIR-03).
    #[must_use]
    pub fn line_of_sight(&self, from: UnitId, to: UnitId) -> bool {
        let (Some(a), Some(b)) = (self.fp(from), self.fp(to)) else {
            return false;
        };
        let blockers: Vec<Footprint> = self
            .places
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != from.0 as usize && i != to.0 as usize)
            .map(|(_, f)| *f)
            .collect();
        self.table
            .line_of_sight(a.front_centre(), b.centre, &blockers)
    }

    /// The target area as counted at the table (TSATF-FIR-06, TSATF-FIR-07, TSATF-FIR-08): every figure of the
    /// target able to be hit; close order when the target is in a close-order line or a column; light cover
    /// when it is prone, in rough ground, or has cover between it and the firer within its own depth of its
    /// centre; enfiladed when
    /// the firer stands outside its frontal sector. Woods and fences count as light cover: the table does not
    /// tell substantial cover apart.
    #[must_use]
    pub fn target_area(&self, firer: UnitId, target: &Unit, options: &Options) -> TargetArea {
        let (Some(t), Some(from)) = (self.fp(target.id()), self.fp(firer)) else {
            return TargetArea::default();
        };
        let n = target.strength();
        let close = matches!(
            target.formation(),
            Formation::CloseOrderLine | Formation::MarchColumn | Formation::AssaultColumn
        );
        let covered = target.prone()
            || target.morale() == MoraleState::Pinned
            || self.table.is_rough(t.centre)
            || self
                .table
                .in_cover(&t, from.front_centre(), Inches(UNIT_DEPTH));
        TargetArea {
            figures: n,
            close_order: if close { n } else { 0 },
            light_cover: if covered { n } else { 0 },
            substantial_cover: 0,
            enfiladed: self.outside_front(firer, target.id(), options),
        }
    }

    /// The separate rough or obstacle features the straight path from `a` to `b` enters or crosses
    /// (TSATF-MOV-06, TSATF-MEL-03), at most 255.
    #[must_use]
    pub fn rough_features(&self, a: Point, b: Point) -> u8 {
        let n = self
            .table
            .terrain()
            .iter()
            .filter(|t| {
                let e = t.effects();
                (e.rough || e.obstacle) && t.touches_segment(a, b)
            })
            .count();
        u8::try_from(n).unwrap_or(u8::MAX)
    }

    /// Whether the straight path from `a` to `b` keeps to one road (TSATF-MOV-04): both ends and the points a
    /// quarter, half and three quarters of the way lie within an inch of the same road.
    #[must_use]
    pub fn on_road(&self, a: Point, b: Point) -> bool {
        let at = |t: f64| Point::new(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y));
        self.table.terrain().iter().any(|r| {
            r.effects().road
                && [0.0, 0.25, 0.5, 0.75, 1.0]
                    .iter()
                    .all(|&t| r.distance_to(at(t)).0 <= 1.0 + 1e-9)
        })
    }

    /// Whether a unit's footprint, resized to `frontage` where it stands, stays wholly on the table.
    #[must_use]
    pub fn fits(&self, id: UnitId, frontage: f64) -> bool {
        self.places.get(id.0 as usize).is_some_and(|f| {
            frontage > 0.0
                && self.table.holds(&Footprint {
                    frontage: Inches(frontage),
                    ..*f
                })
        })
    }

    /// Whether a unit has come within an inch of another: contact for close combat (TSATF-MEL-04).
    #[must_use]
    pub fn in_contact(&self, a: UnitId, b: UnitId) -> bool {
        self.range(a, b) <= CONTACT_DISTANCE + 1e-6
    }

    /// Whether a target holds a protected position against a charger (TSATF-MEL-25, TSATF-MEL-26): a cover
    /// feature lies between them within an inch of the target.
    #[must_use]
    pub fn protected(&self, charger: UnitId, target: UnitId) -> bool {
        let (Some(t), Some(c)) = (self.fp(target), self.fp(charger)) else {
            return false;
        };
        self.table.terrain().iter().any(|f| {
            f.effects().obstacle
                && f.effects().cover
                && f.touches_segment(c.centre, t.centre)
                && f.distance_to(t.centre).0 <= CONTACT_DISTANCE + UNIT_DEPTH / 2.0
        })
    }

    /// How many attacking figures a protected position holds against a charger in contact (TSATF-MEL-14,
    /// TSATF-MEL-26): the stretch of the obstacle that lies along both the target's front and the charger's,
    /// one figure an inch (at least one, as the two are in contact). `None` when the target is not protected
    /// against this charger.
    #[must_use]
    pub fn obstacle_room(&self, charger: UnitId, target: UnitId) -> Option<u16> {
        let (Some(t), Some(c)) = (self.fp(target), self.fp(charger)) else {
            return None;
        };
        let wall = self.table.terrain().iter().find(|f| {
            f.effects().obstacle
                && f.effects().cover
                && f.touches_segment(c.centre, t.centre)
                && f.distance_to(t.centre).0 <= CONTACT_DISTANCE + UNIT_DEPTH / 2.0
        })?;
        // measured along the target's front, from its centre
        let right = t.centre.moved(t.facing.turned(90.0), Inches(1.0));
        let (ux, uy) = (right.x - t.centre.x, right.y - t.centre.y);
        let along = |p: Point| (p.x - t.centre.x) * ux + (p.y - t.centre.y) * uy;
        let span = |ps: &mut dyn Iterator<Item = Point>| {
            ps.map(along)
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                    (lo.min(v), hi.max(v))
                })
        };
        let points: &[Point] = match wall.shape() {
            Shape::Line(ps) | Shape::Area(ps) => ps,
        };
        let spans = [
            span(&mut t.corners().into_iter()),
            span(&mut c.corners().into_iter()),
            span(&mut points.iter().copied()),
        ];
        let lo = spans.iter().map(|s| s.0).fold(f64::NEG_INFINITY, f64::max);
        let hi = spans.iter().map(|s| s.1).fold(f64::INFINITY, f64::min);
        let room = (hi - lo + 1e-6).floor();
        // a finite, non-negative count of inches that fits a u16 (the table is bounded)
        let figures = if room.is_finite() && room >= 1.0 {
            room.min(f64::from(u16::MAX)) as u16
        } else {
            1
        };
        Some(figures)
    }

    /// The heading a fleeing or routed unit takes (TSATF-MOR-08, TSATF-MOV-13, TSATF-MEL-22): toward the
    /// nearest table edge, or its own base edge under the option.
    #[must_use]
    pub fn flight_heading(&self, id: UnitId, side: Side, edge: FleeEdge) -> Heading {
        let own = match side {
            Side::Union => Heading::SOUTH,
            Side::Confederate => Heading::NORTH,
        };
        let Some(c) = self.fp(id).map(|f| f.centre) else {
            return own;
        };
        let (w, d) = (self.table.width().0, self.table.depth().0);
        match edge {
            FleeEdge::OwnBase => own,
            _ => {
                let options = [
                    (c.y, Heading::SOUTH),
                    (d - c.y, Heading::NORTH),
                    (c.x, Heading::WEST),
                    (w - c.x, Heading::EAST),
                ];
                options
                    .iter()
                    .fold(options[0], |best, &o| if o.0 < best.0 { o } else { best })
                    .1
            }
        }
    }

    /// The room a unit has along a heading before it leaves the table, in inches (TSATF-MOV-13).
    #[must_use]
    pub fn edge_room(&self, id: UnitId, heading: Heading) -> f64 {
        self.fp(id)
            .map_or(0.0, |f| self.table.edge_room(&f, heading).0)
    }

    /// Moves a unit up to `inches` along `heading`, stopping on the table and `gap` short of every other unit it
    /// does not already touch; it ends facing `face`. Returns the inches moved.
    pub(crate) fn shift(
        &mut self,
        id: UnitId,
        heading: Heading,
        inches: f64,
        gap: f64,
        face: Heading,
    ) -> f64 {
        let Some(me) = self.fp(id) else {
            return 0.0;
        };
        let others: Vec<Footprint> = self
            .places
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != id.0 as usize)
            .map(|(_, f)| *f)
            .collect();
        let d = self
            .table
            .slide(
                &me,
                heading,
                Inches(inches.max(0.0)),
                &others,
                Inches(gap),
                Inches(0.05),
            )
            .0;
        let to = me.centre.moved(heading, Inches(d));
        // turning in place may not swing a corner off the table: the unit then keeps its facing
        if !self.put(id, me.placed(to, face)) && !self.put(id, me.placed(to, me.facing)) {
            return 0.0;
        }
        d
    }

    /// Sets a footprint if it lies wholly on the table; returns whether it did.
    fn put(&mut self, id: UnitId, f: Footprint) -> bool {
        let ok = self.table.holds(&f);
        if ok {
            self.set(id, f);
        }
        ok
    }

    /// Places a charger in contact with its target, facing it (TSATF-MEL-04, TSATF-MEL-14), unless that would
    /// swing it off the table.
    pub(crate) fn close_with(&mut self, charger: UnitId, target: UnitId) {
        let (Some(c), Some(t)) = (self.fp(charger), self.fp(target)) else {
            return;
        };
        let f = c.placed_in_contact(&t);
        // at a table edge the charger stays where its charge ended, still within an inch
        self.put(charger, f);
    }

    /// Resizes a unit's footprint to its present frontage (after losses or a formation change).
    pub(crate) fn refit(&mut self, unit: &Unit) {
        let Some(f) = self.fp(unit.id()) else {
            return;
        };
        self.set(
            unit.id(),
            Footprint {
                frontage: Inches(frontage(unit)),
                ..f
            },
        );
    }
}
