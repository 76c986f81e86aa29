//! Plays North's default scenario between the two baseline commanders and narrates it, or simulates many
//! battles and prints the summary.
//!
//! ```text
//! cargo run --release --example north_battle                  # one battle, narrated (seed 1863)
//! cargo run --release --example north_battle -- --seed 7
//! cargo run --release --example north_battle -- --games 10000 # win rates with 95% intervals
//! ```

use acw::BySide;
use acw::game::{Commander, play, simulate};
use acw::north::bots::{Attacker, Holder};
use acw::north::game::{North, State, narrate};
use acw::north::setup::Scenario;
use acw::{Ruleset, Side};
use std::process::ExitCode;
use std::time::Instant;

fn commanders(side: Side, seed: u64) -> Box<dyn Commander<North>> {
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
                eprintln!("usage: north_battle [--seed N] [--games N]");
                return ExitCode::FAILURE;
            }
        }
    }
    let scenario = Scenario::default();
    println!(
        "North's rules, default scenario: 14 units a side, 72\" x 48\", fence across the centre."
    );
    println!("Union: the Attacker bot. Confederates: the Holder bot. Seed {seed}.\n");
    if let Some(n) = games {
        let start = Instant::now();
        let step = (n / 20).max(1);
        let summary = simulate(&North, &scenario, seed, n, commanders, |done, total| {
            if done % step == 0 {
                eprint!("\r{done}/{total} games");
            }
        });
        eprintln!();
        match summary {
            Ok(s) => {
                println!("{s}");
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
            &North,
            &scenario,
            seed,
            BySide::new(&mut blue as &mut dyn Commander<North>, &mut grey),
        );
        let game = match played {
            Ok(g) => g,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        };
        // Narrate against a state replayed alongside, so names and positions are those of the moment.
        let state: &State = &game.state;
        for e in &game.log {
            let line = narrate(state, e);
            if !line.is_empty() {
                println!("{line}");
            }
        }
        let losses = North.losses(&game.state);
        println!(
            "\n{}\nStands lost: Union {}, Confederate {}; {} orders, {} events.",
            game.outcome,
            losses.union,
            losses.confederate,
            game.orders,
            game.log.len()
        );
        ExitCode::SUCCESS
    }
}
