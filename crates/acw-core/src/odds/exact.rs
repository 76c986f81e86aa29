//! Exact distributions of pools by counting ordered throws.
//!
//! Each algorithm counts, for every outcome, how many of the `sides^count` equally likely ordered throws give
//! it: in `u64` when `sides^count` fits, else in `u128` when that fits (up to 24d6 and 49d6; 19d100; 12d1000),
//! so the counts are exact integers and each probability is one rounded division away from the true
//! fraction. Larger pools are worked in `f64` probabilities by sums of non-negative terms only (no
//! cancellation), at a higher cost.
//!
//! Every function allocates one scratch buffer and the vector of outcomes it returns.

use std::ops::{Add, Mul};

/// A number of ordered throws (an exact integer) or, for pools too large to count, a probability.
pub(super) trait Weight: Copy + PartialEq + Add<Output = Self> + Mul<Output = Self> {
    /// No throws.
    const ZERO: Self;
    /// `x` throws (a probability weight type rounds).
    fn int(x: u64) -> Self;
    /// As a float, for the final division by the number of throws.
    fn to_f64(self) -> f64;
    /// Multiplies the polynomial `p` by `one × (x + x² + … + x^w)`: `out[t] = one × Σ_{f=1..=w} p[t-f]` for
    /// `t` in `0..p.len() + w`. `out` must have at least that length.
    fn spread(p: &[Self], w: usize, one: Self, out: &mut [Self]);
}

macro_rules! integer_weight {
    ($t:ty) => {
        impl Weight for $t {
            const ZERO: Self = 0;
            #[inline]
            fn int(x: u64) -> Self {
                x.into()
            }
            #[inline]
            fn to_f64(self) -> f64 {
                self as f64
            }
            /// A sliding window: each output is the previous one plus the entry entering the window minus the
            /// one leaving it, exact in integers. `one` is always 1 for counts.
            fn spread(p: &[Self], w: usize, _one: Self, out: &mut [Self]) {
                let l = p.len();
                let out = &mut out[..l + w];
                let mut s: Self = 0;
                let head = w.min(l);
                for (o, &x) in out[..head].iter_mut().zip(&p[..head]) {
                    *o = s;
                    s += x;
                }
                if w < l {
                    for ((o, &enter), &leave) in out[w..l].iter_mut().zip(&p[w..]).zip(&p[..l - w])
                    {
                        *o = s;
                        s = s + enter - leave;
                    }
                } else {
                    for o in &mut out[l..w] {
                        *o = s;
                    }
                }
                let from = w.max(l);
                for (o, &leave) in out[from..].iter_mut().zip(&p[from - w..]) {
                    *o = s;
                    s -= leave;
                }
            }
        }
    };
}
integer_weight!(u64);
integer_weight!(u128);

impl Weight for f64 {
    const ZERO: Self = 0.0;
    #[inline]
    fn int(x: u64) -> Self {
        x as f64
    }
    #[inline]
    fn to_f64(self) -> f64 {
        self
    }
    /// Direct sums, so no probability is computed as a difference of larger ones.
    fn spread(p: &[Self], w: usize, one: Self, out: &mut [Self]) {
        let out = &mut out[..p.len() + w];
        out.iter_mut().for_each(|o| *o = 0.0);
        for (i, &x) in p.iter().enumerate() {
            let x = x * one;
            for o in &mut out[i + 1..=i + w] {
                *o += x;
            }
        }
    }
}

/// How the weights of a pool of `count` dice of `sides` sides are kept: the type, the weight of one face, and
/// what the final weights are divided by.
enum Scale {
    U64(u64),
    U128(u128),
    Float,
}

fn scale(count: u32, sides: u32) -> Scale {
    if let Some(t) = u64::from(sides).checked_pow(count) {
        Scale::U64(t)
    } else if let Some(t) = u128::from(sides).checked_pow(count) {
        Scale::U128(t)
    } else {
        Scale::Float
    }
}

/// The estimated work of building the distribution of `count` dice of `sides` sides keeping `keep` of them
/// (`keep == count` for a plain sum), in steps of about one addition or multiplication of two weights, with
/// the number type the build will use: a step on `u128` counts as two, on `u64` or `f64` as one. The
/// estimate follows the loops of [`sum_with`] and [`keep_with`] term by term, so it is computed in a few
/// thousand operations at most, before anything is built. Saturates at `u64::MAX`.
pub(super) fn pool_work(count: u32, sides: u32, keep: u32) -> u64 {
    let (n, s) = (u128::from(count), u128::from(sides));
    let float = matches!(scale(count, sides), Scale::Float);
    let weight: u128 = match scale(count, sides) {
        Scale::U128(_) => 2,
        _ => 1,
    };
    let steps: u128 = if keep >= count || keep == 0 {
        // `count` spreads of a polynomial of i × s + 1 entries by a window of s: a sliding window costs the
        // length plus the window, a direct float sum the length times the window.
        (0..n)
            .map(|i| {
                let len = i * s + 1;
                if float { len * s } else { len + s }
            })
            .sum()
    } else {
        let (k, d) = (u128::from(keep), n - u128::from(keep));
        (0..s)
            .map(|w| {
                let top = if w == 0 { 0 } else { k - 1 };
                // One weight of d + 1 terms per a, then `top` spreads of a polynomial growing by w each time.
                let weights = (top + 1) * (d + 1);
                let spreads: u128 = (0..top)
                    .map(|j| {
                        let len = 1 + j * w;
                        if float { len * w } else { len + w }
                    })
                    .sum();
                weights + spreads + top * w + 1
            })
            .sum()
    };
    u64::try_from(steps.saturating_mul(weight)).unwrap_or(u64::MAX)
}

/// Outcomes `first + i` for the non-zero `weights[i]`, each divided by `total`, in order (or in reverse order
/// of `i` mapped to `first - i` when `reverse`).
fn emit<W: Weight>(weights: &[W], first: u32, total: f64, reverse: bool) -> Vec<(u32, f64)> {
    let n = weights.iter().filter(|w| **w != W::ZERO).count();
    let mut out = Vec::with_capacity(n);
    let mut push = |i: usize, w: &W| {
        if *w != W::ZERO {
            let i = i as u32;
            let t = if reverse { first - i } else { first + i };
            out.push((t, w.to_f64() / total));
        }
    };
    if reverse {
        weights
            .iter()
            .enumerate()
            .rev()
            .for_each(|(i, w)| push(i, w));
    } else {
        weights.iter().enumerate().for_each(|(i, w)| push(i, w));
    }
    out
}

/// The total of `count` dice of `sides` sides: `count` multiplications by one die's polynomial.
pub(super) fn sum(count: u32, sides: u32) -> Vec<(u32, f64)> {
    match scale(count, sides) {
        Scale::U64(t) => sum_with::<u64>(count, sides, 1, t as f64),
        Scale::U128(t) => sum_with::<u128>(count, sides, 1, t as f64),
        Scale::Float => sum_with::<f64>(count, sides, 1.0 / f64::from(sides), 1.0),
    }
}

fn sum_with<W: Weight>(count: u32, sides: u32, one: W, total: f64) -> Vec<(u32, f64)> {
    let (n, s) = (count as usize, sides as usize);
    let len = n * s + 1;
    let mut scratch = vec![W::ZERO; 2 * len];
    let (mut p, mut q) = scratch.split_at_mut(len);
    p[0] = W::int(1);
    for i in 0..n {
        W::spread(&p[..i * s + 1], s, one, q);
        std::mem::swap(&mut p, &mut q);
    }
    emit(&p[n..], count, total, false)
}

/// The total of the `keep` highest (or, with `lowest`, lowest) of `count` dice of `sides` sides, `keep < count`.
///
/// Condition on `v`, the value of the kept die nearest the dropped ones (the `keep`-th highest), and on `a`,
/// how many dice show more than `v` (`a < keep`). Those `a` dice are any faces above `v`; of the other
/// `count - a`, at least `keep - a` show `v` and the rest (at most `count - keep`) show less. So the kept
/// total is `keep × v` plus the sum of the `a` dice above `v`, each taking `1..=sides - v` over `v`, and the
/// number of throws is `C(count, a) × G(v, a) × (ways for the a dice)` with
/// `G(v, a) = Σ_{c=0}^{count-keep} C(count - a, c) (v - 1)^c` (`c` dice below `v`, the rest at `v`).
/// For each `v` the sum over `a` is a polynomial in the dice above, evaluated by Horner's rule with one
/// multiplication by a die's polynomial per `a`. Keep-lowest is keep-highest of the faces read upside down
/// (`f` as `sides + 1 - f`).
pub(super) fn keep(count: u32, sides: u32, keep: u32, lowest: bool) -> Vec<(u32, f64)> {
    match scale(count, sides) {
        Scale::U64(t) => keep_with::<u64>(count, sides, keep, lowest, 1, t as f64),
        Scale::U128(t) => keep_with::<u128>(count, sides, keep, lowest, 1, t as f64),
        Scale::Float => keep_with::<f64>(count, sides, keep, lowest, 1.0 / f64::from(sides), 1.0),
    }
}

fn keep_with<W: Weight>(
    count: u32,
    sides: u32,
    keep: u32,
    lowest: bool,
    one: W,
    total: f64,
) -> Vec<(u32, f64)> {
    let (n, s, k) = (count as usize, sides as usize, keep as usize);
    let d = n - k;
    let len = k * s + 1;
    let cols = d + 1;
    let mut scratch = vec![W::ZERO; 3 * len + (n + 1) * cols + 2 * (n + 1)];
    let (result, rest) = scratch.split_at_mut(len);
    let (mut p, rest) = rest.split_at_mut(len);
    let (mut q, rest) = rest.split_at_mut(len);
    let (choose, rest) = rest.split_at_mut((n + 1) * cols);
    let (row, one_pow) = rest.split_at_mut(n + 1);
    pascal_row(n, row);
    // choose[m * cols + c] = C(m, c) for c <= d, by Pascal's rule.
    for m in 0..=n {
        choose[m * cols] = W::int(1);
        for c in 1..=d.min(m) {
            choose[m * cols + c] = choose[(m - 1) * cols + c - 1] + choose[(m - 1) * cols + c];
        }
    }
    let mut o = W::int(1);
    for e in one_pow.iter_mut() {
        *e = o;
        o = o * one;
    }
    // The weight of the throws with `a` dice above `v`, before the ways of those `a` dice.
    let weight = |v: usize, a: usize| {
        let below = W::int(v as u64 - 1) * one;
        let m = n - a;
        let mut g = W::ZERO;
        let mut below_pow = W::int(1);
        for c in 0..=d {
            g = g + choose[m * cols + c] * below_pow * one_pow[m - c];
            below_pow = below_pow * below;
        }
        row[a] * g
    };
    for v in 1..=s {
        let w = s - v;
        let top = if w == 0 { 0 } else { k - 1 };
        p[0] = weight(v, top);
        let mut plen = 1;
        for a in (0..top).rev() {
            W::spread(&p[..plen], w, one, q);
            plen += w;
            q[0] = weight(v, a);
            std::mem::swap(&mut p, &mut q);
        }
        for (r, &x) in result[k * v..k * v + plen].iter_mut().zip(&p[..plen]) {
            *r = *r + x;
        }
    }
    if lowest {
        emit(&result[k..], (k * s) as u32, total, true)
    } else {
        emit(&result[k..], keep, total, false)
    }
}

/// `row[i]` = C(n, i) for `i` in `0..=n`, by Pascal's rule in place (additions only, exact in integers).
fn pascal_row<W: Weight>(n: usize, row: &mut [W]) {
    row[0] = W::int(1);
    for m in 1..=n {
        row[m] = W::int(1);
        for i in (1..m).rev() {
            row[i] = row[i] + row[i - 1];
        }
    }
}

/// How many of `count` dice of `sides` sides show `target` or more (`1 <= target <= sides`): the binomial
/// counts `C(count, j) × hits^j × misses^(count - j)`.
pub(super) fn successes(count: u32, sides: u32, target: u32) -> Vec<(u32, f64)> {
    let hits = u64::from(sides - target + 1);
    let misses = u64::from(target - 1);
    match scale(count, sides) {
        Scale::U64(t) => successes_with::<u64>(count, hits, misses, t as f64),
        Scale::U128(t) => successes_with::<u128>(count, hits.into(), misses.into(), t as f64),
        Scale::Float => {
            let s = f64::from(sides);
            successes_with::<f64>(count, hits as f64 / s, misses as f64 / s, 1.0)
        }
    }
}

/// The binomial weights `C(n, j) hit^j miss^(n-j)`, `j = 0..=n`, divided by `total`.
pub(super) fn successes_with<W: Weight>(
    count: u32,
    hit: W,
    miss: W,
    total: f64,
) -> Vec<(u32, f64)> {
    let n = count as usize;
    let mut scratch = vec![W::ZERO; 2 * (n + 1)];
    let (row, miss_pow) = scratch.split_at_mut(n + 1);
    pascal_row(n, row);
    miss_pow[0] = W::int(1);
    for e in 1..=n {
        miss_pow[e] = miss_pow[e - 1] * miss;
    }
    let mut hit_pow = W::int(1);
    for (j, c) in row.iter_mut().enumerate() {
        if j > 0 {
            hit_pow = hit_pow * hit;
        }
        *c = *c * hit_pow * miss_pow[n - j];
    }
    emit(row, 0, total, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ordered throws of `count` dice of `sides` sides giving each kept total, by listing every throw.
    fn brute(
        count: u32,
        sides: u32,
        keep: u32,
        lowest: bool,
    ) -> std::collections::BTreeMap<u32, u64> {
        let mut out = std::collections::BTreeMap::new();
        let mut faces = vec![1u32; count as usize];
        loop {
            let mut sorted = faces.clone();
            sorted.sort_unstable();
            if !lowest {
                sorted.reverse();
            }
            *out.entry(sorted[..keep as usize].iter().sum()).or_insert(0) += 1;
            // next throw, as an odometer
            let mut i = 0;
            while i < faces.len() && faces[i] == sides {
                faces[i] = 1;
                i += 1;
            }
            if i == faces.len() {
                return out;
            }
            faces[i] += 1;
        }
    }

    /// Every keep/drop of up to 5 dice of up to 6 sides: each probability times sides^count is the whole
    /// number of throws counted by listing them all.
    #[test]
    fn keep_counts_every_throw_exactly() {
        for count in 1..=5u32 {
            for sides in 2..=6u32 {
                let throws = f64::from(sides.pow(count));
                for keep in 1..count {
                    for lowest in [false, true] {
                        let expected = brute(count, sides, keep, lowest);
                        let got = super::keep(count, sides, keep, lowest);
                        let got_counts: Vec<(u32, u64)> = got
                            .iter()
                            .map(|&(t, p)| (t, (p * throws).round() as u64))
                            .collect();
                        let want: Vec<(u32, u64)> = expected.into_iter().collect();
                        assert_eq!(
                            got_counts, want,
                            "{count}d{sides} keep {keep} lowest {lowest}"
                        );
                        for &(t, p) in &got {
                            let c = want.iter().find(|w| w.0 == t).map_or(0, |w| w.1);
                            assert!((p - c as f64 / throws).abs() < 1e-15);
                        }
                    }
                }
                let sum = super::sum(count, sides);
                let want: Vec<(u32, u64)> = brute(count, sides, count, false).into_iter().collect();
                let got: Vec<(u32, u64)> = sum
                    .iter()
                    .map(|&(t, p)| (t, (p * throws).round() as u64))
                    .collect();
                assert_eq!(got, want, "{count}d{sides}");
            }
        }
    }

    /// The three number types give the same distribution where all apply: the floating-point path (used only
    /// for pools too large to count) agrees with the exact counts to 1e-15, the two integer types exactly.
    #[test]
    fn float_and_wide_paths_agree_with_exact_counts() {
        for (count, sides, keep, lowest) in [
            (20, 6, 19, true),
            (20, 6, 19, false),
            (12, 10, 3, false),
            (9, 20, 1, true),
            (15, 8, 7, true),
        ] {
            let throws = u64::from(sides).pow(count);
            let exact = keep_with::<u64>(count, sides, keep, lowest, 1, throws as f64);
            let wide = keep_with::<u128>(count, sides, keep, lowest, 1, throws as f64);
            let float = keep_with::<f64>(count, sides, keep, lowest, 1.0 / f64::from(sides), 1.0);
            assert_eq!(exact, wide);
            assert_eq!(exact.len(), float.len());
            for (e, f) in exact.iter().zip(&float) {
                assert_eq!(e.0, f.0);
                assert!((e.1 - f.1).abs() < 1e-15, "{count}d{sides} {e:?} {f:?}");
            }
            let sum_exact = sum_with::<u64>(count, sides, 1, throws as f64);
            let sum_float = sum_with::<f64>(count, sides, 1.0 / f64::from(sides), 1.0);
            for (e, f) in sum_exact.iter().zip(&sum_float) {
                assert!(e.0 == f.0 && (e.1 - f.1).abs() < 1e-15);
            }
        }
        // 30d8 counting 4+: five hitting faces and three missing ones of eight.
        let exact = successes_with::<u128>(30, 5, 3, 8f64.powi(30));
        let float = successes_with::<f64>(30, 5.0 / 8.0, 3.0 / 8.0, 1.0);
        for (e, f) in exact.iter().zip(&float) {
            assert!(e.0 == f.0 && (e.1 - f.1).abs() < 1e-15);
        }
    }

    /// Which number type a pool is counted in: exact integers up to 128 bits.
    #[test]
    fn pools_are_counted_in_integers_while_they_fit() {
        assert!(matches!(scale(24, 6), Scale::U64(_)));
        assert!(matches!(scale(25, 6), Scale::U128(_)));
        assert!(matches!(scale(49, 6), Scale::U128(_)));
        assert!(matches!(scale(50, 6), Scale::Float));
        assert!(matches!(scale(19, 100), Scale::U128(_)));
        assert!(matches!(scale(12, 1000), Scale::U128(_)));
        assert!(matches!(scale(13, 1000), Scale::Float));
    }
}
