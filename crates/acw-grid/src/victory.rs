//! Victory: the scenario decides (GRID-VIC-01); the battle exposes what it needs — losses, who holds each
//! area, the turn.

use crate::board::Area;
use crate::state::{Battle, Losses};
use acw_core::{BySide, Side};

/// What a scenario's victory conditions read (GRID-VIC-01).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct VictoryReport {
    /// The turn number.
    pub turn: u32,
    /// Whether the scenario's game length has run out (GRID-SEQ-09).
    pub over: bool,
    /// Each side's losses (GRID-CAS-08).
    pub losses: BySide<Losses>,
    /// Stands each side still has on the table.
    pub stands: BySide<u32>,
    /// Every occupied area with the side holding it.
    pub held: Vec<(Area, Side)>,
}

impl Battle {
    /// GRID-VIC-01: the side whose stands occupy `area`, if any.
    #[must_use]
    pub fn holder(&self, area: Area) -> Option<Side> {
        self.units_at(area).next().map(|u| u.side())
    }

    /// GRID-VIC-01: how many of `objectives` `side` holds.
    #[must_use]
    pub fn objectives_held(&self, side: Side, objectives: &[Area]) -> usize {
        objectives
            .iter()
            .filter(|a| self.holder(**a) == Some(side))
            .count()
    }

    /// GRID-VIC-01, GRID-CAS-08: everything a scenario's victory conditions need.
    #[must_use]
    pub fn victory_report(&self) -> VictoryReport {
        let mut stands = BySide::new(0, 0);
        let mut held: Vec<(Area, Side)> = Vec::new();
        for u in self.units() {
            *stands.get_mut(u.side()) += u.stand_count();
            if !held.iter().any(|(a, _)| *a == u.area()) {
                held.push((u.area(), u.side()));
            }
        }
        held.sort();
        VictoryReport {
            turn: self.turn(),
            over: self.game_over(),
            losses: BySide::new(self.losses(Side::Union), self.losses(Side::Confederate)),
            stands,
            held,
        }
    }
}
