//! The turn and the cards that sequence it: movement, firing, close combat, morale (TSATF-SEQ-01), and the
//! order in which red and black cards activate the sides (TSATF-SEQ-02 to TSATF-SEQ-04).

use crate::options::SequencingDeck;
use acw_core::cards::{Card, Colour, Deck};
use acw_core::{Dice, Dist, Resolve, Side};
use std::fmt;

/// The colour of a side's cards (TSATF-SET-02): red for the Union, black for the Confederates. Indians use
/// the colour of the side they fight for.
#[must_use]
pub const fn colour_of(side: Side) -> Colour {
    match side {
        Side::Union => Colour::Red,
        Side::Confederate => Colour::Black,
    }
}

/// The side a card activates (TSATF-SET-02, TSATF-SEQ-03).
#[must_use]
pub const fn side_of(card: Card) -> Side {
    match card.colour() {
        Colour::Red => Side::Union,
        Colour::Black => Side::Confederate,
    }
}

/// The sequencing deck for a phase (TSATF-SEQ-02): one red card for each Union unit and one black for each
/// Confederate unit (at most 26 a side), or the whole 52-card deck; never jokers. `None` when it would be empty.
#[must_use]
pub fn sequencing_deck(union: u8, confederate: u8, kind: SequencingDeck) -> Option<Deck> {
    let full = &crate::fire::FULL_DECK;
    let cards: Vec<Card> = match kind {
        SequencingDeck::PerUnit => {
            let of = |colour: Colour, n: u8| {
                full.iter()
                    .copied()
                    .filter(move |c| c.colour() == colour)
                    .take(usize::from(n))
            };
            of(Colour::Red, union)
                .chain(of(Colour::Black, confederate))
                .collect()
        }
        _ => full.to_vec(),
    };
    Deck::of(cards).ok()
}

/// The order in which the sides get their activations in one phase, as a string of sides (TSATF-SEQ-03,
/// TSATF-SEQ-04).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Activations {
    /// Bit i set: activation i is the Confederates'.
    bits: u64,
    len: u8,
}

impl Activations {
    /// The side of activation `i`.
    #[must_use]
    pub fn side(&self, i: usize) -> Option<Side> {
        (i < usize::from(self.len)).then(|| {
            if self.bits >> i & 1 == 1 {
                Side::Confederate
            } else {
                Side::Union
            }
        })
    }

    /// The number of activations.
    #[must_use]
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn push(self, side: Side) -> Activations {
        let bit = u64::from(side == Side::Confederate) << self.len;
        Activations {
            bits: self.bits | bit,
            len: self.len + 1,
        }
    }
}

impl fmt::Display for Activations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for i in 0..self.len() {
            let s = match self.side(i) {
                Some(Side::Union) => "U",
                _ => "C",
            };
            f.write_str(s)?;
        }
        Ok(())
    }
}

/// The card order of one phase (TSATF-SEQ-03, TSATF-SEQ-04): with a per-unit deck every arrangement of colours
/// is equally likely; with the full deck, a card whose side has no unit left to act is skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[must_use]
pub struct CardOrder {
    union: u8,
    confederate: u8,
    deck: (u8, u8),
}

impl CardOrder {
    /// The order for the sides' numbers of units to act (each at most 26, 64 in all) under a deck reading.
    /// `None` for too many units.
    #[must_use]
    pub fn new(union: u8, confederate: u8, kind: SequencingDeck) -> Option<CardOrder> {
        if union > 26 || confederate > 26 {
            return None;
        }
        let deck = match kind {
            SequencingDeck::PerUnit => (union, confederate),
            _ => (26, 26),
        };
        Some(CardOrder {
            union,
            confederate,
            deck,
        })
    }

    fn walk(&self, mut pick_red: impl FnMut(u8, u8) -> bool) -> Activations {
        let (mut u, mut c) = (self.union, self.confederate);
        let (mut red, mut black) = self.deck;
        let mut out = Activations { bits: 0, len: 0 };
        while u + c > 0 && red + black > 0 {
            let is_red = pick_red(red, black);
            if is_red {
                red -= 1;
                if u > 0 {
                    u -= 1;
                    out = out.push(Side::Union);
                }
            } else {
                black -= 1;
                if c > 0 {
                    c -= 1;
                    out = out.push(Side::Confederate);
                }
            }
        }
        out
    }

    fn odds_from(
        &self,
        state: (u8, u8, u8, u8),
        p: f64,
        acc: Activations,
        out: &mut Vec<(Activations, f64)>,
    ) {
        let (u, c, red, black) = state;
        if u + c == 0 || red + black == 0 {
            out.push((acc, p));
            return;
        }
        // once one side is done, the rest of the order is forced
        if u == 0 || c == 0 {
            let side = if u == 0 {
                Side::Confederate
            } else {
                Side::Union
            };
            let mut a = acc;
            for _ in 0..(u + c) {
                a = a.push(side);
            }
            out.push((a, p));
            return;
        }
        let total = f64::from(red + black);
        if red > 0 {
            let q = f64::from(red) / total;
            self.odds_from(
                (u - 1, c, red - 1, black),
                p * q,
                acc.push(Side::Union),
                out,
            );
        }
        if black > 0 {
            let q = f64::from(black) / total;
            self.odds_from(
                (u, c - 1, red, black - 1),
                p * q,
                acc.push(Side::Confederate),
                out,
            );
        }
    }
}

impl Resolve for CardOrder {
    type Outcome = Activations;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> Activations {
        self.walk(|red, black| dice.index(usize::from(red + black)) < usize::from(red))
    }
    fn odds(&self) -> Dist<Activations> {
        let mut out = Vec::new();
        self.odds_from(
            (self.union, self.confederate, self.deck.0, self.deck.1),
            1.0,
            Activations { bits: 0, len: 0 },
            &mut out,
        );
        Dist::weighted(out).unwrap_or_else(|_| Dist::certain(Activations { bits: 0, len: 0 }))
    }
}
