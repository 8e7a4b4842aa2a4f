//! The Bh6 test position (docs/background.md): in this middlegame the game went on 40.Be3-h6, and
//! the engine should propose Bh6 too. Stockfish 15.1 confirms the move and finds a forced mate after
//! it (`score mate 21` at depth 18). A node limit rather than a clock keeps the test deterministic;
//! half a million nodes take well under a second in an optimised build.

use tabla::Position;
use tabla_engine::{Control, Engine, Limits};

const FEN: &str = "6k1/p2q1b2/2n2Qp1/1p2p3/4P3/2P1B3/5R1K/8 w - - 1 40";

#[test]
fn search_finds_bh6() {
    let pos = Position::from_fen(FEN).expect("legal");
    let result = Engine::new().search(
        &pos,
        &Limits::nodes(500_000),
        &Control::default(),
        &mut |_| {},
    );
    let best = result.best.expect("a move");
    assert_eq!(
        (pos.san(best), pos.uci(best)),
        ("Bh6".to_string(), "e3h6".to_string())
    );
    assert!(
        result.nodes <= 500_000 + 10_000,
        "node limit overrun: {}",
        result.nodes
    );
}
