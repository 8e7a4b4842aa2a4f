//! The evaluation network, a learned correction of the hand-written evaluation: 768 inputs (each
//! side's pieces by kind and square, seen from one side) into [`HIDDEN`] clipped-linear units per
//! side, whose two halves (the side to move's view first) feed one output in centipawns, added to
//! the hand-written evaluation times a fitted weight.
//!
//! The first layer is kept as an [`Accumulator`] that a move updates by adding and subtracting the
//! rows of the few inputs it changes, so a node's evaluation costs only the output layer. The
//! weights are integers (the first layer scaled by [`QA`], the output by [`QB`]) in `net.nnue`,
//! trained by `examples/nnue_train.rs` on positions Stockfish scored
//! (`crates/tabla-engine/scripts/nnue_data.py`). The network was fitted to the hand-written
//! evaluation in the tree: retuning that evaluation (`examples/tune.rs`) calls for training the
//! network again.

use std::sync::OnceLock;

use tabla::{Bitboard, Color, Position, Role, Square};

/// Units in the hidden layer, for each side's view.
pub const HIDDEN: usize = 128;
/// Inputs: two colours (own, enemy) by six kinds of piece by 64 squares.
pub const INPUTS: usize = 768;
/// The first layer's scale: a hidden unit is clipped to `0..=QA`.
pub const QA: i32 = 255;
/// The output layer's scale.
pub const QB: i32 = 64;
/// The output, a logit of the expected score, times this is centipawns.
pub const SCALE: i32 = 400;

const MAGIC: &[u8; 4] = b"TNN2";
/// The weight of the hand-written evaluation that is one.
pub const ALPHA_ONE: i32 = 1024;

/// The input index of a `color` `role` on `sq`, seen from `view`'s side: the board is flipped for
/// Black, and "own" and "enemy" replace White and Black.
#[inline]
pub fn feature(view: Color, color: Color, role: Role, sq: Square) -> usize {
    let square = if view == Color::White {
        sq.index()
    } else {
        sq.index() ^ 56
    };
    (usize::from(color != view) * 6 + role.index()) * 64 + square
}

/// The network's weights.
pub struct Network {
    w1: Box<[[i16; HIDDEN]; INPUTS]>,
    b1: [i16; HIDDEN],
    /// The output weights of the side to move's half, then of the other side's.
    w2: [[i16; HIDDEN]; 2],
    b2: i32,
    alpha: i32,
}

/// Why a network file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetworkError {
    /// The file does not start with the format's tag and this build's hidden size.
    Header,
    /// The file is shorter or longer than the weights.
    Size {
        /// The bytes expected.
        expected: usize,
        /// The bytes found.
        found: usize,
    },
}

impl std::fmt::Display for NetworkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetworkError::Header => write!(f, "not a tabla network of {HIDDEN} hidden units"),
            NetworkError::Size { expected, found } => {
                write!(f, "network file of {found} bytes, expected {expected}")
            }
        }
    }
}

impl std::error::Error for NetworkError {}

/// The size of a network file: tag, hidden size, then little-endian `i16` weights (first layer by
/// input, its biases, the two output halves), the `i32` output bias and the `i32` weight of the
/// hand-written evaluation in 1024ths.
pub const FILE_SIZE: usize = 8 + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 8;

impl Network {
    /// Reads a network file (see [`FILE_SIZE`] for the layout).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < 8
            || &bytes[..4] != MAGIC
            || u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]) as usize != HIDDEN
        {
            return Err(NetworkError::Header);
        }
        if bytes.len() != FILE_SIZE {
            return Err(NetworkError::Size {
                expected: FILE_SIZE,
                found: bytes.len(),
            });
        }
        let mut words = bytes[8..FILE_SIZE - 8]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut next = || words.next().unwrap_or(0);
        let mut w1 = Box::new([[0i16; HIDDEN]; INPUTS]);
        for row in w1.iter_mut() {
            row.iter_mut().for_each(|w| *w = next());
        }
        let mut b1 = [0i16; HIDDEN];
        b1.iter_mut().for_each(|w| *w = next());
        let mut w2 = [[0i16; HIDDEN]; 2];
        for half in w2.iter_mut() {
            half.iter_mut().for_each(|w| *w = next());
        }
        let t = &bytes[FILE_SIZE - 8..];
        let b2 = i32::from_le_bytes([t[0], t[1], t[2], t[3]]);
        let alpha = i32::from_le_bytes([t[4], t[5], t[6], t[7]]);
        Ok(Network {
            w1,
            b1,
            w2,
            b2,
            alpha,
        })
    }

    /// The network built into the engine.
    pub fn embedded() -> &'static Network {
        static NET: OnceLock<Network> = OnceLock::new();
        NET.get_or_init(|| {
            Network::from_bytes(include_bytes!("net.nnue"))
                .unwrap_or_else(|e| panic!("the embedded network is broken: {e}"))
        })
    }

    /// The first layer for `pos`, from scratch.
    pub fn refresh(&self, pos: &Position) -> Accumulator {
        let mut acc = Accumulator {
            v: [self.b1, self.b1],
        };
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in pos.pieces(color, role) {
                    acc.add(self, color, role, sq);
                }
            }
        }
        acc
    }

    /// The value in centipawns for `turn`, the side to move, of the position `acc` holds, whose
    /// hand-written evaluation is `classical`.
    #[inline]
    pub fn output(&self, acc: &Accumulator, turn: Color, classical: i32) -> i32 {
        let us = &acc.v[turn.index()];
        let them = &acc.v[(!turn).index()];
        let sum = dot(us, &self.w2[0]) + dot(them, &self.w2[1]) + self.b2;
        sum * SCALE / (QA * QB) + classical * self.alpha / ALPHA_ONE
    }
}

#[inline]
fn dot(h: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i32 {
    h.iter()
        .zip(w)
        .map(|(&h, &w)| i32::from(h.clamp(0, QA as i16)) * i32::from(w))
        .sum()
}

/// The hidden layer before clipping, from White's view and from Black's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    v: [[i16; HIDDEN]; 2],
}

impl Accumulator {
    #[inline]
    fn add(&mut self, net: &Network, color: Color, role: Role, sq: Square) {
        for view in Color::ALL {
            let row = &net.w1[feature(view, color, role, sq)];
            for (v, w) in self.v[view.index()].iter_mut().zip(row) {
                *v = v.wrapping_add(*w);
            }
        }
    }

    #[inline]
    fn sub(&mut self, net: &Network, color: Color, role: Role, sq: Square) {
        for view in Color::ALL {
            let row = &net.w1[feature(view, color, role, sq)];
            for (v, w) in self.v[view.index()].iter_mut().zip(row) {
                *v = v.wrapping_sub(*w);
            }
        }
    }

    /// Brings the accumulator of the position whose pieces were `before` to the position `pos`.
    #[inline]
    pub fn update(&mut self, net: &Network, before: &Pieces, pos: &Position) {
        for color in Color::ALL {
            for role in Role::ALL {
                let old = before.0[color.index()][role.index()];
                let new = pos.pieces(color, role);
                if old != new {
                    for sq in old & !new {
                        self.sub(net, color, role, sq);
                    }
                    for sq in new & !old {
                        self.add(net, color, role, sq);
                    }
                }
            }
        }
    }
}

/// Where each side's pieces of each kind stand: what [`Accumulator::update`] compares against.
#[derive(Clone, Copy, Debug)]
pub struct Pieces([[Bitboard; 6]; 2]);

impl Pieces {
    /// The pieces of `pos`.
    #[inline]
    pub fn of(pos: &Position) -> Pieces {
        let mut p = [[Bitboard::EMPTY; 6]; 2];
        for color in Color::ALL {
            for role in Role::ALL {
                p[color.index()][role.index()] = pos.pieces(color, role);
            }
        }
        Pieces(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hand-written evaluation of `pos` with the network's correction, from scratch.
    fn evaluate(pos: &Position) -> i32 {
        let net = Network::embedded();
        let classical = crate::evaluate::hand_written(pos);
        net.output(&net.refresh(pos), pos.turn(), classical)
    }

    #[test]
    fn material_counts() {
        let white_up =
            Position::from_fen("4k3/8/8/8/8/8/8/2RQK3 w - - 0 1").expect("test position");
        assert!(evaluate(&white_up) > 500);
    }

    #[test]
    fn features_mirror() {
        // A white knight on g1 seen by White is a black knight on g8 seen by Black.
        let g1 = Square::from_ascii(b"g1").expect("square");
        let g8 = Square::from_ascii(b"g8").expect("square");
        assert_eq!(
            feature(Color::White, Color::White, Role::Knight, g1),
            feature(Color::Black, Color::Black, Role::Knight, g8)
        );
        assert_ne!(
            feature(Color::White, Color::White, Role::Knight, g1),
            feature(Color::White, Color::Black, Role::Knight, g1)
        );
    }

    #[test]
    fn mirrored_positions_evaluate_alike() {
        // Flipping the board and swapping the colours (and the side to move) leaves the inputs
        // of each view as they were, so the value must not change.
        for (fen, mirror) in [
            (
                "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
                "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4",
            ),
            (
                "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 0 1",
                "8/8/p4p1k/Pp2pP1p/1P1pP2P/3P4/5K2/8 w - - 0 1",
            ),
        ] {
            let a = Position::from_fen(fen).expect("test position");
            let b = Position::from_fen(mirror).expect("test position");
            assert_eq!(evaluate(&a), evaluate(&b), "{fen}");
        }
    }

    #[test]
    fn bad_files_are_refused() {
        assert!(matches!(
            Network::from_bytes(b"XXXX"),
            Err(NetworkError::Header)
        ));
        let mut short = Vec::from(*MAGIC);
        short.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        short.extend_from_slice(&[0; 10]);
        assert!(matches!(
            Network::from_bytes(&short),
            Err(NetworkError::Size { found: 18, .. })
        ));
    }

    #[test]
    fn updates_match_refreshes() {
        // Every move of a few positions, made incrementally, gives the accumulator a refresh
        // of the new position gives: captures, castling, en passant and promotions included.
        let net = Network::embedded();
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ] {
            let pos = Position::from_fen(fen).expect("test position");
            let acc = net.refresh(&pos);
            for mv in pos.legal_moves() {
                let mut after = pos.clone();
                let before = Pieces::of(&after);
                after.make(mv);
                let mut updated = acc;
                updated.update(net, &before, &after);
                assert_eq!(updated, net.refresh(&after), "{fen} {mv:?}");
            }
        }
    }
}
