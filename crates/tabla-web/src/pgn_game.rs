//! `POST /api/pgn/game`: one game, its moves and its PGN in export format, from the game's own
//! text (the byte range the index gave, cut out of the file by the client), so the server keeps
//! nothing between requests.

use crate::api_error::ApiError;
use crate::pgn_body::{pgn_body, read_blocking};
use crate::query::{Params, parameters};
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use tabla_pgn::{Game, Location, Reader, game_json, write_game};

/// Where the text of a game sat in the file it was cut from, so that its messages say what
/// reading the whole file says: the game's index (its number less one), the offset of the
/// text's first byte, and that byte's line and column (from 1).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// The game's place in the file, from 0.
    pub index: u64,
    /// The offset of the text's first byte in the file.
    pub start: u64,
    /// The line of the text's first byte, from 1.
    pub line: u64,
    /// The column of the text's first byte, from 1.
    pub column: u64,
}

impl Default for Origin {
    /// A text that is a file of its own: the first game, at the first byte.
    fn default() -> Origin {
        Origin {
            index: 0,
            start: 0,
            line: 1,
            column: 1,
        }
    }
}

impl Origin {
    /// `location` in the text as a location in the file.
    fn place(&self, location: Location) -> Location {
        Location {
            offset: location.offset.saturating_add(self.start),
            line: location.line.saturating_add(self.line - 1),
            column: if location.line == 1 {
                location.column.saturating_add(self.column - 1)
            } else {
                location.column
            },
        }
    }

    /// Renumbers and relocates `game` (and its problems) as read in the file.
    fn apply(&self, game: &mut Game) {
        let number = self.index.saturating_add(1);
        game.number = number;
        game.location = self.place(game.location);
        for problem in &mut game.problems {
            problem.game = number;
            problem.location = self.place(problem.location);
        }
    }
}

/// The origin from the query string: `index`, `start`, `line`, `column`, each optional
/// ([`Origin::default`]'s values); 400 for a value that is not a number or a line or column 0.
pub(crate) fn origin(params: &Params) -> Result<Origin, ApiError> {
    let parameters = parameters(params)?;
    let default = Origin::default();
    let number = |name: &str, default: u64, least: u64| -> Result<u64, ApiError> {
        let Some(text) = parameters.get(name) else {
            return Ok(default);
        };
        match text.trim().parse::<u64>() {
            Ok(n) if n >= least => Ok(n),
            _ => Err(ApiError::bad_request(format!(
                "query parameter `{name}` must be a whole number of at least {least}, not {text:?}"
            ))),
        }
    };
    Ok(Origin {
        index: number("index", default.index, 0)?,
        start: number("start", default.start, 0)?,
        line: number("line", default.line, 1)?,
        column: number("column", default.column, 1)?,
    })
}

/// The one game of `pgn`, relocated by `origin` (a damaged game too: its `error` says where it
/// stopped). 400 when `pgn` holds no game or more than one.
pub(crate) fn one_game(pgn: &[u8], origin: Origin) -> Result<Game, ApiError> {
    let unreadable =
        |e: std::io::Error| ApiError::bad_request(format!("could not read the PGN: {e}"));
    let mut reader = Reader::new(pgn);
    let mut game = match reader.games().next() {
        Some(game) => game.map_err(unreadable)?,
        None => return Err(ApiError::bad_request("no game in the body")),
    };
    let second_at = reader.offset();
    if reader.skip_game().map_err(unreadable)? {
        return Err(ApiError::bad_request(format!(
            "the body holds more than one game (another one starts after byte {second_at}): \
             send one game's text"
        )));
    }
    origin.apply(&mut game);
    Ok(game)
}

/// The one game of `pgn` as [`game_json`] writes it, relocated by `origin`, with `"pgn"`: the
/// game written back by [`write_game`] (export format). 400 when `pgn` holds no game or more
/// than one.
pub fn game_with_pgn(pgn: &[u8], origin: Origin) -> Result<String, ApiError> {
    let game = one_game(pgn, origin)?;
    let json = game_json(&game);
    let text = serde_json::to_string(&write_game(&game))
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    let Some(fields) = json.strip_suffix('}') else {
        return Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the game could not be written as JSON",
        ));
    };
    Ok(format!("{fields},\"pgn\":{text}}}"))
}

/// `POST /api/pgn/game?index=I&start=S&line=L&column=C` with one game's PGN text as the body:
/// the game as [`game_with_pgn`] gives it; 400 for no game, several games or a bad query, 413
/// over the body limit.
pub async fn pgn_game(
    State(state): State<AppState>,
    params: Params,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let origin = origin(&params)?;
    let body = pgn_body(&state, body)?;
    let game = read_blocking(&state, move || game_with_pgn(&body, origin)).await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], game).into_response())
}
