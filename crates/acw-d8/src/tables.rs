//! The rules' tables as typed data: classes, weapons and ranges, to-hit and save scores, the melee to-kill
//! table, the morale break chart, movement rates, officers, batteries, structures and victory points.

use acw_core::Side;
use std::fmt;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// A troop class. Officers fight in melee as Veterans (D8-MEL-04).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum Class {
    /// Raw recruits or volunteers.
    Raw,
    /// Experienced infantry or volunteers.
    Experienced,
    /// Veterans (Zouaves).
    Veteran,
}

impl Class {
    /// Every class, Raw first.
    pub const ALL: [Class; 3] = [Class::Raw, Class::Experienced, Class::Veteran];

    /// D8-FIR-08, D8-FRM-04, D8-ART-04: the unmodified score needed on the die (Vet 3+, Exp 4+, Raw 5+); the same
    /// threshold serves fire, artillery fire and the formation-fail test.
    #[must_use]
    pub const fn base_score(self) -> u8 {
        match self {
            Class::Veteran => 3,
            Class::Experienced => 4,
            Class::Raw => 5,
        }
    }

    /// D8-VIC-04: victory points for each enemy figure of this class killed (Raw 1, Exp 2, Vet 3).
    #[must_use]
    pub const fn kill_points(self) -> u32 {
        match self {
            Class::Raw => 1,
            Class::Experienced => 2,
            Class::Veteran => 3,
        }
    }

    /// D8-SET-27, D8-SET-30: the class a D6 gives (1–2 Raw, 3–4 Experienced, 5–6 Veteran).
    #[must_use]
    pub const fn from_d6(face: u16) -> Class {
        match face {
            0..=2 => Class::Raw,
            3 | 4 => Class::Experienced,
            _ => Class::Veteran,
        }
    }
}

impl Class {
    /// The class's name ("Raw", "Experienced", "Veteran"): its `Display`, as a word.
    #[must_use]
    pub const fn word(self) -> &'static str {
        match self {
            Class::Raw => "Raw",
            Class::Experienced => "Experienced",
            Class::Veteran => "Veteran",
        }
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// How well a position protects its occupants (D8-SET-16, D8-STR-01).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum Cover {
    /// In the open.
    #[default]
    Open,
    /// Behind soft cover.
    Soft,
    /// Behind hard cover.
    Hard,
}

impl fmt::Display for Cover {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Cover::Open => "in the open",
            Cover::Soft => "behind soft cover",
            Cover::Hard => "behind hard cover",
        })
    }
}

/// A kind of ground or work, for its cover class (D8-SET-16).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum Ground {
    /// Open fields.
    Open,
    /// A road.
    Road,
    /// A fence.
    Fence,
    /// A low wall.
    LowWall,
    /// A hedge.
    Hedge,
    /// A marsh.
    Marsh,
    /// A hill.
    Hill,
    /// A stream.
    Stream,
    /// Broken ground (not named by the rules; soft by default, open under an option).
    BrokenGround,
    /// Fieldworks.
    Fieldworks,
    /// Earthworks.
    Earthworks,
    /// A wood.
    Wood,
    /// A high wall.
    HighWall,
    /// A river (or a ford, while crossing).
    River,
    /// A stone building.
    StoneBuilding,
    /// A wooden building.
    WoodenBuilding,
    /// A bridge.
    Bridge,
    /// A swamp.
    Swamp,
}

impl Ground {
    /// D8-SET-16, D8-STR-01: the cover class of this ground. `broken_ground_soft` is the reading for broken ground
    /// (default soft; the option makes it open).
    #[must_use]
    pub const fn cover(self, broken_ground_soft: bool) -> Cover {
        match self {
            Ground::Open | Ground::Road => Cover::Open,
            Ground::BrokenGround => {
                if broken_ground_soft {
                    Cover::Soft
                } else {
                    Cover::Open
                }
            }
            Ground::Fence
            | Ground::LowWall
            | Ground::Hedge
            | Ground::Marsh
            | Ground::Hill
            | Ground::Stream => Cover::Soft,
            Ground::Fieldworks
            | Ground::Earthworks
            | Ground::Wood
            | Ground::HighWall
            | Ground::River
            | Ground::StoneBuilding
            | Ground::WoodenBuilding
            | Ground::Bridge
            | Ground::Swamp => Cover::Hard,
        }
    }

    /// D8-MOV-16: whether a gun may pass through this ground (woods, walls, rivers, marshes, swamps, fences,
    /// hedges and works stop it; roads, bridges, hills and broken ground do not).
    #[must_use]
    pub const fn passable_by_guns(self) -> bool {
        !matches!(
            self,
            Ground::Wood
                | Ground::LowWall
                | Ground::HighWall
                | Ground::River
                | Ground::Marsh
                | Ground::Swamp
                | Ground::Fence
                | Ground::Hedge
                | Ground::Fieldworks
                | Ground::Earthworks
        )
    }

    /// D8-MOV-17: whether mounted figures may pass (walls, marshes, swamps, fences and hedges stop them, except
    /// that fences and walls may be jumped, D8-MOV-18). Woods are passable.
    #[must_use]
    pub const fn mounted_passage(self) -> MountedPassage {
        match self {
            Ground::Fence | Ground::LowWall | Ground::HighWall => MountedPassage::Jump,
            Ground::Hedge | Ground::Marsh | Ground::Swamp => MountedPassage::Barred,
            Ground::River => MountedPassage::Swim,
            _ => MountedPassage::Free,
        }
    }
}

/// How mounted figures get past a kind of ground (D8-MOV-17 to D8-MOV-19).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum MountedPassage {
    /// No hazard.
    Free,
    /// Only by jumping: a D6 per figure, killed on a 1.
    Jump,
    /// Only by swimming: a D6 per figure, drowned on 1–2.
    Swim,
    /// Not at all.
    Barred,
}

/// The order a unit stands in (D8-MOV-03).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum Formation {
    /// Side by side in base contact.
    Line,
    /// Two figures wide, any depth, in base contact; limbered artillery counts as column.
    Column,
    /// Spaced at least 1 cm apart, in sight of each other; unlimbered artillery counts as skirmish.
    Skirmish,
}

impl fmt::Display for Formation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Formation::Line => "line",
            Formation::Column => "column",
            Formation::Skirmish => "skirmish order",
        })
    }
}

/// A gun's weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum GunType {
    /// A field gun: 2D8 an artilleryman.
    Field,
    /// A heavy gun: 3D8 an artilleryman.
    Heavy,
}

impl GunType {
    /// D8-SET-29: the type a D6 gives (1–4 field, 5–6 heavy).
    #[must_use]
    pub const fn from_d6(face: u16) -> GunType {
        if face >= 5 {
            GunType::Heavy
        } else {
            GunType::Field
        }
    }

    /// D8-ART-01: D8s rolled for each artilleryman (field 2, heavy 3); D8-STR-05 uses as many D6s.
    #[must_use]
    pub const fn dice_per_artilleryman(self) -> u32 {
        match self {
            GunType::Field => 2,
            GunType::Heavy => 3,
        }
    }

    /// D8-SET-31: the battery's total artillerymen, the two limber figures included.
    #[must_use]
    pub const fn crew(self, side: Side) -> u32 {
        match (side, self) {
            (Side::Union, GunType::Field) => 7,
            (Side::Union, GunType::Heavy) => 8,
            (Side::Confederate, GunType::Field) => 6,
            (Side::Confederate, GunType::Heavy) => 7,
        }
    }
}

impl fmt::Display for GunType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GunType::Field => "field",
            GunType::Heavy => "heavy",
        })
    }
}

/// D8-SET-31: figures of the two-horse limber, counted among the artillerymen.
pub const LIMBER_FIGURES: u32 = 2;

/// What a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum Troop {
    /// A foot regiment.
    Foot,
    /// Cavalry companies combined into a unit.
    Cavalry,
    /// Sharpshooter companies (skirmish only).
    Sharpshooters,
    /// A battery of one gun, its limber and artillerymen.
    Battery(GunType),
    /// Indians (optional troops: Raw, mounted, skirmish only, bows).
    Indians,
}

impl Troop {
    /// Whether the unit is a battery.
    #[must_use]
    pub const fn is_battery(self) -> bool {
        matches!(self, Troop::Battery(_))
    }

    /// D8-CMD-02: brigaded troops (foot regiments) answer to a Brigadier; the rest only to a Divisional or Corps
    /// officer.
    #[must_use]
    pub const fn brigaded(self) -> bool {
        matches!(self, Troop::Foot)
    }

    /// D8-MOV-04: whether this troop type (of `class`, `mounted` for cavalry) may stand in `formation`.
    #[must_use]
    pub fn allows(self, class: Class, mounted: bool, formation: Formation) -> bool {
        match self {
            Troop::Foot => !(class == Class::Raw && formation == Formation::Skirmish),
            Troop::Cavalry => mounted || formation == Formation::Skirmish,
            Troop::Sharpshooters | Troop::Indians => formation == Formation::Skirmish,
            Troop::Battery(_) => formation != Formation::Line,
        }
    }
}

impl Troop {
    /// What the troop is called in a sentence ("foot regiment", "heavy battery"): its `Display`, as a word
    /// that names can be written with without the formatting machinery.
    #[must_use]
    pub const fn word(self) -> &'static str {
        match self {
            Troop::Foot => "foot regiment",
            Troop::Cavalry => "cavalry",
            Troop::Sharpshooters => "sharpshooters",
            Troop::Battery(GunType::Field) => "field battery",
            Troop::Battery(GunType::Heavy) => "heavy battery",
            Troop::Indians => "Indians",
        }
    }
}

impl fmt::Display for Troop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// A side's name as its `Display` writes it ("Union", "Confederate"), as a word that names can be written with
/// without the formatting machinery.
#[must_use]
pub(crate) const fn side_word(side: Side) -> &'static str {
    match side {
        Side::Union => "Union",
        Side::Confederate => "Confederate",
    }
}

/// A weapon (D8-FIR-04).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum Weapon {
    /// The infantry musket (Raw and Experienced foot).
    Musket,
    /// The musket of an Experienced regiment chosen after 1862: long range 90 cm.
    ImprovedMusket,
    /// The infantry rifle (Veteran foot, sharpshooters).
    Rifle,
    /// The Indian bow (long range only).
    Bow,
    /// The cavalry shotgun (short range only).
    Shotgun,
    /// The cavalry carbine.
    Carbine,
    /// A field gun.
    FieldGun,
    /// A heavy gun.
    HeavyGun,
}

/// A weapon's range bands in centimetres: `None` where it has no such band.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RangeBands {
    /// Short range reaches this far (inclusive).
    pub short: Option<f64>,
    /// Long range reaches this far (inclusive).
    pub long: Option<f64>,
}

impl Weapon {
    /// D8-FIR-04: the range table. `bow_short` is the option that makes the bow's 20 cm a short band.
    #[must_use]
    pub const fn ranges(self, bow_short: bool) -> RangeBands {
        let (short, long) = match self {
            Weapon::Musket => (Some(15.0), Some(30.0)),
            Weapon::ImprovedMusket => (Some(15.0), Some(90.0)),
            Weapon::Rifle => (Some(30.0), Some(120.0)),
            Weapon::Bow => {
                if bow_short {
                    (Some(20.0), None)
                } else {
                    (None, Some(20.0))
                }
            }
            Weapon::Shotgun => (Some(5.0), None),
            Weapon::Carbine => (Some(15.0), Some(50.0)),
            Weapon::FieldGun => (Some(30.0), Some(120.0)),
            Weapon::HeavyGun => (Some(45.0), Some(180.0)),
        };
        RangeBands { short, long }
    }

    /// Whether this is a gun (artillery fire, its saves and structure damage).
    #[must_use]
    pub const fn is_gun(self) -> bool {
        matches!(self, Weapon::FieldGun | Weapon::HeavyGun)
    }
}

impl fmt::Display for Weapon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Weapon::Musket => "musket",
            Weapon::ImprovedMusket => "improved musket",
            Weapon::Rifle => "rifle",
            Weapon::Bow => "bow",
            Weapon::Shotgun => "shotgun",
            Weapon::Carbine => "carbine",
            Weapon::FieldGun => "field gun",
            Weapon::HeavyGun => "heavy gun",
        })
    }
}

/// The range band of one firing figure's die (D8-FIR-05).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum Band {
    /// Short range.
    Short,
    /// Long range: −1 to hit.
    Long,
}

/// What a volley's target counts as for the to-hit roll (D8-FIR-07).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum TargetKind {
    /// Formed troops (line, a lone officer by default): no modifier.
    Formed,
    /// A column, limbered artillery included: +1.
    Column,
    /// Skirmishers, unlimbered crews included: −1.
    Skirmishers,
}

/// D8-FIR-09: the to-hit modifiers (firer's formation fail −1, skirmisher target −1, long range −1, column +1).
#[must_use]
pub const fn to_hit_modifier(firer_ff: bool, target: TargetKind, band: Band) -> i8 {
    let mut m = 0;
    if firer_ff {
        m -= 1;
    }
    match target {
        TargetKind::Skirmishers => m -= 1,
        TargetKind::Column => m += 1,
        TargetKind::Formed => {}
    }
    if matches!(band, Band::Long) {
        m -= 1;
    }
    m
}

/// D8-FIR-08, D8-FIR-09: the face a D8 must show: the class's base score less the net modifier, 2 to 8.
#[must_use]
pub fn to_hit_need(class: Class, modifier: i8) -> u8 {
    (i16::from(class.base_score()) - i16::from(modifier)).clamp(2, 8) as u8
}

/// What fired, for the save table (D8-FIR-11, D8-ART-05).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum FireSource {
    /// Musket, rifle, bow, shotgun or carbine.
    SmallArms,
    /// A field gun.
    FieldGun,
    /// A heavy gun.
    HeavyGun,
}

/// D8-FIR-11, D8-ART-05: the lowest D6 face that saves a hit figure. Small arms and field guns: formed troops 5+
/// in the open, 4+ in soft cover, 3+ in hard; skirmishers one face better. Heavy guns one face worse than field.
#[must_use]
pub const fn save_score(source: FireSource, skirmishers: bool, cover: Cover) -> u8 {
    let formed = match cover {
        Cover::Open => 5,
        Cover::Soft => 4,
        Cover::Hard => 3,
    };
    let base = if skirmishers { formed - 1 } else { formed };
    match source {
        FireSource::SmallArms | FireSource::FieldGun => base,
        FireSource::HeavyGun => base + 1,
    }
}

/// D8-MEL-04: the D10 score to kill a figure of `class` (officers use Veteran) in `cover`: Raw 4+/5+/6+,
/// Experienced 6+/7+/8+, Veteran and officers 8+/9+/10 in the open, soft and hard cover.
#[must_use]
pub const fn kill_score(class: Class, cover: Cover) -> u8 {
    let open = match class {
        Class::Raw => 4,
        Class::Experienced => 6,
        Class::Veteran => 8,
    };
    open + match cover {
        Cover::Open => 0,
        Cover::Soft => 1,
        Cover::Hard => 2,
    }
}

/// D8-MOR-03: the break chart. Rows Veteran, Experienced, Raw; columns 4 to 20 original figures.
pub const BREAK_CHART: [[u32; 17]; 3] = [
    [2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 6, 6, 6, 7, 7, 8, 8],
    [2, 3, 3, 3, 4, 5, 5, 6, 6, 7, 7, 7, 8, 9, 9, 10, 10],
    [3, 4, 4, 4, 6, 6, 7, 8, 8, 9, 10, 11, 11, 12, 13, 14, 14],
];

/// D8-MOR-03: the break value for a unit of `class` that started with `original` figures; `None` outside 4–20.
#[must_use]
pub fn break_value(class: Class, original: u32) -> Option<u32> {
    let row = match class {
        Class::Veteran => 0,
        Class::Experienced => 1,
        Class::Raw => 2,
    };
    let col = original.checked_sub(MIN_UNIT)? as usize;
    BREAK_CHART[row].get(col).copied()
}

/// D8-SET-37: the smallest unit, in figures.
pub const MIN_UNIT: u32 = 4;
/// D8-SET-37: the largest unit, in figures (the top of the break chart).
pub const MAX_UNIT: u32 = 20;

/// D8-MOR-04: the morale-point modifiers, each counted once.
pub mod morale_points {
    /// Another regiment of the same brigade within 30 cm.
    pub const BRIGADE_MATE_NEAR: i32 = 1;
    /// Behind soft cover.
    pub const SOFT_COVER: i32 = 1;
    /// Behind hard cover (instead of soft).
    pub const HARD_COVER: i32 = 2;
    /// Enemy within 30 cm.
    pub const ENEMY_NEAR: i32 = -1;
    /// Brigadier more than 30 cm away, or killed.
    pub const BRIGADIER_AWAY: i32 = -1;
    /// Brigadier killed and the Divisional Officer more than 60 cm away.
    pub const BRIGADIER_DEAD_DIVISION_AWAY: i32 = -1;
    /// Divisional Officer killed.
    pub const DIVISION_KILLED: i32 = -1;
    /// Unbrigaded unit, Divisional Officer more than 60 cm away.
    pub const UNBRIGADED_DIVISION_AWAY: i32 = -1;
    /// The distance, in cm, of the "near" items.
    pub const NEAR_CM: f64 = 30.0;
}

/// An officer's rank (D8-CMD-01).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum Rank {
    /// The Commander-in-Chief.
    CommanderInChief,
    /// The Chief of Staff.
    ChiefOfStaff,
    /// A Corps Commander.
    Corps,
    /// A Divisional Commander.
    Division,
    /// A Brigadier.
    Brigadier,
}

impl Rank {
    /// D8-CMD-01: precedence, 1 the highest.
    #[must_use]
    pub const fn precedence(self) -> u8 {
        match self {
            Rank::CommanderInChief => 1,
            Rank::ChiefOfStaff => 2,
            Rank::Corps => 3,
            Rank::Division => 4,
            Rank::Brigadier => 5,
        }
    }

    /// D8-CMD-01: the influence radius in centimetres (120, 120, 90, 60, 30).
    #[must_use]
    pub const fn radius_cm(self) -> f64 {
        match self {
            Rank::CommanderInChief | Rank::ChiefOfStaff => 120.0,
            Rank::Corps => 90.0,
            Rank::Division => 60.0,
            Rank::Brigadier => 30.0,
        }
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rank::CommanderInChief => "Commander-in-Chief",
            Rank::ChiefOfStaff => "Chief of Staff",
            Rank::Corps => "Corps Commander",
            Rank::Division => "Divisional Commander",
            Rank::Brigadier => "Brigadier",
        })
    }
}

/// How a unit is moving, for its rate (D8-MOV-01).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum Pace {
    /// Line or skirmish order (foot, mounted cavalry), limbered guns, wagons, officers.
    Basic,
    /// A charge in line.
    Charge,
    /// In column.
    Column,
    /// An unlimbered gun manhandled by at least 2 crew.
    Manhandle,
}

/// What is moving, for its rate (D8-MOV-01).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum Mover {
    /// Infantry, dismounted cavalry, sharpshooters, artillerymen away from their gun, officers on foot.
    Foot,
    /// Mounted cavalry, Indians, mounted officers.
    Mounted,
    /// A battery's gun (limbered, or manhandled).
    Gun(GunType),
    /// A baggage wagon or siege artillery.
    Wagon,
}

/// D8-MOV-01: the movement rate in centimetres, or `None` where the table gives none (a wagon charging).
#[must_use]
pub const fn rate_cm(mover: Mover, pace: Pace) -> Option<f64> {
    match (mover, pace) {
        (Mover::Foot, Pace::Basic) => Some(15.0),
        (Mover::Foot, Pace::Charge | Pace::Column) => Some(30.0),
        (Mover::Mounted, Pace::Basic) => Some(30.0),
        (Mover::Mounted, Pace::Charge | Pace::Column) => Some(60.0),
        (Mover::Gun(GunType::Field), Pace::Basic | Pace::Column) => Some(30.0),
        (Mover::Gun(GunType::Heavy), Pace::Basic | Pace::Column) => Some(25.0),
        (Mover::Gun(GunType::Field), Pace::Manhandle) => Some(7.0),
        (Mover::Gun(GunType::Heavy), Pace::Manhandle) => Some(5.0),
        (Mover::Wagon, Pace::Basic | Pace::Column) => Some(15.0),
        _ => None,
    }
}

/// D8-SET-01: base sizes in millimetres (frontage, depth).
pub mod basing {
    /// Foot figures and artillerymen.
    pub const FOOT: (f64, f64) = (12.5, 20.0);
    /// Cavalry (mounted): the depth is a per-unit choice of 40, 50 or 60 mm.
    pub const CAVALRY_FRONTAGE: f64 = 25.0;
    /// Cavalry depths allowed.
    pub const CAVALRY_DEPTHS: [f64; 3] = [40.0, 50.0, 60.0];
    /// The 2-horse limber (frontage, depth).
    pub const LIMBER: (f64, f64) = (45.0, 60.0);
    /// The width of a column two figures wide: foot 25 mm, cavalry 50 mm.
    pub const COLUMN_WIDTH_FOOT: f64 = 25.0;
    /// The width of a cavalry column two figures wide.
    pub const COLUMN_WIDTH_CAVALRY: f64 = 50.0;
}

/// D8-SET-02, D8-SET-04: the table: 180 cm west–east by 150 cm north–south, 6 × 5 squares of 30 cm.
pub mod board {
    /// Table width, west to east, in cm.
    pub const WIDTH_CM: f64 = 180.0;
    /// Table depth, north to south, in cm.
    pub const DEPTH_CM: f64 = 150.0;
    /// A grid square's side in cm.
    pub const SQUARE_CM: f64 = 30.0;
    /// Columns of squares.
    pub const COLUMNS: u8 = 6;
    /// Rows of squares.
    pub const ROWS: u8 = 5;
}

/// D8-SET-17: the historical organisation, as reference data: (formation, smallest, largest, of what).
pub const HISTORICAL_ORGANISATION: [(&str, u32, u32, &str); 6] = [
    ("infantry brigade", 3, 6, "regiments"),
    ("infantry division", 2, 5, "brigades"),
    ("corps", 2, 4, "divisions"),
    ("cavalry brigade", 4, 6, "regiments"),
    ("cavalry division", 2, 3, "brigades"),
    ("cavalry corps", 2, 3, "divisions"),
];

/// D8-SET-17: the historical ratio of cavalry figures to infantry figures (about 1 to 6).
pub const CAVALRY_TO_INFANTRY: (u32, u32) = (1, 6);

/// D8-SET-18: the 12 foot regiments each side starts with: 3 Veteran, 6 Experienced, 3 Raw (25/50/25 %).
pub const BASE_REGIMENTS: [(Class, u32); 3] = [
    (Class::Veteran, 3),
    (Class::Experienced, 6),
    (Class::Raw, 3),
];

/// D8-SET-19: the order in which extra regiments come (the side takes the first D4 of them); `d4_3_vet` is the
/// option that makes the third a Veteran.
#[must_use]
pub const fn extra_regiments(d4_3_vet: bool) -> [Class; 4] {
    if d4_3_vet {
        [
            Class::Raw,
            Class::Experienced,
            Class::Veteran,
            Class::Experienced,
        ]
    } else {
        [
            Class::Raw,
            Class::Experienced,
            Class::Experienced,
            Class::Veteran,
        ]
    }
}

/// A structure that guns can damage (D8-STR-04).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum StructureKind {
    /// A stone building.
    StoneBuilding,
    /// A stone bridge.
    StoneBridge,
    /// A wooden building.
    WoodenBuilding,
    /// A wooden bridge.
    WoodenBridge,
    /// A 6-inch section of earthworks or fieldworks.
    Works,
    /// A 6-inch section of stone wall.
    StoneWall,
    /// A 6-inch section of fence.
    Fence,
}

impl StructureKind {
    /// D8-STR-06: points needed to destroy it (stone 60, wooden 30, works 40, stone wall 30, fence 15 a section).
    #[must_use]
    pub const fn hit_value(self) -> u32 {
        match self {
            StructureKind::StoneBuilding | StructureKind::StoneBridge => 60,
            StructureKind::WoodenBuilding | StructureKind::WoodenBridge => 30,
            StructureKind::Works => 40,
            StructureKind::StoneWall => 30,
            StructureKind::Fence => 15,
        }
    }

    /// Whether troops inside or on it die with it (buildings and bridges, D8-STR-07).
    #[must_use]
    pub const fn kills_occupants(self) -> bool {
        matches!(
            self,
            StructureKind::StoneBuilding
                | StructureKind::StoneBridge
                | StructureKind::WoodenBuilding
                | StructureKind::WoodenBridge
        )
    }
}

impl fmt::Display for StructureKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StructureKind::StoneBuilding => "stone building",
            StructureKind::StoneBridge => "stone bridge",
            StructureKind::WoodenBuilding => "wooden building",
            StructureKind::WoodenBridge => "wooden bridge",
            StructureKind::Works => "section of works",
            StructureKind::StoneWall => "section of stone wall",
            StructureKind::Fence => "section of fence",
        })
    }
}

/// D8-STR-06: a section of wall, fence or works is 6 inches long (15.24 cm).
pub const SECTION_CM: f64 = 15.24;

/// Victory points (D8-VIC-02 to D8-VIC-07).
pub mod vp {
    /// D8-VIC-02: each farm controlled.
    pub const FARM: u32 = 20;
    /// D8-VIC-03: the bridge controlled.
    pub const BRIDGE: u32 = 10;
    /// D8-VIC-05: each enemy officer killed.
    pub const OFFICER: u32 = 10;
    /// D8-VIC-06: the enemy's baggage wagon captured.
    pub const BAGGAGE: u32 = 20;
    /// D8-VIC-07: each occupied square, and each zone square.
    pub const SQUARE: u32 = 5;
}

/// Boats (D8-MOV-24, D8-MOV-25).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum Boat {
    /// A canoe: 4 figures, no firing.
    Canoe,
    /// A boat: 4 figures, no firing.
    Boat,
    /// A large boat: 8 figures, up to 4 may fire.
    LargeBoat,
}

impl fmt::Display for Boat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Boat::Canoe => "canoe",
            Boat::Boat => "boat",
            Boat::LargeBoat => "large boat",
        })
    }
}

impl Boat {
    /// D8-MOV-25: figures it carries.
    #[must_use]
    pub const fn capacity(self) -> u32 {
        match self {
            Boat::Canoe | Boat::Boat => 4,
            Boat::LargeBoat => 8,
        }
    }

    /// D8-MOV-25: figures that may fire from it.
    #[must_use]
    pub const fn shooters(self) -> u32 {
        match self {
            Boat::Canoe | Boat::Boat => 0,
            Boat::LargeBoat => 4,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_words_are_the_displays() {
        assert_eq!(side_word(Side::Union), Side::Union.to_string());
        assert_eq!(side_word(Side::Confederate), Side::Confederate.to_string());
        assert_eq!(Troop::Battery(GunType::Field).word(), "field battery");
        assert_eq!(Troop::Battery(GunType::Heavy).to_string(), "heavy battery");
        assert_eq!(Troop::Foot.to_string(), "foot regiment");
    }
}
