//! The game layer every ruleset shares: the [`Ruleset`] and [`Commander`] traits, the [`Game`] driver, [`play`]
//! for one game and `simulate` for many (feature `parallel`).
//!
//! A ruleset owns its state, orders, questions and events; acw-core owns the loop. [`Game`] holds a game in
//! progress and says what it waits for ([`Owed`]): a decision of a named side — the side in its phase, or the
//! other side answering in the middle of it — or, when played with real dice ([`Dicing::AtTheTable`]), the face
//! of a die and what it is for. [`play`] and [`resume`] are loops over it that ask [`Commander`]s for the
//! decisions; `simulate` plays many games in parallel, each from a seed derived from (batch seed, game
//! index), so the summary never depends on the thread count.

mod driver;

pub use driver::{
    Dicing, Game, HeldOrder, LoadError, Owed, Refusal, Refused, RefusedOf, SavedGame, SavedGameOf,
    Submitted, Throw, ThrowError, ThrowErrorOf,
};

use crate::GameRng;
use crate::dice::Dice;
use crate::vocab::{BySide, Side};
use rand::Rng;
use std::collections::BTreeMap;
use std::error::Error;
use std::fmt;
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

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum EndReason {
    /// A side had no units left in play.
    Annihilation,
    /// An army broke or fled (its morale, or a break point of the rules).
    ArmyBroken,
    /// The turn limit was reached; the ruleset decided the result on what was left (losses, ground held).
    TurnLimit,
    /// A victory condition of the scenario was met.
    Scenario,
}

impl EndReason {
    /// Whether the game was decided by the rules before the turn limit.
    #[must_use]
    pub const fn before_turn_limit(self) -> bool {
        !matches!(self, EndReason::TurnLimit)
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndReason::Annihilation => "a side has no units left in play",
            EndReason::ArmyBroken => "an army broke",
            EndReason::TurnLimit => {
                "the turn limit was reached and the result decided on what was left"
            }
            EndReason::Scenario => "a victory condition of the scenario was met",
        })
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameResult::Winner(s) => write!(f, "{s} victory"),
            GameResult::Draw => f.write_str("draw"),
        }
    }
}

/// How a game ended: the result, why, and on which turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Outcome {
    /// Who won, or a draw.
    pub result: GameResult,
    /// Why the game ended.
    pub reason: EndReason,
    /// The turn on which it ended (the first turn is 1).
    pub turn: u32,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} on turn {}: {}", self.result, self.turn, self.reason)
    }
}

/// Who owes the next decision, and what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Decision<Q> {
    /// The side that decides: the side in its phase, or the other side answering (a rally, a choice, an
    /// allocation of hits).
    pub side: Side,
    /// What it is asked, in the ruleset's own terms; its `Display` reads as a question to a player.
    pub question: Q,
}

impl<Q: fmt::Display> fmt::Display for Decision<Q> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.side, self.question)
    }
}

/// A ruleset playable as a whole game.
///
/// The required hooks are few: build a state from a scenario, say who owes which decision, apply an order with
/// dice from a given source, give the state's own generator, say whether the game is over, and count losses.
/// An order is one natural decision of the ruleset (a side's command step, a unit's action, the defender's
/// answer to a morale toss); the ruleset resolves all chance between decisions and logs every roll as an event.
///
/// Most callers do not use these hooks directly but drive a game through [`Game`], which owns the state and the
/// log, keeps the dice, and pauses for dice thrown at the table.
///
/// Contract (checked by `testing::conformance`):
/// - a refused order returns an error and leaves the state exactly as it was;
/// - [`Ruleset::apply_with`] takes every face and card from the source it is given, says what each roll is for
///   ([`Dice::about`]), and refuses (changing nothing) when that source faulted ([`Dice::fault`]): a face
///   that was never thrown must not become a result;
/// - the state carries its own generator ([`Ruleset::rng_mut`]), so a cloned or saved-and-loaded state
///   continues identically.
pub trait Ruleset {
    /// Forces, terrain and turn limit of a battle.
    type Scenario;
    /// The whole game in progress, including its generator.
    type State: Clone;
    /// What the side that owes a decision decides.
    type Order: fmt::Debug;
    /// What happened: the log, for narration, replay and statistics.
    type Event;
    /// What a side is asked to decide (a command step, a unit's action, a rally after seeing the die …).
    type Question: fmt::Display + Clone;
    /// Why a scenario cannot be set up.
    type SetupError: Error + Send + Sync + 'static;
    /// Why an order is refused.
    type RuleError: Error + Send + Sync + 'static;

    /// The starting state of `scenario`, its dice seeded from `seed`.
    fn setup(&self, scenario: &Self::Scenario, seed: u64) -> Result<Self::State, Self::SetupError>;

    /// Who owes the next decision and what it is; `None` when the game is over.
    fn owed(&self, state: &Self::State) -> Option<Decision<Self::Question>>;

    /// The side to give the next order; `None` when the game is over.
    fn to_order(&self, state: &Self::State) -> Option<Side> {
        self.owed(state).map(|d| d.side)
    }

    /// Applies `order` for the side that owes a decision, taking every face and card from `dice` and appending
    /// what happened to `log`. A refused order, or one whose dice source faulted, changes neither `state` nor
    /// `log`.
    fn apply_with(
        &self,
        state: &mut Self::State,
        order: &Self::Order,
        dice: &mut dyn Dice,
        log: &mut Vec<Self::Event>,
    ) -> Result<(), Self::RuleError>;

    /// The game's own generator, carried by the state.
    fn rng_mut<'s>(&self, state: &'s mut Self::State) -> &'s mut GameRng;

    /// Applies `order` with the state's own generator (see [`Ruleset::apply_with`]). A refused order changes
    /// nothing, the generator included.
    fn apply(
        &self,
        state: &mut Self::State,
        order: &Self::Order,
        log: &mut Vec<Self::Event>,
    ) -> Result<(), Self::RuleError> {
        let mut rng = self.rng_mut(state).clone();
        self.apply_with(state, order, &mut rng, log)?;
        *self.rng_mut(state) = rng;
        Ok(())
    }

    /// How the game ended, once it has.
    fn outcome(&self, state: &Self::State) -> Option<Outcome>;

    /// Each side's losses so far, in the ruleset's own count (stands, figures, men).
    fn losses(&self, state: &Self::State) -> BySide<u32>;
}

/// Decides orders for one side: a person through a UI, or a bot.
///
/// The side is asked whenever it owes a decision, including decisions in the enemy's phase (a rally after
/// seeing the morale die); `rules.owed(state)` says what is asked.
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
    /// A commander gave an order that was refused.
    #[error("order {number} of the {side} side refused: {error}")]
    Refused {
        /// The side whose order was refused.
        side: Side,
        /// Which order of the game it was (from 0).
        number: u64,
        /// Why.
        #[source]
        error: Refusal<E>,
    },
    /// The game reached no outcome within the order limit.
    #[error("no outcome after {0} orders")]
    TooLong(u64),
    /// No side was to order, yet the game had no outcome (a ruleset bug).
    #[error("no side to order and no outcome")]
    Stuck,
    /// The game waits for dice thrown at the table; [`play`] and [`resume`] need seeded dice.
    #[error("the game waits for dice thrown at the table: {0}")]
    NeedsDice(Throw),
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
    /// How many orders the game took, from its first (a resumed game counts those before it was saved).
    pub orders: u64,
}

/// The most orders [`resume`] applies before giving up with [`PlayError::TooLong`].
pub const MAX_ORDERS: u64 = 1_000_000;

/// Plays one game of `scenario` from `seed` between two commanders, to its outcome.
pub fn play<R>(
    rules: &R,
    scenario: &R::Scenario,
    seed: u64,
    commanders: BySide<&mut dyn Commander<R>>,
) -> Result<Played<R>, PlayErrorOf<R>>
where
    R: Ruleset + Clone,
{
    let game = Game::new(rules.clone(), scenario, seed).map_err(PlayError::Setup)?;
    resume(game, commanders)
}

/// Continues `game` (a loaded save, say) to its outcome, asking each side's commander for every decision it owes.
pub fn resume<R>(
    mut game: Game<R>,
    mut commanders: BySide<&mut dyn Commander<R>>,
) -> Result<Played<R>, PlayErrorOf<R>>
where
    R: Ruleset,
{
    loop {
        let side = match game.owed() {
            Owed::Over(outcome) => {
                let orders = game.orders();
                let (_, state, log) = game.into_parts();
                return Ok(Played {
                    outcome,
                    log,
                    state,
                    orders,
                });
            }
            Owed::Decision(d) => d.side,
            Owed::Throw { throw, .. } => return Err(PlayError::NeedsDice(throw)),
            Owed::Stuck => return Err(PlayError::Stuck),
        };
        let number = game.orders();
        if number >= MAX_ORDERS {
            return Err(PlayError::TooLong(number));
        }
        let order = commanders[side].order(game.rules(), game.state(), side);
        match game.submit(side, order) {
            Ok(Submitted::Applied(_)) => {}
            Ok(Submitted::Waiting(throw)) => return Err(PlayError::NeedsDice(throw.clone())),
            Err(refused) => {
                return Err(PlayError::Refused {
                    side,
                    number,
                    error: refused.reason,
                });
            }
        }
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
    #[must_use]
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
    /// How many games ended for each reason.
    pub reasons: BTreeMap<EndReason, u64>,
    /// For each side, how many games ended with each loss count.
    pub losses: BySide<BTreeMap<u32, u64>>,
    /// Every game, in index order.
    pub records: Vec<GameRecord>,
}

impl Summary {
    /// Summarises records (in any order; they are sorted by index).
    #[must_use]
    pub fn from_records(mut records: Vec<GameRecord>) -> Summary {
        records.sort_by_key(|r| r.index);
        let games = records.len() as u64;
        let mut wins = BySide::new(0u64, 0u64);
        let mut draws = 0;
        let mut length = BTreeMap::new();
        let mut reasons = BTreeMap::new();
        let mut losses = BySide::new(BTreeMap::new(), BTreeMap::new());
        for r in &records {
            match r.outcome.result {
                GameResult::Winner(s) => wins[s] += 1,
                GameResult::Draw => draws += 1,
            }
            *length.entry(r.outcome.turn).or_insert(0) += 1;
            *reasons.entry(r.outcome.reason).or_insert(0) += 1;
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
            reasons,
            losses,
            records,
        }
    }

    /// The share of games the rules decided before the turn limit, with its interval.
    #[must_use]
    pub fn decided_before_turn_limit(&self) -> Rate {
        let early: u64 = self
            .reasons
            .iter()
            .filter(|(r, _)| r.before_turn_limit())
            .map(|(_, n)| n)
            .sum();
        Rate::wilson(early, self.games)
    }

    /// Mean game length in turns.
    #[must_use]
    pub fn mean_length(&self) -> f64 {
        mean_of(&self.length)
    }

    /// Mean losses of `side`.
    #[must_use]
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
        writeln!(
            f,
            "  decided before the turn limit: {}",
            self.decided_before_turn_limit()
        )?;
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
#[must_use]
pub fn game_seed(seed: u64, index: u64) -> u64 {
    GameRng::for_game(seed, index).next_u64()
}

/// Plays `games` games of `scenario` in parallel and summarises them (feature `parallel`).
///
/// Game `i` is set up from [`game_seed`]`(seed, i)`, and `commanders(side, game seed)` makes its commanders, so
/// every game and the summary are the same whatever the thread count. `progress(done, total)` is called after
/// each game, from whichever thread played it.
#[cfg(feature = "parallel")]
pub fn simulate<R, F, P>(
    rules: &R,
    scenario: &R::Scenario,
    seed: u64,
    games: u64,
    commanders: F,
    progress: P,
) -> Result<Summary, SimError<R::SetupError, R::RuleError>>
where
    R: Ruleset + Clone + Sync,
    R::Scenario: Sync,
    F: Fn(Side, u64) -> Box<dyn Commander<R>> + Sync,
    P: Fn(u64, u64) + Sync,
{
    simulate_with(rules, scenario, seed, games, commanders, |_| (), progress)
        .map(|measured| measured.summary)
}

/// A batch of games with a measure of the caller's own taken from each.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured<M> {
    /// Outcomes and losses.
    pub summary: Summary,
    /// The caller's measure of each game, in index order.
    pub measures: Vec<M>,
}

/// As [`simulate`], also taking `measure(played game)` of every game (say, the turn a unit broke, or how many
/// charges went home), returned in index order (feature `parallel`).
#[cfg(feature = "parallel")]
pub fn simulate_with<R, F, M, T, P>(
    rules: &R,
    scenario: &R::Scenario,
    seed: u64,
    games: u64,
    commanders: F,
    measure: M,
    progress: P,
) -> Result<Measured<T>, SimError<R::SetupError, R::RuleError>>
where
    R: Ruleset + Clone + Sync,
    R::Scenario: Sync,
    F: Fn(Side, u64) -> Box<dyn Commander<R>> + Sync,
    M: Fn(&Played<R>) -> T + Sync,
    T: Send,
    P: Fn(u64, u64) + Sync,
{
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicU64, Ordering};
    let done = AtomicU64::new(0);
    let results: Result<Vec<(GameRecord, T)>, _> = (0..games)
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
            let record = GameRecord {
                index,
                losses: rules.losses(&played.state),
                outcome: played.outcome,
            };
            Ok((record, measure(&played)))
        })
        .collect();
    // `collect` on an indexed parallel iterator keeps index order, so the measures line up with the records.
    let (records, measures): (Vec<GameRecord>, Vec<T>) = results?.into_iter().unzip();
    Ok(Measured {
        summary: Summary::from_records(records),
        measures,
    })
}

/// A spare game state kept by a thread, to copy the next state into instead of cloning it afresh.
///
/// A ruleset's engine tries an order on a copy of its state and keeps the copy only if the order is accepted
/// (so a refusal changes nothing); its commanders check candidate orders the same way. Cloning a state for
/// each allocates all its lists again. A `Spare` in a `thread_local!` keeps the copy last thrown away (or the
/// state an accepted order replaced) and [`Spare::copy_of`] fills it with `clone_from`, which keeps the
/// room of its lists. The copy is equal to a clone: only where its memory comes from differs, so seeded
/// results do not depend on it.
///
/// ```
/// use acw_core::game::Spare;
///
/// thread_local! {
///     static SPARE: Spare<Vec<u32>> = const { Spare::new() };
/// }
/// let state = vec![1, 2, 3];
/// let mut copy = SPARE.with(|s| s.copy_of(&state));
/// copy.push(4);
/// SPARE.with(|s| s.keep(copy)); // thrown away: the next copy reuses its room
/// let again = SPARE.with(|s| s.copy_of(&state));
/// assert_eq!(again, [1, 2, 3]);
/// assert!(again.capacity() >= 4);
/// ```
pub struct Spare<T>(std::cell::Cell<Option<T>>);

impl<T> Spare<T> {
    /// No spare yet.
    #[must_use]
    pub const fn new() -> Self {
        Self(std::cell::Cell::new(None))
    }

    /// Keeps `state` as the spare for the next [`Spare::copy_of`] (a state kept before is dropped).
    pub fn keep(&self, state: T) {
        self.0.set(Some(state));
    }
}

impl<T: Clone> Spare<T> {
    /// A copy of `source`: the spare filled with `clone_from` where one is kept (it is taken: a copy made
    /// while another is out, as when an order is checked inside another's application, is a fresh clone).
    #[must_use]
    pub fn copy_of(&self, source: &T) -> T {
        match self.0.take() {
            Some(mut spare) => {
                spare.clone_from(source);
                spare
            }
            None => source.clone(),
        }
    }
}

impl<T> Default for Spare<T> {
    fn default() -> Self {
        Self::new()
    }
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
