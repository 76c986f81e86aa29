//! Replays the committed seed corpora of Hardtack's fuzz targets (`fuzz/corpus/hardtack_load`,
//! `fuzz/corpus/hardtack_orders`) through the same checks the targets run, so CI exercises them without
//! cargo-fuzz.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../../../fuzz/checks/hardtack.rs"]
mod hardtack;

use std::path::{Path, PathBuf};

/// The committed seed corpus of the fuzz target `target`.
fn corpus(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target)
}

#[test]
fn hardtack_load_corpus() {
    acw_core::testing::replay_corpus(corpus("hardtack_load"), 8, hardtack::load);
}

#[test]
fn hardtack_orders_corpus() {
    acw_core::testing::replay_corpus(corpus("hardtack_orders"), 8, hardtack::orders);
}
