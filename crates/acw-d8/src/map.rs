//! The map: the 6 × 5 grid of 30 cm squares, terrain placed by D30, road and river from D20 end points routed
//! round the hills, farm roads, the bridge and fords, the river's flow, and the three maps with the D3 choice.
//!
//! [`Map::generate`] runs the whole procedure (D8-SET-38) from a [`Dice`] source; a [`Map`] is plain data that
//! loads (serde) through the same checks as [`Map::new`].

use crate::dice_util::{check, reroll, reroll_fast};
use crate::error::D8Error;
use crate::options::Options;
use crate::tables::{Cover, Ground, board};
use acw_core::{Dice, Die, Dist, Resolve, Side};
use std::fmt;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// A square of the 6 × 5 grid, numbered 1 to 30 in rows from the north-west corner (D8-SET-04).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "u8", into = "u8"))]
pub struct Square(u8);

impl TryFrom<u8> for Square {
    type Error = D8Error;
    fn try_from(n: u8) -> Result<Square, D8Error> {
        Square::new(n)
    }
}

impl From<Square> for u8 {
    fn from(s: Square) -> u8 {
        s.0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "square {}", self.0)
    }
}

impl Square {
    /// D8-SET-04: square `n`, 1 to 30.
    pub fn new(n: u8) -> Result<Square, D8Error> {
        if (1..=30).contains(&n) {
            Ok(Square(n))
        } else {
            Err(D8Error::range("a grid square", n, 1, 30))
        }
    }

    /// The square's number, 1 to 30.
    #[must_use]
    pub const fn number(self) -> u8 {
        self.0
    }

    /// D8-SET-04: the column, 0 (west) to 5.
    #[must_use]
    pub const fn column(self) -> u8 {
        (self.0 - 1) % board::COLUMNS
    }

    /// D8-SET-04: the row, 0 (north) to 4.
    #[must_use]
    pub const fn row(self) -> u8 {
        (self.0 - 1) / board::COLUMNS
    }

    /// The square at a column and row, if on the board.
    #[must_use]
    pub fn at_cell(column: i32, row: i32) -> Option<Square> {
        if (0..i32::from(board::COLUMNS)).contains(&column)
            && (0..i32::from(board::ROWS)).contains(&row)
        {
            Some(Square((row * i32::from(board::COLUMNS) + column + 1) as u8))
        } else {
            None
        }
    }

    /// D8-SET-04: the square holding the point (x, y) in cm (x west to east 0–180, y north to south 0–150); a
    /// point on the far east or south edge belongs to the last square.
    pub fn containing(x_cm: f64, y_cm: f64) -> Result<Square, D8Error> {
        if !(x_cm.is_finite() && (0.0..=board::WIDTH_CM).contains(&x_cm)) {
            return Err(D8Error::BadLength {
                what: "an x coordinate on the 180 cm table",
                given: x_cm,
            });
        }
        if !(y_cm.is_finite() && (0.0..=board::DEPTH_CM).contains(&y_cm)) {
            return Err(D8Error::BadLength {
                what: "a y coordinate on the 150 cm table",
                given: y_cm,
            });
        }
        let c = ((x_cm / board::SQUARE_CM) as i32).min(i32::from(board::COLUMNS) - 1);
        let r = ((y_cm / board::SQUARE_CM) as i32).min(i32::from(board::ROWS) - 1);
        Square::at_cell(c, r).ok_or(D8Error::BadLength {
            what: "a point on the table",
            given: x_cm,
        })
    }

    /// D8-SET-04: the square's extent in cm: (x from, x to, y from, y to).
    #[must_use]
    pub fn bounds_cm(self) -> (f64, f64, f64, f64) {
        let x = f64::from(self.column()) * board::SQUARE_CM;
        let y = f64::from(self.row()) * board::SQUARE_CM;
        (x, x + board::SQUARE_CM, y, y + board::SQUARE_CM)
    }

    /// Whether the square is on the table's edge (the 18 squares of the perimeter grid, D8-SET-05).
    #[must_use]
    pub const fn on_perimeter(self) -> bool {
        let (c, r) = (self.column(), self.row());
        c == 0 || r == 0 || c == board::COLUMNS - 1 || r == board::ROWS - 1
    }

    /// Whether two squares touch (by a side, or also by a corner when `diagonal`).
    #[must_use]
    pub fn touches(self, other: Square, diagonal: bool) -> bool {
        let dc = (i32::from(self.column()) - i32::from(other.column())).abs();
        let dr = (i32::from(self.row()) - i32::from(other.row())).abs();
        match (dc, dr) {
            (0, 1) | (1, 0) => true,
            (1, 1) => diagonal,
            _ => false,
        }
    }

    /// Every square of the board, 1 to 30.
    pub fn all() -> impl Iterator<Item = Square> {
        (1..=30).map(Square)
    }

    fn index(self) -> usize {
        usize::from(self.0 - 1)
    }
}

/// D8-SET-02: the y coordinate (cm) of a side's base line: the Union the north edge (0), the Confederates the south
/// edge (150).
#[must_use]
pub const fn base_line_y(side: Side) -> f64 {
    match side {
        Side::Union => 0.0,
        Side::Confederate => board::DEPTH_CM,
    }
}

/// D8-SET-02: the sign of "forward" along y for a side: +1 for the Union (south), −1 for the Confederates.
#[must_use]
pub const fn forward(side: Side) -> f64 {
    match side {
        Side::Union => 1.0,
        Side::Confederate => -1.0,
    }
}

/// D8-SET-15: whether a figure at `y_cm` stands in its side's deployment zone, `depth_cm` deep from its own base
/// line (30 cm, one row of squares, by default).
pub fn in_deployment_zone(side: Side, y_cm: f64, depth_cm: f64) -> Result<bool, D8Error> {
    let y = crate::error::length("a y coordinate", y_cm)?;
    let depth = crate::error::length("a deployment depth", depth_cm)?;
    Ok(match side {
        Side::Union => y <= depth,
        Side::Confederate => y >= board::DEPTH_CM - depth,
    })
}

/// The default deployment depth: the row of squares next to the base line (D8-SET-15).
pub const DEPLOYMENT_DEPTH_CM: f64 = 30.0;

/// A terrain piece of the main grid (D8-SET-06).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum Piece {
    /// A hill: soft cover; roads and rivers go round it.
    Hill,
    /// A farmstead (hard-cover buildings) with its enclosed field (soft cover).
    Farm,
    /// A wood: hard cover.
    Wood,
    /// Broken ground: soft cover by default.
    BrokenGround,
    /// An enclosed field placed on its own (the "separate fields" option).
    Field,
}

impl Piece {
    /// D8-SET-16: the cover the piece gives. A farm's buildings are hard cover (its enclosure is a fence, soft).
    #[must_use]
    pub const fn cover(self, broken_ground_soft: bool) -> Cover {
        match self {
            Piece::Hill => Ground::Hill.cover(broken_ground_soft),
            Piece::Farm => Ground::WoodenBuilding.cover(broken_ground_soft),
            Piece::Wood => Ground::Wood.cover(broken_ground_soft),
            Piece::BrokenGround => Ground::BrokenGround.cover(broken_ground_soft),
            Piece::Field => Ground::Fence.cover(broken_ground_soft),
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Piece::Hill => "hill",
            Piece::Farm => "farm",
            Piece::Wood => "wood",
            Piece::BrokenGround => "broken ground",
            Piece::Field => "enclosed field",
        })
    }
}

/// D8-SET-06, D8-SET-07: the pieces in rolling order: hill, hill, farm, farm, (field, field,) wood, wood, broken
/// ground.
#[must_use]
pub fn pieces(separate_fields: bool) -> &'static [Piece] {
    const SEVEN: [Piece; 7] = [
        Piece::Hill,
        Piece::Hill,
        Piece::Farm,
        Piece::Farm,
        Piece::Wood,
        Piece::Wood,
        Piece::BrokenGround,
    ];
    const NINE: [Piece; 9] = [
        Piece::Hill,
        Piece::Hill,
        Piece::Farm,
        Piece::Farm,
        Piece::Field,
        Piece::Field,
        Piece::Wood,
        Piece::Wood,
        Piece::BrokenGround,
    ];
    if separate_fields { &NINE } else { &SEVEN }
}

/// D8-SET-05: the perimeter square a D20 face names: 1–6 along the north edge west to east, 7–9 down the east
/// edge, 10–15 along the south edge east to west, 16–18 up the west edge; 19 is square 30 again and 20 square 1.
#[must_use]
pub fn perimeter_square(face: u16) -> Option<Square> {
    const GRID2: [u8; 20] = [
        1, 2, 3, 4, 5, 6, 12, 18, 24, 30, 29, 28, 27, 26, 25, 19, 13, 7, 30, 1,
    ];
    let i = usize::from(face).checked_sub(1)?;
    GRID2.get(i).map(|&n| Square(n))
}

/// D8-SET-07: the piece found in one square after placing every piece by D30, re-rolling taken squares. Every
/// arrangement is equally likely, so a square holds a given piece kind with probability (pieces of that kind)/30.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TerrainInSquare {
    /// The square looked at.
    pub square: Square,
    /// The "separate fields" option (9 pieces).
    pub separate_fields: bool,
}

impl Resolve for TerrainInSquare {
    type Outcome = Option<Piece>;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> Option<Piece> {
        let mut taken = [false; 30];
        let mut found = None;
        for &piece in pieces(self.separate_fields) {
            let f = reroll_fast(dice, Die::D30, |f| !taken[usize::from(f - 1)]);
            taken[usize::from(f - 1)] = true;
            if f == u16::from(self.square.0) {
                found = Some(piece);
            }
        }
        found
    }

    fn odds(&self) -> Dist<Option<Piece>> {
        let ps = pieces(self.separate_fields);
        let placed = ps.len() as f64;
        let mut v: Vec<(Option<Piece>, f64)> = ps.iter().map(|&p| (Some(p), 1.0)).collect();
        v.push((None, 30.0 - placed));
        Dist::weighted(v).unwrap_or_else(|_| Dist::certain(None))
    }
}

/// D8-SET-08 (with D8-SET-05): one end point of a road or river, by D20 on the perimeter grid (hill re-rolls left
/// to the map generator). With `reroll_corner_labels` the faces 19 and 20 are re-rolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct EndPoint {
    /// The option re-rolling 19 and 20.
    pub reroll_corner_labels: bool,
}

impl EndPoint {
    fn accept(&self, f: u16) -> bool {
        !(self.reroll_corner_labels && f >= 19)
    }
}

impl Resolve for EndPoint {
    type Outcome = Square;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> Square {
        let f = reroll_fast(dice, Die::D20, |f| self.accept(f));
        perimeter_square(f).unwrap_or(Square(1))
    }

    fn odds(&self) -> Dist<Square> {
        let faces = (1..=20u16).filter(|&f| self.accept(f));
        Dist::uniform(faces.filter_map(perimeter_square))
            .unwrap_or_else(|_| Dist::certain(Square(1)))
    }
}

/// D8-SET-08, D8-SET-09: a feature's start and finish, two D20s. When they name one square the feature enters
/// and leaves the table through it (P = 3/50 with the default labels).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct FeatureEnds {
    /// The option re-rolling 19 and 20.
    pub reroll_corner_labels: bool,
}

impl Resolve for FeatureEnds {
    type Outcome = (Square, Square);

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> (Square, Square) {
        let e = EndPoint {
            reroll_corner_labels: self.reroll_corner_labels,
        };
        let a = e.roll(dice);
        (a, e.roll(dice))
    }

    fn odds(&self) -> Dist<(Square, Square)> {
        let e = EndPoint {
            reroll_corner_labels: self.reroll_corner_labels,
        }
        .odds();
        e.product(&e)
    }
}

/// Which of the three maps (D8-SET-14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum MapOwner {
    /// The Union player's map (D3 = 1).
    Union,
    /// The Confederate player's map (D3 = 2).
    Confederate,
    /// The umpire's map (D3 = 3).
    Umpire,
}

impl fmt::Display for MapOwner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MapOwner::Union => "the Union map",
            MapOwner::Confederate => "the Confederate map",
            MapOwner::Umpire => "the umpire's map",
        })
    }
}

/// D8-SET-14: the umpire's D3 choosing the map that is played: 1 Union, 2 Confederate, 3 umpire; 1/3 each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct MapChoice;

impl MapChoice {
    fn owner(face: u16) -> MapOwner {
        match face {
            1 => MapOwner::Union,
            2 => MapOwner::Confederate,
            _ => MapOwner::Umpire,
        }
    }
}

impl Resolve for MapChoice {
    type Outcome = MapOwner;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> MapOwner {
        Self::owner(Die::D3.roll(dice))
    }

    fn odds(&self) -> Dist<MapOwner> {
        Dist::die(Die::D3).map(|&f| Self::owner(f as u16))
    }
}

/// A road or river: where it enters and leaves, and the squares it runs through in order (D8-SET-08 to
/// D8-SET-10).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Feature {
    /// The start square (the first D20).
    pub start: Square,
    /// The finish square (the second D20).
    pub finish: Square,
    /// The route, `start` first and `finish` last; one square when they are the same (D8-SET-09).
    pub route: Vec<Square>,
}

/// D8-SET-10: the quickest route from `from` to `to` avoiding `blocked` squares: 8-connected (orthogonal step 1,
/// diagonal √2) unless `four_connected`; ties go to the route hugging the straight line between the end centres
/// (smallest sum of distances from it), then to the smallest sequence of square numbers. `None` if no route exists.
#[must_use]
pub fn route(
    from: Square,
    to: Square,
    blocked: &[bool; 30],
    four_connected: bool,
) -> Option<Vec<Square>> {
    if blocked[from.index()] || blocked[to.index()] {
        return None;
    }
    route_measured(
        from,
        to,
        &distances(from, blocked, four_connected),
        &distances(to, blocked, four_connected),
        blocked,
        four_connected,
    )
}

/// [`route`] between two squares not `blocked`, given the [`distances`] from each.
fn route_measured(
    from: Square,
    to: Square,
    dist_from: &[Option<f64>; 30],
    dist_to: &[Option<f64>; 30],
    blocked: &[bool; 30],
    four_connected: bool,
) -> Option<Vec<Square>> {
    let total = dist_from[to.index()]?;
    // Walk every shortest route, keeping the best by the tie-break.
    let mut best: Option<(f64, Vec<Square>)> = None;
    let mut path = vec![from];
    let line = (centre(from), centre(to));
    walk(
        &mut path,
        to,
        total,
        dist_from,
        dist_to,
        blocked,
        four_connected,
        &line,
        &mut best,
    );
    best.map(|(_, p)| p)
}

const EPS: f64 = 1e-9;

fn centre(s: Square) -> (f64, f64) {
    (f64::from(s.column()) + 0.5, f64::from(s.row()) + 0.5)
}

fn off_line(s: Square, line: &((f64, f64), (f64, f64))) -> f64 {
    let ((x1, y1), (x2, y2)) = *line;
    let (x, y) = centre(s);
    let (dx, dy) = (x2 - x1, y2 - y1);
    let len = (dx * dx + dy * dy).sqrt();
    if len < EPS {
        ((x - x1).powi(2) + (y - y1).powi(2)).sqrt()
    } else {
        ((x - x1) * dy - (y - y1) * dx).abs() / len
    }
}

fn step_cost(a: Square, b: Square) -> f64 {
    if a.column() != b.column() && a.row() != b.row() {
        std::f64::consts::SQRT_2
    } else {
        1.0
    }
}

fn neighbours(s: Square, four: bool) -> impl Iterator<Item = Square> {
    let (c, r) = (i32::from(s.column()), i32::from(s.row()));
    [
        (-1, -1),
        (0, -1),
        (1, -1),
        (-1, 0),
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
    ]
    .into_iter()
    .filter(move |(dc, dr)| !four || dc * dr == 0)
    .filter_map(move |(dc, dr)| Square::at_cell(c + dc, r + dr))
}

/// Each square's neighbours in the order of [`neighbours`] (8-connected), as (index, whether the step is
/// diagonal), and how many it has.
const NEIGHBOURS: [([(u8, bool); 8], u8); 30] = {
    let steps: [(i32, i32); 8] = [
        (-1, -1),
        (0, -1),
        (1, -1),
        (-1, 0),
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
    ];
    let (columns, rows) = (board::COLUMNS as i32, board::ROWS as i32);
    let mut table = [([(0u8, false); 8], 0u8); 30];
    let mut i = 0;
    while i < 30 {
        let (c, r) = (i as i32 % columns, i as i32 / columns);
        let mut k = 0;
        while k < 8 {
            let (dc, dr) = steps[k];
            let (nc, nr) = (c + dc, r + dr);
            if nc >= 0 && nc < columns && nr >= 0 && nr < rows {
                let n = table[i].1 as usize;
                table[i].0[n] = ((nr * columns + nc) as u8, dc * dr != 0);
                table[i].1 += 1;
            }
            k += 1;
        }
        i += 1;
    }
    table
};

/// The length of the quickest route from `from` to every square (`None` where none reaches), by Dijkstra's
/// search: the nearest square not yet done next, the lowest-numbered of equals.
fn distances(from: Square, blocked: &[bool; 30], four: bool) -> [Option<f64>; 30] {
    let mut dist = [None; 30];
    // The squares reached and not yet done, each once, in no order, with their distances.
    let mut open = [(0usize, 0.0f64); 30];
    let mut reached = 1;
    open[0] = (from.index(), 0.0);
    dist[from.index()] = Some(0.0);
    while reached > 0 {
        // The nearest square reached and not done, the lowest-numbered of equals.
        let mut at = 0;
        for k in 1..reached {
            let ((i, d), (ci, c)) = (open[k], open[at]);
            if d < c || (d == c && i < ci) {
                at = k;
            }
        }
        let (i, d) = open[at];
        reached -= 1;
        open[at] = open[reached];
        let (near, count) = &NEIGHBOURS[i];
        for &(n, diagonal) in &near[..usize::from(*count)] {
            let n = usize::from(n);
            if (four && diagonal) || blocked[n] {
                continue;
            }
            let nd = d + if diagonal {
                std::f64::consts::SQRT_2
            } else {
                1.0
            };
            match dist[n] {
                None => {
                    dist[n] = Some(nd);
                    open[reached] = (n, nd);
                    reached += 1;
                }
                Some(old) if nd < old - EPS => {
                    dist[n] = Some(nd);
                    // A square done is never nearer by a step from one done after it (the steps cost at
                    // least 1), so one nearer is still open.
                    if let Some(e) = open[..reached].iter_mut().find(|e| e.0 == n) {
                        e.1 = nd;
                    }
                }
                Some(_) => {}
            }
        }
    }
    dist
}

#[allow(clippy::too_many_arguments)]
fn walk(
    path: &mut Vec<Square>,
    to: Square,
    total: f64,
    dist_from: &[Option<f64>; 30],
    dist_to: &[Option<f64>; 30],
    blocked: &[bool; 30],
    four: bool,
    line: &((f64, f64), (f64, f64)),
    best: &mut Option<(f64, Vec<Square>)>,
) {
    let Some(&here) = path.last() else { return };
    if here == to {
        let score: f64 = path.iter().map(|&s| off_line(s, line)).sum();
        let better = match best {
            None => true,
            Some((b, bp)) => {
                score < *b - EPS || ((score - *b).abs() <= EPS && path.as_slice() < bp.as_slice())
            }
        };
        if better {
            *best = Some((score, path.clone()));
        }
        return;
    }
    let Some(d_here) = dist_from[here.index()] else {
        return;
    };
    for n in neighbours(here, four) {
        if blocked[n.index()] {
            continue;
        }
        let (Some(dn), Some(rest)) = (dist_from[n.index()], dist_to[n.index()]) else {
            continue;
        };
        let d = d_here + step_cost(here, n);
        if (d - dn).abs() <= EPS && (d + rest - total).abs() <= EPS {
            path.push(n);
            walk(
                path, to, total, dist_from, dist_to, blocked, four, line, best,
            );
            path.pop();
        }
    }
}

/// The map that is played: terrain, road and river, farm roads, bridge, fords and the river's flow (D8-SET-38).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "MapData", into = "MapData"))]
pub struct Map {
    data: MapData,
}

/// The plain data of a [`Map`], as serialised; [`Map::new`] checks it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct MapData {
    /// Each piece and its square, in rolling order.
    pub pieces: Vec<(Piece, Square)>,
    /// The road.
    pub road: Feature,
    /// Farm roads: each from a road square to a farm square.
    pub branches: Vec<Vec<Square>>,
    /// The river.
    pub river: Feature,
    /// The bridge's square, where the road meets the river.
    pub bridge: Option<Square>,
    /// The fords' squares (at most 2).
    pub fords: Vec<Square>,
    /// The river's downstream end (D8-SET-13): its start or its finish.
    pub downstream: Square,
}

impl TryFrom<MapData> for Map {
    type Error = D8Error;
    fn try_from(d: MapData) -> Result<Map, D8Error> {
        Map::new(d)
    }
}

impl From<Map> for MapData {
    fn from(m: Map) -> MapData {
        m.data
    }
}

fn bad(msg: impl Into<String>) -> D8Error {
    D8Error::BadMap(msg.into())
}

fn check_route(name: &str, r: &[Square], blocked: &[bool; 30]) -> Result<(), D8Error> {
    if r.is_empty() {
        return Err(bad(format!("the {name} has no squares")));
    }
    for w in r.windows(2) {
        if !w[0].touches(w[1], true) {
            return Err(bad(format!("the {name} jumps from {} to {}", w[0], w[1])));
        }
    }
    if let Some(s) = r.iter().find(|s| blocked[s.index()]) {
        return Err(bad(format!("the {name} runs over the hill in {s}")));
    }
    Ok(())
}

impl Map {
    /// A map from its data, checked: the pieces (2 hills, 2 farms, 2 woods, 1 broken ground, and 0 or 2 fields)
    /// one to a square (D8-SET-06); road and river from perimeter end points through touching squares, never over
    /// a hill (D8-SET-08 to D8-SET-10); farm roads from the road to each farm it misses (D8-SET-11); the bridge on
    /// a square of both road and river, at most 2 fords on other river squares (D8-SET-12); the downstream end one
    /// of the river's ends (D8-SET-13).
    pub fn new(data: MapData) -> Result<Map, D8Error> {
        let mut at: [Option<Piece>; 30] = [None; 30];
        for &(p, s) in &data.pieces {
            if let Some(q) = at[s.index()] {
                return Err(bad(format!("{s} holds both a {q} and a {p}")));
            }
            at[s.index()] = Some(p);
        }
        let count = |k: Piece| data.pieces.iter().filter(|(p, _)| *p == k).count();
        for (k, n) in [
            (Piece::Hill, 2),
            (Piece::Farm, 2),
            (Piece::Wood, 2),
            (Piece::BrokenGround, 1),
        ] {
            if count(k) != n {
                return Err(bad(format!("it needs {n} pieces of {k}, not {}", count(k))));
            }
        }
        if !matches!(count(Piece::Field), 0 | 2) {
            return Err(bad(format!(
                "separate enclosed fields come in a pair, not {}",
                count(Piece::Field)
            )));
        }
        let mut hills = [false; 30];
        for (p, s) in &data.pieces {
            if *p == Piece::Hill {
                hills[s.index()] = true;
            }
        }
        for (name, f) in [("road", &data.road), ("river", &data.river)] {
            if !f.start.on_perimeter() || !f.finish.on_perimeter() {
                return Err(bad(format!(
                    "the {name} must start and finish on the table edge"
                )));
            }
            check_route(name, &f.route, &hills)?;
            if f.route.first() != Some(&f.start) || f.route.last() != Some(&f.finish) {
                return Err(bad(format!(
                    "the {name}'s route must run from {} to {}",
                    f.start, f.finish
                )));
            }
        }
        for b in &data.branches {
            check_route("farm road", b, &hills)?;
            let (Some(first), Some(last)) = (b.first(), b.last()) else {
                return Err(bad("a farm road has no squares"));
            };
            if !data.road.route.contains(first) || at[last.index()] != Some(Piece::Farm) {
                return Err(bad(format!(
                    "the farm road from {first} must run from the road to a farm"
                )));
            }
        }
        for (p, s) in &data.pieces {
            // A farm needs a road, unless the hills shut it off from the road along the sides of squares (possible
            // only with 4-connected routes).
            if *p == Piece::Farm
                && !data.road.route.contains(s)
                && !data.branches.iter().any(|b| b.last() == Some(s))
                && data
                    .road
                    .route
                    .iter()
                    .any(|&r| route(r, *s, &hills, true).is_some())
            {
                return Err(bad(format!("the farm in {s} has no road")));
            }
        }
        if let Some(b) = data.bridge
            && !(data.road.route.contains(&b) && data.river.route.contains(&b))
        {
            return Err(bad(format!(
                "the bridge in {b} is not where the road meets the river"
            )));
        }
        if data.fords.len() > 2 {
            return Err(bad(format!(
                "a river has at most 2 fords, not {}",
                data.fords.len()
            )));
        }
        for (i, f) in data.fords.iter().enumerate() {
            if !data.river.route.contains(f)
                || Some(*f) == data.bridge
                || data.fords[..i].contains(f)
            {
                return Err(bad(format!(
                    "the ford in {f} must be on another river square"
                )));
            }
        }
        if data.downstream != data.river.start && data.downstream != data.river.finish {
            return Err(bad("the river must flow to one of its ends"));
        }
        Ok(Map { data })
    }

    /// The map's data.
    #[must_use]
    pub fn data(&self) -> &MapData {
        &self.data
    }

    /// The piece in a square, if any.
    #[must_use]
    pub fn piece(&self, s: Square) -> Option<Piece> {
        self.data
            .pieces
            .iter()
            .find(|(_, q)| *q == s)
            .map(|(p, _)| *p)
    }

    /// D8-SET-38: generates one map. The draws, in order: a D30 for each piece in rolling order (re-rolling taken
    /// squares, D8-SET-07); D20s for the road's start and finish, then the river's (one pair for both under the
    /// shared option), each re-rolled at once if it names a hill (D8-SET-08); routes for road then river
    /// (D8-SET-10, re-rolling the finish when 4-connected routes find none); farm roads (D8-SET-11); the bridge,
    /// then the fords, each a uniform pick of the remaining river squares by a die with as many faces (none when one
    /// is left, D8-SET-12); the flow (D8-SET-13).
    pub fn generate<D: Dice + ?Sized>(dice: &mut D, options: &Options) -> Result<Map, D8Error> {
        let mut taken = [false; 30];
        let mut placed = Vec::new();
        for &piece in pieces(options.separate_fields) {
            let f = reroll(dice, Die::D30, "a terrain square", |f| {
                !taken[usize::from(f - 1)]
            })?;
            taken[usize::from(f - 1)] = true;
            placed.push((piece, Square(f as u8)));
        }
        let mut hills = [false; 30];
        for (p, s) in &placed {
            if *p == Piece::Hill {
                hills[s.index()] = true;
            }
        }
        let four = options.four_connected_routes;
        let corner = options.reroll_corner_labels;
        let end = |dice: &mut D| -> Result<Square, D8Error> {
            let f = reroll(dice, Die::D20, "a road or river end", |f| {
                !(corner && f >= 19) && perimeter_square(f).is_some_and(|s| !hills[s.index()])
            })?;
            perimeter_square(f).ok_or_else(|| bad("a D20 face off the perimeter grid"))
        };
        let feature = |dice: &mut D| -> Result<Feature, D8Error> {
            let start = end(dice)?;
            let mut finish = end(dice)?;
            let mut tries = 0;
            loop {
                if let Some(r) = route(start, finish, &hills, four) {
                    return Ok(Feature {
                        start,
                        finish,
                        route: r,
                    });
                }
                tries += 1;
                if tries > crate::dice_util::MAX_REROLLS {
                    return Err(bad("no route could be found round the hills"));
                }
                finish = end(dice)?;
            }
        };
        let road = feature(dice)?;
        let river = if options.shared_endpoints {
            let r = route(road.start, road.finish, &hills, four)
                .ok_or_else(|| bad("no river route"))?;
            Feature {
                start: road.start,
                finish: road.finish,
                route: r,
            }
        } else {
            feature(dice)?
        };
        let branches = farm_roads(&placed, &road.route, &hills, four);
        let bridge = road.route.iter().copied().find(|s| river.route.contains(s));
        let mut left: Vec<Square> = river
            .route
            .iter()
            .copied()
            .filter(|s| Some(*s) != bridge)
            .collect();
        left.dedup();
        let mut fords = Vec::new();
        while fords.len() < 2 && !left.is_empty() {
            // A die with as many faces as river squares left (none needed for the last one).
            let i = match Die::new(left.len() as u16) {
                Ok(die) => usize::from(die.roll(dice)) - 1,
                Err(_) => 0,
            };
            check(dice)?;
            fords.push(left.remove(i.min(left.len() - 1)));
        }
        let downstream = flow(&river, options.river_flows_start_to_finish);
        Map::new(MapData {
            pieces: placed,
            road,
            branches,
            river,
            bridge,
            fords,
            downstream,
        })
    }
}

/// D8-SET-11: a farm road for each farm the road misses, in placement order: the quickest route from the road
/// square nearest by route (ties to the one nearer the road's start) to the farm.
#[must_use]
pub fn farm_roads(
    placed: &[(Piece, Square)],
    road: &[Square],
    hills: &[bool; 30],
    four: bool,
) -> Vec<Vec<Square>> {
    let mut out = Vec::new();
    // The distances from each road square, measured the first time a farm needs them and kept for the rest.
    let mut from_road: Vec<Option<[Option<f64>; 30]>> = vec![None; road.len()];
    let len = |v: &[Square]| v.windows(2).map(|w| step_cost(w[0], w[1])).sum::<f64>();
    for (p, farm) in placed {
        if *p != Piece::Farm || road.contains(farm) {
            continue;
        }
        if hills[farm.index()] {
            continue;
        }
        let to_farm = distances(*farm, hills, four);
        // The least distance from the farm to a road square: the nearest road square's route is that long.
        let least = road
            .iter()
            .filter(|r| !hills[r.index()])
            .filter_map(|r| to_farm[r.index()])
            .fold(f64::INFINITY, f64::min);
        let mut best: Option<(Vec<Square>, f64)> = None;
        for (i, &r) in road.iter().enumerate() {
            if hills[r.index()] {
                continue;
            }
            // The route from `r`, if any, is as long as the quickest way between the two (`to_farm` at `r`:
            // the steps cost the same both ways), to within far less than `SKIP` (its steps each agree with
            // the distances to within `EPS`). A road square that no route joins to the farm, whose route is
            // longer than the nearest's (routes of different lengths differ by far more than `SKIP`: sums of
            // a few steps of 1 and √2), or whose route could not be shorter than the best by more than `EPS`
            // is passed over unmeasured: the first road square whose route is the shortest is kept.
            const SKIP: f64 = 1e-6;
            let Some(near) = to_farm[r.index()] else {
                continue;
            };
            if near - SKIP > least
                || best
                    .as_ref()
                    .is_some_and(|(_, cur)| near - SKIP >= cur - EPS)
            {
                continue;
            }
            let from = from_road[i].get_or_insert_with(|| distances(r, hills, four));
            if let Some(b) = route_measured(r, *farm, from, &to_farm, hills, four) {
                let l = len(&b);
                if best.as_ref().is_none_or(|(_, cur)| l < cur - EPS) {
                    best = Some((b, l));
                }
            }
        }
        out.extend(best.map(|(b, _)| b));
    }
    out
}

/// D8-SET-13: the river's downstream end: the more southerly end (the finish when both are in one row), or the
/// finish under the start-to-finish option.
#[must_use]
pub fn flow(river: &Feature, start_to_finish: bool) -> Square {
    if !start_to_finish && river.start.row() > river.finish.row() {
        river.start
    } else {
        river.finish
    }
}

/// D8-MOV-24: whether a boat going from `from` to `to` along the river goes downstream.
#[must_use]
pub fn downstream(map: &Map, from: Square, to: Square) -> bool {
    let r = &map.data.river.route;
    let pos = |s: Square| r.iter().position(|&q| q == s);
    match (pos(from), pos(to)) {
        (Some(a), Some(b)) => (b > a) == (map.data.downstream == map.data.river.finish),
        _ => false,
    }
}

/// The three maps and the one played (D8-SET-14).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Maps {
    /// The Union player's map.
    pub union: Map,
    /// The Confederate player's map.
    pub confederate: Map,
    /// The umpire's map.
    pub umpire: Map,
    /// The umpire's D3 choice.
    pub chosen: MapOwner,
}

impl Maps {
    /// D8-SET-14: the Union, Confederate and umpire maps, generated in that order, then the umpire's D3.
    pub fn generate<D: Dice + ?Sized>(dice: &mut D, options: &Options) -> Result<Maps, D8Error> {
        let union = Map::generate(dice, options)?;
        let confederate = Map::generate(dice, options)?;
        let umpire = Map::generate(dice, options)?;
        let chosen = MapChoice.roll(dice);
        check(dice)?;
        Ok(Maps {
            union,
            confederate,
            umpire,
            chosen,
        })
    }

    /// The map that is played.
    #[must_use]
    pub fn played(&self) -> &Map {
        match self.chosen {
            MapOwner::Union => &self.union,
            MapOwner::Confederate => &self.confederate,
            MapOwner::Umpire => &self.umpire,
        }
    }
}
