//! # tabla-analysis — one engine layer for every caller
//!
//! One interface ([`Analyser`]) to tabla's own engine in process ([`TablaAnalyser`]) and to any
//! UCI program ([`UciEngine`], configured by a [`UciSpec`]), an [`EngineSpec`] naming either, and
//! a [`Pool`] of them. Reviews (tabla-review), live analysis and suggestions (tabla-web),
//! `tabla go`, `tabla db review` and Python all reach engines through this crate.
//!
//! ```
//! use tabla::Position;
//! use tabla_analysis::{Analyser, Budget, Request, StopSignal, TablaAnalyser};
//! let mut engine = TablaAnalyser::new();
//! let position = Position::from_fen("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1").unwrap();
//! let request = Request::new(position, Budget::Depth(4));
//! let analysis = engine.analyse(&request, &StopSignal::new(), &mut |_| {}).unwrap();
//! // The back-rank mate: Ra8#, mate in one for White, the side to move.
//! assert_eq!(analysis.best().unwrap().score, tabla_engine::Score::Mate(1));
//! ```
//!
//! A [`Request`] (a position with the moves that led to it, a [`Budget`], how many lines)
//! becomes an [`Analysis`]: one [`Line`] per principal variation with its score (the side to
//! move's view, with its bound), depth, node count and moves checked legal. Lines are also
//! handed to a callback as the engine reports them, and a [`StopSignal`] ends a search from
//! another thread, which is what a live analysis needs; a game's or a database's review hands
//! its positions to a [`Pool`].
//!
//! UCI engines are held to the protocol: a crash, a hang past the [`Timeouts`] derived from the
//! budget, a line that is not UCI or an illegal move gets the process killed and an
//! [`EngineError`] that names the engine and quotes what it said; the next search starts it
//! again, and a pool retries the position once unless it hung. No engine process outlives tabla.
//!
//! ## Inside the crate
//!
//! | module | holds |
//! |---|---|
//! | `analyser.rs` | `Analyser`, the one interface; `StopSignal` |
//! | `in_process.rs` | `TablaAnalyser`: tabla's engine on one search thread |
//! | `uci_engine.rs` | `UciEngine`: handshake, options checked against the engine's list, `position`/`isready`/`go` |
//! | `uci_message.rs` | the engine's `info` and `bestmove` lines read, moves checked legal |
//! | `uci_option.rs` | `UciOption`, `OptionKind`: an engine's declared options |
//! | `uci_spec.rs` | `UciSpec`: a program, its arguments and options; `Timeouts` derived from a budget |
//! | `request.rs` | `Request`, `Budget`, `BudgetError` |
//! | `analysis.rs` | `Line`, `Analysis`, `LatestLines` |
//! | `error.rs` | `EngineError`, `EngineId`, `Said`, `IllegalMove`: faults that name the engine and quote it |
//! | `engine_spec.rs` | `EngineSpec`: which engine |
//! | `go.rs` | `go`: one search for people (`tabla go`), progress and the line in SAN |
//! | `engine_config.rs` | `EngineChoice`: the engine a user chose (`--engine`, else `$TABLA_ENGINE`, else `engine.toml` in tabla's configuration directory, else tabla's own); `EngineConfig`, the file; `stockfish_on_path` |
//! | `pool.rs` | `Pool`: N engines on one queue, a fault other than a hang retried once on a fresh process; `PoolCanceller`, `JobResult` |
//! | `process.rs` | the child process: reader and writer threads, killed on drop, `PR_SET_PDEATHSIG` on Linux |
//!
//! Tests drive fake engines (`tests/fake_engines/*.py`, also used by tabla-review's, tabla-cli's
//! and tabla-web's tests) and Debian's Stockfish.

mod analyser;
mod analysis;
mod engine_config;
mod engine_spec;
mod error;
mod go;
mod in_process;
mod pool;
mod process;
mod request;
mod uci_engine;
mod uci_message;
mod uci_option;
mod uci_spec;

pub use analyser::{Analyser, StopSignal};
pub use analysis::{Analysis, LatestLines, Line};
pub use engine_config::{
    CONFIG_FILE, ChosenBy, ConfigError, ENGINE_VARIABLE, EngineChoice, EngineConfig, TABLA_ENGINE,
    stockfish_on_path,
};
pub use engine_spec::EngineSpec;
pub use error::{EngineError, EngineId, IllegalMove, Said};
pub use go::{GoError, go};
pub use in_process::TablaAnalyser;
pub use pool::{JobResult, Pool, PoolCanceller, Received};
pub use request::{Budget, BudgetError, DEFAULT_MOVETIME, Request};
pub use uci_engine::UciEngine;
#[cfg(fuzzing)]
pub use uci_message::fuzz_engine_line;
pub use uci_option::{OptionKind, UciOption};
pub use uci_spec::{OptionSyntaxError, Timeouts, UciSpec};
