//! Plays the TSATF default scenario ("The Fence at Miller's Farm") between the two baseline commanders and
//! narrates it card by card, or simulates many battles and prints the summary.
//!
//! ```text
//! cargo run --release --example tsatf_battle                  # one battle, narrated (seed 1863)
//! cargo run --release --example tsatf_battle -- --seed 7
//! cargo run --release --example tsatf_battle -- --games 10000 # win rates with 95% intervals
//! ```

use acw::BySide;
use acw::game::{Commander, play, simulate};
use acw::tsatf::bots::{Attacker, Holder};
use acw::tsatf::game::{Scenario, Tsatf};
use acw::{Ruleset, Side};
use std::process::ExitCode;
use std::time::Instant;

fn commanders(side: Side, seed: u64) -> Box<dyn Commander<Tsatf>> {
    match side {
        Side::Union => Box::new(Attacker::new(seed)),
        Side::Confederate => Box::new(Holder::new(seed ^ 1)),
    }
}

fn main() -> ExitCode {
    let mut seed = 1863u64;
    let mut games: Option<u64> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next().and_then(|v| v.parse::<u64>().ok());
        match (arg.as_str(), value) {
            ("--seed", Some(v)) => seed = v,
            ("--games", Some(v)) if v > 0 => games = Some(v),
            _ => {
                eprintln!("usage: tsatf_battle [--seed N] [--games N]");
                return ExitCode::FAILURE;
            }
        }
    }
    let scenario = Scenario::default();
    println!(
        "Strike for Your God and Country, \"{}\": three companies a side on a 48\" x 36\" table.",
        scenario.name()
    );
    println!("Union: the Attacker bot. Confederates: the Holder bot. Seed {seed}.\n");
    if let Some(n) = games {
        let start = Instant::now();
        let step = (n / 20).max(1);
        let summary = simulate(&Tsatf, &scenario, seed, n, commanders, |done, total| {
            if done % step == 0 {
                eprint!("\r{done}/{total} games");
            }
        });
        eprintln!();
        match summary {
            Ok(s) => {
                println!("{s}");
                for (reason, n) in &s.reasons {
                    println!("  {n} games: {reason}");
                }
                let secs = start.elapsed().as_secs_f64();
                println!("  {:.0} games per second ({:.2} s)", n as f64 / secs, secs);
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("{e}");
                ExitCode::FAILURE
            }
        }
    } else {
        let (mut blue, mut grey) = (Attacker::new(seed), Holder::new(seed ^ 1));
        let played = play(
            &Tsatf,
            &scenario,
            seed,
            BySide::new(&mut blue as &mut dyn Commander<Tsatf>, &mut grey),
        );
        let game = match played {
            Ok(g) => g,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        };
        for e in &game.log {
            println!("{e}");
        }
        let losses = Tsatf.losses(&game.state);
        println!(
            "\n{}\nFigures lost: Union {}, Confederate {}; {} orders, {} events.",
            game.outcome,
            losses.union,
            losses.confederate,
            game.orders,
            game.log.len()
        );
        ExitCode::SUCCESS
    }
}
