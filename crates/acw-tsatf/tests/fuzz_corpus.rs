//! Replays the committed seed corpora of TSATF's fuzz targets (`fuzz/corpus/tsatf_*`) through the same checks
//! the targets run, so CI exercises them without cargo-fuzz.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../../../fuzz/checks/tsatf.rs"]
mod tsatf;

use std::path::{Path, PathBuf};

fn corpus(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("corpus at {}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    entries.sort();
    assert!(
        entries.len() >= 8,
        "{target}: the seed corpus should hold at least 8 inputs"
    );
    entries
}

#[test]
fn tsatf_load_corpus() {
    for path in corpus("tsatf_load") {
        tsatf::load(&std::fs::read(&path).unwrap());
    }
}

#[test]
fn tsatf_orders_corpus() {
    for path in corpus("tsatf_orders") {
        tsatf::orders(&std::fs::read(&path).unwrap());
    }
}
