//! Errors: input that cannot describe a map, an army or a procedure ([`D8Error`]) and actions the rules refuse
//! ([`Refusal`]). A refused or bad call never changes the state it was asked of.

use std::borrow::Cow;
use thiserror::Error;

/// Input that cannot describe a map, an army, a unit or a procedure.
#[derive(Clone, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum D8Error {
    /// A count out of its allowed range.
    #[error("{what} must be {min} to {max}, not {given}")]
    OutOfRange {
        /// What was counted.
        what: &'static str,
        /// The value given.
        given: i64,
        /// The smallest allowed.
        min: i64,
        /// The largest allowed.
        max: i64,
    },
    /// A length that is not finite and not negative.
    #[error("{what} must be a finite length of 0 cm or more, not {given}")]
    BadLength {
        /// What was measured.
        what: &'static str,
        /// The value given.
        given: f64,
    },
    /// A generated or loaded map that breaks the map rules.
    #[error("this map is not valid: {0}")]
    BadMap(String),
    /// A generated or loaded army that breaks the organisation rules.
    #[error("this army is not valid: {0}")]
    BadArmy(String),
    /// A saved battle that is not a state the rules could reach.
    #[error("this saved battle is not valid: {0}")]
    BadBattle(String),
    /// A unit, officer or structure id that the battle does not know.
    #[error("there is no {what} numbered {id} in this battle")]
    Unknown {
        /// "unit", "officer" or "structure".
        what: &'static str,
        /// The id given.
        id: u32,
    },
    /// A dice source that ran out or gave an impossible face; nothing was changed.
    #[error("the dice failed ({0}); nothing was changed")]
    Dice(String),
}

/// A unit as a refusal names it ("the 1st Zouaves (Union foot regiment)"): the sentence is written only when the
/// refusal is read, so a refusal nobody reads (a commander asking what is legal) costs no formatting.
#[derive(Clone, Debug, PartialEq)]
pub struct UnitLabel {
    /// The unit's name.
    pub name: std::sync::Arc<str>,
    /// Its side.
    pub side: acw_core::Side,
    /// What it is.
    pub troop: crate::tables::Troop,
}

/// A unit's label sentence (as [`UnitLabel`]'s `Display` writes it) appended to `s` piece by piece, without the
/// formatting machinery.
pub(crate) fn push_label(
    s: &mut String,
    name: &str,
    side: acw_core::Side,
    troop: crate::tables::Troop,
) {
    s.push_str("the ");
    s.push_str(name);
    s.push_str(" (");
    s.push_str(crate::tables::side_word(side));
    s.push(' ');
    s.push_str(troop.word());
    s.push(')');
}

impl std::fmt::Display for UnitLabel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the {} ({} {})", self.name, self.side, self.troop)
    }
}

/// An action the rules do not allow. The battle is left exactly as it was.
#[derive(Clone, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum Refusal {
    /// Bad input (see [`D8Error`]).
    #[error(transparent)]
    Input(#[from] D8Error),
    /// The phase or the player is wrong for this action.
    #[error("{action} is not allowed now: {why}")]
    WrongTime {
        /// What was asked.
        action: &'static str,
        /// Why not now.
        why: String,
    },
    /// The unit may not fire (D8-FIR-01, D8-FIR-02, D8-ART-03, D8-ENV-06).
    #[error("{unit} may not fire: {why}")]
    CannotFire {
        /// The unit's name.
        unit: UnitLabel,
        /// Why not.
        why: Cow<'static, str>,
    },
    /// The unit may not move so (D8-MOV-*, D8-CMD-04).
    #[error("{unit} may not make that move: {why}")]
    CannotMove {
        /// The unit's name.
        unit: UnitLabel,
        /// Why not.
        why: Cow<'static, str>,
    },
    /// The unit may not charge (D8-MOV-20 to D8-MOV-22).
    #[error("{unit} may not charge: {why}")]
    CannotCharge {
        /// The unit's name.
        unit: UnitLabel,
        /// Why not.
        why: Cow<'static, str>,
    },
    /// The melee as described is not allowed (D8-MEL-01, D8-MEL-02).
    #[error("that melee is not allowed: {0}")]
    BadMelee(String),
    /// Another action the rules forbid, with the reason.
    #[error("{0}")]
    Forbidden(String),
}

impl D8Error {
    pub(crate) fn range(what: &'static str, given: impl Into<i64>, min: i64, max: i64) -> D8Error {
        D8Error::OutOfRange {
            what,
            given: given.into(),
            min,
            max,
        }
    }
}

/// Checks a measured length: finite and not negative.
pub(crate) fn length(what: &'static str, cm: f64) -> Result<f64, D8Error> {
    if cm.is_finite() && cm >= 0.0 {
        Ok(cm)
    } else {
        Err(D8Error::BadLength { what, given: cm })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::{GunType, Troop};
    use acw_core::Side;

    #[test]
    fn a_label_written_piece_by_piece_reads_as_its_display() {
        let troops = [
            Troop::Foot,
            Troop::Cavalry,
            Troop::Sharpshooters,
            Troop::Battery(GunType::Field),
            Troop::Battery(GunType::Heavy),
            Troop::Indians,
        ];
        for side in Side::both() {
            for troop in troops {
                let label = UnitLabel {
                    name: "1st Zouaves".into(),
                    side,
                    troop,
                };
                let mut s = String::new();
                push_label(&mut s, &label.name, side, troop);
                assert_eq!(s, label.to_string());
            }
        }
        let mut s = String::new();
        push_label(
            &mut s,
            "2nd Texas",
            Side::Confederate,
            Troop::Battery(GunType::Heavy),
        );
        assert_eq!(s, "the 2nd Texas (Confederate heavy battery)");
    }
}
