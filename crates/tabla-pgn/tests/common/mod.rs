//! Helpers shared by the integration tests.

#![allow(dead_code, unused_imports)] // each test file uses its own part of this module

use std::fmt::Write as _;
use tabla_pgn::{Game, Line, Reader};

pub use tabla_testdata::{PgnSet, corpus, testdata};

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
