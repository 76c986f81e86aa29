//! The table: its size, terrain features as shapes, unit footprints, and the questions rules ask of them —
//! distance between units, what lies in an arc, whether a line of sight is blocked, whether a move crosses an
//! obstacle, whether a target is behind cover.
//!
//! Terrain geometry is done with the [`geo`] crate; footprints (rectangles) are measured without allocating,
//! by their frames and separating axes, with `geo`'s exact predicates deciding the close calls, so the
//! results are bit for bit those of `geo` on the same corners. Positions are [`Point`]s in inches.
//!
//! ```
//! use acw_core::measure::{Heading, Inches, Point};
//! use acw_core::table::{Footprint, Table, Terrain};
//! let wood = Terrain::woods("Copse", vec![Point::new(10.0, 10.0), Point::new(14.0, 10.0),
//!                                      Point::new(14.0, 14.0), Point::new(10.0, 14.0)])?;
//! let table = Table::new(Inches(48.0), Inches(48.0), vec![wood])?;
//! let a = Footprint::new(Point::new(12.0, 2.0), Heading::NORTH, Inches(4.0), Inches(1.0))?;
//! let b = Footprint::new(Point::new(12.0, 22.0), Heading::SOUTH, Inches(4.0), Inches(1.0))?;
//! assert!(!table.line_of_sight(a.centre, b.centre, &[]));  // the wood is in the way
//! assert!((a.distance(&b).0 - 19.0).abs() < 1e-9);       // front edge to front edge
//! # Ok::<(), acw_core::table::TableError>(())
//! ```

use crate::measure::{Heading, Inches, Point};
use geo::{Contains, Distance, Euclidean, Intersects};
use thiserror::Error;

/// A table or terrain description that cannot be.
#[derive(Clone, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum TableError {
    /// A coordinate or size that is not a finite number, or a size not above zero.
    #[error("{what} must be a finite number{}", if *.positive { " above zero" } else { "" })]
    NotFinite {
        /// What was wrong.
        what: &'static str,
        /// Whether it also had to be positive.
        positive: bool,
    },
    /// An area needs at least 3 corners, a line at least 2 points.
    #[error("terrain {name:?}: {kind} needs at least {min} points, has {has}")]
    TooFewPoints {
        /// The feature's name.
        name: String,
        /// "an area" or "a line".
        kind: &'static str,
        /// The minimum.
        min: usize,
        /// How many it has.
        has: usize,
    },
}

/// What a terrain feature does under the rules: each ruleset reads the flags it knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Effects {
    /// Troops in it, or behind it, count as in cover.
    pub cover: bool,
    /// Crossing it is an obstacle (fences, walls, streams).
    pub obstacle: bool,
    /// It blocks line of sight through it.
    pub blocks_sight: bool,
    /// Rough or broken ground.
    pub rough: bool,
    /// A road.
    pub road: bool,
}

/// The shape of a terrain feature.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Shape {
    /// A closed area (a wood, a town), its corners in order.
    Area(Vec<Point>),
    /// A line (a fence, a wall, a road), its points in order.
    Line(Vec<Point>),
}

/// A terrain feature: a name, a shape and its effects.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "TerrainRepr", into = "TerrainRepr")
)]
pub struct Terrain {
    name: String,
    shape: Shape,
    effects: Effects,
    geometry: Geometry,
}

#[derive(Clone, Debug, PartialEq)]
enum Geometry {
    Area(geo::Polygon<f64>),
    Line(geo::LineString<f64>),
}

#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct TerrainRepr {
    name: String,
    shape: Shape,
    effects: Effects,
}

impl TryFrom<TerrainRepr> for Terrain {
    type Error = TableError;
    fn try_from(r: TerrainRepr) -> Result<Terrain, TableError> {
        Terrain::new(r.name, r.shape, r.effects)
    }
}

impl From<Terrain> for TerrainRepr {
    fn from(t: Terrain) -> TerrainRepr {
        TerrainRepr {
            name: t.name,
            shape: t.shape,
            effects: t.effects,
        }
    }
}

fn coord(p: Point) -> geo::Coord<f64> {
    geo::Coord { x: p.x, y: p.y }
}

#[inline]
fn check_point(p: Point) -> Result<(), TableError> {
    if p.x.is_finite() && p.y.is_finite() {
        Ok(())
    } else {
        Err(TableError::NotFinite {
            what: "a coordinate",
            positive: false,
        })
    }
}

impl Terrain {
    /// A feature; areas need 3 corners, lines 2 points, all coordinates finite.
    pub fn new(
        name: impl Into<String>,
        shape: Shape,
        effects: Effects,
    ) -> Result<Terrain, TableError> {
        let name = name.into();
        let (points, kind, min) = match &shape {
            Shape::Area(p) => (p, "an area", 3),
            Shape::Line(p) => (p, "a line", 2),
        };
        if points.len() < min {
            return Err(TableError::TooFewPoints {
                name,
                kind,
                min,
                has: points.len(),
            });
        }
        points.iter().try_for_each(|&p| check_point(p))?;
        let ring: Vec<geo::Coord<f64>> = points.iter().map(|&p| coord(p)).collect();
        let geometry = match shape {
            Shape::Area(_) => Geometry::Area(geo::Polygon::new(geo::LineString::new(ring), vec![])),
            Shape::Line(_) => Geometry::Line(geo::LineString::new(ring)),
        };
        Ok(Terrain {
            name,
            shape,
            effects,
            geometry,
        })
    }

    /// A wood: an area that gives cover and blocks sight.
    pub fn woods(name: impl Into<String>, corners: Vec<Point>) -> Result<Terrain, TableError> {
        Terrain::new(
            name,
            Shape::Area(corners),
            Effects {
                cover: true,
                blocks_sight: true,
                ..Effects::default()
            },
        )
    }

    /// A fence or wall: a line that is an obstacle and gives cover to troops behind it.
    pub fn fence(name: impl Into<String>, points: Vec<Point>) -> Result<Terrain, TableError> {
        Terrain::new(
            name,
            Shape::Line(points),
            Effects {
                cover: true,
                obstacle: true,
                ..Effects::default()
            },
        )
    }

    /// A road.
    pub fn road(name: impl Into<String>, points: Vec<Point>) -> Result<Terrain, TableError> {
        Terrain::new(
            name,
            Shape::Line(points),
            Effects {
                road: true,
                ..Effects::default()
            },
        )
    }

    /// Rough ground: an area with no other effect.
    pub fn rough(name: impl Into<String>, corners: Vec<Point>) -> Result<Terrain, TableError> {
        Terrain::new(
            name,
            Shape::Area(corners),
            Effects {
                rough: true,
                ..Effects::default()
            },
        )
    }

    /// The feature's name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its shape.
    #[must_use]
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// What it does.
    #[must_use]
    pub fn effects(&self) -> Effects {
        self.effects
    }

    /// Whether `p` lies inside an area feature (never true of a line).
    #[must_use]
    pub fn contains(&self, p: Point) -> bool {
        match &self.geometry {
            Geometry::Area(poly) => {
                poly.contains(&coord(p)) || poly.exterior().intersects(&coord(p))
            }
            Geometry::Line(_) => false,
        }
    }

    /// Whether the straight segment from `a` to `b` touches the feature.
    #[must_use]
    pub fn touches_segment(&self, a: Point, b: Point) -> bool {
        let seg = geo::Line::new(coord(a), coord(b));
        match &self.geometry {
            Geometry::Area(poly) => seg.intersects(poly),
            Geometry::Line(line) => seg.intersects(line),
        }
    }

    /// Shortest distance from `p` to the feature (0 inside an area).
    #[must_use]
    pub fn distance_to(&self, p: Point) -> Inches {
        let pt = geo::Point::from(coord(p));
        Inches(match &self.geometry {
            Geometry::Area(poly) => Euclidean.distance(&pt, poly),
            Geometry::Line(line) => Euclidean.distance(&pt, line),
        })
    }
}

/// The ground a unit's base (or group of stands) covers: a rectangle `frontage` wide and `depth` deep, centred on
/// `centre`, its front facing `facing`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Footprint {
    /// Centre of the rectangle.
    pub centre: Point,
    /// The way its front faces.
    pub facing: Heading,
    /// Width of its front.
    pub frontage: Inches,
    /// Depth from front to rear.
    pub depth: Inches,
}

impl Footprint {
    /// A footprint; frontage and depth must be finite and above zero, the centre finite.
    #[inline]
    pub fn new(
        centre: Point,
        facing: Heading,
        frontage: Inches,
        depth: Inches,
    ) -> Result<Footprint, TableError> {
        check_point(centre)?;
        for v in [frontage.0, depth.0] {
            if !(v.is_finite() && v > 0.0) {
                return Err(TableError::NotFinite {
                    what: "a frontage or depth",
                    positive: true,
                });
            }
        }
        Ok(Footprint {
            centre,
            facing,
            frontage,
            depth,
        })
    }

    /// The unit vectors of the footprint's frame: ahead (along `facing`) and to its right, from the facing's
    /// [`frame`].
    fn axes(&self) -> ((f64, f64), (f64, f64)) {
        let (s, c) = frame(self.facing).ahead;
        ((s, c), (c, -s))
    }

    /// The four corners: front-left, front-right, rear-right, rear-left.
    ///
    /// Computed as the points half the depth ahead and behind the centre, then half the frontage to each side,
    /// with one `sin_cos` per direction (four in all, each bit for bit what [`Point::moved`] gives).
    #[must_use]
    pub fn corners(&self) -> [Point; 4] {
        self.corners_in(&frame(self.facing))
    }

    /// [`Footprint::corners`] from the frame of its facing.
    fn corners_in(&self, frame: &Frame) -> [Point; 4] {
        let half_w = self.frontage.0 / 2.0;
        let half_d = self.depth.0 / 2.0;
        let Frame {
            ahead,
            behind: back,
            right,
            left,
        } = *frame;
        let step = |p: Point, (s, c): (f64, f64), d: f64| Point::new(p.x + d * s, p.y + d * c);
        let front = step(self.centre, ahead, half_d);
        let rear = step(self.centre, back, half_d);
        [
            step(front, left, half_w),
            step(front, right, half_w),
            step(rear, right, half_w),
            step(rear, left, half_w),
        ]
    }

    /// The middle of the front edge.
    #[must_use]
    pub fn front_centre(&self) -> Point {
        self.centre.moved(self.facing, Inches(self.depth.0 / 2.0))
    }

    /// The shortest distance between the two footprints (0 when they touch or overlap).
    ///
    /// Exact rectangle geometry without allocation: the two overlap or touch unless one of the four edge
    /// directions separates them (separating axes); apart, the distance is the least from a corner of one to
    /// an edge of the other.
    pub fn distance(&self, other: &Footprint) -> Inches {
        let frame_a = frame(self.facing);
        // Footprints facing the same way (bit for bit) share the frame.
        let frame_b = if other.facing.as_degrees().to_bits() == self.facing.as_degrees().to_bits() {
            frame_a
        } else {
            frame(other.facing)
        };
        let a = self.corners_in(&frame_a);
        let b = other.corners_in(&frame_b);
        // Footprints whose circles (round the centres, through the corners) lie clearly apart are apart: the
        // separating-axis test is needed only for footprints nearer than that.
        if !self.circles_apart(other) && !quads_apart(&a, &b) {
            return Inches(0.0);
        }
        // Corner to edge, both ways: squared distances pick the candidates, and the exact formula (with its
        // `hypot`) is evaluated only on those within rounding of the least, so the least is `geo`'s, bit for bit.
        // A corner's squared distance to the other rectangle (in that rectangle's frame) is the least of its
        // four corner-to-edge squares, to within rounding: a corner whose distance is clearly more than the
        // nearest corner's cannot give the least nor come within rounding of it, and its four squares are
        // left out.
        let mut to_a = [0.0; 4];
        let mut to_b = [0.0; 4];
        let mut nearest = f64::INFINITY;
        for j in 0..4 {
            to_a[j] = self.square_to(&frame_a, b[j]);
            to_b[j] = other.square_to(&frame_b, a[j]);
            nearest = nearest.min(to_a[j]).min(to_b[j]);
        }
        let scale = self.centre.x.abs()
            + self.centre.y.abs()
            + other.centre.x.abs()
            + other.centre.y.abs()
            + self.frontage.0
            + self.depth.0
            + other.frontage.0
            + other.depth.0;
        let wanted = nearest * (1.0 + 1e-6) + 1e-9 * (1.0 + scale * scale);
        // The corner-to-edge squares of the corners kept: the corner, the rectangle whose edge, and the edge.
        let mut squares = [0.0; 32];
        let mut pairs = [(0_u8, 0_u8); 32];
        let mut count = 0;
        let mut least = f64::INFINITY;
        for j in 0..4 {
            for (kept, corner, edges, side) in [(to_a[j], b[j], &a, 0), (to_b[j], a[j], &b, 1)] {
                if kept <= wanted {
                    for i in 0..4 {
                        let sq = segment_square(corner, edges[i], edges[(i + 1) % 4]);
                        least = least.min(sq);
                        squares[count] = sq;
                        pairs[count] = ((side << 2) | j as u8, i as u8);
                        count += 1;
                    }
                }
            }
        }
        let bound = least * (1.0 + 1e-9);
        let mut best = f64::INFINITY;
        // Where the nearest points are two corners, up to four pairs measure the same offset (the corner to the
        // end of each of two edges, both ways, the sign aside): its `hypot` is taken once.
        let mut last = (u64::MAX, u64::MAX, f64::INFINITY);
        for k in 0..count {
            if squares[k] <= bound {
                let (corner, i) = (usize::from(pairs[k].0), usize::from(pairs[k].1));
                let (p, edges) = if corner < 4 {
                    (b[corner], &a)
                } else {
                    (a[corner - 4], &b)
                };
                let d = match segment_gap(p, edges[i], edges[(i + 1) % 4]) {
                    Gap::Offset(x, y) => {
                        let (kx, ky) = (x.abs().to_bits(), y.abs().to_bits());
                        if (kx, ky) != (last.0, last.1) {
                            last = (kx, ky, x.hypot(y));
                        }
                        last.2
                    }
                    Gap::Across(d) => d,
                };
                best = best.min(d);
            }
        }
        Inches(best)
    }

    /// Whether the circles round the two centres through their corners lie apart by more than rounding (then
    /// the footprints are apart too).
    fn circles_apart(&self, other: &Footprint) -> bool {
        let (dx, dy) = (
            other.centre.x - self.centre.x,
            other.centre.y - self.centre.y,
        );
        // The half-sides' sum is no less than the half-diagonal: compared in squares, no root is taken.
        let reach = (self.frontage.0 + self.depth.0 + other.frontage.0 + other.depth.0) / 2.0;
        let slack = 1e-9 * (1.0 + dx.abs() + dy.abs() + self.centre.x.abs() + self.centre.y.abs());
        let wide = reach + slack;
        dx * dx + dy * dy > wide * wide * (1.0 + 1e-12)
    }

    /// The squared distance from `p` to this rectangle, measured in its own frame (`frame`, of its facing; 0 on
    /// or inside it).
    fn square_to(&self, frame: &Frame, p: Point) -> f64 {
        let (ahead, right) = (frame.ahead, frame.right);
        let (dx, dy) = (p.x - self.centre.x, p.y - self.centre.y);
        let across = ((dx * right.0 + dy * right.1).abs() - self.frontage.0 / 2.0).max(0.0);
        let along = ((dx * ahead.0 + dy * ahead.1).abs() - self.depth.0 / 2.0).max(0.0);
        across * across + along * along
    }

    /// A cheap lower bound of [`Footprint::distance`]: the distance between the centres less both half-diagonals
    /// (and a billionth of an inch for rounding), never below 0. A test against a range can refuse on it before
    /// the exact distance is measured.
    #[must_use]
    #[inline]
    pub fn distance_at_least(&self, other: &Footprint) -> Inches {
        // Square roots rather than `hypot`: a bound, within rounding far below its billionth.
        let reach =
            |f: &Footprint| (f.frontage.0 * f.frontage.0 + f.depth.0 * f.depth.0).sqrt() / 2.0;
        let (dx, dy) = (
            other.centre.x - self.centre.x,
            other.centre.y - self.centre.y,
        );
        let d = (dx * dx + dy * dy).sqrt() - reach(self) - reach(other) - 1e-9;
        Inches(d.max(0.0))
    }

    /// Bounds on [`Footprint::distance`] to `other`, in inches, each to within rounding, worked out in a few
    /// dozen instructions (the exact distance costs about a thousand).
    ///
    /// - The first, the least the distance can be: the widest gap between the two footprints' shadows on any
    ///   of their four axes (ahead of and square to each; the shadows of two shapes on a line lie no farther
    ///   apart than the shapes), at least 0. For footprints side by side or end to end it is the distance
    ///   itself, where [`Footprint::distance_at_least`] (circles round the centres) gives nothing.
    /// - The second, the most it can be: when the two are square to each other (facings alike, opposite or at
    ///   right angles, to within 1e-12 of the sine), the gap between the rectangles along this one's axes (the
    ///   gaps of its shadows across and along, joined by a plain square root), which is the distance to within
    ///   rounding; otherwise infinite.
    ///
    /// Neither is the exact distance bit for bit: a caller comparing the distance with a threshold decides on
    /// a bound only when it clears the threshold by a margin far above rounding (a millionth of an inch, say),
    /// and asks [`Footprint::distance`] when neither bound settles the question.
    #[must_use]
    pub fn distance_bounds(&self, other: &Footprint) -> (f64, f64) {
        let (fa, fb) = (frame(self.facing).ahead, frame(other.facing).ahead);
        let (dx, dy) = (
            other.centre.x - self.centre.x,
            other.centre.y - self.centre.y,
        );
        // A footprint's half-extent along the unit vector `n`: ahead is (sin, cos) of its facing, across it
        // (cos, -sin).
        let extent = |f: &Footprint, (s, c): (f64, f64), (nx, ny): (f64, f64)| {
            f.frontage.0 / 2.0 * (c * nx - s * ny).abs() + f.depth.0 / 2.0 * (s * nx + c * ny).abs()
        };
        let gap_on = |n: (f64, f64)| {
            (dx * n.0 + dy * n.1).abs() - extent(self, fa, n) - extent(other, fb, n)
        };
        let (along_a, across_a) = (gap_on(fa), gap_on((fa.1, -fa.0)));
        let least = along_a
            .max(across_a)
            .max(gap_on(fb))
            .max(gap_on((fb.1, -fb.0)))
            .max(0.0);
        let (cross, dot) = (fa.0 * fb.1 - fa.1 * fb.0, fa.0 * fb.0 + fa.1 * fb.1);
        let most = if cross.abs() <= 1e-12 || dot.abs() <= 1e-12 {
            let (x, y) = (along_a.max(0.0), across_a.max(0.0));
            (x * x + y * y).sqrt()
        } else {
            f64::INFINITY
        };
        (least, most)
    }

    /// The shortest distance from a point to this footprint (0 on or inside it).
    #[must_use]
    pub fn distance_to(&self, p: Point) -> Inches {
        let (ahead, right) = self.axes();
        let (dx, dy) = (p.x - self.centre.x, p.y - self.centre.y);
        let across = (dx * right.0 + dy * right.1).abs() - self.frontage.0 / 2.0;
        let along = (dx * ahead.0 + dy * ahead.1).abs() - self.depth.0 / 2.0;
        let (x, y) = (across.max(0.0), along.max(0.0));
        // `hypot(x, 0)` is `x` exactly (C99 F.9.4.3): the square root only off the corners.
        Inches(if y == 0.0 {
            x
        } else if x == 0.0 {
            y
        } else {
            x.hypot(y)
        })
    }

    /// Whether the segment from `a` to `b` passes over (or touches) this footprint: the segment is clipped to
    /// the rectangle in its own frame.
    #[must_use]
    pub fn blocks(&self, a: Point, b: Point) -> bool {
        let (ahead, right) = self.axes();
        let local = |p: Point| {
            let (dx, dy) = (p.x - self.centre.x, p.y - self.centre.y);
            (dx * right.0 + dy * right.1, dx * ahead.0 + dy * ahead.1)
        };
        let (p, q) = (local(a), local(b));
        let (half_w, half_d) = (self.frontage.0 / 2.0, self.depth.0 / 2.0);
        // Clipped to the rectangle grown, then shrunk, by a margin far above rounding: only a segment within
        // that margin of the outline needs the exact test.
        if !clips((p, q), half_w + MARGIN, half_d + MARGIN) {
            return false;
        }
        if half_w > MARGIN && half_d > MARGIN && clips((p, q), half_w - MARGIN, half_d - MARGIN) {
            return true;
        }
        segment_meets_quad(&self.corners(), a, b)
    }

    /// Whether `other` lies wholly or partly in this footprint's front arc: the region ahead of its front edge,
    /// bounded by lines running `spread` degrees outward from the ends of the front edge (45° is a common
    /// reading; 0° is straight ahead only).
    #[must_use]
    pub fn in_front_arc(&self, other: &Footprint, spread: f64) -> bool {
        let tan = spread.clamp(0.0, 89.9).to_radians().tan();
        let half_w = self.frontage.0 / 2.0;
        let (ahead, right) = self.axes();
        let half_d = self.depth.0 / 2.0;
        let origin = Point::new(
            self.centre.x + half_d * ahead.0,
            self.centre.y + half_d * ahead.1,
        );
        let inside = |p: Point| {
            // local frame: y ahead of the front edge, x along it (dot products with the frame's axes)
            let (dx, dy) = (p.x - origin.x, p.y - origin.y);
            let y = dx * ahead.0 + dy * ahead.1;
            let x = dx * right.0 + dy * right.1;
            y >= -1e-9 && x.abs() <= half_w + y * tan + 1e-9
        };
        let c = other.corners();
        let mids = [0, 1, 2, 3].map(|i| {
            let (a, b) = (c[i], c[(i + 1) % 4]);
            Point::new((a.x + b.x) / 2.0, (a.y + b.y) / 2.0)
        });
        c.iter()
            .chain(mids.iter())
            .chain([other.centre].iter())
            .any(|&p| inside(p))
    }

    /// This footprint placed so that its front edge touches `target`, facing it: it moves along the line
    /// between the centres until the gap closes (to within 0.01").
    #[must_use]
    pub fn placed_in_contact(&self, target: &Footprint) -> Footprint {
        let facing = self.centre.heading_to(target.centre);
        let mut f = self.placed(self.centre, facing);
        for _ in 0..32 {
            let gap = f.distance(target).0;
            if gap <= 0.01 {
                break;
            }
            f.centre = f.centre.moved(facing, Inches(gap));
        }
        f
    }

    /// The same footprint moved to `centre` and turned to `facing`.
    #[must_use]
    #[inline]
    pub fn placed(&self, centre: Point, facing: Heading) -> Footprint {
        Footprint {
            centre,
            facing,
            ..*self
        }
    }
}

/// The unit vectors of a facing's four directions, each the `(sine, cosine)` that
/// `heading.as_degrees().to_radians().sin_cos()` gives, as [`Point::moved`] takes them. See [`frame`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    /// The facing.
    pub ahead: (f64, f64),
    /// The facing reversed.
    pub behind: (f64, f64),
    /// The facing turned 90° clockwise.
    pub right: (f64, f64),
    /// The facing turned 90° anticlockwise.
    pub left: (f64, f64),
}

impl Frame {
    /// The four `sin_cos` of `facing`'s frame, worked out afresh.
    fn of(facing: Heading) -> Frame {
        let unit = |h: Heading| h.as_degrees().to_radians().sin_cos();
        Frame {
            ahead: unit(facing),
            behind: unit(facing.reversed()),
            right: unit(facing.turned(90.0)),
            left: unit(facing.turned(-90.0)),
        }
    }
}

const NO_FRAME: Frame = Frame {
    ahead: (0.0, 0.0),
    behind: (0.0, 0.0),
    right: (0.0, 0.0),
    left: (0.0, 0.0),
};

thread_local! {
    /// The frames of the facings met last, by the bits of the facing (a game has few facings at a time, and
    /// asks for the same footprints' corners many times over).
    static FRAMES: std::cell::RefCell<[(u64, Frame); FRAME_SLOTS]> =
        const { std::cell::RefCell::new([(u64::MAX, NO_FRAME); FRAME_SLOTS]) };
}

/// How many facings' frames each thread remembers (a game meets a few dozen at a time: its units' facings
/// and the headings its moves try).
const FRAME_SLOTS: usize = 1 << FRAME_SLOT_BITS;

/// The bits of a frame's slot number.
const FRAME_SLOT_BITS: u32 = 7;

/// The frames of north and south, the facings armies deploy with, worked out once.
static NORTH_SOUTH: std::sync::OnceLock<[Frame; 2]> = std::sync::OnceLock::new();

/// The frame of `facing`: four `sin_cos`, bit for bit what they give, worked out once for north and south and
/// remembered per thread for the other facings met last (units keep their facings for many measures).
#[must_use]
#[inline]
pub fn frame(facing: Heading) -> Frame {
    const SOUTH: u64 = 180.0f64.to_bits();
    let bits = facing.as_degrees().to_bits();
    if bits == 0 || bits == SOUTH {
        let both =
            NORTH_SOUTH.get_or_init(|| [Frame::of(Heading::NORTH), Frame::of(Heading::SOUTH)]);
        return both[usize::from(bits == SOUTH)];
    }
    remembered_frame(facing)
}

/// [`frame`] beyond north and south: from the thread's slots.
#[inline(never)]
fn remembered_frame(facing: Heading) -> Frame {
    let bits = facing.as_degrees().to_bits();
    // The slot from the top bits of a multiplicative hash: every bit of the facing counts (round facings, whose
    // low bits are all zero, spread over the slots too).
    let slot = (bits.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - FRAME_SLOT_BITS)) as usize;
    let compute = || Frame::of(facing);
    FRAMES
        .try_with(|frames| {
            let mut frames = frames.borrow_mut();
            match frames.get_mut(slot) {
                Some(entry) if entry.0 == bits => entry.1,
                Some(entry) => {
                    *entry = (bits, compute());
                    entry.1
                }
                None => compute(),
            }
        })
        .unwrap_or_else(|_| compute())
}

/// A margin far above the rounding of table geometry (inches): closer calls go to the exact predicates.
const MARGIN: f64 = 1e-9;

fn geo_coord(p: Point) -> geo::Coord<f64> {
    geo::Coord { x: p.x, y: p.y }
}

/// Whether the segment `(p, q)`, in a rectangle's own frame, meets the rectangle `|x| <= half_w`,
/// `|y| <= half_d` (Liang–Barsky clipping, touching included).
fn clips((p, q): ((f64, f64), (f64, f64)), half_w: f64, half_d: f64) -> bool {
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    for (start, delta, half) in [(p.0, q.0 - p.0, half_w), (p.1, q.1 - p.1, half_d)] {
        if delta == 0.0 {
            if start.abs() > half {
                return false;
            }
            continue;
        }
        let t0 = (-half - start) / delta;
        let t1 = (half - start) / delta;
        let (t0, t1) = if t0 <= t1 { (t0, t1) } else { (t1, t0) };
        lo = lo.max(t0);
        hi = hi.min(t1);
        if lo > hi {
            return false;
        }
    }
    true
}

/// Whether `p` lies in or on the convex quadrilateral `c` (exact orientation predicates).
fn quad_holds(c: &[Point; 4], p: Point) -> bool {
    use geo::{GeoNum, Kernel, Orientation};
    let (mut cw, mut ccw) = (false, false);
    for i in 0..4 {
        match <f64 as GeoNum>::Ker::orient2d(
            geo_coord(c[i]),
            geo_coord(c[(i + 1) % 4]),
            geo_coord(p),
        ) {
            Orientation::Clockwise => cw = true,
            Orientation::CounterClockwise => ccw = true,
            Orientation::Collinear => {}
        }
    }
    !(cw && ccw)
}

/// Whether the segment from `a` to `b` meets the convex quadrilateral `c`, decided exactly as `geo` decides
/// it for a line and a polygon: it crosses or touches an edge, or lies inside.
fn segment_meets_quad(c: &[Point; 4], a: Point, b: Point) -> bool {
    let seg = geo::Line::new(geo_coord(a), geo_coord(b));
    (0..4).any(|i| seg.intersects(&geo::Line::new(geo_coord(c[i]), geo_coord(c[(i + 1) % 4]))))
        || quad_holds(c, a)
        || quad_holds(c, b)
}

/// Whether two rectangles given by their corners are apart (neither touching nor overlapping). Separating axes
/// decide it when the gap or the overlap is wider than [`MARGIN`] on the deciding axes; closer calls are
/// decided exactly, edge against edge and corner in the other, as `geo` decides polygon intersection.
fn quads_apart(a: &[Point; 4], b: &[Point; 4]) -> bool {
    // Edge directions, not normalised: a gap `g` along an axis of length `l` is `g / l` inches, compared in
    // squares so no root is taken.
    let axis = |c: &[Point; 4], i: usize| (c[i + 1].x - c[i].x, c[i + 1].y - c[i].y);
    let mut clear_overlap = true;
    for axis in [axis(a, 0), axis(a, 1), axis(b, 0), axis(b, 1)] {
        let (a_lo, a_hi) = project(a, axis);
        let (b_lo, b_hi) = project(b, axis);
        let gap = (b_lo - a_hi).max(a_lo - b_hi);
        let margin_squared = MARGIN * MARGIN * (axis.0 * axis.0 + axis.1 * axis.1);
        let beyond_margin = gap * gap > margin_squared;
        if gap > 0.0 && beyond_margin {
            return true;
        }
        if gap >= 0.0 || !beyond_margin {
            clear_overlap = false;
        }
    }
    if clear_overlap {
        return false;
    }
    let edges_meet = (0..4).any(|i| {
        let ea = geo::Line::new(geo_coord(a[i]), geo_coord(a[(i + 1) % 4]));
        (0..4).any(|j| ea.intersects(&geo::Line::new(geo_coord(b[j]), geo_coord(b[(j + 1) % 4]))))
    });
    !(edges_meet || quad_holds(b, a[0]) || quad_holds(a, b[0]))
}

/// The least and greatest projections of `corners` on `axis`.
fn project(corners: &[Point; 4], axis: (f64, f64)) -> (f64, f64) {
    corners
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            let v = p.x * axis.0 + p.y * axis.1;
            (lo.min(v), hi.max(v))
        })
}

/// The square of the distance from `p` to the segment from `start` to `end`, by the branches of
/// [`segment_gap`] (to within rounding of its square).
fn segment_square(p: Point, start: Point, end: Point) -> f64 {
    let (dx, dy) = (end.x - start.x, end.y - start.y);
    let d_squared = dx * dx + dy * dy;
    let (px, py) = (p.x - start.x, p.y - start.y);
    if d_squared == 0.0 {
        return px * px + py * py;
    }
    let r = (px * dx + py * dy) / d_squared;
    if r <= 0.0 {
        return px * px + py * py;
    }
    if r >= 1.0 {
        let (qx, qy) = (p.x - end.x, p.y - end.y);
        return qx * qx + qy * qy;
    }
    let s = ((start.y - p.y) * dx - (start.x - p.x) * dy) / d_squared;
    s * s * d_squared
}

/// The distance from `p` to the segment from `start` to `end`, by the same formula as `geo`'s, in two forms:
/// where the nearest point of the segment is an end (or the segment is a point), the offset from that end whose
/// `hypot` the distance is; otherwise the distance itself.
enum Gap {
    /// The distance is `x.hypot(y)` of this offset (the same for the offset reversed).
    Offset(f64, f64),
    /// The distance across to the segment's inside.
    Across(f64),
}

/// [`Gap`] of `p` from the segment from `start` to `end`.
fn segment_gap(p: Point, start: Point, end: Point) -> Gap {
    let (dx, dy) = (end.x - start.x, end.y - start.y);
    let d_squared = dx * dx + dy * dy;
    if d_squared == 0.0 {
        return Gap::Offset(p.x - start.x, p.y - start.y);
    }
    let r = ((p.x - start.x) * dx + (p.y - start.y) * dy) / d_squared;
    if r <= 0.0 {
        return Gap::Offset(p.x - start.x, p.y - start.y);
    }
    if r >= 1.0 {
        return Gap::Offset(p.x - end.x, p.y - end.y);
    }
    let s = ((start.y - p.y) * dx - (start.x - p.x) * dy) / d_squared;
    Gap::Across(s.abs() * dx.hypot(dy))
}

/// The table: its size and terrain. The origin is the lower-left corner; x runs along the width, y along the
/// depth.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "TableRepr", into = "TableRepr"))]
pub struct Table {
    width: Inches,
    depth: Inches,
    /// Shared between copies: a game's state is copied per order, its terrain never changes.
    terrain: std::sync::Arc<[Terrain]>,
}

#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct TableRepr {
    width: Inches,
    depth: Inches,
    terrain: Vec<Terrain>,
}

impl TryFrom<TableRepr> for Table {
    type Error = TableError;
    fn try_from(r: TableRepr) -> Result<Table, TableError> {
        Table::new(r.width, r.depth, r.terrain)
    }
}

impl From<Table> for TableRepr {
    fn from(t: Table) -> TableRepr {
        TableRepr {
            width: t.width,
            depth: t.depth,
            terrain: t.terrain.to_vec(),
        }
    }
}

impl Table {
    /// A table `width` × `depth` inches (finite, above zero) with its terrain.
    pub fn new(width: Inches, depth: Inches, terrain: Vec<Terrain>) -> Result<Table, TableError> {
        for v in [width.0, depth.0] {
            if !(v.is_finite() && v > 0.0) {
                return Err(TableError::NotFinite {
                    what: "the table's size",
                    positive: true,
                });
            }
        }
        Ok(Table {
            width,
            depth,
            terrain: terrain.into(),
        })
    }

    /// Width (along x).
    #[must_use]
    pub fn width(&self) -> Inches {
        self.width
    }

    /// Depth (along y).
    #[must_use]
    pub fn depth(&self) -> Inches {
        self.depth
    }

    /// The terrain features.
    #[must_use]
    pub fn terrain(&self) -> &[Terrain] {
        &self.terrain
    }

    /// Whether `p` is on the table (edges included, to within a billionth of an inch, so corners computed
    /// with trigonometry do not fall off an edge they lie on).
    #[must_use]
    pub fn contains(&self, p: Point) -> bool {
        const EPS: f64 = 1e-9;
        (-EPS..=self.width.0 + EPS).contains(&p.x) && (-EPS..=self.depth.0 + EPS).contains(&p.y)
    }

    /// Whether every corner of `f` is on the table.
    #[must_use]
    pub fn holds(&self, f: &Footprint) -> bool {
        f.corners().iter().all(|&c| self.contains(c))
    }

    /// Whether sight from `from` to `to` is clear: no sight-blocking area lies between them (an area the viewer
    /// or the target stands in does not block its own edge), and no footprint of `blockers` is crossed.
    #[must_use]
    pub fn line_of_sight(&self, from: Point, to: Point, blockers: &[Footprint]) -> bool {
        let terrain_clear = self
            .terrain
            .iter()
            .filter(|t| t.effects.blocks_sight)
            .all(|t| !t.touches_segment(from, to) || t.contains(from) || t.contains(to));
        terrain_clear && blockers.iter().all(|b| !b.blocks(from, to))
    }

    /// The obstacles the straight move from `from` to `to` crosses.
    pub fn obstacles_crossed(&self, from: Point, to: Point) -> impl Iterator<Item = &Terrain> {
        self.terrain
            .iter()
            .filter(move |t| t.effects.obstacle && t.touches_segment(from, to))
    }

    /// Whether `target` is in cover against fire from `from`: it stands in a cover area, or a linear cover feature
    /// lies between them within `behind` of the target.
    #[must_use]
    pub fn in_cover(&self, target: &Footprint, from: Point, behind: Inches) -> bool {
        self.terrain
            .iter()
            .filter(|t| t.effects.cover)
            .any(|t| match t.geometry {
                Geometry::Area(_) => t.contains(target.centre) || t.contains(target.front_centre()),
                Geometry::Line(_) => {
                    t.touches_segment(from, target.centre)
                        && t.distance_to(target.centre).0 <= behind.0 + 1e-9
                }
            })
    }

    /// How far `unit` can move straight along `heading`, up to `distance`, staying on the table and keeping at
    /// least `gap` from every footprint in `others` that it does not already touch (those it touches when it
    /// starts are ignored, so a unit can step out of contact).
    ///
    /// The table edge is found exactly. Other footprints are met by conservative advancement: the unit moves by
    /// its current clearance (which no move can shrink faster than one for one), until the clearance is under
    /// `step` (at least 0.01") or the distance is covered. Footprints too far away to be reached are skipped.
    #[must_use]
    pub fn slide(
        &self,
        unit: &Footprint,
        heading: Heading,
        distance: Inches,
        others: &[Footprint],
        gap: Inches,
        step: Inches,
    ) -> Inches {
        self.slide_measured(unit, heading, distance, others, gap, step, &[])
    }

    /// [`Table::slide`], for a caller that has measured already some of the distances the slide needs where
    /// the unit stands: `measured[i]`, where it is not NaN, is `unit.distance(&others[i])` as
    /// [`Footprint::distance`] gives it (bit for bit; the slide takes it as that measure). Indices past the
    /// end of `measured` are measured here.
    #[must_use]
    #[allow(clippy::too_many_arguments)]
    pub fn slide_measured(
        &self,
        unit: &Footprint,
        heading: Heading,
        distance: Inches,
        others: &[Footprint],
        gap: Inches,
        step: Inches,
        measured: &[f64],
    ) -> Inches {
        let known = measured;
        let tolerance = step.0.max(0.01);
        let limit = distance.0.max(0.0).min(self.edge_room(unit, heading).0);
        let reach = |f: &Footprint| (f.frontage.0.hypot(f.depth.0)) / 2.0;
        // The footprints it could meet, kept by index without allocating (beyond 32 of them, in a vector), with
        // a lower bound of the distance to each of the first 32 (the distance last measured, or where it stands
        // still unmeasured the bound of `Footprint::distance_at_least`), how far the unit had come when it was
        // taken, and whether it is the distance itself measured where the unit stands.
        let (mut first, mut count, mut spill) = ([0_usize; 32], 0, Vec::new());
        let (mut measured, mut measured_at) = ([0.0_f64; 32], [0.0_f64; 32]);
        let mut exact = [false; 32];
        let own_reach = reach(unit);
        for (i, o) in others.iter().enumerate() {
            // A footprint beyond the reach test even with its half-diagonal taken as its larger half-sides'
            // sum (which is no less), compared in squares with room far above rounding, fails the exact test
            // too: it is passed over without a square root.
            let (dx, dy) = (o.centre.x - unit.centre.x, o.centre.y - unit.centre.y);
            let wide = limit + own_reach + (o.frontage.0 + o.depth.0) / 2.0 + gap.0 + 1e-9;
            if wide >= 0.0 && dx * dx + dy * dy > wide * wide * (1.0 + 1e-12) {
                continue;
            }
            if unit.centre.distance(o.centre).0 > limit + own_reach + reach(o) + gap.0 + 1e-9 {
                continue;
            }
            // A footprint surely beyond the gap on the lower bound is one to meet: its distance is measured only
            // when the bound could lower the clearance (below). Any other is measured now: one within the gap
            // where the unit stands is passed over.
            let (apart, is_exact) = match known.get(i).copied().filter(|d| !d.is_nan()) {
                Some(d) => (d, true),
                None => {
                    let bound = unit.distance_at_least(o).0;
                    if bound > gap.0 && count < first.len() {
                        (bound, false)
                    } else {
                        (unit.distance(o).0, true)
                    }
                }
            };
            if apart > gap.0 {
                if let (Some(slot), Some(d), Some(e)) = (
                    first.get_mut(count),
                    measured.get_mut(count),
                    exact.get_mut(count),
                ) {
                    *slot = i;
                    *d = apart;
                    *e = is_exact;
                    count += 1;
                } else {
                    spill.push(i);
                }
            }
        }
        // A move of `m` inches brings the unit no more than `m` nearer a footprint: the distance measured `m`
        // inches back, less `m` and a margin far above rounding, is a lower bound of the distance now.
        let slack = 1e-9 * (1.0 + unit.centre.x.abs() + unit.centre.y.abs() + limit);
        let mut done = 0.0;
        // The footprint nearest at the last step is measured first: it sets the least clearance that lets the
        // others be passed over on their bounds.
        let mut lead = 0;
        for _ in 0..64 {
            let here = unit.placed(unit.centre.moved(heading, Inches(done)), unit.facing);
            // A footprint whose lower bound is no nearer than the least clearance so far cannot lower it; nor
            // can one whose clearance is at least the way left (`cap` below): were the least clearance that
            // footprint's, it would be at least the way left too, and the unit goes the whole way either way.
            let left_now = limit - done;
            let mut least = f64::INFINITY;
            let mut nearest = lead;
            let others_first = (0..count).filter(|&k| k != lead);
            for k in (lead < count)
                .then_some(lead)
                .into_iter()
                .chain(others_first)
            {
                let (Some(o), Some(d), Some(at), Some(e)) = (
                    first.get(k).and_then(|&i| others.get(i)),
                    measured.get_mut(k),
                    measured_at.get_mut(k),
                    exact.get_mut(k),
                ) else {
                    continue;
                };
                let cap = least.min(left_now);
                if done != 0.0 {
                    if *d - (done - *at) - slack - gap.0 >= cap
                        || here.distance_at_least(o).0 - gap.0 >= cap
                    {
                        continue;
                    }
                    *d = here.distance(o).0;
                    *at = done;
                } else if !*e {
                    // At the first step a distance measured where the unit stands stands; a bound no nearer than
                    // the least clearance so far cannot lower it, and any other is measured there.
                    if *d - gap.0 >= cap {
                        continue;
                    }
                    *d = unit.distance(o).0;
                    *e = true;
                }
                let clearance = *d - gap.0;
                if clearance < least {
                    least = clearance;
                    nearest = k;
                }
                // A clearance under the step and short of the way left stops the unit here, whatever the others
                // measure: the step ends as it would (no lower clearance reaches the way left either).
                if least < tolerance && least < limit - done {
                    break;
                }
            }
            lead = nearest;
            let clearance = spill
                .iter()
                .filter_map(|&i| others.get(i))
                .fold(least, |least, o| {
                    if here.distance_at_least(o).0 - gap.0 >= least.min(left_now) {
                        least
                    } else {
                        least.min(here.distance(o).0 - gap.0)
                    }
                });
            let left = limit - done;
            if clearance >= left {
                return Inches(limit);
            }
            if clearance < tolerance {
                break;
            }
            done += clearance;
        }
        Inches(done.max(0.0))
    }

    /// How far `unit` can move along `heading` before a corner would leave the table (0 if one is already off).
    pub fn edge_room(&self, unit: &Footprint, heading: Heading) -> Inches {
        let r = heading.as_degrees().to_radians();
        let (dx, dy) = (r.sin(), r.cos());
        let axis = |p: f64, d: f64, max: f64| -> f64 {
            if !(0.0..=max).contains(&p) {
                0.0
            } else if d > 1e-12 {
                (max - p) / d
            } else if d < -1e-12 {
                p / -d
            } else {
                f64::INFINITY
            }
        };
        let room = unit
            .corners()
            .iter()
            .map(|c| axis(c.x, dx, self.width.0 + 1e-9).min(axis(c.y, dy, self.depth.0 + 1e-9)))
            .fold(f64::INFINITY, f64::min);
        Inches(room.max(0.0))
    }

    /// Whether `p` is in rough ground.
    #[must_use]
    pub fn is_rough(&self, p: Point) -> bool {
        self.terrain
            .iter()
            .any(|t| t.effects.rough && t.contains(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A remembered frame is bit for bit the four `sin_cos`, for more facings than there are slots (each asked
    /// twice, the second time from its slot unless another took it) and for north and south (worked out once);
    /// a footprint's distance to a point, which skips the square root off its corners, is bit for bit the
    /// `hypot` of the two gaps.
    #[test]
    fn a_remembered_frame_is_bit_for_bit_the_sines_and_cosines() {
        let unit = |h: Heading| h.as_degrees().to_radians().sin_cos();
        let mut facings: Vec<Heading> = (0..200)
            .map(|i| Heading::degrees(f64::from(i) * 1.7 + 0.123).unwrap_or(Heading::NORTH))
            .collect();
        facings.extend([Heading::NORTH, Heading::EAST, Heading::SOUTH, Heading::WEST]);
        for round in 0..2 {
            for &h in &facings {
                let f = frame(h);
                assert_eq!(f.ahead, unit(h), "round {round}, {h:?}");
                assert_eq!(f.behind, unit(h.reversed()));
                assert_eq!(f.right, unit(h.turned(90.0)));
                assert_eq!(f.left, unit(h.turned(-90.0)));
                let fp = Footprint {
                    centre: Point::new(12.25, 40.5),
                    facing: h,
                    frontage: Inches(4.0),
                    depth: Inches(0.8),
                };
                let (s, c) = unit(h);
                for q in [
                    fp.centre,
                    Point::new(0.0, 0.0),
                    Point::new(13.0, 40.5),
                    Point::new(12.25, 44.0),
                    Point::new(30.0, 41.0),
                ] {
                    let (dx, dy) = (q.x - fp.centre.x, q.y - fp.centre.y);
                    let across = ((dx * c - dy * s).abs() - 2.0).max(0.0);
                    let along = ((dx * s + dy * c).abs() - 0.4).max(0.0);
                    assert_eq!(fp.distance_to(q).0, across.hypot(along), "{h:?} {q:?}");
                }
            }
        }
    }

    fn square(x: f64, y: f64, s: f64) -> Vec<Point> {
        vec![
            Point::new(x, y),
            Point::new(x + s, y),
            Point::new(x + s, y + s),
            Point::new(x, y + s),
        ]
    }

    #[test]
    fn refuses_bad_shapes_and_sizes() {
        assert!(matches!(
            Terrain::woods("w", vec![Point::new(0.0, 0.0), Point::new(1.0, 0.0)]),
            Err(TableError::TooFewPoints { min: 3, has: 2, .. })
        ));
        assert!(
            Terrain::fence("f", vec![Point::new(0.0, f64::NAN), Point::new(1.0, 0.0)]).is_err()
        );
        assert!(Table::new(Inches(0.0), Inches(10.0), vec![]).is_err());
        assert!(
            Footprint::new(
                Point::new(0.0, 0.0),
                Heading::NORTH,
                Inches(-1.0),
                Inches(1.0)
            )
            .is_err()
        );
    }

    #[test]
    fn footprint_corners_and_distance() -> Result<(), TableError> {
        let a = Footprint::new(
            Point::new(0.0, 0.0),
            Heading::NORTH,
            Inches(4.0),
            Inches(2.0),
        )?;
        let c = a.corners();
        assert!((c[0].x + 2.0).abs() < 1e-9 && (c[0].y - 1.0).abs() < 1e-9);
        assert!((c[2].x - 2.0).abs() < 1e-9 && (c[2].y + 1.0).abs() < 1e-9);
        // Side by side, 3" gap between the right edge of a and the left edge of b.
        let b = a.placed(Point::new(7.0, 0.0), Heading::NORTH);
        assert!((a.distance(&b).0 - 3.0).abs() < 1e-9);
        assert_eq!(a.distance(&a).0, 0.0);
        Ok(())
    }

    /// `Footprint::distance_bounds` worked by hand, then on 30,000 random pairs (a third facing north or
    /// south, a third square to each other at other facings, the rest at any facing; apart, touching and
    /// overlapping): the bounds hold the exact distance, and the upper bound of footprints square to each
    /// other is the distance to within rounding.
    #[test]
    fn distance_bounds_hold_the_exact_distance() -> Result<(), TableError> {
        // Side by side, a 3" gap: both bounds are the gap.
        let a = Footprint::new(
            Point::new(0.0, 0.0),
            Heading::NORTH,
            Inches(4.0),
            Inches(2.0),
        )?;
        let b = a.placed(Point::new(7.0, 0.0), Heading::NORTH);
        assert_eq!(a.distance_bounds(&b), (3.0, 3.0));
        // The second turned 45°: its nearest corner lies 3/√2 west of its centre, level with the first one's
        // right edge, so the distance is 7 − 2 − 3/√2, which the shadows on the first one's axis across give;
        // the two are not square to each other, so the upper bound is infinite.
        let turned = b.placed(b.centre, Heading::degrees(45.0).unwrap_or(Heading::NORTH));
        let (least, most) = a.distance_bounds(&turned);
        let hand = 5.0 - 3.0 / 2f64.sqrt();
        assert!((least - hand).abs() < 1e-12, "{least}");
        assert!((a.distance(&turned).0 - hand).abs() < 1e-12);
        assert_eq!(most, f64::INFINITY);
        // Overlapping: both bounds 0.
        let over = a.placed(Point::new(1.0, 0.5), Heading::EAST);
        assert_eq!(over.distance_bounds(&a), (0.0, 0.0));

        let mut seed = 0x0DD5_EED5_u64;
        let mut unit = || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let (mut squared, mut settled) = (0, 0);
        for i in 0..30_000 {
            let (ha, hb) = match i % 3 {
                0 => {
                    let north_south = |x: f64| if x < 0.5 { 0.0 } else { 180.0 };
                    (north_south(unit()), north_south(unit()))
                }
                1 => {
                    let h = (unit() * 360.0).floor();
                    (h, (h + 90.0 * (unit() * 4.0).floor()) % 360.0)
                }
                _ => (unit() * 360.0, unit() * 360.0),
            };
            let print = |centre: Point, facing: f64, w: f64, d: f64| Footprint {
                centre,
                facing: Heading::degrees(facing).unwrap_or(Heading::NORTH),
                frontage: Inches(w),
                depth: Inches(d),
            };
            let a = print(
                Point::new(36.0, 30.0),
                ha,
                0.8 + unit() * 15.0,
                0.4 + unit() * 4.0,
            );
            let reach = 18.0 * unit();
            let b = print(
                Point::new(
                    36.0 + reach * (unit() - 0.5) * 2.0,
                    30.0 + reach * (unit() - 0.5) * 2.0,
                ),
                hb,
                0.8 + unit() * 15.0,
                0.4 + unit() * 4.0,
            );
            let exact = a.distance(&b).0;
            let (least, most) = a.distance_bounds(&b);
            assert!(least <= exact + 1e-9, "{a:?} {b:?}: {least} > {exact}");
            assert!(exact <= most + 1e-9, "{a:?} {b:?}: {exact} > {most}");
            if most.is_finite() {
                squared += 1;
                assert!(
                    (most - exact).abs() <= 1e-9,
                    "{a:?} {b:?}: {most} far from {exact}"
                );
            }
            // Whether the two lie within a fifth of an inch of each other, settled by a bound alone.
            if least > 0.2 + 1e-6 || most < 0.2 - 1e-6 {
                settled += 1;
            }
        }
        assert!(squared > 18_000, "{squared} square to each other");
        assert!(settled > 20_000, "{settled} settled by the bounds");
        Ok(())
    }

    #[test]
    fn sight_obstacles_and_cover() -> Result<(), TableError> {
        let wood = Terrain::woods("wood", square(10.0, 10.0, 4.0))?;
        let fence = Terrain::fence("fence", vec![Point::new(0.0, 20.0), Point::new(48.0, 20.0)])?;
        let t = Table::new(Inches(48.0), Inches(48.0), vec![wood, fence])?;
        // Through the wood: blocked; beside it: clear; from inside it: clear.
        assert!(!t.line_of_sight(Point::new(12.0, 0.0), Point::new(12.0, 30.0), &[]));
        assert!(t.line_of_sight(Point::new(20.0, 0.0), Point::new(20.0, 30.0), &[]));
        assert!(t.line_of_sight(Point::new(12.0, 12.0), Point::new(12.0, 30.0), &[]));
        // A unit in the way blocks.
        let screen = Footprint::new(
            Point::new(20.0, 5.0),
            Heading::NORTH,
            Inches(4.0),
            Inches(1.0),
        )?;
        assert!(!t.line_of_sight(Point::new(20.0, 0.0), Point::new(20.0, 30.0), &[screen]));
        // Crossing the fence.
        assert_eq!(
            t.obstacles_crossed(Point::new(5.0, 18.0), Point::new(5.0, 22.0))
                .count(),
            1
        );
        assert_eq!(
            t.obstacles_crossed(Point::new(5.0, 15.0), Point::new(5.0, 19.0))
                .count(),
            0
        );
        // Behind the fence (1" behind it) against fire from the far side: cover; from the same side: none.
        let target = Footprint::new(
            Point::new(30.0, 21.0),
            Heading::SOUTH,
            Inches(4.0),
            Inches(1.0),
        )?;
        assert!(t.in_cover(&target, Point::new(30.0, 5.0), Inches(2.0)));
        assert!(!t.in_cover(&target, Point::new(30.0, 40.0), Inches(2.0)));
        // In the wood: cover from anywhere.
        let hidden = target.placed(Point::new(12.0, 12.0), Heading::SOUTH);
        assert!(t.in_cover(&hidden, Point::new(40.0, 40.0), Inches(2.0)));
        assert!(t.holds(&target) && !t.holds(&target.placed(Point::new(0.5, 5.0), Heading::NORTH)));
        Ok(())
    }

    #[test]
    fn front_arc_contact_and_slide() -> Result<(), TableError> {
        let me = Footprint::new(
            Point::new(10.0, 10.0),
            Heading::NORTH,
            Inches(4.0),
            Inches(1.0),
        )?;
        let ahead = me.placed(Point::new(10.0, 20.0), Heading::SOUTH);
        let wide = me.placed(Point::new(25.0, 20.0), Heading::SOUTH); // 15" right, 10" ahead
        let behind = me.placed(Point::new(10.0, 0.0), Heading::NORTH);
        assert!(me.in_front_arc(&ahead, 45.0));
        // With 45° lines from the front edge's ends (x = ±2 at y = 10.5) the arc reaches x = 2 + 9.5 = 11.5 at
        // the target's front edge; its nearest corner is at x = 13, so it is outside.
        assert!(!me.in_front_arc(&wide, 45.0));
        assert!(me.in_front_arc(&wide, 60.0));
        assert!(!me.in_front_arc(&behind, 45.0));
        let touching = me.placed_in_contact(&ahead);
        assert!(touching.distance(&ahead).0 <= 0.01);
        assert!((touching.centre.y - 19.0).abs() < 0.02); // front edge on the target's near edge, y = 19.5
        let t = Table::new(Inches(48.0), Inches(48.0), vec![])?;
        // Sliding north toward `ahead` stops 0.5" short: the gap is 9" now, so 8.5".
        let d = t.slide(
            &me,
            Heading::NORTH,
            Inches(20.0),
            &[ahead],
            Inches(0.5),
            Inches(0.1),
        );
        assert!((d.0 - 8.5).abs() < 0.11, "{d}");
        // Sliding south stops at the table edge: the rear edge is 9.5" from it.
        let d = t.slide(
            &me,
            Heading::SOUTH,
            Inches(20.0),
            &[],
            Inches(0.5),
            Inches(0.1),
        );
        assert!((d.0 - 9.5).abs() < 0.11, "{d}");
        Ok(())
    }

    /// A deterministic stream of numbers in 0..1 for the comparison below.
    fn stream(seed: u64) -> impl FnMut() -> f64 {
        let mut z = seed;
        move || {
            z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut x = z;
            x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            ((x ^ (x >> 31)) >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    fn polygon(f: &Footprint) -> geo::Polygon<f64> {
        geo::Polygon::new(
            geo::LineString::new(f.corners().iter().map(|&p| coord(p)).collect()),
            vec![],
        )
    }

    /// The allocation-free rectangle geometry gives, bit for bit, what `geo` gives on the same corners: distances
    /// between footprints, lines crossing them. Half the cases are built to be close calls: headings on
    /// multiples of 45°, positions on a quarter-inch grid (edges that touch, lines along edges or through
    /// corners).
    #[test]
    fn rectangle_geometry_matches_geo() -> Result<(), TableError> {
        let mut r = stream(1863);
        let mut touching = 0;
        for i in 0..20_000 {
            let grid = i % 2 == 0;
            let mut pick = |span: f64| {
                let v = r() * span;
                if grid { (v * 4.0).round() / 4.0 } else { v }
            };
            let heading =
                |v: f64| Heading::degrees(if grid { (v / 45.0).round() * 45.0 } else { v });
            let a = Footprint::new(
                Point::new(pick(12.0), pick(12.0)),
                heading(pick(360.0)).map_err(|_| TableError::NotFinite {
                    what: "h",
                    positive: false,
                })?,
                Inches(0.5 + pick(4.0)),
                Inches(0.5 + pick(2.0)),
            )?;
            let b = Footprint::new(
                Point::new(pick(12.0), pick(12.0)),
                heading(pick(360.0)).map_err(|_| TableError::NotFinite {
                    what: "h",
                    positive: false,
                })?,
                Inches(0.5 + pick(4.0)),
                Inches(0.5 + pick(2.0)),
            )?;
            let want = Euclidean.distance(&polygon(&a), &polygon(&b));
            assert_eq!(a.distance(&b).0.to_bits(), want.to_bits(), "{a:?} {b:?}");
            touching += usize::from(want == 0.0);
            let (p, q) = (
                Point::new(pick(12.0), pick(12.0)),
                Point::new(pick(12.0), pick(12.0)),
            );
            let crosses = geo::Line::new(coord(p), coord(q)).intersects(&polygon(&a));
            assert_eq!(a.blocks(p, q), crosses, "{a:?} {p:?} {q:?}");
            let pt = geo::Point::from(coord(p));
            assert!((a.distance_to(p).0 - Euclidean.distance(&pt, &polygon(&a))).abs() < 1e-12);
        }
        assert!(touching > 1000, "{touching}");
        Ok(())
    }

    /// A slide by conservative advancement measured plainly: every footprint in reach measured again at every
    /// step, whatever the bounds say.
    fn plain_slide(
        t: &Table,
        unit: &Footprint,
        heading: Heading,
        distance: f64,
        others: &[Footprint],
        gap: f64,
    ) -> f64 {
        let limit = distance.max(0.0).min(t.edge_room(unit, heading).0);
        let near: Vec<&Footprint> = others.iter().filter(|o| unit.distance(o).0 > gap).collect();
        let mut done = 0.0;
        for _ in 0..64 {
            let here = unit.placed(unit.centre.moved(heading, Inches(done)), unit.facing);
            let clearance = near
                .iter()
                .map(|o| here.distance(o).0 - gap)
                .fold(f64::INFINITY, f64::min);
            if clearance >= limit - done {
                return limit;
            }
            if clearance < 0.1 {
                break;
            }
            done += clearance;
        }
        done.max(0.0)
    }

    /// A slide that remembers each footprint's last distance (and passes over those its bounds keep out of
    /// reach) stops, bit for bit, where plain advancement does: crowds of footprints in every direction, some
    /// touching the unit where it starts.
    #[test]
    fn slide_matches_plain_advancement() -> Result<(), TableError> {
        let t = Table::new(Inches(48.0), Inches(36.0), vec![])?;
        let mut r = stream(1865);
        let mut short = 0;
        for i in 0..3_000 {
            let print = |r: &mut dyn FnMut() -> f64| -> Result<Footprint, TableError> {
                let facing = Heading::degrees(if i % 3 == 0 {
                    (r() * 8.0).floor() * 45.0
                } else {
                    r() * 360.0
                })
                .map_err(|_| TableError::NotFinite {
                    what: "h",
                    positive: false,
                })?;
                Footprint::new(
                    Point::new(8.0 + r() * 32.0, 6.0 + r() * 24.0),
                    facing,
                    Inches(0.5 + r() * 6.0),
                    Inches(0.5 + r() * 2.0),
                )
            };
            let unit = print(&mut r)?;
            let others = (0..(i % 40))
                .map(|_| print(&mut r))
                .collect::<Result<Vec<_>, _>>()?;
            let heading = Heading::degrees(r() * 360.0).map_err(|_| TableError::NotFinite {
                what: "h",
                positive: false,
            })?;
            let (distance, gap) = (r() * 24.0, if i % 2 == 0 { 0.0 } else { 0.1 });
            let got = t.slide(
                &unit,
                heading,
                Inches(distance),
                &others,
                Inches(gap),
                Inches(0.1),
            );
            let want = plain_slide(&t, &unit, heading, distance, &others, gap);
            assert_eq!(
                got.0.to_bits(),
                want.to_bits(),
                "{unit:?} {heading:?} {distance}"
            );
            short += usize::from(want < distance.min(t.edge_room(&unit, heading).0));
        }
        assert!(short > 500, "{short}");
        Ok(())
    }

    #[test]
    fn front_arc_by_dot_products() -> Result<(), TableError> {
        // A footprint facing east: its front edge runs from (11, 8) to (11, 12); the arc opens 45° from its ends.
        let me = Footprint::new(
            Point::new(10.0, 10.0),
            Heading::EAST,
            Inches(4.0),
            Inches(2.0),
        )?;
        let small = |x: f64, y: f64| me.placed(Point::new(x, y), Heading::WEST);
        let probe = |x: f64, y: f64| {
            Footprint::new(Point::new(x, y), Heading::NORTH, Inches(0.2), Inches(0.2))
        };
        // Straight ahead, and 5" ahead and 6.8" to the side (the arc's edge is at 2 + 5 = 7" from the axis).
        assert!(me.in_front_arc(&small(16.0, 10.0), 45.0));
        assert!(me.in_front_arc(&probe(16.0, 16.8)?, 45.0));
        assert!(!me.in_front_arc(&probe(16.0, 17.3)?, 45.0));
        // Behind the front edge, level with the unit: out of the arc.
        assert!(!me.in_front_arc(&probe(8.0, 10.0)?, 45.0));
        Ok(())
    }

    #[cfg(feature = "serde")]
    #[test]
    fn loading_validates() {
        let bad = r#"{"width":48.0,"depth":48.0,"terrain":[{"name":"w","shape":{"Area":[{"x":0.0,"y":0.0}]},
            "effects":{"cover":true,"obstacle":false,"blocks_sight":true,"rough":false,"road":false}}]}"#;
        let e = serde_json::from_str::<Table>(bad);
        assert!(e.is_err_and(|e| e.to_string().contains("needs at least 3 points")));
        let neg = r#"{"width":-1.0,"depth":48.0,"terrain":[]}"#;
        assert!(serde_json::from_str::<Table>(neg).is_err());
    }
}
