//! Resolving move tokens during replay: standard SAN on a fast path that looks only at the
//! pieces that can reach the target square, everything else through the core's lenient parser.
//!
//! The fast path accepts exactly one legal candidate and otherwise hands the token to
//! [`Position::parse_san`], so it never decides differently from it: it finds the same move
//! (the legal move of that piece kind, to that square, matching the disambiguation and the
//! promotion) or defers, and every error comes from the core.

use tabla::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use tabla::{Bitboard, Color, File, Move, MoveKind, Position, Rank, Role, SanError, Square};

/// Resolves a move written as bytes in `pos`, with the same result as the core's lenient
/// [`Position::parse_san`] (which it falls back to for everything but standard SAN), only
/// faster: standard SAN looks at the few pieces that can reach the target square.
///
/// ```
/// use tabla::Position;
/// let pos = Position::startpos();
/// let mv = tabla_pgn::resolve_san(&pos, b"Nf3").unwrap();
/// assert_eq!(Ok(mv), pos.parse_san("Nf3"));
/// assert_eq!(tabla_pgn::resolve_san(&pos, b"O-O").is_err(), pos.parse_san("O-O").is_err());
/// ```
pub fn resolve_san(pos: &Position, token: &[u8]) -> Result<Move, SanError> {
    if let Some(mv) = fast_san(pos, token) {
        return Ok(mv);
    }
    match std::str::from_utf8(token) {
        Ok(text) => pos.parse_san(text),
        Err(_) => Err(SanError::Syntax {
            text: String::from_utf8_lossy(token).into_owned(),
        }),
    }
}

#[inline]
fn file_of(b: u8) -> Option<File> {
    if (b'a'..=b'h').contains(&b) {
        File::new(b - b'a')
    } else {
        None
    }
}

#[inline]
fn rank_of(b: u8) -> Option<Rank> {
    if (b'1'..=b'8').contains(&b) {
        Rank::new(b - b'1')
    } else {
        None
    }
}

#[inline]
fn square_of(f: u8, r: u8) -> Option<Square> {
    Some(Square::from_coords(file_of(f)?, rank_of(r)?))
}

#[inline]
fn piece_role(b: u8) -> Option<Role> {
    Some(match b {
        b'N' => Role::Knight,
        b'B' => Role::Bishop,
        b'R' => Role::Rook,
        b'Q' => Role::Queen,
        b'K' => Role::King,
        _ => return None,
    })
}

#[inline]
fn promotion_role(b: u8) -> Option<Role> {
    match piece_role(b.to_ascii_uppercase())? {
        Role::King => None,
        role => Some(role),
    }
}

/// `true` when our king is safe after a non-king move from `from` to `to`, the piece on `to`
/// (if any) being captured.
#[inline]
fn king_safe_after(pos: &Position, us: Color, from: Square, to: Square) -> bool {
    let king = pos.king(us);
    let to_bb = Bitboard::from_square(to);
    let occupied = Bitboard((pos.occupied().0 & !Bitboard::from_square(from).0) | to_bb.0);
    let them = Bitboard(pos.by_color(!us).0 & !to_bb.0);
    let rooks = Bitboard(pos.by_role(Role::Rook).0 | pos.by_role(Role::Queen).0);
    let bishops = Bitboard(pos.by_role(Role::Bishop).0 | pos.by_role(Role::Queen).0);
    let attackers = (rook_attacks(king, occupied).0 & rooks.0)
        | (bishop_attacks(king, occupied).0 & bishops.0)
        | (knight_attacks(king).0 & pos.by_role(Role::Knight).0)
        | (pawn_attacks(us, king).0 & pos.by_role(Role::Pawn).0);
    attackers & them.0 == 0
}

/// Standard SAN (`Nf3`, `Nbd7`, `R1e2`, `Qh4xe1`, `exd5`, `e8=Q`, `e8Q`, with `+`/`#` or not)
/// resolved when exactly one legal move matches; `None` to defer to the core's parser.
fn fast_san(pos: &Position, token: &[u8]) -> Option<Move> {
    let mut b = token;
    while let [rest @ .., b'+' | b'#'] = b {
        b = rest;
    }
    match *b.first()? {
        b'a'..=b'h' => pawn_move(pos, b),
        first => piece_move(pos, piece_role(first)?, &b[1..]),
    }
}

fn piece_move(pos: &Position, role: Role, b: &[u8]) -> Option<Move> {
    let [rest @ .., f, r] = b else {
        return None;
    };
    let to = square_of(*f, *r)?;
    let rest = rest.strip_suffix(b"x").unwrap_or(rest);
    let (from_file, from_rank) = match *rest {
        [] => (None, None),
        [c] if c.is_ascii_digit() => (None, Some(rank_of(c)?)),
        [c] => (Some(file_of(c)?), None),
        [c, d] => (Some(file_of(c)?), Some(rank_of(d)?)),
        _ => return None,
    };
    let us = pos.turn();
    if pos.by_color(us).contains(to) {
        return None;
    }
    let occupied = pos.occupied();
    let reach = match role {
        Role::Knight => knight_attacks(to),
        Role::Bishop => bishop_attacks(to, occupied),
        Role::Rook => rook_attacks(to, occupied),
        Role::Queen => Bitboard(rook_attacks(to, occupied).0 | bishop_attacks(to, occupied).0),
        _ => king_attacks(to),
    };
    let mut candidates = reach.0 & pos.pieces(us, role).0;
    if let Some(file) = from_file {
        candidates &= Bitboard::file(file).0;
    }
    if let Some(rank) = from_rank {
        candidates &= Bitboard::rank(rank).0;
    }
    let capture = pos.piece_at(to).map(|p| p.role);
    let mut found = None;
    for from in Bitboard(candidates) {
        let legal = if role == Role::King {
            let without_king = occupied.without(from);
            (pos.attackers_with(to, without_king).0 & pos.by_color(!us).0) == 0
        } else {
            king_safe_after(pos, us, from, to)
        };
        if legal {
            if found.is_some() {
                return None;
            }
            found = Some(Move::new(from, to, role, capture, None, MoveKind::Normal));
        }
    }
    found
}

fn pawn_move(pos: &Position, b: &[u8]) -> Option<Move> {
    // Promotion at the end: `=Q` or `Q` (or lower case after `=`).
    let (b, promotion) = match *b {
        [ref rest @ .., b'=', p] => (rest, Some(promotion_role(p)?)),
        [ref rest @ .., p @ (b'N' | b'B' | b'R' | b'Q')] => (rest, Some(promotion_role(p)?)),
        _ => (b, None),
    };
    let us = pos.turn();
    let (from, to, kind) = match *b {
        [f, r] => {
            let to = square_of(f, r)?;
            if pos.occupied().contains(to) {
                return None;
            }
            let one = to.offset(0, if us == Color::White { -1 } else { 1 })?;
            let our_pawn = |sq: Square| pos.pieces(us, Role::Pawn).contains(sq);
            if our_pawn(one) {
                (one, to, MoveKind::Normal)
            } else {
                let double_rank = if us == Color::White {
                    Rank::Fourth
                } else {
                    Rank::Fifth
                };
                let two = one.offset(0, if us == Color::White { -1 } else { 1 })?;
                if to.rank() != double_rank || pos.occupied().contains(one) || !our_pawn(two) {
                    return None;
                }
                (two, to, MoveKind::DoublePush)
            }
        }
        [f, b'x', tf, tr] | [f, tf @ b'a'..=b'h', tr] => {
            let to = square_of(tf, tr)?;
            let file = file_of(f)?;
            // En passant (an empty target) and captures of our own pieces go to the core.
            if !pos.by_color(!us).contains(to) {
                return None;
            }
            let from_rank = to
                .offset(0, if us == Color::White { -1 } else { 1 })?
                .rank();
            let from = Square::from_coords(file, from_rank);
            if !pos.pieces(us, Role::Pawn).contains(from) || !pawn_attacks(us, from).contains(to) {
                return None;
            }
            (from, to, MoveKind::Normal)
        }
        _ => return None,
    };
    let last_rank = if us == Color::White {
        Rank::Eighth
    } else {
        Rank::First
    };
    if (to.rank() == last_rank) != promotion.is_some() {
        return None;
    }
    if !king_safe_after(pos, us, from, to) {
        return None;
    }
    let capture = pos.piece_at(to).map(|p| p.role);
    Some(Move::new(from, to, Role::Pawn, capture, promotion, kind))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every legal move of `pos`, written in SAN, resolves to itself, and agrees with the core.
    fn check_all(pos: &Position) {
        for &mv in pos.legal_moves().iter() {
            let san = pos.san(mv);
            assert_eq!(resolve_san(pos, san.as_bytes()), Ok(mv), "{san} in {pos}");
            if let Some(fast) = fast_san(pos, san.as_bytes()) {
                assert_eq!(fast, mv, "{san} in {pos}");
            }
        }
    }

    #[test]
    fn every_legal_move_of_tricky_positions() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1",
            "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
            "1k6/8/8/8/8/8/6p1/4K2R b K - 0 1",
            "R6R/8/1k6/8/8/8/8/R3K3 w - - 0 1",
            "2k5/8/8/Q2Q4/8/8/8/Q2QK3 w - - 0 1",
        ] {
            let pos = Position::from_fen_with(fen, tabla::Validation::Lenient)
                .unwrap_or_else(|e| panic!("{fen}: {e}"));
            check_all(&pos);
            for &mv in pos.legal_moves().iter() {
                let mut next = pos.clone();
                next.play(mv);
                check_all(&next);
            }
        }
    }

    #[test]
    fn defers_what_it_does_not_handle() {
        let pos = Position::startpos();
        for token in [
            "O-O", "e2e4", "Ng1-f3", "Pe4", "nf3", "e5", "Nf6", "Ke2", "exd5",
        ] {
            assert_eq!(fast_san(&pos, token.as_bytes()), None, "{token}");
        }
        // A pinned knight does not make the other one ambiguous.
        let pos = Position::from_fen("4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1").expect("valid");
        let mv = fast_san(&pos, b"Ne2").expect("resolved");
        assert_eq!(mv.from(), Square::G1);
    }
}
