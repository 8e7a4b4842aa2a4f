//! KBNvK with the exact table plugged in: the engine mates in exactly the table's number of moves
//! as White, and as Black defends as long as the table says is possible. Positions are drawn with
//! a fixed pseudo-random sequence and kept when the table says White wins; the longest found is
//! among them.

use std::sync::Arc;
use tabla::{Board, Color, Piece, Position, Role, Square};
use tabla_endgame::{Dtm, Solved};
use tabla_engine::{Control, EndgameTables, Engine, Limits, Score};

fn random_kbnk(table: &Solved, count: usize) -> Vec<(Position, u8)> {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % 64) as u8
    };
    let mut found = Vec::new();
    let mut tries = 0;
    while found.len() < count && tries < 1_000_000 {
        tries += 1;
        let mut board = Board::empty();
        for (color, role) in [
            (Color::White, Role::King),
            (Color::White, Role::Bishop),
            (Color::White, Role::Knight),
            (Color::Black, Role::King),
        ] {
            board.set(Square::new_masked(next()), Some(Piece::new(color, role)));
        }
        if board.pieces().count() != 4 {
            continue;
        }
        let fen = format!("{} w - - 0 1", tabla::board_fen(&board));
        let Ok(pos) = Position::from_fen(&fen) else {
            continue;
        };
        if let Some(Dtm::Win(n)) = table.dtm(&pos) {
            found.push((pos, n));
        }
    }
    found
}

/// KBNvK solved in memory (with KBvK and KNvK).
fn kbnvk() -> Solved {
    let mut solved = Solved::new();
    solved.solve("KBNvK".parse().expect("men")).expect("KBNvK");
    solved
}

#[test]
fn kbnk_is_mated_in_exactly_the_tables_number_of_moves() {
    let table = kbnvk();
    let mut engine = Engine::new();
    engine.set_oracle(Some(Arc::new(EndgameTables::new(table.clone()))));

    let mut positions = random_kbnk(&table, 400);
    assert!(positions.len() == 400, "found only {}", positions.len());
    positions.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
    let longest = positions[0].1;
    assert!(longest >= 28, "the sample's longest mate is only {longest}");
    // The longest, and a spread of shorter ones.
    let chosen: Vec<(Position, u8)> = positions.iter().step_by(50).cloned().collect();

    for (start, moves) in chosen {
        let fen = start.to_fen();
        let mut pos = start.clone();
        let mut white_moves = 0;
        let first = engine.search(&pos, &Limits::depth(1), &Control::default(), &mut |_| {});
        assert_eq!(first.score, Score::Mate(i32::from(moves)), "{fen}");
        while !pos.is_checkmate() {
            assert!(
                white_moves <= u32::from(moves),
                "{fen}: no mate after {white_moves} moves"
            );
            let before = table.dtm(&pos).expect("KBNvK");
            let result = engine.search(&pos, &Limits::depth(1), &Control::default(), &mut |_| {});
            let mv = result.best.expect("a move");
            pos.play(mv).expect("a legal move");
            let after = table.dtm(&pos).expect("KBNvK");
            if pos.turn() == Color::Black {
                white_moves += 1;
                // The fastest mate: one move nearer.
                let Dtm::Win(n) = before else {
                    panic!("{fen}: White not winning")
                };
                assert_eq!(after, Dtm::Loss(n - 1), "{fen}: slow move {}", pos.to_fen());
            } else {
                // The longest defence: the best Black can do is to lose one move later.
                let Dtm::Loss(n) = before else {
                    panic!("{fen}: Black not losing")
                };
                assert_eq!(after, Dtm::Win(n), "{fen}: short defence {}", pos.to_fen());
            }
        }
        assert_eq!(white_moves, u32::from(moves), "{fen}");
    }
}

#[test]
fn black_reports_its_longest_defence() {
    let table = kbnvk();
    let mut engine = Engine::new();
    engine.set_oracle(Some(Arc::new(EndgameTables::new(table.clone()))));
    // Black to move, every king move loses: the score is the table's distance.
    let pos = Position::from_fen("8/8/8/4k3/8/8/8/2B1KN2 b - - 0 1").expect("KBNK");
    let Some(Dtm::Loss(n)) = table.dtm(&pos) else {
        panic!("expected a loss")
    };
    let result = engine.search(&pos, &Limits::depth(1), &Control::default(), &mut |_| {});
    assert_eq!(result.score, Score::Mate(-i32::from(n)));
}
