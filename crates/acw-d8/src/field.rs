//! The table as the game layer measures it: the played map laid on acw-core's [`Table`] (180 × 150 cm, the
//! 6 × 5 squares of 30 cm), a footprint for every unit and a point for every officer, and the facts the
//! [`Battle`] takes from its caller (distances, arcs, sight, cover, what a move crossed) measured from them.
//!
//! The table's own unit is the inch; the field converts to centimetres for every fact it hands the rules.
//! Coordinates follow acw-core: x from the west edge, y from the south edge (the Confederate base line), so a
//! square's D8 coordinates (y from the north edge) are `150 − y` in centimetres.

use crate::map::{Map, Piece, Square};
use crate::morale::{MoraleFacts, OfficerAt};
use crate::state::{Battle, OfficerId, Unit, UnitId};
use crate::tables::{Cover, Formation, Ground, Rank, Troop, board};
use crate::victory::{EndPosition, SquareHolding};
use acw_core::measure::{Centimetres, Heading, Inches, Point};
use acw_core::table::{Effects, Footprint, Shape, Table, Terrain};
use acw_core::{BySide, Side};

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// Centimetres in an inch.
const CM: f64 = 2.54;
/// Two footprints this close (cm) are in base contact (D8-MEL-01).
pub const CONTACT_CM: f64 = 0.1;
/// The gap a move or deployment keeps from other units (cm): moves stop short of contact, which only a charge
/// makes.
pub const GAP_CM: f64 = 0.5;

/// Half the width of a road on the table, in cm: a move within this of the line joining two road squares that
/// touch at a corner runs along the road (D8-MOV-06).
pub const ROAD_HALF_WIDTH_CM: f64 = 2.5;

/// The side of a farmhouse, in cm (D8-STR-02).
pub const HOUSE_CM: f64 = 6.0;
/// How near a farmhouse (cm) a unit must stand to put figures inside.
pub const BESIDE_CM: f64 = 1.0;

/// The length of (x, y): a plain square root, for the cheap bounds (the table's own measures are exact).
#[must_use]
pub(crate) fn span(x: f64, y: f64) -> f64 {
    (x * x + y * y).sqrt()
}

/// The distance between two points, by [`span`].
#[must_use]
pub(crate) fn apart(a: Point, b: Point) -> f64 {
    span(b.x - a.x, b.y - a.y)
}

pub(crate) use acw_core::table::frame;

/// `p.moved(heading, Inches(d))` ([`Point::moved`]), bit for bit, from the heading's sine and cosine `(s, c)`.
#[must_use]
pub(crate) fn moved_by(p: Point, (s, c): (f64, f64), d: f64) -> Point {
    Point::new(p.x + d * s, p.y + d * c)
}

/// A footprint's front centre ([`Footprint::front_centre`]), bit for bit, from its facing's remembered frame.
#[must_use]
pub(crate) fn front_centre(f: &Footprint) -> Point {
    moved_by(f.centre, frame(f.facing).ahead, f.depth.0 / 2.0)
}

/// Whether a footprint could touch the segment from `a` to `b`: its centre lies within half its diagonal of the
/// segment (a cheap test before the exact one).
#[must_use]
pub(crate) fn near_segment(fp: &Footprint, a: Point, b: Point) -> bool {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let len2 = dx * dx + dy * dy;
    let c = fp.centre;
    let t = if len2 > 0.0 {
        (((c.x - a.x) * dx + (c.y - a.y) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let p = Point::new(a.x + dx * t, a.y + dy * t);
    apart(p, c) <= span(fp.frontage.0, fp.depth.0) / 2.0 + 1e-9
}

/// The squares a straight path from `a` to `b` passes through, in order, with or without the start square, each
/// given to `visit` ([`Field::squares_along`]): the path is sampled every 2 cm or less (`steps` equal steps) and
/// each sample's square ([`square_at`]) is taken unless it is the last one taken (or the start square, left
/// out). A sample that lies inside the square of the sample before by more than the steps between them (with a
/// margin far above rounding) is in that square and changes nothing, so it is passed over without being
/// worked out: the squares given are those of every sample, bit for bit. `visit` may stop the walk by
/// answering `false`.
pub(crate) fn squares_along(
    a: Point,
    b: Point,
    with_start: bool,
    mut visit: impl FnMut(Square) -> bool,
) {
    let length = cm(a.distance(b).0);
    let steps = (length / 2.0).ceil().max(1.0) as usize;
    let first = square_at(a);
    let mut last = None;
    // Samples to pass over per cm of room inside a square (none if the length is not a plain number).
    let per_cm = if length.is_finite() && length > 0.0 {
        steps as f64 / length
    } else {
        0.0
    };
    let mut i = 0;
    while i <= steps {
        let t = i as f64 / steps as f64;
        let p = Point::new(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
        i += 1;
        let Some(s) = square_at(p) else { continue };
        if last != Some(s) && (with_start || Some(s) != first) {
            if !visit(s) {
                return;
            }
            last = Some(s);
        }
        // The room left inside the square, in cm: the next samples that lie within it are in it too.
        let (x, y) = (cm(p.x), board::DEPTH_CM - cm(p.y));
        let (x0, x1, y0, y1) = s.bounds_cm();
        let room = (x - x0).min(x1 - x).min(y - y0).min(y1 - y) - 1e-7;
        if room > 0.0 {
            let pass = (room * per_cm).floor();
            if pass >= 1.0 {
                i = i.saturating_add(pass.min(steps as f64) as usize);
            }
        }
    }
}

/// [`Field::least_gap_cm`] from two units' terms ([`Field::gap_terms`]): the centres' distance less both
/// half-diagonals, at least 0, in cm.
#[must_use]
pub fn gap_of_terms(a: (Point, f64), b: (Point, f64)) -> f64 {
    (cm(apart(a.0, b.0)) - a.1 - b.1).max(0.0)
}

/// A length in centimetres as a table length (inches).
#[must_use]
pub fn inches(cm: f64) -> f64 {
    Inches::from(Centimetres(cm)).0
}

/// A table length (inches) in centimetres.
#[must_use]
pub fn cm(inches: f64) -> f64 {
    inches * CM
}

/// A point given in centimetres from the south-west corner, as a table point.
#[must_use]
pub fn at_cm(x_cm: f64, y_cm: f64) -> Point {
    Point::new(inches(x_cm), inches(y_cm))
}

/// The square under a table point (D8-SET-04), if on the table.
#[must_use]
pub fn square_at(p: Point) -> Option<Square> {
    let (x, y) = (cm(p.x), board::DEPTH_CM - cm(p.y));
    if !(0.0..=board::WIDTH_CM).contains(&x) || !(0.0..=board::DEPTH_CM).contains(&y) {
        return None;
    }
    Square::containing(x, y).ok()
}

/// The centre of a square as a table point.
#[must_use]
pub fn square_centre(s: Square) -> Point {
    let (x0, x1, y0, y1) = s.bounds_cm();
    at_cm((x0 + x1) / 2.0, board::DEPTH_CM - (y0 + y1) / 2.0)
}

/// The way a side's units face: towards the enemy base line (the Union deploys on the north edge).
#[must_use]
pub fn facing(side: Side) -> Heading {
    match side {
        Side::Union => Heading::SOUTH,
        Side::Confederate => Heading::NORTH,
    }
}

/// D8-SET-01, D8-MOV-03: a unit's footprint in cm (frontage, depth) from its figures and formation: foot
/// 12.5 mm a figure shoulder to shoulder in line, 20 mm deep; a column two figures wide; skirmishers a base
/// width apart; mounted cavalry 25 mm a figure, 50 mm deep; a limbered battery its limber (45 × 60 mm), an
/// unlimbered one its gun and crew (50 × 40 mm).
#[must_use]
pub fn size_cm(u: &Unit) -> (f64, f64) {
    let n = f64::from(u.figures.max(1));
    match u.troop {
        Troop::Battery(_) if u.limbered => (4.5, 6.0),
        Troop::Battery(_) => (5.0, 4.0),
        _ if u.mounted => match u.formation {
            Formation::Column => (5.0, (n / 2.0).ceil() * 5.0),
            Formation::Skirmish => (n * 5.0, 5.0),
            Formation::Line => (n * 2.5, 5.0),
        },
        _ => match u.formation {
            Formation::Column => (2.5, (n / 2.0).ceil() * 2.0),
            Formation::Skirmish => (n * 2.5, 2.0),
            Formation::Line => (n * 1.25, 2.0),
        },
    }
}

/// At least half the diagonal of a unit's footprint in cm (`span(size_cm(u)) / 2`), from its figures alone:
/// every size [`size_cm`] gives has width and depth together at most 5 cm a figure and 6 cm more, and half the
/// diagonal is at most half of width and depth together (by far more than rounding).
#[must_use]
pub(crate) fn half_diagonal_at_most(u: &Unit) -> f64 {
    (5.0 * f64::from(u.figures.max(1)) + 6.0) / 2.0
}

/// Where a unit stands: its centre and the way it faces.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Place {
    /// The centre of its footprint.
    pub centre: Point,
    /// The way its front faces.
    pub facing: Heading,
}

/// The table, the map on it, and where every unit and officer stands.
#[derive(Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Field {
    table: Table,
    map: Map,
    /// Where each unit stands, by unit id.
    places: Vec<Place>,
    /// Where each officer stands, by officer id.
    officers: Vec<Point>,
    /// The smoke markers laid in front of units that fired two moves running from one spot (D8-ENV-06), each
    /// with the unit whose smoke it is.
    #[cfg_attr(feature = "serde", serde(default))]
    smoke: Vec<(UnitId, Footprint)>,
    /// The sight-blocking features' rectangles, worked out from the table the first time sight is measured.
    #[cfg_attr(feature = "serde", serde(skip))]
    blockers: Blockers,
    /// Each square's piece, worked out from the map the first time a square's piece is asked for.
    #[cfg_attr(feature = "serde", serde(skip))]
    pieces: Pieces,
}

impl std::fmt::Debug for Field {
    /// As a derived `Debug` of the table, map, places, officers and smoke: the blockers, worked out from the
    /// table, are left out.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Field")
            .field("table", &self.table)
            .field("map", &self.map)
            .field("places", &self.places)
            .field("officers", &self.officers)
            .field("smoke", &self.smoke)
            .finish()
    }
}

/// How [`Field::sight_blocked`] tests one sight-blocking feature of the table.
#[derive(Clone, Copy, Debug)]
enum Blocker {
    /// A rectangle square to the table (every map piece): the feature's index in the table's terrain and its
    /// rectangle `(x0, x1, y0, y1)` grown and shrunk by the margin.
    Square(usize, [f64; 4], [f64; 4]),
    /// Any other shape with points: its index and its bounding box grown by the margin.
    Boxed(usize, [f64; 4]),
    /// A shape without points: its index (measured exactly).
    Exact(usize),
}

/// The sight-blocking features of a field's table in the table's order, worked out once from it (so equal for
/// equal tables: they take no part in comparing fields).
#[derive(Clone, Debug, Default)]
struct Blockers(std::sync::OnceLock<Vec<Blocker>>);

impl PartialEq for Blockers {
    fn eq(&self, _: &Blockers) -> bool {
        true
    }
}

/// Each square's piece ([`Map::piece`]) by square number less one, worked out once from a field's map (so equal
/// for equal maps: they take no part in comparing fields).
#[derive(Clone, Debug, Default)]
struct Pieces(std::sync::OnceLock<[Option<Piece>; 30]>);

impl PartialEq for Pieces {
    fn eq(&self, _: &Pieces) -> bool {
        true
    }
}

impl Pieces {
    fn of(&self, map: &Map) -> &[Option<Piece>; 30] {
        self.0.get_or_init(|| {
            let mut grid = [None; 30];
            for (n, slot) in (1u8..).zip(grid.iter_mut()) {
                *slot = Square::new(n).ok().and_then(|s| map.piece(s));
            }
            grid
        })
    }
}

/// The margin, far above rounding, by which sight tests grow and shrink a feature's rectangle.
const ROOM: f64 = 1e-7;

impl Blockers {
    fn of(&self, table: &Table) -> &[Blocker] {
        self.0.get_or_init(|| {
            table
                .terrain()
                .iter()
                .enumerate()
                .filter(|(_, t)| t.effects().blocks_sight)
                .map(|(i, t)| {
                    let (Shape::Area(points) | Shape::Line(points)) = t.shape();
                    let Some((lo, hi)) = bounds(points) else {
                        return Blocker::Exact(i);
                    };
                    let grown = [lo.0 - ROOM, hi.0 + ROOM, lo.1 - ROOM, hi.1 + ROOM];
                    if matches!(t.shape(), Shape::Area(_)) && square_rectangle(points, lo, hi) {
                        Blocker::Square(
                            i,
                            grown,
                            [lo.0 + ROOM, hi.0 - ROOM, lo.1 + ROOM, hi.1 - ROOM],
                        )
                    } else {
                        Blocker::Boxed(i, grown)
                    }
                })
                .collect()
        })
    }
}

/// How deep (cm) a smoke marker lies in front of the unit that laid it (D8-ENV-06).
pub const SMOKE_DEPTH_CM: f64 = 5.0;

impl Field {
    /// D8-SET-02, D8-SET-04, D8-SET-16: the table 180 × 150 cm with the map's pieces as square areas (woods,
    /// farms and hills block sight; every piece gives cover; broken ground is rough), the road as a line through
    /// its squares' centres and the river as an obstacle line.
    pub fn new(map: &Map) -> Result<Field, acw_core::table::TableError> {
        let mut terrain = Vec::new();
        for &(piece, s) in &map.data().pieces {
            let (x0, x1, y0, y1) = s.bounds_cm();
            let (ya, yb) = (board::DEPTH_CM - y1, board::DEPTH_CM - y0);
            let corners = vec![at_cm(x0, ya), at_cm(x1, ya), at_cm(x1, yb), at_cm(x0, yb)];
            let effects = Effects {
                cover: true,
                obstacle: false,
                blocks_sight: matches!(piece, Piece::Wood | Piece::Farm | Piece::Hill),
                rough: piece == Piece::BrokenGround,
                road: false,
            };
            terrain.push(Terrain::new(
                format!("the {piece} in square {s}"),
                Shape::Area(corners),
                effects,
            )?);
        }
        let line = |route: &[Square]| -> Vec<Point> {
            let mut v: Vec<Point> = route.iter().map(|&s| square_centre(s)).collect();
            if v.len() == 1 {
                v.push(v[0]);
            }
            v
        };
        terrain.push(Terrain::road("the road", line(&map.data().road.route))?);
        terrain.push(Terrain::new(
            "the river",
            Shape::Line(line(&map.data().river.route)),
            Effects {
                obstacle: true,
                ..Effects::default()
            },
        )?);
        let table = Table::new(
            Inches(inches(board::WIDTH_CM)),
            Inches(inches(board::DEPTH_CM)),
            terrain,
        )?;
        Ok(Field {
            table,
            map: map.clone(),
            places: Vec::new(),
            officers: Vec::new(),
            smoke: Vec::new(),
            blockers: Blockers::default(),
            pieces: Pieces::default(),
        })
    }

    /// The table.
    #[must_use]
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// The map played.
    #[must_use]
    pub fn map(&self) -> &Map {
        &self.map
    }

    /// Where a unit stands.
    #[must_use]
    pub fn place(&self, id: UnitId) -> Option<Place> {
        self.places.get(id.0 as usize).copied()
    }

    /// Where an officer stands.
    #[must_use]
    pub fn officer_at(&self, id: OfficerId) -> Option<Point> {
        self.officers.get(id.0 as usize).copied()
    }

    /// How many units and officers the field places.
    #[must_use]
    pub fn counts(&self) -> (usize, usize) {
        (self.places.len(), self.officers.len())
    }

    /// Places a unit (setting a battle up by hand, or a test).
    pub fn set_place(&mut self, id: UnitId, p: Place) {
        if let Some(slot) = self.places.get_mut(id.0 as usize) {
            *slot = p;
        }
    }

    /// Places an officer.
    pub fn set_officer(&mut self, id: OfficerId, p: Point) {
        if let Some(slot) = self.officers.get_mut(id.0 as usize) {
            *slot = p;
        }
    }

    /// D8-ENV-06: the smoke marker a unit lays in front of its footprint `f`: as wide as its front and
    /// [`SMOKE_DEPTH_CM`] deep, against its front edge.
    #[must_use]
    pub fn smoke_marker(f: &Footprint) -> Footprint {
        let depth = inches(SMOKE_DEPTH_CM);
        Footprint {
            centre: f.front_centre().moved(f.facing, Inches(depth / 2.0)),
            facing: f.facing,
            frontage: f.frontage,
            depth: Inches(depth),
        }
    }

    /// D8-ENV-06: lays a unit's smoke marker (replacing any earlier one of its).
    pub fn lay_smoke(&mut self, id: UnitId, marker: Footprint) {
        self.smoke.retain(|(u, _)| *u != id);
        self.smoke.push((id, marker));
    }

    /// D8-ENV-06: takes up the markers whose smoke has cleared.
    pub fn clear_smoke(&mut self, battle: &Battle) {
        self.smoke.retain(|(u, _)| battle.smoke_hangs(*u));
    }

    /// D8-ENV-06: the smoke markers on the table, each with the unit that laid it (those whose smoke has cleared
    /// but not yet been taken up left out).
    pub fn smoke<'a>(
        &'a self,
        battle: &'a Battle,
    ) -> impl Iterator<Item = (UnitId, Footprint)> + 'a {
        self.smoke
            .iter()
            .copied()
            .filter(|(u, _)| battle.smoke_hangs(*u))
    }

    /// A unit's footprint at a place.
    #[must_use]
    pub fn footprint_at(u: &Unit, p: Place) -> Footprint {
        let (w, d) = size_cm(u);
        Footprint {
            centre: p.centre,
            facing: p.facing,
            frontage: Inches(inches(w)),
            depth: Inches(inches(d)),
        }
    }

    /// A unit's footprint where it stands.
    #[must_use]
    pub fn footprint(&self, u: &Unit) -> Option<Footprint> {
        self.place(u.id).map(|p| Field::footprint_at(u, p))
    }

    /// Whether every footprint whose corners lie within `reach` (inches) of a point of the segment from `a` to
    /// `b` is wholly on the table: both ends lie farther than `reach` (with room far above rounding) inside
    /// every edge, and the table is a rectangle.
    #[must_use]
    pub(crate) fn holds_around(&self, a: Point, b: Point, reach: f64) -> bool {
        let r = reach + 1e-6;
        let (w, d) = (self.table.width().0, self.table.depth().0);
        [a, b]
            .iter()
            .all(|p| p.x >= r && p.x <= w - r && p.y >= r && p.y <= d - r)
    }

    /// Whether a footprint lies wholly on the table.
    #[must_use]
    pub fn on_table(&self, f: &Footprint) -> bool {
        self.table.holds(f)
    }

    /// D8-SET-15: deploys both armies on their base lines, in rows 7.5 cm apart inside the 30 cm deployment zone
    /// (foot regiments in front, brigade by brigade, then sharpshooters, cavalry and batteries), each row from the west edge with
    /// 1 cm between units; officers stand 3 cm behind the middle of their commands. Every unit's figures are
    /// checked against the zone by the rules (`Battle::check_deployment`). Fails if an army does not fit.
    pub fn deploy(&mut self, battle: &Battle) -> Result<(), String> {
        self.places = vec![
            Place {
                centre: Point::new(0.0, 0.0),
                facing: Heading::NORTH
            };
            battle.units().len()
        ];
        for side in Side::both() {
            // Units held back for a flank march are not deployed (D8-OPT-01).
            let mut order: Vec<&Unit> = battle
                .units()
                .iter()
                .filter(|u| u.side == side && !u.removed)
                .collect();
            order.sort_by_key(|u| {
                (
                    match u.troop {
                        Troop::Foot => 0,
                        Troop::Sharpshooters | Troop::Indians => 1,
                        Troop::Cavalry => 2,
                        Troop::Battery(_) => 3,
                    },
                    u.brigade,
                    u.id,
                )
            });
            // Row centres measured from the base line.
            let rows = [26.0, 18.5, 11.0, 3.5];
            let (mut row, mut x) = (0usize, 1.0);
            for u in order {
                let (w, d) = size_cm(u);
                if x + w > board::WIDTH_CM - 1.0 {
                    row += 1;
                    x = 1.0;
                }
                let Some(&back) = rows.get(row) else {
                    return Err(format!(
                        "the {side} army does not fit in its deployment zone"
                    ));
                };
                let y_d8 = match side {
                    Side::Union => back,
                    Side::Confederate => board::DEPTH_CM - back,
                };
                let place = Place {
                    centre: at_cm(x + w / 2.0, board::DEPTH_CM - y_d8),
                    facing: facing(side),
                };
                let ys = [y_d8 - d / 2.0, y_d8 + d / 2.0];
                battle
                    .check_deployment(u.id, &ys, crate::map::DEPLOYMENT_DEPTH_CM)
                    .map_err(|e| e.to_string())?;
                self.places[u.id.0 as usize] = place;
                x += w + 1.0;
            }
        }
        self.officers = vec![Point::new(0.0, 0.0); battle.officers().len()];
        for o in battle.officers() {
            self.officers[o.id.0 as usize] = self.command_centre(battle, o.id);
        }
        Ok(())
    }

    /// The point 3 cm behind the middle of an officer's command (his brigade for a Brigadier, the side's army for
    /// the others); where his command has no unit left, where he stands.
    #[must_use]
    pub fn command_centre(&self, battle: &Battle, id: OfficerId) -> Point {
        let Ok(o) = battle.officer(id) else {
            return Point::new(0.0, 0.0);
        };
        let (mut sx, mut sy, mut n) = (0.0, 0.0, 0.0);
        for u in battle.units().iter().filter(|u| {
            !u.removed
                && u.side == o.side
                && (o.rank != Rank::Brigadier || (u.brigade.is_some() && u.brigade == o.brigade))
        }) {
            if let Some(p) = self.place(u.id) {
                sx += p.centre.x;
                sy += p.centre.y;
                n += 1.0;
            }
        }
        if n == 0.0 {
            return self.officer_at(id).unwrap_or(Point::new(0.0, 0.0));
        }
        moved_by(
            Point::new(sx / n, sy / n),
            frame(facing(o.side)).behind,
            inches(3.0),
        )
    }

    /// The piece of a square ([`Map::piece`]), looked up in the field's grid of them.
    fn piece(&self, s: Square) -> Option<Piece> {
        self.pieces.of(&self.map)[usize::from(s.number() - 1)]
    }

    /// The piece of a square, if any.
    #[must_use]
    pub fn piece_at(&self, p: Point) -> Option<Piece> {
        square_at(p).and_then(|s| self.piece(s))
    }

    /// D8-FIR-12, D8-SET-16: the cover of the ground a point stands on (the piece of its square).
    #[must_use]
    pub fn cover_at(&self, p: Point, broken_ground_soft: bool) -> Cover {
        self.piece_at(p)
            .map_or(Cover::Open, |piece| piece.cover(broken_ground_soft))
    }

    /// Whether a square carries the road (its route or a farm road).
    #[must_use]
    pub fn road_square(&self, s: Square) -> bool {
        let d = self.map.data();
        d.road.route.contains(&s) || d.branches.iter().any(|b| b.contains(&s))
    }

    /// D8-MOV-06, D8-SET-10, D8-SET-11: whether a straight move from `a` to `b` runs along the road: every point
    /// of its path lies in a square that carries the road (its route or a farm road), or on the road itself
    /// where it cuts the corner between two squares that touch diagonally (within [`ROAD_HALF_WIDTH_CM`] of the
    /// line joining their centres).
    #[must_use]
    pub fn along_road(&self, a: Point, b: Point) -> bool {
        let steps = (cm(a.distance(b).0) / 2.0).ceil().max(1.0) as usize;
        (0..=steps).all(|i| {
            let t = i as f64 / steps as f64;
            let p = Point::new(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
            square_at(p).is_some_and(|s| self.road_square(s)) || self.on_road_leg(p)
        })
    }

    /// Whether a point lies on a diagonal leg of the road or a farm road: within [`ROAD_HALF_WIDTH_CM`] of the
    /// line joining the centres of two road squares that touch at a corner.
    fn on_road_leg(&self, p: Point) -> bool {
        let d = self.map.data();
        std::iter::once(&d.road.route)
            .chain(d.branches.iter())
            .flat_map(|r| r.windows(2))
            .filter(|w| w[0].column() != w[1].column() && w[0].row() != w[1].row())
            .any(|w| {
                let (a, b) = (square_centre(w[0]), square_centre(w[1]));
                let (dx, dy) = (b.x - a.x, b.y - a.y);
                let len2 = dx * dx + dy * dy;
                let t = (((p.x - a.x) * dx + (p.y - a.y) * dy) / len2).clamp(0.0, 1.0);
                let q = Point::new(a.x + dx * t, a.y + dy * t);
                cm(apart(p, q)) <= ROAD_HALF_WIDTH_CM
            })
    }

    /// The squares a straight path from `a` to `b` passes through, in order, with or without the start square.
    #[must_use]
    pub fn squares_along(&self, a: Point, b: Point, with_start: bool) -> Vec<Square> {
        let mut out: Vec<Square> = Vec::new();
        squares_along(a, b, with_start, |s| {
            out.push(s);
            true
        });
        out
    }

    /// D8-MOV-07, D8-FRM-02: the ground a straight move from `a` to `b` crosses: the piece of every square it
    /// enters (a farm's enclosure is a fence, an enclosed field a fence), and the river where the path crosses
    /// its line. Returns the grounds and whether every river crossing is at the bridge or a ford.
    #[must_use]
    pub fn crossed(&self, a: Point, b: Point) -> (Vec<Ground>, bool) {
        let mut grounds = Vec::new();
        squares_along(a, b, false, |s| {
            if let Some(piece) = self.piece(s) {
                let g = match piece {
                    Piece::Hill => Ground::Hill,
                    Piece::Wood => Ground::Wood,
                    Piece::BrokenGround => Ground::BrokenGround,
                    Piece::Farm | Piece::Field => Ground::Fence,
                };
                if !grounds.contains(&g) {
                    grounds.push(g);
                }
            }
            true
        });
        let mut at_crossing = true;
        if self.table.obstacles_crossed(a, b).next().is_some() {
            grounds.push(Ground::River);
            let d = self.map.data();
            let mut any = false;
            squares_along(a, b, true, |s| {
                any = d.river.route.contains(&s) && (d.bridge == Some(s) || d.fords.contains(&s));
                !any
            });
            at_crossing = any;
        }
        (grounds, at_crossing)
    }

    /// Whether a straight path from `a` to `b` crosses nothing but open ground: [`Field::crossed`] lists no
    /// ground, told without the list (the walk stops at the first square with a piece; the river is asked
    /// about only when none has one).
    #[must_use]
    pub fn path_open(&self, a: Point, b: Point) -> bool {
        let mut open = true;
        squares_along(a, b, false, |s| {
            open = self.piece(s).is_none();
            open
        });
        open && self.table.obstacles_crossed(a, b).next().is_none()
    }

    /// D8-STR-02: the farm square whose farmhouse a footprint stands beside (within [`BESIDE_CM`] of it): each
    /// farm's house is a [`HOUSE_CM`]-square building at its square's centre.
    #[must_use]
    pub fn building_beside(&self, f: &Footprint) -> Option<Square> {
        self.map
            .data()
            .pieces
            .iter()
            .filter(|(p, _)| *p == Piece::Farm)
            .map(|&(_, s)| s)
            .find(|&s| {
                let house = Footprint {
                    centre: square_centre(s),
                    facing: Heading::NORTH,
                    frontage: Inches(inches(HOUSE_CM)),
                    depth: Inches(inches(HOUSE_CM)),
                };
                cm(f.distance(&house).0) <= BESIDE_CM
            })
    }

    /// D8-MOV-24: where a point lies along the river: its distance in cm from the river's start, measured along
    /// the river's line (joining the centres of its squares), if the point is within `within_cm` of that line.
    #[must_use]
    pub fn along_river(&self, p: Point, within_cm: f64) -> Option<f64> {
        let r = &self.map.data().river.route;
        let mut run = 0.0;
        let mut best: Option<(f64, f64)> = None;
        for w in r.windows(2) {
            let (a, b) = (square_centre(w[0]), square_centre(w[1]));
            let (dx, dy) = (b.x - a.x, b.y - a.y);
            let len2 = dx * dx + dy * dy;
            let t = if len2 > 0.0 {
                (((p.x - a.x) * dx + (p.y - a.y) * dy) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let q = Point::new(a.x + dx * t, a.y + dy * t);
            let off = cm(apart(p, q));
            let leg = cm(len2.sqrt());
            if best.is_none_or(|(o, _)| off < o) {
                best = Some((off, run + leg * t));
            }
            run += leg;
        }
        if r.len() == 1 {
            best = Some((cm(apart(p, square_centre(r[0]))), 0.0));
        }
        best.filter(|(off, _)| *off <= within_cm).map(|(_, at)| at)
    }

    /// D8-MOV-24: the point on the river's line `at_cm` along it from its start.
    #[must_use]
    pub fn river_point(&self, at_cm: f64) -> Point {
        let r = &self.map.data().river.route;
        let mut left = at_cm.max(0.0);
        for w in r.windows(2) {
            let (a, b) = (square_centre(w[0]), square_centre(w[1]));
            let leg = cm(apart(a, b));
            if left <= leg && leg > 0.0 {
                let t = left / leg;
                return Point::new(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
            }
            left -= leg;
        }
        r.last().map_or(Point::new(0.0, 0.0), |&s| square_centre(s))
    }

    /// D8-MOV-24, D8-SET-13: whether going along the river towards its finish is going downstream.
    #[must_use]
    pub fn downstream_is_finish(&self) -> bool {
        let d = self.map.data();
        d.downstream == d.river.finish
    }

    /// D8-ENV-01: whether a unit's centre stands inside a wood more than 5 cm from the wood's edge (it sees and is
    /// seen only at the edge).
    #[must_use]
    pub fn deep_in_wood(&self, p: Point) -> bool {
        let Some(s) = square_at(p) else {
            return false;
        };
        if self.piece(s) != Some(Piece::Wood) {
            return false;
        }
        let (x0, x1, y0, y1) = s.bounds_cm();
        let (x, y) = (cm(p.x), board::DEPTH_CM - cm(p.y));
        let edge = (x - x0).min(x1 - x).min(y - y0).min(y1 - y);
        edge > 5.0
    }

    /// D8-ENV-01: whether sight from `from` to `to` is blocked by woods, farms or hills between them, or by
    /// another unit's footprint (`others`): the negation of acw-core's [`Table::line_of_sight`] (a feature
    /// blocks when the segment touches it and neither end lies in it), with the cheapest tests first. The
    /// footprints are tried before the terrain. A feature that is a rectangle square to the table (every map
    /// piece is) is decided by clipping the segment to the rectangle grown and shrunk by a margin far above
    /// rounding: only a segment or an end within that margin of its outline needs acw-core's exact test. Any
    /// other feature is measured exactly when its bounding box, grown by the margin, meets the segment's.
    #[must_use]
    pub fn sight_blocked(&self, from: Point, to: Point, others: &[Footprint]) -> bool {
        if others.iter().any(|o| o.blocks(from, to)) {
            return true;
        }
        let terrain = self.table.terrain();
        let exact = |i: usize| {
            let t = &terrain[i];
            t.touches_segment(from, to) && !t.contains(from) && !t.contains(to)
        };
        let within =
            |p: Point, [x0, x1, y0, y1]: [f64; 4]| p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1;
        self.blockers.of(&self.table).iter().any(|&b| match b {
            Blocker::Exact(i) => exact(i),
            Blocker::Boxed(i, grown) => clips(from, to, grown) && exact(i),
            Blocker::Square(i, grown, shrunk) => {
                if !clips(from, to, grown) {
                    return false;
                }
                if within(from, shrunk) || within(to, shrunk) {
                    // An end inside the feature: it does not block.
                    return false;
                }
                if !within(from, grown) && !within(to, grown) && clips(from, to, shrunk) {
                    return true;
                }
                exact(i)
            }
        })
    }

    /// D8-FIR-03, D8-FIR-05: the distance in cm from each figure of `u` that can fire on `target` to the target:
    /// the figures stand evenly along the front edge (a column fires with its front two; a battery from its gun,
    /// the front centre), and a figure fires only on a target whose centre lies within 45° of its front. A
    /// battery's bearing to the target is returned too.
    #[must_use]
    pub fn fire_distances(&self, u: &Unit, f: &Footprint, target: &Footprint) -> (Vec<f64>, f64) {
        let bearing = fire_bearing(f, target);
        let figures = figure_distances(u, f, target);
        let mut out = Vec::with_capacity(figures.size_hint().1.unwrap_or(0));
        out.extend(figures);
        (out, bearing)
    }

    /// D8-MOR-04, D8-CMD-03: a unit's morale facts measured on the table: a brigade mate and an enemy within
    /// 30 cm (base edge to base edge), the cover of its ground, and where its Brigadier and Divisional Commander
    /// are (within their radius of its base, away, or killed).
    #[must_use]
    pub fn morale_facts(&self, battle: &Battle, u: &Unit) -> MoraleFacts {
        let Some(me) = self.footprint(u) else {
            return MoraleFacts::default();
        };
        let near = crate::tables::morale_points::NEAR_CM;
        // `gap_at_most`, its cheap lower bound (bit for bit the first it tries) taken from the unit's terms
        // looked up once.
        let from = self.gap_terms(u);
        let within = |other: &Unit| {
            let bound = match (from, self.gap_terms(other)) {
                (Some(a), Some(o)) => gap_of_terms(a, o),
                _ => f64::INFINITY,
            };
            bound <= near && self.gap_at_most(u, other, near)
        };
        let live = || battle.units().iter().filter(|o| !o.removed && o.id != u.id);
        let brigade_mate_near = u.brigade.is_some()
            && live().any(|o| o.side == u.side && o.brigade == u.brigade && within(o));
        let enemy_near = live().any(|o| o.side != u.side && within(o));
        let at = |rank: Rank, brigade: Option<u8>| {
            let o = battle.officers().iter().find(|o| {
                o.side == u.side && o.rank == rank && (brigade.is_none() || o.brigade == brigade)
            });
            match o {
                None => OfficerAt::Away,
                Some(o) if !o.alive => OfficerAt::Killed,
                Some(o) => {
                    let p = self.officer_at(o.id).unwrap_or(Point::new(0.0, 0.0));
                    if cm(me.distance_to(p).0) <= rank.radius_cm() {
                        OfficerAt::InRange
                    } else {
                        OfficerAt::Away
                    }
                }
            }
        };
        MoraleFacts {
            brigade_mate_near,
            cover: self.cover_at(me.centre, battle.options().broken_ground_soft),
            enemy_near,
            brigadier: if u.troop.brigaded() {
                at(Rank::Brigadier, u.brigade)
            } else {
                OfficerAt::InRange
            },
            division: at(Rank::Division, None),
        }
    }

    /// D8-CMD-03: each unit of `side` with the distance in cm from its base to its commanding officer. The
    /// list is allocated once, for every unit of the battle (it never grows).
    #[must_use]
    pub fn influence(&self, battle: &Battle, side: Side) -> Vec<(UnitId, f64)> {
        let mut out = Vec::with_capacity(battle.units().len());
        for u in battle
            .units()
            .iter()
            .filter(|u| u.side == side && !u.removed)
        {
            if let (Some(o), Some(f)) = (battle.commanding_officer(u.id), self.footprint(u))
                && let Some(p) = self.officer_at(o)
            {
                out.push((u.id, cm(f.distance_to(p).0)));
            }
        }
        out
    }

    /// D8-CMD-03: which units of `side` stand in their commanding officer's influence, by their place in the
    /// battle's list: what [`Battle::start_turn`] makes of [`Field::influence`] (the distance no further than
    /// the officer's radius, refused as it refuses a distance that is not a length), each officer found once;
    /// the distance measured exactly only when the cheap bounds from the footprint's centre leave it open.
    pub(crate) fn in_influence(
        &self,
        battle: &Battle,
        side: Side,
    ) -> Result<Vec<bool>, crate::error::D8Error> {
        let mut out = vec![false; battle.units().len()];
        for u in battle
            .units()
            .iter()
            .filter(|u| u.side == side && !u.removed)
        {
            if let (Some(o), Some(f)) = (battle.commanding_officer(u.id), self.footprint(u))
                && let Some(p) = self.officer_at(o)
                && let Ok(officer) = battle.officer(o)
            {
                let radius = officer.rank.radius_cm();
                // The distance lies between the centre's distance less half the diagonal and the centre's
                // distance: measured exactly only when those two leave it open (by a margin far above
                // rounding).
                let centre = cm(apart(f.centre, p));
                let half = cm(span(f.frontage.0, f.depth.0)) / 2.0;
                out[u.id.0 as usize] = if centre.is_finite() && centre <= radius - 1e-6 {
                    true
                } else if centre.is_finite() && centre - half > radius + 1e-6 {
                    false
                } else {
                    crate::error::length("a distance to an officer", cm(f.distance_to(p).0))?
                        <= radius
                };
            }
        }
        Ok(out)
    }

    /// D8-OPT-02: where a flank marcher comes on: its flank against the table's edge in the grid square of its
    /// flank square, facing the enemy's base line like its army, its centre in the square as near the square's
    /// middle as leaves 0.5 cm from every unit on the table (and from `placed`, arriving with it). None if the
    /// square's stretch of edge has no room (the unit waits for its next move).
    #[must_use]
    pub fn arrival_place(
        &self,
        battle: &Battle,
        u: &Unit,
        square: Square,
        placed: &[(UnitId, Place)],
    ) -> Option<Place> {
        let (w, _) = size_cm(u);
        let (x0, _, y0, y1) = square.bounds_cm();
        let x = if x0 <= 0.0 {
            w / 2.0
        } else {
            board::WIDTH_CM - w / 2.0
        };
        let mid = f64::midpoint(y0, y1);
        let others: Vec<Footprint> = battle
            .units()
            .iter()
            .filter(|o| !o.removed && o.id != u.id)
            .filter_map(|o| self.footprint(o))
            .chain(
                placed
                    .iter()
                    .filter_map(|&(id, p)| battle.unit(id).ok().map(|o| Field::footprint_at(o, p))),
            )
            .collect();
        for k in 0..30 {
            let dy = f64::from((k + 1) / 2) * if k % 2 == 0 { 1.0 } else { -1.0 };
            let y = mid + dy;
            if y < y0 || y > y1 {
                continue;
            }
            let place = Place {
                centre: at_cm(x, board::DEPTH_CM - y),
                facing: facing(u.side),
            };
            let fp = Field::footprint_at(u, place);
            if self.on_table(&fp) && others.iter().all(|o| cm(fp.distance(o).0) > GAP_CM) {
                return Some(place);
            }
        }
        None
    }

    /// D8-VIC-07, D8-VIC-02, D8-VIC-03: the final position on the 30 squares: a side has half a unit in the
    /// square holding the unit's centre (all its figures are counted there) and a figure in every square its
    /// footprint reaches.
    #[must_use]
    pub fn end_position(&self, battle: &Battle) -> EndPosition {
        let mut pos = EndPosition {
            squares: [SquareHolding::default(); 30],
        };
        for u in battle
            .units()
            .iter()
            .filter(|u| !u.removed && u.figures > 0)
        {
            let Some(f) = self.footprint(u) else { continue };
            if let Some(s) = square_at(f.centre) {
                let h = &mut pos.squares[usize::from(s.number() - 1)];
                *h.half_unit.get_mut(u.side) = true;
                *h.any_figure.get_mut(u.side) = true;
            }
            for c in f.corners() {
                if let Some(s) = square_at(c) {
                    *pos.squares[usize::from(s.number() - 1)]
                        .any_figure
                        .get_mut(u.side) = true;
                }
            }
        }
        pos
    }

    /// The farms' squares and the bridge's square.
    #[must_use]
    pub fn objectives(&self) -> (Vec<Square>, Option<Square>) {
        let d = self.map.data();
        (
            d.pieces
                .iter()
                .filter(|(p, _)| *p == Piece::Farm)
                .map(|(_, s)| *s)
                .collect(),
            d.bridge,
        )
    }

    /// D8-ENV-01, D8-CMD-09: the first unit in play, but those listed, whose footprint lies across the segment
    /// from `a` to `b` ([`Footprint::blocks`]), if any. A unit whose centre lies farther from the segment than
    /// half its footprint's diagonal (with room far above rounding) cannot, and is passed over without building
    /// its footprint; nothing is allocated.
    #[must_use]
    pub fn unit_across(
        &self,
        battle: &Battle,
        except: &[UnitId],
        a: Point,
        b: Point,
    ) -> Option<UnitId> {
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        let len2 = dx * dx + dy * dy;
        let (lo, hi) = ((a.x.min(b.x), a.y.min(b.y)), (a.x.max(b.x), a.y.max(b.y)));
        battle
            .units()
            .iter()
            .filter(|u| !u.removed && !except.contains(&u.id))
            .find(|u| {
                let Some(p) = self.place(u.id) else {
                    return false;
                };
                let c = p.centre;
                let (w, d) = size_cm(u);
                // A centre outside the segment's box grown by half the footprint's width and depth together
                // (more than half its diagonal, by far more than rounding) is farther from the segment than that.
                let r = inches((w + d) / 2.0) + 1e-6;
                if c.x < lo.0 - r || c.x > hi.0 + r || c.y < lo.1 - r || c.y > hi.1 + r {
                    return false;
                }
                let t = if len2 > 0.0 {
                    (((c.x - a.x) * dx + (c.y - a.y) * dy) / len2).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let (ex, ey) = (a.x + dx * t - c.x, a.y + dy * t - c.y);
                let reach = inches(span(w, d)) / 2.0 + 1e-6;
                ex * ex + ey * ey <= reach * reach && Field::footprint_at(u, p).blocks(a, b)
            })
            .map(|u| u.id)
    }

    /// The distance in cm between two units' footprints (base edge to base edge).
    #[must_use]
    pub fn gap_cm(&self, a: &Unit, b: &Unit) -> f64 {
        match (self.footprint(a), self.footprint(b)) {
            (Some(fa), Some(fb)) => cm(fa.distance(&fb).0),
            _ => f64::INFINITY,
        }
    }

    /// A lower bound in cm of [`Field::gap_cm`], from the centres and the half-diagonals of the two footprints
    /// (cheap: no polygons).
    #[must_use]
    pub fn least_gap_cm(&self, a: &Unit, b: &Unit) -> f64 {
        self.least_gap_from(a)(b)
    }

    /// [`Field::least_gap_cm`] from `a` to many units: `a`'s place and size are looked up once, and each call
    /// gives, bit for bit, `least_gap_cm(a, b)`.
    pub fn least_gap_from(&self, a: &Unit) -> impl Fn(&Unit) -> f64 + '_ {
        let from = self.gap_terms(a);
        move |b: &Unit| match (from, self.gap_terms(b)) {
            (Some(a), Some(b)) => gap_of_terms(a, b),
            _ => f64::INFINITY,
        }
    }

    /// A unit's terms of [`Field::least_gap_cm`]: its centre and half its footprint's diagonal in cm, if it
    /// stands on the table ([`gap_of_terms`] measures two units from them).
    #[must_use]
    pub fn gap_terms(&self, u: &Unit) -> Option<(Point, f64)> {
        let (w, d) = size_cm(u);
        self.place(u.id).map(|p| (p.centre, span(w, d) / 2.0))
    }

    /// The units in play not of `side` that stand on the table, in the battle's order, each with its centre and
    /// half-diagonal in cm: the terms of [`Field::least_gap_cm`], gathered once to measure many units against
    /// them ([`Field::within`]).
    #[must_use]
    pub fn enemies_placed<'a>(
        &self,
        battle: &'a Battle,
        side: Side,
    ) -> Vec<(&'a Unit, Point, f64)> {
        // Room for every enemy at once (collected from a filter, the list would start small and grow), and no
        // more (a list of every unit is a larger block, slower to allocate).
        let enemy = |o: &&Unit| !o.removed && o.side != side;
        let mut v = Vec::with_capacity(battle.units().iter().filter(enemy).count());
        v.extend(battle.units().iter().filter(enemy).filter_map(|o| {
            let (w, d) = size_cm(o);
            self.place(o.id).map(|p| (o, p.centre, span(w, d) / 2.0))
        }));
        v
    }

    /// The units of `enemies` ([`Field::enemies_placed`]) within `limit` cm of `a`, in their order: each one
    /// [`Field::gap_within`] finds within it, the cheap bound (bit for bit [`Field::least_gap_cm`]) tried
    /// first, then [`Field::gap_at_most`].
    pub fn within<'s, 'a: 's>(
        &'s self,
        a: &'s Unit,
        enemies: &'s [(&'a Unit, Point, f64)],
        limit: f64,
    ) -> impl Iterator<Item = &'a Unit> + 's {
        let (w, d) = size_cm(a);
        let from = self.place(a.id).map(|p| (p.centre, span(w, d) / 2.0));
        enemies
            .iter()
            .filter(move |&&(o, centre, half_o)| {
                from.is_some_and(|(c, half_a)| {
                    (cm(apart(c, centre)) - half_a - half_o).max(0.0) <= limit
                        && self.gap_at_most(a, o, limit)
                })
            })
            .map(|&(o, _, _)| o)
    }

    /// Whether the distance in cm between two units' footprints ([`Field::gap_cm`]) is at most `limit`: the
    /// cheap lower bound ([`Field::least_gap_cm`]) refuses, and a cheap upper bound accepts when it lies below
    /// `limit` by a margin far above rounding (the centres' distance less the radius of the largest circle
    /// about each centre inside its footprint, half its lesser side: the footprints come that near, or touch,
    /// on the line between the centres); between the two, tighter bounds from the footprints' facings along that
    /// line are tried the same way; only a pair between those is measured exactly.
    #[must_use]
    pub fn gap_at_most(&self, a: &Unit, b: &Unit, limit: f64) -> bool {
        let (Some(pa), Some(pb)) = (self.place(a.id), self.place(b.id)) else {
            return f64::INFINITY <= limit;
        };
        let ((wa, da), (wb, db)) = (size_cm(a), size_cm(b));
        let centres = cm(apart(pa.centre, pb.centre));
        if (centres - span(wa, da) / 2.0 - span(wb, db) / 2.0).max(0.0) > limit {
            return false;
        }
        if centres - wa.min(da) / 2.0 - wb.min(db) / 2.0 <= limit - 1e-6 {
            return true;
        }
        // Tighter bounds from the footprints' facings, along the line between the centres (unit vector `n`):
        // the gap is at least the centres' distance less each footprint's half-extent along `n` (the
        // footprints' shadows on that line are that far apart), and at most the centres' distance less each
        // one's reach along `n` from its centre to its edge (the two points where the line leaves the
        // footprints lie inside them). Only a pair between the two, with the same margin, is measured exactly.
        let (dx, dy) = (pb.centre.x - pa.centre.x, pb.centre.y - pa.centre.y);
        let len = span(dx, dy);
        if len > 0.0 {
            let (nx, ny) = (dx / len, dy / len);
            let along = |p: Place, w: f64, d: f64| {
                // Ahead is (sin, cos) of the facing, across it (cos, -sin): as a footprint's corners are laid.
                let (s, c) = frame(p.facing).ahead;
                let (ahead, across) = ((s * nx + c * ny).abs(), (c * nx - s * ny).abs());
                let (hw, hd) = (w / 2.0, d / 2.0);
                (hw * across + hd * ahead, (hw / across).min(hd / ahead))
            };
            let ((out_a, in_a), (out_b, in_b)) = (along(pa, wa, da), along(pb, wb, db));
            if centres - out_a - out_b > limit + 1e-6 {
                return false;
            }
            if (centres - in_a - in_b).max(0.0) <= limit - 1e-6 {
                return true;
            }
        }
        // The footprints' bounds ([`Footprint::distance_bounds`], in cm) the same way, then the exact distance.
        let (Some(fa), Some(fb)) = (self.footprint(a), self.footprint(b)) else {
            return f64::INFINITY <= limit;
        };
        let (least, most) = fa.distance_bounds(&fb);
        let (least, most) = (cm(least), cm(most));
        if least > limit + 1e-6 {
            return false;
        }
        if most <= limit - 1e-6 {
            return true;
        }
        cm(fa.distance(&fb).0) <= limit
    }

    /// The distance in cm between two units' footprints if it is at most `limit`, else `None`; the cheap bound
    /// is tried first.
    #[must_use]
    pub fn gap_within(&self, a: &Unit, b: &Unit, limit: f64) -> Option<f64> {
        if self.least_gap_cm(a, b) > limit {
            return None;
        }
        let g = self.gap_cm(a, b);
        (g <= limit).then_some(g)
    }

    /// A text map of the 30 squares: the piece of each (H hill, F farm, W wood, B broken ground, E enclosed
    /// field), `=` for the road, `~` for the river, `#` for the bridge and `f` for a ford.
    #[must_use]
    pub fn grid(&self) -> String {
        let d = self.map.data();
        let mut out = String::from("        west → east (north at the top: the Union base line)\n");
        for row in 0..board::ROWS {
            out.push_str("   ");
            for col in 0..board::COLUMNS {
                let Some(s) = Square::at_cell(i32::from(col), i32::from(row)) else {
                    continue;
                };
                let piece = match self.piece(s) {
                    Some(Piece::Hill) => 'H',
                    Some(Piece::Farm) => 'F',
                    Some(Piece::Wood) => 'W',
                    Some(Piece::BrokenGround) => 'B',
                    Some(Piece::Field) => 'E',
                    None => '.',
                };
                let line = if d.bridge == Some(s) {
                    '#'
                } else if d.fords.contains(&s) {
                    'f'
                } else if d.river.route.contains(&s) {
                    '~'
                } else if self.road_square(s) {
                    '='
                } else {
                    ' '
                };
                out.push_str(&format!(" {:>2}{piece}{line}", s.number()));
            }
            out.push('\n');
        }
        out.push_str("   H hill, F farm, W wood, B broken ground, E field; = road, ~ river, # bridge, f ford\n");
        out
    }
}

/// D8-FIR-03, D8-FIR-05: [`Field::fire_distances`] figure by figure, measured as they are taken (a caller that
/// needs only the first in reach stops there).
/// The bearing [`Field::fire_distances`] gives: from the footprint's front centre to the target's centre, in
/// degrees off its facing (0 to 180).
#[must_use]
pub(crate) fn fire_bearing(f: &Footprint, target: &Footprint) -> f64 {
    let d = front_centre(f).heading_to(target.centre).as_degrees() - f.facing.as_degrees();
    let d = d.rem_euclid(360.0);
    if d > 180.0 { 360.0 - d } else { d }
}

pub(crate) fn figure_distances<'a>(
    u: &Unit,
    f: &'a Footprint,
    target: &'a Footprint,
) -> impl Iterator<Item = f64> + 'a {
    let front = front_centre(f);
    let battery = u.troop.is_battery();
    let figures = if battery {
        1
    } else {
        (match u.formation {
            Formation::Column => u.figures.min(2),
            _ => u.figures,
        }) as usize
    };
    let width = f.frontage.0;
    // The sines and cosines of the two sideways headings and of the target's axes, taken once for all the
    // figures (not for a battery): each point and distance below is, bit for bit, what `Point::moved` and
    // `Footprint::distance_to` give.
    let ((left, right), (ts, tc), (fs, fc)) = if battery {
        (((0.0, 0.0), (0.0, 0.0)), (0.0, 0.0), (0.0, 0.0))
    } else {
        let (mine, theirs) = (frame(f.facing), frame(target.facing));
        ((mine.left, mine.right), theirs.ahead, mine.ahead)
    };
    let (ahead, across) = ((ts, tc), (tc, -ts));
    let (half_w, half_d) = (target.frontage.0 / 2.0, target.depth.0 / 2.0);
    (0..figures).filter_map(move |i| {
        if battery {
            return Some(cm(target.distance_to(front).0));
        }
        let off = width * ((i as f64 + 0.5) / figures as f64) - width / 2.0;
        let ((s, c), d) = if off < 0.0 {
            (left, -off)
        } else {
            (right, off)
        };
        let p = Point::new(front.x + d * s, front.y + d * c);
        // Within 45° of the front: decided on the dot product with the facing's axis (the bearing's cosine
        // against √½, no arc tangent) unless the bearing lies within about a millionth of a radian of 45°,
        // where the heading is measured as before so that the boundary falls exactly where it did.
        let (vx, vy) = (target.centre.x - p.x, target.centre.y - p.y);
        let dot = vx * fs + vy * fc;
        let (lhs, len2) = (2.0 * dot * dot, vx * vx + vy * vy);
        let in_arc = if len2 > 0.0 && (lhs - len2).abs() > 1e-6 * len2 {
            dot > 0.0 && lhs > len2
        } else {
            let d = p.heading_to(target.centre).as_degrees() - f.facing.as_degrees();
            let d = d.rem_euclid(360.0);
            (if d > 180.0 { 360.0 - d } else { d }) <= 45.0
        };
        in_arc.then(|| {
            let (dx, dy) = (p.x - target.centre.x, p.y - target.centre.y);
            let x = (dx * across.0 + dy * across.1).abs() - half_w;
            let y = (dx * ahead.0 + dy * ahead.1).abs() - half_d;
            // `hypot(x, 0)` is `x` exactly (C99 F.9.4.3), so the square root is taken only off the target's
            // corners.
            let (x, y) = (x.max(0.0), y.max(0.0));
            cm(if y == 0.0 {
                x
            } else if x == 0.0 {
                y
            } else {
                x.hypot(y)
            })
        })
    })
}

/// The least and greatest x and y of some points, or `None` if there are none.
fn bounds(points: &[Point]) -> Option<((f64, f64), (f64, f64))> {
    let first = points.first()?;
    Some(
        points
            .iter()
            .fold(((first.x, first.y), (first.x, first.y)), |(lo, hi), p| {
                (
                    (lo.0.min(p.x), lo.1.min(p.y)),
                    (hi.0.max(p.x), hi.1.max(p.y)),
                )
            }),
    )
}

/// Whether four points are, in order, the corners of the rectangle square to the table from `lo` to `hi`
/// (each side runs along x or along y).
fn square_rectangle(points: &[Point], lo: (f64, f64), hi: (f64, f64)) -> bool {
    let corner = |p: &Point| (p.x == lo.0 || p.x == hi.0) && (p.y == lo.1 || p.y == hi.1);
    points.len() == 4
        && lo.0 < hi.0
        && lo.1 < hi.1
        && points.iter().all(corner)
        && (0..4).all(|i| {
            let (p, q) = (points[i], points[(i + 1) % 4]);
            (p.x == q.x) != (p.y == q.y)
        })
}

/// Whether the segment from `a` to `b` meets the rectangle `(x0, x1, y0, y1)` (its inside or outline), by
/// clipping the segment's parameter to each pair of sides.
fn clips(a: Point, b: Point, [x0, x1, y0, y1]: [f64; 4]) -> bool {
    let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
    for (p, d, lo, hi) in [(a.x, b.x - a.x, x0, x1), (a.y, b.y - a.y, y0, y1)] {
        if d == 0.0 {
            if p < lo || p > hi {
                return false;
            }
            continue;
        }
        let (mut ta, mut tb) = ((lo - p) / d, (hi - p) / d);
        if ta > tb {
            std::mem::swap(&mut ta, &mut tb);
        }
        t0 = t0.max(ta);
        t1 = t1.min(tb);
        if t0 > t1 {
            return false;
        }
    }
    true
}

/// The side a unit belongs to, and whether both armies still have units.
#[must_use]
pub fn in_play(battle: &Battle) -> BySide<usize> {
    let mut n = BySide::new(0, 0);
    for u in battle.units().iter().filter(|u| !u.removed) {
        *n.get_mut(u.side) += 1;
    }
    n
}

#[cfg(test)]
mod frame_tests {
    use super::*;

    /// The front centre and a move worked out from acw-core's remembered frame are bit for bit what
    /// `Point::moved` and `Footprint::front_centre` give, for more facings than the frame has slots.
    #[test]
    fn moves_from_a_remembered_frame_are_bit_for_bit_the_tables() {
        for round in 0..2 {
            for i in 0..200 {
                let h = Heading::degrees(f64::from(i) * 1.7 + 0.123).unwrap_or(Heading::NORTH);
                let f = frame(h);
                let p = Point::new(12.25, 40.5);
                assert_eq!(
                    moved_by(p, f.ahead, 3.3),
                    p.moved(h, Inches(3.3)),
                    "round {round}, {i}"
                );
                let fp = Footprint {
                    centre: p,
                    facing: h,
                    frontage: Inches(4.0),
                    depth: Inches(0.8),
                };
                assert_eq!(front_centre(&fp), fp.front_centre());
            }
        }
    }
}

#[cfg(test)]
mod shortcut_tests {
    use super::*;

    /// A small seeded generator of numbers in [0, 1) for the random cases.
    struct Lcg(u64);

    impl Lcg {
        fn unit(&mut self) -> f64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 11) as f64 / (1u64 << 53) as f64
        }

        /// A coordinate in cm from -20 to `to` + 20 (some off the table), one in four on a square's edge.
        fn coordinate(&mut self, to: f64) -> f64 {
            if self.unit() < 0.25 {
                (self.unit() * (to / board::SQUARE_CM + 1.0)).floor() * board::SQUARE_CM
            } else {
                self.unit() * (to + 40.0) - 20.0
            }
        }
    }

    /// Every sample's square, as [`squares_along`] takes them, each one worked out.
    fn every_sample(a: Point, b: Point, with_start: bool) -> Vec<Square> {
        let steps = (cm(a.distance(b).0) / 2.0).ceil().max(1.0) as usize;
        let mut out: Vec<Square> = Vec::new();
        let first = square_at(a);
        for i in 0..=steps {
            let t = i as f64 / steps as f64;
            let p = Point::new(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
            if let Some(s) = square_at(p)
                && out.last() != Some(&s)
                && (with_start || Some(s) != first)
            {
                out.push(s);
            }
        }
        out
    }

    /// The squares along a path, samples inside the square before passed over, are those of every sample: on
    /// 20,000 random paths (some partly off the table, a quarter of the ends on squares' edges, some along an
    /// edge, some of no length), with and without the start square.
    #[test]
    fn squares_along_passing_over_samples_agrees_with_every_sample() {
        let mut r = Lcg(0x5EED);
        let mut changes = 0;
        for i in 0..20_000 {
            let a = at_cm(r.coordinate(board::WIDTH_CM), r.coordinate(board::DEPTH_CM));
            let b = match i % 10 {
                0 => a,
                1 => Point::new(a.x, at_cm(0.0, r.coordinate(board::DEPTH_CM)).y),
                _ => at_cm(r.coordinate(board::WIDTH_CM), r.coordinate(board::DEPTH_CM)),
            };
            for with_start in [false, true] {
                let mut got = Vec::new();
                squares_along(a, b, with_start, |s| {
                    got.push(s);
                    true
                });
                let want = every_sample(a, b, with_start);
                changes += want.len();
                assert_eq!(got, want, "{a:?} to {b:?}, with the start {with_start}");
            }
        }
        assert!(changes > 40_000, "{changes} squares");
    }

    /// A path is open ground ([`Field::path_open`]) exactly when [`Field::crossed`] lists no ground: on 20
    /// generated maps, 1,000 random paths each.
    #[test]
    fn an_open_path_is_one_that_crosses_nothing() -> Result<(), Box<dyn std::error::Error>> {
        let mut r = Lcg(0x0BE4);
        let (mut open, mut closed) = (0, 0);
        for seed in 0..20 {
            let mut rng = acw_core::GameRng::seed(seed);
            let map = Map::generate(&mut rng, &crate::options::Options::default())?;
            let f = Field::new(&map)?;
            for _ in 0..1_000 {
                let a = at_cm(r.coordinate(board::WIDTH_CM), r.coordinate(board::DEPTH_CM));
                let b = at_cm(r.coordinate(board::WIDTH_CM), r.coordinate(board::DEPTH_CM));
                let want = f.crossed(a, b).0.is_empty();
                assert_eq!(f.path_open(a, b), want, "seed {seed}: {a:?} to {b:?}");
                if want {
                    open += 1;
                } else {
                    closed += 1;
                }
            }
        }
        assert!(open > 1_000 && closed > 1_000, "{open} open, {closed} not");
        Ok(())
    }

    /// Which units stand in influence (`Field::in_influence`) is what `Battle::start_turn` makes of
    /// `Field::influence`: each listed unit's distance no further than its commanding officer's radius. On
    /// the battles at the end of 10 seeded games, each unit put at 100 random places (facing north or south).
    #[test]
    fn units_in_influence_are_those_start_turn_finds() -> Result<(), Box<dyn std::error::Error>> {
        let mut r = Lcg(0x1F1F);
        let (mut inside, mut outside) = (0, 0);
        for seed in 1..=10 {
            // A whole game between the two commanders: its battle at the end (some units removed).
            let state = crate::bots::played_to_the_end(seed)?;
            let (Some(b), Some(f)) = (state.battle(), state.field()) else {
                return Err("no battle".into());
            };
            let mut f = f.clone();
            for _ in 0..100 {
                for u in b.units() {
                    let facing = if r.unit() < 0.5 {
                        Heading::NORTH
                    } else {
                        Heading::SOUTH
                    };
                    let centre = at_cm(r.unit() * board::WIDTH_CM, r.unit() * board::DEPTH_CM);
                    f.set_place(u.id, Place { centre, facing });
                }
                for side in [Side::Union, Side::Confederate] {
                    let mut want = vec![false; b.units().len()];
                    for (id, d) in f.influence(b, side) {
                        if let Some(o) = b.commanding_officer(id) {
                            want[id.0 as usize] = d <= b.officer(o)?.rank.radius_cm();
                        }
                    }
                    let got = f.in_influence(b, side)?;
                    assert_eq!(got, want, "seed {seed}, {side:?}");
                    inside += got.iter().filter(|&&x| x).count();
                    outside += got.iter().filter(|&&x| !x).count();
                }
            }
        }
        assert!(
            inside > 1_000 && outside > 1_000,
            "{inside} in, {outside} out"
        );
        Ok(())
    }
}

#[cfg(test)]
mod size_tests {
    use super::*;
    use crate::tables::GunType;

    /// `half_diagonal_at_most` is at least half the footprint's diagonal for every troop, formation, mount,
    /// limber and count of figures (0 to 60), with room far above rounding.
    #[test]
    fn the_bound_of_half_a_diagonal_holds_for_every_size() -> Result<(), Box<dyn std::error::Error>>
    {
        let state = crate::bots::played_to_the_end(1)?;
        let mut u = state.battle().ok_or("no battle")?.units()[0].clone();
        let mut tight = f64::INFINITY;
        for troop in [
            Troop::Foot,
            Troop::Cavalry,
            Troop::Sharpshooters,
            Troop::Battery(GunType::Field),
            Troop::Indians,
        ] {
            for formation in [Formation::Line, Formation::Column, Formation::Skirmish] {
                for (mounted, limbered) in
                    [(false, false), (true, false), (false, true), (true, true)]
                {
                    for figures in 0..=60 {
                        (u.troop, u.formation, u.mounted, u.limbered, u.figures) =
                            (troop, formation, mounted, limbered, figures);
                        let (w, d) = size_cm(&u);
                        let room = half_diagonal_at_most(&u) - span(w, d) / 2.0;
                        assert!(
                            room > 1e-3,
                            "{troop:?} {formation:?} {mounted} {limbered} {figures}"
                        );
                        tight = tight.min(room);
                    }
                }
            }
        }
        assert!(tight < 2.0, "the bound is {tight} cm loose at best");
        Ok(())
    }
}
