//! # tabla-pgn — PGN for tabla
//!
//! A streaming PGN reader over any `io::Read` (memory independent of the input's size), replay
//! of every move with legality, a game tree with comments, NAGs, variations and the position
//! after every move, and a writer in the PGN export format.
//!
//! Three levels, each on top of the one before:
//! - [`Reader`] + [`Visitor`]: tokens as borrowed bytes, no allocation per move;
//! - [`Replayer`] + [`ReplayVisitor`]: moves resolved in their positions, errors typed;
//! - [`GameTree`] → [`Game`]: the whole game as a tree, written back by [`write_game`].
//!
//! ```
//! use tabla_pgn::{Reader, write_game};
//!
//! let pgn = "[Event \"Casual\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6!? {The Morphy defence} *\n";
//! let mut reader = Reader::new(pgn.as_bytes());
//! let game = reader.games().next().unwrap().unwrap();
//! let last = game.mainline().last().unwrap();
//! assert_eq!((last.san.as_str(), last.long()), ("a6", "a7-a6".to_owned()));
//! assert_eq!(last.fen(), "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4");
//! assert!(write_game(&game).contains("3. Bb5 a6 $5 { The Morphy defence } *"));
//! ```
//!
//! Reading can also start and stop at byte offsets ([`Reader::range`]), each game belonging
//! to exactly one range, so one file can be read by many threads.

mod builder;
mod comment;
mod error;
mod game_start;
mod games;
mod json;
mod reader;
mod replay;
mod scan;
mod split;
mod summary;
mod token;
mod tree;
mod visitor;
mod writer;

pub use builder::{GameTree, MAX_TREE_DEPTH, TreeBuilder};
pub use comment::{Comment, Eval, ParseEvalError, Shape};
pub use error::{ErrorKind, MoveNumber, PgnError, Severity};
pub use games::Games;
pub use json::game_json;
pub use reader::{MAX_BUFFER, Reader};
pub use replay::{ReplayVisitor, Replayer};
pub use split::find_game_start;
pub use summary::{CheckTotals, GameSummary, Summarize, check};
pub use token::{
    GameStart, Location, Nag, Outcome, RawComment, RawTag, SanToken, Skip, decode_text,
};
pub use tree::{Game, Line, Node};
pub use visitor::Visitor;
pub use writer::{WriteOptions, write_game, write_game_with};
