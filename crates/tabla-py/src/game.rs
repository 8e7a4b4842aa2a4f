//! `Game` and `GameMove`: a game read from PGN, its values made into Python objects only when
//! asked for (a move's SAN, UCI, FEN).

use crate::position::Position;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Arc;
use tabla_pgn::write_game;

/// A game read from PGN: tags, the start position, the mainline, what went wrong.
#[pyclass(module = "tabla", frozen)]
pub struct Game {
    game: Arc<tabla_pgn::Game>,
}

impl Game {
    pub(crate) fn new(game: tabla_pgn::Game) -> Game {
        Game {
            game: Arc::new(game),
        }
    }

    /// The game's value, shared (a review clones it with the GIL released).
    pub(crate) fn inner(&self) -> &Arc<tabla_pgn::Game> {
        &self.game
    }
}

#[pymethods]
impl Game {
    /// The tag pairs as a dict, in the order written (the first of a repeated name).
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (name, value) in self.game.distinct_tags() {
            dict.set_item(name, value)?;
        }
        Ok(dict)
    }

    /// The result in standard form: the `Result` tag in any spelling (`1/2` is `"1/2-1/2"`)
    /// unless it is `*`, else the termination marker, else `"*"`; a non-standard spelling or a
    /// conflict with the marker is in `warnings`.
    #[getter]
    fn result(&self) -> &str {
        self.game.result()
    }

    /// The FEN of the start position (the standard one unless the tags set another); `None`
    /// when the tags give a position that cannot be played (see `error`).
    #[getter]
    fn start_fen(&self) -> Option<String> {
        self.game.start.as_ref().map(|p| p.to_fen())
    }

    /// The mainline's moves.
    #[getter]
    fn moves(&self) -> Vec<GameMove> {
        (0..self.game.moves.nodes.len())
            .map(|index| GameMove {
                game: Arc::clone(&self.game),
                index,
            })
            .collect()
    }

    /// The problems that did not stop the mainline (repairs, side lines cut short), as tabla
    /// reports them (`warning: game 3, 45:12, move 17...: ...`).
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.game.warnings().map(|w| w.report()).collect()
    }

    /// The error that stopped the mainline early (game, line:column, move, token, reason), or
    /// `None`: the moves before it are kept.
    #[getter]
    fn error(&self) -> Option<String> {
        self.game.error().map(|e| e.report())
    }

    /// The game's number among the games read, from 1.
    #[getter]
    fn number(&self) -> u64 {
        self.game.number
    }

    /// The line (from 1) where the game starts in the input.
    #[getter]
    fn line(&self) -> u64 {
        self.game.location.line
    }

    /// The position after the last mainline move; `None` without a start position.
    fn end(&self) -> Option<Position> {
        self.game
            .final_position()
            .map(|p| Position { pos: p.clone() })
    }

    /// The game in PGN export format (tags, movetext with comments, NAGs and variations).
    fn pgn(&self) -> String {
        write_game(&self.game)
    }

    fn __str__(&self) -> String {
        write_game(&self.game)
    }

    fn __len__(&self) -> usize {
        self.game.moves.nodes.len()
    }

    fn __repr__(&self) -> String {
        let tag = |name| self.game.tag(name).unwrap_or("?");
        format!(
            "<Game {} {} vs {} {} ({} moves)>",
            self.game.number,
            tag("White"),
            tag("Black"),
            self.game.result(),
            self.game.moves.nodes.len()
        )
    }
}

/// A move of a game's mainline, with its comments and the position after it.
#[pyclass(module = "tabla", frozen)]
pub struct GameMove {
    game: Arc<tabla_pgn::Game>,
    index: usize,
}

impl GameMove {
    fn node(&self) -> &tabla_pgn::Node {
        &self.game.moves.nodes[self.index]
    }
}

#[pymethods]
impl GameMove {
    /// The move in canonical SAN, with `+` or `#`.
    #[getter]
    fn san(&self) -> &str {
        &self.node().san
    }

    /// The move as written in the file.
    #[getter]
    fn san_written(&self) -> &str {
        &self.node().san_written
    }

    /// The move in UCI (`g1f3`).
    #[getter]
    fn uci(&self) -> String {
        self.node().uci()
    }

    /// The FEN of the position after the move.
    #[getter]
    fn fen(&self) -> String {
        self.node().fen()
    }

    /// The ply, as the move number tells it: 1 for White's first move from the usual start
    /// (as a review's `MoveReview.ply` and python-chess's `node.ply()`), 80 for Black's 40th.
    #[getter]
    fn ply(&self) -> u32 {
        self.node().position.ply()
    }

    /// The comments after the move, their text without the `[%...]` commands read out.
    #[getter]
    fn comments(&self) -> Vec<String> {
        self.node().comment_texts().map(str::to_owned).collect()
    }

    /// The clock after the move in seconds (`[%clk 0:05:01]` = 301.0), or `None`.
    #[getter]
    fn clock(&self) -> Option<f64> {
        self.node().clock().map(|d| d.as_secs_f64())
    }

    /// The evaluation after the move (`[%eval 0.17]`, `[%eval #-3]`), or `None`.
    #[getter]
    fn eval(&self) -> Option<Eval> {
        self.node().eval().map(|e| match e {
            tabla_pgn::Eval::Cp(cp) => Eval {
                cp: Some(cp),
                mate: None,
            },
            tabla_pgn::Eval::Mate(n) => Eval {
                cp: None,
                mate: Some(n),
            },
        })
    }

    /// The NAGs after the move (`!` = 1, `?` = 2, `$14` = 14).
    #[getter]
    fn nags(&self) -> Vec<u32> {
        self.node().nags.iter().map(|n| u32::from(n.0)).collect()
    }

    /// The position after the move (a copy: playing on it leaves the game alone).
    fn position(&self) -> Position {
        Position {
            pos: self.node().position.clone(),
        }
    }

    fn __repr__(&self) -> String {
        format!("<GameMove {} {}>", self.index + 1, self.node().san)
    }
}

/// An engine evaluation from White's point of view: centipawns (`cp`) or mate in so many moves
/// (`mate`, negative when Black mates); the other is `None`.
#[pyclass(module = "tabla", frozen, eq, hash, from_py_object)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Eval {
    /// Centipawns, or `None` for a mate score.
    #[pyo3(get)]
    cp: Option<i32>,
    /// Moves to mate (negative: Black mates), or `None`.
    #[pyo3(get)]
    mate: Option<i32>,
}

#[pymethods]
impl Eval {
    /// `Eval(cp=17)` or `Eval(mate=-3)`: exactly one of the two.
    #[new]
    #[pyo3(signature = (cp = None, mate = None))]
    fn py_new(cp: Option<i32>, mate: Option<i32>) -> PyResult<Eval> {
        match (cp, mate) {
            (Some(_), None) | (None, Some(_)) => Ok(Eval { cp, mate }),
            _ => Err(crate::errors::TablaError::new_err(
                "an Eval is centipawns (cp=...) or a mate (mate=...): give exactly one",
            )),
        }
    }

    fn __repr__(&self) -> String {
        match (self.cp, self.mate) {
            (Some(cp), _) => format!("Eval(cp={cp})"),
            (_, Some(m)) => format!("Eval(mate={m})"),
            _ => "Eval()".to_owned(),
        }
    }
}
