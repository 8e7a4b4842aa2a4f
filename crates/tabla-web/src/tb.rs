//! `GET /api/tb`: the endgame tables (up to five men) for one position, and `GET /api/kbnk`, its
//! alias for king, bishop and knight against a king.

use crate::api_error::{ApiError, MissingTable};
use crate::query::{Params, fen_param};
use crate::state::AppState;
use crate::tb_dir::TbDir;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use tabla::Role;
use tabla::{CastlingRights, Color, Position};
use tabla_endgame::{MAX_MEN, Men, ProbeJson, TbError, TbJson, describe_tb};

/// `GET /api/tb?fen=F`: 400 for a FEN that is not a legal position; 422 for a position the
/// tables do not hold (more than five men, castling rights), and 422 with `missing` (the ending
/// as built) and `command` (how to build it) when its table is not in the server's directory.
/// KBNvK, KQvK and KRvK (and KBvK, KNvK) are answered without a file: the server solves them in
/// memory at start.
pub async fn tb(State(state): State<AppState>, params: Params) -> Result<Json<TbJson>, ApiError> {
    let pos = fen_param(&params)?;
    answered(state, pos).await.map(Json)
}

/// [`answer`], on the request's own task when the ending is solved in memory (a few
/// microseconds: a hand-off to a blocking thread would cost as much as the probe, and halved
/// `/api/kbnk`'s requests a second), on a blocking thread when a table file is read (pages of
/// the file, or a derived table's first probe, a fraction of a second).
async fn answered(state: AppState, pos: Position) -> Result<TbJson, ApiError> {
    if Men::of(&pos).is_ok_and(|men| state.tb.in_memory(men)) {
        return answer(&state.tb, &pos);
    }
    tokio::task::spawn_blocking(move || answer(&state.tb, &pos))
        .await
        .map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("the probe failed: {e}"),
            )
        })?
}

/// `GET /api/kbnk?fen=F`: `/api/tb`'s answer without the ending's name, for king, bishop and
/// knight against a king and the endings a capture leads to (KBvK, KNvK); 400 for a FEN that is
/// not a legal position, 422 for other men.
pub async fn kbnk(
    State(state): State<AppState>,
    params: Params,
) -> Result<Json<ProbeJson>, ApiError> {
    let pos = fen_param(&params)?;
    if !Men::of(&pos).is_ok_and(within_kbnvk) {
        return Err(unprocessable(
            &"the position is not king, bishop and knight against a bare king (KBNvK); \
              /api/tb answers every ending of up to five men",
        ));
    }
    Ok(Json(answered(state, pos).await?.probe))
}

/// Whether the men are KBNvK's (either colours) or fewer of them.
fn within_kbnvk(men: Men) -> bool {
    let (men, _) = men.canonical();
    [Role::Queen, Role::Rook, Role::Pawn]
        .iter()
        .all(|&r| men.count(Color::White, r) == 0)
        && men.count(Color::White, Role::Bishop) <= 1
        && men.count(Color::White, Role::Knight) <= 1
        && men.roles(Color::Black).is_empty()
}

fn unprocessable(e: &dyn std::fmt::Display) -> ApiError {
    ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e.to_string())
}

/// The answer for a legal position.
pub fn answer(tb: &TbDir, pos: &Position) -> Result<TbJson, ApiError> {
    let count = pos.board().pieces().count();
    if count > MAX_MEN {
        return Err(unprocessable(&TbError::TooMany(count)));
    }
    if pos.castling_rights() != CastlingRights::NONE {
        return Err(unprocessable(&TbError::Castling));
    }
    let men = Men::of(pos).map_err(|e| unprocessable(&e))?;
    let ending = men.canonical().0;
    let mut tables = tb.tables();
    let mut reopened = false;
    loop {
        match tables.probe_moves(pos) {
            Ok(probe) => return Ok(describe_tb(pos, men, probe)),
            Err(TbError::Missing { missing, .. }) if !reopened => {
                reopened = true;
                match tb.reopen_if_built(missing) {
                    Ok(Some(again)) => tables = again,
                    Ok(None) => return Err(missing_table(tb, ending, missing)),
                    Err(e) => return Err(file_error(&e)),
                }
            }
            Err(TbError::Missing { missing, .. }) => {
                return Err(missing_table(tb, ending, missing));
            }
            Err(TbError::File(e)) => return Err(file_error(&e)),
            Err(e) => return Err(unprocessable(&e)),
        }
    }
}

/// The 422 for an ending without its table (`lacking`: the table that was not found, the
/// position's own or one its moves lead to).
fn missing_table(tb: &TbDir, ending: Men, lacking: Men) -> ApiError {
    let command = tb.build_command(ending);
    let place = tb.place();
    let why = if lacking == ending {
        String::new()
    } else {
        format!(" (its moves lead to {lacking}, whose table is missing)")
    };
    ApiError::missing_table(
        format!("no table for {ending} {place}{why}; build it with `{command}`"),
        MissingTable {
            material: ending.to_string(),
            command,
        },
    )
}

fn file_error(e: &dyn std::fmt::Display) -> ApiError {
    ApiError::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        format!("the server's table files cannot be read: {e}"),
    )
}
