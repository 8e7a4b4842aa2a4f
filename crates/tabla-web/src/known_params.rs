//! The query parameters each API route takes, in one table: a request that names another one
//! (a typo such as `playr=Carlsen` would otherwise be ignored, and a review then take the whole
//! database) or gives one empty is answered 400 naming them, before its handler runs.
//!
//! `moves` may be empty (no moves: the position of `fen`, or the start); every other parameter
//! given must have a value.

use crate::api_error::ApiError;
use axum::extract::Request;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// The database's filters (`db_params::filters`), which every `/api/db` list takes.
const FILTERS: [&str; 8] = [
    "rating",
    "speed",
    "since",
    "until",
    "player",
    "player_match",
    "color",
    "q",
];

/// A route's own parameters, besides [`FILTERS`] where `filters` is set.
struct Route {
    path: &'static str,
    params: &'static [&'static str],
    filters: bool,
}

const fn route(path: &'static str, params: &'static [&'static str], filters: bool) -> Route {
    Route {
        path,
        params,
        filters,
    }
}

/// Every API route and what it takes. `/api/db/game/{id}` is matched by its prefix.
const ROUTES: [Route; 20] = [
    route("/api/position", &["fen", "moves"], false),
    route("/api/play", &["fen", "uci"], false),
    route("/api/kbnk", &["fen"], false),
    route("/api/tb", &["fen"], false),
    route("/api/suggest", &["fen", "movetime"], false),
    route("/api/engine", &[], false),
    route("/api/analyse", &["fen", "moves", "multipv"], false),
    route("/api/pgn", &[], false),
    route("/api/pgn/index", &[], false),
    route(
        "/api/pgn/game",
        &["index", "start", "line", "column"],
        false,
    ),
    route(
        "/api/review",
        &["cached", "engine", "index", "start", "line", "column"],
        false,
    ),
    route("/api/sample", &[], false),
    route("/api/db", &[], false),
    route("/api/db/explore", &["fen", "moves"], true),
    route(
        "/api/db/search",
        &[
            "fen",
            "moves",
            "material",
            "either_color",
            "pattern",
            "limit",
            "offset",
        ],
        true,
    ),
    route("/api/db/games", &["limit", "offset"], true),
    route("/api/db/players", &["q", "limit"], false),
    route("/api/db/game/", &[], false),
    route("/api/db/review", &["all"], true),
    route("/api/db/review/plan", &["all"], true),
];

/// What is wrong with the query string `query` of a request to `path`: the parameters the route
/// does not take, and those given empty; `None` when nothing is (or `path` is no API route).
///
/// ```ignore
/// assert!(problem("/api/db/review", Some("playr=Carlsen")).unwrap().contains("`playr`"));
/// assert_eq!(problem("/api/db/review", Some("player=Carlsen")), None);
/// ```
fn problem(path: &str, query: Option<&str>) -> Option<String> {
    let route = ROUTES.iter().find(|r| {
        if r.path.ends_with('/') {
            path.starts_with(r.path)
        } else {
            path == r.path
        }
    })?;
    let takes =
        |name: &str| route.params.contains(&name) || route.filters && FILTERS.contains(&name);
    let mut unknown = Vec::new();
    let mut empty = Vec::new();
    for (name, value) in form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
        if !takes(&name) {
            unknown.push(format!("`{name}`"));
        } else if value.trim().is_empty() && name != "moves" {
            empty.push(format!("`{name}`"));
        }
    }
    if unknown.is_empty() && empty.is_empty() {
        return None;
    }
    let mut takes: Vec<&str> = route.params.to_vec();
    if route.filters {
        takes.extend(FILTERS);
    }
    let mut parts = Vec::new();
    if !unknown.is_empty() {
        let list = if takes.is_empty() {
            "none".to_owned()
        } else {
            takes
                .iter()
                .map(|t| format!("`{t}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        parts.push(format!(
            "unknown query parameter{} {} ({} takes {list})",
            if unknown.len() == 1 { "" } else { "s" },
            unknown.join(", "),
            route.path.trim_end_matches('/'),
        ));
    }
    if !empty.is_empty() {
        parts.push(format!(
            "empty query parameter{} {}: give a value or leave it out",
            if empty.len() == 1 { "" } else { "s" },
            empty.join(", ")
        ));
    }
    Some(parts.join("; "))
}

/// The middleware: 400 for a request [`problem`] finds fault with, else the route's answer.
pub async fn check(request: Request, next: Next) -> Response {
    match problem(request.uri().path(), request.uri().query()) {
        Some(message) => ApiError::bad_request(message).into_response(),
        None => next.run(request).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typo_is_named_with_what_the_route_takes() {
        let p = problem("/api/db/review", Some("playr=Carlsen")).expect("refused");
        assert!(p.contains("unknown query parameter `playr`"), "{p}");
        assert!(p.contains("`player`"), "{p}");
        assert_eq!(problem("/api/db/review", Some("player=Carlsen")), None);
        let p = problem("/api/engine", Some("x=1&y=2")).expect("refused");
        assert!(
            p.contains("parameters `x`, `y`") && p.contains("takes none"),
            "{p}"
        );
    }

    #[test]
    fn empty_values_are_refused_but_moves() {
        let p = problem("/api/db/games", Some("player=&limit=5")).expect("refused");
        assert!(p.contains("empty query parameter `player`"), "{p}");
        assert_eq!(problem("/api/position", Some("fen=startpos&moves=")), None);
        assert_eq!(problem("/api/db/explore", Some("moves=")), None);
    }

    #[test]
    fn other_paths_and_the_game_route_by_prefix() {
        assert_eq!(problem("/assets/app.js", Some("v=1")), None);
        assert_eq!(problem("/", Some("db=4&ply=2")), None);
        assert!(problem("/api/db/game/12", Some("ply=2")).is_some());
        assert_eq!(problem("/api/db/game/12", None), None);
    }

    #[test]
    fn every_route_of_the_router_is_in_the_table() {
        // The router's API paths, as `router.rs` lists them.
        let source = include_str!("router.rs");
        for line in source.lines() {
            let Some(start) = line.find(".route(\"/api") else {
                continue;
            };
            let rest = &line[start + 8..];
            let path = &rest[..rest.find('"').expect("closing quote")];
            let path = path.trim_end_matches("{id}");
            assert!(
                ROUTES.iter().any(|r| r.path == path),
                "{path}: add it to known_params::ROUTES"
            );
        }
    }
}
