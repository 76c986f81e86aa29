//! Playing cards: suits, ranks, colours and a 52-card deck (jokers optional) with draw, discard and reshuffle.
//!
//! Draws go through [`Dice`], so a simulation draws at random, a test scripts the exact cards, and a table-side
//! app is told which card the player turned. A hand is dealt in one call ([`Deck::deal`]: the cards of as many
//! draws) and discarded in one ([`Deck::discard_all`]); [`Deck::deal_view`] deals it without copying it out of
//! the deck and [`Deck::discard_dealt`] discards it without moving a card. Exact odds of draws without replacement come from
//! [`Deck::next_card_odds`] and [`Deck::count_odds`].
//!
//! ```
//! use acw_core::cards::{Colour, Deck};
//! use acw_core::GameRng;
//! let mut deck = Deck::standard(0)?;
//! let next = deck.next_card_odds().ok_or(acw_core::cards::CardError::Empty)?;
//! assert!((next.prob(|c| c.colour() == Colour::Red) - 0.5).abs() < 1e-12);
//! let mut rng = GameRng::seed(1);
//! let card = deck.draw(&mut rng)?;
//! assert_eq!(deck.remaining(), 51);
//! deck.discard(card);
//! # Ok::<(), acw_core::cards::CardError>(())
//! ```

use crate::dice::Dice;
use crate::odds::Dist;
use std::fmt;
use strum::{EnumIter, IntoEnumIterator};
use thiserror::Error;

/// A suit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, EnumIter, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Suit {
    /// Clubs (black).
    Clubs,
    /// Diamonds (red).
    Diamonds,
    /// Hearts (red).
    Hearts,
    /// Spades (black).
    Spades,
}

impl Suit {
    /// The suit's colour.
    #[must_use]
    pub const fn colour(self) -> Colour {
        match self {
            Suit::Diamonds | Suit::Hearts => Colour::Red,
            Suit::Clubs | Suit::Spades => Colour::Black,
        }
    }

    fn symbol(self) -> char {
        match self {
            Suit::Clubs => '♣',
            Suit::Diamonds => '♦',
            Suit::Hearts => '♥',
            Suit::Spades => '♠',
        }
    }
}

/// A card's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, EnumIter, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Colour {
    /// Hearts and diamonds (and the red joker).
    Red,
    /// Clubs and spades (and the black joker).
    Black,
}

/// A rank, Two (lowest) to Ace (highest). `rank as u8` is 2–14.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, EnumIter)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[allow(missing_docs)]
pub enum Rank {
    Two = 2,
    Three,
    Four,
    Five,
    Six,
    Seven,
    Eight,
    Nine,
    Ten,
    Jack,
    Queen,
    King,
    Ace,
}

impl Rank {
    /// The rank's number: 2–10, Jack 11, Queen 12, King 13, Ace 14.
    #[must_use]
    pub const fn value(self) -> u8 {
        self as u8
    }

    /// Whether this is a Jack, Queen or King.
    #[must_use]
    pub const fn is_face(self) -> bool {
        matches!(self, Rank::Jack | Rank::Queen | Rank::King)
    }

    fn label(self) -> &'static str {
        match self {
            Rank::Two => "2",
            Rank::Three => "3",
            Rank::Four => "4",
            Rank::Five => "5",
            Rank::Six => "6",
            Rank::Seven => "7",
            Rank::Eight => "8",
            Rank::Nine => "9",
            Rank::Ten => "10",
            Rank::Jack => "J",
            Rank::Queen => "Q",
            Rank::King => "K",
            Rank::Ace => "A",
        }
    }
}

/// A playing card: a suited card or a joker of a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Card {
    /// A rank of a suit.
    Suited(Rank, Suit),
    /// A joker.
    Joker(Colour),
}

impl Card {
    /// The card's colour.
    #[must_use]
    pub const fn colour(self) -> Colour {
        match self {
            Card::Suited(_, s) => s.colour(),
            Card::Joker(c) => c,
        }
    }

    /// The suit, if not a joker.
    #[must_use]
    pub const fn suit(self) -> Option<Suit> {
        match self {
            Card::Suited(_, s) => Some(s),
            Card::Joker(_) => None,
        }
    }

    /// The rank, if not a joker.
    #[must_use]
    pub const fn rank(self) -> Option<Rank> {
        match self {
            Card::Suited(r, _) => Some(r),
            Card::Joker(_) => None,
        }
    }

    /// Whether this is a joker.
    #[must_use]
    pub const fn is_joker(self) -> bool {
        matches!(self, Card::Joker(_))
    }

    /// The 52 suited cards, clubs to spades, two to ace.
    pub fn all_suited() -> impl Iterator<Item = Card> {
        Suit::iter().flat_map(|s| Rank::iter().map(move |r| Card::Suited(r, s)))
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Card::Suited(r, s) => write!(f, "{}{}", r.label(), s.symbol()),
            Card::Joker(c) => write!(f, "{c} joker"),
        }
    }
}

/// What can go wrong with a deck.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum CardError {
    /// Drawing from an empty draw pile (reshuffle the discards first).
    #[error("the draw pile is empty")]
    Empty,
    /// A standard deck has 0, 1 or 2 jokers.
    #[error("a deck has 0 to 2 jokers, not {0}")]
    BadJokers(u8),
    /// The dice source could not give the card asked for (see [`Dice::fault`]).
    #[error("the card source failed: {0}")]
    Source(crate::dice::DiceError),
    /// A custom deck needs at least one card.
    #[error("a deck needs at least one card")]
    NoCards,
    /// A deal asked for more cards than the draw pile holds.
    #[error("{asked} cards were asked for, but the draw pile holds only {left}")]
    TooFew {
        /// Cards asked for.
        asked: usize,
        /// Cards in the draw pile.
        left: usize,
    },
    /// More cards were to be discarded from those out than are out.
    #[error("{asked} cards out were to be discarded, but only {out} are out")]
    TooFewOut {
        /// Cards to discard.
        asked: usize,
        /// Cards out (drawn and not yet discarded).
        out: usize,
    },
}

/// A deck: a draw pile and a discard pile, and the cards out of both (drawn and not yet discarded).
///
/// Every card lies in one vector: the draw pile at the front, then a place for each card out, then the
/// discard pile (its top card, the last discarded, first). A draw takes a uniformly random card of the draw
/// pile (from the [`Dice`] source), which is the same as drawing the top card of a well-shuffled pile: the card
/// drawn and the last card of the pile change places and the pile ends one place sooner, so a draw costs the
/// same whatever the card drawn, and the card's place is then the first place out. A discard writes its card
/// into the last place out (that of the oldest card out) and moves the boundary of the discard pile, so a card
/// moves only when drawn. Returning the discards to the draw pile moves no card when none is out.
///
/// The cards a seed draws changed twice: once when draws became swaps (earlier releases closed the gap by
/// moving every later card up one place), and once when the deck became one vector: the discards now come back
/// to the draw pile last discarded first (they came back oldest first), so the draws after a reshuffle of
/// discards differ. Draws before any discard is returned, and the dice faces a seed gives, did not change.
///
/// Saved and loaded (feature `serde`) as its draw pile in order, the places out (the cards last drawn into
/// them, the last drawn first) and its discard pile oldest first. A deck saved before the places out were kept
/// (no `out` list) loads with none out: its next discards make room for themselves, as every discard did then.
/// Loading refuses a deck of no cards ([`CardError::NoCards`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "SavedDeck", into = "SavedDeck")
)]
pub struct Deck {
    /// Every card: `cards[..pile]` the draw pile, `cards[pile..held]` the places of the cards out (holding the
    /// cards last drawn, the last drawn first), `cards[held..]` the discard pile (the last discarded first).
    cards: Vec<Card>,
    /// The end of the draw pile.
    pile: usize,
    /// The end of the places out, where the discard pile starts.
    held: usize,
}

/// A deck as saved: its draw pile, its places out and its discards, oldest first.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct SavedDeck {
    pile: Vec<Card>,
    #[serde(default)]
    out: Vec<Card>,
    discards: Vec<Card>,
}

#[cfg(feature = "serde")]
impl TryFrom<SavedDeck> for Deck {
    type Error = CardError;

    fn try_from(saved: SavedDeck) -> Result<Deck, CardError> {
        Deck::from_parts(&saved.pile, &saved.out, &saved.discards)
    }
}

#[cfg(feature = "serde")]
impl From<Deck> for SavedDeck {
    fn from(deck: Deck) -> SavedDeck {
        SavedDeck {
            pile: deck.pile().to_vec(),
            out: deck.out().to_vec(),
            discards: deck.discards().iter().rev().copied().collect(),
        }
    }
}

/// The cards of one [`Deck::deal_view`], shown where they lie in the deck (no copy): in the order dealt by
/// [`Dealt::get`] and [`Dealt::iter`], or as they lie, the last dealt first, by [`Dealt::last_first`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dealt<'a> {
    /// The places out of the cards dealt, the last dealt first.
    last_first: &'a [Card],
}

impl<'a> Dealt<'a> {
    /// How many cards were dealt.
    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        self.last_first.len()
    }

    /// Whether no card was dealt.
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.last_first.is_empty()
    }

    /// The card dealt `k`-th (from 0), if `k` is below [`Dealt::len`].
    #[inline]
    #[must_use]
    pub fn get(&self, k: usize) -> Option<Card> {
        let from_end = self.last_first.len().checked_sub(k)?.checked_sub(1)?;
        self.last_first.get(from_end).copied()
    }

    /// The cards in the order dealt.
    #[inline]
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = Card> + ExactSizeIterator + 'a {
        self.last_first.iter().rev().copied()
    }

    /// The cards as they lie in the deck: the last dealt first.
    #[inline]
    #[must_use]
    pub fn last_first(&self) -> &'a [Card] {
        self.last_first
    }
}

impl Deck {
    /// A deck whose draw pile is `pile` (in that order), with nothing out or discarded.
    fn with_pile(pile: Vec<Card>) -> Deck {
        let pile_len = pile.len();
        Deck {
            cards: pile,
            pile: pile_len,
            held: pile_len,
        }
    }

    /// The 52-card deck with `jokers` jokers (0–2: red first, then black), all in the draw pile.
    pub fn standard(jokers: u8) -> Result<Deck, CardError> {
        if jokers > 2 {
            return Err(CardError::BadJokers(jokers));
        }
        let mut pile: Vec<Card> = Vec::with_capacity(54);
        pile.extend(Card::all_suited());
        pile.extend(
            [Colour::Red, Colour::Black]
                .into_iter()
                .take(jokers.into())
                .map(Card::Joker),
        );
        Ok(Deck::with_pile(pile))
    }

    /// A deck of any cards (a ruleset's own deck, say, a part of a standard deck, or two decks together).
    pub fn of(cards: impl IntoIterator<Item = Card>) -> Result<Deck, CardError> {
        let pile: Vec<Card> = cards.into_iter().collect();
        if pile.is_empty() {
            return Err(CardError::NoCards);
        }
        Ok(Deck::with_pile(pile))
    }

    /// A deck part way through play, as it is saved: its draw pile in order, its places out (the cards last
    /// drawn into them, the last drawn first, as [`Deck::out`] lists them) and its discard pile oldest first.
    /// A deck of no cards is refused ([`CardError::NoCards`]).
    pub fn from_parts(pile: &[Card], out: &[Card], discards: &[Card]) -> Result<Deck, CardError> {
        let mut cards = Vec::with_capacity(pile.len() + out.len() + discards.len());
        cards.extend_from_slice(pile);
        cards.extend_from_slice(out);
        cards.extend(discards.iter().rev());
        if cards.is_empty() {
            return Err(CardError::NoCards);
        }
        Ok(Deck {
            cards,
            pile: pile.len(),
            held: pile.len() + out.len(),
        })
    }

    /// Cards left to draw.
    #[inline]
    #[must_use]
    pub fn remaining(&self) -> usize {
        self.pile
    }

    /// The draw pile, in its current order.
    #[inline]
    #[must_use]
    pub fn pile(&self) -> &[Card] {
        self.cards.get(..self.pile).unwrap_or_default()
    }

    /// The places of the cards out (drawn and not yet discarded), one a card, the last drawn first: each holds
    /// the card drawn into it. A discard takes the last place (that of the oldest card out) whichever card it
    /// discards, so when cards are discarded in another order than drawn these are no longer the cards a player
    /// holds; the deck keeps how many are out, the player which.
    #[inline]
    #[must_use]
    pub fn out(&self) -> &[Card] {
        self.cards.get(self.pile..self.held).unwrap_or_default()
    }

    /// The discard pile, its top card (the last discarded) first.
    #[inline]
    #[must_use]
    pub fn discards(&self) -> &[Card] {
        self.cards.get(self.held..).unwrap_or_default()
    }

    /// Draws one card. An empty pile is an error and changes nothing; so is a source that fails (a script run
    /// out, a scripted card that is not in the pile).
    ///
    /// The card drawn and the last card of the pile change places and the pile ends one place sooner, so the
    /// card's place is the first place out: one word of the source, a multiply and two swapped cards, whatever
    /// the card drawn. [`Deck::deal`] draws a hand in one call.
    #[inline]
    pub fn draw<D: Dice + ?Sized>(&mut self, dice: &mut D) -> Result<Card, CardError> {
        let top = self.pile.wrapping_sub(1);
        // A pile of one card or none is settled out of line, so the common draw knows it has two or more.
        if top == 0 || top == usize::MAX {
            let card = draw_last(self.pile(), dice)?;
            self.pile = 0;
            return Ok(card);
        }
        let Some(pile) = self.cards.get_mut(..=top) else {
            return Err(CardError::Empty);
        };
        let had_fault = dice.fault().is_some();
        let i = dice.draw(pile);
        if !had_fault && let Some(e) = dice.fault() {
            return Err(CardError::Source(e.clone()));
        }
        self.pile = top;
        // An index past the pile is taken as its last card, which stays where it is (a random source's index
        // is always in the pile: for it the test is a branch never taken).
        if i <= top {
            pile.swap(i, top);
        }
        Ok(pile[top])
    }

    /// Draws `hand.len()` cards into `hand`, in the order drawn: the same cards, from the same words of the
    /// source, as that many calls of [`Deck::draw`], in one loop ([`Dice::draw_many`]). Asking for more cards
    /// than the draw pile holds is an error and changes nothing; so is a source that fails on any card of the
    /// deal (a script run out, a card not in the pile): the deck and `hand` are then as they were. A source
    /// that can fail ([`Dice::never_faults`] is `false`) is dealt from a copy of the pile, so only a random
    /// source deals without allocating. [`Deck::deal_view`] deals the same cards without copying them out.
    pub fn deal<D: Dice + ?Sized>(
        &mut self,
        dice: &mut D,
        hand: &mut [Card],
    ) -> Result<(), CardError> {
        let places = self.deal_places(dice, hand.len())?;
        // The cards dealt lie in their places out, the last dealt first.
        for (slot, card) in hand.iter_mut().zip(places.iter().rev()) {
            *slot = *card;
        }
        Ok(())
    }

    /// Deals `count` cards and shows them where they lie, in their places out, rather than copying them into a
    /// hand: the same cards, from the same words of the source, as [`Deck::deal`] of `count` cards (and so as
    /// `count` calls of [`Deck::draw`]), and the deck is then as that deal leaves it. A hand dealt this way is
    /// discarded whole, in the order dealt, by [`Deck::discard_dealt`], which moves no card. Refused as
    /// [`Deck::deal`] refuses, changing nothing.
    pub fn deal_view<D: Dice + ?Sized>(
        &mut self,
        dice: &mut D,
        count: usize,
    ) -> Result<Dealt<'_>, CardError> {
        Ok(Dealt {
            last_first: self.deal_places(dice, count)?,
        })
    }

    /// The deal of [`Deck::deal`] and [`Deck::deal_view`]: draws `count` cards (each changing places with the
    /// last card of the pile, so they end in the first `count` places out, the last dealt first) and gives
    /// those places.
    #[inline]
    fn deal_places<D: Dice + ?Sized>(
        &mut self,
        dice: &mut D,
        count: usize,
    ) -> Result<&[Card], CardError> {
        let left = self.pile;
        if count > left {
            return Err(CardError::TooFew { asked: count, left });
        }
        let Some(pile) = self.cards.get_mut(..left) else {
            return Err(CardError::TooFew { asked: count, left });
        };
        if dice.never_faults() {
            dice.draw_many(pile, count);
        } else {
            // A source that can fail deals from a copy of the pile, kept only if it did not fail.
            let had_fault = dice.fault().is_some();
            let mut copy = pile.to_vec();
            dice.draw_many(&mut copy, count);
            if !had_fault && let Some(e) = dice.fault() {
                return Err(CardError::Source(e.clone()));
            }
            pile.copy_from_slice(&copy);
        }
        let rest = left - count;
        self.pile = rest;
        Ok(pile.get(rest..).unwrap_or_default())
    }

    /// Puts a card on the discard pile: any card, as a table allows (normally one drawn from this deck).
    ///
    /// A card drawn and not yet discarded leaves its place free; a discard takes the free place of the
    /// oldest such card, so it moves only the boundary of the discard pile and writes the card. A discard with
    /// no card out (more discards than draws) makes room for it.
    #[inline]
    pub fn discard(&mut self, card: Card) {
        if self.held > self.pile
            && let Some(slot) = self.cards.get_mut(self.held - 1)
        {
            *slot = card;
            self.held -= 1;
        } else {
            discard_extra(&mut self.cards, self.held, card);
        }
    }

    /// Puts `cards` on the discard pile, in order (the last of them on top): as many calls of
    /// [`Deck::discard`], in one copy when as many cards are out (a hand dealt or drawn).
    #[inline]
    pub fn discard_all(&mut self, cards: &[Card]) {
        let out = self.held - self.pile;
        if cards.len() <= out
            && let Some(free) = self.cards.get_mut(self.held - cards.len()..self.held)
        {
            for (slot, card) in free.iter_mut().rev().zip(cards) {
                *slot = *card;
            }
            self.held -= cards.len();
        } else {
            for card in cards {
                self.discard(*card);
            }
        }
    }

    /// Puts the `count` cards longest out on the discard pile, the first drawn first (the last drawn on top),
    /// moving no card: each lies in its place out, and the discard pile takes the places. For a hand dealt by
    /// [`Deck::deal_view`] (or [`Deck::deal`], or drawn one by one) and not yet discarded, this is
    /// [`Deck::discard_all`] of that hand in the order dealt. Asking for more cards than are out is an error
    /// ([`CardError::TooFewOut`]) and changes nothing.
    #[inline]
    pub fn discard_dealt(&mut self, count: usize) -> Result<(), CardError> {
        let out = self.held.saturating_sub(self.pile);
        if count > out {
            return Err(CardError::TooFewOut { asked: count, out });
        }
        self.held -= count;
        Ok(())
    }

    /// Returns every discard to the draw pile, after the cards still in it: the top card of the discard pile
    /// (the last discarded) first. Moves no card when no card is out; cards out stay out.
    #[inline]
    pub fn reshuffle(&mut self) {
        let end = self.cards.len();
        if self.pile != self.held {
            self.pile = discards_past_out(&mut self.cards, self.pile, self.held);
        } else {
            self.pile = end;
        }
        self.held = end;
    }

    /// Shuffles the draw pile in place (Fisher–Yates), e.g. to show a physical order.
    pub fn shuffle<D: Dice + ?Sized>(&mut self, dice: &mut D) {
        let Some(pile) = self.cards.get_mut(..self.pile) else {
            return;
        };
        for i in (1..pile.len()).rev() {
            let j = dice.index(i + 1);
            pile.swap(i, j.min(i));
        }
    }

    /// The exact distribution of the next card drawn; `None` when the draw pile is empty.
    #[must_use]
    pub fn next_card_odds(&self) -> Option<Dist<Card>> {
        Dist::uniform(self.pile().iter().copied()).ok()
    }

    /// The exact distribution of how many of the next `draws` cards (without replacement) satisfy `pred`.
    pub fn count_odds(&self, draws: u32, pred: impl Fn(&Card) -> bool) -> Dist<u32> {
        let pile = self.pile();
        let marked = pile.iter().filter(|c| pred(c)).count() as u32;
        Dist::hypergeometric(pile.len() as u32, marked, draws)
    }
}

/// [`Deck::draw`] from a pile of one card (which the source still picks: a random source takes no word for it,
/// a script names it) or of none. Out of line, and given the pile alone, so that in a loop of draws the
/// deck's boundaries can stay in registers.
#[cold]
#[inline(never)]
fn draw_last<D: Dice + ?Sized>(pile: &[Card], dice: &mut D) -> Result<Card, CardError> {
    let Some(&only) = pile.first() else {
        return Err(CardError::Empty);
    };
    let had_fault = dice.fault().is_some();
    dice.draw(pile);
    if !had_fault && let Some(e) = dice.fault() {
        return Err(CardError::Source(e.clone()));
    }
    Ok(only)
}

/// [`Deck::discard`] with no card out: the deck grows by the card, on top of the discard pile (which starts
/// at `held`).
#[cold]
#[inline(never)]
fn discard_extra(cards: &mut Vec<Card>, held: usize, card: Card) {
    let at = held.min(cards.len());
    cards.insert(at, card);
}

/// [`Deck::reshuffle`] with cards out: the places out (`cards[pile..held]`), then the discards, become the
/// discards, then the places out, each in its order. Gives the new end of the draw pile.
#[cold]
#[inline(never)]
fn discards_past_out(cards: &mut [Card], pile: usize, held: usize) -> usize {
    let back = cards.len().saturating_sub(held);
    if let Some(after) = cards.get_mut(pile..) {
        after.rotate_left(held.saturating_sub(pile).min(after.len()));
    }
    pile + back
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{Dice, Scripted, ScriptedDice};
    use approx::assert_abs_diff_eq;

    #[test]
    fn standard_deck_composition() -> Result<(), CardError> {
        let d = Deck::standard(2)?;
        assert_eq!(d.remaining(), 54);
        assert_eq!(
            d.pile()
                .iter()
                .filter(|c| c.colour() == Colour::Red)
                .count(),
            27
        );
        assert_eq!(Deck::standard(3), Err(CardError::BadJokers(3)));
        assert_eq!(Card::Suited(Rank::Ten, Suit::Hearts).to_string(), "10♥");
        assert_eq!(Rank::Ace.value(), 14);
        Ok(())
    }

    #[test]
    fn scripted_draws_and_reshuffle() -> Result<(), CardError> {
        let ace = Card::Suited(Rank::Ace, Suit::Spades);
        let mut d = Deck::standard(0)?;
        let mut dice = ScriptedDice::new([Scripted::Card(ace), Scripted::Card(ace)]);
        assert_eq!(d.draw(&mut dice)?, ace);
        // The ace is gone: the second scripted draw is refused and the deck is unchanged.
        let before = d.clone();
        assert!(matches!(d.draw(&mut dice), Err(CardError::Source(_))));
        assert_eq!(d, before);
        assert_eq!(d.remaining(), 51);
        // So is a draw from a script run out, from a pile of many cards or of one.
        assert!(matches!(
            d.draw(&mut ScriptedDice::new([])),
            Err(CardError::Source(_))
        ));
        assert_eq!(d, before);
        let mut one = Deck::of([ace])?;
        let lone = one.clone();
        assert!(matches!(
            one.draw(&mut ScriptedDice::new([])),
            Err(CardError::Source(_))
        ));
        assert_eq!(one, lone);
        d.discard(ace);
        d.reshuffle();
        assert_eq!(d.remaining(), 52);
        let mut empty = Deck::of([ace])?;
        empty.draw(&mut crate::GameRng::seed(0))?;
        assert_eq!(
            empty.draw(&mut crate::GameRng::seed(0)),
            Err(CardError::Empty)
        );
        Ok(())
    }

    /// A draw takes the card at the index the source gives and moves the last card of the pile into its place,
    /// in a standard deck and in a long one; equality and saving see the piles only.
    #[test]
    fn a_draw_fills_its_gap_with_the_last_card() -> Result<(), CardError> {
        let mut big: Vec<Card> = Card::all_suited().collect();
        big.extend(Card::all_suited());
        for cards in [Card::all_suited().collect::<Vec<_>>(), big] {
            let mut deck = Deck::of(cards.iter().copied())?;
            let mut model = cards.clone();
            let mut rng = crate::GameRng::seed(3);
            while !model.is_empty() {
                let mut probe = rng.clone();
                let i = probe.index(model.len());
                let card = deck.draw(&mut rng)?;
                assert_eq!(card, model.swap_remove(i));
                assert_eq!(deck.pile(), &model[..]);
                assert_eq!(rng, probe, "one word a draw");
            }
            assert_eq!(deck.draw(&mut rng), Err(CardError::Empty));
        }
        // By hand: 3♣ is drawn from 2♣ 3♣ 4♣ 5♣; the last card, 5♣, takes its place.
        let clubs: Vec<Card> = Card::all_suited().take(4).collect();
        let mut four = Deck::of(clubs.iter().copied())?;
        let three = Card::Suited(Rank::Three, Suit::Clubs);
        assert_eq!(
            four.draw(&mut ScriptedDice::new([Scripted::Card(three)]))?,
            three
        );
        let shown: Vec<String> = four.pile().iter().map(ToString::to_string).collect();
        assert_eq!(shown, ["2♣", "5♣", "4♣"]);
        // The card drawn is out: its place follows the pile until it is discarded.
        let mut a = Deck::standard(0)?;
        let first = a.draw(&mut ScriptedDice::new([Scripted::Card(Card::Suited(
            Rank::Two,
            Suit::Clubs,
        ))]))?;
        // The ace of spades, last, took the place of the two of clubs.
        let rest: Vec<Card> = std::iter::once(Card::Suited(Rank::Ace, Suit::Spades))
            .chain(Card::all_suited().skip(1).take(50))
            .collect();
        assert_eq!(first, Card::Suited(Rank::Two, Suit::Clubs));
        assert_eq!(a.pile(), &rest[..]);
        assert_eq!(a.out(), [first]);
        assert!(a.discards().is_empty());
        let saved = serde_json::to_value(&a).map_err(|_| CardError::NoCards)?;
        assert_eq!(saved["pile"].as_array().map(Vec::len), Some(51));
        assert_eq!(saved["out"].as_array().map(Vec::len), Some(1));
        assert_eq!(saved["discards"].as_array().map(Vec::len), Some(0));
        let back: Deck = serde_json::from_value(saved).map_err(|_| CardError::NoCards)?;
        assert_eq!(back, a);
        Ok(())
    }

    /// A deal gives the cards, the pile and the generator's state of as many draws, whatever the deck's
    /// history; its hand can be discarded in one call, in order.
    #[test]
    fn a_deal_is_as_many_draws() -> Result<(), CardError> {
        for (jokers, seed) in [(0u8, 1u64), (2, 7), (1, 99)] {
            let mut dealt = Deck::standard(jokers)?;
            let mut drawn = dealt.clone();
            let mut a = crate::GameRng::seed(seed);
            let mut b = a.clone();
            for round in 0..6usize {
                let size = [5usize, 13, 1, 0, 20, 2][round];
                let mut hand = vec![Card::Joker(Colour::Red); size];
                dealt.deal(&mut a, &mut hand)?;
                let by_draws: Vec<Card> = (0..size)
                    .map(|_| drawn.draw(&mut b))
                    .collect::<Result<_, _>>()?;
                assert_eq!(hand, by_draws, "round {round}");
                assert_eq!(dealt, drawn);
                assert_eq!(a, b, "the same words");
                dealt.discard_all(&hand);
                for c in by_draws {
                    drawn.discard(c);
                }
                assert_eq!(dealt.discards(), drawn.discards());
                if round % 2 == 1 {
                    dealt.reshuffle();
                    drawn.reshuffle();
                }
            }
            // The whole pile at once, then nothing is left.
            let mut all = vec![Card::Joker(Colour::Red); dealt.remaining()];
            dealt.deal(&mut a, &mut all)?;
            assert_eq!(dealt.remaining(), 0);
            all.sort();
            let mut expected: Vec<Card> = drawn.pile().to_vec();
            expected.sort();
            assert_eq!(all, expected);
        }
        // By hand: from 2♣ 3♣ 4♣ 5♣ the script deals 3♣ (5♣ fills its gap), then 2♣ (4♣ fills it).
        let clubs: Vec<Card> = Card::all_suited().take(4).collect();
        let mut four = Deck::of(clubs.iter().copied())?;
        let mut hand = [Card::Joker(Colour::Black); 2];
        four.deal(
            &mut ScriptedDice::new([Scripted::Card(clubs[1]), Scripted::Card(clubs[0])]),
            &mut hand,
        )?;
        assert_eq!(hand, [clubs[1], clubs[0]]);
        let shown: Vec<String> = four.pile().iter().map(ToString::to_string).collect();
        assert_eq!(shown, ["4♣", "5♣"]);
        Ok(())
    }

    /// A deal shown in place gives the cards, the deck and the generator's state of a deal into a hand, and
    /// discarding it whole leaves the deck as discarding that hand does, round after round (reshuffles
    /// between); by hand from a script too. Asking to discard more cards than are out is refused and changes
    /// nothing, and so is a refused deal.
    #[test]
    fn a_deal_in_place_is_a_deal_into_a_hand() -> Result<(), CardError> {
        for (jokers, seed) in [(0u8, 1u64), (2, 7), (1, 99)] {
            let mut viewed = Deck::standard(jokers)?;
            let mut dealt = viewed.clone();
            let mut a = crate::GameRng::seed(seed);
            let mut b = a.clone();
            for round in 0..6usize {
                let size = [5usize, 13, 1, 0, 20, 2][round];
                let mut hand = vec![Card::Joker(Colour::Red); size];
                dealt.deal(&mut b, &mut hand)?;
                let view = viewed.deal_view(&mut a, size)?;
                assert_eq!(view.len(), size);
                assert_eq!(view.is_empty(), size == 0);
                assert_eq!(view.iter().collect::<Vec<_>>(), hand, "round {round}");
                assert_eq!(view.get(0), hand.first().copied());
                assert_eq!(view.get(size), None);
                assert_eq!(view.get(usize::MAX), None);
                let mut last_first = hand.clone();
                last_first.reverse();
                assert_eq!(view.last_first(), &last_first[..]);
                assert_eq!(viewed, dealt);
                assert_eq!(a, b, "the same words");
                viewed.discard_dealt(size)?;
                dealt.discard_all(&hand);
                assert_eq!(viewed, dealt);
                assert_eq!(viewed.discards(), dealt.discards());
                if round % 2 == 1 {
                    viewed.reshuffle();
                    dealt.reshuffle();
                }
            }
        }
        // By hand: from 2♣ 3♣ 4♣ 5♣ the script deals 3♣, then 2♣; discarded, 2♣ is on top.
        let clubs: Vec<Card> = Card::all_suited().take(4).collect();
        let mut four = Deck::of(clubs.iter().copied())?;
        let view = four.deal_view(
            &mut ScriptedDice::new([Scripted::Card(clubs[1]), Scripted::Card(clubs[0])]),
            2,
        )?;
        assert_eq!(view.iter().collect::<Vec<_>>(), [clubs[1], clubs[0]]);
        assert_eq!(view.get(1), Some(clubs[0]));
        let shown: Vec<String> = four.pile().iter().map(ToString::to_string).collect();
        assert_eq!(shown, ["4♣", "5♣"]);
        // One card out: two cannot be discarded from it, one can.
        let before = four.clone();
        four.discard(clubs[1]);
        let one_out = four.clone();
        let err = four.discard_dealt(2);
        assert_eq!(err, Err(CardError::TooFewOut { asked: 2, out: 1 }));
        assert_eq!(
            err.err().map(|e| e.to_string()).unwrap_or_default(),
            "2 cards out were to be discarded, but only 1 are out"
        );
        assert_eq!(four, one_out);
        four.discard_dealt(1)?;
        let shown: Vec<String> = four.discards().iter().map(ToString::to_string).collect();
        assert_eq!(shown, ["2♣", "3♣"], "the top card first");
        assert_ne!(four, before);
        // A deal of more cards than the pile holds, or from a script that names a card not in it, changes nothing.
        let mut deck = Deck::of(clubs.iter().copied())?;
        let untouched = deck.clone();
        assert!(matches!(
            deck.deal_view(&mut crate::GameRng::seed(2), 5),
            Err(CardError::TooFew { asked: 5, left: 4 })
        ));
        let ace = Card::Suited(Rank::Ace, Suit::Spades);
        assert!(matches!(
            deck.deal_view(
                &mut ScriptedDice::new([Scripted::Card(clubs[0]), Scripted::Card(ace)]),
                2
            ),
            Err(CardError::Source(_))
        ));
        assert_eq!(deck, untouched);
        Ok(())
    }

    /// A deck saves as its draw pile, its places out and its discard pile oldest first, whether its cards were
    /// drawn one by one or dealt: the saved text of both is the same, pinned here, and loads back equal; so does
    /// the text a deck saved before the places out were kept (no `out`).
    #[test]
    fn a_dealt_deck_saves_as_a_drawn_one() -> Result<(), CardError> {
        let clubs: Vec<Card> = Card::all_suited().take(4).collect();
        let script = || ScriptedDice::new([Scripted::Card(clubs[1]), Scripted::Card(clubs[0])]);
        let mut dealt = Deck::of(clubs.iter().copied())?;
        let mut hand = [Card::Joker(Colour::Red); 2];
        dealt.deal(&mut script(), &mut hand)?;
        assert_eq!(hand, [clubs[1], clubs[0]]);
        assert_eq!(dealt.out(), [clubs[0], clubs[1]], "the last dealt first");
        dealt.discard_all(&hand);
        let mut drawn = Deck::of(clubs.iter().copied())?;
        let mut dice = script();
        for _ in 0..2 {
            let card = drawn.draw(&mut dice)?;
            drawn.discard(card);
        }
        assert_eq!(dealt, drawn);
        let saved = serde_json::to_string(&dealt).map_err(|_| CardError::NoCards)?;
        assert_eq!(
            saved,
            r#"{"pile":[{"Suited":["Four","Clubs"]},{"Suited":["Five","Clubs"]}],"out":[],"discards":[{"Suited":["Three","Clubs"]},{"Suited":["Two","Clubs"]}]}"#
        );
        assert_eq!(
            serde_json::to_string(&drawn).map_err(|_| CardError::NoCards)?,
            saved
        );
        let back: Deck = serde_json::from_str(&saved).map_err(|_| CardError::NoCards)?;
        assert_eq!(back, dealt);
        // The form saved before: no places out.
        let old = r#"{"pile":[{"Suited":["Four","Clubs"]},{"Suited":["Five","Clubs"]}],"discards":[{"Suited":["Three","Clubs"]},{"Suited":["Two","Clubs"]}]}"#;
        let back: Deck = serde_json::from_str(old).map_err(|_| CardError::NoCards)?;
        assert_eq!(back, dealt);
        Ok(())
    }

    /// A deck saved part way through play (cards in the pile, out and discarded) loads back equal and goes on
    /// exactly as the deck it was saved from: the same draws, discards and reshuffles give the same cards. A
    /// deck of no cards is refused, by `Deck::from_parts` and by loading.
    #[test]
    fn a_saved_deck_goes_on_exactly() -> Result<(), CardError> {
        let mut deck = Deck::standard(2)?;
        let mut rng = crate::GameRng::seed(11);
        let mut hand = [Card::Joker(Colour::Red); 7];
        deck.deal(&mut rng, &mut hand)?;
        deck.discard_all(&hand[..3]);
        for _ in 0..5 {
            let card = deck.draw(&mut rng)?;
            deck.discard(card);
        }
        deck.draw(&mut rng)?;
        assert_eq!(
            (deck.remaining(), deck.out().len(), deck.discards().len()),
            (41, 5, 8)
        );
        let text = serde_json::to_string(&deck).map_err(|_| CardError::NoCards)?;
        let mut loaded: Deck = serde_json::from_str(&text).map_err(|_| CardError::NoCards)?;
        assert_eq!(loaded, deck);
        let mut again = rng.clone();
        let play = |d: &mut Deck, r: &mut crate::GameRng| -> Result<Vec<Card>, CardError> {
            let mut seen = Vec::new();
            for round in 0..4 {
                while d.remaining() > round * 3 {
                    let card = d.draw(r)?;
                    seen.push(card);
                    d.discard(card);
                }
                d.reshuffle();
            }
            let mut dealt = [Card::Joker(Colour::Red); 9];
            d.deal(r, &mut dealt)?;
            seen.extend(dealt);
            Ok(seen)
        };
        assert_eq!(play(&mut loaded, &mut again)?, play(&mut deck, &mut rng)?);
        assert_eq!(loaded, deck);
        assert_eq!(Deck::from_parts(&[], &[], &[]), Err(CardError::NoCards));
        let refused = serde_json::from_str::<Deck>(r#"{"pile":[],"out":[],"discards":[]}"#)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            refused.contains("a deck needs at least one card"),
            "{refused}"
        );
        Ok(())
    }

    /// Discards come back to the draw pile after the cards still in it, the last discarded first, moving no
    /// card when none is out; cards out when the discards come back stay out, and a discard takes the place
    /// of the oldest card out. A discard with no card out makes room for itself.
    #[test]
    fn discards_come_back_last_discarded_first() -> Result<(), CardError> {
        let clubs: Vec<Card> = Card::all_suited().take(5).collect();
        let shown =
            |cards: &[Card]| -> Vec<String> { cards.iter().map(ToString::to_string).collect() };
        let mut deck = Deck::of(clubs.iter().copied())?;
        // Draw 6♣, then 2♣ (5♣ takes its place), then 3♣: out are 3♣ 2♣ 6♣, the last drawn first.
        let mut script = ScriptedDice::new([
            Scripted::Card(clubs[4]),
            Scripted::Card(clubs[0]),
            Scripted::Card(clubs[1]),
        ]);
        for _ in 0..3 {
            deck.draw(&mut script)?;
        }
        assert_eq!(shown(deck.pile()), ["5♣", "4♣"]);
        assert_eq!(shown(deck.out()), ["3♣", "2♣", "6♣"]);
        // 6♣ and 2♣ are discarded; 3♣ stays out through the reshuffle.
        deck.discard(clubs[4]);
        deck.discard(clubs[0]);
        assert_eq!(shown(deck.discards()), ["2♣", "6♣"], "the top card first");
        deck.reshuffle();
        assert_eq!(shown(deck.pile()), ["5♣", "4♣", "2♣", "6♣"]);
        assert_eq!(shown(deck.out()), ["3♣"]);
        assert!(deck.discards().is_empty());
        deck.discard(clubs[1]);
        deck.reshuffle();
        assert_eq!(shown(deck.pile()), ["5♣", "4♣", "2♣", "6♣", "3♣"]);
        // A card discarded with none out (a joker from elsewhere) grows the deck, on top of the discards.
        deck.discard(Card::Joker(Colour::Black));
        assert_eq!(shown(deck.discards()), ["Black joker"]);
        deck.discard_all(&[clubs[0], clubs[1]]);
        assert_eq!(shown(deck.discards()), ["3♣", "2♣", "Black joker"]);
        assert_eq!(deck.remaining(), 5);
        deck.reshuffle();
        assert_eq!(deck.remaining(), 8);
        Ok(())
    }

    /// A deal of more cards than the pile holds, or one whose source fails on any card, is refused and
    /// leaves the deck as it was.
    #[test]
    fn a_refused_deal_changes_nothing() -> Result<(), CardError> {
        let mut deck = Deck::of(Card::all_suited().take(5))?;
        let before = deck.clone();
        let mut rng = crate::GameRng::seed(4);
        let untouched = rng.clone();
        let mut six = [Card::Joker(Colour::Red); 6];
        let err = deck.deal(&mut rng, &mut six);
        assert_eq!(err, Err(CardError::TooFew { asked: 6, left: 5 }));
        assert_eq!(
            err.err().map(|e| e.to_string()).unwrap_or_default(),
            "6 cards were asked for, but the draw pile holds only 5"
        );
        assert_eq!(deck, before);
        assert_eq!(rng, untouched, "no word taken");
        assert_eq!(six, [Card::Joker(Colour::Red); 6]);
        // The script's second card is the ace of spades, not in this pile: nothing is dealt.
        let two = Card::Suited(Rank::Two, Suit::Clubs);
        let ace = Card::Suited(Rank::Ace, Suit::Spades);
        let mut script = ScriptedDice::new([Scripted::Card(two), Scripted::Card(ace)]);
        let mut three = [Card::Joker(Colour::Red); 3];
        assert!(matches!(
            deck.deal(&mut script, &mut three),
            Err(CardError::Source(_))
        ));
        assert_eq!(deck, before);
        assert_eq!(
            three,
            [Card::Joker(Colour::Red); 3],
            "the hand is as it was"
        );
        // A script that runs out partway is refused the same way.
        let mut short = ScriptedDice::new([Scripted::Card(two)]);
        assert!(matches!(
            deck.deal(&mut short, &mut three),
            Err(CardError::Source(_))
        ));
        assert_eq!(deck, before);
        // Dealing nothing from an empty pile is fine; one card is not.
        let mut empty = Deck::of([ace])?;
        empty.draw(&mut rng)?;
        assert_eq!(empty.deal(&mut rng, &mut []), Ok(()));
        assert_eq!(
            empty.deal(&mut rng, &mut [ace]),
            Err(CardError::TooFew { asked: 1, left: 0 })
        );
        Ok(())
    }

    #[test]
    fn draw_odds_without_replacement() -> Result<(), CardError> {
        let d = Deck::standard(0)?;
        // Two face cards in two draws: 12/52 * 11/51 = 132/2652.
        let o = d.count_odds(2, |c| c.rank().is_some_and(Rank::is_face));
        assert_abs_diff_eq!(o.p(&2), 132.0 / 2652.0, epsilon = 1e-12);
        let next = d.next_card_odds().ok_or(CardError::Empty)?;
        assert_abs_diff_eq!(
            next.prob(|c| c.suit() == Some(Suit::Hearts)),
            0.25,
            epsilon = 1e-12
        );
        assert!(
            Deck::of([Card::Joker(Colour::Red)])?
                .next_card_odds()
                .is_some()
        );
        Ok(())
    }
}
