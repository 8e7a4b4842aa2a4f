//! Writing FEN: one writer, into a caller's buffer without allocating (the PGN replay and
//! `tabla convert` ask for a FEN after every move), with the `String`-returning forms on top.

use crate::{Bitboard, Board, Color, Piece, Position, Role};
use std::fmt;

/// How the en-passant field is written.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum EnPassantMode {
    /// After every double pawn push, as the PGN standard's FEN section says (the default).
    #[default]
    Always,
    /// Only when an en-passant capture is legal (as lichess and python-chess write it).
    Legal,
}

/// FEN letters by the board's raw piece codes (0 where there is no piece).
const LETTERS: [u8; 16] = {
    let mut letters = [0u8; 16];
    let mut code = 0;
    while code < 16 {
        if let Some(piece) = Piece::from_code(code as u8) {
            letters[code] = piece.char() as u8;
        }
        code += 1;
    }
    letters
};

/// The longest FEN: 64 + 7 bytes of placement, a side, up to 4 castling letters, two
/// en-passant bytes, two numbers of at most 10 digits and five spaces.
const MAX_FEN: usize = 104;

/// Writes `n` in decimal at `buf[at..]`; returns the index after it.
#[inline]
fn put_number(n: u32, buf: &mut [u8; MAX_FEN], at: usize) -> usize {
    let mut digits = [0u8; 10];
    let (mut i, mut n) = (digits.len(), n);
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let len = digits.len() - i;
    buf[at..at + len].copy_from_slice(&digits[i..]);
    at + len
}

/// Writes the placement field at `buf[at..]`; returns the index after it.
#[inline]
fn put_placement(board: &Board, buf: &mut [u8; MAX_FEN], at: usize) -> usize {
    let mut n = at;
    for rank in (0..8u8).rev() {
        let mut empty = 0u8;
        for file in 0..8u8 {
            let letter = LETTERS[(board.code_0x88(rank * 16 + file) & 15) as usize];
            if letter == 0 {
                empty += 1;
            } else {
                if empty > 0 {
                    buf[n] = b'0' + empty;
                    n += 1;
                    empty = 0;
                }
                buf[n] = letter;
                n += 1;
            }
        }
        if empty > 0 {
            buf[n] = b'0' + empty;
            n += 1;
        }
        if rank > 0 {
            buf[n] = b'/';
            n += 1;
        }
    }
    n
}

/// Writes the castling field at `buf[at..]`: `KQkq` where the right-holding rook is the
/// outermost one on its side of the king, else the rook's file letter (X-FEN); `-` for no
/// rights. Returns the index after it.
#[inline]
fn put_castling(pos: &Position, buf: &mut [u8; MAX_FEN], at: usize) -> usize {
    let mut n = at;
    for color in Color::ALL {
        let king = pos.king(color);
        let ours = pos.pieces(color, Role::Rook).0;
        let mut rooks = [None; 8];
        let mut count = 0;
        for rook in pos.castling_rights().rooks_of(color) {
            rooks[count] = Some(rook);
            count += 1;
        }
        // From the h-file down.
        for rook in rooks[..count].iter().rev().flatten() {
            let king_side = rook.file() > king.file();
            let beyond = if king_side {
                !0u64 << rook.index() << 1
            } else {
                (1u64 << rook.index()) - 1
            };
            let letter = if ours & Bitboard::rank(rook.rank()).0 & beyond == 0 {
                if king_side { b'k' } else { b'q' }
            } else {
                rook.file().char() as u8
            };
            buf[n] = match color {
                Color::White => letter.to_ascii_uppercase(),
                Color::Black => letter,
            };
            n += 1;
        }
    }
    if n == at {
        buf[n] = b'-';
        n += 1;
    }
    n
}

/// Appends `buf[..len]` (ASCII) to `out`.
#[inline]
fn append(buf: &[u8; MAX_FEN], len: usize, out: &mut String) {
    // Only ASCII was written, so the check cannot fail.
    if let Ok(text) = std::str::from_utf8(&buf[..len]) {
        out.push_str(text);
    }
}

impl Position {
    /// Appends the FEN to `out` without allocating (beyond growing `out`): the en-passant square
    /// after every double push ([`EnPassantMode::Always`]), castling as `KQkq` where the rook is
    /// the outermost one on its side, else the rook's file letter (X-FEN), so Chess960 positions
    /// round-trip.
    ///
    /// ```
    /// use tabla::Position;
    /// let mut fens = String::new();
    /// let mut pos = Position::startpos();
    /// for san in ["e4", "c5"] {
    ///     pos.push_san(san).unwrap();
    ///     pos.write_fen(&mut fens);
    ///     fens.push('\n');
    /// }
    /// assert_eq!(fens, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\n\
    ///                   rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2\n");
    /// ```
    pub fn write_fen(&self, out: &mut String) {
        self.write_fen_with(EnPassantMode::Always, out);
    }

    /// Appends the FEN with the chosen en-passant convention to `out`.
    pub fn write_fen_with(&self, mode: EnPassantMode, out: &mut String) {
        let mut buf = [0u8; MAX_FEN];
        let mut n = put_placement(self.board(), &mut buf, 0);
        buf[n] = b' ';
        buf[n + 1] = self.turn().char() as u8;
        buf[n + 2] = b' ';
        n = put_castling(self, &mut buf, n + 3);
        buf[n] = b' ';
        n += 1;
        let ep = match mode {
            EnPassantMode::Always => self.ep_square(),
            EnPassantMode::Legal => self.legal_ep_square(),
        };
        match ep {
            Some(sq) => {
                buf[n] = sq.file().char() as u8;
                buf[n + 1] = sq.rank().char() as u8;
                n += 2;
            }
            None => {
                buf[n] = b'-';
                n += 1;
            }
        }
        buf[n] = b' ';
        n = put_number(self.halfmoves(), &mut buf, n + 1);
        buf[n] = b' ';
        n = put_number(self.fullmoves(), &mut buf, n + 1);
        append(&buf, n, out);
    }

    /// The FEN (see [`Position::write_fen`]).
    pub fn to_fen(&self) -> String {
        self.fen_with(EnPassantMode::Always)
    }

    /// The FEN with the chosen en-passant convention.
    ///
    /// ```
    /// use tabla::{EnPassantMode, Position};
    /// let mut pos = Position::startpos();
    /// pos.push_san("e4").unwrap();
    /// assert_eq!(pos.fen_with(EnPassantMode::Legal), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    /// ```
    pub fn fen_with(&self, mode: EnPassantMode) -> String {
        let mut s = String::with_capacity(90);
        self.write_fen_with(mode, &mut s);
        s
    }

    /// The placement field alone.
    pub fn board_fen(&self) -> String {
        board_fen(self.board())
    }

    /// The castling field alone.
    pub fn castling_fen(&self) -> String {
        let mut buf = [0u8; MAX_FEN];
        let n = put_castling(self, &mut buf, 0);
        let mut s = String::with_capacity(n);
        append(&buf, n, &mut s);
        s
    }
}

/// The placement field of a board.
pub fn board_fen(board: &Board) -> String {
    let mut buf = [0u8; MAX_FEN];
    let n = put_placement(board, &mut buf, 0);
    let mut s = String::with_capacity(n);
    append(&buf, n, &mut s);
    s
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::with_capacity(90);
        self.write_fen(&mut s);
        f.write_str(&s)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Position, Validation};

    /// The writer against the parser: the FEN read back from what was written is written the
    /// same and has the same key and castling rights, over positions rich in castling (Chess960
    /// included), en passant and promotions, a clock at its limits, and every position reached
    /// from them in one move.
    #[test]
    fn round_trips_after_every_move() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "4k3/8/8/8/8/8/8/4K2R w K - 4294967295 4294967295",
        ] {
            let pos = Position::from_fen_with(fen, Validation::Lenient)
                .unwrap_or_else(|e| panic!("{fen}: {e}"));
            let mut reached = vec![pos.clone()];
            for &mv in pos.legal_moves().iter() {
                let mut next = pos.clone();
                next.play_unchecked(mv);
                reached.push(next);
            }
            for next in reached {
                let written = next.to_fen();
                let back = Position::from_fen_with(&written, Validation::Lenient)
                    .unwrap_or_else(|e| panic!("{written}: {e}"));
                assert_eq!(back.to_fen(), written, "from {fen}");
                assert_eq!(back.compute_key(), next.zobrist(), "{written} from {fen}");
                assert_eq!(back.castling_rights(), next.castling_rights(), "{written}");
            }
        }
    }
}
