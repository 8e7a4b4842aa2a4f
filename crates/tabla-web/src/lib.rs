//! # tabla-web — the web app: a JSON API and a browser front end
//!
//! [`serve`] runs an HTTP server (axum on tokio) with the JSON API under `/api/` and the front end
//! built from `web/` (a PGN browser, a KBNK explorer and an analysis board, on chessground),
//! embedded in the binary. [`router`] gives the same application as a [`axum::Router`] for tests
//! and embedding.
//!
//! ```no_run
//! # async fn run() -> anyhow::Result<()> {
//! use tabla_web::{ServeConfig, serve};
//! serve(ServeConfig { port: 8080, ..ServeConfig::default() }).await
//! # }
//! ```
//!
//! ## The API
//! Every answer is JSON; every error is `{"error": "..."}` with a 4xx status saying what was
//! wrong with the request. Nothing a client sends gives a 5xx.
//!
//! | route | answer |
//! |---|---|
//! | `GET /api/position?fen=F` | `{"fen", "turn", "status", "check", "legal_moves": [{"san", "lan", "uci"}]}`; 400 for an invalid FEN |
//! | `GET /api/play?fen=F&uci=M` | the same for the position after the move, plus `"played": {"san", "lan", "uci"}` |
//! | `POST /api/pgn` (PGN text) | `{"games": [...]}`, each game as [`tabla_pgn::game_json`] makes it (with `error` when damaged); 413 over the body limit |
//! | `POST /api/pgn/index` (PGN text) | the game list without moves: `{"games": [{"index", "start", "end", "line", "column", "tags", "result", "plies", "error", "warnings"}], "errors", "warnings", "bytes"}` (see below); 413 over the body limit |
//! | `POST /api/pgn/game?index=I&start=S&line=L&column=C` (one game's PGN text) | that game as [`tabla_pgn::game_json`] makes it plus `"pgn"`: the game written back in export format by [`tabla_pgn::write_game`]; 400 when the body holds no game or more than one, or for a bad parameter; 413 over the body limit |
//! | `GET /api/kbnk?fen=F` | `{"fen", "dtm", "plies", "stalemate", "best": {"san", "uci"} or null, "moves": [{"san", "uci", "dtm"}]}`; 4xx with `error` when not a legal KBNK position |
//! | `GET /api/suggest?fen=F&movetime=MS` | `{"fen", "best": {"san", "lan", "uci"}, "score": {"centipawns": n} or {"mate": n}, "depth", "pv": [{"san", "lan", "uci"}], "nodes", "movetime"}`: the engine's move after a search of `MS` milliseconds (default 1000, at most 10,000); the score is the side to move's; 400 for bad input or a position without moves, 429 when too many requests wait for the engine |
//! | `GET /api/sample` | the built-in sample PGN (text) |
//!
//! The PGN routes take UTF-8 or Latin-1 bytes (a byte-order mark and CRLF line ends are fine) and
//! share the body limit ([`DEFAULT_BODY_LIMIT`] unless the server was told otherwise).
//!
//! **The PGN index.** `POST /api/pgn/index` replays every game (for its error and warnings) but
//! answers only the list, so that a client shows it at once and asks for a game's moves when the game
//! is opened. Per game, in the order of the text:
//! - `index`: its place, from 0 (the game's number in messages is `index + 1`);
//! - `start`, `end`: its byte range in the body, `start` inclusive, `end` exclusive: from where the
//!   game starts to where the next one does (the end of the body for the last game; 0 for the first
//!   game's start, so a byte-order mark and comments before its tags stay with it). The ranges
//!   cover the body without gaps, and a range read alone gives the same game as the whole body;
//! - `line`, `column`: where `start` is (from 1);
//! - `tags`: those of `Event`, `Site`, `Date`, `Round`, `White` and `Black` the game has (the first
//!   value of a repeated tag), as an object;
//! - `result`: the termination marker, else the `Result` tag, else `*`;
//! - `plies`: the mainline moves played (up to an error);
//! - `error`: `null`, or the error that stopped the game early; `warnings`: a list of texts (what was
//!   repaired or cut short), both as in [`tabla_pgn::game_json`].
//!
//! At the top, `errors` counts the games with an error, `warnings` all warnings and `bytes` the body.
//!
//! **One game.** `POST /api/pgn/game` takes the bytes `start..end` of the text the index was made
//! from and the query parameters `index`, `start`, `line` and `column` of that game's entry
//! (each optional: 0, 0, 1, 1 by default, for a text that is a game of its own), so that the game's
//! number and the lines and columns in its `error` and `warnings` are those of the whole text: the
//! answer (less `pgn`) is the game's object in the answer of `POST /api/pgn` for the whole text. The
//! server keeps nothing between the two requests.
//!
//! `dtm` follows [`tabla_endgame::Dtm`]: signed full moves from the side to move's point of view
//! (`+N` mates in `N`, `-N` is mated in `N`, `0` a draw or checkmated now); a move's `dtm` is the
//! value of the position after it, from the point of view of the side then to move.

mod api_error;
mod assets;
mod config;
mod engine;
mod kbnk;
mod notation;
mod pgn;
mod pgn_body;
mod pgn_game;
mod pgn_index;
mod position;
mod query;
mod router;
mod sample;
mod server;
mod state;
pub mod suggest;

pub use config::{DEFAULT_BODY_LIMIT, ServeConfig};
pub use engine::{EngineSlot, EngineSuggester, Suggester, Suggestion};
pub use router::router;
pub use sample::SAMPLE_PGN;
pub use server::{load_kbnk, serve, serve_blocking};
pub use state::AppState;
