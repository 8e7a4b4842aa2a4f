//! Whole-table consistency, checked with `tabla`'s own legal move generator (independent of the
//! generator's move logic): every value must follow from the values one move later, in every
//! slot of KBNvK, KQvK and KRvK. (`tests/solve.rs` checks a sample of every table of up to four
//! men the same way.)

use tabla::{Color, Position};
use tabla_endgame::{Dtm, Men, Solved};

/// Checks one position against its moves; returns a description of the first problem.
fn check(table: &Solved, pos: &Position) -> Result<(), String> {
    let dtm = table.dtm(pos).ok_or("not solved")?;
    let moves = pos.legal_moves();
    let mut next = pos.clone();
    let mut after = Vec::with_capacity(moves.len());
    for &mv in &moves {
        next.play(mv).expect("a legal move");
        after.push(table.dtm(&next).ok_or("not solved")?);
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

/// Every slot of `men`'s table (each placement once up to symmetry), both sides to move, each
/// legal position checked; the slots shared over two threads.
fn check_all(solved: &Solved, men: Men) -> (u64, Vec<String>) {
    let layout = solved.get(men).expect("solved").layout();
    let run = |part: u64| {
        let mut checked = 0u64;
        let mut problems = Vec::new();
        for slot in (part..layout.size()).step_by(2) {
            for turn in [Color::White, Color::Black] {
                let Some(pos) = layout.position(slot, turn) else {
                    continue;
                };
                checked += 1;
                if let Err(e) = check(solved, &pos)
                    && problems.len() < 10
                {
                    problems.push(e);
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

#[test]
fn kbnvk_kqvk_and_krvk_every_value_follows_from_the_next_move() {
    let mut solved = Solved::new();
    for (name, at_least) in [("KBNvK", 3_000_000), ("KQvK", 30_000), ("KRvK", 30_000)] {
        let men: Men = name.parse().expect("men");
        solved.solve(men).expect("solve");
        let (checked, problems) = check_all(&solved, men);
        assert!(problems.is_empty(), "{name}: {problems:#?}");
        assert!(
            checked > at_least,
            "{name}: only {checked} positions checked"
        );
    }
}
