//! Helpers shared by the integration tests.

#![allow(dead_code)]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use tabla_pgn::{Game, Line, Reader};

/// A folder of PGN files with python-chess's reading of them (scripts/gen_pgn_reference.py).
pub struct PgnSet {
    /// The folder of `.pgn` files.
    pub dir: PathBuf,
    /// The reference: one line per game, `file, game number, plies, final FEN, errors`.
    pub reference: PathBuf,
}

impl PgnSet {
    /// Every `.pgn` file of the set with its bytes, by name.
    pub fn files(&self) -> Vec<(String, Vec<u8>)> {
        pgn_files(&self.dir)
    }
}

/// The repository's `testdata/`: data every test can count on (testdata/README.md).
pub fn testdata_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata")
}

/// The PGN files of the repository (`testdata/pgn`), always there.
pub fn testdata() -> PgnSet {
    PgnSet {
        dir: testdata_dir().join("pgn"),
        reference: testdata_dir().join("pgn_reference.tsv"),
    }
}

/// The real-world corpus's PGN files, or `None` when the corpus is not there (see
/// [`corpus_dir`]).
pub fn corpus() -> Option<PgnSet> {
    Some(PgnSet {
        dir: corpus_dir()?.join("pgn"),
        reference: testdata_dir().join("corpus_pgn_reference.tsv"),
    })
}

/// The real-world corpus: the folder named by `TABLA_CORPUS` (relative to the repository root),
/// else `../shared/data` beside the repository. When it is missing, the calling test says it is
/// skipped and gets `None`; with `TABLA_REQUIRE_CORPUS=1` it fails instead, so that CI cannot
/// skip it silently.
pub fn corpus_dir() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = match std::env::var_os("TABLA_CORPUS") {
        Some(named) => root.join(named),
        None => root.join("../shared/data"),
    };
    if dir.is_dir() {
        return Some(dir);
    }
    let test = std::thread::current().name().unwrap_or("test").to_owned();
    assert!(
        std::env::var("TABLA_REQUIRE_CORPUS").as_deref() != Ok("1"),
        "{test}: corpus not found at {} and TABLA_REQUIRE_CORPUS=1: set TABLA_CORPUS to the \
         folder holding perft/, pgn/ and epd/",
        dir.display()
    );
    eprintln!(
        "{test}: skipped: corpus not found at {} (set TABLA_CORPUS)",
        dir.display()
    );
    None
}

/// Every `.pgn` file of `dir` with its bytes, by name.
pub fn pgn_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .map(|p| {
            let name = p
                .file_name()
                .expect("file name")
                .to_string_lossy()
                .into_owned();
            (name, std::fs::read(&p).expect("PGN file"))
        })
        .collect();
    files.sort();
    files
}

/// All games of an input.
pub fn read_all(bytes: &[u8]) -> Vec<Game> {
    Reader::new(bytes)
        .games()
        .collect::<Result<_, _>>()
        .expect("in-memory reads do not fail")
}

/// The movetext tree of a game as text: every move (UCI, canonical SAN, FEN after), its NAGs,
/// comments (as the writer prints them) and variations, and the comments ending each line.
/// Everything the writer must preserve, and nothing it may change (the SAN as written, the
/// game's place in the input).
pub fn dump_moves(game: &Game) -> String {
    let mut out = String::new();
    let start = game.start.as_ref().map(|p| p.to_fen()).unwrap_or_default();
    let _ = writeln!(out, "start {start}");
    dump_line(&game.moves, 0, &mut out);
    out
}

fn dump_line(line: &Line, depth: usize, out: &mut String) {
    let pad = "  ".repeat(depth);
    for node in &line.nodes {
        let before: Vec<String> = node.comments_before.iter().map(|c| c.to_string()).collect();
        let after: Vec<String> = node.comments_after.iter().map(|c| c.to_string()).collect();
        let _ = writeln!(
            out,
            "{pad}{} {} {} nags_before={:?} nags={:?} before={before:?} after={after:?}",
            node.uci(),
            node.san,
            node.fen(),
            node.nags_before,
            node.nags,
        );
        for variation in &node.variations {
            let _ = writeln!(out, "{pad}(");
            dump_line(variation, depth + 1, out);
            let _ = writeln!(out, "{pad})");
        }
    }
    let end: Vec<String> = line.comments.iter().map(|c| c.to_string()).collect();
    if !end.is_empty() {
        let _ = writeln!(out, "{pad}end {end:?}");
    }
}

/// Tags, movetext tree, outcome and errors: the whole game but its place in the input.
pub fn dump_game(game: &Game) -> String {
    format!(
        "{:?}\n{}{:?}\n{:?}\n",
        game.tags,
        dump_moves(game),
        game.outcome,
        game.problems
            .iter()
            .map(|e| (e.kind.clone(), e.token.clone(), e.move_number, e.depth))
            .collect::<Vec<_>>()
    )
}

/// Asserts two multi-line texts are equal, showing only the first line that differs.
pub fn assert_same_text(got: &str, expected: &str, context: &str) {
    if got == expected {
        return;
    }
    let (g, e): (Vec<&str>, Vec<&str>) = (got.lines().collect(), expected.lines().collect());
    let i = (0..g.len().max(e.len()))
        .find(|&i| g.get(i) != e.get(i))
        .unwrap_or(0);
    panic!(
        "{context}: line {} differs\n  got:      {:?}\n  expected: {:?}",
        i + 1,
        g.get(i),
        e.get(i)
    );
}
