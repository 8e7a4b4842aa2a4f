//! The query parameters of the `/api/db` routes, read into tabla-db's types: the position
//! (`fen` or `moves`), what a search looks for, the filters, and a page of a list (`limit`,
//! `offset`); each mistake is a 400 that names the parameter.

use crate::api_error::ApiError;
use crate::game_db::db_error;
use crate::query::{Params, parameters};
use std::collections::HashMap;
use tabla::{Position, Validation};
use tabla_db::{FilterText, Filters, SearchQuery, Target, parse_pattern};

/// The games a list shows when the request does not say (tabla-db's, as the command's).
pub use tabla_db::DEFAULT_LIMIT;
/// The most games a list shows; a larger `limit` is cut to it.
pub const MAX_LIMIT: usize = 200;

/// A page of a list: at most `limit` games from the `offset`-th (from 0).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Page {
    /// Games at most, 1 to [`MAX_LIMIT`].
    pub limit: usize,
    /// Games skipped.
    pub offset: usize,
}

/// A parameter's value, `None` when absent or empty (a form's empty field asks for nothing).
fn given<'a>(map: &'a HashMap<String, String>, name: &str) -> Option<&'a str> {
    map.get(name).map(|v| v.trim()).filter(|v| !v.is_empty())
}

/// The position: `fen` (a legal position, or `startpos`) or `moves` (SAN or UCI from the
/// standard start), exactly one of them.
pub fn target(params: &Params) -> Result<Target, ApiError> {
    let map = parameters(params)?;
    match (map.get("fen"), map.get("moves")) {
        (Some(_), Some(_)) => Err(ApiError::bad_request(
            "give the position as `fen` or as `moves`, not both",
        )),
        (None, None) => Err(ApiError::bad_request(
            "missing query parameter `fen` (or `moves`: the moves from the start)",
        )),
        (Some(fen), None) => {
            let fen = fen.trim();
            Position::from_text(fen, Validation::Strict)
                .map_err(|e| ApiError::bad_request(format!("invalid FEN {fen:?}: {e}")))?;
            Ok(Target::Fen(fen.to_owned()))
        }
        (None, Some(moves)) => {
            let target = Target::Moves(moves.clone());
            target.position().map_err(db_error)?;
            Ok(target)
        }
    }
}

/// What `/api/db/search` looks for: a position (`fen` or `moves`), a `material` balance
/// (`KRPvKR`, with `either_color=1` for either side's), or a `pattern` (`wKg1,wRf1,bKg8`),
/// exactly one of them.
pub fn search_query(params: &Params) -> Result<SearchQuery, ApiError> {
    let map = parameters(params)?;
    let asked: Vec<&str> = ["fen", "moves", "material", "pattern"]
        .into_iter()
        .filter(|name| map.contains_key(*name))
        .collect();
    let either_color = match map.get("either_color").map(|v| v.trim()) {
        None | Some("" | "0" | "false") => false,
        Some("1" | "true") => true,
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "query parameter `either_color` is 1 or 0, not {other:?}"
            )));
        }
    };
    if either_color && asked != ["material"] {
        return Err(ApiError::bad_request("`either_color` goes with `material`"));
    }
    match asked.as_slice() {
        ["fen" | "moves"] => Ok(SearchQuery::Position(target(params)?)),
        ["material"] => SearchQuery::material(&map["material"], either_color).map_err(db_error),
        ["pattern"] => Ok(SearchQuery::Pattern(
            parse_pattern(&map["pattern"]).map_err(db_error)?,
        )),
        [] => Err(ApiError::bad_request(
            "missing query parameter: give one of `fen`, `moves`, `material` or `pattern`",
        )),
        several => Err(ApiError::bad_request(format!(
            "give one of `fen`, `moves`, `material` or `pattern`, not {}",
            several
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(" and ")
        ))),
    }
}

/// The filters: `rating` (`1600-1999`, `2000-`, `-1500`), `speed` (`blitz,rapid`), `since`
/// and `until` (`YYYY-MM`; a game dated by its year alone is in when its whole year is),
/// `player` (a name exactly as in the tags), `player_match` (a part of a name, any case),
/// `color` (`white` or `black`, with `player` or `player_match`) and `q` (the games page's
/// text search: players, event or site, any case).
pub fn filters(params: &Params) -> Result<Filters, ApiError> {
    let map = parameters(params)?;
    Filters::from_text(&FilterText {
        rating: given(map, "rating"),
        speed: given(map, "speed"),
        since: given(map, "since"),
        until: given(map, "until"),
        player: given(map, "player"),
        player_match: given(map, "player_match"),
        color: given(map, "color"),
        text: given(map, "q"),
    })
    .map_err(db_error)
}

/// `limit` (default [`DEFAULT_LIMIT`], at least 1, cut to [`MAX_LIMIT`]) and `offset`
/// (default 0).
pub fn page(params: &Params) -> Result<Page, ApiError> {
    let map = parameters(params)?;
    let number = |name: &str, default: usize, least: usize| -> Result<usize, ApiError> {
        let Some(text) = map.get(name) else {
            return Ok(default);
        };
        match text.trim().parse::<usize>() {
            Ok(n) if n >= least => Ok(n),
            _ => Err(ApiError::bad_request(format!(
                "query parameter `{name}` must be a whole number of at least {least}, not {text:?}"
            ))),
        }
    };
    Ok(Page {
        limit: number("limit", DEFAULT_LIMIT, 1)?.min(MAX_LIMIT),
        offset: number("offset", 0, 0)?,
    })
}

/// The text `/api/db/games` looks for in players' names, events and sites (`q`), if any.
pub fn text(params: &Params) -> Result<Option<String>, ApiError> {
    Ok(given(parameters(params)?, "q").map(str::to_owned))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::extract::Query;
    use axum::http::StatusCode;
    use tabla_db::Side;

    fn params(pairs: &[(&str, &str)]) -> Params {
        Ok(Query(
            pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
        ))
    }

    fn refused<T: std::fmt::Debug>(result: Result<T, ApiError>) -> String {
        let e = result.expect_err("a 400");
        assert_eq!(e.status, StatusCode::BAD_REQUEST, "{}", e.message);
        e.message
    }

    #[test]
    fn the_position_is_one_of_fen_and_moves() {
        assert_eq!(
            target(&params(&[("fen", "startpos")])).ok(),
            Some(Target::Fen("startpos".into()))
        );
        assert_eq!(
            target(&params(&[("moves", "e4 e5")])).ok(),
            Some(Target::Moves("e4 e5".into()))
        );
        assert!(refused(target(&params(&[]))).contains("fen"));
        assert!(refused(target(&params(&[("fen", "startpos"), ("moves", "")]))).contains("both"));
        assert!(refused(target(&params(&[("fen", "8/8/8/8/8/8/8/8 w - - 0 1")]))).contains("FEN"));
        assert!(refused(target(&params(&[("moves", "e4 e4")]))).starts_with("`moves`"));
    }

    #[test]
    fn filters_are_read_and_checked_together() {
        let f = filters(&params(&[
            ("rating", "1600-1999"),
            ("speed", "blitz,rapid"),
            ("since", "2013-01"),
            ("until", ""),
            ("player", "Alice"),
            ("color", "black"),
        ]))
        .expect("filters");
        assert_eq!(f.rating, Some((Some(1600), Some(1999))));
        assert_eq!(f.speeds, ["blitz", "rapid"]);
        assert_eq!(f.until, None);
        assert_eq!(f.color, Some(Side::Black));
        assert_eq!(filters(&params(&[])).ok(), Some(Filters::default()));
        assert!(refused(filters(&params(&[("rating", "high")]))).starts_with("`rating`"));
        assert!(refused(filters(&params(&[("speed", "turbo")]))).starts_with("`speed`"));
        assert!(refused(filters(&params(&[("since", "2024-13")]))).contains("not a month"));
        assert!(refused(filters(&params(&[("color", "white")]))).contains("`player`"));
        assert!(refused(filters(&params(&[("player", "A"), ("color", "red")]))).contains("red"));
        let late = params(&[("since", "2024-02"), ("until", "2024-01")]);
        assert!(refused(filters(&late)).contains("after"));
    }

    #[test]
    fn a_search_looks_for_one_thing() {
        assert!(matches!(
            search_query(&params(&[("material", "KRvK"), ("either_color", "1")])),
            Ok(SearchQuery::Material {
                either_color: true,
                ..
            })
        ));
        assert!(matches!(
            search_query(&params(&[("pattern", "wKg1")])),
            Ok(SearchQuery::Pattern(p)) if p.len() == 1
        ));
        assert!(refused(search_query(&params(&[]))).contains("one of"));
        assert!(
            refused(search_query(&params(&[
                ("fen", "startpos"),
                ("pattern", "wKg1")
            ])))
            .contains("not `fen` and `pattern`")
        );
        assert!(
            refused(search_query(&params(&[
                ("pattern", "wKg1"),
                ("either_color", "1")
            ])))
            .contains("material")
        );
        assert!(refused(search_query(&params(&[("material", "KRvR")]))).starts_with("`material`"));
        assert!(refused(search_query(&params(&[("pattern", "wKz9")]))).starts_with("`pattern`"));
    }

    #[test]
    fn pages_have_defaults_and_a_ceiling() {
        assert_eq!(
            page(&params(&[])).ok(),
            Some(Page {
                limit: DEFAULT_LIMIT,
                offset: 0
            })
        );
        assert_eq!(
            page(&params(&[("limit", "100000"), ("offset", "40")])).ok(),
            Some(Page {
                limit: MAX_LIMIT,
                offset: 40
            })
        );
        for bad in ["0", "-1", "ten", ""] {
            assert!(
                refused(page(&params(&[("limit", bad)]))).contains("limit"),
                "{bad}"
            );
        }
        assert!(refused(page(&params(&[("offset", "-5")]))).contains("offset"));
    }
}
