//! Table files: built into a directory (resumably), their counts checked against a count over
//! every legal position, damaged files refused. (`tests/solve.rs` checks every table of up to
//! four men as files against the tables in memory.)

use std::path::Path;
use tabla::{Color, Position};
use tabla_endgame::{Dtm, Men, Solved, Tablebase, TbFile, build};

fn built(dir: &Path, names: &[&str]) -> Vec<tabla_endgame::Built> {
    let men: Vec<Men> = names.iter().map(|n| n.parse().expect("men")).collect();
    build(dir, &men, 2, &|_| {}).expect("build")
}

#[test]
fn counts_kept_beside_a_table_equal_a_count_over_every_legal_position() {
    let dir = tempfile::tempdir().expect("temp dir");
    built(dir.path(), &["KPvK"]);
    let tb = Tablebase::open(dir.path()).expect("open");
    let stats = tb.stats("KvKP".parse().expect("men")).expect("stats");
    assert_eq!(stats.men.to_string(), "KPvK");
    let mut solved = Solved::new();
    solved.solve(stats.men).expect("solve");
    // Every placement with White's king on files a to d (one of each mirrored pair), each legal
    // position classified by the in-memory table.
    let mut want: [[u64; 4]; 2] = [[0; 4]; 2];
    for wk in 0..64u8 {
        if wk & 7 > 3 {
            continue;
        }
        for bk in 0..64u8 {
            for p in 8..56u8 {
                if wk == bk || wk == p || bk == p {
                    continue;
                }
                for (t, turn) in [(0, "w"), (1, "b")] {
                    let mut board = tabla::Board::empty();
                    let put = |b: &mut tabla::Board, sq: u8, c, r| {
                        b.set(tabla::Square::new_masked(sq), Some(tabla::Piece::new(c, r)));
                    };
                    put(&mut board, wk, Color::White, tabla::Role::King);
                    put(&mut board, bk, Color::Black, tabla::Role::King);
                    put(&mut board, p, Color::White, tabla::Role::Pawn);
                    let fen = format!("{} {turn} - - 0 1", tabla::board_fen(&board));
                    let Ok(pos) = Position::from_fen_with(&fen, tabla::Validation::Lenient) else {
                        continue;
                    };
                    want[t][0] += 1;
                    match solved.dtm(&pos).expect("dtm") {
                        Dtm::Win(_) => want[t][1] += 1,
                        Dtm::Draw => want[t][2] += 1,
                        Dtm::Loss(_) => want[t][3] += 1,
                    }
                }
            }
        }
    }
    for (s, want) in stats.sides.iter().zip(want) {
        assert_eq!([s.positions, s.wins, s.draws, s.losses], want);
    }
    // KPK's longest win: 28 moves (Peter Karrer's 3-man statistics), e.g. Ka2 Pg2 kb5.
    let (plies, fen) = stats.sides[0].longest.clone().expect("a win");
    assert_eq!(plies, 55);
    let pos = Position::from_fen(&fen).expect("fen");
    assert_eq!(tb.probe(&pos).expect("probe"), Dtm::Win(28));
}

#[test]
fn a_second_build_skips_what_is_built_and_damaged_files_are_refused() {
    // KPvK: block-coded (an ending with pawns); tests/derived.rs damages a derived file.
    let dir = tempfile::tempdir().expect("temp dir");
    built(dir.path(), &["KPvK"]);
    let again = built(dir.path(), &["KPvK"]);
    assert!(again.iter().all(|r| r.skipped), "{again:?}");
    let path = dir.path().join("KPvK.tbm");
    let bytes = std::fs::read(&path).expect("read");
    // Truncated: refused at open.
    std::fs::write(&path, &bytes[..bytes.len() - 1]).expect("write");
    assert!(TbFile::open(&path).is_err());
    // A header byte changed: refused at open.
    let mut changed = bytes.clone();
    changed[33] ^= 1;
    std::fs::write(&path, &changed).expect("write");
    assert!(TbFile::open(&path).is_err());
    // A block's byte changed: the block is refused when read, never read as other values.
    let mut changed = bytes.clone();
    let last = changed.len() - 20;
    changed[last] ^= 0x40;
    std::fs::write(&path, &changed).expect("write");
    let file = TbFile::open(&path).expect("the header and index are intact");
    assert!(file.values(tabla::Color::Black).is_err());
    // Rebuilt when damaged beyond opening.
    std::fs::write(&path, &bytes[..100]).expect("write");
    let rebuilt = built(dir.path(), &["KPvK"]);
    assert!(
        rebuilt
            .iter()
            .any(|r| !r.skipped && r.men.to_string() == "KPvK")
    );
    assert_eq!(std::fs::read(&path).expect("read"), bytes);
}
