//! Fuzzes D8: see `checks/d8.rs` (`d8_load`) for what must hold for every input.
#![no_main]

#[path = "../checks/d8.rs"]
#[allow(dead_code)]
mod d8;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| d8::load(data));
