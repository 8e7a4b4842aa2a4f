//! Errors found in a game: what went wrong, in which game, where, at which move, on which token.

use crate::Location;
use std::fmt;
use tabla::Color;

/// Why a game (or one of its lines) could not be read further.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ErrorKind {
    /// The token is not a move in any accepted notation.
    #[error("not a move (expected SAN such as Nf3, exd5, O-O, e8=Q)")]
    NotAMove,
    /// No legal move matches the token.
    #[error("illegal move in this position")]
    IllegalMove,
    /// More than one legal move matches the token.
    #[error("ambiguous move: it could be {}", candidates.join(" or "))]
    AmbiguousMove {
        /// The matching moves, in SAN.
        candidates: Vec<String>,
    },
    /// A null move (`--`, `Z0`) while the side to move is in check.
    #[error("null move while in check")]
    NullMoveInCheck,
    /// The `Variant` tag names a variant tabla does not play; the movetext is skipped.
    #[error("unsupported variant {variant:?} (tabla reads standard chess and Chess960)")]
    UnknownVariant {
        /// The tag's value.
        variant: String,
    },
    /// The `FEN` tag does not give a playable position; the movetext is skipped.
    #[error("invalid FEN tag: {reason}")]
    InvalidFen {
        /// Why, as the FEN parser or validator says.
        reason: String,
    },
    /// A `[` that does not make a tag pair `[Name "value"]` on one line.
    #[error("malformed tag pair (expected [Name \"value\"] on one line)")]
    MalformedTag,
    /// A `{` comment still open at the end of the input, or at a line where a game starts
    /// (which ends it, so that a comment left open cannot swallow the games after it: see
    /// [`crate::find_game_start`] for the rule).
    #[error("comment not closed (no '}}' before the end of the input or the next game's tags)")]
    UnterminatedComment,
    /// A `)` with no open variation.
    #[error("')' closes no variation")]
    UnmatchedParenthesis,
    /// A variation still open when the game ended.
    #[error("variation not closed before the end of the game")]
    UnclosedVariation,
    /// A `(` where there is no move for the variation to replace.
    #[error("variation with no move before it to replace")]
    VariationWithoutMove,
    /// Variations nested deeper than the reader's limit; the deeper one is skipped.
    #[error("variations nested deeper than {limit}")]
    VariationTooDeep {
        /// The limit.
        limit: usize,
    },
    /// A `$` not followed by a number from 0 to 255.
    #[error("not a NAG (expected $0 to $255)")]
    InvalidNag,
    /// A character that starts no token of PGN movetext; it is skipped.
    #[error("unexpected character, skipped")]
    UnexpectedCharacter,
    /// A token that cannot be movetext (no move, number, NAG or result looks like it, e.g. a
    /// word); it is skipped. A token shaped like a move that does not resolve (`Nf9`, an
    /// illegal `Nf3`) is an error instead.
    #[error("not movetext, skipped")]
    NotMovetext,
    /// `1/2` as the termination marker, read as the draw `1/2-1/2`.
    #[error("'1/2' read as the draw result 1/2-1/2")]
    AbbreviatedDraw,
    /// The `Result` tag (the token) in a spelling that is not the export format's (`1/2`,
    /// `½-½`, `0.5-0.5`, `1:0`...): read as the result it stands for, and written in the
    /// standard form (see [`crate::game_result`]).
    #[error("Result tag in a non-standard spelling, read as {read}")]
    NonStandardResult {
        /// The result read.
        read: crate::Outcome,
    },
    /// The `Result` tag (the token) is not a result in any spelling; the termination marker
    /// gives the result (see [`crate::game_result`]).
    #[error("Result tag is not a result (1-0, 0-1, 1/2-1/2 or *); the termination marker is used")]
    UnreadableResult,
    /// The `Result` tag and the movetext's termination marker disagree; the tag gives the result
    /// unless it is `*` (see [`crate::game_result`]).
    #[error("Result tag {tag} and termination marker {marker} disagree; the result is {result}")]
    ResultConflict {
        /// What the tag says.
        tag: crate::Outcome,
        /// What the marker says.
        marker: crate::Outcome,
        /// The result decided.
        result: crate::Outcome,
    },
    /// Quotes inside a tag value that are not escaped (`[White ""Socrates""]`): the value is
    /// read up to the last quote before the `]` that closes the tag.
    #[error("unescaped quotes in the tag value, read up to the last quote before ']'")]
    UnescapedQuotes,
    /// A token longer than the reader's buffer limit; it is skipped.
    #[error("token longer than the reader's limit of {limit} bytes")]
    TokenTooLong {
        /// The limit in bytes.
        limit: usize,
    },
}

impl ErrorKind {
    /// `true` for the errors that end the line they occur in (a move that cannot be played) or
    /// the whole movetext (no start position); the others lose only their token.
    pub fn ends_line(&self) -> bool {
        matches!(
            self,
            ErrorKind::NotAMove
                | ErrorKind::IllegalMove
                | ErrorKind::AmbiguousMove { .. }
                | ErrorKind::NullMoveInCheck
                | ErrorKind::UnknownVariant { .. }
                | ErrorKind::InvalidFen { .. }
        )
    }
}

/// How much a problem in a game matters.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    /// The game stopped early: a mainline move that cannot be played (illegal, ambiguous,
    /// unreadable), or no playable start (an invalid `FEN` tag, an unsupported variant).
    Error,
    /// Something was repaired or left out, and the mainline is complete: a syntax slip skipped
    /// or read leniently, or a side line cut short by a move that cannot be played there.
    Warning,
}

/// The move at which something happened: the full-move number and the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct MoveNumber {
    /// The full-move number.
    pub number: u32,
    /// The side to move.
    pub turn: Color,
}

impl fmt::Display for MoveNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.turn {
            Color::White => write!(f, "{}.", self.number),
            Color::Black => write!(f, "{}...", self.number),
        }
    }
}

/// An error in a game: the game's number in the input, where, the move number when the game had
/// started moving, the token and the reason.
///
/// Displays as `game 3, 45:12, move 17...: "Nxe5": illegal move in this position` (with `; the
/// variation stops there, the mainline goes on` after a move that cuts a variation); `tabla pgn
/// check` prints warnings ([`PgnError::is_warning`]) with `warning: ` before that.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// The game's number among the games read (from 1).
    pub game: u64,
    /// Where the offending token starts.
    pub location: Location,
    /// The move the token stood for, when the game was being replayed.
    pub move_number: Option<MoveNumber>,
    /// How deep in variations: 0 in the mainline (or outside the movetext), 1 in a variation,
    /// 2 in a variation inside it...
    pub depth: usize,
    /// The token as written (decoded as text).
    pub token: String,
    /// Why.
    pub kind: ErrorKind,
}

impl PgnError {
    /// [`Severity::Error`] for a problem that stopped the mainline (or the whole movetext),
    /// [`Severity::Warning`] for everything else.
    ///
    /// ```
    /// use tabla_pgn::{Reader, Severity};
    /// let pgn = "1. e4 e5 (1... c5 2. Ke3) 2. Nf3 } Nc6 3. Bb9 *";
    /// let game = Reader::new(pgn.as_bytes()).games().next().unwrap().unwrap();
    /// let severities: Vec<_> = game.problems.iter().map(|p| p.severity()).collect();
    /// assert_eq!(severities, [Severity::Warning, Severity::Warning, Severity::Error]);
    /// assert_eq!(game.mainline().count(), 4);
    /// ```
    pub fn severity(&self) -> Severity {
        if self.depth == 0 && self.kind.ends_line() {
            Severity::Error
        } else {
            Severity::Warning
        }
    }

    /// `true` for a [`Severity::Warning`].
    pub fn is_warning(&self) -> bool {
        self.severity() == Severity::Warning
    }

    /// The problem as every report of tabla's gives it (`tabla pgn check`, `pgn json`'s
    /// `error` and `warnings`, the web app): a warning after `warning: `, an error as it
    /// displays.
    ///
    /// ```
    /// use tabla_pgn::Reader;
    /// let game = Reader::new(&b"1. e4 } e5 *"[..]).games().next().unwrap().unwrap();
    /// assert_eq!(
    ///     game.problems[0].report(),
    ///     "warning: game 1, 1:7, move 1...: \"}\": unexpected character, skipped"
    /// );
    /// ```
    pub fn report(&self) -> String {
        if self.is_warning() {
            format!("warning: {self}")
        } else {
            self.to_string()
        }
    }
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}, {}", self.game, self.location)?;
        if let Some(n) = self.move_number {
            write!(f, ", move {n}")?;
        }
        if !self.token.is_empty() {
            write!(f, ": {:?}", self.token)?;
        }
        write!(f, ": {}", self.kind)?;
        if self.depth > 0 && self.kind.ends_line() {
            write!(f, "; the variation stops there, the mainline goes on")?;
        }
        Ok(())
    }
}

impl std::error::Error for PgnError {}
