//! The engine with a tablebase directory (`tabla tb build`'s files): exact play in any ending it
//! holds, and the fifty-move rule honoured, so that a mate the rule would stop gives way to a
//! line that converts in time.

use std::sync::Arc;
use tabla::Position;
use tabla_endgame::{Dtm, Men, Solved, Tablebase, build};
use tabla_engine::{Control, EndgameTables, Engine, Limits, Score};

/// KQvKR (and KQvK, KRvK) built into a temporary directory, as the engine's only tables.
fn engine_with_kqkr() -> (tempfile::TempDir, Tablebase, Engine) {
    let dir = tempfile::tempdir().expect("temp dir");
    let men: Men = "KQvKR".parse().expect("men");
    build(dir.path(), &[men], 2, &|_| {}).expect("build");
    let tablebase = Tablebase::open(dir.path()).expect("open");
    let mut engine = Engine::new();
    let oracle = EndgameTables::new(Solved::new())
        .with_tablebase(Arc::new(Tablebase::open(dir.path()).expect("open")));
    engine.set_oracle(Some(Arc::new(oracle)));
    (dir, tablebase, engine)
}

/// White: Kb1, Qb5; Black: Ka3, Rd3. Found by scanning KQvKR for a win in 4 moves where taking
/// the rook (Qxd3+, the only capture) is not the fastest mate; the tests check both facts in the
/// table.
const MATE_IN_4: &str = "8/8/8/1Q6/8/k2r4/8/1K6 w - - 0 1";

fn with_clock(fen: &str, halfmoves: u32) -> Position {
    let fen = fen.replace(" 0 1", &format!(" {halfmoves} 60"));
    Position::from_fen(&fen).expect("position")
}

#[test]
fn the_table_mate_is_played_when_the_clock_allows_it() {
    let (_dir, tb, mut engine) = engine_with_kqkr();
    let pos = with_clock(MATE_IN_4, 0);
    assert_eq!(tb.probe(&pos).expect("KQvKR"), Dtm::Win(4));
    let result = engine.search(&pos, &Limits::depth(4), &Control::default(), &mut |_| {});
    assert_eq!(result.score, Score::Mate(4));
    let best = result.best.expect("a move");
    let mut after = pos.clone();
    after.play(best).expect("legal");
    // The move keeps the fastest mate: Black is mated in 3 after it.
    assert_eq!(
        tb.probe(&after).expect("table"),
        Dtm::Loss(3),
        "{}",
        pos.san(best)
    );
}

#[test]
fn a_mate_the_fifty_move_rule_stops_gives_way_to_a_capture_that_mates_in_time() {
    let (_dir, tb, mut engine) = engine_with_kqkr();
    // Mate in 4 is 7 half-moves away: with the clock at 94 the game is drawn first (100 half-
    // moves without a capture or a pawn move), at 93 the mating move is the 100th and counts.
    let late = with_clock(MATE_IN_4, 94);
    // Taking the rook restarts the clock; its mate (KQvK) is longer than the table's.
    let captures: Vec<_> = late
        .legal_moves()
        .into_iter()
        .filter(|&m| m.is_capture())
        .collect();
    assert!(!captures.is_empty());
    for &m in &captures {
        let mut after = late.clone();
        after.play(m).expect("legal");
        let Ok(Dtm::Loss(n)) = tb.probe(&after) else {
            panic!("{} does not win", late.san(m))
        };
        assert!(n >= 4, "{} mates as fast as the table's best", late.san(m));
    }
    let result = engine.search(&late, &Limits::depth(4), &Control::default(), &mut |_| {});
    let best = result.best.expect("a move");
    assert!(
        best.is_capture(),
        "{} does not convert in time",
        late.san(best)
    );
    let mut after = late.clone();
    after.play(best).expect("legal");
    let Ok(Dtm::Loss(n)) = tb.probe(&after) else {
        panic!("no win after {}", late.san(best))
    };
    assert_eq!(result.score, Score::Mate(n as i32 + 1));

    let in_time = with_clock(MATE_IN_4, 93);
    let result = engine.search(
        &in_time,
        &Limits::depth(4),
        &Control::default(),
        &mut |_| {},
    );
    assert_eq!(result.score, Score::Mate(4));
}
