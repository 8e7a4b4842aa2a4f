//! The text `tabla kbnk` and `tabla tb` print about positions and their distance to mate.

use anyhow::Context;
use std::io::Write;
use tabla::{Move, Position, plural, plural_with};
use tabla_endgame::{Dtm, MoveValue};

/// The position given on the command line (a quoted FEN, or its words).
pub fn parse(words: &[String]) -> anyhow::Result<Position> {
    let text = words.join(" ");
    Position::from_fen(&text).with_context(|| format!("invalid FEN {text:?}"))
}

/// ` (mate in N moves, M plies)` and the like, for people reading the number.
pub fn describe(dtm: Dtm) -> String {
    let moves = |n: u8| plural(n, "move");
    let plies = |n: u16| plural_with(n, "ply", "plies");
    match (dtm, dtm.plies()) {
        (Dtm::Win(n), Some(p)) => format!(" (mates in {}, {})", moves(n), plies(p)),
        (Dtm::Loss(0), _) => " (checkmated)".to_owned(),
        (Dtm::Loss(n), Some(p)) => format!(" (mated in {}, {})", moves(n), plies(p)),
        _ => " (draw)".to_owned(),
    }
}

/// One line a move: SAN, UCI, the value after it and what that means.
pub fn write_moves(
    out: &mut impl Write,
    pos: &Position,
    moves: &[MoveValue],
) -> anyhow::Result<()> {
    writeln!(out, "moves (dtm after the move, for the side then to move)")?;
    for m in moves {
        writeln!(
            out,
            "  {:<8} {:<6} {:>4}{}",
            pos.san(m.mv),
            pos.uci(m.mv),
            m.after.to_string(),
            describe(m.after)
        )?;
    }
    Ok(())
}

/// A line of play in SAN and its length in plies.
pub fn write_line(out: &mut impl Write, pos: &Position, moves: &[Move]) -> anyhow::Result<()> {
    writeln!(
        out,
        "{} ({})",
        pos.variation_san(moves)?,
        plural_with(moves.len(), "ply", "plies")
    )?;
    Ok(())
}
