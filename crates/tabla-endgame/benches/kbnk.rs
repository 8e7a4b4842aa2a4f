//! KBNK: generation, the file, the counts `tabla kbnk build` prints, and probing.
//!
//! Run with `cargo bench -p tabla-endgame --bench kbnk`. The probe benchmarks go through 4,096
//! legal positions spread over the whole table (both sides to move) and report the time per
//! position.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use tabla::{Board, CastlingRights, Color, Piece, Position, Role, Setup, Square, Validation};
use tabla_endgame::{Material, Stats, Table, generate};

/// Legal KBNK positions from a fixed pseudo-random walk over placements.
fn positions(count: usize) -> Vec<Position> {
    let mut out = Vec::with_capacity(count);
    let mut state = 0x2545_f491_4f6c_dd1du64;
    while out.len() < count {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let sq = |shift: u32| Square::new_masked((state >> shift) as u8 & 63);
        let (k, b, n, bk) = (sq(0), sq(8), sq(16), sq(24));
        let mut board = Board::empty();
        board.set(k, Some(Piece::new(Color::White, Role::King)));
        board.set(b, Some(Piece::new(Color::White, Role::Bishop)));
        board.set(n, Some(Piece::new(Color::White, Role::Knight)));
        board.set(bk, Some(Piece::new(Color::Black, Role::King)));
        let turn = if state >> 40 & 1 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let setup = Setup {
            board,
            turn,
            castling: CastlingRights::NONE,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
        };
        if let Ok(pos) = Position::from_setup(setup, Validation::Strict)
            && pos.board().pieces().count() == 4
        {
            out.push(pos);
        }
    }
    out
}

fn kbnk(c: &mut Criterion) {
    let table = generate(Material::KBNK, &mut |_| {});
    let bytes = table.to_bytes();
    println!("KBNK file: {} bytes", bytes.len());

    let mut group = c.benchmark_group("kbnk");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8));
    group.bench_function("generate", |b| {
        b.iter(|| generate(black_box(Material::KBNK), &mut |_| {}))
    });
    group.bench_function("read_file", |b| {
        b.iter(|| Table::from_bytes(black_box(&bytes)).expect("valid file"))
    });
    group.bench_function("write_file", |b| b.iter(|| black_box(&table).to_bytes()));
    group.bench_function("stats", |b| b.iter(|| Stats::of(black_box(&table))));
    group.finish();

    let set = positions(4096);
    let mut group = c.benchmark_group("kbnk_probe");
    group.throughput(Throughput::Elements(set.len() as u64));
    group.bench_function("dtm", |b| {
        b.iter(|| {
            for pos in &set {
                black_box(table.dtm(black_box(pos)).expect("KBNK"));
            }
        })
    });
    group.bench_function("probe_with_moves", |b| {
        b.iter(|| {
            for pos in &set {
                black_box(table.probe(black_box(pos)).expect("KBNK"));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, kbnk);
criterion_main!(benches);
