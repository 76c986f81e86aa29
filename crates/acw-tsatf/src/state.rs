//! Units and figures: what a battle holds (TSATF-SET-01, TSATF-CAS-01).
//!
//! Fields are read through accessors and changed only by [`crate::Battle`]'s rule methods.

use crate::options::Options;
use crate::tables::{Category, FireRow, LeaderRating, MoveRow, Quality};
use acw_core::Side;
use std::fmt;

/// A unit's number in its battle, shown as "unit 14". What a person reads (narration, refusals) names the
/// unit instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct UnitId(pub u32);

impl fmt::Display for UnitId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unit {}", self.0)
    }
}

/// An officer's rank, lieutenant to colonel (TSATF-CMD-04).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::EnumIter, strum::Display,
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum OfficerRank {
    /// Lieutenant.
    Lieutenant,
    /// Captain.
    Captain,
    /// Major.
    Major,
    /// Lieutenant-colonel.
    #[strum(to_string = "Lieutenant-Colonel")]
    LieutenantColonel,
    /// Colonel.
    Colonel,
}

/// What a figure is (TSATF-SET-04, TSATF-SET-05).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Role {
    /// An officer of a rank.
    #[strum(to_string = "officer")]
    Officer(OfficerRank),
    /// A sergeant-major (TSATF-OPT-11).
    #[strum(to_string = "sergeant-major")]
    SergeantMajor,
    /// An NCO.
    #[strum(to_string = "NCO")]
    Nco,
    /// A private or trooper.
    #[strum(to_string = "private")]
    Private,
    /// A gunner (an artilleryman, or a Gatling's or gunboat gun's crew).
    #[strum(to_string = "gunner")]
    Gunner,
    /// A sniper with a specially made rifle.
    #[strum(to_string = "sniper")]
    Sniper,
    /// Train or boat crew.
    #[strum(to_string = "crewman")]
    Crew,
}

impl Role {
    /// The category of the role (TSATF-SET-05); a trooper holding horses is a key figure as well.
    #[must_use]
    pub const fn category(self) -> Category {
        match self {
            Role::Officer(_) | Role::SergeantMajor | Role::Nco => Category::Cadre,
            Role::Gunner | Role::Sniper | Role::Crew => Category::Key,
            Role::Private => Category::Enlisted,
        }
    }
}

/// Where a figure is (TSATF-CAS-01).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Status {
    /// Present and able to act.
    #[strum(to_string = "active")]
    Active,
    /// Wounded (campaign games, TSATF-CAS-02).
    #[strum(to_string = "wounded")]
    Wounded,
    /// Killed.
    #[strum(to_string = "killed")]
    Killed,
    /// Taken prisoner (TSATF-CAS-04).
    #[strum(to_string = "captured")]
    Captured,
    /// Fled off the table.
    #[strum(to_string = "off the table")]
    OffTable,
}

/// One figure: one man (TSATF-SET-01, TSATF-OPT-14: figures on multi-figure bases are still tracked one by
/// one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Figure {
    pub(crate) role: Role,
    pub(crate) status: Status,
    pub(crate) rating: Option<LeaderRating>,
    pub(crate) holding_horses: bool,
    pub(crate) straggling: bool,
    pub(crate) carrying: bool,
    pub(crate) fired: bool,
}

impl Figure {
    pub(crate) fn new(role: Role) -> Figure {
        Figure {
            role,
            status: Status::Active,
            rating: None,
            holding_horses: false,
            straggling: false,
            carrying: false,
            fired: false,
        }
    }

    /// What the figure is.
    #[must_use]
    pub fn role(&self) -> Role {
        self.role
    }

    /// Where it is.
    #[must_use]
    pub fn status(&self) -> Status {
        self.status
    }

    /// Its leader rating, if an officer who has been rated (TSATF-OPT-01).
    #[must_use]
    pub fn rating(&self) -> Option<LeaderRating> {
        self.rating
    }

    /// The figure's category now: a trooper holding horses is a key figure (TSATF-SET-05).
    #[must_use]
    pub fn category(&self) -> Category {
        if self.holding_horses {
            Category::Key
        } else {
            self.role.category()
        }
    }

    /// Present and able to act.
    #[must_use]
    pub fn is_active(&self) -> bool {
        self.status == Status::Active
    }

    /// A casualty for the strength count: killed, wounded, captured or off the table (TSATF-CAS-01).
    #[must_use]
    pub fn is_casualty(&self) -> bool {
        !self.is_active()
    }

    /// Holding the unit's horses (TSATF-MOV-09).
    #[must_use]
    pub fn holding_horses(&self) -> bool {
        self.holding_horses
    }

    /// Straggling behind a charge (TSATF-MEL-02).
    #[must_use]
    pub fn straggling(&self) -> bool {
        self.straggling
    }

    /// Carrying a wounded comrade (TSATF-MOV-15).
    #[must_use]
    pub fn carrying(&self) -> bool {
        self.carrying
    }

    /// Present, and neither holding horses, straggling nor carrying: able to fight and fire (TSATF-MEL-29).
    #[must_use]
    pub fn can_fight(&self) -> bool {
        self.is_active() && !self.holding_horses && !self.straggling && !self.carrying
    }
}

/// What a unit is (TSATF-SET-08).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum UnitKind {
    /// Infantry (and Indians on foot).
    #[strum(to_string = "infantry")]
    Infantry,
    /// Cavalry (and mounted Indians).
    #[strum(to_string = "cavalry")]
    Cavalry,
    /// A field gun and its crew.
    #[strum(to_string = "artillery")]
    Artillery,
    /// A Gatling gun and its crew (TSATF-ART-08).
    #[strum(to_string = "a Gatling gun")]
    Gatling,
    /// A heavy gun or mortar (TSATF-ART-10).
    #[strum(to_string = "heavy artillery")]
    HeavyGun {
        /// A mortar rather than a gun.
        mortar: bool,
    },
    /// A wagon.
    #[strum(to_string = "a wagon")]
    Wagon,
    /// A pack animal.
    #[strum(to_string = "a pack animal")]
    PackAnimal,
    /// A gunboat with up to four guns (TSATF-OPT-06).
    #[strum(to_string = "a gunboat")]
    Gunboat {
        /// Guns aboard.
        guns: u8,
    },
    /// A train (TSATF-OPT-10).
    #[strum(to_string = "a train")]
    Train {
        /// Cars besides engine, tender and caboose.
        cars: u8,
    },
}

impl UnitKind {
    /// A gun of some kind, fired by its crew.
    #[must_use]
    pub const fn is_gun(self) -> bool {
        matches!(
            self,
            UnitKind::Artillery | UnitKind::Gatling | UnitKind::HeavyGun { .. }
        )
    }
}

/// How a unit is formed (TSATF-MOV-10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Formation {
    /// A close-order, two-rank line.
    #[strum(to_string = "close-order line")]
    CloseOrderLine,
    /// March column.
    #[strum(to_string = "march column")]
    MarchColumn,
    /// Assault column.
    #[strum(to_string = "assault column")]
    AssaultColumn,
    /// Skirmish line (open order).
    #[strum(to_string = "skirmish line")]
    SkirmishLine,
    /// A gun limbered to move.
    #[strum(to_string = "limbered")]
    Limbered,
    /// A gun unlimbered (deployed); it moves only hand-hauled.
    #[strum(to_string = "unlimbered")]
    Unlimbered,
    /// Wagons, pack animals, trains and boats.
    #[strum(to_string = "in transport order")]
    Transport,
}

/// A unit's morale state (TSATF-MOR-16): routed outranks shaken outranks pinned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum MoraleState {
    /// In good order.
    #[strum(to_string = "steady")]
    Steady,
    /// Pinned and prone after a failed or halted charge (TSATF-MOR-15).
    #[strum(to_string = "pinned")]
    Pinned,
    /// Shaken (TSATF-MOR-11).
    #[strum(to_string = "shaken")]
    Shaken,
    /// Routed (TSATF-MOR-08).
    #[strum(to_string = "routed")]
    Routed,
}

/// The phases of a turn, always in this order (TSATF-SEQ-01).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Phase {
    /// Movement, by cards; charges are declared here.
    #[strum(to_string = "movement")]
    Movement,
    /// Firing, by cards.
    #[strum(to_string = "firing")]
    Firing,
    /// Close combat.
    #[strum(to_string = "close combat")]
    CloseCombat,
    /// Morale.
    #[strum(to_string = "morale")]
    Morale,
}

impl Phase {
    /// The phase after this one (Morale wraps to Movement of the next turn).
    #[must_use]
    pub const fn next(self) -> Phase {
        match self {
            Phase::Movement => Phase::Firing,
            Phase::Firing => Phase::CloseCombat,
            Phase::CloseCombat => Phase::Morale,
            Phase::Morale => Phase::Movement,
        }
    }
}

/// A move a unit must make before its voluntary ones (TSATF-SEQ-05, TSATF-MOV-13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Compulsory {
    /// A routed unit's 4D6 toward the table edge.
    #[strum(to_string = "rout 4D6 toward the table edge")]
    Rout,
    /// A shaken unit's 4D6 to the rear (option `shaken_retreats`).
    #[strum(to_string = "retreat 4D6 to the rear")]
    ShakenRetreat,
    /// A pinned unit stays where it is.
    #[strum(to_string = "stay pinned")]
    StayPinned,
}

/// A unit: its figures and its state.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Unit {
    pub(crate) id: UnitId,
    pub(crate) name: String,
    pub(crate) side: Side,
    pub(crate) kind: UnitKind,
    pub(crate) quality: Quality,
    pub(crate) fire_row: Option<FireRow>,
    pub(crate) formation: Formation,
    pub(crate) mounted: bool,
    pub(crate) figures: Vec<Figure>,
    pub(crate) starting: u16,
    pub(crate) morale: MoraleState,
    pub(crate) colours: bool,
    pub(crate) colours_held: Vec<UnitId>,
    pub(crate) ammo: Option<u8>,
    pub(crate) hidden: bool,
    pub(crate) scouts: bool,
    pub(crate) prone: bool,
    pub(crate) off_table: bool,
    pub(crate) attached: Option<(UnitId, usize)>,
    pub(crate) acted: bool,
    pub(crate) charged: bool,
    pub(crate) assault_ready: Option<UnitId>,
    pub(crate) fired: bool,
    pub(crate) hauled: bool,
    pub(crate) frozen: bool,
    pub(crate) compulsory: Option<Compulsory>,
    pub(crate) hit_while_shaken: bool,
    pub(crate) critical_due: bool,
    pub(crate) pinned_due: bool,
    pub(crate) below_half_seen: bool,
    pub(crate) routed_turn: Option<u32>,
    pub(crate) horseholders_lost: u16,
    pub(crate) train: crate::movement::TrainState,
    pub(crate) disabled: bool,
    pub(crate) rally_tried: bool,
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

impl Unit {
    /// Its number.
    #[must_use]
    pub fn id(&self) -> UnitId {
        self.id
    }
    /// Its name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }
    /// Its side.
    #[must_use]
    pub fn side(&self) -> Side {
        self.side
    }
    /// What it is.
    #[must_use]
    pub fn kind(&self) -> UnitKind {
        self.kind
    }
    /// Its class.
    #[must_use]
    pub fn quality(&self) -> Quality {
        self.quality
    }
    /// Its mass-fire row, if it fires as a unit.
    #[must_use]
    pub fn fire_row(&self) -> Option<FireRow> {
        self.fire_row
    }
    /// Its formation.
    #[must_use]
    pub fn formation(&self) -> Formation {
        self.formation
    }
    /// Mounted (cavalry).
    #[must_use]
    pub fn mounted(&self) -> bool {
        self.mounted
    }
    /// Its figures, casualties included.
    #[must_use]
    pub fn figures(&self) -> &[Figure] {
        &self.figures
    }
    /// Its strength at the start of the game (TSATF-MOR-13).
    #[must_use]
    pub fn starting_strength(&self) -> u16 {
        self.starting
    }
    /// Its morale state.
    #[must_use]
    pub fn morale(&self) -> MoraleState {
        self.morale
    }
    /// Carries its own regimental colours.
    #[must_use]
    pub fn has_colours(&self) -> bool {
        self.colours
    }
    /// The units whose colours it holds (TSATF-MEL-23).
    #[must_use]
    pub fn colours_held(&self) -> &[UnitId] {
        &self.colours_held
    }
    /// Turns of ammunition left, when the supply is in use (TSATF-FIR-25).
    #[must_use]
    pub fn ammunition(&self) -> Option<u8> {
        self.ammo
    }
    /// Hidden (TSATF-OPT-04).
    #[must_use]
    pub fn hidden(&self) -> bool {
        self.hidden
    }
    /// Prone (pinned troops are, TSATF-MOR-15).
    #[must_use]
    pub fn prone(&self) -> bool {
        self.prone
    }
    /// Off the table (routed away, TSATF-MOV-13).
    #[must_use]
    pub fn off_table(&self) -> bool {
        self.off_table
    }
    /// Its pending compulsory move (TSATF-SEQ-05).
    #[must_use]
    pub fn compulsory(&self) -> Option<Compulsory> {
        self.compulsory
    }
    /// Frozen this movement phase by a failed Major Morale check (TSATF-MOV-14).
    #[must_use]
    pub fn frozen(&self) -> bool {
        self.frozen
    }
    /// Has taken its card in this phase.
    #[must_use]
    pub fn acted(&self) -> bool {
        self.acted
    }
    /// A disabled vessel or train (TSATF-OPT-09).
    #[must_use]
    pub fn disabled(&self) -> bool {
        self.disabled
    }

    /// Figures not casualties (TSATF-MOR-13): stragglers and pushed-back figures count.
    #[must_use]
    pub fn strength(&self) -> u16 {
        self.figures.iter().filter(|f| f.is_active()).count() as u16
    }

    /// Killed figures.
    #[must_use]
    pub fn killed(&self) -> u16 {
        self.count(Status::Killed)
    }

    /// Wounded figures (campaign games).
    #[must_use]
    pub fn wounded(&self) -> u16 {
        self.count(Status::Wounded)
    }

    /// Captured figures.
    #[must_use]
    pub fn captured(&self) -> u16 {
        self.count(Status::Captured)
    }

    fn count(&self, s: Status) -> u16 {
        self.figures.iter().filter(|f| f.status == s).count() as u16
    }

    /// At half its starting strength or below (TSATF-MOR-13): 2 × current ≤ starting.
    #[must_use]
    pub fn at_half(&self) -> bool {
        2 * u32::from(self.strength()) <= u32::from(self.starting)
    }

    /// Has a leader: an active officer or NCO of its own, or an officer attached to it (TSATF-CMD-01).
    #[must_use]
    pub fn own_leader(&self) -> bool {
        self.figures
            .iter()
            .any(|f| f.is_active() && f.role.category() == Category::Cadre)
    }

    /// The rating of the highest-ranking rated officer active with the unit (TSATF-OPT-02).
    #[must_use]
    pub fn own_rating(&self) -> Option<LeaderRating> {
        self.figures
            .iter()
            .filter(|f| f.is_active())
            .filter_map(|f| match f.role {
                Role::Officer(r) => f.rating.map(|x| (r, x)),
                _ => None,
            })
            .max_by_key(|(r, _)| *r)
            .map(|(_, x)| x)
    }

    /// The highest-ranking active officer of the unit, by index.
    #[must_use]
    pub fn top_officer(&self) -> Option<(OfficerRank, usize)> {
        self.figures
            .iter()
            .enumerate()
            .filter(|(_, f)| f.is_active())
            .filter_map(|(i, f)| match f.role {
                Role::Officer(r) => Some((r, i)),
                _ => None,
            })
            .max_by_key(|&(r, i)| (r, std::cmp::Reverse(i)))
    }

    /// Its movement-table row, if it moves by the table (TSATF-MOV-02, TSATF-MOV-08, TSATF-MOV-16): dismounted
    /// cavalry and Indians on foot move as infantry; mounted Indians as cavalry in column; an unlimbered gun
    /// only hand-hauled (TSATF-ART-06).
    #[must_use]
    pub fn move_row(&self) -> Option<MoveRow> {
        let foot = match self.formation {
            Formation::CloseOrderLine => Some(MoveRow::InfantryLine),
            Formation::MarchColumn | Formation::AssaultColumn => Some(MoveRow::InfantryColumn),
            Formation::SkirmishLine => Some(MoveRow::InfantrySkirmish),
            _ => None,
        };
        match self.kind {
            UnitKind::Infantry if self.quality == Quality::Indians => {
                Some(MoveRow::InfantrySkirmish)
            }
            UnitKind::Infantry => foot,
            UnitKind::Cavalry if self.quality == Quality::Indians && self.mounted => {
                Some(MoveRow::CavalryColumn)
            }
            UnitKind::Cavalry if !self.mounted => foot,
            UnitKind::Cavalry => match self.formation {
                Formation::CloseOrderLine => Some(MoveRow::CavalryLine),
                Formation::MarchColumn => Some(MoveRow::CavalryColumn),
                _ => None,
            },
            UnitKind::Artillery | UnitKind::Gatling | UnitKind::HeavyGun { .. } => {
                match self.formation {
                    Formation::Limbered => Some(MoveRow::ArtilleryLimbered),
                    _ => Some(MoveRow::ArtilleryHandHauled),
                }
            }
            UnitKind::Wagon => Some(MoveRow::Wagon),
            UnitKind::PackAnimal => Some(MoveRow::PackAnimal),
            UnitKind::Gunboat { .. } | UnitKind::Train { .. } => None,
        }
    }

    /// Active gunners (crew) of a gun, spares included (TSATF-ART-07: spare gunners step in at once).
    #[must_use]
    pub fn crew(&self) -> u16 {
        self.figures
            .iter()
            .filter(|f| f.is_active() && f.role == Role::Gunner)
            .count() as u16
    }

    /// Troopers holding horses now.
    #[must_use]
    pub fn horseholders(&self) -> u16 {
        self.figures
            .iter()
            .filter(|f| f.is_active() && f.holding_horses)
            .count() as u16
    }

    pub(crate) fn dismount(&mut self, options: &Options) {
        let troopers: Vec<usize> = (0..self.figures.len())
            .filter(|&i| self.figures[i].is_active() && self.figures[i].role == Role::Private)
            .collect();
        let n = crate::movement::horseholders(troopers.len() as u16, options);
        for &i in troopers.iter().rev().take(usize::from(n)) {
            self.figures[i].holding_horses = true;
        }
        self.mounted = false;
    }

    pub(crate) fn remount(&mut self, options: &Options) -> bool {
        if options.horseholder_loss_blocks_remount && self.horseholders_lost > 0 {
            return false;
        }
        for f in &mut self.figures {
            f.holding_horses = false;
        }
        self.mounted = true;
        true
    }

    /// Troopers who cannot remount because their horseholder was lost (TSATF-MOV-09 option): three per
    /// holder lost.
    #[must_use]
    pub fn stranded(&self, options: &Options) -> u16 {
        if options.horseholder_loss_blocks_remount {
            self.horseholders_lost * 3
        } else {
            0
        }
    }

    pub(crate) fn set_morale(&mut self, state: MoraleState) {
        self.morale = state;
        self.prone = state == MoraleState::Pinned;
    }
}
