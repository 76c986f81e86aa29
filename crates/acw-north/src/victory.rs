//! The end of the game and its result (NORTH-VIC-01, NORTH-VIC-02, NORTH-SEQ-09).

use crate::error::RuleViolation;
use crate::state::{Battle, GeneralStatus, GunState};
use acw_core::{BySide, Side};

/// What the engine can report about one side (NORTH-VIC-01).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SideReport {
    /// Units still in play.
    pub units_in_play: u32,
    /// Stands of units still in play (crew stands and horse holders included).
    pub stands_in_play: u32,
    /// Stands at the start.
    pub starting_stands: u32,
    /// Units removed or gone from the table.
    pub units_out: u32,
    /// Generals killed or captured.
    pub generals_lost: u32,
    /// This side's guns standing abandoned.
    pub guns_abandoned: u32,
    /// This side's guns the enemy has captured.
    pub guns_lost_to_capture: u32,
}

impl SideReport {
    /// Stands lost: every stand of a unit out of play counts as lost (NORTH-VIC-02).
    #[must_use]
    pub const fn stands_lost(&self) -> u32 {
        self.starting_stands.saturating_sub(self.stands_in_play)
    }
}

pub use acw_core::game::{EndReason, GameResult};

/// The end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GameEnd {
    /// Who won.
    pub result: GameResult,
    /// Why it ended.
    pub reason: EndReason,
}

/// NORTH-VIC-01: an end-of-game predicate and scoring, checked at the end of every player-phase. A scenario
/// may supply its own.
pub trait EndCondition {
    /// The end of the game, if the phase just finished ends it.
    fn check(&self, battle: &Battle) -> Option<GameEnd>;
}

/// NORTH-VIC-02: the default end: a side with no units in play loses at once (both at once: a draw);
/// otherwise after the second phase of turn `turn_limit` the lower loss fraction wins, equal fractions
/// (compared exactly) draw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct StandardEnd;

impl EndCondition for StandardEnd {
    fn check(&self, battle: &Battle) -> Option<GameEnd> {
        let r = battle.reports();
        let gone = r.map(|_, s| s.units_in_play == 0);
        match (gone.union, gone.confederate) {
            (true, true) => {
                return Some(GameEnd {
                    result: GameResult::Draw,
                    reason: EndReason::Annihilation,
                });
            }
            (true, false) | (false, true) => {
                let winner = if gone.union {
                    Side::Confederate
                } else {
                    Side::Union
                };
                return Some(GameEnd {
                    result: GameResult::Winner(winner),
                    reason: EndReason::Annihilation,
                });
            }
            (false, false) => {}
        }
        let clock = battle.clock();
        let limit = battle.options().turn_limit?;
        if clock.turn() < limit || !clock.is_second_phase() {
            return None;
        }
        Some(GameEnd {
            result: compare_losses(&r),
            reason: EndReason::TurnLimit,
        })
    }
}

/// NORTH-VIC-02: compares the loss fractions exactly (lost ÷ starting stands); the lower wins.
#[must_use]
pub fn compare_losses(r: &BySide<SideReport>) -> GameResult {
    let u = u64::from(r.union.stands_lost()) * u64::from(r.confederate.starting_stands);
    let c = u64::from(r.confederate.stands_lost()) * u64::from(r.union.starting_stands);
    match u.cmp(&c) {
        std::cmp::Ordering::Less => GameResult::Winner(Side::Union),
        std::cmp::Ordering::Greater => GameResult::Winner(Side::Confederate),
        std::cmp::Ordering::Equal => GameResult::Draw,
    }
}

impl Battle {
    /// NORTH-VIC-01: what the engine reports about `side`.
    #[must_use]
    pub fn report(&self, side: Side) -> SideReport {
        let mut r = SideReport::default();
        for u in self.units.iter().filter(|u| u.side() == side) {
            r.starting_stands += u.stands().original();
            if u.in_play() {
                r.units_in_play += 1;
                r.stands_in_play += u.stands().current();
            } else {
                r.units_out += 1;
            }
            match u.gun() {
                Some(GunState::Abandoned { .. }) => r.guns_abandoned += 1,
                Some(GunState::Captured { .. }) => r.guns_lost_to_capture += 1,
                _ => {}
            }
        }
        r.generals_lost = self
            .generals
            .iter()
            .filter(|g| g.side() == side && g.status() != GeneralStatus::Active)
            .count() as u32;
        r
    }

    /// Both sides' reports.
    #[must_use]
    pub fn reports(&self) -> BySide<SideReport> {
        BySide::new(self.report(Side::Union), self.report(Side::Confederate))
    }

    /// NORTH-SEQ-09 / NORTH-VIC-02: ends the player-phase: checks `end`; if the game goes on, starts the next
    /// phase (the other side, or the next turn) with every one-phase record cleared.
    pub fn end_phase(&mut self, end: &dyn EndCondition) -> Result<Option<GameEnd>, RuleViolation> {
        if self.over {
            return Err(RuleViolation::GameOver);
        }
        if self.morale.is_some() {
            return Err(RuleViolation::MoralePending);
        }
        let step = self.clock.step();
        if step != crate::sequence::Step::Melee {
            return Err(RuleViolation::WrongStep {
                expected: crate::sequence::Step::Melee,
                actual: step,
            });
        }
        if let Some(e) = end.check(self) {
            self.over = true;
            return Ok(Some(e));
        }
        self.clock.next_phase();
        self.reset_phase();
        Ok(None)
    }
}
