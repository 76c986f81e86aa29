//! The rules' tables as typed data: quality, motivation, confidence levels, threat levels, armour, weapons,
//! canister, close-combat weapons and mobility.

use crate::error::SetupError;
use crate::ladder::DieType;
use std::fmt;

/// Troop quality (HT-SG2-01): the quality die, and the small-arms range band in inches.
///
/// Hardtack keeps Stargrunt II's five qualities unchanged and advises scenario designers (HT-SET-07): Green at
/// the least, Untrained only for armed civilians such as townspeople, Elite very rare or unused, most units
/// Regular, famous ones Veteran, militia and new regiments Green, and the companies of one regiment alike or
/// mixed. That is advice, not a rule: a [`Battle`](crate::Battle) accepts every quality for any company and
/// plays it with its own die and band. The random draws follow the advice
/// ([`QualityDraw`](crate::setup::QualityDraw) never yields Untrained or Elite).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Quality {
    /// D4, 4" band (armed civilians only).
    Untrained,
    /// D6, 6" band.
    Green,
    /// D8, 8" band.
    Regular,
    /// D10, 10" band.
    Veteran,
    /// D12, 12" band.
    Elite,
}

impl Quality {
    /// The quality die (HT-SG2-01).
    pub const fn die(self) -> DieType {
        match self {
            Quality::Untrained => DieType::D4,
            Quality::Green => DieType::D6,
            Quality::Regular => DieType::D8,
            Quality::Veteran => DieType::D10,
            Quality::Elite => DieType::D12,
        }
    }

    /// The small-arms range band in inches: the quality die's faces (HT-SG2-01, HT-FIR-03).
    #[must_use]
    pub const fn band_inches(self) -> f64 {
        self.die().faces() as f64
    }
}

impl fmt::Display for Quality {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Quality::Untrained => "Untrained",
            Quality::Green => "Green",
            Quality::Regular => "Regular",
            Quality::Veteran => "Veteran",
            Quality::Elite => "Elite",
        })
    }
}

/// A leadership value: 1 (best) to 3 (worst) (HT-SG2-01).
///
/// Hardtack's leadership advice (HT-SET-09) is for whoever sets a scenario up: give both sides about the same
/// LVs, brave units LV 1–2 and brittle ones LV 2–3 (a brave unit in a hopeless place may take a worse one),
/// since only the difference between opponents matters much. A [`Battle`](crate::Battle) neither balances nor
/// checks the sides' LVs: each company keeps the LV it was given, and every test it takes is against that LV
/// plus the threat level.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "u8", into = "u8"))]
pub struct Leadership(u8);

impl Leadership {
    /// The best leadership.
    pub const ONE: Leadership = Leadership(1);
    /// The middle leadership.
    pub const TWO: Leadership = Leadership(2);
    /// The worst leadership.
    pub const THREE: Leadership = Leadership(3);

    /// A leadership value of 1 to 3; anything else is refused.
    pub const fn new(value: u8) -> Result<Leadership, SetupError> {
        if value >= 1 && value <= 3 {
            Ok(Leadership(value))
        } else {
            Err(SetupError::Leadership(value))
        }
    }

    /// The value, 1 to 3.
    #[must_use]
    pub const fn value(self) -> i16 {
        self.0 as i16
    }

    /// Moved `by` steps (positive = worse), kept within 1–3 (HT-SG2-20).
    pub const fn worsened(self, by: i16) -> Leadership {
        let v = self.0 as i16 + by;
        Leadership(if v < 1 {
            1
        } else if v > 3 {
            3
        } else {
            v as u8
        })
    }
}

impl TryFrom<u8> for Leadership {
    type Error = SetupError;
    fn try_from(v: u8) -> Result<Self, Self::Error> {
        Leadership::new(v)
    }
}

impl From<Leadership> for u8 {
    fn from(l: Leadership) -> u8 {
        l.0
    }
}

impl fmt::Display for Leadership {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "LV{}", self.0)
    }
}

/// Mission motivation (HT-SG2-02, HT-GEN-05): it picks the column of the confidence-test threat levels.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Motivation {
    /// Low motivation.
    Low,
    /// Medium motivation, the default.
    #[default]
    Medium,
    /// High motivation.
    High,
}

impl fmt::Display for Motivation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Motivation::Low => "Low",
            Motivation::Medium => "Medium",
            Motivation::High => "High",
        })
    }
}

/// Fatigue (HT-SG2-02): the starting confidence level and the rally ceiling.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Fatigue {
    /// Starts Confident.
    #[default]
    Fresh,
    /// Starts Steady; cannot be rallied above Steady.
    Tired,
    /// Starts Shaken; cannot be rallied above Shaken.
    Exhausted,
}

impl Fatigue {
    /// The starting confidence level, which is also the rally ceiling (HT-SG2-02).
    pub const fn ceiling(self) -> ConfidenceLevel {
        match self {
            Fatigue::Fresh => ConfidenceLevel::Confident,
            Fatigue::Tired => ConfidenceLevel::Steady,
            Fatigue::Exhausted => ConfidenceLevel::Shaken,
        }
    }
}

/// Confidence level, best first (HT-SG2-17).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ConfidenceLevel {
    /// Any action.
    Confident,
    /// Any action.
    Steady,
    /// Needs a reaction test to leave cover; may not move closer to the enemy nor assault (HT-MOR-07).
    Shaken,
    /// Seeks cover, fires only at units that fired on it, skirmish only, routs if assaulted.
    Broken,
    /// Withdraws, never fires; surrenders or disperses if blocked.
    Routed,
}

impl ConfidenceLevel {
    /// `levels` steps worse, stopping at Routed (HT-SG2-17: losses past Routed are ignored).
    pub const fn dropped(self, levels: u8) -> ConfidenceLevel {
        let i = self as u8 + levels;
        match i {
            0 => ConfidenceLevel::Confident,
            1 => ConfidenceLevel::Steady,
            2 => ConfidenceLevel::Shaken,
            3 => ConfidenceLevel::Broken,
            _ => ConfidenceLevel::Routed,
        }
    }

    /// One step better, but never above `ceiling` (HT-SG2-07: rallying stops at the fatigue ceiling).
    pub const fn rallied(self, ceiling: ConfidenceLevel) -> ConfidenceLevel {
        let here = self as u8;
        let cap = ceiling as u8;
        if here <= cap {
            return self;
        }
        let up = here - 1;
        ConfidenceLevel::Confident.dropped(if up < cap { cap } else { up })
    }
}

impl fmt::Display for ConfidenceLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ConfidenceLevel::Confident => "Confident",
            ConfidenceLevel::Steady => "Steady",
            ConfidenceLevel::Shaken => "Shaken",
            ConfidenceLevel::Broken => "Broken",
            ConfidenceLevel::Routed => "Routed",
        })
    }
}

/// One cell of the threat-level table: a level, or no test required (HT-GEN-05).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Tl {
    /// No test required.
    Ntr,
    /// A threat level (a base, or a cumulative modifier).
    Level(i16),
}

/// A threat-level row: one cell per motivation, Low / Medium / High (HT-GEN-05).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TlRow {
    /// At Low motivation.
    pub low: Tl,
    /// At Medium motivation.
    pub medium: Tl,
    /// At High motivation.
    pub high: Tl,
}

const fn row(low: i16, medium: i16, high: i16) -> TlRow {
    TlRow {
        low: Tl::Level(low),
        medium: Tl::Level(medium),
        high: Tl::Level(high),
    }
}

const fn row_ntr(low: i16, medium: i16) -> TlRow {
    TlRow {
        low: Tl::Level(low),
        medium: Tl::Level(medium),
        high: Tl::Ntr,
    }
}

impl TlRow {
    /// The cell for a motivation.
    pub const fn at(self, m: Motivation) -> Tl {
        match m {
            Motivation::Low => self.low,
            Motivation::Medium => self.medium,
            Motivation::High => self.high,
        }
    }

    /// The cell as a number, NTR read as 0 (for cumulative rows).
    #[must_use]
    pub const fn value(self, m: Motivation) -> i16 {
        match self.at(m) {
            Tl::Ntr => 0,
            Tl::Level(v) => v,
        }
    }
}

/// The threat-level rows of the Hardtack tables (HT-MOR-03, HT-MOR-04) and the Stargrunt II rows the options
/// can restore.
pub mod tl {
    use super::{TlRow, row, row_ntr};

    /// Fired on by small arms (HT-MOR-03): 1/0/NTR. Also the test that replaces every suppression (HT-MOR-01).
    pub const FIRED_ON_SMALL_ARMS: TlRow = row_ntr(1, 0);
    /// Fired on by round shot (HT-MOR-03): 1/0/NTR.
    pub const FIRED_ON_SHOT: TlRow = row_ntr(1, 0);
    /// Fired on by canister (HT-MOR-03): 3/2/1.
    pub const FIRED_ON_CANISTER: TlRow = row(3, 2, 1);
    /// A non-cavalry unit fired on by case or spherical case (HT-MOR-04): 2/1/0.
    pub const FIRED_ON_CASE: TlRow = row(2, 1, 0);
    /// A cavalry unit fired on by case or spherical case (HT-MOR-04): 3/2/1.
    pub const FIRED_ON_CASE_CAVALRY: TlRow = row(3, 2, 1);
    /// Casualties from fire, added to the fired-on bases (HT-MOR-03): +1/+1/+0, and a High unit tests.
    pub const CASUALTIES: TlRow = row(1, 1, 0);
    /// Casualties from a first volley (HT-MOR-04): +3/+2/+1.
    pub const FIRST_VOLLEY_CASUALTIES: TlRow = row(3, 2, 1);
    /// The printed first-volley example's Low value (+2 at Low, making 4) (HT-INT-09).
    pub const FIRST_VOLLEY_CASUALTIES_EXAMPLE: TlRow = row(2, 2, 1);
    /// As many or more casualties in one attack than survivors (HT-MOR-04): 4/3/1.
    pub const OVERWHELMED: TlRow = row(4, 3, 1);
    /// 50% of the full-strength complement lost (HT-MOR-04, advanced): 4/3/1.
    pub const HALF_LOST: TlRow = row(4, 3, 1);
    /// The unit's leader becomes a casualty (HT-MOR-03): 4/3/1.
    pub const LEADER: TlRow = row(4, 3, 1);
    /// Stargrunt II's leader row (option): 4/3/2.
    pub const LEADER_SGII: TlRow = row(4, 3, 2);
    /// Stargrunt II's casualty and first-suppression rows (options): 2/1/NTR.
    pub const SGII_2_1_NTR: TlRow = row_ntr(2, 1);
    /// Enfilade (HT-MOR-04, advanced): +3/+2/+2.
    pub const ENFILADE: TlRow = row(3, 2, 2);
    /// In close formation (HT-MOR-03): −1.
    pub const CLOSE_FORMATION: TlRow = row(-1, -1, -1);
    /// Charged by an enemy in close formation (HT-MOR-03): +1.
    pub const CHARGED_BY_CLOSE_FORMATION: TlRow = row(1, 1, 1);
    /// Forced to abandon wounded (HT-MOR-03): +3/+2/+1.
    pub const ABANDON_WOUNDED: TlRow = row(3, 2, 1);
    /// Regimental colours captured (HT-MOR-04, advanced): +1.
    pub const COLOURS_CAPTURED: TlRow = row(1, 1, 1);
}

/// Personal armour (HT-SET-10).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Armour {
    /// A Civil War soldier: D4.
    #[default]
    None,
    /// A metal breastplate: D6.
    Breastplate,
}

impl Armour {
    /// The armour die (HT-SET-10).
    pub const fn die(self) -> DieType {
        match self {
            Armour::None => DieType::D4,
            Armour::Breastplate => DieType::D6,
        }
    }
}

/// The armour die of a gun model, against shot and case only (HT-SET-10, HT-ART-21).
pub const GUN_ARMOUR: DieType = DieType::D8;

/// Small arms (HT-SET-11).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum SmallArm {
    /// Musket: FP 1, impact D6.
    #[default]
    Musket,
    /// Carbine: FP 1, impact D4.
    Carbine,
    /// Shotgun: close range only, FP 1, impact D8.
    Shotgun,
    /// Pistol: close range only, FP ½, impact D4.
    Pistol,
}

impl SmallArm {
    /// Firepower per figure in half points (a pistol's ½ is 1) (HT-SET-11).
    #[must_use]
    pub const fn half_fp(self) -> u32 {
        match self {
            SmallArm::Pistol => 1,
            _ => 2,
        }
    }

    /// The impact die (HT-SET-11).
    pub const fn impact(self) -> DieType {
        match self {
            SmallArm::Musket => DieType::D6,
            SmallArm::Carbine | SmallArm::Pistol => DieType::D4,
            SmallArm::Shotgun => DieType::D8,
        }
    }

    /// Whether it reaches only the first range band (HT-SET-11, HT-FIR-14).
    #[must_use]
    pub const fn close_range_only(self) -> bool {
        matches!(self, SmallArm::Shotgun | SmallArm::Pistol)
    }

    /// Its close-combat die shift (HT-MEL-08): pistol +1, shotgun +2, muskets and carbines 0.
    #[must_use]
    pub const fn melee_shift(self) -> i16 {
        match self {
            SmallArm::Pistol => 1,
            SmallArm::Shotgun => 2,
            _ => 0,
        }
    }
}

impl fmt::Display for SmallArm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SmallArm::Musket => "musket",
            SmallArm::Carbine => "carbine",
            SmallArm::Shotgun => "shotgun",
            SmallArm::Pistol => "pistol",
        })
    }
}

/// A company's weapon with its traits (HT-SET-11): smoothbore, breechloader, repeater.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Weapon {
    /// The arm.
    pub arm: SmallArm,
    /// A smoothbore: the range die goes up one beyond the first band (HT-FIR-05).
    pub smoothbore: bool,
    /// A breechloader: no reload needed (HT-FIR-20).
    pub breechloader: bool,
    /// A repeater: firepower ×2 and no reload needed (HT-SET-11, HT-FIR-08).
    pub repeater: bool,
}

impl Weapon {
    /// A plain weapon of an arm, without traits.
    pub const fn of(arm: SmallArm) -> Weapon {
        Weapon {
            arm,
            smoothbore: false,
            breechloader: false,
            repeater: false,
        }
    }

    /// Firepower per figure in half points: the arm's, doubled for a repeater (HT-FIR-08).
    #[must_use]
    pub const fn half_fp(self) -> u32 {
        if self.repeater {
            self.arm.half_fp() * 2
        } else {
            self.arm.half_fp()
        }
    }

    /// Whether firing leaves a Reload marker (HT-FIR-20): not for breechloaders and repeaters.
    #[must_use]
    pub const fn needs_reload(self) -> bool {
        !(self.breechloader || self.repeater)
    }
}

/// The sharpshooter's rifled musket (HT-SET-11, HT-FIR-24): FP die D8, impact D8.
pub const SHARPSHOOTER_DIE: DieType = DieType::D8;

/// A field piece firing canister (HT-ART-15).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum FieldPiece {
    /// 20lb rifle: 6" band, 2×D12.
    Rifle20lb,
    /// 12lb Napoleon (smoothbore): 8" band, 2×D12.
    Napoleon12lb,
    /// 10lb or 3" rifle: 6" band, 2×D10.
    Rifle10lbOr3in,
    /// 6lb, rifled or smoothbore: 4" band, 2×D8.
    Gun6lb,
}

impl FieldPiece {
    /// The canister range band in inches (HT-ART-15).
    #[must_use]
    pub const fn canister_band(self) -> f64 {
        match self {
            FieldPiece::Rifle20lb | FieldPiece::Rifle10lbOr3in => 6.0,
            FieldPiece::Napoleon12lb => 8.0,
            FieldPiece::Gun6lb => 4.0,
        }
    }

    /// The type of each of the two canister firepower dice (HT-ART-15).
    pub const fn canister_die(self) -> DieType {
        match self {
            FieldPiece::Rifle20lb | FieldPiece::Napoleon12lb => DieType::D12,
            FieldPiece::Rifle10lbOr3in => DieType::D10,
            FieldPiece::Gun6lb => DieType::D8,
        }
    }
}

impl fmt::Display for FieldPiece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FieldPiece::Rifle20lb => "20lb rifle",
            FieldPiece::Napoleon12lb => "12lb Napoleon",
            FieldPiece::Rifle10lbOr3in => "10lb rifle",
            FieldPiece::Gun6lb => "6lb gun",
        })
    }
}

/// Canister's impact die (HT-ART-15).
pub const CANISTER_IMPACT: DieType = DieType::D12;
/// Round shot's impact die at the first impact point (HT-ART-08).
pub const SHOT_IMPACT: DieType = DieType::D10;

/// A close-combat weapon (HT-MEL-08); a figure uses the best it carries.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum MeleeWeapon {
    /// Ranged weapons only, or improvised: no shift.
    #[default]
    None,
    /// A pistol: +1.
    Pistol,
    /// A sword or sabre: +1.
    Sword,
    /// A shotgun: +2.
    Shotgun,
}

impl MeleeWeapon {
    /// The open die shift (HT-MEL-08).
    #[must_use]
    pub const fn shift(self) -> i16 {
        match self {
            MeleeWeapon::None => 0,
            MeleeWeapon::Pistol | MeleeWeapon::Sword => 1,
            MeleeWeapon::Shotgun => 2,
        }
    }
}

/// Who moves (HT-MOV-01).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Mover {
    /// Infantry or dismounted cavalry: 6", D6×2".
    Infantry,
    /// Mounted cavalry: 12", D12×2".
    MountedCavalry,
    /// Limbered artillery or a horse team: 10", D10×2".
    Limbered,
    /// Unlimbered artillery with two or more crew figures: 4", D4×2".
    Unlimbered,
    /// Unlimbered artillery with one crew figure: 2", no combat move.
    UnlimberedOneCrew,
}

impl Mover {
    /// The mobility die (HT-MOV-01); `None` when no combat move is allowed.
    #[must_use]
    pub const fn die(self) -> Option<DieType> {
        match self {
            Mover::Infantry => Some(DieType::D6),
            Mover::MountedCavalry => Some(DieType::D12),
            Mover::Limbered => Some(DieType::D10),
            Mover::Unlimbered => Some(DieType::D4),
            Mover::UnlimberedOneCrew => None,
        }
    }

    /// The mobility die for a mover, shifted down for a line (HT-MOV-02) and for carrying wounded on foot
    /// (HT-MOV-01), closed at D4.
    #[must_use]
    pub const fn shifted_die(self, line: bool, encumbered: bool) -> Option<DieType> {
        match self.die() {
            None => None,
            Some(d) => {
                let by = -(line as i16) - (encumbered as i16);
                Some(d.shift_closed(by))
            }
        }
    }

    /// The normal move per action in inches: the die's faces (HT-MOV-01), or 2" for a lone crewman.
    #[must_use]
    pub const fn normal_move(self, line: bool, encumbered: bool) -> f64 {
        match self.shifted_die(line, encumbered) {
            Some(d) => d.faces() as f64,
            None => 2.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // HT-SG2-01: quality dice and bands.
    #[test]
    fn quality_table() {
        assert_eq!(Quality::Regular.die(), DieType::D8);
        assert!((Quality::Veteran.band_inches() - 10.0).abs() < 1e-12);
        assert!(Leadership::new(0).is_err());
        assert_eq!(Leadership::THREE.worsened(1), Leadership::THREE);
    }

    // HT-SG2-02: fatigue ceilings; HT-SG2-17: the ladder of confidence levels.
    #[test]
    fn confidence_levels() {
        assert_eq!(Fatigue::Tired.ceiling(), ConfidenceLevel::Steady);
        assert_eq!(ConfidenceLevel::Steady.dropped(2), ConfidenceLevel::Broken);
        assert_eq!(ConfidenceLevel::Broken.dropped(5), ConfidenceLevel::Routed);
        assert_eq!(
            ConfidenceLevel::Broken.rallied(ConfidenceLevel::Confident),
            ConfidenceLevel::Shaken
        );
        assert_eq!(
            ConfidenceLevel::Shaken.rallied(ConfidenceLevel::Shaken),
            ConfidenceLevel::Shaken
        );
    }

    // HT-SET-11: the weapons table; HT-ART-15: canister; HT-MOV-01/02: mobility.
    #[test]
    fn weapon_tables() {
        assert_eq!(SmallArm::Pistol.half_fp(), 1);
        assert_eq!(SmallArm::Musket.impact(), DieType::D6);
        assert!(SmallArm::Shotgun.close_range_only());
        let spencer = Weapon {
            repeater: true,
            ..Weapon::of(SmallArm::Carbine)
        };
        assert_eq!(spencer.half_fp(), 4);
        assert!(!spencer.needs_reload());
        assert_eq!(FieldPiece::Rifle10lbOr3in.canister_die(), DieType::D10);
        assert!((FieldPiece::Napoleon12lb.canister_band() - 8.0).abs() < 1e-12);
        assert_eq!(Mover::Infantry.shifted_die(true, false), Some(DieType::D4));
        assert_eq!(
            Mover::MountedCavalry.shifted_die(true, false),
            Some(DieType::D10)
        );
        assert!((Mover::Infantry.normal_move(false, true) - 4.0).abs() < 1e-12);
    }
}
