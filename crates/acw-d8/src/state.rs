//! The [`Battle`]: regiments, cavalry, sharpshooters and batteries with their figures, casualties, officers and
//! formations, and the methods that apply the rules. Each method checks the rules first and, if they refuse,
//! changes nothing; methods that roll dice roll everything first, check the source for a fault, and only then
//! apply the outcome, so no result is ever handed back to be applied (or applied twice) by the caller.
//!
//! Measured facts (distances in cm, cover, what a move crossed) come from the caller: a later game layer measures
//! the table; this crate judges.
//!
//! ```
//! use acw_core::dice::ScriptedDice;
//! use acw_core::{GameRng, Side};
//! use acw_d8::army::Army;
//! use acw_d8::state::{FireFacts, Target, UnitId};
//! use acw_d8::{Battle, Options};
//!
//! let o = Options::default();
//! let mut rng = GameRng::seed(1);
//! let union = Army::generate(Side::Union, &mut rng, &o, 0, 1862)?;
//! let rebels = Army::generate(Side::Confederate, &mut rng, &o, 0, 1862)?;
//! let mut battle = Battle::new(&union, &rebels, o)?;
//! // The Union's turn: every unit 10 cm from its commander; no movement.
//! let all: Vec<(UnitId, f64)> = battle.units().iter().map(|u| (u.id, 10.0)).collect();
//! battle.start_turn(&all, &mut rng)?;
//! battle.end_movement()?;
//! // Three riflemen of the 1st Veteran Regiment at 20 cm (short range, 3+): faces 3, 6, 2 give two hits; the
//! // formed target in the open saves on 5+: 5 saves, 1 does not.
//! let target = battle.units().iter().find(|u| u.side == Side::Confederate).map(|u| u.id).ok_or("no target")?;
//! let mut dice = ScriptedDice::faces([3, 6, 2, 5, 1]);
//! let report = battle.fire(UnitId(0), Target::Unit(target), &FireFacts::all_at(3, 20.0), &mut dice)?;
//! assert_eq!((report.hits, report.casualties), (2, 1));
//! assert_eq!(battle.points().union.kills, 3); // a Veteran figure
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::army::{Army, Player, RollOff};
use crate::dice_util::check;
use crate::environment::{Day, NightDay, Smoke, Wind};
use crate::error::{D8Error, Refusal};
use crate::fire::{
    FiringOrder, OfficerCheck, TargetStance, Volley, band, classify, dice_for, in_arc, save_for,
};
use crate::formation::{FfCause, FormationFail, FormationTest};
use crate::melee::{Defender, Melee, MeleeBonuses, Pairing, kill_need, melee_bonus};
use crate::morale::{MoraleFacts, MoraleResult, morale_points, test};
use crate::movement::{
    ChargeFacts, Hazard, MoveFacts, allowance, barred, boat_fits, charge_refusal, column_allowed,
    within,
};
use crate::options::Options;
use crate::sequence::{FirstMove, Phase, WholeMove};
use crate::structures::{Bombard, Structure};
use crate::tables::{
    Band, Boat, Class, Cover, FireSource, Formation, MIN_UNIT, MountedPassage, Mover, Pace, Rank,
    StructureKind, Troop, Weapon, vp,
};
use crate::victory::{EndPosition, Points, Verdict, end_points, verdict};
use acw_core::{BySide, Dice, Die, Resolve, Side};
use std::fmt;
use std::sync::Arc;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// A unit's id in a battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[must_use]
pub struct UnitId(pub u32);

/// An officer's id in a battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[must_use]
pub struct OfficerId(pub u32);

/// A structure's id in a battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[must_use]
pub struct StructureId(pub u32);

impl fmt::Display for UnitId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unit {}", self.0)
    }
}

impl fmt::Display for OfficerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "officer {}", self.0)
    }
}

impl fmt::Display for StructureId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "structure {}", self.0)
    }
}

/// A unit on the table.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Unit {
    /// Its id.
    pub id: UnitId,
    /// Its name, shared by the copies of a battle (a copy of a unit copies no text).
    pub name: Arc<str>,
    /// Its side.
    pub side: Side,
    /// What it is.
    pub troop: Troop,
    /// Its class.
    pub class: Class,
    /// Figures at the start (the morale chart's column, D8-MOR-05).
    pub original: u32,
    /// Figures left.
    pub figures: u32,
    /// Its weapon.
    pub weapon: Weapon,
    /// Its brigade, for foot regiments.
    pub brigade: Option<u8>,
    /// Its formation.
    pub formation: Formation,
    /// Mounted (cavalry, Indians).
    pub mounted: bool,
    /// Limbered (batteries).
    pub limbered: bool,
    /// Limber horses left (batteries: 2 at the start).
    pub horses: u8,
    /// Its formation fail, if any.
    pub ff: Option<FormationFail>,
    /// Moved (or made a whole-move action) this turn.
    pub moved: bool,
    /// Changed formation this turn.
    pub changed_formation: bool,
    /// Fired this turn.
    pub fired: bool,
    /// Charged this turn.
    pub charged: bool,
    /// The move (its side's turn number) of its last charge.
    pub last_charge: Option<u32>,
    /// Figures lost to fire or melee this player turn (D8-CAS-02).
    pub lost_this_turn: u32,
    /// Figures lost to fire this Firing phase (D8-CAS-03).
    pub fire_losses: u32,
    /// Fought in the melee phase just gone.
    pub in_melee: bool,
    /// In influence at the start of this turn (D8-CMD-06).
    pub in_influence: bool,
    /// Its smoke (D8-ENV-06).
    pub smoke: Smoke,
    /// Figures inside a building.
    pub in_building: u32,
    /// The boat it is in.
    pub boat: Option<Boat>,
    /// Consecutive moves spent building works (D8-STR-03).
    pub works_moves: u32,
    /// Whether it built works this turn (a turn without digging breaks the run).
    pub dug: bool,
    /// Length of works built, in cm.
    pub works_cm: f64,
    /// Removed from the battle (broken, destroyed, or cancelled on a flank march).
    pub removed: bool,
    /// Held off the table on a flank march, or its flank force cancelled (D8-OPT-01 to D8-OPT-04); such a unit
    /// is also `removed` until it arrives.
    #[cfg_attr(feature = "serde", serde(default))]
    pub away: Option<Away>,
}

/// Why a unit is off the table without having been lost (D8-OPT-01 to D8-OPT-04).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum Away {
    /// On a flank march: it arrives on its side's move `arrival.on_move` at the edge of grid square `square`.
    Marching {
        /// The D20's arrival: the move and the flank square (1 to 5).
        arrival: crate::flank::Arrival,
        /// The grid square of that flank square.
        square: crate::map::Square,
    },
    /// Its flank force was cancelled by the enemy's march by the same edge: it takes no further part and is not
    /// counted as lost.
    Cancelled,
}

impl Unit {
    fn mover(&self) -> Mover {
        match self.troop {
            Troop::Battery(g) if self.limbered => Mover::Gun(g),
            Troop::Battery(_) => Mover::Foot,
            Troop::Cavalry | Troop::Indians if self.mounted => Mover::Mounted,
            _ => Mover::Foot,
        }
    }

    fn stance(&self) -> TargetStance {
        if self.troop.is_battery() {
            TargetStance::Crew {
                limbered: self.limbered,
            }
        } else {
            TargetStance::Troops(self.formation)
        }
    }

    /// The unit's label sentence (its [`crate::error::UnitLabel`]'s `Display`) in a string sized for it at
    /// once, written piece by piece.
    pub(crate) fn label_sentence(&self) -> String {
        let mut s = String::with_capacity(self.name.len() + 40);
        crate::error::push_label(&mut s, &self.name, self.side, self.troop);
        s
    }

    pub(crate) fn label(&self) -> crate::error::UnitLabel {
        crate::error::UnitLabel {
            name: self.name.clone(),
            side: self.side,
            troop: self.troop,
        }
    }
}

/// `d` written into a string of at least `capacity` bytes, which the text of the callers fits at once.
fn sized(d: &dyn fmt::Display, capacity: usize) -> String {
    use fmt::Write as _;
    let mut s = String::with_capacity(capacity);
    let _ = write!(s, "{d}");
    s
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}, {} {}): {} of {} figures in {}",
            self.name,
            self.side,
            self.class,
            self.troop,
            self.figures,
            self.original,
            self.formation
        )?;
        if let Some(ff) = self.ff {
            write!(f, ", formation fail from {}", ff.cause)?;
        }
        if self.removed {
            f.write_str(", removed")?;
        }
        Ok(())
    }
}

/// An officer figure.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Officer {
    /// His id.
    pub id: OfficerId,
    /// His side.
    pub side: Side,
    /// His rank.
    pub rank: Rank,
    /// His brigade, for a Brigadier.
    pub brigade: Option<u8>,
    /// Mounted (moves 30 cm) or on foot (15 cm).
    pub mounted: bool,
    /// Alive.
    pub alive: bool,
    /// The unit he is attached to, and the turn he attached.
    pub attached: Option<(UnitId, u32)>,
    /// Beyond the officers the force needs (D8-OPT-06): no VP for killing him unless the players agree.
    pub decorative: bool,
}

impl fmt::Display for Officer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.brigade {
            Some(b) => write!(f, "the {} {} of brigade {b}", self.side, self.rank),
            None => write!(f, "the {} {}", self.side, self.rank),
        }
    }
}

/// What a volley is aimed at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// An enemy unit.
    Unit(UnitId),
    /// A lone enemy officer.
    Officer(OfficerId),
}

/// A volley as measured by the caller (D8-FIR-01, D8-FIR-05).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct FireFacts {
    /// Distance from each firing figure (or the gun) to the nearest target figure in its arc and sight, in cm;
    /// one entry a figure that can fire (a battery: one entry, the gun's distance).
    pub distances_cm: [f64; 24],
    /// How many entries of `distances_cm` are used.
    pub figures: usize,
    /// Bearing of the target off the gun's barrel, degrees (batteries only; line and column figures give only
    /// the figures in their arc).
    pub bearing_degrees: f64,
    /// Whether woods, buildings, hills or smoke lie between firer and target (D8-ENV-01).
    pub sight_blocked: bool,
    /// Whether the firers stand inside a wood, back from its edge.
    pub firer_deep_in_wood: bool,
    /// Whether the target stands inside a wood, back from its edge.
    pub target_deep_in_wood: bool,
    /// The target's cover (the majority of its figures; behind the cover as seen from the firer).
    pub target_cover: Cover,
    /// For an officer target: whether a unit stands between him and the firer.
    pub officer_screened: bool,
    /// For a battery under the "crew at the gun" option: artillerymen in base contact with the gun.
    pub crew_at_gun: u32,
}

impl FireFacts {
    /// Facts for `figures` figures all at `distance_cm`, nothing blocking sight, target in the open.
    #[must_use]
    pub fn all_at(figures: usize, distance_cm: f64) -> FireFacts {
        let mut d = [0.0; 24];
        let n = figures.min(24);
        d[..n].fill(distance_cm);
        FireFacts {
            distances_cm: d,
            figures: n,
            ..FireFacts::default()
        }
    }
}

/// A volley checked and ready to roll ([`Battle::plan_volley`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct FirePlan {
    volley: Volley,
    target_unit: Option<UnitId>,
    target_officer: Option<OfficerId>,
    side: Side,
}

/// What a volley fired by [`Battle::fire_planned`] did: [`FireReport`] without the names.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fired {
    pub(crate) hits: u32,
    pub(crate) casualties: u32,
    pub(crate) officer_killed: bool,
    pub(crate) volley: Volley,
}

/// A volley's firer or target as [`Battle::fire`]'s report names it (a unit's label sentence, an officer as he
/// reads, or nothing), written only when read.
struct VolleyTarget<'a> {
    unit: Option<&'a Unit>,
    officer: Option<&'a Officer>,
}

impl fmt::Display for VolleyTarget<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.unit, self.officer) {
            (Some(u), _) => {
                f.write_str("the ")?;
                f.write_str(&u.name)?;
                f.write_str(" (")?;
                f.write_str(crate::tables::side_word(u.side))?;
                f.write_str(" ")?;
                f.write_str(u.troop.word())?;
                f.write_str(")")
            }
            (None, Some(o)) => write!(f, "{o}"),
            (None, None) => Ok(()),
        }
    }
}

/// What a volley did.
#[derive(Clone, Debug, PartialEq)]
pub struct FireReport {
    /// Who fired.
    pub firer: String,
    /// At whom.
    pub target: String,
    /// D8s rolled.
    pub dice: u32,
    /// Hits.
    pub hits: u32,
    /// Casualties after saves.
    pub casualties: u32,
    /// An attached officer killed by the per-volley check (option).
    pub officer_killed: bool,
    /// The volley as the rules planned it ([`Battle::planned_volley`]): its dice, the faces they needed and
    /// the save.
    pub volley: Volley,
}

impl fmt::Display for FireReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} fired {} dice at {}: {} hits, {} casualties",
            self.firer, self.dice, self.target, self.hits, self.casualties
        )?;
        if self.officer_killed {
            f.write_str("; the attached officer was killed")?;
        }
        Ok(())
    }
}

/// Who a pairing in melee strikes (D8-MEL-01).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Struck {
    /// A figure of the defending unit.
    Figure,
    /// An officer in contact.
    Officer(OfficerId),
}

/// A melee as the caller sets it up (D8-MEL-01): each defending figure in contact and how many attackers are on
/// it (1 to 3), and the defenders' cover (a building is hard cover, D8-MEL-08).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct MeleeFacts {
    /// Each defending figure (or officer) in contact and the attacking figures on it.
    pub pairings: Vec<(Struck, u8)>,
    /// The defenders' cover.
    pub cover: Cover,
    /// Whether the defenders are inside a building.
    pub in_building: bool,
}

/// A bombardment as measured by the caller (D8-STR-05).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct BombardFacts {
    /// Distance from the gun to the structure (or the section aimed at), in cm.
    pub distance_cm: f64,
    /// Bearing of the structure off the gun's barrel, in degrees.
    pub bearing_degrees: f64,
    /// Whether anything blocks the gun's sight of it.
    pub sight_blocked: bool,
    /// Units with figures inside the building or on the bridge, and how many.
    pub occupants: Vec<(UnitId, u32)>,
}

/// What a melee did.
#[derive(Clone, Debug, PartialEq)]
pub struct MeleeReport {
    /// The attacker.
    pub attacker: String,
    /// The defender.
    pub defender: String,
    /// Figures killed.
    pub killed: u32,
    /// Officers killed.
    pub officers_killed: u32,
}

impl fmt::Display for MeleeReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} attacked {}: {} figures killed",
            self.attacker, self.defender, self.killed
        )?;
        if self.officers_killed > 0 {
            write!(f, " and {} officer(s)", self.officers_killed)?;
        }
        Ok(())
    }
}

/// How the game began (D8-SEQ-02, D8-ENV-02 to D8-ENV-05).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Which player won the roll-off and rolled for the day.
    pub day_roller: Player,
    /// The day.
    pub day: Option<Day>,
    /// Whether wind blows.
    pub wind: bool,
    /// Who moves first.
    pub first: Side,
}

impl fmt::Display for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(d) = self.day {
            write!(f, "{d}; ")?;
        }
        write!(
            f,
            "{}; the {} side moves first",
            if self.wind {
                "wind blows the smoke away"
            } else {
                "no wind"
            },
            self.first
        )
    }
}

/// The whole battle state. It saves and loads with serde; loading checks that the state is one the rules could
/// reach (ids in order, figures within the original count, formations allowed, officers attached to units of
/// their side…).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "BattleRepr"))]
pub struct Battle {
    options: Options,
    units: Vec<Unit>,
    officers: Vec<Officer>,
    structures: Vec<Structure>,
    phase: Phase,
    active: Side,
    first: Side,
    /// Player turns each side has begun.
    turns: BySide<u32>,
    /// Turns each player gets (from the night/day roll or the turn limit).
    turn_limit: u32,
    wind: bool,
    points: BySide<Points>,
    baggage: BySide<u8>,
    opened: bool,
}

/// A [`Battle`] as loaded, before its checks.
#[cfg(feature = "serde")]
#[derive(Deserialize)]
struct BattleRepr {
    options: Options,
    units: Vec<Unit>,
    officers: Vec<Officer>,
    structures: Vec<Structure>,
    phase: Phase,
    active: Side,
    first: Side,
    /// Player turns each side has begun.
    turns: BySide<u32>,
    /// Turns each player gets (from the night/day roll or the turn limit).
    turn_limit: u32,
    wind: bool,
    points: BySide<Points>,
    baggage: BySide<u8>,
    opened: bool,
}

#[cfg(feature = "serde")]
impl TryFrom<BattleRepr> for Battle {
    type Error = D8Error;

    fn try_from(r: BattleRepr) -> Result<Battle, D8Error> {
        let bad = D8Error::BadBattle;
        for (i, u) in r.units.iter().enumerate() {
            if u.id.0 as usize != i {
                return Err(bad(format!("unit {} is stored in place {i}", u.id.0)));
            }
            if u.name.trim().is_empty()
                || u.original == 0
                || u.original > crate::tables::MAX_UNIT
                || u.figures > u.original
            {
                return Err(bad(format!(
                    "{} has {} of {} figures",
                    u.name, u.figures, u.original
                )));
            }
            if !crate::army::weapon_allowed(u.troop, u.class, u.weapon) {
                return Err(bad(format!("{} cannot carry a {}", u.name, u.weapon)));
            }
            if u.troop.brigaded() != u.brigade.is_some() {
                return Err(bad(format!("{} is wrongly brigaded", u.name)));
            }
            let mounts = matches!(u.troop, Troop::Cavalry | Troop::Indians);
            if (u.mounted && !mounts)
                || (u.limbered && !u.troop.is_battery())
                || (u.horses > 0 && !u.troop.is_battery())
                || u.horses > 2
            {
                return Err(bad(format!(
                    "{} has horses or a limber it cannot have",
                    u.name
                )));
            }
            let formation_ok = if u.troop.is_battery() {
                u.formation
                    == if u.limbered {
                        Formation::Column
                    } else {
                        Formation::Skirmish
                    }
            } else {
                u.troop.allows(u.class, u.mounted, u.formation)
            };
            if !formation_ok {
                return Err(bad(format!("{} may not stand in {}", u.name, u.formation)));
            }
            if u.in_building > u.figures.min(crate::movement::BUILDING_CAPACITY)
                || u.boat.is_some_and(|b| !boat_fits(b, u.figures))
                || !(u.works_cm.is_finite() && u.works_cm >= 0.0)
            {
                return Err(bad(format!("{} is placed impossibly", u.name)));
            }
            if u.away.is_some() && !u.removed {
                return Err(bad(format!(
                    "{} is away on a flank march but stands on the table",
                    u.name
                )));
            }
        }
        for (i, o) in r.officers.iter().enumerate() {
            if o.id.0 as usize != i || (o.rank == Rank::Brigadier) != o.brigade.is_some() {
                return Err(bad(format!("officer {i} is not stored as he should be")));
            }
            if let Some((u, _)) = o.attached
                && r.units
                    .get(u.0 as usize)
                    .is_none_or(|u| u.side != o.side || u.removed || !o.alive)
            {
                return Err(bad(format!("{o} is attached to a unit he cannot be with")));
            }
        }
        Ok(Battle {
            options: r.options,
            units: r.units,
            officers: r.officers,
            structures: r.structures,
            phase: r.phase,
            active: r.active,
            first: r.first,
            turns: r.turns,
            turn_limit: r.turn_limit,
            wind: r.wind,
            points: r.points,
            baggage: r.baggage,
            opened: r.opened,
        })
    }
}

fn unknown(what: &'static str, id: u32) -> Refusal {
    Refusal::Input(D8Error::Unknown { what, id })
}

fn dice_fault<D: Dice + ?Sized>(dice: &D) -> Result<(), Refusal> {
    check(dice).map_err(Refusal::Input)
}

impl Battle {
    /// A battle between two armies: every unit in its starting order (foot in line, cavalry mounted in line,
    /// sharpshooters and Indians in skirmish order, batteries limbered with 2 horses) and the officers of the
    /// orders of battle (D8-SET-33): the Brigadiers, Divisional Commanders and any Corps Commander. Officers
    /// start mounted.
    pub fn new(union: &Army, confederate: &Army, options: Options) -> Result<Battle, D8Error> {
        if union.data().side != Side::Union || confederate.data().side != Side::Confederate {
            return Err(D8Error::BadArmy(
                "the first army must be the Union's and the second the Confederates'".into(),
            ));
        }
        let mut b = Battle {
            turn_limit: options.turn_limit,
            options,
            units: Vec::new(),
            officers: Vec::new(),
            structures: Vec::new(),
            phase: Phase::Start,
            active: Side::Union,
            first: Side::Union,
            turns: BySide::new(0, 0),
            wind: true,
            points: BySide::default(),
            baggage: BySide::new(union.data().baggage, confederate.data().baggage),
            opened: false,
        };
        for army in [union, confederate] {
            let d = army.data();
            for u in &d.units {
                let _ = b.push_unit(
                    d.side, &u.name, u.troop, u.class, u.figures, u.weapon, u.brigade,
                );
            }
            let mut seen = [0u32; 5];
            for &rank in &d.officers {
                let n = &mut seen[usize::from(rank.precedence() - 1)];
                *n += 1;
                let needed = match rank {
                    Rank::Brigadier => u32::from(d.brigades),
                    Rank::Division => u32::from(d.divisions),
                    Rank::Corps => u32::from(d.divisions > 1),
                    Rank::CommanderInChief | Rank::ChiefOfStaff => 0,
                };
                let br = (rank == Rank::Brigadier).then(|| u8::try_from(*n).unwrap_or(u8::MAX));
                let id = OfficerId(b.officers.len() as u32);
                b.officers.push(Officer {
                    id,
                    side: d.side,
                    rank,
                    brigade: br,
                    mounted: true,
                    alive: true,
                    attached: None,
                    decorative: *n > needed,
                });
            }
        }
        Ok(b)
    }

    #[allow(clippy::too_many_arguments)]
    fn push_unit(
        &mut self,
        side: Side,
        name: &str,
        troop: Troop,
        class: Class,
        figures: u32,
        weapon: Weapon,
        brigade: Option<u8>,
    ) -> UnitId {
        let id = UnitId(self.units.len() as u32);
        let (formation, mounted, limbered) = match troop {
            Troop::Foot => (Formation::Line, false, false),
            Troop::Cavalry => (Formation::Line, true, false),
            Troop::Sharpshooters => (Formation::Skirmish, false, false),
            Troop::Indians => (Formation::Skirmish, true, false),
            Troop::Battery(_) => (Formation::Column, false, true),
        };
        self.units.push(Unit {
            id,
            name: name.into(),
            side,
            troop,
            class,
            original: figures,
            figures,
            weapon,
            brigade,
            formation,
            mounted,
            limbered,
            horses: if troop.is_battery() { 2 } else { 0 },
            ff: None,
            moved: false,
            changed_formation: false,
            fired: false,
            charged: false,
            last_charge: None,
            lost_this_turn: 0,
            fire_losses: 0,
            in_melee: false,
            in_influence: true,
            smoke: Smoke::default(),
            in_building: 0,
            boat: None,
            works_moves: 0,
            dug: false,
            works_cm: 0.0,
            removed: false,
            away: None,
        });
        id
    }

    /// D8-SET-15: checks a unit's deployment, given the y coordinate (cm, north to south) of each of its figures:
    /// every figure within `depth_cm` of its side's base line (30 cm, the first row of squares, by default).
    pub fn check_deployment(
        &self,
        id: UnitId,
        figure_ys: &[f64],
        depth_cm: f64,
    ) -> Result<(), Refusal> {
        let u = self.live(id)?;
        for &y in figure_ys {
            if !crate::map::in_deployment_zone(u.side, y, depth_cm)? {
                return Err(Refusal::Forbidden(format!(
                    "{} must deploy within {depth_cm} cm of the {} base line; a figure stands at y = {y} cm",
                    u.label(),
                    u.side
                )));
            }
        }
        Ok(())
    }

    /// D8-OPT-07: adds a band of Indians to a side: Raw, mounted, skirmish order only, with bows; they may fire
    /// mounted and take the jump and river hazards. Only when the option fields them.
    pub fn add_indians(&mut self, side: Side, name: &str, figures: u32) -> Result<UnitId, Refusal> {
        if !self.options.indians {
            return Err(Refusal::Forbidden(
                "Indians are not in play in this game".into(),
            ));
        }
        if !(MIN_UNIT..=crate::tables::MAX_UNIT).contains(&figures) {
            return Err(D8Error::range("Indian figures", figures, 4, 20).into());
        }
        Ok(self.push_unit(
            side,
            name,
            Troop::Indians,
            Class::Raw,
            figures,
            Weapon::Bow,
            None,
        ))
    }

    /// The options.
    #[must_use]
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Every unit.
    #[must_use]
    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    /// A unit.
    pub fn unit(&self, id: UnitId) -> Result<&Unit, D8Error> {
        self.units.get(id.0 as usize).ok_or(D8Error::Unknown {
            what: "unit",
            id: id.0,
        })
    }

    /// Every officer.
    #[must_use]
    pub fn officers(&self) -> &[Officer] {
        &self.officers
    }

    /// An officer.
    pub fn officer(&self, id: OfficerId) -> Result<&Officer, D8Error> {
        self.officers.get(id.0 as usize).ok_or(D8Error::Unknown {
            what: "officer",
            id: id.0,
        })
    }

    /// The phase.
    #[must_use]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The side that moves first (D8-SEQ-02), decided when the game is opened.
    #[must_use]
    pub fn first(&self) -> Side {
        self.first
    }

    /// The side whose turn it is.
    #[must_use]
    pub fn active(&self) -> Side {
        self.active
    }

    /// Victory points so far (kills, officers, baggage; D8-VIC-08).
    #[must_use]
    pub fn points(&self) -> BySide<Points> {
        self.points
    }

    /// Turns each player gets.
    #[must_use]
    pub fn turn_limit(&self) -> u32 {
        self.turn_limit
    }

    /// Player turns each side has begun (its "moves", D8-SEQ-03).
    #[must_use]
    pub fn turns(&self) -> BySide<u32> {
        self.turns
    }

    /// Whether wind blows (D8-ENV-05).
    #[must_use]
    pub fn wind(&self) -> bool {
        self.wind
    }

    fn u(&self, id: UnitId) -> Result<&Unit, Refusal> {
        self.units
            .get(id.0 as usize)
            .ok_or_else(|| unknown("unit", id.0))
    }

    fn live(&self, id: UnitId) -> Result<&Unit, Refusal> {
        let u = self.u(id)?;
        if u.removed {
            return Err(Refusal::Forbidden(format!(
                "{} has been removed from the battle",
                u.label()
            )));
        }
        Ok(u)
    }

    fn in_phase(&self, phase: Phase, action: &'static str) -> Result<(), Refusal> {
        if self.phase != phase {
            return Err(Refusal::WrongTime {
                action,
                why: format!("it is {}, not {}", self.phase, phase),
            });
        }
        Ok(())
    }

    fn own(&self, id: UnitId, phase: Phase, action: &'static str) -> Result<&Unit, Refusal> {
        self.in_phase(phase, action)?;
        let u = self.live(id)?;
        if u.side != self.active {
            return Err(Refusal::WrongTime {
                action,
                why: format!(
                    "it is the {} player's turn, and {} is not his",
                    self.active,
                    u.label()
                ),
            });
        }
        Ok(u)
    }

    /// D8-SEQ-02, D8-ENV-02 to D8-ENV-05: opens the game: the D6 roll-off (the winner rolls for the day), the
    /// season and start hour (setting each player's turns, 4 an hour of daylight), the wind, and who moves first
    /// (more cavalry figures, then more artillerymen — batteries under the option — then a D10 roll-off). Without
    /// night and day the turn limit in the options stands; without wind and smoke the wind always blows.
    pub fn open<D: Dice + ?Sized>(&mut self, dice: &mut D) -> Result<Opening, Refusal> {
        if self.opened
            || self.phase != Phase::Start
            || self.turns.union + self.turns.confederate > 0
        {
            return Err(Refusal::WrongTime {
                action: "opening the game",
                why: "the game has already begun".into(),
            });
        }
        let (day_roller, day) = if self.options.night_and_day {
            dice.about(format_args!(
                "the roll-off for who rolls for the day (a d6 each player)"
            ));
            let roller = RollOff { die: Die::D6 }.roll(dice);
            dice.about(format_args!(
                "the season (a d6) and the start hour (4d6) of the day"
            ));
            (roller, Some(NightDay.roll(dice)))
        } else {
            (Player::First, None)
        };
        let wind = if self.options.wind_and_smoke {
            dice.about(format_args!("the wind (a d6: 1 is no wind)"));
            Wind.roll(dice)
        } else {
            true
        };
        dice.about(format_args!(
            "the d10 roll-off for the first move (equal cavalry and artillery)"
        ));
        let first = self.first_move().roll(dice);
        dice_fault(dice)?;
        if let Some(d) = day {
            self.turn_limit = d.turns_per_player();
        }
        self.wind = wind;
        self.opened = true;
        self.first = first;
        self.active = first;
        Ok(Opening {
            day_roller,
            day,
            wind,
            first,
        })
    }

    /// D8-SEQ-02: the first-move comparison on the current figures.
    #[must_use]
    pub fn first_move(&self) -> FirstMove {
        let mut m = FirstMove::default();
        for u in self.units.iter().filter(|u| !u.removed) {
            match u.troop {
                Troop::Cavalry => *m.cavalry.get_mut(u.side) += u.figures,
                Troop::Battery(_) => {
                    *m.artillery.get_mut(u.side) += if self.options.initiative_by_batteries {
                        1
                    } else {
                        u.figures
                    }
                }
                _ => {}
            }
        }
        m
    }

    /// D8-CMD-02, D8-CMD-05: the officer who commands a unit now: a regiment's own Brigadier while he lives, else
    /// the Divisional Commander; other units the Divisional Commander (or, with him dead, a Corps Commander).
    /// Succession goes one level only: with both dead, nobody, and the unit may never again move forwards.
    #[must_use]
    pub fn commanding_officer(&self, id: UnitId) -> Option<OfficerId> {
        let u = self.units.get(id.0 as usize)?;
        let alive = |r: Rank, b: Option<u8>| {
            self.officers
                .iter()
                .find(|o| o.side == u.side && o.rank == r && (b.is_none() || o.brigade == b))
                .filter(|o| o.alive)
                .map(|o| o.id)
        };
        // Each search made only when its answer is needed (the Divisional officer only if no Brigadier is).
        if u.troop.brigaded() {
            alive(Rank::Brigadier, u.brigade).or_else(|| alive(Rank::Division, None))
        } else {
            alive(Rank::Division, None).or_else(|| alive(Rank::Corps, None))
        }
    }

    /// D8-VIC-05, D8-OPT-06: an officer dies: 10 VP to the enemy, unless he was decorative (beyond those the
    /// force needs) and the players have not agreed that such officers count.
    fn kill_officer(&mut self, id: OfficerId, by: Side, vp: bool) {
        let extra_count = crate::flank::extra_officer_counts(&self.options);
        if let Some(o) = self.officers.get_mut(id.0 as usize)
            && o.alive
        {
            o.alive = false;
            o.attached = None;
            if vp && (!o.decorative || extra_count) {
                self.points.get_mut(by).officers += vp::OFFICER;
            }
        }
    }

    /// Removes `n` figures from a unit and scores them for the enemy (D8-CAS-01, D8-CAS-02, D8-VIC-04). With the
    /// minimum-unit option a unit under 4 figures is removed at once (D8-SET-37, D8-MOR-09).
    fn lose(&mut self, id: UnitId, n: u32, combat: bool, vp: bool) {
        let remove_small = self.options.remove_below_minimum;
        let Some(u) = self.units.get_mut(id.0 as usize) else {
            return;
        };
        let n = n.min(u.figures);
        u.figures -= n;
        u.in_building = u.in_building.min(u.figures);
        if combat {
            u.lost_this_turn += n;
        }
        let (side, class) = (u.side, u.class);
        if u.figures == 0 || (remove_small && u.figures < MIN_UNIT) {
            u.removed = true;
        }
        let removed = u.removed;
        if vp {
            self.points.get_mut(side.enemy()).kills += n * class.kill_points();
        }
        if removed {
            self.remove_attached(id, side.enemy());
        }
    }

    fn remove_attached(&mut self, id: UnitId, by: Side) {
        let vp = !self.options.removed_officer_no_vp;
        let attached: Vec<OfficerId> = self
            .officers
            .iter()
            .filter(|o| o.alive && o.attached.is_some_and(|(u, _)| u == id))
            .map(|o| o.id)
            .collect();
        for o in attached {
            self.kill_officer(o, by, vp);
        }
    }

    // ----- Start of turn -----

    /// D8-SEQ-01, D8-FRM-03, D8-FRM-04, D8-CMD-03, D8-CMD-06, D8-ENV-06: begins the active side's turn: counts the
    /// move, records which of its units are in influence (each listed with its base-edge distance in cm to its
    /// commanding officer, in range if no further than his radius; units not listed are out), moves its smoke on,
    /// and tests every unit with a formation fail whose cause has ended (a D8 by class; a pass clears it). Returns
    /// the units that passed and failed.
    pub fn start_turn<D: Dice + ?Sized>(
        &mut self,
        influence: &[(UnitId, f64)],
        dice: &mut D,
    ) -> Result<Vec<(UnitId, bool)>, Refusal> {
        self.start_turn_in(
            |b| {
                for &(id, d) in influence {
                    b.u(id)?;
                    crate::error::length("a distance to an officer", d)?;
                }
                let mut in_range = vec![false; b.units.len()];
                for &(id, d) in influence {
                    if let Some(o) = b.commanding_officer(id) {
                        in_range[id.0 as usize] = d <= b.officers[o.0 as usize].rank.radius_cm();
                    }
                }
                Ok(in_range)
            },
            dice,
        )
    }

    /// [`Battle::start_turn`] with the units in influence told by `in_range` (asked once the phase is checked):
    /// a flag for each unit by its place in the battle's list (`Field::in_influence` measures each unit's
    /// distance to its commanding officer against his radius, the officer found once).
    pub(crate) fn start_turn_in<D: Dice + ?Sized>(
        &mut self,
        in_range: impl FnOnce(&Battle) -> Result<Vec<bool>, Refusal>,
        dice: &mut D,
    ) -> Result<Vec<(UnitId, bool)>, Refusal> {
        self.in_phase(Phase::Start, "starting a turn")?;
        let in_range = in_range(self)?;
        let side = self.active;
        let mut tests = Vec::new();
        for u in self.units.iter().filter(|u| u.side == side && !u.removed) {
            if let Some(ff) = u.ff
                && ff.may_test()
            {
                dice.about(format_args!(
                    "the formation-fail test of the {} ({} {}, a d8)",
                    u.name, u.side, u.troop
                ));
                tests.push((
                    u.id,
                    FormationTest {
                        class: u.class,
                        d6: false,
                    }
                    .roll(dice),
                ));
            }
        }
        dice_fault(dice)?;
        *self.turns.get_mut(side) += 1;
        for u in self.units.iter_mut().filter(|u| u.side == side) {
            u.in_influence = in_range.get(u.id.0 as usize).copied().unwrap_or(false);
            if !u.dug {
                u.works_moves = 0;
            }
            u.dug = false;
            let fired = u.fired;
            u.smoke.new_move(fired);
            u.moved = false;
            u.fired = false;
            u.charged = false;
            u.changed_formation = false;
        }
        for &(id, pass) in &tests {
            if pass {
                self.units[id.0 as usize].ff = None;
            }
        }
        self.phase = Phase::Movement;
        Ok(tests)
    }

    /// D8-FRM-03: the caller reports that a lasting cause (spacing, contact, a split building party) has ended, so
    /// the unit will test at the start of its next turn.
    pub fn cause_ended(&mut self, id: UnitId) -> Result<(), Refusal> {
        self.live(id)?;
        let u = &mut self.units[id.0 as usize];
        if u.in_building > 0 && u.in_building < u.figures {
            return Err(Refusal::Forbidden(format!(
                "{} is still split by a building",
                u.label()
            )));
        }
        if let Some(ff) = u.ff.as_mut() {
            ff.cause_active = false;
        }
        Ok(())
    }

    /// D8-FRM-01, D8-FRM-02, D8-MOV-03: gives a unit a formation fail from a cause the caller observed (a
    /// skirmish line too close or out of sight, a line or column out of contact). A unit that already has one keeps
    /// it; a lasting cause marks it as still going on.
    pub fn formation_fail(&mut self, id: UnitId, cause: FfCause) -> Result<(), Refusal> {
        self.live(id)?;
        Self::give_ff(&mut self.units[id.0 as usize], cause);
        Ok(())
    }

    /// D8-MOV-03, D8-FRM-02, D8-FRM-03: the caller's measure of a skirmish line: its closest gap between figures
    /// and whether every figure is in sight of the others. Out of order, the unit has a formation fail whose cause
    /// goes on; back in order, that cause has ended. Returns whether the line is in order.
    pub fn skirmish_order(
        &mut self,
        id: UnitId,
        closest_gap_cm: f64,
        all_in_sight: bool,
    ) -> Result<bool, Refusal> {
        let u = self.live(id)?;
        crate::error::length("the gap between skirmishers", closest_gap_cm)?;
        if u.formation != Formation::Skirmish {
            return Err(Refusal::Forbidden(format!(
                "{} is not in skirmish order",
                u.label()
            )));
        }
        let ok = crate::movement::skirmish_in_order(closest_gap_cm, all_in_sight);
        let u = &mut self.units[id.0 as usize];
        if !ok {
            Self::give_ff(u, FfCause::SkirmishSpacing);
        } else if let Some(ff) = u.ff.as_mut()
            && ff.cause == FfCause::SkirmishSpacing
        {
            ff.cause_active = false;
        }
        Ok(ok)
    }

    fn give_ff(u: &mut Unit, cause: FfCause) {
        match u.ff.as_mut() {
            Some(ff) => ff.cause_active |= cause.lasting(),
            None => u.ff = Some(FormationFail::new(cause)),
        }
    }

    // ----- Movement -----

    fn may_advance(&self, u: &Unit, facts: &MoveFacts) -> Result<(), Refusal> {
        let forward = facts.nearer_enemy
            || facts.into_contact
            || (facts.towards_base_line && !self.options.towards_enemy_distance_only);
        if forward && !u.in_influence {
            let why = if self.commanding_officer(u.id).is_none() {
                "its commanding officers are dead, so it may never again move towards the enemy"
                    .to_string()
            } else {
                "it was out of its commander's influence at the start of the turn, so it may not move forwards or \
                 towards the enemy"
                    .to_string()
            };
            return Err(Refusal::CannotMove {
                unit: u.label(),
                why: why.into(),
            });
        }
        Ok(())
    }

    fn whole_move(&self, id: UnitId, action: WholeMove) -> Result<&Unit, Refusal> {
        let u = self.own(id, Phase::Movement, "a whole-move action")?;
        if u.moved {
            return Err(Refusal::CannotMove {
                unit: u.label(),
                why: format!("it has already moved this turn, and {action} takes a whole move")
                    .into(),
            });
        }
        if u.boat.is_some() && action != WholeMove::Boat {
            return Err(Refusal::CannotMove {
                unit: u.label(),
                why: "it is in a boat".into(),
            });
        }
        Ok(u)
    }

    fn finish_whole_move(&mut self, id: UnitId, cause: Option<FfCause>) {
        let u = &mut self.units[id.0 as usize];
        u.moved = true;
        u.smoke.moved();
        if let Some(c) = cause {
            Self::give_ff(u, c);
        }
    }

    /// The checks of [`Battle::move_unit`], everything before its dice: whether the rules accept the move as
    /// measured. Returns how the unit moves.
    pub(crate) fn check_move(&self, id: UnitId, facts: &MoveFacts) -> Result<Mover, Refusal> {
        let u = self.own(id, Phase::Movement, "moving")?;
        crate::error::length("a move", facts.distance_cm)?;
        let no = |why: String| Refusal::CannotMove {
            unit: u.label(),
            why: why.into(),
        };
        if u.moved {
            return Err(no("it has already moved this turn".into()));
        }
        if u.boat.is_some() {
            return Err(no("it is in a boat; the boat moves it".into()));
        }
        self.may_advance(u, facts)?;
        let mover = u.mover();
        let pace = if facts.in_column {
            Pace::Column
        } else {
            Pace::Basic
        };
        if facts.in_column && u.formation != Formation::Column {
            return Err(no(format!("it is in {}, not column", u.formation)));
        }
        if u.troop.is_battery() && !u.limbered {
            return Err(no("an unlimbered gun can only be manhandled".into()));
        }
        if u.formation == Formation::Column
            && !column_allowed(
                facts.on_road,
                matches!(mover, Mover::Gun(_) | Mover::Wagon),
                &self.options,
            )
        {
            return Err(no(
                "columns move only along roads; change to line or skirmish order to leave it"
                    .into(),
            ));
        }
        let allowed = allowance(mover, pace, u.horses).ok_or_else(|| {
            no("its limber has no horses left; the gun can only be manhandled".into())
        })?;
        if !within(facts.distance_cm, allowed) {
            return Err(no(format!(
                "it may move at most {allowed} cm, not {} cm",
                facts.distance_cm
            )));
        }
        if let Some(why) = facts
            .crossed
            .iter()
            .find_map(|&g| barred(mover, g, facts.at_crossing))
        {
            return Err(no(why.into()));
        }
        Ok(mover)
    }

    /// D8-MOV-01 to D8-MOV-09, D8-MOV-16 to D8-MOV-19, D8-MOV-23, D8-CMD-04, D8-CMD-05, D8-SEQ-05: moves a unit
    /// as measured. Refused if it already moved, if the path is longer than its rate (no deduction for cover), if
    /// it is out of influence and moves forwards, if it is in column off a road (strict reading), or if it crosses
    /// ground barred to it. Mounted figures jumping fences or walls roll a D6 each (killed on 1) and swimming a
    /// river (not at a bridge or ford) a D6 each (drowned on 1–2). Crossing cover, a building, or a formed unit
    /// gives a formation fail (skirmishers passing only under the option). Returns the figures lost to hazards.
    pub fn move_unit<D: Dice + ?Sized>(
        &mut self,
        id: UnitId,
        facts: &MoveFacts,
        dice: &mut D,
    ) -> Result<u32, Refusal> {
        let mover = self.check_move(id, facts)?;
        let u = &self.units[id.0 as usize];
        // Hazards for mounted figures (D8-MOV-18, D8-MOV-19).
        let mut lost = 0;
        let mut figures = u.figures;
        if mover == Mover::Mounted {
            for &g in &facts.crossed {
                let h = match g.mounted_passage() {
                    MountedPassage::Jump => Hazard::jump(figures),
                    MountedPassage::Swim if !facts.at_crossing => Hazard::river(figures),
                    _ => continue,
                };
                dice.about(format_args!(
                    "the {} of the {} ({} {}): a d6 a figure",
                    if h.kills_on == 1 {
                        "jump"
                    } else {
                        "river crossing"
                    },
                    u.name,
                    u.side,
                    u.troop
                ));
                let k = h.roll(dice);
                lost += k;
                figures -= k;
            }
        }
        dice_fault(dice)?;
        let cover = facts
            .crossed
            .iter()
            .any(|g| g.cover(self.options.broken_ground_soft) != Cover::Open);
        let vp = self.options.vp_for_hazard_losses;
        self.lose(id, lost, false, vp);
        let u = &mut self.units[id.0 as usize];
        u.moved = true;
        u.smoke.moved();
        if cover {
            Self::give_ff(u, FfCause::CrossedCover);
        }
        if facts.building {
            Self::give_ff(u, FfCause::Building);
        }
        if facts.through_formed && u.formation != Formation::Skirmish {
            Self::give_ff(u, FfCause::Interpenetration);
        }
        if facts.through_skirmishers && self.options.skirmish_interpenetration_ff {
            Self::give_ff(u, FfCause::SkirmishInterpenetration);
        }
        Ok(lost)
    }

    /// D8-MOV-09: the unit another formed unit passed through also gets a formation fail (D8-MOV-08: a skirmisher
    /// passing gives none, save under the option).
    pub fn passed_through(&mut self, id: UnitId, by_skirmishers: bool) -> Result<(), Refusal> {
        let u = self.live(id)?;
        if by_skirmishers && !self.options.skirmish_interpenetration_ff {
            return Ok(());
        }
        if u.formation == Formation::Skirmish
            && !by_skirmishers
            && !self.options.skirmish_interpenetration_ff
        {
            return Ok(());
        }
        let cause = if by_skirmishers || u.formation == Formation::Skirmish {
            FfCause::SkirmishInterpenetration
        } else {
            FfCause::Interpenetration
        };
        Self::give_ff(&mut self.units[id.0 as usize], cause);
        Ok(())
    }

    /// D8-MOV-04, D8-MOV-05, D8-SEQ-04: changes formation: a whole move, no fire, a formation fail. Raw foot may not
    /// skirmish; sharpshooters, Indians and dismounted cavalry only skirmish; batteries change by limbering.
    pub fn change_formation(&mut self, id: UnitId, to: Formation) -> Result<(), Refusal> {
        let u = self.whole_move(id, WholeMove::ChangeFormation)?;
        if u.troop.is_battery() {
            return Err(Refusal::CannotMove {
                unit: u.label(),
                why: "a battery changes order by limbering or unlimbering".into(),
            });
        }
        if u.formation == to {
            return Err(Refusal::CannotMove {
                unit: u.label(),
                why: format!("it is already in {to}").into(),
            });
        }
        if !u.troop.allows(u.class, u.mounted, to) {
            return Err(Refusal::CannotMove {
                unit: u.label(),
                why: format!("a {} {} may not stand in {to}", u.class, u.troop).into(),
            });
        }
        self.finish_whole_move(id, Some(FfCause::ChangedFormation));
        let u = &mut self.units[id.0 as usize];
        u.formation = to;
        u.changed_formation = true;
        Ok(())
    }

    /// D8-MOV-10, D8-SEQ-04: cavalry mount or dismount: a whole move and a formation fail. Dismounted cavalry
    /// skirmish only.
    pub fn set_mounted(&mut self, id: UnitId, mounted: bool) -> Result<(), Refusal> {
        let u = self.whole_move(id, WholeMove::MountOrDismount)?;
        if u.troop != Troop::Cavalry || u.mounted == mounted {
            return Err(Refusal::CannotMove {
                unit: u.label(),
                why: if u.troop == Troop::Cavalry {
                    "it is already so".into()
                } else {
                    "only cavalry mount and dismount".into()
                },
            });
        }
        self.finish_whole_move(id, Some(FfCause::MountOrLimber));
        let u = &mut self.units[id.0 as usize];
        u.mounted = mounted;
        if !mounted {
            u.formation = Formation::Skirmish;
        }
        Ok(())
    }

    /// D8-MOV-11, D8-SEQ-04: a battery limbers (column) or unlimbers (skirmish): a whole move and a formation fail.
    pub fn set_limbered(&mut self, id: UnitId, limbered: bool) -> Result<(), Refusal> {
        let u = self.whole_move(id, WholeMove::LimberOrUnlimber)?;
        if !u.troop.is_battery() || u.limbered == limbered {
            return Err(Refusal::CannotMove {
                unit: u.label(),
                why: if u.troop.is_battery() {
                    "it is already so".into()
                } else {
                    "only batteries limber".into()
                },
            });
        }
        self.finish_whole_move(id, Some(FfCause::MountOrLimber));
        let u = &mut self.units[id.0 as usize];
        u.limbered = limbered;
        u.formation = if limbered {
            Formation::Column
        } else {
            Formation::Skirmish
        };
        Ok(())
    }

    /// D8-MOV-12, D8-ART-02, D8-SEQ-04: realigns an unlimbered gun: a whole move, so it does not fire this turn.
    pub fn realign(&mut self, id: UnitId) -> Result<(), Refusal> {
        let u = self.whole_move(id, WholeMove::Realign)?;
        if !u.troop.is_battery() || u.limbered {
            return Err(Refusal::CannotMove {
                unit: u.label(),
                why: "only an unlimbered gun is realigned".into(),
            });
        }
        self.finish_whole_move(id, None);
        Ok(())
    }

    /// D8-MOV-13, D8-ART-08: manhandles an unlimbered gun up to 7 cm (field) or 5 cm (heavy), with at least 2
    /// artillerymen; it cannot fire this turn.
    pub fn manhandle(&mut self, id: UnitId, distance_cm: f64) -> Result<(), Refusal> {
        let u = self.own(id, Phase::Movement, "manhandling a gun")?;
        crate::error::length("a manhandling move", distance_cm)?;
        let no = |why: String| Refusal::CannotMove {
            unit: u.label(),
            why: why.into(),
        };
        let Troop::Battery(g) = u.troop else {
            return Err(no("only guns are manhandled".into()));
        };
        if u.moved || u.limbered {
            return Err(no(
                "only an unlimbered gun that has not moved may be manhandled".into(),
            ));
        }
        let limit = crate::movement::manhandle_cm(g, u.figures)
            .ok_or_else(|| no("at least 2 artillerymen must go with the gun".into()))?;
        if !within(distance_cm, limit) {
            return Err(no(format!("a {g} gun is manhandled at most {limit} cm")));
        }
        self.finish_whole_move(id, None);
        Ok(())
    }

    /// D8-MOV-15, D8-SEQ-04: moves a horse from `donor`'s limber (in base contact) to `to`'s limber, which has none:
    /// `to`'s whole move; the donor is left with one.
    pub fn transfer_horse(&mut self, donor: UnitId, to: UnitId) -> Result<(), Refusal> {
        let d = self.live(donor)?;
        let t = self.whole_move(to, WholeMove::TransferHorse)?;
        if !d.troop.is_battery() || !t.troop.is_battery() || d.side != t.side || donor == to {
            return Err(Refusal::Forbidden(
                "a horse passes between two limbers of one side".into(),
            ));
        }
        if t.horses != 0 || d.horses == 0 {
            return Err(Refusal::Forbidden(format!(
                "a horse is moved only to a limber that has lost both, from one that has one; {} has {} and {} has {}",
                d.label(),
                d.horses,
                t.label(),
                t.horses
            )));
        }
        self.finish_whole_move(to, None);
        self.units[donor.0 as usize].horses -= 1;
        self.units[to.0 as usize].horses = 1;
        Ok(())
    }

    /// D8-CAS-05, D8-MOV-14: a limber horse killed (the rules do not say how; the caller reports it). One left
    /// halves the limber's move; none leaves the gun to be manhandled.
    pub fn kill_horse(&mut self, id: UnitId) -> Result<u8, Refusal> {
        let u = self.live(id)?;
        if !u.troop.is_battery() || u.horses == 0 {
            return Err(Refusal::Forbidden(format!(
                "{} has no limber horse to lose",
                u.label()
            )));
        }
        let u = &mut self.units[id.0 as usize];
        u.horses -= 1;
        Ok(u.horses)
    }

    /// D8-MOV-25, D8-MOV-26, D8-SEQ-04: a unit gets into (`Some`) or out of (`None`) a boat: a whole move and a
    /// formation fail, or under the option an immediate D6 test by class (a pass, no formation fail). A canoe or
    /// boat holds 4 figures, a large boat 8.
    pub fn boat<D: Dice + ?Sized>(
        &mut self,
        id: UnitId,
        boat: Option<Boat>,
        dice: &mut D,
    ) -> Result<bool, Refusal> {
        if !self.options.boats {
            return Err(Refusal::Forbidden(
                "boats are not in play in this game".into(),
            ));
        }
        let u = self.whole_move(id, WholeMove::Boat)?;
        if let Some(b) = boat
            && (u.boat.is_some() || !boat_fits(b, u.figures))
        {
            return Err(Refusal::CannotMove {
                unit: u.label(),
                why: if u.boat.is_some() {
                    "it is already in a boat".to_string().into()
                } else {
                    format!(
                        "a {b} holds {} figures and it has {}",
                        b.capacity(),
                        u.figures
                    )
                    .into()
                },
            });
        }
        if boat.is_none() && u.boat.is_none() {
            return Err(Refusal::CannotMove {
                unit: u.label(),
                why: "it is not in a boat".into(),
            });
        }
        let passed = if self.options.boat_d6_test {
            dice.about(format_args!(
                "the boarding test of the {} ({} {}, a d6)",
                u.name, u.side, u.troop
            ));
            let p = FormationTest {
                class: u.class,
                d6: true,
            }
            .roll(dice);
            dice_fault(dice)?;
            p
        } else {
            false
        };
        self.finish_whole_move(id, if passed { None } else { Some(FfCause::Boat) });
        self.units[id.0 as usize].boat = boat;
        Ok(passed)
    }

    /// D8-MOV-24: a boat's move along the river: 12" downstream (south), 6" upstream.
    pub fn row(&mut self, id: UnitId, downstream: bool, distance_cm: f64) -> Result<(), Refusal> {
        let u = self.own(id, Phase::Movement, "moving a boat")?;
        let limit = crate::movement::boat_move_cm(downstream, &self.options);
        if u.boat.is_none() || u.moved || !within(distance_cm, limit) {
            return Err(Refusal::CannotMove {
                unit: u.label(),
                why: format!("a boat that has not moved goes at most {limit:.2} cm this way")
                    .into(),
            });
        }
        self.units[id.0 as usize].moved = true;
        Ok(())
    }

    /// D8-MOV-23, D8-STR-02: puts `figures` of a unit into a building (at most 5): moving in or out gives a
    /// formation fail, which lasts while the unit is split between inside and outside.
    pub fn occupy_building(&mut self, id: UnitId, figures: u32) -> Result<(), Refusal> {
        let u = self.own(id, Phase::Movement, "occupying a building")?;
        if figures > crate::movement::BUILDING_CAPACITY || figures > u.figures {
            return Err(Refusal::CannotMove {
                unit: u.label(),
                why: format!(
                    "a building holds at most 5 figures and the unit has {}",
                    u.figures
                )
                .into(),
            });
        }
        let u = &mut self.units[id.0 as usize];
        u.in_building = figures;
        Self::give_ff(u, FfCause::Building);
        if figures == 0 || figures == u.figures {
            if let Some(ff) = u.ff.as_mut() {
                ff.cause_active = false;
            }
        } else if let Some(ff) = u.ff.as_mut() {
            ff.cause_active = true;
        }
        Ok(())
    }

    /// D8-STR-03: a unit spends its move building works: it neither moves nor fires; every 4 moves running (a turn
    /// without digging starts the count again) it has built a base width a figure. Returns the length built so far,
    /// in cm.
    pub fn dig(&mut self, id: UnitId) -> Result<f64, Refusal> {
        let u = self.own(id, Phase::Movement, "building works")?;
        if u.moved {
            return Err(Refusal::CannotMove {
                unit: u.label(),
                why: "it has already moved".into(),
            });
        }
        let u = &mut self.units[id.0 as usize];
        u.moved = true;
        u.dug = true;
        u.works_moves += 1;
        if u.works_moves.is_multiple_of(4) {
            u.works_cm += crate::structures::works_built_cm(u.figures, 4);
        }
        Ok(u.works_cm)
    }

    /// The checks of [`Battle::charge`]: whether the rules accept the charge as measured. Returns the move it
    /// is made on.
    pub(crate) fn check_charge(
        &self,
        id: UnitId,
        target: UnitId,
        facts: &ChargeFacts,
    ) -> Result<u32, Refusal> {
        let u = self.own(id, Phase::Movement, "charging")?;
        let t = self.live(target)?;
        crate::error::length("a charge", facts.distance_cm)?;
        if t.side == u.side {
            return Err(Refusal::CannotCharge {
                unit: u.label(),
                why: "the target is a friend".into(),
            });
        }
        if u.moved {
            return Err(Refusal::CannotCharge {
                unit: u.label(),
                why: "it has already moved".into(),
            });
        }
        self.may_advance(
            u,
            &MoveFacts {
                into_contact: true,
                ..MoveFacts::default()
            },
        )
        .map_err(|_| Refusal::CannotCharge {
            unit: u.label(),
            why: "it is out of its commander's influence".into(),
        })?;
        let mover = u.mover();
        let (Some(basic), Some(charge)) = (
            crate::tables::rate_cm(mover, Pace::Basic),
            crate::tables::rate_cm(mover, Pace::Charge),
        ) else {
            return Err(Refusal::CannotCharge {
                unit: u.label(),
                why: "guns do not charge".into(),
            });
        };
        if u.troop.is_battery() {
            return Err(Refusal::CannotCharge {
                unit: u.label(),
                why: "guns do not charge".into(),
            });
        }
        let now = *self.turns.get(u.side);
        if let Some(why) = charge_refusal(
            facts,
            u.formation,
            u.ff.is_some(),
            u.changed_formation,
            u.last_charge,
            now,
            basic,
            charge,
            &self.options,
        ) {
            return Err(Refusal::CannotCharge {
                unit: u.label(),
                why: why.into(),
            });
        }
        Ok(now)
    }

    /// D8-CMD-04, D8-MOV-20, D8-MOV-21, D8-FRM-05: whether the rules refuse every charge by `id` now, whatever
    /// its target and path: the checks of [`Battle::charge`] that need nothing measured (not its side's Movement
    /// phase, removed, moved, out of its commander's influence, guns, skirmishers, a column unless the option
    /// allows, a formation fail, a change of formation this move, or too soon after its last charge). `false`
    /// says nothing: the charge must still be checked. Nothing is built.
    #[must_use]
    pub fn charge_barred(&self, id: UnitId) -> bool {
        let Some(u) = self.units.get(id.0 as usize) else {
            return true;
        };
        let gap = if self.options.charge_interval_four {
            4
        } else {
            3
        };
        self.phase != Phase::Movement
            || u.removed
            || u.side != self.active
            || u.moved
            || !u.in_influence
            || u.troop.is_battery()
            || crate::tables::rate_cm(u.mover(), Pace::Charge).is_none()
            || u.formation == Formation::Skirmish
            || (u.formation == Formation::Column && !self.options.column_may_charge)
            || u.ff.is_some()
            || u.changed_formation
            || u.last_charge
                .is_some_and(|t| *self.turns.get(u.side) < t + gap)
    }

    /// D8-CMD-04: whether the rules refuse every move by `id` now that goes towards the enemy's base line (as
    /// [`MoveFacts::towards_base_line`]), without measuring it: not its side's Movement phase, removed, moved,
    /// in a boat, or out of its commander's influence where moving towards the base line counts as moving
    /// towards the enemy. `false` says nothing: the move must still be checked. Nothing is built.
    #[must_use]
    pub fn advance_barred(&self, id: UnitId) -> bool {
        let Some(u) = self.units.get(id.0 as usize) else {
            return true;
        };
        self.phase != Phase::Movement
            || u.removed
            || u.side != self.active
            || u.moved
            || u.boat.is_some()
            || (!u.in_influence && !self.options.towards_enemy_distance_only)
    }

    /// D8-MOV-20 to D8-MOV-22, D8-CMD-04, D8-FRM-05: charges into contact with `target`. Refused for skirmishers,
    /// columns (unless the option), a unit with a formation fail or that changed formation, out of influence, on
    /// a path not all open, at a target in cover, within 3 moves of its last charge, or not covering more than ¾
    /// of its charge rate (infantry 30 cm, cavalry 60 cm).
    pub fn charge(
        &mut self,
        id: UnitId,
        target: UnitId,
        facts: &ChargeFacts,
    ) -> Result<(), Refusal> {
        let now = self.check_charge(id, target, facts)?;
        let u = &mut self.units[id.0 as usize];
        u.moved = true;
        u.charged = true;
        u.last_charge = Some(now);
        u.smoke.moved();
        Ok(())
    }

    /// D8-CMD-07: an officer's move: mounted 30 cm (60 under the option), on foot 15 cm. An attached officer may
    /// not leave his unit before a later Movement phase (D8-CMD-08).
    pub fn move_officer(&mut self, id: OfficerId, distance_cm: f64) -> Result<(), Refusal> {
        self.in_phase(Phase::Movement, "moving an officer")?;
        let o = self
            .officers
            .get(id.0 as usize)
            .ok_or_else(|| unknown("officer", id.0))?;
        crate::error::length("an officer's move", distance_cm)?;
        if !o.alive || o.side != self.active {
            return Err(Refusal::Forbidden(format!("{o} cannot move now")));
        }
        let limit = match (o.mounted, self.options.officer_column_rate) {
            (true, true) => 60.0,
            (true, false) => 30.0,
            (false, _) => 15.0,
        };
        if !within(distance_cm, limit) {
            return Err(Refusal::Forbidden(format!("{o} moves at most {limit} cm")));
        }
        let now = *self.turns.get(o.side);
        if let Some((_, t)) = o.attached
            && t >= now
        {
            return Err(Refusal::Forbidden(format!(
                "{o} attached himself this turn and stays until Firing, Melee and Morale are over"
            )));
        }
        self.officers[id.0 as usize].attached = None;
        Ok(())
    }

    /// D8-CMD-08: an officer attaches himself to a unit of his side in the Movement phase; he stays with it until
    /// a later Movement phase and shares its fate.
    pub fn attach(&mut self, id: OfficerId, unit: UnitId) -> Result<(), Refusal> {
        self.in_phase(Phase::Movement, "attaching an officer")?;
        let u = self.live(unit)?;
        let o = self
            .officers
            .get(id.0 as usize)
            .ok_or_else(|| unknown("officer", id.0))?;
        if !o.alive || o.side != u.side || o.side != self.active {
            return Err(Refusal::Forbidden(format!(
                "{o} cannot attach himself to {}",
                u.label()
            )));
        }
        let now = *self.turns.get(o.side);
        self.officers[id.0 as usize].attached = Some((unit, now));
        Ok(())
    }

    /// Ends the Movement phase.
    pub fn end_movement(&mut self) -> Result<(), Refusal> {
        self.in_phase(Phase::Movement, "ending movement")?;
        for u in &mut self.units {
            u.fire_losses = 0;
        }
        self.phase = Phase::Firing;
        Ok(())
    }

    // ----- Firing -----

    /// D8-FIR-14: the volley [`Battle::fire`] would roll, with every check it makes, rolling nothing: its
    /// [`Resolve::odds`] are the exact odds of the casualties (the attached officer's check aside).
    pub fn planned_volley(
        &self,
        firer: UnitId,
        target: Target,
        facts: &FireFacts,
    ) -> Result<Volley, Refusal> {
        Ok(self.plan_fire(firer, target, facts)?.volley)
    }

    /// [`Battle::planned_volley`] with what else the volley's firing needs: the plan that [`Battle::fire`] makes
    /// first, for [`Battle::fire_planned`] to fire on this battle as it stands.
    pub(crate) fn plan_volley(
        &self,
        firer: UnitId,
        target: Target,
        facts: &FireFacts,
    ) -> Result<FirePlan, Refusal> {
        self.plan_fire(firer, target, facts)
    }

    fn plan_fire(
        &self,
        firer: UnitId,
        target: Target,
        facts: &FireFacts,
    ) -> Result<FirePlan, Refusal> {
        let f = self.own(firer, Phase::Firing, "firing")?;
        let no = |why: &'static str| Refusal::CannotFire {
            unit: f.label(),
            why: why.into(),
        };
        if f.fired {
            return Err(no("it has already fired this turn"));
        }
        if f.moved {
            return Err(no("it moved this turn"));
        }
        if f.mounted && f.troop != Troop::Indians {
            return Err(no("cavalry must dismount to fire"));
        }
        if f.troop.is_battery() && f.limbered {
            return Err(no("a limbered gun cannot fire"));
        }
        if f.figures == 0 {
            return Err(no("it has no figures left to fire"));
        }
        if self.smoke_hangs(firer) {
            return Err(no("its smoke hangs in front of it"));
        }
        if !crate::environment::sight(
            facts.sight_blocked,
            facts.firer_deep_in_wood,
            facts.target_deep_in_wood,
        ) {
            return Err(no("it cannot see the target"));
        }
        if f.troop.is_battery() && !in_arc(f.formation, true, facts.bearing_degrees) {
            return Err(no(
                "the target is outside the gun's arc; it must realign, a whole move",
            ));
        }
        if let Some(b) = f.boat
            && b.shooters() == 0
        {
            return Err(no("nobody fires from a canoe or boat"));
        }
        if facts.figures > 24 {
            return Err(D8Error::range("firing figures", facts.figures as u32, 0, 24).into());
        }
        for &d in &facts.distances_cm[..facts.figures] {
            crate::error::length("a range", d)?;
        }
        // The target (D8-FIR-07, D8-CMD-09).
        let (stance, target_unit, target_officer) = match target {
            Target::Unit(t) => {
                let t = self.live(t)?;
                if t.side == f.side {
                    return Err(no("the target is a friend"));
                }
                (t.stance(), Some(t.id), None)
            }
            Target::Officer(o) => {
                let o = self
                    .officers
                    .get(o.0 as usize)
                    .ok_or_else(|| unknown("officer", o.0))?;
                if !o.alive || o.side == f.side {
                    return Err(no("there is no enemy officer there"));
                }
                if o.attached.is_some() {
                    return Err(no("an officer attached to a unit may not be fired at"));
                }
                if facts.officer_screened {
                    return Err(no("the officer is behind a unit"));
                }
                (TargetStance::Officer, None, Some(o.id))
            }
        };
        let kind = classify(stance, &self.options);
        let source = match f.weapon {
            Weapon::FieldGun => FireSource::FieldGun,
            Weapon::HeavyGun => FireSource::HeavyGun,
            _ => FireSource::SmallArms,
        };
        let save = save_for(source, stance, facts.target_cover, &self.options);
        // Figures and bands (D8-FIR-05, D8-FIR-06, D8-ART-01).
        let mut short = 0u32;
        let mut long = 0u32;
        let shooters: &[f64] = if f.troop.is_battery() {
            &facts.distances_cm[..facts.figures.min(1)]
        } else {
            let cap = f.boat.map_or(f.figures, |b| b.shooters().min(f.figures)) as usize;
            &facts.distances_cm[..facts.figures.min(cap)]
        };
        for &d in shooters {
            match band(f.weapon, d, &self.options) {
                Some(Band::Short) => short += 1,
                Some(Band::Long) => long += 1,
                None => {}
            }
        }
        if short + long == 0 {
            return Err(no("the target is out of range"));
        }
        let order = match (f.troop, f.boat) {
            (Troop::Battery(g), _) => FiringOrder::Battery(g),
            (_, Some(_)) => FiringOrder::Boat,
            _ => match f.formation {
                Formation::Line => FiringOrder::Line,
                Formation::Column => FiringOrder::Column,
                Formation::Skirmish => FiringOrder::Skirmish,
            },
        };
        let (short_dice, long_dice) = if let FiringOrder::Battery(_) = order {
            let crew = if self.options.only_crew_at_gun {
                facts.crew_at_gun.min(f.figures)
            } else {
                f.figures
            };
            if crew == 0 {
                return Err(no("no artilleryman is at the gun"));
            }
            let crew = dice_for(order, crew, &self.options);
            if short > 0 { (crew, 0) } else { (0, crew) }
        } else {
            let total = dice_for(order, short + long, &self.options);
            let s = (total * short).div_ceil(short + long).min(total);
            (s, total - s)
        };
        let volley = Volley::new(f.class, f.ff.is_some(), kind, short_dice, long_dice, save);
        Ok(FirePlan {
            volley,
            target_unit,
            target_officer,
            side: f.side,
        })
    }

    /// D8-FIR-01 to D8-FIR-14, D8-ART-01 to D8-ART-07, D8-CMD-09, D8-FRM-05, D8-ENV-01, D8-ENV-06, D8-MOV-25,
    /// D8-CAS-01, D8-CAS-02, D8-SEQ-05, D8-VIC-04, D8-VIC-05: a unit fires at a target, as measured. Refused if it is not the
    /// firer's turn, it moved or fired, it is mounted cavalry, a limbered gun or a battery without crew, smoke
    /// stops it, the target is out of sight, arc or range, or the target is an attached or screened officer. Each
    /// figure's die (per figure in line, per 2 skirmishers, 1 for a column, 2 or 3 an artilleryman) takes its own
    /// range band; to-hit needs the class score less the modifiers; each hit saves by the target's cover and order.
    /// Casualties are removed and scored; the per-volley officer check is made under the option.
    pub fn fire<D: Dice + ?Sized>(
        &mut self,
        firer: UnitId,
        target: Target,
        facts: &FireFacts,
        dice: &mut D,
    ) -> Result<FireReport, Refusal> {
        let plan = self.plan_fire(firer, target, facts)?;
        // The names, only for a volley that is fired (planning builds none).
        // Each written into a string sized for it at once (`to_string` would grow it several times).
        // The units' labels written piece by piece (the formatting machinery cost more than the text).
        let firer_name = self.units[firer.0 as usize].label_sentence();
        let target_name = match (plan.target_unit, plan.target_officer) {
            (Some(t), _) => self.units[t.0 as usize].label_sentence(),
            (None, Some(o)) => sized(&self.officers[o.0 as usize], 48),
            (None, None) => String::new(),
        };
        let fired = self.fire_planned(firer, plan, dice)?;
        Ok(FireReport {
            firer: firer_name,
            target: target_name,
            dice: fired.volley.short.dice + fired.volley.long.dice,
            hits: fired.hits,
            casualties: fired.casualties,
            officer_killed: fired.officer_killed,
            volley: fired.volley,
        })
    }

    /// [`Battle::fire`] of a volley planned on this battle as it stands ([`Battle::plan_volley`], with the same
    /// firer, target and facts): the same rolls and changes, without planning it again.
    pub(crate) fn fire_planned<D: Dice + ?Sized>(
        &mut self,
        firer: UnitId,
        plan: FirePlan,
        dice: &mut D,
    ) -> Result<Fired, Refusal> {
        // The purpose is formatted only by dice that read it (the game's own do not): the names as
        // `Battle::fire`'s report writes them, not written out here.
        let target_name = VolleyTarget {
            unit: plan.target_unit.map(|t| &self.units[t.0 as usize]),
            officer: plan.target_officer.map(|o| &self.officers[o.0 as usize]),
        };
        dice.about(format_args!(
            "the volley of {} at {target_name}: a d8 for each firing die, then a d6 save for each hit",
            VolleyTarget {
                unit: Some(&self.units[firer.0 as usize]),
                officer: None,
            }
        ));
        let rolled = plan.volley.roll_detailed(dice);
        let mut officer_killed = false;
        let attached = plan.target_unit.and_then(|t| {
            self.officers
                .iter()
                .find(|o| o.alive && o.attached.is_some_and(|(u, _)| u == t))
                .map(|o| o.id)
        });
        if self.options.officer_check_per_volley && attached.is_some() {
            dice.about(format_args!(
                "the risk to the officer with {target_name} (2d6)"
            ));
            officer_killed = OfficerCheck {
                casualties: rolled.casualties,
            }
            .roll(dice);
        }
        dice_fault(dice)?;
        let side = plan.side;
        let (hits, casualties) = (rolled.hits, rolled.casualties);
        // Apply.
        let fu = &mut self.units[firer.0 as usize];
        fu.fired = true;
        fu.smoke.fired();
        if let Some(t) = plan.target_unit {
            self.lose(t, rolled.casualties, true, true);
            self.units[t.0 as usize].fire_losses += rolled.casualties;
        }
        if let Some(o) = plan.target_officer
            && rolled.casualties > 0
        {
            self.kill_officer(o, side, true);
        }
        if let (true, Some(o)) = (officer_killed, attached) {
            self.kill_officer(o, side, true);
        }
        Ok(Fired {
            hits,
            casualties,
            officer_killed,
            volley: plan.volley,
        })
    }

    /// D8-CAS-03: ends the Firing phase: each attached officer whose unit took 2 or more casualties from fire this
    /// phase is checked (unless checked per volley). Returns the officers killed.
    pub fn end_firing<D: Dice + ?Sized>(
        &mut self,
        dice: &mut D,
    ) -> Result<Vec<OfficerId>, Refusal> {
        self.in_phase(Phase::Firing, "ending the Firing phase")?;
        let mut killed = Vec::new();
        if !self.options.officer_check_per_volley {
            for o in self.officers.iter().filter(|o| o.alive) {
                if let Some((u, _)) = o.attached {
                    let casualties = self.units[u.0 as usize].fire_losses;
                    if casualties >= 2 {
                        let unit = &self.units[u.0 as usize];
                        dice.about(format_args!(
                            "the risk to {o} with the {} ({} {}, 2d6)",
                            unit.name, unit.side, unit.troop
                        ));
                    }
                    if (OfficerCheck { casualties }).roll(dice) {
                        killed.push(o.id);
                    }
                }
            }
        }
        dice_fault(dice)?;
        let by = self.active;
        for &o in &killed {
            self.kill_officer(o, by, true);
        }
        self.phase = Phase::Melee;
        Ok(killed)
    }

    // ----- Melee -----

    /// D8-MEL-09: the melee [`Battle::melee`] would roll, with every check it makes, rolling nothing: its
    /// [`Resolve::odds`] are the exact odds of the figures killed (officers in contact counted among them).
    pub fn planned_melee(
        &self,
        attacker: UnitId,
        defender: UnitId,
        facts: &MeleeFacts,
    ) -> Result<Melee, Refusal> {
        Ok(self.plan_melee(attacker, defender, facts)?.0)
    }

    fn plan_melee(
        &self,
        attacker: UnitId,
        defender: UnitId,
        facts: &MeleeFacts,
    ) -> Result<(Melee, String, String, Side), Refusal> {
        let a = self.own(attacker, Phase::Melee, "melee")?;
        let d = self.live(defender)?;
        if a.side == d.side {
            return Err(Refusal::BadMelee(
                "a unit does not fight its own side".into(),
            ));
        }
        if facts.pairings.is_empty() {
            return Err(Refusal::BadMelee("no figures are in contact".into()));
        }
        let figure_pairs = facts
            .pairings
            .iter()
            .filter(|(s, _)| *s == Struck::Figure)
            .count() as u32;
        if figure_pairs > d.figures {
            return Err(Refusal::BadMelee(format!(
                "{} has only {} figures",
                d.label(),
                d.figures
            )));
        }
        let attackers: u32 = facts.pairings.iter().map(|(_, k)| u32::from(*k)).sum();
        if facts.pairings.iter().any(|(_, k)| !(1..=3).contains(k)) {
            return Err(Refusal::BadMelee(
                "from 1 to 3 attacking figures fight one enemy figure".into(),
            ));
        }
        let officers_in: u32 = if self.options.officers_roll_in_melee {
            self.officers
                .iter()
                .filter(|o| o.alive && o.attached.is_some_and(|(u, _)| u == attacker))
                .count() as u32
        } else {
            0
        };
        if attackers > a.figures + officers_in {
            return Err(Refusal::BadMelee(format!(
                "{} has only {} figures",
                a.label(),
                a.figures
            )));
        }
        for (s, _) in &facts.pairings {
            if let Struck::Officer(o) = s {
                let off = self
                    .officers
                    .get(o.0 as usize)
                    .ok_or_else(|| unknown("officer", o.0))?;
                if !off.alive || off.side != d.side {
                    return Err(Refusal::BadMelee(format!(
                        "{off} is not there to be fought"
                    )));
                }
            }
        }
        let defender_skirmish =
            d.formation == Formation::Skirmish || (d.troop.is_battery() && !d.limbered);
        let bonus = melee_bonus(
            MeleeBonuses {
                enemy_ff: d.ff.is_some(),
                formed_against_skirmishers: a.formation != Formation::Skirmish && defender_skirmish,
                charged: a.charged,
            },
            a.ff.is_some(),
        );
        let cover = if facts.in_building {
            Cover::Hard
        } else {
            facts.cover
        };
        let who = |s: &Struck| match s {
            Struck::Officer(_) => Defender::Officer,
            Struck::Figure if d.troop.is_battery() => Defender::Artilleryman(d.class),
            Struck::Figure => Defender::Figure(d.class),
        };
        let melee = Melee {
            pairings: facts
                .pairings
                .iter()
                .map(|(s, k)| Pairing {
                    attackers: *k,
                    need: kill_need(who(s), cover, bonus),
                })
                .collect(),
            pooled: self.options.pooled_melee,
        };
        Ok((melee, a.label_sentence(), d.label_sentence(), a.side))
    }

    /// D8-MEL-01 to D8-MEL-11, D8-FRM-05, D8-SEQ-05, D8-VIC-05: the active side's `attacker` fights `defender` in
    /// base contact. Each pairing is a defending figure (or officer) and 1 to 3 attackers on it, a D10 each; the
    /// score to kill comes from the defender's class and cover (artillerymen at least soft, a building hard,
    /// officers as Veterans), less +1 for an enemy formation fail, +1 formed against skirmishers, +1 for a charge
    /// — none if the attacker has a formation fail. Officers in contact roll only under the option.
    pub fn melee<D: Dice + ?Sized>(
        &mut self,
        attacker: UnitId,
        defender: UnitId,
        facts: &MeleeFacts,
        dice: &mut D,
    ) -> Result<MeleeReport, Refusal> {
        let (melee, an, dn, side) = self.plan_melee(attacker, defender, facts)?;
        dice.about(format_args!(
            "the melee of {an} against {dn}: a d10 for each attacking figure"
        ));
        let (mask, _) = melee.roll_kills(dice);
        dice_fault(dice)?;
        let mut killed = 0;
        let mut officers_killed = 0;
        for (i, (s, _)) in facts.pairings.iter().enumerate() {
            if i < 64 && mask & (1 << i) != 0 {
                match s {
                    Struck::Figure => killed += 1,
                    Struck::Officer(o) => {
                        self.kill_officer(*o, side, true);
                        officers_killed += 1;
                    }
                }
            }
        }
        self.lose(defender, killed, true, true);
        self.units[attacker.0 as usize].in_melee = true;
        self.units[defender.0 as usize].in_melee = true;
        Ok(MeleeReport {
            attacker: an,
            defender: dn,
            killed,
            officers_killed,
        })
    }

    /// D8-MEL-10: ends the Melee phase: every unit that fought, on both sides, gets a formation fail (its cause ends
    /// with the phase).
    pub fn end_melee(&mut self) -> Result<(), Refusal> {
        self.in_phase(Phase::Melee, "ending the Melee phase")?;
        for u in self.units.iter_mut().filter(|u| u.in_melee) {
            u.in_melee = false;
            Self::give_ff(u, FfCause::Melee);
            if let Some(ff) = u.ff.as_mut()
                && ff.cause == FfCause::Melee
            {
                ff.cause_active = false;
            }
        }
        self.phase = Phase::Morale;
        Ok(())
    }

    // ----- Morale -----

    /// D8-MOR-01 to D8-MOR-08: a unit that lost a figure to fire or melee this turn (either side's) tests: its
    /// points against the chart for its class and original size; at or under, it is removed, with any officer
    /// attached (D8-MOR-06, counted as killed for VP by default). Its figures are not scored as kills unless the
    /// option says so. Refused for a unit with no losses this turn.
    pub fn morale(&mut self, id: UnitId, facts: &MoraleFacts) -> Result<MoraleResult, Refusal> {
        self.in_phase(Phase::Morale, "a morale test")?;
        let u = self.live(id)?;
        if u.lost_this_turn == 0 {
            return Err(Refusal::Forbidden(format!(
                "{} lost no figures to fire or melee this turn, so it does not test",
                u.label()
            )));
        }
        let points = morale_points(
            u.figures,
            u.troop.brigaded(),
            u.ff.is_some(),
            facts,
            &self.options,
        );
        let result = test(u.class, u.original, points);
        let (side, figures, class) = (u.side, u.figures, u.class);
        let unit = &mut self.units[id.0 as usize];
        unit.lost_this_turn = 0;
        if result.removed {
            unit.removed = true;
            if self.options.vp_for_morale_removed {
                self.points.get_mut(side.enemy()).kills += figures * class.kill_points();
            }
            self.remove_attached(id, side.enemy());
        }
        Ok(result)
    }

    /// D8-SEQ-01, D8-SEQ-06, D8-ENV-04: ends the player turn once every unit that must test has tested; the other
    /// side's turn begins. The game ends when both players have had their turns for the day (or the turn limit),
    /// or when a side has no units left.
    pub fn end_turn(&mut self) -> Result<(), Refusal> {
        self.in_phase(Phase::Morale, "ending the turn")?;
        if let Some(u) = self
            .units
            .iter()
            .find(|u| !u.removed && u.lost_this_turn > 0)
        {
            return Err(Refusal::WrongTime {
                action: "ending the turn",
                why: format!("{} must test its morale first", u.label()),
            });
        }
        let next = self.active.enemy();
        // A flank force still marching keeps its side in the battle (D8-OPT-03).
        let out = |s: Side| {
            self.units.iter().all(|u| {
                u.side != s || (u.removed && !matches!(u.away, Some(Away::Marching { .. })))
            })
        };
        let done = *self.turns.get(next) >= self.turn_limit
            && *self.turns.get(self.active) >= self.turn_limit;
        self.active = next;
        self.phase = if done || out(Side::Union) || out(Side::Confederate) {
            Phase::Over
        } else {
            Phase::Start
        };
        Ok(())
    }

    // ----- Structures, baggage, artillerymen -----

    /// Places a structure (D8-STR-06).
    pub fn add_structure(&mut self, kind: StructureKind) -> StructureId {
        self.structures.push(Structure { kind, damage: 0 });
        StructureId(self.structures.len() as u32 - 1)
    }

    /// A structure.
    pub fn structure(&self, id: StructureId) -> Result<&Structure, D8Error> {
        self.structures.get(id.0 as usize).ok_or(D8Error::Unknown {
            what: "structure",
            id: id.0,
        })
    }

    /// D8-STR-04 to D8-STR-07, D8-ART-09, D8-CAS-07: a battery fires at a structure (only field and heavy guns can
    /// damage one), in sight, arc and range as for fire: its damage points are added, and once they reach the hit
    /// value the structure is destroyed, with every figure inside a building or on a bridge (the facts' occupants),
    /// counted as killed. Firing at a structure is the battery's fire for the turn.
    pub fn bombard<D: Dice + ?Sized>(
        &mut self,
        battery: UnitId,
        structure: StructureId,
        facts: &BombardFacts,
        dice: &mut D,
    ) -> Result<u32, Refusal> {
        let occupants = facts.occupants.as_slice();
        let b = self.own(battery, Phase::Firing, "bombarding")?;
        let Troop::Battery(gun) = b.troop else {
            return Err(Refusal::CannotFire {
                unit: b.label(),
                why: "only field and heavy guns can damage structures".into(),
            });
        };
        if b.fired || b.moved || b.limbered || b.figures == 0 {
            return Err(Refusal::CannotFire {
                unit: b.label(),
                why: "it must be unlimbered, crewed, not moved and not yet fired".into(),
            });
        }
        let s = *self
            .structures
            .get(structure.0 as usize)
            .ok_or_else(|| unknown("structure", structure.0))?;
        if s.destroyed() {
            return Err(Refusal::Forbidden(format!(
                "the {} is already destroyed",
                s.kind
            )));
        }
        for &(u, n) in occupants {
            let unit = self.live(u)?;
            if n > unit.figures {
                return Err(D8Error::range(
                    "figures in the structure",
                    n,
                    0,
                    i64::from(unit.figures),
                )
                .into());
            }
        }
        crate::error::length("the range to the structure", facts.distance_cm)?;
        let no = |why: &'static str| Refusal::CannotFire {
            unit: b.label(),
            why: why.into(),
        };
        if facts.sight_blocked {
            return Err(no("it cannot see the structure"));
        }
        if !in_arc(Formation::Skirmish, true, facts.bearing_degrees) {
            return Err(no(
                "the structure is outside the gun's arc; it must realign, a whole move",
            ));
        }
        let band = band(b.weapon, facts.distance_cm, &self.options)
            .ok_or_else(|| no("the structure is out of range"))?;
        dice.about(format_args!(
            "the bombardment of the {} by the {} ({} {}): a d6 for each die",
            s.kind, b.name, b.side, b.troop
        ));
        let points = Bombard::new(gun, b.figures, b.class, band, &self.options).roll(dice);
        dice_fault(dice)?;
        let by = b.side;
        self.units[battery.0 as usize].fired = true;
        let st = &mut self.structures[structure.0 as usize];
        st.damage += points;
        if st.destroyed() && st.kind.kills_occupants() {
            for &(u, n) in occupants {
                let vp = self.units[u.0 as usize].side != by;
                self.lose(u, n, false, vp);
            }
        }
        Ok(points)
    }

    /// D8-VIC-06: `side` captures the enemy's baggage wagon (an enemy figure touching it and no friend): 20 VP.
    pub fn capture_baggage(&mut self, side: Side) -> Result<u32, Refusal> {
        if !self.options.baggage || *self.baggage.get(side.enemy()) == 0 {
            return Err(Refusal::Forbidden(format!(
                "the {} side has no baggage wagon to capture",
                side.enemy()
            )));
        }
        *self.baggage.get_mut(side.enemy()) -= 1;
        self.points.get_mut(side).baggage += vp::BAGGAGE;
        Ok(vp::BAGGAGE)
    }

    /// D8-ART-03, D8-CAS-04: an artilleryman moves from one battery of a side to another that has lost men (only
    /// artillerymen replace artillerymen; the move is the donor's).
    pub fn replace_artilleryman(&mut self, from: UnitId, to: UnitId) -> Result<(), Refusal> {
        let f = self.own(from, Phase::Movement, "replacing an artilleryman")?;
        let t = self.live(to)?;
        if !f.troop.is_battery() || !t.troop.is_battery() || f.side != t.side || from == to {
            return Err(Refusal::Forbidden(
                "artillerymen are replaced only by artillerymen of another battery".into(),
            ));
        }
        if f.figures == 0 || t.figures >= t.original || f.moved {
            return Err(Refusal::Forbidden(format!(
                "{} cannot spare a man to {}, or it has none to replace",
                f.label(),
                t.label()
            )));
        }
        self.units[from.0 as usize].figures -= 1;
        self.units[from.0 as usize].moved = true;
        self.units[to.0 as usize].figures += 1;
        Ok(())
    }

    /// D8-ENV-06: whether the smoke of a unit's fire hangs in front of it now: smoke is in play (no wind, or any
    /// wind under the option) and the unit has fired two moves running from its spot, or its smoke is still
    /// clearing (two moves). While it hangs the unit may not fire, and the smoke blocks sight through it.
    #[must_use]
    pub fn smoke_hangs(&self, id: UnitId) -> bool {
        self.options.wind_and_smoke
            && self
                .units
                .get(id.0 as usize)
                .is_some_and(|u| u.smoke.blocks(self.wind, &self.options))
    }

    /// D8-OPT-01, D8-OPT-04: when the declarations are revealed, two flank marches by the same edge cancel: the
    /// units held back for them (`units`, of the two marching sides, no more than were declared) are removed, not
    /// counted as killed. Refused if the marches do not cancel.
    pub fn cancel_flank_forces(
        &mut self,
        a: &crate::flank::FlankMarch,
        b: &crate::flank::FlankMarch,
        units: &[UnitId],
    ) -> Result<(), Refusal> {
        if !crate::flank::cancelled(a, b) {
            return Err(Refusal::Forbidden(
                "only two sides' flank marches by the same edge cancel".into(),
            ));
        }
        for side in [a.side, b.side] {
            let declared = if a.side == side { a.units } else { b.units };
            let mut n = 0u32;
            for &u in units {
                if self.live(u)?.side == side {
                    n += 1;
                }
            }
            if n > u32::from(declared) {
                return Err(Refusal::Forbidden(format!(
                    "the {side} side declared only {declared} flank-marching units"
                )));
            }
        }
        for &u in units {
            self.units[u.0 as usize].removed = true;
            self.units[u.0 as usize].away = Some(Away::Cancelled);
        }
        Ok(())
    }

    /// D8-OPT-01, D8-OPT-02, D8-OPT-03: a side's flank force is held back at deployment: `units` (of the marching
    /// side, no more than it declared, none a battery, none already off the table) are taken off the table, and
    /// each rolls its D20 (or the force one, under the option) for the move it arrives on and the flank square it
    /// arrives by. Only before the battle opens. Returns each unit's arrival and the grid square.
    pub fn hold_back<D: Dice + ?Sized>(
        &mut self,
        march: &crate::flank::FlankMarch,
        units: &[UnitId],
        dice: &mut D,
    ) -> Result<Vec<(UnitId, crate::flank::Arrival, crate::map::Square)>, Refusal> {
        if self.opened {
            return Err(Refusal::WrongTime {
                action: "holding units back for a flank march",
                why: "the battle has opened; a flank march is declared at deployment".into(),
            });
        }
        if !self.options.flank_marches {
            return Err(Refusal::Forbidden(
                "flank marches are not in play in this game".into(),
            ));
        }
        if units.is_empty() || units.len() > usize::from(march.units) {
            return Err(Refusal::Forbidden(format!(
                "the {} side declared {} flank-marching units, not {}",
                march.side,
                march.units,
                units.len()
            )));
        }
        for (i, &id) in units.iter().enumerate() {
            let u = self.live(id)?;
            if u.side != march.side || u.troop.is_battery() || units[..i].contains(&id) {
                return Err(Refusal::Forbidden(format!(
                    "{} cannot march by the {} side's flank",
                    u.label(),
                    march.side
                )));
            }
        }
        let force = crate::flank::FlankMarch {
            units: units.len() as u8,
            ..march.clone()
        };
        let held = crate::flank::arrivals(&force, dice, &self.options)?;
        let mut out = Vec::with_capacity(units.len());
        for (&id, (arrival, square)) in units.iter().zip(held) {
            let u = &mut self.units[id.0 as usize];
            u.removed = true;
            u.away = Some(Away::Marching { arrival, square });
            out.push((id, arrival, square));
        }
        Ok(out)
    }

    /// D8-OPT-03: the active side's flank marchers due on its current move (their arrival move reached, or passed
    /// while no room was found at the edge), each with the grid square it arrives by.
    #[must_use]
    pub fn flank_due(&self) -> Vec<(UnitId, crate::map::Square)> {
        let side = self.active;
        let next = *self.turns.get(side);
        self.units
            .iter()
            .filter(|u| u.side == side)
            .filter_map(|u| match u.away {
                Some(Away::Marching { arrival, square }) if u32::from(arrival.on_move) <= next => {
                    Some((u.id, square))
                }
                _ => None,
            })
            .collect()
    }

    /// D8-OPT-02, D8-OPT-03: a flank marcher due on its side's move comes onto the table (the caller has placed it
    /// at the edge of its flank square) at the start of its side's Movement phase, before any unit has moved. It
    /// comes on under its orders: in influence for this move, so it may move at once; from its next move its
    /// officer's distance decides as for any unit.
    pub fn arrive(&mut self, id: UnitId) -> Result<(), Refusal> {
        self.in_phase(Phase::Movement, "bringing on a flank march")?;
        if !self.flank_due().iter().any(|&(u, _)| u == id) {
            return Err(Refusal::Forbidden(format!(
                "{} is not a flank marcher due this move",
                self.u(id)?.label()
            )));
        }
        let u = &mut self.units[id.0 as usize];
        u.removed = false;
        u.away = None;
        u.in_influence = true;
        Ok(())
    }

    /// D8-VIC-01 to D8-VIC-08: the final points: the kills, officers and baggage scored during play, plus farms,
    /// the bridge and squares on the final position, and the verdict.
    #[must_use]
    pub fn final_points(
        &self,
        pos: &EndPosition,
        farms: &[crate::map::Square],
        bridge: Option<crate::map::Square>,
    ) -> (BySide<Points>, Verdict) {
        let mut p = self.points;
        for side in Side::both() {
            let (f, b, s) = end_points(side, pos, farms, bridge, &self.options);
            let e = p.get_mut(side);
            e.farms = f;
            e.bridge = b;
            e.squares = s;
        }
        let v = verdict(BySide::new(p.union.total(), p.confederate.total()));
        (p, v)
    }

    /// Which units of the active side must still test morale.
    #[must_use]
    pub fn must_test(&self) -> Vec<UnitId> {
        self.units
            .iter()
            .filter(|u| !u.removed && u.lost_this_turn > 0)
            .map(|u| u.id)
            .collect()
    }
}

#[cfg(test)]
mod volley_name_tests {
    use super::*;

    /// The names a fired volley's dice purpose reads (`VolleyTarget`, written only when read) are those
    /// `Battle::fire`'s report carries: each unit's label sentence and each officer as he reads, on the battles
    /// of 5 seeded games.
    #[test]
    fn volley_names_read_as_the_reports() -> Result<(), Box<dyn std::error::Error>> {
        for seed in 1..=5 {
            let state = crate::bots::played_to_the_end(seed)?;
            let b = state.battle().ok_or("no battle")?;
            for u in b.units() {
                let named = VolleyTarget {
                    unit: Some(u),
                    officer: None,
                };
                assert_eq!(named.to_string(), u.label_sentence());
            }
            for o in b.officers() {
                let named = VolleyTarget {
                    unit: None,
                    officer: Some(o),
                };
                assert_eq!(named.to_string(), sized(o, 48));
            }
            let nobody = VolleyTarget {
                unit: None,
                officer: None,
            };
            assert_eq!(nobody.to_string(), "");
        }
        Ok(())
    }
}
