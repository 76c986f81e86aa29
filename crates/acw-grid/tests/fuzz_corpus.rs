//! Replays the committed seed corpora of the grid rules' fuzz targets (`fuzz/corpus/grid_load`,
//! `fuzz/corpus/grid_orders`) through the same checks the targets run, so CI exercises them without
//! cargo-fuzz. `write_seed_corpus` (ignored) wrote the first seeds.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../../../fuzz/checks/grid.rs"]
mod grid;

use acw_core::BySide;
use acw_core::game::{Commander, Ruleset};
use acw_grid::board::GridKind;
use acw_grid::bots::{Attacker, Holder};
use acw_grid::game::Grid;
use acw_grid::setup::Scenario;
use std::path::{Path, PathBuf};

/// The committed seed corpus of the fuzz target `target`.
fn corpus_dir(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target)
}

#[test]
fn grid_load_corpus() {
    acw_core::testing::replay_corpus(corpus_dir("grid_load"), 8, grid::load);
}

#[test]
fn grid_orders_corpus() {
    acw_core::testing::replay_corpus(corpus_dir("grid_orders"), 8, grid::orders);
}

/// Writes the first seeds: scenarios on both boards, saved games part-way through, and byte strings for the
/// orders target. Run by hand (`cargo test -p acw-grid --test fuzz_corpus -- --ignored`) to start a corpus.
#[test]
#[ignore = "writes the seed corpus; run by hand"]
fn write_seed_corpus() {
    let load = corpus_dir("grid_load");
    std::fs::create_dir_all(&load).unwrap();
    let mut n = 0;
    for (seed, kind) in [
        (1, GridKind::Square),
        (2, GridKind::Hex),
        (3, GridKind::Square),
    ] {
        let s = Scenario::meeting_engagement(seed, kind);
        std::fs::write(
            load.join(format!("seed-{n:02}")),
            serde_json::to_string(&s).unwrap(),
        )
        .unwrap();
        n += 1;
        for orders in [20usize, 60, 140] {
            let mut state = Grid.setup(&s, seed).unwrap();
            let (mut a, mut h) = (Attacker::new(seed), Holder::new(seed ^ 1));
            let mut c = BySide::new(&mut a as &mut dyn Commander<Grid>, &mut h);
            let mut log = Vec::new();
            for _ in 0..orders {
                let Some(side) = Grid.to_order(&state) else {
                    break;
                };
                let o = c[side].order(&Grid, &state, side);
                Grid.apply(&mut state, &o, &mut log).unwrap();
            }
            std::fs::write(
                load.join(format!("seed-{n:02}")),
                serde_json::to_string(&state).unwrap(),
            )
            .unwrap();
            n += 1;
        }
    }
    let orders = corpus_dir("grid_orders");
    std::fs::create_dir_all(&orders).unwrap();
    for i in 0u8..12 {
        let bytes: Vec<u8> = [i, i % 2, i * 7]
            .into_iter()
            .chain((0..48u8).map(|k| k.wrapping_mul(31).wrapping_add(i.wrapping_mul(17))))
            .collect();
        std::fs::write(orders.join(format!("seed-{i:02}")), bytes).unwrap();
    }
}
