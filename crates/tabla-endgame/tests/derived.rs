//! Table files in the derived coding (one side stored whole, the other solved from it at the
//! first probe): every position reads back as solved in memory, the KBNvK file is within its
//! size goal, and a damaged file is refused or reported, never read as other values.

use std::path::Path;
use tabla::Color;
use tabla_endgame::{Men, Solved, Tablebase, TbFile, build, table_file_name};

fn men(name: &str) -> Men {
    name.parse().expect("men")
}

/// Builds `name` into `dir` and checks every `step`-th slot of its layout, both sides to move,
/// against the ending solved in memory. Returns the file's size.
fn round_trip(dir: &Path, name: &str, step: usize) -> u64 {
    let men = men(name);
    build(dir, &[men], 2, &|_| {}).expect("built");
    let file = TbFile::open(&dir.join(table_file_name(men))).expect("opened");
    assert!(
        file.derived(),
        "{name}: a pawnless ending of up to four men is derived"
    );
    assert_eq!(file.stored().len(), 1, "{name}: one side stored");
    let tb = Tablebase::open(dir).expect("opened");
    let mut solved = Solved::new();
    solved.solve(men).expect("solved");
    let layout = solved.get(men).expect("solved").layout();
    let mut checked = [0usize; 2];
    for (t, turn) in [Color::White, Color::Black].into_iter().enumerate() {
        for slot in (0..layout.size()).step_by(step) {
            let Some(pos) = layout.position(slot, turn) else {
                continue;
            };
            let want = solved.dtm(&pos).expect("solved");
            assert_eq!(tb.probe(&pos).expect("probed"), want, "{}", pos.to_fen());
            checked[t] += 1;
        }
    }
    assert!(checked.iter().all(|&c| c > 100_000), "{name}: {checked:?}");
    file.len()
}

#[test]
fn kbnvk_reads_back_every_position_from_a_file_of_at_most_300_kb() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bytes = round_trip(dir.path(), "KBNvK", 1);
    // The goal of issue 41 (the KBNK-only file it replaces was 268 KB; the block coding of
    // both sides, 1,362,732 bytes).
    assert!(bytes <= 300_000, "{bytes} bytes");
}

#[test]
fn an_ending_with_a_defending_piece_reads_back_too() {
    let dir = tempfile::tempdir().expect("temp dir");
    round_trip(dir.path(), "KQvKR", 7);
}

#[test]
fn a_damaged_derived_file_is_refused_or_reported() {
    let dir = tempfile::tempdir().expect("temp dir");
    let men = men("KRvK");
    build(dir.path(), &[men], 2, &|_| {}).expect("built");
    let path = dir.path().join(table_file_name(men));
    let bytes = std::fs::read(&path).expect("read");
    let pos = tabla::Position::from_fen("k7/8/1K6/8/8/8/8/7R w - - 0 1").expect("fen");
    // Truncated: refused at open.
    std::fs::write(&path, &bytes[..bytes.len() - 1]).expect("write");
    assert!(TbFile::open(&path).is_err());
    // A byte of the stored side changed: the file opens (its header is intact), and the first
    // probe reports the damage, naming the file.
    for at in [bytes.len() - 1, bytes.len() / 2 + 60] {
        let mut changed = bytes.clone();
        changed[at] ^= 0x10;
        std::fs::write(&path, &changed).expect("write");
        let tb = Tablebase::open(dir.path()).expect("the header is intact");
        let err = tb.probe(&pos).expect_err("damaged").to_string();
        assert!(err.contains("KRvK.tbm"), "{err}");
        // Reported again, not retried into a panic.
        assert!(tb.probe(&pos).is_err());
    }
    // Intact, it reads.
    std::fs::write(&path, &bytes).expect("write");
    let tb = Tablebase::open(dir.path()).expect("opened");
    assert_eq!(tb.probe(&pos).expect("probed"), tabla_endgame::Dtm::Win(1));
}
