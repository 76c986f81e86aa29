//! Organisation, forces and scenarios: placing units and commanders, army generation from historical
//! strengths, rosters of virtual stands, and a seeded scenario generator.

use crate::board::{Area, Board, Facing, GridKind, Terrain};
use crate::error::{GridError, RuleViolation};
use crate::options::Options;
use crate::state::{Battle, BrigadeId, CommanderId, DivisionId, Rank, Stand, Unit, UnitId};
use crate::tables::{self, Firepower, Ground, OrgUnit, StandType};
use acw_core::dice::{Dice, Die};
use acw_core::vocab::{Formation, Mount};
use acw_core::{GameRng, Side};
use std::sync::Arc;

/// What a scenario places as one area unit (GRID-SET-12).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct UnitSpec {
    /// Its side.
    pub side: Side,
    /// Its area.
    pub area: Area,
    /// The side it faces (GRID-GEO-03).
    pub facing: Facing,
    /// Deployed ([`Formation::Line`]) or [`Formation::MarchColumn`].
    pub formation: Formation,
    /// Mount state of its cavalry; mounted unless the scenario says otherwise (Inferred).
    pub mount: Mount,
    /// Its stands, in the owner's order.
    pub stands: Vec<Stand>,
    /// Hidden (GRID-OPT-02).
    pub hidden: bool,
    /// Starts disordered (a scenario may say so).
    #[cfg_attr(feature = "serde", serde(default))]
    pub disordered: bool,
}

impl UnitSpec {
    /// GRID-SET-12: a deployed unit facing north, its cavalry mounted.
    #[must_use]
    pub fn new(side: Side, area: Area, stands: Vec<Stand>) -> UnitSpec {
        UnitSpec {
            side,
            area,
            facing: Facing::NORTH,
            formation: Formation::Line,
            mount: Mount::Mounted,
            stands,
            hidden: false,
            disordered: false,
        }
    }

    /// Facing `facing`.
    #[must_use]
    pub fn facing(mut self, facing: Facing) -> UnitSpec {
        self.facing = facing;
        self
    }

    /// In march column (limbered, for artillery).
    #[must_use]
    pub fn column(mut self) -> UnitSpec {
        self.formation = Formation::MarchColumn;
        self
    }

    /// With its cavalry dismounted.
    #[must_use]
    pub fn dismounted(mut self) -> UnitSpec {
        self.mount = Mount::Dismounted;
        self
    }

    /// Hidden (GRID-OPT-02).
    #[must_use]
    pub fn hidden(mut self) -> UnitSpec {
        self.hidden = true;
        self
    }

    /// Starting disordered.
    #[must_use]
    pub fn disordered(mut self) -> UnitSpec {
        self.disordered = true;
        self
    }
}

/// `n` identical stands (GRID-SET-06 brigades, GRID-OPT-03 rosters).
#[must_use]
pub fn stands(n: u8, stand: &Stand) -> Vec<Stand> {
    (0..n).map(|_| stand.clone()).collect()
}

/// GRID-SET-06: a standard organisational unit of `kind` as stands of `division` and `brigade`.
#[must_use]
pub fn standard_unit(kind: OrgUnit, division: DivisionId, brigade: BrigadeId) -> Vec<Stand> {
    let stand_type = match kind {
        OrgUnit::InfantryBrigade => StandType::Infantry,
        OrgUnit::CavalryBrigade => StandType::Cavalry,
        OrgUnit::Battery | OrgUnit::ArtilleryBattalion => StandType::Artillery,
    };
    stands(
        tables::standard_stands(kind),
        &Stand::new(stand_type, division, brigade),
    )
}

/// One line of a roster: `count` stands alike (GRID-OPT-03).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RosterLine {
    /// How many virtual stands.
    pub count: u8,
    /// What each is.
    pub stand: Stand,
}

/// GRID-OPT-03: a unit tracked on a roster as counts of virtual stands; expands to the stands the rules count
/// for dice and losses. An empty roster, or more stands than `limit`, is an error.
pub fn roster_stands(lines: &[RosterLine], limit: u8) -> Result<Vec<Stand>, GridError> {
    let total: u32 = lines.iter().map(|l| u32::from(l.count)).sum();
    if total == 0 || total > u32::from(limit) {
        return Err(GridError::OutOfRange {
            what: "stands on a roster",
            given: i64::from(total),
            min: 1,
            max: i64::from(limit),
        });
    }
    let mut v = Vec::with_capacity(total as usize);
    for l in lines {
        l.stand.validate()?;
        v.extend(stands(l.count, &l.stand));
    }
    Ok(v)
}

/// Army generation from historical strengths (GRID-SET-07). Loaded with the checks of [`ArmyScale::new`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "ArmyScaleRepr"))]
pub struct ArmyScale {
    men_per_stand: u32,
}

#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct ArmyScaleRepr {
    men_per_stand: u32,
}

#[cfg(feature = "serde")]
impl TryFrom<ArmyScaleRepr> for ArmyScale {
    type Error = GridError;
    fn try_from(r: ArmyScaleRepr) -> Result<ArmyScale, GridError> {
        ArmyScale::new(r.men_per_stand)
    }
}

impl Default for ArmyScale {
    fn default() -> Self {
        ArmyScale { men_per_stand: 450 }
    }
}

impl ArmyScale {
    /// GRID-SET-07: `men_per_stand` from 400 to 600 (default 450).
    pub fn new(men_per_stand: u32) -> Result<ArmyScale, GridError> {
        if !(400..=600).contains(&men_per_stand) {
            return Err(GridError::OutOfRange {
                what: "men per stand",
                given: i64::from(men_per_stand),
                min: 400,
                max: 600,
            });
        }
        Ok(ArmyScale { men_per_stand })
    }

    /// Men per stand.
    #[must_use]
    pub fn men_per_stand(&self) -> u32 {
        self.men_per_stand
    }

    /// Men per 3-stand unit.
    #[must_use]
    pub fn men_per_unit(&self) -> u32 {
        3 * self.men_per_stand
    }

    /// GRID-SET-07: units a division of `strength` men fields: round(strength ÷ men per unit), halves up.
    #[must_use]
    pub fn units_for_division(&self, strength: u32) -> u32 {
        round_div(strength, self.men_per_unit())
    }

    /// GRID-SET-07: artillery stands for `guns` guns: round(guns ÷ 7), halves up; each is a 1-stand battery.
    #[must_use]
    pub fn artillery_stands(&self, guns: u32) -> u32 {
        round_div(guns, 7)
    }
}

fn round_div(n: u32, d: u32) -> u32 {
    if d == 0 {
        0
    } else {
        ((u64::from(n) * 2 + u64::from(d)) / (2 * u64::from(d))) as u32
    }
}

impl Battle {
    /// Places a unit (GRID-SET-12). Refused if its area is off the board or holds enemy stands, if its side
    /// already has a unit there (stands in one area are one unit, GRID-SET-05: join instead), if the area
    /// would exceed the stacking limit (GRID-SET-10), if a stand's division has no Division Commander of its
    /// side (GRID-SET-04), or if it is hidden without the hidden-units option (GRID-OPT-02).
    pub fn deploy(&mut self, spec: UnitSpec) -> Result<UnitId, RuleViolation> {
        if !self.board.contains(spec.area) {
            return Err(GridError::OffBoard(spec.area).into());
        }
        Facing::new(self.board.kind(), spec.facing.index())?;
        if self.occupied_by(spec.area, spec.side.enemy()) {
            return Err(RuleViolation::EnemyInArea(spec.area));
        }
        if self.occupied_by(spec.area, spec.side) {
            return Err(RuleViolation::Inconsistent(
                "the side already has a unit in that area; stands there are one unit",
            ));
        }
        let limit = u32::from(self.options.scale.stack_limit());
        let n = spec.stands.len() as u32;
        if n > limit {
            return Err(RuleViolation::OverStacked {
                area: spec.area,
                stands: n,
                limit,
            });
        }
        for s in &spec.stands {
            if !self.has_division_commander(spec.side, s.division) {
                return Err(RuleViolation::Inconsistent(
                    "every stand needs a Division Commander of its side",
                ));
            }
        }
        if spec.hidden && !self.options.hidden_units {
            return Err(RuleViolation::Inconsistent(
                "hidden units need the hidden-units option",
            ));
        }
        let id = UnitId(self.next_unit);
        let mut u = Unit::new(
            id,
            spec.side,
            spec.area,
            spec.facing,
            spec.formation,
            spec.mount,
            spec.stands,
        )?;
        u.set_hidden(spec.hidden);
        u.set_disordered(spec.disordered);
        self.next_unit = self.next_unit.saturating_add(1);
        self.insert_unit(u);
        Ok(id)
    }

    fn has_division_commander(&self, side: Side, division: DivisionId) -> bool {
        self.commanders()
            .any(|c| c.side() == side && c.rank() == Rank::Division(division))
    }

    /// Places a commander (GRID-SET-03, GRID-SET-04). A Division Commander's superior must be a Corps
    /// Commander of his side; ids must be unique, and a division has one commander.
    pub fn add_commander(
        &mut self,
        id: CommanderId,
        side: Side,
        rank: Rank,
        superior: Option<CommanderId>,
        area: Area,
    ) -> Result<CommanderId, RuleViolation> {
        if !self.board.contains(area) {
            return Err(GridError::OffBoard(area).into());
        }
        if self.commander(id).is_ok() {
            return Err(GridError::DuplicateId(id.0).into());
        }
        if self.occupied_by(area, side.enemy()) {
            return Err(RuleViolation::EnemyInArea(area));
        }
        if let Rank::Division(d) = rank
            && self.has_division_commander(side, d)
        {
            return Err(RuleViolation::Inconsistent("a division has one commander"));
        }
        if let Some(s) = superior {
            let sup = self.commander(s)?;
            if sup.side() != side || sup.rank() != Rank::Corps || !matches!(rank, Rank::Division(_))
            {
                return Err(RuleViolation::Inconsistent(
                    "a Division Commander answers to a Corps Commander of his side",
                ));
            }
        }
        self.insert_commander(Battle::new_commander(id, side, rank, superior, area));
        Ok(id)
    }
}

/// A commander as a scenario places him.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CommanderSpec {
    /// His id.
    pub id: CommanderId,
    /// His side.
    pub side: Side,
    /// His rank.
    pub rank: Rank,
    /// A Division Commander's Corps Commander.
    pub superior: Option<CommanderId>,
    /// Where he starts.
    pub area: Area,
}

/// A scenario (GRID-SET-11): terrain and fortifications (on the board), the options (including the initiative
/// bonus of GRID-SEQ-04), commanders, units with their qualities, tenacity markers, facings, formations and
/// hidden state, the game length (GRID-SEQ-09) and the victory conditions (GRID-VIC-01). A scenario loaded from
/// a file is checked as [`Scenario::build`] checks it, so a loaded scenario always sets up.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "ScenarioRepr"))]
pub struct Scenario {
    /// The board and its terrain.
    pub board: Board,
    /// Options, including the initiative bonus.
    pub options: Options,
    /// Game length in turns (GRID-SEQ-09).
    pub turns: Option<u32>,
    /// Commanders, superiors first.
    pub commanders: Vec<CommanderSpec>,
    /// Units.
    pub units: Vec<UnitSpec>,
    /// How the game is won (GRID-VIC-01).
    #[cfg_attr(feature = "serde", serde(default))]
    pub victory: Victory,
}

#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct ScenarioRepr {
    board: Board,
    options: Options,
    turns: Option<u32>,
    commanders: Vec<CommanderSpec>,
    units: Vec<UnitSpec>,
    #[serde(default)]
    victory: Victory,
}

#[cfg(feature = "serde")]
impl TryFrom<ScenarioRepr> for Scenario {
    type Error = RuleViolation;
    fn try_from(r: ScenarioRepr) -> Result<Scenario, RuleViolation> {
        let s = Scenario {
            board: r.board,
            options: r.options,
            turns: r.turns,
            commanders: r.commanders,
            units: r.units,
            victory: r.victory,
        };
        s.build()?;
        Ok(s)
    }
}

/// GRID-VIC-01: how a scenario is won. The rules leave victory to the scenario; these are the conditions the
/// game layer checks at the end of every turn (and after every loss).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "VictoryRepr"))]
pub struct Victory {
    break_percent: u8,
    /// Shared between copies (the game state is copied for every order that rolls dice, and the objectives
    /// never change): saved as the list itself.
    #[cfg_attr(feature = "serde", serde(serialize_with = "save_objectives"))]
    objectives: Arc<[Area]>,
}

#[cfg(feature = "serde")]
fn save_objectives<S: serde::Serializer>(
    objectives: &Arc<[Area]>,
    s: S,
) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&**objectives, s)
}

#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct VictoryRepr {
    break_percent: u8,
    #[serde(default)]
    objectives: Vec<Area>,
}

#[cfg(feature = "serde")]
impl TryFrom<VictoryRepr> for Victory {
    type Error = GridError;
    fn try_from(r: VictoryRepr) -> Result<Victory, GridError> {
        Victory::new(r.break_percent, r.objectives)
    }
}

impl Default for Victory {
    /// An army breaks when it has lost half its stands; no objectives.
    fn default() -> Victory {
        Victory {
            break_percent: 50,
            objectives: Arc::from([]),
        }
    }
}

impl Victory {
    /// An army breaks (and its enemy wins) once it has lost `break_percent` per cent of the stands it started
    /// with (1 to 100); at the turn limit the side holding more of `objectives` wins, or else the side that
    /// lost fewer stands (by 2 or more; otherwise a draw).
    pub fn new(break_percent: u8, objectives: Vec<Area>) -> Result<Victory, GridError> {
        if !(1..=100).contains(&break_percent) {
            return Err(GridError::OutOfRange {
                what: "an army's break point in per cent",
                min: 1,
                max: 100,
                given: i64::from(break_percent),
            });
        }
        Ok(Victory {
            break_percent,
            objectives: objectives.into(),
        })
    }
    /// The share of its starting stands an army may lose before it breaks, in per cent.
    #[must_use]
    pub fn break_percent(&self) -> u8 {
        self.break_percent
    }
    /// The areas whose holding decides a game that reaches the turn limit.
    #[must_use]
    pub fn objectives(&self) -> &[Area] {
        &self.objectives
    }
    /// Whether an army that started with `start` stands has broken after losing `lost`.
    #[must_use]
    pub fn broken(&self, start: u32, lost: u32) -> bool {
        start > 0 && u64::from(lost) * 100 >= u64::from(start) * u64::from(self.break_percent)
    }
}

/// The seed of the default scenario: [`Scenario::default`] is [`Scenario::meeting_engagement`] from this seed,
/// on squares.
pub const DEFAULT_SCENARIO_SEED: u64 = 1863;

impl Default for Scenario {
    /// The meeting engagement of [`DEFAULT_SCENARIO_SEED`] on squares: the scenario a game played by name
    /// uses when no other is given.
    fn default() -> Scenario {
        Scenario::meeting_engagement(DEFAULT_SCENARIO_SEED, GridKind::Square)
    }
}

impl Scenario {
    /// GRID-SET-11: builds the battle, checking everything as [`Battle::deploy`] and
    /// [`Battle::add_commander`] do.
    pub fn build(&self) -> Result<Battle, RuleViolation> {
        let mut b = Battle::new(self.board.clone(), self.options.clone());
        b.set_turn_limit(self.turns);
        for &a in self.victory.objectives() {
            if !self.board.contains(a) {
                return Err(GridError::OffBoard(a).into());
            }
        }
        for c in &self.commanders {
            b.add_commander(c.id, c.side, c.rank, c.superior, c.area)?;
        }
        for u in &self.units {
            b.deploy(u.clone())?;
        }
        b.validate()?;
        Ok(b)
    }

    /// A seeded meeting engagement on a `kind` board 10 areas wide and 12 deep: scattered woods, broken
    /// ground and a hill, a road up the middle; each side a corps of two divisions (two 3-stand infantry
    /// brigades and a battery each) plus a cavalry brigade, facing each other across the board. The same seed
    /// gives the same scenario. The seed decides only the terrain of the middle rows and the units' qualities,
    /// never where anything stands, so every seed gives a scenario that sets up (the tests build a few hundred).
    #[must_use]
    pub fn meeting_engagement(seed: u64, kind: GridKind) -> Scenario {
        let mut rng = GameRng::seed(seed);
        let (w, h) = (10u32, 12u32);
        let mut board = Board::rectangle_within_limits(kind, w, h);
        // Row of an area in the rectangle (hex rows are offset by column).
        let row = |a: Area| match kind {
            GridKind::Square => a.y,
            GridKind::Hex => a.y + a.x.div_euclid(2),
        };
        for (a, terrain) in board.terrain_mut() {
            let r = row(a);
            if !(3..=8).contains(&r) {
                continue;
            }
            *terrain = match rng.face(Die::D6) * 10 + rng.face(Die::D6) {
                11..=14 => Terrain {
                    ground: Ground::Broken,
                    cover: true,
                    blocks_los: true,
                    ..Terrain::OPEN
                },
                15 | 16 | 21 => Terrain {
                    ground: Ground::Broken,
                    ..Terrain::OPEN
                },
                22 => Terrain {
                    elevation: 1,
                    ..Terrain::OPEN
                },
                23 => Terrain {
                    ground: Ground::Difficult,
                    cover: true,
                    ..Terrain::OPEN
                },
                _ => Terrain::OPEN,
            };
        }
        let mid = (w / 2) as i32;
        let mut road: Vec<Area> = board.areas().filter(|a| a.x == mid).collect();
        road.sort_by_key(|a| row(*a));
        let off_road = board.add_road_path_where_possible(&road);
        debug_assert_eq!(off_road, 0, "the road runs up one column of the board");

        let mut commanders = Vec::new();
        let mut units = Vec::new();
        let at = |x: i32, r: i32| match kind {
            GridKind::Square => Area::new(x, r),
            GridKind::Hex => Area::new(x, r - x.div_euclid(2)),
        };
        for (si, side) in [Side::Union, Side::Confederate].into_iter().enumerate() {
            let base = si as u32 * 100;
            let (front_row, back_row, facing) = if si == 0 {
                (1, 0, Facing::NORTH)
            } else {
                (h as i32 - 2, h as i32 - 1, Facing::NORTH.reversed(kind))
            };
            let corps = CommanderId(base + 1);
            commanders.push(CommanderSpec {
                id: corps,
                side,
                rank: Rank::Corps,
                superior: None,
                area: at(mid, back_row),
            });
            for d in 0..2u32 {
                let div = DivisionId(base + 10 + d);
                let dx = if d == 0 { 1 } else { 6 };
                commanders.push(CommanderSpec {
                    id: CommanderId(base + 10 + d),
                    side,
                    rank: Rank::Division(div),
                    superior: Some(corps),
                    area: at(dx + 1, back_row),
                });
                for b in 0..2u32 {
                    let brigade = BrigadeId(base + 20 + d * 10 + b);
                    let mut stand = Stand::new(StandType::Infantry, div, brigade);
                    match rng.face(Die::D6) {
                        1 => stand = stand.unsteady(),
                        6 => stand = stand.elite().tenacious(),
                        _ => {}
                    }
                    units.push(
                        UnitSpec::new(side, at(dx + b as i32 * 2, front_row), stands(3, &stand))
                            .facing(facing),
                    );
                }
                let gun = Stand::new(StandType::Artillery, div, BrigadeId(base + 40 + d))
                    .with_firepower(if rng.face(Die::D6) == 6 {
                        Firepower::Superior
                    } else {
                        Firepower::Normal
                    });
                units.push(UnitSpec::new(side, at(dx + 1, front_row), vec![gun]).facing(facing));
            }
            let cav = Stand::new(
                StandType::Cavalry,
                DivisionId(base + 11),
                BrigadeId(base + 50),
            );
            units.push(UnitSpec::new(side, at(mid, back_row), stands(3, &cav)).facing(facing));
        }
        Scenario {
            board,
            options: Options::default(),
            turns: Some(12),
            commanders,
            units,
            victory: Victory {
                break_percent: 50,
                objectives: Arc::from([at(mid, (h / 2) as i32 - 1), at(mid, (h / 2) as i32)]),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_of_generated_units() {
        // GRID-SET-07: 5,000 men at 450 a stand (1,350 a unit) → 3.7 → 4 units; 20 guns → 2.86 → 3 stands.
        let s = ArmyScale::default();
        assert_eq!(s.units_for_division(5000), 4);
        assert_eq!(s.artillery_stands(20), 3);
    }
}
