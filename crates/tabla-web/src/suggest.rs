//! `GET /api/suggest`: the engine's move for a position, searched for a bounded time.

use crate::api_error::ApiError;
use crate::position::MoveNotations;
use crate::query::{Params, fen_param};
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Serialize;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tabla::{Move, Position};
use tabla_engine::{Control, EndgameOracle, Engine, Limits, Score};
use tokio::sync::Semaphore;

/// The thinking time when the request gives none.
pub const DEFAULT_MOVETIME: Duration = Duration::from_millis(1000);
/// The longest thinking time a request may ask for; longer requests are cut to it.
pub const MAX_MOVETIME: Duration = Duration::from_secs(10);
/// Requests that may wait for the engine while it searches; more get 429.
pub const MAX_WAITING: usize = 8;

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suggestion {
    /// The move to play.
    pub best: Move,
    /// The score from the side to move's point of view.
    pub score: Score,
    /// The depth reached.
    pub depth: u32,
    /// The principal variation, starting with `best`.
    pub pv: Vec<Move>,
    /// Positions searched.
    pub nodes: u64,
}

/// Something that suggests moves: the engine, or anything else that can stand in for it.
pub trait Suggester: Send + Sync {
    /// Searches `pos` (which has a legal move) for at most `movetime`.
    fn suggest(&self, pos: &Position, movetime: Duration) -> Option<Suggestion>;
}

/// tabla's engine behind a lock: one search at a time, its hash table kept between requests.
pub struct EngineSuggester {
    engine: Mutex<Engine>,
}

impl EngineSuggester {
    /// An engine with its default hash size, and exact endgame knowledge when given.
    pub fn new(oracle: Option<Arc<dyn EndgameOracle>>) -> EngineSuggester {
        let mut engine = Engine::new();
        engine.set_oracle(oracle);
        EngineSuggester {
            engine: Mutex::new(engine),
        }
    }
}

impl Suggester for EngineSuggester {
    fn suggest(&self, pos: &Position, movetime: Duration) -> Option<Suggestion> {
        let mut engine = self.engine.lock().unwrap_or_else(|e| e.into_inner());
        let result = engine.search(
            pos,
            &Limits::move_time(movetime),
            &Control::default(),
            &mut |_| {},
        );
        let best = result.best?;
        let pv = if result.pv.first() == Some(&best) {
            result.pv
        } else {
            vec![best]
        };
        Some(Suggestion {
            best,
            score: result.score,
            depth: result.depth,
            pv,
            nodes: result.nodes,
        })
    }
}

/// The engine shared by the requests, and how many are waiting for it.
#[derive(Clone)]
pub struct EngineSlot {
    suggester: Arc<dyn Suggester>,
    permit: Arc<Semaphore>,
    waiting: Arc<AtomicUsize>,
}

impl EngineSlot {
    /// A slot over a suggester; one search runs at a time.
    pub fn new(suggester: Arc<dyn Suggester>) -> EngineSlot {
        EngineSlot {
            suggester,
            permit: Arc::new(Semaphore::new(1)),
            waiting: Arc::new(AtomicUsize::new(0)),
        }
    }
}

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
    Ok(Json(SuggestJson {
        fen: pos.to_fen(),
        best: MoveNotations::of(&pos, s.best),
        score: match s.score {
            Score::Cp(cp) => ScoreJson::Centipawns(cp),
            Score::Mate(n) => ScoreJson::Mate(n),
        },
        depth: s.depth,
        pv: line(&pos, &s.pv),
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
