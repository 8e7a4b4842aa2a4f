//! # tabla-engine — search, evaluation and the UCI protocol
//!
//! A chess engine over the [`tabla`] game model: iterative deepening with aspiration windows,
//! principal variation search with a transposition table, null-move pruning, late-move
//! reductions, check extensions and a quiescence search, on one thread or several sharing the
//! hash table ([`Engine::set_threads`]); a static evaluation (below); the UCI protocol
//! ([`uci::run`]); a one-shot search that reports in SAN ([`go()`]); and a fixed benchmark whose
//! node count is a regression signature ([`bench::run`]).
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
//! ## The evaluation
//!
//! A position's static value has two parts. The hand-written evaluation (`evaluate.rs` and the
//! modules it calls) blends a middlegame and an endgame score by the material left: material,
//! piece-square tables, mobility, pawn structure, passed pawns, threats, king safety, and endgame
//! knowledge (driving a bare king to the edge, material that cannot win). Its weights were fitted
//! to Stockfish's scores by `examples/tune.rs`.
//!
//! The evaluation network (`nnue.rs`, an NNUE: an efficiently updatable neural network) corrects
//! it. Its integer weights are the file `src/net.nnue`, built into the binary and trained by
//! `examples/nnue_train.rs` on positions Stockfish scored: 768 inputs (each side's pieces by kind
//! and square) into 128 clipped units for each side's view, and one output. The static value is
//! the hand-written evaluation times a fitted weight plus that output, except where the
//! hand-written evaluation alone knows better (insufficient material, a bare king); the search
//! then adds what its correction history learnt. The network's first layer is brought up to date
//! by each move made on the search path, so a node pays only for the output layer. Because the
//! network was fitted to the hand-written evaluation in the tree, retuning one calls for training
//! the other again; the [`tuning`] module holds what the two tools need.
//!
//! Exact endgame knowledge plugs in through [`EndgameOracle`]; [`EndgameTables`] provides it from
//! `tabla-endgame`'s KBNvK, KQvK and KRvK tables (solved in memory) and, when given one, a tablebase directory of
//! every ending of up to five men, honouring the fifty-move rule ([`OracleValue::in_time`]).
//! `tabla bench` searches without any of them, so that its node count does not depend on which
//! tables are installed.

pub mod bench;
mod check;
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
