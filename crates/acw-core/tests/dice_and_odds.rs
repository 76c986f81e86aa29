//! Exact odds worked out by hand, roll-versus-odds agreement, and invariants of dice, pools and distributions.

use acw_core::cards::Deck;
use acw_core::dice::{Dice, DiceError, DiceExpr, Die, Pool, ScriptedDice, SuccessPool};
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

/// `total` counts faces instead of sorting them for dice up to 32 sides, and takes the highest or lowest face
/// off a drop-one total as the top or bottom bit of the faces seen for dice up to 64 sides (a running maximum
/// or minimum above); each must agree with the faces thrown.
#[test]
fn counted_total_equals_sorted_total() {
    for text in [
        "20d6dh1", "4d6kh3", "5d10kl2", "6d2kh4", "3d32kh1", "3d33kh1", "7d20dl3", "20d6dl1",
        "6d64dh1", "6d64dl1", "6d65dh1", "6d65dl1", "5d100dh1", "2d2dl1", "3d3",
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

/// Pins what a seed gives: totals of every keep/drop path of `Pool::total` (sum less the highest or lowest,
/// highest or lowest alone, counted faces, plain sums) and the cards of draws, a full deal, a reshuffle and a
/// shuffle. The totals were recorded from the earlier sort-based totals, so they also show the faster paths
/// read the same words and give the same faces.
///
/// The cards changed twice, on purpose: draws used to take the card out and move every later card up one
/// place; now the last card of the pile fills the gap (a swap, the same cost whatever the card). The first
/// card a seed draws is the same (6♦ below); later ones differ because the pile is in another order. Then
/// the discards, which came back to the pile oldest first, came back the last discarded first (the deck is
/// one vector, the discard pile at its end, and a reshuffle moves no card): the draws before a reshuffle are
/// the same, those after it (the shuffle and draw below) differ.
#[test]
fn value_stable_totals_and_cards() {
    let mut r = GameRng::seed(42);
    for (text, want) in [
        ("20d6dh1", [67, 74, 62, 68, 56, 71]),
        ("20d6dl1", [80, 57, 72, 66, 81, 71]),
        ("5d6kh1", [5, 6, 6, 4, 4, 6]),
        ("5d6kl1", [1, 1, 1, 1, 2, 2]),
        ("4d6kh3", [14, 12, 15, 14, 11, 17]),
        ("7d20dl3", [64, 28, 70, 59, 67, 60]),
        ("3d6", [13, 8, 7, 17, 7, 11]),
    ] {
        let p = pool(text);
        let got: Vec<u32> = (0..6).map(|_| p.total(&mut r)).collect();
        assert_eq!(got, want, "{text}");
    }

    let shown = |cards: &[acw_core::cards::Card]| -> Vec<String> {
        cards.iter().map(ToString::to_string).collect()
    };
    let mut rng = GameRng::seed(1863);
    let mut deck = Deck::standard(2).unwrap_or_else(|e| panic!("{e}"));
    let drawn: Vec<_> = (0..10)
        .map(|_| deck.draw(&mut rng).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    assert_eq!(
        shown(&drawn),
        [
            "6♦",
            "10♥",
            "7♦",
            "6♠",
            "Q♣",
            "Q♠",
            "10♣",
            "A♠",
            "Black joker",
            "K♦"
        ]
    );

    let mut rng = GameRng::seed(7);
    let mut deck = Deck::standard(0).unwrap_or_else(|e| panic!("{e}"));
    let mut dealt = Vec::new();
    while let Ok(c) = deck.draw(&mut rng) {
        dealt.push(c);
        deck.discard(c);
    }
    assert_eq!(dealt.len(), 52);
    assert_eq!(shown(&dealt[48..]), ["Q♠", "A♠", "5♦", "7♠"]);
    // The discards come back the last discarded first (the cards after a reshuffle changed once for this).
    deck.reshuffle();
    let back: Vec<_> = dealt.iter().rev().copied().collect();
    assert_eq!(deck.pile(), &back[..]);
    deck.shuffle(&mut rng);
    assert_eq!(
        shown(&deck.pile()[..8]),
        ["6♥", "5♠", "Q♣", "8♠", "3♥", "4♥", "6♦", "9♣"]
    );
    assert_eq!(deck.draw(&mut rng).map(|c| c.to_string()), Ok("10♠".into()));
    assert_eq!(deck.remaining(), 51);
    assert_eq!(shown(&deck.pile()[..5]), ["6♥", "5♠", "Q♣", "8♠", "3♥"]);
    assert!(deck.discards().is_empty());
}

/// Drop-one and keep-one totals worked out by hand.
#[test]
fn drop_one_and_keep_one_by_hand() {
    // 3d6 drop lowest = 12 (two sixes kept): at least two sixes, 3 × 5 + 1 = 16 of 216 throws.
    assert_prob("3d6dl1 = 12", pool("3d6dl1").odds().p(&12), 16.0 / 216.0);
    // 4d6 drop highest = 3: at least three ones, 4 × 5 + 1 = 21 of 1296.
    assert_prob("4d6dh1 = 3", pool("4d6dh1").odds().p(&3), 21.0 / 1296.0);
    // 4d6 drop highest = 4: the kept three are 1, 1, 2 and the dropped die x is 2 or more. Arrangements of
    // (1, 1, 2, x): x = 2 gives 4!/(2! 2!) = 6, each x of 3 to 6 gives 4!/2! = 12: 6 + 48 = 54 of 1296.
    assert_prob("4d6dh1 = 4", pool("4d6dh1").odds().p(&4), 54.0 / 1296.0);
    // 2d20 keep highest = 20: 1 - (19/20)^2 = 39/400; keep lowest = 20: 1/400.
    assert_prob("2d20kh1 = 20", pool("2d20kh1").odds().p(&20), 39.0 / 400.0);
    assert_prob("2d20kl1 = 20", pool("2d20kl1").odds().p(&20), 1.0 / 400.0);
    // 20d6 drop lowest = 114 (all but one die a six): 20 × 5 + 1 = 101 of 6^20, the mirror of 20d6dh1 = 19.
    assert_prob(
        "20d6dl1 = 114",
        pool("20d6dl1").odds().p(&114),
        101.0 / 6f64.powi(20),
    );
    // Keep/drop on dice too large to count faces (sorted instead) agrees with the odds too.
    assert_roll_matches_odds(&pool("5d100kh2"));
    assert_roll_matches_odds(&pool("6d6dl1"));
    assert_roll_matches_odds(&pool("6d6kl1"));
}

/// Success pools: exact binomial odds worked out by hand, refusals, and the same count as the faces thrown.
#[test]
fn success_pool_counts_and_odds() {
    let p = SuccessPool::new(3, Die::D6, 5).unwrap_or_else(|e| panic!("{e}"));
    let d = p.odds();
    // 3d6 hitting on 5+: P(j hits) = C(3, j) 2^j 4^(3-j) / 216.
    for (j, ways) in [(0, 64.0), (1, 96.0), (2, 48.0), (3, 8.0)] {
        assert_prob("3d6 5+", d.p(&j), ways / 216.0);
    }
    // 30d8 hitting on 4+: none is (3/8)^30, all is (5/8)^30, one is 30 × 5 × 3^29 / 8^30.
    let p30 = SuccessPool::new(30, Die::D8, 4).unwrap_or_else(|e| panic!("{e}"));
    let d = p30.odds();
    assert_prob("30d8 4+ none", d.p(&0), (3.0f64 / 8.0).powi(30));
    assert_prob("30d8 4+ all", d.p(&30), (5.0f64 / 8.0).powi(30));
    assert_prob(
        "30d8 4+ one",
        d.p(&1),
        30.0 * 5.0 * 3f64.powi(29) / 8f64.powi(30),
    );
    assert!((d.mean() - 30.0 * 5.0 / 8.0).abs() < 1e-12);
    assert_roll_matches_odds(&p);
    assert_roll_matches_odds(&p30);
    // Every face a success: certain.
    let all = SuccessPool::new(4, Die::D6, 1).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(all.odds().outcomes(), &[(4, 1.0)]);
    // The count equals counting the faces of a throw from the same seed.
    let throw = pool("30d8");
    for seed in 0..100 {
        let counted = p30.roll(&mut GameRng::seed(seed));
        let thrown = throw.throw(&mut GameRng::seed(seed)).count_at_least(4);
        assert_eq!(counted, thrown, "seed {seed}");
    }
    // Scripted faces: 4, 3, 8 on 4+ is two hits.
    let three = SuccessPool::new(3, Die::D8, 4).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(three.roll(&mut ScriptedDice::faces([4, 3, 8])), 2);
    assert_eq!(three.to_string(), "3d8 counting 4+");
    assert_eq!(pool("3d8").successes(4), Ok(three));
    assert_eq!(
        SuccessPool::new(3, Die::D6, 7),
        Err(DiceError::BadTarget {
            die: Die::D6,
            target: 7
        })
    );
    assert!(SuccessPool::new(3, Die::D6, 0).is_err());
    assert_eq!(SuccessPool::new(0, Die::D6, 4), Err(DiceError::BadCount(0)));
    assert_eq!(
        DiceError::BadTarget {
            die: Die::D6,
            target: 7
        }
        .to_string(),
        "a d6 has no face 7 to count successes from (1 to 6)"
    );
}

/// Sums of distributions: dense where outcomes are evenly spaced, pairs otherwise; both exact.
#[test]
fn sums_of_distributions() {
    // sum_n of 20 single d6 is the 20d6 pool, outcome by outcome.
    let by_sum = Dist::die(Die::D6).sum_n(20);
    let by_pool = pool("20d6").odds();
    assert_eq!(by_sum.len(), by_pool.len());
    for ((a, p), (b, q)) in by_sum.outcomes().iter().zip(by_pool.outcomes()) {
        assert_eq!(a, b);
        assert!((p - q).abs() < 1e-15);
    }
    // Binomials add: B(3, 1/3) + B(2, 1/3) = B(5, 1/3); P(5) = 1/243, P(2) = C(5, 2) × 2^3 / 3^5 = 80/243.
    let b = Dist::binomial(3, 1.0 / 3.0)
        .and_then(|b3| Dist::binomial(2, 1.0 / 3.0).map(|b2| b3.add(&b2)))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_prob("B5 = 5", b.p(&5), 1.0 / 243.0);
    assert_prob("B5 = 2", b.p(&2), 80.0 / 243.0);
    // Uneven outcomes fall back to pairs: {0, 1, 3} + {0, 2}, each equally likely: totals 0, 1, 2, 3, 3, 5.
    let a = Dist::uniform([0i64, 1, 3]).unwrap_or_else(|e| panic!("{e}"));
    let c = Dist::uniform([0i64, 2]).unwrap_or_else(|e| panic!("{e}"));
    let s = a.add(&c);
    let want = [(0, 1.0), (1, 1.0), (2, 1.0), (3, 2.0), (5, 1.0)];
    assert_eq!(s.len(), want.len());
    for (t, w) in want {
        assert_prob("uneven sum", s.p(&t), w / 6.0);
    }
    // Evenly spaced by a step other than one: {0, 2, 4} + {10, 12}: totals 10..=16 by 2.
    let even = Dist::uniform([0u32, 2, 4]).unwrap_or_else(|e| panic!("{e}"));
    let ten = Dist::uniform([10u32, 12]).unwrap_or_else(|e| panic!("{e}"));
    let s = even.add(&ten);
    let totals: Vec<u32> = s.outcomes().iter().map(|o| o.0).collect();
    assert_eq!(totals, [10, 12, 14, 16]);
    assert_prob("10 + {0,2,4} = 14", s.p(&14), 2.0 / 6.0);
    // Steps that differ between the two: {0, 1} + {0, 3}: totals 0, 1, 3, 4.
    let s = Dist::uniform([0u32, 1])
        .and_then(|x| Dist::uniform([0u32, 3]).map(|y| x.add(&y)))
        .unwrap_or_else(|e| panic!("{e}"));
    let totals: Vec<u32> = s.outcomes().iter().map(|o| o.0).collect();
    assert_eq!(totals, [0, 1, 3, 4]);
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
    // A pool loads through the same checks as `Pool::new` and its keep/drop.
    let p = pool("4d6kh3");
    let saved = serde_json::to_string(&p).unwrap_or_default();
    assert_eq!(serde_json::from_str::<Pool>(&saved).ok(), Some(p));
    for bad in [
        r#"{"count":0,"die":6,"keep":"All"}"#,
        r#"{"count":200,"die":6,"keep":"All"}"#,
        r#"{"count":4,"die":6,"keep":{"Highest":5}}"#,
        r#"{"count":4,"die":6,"keep":{"Lowest":0}}"#,
    ] {
        assert!(serde_json::from_str::<Pool>(bad).is_err(), "{bad}");
    }
    // A success pool loads through the same checks as `SuccessPool::new`.
    let hits = SuccessPool::new(30, Die::D8, 4).unwrap_or_else(|e| panic!("{e}"));
    let saved = serde_json::to_string(&hits).unwrap_or_default();
    assert_eq!(serde_json::from_str::<SuccessPool>(&saved).ok(), Some(hits));
    for bad in [
        r#"{"count":30,"die":8,"target":9}"#,
        r#"{"count":30,"die":8,"target":0}"#,
        r#"{"count":0,"die":8,"target":4}"#,
        r#"{"count":129,"die":8,"target":4}"#,
    ] {
        assert!(serde_json::from_str::<SuccessPool>(bad).is_err(), "{bad}");
    }
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
