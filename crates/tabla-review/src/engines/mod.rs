//! The engine layer: one interface ([`Analyser`]) to tabla's own engine in process
//! ([`TablaAnalyser`]) and to any UCI program ([`UciEngine`]), and a [`Pool`] of either.
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
//! again, and a pool retries the position once. No engine process outlives tabla (see
//! `process.rs`).

mod analyser;
mod analysis;
mod engine_spec;
mod error;
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
pub use engine_spec::EngineSpec;
pub use error::{EngineError, EngineId, IllegalMove, Said};
pub use in_process::TablaAnalyser;
pub use pool::{JobResult, Pool, PoolCanceller};
pub use request::{Budget, BudgetError, Request};
pub use uci_engine::UciEngine;
pub use uci_option::{OptionKind, UciOption};
pub use uci_spec::{OptionSyntaxError, Timeouts, UciSpec};
