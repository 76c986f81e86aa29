//! The game layer every ruleset shares: the [`Ruleset`] and [`Commander`] traits, [`play`] for one game and
//! [`simulate`] for many.
//!
//! A ruleset owns its state, orders and events; acw-core owns the loop. [`play`] asks the side to order
//! ([`Ruleset::to_order`]) for an order from its commander, applies it (the ruleset rolls with the state's own
//! [`crate::GameRng`]), and stops at an [`Outcome`]. [`simulate`] plays many games in parallel, each from a seed
//! derived from (batch seed, game index), so the summary never depends on the thread count.

use crate::GameRng;
use crate::vocab::{BySide, Side};
use rand::Rng;
use std::collections::BTreeMap;
use std::error::Error;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use thiserror::Error;

/// Who won, or a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum GameResult {
    /// This side won.
    Winner(Side),
    /// Neither side won.
    Draw,
}

/// How a game ended: the result, why, and on which turn.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Outcome {
    /// Who won, or a draw.
    pub result: GameResult,
    /// Why the game ended (a victory condition, the turn limit …).
    pub reason: String,
    /// The turn on which it ended (the first turn is 1).
    pub turn: u32,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.result {
            GameResult::Winner(s) => {
                write!(f, "{s} victory on turn {}: {}", self.turn, self.reason)
            }
            GameResult::Draw => write!(f, "draw on turn {}: {}", self.turn, self.reason),
        }
    }
}

/// A ruleset playable as a whole game.
///
/// The required hooks are few: build a state from a scenario, say who is to order, apply an order, say whether the
/// game is over, and count losses. An order is one natural decision point of the ruleset (a side's phase, a unit's
/// activation); the ruleset resolves all chance between decisions and logs every roll as an event.
///
/// Contract (checked by `testing::conformance`): a refused order returns an error and leaves the state exactly
/// as it was; the state carries its own generator, so a cloned or saved-and-loaded state continues identically.
pub trait Ruleset {
    /// Forces, terrain and turn limit of a battle.
    type Scenario;
    /// The whole game in progress, including its generator.
    type State: Clone;
    /// What the side to order decides.
    type Order;
    /// What happened: the log, for narration, replay and statistics.
    type Event;
    /// Why a scenario cannot be set up.
    type SetupError: Error + Send + Sync + 'static;
    /// Why an order is refused.
    type RuleError: Error + Send + Sync + 'static;

    /// The starting state of `scenario`, its dice seeded from `seed`.
    fn setup(&self, scenario: &Self::Scenario, seed: u64) -> Result<Self::State, Self::SetupError>;

    /// The side to give the next order; `None` when the game is over.
    fn to_order(&self, state: &Self::State) -> Option<Side>;

    /// Applies `order` for the side to order, appending what happened to `log`. A refused order changes neither
    /// `state` nor `log`.
    fn apply(
        &self,
        state: &mut Self::State,
        order: Self::Order,
        log: &mut Vec<Self::Event>,
    ) -> Result<(), Self::RuleError>;

    /// How the game ended, once it has.
    fn outcome(&self, state: &Self::State) -> Option<Outcome>;

    /// Each side's losses so far, in the ruleset's own count (stands, figures, men).
    fn losses(&self, state: &Self::State) -> BySide<u32>;
}

/// Decides orders for one side: a person through a UI, or a bot.
pub trait Commander<R: Ruleset> {
    /// The order for `side` in `state`.
    fn order(&mut self, rules: &R, state: &R::State, side: Side) -> R::Order;
}

/// Why a game could not be played to its end.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum PlayError<S: Error + 'static, E: Error + 'static> {
    /// The scenario could not be set up.
    #[error("setup failed: {0}")]
    Setup(#[source] S),
    /// A commander gave an order the rules refuse.
    #[error("order {number} of {side} refused: {error}")]
    Refused {
        /// The side whose order was refused.
        side: Side,
        /// Which order of the game it was (from 0).
        number: u64,
        /// Why.
        #[source]
        error: E,
    },
    /// The game reached no outcome within the order limit.
    #[error("no outcome after {0} orders")]
    TooLong(u64),
    /// No side was to order, yet the game had no outcome (a ruleset bug).
    #[error("no side to order and no outcome")]
    Stuck,
}

/// The error type of playing ruleset `R`.
pub type PlayErrorOf<R> = PlayError<<R as Ruleset>::SetupError, <R as Ruleset>::RuleError>;

/// A game played to its end.
pub struct Played<R: Ruleset> {
    /// How it ended.
    pub outcome: Outcome,
    /// Every event, in order.
    pub log: Vec<R::Event>,
    /// The final state.
    pub state: R::State,
    /// How many orders were applied.
    pub orders: u64,
}

/// The most orders [`play`] applies before giving up with [`PlayError::TooLong`].
pub const MAX_ORDERS: u64 = 1_000_000;

/// Plays one game of `scenario` from `seed` between two commanders, to its outcome.
pub fn play<R: Ruleset>(
    rules: &R,
    scenario: &R::Scenario,
    seed: u64,
    commanders: BySide<&mut dyn Commander<R>>,
) -> Result<Played<R>, PlayErrorOf<R>> {
    let state = rules.setup(scenario, seed).map_err(PlayError::Setup)?;
    resume(rules, state, Vec::new(), commanders)
}

/// Continues a game from `state` (a loaded save, say) to its outcome, appending to `log`.
pub fn resume<R: Ruleset>(
    rules: &R,
    mut state: R::State,
    mut log: Vec<R::Event>,
    mut commanders: BySide<&mut dyn Commander<R>>,
) -> Result<Played<R>, PlayErrorOf<R>> {
    let mut orders = 0u64;
    loop {
        if let Some(outcome) = rules.outcome(&state) {
            return Ok(Played {
                outcome,
                log,
                state,
                orders,
            });
        }
        let Some(side) = rules.to_order(&state) else {
            return Err(PlayError::Stuck);
        };
        if orders >= MAX_ORDERS {
            return Err(PlayError::TooLong(orders));
        }
        let order = commanders[side].order(rules, &state, side);
        rules
            .apply(&mut state, order, &mut log)
            .map_err(|error| PlayError::Refused {
                side,
                number: orders,
                error,
            })?;
        orders += 1;
    }
}

/// One game's result inside a [`Summary`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GameRecord {
    /// The game's index in the batch.
    pub index: u64,
    /// How it ended.
    pub outcome: Outcome,
    /// Losses per side at the end.
    pub losses: BySide<u32>,
}

/// A proportion with its 95% confidence interval (Wilson score interval).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rate {
    /// Observed proportion.
    pub p: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

impl Rate {
    /// `hits` out of `n`, with the Wilson 95% interval (z = 1.959964). `n == 0` gives 0 in 0..1.
    pub fn wilson(hits: u64, n: u64) -> Rate {
        if n == 0 {
            return Rate {
                p: 0.0,
                low: 0.0,
                high: 1.0,
            };
        }
        let z = 1.959_963_984_540_054_f64;
        let (h, n) = (hits as f64, n as f64);
        let p = h / n;
        let denom = 1.0 + z * z / n;
        let centre = (p + z * z / (2.0 * n)) / denom;
        let half = z * ((p * (1.0 - p) / n) + z * z / (4.0 * n * n)).sqrt() / denom;
        Rate {
            p,
            low: (centre - half).max(0.0),
            high: (centre + half).min(1.0),
        }
    }
}

impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:.1}% (95% CI {:.1}–{:.1}%)",
            self.p * 100.0,
            self.low * 100.0,
            self.high * 100.0
        )
    }
}

/// What a batch of games showed.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Summary {
    /// Games played.
    pub games: u64,
    /// Wins per side.
    pub wins: BySide<u64>,
    /// Draws.
    pub draws: u64,
    /// Each side's win rate with its interval.
    pub win_rate: BySide<Rate>,
    /// The draw rate with its interval.
    pub draw_rate: Rate,
    /// How many games ended on each turn.
    pub length: BTreeMap<u32, u64>,
    /// For each side, how many games ended with each loss count.
    pub losses: BySide<BTreeMap<u32, u64>>,
    /// Every game, in index order.
    pub records: Vec<GameRecord>,
}

impl Summary {
    /// Summarises records (in any order; they are sorted by index).
    pub fn from_records(mut records: Vec<GameRecord>) -> Summary {
        records.sort_by_key(|r| r.index);
        let games = records.len() as u64;
        let mut wins = BySide::new(0u64, 0u64);
        let mut draws = 0;
        let mut length = BTreeMap::new();
        let mut losses = BySide::new(BTreeMap::new(), BTreeMap::new());
        for r in &records {
            match r.outcome.result {
                GameResult::Winner(s) => wins[s] += 1,
                GameResult::Draw => draws += 1,
            }
            *length.entry(r.outcome.turn).or_insert(0) += 1;
            for side in Side::both() {
                *losses[side].entry(r.losses[side]).or_insert(0) += 1;
            }
        }
        Summary {
            games,
            wins,
            draws,
            win_rate: wins.map(|_, w| Rate::wilson(w, games)),
            draw_rate: Rate::wilson(draws, games),
            length,
            losses,
            records,
        }
    }

    /// Mean game length in turns.
    pub fn mean_length(&self) -> f64 {
        mean_of(&self.length)
    }

    /// Mean losses of `side`.
    pub fn mean_losses(&self, side: Side) -> f64 {
        mean_of(&self.losses[side])
    }
}

fn mean_of(h: &BTreeMap<u32, u64>) -> f64 {
    let n: u64 = h.values().sum();
    if n == 0 {
        return 0.0;
    }
    h.iter()
        .map(|(k, c)| f64::from(*k) * *c as f64)
        .sum::<f64>()
        / n as f64
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} games", self.games)?;
        for side in Side::both() {
            writeln!(
                f,
                "  {side} wins: {} = {}; mean losses {:.2}",
                self.wins[side],
                self.win_rate[side],
                self.mean_losses(side)
            )?;
        }
        writeln!(f, "  draws: {} = {}", self.draws, self.draw_rate)?;
        write!(f, "  mean length {:.2} turns", self.mean_length())
    }
}

/// A game of a batch that failed, with its index and seed so it can be replayed alone.
#[derive(Debug, Error)]
#[error("game {index} (seed {seed}) failed: {error}")]
pub struct SimError<S: Error + 'static, E: Error + 'static> {
    /// The game's index in the batch.
    pub index: u64,
    /// The seed it was played from ([`game_seed`]).
    pub seed: u64,
    /// What went wrong.
    #[source]
    pub error: PlayError<S, E>,
}

/// The seed of game `index` of a batch started from `seed`.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    GameRng::for_game(seed, index).next_u64()
}

/// Plays `games` games of `scenario` in parallel and summarises them.
///
/// Game `i` is set up from [`game_seed`]`(seed, i)`, and `commanders(side, game seed)` makes its commanders, so
/// every game and the summary are the same whatever the thread count. `progress(done, total)` is called after
/// each game, from whichever thread played it.
pub fn simulate<R, F, P>(
    rules: &R,
    scenario: &R::Scenario,
    seed: u64,
    games: u64,
    commanders: F,
    progress: P,
) -> Result<Summary, SimError<R::SetupError, R::RuleError>>
where
    R: Ruleset + Sync,
    R::Scenario: Sync,
    F: Fn(Side, u64) -> Box<dyn Commander<R>> + Sync,
    P: Fn(u64, u64) + Sync,
{
    use rayon::prelude::*;
    let done = AtomicU64::new(0);
    let records: Result<Vec<GameRecord>, _> = (0..games)
        .into_par_iter()
        .map(|index| {
            let seed = game_seed(seed, index);
            let mut union = commanders(Side::Union, seed);
            let mut confederate = commanders(Side::Confederate, seed);
            let played = play(
                rules,
                scenario,
                seed,
                BySide::new(union.as_mut(), confederate.as_mut()),
            )
            .map_err(|error| SimError { index, seed, error })?;
            progress(done.fetch_add(1, Ordering::Relaxed) + 1, games);
            Ok(GameRecord {
                index,
                losses: rules.losses(&played.state),
                outcome: played.outcome,
            })
        })
        .collect();
    Ok(Summary::from_records(records?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_by_hand() {
        // 50 of 100: centre 0.5, half-width 1.96*sqrt(0.0025 + 1.96^2/40000)/(1+1.96^2/100).
        let r = Rate::wilson(50, 100);
        let z = 1.959_963_984_540_054_f64;
        let half = z * (0.0025f64 + z * z / 40000.0).sqrt() / (1.0 + z * z / 100.0);
        assert!((r.p - 0.5).abs() < 1e-12);
        assert!((r.low - (0.5 - half)).abs() < 1e-12);
        assert!((r.high - (0.5 + half)).abs() < 1e-12);
        // 0 of 10: the interval still reaches above 0 (to z²/(n+z²) = 0.2775).
        let r = Rate::wilson(0, 10);
        assert!((r.high - z * z / (10.0 + z * z)).abs() < 1e-12);
        assert_eq!(r.low, 0.0);
    }
}
