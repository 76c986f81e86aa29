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

/// Panics unless `got` is within 1e-12 of `want` (a probability worked out by hand), naming `what`.
#[track_caller]
pub fn assert_prob(what: &str, got: f64, want: f64) {
    assert!(
        (got - want).abs() <= 1e-12,
        "{what}: got {got}, want {want}"
    );
}

/// The suite every [`crate::game::Ruleset`] must pass, and golden playthroughs (feature `testing` with `serde`).
#[cfg(feature = "serde")]
pub mod conformance {
    use crate::game::{Commander, Ruleset, play, resume};
    use crate::vocab::{BySide, Side};
    use serde::Serialize;
    use serde::de::DeserializeOwned;
    use std::fmt::Debug;
    use std::path::Path;

    /// Makes a side's commander for a game seed.
    pub type MakeCommander<'a, R> = &'a dyn Fn(Side, u64) -> Box<dyn Commander<R>>;

    /// Lists orders the rules must refuse in a state, for the side to order.
    pub type RefusedOrders<'a, R> =
        &'a dyn Fn(&<R as Ruleset>::State, Side) -> Vec<<R as Ruleset>::Order>;

    /// What the suite needs besides the ruleset and scenario.
    pub struct Suite<'a, R: Ruleset> {
        /// Seeds of the games to play.
        pub seeds: &'a [u64],
        /// The commanders of a game.
        pub commanders: MakeCommander<'a, R>,
        /// Orders the rules must refuse in a given state, for the side to order (may be empty for some states).
        pub refused_orders: RefusedOrders<'a, R>,
        /// Invariants every state must satisfy (no negative strength, casualties within bounds …).
        pub invariants: &'a dyn Fn(&R::State) -> Result<(), String>,
    }

    /// Runs the conformance suite, returning every failure found:
    ///
    /// 1. each seeded game plays to an outcome;
    /// 2. the same seed gives the same log;
    /// 3. a state saved (JSON) and loaded at several points resumes exactly as the original continues;
    /// 4. every refused order returns an error and changes neither state nor log;
    /// 5. the invariants hold after every order.
    pub fn run<R>(rules: &R, scenario: &R::Scenario, suite: &Suite<'_, R>) -> Result<(), String>
    where
        R: Ruleset,
        R::State: Serialize + DeserializeOwned + PartialEq + Debug,
        R::Event: Serialize + PartialEq + Debug,
    {
        let mut failures = Vec::new();
        for &seed in suite.seeds {
            if let Err(e) = one_seed(rules, scenario, suite, seed) {
                failures.push(format!("seed {seed}: {e}"));
            }
        }
        if failures.is_empty() {
            Ok(())
        } else {
            Err(failures.join("\n"))
        }
    }

    fn one_seed<R>(
        rules: &R,
        scenario: &R::Scenario,
        suite: &Suite<'_, R>,
        seed: u64,
    ) -> Result<(), String>
    where
        R: Ruleset,
        R::State: Serialize + DeserializeOwned + PartialEq + Debug,
        R::Event: Serialize + PartialEq + Debug,
    {
        let fresh = || {
            (
                (suite.commanders)(Side::Union, seed),
                (suite.commanders)(Side::Confederate, seed),
            )
        };
        // 1 and 2: plays to an outcome, twice, identically.
        let (mut u, mut c) = fresh();
        let first = play(rules, scenario, seed, BySide::new(u.as_mut(), c.as_mut()))
            .map_err(|e| e.to_string())?;
        let (mut u, mut c) = fresh();
        let second = play(rules, scenario, seed, BySide::new(u.as_mut(), c.as_mut()))
            .map_err(|e| e.to_string())?;
        if first.log != second.log || first.outcome != second.outcome {
            return Err("the same seed gave a different log".into());
        }
        if first.log.is_empty() {
            return Err("a whole game logged no events".into());
        }
        // 3, 4, 5: step through, checking refusals and invariants, saving at a few points.
        let total = first.orders.max(1);
        let save_points = [0, total / 3, (2 * total) / 3, total.saturating_sub(1)];
        let mut state = rules.setup(scenario, seed).map_err(|e| e.to_string())?;
        let mut log = Vec::new();
        let (mut u, mut c) = fresh();
        let mut commanders = BySide::new(u.as_mut(), c.as_mut());
        let mut n = 0u64;
        while rules.outcome(&state).is_none() {
            (suite.invariants)(&state).map_err(|e| format!("after order {n}: {e}"))?;
            let Some(side) = rules.to_order(&state) else {
                return Err("no side to order and no outcome".into());
            };
            for bad in (suite.refused_orders)(&state, side) {
                let before = state.clone();
                let before_log = log.len();
                if rules.apply(&mut state, bad, &mut log).is_ok() {
                    return Err(format!(
                        "order {n}: an order that must be refused was accepted"
                    ));
                }
                if state != before || log.len() != before_log {
                    return Err(format!("order {n}: a refused order changed the game"));
                }
            }
            if save_points.contains(&n) {
                check_save_load(rules, &state, seed, suite)?;
            }
            let order = commanders[side].order(rules, &state, side);
            rules
                .apply(&mut state, order, &mut log)
                .map_err(|e| format!("order {n} refused: {e}"))?;
            n += 1;
        }
        (suite.invariants)(&state).map_err(|e| format!("at the end: {e}"))?;
        if log != first.log {
            return Err("stepping through gave a different log from play".into());
        }
        Ok(())
    }

    fn check_save_load<R>(
        rules: &R,
        state: &R::State,
        seed: u64,
        suite: &Suite<'_, R>,
    ) -> Result<(), String>
    where
        R: Ruleset,
        R::State: Serialize + DeserializeOwned + PartialEq + Debug,
        R::Event: Serialize + PartialEq + Debug,
    {
        let saved = serde_json::to_string(state).map_err(|e| format!("save: {e}"))?;
        let loaded: R::State = serde_json::from_str(&saved).map_err(|e| format!("load: {e}"))?;
        if &loaded != state {
            return Err("a saved and loaded state differs from the original".into());
        }
        let run = |s: R::State| {
            let mut u = (suite.commanders)(Side::Union, seed);
            let mut c = (suite.commanders)(Side::Confederate, seed);
            resume(rules, s, Vec::new(), BySide::new(u.as_mut(), c.as_mut()))
        };
        let a = run(state.clone()).map_err(|e| e.to_string())?;
        let b = run(loaded).map_err(|e| e.to_string())?;
        if a.log != b.log || a.outcome != b.outcome {
            return Err("a loaded game continued differently from the original".into());
        }
        Ok(())
    }

    /// A golden playthrough: plays `seed` and compares the log (one JSON event per line, then the outcome) with
    /// the file at `path`. With the environment variable `ACW_BLESS=1` the file is (re)written instead.
    pub fn golden<R>(
        rules: &R,
        scenario: &R::Scenario,
        seed: u64,
        commanders: MakeCommander<'_, R>,
        path: &Path,
    ) -> Result<(), String>
    where
        R: Ruleset,
        R::Event: Serialize,
    {
        let mut u = commanders(Side::Union, seed);
        let mut c = commanders(Side::Confederate, seed);
        let played = play(rules, scenario, seed, BySide::new(u.as_mut(), c.as_mut()))
            .map_err(|e| e.to_string())?;
        let mut text = String::new();
        for e in &played.log {
            text.push_str(&serde_json::to_string(e).map_err(|e| e.to_string())?);
            text.push('\n');
        }
        text.push_str(&format!("outcome: {}\n", played.outcome));
        if std::env::var("ACW_BLESS").is_ok_and(|v| v == "1") {
            std::fs::write(path, &text).map_err(|e| format!("{}: {e}", path.display()))?;
            return Ok(());
        }
        let want = std::fs::read_to_string(path).map_err(|e| {
            format!(
                "{}: {e} (run with ACW_BLESS=1 to record it)",
                path.display()
            )
        })?;
        if want == text {
            return Ok(());
        }
        let line = want
            .lines()
            .zip(text.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(want.lines().count().min(text.lines().count()));
        Err(format!(
            "{}: the playthrough changed at line {} (ACW_BLESS=1 re-records it if the change is deliberate)",
            path.display(),
            line + 1
        ))
    }
}
