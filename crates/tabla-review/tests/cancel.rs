//! A review whose pool is cancelled from another thread (a server's client gone): it ends at
//! once, the game gets an error, and no stopped search is kept in the cache as if it were whole.

use std::time::{Duration, Instant};
use tabla_analysis::{Budget, EngineSpec, Pool};
use tabla_pgn::Reader;
use tabla_review::{CacheConfig, EvalCache, Reviewer, Rules};

#[test]
fn a_cancelled_review_ends_quickly_and_caches_no_stopped_search() {
    let pgn = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *";
    let games: Vec<_> = Reader::new(pgn.as_bytes())
        .games()
        .map(|g| g.expect("a game"))
        .collect();
    let mut pool = Pool::start(&EngineSpec::Tabla, 2).expect("tabla's engine");
    let canceller = pool.canceller();
    // Searches that would not end by themselves for hours.
    let budget = Budget::Depth(60);
    let root = tempfile::tempdir().expect("temporary directory");
    let config = CacheConfig::of_pool(&pool, &EngineSpec::Tabla, budget);
    let mut cache = EvalCache::open(root.path(), &config).expect("cache");
    let started = Instant::now();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        canceller.cancel();
    });
    let mut progress = 0;
    let reviews = Reviewer::new(&mut pool, budget, Rules::Lichess, &mut cache)
        .review(&games, &mut |_| progress += 1)
        .expect("the cache writes");
    stopper.join().expect("the stopping thread");
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "took {:?}",
        started.elapsed()
    );
    let error = reviews[0].error.as_deref().expect("an unfinished review");
    assert!(
        error.contains("stopped") || error.contains("cancelled"),
        "{error}"
    );
    assert!(cache.is_empty(), "{} stopped searches cached", cache.len());
    assert!(progress >= 1);
    // The cache on disk has nothing either, and the pool still works.
    assert!(
        EvalCache::open(root.path(), &config)
            .expect("reopen")
            .is_empty()
    );
    let mut quick = EvalCache::in_memory();
    let reviews = Reviewer::new(&mut pool, Budget::Depth(3), Rules::Lichess, &mut quick)
        .review(&games, &mut |_| {})
        .expect("in memory");
    assert_eq!(reviews[0].error, None);
}
