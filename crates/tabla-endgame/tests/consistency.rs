//! Whole-table consistency, checked with `tabla`'s own legal move generator (independent of the
//! generator's move logic): every value must follow from the values one move later.

use std::sync::LazyLock;
use tabla::{Board, CastlingRights, Color, Piece, Position, Role, Setup, Square, Validation};
use tabla_endgame::{Dtm, Material, Table, generate};

static KBNK: LazyLock<Table> = LazyLock::new(|| generate(Material::KBNK, &mut |_| {}));

/// Checks one position against its moves; returns a description of the first problem.
fn check(table: &Table, pos: &Position) -> Result<(), String> {
    let dtm = table.dtm(pos).map_err(|e| e.to_string())?;
    let moves = pos.legal_moves();
    let mut next = pos.clone();
    let mut after = Vec::with_capacity(moves.len());
    for &mv in &moves {
        next.play(mv).expect("a legal move");
        after.push(table.dtm(&next).map_err(|e| e.to_string())?);
        next.undo();
    }
    let fail = |why: &str| Err(format!("{} is {dtm}: {why}", pos.to_fen()));
    match dtm {
        Dtm::Loss(0) => {
            if !(moves.is_empty() && pos.is_check()) {
                return fail("not a checkmate");
            }
        }
        Dtm::Win(n) => {
            // A move to a loss in n - 1, none to a faster one.
            if !after.contains(&Dtm::Loss(n - 1)) {
                return fail("no move reaches the next step");
            }
            if after
                .iter()
                .any(|a| matches!(a, Dtm::Loss(k) if *k < n - 1))
            {
                return fail("a faster mate exists");
            }
        }
        Dtm::Loss(n) => {
            // Every move reaches a win in at most n, one exactly n; none draws.
            if moves.is_empty() {
                return fail("no legal move");
            }
            if after.iter().any(|a| !matches!(a, Dtm::Win(k) if *k <= n)) {
                return fail("a move resists longer or draws");
            }
            if !after.contains(&Dtm::Win(n)) {
                return fail("no move resists that long");
            }
        }
        Dtm::Draw => {
            if after.iter().any(|a| matches!(a, Dtm::Loss(_))) {
                return fail("a move wins");
            }
            let all_lost = after.iter().all(|a| matches!(a, Dtm::Win(_)));
            if all_lost && !moves.is_empty() {
                return fail("every move loses");
            }
            if moves.is_empty() && pos.is_check() {
                return fail("a checkmate");
            }
        }
    }
    Ok(())
}

/// Every legal position of the table's material with White (the stronger side) in the triangle
/// frame — one per slot of the index, so every stored value is checked — validated strictly by
/// `tabla`. Work is split over two threads by configuration.
fn check_all(table: &Table) -> (u64, Vec<String>) {
    let material = table.material();
    let roles = material.pieces().to_vec();
    let n = roles.len();
    // The documented index: the king on one of the triangle's ten squares, then 64 squares a
    // piece (configuration = triangle * 64^n + piece[0] * 64^(n-1) + ...).
    const TRIANGLE: [u8; 10] = [0, 1, 2, 3, 9, 10, 11, 18, 19, 27];
    let configs = TRIANGLE.len() << (6 * n);
    let run = |part: usize| {
        let mut checked = 0u64;
        let mut problems = Vec::new();
        let mut pieces = [0u8; 2];
        for c in (part..configs).step_by(2) {
            for (i, p) in pieces[..n].iter_mut().enumerate() {
                *p = (c >> (6 * (n - 1 - i)) & 63) as u8;
            }
            let king = TRIANGLE[c >> (6 * n)];
            for bare in 0..64u8 {
                for turn in [Color::White, Color::Black] {
                    let mut board = Board::empty();
                    let mut squares = vec![king, bare];
                    squares.extend_from_slice(&pieces[..n]);
                    squares.sort_unstable();
                    squares.dedup();
                    if squares.len() != n + 2 {
                        continue;
                    }
                    board.set(sq(king), Some(Piece::new(Color::White, Role::King)));
                    board.set(sq(bare), Some(Piece::new(Color::Black, Role::King)));
                    for (&role, &p) in roles.iter().zip(&pieces[..n]) {
                        board.set(sq(p), Some(Piece::new(Color::White, role)));
                    }
                    let setup = Setup {
                        board,
                        turn,
                        castling: CastlingRights::NONE,
                        ep_square: None,
                        halfmoves: 0,
                        fullmoves: 1,
                    };
                    let Ok(pos) = Position::from_setup(setup, Validation::Strict) else {
                        continue;
                    };
                    checked += 1;
                    if let Err(e) = check(table, &pos)
                        && problems.len() < 10
                    {
                        problems.push(e);
                    }
                }
            }
        }
        (checked, problems)
    };
    let (a, b) = std::thread::scope(|s| {
        let first = s.spawn(|| run(0));
        let second = run(1);
        (first.join().expect("worker thread"), second)
    });
    let mut problems = a.1;
    problems.extend(b.1);
    (a.0 + b.0, problems)
}

fn sq(index: u8) -> Square {
    Square::new_masked(index)
}

#[test]
fn kbnk_every_value_follows_from_the_next_move() {
    let (checked, problems) = check_all(&KBNK);
    assert!(problems.is_empty(), "{problems:#?}");
    // 40,960 configurations of the index, both sides to move: over three million positions.
    assert!(checked > 3_000_000, "only {checked} positions checked");
}

#[test]
fn kqk_and_krk_every_value_follows_from_the_next_move() {
    for material in [Material::KQK, Material::KRK] {
        let table = generate(material, &mut |_| {});
        let (checked, problems) = check_all(&table);
        assert!(problems.is_empty(), "{material}: {problems:#?}");
        assert!(
            checked > 10_000,
            "{material}: only {checked} positions checked"
        );
    }
}
