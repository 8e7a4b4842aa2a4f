//! The `tabla fen` report: canonical FEN, diagram, status and the legal moves.

use std::io::{self, Write};
use tabla::{GameEnd, Position};

/// Writes the report on `pos`.
pub fn write(out: &mut impl Write, pos: &Position) -> io::Result<()> {
    writeln!(out, "fen      {}", pos.to_fen())?;
    if let Some(problems) = crate::position_arg::strict_problems(pos) {
        writeln!(
            out,
            "note     not reachable in a game (accepted with --lenient): {problems}"
        )?;
    }
    writeln!(out)?;
    write!(out, "{}", pos.text_diagram())?;
    writeln!(out)?;
    writeln!(out, "to move  {}", pos.turn().name())?;
    writeln!(out, "check    {}", check_text(pos))?;
    let status = pos.status();
    let state = match status.end {
        None => "in play".to_owned(),
        Some(GameEnd::Checkmate { winner }) => {
            format!(
                "checkmate, {} wins ({})",
                winner.name(),
                GameEnd::Checkmate { winner }.result()
            )
        }
        Some(end) => format!("{}, draw ({})", end.description(), end.result()),
    };
    writeln!(out, "status   {state}")?;
    let mut claims = Vec::new();
    if status.fifty_move_claim {
        claims.push("draw by the 50-move rule");
    }
    if status.threefold_claim {
        claims.push("draw by threefold repetition");
    }
    writeln!(
        out,
        "claims   {}",
        if claims.is_empty() {
            "none".to_owned()
        } else {
            claims.join(", ")
        }
    )?;
    writeln!(out, "zobrist  {:016x}", pos.zobrist())?;
    writeln!(out)?;
    let moves = pos.legal_moves();
    writeln!(out, "legal moves ({})", moves.len())?;
    if !moves.is_empty() {
        writeln!(out, "  {:<9} {:<12} uci", "san", "long")?;
    }
    for &mv in &moves {
        writeln!(
            out,
            "  {:<9} {:<12} {}",
            pos.san(mv),
            pos.long(mv),
            pos.uci(mv)
        )?;
    }
    Ok(())
}

/// `no`, or `yes` with the checking pieces.
fn check_text(pos: &Position) -> String {
    let checkers: Vec<String> = pos
        .checkers()
        .into_iter()
        .filter_map(|sq| {
            pos.piece_at(sq)
                .map(|p| format!("{} on {sq}", p.role.name()))
        })
        .collect();
    match checkers.len() {
        0 => "no".to_owned(),
        1 => format!("yes, by the {}", checkers[0]),
        _ => format!("yes, double check by the {}", checkers.join(" and the ")),
    }
}
