//! Small helpers shared by the generators: re-rolls that cannot loop for ever, and dice faults as errors.

use crate::error::D8Error;
use acw_core::{Dice, Die};

/// The most re-rolls any one re-rolled procedure takes before giving up (a typed-in source that keeps giving an
/// excluded face would otherwise loop for ever). Random dice never come near it: every re-rolled procedure here
/// accepts a roll with probability at least 1/10.
pub(crate) const MAX_REROLLS: u32 = 10_000;

/// Rolls `die` until `accept` takes the face; an error if the source faults or never gives an accepted face.
pub(crate) fn reroll<D: Dice + ?Sized>(
    dice: &mut D,
    die: Die,
    what: &'static str,
    mut accept: impl FnMut(u16) -> bool,
) -> Result<u16, D8Error> {
    for _ in 0..MAX_REROLLS {
        let f = die.roll(dice);
        check(dice)?;
        if accept(f) {
            return Ok(f);
        }
    }
    Err(D8Error::Dice(format!(
        "{what} was re-rolled {MAX_REROLLS} times without a usable result"
    )))
}

/// A roll for the fast paths: re-rolls `die` until `accept` takes the face, giving up (with the last face) after
/// [`MAX_REROLLS`] tries or when the source faults. Used by `Resolve::roll`, which cannot fail.
pub(crate) fn reroll_fast<D: Dice + ?Sized>(
    dice: &mut D,
    die: Die,
    mut accept: impl FnMut(u16) -> bool,
) -> u16 {
    let mut f = die.roll(dice);
    let mut n = 1;
    while !accept(f) && n < MAX_REROLLS && dice.fault().is_none() {
        f = die.roll(dice);
        n += 1;
    }
    f
}

/// The source's fault as an error.
pub(crate) fn check<D: Dice + ?Sized>(dice: &D) -> Result<(), D8Error> {
    match dice.fault() {
        Some(e) => Err(D8Error::Dice(e.to_string())),
        None => Ok(()),
    }
}

/// A D6 roll-off between two players, ties re-rolled: `true` if the first wins.
pub(crate) fn roll_off<D: Dice + ?Sized>(dice: &mut D, die: Die) -> bool {
    for _ in 0..MAX_REROLLS {
        let a = die.roll(dice);
        let b = die.roll(dice);
        if a != b || dice.fault().is_some() {
            return a > b;
        }
    }
    true
}
