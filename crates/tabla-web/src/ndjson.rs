//! Answers streamed as NDJSON (one JSON value a line), as the reviews send them: the lines a
//! blocking job sends, and a guard that cancels the job when the client goes.

use axum::body::Body;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::convert::Infallible;
use tabla_analysis::PoolCanceller;
use tokio::sync::mpsc::UnboundedReceiver;

/// A value as one line of NDJSON (an `{"error"}` line if it cannot be written).
pub(crate) fn line<T: Serialize>(value: &T) -> String {
    let mut text = serde_json::to_string(value)
        .unwrap_or_else(|e| serde_json::json!({ "error": e.to_string() }).to_string());
    text.push('\n');
    text
}

/// What a dropped answer cancels: a pool's searches, a database's review.
pub(crate) trait Cancel {
    /// Stops the work.
    fn cancel(&self);
}

impl Cancel for PoolCanceller {
    fn cancel(&self) {
        PoolCanceller::cancel(self);
    }
}

/// Cancels the work when the answer's stream is dropped: the client is gone (or the work
/// ended, when there is nothing left to cancel).
struct CancelOnDrop<C: Cancel>(C);

impl<C: Cancel> Drop for CancelOnDrop<C> {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// The answer that streams the lines `lines` receives, as they come, until its sender is
/// dropped; `cancel` is cancelled when the answer is dropped, finished or not.
pub(crate) fn stream<C>(lines: UnboundedReceiver<String>, cancel: C) -> Response
where
    C: Cancel + Send + 'static,
{
    let stream = futures_util::stream::unfold(
        (lines, CancelOnDrop(cancel)),
        |(mut lines, guard)| async move {
            let line: String = lines.recv().await?;
            Some((Ok::<_, Infallible>(line), (lines, guard)))
        },
    );
    (
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(stream),
    )
        .into_response()
}
