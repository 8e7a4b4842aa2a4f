//! The answers hyper writes by itself, as JSON like every other answer of the API.
//!
//! A request that cannot be read as HTTP never reaches the application: hyper answers it
//! itself, with an empty body, and closes the connection — 400 for a malformed request line or
//! header (a `Content-Length` that is not a number, two that differ), 414 for a URI longer than
//! [`MAX_URI`] bytes, 431 for more than [`MAX_HEADERS`] headers or a head that overflows its
//! buffer of [`MAX_HEAD`] bytes (hyper reads in pieces, so a head a little longer may pass). [`JsonParseErrors`] sits between hyper and the socket and writes
//! those answers with a `{"error"}` body saying what the limit is.
//!
//! It recognises them exactly: a write that is one whole response head, nothing after it, of
//! status 400, 414 or 431 with `content-length: 0`, which the application never sends (its
//! errors all have a body). Anything else passes through untouched.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The longest URI hyper reads (its fixed limit).
pub const MAX_URI: usize = 65_534;
/// The buffer for a request's head (hyper's default size, set by `serve_connections`).
pub const MAX_HEAD: usize = 8_192 + 4_096 * 100;
/// The most headers a request may have (hyper's default, set by `serve_connections`).
pub const MAX_HEADERS: usize = 100;

/// A connection's stream whose hyper-written error answers get a JSON body.
#[derive(Debug)]
pub(crate) struct JsonParseErrors<S> {
    inner: S,
    /// A replacement answer not yet written to `inner`, from `written` on.
    pending: Vec<u8>,
    written: usize,
}

impl<S> JsonParseErrors<S> {
    /// Wraps a connection's stream.
    pub(crate) fn new(inner: S) -> JsonParseErrors<S> {
        JsonParseErrors {
            inner,
            pending: Vec::new(),
            written: 0,
        }
    }
}

impl<S: AsyncWrite + Unpin> JsonParseErrors<S> {
    /// Writes what is left of a replacement answer.
    fn poll_pending(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.written < self.pending.len() {
            let n =
                ready!(Pin::new(&mut self.inner).poll_write(cx, &self.pending[self.written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.written += n;
        }
        self.pending.clear();
        self.written = 0;
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for JsonParseErrors<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for JsonParseErrors<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        ready!(this.poll_pending(cx))?;
        if let Some(answer) = with_json_body(buf) {
            this.pending = answer;
            // Written now as far as the socket takes it, the rest by the flush that follows.
            if let Poll::Ready(Err(e)) = this.poll_pending(cx) {
                return Poll::Ready(Err(e));
            }
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut this.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        // An error answer is a head alone: one slice.
        if let [only] = bufs {
            return self.poll_write(cx, only);
        }
        let this = &mut *self;
        ready!(this.poll_pending(cx))?;
        Pin::new(&mut this.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        ready!(this.poll_pending(cx))?;
        Pin::new(&mut this.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        ready!(this.poll_pending(cx))?;
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }
}

/// The answer `head` with a JSON body, when `head` is one of hyper's own error answers: a whole
/// response head alone, status 400, 414 or 431, `content-length: 0`.
fn with_json_body(head: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(head).ok()?;
    let lines = text.strip_suffix("\r\n\r\n")?;
    if lines.contains("\r\n\r\n") {
        return None;
    }
    let mut lines = lines.split("\r\n");
    let status_line = lines.next()?;
    let code = status_line
        .strip_prefix("HTTP/1.1 ")
        .or_else(|| status_line.strip_prefix("HTTP/1.0 "))?
        .get(..3)?;
    let error = match code {
        "400" => "the request is not valid HTTP: its request line or a header could not be read \
                  (a Content-Length that is not a number, or two that differ, say)"
            .to_owned(),
        "414" => format!("the request's URI is too long: at most {MAX_URI} bytes"),
        "431" => format!(
            "the request's headers are too large: at most {MAX_HEADERS} headers and about \
             {} KiB",
            MAX_HEAD / 1024
        ),
        _ => return None,
    };
    let headers: Vec<&str> = lines.collect();
    if !headers
        .iter()
        .any(|h| h.eq_ignore_ascii_case("content-length: 0"))
    {
        return None;
    }
    let body = serde_json::json!({ "error": error }).to_string();
    let mut answer = format!("{status_line}\r\n");
    for header in headers {
        let name = header.split(':').next().unwrap_or("").trim();
        if !name.eq_ignore_ascii_case("content-length") && !name.eq_ignore_ascii_case("connection")
        {
            answer.push_str(header);
            answer.push_str("\r\n");
        }
    }
    answer.push_str(&format!(
        "content-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    ));
    Some(answer.into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_bodiless_error_head_alone_is_replaced() {
        let head = "HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\n\
                    date: Thu, 03 Dec 2026 13:00:00 GMT\r\n\r\n";
        let answer =
            String::from_utf8(with_json_body(head.as_bytes()).expect("replaced")).expect("utf-8");
        let (top, body) = answer.split_once("\r\n\r\n").expect("a head and a body");
        assert!(top.contains("date: Thu, 03 Dec 2026"), "{top}");
        assert!(
            top.contains(&format!("content-length: {}", body.len())),
            "{top}"
        );
        let json: serde_json::Value = serde_json::from_str(body).expect("JSON");
        assert!(
            json["error"]
                .as_str()
                .is_some_and(|e| e.contains("100 headers"))
        );
        for kept in [
            // The application's own 400, with a body.
            "HTTP/1.1 400 Bad Request\r\ncontent-length: 12\r\n\r\n",
            // A head followed by a body in the same write.
            "HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\nHTTP/1.1 200 OK\r\n\r\n",
            // Not an error hyper writes.
            "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n",
            // A body's bytes.
            "{\"games\": []}",
        ] {
            assert!(with_json_body(kept.as_bytes()).is_none(), "{kept:?}");
        }
    }
}
