//! Dice: single dice of any size, where their faces come from, and pools with keep/drop.
//!
//! - [`Die`] is one die of 2 to 1000 sides (`Die::D6`, `Die::new(30)`).
//! - [`Dice`] is a source of faces and card draws: every [`rand::Rng`] is one (simulation), [`ScriptedDice`]
//!   replays a fixed list (tests, worked examples), [`TableDice`] asks a person at the table.
//! - [`Pool`] is `NdX` with an optional keep/drop of the highest or lowest dice; [`PoolRoll`] keeps every face.
//! - [`SuccessPool`] is `NdX` counting the dice that show a target face or more ("hits on 4+").
//! - [`DiceExpr`] is dice notation (`3d6`, `4d6kh3`, `2d6+1`, `d30`), parsed with [`DiceExpr::parse`] or
//!   `"3d6".parse()`.

use crate::cards::Card;
use crate::odds::{Dist, OddsError, WorkLimit};
use crate::resolve::Resolve;
use std::fmt;
use thiserror::Error;

/// One die: a number of sides from 2 to [`Die::MAX_SIDES`], faces numbered 1 to sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "u16", into = "u16"))]
pub struct Die(u16);

impl Die {
    /// The largest die this crate knows (a D1000); larger dice are refused.
    pub const MAX_SIDES: u16 = 1000;
    /// A two-sided die (a coin).
    pub const D2: Die = Die(2);
    /// A three-sided die.
    pub const D3: Die = Die(3);
    /// A four-sided die.
    pub const D4: Die = Die(4);
    /// A five-sided die.
    pub const D5: Die = Die(5);
    /// A six-sided die.
    pub const D6: Die = Die(6);
    /// An eight-sided die.
    pub const D8: Die = Die(8);
    /// A ten-sided die (faces 1–10).
    pub const D10: Die = Die(10);
    /// A twelve-sided die.
    pub const D12: Die = Die(12);
    /// A twenty-sided die.
    pub const D20: Die = Die(20);
    /// A thirty-sided die.
    pub const D30: Die = Die(30);
    /// A hundred-sided die (percentile).
    pub const D100: Die = Die(100);

    /// A die of `sides` sides; fewer than 2 or more than [`Die::MAX_SIDES`] is an error.
    pub const fn new(sides: u16) -> Result<Die, DiceError> {
        if sides < 2 || sides > Self::MAX_SIDES {
            Err(DiceError::BadSides(sides))
        } else {
            Ok(Die(sides))
        }
    }

    /// Number of sides.
    #[inline]
    #[must_use]
    pub const fn sides(self) -> u16 {
        self.0
    }

    /// Whether `face` can come up on this die.
    #[inline]
    #[must_use]
    pub const fn has_face(self, face: u16) -> bool {
        face >= 1 && face <= self.0
    }

    /// Rolls this die once from `dice`.
    #[inline]
    pub fn roll<D: Dice + ?Sized>(self, dice: &mut D) -> u16 {
        dice.face(self)
    }
}

impl fmt::Display for Die {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "d{}", self.0)
    }
}

impl TryFrom<u16> for Die {
    type Error = DiceError;
    fn try_from(sides: u16) -> Result<Self, Self::Error> {
        Die::new(sides)
    }
}

impl From<Die> for u16 {
    fn from(d: Die) -> u16 {
        d.0
    }
}

/// What can go wrong with dice: a bad die, a bad pool or notation, or a source that could not give a face.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum DiceError {
    /// A die needs 2 to 1000 sides.
    #[error("a die needs 2 to 1000 sides, not {0}")]
    BadSides(u16),
    /// A pool holds 1 to [`Pool::MAX_DICE`] dice.
    #[error("a pool holds 1 to 128 dice, not {0}")]
    BadCount(u32),
    /// Keeping or dropping more dice than the pool has (or keeping none).
    #[error("cannot {what} {n} of {count} dice")]
    BadKeep {
        /// "keep" or "drop".
        what: &'static str,
        /// How many were to be kept or dropped.
        n: u32,
        /// How many dice the pool has.
        count: u32,
    },
    /// Malformed dice notation; `at` is the byte offset where reading stopped.
    #[error("malformed dice notation {text:?} at byte {at}: {why}")]
    Notation {
        /// The text given.
        text: String,
        /// Byte offset of the problem.
        at: usize,
        /// What was expected there.
        why: &'static str,
    },
    /// A success target that is not a face of the die (`0+` or `7+` on a d6).
    #[error("a {die} has no face {target} to count successes from (1 to {sides})", sides = die.sides())]
    BadTarget {
        /// The die thrown.
        die: Die,
        /// The face asked for.
        target: u16,
    },
    /// A modifier larger than [`DiceExpr::MAX_MODIFIER`] either way.
    #[error("a modifier lies between -1000000 and +1000000, not {0}")]
    BadModifier(i32),
    /// A scripted or typed-in source had no more faces when a die was rolled.
    #[error("no face left for a {0} roll")]
    Exhausted(Die),
    /// A scripted or typed-in face that the die asked for cannot show.
    #[error("a {die} cannot show {face}")]
    BadFace {
        /// The die that was rolled.
        die: Die,
        /// The face that was given.
        face: u16,
    },
    /// A scripted or typed-in card is not in the draw pile (or a face was scripted where a card was drawn).
    #[error("card {0} is not in the draw pile")]
    CardNotInPile(String),
    /// A card was drawn, or a card scripted where a die was rolled.
    #[error("expected {expected}, the script gave {given}")]
    WrongKind {
        /// What the procedure asked for.
        expected: &'static str,
        /// What the script had next.
        given: &'static str,
    },
}

/// A source of die faces and card draws.
///
/// Every procedure in every ruleset takes its randomness through this trait, so the same code runs a simulation
/// (any [`rand::Rng`]), replays a worked example ([`ScriptedDice`]) or uses dice thrown at a real table
/// ([`TableDice`]).
///
/// The methods cannot fail: a source that cannot give what is asked (a script run out, a face a die cannot
/// show) gives the lowest face or first card, remembers the first such problem and reports it through
/// [`Dice::fault`]. Check it after resolving a procedure from such a source.
pub trait Dice {
    /// A face of `die`, from 1 to `die.sides()`, each equally likely.
    fn face(&mut self, die: Die) -> u16;

    /// An index from `0..n` (`n >= 1`), each equally likely; `n == 0` gives 0. Used for shuffles.
    fn index(&mut self, n: usize) -> usize;

    /// Which card of `pile` is drawn; the default draws a uniformly random one. An empty pile gives 0.
    fn draw(&mut self, pile: &[Card]) -> usize {
        self.index(pile.len())
    }

    /// The first problem this source met, if any (always `None` for random sources).
    fn fault(&self) -> Option<&DiceError> {
        None
    }

    /// Whether this source can never report a [`Dice::fault`]: `true` for random sources, `false` (the
    /// default, always safe) for any other. A procedure that must leave things unchanged when its source fails
    /// partway (a deck's [`Deck::deal`](crate::cards::Deck::deal)) works in place for a source that never
    /// fails, and on a copy otherwise.
    #[inline]
    fn never_faults(&self) -> bool {
        false
    }

    /// Says what the dice rolled next are for ("morale toss of 2nd Regiment"), until the next call.
    ///
    /// Rules engines announce each roll; a source that asks a person (the game driver's dice thrown at the
    /// table) shows it, so the player knows which die is wanted and why. Random and scripted sources ignore it,
    /// and the text is formatted only by a source that reads it, so announcing costs a simulation nothing.
    #[inline]
    fn about(&mut self, purpose: fmt::Arguments<'_>) {
        let _ = purpose;
    }

    /// Throws `out.len()` dice of `die`, writing their faces into `out` in the order thrown: exactly the faces
    /// that as many calls of [`Dice::face`] give, which is what the default does. Random sources fill the
    /// slice in one tight pass (pools use it). An override must give the same faces as `face` would.
    fn fill_faces(&mut self, die: Die, out: &mut [u16]) {
        for f in out {
            *f = self.face(die);
        }
    }

    /// Draws `count` cards (no more than `cards` holds) from `cards`, one after another, each as
    /// [`Dice::draw`] picks it from the cards not yet drawn, `cards[..n]`: the card picked changes places with
    /// `cards[n - 1]`, so after the call the cards drawn lie at the end of `cards`, the last drawn first, and
    /// the rest in front of them. The default makes `count` calls of [`Dice::draw`] (an index past the cards
    /// not yet drawn is taken as the last of them); random sources do it in one loop over their words, the
    /// same words and the same cards. An override must pick the same cards as `draw` would. A source that can
    /// fail reports it through [`Dice::fault`] afterwards, as for single draws.
    fn draw_many(&mut self, cards: &mut [Card], count: usize) {
        let stop = cards.len() - count.min(cards.len());
        for n in (stop + 1..=cards.len()).rev() {
            let Some(left) = cards.get_mut(..n) else {
                return;
            };
            let top = n - 1;
            let i = self.draw(left);
            left.swap(i.min(top), top);
        }
    }

    /// Throws `count` dice of `die` and reduces their faces as `tally` says (their total, the total less the
    /// highest, the number at or above a target, ...): exactly what `count` calls of [`Dice::face`] reduced
    /// that way give, which is what the default does. Random sources run one tight loop per kind of tally,
    /// keeping nothing but the running result. An override must give the same result as the default.
    fn tally(&mut self, die: Die, count: u32, tally: Tally) -> u32 {
        let mut t = Tallied::new(tally);
        for _ in 0..count {
            t.add(self.face(die));
        }
        t.result(count)
    }
}

/// What [`Dice::tally`] reduces the faces of several dice to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Tally {
    /// The total of the faces.
    Sum,
    /// The total less the highest face (drop the highest die).
    SumLessHighest,
    /// The total less the lowest face (drop the lowest die).
    SumLessLowest,
    /// The highest face (0 for no dice).
    Highest,
    /// The lowest face (0 for no dice).
    Lowest,
    /// How many faces are at or above this one.
    AtLeast(u16),
}

/// A running [`Tally`] of faces one at a time: the reference every faster path must agree with.
struct Tallied {
    tally: Tally,
    sum: u32,
    high: u16,
    low: u16,
    hits: u32,
}

impl Tallied {
    fn new(tally: Tally) -> Self {
        Tallied {
            tally,
            sum: 0,
            high: 0,
            low: u16::MAX,
            hits: 0,
        }
    }

    fn add(&mut self, face: u16) {
        self.sum = self.sum.saturating_add(u32::from(face));
        self.high = self.high.max(face);
        self.low = self.low.min(face);
        if let Tally::AtLeast(t) = self.tally {
            self.hits += u32::from(face >= t);
        }
    }

    fn result(&self, count: u32) -> u32 {
        if count == 0 {
            return 0;
        }
        match self.tally {
            Tally::Sum => self.sum,
            Tally::SumLessHighest => self.sum - u32::from(self.high),
            Tally::SumLessLowest => self.sum - u32::from(self.low),
            Tally::Highest => self.high.into(),
            Tally::Lowest => self.low.into(),
            Tally::AtLeast(_) => self.hits,
        }
    }
}

/// Feeds `count` faces of a die of `n` sides, each less one, to `step`, reading words exactly as
/// [`uniform_below`] does. The loop holds no call and no rare path: a word that may be rejected (a chance below
/// n in 2^64) leaves the loop, is settled exactly as `uniform_below` settles it, and the loop resumes with the
/// next die. So the generator's state stays in registers in the loop and each die costs a word, a multiply, a compare and
/// `step`. An odd die is thrown first, then the rest two a turn (the loop's count, an even number, is
/// stepped down by two and tested for zero in one instruction): the dice are still read in order.
#[inline(always)]
fn each_face_below<R: rand::Rng + ?Sized>(
    rng: &mut R,
    n: u64,
    count: u32,
    mut step: impl FnMut(u64),
) {
    let mut left = count;
    loop {
        let rare = 'fast: {
            if left % 2 == 1 {
                let m = u128::from(rng.next_u64()) * u128::from(n);
                if (m as u64) < n {
                    break 'fast m;
                }
                step((m >> 64) as u64);
                left -= 1;
            }
            // `left` is even from here on.
            while left != 0 {
                let m = u128::from(rng.next_u64()) * u128::from(n);
                if (m as u64) < n {
                    break 'fast m;
                }
                step((m >> 64) as u64);
                let m = u128::from(rng.next_u64()) * u128::from(n);
                if (m as u64) < n {
                    left -= 1;
                    break 'fast m;
                }
                step((m >> 64) as u64);
                left -= 2;
            }
            return;
        };
        let threshold = n.wrapping_neg() % n;
        let mut m = rare;
        while (m as u64) < threshold {
            m = u128::from(rng.next_u64()) * u128::from(n);
        }
        step((m >> 64) as u64);
        left -= 1;
    }
}

/// One card of [`Dice::draw_many`] from the `left.len() >= 2` cards not yet drawn: a word mapped to an index
/// exactly as [`uniform_below`] maps it (the rare path in line), the card there and the last card of `left`
/// changing places; gives the cards still not drawn, `left` less its last place.
#[inline(always)]
fn draw_one<'a, R: rand::Rng + ?Sized>(rng: &mut R, left: &'a mut [Card]) -> &'a mut [Card] {
    let n = left.len();
    let top = n.wrapping_sub(1);
    let mut m = u128::from(rng.next_u64()) * n as u128;
    if (m as u64) < n as u64 {
        let threshold = (n as u64).wrapping_neg() % n as u64;
        while (m as u64) < threshold {
            m = u128::from(rng.next_u64()) * n as u128;
        }
    }
    let i = (m >> 64) as usize;
    // The index is below `n` always; the test (one compare, one branch never taken) lets the compiler leave out
    // the swap's checks.
    if i < n {
        left.swap(i, top);
    }
    left.split_at_mut(top).0
}

/// One face of a die of `n >= 2` sides, less one: [`uniform_below`] with its rare path out of line.
#[inline(always)]
fn face_below<R: rand::Rng + ?Sized>(rng: &mut R, n: u64) -> u64 {
    let m = u128::from(rng.next_u64()) * u128::from(n);
    if (m as u64) < n {
        settle(rng, n, m)
    } else {
        (m >> 64) as u64
    }
}

/// Finishes a draw of [`uniform_below`] whose first product `m` fell in the low band that may be rejected:
/// rejects while its low word is below `2^64 mod n`, then gives the high word. Reached with a chance below
/// n / 2^64 a die, so out of line: the division and the loop stay out of the code of every die.
#[cold]
#[inline(never)]
fn settle<R: rand::Rng + ?Sized>(rng: &mut R, n: u64, mut m: u128) -> u64 {
    let threshold = n.wrapping_neg() % n;
    while (m as u64) < threshold {
        m = u128::from(rng.next_u64()) * u128::from(n);
    }
    (m >> 64) as u64
}

/// An unbiased integer in `0..n` from 64-bit words, by Lemire's multiply-and-reject method.
///
/// This crate fixes the mapping from generator words to faces itself (rather than relying on `rand`'s range
/// sampling, which has changed between versions) so that a seed gives the same faces in every release.
#[inline]
pub fn uniform_below<R: rand::Rng + ?Sized>(rng: &mut R, n: u64) -> u64 {
    if n <= 1 {
        return 0;
    }
    face_below(rng, n)
}

impl<R: rand::Rng + ?Sized> Dice for R {
    #[inline]
    fn face(&mut self, die: Die) -> u16 {
        // A die has at least two sides, so `uniform_below`'s check for fewer is not needed.
        face_below(self, u64::from(die.sides())) as u16 + 1
    }

    #[inline]
    fn index(&mut self, n: usize) -> usize {
        uniform_below(self, n as u64) as usize
    }

    #[inline(always)]
    fn draw(&mut self, pile: &[Card]) -> usize {
        uniform_below(self, pile.len() as u64) as usize
    }

    #[inline(always)]
    fn never_faults(&self) -> bool {
        true
    }

    /// The cards of as many [`Dice::draw`]s, in one loop: each card of two or more left takes one word, mapped
    /// to an index by [`uniform_below`] with its rare path in line (so the generator's state stays in registers
    /// across the loop), and a last card left takes none. An odd card is drawn first, then two a turn, so the
    /// loop's count and branch are paid once for two cards; the cards are still drawn in order.
    #[inline]
    fn draw_many(&mut self, cards: &mut [Card], count: usize) {
        let floor = (cards.len() - count.min(cards.len())).max(1);
        let mut left = cards;
        if left.len() > floor && (left.len() - floor) % 2 == 1 {
            left = draw_one(self, left);
        }
        while left.len() > floor {
            left = draw_one(self, left);
            left = draw_one(self, left);
        }
    }

    /// The faces of [`uniform_below`], in one loop over the dice (see `each_face_below`).
    #[inline]
    fn fill_faces(&mut self, die: Die, out: &mut [u16]) {
        let n = u64::from(die.sides());
        for chunk in out.chunks_mut(u32::MAX as usize) {
            let count = chunk.len() as u32;
            let mut faces = chunk.iter_mut();
            each_face_below(self, n, count, |f| {
                if let Some(o) = faces.next() {
                    *o = f as u16 + 1;
                }
            });
        }
    }

    /// One loop per kind of tally over the words (see `each_face_below`), inlined where it is called with its
    /// kind of tally fixed: a pool's sum, its drop-one totals and a success count each become one loop in the
    /// caller's code, with no call and no dispatch on the kind of tally between the pool and its dice.
    #[inline(always)]
    fn tally(&mut self, die: Die, count: u32, tally: Tally) -> u32 {
        let n = u64::from(die.sides());
        match tally {
            // No dice: a total of 0, no hits; the tallies that take off or pick one face need a face.
            Tally::Sum => tally_sum(self, n, count),
            Tally::AtLeast(target) => tally_at_least(self, n, count, target),
            _ if count == 0 => 0,
            Tally::SumLessHighest => tally_less_highest(self, n, count),
            Tally::SumLessLowest => tally_less_lowest(self, n, count),
            Tally::Highest => tally_highest(self, n, count),
            Tally::Lowest => tally_lowest(self, n, count),
        }
    }
}

/// The total of `count` faces of a die of `n` sides (faces less one summed onto the count, so the count need
/// not be kept until the end).
#[inline(always)]
fn tally_sum<R: rand::Rng + ?Sized>(rng: &mut R, n: u64, count: u32) -> u32 {
    let mut sum = u64::from(count);
    each_face_below(rng, n, count, |f| sum += f);
    saturated(sum, count)
}

/// The total less the highest of `count >= 1` faces.
#[inline(always)]
fn tally_less_highest<R: rand::Rng + ?Sized>(rng: &mut R, n: u64, count: u32) -> u32 {
    if n <= 64 {
        // The faces seen as bits of a word: one instruction a die, where a running maximum takes two.
        let (mut sum, mut seen) = (u64::from(count) - 1, 0u64);
        each_face_below(rng, n, count, |f| {
            sum += f;
            seen |= 1 << f;
        });
        return saturated(sum - u64::from(63 - seen.leading_zeros()), count);
    }
    less_highest_wide(rng, n, count)
}

/// [`tally_less_highest`] of dice of more than 64 sides, with a running maximum: out of line, so that only the
/// common dice are inlined where a pool is rolled.
#[inline(never)]
fn less_highest_wide<R: rand::Rng + ?Sized>(rng: &mut R, n: u64, count: u32) -> u32 {
    let (mut sum, mut high) = (0u64, 0u64);
    each_face_below(rng, n, count, |f| {
        sum += f;
        high = high.max(f);
    });
    saturated(sum - high + u64::from(count) - 1, count)
}

/// The total less the lowest of `count >= 1` faces.
#[inline(always)]
fn tally_less_lowest<R: rand::Rng + ?Sized>(rng: &mut R, n: u64, count: u32) -> u32 {
    if n <= 64 {
        // As in `tally_less_highest`: the faces seen as bits, the lowest the first bit set.
        let (mut sum, mut seen) = (u64::from(count) - 1, 0u64);
        each_face_below(rng, n, count, |f| {
            sum += f;
            seen |= 1 << f;
        });
        return saturated(sum - u64::from(seen.trailing_zeros()), count);
    }
    less_lowest_wide(rng, n, count)
}

/// [`tally_less_lowest`] of dice of more than 64 sides, with a running minimum: out of line, as
/// [`less_highest_wide`].
#[inline(never)]
fn less_lowest_wide<R: rand::Rng + ?Sized>(rng: &mut R, n: u64, count: u32) -> u32 {
    let (mut sum, mut low) = (0u64, u64::MAX);
    each_face_below(rng, n, count, |f| {
        sum += f;
        low = low.min(f);
    });
    saturated(sum - low + u64::from(count) - 1, count)
}

/// `x`, a total of `count` faces, as a `u32`, or `u32::MAX` if larger (a tally of more than four million
/// dice). Totals of up to `u32::MAX / Die::MAX_SIDES` dice always fit, so for a pool (at most 128 dice, a count
/// the compiler sees) the check is left out of the code.
#[inline(always)]
fn saturated(x: u64, count: u32) -> u32 {
    if count <= u32::MAX / u32::from(Die::MAX_SIDES) {
        x as u32
    } else {
        u32::try_from(x).unwrap_or(u32::MAX)
    }
}

/// The highest of `count >= 1` faces.
#[inline]
fn tally_highest<R: rand::Rng + ?Sized>(rng: &mut R, n: u64, count: u32) -> u32 {
    let mut high = 0u64;
    each_face_below(rng, n, count, |f| high = high.max(f));
    high as u32 + 1
}

/// The lowest of `count >= 1` faces.
#[inline]
fn tally_lowest<R: rand::Rng + ?Sized>(rng: &mut R, n: u64, count: u32) -> u32 {
    let mut low = u64::MAX;
    each_face_below(rng, n, count, |f| low = low.min(f));
    low as u32 + 1
}

/// How many of `count` faces are `target` or more.
#[inline(always)]
fn tally_at_least<R: rand::Rng + ?Sized>(rng: &mut R, n: u64, count: u32, target: u16) -> u32 {
    let below = u64::from(target).saturating_sub(1);
    let mut hits = 0u32;
    each_face_below(rng, n, count, |f| hits += u32::from(f >= below));
    hits
}

/// One scripted result: a face for the next die rolled, or the card to be drawn next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Scripted {
    /// The next die rolled shows this face.
    Face(u16),
    /// The next card drawn is this one.
    Card(Card),
    /// The next shuffle index (see [`Dice::index`]).
    Index(usize),
}

/// A source that replays a fixed sequence of faces and cards, in order.
///
/// Tests use it to replay the rulebooks' worked examples exactly. Running out, a face too large for the die
/// rolled, or a card not in the pile is remembered (see [`Dice::fault`]), never a panic.
///
/// ```
/// use acw_core::dice::{Dice, Die, ScriptedDice};
/// let mut dice = ScriptedDice::faces([6, 1]);
/// assert_eq!(Die::D6.roll(&mut dice), 6);
/// assert_eq!(Die::D6.roll(&mut dice), 1);
/// assert!(dice.fault().is_none());
/// Die::D6.roll(&mut dice); // nothing left
/// assert!(dice.fault().is_some());
/// ```
#[derive(Clone, Debug, Default)]
pub struct ScriptedDice {
    script: Vec<Scripted>,
    next: usize,
    fault: Option<DiceError>,
}

impl ScriptedDice {
    /// A script of arbitrary entries.
    pub fn new(script: impl IntoIterator<Item = Scripted>) -> Self {
        ScriptedDice {
            script: script.into_iter().collect(),
            next: 0,
            fault: None,
        }
    }

    /// A script of die faces only.
    pub fn faces(faces: impl IntoIterator<Item = u16>) -> Self {
        Self::new(faces.into_iter().map(Scripted::Face))
    }

    /// How many entries have not been used yet.
    #[must_use]
    pub fn remaining(&self) -> usize {
        self.script.len() - self.next
    }

    /// Ok if no problem was met and every entry was used; otherwise the first problem.
    pub fn finish(&self) -> Result<(), DiceError> {
        match &self.fault {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }

    fn take(&mut self) -> Option<Scripted> {
        let s = self.script.get(self.next).copied();
        if s.is_some() {
            self.next += 1;
        }
        s
    }

    fn record(&mut self, e: DiceError) {
        if self.fault.is_none() {
            self.fault = Some(e);
        }
    }
}

fn kind_name(s: &Scripted) -> &'static str {
    match s {
        Scripted::Face(_) => "a face",
        Scripted::Card(_) => "a card",
        Scripted::Index(_) => "an index",
    }
}

impl Dice for ScriptedDice {
    fn face(&mut self, die: Die) -> u16 {
        match self.take() {
            Some(Scripted::Face(f)) if die.has_face(f) => f,
            Some(Scripted::Face(f)) => {
                self.record(DiceError::BadFace { die, face: f });
                1
            }
            Some(other) => {
                self.record(DiceError::WrongKind {
                    expected: "a face",
                    given: kind_name(&other),
                });
                1
            }
            None => {
                self.record(DiceError::Exhausted(die));
                1
            }
        }
    }

    fn index(&mut self, n: usize) -> usize {
        match self.take() {
            Some(Scripted::Index(i)) if i < n.max(1) => i,
            Some(other) => {
                self.record(DiceError::WrongKind {
                    expected: "an index",
                    given: kind_name(&other),
                });
                0
            }
            None => {
                self.record(DiceError::Exhausted(Die::D2));
                0
            }
        }
    }

    fn draw(&mut self, pile: &[Card]) -> usize {
        match self.take() {
            Some(Scripted::Card(c)) => match pile.iter().position(|p| *p == c) {
                Some(i) => i,
                None => {
                    self.record(DiceError::CardNotInPile(c.to_string()));
                    0
                }
            },
            Some(other) => {
                self.record(DiceError::WrongKind {
                    expected: "a card",
                    given: kind_name(&other),
                });
                0
            }
            None => {
                self.record(DiceError::Exhausted(Die::D2));
                0
            }
        }
    }

    fn fault(&self) -> Option<&DiceError> {
        self.fault.as_ref()
    }
}

/// What a [`TableDice`] asks the person at the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask<'a> {
    /// Throw this die and say the face.
    Face(Die),
    /// Draw a card from this pile and say which.
    Card(&'a [Card]),
    /// Pick one of `n` things at random (a shuffle step) and say which, from 0.
    Index(usize),
}

/// A source whose faces are typed in by a person throwing real dice: each time a die is rolled or a card drawn,
/// the closure is asked and answers with a [`Scripted`] entry. Answers the die cannot show are remembered as
/// a fault (see [`Dice::fault`]), as with [`ScriptedDice`].
///
/// ```
/// use acw_core::dice::{Ask, Dice, Die, Scripted, TableDice};
/// let mut typed = vec![4u16, 2].into_iter();
/// let mut dice = TableDice::new(|ask| match ask {
///     Ask::Face(_) => typed.next().map(Scripted::Face),
///     _ => None,
/// });
/// assert_eq!(Die::D6.roll(&mut dice), 4);
/// assert_eq!(Die::D6.roll(&mut dice), 2);
/// ```
pub struct TableDice<F> {
    ask: F,
    fault: Option<DiceError>,
}

impl<F: FnMut(Ask<'_>) -> Option<Scripted>> TableDice<F> {
    /// A source that asks `ask` for every face and card; `None` means the person gave nothing.
    pub fn new(ask: F) -> Self {
        TableDice { ask, fault: None }
    }

    fn record(&mut self, e: DiceError) {
        if self.fault.is_none() {
            self.fault = Some(e);
        }
    }
}

impl<F> fmt::Debug for TableDice<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TableDice")
            .field("fault", &self.fault)
            .finish()
    }
}

impl<F: FnMut(Ask<'_>) -> Option<Scripted>> Dice for TableDice<F> {
    fn face(&mut self, die: Die) -> u16 {
        let mut one = ScriptedDice::new((self.ask)(Ask::Face(die)));
        let f = one.face(die);
        if let Some(e) = one.fault {
            self.record(e);
        }
        f
    }

    fn index(&mut self, n: usize) -> usize {
        let mut one = ScriptedDice::new((self.ask)(Ask::Index(n)));
        let i = one.index(n);
        if let Some(e) = one.fault {
            self.record(e);
        }
        i
    }

    fn draw(&mut self, pile: &[Card]) -> usize {
        let mut one = ScriptedDice::new((self.ask)(Ask::Card(pile)));
        let i = one.draw(pile);
        if let Some(e) = one.fault {
            self.record(e);
        }
        i
    }

    fn fault(&self) -> Option<&DiceError> {
        self.fault.as_ref()
    }
}

/// Which dice of a pool count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Keep {
    /// Every die counts.
    #[default]
    All,
    /// The n highest dice count (`kh`).
    Highest(u8),
    /// The n lowest dice count (`kl`).
    Lowest(u8),
}

/// A pool of identical dice, `NdX`, of which all or the highest/lowest few count.
///
/// ```
/// use acw_core::dice::{Die, Pool};
/// let stats = Pool::new(4, Die::D6)?.keep_highest(3)?; // 4d6 keep highest 3
/// assert_eq!(stats.to_string(), "4d6kh3");
/// # Ok::<(), acw_core::dice::DiceError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "PoolFields"))]
pub struct Pool {
    count: u8,
    die: Die,
    keep: Keep,
}

/// A [`Pool`] as loaded, before its checks.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct PoolFields {
    count: u32,
    die: Die,
    keep: Keep,
}

#[cfg(feature = "serde")]
impl TryFrom<PoolFields> for Pool {
    type Error = DiceError;
    fn try_from(f: PoolFields) -> Result<Self, DiceError> {
        let pool = Pool::new(f.count, f.die)?;
        match f.keep {
            Keep::All => Ok(pool),
            Keep::Highest(k) => pool.keep_highest(k.into()),
            Keep::Lowest(k) => pool.keep_lowest(k.into()),
        }
    }
}

impl Pool {
    /// The most dice one pool may hold.
    pub const MAX_DICE: u32 = 128;

    /// `count` dice of `die`, all counted; 0 or more than [`Pool::MAX_DICE`] dice is an error.
    pub fn new(count: u32, die: Die) -> Result<Pool, DiceError> {
        if count == 0 || count > Self::MAX_DICE {
            return Err(DiceError::BadCount(count));
        }
        Ok(Pool {
            count: count as u8,
            die,
            keep: Keep::All,
        })
    }

    /// Keep only the `n` highest dice (`1 <= n <= count`).
    pub fn keep_highest(self, n: u32) -> Result<Pool, DiceError> {
        self.with_keep("keep", n, Keep::Highest)
    }

    /// Keep only the `n` lowest dice (`1 <= n <= count`).
    pub fn keep_lowest(self, n: u32) -> Result<Pool, DiceError> {
        self.with_keep("keep", n, Keep::Lowest)
    }

    /// Drop the `n` highest dice (`0 <= n < count`), keeping the rest.
    pub fn drop_highest(self, n: u32) -> Result<Pool, DiceError> {
        self.check_drop(n)?;
        self.with_keep("keep", u32::from(self.count) - n, Keep::Lowest)
    }

    /// Drop the `n` lowest dice (`0 <= n < count`), keeping the rest.
    pub fn drop_lowest(self, n: u32) -> Result<Pool, DiceError> {
        self.check_drop(n)?;
        self.with_keep("keep", u32::from(self.count) - n, Keep::Highest)
    }

    fn check_drop(self, n: u32) -> Result<(), DiceError> {
        if n >= u32::from(self.count) {
            Err(DiceError::BadKeep {
                what: "drop",
                n,
                count: self.count.into(),
            })
        } else {
            Ok(())
        }
    }

    fn with_keep(self, what: &'static str, n: u32, f: fn(u8) -> Keep) -> Result<Pool, DiceError> {
        if n == 0 || n > u32::from(self.count) {
            return Err(DiceError::BadKeep {
                what,
                n,
                count: self.count.into(),
            });
        }
        let keep = if n == u32::from(self.count) {
            Keep::All
        } else {
            f(n as u8)
        };
        Ok(Pool { keep, ..self })
    }

    /// How many dice are thrown.
    #[must_use]
    pub fn count(self) -> u32 {
        self.count.into()
    }

    /// The die thrown.
    #[must_use]
    pub fn die(self) -> Die {
        self.die
    }

    /// Which dice count.
    #[must_use]
    pub fn keep(self) -> Keep {
        self.keep
    }

    /// How many dice count.
    #[must_use]
    pub fn kept(self) -> u32 {
        match self.keep {
            Keep::All => self.count.into(),
            Keep::Highest(n) | Keep::Lowest(n) => n.into(),
        }
    }

    /// Smallest and largest possible total.
    #[must_use]
    pub fn range(self) -> (u32, u32) {
        let k = self.kept();
        (k, k * u32::from(self.die.sides()))
    }

    /// Throws the pool, keeping every face. Allocates nothing. ([`Resolve::roll`] gives just the total.)
    pub fn throw<D: Dice + ?Sized>(self, dice: &mut D) -> PoolRoll {
        let mut faces = [0u16; Pool::MAX_DICE as usize];
        let n = usize::from(self.count).min(faces.len());
        dice.fill_faces(self.die, &mut faces[..n]);
        PoolRoll { pool: self, faces }
    }

    /// Throws the pool and returns only the total of the counted dice. Allocates nothing.
    ///
    /// Every path reads the faces in the order thrown, exactly the faces of one [`Dice::face`] per die, so a
    /// seed gives the same faces whichever path a pool takes. A sum, keeping all but one die (the sum less the
    /// highest or lowest face) and keeping one die (the highest or lowest face) are one [`Dice::tally`]: for a
    /// random source, one loop that keeps only the running result. Other keep/drop pools on dice of up to 32
    /// sides count faces rather than sort them and read the kept total off the counts from the kept end. The
    /// sum and the drop-one totals (on dice of up to 64 sides) are always inlined where the pool is rolled, so a
    /// small pool costs no call; the other keep/drop pools are one call.
    #[inline(always)]
    pub fn total<D: Dice + ?Sized>(self, dice: &mut D) -> u32 {
        self.total_in_place(dice)
    }

    /// [`Pool::total`] of a pool read where it lies: its keep, count and die are each read as they are needed
    /// rather than the whole pool copied first (one load a field).
    #[inline(always)]
    fn total_in_place<D: Dice + ?Sized>(&self, dice: &mut D) -> u32 {
        match self.keep {
            Keep::All => dice.tally(self.die, u32::from(self.count), Tally::Sum),
            Keep::Lowest(k) if k.wrapping_add(1) == self.count => {
                dice.tally(self.die, u32::from(self.count), Tally::SumLessHighest)
            }
            Keep::Highest(k) if k.wrapping_add(1) == self.count => {
                dice.tally(self.die, u32::from(self.count), Tally::SumLessLowest)
            }
            _ => self.kept_total(dice),
        }
    }

    /// [`Pool::total`] of a pool that keeps only some of its dice: out of line, so that a plain sum (the common
    /// pool) is all that is inlined where a pool is rolled. One call of `tally` an arm, each with its tally
    /// fixed, so each arm is its own loop.
    #[inline(never)]
    fn kept_total<D: Dice + ?Sized>(self, dice: &mut D) -> u32 {
        let n = u32::from(self.count);
        match self.keep {
            Keep::All => dice.tally(self.die, n, Tally::Sum),
            Keep::Lowest(k) if u32::from(k) + 1 == n => {
                dice.tally(self.die, n, Tally::SumLessHighest)
            }
            Keep::Highest(k) if u32::from(k) + 1 == n => {
                dice.tally(self.die, n, Tally::SumLessLowest)
            }
            Keep::Highest(1) => dice.tally(self.die, n, Tally::Highest),
            Keep::Lowest(1) => dice.tally(self.die, n, Tally::Lowest),
            Keep::Highest(k) => self.counted_total(dice, u32::from(k), true),
            Keep::Lowest(k) => self.counted_total(dice, u32::from(k), false),
        }
    }

    /// Keep/drop of several dice at both ends: counts faces for dice up to 32 sides, sorts otherwise. Out of
    /// line: the common pools stay small where [`Pool::total`] is inlined.
    #[inline(never)]
    fn counted_total<D: Dice + ?Sized>(self, dice: &mut D, k: u32, high: bool) -> u32 {
        const COUNTED: usize = 32;
        let sides = usize::from(self.die.sides());
        if sides > COUNTED {
            return self.throw(dice).total();
        }
        let mut counts = [0u32; COUNTED + 1];
        let mut left = usize::from(self.count);
        let mut buf = [0u16; CHUNK];
        while left > 0 {
            let faces = &mut buf[..left.min(CHUNK)];
            dice.fill_faces(self.die, faces);
            for &f in faces.iter() {
                counts[usize::from(f).min(COUNTED)] += 1;
            }
            left -= faces.len();
        }
        let (mut left, mut total) = (k, 0u32);
        let mut take = |face: usize| {
            let n = counts[face].min(left);
            left -= n;
            total += n * face as u32;
        };
        if high {
            (1..=sides).rev().for_each(&mut take);
        } else {
            (1..=sides).for_each(&mut take);
        }
        total
    }

    /// The estimated work of building this pool's exact distribution ([`Dist::pool`]), in [`WorkLimit`]
    /// steps of about one addition of two weights. Computed from the pool's shape alone, in microseconds.
    ///
    /// [`WorkLimit`]: crate::odds::WorkLimit
    #[must_use]
    pub fn odds_work(self) -> u64 {
        crate::odds::pool_work(self)
    }

    /// The exact distribution of the total, or [`OddsError::TooMuchWork`] (at once, nothing built) when that
    /// would take more than [`WorkLimit::DEFAULT`] (about a second). [`Resolve::odds`] builds it whatever
    /// the cost.
    ///
    /// [`WorkLimit::DEFAULT`]: crate::odds::WorkLimit::DEFAULT
    pub fn exact_odds(self) -> Result<Dist<u32>, OddsError> {
        Dist::pool_within(self, WorkLimit::DEFAULT)
    }

    /// Counts the dice showing `target` or more: a [`SuccessPool`] of this pool's dice (keep/drop is not used).
    pub fn successes(self, target: u16) -> Result<SuccessPool, DiceError> {
        SuccessPool::new(self.count.into(), self.die, target)
    }
}

/// Faces are thrown into a small buffer this many at a time ([`Dice::fill_faces`]), then counted.
const CHUNK: usize = 32;

impl fmt::Display for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.count, self.die)?;
        match self.keep {
            Keep::All => Ok(()),
            Keep::Highest(n) => write!(f, "kh{n}"),
            Keep::Lowest(n) => write!(f, "kl{n}"),
        }
    }
}

/// A thrown pool: every face in the order thrown, and which of them count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PoolRoll {
    pool: Pool,
    faces: [u16; Pool::MAX_DICE as usize],
}

impl PoolRoll {
    /// The pool that was thrown.
    #[must_use]
    pub fn pool(&self) -> Pool {
        self.pool
    }

    /// Every face, in the order thrown.
    #[must_use]
    pub fn faces(&self) -> &[u16] {
        &self.faces[..self.pool.count as usize]
    }

    /// The counted faces, sorted highest first. Allocates nothing.
    #[must_use]
    pub fn kept(&self) -> KeptFaces {
        let n = self.pool.count as usize;
        let mut sorted = self.faces;
        sorted[..n].sort_unstable_by(|a, b| b.cmp(a));
        let (from, to) = match self.pool.keep {
            Keep::All => (0, n),
            Keep::Highest(k) => (0, k as usize),
            Keep::Lowest(k) => (n - k as usize, n),
        };
        KeptFaces { sorted, from, to }
    }

    /// The total of the counted dice.
    pub fn total(&self) -> u32 {
        self.kept().iter().map(u32::from).sum()
    }

    /// The highest face thrown (The Sword and the Flame's "HD6" of a movement roll).
    #[must_use]
    pub fn highest(&self) -> u16 {
        self.faces().iter().copied().max().unwrap_or(0)
    }

    /// The lowest face thrown.
    #[must_use]
    pub fn lowest(&self) -> u16 {
        self.faces().iter().copied().min().unwrap_or(0)
    }

    /// How many dice show `face` or more (hits on "5+" and the like).
    #[must_use]
    pub fn count_at_least(&self, face: u16) -> u32 {
        self.faces().iter().filter(|&&f| f >= face).count() as u32
    }
}

/// The pool, every face in the order thrown, the faces kept (with keep/drop) and the total:
/// `4d6kh3: 3 6 1 4, keeps 6 4 3 = 13`, or `3d6: 2 5 5 = 12`.
impl fmt::Display for PoolRoll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |f: &mut fmt::Formatter<'_>, faces: &mut dyn Iterator<Item = u16>| {
            for (i, face) in faces.enumerate() {
                if i > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{face}")?;
            }
            Ok(())
        };
        write!(f, "{}: ", self.pool)?;
        list(f, &mut self.faces().iter().copied())?;
        if self.pool.keep != Keep::All {
            f.write_str(", keeps ")?;
            list(f, &mut self.kept().iter())?;
        }
        write!(f, " = {}", self.total())
    }
}

/// The counted faces of a [`PoolRoll`], highest first.
#[derive(Clone, Copy, Debug)]
pub struct KeptFaces {
    sorted: [u16; Pool::MAX_DICE as usize],
    from: usize,
    to: usize,
}

impl KeptFaces {
    /// The faces as a slice, highest first.
    #[must_use]
    pub fn as_slice(&self) -> &[u16] {
        &self.sorted[self.from..self.to]
    }

    /// Iterates over the faces, highest first.
    pub fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        self.as_slice().iter().copied()
    }
}

/// Dice notation: a pool plus a fixed modifier, e.g. `3d6`, `4d6kh3`, `20d6dh1`, `2d6+1`, `d30-2`.
///
/// Grammar (case-insensitive, no spaces): `[count]d<sides>[(kh|kl|dh|dl)<n>][(+|-)<modifier>]`;
/// `count` defaults to 1.
///
/// Loading (feature `serde`) checks the pool as [`Pool`] does and the modifier against
/// [`DiceExpr::MAX_MODIFIER`], as parsing does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "DiceExprFields"))]
pub struct DiceExpr {
    /// The dice thrown.
    pub pool: Pool,
    /// Added to the total of the counted dice.
    pub modifier: i32,
}

/// A [`DiceExpr`] as loaded, before its checks.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct DiceExprFields {
    pool: Pool,
    modifier: i32,
}

#[cfg(feature = "serde")]
impl TryFrom<DiceExprFields> for DiceExpr {
    type Error = DiceError;
    fn try_from(f: DiceExprFields) -> Result<Self, DiceError> {
        DiceExpr::new(f.pool, f.modifier)
    }
}

impl DiceExpr {
    /// A pool and a modifier of at most [`DiceExpr::MAX_MODIFIER`] either way (what the notation accepts).
    pub fn new(pool: Pool, modifier: i32) -> Result<DiceExpr, DiceError> {
        if modifier.unsigned_abs() > Self::MAX_MODIFIER.unsigned_abs() {
            return Err(DiceError::BadModifier(modifier));
        }
        Ok(DiceExpr { pool, modifier })
    }

    /// The largest modifier the notation accepts, either sign.
    pub const MAX_MODIFIER: i32 = 1_000_000;

    /// Parses dice notation; anything malformed is a [`DiceError::Notation`] (or a bad die/pool error).
    pub fn parse(text: &str) -> Result<DiceExpr, DiceError> {
        let err = |at: usize, why: &'static str| DiceError::Notation {
            text: text.to_string(),
            at,
            why,
        };
        let b = text.as_bytes();
        let mut i = 0;
        let number = |i: &mut usize| -> Option<u32> {
            let start = *i;
            let mut v: u32 = 0;
            while *i < b.len() && b[*i].is_ascii_digit() {
                v = v.checked_mul(10)?.checked_add(u32::from(b[*i] - b'0'))?;
                *i += 1;
                if *i - start > 7 {
                    return None;
                }
            }
            (*i > start).then_some(v)
        };
        let count = if b.first().is_some_and(u8::is_ascii_digit) {
            number(&mut i).ok_or_else(|| err(0, "a dice count of at most 7 digits"))?
        } else {
            1
        };
        if !matches!(b.get(i), Some(b'd' | b'D')) {
            return Err(err(i, "'d'"));
        }
        i += 1;
        let at = i;
        let sides = number(&mut i).ok_or_else(|| err(at, "the number of sides"))?;
        let die = Die::new(u16::try_from(sides).unwrap_or(u16::MAX))?;
        let mut pool = Pool::new(count, die)?;
        if let Some(&c) = b.get(i)
            && (c == b'k' || c == b'K' || c == b'd' || c == b'D')
        {
            let which = b.get(i + 1).map(u8::to_ascii_lowercase);
            let at = i;
            i += 2;
            let n = number(&mut i)
                .ok_or_else(|| err(i.min(b.len()), "how many dice to keep or drop"))?;
            let keep_or_drop = c.to_ascii_lowercase();
            pool = match (keep_or_drop, which) {
                (b'k', Some(b'h')) => pool.keep_highest(n)?,
                (b'k', Some(b'l')) => pool.keep_lowest(n)?,
                (b'd', Some(b'h')) => pool.drop_highest(n)?,
                (b'd', Some(b'l')) => pool.drop_lowest(n)?,
                _ => return Err(err(at, "kh, kl, dh or dl")),
            };
        }
        let mut modifier = 0;
        if let Some(&c) = b.get(i)
            && (c == b'+' || c == b'-')
        {
            i += 1;
            let at = i;
            let m = number(&mut i).ok_or_else(|| err(at, "a modifier"))?;
            let m = i32::try_from(m).unwrap_or(i32::MAX);
            if m > Self::MAX_MODIFIER {
                return Err(err(at, "a modifier of at most 1000000"));
            }
            modifier = if c == b'-' { -m } else { m };
        }
        if i != b.len() {
            return Err(err(i, "the end of the notation"));
        }
        Ok(DiceExpr { pool, modifier })
    }

    /// Throws the dice and adds the modifier.
    #[inline]
    pub fn total<D: Dice + ?Sized>(&self, dice: &mut D) -> i64 {
        i64::from(self.pool.total(dice)) + i64::from(self.modifier)
    }

    /// The exact distribution of the total, or [`OddsError::TooMuchWork`] when building it would take more
    /// than [`WorkLimit::DEFAULT`] (about a second on a current desktop core). The path for notation a
    /// person typed: the work is estimated from the notation first, so `64d1000kh32` (about four minutes to
    /// build) is refused in microseconds. [`Resolve::odds`] builds the same distribution whatever it costs.
    ///
    /// [`WorkLimit::DEFAULT`]: crate::odds::WorkLimit::DEFAULT
    pub fn exact_odds(&self) -> Result<Dist<i64>, OddsError> {
        self.odds_within(WorkLimit::DEFAULT)
    }

    /// [`DiceExpr::exact_odds`] with another limit on the work ([`WorkLimit::UNLIMITED`] for none).
    ///
    /// [`WorkLimit::UNLIMITED`]: crate::odds::WorkLimit::UNLIMITED
    pub fn odds_within(&self, limit: WorkLimit) -> Result<Dist<i64>, OddsError> {
        limit.check(self.pool.odds_work(), self)?;
        Ok(self.odds())
    }
}

impl std::str::FromStr for DiceExpr {
    type Err = DiceError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        DiceExpr::parse(s)
    }
}

impl fmt::Display for DiceExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.pool)?;
        match self.modifier {
            0 => Ok(()),
            m if m > 0 => write!(f, "+{m}"),
            m => write!(f, "{m}"),
        }
    }
}

/// A pool resolves to the total of its counted dice.
///
/// `odds` builds the exact distribution whatever it costs; [`Pool::exact_odds`] refuses beyond a limit.
impl Resolve for Pool {
    type Outcome = u32;

    #[inline(always)]
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> u32 {
        self.total_in_place(dice)
    }

    fn odds(&self) -> Dist<u32> {
        Dist::pool(*self)
    }
}

/// Dice notation resolves to the total of the counted dice plus the modifier.
///
/// `odds` builds the exact distribution whatever it costs (the largest pools the notation allows take
/// minutes); for notation a caller typed, [`DiceExpr::exact_odds`] estimates the work first and refuses
/// beyond a limit.
impl Resolve for DiceExpr {
    type Outcome = i64;

    #[inline]
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> i64 {
        self.total(dice)
    }

    fn odds(&self) -> Dist<i64> {
        let m = i64::from(self.modifier);
        Dist::pool(self.pool).map(|&t| i64::from(t) + m)
    }
}

/// A pool that counts successes: `count` dice of `die`, each showing `target` or more a success ("30d8,
/// hits on 4+").
///
/// Rolling reads one face per die in the order thrown, as [`Pool::throw`] does, so its count equals
/// `throw(..).count_at_least(target)` for the same seed; it allocates nothing and keeps no faces. The exact
/// odds are binomial, counted in whole numbers of throws: `C(count, j) × hits^j × misses^(count - j)` out of
/// `sides^count`.
///
/// ```
/// use acw_core::dice::{Die, SuccessPool};
/// use acw_core::{GameRng, Resolve};
/// let hits = SuccessPool::new(3, Die::D6, 5)?; // 3d6, 5+ hits
/// assert_eq!(hits.to_string(), "3d6 counting 5+");
/// // Three hits: (2/6)^3 = 8/216.
/// assert!((hits.odds().p(&3) - 8.0 / 216.0).abs() < 1e-15);
/// assert!(hits.roll(&mut GameRng::seed(1)) <= 3);
/// # Ok::<(), acw_core::dice::DiceError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "SuccessPoolFields"))]
pub struct SuccessPool {
    count: u8,
    die: Die,
    target: u16,
}

/// A [`SuccessPool`] as loaded, before its checks.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct SuccessPoolFields {
    count: u32,
    die: Die,
    target: u16,
}

#[cfg(feature = "serde")]
impl TryFrom<SuccessPoolFields> for SuccessPool {
    type Error = DiceError;
    fn try_from(f: SuccessPoolFields) -> Result<Self, DiceError> {
        SuccessPool::new(f.count, f.die, f.target)
    }
}

impl SuccessPool {
    /// `count` dice of `die` (1 to [`Pool::MAX_DICE`]), a success on `target` or more (1 to the die's sides).
    pub fn new(count: u32, die: Die, target: u16) -> Result<SuccessPool, DiceError> {
        if count == 0 || count > Pool::MAX_DICE {
            return Err(DiceError::BadCount(count));
        }
        if !die.has_face(target) {
            return Err(DiceError::BadTarget { die, target });
        }
        Ok(SuccessPool {
            count: count as u8,
            die,
            target,
        })
    }

    /// How many dice are thrown.
    #[must_use]
    pub fn count(self) -> u32 {
        self.count.into()
    }

    /// The die thrown.
    #[must_use]
    pub fn die(self) -> Die {
        self.die
    }

    /// The lowest face that is a success.
    #[must_use]
    pub fn target(self) -> u16 {
        self.target
    }

    /// The chance that one die is a success: (sides - target + 1) / sides.
    #[must_use]
    pub fn chance(self) -> f64 {
        f64::from(self.die.sides() - self.target + 1) / f64::from(self.die.sides())
    }

    /// Throws the dice and counts the successes (one loop, always inlined where it is called). Allocates nothing.
    #[inline(always)]
    pub fn successes<D: Dice + ?Sized>(self, dice: &mut D) -> u32 {
        dice.tally(self.die, self.count.into(), Tally::AtLeast(self.target))
    }
}

impl fmt::Display for SuccessPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{} counting {}+", self.count, self.die, self.target)
    }
}

/// A success pool resolves to the number of dice showing the target or more.
impl Resolve for SuccessPool {
    type Outcome = u32;

    #[inline(always)]
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> u32 {
        self.successes(dice)
    }

    fn odds(&self) -> Dist<u32> {
        Dist::successes(self.count.into(), self.die, self.target)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A generator replaying fixed words, so that rejected words (a zero word is rejected for every die whose
    /// sides do not divide 2^64) can be placed where a test wants them.
    #[derive(Clone)]
    struct Words(Vec<u64>, usize);

    impl rand::TryRng for Words {
        type Error = std::convert::Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            self.try_next_u64().map(|w| (w >> 32) as u32)
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            let w = self.0[self.1 % self.0.len()];
            self.1 += 1;
            Ok(w)
        }
        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
            dst.fill(0);
            Ok(())
        }
    }

    /// Uses only `face`, so `tally` and `fill_faces` take the trait's one-face-at-a-time defaults.
    struct OneByOne<'a>(&'a mut Words);

    impl Dice for OneByOne<'_> {
        fn face(&mut self, die: Die) -> u16 {
            self.0.face(die)
        }
        fn index(&mut self, n: usize) -> usize {
            self.0.index(n)
        }
    }

    /// A random source's card draw picks the same card, from the same words, as `Dice::index` of the pile's
    /// length, rejected words included; a pile of one card takes no word.
    #[test]
    fn a_random_draw_is_the_index_of_the_piles_length() {
        let cards: Vec<Card> = Card::all_suited().collect();
        // 2^64 mod 52 = 16 and 2^64 mod 3 = 1: a zero word is rejected for both (so is 2^63 for 52), and
        // `kept_low` times 52 leaves a low word of 20: in the band that is checked (below 52) but kept (not
        // below 16), giving 2.
        let kept_low = 0x09D8_9D89_D89D_89D9_u64;
        assert_eq!(u128::from(kept_low) * 52 % (1 << 64), 20);
        let words = vec![0, 0, 7 << 58, kept_low, u64::MAX, 0, 1 << 63, 12345];
        for len in [1usize, 2, 3, 5, 52] {
            let mut fast = Words(words.clone(), 0);
            let mut slow = Words(words.clone(), 0);
            for _ in 0..6 {
                let got = fast.draw(&cards[..len]);
                let want = OneByOne(&mut slow).index(len);
                assert_eq!(got, want, "pile of {len}");
                assert!(got < len);
                assert_eq!(fast.1, slow.1, "words used, pile of {len}");
            }
        }
        // By hand: the first two words (zeros) are rejected for a pile of 52, the third gives
        // (7 * 2^58 * 52) / 2^64 = 7 * 52 / 64 = 5 (rounded down).
        let mut w = Words(words.clone(), 0);
        assert_eq!(w.draw(&cards), 5);
        assert_eq!(w.1, 3);
        let mut w = Words(words, 0);
        assert_eq!(w.draw(&cards[..1]), 0);
        assert_eq!(w.1, 0, "a pile of one card takes no word");
    }

    /// A random source's `draw_many` (one loop, its rare path in line) leaves the cards in the same places,
    /// from the same words, as the trait's default of one `draw` a card, rejected words included, for every
    /// count up to the whole pile; a last card left takes no word.
    #[test]
    fn draw_many_agrees_with_one_draw_at_a_time() {
        let cards: Vec<Card> = Card::all_suited().collect();
        let kept_low = 0x09D8_9D89_D89D_89D9_u64;
        let words = vec![
            0,
            0,
            7 << 58,
            kept_low,
            u64::MAX,
            0,
            1 << 63,
            12345,
            3 << 60,
        ];
        for len in [1usize, 2, 3, 5, 52] {
            for count in 0..=len {
                for start in 0..words.len() {
                    let mut fast = Words(words.clone(), start);
                    let mut slow = Words(words.clone(), start);
                    let mut a = cards[..len].to_vec();
                    let mut b = a.clone();
                    fast.draw_many(&mut a, count);
                    OneByOne(&mut slow).draw_many(&mut b, count);
                    assert_eq!(a, b, "{count} of {len} from word {start}");
                    assert_eq!(
                        fast.1, slow.1,
                        "words used, {count} of {len} from word {start}"
                    );
                }
            }
        }
        // By hand: from 2♣ 3♣ 4♣ the zero words are rejected, 7 * 2^58 picks 7 * 3 / 64 = 0 (2♣, which
        // changes places with 4♣), and the last two cards take `kept_low`: 2 * kept_low / 2^64 = 0 (4♣, which
        // changes places with 3♣); the last card takes no word.
        let mut three = cards[..3].to_vec();
        let mut w = Words(words, 0);
        w.draw_many(&mut three, 3);
        let shown: Vec<String> = three.iter().map(ToString::to_string).collect();
        assert_eq!(shown, ["3♣", "4♣", "2♣"]);
        assert_eq!(w.1, 4);
    }

    /// The fast loops of a random source give the same faces, tallies and words used as one `face` at a time,
    /// rejected words included.
    #[test]
    fn fast_loops_agree_with_one_face_at_a_time() {
        let mut words: Vec<u64> = (1..=40u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        words[3] = 0;
        words[4] = 0;
        words[17] = 0;
        for die in [Die::D6, Die::D8, Die::D20, Die::new(999).unwrap_or(Die::D6)] {
            for count in [0u32, 1, 3, 20, 33] {
                for tally in [
                    Tally::Sum,
                    Tally::SumLessHighest,
                    Tally::SumLessLowest,
                    Tally::Highest,
                    Tally::Lowest,
                    Tally::AtLeast(4),
                ] {
                    let mut fast = Words(words.clone(), 0);
                    let mut slow = Words(words.clone(), 0);
                    let got = fast.tally(die, count, tally);
                    let want = OneByOne(&mut slow).tally(die, count, tally);
                    assert_eq!(got, want, "{die} x{count} {tally:?}");
                    assert_eq!(fast.1, slow.1, "words used, {die} x{count} {tally:?}");
                }
                let mut fast = Words(words.clone(), 0);
                let mut slow = Words(words.clone(), 0);
                let mut a = [0u16; 33];
                let mut b = [0u16; 33];
                fast.fill_faces(die, &mut a[..count as usize]);
                OneByOne(&mut slow).fill_faces(die, &mut b[..count as usize]);
                assert_eq!(a, b);
                assert_eq!(fast.1, slow.1);
            }
        }
        // A tally too large for a u32 saturates rather than overflowing, on both paths.
        let big = Die::new(1000).unwrap_or(Die::D6);
        let mut rng = crate::GameRng::seed(1);
        assert_eq!(rng.tally(big, 10_000_000, Tally::Sum), u32::MAX);
        let mut rng = Words(words.clone(), 0);
        // The default path saturates the sum, then takes off the highest face (at most 1000).
        let less_highest = OneByOne(&mut rng).tally(big, 10_000_000, Tally::SumLessHighest);
        assert!(less_highest >= u32::MAX - 1000);
        // The most dice whose total always fits a u32 (the saturation left out): the same total as the
        // default path, which saturates.
        let most = u32::MAX / u32::from(Die::MAX_SIDES);
        let mut fast = Words(words.clone(), 0);
        let mut slow = Words(words.clone(), 0);
        let total = fast.tally(big, most, Tally::Sum);
        assert_eq!(total, OneByOne(&mut slow).tally(big, most, Tally::Sum));
        assert!(total < u32::MAX);
        // The zero words were rejected: a d6 from words 0, 0, w reads w.
        let mut w = Words(vec![0, 0, u64::MAX], 0);
        assert_eq!(w.face(Die::D6), 6);
        assert_eq!(w.1, 3);
    }

    /// A rejected word at every place of small pools: the loop takes two dice a turn and a last one alone, so a
    /// rejection may fall on the first or second die of a turn, on the last die, or on the word after a
    /// rejection (rejected twice running). Each agrees with one `face` at a time, words used included.
    #[test]
    fn a_rejected_word_anywhere_in_a_small_pool() {
        let plain: Vec<u64> = (1..=16u64)
            .map(|i| i.wrapping_mul(0xD1B5_4A32_D192_ED03))
            .collect();
        for die in [Die::D6, Die::D20, Die::new(100).unwrap_or(Die::D6)] {
            for count in 1u32..=6 {
                for at in 0..(count as usize + 2) {
                    for run in 1..=2 {
                        let mut words = plain.clone();
                        words[at..at + run].fill(0);
                        for tally in [
                            Tally::Sum,
                            Tally::SumLessHighest,
                            Tally::SumLessLowest,
                            Tally::Highest,
                            Tally::Lowest,
                            Tally::AtLeast(3),
                        ] {
                            let mut fast = Words(words.clone(), 0);
                            let mut slow = Words(words.clone(), 0);
                            let got = fast.tally(die, count, tally);
                            let want = OneByOne(&mut slow).tally(die, count, tally);
                            let what =
                                format!("{die} x{count}, {run} zero word(s) at {at}, {tally:?}");
                            assert_eq!(got, want, "{what}");
                            assert_eq!(fast.1, slow.1, "words used, {what}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn die_bounds() {
        assert_eq!(Die::new(1), Err(DiceError::BadSides(1)));
        assert_eq!(Die::new(1001), Err(DiceError::BadSides(1001)));
        assert_eq!(Die::new(30).map(Die::sides), Ok(30));
        assert!(Die::D6.has_face(6) && !Die::D6.has_face(7) && !Die::D6.has_face(0));
    }

    #[test]
    fn scripted_reports_problems() {
        let mut d = ScriptedDice::faces([7]);
        assert_eq!(d.face(Die::D6), 1);
        assert_eq!(
            d.fault(),
            Some(&DiceError::BadFace {
                die: Die::D6,
                face: 7
            })
        );
        let mut d = ScriptedDice::faces([]);
        d.face(Die::D8);
        assert_eq!(d.finish(), Err(DiceError::Exhausted(Die::D8)));
    }

    #[test]
    fn pool_keeps_faces_and_counts_kept() {
        let p = Pool::new(4, Die::D6).and_then(|p| p.keep_highest(3));
        let Ok(p) = p else { panic!("valid pool") };
        let r = p.throw(&mut ScriptedDice::faces([3, 6, 1, 4]));
        assert_eq!(r.faces(), &[3, 6, 1, 4]);
        assert_eq!(r.kept().as_slice(), &[6, 4, 3]);
        assert_eq!(r.total(), 13);
        assert_eq!(r.highest(), 6);
        assert_eq!(r.lowest(), 1);
        assert_eq!(r.count_at_least(4), 2);
        assert_eq!(r.to_string(), "4d6kh3: 3 6 1 4, keeps 6 4 3 = 13");
        let plain = Pool::new(3, Die::D6).map(|p| p.throw(&mut ScriptedDice::faces([2, 5, 5])));
        assert_eq!(
            plain.map(|r| r.to_string()).as_deref(),
            Ok("3d6: 2 5 5 = 12")
        );
    }

    #[test]
    fn drop_is_keep_of_the_rest() {
        let p = Pool::new(20, Die::D6).and_then(|p| p.drop_highest(1));
        assert_eq!(p.map(Pool::keep), Ok(Keep::Lowest(19)));
        assert!(
            Pool::new(3, Die::D6)
                .and_then(|p| p.drop_lowest(3))
                .is_err()
        );
        assert!(
            Pool::new(3, Die::D6)
                .and_then(|p| p.keep_highest(0))
                .is_err()
        );
        assert!(Pool::new(0, Die::D6).is_err());
        assert!(Pool::new(129, Die::D6).is_err());
    }

    #[test]
    fn notation_round_trips() {
        for (text, shown) in [
            ("3d6", "3d6"),
            ("4d6kh3", "4d6kh3"),
            ("2d6+1", "2d6+1"),
            ("d30", "1d30"),
            ("20D6DH1", "20d6kl19"),
            ("5d10dl2-3", "5d10kh3-3"),
            ("3d6kh3", "3d6"),
        ] {
            let e = DiceExpr::parse(text);
            assert_eq!(e.map(|e| e.to_string()).as_deref(), Ok(shown), "{text}");
        }
    }

    #[test]
    fn notation_refuses_malformed() {
        for bad in [
            "",
            "d",
            "3",
            "3x6",
            "3d",
            "3d1",
            "0d6",
            "3d6k",
            "3d6kx2",
            "3d6kh4",
            "3d6+",
            "3d6 ",
            "-3d6",
            "3d6+1+1",
            "99999999d6",
            "3d6+99999999",
            "1d1001",
        ] {
            assert!(DiceExpr::parse(bad).is_err(), "{bad:?} should be refused");
        }
        assert_eq!(
            DiceExpr::parse("3x6"),
            Err(DiceError::Notation {
                text: "3x6".into(),
                at: 1,
                why: "'d'"
            })
        );
    }
}
