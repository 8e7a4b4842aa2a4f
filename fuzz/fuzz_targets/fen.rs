//! Arbitrary text as a FEN: parsing must answer with a value or a typed error, and every
//! position accepted must survive the checks of `tabla_fuzz::check_position` (FEN round trip,
//! status, diagrams, and every legal move through the notations and make/unmake).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Lossy decoding keeps non-UTF-8 inputs useful: they become text with U+FFFD in it.
    let text = String::from_utf8_lossy(data);
    tabla_fuzz::check_fen(&text);
});
