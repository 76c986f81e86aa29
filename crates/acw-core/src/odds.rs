//! Exact finite probability distributions.
//!
//! A [`Dist<T>`] lists every outcome of a random procedure with its probability. Outcomes are kept sorted and
//! distinct, so two distributions of the same procedure compare equal outcome by outcome. Probabilities are
//! `f64`; building from dice, pools, sums and products is exact up to floating-point rounding (tests hold
//! results to 1e-12 of hand-computed fractions). Pools and success counts are counted in whole numbers of
//! ordered throws while `sides^count` fits in 128 bits, so each of their probabilities is the exact fraction
//! rounded once.
//!
//! ```
//! use acw_core::dice::{Die, Pool};
//! use acw_core::odds::Dist;
//! let three_d6 = Dist::pool(Pool::new(3, Die::D6)?);
//! assert!((three_d6.prob(|&t| t == 10) - 27.0 / 216.0).abs() < 1e-12);
//! let two_d6 = Dist::die(Die::D6).sum_n(2);
//! assert!((two_d6.prob(|&t| t <= 8) - 26.0 / 36.0).abs() < 1e-12);
//! # Ok::<(), acw_core::dice::DiceError>(())
//! ```

use crate::dice::{Die, Keep, Pool};

mod exact;
use std::fmt;
use std::ops::Add;
use thiserror::Error;

/// Outcomes whose probability is below this are dropped when a distribution is built (they arise only from
/// rounding).
const NEGLIGIBLE: f64 = 0.0;

/// A distribution that could not be built.
#[derive(Clone, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum OddsError {
    /// No outcomes were given.
    #[error("a distribution needs at least one outcome")]
    Empty,
    /// A weight was negative, infinite or NaN, or all weights were zero.
    #[error("weights must be finite, non-negative and not all zero")]
    BadWeight,
    /// A probability outside 0..=1 (or not a number) was given.
    #[error("a probability must lie in 0..=1, not {0}")]
    BadProbability(f64),
    /// A loaded distribution's probabilities do not add up to 1.
    #[error("the probabilities of a distribution must add up to 1, not {0}")]
    NotNormalised(f64),
    /// A loaded distribution lists its outcomes out of order, or one outcome twice.
    #[error("a distribution lists each outcome once, in increasing order")]
    Unordered,
    /// Working out the exact distribution would take more than the [`WorkLimit`] allows.
    #[error(
        "working out the exact odds of {what} would take about {steps:.1e} steps, more than the limit of \
         {limit:.1e} steps (about a second of work)"
    )]
    TooMuchWork {
        /// What was to be worked out (dice notation, say).
        what: String,
        /// The estimated work, in steps of about one addition of two weights.
        steps: f64,
        /// The limit it was over.
        limit: f64,
    },
}

/// A bound on the work of building an exact distribution, in steps of about one addition or multiplication
/// of two weights, so that odds of notation a caller typed cannot tie up a program for minutes.
///
/// The work of a pool is estimated before anything is built ([`Pool::odds_work`]); beyond the limit the
/// fallible builders ([`Dist::pool_within`], [`Pool::exact_odds`], [`DiceExpr::exact_odds`]) return
/// [`OddsError::TooMuchWork`] at once. [`WorkLimit::DEFAULT`] is 10⁹ steps, which keeps any single build
/// under about a second on a current desktop core: a step measured 0.3 to 0.55 ns in floating point (the
/// largest pools) and up to 2 ns in 128-bit integers (pools small enough that they never come near the
/// limit). So `40d1000` (7.8 × 10⁸ steps) builds in about 0.3 s, while `128d1000` (8.1 × 10⁹ steps, about
/// 3 s) and `64d1000kh32` (1.5 × 10¹¹ steps, 40 s and more) are refused in microseconds. Pass a higher limit
/// (or [`WorkLimit::UNLIMITED`]) to build larger ones anyway.
///
/// [`Pool::odds_work`]: crate::dice::Pool::odds_work
/// [`Pool::exact_odds`]: crate::dice::Pool::exact_odds
/// [`DiceExpr::exact_odds`]: crate::dice::DiceExpr::exact_odds
///
/// ```
/// use acw_core::dice::DiceExpr;
/// use acw_core::odds::{OddsError, WorkLimit};
/// let big: DiceExpr = "64d1000kh32".parse()?;
/// assert!(matches!(big.exact_odds(), Err(OddsError::TooMuchWork { .. })));
/// let small: DiceExpr = "4d6kh3".parse()?;
/// assert!(small.odds_within(WorkLimit::steps(10_000)).is_ok());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[must_use]
pub struct WorkLimit(u64);

impl WorkLimit {
    /// 10⁹ steps: about a second at most on a current desktop core.
    pub const DEFAULT: WorkLimit = WorkLimit(1_000_000_000);
    /// No limit at all.
    pub const UNLIMITED: WorkLimit = WorkLimit(u64::MAX);

    /// A limit of `steps` steps.
    pub const fn steps(steps: u64) -> WorkLimit {
        WorkLimit(steps)
    }

    /// The limit in steps.
    #[must_use]
    pub const fn get(self) -> u64 {
        self.0
    }

    /// `Ok` if `steps` of work for `what` is within the limit, else [`OddsError::TooMuchWork`].
    pub(crate) fn check(self, steps: u64, what: impl fmt::Display) -> Result<(), OddsError> {
        if steps <= self.0 {
            Ok(())
        } else {
            Err(OddsError::TooMuchWork {
                what: what.to_string(),
                steps: steps as f64,
                limit: self.0 as f64,
            })
        }
    }
}

impl Default for WorkLimit {
    fn default() -> Self {
        WorkLimit::DEFAULT
    }
}

/// An exact finite probability distribution over outcomes of type `T`.
///
/// Never empty, every probability finite and positive, the outcomes sorted and distinct, the probabilities
/// adding up to 1. Loading (feature `serde`) checks the same: an empty list, a probability that is not a
/// number in 0..=1, outcomes out of order or repeated, or probabilities whose sum is further than 10⁻⁹ from
/// 1 are refused with an [`OddsError`].
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        try_from = "DistFields<T>",
        bound(deserialize = "T: serde::Deserialize<'de> + Ord")
    )
)]
pub struct Dist<T> {
    /// Sorted by outcome, outcomes distinct, probabilities positive and summing to 1.
    outcomes: Vec<(T, f64)>,
}

/// A [`Dist`] as loaded, before its checks.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct DistFields<T> {
    outcomes: Vec<(T, f64)>,
}

/// How far from 1 the probabilities of a loaded distribution may add up (rounding in a sum of many).
#[cfg(feature = "serde")]
const LOADED_SUM_TOLERANCE: f64 = 1e-9;

#[cfg(feature = "serde")]
impl<T: Ord> TryFrom<DistFields<T>> for Dist<T> {
    type Error = OddsError;
    fn try_from(f: DistFields<T>) -> Result<Self, OddsError> {
        let outcomes = f.outcomes;
        if outcomes.is_empty() {
            return Err(OddsError::Empty);
        }
        if let Some(&(_, p)) = outcomes
            .iter()
            .find(|(_, p)| !(p.is_finite() && *p > 0.0 && *p <= 1.0))
        {
            return Err(OddsError::BadProbability(p));
        }
        if outcomes.windows(2).any(|w| w[0].0 >= w[1].0) {
            return Err(OddsError::Unordered);
        }
        let sum: f64 = outcomes.iter().map(|(_, p)| p).sum();
        if (sum - 1.0).abs() > LOADED_SUM_TOLERANCE {
            return Err(OddsError::NotNormalised(sum));
        }
        Ok(Dist { outcomes })
    }
}

impl<T: Ord + Clone> Dist<T> {
    /// The outcome `value`, with probability 1.
    pub fn certain(value: T) -> Self {
        Dist {
            outcomes: vec![(value, 1.0)],
        }
    }

    /// Each of `values` equally likely (a value listed twice is twice as likely).
    pub fn uniform(values: impl IntoIterator<Item = T>) -> Result<Self, OddsError> {
        Self::weighted(values.into_iter().map(|v| (v, 1.0)))
    }

    /// Outcomes with relative weights, normalised to sum to 1.
    pub fn weighted(pairs: impl IntoIterator<Item = (T, f64)>) -> Result<Self, OddsError> {
        let mut v: Vec<(T, f64)> = pairs.into_iter().collect();
        if v.is_empty() {
            return Err(OddsError::Empty);
        }
        if v.iter().any(|(_, w)| !w.is_finite() || *w < 0.0) {
            return Err(OddsError::BadWeight);
        }
        let max = v.iter().map(|(_, w)| *w).fold(0.0, f64::max);
        if max <= 0.0 {
            return Err(OddsError::BadWeight);
        }
        let total: f64 = v.iter().map(|(_, w)| w).sum();
        if total.is_finite() {
            v.iter_mut().for_each(|(_, w)| *w /= total);
        } else {
            // Huge weights add up to infinity: scaled by the largest first, the total lies between 1 and the
            // number of weights.
            let total: f64 = v.iter().map(|(_, w)| w / max).sum();
            v.iter_mut().for_each(|(_, w)| *w = *w / max / total);
        }
        Ok(Self::from_raw(v))
    }

    /// Sorts, merges equal outcomes and drops zero-probability ones. Weights must already sum to 1.
    fn from_raw(mut v: Vec<(T, f64)>) -> Self {
        v.sort_by(|a, b| a.0.cmp(&b.0));
        let mut out: Vec<(T, f64)> = Vec::with_capacity(v.len());
        for (t, p) in v {
            match out.last_mut() {
                Some((last, q)) if *last == t => *q += p,
                _ => out.push((t, p)),
            }
        }
        out.retain(|(_, p)| *p > NEGLIGIBLE);
        Dist { outcomes: out }
    }

    /// Applies `f` to every outcome, merging outcomes that map to the same value.
    pub fn map<U: Ord + Clone>(&self, mut f: impl FnMut(&T) -> U) -> Dist<U> {
        Dist::from_raw(self.outcomes.iter().map(|(t, p)| (f(t), *p)).collect())
    }

    /// The outcome of this step chooses the distribution of the next (a two-stage procedure).
    pub fn and_then<U: Ord + Clone>(&self, mut f: impl FnMut(&T) -> Dist<U>) -> Dist<U> {
        let mut v = Vec::new();
        for (t, p) in &self.outcomes {
            for (u, q) in f(t).outcomes {
                v.push((u, p * q));
            }
        }
        Dist::from_raw(v)
    }

    /// Both procedures, independently: the distribution of the pair.
    #[must_use]
    pub fn product<U: Ord + Clone>(&self, other: &Dist<U>) -> Dist<(T, U)> {
        let mut v = Vec::with_capacity(self.outcomes.len() * other.outcomes.len());
        for (t, p) in &self.outcomes {
            for (u, q) in &other.outcomes {
                v.push(((t.clone(), u.clone()), p * q));
            }
        }
        Dist::from_raw(v)
    }

    /// Both procedures independently, their outcomes combined by `f`.
    pub fn zip_with<U: Ord + Clone, V: Ord + Clone>(
        &self,
        other: &Dist<U>,
        mut f: impl FnMut(&T, &U) -> V,
    ) -> Dist<V> {
        let mut v = Vec::with_capacity(self.outcomes.len() * other.outcomes.len());
        for (t, p) in &self.outcomes {
            for (u, q) in &other.outcomes {
                v.push((f(t, u), p * q));
            }
        }
        Dist::from_raw(v)
    }

    /// Conditions on `pred`: the distribution of the outcomes for which it holds, renormalised. `None` when no
    /// outcome satisfies it.
    pub fn given(&self, mut pred: impl FnMut(&T) -> bool) -> Option<Dist<T>> {
        let v: Vec<(T, f64)> = self
            .outcomes
            .iter()
            .filter(|(t, _)| pred(t))
            .cloned()
            .collect();
        let total: f64 = v.iter().map(|(_, p)| p).sum();
        (total > 0.0).then(|| Dist {
            outcomes: v.into_iter().map(|(t, p)| (t, p / total)).collect(),
        })
    }

    /// The probability of exactly `value`.
    pub fn p(&self, value: &T) -> f64 {
        self.outcomes
            .binary_search_by(|(t, _)| t.cmp(value))
            .map(|i| self.outcomes[i].1)
            .unwrap_or(0.0)
    }

    /// P(outcome <= value).
    pub fn cdf(&self, value: &T) -> f64 {
        self.outcomes
            .iter()
            .take_while(|(t, _)| t <= value)
            .map(|(_, p)| p)
            .sum::<f64>()
            .min(1.0)
    }

    /// The smallest outcome `x` with P(outcome <= x) >= `q` (`q` is clamped to 0..=1).
    #[must_use]
    pub fn quantile(&self, q: f64) -> &T {
        let q = if q.is_nan() { 0.0 } else { q.clamp(0.0, 1.0) };
        let mut acc = 0.0;
        for (t, p) in &self.outcomes {
            acc += p;
            if acc >= q - 1e-12 {
                return t;
            }
        }
        &self.outcomes[self.outcomes.len() - 1].0
    }

    /// The smallest outcome.
    #[must_use]
    pub fn min(&self) -> &T {
        &self.outcomes[0].0
    }

    /// The largest outcome.
    #[must_use]
    pub fn max(&self) -> &T {
        &self.outcomes[self.outcomes.len() - 1].0
    }
}

impl<T> Dist<T> {
    /// The outcomes with their probabilities, sorted by outcome.
    #[must_use]
    pub fn outcomes(&self) -> &[(T, f64)] {
        &self.outcomes
    }

    /// The number of distinct outcomes.
    #[must_use]
    pub fn len(&self) -> usize {
        self.outcomes.len()
    }

    /// Never true: a distribution has at least one outcome.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.outcomes.is_empty()
    }

    /// The probability that the outcome satisfies `pred`.
    pub fn prob(&self, mut pred: impl FnMut(&T) -> bool) -> f64 {
        self.outcomes
            .iter()
            .filter(|(t, _)| pred(t))
            .map(|(_, p)| p)
            .sum::<f64>()
            .min(1.0)
    }

    /// The expected value of `f(outcome)`.
    pub fn expect(&self, mut f: impl FnMut(&T) -> f64) -> f64 {
        self.outcomes.iter().map(|(t, p)| f(t) * p).sum()
    }

    /// A sampler for fast repeated draws from this distribution (builds an alias table once).
    #[must_use]
    pub fn sampler(&self) -> Sampler<T>
    where
        T: Clone,
    {
        Sampler::new(self)
    }
}

impl<T: Copy + Into<f64>> Dist<T> {
    /// The mean outcome.
    #[must_use]
    pub fn mean(&self) -> f64 {
        self.expect(|&t| t.into())
    }

    /// The variance of the outcome.
    #[must_use]
    pub fn variance(&self) -> f64 {
        let m = self.mean();
        self.expect(|&t| (t.into() - m).powi(2))
    }
}

impl Dist<u32> {
    /// The faces of one die, 1 to sides, equally likely.
    #[must_use]
    pub fn die(die: Die) -> Self {
        let p = 1.0 / f64::from(die.sides());
        Dist {
            outcomes: (1..=u32::from(die.sides())).map(|f| (f, p)).collect(),
        }
    }

    /// The total of a pool's counted dice, exactly, keep/drop included.
    ///
    /// The number of ordered throws giving each total is counted in exact integers whenever `sides^count`
    /// fits in 128 bits (up to 49d6, 38d10, 19d100, 12d1000), so each probability is the exact fraction
    /// rounded once; larger pools are worked in floating point from sums of non-negative terms.
    ///
    /// - Without keep/drop the die's polynomial is multiplied in `count` times, each a sliding window over the
    ///   totals so far: about count² × sides / 2 additions (20d6: about 1,200).
    /// - Keeping the `k` highest (or lowest) conditions on the value `v` of the kept die nearest the dropped
    ///   ones and on how many dice lie beyond it; for each `v` the kept dice beyond `v` form one polynomial
    ///   evaluated by Horner's rule: about k² × sides² / 4 additions (20d6 drop highest: about 2,600).
    ///
    /// Building allocates twice: one scratch buffer and the outcomes.
    ///
    /// This builds whatever it costs: the largest pools take minutes (`64d1000kh32` about four). For a pool
    /// a caller chose, use [`Dist::pool_within`] (or [`Pool::exact_odds`]), which estimates the work first
    /// and refuses beyond a [`WorkLimit`].
    #[must_use]
    pub fn pool(pool: Pool) -> Self {
        let n = pool.count();
        let sides = u32::from(pool.die().sides());
        let outcomes = match pool.keep() {
            Keep::Highest(k) | Keep::Lowest(k) if u32::from(k) == 0 => vec![(0, 1.0)],
            Keep::Highest(k) if u32::from(k) < n => exact::keep(n, sides, k.into(), false),
            Keep::Lowest(k) if u32::from(k) < n => exact::keep(n, sides, k.into(), true),
            _ => exact::sum(n, sides),
        };
        Dist { outcomes }
    }

    /// [`Dist::pool`], or [`OddsError::TooMuchWork`] without building anything when the pool's estimated work
    /// ([`Pool::odds_work`]) is over `limit`. The path for pools a caller chose (dice notation typed in, a
    /// loaded setting): [`Pool::exact_odds`] and [`crate::dice::DiceExpr::exact_odds`] call it with
    /// [`WorkLimit::DEFAULT`].
    pub fn pool_within(pool: Pool, limit: WorkLimit) -> Result<Self, OddsError> {
        limit.check(pool.odds_work(), pool)?;
        Ok(Dist::pool(pool))
    }

    /// How many of `count` dice of `die` show `target` or more (`1 <= target <= die.sides()`), exactly: the
    /// binomial counts `C(count, j) × hits^j × misses^(count - j)` over `sides^count` throws, in exact integers
    /// whenever that number fits in 128 bits.
    pub(crate) fn successes(count: u32, die: Die, target: u16) -> Self {
        let sides = u32::from(die.sides());
        let target = u32::from(target).clamp(1, sides);
        Dist {
            outcomes: exact::successes(count, sides, target),
        }
    }

    /// The number of successes in `n` independent trials of probability `p` each.
    ///
    /// Up to [`Dist::BINOMIAL_DIRECT`] trials each probability is `C(n, j) p^j (1-p)^(n-j)` computed
    /// directly (every term fits an `f64`). Beyond, the terms are walked out from the most likely count by
    /// the ratio of each to the next, `(n - j) / (j + 1) × p / (1 - p)`, until they round to nothing, then
    /// divided by their total: no term overflows, the work and the outcomes kept grow with the spread
    /// (about 75 standard deviations), not with `n`, and the result always adds up to 1.
    pub fn binomial(n: u32, p: f64) -> Result<Self, OddsError> {
        if !(0.0..=1.0).contains(&p) {
            return Err(OddsError::BadProbability(p));
        }
        if n <= Self::BINOMIAL_DIRECT {
            return Ok(Dist {
                outcomes: exact::successes_with(n, p, 1.0 - p, 1.0),
            });
        }
        if p == 0.0 || p == 1.0 {
            return Ok(Dist::certain(if p == 0.0 { 0 } else { n }));
        }
        let odds = p / (1.0 - p);
        // floor((n + 1) p) is a most likely count.
        let mode = ((f64::from(n) + 1.0) * p).floor().clamp(0.0, f64::from(n)) as u32;
        Ok(from_mode(0, n, mode, |j| {
            f64::from(n - j) / (f64::from(j) + 1.0) * odds
        }))
    }

    /// The most trials for which [`Dist::binomial`] computes each term directly.
    pub const BINOMIAL_DIRECT: u32 = 128;

    /// How many of `draws` items drawn without replacement from `population` items, `successes` of them
    /// marked, are marked (the hypergeometric distribution). `draws` and `successes` are capped at
    /// `population`.
    ///
    /// The terms are walked out from the most likely count by the ratio of each to the next,
    /// `(K - x)(d - x) / ((x + 1)(N - K - d + x + 1))`, until they round to nothing, then divided by their
    /// total: no factorial or binomial table is built, so no term overflows whatever the population.
    #[must_use]
    pub fn hypergeometric(population: u32, successes: u32, draws: u32) -> Self {
        let n = u64::from(population);
        let k = u64::from(successes.min(population));
        let d = u64::from(draws.min(population));
        let lo = d.saturating_sub(n - k);
        let hi = d.min(k);
        // floor((d + 1)(K + 1) / (N + 2)) is a most likely count.
        let mode = (u128::from(d + 1) * u128::from(k + 1) / u128::from(n + 2)) as u64;
        let mode = mode.clamp(lo, hi);
        from_mode(lo as u32, hi as u32, mode as u32, |x| {
            let x = u64::from(x);
            ((k - x) as f64 * (d - x) as f64) / ((x + 1) as f64 * (n - k - d + x + 1) as f64)
        })
    }

    /// A yes/no trial as a count: 1 with probability `p`, else 0.
    pub fn bernoulli(p: f64) -> Result<Self, OddsError> {
        Self::binomial(1, p)
    }
}

impl Dist<bool> {
    /// True with probability `p`.
    pub fn chance(p: f64) -> Result<Self, OddsError> {
        if !(0.0..=1.0).contains(&p) {
            return Err(OddsError::BadProbability(p));
        }
        Ok(Dist::from_raw(vec![(false, 1.0 - p), (true, p)]))
    }
}

impl<T: Ord + Clone + Add<Output = T>> Dist<T> {
    /// The distribution of the sum of the outcomes of this and `other`, independently.
    ///
    /// When both sets of outcomes are evenly spaced with the same step (as the totals of dice, counts of hits
    /// and every other distribution of whole numbers without gaps are), the sum is a dense convolution: the
    /// probability of the `k`-th total is the sum over `i` of the products of the `i`-th and `(k-i)`-th
    /// probabilities, with no list of pairs to sort. Other outcomes fall back to all pairs, sorted and merged.
    /// Outcomes are added with `+`, which is assumed to be the ordinary addition of numbers.
    #[must_use]
    pub fn add(&self, other: &Dist<T>) -> Dist<T> {
        match dense_sum(&self.outcomes, &other.outcomes) {
            Some(outcomes) => Dist { outcomes },
            None => self.zip_with(other, |a, b| a.clone() + b.clone()),
        }
    }

    /// The distribution of the sum of `n >= 1` independent copies (by repeated squaring, each step a dense
    /// convolution as in [`Dist::add`]). `n == 0` gives the distribution itself.
    #[must_use]
    pub fn sum_n(&self, n: u32) -> Dist<T> {
        let mut n = n.max(1);
        let mut base = self.clone();
        let mut acc: Option<Dist<T>> = None;
        while n > 0 {
            if n & 1 == 1 {
                acc = Some(match acc {
                    None => base.clone(),
                    Some(a) => a.add(&base),
                });
            }
            n >>= 1;
            if n > 0 {
                base = base.add(&base);
            }
        }
        acc.unwrap_or(base)
    }
}

/// One line of a distribution's table ([`Dist::table`]): an outcome with the chances of it, of it or more
/// and of it or less.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Row<'a, T> {
    /// The outcome.
    pub value: &'a T,
    /// P(outcome = value).
    pub p: f64,
    /// P(outcome ≥ value), summed from the largest outcome down (so a small tail keeps its digits).
    pub at_least: f64,
    /// P(outcome ≤ value), summed from the smallest outcome up.
    pub at_most: f64,
}

/// A probability as a person reads it: six decimals, or three significant digits in scientific form when
/// below 10⁻⁴ (so `0.004630`, `1.000000`, `4.572e-6`). Used by the table of [`Dist`]'s `Display` and by the
/// `acw odds` command.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct Prob(pub f64);

impl fmt::Display for Prob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.0;
        if p == 0.0 || p >= 1e-4 {
            write!(f, "{p:.6}")
        } else {
            write!(f, "{p:.3e}")
        }
    }
}

impl<T> Dist<T> {
    /// Every outcome with P(=), P(≥) and P(≤), in increasing order of outcome: the table a person reads
    /// (this is what `Display` prints).
    #[must_use]
    pub fn table(&self) -> Vec<Row<'_, T>> {
        let mut at_least = vec![0.0; self.outcomes.len()];
        let mut tail = 0.0;
        for (slot, (_, p)) in at_least.iter_mut().zip(&self.outcomes).rev() {
            tail += p;
            *slot = f64::min(tail, 1.0);
        }
        let mut head = 0.0;
        self.outcomes
            .iter()
            .zip(at_least)
            .map(|((value, p), at_least)| {
                head += p;
                Row {
                    value,
                    p: *p,
                    at_least,
                    at_most: f64::min(head, 1.0),
                }
            })
            .collect()
    }
}

/// A table of one line per outcome: the outcome, then P(=), P(≥) and P(≤), columns aligned.
///
/// ```
/// use acw_core::dice::Die;
/// use acw_core::odds::Dist;
/// let coin = Dist::die(Die::D2);
/// assert_eq!(
///     coin.to_string(),
///     [
///         "value      P(=)      P(≥)      P(≤)",
///         "    1  0.500000  1.000000  0.500000",
///         "    2  0.500000  0.500000  1.000000",
///         "",
///     ]
///     .join("\n")
/// );
/// ```
impl<T: fmt::Display> fmt::Display for Dist<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows = self.table();
        let values: Vec<String> = rows.iter().map(|r| r.value.to_string()).collect();
        let width = values
            .iter()
            .map(|v| v.chars().count())
            .max()
            .unwrap_or(0)
            .max("value".len());
        let shown: Vec<[String; 3]> = rows
            .iter()
            .map(|r| [r.p, r.at_least, r.at_most].map(|p| Prob(p).to_string()))
            .collect();
        let col = shown
            .iter()
            .flatten()
            .map(String::len)
            .max()
            .unwrap_or(0)
            .max("P(=)".len());
        writeln!(
            f,
            "{:>width$}  {:>col$}  {:>col$}  {:>col$}",
            "value", "P(=)", "P(≥)", "P(≤)"
        )?;
        for (value, [p, ge, le]) in values.iter().zip(&shown) {
            writeln!(f, "{value:>width$}  {p:>col$}  {ge:>col$}  {le:>col$}")?;
        }
        Ok(())
    }
}

/// The estimated work of [`Dist::pool`] for `pool`, in [`WorkLimit`] steps.
pub(crate) fn pool_work(pool: Pool) -> u64 {
    let kept = match pool.keep() {
        Keep::All => pool.count(),
        Keep::Highest(k) | Keep::Lowest(k) => u32::from(k),
    };
    exact::pool_work(pool.count(), u32::from(pool.die().sides()), kept)
}

/// The sum of two distributions as a dense convolution, or `None` when their outcomes are not on one evenly
/// spaced lattice (then the `k`-th total would not be the sum of the `i`-th and `(k-i)`-th outcomes).
///
/// Checked with `+` and `==` alone: `a[i+1] + b[0] == a[i] + b[1]` for every `i` and
/// `a[0] + b[j+1] == a[1] + b[j]` for every `j` say both lists step by the same amount; the totals built are
/// then checked to be strictly increasing.
fn dense_sum<T: Ord + Clone + Add<Output = T>>(
    a: &[(T, f64)],
    b: &[(T, f64)],
) -> Option<Vec<(T, f64)>> {
    let (n, m) = (a.len(), b.len());
    if n == 0 || m == 0 {
        return None;
    }
    let plus = |x: &T, y: &T| x.clone() + y.clone();
    if n >= 2 && m >= 2 {
        let a_even = a
            .windows(2)
            .all(|w| plus(&w[1].0, &b[0].0) == plus(&w[0].0, &b[1].0));
        let b_even = b
            .windows(2)
            .all(|w| plus(&a[0].0, &w[1].0) == plus(&a[1].0, &w[0].0));
        if !(a_even && b_even) {
            return None;
        }
    }
    let len = n + m - 1;
    let mut probs = vec![0.0f64; len];
    for (i, (_, p)) in a.iter().enumerate() {
        for (o, (_, q)) in probs[i..i + m].iter_mut().zip(b) {
            *o += p * q;
        }
    }
    let mut out: Vec<(T, f64)> = Vec::with_capacity(len);
    for (k, p) in probs.into_iter().enumerate() {
        let i = k.min(n - 1);
        let t = plus(&a[i].0, &b[k - i].0);
        if out.last().is_some_and(|(last, _)| *last >= t) {
            return None;
        }
        out.push((t, p));
    }
    out.retain(|(_, p)| *p > NEGLIGIBLE);
    Some(out)
}

/// The distribution over `lo..=hi` of a unimodal law given by `ratio(x)`, the weight of `x + 1` over the
/// weight of `x`: the weight of `mode` (a most likely outcome) is 1 and the others follow by the ratios,
/// walking out from it both ways until a weight rounds to zero (or the range ends); then all are divided by
/// their total (dropping any that then round to zero). Every weight lies in 0..=1 (up to rounding), so none
/// overflows, the total lies between 1 and the number of outcomes, and the mode is always kept: the result is
/// never empty and adds up to 1.
fn from_mode(lo: u32, hi: u32, mode: u32, ratio: impl Fn(u32) -> f64) -> Dist<u32> {
    let mut below: Vec<f64> = Vec::new();
    let mut w = 1.0f64;
    let mut x = mode;
    while x > lo {
        w /= ratio(x - 1);
        if !(w > 0.0 && w.is_finite()) {
            break;
        }
        below.push(w);
        x -= 1;
    }
    let mut outcomes: Vec<(u32, f64)> = Vec::with_capacity(below.len() + 1);
    let first = mode - below.len() as u32;
    outcomes.extend(
        below
            .iter()
            .rev()
            .enumerate()
            .map(|(i, &w)| (first + i as u32, w)),
    );
    outcomes.push((mode, 1.0));
    let (mut w, mut x) = (1.0f64, mode);
    while x < hi {
        w *= ratio(x);
        if !(w > 0.0 && w.is_finite()) {
            break;
        }
        x += 1;
        outcomes.push((x, w));
    }
    let total: f64 = outcomes.iter().map(|(_, w)| w).sum();
    outcomes.iter_mut().for_each(|(_, w)| *w /= total);
    // Weights at the edge of what an f64 holds may round to zero once divided; the mode's never does.
    outcomes.retain(|(_, p)| *p > 0.0);
    Dist { outcomes }
}

/// Draws outcomes of a [`Dist`] in constant time (Walker's alias method). Built once, used many times;
/// drawing allocates nothing.
#[derive(Clone, Debug)]
pub struct Sampler<T> {
    values: Vec<T>,
    /// Per slot: the threshold (scaled to u64) below which the slot's own value is taken, and the alias.
    table: Vec<(u64, u32)>,
}

impl<T: Clone> Sampler<T> {
    fn new(dist: &Dist<T>) -> Self {
        let n = dist.outcomes.len();
        let values: Vec<T> = dist.outcomes.iter().map(|(t, _)| t.clone()).collect();
        let mut scaled: Vec<f64> = dist.outcomes.iter().map(|(_, p)| p * n as f64).collect();
        let mut table = vec![(u64::MAX, 0u32); n];
        let (mut small, mut large): (Vec<usize>, Vec<usize>) =
            (0..n).partition(|&i| scaled[i] < 1.0);
        while let (Some(s), Some(&l)) = (small.pop(), large.last()) {
            table[s] = (to_threshold(scaled[s]), l as u32);
            scaled[l] -= 1.0 - scaled[s];
            if scaled[l] < 1.0 {
                large.pop();
                small.push(l);
            }
        }
        for i in small.into_iter().chain(large) {
            table[i] = (u64::MAX, i as u32);
        }
        Sampler { values, table }
    }

    /// One outcome, drawn with its probability.
    #[inline]
    pub fn sample<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> &T {
        let slot = crate::dice::uniform_below(rng, self.table.len() as u64) as usize;
        let (threshold, alias) = self.table[slot];
        if threshold == u64::MAX || rng.next_u64() < threshold {
            &self.values[slot]
        } else {
            &self.values[alias as usize]
        }
    }
}

fn to_threshold(p: f64) -> u64 {
    if p >= 1.0 {
        u64::MAX
    } else {
        (p.max(0.0) * 18_446_744_073_709_551_616.0) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;

    fn pool(n: u32, die: Die) -> Pool {
        match Pool::new(n, die) {
            Ok(p) => p,
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn three_d6_ten_is_27_in_216() {
        let d = Dist::pool(pool(3, Die::D6));
        assert_abs_diff_eq!(d.p(&10), 27.0 / 216.0, epsilon = 1e-12);
        assert_abs_diff_eq!(d.p(&3), 1.0 / 216.0, epsilon = 1e-12);
        assert_abs_diff_eq!(d.mean(), 10.5, epsilon = 1e-12);
        assert_abs_diff_eq!(d.variance(), 3.0 * 35.0 / 12.0, epsilon = 1e-12);
        assert_eq!((*d.min(), *d.max()), (3, 18));
    }

    #[test]
    fn three_d6_keep_lowest_two_by_hand() {
        // Counted by hand over the 216 ordered throws: the two lowest of three d6 total t.
        // P(total = 2) = P(at least two 1s) = (1 + 3*5)/216 = 16/216.
        // P(total = 12) = all three 6 = 1/216; P(total = 11) = two 6s and a 5 as lowest pair = 5+6: the
        // lowest two are {5,6} when the throw is a permutation of (5,6,6): 3/216.
        let p = match pool(3, Die::D6).keep_lowest(2) {
            Ok(p) => p,
            Err(e) => panic!("{e}"),
        };
        let d = Dist::pool(p);
        assert_abs_diff_eq!(d.p(&2), 16.0 / 216.0, epsilon = 1e-12);
        assert_abs_diff_eq!(d.p(&12), 1.0 / 216.0, epsilon = 1e-12);
        assert_abs_diff_eq!(d.p(&11), 3.0 / 216.0, epsilon = 1e-12);
        // Full check against brute force enumeration.
        let mut counts = [0u32; 13];
        for a in 1..=6u32 {
            for b in 1..=6 {
                for c in 1..=6 {
                    let mut v = [a, b, c];
                    v.sort_unstable();
                    counts[(v[0] + v[1]) as usize] += 1;
                }
            }
        }
        for (t, &c) in counts.iter().enumerate().skip(2) {
            assert_abs_diff_eq!(d.p(&(t as u32)), f64::from(c) / 216.0, epsilon = 1e-12);
        }
        assert_abs_diff_eq!(d.prob(|_| true), 1.0, epsilon = 1e-12);
    }

    #[test]
    fn two_d6_at_most_eight_is_26_in_36() {
        let d = Dist::die(Die::D6).sum_n(2);
        assert_abs_diff_eq!(d.cdf(&8), 26.0 / 36.0, epsilon = 1e-12);
        assert_abs_diff_eq!(d.prob(|&t| t <= 8), 26.0 / 36.0, epsilon = 1e-12);
        assert_eq!(*d.quantile(0.5), 7);
        assert_eq!(*d.quantile(0.0), 2);
        assert_eq!(*d.quantile(1.0), 12);
    }

    #[test]
    fn four_d6_keep_highest_three() {
        // Classic figures: 4d6kh3 = 18 with 21/1296, = 3 with 1/1296, mean 15869/1296.
        let p = match pool(4, Die::D6).keep_highest(3) {
            Ok(p) => p,
            Err(e) => panic!("{e}"),
        };
        let d = Dist::pool(p);
        assert_abs_diff_eq!(d.p(&18), 21.0 / 1296.0, epsilon = 1e-12);
        assert_abs_diff_eq!(d.p(&3), 1.0 / 1296.0, epsilon = 1e-12);
        assert_abs_diff_eq!(d.mean(), 15869.0 / 1296.0, epsilon = 1e-12);
    }

    /// The table a person reads, worked out by hand for 3d6: 10 comes up in 27 of 216 throws, 9 or less in 81.
    #[test]
    fn three_d6_table_by_hand() {
        let d = Dist::pool(pool(3, Die::D6));
        let text = d.to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 17);
        assert_eq!(lines[0], "value      P(=)      P(≥)      P(≤)");
        assert_eq!(lines[1], "    3  0.004630  1.000000  0.004630");
        // 27/216, 135/216, 108/216.
        assert_eq!(lines[8], "   10  0.125000  0.625000  0.500000");
        assert_eq!(lines[16], "   18  0.004630  0.004630  1.000000");
        let rows = d.table();
        assert_eq!(*rows[7].value, 10);
        assert_abs_diff_eq!(rows[7].at_least, 135.0 / 216.0, epsilon = 1e-15);
        // Chances below 10^-4 in scientific form: twenty sixes are 1 in 6^20.
        let twenty = Dist::pool(pool(20, Die::D6)).to_string();
        assert!(
            twenty
                .lines()
                .any(|l| l == "  120  2.735e-16  2.735e-16   1.000000"),
            "{twenty}"
        );
        assert_eq!(Prob(0.0).to_string(), "0.000000");
        assert_eq!(Prob(0.00012).to_string(), "0.000120");
    }

    #[test]
    fn binomial_and_hypergeometric() {
        let b = Dist::binomial(3, 1.0 / 3.0);
        let Ok(b) = b else { panic!("valid") };
        assert_abs_diff_eq!(b.p(&0), 8.0 / 27.0, epsilon = 1e-12);
        assert_abs_diff_eq!(b.p(&2), 6.0 / 27.0, epsilon = 1e-12);
        assert!(Dist::binomial(3, 1.5).is_err());
        // Two cards from 52, number of aces: P(2) = (4*3)/(52*51) = 1/221.
        let h = Dist::hypergeometric(52, 4, 2);
        assert_abs_diff_eq!(h.p(&2), 1.0 / 221.0, epsilon = 1e-12);
        assert_abs_diff_eq!(h.p(&0), (48.0 * 47.0) / (52.0 * 51.0), epsilon = 1e-12);
    }

    #[test]
    fn and_then_and_map() {
        // Roll a d6; on 5-6 roll another d6 and count it, else 0.
        let d = Dist::die(Die::D6).and_then(|&f| {
            if f >= 5 {
                Dist::die(Die::D6)
            } else {
                Dist::certain(0)
            }
        });
        assert_abs_diff_eq!(d.p(&0), 4.0 / 6.0, epsilon = 1e-12);
        assert_abs_diff_eq!(d.p(&3), 2.0 / 36.0, epsilon = 1e-12);
        let parity = Dist::die(Die::D6).map(|f| f % 2 == 0);
        assert_abs_diff_eq!(parity.p(&true), 0.5, epsilon = 1e-12);
        assert_eq!(parity.len(), 2);
        let Some(high) = Dist::die(Die::D6).given(|&f| f > 4) else {
            panic!("non-empty")
        };
        assert_abs_diff_eq!(high.p(&5), 0.5, epsilon = 1e-12);
    }

    #[test]
    fn weighted_refuses_bad_weights() {
        assert_eq!(Dist::<u32>::weighted(vec![]), Err(OddsError::Empty));
        assert_eq!(
            Dist::weighted(vec![(1u32, -1.0)]),
            Err(OddsError::BadWeight)
        );
        assert_eq!(Dist::weighted(vec![(1u32, 0.0)]), Err(OddsError::BadWeight));
        assert_eq!(
            Dist::weighted(vec![(1u32, f64::NAN)]),
            Err(OddsError::BadWeight)
        );
    }
}
