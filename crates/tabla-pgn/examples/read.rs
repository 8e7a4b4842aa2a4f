//! Reads a PGN file in one of four ways and prints the counts and the time taken; used to
//! measure throughput and peak memory (`/usr/bin/time -v`) on large files.
//!
//! `cargo run --release -p tabla-pgn --example read -- <MODE> <FILE>` with MODE one of `skip`,
//! `replay`, `fens`, `tree`, and, for comparison, `pgn-reader-replay` and `pgn-reader-fens`
//! (pgn-reader 0.29 + shakmaty 0.30 doing the same work as `replay` and `fens`: the `FEN` tag
//! honoured, every mainline move resolved and played, variations skipped as pgn-reader's replay
//! skips them, the rest of a line dropped after an illegal move). With `--mem` after the file,
//! the file is read into memory first and only the parsing is timed; without it, the file is
//! streamed (for peak-memory measurements).

use std::fs::File;
use std::time::Instant;
use tabla::Position;
use tabla_pgn::{Reader, ReplayVisitor, Replayer, Skip};

/// Counts mainline plies, building each FEN when asked.
struct Count {
    fens: bool,
    plies: u64,
    fen_bytes: u64,
    buffer: String,
}

impl ReplayVisitor for Count {
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

/// The same replay with pgn-reader and shakmaty.
mod theirs {
    use pgn_reader::{RawTag, SanPlus, Skip, Visitor};
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};
    use std::fmt::Write as _;
    use std::ops::ControlFlow;

    pub struct Replay {
        pub fens: bool,
        pub plies: u64,
        pub buffer: String,
    }

    /// The position of the mainline and whether an illegal move ended it.
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
            if !game.dead {
                match san_plus.san.to_move(&game.pos) {
                    Ok(m) => {
                        game.pos.play_unchecked(m);
                        self.plies += 1;
                        if self.fens {
                            self.buffer.clear();
                            let fen = Fen::from_position(&game.pos, EnPassantMode::Always);
                            let _ = write!(self.buffer, "{fen}");
                        }
                    }
                    Err(_) => game.dead = true,
                }
            }
            ControlFlow::Continue(())
        }

        fn begin_variation(&mut self, _game: &mut Game) -> ControlFlow<(), Skip> {
            ControlFlow::Continue(Skip(true))
        }

        fn end_game(&mut self, _game: Game) {}
    }
}

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let (Some(mode), Some(path)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: read <skip|replay|fens|tree> <FILE>");
        std::process::exit(2);
    };
    let input: Box<dyn std::io::Read> = if args.get(3).is_some_and(|a| a == "--mem") {
        Box::new(std::io::Cursor::new(std::fs::read(path)?))
    } else {
        Box::new(File::open(path)?)
    };
    let mut input = Some(input);
    let mut take_input = || input.take().unwrap_or_else(|| Box::new(std::io::empty()));
    let start = Instant::now();
    let (mut games, mut plies, mut errors) = (0u64, 0u64, 0u64);
    match mode.as_str() {
        "skip" => {
            let mut reader = Reader::new(take_input());
            while reader.skip_game()? {
                games += 1;
            }
        }
        "replay" | "fens" => {
            let mut reader = Reader::new(take_input());
            let mut visitor = Replayer::new(Count {
                fens: mode == "fens",
                plies: 0,
                fen_bytes: 0,
                buffer: String::new(),
            });
            while reader.read_game(&mut visitor)?.is_some() {
                games += 1;
            }
            plies = visitor.inner().plies;
        }
        "tree" => {
            let mut reader = Reader::new(take_input());
            for game in reader.games() {
                let game = game?;
                games += 1;
                plies += game.mainline().len() as u64;
                errors += game.problems.len() as u64;
            }
        }
        "pgn-reader-replay" | "pgn-reader-fens" => {
            let mut reader = pgn_reader::Reader::new(take_input());
            let mut visitor = theirs::Replay {
                fens: mode == "pgn-reader-fens",
                plies: 0,
                buffer: String::new(),
            };
            while reader.read_game(&mut visitor)?.is_some() {
                games += 1;
            }
            plies = visitor.plies;
        }
        _ => {
            eprintln!("unknown mode {mode}");
            std::process::exit(2);
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{mode}: {games} games, {plies} plies, {errors} errors in {secs:.3} s: {:.0} games/s, {:.0} plies/s",
        games as f64 / secs,
        plies as f64 / secs
    );
    Ok(())
}
