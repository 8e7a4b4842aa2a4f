//! The front end, embedded at build time (see `build.rs`): files are looked up by exact name in
//! a table, so no request can reach the file system.

use crate::api_error::ApiError;
use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// The page paths of the app; each serves `index.html`, which picks the page from the path.
const PAGES: [&str; 6] = ["", "pgn", "endgame", "kbnk", "analysis", "games"];

/// The embedded file for a request path, with its media type.
pub fn lookup(path: &str) -> Option<(&'static str, &'static [u8])> {
    let name = path.strip_prefix('/').unwrap_or(path);
    let name = if PAGES.contains(&name.trim_end_matches('/')) {
        "index.html"
    } else {
        name
    };
    ASSETS
        .binary_search_by(|(n, _, _)| (*n).cmp(name))
        .ok()
        .map(|i| (ASSETS[i].1, ASSETS[i].2))
}

/// Serves an embedded file (GET and HEAD); 404 for anything else under any path.
pub async fn asset(method: Method, uri: Uri) -> Response {
    if uri.path().starts_with("/api/") {
        return ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no API route {}", uri.path()),
        )
        .into_response();
    }
    if method != Method::GET && method != Method::HEAD {
        return ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "only GET and HEAD here")
            .into_response();
    }
    let Some((media_type, bytes)) = lookup(uri.path()) else {
        return ApiError::new(StatusCode::NOT_FOUND, format!("no file {}", uri.path()))
            .into_response();
    };
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(media_type)),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            (
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            ),
            (
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static(
                    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'",
                ),
            ),
        ],
        bytes,
    )
        .into_response()
}
