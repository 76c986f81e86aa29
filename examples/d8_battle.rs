//! Generates a D8 battle from a seed (the map and both armies), prints the map as a grid of its 30 squares and
//! the armies, then plays it between the two baseline commanders and narrates it; or plays many battles and
//! prints the summary and the victory-point spread.
//!
//! ```text
//! cargo run --release --example d8_battle --no-default-features --features d8,serde,parallel,table
//! cargo run --release --example d8_battle --no-default-features --features d8,serde,parallel,table -- --seed 7
//! cargo run --release --example d8_battle --no-default-features --features d8,serde,parallel,table -- --games 1000
//! cargo run --release --example d8_battle --no-default-features --features d8,serde,parallel,table -- --games 1000 --both-attack
//! ```

use acw::d8::bots::{Attacker, Holder};
use acw::d8::game::{D8, Scenario, State};
use acw::game::{Commander, Game, Owed, simulate_with};
use acw::{BySide, Side};
use std::collections::BTreeMap;
use std::process::ExitCode;
use std::time::Instant;

fn commanders(side: Side, seed: u64) -> Box<dyn Commander<D8>> {
    match side {
        Side::Union => Box::new(Attacker::new(seed)),
        Side::Confederate => Box::new(Holder::new(seed)),
    }
}

fn both_attack(_: Side, seed: u64) -> Box<dyn Commander<D8>> {
    Box::new(Attacker::new(seed))
}

fn print_armies(state: &State) {
    let Some(b) = state.battle() else { return };
    for side in Side::both() {
        println!("The {side} army:");
        for u in b.units().iter().filter(|u| u.side == side) {
            let brigade = u
                .brigade
                .map_or(String::new(), |n| format!(", brigade {n}"));
            println!(
                "  {} — {} {}, {} figures, {}{brigade}",
                u.name, u.class, u.troop, u.figures, u.weapon
            );
        }
        let officers: Vec<String> = b
            .officers()
            .iter()
            .filter(|o| o.side == side)
            .map(|o| o.to_string())
            .collect();
        println!("  Officers: {}", officers.join(", "));
    }
    println!();
}

fn one(seed: u64) -> ExitCode {
    let scenario = Scenario::default();
    let mut game = match Game::new(D8, &scenario, seed) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let mut union = commanders(Side::Union, seed);
    let mut rebels = commanders(Side::Confederate, seed);
    let mut shown = false;
    let mut printed = 0;
    loop {
        if !shown && let (Some(f), Some(_)) = (game.state().field(), game.state().battle()) {
            println!("The map played (square numbers 1–30 from the north-west corner):");
            println!("{}", f.grid());
            print_armies(game.state());
            shown = true;
        }
        for e in &game.log()[printed..] {
            println!("{e}");
        }
        printed = game.log().len();
        let side = match game.owed() {
            Owed::Over(outcome) => {
                println!("\n{outcome}");
                return ExitCode::SUCCESS;
            }
            Owed::Decision(d) => d.side,
            _ => {
                eprintln!("the game is stuck");
                return ExitCode::FAILURE;
            }
        };
        let order = match side {
            Side::Union => union.order(game.rules(), game.state(), side),
            Side::Confederate => rebels.order(game.rules(), game.state(), side),
        };
        if let Err(r) = game.submit(side, order) {
            eprintln!("refused: {}", r.reason);
            return ExitCode::FAILURE;
        }
    }
}

fn many(seed: u64, n: u64, attackers: bool) -> ExitCode {
    let start = Instant::now();
    let step = (n / 20).max(1);
    let measured = simulate_with(
        &D8,
        &Scenario::default(),
        seed,
        n,
        if attackers { both_attack } else { commanders },
        |played| {
            played
                .state
                .end()
                .map_or(BySide::new(0, 0), |(_, p)| p.map(|_, p| p.total()))
        },
        |done, total| {
            if done % step == 0 {
                eprint!("\r{done}/{total} games");
            }
        },
    );
    eprintln!();
    let secs = start.elapsed().as_secs_f64();
    match measured {
        Ok(m) => {
            println!("{}", m.summary);
            println!("  {:.1} games per second ({secs:.2} s)", n as f64 / secs);
            for side in Side::both() {
                let mut hist: BTreeMap<u32, u64> = BTreeMap::new();
                for v in &m.measures {
                    *hist.entry(v[side] / 25 * 25).or_insert(0) += 1;
                }
                let mean = m.measures.iter().map(|v| f64::from(v[side])).sum::<f64>() / n as f64;
                println!("  {side} victory points: mean {mean:.1}; by 25s:");
                for (k, c) in hist {
                    println!("    {k:>4}–{:<4} {c}", k + 24);
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    let mut seed = 1862u64;
    let mut games: Option<u64> = None;
    let mut attackers = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--both-attack" {
            attackers = true;
            continue;
        }
        let value = args.next().and_then(|v| v.parse::<u64>().ok());
        match (arg.as_str(), value) {
            ("--seed", Some(v)) => seed = v,
            ("--games", Some(v)) if v > 0 => games = Some(v),
            _ => {
                eprintln!("usage: d8_battle [--seed N] [--games N] [--both-attack]");
                return ExitCode::FAILURE;
            }
        }
    }
    let defender = if attackers {
        "the Attacker"
    } else {
        "the Holder"
    };
    println!(
        "The D8 regimental rules: a generated map and armies. Union: the Attacker. Confederates: {defender}. Seed {seed}.\n"
    );
    match games {
        Some(n) => many(seed, n, attackers),
        None if attackers => {
            eprintln!("--both-attack is for --games");
            ExitCode::FAILURE
        }
        None => one(seed),
    }
}
