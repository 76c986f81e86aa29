//! The state a game holds: stands, area units, commanders, losses, the turn and phase — in a [`Battle`].
//!
//! A unit here is the rules unit of GRID-SET-05: every stand of one side in one area. Each stand keeps its
//! organisational identity (brigade and division), so brigades can be told apart inside a stack.

use crate::board::{Area, Board, Facing, FlankSide};
use crate::error::{GridError, RuleViolation};
use crate::options::Options;
use crate::tables::{self, Firepower, Mover, StandType};
use acw_core::vocab::{Formation, Limber, Mount};
use acw_core::{BySide, Side};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

macro_rules! id_type {
    ($name:ident, $prefix:literal, $doc:literal) => {
        #[doc = $doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[cfg_attr(feature = "serde", serde(transparent))]
        pub struct $name(pub u32);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}{}", $prefix, self.0)
            }
        }
    };
}

id_type!(UnitId, "unit ", "Identifies an area unit.");
id_type!(CommanderId, "commander ", "Identifies a commander piece.");
id_type!(
    DivisionId,
    "division ",
    "Identifies a division (every stand belongs to one, GRID-SET-04)."
);
id_type!(
    BrigadeId,
    "brigade ",
    "Identifies an organisational unit: a brigade or battery (GRID-SET-05)."
);

/// One stand and its fixed attributes (GRID-SET-03, GRID-SET-08), plus its per-turn state.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Stand {
    /// Infantry, cavalry, artillery or wagons.
    pub kind: StandType,
    /// Superior, normal or inferior firepower.
    pub firepower: Firepower,
    /// Shock troops: +1 per die in combat.
    pub shock: bool,
    /// Elite: +1 on morale.
    pub elite: bool,
    /// Unsteady: −1 per die in combat and −1 on morale.
    pub unsteady: bool,
    /// Carries a tenacity marker (GRID-CAS-06).
    pub tenacity: bool,
    /// The division it answers to.
    pub division: DivisionId,
    /// Its brigade or battery.
    pub brigade: BrigadeId,
    #[cfg_attr(feature = "serde", serde(default))]
    fired: bool,
    #[cfg_attr(feature = "serde", serde(default = "yes"))]
    command_ok: bool,
}

#[cfg(feature = "serde")]
fn yes() -> bool {
    true
}

impl Stand {
    /// A normal stand of `kind` in `division` and `brigade`, with no special attributes.
    #[must_use]
    pub fn new(kind: StandType, division: DivisionId, brigade: BrigadeId) -> Stand {
        Stand {
            kind,
            firepower: Firepower::Normal,
            shock: false,
            elite: false,
            unsteady: false,
            tenacity: false,
            division,
            brigade,
            fired: false,
            command_ok: true,
        }
    }

    /// With this firepower.
    #[must_use]
    pub fn with_firepower(mut self, f: Firepower) -> Stand {
        self.firepower = f;
        self
    }

    /// As shock troops.
    #[must_use]
    pub fn shock(mut self) -> Stand {
        self.shock = true;
        self
    }

    /// As elite.
    #[must_use]
    pub fn elite(mut self) -> Stand {
        self.elite = true;
        self
    }

    /// As unsteady.
    #[must_use]
    pub fn unsteady(mut self) -> Stand {
        self.unsteady = true;
        self
    }

    /// With a tenacity marker.
    #[must_use]
    pub fn tenacious(mut self) -> Stand {
        self.tenacity = true;
        self
    }

    /// GRID-SET-08: attributes that cannot go together: wagons have no combat qualities.
    pub fn validate(&self) -> Result<(), GridError> {
        if self.kind == StandType::Wagons
            && (self.shock || self.elite || self.firepower != Firepower::Normal || self.tenacity)
        {
            return Err(GridError::BadStand(
                "wagons carry no firepower grade, shock, elite or tenacity",
            ));
        }
        Ok(())
    }

    /// Whether this stand fired in this turn's Bombardment Phase (GRID-MOV-11).
    #[must_use]
    pub fn fired_this_turn(&self) -> bool {
        self.fired
    }

    /// Whether this stand passed (or needed no) command roll this turn (GRID-CMD-01, GRID-CMD-02).
    #[must_use]
    pub fn passed_command_roll(&self) -> bool {
        self.command_ok
    }

    pub(crate) fn set_fired(&mut self, v: bool) {
        self.fired = v;
    }

    pub(crate) fn set_command(&mut self, v: bool) {
        self.command_ok = v;
    }

    /// GRID-MOR-01: this stand's morale modifier.
    #[must_use]
    pub fn morale_modifier(&self) -> i8 {
        tables::morale_modifier(self.elite, self.unsteady)
    }

    /// A rough quality score used to pick which stand to remove first (GRID-CAS-04): lower goes first.
    #[must_use]
    pub fn quality_score(&self) -> i8 {
        let fp = match self.firepower {
            Firepower::Inferior => -1,
            Firepower::Normal => 0,
            Firepower::Superior => 1,
        };
        fp + i8::from(self.shock) + i8::from(self.elite) - i8::from(self.unsteady)
    }

    /// GRID-MOV-01, GRID-MOV-22: how this stand moves given its unit's mount state.
    #[must_use]
    pub fn mover(&self, mount: Mount) -> Mover {
        match (self.kind, mount) {
            (StandType::Infantry, _) => Mover::Infantry,
            (StandType::Artillery, _) => Mover::Artillery,
            (StandType::Wagons, _) => Mover::Wagons,
            (StandType::Cavalry, Mount::Mounted) => Mover::MountedCavalry,
            (StandType::Cavalry, Mount::Dismounted) => Mover::DismountedCavalry,
        }
    }
}

/// Per-turn flags of a unit (GRID-SEQ-08); all reset at the start of the next turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct TurnFlags {
    /// It fired in bombardment.
    pub bombarded: bool,
    /// It was a bombardment target.
    pub was_bombarded: bool,
    /// It took bombardment hits (for the entrenching option).
    pub took_bombard_hits: bool,
    /// It moved (voluntarily or not).
    pub moved: bool,
    /// It moved adjacent to an enemy.
    pub attacked: bool,
    /// It retreated.
    pub retreated: bool,
    /// It rallied.
    pub rallied: bool,
    /// It worked on entrenchments.
    pub entrenched: bool,
    /// It skirmished.
    pub skirmished: bool,
}

/// An area unit: every stand of one side in one area (GRID-SET-05), with its state (GRID-SEQ-08).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Unit {
    id: UnitId,
    side: Side,
    area: Area,
    facing: Facing,
    formation: Formation,
    mount: Mount,
    disordered: bool,
    stands: Vec<Stand>,
    hits: u8,
    half_hit: bool,
    entrench_progress: u8,
    entrenched: bool,
    refused: Option<FlankSide>,
    hidden: bool,
    flags: TurnFlags,
    attacked_areas: Vec<Area>,
}

impl Unit {
    pub(crate) fn new(
        id: UnitId,
        side: Side,
        area: Area,
        facing: Facing,
        formation: Formation,
        mount: Mount,
        stands: Vec<Stand>,
    ) -> Result<Unit, GridError> {
        if stands.is_empty() {
            return Err(GridError::NoStands);
        }
        for s in &stands {
            s.validate()?;
        }
        check_formation(formation)?;
        Ok(Unit {
            id,
            side,
            area,
            facing,
            formation,
            mount,
            disordered: false,
            stands,
            hits: 0,
            half_hit: false,
            entrench_progress: 0,
            entrenched: false,
            refused: None,
            hidden: false,
            flags: TurnFlags::default(),
            attacked_areas: Vec::new(),
        })
    }

    /// Its id.
    #[must_use]
    pub fn id(&self) -> UnitId {
        self.id
    }
    /// Its side.
    #[must_use]
    pub fn side(&self) -> Side {
        self.side
    }
    /// Its area.
    #[must_use]
    pub fn area(&self) -> Area {
        self.area
    }
    /// The side of its area it faces (GRID-GEO-03).
    #[must_use]
    pub fn facing(&self) -> Facing {
        self.facing
    }
    /// Deployed ([`Formation::Line`]) or [`Formation::MarchColumn`] (GRID-MOV-08).
    #[must_use]
    pub fn formation(&self) -> Formation {
        self.formation
    }
    /// Whether the unit is in march column (limbered, for artillery).
    #[must_use]
    pub fn in_column(&self) -> bool {
        self.formation == Formation::MarchColumn
    }
    /// Artillery's limber state: limbered in march column (GRID-SET-03).
    #[must_use]
    pub fn limber(&self) -> Limber {
        if self.in_column() {
            Limber::Limbered
        } else {
            Limber::Unlimbered
        }
    }
    /// The mount state of its cavalry stands (GRID-MOV-22).
    #[must_use]
    pub fn mount(&self) -> Mount {
        self.mount
    }
    /// Whether it is disordered (GRID-MOR-13).
    #[must_use]
    pub fn disordered(&self) -> bool {
        self.disordered
    }
    /// Its stands, in the owner's order: the first ones fight (GRID-MEL-04).
    #[must_use]
    pub fn stands(&self) -> &[Stand] {
        &self.stands
    }
    /// Number of stands.
    #[must_use]
    pub fn stand_count(&self) -> u32 {
        self.stands.len() as u32
    }
    /// Leftover hits not yet making a whole stand (0 or 1, GRID-CAS-02).
    #[must_use]
    pub fn hits(&self) -> u8 {
        self.hits
    }
    /// A carried half-hit (GRID-CAS-05, carry-fractions mode).
    #[must_use]
    pub fn half_hit(&self) -> bool {
        self.half_hit
    }
    /// Entrenching progress: the running d6 total (GRID-MOV-26).
    #[must_use]
    pub fn entrench_progress(&self) -> u8 {
        self.entrench_progress
    }
    /// Whether its hasty entrenchments are finished (GRID-MOV-27).
    #[must_use]
    pub fn entrenched(&self) -> bool {
        self.entrenched
    }
    /// The flank it has refused, if any (GRID-MOV-12).
    #[must_use]
    pub fn refused(&self) -> Option<FlankSide> {
        self.refused
    }
    /// Whether it is hidden (GRID-OPT-02).
    #[must_use]
    pub fn hidden(&self) -> bool {
        self.hidden
    }
    /// This turn's flags (GRID-SEQ-08).
    #[must_use]
    pub fn flags(&self) -> TurnFlags {
        self.flags
    }
    /// The enemy areas it moved adjacent to in an attack this turn (for pursuit, GRID-MEL-16).
    #[must_use]
    pub fn attacked_areas(&self) -> &[Area] {
        &self.attacked_areas
    }

    /// GRID-CAS-03: hits still needed to destroy the unit (2 per stand less the leftover hit).
    #[must_use]
    pub fn hits_to_destroy(&self) -> u32 {
        (self.stand_count() * u32::from(tables::HITS_PER_STAND))
            .saturating_sub(u32::from(self.hits))
    }

    /// Whether every stand is artillery.
    #[must_use]
    pub fn all_artillery(&self) -> bool {
        self.stands.iter().all(|s| s.kind == StandType::Artillery)
    }

    /// Whether every stand is wagons.
    #[must_use]
    pub fn all_wagons(&self) -> bool {
        self.stands.iter().all(|s| s.kind == StandType::Wagons)
    }

    /// Whether any stand is of `kind`.
    #[must_use]
    pub fn has(&self, kind: StandType) -> bool {
        self.stands.iter().any(|s| s.kind == kind)
    }

    /// Whether it has mounted cavalry (GRID-MEL-15).
    #[must_use]
    pub fn has_mounted_cavalry(&self) -> bool {
        self.mount == Mount::Mounted && self.has(StandType::Cavalry)
    }

    /// GRID-MOV-02: movement allowance in half-areas: the slowest stand's.
    #[must_use]
    pub fn allowance_halves(&self) -> u32 {
        self.stands
            .iter()
            .map(|s| tables::allowance_halves(s.mover(self.mount)))
            .min()
            .unwrap_or(0)
    }

    /// The movers of its stands (distinct).
    #[must_use]
    pub fn movers(&self) -> Vec<Mover> {
        let mut v: Vec<Mover> = self.stands.iter().map(|s| s.mover(self.mount)).collect();
        v.sort();
        v.dedup();
        v
    }

    /// GRID-MEL-11, GRID-MOV-27: the unit's own cover (a finished entrenchment).
    #[must_use]
    pub fn own_cover(&self) -> bool {
        self.entrenched
    }

    pub(crate) fn stands_mut(&mut self) -> &mut Vec<Stand> {
        &mut self.stands
    }
    pub(crate) fn set_area(&mut self, a: Area) {
        self.area = a;
    }
    pub(crate) fn set_facing(&mut self, f: Facing) {
        self.facing = f;
    }
    pub(crate) fn set_formation(&mut self, f: Formation) {
        self.formation = f;
    }
    pub(crate) fn set_mount(&mut self, m: Mount) {
        self.mount = m;
    }
    pub(crate) fn set_disordered(&mut self, d: bool) {
        self.disordered = d;
    }
    pub(crate) fn set_hits(&mut self, h: u8, half: bool) {
        self.hits = h;
        self.half_hit = half;
    }
    pub(crate) fn set_entrench(&mut self, progress: u8, done: bool) {
        self.entrench_progress = progress;
        self.entrenched = done;
    }
    pub(crate) fn set_refused(&mut self, r: Option<FlankSide>) {
        self.refused = r;
    }
    pub(crate) fn set_hidden(&mut self, h: bool) {
        self.hidden = h;
    }
    pub(crate) fn flags_mut(&mut self) -> &mut TurnFlags {
        &mut self.flags
    }
    pub(crate) fn set_attacked_areas(&mut self, v: Vec<Area>) {
        self.attacked_areas = v;
    }
    pub(crate) fn set_id(&mut self, id: UnitId) {
        self.id = id;
    }
}

pub(crate) fn check_formation(f: Formation) -> Result<(), GridError> {
    match f {
        Formation::Line | Formation::MarchColumn => Ok(()),
        _ => Err(GridError::BadStand(
            "a unit is deployed (Line) or in march column",
        )),
    }
}

/// A commander's rank (GRID-SET-03, GRID-SET-04).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Rank {
    /// Commands the stands of one division.
    Division(DivisionId),
    /// Commands Division Commanders.
    Corps,
    /// Stands for the player.
    Army,
}

/// A commander piece (GRID-SET-03): a Division, Corps or Army Commander on the table; not a stand, never counts
/// for stacking. (Named `Leader` so it is not confused with acw-core's `Commander`, the decision-maker of a
/// side.)
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Leader {
    id: CommanderId,
    side: Side,
    rank: Rank,
    superior: Option<CommanderId>,
    area: Area,
    removed_on_turn: Option<u32>,
    moved: bool,
}

impl Leader {
    /// Its id.
    #[must_use]
    pub fn id(&self) -> CommanderId {
        self.id
    }
    /// Its side.
    #[must_use]
    pub fn side(&self) -> Side {
        self.side
    }
    /// Its rank.
    #[must_use]
    pub fn rank(&self) -> Rank {
        self.rank
    }
    /// A Division Commander's Corps Commander (GRID-SET-04).
    #[must_use]
    pub fn superior(&self) -> Option<CommanderId> {
        self.superior
    }
    /// Where he is.
    #[must_use]
    pub fn area(&self) -> Area {
        self.area
    }
    /// Whether he is on the table.
    #[must_use]
    pub fn present(&self) -> bool {
        self.removed_on_turn.is_none()
    }
    /// The turn on which he was removed, if he was.
    #[must_use]
    pub fn removed_on_turn(&self) -> Option<u32> {
        self.removed_on_turn
    }
    /// Whether he moved this turn.
    #[must_use]
    pub fn moved(&self) -> bool {
        self.moved
    }
    pub(crate) fn set_area(&mut self, a: Area) {
        self.area = a;
    }
    pub(crate) fn set_removed(&mut self, t: Option<u32>) {
        self.removed_on_turn = t;
    }
    pub(crate) fn set_moved(&mut self, m: bool) {
        self.moved = m;
    }
}

/// Losses of one side (GRID-CAS-08).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Losses {
    /// Stands removed by hits, or with routed, surrendered or removed units.
    pub stands_lost: u32,
    /// Units destroyed by hits.
    pub units_destroyed: u32,
    /// Units routed off the table.
    pub units_routed: u32,
    /// Units that surrendered (captured).
    pub units_surrendered: u32,
    /// Units removed for other reasons (a blocked retreat under the removal option).
    pub units_removed: u32,
    /// Commanders removed or captured.
    pub commanders_lost: u32,
}

/// The phases of a turn (GRID-SEQ-01).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Phase {
    /// 1. Initiative roll.
    Initiative,
    /// 2. Both sides bombard.
    Bombardment,
    /// 3. The first player moves or rallies.
    FirstMovement,
    /// 4. The second player moves or rallies.
    SecondMovement,
    /// 5. Skirmish fire and combat, both sides at once.
    Combat,
}

impl Phase {
    /// The phase's name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Phase::Initiative => "Initiative",
            Phase::Bombardment => "Bombardment",
            Phase::FirstMovement => "first movement",
            Phase::SecondMovement => "second movement",
            Phase::Combat => "Combat",
        }
    }
}

/// A game in progress: the board, the options, every unit and commander, losses, turn and phase.
///
/// A saved battle loads through [`Battle::validate`], so a file can never hold a state the rules forbid.
///
/// `clone_from` copies into a battle already there, keeping every list's room (the game copies its state into a
/// spare for each order that rolls dice).
#[derive(Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "BattleRepr"))]
pub struct Battle {
    /// Shared between copies (a bot's look-ahead, a step applied on a copy): the board does not change during a
    /// game, and [`Battle::board_mut`] copies it first if another battle still shares it.
    #[cfg_attr(feature = "serde", serde(serialize_with = "serialize_board"))]
    pub(crate) board: Arc<Board>,
    pub(crate) options: Options,
    /// Each unit shared between copies of the battle until one of them changes it ([`Battle::unit_mut`] copies
    /// that unit first if another battle still shares it): a copy of the battle copies no unit.
    #[cfg_attr(feature = "serde", serde(serialize_with = "serialize_units"))]
    pub(crate) units: Units,
    /// Shared between copies of the battle until one of them changes a commander (copied then): a copy of the
    /// battle for an order that rolls dice copies no commander.
    #[cfg_attr(feature = "serde", serde(serialize_with = "serialize_commanders"))]
    pub(crate) commanders: Arc<BTreeMap<CommanderId, Leader>>,
    pub(crate) losses: BySide<Losses>,
    pub(crate) turn: u32,
    pub(crate) turn_limit: Option<u32>,
    pub(crate) phase: Phase,
    pub(crate) first_player: Option<Side>,
    pub(crate) last_first_player: Option<Side>,
    pub(crate) next_unit: u32,
    pub(crate) vacated: Vec<(Side, Area)>,
    pub(crate) command_checked: BySide<bool>,
    pub(crate) initiative_winner: Option<Side>,
    #[cfg_attr(feature = "serde", serde(default))]
    pub(crate) combat_done: bool,
    #[cfg_attr(feature = "serde", serde(default))]
    pub(crate) bombardment: Option<crate::fire::BombardmentRoll>,
    /// Shared between copies of the battle while the hits wait to be placed: a copy of the battle copies no dice.
    #[cfg_attr(
        feature = "serde",
        serde(default, serialize_with = "serialize_rolled_combats")
    )]
    pub(crate) rolled_combats: Option<Arc<crate::combat::RolledCombats>>,
    #[cfg_attr(feature = "serde", serde(default))]
    pub(crate) owed_tests: Vec<crate::morale::OwedTest>,
    #[cfg_attr(feature = "serde", serde(default))]
    pub(crate) owed_retreats: Vec<crate::morale::OwedRetreat>,
}

impl Battle {
    /// Empties the list of units, keeping its room (for a spare copy of the game's state, about to be copied
    /// into).
    pub(crate) fn let_go_of_units(&mut self) {
        self.units.0.clear();
    }
}

impl Clone for Battle {
    fn clone(&self) -> Battle {
        Battle {
            board: Arc::clone(&self.board),
            options: self.options.clone(),
            units: self.units.clone(),
            commanders: Arc::clone(&self.commanders),
            losses: self.losses,
            turn: self.turn,
            turn_limit: self.turn_limit,
            phase: self.phase,
            first_player: self.first_player,
            last_first_player: self.last_first_player,
            next_unit: self.next_unit,
            vacated: self.vacated.clone(),
            command_checked: self.command_checked,
            initiative_winner: self.initiative_winner,
            combat_done: self.combat_done,
            bombardment: self.bombardment.clone(),
            rolled_combats: self.rolled_combats.clone(),
            owed_tests: self.owed_tests.clone(),
            owed_retreats: self.owed_retreats.clone(),
        }
    }

    fn clone_from(&mut self, source: &Battle) {
        // Destructured so that a field added to `Battle` cannot be left out here.
        let Battle {
            board,
            options,
            units,
            commanders,
            losses,
            turn,
            turn_limit,
            phase,
            first_player,
            last_first_player,
            next_unit,
            vacated,
            command_checked,
            initiative_winner,
            combat_done,
            bombardment,
            rolled_combats,
            owed_tests,
            owed_retreats,
        } = source;
        self.board.clone_from(board);
        self.options.clone_from(options);
        self.units.0.clone_from(&units.0);
        self.commanders.clone_from(commanders);
        self.losses = *losses;
        self.turn = *turn;
        self.turn_limit = *turn_limit;
        self.phase = *phase;
        self.first_player = *first_player;
        self.last_first_player = *last_first_player;
        self.next_unit = *next_unit;
        self.vacated.clone_from(vacated);
        self.command_checked = *command_checked;
        self.initiative_winner = *initiative_winner;
        self.combat_done = *combat_done;
        self.bombardment.clone_from(bombardment);
        self.rolled_combats.clone_from(rolled_combats);
        self.owed_tests.clone_from(owed_tests);
        self.owed_retreats.clone_from(owed_retreats);
    }
}

/// The units of a battle, ordered by id: a short vector (a few dozen units at most) walked far more often than
/// changed, so a scan of the slice beats a tree, and a copy is one allocation.
#[derive(Clone, Default, PartialEq)]
pub(crate) struct Units(Vec<Arc<Unit>>);

impl fmt::Debug for Units {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.iter().map(|(k, u)| (k, &**u)))
            .finish()
    }
}

impl Units {
    fn find(&self, id: UnitId) -> Result<usize, usize> {
        self.0.binary_search_by(|u| u.id.cmp(&id))
    }
    /// Where the unit `id` is, if it is there. Ids are distinct and in ascending order, so the unit `id`
    /// stands at index `id` at most, and at index `id - 1` exactly while no unit of a lower id has left
    /// (battles number their units from 1 as they are deployed, [`Battle::deploy`]): that index is tried first,
    /// then the slice below it is searched.
    #[inline]
    fn position(&self, id: UnitId) -> Option<usize> {
        let n = self.0.len();
        let k = usize::try_from(id.0).unwrap_or(usize::MAX);
        let guess = k.saturating_sub(1).min(n.checked_sub(1)?);
        if self.0.get(guess).is_some_and(|u| u.id == id) {
            return Some(guess);
        }
        let within = self.0.get(..k.saturating_add(1).min(n))?;
        within.binary_search_by(|u| u.id.cmp(&id)).ok()
    }
    pub(crate) fn get(&self, id: &UnitId) -> Option<&Arc<Unit>> {
        self.position(*id).and_then(|i| self.0.get(i))
    }
    pub(crate) fn get_mut(&mut self, id: &UnitId) -> Option<&mut Arc<Unit>> {
        self.position(*id).and_then(|i| self.0.get_mut(i))
    }
    pub(crate) fn remove(&mut self, id: &UnitId) -> Option<Arc<Unit>> {
        self.find(*id).ok().map(|i| self.0.remove(i))
    }
    /// Adds `u` under its own id, replacing any unit with that id.
    pub(crate) fn insert(&mut self, u: Arc<Unit>) {
        match self.find(u.id) {
            Ok(i) => {
                if let Some(slot) = self.0.get_mut(i) {
                    *slot = u;
                }
            }
            Err(i) => self.0.insert(i, u),
        }
    }
    pub(crate) fn values(&self) -> std::slice::Iter<'_, Arc<Unit>> {
        self.0.iter()
    }
    pub(crate) fn values_mut(&mut self) -> std::slice::IterMut<'_, Arc<Unit>> {
        self.0.iter_mut()
    }
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&UnitId, &Arc<Unit>)> {
        self.0.iter().map(|u| (&u.id, u))
    }
}

#[cfg(feature = "serde")]
fn serialize_units<S: serde::Serializer>(units: &Units, s: S) -> Result<S::Ok, S::Error> {
    s.collect_map(units.iter().map(|(k, u)| (k, &**u)))
}

#[cfg(feature = "serde")]
fn serialize_board<S: serde::Serializer>(board: &Arc<Board>, s: S) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&**board, s)
}

#[cfg(feature = "serde")]
fn serialize_rolled_combats<S: serde::Serializer>(
    rolled: &Option<Arc<crate::combat::RolledCombats>>,
    s: S,
) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&rolled.as_deref(), s)
}

#[cfg(feature = "serde")]
fn serialize_commanders<S: serde::Serializer>(
    commanders: &Arc<BTreeMap<CommanderId, Leader>>,
    s: S,
) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&**commanders, s)
}

#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct BattleRepr {
    board: Board,
    options: Options,
    units: BTreeMap<UnitId, Unit>,
    commanders: BTreeMap<CommanderId, Leader>,
    losses: BySide<Losses>,
    turn: u32,
    turn_limit: Option<u32>,
    phase: Phase,
    first_player: Option<Side>,
    last_first_player: Option<Side>,
    next_unit: u32,
    vacated: Vec<(Side, Area)>,
    command_checked: BySide<bool>,
    initiative_winner: Option<Side>,
    #[serde(default)]
    combat_done: bool,
    #[serde(default)]
    bombardment: Option<crate::fire::BombardmentRoll>,
    #[serde(default)]
    rolled_combats: Option<crate::combat::RolledCombats>,
    #[serde(default)]
    owed_tests: Vec<crate::morale::OwedTest>,
    #[serde(default)]
    owed_retreats: Vec<crate::morale::OwedRetreat>,
}

#[cfg(feature = "serde")]
impl TryFrom<BattleRepr> for Battle {
    type Error = RuleViolation;
    fn try_from(r: BattleRepr) -> Result<Battle, RuleViolation> {
        let keys_match = r.units.iter().all(|(k, u)| *k == u.id);
        let b = Battle {
            board: Arc::new(r.board),
            options: r.options,
            units: Units(r.units.into_values().map(Arc::new).collect()),
            commanders: Arc::new(r.commanders),
            losses: r.losses,
            turn: r.turn,
            turn_limit: r.turn_limit,
            phase: r.phase,
            first_player: r.first_player,
            last_first_player: r.last_first_player,
            next_unit: r.next_unit,
            vacated: r.vacated,
            command_checked: r.command_checked,
            initiative_winner: r.initiative_winner,
            combat_done: r.combat_done,
            bombardment: r.bombardment,
            rolled_combats: r.rolled_combats.map(Arc::new),
            owed_tests: r.owed_tests,
            owed_retreats: r.owed_retreats,
        };
        b.validate()?;
        if !keys_match || b.units.values().any(|u| u.id.0 >= b.next_unit) {
            return Err(RuleViolation::Inconsistent("unit ids do not match"));
        }
        Ok(b)
    }
}

impl Battle {
    /// An empty battle on `board`, turn 1, Initiative phase.
    #[must_use]
    pub fn new(board: Board, options: Options) -> Battle {
        Battle {
            board: Arc::new(board),
            options,
            units: Units::default(),
            commanders: Arc::new(BTreeMap::new()),
            losses: BySide::default(),
            turn: 1,
            turn_limit: None,
            phase: Phase::Initiative,
            first_player: None,
            last_first_player: None,
            next_unit: 1,
            vacated: Vec::new(),
            command_checked: BySide::default(),
            initiative_winner: None,
            combat_done: false,
            bombardment: None,
            rolled_combats: None,
            owed_tests: Vec::new(),
            owed_retreats: Vec::new(),
        }
    }

    /// The board.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }
    /// The options in force.
    #[must_use]
    pub fn options(&self) -> &Options {
        &self.options
    }
    /// Changes the options (a group's house rules); refused, changing nothing, if the present state would
    /// break them (e.g. a smaller stacking limit than an area already holds).
    pub fn set_options(&mut self, options: Options) -> Result<(), RuleViolation> {
        let old = std::mem::replace(&mut self.options, options);
        if let Err(e) = self.validate() {
            self.options = old;
            return Err(e);
        }
        Ok(())
    }
    /// The board, to edit its terrain (scenario set-up; the areas themselves cannot change).
    pub fn board_mut(&mut self) -> &mut Board {
        Arc::make_mut(&mut self.board)
    }
    /// The turn number, from 1.
    #[must_use]
    pub fn turn(&self) -> u32 {
        self.turn
    }
    /// The scenario's game length in turns, if set (GRID-SEQ-09).
    #[must_use]
    pub fn turn_limit(&self) -> Option<u32> {
        self.turn_limit
    }
    /// Sets the game length (GRID-SEQ-09).
    pub fn set_turn_limit(&mut self, turns: Option<u32>) {
        self.turn_limit = turns;
    }
    /// The current phase.
    #[must_use]
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// This turn's first player, once chosen.
    #[must_use]
    pub fn first_player(&self) -> Option<Side> {
        self.first_player
    }
    /// The side whose movement step it is, in a movement phase.
    #[must_use]
    pub fn moving_side(&self) -> Option<Side> {
        match (self.phase, self.first_player) {
            (Phase::FirstMovement, Some(s)) => Some(s),
            (Phase::SecondMovement, Some(s)) => Some(s.enemy()),
            _ => None,
        }
    }
    /// Losses of `side` (GRID-CAS-08).
    #[must_use]
    pub fn losses(&self, side: Side) -> Losses {
        *self.losses.get(side)
    }

    /// A unit.
    pub fn unit(&self, id: UnitId) -> Result<&Unit, RuleViolation> {
        self.units
            .get(&id)
            .map(|u| &**u)
            .ok_or(RuleViolation::UnknownUnit(id))
    }
    pub(crate) fn unit_mut(&mut self, id: UnitId) -> Result<&mut Unit, RuleViolation> {
        self.units
            .get_mut(&id)
            .map(Arc::make_mut)
            .ok_or(RuleViolation::UnknownUnit(id))
    }
    /// Every unit, by id.
    pub fn units(&self) -> impl Iterator<Item = &Unit> {
        self.units.values().map(|u| &**u)
    }
    /// A commander.
    pub fn commander(&self, id: CommanderId) -> Result<&Leader, RuleViolation> {
        self.commanders
            .get(&id)
            .ok_or(RuleViolation::UnknownCommander(id))
    }
    /// Every commander (present or removed), by id.
    pub fn commanders(&self) -> impl Iterator<Item = &Leader> {
        self.commanders.values()
    }

    /// The units in an area (normally at most one; a unit splitting on a morale result is briefly two).
    pub fn units_at(&self, area: Area) -> impl Iterator<Item = &Unit> {
        self.units().filter(move |u| u.area == area)
    }

    /// The unit of `side` in `area`, if any.
    #[must_use]
    pub fn unit_of_side_at(&self, side: Side, area: Area) -> Option<&Unit> {
        self.units_at(area).find(|u| u.side == side)
    }

    /// Stands in an area (commanders do not count).
    pub fn stands_in(&self, area: Area) -> u32 {
        self.units_at(area).map(Unit::stand_count).sum()
    }

    /// Whether an area holds stands of `side`.
    #[must_use]
    pub fn occupied_by(&self, area: Area, side: Side) -> bool {
        self.units_at(area).any(|u| u.side == side)
    }

    /// Whether an area holds any stands.
    #[must_use]
    pub fn occupied(&self, area: Area) -> bool {
        self.units_at(area).next().is_some()
    }

    /// GRID-GEO-09: the non-hidden enemy units adjacent to a unit (none if it is hidden).
    pub fn adjacent_enemies(&self, id: UnitId) -> Result<Vec<UnitId>, RuleViolation> {
        let u = self.unit(id)?;
        if u.hidden {
            return Ok(Vec::new());
        }
        Ok(self
            .units
            .values()
            .filter(|e| e.side != u.side && !e.hidden && self.board.adjacent(u.area, e.area))
            .map(|e| e.id)
            .collect())
    }

    /// GRID-GEO-09: whether a unit is engaged: an opposing unit is in an adjacent area. Hidden units neither
    /// engage nor are engaged; commanders never engage.
    pub fn engaged(&self, id: UnitId) -> Result<bool, RuleViolation> {
        let u = self.unit(id)?;
        Ok(!u.hidden
            && self
                .units
                .values()
                .any(|e| e.side != u.side && !e.hidden && self.board.adjacent(u.area, e.area)))
    }

    /// Whether a unit of `side` standing in `area` would be engaged there.
    #[must_use]
    pub fn would_be_engaged(&self, side: Side, area: Area) -> bool {
        self.enemies_adjacent_to_area(side, area).next().is_some()
    }

    pub(crate) fn enemies_adjacent_to_area(
        &self,
        side: Side,
        area: Area,
    ) -> impl Iterator<Item = &Unit> {
        self.units()
            .filter(move |e| e.side != side && !e.hidden && self.board.adjacent(area, e.area))
    }

    pub(crate) fn fresh_unit_id(&mut self) -> UnitId {
        let id = UnitId(self.next_unit);
        self.next_unit = self.next_unit.saturating_add(1);
        id
    }

    pub(crate) fn phase_is(&self, needed: Phase) -> Result<(), RuleViolation> {
        if self.phase == needed {
            Ok(())
        } else {
            Err(RuleViolation::WrongPhase {
                now: self.phase.name(),
                needed: needed.name(),
            })
        }
    }

    pub(crate) fn in_movement_of(&self, side: Side) -> Result<(), RuleViolation> {
        match self.moving_side() {
            Some(s) if s == side => Ok(()),
            Some(_) => Err(RuleViolation::NotYourStep(side)),
            None => Err(RuleViolation::WrongPhase {
                now: self.phase.name(),
                needed: "movement",
            }),
        }
    }

    /// Removes a unit from the table, moving or removing the commanders with it (GRID-CMD-08).
    pub(crate) fn remove_unit(&mut self, id: UnitId) -> Option<Unit> {
        let u = Arc::unwrap_or_clone(self.units.remove(&id)?);
        self.owed_tests.retain(|t| t.unit != id);
        self.owed_retreats.retain(|r| r.unit != id);
        self.vacated.push((u.side, u.area));
        if !self.occupied_by(u.area, u.side) {
            self.commanders_lose_unit(u.side, u.area, &u);
        }
        Some(u)
    }

    /// Whether `area` was vacated by a unit of `side` (retreat or destruction) this turn (GRID-MEL-16).
    #[must_use]
    pub fn vacated_this_turn(&self, side: Side, area: Area) -> bool {
        self.vacated.contains(&(side, area))
    }

    /// Checks every invariant a reachable state has: units on the board, at least one stand, a leftover hit
    /// below 2, no enemy sharing an area, stacking within the limit (GRID-SET-10).
    pub fn validate(&self) -> Result<(), RuleViolation> {
        let limit = u32::from(self.options.scale.stack_limit());
        for u in self.units.values() {
            if !self.board.contains(u.area) {
                return Err(GridError::OffBoard(u.area).into());
            }
            if u.stands.is_empty() {
                return Err(GridError::NoStands.into());
            }
            if u.hits >= tables::HITS_PER_STAND {
                return Err(RuleViolation::Inconsistent(
                    "a unit holds at most one leftover hit",
                ));
            }
            if self.occupied_by(u.area, u.side.enemy()) {
                return Err(RuleViolation::EnemyInArea(u.area));
            }
            let n = self.stands_in(u.area);
            if n > limit {
                return Err(RuleViolation::OverStacked {
                    area: u.area,
                    stands: n,
                    limit,
                });
            }
            Facing::new(self.board.kind(), u.facing.index()).map_err(RuleViolation::from)?;
        }
        for c in self.commanders.values() {
            if !self.board.contains(c.area) {
                return Err(GridError::OffBoard(c.area).into());
            }
        }
        Ok(())
    }

    pub(crate) fn insert_unit(&mut self, u: Unit) {
        self.units.insert(Arc::new(u));
    }

    pub(crate) fn insert_commander(&mut self, c: Leader) {
        Arc::make_mut(&mut self.commanders).insert(c.id, c);
    }

    pub(crate) fn new_commander(
        id: CommanderId,
        side: Side,
        rank: Rank,
        superior: Option<CommanderId>,
        area: Area,
    ) -> Leader {
        Leader {
            id,
            side,
            rank,
            superior,
            area,
            removed_on_turn: None,
            moved: false,
        }
    }

    pub(crate) fn count_losses(&mut self, side: Side, f: impl FnOnce(&mut Losses)) {
        f(self.losses.get_mut(side));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(id: u32) -> Arc<Unit> {
        let stand = Stand::new(StandType::Infantry, DivisionId(1), BrigadeId(1));
        let u = Unit::new(
            UnitId(id),
            Side::Union,
            Area::new(0, 0),
            Facing::NORTH,
            Formation::Line,
            Mount::Mounted,
            vec![stand],
        );
        Arc::new(u.unwrap_or_else(|e| panic!("a one-stand unit: {e}")))
    }

    /// The unit at `id` as a walk over every unit finds it.
    fn scanned(units: &Units, id: u32) -> Option<u32> {
        units.values().find(|u| u.id == UnitId(id)).map(|u| u.id.0)
    }

    #[test]
    fn a_unit_is_found_by_its_id_after_units_leave_and_join() {
        let mut units = Units::default();
        for id in 1..=9 {
            units.insert(unit(id));
        }
        let check = |units: &Units| {
            for id in (0..=14).chain([u32::MAX]) {
                assert_eq!(units.get(&UnitId(id)).map(|u| u.id.0), scanned(units, id));
            }
        };
        // Numbered from 1 with none gone: every unit at the index before its id.
        check(&units);
        // Units of lower ids gone (merged or destroyed), a detachment joining with a new id, the first gone.
        for gone in [3, 7, 1] {
            assert!(units.remove(&UnitId(gone)).is_some());
            check(&units);
        }
        units.insert(unit(12));
        check(&units);
        assert_eq!(
            units.values().map(|u| u.id.0).collect::<Vec<_>>(),
            vec![2, 4, 5, 6, 8, 9, 12]
        );
        assert!(units.get(&UnitId(3)).is_none());
        assert_eq!(units.get(&UnitId(12)).map(|u| u.id.0), Some(12));
        // A unit numbered 0 (a saved battle may number its units from anywhere) is found too.
        units.insert(unit(0));
        check(&units);
        assert_eq!(units.get(&UnitId(0)).map(|u| u.id.0), Some(0));
    }
}
