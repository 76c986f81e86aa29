//! Night and day, wind and smoke, visibility (D8-ENV-*), and the game's length.

use crate::options::Options;
use acw_core::{Dice, Die, Dist, Resolve};
use std::fmt;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// The season (D8-ENV-02).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum Season {
    /// Spring or autumn: night falls at 19:00.
    SpringOrAutumn,
    /// Summer: night falls at 20:00.
    Summer,
}

impl Season {
    /// D8-ENV-04: the hour night falls.
    #[must_use]
    pub const fn nightfall(self) -> u8 {
        match self {
            Season::SpringOrAutumn => 19,
            Season::Summer => 20,
        }
    }

    /// D8-ENV-02: the season a D6 gives: 1–2 spring or autumn, 3–6 summer.
    #[must_use]
    pub const fn from_d6(face: u16) -> Season {
        if face <= 2 {
            Season::SpringOrAutumn
        } else {
            Season::Summer
        }
    }
}

impl fmt::Display for Season {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Season::SpringOrAutumn => "spring or autumn",
            Season::Summer => "summer",
        })
    }
}

/// D8-ENV-03: the start hour: 4D6, re-rolled on 6 or less and on 17 or more, so 7 to 16.
#[must_use]
pub fn start_hour_accepted(total: u16) -> bool {
    (7..=16).contains(&total)
}

fn start_accepted_hour(h: u8) -> bool {
    start_hour_accepted(u16::from(h))
}

/// D8-ENV-04: each player's turns: 4 a daylight hour left (nightfall less the start hour).
#[must_use]
pub fn turns_per_player(season: Season, start_hour: u8) -> u32 {
    4 * u32::from(season.nightfall().saturating_sub(start_hour))
}

/// The day the night/day roll gives (D8-ENV-02 to D8-ENV-04).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "DayRepr"))]
pub struct Day {
    /// The season.
    pub season: Season,
    /// The start hour, 7 to 16.
    pub start_hour: u8,
}

/// A [`Day`] as loaded, before its check.
#[cfg(feature = "serde")]
#[derive(Deserialize)]
struct DayRepr {
    season: Season,
    start_hour: u8,
}

#[cfg(feature = "serde")]
impl TryFrom<DayRepr> for Day {
    type Error = crate::error::D8Error;
    fn try_from(r: DayRepr) -> Result<Day, Self::Error> {
        Day::new(r.season, r.start_hour)
    }
}

impl Day {
    /// A day starting at `start_hour`, which the 4D6 roll keeps between 7 and 16 (D8-ENV-03).
    pub fn new(season: Season, start_hour: u8) -> Result<Day, crate::error::D8Error> {
        if start_accepted_hour(start_hour) {
            Ok(Day { season, start_hour })
        } else {
            Err(crate::error::D8Error::range(
                "the start hour",
                start_hour,
                7,
                16,
            ))
        }
    }

    /// D8-ENV-04: each player's turns before nightfall.
    #[must_use]
    pub fn turns_per_player(&self) -> u32 {
        turns_per_player(self.season, self.start_hour)
    }
}

impl fmt::Display for Day {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}, starting at {}:00, night at {}:00: {} turns a player",
            self.season,
            self.start_hour,
            self.season.nightfall(),
            self.turns_per_player()
        )
    }
}

/// D8-ENV-02, D8-ENV-03: the night/day roll by the roll-off's winner: a D6 for the season (1–2 spring or autumn,
/// 3–6 summer), then 4D6 for the start hour, re-rolled outside 7–16 (the roll-off itself is
/// [`crate::army::RollOff`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct NightDay;

fn four_d6<D: Dice + ?Sized>(dice: &mut D) -> u16 {
    (0..4).map(|_| Die::D6.roll(dice)).sum()
}

impl Resolve for NightDay {
    type Outcome = Day;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> Day {
        let season = Season::from_d6(Die::D6.roll(dice));
        let mut total = four_d6(dice);
        let mut n = 1;
        while !start_hour_accepted(total)
            && n < crate::dice_util::MAX_REROLLS
            && dice.fault().is_none()
        {
            total = four_d6(dice);
            n += 1;
        }
        Day {
            season,
            start_hour: total.clamp(7, 16) as u8,
        }
    }

    fn odds(&self) -> Dist<Day> {
        let hours = Dist::die(Die::D6)
            .sum_n(4)
            .given(|&t| start_hour_accepted(t as u16))
            .unwrap_or_else(|| Dist::certain(12));
        Dist::die(Die::D6)
            .map(|&f| Season::from_d6(f as u16))
            .zip_with(&hours, |&season, &h| Day {
                season,
                start_hour: h as u8,
            })
    }
}

/// The exact odds of the game's length in turns a player (D8-ENV-04): the night/day roll mapped to turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct GameLength;

impl Resolve for GameLength {
    type Outcome = u32;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> u32 {
        NightDay.roll(dice).turns_per_player()
    }

    fn odds(&self) -> Dist<u32> {
        NightDay.odds().map(Day::turns_per_player)
    }
}

/// D8-ENV-05: the wind: a D6, 1 no wind (1/6), 2–6 wind that blows smoke away. The outcome: wind blows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Wind;

impl Resolve for Wind {
    type Outcome = bool;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> bool {
        Die::D6.roll(dice) != 1
    }

    fn odds(&self) -> Dist<bool> {
        Dist::die(Die::D6).map(|&f| f != 1)
    }
}

/// A unit's smoke (D8-ENV-06): how many moves running it has fired from one spot, and how long its smoke has
/// to clear.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Smoke {
    /// Consecutive moves fired from this position.
    pub fired_here: u8,
    /// Moves until the smoke in front clears (0: none).
    pub clearing: u8,
}

impl Smoke {
    /// D8-ENV-06: whether smoke stops the unit firing: it may fire 2 moves running from one spot, not a third, and
    /// not while its smoke clears (2 moves). Only with no wind, unless the option says always.
    #[must_use]
    pub fn blocks(&self, wind: bool, options: &Options) -> bool {
        (options.smoke_whatever_wind || !wind) && (self.fired_here >= 2 || self.clearing > 0)
    }

    /// D8-ENV-06: the unit fired from its position this move.
    pub fn fired(&mut self) {
        self.fired_here = self.fired_here.saturating_add(1);
    }

    /// D8-ENV-06: the start of the unit's move: smoke laid after 2 moves of fire begins to clear; clearing smoke
    /// counts down and, once clear, the count starts again.
    pub fn new_move(&mut self, fired_last_move: bool) {
        if self.clearing > 0 {
            self.clearing -= 1;
            if self.clearing == 0 {
                self.fired_here = 0;
            }
        } else if self.fired_here >= 2 {
            self.clearing = 2;
        } else if !fired_last_move {
            self.fired_here = 0;
        }
    }

    /// D8-ENV-06: the unit moved to a new position: the count starts again (smoke already laid stays to clear).
    pub fn moved(&mut self) {
        if self.clearing == 0 {
            self.fired_here = 0;
        }
    }
}

/// D8-ENV-01: line of sight is mutual: a caller's sight check from `a` to `b` is used for `b` to `a` too. Woods,
/// buildings, hills and smoke block it; troops inside a wood see and are seen only at its edge. The caller gives
/// what lies between and whether either party stands at a wood's edge.
#[must_use]
pub fn sight(
    blockers_between: bool,
    a_inside_wood_not_edge: bool,
    b_inside_wood_not_edge: bool,
) -> bool {
    !blockers_between && !a_inside_wood_not_edge && !b_inside_wood_not_edge
}
