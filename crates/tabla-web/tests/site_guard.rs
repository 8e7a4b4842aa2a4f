//! Requests from other sites and under other host names are refused (403) before any route
//! runs; the server's own pages and programs that are not browsers are answered.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use common::{send, tables};
use std::sync::Arc;
use tabla_web::{AppState, HostRule, router};

/// The application as `tabla serve --port 8080` runs it.
fn app_on_8080() -> axum::Router {
    let mut state = AppState::new(tables());
    state.hosts = Arc::new(HostRule::listening("127.0.0.1", 8080));
    router(state)
}

const SCHOLAR: &str = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";

fn review_request(headers: &[(&str, &str)]) -> Request<Body> {
    let mut req = Request::post("/api/pgn").header(header::CONTENT_TYPE, "text/plain");
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    req.body(Body::from(SCHOLAR)).expect("request")
}

#[tokio::test]
async fn a_simple_cross_site_post_is_refused() {
    // What a form or `fetch(..., {mode: "no-cors"})` on another site sends.
    for headers in [
        vec![
            ("host", "127.0.0.1:8080"),
            ("origin", "https://evil.example"),
            ("sec-fetch-site", "cross-site"),
        ],
        vec![("host", "127.0.0.1:8080"), ("origin", "null")],
        vec![("host", "localhost:8080"), ("sec-fetch-site", "same-site")],
        vec![
            ("host", "127.0.0.1:8080"),
            ("origin", "http://localhost:3000"),
        ],
    ] {
        let answer = send(app_on_8080(), review_request(&headers)).await;
        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{headers:?}");
        assert!(
            answer.error().contains("another site"),
            "{}",
            answer.error()
        );
    }
}

#[tokio::test]
async fn a_rebound_host_name_is_refused_everywhere() {
    for uri in ["/", "/api/sample", "/api/position?fen=startpos"] {
        let req = Request::get(uri)
            .header("host", "attacker.example:8080")
            .body(Body::empty())
            .expect("request");
        let answer = send(app_on_8080(), req).await;
        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{uri}");
        assert!(
            answer.error().contains("attacker.example"),
            "{}",
            answer.error()
        );
    }
    // The right name on another port is another server.
    let req = Request::get("/api/sample")
        .header("host", "127.0.0.1:9090")
        .body(Body::empty())
        .expect("request");
    assert_eq!(send(app_on_8080(), req).await.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn the_apps_own_pages_and_scripts_are_answered() {
    // The app's own fetch: same origin, by either loopback name.
    for host in ["127.0.0.1:8080", "localhost:8080", "[::1]:8080"] {
        let origin = format!("http://{host}");
        let headers = [
            ("host", host),
            ("origin", origin.as_str()),
            ("sec-fetch-site", "same-origin"),
        ];
        let answer = send(app_on_8080(), review_request(&headers)).await;
        assert_eq!(answer.status, StatusCode::OK, "{host}");
        assert_eq!(answer.json()["games"][0]["result"], "1-0");
    }
    // curl or a script: no Origin, no Sec-Fetch-Site.
    let answer = send(app_on_8080(), review_request(&[("host", "127.0.0.1:8080")])).await;
    assert_eq!(answer.status, StatusCode::OK);
    // A link from another site to the app's page opens it (only the API is closed).
    let req = Request::get("/")
        .header("host", "127.0.0.1:8080")
        .header("sec-fetch-site", "cross-site")
        .body(Body::empty())
        .expect("request");
    assert_eq!(send(app_on_8080(), req).await.status, StatusCode::OK);
}
