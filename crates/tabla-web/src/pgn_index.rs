//! `POST /api/pgn/index`: the list of a PGN's games, without their moves: per game its byte
//! range in the body, the tags the game list shows, the result, the error and the warnings.
//!
//! Every game is replayed (errors and warnings need the moves played), but nothing of the
//! moves is kept, so the answer is small and the client asks for a game's moves when it is
//! opened (`POST /api/pgn/game`, [`crate::pgn_game`]). Bodies of a few megabytes are read on
//! several threads, cut where games start ([`Reader::range`]), which gives the same games as
//! one reader over the whole body.

use crate::api_error::ApiError;
use crate::pgn_body::{pgn_body, read_blocking};
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use std::io::{self, Cursor};
use std::sync::atomic::{AtomicUsize, Ordering};
use tabla_pgn::{
    GameStart, Location, MAX_TREE_DEPTH, Outcome, PgnError, RawTag, Reader, ReplayVisitor,
    Replayer, Skip,
};

/// The tags an index entry carries (when the game has them), in this order.
pub const LISTED_TAGS: [&str; 6] = ["Event", "Site", "Date", "Round", "White", "Black"];

/// Bodies shorter than this are read on one thread.
const PARALLEL_FROM: usize = 1 << 20;

/// The most threads one body is read on.
const MAX_THREADS: usize = 8;

/// The most games one index lists: a body with more is refused (413) rather than answered
/// with hundreds of megabytes (a body of tiny games, two bytes each, would otherwise cost
/// gigabytes). A database (`tabla db import`, `tabla serve --db`) takes files of any size.
pub const MAX_INDEX_GAMES: usize = 100_000;

/// The warnings one game of the index lists; the rest are counted in a last warning, and all
/// of them are in the game when it is opened (`POST /api/pgn/game`).
pub const MAX_LISTED_WARNINGS: usize = 10;

/// The warnings one index lists in all, over its games; past them each game's are counted.
pub const MAX_INDEX_WARNINGS: usize = 50_000;

/// One game of the index, as the reader met it.
#[derive(Debug)]
struct Entry {
    /// Where the game's first token is (offset, line and column in the whole body).
    location: Location,
    /// The listed tags present, first value of each.
    tags: Vec<(&'static str, String)>,
    /// The result, as [`tabla_pgn::game_result`] decides it (what [`tabla_pgn::Game::result`]
    /// says).
    result: Outcome,
    /// Mainline moves played.
    plies: usize,
    /// At most one error and the first [`MAX_LISTED_WARNINGS`] warnings, as the game tree
    /// gets them.
    problems: Vec<PgnError>,
    /// Warnings met but not kept in `problems`.
    more_warnings: usize,
}

/// A [`ReplayVisitor`] that keeps an [`Entry`] per game: the moves are replayed (variations
/// too, for their warnings) and forgotten.
#[derive(Debug)]
struct IndexVisitor<'a> {
    depth: usize,
    entry: Entry,
    /// Warnings kept so far by every reader of the body, against [`MAX_INDEX_WARNINGS`].
    kept: &'a AtomicUsize,
}

impl Entry {
    fn new() -> Entry {
        Entry {
            location: Location::default(),
            tags: Vec::new(),
            result: Outcome::Unknown,
            plies: 0,
            problems: Vec::new(),
            more_warnings: 0,
        }
    }
}

impl IndexVisitor<'_> {
    fn new(kept: &AtomicUsize) -> IndexVisitor<'_> {
        IndexVisitor {
            depth: 0,
            entry: Entry::new(),
            kept,
        }
    }
}

impl ReplayVisitor for IndexVisitor<'_> {
    type Output = Entry;

    fn begin_game(&mut self, start: GameStart) {
        self.depth = 0;
        self.entry = Entry::new();
        self.entry.location = start.location;
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
        let Some(listed) = LISTED_TAGS.iter().find(|t| t.as_bytes() == name) else {
            return;
        };
        if self.entry.tags.iter().all(|(t, _)| t != listed) {
            self.entry.tags.push((listed, value.decode().into_owned()));
        }
    }

    fn end_tags(&mut self) -> Skip {
        Skip(false)
    }

    fn after_move(&mut self, _pos: &tabla::Position) {
        if self.depth == 0 {
            self.entry.plies += 1;
        }
    }

    fn begin_variation(&mut self) -> Skip {
        self.depth += 1;
        Skip(false)
    }

    fn end_variation(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    fn result(&mut self, result: Outcome) {
        self.entry.result = result;
    }

    fn error(&mut self, error: PgnError) {
        if !error.is_warning() {
            self.entry.problems.push(error);
            return;
        }
        let listed = self
            .entry
            .problems
            .iter()
            .filter(|p| p.is_warning())
            .count();
        if listed < MAX_LISTED_WARNINGS
            && self.kept.fetch_add(1, Ordering::Relaxed) < MAX_INDEX_WARNINGS
        {
            self.entry.problems.push(error);
        } else {
            self.entry.more_warnings += 1;
        }
    }

    fn end_game(&mut self) -> Entry {
        std::mem::replace(&mut self.entry, Entry::new())
    }
}

/// The error of an index with more than [`MAX_INDEX_GAMES`] games.
fn too_many_games() -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!(
            "more than {MAX_INDEX_GAMES} games in one body: the PGN browser lists at most \
             {MAX_INDEX_GAMES}; `tabla db import FILE --db DIR` and `tabla serve --db DIR` browse \
             files of any size"
        ),
    )
}

/// The games of one reader, in order; every reader of a body counts its games in `games`
/// and stops once they are more than [`MAX_INDEX_GAMES`].
fn read_entries<R: io::Read>(
    mut reader: Reader<R>,
    games: &AtomicUsize,
    kept: &AtomicUsize,
) -> io::Result<Vec<Entry>> {
    // The same depth limit as the game tree, so the problems are the same.
    let mut visitor = Replayer::new(IndexVisitor::new(kept)).with_max_depth(MAX_TREE_DEPTH);
    let mut entries = Vec::new();
    while let Some(entry) = reader.read_game(&mut visitor)? {
        if games.fetch_add(1, Ordering::Relaxed) >= MAX_INDEX_GAMES {
            return Err(too_many_games());
        }
        entries.push(entry);
    }
    Ok(entries)
}

/// The games of `pgn` read on up to `threads` threads, numbered and located as one reader over
/// the whole of `pgn` would.
fn entries(pgn: &[u8], threads: usize) -> io::Result<Vec<Entry>> {
    let threads = threads
        .clamp(1, MAX_THREADS)
        .min(pgn.len() / PARALLEL_FROM + 1);
    let (games, kept) = (AtomicUsize::new(0), AtomicUsize::new(0));
    if threads == 1 {
        return read_entries(Reader::new(pgn), &games, &kept);
    }
    let len = pgn.len() as u64;
    let cuts: Vec<u64> = (0..=threads as u64)
        .map(|k| len * k / threads as u64)
        .collect();
    let parts: Vec<io::Result<Vec<Entry>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = cuts
            .windows(2)
            .map(|w| {
                let (start, end) = (w[0], w[1]);
                let (games, kept) = (&games, &kept);
                scope.spawn(move || {
                    read_entries(Reader::range(Cursor::new(pgn), start, end)?, games, kept)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(io::Error::other("a reading thread panicked")))
            })
            .collect()
    });
    // A range's reader numbers its games from 1 and its lines from its first game's line.
    let mut all = Vec::new();
    for part in parts {
        let mut part = part?;
        let games_before = all.len() as u64;
        if let Some(first) = part.first() {
            let at = usize::try_from(first.location.offset).unwrap_or(pgn.len());
            let newlines = pgn[..at.min(pgn.len())]
                .iter()
                .filter(|&&b| b == b'\n')
                .count() as u64;
            let lines_before = (newlines + 1).saturating_sub(first.location.line);
            for entry in &mut part {
                entry.location.line += lines_before;
                for p in &mut entry.problems {
                    p.game += games_before;
                    p.location.line += lines_before;
                }
            }
        }
        all.append(&mut part);
    }
    Ok(all)
}

/// The game's tags as a JSON object.
struct Tags<'a>(&'a [(&'static str, String)]);

impl Serialize for Tags<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (name, value) in self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

/// One game of the answer.
#[derive(Serialize)]
struct IndexGame<'a> {
    index: usize,
    start: u64,
    end: u64,
    line: u64,
    column: u64,
    tags: Tags<'a>,
    result: &'a str,
    plies: usize,
    error: Option<String>,
    warnings: Vec<String>,
}

/// The answer of `POST /api/pgn/index`.
#[derive(Serialize)]
struct IndexAnswer<'a> {
    games: Vec<IndexGame<'a>>,
    errors: usize,
    warnings: usize,
    bytes: usize,
}

/// The index of `pgn` as JSON, read on up to `threads` threads: see the API table in the
/// crate's documentation for its fields.
///
/// Game `i`'s byte range runs from where it starts to where game `i + 1` starts (the end of
/// `pgn` for the last one); the first game's starts at 0, so that a byte-order mark and
/// comments before the first tag stay with it. Reading a game's range alone gives the same
/// game as reading it in the whole text, its locations counted from `line` and `column`.
pub fn index_json(pgn: &[u8], threads: usize) -> io::Result<String> {
    let entries = entries(pgn, threads)?;
    let mut errors = 0;
    let mut warnings = 0;
    let games = entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let (start, line, column) = if i == 0 {
                (0, 1, 1)
            } else {
                (e.location.offset, e.location.line, e.location.column)
            };
            let end = entries
                .get(i + 1)
                .map_or(pgn.len() as u64, |next| next.location.offset);
            let error = e.problems.iter().find(|p| !p.is_warning());
            let mut game_warnings: Vec<String> = e
                .problems
                .iter()
                .filter(|p| p.is_warning())
                .map(PgnError::report)
                .collect();
            errors += usize::from(error.is_some());
            warnings += game_warnings.len() + e.more_warnings;
            if e.more_warnings > 0 {
                game_warnings.push(format!(
                    "and {} more {} (the game lists them all when it is opened)",
                    e.more_warnings,
                    if e.more_warnings == 1 {
                        "warning"
                    } else {
                        "warnings"
                    }
                ));
            }
            IndexGame {
                index: i,
                start,
                end,
                line,
                column,
                tags: Tags(&e.tags),
                result: e.result.as_str(),
                plies: e.plies,
                error: error.map(ToString::to_string),
                warnings: game_warnings,
            }
        })
        .collect();
    let answer = IndexAnswer {
        games,
        errors,
        warnings,
        bytes: pgn.len(),
    };
    serde_json::to_string(&answer).map_err(io::Error::other)
}

/// `POST /api/pgn/index` with the PGN text as the body: the game list (see the API table);
/// 413 when the body is over the limit.
pub async fn pgn_index(
    State(state): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body = pgn_body(&state, body)?;
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let index = read_blocking(&state, move || {
        index_json(&body, threads).map_err(|e| match e.kind() {
            io::ErrorKind::FileTooLarge => {
                ApiError::new(axum::http::StatusCode::PAYLOAD_TOO_LARGE, e.to_string())
            }
            _ => ApiError::bad_request(format!("could not read the PGN: {e}")),
        })
    })
    .await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], index).into_response())
}
