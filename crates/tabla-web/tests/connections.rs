//! The server's connections over real TCP (issue 56, 4): a client that stalls its headers, goes
//! idle on a kept-alive connection, or sends a body shorter than its `Content-Length` is cut off
//! at the time limit; a live analysis stream runs longer than the limits. Short limits (one
//! second) stand for `tabla serve`'s (HEADER_TIMEOUT, BODY_TIMEOUT).

mod common;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};
use tabla_web::{ConnectionTimeouts, serve_connections};

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

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime")
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
    let runtime = runtime();
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
    let runtime = runtime();
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
    let runtime = runtime();
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
    let runtime = runtime();
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
