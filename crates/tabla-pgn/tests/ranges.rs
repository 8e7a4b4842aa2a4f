//! Reading a file in byte ranges gives the same games, each exactly once, however it is cut;
//! reading through a source that returns a few bytes at a time gives the same games too.

mod common;

use common::{dump_game, read_all};
use std::io::{Cursor, Read};
use tabla_pgn::{Game, Reader};

/// The games of `bytes` read as `parts` ranges cut at equal byte offsets.
fn read_in_ranges(bytes: &[u8], parts: u64) -> Vec<Game> {
    let len = bytes.len() as u64;
    let mut games = Vec::new();
    for i in 0..parts {
        let (start, end) = (len * i / parts, len * (i + 1) / parts);
        let mut reader = Reader::range(Cursor::new(bytes), start, end).expect("seekable");
        for game in reader.games() {
            games.push(game.expect("in-memory reads do not fail"));
        }
    }
    games
}

#[test]
fn testdata_games_are_the_same_however_a_file_is_cut() {
    same_however_cut(common::testdata().files());
}

#[test]
fn corpus_games_are_the_same_however_a_file_is_cut() {
    if let Some(corpus) = common::corpus() {
        same_however_cut(corpus.files());
    }
}

fn same_however_cut(files: Vec<(String, Vec<u8>)>) {
    for (name, bytes) in files {
        let whole: Vec<String> = read_all(&bytes).iter().map(dump_game).collect();
        for parts in [1, 2, 8] {
            let cut: Vec<String> = read_in_ranges(&bytes, parts)
                .iter()
                .map(dump_game)
                .collect();
            assert_eq!(
                cut.len(),
                whole.len(),
                "{name} in {parts} ranges: number of games"
            );
            for (i, (a, b)) in cut.iter().zip(&whole).enumerate() {
                assert_eq!(a, b, "{name} in {parts} ranges: game {}", i + 1);
            }
        }
    }
}

#[test]
fn every_cut_point_of_small_files_gives_each_game_once() {
    let inputs: [&[u8]; 6] = [
        b"[Event \"1\"]\n[Site \"?\"]\n\n1. e4 e5 {c} 1-0\n\n[Event \"2\"]\n\n\
          [Site \"blank line inside the tags\"]\n\n1. d4 *\n\n[Event \"3\"]\n\n1. c4 0-1\n",
        // A game starting in the middle of a line (found by fuzzing): its second tag line must
        // not be taken for the start of a game.
        b"[Event \"1\"]\n\n1. e4 e5 (1... c5 2.[Event \"2\"]\n[Site \"x\"]\n\n1. d4 *\n",
        // Comment and escape lines inside a tag section.
        b"1. e4 *\n[Event \"2\"]\n; note\n{c}\n% escape\n[Site \"x\"]\n\n1. d4 *\n",
        // A malformed tag line inside a tag section (found by fuzzing).
        b"1. e4 *\n\n[Event \"2\"]\n[1p1/k \"c6 Nf6]\n[Datc3 Nb4 0-1\n\n1. d4 *\n",
        // A comment over several lines in a tag section, then more tags (found by fuzzing).
        b"[Event \"1\"]\n{a comment\nover lines}\n[Site \"x\"]\n\n1. e4 *\n",
        // A stray `[` right after a result (found by fuzzing).
        b"[Event \"1\"]\n\n1. e4 *[\n\n[Event \"2\"]\n\n1. d4 *\n",
    ];
    for pgn in inputs {
        let whole: Vec<String> = read_all(pgn).iter().map(dump_game).collect();
        assert!(whole.len() >= 2);
        for cut in 0..=pgn.len() as u64 {
            let mut games = Vec::new();
            for (start, end) in [(0, cut), (cut, pgn.len() as u64)] {
                let mut reader = Reader::range(Cursor::new(pgn), start, end).expect("seekable");
                games.extend(reader.games().map(|g| dump_game(&g.expect("reads"))));
            }
            assert_eq!(
                games,
                whole,
                "cut at {cut} of {:?}",
                String::from_utf8_lossy(pgn)
            );
        }
    }
}

/// Hands out at most `step` bytes per read, to exercise every refill path.
struct Trickle<'a> {
    bytes: &'a [u8],
    step: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.step.min(buf.len()).min(self.bytes.len());
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

#[test]
fn small_reads_give_the_same_games() {
    for (name, bytes) in common::testdata().files() {
        let whole: Vec<String> = read_all(&bytes).iter().map(dump_game).collect();
        for step in [1, 3, 7] {
            let mut reader = Reader::new(Trickle {
                bytes: &bytes,
                step,
            });
            let got: Vec<String> = reader
                .games()
                .map(|g| dump_game(&g.expect("reads")))
                .collect();
            assert_eq!(got, whole, "{name} read {step} bytes at a time");
        }
    }
}

#[test]
fn memory_does_not_grow_with_the_input() {
    let lichess = common::testdata().dir.join("lichess_db_1000k.pgn");
    let bytes = std::fs::read(lichess).expect("testdata file");
    // Ten copies one after the other, streamed: the buffer stays at its first size.
    let copies = (0..10).fold(Box::new(std::io::empty()) as Box<dyn Read>, |chain, _| {
        Box::new(chain.chain(Cursor::new(bytes.clone())))
    });
    let mut reader = Reader::new(copies);
    let start = reader.buffer_capacity();
    let mut games = 0;
    while reader.skip_game().expect("reads") {
        games += 1;
    }
    // 80 games a copy (python-chess, testdata/pgn_reference.tsv).
    assert_eq!(games, 800);
    assert_eq!(reader.buffer_capacity(), start);
}
