//! Fuzzes Hardtack: see `checks/hardtack.rs` (`orders`) for what must hold for every input.
#![no_main]

#[path = "../checks/hardtack.rs"]
#[allow(dead_code)]
mod hardtack;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| hardtack::orders(data));
