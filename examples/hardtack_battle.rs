//! Plays Hardtack's default scenario between the two baseline bots.
//!
//! `cargo run --release --example hardtack_battle -- --seed 7` narrates one game, each roll with the chance of
//! its result, and ends with each side's luck;
//! `--games 1000` plays many and prints the summary instead.
use acw_core::Side;
use acw_core::game::{Commander, Summary, play, simulate};
use acw_hardtack::bots::{Holder, Thruster};
use acw_hardtack::game::{Hardtack, Scenario};

fn commanders(side: Side, seed: u64) -> Box<dyn Commander<Hardtack>> {
    match side {
        Side::Union => Box::new(Thruster::new(seed ^ 0x5eed)),
        Side::Confederate => Box::new(Holder::new(seed ^ 0xc0de)),
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .map(|v| v.parse::<u64>())
    };
    let seed = value("--seed").transpose()?.unwrap_or(1);
    let games = value("--games").transpose()?.unwrap_or(1);
    let scenario = Scenario::meeting_at_the_fence()?;
    println!(
        "{} — the Union attacks, the Confederates hold the wood.",
        scenario.name
    );
    if games > 1 {
        let started = std::time::Instant::now();
        let summary: Summary = simulate(&Hardtack, &scenario, seed, games, commanders, |_, _| {})?;
        let secs = started.elapsed().as_secs_f64();
        println!("{summary}");
        println!(
            "{games} games in {secs:.2} s: {:.0} games per second",
            games as f64 / secs
        );
        return Ok(());
    }
    let mut union = commanders(Side::Union, seed);
    let mut confederate = commanders(Side::Confederate, seed);
    let played = play(
        &Hardtack,
        &scenario,
        seed,
        acw_core::BySide::new(union.as_mut(), confederate.as_mut()),
    )?;
    for event in &played.log {
        println!("{event}");
    }
    println!("{} ({} orders)", played.outcome, played.orders);
    let luck = acw_core::luck::luck_of(&played.log);
    println!("Union: {}", luck.union);
    println!("Confederates: {}", luck.confederate);
    Ok(())
}
