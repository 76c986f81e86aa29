//! Lengths, points, headings and arcs: the measurable part of table-top geometry.
//!
//! Lengths are newtypes so a distance in inches cannot be confused with a count: [`Inches`], [`Centimetres`]
//! and grid [`Areas`]. Positions are [`Point`]s in inches; directions are [`Heading`]s in degrees clockwise
//! from the table's "north" (+y); an [`Arc`] is a cone either side of a heading.
//!
//! ```
//! use acw_core::measure::{Arc, Heading, Inches, Point};
//! let gun = Point::new(0.0, 0.0);
//! let target = Point::new(5.0, 12.0);
//! assert_eq!(gun.distance(target), Inches(13.0));
//! let front = Arc::either_side(30.0);
//! assert!(front.contains(gun, Heading::NORTH, target));
//! assert!(!front.contains(gun, Heading::EAST, target));
//! ```

use std::fmt;
use std::ops::{Add, Mul, Sub};
use thiserror::Error;

/// A measurement that is not a finite, non-negative number.
#[derive(Clone, Copy, Debug, PartialEq, Error)]
#[error("a length must be finite and not negative, not {0}")]
pub struct BadLength(pub f64);

macro_rules! length {
    ($name:ident, $unit:literal, $doc:literal) => {
        #[doc = $doc]
        #[derive(Clone, Copy, Debug, PartialEq, PartialOrd, Default)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[cfg_attr(feature = "serde", serde(transparent))]
        pub struct $name(pub f64);

        impl $name {
            /// A checked length: finite and not negative.
            pub fn new(v: f64) -> Result<Self, BadLength> {
                if v.is_finite() && v >= 0.0 {
                    Ok($name(v))
                } else {
                    Err(BadLength(v))
                }
            }
        }

        impl Add for $name {
            type Output = $name;
            fn add(self, o: $name) -> $name {
                $name(self.0 + o.0)
            }
        }

        impl Sub for $name {
            type Output = $name;
            fn sub(self, o: $name) -> $name {
                $name(self.0 - o.0)
            }
        }

        impl Mul<f64> for $name {
            type Output = $name;
            fn mul(self, k: f64) -> $name {
                $name(self.0 * k)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}{}", self.0, $unit)
            }
        }
    };
}

length!(
    Inches,
    "\"",
    "A length in inches, the unit of most miniatures rules."
);
length!(Centimetres, " cm", "A length in centimetres.");

/// Centimetres in an inch.
pub const CM_PER_INCH: f64 = 2.54;

impl From<Centimetres> for Inches {
    fn from(c: Centimetres) -> Inches {
        Inches(c.0 / CM_PER_INCH)
    }
}

impl From<Inches> for Centimetres {
    fn from(i: Inches) -> Centimetres {
        Centimetres(i.0 * CM_PER_INCH)
    }
}

/// A count of grid areas (squares or hexes) on a gridded board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct Areas(pub u32);

impl fmt::Display for Areas {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} area{}", self.0, if self.0 == 1 { "" } else { "s" })
    }
}

/// A position on the table, in inches from its lower-left corner (+x right, +y "north", away from the side at
/// y = 0).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Point {
    /// Inches right of the origin.
    pub x: f64,
    /// Inches "north" of the origin.
    pub y: f64,
}

impl Point {
    /// The point (x, y) in inches.
    #[must_use]
    pub const fn new(x: f64, y: f64) -> Point {
        Point { x, y }
    }

    /// Straight-line distance.
    #[must_use]
    pub fn distance(self, other: Point) -> Inches {
        Inches((other.x - self.x).hypot(other.y - self.y))
    }

    /// The heading from this point towards `other` (north if they coincide).
    #[must_use]
    pub fn heading_to(self, other: Point) -> Heading {
        let (dx, dy) = (other.x - self.x, other.y - self.y);
        if dx == 0.0 && dy == 0.0 {
            return Heading::NORTH;
        }
        Heading::wrap(dx.atan2(dy).to_degrees())
    }

    /// The point `distance` away along `heading`.
    #[must_use]
    pub fn moved(self, heading: Heading, distance: Inches) -> Point {
        let r = heading.0.to_radians();
        Point::new(self.x + distance.0 * r.sin(), self.y + distance.0 * r.cos())
    }
}

/// A direction in degrees clockwise from north (+y), kept in `0.0..360.0`.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "f64", into = "f64"))]
pub struct Heading(f64);

/// A heading that is not a finite number of degrees.
#[derive(Clone, Copy, Debug, PartialEq, Error)]
#[error("a heading must be a finite number of degrees, not {0}")]
pub struct BadHeading(pub f64);

impl Heading {
    /// Towards +y.
    pub const NORTH: Heading = Heading(0.0);
    /// Towards +x.
    pub const EAST: Heading = Heading(90.0);
    /// Towards -y.
    pub const SOUTH: Heading = Heading(180.0);
    /// Towards -x.
    pub const WEST: Heading = Heading(270.0);

    /// A heading of `deg` degrees, wrapped into `0.0..360.0`; a value that is not finite is refused.
    pub fn degrees(deg: f64) -> Result<Heading, BadHeading> {
        if deg.is_finite() {
            Ok(Heading::wrap(deg))
        } else {
            Err(BadHeading(deg))
        }
    }

    /// Wraps a computed angle into `0.0..360.0` (north for one that is not finite, which finite geometry does
    /// not produce).
    fn wrap(deg: f64) -> Heading {
        if !deg.is_finite() {
            return Heading::NORTH;
        }
        let d = deg.rem_euclid(360.0);
        Heading(if d >= 360.0 { 0.0 } else { d })
    }

    /// The heading in degrees, `0.0..360.0`.
    #[must_use]
    pub fn as_degrees(self) -> f64 {
        self.0
    }

    /// The heading turned by `deg` degrees (clockwise positive); a turn that is not finite leaves it as it was.
    #[must_use]
    pub fn turned(self, deg: f64) -> Heading {
        if deg.is_finite() {
            Heading::wrap(self.0 + deg)
        } else {
            self
        }
    }

    /// The opposite heading.
    #[must_use]
    pub fn reversed(self) -> Heading {
        self.turned(180.0)
    }

    /// The smallest angle between the two headings, 0–180 degrees.
    #[must_use]
    pub fn angle_to(self, other: Heading) -> f64 {
        let d = (other.0 - self.0).rem_euclid(360.0);
        if d > 180.0 { 360.0 - d } else { d }
    }
}

impl TryFrom<f64> for Heading {
    type Error = BadHeading;
    fn try_from(d: f64) -> Result<Heading, BadHeading> {
        Heading::degrees(d)
    }
}

impl From<Heading> for f64 {
    fn from(h: Heading) -> f64 {
        h.0
    }
}

/// An arc: every direction within `half_width` degrees either side of a facing (a 45° front arc is
/// `Arc::either_side(22.5)`).
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Arc {
    half_width: f64,
}

impl Arc {
    /// `deg` degrees either side, clamped to 0–180.
    #[must_use]
    pub fn either_side(deg: f64) -> Arc {
        Arc {
            half_width: if deg.is_nan() {
                0.0
            } else {
                deg.clamp(0.0, 180.0)
            },
        }
    }

    /// Degrees either side of the facing.
    #[must_use]
    pub fn half_width(self) -> f64 {
        self.half_width
    }

    /// Whether `to` lies in this arc seen from `from` facing `facing` (a point on `from` itself counts).
    #[must_use]
    pub fn contains(self, from: Point, facing: Heading, to: Point) -> bool {
        if from == to {
            return true;
        }
        facing.angle_to(from.heading_to(to)) <= self.half_width + 1e-9
    }
}

/// Which of a run of distance bands `d` falls in: the index of the first band whose upper limit (inclusive) is
/// at least `d`, or `None` beyond the last. Used for range tables ("up to 6", "6 to 12", …).
#[must_use]
pub fn band(d: Inches, upper_limits: &[Inches]) -> Option<usize> {
    upper_limits.iter().position(|&u| d.0 <= u.0 + 1e-9)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;

    #[test]
    fn conversions_and_checks() {
        assert_abs_diff_eq!(Centimetres::from(Inches(1.0)).0, 2.54);
        assert_abs_diff_eq!(Inches::from(Centimetres(25.4)).0, 10.0, epsilon = 1e-12);
        assert!(Inches::new(-1.0).is_err());
        assert!(Inches::new(f64::NAN).is_err());
        assert_eq!(Areas(1).to_string(), "1 area");
    }

    #[test]
    fn headings_and_arcs() {
        let o = Point::new(0.0, 0.0);
        assert_abs_diff_eq!(
            o.heading_to(Point::new(1.0, 0.0)).as_degrees(),
            90.0,
            epsilon = 1e-9
        );
        assert_abs_diff_eq!(Heading::degrees(-90.0).unwrap().as_degrees(), 270.0);
        assert!(matches!(Heading::degrees(f64::NAN), Err(BadHeading(x)) if x.is_nan()));
        assert!(Heading::degrees(f64::INFINITY).is_err());
        assert_abs_diff_eq!(
            Heading::degrees(350.0)
                .unwrap()
                .angle_to(Heading::degrees(10.0).unwrap()),
            20.0,
            epsilon = 1e-9
        );
        let a = Arc::either_side(45.0);
        assert!(a.contains(o, Heading::NORTH, Point::new(1.0, 1.0))); // exactly 45°
        assert!(!a.contains(o, Heading::NORTH, Point::new(1.01, 1.0)));
        let p = o.moved(Heading::EAST, Inches(3.0));
        assert_abs_diff_eq!(p.x, 3.0, epsilon = 1e-12);
        assert_eq!(
            band(Inches(12.0), &[Inches(6.0), Inches(12.0), Inches(18.0)]),
            Some(1)
        );
        assert_eq!(
            band(Inches(18.5), &[Inches(6.0), Inches(12.0), Inches(18.0)]),
            None
        );
    }
}
