//! KBNvK (king, bishop and knight against a king) on the general path: the table generated in
//! memory, written as a table file (the derived coding: Black's side stored), read back (the
//! file opened and its first probe, which solves White's side from Black's), and probed from
//! memory and from the file.
//!
//! Run with `cargo bench -p tabla-endgame --bench kbnvk`. The probe benchmarks go through 4,096
//! legal positions spread over the whole table (both sides to move) and report the time per
//! position. The file's size is printed.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use tabla::{Board, CastlingRights, Color, Piece, Position, Role, Setup, Square, Validation};
use tabla_endgame::{Men, Solved, Tablebase, build, table_file_name};

/// Legal KBNvK positions from a fixed pseudo-random walk over placements.
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

fn kbnvk(c: &mut Criterion) {
    let men: Men = "KBNvK".parse().expect("men");
    let dir = tempfile::tempdir().expect("a temp dir");
    build(dir.path(), &[men], 1, &|_| {}).expect("built");
    let file = dir.path().join(table_file_name(men));
    let bytes = std::fs::metadata(&file).expect("the file").len();
    println!("KBNvK file: {bytes} bytes");
    let from_file = Tablebase::open(dir.path()).expect("opened");
    let mut solved = Solved::new();
    solved.solve(men).expect("solved");
    let in_memory = Tablebase::empty(dir.path()).with_solved(&solved);

    let mut group = c.benchmark_group("kbnvk");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8));
    group.bench_function("generate, one thread", |b| {
        b.iter(|| {
            let mut solved = Solved::new();
            solved.set_threads(1);
            solved.solve(black_box(men)).expect("solve");
            solved
        })
    });
    group.bench_function("build: solve and write the file, one thread", |b| {
        let again = tempfile::tempdir().expect("a temp dir");
        b.iter(|| {
            for ending in ["KBNvK", "KBvK", "KNvK"] {
                let _ = std::fs::remove_file(again.path().join(format!("{ending}.tbm")));
            }
            build(again.path(), &[men], 1, &|_| {}).expect("built")
        })
    });
    let first = positions(1);
    group.bench_function("open the file and probe once", |b| {
        b.iter(|| {
            let tb = Tablebase::open(dir.path()).expect("opened");
            tb.probe(black_box(&first[0])).expect("KBNvK")
        })
    });
    group.finish();

    let set = positions(4096);
    let mut group = c.benchmark_group("kbnvk_probe");
    group.throughput(Throughput::Elements(set.len() as u64));
    for (name, tb) in [("memory", &in_memory), ("file", &from_file)] {
        group.bench_function(format!("dtm, {name}"), |b| {
            b.iter(|| {
                for pos in &set {
                    black_box(tb.probe(black_box(pos)).expect("KBNvK"));
                }
            })
        });
        group.bench_function(format!("with every move, {name}"), |b| {
            b.iter(|| {
                for pos in &set {
                    black_box(tb.probe_moves(black_box(pos)).expect("KBNvK"));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, kbnvk);
criterion_main!(benches);
