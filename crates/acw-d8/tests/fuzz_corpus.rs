//! Replays the committed seed corpora of D8's fuzz targets (`fuzz/corpus/d8_load`, `fuzz/corpus/d8_orders`)
//! through the same checks the targets run, so CI exercises them without cargo-fuzz.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../../../fuzz/checks/d8.rs"]
mod d8;

use std::path::{Path, PathBuf};

/// The committed seed corpus of the fuzz target `target`.
fn corpus(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target)
}

#[test]
fn d8_load_corpus() {
    acw_core::testing::replay_corpus(corpus("d8_load"), 8, d8::load);
}

#[test]
fn d8_orders_corpus() {
    acw_core::testing::replay_corpus(corpus("d8_orders"), 8, d8::orders);
}

/// Found by `d8_orders`: in seed 67's game, an earlier melee at the end of a Melee phase cost a unit figures,
/// narrowing its front until a second pair no longer touched; the phase's end then refused, so the game could
/// not go on. A pair no longer in contact now does not fight.
#[test]
fn a_melee_that_loses_contact_does_not_stop_the_phase_ending() {
    d8::orders(&[0x43, 0x3d, 0x80]);
}
