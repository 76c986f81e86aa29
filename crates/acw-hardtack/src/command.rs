//! Command: communication rolls, regimental formations and their shape, the regimental combat move, and the
//! choice of a fallen colonel's successor.

use crate::ladder::DieType;
use crate::tables::{ConfidenceLevel, Leadership, Quality};
use acw_core::{Dice, Dist, Resolve};
use std::fmt;

/// The distance within which a commander transfers actions, rallies, and activates a regiment's companies
/// (HT-CMD-01, HT-CMD-06, HT-SEQ-03): 6 inches, with no communication roll.
pub const COMMAND_RANGE: f64 = 6.0;

/// A Stargrunt II communication roll (HT-SG2-50), kept for Signal Stations (HT-OPT-25): the sender's quality
/// die, one type lower per command level skipped, must beat the worse of the two LVs.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CommunicationRoll {
    /// The sender's quality die.
    pub quality: DieType,
    /// The sender's leadership.
    pub sender: Leadership,
    /// The receiver's leadership.
    pub receiver: Leadership,
    /// Command levels skipped.
    pub skipped: u8,
}

impl CommunicationRoll {
    /// The die rolled.
    pub const fn die(&self) -> DieType {
        self.quality.shift_closed(-(self.skipped as i16))
    }

    /// The number to beat: the worse (higher) LV.
    #[must_use]
    pub const fn number(&self) -> i16 {
        let (a, b) = (self.sender.value(), self.receiver.value());
        if a > b { a } else { b }
    }
}

impl Resolve for CommunicationRoll {
    type Outcome = bool;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> bool {
        dice.face(self.die().die()) as i16 > self.number()
    }
    fn odds(&self) -> Dist<bool> {
        let n = self.number();
        Dist::die(self.die().die()).map(|&f| f as i16 > n)
    }
}

/// What a company in a regimental formation is (HT-FRM-07).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Branch {
    /// Infantry.
    Infantry,
    /// Dismounted cavalry.
    Dismounted,
    /// Mounted cavalry.
    Mounted,
}

/// Why companies cannot form a regimental formation (HT-FRM-07).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FormationBar {
    /// Fewer than two companies.
    TooFew,
    /// A company in skirmish order.
    NotClose,
    /// A company Broken or Routed.
    Broken,
    /// A company's centre more than 6" from the colonel.
    TooFar,
    /// Mounted cavalry mixed with foot.
    Mixed,
}

impl fmt::Display for FormationBar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FormationBar::TooFew => "a regimental formation needs two or more companies",
            FormationBar::NotClose => "every company must be in line or column",
            FormationBar::Broken => "no company may be Broken or Routed",
            FormationBar::TooFar => "every company's centre must be within 6 inches of the colonel",
            FormationBar::Mixed => {
                "mounted cavalry cannot form with infantry or dismounted cavalry"
            }
        })
    }
}

/// One company's facts for a regimental formation.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Member {
    /// In line or column.
    pub close: bool,
    /// Its level.
    pub cl: ConfidenceLevel,
    /// Distance from its centre to the colonel, inches.
    pub distance: f64,
    /// Its branch.
    pub branch: Branch,
}

/// Whether companies form a regimental formation (HT-FRM-07): two or more, each in close formation, not
/// Broken or Routed, within 6" of the colonel, and all foot (infantry and dismounted cavalry) or all mounted.
pub fn regimental_formation(members: &[Member]) -> Result<(), FormationBar> {
    if members.len() < 2 {
        return Err(FormationBar::TooFew);
    }
    if members.iter().any(|m| !m.close) {
        return Err(FormationBar::NotClose);
    }
    if members.iter().any(|m| m.cl >= ConfidenceLevel::Broken) {
        return Err(FormationBar::Broken);
    }
    if members
        .iter()
        .any(|m| !(m.distance.is_finite() && m.distance >= 0.0 && m.distance <= COMMAND_RANGE))
    {
        return Err(FormationBar::TooFar);
    }
    let mounted = members
        .iter()
        .filter(|m| m.branch == Branch::Mounted)
        .count();
    if mounted != 0 && mounted != members.len() {
        return Err(FormationBar::Mixed);
    }
    Ok(())
}

/// A regimental formation's shape (HT-FRM-08): a line if it has more figures per row than rows and at most
/// four rows; otherwise a column. Its companies move by this shape, not their own.
#[must_use]
pub const fn formation_is_line(rows: u32, per_row: u32) -> bool {
    per_row > rows && rows <= 4
}

/// The combat move of a regimental formation (HT-MOV-11, HT-CMD-03): each company rolls its own mobility die
/// (D6, D4 in a line) and moves twice the roll; the colonel takes any one company's distance. Outcome: the
/// distances rolled, in company order (allocation-free up to 16 companies).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RegimentalCombatMove {
    /// The companies moving (1 to 16).
    pub companies: u8,
    /// The mobility die.
    pub die: DieType,
}

impl Resolve for RegimentalCombatMove {
    type Outcome = [u8; 16];
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> [u8; 16] {
        let mut out = [0u8; 16];
        for slot in out.iter_mut().take(usize::from(self.companies.min(16))) {
            *slot = (2 * dice.face(self.die.die())) as u8;
        }
        out
    }
    fn odds(&self) -> Dist<[u8; 16]> {
        let mut acc = Dist::certain([0u8; 16]);
        for i in 0..usize::from(self.companies.min(16)) {
            acc = acc.and_then(|base| {
                Dist::die(self.die.die()).map(|&f| {
                    let mut next = *base;
                    next[i] = (2 * f) as u8;
                    next
                })
            });
        }
        acc
    }
}

/// Choosing a fallen colonel's successor (HT-CMD-05): among the formation's companies that are Confident,
/// Steady or Shaken, the best quality; ties (or, if every company is Broken or Routed, all of them) broken
/// uniformly. Outcome: the index of the chosen company.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Successor<'a> {
    /// Each company's quality and level, in formation order.
    pub companies: &'a [(Quality, ConfidenceLevel)],
}

impl Successor<'_> {
    fn eligible(&self) -> impl Iterator<Item = usize> + '_ {
        let any_steady = self
            .companies
            .iter()
            .any(|c| c.1 <= ConfidenceLevel::Shaken);
        let best = self
            .companies
            .iter()
            .filter(|c| !any_steady || c.1 <= ConfidenceLevel::Shaken)
            .map(|c| c.0)
            .max();
        self.companies
            .iter()
            .enumerate()
            .filter(move |(_, c)| {
                (!any_steady || c.1 <= ConfidenceLevel::Shaken) && Some(c.0) == best
            })
            .map(|(i, _)| i)
    }
}

impl Resolve for Successor<'_> {
    type Outcome = usize;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> usize {
        let n = self.eligible().count();
        if n == 0 {
            return 0;
        }
        let k = if n == 1 { 0 } else { dice.index(n) };
        self.eligible().nth(k).unwrap_or(0)
    }
    fn odds(&self) -> Dist<usize> {
        Dist::uniform(self.eligible()).unwrap_or_else(|_| Dist::certain(0))
    }
}
