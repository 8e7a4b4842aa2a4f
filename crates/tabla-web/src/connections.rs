//! The server's connections: hyper's HTTP/1 with a timer, so that no client holds a connection
//! for ever: the headers of a request (and the wait for the next one on a kept-alive connection)
//! must come within [`HEADER_TIMEOUT`], each piece of a body within [`BODY_TIMEOUT`]. An answer
//! is never cut: live analysis streams and NDJSON reviews run as long as they run. Ctrl-C stops
//! accepting, lets the requests under way finish (for at most [`SHUTDOWN_GRACE`]) and ends.
//! What hyper answers by itself (a request it cannot read) has a JSON body too
//! (`parse_errors.rs`).

use crate::parse_errors::{JsonParseErrors, MAX_HEAD, MAX_HEADERS};
use axum::Router;
use axum::body::Body;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use std::future::Future;
use std::time::Duration;
use tokio::net::TcpListener;
use tower::ServiceExt;
use tower_http::timeout::TimeoutBody;

/// How long a client may take to send a request's headers, counted from the connection's start
/// or the end of the answer before (an idle kept-alive connection is closed after it).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a request body may pause between two pieces: a body shorter than its
/// `Content-Length` ends its request with 408 after it.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(30);

/// How long Ctrl-C waits for the requests under way.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// The time limits of a connection: `tabla serve`'s are [`HEADER_TIMEOUT`] and
/// [`BODY_TIMEOUT`] (`Default`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectionTimeouts {
    /// For a request's headers, from the connection's start or the answer before.
    pub header: Duration,
    /// Between two pieces of a request's body.
    pub body: Duration,
}

impl Default for ConnectionTimeouts {
    fn default() -> ConnectionTimeouts {
        ConnectionTimeouts {
            header: HEADER_TIMEOUT,
            body: BODY_TIMEOUT,
        }
    }
}

/// Serves `app` on `listener` until `shutdown` completes, each connection under `timeouts`.
pub async fn serve_connections(
    listener: TcpListener,
    app: Router,
    timeouts: ConnectionTimeouts,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let graceful = GracefulShutdown::new();
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(timeouts.header)
        .max_buf_size(MAX_HEAD)
        .max_headers(MAX_HEADERS);
    tokio::pin!(shutdown);
    loop {
        let (stream, _) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                // Too many open files and the like: the next accept may work.
                Err(e) => {
                    eprintln!("tabla serve: accepting a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let app = app.clone();
        let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
            let request = request.map(|body| Body::new(TimeoutBody::new(timeouts.body, body)));
            app.clone().oneshot(request)
        });
        // No route upgrades its connection (live analysis is Server-Sent Events).
        let connection =
            builder.serve_connection(TokioIo::new(JsonParseErrors::new(stream)), service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            // A client that stalls or leaves ends its connection: nothing to report.
            let _ = connection.await;
        });
    }
    drop(listener);
    if tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown())
        .await
        .is_err()
    {
        eprintln!(
            "tabla serve: requests still under way after {} s are dropped",
            SHUTDOWN_GRACE.as_secs()
        );
    }
    Ok(())
}
