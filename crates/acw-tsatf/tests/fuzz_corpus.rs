//! Replays the committed seed corpora of TSATF's fuzz targets (`fuzz/corpus/tsatf_*`) through the same checks
//! the targets run, so CI exercises them without cargo-fuzz.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../../../fuzz/checks/tsatf.rs"]
mod tsatf;

use std::path::{Path, PathBuf};

/// The committed seed corpus of the fuzz target `target`.
fn corpus(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target)
}

#[test]
fn tsatf_load_corpus() {
    acw_core::testing::replay_corpus(corpus("tsatf_load"), 8, tsatf::load);
}

#[test]
fn tsatf_orders_corpus() {
    acw_core::testing::replay_corpus(corpus("tsatf_orders"), 8, tsatf::orders);
}
