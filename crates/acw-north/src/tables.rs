//! The rules' tables as typed data, each with its rule ID, and the small vocabulary they are indexed by.

use crate::options::{DismountedCavalryRange, DismountedMove, Options};
use acw_core::Arm;
use acw_core::measure::Inches;
use acw_core::vocab::Mount;

/// Quality of a unit: it sets only the starting stands (NORTH-SET-02).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Default,
    strum::EnumIter,
    strum::Display,
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Quality {
    /// One stand more than standard (artillery: one crew stand more).
    Elite,
    /// The standard unit.
    #[default]
    Standard,
    /// One stand fewer than standard.
    Poor,
}

/// What kind of troops a unit is at this moment: cavalry is one unit in two states (NORTH-SET-01).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::EnumIter, strum::Display,
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Troop {
    /// Infantry: stands of two figures.
    #[strum(to_string = "infantry")]
    Infantry,
    /// Mounted cavalry: stands of one figure.
    #[strum(to_string = "mounted cavalry")]
    MountedCavalry,
    /// Dismounted cavalry: fighting stands of two figures and a horse-holder stand.
    #[strum(to_string = "dismounted cavalry")]
    DismountedCavalry,
    /// Artillery: a gun and crew stands of two figures.
    #[strum(to_string = "artillery")]
    Artillery,
}

impl Troop {
    /// The troop kind of an arm in a mount state (the mount matters for cavalry only).
    #[must_use]
    pub const fn of(arm: Arm, mount: Mount) -> Troop {
        match (arm, mount) {
            (Arm::Infantry, _) => Troop::Infantry,
            (Arm::Cavalry, Mount::Mounted) => Troop::MountedCavalry,
            (Arm::Cavalry, Mount::Dismounted) => Troop::DismountedCavalry,
            (Arm::Artillery, _) => Troop::Artillery,
        }
    }

    /// The arm of service.
    #[must_use]
    pub const fn arm(self) -> Arm {
        match self {
            Troop::Infantry => Arm::Infantry,
            Troop::MountedCavalry | Troop::DismountedCavalry => Arm::Cavalry,
            Troop::Artillery => Arm::Artillery,
        }
    }
}

/// The kinds of stand on the table (NORTH-SET-01).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::EnumIter, strum::Display,
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum StandKind {
    /// An infantry stand.
    Infantry,
    /// A mounted cavalry stand.
    MountedCavalry,
    /// A dismounted cavalry fighting stand.
    DismountedCavalry,
    /// The horse-holder stand of dismounted cavalry.
    HorseHolder,
    /// An artillery crew stand.
    ArtilleryCrew,
}

/// NORTH-SET-01: figures on each kind of stand; the rules do not say how many a horse-holder stand carries.
#[must_use]
pub const fn figures_per_stand(kind: StandKind) -> Option<u8> {
    match kind {
        StandKind::Infantry | StandKind::DismountedCavalry | StandKind::ArtilleryCrew => Some(2),
        StandKind::MountedCavalry => Some(1),
        StandKind::HorseHolder => None,
    }
}

/// NORTH-SET-01: stands of a standard unit of each arm (cavalry counted mounted; artillery: crew stands).
#[must_use]
pub const fn standard_stands(arm: Arm) -> u8 {
    starting_stands(arm, Quality::Standard)
}

/// NORTH-SET-02: starting stands by arm and quality (artillery: crew stands, the gun is not a stand).
#[must_use]
pub const fn starting_stands(arm: Arm, quality: Quality) -> u8 {
    match (arm, quality) {
        (Arm::Infantry | Arm::Cavalry, Quality::Elite) => 5,
        (Arm::Infantry | Arm::Cavalry, Quality::Standard) => 4,
        (Arm::Infantry | Arm::Cavalry, Quality::Poor) => 3,
        (Arm::Artillery, Quality::Elite) => 3,
        (Arm::Artillery, Quality::Standard) => 2,
        (Arm::Artillery, Quality::Poor) => 1,
    }
}

/// NORTH-SET-02 / NORTH-MOV-06: crew figures of a battery with `crew_stands` crew stands (2 per stand).
#[must_use]
pub const fn crew_figures(crew_stands: u8) -> u8 {
    crew_stands.saturating_mul(2)
}

/// NORTH-SET-02 / NORTH-MOV-19: the dismounted form of a cavalry unit of `mounted` stands: (fighting stands,
/// horse-holder stands). Zero stands has no dismounted form.
#[must_use]
pub const fn dismounted_form(mounted: u8) -> Option<(u8, u8)> {
    if mounted == 0 {
        None
    } else {
        Some((mounted - 1, 1))
    }
}

/// A formation (NORTH-MOV-01). Foot and horse use line, column and skirmish order; artillery is limbered or
/// unlimbered.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::EnumIter, strum::Display,
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Formation {
    /// One stand deep, stands side by side (deployed).
    #[strum(to_string = "line")]
    Line,
    /// Stands one behind another (not deployed).
    #[strum(to_string = "column")]
    Column,
    /// Skirmish order: a front rank on a 10" frontage, the rest behind (deployed; infantry only).
    #[strum(to_string = "skirmish order")]
    Skirmish,
    /// Artillery hooked up, trail toward the direction of movement (not deployed).
    #[strum(to_string = "limbered")]
    Limbered,
    /// Artillery unlimbered, muzzle toward the direction of fire (deployed).
    #[strum(to_string = "unlimbered")]
    Unlimbered,
}

impl Formation {
    /// NORTH-MOV-01: whether the formation is deployed (line, skirmish order, unlimbered).
    #[must_use]
    pub const fn is_deployed(self) -> bool {
        matches!(
            self,
            Formation::Line | Formation::Skirmish | Formation::Unlimbered
        )
    }

    /// The shared vocabulary's name for a foot or horse formation (`None` for artillery states).
    #[must_use]
    pub const fn to_core(self) -> Option<acw_core::vocab::Formation> {
        match self {
            Formation::Line => Some(acw_core::vocab::Formation::Line),
            Formation::Column => Some(acw_core::vocab::Formation::Column),
            Formation::Skirmish => Some(acw_core::vocab::Formation::Skirmish),
            Formation::Limbered | Formation::Unlimbered => None,
        }
    }

    /// The shared vocabulary's limber state for artillery formations (`None` for foot and horse).
    #[must_use]
    pub const fn to_limber(self) -> Option<acw_core::vocab::Limber> {
        match self {
            Formation::Limbered => Some(acw_core::vocab::Limber::Limbered),
            Formation::Unlimbered => Some(acw_core::vocab::Limber::Unlimbered),
            _ => None,
        }
    }
}

/// NORTH-MOV-01 (with NORTH-MOV-16 and NORTH-OPT-35): the formations a troop kind may take.
#[must_use]
pub fn legal_formations(troop: Troop, options: &Options) -> &'static [Formation] {
    match troop {
        Troop::Infantry => &[Formation::Line, Formation::Column, Formation::Skirmish],
        Troop::MountedCavalry => &[Formation::Line, Formation::Column],
        Troop::DismountedCavalry if options.dismounted_cavalry_skirmish => {
            &[Formation::Line, Formation::Column, Formation::Skirmish]
        }
        Troop::DismountedCavalry => &[Formation::Line, Formation::Column],
        Troop::Artillery => &[Formation::Limbered, Formation::Unlimbered],
    }
}

/// NORTH-MOV-01: whether `formation` is legal for `troop`.
#[must_use]
pub fn formation_is_legal(troop: Troop, formation: Formation, options: &Options) -> bool {
    legal_formations(troop, options).contains(&formation)
}

/// NORTH-MOV-02: a general's allowance (MG or AC).
pub const GENERAL_MOVE: Inches = Inches(15.0);
/// NORTH-MOV-17: skirmishers that do not fire move up to this.
pub const SKIRMISH_MOVE: Inches = Inches(10.0);
/// NORTH-MOV-17: skirmishers that fire move up to this.
pub const SKIRMISH_FIRE_MOVE: Inches = Inches(5.0);
/// NORTH-MOV-16: the skirmish front rank's frontage.
pub const SKIRMISH_FRONTAGE: Inches = Inches(10.0);
/// NORTH-MOV-16: figures in the skirmish front rank (two stands of two).
pub const SKIRMISH_FRONT_FIGURES: u8 = 4;
/// NORTH-MOV-16: stands in the skirmish front rank.
pub const SKIRMISH_FRONT_STANDS: u8 = 2;
/// NORTH-MOV-18: how far skirmishers fall back when they reform in column.
pub const SKIRMISH_FALL_BACK: Inches = Inches(10.0);

/// Whether a unit moves without firing this phase or moves and fires (matters for skirmishers and, under
/// the default reading, dismounted cavalry in line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum FireIntent {
    /// The unit will not fire this phase.
    #[default]
    NoFire,
    /// The unit means to fire this phase.
    Fire,
}

/// NORTH-MOV-02 with NORTH-MOV-17 and NORTH-MOV-20: the movement allowance of a troop kind in a formation.
/// `None` for a formation the troop kind cannot take.
#[must_use]
pub fn movement_allowance(
    troop: Troop,
    formation: Formation,
    intent: FireIntent,
    options: &Options,
) -> Option<Inches> {
    if !formation_is_legal(troop, formation, options) {
        return None;
    }
    let skirmish = if intent == FireIntent::Fire {
        SKIRMISH_FIRE_MOVE
    } else {
        SKIRMISH_MOVE
    };
    Some(match (troop, formation) {
        (Troop::Artillery, Formation::Unlimbered) => Inches(0.0),
        (Troop::Artillery, _) => Inches(10.0),
        (Troop::Infantry, Formation::Line) => Inches(5.0),
        (Troop::Infantry | Troop::DismountedCavalry, Formation::Skirmish) => skirmish,
        (Troop::DismountedCavalry, Formation::Line) => match options.dismounted_move {
            DismountedMove::TenOrFiveAndFire => skirmish,
            DismountedMove::Table5 => Inches(5.0),
            DismountedMove::Always10 => Inches(10.0),
        },
        (Troop::Infantry | Troop::DismountedCavalry, _) => Inches(10.0),
        (Troop::MountedCavalry, Formation::Line) => Inches(10.0),
        (Troop::MountedCavalry, _) => Inches(15.0),
    })
}

/// A brigade's order, or a leaderless unit's own order (NORTH-CMD-01).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::EnumIter, strum::Display,
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BrigadeOrder {
    /// Move back toward the own base edge (NORTH-CMD-04).
    Withdraw,
    /// No voluntary move; charges allowed (NORTH-CMD-03).
    Hold,
    /// Move toward the enemy (NORTH-CMD-02).
    Advance,
}

impl BrigadeOrder {
    /// Whether the order makes units move (Advance or Withdraw).
    #[must_use]
    pub const fn is_movement_order(self) -> bool {
        !matches!(self, BrigadeOrder::Hold)
    }
}

/// Where the MG figure stands, which shows his brigade's order (NORTH-CMD-05).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::EnumIter, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum MgPlacement {
    /// In front of the brigade, on the enemy side.
    InFront,
    /// Behind the brigade.
    Behind,
    /// Behind the brigade, facing the rear.
    BehindFacingRear,
}

/// NORTH-CMD-05: the MG placement that shows an order.
#[must_use]
pub const fn mg_placement(order: BrigadeOrder) -> MgPlacement {
    match order {
        BrigadeOrder::Advance => MgPlacement::InFront,
        BrigadeOrder::Hold => MgPlacement::Behind,
        BrigadeOrder::Withdraw => MgPlacement::BehindFacingRear,
    }
}

/// NORTH-CMD-05: the order an MG placement shows.
#[must_use]
pub const fn order_shown_by(placement: MgPlacement) -> BrigadeOrder {
    match placement {
        MgPlacement::InFront => BrigadeOrder::Advance,
        MgPlacement::Behind => BrigadeOrder::Hold,
        MgPlacement::BehindFacingRear => BrigadeOrder::Withdraw,
    }
}

/// NORTH-MOV-05: P(success) of an accomplishment toss in sixths: clamp(N − c, 0, 6).
#[must_use]
pub const fn accomplishment_sixths(capacity: u8, charge_cover: bool) -> u8 {
    let c = if charge_cover { 1 } else { 0 };
    let n = capacity.saturating_sub(c);
    if n > 6 { 6 } else { n }
}

/// NORTH-MOV-12: the highest face that crosses an obstacle (1–4 crosses, 5–6 halts).
pub const OBSTACLE_PASS_MAX: u16 = 4;

/// NORTH-CMD-07: the lowest face that changes a brigade's order (5 or 6).
pub const ORDER_CHANGE_MIN: u16 = 5;

/// What a rally toss does (NORTH-CMD-10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RallyResult {
    /// Subtract 1, 2 or 3 from the morale toss.
    Subtract(u8),
    /// No effect.
    NoEffect,
    /// The general is captured (a check caused by a melee hit only).
    Captured,
    /// The general is killed.
    Killed,
}

impl RallyResult {
    /// What is subtracted from the morale toss.
    #[must_use]
    pub const fn subtraction(self) -> u8 {
        match self {
            RallyResult::Subtract(n) => n,
            _ => 0,
        }
    }

    /// Whether the general is lost (killed or captured).
    #[must_use]
    pub const fn general_lost(self) -> bool {
        matches!(self, RallyResult::Captured | RallyResult::Killed)
    }
}

/// NORTH-CMD-10: the rally table. `melee` is whether the morale check comes from a melee hit.
#[must_use]
pub const fn rally_effect(face: u16, melee: bool) -> RallyResult {
    match face {
        1 => RallyResult::Subtract(1),
        2 => RallyResult::Subtract(2),
        3 => RallyResult::Subtract(3),
        5 if melee => RallyResult::Captured,
        6 => RallyResult::Killed,
        _ => RallyResult::NoEffect,
    }
}

/// NORTH-CMD-11: the modifier of the brigade order check: −1 from Withdraw, +1 from Advance.
#[must_use]
pub const fn order_check_modifier(current: BrigadeOrder) -> i16 {
    match current {
        BrigadeOrder::Withdraw => -1,
        BrigadeOrder::Hold => 0,
        BrigadeOrder::Advance => 1,
    }
}

/// NORTH-CMD-11 (bands of NORTH-MOR-10): the new order for a modified order-check toss.
#[must_use]
pub const fn order_check_band(total: i16) -> BrigadeOrder {
    if total <= 2 {
        BrigadeOrder::Withdraw
    } else if total <= 4 {
        BrigadeOrder::Hold
    } else {
        BrigadeOrder::Advance
    }
}

/// NORTH-CBT-02: a combat toss hits when the d6 plus modifiers reaches this.
pub const HIT_TARGET: i16 = 5;

/// NORTH-CBT-03 / NORTH-CBT-04: artillery firing at more than 24".
pub const MOD_LONG_RANGE: i16 = -1;
/// NORTH-CBT-04: beyond this range (strictly) artillery takes the long-range penalty.
pub const LONG_RANGE: Inches = Inches(24.0);
/// NORTH-CBT-03 / NORTH-CBT-05: target behind cover.
pub const MOD_COVER: i16 = -1;
/// NORTH-CBT-03 / NORTH-CBT-06: target attacked by mounted cavalry.
pub const MOD_MOUNTED_ATTACKER: i16 = -1;
/// NORTH-CBT-03 / NORTH-CBT-07: first round of melee.
pub const MOD_FIRST_ROUND: i16 = 1;
/// NORTH-CBT-03 / NORTH-CBT-08: target not deployed.
pub const MOD_NOT_DEPLOYED: i16 = 1;
/// NORTH-CBT-03 / NORTH-CBT-09: target is mounted cavalry, under fire.
pub const MOD_MOUNTED_TARGET: i16 = 1;
/// NORTH-CBT-03 / NORTH-CBT-10: each attacking unit after the first.
pub const MOD_PER_EXTRA_ATTACKER: i16 = 1;
/// NORTH-FIR-04: skirmishers that crossed obstacles or rough terrain and fire.
pub const MOD_SKIRMISHER_CROSSING: i16 = -1;

/// NORTH-CBT-11: P(hit) in sixths for a net modifier `m`: clamp(2 + m, 0, 6). No automatic hit on 6, no
/// automatic miss on 1.
#[must_use]
pub const fn hit_sixths(m: i16) -> u8 {
    let s = m.saturating_add(2);
    if s < 0 {
        0
    } else if s > 6 {
        6
    } else {
        s as u8
    }
}

/// NORTH-CBT-11: the lowest d6 face that hits with net modifier `m` (`None`: no face hits).
#[must_use]
pub const fn hit_face_needed(m: i16) -> Option<u16> {
    let need = HIT_TARGET.saturating_sub(m);
    if need > 6 {
        None
    } else if need < 1 {
        Some(1)
    } else {
        Some(need as u16)
    }
}

/// Who fires musketry (NORTH-FIR-02).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::EnumIter, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Firer {
    /// Infantry in line or skirmish order.
    Infantry,
    /// Dismounted cavalry.
    DismountedCavalry,
    /// Mounted cavalry in line.
    MountedCavalry,
}

/// NORTH-FIR-02: maximum musketry range (no range modifier within it).
#[must_use]
pub const fn musketry_range(firer: Firer, options: &Options) -> Inches {
    match firer {
        Firer::Infantry => Inches(18.0),
        Firer::DismountedCavalry => match options.dismounted_cavalry_range {
            DismountedCavalryRange::Infantry18 => Inches(18.0),
            DismountedCavalryRange::Carbine12 => Inches(12.0),
        },
        Firer::MountedCavalry => Inches(12.0),
    }
}

/// The three results of a morale toss (NORTH-MOR-02).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::EnumIter, strum::Display,
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum MoraleBand {
    /// 1–2 (and less): the unit rallies, no effect.
    #[strum(to_string = "1–2 (it rallies)")]
    Rallies,
    /// 3–4: the owner chooses to lose a stand or to fall back.
    #[strum(to_string = "3–4 (the owner's choice)")]
    Choice,
    /// 5–6 (and more): the unit loses a stand and falls back.
    #[strum(to_string = "5–6 (a stand lost and a fall-back)")]
    Both,
}

/// NORTH-MOR-02 with NORTH-MOR-10: the band of a modified morale toss (≤2 rallies, ≥5 both).
#[must_use]
pub const fn morale_band(total: i16) -> MoraleBand {
    if total <= 2 {
        MoraleBand::Rallies
    } else if total <= 4 {
        MoraleBand::Choice
    } else {
        MoraleBand::Both
    }
}

/// NORTH-MOR-03: artillery checking after a hit by fire.
pub const MORALE_ARTILLERY_FIRE: i16 = -1;
/// NORTH-MOR-03: artillery checking after a melee hit.
pub const MORALE_ARTILLERY_MELEE: i16 = 1;
/// NORTH-MOR-03: a unit behind cover checking after a hit by fire.
pub const MORALE_COVER_FROM_FIRE: i16 = -1;
/// NORTH-MOR-03 / NORTH-MEL-09: skirmishers checking after a melee hit.
pub const MORALE_SKIRMISHERS_MELEE: i16 = 2;

/// NORTH-MOR-07 / NORTH-MOV-22: how far a unit falls back: 15" for mounted cavalry, 10" for everything else
/// (dismounted cavalry fall back as infantry).
#[must_use]
pub const fn fall_back_distance(troop: Troop) -> Inches {
    match troop {
        Troop::MountedCavalry => Inches(15.0),
        _ => Inches(10.0),
    }
}

/// NORTH-CAS-02: an infantry or cavalry unit stays in play with at least this many stands.
pub const MIN_STANDS_IN_PLAY: u8 = 3;

/// NORTH-CAS-02 / NORTH-CAS-03: stand losses that remove a fresh unit of this arm and quality (elite 3,
/// standard 2, poor 1, for every arm).
#[must_use]
pub const fn losses_to_removal(arm: Arm, quality: Quality) -> u8 {
    let start = starting_stands(arm, quality);
    match arm {
        Arm::Artillery => start,
        Arm::Infantry | Arm::Cavalry => start - MIN_STANDS_IN_PLAY + 1,
    }
}

/// NORTH-SET-03: fewest units an army may field.
pub const ARMY_MIN_UNITS: usize = 10;
/// NORTH-SET-03: most units an army may field.
pub const ARMY_MAX_UNITS: usize = 20;
/// NORTH-SET-04: fewest units in a brigade.
pub const BRIGADE_MIN_UNITS: usize = 2;
/// NORTH-SET-04: most units in a brigade.
pub const BRIGADE_MAX_UNITS: usize = 5;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn north_set_02_starting_stands_table() {
        // NORTH-SET-02
        assert_eq!(starting_stands(Arm::Infantry, Quality::Elite), 5);
        assert_eq!(starting_stands(Arm::Cavalry, Quality::Poor), 3);
        assert_eq!(starting_stands(Arm::Artillery, Quality::Elite), 3);
        assert_eq!(
            crew_figures(starting_stands(Arm::Artillery, Quality::Poor)),
            2
        );
        assert_eq!(dismounted_form(5), Some((4, 1)));
        assert_eq!(dismounted_form(0), None);
    }

    #[test]
    fn north_cbt_11_hit_faces() {
        // NORTH-CBT-11
        assert_eq!(hit_face_needed(0), Some(5));
        assert_eq!(hit_face_needed(-1), Some(6));
        assert_eq!(hit_face_needed(-2), None);
        assert_eq!(hit_face_needed(4), Some(1));
        assert_eq!(hit_face_needed(9), Some(1));
        assert_eq!(hit_sixths(-5), 0);
        assert_eq!(hit_sixths(7), 6);
    }
}
