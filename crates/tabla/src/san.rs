//! Standard Algebraic Notation: output with minimal disambiguation over legal moves, and input in
//! a strict and a lenient mode.

use crate::movegen::MoveList;
use crate::{Bitboard, CastlingSide, File, Move, Position, Rank, Role, Square, attacks};

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
        after.play(mv);
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

    /// A copy with no move history (cheaper to make; repetition counts start afresh).
    pub fn clone_without_history(&self) -> Position {
        let mut p = Position::from_parts_unchecked(self);
        p.clear_history();
        p
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
        if mv.role() != Role::King {
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
        self.parse_san_with(text, SanMode::Lenient)
    }

    /// Resolves a move written in SAN (or, leniently, in the forms listed at [`SanMode`]).
    pub fn parse_san_with(&self, text: &str, mode: SanMode) -> Result<Move, SanError> {
        let uci_like = looks_like_uci(strip_suffix(text));
        let mv = match parse_pattern(text) {
            Some(p) if !(uci_like && mode == SanMode::Lenient) => self.resolve(text, &p)?,
            None if mode == SanMode::Strict => {
                return Err(SanError::Syntax {
                    text: text.to_owned(),
                });
            }
            _ => match self.parse_uci(strip_suffix(text)) {
                Ok(mv) => mv,
                Err(crate::UciMoveError::Illegal { .. }) => {
                    return Err(SanError::Illegal {
                        text: text.to_owned(),
                    });
                }
                Err(_) => {
                    return Err(SanError::Syntax {
                        text: text.to_owned(),
                    });
                }
            },
        };
        if mode == SanMode::Strict {
            let canonical = self.san(mv);
            if canonical != text {
                return Err(SanError::NotCanonical {
                    text: text.to_owned(),
                    canonical,
                });
            }
        }
        Ok(mv)
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
        match role {
            Some(piece @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen))
                if p.promotion.is_none() =>
            {
                return self.resolve_piece_move(text, p, piece, to);
            }
            Some(Role::Pawn) => {
                if let Some(mv) = self.resolve_pawn_move(p, to) {
                    return Ok(mv);
                }
            }
            Some(Role::King) if p.promotion.is_none() => {
                if let Some(mv) = self.resolve_king_step(p, to) {
                    return Ok(mv);
                }
            }
            _ => {}
        }
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
        self.the_one_match(text, &moves)
    }

    /// The only move matching `text`, or why there is none or more than one.
    fn the_one_match(&self, text: &str, moves: &[Move]) -> Result<Move, SanError> {
        match moves {
            [m] => Ok(*m),
            [] => Err(SanError::Illegal {
                text: text.to_owned(),
            }),
            _ => Err(SanError::Ambiguous {
                text: text.to_owned(),
                candidates: moves.iter().map(|&m| self.san(m)).collect(),
            }),
        }
    }

    /// The usual case of a game's moves, a knight, bishop, rook or queen move: the candidates are
    /// found from the target square (attacks are symmetric) and each is legal when its own king
    /// is not attacked afterwards. Same answers as filtering [`Position::legal_moves_to`], only
    /// without generating the other moves.
    fn resolve_piece_move(
        &self,
        text: &str,
        p: &Pattern,
        role: Role,
        to: Square,
    ) -> Result<Move, SanError> {
        let us = self.turn();
        let occupied = self.occupied();
        let reach = match role {
            Role::Knight => attacks::knight_attacks(to),
            Role::Bishop => attacks::bishop_attacks(to, occupied),
            Role::Rook => attacks::rook_attacks(to, occupied),
            _ => attacks::queen_attacks(to, occupied),
        };
        let mut from_set = reach & self.pieces(us, role);
        if let Some(file) = p.from_file {
            from_set &= Bitboard::file(file);
        }
        if let Some(rank) = p.from_rank {
            from_set &= Bitboard::rank(rank);
        }
        let capture = if self.by_color(us).contains(to) {
            from_set = Bitboard::EMPTY; // cannot take one's own piece
            0
        } else {
            self.board().code_at(to) >> 1
        };
        let mut moves = MoveList::new();
        for from in from_set {
            if self.king_safe_after(from, to) {
                moves.push(Move::from_raw(
                    from,
                    to,
                    role,
                    capture,
                    crate::MoveKind::Normal,
                ));
            }
        }
        self.the_one_match(text, &moves)
    }

    /// A pawn push or an ordinary capture found directly; `None` leaves everything else (en
    /// passant, a wrong promotion, an illegal or impossible move) to the general path, which
    /// gives the error.
    fn resolve_pawn_move(&self, p: &Pattern, to: Square) -> Option<Move> {
        let us = self.turn();
        let pawns = self.pieces(us, Role::Pawn);
        let back: i8 = if us == crate::Color::White { -1 } else { 1 };
        let behind = to.offset(0, back)?;
        let (from, kind, capture) = match p.from_file.filter(|&f| f != to.file()) {
            None => {
                if self.occupied().contains(to) {
                    return None;
                }
                if pawns.contains(behind) {
                    (behind, crate::MoveKind::Normal, 0)
                } else {
                    let start = behind.offset(0, back)?;
                    let double_rank = if us == crate::Color::White {
                        Rank::Fourth
                    } else {
                        Rank::Fifth
                    };
                    if to.rank() != double_rank
                        || self.occupied().contains(behind)
                        || !pawns.contains(start)
                    {
                        return None;
                    }
                    (start, crate::MoveKind::DoublePush, 0)
                }
            }
            Some(file) => {
                if !self.by_color(!us).contains(to) || to.file().index().abs_diff(file.index()) != 1
                {
                    return None;
                }
                let from = Square::from_coords(file, behind.rank());
                if !pawns.contains(from) {
                    return None;
                }
                (from, crate::MoveKind::Normal, self.board().code_at(to) >> 1)
            }
        };
        if p.from_rank.is_some_and(|r| r != from.rank()) {
            return None;
        }
        let last = if us == crate::Color::White {
            Rank::Eighth
        } else {
            Rank::First
        };
        if (to.rank() == last) != p.promotion.is_some() || !self.king_safe_after(from, to) {
            return None;
        }
        let mv = Move::from_raw(from, to, Role::Pawn, capture, kind);
        Some(match p.promotion {
            Some(role) => Move::from_raw_promotion(from, to, capture, role),
            None => mv,
        })
    }

    /// A legal king step found directly; `None` leaves the rest to the general path.
    fn resolve_king_step(&self, p: &Pattern, to: Square) -> Option<Move> {
        let us = self.turn();
        let king = self.king(us);
        let fits = p.from_file.is_none_or(|f| f == king.file())
            && p.from_rank.is_none_or(|r| r == king.rank());
        if !fits || !attacks::king_attacks(king).contains(to) || self.by_color(us).contains(to) {
            return None;
        }
        let occupied = self.occupied().without(king);
        let attackers = self.attackers_with(to, occupied) & self.by_color(!us).without(to);
        attackers.is_empty().then(|| {
            let capture = self.board().code_at(to) >> 1;
            Move::from_raw(king, to, Role::King, capture, crate::MoveKind::Normal)
        })
    }

    /// `true` when the side to move's king is not attacked after a piece other than the king
    /// moves from `from` to `to` (taking whatever stands there, never en passant).
    fn king_safe_after(&self, from: Square, to: Square) -> bool {
        let us = self.turn();
        let occupied = self.occupied().without(from).with(to);
        let attackers = self.by_color(!us).without(to);
        (self.attackers_with(self.king(us), occupied) & attackers).is_empty()
    }

    /// Resolves and plays a move given in lenient SAN; returns the move.
    pub fn push_san(&mut self, text: &str) -> Result<Move, SanError> {
        let mv = self.parse_san(text)?;
        self.play(mv);
        Ok(mv)
    }
}
