//! Work shared among threads: items handed out in turn to whichever thread is free, results
//! given back in the items' order (so that a run on several threads decides exactly what a run
//! on one does).

use std::sync::Mutex;

/// `f` applied to every item of `items` on up to `threads` threads; the results in the items'
/// order. With one thread (or none asked) everything runs on the caller's thread.
///
/// Items are taken one at a time under a lock, so an item should be worth more than a lock
/// (a chunk of configs, not one position).
pub(crate) fn map<I, R, F>(threads: usize, items: I, f: F) -> Vec<R>
where
    I: Iterator + Send,
    I::Item: Send,
    R: Send,
    F: Fn(I::Item) -> R + Sync,
{
    if threads <= 1 {
        return items.map(f).collect();
    }
    let queue = Mutex::new(items.enumerate());
    let mut parts: Vec<Vec<(usize, R)>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        // A panic elsewhere poisons the lock; the scope re-raises that panic.
                        let next = queue.lock().map_or(None, |mut q| q.next());
                        let Some((i, item)) = next else {
                            return out;
                        };
                        out.push((i, f(item)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let mut all: Vec<(usize, R)> = parts.iter_mut().flat_map(std::mem::take).collect();
    all.sort_unstable_by_key(|&(i, _)| i);
    all.into_iter().map(|(_, r)| r).collect()
}

/// The number of threads to use when none is asked for: the machine's.
pub(crate) fn available() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_the_items_order_on_any_number_of_threads() {
        let expected: Vec<u64> = (0..1000u64).map(|i| i * i).collect();
        for threads in [0, 1, 2, 3, 8] {
            assert_eq!(map(threads, 0..1000u64, |i| i * i), expected);
        }
    }

    #[test]
    fn disjoint_slices_are_written_in_parallel() {
        let mut v = vec![0u32; 10_000];
        map(4, v.chunks_mut(97).enumerate(), |(c, chunk)| {
            for (j, x) in chunk.iter_mut().enumerate() {
                *x = (c * 97 + j) as u32;
            }
        });
        assert!(v.iter().enumerate().all(|(i, &x)| x as usize == i));
    }
}
