//! `POST /api/review`: a game's review as lichess gives one (each move judged, each side's
//! accuracy), from the game's own `[%eval]` comments, from the evaluation cache that
//! `tabla review` shares, or from the server's engine, streamed as NDJSON while it runs.
//!
//! The engine review runs as `tabla review` runs (the server's [`EngineSpec`] at
//! [`DEFAULT_NODES`](tabla_review::DEFAULT_NODES), the cache in tabla's data directory), so that a game reviewed by either is
//! answered by the other from the cache. One runs at a time; a client that leaves cancels it.

use crate::api_error::ApiError;
use crate::ndjson;
use crate::pgn_body::{pgn_body, read_blocking};
use crate::pgn_game::{one_game, origin};
use crate::query::{Params, optional};
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::collections::HashSet;
use std::sync::Arc;
use tabla::Position;
use tabla_analysis::{Budget, EngineSpec, Pool};
use tabla_pgn::Game;
use tabla_review::{
    CacheConfig, EvalCache, Review, ReviewCounts, Reviewer, Rules, annotated_pgn, from_cache,
    from_evals,
};
use tokio::sync::{OwnedSemaphorePermit, mpsc};

/// A review's answer (the last NDJSON line of an engine review, and the whole answer of
/// `?cached=1`): the review and the annotated game, or, from the cache only when it lacks a
/// position, `review: null` and how many it has.
#[derive(Serialize, Debug)]
pub struct ReviewAnswer {
    /// The review, or `None` when the cache lacks a position (`?cached=1` only).
    pub review: Option<Review>,
    /// The game annotated with it, as `tabla review` writes it.
    pub pgn: Option<String>,
    /// The engine's line before each move of the review, as numbered SAN from the position
    /// before it (`4. Nf3 d6 5. O-O`; empty when the review has none, as from evals).
    pub lines: Vec<String>,
    /// `"evals"`: from the game's `[%eval]` comments; `"engine"`: the engine's (searched now or
    /// taken from the cache); `None` without a review.
    pub source: Option<&'static str>,
    /// The engine and its budget (`tabla 0.1.0+0024d908, nodes 450000`); `None` from evals.
    pub engine: Option<String>,
    /// The game's distinct positions (before each move, and the last).
    pub positions: u64,
    /// Of them, those the cache holds (before the review, for an engine review).
    pub from_cache: u64,
}

/// A progress line of an engine review.
#[derive(Serialize, Debug)]
struct ProgressLine {
    progress: Progress,
}

/// How far an engine review is: distinct positions, those done (searched or cached), those from
/// the cache.
#[derive(Serialize, Debug)]
struct Progress {
    positions: u64,
    done: u64,
    from_cache: u64,
}

/// `POST /api/review[?cached=1][&engine=1]` with one game's PGN as the body (and `index`,
/// `start`, `line`, `column` as `POST /api/pgn/game` takes them, for the messages).
pub async fn review(
    State(state): State<AppState>,
    params: Params,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let origin = origin(&params)?;
    let cached_only = flag(&params, "cached")?;
    let engine_asked = flag(&params, "engine")?;
    let body = pgn_body(&state, body)?;
    let game = read_blocking(&state, move || reviewable(&body, origin)).await?;
    // Step 1: the game's own evaluations, when every move has one.
    if !engine_asked {
        let review = from_evals(&game, Rules::Lichess);
        if review.error.is_none() {
            let positions = distinct_positions(&game).len() as u64;
            let answer = finished(&game, review, "evals", None, positions, 0)?;
            return Ok(json_response(&answer));
        }
    }
    // Step 2: the cache, as `tabla review` opens it.
    let spec = state.live.spec().clone();
    let budget = state.reviews.budget();
    let config = state.reviews.config(&state.live);
    let engine = format!("{}, {}", config.engine, config.budget);
    if cached_only {
        let reviews = Arc::clone(&state.reviews);
        let db_evals = db_evals(&state, &config);
        let answer = blocking(move || {
            let mut cache = reviews.open_cache(&config)?;
            let positions = distinct_positions(&game);
            let count = positions.len() as u64;
            let mut review = from_cache(&game, &cache, Rules::Lichess);
            if review.is_none()
                && let Some(root) = db_evals
            {
                // `tabla db review` keeps its evaluations in the database: a game it reviewed
                // is answered from there (read only: the folder exists).
                if let Ok(db_cache) = EvalCache::open(&root, &config) {
                    review = from_cache(&game, &db_cache, Rules::Lichess);
                    if review.is_some() {
                        cache = db_cache;
                    }
                }
            }
            let cached = positions.iter().filter(|p| cache.get(p).is_some()).count() as u64;
            match review {
                Some(review) => finished(&game, review, "engine", Some(engine), count, cached),
                None => Ok(ReviewAnswer {
                    review: None,
                    pgn: None,
                    lines: Vec::new(),
                    source: None,
                    engine: Some(engine),
                    positions: count,
                    from_cache: cached,
                }),
            }
        })
        .await?;
        return Ok(json_response(&answer));
    }
    // Step 3: the engines, one review at a time.
    let Some(place) = state.reviews.try_place() else {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "the engine is reviewing another game; try again when it is done",
        ));
    };
    let reviews = Arc::clone(&state.reviews);
    let (pool, cache) = blocking(move || {
        let cache = reviews.open_cache(&config)?;
        Ok((start_pool(&spec)?, cache))
    })
    .await?;
    let canceller = pool.canceller();
    let (lines, receiver) = mpsc::unbounded_channel();
    tokio::task::spawn_blocking(move || run(game, pool, cache, budget, engine, place, &lines));
    Ok(ndjson::stream(receiver, canceller))
}

/// The engine review on a blocking thread: progress lines, then the answer or `{"error"}`. The
/// engines end before the review's place is given back.
fn run(
    game: Game,
    mut pool: Pool,
    mut cache: EvalCache,
    budget: Budget,
    engine: String,
    place: OwnedSemaphorePermit,
    lines: &mpsc::UnboundedSender<String>,
) {
    let positions = distinct_positions(&game).len() as u64;
    let mut cached = 0;
    // A failed send means the client left: the stream's guard has cancelled the pool, which
    // ends the review.
    let reviewed = Reviewer::new(&mut pool, budget, Rules::Lichess, &mut cache).review(
        std::slice::from_ref(&game),
        &mut |counts: &ReviewCounts| {
            cached = counts.from_cache;
            let _ = lines.send(ndjson::line(&ProgressLine {
                progress: Progress {
                    positions,
                    done: (counts.evaluated + counts.from_cache).min(positions),
                    from_cache: counts.from_cache,
                },
            }));
        },
    );
    let program = pool.engine().path.clone();
    drop(pool);
    drop(place);
    let answer = match reviewed {
        Err(e) => Err(crate::api_error::failure_answer(&format!(
            "the evaluation cache could not be written: {e}"
        ))),
        Ok(mut reviews) => match reviews.pop() {
            Some(review) if review.error.is_none() => {
                finished(&game, review, "engine", Some(engine), positions, cached)
                    .map_err(|e| e.message)
            }
            Some(review) => Err(crate::api_error::engine_text(
                &program,
                &review.error.unwrap_or_default(),
            )),
            None => Err("the engine gave no review".to_owned()),
        },
    };
    let _ = lines.send(match answer {
        Ok(answer) => ndjson::line(&answer),
        Err(error) => ndjson::line(&serde_json::json!({ "error": error })),
    });
}

/// The engines of a review: as many as `tabla review` starts ([`Pool::default_size`]).
/// Blocking.
pub(crate) fn start_pool(spec: &EngineSpec) -> Result<Pool, ApiError> {
    Pool::start(spec, Pool::default_size()).map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the engine could not start: {e}"),
        )
    })
}

/// The database's evaluation folder of `config` (`tabla db review`'s, `DB/evals/<config>`), when
/// the server has a database and the folder exists.
#[cfg(feature = "db")]
fn db_evals(state: &AppState, config: &CacheConfig) -> Option<std::path::PathBuf> {
    let root = state.db.as_ref()?.database().evals_dir();
    root.join(config.dir_name()).is_dir().then_some(root)
}

/// Without the game database, no other evaluations.
#[cfg(not(feature = "db"))]
fn db_evals(_state: &AppState, _config: &CacheConfig) -> Option<std::path::PathBuf> {
    None
}

/// The one game of the body, if it can be reviewed: 400 for a damaged game (its error names
/// the move and where), a game without a start position or without moves.
fn reviewable(pgn: &[u8], origin: crate::pgn_game::Origin) -> Result<Game, ApiError> {
    let game = one_game(pgn, origin)?;
    if let Some(error) = game.error() {
        return Err(ApiError::bad_request(format!(
            "the game cannot be reviewed: {}",
            error.report()
        )));
    }
    if game.start.is_none() {
        return Err(ApiError::bad_request(
            "the game cannot be reviewed: its FEN tag is not a legal position",
        ));
    }
    if game.mainline().next().is_none() {
        return Err(ApiError::bad_request("the game has no moves to review"));
    }
    Ok(game)
}

/// The answer of a finished review: the review and the game annotated with it.
fn finished(
    game: &Game,
    review: Review,
    source: &'static str,
    engine: Option<String>,
    positions: u64,
    from_cache: u64,
) -> Result<ReviewAnswer, ApiError> {
    let pgn = annotated_pgn(game, &review).map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the review could not be written into the game: {e}"),
        )
    })?;
    Ok(ReviewAnswer {
        lines: best_lines(game, &review),
        review: Some(review),
        pgn: Some(pgn),
        source: Some(source),
        engine,
        positions,
        from_cache,
    })
}

/// The engine's line before each move of `review`, as numbered SAN (the legal part of it).
fn best_lines(game: &Game, review: &Review) -> Vec<String> {
    let Some(start) = game.start.as_ref() else {
        return Vec::new();
    };
    let befores = std::iter::once(start).chain(game.mainline().map(|n| &n.position));
    review
        .moves
        .iter()
        .zip(befores)
        .map(|(reviewed, before)| {
            let mut walk = before.clone();
            let mut moves = Vec::new();
            for uci in &reviewed.pv {
                let Ok(mv) = walk.parse_uci(uci) else { break };
                moves.push(mv);
                walk.play_unchecked(mv);
            }
            let mut text = String::new();
            let _ = before.write_variation_san(&moves, &mut text);
            text
        })
        .collect()
}

/// The game's distinct positions: the start, then after each move (a repetition counts once).
fn distinct_positions(game: &Game) -> Vec<Position> {
    let mut seen = HashSet::new();
    game.start
        .iter()
        .chain(game.mainline().map(|n| &n.position))
        .filter(|p| seen.insert(p.wide_key()))
        .cloned()
        .collect()
}

/// A yes-or-no parameter: absent, `0` or `false` is no; `1`, `true` or empty is yes.
fn flag(params: &Params, name: &str) -> Result<bool, ApiError> {
    match optional(params, name).map(str::trim) {
        None | Some("0" | "false") => Ok(false),
        Some("1" | "true" | "") => Ok(true),
        Some(other) => Err(ApiError::bad_request(format!(
            "query parameter `{name}` must be 1 or 0, not {other:?}"
        ))),
    }
}

/// Runs `work` (the cache's files, an engine's start) off the async threads.
pub(crate) async fn blocking<T, F>(work: F) -> Result<T, ApiError>
where
    F: FnOnce() -> Result<T, ApiError> + Send + 'static,
    T: Send + 'static,
{
    tokio::task::spawn_blocking(work).await.map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the review failed: {e}"),
        )
    })?
}

fn json_response(answer: &ReviewAnswer) -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        serde_json::to_string(answer).unwrap_or_default(),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::extract::Query;
    use std::collections::HashMap;

    fn params(pairs: &[(&str, &str)]) -> Params {
        Ok(Query(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect::<HashMap<_, _>>(),
        ))
    }

    #[test]
    fn flags_are_read_strictly() {
        assert_eq!(flag(&params(&[]), "cached"), Ok(false));
        assert_eq!(flag(&params(&[("cached", "1")]), "cached"), Ok(true));
        assert_eq!(flag(&params(&[("cached", "")]), "cached"), Ok(true));
        assert_eq!(flag(&params(&[("cached", "0")]), "cached"), Ok(false));
        let e = flag(&params(&[("cached", "yes")]), "cached").expect_err("yes");
        assert!(e.message.contains("cached"), "{}", e.message);
    }

    #[test]
    fn repeated_positions_count_once() {
        let pgn = b"1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 *";
        let game = one_game(pgn, crate::pgn_game::Origin::default()).expect("a game");
        // start, Nf3, Nf6, Ng1 (the start with Black to move), Ng8 (the start again), Nf3 again.
        assert_eq!(distinct_positions(&game).len(), 4);
    }
}
