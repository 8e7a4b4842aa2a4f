//! KBNK with the exact table plugged in: the engine mates in exactly the table's number of moves
//! as White, and as Black defends as long as the table says is possible. Positions are drawn with
//! a fixed pseudo-random sequence and kept when the table says White wins; the longest found is
//! among them.

use std::sync::Arc;
use tabla::{Color, Position};
use tabla_endgame::{Dtm, Material, Table, generate};
use tabla_engine::{Control, EndgameTables, Engine, Limits, Score};

fn random_kbnk(table: &Table, count: usize) -> Vec<(Position, u8)> {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % 64) as usize
    };
    let mut found = Vec::new();
    let mut tries = 0;
    while found.len() < count && tries < 1_000_000 {
        tries += 1;
        let mut board = ['.'; 64];
        let mut ok = true;
        for piece in ['K', 'B', 'N', 'k'] {
            let sq = next();
            if board[sq] != '.' {
                ok = false;
                break;
            }
            board[sq] = piece;
        }
        if !ok {
            continue;
        }
        let fen = fen_of(&board);
        let Ok(pos) = Position::from_fen(&fen) else {
            continue;
        };
        if let Ok(Dtm::Win(n)) = table.dtm(&pos) {
            found.push((pos, n));
        }
    }
    found
}

fn fen_of(board: &[char; 64]) -> String {
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let c = board[rank * 8 + file];
            if c == '.' {
                empty += 1;
            } else {
                if empty > 0 {
                    fen.push_str(&empty.to_string());
                    empty = 0;
                }
                fen.push(c);
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen.push_str(" w - - 0 1");
    fen
}

#[test]
fn kbnk_is_mated_in_exactly_the_tables_number_of_moves() {
    let table = generate(Material::KBNK, &mut |_| {});
    let mut engine = Engine::new();
    engine.set_oracle(Some(Arc::new(EndgameTables::new(vec![table.clone()]))));

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
            let before = table.dtm(&pos).expect("KBNK");
            let result = engine.search(&pos, &Limits::depth(1), &Control::default(), &mut |_| {});
            let mv = result.best.expect("a move");
            pos.play(mv).expect("a legal move");
            let after = table.dtm(&pos).expect("KBNK");
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
    let table = generate(Material::KBNK, &mut |_| {});
    let mut engine = Engine::new();
    engine.set_oracle(Some(Arc::new(EndgameTables::new(vec![table.clone()]))));
    // Black to move, every king move loses: the score is the table's distance.
    let pos = Position::from_fen("8/8/8/4k3/8/8/8/2B1KN2 b - - 0 1").expect("KBNK");
    let Ok(Dtm::Loss(n)) = table.dtm(&pos) else {
        panic!("expected a loss")
    };
    let result = engine.search(&pos, &Limits::depth(1), &Control::default(), &mut |_| {});
    assert_eq!(result.score, Score::Mate(-i32::from(n)));
}
