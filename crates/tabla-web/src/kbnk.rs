//! `GET /api/kbnk`: the KBNK solution base for one position.

use crate::api_error::ApiError;
use crate::query::{Params, fen_param};
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Serialize;
use tabla::{Color, Position};
use tabla_endgame::{Dtm, Probe, ProbeError, Table};

/// A move and the value of the position after it.
#[derive(Serialize, Debug)]
pub struct KbnkMove {
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

/// The answer of `GET /api/kbnk`.
#[derive(Serialize, Debug)]
pub struct KbnkJson {
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
    pub moves: Vec<KbnkMove>,
}

/// Probes a position and describes the answer.
pub fn describe(table: &Table, pos: &Position) -> Result<KbnkJson, ProbeError> {
    Ok(describe_probe(pos, table.probe(pos)?))
}

/// Describes a probe's answer (of the KBNK table or of any tablebase) for a position.
pub fn describe_probe(pos: &Position, probe: Probe) -> KbnkJson {
    let Probe {
        dtm,
        stalemate,
        best,
        mut moves,
    } = probe;
    moves.sort_by_key(|m| m.for_mover().badness());
    let status = match dtm {
        Dtm::Loss(0) => "checkmate",
        Dtm::Win(_) => "win",
        Dtm::Loss(_) => "loss",
        Dtm::Draw if stalemate => "stalemate",
        Dtm::Draw => "draw",
    };
    KbnkJson {
        fen: pos.to_fen(),
        turn: match pos.turn() {
            Color::White => "white",
            Color::Black => "black",
        },
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
            .map(|m| KbnkMove {
                san: pos.san(m.mv),
                uci: pos.uci(m.mv),
                dtm: m.after.signed(),
                plies: m.after.plies(),
                mate: m.after.is_checkmated(),
            })
            .collect(),
    }
}

/// `GET /api/kbnk?fen=F`: 400 for a FEN that is not a legal position, 422 for a legal position
/// that is not king, bishop and knight against a king.
pub async fn kbnk(
    State(state): State<AppState>,
    params: Params,
) -> Result<Json<KbnkJson>, ApiError> {
    let pos = fen_param(&params)?;
    describe(&state.kbnk, &pos)
        .map(Json)
        .map_err(|e| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))
}
