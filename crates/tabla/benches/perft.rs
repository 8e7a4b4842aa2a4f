//! perft for tabla and shakmaty in the same run, on the same positions and depths, with and
//! without bulk counting.
//!
//! Run with `cargo bench -p tabla --bench perft` (a filter such as `-- startpos` narrows it).
//! Each benchmark first checks its node count against the published figure, so a wrong move
//! generator cannot look fast.

#[allow(dead_code)]
mod common;

use common::{PERFT_CASES, PerftCase, shakmaty_perft_full, shakmaty_position, tabla_position};
use criterion::{
    BenchmarkGroup, Criterion, SamplingMode, Throughput, criterion_group, criterion_main,
    measurement::WallTime,
};
use std::hint::black_box;
use std::time::Duration;

/// Counting leaves by playing every move, or counting legal moves at depth 1.
#[derive(Clone, Copy)]
enum Counting {
    Full,
    Bulk,
}

fn tabla_perft(pos: &mut tabla::Position, depth: u32, counting: Counting) -> u64 {
    match counting {
        Counting::Full => pos.perft(depth),
        Counting::Bulk => pos.perft_bulk(depth),
    }
}

fn shakmaty_perft(pos: &shakmaty::Chess, depth: u32, counting: Counting) -> u64 {
    match counting {
        Counting::Full => shakmaty_perft_full(pos, depth),
        Counting::Bulk => shakmaty::perft(pos, depth),
    }
}

fn bench_case(group: &mut BenchmarkGroup<'_, WallTime>, case: &PerftCase, counting: Counting) {
    let id = format!("{}-d{}", case.name, case.depth);
    group.throughput(Throughput::Elements(case.nodes));

    // The check runs inside the routine, on its first call, so that benchmarks left out by a
    // filter cost nothing; criterion calls the routine again for every sample.
    let mut pos = tabla_position(case.fen);
    let mut checked = false;
    group.bench_function(format!("tabla/{id}"), |b| {
        if !checked {
            assert_eq!(
                tabla_perft(&mut pos, case.depth, counting),
                case.nodes,
                "tabla {id}"
            );
            checked = true;
        }
        b.iter(|| tabla_perft(black_box(&mut pos), black_box(case.depth), counting))
    });

    let pos = shakmaty_position(case.fen);
    let mut checked = false;
    group.bench_function(format!("shakmaty/{id}"), |b| {
        if !checked {
            assert_eq!(
                shakmaty_perft(&pos, case.depth, counting),
                case.nodes,
                "shakmaty {id}"
            );
            checked = true;
        }
        b.iter(|| shakmaty_perft(black_box(&pos), black_box(case.depth), counting))
    });
}

fn bench_perft(c: &mut Criterion, group_name: &str, counting: Counting) {
    let mut group = c.benchmark_group(group_name);
    // A single startpos d6 or Kiwipete d5 iteration takes seconds: flat sampling runs the same
    // small number of iterations per sample instead of criterion's growing 1, 2, ..., n.
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(5));
    for case in PERFT_CASES {
        bench_case(&mut group, case, counting);
    }
    group.finish();
}

fn perft_full(c: &mut Criterion) {
    bench_perft(c, "perft", Counting::Full);
}

fn perft_bulk(c: &mut Criterion) {
    bench_perft(c, "perft_bulk", Counting::Bulk);
}

criterion_group!(benches, perft_full, perft_bulk);
criterion_main!(benches);
