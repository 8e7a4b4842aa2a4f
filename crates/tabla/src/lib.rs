//! # tabla — the game model
//!
//! A chess position on a 0x88 board (index = rank * 16 + file,
//! `index & 0x88 != 0` off the board), with FEN in and out and strict validation, legal move
//! generation with every rule (castling, Chess960 castling too, en passant, promotion),
//! make/unmake, attack queries, game status, Polyglot-compatible Zobrist keys, SAN, the long form
//! and UCI notation, diagrams and perft.
//!
//! ```
//! use tabla::Position;
//!
//! let mut pos = Position::startpos();
//! for san in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"] {
//!     pos.push_san(san).unwrap();
//! }
//! assert!(pos.is_checkmate());
//! assert_eq!(pos.to_fen(), "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4");
//!
//! let pos = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
//! assert_eq!(pos.legal_moves().len(), 48);
//! let castle = pos.parse_san("O-O-O").unwrap();
//! assert_eq!((pos.san(castle), pos.long(castle), pos.uci(castle)), ("O-O-O".into(), "O-O-O".into(), "e1c1".into()));
//! ```
//!
//! Positions are built only through validation ([`Position::from_fen`], [`Position::from_setup`]),
//! so the move generator never meets an impossible setup; [`Validation::Lenient`] accepts
//! unreachable but playable ones.
//!
//! ## Inside the crate
//!
//! Where things are, for contributors.
//!
//! | module | holds |
//! |---|---|
//! | `square.rs` | `File`, `Rank`, `Square` (a1 = 0 … h8 = 63) and the conversions to and from the 0x88 index |
//! | `color.rs`, `role.rs` | `Color`; `Role` and `Piece`, whose one-byte code `role * 2 + colour` (White even, Black odd, 0 empty) fills the board |
//! | `board.rs` | `Board`: the 128-cell 0x88 array of piece codes, the source of truth for placement |
//! | `bitboard.rs` | `Bitboard`: a 64-bit square set, the derived index move generation works on |
//! | `attacks.rs` | attack tables built once by stepping on the 0x88 board; magic lookups for sliders |
//! | `castling.rs` | `CastlingRights` as the squares of the rooks that may castle; `CastlingSide` |
//! | `moves.rs` | `Move`, the packed 32-bit move, and `MoveKind` |
//! | `position.rs` | `Position`: board plus derived state; `play` (checked: `IllegalMoveError`), `play_unchecked` (hot paths), `make`/`unmake`, `undo`, `play_null`; attack queries |
//! | `movegen.rs` | legal move generation (check evasions, pins, en passant, castling, Chess960); `MoveList` |
//! | `fen.rs` | `Setup` (a parsed, unvalidated FEN), `ParseFenError` |
//! | `fen_write.rs` | the one FEN writer: `write_fen` into a caller's buffer without allocating, `to_fen`, `fen_with` and `EnPassantMode` on top |
//! | `validate.rs` | `Setup` → `Position`: `Validation`, `PositionProblem`, `PositionError`, `FenError`; `Position::from_text` (`startpos` or a FEN, as every command and route reads a position) |
//! | `status.rs` | `GameStatus`, `GameEnd`: mate, stalemate, insufficient material, move-count rules, repetition |
//! | `check.rs` | `gives_check`: whether a move checks, known before it is made |
//! | `zobrist/` | Zobrist hashing with Polyglot's key table (`polyglot_keys.rs`), so keys match other tools; `wide.rs`: `wide_key`, a 128-bit key of the position (legal en passant, castling rooks, no clocks) for large collections, where 64 bits would collide, and `key_columns`, the 96 bits of it that tabla's tables store |
//! | `san.rs` | SAN output (minimal disambiguation over legal moves) and input, `SanMode` strict/lenient, `SanError` |
//! | `long.rs` | the long algebraic form (`e2-e4`, `Ng8-f6`, `O-O`, `e7-e8=Q`) and its parser |
//! | `uci.rs` | UCI move notation (`UciMove`: what one looks like, in one place; `e2e4`, `e7e8q`, castling `e1g1`; `write_uci` without allocating), `Position::push_uci`, `UciMoveError` |
//! | `material.rs` | `Material`: the material notation `KRPvKR` (also `KRPKR`, either case), read and written, for the database's material search and the endgame tables' names |
//! | `data_dir.rs` | `data_dir`, `config_dir`: tabla's data directory (`$XDG_DATA_HOME/tabla` or `~/.local/share/tabla`) and configuration directory (`$XDG_CONFIG_HOME/tabla` or `~/.config/tabla`) |
//! | `variation.rs` | `variation_san`: a line of moves as numbered SAN (`1. e4 e5 2. Nf3`, `3... Nf6`), used by the endgame, engine and web crates |
//! | `diagram.rs` | the `+-+-+` text diagram and a Unicode board |
//! | `svg.rs` | SVG diagrams: coordinates, last move, check, arrows and marks |
//! | `perft.rs` | `perft`, `perft_bulk`, `divide` |
//! | `perft_suite.rs` | reading perft suite files (`FEN ;D1 n ...` lines and `id`/`epd`/`perft` blocks), with line-numbered errors |
//! | `plural.rs` | `plural`, `plural_with`: a count in words (`1 game`, `2 games`) for every message that counts for people |
//!
//! Tests beside the code for small things; `crates/tabla/tests/` holds the data-driven suites
//! (perft suites from `testdata/perft`, python-chess SAN and Polyglot references, FEN errors, round
//! trips, property tests); `crates/tabla/benches/` compares against shakmaty in the same run.

pub mod attacks;
mod bitboard;
mod board;
mod castling;
mod check;
mod color;
mod data_dir;
mod diagram;
mod fen;
mod fen_write;
mod long;
mod material;
pub mod movegen;
mod moves;
mod perft;
pub mod perft_suite;
mod plural;
mod position;
mod role;
mod san;
mod square;
mod status;
mod svg;
mod uci;
mod validate;
mod variation;
pub mod zobrist;

pub use bitboard::{Bitboard, Squares};
pub use board::Board;
pub use castling::{CastlingRights, CastlingSide, back_rank};
pub use color::Color;
pub use data_dir::{config_dir, config_dir_with, data_dir, data_dir_with};
pub use fen::{ParseFenError, Setup};
pub use fen_write::{EnPassantMode, board_fen};
pub use long::long_without_suffix;
pub use material::{Material, MaterialError};
pub use movegen::MoveList;
pub use moves::{Move, MoveKind};
pub use perft::MAX_PERFT_DEPTH;
pub use plural::{plural, plural_with};
pub use position::{IllegalMoveError, Position, Undo};
pub use role::{Piece, Role};
pub use san::{SanError, SanMode};
pub use square::{File, ParseSquareError, Rank, Square};
pub use status::{GameEnd, GameStatus};
pub use svg::{Arrow, CheckMark, SvgOptions, board_svg};
pub use uci::{UciMove, UciMoveError};
pub use validate::{FenError, PositionError, PositionProblem, STARTPOS, Validation};

/// The README's examples, compiled and run as doctests so they stay true (the crate's
/// `README.md` is the project's, linked).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
