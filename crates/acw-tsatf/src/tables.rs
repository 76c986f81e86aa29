//! The rules' tables as typed data: movement, mass fire, type firing, hit cards, close-to-combat, morale,
//! close-combat modifiers and leader ratings.

use acw_core::cards::{Card, Rank, Suit};
use std::fmt;

/// A unit's training class (TSATF-SET-03). Every unit, cavalry and artillery included, carries one; Indians
/// are their own class.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::EnumIter, strum::Display,
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Quality {
    /// Green troops.
    Green,
    /// Average troops.
    Average,
    /// Veteran troops.
    Veteran,
    /// Crack troops.
    Crack,
    /// Indians (TSATF-OPT-03).
    Indians,
}

impl Quality {
    /// The faces of the leaderless die that stop a leaderless unit moving (TSATF-CMD-02): the lowest such face;
    /// every face from it up to 6 stops the unit.
    #[must_use]
    pub const fn leaderless_stop_from(self) -> u16 {
        match self {
            Quality::Green => 3,
            Quality::Average => 4,
            Quality::Veteran | Quality::Indians => 5,
            Quality::Crack => 6,
        }
    }

    /// The 2D6 Major Morale number (TSATF-MOR-02).
    #[must_use]
    pub const fn major_morale(self) -> u8 {
        match self {
            Quality::Green | Quality::Indians => 7,
            Quality::Average => 8,
            Quality::Veteran => 9,
            Quality::Crack => 10,
        }
    }

    /// The 2D6 Critical and Pinned number, with or without a leader (TSATF-MOR-02): with a leader one point
    /// better than without.
    #[must_use]
    pub const fn critical_morale(self, with_leader: bool) -> u8 {
        let base = match self {
            Quality::Green | Quality::Indians => 7,
            Quality::Average => 8,
            Quality::Veteran => 9,
            Quality::Crack => 10,
        };
        if with_leader { base + 1 } else { base }
    }

    /// A rank used to find the lower of two classes (Green lowest, Crack highest; Indians rank with Green).
    #[must_use]
    pub const fn order(self) -> u8 {
        match self {
            Quality::Green | Quality::Indians => 0,
            Quality::Average => 1,
            Quality::Veteran => 2,
            Quality::Crack => 3,
        }
    }
}

/// The Close to Combat / Stand and Fight / Rally chart (TSATF-MEL-08): the top of the passing range of 1D6,
/// or `None` for "Always". `line` is the class whose line is read (Indians are mapped by the caller).
#[must_use]
pub const fn close_combat_score(line: Quality, with_leader: bool) -> Option<u8> {
    match (line, with_leader) {
        (Quality::Green | Quality::Indians, true) => Some(3),
        (Quality::Green | Quality::Indians, false) => Some(2),
        (Quality::Average, true) => Some(4),
        (Quality::Average, false) => Some(3),
        (Quality::Veteran, true) => Some(5),
        (Quality::Veteran, false) => Some(4),
        (Quality::Crack, true) => None,
        (Quality::Crack, false) => Some(5),
    }
}

/// The target classes of fire (TSATF-FIR-06).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::EnumIter)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum TargetClass {
    /// Class I: close order, column, or enfiladed.
    I,
    /// Class II: open or skirmish order; deployed gun crews.
    II,
    /// Class III: prone, rough terrain or light cover.
    III,
    /// Class IV: substantial cover.
    IV,
}

impl fmt::Display for TargetClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = match self {
            TargetClass::I => "I",
            TargetClass::II => "II",
            TargetClass::III => "III",
            TargetClass::IV => "IV",
        };
        write!(f, "Class {n}")
    }
}

impl TargetClass {
    const fn index(self) -> usize {
        self as usize
    }
}

/// The column of the mass fire chart picked by the firing unit's 1D6 (TSATF-FIR-09): 1, 2–5 or 6.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::EnumIter, strum::Display,
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum FireBand {
    /// A roll of 1.
    #[strum(to_string = "a roll of 1")]
    One,
    /// A roll of 2 to 5.
    #[strum(to_string = "a roll of 2 to 5")]
    TwoToFive,
    /// A roll of 6.
    #[strum(to_string = "a roll of 6")]
    Six,
}

impl FireBand {
    /// The band of a D6 face.
    #[must_use]
    pub const fn of(face: u16) -> FireBand {
        match face {
            0 | 1 => FireBand::One,
            6.. => FireBand::Six,
            _ => FireBand::TwoToFive,
        }
    }
}

/// A row of the mass fire chart (TSATF-FIR-09, TSATF-SET-08).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::EnumIter, strum::Display,
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum FireRow {
    /// Green infantry with muskets.
    #[strum(to_string = "Green muskets")]
    GreenMusket,
    /// Average infantry with muskets.
    #[strum(to_string = "Average muskets")]
    AverageMusket,
    /// Veteran infantry with muskets.
    #[strum(to_string = "Veteran muskets")]
    VeteranMusket,
    /// Crack infantry with muskets.
    #[strum(to_string = "Crack muskets")]
    CrackMusket,
    /// Cavalry carbines.
    #[strum(to_string = "cavalry carbines")]
    CavalryCarbine,
    /// Cavalry pistols.
    #[strum(to_string = "cavalry pistols")]
    CavalryPistol,
    /// Cavalry shotguns.
    #[strum(to_string = "cavalry shotguns")]
    CavalryShotgun,
    /// Artillery shot and shell, 0–36".
    #[strum(to_string = "artillery at short range")]
    ArtilleryShort,
    /// Artillery shot and shell, 37–120".
    #[strum(to_string = "artillery at long range")]
    ArtilleryLong,
    /// Canister, 0–24".
    #[strum(to_string = "canister")]
    Canister,
    /// A Gatling gun.
    #[strum(to_string = "a Gatling gun")]
    Gatling,
}

/// The mass fire chart's divisors n of "1/n" (TSATF-FIR-09); 0 stands for "–" (no effect). Rows in
/// [`FireRow`] order, then class I–IV, then band 1 / 2–5 / 6.
const MASS_FIRE: [[[u8; 3]; 4]; 11] = [
    [[8, 7, 5], [9, 8, 6], [9, 9, 7], [0, 9, 8]],
    [[6, 5, 4], [7, 6, 5], [8, 7, 6], [9, 8, 7]],
    [[5, 4, 3], [6, 5, 4], [7, 6, 5], [8, 7, 6]],
    [[4, 3, 2], [5, 4, 3], [6, 5, 4], [7, 6, 5]],
    [[6, 5, 4], [7, 6, 5], [8, 7, 6], [9, 8, 7]],
    [[4, 3, 2], [5, 4, 3], [6, 5, 4], [7, 6, 5]],
    [[4, 3, 2], [5, 4, 3], [0, 0, 0], [0, 0, 0]],
    [[5, 4, 3], [6, 5, 4], [7, 6, 5], [8, 7, 6]],
    [[6, 5, 4], [7, 6, 5], [8, 7, 6], [9, 8, 7]],
    [[3, 2, 1], [4, 3, 2], [6, 5, 4], [0, 0, 0]],
    [[4, 3, 2], [5, 4, 3], [6, 5, 4], [7, 6, 5]],
];

impl FireRow {
    /// The "1/n" divisor of this row for a target class and die band, or `None` for "–" (TSATF-FIR-09).
    /// `green_class3_pattern` reads Green's Class III 2–5 cell as 1/8 instead of the printed 1/9.
    #[must_use]
    pub fn divisor(
        self,
        class: TargetClass,
        band: FireBand,
        green_class3_pattern: bool,
    ) -> Option<u8> {
        if green_class3_pattern
            && self == FireRow::GreenMusket
            && class == TargetClass::III
            && band == FireBand::TwoToFive
        {
            return Some(8);
        }
        let n = MASS_FIRE[self as usize][class.index()][band as usize];
        (n > 0).then_some(n)
    }

    /// The least and greatest range in inches (TSATF-FIR-04, TSATF-ART-03).
    #[must_use]
    pub const fn range(self) -> (f64, f64) {
        match self {
            FireRow::GreenMusket
            | FireRow::AverageMusket
            | FireRow::VeteranMusket
            | FireRow::CrackMusket => (0.0, 36.0),
            FireRow::CavalryCarbine => (0.0, 24.0),
            FireRow::CavalryPistol => (0.0, 15.0),
            FireRow::CavalryShotgun => (0.0, 21.0),
            FireRow::ArtilleryShort => (0.0, 36.0),
            FireRow::ArtilleryLong => (36.0, 120.0),
            FireRow::Canister => (0.0, 24.0),
            FireRow::Gatling => (0.0, 48.0),
        }
    }

    /// The musket row of an infantry class (TSATF-SET-08); Indians fire as Average muskets (TSATF-OPT-03).
    #[must_use]
    pub const fn musket(quality: Quality) -> FireRow {
        match quality {
            Quality::Green => FireRow::GreenMusket,
            Quality::Average | Quality::Indians => FireRow::AverageMusket,
            Quality::Veteran => FireRow::VeteranMusket,
            Quality::Crack => FireRow::CrackMusket,
        }
    }

    /// Whether this row is fired by a gun's crew (artillery, canister, Gatling).
    #[must_use]
    pub const fn is_gun(self) -> bool {
        matches!(
            self,
            FireRow::ArtilleryShort | FireRow::ArtilleryLong | FireRow::Canister | FireRow::Gatling
        )
    }

    /// The row of the Type Firing chart this row fires on (TSATF-FIR-22).
    #[must_use]
    pub const fn type_row(self) -> TypeFireRow {
        match self {
            FireRow::GreenMusket => TypeFireRow::Green,
            FireRow::AverageMusket => TypeFireRow::Average,
            FireRow::VeteranMusket => TypeFireRow::Veteran,
            FireRow::CrackMusket => TypeFireRow::Crack,
            FireRow::CavalryCarbine | FireRow::CavalryPistol | FireRow::CavalryShotgun => {
                TypeFireRow::Cavalry
            }
            FireRow::ArtilleryShort | FireRow::ArtilleryLong => TypeFireRow::ArtilleryShot,
            FireRow::Canister | FireRow::Gatling => TypeFireRow::CanisterGatling,
        }
    }
}

/// A row of the Type Firing chart (TSATF-FIR-22).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::EnumIter, strum::Display,
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum TypeFireRow {
    /// Green.
    Green,
    /// Average.
    Average,
    /// Veteran.
    Veteran,
    /// Crack.
    Crack,
    /// Cavalry, whatever the weapon.
    Cavalry,
    /// Artillery, shot.
    #[strum(to_string = "artillery shot")]
    ArtilleryShot,
    /// Canister or a Gatling gun.
    #[strum(to_string = "canister or Gatling")]
    CanisterGatling,
}

impl TypeFireRow {
    /// The top of the D20 hit range against a class (TSATF-FIR-22): a D20 at or below it hits.
    #[must_use]
    pub const fn hit_top(self, class: TargetClass) -> u8 {
        let class_i = match self {
            TypeFireRow::Green => 5,
            TypeFireRow::Average | TypeFireRow::Cavalry | TypeFireRow::ArtilleryShot => 7,
            TypeFireRow::Veteran => 8,
            TypeFireRow::Crack | TypeFireRow::CanisterGatling => 9,
        };
        class_i - class.index() as u8
    }
}

/// A row of the movement table (TSATF-MOV-02).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::EnumIter, strum::Display,
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum MoveRow {
    /// Infantry in close-order line.
    #[strum(to_string = "infantry in close-order line")]
    InfantryLine,
    /// Infantry in march or assault column.
    #[strum(to_string = "infantry in column")]
    InfantryColumn,
    /// Infantry in skirmish line.
    #[strum(to_string = "infantry in skirmish line")]
    InfantrySkirmish,
    /// Cavalry in close-order line.
    #[strum(to_string = "cavalry in close-order line")]
    CavalryLine,
    /// Cavalry in march column.
    #[strum(to_string = "cavalry in march column")]
    CavalryColumn,
    /// Limbered artillery.
    #[strum(to_string = "limbered artillery")]
    ArtilleryLimbered,
    /// Hand-hauled artillery.
    #[strum(to_string = "hand-hauled artillery")]
    ArtilleryHandHauled,
    /// A wagon.
    #[strum(to_string = "a wagon")]
    Wagon,
    /// A pack animal.
    #[strum(to_string = "a pack animal")]
    PackAnimal,
}

/// Which column of the movement table a move uses (TSATF-MOV-02, TSATF-MOV-03).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::EnumIter, strum::Display,
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum MoveMode {
    /// Cross country.
    #[strum(to_string = "cross country")]
    CrossCountry,
    /// The first road column.
    #[strum(to_string = "on the road")]
    Road,
    /// The second road column (its reading is [`crate::options::RoadB`]).
    #[strum(to_string = "on the road at the second rate")]
    RoadB,
    /// Charging.
    #[strum(to_string = "charging")]
    Charge,
}

/// The movement table: number of D6 per row and column; 0 is "–" (TSATF-MOV-02).
const MOVE_DICE: [[u8; 4]; 9] = [
    [3, 0, 0, 4],
    [4, 5, 6, 5],
    [4, 0, 0, 0],
    [4, 0, 0, 6],
    [5, 6, 7, 6],
    [4, 5, 0, 0],
    [2, 2, 0, 0],
    [4, 5, 0, 0],
    [3, 3, 0, 0],
];

impl MoveRow {
    /// The number of D6 of a column, or `None` for "–" (TSATF-MOV-02).
    #[must_use]
    pub const fn dice(self, mode: MoveMode) -> Option<u8> {
        let n = MOVE_DICE[self as usize][mode as usize];
        if n == 0 { None } else { Some(n) }
    }

    /// Whether the row carries "−HD6" for rough ground (TSATF-MOV-02, TSATF-MOV-06): every row but the
    /// skirmish line.
    #[must_use]
    pub const fn rough_penalty(self) -> bool {
        !matches!(self, MoveRow::InfantrySkirmish)
    }
}

/// What a hit card does to the figure it strikes (TSATF-FIR-14), read from its suit.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::EnumIter, strum::Display,
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum HitEffect {
    /// Spade or club: missed.
    #[strum(to_string = "missed")]
    Miss,
    /// Diamond: wounded.
    #[strum(to_string = "wounded")]
    Wounded,
    /// Heart: killed.
    #[strum(to_string = "killed")]
    Killed,
}

/// The class of figure a card or a pick names (TSATF-SET-05, TSATF-FIR-14).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::EnumIter, strum::Display,
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Category {
    /// Rank and file: cards 2 to 10.
    #[strum(to_string = "an enlisted man")]
    Enlisted,
    /// Artillerymen, snipers, horseholders, train crew: Jack, Queen, King.
    #[strum(to_string = "a key figure")]
    Key,
    /// Officers and NCOs: Ace.
    #[strum(to_string = "an officer or NCO")]
    Cadre,
}

/// How a hit card reads (TSATF-FIR-14): the suit gives the effect, the rank the category struck. A joker
/// (never in the hit deck) reads as a miss on an enlisted man.
#[must_use]
pub fn read_hit_card(card: Card) -> (HitEffect, Category) {
    let effect = match card.suit() {
        Some(Suit::Diamonds) => HitEffect::Wounded,
        Some(Suit::Hearts) => HitEffect::Killed,
        _ => HitEffect::Miss,
    };
    let category = match card.rank() {
        Some(Rank::Ace) => Category::Cadre,
        Some(r) if r.is_face() => Category::Key,
        _ => Category::Enlisted,
    };
    (effect, category)
}

/// A row of the Modifiers to Close Combat chart (TSATF-MEL-18).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::EnumIter, strum::Display,
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum MeleeRow {
    /// Green infantry.
    #[strum(to_string = "Green infantry")]
    GreenInfantry,
    /// Average infantry.
    #[strum(to_string = "Average infantry")]
    AverageInfantry,
    /// Veteran infantry.
    #[strum(to_string = "Veteran infantry")]
    VeteranInfantry,
    /// Crack infantry.
    #[strum(to_string = "Crack infantry")]
    CrackInfantry,
    /// Indians.
    Indians,
    /// Mounted cavalry.
    Cavalry,
}

/// A column of the Modifiers to Close Combat chart (TSATF-MEL-18).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::EnumIter, strum::Display,
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum MeleeColumn {
    /// Charging (cavalry's only against infantry).
    Charging,
    /// Defending in open order.
    #[strum(to_string = "defending in open order")]
    DefendingOpen,
    /// Defending in close order.
    #[strum(to_string = "defending in close order")]
    DefendingClose,
    /// In assault column.
    #[strum(to_string = "assault column")]
    AssaultColumn,
    /// Defending cover.
    #[strum(to_string = "defending cover")]
    DefendingCover,
    /// Hit in flank or rear.
    #[strum(to_string = "hit in flank or rear")]
    FlankOrRear,
}

/// The chart; `None` is a printed "–" (TSATF-MEL-18).
const MELEE_MODS: [[Option<i8>; 6]; 6] = [
    [Some(0), Some(-1), Some(1), Some(1), Some(2), Some(-2)],
    [Some(0), Some(-1), Some(1), Some(2), Some(2), Some(-1)],
    [Some(1), Some(-1), Some(2), Some(2), Some(2), Some(-1)],
    [Some(2), None, Some(2), Some(2), Some(2), None],
    [Some(2), None, None, None, Some(1), Some(-3)],
    [Some(3), Some(-1), Some(2), None, None, Some(-3)],
];

impl MeleeRow {
    /// The printed cell, `None` for "–" (TSATF-MEL-18).
    #[must_use]
    pub const fn cell(self, column: MeleeColumn) -> Option<i8> {
        MELEE_MODS[self as usize][column as usize]
    }

    /// The infantry row of a class; Indians have their own row.
    #[must_use]
    pub const fn infantry(quality: Quality) -> MeleeRow {
        match quality {
            Quality::Green => MeleeRow::GreenInfantry,
            Quality::Average => MeleeRow::AverageInfantry,
            Quality::Veteran => MeleeRow::VeteranInfantry,
            Quality::Crack => MeleeRow::CrackInfantry,
            Quality::Indians => MeleeRow::Indians,
        }
    }
}

/// A leader's rating, the 1D6 rolled for him (TSATF-OPT-01).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::EnumIter, strum::Display,
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum LeaderRating {
    /// 1: despised (+2 to all tests).
    #[strum(to_string = "despised")]
    Despised,
    /// 2: incompetent (+1).
    #[strum(to_string = "incompetent")]
    Incompetent,
    /// 3: green, still learning (0).
    #[strum(to_string = "still learning")]
    Learning,
    /// 4: fair but cautious (−1).
    #[strum(to_string = "fair but cautious")]
    Fair,
    /// 5: good, with an eye for ground (−2).
    #[strum(to_string = "good")]
    Good,
    /// 6: the soul of the lion (−3).
    #[strum(to_string = "the soul of the lion")]
    Lion,
}

impl LeaderRating {
    /// The rating a D6 face gives (TSATF-OPT-01); faces outside 1–6 read as the nearest.
    #[must_use]
    pub const fn from_face(face: u16) -> LeaderRating {
        match face {
            0 | 1 => LeaderRating::Despised,
            2 => LeaderRating::Incompetent,
            3 => LeaderRating::Learning,
            4 => LeaderRating::Fair,
            5 => LeaderRating::Good,
            _ => LeaderRating::Lion,
        }
    }

    /// The modifier to every test's die (TSATF-OPT-01): + is worse, tests being roll-low.
    #[must_use]
    pub const fn modifier(self) -> i8 {
        match self {
            LeaderRating::Despised => 2,
            LeaderRating::Incompetent => 1,
            LeaderRating::Learning => 0,
            LeaderRating::Fair => -1,
            LeaderRating::Good => -2,
            LeaderRating::Lion => -3,
        }
    }
}

/// The width of a column's front rank in figures, infantry and cavalry (TSATF-FIR-05): the defaults of
/// [`crate::options::Options::column_frontage`].
pub const COLUMN_FRONTAGE: (u8, u8) = (4, 2);

/// Figures each of a gun's basic crew of four count as in mass fire (TSATF-ART-02).
pub const CREW_FIRE_FACTOR: u16 = 3;

/// The crew a gun needs to fire at all (TSATF-ART-01, TSATF-SET-06).
pub const MIN_GUN_CREW: u16 = 4;

/// D20 each artillery crewman rolls in Type Firing (TSATF-FIR-23, TSATF-ART-09).
pub const TYPE_FIRE_DICE_PER_CREWMAN: u16 = 3;

/// Pistol range in inches (TSATF-FIR-19).
pub const PISTOL_RANGE: f64 = 15.0;

/// Sniper rifle range in inches (TSATF-FIR-20).
pub const SNIPER_RANGE: f64 = 48.0;

/// How far a charge stops short of its target, and the contact distance (TSATF-MEL-03, TSATF-MEL-04).
pub const CONTACT_DISTANCE: f64 = 1.0;

/// How far a failed attacker falls back, and a pushed-back figure goes (TSATF-MEL-09, TSATF-MEL-16).
pub const FALL_BACK: f64 = 6.0;

/// How near enemy troops reveal hidden Indians (TSATF-OPT-04).
pub const REVEAL_DISTANCE: f64 = 4.0;

/// Figures a train car carries: infantry, cavalry, or one gun with its crew (TSATF-OPT-10).
pub const CAR_CAPACITY: (u16, u16) = (10, 4);

/// The most cars a train has besides engine, tender and caboose (TSATF-OPT-10).
pub const MAX_TRAIN_CARS: u8 = 4;

/// The most guns and the crew range of a tinclad gunboat (TSATF-OPT-06).
pub const GUNBOAT_LIMITS: (u8, u16, u16) = (4, 20, 30);
