//! `tabla fen`: the report on valid positions, checked against python-chess (1.11.2), and the
//! messages and exit status for invalid ones.

mod common;

use common::{Run, tabla};

/// The value of a `key  value` line of the report.
fn field<'a>(run: &'a Run, key: &str) -> &'a str {
    run.stdout
        .lines()
        .find_map(|l| l.strip_prefix(key).filter(|rest| rest.starts_with(' ')))
        .map(str::trim)
        .unwrap_or_else(|| panic!("no {key:?} line in:\n{}", run.stdout))
}

/// The rows of the move table: (SAN, long, UCI), sorted by SAN.
fn moves(run: &Run) -> Vec<(String, String, String)> {
    let mut rows: Vec<(String, String, String)> = run
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("legal moves"))
        .skip(2)
        .map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(cols.len(), 3, "move row {l:?}");
            (cols[0].into(), cols[1].into(), cols[2].into())
        })
        .collect();
    rows.sort();
    rows
}

fn sans(run: &Run) -> Vec<String> {
    moves(run).into_iter().map(|m| m.0).collect()
}

fn longs(run: &Run) -> Vec<String> {
    let mut v: Vec<String> = moves(run).into_iter().map(|m| m.1).collect();
    v.sort();
    v
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(String::from).collect()
}

#[test]
fn startpos() {
    let run = tabla(&[
        "fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        field(&run, "fen"),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    // The `+-+-+` text diagram: rank 8 first, FEN letters, blanks for empty squares.
    let lines: Vec<&str> = run.stdout.lines().collect();
    let top = lines
        .iter()
        .position(|l| *l == "+-+-+-+-+-+-+-+-+")
        .expect("diagram");
    assert_eq!(lines[top + 1], "|r|n|b|q|k|b|n|r|");
    assert_eq!(lines[top + 5], "| | | | | | | | |");
    assert_eq!(lines[top + 15], "|R|N|B|Q|K|B|N|R|");
    assert_eq!(lines[top + 16], "+-+-+-+-+-+-+-+-+");
    assert_eq!(field(&run, "to move"), "white");
    assert_eq!(field(&run, "check"), "no");
    assert_eq!(field(&run, "status"), "in play");
    assert_eq!(field(&run, "claims"), "none");
    // The Polyglot key of the start position, published in the Polyglot book format description.
    assert_eq!(field(&run, "zobrist"), "463b96181691fc9c");
    assert_eq!(field(&run, "legal moves"), "(20)");
    assert_eq!(
        sans(&run),
        words("Na3 Nc3 Nf3 Nh3 a3 a4 b3 b4 c3 c4 d3 d4 e3 e4 f3 f4 g3 g4 h3 h4")
    );
    assert!(moves(&run).contains(&("Nf3".into(), "Ng1-f3".into(), "g1f3".into())));
}

#[test]
fn startpos_keyword_and_unquoted_fen_give_the_same_report() {
    let keyword = tabla(&["fen", "startpos"]);
    let words: Vec<&str> = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        .split(' ')
        .collect();
    let unquoted = tabla(&[&["fen"][..], &words].concat());
    assert_eq!((keyword.code, unquoted.code), (0, 0));
    assert_eq!(keyword.stdout, unquoted.stdout);
}

#[test]
fn kiwipete_moves_match_python_chess() {
    let run = tabla(&[
        "fen",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // Four fields in, six out.
    assert_eq!(
        field(&run, "fen"),
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    );
    assert_eq!(field(&run, "zobrist"), "c3ce103f01d15e1d");
    assert_eq!(
        sans(&run),
        words(
            "Bb5 Bc1 Bc4 Bd1 Bd3 Be3 Bf1 Bf4 Bg5 Bh6 Bxa6 Kd1 Kf1 Na4 Nb1 Nb5 Nc4 Nc6 Nd1 Nd3 Ng4 \
             Nxd7 Nxf7 Nxg6 O-O O-O-O Qd3 Qe3 Qf4 Qf5 Qg3 Qg4 Qh5 Qxf6 Qxh3 Rb1 Rc1 Rd1 Rf1 Rg1 \
             a3 a4 b3 d6 dxe6 g3 g4 gxh3"
        )
    );
    // python-chess's `Board.lan` writes the same long form (`e2-e4`, `Ng8-f6`).
    assert_eq!(
        longs(&run),
        words(
            "Bd2-c1 Bd2-e3 Bd2-f4 Bd2-g5 Bd2-h6 Be2-b5 Be2-c4 Be2-d1 Be2-d3 Be2-f1 Be2xa6 Ke1-d1 \
             Ke1-f1 Nc3-a4 Nc3-b1 Nc3-b5 Nc3-d1 Ne5-c4 Ne5-c6 Ne5-d3 Ne5-g4 Ne5xd7 Ne5xf7 Ne5xg6 \
             O-O O-O-O Qf3-d3 Qf3-e3 Qf3-f4 Qf3-f5 Qf3-g3 Qf3-g4 Qf3-h5 Qf3xf6 Qf3xh3 Ra1-b1 \
             Ra1-c1 Ra1-d1 Rh1-f1 Rh1-g1 a2-a3 a2-a4 b2-b3 d5-d6 d5xe6 g2-g3 g2-g4 g2xh3"
        )
    );
    let castles: Vec<_> = moves(&run)
        .into_iter()
        .filter(|m| m.0.starts_with('O'))
        .map(|m| m.2)
        .collect();
    assert_eq!(castles, ["e1g1", "e1c1"]);
}

#[test]
fn pinned_knight_is_not_a_candidate_for_disambiguation() {
    // The c3 knight is pinned by the b4 bishop, so only the g1 knight reaches e2: `Ne2`.
    let run = tabla(&[
        "fen",
        "r1bqk1nr/pppp1ppp/2n5/4p3/1b2P3/2N5/PPP2PPP/R1BQKBNR w KQkq - 0 1",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        sans(&run),
        words(
            "Ba6 Bb5 Bc4 Bd2 Bd3 Be2 Be3 Bf4 Bg5 Bh6 Kd2 Ke2 Ne2 Nf3 Nh3 Qd2 Qd3 Qd4 Qd5 Qd6 Qe2 \
             Qf3 Qg4 Qh5 Qxd7+ Rb1 a3 a4 b3 f3 f4 g3 g4 h3 h4"
        )
    );
    // With the d2 pawn back the knight is free, and both knights need their file.
    let free = tabla(&[
        "fen",
        "r1bqk1nr/pppp1ppp/2n5/4p3/1b2P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - 0 1",
    ]);
    let sans = sans(&free);
    assert!(sans.contains(&"Nce2".into()) && sans.contains(&"Nge2".into()));
}

#[test]
fn promotions_and_check_suffixes() {
    let run = tabla(&["fen", "4k3/1P6/8/8/8/8/8/K7 w - - 0 1"]);
    assert_eq!(sans(&run), words("Ka2 Kb1 Kb2 b8=B b8=N b8=Q+ b8=R+"));
    assert_eq!(
        longs(&run),
        words("Ka1-a2 Ka1-b1 Ka1-b2 b7-b8=B b7-b8=N b7-b8=Q+ b7-b8=R+")
    );
}

#[test]
fn check() {
    let run = tabla(&[
        "fen",
        "rnbqkbnr/ppp2ppp/3p4/1B2p3/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3",
    ]);
    assert_eq!(field(&run, "to move"), "black");
    assert_eq!(field(&run, "check"), "yes, by the bishop on b5");
    assert_eq!(field(&run, "status"), "in play");
    assert_eq!(sans(&run), words("Bd7 Ke7 Nc6 Nd7 Qd7 c6"));
}

#[test]
fn checkmate() {
    // Fool's mate.
    let run = tabla(&[
        "fen",
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    ]);
    assert_eq!(run.code, 0);
    assert_eq!(field(&run, "check"), "yes, by the queen on h4");
    assert_eq!(field(&run, "status"), "checkmate, black wins (0-1)");
    assert_eq!(field(&run, "legal moves"), "(0)");
    assert_eq!(field(&run, "zobrist"), "ffb8dd4296fd8e38");
    assert!(moves(&run).is_empty());
}

#[test]
fn stalemate() {
    let run = tabla(&["fen", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"]);
    assert_eq!(field(&run, "check"), "no");
    assert_eq!(field(&run, "status"), "stalemate, draw (1/2-1/2)");
    assert_eq!(field(&run, "legal moves"), "(0)");
}

#[test]
fn insufficient_material() {
    let run = tabla(&["fen", "8/8/4k3/8/8/3K4/8/8 w - - 0 1"]);
    assert_eq!(
        field(&run, "status"),
        "insufficient material, draw (1/2-1/2)"
    );
    assert_eq!(sans(&run), words("Kc2 Kc3 Kc4 Kd2 Kd4 Ke2 Ke3 Ke4"));
}

#[test]
fn fifty_move_claim() {
    let run = tabla(&["fen", "4k3/8/8/8/8/8/4P3/4K3 w - - 100 80"]);
    assert_eq!(field(&run, "status"), "in play");
    assert_eq!(field(&run, "claims"), "draw by the 50-move rule");
    let before = tabla(&["fen", "4k3/8/8/8/8/8/4P3/4K3 w - - 99 80"]);
    assert_eq!(field(&before, "claims"), "none");
}

#[test]
fn canonical_output_of_tolerant_input() {
    // Extra spaces and a fullmove number of 0, as the knight-check position was first published
    // (docs/background.md).
    let run = tabla(&["fen", "  8/8/8/8/8/kn1b4/2P5/K7   w  -  -  0 0 "]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(field(&run, "fen"), "8/8/8/8/8/kn1b4/2P5/K7 w - - 0 1");
}

/// Runs `tabla fen <fen>` and expects exit status 2 with every `needle` in the message.
fn rejects(fen: &str, needles: &[&str]) {
    let run = tabla(&["fen", fen]);
    assert_eq!(run.code, 2, "{fen}: {}", run.stdout);
    assert!(run.stdout.is_empty(), "{fen}: {}", run.stdout);
    for needle in needles {
        assert!(
            run.stderr.contains(needle),
            "{fen}: {needle:?} not in {:?}",
            run.stderr
        );
    }
}

#[test]
fn syntax_errors_name_the_field() {
    rejects("", &["empty FEN"]);
    rejects("8/8/8 w - -", &["placement", "3 ranks"]);
    rejects("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", &["1 field,"]);
    rejects(
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &["rank 6", "'9'"],
    );
    rejects(
        "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &["rank 7", "'x'", "not a piece letter"],
    );
    rejects(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
        &["rank 1", "fewer than 8 squares"],
    );
    rejects(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1",
        &["rank 1", "more than 8 squares"],
    );
    rejects(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        &["side to move", "\"x\""],
    );
    rejects(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1",
        &["castling field", "\"KQxq\""],
    );
    rejects(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e5 0 1",
        &["en-passant field", "\"e5\""],
    );
    rejects(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
        &["halfmove clock", "\"-1\""],
    );
    rejects(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 x",
        &["fullmove number", "\"x\""],
    );
}

#[test]
fn illegal_positions_name_every_problem() {
    rejects("8/8/8/8/8/8/8/8 w - - 0 1", &["a side has no king"]);
    rejects(
        "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
        &["pawns on the first or eighth rank"],
    );
    rejects(
        "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1",
        &["the side not to move is in check"],
    );
    rejects(
        "4k3/8/8/8/8/8/8/4K3 w KQ - 0 1",
        &["castling rights without the king and rook in place"],
    );
    // Two problems at once, both reported.
    rejects(
        "4k3/8/8/8/8/8/8/P3K3 w K - 0 1",
        &["pawns on the first or eighth rank", "castling rights"],
    );
}

#[test]
fn lenient_accepts_playable_setups_and_says_so() {
    let fen = "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1";
    rejects(fen, &["the check cannot arise in a game", "--lenient"]);
    let run = tabla(&["fen", "--lenient", fen]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(field(&run, "note").contains("the check cannot arise in a game"));
    assert_eq!(
        field(&run, "check"),
        "yes, double check by the bishop on h1 and the bishop on a8"
    );
    assert_eq!(sans(&run), words("Ke2 Ke3 Kf2 Kf4 Kg3 Kg4"));
    // Lenient is not lawless: a missing king stays an error, without the hint.
    let run = tabla(&["fen", "--lenient", "8/8/8/8/8/8/8/K7 w - - 0 1"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("a side has no king") && !run.stderr.contains("--lenient"));
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(tabla(&["fen"]).code, 2);
    assert_eq!(tabla(&["frobnicate"]).code, 2);
    assert_eq!(tabla(&[]).code, 2);
    assert_eq!(tabla(&["--help"]).code, 0);
}
