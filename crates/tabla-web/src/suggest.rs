//! `GET /api/suggest`: the engine's move for a position, searched for a bounded time by the
//! server's engine (tabla's own, or the UCI engine of `tabla serve --engine`): one search at a
//! time, at most [`MAX_WAITING`] requests waiting for it.

use crate::api_error::ApiError;
use crate::notation::MoveNotations;
use crate::query::{Params, fen_param};
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Serialize;
use std::time::Duration;
use tabla::{Color, Move, Position};
use tabla_analysis::{Analysis, Budget, Request, StopSignal};
use tabla_pgn::Eval;

/// The thinking time when the request gives none (`tabla go`'s too).
pub use tabla_analysis::DEFAULT_MOVETIME;
/// The longest thinking time a request may ask for; longer requests are cut to it.
pub const MAX_MOVETIME: Duration = Duration::from_secs(10);
/// Requests that may wait for the engine while it searches; more get 429.
pub const MAX_WAITING: usize = 8;

/// The answer of `GET /api/suggest`.
#[derive(Serialize, Debug)]
pub struct SuggestJson {
    /// The position searched (canonical FEN).
    pub fen: String,
    /// The move.
    pub best: MoveNotations,
    /// Its score, White's point of view (tabla's one score type: `{"cp": n}` or `{"mate": n}`).
    pub score: Eval,
    /// The depth reached.
    pub depth: u32,
    /// The principal variation, from `best` on.
    pub pv: Vec<MoveNotations>,
    /// The principal variation as numbered SAN (`40. Bh6 Qd1 41. Qxf7+`), written by the core's
    /// [`Position::variation_san`], so that no client rebuilds it.
    pub line: String,
    /// Positions searched.
    pub nodes: u64,
    /// The thinking time used as the limit, in milliseconds.
    pub movetime: u64,
    /// The engine that searched, by the name it gives (`Stockfish 15.1`, `tabla 0.1.0+…`).
    pub engine: String,
}

/// Reads `movetime` (milliseconds, 1 or more); cut to [`MAX_MOVETIME`].
pub fn movetime_param(value: Option<&str>) -> Result<Duration, ApiError> {
    let Some(text) = value else {
        return Ok(DEFAULT_MOVETIME);
    };
    let ms: u64 = text.trim().parse().map_err(|_| {
        ApiError::bad_request(format!(
            "movetime {text:?} is not a whole number of milliseconds"
        ))
    })?;
    if ms == 0 {
        return Err(ApiError::bad_request("movetime must be at least 1 ms"));
    }
    Ok(Duration::from_millis(ms).min(MAX_MOVETIME))
}

/// The notations of a line of moves from `pos`.
fn line(pos: &Position, moves: &[Move]) -> Vec<MoveNotations> {
    let mut cur = pos.clone();
    let mut out = Vec::with_capacity(moves.len());
    for &mv in moves {
        if !cur.legal_moves().contains(&mv) {
            break;
        }
        out.push(MoveNotations::of(&cur, mv));
        cur.play_unchecked(mv);
    }
    out
}

/// `GET /api/suggest?fen=F&movetime=MS`.
pub async fn suggest(
    State(state): State<AppState>,
    params: Params,
) -> Result<Json<SuggestJson>, ApiError> {
    let pos = fen_param(&params)?;
    let movetime = movetime_param(crate::query::optional(&params, "movetime"))?;
    if pos.legal_moves().is_empty() {
        let why = if pos.is_check() {
            "checkmate"
        } else {
            "stalemate"
        };
        return Err(ApiError::bad_request(format!(
            "no move to suggest: the position is {why}"
        )));
    }
    let engines = std::sync::Arc::clone(&state.suggest);
    let mut reservation = engines.reserve_waiting(MAX_WAITING).await.map_err(|_| {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "the engine is busy with other requests; try again shortly",
        )
    })?;
    let request = Request::new(pos.clone(), Budget::MoveTime(movetime));
    let searched = tokio::task::spawn_blocking(move || {
        let outcome = match reservation.engine() {
            Err(e) => Err(*e),
            Ok(engine) => engine.analyse(&request, &StopSignal::new(), &mut |_| {}),
        };
        // The engine's words, without the server's paths.
        outcome.map_err(|e| {
            let text = reservation.error_text(&e);
            if e.is_fault() {
                reservation.discard();
            }
            text
        })
    })
    .await
    .map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the engine failed: {e}"),
        )
    })?;
    let analysis = searched.map_err(ApiError::engine_failed)?;
    let Some((best, score, depth, pv, nodes)) = best_of(&analysis, pos.turn()) else {
        return Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the engine returned no move",
        ));
    };
    let mut numbered = String::new();
    // A line rebuilt from the hash table may end with a move that is not legal there: the
    // legal part is written, as `pv` holds it.
    let _ = pos.write_variation_san(&pv, &mut numbered);
    Ok(Json(SuggestJson {
        fen: pos.to_fen(),
        best: MoveNotations::of(&pos, best),
        score,
        depth,
        pv: line(&pos, &pv),
        line: numbered,
        nodes,
        movetime: movetime.as_millis() as u64,
        engine: engines.id().label().to_owned(),
    }))
}

/// The move an analysis of a position with `turn` to move chose, its line's evaluation, depth
/// and moves (from the move on), and the nodes searched.
fn best_of(analysis: &Analysis, turn: Color) -> Option<(Move, Eval, u32, Vec<Move>, u64)> {
    let line = analysis.best()?;
    let best = analysis.best_move.or_else(|| line.pv.first().copied())?;
    let pv = if line.pv.first() == Some(&best) {
        line.pv.clone()
    } else {
        vec![best]
    };
    let nodes = analysis.nodes.or(line.nodes).unwrap_or(0);
    Some((best, line.eval(turn), line.depth, pv, nodes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetime_is_read_and_capped() {
        assert_eq!(movetime_param(None), Ok(DEFAULT_MOVETIME));
        assert_eq!(movetime_param(Some("250")), Ok(Duration::from_millis(250)));
        assert_eq!(movetime_param(Some("999999999")), Ok(MAX_MOVETIME));
        for bad in ["0", "-5", "1.5", "", "ten", "99999999999999999999999"] {
            let e = movetime_param(Some(bad)).expect_err(bad);
            assert_eq!(e.status, StatusCode::BAD_REQUEST, "{bad}");
            assert!(e.message.contains("movetime"), "{bad}: {}", e.message);
        }
    }
}
