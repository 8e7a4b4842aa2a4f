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
//!
//! ## Inside the crate
//!
//! Where things are, for contributors.
//!
//! Three levels, each on top of the one before: tokens, replay, the game tree.
//!
//! | module | holds |
//! |---|---|
//! | `reader.rs`, `reader/` | `Reader`: the streaming reader over any `io::Read`, one game per call, its tokens handed to a `Visitor`; `reader/buffer.rs` the refilled byte buffer (64 KiB, growing only for a longer token, up to `MAX_BUFFER`: memory independent of the file), `reader/tokenizer.rs` the tokenizer over it |
//! | `token.rs`, `visitor.rs` | `Visitor`: the low-level visitor, called for every token of a game with borrowed byte slices, no allocation per move; the tokens (`SanToken`, `RawTag`, `RawComment`, `Nag`, `Outcome`, `Location`) |
//! | `scan.rs` | finding the first of two or three bytes in short haystacks (comments, tag values), eight at a time before `memchr` (private) |
//! | `game_start.rs` | the one rule of where a game starts (a line of nothing but tag pairs after a line that is not a tag line) and the tag-pair grammar, shared by the reader (also to end a comment left open), the splitter and tabla-convert's frame boundaries (private) |
//! | `split.rs` | `find_game_start`: game starts found so a file can be read in byte ranges (`Reader::range`), each game belonging to exactly one range |
//! | `replay.rs` | `Replayer`, `ReplayVisitor`: every move resolved in its position by the core's `Position::parse_san_bytes` (FENs written by the core's `write_fen`) |
//! | `error.rs` | `PgnError`, `ErrorKind`, `Severity`, `MoveNumber`: errors typed (game number, line:column, move number, token, reason); a bad game ends only its line, the reader goes on |
//! | `result.rs` | `GameResult`, `game_result`, `LenientOutcome`: a result read however it is spelled, and a game's result from its `Result` tag and its termination marker |
//! | `builder.rs`, `tree.rs` | `TreeBuilder`, `GameTree`: the game tree built from replay events; `Game`, `Line`, `Node`: tags, start position, nodes with SAN as written and canonical, long form, UCI, FEN, comments, NAGs, variations |
//! | `comment.rs`, `eval.rs` | `Comment`, `Shape`: comments with `[%clk]`, `[%emt]`, `[%eval]`, `[%csl]` and `[%cal]` parsed; `Eval`: tabla's one score type, White's point of view |
//! | `game_file.rs` | `GameFile`: a PGN file on disk cut into its games' bytes, saved with only the edited games' bytes changed (refused when the file changed since it was read; a temporary file flushed and renamed over it; the previous version kept as `FILE.bak`) |
//! | `games.rs` | `Games`: a reader's games as trees (`Reader::games`) |
//! | `edit.rs` | `MovePath` (where a move stands in the tree), `EditError`: the tree edited (moves added and deleted, alternatives promoted and demoted, comments, NAGs, tags), each operation a method of `Game` |
//! | `writer.rs`, `json.rs` | `write_game`, `WriteOptions`: the game written back in the export format; `game_json`: one NDJSON object per game |
//! | `summary.rs` | `GameSummary`, `Summarize`, `check`: the light replay behind `tabla pgn check` and `tabla pgn fen`, without a tree |
//!
//! A problem is an error when it stops the mainline and a warning otherwise
//! (`PgnError::severity`); `PgnError::report` is its text everywhere.

mod builder;
mod comment;
mod edit;
mod error;
mod eval;
mod game_file;
mod game_start;
mod games;
mod json;
mod reader;
mod replay;
mod result;
mod scan;
mod split;
mod summary;
mod token;
mod tree;
mod visitor;
mod writer;

pub use builder::{GameTree, MAX_TREE_DEPTH, TreeBuilder};
pub use comment::{Comment, Shape};
pub use edit::{CommentPlace, EditError, MovePath, ParsePathError, check_tag};
pub use error::{ErrorKind, MoveNumber, PgnError, Severity};
pub use eval::{Eval, ParseEvalError};
pub use game_file::{GameFile, GameFileError};
pub use games::Games;
pub use json::game_json;
pub use reader::{MAX_BUFFER, Reader};
pub use replay::{ReplayVisitor, Replayer};
pub use result::{GameResult, LenientOutcome, game_result};
pub use split::find_game_start;
pub use summary::{CheckTotals, GameSummary, Summarize, check};
pub use token::{
    GameStart, Location, Nag, Outcome, RawComment, RawTag, SanToken, Skip, decode_text,
};
pub use tree::{Game, Line, Node};
pub use visitor::Visitor;
pub use writer::{WriteOptions, write_game, write_game_with};
