//! The board: a grid of areas (squares or hexes), their terrain, and the grid geometry of the rules —
//! adjacency, distance, facing, front arc, front/flank/rear, line of sight, "away from the enemy" — plus the
//! measurements for play on a table without a grid.
//!
//! Coordinates: on squares an [`Area`] is (column, row) with +y "north"; on hexes it is the axial (q, r) of a
//! flat-topped hex, with +r north, handled through the `hexx` crate. Sides are numbered clockwise from north:
//! squares 0 N, 1 E, 2 S, 3 W; hexes 0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW.

use crate::error::GridError;
use crate::options::{FrontArc, HexFlanks, LosTie, Options, SquareDistance};
use crate::tables::{self, Aspect, Ground};
use acw_core::measure::{Arc, Heading, Inches, Point};
use hexx::{Hex, HexLayout};
use std::collections::BTreeSet;
use std::fmt;

/// The shape of the areas (GRID-SET-01).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum GridKind {
    /// Squares: 4 sides, 4 neighbours.
    Square,
    /// Flat-topped hexes: 6 sides, 6 neighbours.
    Hex,
}

impl GridKind {
    /// Number of sides of an area.
    #[must_use]
    pub const fn sides(self) -> u8 {
        match self {
            GridKind::Square => 4,
            GridKind::Hex => 6,
        }
    }

    const fn name(self) -> &'static str {
        match self {
            GridKind::Square => "square",
            GridKind::Hex => "hex",
        }
    }
}

/// The playing surface (GRID-SET-01): a grid of areas, or an ordinary table where a fixed length stands for
/// one area (GRID-OPT-01).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Surface {
    /// A grid of squares or hexes; one area is the unit of distance.
    Grid(GridKind),
    /// A table without a grid.
    FreeTable(FreeTable),
}

/// One area of the grid: (column, row) on squares, axial (q, r) on hexes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Area {
    /// Column (squares) or q (hexes).
    pub x: i32,
    /// Row (squares) or r (hexes); +1 is north.
    pub y: i32,
}

impl Area {
    /// The area (x, y).
    #[must_use]
    pub const fn new(x: i32, y: i32) -> Area {
        Area { x, y }
    }

    fn hex(self) -> Hex {
        Hex::new(self.x, self.y)
    }

    fn offset(self, d: (i32, i32)) -> Area {
        Area::new(self.x.saturating_add(d.0), self.y.saturating_add(d.1))
    }
}

impl fmt::Display for Area {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// The side of its area a unit faces (GRID-GEO-03): 0 to 3 on squares, 0 to 5 on hexes, clockwise from north.
/// A unit never faces a corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct Facing(u8);

impl Facing {
    /// Facing north (side 0) on either grid.
    pub const NORTH: Facing = Facing(0);

    /// GRID-GEO-03: side `side` of an area of `kind`; a side the grid does not have is an error.
    pub const fn new(kind: GridKind, side: u8) -> Result<Facing, GridError> {
        if side < kind.sides() {
            Ok(Facing(side))
        } else {
            Err(GridError::BadFacing {
                grid: kind.name(),
                side,
            })
        }
    }

    /// The side index.
    #[must_use]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// Turned `steps` sides clockwise (negative: anticlockwise) on a grid of `kind`.
    #[must_use]
    pub fn turned(self, kind: GridKind, steps: i32) -> Facing {
        let n = i32::from(kind.sides());
        Facing((i32::from(self.0) + steps).rem_euclid(n) as u8)
    }

    /// The opposite side.
    #[must_use]
    pub fn reversed(self, kind: GridKind) -> Facing {
        self.turned(kind, i32::from(kind.sides()) / 2)
    }
}

/// Which flank a refused stand faces (GRID-MOV-12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum FlankSide {
    /// The left (anticlockwise) flank.
    Left,
    /// The right (clockwise) flank.
    Right,
}

/// Terrain of one area (GRID-SET-09).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct Terrain {
    /// Open, broken or difficult.
    pub ground: Ground,
    /// Troops here are in cover.
    pub cover: bool,
    /// 0 flat, 1 a 1-contour hill, higher possible.
    pub elevation: u8,
    /// Woods, towns and the like: block line of sight one level above the ground (Inferred).
    pub blocks_los: bool,
    /// Abatis: the area counts as difficult ground for every piece.
    pub abatis: bool,
    /// A scenario fortification: gives cover and stays when units leave (GRID-MOV-28).
    pub fortification: bool,
    /// A scenario's advantageous position (steep hill, defended obstacle …) (GRID-MEL-11).
    pub advantageous: bool,
    /// The scenario lifts the normal entry prohibitions here (GRID-MOV-05: "normally").
    pub open_to_all: bool,
}

impl Terrain {
    /// Open flat ground with nothing on it.
    pub const OPEN: Terrain = Terrain {
        ground: Ground::Open,
        cover: false,
        elevation: 0,
        blocks_los: false,
        abatis: false,
        fortification: false,
        advantageous: false,
        open_to_all: false,
    };

    /// GRID-SET-09: the ground class that counts for movement (abatis makes any area difficult).
    #[must_use]
    pub const fn effective_ground(&self) -> Ground {
        if self.abatis {
            Ground::Difficult
        } else {
            self.ground
        }
    }

    /// GRID-MEL-11, GRID-MOV-28: the area itself gives cover (terrain cover or a fortification).
    #[must_use]
    pub const fn gives_cover(&self) -> bool {
        self.cover || self.fortification
    }

    /// GRID-GEO-07 step 2: the height of the area for line of sight.
    #[must_use]
    pub const fn los_height(&self) -> u32 {
        self.elevation as u32 + self.blocks_los as u32
    }
}

/// One step of a line between two area centres (GRID-GEO-07): an area whose interior the line crosses, or two
/// candidates where the line runs exactly along a square corner or a hex spine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LosStep {
    /// The line crosses this area's interior.
    Crosses(Area),
    /// The line runs between these two areas.
    Between(Area, Area),
}

const SQUARE_DIRS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const HEX_DIRS: [(i32, i32); 6] = [(0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)];

/// Largest width or height of a rectangular board, in areas.
pub const MAX_BOARD_SIDE: u32 = 512;

/// Largest column or row number of any area, either way from (0, 0): every board, however it is built or
/// loaded, keeps its areas within this square, so no distance or line of sight on it is long.
pub const MAX_AREA_COORDINATE: i32 = MAX_BOARD_SIDE as i32;

/// The board: which areas exist, their terrain, obstacles on sides and road connections.
///
/// Held as a dense array over the smallest rectangle of columns and rows that holds every area (column-major,
/// so walking it goes through the areas in their order), each cell with its terrain and, per side, whether a
/// road or an obstacle crosses it (set on both areas of the side). The rectangle is fixed by the set of areas,
/// so two boards are equal exactly when their areas, terrain, obstacles and roads are.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "BoardRepr", into = "BoardRepr"))]
pub struct Board {
    kind: GridKind,
    /// The lowest column and row of any area.
    origin: Area,
    /// Rows in the rectangle (the column stride).
    rows: i32,
    /// Columns in the rectangle.
    columns: i32,
    cells: Vec<Cell>,
    /// The neighbour table: for the cell at index `i`, entries `i * d .. i * d + d` (`d` the number of sides:
    /// 4 on squares, 6 on hexes) give, side by side in the order of [`Board::neighbours`], the index of the
    /// area across that side, or [`Board::NO_NEIGHBOUR`] where it is off the board. Fixed by the set of areas
    /// (worked out once when the board is built; the areas never change after), so the move search steps
    /// from area to area without working out indices from coordinates.
    links: Vec<u32>,
}

/// One cell of the board's rectangle.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Cell {
    /// The cell is an area of the board.
    on: bool,
    terrain: Terrain,
    /// Bit `i`: a road crosses side `i`.
    roads: u8,
    /// Bit `i`: an obstacle lies on side `i`.
    obstacles: u8,
}

impl Cell {
    const OFF: Cell = Cell {
        on: false,
        terrain: Terrain::OPEN,
        roads: 0,
        obstacles: 0,
    };
}

#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug)]
struct BoardRepr {
    kind: GridKind,
    areas: Vec<(Area, Terrain)>,
    obstacles: Vec<(Area, Area)>,
    roads: Vec<(Area, Area)>,
}

impl TryFrom<BoardRepr> for Board {
    type Error = GridError;
    fn try_from(r: BoardRepr) -> Result<Board, GridError> {
        let mut b = Board::from_areas(r.kind, r.areas.iter().map(|(a, _)| *a))?;
        for (a, t) in r.areas {
            b.set_terrain(a, t)?;
        }
        for (a, c) in r.obstacles {
            b.add_obstacle(a, c)?;
        }
        for (a, c) in r.roads {
            b.add_road(a, c)?;
        }
        Ok(b)
    }
}

impl From<Board> for BoardRepr {
    fn from(b: Board) -> BoardRepr {
        BoardRepr {
            kind: b.kind,
            areas: b
                .areas()
                .filter_map(|a| b.terrain(a).ok().map(|t| (a, *t)))
                .collect(),
            obstacles: b.edges(|c| c.obstacles),
            roads: b.edges(|c| c.roads),
        }
    }
}

fn cross(a: (i64, i64), b: (i64, i64)) -> i64 {
    a.0 * b.1 - a.1 * b.0
}

impl Board {
    /// GRID-SET-01: a board of open areas. Squares: columns `0..width`, rows `0..height`. Hexes: `width`
    /// columns of flat-topped hexes, each `height` hexes tall, in a rectangle.
    pub fn rectangle(kind: GridKind, width: u32, height: u32) -> Result<Board, GridError> {
        for v in [width, height] {
            if v == 0 || v > MAX_BOARD_SIDE {
                return Err(GridError::BadBoardSize {
                    given: v,
                    max: MAX_BOARD_SIDE,
                });
            }
        }
        Ok(Board::rectangle_within_limits(kind, width, height))
    }

    /// The rectangle of [`Board::rectangle`] for sizes the caller has already checked (1 to
    /// [`MAX_BOARD_SIDE`]).
    pub(crate) fn rectangle_within_limits(kind: GridKind, width: u32, height: u32) -> Board {
        let (w, h) = (
            width.clamp(1, MAX_BOARD_SIDE) as i32,
            height.clamp(1, MAX_BOARD_SIDE) as i32,
        );
        let areas = (0..w).flat_map(move |x| {
            (0..h).map(move |row| match kind {
                GridKind::Square => Area::new(x, row),
                GridKind::Hex => Area::new(x, row - x.div_euclid(2)),
            })
        });
        Board::dense(kind, areas)
    }

    /// The board of the given areas (already checked to lie within [`MAX_AREA_COORDINATE`]; at least one),
    /// all open, with no obstacle or road.
    fn dense(kind: GridKind, areas: impl Iterator<Item = Area> + Clone) -> Board {
        let (mut lo, mut hi) = ((i32::MAX, i32::MAX), (i32::MIN, i32::MIN));
        for a in areas.clone() {
            lo = (lo.0.min(a.x), lo.1.min(a.y));
            hi = (hi.0.max(a.x), hi.1.max(a.y));
        }
        if lo.0 > hi.0 {
            (lo, hi) = ((0, 0), (0, 0));
        }
        let (columns, rows) = (hi.0 - lo.0 + 1, hi.1 - lo.1 + 1);
        let mut b = Board {
            kind,
            origin: Area::new(lo.0, lo.1),
            rows,
            columns,
            cells: vec![Cell::OFF; (columns as usize) * (rows as usize)],
            links: Vec::new(),
        };
        for a in areas {
            if let Some(c) = b.slot(a).and_then(|i| b.cells.get_mut(i)) {
                c.on = true;
            }
        }
        let dirs = b.dirs();
        let mut links = vec![Board::NO_NEIGHBOUR; b.cells.len() * dirs.len()];
        for (i, row) in links.chunks_exact_mut(dirs.len()).enumerate() {
            if !b.cells.get(i).is_some_and(|c| c.on) {
                continue;
            }
            let a = b.area_at(i);
            for (link, &d) in row.iter_mut().zip(dirs) {
                if let Some(j) = b.index_of(a.offset(d)).and_then(|j| u32::try_from(j).ok()) {
                    *link = j;
                }
            }
        }
        b.links = links;
        b
    }

    /// The entry of [`Board`]'s neighbour table for a side with no area across it.
    const NO_NEIGHBOUR: u32 = u32::MAX;

    /// The index in `cells` of the rectangle's cell at `a`, if `a` lies in the rectangle.
    #[inline]
    fn slot(&self, a: Area) -> Option<usize> {
        let dx = i64::from(a.x) - i64::from(self.origin.x);
        let dy = i64::from(a.y) - i64::from(self.origin.y);
        if dx < 0 || dy < 0 || dx >= i64::from(self.columns) || dy >= i64::from(self.rows) {
            return None;
        }
        usize::try_from(dx * i64::from(self.rows) + dy).ok()
    }

    /// The index of area `a` among the cells of the board's rectangle (below [`Board::cell_count`]), if `a` is
    /// on the board: for tables with an entry per area.
    #[inline]
    pub(crate) fn index_of(&self, a: Area) -> Option<usize> {
        self.slot(a)
            .filter(|&i| self.cells.get(i).is_some_and(|c| c.on))
    }

    /// The number of cells in the board's rectangle (every [`Board::index_of`] is below it).
    #[inline]
    pub(crate) fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// The neighbours of the area `a` at index `i` (its [`Board::index_of`]), as [`Board::neighbours`] lists
    /// them, each with its index and whether a road and an obstacle cross the side of `a` it lies across (as
    /// [`Board::side_between`] says): read from the board's neighbour table.
    #[inline]
    pub(crate) fn neighbours_across_at(
        &self,
        a: Area,
        i: usize,
    ) -> impl Iterator<Item = (Area, usize, bool, bool)> + '_ {
        let dirs = self.dirs();
        let bits = self.cells.get(i).map_or((0, 0), |c| (c.roads, c.obstacles));
        let row = self
            .links
            .get(i * dirs.len()..(i + 1) * dirs.len())
            .unwrap_or(&[]);
        row.iter()
            .zip(dirs)
            .enumerate()
            .filter(|(_, (j, _))| **j != Board::NO_NEIGHBOUR)
            .map(move |(k, (&j, &d))| {
                (
                    a.offset(d),
                    j as usize,
                    bits.0 & (1 << k) != 0,
                    bits.1 & (1 << k) != 0,
                )
            })
    }

    /// The sides of the area at index `i` that have an area across them, as pairs of the side's number (in the
    /// order of [`Board::neighbours`]) and the index of the area across: read from the neighbour table alone,
    /// for a caller that looks at the index before it needs the area ([`Board::across_side`]).
    #[inline]
    pub(crate) fn neighbour_links_at(&self, i: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        let d = self.dirs().len();
        self.links
            .get(i * d..(i + 1) * d)
            .unwrap_or(&[])
            .iter()
            .enumerate()
            .filter(|(_, j)| **j != Board::NO_NEIGHBOUR)
            .map(|(k, &j)| (k, j as usize))
    }

    /// The area across side `k` of the area `a` at index `i`, and whether a road and an obstacle cross that
    /// side: the rest of an entry of [`Board::neighbours_across_at`] for a side from [`Board::neighbour_links_at`].
    #[inline]
    pub(crate) fn across_side(&self, a: Area, i: usize, k: usize) -> (Area, bool, bool) {
        let d = self.dirs().get(k).copied().unwrap_or((0, 0));
        let bits = self.cells.get(i).map_or((0, 0), |c| (c.roads, c.obstacles));
        let bit = 1u8.checked_shl(k as u32).unwrap_or(0);
        (a.offset(d), bits.0 & bit != 0, bits.1 & bit != 0)
    }

    /// The terrain of the area at index `i` (its [`Board::index_of`]), if that is an area of the board.
    #[inline]
    pub(crate) fn terrain_at(&self, i: usize) -> Option<&Terrain> {
        self.cells.get(i).filter(|c| c.on).map(|c| &c.terrain)
    }

    /// The cell of area `a`, if it is on the board.
    #[inline]
    fn cell(&self, a: Area) -> Option<&Cell> {
        self.slot(a)
            .and_then(|i| self.cells.get(i))
            .filter(|c| c.on)
    }

    fn cell_mut(&mut self, a: Area) -> Option<&mut Cell> {
        self.slot(a)
            .and_then(|i| self.cells.get_mut(i))
            .filter(|c| c.on)
    }

    /// The area of the rectangle's cell `i`.
    fn area_at(&self, i: usize) -> Area {
        let rows = self.rows.max(1) as usize;
        Area::new(
            self.origin.x + (i / rows) as i32,
            self.origin.y + (i % rows) as i32,
        )
    }

    /// The sides marked in `bits` of the cells, as pairs of areas (lower first), in order.
    fn edges(&self, bits: impl Fn(&Cell) -> u8) -> Vec<(Area, Area)> {
        let mut out: Vec<(Area, Area)> = Vec::new();
        for a in self.areas() {
            let Some(c) = self.cell(a) else { continue };
            let marked = bits(c);
            for (i, &d) in self.dirs().iter().enumerate() {
                let n = a.offset(d);
                if marked & (1 << i) != 0 && a < n {
                    out.push((a, n));
                }
            }
        }
        out.sort_unstable();
        out
    }

    /// Marks the side between adjacent areas `a` and `b` on both, in the bits `bits` picks.
    fn mark(&mut self, a: Area, b: Area, bits: fn(&mut Cell) -> &mut u8) {
        for (x, y) in [(a, b), (b, a)] {
            if let Some(side) = self.side_towards(x, y)
                && let Some(c) = self.cell_mut(x)
            {
                *bits(c) |= 1 << side.0;
            }
        }
    }

    /// Whether the side between `a` and `b` is marked in the bits `bits` picks (false unless adjacent).
    #[inline]
    fn marked(&self, a: Area, b: Area, bits: fn(&Cell) -> u8) -> bool {
        match (self.side_towards(a, b), self.cell(a)) {
            (Some(side), Some(c)) => bits(c) & (1 << side.0) != 0,
            _ => false,
        }
    }

    /// Every area's terrain, to change in place (setup on a board the crate built itself).
    pub(crate) fn terrain_mut(&mut self) -> impl Iterator<Item = (Area, &mut Terrain)> + '_ {
        let rows = self.rows.max(1) as usize;
        let origin = self.origin;
        self.cells
            .iter_mut()
            .enumerate()
            .filter(|(_, c)| c.on)
            .map(move |(i, c)| {
                (
                    Area::new(origin.x + (i / rows) as i32, origin.y + (i % rows) as i32),
                    &mut c.terrain,
                )
            })
    }

    /// Connects each consecutive pair of `path` that are both on the board and adjacent by road, and says
    /// how many pairs were not.
    pub(crate) fn add_road_path_where_possible(&mut self, path: &[Area]) -> usize {
        path.windows(2)
            .filter(|w| match w {
                [a, b] => self.add_road(*a, *b).is_err(),
                _ => false,
            })
            .count()
    }

    /// A hexagon-shaped hex board of `radius` rings around (0, 0), built with `hexx`.
    pub fn hexagon(radius: u32) -> Result<Board, GridError> {
        if radius > MAX_BOARD_SIDE / 2 {
            return Err(GridError::BadBoardSize {
                given: radius,
                max: MAX_BOARD_SIDE / 2,
            });
        }
        Board::from_areas(
            GridKind::Hex,
            Hex::ZERO.range(radius).map(|h| Area::new(h.x, h.y)),
        )
    }

    /// A board of exactly the given areas, all open. Refused if there are none, or if an area's column or row
    /// lies beyond [`MAX_AREA_COORDINATE`] either way.
    pub fn from_areas(
        kind: GridKind,
        areas: impl IntoIterator<Item = Area>,
    ) -> Result<Board, GridError> {
        let mut checked = BTreeSet::new();
        for a in areas {
            if a.x.unsigned_abs() > MAX_AREA_COORDINATE.unsigned_abs()
                || a.y.unsigned_abs() > MAX_AREA_COORDINATE.unsigned_abs()
            {
                return Err(GridError::AreaTooFar {
                    area: a,
                    limit: MAX_AREA_COORDINATE,
                });
            }
            checked.insert(a);
        }
        if checked.is_empty() {
            return Err(GridError::BadBoardSize {
                given: 0,
                max: MAX_BOARD_SIDE,
            });
        }
        Ok(Board::dense(kind, checked.iter().copied()))
    }

    /// Squares or hexes.
    #[must_use]
    pub fn kind(&self) -> GridKind {
        self.kind
    }

    /// Whether the area is on the board (off the board is the table edge).
    #[must_use]
    #[inline]
    pub fn contains(&self, a: Area) -> bool {
        self.cell(a).is_some()
    }

    /// Every area, in order.
    pub fn areas(&self) -> impl Iterator<Item = Area> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter(|(_, c)| c.on)
            .map(|(i, _)| self.area_at(i))
    }

    /// The terrain of an area.
    #[inline]
    pub fn terrain(&self, a: Area) -> Result<&Terrain, GridError> {
        self.cell(a)
            .map(|c| &c.terrain)
            .ok_or(GridError::OffBoard(a))
    }

    /// Sets the terrain of an area.
    pub fn set_terrain(&mut self, a: Area, t: Terrain) -> Result<(), GridError> {
        let c = self.cell_mut(a).ok_or(GridError::OffBoard(a))?;
        c.terrain = t;
        Ok(())
    }

    /// Puts an obstacle (stream, wall, fence …) on the side between two adjacent areas (GRID-SET-09).
    pub fn add_obstacle(&mut self, a: Area, b: Area) -> Result<(), GridError> {
        self.check_pair(a, b)?;
        self.mark(a, b, |c| &mut c.obstacles);
        Ok(())
    }

    /// Connects two adjacent areas by road (GRID-SET-09).
    pub fn add_road(&mut self, a: Area, b: Area) -> Result<(), GridError> {
        self.check_pair(a, b)?;
        self.mark(a, b, |c| &mut c.roads);
        Ok(())
    }

    /// Connects each consecutive pair of `path` by road.
    pub fn add_road_path(&mut self, path: &[Area]) -> Result<(), GridError> {
        for w in path.windows(2) {
            if let [a, b] = w {
                self.add_road(*a, *b)?;
            }
        }
        Ok(())
    }

    fn check_pair(&self, a: Area, b: Area) -> Result<(), GridError> {
        for x in [a, b] {
            if !self.contains(x) {
                return Err(GridError::OffBoard(x));
            }
        }
        if !self.adjacent(a, b) {
            return Err(GridError::NotAdjacent(a, b));
        }
        Ok(())
    }

    /// For `to` next to `from`: whether a road and whether an obstacle cross the side between them (both false
    /// if `from` is off the board); `None` if they are not adjacent.
    #[inline]
    pub(crate) fn side_between(&self, from: Area, to: Area) -> Option<(bool, bool)> {
        let side = self.side_towards(from, to)?;
        let bit = 1u8 << side.0;
        Some(self.cell(from).map_or((false, false), |c| {
            (c.roads & bit != 0, c.obstacles & bit != 0)
        }))
    }

    /// Whether an obstacle lies on the side between `a` and `b`.
    #[must_use]
    pub fn obstacle_between(&self, a: Area, b: Area) -> bool {
        self.marked(a, b, |c| c.obstacles)
    }

    /// Whether a road connects `a` and `b` (GRID-MOV-06).
    #[must_use]
    pub fn road_between(&self, a: Area, b: Area) -> bool {
        self.marked(a, b, |c| c.roads)
    }

    fn dirs(&self) -> &'static [(i32, i32)] {
        match self.kind {
            GridKind::Square => &SQUARE_DIRS,
            GridKind::Hex => &HEX_DIRS,
        }
    }

    fn dir(&self, side: u8) -> (i64, i64) {
        let d = self.dirs();
        let (x, y) = d[usize::from(side) % d.len()];
        (i64::from(x), i64::from(y))
    }

    /// The area across side `facing` of `a` (it may be off the board).
    #[must_use]
    pub fn neighbour(&self, a: Area, facing: Facing) -> Area {
        let d = self.dirs();
        a.offset(d[usize::from(facing.index()) % d.len()])
    }

    /// GRID-GEO-01: the areas sharing a side with `a` that are on the board (4 on squares, 6 on hexes; squares
    /// touching only at a corner are not neighbours).
    pub fn neighbours(&self, a: Area) -> impl Iterator<Item = Area> + '_ {
        self.dirs()
            .iter()
            .map(move |&d| a.offset(d))
            .filter(|n| self.contains(*n))
    }

    /// GRID-GEO-01: whether two areas share a side.
    #[must_use]
    pub fn adjacent(&self, a: Area, b: Area) -> bool {
        self.side_towards(a, b).is_some()
    }

    /// The side of `from` that `to` lies across, if they are adjacent.
    #[must_use]
    pub fn side_towards(&self, from: Area, to: Area) -> Option<Facing> {
        // Every neighbour is at most one column and one row away: most pairs are turned down here at once.
        let (dx, dy) = Board::vector(from, to);
        if dx.abs() > 1 || dy.abs() > 1 {
            return None;
        }
        self.dirs()
            .iter()
            .position(|&d| from.offset(d) == to)
            .map(|i| Facing(i as u8))
    }

    /// GRID-GEO-02: the number of area-to-area steps between two areas, ignoring terrain. Hex distance on hexes
    /// (from `hexx`); Manhattan on squares, or Chebyshev with [`SquareDistance::Chebyshev`].
    #[must_use]
    pub fn distance(&self, a: Area, b: Area, opts: &Options) -> u32 {
        match self.kind {
            GridKind::Hex => a.hex().unsigned_distance_to(b.hex()),
            GridKind::Square => {
                let dx = (i64::from(a.x) - i64::from(b.x)).unsigned_abs();
                let dy = (i64::from(a.y) - i64::from(b.y)).unsigned_abs();
                let d = match opts.square_distance {
                    SquareDistance::Manhattan => dx + dy,
                    SquareDistance::Chebyshev => dx.max(dy),
                };
                u32::try_from(d).unwrap_or(u32::MAX)
            }
        }
    }

    fn vector(from: Area, to: Area) -> (i64, i64) {
        (
            i64::from(to.x) - i64::from(from.x),
            i64::from(to.y) - i64::from(from.y),
        )
    }

    /// GRID-GEO-04: whether `to` lies in the front arc of a unit in `from` facing `facing`.
    ///
    /// Exact, in grid coordinates. Squares: within ±45° of the facing, edges included (of the neighbours only
    /// the area straight ahead). Hexes: within ±60°, edges included (the three forward neighbours and the cone
    /// beyond); ±30° with [`FrontArc::Narrow`]. [`FrontArc::HalfPlane`]: strictly ahead of the line through the
    /// centre parallel to the front side. The unit's own area is not in its arc.
    #[must_use]
    pub fn in_front_arc(&self, from: Area, facing: Facing, to: Area, opts: &Options) -> bool {
        if from == to {
            return false;
        }
        let v = Self::vector(from, to);
        let k = facing.index();
        let f = self.dir(k);
        let right_perp = match self.kind {
            GridKind::Square => (f.1, -f.0),
            GridKind::Hex => {
                let (a, b) = (self.dir(k + 1), self.dir(k + 2));
                (a.0 + b.0, a.1 + b.1)
            }
        };
        let (r, l) = match (self.kind, opts.front_arc) {
            (_, FrontArc::HalfPlane) => return cross(right_perp, v) > 0,
            (GridKind::Square, _) => (
                (f.0 + right_perp.0, f.1 + right_perp.1),
                (f.0 - right_perp.0, f.1 - right_perp.1),
            ),
            (GridKind::Hex, FrontArc::Standard) => (self.dir(k + 1), self.dir(k + 5)),
            (GridKind::Hex, FrontArc::Narrow) => {
                let (a, b) = (self.dir(k + 1), self.dir(k + 5));
                ((f.0 + a.0, f.1 + a.1), (f.0 + b.0, f.1 + b.1))
            }
        };
        cross(r, v) >= 0 && cross(v, l) >= 0
    }

    /// GRID-GEO-05: the area `steps` areas "directly in front": reached by stepping straight across the faced
    /// side `steps` times (it may be off the board).
    #[must_use]
    pub fn directly_in_front(&self, from: Area, facing: Facing, steps: u32) -> Area {
        let (dx, dy) = self.dirs()[usize::from(facing.index()) % self.dirs().len()];
        let n = i32::try_from(steps).unwrap_or(i32::MAX);
        Area::new(
            from.x.saturating_add(dx.saturating_mul(n)),
            from.y.saturating_add(dy.saturating_mul(n)),
        )
    }

    /// GRID-GEO-06: whether an adjacent area `other` is on the front, flank or rear of a unit in `from` facing
    /// `facing`, allowing for a refused flank (GRID-MOV-12), which turns flank sides on that side into front.
    /// `None` if the areas are not adjacent.
    #[must_use]
    pub fn aspect(
        &self,
        from: Area,
        facing: Facing,
        refused: Option<FlankSide>,
        other: Area,
        opts: &Options,
    ) -> Option<Aspect> {
        let side = self.side_towards(from, other)?;
        let n = self.kind.sides();
        let rel = (side.index() + n - facing.index()) % n;
        let narrow = self.kind == GridKind::Hex && opts.hex_flanks == HexFlanks::NarrowFront;
        let aspect = tables::aspect_of_side(n, rel, narrow);
        if aspect == Aspect::Flank
            && let Some(flank) = refused
        {
            let on_right = rel < n / 2;
            let refused_here = match flank {
                FlankSide::Right => on_right,
                FlankSide::Left => !on_right,
            };
            if refused_here {
                return Some(Aspect::Front);
            }
        }
        Some(aspect)
    }

    /// Centre of an area in plane coordinates (squares: 1 per area; hexes: `hexx`'s flat layout of size 1).
    #[must_use]
    pub fn centre(&self, a: Area) -> Point {
        match self.kind {
            GridKind::Square => Point::new(f64::from(a.x), f64::from(a.y)),
            GridKind::Hex => {
                let p = HexLayout::flat().hex_to_world_pos(a.hex());
                Point::new(f64::from(p.x), f64::from(p.y))
            }
        }
    }

    /// GRID-GEO-07 step 1: the areas a line from the centre of `from` to the centre of `to` passes, in order,
    /// leaving out the two end areas. Where the line runs exactly along a square corner or a hex spine, the two
    /// candidate areas are given together. Both ends must be on the board (so the line is never longer than the
    /// board is wide).
    pub fn line(&self, from: Area, to: Area) -> Result<Vec<LosStep>, GridError> {
        for end in [from, to] {
            if !self.contains(end) {
                return Err(GridError::OffBoard(end));
            }
        }
        Ok(match self.kind {
            GridKind::Square => square_line(from, to),
            GridKind::Hex => hex_line(from, to),
        })
    }

    /// GRID-GEO-07 step 2: whether an intervening area's terrain blocks sight between areas of elevations
    /// `e_from` and `e_to`: its height (elevation, +1 if it blocks sight) exceeds the lower end and reaches the
    /// higher one.
    #[must_use]
    pub fn terrain_blocks(&self, between: Area, e_from: u8, e_to: u8) -> bool {
        let Ok(t) = self.terrain(between) else {
            return false;
        };
        let h = t.los_height();
        let (lo, hi) = (u32::from(e_from.min(e_to)), u32::from(e_from.max(e_to)));
        h > lo && h >= hi
    }

    /// GRID-GEO-07: whether `from` sees `to`. Terrain and elevation block as in step 2; `troops_block` says
    /// whether the troops in an intervening area block (steps 3 and 4 are the caller's: fire passes
    /// `|a| occupied(a)` with the hill-artillery exception, command sight passes `|_| false`). End areas never
    /// block. A corner or spine step blocks if both candidates block, or either with [`LosTie::EitherBlocks`].
    pub fn line_of_sight(
        &self,
        from: Area,
        to: Area,
        opts: &Options,
        mut troops_block: impl FnMut(Area) -> bool,
    ) -> Result<bool, GridError> {
        let e_from = self.terrain(from)?.elevation;
        let e_to = self.terrain(to)?.elevation;
        let mut blocks = |a: Area| self.terrain_blocks(a, e_from, e_to) || troops_block(a);
        for end in [from, to] {
            if !self.contains(end) {
                return Err(GridError::OffBoard(end));
            }
        }
        // The steps of `Board::line`, walked as they are found rather than listed and put in order: whether
        // any of them blocks does not depend on the order (the tests are pure), so the first that blocks ends
        // the walk.
        let mut blocked = |step: LosStep| match step {
            LosStep::Crosses(a) => blocks(a),
            LosStep::Between(a, b) => match opts.los_tie {
                LosTie::BothBlock => blocks(a) && blocks(b),
                LosTie::EitherBlocks => blocks(a) || blocks(b),
            },
        };
        let clear = match self.kind {
            GridKind::Square => square_steps(from, to, |_, step| !blocked(step)),
            GridKind::Hex => hex_steps(from, to, |step| !blocked(step)),
        };
        Ok(clear)
    }

    /// GRID-GEO-08: a step from `from` to `to` is away from the enemy if it increases the distance to every
    /// enemy area given.
    #[must_use]
    pub fn is_away_step(&self, from: Area, to: Area, enemies: &[Area], opts: &Options) -> bool {
        enemies
            .iter()
            .all(|&e| self.distance(to, e, opts) > self.distance(from, e, opts))
    }

    /// GRID-GEO-08: the sides of `area` whose bearing points nearest to `target` (several on a tie; the owner
    /// picks, and the first is the software default).
    pub fn facings_towards(&self, area: Area, target: Area) -> Vec<Facing> {
        let (angles, best) = self.side_angles(area, target);
        angles
            .iter()
            .enumerate()
            .filter(|(_, a)| (**a - best).abs() < 1e-6)
            .map(|(k, _)| Facing(k as u8))
            .collect()
    }

    /// The first of [`Board::facings_towards`] (the software default), without listing them all.
    #[must_use]
    pub(crate) fn facing_towards(&self, area: Area, target: Area) -> Option<Facing> {
        let (angles, best) = self.side_angles(area, target);
        angles
            .iter()
            .position(|a| (*a - best).abs() < 1e-6)
            .map(|k| Facing(k as u8))
    }

    /// The angle between each side's heading and the bearing from `area` to `target`, and the smallest.
    fn side_angles(&self, area: Area, target: Area) -> (Vec6, f64) {
        let c = self.centre(area);
        let bearing = c.heading_to(self.centre(target));
        let n = self.kind.sides();
        let step = 360.0 / f64::from(n);
        let mut angles = Vec6::new();
        for k in 0..n {
            let h = Heading::NORTH.turned(f64::from(k) * step);
            angles.push(h.angle_to(bearing));
        }
        let best = angles.iter().copied().fold(f64::INFINITY, f64::min);
        (angles, best)
    }

    /// The heading (degrees clockwise from north) of side `facing`.
    #[must_use]
    pub fn heading_of(&self, facing: Facing) -> Heading {
        Heading::NORTH.turned(f64::from(facing.index()) * 360.0 / f64::from(self.kind.sides()))
    }
}

fn square_line(from: Area, to: Area) -> Vec<LosStep> {
    let mut steps: Vec<(f64, LosStep)> = Vec::new();
    square_steps(from, to, |t, step| {
        steps.push((t, step));
        true
    });
    // By where the line reaches them; at a corner the pair comes before the area entered there.
    steps.sort_by(|a, b| {
        a.0.total_cmp(&b.0)
            .then(matches!(a.1, LosStep::Crosses(_)).cmp(&matches!(b.1, LosStep::Crosses(_))))
    });
    steps.into_iter().map(|(_, s)| s).collect()
}

/// The steps of [`square_line`], each with where along the line it is reached (0 to 1), handed to `visit` as
/// found (areas crossed first, then corner pairs; not in order along the line) until `visit` returns `false`.
/// Returns whether every step was visited.
fn square_steps(from: Area, to: Area, mut visit: impl FnMut(f64, LosStep) -> bool) -> bool {
    let (ax, ay) = (f64::from(from.x), f64::from(from.y));
    let (dx, dy) = (f64::from(to.x) - ax, f64::from(to.y) - ay);
    let interval = |c: f64, a: f64, d: f64| -> Option<(f64, f64)> {
        if d == 0.0 {
            ((a - c).abs() < 0.5).then_some((f64::NEG_INFINITY, f64::INFINITY))
        } else {
            let t1 = (c - 0.5 - a) / d;
            let t2 = (c + 0.5 - a) / d;
            Some((t1.min(t2), t1.max(t2)))
        }
    };
    let crossed = |x: i32, y: i32| -> Option<f64> {
        let (lx, hx) = interval(f64::from(x), ax, dx)?;
        let (ly, hy) = interval(f64::from(y), ay, dy)?;
        let lo = lx.max(ly).max(0.0);
        let hi = hx.min(hy).min(1.0);
        (hi - lo > 1e-9).then_some(lo)
    };
    let (x0, x1) = (from.x.min(to.x), from.x.max(to.x));
    let (y0, y1) = (from.y.min(to.y), from.y.max(to.y));
    let ends = [from, to];
    for x in x0..=x1 {
        for y in y0..=y1 {
            let a = Area::new(x, y);
            if ends.contains(&a) {
                continue;
            }
            if let Some(t) = crossed(x, y)
                && !visit(t, LosStep::Crosses(a))
            {
                return false;
            }
        }
    }
    // Corners (k + ½, m + ½) that lie exactly on the line, strictly between the ends.
    let (idx, idy) = (
        i64::from(to.x) - i64::from(from.x),
        i64::from(to.y) - i64::from(from.y),
    );
    for k in x0..x1 {
        for m in y0..y1 {
            let cx2 = 2 * i64::from(k) + 1 - 2 * i64::from(from.x);
            let cy2 = 2 * i64::from(m) + 1 - 2 * i64::from(from.y);
            if idx * cy2 != idy * cx2 {
                continue;
            }
            let around = [
                Area::new(k, m),
                Area::new(k + 1, m),
                Area::new(k, m + 1),
                Area::new(k + 1, m + 1),
            ];
            // The areas at the corner the line only touches: a pair if exactly two (kept without a list).
            let mut touched = [Area::default(); 2];
            let mut n = 0;
            for a in around {
                if !ends.contains(&a) && crossed(a.x, a.y).is_none() {
                    if let Some(slot) = touched.get_mut(n) {
                        *slot = a;
                    }
                    n += 1;
                }
            }
            if n == 2 {
                let [a, b] = touched;
                let t = cx2 as f64 / (2.0 * dx);
                if !visit(t, LosStep::Between(a.min(b), a.max(b))) {
                    return false;
                }
            }
        }
    }
    true
}

fn hex_line(from: Area, to: Area) -> Vec<LosStep> {
    let mut out: Vec<LosStep> = Vec::new();
    hex_steps(from, to, |step| {
        out.push(step);
        true
    });
    out
}

/// The steps of [`hex_line`] in order along the line, handed to `visit` until it returns `false`. Returns
/// whether every step was visited.
fn hex_steps(from: Area, to: Area, mut visit: impl FnMut(LosStep) -> bool) -> bool {
    const NUDGE: (f32, f32) = (1e-4, 2e-4);
    let (a, b) = (from.hex(), to.hex());
    let n = a.unsigned_distance_to(b);
    let (ax, ay) = (a.x as f32, a.y as f32);
    let (dx, dy) = (b.x as f32 - ax, b.y as f32 - ay);
    let mut last: Option<LosStep> = None;
    for i in 1..n {
        let s = i as f32 / n as f32;
        let (px, py) = (ax + dx * s, ay + dy * s);
        let h1 = Hex::round([px + NUDGE.0, py + NUDGE.1]);
        let h2 = Hex::round([px - NUDGE.0, py - NUDGE.1]);
        let (a1, a2) = (Area::new(h1.x, h1.y), Area::new(h2.x, h2.y));
        let step = if a1 == a2 {
            LosStep::Crosses(a1)
        } else {
            LosStep::Between(a1.min(a2), a1.max(a2))
        };
        if last != Some(step) {
            last = Some(step);
            if !visit(step) {
                return false;
            }
        }
    }
    true
}

/// Play on a table without a grid (GRID-OPT-01): a fixed length stands for one area.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FreeTable {
    area: Inches,
}

impl Default for FreeTable {
    fn default() -> Self {
        FreeTable { area: Inches(4.0) }
    }
}

impl FreeTable {
    /// GRID-OPT-01: a table where `area` (default 4") replaces one area; it must be finite and positive.
    pub fn new(area: Inches) -> Result<FreeTable, GridError> {
        if area.0.is_finite() && area.0 > 0.0 {
            Ok(FreeTable { area })
        } else {
            Err(GridError::BadLength(area.0.to_string()))
        }
    }

    /// The length of one area.
    #[must_use]
    pub fn area(&self) -> Inches {
        self.area
    }

    /// `n` areas as a length (allowances and ranges are multiples of the area length).
    #[must_use]
    pub fn length(&self, n: u32) -> Inches {
        self.area * f64::from(n)
    }

    /// The distance in areas that `d` counts as: the smallest `n` with `d ≤ n·L` ("within n areas").
    #[must_use]
    pub fn areas(&self, d: Inches) -> u32 {
        let n = (d.0 / self.area.0 - 1e-9).ceil();
        if n.is_nan() || n <= 0.0 {
            0
        } else if n >= f64::from(u32::MAX) {
            u32::MAX
        } else {
            n as u32
        }
    }

    /// "Within `n` areas": `d ≤ n·L`.
    #[must_use]
    pub fn within(&self, d: Inches, n: u32) -> bool {
        d.0 <= self.length(n).0 + 1e-9
    }

    /// "Adjacent" and "engaged": within one area length.
    #[must_use]
    pub fn adjacent(&self, d: Inches) -> bool {
        self.within(d, 1)
    }

    /// The front arc: ±45° from the centre of the front edge.
    #[must_use]
    pub fn in_front_arc(&self, front_centre: Point, facing: Heading, to: Point) -> bool {
        Arc::either_side(45.0).contains(front_centre, facing, to)
    }

    /// "Directly in front": inside the straight corridor ahead of the front edge, as wide as the unit.
    #[must_use]
    pub fn directly_in_front(
        &self,
        front_centre: Point,
        facing: Heading,
        width: Inches,
        to: Point,
    ) -> bool {
        let r = facing.as_degrees().to_radians();
        let (fx, fy) = (r.sin(), r.cos());
        let (vx, vy) = (to.x - front_centre.x, to.y - front_centre.y);
        let ahead = vx * fx + vy * fy;
        let across = (vx * fy - vy * fx).abs();
        ahead > 0.0 && across <= width.0 / 2.0 + 1e-9
    }

    /// Bombardment dice per stand at distance `d` (GRID-ART-03/04 with the area length as the unit).
    #[must_use]
    pub fn bombard_dice_per_stand(&self, d: Inches, extra_bands: u32) -> Option<u8> {
        tables::bombard_dice_per_stand(self.areas(d), extra_bands)
    }
}

/// Up to six numbers (one per side of an area) kept on the stack.
#[derive(Clone, Copy)]
struct Vec6 {
    items: [f64; 6],
    len: usize,
}

impl Vec6 {
    fn new() -> Vec6 {
        Vec6 {
            items: [0.0; 6],
            len: 0,
        }
    }

    fn push(&mut self, x: f64) {
        if let Some(slot) = self.items.get_mut(self.len) {
            *slot = x;
            self.len += 1;
        }
    }

    fn iter(&self) -> std::slice::Iter<'_, f64> {
        self.items[..self.len].iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_directions_agree_with_hexx() {
        // GRID-GEO-01: the six side directions used here are exactly hexx's neighbours.
        let mine: BTreeSet<(i32, i32)> = HEX_DIRS.iter().copied().collect();
        let theirs: BTreeSet<(i32, i32)> = Hex::ZERO
            .all_neighbors()
            .iter()
            .map(|h| (h.x, h.y))
            .collect();
        assert_eq!(mine, theirs);
    }

    #[test]
    fn hex_side_bearings_are_multiples_of_sixty() {
        // GRID-GEO-03: side k of a hex points at bearing 60k.
        let Ok(b) = Board::hexagon(2) else {
            panic!("board")
        };
        for k in 0..6u8 {
            let n = b.neighbour(Area::new(0, 0), Facing(k));
            let h = b.centre(Area::new(0, 0)).heading_to(b.centre(n));
            let want = f64::from(k) * 60.0;
            assert!(Heading::NORTH.turned(want).angle_to(h) < 1e-3, "side {k}");
        }
    }

    #[test]
    fn the_neighbour_table_agrees_with_the_coordinates() {
        // A board with holes, on squares and on hexes, roads and obstacles on some sides: for every area, the
        // table's neighbours are those `neighbours` works out from coordinates, in the same order, each with
        // its own index and the road and obstacle of the side between.
        for kind in [GridKind::Square, GridKind::Hex] {
            let areas = (-3..5)
                .flat_map(|x| (-2..6).map(move |y| Area::new(x, y)))
                .filter(|a| (a.x * 7 + a.y * 3).rem_euclid(5) != 0);
            let Ok(mut b) = Board::from_areas(kind, areas) else {
                panic!("board")
            };
            let (a, c, d) = (Area::new(0, 1), Area::new(0, 2), Area::new(-1, 1));
            assert!(b.add_road(a, c).is_ok() && b.add_obstacle(a, d).is_ok());
            let mut checked = 0;
            for a in b.areas().collect::<Vec<_>>() {
                let Some(i) = b.index_of(a) else {
                    panic!("{a} has no index")
                };
                let want: Vec<(Area, usize, bool, bool)> = b
                    .neighbours(a)
                    .map(|n| {
                        let (road, obstacle) = b.side_between(a, n).unwrap_or((true, true));
                        (n, b.index_of(n).unwrap_or(usize::MAX), road, obstacle)
                    })
                    .collect();
                let got: Vec<_> = b.neighbours_across_at(a, i).collect();
                assert_eq!(got, want, "{kind:?} {a}");
                checked += got.len();
            }
            assert!(checked > 100, "{kind:?}: only {checked} neighbour pairs");
            let i = b.index_of(a).unwrap_or(usize::MAX);
            let marked: Vec<_> = b
                .neighbours_across_at(a, i)
                .filter(|&(_, _, road, obstacle)| road || obstacle)
                .collect();
            let (ic, id) = (b.index_of(c), b.index_of(d));
            assert_eq!(
                marked,
                vec![
                    (c, ic.unwrap_or(0), true, false),
                    (d, id.unwrap_or(0), false, true)
                ]
            );
        }
    }
}
