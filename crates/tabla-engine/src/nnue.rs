//! The evaluation network, a learned correction of the hand-written evaluation: 768 inputs (each
//! side's pieces by kind and square, seen from one side) into [`HIDDEN`] clipped-linear units per
//! side, whose two halves (the side to move's view first) feed both one linear output and a second
//! layer of [`L2`] clipped-linear units, whose own output is added to it. The sum, in centipawns,
//! is added to the hand-written evaluation times a fitted weight.
//!
//! The first layer is kept as an [`Accumulator`] that a move updates by adding and subtracting the
//! rows of the few inputs it changes, so a node's evaluation costs only the layers after it. The
//! weights are integers (the first layer scaled by [`QA`], the linear output by [`QB`], the second
//! layer by [`Q2`] and its output by [`Q3`]) in `net.nnue`, trained by `examples/nnue_train.rs` on
//! positions Stockfish scored (`crates/tabla-engine/scripts/nnue_data.py`, `nnue_relabel.py`).
//! The network was fitted to the hand-written evaluation in the tree: retuning that evaluation
//! (`examples/tune.rs`) calls for training the network again.

use std::sync::OnceLock;

use tabla::{Bitboard, Color, Position, Role, Square};

/// Units in the hidden layer, for each side's view.
pub const HIDDEN: usize = 128;
/// Inputs: two colours (own, enemy) by six kinds of piece by 64 squares.
pub const INPUTS: usize = 768;
/// The first layer's scale: a hidden unit is clipped to `0..=QA`.
pub const QA: i32 = 255;
/// The linear output's scale.
pub const QB: i32 = 64;
/// Units in the second hidden layer.
pub const L2: usize = 32;
/// The second layer's weight scale: its sums are in units of `QA * Q2`.
pub const Q2: i32 = 1024;
/// The scale of the second layer's output weights.
pub const Q3: i32 = 1024;
/// The output, a logit of the expected score, times this is centipawns.
pub const SCALE: i32 = 400;

const MAGIC: &[u8; 4] = b"TNN3";
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
    /// The weights on the clipped first layer (the side to move's half, then the other side's):
    /// the second layer's by unit, then the linear output's (`rows[L2]`).
    rows: Box<[[i16; 2 * HIDDEN]; L2 + 1]>,
    /// The second layer's biases, in units of `QA * Q2`.
    c2: [i32; L2],
    /// The second layer's output weights.
    v3: [i16; L2],
    b2: i32,
    alpha: i32,
}

/// Why a network file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetworkError {
    /// The file does not start with the format's tag and this build's layer sizes.
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
            NetworkError::Header => write!(
                f,
                "not a tabla network of {HIDDEN} and {L2} hidden units (tag {})",
                String::from_utf8_lossy(MAGIC)
            ),
            NetworkError::Size { expected, found } => {
                write!(f, "network file of {found} bytes, expected {expected}")
            }
        }
    }
}

impl std::error::Error for NetworkError {}

/// The size of a network file: tag, the two hidden sizes as `u32`, then little-endian `i16`
/// weights (first layer by input, its biases, the linear output's two halves, the second layer
/// by unit, its output weights), then `i32`s: the second layer's biases, the linear output's bias
/// and the weight of the hand-written evaluation in 1024ths.
pub const FILE_SIZE: usize =
    12 + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN + L2 * 2 * HIDDEN + L2) + 4 * (L2 + 2);

impl Network {
    /// Reads a network file (see [`FILE_SIZE`] for the layout).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let word = |at: usize| -> Option<u32> {
            let b = bytes.get(at..at + 4)?;
            Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        };
        if bytes.get(..4) != Some(MAGIC.as_slice())
            || word(4) != Some(HIDDEN as u32)
            || word(8) != Some(L2 as u32)
        {
            return Err(NetworkError::Header);
        }
        if bytes.len() != FILE_SIZE {
            return Err(NetworkError::Size {
                expected: FILE_SIZE,
                found: bytes.len(),
            });
        }
        let ints_at = FILE_SIZE - 4 * (L2 + 2);
        let mut words = bytes[12..ints_at]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut next = || words.next().unwrap_or(0);
        let mut w1 = Box::new([[0i16; HIDDEN]; INPUTS]);
        for row in w1.iter_mut() {
            row.iter_mut().for_each(|w| *w = next());
        }
        let mut b1 = [0i16; HIDDEN];
        b1.iter_mut().for_each(|w| *w = next());
        let mut rows = Box::new([[0i16; 2 * HIDDEN]; L2 + 1]);
        rows[L2].iter_mut().for_each(|w| *w = next());
        for row in rows[..L2].iter_mut() {
            row.iter_mut().for_each(|w| *w = next());
        }
        let mut v3 = [0i16; L2];
        v3.iter_mut().for_each(|w| *w = next());
        let mut ints = bytes[ints_at..]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        let mut int = || ints.next().unwrap_or(0);
        let mut c2 = [0i32; L2];
        c2.iter_mut().for_each(|w| *w = int());
        let b2 = int();
        let alpha = int();
        Ok(Network {
            w1,
            b1,
            rows,
            c2,
            v3,
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
        // The first layer clipped, the side to move's half first.
        let mut h = [0i16; 2 * HIDDEN];
        let (us, them) = h.split_at_mut(HIDDEN);
        clip(&acc.v[turn.index()], us);
        clip(&acc.v[(!turn).index()], them);
        let mut z = [0i32; L2 + 1];
        layer2(&h, &self.rows, &mut z);
        let linear = z[L2].saturating_add(self.b2);
        let second: i64 = z[..L2]
            .iter()
            .zip(&self.c2)
            .zip(&self.v3)
            .map(|((&z, &c), &v)| i64::from(z.saturating_add(c).clamp(0, QA * Q2)) * i64::from(v))
            .sum();
        // The linear sum is in units of QA * QB, the second layer's in units of QA * Q2 * Q3.
        let logit = i64::from(linear) * i64::from(Q2 * Q3 / QB) + second;
        (logit * i64::from(SCALE) / (i64::from(QA * Q2) * i64::from(Q3))) as i32
            + classical * self.alpha / ALPHA_ONE
    }
}

/// The first layer's units clipped to `0..=QA`.
#[inline]
fn clip(v: &[i16; HIDDEN], out: &mut [i16]) {
    for (o, &v) in out.iter_mut().zip(v) {
        *o = v.clamp(0, QA as i16);
    }
}

/// The sums of the weights in `rows` times the clipped first layer `h`: the second layer's
/// before their biases, in units of `QA * Q2`, and the linear output's, in units of `QA * QB`.
/// None can overflow, whatever the file's weights: 256 inputs of at most [`QA`] times weights of
/// at most 32,767 stay below 2^31.
#[inline]
fn layer2(h: &[i16; 2 * HIDDEN], rows: &[[i16; 2 * HIDDEN]; L2 + 1], z: &mut [i32; L2 + 1]) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        unsafe { layer2_avx2(h, rows, z) };
        return;
    }
    layer2_portable(h, rows, z);
}

fn layer2_portable(
    h: &[i16; 2 * HIDDEN],
    rows: &[[i16; 2 * HIDDEN]; L2 + 1],
    z: &mut [i32; L2 + 1],
) {
    for (z, row) in z.iter_mut().zip(rows.iter()) {
        *z = h
            .iter()
            .zip(row)
            .map(|(&h, &w)| i32::from(h) * i32::from(w))
            .fold(0, i32::wrapping_add);
    }
}

/// [`layer2_portable`] with AVX2's multiply-adds, 16 pairs of weights and inputs at a time (what
/// a compiler makes of the portable loops reloads and repacks the inputs for every unit).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn layer2_avx2(h: &[i16; 2 * HIDDEN], rows: &[[i16; 2 * HIDDEN]; L2 + 1], z: &mut [i32; L2 + 1]) {
    use std::arch::x86_64::{
        __m256i, _mm_add_epi32, _mm_cvtsi128_si32, _mm_shuffle_epi32, _mm256_add_epi32,
        _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_madd_epi16,
        _mm256_setzero_si256,
    };
    const LANES: usize = 16;
    for (z, row) in z.iter_mut().zip(rows.iter()) {
        let mut sum = _mm256_setzero_si256();
        for (h, w) in h.chunks_exact(LANES).zip(row.chunks_exact(LANES)) {
            // SAFETY: each chunk holds 16 `i16`s, the 32 bytes an unaligned load reads.
            let (h, w) = unsafe {
                (
                    _mm256_loadu_si256(h.as_ptr().cast::<__m256i>()),
                    _mm256_loadu_si256(w.as_ptr().cast::<__m256i>()),
                )
            };
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(h, w));
        }
        let s = _mm_add_epi32(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256::<1>(sum),
        );
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        *z = _mm_cvtsi128_si32(s);
    }
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
        short.extend_from_slice(&(L2 as u32).to_le_bytes());
        short.extend_from_slice(&[0; 10]);
        assert!(matches!(
            Network::from_bytes(&short),
            Err(NetworkError::Size { found: 22, .. })
        ));
        // A network of the older one-layer format is refused by its tag.
        let mut old = Vec::from(*b"TNN2");
        old.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        old.resize(8 + 2 * (INPUTS * HIDDEN + 3 * HIDDEN) + 8, 0);
        assert!(matches!(
            Network::from_bytes(&old),
            Err(NetworkError::Header)
        ));
    }

    #[test]
    fn vector_sums_agree_with_portable_ones() {
        // The processor's vector path (AVX2 where there is one) against the plain loops, on
        // inputs from all-zero to all-QA and a pattern between, with the network's weights and
        // with the largest weights of either sign (the sums' extremes, which must not wrap).
        let net = Network::embedded();
        let extreme = Box::new(std::array::from_fn::<_, { L2 + 1 }, _>(|j| {
            [if j % 2 == 0 { i16::MAX } else { -i16::MAX }; 2 * HIDDEN]
        }));
        for rows in [&net.rows, &extreme] {
            for pattern in [0, 1, 2] {
                let h: [i16; 2 * HIDDEN] = std::array::from_fn(|i| match pattern {
                    0 => 0,
                    1 => QA as i16,
                    _ => ((i * 37) % (QA as usize + 1)) as i16,
                });
                let (mut fast, mut plain) = ([0; L2 + 1], [0; L2 + 1]);
                layer2(&h, rows, &mut fast);
                layer2_portable(&h, rows, &mut plain);
                assert_eq!(fast, plain, "pattern {pattern}");
                if pattern == 1 && std::ptr::eq(rows, &extreme) {
                    // All inputs at QA: each sum is exactly 256 * QA * 32,767, of its row's sign.
                    let full = 2 * HIDDEN as i32 * QA * i32::from(i16::MAX);
                    assert_eq!((fast[0], fast[1]), (full, -full));
                }
            }
        }
    }

    #[test]
    fn integers_agree_with_the_formula() {
        // The network's definition in real numbers, computed from the same integer weights:
        // the integer evaluation may differ from it only by the centipawns' truncation.
        let net = Network::embedded();
        let clipped = |v: i16| f64::from(v.clamp(0, QA as i16)) / f64::from(QA);
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R b KQ - 3 9",
            "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 0 1",
            "6k1/5ppp/8/8/8/8/q4PPP/1R4K1 w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).expect("test position");
            let acc = net.refresh(&pos);
            let turn = pos.turn();
            let h: Vec<f64> = acc.v[turn.index()]
                .iter()
                .chain(&acc.v[(!turn).index()])
                .map(|&v| clipped(v))
                .collect();
            let mut logit = f64::from(net.b2) / f64::from(QA * QB);
            for (h, w) in h.iter().zip(&net.rows[L2]) {
                logit += h * f64::from(*w) / f64::from(QB);
            }
            for j in 0..L2 {
                let mut z = f64::from(net.c2[j]) / f64::from(QA * Q2);
                for (h, w) in h.iter().zip(&net.rows[j]) {
                    z += h * f64::from(*w) / f64::from(Q2);
                }
                logit += z.clamp(0.0, 1.0) * f64::from(net.v3[j]) / f64::from(Q3);
            }
            let real = logit * f64::from(SCALE);
            let integer = net.output(&acc, turn, 0);
            assert!(
                (f64::from(integer) - real).abs() < 1.0,
                "{fen}: integers {integer}, real numbers {real:.2}"
            );
        }
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
