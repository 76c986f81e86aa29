//! Replays the committed seed corpora of North's fuzz targets (`fuzz/corpus/north_*`, `fuzz/corpus/table_dice`)
//! through the same checks the targets run, so CI exercises them without cargo-fuzz.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../../../fuzz/checks/north.rs"]
mod north;

use std::path::{Path, PathBuf};

/// The committed seed corpus of the fuzz target `target`.
fn corpus(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target)
}

#[test]
fn north_load_corpus() {
    acw_core::testing::replay_corpus(corpus("north_load"), 8, north::load);
}

#[test]
fn north_orders_corpus() {
    acw_core::testing::replay_corpus(corpus("north_orders"), 8, north::orders);
}

#[test]
fn table_dice_corpus() {
    acw_core::testing::replay_corpus(corpus("table_dice"), 8, north::table_dice);
}
