//! An address that is neither a page, a file nor a route: a browser that navigates there gets a
//! 404 page leading back to the app; the app's own requests and programs get `{"error"}`.

mod common;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use common::{Answer, app, send};
use tower::ServiceExt;

/// What Chromium sends when the user types an address or follows a link.
const CHROMIUM: [(&str, &str); 4] = [
    (
        "accept",
        "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,\
         image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7",
    ),
    ("sec-fetch-mode", "navigate"),
    ("sec-fetch-site", "none"),
    ("sec-fetch-dest", "document"),
];

/// A browser that sends no `Sec-Fetch-*` headers: its `Accept` alone says it wants a page.
const OLD_BROWSER: [(&str, &str); 1] = [(
    "accept",
    "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
)];

/// What the app's `fetch` sends, and programs.
const NOT_NAVIGATIONS: [&[(&str, &str)]; 5] = [
    &[],
    &[("accept", "*/*")],
    &[("accept", "application/json")],
    &[("accept", "application/json, text/html;q=0.5")],
    &[
        ("accept", "*/*"),
        ("sec-fetch-mode", "cors"),
        ("sec-fetch-site", "same-origin"),
    ],
];

/// Addresses no route or file answers.
const WRONG: [&str; 7] = [
    "/nope",
    "/games/42",
    "/pgn/extra",
    "/nope.js",
    "/api",
    "/api/nothing",
    "/api/db/nothing/here",
];

fn request(method: Method, uri: &str, headers: &[(&str, &str)]) -> Request<Body> {
    let mut req = Request::builder().method(method).uri(uri);
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    req.body(Body::empty()).expect("request")
}

async fn get(uri: &str, headers: &[(&str, &str)]) -> Answer {
    send(app(), request(Method::GET, uri, headers)).await
}

fn text(answer: &Answer) -> String {
    String::from_utf8_lossy(&answer.body).into_owned()
}

#[tokio::test]
async fn a_browser_navigating_to_a_wrong_address_gets_a_page_back_to_the_app() {
    for headers in [&CHROMIUM[..], &OLD_BROWSER[..]] {
        for uri in WRONG {
            let a = get(uri, headers).await;
            assert_eq!(a.status, StatusCode::NOT_FOUND, "{uri} {headers:?}");
            assert_eq!(a.content_type, "text/html; charset=utf-8", "{uri}");
            let page = text(&a);
            assert!(page.starts_with("<!doctype html>"), "{page}");
            assert!(
                page.contains(&format!(
                    "The address <code>{uri}</code> is not a page of tabla"
                )),
                "{page}"
            );
            assert!(page.contains(r#"<a href="/">"#), "{page}");
            assert_eq!(
                page.contains("nor a route of its API"),
                uri.starts_with("/api/"),
                "{page}"
            );
        }
    }
}

#[tokio::test]
async fn the_page_is_served_as_the_app_is_and_varies_with_the_request() {
    let res = app()
        .oneshot(request(Method::GET, "/nope", &CHROMIUM))
        .await
        .expect("the router never fails");
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    let h = res.headers();
    assert_eq!(h[header::VARY], "Accept, Sec-Fetch-Mode");
    assert_eq!(h[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
    assert!(
        h[header::CONTENT_SECURITY_POLICY]
            .to_str()
            .expect("CSP")
            .starts_with("default-src 'self'")
    );
    // The JSON answer varies with the same headers, so no cache serves one for the other.
    let res = app()
        .oneshot(request(Method::GET, "/nope", &[]))
        .await
        .expect("the router never fails");
    assert_eq!(res.headers()[header::VARY], "Accept, Sec-Fetch-Mode");
}

#[tokio::test]
async fn the_address_is_shown_as_text() {
    let a = get("/it's%3Cb%3E", &CHROMIUM).await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
    let page = text(&a);
    assert!(page.contains("<code>/it&#39;s%3Cb%3E</code>"), "{page}");
}

#[tokio::test]
async fn programs_and_the_apps_own_requests_get_json() {
    for headers in NOT_NAVIGATIONS {
        for uri in WRONG {
            let a = get(uri, headers).await;
            assert_eq!(a.status, StatusCode::NOT_FOUND, "{uri} {headers:?}");
            assert!(a.error().contains(uri), "{uri}: {}", a.error());
        }
    }
    // A form posted to a wrong API address is not shown a page either: it sent something.
    let a = send(app(), request(Method::POST, "/api/nothing", &CHROMIUM)).await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
    assert!(a.error().contains("/api/nothing"));
}

#[tokio::test]
async fn pages_files_and_routes_answer_a_navigation_as_before() {
    for uri in ["/", "/games", "/analysis/", "/index.html"] {
        let a = get(uri, &CHROMIUM).await;
        assert_eq!(a.status, StatusCode::OK, "{uri}");
        assert!(text(&a).contains("<title>tabla"), "{uri}");
    }
    let a = get("/api/sample", &CHROMIUM).await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(a.body, tabla_web::SAMPLE_PGN.as_bytes());
    // A route's own errors stay the API's answers.
    let a = get("/api/position?fen=nonsense", &CHROMIUM).await;
    assert!(
        a.content_type.starts_with("application/json"),
        "{}",
        a.content_type
    );
}
