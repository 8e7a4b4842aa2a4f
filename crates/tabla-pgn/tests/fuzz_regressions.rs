//! The inputs that once failed the fuzz target `pgn_reader` (fuzz/regressions/pgn_reader), checked the same way
//! in every test run: every game writes back to text that reads as one game and writes back to
//! the same text, and the file gives the same games at every cut into two ranges.

mod common;

use common::{dump_game, read_all};
use std::io::Cursor;
use tabla_pgn::{Reader, write_game};

#[test]
fn fuzz_regressions_hold() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions/pgn_reader");
    let mut files = 0;
    for entry in std::fs::read_dir(dir).expect("regressions directory") {
        let path = entry.expect("entry").path();
        let bytes = std::fs::read(&path).expect("regression file");
        let games = read_all(&bytes);
        for game in &games {
            let written = write_game(game);
            let again = read_all(written.as_bytes());
            assert_eq!(again.len(), 1, "{}: {written}", path.display());
            assert_eq!(write_game(&again[0]), written, "{}", path.display());
        }
        let whole: Vec<String> = games.iter().map(dump_game).collect();
        for cut in (0..=bytes.len() as u64).step_by(7) {
            let mut ranged = Vec::new();
            for (start, end) in [(0, cut), (cut, bytes.len() as u64)] {
                let mut reader = Reader::range(Cursor::new(&bytes), start, end).expect("seekable");
                ranged.extend(reader.games().map(|g| dump_game(&g.expect("in memory"))));
            }
            assert_eq!(ranged, whole, "{} cut at {cut}", path.display());
        }
        files += 1;
    }
    assert!(files >= 4);
}
