//! Test helpers for ruleset crates (feature `testing`).
//!
//! [`check_roll_matches_odds`] is the shared check that a [`Resolve`] procedure's fast `roll` agrees with its
//! exact `odds`. It samples with a fixed seed, so it is deterministic: it cannot flake, and a failure is a real
//! disagreement (or a tolerance set too tight).

use crate::odds::Dist;
use crate::{GameRng, Resolve};
use std::collections::BTreeMap;
use std::fmt::Debug;

/// The number of samples [`assert_roll_matches_odds`] draws.
pub const DEFAULT_SAMPLES: u32 = 60_000;

/// The seed the checks draw with.
pub const CHECK_SEED: u64 = 0x00AC_0C0D_E5EE_D001;

/// Samples `procedure.roll` `samples` times from a fixed seed and compares the frequency of every outcome with
/// `procedure.odds()`.
///
/// An outcome fails when its count lies more than 5 standard deviations (plus 2, for rare outcomes) from the
/// expected count, or when `roll` produced an outcome that `odds` gives no probability. The report lists every
/// failing outcome.
pub fn check_roll_matches_odds<P>(procedure: &P, samples: u32) -> Result<(), String>
where
    P: Resolve,
    P::Outcome: Ord + Clone + Debug,
{
    let odds = procedure.odds();
    check_sampler_matches(&odds, samples, |rng| procedure.roll(rng))
}

/// As [`check_roll_matches_odds`], for any sampling function against any distribution.
pub fn check_sampler_matches<T: Ord + Clone + Debug>(
    odds: &Dist<T>,
    samples: u32,
    mut roll: impl FnMut(&mut GameRng) -> T,
) -> Result<(), String> {
    let total: f64 = odds.outcomes().iter().map(|(_, p)| p).sum();
    if (total - 1.0).abs() > 1e-9 {
        return Err(format!("odds sum to {total}, not 1"));
    }
    let mut rng = GameRng::seed(CHECK_SEED);
    let mut seen: BTreeMap<T, u32> = BTreeMap::new();
    for _ in 0..samples {
        *seen.entry(roll(&mut rng)).or_default() += 1;
    }
    let n = f64::from(samples);
    let mut problems = Vec::new();
    for (outcome, p) in odds.outcomes() {
        let observed = f64::from(seen.remove(outcome).unwrap_or(0));
        let expected = n * p;
        let sd = (n * p * (1.0 - p)).sqrt();
        if (observed - expected).abs() > 5.0 * sd + 2.0 {
            problems.push(format!(
                "{outcome:?}: rolled {observed} times, expected {expected:.1} ± {sd:.1}"
            ));
        }
    }
    for (outcome, count) in seen {
        problems.push(format!(
            "{outcome:?}: rolled {count} times, odds give it no chance"
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

/// Panics with a report unless `procedure.roll` agrees with `procedure.odds()` over [`DEFAULT_SAMPLES`] draws.
#[track_caller]
pub fn assert_roll_matches_odds<P>(procedure: &P)
where
    P: Resolve,
    P::Outcome: Ord + Clone + Debug,
{
    if let Err(report) = check_roll_matches_odds(procedure, DEFAULT_SAMPLES) {
        panic!("roll and odds disagree:\n{report}");
    }
}

/// Panics unless `a` and `b` are within `eps` of each other, naming `what`.
#[track_caller]
pub fn assert_prob(what: &str, got: f64, want: f64) {
    assert!(
        (got - want).abs() <= 1e-12,
        "{what}: got {got}, want {want}"
    );
}
