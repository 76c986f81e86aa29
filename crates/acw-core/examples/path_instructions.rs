//! Runs one of acw-core's roll paths (or the raw generator words it consumes) a given number of times, for
//! counting instructions under `valgrind --tool=callgrind`, which do not depend on the machine's load.
//!
//! ```text
//! cargo build --release -p acw-core --example path_instructions
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/path_instructions 20d6 1000000
//! ```
//!
//! The instructions of one call of a path are (I(path, N) − I(path, 0)) / N; its ratio to the raw words is that
//! figure over the same figure of `raw<W>`, W the words the path consumes (one a die or card). Each call is
//! made as the criterion benches make it (`benches/core.rs`): the pool passed through `black_box`, the result
//! kept by `black_box`. Paths: raw1, raw3, raw20, raw30, raw52, d6, 3d6, 20d6, 20d6dh, 30d8hits, card, deal52 (52 draws one by one), deal52hand
//! (one `Deck::deal` of 52 cards into a hand, then `Deck::discard_all`), deal52view (one `Deck::deal_view` of 52
//! cards, then `Deck::discard_dealt`).

use acw_core::cards::{Card, CardError, Colour, Deck};
use acw_core::dice::{DiceError, Die, Pool, SuccessPool};
use acw_core::{GameRng, Resolve};
use rand::Rng;
use std::hint::black_box;
use std::process::ExitCode;

#[inline(never)]
fn raw(rng: &mut GameRng, words: usize, times: u64) {
    for _ in 0..times {
        let mut x = 0u64;
        for _ in 0..black_box(words) {
            x = x.wrapping_add(rng.next_u64());
        }
        black_box(x);
    }
}

#[inline(never)]
fn rolls<R: Resolve>(rng: &mut GameRng, what: R, times: u64) {
    for _ in 0..times {
        black_box(black_box(&what).roll(rng));
    }
}

/// `times` deals of a whole 52-card deck into a hand, each hand discarded and the discards returned.
#[inline(never)]
fn deal_hands(rng: &mut GameRng, times: u64) -> Result<(), CardError> {
    let mut deck = Deck::standard(0)?;
    let mut hand = [Card::Joker(Colour::Red); 52];
    for _ in 0..times {
        deck.deal(rng, &mut hand)?;
        deck.discard_all(black_box(&hand));
        deck.reshuffle();
    }
    Ok(())
}

/// `times` deals of a whole 52-card deck shown in place, each discarded whole and the discards returned.
#[inline(never)]
fn deal_views(rng: &mut GameRng, times: u64) -> Result<(), CardError> {
    let mut deck = Deck::standard(0)?;
    for _ in 0..times {
        black_box(deck.deal_view(rng, 52)?);
        deck.discard_dealt(52)?;
        deck.reshuffle();
    }
    Ok(())
}

fn run(path: &str, times: u64) -> Result<(), String> {
    let mut rng = GameRng::seed(1);
    let e = |e: DiceError| e.to_string();
    match path {
        "raw1" => raw(&mut rng, 1, times),
        "raw3" => raw(&mut rng, 3, times),
        "raw20" => raw(&mut rng, 20, times),
        "raw30" => raw(&mut rng, 30, times),
        "raw52" => raw(&mut rng, 52, times),
        "d6" => {
            for _ in 0..times {
                black_box(black_box(Die::D6).roll(&mut rng));
            }
        }
        "3d6" => rolls(&mut rng, Pool::new(3, Die::D6).map_err(e)?, times),
        "20d6" => rolls(&mut rng, Pool::new(20, Die::D6).map_err(e)?, times),
        "20d6dh" => rolls(
            &mut rng,
            Pool::new(20, Die::D6)
                .and_then(|p| p.drop_highest(1))
                .map_err(e)?,
            times,
        ),
        "30d8hits" => rolls(
            &mut rng,
            SuccessPool::new(30, Die::D8, 4).map_err(e)?,
            times,
        ),
        "card" => {
            let mut deck = Deck::standard(2).map_err(|e| e.to_string())?;
            for _ in 0..times {
                if deck.remaining() == 0 {
                    deck.reshuffle();
                }
                if let Ok(card) = deck.draw(&mut rng) {
                    deck.discard(black_box(card));
                }
            }
        }
        "deal52" => {
            let mut deck = Deck::standard(0).map_err(|e| e.to_string())?;
            for _ in 0..times {
                while let Ok(card) = deck.draw(&mut rng) {
                    deck.discard(black_box(card));
                }
                deck.reshuffle();
            }
        }
        "deal52hand" => deal_hands(&mut rng, times).map_err(|e| e.to_string())?,
        "deal52view" => deal_views(&mut rng, times).map_err(|e| e.to_string())?,
        other => return Err(format!("no path called {other:?}")),
    }
    Ok(())
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_default();
    let times = args
        .next()
        .and_then(|t| t.parse().ok())
        .unwrap_or(1_000_000);
    match run(&path, times) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
