//! Any bytes as what a UCI engine writes: the first line a FEN (the start position when it is
//! not one), each further line read as tabla's UCI client reads an engine's line (`info` with
//! its score turned to White's view and its principal variation replayed, `option`,
//! `bestmove`, ...). Any text must give a value or a typed error, never a panic.

#![no_main]

use libfuzzer_sys::fuzz_target;
use tabla::Position;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut lines = text.lines();
    let position = lines
        .next()
        .and_then(|fen| Position::from_fen(fen).ok())
        .unwrap_or_default();
    for line in lines {
        tabla_analysis::fuzz_engine_line(&position, line);
    }
});
