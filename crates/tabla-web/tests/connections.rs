//! The server's connections over real TCP (issue 56, 4): a client that stalls its headers, goes
//! idle on a kept-alive connection, or sends a body shorter than its `Content-Length` is cut off
//! at the time limit; a live analysis stream runs longer than the limits. Short limits (one
//! second) stand for `tabla serve`'s (HEADER_TIMEOUT, BODY_TIMEOUT).

mod common;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};
use tabla_web::{ConnectionTimeouts, MAX_HEAD, MAX_HEADERS, MAX_URI, serve_connections};

const LIMIT: Duration = Duration::from_secs(1);

/// Starts the application on a port of its own with one-second limits; its address.
fn start(runtime: &tokio::runtime::Runtime) -> SocketAddr {
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .expect("a port");
    let addr = listener.local_addr().expect("its address");
    let timeouts = ConnectionTimeouts {
        header: LIMIT,
        body: LIMIT,
    };
    runtime.spawn(async move {
        let app = common::app();
        serve_connections(listener, app, timeouts, std::future::pending()).await
    });
    addr
}

/// Reads until the server closes the connection (or 10 s pass): what it sent, and when it
/// closed, counted from `since`.
fn read_to_close(stream: &mut TcpStream, since: Instant) -> (String, Duration) {
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("a read timeout");
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
        }
    }
    (String::from_utf8_lossy(&got).into_owned(), since.elapsed())
}

#[test]
fn a_client_that_stalls_its_headers_is_closed_at_the_limit() {
    let runtime = common::runtime();
    let addr = start(&runtime);
    let mut stream = TcpStream::connect(addr).expect("connect");
    let started = Instant::now();
    stream
        .write_all(format!("GET /api/engine HTTP/1.1\r\nHost: {addr}\r\n").as_bytes())
        .expect("half the headers");
    let (_, closed) = read_to_close(&mut stream, started);
    assert!(closed >= LIMIT - Duration::from_millis(100), "{closed:?}");
    assert!(closed < 3 * LIMIT, "still open after {closed:?}");
}

#[test]
fn an_idle_kept_alive_connection_is_closed_at_the_limit() {
    let runtime = common::runtime();
    let addr = start(&runtime);
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream
        .write_all(format!("GET /api/engine HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes())
        .expect("a request");
    let started = Instant::now();
    let (answer, closed) = read_to_close(&mut stream, started);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // Kept alive after its answer, then closed for want of a next request.
    assert!(closed >= LIMIT - Duration::from_millis(200), "{closed:?}");
    assert!(closed < 3 * LIMIT, "still open after {closed:?}");
}

#[test]
fn a_body_shorter_than_its_length_gets_408_at_the_limit() {
    let runtime = common::runtime();
    let addr = start(&runtime);
    let mut stream = TcpStream::connect(addr).expect("connect");
    let head = format!(
        "POST /api/pgn/index HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/x-chess-pgn\r\nContent-Length: 1000\r\n\r\n1. e4 e5"
    );
    stream.write_all(head.as_bytes()).expect("a short body");
    let started = Instant::now();
    let (answer, closed) = read_to_close(&mut stream, started);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("application/json"), "{answer}");
    assert!(answer.contains("stopped arriving"), "{answer}");
    assert!(closed < 3 * LIMIT + Duration::from_secs(1), "{closed:?}");
}

#[test]
fn a_live_analysis_streams_longer_than_the_limits() {
    let runtime = common::runtime();
    let addr = start(&runtime);
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream
        .write_all(
            format!("GET /api/analyse?fen=startpos HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes(),
        )
        .expect("a request");
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .expect("a read timeout");
    let started = Instant::now();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    // Three limits long, the stream still sends.
    while started.elapsed() < 3 * LIMIT {
        match stream.read(&mut buf) {
            Ok(0) => panic!(
                "closed after {:?}: {}",
                started.elapsed(),
                String::from_utf8_lossy(&got)
            ),
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) => panic!("{e} after {:?}", started.elapsed()),
        }
    }
    let text = String::from_utf8_lossy(&got);
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    assert!(text.contains("text/event-stream"), "{text}");
}

/// A request hyper cannot read gets its status with a JSON `{"error"}` that says the limit, and
/// the connection closes; the next connection is served as ever.
#[test]
fn a_request_that_cannot_be_read_gets_json_with_its_status() {
    let runtime = common::runtime();
    let addr = start(&runtime);
    let host = format!("Host: {addr}\r\n");
    let many: String = (0..=MAX_HEADERS)
        .map(|i| format!("X-H{i}: 1\r\n"))
        .collect();
    let cases = [
        (
            format!("GET /{} HTTP/1.1\r\n{host}\r\n", "a".repeat(MAX_URI)),
            414,
            format!("{MAX_URI} bytes"),
        ),
        (
            format!(
                "GET / HTTP/1.1\r\n{host}X-Big: {}\r\n\r\n",
                "b".repeat(2 * MAX_HEAD)
            ),
            431,
            format!("about {} KiB", MAX_HEAD / 1024),
        ),
        (
            format!("GET / HTTP/1.1\r\n{host}{many}\r\n"),
            431,
            format!("{MAX_HEADERS} headers"),
        ),
        (
            format!("POST /api/pgn/index HTTP/1.1\r\n{host}Content-Length: ten\r\n\r\n"),
            400,
            "Content-Length".to_owned(),
        ),
        (
            format!(
                "POST /api/pgn/index HTTP/1.1\r\n{host}Content-Length: 3\r\n\
                 Content-Length: 4\r\n\r\nabcd"
            ),
            400,
            "Content-Length".to_owned(),
        ),
    ];
    for (request, status, says) in cases {
        let mut stream = TcpStream::connect(addr).expect("connect");
        // The server may answer and close before it has read a long request to its end.
        let _ = stream.write_all(request.as_bytes());
        let (answer, _) = read_to_close(&mut stream, Instant::now());
        let what = &request[..40];
        let (head, body) = answer
            .split_once("\r\n\r\n")
            .unwrap_or_else(|| panic!("{what}: {answer:?}"));
        assert!(
            head.starts_with(&format!("HTTP/1.1 {status} ")),
            "{what}: {head}"
        );
        assert!(
            head.contains("content-type: application/json"),
            "{what}: {head}"
        );
        let json: serde_json::Value =
            serde_json::from_str(body).unwrap_or_else(|e| panic!("{what}: {e}: {body:?}"));
        let error = json["error"].as_str().unwrap_or_default();
        assert!(error.contains(&says), "{what}: {error}");
    }
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream
        .write_all(
            format!("GET /api/engine HTTP/1.1\r\n{host}Connection: close\r\n\r\n").as_bytes(),
        )
        .expect("a request");
    let (answer, _) = read_to_close(&mut stream, Instant::now());
    assert!(answer.starts_with("HTTP/1.1 200 "), "{answer}");
}
