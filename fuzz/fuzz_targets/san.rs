//! Arbitrary text as moves: the first line is a FEN (the start position when it is not a valid
//! one), every further line a move text given to each move parser. Whatever a parser accepts
//! must be a legal move that survives `tabla_fuzz::check_move`; errors must be typed.

#![no_main]

use libfuzzer_sys::fuzz_target;
use tabla::{Position, Validation};

fuzz_target!(|data: &[u8]| {
    let (fen, rest) = tabla_fuzz::split_first_line(data);
    let mut pos =
        Position::from_fen_with(&fen, Validation::Lenient).unwrap_or_else(|_| Position::startpos());
    for line in String::from_utf8_lossy(rest).lines() {
        tabla_fuzz::check_move_text(&mut pos, line);
        // Play what the lenient parser accepts, so later lines meet later positions.
        if let Ok(mv) = pos.parse_san(line) {
            pos.play(mv).expect("a move the parser accepts plays");
        }
    }
});
