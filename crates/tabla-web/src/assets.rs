//! The front end, embedded at build time (see `build.rs`): files are looked up by exact name in
//! a table, so no request can reach the file system. A path that is neither a file nor a route
//! is a 404: a small page for a browser that navigates there, `{"error"}` for a program.

use crate::api_error::ApiError;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
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

/// Serves an embedded file (GET and HEAD); 404 for anything else under any path (see
/// [`not_found`]).
pub async fn asset(method: Method, uri: Uri, headers: HeaderMap) -> Response {
    let path = uri.path();
    if path.starts_with("/api/") {
        return not_found(&method, &headers, path, format!("no API route {path}"));
    }
    if method != Method::GET && method != Method::HEAD {
        return ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "only GET and HEAD here")
            .into_response();
    }
    let Some((media_type, bytes)) = lookup(path) else {
        return not_found(&method, &headers, path, format!("no file {path}"));
    };
    (served(media_type), bytes).into_response()
}

/// The headers of whatever the front end serves: its media type, revalidated on every use, not
/// sniffed, and scripts and styles from the server only.
fn served(media_type: &'static str) -> [(header::HeaderName, HeaderValue); 4] {
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
    ]
}

/// A 404 for `path`, which no route and no file answers: a page saying so, with links into the
/// app, when a browser navigates there (a mistyped or outdated address, `/api/` ones included);
/// else `{"error": message}` as every error of the API, for the app's own requests and programs.
fn not_found(method: &Method, headers: &HeaderMap, path: &str, message: String) -> Response {
    let mut answer = if (method == Method::GET || method == Method::HEAD) && is_navigation(headers)
    {
        (
            StatusCode::NOT_FOUND,
            served("text/html; charset=utf-8"),
            not_found_page(path),
        )
            .into_response()
    } else {
        ApiError::new(StatusCode::NOT_FOUND, message).into_response()
    };
    answer.headers_mut().insert(
        header::VARY,
        HeaderValue::from_static("Accept, Sec-Fetch-Mode"),
    );
    answer
}

/// Whether a request is a browser's navigation, which shows its answer as a page:
/// `Sec-Fetch-Mode: navigate`, or (from a browser that does not send it) an `Accept` that
/// prefers `text/html` to `application/json`. `fetch` sends `*/*` and `curl` too: JSON for them.
fn is_navigation(headers: &HeaderMap) -> bool {
    let header_text = |name| headers.get(name).and_then(|v| v.to_str().ok());
    if header_text("sec-fetch-mode").is_some_and(|m| m.trim().eq_ignore_ascii_case("navigate")) {
        return true;
    }
    let accept = header_text("accept").unwrap_or("");
    let html = quality(accept, "text/html");
    html > 0.0 && html > quality(accept, "application/json")
}

/// The quality (`q`, 0 to 1) that an `Accept` header gives a media type: that of the most
/// specific range that matches it (`text/html`, then `text/*`, then `*/*`); 0 when none does.
fn quality(accept: &str, media_type: &str) -> f32 {
    let kind = media_type.split('/').next().unwrap_or(media_type);
    let mut best: Option<(u8, f32)> = None;
    for range in accept.split(',') {
        let mut parts = range.split(';');
        let name = parts.next().unwrap_or("").trim();
        let specificity = if name.eq_ignore_ascii_case(media_type) {
            2
        } else if name
            .strip_suffix("/*")
            .is_some_and(|k| k.eq_ignore_ascii_case(kind))
        {
            1
        } else if name == "*/*" {
            0
        } else {
            continue;
        };
        let q = parts
            .filter_map(|p| p.split_once('='))
            .find(|(key, _)| key.trim().eq_ignore_ascii_case("q"))
            .and_then(|(_, value)| value.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        if best.is_none_or(|(s, _)| specificity > s) {
            best = Some((specificity, q));
        }
    }
    best.map_or(0.0, |(_, q)| q)
}

/// The page a browser shows for an address that is not one of tabla's: what it asked for and
/// the way back to the app.
fn not_found_page(path: &str) -> String {
    let shown = html_escape(path);
    let what = if path.starts_with("/api/") {
        "is not a page of tabla, nor a route of its API (the API answers tabla's pages and \
         programs with JSON)"
    } else {
        "is not a page of tabla"
    };
    format!(
        r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Not found · tabla</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/style.css">
</head>
<body>
<main id="main" style="max-width: 40rem; margin: 2rem auto; padding: 0 1rem">
<h1>Not found</h1>
<p>The address <code>{shown}</code> {what}.</p>
<p><a href="/">Go to tabla</a> (the PGN browser), or to its
<a href="/endgame">endgame explorer</a>, <a href="/analysis">analysis</a> or
<a href="/games">games</a>.</p>
</main>
</body>
</html>
"#
    )
}

/// `text` with the characters that mean something in HTML written as references.
fn html_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}
