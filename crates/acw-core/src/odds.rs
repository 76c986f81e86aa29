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
    /// A probability outside 0..=1 was given.
    #[error("a probability must lie in 0..=1, not {0}")]
    BadProbability(f64),
}

/// An exact finite probability distribution over outcomes of type `T`.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Dist<T> {
    /// Sorted by outcome, outcomes distinct, probabilities positive and summing to 1.
    outcomes: Vec<(T, f64)>,
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
        let total: f64 = v.iter().map(|(_, w)| w).sum();
        if total <= 0.0 {
            return Err(OddsError::BadWeight);
        }
        v.iter_mut().for_each(|(_, w)| *w /= total);
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
    pub fn min(&self) -> &T {
        &self.outcomes[0].0
    }

    /// The largest outcome.
    pub fn max(&self) -> &T {
        &self.outcomes[self.outcomes.len() - 1].0
    }
}

impl<T> Dist<T> {
    /// The outcomes with their probabilities, sorted by outcome.
    pub fn outcomes(&self) -> &[(T, f64)] {
        &self.outcomes
    }

    /// The number of distinct outcomes.
    pub fn len(&self) -> usize {
        self.outcomes.len()
    }

    /// Never true: a distribution has at least one outcome.
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
    pub fn sampler(&self) -> Sampler<T>
    where
        T: Clone,
    {
        Sampler::new(self)
    }
}

impl<T: Copy + Into<f64>> Dist<T> {
    /// The mean outcome.
    pub fn mean(&self) -> f64 {
        self.expect(|&t| t.into())
    }

    /// The variance of the outcome.
    pub fn variance(&self) -> f64 {
        let m = self.mean();
        self.expect(|&t| (t.into() - m).powi(2))
    }
}

impl Dist<u32> {
    /// The faces of one die, 1 to sides, equally likely.
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
    pub fn binomial(n: u32, p: f64) -> Result<Self, OddsError> {
        if !(0.0..=1.0).contains(&p) {
            return Err(OddsError::BadProbability(p));
        }
        Ok(Dist {
            outcomes: exact::successes_with(n, p, 1.0 - p, 1.0),
        })
    }

    /// How many of `draws` items drawn without replacement from `population` items, `successes` of them
    /// marked, are marked (the hypergeometric distribution). `draws` and `successes` are capped at
    /// `population`.
    pub fn hypergeometric(population: u32, successes: u32, draws: u32) -> Self {
        let n = population as usize;
        let k = successes.min(population) as usize;
        let d = draws.min(population) as usize;
        let choose = binomial_table(n);
        let all = choose[n][d];
        let lo = d.saturating_sub(n - k);
        let hi = d.min(k);
        Dist::from_raw(
            (lo..=hi)
                .map(|x| (x as u32, choose[k][x] * choose[n - k][d - x] / all))
                .collect(),
        )
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
    pub fn add(&self, other: &Dist<T>) -> Dist<T> {
        match dense_sum(&self.outcomes, &other.outcomes) {
            Some(outcomes) => Dist { outcomes },
            None => self.zip_with(other, |a, b| a.clone() + b.clone()),
        }
    }

    /// The distribution of the sum of `n >= 1` independent copies (by repeated squaring, each step a dense
    /// convolution as in [`Dist::add`]). `n == 0` gives the distribution itself.
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

/// `table[n][k]` = C(n, k) as f64, for n up to `n`.
fn binomial_table(n: usize) -> Vec<Vec<f64>> {
    let mut t = vec![vec![1.0f64]];
    for i in 1..=n {
        let prev = &t[i - 1];
        let mut row = vec![1.0f64; i + 1];
        for k in 1..i {
            row[k] = prev[k - 1] + prev[k];
        }
        t.push(row);
    }
    t
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
