//! What the benchmark binaries share: the perft positions with their published node counts, the
//! move generation set, and the two libraries' positions built from the same FENs.
//!
//! Each bench binary uses only part of this module, hence the `allow(dead_code)` where it is
//! included.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position as _, PositionError};
use std::hint::black_box;
use std::path::PathBuf;
use tabla::{Position, Validation};

/// One perft measurement: a position, a depth and the published leaf count.
pub struct PerftCase {
    /// Short name used in benchmark ids.
    pub name: &'static str,
    /// The full FEN (six fields).
    pub fen: &'static str,
    /// Plies to search.
    pub depth: u32,
    /// Published node count (chessprogramming wiki "Perft Results"; the same figures are in
    /// `testdata/perft/perftsuite.epd` for the start position and Kiwipete).
    pub nodes: u64,
}

/// The standard start position.
pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// Position 2 of the chessprogramming set, by Peter McKenzie.
pub const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// Position 3 (pos-3 of `tricky.perft`): rook endgame with en-passant pins along the rank.
pub const POS3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
/// Position 4, mirrored (pos-4 of `tricky.perft`): promotions and captures, black to move.
pub const POS4: &str = "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1";
/// Position 5 (pos-5 of `tricky.perft`), from talkchess: a bug catcher for promotions.
pub const POS5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
/// Position 6 by Steven Edwards (pos-6 of `tricky.perft`): a quiet middlegame.
pub const POS6: &str = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

/// The perft benchmarks. Positions 3-6 are run at the depth that gives a few million to a few
/// tens of millions of leaves, so that each takes tens of milliseconds to a second.
pub const PERFT_CASES: &[PerftCase] = &[
    case("startpos", STARTPOS, 5, 4_865_609),
    case("startpos", STARTPOS, 6, 119_060_324),
    case("kiwipete", KIWIPETE, 4, 4_085_603),
    case("kiwipete", KIWIPETE, 5, 193_690_690),
    case("pos-3", POS3, 6, 11_030_083),
    case("pos-4", POS4, 5, 15_833_292),
    case("pos-5", POS5, 4, 2_103_487),
    case("pos-6", POS6, 4, 3_894_594),
];

const fn case(name: &'static str, fen: &'static str, depth: u32, nodes: u64) -> PerftCase {
    PerftCase {
        name,
        fen,
        depth,
        nodes,
    }
}

/// The perft case with this name and depth.
pub fn perft_case(name: &str, depth: u32) -> &'static PerftCase {
    PERFT_CASES
        .iter()
        .find(|c| c.name == name && c.depth == depth)
        .expect("perft case listed in PERFT_CASES")
}

/// tabla's position for a FEN; lenient, because the move generation set has an impossible check.
pub fn tabla_position(fen: &str) -> Position {
    Position::from_fen_with(fen, Validation::Lenient).expect("benchmark FEN is valid for tabla")
}

/// shakmaty's position for the same FEN, accepting the same unusual setups as [`tabla_position`].
pub fn shakmaty_position(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .expect("benchmark FEN parses for shakmaty")
        .into_position::<Chess>(CastlingMode::Standard)
        .or_else(PositionError::ignore_impossible_check)
        .or_else(PositionError::ignore_too_much_material)
        .expect("benchmark FEN is valid for shakmaty")
}

/// shakmaty perft without bulk counting: every leaf is reached by playing its move (on a clone,
/// shakmaty's way of making a move; it has no unmake).
pub fn shakmaty_perft_full(pos: &Chess, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    for &mv in &pos.legal_moves() {
        let mut child = pos.clone();
        child.play_unchecked(mv);
        nodes += if depth == 1 {
            // Nothing reads a leaf: without `black_box` the optimiser could drop the copy and
            // the move played on it, and this would become bulk counting.
            black_box(&child);
            1
        } else {
            shakmaty_perft_full(&child, depth - 1)
        };
    }
    nodes
}

/// A position of the move generation set with its published number of legal moves.
pub struct SuitePosition {
    /// The FEN as written in the suite.
    pub fen: String,
    /// The published depth-1 perft count, i.e. the number of legal moves.
    pub moves: u64,
}

/// Every position of `testdata/perft/perftsuite.epd` (126 positions of all kinds: castling,
/// en passant, promotions, checks, endgames) with its published `D1` count.
pub fn movegen_set() -> Vec<SuitePosition> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/perft/perftsuite.epd");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut fields = line.split(';');
            let fen = fields.next().unwrap_or_default().trim().to_owned();
            let moves = fields
                .find_map(|f| f.trim().strip_prefix("D1 "))
                .and_then(|n| n.trim().parse().ok())
                .unwrap_or_else(|| panic!("no D1 count in {line:?}"));
            SuitePosition { fen, moves }
        })
        .collect()
}
