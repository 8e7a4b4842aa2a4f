//! Any bytes as a PGN file. Reading must end without a panic, in every way the crate offers
//! (visitor replay, trees, byte ranges); every game read must write back to text that reads as
//! one game and writes back to the same text (the export format is a fixed point).

#![no_main]

use libfuzzer_sys::fuzz_target;
use std::io::Cursor;
use tabla_pgn::{Reader, Replayer, Summarize, game_json, write_game};

fuzz_target!(|data: &[u8]| {
    // The light replay and the trees see the same games.
    let mut reader = Reader::new(data);
    let mut summaries = Vec::new();
    let mut visitor = Replayer::new(Summarize::new(true));
    while let Some(summary) = reader.read_game(&mut visitor).expect("in memory") {
        summaries.push(summary);
    }
    let games: Vec<_> = Reader::new(data)
        .games()
        .collect::<Result<_, _>>()
        .expect("in memory");
    assert_eq!(games.len(), summaries.len());

    for (game, summary) in games.iter().zip(&summaries) {
        assert_eq!(game.mainline().len(), summary.plies);
        let written = write_game(game);
        let again: Vec<_> = Reader::new(written.as_bytes())
            .games()
            .collect::<Result<_, _>>()
            .expect("in memory");
        assert_eq!(again.len(), 1, "{written}");
        assert_eq!(write_game(&again[0]), written);
        assert_eq!(again[0].mainline().len(), game.mainline().len());
        let _ = game_json(game);
    }

    // Cut in two at a byte the input chooses: the same games, each once.
    if let Some(&first) = data.first() {
        let cut = (first as u64 * data.len() as u64) / 255;
        let mut count = 0;
        for (start, end) in [(0, cut), (cut, data.len() as u64)] {
            let mut reader = Reader::range(Cursor::new(data), start, end).expect("in memory");
            count += reader.games().count();
        }
        assert_eq!(count, games.len());
    }
});
