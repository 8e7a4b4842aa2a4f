//! The answer of the endgame tables for one position as JSON, one shape for every caller
//! (`tabla tb probe --json`, the server's `/api/tb` and `/api/kbnk`): its value, the best move
//! and every move's value, and the ending's name.

use crate::{Dtm, Men, Probe};
use serde::Serialize;
use tabla::Position;

/// A move and the value of the position after it.
#[derive(Serialize, Debug)]
pub struct ProbeMove {
    /// SAN.
    pub san: String,
    /// UCI.
    pub uci: String,
    /// The value after the move, for the side then to move (`-3`: the opponent is mated in 3).
    pub dtm: i16,
    /// Half-moves from the position after the move to mate; `null` for a draw.
    pub plies: Option<u16>,
    /// The move gives checkmate.
    pub mate: bool,
}

/// The best move.
#[derive(Serialize, Debug)]
pub struct BestMove {
    /// SAN.
    pub san: String,
    /// UCI.
    pub uci: String,
}

/// The value of a position and of every move: `GET /api/kbnk`'s answer, and `GET /api/tb`'s
/// without the ending's name.
#[derive(Serialize, Debug)]
pub struct ProbeJson {
    /// The canonical FEN.
    pub fen: String,
    /// `white` or `black`.
    pub turn: &'static str,
    /// The value for the side to move, in full moves (see [`Dtm::signed`]).
    pub dtm: i16,
    /// Half-moves to mate with best play; `null` for a draw.
    pub plies: Option<u16>,
    /// `win`, `loss`, `draw`, `checkmate` or `stalemate`, for the side to move.
    pub status: &'static str,
    /// The side to move is stalemated.
    pub stalemate: bool,
    /// The best move; `null` when there is none.
    pub best: Option<BestMove>,
    /// Every legal move with the value after it, best first.
    pub moves: Vec<ProbeMove>,
}

/// Describes a probe's answer for a position.
///
/// ```
/// use std::path::Path;
/// use tabla::Position;
/// use tabla_endgame::{Solved, Tablebase, describe_probe};
///
/// let mut solved = Solved::new();
/// solved.solve("KQvK".parse()?)?;
/// let tb = Tablebase::empty(Path::new("no tables here")).with_solved(&solved);
/// let pos = Position::from_fen("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1")?;
/// let answer = describe_probe(&pos, tb.probe_moves(&pos)?);
/// assert_eq!((answer.status, answer.dtm, answer.turn), ("win", 1, "white"));
/// assert_eq!(answer.best.map(|b| b.uci), Some(answer.moves[0].uci.clone()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn describe_probe(pos: &Position, probe: Probe) -> ProbeJson {
    let moves = probe.moves_best_first();
    let Probe {
        dtm,
        stalemate,
        best,
        ..
    } = probe;
    let status = match dtm {
        Dtm::Loss(0) => "checkmate",
        Dtm::Win(_) => "win",
        Dtm::Loss(_) => "loss",
        Dtm::Draw if stalemate => "stalemate",
        Dtm::Draw => "draw",
    };
    ProbeJson {
        fen: pos.to_fen(),
        turn: pos.turn().name(),
        dtm: dtm.signed(),
        plies: dtm.plies(),
        status,
        stalemate,
        best: best.map(|mv| BestMove {
            san: pos.san(mv),
            uci: pos.uci(mv),
        }),
        moves: moves
            .iter()
            .map(|m| ProbeMove {
                san: pos.san(m.mv),
                uci: pos.uci(m.mv),
                dtm: m.after.signed(),
                plies: m.after.plies(),
                mate: m.after.is_checkmated(),
            })
            .collect(),
    }
}

/// The answer of `GET /api/tb` and `tabla tb probe --json`: the position's and its moves'
/// values, and the ending.
#[derive(Serialize, Debug)]
pub struct TbJson {
    /// The value of the position and of every move.
    #[serde(flatten)]
    pub probe: ProbeJson,
    /// The men on the board, White's first: `KQvKR`, `KvKBN`.
    pub material: String,
}

/// Describes a probe's answer for a position, with the ending's name.
pub fn describe_tb(pos: &Position, men: Men, probe: Probe) -> TbJson {
    TbJson {
        probe: describe_probe(pos, probe),
        material: men.to_string(),
    }
}
