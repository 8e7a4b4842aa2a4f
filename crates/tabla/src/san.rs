//! Standard Algebraic Notation: output with minimal disambiguation over legal moves, and input in
//! a strict and a lenient mode.

use crate::movegen::MoveList;
use crate::{
    Bitboard, CastlingSide, Color, File, Move, MoveKind, Position, Rank, Role, Square, attacks,
};

/// How a move in text is matched.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum SanMode {
    /// Only the exact canonical SAN, check or mate sign included.
    Strict,
    /// What people and programs write: `Nge2` for `Ne2`, `0-0`, `e8Q`/`e8=q`, missing or
    /// spurious `x`, `ed5`, missing or wrong `+`/`#`, trailing `!?`-style glyphs, the long form
    /// `Ng1-e2`/`Ng1xe2`, and UCI `g1e2` (the default).
    #[default]
    Lenient,
}

/// Why a move in text could not be resolved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SanError {
    /// The text is not a move in any accepted notation.
    #[error("{text:?} is not a move (expected SAN such as Nf3, exd5, O-O, e8=Q)")]
    Syntax {
        /// The text.
        text: String,
    },
    /// No legal move matches.
    #[error("{text:?} is illegal in this position")]
    Illegal {
        /// The text.
        text: String,
    },
    /// More than one legal move matches.
    #[error("{text:?} is ambiguous: it could be {}", candidates.join(" or "))]
    Ambiguous {
        /// The text.
        text: String,
        /// The matching moves, in SAN.
        candidates: Vec<String>,
    },
    /// Strict mode: the move is legal but not written in canonical SAN.
    #[error("{text:?} is not standard SAN; write {canonical:?}")]
    NotCanonical {
        /// The text.
        text: String,
        /// The canonical SAN of the move it denotes.
        canonical: String,
    },
}

/// The parts of a move written in SAN-like text.
#[derive(Debug, Default)]
struct Pattern {
    role: Option<Role>,
    from_file: Option<File>,
    from_rank: Option<Rank>,
    to: Option<Square>,
    promotion: Option<Role>,
    castle: Option<CastlingSide>,
}

/// Strips check/mate signs and annotation glyphs from the end.
fn strip_suffix(text: &str) -> &str {
    text.trim_end_matches(['+', '#', '!', '?'])
}

fn parse_pattern(text: &str) -> Option<Pattern> {
    let body = strip_suffix(text);
    match body {
        "O-O" | "0-0" | "o-o" => {
            return Some(Pattern {
                castle: Some(CastlingSide::KingSide),
                ..Pattern::default()
            });
        }
        "O-O-O" | "0-0-0" | "o-o-o" => {
            return Some(Pattern {
                castle: Some(CastlingSide::QueenSide),
                ..Pattern::default()
            });
        }
        _ => {}
    }
    let mut b = body.as_bytes();
    let mut p = Pattern::default();
    // Promotion at the end: `=Q`, `Q`, `q`, `(Q)`.
    if let [rest @ .., b'(', r, b')'] = b {
        p.promotion = Some(promotion_role(*r)?);
        b = rest;
    } else if let [rest @ .., last] = b
        && last.is_ascii_alphabetic()
        && rest
            .last()
            .is_some_and(|c| c.is_ascii_digit() || *c == b'=')
    {
        p.promotion = Some(promotion_role(*last)?);
        b = rest;
        if let [rest2 @ .., b'='] = b {
            b = rest2;
        }
    }
    let [rest @ .., f, r] = b else {
        return None;
    };
    p.to = Some(Square::from_ascii(&[*f, *r])?);
    b = rest;
    if let [first, rest @ ..] = b
        && first.is_ascii_uppercase()
    {
        p.role = Some(Role::from_char(*first as char)?);
        b = rest;
    }
    // Whatever is left: origin file and/or rank, and a capture or long-form separator.
    if let [rest @ .., sep] = b
        && matches!(sep, b'x' | b':' | b'-' | b'X')
    {
        b = rest;
    }
    match b {
        [] => {}
        [c] if c.is_ascii_digit() => p.from_rank = Some(Rank::from_char(*c as char)?),
        [c] => p.from_file = Some(File::from_char(*c as char)?),
        [f, r] => {
            p.from_file = Some(File::from_char(*f as char)?);
            p.from_rank = Some(Rank::from_char(*r as char)?);
        }
        _ => return None,
    }
    Some(p)
}

/// `e2e4`, `e7e8q`: four or five characters of coordinates.
fn looks_like_uci(s: &str) -> bool {
    let b = s.as_bytes();
    (b.len() == 4 || b.len() == 5)
        && Square::from_ascii(&b[0..2]).is_some()
        && Square::from_ascii(&b[2..4]).is_some()
        && (b.len() == 4 || matches!(b[4], b'q' | b'r' | b'b' | b'n'))
}

fn promotion_role(c: u8) -> Option<Role> {
    match Role::from_char(c as char)? {
        r @ (Role::Queen | Role::Rook | Role::Bishop | Role::Knight) => Some(r),
        _ => None,
    }
}

/// The square named by a file letter and a rank digit.
#[inline]
fn square_at(file: u8, rank: u8) -> Option<Square> {
    let (file, rank) = (file.wrapping_sub(b'a'), rank.wrapping_sub(b'1'));
    (file < 8 && rank < 8).then(|| Square::new_masked(rank << 3 | file))
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
const RANK_1: u64 = 0xff;

/// Both diagonals through each square (the square itself included).
static DIAGONALS: [Bitboard; 64] = {
    let mut table = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = (sq % 8, sq / 8);
        let mut bits = 0u64;
        let mut other = 0;
        while other < 64 {
            let (f, r) = (other % 8, other / 8);
            if f + rank == r + file || f + r == file + rank {
                bits |= 1 << other;
            }
            other += 1;
        }
        table[sq as usize] = Bitboard(bits);
        sq += 1;
    }
    table
};

impl Position {
    /// The SAN of a legal move, with `+` or `#`.
    ///
    /// Disambiguation looks only at legal moves, so a pinned knight does not make another
    /// knight's move ambiguous:
    ///
    /// ```
    /// use tabla::Position;
    /// // The c3 knight is pinned by the bishop on b4: Ne2 needs no file letter.
    /// let pos = Position::from_fen("4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1").unwrap();
    /// let mv = pos.parse_san("Ne2").unwrap();
    /// assert_eq!(pos.san(mv), "Ne2");
    /// ```
    pub fn san(&self, mv: Move) -> String {
        let mut after = self.clone_without_history();
        after.play_unchecked(mv);
        let mut s = self.san_without_suffix(mv);
        s.push_str(after.check_suffix());
        s
    }

    /// `"#"` when the side to move is mated, `"+"` when in check, else `""`.
    pub fn check_suffix(&self) -> &'static str {
        if !self.is_check() {
            ""
        } else if self.legal_moves().is_empty() {
            "#"
        } else {
            "+"
        }
    }

    /// The SAN of a legal move without the check or mate sign.
    pub fn san_without_suffix(&self, mv: Move) -> String {
        let mut s = String::with_capacity(8);
        if let Some(side) = mv.castling_side() {
            s.push_str(side.san());
            return s;
        }
        let to = mv.to();
        if mv.role() == Role::Pawn {
            if mv.is_capture() {
                s.push(mv.from().file().char());
                s.push('x');
            }
            s.push_str(&to.to_string());
            if let Some(p) = mv.promotion() {
                s.push('=');
                s.push(p.upper_char());
            }
            return s;
        }
        s.push(mv.role().upper_char());
        // Another piece of the kind that reaches the square, legally or not; only then are the
        // legal moves worth listing.
        let reaching = self.attackers(to, self.turn())
            & self.pieces(self.turn(), mv.role())
            & !Bitboard::from_square(mv.from());
        if mv.role() != Role::King && reaching.any() {
            let mut others = MoveList::new();
            self.legal_moves_to(&mut others, Bitboard::from_square(to));
            let rivals: Bitboard = others
                .iter()
                .filter(|m| m.role() == mv.role() && m.from() != mv.from() && m.kind() == mv.kind())
                .map(|m| m.from())
                .collect();
            if rivals.any() {
                let from = mv.from();
                if (rivals & Bitboard::file(from.file())).is_empty() {
                    s.push(from.file().char());
                } else if (rivals & Bitboard::rank(from.rank())).is_empty() {
                    s.push(from.rank().char());
                } else {
                    s.push(from.file().char());
                    s.push(from.rank().char());
                }
            }
        }
        if mv.is_capture() {
            s.push('x');
        }
        s.push_str(&to.to_string());
        s
    }

    /// Resolves a move in lenient mode (see [`SanMode::Lenient`]).
    ///
    /// ```
    /// use tabla::{Position, SanError};
    /// let pos = Position::startpos();
    /// let mv = pos.parse_san("Ng1-f3").unwrap();
    /// assert_eq!(pos.san(mv), "Nf3");
    /// assert!(matches!(pos.parse_san("Ke2"), Err(SanError::Illegal { .. })));
    /// ```
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        self.parse_san_bytes(text.as_bytes(), SanMode::Lenient)
    }

    /// Resolves a move written in SAN (or, leniently, in the forms listed at [`SanMode`]).
    pub fn parse_san_with(&self, text: &str, mode: SanMode) -> Result<Move, SanError> {
        self.parse_san_bytes(text.as_bytes(), mode)
    }

    /// Resolves a move given as bytes, as a PGN reader holds it: the same answers as
    /// [`Position::parse_san_with`] on the same text, and [`SanError::Syntax`] for bytes that
    /// are not UTF-8.
    ///
    /// Standard SAN (`Nf3`, `Nbd7`, `R1e2`, `exd5`, `e8=Q`, `O-O`, with or without `+`/`#`) is
    /// found from the target square, looking only at the pieces that reach it; every other
    /// spelling, and every move that is illegal or ambiguous, goes to the general reader, which
    /// matches the text against the legal moves and gives the error.
    ///
    /// ```
    /// use tabla::{Position, SanError, SanMode};
    /// let pos = Position::startpos();
    /// let mv = pos.parse_san_bytes(b"Nf3", SanMode::Lenient).unwrap();
    /// assert_eq!(pos.uci(mv), "g1f3");
    /// assert!(matches!(
    ///     pos.parse_san_bytes(b"N\xfff3", SanMode::Lenient),
    ///     Err(SanError::Syntax { .. })
    /// ));
    /// ```
    #[inline]
    pub fn parse_san_bytes(&self, text: &[u8], mode: SanMode) -> Result<Move, SanError> {
        match self.resolve_standard(text) {
            Some(mv) if mode == SanMode::Lenient => Ok(mv),
            found => self.parse_san_slow(text, mode, found),
        }
    }

    /// Everything but standard SAN read leniently: the general reader, and the strict check.
    #[inline(never)]
    fn parse_san_slow(
        &self,
        text: &[u8],
        mode: SanMode,
        found: Option<Move>,
    ) -> Result<Move, SanError> {
        let mv = match found {
            Some(mv) => mv,
            None => match std::str::from_utf8(text) {
                Ok(text) => self.resolve_general(text, mode)?,
                Err(_) => {
                    return Err(SanError::Syntax {
                        text: String::from_utf8_lossy(text).into_owned(),
                    });
                }
            },
        };
        if mode == SanMode::Strict {
            let canonical = self.san(mv);
            if canonical.as_bytes() != text {
                return Err(SanError::NotCanonical {
                    text: String::from_utf8_lossy(text).into_owned(),
                    canonical,
                });
            }
        }
        Ok(mv)
    }

    // ---- Standard SAN, found directly ------------------------------------------------------

    /// Standard SAN resolved when exactly one legal move matches it; `None` leaves the text to
    /// [`Position::resolve_general`], which accepts everything this does with the same answer
    /// (a unit test below compares the two on every legal move of many positions).
    #[inline(always)]
    fn resolve_standard(&self, text: &[u8]) -> Option<Move> {
        let mut b = text;
        while let [rest @ .., b'+' | b'#'] = b {
            b = rest;
        }
        let (&first, rest) = b.split_first()?;
        match first {
            b'a'..=b'h' => self.standard_pawn_move(b),
            b'N' => self.standard_piece_move(Role::Knight, rest),
            b'B' => self.standard_piece_move(Role::Bishop, rest),
            b'R' => self.standard_piece_move(Role::Rook, rest),
            b'Q' => self.standard_piece_move(Role::Queen, rest),
            b'K' => self.standard_piece_move(Role::King, rest),
            b'O' => match rest {
                b"-O" => self.standard_castle(CastlingSide::KingSide),
                b"-O-O" => self.standard_castle(CastlingSide::QueenSide),
                _ => None,
            },
            _ => None,
        }
    }

    /// A piece move (`b` is what follows the piece letter): the candidates are found from the
    /// target square, since attacks are symmetric.
    #[inline(always)]
    fn standard_piece_move(&self, role: Role, b: &[u8]) -> Option<Move> {
        let [rest @ .., f, r] = b else {
            return None;
        };
        let to = square_at(*f, *r)?;
        let rest = match rest {
            [head @ .., b'x'] => head,
            _ => rest,
        };
        let origin = match *rest {
            [] => !0,
            [c @ b'1'..=b'8'] => RANK_1 << (8 * (c - b'1')),
            [c @ b'a'..=b'h'] => FILE_A << (c - b'a'),
            [c, d] => 1 << square_at(c, d)? as u8,
            _ => return None,
        };
        let us = self.turn();
        if self.by_color(us).contains(to) {
            return None;
        }
        let occupied = self.occupied();
        let reach = match role {
            Role::Knight => attacks::knight_attacks(to),
            Role::Bishop => attacks::bishop_attacks(to, occupied),
            Role::Rook => attacks::rook_attacks(to, occupied),
            Role::Queen => attacks::queen_attacks(to, occupied),
            _ => attacks::king_attacks(to),
        };
        let candidates = Bitboard(reach.0 & self.pieces(us, role).0 & origin);
        let from = if role == Role::King {
            let king = candidates.single()?;
            let attackers = self.attackers_with(to, occupied.without(king)) & self.by_color(!us);
            if attackers.any() {
                return None;
            }
            king
        } else {
            let mut found = None;
            for from in candidates {
                if self.king_safe_after(from, to) {
                    if found.is_some() {
                        return None;
                    }
                    found = Some(from);
                }
            }
            found?
        };
        let capture = self.board().code_at(to) >> 1;
        Some(Move::from_raw(from, to, role, capture, MoveKind::Normal))
    }

    /// A pawn push or an ordinary capture, promoting or not (`=Q`, `Q`, `=q`). En passant goes to
    /// the general reader, as does every move that does not work out here.
    #[inline(always)]
    fn standard_pawn_move(&self, b: &[u8]) -> Option<Move> {
        let (b, promotion) = match *b {
            [ref rest @ .., b'=', p] => (rest, Some(promotion_role(p)?)),
            [ref rest @ .., p @ (b'N' | b'B' | b'R' | b'Q')] => (rest, Some(promotion_role(p)?)),
            _ => (b, None),
        };
        let us = self.turn();
        let pawns = self.pieces(us, Role::Pawn);
        let back: i8 = if us == Color::White { -1 } else { 1 };
        let (from, to, kind) = match *b {
            [f, r] => {
                let to = square_at(f, r)?;
                let occupied = self.occupied();
                if occupied.contains(to) {
                    return None;
                }
                let one = to.offset(0, back)?;
                if pawns.contains(one) {
                    (one, to, MoveKind::Normal)
                } else {
                    let two = one.offset(0, back)?;
                    let double_rank = if us == Color::White {
                        Rank::Fourth
                    } else {
                        Rank::Fifth
                    };
                    if to.rank() != double_rank || occupied.contains(one) || !pawns.contains(two) {
                        return None;
                    }
                    (two, to, MoveKind::DoublePush)
                }
            }
            [f, b'x', tf, tr] | [f, tf @ b'a'..=b'h', tr] => {
                let to = square_at(tf, tr)?;
                // An empty target (en passant, or no capture at all) is for the general reader.
                if f.abs_diff(tf) != 1 || !self.by_color(!us).contains(to) {
                    return None;
                }
                let from = square_at(f, b'1' + to.offset(0, back)?.rank() as u8)?;
                if !pawns.contains(from) {
                    return None;
                }
                (from, to, MoveKind::Normal)
            }
            _ => return None,
        };
        let last = if us == Color::White {
            Rank::Eighth
        } else {
            Rank::First
        };
        if (to.rank() == last) != promotion.is_some() || !self.king_safe_after(from, to) {
            return None;
        }
        let capture = self.board().code_at(to) >> 1;
        Some(match promotion {
            Some(role) => Move::from_raw_promotion(from, to, capture, role),
            None => Move::from_raw(from, to, Role::Pawn, capture, kind),
        })
    }

    /// Castling, when it is legal (never in check; the path rules are move generation's).
    fn standard_castle(&self, side: CastlingSide) -> Option<Move> {
        let us = self.turn();
        let king = self.king(us);
        let rook = self.castling_rights().rook(us, side, king)?;
        if self.is_check() {
            return None;
        }
        let mut moves = MoveList::new();
        self.gen_castling(&mut moves, king, Bitboard::from_square(rook));
        moves.first().copied()
    }

    /// `true` when the side to move's king is not attacked after a piece other than the king
    /// moves from `from` to `to`, taking whatever stands there (never en passant). Knights and
    /// pawns attack it whatever the move does unless taken; sliders only from the king's own
    /// lines and with nothing between, so at most a few `between` look-ups decide.
    #[inline(always)]
    fn king_safe_after(&self, from: Square, to: Square) -> bool {
        let us = self.turn();
        let king = self.king(us);
        let them = self.by_color(!us).without(to);
        let leapers = attacks::knight_attacks(king) & self.by_role(Role::Knight)
            | attacks::pawn_attacks(us, king) & self.by_role(Role::Pawn);
        if (leapers & them).any() {
            return false;
        }
        let queens = self.by_role(Role::Queen);
        let straight = Bitboard::file(king.file()) | Bitboard::rank(king.rank());
        let snipers = (straight & (self.by_role(Role::Rook) | queens)
            | DIAGONALS[king.index()] & (self.by_role(Role::Bishop) | queens))
            & them;
        let occupied = self.occupied().without(from).with(to);
        for sniper in snipers {
            if (attacks::between(king, sniper) & occupied).is_empty() {
                return false;
            }
        }
        true
    }

    // ---- Every accepted form ---------------------------------------------------------------

    /// The general reader: the text's pattern matched against the legal moves to its target
    /// square (castling against the castling moves), or, leniently, UCI.
    fn resolve_general(&self, text: &str, mode: SanMode) -> Result<Move, SanError> {
        let uci_like = looks_like_uci(strip_suffix(text));
        match parse_pattern(text) {
            Some(p) if !(uci_like && mode == SanMode::Lenient) => self.resolve(text, &p),
            None if mode == SanMode::Strict => Err(SanError::Syntax {
                text: text.to_owned(),
            }),
            _ => match self.parse_uci(strip_suffix(text)) {
                Ok(mv) => Ok(mv),
                Err(crate::UciMoveError::Illegal { .. }) => Err(SanError::Illegal {
                    text: text.to_owned(),
                }),
                Err(_) => Err(SanError::Syntax {
                    text: text.to_owned(),
                }),
            },
        }
    }

    fn resolve(&self, text: &str, p: &Pattern) -> Result<Move, SanError> {
        let mut moves = MoveList::new();
        if let Some(side) = p.castle {
            self.legal_moves_to(&mut moves, self.castling_rights().rooks());
            return moves
                .iter()
                .copied()
                .find(|m| m.castling_side() == Some(side))
                .ok_or_else(|| SanError::Illegal {
                    text: text.to_owned(),
                });
        }
        let Some(to) = p.to else {
            return Err(SanError::Syntax {
                text: text.to_owned(),
            });
        };
        // Without a piece letter it is a pawn move, unless the whole origin square is given
        // (long form or coordinates without a letter), which names the piece by itself.
        let full_origin = p.from_file.is_some() && p.from_rank.is_some();
        let role = match p.role {
            Some(r) => Some(r),
            None if full_origin => None,
            None => Some(Role::Pawn),
        };
        // A king move written as its castling destination (`Kg1` from e1) is not castling here;
        // castling must be written O-O. Only normal moves to `to` qualify.
        self.legal_moves_to(&mut moves, Bitboard::from_square(to));
        moves.retain(|m| {
            !(role.is_some_and(|r| m.role() != r)
                || m.castling_side().is_some()
                || p.from_file.is_some_and(|f| m.from().file() != f)
                || p.from_rank.is_some_and(|r| m.from().rank() != r)
                || m.promotion() != p.promotion)
        });
        match moves.as_mut_slice() {
            [m] => Ok(*m),
            [] => Err(SanError::Illegal {
                text: text.to_owned(),
            }),
            several => {
                // In board order, whatever order generation found them in.
                several.sort_by_key(|m| m.from());
                Err(SanError::Ambiguous {
                    text: text.to_owned(),
                    candidates: several.iter().map(|&m| self.san(m)).collect(),
                })
            }
        }
    }

    /// Resolves and plays a move given in lenient SAN; returns the move.
    pub fn push_san(&mut self, text: &str) -> Result<Move, SanError> {
        let mv = self.parse_san(text)?;
        self.play_unchecked(mv);
        Ok(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Validation;

    /// The spellings of `mv` that people and programs write.
    fn spellings(pos: &Position, mv: Move) -> Vec<String> {
        let san = pos.san(mv);
        let bare = san.trim_end_matches(['+', '#']).to_owned();
        if mv.castling_side().is_some() {
            return vec![
                san.clone(),
                format!("{bare}+"),
                bare.replace('O', "0"),
                pos.uci(mv),
            ];
        }
        let mut forms = vec![
            san.clone(),
            bare.clone(),
            format!("{bare}+"),
            format!("{bare}#"),
            bare.replace('x', ""),
            bare.replace('=', ""),
            pos.long(mv),
            pos.uci(mv),
        ];
        if !bare.contains('x') && bare.len() > 2 && mv.promotion().is_none() {
            let (head, tail) = bare.split_at(bare.len() - 2);
            forms.push(format!("{head}x{tail}"));
        }
        if mv.role() != Role::Pawn && mv.castling_side().is_none() {
            let (letter, target) = (&bare[..1], &bare[bare.len() - 2..]);
            forms.push(format!("{letter}{}{target}", mv.from()));
        }
        forms
    }

    /// The direct path never decides differently from the general reader: on every spelling of
    /// every legal move (and of every move to every square by every piece letter, legal or not)
    /// it finds the same move or stays out.
    fn check_position(pos: &Position) {
        let mut texts: Vec<String> = Vec::new();
        for &mv in pos.legal_moves().iter() {
            let forms = spellings(pos, mv);
            for form in &forms {
                assert_eq!(pos.parse_san(form), Ok(mv), "{form} in {pos}");
            }
            texts.extend(forms);
            // Only a file or only a rank: one of them may not be enough.
            if mv.role() != Role::Pawn && mv.castling_side().is_none() {
                let (letter, to) = (mv.role().upper_char(), mv.to());
                texts.push(format!("{letter}{}{to}", mv.from().file().char()));
                texts.push(format!("{letter}{}x{to}", mv.from().rank().char()));
            }
        }
        for to in Square::ALL {
            for letter in ["", "N", "B", "R", "Q", "K"] {
                texts.push(format!("{letter}{to}"));
                texts.push(format!("{letter}x{to}"));
            }
            for file in File::ALL {
                texts.push(format!("{}{to}", file.char()));
                texts.push(format!("{}x{to}=Q", file.char()));
            }
        }
        texts.extend(["O-O", "O-O-O", "O-O+", "O-O-O#"].map(String::from));
        for text in &texts {
            if let Some(mv) = pos.resolve_standard(text.as_bytes()) {
                for mode in [SanMode::Lenient, SanMode::Strict] {
                    let general = pos.resolve_general(text, mode);
                    assert_eq!(general, Ok(mv), "{text} ({mode:?}) in {pos}");
                }
            }
        }
    }

    #[test]
    fn the_direct_path_agrees_with_the_general_reader() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            "4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1",
            "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
            "1k6/8/8/8/8/8/6p1/4K2R b K - 0 1",
            "R6R/8/1k6/8/8/8/8/R3K3 w - - 0 1",
            "2k5/8/8/Q2Q4/8/8/8/Q2QK3 w - - 0 1",
            "6k1/8/8/8/8/Q7/8/Q1Q4K w - - 0 1",
            "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1",
            "1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1",
            "3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1",
        ] {
            let pos = Position::from_fen_with(fen, Validation::Lenient)
                .unwrap_or_else(|e| panic!("{fen}: {e}"));
            check_position(&pos);
            for &mv in pos.legal_moves().iter() {
                let mut next = pos.clone_without_history();
                next.play_unchecked(mv);
                check_position(&next);
            }
        }
    }
}
