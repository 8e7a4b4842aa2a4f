//! `go` (what `tabla go` prints) on the Bh6 test position (docs/background.md): in this
//! middlegame the game went on 40.Be3-h6, and Stockfish 15.1 confirms the move with a forced mate
//! after it (`score mate 21` at depth 18). tabla's engine at half a million nodes (a node budget
//! keeps it deterministic) proposes it too; the output ends with the line in numbered SAN and
//! exactly `bestmove <SAN> <UCI>`. And a position without a legal move says why.

use tabla::Position;
use tabla_analysis::{Budget, Request, TablaAnalyser, go};

fn go_text(fen: &str, budget: Budget) -> String {
    let pos = Position::from_fen(fen).expect("legal");
    let mut out = Vec::new();
    go(
        &mut TablaAnalyser::new(),
        &Request::new(pos, budget),
        &mut out,
    )
    .expect("go");
    String::from_utf8(out).expect("UTF-8")
}

#[test]
fn go_ends_with_the_bestmove_line() {
    let text = go_text(
        "6k1/p2q1b2/2n2Qp1/1p2p3/4P3/2P1B3/5R1K/8 w - - 1 40",
        Budget::Nodes(500_000),
    );
    assert_eq!(text.lines().last(), Some("bestmove Bh6 e3h6"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("pv 40. Bh6")), "{text}");
    assert!(text.lines().any(|l| l.starts_with("score +")), "{text}");
}

#[test]
fn no_legal_move_is_said_with_the_reason() {
    // Fool's mate: White is checkmated.
    let mated = go_text(
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        Budget::Depth(3),
    );
    let last: Vec<&str> = mated.lines().rev().take(2).collect();
    assert_eq!(
        last,
        [
            "bestmove (none) 0000",
            "info string no legal move: checkmate"
        ]
    );
    // Black to move, stalemated in the corner.
    let stalemate = go_text("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", Budget::Depth(3));
    assert!(
        stalemate.contains("info string no legal move: stalemate"),
        "{stalemate}"
    );
    assert!(!stalemate.contains("\nscore "), "{stalemate}");
}
