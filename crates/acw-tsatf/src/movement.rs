//! Movement: D6 by the table, "drop the highest die" penalties, the leaderless die, horseholders, formation
//! changes, roads, flights and routs, carrying wounded, cavalry split dice.

use crate::error::RuleViolation;
use crate::options::{
    Hd6Stacking, Options, RoadB, RoadPartial, RoughPenalty, Rounding, SkirmishCharge,
};
use crate::tables::{MoveMode, MoveRow, Quality};
use acw_core::dice::Pool;
use acw_core::{Dice, Die, Dist, Resolve};

/// A movement roll: `dice` D6 with the `drops` highest dropped, summed in inches (TSATF-MOV-01,
/// TSATF-MOV-06, TSATF-MOV-07). Penalties that would drop every die leave a move of 0".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[must_use]
pub struct MoveDice {
    /// D6 rolled.
    pub dice: u8,
    /// Highest dice dropped.
    pub drops: u8,
}

impl MoveDice {
    /// Dice kept.
    #[must_use]
    pub const fn kept(self) -> u8 {
        self.dice.saturating_sub(self.drops)
    }

    fn pool(self) -> Option<Pool> {
        let kept = self.kept();
        if kept == 0 {
            return None;
        }
        let pool = Pool::new(u32::from(self.dice), Die::D6).ok()?;
        if self.drops == 0 {
            Some(pool)
        } else {
            pool.keep_lowest(u32::from(kept)).ok()
        }
    }
}

impl Resolve for MoveDice {
    type Outcome = u32;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> u32 {
        match self.pool() {
            Some(p) => p.total(dice),
            None => {
                // every die is dropped: the dice are still thrown at the table, the move is 0"
                for _ in 0..self.dice {
                    dice.face(Die::D6);
                }
                0
            }
        }
    }
    fn odds(&self) -> Dist<u32> {
        self.pool().map_or_else(|| Dist::certain(0), Dist::pool)
    }
}

/// What a move crosses or does, as measured at the table (TSATF-MOV-06, TSATF-MOV-07, TSATF-MOV-08,
/// TSATF-MEL-27).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoveFacts {
    /// Separate rough features the path enters or crosses (0: none).
    pub rough_features: u8,
    /// Cavalry mounting or dismounting in this move.
    pub mount_change: bool,
    /// Artillery limbering or unlimbering in this move.
    pub limber_change: bool,
    /// Attackers moving onto a protected position whose defenders fled.
    pub onto_position: bool,
}

/// The dice a move rolls (TSATF-MOV-01 to TSATF-MOV-08, TSATF-MOV-16): the table's column for the row, the road
/// reading, and one dropped die for rough ground (once, or once per feature), each mount/limber change and a
/// move onto a position, added up or capped at one. Refused for a column the row does not have.
pub fn move_dice(
    row: MoveRow,
    mode: MoveMode,
    facts: MoveFacts,
    indians: bool,
    options: &Options,
) -> Result<MoveDice, RuleViolation> {
    let refused = Err(RuleViolation::NoRate { row, mode });
    let dice = match mode {
        MoveMode::Charge => match row.dice(MoveMode::Charge) {
            Some(n) => n,
            None if row == MoveRow::InfantrySkirmish
                && (options.skirmish_charge == SkirmishCharge::AtCrossCountry || indians) =>
            {
                4
            }
            None => return refused,
        },
        MoveMode::RoadB => match options.road_b {
            RoadB::Ignore => return refused,
            RoadB::ForcedMarch => match row.dice(MoveMode::RoadB) {
                Some(n) => n,
                None => return refused,
            },
            RoadB::Turnpike => match row.dice(MoveMode::RoadB).or(row.dice(MoveMode::Road)) {
                Some(n) => n,
                None => row.dice(MoveMode::CrossCountry).unwrap_or(0),
            },
        },
        // a "–" on the road is the cross-country rate (TSATF-MOV-03)
        MoveMode::Road => row
            .dice(MoveMode::Road)
            .or(row.dice(MoveMode::CrossCountry))
            .unwrap_or(0),
        MoveMode::CrossCountry => row.dice(MoveMode::CrossCountry).unwrap_or(0),
    };
    let rough_applies = row.rough_penalty() || options.skirmish_rough_penalty;
    let rough = if !rough_applies || facts.rough_features == 0 {
        0
    } else if options.rough_penalty == RoughPenalty::OncePerFeature {
        facts.rough_features
    } else {
        1
    };
    let mut drops = rough
        .saturating_add(u8::from(facts.mount_change))
        .saturating_add(u8::from(facts.limber_change))
        .saturating_add(u8::from(facts.onto_position));
    if options.hd6_stacking == Hd6Stacking::AtMostOne {
        drops = drops.min(1);
    }
    Ok(MoveDice { dice, drops })
}

/// The leaderless die (TSATF-CMD-02): a leaderless unit rolls 1D6 before it moves; the outcome is `true` when
/// the face is one of its class's listed numbers and the unit may not move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[must_use]
pub struct LeaderlessDie {
    /// The unit's class.
    pub quality: Quality,
}

impl Resolve for LeaderlessDie {
    type Outcome = bool;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> bool {
        dice.face(Die::D6) >= self.quality.leaderless_stop_from()
    }
    fn odds(&self) -> Dist<bool> {
        let stop = self.quality.leaderless_stop_from();
        Dist::die(Die::D6).map(|&f| f >= u32::from(stop))
    }
}

/// A 4D6 flight or rout in inches: failing to stand, losing a melee, routing (TSATF-MOV-13, TSATF-MEL-22,
/// TSATF-MOR-08).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[must_use]
pub struct Flight;

impl Resolve for Flight {
    type Outcome = u32;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> u32 {
        (0..4).map(|_| u32::from(dice.face(Die::D6))).sum()
    }
    fn odds(&self) -> Dist<u32> {
        Dist::die(Die::D6).sum_n(4)
    }
}

/// Horseholders left behind when `troopers` dismount: one in four, rounded up by default (TSATF-MOV-09).
#[must_use]
pub fn horseholders(troopers: u16, options: &Options) -> u16 {
    match options.horseholder_rounding {
        Rounding::Ceil => troopers.div_ceil(4),
        Rounding::Floor => troopers / 4,
    }
}

/// A formation or facing change (TSATF-MOV-11): it costs the distance the furthest-moving figure travels, out of
/// the inches left this activation. Returns the inches left after it, or refuses a change longer than the move
/// (unless [`Options::formation_change_carry`], when the change carries over and 0" is left).
pub fn formation_change(
    furthest_figure: f64,
    inches_left: f64,
    options: &Options,
) -> Result<f64, RuleViolation> {
    length("the furthest figure's distance", furthest_figure)?;
    length("the movement left", inches_left)?;
    if furthest_figure <= inches_left {
        Ok(inches_left - furthest_figure)
    } else if options.formation_change_carry {
        Ok(0.0)
    } else {
        Err(RuleViolation::ChangeTooLong {
            needed: furthest_figure,
            allowed: inches_left,
        })
    }
}

/// Whether a move may use a road rate (TSATF-MOV-04). By default only a move wholly on the road may; under
/// [`RoadPartial::ProRata`] the road allowance is given, and `off_road` inches cost `road / cross` as much
/// each: returns the road inches a planned move of `on_road` + `off_road` uses.
pub fn road_cost(
    row: MoveRow,
    on_road: f64,
    off_road: f64,
    options: &Options,
) -> Result<f64, RuleViolation> {
    length("distance on the road", on_road)?;
    length("distance off the road", off_road)?;
    if off_road > 0.0 && options.road_partial == RoadPartial::WholeMoveOnRoad {
        return Err(RuleViolation::NoRate {
            row,
            mode: MoveMode::Road,
        });
    }
    let cross = f64::from(row.dice(MoveMode::CrossCountry).unwrap_or(1));
    let road = f64::from(row.dice(MoveMode::Road).unwrap_or(1).max(1));
    Ok(on_road + off_road * road / cross)
}

/// Troops carrying wounded move half their rolled distance, rounded down to the quarter inch (TSATF-MOV-15).
#[must_use]
pub fn carrying_wounded(rolled: f64) -> f64 {
    if rolled.is_finite() && rolled > 0.0 {
        (rolled / 2.0 * 4.0).floor() / 4.0
    } else {
        0.0
    }
}

pub(crate) fn length(what: &'static str, value: f64) -> Result<f64, RuleViolation> {
    if value.is_finite() && value >= 0.0 {
        Ok(value)
    } else {
        Err(RuleViolation::BadLength { what, value })
    }
}

/// A cavalry unit's movement dice kept as separate faces, spent one at a time (TSATF-MOV-17, TSATF-OPT-13):
/// each action costs one die; mounting or dismounting costs the highest die left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[must_use]
pub struct SplitMove {
    faces: [u16; 8],
    left: u8,
}

impl SplitMove {
    /// Rolls `dice` (at most 8) D6 and keeps them, highest first.
    pub fn roll<D: Dice + ?Sized>(dice_count: u8, dice: &mut D) -> SplitMove {
        let n = dice_count.min(8);
        let mut faces = [0u16; 8];
        for f in faces.iter_mut().take(usize::from(n)) {
            *f = dice.face(Die::D6);
        }
        faces[..usize::from(n)].sort_unstable_by(|a, b| b.cmp(a));
        SplitMove { faces, left: n }
    }

    /// Dice already rolled and not yet spent, as kept in a saved game: at most 8 faces of 1 to 6 (`None`
    /// otherwise); they are kept highest first.
    #[must_use]
    pub fn from_faces(faces: &[u16]) -> Option<SplitMove> {
        if faces.len() > 8 || faces.iter().any(|f| !(1..=6).contains(f)) {
            return None;
        }
        let mut kept = [0u16; 8];
        kept[..faces.len()].copy_from_slice(faces);
        kept[..faces.len()].sort_unstable_by(|a, b| b.cmp(a));
        Some(SplitMove {
            faces: kept,
            left: faces.len() as u8,
        })
    }

    /// The faces not yet spent, highest first.
    #[must_use]
    pub fn faces(&self) -> &[u16] {
        &self.faces[..usize::from(self.left)]
    }

    /// Spends the die at `index` of [`SplitMove::faces`] on a move of that many inches.
    pub fn spend_move(&mut self, index: usize) -> Option<u16> {
        if index >= usize::from(self.left) {
            return None;
        }
        let f = self.faces[index];
        self.faces
            .copy_within(index + 1..usize::from(self.left), index);
        self.left -= 1;
        Some(f)
    }

    /// Spends the highest die left on a mount or dismount (the −HD6 of TSATF-MOV-08); `None` when no die is left.
    pub fn spend_mount_change(&mut self) -> Option<u16> {
        self.spend_move(0)
    }

    /// Spends the lowest die left on firing within the move; `None` when no die is left.
    pub fn spend_fire(&mut self) -> Option<u16> {
        let last = usize::from(self.left).checked_sub(1)?;
        self.spend_move(last)
    }
}

/// Which rule-set die counts apply to special movers (TSATF-OPT-08, TSATF-OPT-10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum VehicleMove {
    /// A gunboat going forward (downstream or in slack water): 3D6.
    #[strum(to_string = "a gunboat going forward")]
    GunboatForward,
    /// A gunboat reversing or going against the current: 2D6.
    #[strum(to_string = "a gunboat reversing or against the current")]
    GunboatAgainstCurrent,
    /// A train starting or stopping: 2D6.
    #[strum(to_string = "a train starting or stopping")]
    TrainStartOrStop,
    /// A train at full speed: 4D6.
    #[strum(to_string = "a train at full speed")]
    TrainFullSpeed,
}

impl VehicleMove {
    /// The dice of the move.
    #[must_use]
    pub const fn dice(self) -> u8 {
        match self {
            VehicleMove::GunboatForward => 3,
            VehicleMove::GunboatAgainstCurrent | VehicleMove::TrainStartOrStop => 2,
            VehicleMove::TrainFullSpeed => 4,
        }
    }
}

impl Resolve for VehicleMove {
    type Outcome = u32;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> u32 {
        (0..self.dice())
            .map(|_| u32::from(dice.face(Die::D6)))
            .sum()
    }
    fn odds(&self) -> Dist<u32> {
        Dist::die(Die::D6).sum_n(u32::from(self.dice()))
    }
}

/// A train's running state (TSATF-OPT-10): stopped, then a 2D6 start, 4D6 at speed, a 2D6 stop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum TrainState {
    /// Standing.
    #[default]
    Stopped,
    /// Running.
    Moving,
}

/// What a train does on its activation (TSATF-OPT-10, TSATF-CAS-07): a stopped train with crew may start (2D6),
/// a moving one runs (4D6) or stops (2D6). A train with no crew cannot start, and a moving one must stop.
/// Returns the move to roll and the state after it.
pub fn train_step(
    state: TrainState,
    want_moving: bool,
    has_crew: bool,
) -> Result<(VehicleMove, TrainState), RuleViolation> {
    match (state, want_moving && has_crew) {
        (TrainState::Stopped, true) => Ok((VehicleMove::TrainStartOrStop, TrainState::Moving)),
        (TrainState::Stopped, false) => Err(RuleViolation::Cannot {
            unit: "the train".into(),
            action: if has_crew {
                "move while it stays stopped"
            } else {
                "start without crew"
            },
        }),
        (TrainState::Moving, true) => Ok((VehicleMove::TrainFullSpeed, TrainState::Moving)),
        (TrainState::Moving, false) => Ok((VehicleMove::TrainStartOrStop, TrainState::Stopped)),
    }
}
