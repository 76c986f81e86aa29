//! North played at a real table: the bots make the decisions, and every die is thrown by you. The game says which
//! die it wants and what for; type the face (or press Enter to let the computer throw it). A face the die cannot
//! show is refused and asked for again; nothing is resolved until an order has every face it needs.
//!
//! ```sh
//! cargo run --example north_at_the_table            # type each face
//! cargo run --example north_at_the_table -- --auto  # the computer throws every die (a quick look)
//! ```

use acw::BySide;
use acw::GameRng;
use acw::dice::Dice;
use acw::game::{Commander, Dicing, Game, Owed, Submitted};
use acw::north::bots::{Attacker, Holder};
use acw::north::game::{North, narrate};
use acw::north::setup::Scenario;
use std::io::{BufRead, Write};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let auto = std::env::args().any(|a| a == "--auto");
    let seed = 1863;
    let mut game = Game::new(North, &Scenario::default(), seed)?.with_dicing(Dicing::AtTheTable);
    let (mut blue, mut grey) = (Attacker::new(seed), Holder::new(seed));
    let mut commanders = BySide::new(&mut blue as &mut dyn Commander<North>, &mut grey);
    let mut computer = GameRng::seed(seed);
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut shown = 0;
    loop {
        for e in &game.log()[shown..] {
            let line = narrate(game.state(), e);
            if !line.is_empty() {
                println!("{line}");
            }
        }
        shown = game.log().len();
        match game.owed() {
            Owed::Over(outcome) => {
                println!("\n{outcome}");
                return Ok(());
            }
            Owed::Decision(d) => {
                if d.side != game.state().phasing() {
                    println!("[{}] {}", d.side, d.question);
                }
                let order = commanders[d.side].order(game.rules(), game.state(), d.side);
                if let Err(refused) = game.submit(d.side, order) {
                    return Err(format!("the bot's order was refused: {refused}").into());
                }
            }
            Owed::Throw {
                side,
                throw: acw::game::Throw::Face { die, purpose, .. },
            } => {
                let face = if auto {
                    computer.face(die)
                } else {
                    print!("{side}: throw a {die} for the {purpose}: ");
                    std::io::stdout().flush()?;
                    match lines.next() {
                        Some(line) => match line?.trim() {
                            "" => computer.face(die),
                            typed => match typed.parse::<u16>() {
                                Ok(f) => f,
                                Err(_) => {
                                    println!("  a face is a number from 1 to {}", die.sides());
                                    continue;
                                }
                            },
                        },
                        None => return Ok(()),
                    }
                };
                match game.throw(face) {
                    Ok(Submitted::Waiting(_) | Submitted::Applied(_)) => {}
                    Err(e) => println!("  {e}"),
                }
            }
            Owed::Throw { throw, .. } => return Err(format!("unexpected: {throw}").into()),
            Owed::Stuck => return Err("the game is stuck".into()),
        }
    }
}
