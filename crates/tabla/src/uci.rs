//! UCI move notation: `e2e4`, `e7e8q`, castling as `e1g1` (or king-takes-rook `e1h1`).

use crate::{Bitboard, Move, Position, Role, Square};
use std::fmt;

/// A move in UCI's notation read on its own, without a position: from and to squares and a
/// promotion piece (`e2e4`, `e7e8q`; the piece's letter in either case). This is the one rule
/// of what a UCI move looks like; a position resolves it to a legal move
/// ([`Position::parse_uci`]). The null move `0000` is not one.
///
/// ```
/// use tabla::{Role, UciMove};
/// let mv = UciMove::parse("e7e8q").unwrap();
/// assert_eq!((mv.from.to_string(), mv.to.to_string()), ("e7".into(), "e8".into()));
/// assert_eq!(mv.promotion, Some(Role::Queen));
/// assert_eq!(UciMove::parse("e7e8Q").map(|m| m.to_string()).as_deref(), Some("e7e8q"));
/// assert_eq!(mv.to_string(), "e7e8q");
/// for not in ["e7e8k", "e7e8qq", "e2", "i2i4", "0000", "E2E4"] {
///     assert_eq!(UciMove::parse(not), None, "{not}");
/// }
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct UciMove {
    /// The square the piece leaves (the king's, for castling).
    pub from: Square,
    /// The square it goes to (for castling, the king's or the rook's).
    pub to: Square,
    /// The piece a pawn becomes: a knight, bishop, rook or queen.
    pub promotion: Option<Role>,
}

impl UciMove {
    /// Reads a move of UCI's notation; `None` when `text` is not one.
    pub fn parse(text: &str) -> Option<UciMove> {
        let b = text.as_bytes();
        if b.len() != 4 && b.len() != 5 {
            return None;
        }
        let from = Square::from_ascii(&b[0..2])?;
        let to = Square::from_ascii(&b[2..4])?;
        let promotion = match b.get(4) {
            None => None,
            Some(c) => match Role::from_char(*c as char) {
                Some(r @ (Role::Queen | Role::Rook | Role::Bishop | Role::Knight)) => Some(r),
                _ => return None,
            },
        };
        Some(UciMove {
            from,
            to,
            promotion,
        })
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        match self.promotion {
            Some(role) => write!(f, "{}", role.char()),
            None => Ok(()),
        }
    }
}

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
        let UciMove {
            from,
            to,
            promotion,
        } = UciMove::parse(text).ok_or_else(|| UciMoveError::Syntax {
            text: text.to_owned(),
        })?;
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
