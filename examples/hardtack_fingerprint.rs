//! Plays a run of seeded default Hardtack games (seeds 0 to N−1, the `Thruster` against the `Holder`, as the
//! `acw` command pairs them) and prints one fingerprint of them all: per game the outcome, the losses, the order
//! count, the whole event log (each event's every field, the chances included) and the final state, folded into a
//! 64-bit FNV-1a hash. Speed work on the engine must leave this fingerprint unchanged.
//!
//! ```text
//! cargo run --release --example hardtack_fingerprint --no-default-features --features hardtack -- --games 1000
//! ```

use acw::BySide;
use acw::Ruleset;
use acw::game::{Commander, play};
use acw::hardtack::bots::{Holder, Thruster};
use acw::hardtack::game::{Hardtack, Scenario};
use std::process::ExitCode;

/// FNV-1a over bytes: stable across runs, builds and platforms.
struct Fnv(u64);

impl std::fmt::Write for Fnv {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        for b in s.bytes() {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
        Ok(())
    }
}

fn main() -> ExitCode {
    let mut games = 1000u64;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match (
            arg.as_str(),
            args.next().and_then(|v| v.parse::<u64>().ok()),
        ) {
            ("--games", Some(v)) if v > 0 => games = v,
            _ => {
                eprintln!("usage: hardtack_fingerprint [--games N]");
                return ExitCode::FAILURE;
            }
        }
    }
    let scenario = match Scenario::meeting_at_the_fence() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let mut all = Fnv(0xcbf2_9ce4_8422_2325);
    let (mut orders, mut events) = (0u64, 0u64);
    for seed in 0..games {
        let mut union = Thruster::new(seed ^ 0x5eed);
        let mut confederate = Holder::new(seed ^ 0xc0de);
        let game = match play(
            &Hardtack,
            &scenario,
            seed,
            BySide::new(&mut union as &mut dyn Commander<Hardtack>, &mut confederate),
        ) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("seed {seed}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let losses = Hardtack.losses(&game.state);
        use std::fmt::Write;
        let _ = write!(
            all,
            "{seed}|{:?}|{}|{}|{}|",
            game.outcome, losses.union, losses.confederate, game.orders
        );
        for e in &game.log {
            let _ = write!(all, "{e:?};");
        }
        let _ = write!(all, "{:?}", game.state);
        orders += game.orders as u64;
        events += game.log.len() as u64;
    }
    println!(
        "{games} games, {orders} orders, {events} events, fingerprint {:016x}",
        all.0
    );
    ExitCode::SUCCESS
}
