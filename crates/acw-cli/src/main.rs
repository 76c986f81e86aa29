//! # acw, the command
//!
//! Dice rolls, exact odds, narrated battles and seeded simulations of the acw rulesets, from a terminal.
//!
//! ```text
//! cargo run --release -p acw-cli -- battle            # or: cargo install --path crates/acw-cli; acw battle
//! acw roll 4d6kh3 --times 3 --seed 7                  # faces and totals (kept faces, then dropped in brackets)
//! acw odds 3d6                                        # exact distribution: P(=), P(≥), P(≤), ways, a bar
//! acw odds 2d6+1 --csv > odds.csv                     # or --json; --plot odds.svg draws it
//! acw battle north --seed 7                           # a narrated battle on the default scenario
//! acw battle --json > log.jsonl                       # the event log, one JSON object a line
//! acw rules north                                     # the procedures by name; --options lists the options
//! acw odds north attack attackers=2 cover=true        # a whole attack's exact odds, to its morale result
//! acw battle north --luck                             # ... and each side's luck at the end
//! acw battle north --json > log.jsonl; acw luck north log.jsonl
//! acw compare north --games 400 --option first_side=union   # what an option is worth, paired seeds
//! acw scenario north --out my.json                    # the default scenario, to edit
//! acw battle north --scenario my.json                 # ... and to play
//! acw simulate north --games 10000 --plot losses.svg  # progress bar, win rates with 95% intervals
//! acw simulate north --games 1000 --csv games.csv     # one row a game; --json for the summary
//! ```
//!
//! Dice notation is `[count]d<sides>[kh|kl|dh|dl<n>][+|-<modifier>]`: `3d6`, `4d6kh3` (keep the highest 3),
//! `20d6dh1` (drop the highest), `2d6+1`, `d30`.
//!
//! The rulesets that can be played are those compiled into this build (`acw battle --help` lists them; by default
//! all five: `d8`, `grid`, `hardtack`, `north` and `tsatf`). A known ruleset left out of the build is refused with a
//! sentence saying which cargo feature adds it.
//!
//! `simulate` plays game `i` from a seed derived from `--seed` and `i`, on a pool of `--threads` threads: the
//! numbers printed are the same on any thread count. The progress bar goes to standard error and only when it
//! is a terminal; the time taken is written there too, so standard output is the same from run to run.
//!
//! ## Exit codes
//!
//! - `0`: done.
//! - `1`: the command could not be carried out: a scenario file missing or not a valid scenario, a file that
//!   cannot be written, a game the rules could not finish, exact odds that would take more than about a second
//!   to work out (`acw odds 64d1000kh32`). The message says which and what to do.
//! - `2`: the command line is wrong: an unknown subcommand or option, malformed dice notation, an unknown
//!   ruleset or one that cannot be played yet, `--games 0`, `--times 0`, `--threads 0`, `--json` with
//!   `--csv`, an unknown procedure, parameter or option of a ruleset or a value it does not accept. The message names the argument and what it accepts.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod analysis;
mod dice;
mod games;
mod plot;

use acw::RulesetId;
use acw::dice::DiceExpr;
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// Dice rolls, exact odds, narrated battles and seeded simulations of American Civil War miniatures rules.
#[derive(Debug, Parser)]
#[command(name = "acw", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Roll dice: every face and the total.
    Roll {
        /// Dice notation: 3d6, 4d6kh3, 20d6dh1, 2d6+1, d30.
        notation: DiceExpr,
        /// Seed of the roll (the same seed gives the same faces); a fresh one, printed, when left out.
        #[arg(long)]
        seed: Option<u64>,
        /// How many times to roll (1 to 1000000).
        #[arg(long, default_value_t = 1, value_parser = parse_times)]
        times: u64,
    },
    /// The exact distribution of a roll's total (P(=), P(≥), P(≤), mean and spread), or of a ruleset's
    /// procedure by name: `acw odds north attack attackers=2 cover=true`.
    Odds {
        /// Dice notation (3d6, 4d6kh3, 20d6dh1, 2d6+1, d30), or a ruleset's name followed by a procedure.
        notation: String,
        /// A procedure of the ruleset (`acw rules RULESET` lists them).
        procedure: Option<String>,
        /// The procedure's parameters, key=value (any left out take their defaults).
        params: Vec<String>,
        /// Print the distribution as JSON instead of a table.
        #[arg(long, conflicts_with = "csv")]
        json: bool,
        /// Print the distribution as CSV instead of a table (dice notation only).
        #[arg(long)]
        csv: bool,
        /// Also draw the distribution into this SVG file.
        #[arg(long, value_name = "FILE.svg")]
        plot: Option<PathBuf>,
    },
    /// One battle between the ruleset's bots, narrated (or its event log as JSON lines).
    Battle {
        /// The ruleset (one of those listed by `acw battle --help`); north when left out.
        #[arg(default_value = "north", value_parser = parse_ruleset, help = ruleset_help())]
        ruleset: RulesetId,
        /// Seed of the battle: the same seed plays the same battle.
        #[arg(long, default_value_t = 1863)]
        seed: u64,
        /// Play this scenario (JSON, as `acw scenario` writes it) instead of the default one.
        #[arg(long, value_name = "FILE")]
        scenario: Option<PathBuf>,
        /// Print the event log, one JSON object a line, then a last line with the end of the game.
        #[arg(long)]
        json: bool,
        /// Also print each side's luck: how far its dice ran above or below their odds (with --json, a last
        /// line {"luck": ...}).
        #[arg(long)]
        luck: bool,
    },
    /// A ruleset's random procedures by name, with their rule IDs and parameters (or its options).
    Rules {
        /// The ruleset: north, d8, tsatf, grid or hardtack.
        ruleset: String,
        /// List the options instead (their names, defaults and what each accepts).
        #[arg(long)]
        options: bool,
    },
    /// Each side's luck over a log saved by `acw battle --json`.
    Luck {
        /// The ruleset the log is of.
        #[arg(value_parser = parse_ruleset, help = ruleset_help())]
        ruleset: RulesetId,
        /// The log, one JSON event a line.
        #[arg(value_name = "LOG.jsonl")]
        log: PathBuf,
        /// Print the luck as JSON.
        #[arg(long)]
        json: bool,
    },
    /// What options are worth: the same seeds played under the default options and changed ones, the
    /// differences in win rates and losses with 95% intervals.
    Compare {
        /// The ruleset.
        #[arg(value_parser = parse_ruleset, help = ruleset_help())]
        ruleset: RulesetId,
        /// How many games under each set of options (at least 2).
        #[arg(long, value_parser = parse_pairs)]
        games: u64,
        /// Seed of the batch: game i of both batches is played from the same seed, derived from it and i.
        #[arg(long, default_value_t = 1863)]
        seed: u64,
        /// An option to change, name=value (`acw rules RULESET --options` lists them); repeat for more.
        #[arg(long = "option", value_name = "NAME=VALUE", required = true)]
        options: Vec<String>,
        /// Start from this scenario (JSON, as `acw scenario` writes it) instead of the default one.
        #[arg(long, value_name = "FILE")]
        scenario: Option<PathBuf>,
        /// Print the comparison as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Many battles: win and draw rates with 95% intervals, game length and losses.
    Simulate {
        /// The ruleset (one of those listed by `acw simulate --help`); north when left out.
        #[arg(default_value = "north", value_parser = parse_ruleset, help = ruleset_help())]
        ruleset: RulesetId,
        /// How many games (at least 1).
        #[arg(long, value_parser = parse_games)]
        games: u64,
        /// Seed of the batch: game i is played from a seed derived from it and i.
        #[arg(long, default_value_t = 1863)]
        seed: u64,
        /// Threads to play on (default: one per core); the results do not depend on it.
        #[arg(long, value_parser = parse_threads)]
        threads: Option<u16>,
        /// Play this scenario (JSON, as `acw scenario` writes it) instead of the default one.
        #[arg(long, value_name = "FILE")]
        scenario: Option<PathBuf>,
        /// Write one CSV row per game to this file.
        #[arg(long, value_name = "FILE")]
        csv: Option<PathBuf>,
        /// Print the summary as JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Draw each side's loss distribution into this SVG file.
        #[arg(long, value_name = "FILE.svg")]
        plot: Option<PathBuf>,
    },
    /// The ruleset's default scenario as JSON, to edit and load back with --scenario.
    Scenario {
        /// The ruleset.
        #[arg(value_parser = parse_ruleset, help = ruleset_help())]
        ruleset: RulesetId,
        /// Write it to this file instead of standard output.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
}

fn parse_ruleset(text: &str) -> Result<RulesetId, acw::RulesetError> {
    text.parse()
}

/// A whole number from `low` to `high`, or a sentence saying what is accepted.
fn whole_number(text: &str, low: u64, high: u64, what: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(n) if (low..=high).contains(&n) => Ok(n),
        Ok(_) | Err(_) if high == u64::MAX => {
            Err(format!("{what} must be a whole number, at least {low}"))
        }
        _ => Err(format!(
            "{what} must be a whole number from {low} to {high}"
        )),
    }
}

fn parse_games(text: &str) -> Result<u64, String> {
    whole_number(text, 1, u64::MAX, "the number of games")
}

fn parse_pairs(text: &str) -> Result<u64, String> {
    whole_number(text, 2, u64::MAX, "the number of games")
}

fn parse_times(text: &str) -> Result<u64, String> {
    whole_number(text, 1, 1_000_000, "the number of rolls")
}

fn parse_threads(text: &str) -> Result<u16, String> {
    // 1 to 1024 fits a u16.
    whole_number(text, 1, 1024, "the number of threads").map(|n| n as u16)
}

fn ruleset_help() -> String {
    let names: Vec<String> = RulesetId::ALL
        .iter()
        .map(|r| format!("{r} ({})", r.title()))
        .collect();
    format!("The ruleset: {}", names.join(", "))
}

/// What went wrong while carrying out a command (exit code 1).
#[derive(Debug, thiserror::Error)]
enum Failure {
    #[error(transparent)]
    Odds(#[from] acw::odds::OddsError),
    #[error(transparent)]
    Scenario(#[from] acw::runtime::ScenarioError),
    #[error(transparent)]
    Run(#[from] acw::runtime::RunError),
    #[error("cannot write {path}: {source}")]
    Write {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot write the CSV file {path}: {source}")]
    Csv {
        path: String,
        #[source]
        source: csv::Error,
    },
    #[error("cannot draw the chart into {path}: {why}")]
    Plot { path: String, why: String },
    #[error("cannot write JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("cannot start {threads} threads: {why}")]
    Threads { threads: u16, why: String },
    #[error("cannot write to standard output: {0}")]
    Stdout(std::io::Error),
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Luck(#[from] acw::runtime::LuckError),
    /// A wrong command line found after parsing (a procedure or option name, a parameter): exit code 2.
    #[error("{0}")]
    Usage(String),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Roll {
            notation,
            seed,
            times,
        } => dice::roll(&notation, seed, times),
        Command::Odds {
            notation,
            procedure: Some(procedure),
            params,
            json,
            csv,
            plot,
        } => {
            if csv {
                Err(Failure::Usage(
                    "--csv is for dice notation; a procedure's odds are printed as a table or --json".into(),
                ))
            } else {
                analysis::procedure_odds(&notation, &procedure, &params, json, plot.as_deref())
            }
        }
        Command::Odds {
            notation,
            procedure: None,
            json,
            csv,
            plot,
            ..
        } => match notation.parse::<DiceExpr>() {
            Ok(expr) => dice::odds(&expr, json, csv, plot.as_deref()),
            Err(e) => Err(Failure::Usage(format!(
                "invalid value '{notation}' for '<NOTATION>': {e} (or give a ruleset and a procedure: acw odds north attack)"
            ))),
        },
        Command::Battle {
            ruleset,
            seed,
            scenario,
            json,
            luck,
        } => games::battle(ruleset, seed, scenario.as_deref(), json, luck),
        Command::Rules { ruleset, options } => analysis::rules(&ruleset, options),
        Command::Luck { ruleset, log, json } => analysis::luck(ruleset, &log, json),
        Command::Compare {
            ruleset,
            games,
            seed,
            options,
            scenario,
            json,
        } => analysis::compare(&analysis::CompareArgs {
            ruleset,
            games,
            seed,
            options: &options,
            scenario: scenario.as_deref(),
            json,
        }),
        Command::Simulate {
            ruleset,
            games,
            seed,
            threads,
            scenario,
            csv,
            json,
            plot,
        } => games::simulate(&games::SimulateArgs {
            ruleset,
            games,
            seed,
            threads,
            scenario: scenario.as_deref(),
            csv: csv.as_deref(),
            json,
            plot: plot.as_deref(),
        }),
        Command::Scenario { ruleset, out } => games::scenario(ruleset, out.as_deref()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`acw odds 20d6 | head`) is not an error worth a message.
        Err(Failure::Stdout(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Usage(why)) => {
            eprintln!("error: {why}");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Writes a line to standard output, reporting a failure instead of panicking as `println!` does.
fn out(line: impl std::fmt::Display) -> Result<(), Failure> {
    use std::io::Write;
    writeln!(std::io::stdout().lock(), "{line}").map_err(Failure::Stdout)
}
