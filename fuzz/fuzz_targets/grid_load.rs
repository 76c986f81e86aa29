//! Fuzzes the grid rules: see `checks/grid.rs` (`load`) for what must hold for every input.
#![no_main]

#[path = "../checks/grid.rs"]
#[allow(dead_code)]
mod grid;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| grid::load(data));
