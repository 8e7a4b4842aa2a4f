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
//! | `GET /api/kbnk?fen=F` | `{"fen", "dtm", "plies", "stalemate", "best": {"san", "uci"} or null, "moves": [{"san", "uci", "dtm"}]}`; 4xx with `error` when not a legal KBNK position |
//! | `GET /api/suggest?fen=F&movetime=MS` | `{"fen", "best": {"san", "lan", "uci"}, "score": {"centipawns": n} or {"mate": n}, "depth", "pv": [{"san", "lan", "uci"}], "nodes", "movetime"}`: the engine's move after a search of `MS` milliseconds (default 1000, at most 10,000); the score is the side to move's; 400 for bad input or a position without moves, 429 when too many requests wait for the engine |
//! | `GET /api/sample` | the built-in sample PGN (text) |
//!
//! `dtm` follows [`tabla_endgame::Dtm`]: signed full moves from the side to move's point of view
//! (`+N` mates in `N`, `-N` is mated in `N`, `0` a draw or checkmated now); a move's `dtm` is the
//! value of the position after it, from the point of view of the side then to move.

mod api_error;
mod assets;
mod config;
mod kbnk;
mod pgn;
mod position;
mod router;
mod sample;
mod server;
mod state;
pub mod suggest;

pub use config::{DEFAULT_BODY_LIMIT, ServeConfig};
pub use router::router;
pub use sample::SAMPLE_PGN;
pub use server::{load_kbnk, serve, serve_blocking};
pub use state::AppState;
pub use suggest::{EngineSuggester, Suggester, Suggestion};
