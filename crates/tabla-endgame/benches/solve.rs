//! The general solver: KQvKR from nothing (with the KQvK and KRvK tables it needs), and KBNvK
//! (with KBvK and KNvK), one thread.
//!
//! Run with `cargo bench -p tabla-endgame --bench solve`.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use tabla_endgame::{Men, Solved};

fn solve(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(30));
    for name in ["KQvKR", "KBNvK"] {
        let men: Men = name.parse().expect("men");
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut solved = Solved::new();
                solved.set_threads(1);
                solved.solve(black_box(men)).expect("solve");
                solved
            })
        });
    }
    group.finish();
}

criterion_group!(benches, solve);
criterion_main!(benches);
