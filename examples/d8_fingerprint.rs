//! Plays a run of seeded generated D8 battles (seeds 1 to N, the Attacker against the Holder) and prints one
//! fingerprint of them all: per game the outcome, the losses, the order count, the whole event log and the final
//! state, folded into a 64-bit FNV-1a hash. Speed work on the engine must leave this fingerprint unchanged.
//!
//! ```text
//! cargo run --release --example d8_fingerprint --no-default-features --features d8 -- --games 300
//! ```

use acw::BySide;
use acw::Ruleset;
use acw::d8::bots::{Attacker, Holder};
use acw::d8::game::{D8, Scenario};
use acw::game::{Commander, play};
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
    let mut games = 300u64;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match (
            arg.as_str(),
            args.next().and_then(|v| v.parse::<u64>().ok()),
        ) {
            ("--games", Some(v)) if v > 0 => games = v,
            _ => {
                eprintln!("usage: d8_fingerprint [--games N]");
                return ExitCode::FAILURE;
            }
        }
    }
    let scenario = Scenario::default();
    let mut all = Fnv(0xcbf2_9ce4_8422_2325);
    let (mut orders, mut events) = (0u64, 0u64);
    for seed in 1..=games {
        let (mut blue, mut grey) = (Attacker::new(seed), Holder::new(seed));
        let game = match play(
            &D8,
            &scenario,
            seed,
            BySide::new(&mut blue as &mut dyn Commander<D8>, &mut grey),
        ) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("seed {seed}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let losses = D8.losses(&game.state);
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
