//! [`HitPool`]: the rules' one kind of dice roll — d6s that hit on a modified 5 or more, each die with its own
//! modifier (GRID-ART-05, GRID-FIR-04, GRID-MEL-09).

use crate::error::GridError;
use crate::tables;
use acw_core::dice::{Dice, Die};
use acw_core::{Dist, Resolve};

/// The lowest per-die modifier a pool holds (a net −2 never hits).
pub const MIN_MODIFIER: i8 = -2;
/// The highest per-die modifier a pool holds.
pub const MAX_MODIFIER: i8 = 2;
/// The most dice one pool holds.
pub const MAX_DICE: u32 = 128;

/// A pool of d6s grouped by their per-die modifier; each die hits on a modified 5 or more. The hits are a sum
/// of binomials, one per modifier group. Dice are thrown lowest modifier first (this fixes which scripted face
/// goes to which die).
///
/// ```
/// use acw_grid::pool::HitPool;
/// use acw_core::Resolve;
/// // A 3-stand unit in combat: 6 dice at no modifier. P(0 hits) = (2/3)^6 = 64/729.
/// let pool = HitPool::uniform(6, 0)?;
/// assert!((pool.odds().p(&0) - 64.0 / 729.0).abs() < 1e-12);
/// # Ok::<(), acw_grid::GridError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct HitPool {
    counts: [u8; 5],
}

fn slot(modifier: i8) -> Result<usize, GridError> {
    if (MIN_MODIFIER..=MAX_MODIFIER).contains(&modifier) {
        Ok((modifier - MIN_MODIFIER) as usize)
    } else {
        Err(GridError::OutOfRange {
            what: "per-die modifier",
            given: i64::from(modifier),
            min: i64::from(MIN_MODIFIER),
            max: i64::from(MAX_MODIFIER),
        })
    }
}

impl HitPool {
    /// No dice.
    pub const EMPTY: HitPool = HitPool { counts: [0; 5] };

    /// `n` dice, each with `modifier`.
    pub fn uniform(n: u32, modifier: i8) -> Result<HitPool, GridError> {
        HitPool::EMPTY.with(n, modifier)
    }

    /// This pool plus `n` dice with `modifier` (−2 to +2; at most 128 dice in all). The count comes first, as
    /// in [`HitPool::uniform`].
    pub fn with(mut self, n: u32, modifier: i8) -> Result<HitPool, GridError> {
        let i = slot(modifier)?;
        let total = self.dice().saturating_add(n);
        if total > MAX_DICE {
            return Err(GridError::OutOfRange {
                what: "dice in a pool",
                given: i64::from(total),
                min: 0,
                max: i64::from(MAX_DICE),
            });
        }
        self.counts[i] += n as u8;
        Ok(self)
    }

    /// Both pools together.
    pub fn merged(self, other: HitPool) -> Result<HitPool, GridError> {
        let mut p = self;
        for (m, n) in other.groups() {
            p = p.with(n, m)?;
        }
        Ok(p)
    }

    /// Total dice.
    #[must_use]
    pub fn dice(&self) -> u32 {
        self.counts.iter().map(|&c| u32::from(c)).sum()
    }

    /// Dice with `modifier`.
    #[must_use]
    pub fn count(&self, modifier: i8) -> u32 {
        slot(modifier).map_or(0, |i| u32::from(self.counts[i]))
    }

    /// The non-empty groups as (modifier, dice), lowest modifier first.
    pub fn groups(&self) -> impl Iterator<Item = (i8, u32)> + '_ {
        self.counts
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(i, c)| (i as i8 + MIN_MODIFIER, u32::from(*c)))
    }

    /// The first `n` dice when the dice are listed best modifier first (used to cut a pool down).
    #[must_use]
    pub fn best(&self, n: u32) -> HitPool {
        let mut left = n;
        let mut out = HitPool::EMPTY;
        for i in (0..5).rev() {
            let take = left.min(u32::from(self.counts[i]));
            out.counts[i] = take as u8;
            left -= take;
        }
        out
    }

    /// The expected number of hits.
    #[must_use]
    pub fn mean_hits(&self) -> f64 {
        self.groups()
            .map(|(m, n)| f64::from(n) * f64::from(tables::hit_sixths(m)) / 6.0)
            .sum()
    }
}

impl Resolve for HitPool {
    type Outcome = u32;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> u32 {
        let mut hits = 0;
        for (i, &c) in self.counts.iter().enumerate() {
            let m = i as i8 + MIN_MODIFIER;
            for _ in 0..c {
                if tables::face_hits(Die::D6.roll(dice), m) {
                    hits += 1;
                }
            }
        }
        hits
    }

    fn odds(&self) -> Dist<u32> {
        let mut d = Dist::certain(0u32);
        for (m, n) in self.groups() {
            let p = f64::from(tables::hit_sixths(m)) / 6.0;
            if let Ok(b) = Dist::binomial(n, p) {
                d = d.add(&b);
            }
        }
        d
    }
}
