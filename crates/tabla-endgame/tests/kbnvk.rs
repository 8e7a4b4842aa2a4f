//! KBNvK (king, bishop and knight against a king) against independent expectations: the
//! published figures of an earlier KBNK solution base (docs/background.md), counted here over
//! every placement; hand-checked positions; optimal lines played out with tabla's moves; the
//! 16 MiB two-byte-slot format.

use std::sync::LazyLock;
use tabla::{Board, CastlingRights, Color, Piece, Position, Role, Setup, Square, Validation};
use tabla_endgame::{Dtm, Men, Solved, Tablebase, TbError, two_byte};

fn kbnvk() -> Men {
    "KBNvK".parse().expect("men")
}

static SOLVED: LazyLock<Solved> = LazyLock::new(|| {
    let mut solved = Solved::new();
    solved.solve(kbnvk()).expect("KBNvK");
    solved
});

static TB: LazyLock<Tablebase> =
    LazyLock::new(|| Tablebase::empty(std::path::Path::new("no-tables")).with_solved(&SOLVED));

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).expect("test FEN")
}

/// The counts of one side to move over a set of placements.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Counts {
    legal: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    checkmates: u64,
    /// Positions by full moves to mate (wins with White to move, losses with Black to move).
    histogram: Vec<u64>,
}

impl Default for Counts {
    fn default() -> Counts {
        Counts {
            legal: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            checkmates: 0,
            histogram: vec![0; 64],
        }
    }
}

impl Counts {
    fn add(&mut self, other: &Counts) {
        self.legal += other.legal;
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        self.checkmates += other.checkmates;
        for (a, b) in self.histogram.iter_mut().zip(&other.histogram) {
            *a += b;
        }
    }

    /// The longest mate and how many positions have it.
    fn longest(&self) -> Option<(usize, u64)> {
        let n = self.histogram.iter().rposition(|&c| c > 0)?;
        Some((n, self.histogram[n]))
    }
}

/// White's king, bishop and knight and Black's king on every square (the bishop on light
/// squares or on dark ones), each side to move: every legal position (the side not to move not
/// in check) counted by its value. `[light, dark]`, each `[White to move, Black to move]`.
static COUNTS: LazyLock<[[Counts; 2]; 2]> = LazyLock::new(|| {
    let count = |kings: std::ops::Range<u8>| {
        let mut out: [[Counts; 2]; 2] = Default::default();
        for (wk, b, n, bk) in kings.flat_map(|wk| {
            (0..64u8).flat_map(move |b| {
                (0..64u8).flat_map(move |n| (0..64u8).map(move |bk| (wk, b, n, bk)))
            })
        }) {
            let mut board = Board::empty();
            for (sq, color, role) in [
                (wk, Color::White, Role::King),
                (b, Color::White, Role::Bishop),
                (n, Color::White, Role::Knight),
                (bk, Color::Black, Role::King),
            ] {
                board.set(Square::new_masked(sq), Some(Piece::new(color, role)));
            }
            if board.pieces().count() != 4 {
                continue;
            }
            let colour = usize::from(!Square::new_masked(b).is_light());
            for (t, turn) in [Color::White, Color::Black].into_iter().enumerate() {
                let setup = Setup {
                    board: board.clone(),
                    turn,
                    castling: CastlingRights::NONE,
                    ep_square: None,
                    halfmoves: 0,
                    fullmoves: 1,
                };
                let Ok(p) = Position::from_setup(setup, Validation::Lenient) else {
                    continue;
                };
                let c = &mut out[colour][t];
                c.legal += 1;
                match SOLVED.dtm(&p).expect("KBNvK") {
                    Dtm::Win(n) => {
                        c.wins += 1;
                        c.histogram[n as usize] += 1;
                    }
                    Dtm::Loss(n) => {
                        c.losses += 1;
                        c.histogram[n as usize] += 1;
                        if n == 0 {
                            c.checkmates += 1;
                        }
                    }
                    Dtm::Draw => c.draws += 1,
                }
            }
        }
        out
    };
    LazyLock::force(&SOLVED);
    let (a, b) = std::thread::scope(|s| {
        let first = s.spawn(|| count(0..32));
        let second = count(32..64);
        (first.join().expect("worker thread"), second)
    });
    let mut all = a;
    for (x, y) in all.iter_mut().zip(&b) {
        for (p, q) in x.iter_mut().zip(y) {
            p.add(q);
        }
    }
    all
});

#[test]
fn the_published_figures_for_the_light_squared_bishop() {
    // Published with the earlier base (docs/background.md): 232 checkmates, 920 mates in 1, 156
    // "mates in 1.5" (Black to move, mated after one more White move), and 33 moves for the
    // longest mate.
    let [white, black] = &COUNTS[0];
    assert_eq!(black.checkmates, 232);
    assert_eq!(black.histogram[0], 232);
    assert_eq!(white.histogram[1], 920);
    assert_eq!(black.histogram[1], 156);
    assert_eq!(white.longest().map(|(n, _)| n), Some(33));
    assert_eq!(black.longest().map(|(n, _)| n), Some(33));
}

#[test]
fn the_published_solved_slot_count_is_not_a_count_of_legal_positions() {
    // The earlier base reports 5,609,790 solved slots of its White-to-move array. There are
    // fewer legal White-to-move positions with a light-squared bishop than that, so the figure
    // counts slots that are not legal positions (see docs/background.md).
    let [white, black] = &COUNTS[0];
    assert!(white.legal < 5_609_790);
    // The exact counts docs/background.md sets against the published ones.
    assert_eq!(
        (white.legal, white.wins, white.draws),
        (5_437_752, 5_411_092, 26_660)
    );
    assert_eq!(black.losses, 5_594_084);
    // The published "156 positions at the longest mate" does not hold either.
    assert_eq!(white.longest(), Some((33, 552)));
    assert_eq!(black.longest(), Some((33, 1_480)));
    let mut both = white.clone();
    both.add(&COUNTS[1][0]);
    assert_eq!(both.longest(), Some((33, 1_104)));
}

#[test]
fn both_bishop_colours_give_the_same_counts() {
    // Mirroring the files swaps the bishop's colour and keeps every value.
    assert_eq!(COUNTS[0], COUNTS[1]);
    assert_eq!(COUNTS[0][1].checkmates + COUNTS[1][1].checkmates, 2 * 232);
}

#[test]
fn hand_checked_positions() {
    // Checkmate in the light corner: Bd5+ covers a8, Kb6 covers a7 and b7, Na6 covers b8.
    assert_eq!(
        TB.probe(&pos("k7/8/NK6/3B4/8/8/8/8 b - - 0 1"))
            .expect("probe"),
        Dtm::Loss(0)
    );
    // One move earlier: Bd5# is the only mate.
    let p = pos("k7/8/NK2B3/8/8/8/8/8 w - - 0 1");
    let probe = TB.probe_moves(&p).expect("KBNvK");
    assert_eq!(probe.dtm, Dtm::Win(1));
    assert_eq!(probe.best.map(|m| p.san(m)), Some("Bd5#".into()));
    let mates: Vec<String> = probe
        .moves
        .iter()
        .filter(|m| m.after == Dtm::Loss(0))
        .map(|m| p.san(m.mv))
        .collect();
    assert_eq!(mates, ["Bd5#"]);
    // Stalemate: Ka8 is not attacked; a7 (knight), b7 and b8 (king) are.
    let p = pos("k7/2K5/8/1N6/8/8/8/4B3 b - - 0 1");
    let probe = TB.probe_moves(&p).expect("KBNvK");
    assert_eq!(probe.dtm, Dtm::Draw);
    assert!(probe.stalemate);
    assert!(probe.best.is_none());
    // Black takes the undefended knight: a draw, and the probe says which move draws.
    let p = pos("k7/1N6/8/8/8/8/8/K1B5 b - - 0 1");
    let probe = TB.probe_moves(&p).expect("KBNvK");
    assert_eq!(probe.dtm, Dtm::Draw);
    assert_eq!(probe.best.map(|m| p.san(m)), Some("Kxb7".into()));
    // The knight defended by the king: no capture, Black is lost.
    let p = pos("k7/1N6/1K6/8/8/8/8/2B5 b - - 0 1");
    assert!(matches!(TB.probe(&p), Ok(Dtm::Loss(_))));
}

#[test]
fn the_longest_mates_end_in_checkmate_after_65_plies() {
    // White-to-move positions at the longest distance (light bishop): the optimal line, played
    // with tabla's moves, ends in checkmate after 65 plies.
    let mut found = 0;
    'search: for king in Square::ALL {
        for bishop in Square::ALL.into_iter().filter(|s| s.is_light()) {
            for knight in Square::ALL {
                for bare in Square::ALL {
                    let mut board = Board::empty();
                    for (sq, color, role) in [
                        (king, Color::White, Role::King),
                        (bishop, Color::White, Role::Bishop),
                        (knight, Color::White, Role::Knight),
                        (bare, Color::Black, Role::King),
                    ] {
                        board.set(sq, Some(Piece::new(color, role)));
                    }
                    let fen = format!("{} w - - 0 1", tabla::board_fen(&board));
                    let Ok(start) = Position::from_fen(&fen) else {
                        continue;
                    };
                    if start.board().pieces().count() != 4
                        || SOLVED.dtm(&start) != Some(Dtm::Win(33))
                    {
                        continue;
                    }
                    let line = TB.line(&start).expect("KBNvK");
                    assert_eq!(line.len(), 65, "{fen}");
                    let mut end = start.clone();
                    for &mv in &line {
                        end.play(mv).expect("a legal move");
                    }
                    assert!(end.is_checkmate(), "{fen} ends in {}", end.to_fen());
                    found += 1;
                    if found == 3 {
                        break 'search;
                    }
                }
            }
        }
    }
    assert_eq!(found, 3);
}

#[test]
fn probe_errors_are_typed() {
    // Another ending: its table is missing (named, with the command that builds it).
    match TB.probe(&pos("8/8/8/4k3/8/8/8/KQ6 w - - 0 1")) {
        Err(TbError::Missing { missing, .. }) => assert_eq!(missing.to_string(), "KQvK"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        TB.probe(&pos(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
        )),
        Err(TbError::TooMany(32))
    ));
    assert!(matches!(
        TB.probe(&pos("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")),
        Err(TbError::Castling)
    ));
    // A capture leads to KBvK, solved with KBNvK: a draw.
    assert_eq!(
        TB.probe(&pos("8/8/8/4k3/8/8/8/KB6 w - - 0 1"))
            .expect("KBvK"),
        Dtm::Draw
    );
}

#[test]
fn black_with_the_pieces_is_the_same_endgame() {
    // The mate above with colours and ranks swapped.
    assert_eq!(
        TB.probe(&pos("8/8/8/8/3b4/nk6/8/K7 w - - 0 1"))
            .expect("probe"),
        Dtm::Loss(0)
    );
    let white = TB
        .probe(&pos("k7/8/NK2B3/8/8/8/8/8 w - - 0 1"))
        .expect("probe");
    let black = TB
        .probe(&pos("8/8/8/8/8/nk2b3/8/K7 b - - 0 1"))
        .expect("probe");
    assert_eq!(white, black);
}

#[test]
fn a_line_from_black_to_move_is_numbered_from_black_and_ends_in_mate() {
    let p = pos("1k6/8/NK6/8/4B3/8/8/8 b - - 0 1");
    let line = TB.line(&p).expect("KBNvK");
    let text = p.variation_san(&line).expect("a legal line");
    assert!(text.starts_with("1... "), "{text}");
    assert!(text.ends_with('#'), "{text}");
}

#[test]
fn the_two_byte_format_holds_the_published_figures_and_tablas_moves() {
    let solution = SOLVED.get(kbnvk()).expect("solved");
    let bytes = two_byte::export(solution).expect("KBNvK");
    assert_eq!(bytes.len(), 16 * 1024 * 1024);
    assert_eq!(bytes.len(), two_byte::LEN);
    // The published figures read back from the format: 920 mates in one, 33 at most.
    let firsts = bytes.iter().step_by(2);
    assert_eq!(firsts.clone().filter(|&&m| m == 1).count(), 920);
    assert_eq!(firsts.clone().copied().max(), Some(33));
    assert_eq!(firsts.filter(|&&m| m > 0).count() as u64, COUNTS[0][0].wins);
    let file = two_byte::Table::from_bytes(bytes).expect("length");
    // Every entry of a sample, both bishop colours, checked with tabla's moves.
    let mut checked = 0;
    for (i, king) in Square::ALL.into_iter().enumerate().step_by(5) {
        for bishop in Square::ALL.into_iter().skip(i % 3).step_by(3) {
            for knight in Square::ALL.into_iter().skip(i % 7).step_by(7) {
                for bare in Square::ALL {
                    let mut board = Board::empty();
                    for (sq, color, role) in [
                        (king, Color::White, Role::King),
                        (bishop, Color::White, Role::Bishop),
                        (knight, Color::White, Role::Knight),
                        (bare, Color::Black, Role::King),
                    ] {
                        board.set(sq, Some(Piece::new(color, role)));
                    }
                    let fen = format!("{} w - - 0 1", tabla::board_fen(&board));
                    let Ok(mut p) = Position::from_fen_with(&fen, Validation::Lenient) else {
                        continue;
                    };
                    if p.board().pieces().count() != 4 {
                        continue;
                    }
                    let entry = file.entry(king, bishop, knight, bare);
                    match SOLVED.dtm(&p).expect("KBNvK") {
                        Dtm::Win(n) => {
                            assert_eq!(entry.moves, n, "{fen}");
                            let mv = p
                                .legal_moves()
                                .into_iter()
                                .find(|m| Some(m.role()) == entry.role && m.to() == entry.to)
                                .unwrap_or_else(|| panic!("{fen}: {entry:?} is not legal"));
                            p.play(mv).expect("a legal move");
                            assert_eq!(SOLVED.dtm(&p), Some(Dtm::Loss(n - 1)), "{fen}");
                        }
                        _ => assert_eq!(entry.moves, 0, "{fen}"),
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
    assert_eq!(
        two_byte::slot(Square::H8, Square::G8, Square::A1, Square::B1),
        Some(((63 * 32 + 31) * 64) * 64 + 1)
    );
    let mut kqvk = Solved::new();
    let men: Men = "KQvK".parse().expect("men");
    kqvk.solve(men).expect("KQvK");
    assert!(two_byte::export(kqvk.get(men).expect("solved")).is_err());
}
