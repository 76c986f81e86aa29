//! Benches of acw-core's hot paths, every one in the same criterion group as the raw generator it draws from,
//! so a path's cost is read off one run as a ratio to the raw words it consumes.
//!
//! - `raw N words`: N calls of `GameRng::next_u64` (xoshiro256++), summed so none is optimised away;
//! - roll paths: a d6, 3d6 and 20d6 totals, 20d6 drop highest, 30d8 counting 4+, one card drawn and discarded,
//!   52 cards dealt (one `Deck::deal` into a hand, then `Deck::discard_all`), 52 cards dealt in place (one
//!   `Deck::deal_view`, then `Deck::discard_dealt`) and 52 cards drawn and discarded one by one; each consumes one
//!   word per die or card (a rejection is rarer than one in 2^58);
//! - exact builds: `Dist` of 20d6, of 20d6 drop highest, of 30d8 counting 4+, and `sum_n` of 20 single d6.
#![allow(missing_docs)]

use acw::cards::{Card, Colour, Deck};
use acw::dice::{Die, Pool, SuccessPool};
use acw::odds::Dist;
use acw::{Dice, GameRng, Resolve};
use criterion::{Criterion, criterion_group, criterion_main};
use rand::Rng;
use std::hint::black_box;

fn pool(n: u32, die: Die) -> Pool {
    match Pool::new(n, die) {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    }
}

fn raw(g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>, n: usize) {
    let mut rng = GameRng::seed(1);
    g.bench_function(format!("raw {n} words"), |b| {
        b.iter(|| {
            let mut x = 0u64;
            for _ in 0..black_box(n) {
                x = x.wrapping_add(rng.next_u64());
            }
            black_box(x)
        })
    });
}

fn core(c: &mut Criterion) {
    let mut g = c.benchmark_group("core");
    for n in [1, 3, 20, 30, 52] {
        raw(&mut g, n);
    }

    let mut rng = GameRng::seed(1);
    g.bench_function("d6 roll (1 word)", |b| {
        b.iter(|| black_box(black_box(Die::D6).roll(&mut rng)))
    });
    let mut rng = GameRng::seed(1);
    g.bench_function("d6 via Dice::face (1 word)", |b| {
        b.iter(|| black_box(rng.face(black_box(Die::D6))))
    });
    for (n, name) in [(3, "3d6 total (3 words)"), (20, "20d6 total (20 words)")] {
        let p = pool(n, Die::D6);
        let mut rng = GameRng::seed(1);
        g.bench_function(name, |b| b.iter(|| black_box(black_box(p).roll(&mut rng))));
    }
    let dropped = match pool(20, Die::D6).drop_highest(1) {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    };
    let mut rng = GameRng::seed(1);
    g.bench_function("20d6 drop highest (20 words)", |b| {
        b.iter(|| black_box(black_box(dropped).roll(&mut rng)))
    });
    let d8 = pool(30, Die::D8);
    let mut rng = GameRng::seed(1);
    g.bench_function("30d8 count 4+ by throw (30 words)", |b| {
        b.iter(|| black_box(black_box(d8).throw(&mut rng).count_at_least(4)))
    });
    let hits = match SuccessPool::new(30, Die::D8, 4) {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    };
    let mut rng = GameRng::seed(1);
    g.bench_function("30d8 count 4+ (30 words)", |b| {
        b.iter(|| black_box(black_box(hits).roll(&mut rng)))
    });

    let mut rng = GameRng::seed(1);
    let Ok(mut deck) = Deck::standard(2) else {
        return;
    };
    g.bench_function("card drawn and discarded (1 word)", |b| {
        b.iter(|| {
            if deck.remaining() == 0 {
                deck.reshuffle();
            }
            if let Ok(card) = deck.draw(&mut rng) {
                deck.discard(black_box(card));
            }
        })
    });
    let mut rng = GameRng::seed(1);
    let Ok(mut deck) = Deck::standard(0) else {
        return;
    };
    let mut hand = [Card::Joker(Colour::Red); 52];
    g.bench_function("52 cards dealt by Deck::deal (52 words)", |b| {
        b.iter(|| {
            if deck.deal(&mut rng, &mut hand).is_ok() {
                deck.discard_all(black_box(&hand));
            }
            deck.reshuffle();
        })
    });
    let mut rng = GameRng::seed(1);
    let Ok(mut deck) = Deck::standard(0) else {
        return;
    };
    g.bench_function(
        "52 cards dealt in place by Deck::deal_view (52 words)",
        |b| {
            b.iter(|| {
                if let Ok(dealt) = deck.deal_view(&mut rng, 52) {
                    black_box(dealt);
                }
                let _ = deck.discard_dealt(52);
                deck.reshuffle();
            })
        },
    );
    let mut rng = GameRng::seed(1);
    let Ok(mut deck) = Deck::standard(0) else {
        return;
    };
    g.bench_function("52 cards drawn one by one (52 words)", |b| {
        b.iter(|| {
            while let Ok(card) = deck.draw(&mut rng) {
                deck.discard(black_box(card));
            }
            deck.reshuffle();
        })
    });

    let sum = pool(20, Die::D6);
    g.bench_function("exact: build Dist of 20d6", |b| {
        b.iter(|| black_box(Dist::pool(black_box(sum))))
    });
    g.bench_function("exact: build Dist of 20d6 drop highest", |b| {
        b.iter(|| black_box(Dist::pool(black_box(dropped))))
    });
    g.bench_function("exact: 30d8 count 4+", |b| {
        b.iter(|| black_box(black_box(hits).odds()))
    });
    let d6 = Dist::die(Die::D6);
    g.bench_function("exact: sum_n of 20 d6", |b| {
        b.iter(|| black_box(black_box(&d6).sum_n(20)))
    });
    let sampler = Dist::pool(sum).sampler();
    let mut rng = GameRng::seed(1);
    g.bench_function("sample a built Dist of 20d6", |b| {
        b.iter(|| black_box(*sampler.sample(&mut rng)))
    });
    g.finish();
}

criterion_group!(benches, core);
criterion_main!(benches);
