//! Validation: from an unvalidated [`Setup`] to a [`Position`] move generation can trust.

use crate::attacks::{between, line};
use crate::castling::back_rank;
use crate::{
    Bitboard, CastlingRights, Color, ParseFenError, Piece, Position, Rank, Role, Setup, Square,
};
use std::fmt;

/// One reason a setup is not a legal position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PositionProblem {
    /// A side has no king.
    MissingKing = 0,
    /// A side has more than one king.
    TooManyKings,
    /// A pawn stands on the first or the eighth rank.
    PawnsOnBackRank,
    /// The side not to move is in check.
    OppositeCheck,
    /// A castling right without its king and rook in place (or two rights on one side).
    BadCastlingRights,
    /// The en-passant square cannot follow a double push (no pawn in front, squares not empty).
    ImpossibleEnPassant,
    /// The checks on the king cannot arise in a game (three checkers, two on one line, ...).
    ImpossibleCheck,
    /// More pieces than promotions allow (over 16 a side, over 8 pawns, too many promoted).
    TooMuchMaterial,
    /// So much material that a side's moves could exceed [`MAX_MOVES`](crate::movegen::MAX_MOVES).
    TooManyMoves,
}

impl PositionProblem {
    /// All problems, in the order they are reported.
    pub const ALL: [PositionProblem; 9] = [
        PositionProblem::MissingKing,
        PositionProblem::TooManyKings,
        PositionProblem::PawnsOnBackRank,
        PositionProblem::OppositeCheck,
        PositionProblem::BadCastlingRights,
        PositionProblem::ImpossibleEnPassant,
        PositionProblem::ImpossibleCheck,
        PositionProblem::TooMuchMaterial,
        PositionProblem::TooManyMoves,
    ];

    /// A sentence describing the problem.
    pub const fn description(self) -> &'static str {
        match self {
            PositionProblem::MissingKing => "a side has no king",
            PositionProblem::TooManyKings => "a side has more than one king",
            PositionProblem::PawnsOnBackRank => "pawns on the first or eighth rank",
            PositionProblem::OppositeCheck => "the side not to move is in check",
            PositionProblem::BadCastlingRights => {
                "castling rights without the king and rook in place"
            }
            PositionProblem::ImpossibleEnPassant => {
                "the en-passant square does not follow a double pawn push"
            }
            PositionProblem::ImpossibleCheck => "the check cannot arise in a game",
            PositionProblem::TooMuchMaterial => "more material than promotions allow",
            PositionProblem::TooManyMoves => "so much material that the moves could not be listed",
        }
    }

    /// `true` for problems a [`Validation::Lenient`] setup may have: the position is unusual but
    /// moves can still be generated correctly.
    pub const fn is_playable(self) -> bool {
        matches!(
            self,
            PositionProblem::ImpossibleCheck | PositionProblem::TooMuchMaterial
        )
    }
}

impl fmt::Display for PositionProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())
    }
}

/// Every problem found in a setup, reported together.
///
/// ```
/// use tabla::{Position, PositionProblem, Setup, Validation};
/// let setup: Setup = "8/8/8/8/8/8/8/8 w - - 0 1".parse().unwrap();
/// let err = Position::from_setup(setup, Validation::Strict).unwrap_err();
/// assert!(err.contains(PositionProblem::MissingKing));
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PositionError(u16);

impl PositionError {
    /// `true` when `problem` was found.
    pub const fn contains(self, problem: PositionProblem) -> bool {
        self.0 >> problem as u8 & 1 != 0
    }

    /// The problems found.
    pub fn problems(self) -> impl Iterator<Item = PositionProblem> {
        PositionProblem::ALL
            .into_iter()
            .filter(move |&p| self.contains(p))
    }

    /// `true` when no problem was found.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    fn add(&mut self, problem: PositionProblem) {
        self.0 |= 1 << problem as u8;
    }

    /// `true` when every problem is one [`Validation::Lenient`] accepts: the setup can still be
    /// played (`tabla fen --lenient`).
    ///
    /// ```
    /// use tabla::{FenError, Position, Validation};
    /// // Nine white pawns: illegal, yet playable.
    /// let fen = "4k3/pppppppp/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1";
    /// match Position::from_fen(fen) {
    ///     Err(FenError::Invalid(problems)) => assert!(problems.is_playable()),
    ///     other => panic!("{other:?}"),
    /// }
    /// assert!(Position::from_fen_with(fen, Validation::Lenient).is_ok());
    /// ```
    pub fn is_playable(self) -> bool {
        self.problems().all(|p| p.is_playable())
    }

    fn without_playable(self) -> PositionError {
        let mut out = PositionError::default();
        for p in self.problems().filter(|p| !p.is_playable()) {
            out.add(p);
        }
        out
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("illegal position: ")?;
        for (i, p) in self.problems().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            f.write_str(p.description())?;
        }
        Ok(())
    }
}

impl std::error::Error for PositionError {}

/// How strictly a setup is checked.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Validation {
    /// Every problem is an error (the default).
    #[default]
    Strict,
    /// Accept setups that are unreachable in a game but still playable: impossible checks and
    /// too much material (perft suites contain such positions).
    Lenient,
}

/// Why a FEN did not give a position: bad syntax, or a setup that is not legal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text is not FEN.
    #[error(transparent)]
    Syntax(#[from] ParseFenError),
    /// The text is FEN, but not a legal position.
    #[error(transparent)]
    Invalid(#[from] PositionError),
}

impl Setup {
    /// Every problem of this setup, whatever the validation mode.
    pub fn problems(&self) -> PositionError {
        let mut err = PositionError::default();
        let mut by_color = [Bitboard::EMPTY; 2];
        let mut by_role = [Bitboard::EMPTY; 6];
        for (sq, p) in self.board.pieces() {
            by_color[p.color.index()] |= Bitboard::from_square(sq);
            by_role[p.role.index()] |= Bitboard::from_square(sq);
        }
        let pieces = |c: Color, r: Role| by_color[c.index()] & by_role[r.index()];
        for color in Color::ALL {
            match pieces(color, Role::King).count() {
                0 => err.add(PositionProblem::MissingKing),
                1 => {}
                _ => err.add(PositionProblem::TooManyKings),
            }
        }
        let back_ranks = Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Eighth);
        if (by_role[Role::Pawn.index()] & back_ranks).any() {
            err.add(PositionProblem::PawnsOnBackRank);
        }
        for color in Color::ALL {
            let count = |r| pieces(color, r).count() as i32;
            let pawns = count(Role::Pawn);
            let promoted = (count(Role::Knight) - 2).max(0)
                + (count(Role::Bishop) - 2).max(0)
                + (count(Role::Rook) - 2).max(0)
                + (count(Role::Queen) - 1).max(0);
            if by_color[color.index()].count() > 16 || pawns > 8 || promoted > 8 - pawns {
                err.add(PositionProblem::TooMuchMaterial);
            }
            // Most targets each piece can ever have (pawn: two captures and a push, four
            // promotions each; king: eight steps and two castlings).
            let bound = 12 * pawns
                + 8 * count(Role::Knight)
                + 13 * count(Role::Bishop)
                + 14 * count(Role::Rook)
                + 27 * count(Role::Queen)
                + 10 * count(Role::King);
            if bound as usize > crate::movegen::MAX_MOVES {
                err.add(PositionProblem::TooManyMoves);
            }
        }
        // The checks below need exactly one king a side.
        if err.contains(PositionProblem::MissingKing) || err.contains(PositionProblem::TooManyKings)
        {
            if !self.castling.is_empty() {
                err.add(PositionProblem::BadCastlingRights);
            }
            return err;
        }
        let pos = Position::from_parts(
            self.board.clone(),
            self.turn,
            CastlingRights::NONE,
            None,
            0,
            1,
        );
        let us = self.turn;
        let them = !us;
        if pos.is_attacked(pos.king(them), us) {
            err.add(PositionProblem::OppositeCheck);
        }
        if !castling_ok(&pos, self.castling) {
            err.add(PositionProblem::BadCastlingRights);
        }
        let checkers = pos.checkers();
        let king = pos.king(us);
        if let Some(ep) = self.ep_square {
            let (ep_rank, dir): (Rank, i8) = match us {
                Color::White => (Rank::Sixth, -8),
                Color::Black => (Rank::Third, 8),
            };
            let pushed = Square::new_masked((ep as i8 + dir) as u8);
            let origin = Square::new_masked((ep as i8 - dir) as u8);
            let ok = ep.rank() == ep_rank
                && pos.piece_at(pushed) == Some(Piece::new(them, Role::Pawn))
                && pos.piece_at(ep).is_none()
                && pos.piece_at(origin).is_none();
            if !ok {
                err.add(PositionProblem::ImpossibleEnPassant);
            } else if checkers.any() {
                // After a double push, a check comes from the pawn or is discovered through the
                // square it left.
                let explained = checkers
                    .into_iter()
                    .all(|c| c == pushed || between(king, c).contains(origin));
                if !explained || checkers.more_than_one() && !checkers.contains(pushed) {
                    err.add(PositionProblem::ImpossibleCheck);
                }
            }
        }
        if checkers.count() > 2 {
            err.add(PositionProblem::ImpossibleCheck);
        } else if let (Some(a), Some(b)) = (checkers.first(), checkers.without_first().first())
            && line(a, b).contains(king)
        {
            err.add(PositionProblem::ImpossibleCheck);
        }
        err
    }
}

fn castling_ok(pos: &Position, rights: CastlingRights) -> bool {
    for color in Color::ALL {
        let rooks = rights.rooks_of(color);
        if rooks.is_empty() {
            continue;
        }
        let king = pos.king(color);
        if king.rank() != back_rank(color) {
            return false;
        }
        let (mut king_side, mut queen_side) = (0, 0);
        for rook in rooks {
            if pos.piece_at(rook) != Some(Piece::new(color, Role::Rook)) {
                return false;
            }
            if rook.file() > king.file() {
                king_side += 1;
            } else {
                queen_side += 1;
            }
        }
        if king_side > 1 || queen_side > 1 {
            return false;
        }
    }
    rights.rooks() == (rights.rooks_of(Color::White) | rights.rooks_of(Color::Black))
}

impl Bitboard {
    /// The set without its lowest square.
    #[inline]
    pub const fn without_first(self) -> Bitboard {
        Bitboard(self.0 & self.0.wrapping_sub(1))
    }
}

impl Position {
    /// Validates a setup. The fullmove number 0 (seen in the wild) becomes 1.
    ///
    /// ```
    /// use tabla::{Position, PositionProblem, Setup, Validation};
    /// let setup: Setup = "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1".parse().unwrap();
    /// let strict = Position::from_setup(setup.clone(), Validation::Strict);
    /// assert!(strict.unwrap_err().contains(PositionProblem::ImpossibleCheck));
    /// let lenient = Position::from_setup(setup, Validation::Lenient).unwrap();
    /// assert_eq!(lenient.legal_moves().len(), 6);
    /// ```
    pub fn from_setup(setup: Setup, validation: Validation) -> Result<Position, PositionError> {
        let mut problems = setup.problems();
        if validation == Validation::Lenient {
            problems = problems.without_playable();
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(Position::from_parts(
            setup.board,
            setup.turn,
            setup.castling,
            setup.ep_square,
            setup.halfmoves,
            setup.fullmoves.max(1),
        ))
    }

    /// Parses and strictly validates a FEN.
    ///
    /// ```
    /// use tabla::{FenError, Position};
    /// let pos = Position::from_fen("8/8/8/8/8/kn1b4/2P5/K7 w - - 0 0").unwrap();
    /// assert_eq!(pos.to_fen(), "8/8/8/8/8/kn1b4/2P5/K7 w - - 0 1");
    /// assert!(matches!(Position::from_fen("8/8/8 w - -"), Err(FenError::Syntax(_))));
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::from_fen_with(fen, Validation::Strict)
    }

    /// Reads where a position is asked for by text (tabla's command line, web API, database
    /// and UCI's `position`): the word [`STARTPOS`](crate::STARTPOS) for the standard start
    /// position, otherwise a FEN validated as asked. Surrounding white space is ignored.
    ///
    /// ```
    /// use tabla::{Position, Validation};
    /// assert_eq!(Position::from_text(" startpos ", Validation::Strict).unwrap(), Position::startpos());
    /// let pos = Position::from_text("8/8/8/8/8/k7/8/K7 w - - 0 1", Validation::Lenient).unwrap();
    /// assert_eq!(pos.to_fen(), "8/8/8/8/8/k7/8/K7 w - - 0 1");
    /// assert!(Position::from_text("start", Validation::Lenient).is_err());
    /// ```
    pub fn from_text(text: &str, validation: Validation) -> Result<Position, FenError> {
        let text = text.trim();
        if text == crate::STARTPOS {
            Ok(Position::startpos())
        } else {
            Position::from_fen_with(text, validation)
        }
    }

    /// Parses a FEN and validates it as asked.
    pub fn from_fen_with(fen: &str, validation: Validation) -> Result<Position, FenError> {
        let setup = Setup::from_fen(fen)?;
        Ok(Position::from_setup(setup, validation)?)
    }

    /// The position as an unvalidated setup.
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board().clone(),
            turn: self.turn(),
            castling: self.castling_rights(),
            ep_square: self.ep_square(),
            halfmoves: self.halfmoves(),
            fullmoves: self.fullmoves(),
        }
    }
}

/// The word that stands for the standard start position where a FEN may be given
/// ([`Position::from_text`]), as in UCI's `position startpos`.
pub const STARTPOS: &str = "startpos";

impl std::str::FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}
