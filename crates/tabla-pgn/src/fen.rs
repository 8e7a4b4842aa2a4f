//! Writing a position's FEN into a caller's buffer, without allocating: the replay hot path
//! asks for a FEN after every move.

use tabla::{Bitboard, Color, Piece, Position};

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

/// Appends the FEN of `pos` to `out`, exactly as [`Position::to_fen`] writes it (the
/// en-passant square after every double push; `KQkq`, or rook files where needed).
///
/// ```
/// use tabla::Position;
/// let mut pos = Position::startpos();
/// pos.play(pos.parse_san("e4").unwrap());
/// let mut fen = String::new();
/// tabla_pgn::push_fen(&pos, &mut fen);
/// assert_eq!(fen, pos.to_fen());
/// ```
pub fn push_fen(pos: &Position, out: &mut String) {
    // At most 64 + 2 + 5 + 3 bytes of placement, side, castling and en passant, and two
    // numbers of at most 10 digits.
    let mut bytes = [0u8; 104];
    let mut n = 0;
    let board = pos.board();
    for rank in (0..8u8).rev() {
        let mut empty = 0u8;
        for file in 0..8u8 {
            let letter = LETTERS[(board.code_0x88(rank * 16 + file) & 15) as usize];
            if letter == 0 {
                empty += 1;
            } else {
                if empty > 0 {
                    bytes[n] = b'0' + empty;
                    n += 1;
                    empty = 0;
                }
                bytes[n] = letter;
                n += 1;
            }
        }
        if empty > 0 {
            bytes[n] = b'0' + empty;
            n += 1;
        }
        bytes[n] = if rank > 0 { b'/' } else { b' ' };
        n += 1;
    }
    bytes[n] = if pos.turn() == Color::White {
        b'w'
    } else {
        b'b'
    };
    bytes[n + 1] = b' ';
    n += 2;
    let start = n;
    for color in Color::ALL {
        let king = pos.king(color);
        let ours = pos.pieces(color, tabla::Role::Rook).0;
        // Right-holding rooks from the h-file down, as the core writes them.
        let rights = pos.castling_rights().rooks_of(color).0;
        let mut rooks = [None, None, None, None, None, None, None, None];
        let mut count = 0;
        for rook in Bitboard(rights) {
            rooks[count] = Some(rook);
            count += 1;
        }
        for rook in rooks[..count].iter().rev().flatten() {
            let king_side = rook.file() > king.file();
            let rank_mask = Bitboard::rank(rook.rank()).0;
            let beyond_mask = if king_side {
                !0u64 << rook.index() << 1
            } else {
                (1u64 << rook.index()) - 1
            };
            let letter = if ours & rank_mask & beyond_mask == 0 {
                if king_side { b'k' } else { b'q' }
            } else {
                rook.file().char() as u8
            };
            bytes[n] = if color == Color::White {
                letter.to_ascii_uppercase()
            } else {
                letter
            };
            n += 1;
        }
    }
    if n == start {
        bytes[n] = b'-';
        n += 1;
    }
    bytes[n] = b' ';
    n += 1;
    match pos.ep_square() {
        Some(sq) => {
            bytes[n] = sq.file().char() as u8;
            bytes[n + 1] = sq.rank().char() as u8;
            n += 2;
        }
        None => {
            bytes[n] = b'-';
            n += 1;
        }
    }
    bytes[n] = b' ';
    n += 1;
    n = put_number(pos.halfmoves(), &mut bytes, n);
    bytes[n] = b' ';
    n = put_number(pos.fullmoves(), &mut bytes, n + 1);
    // Only ASCII was written, so the conversion cannot fail.
    out.push_str(std::str::from_utf8(&bytes[..n]).unwrap_or_default());
}

/// The FEN of `pos` (see [`push_fen`]).
pub fn fen(pos: &Position) -> String {
    let mut out = String::with_capacity(90);
    push_fen(pos, &mut out);
    out
}

/// Writes `n` in decimal at `bytes[at..]`; returns the index after it.
fn put_number(n: u32, bytes: &mut [u8], at: usize) -> usize {
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
    bytes[at..at + len].copy_from_slice(&digits[i..]);
    at + len
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_as_the_core_on_every_position_reached() {
        for fen_text in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "4k3/8/8/8/8/8/8/4K2R w K - 99 1234567",
        ] {
            let pos = Position::from_fen_with(fen_text, tabla::Validation::Lenient)
                .unwrap_or_else(|e| panic!("{fen_text}: {e}"));
            assert_eq!(fen(&pos), pos.to_fen());
            for &mv in pos.legal_moves().iter() {
                let mut next = pos.clone();
                next.play(mv);
                assert_eq!(fen(&next), next.to_fen(), "after {mv} from {fen_text}");
            }
        }
    }
}
