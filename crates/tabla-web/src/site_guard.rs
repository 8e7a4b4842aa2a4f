//! Who may talk to the server: the `Host` a request names and the site it comes from.
//!
//! `tabla serve` listens on the loopback address, but any page open in the user's browser can
//! send requests to it. Two rules keep other sites out:
//!
//! - **`Host`**: a request must name the server by an address it listens on — `localhost`, an IP
//!   address (`127.0.0.1`, `[::1]`, or any other literal), or the name given to `--host` — with
//!   the port it listens on. A DNS-rebinding page reaches the server under its own domain name,
//!   which is none of these. A request without `Host` (not a browser's) passes.
//! - **The requesting site**: a request to `/api/` that a browser marks as coming from another
//!   site (`Sec-Fetch-Site: cross-site` or `same-site`) is refused, and so is one whose `Origin`
//!   is not the server itself (`Origin: null` included). The app's own pages send
//!   `Sec-Fetch-Site: same-origin`; scripts and `curl` send neither header and pass.
//!
//! Both answer 403 with `{"error"}` saying which rule refused the request.

use crate::api_error::ApiError;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::IpAddr;
use std::sync::Arc;

/// The names a request's `Host` may give the server, and its port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostRule {
    /// The port the server listens on; `None` before it is known (any port passes).
    pub port: Option<u16>,
    /// Host names besides `localhost` and IP literals (the `--host` name, lower case).
    pub names: Vec<String>,
}

impl Default for HostRule {
    /// `localhost` and IP literals on any port.
    fn default() -> Self {
        HostRule {
            port: None,
            names: Vec::new(),
        }
    }
}

impl HostRule {
    /// The rule for a server listening on `host:port` (`host` as given to `--host`).
    pub fn listening(host: &str, port: u16) -> HostRule {
        let name = host.trim_start_matches('[').trim_end_matches(']');
        let names = if name.parse::<IpAddr>().is_ok() || name.eq_ignore_ascii_case("localhost") {
            Vec::new()
        } else {
            vec![name.to_ascii_lowercase()]
        };
        HostRule {
            port: Some(port),
            names,
        }
    }

    /// Whether `value` (a `Host` header, or an origin's authority) names this server.
    ///
    /// ```
    /// use tabla_web::HostRule;
    /// let rule = HostRule::listening("127.0.0.1", 8080);
    /// assert!(rule.allows("127.0.0.1:8080"));
    /// assert!(rule.allows("localhost:8080"));
    /// assert!(rule.allows("[::1]:8080"));
    /// assert!(!rule.allows("localhost:9000"));
    /// assert!(!rule.allows("attacker.example:8080"));
    /// ```
    pub fn allows(&self, value: &str) -> bool {
        let (name, port) = split_authority(value);
        let port_ok = match (self.port, port) {
            (None, _) => true,
            (Some(want), Some(got)) => want == got,
            (Some(want), None) => want == 80,
        };
        let name = name.to_ascii_lowercase();
        let name_ok =
            name == "localhost" || name.parse::<IpAddr>().is_ok() || self.names.contains(&name);
        port_ok && name_ok
    }
}

/// `host[:port]` or `[v6][:port]` split into the name (without brackets) and the port (`None`
/// when absent or not a number: then it matches only port 80).
fn split_authority(value: &str) -> (&str, Option<u16>) {
    let value = value.trim();
    if let Some(rest) = value.strip_prefix('[') {
        return match rest.split_once(']') {
            Some((name, tail)) => (name, tail.strip_prefix(':').and_then(|p| p.parse().ok())),
            None => (rest, None),
        };
    }
    match value.rsplit_once(':') {
        Some((name, port)) => (name, port.parse().ok()),
        None => (value, None),
    }
}

/// Why a request was refused, or `None` when it passes.
fn refusal(rule: &HostRule, path: &str, headers: &HeaderMap) -> Option<String> {
    if let Some(host) = headers.get(header::HOST) {
        let host = host.to_str().unwrap_or("");
        if !rule.allows(host) {
            return Some(format!(
                "Host {host:?} is not this server's address: tabla serve answers only requests \
                 that name it as localhost or by an IP address, on the port it listens on \
                 (tabla serve --host NAME adds NAME)"
            ));
        }
    }
    if !path.starts_with("/api/") && path != "/api" {
        return None;
    }
    if let Some(site) = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok())
        && (site.eq_ignore_ascii_case("cross-site") || site.eq_ignore_ascii_case("same-site"))
    {
        return Some(format!(
            "a request from another site (Sec-Fetch-Site: {site}): tabla serve's API \
             answers only its own pages and programs that are not browsers"
        ));
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        let own = origin
            .strip_prefix("http://")
            .is_some_and(|authority| rule.allows(authority));
        if !own {
            return Some(format!(
                "a request from another site (Origin: {origin}): tabla serve's API answers \
                 only its own pages and programs that are not browsers"
            ));
        }
    }
    None
}

/// The middleware: 403 for a request [`refusal`] refuses, else the route's answer.
pub async fn guard(State(hosts): State<Arc<HostRule>>, request: Request, next: Next) -> Response {
    match refusal(&hosts, request.uri().path(), request.headers()) {
        Some(message) => ApiError::new(StatusCode::FORBIDDEN, message).into_response(),
        None => next.run(request).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, HeaderValue::from_str(value).expect("header"));
        }
        map
    }

    #[test]
    fn host_names_and_ports() {
        let rule = HostRule::listening("127.0.0.1", 8080);
        assert!(rule.allows("127.0.0.1:8080"));
        assert!(rule.allows("LOCALHOST:8080"));
        assert!(rule.allows("[::1]:8080"));
        assert!(!rule.allows("127.0.0.1:8081"));
        assert!(!rule.allows("127.0.0.1"));
        assert!(!rule.allows("rebind.example:8080"));
        assert!(!rule.allows("localhost.example:8080"));
        let named = HostRule::listening("chessbox.lan", 80);
        assert!(named.allows("chessbox.lan"));
        assert!(named.allows("ChessBox.LAN:80"));
        assert!(!named.allows("other.lan"));
        assert!(HostRule::default().allows("localhost:1234"));
    }

    #[test]
    fn foreign_sites_are_refused_only_on_the_api() {
        let rule = HostRule::listening("127.0.0.1", 8080);
        let own = [("host", "127.0.0.1:8080")];
        assert_eq!(refusal(&rule, "/api/db/review", &headers(&own)), None);
        let same = [
            ("host", "localhost:8080"),
            ("origin", "http://localhost:8080"),
            ("sec-fetch-site", "same-origin"),
        ];
        assert_eq!(refusal(&rule, "/api/review", &headers(&same)), None);
        for bad in [
            vec![
                ("host", "127.0.0.1:8080"),
                ("origin", "https://evil.example"),
            ],
            vec![("host", "127.0.0.1:8080"), ("origin", "null")],
            vec![
                ("host", "127.0.0.1:8080"),
                ("origin", "http://127.0.0.1:9999"),
            ],
            vec![("host", "127.0.0.1:8080"), ("sec-fetch-site", "cross-site")],
            vec![("host", "127.0.0.1:8080"), ("sec-fetch-site", "same-site")],
            vec![("host", "evil.example:8080")],
        ] {
            let why = refusal(&rule, "/api/db/review", &headers(&bad));
            assert!(why.is_some(), "{bad:?} passed");
        }
        // A page may link to the app: only its API is closed to other sites.
        let linked = [("host", "127.0.0.1:8080"), ("sec-fetch-site", "cross-site")];
        assert_eq!(refusal(&rule, "/", &headers(&linked)), None);
        // A rebinding page cannot even load the app under its own name.
        let rebound = [("host", "evil.example:8080")];
        assert!(refusal(&rule, "/", &headers(&rebound)).is_some());
    }
}
