//! Benches of acw-core's hot paths: single dice, pools with drop, card draws, and exact distributions, beside
//! the raw generator's own speed measured in the same run.
#![allow(missing_docs)]

use acw::cards::Deck;
use acw::dice::{Die, Pool};
use acw::odds::Dist;
use acw::{Dice, GameRng};
use criterion::{Criterion, criterion_group, criterion_main};
use rand::Rng;
use std::hint::black_box;

fn dice(c: &mut Criterion) {
    let mut g = c.benchmark_group("dice");
    let mut rng = GameRng::seed(1);
    g.bench_function("raw generator next_u64", |b| {
        b.iter(|| black_box(rng.next_u64()))
    });
    let mut rng = GameRng::seed(1);
    g.bench_function("d6 roll", |b| b.iter(|| black_box(Die::D6.roll(&mut rng))));
    let mut rng = GameRng::seed(1);
    let p = Pool::new(20, Die::D6).and_then(|p| p.drop_highest(1));
    let Ok(pool) = p else { return };
    g.bench_function("20d6 drop highest", |b| {
        b.iter(|| black_box(black_box(pool).total(&mut rng)))
    });
    let mut rng = GameRng::seed(1);
    let all = Pool::new(20, Die::D6).ok();
    if let Some(all) = all {
        g.bench_function("20d6 total", |b| {
            b.iter(|| black_box(black_box(all).total(&mut rng)))
        });
    }
    g.finish();
}

fn cards(c: &mut Criterion) {
    let mut g = c.benchmark_group("cards");
    let mut rng = GameRng::seed(1);
    let Ok(mut deck) = Deck::standard(2) else {
        return;
    };
    g.bench_function("draw and discard", |b| {
        b.iter(|| {
            if deck.remaining() == 0 {
                deck.reshuffle();
            }
            if let Ok(card) = deck.draw(&mut rng) {
                deck.discard(black_box(card));
            }
        })
    });
    g.finish();
}

fn odds(c: &mut Criterion) {
    let mut g = c.benchmark_group("odds");
    let Ok(pool) = Pool::new(20, Die::D6) else {
        return;
    };
    g.bench_function("build Dist of 20d6", |b| {
        b.iter(|| black_box(Dist::pool(black_box(pool))))
    });
    if let Ok(dropped) = pool.drop_highest(1) {
        g.bench_function("build Dist of 20d6 drop highest", |b| {
            b.iter(|| black_box(Dist::pool(black_box(dropped))))
        });
    }
    let sampler = Dist::pool(pool).sampler();
    let mut rng = GameRng::seed(1);
    g.bench_function("sample Dist of 20d6", |b| {
        b.iter(|| black_box(*sampler.sample(&mut rng)))
    });
    let mut rng = GameRng::seed(1);
    g.bench_function("d6 via Dice::face (same run)", |b| {
        b.iter(|| black_box(rng.face(Die::D6)))
    });
    g.finish();
}

criterion_group!(benches, dice, cards, odds);
criterion_main!(benches);
