//! Plays the grid rules' meeting engagement between the two baseline commanders and narrates it, drawing the
//! board at the start and the end, or simulates many battles and prints the summary.
//!
//! ```text
//! cargo run --release --example grid_battle                          # one battle on squares, narrated
//! cargo run --release --example grid_battle -- --hexes --seed 7      # on hexes
//! cargo run --release --example grid_battle -- --games 10000         # win rates with 95% intervals
//! ```

use acw::BySide;
use acw::game::{Commander, play, simulate};
use acw::grid::board::GridKind;
use acw::grid::bots::{Attacker, Holder};
use acw::grid::game::{Grid, State, board_text};
use acw::grid::setup::Scenario;
use acw::{Ruleset, Side};
use std::process::ExitCode;
use std::time::Instant;

fn commanders(side: Side, seed: u64) -> Box<dyn Commander<Grid>> {
    match side {
        Side::Union => Box::new(Attacker::new(seed)),
        Side::Confederate => Box::new(Holder::new(seed ^ 1)),
    }
}

fn main() -> ExitCode {
    let mut seed = 1863u64;
    let mut games: Option<u64> = None;
    let mut kind = GridKind::Square;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--hexes" {
            kind = GridKind::Hex;
            continue;
        }
        let value = args.next().and_then(|v| v.parse::<u64>().ok());
        match (arg.as_str(), value) {
            ("--seed", Some(v)) => seed = v,
            ("--games", Some(v)) if v > 0 => games = Some(v),
            _ => {
                eprintln!("usage: grid_battle [--seed N] [--games N] [--hexes]");
                return ExitCode::FAILURE;
            }
        }
    }
    let scenario = Scenario::meeting_engagement(seed, kind);
    let board = if kind == GridKind::Hex {
        "hexes"
    } else {
        "squares"
    };
    println!(
        "Grid rules, meeting engagement on {board}, 10 areas by 12: a corps a side (4 brigades, 2 batteries, a cavalry brigade)."
    );
    println!("Union: the Attacker bot. Confederates: the Holder bot. Seed {seed}.\n");
    if let Some(n) = games {
        let start = Instant::now();
        let step = (n / 20).max(1);
        let summary = simulate(&Grid, &scenario, seed, n, commanders, |done, total| {
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
        match Grid.setup(&scenario, seed) {
            Ok(start) => println!("{}", board_text(&start)),
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        }
        let (mut blue, mut grey) = (Attacker::new(seed), Holder::new(seed ^ 1));
        let played = play(
            &Grid,
            &scenario,
            seed,
            BySide::new(&mut blue as &mut dyn Commander<Grid>, &mut grey),
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
        let state: &State = &game.state;
        println!("\n{}", board_text(state));
        let losses = Grid.losses(state);
        println!(
            "{}\nStands lost: Union {}, Confederate {}; {} orders, {} events.",
            game.outcome,
            losses.union,
            losses.confederate,
            game.orders,
            game.log.len()
        );
        ExitCode::SUCCESS
    }
}
