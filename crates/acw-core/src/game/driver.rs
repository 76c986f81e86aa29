//! [`Game`]: the driver every game layer is played through. It owns a game's state and log, says who owes what
//! ([`Owed`]), takes orders from whichever side owes one, and — when the game is played with real dice — asks for
//! each face or card and waits for it.

use super::{Decision, Outcome, Ruleset};
use crate::cards::Card;
use crate::dice::{Dice, DiceError, Die, Scripted};
use crate::vocab::Side;
use std::error::Error;
use std::fmt;
use thiserror::Error;

/// Where a game's faces and cards come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Dicing {
    /// The state's own seeded generator: simulation and replays. An order is resolved the moment it is given.
    #[default]
    Seeded,
    /// Dice thrown and cards drawn at a real table. An order that needs a face waits for it ([`Owed::Throw`]);
    /// nothing is committed until every face the order needs has been given.
    AtTheTable,
}

/// A die to throw or a card to draw at the table, and what it is for.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Throw {
    /// Throw this die and give its face.
    Face {
        /// The die.
        die: Die,
        /// What the roll is for, as the rules engine announced it ("morale toss of 3rd Regiment").
        purpose: String,
        /// Which die of that roll this is, from 1.
        nth: u32,
    },
    /// Draw a card from this pile and give it.
    Card {
        /// The cards that may be drawn.
        pile: Vec<Card>,
        /// What the draw is for.
        purpose: String,
        /// Which card of that draw this is, from 1.
        nth: u32,
    },
}

impl Throw {
    /// What the roll or draw is for.
    #[must_use]
    pub fn purpose(&self) -> &str {
        match self {
            Throw::Face { purpose, .. } | Throw::Card { purpose, .. } => purpose,
        }
    }
}

fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

impl fmt::Display for Throw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (what, purpose, nth) = match self {
            Throw::Face { die, purpose, nth } => (format!("throw a {die}"), purpose, *nth),
            Throw::Card { purpose, nth, .. } => ("draw a card".to_string(), purpose, *nth),
        };
        f.write_str(&what)?;
        if !purpose.is_empty() {
            write!(f, " for the {purpose}")?;
        }
        if nth > 1 {
            write!(f, " (the {} of that roll)", ordinal(nth))?;
        }
        Ok(())
    }
}

/// What the game is waiting for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Owed<Q> {
    /// A decision of a named side.
    Decision(Decision<Q>),
    /// A face or card for the order `side` gave, which waits for it (only when played [`Dicing::AtTheTable`]).
    Throw {
        /// The side whose order waits.
        side: Side,
        /// What to throw or draw, and what for.
        throw: Throw,
    },
    /// Nothing: the game is over.
    Over(Outcome),
    /// Nothing, yet the game has no outcome: a ruleset that breaks its contract.
    Stuck,
}

impl<Q: fmt::Display> fmt::Display for Owed<Q> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Owed::Decision(d) => write!(f, "{d}"),
            Owed::Throw { side, throw } => write!(f, "{side}: {throw}"),
            Owed::Over(o) => write!(f, "the game is over: {o}"),
            Owed::Stuck => f.write_str("no side owes a decision, yet the game has no outcome"),
        }
    }
}

/// Why the driver did not apply an order.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Refusal<E: Error + 'static> {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// Another side owes the next decision.
    #[error("the {owed} side owes the next decision, not the {side} side")]
    NotYourDecision {
        /// The side that gave the order.
        side: Side,
        /// The side that owes the decision.
        owed: Side,
    },
    /// An earlier order still waits for dice; throw them (or withdraw it) first.
    #[error("an earlier order is waiting: {0}")]
    AwaitingThrow(Throw),
    /// The rules refuse the order.
    #[error(transparent)]
    Rules(E),
    /// The faces given with the order ran out ([`Game::submit_with_faces`]).
    #[error("the order needs more dice: {0}")]
    MissingFace(Throw),
    /// More faces were given with the order than it used ([`Game::submit_with_faces`]).
    #[error("the order used {used} of the {given} faces and cards given")]
    ExtraFaces {
        /// How many it used.
        used: usize,
        /// How many were given.
        given: usize,
    },
    /// A face or card given with the order does not fit the roll it was used for.
    #[error("a face given does not fit: {0}")]
    BadFace(DiceError),
    /// No side owes a decision, yet the game has no outcome (a ruleset that breaks its contract).
    #[error("no side owes a decision, yet the game has no outcome")]
    Stuck,
}

/// An order the driver did not apply, given back with the reason.
#[derive(Debug, Error)]
#[error("{reason}")]
pub struct Refused<O: fmt::Debug, E: Error + 'static> {
    /// The order, unchanged.
    pub order: O,
    /// Why it was not applied.
    pub reason: Refusal<E>,
}

/// A refused order of ruleset `R`.
pub type RefusedOf<R> = Refused<<R as Ruleset>::Order, <R as Ruleset>::RuleError>;

/// A refused face or card of a game of ruleset `R`.
pub type ThrowErrorOf<R> = ThrowError<<R as Ruleset>::Order, <R as Ruleset>::RuleError>;

/// Why a face or card given at the table was not taken.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ThrowError<O: fmt::Debug, E: Error + 'static> {
    /// No order is waiting for dice.
    #[error("no die is wanted now")]
    NotWanted,
    /// The die wanted cannot show that face; nothing changed, the same die is still wanted.
    #[error("a {die} cannot show {face}; throw it again")]
    Impossible {
        /// The die wanted.
        die: Die,
        /// The face given.
        face: u16,
    },
    /// A card is wanted, not a face (or a face, not a card).
    #[error("{wanted}, not {given}")]
    WrongKind {
        /// What is wanted.
        wanted: &'static str,
        /// What was given.
        given: &'static str,
    },
    /// The card given is not in the pile it is drawn from.
    #[error("{0} is not in the pile")]
    NotInPile(Card),
    /// With this face the rules refused the waiting order; it is given back and nothing changed.
    #[error("{0}")]
    Refused(Refused<O, E>),
}

/// What happened to an order the driver took.
#[derive(Debug, PartialEq)]
pub enum Submitted<'g, E> {
    /// It was applied; these are the events it caused.
    Applied(&'g [E]),
    /// It waits for a face or card ([`Dicing::AtTheTable`]); nothing is committed yet.
    Waiting(&'g Throw),
}

/// An order given at the table that waits for dice, with the faces and cards given so far.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct HeldOrder<O> {
    /// The side that gave it.
    pub side: Side,
    /// The order.
    pub order: O,
    /// The faces and cards given so far, in order.
    pub given: Vec<Scripted>,
}

/// A game as saved: everything [`Game`] holds but the rules. Serialise it with serde; load it back with
/// [`Game::from_saved`], which checks it.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SavedGame<S, E, O> {
    /// The state.
    pub state: S,
    /// The log so far.
    pub log: Vec<E>,
    /// Orders applied so far.
    pub orders: u64,
    /// Where the faces come from.
    pub dicing: Dicing,
    /// An order waiting for dice, if any.
    pub held: Option<HeldOrder<O>>,
}

/// The saved form of a game of ruleset `R`.
pub type SavedGameOf<R> =
    SavedGame<<R as Ruleset>::State, <R as Ruleset>::Event, <R as Ruleset>::Order>;

/// Why a saved game cannot be loaded.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum LoadError<E: Error + 'static> {
    /// The order saved as waiting for dice is refused by the rules in the saved state.
    #[error("the order saved as waiting for dice is refused: {0}")]
    HeldRefused(Refusal<E>),
    /// The order saved as waiting for dice no longer waits: its faces complete it, or do not fit it.
    #[error("the order saved as waiting for dice does not wait for a face with the faces saved")]
    HeldNotWaiting,
    /// An order waits for dice in a game played with the seeded generator.
    #[error("an order waits for dice in a game played with the seeded generator")]
    HeldWhileSeeded,
}

/// A game in progress, driven one decision at a time: the shape every ruleset's game is played through.
///
/// ```
/// # use acw_core::game::{Game, Owed};
/// # fn demo<R: acw_core::Ruleset>(rules: R, scenario: &R::Scenario) -> Result<(), Box<dyn std::error::Error>>
/// # where R::Order: std::fmt::Debug, R::Event: std::fmt::Debug {
/// let mut game = Game::new(rules, scenario, 1863)?;
/// while let Owed::Decision(d) = game.owed() {
///     println!("{d}");           // "Union: command step: set brigade orders …"
///     # let order: R::Order = unimplemented!();
///     game.submit(d.side, order)?;
/// }
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
pub struct Game<R: Ruleset> {
    rules: R,
    state: R::State,
    log: Vec<R::Event>,
    orders: u64,
    dicing: Dicing,
    held: Option<HeldOrder<R::Order>>,
    wanted: Option<Throw>,
}

struct Resolution {
    wanted: Option<Throw>,
    fault: Option<DiceError>,
    used: usize,
}

impl<R: Ruleset> Game<R> {
    /// A new game of `scenario`, its dice seeded from `seed`, played with the seeded generator.
    pub fn new(rules: R, scenario: &R::Scenario, seed: u64) -> Result<Self, R::SetupError> {
        let state = rules.setup(scenario, seed)?;
        Ok(Self::from_state(rules, state))
    }

    /// A game continuing from `state` (a loaded state, say), with an empty log.
    pub fn from_state(rules: R, state: R::State) -> Self {
        Game {
            rules,
            state,
            log: Vec::new(),
            orders: 0,
            dicing: Dicing::Seeded,
            held: None,
            wanted: None,
        }
    }

    /// The same game, with faces from `dicing` from now on.
    #[must_use]
    pub fn with_dicing(mut self, dicing: Dicing) -> Self {
        if self.held.is_none() {
            self.dicing = dicing;
        }
        self
    }

    /// Changes where faces come from. Refused while an order waits for dice.
    pub fn set_dicing(&mut self, dicing: Dicing) -> Result<(), Throw> {
        if let Some(w) = &self.wanted {
            return Err(w.clone());
        }
        self.dicing = dicing;
        Ok(())
    }

    /// The rules.
    pub fn rules(&self) -> &R {
        &self.rules
    }

    /// The state now.
    pub fn state(&self) -> &R::State {
        &self.state
    }

    /// Every event so far.
    pub fn log(&self) -> &[R::Event] {
        &self.log
    }

    /// How many orders have been applied since the game began (a loaded game counts its saved orders).
    pub fn orders(&self) -> u64 {
        self.orders
    }

    /// Where faces come from.
    pub fn dicing(&self) -> Dicing {
        self.dicing
    }

    /// How the game ended, once it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.rules.outcome(&self.state)
    }

    /// The order waiting for dice, if any.
    pub fn held(&self) -> Option<&HeldOrder<R::Order>> {
        self.held.as_ref()
    }

    /// What the game waits for now.
    pub fn owed(&self) -> Owed<R::Question> {
        if let Some(outcome) = self.rules.outcome(&self.state) {
            return Owed::Over(outcome);
        }
        if let (Some(h), Some(w)) = (&self.held, &self.wanted) {
            return Owed::Throw {
                side: h.side,
                throw: w.clone(),
            };
        }
        match self.rules.owed(&self.state) {
            Some(d) => Owed::Decision(d),
            None => Owed::Stuck,
        }
    }

    fn admit(&self, side: Side) -> Result<(), Refusal<R::RuleError>> {
        if self.rules.outcome(&self.state).is_some() {
            return Err(Refusal::GameOver);
        }
        if let Some(w) = &self.wanted {
            return Err(Refusal::AwaitingThrow(w.clone()));
        }
        match self.rules.owed(&self.state) {
            None => Err(Refusal::Stuck),
            Some(d) if d.side != side => Err(Refusal::NotYourDecision { side, owed: d.side }),
            Some(_) => Ok(()),
        }
    }

    /// Whether the rules would accept `order` from `side` now, without applying it (nothing changes).
    pub fn check(&self, side: Side, order: &R::Order) -> Result<(), Refusal<R::RuleError>> {
        self.admit(side)?;
        let mut state = self.state.clone();
        let mut rng = self.rules.rng_mut(&mut state).clone();
        let mut log = Vec::new();
        self.rules
            .apply_with(&mut state, order, &mut rng, &mut log)
            .map_err(Refusal::Rules)
    }

    /// Gives `order` for `side`. Applied, it returns the events it caused; played at the table, it may wait for
    /// a face ([`Submitted::Waiting`]) and is applied when the last face it needs is thrown. Refused, it comes back
    /// with the reason, and nothing changed.
    pub fn submit(
        &mut self,
        side: Side,
        order: R::Order,
    ) -> Result<Submitted<'_, R::Event>, RefusedOf<R>> {
        if let Err(reason) = self.admit(side) {
            return Err(Refused { order, reason });
        }
        match self.dicing {
            Dicing::Seeded => {
                let before = self.log.len();
                match self.rules.apply(&mut self.state, &order, &mut self.log) {
                    Ok(()) => {
                        self.orders += 1;
                        Ok(Submitted::Applied(&self.log[before..]))
                    }
                    Err(e) => Err(Refused {
                        order,
                        reason: Refusal::Rules(e),
                    }),
                }
            }
            Dicing::AtTheTable => self.at_the_table(HeldOrder {
                side,
                order,
                given: Vec::new(),
            }),
        }
    }

    /// Gives `order` for `side` with every face and card it needs, in the order the rules use them, whatever
    /// the dicing: applied only if the faces are exactly enough and each fits its roll; otherwise refused with
    /// the reason ([`Refusal::MissingFace`], [`Refusal::ExtraFaces`], [`Refusal::BadFace`]) and nothing changed.
    pub fn submit_with_faces(
        &mut self,
        side: Side,
        order: R::Order,
        faces: &[Scripted],
    ) -> Result<&[R::Event], RefusedOf<R>> {
        if let Err(reason) = self.admit(side) {
            return Err(Refused { order, reason });
        }
        let mut state = self.state.clone();
        let mut events = Vec::new();
        let (result, res) = self.resolve(&mut state, &order, faces, &mut events);
        let reason = if let Some(w) = res.wanted {
            Some(Refusal::MissingFace(w))
        } else if let Some(f) = res.fault {
            Some(Refusal::BadFace(f))
        } else if let Err(e) = result {
            Some(Refusal::Rules(e))
        } else if res.used < faces.len() {
            Some(Refusal::ExtraFaces {
                used: res.used,
                given: faces.len(),
            })
        } else {
            None
        };
        if let Some(reason) = reason {
            return Err(Refused { order, reason });
        }
        self.state = state;
        let before = self.log.len();
        self.log.extend(events);
        self.orders += 1;
        Ok(&self.log[before..])
    }

    /// The face of the die wanted ([`Owed::Throw`]). A face the die cannot show, or a face when none is wanted,
    /// is refused and changes nothing; the last face an order needs applies it.
    pub fn throw(&mut self, face: u16) -> Result<Submitted<'_, R::Event>, ThrowErrorOf<R>> {
        match &self.wanted {
            None => Err(ThrowError::NotWanted),
            Some(Throw::Card { .. }) => Err(ThrowError::WrongKind {
                wanted: "a card is wanted",
                given: "a face",
            }),
            Some(Throw::Face { die, .. }) if !die.has_face(face) => {
                Err(ThrowError::Impossible { die: *die, face })
            }
            Some(Throw::Face { .. }) => self.give(Scripted::Face(face)),
        }
    }

    /// The card drawn ([`Owed::Throw`]). A card not in the pile, or a card when none is wanted, is refused and
    /// changes nothing; the last card or face an order needs applies it.
    pub fn draw(&mut self, card: Card) -> Result<Submitted<'_, R::Event>, ThrowErrorOf<R>> {
        match &self.wanted {
            None => Err(ThrowError::NotWanted),
            Some(Throw::Face { .. }) => Err(ThrowError::WrongKind {
                wanted: "a face is wanted",
                given: "a card",
            }),
            Some(Throw::Card { pile, .. }) if !pile.contains(&card) => {
                Err(ThrowError::NotInPile(card))
            }
            Some(Throw::Card { .. }) => self.give(Scripted::Card(card)),
        }
    }

    /// Takes back the order waiting for dice, with nothing committed.
    pub fn withdraw(&mut self) -> Option<R::Order> {
        self.wanted = None;
        self.held.take().map(|h| h.order)
    }

    fn give(&mut self, item: Scripted) -> Result<Submitted<'_, R::Event>, ThrowErrorOf<R>> {
        let Some(mut held) = self.held.take() else {
            return Err(ThrowError::NotWanted);
        };
        self.wanted = None;
        held.given.push(item);
        self.at_the_table(held).map_err(ThrowError::Refused)
    }

    /// Resolves a held order with the faces given so far: applied if they suffice, held again if one is
    /// missing, refused (and dropped) if the rules refuse it.
    fn at_the_table(
        &mut self,
        held: HeldOrder<R::Order>,
    ) -> Result<Submitted<'_, R::Event>, RefusedOf<R>> {
        let mut state = self.state.clone();
        let mut events = Vec::new();
        let (result, res) = self.resolve(&mut state, &held.order, &held.given, &mut events);
        if let Some(w) = res.wanted {
            self.held = Some(held);
            return Ok(Submitted::Waiting(self.wanted.insert(w)));
        }
        let reason = match (res.fault, result) {
            (Some(f), _) => Some(Refusal::BadFace(f)),
            (None, Err(e)) => Some(Refusal::Rules(e)),
            (None, Ok(())) => None,
        };
        if let Some(reason) = reason {
            return Err(Refused {
                order: held.order,
                reason,
            });
        }
        self.state = state;
        let before = self.log.len();
        self.log.extend(events);
        self.orders += 1;
        Ok(Submitted::Applied(&self.log[before..]))
    }

    fn resolve(
        &self,
        state: &mut R::State,
        order: &R::Order,
        given: &[Scripted],
        events: &mut Vec<R::Event>,
    ) -> (Result<(), R::RuleError>, Resolution) {
        let mut source = TableSource::new(given);
        let result = self.rules.apply_with(state, order, &mut source, events);
        (
            result,
            Resolution {
                wanted: source.wanted,
                fault: source.fault,
                used: source.next,
            },
        )
    }

    /// Applies `order` with the seeded generator, recording every face and card it used (for replays).
    #[cfg(feature = "testing")]
    pub(crate) fn submit_recorded(
        &mut self,
        side: Side,
        order: R::Order,
    ) -> Result<Vec<Scripted>, RefusedOf<R>> {
        if let Err(reason) = self.admit(side) {
            return Err(Refused { order, reason });
        }
        let mut rng = self.rules.rng_mut(&mut self.state).clone();
        let mut recorder = Recorder {
            inner: &mut rng,
            record: Vec::new(),
        };
        match self
            .rules
            .apply_with(&mut self.state, &order, &mut recorder, &mut self.log)
        {
            Ok(()) => {
                let record = recorder.record;
                *self.rules.rng_mut(&mut self.state) = rng;
                self.orders += 1;
                Ok(record)
            }
            Err(e) => Err(Refused {
                order,
                reason: Refusal::Rules(e),
            }),
        }
    }

    /// The game as saved (clones the state and log).
    pub fn to_saved(&self) -> SavedGameOf<R>
    where
        R::Event: Clone,
        R::Order: Clone,
    {
        SavedGame {
            state: self.state.clone(),
            log: self.log.clone(),
            orders: self.orders,
            dicing: self.dicing,
            held: self.held.clone(),
        }
    }

    /// The game as saved, consumed.
    pub fn into_saved(self) -> SavedGameOf<R> {
        SavedGame {
            state: self.state,
            log: self.log,
            orders: self.orders,
            dicing: self.dicing,
            held: self.held,
        }
    }

    /// A saved game, checked: an order saved as waiting for dice must still wait for a face with the faces saved.
    /// (The state itself is checked when it is deserialised, by the ruleset's loader.)
    pub fn from_saved(rules: R, saved: SavedGameOf<R>) -> Result<Self, LoadError<R::RuleError>> {
        let mut game = Game {
            rules,
            state: saved.state,
            log: saved.log,
            orders: saved.orders,
            dicing: saved.dicing,
            held: None,
            wanted: None,
        };
        if let Some(held) = saved.held {
            if game.dicing != Dicing::AtTheTable {
                return Err(LoadError::HeldWhileSeeded);
            }
            if let Err(r) = game.admit(held.side) {
                return Err(LoadError::HeldRefused(r));
            }
            match game.at_the_table(held) {
                Ok(Submitted::Waiting(_)) => {}
                Ok(Submitted::Applied(_)) => return Err(LoadError::HeldNotWaiting),
                Err(refused) => return Err(LoadError::HeldRefused(refused.reason)),
            }
        }
        Ok(game)
    }

    /// The rules, state and log, consumed.
    pub fn into_parts(self) -> (R, R::State, Vec<R::Event>) {
        (self.rules, self.state, self.log)
    }
}

/// The dice of a game played at the table: the faces given so far, then a record of the first one missing.
struct TableSource<'a> {
    given: &'a [Scripted],
    next: usize,
    purpose: String,
    nth: u32,
    wanted: Option<Throw>,
    fault: Option<DiceError>,
}

impl<'a> TableSource<'a> {
    fn new(given: &'a [Scripted]) -> Self {
        TableSource {
            given,
            next: 0,
            purpose: String::new(),
            nth: 0,
            wanted: None,
            fault: None,
        }
    }

    fn stopped(&self) -> bool {
        self.wanted.is_some() || self.fault.is_some()
    }
}

impl Dice for TableSource<'_> {
    fn face(&mut self, die: Die) -> u16 {
        self.nth += 1;
        if self.stopped() {
            return 1;
        }
        match self.given.get(self.next) {
            Some(Scripted::Face(f)) if die.has_face(*f) => {
                self.next += 1;
                *f
            }
            Some(Scripted::Face(f)) => {
                self.fault = Some(DiceError::BadFace { die, face: *f });
                1
            }
            Some(_) => {
                self.fault = Some(DiceError::WrongKind {
                    expected: "a face",
                    given: "a card",
                });
                1
            }
            None => {
                self.wanted = Some(Throw::Face {
                    die,
                    purpose: self.purpose.clone(),
                    nth: self.nth,
                });
                self.fault = Some(DiceError::Exhausted(die));
                1
            }
        }
    }

    /// Shuffles are done by hand at the table: every card drawn is asked for, so the order does not matter.
    fn index(&mut self, _n: usize) -> usize {
        0
    }

    fn draw(&mut self, pile: &[Card]) -> usize {
        self.nth += 1;
        if self.stopped() {
            return 0;
        }
        match self.given.get(self.next) {
            Some(Scripted::Card(c)) => match pile.iter().position(|p| p == c) {
                Some(i) => {
                    self.next += 1;
                    i
                }
                None => {
                    self.fault = Some(DiceError::CardNotInPile(c.to_string()));
                    0
                }
            },
            Some(_) => {
                self.fault = Some(DiceError::WrongKind {
                    expected: "a card",
                    given: "a face",
                });
                0
            }
            None => {
                self.wanted = Some(Throw::Card {
                    pile: pile.to_vec(),
                    purpose: self.purpose.clone(),
                    nth: self.nth,
                });
                self.fault = Some(DiceError::Exhausted(Die::D2));
                0
            }
        }
    }

    fn fault(&self) -> Option<&DiceError> {
        // The wanted face is reported as a fault too, so a ruleset that checks its source refuses the order.
        self.fault.as_ref()
    }

    fn about(&mut self, purpose: fmt::Arguments<'_>) {
        self.purpose = purpose.to_string();
        self.nth = 0;
    }
}

/// A source that passes every request to another and records what it gave, as a script that replays it.
#[cfg(feature = "testing")]
struct Recorder<'a> {
    inner: &'a mut dyn Dice,
    record: Vec<Scripted>,
}

#[cfg(feature = "testing")]
impl Dice for Recorder<'_> {
    fn face(&mut self, die: Die) -> u16 {
        let f = self.inner.face(die);
        self.record.push(Scripted::Face(f));
        f
    }

    fn index(&mut self, n: usize) -> usize {
        let i = self.inner.index(n);
        self.record.push(Scripted::Index(i));
        i
    }

    fn draw(&mut self, pile: &[Card]) -> usize {
        let i = self.inner.draw(pile);
        if let Some(c) = pile.get(i) {
            self.record.push(Scripted::Card(*c));
        }
        i
    }

    fn fault(&self) -> Option<&DiceError> {
        self.inner.fault()
    }

    fn about(&mut self, purpose: fmt::Arguments<'_>) {
        self.inner.about(purpose);
    }
}
