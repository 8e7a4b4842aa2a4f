//! `GET /api/suggest`: the engine's move for a position, searched for a bounded time.

use crate::api_error::ApiError;
use crate::notation::MoveNotations;
use crate::query::{Params, fen_param};
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Serialize;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tabla::{Move, Position};
use tabla_engine::Score;

/// The thinking time when the request gives none.
pub const DEFAULT_MOVETIME: Duration = Duration::from_millis(1000);
/// The longest thinking time a request may ask for; longer requests are cut to it.
pub const MAX_MOVETIME: Duration = Duration::from_secs(10);
/// Requests that may wait for the engine while it searches; more get 429.
pub const MAX_WAITING: usize = 8;

/// A score as JSON: `{"centipawns": n}` or `{"mate": n}`, from the side to move's point of view.
#[derive(Serialize, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ScoreJson {
    /// Centipawns.
    Centipawns(i32),
    /// Full moves to mate; negative when the side to move is mated.
    Mate(i32),
}

/// The answer of `GET /api/suggest`.
#[derive(Serialize, Debug)]
pub struct SuggestJson {
    /// The position searched (canonical FEN).
    pub fen: String,
    /// The move.
    pub best: MoveNotations,
    /// Its score for the side to move.
    pub score: ScoreJson,
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
    let slot = state.engine.clone();
    let waiting = slot.waiting.fetch_add(1, Ordering::SeqCst);
    let _leave = Leave(&slot.waiting);
    if waiting >= MAX_WAITING {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "the engine is busy with other requests; try again shortly",
        ));
    }
    let _permit =
        slot.permit.acquire().await.map_err(|_| {
            ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping")
        })?;
    let suggester = slot.suggester.clone();
    let searched = pos.clone();
    let found = tokio::task::spawn_blocking(move || suggester.suggest(&searched, movetime))
        .await
        .map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("the engine failed: {e}"),
            )
        })?;
    let Some(s) = found else {
        return Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the engine returned no move",
        ));
    };
    let mut numbered = String::new();
    // A line rebuilt from the hash table may end with a move that is not legal there: the
    // legal part is written, as `pv` holds it.
    let _ = pos.write_variation_san(&s.pv, &mut numbered);
    Ok(Json(SuggestJson {
        fen: pos.to_fen(),
        best: MoveNotations::of(&pos, s.best),
        score: match s.score {
            Score::Cp(cp) => ScoreJson::Centipawns(cp),
            Score::Mate(n) => ScoreJson::Mate(n),
        },
        depth: s.depth,
        pv: line(&pos, &s.pv),
        line: numbered,
        nodes: s.nodes,
        movetime: movetime.as_millis() as u64,
    }))
}

/// Counts a request out of the waiting line when it ends, however it ends.
struct Leave<'a>(&'a AtomicUsize);

impl Drop for Leave<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
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
