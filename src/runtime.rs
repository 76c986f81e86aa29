//! Rulesets chosen at run time, by name (feature `runtime`).
//!
//! A program that lets its user pick the rules (the `acw` command, a bot, a research script reading a config
//! file) names a ruleset with [`RulesetId`] and plays it through the functions here, without knowing the
//! ruleset's own types:
//!
//! - [`Scenario::default_for`], [`Scenario::from_json`], [`Scenario::load`], [`Scenario::to_json`]: the
//!   ruleset's default scenario, and scenarios edited and loaded back (checked as the ruleset's own loader
//!   checks them);
//! - [`battle`]: one game between the ruleset's baseline bots, read back as narrated lines
//!   ([`Battle::narration`]) or as the event log in JSON lines ([`Battle::json_lines`]);
//! - [`simulate`]: many games on rayon with a progress callback, giving acw-core's [`Summary`]; the same seed
//!   gives the same summary on any number of threads.
//!
//! Procedures by name ([`catalogue`]), options by name ([`options`], [`Scenario::with_options`]), the luck of a
//! battle ([`Battle::luck`], [`luck_of_log`]) and what an option is worth ([`compare`]) are in the same place.
//!
//! Every ruleset acw knows has a game layer; [`RulesetId::ALL`] lists those compiled into this build. A known
//! name left out of the build is refused with [`RulesetError::NotCompiled`], any other with
//! [`RulesetError::Unknown`].
//!
//! ```
//! use acw::RulesetId;
//! use acw::runtime::{Scenario, battle, simulate};
//!
//! let north: RulesetId = "north".parse()?;
//! let scenario = Scenario::default_for(north);
//! let game = battle(&scenario, 1863)?;
//! println!("{} after {} orders", game.outcome(), game.orders());
//! let summary = simulate(&scenario, 1, 4, |_done, _total| {})?;
//! assert_eq!(summary.games, 4);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Adding a ruleset's game layer here is one variant of [`RulesetId`] and of the private scenario and battle
//! enums, and one match arm in each function below.

mod analysis;
pub use analysis::{
    CatalogueLookupError, LuckError, SetOptionsError, catalogue, compare, luck_of_log, options,
};

use crate::game::{Outcome, Summary};
use crate::{BySide, Side};
use std::error::Error;
use std::fmt;
use std::path::Path;
use std::str::FromStr;
use thiserror::Error;

/// A ruleset that can be played: compiled in (by its cargo feature) and with a game layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum RulesetId {
    /// David E. North's rules (`north`).
    #[cfg(feature = "north")]
    North,
    /// The regimental D8 rules (`d8`).
    #[cfg(feature = "d8")]
    D8,
    /// The grid/area brigade rules (`grid`).
    #[cfg(feature = "grid")]
    Grid,
    /// Strike for Your God and Country (`tsatf`).
    #[cfg(feature = "tsatf")]
    Tsatf,
    /// Hardtack on the Stargrunt II core (`hardtack`).
    #[cfg(feature = "hardtack")]
    Hardtack,
}

/// Ruleset names acw knows, whether or not this build has them.
const KNOWN: &[&str] = &["north", "d8", "grid", "tsatf", "hardtack"];

impl RulesetId {
    /// Every ruleset this build can play, in the order of their names.
    pub const ALL: &'static [RulesetId] = &[
        #[cfg(feature = "d8")]
        RulesetId::D8,
        #[cfg(feature = "grid")]
        RulesetId::Grid,
        #[cfg(feature = "hardtack")]
        RulesetId::Hardtack,
        #[cfg(feature = "north")]
        RulesetId::North,
        #[cfg(feature = "tsatf")]
        RulesetId::Tsatf,
    ];

    /// The ruleset's short name, as typed on a command line (`north`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            #[cfg(feature = "north")]
            RulesetId::North => "north",
            #[cfg(feature = "d8")]
            RulesetId::D8 => "d8",
            #[cfg(feature = "grid")]
            RulesetId::Grid => "grid",
            #[cfg(feature = "tsatf")]
            RulesetId::Tsatf => "tsatf",
            #[cfg(feature = "hardtack")]
            RulesetId::Hardtack => "hardtack",
        }
    }

    /// The ruleset's title, for a person.
    #[must_use]
    pub const fn title(self) -> &'static str {
        match self {
            #[cfg(feature = "north")]
            RulesetId::North => "David E. North's rules",
            #[cfg(feature = "d8")]
            RulesetId::D8 => "The regimental D8 rules",
            #[cfg(feature = "grid")]
            RulesetId::Grid => "The grid/area brigade rules",
            #[cfg(feature = "tsatf")]
            RulesetId::Tsatf => "Strike for Your God and Country",
            #[cfg(feature = "hardtack")]
            RulesetId::Hardtack => "Hardtack",
        }
    }

    /// The default scenario in a sentence.
    #[must_use]
    pub const fn scenario_summary(self) -> &'static str {
        match self {
            #[cfg(feature = "north")]
            RulesetId::North => {
                "default scenario: 14 units a side on a 72\" x 48\" table, a fence across the centre, 12 turns"
            }
            #[cfg(feature = "d8")]
            RulesetId::D8 => {
                "default scenario: a battle of 1862, its map and both armies generated from the seed"
            }
            #[cfg(feature = "grid")]
            RulesetId::Grid => {
                "default scenario: a meeting engagement on squares, 10 areas by 12, a corps a side, 12 turns"
            }
            #[cfg(feature = "tsatf")]
            RulesetId::Tsatf => "default scenario: three companies a side on a 48\" x 36\" table",
            #[cfg(feature = "hardtack")]
            RulesetId::Hardtack => {
                "default scenario: five companies, a colonel and a gun a side on a 48\" x 36\" table, a rail fence across \
                 the centre and a wood, 10 turns"
            }
        }
    }

    /// Who commands each side in [`battle`] and [`simulate`], in a sentence.
    #[must_use]
    pub const fn commanders(self) -> &'static str {
        match self {
            #[cfg(feature = "north")]
            RulesetId::North => "Union: the Attacker bot; Confederates: the Holder bot",
            #[cfg(feature = "d8")]
            RulesetId::D8 => "Union: the Attacker bot; Confederates: the Holder bot",
            #[cfg(feature = "grid")]
            RulesetId::Grid => "Union: the Attacker bot; Confederates: the Holder bot",
            #[cfg(feature = "tsatf")]
            RulesetId::Tsatf => "Union: the Attacker bot; Confederates: the Holder bot",
            #[cfg(feature = "hardtack")]
            RulesetId::Hardtack => "Union: the Thruster bot; Confederates: the Holder bot",
        }
    }

    /// What [`Battle::losses`] and [`Summary::losses`] count for this ruleset (`"stands"`).
    #[must_use]
    pub const fn loss_unit(self) -> &'static str {
        match self {
            #[cfg(feature = "north")]
            RulesetId::North => "stands",
            #[cfg(feature = "d8")]
            RulesetId::D8 => "figures",
            #[cfg(feature = "grid")]
            RulesetId::Grid => "stands",
            #[cfg(feature = "tsatf")]
            RulesetId::Tsatf => "figures",
            #[cfg(feature = "hardtack")]
            RulesetId::Hardtack => "figures",
        }
    }
}

impl fmt::Display for RulesetId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

fn playable_names() -> String {
    if RulesetId::ALL.is_empty() {
        return "none (this build has no ruleset with a game layer)".to_string();
    }
    RulesetId::ALL
        .iter()
        .map(|r| r.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A ruleset name that cannot be played in this build.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum RulesetError {
    /// No ruleset has this name.
    #[error(
        "there is no ruleset called {given:?}; the rulesets that can be played are: {playable}"
    )]
    Unknown {
        /// The name given.
        given: String,
        /// The names that can be played, comma-separated.
        playable: String,
    },
    /// The ruleset exists but this build left it out.
    #[error(
        "the {name} ruleset is not compiled into this build; build acw with the cargo feature `{name}` to play it"
    )]
    NotCompiled {
        /// The ruleset's name.
        name: &'static str,
    },
}

impl FromStr for RulesetId {
    type Err = RulesetError;

    /// Reads a ruleset's name (`north`), ignoring case and surrounding spaces.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim().to_ascii_lowercase();
        if let Some(id) = RulesetId::ALL.iter().find(|r| r.name() == wanted) {
            return Ok(*id);
        }
        match KNOWN.iter().find(|name| **name == wanted) {
            Some(&name) => Err(RulesetError::NotCompiled { name }),
            None => Err(RulesetError::Unknown {
                given: s.to_string(),
                playable: playable_names(),
            }),
        }
    }
}

/// A scenario file or text that could not be used.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ScenarioError {
    /// The file could not be read.
    #[error("cannot read the scenario file {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The text is not a valid scenario of the ruleset: malformed JSON, a missing or unknown field, or a
    /// scenario its rules refuse (the ruleset's own setup error, as a sentence, with the line and column).
    #[error(
        "this is not a valid {ruleset} scenario: {source} (write the default one with `acw scenario {ruleset}` \
         to see the expected shape)"
    )]
    Invalid {
        /// The ruleset the scenario was read for.
        ruleset: RulesetId,
        /// What was wrong.
        #[source]
        source: serde_json::Error,
    },
}

/// A scenario of some ruleset, loaded or the default.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    inner: ScenarioOf,
}

#[derive(Clone, Debug, PartialEq)]
enum ScenarioOf {
    #[cfg(feature = "north")]
    North(Box<crate::north::setup::Scenario>),
    #[cfg(feature = "d8")]
    D8(Box<crate::d8::game::Scenario>),
    #[cfg(feature = "grid")]
    Grid(Box<crate::grid::setup::Scenario>),
    #[cfg(feature = "tsatf")]
    Tsatf(Box<crate::tsatf::game::Scenario>),
    #[cfg(feature = "hardtack")]
    Hardtack(Box<crate::hardtack::game::Scenario>),
}

impl Scenario {
    /// The ruleset's default scenario.
    #[must_use]
    pub fn default_for(ruleset: RulesetId) -> Scenario {
        let inner = match ruleset {
            #[cfg(feature = "north")]
            RulesetId::North => ScenarioOf::North(Box::default()),
            #[cfg(feature = "d8")]
            RulesetId::D8 => ScenarioOf::D8(Box::default()),
            #[cfg(feature = "grid")]
            RulesetId::Grid => ScenarioOf::Grid(Box::default()),
            #[cfg(feature = "tsatf")]
            RulesetId::Tsatf => ScenarioOf::Tsatf(Box::default()),
            #[cfg(feature = "hardtack")]
            RulesetId::Hardtack => ScenarioOf::Hardtack(Box::default()),
        };
        Scenario { inner }
    }

    /// Reads a scenario of `ruleset` from JSON, with every check the ruleset's loader makes.
    pub fn from_json(ruleset: RulesetId, text: &str) -> Result<Scenario, ScenarioError> {
        let invalid = |source| ScenarioError::Invalid { ruleset, source };
        let inner = match ruleset {
            #[cfg(feature = "north")]
            RulesetId::North => ScenarioOf::North(serde_json::from_str(text).map_err(invalid)?),
            #[cfg(feature = "d8")]
            RulesetId::D8 => ScenarioOf::D8(serde_json::from_str(text).map_err(invalid)?),
            #[cfg(feature = "grid")]
            RulesetId::Grid => ScenarioOf::Grid(serde_json::from_str(text).map_err(invalid)?),
            #[cfg(feature = "tsatf")]
            RulesetId::Tsatf => ScenarioOf::Tsatf(serde_json::from_str(text).map_err(invalid)?),
            #[cfg(feature = "hardtack")]
            RulesetId::Hardtack => {
                ScenarioOf::Hardtack(serde_json::from_str(text).map_err(invalid)?)
            }
        };
        Ok(Scenario { inner })
    }

    /// Reads a scenario of `ruleset` from a JSON file.
    pub fn load(ruleset: RulesetId, path: &Path) -> Result<Scenario, ScenarioError> {
        let text = std::fs::read_to_string(path).map_err(|source| ScenarioError::Read {
            path: path.display().to_string(),
            source,
        })?;
        Scenario::from_json(ruleset, &text)
    }

    /// The scenario as indented JSON, to edit and load back with [`Scenario::from_json`].
    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        match &self.inner {
            #[cfg(feature = "north")]
            ScenarioOf::North(s) => serde_json::to_string_pretty(s),
            #[cfg(feature = "d8")]
            ScenarioOf::D8(s) => serde_json::to_string_pretty(s),
            #[cfg(feature = "grid")]
            ScenarioOf::Grid(s) => serde_json::to_string_pretty(s),
            #[cfg(feature = "tsatf")]
            ScenarioOf::Tsatf(s) => serde_json::to_string_pretty(s),
            #[cfg(feature = "hardtack")]
            ScenarioOf::Hardtack(s) => serde_json::to_string_pretty(s),
        }
    }

    /// The ruleset the scenario is for.
    #[must_use]
    pub fn ruleset(&self) -> RulesetId {
        match &self.inner {
            #[cfg(feature = "north")]
            ScenarioOf::North(_) => RulesetId::North,
            #[cfg(feature = "d8")]
            ScenarioOf::D8(_) => RulesetId::D8,
            #[cfg(feature = "grid")]
            ScenarioOf::Grid(_) => RulesetId::Grid,
            #[cfg(feature = "tsatf")]
            ScenarioOf::Tsatf(_) => RulesetId::Tsatf,
            #[cfg(feature = "hardtack")]
            ScenarioOf::Hardtack(_) => RulesetId::Hardtack,
        }
    }
}

/// A game or batch of games that could not be played.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum RunError {
    /// A batch of no games was asked for.
    #[error("a simulation needs at least one game")]
    NoGames,
    /// The ruleset refused the scenario or an order; the source is the ruleset's own error (for a batch, it
    /// names the game's index and seed, to replay it alone).
    #[error("the {ruleset} game could not be played: {source}")]
    Failed {
        /// The ruleset.
        ruleset: RulesetId,
        /// The ruleset's own error.
        #[source]
        source: Box<dyn Error + Send + Sync>,
    },
}

/// One game played to its end by [`battle`].
pub struct Battle {
    inner: BattleOf,
}

enum BattleOf {
    #[cfg(feature = "north")]
    North(Box<crate::game::Played<crate::north::game::North>>),
    #[cfg(feature = "d8")]
    D8(Box<crate::game::Played<crate::d8::game::D8>>),
    #[cfg(feature = "grid")]
    Grid(Box<crate::game::Played<crate::grid::game::Grid>>),
    #[cfg(feature = "tsatf")]
    Tsatf(Box<crate::game::Played<crate::tsatf::game::Tsatf>>),
    #[cfg(feature = "hardtack")]
    Hardtack(Box<crate::game::Played<crate::hardtack::game::Hardtack>>),
}

impl Battle {
    /// The ruleset played.
    #[must_use]
    pub fn ruleset(&self) -> RulesetId {
        match &self.inner {
            #[cfg(feature = "north")]
            BattleOf::North(_) => RulesetId::North,
            #[cfg(feature = "d8")]
            BattleOf::D8(_) => RulesetId::D8,
            #[cfg(feature = "grid")]
            BattleOf::Grid(_) => RulesetId::Grid,
            #[cfg(feature = "tsatf")]
            BattleOf::Tsatf(_) => RulesetId::Tsatf,
            #[cfg(feature = "hardtack")]
            BattleOf::Hardtack(_) => RulesetId::Hardtack,
        }
    }

    /// How the game ended.
    #[must_use]
    pub fn outcome(&self) -> Outcome {
        match &self.inner {
            #[cfg(feature = "north")]
            BattleOf::North(p) => p.outcome,
            #[cfg(feature = "d8")]
            BattleOf::D8(p) => p.outcome,
            #[cfg(feature = "grid")]
            BattleOf::Grid(p) => p.outcome,
            #[cfg(feature = "tsatf")]
            BattleOf::Tsatf(p) => p.outcome,
            #[cfg(feature = "hardtack")]
            BattleOf::Hardtack(p) => p.outcome,
        }
    }

    /// Each side's losses at the end, counted as [`RulesetId::loss_unit`] says.
    #[must_use]
    pub fn losses(&self) -> BySide<u32> {
        use crate::game::Ruleset;
        match &self.inner {
            #[cfg(feature = "north")]
            BattleOf::North(p) => crate::north::game::North.losses(&p.state),
            #[cfg(feature = "d8")]
            BattleOf::D8(p) => crate::d8::game::D8.losses(&p.state),
            #[cfg(feature = "grid")]
            BattleOf::Grid(p) => crate::grid::game::Grid.losses(&p.state),
            #[cfg(feature = "tsatf")]
            BattleOf::Tsatf(p) => crate::tsatf::game::Tsatf.losses(&p.state),
            #[cfg(feature = "hardtack")]
            BattleOf::Hardtack(p) => crate::hardtack::game::Hardtack.losses(&p.state),
        }
    }

    /// How many orders were given.
    #[must_use]
    pub fn orders(&self) -> u64 {
        match &self.inner {
            #[cfg(feature = "north")]
            BattleOf::North(p) => p.orders,
            #[cfg(feature = "d8")]
            BattleOf::D8(p) => p.orders,
            #[cfg(feature = "grid")]
            BattleOf::Grid(p) => p.orders,
            #[cfg(feature = "tsatf")]
            BattleOf::Tsatf(p) => p.orders,
            #[cfg(feature = "hardtack")]
            BattleOf::Hardtack(p) => p.orders,
        }
    }

    /// How many events the log holds.
    #[must_use]
    pub fn events(&self) -> usize {
        match &self.inner {
            #[cfg(feature = "north")]
            BattleOf::North(p) => p.log.len(),
            #[cfg(feature = "d8")]
            BattleOf::D8(p) => p.log.len(),
            #[cfg(feature = "grid")]
            BattleOf::Grid(p) => p.log.len(),
            #[cfg(feature = "tsatf")]
            BattleOf::Tsatf(p) => p.log.len(),
            #[cfg(feature = "hardtack")]
            BattleOf::Hardtack(p) => p.log.len(),
        }
    }

    /// The battle told in sentences, one per event worth telling (bookkeeping events are left out).
    #[must_use]
    pub fn narration(&self) -> Vec<String> {
        match &self.inner {
            #[cfg(feature = "north")]
            BattleOf::North(p) => p
                .log
                .iter()
                .map(|e| crate::north::game::narrate(&p.state, e))
                .filter(|line| !line.is_empty())
                .collect(),
            #[cfg(feature = "d8")]
            BattleOf::D8(p) => p
                .log
                .iter()
                .map(ToString::to_string)
                .filter(|line| !line.is_empty())
                .collect(),
            #[cfg(feature = "grid")]
            BattleOf::Grid(p) => p
                .log
                .iter()
                .map(crate::grid::game::narrate)
                .filter(|line| !line.is_empty())
                .collect(),
            #[cfg(feature = "tsatf")]
            BattleOf::Tsatf(p) => p
                .log
                .iter()
                .map(ToString::to_string)
                .filter(|line| !line.is_empty())
                .collect(),
            #[cfg(feature = "hardtack")]
            BattleOf::Hardtack(p) => p.log.iter().map(ToString::to_string).collect(),
        }
    }

    /// The event log, one JSON object per event (the ruleset's own event type, as its serde form).
    pub fn json_lines(&self) -> Result<Vec<String>, serde_json::Error> {
        match &self.inner {
            #[cfg(feature = "north")]
            BattleOf::North(p) => p.log.iter().map(serde_json::to_string).collect(),
            #[cfg(feature = "d8")]
            BattleOf::D8(p) => p.log.iter().map(serde_json::to_string).collect(),
            #[cfg(feature = "grid")]
            BattleOf::Grid(p) => p.log.iter().map(serde_json::to_string).collect(),
            #[cfg(feature = "tsatf")]
            BattleOf::Tsatf(p) => p.log.iter().map(serde_json::to_string).collect(),
            #[cfg(feature = "hardtack")]
            BattleOf::Hardtack(p) => p.log.iter().map(serde_json::to_string).collect(),
        }
    }
}

fn failed(ruleset: RulesetId, e: impl Error + Send + Sync + 'static) -> RunError {
    RunError::Failed {
        ruleset,
        source: Box::new(e),
    }
}

#[cfg(feature = "north")]
fn north_commanders(
    side: Side,
    seed: u64,
) -> Box<dyn crate::game::Commander<crate::north::game::North>> {
    use crate::north::bots::{Attacker, Holder};
    match side {
        Side::Union => Box::new(Attacker::new(seed)),
        Side::Confederate => Box::new(Holder::new(seed ^ 1)),
    }
}

#[cfg(feature = "d8")]
fn d8_commanders(side: Side, seed: u64) -> Box<dyn crate::game::Commander<crate::d8::game::D8>> {
    use crate::d8::bots::{Attacker, Holder};
    match side {
        Side::Union => Box::new(Attacker::new(seed)),
        Side::Confederate => Box::new(Holder::new(seed)),
    }
}
#[cfg(feature = "grid")]
fn grid_commanders(
    side: Side,
    seed: u64,
) -> Box<dyn crate::game::Commander<crate::grid::game::Grid>> {
    use crate::grid::bots::{Attacker, Holder};
    match side {
        Side::Union => Box::new(Attacker::new(seed)),
        Side::Confederate => Box::new(Holder::new(seed ^ 1)),
    }
}

#[cfg(feature = "tsatf")]
fn tsatf_commanders(
    side: Side,
    seed: u64,
) -> Box<dyn crate::game::Commander<crate::tsatf::game::Tsatf>> {
    use crate::tsatf::bots::{Attacker, Holder};
    match side {
        Side::Union => Box::new(Attacker::new(seed)),
        Side::Confederate => Box::new(Holder::new(seed ^ 1)),
    }
}

#[cfg(feature = "hardtack")]
fn hardtack_commanders(
    side: Side,
    seed: u64,
) -> Box<dyn crate::game::Commander<crate::hardtack::game::Hardtack>> {
    use crate::hardtack::bots::{Holder, Thruster};
    match side {
        Side::Union => Box::new(Thruster::new(seed ^ 0x5eed)),
        Side::Confederate => Box::new(Holder::new(seed ^ 0xc0de)),
    }
}

/// Plays one game of `scenario` from `seed` between the ruleset's baseline bots ([`RulesetId::commanders`]).
pub fn battle(scenario: &Scenario, seed: u64) -> Result<Battle, RunError> {
    let ruleset = scenario.ruleset();
    let inner = match &scenario.inner {
        #[cfg(feature = "north")]
        ScenarioOf::North(s) => {
            use crate::north::game::North;
            let mut union = north_commanders(Side::Union, seed);
            let mut confederate = north_commanders(Side::Confederate, seed);
            let played = crate::game::play(
                &North,
                s,
                seed,
                BySide::new(union.as_mut(), confederate.as_mut()),
            )
            .map_err(|e| failed(ruleset, e))?;
            BattleOf::North(Box::new(played))
        }
        #[cfg(feature = "d8")]
        ScenarioOf::D8(s) => {
            use crate::d8::game::D8;
            let mut union = d8_commanders(Side::Union, seed);
            let mut confederate = d8_commanders(Side::Confederate, seed);
            let played = crate::game::play(
                &D8,
                s,
                seed,
                BySide::new(union.as_mut(), confederate.as_mut()),
            )
            .map_err(|e| failed(ruleset, e))?;
            BattleOf::D8(Box::new(played))
        }
        #[cfg(feature = "grid")]
        ScenarioOf::Grid(s) => {
            use crate::grid::game::Grid;
            let mut union = grid_commanders(Side::Union, seed);
            let mut confederate = grid_commanders(Side::Confederate, seed);
            let played = crate::game::play(
                &Grid,
                s,
                seed,
                BySide::new(union.as_mut(), confederate.as_mut()),
            )
            .map_err(|e| failed(ruleset, e))?;
            BattleOf::Grid(Box::new(played))
        }
        #[cfg(feature = "tsatf")]
        ScenarioOf::Tsatf(s) => {
            use crate::tsatf::game::Tsatf;
            let mut union = tsatf_commanders(Side::Union, seed);
            let mut confederate = tsatf_commanders(Side::Confederate, seed);
            let played = crate::game::play(
                &Tsatf,
                s,
                seed,
                BySide::new(union.as_mut(), confederate.as_mut()),
            )
            .map_err(|e| failed(ruleset, e))?;
            BattleOf::Tsatf(Box::new(played))
        }
        #[cfg(feature = "hardtack")]
        ScenarioOf::Hardtack(s) => {
            use crate::hardtack::game::Hardtack;
            let mut union = hardtack_commanders(Side::Union, seed);
            let mut confederate = hardtack_commanders(Side::Confederate, seed);
            let played = crate::game::play(
                &Hardtack,
                s,
                seed,
                BySide::new(union.as_mut(), confederate.as_mut()),
            )
            .map_err(|e| failed(ruleset, e))?;
            BattleOf::Hardtack(Box::new(played))
        }
    };
    Ok(Battle { inner })
}

/// Plays `games` games of `scenario` in parallel (on the current rayon pool) between the ruleset's baseline
/// bots and summarises them. Game `i` is played from [`crate::game::game_seed`]`(seed, i)`, exactly as
/// [`battle`] plays that seed, so the summary does not depend on the thread count. `progress(done, total)` is
/// called after each game, from whichever thread played it.
pub fn simulate(
    scenario: &Scenario,
    seed: u64,
    games: u64,
    progress: impl Fn(u64, u64) + Sync,
) -> Result<Summary, RunError> {
    if games == 0 {
        return Err(RunError::NoGames);
    }
    let ruleset = scenario.ruleset();
    match &scenario.inner {
        #[cfg(feature = "north")]
        ScenarioOf::North(s) => crate::game::simulate(
            &crate::north::game::North,
            s,
            seed,
            games,
            north_commanders,
            progress,
        )
        .map_err(|e| failed(ruleset, e)),
        #[cfg(feature = "d8")]
        ScenarioOf::D8(s) => crate::game::simulate(
            &crate::d8::game::D8,
            s,
            seed,
            games,
            d8_commanders,
            progress,
        )
        .map_err(|e| failed(ruleset, e)),
        #[cfg(feature = "grid")]
        ScenarioOf::Grid(s) => crate::game::simulate(
            &crate::grid::game::Grid,
            s,
            seed,
            games,
            grid_commanders,
            progress,
        )
        .map_err(|e| failed(ruleset, e)),
        #[cfg(feature = "tsatf")]
        ScenarioOf::Tsatf(s) => crate::game::simulate(
            &crate::tsatf::game::Tsatf,
            s,
            seed,
            games,
            tsatf_commanders,
            progress,
        )
        .map_err(|e| failed(ruleset, e)),
        #[cfg(feature = "hardtack")]
        ScenarioOf::Hardtack(s) => crate::game::simulate(
            &crate::hardtack::game::Hardtack,
            s,
            seed,
            games,
            hardtack_commanders,
            progress,
        )
        .map_err(|e| failed(ruleset, e)),
    }
}

#[cfg(all(test, feature = "north"))]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for id in RulesetId::ALL {
            assert_eq!(id.to_string().parse::<RulesetId>(), Ok(*id));
        }
        assert_eq!(" North ".parse::<RulesetId>(), Ok(RulesetId::North));
    }

    #[test]
    fn refusals_say_why() {
        let e = "risk".parse::<RulesetId>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "there is no ruleset called \"risk\"; the rulesets that can be played are: d8, grid, hardtack, north, tsatf"
        );
        #[cfg(feature = "grid")]
        assert_eq!("grid".parse::<RulesetId>(), Ok(RulesetId::Grid));
        assert!(matches!(
            "risk".parse::<RulesetId>(),
            Err(RulesetError::Unknown { .. })
        ));
    }

    #[test]
    fn scenario_round_trips_and_bad_ones_are_refused() -> Result<(), Box<dyn Error>> {
        let s = Scenario::default_for(RulesetId::North);
        let back = Scenario::from_json(RulesetId::North, &s.to_json()?)?;
        assert_eq!(back, s);
        let e = Scenario::from_json(RulesetId::North, "{\"forces\": 3}").unwrap_err();
        assert!(matches!(e, ScenarioError::Invalid { .. }), "{e}");
        let e = Scenario::load(RulesetId::North, Path::new("/nonexistent/acw.json")).unwrap_err();
        assert!(matches!(e, ScenarioError::Read { .. }), "{e}");
        Ok(())
    }

    #[test]
    fn simulate_plays_the_battle_seeds() -> Result<(), Box<dyn Error>> {
        let s = Scenario::default_for(RulesetId::North);
        let summary = simulate(&s, 7, 3, |_, _| {})?;
        for r in &summary.records {
            let one = battle(&s, crate::game::game_seed(7, r.index))?;
            assert_eq!(one.outcome(), r.outcome);
            assert_eq!(one.losses(), r.losses);
        }
        assert!(matches!(
            simulate(&s, 7, 0, |_, _| {}),
            Err(RunError::NoGames)
        ));
        Ok(())
    }
}

#[cfg(all(test, feature = "grid"))]
#[allow(clippy::unwrap_used)]
mod grid_tests {
    use super::*;

    #[test]
    fn grid_plays_by_name_from_its_default_scenario() -> Result<(), Box<dyn Error>> {
        let grid: RulesetId = "grid".parse()?;
        let s = Scenario::default_for(grid);
        let back = Scenario::from_json(grid, &s.to_json()?)?;
        assert_eq!(back, s);
        // A scenario the grid rules refuse: an objective off the 10 x 12 board.
        let mut v: serde_json::Value = serde_json::from_str(&s.to_json()?)?;
        v["victory"]["objectives"] = serde_json::json!([{ "x": 40, "y": 40 }]);
        let e = Scenario::from_json(grid, &v.to_string()).unwrap_err();
        assert!(matches!(e, ScenarioError::Invalid { .. }), "{e}");
        let summary = simulate(&s, 3, 4, |_, _| {})?;
        for r in &summary.records {
            let one = battle(&s, crate::game::game_seed(3, r.index))?;
            assert_eq!(one.outcome(), r.outcome);
            assert_eq!(one.losses(), r.losses);
            assert_eq!(one.narration().len(), one.events());
            assert_eq!(one.json_lines()?.len(), one.events());
        }
        Ok(())
    }
}
