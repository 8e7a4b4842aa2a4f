//! Throughput against pgn-reader + shakmaty in the same run, on the lichess and TWIC files of
//! the corpus repeated to about 50 MB (in memory, so the disk does not count):
//! (a) replay with legality, (b) the FEN after every ply, (c) tabla's full game tree.
//!
//! Run: `cargo bench -p tabla-pgn --bench throughput`. Criterion reports plies per second
//! (`elem/s`); the games and plies of each input are printed first. Both sides replay the
//! mainline only and skip variations (pgn-reader's default).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

/// About this many bytes per input.
const TARGET: usize = 50 * 1024 * 1024;

/// The file repeated to about [`TARGET`] bytes, and how many copies that took.
fn input(name: &str) -> (Vec<u8>, usize) {
    let Some(corpus) = tabla_testdata::corpus_dir() else {
        eprintln!("throughput: needs the corpus's {name} (../shared/data or TABLA_CORPUS)");
        std::process::exit(2);
    };
    let path = corpus.join("pgn").join(name);
    let one = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut all = Vec::with_capacity(TARGET + one.len());
    let mut copies = 0;
    while all.len() < TARGET {
        all.extend_from_slice(&one);
        all.extend_from_slice(b"\n\n");
        copies += 1;
    }
    (all, copies)
}

// ---- tabla -------------------------------------------------------------------------------

mod tabla_side {
    use tabla::Position;
    use tabla_pgn::{ReplayVisitor, Skip};

    /// Counts plies; with `fens`, also writes the FEN after each into a reused buffer (and
    /// sums their lengths).
    pub struct Replay {
        pub fens: bool,
        pub plies: u64,
        pub fen_bytes: u64,
        pub buffer: String,
    }

    impl ReplayVisitor for Replay {
        type Output = ();
        fn begin_variation(&mut self) -> Skip {
            Skip(true)
        }
        fn after_move(&mut self, pos: &Position) {
            self.plies += 1;
            if self.fens {
                self.buffer.clear();
                pos.write_fen(&mut self.buffer);
                self.fen_bytes += self.buffer.len() as u64;
            }
        }
        fn end_game(&mut self) {}
    }
}

fn tabla_replay(bytes: &[u8], fens: bool) -> (u64, u64) {
    let mut reader = tabla_pgn::Reader::new(bytes);
    let mut visitor = tabla_pgn::Replayer::new(tabla_side::Replay {
        fens,
        plies: 0,
        fen_bytes: 0,
        buffer: String::new(),
    });
    while reader.read_game(&mut visitor).expect("in memory").is_some() {}
    let v = visitor.inner();
    (v.plies, v.fen_bytes)
}

fn tabla_tree(bytes: &[u8]) -> (u64, u64) {
    let mut reader = tabla_pgn::Reader::new(bytes);
    let (mut games, mut plies) = (0, 0);
    for game in reader.games() {
        let game = game.expect("in memory");
        games += 1;
        plies += game.mainline().len() as u64;
        black_box(&game);
    }
    (games, plies)
}

// ---- pgn-reader + shakmaty ---------------------------------------------------------------

mod shakmaty_side {
    use pgn_reader::{RawTag, SanPlus, Skip, Visitor};
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};
    use std::fmt::Write as _;
    use std::ops::ControlFlow;

    /// The same work as tabla's `Replay`: the FEN tag honoured, moves resolved and played, the
    /// rest of a line dropped after an illegal move, variations skipped; FENs written into a
    /// reused buffer.
    pub struct Replay {
        pub fens: bool,
        pub plies: u64,
        pub fen_bytes: u64,
        pub buffer: String,
    }

    pub struct Game {
        pos: Chess,
        dead: bool,
    }

    impl Visitor for Replay {
        type Tags = Option<Chess>;
        type Movetext = Game;
        type Output = ();

        fn begin_tags(&mut self) -> ControlFlow<(), Option<Chess>> {
            ControlFlow::Continue(None)
        }

        fn tag(
            &mut self,
            tags: &mut Option<Chess>,
            name: &[u8],
            value: RawTag<'_>,
        ) -> ControlFlow<()> {
            if name == b"FEN" {
                *tags = Fen::from_ascii(value.as_bytes())
                    .ok()
                    .and_then(|f| f.into_position(CastlingMode::Standard).ok());
            }
            ControlFlow::Continue(())
        }

        fn begin_movetext(&mut self, tags: Option<Chess>) -> ControlFlow<(), Game> {
            ControlFlow::Continue(Game {
                pos: tags.unwrap_or_default(),
                dead: false,
            })
        }

        fn san(&mut self, game: &mut Game, san_plus: SanPlus) -> ControlFlow<()> {
            if game.dead {
                return ControlFlow::Continue(());
            }
            match san_plus.san.to_move(&game.pos) {
                Ok(m) => {
                    game.pos.play_unchecked(m);
                    self.plies += 1;
                    if self.fens {
                        self.buffer.clear();
                        let fen = Fen::from_position(&game.pos, EnPassantMode::Always);
                        let _ = write!(self.buffer, "{fen}");
                        self.fen_bytes += self.buffer.len() as u64;
                    }
                }
                Err(_) => game.dead = true,
            }
            ControlFlow::Continue(())
        }

        fn begin_variation(&mut self, _game: &mut Game) -> ControlFlow<(), Skip> {
            ControlFlow::Continue(Skip(true))
        }

        fn end_game(&mut self, _game: Game) {}
    }
}

fn shakmaty_replay(bytes: &[u8], fens: bool) -> (u64, u64) {
    let mut reader = pgn_reader::Reader::new(bytes);
    let mut visitor = shakmaty_side::Replay {
        fens,
        plies: 0,
        fen_bytes: 0,
        buffer: String::new(),
    };
    while reader.read_game(&mut visitor).expect("in memory").is_some() {}
    (visitor.plies, visitor.fen_bytes)
}

fn bench(c: &mut Criterion) {
    for name in ["lichess_db_1000k.pgn", "twic1599_1000k.pgn"] {
        let (bytes, copies) = input(name);
        let (games, tree_plies) = tabla_tree(&bytes);
        let (plies, fen_bytes) = tabla_replay(&bytes, true);
        let (their_plies, their_fen_bytes) = shakmaty_replay(&bytes, true);
        println!(
            "{name} x{copies}: {} MB, {games} games, {plies} plies (pgn-reader+shakmaty: {their_plies}; \
             tree mainlines: {tree_plies}), FEN bytes {fen_bytes} / {their_fen_bytes}",
            bytes.len() / 1_000_000
        );
        let mut group = c.benchmark_group(format!("pgn {name}"));
        group.throughput(Throughput::Elements(plies));
        group.sample_size(10);
        group.measurement_time(Duration::from_secs(15));
        group.warm_up_time(Duration::from_secs(2));
        group.bench_function(BenchmarkId::new("a replay", "tabla"), |b| {
            b.iter(|| tabla_replay(black_box(&bytes), false))
        });
        group.bench_function(BenchmarkId::new("a replay", "pgn-reader+shakmaty"), |b| {
            b.iter(|| shakmaty_replay(black_box(&bytes), false))
        });
        group.bench_function(BenchmarkId::new("b fen every ply", "tabla"), |b| {
            b.iter(|| tabla_replay(black_box(&bytes), true))
        });
        group.bench_function(
            BenchmarkId::new("b fen every ply", "pgn-reader+shakmaty"),
            |b| b.iter(|| shakmaty_replay(black_box(&bytes), true)),
        );
        group.bench_function(BenchmarkId::new("c full tree", "tabla"), |b| {
            b.iter(|| tabla_tree(black_box(&bytes)))
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
