//! # tabla-engine — search, evaluation and the UCI protocol
//!
//! A chess engine over the [`tabla`] game model: iterative deepening with aspiration windows,
//! principal variation search with a transposition table, null-move pruning, late-move
//! reductions, check extensions and a quiescence search, on one thread or several sharing the
//! hash table ([`Engine::set_threads`]); a tapered evaluation (material,
//! piece-square tables, mobility, pawn structure, king safety, endgame knowledge); the UCI
//! protocol ([`uci::run`]); a one-shot search that reports in SAN ([`go()`]); and a fixed
//! benchmark whose node count is a regression signature ([`bench::run`]).
//!
//! ```
//! use tabla::Position;
//! use tabla_engine::{Control, Engine, Limits};
//!
//! let pos = Position::from_fen("6k1/p2q1b2/2n2Qp1/1p2p3/4P3/2P1B3/5R1K/8 w - - 1 40").unwrap();
//! let mut engine = Engine::new();
//! let result = engine.search(&pos, &Limits::depth(10), &Control::default(), &mut |info| {
//!     println!("{}", info.uci_line(false));
//! });
//! assert_eq!(pos.san(result.best.unwrap()), "Bh6");
//! ```
//!
//! Exact endgame knowledge plugs in through [`EndgameOracle`]; [`EndgameTables`] provides it from
//! `tabla-endgame`'s KBNK (and KQK, KRK) tables.

pub mod bench;
// Public until `gives_check` moves to the `tabla` crate.
pub mod check;
mod correction;
mod endgame;
mod engine;
mod evaluate;
mod go;
mod info;
mod king_safety;
mod limits;
mod nnue;
mod oracle;
mod ordering;
mod params;
mod pawns;
mod pst;
mod score;
mod search;
mod see;
mod tables;
mod tapered;
mod tt;
mod tuned;
pub mod tuning;
pub mod uci;
mod weights;

pub use engine::{
    DEFAULT_HASH_MIB, Engine, MAX_HASH_MIB, MAX_MULTIPV, MAX_THREADS, SEARCH_STACK_BYTES,
};
pub use go::go;
pub use info::{Info, ScoreBound, SearchResult};
pub use limits::{GoError, Limits};
pub use oracle::{EndgameOracle, OracleValue};
pub use score::{Score, Value};
pub use search::Control;
pub use tables::EndgameTables;
