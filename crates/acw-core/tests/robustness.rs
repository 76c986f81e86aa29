//! Input a caller controls never panics, hangs or loads into a value its constructor would refuse: loaded dice
//! notation and distributions go through their checks, distributions of any size come back non-empty, finite
//! and adding up to 1, and exact odds of notation refuse work beyond a limit instead of running for minutes.

use acw_core::Resolve;
use acw_core::dice::{DiceError, DiceExpr, Pool};
use acw_core::odds::{Dist, OddsError, WorkLimit};

fn expr(text: &str) -> DiceExpr {
    DiceExpr::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Non-empty, every probability finite and positive, outcomes increasing, adding up to 1.
fn assert_sound(d: &Dist<u32>, what: &str) {
    assert!(!d.is_empty(), "{what}: empty");
    assert!(
        d.outcomes()
            .iter()
            .all(|(_, p)| p.is_finite() && *p > 0.0 && *p <= 1.0),
        "{what}: a probability out of range"
    );
    assert!(
        d.outcomes().windows(2).all(|w| w[0].0 < w[1].0),
        "{what}: order"
    );
    let sum: f64 = d.outcomes().iter().map(|(_, p)| p).sum();
    assert!((sum - 1.0).abs() < 1e-9, "{what}: adds up to {sum}");
}

/// Relative closeness, for probabilities far below 1.
fn assert_close(got: f64, want: f64, what: &str) {
    assert!(
        ((got - want) / want).abs() < 1e-9,
        "{what}: {got} is not {want}"
    );
}

/// Huge weights used to add up to infinity, every probability became 0 and was dropped, and `min` then
/// indexed an empty list.
#[test]
fn huge_weights_normalise() {
    let d = Dist::weighted([(1u32, 1e308), (2, 1e308), (3, f64::MAX / 1.8)])
        .unwrap_or_else(|e| panic!("{e}"));
    assert_sound(&d, "huge weights");
    assert_eq!((*d.min(), *d.max()), (1, 3));
    assert!((d.p(&1) - d.p(&2)).abs() < 1e-15 && d.p(&1) > 0.3);
    // Weights too small to add up in the ordinary way work as well.
    let tiny = Dist::weighted([(1u32, 5e-324), (2, 1e-323)]).unwrap_or_else(|e| panic!("{e}"));
    assert!((tiny.p(&2) - 2.0 / 3.0).abs() < 1e-15);
}

/// `binomial(1100, 0.5)` summed to infinity (its binomial coefficients overflow an f64), and
/// `binomial(20000, 0.5)` came back with no outcomes after 1.5 GB: large binomials are worked out from the most
/// likely count by ratios.
#[test]
fn large_binomials_are_finite_and_exact() {
    let d = Dist::binomial(1100, 0.5).unwrap_or_else(|e| panic!("{e}"));
    assert_sound(&d, "binomial(1100, 1/2)");
    // C(1100, 550) / 2^1100 and C(1100, 500) / 2^1100, worked out in exact integers.
    assert_close(d.p(&550), 0.024051657768231812, "P(550)");
    assert_close(d.p(&500), 0.00025477219368326973, "P(500)");
    assert!((d.mean() - 550.0).abs() < 1e-9);
    assert!((d.variance() - 275.0).abs() < 1e-7);

    let d = Dist::binomial(20_000, 0.3).unwrap_or_else(|e| panic!("{e}"));
    assert_sound(&d, "binomial(20000, 0.3)");
    // C(20000, 6000) 3^6000 7^14000 / 10^20000, in exact integers.
    assert_close(d.p(&6000), 0.006155716541575553, "P(6000)");
    assert!((d.mean() - 6000.0).abs() < 1e-7);

    // The most trials there can be: the outcomes kept are those of the spread, not all four billion.
    let d = Dist::binomial(u32::MAX, 0.001).unwrap_or_else(|e| panic!("{e}"));
    assert_sound(&d, "binomial(u32::MAX, 0.001)");
    assert!(d.len() < 400_000, "{} outcomes", d.len());
    assert!((d.mean() - f64::from(u32::MAX) * 0.001).abs() < 1e-3);
    // Certain outcomes at either end, and small binomials as before.
    assert_eq!(Dist::binomial(5000, 0.0).map(|d| *d.max()), Ok(0));
    assert_eq!(Dist::binomial(5000, 1.0).map(|d| *d.min()), Ok(5000));
    assert!(Dist::binomial(5000, f64::NAN).is_err());
    assert!(Dist::binomial(5000, 1.5).is_err());
}

/// Hypergeometric tables of binomial coefficients overflowed (and took memory in the square of the population):
/// the terms are now walked out from the most likely count.
#[test]
fn large_hypergeometrics_are_finite_and_exact() {
    let d = Dist::hypergeometric(1100, 550, 550);
    assert_sound(&d, "hypergeometric(1100, 550, 550)");
    // C(550, 275)² / C(1100, 550), in exact integers.
    assert_close(d.p(&275), 0.04808145538270831, "P(275)");
    let d = Dist::hypergeometric(100_000, 5000, 1000);
    assert_sound(&d, "hypergeometric(100000, 5000, 1000)");
    // C(5000, 100) C(95000, 900) / C(100000, 1000): far in the tail.
    assert_close(d.p(&100), 3.482317936286112e-11, "P(100)");
    let d = Dist::hypergeometric(u32::MAX, u32::MAX / 2, 1_000_000);
    assert_sound(&d, "hypergeometric(u32::MAX, ...)");
    // Degenerate ones: no draws, every item marked, more draws than items.
    assert_eq!(Dist::hypergeometric(52, 4, 0).outcomes(), &[(0, 1.0)]);
    assert_eq!(Dist::hypergeometric(10, 10, 3).outcomes(), &[(3, 1.0)]);
    assert_eq!(Dist::hypergeometric(10, 4, 99).outcomes(), &[(4, 1.0)]);
    assert_eq!(Dist::hypergeometric(0, 0, 0).outcomes(), &[(0, 1.0)]);
}

/// `64d1000kh32` took minutes and `128d1000kh64` longer: the fallible path estimates the work first and refuses
/// beyond the limit, with a sentence; small notation is worked out exactly as `Resolve::odds` does.
#[test]
fn exact_odds_of_notation_have_a_work_bound() {
    for text in ["64d1000kh32", "128d1000kh64", "128d1000", "128d1000kl127+5"] {
        let e = expr(text);
        let got = e.exact_odds();
        let Err(OddsError::TooMuchWork { what, steps, limit }) = &got else {
            panic!("{text} was not refused: {:?}", got.map(|d| d.len()));
        };
        assert_eq!(what, &e.to_string());
        assert!(
            *steps > *limit && *limit == 1e9,
            "{text}: {steps} over {limit}"
        );
        assert!(e.pool.exact_odds().is_err());
    }
    let msg = expr("64d1000kh32")
        .exact_odds()
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        msg.starts_with("working out the exact odds of 64d1000kh32 would take about 1.5e11 steps"),
        "{msg}"
    );
    // The largest pools just under the limit (built in release in about 0.3 s; not built here).
    for text in ["40d1000", "128d100kh64", "12d1000kh11"] {
        assert!(
            expr(text).pool.odds_work() <= WorkLimit::DEFAULT.get(),
            "{text}"
        );
    }
    // Within the limit: the same distribution as `Resolve::odds`.
    for text in ["4d6kh3", "20d6dh1+3", "24d100kh12", "12d1000kh3"] {
        let e = expr(text);
        assert!(e.pool.odds_work() <= WorkLimit::DEFAULT.get(), "{text}");
        assert_eq!(e.exact_odds().ok(), Some(e.odds()), "{text}");
    }
    // A caller may lower (or raise) the limit.
    assert!(expr("20d6").odds_within(WorkLimit::steps(100)).is_err());
    assert!(expr("20d6").odds_within(WorkLimit::UNLIMITED).is_ok());
    assert!(Dist::pool_within(expr("3d6").pool, WorkLimit::steps(1000)).is_ok());
    assert_eq!(WorkLimit::default(), WorkLimit::DEFAULT);
}

/// Dice notation loaded from JSON skipped its checks (a modifier far past what parsing accepts); pools too.
#[cfg(feature = "serde")]
#[test]
fn dice_notation_loads_through_its_checks() {
    let e = expr("4d6kh3-2");
    let saved = serde_json::to_string(&e).unwrap_or_default();
    assert_eq!(serde_json::from_str::<DiceExpr>(&saved).ok(), Some(e));
    for bad in [
        r#"{"pool":{"count":255,"die":1000,"keep":{"Highest":200}},"modifier":0}"#,
        r#"{"pool":{"count":128,"die":1000,"keep":{"Highest":200}},"modifier":0}"#,
        r#"{"pool":{"count":3,"die":6,"keep":"All"},"modifier":2000000000}"#,
        r#"{"pool":{"count":3,"die":6,"keep":"All"},"modifier":-1000001}"#,
        r#"{"pool":{"count":3,"die":1,"keep":"All"},"modifier":0}"#,
    ] {
        assert!(serde_json::from_str::<DiceExpr>(bad).is_err(), "{bad}");
    }
    let err = serde_json::from_str::<DiceExpr>(
        r#"{"pool":{"count":3,"die":6,"keep":"All"},"modifier":2000000000}"#,
    )
    .err()
    .map(|e| e.to_string())
    .unwrap_or_default();
    assert!(
        err.contains("a modifier lies between -1000000 and +1000000"),
        "{err}"
    );
    assert_eq!(
        DiceExpr::new(expr("3d6").pool, 1_000_001),
        Err(DiceError::BadModifier(1_000_001))
    );
    assert!(
        DiceExpr::new(
            Pool::new(3, acw_core::Die::D6).unwrap_or_else(|e| panic!("{e}")),
            -1_000_000
        )
        .is_ok()
    );
}

/// A distribution loaded from JSON skipped every check: empty, probabilities not adding up to 1, negative,
/// outcomes out of order or repeated all loaded, and `min`, `quantile` or a sampler then panicked or lied.
#[cfg(feature = "serde")]
#[test]
fn distributions_load_through_their_checks() {
    let d = expr("3d6").pool.odds();
    let saved = serde_json::to_string(&d).unwrap_or_default();
    assert_eq!(serde_json::from_str::<Dist<u32>>(&saved).ok(), Some(d));
    for (bad, why) in [
        (r#"{"outcomes":[]}"#, "at least one outcome"),
        (r#"{"outcomes":[[1,0.5]]}"#, "add up to 1, not 0.5"),
        (r#"{"outcomes":[[1,0.5],[2,0.6]]}"#, "add up to 1, not 1.1"),
        (r#"{"outcomes":[[1,1.5],[2,-0.5]]}"#, "in 0..=1, not 1.5"),
        (r#"{"outcomes":[[1,0.0],[2,1.0]]}"#, "in 0..=1, not 0"),
        (r#"{"outcomes":[[2,0.5],[1,0.5]]}"#, "increasing order"),
        (r#"{"outcomes":[[1,0.5],[1,0.5]]}"#, "increasing order"),
        (r#"{"outcomes":[[1,1e999]]}"#, ""),
    ] {
        let err = serde_json::from_str::<Dist<u32>>(bad)
            .err()
            .map(|e| e.to_string());
        assert!(
            err.as_deref().is_some_and(|e| e.contains(why)),
            "{bad}: {err:?}"
        );
    }
}
