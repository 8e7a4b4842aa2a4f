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
use crate::ndjson::{self, Cancel};
use crate::query::Params;
use crate::review::{blocking, start_pool};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tabla_analysis::{Budget, EngineSpec, Pool};
use tabla_db::{DbError, Filters, ReviewCancel, ReviewWith};
use tabla_review::{ReviewCounts, Rules};
use tokio::sync::{OwnedSemaphorePermit, mpsc};

/// Progress lines sent at most this often (the last one always).
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

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
    counts: ReviewCounts,
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
    counts: ReviewCounts,
    /// What the engine did wrong, one line each (a crash and its restart, a hang).
    engine_notes: Vec<String>,
    /// Why the run stopped before its end: the engine hung (the games left wait for the next
    /// run).
    hung: Option<String>,
}

impl Cancel for ReviewCancel {
    fn cancel(&self) {
        ReviewCancel::cancel(self);
    }
}

/// Nodes a second one engine of the pool searches in a review at the default budget, measured:
/// an 82-ply game (83 positions) reviewed at 450,000 nodes a position in 9.1 to 9.7 s by two
/// engines on two cores (commit 6cfc891, `tabla review`; 9.4 s taken), so about 2.0 million.
const MEASURED_NODES_PER_SECOND: f64 = 83.0 * 450_000.0 / 9.4 / 2.0;

/// What [`plan`] answers: the games and positions a review would take up, and how long it
/// would take at the measured rate.
#[derive(Serialize, Debug)]
struct Plan {
    /// Games the filters select (those reviewed before included: the review skips them).
    games: u64,
    /// Their positions.
    positions: u64,
    /// Engines the review would run at once (one a core).
    engines: usize,
    /// Positions a second at the measured rate, for this budget and these engines; `None`
    /// for a budget in depth (no rate measured).
    positions_per_second: Option<f64>,
    /// `positions / positions_per_second`, rounded up.
    seconds: Option<u64>,
    /// Where the rate comes from.
    rate_from: &'static str,
}

/// `GET /api/db/review/plan` with the filters of `POST /api/db/review`: what that review
/// would take up (games, positions) and about how long, so that the page asks before it
/// starts. Nothing runs.
pub async fn plan(State(state): State<AppState>, params: Params) -> Result<Response, ApiError> {
    let db = database(&state)?;
    let filters = filters(&params)?;
    let budget = state.reviews.budget();
    let plan = db
        .query(move |db| db.review_plan(&filters).map_err(db_error))
        .await?;
    let engines = Pool::default_size().max(1);
    let per_position = match budget {
        Budget::Nodes(n) => Some(n as f64 / MEASURED_NODES_PER_SECOND),
        Budget::MoveTime(t) => Some(t.as_secs_f64()),
        Budget::Depth(_) | Budget::Infinite => None,
    };
    let positions_per_second = per_position
        .filter(|s| *s > 0.0)
        .map(|s| engines as f64 / s);
    let answer = Plan {
        games: plan.games,
        positions: plan.positions,
        engines,
        positions_per_second,
        seconds: positions_per_second.map(|r| (plan.positions as f64 / r).ceil() as u64),
        rate_from: "about 2.0 million nodes a second an engine (an 82-ply game at 450,000 nodes \
                    a position in 9.4 s on two cores), one engine a core",
    };
    Ok(axum::Json(answer).into_response())
}

/// `POST /api/db/review` with the filters of `GET /api/db/games` as query parameters.
pub async fn review(State(state): State<AppState>, params: Params) -> Result<Response, ApiError> {
    let db = database(&state)?;
    let filters = filters(&params)?;
    filters.validate().map_err(db_error)?;
    // A review of every game takes hours on a large database: it must be asked for.
    let all = crate::query::optional(&params, "all");
    if filters == tabla_db::Filters::default() && all != Some("1") {
        return Err(ApiError::bad_request(
            "no filter given: a review of the whole database needs `all=1`",
        ));
    }
    if let Some(other) = all.filter(|a| *a != "1") {
        return Err(ApiError::bad_request(format!(
            "query parameter `all` is 1, not {other:?}"
        )));
    }
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
    Ok(ndjson::stream(receiver, cancel))
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
        let reviewed = self.db.fresh().and_then(|db| {
            db.review_cancellable(
                &self.filters,
                with,
                Rules::Lichess,
                &self.cancel,
                &mut |counts, total| {
                    let line = ProgressLine {
                        progress: Progress {
                            total,
                            counts: *counts,
                        },
                    };
                    if sent.is_none_or(|at| at.elapsed() >= PROGRESS_EVERY) {
                        let _ = lines.send(ndjson::line(&line));
                        sent = Some(Instant::now());
                        last = None;
                    } else {
                        last = Some(line);
                    }
                },
            )
        });
        let program = pool.engine().path.clone();
        drop(pool);
        drop(place);
        let shown = |text: &str| crate::api_error::engine_text(&program, text);
        if let Some(line) = last {
            let _ = lines.send(ndjson::line(&line));
        }
        let _ = lines.send(match reviewed {
            Ok(summary) => ndjson::line(&SummaryLine {
                summary: Summary {
                    engine: summary.engine,
                    rules: summary.rules,
                    selected: summary.selected,
                    already: summary.already,
                    counts: summary.counts,
                    engine_notes: summary.engine_notes.iter().map(|n| shown(n)).collect(),
                    hung: summary.hung.as_deref().map(shown),
                },
            }),
            Err(DbError::Cancelled) => {
                ndjson::line(&serde_json::json!({ "error": "the review was cancelled" }))
            }
            Err(e) if e.is_usage() => ndjson::line(&serde_json::json!({ "error": e.to_string() })),
            Err(e) => {
                let told = crate::api_error::failure_answer(&format!("the review failed: {e}"));
                ndjson::line(&serde_json::json!({ "error": told }))
            }
        });
    }
}
