//! Victory points: kills by class, officers, baggage as they happen; farms, the bridge and occupied squares at
//! the end (D8-VIC-*).

use crate::map::Square;
use crate::options::Options;
use crate::tables::vp;
use acw_core::{BySide, Side};
use std::fmt;

/// What is in one grid square at the end, as the caller counts it (D8-VIC-07).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SquareHolding {
    /// Whether the side has at least half the figures of one of its units here.
    pub half_unit: BySide<bool>,
    /// Whether the side has any figure here.
    pub any_figure: BySide<bool>,
    /// Whether the side has figures inside the farm buildings or on the bridge here.
    pub in_structure: BySide<bool>,
}

/// The final position on the 30 squares (index = square number − 1).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct EndPosition {
    /// Each square's holding.
    pub squares: [SquareHolding; 30],
}

impl EndPosition {
    fn at(&self, s: Square) -> &SquareHolding {
        &self.squares[usize::from(s.number() - 1)]
    }

    /// D8-VIC-07: whether `side` occupies `s`: half one of its units there and no enemy there (any enemy figure by
    /// default; half an enemy unit under the option).
    #[must_use]
    pub fn occupies(&self, side: Side, s: Square, options: &Options) -> bool {
        let h = self.at(s);
        let enemy = side.enemy();
        let enemy_there = if options.occupation_by_half_unit {
            *h.half_unit.get(enemy)
        } else {
            *h.any_figure.get(enemy) || *h.half_unit.get(enemy)
        };
        *h.half_unit.get(side) && !enemy_there
    }

    fn enemy_in(&self, side: Side, s: Square) -> bool {
        let h = self.at(s);
        *h.any_figure.get(side.enemy()) || *h.half_unit.get(side.enemy())
    }

    /// D8-VIC-07: the squares `side` scores: each occupied square, and its zone — the squares left, right,
    /// rear-left, rear and rear-right of it (rear towards its own base line), or under the option up to 5 squares
    /// out to each side and to the rear, stopping at enemy squares — where no enemy is. Each square counts once.
    /// A zone square claimed by both sides counts for both unless the option says neither.
    #[must_use]
    pub fn scored_squares(&self, side: Side, options: &Options) -> Vec<Square> {
        let claims = |s: Side| -> [bool; 30] {
            let mut c = [false; 30];
            let rear: i32 = match s {
                Side::Union => -1,
                Side::Confederate => 1,
            };
            for sq in Square::all() {
                if !self.occupies(s, sq, options) {
                    continue;
                }
                c[usize::from(sq.number() - 1)] = true;
                let (col, row) = (i32::from(sq.column()), i32::from(sq.row()));
                let reach = if options.zones_run_outward { 5 } else { 1 };
                for (dc, dr) in [(-1, 0), (1, 0), (0, 1), (-1, 1), (1, 1)] {
                    for k in 1..=reach {
                        let Some(z) = Square::at_cell(col + dc * k, row + dr * k * rear) else {
                            break;
                        };
                        if self.enemy_in(s, z) {
                            break;
                        }
                        c[usize::from(z.number() - 1)] = true;
                    }
                }
            }
            c
        };
        let mine = claims(side);
        let theirs = claims(side.enemy());
        Square::all()
            .filter(|s| {
                let i = usize::from(s.number() - 1);
                if !mine[i] || self.enemy_in(side, *s) {
                    return false;
                }
                let occupied = self.occupies(side, *s, options);
                occupied || !(options.contested_zone_neither && theirs[i])
            })
            .collect()
    }

    /// D8-VIC-02, D8-VIC-03: whether `side` controls the farm or bridge in `s`: by occupying its square, or under
    /// the option by having figures in the buildings or on the bridge (and no enemy there).
    #[must_use]
    pub fn controls(&self, side: Side, s: Square, options: &Options) -> bool {
        if options.strict_farm_bridge_control {
            *self.at(s).in_structure.get(side) && !*self.at(s).in_structure.get(side.enemy())
        } else {
            self.occupies(side, s, options)
        }
    }
}

/// Victory points by kind, for one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Points {
    /// D8-VIC-04: enemy figures killed (1 Raw, 2 Experienced, 3 Veteran).
    pub kills: u32,
    /// D8-VIC-05: enemy officers killed (10 each).
    pub officers: u32,
    /// D8-VIC-06: the enemy's baggage captured (20).
    pub baggage: u32,
    /// D8-VIC-02: farms (20 each).
    pub farms: u32,
    /// D8-VIC-03: the bridge (10).
    pub bridge: u32,
    /// D8-VIC-07: occupied and zone squares (5 each).
    pub squares: u32,
}

impl Points {
    /// The total.
    #[must_use]
    pub fn total(&self) -> u32 {
        self.kills + self.officers + self.baggage + self.farms + self.bridge + self.squares
    }
}

/// D8-VIC-08: the end-of-game points (farms, bridge, squares) for `side` on the final position.
#[must_use]
pub fn end_points(
    side: Side,
    pos: &EndPosition,
    farms: &[Square],
    bridge: Option<Square>,
    options: &Options,
) -> (u32, u32, u32) {
    let f = farms
        .iter()
        .filter(|&&s| pos.controls(side, s, options))
        .count() as u32
        * vp::FARM;
    let b = bridge.map_or(0, |s| {
        if pos.controls(side, s, options) {
            vp::BRIDGE
        } else {
            0
        }
    });
    let sq = pos.scored_squares(side, options).len() as u32 * vp::SQUARE;
    (f, b, sq)
}

/// The result (D8-VIC-01): more points wins; equal is a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// This side has more points.
    Won(Side),
    /// Equal points.
    Draw,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Won(s) => write!(f, "the {s} side wins on victory points"),
            Verdict::Draw => f.write_str("a draw on victory points"),
        }
    }
}

/// D8-VIC-01: the verdict on two totals.
#[must_use]
pub fn verdict(points: BySide<u32>) -> Verdict {
    match points.union.cmp(&points.confederate) {
        std::cmp::Ordering::Greater => Verdict::Won(Side::Union),
        std::cmp::Ordering::Less => Verdict::Won(Side::Confederate),
        std::cmp::Ordering::Equal => Verdict::Draw,
    }
}
