//! UCI move notation: `e2e4`, `e7e8q`, castling as `e1g1` (or king-takes-rook `e1h1`).

use crate::{Bitboard, Move, Position, Role, Square};

/// Why a UCI move string could not be resolved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UciMoveError {
    /// Not of the form `e2e4`, `e7e8q` or `0000`.
    #[error("{text:?} is not a UCI move (expected from and to squares, such as e2e4 or e7e8q)")]
    Syntax {
        /// The text.
        text: String,
    },
    /// Well formed, but no legal move matches.
    #[error("{text:?} is illegal in this position")]
    Illegal {
        /// The text.
        text: String,
    },
}

impl Position {
    /// The UCI form of a legal move. Castling is written as the king's move (`e1g1`) when the king
    /// starts on the e-file and the rook in a corner, as standard-chess GUIs expect; otherwise
    /// (Chess960) as king takes rook.
    ///
    /// ```
    /// use tabla::Position;
    /// let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    /// let mv = pos.parse_san("O-O-O").unwrap();
    /// assert_eq!(pos.uci(mv), "e1c1");
    /// ```
    pub fn uci(&self, mv: Move) -> String {
        let mut s = String::with_capacity(5);
        self.write_uci(mv, &mut s);
        s
    }

    /// Appends the UCI form of a legal move to `out` without allocating (as [`Position::uci`]
    /// writes it), or `0000` for [`Move::NULL`].
    ///
    /// ```
    /// use tabla::{Move, Position};
    /// let pos = Position::startpos();
    /// let mut line = String::new();
    /// pos.write_uci(pos.parse_san("Nf3").unwrap(), &mut line);
    /// line.push(' ');
    /// pos.write_uci(Move::NULL, &mut line);
    /// assert_eq!(line, "g1f3 0000");
    /// ```
    pub fn write_uci(&self, mv: Move, out: &mut String) {
        if mv.is_null() {
            out.push_str("0000");
            return;
        }
        // Castling is stored as king takes rook; standard castling is written as the king's move.
        let to = match mv.castling_side() {
            Some(_) if !is_standard_castle(mv) => mv.to(),
            _ => mv.king_to(),
        };
        for sq in [mv.from(), to] {
            out.push(sq.file().char());
            out.push(sq.rank().char());
        }
        if let Some(role) = mv.promotion() {
            out.push(role.char());
        }
    }

    /// Resolves a UCI move: `e2e4`, `e7e8q`; castling as `e1g1` or as king takes rook `e1h1`.
    ///
    /// ```
    /// use tabla::Position;
    /// let pos = Position::startpos();
    /// assert_eq!(pos.san(pos.parse_uci("g1f3").unwrap()), "Nf3");
    /// assert!(pos.parse_uci("e2e5").is_err());
    /// ```
    pub fn parse_uci(&self, text: &str) -> Result<Move, UciMoveError> {
        let b = text.as_bytes();
        let syntax = || UciMoveError::Syntax {
            text: text.to_owned(),
        };
        if b.len() != 4 && b.len() != 5 {
            return Err(syntax());
        }
        let from = Square::from_ascii(&b[0..2]).ok_or_else(syntax)?;
        let to = Square::from_ascii(&b[2..4]).ok_or_else(syntax)?;
        let promotion = match b.get(4) {
            None => None,
            Some(c) => match Role::from_char(*c as char) {
                Some(r @ (Role::Queen | Role::Rook | Role::Bishop | Role::Knight)) => Some(r),
                _ => return Err(syntax()),
            },
        };
        let mut moves = crate::MoveList::new();
        self.legal_moves_to(
            &mut moves,
            Bitboard::from_square(to) | self.castling_rights().rooks(),
        );
        moves
            .iter()
            .copied()
            .find(|m| {
                m.from() == from
                    && m.promotion() == promotion
                    && (m.to() == to && m.castling_side().is_none()
                        || m.castling_side().is_some() && (m.to() == to || m.king_to() == to))
            })
            .ok_or_else(|| UciMoveError::Illegal {
                text: text.to_owned(),
            })
    }

    /// Resolves and plays a move given in UCI ([`Position::parse_uci`]); returns the move.
    ///
    /// ```
    /// use tabla::Position;
    /// let mut pos = Position::startpos();
    /// let mv = pos.push_uci("e2e4").unwrap();
    /// assert_eq!(mv.to().to_string(), "e4");
    /// assert!(pos.push_uci("e2e4").is_err()); // Black to move; the position is unchanged
    /// assert_eq!(pos.to_fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    /// ```
    pub fn push_uci(&mut self, text: &str) -> Result<Move, UciMoveError> {
        let mv = self.parse_uci(text)?;
        self.play_unchecked(mv);
        Ok(mv)
    }
}

fn is_standard_castle(mv: Move) -> bool {
    use crate::File;
    mv.from().file() == File::E && matches!(mv.to().file(), File::A | File::H)
}
