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
pub mod movegen;
mod moves;
mod perft;
pub mod perft_suite;
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
pub use data_dir::{data_dir, data_dir_with};
pub use fen::{ParseFenError, Setup};
pub use fen_write::{EnPassantMode, board_fen};
pub use long::long_without_suffix;
pub use movegen::MoveList;
pub use moves::{Move, MoveKind};
pub use perft::MAX_PERFT_DEPTH;
pub use position::{IllegalMoveError, Position, Undo};
pub use role::{Piece, Role};
pub use san::{SanError, SanMode};
pub use square::{File, ParseSquareError, Rank, Square};
pub use status::{GameEnd, GameStatus};
pub use svg::{Arrow, CheckMark, SvgOptions, board_svg};
pub use uci::UciMoveError;
pub use validate::{FenError, PositionError, PositionProblem, STARTPOS, Validation};

/// The README's examples, compiled and run as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
