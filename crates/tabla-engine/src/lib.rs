//! # tabla-engine — search, evaluation and the UCI protocol
//!
//! A chess engine over the [`tabla`] game model: iterative deepening with aspiration windows,
//! principal variation search with a transposition table, null-move pruning, late-move
//! reductions, check extensions and a quiescence search, on one thread or several sharing the
//! hash table ([`Engine::set_threads`]); a static evaluation (below); weaker play on request
//! ([`Skill`]: UCI's `Skill Level` and `UCI_Elo`); the UCI protocol ([`uci::run`], Chess960
//! castling with [`CastlingNotation`]); and a fixed benchmark whose node count is a regression signature ([`bench::run`]).
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
//! and square) into 128 clipped units for each side's view, then both a linear output and a second
//! layer of 32 clipped units with its own output, summed. The static value is
//! the hand-written evaluation times a fitted weight plus that output, except where the
//! hand-written evaluation alone knows better (insufficient material, a bare king); the search
//! then adds what its correction history learnt. The network's first layer is brought up to date
//! by each move made on the search path, so a node pays only for the layers after it. Because the
//! network was fitted to the hand-written evaluation in the tree, retuning one calls for training
//! the other again; the [`tuning`] module holds what the two tools need.
//!
//! Exact endgame knowledge plugs in through [`EndgameOracle`]; [`EndgameTables`] provides it from
//! `tabla-endgame`'s KBNvK, KQvK and KRvK tables (solved in memory) and, when given one, a tablebase directory of
//! every ending of up to five men, honouring the fifty-move rule ([`OracleValue::in_time`]).
//! `tabla bench` searches without any of them, so that its node count does not depend on which
//! tables are installed.
//!
//! ## Inside the crate
//!
//! Where things are, for contributors.
//!
//! | module | holds |
//! |---|---|
//! | `search.rs` | `Control`: the search: iterative deepening, aspiration windows, PVS, null move, ProbCut, LMR, futility pruning, check and singular extensions, quiescence; several threads sharing only the transposition table |
//! | `score.rs` | `Score`, `Value`: search scores, centipawns and mate distances in one integer range; `reported_cp`, a value on the reported (Stockfish's) centipawn scale |
//! | `tt.rs` | `TranspositionTable`: search results by Zobrist key, in buckets of four entries, shared by the threads without locks |
//! | `ordering.rs`, `see.rs`, `check.rs` | move ordering (`Picker`, `History`: hash move, captures, killers, counter-move, quiet moves by history); static exchange evaluation (`see`); `CheckInfo`, which answers the core's `gives_check` faster for one node's moves |
//! | `correction.rs` | `Correction`: how far the static evaluation missed in positions with the same pawns (or the same pieces of one side), learnt during search |
//! | `evaluate.rs` | `Evaluator`: the static evaluation, the search's one call for it: the hand-written evaluation corrected by the network of `nnue.rs` |
//! | `tapered.rs`, `pst.rs` | `S`: a middlegame and an endgame value blended by the game phase; the piece-square tables, material included |
//! | `pawns.rs` | `PawnInfo`, `PawnTable`: pawn structure (doubled, isolated, backward, connected and passed pawns), cached by the pawn placement |
//! | `king_safety.rs` | `KingAttack`: the pawn shield in front of the king and the weight of the enemy attack on it |
//! | `endgame.rs` | endgame knowledge: `bare_king_bonus`, driving a bare king to the edge (to the right corner in KBNK); `scale`, material that cannot win |
//! | `nnue.rs` | `Network`, `Accumulator`: the evaluation network, whose weights `net.nnue` are built in and trained by `examples/nnue_train.rs` |
//! | `tuned.rs`, `params.rs`, `weights.rs` | the hand-written weights: `WEIGHTS` in `tuned.rs` (generated by `examples/tune.rs`), laid out and named as `params.rs` says; `weights.rs` keeps the few set by hand and `term`, which tells an optional `Trace` (of `params.rs`) which weight counted: free in play, the tuner's input |
//! | `tuning.rs` | what `examples/tune.rs` and `examples/nnue_train.rs` need of the evaluation's insides (public, changing whenever the evaluation does) |
//! | `oracle.rs`, `tables.rs` | `EndgameOracle`, `OracleValue`: the plug for exact endgame knowledge; `EndgameTables`: `tabla-endgame`'s tables plugged into search |
//! | `limits.rs` | `Limits`, `GoError`: what bounds a search (UCI `go` parameters); `Budget`: time management |
//! | `skill.rs` | `Skill`: `Skill Level` and `UCI_Elo`, a capped search and a seeded choice among four lines, with the levels' measured ratings |
//! | `engine.rs` | `Engine`: state kept between searches (hash table, history, options, endgame oracle) and the entry point of one search |
//! | `info.rs` | what a search reports: `Info` for each finished iteration with its UCI `info` line, `SearchResult` with the `bestmove` line; `CastlingNotation`: castling written for `UCI_Chess960` or not |
//! | `uci.rs`, `uci/` | the protocol loop (`run`), search on its own thread; `uci/position.rs` the `position` command (`parse_position`, `PositionCommandError`) |
//! | `bench.rs` | `run`, `BenchReport`: fixed positions and depth; the node count is a regression signature |
//!
//! `src/bin/tabla-engine.rs` is a minimal stand-alone binary (the UCI loop, `bench`) that tests
//! and match scripts drive as a process. The modules are private: `lib.rs` re-exports what users
//! need (`Engine`, `Limits`, `Control`, `SearchResult`, `Score`, ...), `uci` and `bench` stay
//! public, and `tuning.rs` re-exports what the two examples need of the evaluation's insides.

pub mod bench;
mod check;
mod correction;
mod endgame;
mod engine;
mod evaluate;
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
mod skill;
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
pub use info::{CastlingNotation, Info, ScoreBound, SearchResult};
pub use limits::{GoError, Limits};
pub use oracle::{EndgameOracle, OracleValue};
pub use score::{
    REPORTED_KNEE, REPORTED_PER_100, REPORTED_PER_100_BEYOND, Score, Value, reported_cp,
};
pub use search::Control;
pub use skill::{MAX_SKILL_LEVEL, Skill};
pub use tables::EndgameTables;
