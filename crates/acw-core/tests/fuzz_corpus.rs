//! Runs the dice-notation fuzz target's committed seed corpus as an ordinary test, so CI exercises it without
//! cargo-fuzz or a nightly toolchain.

use acw_core::dice::DiceExpr;
use acw_core::odds::OddsError;
use std::path::Path;

#[test]
fn notation_corpus_parses_or_is_refused() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/notation");
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("corpus at {}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    entries.sort();
    assert!(
        entries.len() >= 20,
        "the seed corpus should hold at least 20 inputs"
    );
    let mut parsed = 0;
    for path in entries {
        let bytes = std::fs::read(&path).unwrap_or_default();
        let Ok(text) = std::str::from_utf8(&bytes) else {
            continue;
        };
        if let Ok(expr) = DiceExpr::parse(text) {
            parsed += 1;
            assert_eq!(
                DiceExpr::parse(&expr.to_string()),
                Ok(expr),
                "{}",
                path.display()
            );
            // Exact odds within the work limit add up to 1; beyond it they are refused, never left to run.
            match expr.exact_odds() {
                Ok(d) => {
                    let sum: f64 = d.outcomes().iter().map(|(_, p)| p).sum();
                    assert!((sum - 1.0).abs() < 1e-9, "{}: {sum}", path.display());
                }
                Err(e) => assert!(
                    matches!(e, OddsError::TooMuchWork { .. }),
                    "{}: {e}",
                    path.display()
                ),
            }
        }
    }
    // The corpus mixes good and bad notation: 3d6, 4d6kh3, 2d6+1, d30, 20d6dh1, 5d10dl2-3, 1d1000, 128d6,
    // 3D6KL2 and 4d6kh3+1000000 parse.
    assert_eq!(parsed, 10);
}
