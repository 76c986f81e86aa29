//! Fuzzes TSATF: see `checks/tsatf.rs` (`tsatf_orders`) for what must hold for every input.
#![no_main]

#[path = "../checks/tsatf.rs"]
#[allow(dead_code)]
mod tsatf;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| tsatf::orders(data));
