//! Rolls dice and prints their exact odds.
//!
//! ```text
//! cargo run --example dice_odds                 # a few classic pools
//! cargo run --example dice_odds -- 4d6kh3 2d6+1 # any dice notation
//! cargo run --example dice_odds -- --seed 7 3d6
//! ```

use acw::dice::DiceExpr;
use acw::{GameRng, Resolve};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut seed = 1863;
    let mut exprs = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--seed" {
            match args.next().map(|s| s.parse::<u64>()) {
                Some(Ok(s)) => seed = s,
                _ => {
                    eprintln!("--seed needs a whole number");
                    return ExitCode::FAILURE;
                }
            }
        } else {
            exprs.push(arg);
        }
    }
    if exprs.is_empty() {
        exprs = ["3d6", "4d6kh3", "2d6+1", "20d6dh1", "d30"]
            .map(String::from)
            .to_vec();
    }
    let mut rng = GameRng::seed(seed);
    for text in exprs {
        let expr = match DiceExpr::parse(&text) {
            Ok(e) => e,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        };
        let rolled = expr.roll(&mut rng);
        let odds = expr.odds();
        println!(
            "{expr}: rolled {rolled} (chance of exactly that {:.4}); mean {:.3}, median {}",
            odds.p(&rolled),
            odds.expect(|&t| t as f64),
            odds.quantile(0.5)
        );
        if odds.len() <= 30 {
            for (total, p) in odds.outcomes() {
                let bar = "#".repeat((p * 200.0).round() as usize);
                println!("  {total:>4}  {p:.5}  {bar}");
            }
        }
    }
    ExitCode::SUCCESS
}
