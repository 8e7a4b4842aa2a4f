//! `POST /api/db/review` and the filters of `GET /api/db/games`: the games they select
//! reviewed into the database's `review_games` (tabla-db's review, as `tabla db review` runs
//! it by default), streamed as NDJSON: progress lines, then the summary.
//!
//! The server's engine at the reviews' budget ([`crate::GameReviews::budget`]), lichess's
//! rules: the configuration `tabla db review` uses without options, so that the command and
//! the page share the database's `evals` and skip each other's games. It shares the one place
//! of `POST /api/review` (429 while either runs); a client that leaves cancels it, and the
//! place is given back once its engines have stopped.

use crate::api_error::ApiError;
use crate::db::database;
use crate::db_params::filters;
use crate::game_db::{GameDb, db_error};
use crate::query::Params;
use crate::review::{Cancel, CancelOnDrop, blocking, ndjson, start_pool};
use crate::state::AppState;
use axum::body::Body;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tabla_db::{DbError, Filters, ReviewCancel, ReviewWith};
use tabla_review::{Budget, EngineSpec, Pool, ReviewCounts, Rules};
use tokio::sync::{OwnedSemaphorePermit, mpsc};

/// Progress lines sent at most this often (the last one always).
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// What a run counted: games, their positions, those searched and those from the cache, games
/// that could not be reviewed.
#[derive(Serialize, Debug)]
struct Counts {
    /// Games taken up so far (those of the batch being searched included).
    games: u64,
    positions: u64,
    evaluated: u64,
    from_cache: u64,
    errors: u64,
}

impl From<&ReviewCounts> for Counts {
    fn from(c: &ReviewCounts) -> Counts {
        Counts {
            games: c.games,
            positions: c.positions,
            evaluated: c.evaluated,
            from_cache: c.from_cache,
            errors: c.errors,
        }
    }
}

/// A progress line: the counts so far, of `total` games to review.
#[derive(Serialize, Debug)]
struct ProgressLine {
    progress: Progress,
}

#[derive(Serialize, Debug)]
struct Progress {
    /// Games to review (those selected, less those reviewed before).
    total: u64,
    #[serde(flatten)]
    counts: Counts,
}

/// The last line of a run that ended: tabla-db's summary.
#[derive(Serialize, Debug)]
struct SummaryLine {
    summary: Summary,
}

#[derive(Serialize, Debug)]
struct Summary {
    /// The configuration's name (the `engine` column).
    engine: String,
    /// The rules' name (the `rules` column).
    rules: String,
    /// Games the filters select.
    selected: u64,
    /// Of them, games reviewed before (skipped).
    already: u64,
    /// What this run reviewed.
    #[serde(flatten)]
    counts: Counts,
}

impl Cancel for ReviewCancel {
    fn cancel(&self) {
        ReviewCancel::cancel(self);
    }
}

/// `POST /api/db/review` with the filters of `GET /api/db/games` as query parameters.
pub async fn review(State(state): State<AppState>, params: Params) -> Result<Response, ApiError> {
    let db = database(&state)?;
    let filters = filters(&params)?;
    filters.validate().map_err(db_error)?;
    let Some(place) = state.reviews.try_place() else {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "the engine is reviewing other games; try again when it is done",
        ));
    };
    let spec = state.live.spec().clone();
    let budget = state.reviews.budget();
    let (pool, spec) = blocking(move || Ok((start_pool(&spec)?, spec))).await?;
    let cancel = ReviewCancel::new();
    let job = Job {
        db,
        filters,
        spec,
        budget,
        cancel: cancel.clone(),
    };
    let (lines, receiver) = mpsc::unbounded_channel();
    tokio::task::spawn_blocking(move || job.run(pool, place, &lines));
    let stream = futures_util::stream::unfold(
        (receiver, CancelOnDrop(cancel)),
        |(mut receiver, guard)| async move {
            let line: String = receiver.recv().await?;
            Some((Ok::<_, Infallible>(line), (receiver, guard)))
        },
    );
    Ok((
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(stream),
    )
        .into_response())
}

/// A review run, for a blocking thread.
struct Job {
    db: Arc<GameDb>,
    filters: Filters,
    spec: EngineSpec,
    budget: Budget,
    cancel: ReviewCancel,
}

impl Job {
    /// Reviews, sending progress lines, then the summary or `{"error"}`. The engines end before
    /// the review's place is given back.
    fn run(
        self,
        mut pool: Pool,
        place: OwnedSemaphorePermit,
        lines: &mpsc::UnboundedSender<String>,
    ) {
        let mut sent: Option<Instant> = None;
        let mut last = None;
        let with = ReviewWith::Engine {
            pool: &mut pool,
            spec: &self.spec,
            budget: self.budget,
            flush_every: tabla_review::FLUSH_EVERY,
        };
        // A failed send means the client left: the stream's guard has cancelled the run.
        let reviewed = self.db.database().review_cancellable(
            &self.filters,
            with,
            Rules::Lichess,
            &self.cancel,
            &mut |counts, total| {
                let line = ProgressLine {
                    progress: Progress {
                        total,
                        counts: Counts::from(counts),
                    },
                };
                if sent.is_none_or(|at| at.elapsed() >= PROGRESS_EVERY) {
                    let _ = lines.send(ndjson(&line));
                    sent = Some(Instant::now());
                    last = None;
                } else {
                    last = Some(line);
                }
            },
        );
        drop(pool);
        drop(place);
        if let Some(line) = last {
            let _ = lines.send(ndjson(&line));
        }
        let _ = lines.send(match reviewed {
            Ok(summary) => ndjson(&SummaryLine {
                summary: Summary {
                    engine: summary.engine,
                    rules: summary.rules,
                    selected: summary.selected,
                    already: summary.already,
                    counts: Counts::from(&summary.counts),
                },
            }),
            Err(DbError::Cancelled) => {
                ndjson(&serde_json::json!({ "error": "the review was cancelled" }))
            }
            Err(e) => ndjson(&serde_json::json!({ "error": e.to_string() })),
        });
    }
}
