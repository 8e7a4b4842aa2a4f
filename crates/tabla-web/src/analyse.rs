//! `GET /api/analyse`: live analysis of a position, streamed as Server-Sent Events until the
//! client goes away; and `GET /api/engine`: which engine analyses, and how many analyses run.
//!
//! The search runs on a blocking thread with one engine of [`LiveEngines`](crate::LiveEngines); it reports every
//! line into a [`watch`] channel, and the stream sends the latest lines every [`TICK`] when they
//! changed, and at least every [`HEARTBEAT`] (with the time searched). When the client closes the
//! stream (stop, another position, the page closed), the stream is dropped, which raises the
//! search's [`StopSignal`]; the engine goes back to the idle ones once its search has ended.

use crate::api_error::ApiError;
use crate::live::Reservation;
use crate::notation::MoveNotations;
use crate::query::{Params, PlayedLine, line_param, optional};
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::sse::{Event, Sse};
use futures_util::stream::{self, Stream};
use serde::Serialize;
use std::convert::Infallible;
use std::time::{Duration, Instant};
use tabla::Position;
use tabla_analysis::{Budget, LatestLines, Line, Request, StopSignal};
use tabla_engine::ScoreBound;
use tabla_pgn::Eval;
use tabla_review::win_percent;
use tokio::sync::watch;

/// The most lines (`multipv`) an analysis may ask for.
pub const MAX_MULTIPV: usize = 5;
/// How often the stream looks for new lines.
pub const TICK: Duration = Duration::from_millis(100);
/// The longest time between two events while the search runs.
pub const HEARTBEAT: Duration = Duration::from_millis(250);

/// `GET /api/engine`: the engine of live analysis and game reviews.
#[derive(Serialize, Debug)]
pub struct EngineJson {
    /// Its name as it gives it (`Stockfish 15.1`, `tabla 0.1.0+0024d908`).
    pub name: String,
    /// Its program's path, or `in process` for tabla's own.
    pub path: String,
    /// Live analyses running now (until their search has ended).
    pub running: usize,
    /// The most live analyses at once; more are answered 429.
    pub limit: usize,
    /// The most lines one analysis may ask for.
    pub max_multipv: usize,
}

/// One line of an analysis event.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct LiveLineJson {
    /// Its rank, from 1 (the best).
    pub multipv: usize,
    /// The evaluation from White's point of view: `{"cp": 35}` or `{"mate": -3}`.
    pub eval: Eval,
    /// White's winning chances as lichess draws its evaluation bar: `50 + 50 * w(cp)`, from 0
    /// to 100 ([`tabla_review::win_percent`]).
    pub win: f64,
    /// `"lower"` or `"upper"` when the engine gave only a bound; absent for an exact score.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bound: Option<&'static str>,
    /// The nominal depth in plies.
    pub depth: u32,
    /// The deepest ply reached, when the engine says.
    pub seldepth: Option<u32>,
    /// The moves, from the analysed position.
    pub moves: Vec<MoveNotations>,
    /// The moves as numbered SAN (`40. Bh6 Qd1 41. Qxf7+`).
    pub line: String,
}

/// The data of an analysis event (`event: lines`, and the last one, `event: done`).
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct AnalyseJson {
    /// The position analysed (canonical FEN).
    pub fen: String,
    /// The lines so far, best first.
    pub lines: Vec<LiveLineJson>,
    /// Nodes searched so far, when the engine says.
    pub nodes: Option<u64>,
    /// Nodes per second, when the engine says.
    pub nps: Option<u64>,
    /// Milliseconds since the search started.
    pub elapsed_ms: u64,
    /// `true` on the last event: the search ended by itself (or failed: `error`).
    pub done: bool,
    /// Why the analysis failed (the engine crashed, for instance), on the last event.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The engine that searches, by the name it gives (`Stockfish 15.1`, `tabla 0.1.0+…`).
    pub engine: String,
}

/// What the search has found so far, as the search thread leaves it for the stream.
#[derive(Clone, Debug)]
struct Found {
    /// The lines reported, and the most the analysis asked for.
    lines: LatestLines,
    wanted: usize,
    nps: Option<u64>,
    /// Set when the search has ended: `Some(None)` by itself, `Some(Some(why))` failed.
    ended: Option<Option<String>>,
}

impl Found {
    fn new(wanted: usize) -> Found {
        Found {
            lines: LatestLines::default(),
            wanted,
            nps: None,
            ended: None,
        }
    }

    /// Takes in a line the engine reported ([`LatestLines::record`]).
    fn report(&mut self, line: &Line) {
        self.nps = line.nps.or(self.nps);
        self.lines.record(line.clone(), self.wanted);
    }
}

/// Reads `multipv`: 1 (the default) to [`MAX_MULTIPV`].
pub fn multipv_param(value: Option<&str>) -> Result<usize, ApiError> {
    let Some(text) = value else {
        return Ok(1);
    };
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_MULTIPV).contains(&n) => Ok(n),
        _ => Err(ApiError::bad_request(format!(
            "multipv {text:?} is not a number of lines from 1 to {MAX_MULTIPV}"
        ))),
    }
}

/// `GET /api/engine`.
pub async fn engine(State(state): State<AppState>) -> Json<EngineJson> {
    let live = &state.live;
    let id = live.id();
    Json(EngineJson {
        name: id.label().to_owned(),
        path: id.path.clone(),
        running: live.running(),
        limit: live.limit(),
        max_multipv: MAX_MULTIPV,
    })
}

/// `GET /api/analyse?fen=F[&moves=M1 M2 ...][&multipv=N]`: the engine searches the position
/// reached (the moves count for repetitions) without end, and the stream carries its best `N`
/// lines until the client closes it. 400 for a bad FEN, move or `multipv`, or a position
/// without a legal move; 429 when [`LiveEngines::limit`](crate::LiveEngines::limit) analyses run already.
pub async fn analyse(
    State(state): State<AppState>,
    params: Params,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let PlayedLine { reached, .. } = line_param(&params)?;
    let multipv = multipv_param(optional(&params, "multipv"))?;
    if reached.count_legal_moves() == 0 {
        let why = if reached.is_check() {
            "checkmate"
        } else {
            "stalemate"
        };
        return Err(ApiError::bad_request(format!(
            "nothing to analyse: the position is {why}"
        )));
    }
    let reservation = state.live.reserve().ok_or_else(|| {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "{} live analyses run already (the most at once); stop one and try again",
                state.live.limit()
            ),
        )
    })?;
    let (sender, receiver) = watch::channel(Found::new(multipv));
    let stop = StopSignal::new();
    let request = Request::new(reached.clone(), Budget::Infinite).with_multipv(multipv);
    let searching = stop.clone();
    tokio::task::spawn_blocking(move || search(reservation, &request, &searching, &sender));
    let engine = state.live.id().label().to_owned();
    Ok(Sse::new(events(reached, receiver, stop, engine)))
}

/// The search thread: borrows an engine, searches until stopped, and says how it ended.
fn search(
    mut reservation: Reservation,
    request: &Request,
    stop: &StopSignal,
    found: &watch::Sender<Found>,
) {
    let outcome = match reservation.engine() {
        Err(e) => Err(*e),
        Ok(engine) => engine.analyse(request, stop, &mut |line| {
            found.send_modify(|f| f.report(line));
        }),
    };
    let error = match outcome {
        Ok(_) => None,
        Err(e) => {
            if e.is_fault() {
                reservation.discard();
            }
            Some(reservation.error_text(&e))
        }
    };
    // The engine goes back (and the place is freed) before the stream hears of the end, so
    // that a client that saw `done` finds the analysis no longer running.
    drop(reservation);
    found.send_modify(|f| f.ended = Some(error));
}

/// Raises the stop signal when the stream is dropped (the client went away).
struct StopOnDrop(StopSignal);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// The stream of events: the lines when they change (at most every [`TICK`]) or every
/// [`HEARTBEAT`], then a last `done` event when the search ends by itself.
fn events(
    position: Position,
    receiver: watch::Receiver<Found>,
    stop: StopSignal,
    engine: String,
) -> impl Stream<Item = Result<Event, Infallible>> {
    struct Streaming {
        engine: String,
        position: Position,
        fen: String,
        receiver: watch::Receiver<Found>,
        _stop: StopOnDrop,
        started: Instant,
        last_sent: Option<Instant>,
        finished: bool,
    }
    let start = Streaming {
        engine,
        fen: position.to_fen(),
        position,
        receiver,
        _stop: StopOnDrop(stop),
        started: Instant::now(),
        last_sent: None,
        finished: false,
    };
    stream::unfold(start, |mut s| async move {
        if s.finished {
            return None;
        }
        if let Some(sent) = s.last_sent {
            // Not more often than every TICK.
            let pause = TICK.saturating_sub(sent.elapsed());
            if !pause.is_zero() {
                tokio::time::sleep(pause).await;
            }
        }
        // Wait for news, but no longer than the heartbeat allows.
        let due = s
            .last_sent
            .map_or(HEARTBEAT, |t| HEARTBEAT.saturating_sub(t.elapsed()));
        let closed = matches!(
            tokio::time::timeout(due, s.receiver.changed()).await,
            Ok(Err(_))
        );
        let found = s.receiver.borrow_and_update().clone();
        let ended = match (&found.ended, closed) {
            (Some(error), _) => Some(error.clone()),
            // The search thread is gone without a word (it panicked).
            (None, true) => Some(Some("the search failed".to_owned())),
            (None, false) => None,
        };
        let done = ended.is_some();
        let data = AnalyseJson {
            fen: s.fen.clone(),
            lines: lines_json(&s.position, &found),
            nodes: found.lines.nodes(),
            nps: found.nps,
            elapsed_ms: elapsed_ms(s.started),
            done,
            error: ended.flatten(),
            engine: s.engine.clone(),
        };
        s.last_sent = Some(Instant::now());
        s.finished = done;
        let event = Event::default()
            .event(if done { "done" } else { "lines" })
            .json_data(data)
            .unwrap_or_default();
        Some((Ok(event), s))
    })
}

fn elapsed_ms(since: Instant) -> u64 {
    u64::try_from(since.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// The lines found, best first, as JSON.
fn lines_json(position: &Position, found: &Found) -> Vec<LiveLineJson> {
    let turn = position.turn();
    found
        .lines
        .shown()
        .iter()
        .map(|line| {
            let mut moves = Vec::with_capacity(line.pv.len());
            let mut at = position.clone_without_history();
            for &mv in &line.pv {
                moves.push(MoveNotations::of(&at, mv));
                at.play_unchecked(mv);
            }
            LiveLineJson {
                multipv: line.multipv,
                eval: line.eval(turn),
                win: win_percent(line.eval(turn)),
                bound: match line.bound {
                    ScoreBound::Exact => None,
                    ScoreBound::Lower => Some("lower"),
                    ScoreBound::Upper => Some("upper"),
                },
                depth: line.depth,
                seldepth: line.seldepth,
                moves,
                // The moves were checked legal in turn when the line was read.
                line: position.variation_san(&line.pv).unwrap_or_default(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multipv_is_read_within_its_range() {
        assert_eq!(multipv_param(None), Ok(1));
        assert_eq!(multipv_param(Some("3")), Ok(3));
        assert_eq!(multipv_param(Some("5")), Ok(5));
        for bad in ["0", "6", "-1", "two", "", "1.5"] {
            let e = multipv_param(Some(bad)).expect_err(bad);
            assert_eq!(e.status, StatusCode::BAD_REQUEST, "{bad}");
            assert!(e.message.contains("multipv"), "{bad}: {}", e.message);
        }
    }

    /// A line of `depth` starting with `uci` from the start position.
    fn line(multipv: usize, depth: u32, uci: &str) -> Line {
        let start = Position::startpos();
        Line {
            multipv,
            score: tabla_engine::Score::Cp(10 * i32::try_from(depth).unwrap_or(0)),
            bound: ScoreBound::Exact,
            depth,
            seldepth: None,
            nodes: Some(1000),
            nps: None,
            time: None,
            pv: vec![start.parse_uci(uci).expect("test move")],
        }
    }

    /// Between two iterations the latest report of each rank mixes depths; the lines sent never
    /// repeat a first move, and the next iteration's lines replace them once all have come.
    #[test]
    fn lines_between_iterations_never_repeat_a_first_move() {
        let start = Position::startpos();
        let mut found = Found::new(3);
        for (rank, uci) in [(1, "e2e4"), (2, "d2d4"), (3, "g1f3")] {
            found.report(&line(rank, 10, uci));
        }
        let firsts = |found: &Found| -> Vec<(usize, String, u32)> {
            lines_json(&start, found)
                .into_iter()
                .map(|l| (l.multipv, l.moves[0].uci.clone(), l.depth))
                .collect()
        };
        let shown = |lines: [(&str, u32); 3]| -> Vec<(usize, String, u32)> {
            (1..)
                .zip(lines)
                .map(|(rank, (uci, depth))| (rank, uci.to_owned(), depth))
                .collect()
        };
        assert_eq!(
            firsts(&found),
            shown([("e2e4", 10), ("d2d4", 10), ("g1f3", 10)])
        );
        // Depth 11's lines come one by one; each step shows three distinct first moves.
        let steps = [
            ((1, "d2d4"), [("d2d4", 11), ("e2e4", 10), ("g1f3", 10)]),
            ((2, "g1f3"), [("d2d4", 11), ("g1f3", 11), ("e2e4", 10)]),
            ((3, "c2c4"), [("d2d4", 11), ("g1f3", 11), ("c2c4", 11)]),
        ];
        for ((rank, uci), expected) in steps {
            found.report(&line(rank, 11, uci));
            assert_eq!(firsts(&found), shown(expected), "after rank {rank}");
        }
    }
}
