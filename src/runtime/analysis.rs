//! Procedures and options by name, the luck of a battle, and paired comparisons, for a ruleset chosen at run
//! time.
//!
//! - [`catalogue`]: a ruleset's random procedures by name (any ruleset compiled in, with or without a game
//!   layer), built from `key=value` text into their exact distribution;
//! - [`options`] and [`Scenario::with_options`]: a ruleset's options listed, and set by name on a scenario;
//! - [`Battle::luck`] and [`luck_of_log`]: each side's luck index ([`crate::luck`]) over a battle played here or
//!   over a log saved by `acw battle --json`;
//! - [`compare`]: the same seeds played under two scenarios (say the default options and changed ones), the
//!   differences in win rates and losses with 95% intervals from the paired games ([`crate::compare`]).
//!
//! ```
//! use acw::RulesetId;
//! use acw::runtime::{Scenario, battle, catalogue, compare};
//!
//! let table = catalogue("north")?.build("hit-toss", "modifier=+1")?.table();
//! assert!((table.p("hit") - 0.5).abs() < 1e-12);
//!
//! let north = Scenario::default_for(RulesetId::North);
//! println!("{:?}", battle(&north, 7)?.luck()?.union.index);
//! let shorter = north.with_options(&["turn_limit=6"])?;
//! let c = compare(&north, &shorter, 1, 4, |_, _| {})?;
//! assert_eq!(c.games, 4);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Adding a ruleset here is one arm in each function.

use super::{Battle, BattleOf, RulesetId, RunError, Scenario, failed, simulate};
use crate::catalogue::{Catalogue, OptionError, OptionInfo, OptionsByName};
use crate::compare::{CompareError, Comparison, paired};
use crate::luck::{Luck, luck_of};
use thiserror::Error;

/// A ruleset name whose procedures cannot be listed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum CatalogueLookupError {
    /// No ruleset has this name.
    #[error("there is no ruleset called {given:?}; the rulesets with a catalogue are: {known}")]
    Unknown {
        /// The name given.
        given: String,
        /// The rulesets with a catalogue in this build, comma-separated.
        known: String,
    },
    /// The ruleset exists but is not compiled in, or its procedures are not catalogued yet.
    #[error(
        "the {name} ruleset has no procedure catalogue in this build; the rulesets with a catalogue are: {known}"
    )]
    NotAvailable {
        /// The ruleset's name.
        name: String,
        /// The rulesets with a catalogue in this build, comma-separated.
        known: String,
    },
}

/// The catalogues this build has, by ruleset name.
fn catalogues() -> Vec<Catalogue> {
    vec![
        #[cfg(feature = "north")]
        crate::north::catalogue::catalogue(),
        #[cfg(feature = "grid")]
        crate::grid::catalogue::catalogue(),
        #[cfg(feature = "tsatf")]
        crate::tsatf::catalogue::catalogue(),
        #[cfg(feature = "d8")]
        crate::d8::catalogue::catalogue(),
        #[cfg(feature = "hardtack")]
        crate::hardtack::catalogue::catalogue(),
    ]
}

/// The random procedures of the ruleset called `name` (any ruleset compiled in whose procedures are
/// catalogued, game layer or not).
pub fn catalogue(name: &str) -> Result<Catalogue, CatalogueLookupError> {
    let all = catalogues();
    let known = all
        .iter()
        .map(Catalogue::ruleset)
        .collect::<Vec<_>>()
        .join(", ");
    let wanted = name.trim().to_ascii_lowercase();
    if let Some(c) = all.iter().find(|c| c.ruleset() == wanted) {
        return Ok(*c);
    }
    if super::KNOWN.iter().any(|n| *n == wanted) {
        Err(CatalogueLookupError::NotAvailable {
            name: wanted,
            known,
        })
    } else {
        Err(CatalogueLookupError::Unknown {
            given: name.to_string(),
            known,
        })
    }
}

/// Every option of `ruleset`, with its kind and default.
#[must_use]
pub fn options(ruleset: RulesetId) -> Vec<OptionInfo> {
    match ruleset {
        #[cfg(feature = "north")]
        RulesetId::North => crate::north::Options::options(),
        #[cfg(feature = "d8")]
        RulesetId::D8 => crate::d8::options::Options::options(),
        #[cfg(feature = "tsatf")]
        RulesetId::Tsatf => crate::tsatf::options::Options::options(),
        #[cfg(feature = "grid")]
        RulesetId::Grid => crate::grid::options::Options::options(),
        #[cfg(feature = "hardtack")]
        RulesetId::Hardtack => crate::hardtack::options::Options::options(),
    }
}

/// Options that could not be set on a scenario.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum SetOptionsError {
    /// A setting was refused.
    #[error(transparent)]
    Option(#[from] OptionError),
    /// The scenario refused the options (its own checks, as a sentence).
    #[error("the scenario cannot be played with these options: {0}")]
    Scenario(String),
}

/// Reads the options of a scenario's JSON, sets each `name=value`, and writes them back.
macro_rules! set_in_json {
    ($json:expr, $t:ty, $pairs:expr) => {{
        let slot = $json
            .get_mut("options")
            .ok_or_else(|| SetOptionsError::Scenario("it has no options".into()))?;
        let mut o: $t = serde_json::from_value(slot.take())
            .map_err(|e| SetOptionsError::Scenario(e.to_string()))?;
        for pair in $pairs {
            o.set_pair(pair.as_ref())?;
        }
        *slot = serde_json::to_value(&o).map_err(|e| SetOptionsError::Scenario(e.to_string()))?;
    }};
}

impl Scenario {
    /// This scenario with options set by name, each `name=value` (`turn_limit=8`); the result goes through
    /// every check a loaded scenario does. A refused setting names the option and what it accepts.
    pub fn with_options<S: AsRef<str>>(&self, pairs: &[S]) -> Result<Scenario, SetOptionsError> {
        let text = self
            .to_json()
            .map_err(|e| SetOptionsError::Scenario(e.to_string()))?;
        let mut json: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| SetOptionsError::Scenario(e.to_string()))?;
        match self.ruleset() {
            #[cfg(feature = "north")]
            RulesetId::North => set_in_json!(json, crate::north::Options, pairs),
            #[cfg(feature = "d8")]
            RulesetId::D8 => set_in_json!(json, crate::d8::options::Options, pairs),
            #[cfg(feature = "tsatf")]
            RulesetId::Tsatf => set_in_json!(json, crate::tsatf::options::Options, pairs),
            #[cfg(feature = "grid")]
            RulesetId::Grid => set_in_json!(json, crate::grid::options::Options, pairs),
            #[cfg(feature = "hardtack")]
            RulesetId::Hardtack => set_in_json!(json, crate::hardtack::options::Options, pairs),
        }
        Scenario::from_json(self.ruleset(), &json.to_string())
            .map_err(|e| SetOptionsError::Scenario(e.to_string()))
    }
}

/// A luck index that could not be worked out.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum LuckError {
    /// A line of the log is not an event of the ruleset.
    #[error(
        "line {line} of the log is not a {ruleset} event ({source}); give a log written by `acw battle {ruleset} --json`"
    )]
    BadLine {
        /// The ruleset.
        ruleset: RulesetId,
        /// The line, from 1.
        line: usize,
        /// Why.
        #[source]
        source: serde_json::Error,
    },
    /// The log holds no event.
    #[error("the log holds no event")]
    Empty,
}

impl Battle {
    /// Each side's luck over the battle's log.
    pub fn luck(&self) -> Result<Luck, LuckError> {
        match &self.inner {
            #[cfg(feature = "north")]
            BattleOf::North(p) => Ok(luck_of(&p.log)),
            #[cfg(feature = "d8")]
            BattleOf::D8(p) => Ok(luck_of(&p.log)),
            #[cfg(feature = "tsatf")]
            BattleOf::Tsatf(p) => Ok(luck_of(&p.log)),
            #[cfg(feature = "grid")]
            BattleOf::Grid(p) => Ok(luck_of(&p.log)),
            #[cfg(feature = "hardtack")]
            BattleOf::Hardtack(p) => Ok(luck_of(&p.log)),
        }
    }
}

/// Reads a log of `E` in JSON lines, skipping blank lines and the closing `{"end": …}` and `{"luck": …}` lines.
fn read_log<E>(
    ruleset: RulesetId,
    text: &str,
    parse: impl Fn(&str) -> Result<E, serde_json::Error>,
) -> Result<Vec<E>, LuckError> {
    let mut log = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        match parse(line) {
            Ok(e) => log.push(e),
            Err(source) => {
                let is_end = serde_json::from_str::<serde_json::Value>(line)
                    .is_ok_and(|v| v.get("end").is_some() || v.get("luck").is_some());
                if !is_end {
                    return Err(LuckError::BadLine {
                        ruleset,
                        line: i + 1,
                        source,
                    });
                }
            }
        }
    }
    if log.is_empty() {
        return Err(LuckError::Empty);
    }
    Ok(log)
}

/// Each side's luck over a log of `ruleset` saved as JSON lines (as `acw battle --json` writes it).
pub fn luck_of_log(ruleset: RulesetId, text: &str) -> Result<Luck, LuckError> {
    match ruleset {
        #[cfg(feature = "north")]
        RulesetId::North => Ok(luck_of(&read_log(ruleset, text, |line| {
            serde_json::from_str::<crate::north::game::Event>(line)
        })?)),
        #[cfg(feature = "d8")]
        RulesetId::D8 => Ok(luck_of(&read_log(ruleset, text, |line| {
            serde_json::from_str::<crate::d8::game::Event>(line)
        })?)),
        #[cfg(feature = "tsatf")]
        RulesetId::Tsatf => Ok(luck_of(&read_log(ruleset, text, |line| {
            serde_json::from_str::<crate::tsatf::game::Event>(line)
        })?)),
        #[cfg(feature = "grid")]
        RulesetId::Grid => Ok(luck_of(&read_log(ruleset, text, |line| {
            serde_json::from_str::<crate::grid::game::Event>(line)
        })?)),
        #[cfg(feature = "hardtack")]
        RulesetId::Hardtack => Ok(luck_of(&read_log(ruleset, text, |line| {
            serde_json::from_str::<crate::hardtack::game::Event>(line)
        })?)),
    }
}

/// Plays `games` games of `base` and of `changed` from the same seeds (game `i` of each from
/// [`crate::game::game_seed`]`(seed, i)`, as [`simulate`] plays them) and compares them game by game. The two
/// scenarios must be of the same ruleset. `progress(done, total)` counts the games of both batches.
pub fn compare(
    base: &Scenario,
    changed: &Scenario,
    seed: u64,
    games: u64,
    progress: impl Fn(u64, u64) + Sync,
) -> Result<Comparison, RunError> {
    let ruleset = base.ruleset();
    if changed.ruleset() != ruleset {
        return Err(failed(
            ruleset,
            CompareError::NotPaired {
                base: 0,
                changed: 0,
            },
        ));
    }
    let total = games.saturating_mul(2);
    let a = simulate(base, seed, games, |done, _| progress(done, total))?;
    let b = simulate(changed, seed, games, |done, _| {
        progress(games.saturating_add(done), total)
    })?;
    paired(&a.records, &b.records).map_err(|e| failed(ruleset, e))
}
