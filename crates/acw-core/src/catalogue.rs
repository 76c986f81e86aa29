//! Random procedures by name, and options by name.
//!
//! A ruleset crate lists its [`Resolve`] procedures in a [`Catalogue`]: each [`Entry`] has a name, the rule IDs
//! it implements, a one-line description and typed [`Param`]s (a name, a [`Kind`]: yes/no, a whole number in a
//! range, or one of a few choices, and a default). A procedure is built from parameters given as text,
//! `stands=4 cover=true modifier=+1`; every key left out takes its default. A name, key or value the
//! catalogue does not accept is refused with a [`CatalogueError`] that says which and what is accepted. The
//! built procedure ([`Built`]) gives its exact distribution as a table of outcomes labelled for a person
//! ([`OddsTable`]) and can be rolled, so a test can check the two agree for every entry.
//!
//! [`OptionsByName`] is the same for a ruleset's `Options`: every field listed with its kind and default, and
//! set from text by its name.
//!
//! ```
//! use acw_core::catalogue::{Built, Catalogue, Entry, Kind, Param, Values};
//! use acw_core::dice::Die;
//! use acw_core::{Dist, Resolve};
//!
//! /// Hits on 5+ with one d6 plus a modifier.
//! struct Shot { modifier: i64 }
//! impl Resolve for Shot {
//!     type Outcome = bool;
//!     fn roll<D: acw_core::Dice + ?Sized>(&self, dice: &mut D) -> bool {
//!         i64::from(dice.face(Die::D6)) + self.modifier >= 5
//!     }
//!     fn odds(&self) -> Dist<bool> {
//!         Dist::die(Die::D6).map(|&f| i64::from(f) + self.modifier >= 5)
//!     }
//! }
//! fn shot(v: &Values) -> Result<Built, String> {
//!     Ok(Built::labelled(Shot { modifier: v.int("modifier") }, |&hit| {
//!         if hit { "hit".into() } else { "miss".into() }
//!     }))
//! }
//! static ENTRIES: &[Entry] = &[Entry {
//!     name: "shot",
//!     rules: &["EX-01"],
//!     summary: "one d6, 5+ hits after the modifier",
//!     params: &[Param::int("modifier", -3, 3, 0, "added to the die")],
//!     build: shot,
//! }];
//! let catalogue = Catalogue::new("example", ENTRIES);
//! let table = catalogue.build("shot", "modifier=+1")?.table();
//! assert_eq!(table.rows()[1].label, "hit");
//! assert!((table.rows()[1].p - 3.0 / 6.0).abs() < 1e-12);
//! assert!(catalogue.build("shot", "modifier=9").is_err());
//! # Ok::<(), acw_core::catalogue::CatalogueError>(())
//! ```

use crate::dice::Dice;
use crate::measure::Inches;
use crate::odds::Dist;
use crate::{GameRng, Resolve};
use std::fmt;
use thiserror::Error;

/// What values a parameter or option accepts.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Kind {
    /// `true` or `false` (also `yes`/`no`, `on`/`off`).
    Bool,
    /// A whole number from `min` to `max`; a leading `+` is allowed (`modifier=+1`).
    Int {
        /// The least value accepted.
        min: i64,
        /// The greatest value accepted.
        max: i64,
    },
    /// A number (decimals allowed) from `min` to `max`.
    Number {
        /// The least value accepted.
        min: f64,
        /// The greatest value accepted.
        max: f64,
    },
    /// One of these words (case ignored; `-` and `_` are the same).
    Choice(&'static [&'static str]),
    /// A whole number from `min` to `max`, or `none`.
    IntOrNone {
        /// The least value accepted.
        min: i64,
        /// The greatest value accepted.
        max: i64,
    },
    /// A number from `min` to `max`, or `none`.
    NumberOrNone {
        /// The least value accepted.
        min: f64,
        /// The greatest value accepted.
        max: f64,
    },
    /// A side: `union` or `confederate`.
    Side,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Kind::Bool => f.write_str("true or false"),
            Kind::Int { min, max } => write!(f, "a whole number from {min} to {max}"),
            Kind::Number { min, max } => write!(f, "a number from {min} to {max}"),
            Kind::Choice(words) => write!(f, "one of {}", words.join(", ")),
            Kind::IntOrNone { min, max } => {
                write!(f, "a whole number from {min} to {max}, or none")
            }
            Kind::NumberOrNone { min, max } => write!(f, "a number from {min} to {max}, or none"),
            Kind::Side => f.write_str("union or confederate"),
        }
    }
}

/// A value read from text.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Value {
    /// A yes or no.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A number.
    Number(f64),
    /// The index of a choice in its [`Kind::Choice`] list.
    Choice(usize),
    /// `none` for a [`Kind::IntOrNone`].
    None,
    /// A side.
    Side(crate::Side),
}

fn same_word(a: &str, b: &str) -> bool {
    let norm = |s: &str| {
        s.chars()
            .filter(|c| *c != '_' && *c != '-' && *c != ' ')
            .flat_map(char::to_lowercase)
            .collect::<String>()
    };
    norm(a) == norm(b)
}

impl Kind {
    /// Reads `text` as a value of this kind; the error says what is accepted.
    pub fn parse(&self, text: &str) -> Result<Value, ValueError> {
        let t = text.trim();
        let malformed = || ValueError::Malformed {
            value: text.to_string(),
            expected: self.to_string(),
        };
        match *self {
            Kind::Bool => match t.to_ascii_lowercase().as_str() {
                "true" | "yes" | "on" | "1" => Ok(Value::Bool(true)),
                "false" | "no" | "off" | "0" => Ok(Value::Bool(false)),
                _ => Err(malformed()),
            },
            Kind::Int { min, max } => {
                let n: i64 = t
                    .strip_prefix('+')
                    .unwrap_or(t)
                    .parse()
                    .map_err(|_| malformed())?;
                if (min..=max).contains(&n) {
                    Ok(Value::Int(n))
                } else {
                    Err(ValueError::OutOfRange {
                        value: text.to_string(),
                        expected: self.to_string(),
                    })
                }
            }
            Kind::Number { min, max } => {
                let x: f64 = t
                    .strip_prefix('+')
                    .unwrap_or(t)
                    .parse()
                    .map_err(|_| malformed())?;
                if !x.is_finite() {
                    return Err(malformed());
                }
                if (min..=max).contains(&x) {
                    Ok(Value::Number(x))
                } else {
                    Err(ValueError::OutOfRange {
                        value: text.to_string(),
                        expected: self.to_string(),
                    })
                }
            }
            Kind::Choice(words) => words
                .iter()
                .position(|w| same_word(w, t))
                .map(Value::Choice)
                .ok_or_else(malformed),
            Kind::IntOrNone { .. } | Kind::NumberOrNone { .. } => {
                let inner = match *self {
                    Kind::IntOrNone { min, max } => Kind::Int { min, max },
                    Kind::NumberOrNone { min, max } => Kind::Number { min, max },
                    _ => Kind::Bool,
                };
                if same_word(t, "none") {
                    Ok(Value::None)
                } else {
                    inner.parse(text).map_err(|e| match e {
                        ValueError::Malformed { value, .. } => ValueError::Malformed {
                            value,
                            expected: self.to_string(),
                        },
                        ValueError::OutOfRange { value, .. } => ValueError::OutOfRange {
                            value,
                            expected: self.to_string(),
                        },
                    })
                }
            }
            Kind::Side => {
                if same_word(t, "union") {
                    Ok(Value::Side(crate::Side::Union))
                } else if same_word(t, "confederate") {
                    Ok(Value::Side(crate::Side::Confederate))
                } else {
                    Err(malformed())
                }
            }
        }
    }
}

/// A value that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ValueError {
    /// The text is not a value of the kind at all.
    #[error("{value:?} is not {expected}")]
    Malformed {
        /// The text given.
        value: String,
        /// What is accepted, in words.
        expected: String,
    },
    /// A number outside the range.
    #[error("{value} is out of range: the value must be {expected}")]
    OutOfRange {
        /// The text given.
        value: String,
        /// What is accepted, in words.
        expected: String,
    },
}

/// One parameter of a procedure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Param {
    /// Its key, as typed (`stands`).
    pub name: &'static str,
    /// What it accepts.
    pub kind: Kind,
    /// Its value when left out.
    pub default: Value,
    /// What it means, in a few words.
    pub doc: &'static str,
}

impl Param {
    /// A yes/no parameter.
    #[must_use]
    pub const fn bool(name: &'static str, default: bool, doc: &'static str) -> Param {
        Param {
            name,
            kind: Kind::Bool,
            default: Value::Bool(default),
            doc,
        }
    }

    /// A whole-number parameter from `min` to `max`.
    #[must_use]
    pub const fn int(
        name: &'static str,
        min: i64,
        max: i64,
        default: i64,
        doc: &'static str,
    ) -> Param {
        Param {
            name,
            kind: Kind::Int { min, max },
            default: Value::Int(default),
            doc,
        }
    }

    /// A parameter taking one of `choices`; the default is `choices[default]`.
    #[must_use]
    pub const fn choice(
        name: &'static str,
        choices: &'static [&'static str],
        default: usize,
        doc: &'static str,
    ) -> Param {
        Param {
            name,
            kind: Kind::Choice(choices),
            default: Value::Choice(default),
            doc,
        }
    }

    /// The default as it would be typed.
    #[must_use]
    pub fn default_text(&self) -> String {
        show(&self.kind, &self.default)
    }
}

/// A value as it would be typed.
#[must_use]
pub fn show(kind: &Kind, value: &Value) -> String {
    match (kind, value) {
        (Kind::Choice(words), Value::Choice(i)) => words.get(*i).copied().unwrap_or("?").into(),
        (_, Value::Bool(b)) => b.to_string(),
        (_, Value::Int(n)) => n.to_string(),
        (_, Value::Number(x)) => x.to_string(),
        (_, Value::Choice(i)) => i.to_string(),
        (_, Value::None) => "none".into(),
        (_, Value::Side(s)) => s.to_string().to_lowercase(),
    }
}

/// The parameter values a procedure is built from: each key given, or its default.
#[derive(Clone, Debug, PartialEq)]
pub struct Values {
    params: &'static [Param],
    values: Vec<Value>,
}

impl Values {
    fn get(&self, name: &str) -> Option<Value> {
        self.params
            .iter()
            .position(|p| p.name == name)
            .and_then(|i| self.values.get(i).copied())
    }

    /// The yes/no parameter `name` (false if the entry has no such parameter: a catalogue bug its test finds).
    #[must_use]
    pub fn bool(&self, name: &str) -> bool {
        matches!(self.get(name), Some(Value::Bool(true)))
    }

    /// The whole-number parameter `name` (0 if the entry has no such parameter).
    #[must_use]
    pub fn int(&self, name: &str) -> i64 {
        match self.get(name) {
            Some(Value::Int(n)) => n,
            _ => 0,
        }
    }

    /// The index of the choice parameter `name` in its list (0 if the entry has no such parameter).
    #[must_use]
    pub fn choice(&self, name: &str) -> usize {
        match self.get(name) {
            Some(Value::Choice(i)) => i,
            _ => 0,
        }
    }
}

/// A procedure of a ruleset's catalogue.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// Its name, as typed (`attack`).
    pub name: &'static str,
    /// The rule IDs it implements.
    pub rules: &'static [&'static str],
    /// What it is, in one line.
    pub summary: &'static str,
    /// Its parameters.
    pub params: &'static [Param],
    /// Builds it from checked values; an `Err` is a sentence saying why the combination is refused.
    pub build: fn(&Values) -> Result<Built, String>,
}

impl Entry {
    /// The parameter called `key` (case and `-`/`_` ignored).
    #[must_use]
    pub fn param(&self, key: &str) -> Option<&'static Param> {
        self.params.iter().find(|p| same_word(p.name, key))
    }

    /// Builds the procedure from every parameter's default.
    pub fn build_default(&self) -> Result<Built, String> {
        let values = Values {
            params: self.params,
            values: self.params.iter().map(|p| p.default).collect(),
        };
        (self.build)(&values)
    }
}

/// The seed [`Catalogue::check_every_entry`] rolls from.
pub const CHECK_SEED: u64 = 0x00AC_CA7A_1060_0001;

/// A procedure name, key or value a catalogue refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum CatalogueError {
    /// No procedure has this name.
    #[error("the {ruleset} rules have no procedure called {given:?}; they have: {known}")]
    UnknownProcedure {
        /// The ruleset.
        ruleset: &'static str,
        /// The name given.
        given: String,
        /// The names it has, comma-separated.
        known: String,
    },
    /// A parameter was not written `key=value`.
    #[error("{given:?} is not a parameter: write key=value, as in {example}")]
    NotKeyValue {
        /// The text given.
        given: String,
        /// An example with one of the procedure's keys.
        example: String,
    },
    /// The procedure has no parameter of this name.
    #[error("{procedure} has no parameter called {key:?}; its parameters are: {known}")]
    UnknownKey {
        /// The procedure.
        procedure: &'static str,
        /// The key given.
        key: String,
        /// Its keys, comma-separated (or "none").
        known: String,
    },
    /// The same key was given twice.
    #[error("the parameter {key} of {procedure} was given twice")]
    Repeated {
        /// The procedure.
        procedure: &'static str,
        /// The key.
        key: &'static str,
    },
    /// A value the parameter does not accept.
    #[error("the parameter {key} of {procedure}: {source}")]
    BadValue {
        /// The procedure.
        procedure: &'static str,
        /// The key.
        key: &'static str,
        /// What was wrong.
        #[source]
        source: ValueError,
    },
    /// Each value is accepted, but the rules refuse the combination.
    #[error("{procedure} cannot be built with these parameters: {why}")]
    Refused {
        /// The procedure.
        procedure: &'static str,
        /// Why, in a sentence.
        why: String,
    },
}

/// A ruleset's procedures.
#[derive(Clone, Copy, Debug)]
pub struct Catalogue {
    ruleset: &'static str,
    entries: &'static [Entry],
}

impl Catalogue {
    /// The catalogue of `ruleset` (its short name).
    #[must_use]
    pub const fn new(ruleset: &'static str, entries: &'static [Entry]) -> Catalogue {
        Catalogue { ruleset, entries }
    }

    /// The ruleset's short name.
    #[must_use]
    pub const fn ruleset(&self) -> &'static str {
        self.ruleset
    }

    /// Every procedure, in catalogue order.
    #[must_use]
    pub const fn entries(&self) -> &'static [Entry] {
        self.entries
    }

    /// The procedure called `name` (case and `-`/`_` ignored).
    pub fn entry(&self, name: &str) -> Result<&'static Entry, CatalogueError> {
        self.entries
            .iter()
            .find(|e| same_word(e.name, name))
            .ok_or_else(|| CatalogueError::UnknownProcedure {
                ruleset: self.ruleset,
                given: name.to_string(),
                known: self
                    .entries
                    .iter()
                    .map(|e| e.name)
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }

    /// Builds every procedure at its defaults and checks its roll against its odds over `samples` rolls from a
    /// fixed seed; the error names each procedure that fails (or cannot be built at its defaults) and why.
    /// A ruleset's test calls this to cover its whole catalogue.
    pub fn check_every_entry(&self, samples: u32) -> Result<(), String> {
        let mut problems = Vec::new();
        for e in self.entries {
            let outcome = e
                .build_default()
                .and_then(|b| b.check_roll_matches_odds(CHECK_SEED, samples));
            if let Err(why) = outcome {
                problems.push(format!("{}: {why}", e.name));
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems.join("\n"))
        }
    }

    /// Builds `name` from parameters written `key=value` separated by spaces (`"stands=4 cover=true"`).
    pub fn build(&self, name: &str, params: &str) -> Result<Built, CatalogueError> {
        let pairs: Vec<&str> = params.split_whitespace().collect();
        self.build_from(name, &pairs)
    }

    /// Builds `name` from `key=value` pairs, one a string (as a command line gives them).
    pub fn build_from<S: AsRef<str>>(
        &self,
        name: &str,
        pairs: &[S],
    ) -> Result<Built, CatalogueError> {
        let entry = self.entry(name)?;
        let mut values: Vec<Value> = entry.params.iter().map(|p| p.default).collect();
        let mut given = vec![false; entry.params.len()];
        let known = || {
            if entry.params.is_empty() {
                "none".to_string()
            } else {
                entry
                    .params
                    .iter()
                    .map(|p| p.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        for pair in pairs {
            let pair = pair.as_ref();
            let Some((key, value)) = pair.split_once('=') else {
                return Err(CatalogueError::NotKeyValue {
                    given: pair.to_string(),
                    example: entry
                        .params
                        .first()
                        .map(|p| format!("{}={}", p.name, p.default_text()))
                        .unwrap_or_else(|| "key=value (this procedure takes none)".into()),
                });
            };
            let Some(i) = entry.params.iter().position(|p| same_word(p.name, key)) else {
                return Err(CatalogueError::UnknownKey {
                    procedure: entry.name,
                    key: key.to_string(),
                    known: known(),
                });
            };
            let param = &entry.params[i];
            if given[i] {
                return Err(CatalogueError::Repeated {
                    procedure: entry.name,
                    key: param.name,
                });
            }
            given[i] = true;
            values[i] = param
                .kind
                .parse(value)
                .map_err(|source| CatalogueError::BadValue {
                    procedure: entry.name,
                    key: param.name,
                    source,
                })?;
        }
        let values = Values {
            params: entry.params,
            values,
        };
        (entry.build)(&values).map_err(|why| CatalogueError::Refused {
            procedure: entry.name,
            why,
        })
    }
}

/// One outcome of an [`OddsTable`].
#[derive(Clone, Debug, PartialEq)]
pub struct OddsRow {
    /// The outcome, for a person.
    pub label: String,
    /// Its probability.
    pub p: f64,
}

/// The exact distribution of a procedure's outcome, one row per distinct outcome, in the order of the
/// outcome type (a number's rows run from the least).
#[derive(Clone, Debug, PartialEq)]
pub struct OddsTable {
    rows: Vec<OddsRow>,
    numeric: bool,
}

impl OddsTable {
    /// The rows.
    #[must_use]
    pub fn rows(&self) -> &[OddsRow] {
        &self.rows
    }

    /// Whether every label is a number (a total, a count of hits), so the rows can be plotted as a curve and
    /// have a mean.
    #[must_use]
    pub fn numeric(&self) -> bool {
        self.numeric
    }

    /// The probability of the outcome labelled `label` (0 if none is).
    #[must_use]
    pub fn p(&self, label: &str) -> f64 {
        self.rows
            .iter()
            .filter(|r| r.label == label)
            .map(|r| r.p)
            .sum()
    }
}

/// A procedure built from a catalogue: its exact odds, and a roll that says which of its outcomes came up.
pub trait Procedure: Send + Sync {
    /// The exact distribution, labelled.
    fn table(&self) -> OddsTable;
    /// Rolls once from `dice`, giving the index of the outcome in [`Procedure::table`]'s rows, or `None` if the
    /// roll gave an outcome the odds do not list (a disagreement between `roll` and `odds`).
    fn roll_index(&self, dice: &mut dyn Dice) -> Option<usize>;
}

struct Labelled<P: Resolve> {
    procedure: P,
    dist: Dist<P::Outcome>,
    label: fn(&P::Outcome) -> String,
}

impl<P> Procedure for Labelled<P>
where
    P: Resolve + Send + Sync,
    P::Outcome: Ord + Clone + Send + Sync,
{
    fn table(&self) -> OddsTable {
        let rows: Vec<OddsRow> = self
            .dist
            .outcomes()
            .iter()
            .map(|(o, p)| OddsRow {
                label: (self.label)(o),
                p: *p,
            })
            .collect();
        let numeric = rows.iter().all(|r| r.label.parse::<i64>().is_ok());
        OddsTable { rows, numeric }
    }

    fn roll_index(&self, dice: &mut dyn Dice) -> Option<usize> {
        let outcome = self.procedure.roll(dice);
        self.dist
            .outcomes()
            .binary_search_by(|(o, _)| o.cmp(&outcome))
            .ok()
    }
}

/// A procedure built from a catalogue entry.
pub struct Built(Box<dyn Procedure>);

impl Built {
    /// Wraps `procedure`, its outcomes labelled by their `Display`.
    #[must_use]
    pub fn new<P>(procedure: P) -> Built
    where
        P: Resolve + Send + Sync + 'static,
        P::Outcome: Ord + Clone + Send + Sync + fmt::Display + 'static,
    {
        Built::labelled(procedure, |o| o.to_string())
    }

    /// Wraps `procedure`, its outcomes labelled by `label` (for outcome types whose `Display` is not the
    /// best label here, or that have none: `true`/`false` read better as "hit"/"miss").
    #[must_use]
    pub fn labelled<P>(procedure: P, label: fn(&P::Outcome) -> String) -> Built
    where
        P: Resolve + Send + Sync + 'static,
        P::Outcome: Ord + Clone + Send + Sync + 'static,
    {
        let dist = procedure.odds();
        Built(Box::new(Labelled {
            procedure,
            dist,
            label,
        }))
    }

    /// The exact distribution as a table.
    #[must_use]
    pub fn table(&self) -> OddsTable {
        self.0.table()
    }

    /// Rolls once: the index of the outcome among [`Built::table`]'s rows (`None`: an outcome the odds miss).
    pub fn roll_index(&self, dice: &mut dyn Dice) -> Option<usize> {
        self.0.roll_index(dice)
    }

    /// Rolls `samples` times from a fixed seed and compares each outcome's frequency with its exact
    /// probability, as [`crate::Resolve`]'s roll-vs-odds check does; the error lists every outcome out of
    /// line.
    pub fn check_roll_matches_odds(&self, seed: u64, samples: u32) -> Result<(), String> {
        let table = self.table();
        let mut counts = vec![0u32; table.rows.len()];
        let mut rng = GameRng::seed(seed);
        let mut strays = 0u32;
        for _ in 0..samples {
            match self.roll_index(&mut rng) {
                Some(i) => {
                    if let Some(c) = counts.get_mut(i) {
                        *c += 1;
                    }
                }
                None => strays += 1,
            }
        }
        let n = f64::from(samples);
        let mut problems = Vec::new();
        for (row, &count) in table.rows.iter().zip(&counts) {
            let expected = n * row.p;
            let sd = (n * row.p * (1.0 - row.p)).sqrt();
            if (f64::from(count) - expected).abs() > 5.0 * sd + 2.0 {
                problems.push(format!(
                    "{}: rolled {count} times, expected {expected:.1} ± {sd:.1}",
                    row.label
                ));
            }
        }
        if strays > 0 {
            problems.push(format!(
                "{strays} rolls gave outcomes the odds give no chance"
            ));
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems.join("\n"))
        }
    }
}

impl fmt::Debug for Built {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Built").field(&self.table()).finish()
    }
}

/// An option that could not be set by name.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum OptionError {
    /// No option has this name.
    #[error("there is no option called {given:?}; the options are: {known}")]
    Unknown {
        /// The name given.
        given: String,
        /// Every option's name, comma-separated.
        known: String,
    },
    /// Not written `name=value`.
    #[error("{given:?} is not an option setting: write name=value, as in turn_limit=8")]
    NotNameValue {
        /// The text given.
        given: String,
    },
    /// A value the option does not accept.
    #[error("the option {name}: {source}")]
    BadValue {
        /// The option.
        name: &'static str,
        /// What was wrong.
        #[source]
        source: ValueError,
    },
    /// The value is of the right kind but the options refuse it (their own check, as a sentence).
    #[error("the option {name} cannot be {value}: {why}")]
    Refused {
        /// The option.
        name: &'static str,
        /// The value given.
        value: String,
        /// Why.
        why: String,
    },
}

/// One option of a ruleset, for a listing.
#[derive(Clone, Debug, PartialEq)]
pub struct OptionInfo {
    /// Its name, as typed: the field's name (`turn_limit`).
    pub name: &'static str,
    /// What it accepts.
    pub kind: Kind,
    /// Its value under the default options, as it would be typed.
    pub default: String,
}

/// A ruleset's `Options`, settable field by field from text (`turn_limit=8`, `first_side=union`).
pub trait OptionsByName: Sized {
    /// Every option, in the order of the fields.
    fn options() -> Vec<OptionInfo>;

    /// Sets the option `name` from `value`; a refused value changes nothing.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError>;

    /// The option's current value, as it would be typed (`None` for an unknown name).
    fn option_value(&self, name: &str) -> Option<String>;

    /// Sets one option from `name=value`.
    fn set_pair(&mut self, pair: &str) -> Result<(), OptionError> {
        let Some((name, value)) = pair.split_once('=') else {
            return Err(OptionError::NotNameValue {
                given: pair.to_string(),
            });
        };
        self.set_option(name.trim(), value.trim())
    }
}

/// A value type an option field can have: how it is read from text, shown, and described.
pub trait OptionValue: Sized {
    /// What it accepts.
    fn kind() -> Kind;
    /// Reads it.
    fn from_value(value: Value) -> Option<Self>;
    /// Shows it as it would be typed.
    fn show(&self) -> String;
    /// Reads it from text.
    fn parse_option(text: &str) -> Result<Self, ValueError> {
        let kind = Self::kind();
        let v = kind.parse(text)?;
        Self::from_value(v).ok_or(ValueError::Malformed {
            value: text.to_string(),
            expected: kind.to_string(),
        })
    }
}

impl OptionValue for bool {
    fn kind() -> Kind {
        Kind::Bool
    }
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }
    fn show(&self) -> String {
        self.to_string()
    }
}

macro_rules! int_option {
    ($($t:ty),*) => {$(
        impl OptionValue for $t {
            fn kind() -> Kind {
                Kind::Int { min: <$t>::MIN as i64, max: (<$t>::MAX as i64).min(1_000_000) }
            }
            fn from_value(value: Value) -> Option<Self> {
                match value {
                    Value::Int(n) => <$t>::try_from(n).ok(),
                    _ => None,
                }
            }
            fn show(&self) -> String {
                self.to_string()
            }
        }
    )*};
}
int_option!(u8, u16, u32, i8, i16, i32);

impl OptionValue for f64 {
    fn kind() -> Kind {
        Kind::Number {
            min: -1e9,
            max: 1e9,
        }
    }
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Number(x) => Some(x),
            _ => None,
        }
    }
    fn show(&self) -> String {
        self.to_string()
    }
}

impl OptionValue for crate::Side {
    fn kind() -> Kind {
        Kind::Side
    }
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Side(s) => Some(s),
            _ => None,
        }
    }
    fn show(&self) -> String {
        self.to_string().to_lowercase()
    }
}

macro_rules! optional_option {
    ($($t:ty => $kind:ident),*) => {$(
        impl OptionValue for Option<$t> {
            fn kind() -> Kind {
                match <$t as OptionValue>::kind() {
                    Kind::Int { min, max } | Kind::IntOrNone { min, max } => Kind::IntOrNone { min, max },
                    Kind::Number { min, max } | Kind::NumberOrNone { min, max } => {
                        Kind::NumberOrNone { min, max }
                    }
                    other => other,
                }
            }
            fn from_value(value: Value) -> Option<Self> {
                match value {
                    Value::None => Some(None),
                    v => <$t as OptionValue>::from_value(v).map(Some),
                }
            }
            fn show(&self) -> String {
                match self {
                    None => "none".into(),
                    Some(v) => v.show(),
                }
            }
        }
    )*};
}
optional_option!(u8 => Int, u16 => Int, u32 => Int, f64 => Number, Inches => Number);

impl OptionValue for Option<crate::Side> {
    fn kind() -> Kind {
        Kind::Choice(&["none", "union", "confederate"])
    }
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Choice(0) => Some(None),
            Value::Choice(1) => Some(Some(crate::Side::Union)),
            Value::Choice(2) => Some(Some(crate::Side::Confederate)),
            _ => None,
        }
    }
    fn show(&self) -> String {
        match self {
            None => "none".into(),
            Some(s) => s.show(),
        }
    }
}

impl OptionValue for Inches {
    fn kind() -> Kind {
        Kind::Number { min: 0.0, max: 1e6 }
    }
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Number(x) => Some(Inches(x)),
            _ => None,
        }
    }
    fn show(&self) -> String {
        self.0.to_string()
    }
}

/// The word for a variant name as typed: `Minus1Always` is `minus1-always`.
#[must_use]
pub fn kebab(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                out.push('-');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// Implements [`OptionValue`] for a field-less enum with `strum::EnumIter` and a derived `Debug`: its choices
/// are the variants' names in kebab case (`Minus1Always` is `minus1-always`), read back with case and
/// `-`/`_` ignored. The crate must depend on `strum`.
#[macro_export]
macro_rules! choice_option {
    ($($t:ty),* $(,)?) => {$(
        impl $crate::catalogue::OptionValue for $t {
            fn kind() -> $crate::catalogue::Kind {
                use ::std::sync::OnceLock;
                // The words are made once per type, at the first listing or setting, and live for the program.
                static WORDS: OnceLock<&'static [&'static str]> = OnceLock::new();
                let words = WORDS.get_or_init(|| {
                    let v: Vec<&'static str> = <$t as ::strum::IntoEnumIterator>::iter()
                        .map(|x| &*::std::boxed::Box::leak(
                            $crate::catalogue::kebab(&format!("{x:?}")).into_boxed_str(),
                        ))
                        .collect();
                    ::std::boxed::Box::leak(v.into_boxed_slice())
                });
                $crate::catalogue::Kind::Choice(words)
            }
            fn from_value(value: $crate::catalogue::Value) -> Option<Self> {
                match value {
                    $crate::catalogue::Value::Choice(i) => <$t as ::strum::IntoEnumIterator>::iter().nth(i),
                    _ => None,
                }
            }
            fn show(&self) -> String {
                $crate::catalogue::kebab(&format!("{self:?}"))
            }
        }
    )*};
}

/// Implements [`OptionValue`] for a field-less enum from its variants and the word for each
/// (`choice_words!(Muskets { Quarter => "quarter", AllExperienced => "all-experienced" })`), for enums
/// without `strum` names.
#[macro_export]
macro_rules! choice_words {
    ($t:ident { $($v:ident => $w:literal),+ $(,)? }) => {
        impl $crate::catalogue::OptionValue for $t {
            fn kind() -> $crate::catalogue::Kind {
                $crate::catalogue::Kind::Choice(&[$($w),+])
            }
            fn from_value(value: $crate::catalogue::Value) -> Option<Self> {
                let all = [$($t::$v),+];
                match value {
                    $crate::catalogue::Value::Choice(i) => all.get(i).copied(),
                    _ => None,
                }
            }
            fn show(&self) -> String {
                match self {
                    $($t::$v => $w.to_string(),)+
                }
            }
        }
    };
}

/// Implements [`OptionsByName`] for an options struct from the list of its fields, each of a type with
/// [`OptionValue`]; `check` is the struct's own validation (`|o| o.validate().map_err(|e| e.to_string())`),
/// run on a copy before a new value is kept.
#[macro_export]
macro_rules! options_by_name {
    ($t:ty, check = $check:expr, [$($field:ident),* $(,)?]) => {
        impl $crate::catalogue::OptionsByName for $t {
            fn options() -> Vec<$crate::catalogue::OptionInfo> {
                let d = <$t as Default>::default();
                vec![$($crate::catalogue::OptionInfo {
                    name: stringify!($field),
                    kind: $crate::catalogue::OptionValueOf::kind_of(&d.$field),
                    default: $crate::catalogue::OptionValue::show(&d.$field),
                }),*]
            }
            fn set_option(&mut self, name: &str, value: &str) -> Result<(), $crate::catalogue::OptionError> {
                let check: fn(&$t) -> Result<(), String> = $check;
                let mut copy = self.clone();
                match name.trim() {
                    $(stringify!($field) => {
                        copy.$field = $crate::catalogue::OptionValueOf::parse_like(&copy.$field, value)
                            .map_err(|source| $crate::catalogue::OptionError::BadValue {
                                name: stringify!($field),
                                source,
                            })?;
                        check(&copy).map_err(|why| $crate::catalogue::OptionError::Refused {
                            name: stringify!($field),
                            value: value.trim().to_string(),
                            why,
                        })?;
                    })*
                    other => {
                        return Err($crate::catalogue::OptionError::Unknown {
                            given: other.to_string(),
                            known: [$(stringify!($field)),*].join(", "),
                        })
                    }
                }
                *self = copy;
                Ok(())
            }
            fn option_value(&self, name: &str) -> Option<String> {
                match name.trim() {
                    $(stringify!($field) => Some($crate::catalogue::OptionValue::show(&self.$field)),)*
                    _ => None,
                }
            }
        }
    };
}

/// Helpers the [`options_by_name!`] macro calls through a value, so the field's type is inferred.
pub trait OptionValueOf {
    /// The kind of this value's type.
    fn kind_of(&self) -> Kind;
    /// Reads text as a value of this value's type.
    fn parse_like(&self, text: &str) -> Result<Self, ValueError>
    where
        Self: Sized;
}

impl<T: OptionValue> OptionValueOf for T {
    fn kind_of(&self) -> Kind {
        T::kind()
    }
    fn parse_like(&self, text: &str) -> Result<Self, ValueError> {
        T::parse_option(text)
    }
}
