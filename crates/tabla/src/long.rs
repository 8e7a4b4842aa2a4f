//! The long algebraic form a PGN browser shows beside the board: `e2-e4`, `Ng8-f6`, `Nf3xe5`,
//! `O-O`, `e7-e8=Q`.

use crate::{Move, Position, Role, SanError};

impl Position {
    /// The long algebraic form of a legal move, with `+` or `#`.
    ///
    /// ```
    /// use tabla::Position;
    /// let pos = Position::startpos();
    /// let mv = pos.parse_san("Nf3").unwrap();
    /// assert_eq!(pos.long(mv), "Ng1-f3");
    /// ```
    pub fn long(&self, mv: Move) -> String {
        let mut after = self.clone_without_history();
        after.play_unchecked(mv);
        let mut s = long_without_suffix(mv);
        s.push_str(after.check_suffix());
        s
    }

    /// Resolves a move in long algebraic form, strictly: a piece letter (none for pawns), the
    /// origin square, `-` or `x` as the move is a capture or not, the target, `=` and the
    /// promotion piece; `+`/`#` optional.
    ///
    /// ```
    /// use tabla::Position;
    /// let pos = Position::startpos();
    /// assert!(pos.parse_long("e2-e4").is_ok());
    /// assert!(pos.parse_long("e2xe4").is_err());
    /// ```
    pub fn parse_long(&self, text: &str) -> Result<Move, SanError> {
        let body = text.trim_end_matches(['+', '#']);
        let mv = self.parse_san(body).map_err(|e| match e {
            SanError::NotCanonical { .. } | SanError::Ambiguous { .. } => SanError::Syntax {
                text: text.to_owned(),
            },
            other => other,
        })?;
        if long_without_suffix(mv) == body {
            Ok(mv)
        } else {
            Err(SanError::NotCanonical {
                text: text.to_owned(),
                canonical: self.long(mv),
            })
        }
    }
}

/// The long form without check sign; it depends on the move alone.
pub fn long_without_suffix(mv: Move) -> String {
    if let Some(side) = mv.castling_side() {
        return side.san().to_owned();
    }
    let mut s = String::with_capacity(8);
    if mv.role() != Role::Pawn {
        s.push(mv.role().upper_char());
    }
    s.push_str(&mv.from().to_string());
    s.push(if mv.is_capture() { 'x' } else { '-' });
    s.push_str(&mv.to().to_string());
    if let Some(p) = mv.promotion() {
        s.push('=');
        s.push(p.upper_char());
    }
    s
}
