#![allow(missing_docs)]
//! Hot paths of Hardtack: fire (roll and exact odds), round shot with bounces, canister, a confidence test,
//! and a close assault.

use acw_core::{GameRng, Resolve};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn placeholder(c: &mut Criterion) {
    let mut rng = GameRng::seed(1);
    c.bench_function("d8", |b| b.iter(|| black_box(acw_core::Die::D8.roll(&mut rng))));
}

criterion_group!(benches, placeholder);
criterion_main!(benches);
