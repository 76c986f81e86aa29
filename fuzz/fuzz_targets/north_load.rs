//! Fuzzes North: see `checks/north.rs` (`north_load`) for what must hold for every input.
#![no_main]

#[path = "../checks/north.rs"]
#[allow(dead_code)]
mod north;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| north::load(data));
