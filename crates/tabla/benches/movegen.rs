//! Move generation alone and make/unmake alone, tabla against shakmaty in the same run, over the
//! 126 positions of `testdata/perft/perftsuite.epd`.
//!
//! Run with `cargo bench -p tabla --bench movegen`. Each benchmark first checks the number of
//! legal moves of every position against the suite's published depth-1 count.

#[allow(dead_code)]
mod common;

use common::{SuitePosition, movegen_set, shakmaty_position, tabla_position};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use shakmaty::Position as _;
use std::hint::black_box;
use std::time::Duration;

fn total_moves(set: &[SuitePosition]) -> u64 {
    set.iter().map(|p| p.moves).sum()
}

fn movegen(c: &mut Criterion) {
    let set = movegen_set();
    let tabla: Vec<tabla::Position> = set.iter().map(|p| tabla_position(&p.fen)).collect();
    let shakmaty: Vec<shakmaty::Chess> = set.iter().map(|p| shakmaty_position(&p.fen)).collect();
    for ((p, t), s) in set.iter().zip(&tabla).zip(&shakmaty) {
        assert_eq!(
            t.legal_moves().len() as u64,
            p.moves,
            "tabla legal moves of {}",
            p.fen
        );
        assert_eq!(
            s.legal_moves().len() as u64,
            p.moves,
            "shakmaty legal moves of {}",
            p.fen
        );
    }

    let mut group = c.benchmark_group("movegen");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    group.throughput(Throughput::Elements(total_moves(&set)));
    group.bench_function("tabla", |b| {
        b.iter(|| {
            let mut n = 0;
            for pos in &tabla {
                n += black_box(pos).legal_moves().len();
            }
            n
        })
    });
    group.bench_function("shakmaty", |b| {
        b.iter(|| {
            let mut n = 0;
            for pos in &shakmaty {
                n += black_box(pos).legal_moves().len();
            }
            n
        })
    });
    group.finish();
}

fn make_unmake(c: &mut Criterion) {
    let set = movegen_set();
    let mut tabla: Vec<(tabla::Position, Vec<tabla::Move>)> = set
        .iter()
        .map(|p| {
            let pos = tabla_position(&p.fen);
            let moves = pos.legal_moves().iter().copied().collect();
            (pos, moves)
        })
        .collect();
    let shakmaty: Vec<(shakmaty::Chess, Vec<shakmaty::Move>)> = set
        .iter()
        .map(|p| {
            let pos = shakmaty_position(&p.fen);
            let moves = pos.legal_moves().iter().copied().collect();
            (pos, moves)
        })
        .collect();
    // Every move is played, and taking it back must restore the exact position.
    for (p, (pos, moves)) in set.iter().zip(&mut tabla) {
        assert_eq!(
            moves.len() as u64,
            p.moves,
            "tabla legal moves of {}",
            p.fen
        );
        let (fen, key) = (pos.to_fen(), pos.zobrist());
        for &mv in moves.iter() {
            pos.play_unchecked(mv);
            pos.undo();
            assert_eq!(
                (pos.to_fen(), pos.zobrist()),
                (fen.clone(), key),
                "undo of {mv:?}"
            );
            let undo = pos.make(mv);
            pos.unmake(undo);
            assert_eq!(
                (pos.to_fen(), pos.zobrist()),
                (fen.clone(), key),
                "unmake of {mv:?}"
            );
        }
    }
    for (p, (_, moves)) in set.iter().zip(&shakmaty) {
        assert_eq!(
            moves.len() as u64,
            p.moves,
            "shakmaty legal moves of {}",
            p.fen
        );
    }

    let mut group = c.benchmark_group("make_unmake");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    group.throughput(Throughput::Elements(total_moves(&set)));
    // `play`/`undo` keep the game history (what a game or search uses); `make`/`unmake` hand the
    // undo record to the caller instead.
    group.bench_function("tabla-play-undo", |b| {
        b.iter(|| {
            for (pos, moves) in tabla.iter_mut() {
                for &mv in moves.iter() {
                    pos.play_unchecked(black_box(mv));
                    // Forces the made position into memory, as shakmaty's child below.
                    black_box(&*pos);
                    pos.undo();
                }
            }
        })
    });
    group.bench_function("tabla-make-unmake", |b| {
        b.iter(|| {
            for (pos, moves) in tabla.iter_mut() {
                for &mv in moves.iter() {
                    let undo = pos.make(black_box(mv));
                    black_box(&*pos);
                    pos.unmake(undo);
                }
            }
        })
    });
    // shakmaty has no unmake: making a move is playing it on a copy.
    group.bench_function("shakmaty", |b| {
        b.iter(|| {
            for (pos, moves) in &shakmaty {
                for &mv in moves {
                    let mut child = pos.clone();
                    child.play_unchecked(black_box(mv));
                    black_box(&child);
                }
            }
        })
    });
    group.finish();
}

criterion_group!(benches, movegen, make_unmake);
criterion_main!(benches);
