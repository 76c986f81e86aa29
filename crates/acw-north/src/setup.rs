//! Setting up a battle: force lists, their validation (NORTH-SET-03, NORTH-SET-04), the default scenario
//! (NORTH-SET-11), deployment zones and the terrain questions the rules ask (NORTH-SET-08, NORTH-SET-09).

use crate::error::SetupError;
use crate::options::Options;
use crate::sequence::Clock;
use crate::state::{
    Battle, Brigade, BrigadeId, General, GeneralId, GeneralStatus, GunState, MeleeRecord,
    PhaseRecord, Rank, Stamp, Unit, UnitId, UnitStatus,
};
use crate::tables::{
    ARMY_MAX_UNITS, ARMY_MIN_UNITS, BRIGADE_MAX_UNITS, BRIGADE_MIN_UNITS, BrigadeOrder, Formation,
    MIN_STANDS_IN_PLAY, MgPlacement, Quality, Troop, formation_is_legal, mg_placement,
    starting_stands,
};
use acw_core::measure::{Heading, Inches, Point};
use acw_core::vocab::Mount;
use acw_core::{Arm, BySide, Side, Strength};

/// One unit of a force list (NORTH-SET-01, NORTH-SET-02).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct UnitSpec {
    /// Its name.
    pub name: String,
    /// Infantry, cavalry or artillery.
    pub arm: Arm,
    /// Elite, standard or poor: sets the starting stands.
    pub quality: Quality,
    /// Its formation at the start.
    pub formation: Formation,
    /// Cavalry only: starts dismounted (3 + 1 stands for a standard unit).
    pub dismounted: bool,
}

impl UnitSpec {
    /// An infantry regiment in line.
    pub fn infantry(name: impl Into<String>, quality: Quality) -> UnitSpec {
        UnitSpec {
            name: name.into(),
            arm: Arm::Infantry,
            quality,
            formation: Formation::Line,
            dismounted: false,
        }
    }
    /// A mounted cavalry regiment in line.
    pub fn cavalry(name: impl Into<String>, quality: Quality) -> UnitSpec {
        UnitSpec {
            name: name.into(),
            arm: Arm::Cavalry,
            quality,
            formation: Formation::Line,
            dismounted: false,
        }
    }
    /// An unlimbered battery.
    pub fn artillery(name: impl Into<String>, quality: Quality) -> UnitSpec {
        UnitSpec {
            name: name.into(),
            arm: Arm::Artillery,
            quality,
            formation: Formation::Unlimbered,
            dismounted: false,
        }
    }
    /// The same unit in another starting formation.
    #[must_use]
    pub fn in_formation(mut self, formation: Formation) -> UnitSpec {
        self.formation = formation;
        self
    }
    /// The same cavalry unit, dismounted at the start.
    #[must_use]
    pub fn dismounted(mut self) -> UnitSpec {
        self.dismounted = true;
        self
    }
}

/// One brigade of a force list: its MG, its initial order and 2–5 units (NORTH-SET-04, NORTH-SET-06).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BrigadeSpec {
    /// Its name.
    pub name: String,
    /// Its Major General's name.
    pub major_general: String,
    /// NORTH-SET-06: its initial order.
    pub order: BrigadeOrder,
    /// Its units.
    pub units: Vec<UnitSpec>,
}

/// One side's army: its Army Commander and its brigades (NORTH-SET-03, NORTH-SET-05).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ArmySpec {
    /// The Army Commander's name.
    pub army_commander: String,
    /// The unit the AC starts with, as (brigade index, unit index in the brigade), if any.
    pub army_commander_with: Option<(usize, usize)>,
    /// Its brigades.
    pub brigades: Vec<BrigadeSpec>,
}

impl ArmySpec {
    /// Units in the army (NORTH-SET-03 counts every arm, and no generals).
    #[must_use]
    pub fn unit_count(&self) -> usize {
        self.brigades.iter().map(|b| b.units.len()).sum()
    }
}

/// Both armies (NORTH-SET-07: Union and Confederates).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ForceSpec {
    /// The army of each side.
    pub armies: BySide<ArmySpec>,
}

/// NORTH-SET-04: a brigade must have 2–5 units.
pub fn validate_brigade(b: &BrigadeSpec) -> Result<(), SetupError> {
    let n = b.units.len();
    if !(BRIGADE_MIN_UNITS..=BRIGADE_MAX_UNITS).contains(&n) {
        return Err(SetupError::BrigadeSize {
            name: b.name.clone(),
            units: n,
        });
    }
    Ok(())
}

/// NORTH-SET-03: an army must field 10–20 units (any number of at least one under NORTH-OPT-39).
pub fn validate_army_size(
    side: Side,
    army: &ArmySpec,
    options: &Options,
) -> Result<(), SetupError> {
    let n = army.unit_count();
    let ok = if options.allow_non_standard_army_size {
        n >= 1
    } else {
        (ARMY_MIN_UNITS..=ARMY_MAX_UNITS).contains(&n)
    };
    if ok {
        Ok(())
    } else {
        Err(SetupError::ArmySize {
            needs: if options.allow_non_standard_army_size {
                "at least one"
            } else {
                "10 to 20"
            },
            side,
            units: n,
        })
    }
}

/// NORTH-SET-01 / NORTH-MOV-01: a unit's starting formation must suit its kind; only cavalry dismount.
pub fn validate_unit(u: &UnitSpec, options: &Options) -> Result<(), SetupError> {
    if u.dismounted && u.arm != Arm::Cavalry {
        return Err(SetupError::DismountedNonCavalry {
            name: u.name.clone(),
        });
    }
    let mount = if u.dismounted {
        Mount::Dismounted
    } else {
        Mount::Mounted
    };
    let troop = Troop::of(u.arm, mount);
    if !formation_is_legal(troop, u.formation, options) {
        return Err(SetupError::IllegalFormation {
            name: u.name.clone(),
            troop,
            formation: u.formation,
        });
    }
    let stands = starting_stands(u.arm, u.quality);
    let counted = if u.dismounted && !options.horse_holder_counted {
        stands - 1
    } else {
        stands
    };
    if u.arm != Arm::Artillery && counted < MIN_STANDS_IN_PLAY {
        return Err(SetupError::TooFewStands {
            name: u.name.clone(),
            stands: counted,
        });
    }
    Ok(())
}

/// NORTH-SET-03 / NORTH-SET-04 / NORTH-SET-05: validates a whole force list.
pub fn validate_forces(forces: &ForceSpec, options: &Options) -> Result<(), SetupError> {
    options.validate()?;
    let mut names: Vec<&str> = Side::both()
        .flat_map(|side| forces.armies.get(side).brigades.iter())
        .flat_map(|b| b.units.iter().map(|u| u.name.as_str()))
        .collect();
    names.sort_unstable();
    if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
        return Err(SetupError::DuplicateName(w[0].to_string()));
    }
    for side in Side::both() {
        let army = forces.armies.get(side);
        validate_army_size(side, army, options)?;
        if let Some((bi, ui)) = army.army_commander_with
            && army
                .brigades
                .get(bi)
                .and_then(|b| b.units.get(ui))
                .is_none()
        {
            return Err(SetupError::ArmyCommanderPlacement { side });
        }
        for b in &army.brigades {
            validate_brigade(b)?;
            for u in &b.units {
                validate_unit(u, options)?;
            }
        }
    }
    Ok(())
}

fn id32(n: usize, what: &'static str) -> Result<u32, SetupError> {
    u32::try_from(n).map_err(|_| SetupError::TooMany(what))
}

impl Battle {
    /// Sets up a battle from a validated force list (NORTH-SET-03 to NORTH-SET-07, NORTH-SET-10). The game
    /// must have a turn limit (NORTH-SEQ-09); see [`Battle::new_with_own_end`] otherwise.
    ///
    /// ```
    /// use acw_north::{Battle, Options, setup::default_forces};
    /// let battle = Battle::new(&default_forces(), Options::default())?;
    /// assert_eq!(battle.units().len(), 28);
    /// # Ok::<(), acw_north::error::SetupError>(())
    /// ```
    pub fn new(forces: &ForceSpec, options: Options) -> Result<Battle, SetupError> {
        if options.turn_limit.is_none() {
            return Err(SetupError::NoTurnLimit);
        }
        Battle::new_with_own_end(forces, options)
    }

    /// As [`Battle::new`], but accepts `turn_limit: None` for a scenario that supplies its own end predicate
    /// (NORTH-VIC-01, NORTH-OPT-40).
    pub fn new_with_own_end(forces: &ForceSpec, options: Options) -> Result<Battle, SetupError> {
        validate_forces(forces, &options)?;
        let mut units = Vec::new();
        let mut brigades = Vec::new();
        let mut generals = Vec::new();
        let mut acs = BySide::new(GeneralId(0), GeneralId(0));
        for side in Side::both() {
            let army = forces.armies.get(side);
            let ac_id = GeneralId(id32(generals.len(), "generals")?);
            acs[side] = ac_id;
            generals.push(General {
                id: ac_id,
                name: army.army_commander.as_str().into(),
                side,
                rank: Rank::ArmyCommander,
                status: GeneralStatus::Active,
                with_unit: None,
                moved: Inches(0.0),
            });
            for (bi, b) in army.brigades.iter().enumerate() {
                let bid = BrigadeId(id32(brigades.len(), "brigades")?);
                let mg = GeneralId(id32(generals.len(), "generals")?);
                let mut ids = Vec::with_capacity(b.units.len());
                for (ui, spec) in b.units.iter().enumerate() {
                    let uid = UnitId(id32(units.len(), "units")?);
                    ids.push(uid);
                    if army.army_commander_with == Some((bi, ui))
                        && let Some(ac) = generals.get_mut(ac_id.0 as usize)
                    {
                        ac.with_unit = Some(uid);
                    }
                    units.push(new_unit(uid, side, bid, spec));
                }
                generals.push(General {
                    id: mg,
                    name: b.major_general.as_str().into(),
                    side,
                    rank: Rank::MajorGeneral(bid),
                    status: GeneralStatus::Active,
                    with_unit: None,
                    moved: Inches(0.0),
                });
                brigades.push(Brigade {
                    id: bid,
                    name: b.name.as_str().into(),
                    side,
                    order: b.order,
                    mg,
                    units: ids.into(),
                    leaderless: false,
                    order_change_used: false,
                    order_check_due: false,
                });
            }
        }
        Ok(Battle {
            units: units.into(),
            brigades,
            generals,
            army_commanders: acs,
            clock: Clock::new(options.first_side),
            options,
            ac_order_used: false,
            declared: Vec::new(),
            declared_category: None,
            over: false,
            morale: None,
        })
    }

    /// Checks every invariant a state reached by the rules keeps (used when loading a saved state).
    pub fn check_invariants(&self) -> Result<(), SetupError> {
        let bad = |m: String| Err(SetupError::Inconsistent(m));
        self.options.validate()?;
        for (i, u) in self.units.iter().enumerate() {
            if (u.id.0 as usize) != i {
                return bad(format!("{} stored at {i}", u.id));
            }
            let Some(b) = self.brigades.get(u.brigade.0 as usize) else {
                return bad(format!("{} names no brigade", u.id));
            };
            if b.side != u.side || !b.units.contains(&u.id) {
                return bad(format!("{} is not in its brigade", u.id));
            }
            if u.mount == Mount::Dismounted && u.arm != Arm::Cavalry {
                return bad(format!("{} is dismounted but not cavalry", u.id));
            }
            if u.holder && u.mount != Mount::Dismounted {
                return bad(format!("{} holds horses but is mounted", u.id));
            }
            if !formation_is_legal(u.troop(), u.formation, &self.options) {
                return bad(format!("{} is in an illegal formation", u.id));
            }
            if (u.arm == Arm::Artillery) != u.gun.is_some() {
                return bad(format!("{} has a gun state that does not fit", u.id));
            }
            if u.stands.original() != u32::from(starting_stands(u.arm, u.quality)) {
                return bad(format!(
                    "{} started with {} stands, not the {} its kind and quality give",
                    u.id,
                    u.stands.original(),
                    starting_stands(u.arm, u.quality)
                ));
            }
            if u.in_play() && u.stands.current() == 0 {
                return bad(format!("{} is in play with no stands", u.id));
            }
            if u.in_play()
                && u.arm != Arm::Artillery
                && u.counted_stands(&self.options) < MIN_STANDS_IN_PLAY
            {
                return bad(format!("{} is in play below three stands", u.id));
            }
            for c in &u.contacts {
                match self.units.get(c.0 as usize) {
                    Some(o) if o.side != u.side && o.contacts.contains(&u.id) => {}
                    _ => return bad(format!("{} has a one-sided contact", u.id)),
                }
            }
            if !u.in_play() && !u.contacts.is_empty() {
                return bad(format!("{} is out of play but in contact", u.id));
            }
        }
        for (i, b) in self.brigades.iter().enumerate() {
            if (b.id.0 as usize) != i {
                return bad(format!("{} stored at {i}", b.id));
            }
            if !(BRIGADE_MIN_UNITS..=BRIGADE_MAX_UNITS).contains(&b.units.len()) {
                return bad(format!("{} has {} units", b.id, b.units.len()));
            }
            match self.generals.get(b.mg.0 as usize) {
                Some(g) if g.rank == Rank::MajorGeneral(b.id) && g.side == b.side => {
                    if g.is_active() == b.leaderless {
                        return bad(format!("{} leaderless flag disagrees", b.id));
                    }
                }
                _ => return bad(format!("{} has no MG", b.id)),
            }
        }
        for (i, g) in self.generals.iter().enumerate() {
            if (g.id.0 as usize) != i {
                return bad(format!("{} stored at {i}", g.id));
            }
            if let Some(w) = g.with_unit
                && self
                    .units
                    .get(w.0 as usize)
                    .is_none_or(|u| u.side != g.side)
            {
                return bad(format!("{} is with a unit not his own", g.id));
            }
        }
        for side in Side::both() {
            match self.generals.get(self.army_commanders[side].0 as usize) {
                Some(g) if g.rank == Rank::ArmyCommander && g.side == side => {}
                _ => return bad(format!("the {side} Army Commander is missing")),
            }
        }
        let mut names: Vec<&str> = self.units.iter().map(|u| u.name()).collect();
        names.sort_unstable();
        if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
            return Err(SetupError::DuplicateName(w[0].to_string()));
        }
        if let Some(m) = &self.morale {
            let checking = self.units.get(m.unit.0 as usize);
            if checking.is_none_or(|u| !u.in_play())
                || m.rallies.len() > 2
                || (m.rallies_closed && m.face.is_none())
            {
                return bad("a morale check in progress does not fit its unit".into());
            }
        }
        Ok(())
    }
}

fn new_unit(id: UnitId, side: Side, brigade: BrigadeId, spec: &UnitSpec) -> Unit {
    let start = starting_stands(spec.arm, spec.quality);
    let dismounted = spec.dismounted && spec.arm == Arm::Cavalry;
    Unit {
        id,
        name: spec.name.as_str().into(),
        side,
        brigade,
        arm: spec.arm,
        quality: spec.quality,
        stands: Strength::full(u32::from(start)),
        mount: if dismounted {
            Mount::Dismounted
        } else {
            Mount::Mounted
        },
        holder: dismounted,
        formation: spec.formation,
        gun: (spec.arm == Arm::Artillery).then_some(GunState::Manned),
        own_order: None,
        contacts: Vec::new(),
        melee: MeleeRecord::default(),
        phase: PhaseRecord::default(),
        status: UnitStatus::InPlay,
        stamp: Stamp::fresh(),
    }
}

/// The serialised form of a [`Battle`], checked on loading so a file cannot make a state the rules could not
/// reach.
#[doc(hidden)]
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
pub struct BattleData {
    units: Vec<Unit>,
    brigades: Vec<Brigade>,
    generals: Vec<General>,
    army_commanders: BySide<GeneralId>,
    clock: Clock,
    options: Options,
    ac_order_used: bool,
    declared: Vec<crate::combat::AttackGroup>,
    declared_category: Option<crate::combat::Category>,
    over: bool,
    #[cfg_attr(feature = "serde", serde(default))]
    morale: Option<crate::morale::MoraleInProgress>,
}

impl TryFrom<BattleData> for Battle {
    type Error = SetupError;
    fn try_from(d: BattleData) -> Result<Battle, SetupError> {
        let b = Battle {
            units: d.units.into(),
            brigades: d.brigades,
            generals: d.generals,
            army_commanders: d.army_commanders,
            clock: d.clock,
            options: d.options,
            ac_order_used: d.ac_order_used,
            declared: d.declared,
            declared_category: d.declared_category,
            over: d.over,
            morale: d.morale,
        };
        b.check_invariants()?;
        Ok(b)
    }
}

/// The table and its deployment zones (NORTH-SET-08, NORTH-SET-11). The Union base edge is y = 0, the
/// Confederate base edge y = depth.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Table {
    /// Along the base edges.
    pub width: Inches,
    /// Between the base edges.
    pub depth: Inches,
    /// How far from its base edge each side sets up.
    pub deployment_depth: Inches,
}

impl Default for Table {
    /// NORTH-SET-11: 72" × 48", each side within 12" of its own long edge.
    fn default() -> Self {
        Table {
            width: Inches(72.0),
            depth: Inches(48.0),
            deployment_depth: Inches(12.0),
        }
    }
}

impl Table {
    /// The y coordinate of `side`'s base edge.
    #[must_use]
    pub fn base_edge_y(&self, side: Side) -> f64 {
        match side {
            Side::Union => 0.0,
            Side::Confederate => self.depth.0,
        }
    }

    /// Whether `p` is on the table.
    #[must_use]
    pub fn contains(&self, p: Point) -> bool {
        (0.0..=self.width.0).contains(&p.x) && (0.0..=self.depth.0).contains(&p.y)
    }

    /// NORTH-SET-08 / NORTH-SET-11: whether `p` lies in `side`'s deployment zone.
    #[must_use]
    pub fn in_deployment_zone(&self, side: Side, p: Point) -> bool {
        self.contains(p) && (p.y - self.base_edge_y(side)).abs() <= self.deployment_depth.0 + 1e-9
    }

    /// NORTH-SET-11: the gap between the two deployment zones (at least 24" on the default table).
    #[must_use]
    pub fn gap_between_zones(&self) -> Inches {
        Inches((self.depth.0 - 2.0 * self.deployment_depth.0).max(0.0))
    }

    /// The heading from `side`'s base edge toward the enemy's.
    #[must_use]
    pub fn facing_enemy(&self, side: Side) -> Heading {
        match side {
            Side::Union => Heading::NORTH,
            Side::Confederate => Heading::SOUTH,
        }
    }

    /// NORTH-MOV-14 / NORTH-CMD-02: how much a move from `from` to `to` closes on the enemy base edge
    /// (negative: it moved away, toward its own edge, NORTH-CMD-04).
    #[must_use]
    pub fn gain_toward_enemy(&self, side: Side, from: Point, to: Point) -> f64 {
        let edge = self.base_edge_y(side.enemy());
        (from.y - edge).abs() - (to.y - edge).abs()
    }
}

/// NORTH-SET-08 / NORTH-CMD-05: where an MG stands for his brigade's order, `offset` from the middle of the
/// brigade's front `centre` that faces `facing`: in front, behind, or behind facing the rear.
#[must_use]
pub fn mg_position(
    centre: Point,
    facing: Heading,
    order: BrigadeOrder,
    offset: Inches,
) -> (Point, Heading) {
    match mg_placement(order) {
        MgPlacement::InFront => (centre.moved(facing, offset), facing),
        MgPlacement::Behind => (centre.moved(facing.reversed(), offset), facing),
        MgPlacement::BehindFacingRear => {
            (centre.moved(facing.reversed(), offset), facing.reversed())
        }
    }
}

/// The questions the rules ask of the ground (NORTH-SET-09). The game layer answers them from its map; the
/// rules here take the answers as inputs.
pub trait Terrain {
    /// Whether a target at `target` is behind cover against an attacker at `attacker` (NORTH-CBT-05).
    fn behind_cover(&self, target: Point, attacker: Point) -> bool;
    /// Obstacles a move from `from` to `to` crosses (NORTH-MOV-12).
    fn obstacles_crossed(&self, from: Point, to: Point) -> u8;
    /// Whether a move crosses rough terrain (NORTH-FIR-04).
    fn crosses_rough(&self, from: Point, to: Point) -> bool;
    /// Whether the ground blocks the line of sight (NORTH-FIR-07).
    fn blocks_sight(&self, from: Point, to: Point) -> bool;
}

/// NORTH-SET-09: the table of acw-core answers the rules' questions from its terrain shapes. A linear cover
/// feature covers a target within [`crate::field::Bases::default`]'s cover depth (1.5") behind it.
impl Terrain for acw_core::table::Table {
    fn behind_cover(&self, target: Point, attacker: Point) -> bool {
        let depth = crate::field::Bases::default().cover_depth.0;
        self.terrain()
            .iter()
            .filter(|t| t.effects().cover)
            .any(|t| match t.shape() {
                acw_core::table::Shape::Area(_) => t.contains(target),
                acw_core::table::Shape::Line(_) => {
                    t.touches_segment(attacker, target) && t.distance_to(target).0 <= depth
                }
            })
    }
    fn obstacles_crossed(&self, from: Point, to: Point) -> u8 {
        u8::try_from(acw_core::table::Table::obstacles_crossed(self, from, to).count())
            .unwrap_or(u8::MAX)
    }
    fn crosses_rough(&self, from: Point, to: Point) -> bool {
        self.terrain()
            .iter()
            .any(|t| t.effects().rough && (t.touches_segment(from, to) || t.contains(from)))
    }
    fn blocks_sight(&self, from: Point, to: Point) -> bool {
        !self.line_of_sight(from, to, &[])
    }
}

/// NORTH-SET-11: one side's army in the default scenario: an AC (with a unit of the centre brigade), three
/// infantry brigades of three standard regiments and a standard battery, and a cavalry brigade of two
/// standard regiments; every brigade under Advance; foot and horse in line (mounted), guns unlimbered.
#[must_use]
pub fn default_army(side: Side) -> ArmySpec {
    let tag = match side {
        Side::Union => "USA",
        Side::Confederate => "CSA",
    };
    let mut brigades = Vec::new();
    for (b, place) in ["1st", "2nd", "3rd"].iter().enumerate() {
        let mut units: Vec<UnitSpec> = (1..=3)
            .map(|r| UnitSpec::infantry(format!("{tag} {place} Bde, Regt {r}"), Quality::Standard))
            .collect();
        units.push(UnitSpec::artillery(
            format!("{tag} {place} Bde, Battery"),
            Quality::Standard,
        ));
        brigades.push(BrigadeSpec {
            name: format!("{tag} {place} Brigade"),
            major_general: format!("{tag} MG {}", b + 1),
            order: BrigadeOrder::Advance,
            units,
        });
    }
    brigades.push(BrigadeSpec {
        name: format!("{tag} Cavalry Brigade"),
        major_general: format!("{tag} MG 4"),
        order: BrigadeOrder::Advance,
        units: (1..=2)
            .map(|r| UnitSpec::cavalry(format!("{tag} Cav Bde, Regt {r}"), Quality::Standard))
            .collect(),
    });
    ArmySpec {
        army_commander: format!("{tag} Army Commander"),
        army_commander_with: Some((1, 0)),
        brigades,
    }
}

/// NORTH-SET-11: the default scenario's forces, the same for both sides (14 units in 4 brigades each).
#[must_use]
pub fn default_forces() -> ForceSpec {
    ForceSpec {
        armies: BySide::new(default_army(Side::Union), default_army(Side::Confederate)),
    }
}

/// Where a scenario puts a unit (NORTH-SET-08): the centre of its footprint and its facing.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Placement {
    /// The unit's name in the force list.
    pub unit: String,
    /// Centre of its footprint.
    pub centre: Point,
    /// The way it faces.
    pub facing: Heading,
}

/// A scenario: forces, table, terrain, base sizes, placements and options (the turn limit among them)
/// (NORTH-SET-08, NORTH-SET-09, NORTH-SET-11). Loading one from a file checks all of it
/// ([`Scenario::validate`]); units without a placement are deployed in a line of brigades across their zone.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "ScenarioData"))]
pub struct Scenario {
    /// Both armies.
    pub forces: ForceSpec,
    /// The table's size and deployment zones.
    pub table: Table,
    /// Terrain features.
    pub terrain: Vec<acw_core::table::Terrain>,
    /// Base sizes.
    pub bases: crate::field::Bases,
    /// Units placed by the scenario; the rest deploy automatically.
    pub placements: Vec<Placement>,
    /// The options, turn limit included.
    pub options: Options,
}

/// A scenario as read from a file, before [`Scenario::validate`].
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[allow(dead_code)]
struct ScenarioData {
    forces: ForceSpec,
    table: Table,
    #[cfg_attr(feature = "serde", serde(default))]
    terrain: Vec<acw_core::table::Terrain>,
    #[cfg_attr(feature = "serde", serde(default))]
    bases: crate::field::Bases,
    #[cfg_attr(feature = "serde", serde(default))]
    placements: Vec<Placement>,
    options: Options,
}

impl TryFrom<ScenarioData> for Scenario {
    type Error = SetupError;
    fn try_from(d: ScenarioData) -> Result<Scenario, SetupError> {
        let s = Scenario {
            forces: d.forces,
            table: d.table,
            terrain: d.terrain,
            bases: d.bases,
            placements: d.placements,
            options: d.options,
        };
        s.validate()?;
        Ok(s)
    }
}

impl Default for Scenario {
    /// NORTH-SET-11: the default scenario: default forces on a 72" × 48" table, 12 turns, a fence line across
    /// the centre and a wood in each half.
    fn default() -> Self {
        Scenario {
            forces: default_forces(),
            table: Table::default(),
            terrain: default_terrain(),
            bases: crate::field::Bases::default(),
            placements: Vec::new(),
            options: Options::default(),
        }
    }
}

/// NORTH-SET-11: the default scenario's terrain: a fence (an obstacle giving cover) across the centre, and a
/// wood (cover, blocking sight) in each half, off the deployment zones.
#[must_use]
pub fn default_terrain() -> Vec<acw_core::table::Terrain> {
    let rect = |x0: f64, y0: f64, x1: f64, y1: f64| {
        vec![
            Point::new(x0, y0),
            Point::new(x1, y0),
            Point::new(x1, y1),
            Point::new(x0, y1),
        ]
    };
    [
        acw_core::table::Terrain::fence(
            "Centre fence",
            vec![Point::new(0.0, 24.0), Point::new(72.0, 24.0)],
        ),
        acw_core::table::Terrain::woods("Union wood", rect(46.0, 14.0, 54.0, 20.0)),
        acw_core::table::Terrain::woods("Confederate wood", rect(18.0, 28.0, 26.0, 34.0)),
    ]
    .into_iter()
    .flatten()
    .collect()
}

impl Scenario {
    /// Sets up the battle of this scenario (forces and options only; [`Scenario::validate`] checks the rest).
    pub fn battle(&self) -> Result<Battle, SetupError> {
        Battle::new(&self.forces, self.options.clone())
    }

    /// Checks everything: forces, options, table, zones, terrain, base sizes, and that every unit (placed
    /// or deployed) fits on the table inside its zone without overlapping another.
    pub fn validate(&self) -> Result<(), SetupError> {
        crate::game::State::new(self, 0).map(|_| ())
    }
}
