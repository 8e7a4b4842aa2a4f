//! A 128-bit position key for telling positions apart in collections of billions of them, where
//! the 64-bit Polyglot key would collide: at 10^11 distinct positions a 64-bit key expects about
//! 270 collisions, a 128-bit one about 10^-17.
//!
//! Its random numbers are tabla's own (SplitMix64 from a fixed seed, computed at compile time),
//! so the key is stable across versions and machines; it is not the Polyglot key.

use crate::{Color, Piece, Position, Role};

/// SplitMix64's step: the next state and its output.
const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

/// Keys: 16 piece codes × 64 squares, then 64 castling-rook squares, 8 en-passant files and the
/// side to move (Black).
const PIECES: usize = 0;
const CASTLING: usize = 16 * 64;
const EN_PASSANT: usize = CASTLING + 64;
const BLACK: usize = EN_PASSANT + 8;
const COUNT: usize = BLACK + 1;

static KEYS: [u128; COUNT] = {
    let mut keys = [0u128; COUNT];
    let mut state = 0x7461_626c_615f_6b65; // "tabla_ke"
    let mut i = 0;
    while i < COUNT {
        let (s, high) = splitmix(state);
        let (s, low) = splitmix(s);
        state = s;
        keys[i] = (high as u128) << 64 | low as u128;
        i += 1;
    }
    // Code 0 (no piece) and the unused codes keep keys too; only real pieces' are read.
    keys
};

impl Position {
    /// A 128-bit key of the position as the rules of repetition see it: two positions have the
    /// same key when they have the same pieces on the same squares, the same side to move, the
    /// same castling rights (as the rooks that keep them, so Chess960 rights are told apart) and
    /// the same en-passant square where an en-passant capture is legal; the move clocks do not
    /// count. This is python-chess's `Board.epd()` equality, and what an opening explorer groups
    /// games by. Computed from scratch (a few dozen table reads), not kept move by move.
    ///
    /// ```
    /// use tabla::Position;
    /// let mut a = Position::startpos();
    /// let mut b = Position::startpos();
    /// for san in ["d4", "Nf6", "c4", "e6"] {
    ///     a.push_san(san).unwrap();
    /// }
    /// for san in ["c4", "e6", "d4", "Nf6"] {
    ///     b.push_san(san).unwrap();
    /// }
    /// // The same position by two move orders (the FENs differ only in the halfmove clock).
    /// assert_ne!(a.to_fen(), b.to_fen());
    /// assert_eq!(a.wide_key(), b.wide_key());
    /// assert_ne!(a.wide_key(), Position::startpos().wide_key());
    /// ```
    pub fn wide_key(&self) -> u128 {
        let mut key = 0;
        for color in Color::ALL {
            for role in Role::ALL {
                let base = PIECES + Piece::new(color, role).code() as usize * 64;
                for sq in self.pieces(color, role) {
                    key ^= KEYS[base + sq.index()];
                }
            }
        }
        for rook in self.castling_rights().rooks() {
            key ^= KEYS[CASTLING + rook.index()];
        }
        if let Some(ep) = self.legal_ep_square() {
            key ^= KEYS[EN_PASSANT + ep.file().index() as usize];
        }
        if self.turn() == Color::Black {
            key ^= KEYS[BLACK];
        }
        key
    }
}

/// The 96 bits of a [`Position::wide_key`] that the `key_hi` and `key_lo` columns
/// of `tabla convert`, `tabla db` and the evaluation cache hold: `key_hi` its top 64 bits read as a signed number (Spark has no unsigned integers),
/// `key_lo` the next 32 bits (0 to 2^32 - 1). 96 bits keep collisions negligible at 10^11
/// distinct positions (about 6 * 10^-8 expected colliding pairs; lichess's explorer uses 96
/// bits too) and take 4 bytes less per row than 128 would.
///
/// ```
/// use tabla::Position;
/// let key = Position::startpos().wide_key();
/// let (hi, lo) = tabla::zobrist::key_columns(key);
/// assert!((0..1 << 32).contains(&lo));
/// assert_eq!(tabla::zobrist::key_from_columns(hi, lo), key >> 32 << 32);
/// ```
pub fn key_columns(key: u128) -> (i64, i64) {
    ((key >> 64) as u64 as i64, i64::from((key >> 32) as u32))
}

/// The key [`key_columns`] hold: the wide key with its lowest 32 bits cleared.
pub fn key_from_columns(hi: i64, lo: i64) -> u128 {
    (u128::from(hi as u64) << 64) | (u128::from(lo as u32) << 32)
}

#[cfg(test)]
mod tests {
    use crate::{Position, Validation};
    use std::collections::HashMap;

    /// Every position reached within three plies of positions rich in castling (Chess960
    /// included), en passant (legal and not) and promotions: equal keys exactly for equal
    /// positions, judged independently by the FEN without its clocks and with the en-passant
    /// square only when legal.
    #[test]
    fn one_key_per_position() {
        fn walk(pos: &Position, depth: u32, seen: &mut HashMap<u128, String>) {
            let epd = {
                let fen = pos.fen_with(crate::EnPassantMode::Legal);
                fen.rsplitn(3, ' ').nth(2).unwrap_or_default().to_owned()
            };
            let key = pos.wide_key();
            if let Some(other) = seen.insert(key, epd.clone()) {
                assert_eq!(other, epd, "two positions, one key");
            }
            if depth == 0 {
                return;
            }
            for &mv in pos.legal_moves().iter() {
                let mut next = pos.clone_without_history();
                next.play_unchecked(mv);
                walk(&next, depth - 1, seen);
            }
        }
        let mut seen = HashMap::new();
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        ] {
            let pos = Position::from_fen_with(fen, Validation::Lenient).expect("test data");
            walk(&pos, 3, &mut seen);
        }
        // Distinct keys for distinct positions: as many keys as positions.
        let positions: std::collections::HashSet<&String> = seen.values().collect();
        assert_eq!(positions.len(), seen.len());
        assert!(seen.len() > 50_000, "{} positions", seen.len());
    }

    /// The en-passant square counts only when the capture is legal: after 1. e4 no black pawn
    /// can take, so the key equals that of the same FEN without the square.
    #[test]
    fn en_passant_only_when_legal() {
        let with =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
                .expect("test data");
        let without =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
                .expect("test data");
        assert_eq!(with.wide_key(), without.wide_key());
        let capturable =
            Position::from_fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
                .expect("test data");
        let not_capturable =
            Position::from_fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
                .expect("test data");
        assert_ne!(capturable.wide_key(), not_capturable.wide_key());
    }
}
