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

/// Replays a fuzz target's committed seed corpus as an ordinary test: reads every file of `dir` in name order
/// and gives its bytes to `check` (the same check the fuzz target runs), so CI exercises the corpus without
/// cargo-fuzz. Panics if the directory cannot be read or holds fewer than `at_least` inputs (a corpus that went
/// missing must fail the test, not pass it empty). Returns how many inputs were checked.
#[track_caller]
pub fn replay_corpus(
    dir: impl AsRef<std::path::Path>,
    at_least: usize,
    mut check: impl FnMut(&[u8]),
) -> usize {
    let dir = dir.as_ref();
    let mut entries: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("the corpus at {} cannot be read: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    entries.sort();
    assert!(
        entries.len() >= at_least,
        "the corpus at {} holds {} inputs; it should hold at least {at_least}",
        dir.display(),
        entries.len()
    );
    for path in &entries {
        let bytes = std::fs::read(path)
            .unwrap_or_else(|e| panic!("the corpus input {} cannot be read: {e}", path.display()));
        check(&bytes);
    }
    entries.len()
}

/// The suite every [`crate::game::Ruleset`] must pass, and golden playthroughs (feature `testing` with `serde`).
#[cfg(feature = "serde")]
pub mod conformance {
    use crate::dice::Scripted;
    use crate::game::{
        Commander, Dicing, Game, Owed, Ruleset, SavedGameOf, Submitted, Throw, ThrowError, play,
        resume,
    };
    use crate::vocab::{BySide, Side};
    use serde::Serialize;
    use serde::de::DeserializeOwned;
    use std::fmt::Debug;
    use std::path::Path;

    /// Makes a side's commander for a game seed.
    pub type MakeCommander<'a, R> = &'a dyn Fn(Side, u64) -> Box<dyn Commander<R>>;

    /// Lists orders the rules must refuse in a state, for the side that owes the decision.
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
    /// 1. each seeded game plays to an outcome, and the same seed gives the same log;
    /// 2. stepping through the game with the [`Game`] driver gives the same log as [`play`];
    /// 3. every refused order comes back unchanged with its reason, and changes neither state nor log; so does an
    ///    order given by the side that does not owe the decision;
    /// 4. the game saved (JSON) and loaded at several points — among them points where the side owing the
    ///    decision changes, such as a pause for the defender — continues exactly as the original;
    /// 5. the invariants hold after every order;
    /// 6. the same game played at the table ([`Dicing::AtTheTable`]), every face given one at a time, gives the
    ///    same log; a face the wanted die cannot show, a face when none is wanted and a card when a face is
    ///    wanted are refused and change nothing; a game saved while an order waits for a face loads and waits for
    ///    the same face.
    pub fn run<R>(rules: &R, scenario: &R::Scenario, suite: &Suite<'_, R>) -> Result<(), String>
    where
        R: Ruleset + Clone,
        R::State: Serialize + DeserializeOwned + PartialEq + Debug,
        R::Event: Serialize + DeserializeOwned + PartialEq + Debug + Clone,
        R::Order: Serialize + DeserializeOwned + PartialEq + Debug + Clone,
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

    fn fresh<R: Ruleset>(
        suite: &Suite<'_, R>,
        seed: u64,
    ) -> (Box<dyn Commander<R>>, Box<dyn Commander<R>>) {
        (
            (suite.commanders)(Side::Union, seed),
            (suite.commanders)(Side::Confederate, seed),
        )
    }

    fn one_seed<R>(
        rules: &R,
        scenario: &R::Scenario,
        suite: &Suite<'_, R>,
        seed: u64,
    ) -> Result<(), String>
    where
        R: Ruleset + Clone,
        R::State: Serialize + DeserializeOwned + PartialEq + Debug,
        R::Event: Serialize + DeserializeOwned + PartialEq + Debug + Clone,
        R::Order: Serialize + DeserializeOwned + PartialEq + Debug + Clone,
    {
        // 1: plays to an outcome, twice, identically.
        let (mut u, mut c) = fresh(suite, seed);
        let first = play(rules, scenario, seed, BySide::new(u.as_mut(), c.as_mut()))
            .map_err(|e| e.to_string())?;
        let (mut u, mut c) = fresh(suite, seed);
        let second = play(rules, scenario, seed, BySide::new(u.as_mut(), c.as_mut()))
            .map_err(|e| e.to_string())?;
        if first.log != second.log || first.outcome != second.outcome {
            return Err("the same seed gave a different log".into());
        }
        if first.log.is_empty() {
            return Err("a whole game logged no events".into());
        }
        // 2 to 5: step through with the driver, recording the dice of every order.
        let total = first.orders.max(1);
        let save_points = [0, total / 3, (2 * total) / 3, total.saturating_sub(1)];
        let mut game = Game::new(rules.clone(), scenario, seed).map_err(|e| e.to_string())?;
        let (mut u, mut c) = fresh(suite, seed);
        let mut commanders = BySide::new(u.as_mut(), c.as_mut());
        let mut dice: Vec<Vec<Scripted>> = Vec::new();
        let mut last_side = None;
        let mut switches_saved = 0;
        loop {
            let n = game.orders();
            (suite.invariants)(game.state()).map_err(|e| format!("after order {n}: {e}"))?;
            let side = match game.owed() {
                Owed::Over(_) => break,
                Owed::Decision(d) => d.side,
                other => return Err(format!("order {n}: the seeded game owes {other}")),
            };
            for bad in (suite.refused_orders)(game.state(), side) {
                refuse(&mut game, side, bad, n)?;
            }
            let order = commanders[side].order(game.rules(), game.state(), side);
            // The same order from the side that does not owe the decision.
            refuse(&mut game, side.enemy(), order.clone(), n)?;
            let switched = last_side.is_some_and(|s| s != side);
            if save_points.contains(&n) || (switched && switches_saved < 4) {
                switches_saved += usize::from(switched);
                check_save_load(&game, suite, seed)?;
            }
            last_side = Some(side);
            let used = game
                .submit_recorded(side, order)
                .map_err(|e| format!("order {n} refused: {e}"))?;
            dice.push(used);
        }
        (suite.invariants)(game.state()).map_err(|e| format!("at the end: {e}"))?;
        if game.log() != first.log.as_slice() {
            return Err("stepping through gave a different log from play".into());
        }
        // 6: the same game at the table.
        at_the_table(rules, scenario, suite, seed, &dice, &first.log)
    }

    /// Checks that `order` from `side` is refused, comes back unchanged, and changes nothing.
    fn refuse<R>(game: &mut Game<R>, side: Side, order: R::Order, n: u64) -> Result<(), String>
    where
        R: Ruleset,
        R::State: PartialEq,
        R::Order: PartialEq + Debug + Clone,
    {
        let before = game.state().clone();
        let before_log = game.log().len();
        if game.check(side, &order).is_ok() {
            return Err(format!(
                "order {n}: check accepts an order that must be refused: {order:?}"
            ));
        }
        match game.submit(side, order.clone()) {
            Ok(_) => {
                return Err(format!(
                    "order {n}: an order that must be refused was accepted: {order:?}"
                ));
            }
            Err(refused) => {
                if refused.order != order {
                    return Err(format!("order {n}: a refused order came back changed"));
                }
                if refused.reason.to_string().is_empty() {
                    return Err(format!("order {n}: a refusal gave no reason"));
                }
            }
        }
        if game.state() != &before || game.log().len() != before_log {
            return Err(format!("order {n}: a refused order changed the game"));
        }
        Ok(())
    }

    fn reload<R>(game: &Game<R>) -> Result<Game<R>, String>
    where
        R: Ruleset + Clone,
        R::State: Serialize + DeserializeOwned,
        R::Event: Serialize + DeserializeOwned + Clone,
        R::Order: Serialize + DeserializeOwned + Clone + Debug,
    {
        let saved = serde_json::to_string(&game.to_saved()).map_err(|e| format!("save: {e}"))?;
        let loaded: SavedGameOf<R> =
            serde_json::from_str(&saved).map_err(|e| format!("load: {e}"))?;
        Game::from_saved(game.rules().clone(), loaded).map_err(|e| format!("load: {e}"))
    }

    fn check_save_load<R>(game: &Game<R>, suite: &Suite<'_, R>, seed: u64) -> Result<(), String>
    where
        R: Ruleset + Clone,
        R::State: Serialize + DeserializeOwned + PartialEq + Debug,
        R::Event: Serialize + DeserializeOwned + PartialEq + Debug + Clone,
        R::Order: Serialize + DeserializeOwned + PartialEq + Debug + Clone,
    {
        let loaded = reload(game)?;
        if loaded.state() != game.state() || loaded.log() != game.log() {
            return Err("a saved and loaded game differs from the original".into());
        }
        let run = |g: Game<R>| {
            let (mut u, mut c) = fresh(suite, seed);
            resume(g, BySide::new(u.as_mut(), c.as_mut()))
        };
        let a = run(game.clone()).map_err(|e| e.to_string())?;
        let b = run(loaded).map_err(|e| e.to_string())?;
        if a.log != b.log || a.outcome != b.outcome || a.orders != b.orders {
            return Err("a loaded game continued differently from the original".into());
        }
        Ok(())
    }

    fn at_the_table<R>(
        rules: &R,
        scenario: &R::Scenario,
        suite: &Suite<'_, R>,
        seed: u64,
        dice: &[Vec<Scripted>],
        want: &[R::Event],
    ) -> Result<(), String>
    where
        R: Ruleset + Clone,
        R::State: Serialize + DeserializeOwned + PartialEq + Debug,
        R::Event: Serialize + DeserializeOwned + PartialEq + Debug + Clone,
        R::Order: Serialize + DeserializeOwned + PartialEq + Debug + Clone,
    {
        let mut game = Game::new(rules.clone(), scenario, seed)
            .map_err(|e| e.to_string())?
            .with_dicing(Dicing::AtTheTable);
        let (mut u, mut c) = fresh(suite, seed);
        let mut commanders = BySide::new(u.as_mut(), c.as_mut());
        let mut saved_waiting = false;
        for (n, faces) in dice.iter().enumerate() {
            let side = match game.owed() {
                Owed::Decision(d) => d.side,
                other => return Err(format!("at the table, order {n}: the game owes {other}")),
            };
            if !matches!(game.throw(1), Err(ThrowError::NotWanted)) {
                return Err(format!(
                    "at the table, order {n}: a face no die wanted was taken"
                ));
            }
            let order = commanders[side].order(game.rules(), game.state(), side);
            let mut waiting = match game.submit(side, order) {
                Ok(Submitted::Applied(_)) => None,
                Ok(Submitted::Waiting(t)) => Some(t.clone()),
                Err(e) => return Err(format!("at the table, order {n} refused: {e}")),
            };
            let mut given = faces.iter().filter(|f| !matches!(f, Scripted::Index(_)));
            while let Some(throw) = waiting.take() {
                let Some(&next) = given.next() else {
                    return Err(format!(
                        "at the table, order {n} wants more dice than the seeded game used: {throw}"
                    ));
                };
                let before = game.state().clone();
                let before_log = game.log().len();
                impossible(&mut game, &throw, n)?;
                if !saved_waiting {
                    saved_waiting = true;
                    let loaded = reload(&game)?;
                    if loaded.owed().to_string() != game.owed().to_string() {
                        return Err(format!(
                            "at the table, order {n}: a game saved while waiting for {throw} waits for something else when loaded"
                        ));
                    }
                }
                let result = match next {
                    Scripted::Face(f) => game.throw(f),
                    Scripted::Card(c) => game.draw(c),
                    Scripted::Index(_) => Err(ThrowError::NotWanted),
                };
                let next_throw = match result {
                    Ok(Submitted::Applied(_)) => None,
                    Ok(Submitted::Waiting(t)) => Some(t.clone()),
                    Err(e) => return Err(format!("at the table, order {n}: {e}")),
                };
                if next_throw.is_some()
                    && (game.state() != &before || game.log().len() != before_log)
                {
                    return Err(format!(
                        "at the table, order {n}: a face short of the last one committed something"
                    ));
                }
                waiting = next_throw;
            }
            if given.next().is_some() {
                return Err(format!(
                    "at the table, order {n} used fewer dice than the seeded game"
                ));
            }
        }
        if !matches!(game.owed(), Owed::Over(_)) {
            return Err("at the table, the game did not end where the seeded game did".into());
        }
        if game.log() != want {
            let at = game
                .log()
                .iter()
                .zip(want)
                .position(|(a, b)| a != b)
                .unwrap_or(want.len().min(game.log().len()));
            return Err(format!(
                "the game at the table logged differently from the seeded game, from event {at}"
            ));
        }
        Ok(())
    }

    /// Gives a face the wanted die cannot show (or the wrong kind of thing) and checks that nothing changes.
    fn impossible<R>(game: &mut Game<R>, throw: &Throw, n: usize) -> Result<(), String>
    where
        R: Ruleset,
        R::State: PartialEq,
        R::Order: Debug,
    {
        let before = game.state().clone();
        let before_log = game.log().len();
        let refused = match throw {
            Throw::Face { die, .. } => {
                matches!(
                    game.throw(die.sides().saturating_add(1)),
                    Err(ThrowError::Impossible { .. })
                ) && matches!(game.throw(0), Err(ThrowError::Impossible { .. }))
                    && matches!(
                        game.draw(crate::cards::Card::Joker(crate::cards::Colour::Red)),
                        Err(ThrowError::WrongKind { .. })
                    )
            }
            Throw::Card { .. } => matches!(game.throw(1), Err(ThrowError::WrongKind { .. })),
        };
        if !refused {
            return Err(format!(
                "at the table, order {n}: an impossible answer to {throw} was not refused"
            ));
        }
        if game.state() != &before || game.log().len() != before_log {
            return Err(format!(
                "at the table, order {n}: an impossible face changed the game"
            ));
        }
        if !matches!(game.owed(), Owed::Throw { throw: t, .. } if &t == throw) {
            return Err(format!(
                "at the table, order {n}: after an impossible face the game no longer wants {throw}"
            ));
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
        R: Ruleset + Clone,
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

/// The reference-odds files every ruleset keeps in `tests/odds/*.ref`, read and checked by one runner.
///
/// A case is a procedure line — its name, then `key=value` inputs — followed by indented `label = probability`
/// lines (a fraction `27/216`, an integer or a decimal); a blank line or the next procedure line ends it, and `#`
/// starts a comment line. The ruleset's `compute` turns a procedure and its inputs into labelled outcomes; a
/// label's probability is the sum over the outcomes carrying it, and `mean` (for outcomes with a value) is the
/// expected value. Every case must list an outcome, and every computed distribution must sum to 1.
pub mod odds_ref {
    use std::collections::BTreeMap;
    use std::path::Path;

    /// One computed outcome: its labels, its value (for `mean`, if it has one) and its probability.
    #[derive(Clone, Debug, PartialEq)]
    pub struct RefOutcome {
        /// The labels a case's lines may name.
        pub labels: Vec<String>,
        /// The outcome's numeric value, if it has one.
        pub value: Option<f64>,
        /// Its probability.
        pub p: f64,
    }

    impl From<(Vec<String>, f64)> for RefOutcome {
        fn from((labels, p): (Vec<String>, f64)) -> Self {
            RefOutcome {
                labels,
                value: None,
                p,
            }
        }
    }

    impl From<(Vec<String>, f64, f64)> for RefOutcome {
        fn from((labels, value, p): (Vec<String>, f64, f64)) -> Self {
            RefOutcome {
                labels,
                value: Some(value),
                p,
            }
        }
    }

    /// One case of a file.
    #[derive(Clone, Debug, PartialEq)]
    pub struct Case {
        /// The line of its procedure, from 1.
        pub line: usize,
        /// The procedure's name.
        pub name: String,
        /// Its `key=value` inputs.
        pub args: BTreeMap<String, String>,
        /// Each listed label and the probability worked out by hand.
        pub want: Vec<(String, f64)>,
    }

    /// A probability written as a fraction, an integer or a decimal.
    pub fn fraction(text: &str) -> Result<f64, String> {
        match text.split_once('/') {
            Some((n, d)) => {
                let n: f64 = n.trim().parse().map_err(|e| format!("{text}: {e}"))?;
                let d: f64 = d.trim().parse().map_err(|e| format!("{text}: {e}"))?;
                Ok(n / d)
            }
            None => text.trim().parse().map_err(|e| format!("{text}: {e}")),
        }
    }

    /// The cases of a file's text.
    pub fn parse(text: &str) -> Result<Vec<Case>, String> {
        let mut cases: Vec<Case> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim_end();
            if line.trim().is_empty() || line.trim_start().starts_with('#') {
                continue;
            }
            if line.starts_with(' ') {
                let case = cases
                    .last_mut()
                    .ok_or(format!("line {}: outcome before any case", i + 1))?;
                let (label, p) = line
                    .split_once('=')
                    .ok_or(format!("line {}: expected label = fraction", i + 1))?;
                case.want.push((
                    label.trim().to_string(),
                    fraction(p).map_err(|e| format!("line {}: {e}", i + 1))?,
                ));
            } else {
                let mut words = line.split_whitespace();
                let name = words.next().unwrap_or_default().to_string();
                let mut args = BTreeMap::new();
                for w in words {
                    let (k, v) = w
                        .split_once('=')
                        .ok_or(format!("line {}: expected key=value, got {w}", i + 1))?;
                    args.insert(k.to_string(), v.to_string());
                }
                cases.push(Case {
                    line: i + 1,
                    name,
                    args,
                    want: Vec::new(),
                });
            }
        }
        Ok(cases)
    }

    /// Checks every `*.ref` file of `dir`: each listed probability within `tolerance(wanted)` of what `compute`
    /// gives. Returns how many probabilities were checked, or every problem found.
    pub fn check_files<O: Into<RefOutcome>>(
        dir: &Path,
        tolerance: impl Fn(f64) -> f64,
        compute: impl Fn(&str, &BTreeMap<String, String>) -> Result<Vec<O>, String>,
    ) -> Result<usize, String> {
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "ref"))
            .collect();
        files.sort();
        if files.is_empty() {
            return Err(format!("no .ref files in {}", dir.display()));
        }
        let mut problems = Vec::new();
        let mut checked = 0;
        for f in &files {
            let text = std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
            let cases = parse(&text).map_err(|e| format!("{}: {e}", f.display()))?;
            for case in cases {
                let at = format!("{}:{} {}", f.display(), case.line, case.name);
                if case.want.is_empty() {
                    problems.push(format!("{at}: no outcomes listed"));
                    continue;
                }
                let got: Vec<RefOutcome> = match compute(&case.name, &case.args) {
                    Ok(g) => g.into_iter().map(Into::into).collect(),
                    Err(e) => {
                        problems.push(format!("{at}: {e}"));
                        continue;
                    }
                };
                let total: f64 = got.iter().map(|o| o.p).sum();
                if (total - 1.0).abs() > 1e-12 {
                    problems.push(format!("{at}: odds sum to {total}"));
                }
                for (label, want) in &case.want {
                    let valued = got.iter().all(|o| o.value.is_some());
                    let p: f64 = if label == "mean" && valued {
                        got.iter().map(|o| o.value.unwrap_or(0.0) * o.p).sum()
                    } else {
                        got.iter()
                            .filter(|o| o.labels.contains(label))
                            .map(|o| o.p)
                            .sum()
                    };
                    checked += 1;
                    if (p - want).abs() > tolerance(*want) {
                        problems.push(format!("{at}: P({label}) = {p}, want {want}"));
                    }
                }
            }
        }
        if problems.is_empty() {
            Ok(checked)
        } else {
            Err(problems.join("\n"))
        }
    }
}
