//! What an option is worth: the same games played under two sets of options, compared seed by seed.
//!
//! [`paired`] takes two batches of games played from the same seeds (game `i` of each batch from the same
//! seed, as `simulate` (feature `parallel`) plays them) and, for each measure (each side's win, the draw, each
//! side's losses), takes the difference `changed − base` game by game. The estimate is the mean difference;
//! its 95% interval is `mean ± 1.96·s/√n`, with `s` the standard deviation of the `n` paired differences (the
//! normal approximation: trust it from a few dozen games on). Pairing removes what the two batches share (the
//! same armies, the same dice where the change does not touch them), so the interval is far narrower than
//! the difference of two independent runs.
//!
//! ```
//! use acw_core::compare::paired;
//! use acw_core::game::{EndReason, GameRecord, GameResult, Outcome};
//! use acw_core::{BySide, Side};
//!
//! let game = |index, winner, union_lost| GameRecord {
//!     index,
//!     outcome: Outcome { result: GameResult::Winner(winner), reason: EndReason::ArmyBroken, turn: 5 },
//!     losses: BySide::new(union_lost, 3),
//! };
//! let base = [game(0, Side::Confederate, 4), game(1, Side::Union, 2)];
//! let changed = [game(0, Side::Union, 3), game(1, Side::Union, 2)];
//! let c = paired(&base, &changed)?;
//! assert_eq!(c.games, 2);
//! assert!((c.win[Side::Union].mean - 0.5).abs() < 1e-12);
//! assert!((c.losses[Side::Union].mean + 0.5).abs() < 1e-12);
//! # Ok::<(), acw_core::compare::CompareError>(())
//! ```

use crate::game::{GameRecord, GameResult};
use crate::vocab::{BySide, Side};
use std::fmt;
use thiserror::Error;

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A mean difference with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Difference {
    /// The mean of `changed − base` over the games.
    pub mean: f64,
    /// The lower end of the 95% interval.
    pub low: f64,
    /// The upper end of the 95% interval.
    pub high: f64,
}

impl Difference {
    /// The mean and 95% interval of `diffs` (a single value has no spread: its interval is the value).
    #[must_use]
    pub fn of(diffs: &[f64]) -> Difference {
        let n = diffs.len() as f64;
        if diffs.is_empty() {
            return Difference {
                mean: 0.0,
                low: 0.0,
                high: 0.0,
            };
        }
        let mean = diffs.iter().sum::<f64>() / n;
        let half = if diffs.len() > 1 {
            let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0);
            Z95 * (var / n).sqrt()
        } else {
            0.0
        };
        Difference {
            mean,
            low: mean - half,
            high: mean + half,
        }
    }

    /// Whether the interval leaves out zero: the change made a difference beyond chance.
    #[must_use]
    pub fn excludes_zero(&self) -> bool {
        self.low > 0.0 || self.high < 0.0
    }
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:+.3} (95% interval {:+.3} to {:+.3})",
            self.mean, self.low, self.high
        )
    }
}

/// The paired comparison of two batches.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Comparison {
    /// Games compared.
    pub games: u64,
    /// Each side's win rate under the base options.
    pub base_win: BySide<f64>,
    /// Each side's win rate under the changed options.
    pub changed_win: BySide<f64>,
    /// The change in each side's win rate (a win counts 1, anything else 0).
    pub win: BySide<Difference>,
    /// The change in the draw rate.
    pub draw: Difference,
    /// Each side's mean losses under the base options.
    pub base_losses: BySide<f64>,
    /// Each side's mean losses under the changed options.
    pub changed_losses: BySide<f64>,
    /// The change in each side's losses.
    pub losses: BySide<Difference>,
}

/// Two batches that cannot be compared.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum CompareError {
    /// No games.
    #[error("a comparison needs at least one game in each batch")]
    NoGames,
    /// The batches do not hold the same games.
    #[error(
        "the two batches are not paired: the base has {base} games and the changed one {changed}, or their \
         game numbers differ"
    )]
    NotPaired {
        /// Games in the base batch.
        base: usize,
        /// Games in the changed batch.
        changed: usize,
    },
}

/// Compares `changed` with `base` game by game; game `i` of one must be game `i` of the other (the same
/// index, so the same seed).
pub fn paired(base: &[GameRecord], changed: &[GameRecord]) -> Result<Comparison, CompareError> {
    if base.is_empty() || changed.is_empty() {
        return Err(CompareError::NoGames);
    }
    if base.len() != changed.len() || base.iter().zip(changed).any(|(a, b)| a.index != b.index) {
        return Err(CompareError::NotPaired {
            base: base.len(),
            changed: changed.len(),
        });
    }
    let won = |r: &GameRecord, side: Side| {
        f64::from(u8::from(r.outcome.result == GameResult::Winner(side)))
    };
    let drew = |r: &GameRecord| f64::from(u8::from(r.outcome.result == GameResult::Draw));
    let n = base.len() as f64;
    let mean =
        |f: &dyn Fn(&GameRecord) -> f64, batch: &[GameRecord]| batch.iter().map(f).sum::<f64>() / n;
    let diff = |f: &dyn Fn(&GameRecord) -> f64| {
        let d: Vec<f64> = base.iter().zip(changed).map(|(a, b)| f(b) - f(a)).collect();
        Difference::of(&d)
    };
    let per_side = |f: &dyn Fn(&GameRecord, Side) -> f64| {
        BySide::new(
            diff(&|r| f(r, Side::Union)),
            diff(&|r| f(r, Side::Confederate)),
        )
    };
    let lost = |r: &GameRecord, side: Side| f64::from(r.losses[side]);
    let means = |f: &dyn Fn(&GameRecord, Side) -> f64, batch: &[GameRecord]| {
        BySide::new(
            mean(&|r| f(r, Side::Union), batch),
            mean(&|r| f(r, Side::Confederate), batch),
        )
    };
    Ok(Comparison {
        games: base.len() as u64,
        base_win: means(&won, base),
        changed_win: means(&won, changed),
        win: per_side(&won),
        draw: diff(&drew),
        base_losses: means(&lost, base),
        changed_losses: means(&lost, changed),
        losses: per_side(&lost),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{EndReason, Outcome};

    fn game(index: u64, result: GameResult, union_lost: u32) -> GameRecord {
        GameRecord {
            index,
            outcome: Outcome {
                result,
                reason: EndReason::TurnLimit,
                turn: 12,
            },
            losses: BySide::new(union_lost, 0),
        }
    }

    #[test]
    fn interval_by_hand() {
        // Differences 1, 0, 0, 1: mean 1/2, sample variance 1/3, half-width 1.96·sqrt(1/12).
        let d = Difference::of(&[1.0, 0.0, 0.0, 1.0]);
        let half = Z95 * (1.0f64 / 12.0).sqrt();
        assert!((d.mean - 0.5).abs() < 1e-12);
        assert!((d.low - (0.5 - half)).abs() < 1e-12);
        assert!((d.high - (0.5 + half)).abs() < 1e-12);
        assert!(!d.excludes_zero());
        assert_eq!(d.to_string(), "+0.500 (95% interval -0.066 to +1.066)");
    }

    #[test]
    fn paired_games_and_refusals() -> Result<(), CompareError> {
        let u = GameResult::Winner(Side::Union);
        let c = GameResult::Winner(Side::Confederate);
        let base = [game(0, c, 5), game(1, GameResult::Draw, 5), game(2, u, 5)];
        let changed = [game(0, u, 4), game(1, u, 4), game(2, u, 4)];
        let cmp = paired(&base, &changed)?;
        assert!((cmp.win[Side::Union].mean - 2.0 / 3.0).abs() < 1e-12);
        assert!((cmp.win[Side::Confederate].mean + 1.0 / 3.0).abs() < 1e-12);
        assert!((cmp.draw.mean + 1.0 / 3.0).abs() < 1e-12);
        // Every game lost one stand fewer: no spread, the interval is the point.
        assert_eq!(cmp.losses[Side::Union].low, -1.0);
        assert_eq!(cmp.losses[Side::Union].high, -1.0);
        assert!((cmp.base_win[Side::Union] - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(cmp.changed_win[Side::Union], 1.0);
        assert_eq!(paired(&[], &changed), Err(CompareError::NoGames));
        assert!(matches!(
            paired(&base[..2], &changed),
            Err(CompareError::NotPaired { .. })
        ));
        Ok(())
    }
}
