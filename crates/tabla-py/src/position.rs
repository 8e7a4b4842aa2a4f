//! `Position` and `Move`: tabla's game model as python-chess users know it (`legal_moves`,
//! `push_san`, `pop`, ...), each method one call into the core.

use crate::errors::{fen_error, san_error, uci_error};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use tabla::{EnPassantMode, GameEnd, Square, SvgOptions, Validation};

/// A move in UCI terms: from and to squares (0 = a1 ... 63 = h8) and a promotion.
///
/// Independent of any position, like python-chess's `chess.Move`: `Position.push` checks it.
#[pyclass(module = "tabla", frozen, eq, hash, from_py_object)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Move {
    from: u8,
    to: u8,
    promotion: Option<char>,
}

impl Move {
    /// The move `mv` as played in `pos` (castling as the king's two-square step).
    fn of(pos: &tabla::Position, mv: tabla::Move) -> Move {
        let uci = pos.uci(mv);
        parse_uci_text(&uci).unwrap_or(Move {
            from: mv.from().index() as u8,
            to: mv.to().index() as u8,
            promotion: None,
        })
    }

    /// The move as UCI text, written by the core ([`tabla::UciMove`]); a `Move` is only made
    /// from valid squares, so the fallback is never written.
    fn uci_text(&self) -> String {
        let uci = Square::new(self.from)
            .zip(Square::new(self.to))
            .map(|(from, to)| tabla::UciMove {
                from,
                to,
                promotion: self.promotion.and_then(tabla::Role::from_char),
            });
        uci.map_or_else(|| "0000".to_owned(), |m| m.to_string())
    }
}

/// `e2e4`, `e7e8q` as a [`Move`]; `None` when it is not of that form ([`tabla::UciMove`]).
fn parse_uci_text(text: &str) -> Option<Move> {
    let mv = tabla::UciMove::parse(text)?;
    Some(Move {
        from: mv.from.index() as u8,
        to: mv.to.index() as u8,
        promotion: mv.promotion.map(tabla::Role::char),
    })
}

#[pymethods]
impl Move {
    /// A move from UCI text (`e2e4`, `e7e8q`); raises `InvalidMoveError` when the text is not
    /// of that form.
    #[staticmethod]
    fn from_uci(uci: &str) -> PyResult<Move> {
        parse_uci_text(uci).ok_or_else(|| {
            crate::errors::InvalidMoveError::new_err(format!(
                "{uci:?} is not a UCI move (expected from and to squares, such as e2e4 or e7e8q)"
            ))
        })
    }

    /// The from square, 0 (a1) to 63 (h8) (python-chess's name).
    #[getter(from_square)]
    fn origin(&self) -> u8 {
        self.from
    }

    /// The to square, 0 (a1) to 63 (h8).
    #[getter]
    fn to_square(&self) -> u8 {
        self.to
    }

    /// The piece promoted to, `"q"`, `"r"`, `"b"` or `"n"`; `None` for other moves.
    #[getter]
    fn promotion(&self) -> Option<String> {
        self.promotion.map(String::from)
    }

    /// The move in UCI (`e2e4`).
    fn uci(&self) -> String {
        self.uci_text()
    }

    fn __str__(&self) -> String {
        self.uci_text()
    }

    fn __repr__(&self) -> String {
        format!("Move.from_uci('{}')", self.uci_text())
    }
}

/// A chess position with the moves played on it (for `pop` and repetitions).
#[pyclass(module = "tabla", from_py_object)]
#[derive(Clone)]
pub struct Position {
    pub(crate) pos: tabla::Position,
}

impl Position {
    /// The core move that `mv` names here, or the exception to raise.
    fn resolve(&self, mv: &Move) -> PyResult<tabla::Move> {
        self.pos.parse_uci(&mv.uci_text()).map_err(uci_error)
    }
}

#[pymethods]
impl Position {
    /// The position of `fen`; the standard start position without it (see `from_fen`).
    #[new]
    #[pyo3(signature = (fen = None, *, lenient = false))]
    fn new(fen: Option<&str>, lenient: bool) -> PyResult<Position> {
        match fen {
            None => Ok(Position {
                pos: tabla::Position::startpos(),
            }),
            Some(fen) => Position::from_fen(fen, lenient),
        }
    }

    /// The position of a FEN; raises `FenError` for text that is not FEN and
    /// `InvalidPositionError` for a position that cannot arise. `lenient=True` accepts
    /// positions that cannot arise in a game but can be played on (impossible checks, too much
    /// material: perft suites hold such positions).
    #[staticmethod]
    #[pyo3(signature = (fen, *, lenient = false))]
    fn from_fen(fen: &str, lenient: bool) -> PyResult<Position> {
        let validation = if lenient {
            Validation::Lenient
        } else {
            Validation::Strict
        };
        tabla::Position::from_fen_with(fen, validation)
            .map(|pos| Position { pos })
            .map_err(fen_error)
    }

    /// The FEN of the position. `en_passant="always"` writes the square after every double
    /// pawn push (the PGN standard; python-chess's `en_passant="fen"`), `"legal"` only when an
    /// en-passant capture is legal (python-chess's default, lichess).
    #[pyo3(signature = (en_passant = "always"))]
    fn fen(&self, en_passant: &str) -> PyResult<String> {
        let mode = match en_passant {
            "always" => EnPassantMode::Always,
            "legal" => EnPassantMode::Legal,
            other => {
                return Err(PyValueError::new_err(format!(
                    "en_passant={other:?}: expected \"always\" or \"legal\""
                )));
            }
        };
        Ok(self.pos.fen_with(mode))
    }

    /// `"white"` or `"black"`: the side to move.
    #[getter]
    fn turn(&self) -> &'static str {
        self.pos.turn().name()
    }

    /// The move number, from 1, incremented after Black's move.
    #[getter]
    fn fullmove_number(&self) -> u32 {
        self.pos.fullmoves()
    }

    /// Half-moves since the last capture or pawn move.
    #[getter]
    fn halfmove_clock(&self) -> u32 {
        self.pos.halfmoves()
    }

    /// The legal moves, as a list.
    #[getter]
    fn legal_moves(&self) -> Vec<Move> {
        self.pos
            .legal_moves()
            .iter()
            .map(|&mv| Move::of(&self.pos, mv))
            .collect()
    }

    /// Plays `move`; raises `IllegalMoveError` when it is not legal here.
    fn push(&mut self, r#move: &Move) -> PyResult<()> {
        let mv = self.resolve(r#move)?;
        self.pos.play_unchecked(mv);
        Ok(())
    }

    /// Plays a move given in SAN (`Nf3`, `exd5`, `O-O`, `e8=Q`; also the long form `Ng1-f3`)
    /// and returns it. Raises `InvalidMoveError`, `IllegalMoveError` or `AmbiguousMoveError`.
    fn push_san(&mut self, san: &str) -> PyResult<Move> {
        let mv = self.pos.parse_san(san).map_err(san_error)?;
        let out = Move::of(&self.pos, mv);
        self.pos.play_unchecked(mv);
        Ok(out)
    }

    /// Plays a move given in UCI (`e2e4`) and returns it.
    fn push_uci(&mut self, uci: &str) -> PyResult<Move> {
        let before = self.pos.clone();
        let mv = self.pos.push_uci(uci).map_err(uci_error)?;
        Ok(Move::of(&before, mv))
    }

    /// Takes back the last move played on this position and returns it; raises `IndexError`
    /// when none was.
    fn pop(&mut self) -> PyResult<Move> {
        let mv = self
            .pos
            .undo()
            .ok_or_else(|| PyIndexError::new_err("pop from a position with no moves played"))?;
        Ok(Move::of(&self.pos, mv))
    }

    /// The move that SAN names here, without playing it.
    fn parse_san(&self, san: &str) -> PyResult<Move> {
        let mv = self.pos.parse_san(san).map_err(san_error)?;
        Ok(Move::of(&self.pos, mv))
    }

    /// The move that UCI text names here (legal), without playing it.
    fn parse_uci(&self, uci: &str) -> PyResult<Move> {
        let mv = self.pos.parse_uci(uci).map_err(uci_error)?;
        Ok(Move::of(&self.pos, mv))
    }

    /// A copy with the same moves played.
    fn copy(&self) -> Position {
        self.clone()
    }

    fn __copy__(&self) -> Position {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Position {
        self.clone()
    }

    /// The SAN of a legal move (`Nf3`, `exd5+`, `O-O#`).
    fn san(&self, r#move: &Move) -> PyResult<String> {
        Ok(self.pos.san(self.resolve(r#move)?))
    }

    /// Whether the side to move is in check.
    fn is_check(&self) -> bool {
        self.pos.is_check()
    }

    /// Whether the side to move is checkmated.
    fn is_checkmate(&self) -> bool {
        self.pos.is_checkmate()
    }

    /// Whether the side to move is stalemated.
    fn is_stalemate(&self) -> bool {
        self.pos.is_stalemate()
    }

    /// Whether neither side can ever mate.
    fn is_insufficient_material(&self) -> bool {
        self.pos.is_insufficient_material()
    }

    /// Whether the game is over by rule (see `status`).
    fn is_game_over(&self) -> bool {
        self.pos.status().end.is_some()
    }

    /// Why the game is over by rule, or `"ongoing"`: `"checkmate"`, `"stalemate"`,
    /// `"insufficient_material"`, `"seventyfive_moves"`, `"fivefold_repetition"` (repetitions of
    /// the moves played on this position).
    fn status(&self) -> &'static str {
        match self.pos.status().end {
            None => "ongoing",
            Some(GameEnd::Checkmate { .. }) => "checkmate",
            Some(GameEnd::Stalemate) => "stalemate",
            Some(GameEnd::InsufficientMaterial) => "insufficient_material",
            Some(GameEnd::SeventyFiveMoves) => "seventyfive_moves",
            Some(GameEnd::FivefoldRepetition) => "fivefold_repetition",
        }
    }

    /// The result by rule, `"1-0"`, `"0-1"` or `"1/2-1/2"`, else `"*"`.
    fn result(&self) -> &'static str {
        self.pos.status().end.map_or("*", |end| end.result())
    }

    /// The Polyglot Zobrist key (python-chess's `chess.polyglot.zobrist_hash`).
    fn zobrist(&self) -> u64 {
        self.pos.zobrist()
    }

    /// Leaf nodes of the legal move tree `depth` plies deep (the GIL released meanwhile);
    /// `ValueError` past `tabla::MAX_PERFT_DEPTH` (64), where the count would overflow the stack.
    fn perft(&self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        if depth > tabla::MAX_PERFT_DEPTH {
            return Err(PyValueError::new_err(format!(
                "perft depth {depth}: at most {}",
                tabla::MAX_PERFT_DEPTH
            )));
        }
        let mut pos = self.pos.clone_without_history();
        Ok(py.detach(move || pos.perft(depth)))
    }

    /// The piece on a square (0 = a1 ... 63 = h8) as its FEN letter (`"K"`, `"p"`), or `None`.
    fn piece_at(&self, square: u8) -> PyResult<Option<String>> {
        let sq = Square::new(square)
            .ok_or_else(|| PyValueError::new_err(format!("no square {square}: 0 to 63")))?;
        Ok(self.pos.piece_at(sq).map(|p| p.char().to_string()))
    }

    /// An SVG diagram: `size` in pixels, from Black's side when `flipped`, the last move played
    /// marked, a king in check marked.
    #[pyo3(signature = (size = 360, flipped = false))]
    fn svg(&self, size: u32, flipped: bool) -> String {
        let mut options = SvgOptions::new().size(size).flipped(flipped);
        if let Some(mv) = self.pos.last_move() {
            options = options.last_move(mv);
        }
        self.pos.svg(&options)
    }

    /// The SVG diagram, for Jupyter.
    fn _repr_svg_(&self) -> String {
        self.svg(360, false)
    }

    fn __str__(&self) -> String {
        self.pos.unicode_diagram(false)
    }

    fn __repr__(&self) -> String {
        format!("Position.from_fen({:?})", self.pos.to_fen())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .extract::<PyRef<'_, Position>>()
            .is_ok_and(|o| o.pos.to_fen() == self.pos.to_fen())
    }
}
