//! The general solver (`Solved`), checked without trusting it: every value against the best of
//! its legal moves as tabla's own move generator plays them (en passant included), the published
//! longest mates. (`tests/kbnvk.rs` checks KBNvK against published figures.)

use tabla::{Color, Position};
use tabla_endgame::{Dtm, Men, Solved, Tablebase, TbError, build};

/// Checks the slots `step` apart of `men`'s table: each legal position's value is the best over
/// its legal moves (tabla's generator) of the value after the move, mates and stalemates as the
/// rules say; and every `files`th of them answers the same from the table files. Returns the
/// positions checked.
fn check_table_and_files(
    solved: &Solved,
    files: Option<(&Tablebase, u64)>,
    men: Men,
    step: usize,
) -> u64 {
    let layout = solved.get(men).expect("solved").layout().clone();
    let mut checked = 0;
    for slot in (0..layout.size()).step_by(step) {
        for turn in [Color::White, Color::Black] {
            // None when illegal with this side to move (the other king in check).
            let Some(pos) = layout.position(slot, turn) else {
                continue;
            };
            let fen = pos.to_fen();
            let got = solved.dtm(&pos).expect("a solved ending");
            let moves = pos.legal_moves();
            let want = if moves.is_empty() {
                if pos.is_check() {
                    Dtm::Loss(0)
                } else {
                    Dtm::Draw
                }
            } else {
                moves
                    .iter()
                    .map(|&mv| {
                        let mut after = pos.clone();
                        after.play_unchecked(mv);
                        solved.dtm(&after).expect("after a move").after_move()
                    })
                    .min_by_key(|d| d.badness())
                    .expect("a move")
            };
            assert_eq!(got, want, "{men}: {fen}");
            if let Some((tb, every)) = files
                && checked % every == 0
            {
                assert_eq!(tb.probe(&pos).expect("probe"), got, "{men} file: {fen}");
            }
            checked += 1;
        }
    }
    checked
}

#[test]
fn every_ending_of_up_to_four_men_is_consistent_and_gives_the_published_longest_mates() {
    let mut solved = Solved::new();
    let mut endings = Men::all(3);
    endings.extend(Men::all(4));
    for &men in &endings {
        solved.solve(men).expect("solve");
    }
    // Longest wins, White to move: KPK 28 moves, KQK 10, KRK 16 (the 3-man maxima listed on
    // kirill-kryukov.com's discussion board, "Longest Mate in kqk", from Peter Karrer's statistics),
    // KQKR 35 (Wikipedia's "Endgame tablebase"; the Nalimov and Gaviota tables).
    for (name, moves) in [("KPvK", 28), ("KQvK", 10), ("KRvK", 16), ("KQvKR", 35)] {
        let men: Men = name.parse().expect("men");
        let plies = solved
            .get(men)
            .expect("solved")
            .longest_win(Color::White)
            .expect("a win");
        assert_eq!(plies, 2 * moves - 1, "{name}");
    }
    // The longest mate of four men: KRvKP won by the pawn's side through its promotion, 85 plies
    // (Helmut Conrady's survey of the Nalimov tables, CCC, 2000-06-01); White mates in 43 moves
    // from this position.
    let pos = Position::from_fen("8/5k2/2PK4/5r2/8/8/8/8 w - - 0 1").expect("fen");
    assert_eq!(solved.dtm(&pos), Some(Dtm::Win(43)));
    // The same endings as table files (one side to move stored, the other answered by one ply).
    let dir = tempfile::tempdir().expect("temp dir");
    let reports = build(dir.path(), &endings, 2, &|_| {}).expect("build");
    assert_eq!(reports.len(), endings.len());
    let tb = Tablebase::open(dir.path()).expect("open");
    assert_eq!(tb.probe(&pos).expect("probe"), Dtm::Win(43));
    // En passant: after d7-d5 White may take, and the value is the position's with that move.
    let ep = Position::from_fen("8/8/8/3pP3/8/8/8/k1K5 w - d6 0 1").expect("fen");
    assert_eq!(tb.probe(&ep).expect("probe"), solved.dtm(&ep).expect("dtm"));
    // Five men: not built here; the error names the ending and the command that builds it.
    let five = Position::from_fen("r6k/8/8/8/8/8/8/K2QR3 w - - 0 1").expect("fen");
    match tb.probe(&five) {
        Err(e @ TbError::Missing { .. }) => {
            assert!(e.to_string().contains("tabla tb build KQRvKR"), "{e}")
        }
        other => panic!("{other:?}"),
    }
    // Every table, about 40,000 positions each (every one of the small ones), and every 50th of
    // them from the files too.
    let mut checked = 0;
    for &men in &endings {
        let size = solved.get(men).expect("solved").layout().size();
        let step = (size / 20_000).max(1) as usize;
        checked += check_table_and_files(&solved, Some((&tb, 50)), men, step);
    }
    assert!(checked > 1_000_000, "{checked}");
}
