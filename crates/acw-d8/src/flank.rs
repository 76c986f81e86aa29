//! Optional rules: flank marches, bigger battles, extra officers, Indians (D8-OPT-*).

use crate::error::D8Error;
use crate::map::Square;
use crate::options::Options;
use acw_core::{Dice, Die, Dist, Resolve, Side};

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// A table edge a flank march comes in by (D8-OPT-01).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum Flank {
    /// The west edge.
    West,
    /// The east edge.
    East,
}

impl std::fmt::Display for Flank {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Flank::West => "west",
            Flank::East => "east",
        })
    }
}

/// A side's secret flank march, declared at deployment (D8-OPT-01).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "FlankMarchRepr"))]
pub struct FlankMarch {
    /// The side marching.
    pub side: Side,
    /// The edge.
    pub flank: Flank,
    /// How many units march (1 or 2).
    pub units: u8,
}

/// A [`FlankMarch`] as loaded, before its check (the count of units; whether flank marches are in play is the
/// game's options, not the declaration's).
#[cfg(feature = "serde")]
#[derive(Deserialize)]
struct FlankMarchRepr {
    side: Side,
    flank: Flank,
    units: u8,
}

#[cfg(feature = "serde")]
impl TryFrom<FlankMarchRepr> for FlankMarch {
    type Error = D8Error;
    fn try_from(r: FlankMarchRepr) -> Result<FlankMarch, D8Error> {
        let on = Options {
            flank_marches: true,
            ..Options::default()
        };
        FlankMarch::new(r.side, r.flank, r.units, &on)
    }
}

impl FlankMarch {
    /// D8-OPT-01: up to 2 units, all by one flank; flank marches must be switched on in the options.
    pub fn new(
        side: Side,
        flank: Flank,
        units: u8,
        options: &Options,
    ) -> Result<FlankMarch, D8Error> {
        if !options.flank_marches {
            return Err(D8Error::BadArmy(
                "flank marches are not in play in this game".into(),
            ));
        }
        if !(1..=2).contains(&units) {
            return Err(D8Error::range("flank-marching units", units, 1, 2));
        }
        Ok(FlankMarch { side, flank, units })
    }
}

/// D8-OPT-04: both sides marching by the same edge cancel each other: both forces take no further part.
#[must_use]
pub fn cancelled(a: &FlankMarch, b: &FlankMarch) -> bool {
    a.side != b.side && a.flank == b.flank
}

/// D8-OPT-02: the grid square of flank square `k` (1 to 5), counted along the flank's edge column from the side's
/// own base line (or south to north for both under the option).
pub fn flank_square(side: Side, flank: Flank, k: u8, options: &Options) -> Result<Square, D8Error> {
    if !(1..=5).contains(&k) {
        return Err(D8Error::range("a flank square", k, 1, 5));
    }
    let col = match flank {
        Flank::West => 0,
        Flank::East => 5,
    };
    let from_north = side == Side::Union && !options.flank_numbering_south_to_north;
    let row = if from_north {
        i32::from(k) - 1
    } else {
        5 - i32::from(k)
    };
    Square::at_cell(col, row).ok_or(D8Error::range("a flank square", k, 1, 5))
}

/// When and where a flank march arrives (D8-OPT-03).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "ArrivalRepr"))]
pub struct Arrival {
    /// The move it arrives on, 1 to 20 (its side's own turns).
    pub on_move: u8,
    /// The flank square, 1 to 5.
    pub square: u8,
}

/// An [`Arrival`] as loaded, before its check.
#[cfg(feature = "serde")]
#[derive(Deserialize)]
struct ArrivalRepr {
    on_move: u8,
    square: u8,
}

#[cfg(feature = "serde")]
impl TryFrom<ArrivalRepr> for Arrival {
    type Error = D8Error;
    fn try_from(r: ArrivalRepr) -> Result<Arrival, D8Error> {
        let a = Arrival::on_move(r.on_move)?;
        if a.square != r.square {
            return Err(D8Error::range(
                "the flank square of that move",
                r.square,
                i64::from(a.square),
                i64::from(a.square),
            ));
        }
        Ok(a)
    }
}

impl Arrival {
    /// D8-OPT-03: the arrival on move `on_move` (1 to 20), by the flank square its band gives.
    pub fn on_move(on_move: u8) -> Result<Arrival, D8Error> {
        if (1..=20).contains(&on_move) {
            Ok(FlankArrival::arrival(u16::from(on_move)))
        } else {
            Err(D8Error::range("the arrival move", on_move, 1, 20))
        }
    }
}

/// D8-OPT-03: a D20 per flank-marching unit (or per group under the option): the score is the move it arrives on,
/// and 1–4, 5–8, 9–12, 13–16, 17–20 give flank squares 1 to 5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct FlankArrival;

impl FlankArrival {
    fn arrival(face: u16) -> Arrival {
        Arrival {
            on_move: face as u8,
            square: (face.saturating_sub(1) / 4 + 1) as u8,
        }
    }
}

impl Resolve for FlankArrival {
    type Outcome = Arrival;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> Arrival {
        Self::arrival(Die::D20.roll(dice))
    }

    fn odds(&self) -> Dist<Arrival> {
        Dist::die(Die::D20).map(|&f| Self::arrival(f as u16))
    }
}

/// D8-OPT-02, D8-OPT-03: the arrivals of a flank force, each with the grid square it enters by: a D20 per unit, or
/// one for the whole group under the option (every unit then arrives together).
pub fn arrivals<D: Dice + ?Sized>(
    march: &FlankMarch,
    dice: &mut D,
    options: &Options,
) -> Result<Vec<(Arrival, Square)>, D8Error> {
    let mut out: Vec<(Arrival, Square)> = Vec::with_capacity(usize::from(march.units));
    for i in 0..march.units {
        let a = match out.first() {
            Some(&(first, _)) if options.flank_roll_per_group && i > 0 => first,
            _ => FlankArrival.roll(dice),
        };
        out.push((a, flank_square(march.side, march.flank, a.square, options)?));
    }
    crate::dice_util::check(dice)?;
    Ok(out)
}

/// D8-OPT-05: a bigger table: `multiple` times as wide (2 for the doubled 360 × 150 cm game), with the grid
/// growing to match: columns of 30 cm squares.
pub fn big_table_columns(multiple: u8) -> Result<u32, D8Error> {
    if !(1..=4).contains(&multiple) {
        return Err(D8Error::range("the table's width multiple", multiple, 1, 4));
    }
    Ok(6 * u32::from(multiple))
}

/// D8-OPT-06: whether an officer beyond those the force needs counts for influence and VP (only if agreed).
#[must_use]
pub fn extra_officer_counts(options: &Options) -> bool {
    options.extra_officers_count
}
