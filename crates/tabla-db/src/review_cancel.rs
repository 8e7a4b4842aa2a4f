//! Stopping a review run from another thread ([`Database::review_cancellable`]): a server
//! whose client left, a command line's Ctrl-C.
//!
//! [`Database::review_cancellable`]: crate::Database::review_cancellable

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use tabla_analysis::PoolCanceller;

/// A handle that cancels a review run; clones cancel the same run.
///
/// Cancelling stops the engines' running searches at once (none of them goes into the
/// evaluation cache) and ends the run with [`crate::DbError::Cancelled`]: the games of the
/// batches finished before are stored, the others are not (a later run reviews them, their
/// evaluations from the cache).
///
/// ```
/// let cancel = tabla_db::ReviewCancel::new();
/// let other = cancel.clone();
/// other.cancel();
/// assert!(cancel.is_cancelled());
/// ```
#[derive(Clone, Default)]
pub struct ReviewCancel {
    inner: Arc<Inner>,
}

#[derive(Default)]
struct Inner {
    cancelled: AtomicBool,
    /// The engines of the run, once it has started them.
    pool: Mutex<Option<PoolCanceller>>,
}

impl std::fmt::Debug for ReviewCancel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReviewCancel")
            .field("cancelled", &self.is_cancelled())
            .finish()
    }
}

impl ReviewCancel {
    /// A handle not cancelled yet.
    pub fn new() -> ReviewCancel {
        ReviewCancel::default()
    }

    /// Cancels the run: its searches stop now, and it ends at its next step.
    pub fn cancel(&self) {
        self.inner.cancelled.store(true, Ordering::SeqCst);
        self.stop_engines();
    }

    /// Whether [`ReviewCancel::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.inner.cancelled.load(Ordering::SeqCst)
    }

    /// Gives the handle the run's engines, so that cancelling stops their searches.
    pub(crate) fn attach(&self, pool: PoolCanceller) {
        *self
            .inner
            .pool
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(pool);
    }

    /// Stops the engines' searches and drops those queued, if the run has engines.
    pub(crate) fn stop_engines(&self) {
        let pool = self
            .inner
            .pool
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(pool) = pool.as_ref() {
            pool.cancel();
        }
    }
}
