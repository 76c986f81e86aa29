//! What a person reads: ids, sharpshooters' dice and melee ends written as sentences, never a Rust `Debug` form.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use acw_hardtack::fire::Sharpshot;
use acw_hardtack::melee::{AssaultSide, MeleeEnd};
use acw_hardtack::prelude::*;

#[test]
fn ids_read_as_their_kind_and_number() {
    assert_eq!(CompanyId(3).to_string(), "company 3");
    assert_eq!(GunId(2).to_string(), "gun 2");
}

#[test]
fn sharpshooters_dice_read_as_a_sentence() {
    // Range die 6: quality 2 and D8 3 both fall short.
    assert_eq!(
        Sharpshot::judge(6, 2, 3).to_string(),
        "the sharpshooter misses"
    );
    // Range die 3: a natural 1 on the quality die reveals him; the D8's 5 beats the range die.
    assert_eq!(
        Sharpshot::judge(3, 1, 5).to_string(),
        "the sharpshooter beats the range die once and reveals himself"
    );
    assert_eq!(
        Sharpshot::judge(2, 4, 5).to_string(),
        "the sharpshooter beats the range die twice"
    );
}

#[test]
fn melee_ends_read_as_a_sentence() {
    let fell_back = MeleeEnd::FellBack {
        loser: AssaultSide::Defender,
        levels: 2,
    };
    assert_eq!(
        fell_back.to_string(),
        "the defender falls back, losing two confidence levels"
    );
    assert_eq!(
        MeleeEnd::Destroyed {
            loser: AssaultSide::Attacker
        }
        .to_string(),
        "the attacker has every figure down"
    );
    assert_eq!(
        MeleeEnd::Stalemate.to_string(),
        "both sides still hold after the round limit"
    );
}
