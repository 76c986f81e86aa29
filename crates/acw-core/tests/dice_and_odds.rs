//! Exact odds worked out by hand, roll-versus-odds agreement, and invariants of dice, pools and distributions.

use acw_core::dice::{Dice, DiceExpr, Die, Pool, ScriptedDice};
use acw_core::odds::Dist;
use acw_core::testing::{assert_prob, assert_roll_matches_odds, check_roll_matches_odds};
use acw_core::{GameRng, Resolve};
use proptest::prelude::*;

fn pool(text: &str) -> Pool {
    match DiceExpr::parse(text) {
        Ok(e) => e.pool,
        Err(e) => panic!("{text}: {e}"),
    }
}

#[test]
fn hand_computed_pool_odds() {
    // 3d6 = 10: 27 of the 216 ordered throws.
    assert_prob("3d6 = 10", pool("3d6").odds().p(&10), 27.0 / 216.0);
    // 2d6 <= 8: 36 - (3+2+1+4... ) = the 10 throws totalling 9-12 are excluded: 26/36.
    assert_prob("2d6 <= 8", pool("2d6").odds().cdf(&8), 26.0 / 36.0);
    // 2d6 keep highest 1 = 6: 1 - (5/6)^2 = 11/36.
    assert_prob("2d6kh1 = 6", pool("2d6kh1").odds().p(&6), 11.0 / 36.0);
    // 2d6 keep lowest 1 = 1: 11/36 by symmetry.
    assert_prob("2d6kl1 = 1", pool("2d6kl1").odds().p(&1), 11.0 / 36.0);
    // 3d6 keep highest 1 <= 4: (4/6)^3 = 64/216.
    assert_prob("3d6kh1 <= 4", pool("3d6kh1").odds().cdf(&4), 64.0 / 216.0);
    // d30 above 25: 5/30.
    assert_prob("d30 > 25", pool("d30").odds().prob(|&t| t > 25), 5.0 / 30.0);
    // 2d6+1 = 13: only double six, 1/36.
    let e = DiceExpr::parse("2d6+1").unwrap_or_else(|e| panic!("{e}"));
    assert_prob("2d6+1 = 13", e.odds().p(&13), 1.0 / 36.0);
    assert_prob("2d6+1 = 2", e.odds().p(&2), 0.0);
    // 20d6 drop highest: the lowest total, 19, needs at least 19 ones: (1 + 20*5)/6^20.
    let d = pool("20d6dh1").odds();
    assert_prob("20d6dh1 = 19", d.p(&19), 101.0 / 6f64.powi(20));
    assert_eq!(*d.max(), 114);
}

#[test]
fn keep_drop_matches_brute_force_for_4d4() {
    for text in ["4d4kh2", "4d4kl3", "4d4dh1", "4d4dl2"] {
        let p = pool(text);
        let d = p.odds();
        let mut counts = std::collections::BTreeMap::<u32, u32>::new();
        for a in 1..=4u16 {
            for b in 1..=4 {
                for c in 1..=4 {
                    for e in 1..=4 {
                        let t = p.throw(&mut ScriptedDice::faces([a, b, c, e])).total();
                        *counts.entry(t).or_default() += 1;
                    }
                }
            }
        }
        for (t, c) in counts {
            assert_prob(text, d.p(&t), f64::from(c) / 256.0);
        }
    }
}

/// `total` counts faces instead of sorting them for dice up to 32 sides; it must agree with the faces thrown.
#[test]
fn counted_total_equals_sorted_total() {
    for text in [
        "20d6dh1", "4d6kh3", "5d10kl2", "6d2kh4", "3d32kh1", "3d33kh1", "7d20dl3",
    ] {
        let p = pool(text);
        for seed in 0..200 {
            let counted = p.total(&mut GameRng::seed(seed));
            let sorted = p.throw(&mut GameRng::seed(seed)).total();
            assert_eq!(counted, sorted, "{text} seed {seed}");
        }
    }
}

#[test]
fn roll_agrees_with_odds() {
    for text in [
        "3d6", "4d6kh3", "20d6dh1", "d30", "5d10kl2", "2d3", "6d2kh4",
    ] {
        assert_roll_matches_odds(&pool(text));
    }
    let e = DiceExpr::parse("2d6-3").unwrap_or_else(|e| panic!("{e}"));
    assert_roll_matches_odds(&e);
}

/// A deliberately wrong procedure is caught: the helper is a real test.
#[test]
fn the_check_catches_disagreement() {
    struct Loaded;
    impl Resolve for Loaded {
        type Outcome = u16;
        fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> u16 {
            dice.face(Die::D6).max(2)
        }
        fn odds(&self) -> Dist<u16> {
            Dist::die(Die::D6).map(|&f| f as u16)
        }
    }
    assert!(check_roll_matches_odds(&Loaded, 20_000).is_err());
}

#[test]
fn same_seed_same_faces() {
    let p = pool("20d6");
    let a: Vec<u32> = {
        let mut r = GameRng::seed(99);
        (0..50).map(|_| p.roll(&mut r)).collect()
    };
    let b: Vec<u32> = {
        let mut r = GameRng::seed(99);
        (0..50).map(|_| p.roll(&mut r)).collect()
    };
    assert_eq!(a, b);
}

#[cfg(feature = "serde")]
#[test]
fn game_rng_resumes_after_save() {
    let mut r = GameRng::seed(5);
    for _ in 0..7 {
        Die::D6.roll(&mut r);
    }
    let saved = serde_json::to_string(&r).unwrap_or_default();
    let mut back: GameRng = serde_json::from_str(&saved).unwrap_or_else(|e| panic!("{e}"));
    let next: Vec<u16> = (0..10).map(|_| Die::D6.roll(&mut r)).collect();
    let resumed: Vec<u16> = (0..10).map(|_| Die::D6.roll(&mut back)).collect();
    assert_eq!(next, resumed);
}

#[cfg(feature = "serde")]
#[test]
fn loading_refuses_impossible_values() {
    assert!(serde_json::from_str::<Die>("1").is_err());
    assert!(serde_json::from_str::<Die>("6").is_ok());
    assert!(serde_json::from_str::<acw_core::Strength>(r#"{"current":5,"original":4}"#).is_err());
}

proptest! {
    #[test]
    fn pool_odds_sum_to_one_and_cover_the_range(n in 1u32..12, sides in 2u16..13, k in 0u32..12, high in any::<bool>()) {
        let die = Die::new(sides).unwrap_or(Die::D6);
        let mut p = Pool::new(n, die).unwrap_or_else(|e| panic!("{e}"));
        let k = k % n + 1;
        p = if high { p.keep_highest(k) } else { p.keep_lowest(k) }.unwrap_or(p);
        let d = p.odds();
        let total: f64 = d.outcomes().iter().map(|(_, q)| q).sum();
        prop_assert!((total - 1.0).abs() < 1e-9);
        let (lo, hi) = p.range();
        prop_assert_eq!((*d.min(), *d.max()), (lo, hi));
    }

    #[test]
    fn rolled_faces_are_on_the_die(seed in any::<u64>(), sides in 2u16..=1000) {
        let die = Die::new(sides).unwrap_or(Die::D6);
        let mut r = GameRng::seed(seed);
        for _ in 0..20 {
            prop_assert!(die.has_face(die.roll(&mut r)));
        }
    }

    #[test]
    fn notation_never_panics(text in "\\PC{0,16}") {
        let _ = DiceExpr::parse(&text);
    }

    #[test]
    fn notation_round_trips(n in 1u32..=128, sides in 2u16..=1000, m in -1000i32..1000) {
        let text = format!("{n}d{sides}{m:+}");
        let e = DiceExpr::parse(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        prop_assert_eq!(DiceExpr::parse(&e.to_string()), Ok(e));
    }
}
