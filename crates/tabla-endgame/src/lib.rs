//! # tabla-endgame — endgame tables: retrograde generation, table files and probing
//!
//! Exact distance-to-mate tables for every ending of up to five men, pawns and en passant
//! included. [`Men`] names an ending (`KBNvK`, `KQvKR`; one table for an ending and its
//! colour-swapped twin). [`Solved`] generates tables in memory by retrograde analysis, each after
//! the endings its captures and promotions lead to; [`build`] writes them as table files into a
//! directory; [`Tablebase`] probes any position of the endings whose files it opened or that it
//! solved in memory.
//!
//! ```
//! use tabla::Position;
//! use tabla_endgame::{Dtm, Solved, Tablebase};
//!
//! // King, bishop and knight against a king, solved in memory (about a quarter of a second),
//! // beside the table files of a directory (none here).
//! let mut solved = Solved::new();
//! solved.solve("KBNvK".parse().unwrap()).unwrap();
//! let tb = Tablebase::open(std::path::Path::new("no tables here")).unwrap().with_solved(&solved);
//! let pos = Position::from_fen("k7/8/NK2B3/8/8/8/8/8 w - - 0 1").unwrap();
//! let probe = tb.probe_moves(&pos).unwrap();
//! assert_eq!(probe.dtm, Dtm::Win(1));
//! assert_eq!(pos.san(probe.best.unwrap()), "Bd5#");
//! ```
//!
//! ```
//! use tabla::Position;
//! use tabla_endgame::{Dtm, Solved};
//!
//! let mut solved = Solved::new();
//! solved.solve("KRvKP".parse().unwrap()).unwrap();
//! // The longest mate of four men: the pawn's side promotes and mates in 43.
//! let pos = Position::from_fen("8/5k2/2PK4/5r2/8/8/8/8 w - - 0 1").unwrap();
//! assert_eq!(solved.dtm(&pos), Some(Dtm::Win(43)));
//! ```
//!
//! ## Distance to mate
//! One convention everywhere ([`Dtm`]): signed full moves from the side to move's point of view.
//! `+N`: the side to move mates in `N` moves. `-N`: the side to move is mated in `N` moves. `0`: a
//! draw, or the side to move is checkmated ([`Dtm::Loss`]`(0)`) or stalemated
//! ([`Probe::stalemate`]). [`Dtm::plies`] gives the half-moves: `2N - 1` for `+N`, `2N` for `-N`.
//! The fifty-move rule is not considered.
//!
//! ## Generation
//! The generator (`retro.rs`, over the index of `frame.rs`) works 64 positions at a time: Black's
//! king's square is the lane of a 64-bit word, White's king is folded by the board's symmetries.
//! Exits (captures and promotions) are read from the endings they lead to; then a level a ply:
//! wins by un-moving from lost positions, losses checked forwards. KBNvK with KBvK and KNvK takes
//! about a quarter of a second on one core, every table of up to four men about 20 s, KBNvKN (the
//! longest pawnless mate, 107 moves) about 16 s.
//!
//! ## Table files
//! [`build`] writes each ending as a [`TbFile`] (`KBNvK.tbm`): [`Layout`] slots (a slot per
//! placement up to symmetry), a pair grammar and prefix codes in 64-byte blocks, checksums, read
//! through memory mapping; both sides to move exact for up to four men, one side for five with
//! the captures' values left to the prober. A pawnless ending of up to four men is *derived*
//! instead: one side stored whole (zstd), the other solved from it at the first probe, both then
//! read from memory (KBNvK: 289,953 bytes, against 1,362,732 with both sides block-coded). Its counts ([`EndingStats`]) are kept beside it, the
//! build is resumable and logged. A damaged file is refused or its damaged part reported, never
//! read as other values.
//!
//! ## The two-byte-slot format
//! [`two_byte`] writes KBNvK in the uncompressed 16 MiB format of an earlier KBNK solution base
//! (White to move, light-squared bishop, moves to mate and best move in two bytes a slot) from a
//! [`Solution`], and reads it back, for tools that expect it. How that base's published figures
//! compare with the exact counts is told in `docs/background.md`; `tests/kbnvk.rs` checks them.
//!
//! ## Inside the crate
//!
//! Where things are, for contributors.
//!
//! | module | holds |
//! |---|---|
//! | `men.rs` | `Men`: an ending's men, read and written in the core's material notation (`tabla::Material`); `MenError` |
//! | `frame.rs`, `retro.rs` | the generator: the index it works in (Black's king's square the lane of a 64-bit word) and retrograde analysis over it |
//! | `score.rs` | value codes and their order |
//! | `placement.rs` | what the generator asks of the endings a capture or a promotion leads to |
//! | `solve.rs` | `Solved`, `Solution`: endings solved in memory, in dependency order, and probed |
//! | `layout.rs` | `Layout`: the slots of a table; `Layout::position` is the one conversion of a slot to a position |
//! | `tb_file.rs`, `block_code.rs`, `pairs.rs`, `huffman.rs` | the table file (`TbFile`): header and checksums, the block-coded body, the pair grammar, the prefix codes |
//! | `ending_stats.rs` | `EndingStats`: a table's counts, kept beside its file |
//! | `tablebase.rs` | `Tablebase`: a directory of table files and endings solved in memory, probed |
//! | `builder.rs`, `par.rs` | `build`: table files in dependency order, resumable; the work shared among threads |
//! | `location.rs` | `default_tablebase_dir` |
//! | `probe.rs` | `Probe`, `MoveValue`: what a probe answers |
//! | `dtm.rs` | `Dtm`, the distance-to-mate convention |
//! | `symmetry.rs` | the eight symmetries of the board (private) |
//! | `two_byte.rs` | the 16 MiB two-byte-slot KBNK format, written from a `Solution` and read back |

mod block_code;
mod builder;
mod dtm;
mod ending_stats;
mod frame;
mod huffman;
mod layout;
mod location;
mod men;
mod pairs;
mod par;
mod placement;
mod probe;
mod probe_json;
mod retro;
mod score;
mod solve;
mod symmetry;
mod tablebase;
mod tb_file;
pub mod two_byte;

pub use builder::{BuildError, Built, build};
pub use dtm::Dtm;
pub use ending_stats::{EndingStats, SideCounts};
pub use layout::Layout;
pub use location::default_tablebase_dir;
pub use men::{MAX_MEN, MIN_MEN, Men, MenError};
pub use probe::{MoveValue, Probe};
pub use probe_json::{BestMove, ProbeJson, ProbeMove, TbJson, describe_probe, describe_tb};
pub use solve::{SOLVED_IN_MEMORY, Solution, SolveError, Solved};
pub use tablebase::{Tablebase, TbError, table_file_name};
#[cfg(fuzzing)]
pub use tb_file::fuzz_table_file;
pub use tb_file::{TbFile, TbFileError};
