//! The luck of a battle: how far each side's dice ran above or below what was to be expected.
//!
//! Every event of a log that rolled reports, through [`Lucky`], a [`LuckyRoll`] per roll: which side the roll
//! served (the side whose attack, morale test or move it was) and where its outcome stood among the outcomes it
//! could have had, as seen by that side: the probability of an outcome *at least as good*, and of *exactly
//! this* outcome.
//!
//! # The luck index
//!
//! Each roll is scored by its **mid-rank**:
//!
//! ```text
//! u = P(worse) + ½·P(same) = 1 − P(at least as good) + ½·P(exactly this)
//! ```
//!
//! a percentile of the roll within its own distribution, counting ties half. With fair dice `u` averages
//! exactly ½ for every roll, whatever its odds (for a 5+ on a d6: a hit scores 1 − 1/6 = 5/6, a miss
//! 1/3, and 1/3·5/6 + 2/3·1/3 = ½). A side's **luck index** is the mean `u` of the rolls that served it, shown
//! as a percentile: 50 is par, above 50 the dice favoured it, below 50 they let it down; all-best faces on
//! d6 hits at 5+ give 83.3, all-worst 33.3. Because it is a mean of percentiles, a long run of routine rolls
//! and a few decisive ones weigh the same per roll; [`SideLuck::z`] says whether the departure from par is
//! more than chance: the sum of `u − ½` over the side's rolls divided by its standard deviation under fair
//! dice, `√Σ (1 − Σₖ pₖ³)/12` (the variance of a mid-rank of a distribution with probabilities `pₖ`).
//!
//! ```
//! use acw_core::luck::{Lucky, LuckyRoll, luck_of};
//! use acw_core::Side;
//!
//! /// A log of hits at 5+ on a d6 (chance 1/3).
//! struct Shot { side: Side, hit: bool }
//! impl Lucky for Shot {
//!     type Context = ();
//!     fn rolls(&self, _: &mut (), out: &mut Vec<LuckyRoll>) {
//!         out.push(LuckyRoll::chance(self.side, 1.0 / 3.0, self.hit));
//!     }
//! }
//! let log = [Shot { side: Side::Union, hit: true }, Shot { side: Side::Confederate, hit: false }];
//! let luck = luck_of(&log);
//! assert!((luck.union.index - 5.0 / 6.0).abs() < 1e-12);
//! assert!((luck.confederate.index - 1.0 / 3.0).abs() < 1e-12);
//! ```

use crate::odds::Dist;
use crate::vocab::{BySide, Side};
use std::fmt;

/// One roll of an event, seen by the side it served.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LuckyRoll {
    /// The side the roll served.
    pub side: Side,
    /// The probability of an outcome at least as good for that side as the one rolled.
    pub at_least_as_good: f64,
    /// The probability of exactly the outcome rolled (an outcome as good counts as the same).
    pub exactly: f64,
    /// Σ p³ over the roll's outcomes (for the spread of the index under fair dice).
    pub cube_sum: f64,
}

impl LuckyRoll {
    /// A roll that succeeds with probability `p` (clamped to 0..=1), for `side`: success is the better outcome.
    #[must_use]
    pub fn chance(side: Side, p: f64, succeeded: bool) -> LuckyRoll {
        let p = if p.is_nan() { 0.0 } else { p.clamp(0.0, 1.0) };
        let q = 1.0 - p;
        LuckyRoll {
            side,
            at_least_as_good: if succeeded { p } else { 1.0 },
            exactly: if succeeded { p } else { q },
            cube_sum: p * p * p + q * q * q,
        }
    }

    /// A roll of distribution `dist` that gave `outcome`, for `side`; `goodness` ranks an outcome for that
    /// side (higher is better; outcomes of equal goodness count as the same).
    #[must_use]
    pub fn from_dist<T, G: PartialOrd>(
        side: Side,
        dist: &Dist<T>,
        outcome: &T,
        goodness: impl Fn(&T) -> G,
    ) -> LuckyRoll {
        let mine = goodness(outcome);
        let mut at_least = 0.0;
        let mut exactly = 0.0;
        // Group outcomes of equal goodness, for the spread.
        let mut groups: Vec<(G, f64)> = Vec::new();
        for (o, p) in dist.outcomes() {
            let g = goodness(o);
            if g >= mine {
                at_least += p;
            }
            if g == mine {
                exactly += p;
            }
            match groups.iter_mut().find(|(h, _)| *h == g) {
                Some((_, q)) => *q += p,
                None => groups.push((g, *p)),
            }
        }
        LuckyRoll {
            side,
            at_least_as_good: at_least.min(1.0),
            exactly: exactly.min(1.0),
            cube_sum: groups.iter().map(|(_, p)| p * p * p).sum(),
        }
    }

    /// The roll's mid-rank: `1 − P(at least as good) + ½·P(exactly)`, from 0 (worst) to 1 (best).
    #[must_use]
    pub fn mid_rank(&self) -> f64 {
        (1.0 - self.at_least_as_good + 0.5 * self.exactly).clamp(0.0, 1.0)
    }
}

/// An event of a game log that may have rolled.
///
/// `Context` is what the reader of a log remembers from earlier events to place a later one (whose phase it
/// is, say, when an event names the attacker but not its side); `()` when each event says it all.
pub trait Lucky {
    /// What the reader carries from event to event.
    type Context: Default;
    /// Appends to `out` one [`LuckyRoll`] per roll this event made (none for an event that rolled nothing),
    /// updating `context` for the events after it.
    fn rolls(&self, context: &mut Self::Context, out: &mut Vec<LuckyRoll>);
}

/// One side's luck over a log.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SideLuck {
    /// Rolls that served the side.
    pub rolls: u32,
    /// The luck index: the mean mid-rank of those rolls, 0.5 being par (0.5 when there were none).
    pub index: f64,
    /// How many standard deviations the sum of mid-ranks lies from par under fair dice (0 with no rolls).
    pub z: f64,
}

impl SideLuck {
    fn of(rolls: &[LuckyRoll], side: Side) -> SideLuck {
        let mine: Vec<&LuckyRoll> = rolls.iter().filter(|r| r.side == side).collect();
        if mine.is_empty() {
            return SideLuck {
                rolls: 0,
                index: 0.5,
                z: 0.0,
            };
        }
        let sum: f64 = mine.iter().map(|r| r.mid_rank() - 0.5).sum();
        let variance: f64 = mine.iter().map(|r| (1.0 - r.cube_sum) / 12.0).sum();
        let n = mine.len() as f64;
        SideLuck {
            rolls: u32::try_from(mine.len()).unwrap_or(u32::MAX),
            index: 0.5 + sum / n,
            z: if variance > 0.0 {
                sum / variance.sqrt()
            } else {
                0.0
            },
        }
    }
}

impl fmt::Display for SideLuck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.rolls == 0 {
            return f.write_str("no rolls");
        }
        let word = match self.z {
            z if z >= 2.0 => "lucky beyond chance",
            z if z <= -2.0 => "unlucky beyond chance",
            z if z > 0.0 => "a little above par, within chance",
            z if z < 0.0 => "a little below par, within chance",
            _ => "exactly par",
        };
        write!(
            f,
            "luck {:.1} over {} rolls (50 is par; z = {:+.2}: {word})",
            self.index * 100.0,
            self.rolls,
            self.z
        )
    }
}

/// Both sides' luck over a log.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Luck {
    /// The Union's.
    pub union: SideLuck,
    /// The Confederates'.
    pub confederate: SideLuck,
}

impl Luck {
    /// The luck of `rolls`.
    #[must_use]
    pub fn of(rolls: &[LuckyRoll]) -> Luck {
        Luck {
            union: SideLuck::of(rolls, Side::Union),
            confederate: SideLuck::of(rolls, Side::Confederate),
        }
    }

    /// Each side's luck as a [`BySide`].
    #[must_use]
    pub fn by_side(&self) -> BySide<SideLuck> {
        BySide::new(self.union, self.confederate)
    }
}

/// Every roll of `log`, in order.
#[must_use]
pub fn rolls_of<E: Lucky>(log: &[E]) -> Vec<LuckyRoll> {
    let mut context = E::Context::default();
    let mut out = Vec::new();
    for event in log {
        event.rolls(&mut context, &mut out);
    }
    out
}

/// The luck of each side over `log`.
#[must_use]
pub fn luck_of<E: Lucky>(log: &[E]) -> Luck {
    Luck::of(&rolls_of(log))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Die;

    #[test]
    fn a_fair_roll_averages_par() {
        // Every face of a d6, served to the Union, higher better: mid-ranks 1/12, 3/12, …, 11/12.
        let d6 = Dist::die(Die::D6);
        let rolls: Vec<LuckyRoll> = (1..=6u32)
            .map(|f| LuckyRoll::from_dist(Side::Union, &d6, &f, |&x| x))
            .collect();
        for (i, r) in rolls.iter().enumerate() {
            assert!((r.mid_rank() - (2 * i + 1) as f64 / 12.0).abs() < 1e-12);
        }
        let luck = Luck::of(&rolls);
        assert!((luck.union.index - 0.5).abs() < 1e-12);
        assert!(luck.union.z.abs() < 1e-9);
        assert_eq!(luck.confederate.rolls, 0);
        assert_eq!(luck.confederate.index, 0.5);
    }

    #[test]
    fn all_best_and_all_worst_faces() {
        // Morale bands of a d6 (1-2, 3-4, 5-6), lower better for the side: six rolls of 1 score 1 - 1/6
        // each; z = 6·(1/3) / sqrt(6·(1 - 3/27)/12).
        let d6 = Dist::die(Die::D6);
        let band = |f: &u32| -(((*f as i32) + 1) / 2);
        let best: Vec<LuckyRoll> = (0..6)
            .map(|_| LuckyRoll::from_dist(Side::Confederate, &d6, &1, band))
            .collect();
        let luck = Luck::of(&best);
        assert!((luck.confederate.index - 5.0 / 6.0).abs() < 1e-12);
        let z = 6.0 * (1.0 / 3.0) / (6.0 * (1.0 - 3.0 / 27.0) / 12.0f64).sqrt();
        assert!((luck.confederate.z - z).abs() < 1e-9);
        let worst = LuckyRoll::from_dist(Side::Confederate, &d6, &6, band);
        assert!((worst.mid_rank() - 1.0 / 6.0).abs() < 1e-12);
        assert!((worst.at_least_as_good - 1.0).abs() < 1e-12);
        assert!(
            luck.confederate
                .to_string()
                .starts_with("luck 83.3 over 6 rolls")
        );
    }

    #[test]
    fn chance_rolls_score_as_the_docs_say() {
        let hit = LuckyRoll::chance(Side::Union, 1.0 / 3.0, true);
        let miss = LuckyRoll::chance(Side::Union, 1.0 / 3.0, false);
        assert!((hit.mid_rank() - 5.0 / 6.0).abs() < 1e-12);
        assert!((miss.mid_rank() - 1.0 / 3.0).abs() < 1e-12);
        // A certain roll scores par either way.
        assert!((LuckyRoll::chance(Side::Union, 1.0, true).mid_rank() - 0.5).abs() < 1e-12);
    }
}
