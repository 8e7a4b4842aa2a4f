//! Progress reports from the worker threads.

/// Told by worker threads how far the conversion has come, for a progress bar.
///
/// `input_bytes` counts bytes of the input files as stored (compressed bytes for zstd input);
/// over a whole run they add up to the sum of [`crate::input_len`].
pub trait ProgressSink: Sync {
    /// `input_bytes` more input bytes were consumed and `games` more games finished.
    fn advance(&self, input_bytes: u64, games: u64);

    /// A new phase of the work began (after the conversion: what a caller such as `tabla db
    /// import` does with the files written), named for a person watching, e.g. `"aggregating"`.
    fn phase(&self, _name: &str) {}
}

/// A [`ProgressSink`] that ignores every report.
#[derive(Copy, Clone, Debug, Default)]
pub struct NoProgress;

impl ProgressSink for NoProgress {
    fn advance(&self, _input_bytes: u64, _games: u64) {}
}
